// Kuhn poker bet buttons (templates/games/leduc-holdem/limit-controls.html): each button is its own move form
// whose move is in data-move. Delegated from document because the play page replaces the panel on every update.
(() => {
  "use strict";
  // Capture phase: runs before the play page's submit handler reads (and then clears) the move field.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target.closest("[data-move-form][data-move]");
      if (form) form.querySelector("input[name=move]").value = form.dataset.move;
    },
    true,
  );
})();
