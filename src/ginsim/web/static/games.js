// Your games: every game played in this browser, its result and each side's error rate, and charts of
// your error rate and results over time.
import { api, el, fill, formatDate, formatNumber, formatPercent, hasText, header, scrolling, showError, t } from "./common.js";
import { lineChart } from "./chart.js";

const main = document.getElementById("main");
header("nav.games");

function result(game) {
  if (game.status !== "over" || !game.result) return t("games.playing");
  const a = game.result.total_0, b = game.result.total_1;
  return game.result.winner === 0 ? t("games.won", { a, b }) : t("games.lost", { a, b });
}

// The game's rules and length: "Oklahoma · To 100 points".
function rules(game) {
  const preset = hasText(`preset.${game.preset}`) ? t(`preset.${game.preset}`) : game.preset;
  return `${preset} · ${game.target === null ? t("new.target.one") : t("new.target.points", { points: game.target })}`;
}

function rate(game, seat) {
  const value = game.error_rate[seat];
  if (value === null || value === undefined) return game.status === "over" ? t("games.pending") : "–";
  return game.unit === "equity" ? formatPercent(value, 2) : formatNumber(value, 2);
}

async function start() {
  let games;
  try {
    games = (await api("/api/games")).games;
  } catch (error) {
    showError(main, error);
    return;
  }
  if (!games.length) {
    fill(main, el("h1", { text: t("games.title") }), el("p", {}, el("a", { href: "/", text: t("games.none") })));
    return;
  }
  const rows = games.map((g) => el("tr", {},
    el("td", { text: formatDate(g.created) }), el("td", { text: g.opponent }), el("td", { text: rules(g) }),
    el("td", { text: result(g) }), el("td", { text: rate(g, 0) }), el("td", { text: rate(g, 1) }),
    el("td", {}, g.status === "over" ? el("a", { href: `/review?game=${g.id}`, text: t("games.open") })
      : el("a", { href: `/?game=${g.id}`, text: t("games.resume") }))));
  const finished = games.filter((g) => g.status === "over" && g.result).reverse();
  const margins = finished.map((g, i) => ({ x: i, y: g.result.total_0 - g.result.total_1, label: `${g.opponent}: ${result(g)}`, marked: g.result.winner !== 0 }));
  const marginValues = margins.map((p) => p.y);
  // An error rate is a chance to win given away where the game has a target with a table, else points: each
  // unit has a chart of its own, never one axis for both.
  const errorChart = (unit, key, format) => {
    const points = finished.filter((g) => g.unit === unit && g.error_rate[0] !== null && g.error_rate[0] !== undefined)
      .map((g, i) => ({ x: i, y: g.error_rate[0], label: `${formatDate(g.created, false)} ${g.opponent}` }));
    if (points.length < 2) return null;
    return el("section", {}, el("h2", { text: t(key) }),
      lineChart(t(key), points, { low: 0, high: Math.max(...points.map((p) => p.y), 1e-9), format }));
  };
  fill(main, el("h1", { text: t("games.title") }),
    scrolling(t("games.title"), el("table", { class: "games-list" },
      el("thead", {}, el("tr", {}, ["games.date", "games.opponent", "games.rules", "games.result", "games.yours", "games.theirs", "games.open"]
        .map((key) => el("th", { scope: "col", text: t(key) })))), el("tbody", {}, rows))),
    errorChart("equity", "games.chart.errors", (v) => formatPercent(v, 2)),
    errorChart("points", "games.chart.errors.points", (v) => formatNumber(v, 2)),
    finished.length > 1 ? el("section", {}, el("h2", { text: t("games.chart.results") }),
      lineChart(t("games.chart.results"), margins, { low: Math.min(0, ...marginValues), high: Math.max(1, ...marginValues), format: (v) => formatNumber(v, 0) })) : null);
}

start();
