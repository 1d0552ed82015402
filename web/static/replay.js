// moonshot serve: the Replay page (a history stepped through, with its review).
"use strict";

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
  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    if (!$("#file", form).files.length && form.dataset.hand) {     // a hand link's (links.js), pressed: played again
      showErrors(form);
      const file = await linkedHand(form, form.dataset.hand);
      if (!file) return;
      const data = new FormData();
      data.append("file", file);
      upload(data);
      return;
    }
    upload(new FormData(form));
  });
  // the Play page's "Review this hand": its session's history, read as an upload, then reviewed when
  // the person pressed that button in this tab (play.js notes it in sessionStorage, which no other
  // site can write); opened any other way, the review waits for its own button
  const played = new URLSearchParams(location.search).get("play");
  if (played) (async () => {
    const asked = sessionStorage.getItem("moonshot-review") === played;
    sessionStorage.removeItem("moonshot-review");
    const r = await fetch(`/api/play/${encodeURIComponent(played)}/history`);
    if (r.status !== 200) { showErrors(form, "file", (await readBody(r)).error); return; }
    const data = new FormData();
    data.append("file", new File([await r.text()], "played.jsonl"));
    if (await upload(data) && hands[0].review && asked) rv.requestSubmit();
  })();
  $("#hand-pick").addEventListener("change", e => { h = +e.target.value; k = 0; pick(); });
  $("#prev").addEventListener("click", () => { k = Math.max(0, k - 1); draw(); });
  $("#next").addEventListener("click", () => { k = Math.min(hands[h].steps.length, k + 1); draw(); });
  // a trick (or turn) chosen: the table as it starts, its first move next
  $("#chapter").addEventListener("change", e => { k = +e.target.value; draw(); });
  document.addEventListener("keydown", ev => {
    if ($("#hands").hidden || ev.target.matches("input, select")) return;
    if (ev.key === "ArrowRight") $("#next").click();
    if (ev.key === "ArrowLeft") $("#prev").click();
    if (ev.key === "Home" || ev.key === "End") { ev.preventDefault(); k = ev.key === "Home" ? 0 : hands[h].steps.length; draw(); }
  });
  // a hand picked: the review's seats (default: the seats a person played, else all)
  function pick() {
    const hand = hands[h], n = hand.players;
    const mine = hand.people.length ? hand.people : Array.from({length: n}, (_, i) => i);
    rv.hidden = !hand.review;
    $("#review-seats").replaceChildren("Seats: ", ...Array.from({length: n}, (_, i) =>
      el("label", {}, el("input", {type: "checkbox", value: i, checked: mine.includes(i)}), ` ${i} `)));
    if (!reviewed || reviewed.hand !== h) $("#review-result").replaceChildren();
    // the chapters (the auction, trick 1, ... or turn 1, ...): each starts at its first step
    const starts = new Map();
    hand.steps.forEach((s, i) => { if (s.chapter && !starts.has(s.chapter)) starts.set(s.chapter, i); });
    $("#chapter").replaceChildren(el("option", {value: 0}, "the deal"),
      ...[...starts].map(([name, i]) => el("option", {value: i, "data-chapter": name}, name)),
      el("option", {value: hand.steps.length}, "the end"));
    draw();
    if (!hand.tables) tablesOf(h);
  }
  // a hand's tables come with the upload for its first hand only (a file of many stays small): the others' on demand
  async function tablesOf(at) {
    const {status, body} = await postJSON("/api/replay/tables", {record: hands[at].record});
    if (status !== 200) { $("#replay-felt").replaceChildren(el("p", {class: "error"}, body.error)); return; }
    Object.assign(hands[at], body);
    if (h === at) draw();
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
    const shown = hand.tables && hand.tables[k];      // the table after k steps (the deal's first)
    if (shown) drawTable($("#replay-felt"), shown, hand.faces); else $("#replay-felt").replaceChildren();
    // the select follows the movie: the chapter of the next step (the deal before any, the end after all)
    const at = k >= steps.length ? String(steps.length) : k === 0 ? "0" : null;
    const opt = at !== null ? $(`#chapter option[value="${at}"]`) :
      $$("#chapter option[data-chapter]").find(o => o.dataset.chapter === steps[k].chapter);
    if (opt) opt.selected = true;            // by the option: a chapter may start where the deal is (value 0)
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
    const cols = [["option", r => r.option], ["value [95%]", r => span(r.value, r.value_low, r.value_high)],
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
PAGES.replay = replayPage;
