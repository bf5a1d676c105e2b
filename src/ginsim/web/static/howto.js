// How to play: the rules of Gin Rummy as this game plays them, each with a small example hand.
import { cardBack, cardFace, el, fill, header, t } from "./common.js";

const main = document.getElementById("main");
document.head.append(el("link", { rel: "stylesheet", href: "/static/howto.css" }));
header("nav.howto");

// Cards in groups (a meld, or loose cards): "7H 8H 9H|KD"; "back" is a face-down card, "+9H" a card laid off.
function cards(groups) {
  const card = (code) => {
    if (code === "back") return cardBack();
    const face = cardFace(code.replace("+", ""));
    if (code.startsWith("+")) face.classList.add("laid");
    return face;
  };
  return el("div", { class: "cards" }, groups.split("|").map((group) => el("span", { class: "group" },
    group.split(" ").map(card))));
}

function example(groups, caption) {
  return el("figure", { class: "example" }, cards(groups), el("figcaption", { text: caption }));
}

function hollywoodSheet() {
  const rows = [["howto.hollywood.you", [50, 30, 0]], ["howto.hollywood.them", [15, 0, 0]]];
  return el("figure", { class: "example" }, el("figcaption", { text: t("howto.hollywood.example") }),
    el("table", {}, el("thead", {}, el("tr", {}, el("td"),
      [1, 2, 3].map((n) => el("th", { scope: "col", text: t("howto.hollywood.game", { n }) })))),
    el("tbody", {}, rows.map(([key, points]) => el("tr", {}, el("th", { scope: "row", text: t(key) }),
      points.map((p) => el("td", { text: String(p) })))))));
}

// Each section: its name (the anchor and the keys' prefix) and its example.
const SECTIONS = [
  ["cards", () => example("AS 7D TH KC", t("howto.cards.example"))],
  ["melds", () => example("7H 8H 9H|9C 9D 9S|2S 3S 4S|KD", t("howto.melds.example"))],
  ["deal", () => example("back|QH", t("howto.deal.example"))],
  ["turn", () => example("5H|6H 7H", t("howto.turn.example"))],
  ["knock", () => example("6H 7H 8H|9C 9D 9S|2S 3S 4S|5D", t("howto.knock.example"))],
  ["gin", () => example("AC 2C 3C|4D 5D 6D|7H 8H 9H TH", t("howto.gin.example"))],
  ["layoffs", () => example("+5H 6H 7H 8H +9H +TH|QC QD QS +QH|7C 8D KD", t("howto.layoffs.example"))],
  ["undercut", () => example("5C 6C 7C|9D TD JD|KC KH KS|7S", t("howto.undercut.example"))],
  ["draw", () => example("back back", t("howto.draw.example"))],
  ["game", () => el("p", { class: "example", text: t("howto.game.example") })],
  ["oklahoma", () => el("div", { class: "upcards" },
    [["7S", "seven"], ["AH", "ace"], ["KD", "king"]].map(([card, key]) => example(card, t(`howto.oklahoma.${key}`))),
    el("p", { class: "example", text: t("howto.oklahoma.example") }))],
  ["straight", () => example("AC 2C 3C|4D 5D 6D|7H 8H 9H|AS", t("howto.straight.example"))],
  ["hollywood", hollywoodSheet],
  ["other", () => null],
];

fill(main, el("article", { class: "howto" },
  el("h1", { text: t("howto.title") }),
  el("p", { text: t("howto.intro") }),
  el("nav", { "aria-label": t("howto.contents") }, el("ol", {},
    SECTIONS.map(([name]) => el("li", {}, el("a", { href: `#${name}`, text: t(`howto.${name}.title`) }))))),
  SECTIONS.map(([name, shown]) => el("section", { id: name, "aria-labelledby": `${name}-title` },
    el("h2", { id: `${name}-title`, text: t(`howto.${name}.title`) }),
    el("p", { text: t(`howto.${name}.text`) }), shown())),
  el("p", {}, el("a", { class: "button primary", href: "/", text: t("howto.play") }))));
