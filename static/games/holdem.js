// Hold'em bet controls (templates/games/holdem/controls.html). The play page replaces the panel's HTML on
// every update, so every listener is delegated from document. A fixed-action form (fold, check/call) carries
// its move in data-move; the raise form keeps its slider, number box and hidden move field in step.
(() => {
  "use strict";

  function clamp(form, value) {
    const low = Number(form.dataset.min);
    const high = Number(form.dataset.max);
    const amount = Math.round(Number(value));
    if (!Number.isFinite(amount)) return low;
    return Math.min(high, Math.max(low, amount));
  }

  function sync(form, value, fromBox) {
    const amount = clamp(form, value);
    const box = form.querySelector("[data-raise-amount]");
    const range = form.querySelector("[data-raise-range]");
    if (!fromBox) box.value = String(amount);
    range.value = String(amount);
    form.querySelector("input[name=move]").value = `raise-to ${amount}`;
    form.querySelector("[data-raise-output]").textContent = amount.toLocaleString("en-US");
  }

  document.addEventListener("input", (event) => {
    const form = event.target.closest("[data-raise-form]");
    if (!form) return;
    if (event.target.matches("[data-raise-range]")) sync(form, event.target.value, false);
    else if (event.target.matches("[data-raise-amount]")) sync(form, event.target.value, true);
  });

  document.addEventListener("click", (event) => {
    const preset = event.target.closest("[data-raise-preset]");
    if (!preset) return;
    sync(preset.closest("[data-raise-form]"), preset.dataset.raisePreset, false);
  });

  // Capture phase: runs before the play page's submit handler reads the move field.
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target.closest("[data-move-form]");
      if (!form) return;
      if (form.dataset.move) form.querySelector("input[name=move]").value = form.dataset.move;
      else if (form.matches("[data-raise-form]")) sync(form, form.querySelector("[data-raise-amount]").value, false);
    },
    true,
  );
})();
