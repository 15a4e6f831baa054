// Codenames controls: the clue word and number fields fill the move field as "clue <word> <number>".
// Delegated on document because the controls are re-rendered by replacing their HTML.
(() => {
  "use strict";
  function sync(target) {
    const box = target.closest(".cn-controls");
    if (!box) return;
    const word = box.querySelector("[data-clue-word]");
    const number = box.querySelector("[data-clue-number]");
    const move = box.querySelector("input[name=move]");
    if (!word || !number || !move) return;
    const text = word.value.trim().toLowerCase();
    move.value = text ? `clue ${text} ${number.value}` : "";
  }
  document.addEventListener("input", (event) => sync(event.target));
  document.addEventListener("change", (event) => sync(event.target));
})();
