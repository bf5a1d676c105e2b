// Small SVG charts: a line of points (with an optional band) that can be clicked, and points with
// interval bars by group. No library: the pages work offline.
const NS = "http://www.w3.org/2000/svg";

function svg(tag, attributes = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function frame(title, width, height) {
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", class: "chart", "aria-label": title });
  root.append(svg("title", {}, title));
  return root;
}

function axisLabel(x, y, text, anchor = "end") {
  return svg("text", { x, y, "text-anchor": anchor, class: "axis" }, text);
}

// points: [{x: index, y: value, label, marked}] ; y range [low, high]; onpick(index) when a point is clicked.
export function lineChart(title, points, { low = 0, high = 1, selected = -1, onpick = null, format = (v) => v } = {}) {
  const width = 640, height = 180, left = 44, right = 8, top = 10, bottom = 22;
  const root = frame(title, width, height);
  const count = Math.max(points.length - 1, 1);
  const x = (i) => left + (i / count) * (width - left - right);
  const y = (v) => top + (1 - (v - low) / (high - low || 1)) * (height - top - bottom);
  for (const tick of [low, (low + high) / 2, high]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }));
    root.append(axisLabel(left - 4, y(tick) + 4, format(tick)));
  }
  const path = points.filter((p) => p.y !== null).map((p, i) => `${i ? "L" : "M"}${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`);
  if (path.length) root.append(svg("path", { d: path.join(" "), class: "line" }));
  points.forEach((p) => {
    if (p.y === null) return;
    const dot = svg("circle", { cx: x(p.x), cy: y(p.y), r: p.x === selected ? 5 : 3,
      class: `dot ${p.marked ? "marked" : ""} ${p.x === selected ? "selected" : ""}`, tabindex: "-1" });
    dot.append(svg("title", {}, p.label));
    if (onpick) dot.addEventListener("click", () => onpick(p.x));
    root.append(dot);
  });
  return root;
}

// groups: [{label, value, low, high}]; the points with their intervals, one column a group.
export function intervalChart(title, groups, { format = (v) => v } = {}) {
  const width = 640, height = 200, left = 48, right = 8, top = 10, bottom = 36;
  const root = frame(title, width, height);
  const values = groups.flatMap((g) => [g.low, g.high, g.value]).filter((v) => v !== null && Number.isFinite(v));
  let low = Math.min(0, ...values), high = Math.max(...values, 1e-9);
  if (high === low) high = low + 1;
  const step = (width - left - right) / Math.max(groups.length, 1);
  const y = (v) => top + (1 - (v - low) / (high - low)) * (height - top - bottom);
  for (const tick of [low, (low + high) / 2, high]) {
    root.append(svg("line", { x1: left, x2: width - right, y1: y(tick), y2: y(tick), class: "grid" }));
    root.append(axisLabel(left - 4, y(tick) + 4, format(tick)));
  }
  groups.forEach((g, i) => {
    const cx = left + step * (i + 0.5);
    if (g.low !== null && g.high !== null) root.append(svg("line", { x1: cx, x2: cx, y1: y(g.low), y2: y(g.high), class: "bar" }));
    if (g.value !== null) {
      const dot = svg("circle", { cx, cy: y(g.value), r: 3.5, class: "dot" });
      dot.append(svg("title", {}, `${g.label}: ${format(g.value)} [${format(g.low)}, ${format(g.high)}]`));
      root.append(dot);
    }
    if (groups.length <= 16 || i % Math.ceil(groups.length / 16) === 0) {
      root.append(axisLabel(cx, height - bottom + 14, String(g.label), "middle"));
    }
  });
  return root;
}
