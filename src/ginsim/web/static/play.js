// The play page: the new-game form, the table, the end of a hand and of the game, hints.
import { api, cardBack, cardFace, cardLabel, el, formatNumber, hasText, header, showError, t, fill } from "./common.js";

const main = document.getElementById("main");
let options = null;   // /api/options
let game = null;      // the last answer of the server: what the person may see
let mode = "play";    // "play", or "knock" / "gin" while choosing the card to go out with
let order = [];       // the person's own order of their cards, when they have moved any
let busy = false;
let hintBox = null;
let shown = null;     // what the table draws: the answer, or a moment of the computer's moves being staged
let staging = null;   // the computer's moves being staged: { cancelled, animation, lines }
let lastLines = [];   // what the computer did since the person's last move, in words
let historyOpen = false;   // whether the earlier discards are shown
let endFocused = null;     // the hand whose end has had the focus moved to it

header("nav.play");

// Made once, outside the table that is redrawn after every move, so that a screen reader hears each line
// added: one per move of the computer.
const announcer = el("div", { id: "announcer", class: "visually-hidden", "aria-live": "polite" });
// The cards in flight while the computer's moves are staged: above the page, out of the way of the pointer.
const flight = el("div", { class: "flight", "aria-hidden": "true" });
document.body.append(announcer, flight);

const SPEEDS = { normal: 500, fast: 160, off: 0 };   // milliseconds a step of the computer's moves takes
const reducedMotion = matchMedia("(prefers-reduced-motion: reduce)");

function speed() {
  const chosen = localStorage.getItem("ginsim.speed");
  return chosen in SPEEDS ? chosen : "normal";
}

// An opponent as the player knows it: its level's name ("Tactician"), not the strategy's.
function opponentName(name) {
  return hasText(`level.${name}`) ? t(`level.${name}`) : name;
}

function who(player) {
  return player === 0 ? t("who.you") : t("who.them", { name: opponentName(game.opponent) });
}

function moveText(m) {
  const values = { who: who(m.player), card: m.card ? cardLabel(m.card) : "" };
  if (m.move === "stock" && m.card) return t("move.stock.card", values);
  if (["knock", "gin"].includes(m.move) && m.card) return t(`move.${m.move}.card`, values);
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

function show(answer, before = null) {
  finishStaging(false);
  game = answer;
  shown = answer;
  mode = "play";
  localStorage.setItem("ginsim.game", game.id);
  const url = new URL(location.href);
  url.searchParams.set("game", game.id);
  history.replaceState(null, "", url);
  const sameHand = before !== null && before.hand_number === answer.hand_number;
  if (!sameHand) announcer.replaceChildren();
  // Since the last answer; a game just opened or started shows (and reads) the computer's last turn only.
  const moves = answer.moves || [];
  const from = before === null ? moves.map((m) => m.player).lastIndexOf(0) + 1 : sameHand ? (before.moves || []).length : 0;
  const steps = computerMoves(moves, from);
  if (moves.slice(from).some((m) => m.move === "reshuffle")) announce(t("move.reshuffle"));
  lastLines = turnsInWords(steps);
  const frames = before === null || speed() === "off" || reducedMotion.matches ? null : stagedFrames(before, answer, steps, sameHand);
  if (frames) stage(steps, frames);
  else {
    lastLines.forEach(announce);
    render();
  }
}

// The moves made since the person's own (the server answers with the computer's made): the computer's, and
// the person's forced draw when both pass the upcard; from the last reshuffle on, which changes the stock in
// a way the table cannot show step by step.
function computerMoves(moves, from) {
  let start = moves.findIndex((m, index) => index >= from && m.player === 1);
  if (start < 0) return [];
  moves.forEach((m, index) => { if (index >= start && m.move === "reshuffle") start = index + 1; });
  return moves.slice(start).filter((m) => m.player === 0 || m.player === 1);
}

// The computer's moves as lines to read: a turn (a draw and a discard) is one line; a pass is one too.
function turnsInWords(steps) {
  const lines = [];
  let draw = null;
  for (const m of steps.filter((step) => step.player === 1)) {
    const card = m.card ? cardLabel(m.card) : "";
    if (m.move === "pass") lines.push(t("say.pass", { who: who(1) }));
    else if (["stock", "pile", "take"].includes(m.move)) draw = t(`say.draw.${m.move}`, { card });
    else {
      const end = t(`say.end.${m.move}`, { card });
      lines.push(draw ? t("say.turn", { who: who(1), draw, end }) : t("say.alone", { who: who(1), end }));
      draw = null;
    }
  }
  if (draw) lines.push(t("say.alone", { who: who(1), end: draw }));
  return lines;
}

function announce(line) {
  announcer.append(el("p", { text: line }));
}

function playing(view) {
  return view.phase !== "hand_over" && view.phase !== "game_over";
}

// The table at each step of the computer's moves: worked back from the answer to before the first (its
// discards taken off the pile, its draws put back), then forward one move at a time. None when the pile
// does not agree (nothing is staged then).
function stagedFrames(before, answer, steps, sameHand) {
  if (!steps.length) return null;
  const pile = answer.pile.slice();
  let stock = answer.stock;
  for (const m of [...steps].reverse()) {
    if (m.move === "discard") {
      if (pile[pile.length - 1] !== m.card) return null;
      pile.pop();
    } else if (m.move === "pile" || m.move === "take") pile.push(m.card);
    else if (m.move === "stock") stock += 1;
  }
  const base = playing(answer) ? answer : { ...answer, phase: "draw", your_turn: false, legal: [], after_discard: null,
    drawn: null, deadwood: null, ...handBefore(before, answer.result.hands[0]) };
  let frame = { ...base, pile, stock, opponent_cards: 10, last_discard: null,
    opponent_took: sameHand ? (before.opponent_took || []).slice() : [] };
  const frames = [frame];
  for (const m of steps) {
    frame = { ...frame, pile: frame.pile.slice(), opponent_took: frame.opponent_took.slice() };
    if (m.player === 0) { frame.stock -= 1; frames.push(frame); continue; }  // the person's draw after both passed
    if (m.move === "stock") { frame.stock -= 1; frame.opponent_cards += 1; }
    if (m.move === "pile" || m.move === "take") { frame.pile.pop(); frame.opponent_cards += 1; frame.opponent_took.push(m.card); }
    if (["discard", "knock", "gin"].includes(m.move)) {
      frame.opponent_cards -= 1;
      frame.opponent_took = frame.opponent_took.filter((c) => c !== m.card);
    }
    if (m.move === "discard") { frame.pile.push(m.card); frame.last_discard = m.card; }
    frames.push(frame);
  }
  return frames;
}

// The person's hand as it was laid out before the hand ended (its groups kept), for the staging of the
// computer's last moves.
function handBefore(before, cards) {
  const keep = (group) => group.filter((c) => cards.includes(c));
  const melds = (before.melds || []).map(keep).filter((g) => g.length);
  const loose = keep(before.deadwood_cards || []);
  const placed = new Set([...melds.flat(), ...loose]);
  return { melds, deadwood_cards: [...loose, ...cards.filter((c) => !placed.has(c))] };
}

// Show the computer's moves one after another, a card moving for each; the page is busy (aria-busy) until
// the last, and any move of the person's ends the staging at once (see act and the key and click handlers).
async function stage(steps, frames) {
  const run = { cancelled: false, animation: null, lines: lastLines.slice(), steps, index: 0 };
  staging = run;
  main.setAttribute("aria-busy", "true");
  main.dataset.staging = "true";
  const turnEnds = new Set(["pass", "discard", "knock", "gin", "big_gin"]);
  for (const [index, step] of steps.entries()) {
    shown = frames[index];
    run.index = index;
    render();
    await fly(step, run);
    if (run.cancelled) return;
    if (step.player === 1 && turnEnds.has(step.move) && run.lines.length) announce(run.lines.shift());
  }
  finishStaging();
}

// End the staging (at its last step, or at once when the person moves) and draw the table as the server
// answered it. Every line not yet announced is announced now.
function finishStaging(draw = true) {
  const run = staging;
  if (!run) return;
  run.cancelled = true;
  run.animation?.cancel();
  flight.replaceChildren();
  run.lines.forEach(announce);
  run.lines = [];
  staging = null;
  shown = game;
  main.removeAttribute("aria-busy");
  delete main.dataset.staging;
  if (draw) render();
}

// One step: a card moves from where it was to where it goes (the stock, the pile or the computer's hand).
async function fly(step, run) {
  const ms = SPEEDS[speed()];
  const places = { stock: ".stock .card", pile: ".pile .top", opponent: ".opponent .backs", pileSpot: ".pile", mine: ".hand" };
  const [from, to] = step.player === 0 ? ["stock", "mine"]
    : { stock: ["stock", "opponent"], pile: ["pile", "opponent"], take: ["pile", "opponent"] }[step.move]
    || (["discard", "knock", "gin"].includes(step.move) ? ["opponent", "pileSpot"] : [null, null]);
  const start = from && main.querySelector(places[from]);
  const end = to && main.querySelector(places[to]);
  if (!start || !end) {
    await new Promise((done) => setTimeout(done, ms));
    return;
  }
  const a = start.getBoundingClientRect(), b = end.getBoundingClientRect();
  const card = step.move === "stock" || !step.card ? cardBack() : cardFace(step.card, { class: "card" });
  card.classList.add("flying");
  flight.append(card);
  run.animation = card.animate([{ transform: `translate(${a.left}px, ${a.top}px)` },
    { transform: `translate(${b.left}px, ${b.top}px)` }], { duration: ms, easing: "ease-in-out", fill: "forwards" });
  try {
    await run.animation.finished;
  } catch {
    // cancelled: the person moved
  }
  card.remove();
}

async function act(path, body) {
  finishStaging();
  if (busy) return;
  busy = true;
  // Until the answer comes, the page is busy: no second move can be sent, and a screen reader (or a test)
  // can tell that the table is about to change.
  main.setAttribute("aria-busy", "true");
  main.querySelectorAll("button").forEach((control) => { control.disabled = true; });
  const status = document.getElementById("status");
  if (status) status.textContent = t("turn.wait");
  const before = game;
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
  show(answer, before);
}

const move = (action) => act("move", { action, hand: game.hand_number, move_count: game.move_count });

function legal(kind) {
  return (shown.legal || []).filter((m) => m.kind === kind);
}

function handCards() {
  const cards = [...(shown.melds || []).flat(), ...(shown.deadwood_cards || [])];
  const kept = order.filter((c) => cards.includes(c));
  order = kept.length ? [...kept, ...cards.filter((c) => !kept.includes(c))] : [];
  return order.length ? order : cards;
}

function renderHand() {
  const discarding = shown.phase === "discard" && shown.your_turn;
  const allowed = new Set((mode === "play" ? legal("discard") : legal(mode)).map((m) => m.card));
  const groups = order.length ? [handCards()] : [...(shown.melds || []), shown.deadwood_cards || []];
  const meldCards = new Set((shown.melds || []).flat());
  const hand = el("div", { class: "hand", role: "group", "aria-label": t("you") });
  groups.forEach((group, index) => {
    if (!group.length) return;
    const isMeld = !order.length && index < (shown.melds || []).length;
    const box = el("div", { class: `group ${isMeld ? "meld" : "loose"}` });
    for (const card of group) {
      const enabled = discarding && allowed.has(card);
      const face = cardFace(card, { button: true, disabled: discarding && !enabled, draggable: "true",
        class: `card ${"DH".includes(card.slice(-1)) ? "red" : "black"} ${meldCards.has(card) ? "in-meld" : ""} ${card === shown.drawn ? "drawn" : ""} ${enabled ? "playable" : ""}`,
        title: discarding && shown.after_discard ? t("deadwood.after", { card: cardLabel(card), n: shown.after_discard[card] }) : null });
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

// The arrow keys: alone, to the next card that can be played (a disabled one is skipped); with Alt or
// Shift, to move the card itself.
function reorderKey(event, card) {
  if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
  event.preventDefault();
  const step = event.key === "ArrowLeft" ? -1 : 1;
  if (event.altKey || event.shiftKey) {
    const moved = handCards().slice();
    const at = moved.indexOf(card), next = at + step;
    if (next < 0 || next >= moved.length) return;
    [moved[at], moved[next]] = [moved[next], moved[at]];
    order = moved;
    render();
    document.querySelector(`.hand [data-card="${card}"]`)?.focus();
    return;
  }
  const open = [...main.querySelectorAll(".hand button.card:not([disabled])")];
  const next = open[open.findIndex((face) => face.dataset.card === card) + step];
  next?.focus();
}

function previewDiscard(card) {
  const line = document.getElementById("meter-detail");
  if (!line || !(shown.after_discard && card in shown.after_discard)) return;
  line.textContent = t("deadwood.after", { card: cardLabel(card), n: shown.after_discard[card] });
}

function meter() {
  const best = shown.after_discard ? Math.min(...Object.values(shown.after_discard)) : null;
  const value = best === null ? shown.deadwood : best;
  const limit = shown.knock_limit;
  if (value === null || value === undefined) return el("div", { class: "meter" });
  const level = value === 0 ? "gin" : value <= limit ? "knock" : "high";
  return el("div", { class: `meter ${level}` },
    el("div", { class: "meter-value", id: "deadwood", role: "status", text: t("deadwood", { n: value }) }),
    el("div", { class: "meter-bar", "aria-hidden": "true" }, el("span", { class: "fill", "data-n": value })),
    el("div", { class: "meter-detail", id: "meter-detail",
      text: best === null ? "" : t("deadwood.best", { n: best }) }));
}

// A button; one with a key (extra["data-key"]) shows it and declares it (aria-keyshortcuts).
function button(key, onclick, enabled, extra = {}) {
  const letter = extra["data-key"];
  return el("button", { type: "button", onclick, disabled: !enabled || busy, "aria-keyshortcuts": letter ? letter.toUpperCase() : null, ...extra },
    t(key), letter ? el("kbd", { "aria-hidden": "true", text: letter.toUpperCase() }) : null);
}

function actions() {
  const mine = shown.your_turn;
  const take = legal("take"), refuse = legal("refuse");
  const knocks = legal("knock"), gins = legal("gin"), big = legal("big_gin");
  const bar = el("div", { class: "actions", role: "toolbar", "aria-label": "moves" });
  const offer = shown.phase === "offer";
  bar.append(button("button.draw", () => move(refuse[0].action), mine && shown.phase === "draw" && refuse.length, { "data-key": "d" }),
    button("button.take", () => move(take[0].action), mine && take.length, { "data-key": "t" }));
  const choosing = (kind) => () => { mode = mode === kind ? "play" : kind; render(); };
  bar.append(button("button.knock", choosing("knock"), mine && knocks.length, { "aria-pressed": mode === "knock" ? "true" : "false", "data-key": "k" }),
    button("button.gin", choosing("gin"), mine && gins.length, { "aria-pressed": mode === "gin" ? "true" : "false", "data-key": "g" }));
  if (big.length) bar.append(button("button.biggin", () => move(big[0].action), mine, { "data-key": "b" }));
  bar.append(button("button.hint", hint, mine, { "data-key": "h" }));
  // Pass, offered only with the upcard, keeps its place (hidden) the rest of the hand: nothing moves.
  bar.append(button("button.pass", () => move(refuse[0].action), offer && mine && refuse.length,
    { "data-key": offer ? "p" : null, class: offer ? null : "reserved" }));
  return bar;
}

// The computer's card on top of the pile, if the top card is its discard.
function computerDiscard(view) {
  if ("last_discard" in view) return view.last_discard;
  const top = view.pile.at(-1);
  const last = (view.moves || []).filter((m) => m.move === "discard").at(-1);
  return last && last.player === 1 && last.card === top ? top : null;
}

function pileView() {
  const top = shown.pile.length ? shown.pile[shown.pile.length - 1] : null;
  const theirs = top !== null && computerDiscard(shown) === top;
  const earlier = shown.pile.slice(0, -1);
  const history = el("div", { class: "pile-history", id: "pile-history", hidden: !historyOpen },
    earlier.length ? el("ol", { "aria-label": t("pile.history") }, earlier.map((c) => el("li", {}, cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"}` }))))
      : el("p", { text: t("pile.none") }));
  return el("div", { class: "center" },
    el("div", { class: "stock" }, cardBack(), el("span", { text: t("stock", { n: shown.stock }) })),
    el("div", { class: "pile", role: "group", "aria-label": top ? t("pile.top", { card: cardLabel(top) }) : `${t("pile")}, ${t("pile.empty")}` },
      top ? el("span", { class: `top-spot ${theirs ? "theirs" : ""}` }, cardFace(top, { class: `card ${"DH".includes(top.slice(-1)) ? "red" : "black"} top` }),
        el("span", { class: "mark-theirs", text: theirs ? t("pile.theirs", { who: who(1) }) : "\u00a0" }))
        : el("span", { class: "card empty top", text: t("pile.empty") }),
      el("button", { type: "button", class: "history-toggle", "aria-expanded": String(historyOpen), "aria-controls": "pile-history",
        onclick: () => { historyOpen = !historyOpen; render(); }, text: t("pile.earlier", { n: earlier.length }) })),
    el("div", { class: "limit" },
      el("div", { text: t("upcard", { card: cardLabel(shown.upcard) }) }),
      el("div", { id: "limit", text: shown.knock_limit === 0 ? t("limit.gin") : t("limit", { n: shown.knock_limit }) }),
      shown.multiplier > 1 ? el("div", { class: "doubled", text: t("doubled") }) : null),
    history);
}

function opponentView() {
  const backs = Math.max(0, (shown.opponent_cards || 10) - (shown.opponent_took || []).length);
  return el("section", { class: "opponent", "aria-label": opponentName(shown.opponent) },
    el("h2", { text: opponentName(shown.opponent) }),
    el("div", { class: "backs" }, Array.from({ length: backs }, cardBack),
      (shown.opponent_took || []).map((c) => cardFace(c, { class: `card ${"DH".includes(c.slice(-1)) ? "red" : "black"} known` }))),
    el("span", { class: "visually-hidden", text: t("opponent.cards", { n: shown.opponent_cards || 10 }) }));
}

// The score as a paper Gin pad keeps it: a row a hand, the hand's points and the running total under its
// winner, in each game it counted in (Hollywood's three side by side); the boxes (hands won) and the totals.
function scoreSheet() {
  const s = shown.score;
  const games = s.games.map((_, index) => index);
  const names = [t("you"), opponentName(shown.opponent)];
  const cell = (row, game, seat) => {
    const totals = row.totals[game];
    if (!totals || row.winner !== seat) return el("td");
    return el("td", { class: "won" }, el("span", { class: "add", text: `+${row.points}` }), " ", el("strong", { text: String(totals[seat]) }));
  };
  return el("div", { class: "scroll" }, el("table", { class: "score pad" }, el("caption", { text: t("pad.title") }),
    el("thead", {},
      games.length > 1 ? el("tr", {}, el("td"), games.map((g) => el("th", { scope: "colgroup", colspan: "2",
        class: s.open[g] ? "" : "closed", text: t("score.game", { n: g + 1 }) }))) : null,
      el("tr", {}, el("th", { scope: "col", text: t("pad.hand") }), games.flatMap(() => names.map((name) => el("th", { scope: "col", text: name }))))),
    el("tbody", {}, s.rows.map((row) => el("tr", {}, el("th", { scope: "row", text: String(row.hand) }),
      row.winner < 0 ? el("td", { colspan: String(2 * games.length), class: "drawn", text: t("pad.drawn") })
        : games.flatMap((g) => [0, 1].map((seat) => cell(row, g, seat)))))),
    el("tfoot", {},
      el("tr", {}, el("th", { scope: "row", text: t("pad.boxes") }), games.flatMap((g) => [0, 1].map((seat) => el("td", { text: String(s.boxes[g][seat]) })))),
      el("tr", {}, el("th", { scope: "row", text: t("pad.total") }),
        games.flatMap((g) => [0, 1].map((seat) => el("td", { class: s.open[g] ? "total" : "total closed", text: String(s.games[g][seat]) })))))));
}

function movesLog() {
  return el("ol", { class: "log", "aria-label": "moves" },
    (shown.moves || []).slice(-14).map((m) => el("li", { text: moveText(m) })));
}

// A hand laid down at the showdown: its melds (the knocker's with the cards laid off on them, a run's
// growing outwards in the order they were laid), then its deadwood.
function laidDown(laid) {
  const small = (c, extra = "") => cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"} ${extra}` });
  const rank = (c) => "A23456789TJQK".indexOf(c.slice(0, -1));
  const melds = laid.melds.map((meld) => {
    const low = Math.min(...meld.cards.map(rank));
    const isRun = new Set(meld.cards.map((c) => c.slice(0, -1))).size > 1;
    const before = isRun ? meld.laid_off.filter((c) => rank(c) < low).reverse() : [];
    const after = meld.laid_off.filter((c) => !before.includes(c));
    return el("span", { class: "group meld" },
      el("span", { class: "cards" }, before.map((c) => small(c, "laid")), meld.cards.map((c) => small(c)), after.map((c) => small(c, "laid"))),
      meld.laid_off.length ? el("span", { class: "laid-note", text: t("end.laid", { cards: meld.laid_off.map(cardLabel).join(t("end.then")) }) }) : null);
  });
  return el("div", { class: "laid-down" }, melds,
    laid.deadwood.length ? el("span", { class: "group loose" }, laid.deadwood.map((c) => small(c))) : null);
}

// The points of the hand written as the sum they are: the deadwood counted, then each bonus, then the
// doubling (the terms come from the server and add up to the points).
function pointsSum(r) {
  const deadwood = (seat) => (seat === 0 ? t("sum.deadwood.you") : t("sum.deadwood.them", { who: who(1) }));
  const seatOf = (term) => (term === "knocker_deadwood" ? r.knocker : 1 - r.knocker);
  const [first, second, ...rest] = r.breakdown;
  let total = first.value + second.value;
  const lines = [el("li", {}, el("span", { class: "sum", text: `${first.value} − ${-second.value} = ${total}` }), " ",
    el("span", { class: "sum-note", text: `(${deadwood(seatOf(first.term))} − ${deadwood(seatOf(second.term))})` }))];
  for (const term of rest) {
    if (term.term === "spade_upcard") {
      total *= term.factor;
      lines.push(el("li", {}, el("span", { class: "sum", text: `× ${term.factor} ${t("sum.spade_upcard")} = ${total}` })));
    } else {
      total += term.value;
      lines.push(el("li", {}, el("span", { class: "sum", text: `+ ${term.value} ${t(`sum.${term.term}`)} = ${total}` })));
    }
  }
  return el("ol", { class: "points-sum", "aria-label": t("sum.title") }, lines);
}

function handEnd() {
  const r = game.result;
  const detail = r.outcome === "draw"
    ? (game.stock > 0 && r.stock_floor > 0 ? t("end.draw.floor", { n: game.stock }) : t("end.draw"))
    : t(`end.detail.${r.outcome}.${r.knocker === 0 ? "you" : "them"}`, { who: who(1), kd: r.knocker_deadwood, dd: r.defender_deadwood });
  const scored = r.winner < 0 ? null : r.winner === 0 ? t("end.points.you", { points: r.points })
    : t("end.points.them", { who: who(1), points: r.points });
  const hand = (seat) => {
    const laid = r.laid_down[seat];
    const after = r.knocker >= 0 && seat !== r.knocker && ["knock", "undercut"].includes(r.outcome);
    return el("div", { class: "shown-hand" },
      el("h3", { text: t("end.head", { hand: seat === 0 ? t("end.yourhand") : t("end.hand", { who: who(1) }),
        deadwood: t(after ? "end.deadwood.after" : "end.deadwood", { n: laid.deadwood_points }) }) }),
      laidDown(laid));
  };
  const order = r.knocker === 1 ? [1, 0] : [0, 1];   // the knocker's melds first: the lay-offs go onto them
  const next = game.phase === "game_over" ? null
    : button("button.next", () => act("next", {}), true, { class: "primary", "data-key": "n" });
  const panel = el("section", { class: `hand-end ${r.outcome}`, "aria-labelledby": "end-title" },
    el("div", { class: "end-head" }, el("h2", { id: "end-title", tabindex: "-1", text: t(`end.title.${r.outcome}`) }), next),
    lastLines.length ? el("p", { class: "last-move", text: lastLines.at(-1) }) : null,
    el("p", { class: "detail", text: detail }),
    order.map(hand),
    scored ? el("div", { class: "score-line" }, el("p", { class: "points", text: scored }), pointsSum(r)) : null);
  if (game.phase === "game_over") panel.append(gameEnd());
  return panel;
}

// A game's end, seat by seat, as the sum it is: points, boxes, the game bonus, a shutout's doubling.
function gameSum(seat) {
  let sum = String(seat.points);
  if (seat.box_bonus) sum += ` + ${seat.boxes} × ${seat.box_bonus} ${t("sum.boxes")}`;
  if (seat.game_bonus) sum += ` + ${seat.game_bonus} ${t("sum.game")}`;
  if (seat.doubled) sum = `(${sum}) × 2 ${t("sum.shutout")}`;
  return sum === String(seat.total) ? sum : `${sum} = ${seat.total}`;
}

function gameEnd() {
  const g = game.game, a = g.total_0, b = g.total_1;
  const line = g.winner === 0 ? t("game.won", { a, b }) : g.winner === 1 ? t("game.lost", { name: opponentName(game.opponent), a, b }) : t("game.tied", { a, b });
  const ends = game.score.game_totals || [];
  const games = ends.map((ended, index) => el("div", { class: "game-sum" },
    ends.length > 1 ? el("h3", { text: t("score.game", { n: index + 1 }) }) : null,
    el("ul", {}, [0, 1].map((seat) => el("li", { text: t("game.sum", { who: who(seat), sum: gameSum(ended.seats[seat]) }) }))),
    ended.shutout ? el("p", { class: "shutout", text: t("game.shutout", { who: who(ended.winner) }) }) : null));
  return el("div", { class: "game-end" }, el("h2", { text: t("game.over") }), el("p", { class: "points", text: line }), games,
    el("p", {}, el("a", { href: `/review?game=${game.id}`, class: "button", text: t("button.review") }), " ",
      button("button.new", freshGame, true, { class: "primary" })));
}

async function hint() {
  finishStaging();   // before the hint box is filled: the table drawn again would drop it
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

function freshGame() {
  finishStaging(false);
  localStorage.removeItem("ginsim.game");
  newGameForm();
}

// The last computer move in words, on the table (the announcer reads it; this is for the eyes).
function lastMove() {
  const line = staging ? turnsInWords(staging.steps.slice(0, staging.index + 1)).at(-1) : lastLines.at(-1);
  return el("p", { class: "last-move", text: line || "" });
}

function speedControl() {
  return el("p", { class: "speed" }, el("label", { for: "speed", text: t("speed") }), " ",
    el("select", { id: "speed", onchange: (event) => { localStorage.setItem("ginsim.speed", event.target.value); } },
      Object.keys(SPEEDS).map((name) => el("option", { value: name, selected: name === speed(), text: t(`speed.${name}`) }))));
}

// Which control had the focus, to give it back after the table is drawn again.
function focusKey() {
  const now = document.activeElement;
  if (!now || !main.contains(now)) return null;
  if (now.dataset.card && now.closest(".hand")) return `.hand [data-card="${now.dataset.card}"]`;
  if (now.dataset.key) return `[data-key="${now.dataset.key}"]`;
  return now.id ? `#${now.id}` : null;
}

function render() {
  if (!game) return;
  const focused = focusKey();
  const playing = shown.phase !== "hand_over" && shown.phase !== "game_over";
  hintBox = el("div", { class: "hint-box", "aria-live": "polite" });
  const prompt = !playing ? "" : !shown.your_turn ? t("turn.wait")
    : mode !== "play" ? t(`turn.${mode}`) : t(`turn.${shown.phase}`);
  const table = el("section", { class: "table", "aria-labelledby": "table-title" },
    el("h1", { id: "table-title", class: "visually-hidden", text: t("app.title") }),
    playing ? opponentView() : null,
    playing ? lastMove() : null,
    pileView(),
    playing ? el("section", { class: "mine", "aria-label": t("you") }, renderHand(), meter(),
      el("p", { id: "status", class: "status", text: prompt }), actions(),
      el("div", { id: "message" })) : handEnd());
  const side = el("aside", { class: "side" }, scoreSheet(),
    el("p", {}, el("a", { class: "button", href: `/api/games/${game.id}/record`, download: "", text: t("button.save") }), " ",
      button("button.new", freshGame, true)),
    speedControl(), hintBox, movesLog());
  fill(main, el("div", { class: `play ${shown.score.games.length > 1 ? "hollywood" : ""}` }, table, side));
  const again = focused && main.querySelector(`${focused}:not([disabled])`);
  if (!playing && !staging && endFocused !== `${game.id} ${game.hand_number}`) {  // a hand's end: its outcome is read first
    endFocused = `${game.id} ${game.hand_number}`;
    document.getElementById("end-title")?.focus();
  } else if (again) again.focus({ preventScroll: true });
  else if (playing && shown.your_turn && shown.phase === "discard") {
    const first = document.querySelector(".hand button:not([disabled])");
    if (first && !document.activeElement?.closest?.(".hand")) first.focus({ preventScroll: true });
  }
}

// A click anywhere while the computer's moves are staged ends the staging (a move clicked is made: see act).
document.addEventListener("click", () => finishStaging());

document.addEventListener("keydown", (event) => {
  if (staging && !["Shift", "Control", "Alt", "Meta"].includes(event.key)) finishStaging();
  if (!game || event.ctrlKey || event.metaKey || event.altKey || event.target.closest?.("input, select, textarea")) return;
  if (event.key === "Escape" && mode !== "play") { mode = "play"; render(); return; }
  const target = document.querySelector(`[data-key="${event.key.toLowerCase()}"]:not([disabled])`);
  if (target) { event.preventDefault(); target.click(); }
});

start();
