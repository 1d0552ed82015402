// moonshot serve: the little JavaScript the pages need (forms to JSON, runs with progress, the hand picker).
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => Array.from(root.querySelectorAll(sel));

async function postJSON(url, data) {
  const r = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(data)});
  let body = null;
  try { body = await r.json(); } catch (e) { body = {error: `HTTP ${r.status}`}; }
  return {status: r.status, body};
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
    out.innerHTML = "";
    poll(body);
  });
  async function poll(job) {
    while (true) {
      bar.max = job.total; bar.value = job.done;
      status.textContent = `${job.state}: ${job.done.toLocaleString()} of ${job.total.toLocaleString()} · ${job.elapsed.toFixed(1)} s`;
      if (job.state !== "running") break;
      await new Promise(r => setTimeout(r, 250));
      const r = await fetch(`/api/jobs/${job.id}`);
      job = await r.json();
    }
    go.disabled = false; cancel.hidden = true;
    if (job.state === "done") {
      const r = await fetch(`/api/jobs/${job.id}/result`);
      out.innerHTML = await r.text();
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
    sel.innerHTML = orders.map(o => `<option${o === keep ? " selected" : ""}>${o}</option>`).join("");
  };
  players.addEventListener("change", fill);
  fill();
}

document.addEventListener("DOMContentLoaded", () => {
  $$("form.run").forEach(f => { runForm(f); picker(f); seatOrders(f); });
  if (window.moonshotPage) window.moonshotPage();
});
