// moonshot serve: the little JavaScript the pages need (forms to JSON, runs with progress, the hand picker).
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

// An element whose children are elements or text: nothing from the server or a file becomes markup.
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === false || v === null || v === undefined) continue;
    if (k === "class") e.className = v; else e.setAttribute(k, v === true ? "" : String(v));
  }
  e.append(...children.map(c => (c instanceof Node ? c : String(c))));
  return e;
}

// A verdict as a hint or a review's table shows it: a long one as a short word (rows stay one line on a
// phone), its words in a title and in the legend below the table (verdictLegend), which a phone can read.
const VERDICT_SHORT = {"cannot be told": ["can't tell", "cannot be told from the best: the loss's 95% interval " +
  "reaches both under and over the smallest mistake size (an inaccuracy)"],
  forced: ["only one", "the only legal option"]};
function verdictWord(verdict) {
  const short = VERDICT_SHORT[verdict];
  return short ? el("abbr", {title: short[1], class: "verdict-short"}, short[0]) : String(verdict ?? "");
}
function verdictLegend(verdicts) {
  const used = Object.keys(VERDICT_SHORT).filter(v => verdicts.includes(v));
  return used.length ? [el("p", {class: "verdict-legend"}, used.map(v => `${VERDICT_SHORT[v][0]}: ` +
    VERDICT_SHORT[v][1]).join("; "))] : [];
}

// An estimate with its 95% interval in one cell ("1.25 [0.80, 1.70]"; `missing` where there is none), and
// a chance in percent with its interval ("20.1% [15.2%, 25.9%]"), as the hint and the review show them.
const fixed2 = v => (v === null || v === undefined ? "" : Number(v).toFixed(2));
function withInterval(m, lo, hi, missing = "", fmt = fixed2) {
  if (m === null || m === undefined) return missing;
  return lo === null || lo === undefined ? fmt(m) : `${fmt(m)} [${fmt(lo)}, ${fmt(hi)}]`;
}
const percent = v => `${(100 * v).toFixed(1)}%`;
const chance = (m, lo, hi) => withInterval(m, lo, hi, "", percent);

// A response's JSON, or its one plain line (a refusal: 403, 413, 415) as the error.
async function readBody(r) {
  const text = await r.text();
  try { return JSON.parse(text); } catch (e) { return {field: "form", error: text.trim() || `HTTP ${r.status}`}; }
}

async function postJSON(url, data) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(data)});
  return {status: r.status, body: await readBody(r)};
}

function showErrors(form, field, message) {
  $$(".error", form).forEach(e => { e.textContent = ""; });
  $$("[aria-invalid]", form).forEach(e => e.removeAttribute("aria-invalid"));
  if (!message) return;
  const slot = $(`.error[data-for="${field}"]`, form) || $(`.error[data-for="form"]`, form);
  slot.textContent = message;
  const input = form.querySelector(`[name="${field}"]`) || form.querySelector(`#${field}`);
  if (input) { input.setAttribute("aria-invalid", "true"); input.focus(); }
}

// The form as the API takes it: flags and changes only where they differ from the default.
function formData(form) {
  const data = {};
  for (const el of form.elements) {
    if (!el.name || el.disabled) continue;
    if (el.dataset.flag) {
      const list = el.name === "change" ? "change" : "rules";
      data[list] = data[list] || [];
      if (el.value.trim() !== el.dataset.default) data[list].push(`${el.dataset.flag}=${el.value.trim()}`);
    } else if (el.name === "strategy" || el.name === "profile") {
      data[el.name] = el.value.split(/\s+/).filter(Boolean);
    } else if (el.type === "checkbox") {
      data[el.name] = el.checked;
    } else {
      data[el.name] = el.value;
    }
  }
  return data;
}

// ------------------------------------------------------------------ runs with progress
function runForm(form) {
  const go = $(".go", form), cancel = $(".cancel", form), bar = $("progress", form), status = $(".status", form);
  const out = $("#result");
  let current = null;
  cancel.addEventListener("click", async () => {
    if (current) await postJSON(`/api/jobs/${current}/cancel`, {});
  });
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    showErrors(form);
    go.disabled = true;
    status.textContent = "starting…";
    const sent = formData(form);
    const {status: code, body} = await postJSON(form.dataset.api, sent);
    if (code !== 202) {
      go.disabled = false;
      status.textContent = "";
      showErrors(form, body.field, body.error);
      return;
    }
    current = body.id;
    form.dispatchEvent(new CustomEvent("run-started", {detail: {sent, used: body.used}}));   // links.js: the URL
    cancel.hidden = false; bar.hidden = false; bar.value = 0;
    out.replaceChildren();
    poll(body);
  });
  async function poll(job) {
    job = await follow(job, bar, status);
    go.disabled = false; cancel.hidden = true;
    if (job.state === "done") {
      await showResult(out, job);
      status.textContent = `done: ${job.total.toLocaleString()} in ${job.elapsed.toFixed(1)} s`;
      // a run until a width (web/routes/runs.py): how it stopped, where the result starts
      const until = form.elements.namedItem("until");
      if (until && until.value.trim() && job.detail) {
        status.textContent = `done: ${job.done.toLocaleString()} of at most ${job.total.toLocaleString()} in ` +
          `${job.elapsed.toFixed(1)} s`;
        out.prepend(el("p", {class: "until-note", id: "until-stop"}, job.detail));
      }
    } else if (job.state === "failed") {
      showErrors(form, fieldOf(job.error || ""), job.error);
    }
  }
}

// A run's progress on its bar and status line until it ends (every page's runs): the job as it ended.
async function follow(job, bar, status) {
  while (true) {
    bar.max = job.total; bar.value = job.done;
    // A run waits its turn when the server's runs are all taken (web/jobs.py: "waiting, N ahead").
    status.textContent = job.state === "waiting" ? `waiting, ${job.ahead} ahead · ${job.elapsed.toFixed(1)} s` :
      `${job.state}: ${job.done.toLocaleString()} of ${job.total.toLocaleString()} · ${job.elapsed.toFixed(1)} s` +
      (job.detail ? ` · ${job.detail}` : "") +
      (job.state === "running" && job.done === 0 ? " (starting: the count moves as the work goes)" : "");
    if (job.state !== "running" && job.state !== "waiting") return job;
    await new Promise(r => setTimeout(r, 250));
    const r = await fetch(`/api/jobs/${job.id}`);
    job = await r.json();
  }
}

async function showResult(out, job, query = "") {
  const r = await fetch(`/api/jobs/${job.id}/result${query}`);
  out.innerHTML = await r.text();      // the server's own markup: web/render.py escapes every value in it
  out.dataset.job = job.id;
}

function fieldOf(message) {
  const m = message.toLowerCase();
  if (m.includes("seat-order")) return "seat_order";
  if (["hand", "tile", "card"].some(w => m.includes(w))) return "hand";
  return "form";
}

// ------------------------------------------------------------------ the hand picker
// The pieces in play at the chosen table and rules, drawn (static/pieces.js): the server's faces for
// the default table first (data-faces), then /api/<game>/pieces again on every change of the players
// or a rules flag, so a piece the table does not deal is never offered. The text input stays for typing;
// the note says how many are in play and names any typed piece that is not.
function picker(form) {
  const box = $(".picker", form), input = $("#hand", form), note = $(".picker-note", form);
  if (!box || !input) return;
  const repeats = box.dataset.repeats === "yes", size = +box.dataset.size, piece = box.dataset.piece || "piece";
  const words = () => input.value.split(/\s+/).filter(Boolean);
  let offered = $$(".piece", box).map(b => b.dataset.piece), asked = 0;
  let said = "";                           // what the last tap could not do (an 8th piece), until the hand changes
  const mark = () => {
    const held = words().map(w => w.toUpperCase());
    $$(".piece", box).forEach(b => {
      const n = held.filter(w => w === b.dataset.piece.toUpperCase()).length;
      b.setAttribute("aria-pressed", n ? "true" : "false");
      // a second copy of a card picked: "x2" on it, and its name says how many
      let copies = $(".copies", b);
      if (n > 1 && !copies) b.append(copies = el("span", {class: "copies", "aria-hidden": "true"}));
      if (copies) { copies.textContent = `\u00d7${n}`; copies.hidden = n < 2; }
      const svg = $("svg", b), name = svg ? svg.getAttribute("aria-label") : b.dataset.piece;
      if (svg) b.setAttribute("aria-label", n > 1 ? `${name}, ${n} in the hand` : name);
    });
    if (!note) return;
    const known = new Set(offered.map(n => n.toUpperCase()));
    const out = words().filter(w => !known.has(w.toUpperCase()));
    note.textContent = `${held.length} of ${size} ${piece}s picked · ${offered.length} ${piece}s in play at this table ` +
      "and rules" + (out.length ? `; not in play here: ${out.join(" ")}` : "") + (said ? `. ${said}` : "");
  };
  const draw = (names, faces) => {
    offered = names;
    box.replaceChildren(...names.map(n => el("button", {type: "button", class: "piece drawn", "data-piece": n},
      typeof drawPiece === "function" && faces[n] ? drawPiece(faces[n]) : n)));
    mark();
  };
  const refresh = async () => {
    const data = formData(form), q = new URLSearchParams();
    if (data.players) q.append("players", data.players);
    (data.rules || []).forEach(r => q.append("rules", r));
    const mine = ++asked;                  // answers can cross: only the latest question's answer is drawn
    const r = await fetch(`/api/${encodeURIComponent(form.dataset.game)}/pieces?${q}`);
    const body = await readBody(r);
    if (mine !== asked) return;
    if (r.ok && body.pieces.join(" ") === offered.join(" ")) mark();      // the same set: keep the buttons (and focus)
    else if (r.ok) draw(body.pieces, body.faces);
    else if (note) note.textContent = `${piece}s in play: ${body.error}`;
  };
  box.addEventListener("click", ev => {
    const b = ev.target.closest(".piece");
    if (!b) return;
    let held = words();
    const i = held.findIndex(w => w.toUpperCase() === b.dataset.piece.toUpperCase());
    said = "";
    if (i >= 0 && !repeats) held.splice(i, 1);
    else if (held.length < size) held.push(b.dataset.piece);
    else if (i >= 0) held.splice(i, 1);
    else said = `The hand already holds ${size} ${piece}s: tap a picked one to take it out first`;   // an 8th tap, said
    input.value = held.join(" ");
    mark();
  });
  form.addEventListener("change", ev => {
    if (ev.target.id === "players" || (ev.target.dataset.flag && ev.target.name !== "change")) refresh();
  });
  input.addEventListener("input", () => { said = ""; mark(); });
  $(".clear-hand", form).addEventListener("click", () => { input.value = ""; said = ""; mark(); input.focus(); });
  draw(offered, JSON.parse(box.dataset.faces || "{}"));
  refresh();                               // the form may not hold the default table (a link, the browser's memory)
}

function seatOrders(form) {
  const sel = $("#seat_order", form), players = $("#players", form);
  if (!sel || !players || sel.dataset.fixed === "yes") return;
  const all = sel.dataset.orders.split(",");
  const fill = () => {
    const keep = sel.value, n = +players.value;
    const orders = all.slice(0, n - 1).concat(["last"]);
    sel.replaceChildren(...orders.map(o => el("option", {selected: o === keep}, o)));
  };
  players.addEventListener("change", fill);
  fill();
}

// The Partnerships box says what the table will be: checked and fixed at a size the game always plays in
// partnerships (data-always: a page part's ALWAYS_PARTNERS), off and fixed at one it never does (not in data-sizes).
function partnersBox(form) {
  const box = $("#partners", form), players = $("#players", form), note = $("#partners-note", form);
  if (!box || !players) return;
  const always = (box.dataset.always || "").split(",").filter(Boolean);
  const sizes = (box.dataset.sizes || "").split(",").filter(Boolean);
  let chosen = box.checked;                       // the person's own choice, kept while a size fixes the box
  const fit = () => {
    if (!box.disabled) chosen = box.checked;
    const n = players.value, fixed = always.includes(n), never = sizes.length && !sizes.includes(n);
    box.disabled = fixed || !!never;
    box.checked = fixed || (!never && chosen);
    if (note) note.textContent = fixed ? `${n} players always play in partnerships here: the partner sits opposite.` :
      never ? `no partnerships at ${n} players` : "";
  };
  players.addEventListener("change", fit);
  fit();
}
// The page scripts by base.html's data-page (play.js, replay.js): each file adds its own.
const PAGES = {};

document.addEventListener("DOMContentLoaded", () => {
  $$("form.run").forEach(f => { runForm(f); picker(f); seatOrders(f); });
  $$("form").forEach(partnersBox);
  const start = PAGES[document.body.dataset.page];   // base.html's data-page; play.js and replay.js add theirs
  if (start) start();
});
