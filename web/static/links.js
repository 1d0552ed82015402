// moonshot serve: links that reopen a page, and that ask before they work.
// - The Explorer, What-if and Play pages: when a run starts or a hand is dealt, the form as the API
//   took it, with the seed and size the server used (its answer's `used`; the Play page's seed), goes
//   into the address bar's query string. A page opened with one fills its form from it and says what
//   pressing Run (or Deal a hand) will do: its size, strategies and rules. Nothing starts by itself: a
//   page of any site may send the browser to such a link, and the app's own script must not be the one
//   that starts a 200,000-deal run for it. The same seed and size give the same numbers once pressed.
// - A played hand: the over section offers "Copy a link to this hand", a Replay page link whose
//   token the server plays again (POST /api/hand-link) into the history shown as an upload, once the
//   person presses Replay (static/replay.js calls linkedHand). Once its review starts, the Replay page's
//   address and "Copy a link to this hand and its review" add the review's seats, worlds and seed,
//   which fill the review form when the hand is shown again; the person presses "Review this hand".
// app.js's runForm, play.js's deal and replay.js's review send "run-started" on their form; play.js's
// finish sends "hand-over". This file is loaded after them (base.html), so its start comes after theirs.
"use strict";

// The form as sent and what the server filled in, as a query: a list as repeated keys, true as 1,
// nothing for false or empty.
function linkQuery(sent, used = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries({...sent, ...used})) {
    for (const x of Array.isArray(v) ? v : [v]) {
      if (x === false || x === null || x === undefined || String(x).trim() === "") continue;
      q.append(k, x === true ? "1" : String(x));
    }
  }
  return q;
}

// The form filled from a link's query: [field, message] for each value the page cannot take (a
// choice it does not offer, a flag it does not have), so that nothing runs with a value the link
// did not mean. A field the query leaves out is empty (a select keeps its default).
function fillForm(form, q) {
  const problems = [];
  const set = (input, value) => {
    const offered = input.tagName === "SELECT" ? Array.from(input.options, o => o.value) : null;
    if (offered && !offered.includes(value)) {
      problems.push([input.name, `the link's ${input.dataset.flag || input.name} ${JSON.stringify(value)} is not ` +
        `offered here; accepted: ${offered.join(", ")}`]);
      return;
    }
    input.value = value;
    input.dispatchEvent(new Event(offered ? "change" : "input", {bubbles: true}));   // the picker, seat lists
  };
  const wanted = {rules: new Map(), change: new Map()};       // the rules flags the link sets, per list
  for (const list of Object.keys(wanted)) {
    for (const item of q.getAll(list)) {
      const at = item.indexOf("=");
      wanted[list].set(at < 0 ? item : item.slice(0, at), at < 0 ? "" : item.slice(at + 1));
    }
  }
  const players = form.elements.namedItem("players");
  if (players && q.has("players")) set(players, q.get("players"));   // first: it refills the seat choices
  for (const input of form.elements) {
    if (!input.name || input.disabled || input === players || ["submit", "button"].includes(input.type)) continue;
    if (input.dataset.flag) {
      const list = wanted[input.name === "change" ? "change" : "rules"], flag = input.dataset.flag;
      set(input, list.has(flag) ? list.get(flag) : input.dataset.default);
      list.delete(flag);
    } else if (input.type === "checkbox") {
      input.checked = ["1", "true", "on"].includes(q.get(input.name));
    } else if (input.name === "strategy" || input.name === "profile") {
      set(input, q.getAll(input.name).join(" "));
    } else if (input.tagName !== "SELECT" || q.has(input.name)) {
      set(input, q.get(input.name) ?? "");
    }
  }
  for (const [list, left] of Object.entries(wanted)) {
    for (const flag of left.keys()) {
      const here = Array.from(form.querySelectorAll(`[data-flag]`), e => e.dataset.flag);
      problems.push([list, `the link's rules flag ${JSON.stringify(flag)} is not one of this page's; accepted: ` +
        (here.join(", ") || "none")]);
    }
  }
  return problems;
}

// What a form will do when pressed, in words: its size, the table, strategies and rules changed. No
// time: nothing here knows one before a run (the strategies decide it, from milliseconds to hours).
function linkSummary(form) {
  const data = formData(form), text = v => String(v ?? "").trim();
  const n = (v, none) => (/^\d+$/.test(text(v)) ? Number(v).toLocaleString("en-US") : none);
  const both = "under the default rules and under yours";
  const parts = [];
  if (form.id === "explore") {
    parts.push(`${n(data.samples, "the default number of")} deals of the hand ${data.hand || "(none given)"}` +
      (data.seat_order ? ` (seat order: ${data.seat_order})` : ""));
    const check = text(data.check_samples);
    if ("check_samples" in data) parts.push(check === "0" ? "no check" : "then a check of the top choices with the " +
      `search player on ${n(check) ? `the first ${n(check)}` : "its default number"} of those deals`);
  } else if (form.id === "whatif") {
    const unit = data.unit === "games" ? "whole games" : "hands";
    parts.push(`${n(data.n, "the default number of")} ${unit}, each ${both}`);
    if ((data.change || []).length) parts.push(`changed: ${data.change.join(", ")}`);
    if (text(data.until)) parts.push(`until every seat's change is narrower than ${text(data.until)}` +
      (text(data.max_time) ? ` or ${text(data.max_time)} s have passed` : "") + " (the count then the most it plays)");
  } else {
    parts.push(`one hand, you at seat ${data.seat}` + (text(data.seed) ? `, seed ${data.seed}` : ", a new deal"));
  }
  const fallback = $("#strategy", form)?.placeholder || "the default";
  parts.push(data.players ? `${data.players} players${data.partners ? " in partnerships" : ""}` : "",
    `strategy: ${(data.strategy || []).join(" ") || `${fallback} (the default)`}`);
  if ((data.profile || []).length) parts.push(`reaction profiles: ${data.profile.join(" ")}`);
  if ((data.rules || []).length) parts.push(`rules: ${data.rules.join(", ")}`);
  if ("seed" in data && form.id !== "deal") parts.push(text(data.seed) ? `seed ${data.seed}` : "the default seed");
  return parts.filter(Boolean).join("; ");
}

// The note a page opened from a link shows above its button: what the link asks for, and that nothing
// has started. Gone once the person starts it.
function askFirst(form, what, press) {
  const note = el("p", {class: "link-note", id: "link-note", role: "status"},
    el("strong", {}, "Opened from a link: "), what, ". ",
    el("strong", {}, `Nothing has started: press ${press} to start it.`));
  const bar = $(".runbar", form);
  if (bar) bar.before(note); else form.append(note);
  note.scrollIntoView({block: "center"});            // on a phone the form above would hide it
  form.addEventListener("run-started", () => note.remove(), {once: true});
  return note;
}

// A hand link's token read here only to say what it holds (the server checks it when Replay is pressed).
function tokenSummary(token) {
  try {
    const data = JSON.parse(atob(token.replace(/-/g, "+").replace(/_/g, "/")));
    const others = data.strategy.join(" ") || "the default strategy";
    return `a ${data.game} hand at ${data.players} players, you at seat ${data.seat}, seed ${data.seed}, ` +
      `${data.answers.length} answers of yours, the others played by ${others}` +
      (data.rules.length ? `; rules: ${data.rules.join(", ")}` : "") + ", to be played again on this server";
  } catch (e) {
    return "a hand this page cannot read (the server says why when you press Replay)";
  }
}

// The hand of a link, played again by the server (POST /api/hand-link) once the person pressed
// Replay: its history as a File for the upload, or null with the server's line beside the field.
async function linkedHand(form, token) {
  const {status, body} = await postJSON("/api/hand-link", {hand: token});
  if (status !== 200) { showErrors(form, "file", body.error); return null; }
  form.dispatchEvent(new CustomEvent("run-started"));
  return new File([body.history], body.file, {type: "application/x-ndjson"});
}

// The over section's "Copy a link to this hand" (with the link itself, to copy by hand where the
// browser does not let the page write the clipboard).
async function offerHandLink(over, sid) {
  let box = $("#hand-link-box", over);
  if (!box) {
    box = el("p", {id: "hand-link-box"});
    const beside = ($("#review-hand", over) || $("#download", over) || over).closest("p");   // with the other ways out
    if (beside && over.contains(beside)) beside.after(box); else over.append(box);
  }
  box.replaceChildren();
  const r = await fetch(`/api/play/${encodeURIComponent(sid)}/link`);
  const body = await readBody(r);
  if (r.status !== 200) { box.replaceChildren(el("span", {class: "error"}, body.error)); return; }
  copyBox(box, new URL(body.url, location.href).href, "hand-link", "Copy a link to this hand",
    "It opens the Replay page, which plays the hand again from its seed and your answers once Replay is pressed " +
    "there.");
}

// A link to copy: its button, what happened, and the link itself (ids `${id}` and `copy-${id}`).
function copyBox(box, url, id, label, note) {
  const field = el("input", {id, readonly: true, value: url, "aria-label": label.replace(/^Copy /, "")});
  const said = el("span", {role: "status"});
  const copy = el("button", {type: "button", id: `copy-${id}`}, label);
  copy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(url);
      said.textContent = "copied";
    } catch (e) {
      field.select();
      said.textContent = "the browser did not let the page copy: the link is selected, copy it from there";
    }
  });
  box.replaceChildren(copy, " ", said, el("br"), field, el("br"), el("small", {class: "meta"}, note));
}

// ------------------------------------------------------------------ the Replay page's review in a link
// A hand link may carry its review's settings: seats (repeated), worlds, seed. The
// Replay page keeps them until Replay is pressed and the hand is shown, then fills the review form
// with them (static/replay.js calls fillReview) and says what pressing "Review this hand" will do.
const REVIEW_KEYS = ["seats", "worlds", "seed"];

function reviewQuery(q) {
  const out = new URLSearchParams();
  for (const key of REVIEW_KEYS) for (const v of q.getAll(key)) out.append(key, v);
  return out;
}

// The review form filled from a link's settings for a hand of `players` seats: [field, message] for
// each value it cannot take (then the form is left as it was: nothing runs with a value the link did not mean).
function fillReview(form, q, players) {
  const problems = [], seats = q.getAll("seats"), worlds = form.elements.namedItem("worlds");
  const bad = seats.find(s => !/^\d+$/.test(s) || +s >= players);
  if (bad !== undefined) problems.push(["seats", `the link's seat ${JSON.stringify(bad)} is not at this table; ` +
    `accepted: seat numbers 0 to ${players - 1}`]);
  const offered = Array.from(worlds.options, o => o.value);
  if (q.has("worlds") && !offered.includes(q.get("worlds"))) problems.push(["worlds", `the link's worlds ` +
    `${JSON.stringify(q.get("worlds"))} is not offered here; accepted: ${offered.filter(Boolean).join(", ")}`]);
  const seed = q.get("seed");
  if (seed !== null && !/^\d{1,19}$/.test(seed)) problems.push(["seed", `the link's seed ${JSON.stringify(seed)} ` +
    "is not accepted; accepted: a whole number from 0 to 2**63-1"]);
  if (problems.length) return problems;
  if (seats.length) $$("#review-seats input", form).forEach(b => { b.checked = seats.includes(b.value); });
  worlds.value = q.get("worlds") ?? "";
  form.elements.namedItem("seed").value = seed ?? "";
  return problems;
}

// What the review form will do when pressed, in words.
function reviewSummary(form) {
  const seats = $$("#review-seats input:checked", form).map(b => b.value);
  const worlds = form.elements.namedItem("worlds"), seed = form.elements.namedItem("seed").value.trim();
  return `a review of seat${seats.length === 1 ? "" : "s"} ${seats.join(", ") || "(none chosen)"}, ` +
    `${worlds.value ? `${worlds.value} worlds` : "the game's default worlds"} a decision, ` +
    (seed ? `seed ${seed}` : "the default seed");
}

// Once a review starts on a hand with a link: the address bar and "Copy a link to this hand and its
// review" carry the hand and the review as it was sent (the seed the server used included).
function offerReviewLink(form, detail) {
  const box = $("#review-link-box");
  const token = form.dataset.hand;
  if (!token) {
    box.replaceChildren(el("small", {class: "meta"}, "No link to this hand: it came from a file (share the file). " +
      "A hand played on the Play page has one."));
    return;
  }
  const q = linkQuery({hand: token, ...detail.sent}, detail.used);
  history.replaceState(history.state, "", `${location.pathname}?${q}`);
  copyBox(box, location.href, "review-link", "Copy a link to this hand and its review",
    "It opens the Replay page with this review's seats, worlds and seed filled in; the hand is played again " +
    "once Replay is pressed there, and the review runs once Review this hand is pressed.");
}

document.addEventListener("DOMContentLoaded", () => {
  const q = new URLSearchParams(location.search);
  const form = $("form#explore, form#whatif, form#deal");    // not the Reports page's forms: a report is no link
  if (form) {
    form.addEventListener("run-started", ev => {
      history.replaceState(history.state, "", `${location.pathname}?${linkQuery(ev.detail.sent, ev.detail.used)}`);
    });
    if (Array.from(q.keys()).length) {
      const problems = fillForm(form, q);
      if (problems.length) showErrors(form, ...problems[0]);
      else askFirst(form, linkSummary(form), `“${$(".go", form).textContent.trim()}”`);
    }
  }
  document.addEventListener("hand-over", ev => offerHandLink(ev.target, ev.detail.sid));
  const upload = $("form#upload");
  if (document.body.dataset.page === "replay" && upload && q.get("hand")) {
    upload.dataset.hand = q.get("hand");            // static/replay.js: Replay with no file chosen plays it
    const review = reviewQuery(q);
    if (Array.from(review.keys()).length) upload.dataset.review = review.toString();   // filled once shown
    askFirst(upload, tokenSummary(q.get("hand")) + (upload.dataset.review ? "; then its review (" +
      [...review].map(([key, v]) => `${key} ${v}`).join(", ") + "), filled in for you to start" : ""), "“Replay”");
  }
  const review = $("form#review");
  if (review) review.addEventListener("run-started", ev => offerReviewLink(review, ev.detail));
});
