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
    while (true) {
      bar.max = job.total; bar.value = job.done;
      // A run waits its turn when the server's runs are all taken (web/jobs.py: "waiting, N ahead").
      status.textContent = job.state === "waiting" ? `waiting, ${job.ahead} ahead · ${job.elapsed.toFixed(1)} s` :
        `${job.state}: ${job.done.toLocaleString()} of ${job.total.toLocaleString()} · ${job.elapsed.toFixed(1)} s` +
        (job.detail ? ` · ${job.detail}` : "") +
        (job.state === "running" && job.done === 0 ? " (starting: the count moves as the work goes)" : "");
      if (job.state !== "running" && job.state !== "waiting") break;
      await new Promise(r => setTimeout(r, 250));
      const r = await fetch(`/api/jobs/${job.id}`);
      job = await r.json();
    }
    go.disabled = false; cancel.hidden = true;
    if (job.state === "done") {
      const r = await fetch(`/api/jobs/${job.id}/result`);
      out.innerHTML = await r.text();      // the server's own markup: web/render.py escapes every value in it
      out.dataset.job = job.id;
      status.textContent = `done: ${job.total.toLocaleString()} in ${job.elapsed.toFixed(1)} s`;
    } else if (job.state === "failed") {
      showErrors(form, fieldOf(job.error || ""), job.error);
    }
  }
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
    $("#replay").textContent = s.replay;
    $("#profile").replaceChildren();
    if (state.slaps) profile(state.slaps);
    $("#download").focus();
  }
}

// ------------------------------------------------------------------ replay
function replayPage() {
  const form = $("#upload");
  let hands = [], h = 0, k = 0;
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    showErrors(form);
    const r = await fetch("/api/replay", {method: "POST", body: new FormData(form)});
    const body = await readBody(r);
    if (r.status !== 200) { showErrors(form, body.field === "form" ? "file" : body.field, body.error); return; }
    hands = body.hands; h = 0; k = 0;
    $("#shown").textContent = body.total > hands.length ? `showing the first ${hands.length} of ${body.total} hands` : "";
    $("#hand-pick").replaceChildren(...hands.map((x, i) => el("option", {value: i}, `${x.game} hand ${x.hand_id}`)));
    $("#hands").hidden = false;
    draw(); $("#next").focus();
  });
  $("#hand-pick").addEventListener("change", e => { h = +e.target.value; k = 0; draw(); });
  $("#prev").addEventListener("click", () => { k = Math.max(0, k - 1); draw(); });
  $("#next").addEventListener("click", () => { k = Math.min(hands[h].steps.length, k + 1); draw(); });
  document.addEventListener("keydown", ev => {
    if ($("#hands").hidden || ev.target.matches("input, select")) return;
    if (ev.key === "ArrowRight") $("#next").click();
    if (ev.key === "ArrowLeft") $("#prev").click();
  });
  function draw() {
    const hand = hands[h], steps = hand.steps;
    $("#text").textContent = hand.text;
    $("#where").textContent = `step ${k} of ${steps.length}`;
    $("#steps").replaceChildren(...steps.slice(0, k).map(s => el("li", {}, s.text)));
    $("#steps").scrollTop = 1e9;
    const next = steps[k];
    if (next && next.values) {
      $("#values").replaceChildren(el("p", {}, "Next: ", el("strong", {}, next.text), ` (${next.mover_side}). Solver: the ` +
        `bidder's side takes ${next.best_tricks} more trick(s) with best play; after the move played, ${next.played_tricks}.`),
        el("table", {class: "hints"}, el("tr", {}, el("th", {}, "legal move"), el("th", {}, "bidder side's tricks"), el("th")),
          ...next.values.map(v => el("tr", {}, el("td", {}, v.move), el("td", {}, v.tricks), el("td", {}, v.best ? "best" : "")))));
    } else {
      $("#values").replaceChildren(el("p", {}, next ? `Next: ${next.text}` : "End of the hand."));
    }
  }
}
