// Replay keyboard navigation and autoplay. Stepping itself is plain links upgraded by htmx.
(() => {
  "use strict";
  let timer = null;
  const panel = () => document.querySelector(".replay");
  const step = (name) => panel()?.querySelector(`[data-step="${name}"]`)?.click();
  const keys = { ArrowLeft: "prev", k: "prev", ArrowRight: "next", j: "next", Home: "first", End: "last" };

  function stopAutoplay() {
    clearInterval(timer);
    timer = null;
    const button = panel()?.querySelector("[data-autoplay]");
    if (button) button.setAttribute("aria-pressed", "false");
  }

  function startAutoplay() {
    const speed = Number(panel().querySelector("[data-autoplay-speed]").value);
    timer = setInterval(() => {
      const p = panel();
      if (Number(p.dataset.ply) >= Number(p.dataset.lastPly)) stopAutoplay();
      else step("next");
    }, speed);
  }

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.target.closest("input, select, textarea")) return;
    const name = keys[event.key];
    if (!name || !panel()) return;
    event.preventDefault();
    step(name);
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-autoplay]");
    if (!button) return;
    if (timer) stopAutoplay();
    else {
      startAutoplay();
      button.setAttribute("aria-pressed", "true");
    }
  });

  // After htmx swaps in the next panel, keep the autoplay button's state.
  // and the current move in view in the scrolling move list (without scrolling the page).
  function showCurrentMove() {
    const list = panel()?.querySelector(".move-list");
    const current = list?.querySelector("[aria-current]")?.closest("li");
    if (current) list.scrollTop = current.offsetTop - list.offsetTop - list.clientHeight / 2;
  }
  document.addEventListener("htmx:afterSwap", () => {
    panel()?.querySelector("[data-autoplay]")?.setAttribute("aria-pressed", timer ? "true" : "false");
    showCurrentMove();
  });
  document.addEventListener("DOMContentLoaded", showCurrentMove);

  document.addEventListener("change", (event) => {
    const slider = event.target.closest("[data-replay-slider]");
    if (!slider) return;
    const link = panel().querySelector('[data-step="first"]');
    const url = link.getAttribute("hx-get").replace(/ply=\d+/, `ply=${slider.value}`);
    window.htmx.ajax("GET", url, { target: panel(), swap: "outerHTML" }).then(() =>
      history.pushState({}, "", `?ply=${slider.value}`),
    );
  });
})();
