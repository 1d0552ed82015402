// moonshot serve: the Play page (a hand against the built-in strategies, with hints).
"use strict";

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
    const sent = formData(form);
    const {status, body} = await postJSON(`/api/${game}/play`, sent);
    $(".status", form).textContent = "";
    if (status !== 200) { showErrors(form, body.field, body.error); return; }
    sid = body.id;
    $(".status", form).textContent = `seed ${body.seed}`;
    form.dispatchEvent(new CustomEvent("run-started", {detail: {sent, used: {seed: body.seed}}}));   // links.js: the URL
    over.hidden = true;
    show(body);
    // the table to the top of the screen: on a phone the form above fills it
    if (!table.hidden) table.scrollIntoView({block: "start"});
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
    table.hidden = false; $("#felt").hidden = false; $("#prompt-title").hidden = false;
    $("#prompt-title").textContent = p.title;
    $("#facts").replaceChildren(...p.facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    $("#hint-button").hidden = !p.has_hint;
    const key = i => (i < 9 ? {"aria-keyshortcuts": i + 1} : {});
    const mark = i => (i < 9 ? [el("small", {class: "key"}, i + 1)] : []);
    // the choices that are pieces of the hand (the first unmatched piece of that name) are those pieces
    const onPiece = new Map();
    if (p.phase !== "slap") p.choices.forEach((c, i) => {
      const at = p.hand.findIndex((t, j) => t === c.label && !onPiece.has(j));
      if (at >= 0) onPiece.set(at, i);
    });
    const hand = () => el("div", {class: "seat-pieces hand", id: "hand"}, ...p.hand.map((t, j) => {
      if (!onPiece.has(j)) return el("span", {class: onPiece.size ? "held" : "free"}, tablePiece(t, p.faces));   // dimmed: not playable now
      const i = onPiece.get(j);
      return el("button", {type: "button", class: "piece-choice", "data-i": i, "data-label": p.choices[i].label, ...key(i)},
        tablePiece(t, p.faces), ...mark(i));
    }));
    if (p.table) drawTable($("#felt"), p.table, p.faces, {hand});
    else $("#felt").replaceChildren(hand());
    const taken = new Set(onPiece.values());
    if (p.phase === "slap") {
      $("#choices").replaceChildren(el("button", {type: "button", class: "slap", "data-timed": "1", "data-label": "SLAP"}, "SLAP!"));
      requestAnimationFrame(() => { slapStart = performance.now(); });
      $(".slap").focus();
    } else {
      slapStart = null;
      $("#choices").replaceChildren(...p.choices.flatMap((c, i) => (taken.has(i) ? [] :
        [el("button", {type: "button", "data-i": i, "data-label": c.label, ...key(i)}, ...mark(i), " ", c.label)])));
      const first = $("#table button[data-i]"); if (first) first.focus();
    }
    table.onclick = ev => {
      const b = ev.target.closest("button[data-i], button[data-timed]"); if (!b) return;
      if (b.dataset.timed) slap(); else answer(p.choices[+b.dataset.i].value);
    };
  }

  async function answer(choice) {
    $("#choices").replaceChildren(el("em", {}, "…"));
    $$("#felt button[data-i]").forEach(b => { b.disabled = true; });     // one answer per prompt
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
    // each option's value with its 95% interval in one unbroken cell, the best marked, the verdict in words
    const num = v => (v === null || v === undefined ? "" : Number(v).toFixed(2));
    const est = (m, lo, hi) => (m === null || m === undefined ? "–" : lo === null || lo === undefined ? num(m)
      : `${num(m)} [${num(lo)}, ${num(hi)}]`);
    const says = {"cannot be told": "cannot be told from the best", forced: "the only legal option"};
    const win = h.rows.some(r => r.p_win !== undefined && r.p_win !== null);
    const head = ["choice", `${h.unit} [95%]`, "vs best [95%]", ...(win ? ["P(win the game)"] : []), "verdict"];
    $("#hint").replaceChildren(el("p", {}, "Hint by ", el("strong", {}, h.by), ` in ${h.unit}`),
      el("div", {class: "scroll", tabindex: 0}, el("table", {class: "hints"},
        el("tr", {}, ...head.map(t => el("th", {}, t))),
        ...h.rows.map(r => el("tr", {class: r.best ? "best" : null},
          el("td", {}, r.best ? el("strong", {title: "the best option found"}, `★ ${r.move}`) : r.move),
          el("td", {class: "est"}, est(r.value, r.low, r.high)),
          el("td", {class: "est"}, r.best ? "" : est(r.diff, r.diff_low, r.diff_high)),
          ...(win ? [el("td", {class: "est"}, r.p_win === null || r.p_win === undefined ? "" : `${(100 * r.p_win).toFixed(1)}%`)] : []),
          el("td", {}, says[r.verdict] || r.verdict))))),
      el("p", {class: "meta"}, h.note));
  }
  $("#hint-button").addEventListener("click", hint);
  document.addEventListener("keydown", ev => {
    if (table.hidden || ev.target.matches("input, select, textarea")) return;
    if (slapStart !== null && (ev.key === "s" || ev.key === "S" || ev.key === " ")) { ev.preventDefault(); slap(); return; }
    if (ev.key === "h" || ev.key === "H") { hint(); return; }
    const n = parseInt(ev.key, 10);
    if (n >= 1 && n <= 9) { const b = $(`#table button[data-i="${n - 1}"]`); if (b) { ev.preventDefault(); b.click(); } }
  });

  // a game with timed answers (slaps): every one of this tab (over hands) fits the person's reaction profile
  async function profile(slaps) {
    const key = "moonshot-slaps", seen = JSON.parse(sessionStorage.getItem(key) || "[]");
    const done = JSON.parse(sessionStorage.getItem(key + "-hands") || "[]");
    if (!done.includes(sid)) { seen.push(...slaps); done.push(sid); }
    sessionStorage.setItem(key, JSON.stringify(seen)); sessionStorage.setItem(key + "-hands", JSON.stringify(done));
    const {status, body} = await postJSON(`/api/${game}/profile`, {seat: +seatSel.value, ms: seen});
    $("#fitted-profile").replaceChildren(...(status === 200 ?
      [el("p", {}, `Your reaction profile from ${body.slaps} slaps: `, el("code", {id: "profile-spec"}, body.spec)),
       el("p", {class: "meta"}, body.note)] : [el("p", {class: "meta"}, body.error)]));
  }

  function finish(state) {
    table.hidden = false;
    $("#choices").replaceChildren(); $("#hint-button").hidden = true;
    $("#prompt-title").hidden = true; $("#felt").hidden = true;   // the over section says so; the log stays
    $("#facts").replaceChildren(); $("#felt").replaceChildren();
    over.hidden = false;
    const s = state.summary;
    $("#score").textContent = `You were seat ${s.seat}. ${s.result}`;
    $("#download").href = `/api/play/${sid}/history`;
    if ($("#review-hand")) {
      $("#review-hand").href = `/replay?play=${encodeURIComponent(sid)}`;
      $("#review-hand").onclick = () => sessionStorage.setItem("moonshot-review", sid);   // replay.js: reviewed at once
    }
    $("#replay").textContent = s.replay;
    $("#fitted-profile").replaceChildren();
    if (state.slaps) profile(state.slaps);
    $("#download").focus();
    over.dispatchEvent(new CustomEvent("hand-over", {bubbles: true, detail: {sid}}));   // links.js: the hand's link
  }
}
PAGES.play = playPage;
