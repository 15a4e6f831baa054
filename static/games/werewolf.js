// Werewolf controls: in the debate, typed text is sent as "say <text>" and a counter shows the 500-character limit.
// Delegated on document (capture phase, so it runs before the play page reads the field).
(() => {
  "use strict";
  const LIMIT = 500;
  const body = (value) => value.replace(/^\s*say\s+/i, "").trim();
  document.addEventListener("input", (event) => {
    const input = event.target.closest("[data-say-input]");
    if (!input) return;
    const counter = input.closest("form").querySelector("[data-say-count]");
    if (counter) counter.textContent = `${body(input.value).length}/${LIMIT}`;
  });
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target.closest("[data-werewolf-phase='debate']");
      if (!form) return;
      const input = form.querySelector("[data-say-input]");
      if (input && body(input.value)) input.value = `say ${body(input.value)}`;
    },
    true,
  );
})();
