// moonshot serve: a hand's table drawn from its state (web/play/common.py `table`: one shape for every
// game), for the Play page's prompts and the Replay page's steps. The seats sit round the felt, the
// bottom one being the person's (or, in a replay without one, seat 0), the others clockwise from its
// left; the middle holds the trick or the piles; the contract, trump or demand and the auction read
// above and below it, the last trick below on request. Pieces are drawn by static/pieces.js from their
// faces (sent beside the table), or written as their names where a face is missing.
"use strict";

// One piece, drawn (or its name where there is no face or no drawing code).
function tablePiece(name, faces, opts = {}) {
  const face = faces && faces[name];
  if (face && typeof drawPiece === "function") return drawPiece(face, {vertical: true, ...opts});   // tiles upright: a hand fits a phone
  return el("span", {class: `piece p-${String(name)[0]}`}, name);
}

// Pieces a seat may not see: one back with the count (or the count in words).
function tableBack(kind, count) {
  if (typeof drawBack === "function") return drawBack(kind, count, {className: "small"});
  return el("span", {class: "back-count"}, `${count} ${kind}${count === 1 ? "" : "s"}`);
}

// Where each other seat sits, clockwise from the bottom seat's left: one opposite; two left and
// right; more: left, the rest across the top, right.
function seatPlaces(n) {
  if (n === 1) return ["top"];
  return ["left", ...Array(Math.max(0, n - 2)).fill("top"), "right"];
}

// The table `t` drawn into `root`; `faces` name -> face; opts.hand(seat) gives the bottom seat's
// pieces (the Play page: the person's hand with its choices as buttons) instead of t's.
function drawTable(root, t, faces, opts = {}) {
  const n = t.seats.length;
  const bottom = (t.seats.find(s => s.you) || t.seats[0]).seat;
  const others = t.seats.filter(s => s.seat !== bottom).sort((a, b) => ((a.seat - bottom + n) % n) - ((b.seat - bottom + n) % n));
  const places = seatPlaces(others.length);
  const box = {top: el("div", {class: "place top"}), left: el("div", {class: "place left"}),
    right: el("div", {class: "place right"})};
  others.forEach((s, i) => box[places[i]].append(seatBox(s, t.kind, faces)));
  const me = t.seats.find(s => s.seat === bottom);
  const mine = seatBox(me, t.kind, faces, opts.hand ? opts.hand(me) : null);
  mine.classList.add("bottom");
  const felt = el("div", {class: "felt", role: "group", "aria-label": "the table"},
    box.top, box.left, middle(t, faces), box.right, mine);
  const lines = t.lines.length ? el("dl", {class: "table-lines"},
    ...t.lines.map(([k, v]) => el("div", {}, el("dt", {}, k), el("dd", {}, v)))) : "";   // a pair never splits over lines
  const auction = t.auction.length ? el("p", {class: "auction"}, el("strong", {}, "Auction: "), t.auction.join(" · ")) : "";
  root.replaceChildren(lines, felt, lastTrick(t, faces), auction);
}

// The trick before the one on the table (t.last: its pieces in play order and who won it), folded away.
function lastTrick(t, faces) {
  if (!t.last || !t.last.pieces.length) return "";
  faces = {...faces, ...(t.last.faces || {})};
  const name = seat => (t.seats.find(s => s.seat === seat) || {}).name;
  return el("details", {class: "last-trick"}, el("summary", {}, `Last trick: ${t.last.words}`),
    el("div", {class: "trick"}, ...t.last.pieces.map(p => el("figure", {class: "played"},
      tablePiece(p.piece, faces, {className: "small"}), el("figcaption", {}, name(p.seat))))));
}

function seatBox(s, kind, faces, hand) {
  const flags = [s.leads ? "leads" : "", s.to_move ? "to move" : ""].filter(Boolean);
  const pieces = hand || el("div", {class: "seat-pieces"},
    ...(s.pieces ? s.pieces.map(p => tablePiece(p, faces, {className: s.you ? "" : "small"})) :
      s.held ? [tableBack(kind, s.held)] : [el("span", {class: "meta"}, `no ${kind}s`)]));
  return el("div", {class: `seat${s.to_move ? " to-move" : ""}${s.you ? " you" : ""}`, "data-seat": s.seat},
    el("div", {class: "seat-name"}, el("strong", {}, s.name), ...flags.map(f => el("span", {class: "badge"}, f))),
    s.tally ? el("div", {class: "seat-tally"}, s.tally) : "", pieces);
}

function middle(t, faces) {
  const m = t.middle, name = seat => (t.seats.find(s => s.seat === seat) || {}).name;
  const played = m.pieces.map(p => el("figure", {class: "played"}, tablePiece(p.piece, faces),
    el("figcaption", {}, p.seat === null ? "discard pile" : name(p.seat))));
  const pile = m.pile === null || m.pile === undefined ? [] :
    [el("figure", {class: "played"}, tableBack(t.kind, m.pile), el("figcaption", {}, "draw pile"))];
  return el("div", {class: "place middle", "aria-label": "the middle of the table"},
    el("div", {class: "trick"}, ...pile, ...played), m.words ? el("p", {class: "middle-words"}, m.words) : "");
}
