// The runs page: the runs and sweeps under the server's runs folder, a run's summary as a table and a
// chart with intervals, a sweep's cells side by side, and any hand of a run replayed step by step.
import {
  api, cardFace, cardLabel, el, fill, formatNumber, formatPercent, hasText, header, outcomeText, scrolling, showError, t,
} from "./common.js";
import { intervalChart } from "./chart.js";

const main = document.getElementById("main");
header("nav.runs");
const GROUPS = ["", "upcard", "upcard_rank", "upcard_suit", "knock_limit", "dealer", "knocker", "winner", "turn"];
const SEATS = ["dealer", "knocker", "winner"];
const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const detail = el("section", { class: "detail", "aria-live": "polite" });

// A word of the catalogue for a name made from data, or the name itself where the catalogue has none.
function word(prefix, name, values = {}) {
  const key = `${prefix}.${name}`;
  return hasText(key) ? t(key, values) : String(name);
}

// A run in one line in the page's language (rules other than a preset's named as the server words them).
function describe(run) {
  const about = run.about;
  if (!about) return run.description;
  const rules = about.rules ? word("preset", about.rules) : about.other_rules;
  const players = about.players.length === 2 ? t("runs.versus", { a: about.players[0], b: about.players[1] }) : about.players.join(", ");
  const size = about.size === null ? null
    : `${word("runs.size", about.unit, { n: formatNumber(about.size, 0) })}${about.duplicate ? ` ${t("runs.duplicate")}` : ""}`;
  return [rules, players, size, about.seed === null ? null : t("runs.seed", { n: about.seed })].filter(Boolean).join(" · ");
}

// A group's value as the page shows it: cards and suits as symbols, seats as players.
function groupValue(column, value) {
  if (value === null) return "–";
  if (column === "upcard") return cardLabel(String(value));
  if (column === "upcard_suit") return SUITS[value] || String(value);
  if (SEATS.includes(column)) return value < 0 ? t("runs.nobody") : t("runs.seat", { n: value });
  return String(value);
}

// Shares (the rates) as percentages, other measures as numbers.
function measureValue(column, value) {
  if (value === null || value === undefined) return "–";
  if (typeof value !== "number") return String(value);
  if (column.includes("rate")) return formatPercent(value);
  return Number.isInteger(value) && !column.startsWith("mean") ? formatNumber(value, 0) : formatNumber(value, 2);
}

// A summary as a table: a measure with its interval (the *_low and *_high columns) under it, in one cell.
function table(data) {
  const shown = data.columns.map((c, i) => [c, i]).filter(([c]) => !/_(low|high)$/.test(c));
  const cell = (row, column, i) => {
    if (GROUPS.includes(column) && column) return el("td", { text: groupValue(column, row[i]) });
    const low = data.columns.indexOf(`${column}_low`), high = data.columns.indexOf(`${column}_high`);
    const value = measureValue(column, row[i]);
    if (low < 0 || high < 0 || row[low] === null) return el("td", { text: value });
    return el("td", {}, value, el("br"), el("small", { class: "interval",
      text: `${measureValue(column, row[low])} – ${measureValue(column, row[high])}` }));
  };
  return scrolling(t("runs.table"), el("table", { class: "summary" },
    el("thead", {}, el("tr", {}, shown.map(([c]) => el("th", { scope: "col", text: word("runs.column", c) })))),
    el("tbody", {}, data.rows.map((row) => el("tr", {}, shown.map(([c, i]) => cell(row, c, i)))))));
}

function chartOf(data, measure, by) {
  const at = (name) => data.columns.indexOf(name);
  if (at(measure) < 0) return null;
  const label = by && at(by) >= 0 ? at(by) : -1;
  const groups = data.rows.map((row, i) => ({ label: label >= 0 ? groupValue(by, row[label]) : String(i), value: row[at(measure)],
    low: at(`${measure}_low`) >= 0 ? row[at(`${measure}_low`)] : null, high: at(`${measure}_high`) >= 0 ? row[at(`${measure}_high`)] : null }));
  const title = by ? t("runs.chart", { measure: word("runs.column", measure), group: word("runs.column", by) }) : word("runs.column", measure);
  return intervalChart(title, groups, { format: (v) => measureValue(measure, v) });
}

async function showRun(run) {
  const by = el("select", { id: "runs-by" }, GROUPS.map((g) => el("option", { value: g, text: g ? word("runs.column", g) : t("runs.by.none") })));
  const measure = el("select", { id: "runs-measure" });
  const body = el("div");
  const handNumber = el("input", { type: "number", min: "0", value: "0", id: "runs-hand", class: "hand-number" });
  const handView = el("div");
  const load = async () => {
    try {
      const data = await api(`/api/runs/summary?path=${encodeURIComponent(run.path)}${by.value ? `&by=${by.value}` : ""}`);
      const rates = data.columns.filter((c) => data.columns.includes(`${c}_low`));
      const chosen = measure.value && rates.includes(measure.value) ? measure.value : rates[0];
      measure.replaceChildren(...rates.map((r) => el("option", { value: r, selected: r === chosen, text: word("runs.column", r) })));
      fill(body, chosen ? chartOf(data, chosen, by.value) : "", table(data));
    } catch (error) {
      showError(body, error);
    }
  };
  const replay = async () => {
    try {
      const data = await api(`/api/runs/hand?path=${encodeURIComponent(run.path)}&hand=${encodeURIComponent(handNumber.value)}`);
      handSteps(handView, data);
    } catch (error) {
      showError(handView, error);
    }
  };
  by.addEventListener("change", load);
  measure.addEventListener("change", load);
  fill(detail, el("h2", { text: run.path || "." }), el("p", { text: describe(run) }),
    el("p", {}, el("label", { for: "runs-by", text: t("runs.by") }), " ", by, " ",
      el("label", { for: "runs-measure", text: t("runs.measure") }), " ", measure), body,
    run.kind === "hands" ? el("div", {}, el("h3", { text: t("runs.hand") }),
      el("p", {}, el("label", { for: "runs-hand", text: t("runs.hand") }), " ", handNumber, " ",
        el("button", { type: "button", onclick: replay, text: t("runs.go") })), handView) : null);
  await load();
}

// An event of a replayed hand in words, its card as a symbol.
function eventText(step, players) {
  return word("runs.event", step.event, { who: step.player >= 0 ? players[step.player] : "", card: step.card ? cardLabel(step.card) : "" });
}

function handSteps(where, data) {
  let index = 0;
  const view = el("div", { class: "board" });
  const list = el("ol", { class: "replay-steps", start: "0" });
  const drawStep = () => {
    const step = data.steps[index];
    fill(view, el("p", { text: t("runs.step", { n: index, event: eventText(step, data.players) }) }),
      ...[0, 1].map((seat) => el("div", { class: "row" }, el("strong", { text: data.players[seat] }), " ",
        step.hands[seat].map((c) => cardFace(c, { class: "small" })))));
    list.querySelectorAll("button").forEach((b, i) => b.setAttribute("aria-current", i === index ? "true" : "false"));
  };
  const goTo = (i) => { index = Math.min(data.steps.length - 1, Math.max(0, i)); drawStep(); };
  list.append(...data.steps.map((step, i) => el("li", {}, el("button", { type: "button", onclick: () => goTo(i),
    text: eventText(step, data.players) }))));
  const prev = el("button", { type: "button", "aria-label": t("runs.previous"), text: "←", onclick: () => goTo(index - 1) });
  const next = el("button", { type: "button", "aria-label": t("runs.next"), text: "→", onclick: () => goTo(index + 1) });
  const winner = data.winner >= 0 ? data.players[data.winner] : null;
  drawStep();
  fill(where, el("p", { text: `${t("upcard", { card: cardLabel(data.upcard) })} · ${outcomeText(data.outcome, winner, data.points)}` }),
    el("p", {}, prev, " ", next), view, list);
}

async function showSweep(run) {
  try {
    const data = await api(`/api/runs/sweep?path=${encodeURIComponent(run.path)}`);
    const columns = data.cells.length ? ["cell", ...data.cells[0].columns] : [];
    const rows = data.cells.map((c) => [c.cell, ...(c.rows[0] || [])]);
    fill(detail, el("h2", { text: run.path }), el("h3", { text: t("runs.cells") }), table({ columns, rows }));
  } catch (error) {
    showError(detail, error);
  }
}

async function start() {
  let runs;
  try {
    runs = (await api("/api/runs")).runs;
  } catch {
    fill(main, el("h1", { text: t("runs.title") }), el("p", { text: t("runs.off") }));
    return;
  }
  const list = el("ul", {}, runs.map((run) => el("li", {}, el("button", { type: "button",
    onclick: () => (run.kind === "sweep" ? showSweep(run) : showRun(run)) }, el("strong", { text: run.path || "." }), el("br"),
  el("small", { text: run.kind === "sweep" ? word("runs.kind", run.kind) : `${word("runs.kind", run.kind)}: ${describe(run)}` })))));
  fill(main, el("h1", { text: t("runs.title") }),
    runs.length ? el("div", { class: "runs" }, el("nav", { "aria-label": t("runs.title") }, list), detail) : el("p", { text: t("runs.none") }));
}

start();
