// Diplomacy on the play page: a click on one of your units then on a province writes "A PAR - BUR" (the same
// province twice: "A PAR H") into the orders box, replacing that unit's earlier order. In retreat and adjustment
// phases a click on a unit or a province lists its possible orders (retreat, disband, build) as buttons instead;
// a button writes its order. Text is set with value and textContent only.
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

  const options = () => {
    const data = document.getElementById("dip-options");
    return data ? JSON.parse(data.textContent).flat() : [];
  };

  // Retreats and builds: the clicked province's own orders, one button each.
  const offerChoices = (province) => {
    const list = document.querySelector("[data-dip-choices]");
    if (!list) return;
    const mine = options().filter((order) => (order.split(" ")[1] || "").slice(0, 3) === province);
    list.replaceChildren(
      ...mine.map((order) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button";
        button.textContent = order;
        button.addEventListener("click", () => {
          setOrder(order, order);
          list.replaceChildren();
        });
        return button;
      }),
    );
    const hint = document.querySelector("[data-dip-choices-hint]");
    if (hint) hint.textContent = mine.length ? `Orders for ${province}:` : `No order of yours involves ${province}.`;
  };

  document.addEventListener("click", (event) => {
    const board = event.target.closest(".board-diplomacy");
    if (!board || !box()) return;
    if (board.dataset.phaseKind === "R" || board.dataset.phaseKind === "A") {
      const cell = event.target.closest("[data-cell]");
      if (!cell) return;
      event.stopPropagation();
      offerChoices(cell.dataset.cell.slice(0, 3));
      return;
    }
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
