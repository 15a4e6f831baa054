// Fight the Landlord on the play page: clicking a card in your hand selects it (again: unselects) and the
// move box shows the selected ranks, lowest first, ready to play. Each fragment swap redraws the hand, so
// the selection is a list of ranks kept here and drawn again after every swap.
(() => {
  "use strict";
  const ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "BJ", "RJ"];
  const root = document.querySelector(".play[data-match]");
  if (!root) return;

  const moveBox = () => root.querySelector("[data-ftl-move]");
  const write = () => {
    const box = moveBox();
    const picked = [...root.querySelectorAll(".ftl-you [data-ftl-rank][aria-pressed='true']")].map((el) => el.dataset.ftlRank);
    picked.sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b));
    if (box) box.value = picked.join(" ");
  };

  root.addEventListener("click", (event) => {
    const card = event.target.closest(".ftl-you [data-ftl-rank]");
    if (card) {
      card.setAttribute("aria-pressed", card.getAttribute("aria-pressed") === "true" ? "false" : "true");
      write();
      return;
    }
    if (event.target.closest("[data-ftl-clear]")) {
      root.querySelectorAll(".ftl-you [aria-pressed='true']").forEach((el) => el.setAttribute("aria-pressed", "false"));
      write();
    }
  });
})();
