// Cards and tiles drawn as inline SVG (no image downloads): drawPiece(face) for a piece a seat sees,
// drawBack(kind, count) for pieces it may not see. A face comes from the server (web/pieces.py: the
// game's page part `face(name)`): {name, label, kind: "card"|"tile", colour, rank, suit, mark?,
// accent?} or {name, label, kind: "tile", ends: [a, b]}. Every drawing is role="img" with the
// piece's name in words as its aria-label; elements are built with createElementNS, never markup.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function svgEl(tag, attrs = {}, text) {
  const e = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = String(text);
  return e;
}

// The drawing's root: sized by app.css (.piece-svg.card / .tile / .upright) unless opts.width (px) is given.
function svgRoot(kind, w, h, label, opts = {}) {
  const root = svgEl("svg", {viewBox: `0 0 ${w} ${h}`, role: "img", "aria-label": label,
    class: `piece-svg ${kind}${opts.className ? " " + opts.className : ""}`, focusable: "false"});
  if (opts.width) root.style.width = `${opts.width}px`;       // over the style sheet's size; the height follows the viewBox
  root.append(svgEl("title", {}, label));      // the name on hover too, and for readers that skip aria-label
  return root;
}

// WCAG 2 relative luminance of a hex colour, and the contrast ratio of two (1..21).
function luminance(hex) {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex || "");
  if (!m) return 0;
  const [r, g, b] = m.slice(1).map(x => parseInt(x, 16) / 255)
    .map(c => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a, b) {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

// The text colour on a card: white or near-black, whichever contrasts more with its face (orange and
// yellow take the dark ink; every ink here is at least 4.5:1 on the palette's faces).
function inkOn(hex) {
  return contrast(hex, "#ffffff") >= contrast(hex, "#1b1b1b") ? "#fff" : "#1b1b1b";
}

// Text that never spills over the card: squeezed to `room` units when it is long.
function fitText(text, x, y, size, room, attrs) {
  const t = svgEl("text", {x, y, "font-size": size, "text-anchor": "middle", "font-family": "system-ui, sans-serif",
    ...attrs}, text);
  if (String(text).length * size * 0.6 > room) { t.setAttribute("textLength", room); t.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  return t;
}

// The small shapes a card may carry in its corner (web/pieces.py MARKS), in a 10x10 box at (x, y).
const MARK_PATHS = {
  rocket: "M5 0 C7.5 2 8 5 7 8 L3 8 C2 5 2.5 2 5 0 Z M3 8 L1.5 10 L3.5 9 Z M7 8 L8.5 10 L6.5 9 Z",
  crescent: "M6.5 0.5 A4.8 4.8 0 1 0 6.5 9.5 A3.8 3.8 0 1 1 6.5 0.5 Z",
  star: "M5 0 L6.2 3.6 L10 3.6 L6.9 5.8 L8.1 9.5 L5 7.2 L1.9 9.5 L3.1 5.8 L0 3.6 L3.8 3.6 Z",
  disc: "M5 0.5 A4.5 4.5 0 1 1 4.99 0.5 Z",
};

function mark(name, x, y, fill) {
  const d = MARK_PATHS[name];
  return d ? svgEl("path", {d, fill, transform: `translate(${x} ${y})`, "aria-hidden": "true"}) : null;
}

function drawCard(face, opts) {
  const W = 40, H = 56, ink = inkOn(face.colour);
  const root = svgRoot("card", W, H, opts.label || face.label || face.name, opts);
  root.append(svgEl("rect", {x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 4.5, fill: face.colour || "#263238",
    stroke: "#1b1b1b", "stroke-width": 1.5}));
  root.append(svgEl("rect", {x: 3.5, y: 3.5, width: W - 7, height: H - 7, rx: 3, fill: "none", stroke: ink,
    "stroke-opacity": 0.45, "stroke-width": 0.8}));
  const rank = String(face.rank ?? face.name);
  const big = rank.length <= 2 ? 21 : 12;
  // an accent rank (a colour the card names) in that colour where it reads on the face (4.5:1), else in the ink
  const fill = face.accent && contrast(face.accent, face.colour || "#263238") >= 4.5 ? face.accent : ink;
  root.append(fitText(rank, W / 2, 29 + big * 0.35, big, W - 8, {fill, "font-weight": 700}));
  const m = face.mark && mark(face.mark, 5, 5, ink);
  if (m) root.append(m);
  if (face.suit) root.append(fitText(face.suit, W / 2, H - 6.5, 8.5, W - 7, {fill: ink}));
  return root;
}

// Pips of 0..6 on a 3x3 grid of one half (cells 0..8, read row by row).
const PIP_CELLS = [[], [4], [0, 8], [0, 4, 8], [0, 2, 6, 8], [0, 2, 4, 6, 8], [0, 2, 3, 5, 6, 8]];

function half(n, x0, y0, s) {
  const g = svgEl("g", {"aria-hidden": "true"});
  for (const c of PIP_CELLS[n] || []) {
    g.append(svgEl("circle", {cx: x0 + s * (0.22 + 0.28 * (c % 3)), cy: y0 + s * (0.22 + 0.28 * Math.floor(c / 3)),
      r: s * 0.085, fill: "#1b1b1b"}));
  }
  return g;
}

// A tile lies flat (two squares side by side) or, with opts.vertical, upright.
function drawTile(face, opts) {
  const s = 32, [a, b] = face.ends, up = !!opts.vertical;
  const W = up ? s : 2 * s, H = up ? 2 * s : s;
  const root = svgRoot("tile" + (up ? " upright" : ""), W, H, opts.label || face.label || face.name, opts);
  root.append(svgEl("rect", {x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 4, fill: "#fdfaf2",
    stroke: "#1b1b1b", "stroke-width": 1.5}));
  root.append(up ? svgEl("line", {x1: 4, y1: s, x2: s - 4, y2: s, stroke: "#1b1b1b", "stroke-width": 1.2})
    : svgEl("line", {x1: s, y1: 4, x2: s, y2: s - 4, stroke: "#1b1b1b", "stroke-width": 1.2}));
  root.append(half(a, 0, 0, s), up ? half(b, 0, s, s) : half(b, s, 0, s));
  return root;
}

// One piece a seat sees; opts: {width (px), vertical (tiles), className, label (its name read aloud, if
// not the face's: "six-two, not playable now")}.
function drawPiece(face, opts = {}) {
  return face.kind === "tile" && Array.isArray(face.ends) ? drawTile(face, opts) : drawCard(face, opts);
}

// Pieces a seat may not see: one back with the count on it, named "5 cards" / "1 tile".
function drawBack(kind, count, opts = {}) {
  const tile = kind === "tile", W = tile ? 32 : 40, H = tile ? 64 : 56;
  const label = `${count} ${kind}${count === 1 ? "" : "s"}`;
  const root = svgRoot(`${tile ? "tile upright" : "card"} back`, W, H, label, opts);
  root.append(svgEl("rect", {x: 0.75, y: 0.75, width: W - 1.5, height: H - 1.5, rx: 4.5, fill: "#37474f",
    stroke: "#1b1b1b", "stroke-width": 1.5}));
  for (let i = -H; i < W; i += 7) {
    root.append(svgEl("line", {x1: i, y1: H, x2: i + H, y2: 0, stroke: "#fff", "stroke-opacity": 0.12, "stroke-width": 2}));
  }
  root.append(svgEl("rect", {x: 4, y: H / 2 - 11, width: W - 8, height: 22, rx: 3, fill: "#263238"}));
  root.append(fitText(count, W / 2, H / 2 + 6, 17, W - 10, {fill: "#fff", "font-weight": 700}));
  return root;
}
