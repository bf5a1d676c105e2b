// Playing cards drawn as SVG by code: nothing to download, crisp at any size. A face has two levels of
// detail, chosen by cards.css from the card's size: the full face (corner indices, the pips or a court
// card's panel) and a compact one (a large rank and suit) for cards too small for pips.
const NS = "http://www.w3.org/2000/svg";
const WIDTH = 50, HEIGHT = 70;   // a real card's 5:7

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

// Each suit drawn in a box from -1 to 1 around its centre, pointing up.
const SUIT_SHAPES = {
  H: () => [svg("path", { d: "M0,0.95 C-0.35,0.6 -1,0.15 -1,-0.38 C-1,-0.78 -0.7,-1 -0.45,-1 C-0.2,-1 -0.05,-0.82 0,-0.62 "
    + "C0.05,-0.82 0.2,-1 0.45,-1 C0.7,-1 1,-0.78 1,-0.38 C1,0.15 0.35,0.6 0,0.95 Z" })],
  D: () => [svg("path", { d: "M0,-1 Q0.4,-0.5 0.78,0 Q0.4,0.5 0,1 Q-0.4,0.5 -0.78,0 Q-0.4,-0.5 0,-1 Z" })],
  S: () => [svg("path", { d: "M0,-1 C-0.3,-0.6 -1,-0.25 -1,0.22 C-1,0.58 -0.72,0.76 -0.46,0.76 C-0.28,0.76 -0.13,0.68 -0.06,0.55 "
    + "C-0.08,0.75 -0.2,0.9 -0.34,1 L0.34,1 C0.2,0.9 0.08,0.75 0.06,0.55 C0.13,0.68 0.28,0.76 0.46,0.76 "
    + "C0.72,0.76 1,0.58 1,0.22 C1,-0.25 0.3,-0.6 0,-1 Z" })],
  C: () => [svg("circle", { cx: 0, cy: -0.5, r: 0.44 }), svg("circle", { cx: -0.52, cy: 0.16, r: 0.44 }),
    svg("circle", { cx: 0.52, cy: 0.16, r: 0.44 }), svg("path", { d: "M-0.16,0 L0.16,0 L0.12,0.5 Q0.16,0.85 0.36,1 L-0.36,1 Q-0.16,0.85 -0.12,0.5 Z" })],
};

// A suit of half-size `size` at (x, y), upside down when `flipped` (the lower half of a real card's pips).
function suit(code, x, y, size, flipped = false) {
  const turn = flipped ? " rotate(180)" : "";
  return svg("g", { transform: `translate(${x} ${y}) scale(${size})${turn}`, class: "suit-mark" }, ...SUIT_SHAPES[code]());
}

// The pips of 2 to 10 as (column, row): columns left, centre, right; rows from the top (0) to the bottom (1).
const PIPS = {
  2: [[1, 0], [1, 1]],
  3: [[1, 0], [1, 0.5], [1, 1]],
  4: [[0, 0], [2, 0], [0, 1], [2, 1]],
  5: [[0, 0], [2, 0], [1, 0.5], [0, 1], [2, 1]],
  6: [[0, 0], [2, 0], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  7: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [0, 1], [2, 1]],
  8: [[0, 0], [2, 0], [1, 0.25], [0, 0.5], [2, 0.5], [1, 0.75], [0, 1], [2, 1]],
  9: [[0, 0], [2, 0], [0, 1 / 3], [2, 1 / 3], [1, 0.5], [0, 2 / 3], [2, 2 / 3], [0, 1], [2, 1]],
  10: [[0, 0], [2, 0], [1, 1 / 6], [0, 1 / 3], [2, 1 / 3], [0, 2 / 3], [2, 2 / 3], [1, 5 / 6], [0, 1], [2, 1]],
};
const PIP_COLUMNS = [17, 25, 33], PIP_TOP = 13, PIP_BOTTOM = 57;

function pips(rank, code) {
  const size = Number(rank) >= 9 ? 4 : 4.6;   // nine and ten pips stand closer together
  return PIPS[rank].map(([column, row]) => suit(code, PIP_COLUMNS[column], PIP_TOP + row * (PIP_BOTTOM - PIP_TOP), size, row > 0.5));
}

// A court card: a framed panel with its letter, a crown above it and a suit in two corners.
const CROWNS = {
  K: "M-6,3 L-6,-3 L-3,0 L0,-4.5 L3,0 L6,-3 L6,3 Z",
  Q: "M-5.5,3 L-6,-2 L-2.8,0.6 L0,-3.4 L2.8,0.6 L6,-2 L5.5,3 Z",
  J: "M-5,3 L-5,-0.5 Q0,-3.5 5,-0.5 L5,3 Z",
};

function court(letter, code) {
  return [
    svg("rect", { x: 12.5, y: 8, width: 25, height: 54, rx: 2.5, class: "panel", fill: "#f3ecd8", stroke: "currentColor", "stroke-width": 0.9 }),
    svg("rect", { x: 14.3, y: 9.8, width: 21.4, height: 50.4, rx: 1.5, fill: "none", stroke: "currentColor", "stroke-width": 0.4 }),
    svg("path", { d: CROWNS[letter], transform: "translate(25 20)", class: "crown", fill: "#d9a62e", stroke: "currentColor", "stroke-width": 0.6 }),
    svg("text", { x: 25, y: 44, "text-anchor": "middle", "font-size": 20, "font-weight": 700, class: "court-letter",
      "font-family": "Georgia, 'DejaVu Serif', 'Times New Roman', serif", fill: "currentColor" }, letter),
    suit(code, 18.5, 15.5, 2.7), suit(code, 31.5, 54.5, 2.7, true),
  ];
}

// The index in a corner: the rank over a small suit; the opposite corner is the same turned round.
function index(rank, code, flipped) {
  return svg("g", { transform: flipped ? `rotate(180 ${WIDTH / 2} ${HEIGHT / 2})` : "" },
    svg("text", { x: 6.3, y: 12, "text-anchor": "middle", "font-size": rank === "10" ? 10.5 : 12.5, "font-weight": 700,
      "letter-spacing": rank === "10" ? -1 : 0, class: "card-rank", fill: "currentColor",
      "font-family": "'DejaVu Sans Condensed', 'Arial Narrow', system-ui, sans-serif" }, rank),
    suit(code, 6.3, 19.5, 3.4));
}

// The card `code` ("7H", "TD", "KS") as an SVG drawing, hidden from screen readers: the element holding
// it carries the card's name.
export function faceSvg(code) {
  const rank = code.slice(0, -1) === "T" ? "10" : code.slice(0, -1);
  const suitCode = code.slice(-1);
  const centre = rank === "A" ? [suit(suitCode, 25, 35, 11)] : rank in PIPS ? pips(rank, suitCode) : court(rank, suitCode);
  return svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "card-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 0.5, y: 0.5, width: WIDTH - 1, height: HEIGHT - 1, rx: 4, class: "paper", fill: "#fbfaf6", stroke: "#8d918c" }),
    svg("g", { class: "full" }, index(rank, suitCode, false), index(rank, suitCode, true), ...centre),
    svg("g", { class: "compact" },
      svg("text", { x: 4, y: 27, "font-size": rank === "10" ? 24 : 28, "font-weight": 700, class: "card-rank", fill: "currentColor",
        "letter-spacing": rank === "10" ? -2.5 : 0, "font-family": "'DejaVu Sans Condensed', 'Arial Narrow', system-ui, sans-serif" }, rank),
      suit(suitCode, 30, 50, 14)));
}

// The back of a card: a border and a lattice of small diamonds, the same for every card.
export function backSvg() {
  const lattice = [];
  for (let row = 0; row < 13; row += 1) {
    for (let column = 0; column < 9; column += 1) {
      const x = 7.5 + column * 4.4 + (row % 2 ? 2.2 : 0), y = 7.5 + row * 4.6;
      if (x > WIDTH - 7) continue;
      lattice.push(`M${x.toFixed(1)},${(y - 1.8).toFixed(1)} l1.5,1.8 l-1.5,1.8 l-1.5,-1.8 Z`);
    }
  }
  return svg("svg", { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: "card-svg", "aria-hidden": "true", focusable: "false" },
    svg("rect", { x: 0.5, y: 0.5, width: WIDTH - 1, height: HEIGHT - 1, rx: 4, class: "back-paper", fill: "#fbfaf6", stroke: "#1c335c" }),
    svg("rect", { x: 3.5, y: 3.5, width: WIDTH - 7, height: HEIGHT - 7, rx: 2.5, class: "back-field", fill: "#2b4f8c" }),
    svg("path", { d: lattice.join(" "), class: "back-lattice", fill: "#4f78bd" }),
    svg("rect", { x: 5, y: 5, width: WIDTH - 10, height: HEIGHT - 10, rx: 1.8, fill: "none", stroke: "#d8c27a", "stroke-width": 0.7 }),
    svg("path", { d: `M25,${HEIGHT / 2 - 9} L32,${HEIGHT / 2} L25,${HEIGHT / 2 + 9} L18,${HEIGHT / 2} Z`, class: "back-emblem",
      fill: "#2b4f8c", stroke: "#d8c27a", "stroke-width": 1 }));
}
