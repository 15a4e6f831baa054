// Diplomacy on the play page: a click on one of your units then on a province writes "A PAR - BUR" (the same
// province twice: "A PAR H") into the orders box, replacing that unit's earlier order. Text is set with value only.
(() => {
  "use strict";
  let selected = null;
  const box = () => document.querySelector("[data-dip-orders]");

  const setOrder = (unit, order) => {
    const input = box();
    if (!input) return;
    const lines = input.value ? input.value.split("\n") : [];
    let head = lines.findIndex((line) => /^\s*orders\s*:/i.test(line));
    if (head < 0) {
      lines.unshift("orders: ");
      head = 0;
    }
    const orders = lines[head].replace(/^\s*orders\s*:/i, "").split(";").map((o) => o.trim()).filter(Boolean);
    const kept = orders.filter((o) => o.split(/\s+/)[1] !== unit.split(" ")[1]);
    lines[head] = `orders: ${[...kept, order].join("; ")}`;
    input.value = lines.join("\n");
  };

  document.addEventListener("click", (event) => {
    const board = event.target.closest(".board-diplomacy");
    if (!board || !box()) return;
    const unit = event.target.closest(".dip-unit");
    const cell = event.target.closest("[data-cell]");
    if (!cell) return;
    event.stopPropagation();
    const province = cell.dataset.cell;
    if (!selected) {
      if (!unit) return;
      const kind = unit.querySelector("text").textContent.trim();
      selected = `${kind} ${unit.querySelector("title").textContent.split(" ")[2]}`;
      unit.classList.add("dip-selected");
      return;
    }
    const here = selected.split(" ")[1].slice(0, 3);
    setOrder(selected, province === here ? `${selected} H` : `${selected} - ${province}`);
    board.querySelectorAll(".dip-selected").forEach((el) => el.classList.remove("dip-selected"));
    selected = null;
  }, true);
})();
