// The what-if page: a rules flag only whole games can show (data-whole-games: its Flag.whole_games)
// switches the count to whole games when it is changed from its default, and the line beside the
// count says which flag and why, also when the count is set back to hands.
"use strict";

document.addEventListener("DOMContentLoaded", () => {   // before links.js's: a link's own count wins
  const form = document.querySelector("form#whatif"), unit = form && form.querySelector("select[name='unit']");
  const note = document.querySelector("#unit-note");
  if (!unit || !note) return;
  const gameOnly = () => Array.from(form.querySelectorAll("[data-whole-games]"))
    .filter(e => e.value.trim() !== e.dataset.default).map(e => e.dataset.flag);
  const update = switchCount => {
    const flags = gameOnly();
    if (flags.length && switchCount) unit.value = "games";
    note.textContent = !flags.length ? "" : unit.value === "games"
      ? `Whole games, because ${flags.join(" and ")} changes only how a game ends or goes on.`
      : `${flags.join(" and ")} changes only how a game ends or goes on: hands alone will not show it; count whole games.`;
  };
  const heard = ev => update(ev.target !== unit && "wholeGames" in ev.target.dataset);
  form.addEventListener("change", heard);
  form.addEventListener("input", heard);
  update(false);
});
