// moonshot serve: the Play page (a hand against the built-in strategies, with hints).
"use strict";

// ------------------------------------------------------------------ keys
// Each choice has one key, shown on it or beside it and equal to what its label names: a choice's own
// key from the server (a bid's number, "21" typed as 2 then 1, P for pass, 0 for blanks, D for doubles),
// else the pieces of the hand numbered 1..9 left to right. H (hint) and S/space (slap) are the page's.
const PAGE_KEYS = new Set(["h", "s", " "]);

function choiceKeys(p, onPiece) {
  const keys = new Map();                          // choice index -> key
  let n = 0;
  p.hand.forEach((_, j) => { if (onPiece.has(j) && n < 9) keys.set(onPiece.get(j), String(++n)); });
  p.choices.forEach((c, i) => {
    if (keys.has(i)) return;
    if (c.key) keys.set(i, String(c.key).toLowerCase());
    else if (n < 9) keys.set(i, String(++n));
  });
  return keys;
}

// aria-keyshortcuts names one key (its spaces separate alternatives): a key typed as two ("21") has none.
const shortcut = k => (k && k.length === 1 ? k.toUpperCase() : null);

// Keys typed in a row (within a second) make one key: "2" then "1" is 21. A key picks its choice once no
// longer key starts with it; a sequence that matches nothing starts again from its last key.
function keyReader(pick) {
  let typed = "", timer = null, keys = new Map();
  const byKey = () => new Map([...keys].map(([i, k]) => [k, i]));
  const read = key => {
    clearTimeout(timer);
    const all = byKey();
    typed += key;
    if (![...all.keys()].some(k => k.startsWith(typed))) typed = key;
    if (![...all.keys()].some(k => k.startsWith(typed))) { typed = ""; return false; }
    const longer = [...all.keys()].some(k => k !== typed && k.startsWith(typed));
    if (all.has(typed) && !longer) { const i = all.get(typed); typed = ""; pick(i); return true; }
    // a key that is also the start of a longer one waits a moment for the next key
    timer = setTimeout(() => { const i = all.get(typed); typed = ""; if (i !== undefined) pick(i); }, 900);
    return true;
  };
  return {read, set: k => { keys = k; typed = ""; clearTimeout(timer); }};
}

// ------------------------------------------------------------------ play a hand
function playPage() {
  const form = $("#deal"), game = form.dataset.game;
  const table = $("#table"), over = $("#over"), latest = $("#latest"), auto = $("#auto-forced");
  let sid = null, turn = null, slapStart = null, p = null, pending = null, told = 0, autoTimer = null;
  const players = $("#players", form), seatSel = $("#seat", form);
  const seats = () => {
    const keep = seatSel.value;
    seatSel.replaceChildren(...Array.from({length: +players.value}, (_, i) => el("option", {selected: String(i) === keep}, i)));
  };
  players.addEventListener("change", seats); seats();
  if (auto) {
    auto.checked = localStorage.getItem("moonshot-auto-forced") === "yes";
    auto.addEventListener("change", () => localStorage.setItem("moonshot-auto-forced", auto.checked ? "yes" : "no"));
  }
  const keys = keyReader(i => choose(i));

  form.addEventListener("submit", async ev => {
    ev.preventDefault();
    showErrors(form);
    $(".status", form).textContent = "dealing…";
    const sent = formData(form);
    const {status, body} = await postJSON(`/api/${game}/play`, sent);
    $(".status", form).textContent = "";
    if (status !== 200) { showErrors(form, body.field, body.error); return; }
    sid = body.id; told = 0;
    $(".status", form).textContent = `seed ${body.seed}`;
    form.dispatchEvent(new CustomEvent("run-started", {detail: {sent, used: {seed: body.seed}}}));   // links.js: the URL
    over.hidden = true;
    show(body);
    // the table to the top of the screen: on a phone the form above fills it
    if (!table.hidden) table.scrollIntoView({block: "start"});
  });
  $("#again").addEventListener("click", () => { over.hidden = true; form.requestSubmit(); });

  // the log in full; only the moves since the last look go to the live region (a screen reader hears those)
  function tell(log) {
    $("#log").textContent = log.join("\n");
    $("#log").scrollTop = 1e9;
    if (log.length < told) told = 0;
    const fresh = log.slice(told);
    told = log.length;
    if (fresh.length) latest.textContent = fresh.join("; ");
  }

  function show(state) {
    tell(state.log);
    $("#hint").replaceChildren();
    clearTimeout(autoTimer);
    if (state.state === "over") return finish(state);
    if (state.state === "failed") { table.hidden = true; showErrors(form, "form", state.error); return; }
    if (state.state !== "your turn") { setTimeout(async () => show(await (await fetch(`/api/play/${sid}`)).json()), 300); return; }
    p = state.prompt; pending = null;
    turn = p.turn;
    table.hidden = false; $("#felt").hidden = false; $("#prompt-title").hidden = false;
    $("#prompt-title").textContent = p.title;
    $("#facts").replaceChildren(...p.facts.flatMap(([k, v]) => [el("dt", {}, k), el("dd", {}, v)]));
    $("#hint-button").hidden = !p.has_hint;
    // the choices that are pieces of the hand (the first unmatched piece of that name) are those pieces
    const onPiece = new Map();
    if (p.phase !== "slap") p.choices.forEach((c, i) => {
      const at = p.hand.findIndex((t, j) => t === (c.piece || c.label) && !onPiece.has(j));
      if (at >= 0) onPiece.set(at, i);
    });
    const keyOf = choiceKeys(p, onPiece);
    keys.set(p.phase === "slap" ? new Map() : keyOf);
    const named = t => (p.faces[t] && p.faces[t].label) || t;
    const hand = () => el("div", {class: "seat-pieces hand", id: "hand"}, ...p.hand.map((t, j) => {
      if (!onPiece.has(j)) {                        // not a choice now: said so, drawn whole (no dimming: it must read)
        const why = onPiece.size ? `${named(t)}, not playable now` : named(t);
        return el("span", {class: onPiece.size ? "held" : "free"}, tablePiece(t, p.faces, {label: why}));
      }
      const i = onPiece.get(j), k = keyOf.get(i);
      return el("button", {type: "button", class: "piece-choice", "data-i": i, "data-label": p.choices[i].label,
        "data-key": k || null, "aria-label": `${named(t)}, playable`, "aria-keyshortcuts": shortcut(k)},
        tablePiece(t, p.faces), k ? el("kbd", {class: "key", "aria-hidden": "true"}, k.toUpperCase()) : "");
    }));
    if (p.table) drawTable($("#felt"), p.table, p.faces, {hand});
    else $("#felt").replaceChildren(hand());
    if (p.phase === "slap") {
      $("#choices").replaceChildren(el("button", {type: "button", class: "slap", "data-timed": "1",
        "data-label": "SLAP", "aria-keyshortcuts": "S Space"}, "SLAP!"));
      requestAnimationFrame(() => { slapStart = performance.now(); });
      $(".slap").focus();
    } else {
      slapStart = null;
      $("#choices").replaceChildren(...p.choices.flatMap((c, i) => {
        if ([...onPiece.values()].includes(i)) return [];
        const k = keyOf.get(i), same = k && k === String(c.label).toLowerCase();
        return [el("button", {type: "button", "data-i": i, "data-label": c.label, "data-key": k || null,
          "aria-label": c.label, "aria-keyshortcuts": shortcut(k)},
          ...(k && !same ? [el("kbd", {class: "key", "aria-hidden": "true"}, k.toUpperCase()), " "] : []), c.label)];
      }), el("div", {id: "confirm", class: "confirm", hidden: true}));
      const first = $("#table button[data-i]"); if (first) first.focus();
      if (auto && auto.checked && p.choices.length === 1 && !p.choices[0].confirm) {
        latest.textContent = `Only one legal choice, ${p.choices[0].label}: played for you.`;
        autoTimer = setTimeout(() => answer(p.choices[0].value), 700);
      }
    }
    table.onclick = ev => {
      const b = ev.target.closest("button[data-i], button[data-timed]"); if (!b) return;
      if (b.dataset.timed) slap(); else choose(+b.dataset.i);
    };
  }

  // A choice picked by click or key: at once, or (a choice the rules let no one take back, such as trump)
  // after a second press of it, Enter or the Yes button; Escape or "Choose again" lets it go.
  function choose(i) {
    if (!p || p.phase === "slap" || !p.choices[i]) return;
    const c = p.choices[i];
    if (!c.confirm || pending === i) { pending = null; answer(c.value); return; }
    pending = i;
    $$("#table button[data-i]").forEach(b => b.setAttribute("aria-pressed", String(+b.dataset.i === i)));
    const box = $("#confirm");
    box.hidden = false;
    box.replaceChildren(el("p", {role: "alert"}, c.confirm),
      el("button", {type: "button", class: "primary", id: "confirm-yes"}, `Yes, ${c.label}`),
      " ", el("button", {type: "button", id: "confirm-no"}, "Choose again"));
    $("#confirm-yes").onclick = () => choose(i);
    $("#confirm-no").onclick = unpick;
    $("#confirm-yes").focus();
  }
  function unpick() {
    if (pending === null) return;
    const i = pending;
    pending = null;
    $$("#table button[data-i]").forEach(b => b.removeAttribute("aria-pressed"));
    const box = $("#confirm"); box.hidden = true; box.replaceChildren();
    const b = $(`#table button[data-i="${i}"]`); if (b) b.focus();
  }

  async function answer(choice) {
    clearTimeout(autoTimer);
    $("#choices").replaceChildren(el("em", {}, "…"));
    $$("#felt button[data-i]").forEach(b => { b.disabled = true; });     // one answer per prompt
    const {status, body} = await postJSON(`/api/play/${sid}/answer`, {turn, choice});
    if (status !== 200) {        // refused (a full server's 429, a stale turn): the same prompt again, and why
      const again = await fetch(`/api/play/${sid}`);
      if (again.status === 200) show(await again.json());
      $(`.error[data-for="answer"]`).textContent = body.error;
      return;
    }
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
    // each option's value with its 95% interval in one unbroken cell, the best marked, the verdict in words;
    // the options named as the choices are (a card's words, a trump's name), not as the history writes them
    const words = new Map(p ? p.choices.filter(c => c.option !== undefined).map(c => [String(c.option), c.label]) : []);
    const move = m => words.get(m) || m.replace(/^\S+/, w => words.get(w) || w);
    const est = (m, lo, hi) => withInterval(m, lo, hi, "–");
    const win = h.rows.some(r => r.p_win !== undefined && r.p_win !== null);
    // phone first: the move, the verdict and "vs best" lead (at 390 px they fit; the value and P(win) may scroll)
    const head = ["choice", "verdict", "vs best [95%]", `${h.unit} [95%]`, ...(win ? ["P(win the game) [95%]"] : [])];
    $("#hint").replaceChildren(el("p", {}, "Hint by ", el("strong", {}, h.by), ` in ${h.unit}`),
      el("div", {class: "scroll", tabindex: 0}, el("table", {class: "hints"},
        el("tr", {}, ...head.map(t => el("th", {}, t))),
        ...h.rows.map(r => el("tr", {class: r.best ? "best" : null},
          el("td", {}, r.best ? el("strong", {title: "the best option found"}, `★ ${move(r.move)}`) : move(r.move)),
          el("td", {}, verdictWord(r.verdict)),
          el("td", {class: "est"}, r.best ? "" : est(r.diff, r.diff_low, r.diff_high)),
          el("td", {class: "est"}, est(r.value, r.low, r.high)),
          ...(win ? [el("td", {class: "est"}, chance(r.p_win, r.p_win_low, r.p_win_high))] : []))))),
      ...verdictLegend(h.rows.map(r => r.verdict)),
      el("p", {class: "meta"}, h.note));
    markBest(h.rows.find(r => r.best));
  }
  // the hint's best on the table itself: a star badge on its piece (or its button), said in its name
  function markBest(best) {
    if (!best || !p) return;
    const i = p.choices.findIndex(c => c.option !== undefined && (String(c.option) === best.move ||
      best.move.startsWith(`${c.option} `)));
    const b = i >= 0 && $(`#table button[data-i="${i}"]`);
    if (!b) return;
    b.classList.add("hinted");
    b.setAttribute("aria-label", `${b.getAttribute("aria-label")}, the hint's best`);
    b.append(el("span", {class: "star", "aria-hidden": "true", title: "the hint's best"}, "★"));
  }
  $("#hint-button").addEventListener("click", hint);
  document.addEventListener("keydown", ev => {
    if (table.hidden || ev.target.matches("input, select, textarea") || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    if (slapStart !== null && (ev.key === "s" || ev.key === "S" || ev.key === " ")) { ev.preventDefault(); slap(); return; }
    if (pending !== null && ev.key === "Escape") { ev.preventDefault(); unpick(); return; }
    if (ev.key === "h" || ev.key === "H") { hint(); return; }
    if (ev.key.length !== 1 || PAGE_KEYS.has(ev.key.toLowerCase()) || !over.hidden) return;
    if (keys.read(ev.key.toLowerCase())) ev.preventDefault();
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

  // the hand's end: the table stays as it ended (the last trick, the tricks and scores), the result in a sentence
  function finish(state) {
    table.hidden = false; p = null; pending = null; keys.set(new Map());
    $("#choices").replaceChildren(); $("#hint-button").hidden = true;
    $("#prompt-title").hidden = true; $("#facts").replaceChildren();
    const s = state.summary;
    if (s.table) { drawTable($("#felt"), s.table, s.faces || {}); $("#felt").hidden = false; }
    else { $("#felt").hidden = true; $("#felt").replaceChildren(); }
    over.hidden = false;
    $("#score").textContent = s.result;
    latest.textContent = s.result;
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
