// moonshot serve: the Replay page (a history stepped through, with its review).
"use strict";

// ------------------------------------------------------------------ replay
function replayPage() {
  const form = $("#upload"), rv = $("#review");
  let hands = [], h = 0, k = 0;
  // the finished review ({hand, rows: its decisions, errors: biggest loss first, values, unit}), the review running now
  let reviewed = null, running = null;
  async function upload(data, link = "") {     // link: the hand link's token, where the hand has one
    showErrors(form);
    const r = await fetch("/api/replay", {method: "POST", body: data});
    const body = await readBody(r);
    if (r.status !== 200) { showErrors(form, body.field === "form" ? "file" : body.field, body.error); return false; }
    hands = body.hands; h = 0; k = 0; reviewed = null;
    if (link && hands.length === 1) hands[0].link = link;
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
      upload(data, form.dataset.hand);
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
    const link = await fetch(`/api/play/${encodeURIComponent(played)}/link`);      // its link, for its review's
    if (await upload(data, link.status === 200 ? (await link.json()).token : "") && hands[0].review && asked) {
      rv.requestSubmit();
    }
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
    if ((ev.key === "m" || ev.key === "M") && !ev.ctrlKey && !ev.metaKey && !ev.altKey) $("#next-mistake").click();
    if (ev.key === "Home" || ev.key === "End") { ev.preventDefault(); k = ev.key === "Home" ? 0 : hands[h].steps.length; draw(); }
  });
  // a hand picked: the review's seats (default: the seats a person played, else all)
  function pick() {
    const hand = hands[h], n = hand.players;
    const mine = hand.people.length ? hand.people : Array.from({length: n}, (_, i) => i);
    rv.hidden = !hand.review;
    $("#review-seats").replaceChildren("Seats: ", ...Array.from({length: n}, (_, i) =>
      el("label", {}, el("input", {type: "checkbox", value: i, checked: mine.includes(i)}), ` ${i} `)));
    if (!reviewed || reviewed.hand !== h) { $("#review-result").replaceChildren(); showMarks(); }
    rv.dataset.hand = hand.link || "";          // links.js: the link to this hand and its review
    if (hand.link && form.dataset.review) {      // a link's review settings: the form filled, nothing started
      const problems = fillReview(rv, new URLSearchParams(form.dataset.review), n);
      delete form.dataset.review;
      if (problems.length) showErrors(rv, ...problems[0]);
      else askFirst(rv, reviewSummary(rv), "“Review this hand”");
    }
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
    const at = h, sent = {seats: $$("#review-seats input:checked").map(b => +b.value), worlds: $("#worlds").value,
      seed: $("#review-seed").value.trim()};
    go.disabled = true; status.textContent = "starting…";
    reviewed = null; $("#review-result").replaceChildren(); showMarks(); draw();
    const {status: code, body} = await postJSON("/api/review", {record: hands[at].record, ...sent});
    if (code !== 202) { go.disabled = false; status.textContent = ""; showErrors(rv, body.field, body.error); return; }
    rv.dispatchEvent(new CustomEvent("run-started", {detail: {sent, used: body.used}}));   // links.js: the link
    running = body.id; cancel.hidden = false; bar.hidden = false;
    const job = await follow(body, bar, status);
    running = null; go.disabled = false; cancel.hidden = true;
    if (job.state === "done") {
      const result = await (await fetch(`/api/jobs/${job.id}/result?format=json`)).json();
      const t = result.tables;
      reviewed = {hand: at, rows: t.decisions, errors: t.errors || [], values: t.values || [], seats: sent.seats,
        unit: result.meta.valued_by};
      // the summary and findings as every run shows them (the decisions on their steps, the errors and values below)
      const mine = ["decisions", "errors", "values"];
      await showResult($("#review-result"), job, `?tables=${Object.keys(t).filter(x => !mine.includes(x))}`);
      status.textContent = `done: ${job.total} decision(s) in ${job.elapsed.toFixed(1)} s; step through the hand ` +
        "to see each one";
      if (h === at) { showMarks(); draw(); }
    } else if (job.state === "failed") {
      showErrors(rv, "form", job.error);
    }
  });
  $(".cancel", rv).addEventListener("click", async () => { if (running) await postJSON(`/api/jobs/${running}/cancel`, {}); });

  // ------------------------------------------------ the review's mistakes list, "next mistake" and the value graph
  let graph = null;                      // the drawn graph: at(k) moves its marker of the step shown
  const placedErrors = () => reviewed.errors.filter(e => e.replay_step >= 0)
    .sort((a, b) => a.replay_step - b.replay_step);
  function jump(step) {                  // the table as it was when the seat chose, the review of its options next
    k = Math.max(0, Math.min(hands[h].steps.length, step));
    draw();
    $("#hands .replay-nav").scrollIntoView({block: "nearest"});
  }
  $("#next-mistake").addEventListener("click", () => {
    const mine = placedErrors();
    if (!mine.length) return;
    jump((mine.find(e => e.replay_step > k) || mine[0]).replay_step);     // after the last: the first again
  });
  // the errors biggest loss first (each a jump to its step) and the graph, for the hand shown; none otherwise
  function showMarks() {
    const box = $("#review-marks");
    graph = null;
    if (!reviewed || reviewed.hand !== h) { box.hidden = true; box.replaceChildren(); return; }
    const many = reviewed.seats.length !== 1, by = reviewed.unit;
    const who = e => (many ? `seat ${e.seat}, ` : "");
    const lines = reviewed.errors.map(e => {
      const words = [`${who(e)}${e.where} — chose ${e.chosen}, best ${e.best}, loss ${e.loss_text}, `,
        el("strong", {class: `verdict v-${e.verdict}`}, e.verdict)];
      return el("li", {}, e.replay_step >= 0 ?
        el("button", {type: "button", class: "mistake", "data-step": e.replay_step,
          title: `go to step ${e.replay_step}: the table as the seat chose`}, ...words) :
        el("span", {}, ...words, " (not placed on a step)"));
    });
    const seatsWord = many ? "the seats reviewed" : `seat ${reviewed.seats[0] ?? ""}`;
    box.replaceChildren(el("h2", {}, "Mistakes, biggest loss first ",
      el("small", {class: "meta"}, `(every inaccuracy, mistake and blunder; the loss in ${by} with its 95% interval)`)),
      lines.length ? el("ol", {id: "mistakes"}, ...lines) :
        el("p", {id: "no-mistakes"}, `No mistakes: no choice of ${seatsWord} has a loss that clears the inaccuracy ` +
          "size."));
    $$("#mistakes button", box).forEach(b => b.addEventListener("click", () => jump(+b.dataset.step)));
    if (reviewed.values.length) {
      const fig = el("figure", {class: "chart value-graph", id: "value-graph"});
      box.append(fig);
      graph = valueGraph(fig, reviewed.values, reviewed.errors, hands[h].steps.length, reviewed.rows, jump);
      graph.at(k);
    }
    box.hidden = false;
  }
  function draw() {
    const hand = hands[h], steps = hand.steps;
    $("#text").textContent = hand.text;
    const mine = reviewed && reviewed.hand === h ? placedErrors() : [];
    const here = mine.findIndex(e => e.replay_step === k);
    $("#where").textContent = `step ${k} of ${steps.length}` +
      (here >= 0 ? ` · mistake ${here + 1} of ${mine.length}` : "");
    $$("#mistakes button").forEach(b => b.toggleAttribute("aria-current", +b.dataset.step === k));
    $("#next-mistake").hidden = !mine.length;
    if (graph) graph.at(k);
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
    // the hand's end: its result in a sentence (the score), as the Play page ends a hand
    if (!next && hand.result) $("#values").prepend(el("p", {class: "hand-result"}, el("strong", {}, "Result: "),
      hand.result));
  }
}

// Reviewed decisions (the review's decisions table, one row per option) as one table each, phone first: the
// option (marked best and chosen), the verdict of taking it and its difference from the best with its 95%
// interval lead; its value, loss and the rest follow (at 390 px the first three fit; the box scrolls for more).
function decisionTables(rows) {
  const span = (m, lo, hi) => withInterval(m, lo, hi);
  return [...new Set(rows.map(r => r.step))].map(step => {
    const opts = rows.filter(r => r.step === step), taken = opts.find(r => r.chosen) || opts[0];
    const has = key => opts.some(r => r[key] !== null && r[key] !== undefined);
    // the option's "★" and "chosen" are drawn by app.css: the cell's text is the option alone
    const cols = [["option", r => r.option, "opt"], ["verdict", r => [verdictWord(r.verdict)]],
      ["vs best [95%]", r => span(r.diff, r.diff_low, r.diff_high)],
      ["value [95%]", r => span(r.value, r.value_low, r.value_high)],
      ["loss [95%]", r => span(r.loss, r.loss_low, r.loss_high)],
      ...(has("p_win") ? [["P(win) [95%]", r => chance(r.p_win, r.p_win_low, r.p_win_high)]] : []),
      ...(has("open_value") ? [["open hands", r => fixed2(r.open_value)]] : []),
      ["heuristics' choice", r => r.taken_by || ""]];
    return el("div", {class: "review-step"},
      el("p", {}, `Review: seat ${taken.seat}'s ${taken.kind}${taken.where ? ` (${taken.where})` : ""}, `,
        el("strong", {class: "verdict"}, taken.verdict),
        ` (valued by ${taken.valued_by})`),
      el("div", {class: "scroll", tabindex: 0}, el("table", {class: "hints"},
        el("tr", {}, ...cols.map(([name]) => el("th", {}, name))),
        ...opts.map(r => el("tr", {class: [r.chosen ? "chosen" : "", r.best ? "best" : ""].join(" ").trim() || null},
          ...cols.map(([, f, cls]) => el("td", {class: cls || null}, ...[f(r)].flat())))))),
      ...verdictLegend(opts.map(r => r.verdict)));
  });
}
// The graph of a seat's value after each step (the review's `values`: the deal's expected result,
// each decision's chosen option's, the actual result), drawn as inline SVG in CSS pixels at the box's
// width (so its labels keep their size on a phone), redrawn when the box changes width. x: the moves
// played (a decision's point sits after its move); y: the value with its 95% band; errors ringed in
// their verdict's colour. A point is a button: a click (or Enter) goes to the step its decision was
// taken at. Beside it, the same numbers as a table (the text alternative). Returns {at(k)}: the marker
// of the step shown.
function valueGraph(fig, values, errors, count, rows, jump) {
  const unit = values[0].unit || "", lower = values[0].better === "lower";
  const seats = [...new Set(values.map(v => v.seat))];
  const wrong = new Map(errors.map(e => [`${e.seat}/${e.step}`, e]));
  const xOf = v => (v.where === "dealt" ? 0 : v.where === "result" ? count : v.replay_step);
  const chosen = v => (rows.find(r => r.seat === v.seat && r.step === v.step && r.chosen) || {}).option;
  const say = v => `${v.where === "dealt" ? "the deal (expected)" : v.where === "result" ? "the result" :
    `${v.where}${chosen(v) ? `, chose ${chosen(v)}` : ""}`}: ${v.value_text} ${unit}`;
  const caption = el("figcaption", {},
    `${seats.length > 1 ? "Each reviewed seat's" : `Seat ${seats[0]}'s`} expected result in ${unit}` +
    `${lower ? " (lower is better)" : ""} with its 95% band: before the deal, then after each of its choices ` +
    "(the chosen option's value, at the step it was taken), and the actual result at the end; errors ringed. " +
    "A point (click, or Tab and Enter) goes to its step; the dashed line is the step shown.");
  const boxes = seats.map(() => el("div", {class: "graph-box"}));
  const table = el("details", {class: "graph-table"}, el("summary", {}, "The graph's numbers as a table"),
    el("div", {class: "scroll"}, el("table", {class: "hints"},
      el("tr", {}, ...["seat", "step", "where", "value [95%]", "verdict"].map(c => el("th", {}, c))),
      ...values.map(v => el("tr", {}, el("td", {}, v.seat), el("td", {}, xOf(v)), el("td", {}, say(v).split(": ")[0]),
        el("td", {class: "est"}, `${v.value_text} ${unit}`),
        el("td", {}, (wrong.get(`${v.seat}/${v.step}`) || {}).verdict || ""))))));
  fig.replaceChildren(caption, ...boxes, table);
  let shown = 0;
  const draws = seats.map((seat, i) => () => {
    const mine = values.filter(v => v.seat === seat).sort((a, b) => xOf(a) - xOf(b));
    const W = Math.max(260, boxes[i].clientWidth), H = 200, m = {l: 44, r: 12, t: 10, b: 34};
    const lo = Math.min(...mine.map(v => v.value_low ?? v.value));
    const hi = Math.max(...mine.map(v => v.value_high ?? v.value));
    const [y0, y1, ticks] = niceRange(lo, hi);
    const X = x => m.l + (W - m.l - m.r) * x / Math.max(1, count);
    const Y = y => m.t + (H - m.t - m.b) * (y1 - y) / (y1 - y0);
    const svg = svgEl("svg", {width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: "graph", role: "group",
      "aria-label": `seat ${seat}'s value after each step, ${unit}`});
    for (const t of ticks) {
      svg.append(svgEl("line", {x1: m.l, x2: W - m.r, y1: Y(t), y2: Y(t), class: t === 0 ? "zero" : "grid"}),
        svgEl("text", {x: m.l - 4, y: Y(t) + 4, "text-anchor": "end", class: "tick"}, fmt(t)));
    }
    for (const t of intTicks(count, Math.max(2, Math.floor((W - m.l - m.r) / 60)))) {
      svg.append(svgEl("text", {x: X(t), y: H - m.b + 14, "text-anchor": "middle", class: "tick"}, t));
    }
    svg.append(svgEl("text", {x: (m.l + W - m.r) / 2, y: H - 4, "text-anchor": "middle", class: "tick"},
      "step (0: the deal)"));
    const pts = v => `${X(xOf(v))},${Y(v.value)}`;
    svg.append(svgEl("polygon", {class: "band", points: [...mine.map(v => `${X(xOf(v))},${Y(v.value_high ?? v.value)}`),
      ...mine.slice().reverse().map(v => `${X(xOf(v))},${Y(v.value_low ?? v.value)}`)].join(" ")}),
      svgEl("polyline", {class: "line", points: mine.map(pts).join(" ")}));
    const cursor = svgEl("line", {class: "cursor", y1: m.t, y2: H - m.b});
    svg.append(cursor);
    for (const v of mine) {
      const e = wrong.get(`${v.seat}/${v.step}`), go = xOf(v);
      const label = `${say(v)}${e ? `, ${e.verdict} (loss ${e.loss_text})` : ""}`;
      const dot = svgEl("g", {class: `point${e ? ` error v-${e.verdict}` : ""}`, tabindex: 0, role: "button",
        "aria-label": label, "data-step": go});
      dot.append(svgEl("title", {}, label), svgEl("circle", {class: "hit", cx: X(xOf(v)), cy: Y(v.value), r: 12}),
        svgEl("circle", {class: "dot", cx: X(xOf(v)), cy: Y(v.value), r: e ? 6.5 : 4.5}));
      dot.addEventListener("click", () => jump(go));
      dot.addEventListener("keydown", ev => {
        if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); jump(go); }
      });
      svg.append(dot);
    }
    boxes[i].replaceChildren(svg);
    return k => { cursor.setAttribute("x1", X(k)); cursor.setAttribute("x2", X(k)); };
  });
  let cursors = draws.map(d => d());
  const at = k => { shown = k; cursors.forEach(c => c(k)); };
  let width = fig.clientWidth;
  new ResizeObserver(() => {
    if (!fig.isConnected || fig.clientWidth === width) return;
    width = fig.clientWidth;
    cursors = draws.map(d => d());
    at(shown);
  }).observe(fig);
  return {at};
}

// A y range a little wider than [lo, hi] on round numbers, and its 3-6 ticks.
function niceRange(lo, hi) {
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const raw = (hi - lo) / 4, mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map(f => f * mag).find(s => s >= raw);
  const y0 = Math.floor(lo / step) * step, y1 = Math.ceil(hi / step) * step;
  const ticks = [];
  for (let t = y0; t <= y1 + step / 2; t += step) ticks.push(Math.round(t / step) * step);
  return [y0, y1, ticks];
}

// Whole-number ticks from 0 to n (steps of 1, 2 or 5 times a power of ten), about `most` of them, and n.
function intTicks(n, most) {
  const raw = Math.max(1, n / most), mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map(f => f * mag).find(s => s >= raw);
  const out = [];
  for (let t = 0; t <= n - step / 2; t += step) out.push(t);
  return [...out, n];
}

const fmt = t => String(Math.round(t * 1000) / 1000);

PAGES.replay = replayPage;
