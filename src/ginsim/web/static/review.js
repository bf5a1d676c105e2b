// The review page: a finished game (or a record file) decision by decision, with its analysis, like
// lichess's analysis board: the board, the move list with marks, the graph, the options, the players.
import {
  api, cardFace, choiceLabel, el, fill, formatNumber, formatPercent, header, outcomeText, playerName, scrolling, showError, t,
} from "./common.js";
import { lineChart } from "./chart.js";

const main = document.getElementById("main");
header("nav.review");

let board = null;      // every hand's positions
let analysis = null;   // the decisions' values, when ready
let at = [0, 0];       // [the hand's place in board.hands, the step]

const MARK_CLASS = { "?!": "mark-dubious", "?": "mark-mistake", "??": "mark-blunder" };

function picker() {
  const input = el("input", { type: "file", accept: "application/json,.json", id: "record-file" });
  input.addEventListener("change", async () => {
    const file = input.files[0];
    if (!file) return;
    try {
      const data = JSON.parse(await file.text());
      const answer = await api("/api/review", data);
      board = answer.board;
      analysis = null;
      at = [0, 0];
      draw();
      poll(`/api/review/${answer.job}`);
    } catch (error) {
      showError(document.getElementById("review-error"), error);
    }
  });
  input.classList.add("visually-hidden");
  // The browser's own file button speaks the browser's language: a label in the page's stands for it.
  return el("p", { class: "picker" }, el("label", { class: "button file-button" }, t("review.open"), input), " ",
    el("span", { id: "review-error", "aria-live": "polite" }));
}

async function poll(path) {
  for (let tries = 0; tries < 600 && !analysis; tries += 1) {
    try {
      const answer = await api(path);
      if (answer.analysis) { analysis = answer.analysis; draw(); return; }
    } catch (error) {
      showError(document.getElementById("review-error") || main, error);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

// The analysis of step `step` of the hand at `place` (the analysis names hands by the record's numbers).
function decisionAt(place, step) {
  const hand = board.hands[place].hand;
  return analysis ? analysis.decisions.find((d) => d.hand === hand && d.step === step) : undefined;
}

// Every step of every hand in order, for the arrow keys and the graph.
function allSteps() {
  return board.hands.flatMap((h, place) => h.steps.map((_, s) => [place, s]));
}

function go(place, step) {
  at = [place, step];
  draw();
  document.querySelector('.movelist [aria-current="true"]')?.scrollIntoView({ block: "nearest" });
}

// The players as the page names them.
function names() {
  return board.players.map(playerName);
}

// A decision in words: who chose what ("greedy: knock with 7♥").
function stepText(step) {
  return step.kind === "end" ? t("review.end") : t("review.step", { who: names()[step.player], choice: choiceLabel(step.choice) });
}

function boardView() {
  const hand = board.hands[at[0]];
  const step = hand.steps[at[1]];
  const players = names();
  const rows = [0, 1].map((seat) => el("div", { class: "row", "aria-label": players[seat] },
    el("strong", { text: `${players[seat]} · ${t("deadwood", { n: step.deadwood[seat] })}` }), el("br"),
    step.hands[seat].map((c) => cardFace(c, { class: "small" }))));
  const top = step.pile.length ? step.pile[step.pile.length - 1] : null;
  return el("section", { class: "board", "aria-label": t("review.hand", { n: hand.hand + 1 }) },
    el("h2", { text: `${t("review.hand", { n: hand.hand + 1 })} · ${stepText(step)}` }), rows[1],
    el("div", { class: "row" }, el("span", { text: `${t("stock", { n: step.stock })} · ${t("pile")}:` }),
      top ? cardFace(top, { class: "small" }) : el("span", { text: t("pile.empty") })),
    rows[0],
    hand.result ? el("p", { text: outcomeText(hand.result.outcome, hand.result.winner >= 0 ? players[hand.result.winner] : null,
      hand.result.points) }) : null);
}

function moveList() {
  const list = el("div", { class: "movelist", role: "list", "aria-label": t("review.movelist") });
  board.hands.forEach((hand, place) => {
    list.append(el("div", { role: "listitem", class: "hand-title" }, el("strong", { text: t("review.hand", { n: hand.hand + 1 }) })));
    hand.steps.forEach((step, index) => {
      const found = decisionAt(place, index);
      const mark = found ? found.mark : "";
      const current = place === at[0] && index === at[1];
      list.append(el("div", { role: "listitem" }, el("button", { type: "button", "aria-current": current ? "true" : "false",
        onclick: () => go(place, index) }, el("span", { text: stepText(step) }),
      el("span", { class: `mark ${MARK_CLASS[mark] || ""}`, text: mark }))));
    });
  });
  return list;
}

function graph() {
  if (!analysis) return el("p", { "aria-live": "polite", text: t("review.analysing") });
  const steps = allSteps();
  const equity = analysis.unit === "equity";
  const points = analysis.decisions.map((d) => ({
    x: steps.findIndex(([place, s]) => board.hands[place].hand === d.hand && s === d.step), y: d.seat0,
    label: `${t("review.decision", { hand: d.hand + 1, step: d.step + 1 })}: ${choiceLabel(d.choice)} ${d.mark}`, marked: Boolean(d.mark) }))
    .filter((p) => p.x >= 0).sort((a, b) => a.x - b.x);
  const values = points.map((p) => p.y).filter((v) => v !== null);
  const range = equity ? [0, 1] : [Math.min(-10, ...values), Math.max(10, ...values)];
  const selected = steps.findIndex(([h, s]) => h === at[0] && s === at[1]);
  return el("div", {}, el("h3", { text: equity ? t("review.graph") : t("review.graph.points") }),
    lineChart(equity ? t("review.graph") : t("review.graph.points"), points, { low: range[0], high: range[1], selected,
      onpick: (x) => go(...steps[x]), format: (v) => (equity ? formatPercent(v, 0) : formatNumber(v, 0)) }));
}

function optionsView() {
  const found = decisionAt(at[0], at[1]);
  if (!found) return null;
  const equity = analysis.unit === "equity";
  const number = (v) => (equity ? formatPercent(v) : formatNumber(v));
  return el("section", { "aria-label": t("review.options") }, el("h3", { text: `${t("review.options")} · ${t("review.decision", { hand: found.hand + 1, step: found.step + 1 })}` }),
    el("table", {}, el("tbody", {}, found.options.map((o) => el("tr", { class: o.choice === found.choice ? "chosen" : "" },
      el("td", { text: (o.choice === found.choice ? "▶ " : "") + choiceLabel(o.choice) }), el("td", { text: `${number(o.mean)} [${number(o.low)}, ${number(o.high)}]` }))))),
    found.mark ? el("p", { class: `mark ${MARK_CLASS[found.mark]}`, text: `${found.mark} ${t("review.best", { best: choiceLabel(found.best) })}, ${t("review.loss", { loss: number(found.loss) })}` }) : null);
}

function players() {
  if (!analysis) return null;
  const equity = analysis.unit === "equity";
  return scrolling(t("review.summary"), el("table", { class: "players" }, el("caption", { text: t("review.summary") }),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, el("span", { class: "visually-hidden", text: t("review.summary") })),
      el("th", { text: t("review.decisions") }), el("th", { text: t("review.errors") }),
      el("th", { text: t("review.rating") }), el("th", { text: "?! ? ??" }), el("th", { text: t("review.luck") }))),
    el("tbody", {}, analysis.players.map((p) => el("tr", {}, el("th", { scope: "row", text: names()[p.player] }),
      el("td", { text: String(p.decisions) }), el("td", { text: equity ? formatPercent(p.error_rate || 0, 2) : formatNumber(p.error_rate, 2) }),
      el("td", { text: formatNumber(p.rating, 1) }), el("td", { class: "marks", text: `${p.dubious} · ${p.mistakes} · ${p.blunders}` }),
      el("td", { text: equity ? formatPercent(p.luck || 0) : formatNumber(p.luck) }))))));
}

function draw() {
  if (!board || !board.hands.length) {
    fill(main, el("h1", { text: t("review.title") }), picker(), board ? el("p", { text: t("review.nothing") }) : null);
    return;
  }
  fill(main, el("h1", { text: `${t("review.title")}: ${names().join(" – ")}` }),
    el("div", { class: "review" }, el("div", {}, boardView(), graph(), players()),
      el("div", {}, el("p", { class: "keys", text: t("review.keys") }), moveList(), optionsView())), picker());
}

document.addEventListener("keydown", (event) => {
  if (!board || event.target.closest?.("input, select, textarea")) return;
  const steps = allSteps();
  const index = steps.findIndex(([h, s]) => h === at[0] && s === at[1]);
  const next = { ArrowRight: index + 1, ArrowDown: index + 1, ArrowLeft: index - 1, ArrowUp: index - 1, Home: 0, End: steps.length - 1 }[event.key];
  if (next === undefined || next < 0 || next >= steps.length) return;
  event.preventDefault();
  go(...steps[next]);
});

async function start() {
  const id = new URLSearchParams(location.search).get("game");
  if (!id) { draw(); return; }
  try {
    const answer = await api(`/api/games/${encodeURIComponent(id)}/review`);
    board = answer.board;
    analysis = answer.analysis;
    draw();
    if (!analysis && answer.over) poll(`/api/games/${encodeURIComponent(id)}/review`);
  } catch (error) {
    draw();
    showError(document.getElementById("review-error"), error);
  }
}

start();

