// The play page: the new-game form, the table, the end of a hand and of the game, hints.
import { api, cardBack, cardFace, cardLabel, cardsText, el, formatNumber, header, showError, t, fill } from "./common.js";

const main = document.getElementById("main");
let options = null;   // /api/options
let game = null;      // the last answer of the server: what the person may see
let mode = "play";    // "play", or "knock" / "gin" while choosing the card to go out with
let order = [];       // the person's own order of their cards, when they have moved any
let busy = false;
let hintBox = null;

header("nav.play");

function who(player) {
  return player === 0 ? t("who.you") : t("who.them", { name: game.opponent });
}

function moveText(m) {
  const values = { who: who(m.player), card: m.card ? cardLabel(m.card) : "" };
  if (m.move === "stock" && m.card) return t("move.stock.card", values);
  return t(`move.${m.move}`, values);
}

async function start() {
  try {
    options = await api("/api/options");
  } catch (error) {
    showError(main, error);
    return;
  }
  const saved = new URLSearchParams(location.search).get("game") || localStorage.getItem("ginsim.game");
  if (saved) {
    try {
      show(await api(`/api/games/${encodeURIComponent(saved)}`));
      return;
    } catch {
      localStorage.removeItem("ginsim.game");
    }
  }
  newGameForm();
}

function select(name, label, choices, value) {
  const id = `new-${name}`;
  return el("p", {}, el("label", { for: id, text: label }),
    el("select", { id, name }, choices.map(([v, text]) => el("option", { value: v, selected: String(v) === String(value), text }))));
}

// The new-game form: every choice with a line saying what it does, the opponents as levels (weakest first,
// with their ratings), and only what can be played: a choice the rules rule out is disabled and says why.
function newGameForm() {
  const d = options.defaults;
  const levels = options.opponents;
  const rated = (o) => (o.rating !== null ? t("level.rating", { n: Math.round(o.rating) })
    : o.beyond ? t(`level.${o.beyond}`) : t("level.unrated"));
  const levelText = (o) => t("level.option", { n: levels.indexOf(o) + 1, name: t(`level.${o.name}`), rating: rated(o) });
  const help = (name) => el("p", { class: "about", id: `help-${name}` });
  const field = (control, name) => {
    control.querySelector("select, input").setAttribute("aria-describedby", `help-${name}`);
    return [control, help(name)];
  };
  const hollywood = el("p", {}, el("label", {}, el("input", { type: "checkbox", name: "hollywood", id: "new-hollywood" }), " ", t("new.hollywood")));
  const form = el("form", { class: "new-game", "aria-labelledby": "new-title" },
    el("h1", { id: "new-title", text: t("new.title") }),
    el("p", {}, el("a", { href: "/how-to-play", text: t("new.howto") })),
    field(select("preset", t("new.preset"), options.presets.map((p) => [p, t(`preset.${p}`)]), d.preset), "preset"),
    field(select("target", t("new.target"), options.targets.map((n) => [n === null ? "one" : n,
      n === null ? t("new.target.one") : t("new.target.points", { points: n })]), d.target), "target"),
    field(select("knock_limit", t("new.knock"), [["", t("new.knock.preset")], [10, "10"], [5, "5"]], ""), "knock_limit"),
    field(hollywood, "hollywood"),
    field(select("first_dealer", t("new.dealer"), ["random", "you", "opponent"].map((v) => [v, t(`new.dealer.${v}`)]), d.first_dealer), "first_dealer"),
    field(select("opponent", t("new.opponent"), levels.map((o) => [o.name, levelText(o)]), d.opponent), "opponent"),
    el("p", { class: "about", id: "opponent-note", "aria-live": "polite" }),
    el("p", { class: "about", text: t("help.levels") }),
    el("p", {}, el("button", { type: "submit", class: "primary", text: t("new.start") })),
    el("div", { class: "form-error", "aria-live": "polite" }));
  const line = (name, text) => { form.querySelector(`#help-${name}`).textContent = text; };
  const limit = () => (form.knock_limit.value ? Number(form.knock_limit.value) : null);
  const plays = (o) => !o.cannot_play.some((c) => c.preset === form.preset.value && c.knock_limit === limit());
  // Bring every line and every disabled choice in step with the rules chosen; an opponent that cannot play them
  // is replaced by the nearest level that can (a weaker one first), and the note says so.
  const update = () => {
    const preset = form.preset.value, own = options.own_knock_limit.includes(preset);
    if (own) form.knock_limit.value = "";
    form.knock_limit.disabled = own;
    const single = form.target.value === "one";
    if (single) form.hollywood.checked = false;
    form.hollywood.disabled = single;
    line("preset", t(`help.preset.${preset}`));
    line("target", single ? t("help.target.one") : t("help.target.points", { points: form.target.value }));
    line("knock_limit", !own ? t("help.knock.open", { n: options.knock_limit[preset] })
      : t(preset === "oklahoma" ? "help.knock.oklahoma" : "help.knock.straight"));
    line("hollywood", single ? t("help.hollywood.off") : t("help.hollywood"));
    line("first_dealer", t("help.dealer"));
    const chosen = levels.find((o) => o.name === form.opponent.value);
    let note = "";
    for (const option of form.opponent.options) {
      const level = levels.find((o) => o.name === option.value);
      option.disabled = !plays(level);
      option.textContent = option.disabled ? t("level.unavailable", { option: levelText(level) }) : levelText(level);
    }
    if (!plays(chosen)) {
      const at = levels.indexOf(chosen);
      const nearest = [...levels].sort((a, b) => Math.abs(levels.indexOf(a) - at) - Math.abs(levels.indexOf(b) - at)
        || levels.indexOf(a) - levels.indexOf(b)).find(plays);
      form.opponent.value = nearest.name;
      note = t("level.switched", { name: t(`level.${chosen.name}`), other: t(`level.${nearest.name}`) });
    } else {
      const unable = levels.filter((o) => !plays(o)).map((o) => t(`level.${o.name}`));
      if (unable.length) note = t("level.cannot", { names: unable.join(", ") });
    }
    line("opponent", t(`level.about.${form.opponent.value}`));
    form.querySelector("#opponent-note").textContent = note;
  };
  for (const name of ["preset", "target", "knock_limit", "opponent"]) form[name].addEventListener("change", update);
  update();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const settings = {
      preset: form.preset.value, target: form.target.value === "one" ? null : Number(form.target.value),
      knock_limit: limit(), hollywood: form.hollywood.checked, first_dealer: form.first_dealer.value,
      opponent: form.opponent.value };
    const where = form.querySelector(".form-error");
    try {
      order = [];
      show(await api("/api/games", settings));
    } catch (error) {
      // The form offers only what can be played; should the server still refuse, a player reads a sentence.
      const known = { "opponent:": "new.refused.opponent", "hollywood:": "help.hollywood.off",
        "knock_limit:": "new.refused.knock" };
      const key = Object.keys(known).find((field) => error.message.startsWith(field));
      const sentence = key ? t(known[key]) : t("new.refused", { message: error.message });
      where.replaceChildren(el("p", { class: "error", role: "alert", text: sentence }));
    }
  });
  fill(main, form);
  form.preset.focus();
}

function show(answer) {
  game = answer;
  mode = "play";
  localStorage.setItem("ginsim.game", game.id);
  const url = new URL(location.href);
  url.searchParams.set("game", game.id);
  history.replaceState(null, "", url);
  render();
}

async function act(path, body) {
  if (busy) return;
  busy = true;
  // Until the answer comes, the page is busy: no second move can be sent, and a screen reader (or a test)
  // can tell that the table is about to change.
  main.setAttribute("aria-busy", "true");
  main.querySelectorAll("button").forEach((control) => { control.disabled = true; });
  const status = document.getElementById("status");
  if (status) status.textContent = t("turn.wait");
  let answer;
  try {
    answer = await api(`/api/games/${game.id}/${path}`, body);
  } catch (error) {
    busy = false;
    main.removeAttribute("aria-busy");
    render();
    showError(document.getElementById("message"), error);
    return;
  }
  busy = false;
  main.removeAttribute("aria-busy");
  show(answer);
}

const move = (action) => act("move", { action, hand: game.hand_number, move_count: game.move_count });

function legal(kind) {
  return (game.legal || []).filter((m) => m.kind === kind);
}

function handCards() {
  const cards = [...(game.melds || []).flat(), ...(game.deadwood_cards || [])];
  const kept = order.filter((c) => cards.includes(c));
  order = kept.length ? [...kept, ...cards.filter((c) => !kept.includes(c))] : [];
  return order.length ? order : cards;
}

function renderHand() {
  const discarding = game.phase === "discard" && game.your_turn;
  const allowed = new Set((mode === "play" ? legal("discard") : legal(mode)).map((m) => m.card));
  const groups = order.length ? [handCards()] : [...(game.melds || []), game.deadwood_cards || []];
  const meldCards = new Set((game.melds || []).flat());
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("you") });
  groups.forEach((group, index) => {
    if (!group.length) return;
    const isMeld = !order.length && index < (game.melds || []).length;
    const box = el("div", { class: `group ${isMeld ? "meld" : "loose"}` });
    for (const card of group) {
      const enabled = discarding && allowed.has(card);
      const face = cardFace(card, { button: true, disabled: discarding && !enabled, draggable: "true",
        class: `card ${"DH".includes(card.slice(-1)) ? "red" : "black"} ${meldCards.has(card) ? "in-meld" : ""} ${card === game.drawn ? "drawn" : ""} ${enabled ? "playable" : ""}`,
        title: discarding && game.after_discard ? t("deadwood.after", { card: cardLabel(card), n: game.after_discard[card] }) : null });
      face.addEventListener("click", () => {
        if (!discarding || !enabled) return;
        const chosen = (mode === "play" ? legal("discard") : legal(mode)).find((m) => m.card === card);
        if (chosen) move(chosen.action);
      });
      face.addEventListener("keydown", (event) => reorderKey(event, card));
      face.addEventListener("dragstart", (event) => event.dataTransfer.setData("text/plain", card));
      face.addEventListener("dragover", (event) => event.preventDefault());
      face.addEventListener("drop", (event) => { event.preventDefault(); moveCard(event.dataTransfer.getData("text/plain"), card); });
      face.addEventListener("focus", () => previewDiscard(card));
      face.addEventListener("mouseenter", () => previewDiscard(card));
      box.append(face);
    }
    hand.append(box);
  });
  return hand;
}

function moveCard(card, before) {
  const cards = handCards().slice();
  if (!cards.includes(card) || card === before) return;
  cards.splice(cards.indexOf(card), 1);
  cards.splice(cards.indexOf(before), 0, card);
  order = cards;
  render();
  document.querySelector(`.hand [data-card="${card}"]`)?.focus();
}

function reorderKey(event, card) {
  const cards = handCards();
  const at = cards.indexOf(card);
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  event.preventDefault();
  const next = at + (event.key === "ArrowLeft" ? -1 : 1);
  if (next < 0 || next >= cards.length) return;
  if (event.altKey || event.shiftKey) {   // move the card itself
    const moved = cards.slice();
    [moved[at], moved[next]] = [moved[next], moved[at]];
    order = moved;
    render();
    document.querySelector(`.hand [data-card="${card}"]`)?.focus();
  } else {
    document.querySelector(`.hand [data-card="${cards[next]}"]`)?.focus();
  }
}

function previewDiscard(card) {
  const line = document.getElementById("meter-detail");
  if (!line || !(game.after_discard && card in game.after_discard)) return;
  line.textContent = t("deadwood.after", { card: cardLabel(card), n: game.after_discard[card] });
}

function meter() {
  const best = game.after_discard ? Math.min(...Object.values(game.after_discard)) : null;
  const shown = best === null ? game.deadwood : best;
  const limit = game.knock_limit;
  const level = shown === 0 ? "gin" : shown <= limit ? "knock" : "high";
  return el("div", { class: `meter ${level}` },
    el("div", { class: "meter-value", id: "deadwood", role: "status", "aria-live": "polite", text: t("deadwood", { n: shown }) }),
    el("div", { class: "meter-bar", "aria-hidden": "true" }, el("span", { style: null, class: "fill", "data-n": shown })),
    el("div", { class: "meter-detail", id: "meter-detail",
      text: best === null ? "" : t("deadwood.best", { n: best }) }));
}

function button(key, onclick, enabled, extra = {}) {
  return el("button", { type: "button", onclick, disabled: !enabled || busy, ...extra, text: t(key) });
}

function actions() {
  const mine = game.your_turn;
  const take = legal("take"), refuse = legal("refuse");
  const knocks = legal("knock"), gins = legal("gin"), big = legal("big_gin");
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": "moves" });
  const offer = game.phase === "offer";
  bar.append(button("button.draw", () => move(refuse[0].action), mine && game.phase === "draw" && refuse.length, { "data-key": "d" }),
    button("button.take", () => move(take[0].action), mine && take.length, { "data-key": "t" }));
  if (offer) bar.append(button("button.pass", () => move(refuse[0].action), mine && refuse.length, { "data-key": "p" }));
  const choosing = (kind) => () => { mode = mode === kind ? "play" : kind; render(); };
  bar.append(button("button.knock", choosing("knock"), mine && knocks.length, { "aria-pressed": mode === "knock" ? "true" : "false", "data-key": "k" }),
    button("button.gin", choosing("gin"), mine && gins.length, { "aria-pressed": mode === "gin" ? "true" : "false", "data-key": "g" }));
  if (big.length) bar.append(button("button.biggin", () => move(big[0].action), mine));
  bar.append(button("button.hint", hint, mine, { "data-key": "h" }));
  return bar;
}

function pileView() {
  const top = game.pile.length ? game.pile[game.pile.length - 1] : null;
  const earlier = game.pile.slice(0, -1).slice(-12);
  return el("div", { class: "center" },
    el("div", { class: "stock", "aria-label": t("stock", { n: game.stock }) }, cardBack(), el("span", { text: t("stock", { n: game.stock }) })),
    el("div", { class: "pile", "aria-label": t("pile") },
      top ? cardFace(top, { class: `card ${"DH".includes(top.slice(-1)) ? "red" : "black"} top` }) : el("span", { class: "card empty", text: t("pile.empty") }),
      el("div", { class: "earlier", "aria-label": t("pile") }, earlier.map((c) => cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"}` })))),
    el("div", { class: "limit" },
      el("div", { text: t("upcard", { card: cardLabel(game.upcard) }) }),
      el("div", { id: "limit", text: game.knock_limit === 0 ? t("limit.gin") : t("limit", { n: game.knock_limit }) }),
      game.multiplier > 1 ? el("div", { class: "doubled", text: t("doubled") }) : null));
}

function opponentView() {
  const backs = Math.max(0, (game.opponent_cards || 10) - (game.opponent_took || []).length);
  return el("section", { class: "opponent", "aria-label": game.opponent },
    el("h2", { text: game.opponent }),
    el("div", { class: "backs" }, Array.from({ length: backs }, cardBack),
      (game.opponent_took || []).map((c) => cardFace(c, { class: `card ${"DH".includes(c.slice(-1)) ? "red" : "black"} known` }))),
    el("span", { class: "visually-hidden", text: t("opponent.cards", { n: game.opponent_cards || 10 }) }));
}

function scoreSheet() {
  const s = game.score;
  const table = el("table", { class: "score" }, el("caption", { text: t("score.title") }),
    el("thead", {}, el("tr", {}, el("th"), s.games.map((_, i) => el("th", { scope: "col", text: s.games.length > 1 ? t("score.game", { n: i + 1 }) : t("score.total") })),
      el("th", { scope: "col", text: t("score.hands") }))),
    el("tbody", {}, [0, 1].map((seat) => el("tr", {}, el("th", { scope: "row", text: seat === 0 ? t("you") : game.opponent }),
      s.games.map((g, i) => el("td", { class: s.open[i] ? "" : "closed", text: String(g[seat]) })),
      el("td", { text: String(s.hands_won[seat]) })))));
  return table;
}

function movesLog() {
  return el("ol", { class: "log", "aria-label": "moves", "aria-live": "polite" },
    (game.moves || []).slice(-14).map((m) => el("li", { text: moveText(m) })));
}

function meldLine(meld) {
  return el("span", { class: "meld-line" }, meld.map((c) => cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"}` })));
}

function handEnd() {
  const r = game.result;
  const knocker = r.knocker >= 0 ? who(r.knocker) : "";
  const other = r.knocker >= 0 ? who(1 - r.knocker) : "";
  const lines = [];
  if (r.outcome === "draw") lines.push(t("end.draw"));
  else if (r.outcome === "knock") lines.push(t("end.knock", { who: knocker, other, kd: r.knocker_deadwood, dd: r.defender_deadwood }));
  else if (r.outcome === "undercut") lines.push(t("end.undercut", { who: knocker, other, kd: r.knocker_deadwood, dd: r.defender_deadwood }));
  else lines.push(t(`end.${r.outcome}`, { who: knocker }));
  if (r.winner >= 0) lines.push(t(r.multiplier > 1 ? "end.points.doubled" : "end.points", { who: who(r.winner), points: r.points }));
  const panel = el("section", { class: "hand-end", "aria-labelledby": "end-title" },
    el("h2", { id: "end-title", text: lines[0] }), lines.slice(1).map((l) => el("p", { class: "points", text: l })),
    [0, 1].map((seat) => el("div", { class: "shown-hand" }, el("h3", { text: seat === 0 ? t("end.yourhand") : t("end.hand", { who: game.opponent }) }),
      el("div", {}, r.hands[seat].map((c) => cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"}` }))))),
    r.knocker_melds.length ? el("div", {}, el("h3", { text: t("end.melds") }), r.knocker_melds.map(meldLine)) : null,
    r.outcome === "knock" || r.outcome === "undercut" ? el("div", {}, el("h3", { text: t("end.layoffs") }),
      r.layoffs.length ? el("ol", { class: "layoffs" }, r.layoffs.map((l) => el("li", { text: t("end.layoff", { card: cardLabel(l.card), meld: cardsText(l.onto) }) })))
        : el("p", { text: t("end.nolayoff") })) : null);
  if (game.phase === "game_over") panel.append(gameEnd());
  else panel.append(el("p", {}, button("button.next", () => act("next", {}), true, { class: "primary", "data-key": "n" })));
  return panel;
}

function gameEnd() {
  const g = game.game, a = g.total_0, b = g.total_1;
  const rules = game.rules;
  const line = g.winner === 0 ? t("game.won", { a, b }) : g.winner === 1 ? t("game.lost", { name: game.opponent, a, b }) : t("game.tied", { a, b });
  const breakdown = game.score.games.length === 1 && rules.target !== null ? [0, 1].map((seat) => el("p", {
    text: t("game.breakdown", { who: who(seat), points: game.score.games[0][seat], boxes: game.score.boxes[0][seat], box: rules.box_bonus,
      bonus: g.winner === seat ? t("game.bonus", { n: rules.game_bonus }) : "", total: seat === 0 ? a : b }) })) : [];
  return el("div", { class: "game-end" }, el("h2", { text: t("game.over") }), el("p", { class: "points", text: line }), breakdown,
    g.shutouts ? el("p", { text: t("game.shutouts", { n: g.shutouts }) }) : null,
    el("p", {}, el("a", { href: `/review?game=${game.id}`, class: "button", text: t("button.review") }), " ",
      button("button.new", () => { localStorage.removeItem("ginsim.game"); newGameForm(); }, true, { class: "primary" })));
}

async function hint() {
  if (!game.your_turn) return;
  fill(hintBox, el("p", { text: t("hint.wait") }));
  try {
    const answer = await api(`/api/games/${game.id}/hint`, {});
    const word = (choice) => {
      const [verb, card] = choice.split(" ");
      if (choice === "big gin") return t("hint.option.big");
      if (card) return t(`hint.option.${verb}`, { card: cardLabel(card) });
      if (["take", "pass", "pile", "stock"].includes(choice)) return t(`hint.option.${choice}`);
      return t("hint.option.discard", { card: cardLabel(choice) });
    };
    fill(hintBox, el("h3", { text: t("hint.title") }), answer.close ? el("p", { text: t("hint.close") }) : null,
      el("table", { class: "hint" }, el("thead", {}, el("tr", {}, el("th"), el("th", { text: t("hint.points") }),
        el("th", { text: t("hint.equity") }))),
      el("tbody", {}, answer.options.map((o, i) => el("tr", { class: i === 0 ? "best" : "" }, el("td", { text: word(o.choice) }),
        el("td", { text: `${formatNumber(o.points)} [${formatNumber(o.low)}, ${formatNumber(o.high)}]` }),
        el("td", { text: o.equity === null ? "–" : `${formatNumber(o.equity * 100)}%` }))))));
  } catch (error) {
    showError(hintBox, error);
  }
}

function render() {
  if (!game) return;
  const playing = game.phase !== "hand_over" && game.phase !== "game_over";
  hintBox = el("div", { class: "hint-box", "aria-live": "polite" });
  const prompt = !playing ? "" : !game.your_turn ? t("turn.wait")
    : mode !== "play" ? t(`turn.${mode}`) : t(`turn.${game.phase}`);
  const table = el("section", { class: "table", "aria-label": t("app.title") },
    playing ? opponentView() : null,
    pileView(),
    playing ? el("section", { class: "mine", "aria-label": t("you") }, renderHand(), meter(),
      el("p", { id: "status", class: "status", "aria-live": "polite", text: prompt }), actions(),
      el("div", { id: "message" })) : handEnd());
  const side = el("aside", { class: "side" }, scoreSheet(),
    el("p", {}, el("a", { class: "button", href: `/api/games/${game.id}/record`, download: "", text: t("button.save") }), " ",
      button("button.new", () => { localStorage.removeItem("ginsim.game"); newGameForm(); }, true)),
    hintBox, movesLog());
  fill(main, el("div", { class: "play" }, table, side));
  if (playing && game.your_turn && game.phase === "discard") {
    const first = document.querySelector(".hand button:not([disabled])");
    if (first && !document.activeElement?.closest?.(".hand")) first.focus({ preventScroll: true });
  }
}

document.addEventListener("keydown", (event) => {
  if (!game || event.ctrlKey || event.metaKey || event.altKey || event.target.closest?.("input, select, textarea")) return;
  if (event.key === "Escape" && mode !== "play") { mode = "play"; render(); return; }
  const target = document.querySelector(`[data-key="${event.key.toLowerCase()}"]:not([disabled])`);
  if (target) { event.preventDefault(); target.click(); }
});

start();
