// What every page shares: the language, the API, cards, the navigation.
import { CATALOGUE, LANGUAGES } from "./i18n.js";
import { backSvg, faceSvg } from "./cards.js";

const LANGUAGE_KEY = "ginsim.lang";

// A name is a language only if the catalogue has it as its own key: "__proto__" or "toString" is not one.
function isLanguage(name) {
  return typeof name === "string" && Object.hasOwn(LANGUAGES, name) && Object.hasOwn(CATALOGUE, name);
}

// The page's language: ?lang= (then remembered), else the one chosen before, else the browser's, else English.
function chooseLanguage() {
  const asked = (new URLSearchParams(location.search).get("lang") || "").toLowerCase();
  if (isLanguage(asked)) {
    localStorage.setItem(LANGUAGE_KEY, asked);
    return asked;
  }
  const kept = localStorage.getItem(LANGUAGE_KEY);
  if (isLanguage(kept)) return kept;
  const browser = (navigator.languages || [navigator.language || ""]).map((l) => l.slice(0, 2).toLowerCase());
  return browser.find(isLanguage) || "en";
}

export const lang = chooseLanguage();
document.documentElement.lang = lang;

// Whether the catalogue has a text for `key` (a key made from data, such as a preset's name, may have none).
export function hasText(key) {
  return Object.hasOwn(CATALOGUE.en, key);
}

export function t(key, values = {}) {
  const own = CATALOGUE[lang];
  const text = Object.hasOwn(own, key) ? own[key] : hasText(key) ? CATALOGUE.en[key] : key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (Object.hasOwn(values, name) ? String(values[name]) : `{${name}}`));
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

// A card's face: a button (attributes.button) or a picture, named by cardLabel, drawn by faceSvg. The
// caller's attributes are kept; its class is added to the card's own.
export function cardFace(code, attributes = {}) {
  const { button, class: extra = "", ...rest } = attributes;
  const red = "DH".includes(code.slice(-1));
  const classes = new Set(["card", "face", red ? "red" : "black", ...String(extra).split(/\s+/).filter(Boolean)]);
  return el(button ? "button" : "span", {
    ...rest, class: [...classes].join(" "), "data-card": code,
    "aria-label": button ? cardLabel(code) : null, type: button ? "button" : null,
  }, faceSvg(code), button ? null : el("span", { class: "visually-hidden", text: cardLabel(code) }));
}

export function cardBack() {
  return el("span", { class: "card back", "aria-hidden": "true" }, backSvg());
}

export function cardsText(codes) {
  return codes.map(cardLabel).join(" ");
}

// A decision as a record writes it ("take", "stock", "KD", "knock KD", "big gin") in the page's words.
export function choiceLabel(choice) {
  const [verb, card] = String(choice).split(" ");
  if (choice === "big gin") return t("hint.option.big");
  if (card) return t(`hint.option.${verb}`, { card: cardLabel(card) });
  if (["take", "pass", "pile", "stock"].includes(choice)) return t(`hint.option.${choice}`);
  return t("hint.option.discard", { card: cardLabel(choice) });
}

// A player of a record: the person playing in the browser is "you" there, a strategy its own name.
export function playerName(name) {
  return name === "you" ? t("who.you") : name;
}

// How a hand ended and who scored what ("Knock: greedy +29"), from the outcome, the winner's name and the points.
export function outcomeText(outcome, winner, points) {
  const named = hasText(`outcome.${outcome}`) ? t(`outcome.${outcome}`) : outcome;
  return winner === null ? t("outcome.nobody", { outcome: named }) : t("outcome.points", { outcome: named, who: winner, points });
}

export function header(active) {
  const links = [["/", "nav.play"], ["/how-to-play", "nav.howto"], ["/games", "nav.games"], ["/review", "nav.review"],
    ["/runs", "nav.runs"]];
  const nav = el("nav", { "aria-label": t("nav.label") },
    links.map(([href, key]) => el("a", { href, "aria-current": key === active ? "page" : null, text: t(key) })));
  const languages = el("div", { class: "languages", role: "group", "aria-label": t("lang.label") },
    Object.entries(LANGUAGES).map(([code, name]) => el("button", { type: "button", class: "lang", lang: code,
      "aria-current": code === lang ? "true" : null, onclick: () => {
        localStorage.setItem(LANGUAGE_KEY, code);
        const url = new URL(location.href);
        url.searchParams.delete("lang");
        location.href = url.toString();
      }, text: name })));
  document.title = `${t(active)} · ${t("app.title")}`;
  const top = document.querySelector("header");
  top.replaceChildren(el("span", { class: "brand", text: t("app.title") }), nav, languages);
}

export function showError(where, error) {
  where.replaceChildren(el("p", { class: "error", role: "alert", text: t("error", { message: error.message }) }));
}

export function formatNumber(value, digits = 1) {
  if (value === null || value === undefined) return "–";
  return Number(value).toLocaleString(lang, { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

// A share (0.125) as the language writes a percentage: 12.5% in English, 12,5 % in Russian.
export function formatPercent(value, digits = 1) {
  if (value === null || value === undefined) return "–";
  return Number(value).toLocaleString(lang, { style: "percent", minimumFractionDigits: digits, maximumFractionDigits: digits });
}

export function formatDate(seconds, withTime = true) {
  const date = new Date(seconds * 1000);
  return withTime ? date.toLocaleString(lang) : date.toLocaleDateString(lang);
}

// A wide table in a box of its own that scrolls sideways on a narrow screen; the box can be focused (so the
// keyboard can scroll it) and is named for screen readers.
export function scrolling(name, table) {
  return el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": name }, table);
}

// Replace a node's children, leaving out the parts a page does not show (null, undefined, false).
export function fill(node, ...children) {
  node.replaceChildren(...children.flat().filter((child) => child !== null && child !== undefined && child !== false));
}
