// What every page shares: the language, the API, cards, the navigation.
import { CATALOGUE } from "./i18n.js";

const stored = new URLSearchParams(location.search).get("lang") || localStorage.getItem("ginsim.lang");
export let lang = stored in CATALOGUE ? stored
  : ((navigator.languages || [navigator.language || "en"]).find((l) => l.slice(0, 2) in CATALOGUE) || "en").slice(0, 2);

export function t(key, values = {}) {
  const text = (CATALOGUE[lang] && CATALOGUE[lang][key]) || CATALOGUE.en[key] || key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in values ? String(values[name]) : `{${name}}`));
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else if (name === "text") node.textContent = value;
    else node.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

export class ApiError extends Error {}

export async function api(path, body = undefined) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) };
  const response = await fetch(path, { credentials: "same-origin", ...init });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new ApiError(data.error || response.statusText);
  return data;
}

const SUITS = { C: "♣", D: "♦", H: "♥", S: "♠" };

// A card's name as the pages show and read it: 7♥, 10♦, K♠.
export function cardLabel(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  return rank + SUITS[code.slice(-1)];
}

export function cardFace(code, attributes = {}) {
  const red = "DH".includes(code.slice(-1));
  return el(attributes.button ? "button" : "span", {
    class: `card ${red ? "red" : "black"}`, "data-card": code,
    "aria-label": attributes.button ? cardLabel(code) : null, type: attributes.button ? "button" : null,
    ...Object.fromEntries(Object.entries(attributes).filter(([name]) => name !== "button")),
  }, el("span", { class: "rank", text: cardLabel(code).slice(0, -1), "aria-hidden": "true" }),
  el("span", { class: "suit", text: code.slice(-1) in SUITS ? SUITS[code.slice(-1)] : "", "aria-hidden": "true" }),
  attributes.button ? null : el("span", { class: "visually-hidden", text: cardLabel(code) }));
}

export function cardBack() {
  return el("span", { class: "card back", "aria-hidden": "true" });
}

export function cardsText(codes) {
  return codes.map(cardLabel).join(" ");
}

export function header(active) {
  const links = [["/", "nav.play"], ["/how-to-play", "nav.howto"], ["/games", "nav.games"], ["/review", "nav.review"],
    ["/runs", "nav.runs"]];
  const nav = el("nav", { "aria-label": "main" },
    links.map(([href, key]) => el("a", { href, "aria-current": key === active ? "page" : null, text: t(key) })),
    el("button", { type: "button", class: "lang", lang: lang === "en" ? "ru" : "en", onclick: () => {
      localStorage.setItem("ginsim.lang", lang === "en" ? "ru" : "en");
      const url = new URL(location.href);
      url.searchParams.delete("lang");
      location.href = url.toString();
    }, text: t("lang.switch") }));
  document.documentElement.lang = lang;
  document.title = `${t(active)} · ${t("app.title")}`;
  const top = document.querySelector("header");
  top.replaceChildren(el("span", { class: "brand", text: t("app.title") }), nav);
}

export function showError(where, error) {
  where.replaceChildren(el("p", { class: "error", role: "alert", text: t("error", { message: error.message }) }));
}

export function formatNumber(value, digits = 1) {
  if (value === null || value === undefined) return "–";
  return Number(value).toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// Replace a node's children, leaving out the parts a page does not show (null, undefined, false).
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}
