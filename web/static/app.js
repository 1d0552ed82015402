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
    const {status: code, body} = await postJSON(form.dataset.api, formData(form));
    if (code !== 202) {
      go.disabled = false;
      status.textContent = "";
      showErrors(form, body.field, body.error);
      return;
    }
    current = body.id;
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
function picker(form) {
  const box = $(".picker", form), input = $("#hand", form);
  if (!box || !input) return;
  const repeats = box.dataset.repeats === "yes", size = +box.dataset.size;
  const words = () => input.value.split(/\s+/).filter(Boolean);
  const mark = () => {
    const held = words().map(w => w.toUpperCase());
    $$(".piece", box).forEach(b => b.setAttribute("aria-pressed", held.includes(b.dataset.piece.toUpperCase()) ? "true" : "false"));
  };
  box.addEventListener("click", ev => {
    const b = ev.target.closest(".piece");
    if (!b) return;
    let held = words();
    const i = held.findIndex(w => w.toUpperCase() === b.dataset.piece.toUpperCase());
    if (i >= 0 && !repeats) held.splice(i, 1);
    else if (held.length < size) held.push(b.dataset.piece);
    else if (i >= 0) held.splice(i, 1);
    input.value = held.join(" ");
    mark();
  });
  input.addEventListener("input", mark);
  $(".clear-hand", form).addEventListener("click", () => { input.value = ""; mark(); input.focus(); });
  mark();
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

document.addEventListener("DOMContentLoaded", () => {
  $$("form.run").forEach(f => { runForm(f); picker(f); seatOrders(f); });
  const start = {play: playPage, replay: replayPage}[document.body.dataset.page];   // base.html's data-page
  if (start) start();
});

// ------------------------------------------------------------------ play a hand
function playPage() {
  const form = $("#deal"), game = form.dataset.game;
  const table = $("#table"), over = $("#over");
  let sid = null, turn = null, slapStart = null;
  const players = $("#players", form), seatSel = $("#seat", form);
  const seats = () => {
    const keep = seatSel.value;
    seatSel.replaceChildren(...Array.from({length: +players.value}, (_, i) => el("option", {selected: String(i) === keep}, i)));
  };
  players.addEventListener("change", seats); seats();

  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    showErrors(form);
    $(".status", form).textContent = "dealing…";
    const {status, body} = await postJSON(`/api/${game}/play`, formData(form));
    $(".status", form).textContent = "";
    if (status !== 200) { showErrors(form, body.field, body.error); return; }
    sid = body.id;
    $(".status", form).textContent = `seed ${body.seed}`;
    over.hidden = true;
    show(body);
  });
  $("#again").addEventListener("click", () => { over.hidden = true; form.requestSubmit(); });

  function show(state) {
    $("#log").textContent = state.log.join("\n");
    $("#log").scrollTop = 1e9;
    $("#hint").replaceChildren();
    if (state.state === "over") return finish(state);
    if (state.state === "failed") { table.hidden = true; showErrors(form, "form", state.error); return; }
    if (state.state !== "your turn") { setTimeout(async () => show(await (await fetch(`/api/play/${sid}`)).json()), 300); return; }
    const p = state.prompt;
    turn = p.turn;
    table.hidden = false; $("#hand-row").hidden = false; $("#prompt-title").hidden = false;
    $("#prompt-title").textContent = p.title;
    $("#facts").replaceChildren(...p.facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    $("#hand").replaceChildren(...p.hand.flatMap((t, i) => [i ? " " : "", el("span", {class: `piece p-${t[0]}`}, t)]));
    $("#hint-button").hidden = !p.has_hint;
    if (p.phase === "slap") {
      $("#choices").replaceChildren(el("button", {type: "button", class: "slap", "data-timed": "1"}, "SLAP!"));
      requestAnimationFrame(() => { slapStart = performance.now(); });
      $(".slap").focus();
    } else {
      slapStart = null;
      $("#choices").replaceChildren(...p.choices.map((c, i) => el("button", {type: "button", "data-i": i, "aria-keyshortcuts": i + 1},
        ...(i < 9 ? [el("small", {}, i + 1), " "] : []), c.label)));
      const first = $("#choices button"); if (first) first.focus();
    }
    $("#choices").onclick = ev => {
      const b = ev.target.closest("button"); if (!b) return;
      if (b.dataset.timed) slap(); else answer(p.choices[+b.dataset.i].value);
    };
  }

  async function answer(choice) {
    $("#choices").replaceChildren(el("em", {}, "…"));
    const {status, body} = await postJSON(`/api/play/${sid}/answer`, {turn, choice});
    if (status !== 200) { $(`.error[data-for="answer"]`).textContent = body.error; return; }
    $(`.error[data-for="answer"]`).textContent = "";
    show(body);
  }
  function slap() {
    if (slapStart === null) return;
    const ms = Math.round((performance.now() - slapStart) * 100) / 100;
    slapStart = null;
    answer(ms);
  }
  async function hint() {
    if ($("#hint-button").hidden || !sid) return;
    $("#hint").textContent = "thinking…";
    const r = await fetch(`/api/play/${sid}/hint`);
    const h = await r.json();
    if (r.status !== 200) { $("#hint").textContent = h.error; return; }
    $("#hint").replaceChildren(el("p", {}, el("strong", {}, h.by), `: ${h.value}`),
      el("table", {class: "hints"}, el("tr", {}, el("th", {}, "choice"), el("th", {}, "value")),
        ...h.rows.map(r => el("tr", {}, el("td", {}, r.move), el("td", {}, Number(r.value).toFixed(2))))));
  }
  $("#hint-button").addEventListener("click", hint);
  document.addEventListener("keydown", ev => {
    if (table.hidden || ev.target.matches("input, select, textarea")) return;
    if (slapStart !== null && (ev.key === "s" || ev.key === "S" || ev.key === " ")) { ev.preventDefault(); slap(); return; }
    if (ev.key === "h" || ev.key === "H") { hint(); return; }
    const n = parseInt(ev.key, 10);
    if (n >= 1 && n <= 9) { const b = $(`#choices button[data-i="${n - 1}"]`); if (b) { ev.preventDefault(); b.click(); } }
  });

  // a game with timed answers (slaps): every one of this tab (over hands) fits the person's reaction profile
  async function profile(slaps) {
    const key = "moonshot-slaps", seen = JSON.parse(sessionStorage.getItem(key) || "[]");
    const done = JSON.parse(sessionStorage.getItem(key + "-hands") || "[]");
    if (!done.includes(sid)) { seen.push(...slaps); done.push(sid); }
    sessionStorage.setItem(key, JSON.stringify(seen)); sessionStorage.setItem(key + "-hands", JSON.stringify(done));
    const {status, body} = await postJSON(`/api/${game}/profile`, {seat: +seatSel.value, ms: seen});
    $("#profile").replaceChildren(...(status === 200 ?
      [el("p", {}, `Your reaction profile from ${body.slaps} slaps: `, el("code", {id: "profile-spec"}, body.spec)),
       el("p", {class: "meta"}, body.note)] : [el("p", {class: "meta"}, body.error)]));
  }

  function finish(state) {
    table.hidden = false;
    $("#choices").replaceChildren(); $("#hint-button").hidden = true;
    $("#prompt-title").hidden = true; $("#hand-row").hidden = true;   // the over section says so; the log stays
    $("#facts").replaceChildren(); $("#hand").replaceChildren();
    over.hidden = false;
    const s = state.summary;
    $("#score").textContent = `You were seat ${s.seat}. ${s.result}`;
    $("#download").href = `/api/play/${sid}/history`;
    if ($("#review-hand")) $("#review-hand").href = `/replay?play=${encodeURIComponent(sid)}`;
    $("#replay").textContent = s.replay;
    $("#profile").replaceChildren();
    if (state.slaps) profile(state.slaps);
    $("#download").focus();
  }
}

// ------------------------------------------------------------------ replay
function replayPage() {
  const form = $("#upload"), rv = $("#review");
  let hands = [], h = 0, k = 0;
  let reviewed = null, running = null;       // the finished review ({hand, rows}), the review running now
  async function upload(data) {
    showErrors(form);
    const r = await fetch("/api/replay", {method: "POST", body: data});
    const body = await readBody(r);
    if (r.status !== 200) { showErrors(form, body.field === "form" ? "file" : body.field, body.error); return false; }
    hands = body.hands; h = 0; k = 0; reviewed = null;
    $("#shown").textContent = body.total > hands.length ? `showing the first ${hands.length} of ${body.total} hands` : "";
    $("#hand-pick").replaceChildren(...hands.map((x, i) => el("option", {value: i}, `${x.game} hand ${x.hand_id}`)));
    $("#hands").hidden = false;
    pick(); $("#next").focus();
    return true;
  }
  form.addEventListener("submit", ev => { ev.preventDefault(); upload(new FormData(form)); });
  // the Play page's "Review this hand": its session's history, read as an upload, then reviewed
  const played = new URLSearchParams(location.search).get("play");
  if (played) (async () => {
    const r = await fetch(`/api/play/${encodeURIComponent(played)}/history`);
    if (r.status !== 200) { showErrors(form, "file", (await readBody(r)).error); return; }
    const data = new FormData();
    data.append("file", new File([await r.text()], "played.jsonl"));
    if (await upload(data) && hands[0].review) rv.requestSubmit();
  })();
  $("#hand-pick").addEventListener("change", e => { h = +e.target.value; k = 0; pick(); });
  $("#prev").addEventListener("click", () => { k = Math.max(0, k - 1); draw(); });
  $("#next").addEventListener("click", () => { k = Math.min(hands[h].steps.length, k + 1); draw(); });
  document.addEventListener("keydown", ev => {
    if ($("#hands").hidden || ev.target.matches("input, select")) return;
    if (ev.key === "ArrowRight") $("#next").click();
    if (ev.key === "ArrowLeft") $("#prev").click();
  });
  // a hand picked: the review's seats (default: the seats a person played, else all)
  function pick() {
    const hand = hands[h], n = hand.players;
    const mine = hand.people.length ? hand.people : Array.from({length: n}, (_, i) => i);
    rv.hidden = !hand.review;
    $("#review-seats").replaceChildren("Seats: ", ...Array.from({length: n}, (_, i) =>
      el("label", {}, el("input", {type: "checkbox", value: i, checked: mine.includes(i)}), ` ${i} `)));
    if (!reviewed || reviewed.hand !== h) $("#review-result").replaceChildren();
    draw();
  }
  rv.addEventListener("submit", async ev => {
    ev.preventDefault();
    showErrors(rv);
    const go = $(".go", rv), cancel = $(".cancel", rv), bar = $("progress", rv), status = $(".status", rv);
    const at = h, seats = $$("#review-seats input:checked").map(b => +b.value);
    go.disabled = true; status.textContent = "starting…";
    reviewed = null; $("#review-result").replaceChildren(); draw();
    const {status: code, body} = await postJSON("/api/review", {record: hands[at].record, seats, worlds: $("#worlds").value});
    if (code !== 202) { go.disabled = false; status.textContent = ""; showErrors(rv, body.field, body.error); return; }
    running = body.id; cancel.hidden = false; bar.hidden = false;
    const job = await follow(body, bar, status);
    running = null; go.disabled = false; cancel.hidden = true;
    if (job.state === "done") {
      const result = await (await fetch(`/api/jobs/${job.id}/result?format=json`)).json();
      reviewed = {hand: at, rows: result.tables.decisions};
      // the summary and findings as every run shows them (the decisions: on their steps above)
      await showResult($("#review-result"), job, `?tables=${Object.keys(result.tables).filter(t => t !== "decisions")}`);
      status.textContent = `done: ${job.total} decision(s) in ${job.elapsed.toFixed(1)} s; step through the hand ` +
        "to see each one";
      if (h === at) draw();
    } else if (job.state === "failed") {
      showErrors(rv, "form", job.error);
    }
  });
  $(".cancel", rv).addEventListener("click", async () => { if (running) await postJSON(`/api/jobs/${running}/cancel`, {}); });
  function draw() {
    const hand = hands[h], steps = hand.steps;
    $("#text").textContent = hand.text;
    $("#where").textContent = `step ${k} of ${steps.length}`;
    $("#steps").replaceChildren(...steps.slice(0, k).map(s => el("li", {}, s.text)));
    $("#steps").scrollTop = 1e9;
    const next = steps[k];
    // the next step's review, once there is one (at the hand's end: decisions not placed on a step)
    const rows = reviewed && reviewed.hand === h ? reviewed.rows.filter(r => r.replay_step === (next ? k : -1)) : [];
    if (rows.length) {
      $("#values").replaceChildren(el("p", {}, next ? "Next: " : "End of the hand. Not placed on a step: ",
        el("strong", {}, next ? next.text : "")), ...decisionTables(rows));
    } else if (next && next.values) {
      $("#values").replaceChildren(el("p", {}, "Next: ", el("strong", {}, next.text), ` (${next.mover_side}). Solver: the ` +
        `bidder's side takes ${next.best_tricks} more trick(s) with best play; after the move played, ${next.played_tricks}.`),
        el("table", {class: "hints"}, el("tr", {}, el("th", {}, "legal move"), el("th", {}, "bidder side's tricks"), el("th")),
          ...next.values.map(v => el("tr", {}, el("td", {}, v.move), el("td", {}, v.tricks), el("td", {}, v.best ? "best" : "")))));
    } else {
      $("#values").replaceChildren(el("p", {}, next ? `Next: ${next.text}` : "End of the hand."));
    }
  }
}

// Reviewed decisions (the review's decisions table, one row per option) as one table each: every
// option's value, its difference from the best with its 95% interval, and the verdict of taking it.
function decisionTables(rows) {
  const num = v => (v === null || v === undefined ? "" : Number(v).toFixed(2));
  const span = (m, lo, hi) => (lo === null || lo === undefined ? num(m) : `${num(m)} [${num(lo)}, ${num(hi)}]`);
  return [...new Set(rows.map(r => r.step))].map(step => {
    const opts = rows.filter(r => r.step === step), taken = opts.find(r => r.chosen) || opts[0];
    const has = key => opts.some(r => r[key] !== null && r[key] !== undefined);
    const cols = [["option", r => r.option], ["value", r => num(r.value)],
      ["vs best [95%]", r => span(r.diff, r.diff_low, r.diff_high)],
      ...(has("open_value") ? [["open hands", r => num(r.open_value)]] : []),
      ...(has("p_win") ? [["P(win)", r => num(r.p_win)]] : []),
      ["chosen", r => (r.chosen ? "chosen" : "")], ["best", r => (r.best ? "best" : "")],
      ["verdict", r => r.verdict], ["loss [95%]", r => span(r.loss, r.loss_low, r.loss_high)],
      ["heuristics' choice", r => r.taken_by || ""]];
    return el("div", {class: "review-step"},
      el("p", {}, `Review: seat ${taken.seat}'s ${taken.kind}, `, el("strong", {class: "verdict"}, taken.verdict),
        ` (valued by ${taken.valued_by})`),
      el("div", {class: "scroll"}, el("table", {class: "hints"}, el("tr", {}, ...cols.map(([name]) => el("th", {}, name))),
        ...opts.map(r => el("tr", {class: r.chosen ? "chosen" : null}, ...cols.map(([, f]) => el("td", {}, f(r))))))));
  });
}
