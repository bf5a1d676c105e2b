// The runs page: the runs and sweeps under the server's runs folder, a run's summary as a table and a
// chart with intervals, a sweep's cells side by side, and any hand of a run replayed step by step.
import { api, cardFace, el, formatNumber, header, showError, t, fill } from "./common.js";
import { intervalChart } from "./chart.js";

const main = document.getElementById("main");
header("nav.runs");
const GROUPS = ["", "upcard", "upcard_rank", "upcard_suit", "knock_limit", "dealer", "knocker", "winner", "turn"];
const detail = el("section", { class: "detail", "aria-live": "polite" });

function cell(value) {
  if (typeof value === "number" && !Number.isInteger(value)) return formatNumber(value, 4);
  return value === null ? "–" : String(value);
}

function table(data) {
  return el("div", { class: "scroll" }, el("table", {}, el("thead", {}, el("tr", {}, data.columns.map((c) => el("th", { scope: "col", text: c })))),
    el("tbody", {}, data.rows.map((row) => el("tr", {}, row.map((v) => el("td", { text: cell(v) })))))));
}

function chartOf(data, measure, by) {
  const at = (name) => data.columns.indexOf(name);
  if (at(measure) < 0) return null;
  const label = by && at(by) >= 0 ? at(by) : -1;
  const groups = data.rows.map((row, i) => ({ label: label >= 0 ? row[label] : String(i), value: row[at(measure)],
    low: at(`${measure}_low`) >= 0 ? row[at(`${measure}_low`)] : null, high: at(`${measure}_high`) >= 0 ? row[at(`${measure}_high`)] : null }));
  return intervalChart(`${measure}${by ? ` by ${by}` : ""}`, groups, { format: (v) => formatNumber(v, 3) });
}

async function showRun(run) {
  const by = el("select", { id: "runs-by" }, GROUPS.map((g) => el("option", { value: g, text: g || t("runs.by.none") })));
  const measure = el("select", { id: "runs-measure" });
  const body = el("div");
  const handNumber = el("input", { type: "number", min: "0", value: "0", id: "runs-hand", style: "width: 7rem" });
  const handView = el("div");
  const load = async () => {
    try {
      const data = await api(`/api/runs/summary?path=${encodeURIComponent(run.path)}${by.value ? `&by=${by.value}` : ""}`);
      const rates = data.columns.filter((c) => data.columns.includes(`${c}_low`));
      const chosen = measure.value && rates.includes(measure.value) ? measure.value : rates[0];
      measure.replaceChildren(...rates.map((r) => el("option", { value: r, selected: r === chosen, text: r })));
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
  fill(detail, el("h2", { text: run.path || "." }), el("p", { text: run.description }),
    el("p", {}, el("label", { for: "runs-by", text: t("runs.by") }), " ", by, " ",
      el("label", { for: "runs-measure", text: t("runs.measure") }), " ", measure), body,
    run.kind === "hands" ? el("div", {}, el("h3", { text: t("runs.hand") }),
      el("p", {}, el("label", { for: "runs-hand", text: t("runs.hand") }), " ", handNumber, " ",
        el("button", { type: "button", onclick: replay, text: t("runs.go") })), handView) : null);
  await load();
}

function handSteps(where, data) {
  let index = 0;
  const view = el("div", { class: "board" });
  const drawStep = () => {
    const step = data.steps[index];
    fill(view, el("p", { text: t("runs.step", { n: index, event: `${step.event}${step.player >= 0 ? ` (${data.players[step.player]})` : ""}${step.card ? ` ${step.card}` : ""}` }) }),
      ...[0, 1].map((seat) => el("div", { class: "row" }, el("strong", { text: data.players[seat] }), " ",
        step.hands[seat].map((c) => cardFace(c, { class: `card small ${"DH".includes(c.slice(-1)) ? "red" : "black"}` })))));
  };
  const prev = el("button", { type: "button", "aria-label": "previous step", text: "←", onclick: () => { index = Math.max(0, index - 1); drawStep(); } });
  const next = el("button", { type: "button", "aria-label": "next step", text: "→", onclick: () => { index = Math.min(data.steps.length - 1, index + 1); drawStep(); } });
  drawStep();
  fill(where, el("p", { text: `${data.outcome} · +${data.points}` }), el("p", {}, prev, " ", next), view, el("pre", { text: data.text }));
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
  } catch (error) {
    fill(main, el("h1", { text: t("runs.title") }), el("p", { text: t("runs.off") }));
    return;
  }
  const list = el("ul", {}, runs.map((run) => el("li", {}, el("button", { type: "button",
    onclick: () => (run.kind === "sweep" ? showSweep(run) : showRun(run)) }, el("strong", { text: run.path || "." }), el("br"),
  el("small", { text: `${run.kind}: ${run.description}` })))));
  fill(main, el("h1", { text: t("runs.title") }),
    runs.length ? el("div", { class: "runs" }, el("nav", { "aria-label": t("runs.title") }, list), detail) : el("p", { text: t("runs.none") }));
}

start();
