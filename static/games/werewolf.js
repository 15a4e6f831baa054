// Werewolf on the play page. In the debate, typed text is sent as "say <text>" and a counter shows the limit.
// Each fragment swap replaces the chat, so a live region that outlives the swaps announces the new messages,
// and the message box gets the focus back when the swap took it away (keyboard play). Text is only ever
// set with textContent: debate text is untrusted.
(() => {
  "use strict";
  const body = (value) => value.replace(/^\s*say\s+/i, "").trim();

  document.addEventListener("input", (event) => {
    const input = event.target.closest("[data-say-input]");
    if (!input) return;
    const counter = input.closest("form").querySelector("[data-say-count]");
    const limit = Number(input.dataset.sayLimit) || 500;
    const length = body(input.value).length;
    if (counter) {
      counter.textContent = `${length}/${limit}`;
      counter.classList.toggle("ww-over", length > limit);
    }
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

  const root = document.querySelector(".play[data-match]");
  if (!root) return;
  const announcer = document.createElement("div");
  announcer.className = "ww-announcer";
  announcer.setAttribute("role", "status");
  announcer.setAttribute("aria-live", "polite");
  document.body.append(announcer);

  const entries = () => [...root.querySelectorAll("[data-ww-chat] [data-event]")];
  const newest = () => Math.max(-1, ...entries().map((el) => Number(el.dataset.event)));
  const spoken = (el) => {
    const speaker = el.querySelector(".ww-msg-speaker");
    const text = el.querySelector(".ww-msg-text");
    return speaker && text ? `${speaker.textContent.trim()}: ${text.textContent}` : el.textContent.trim();
  };
  let seen = newest();

  new MutationObserver(() => {
    const fresh = entries().filter((el) => Number(el.dataset.event) > seen);
    if (fresh.length) announcer.textContent = fresh.map(spoken).join("\n");
    seen = Math.max(seen, newest());
    const input = root.querySelector("[data-say-input]");
    const lost = !document.activeElement || document.activeElement === document.body;
    if (input && lost) input.focus();
  }).observe(root, { childList: true });
})();
