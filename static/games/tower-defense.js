// Tower defense plan editor. The JSON in the form's `move` input is the single source of truth:
// every click rewrites it and re-renders the grid, list, budget meter and problems from it.
// Event delegation on document, because the play page replaces the panel's HTML on every update.
(() => {
  "use strict";
  const EDITOR = '[data-plan-editor="tower-defense"]';

  const input = (ed) => ed.querySelector("[data-plan-json]");
  const table = (ed) => JSON.parse(ed.querySelector("#tower-defense-editor").textContent);
  const read = (ed) => {
    try {
      const plan = JSON.parse(input(ed).value);
      return plan && Array.isArray(plan.units) ? plan : null;
    } catch {
      return null;
    }
  };
  const write = (ed, plan) => {
    input(ed).value = JSON.stringify(plan);
    render(ed);
  };

  // The same rules as games/tower_defense/units.py: known units, cells or rows and times in range,
  // one unit per cell, total cost within the budget.
  function check(ed, plan) {
    const info = table(ed);
    const units = Object.fromEntries(info.units.map((u) => [u.name, u]));
    const problems = [];
    if (!plan) return { cost: 0, problems: ['The plan is not valid JSON with a "units" list.'] };
    let cost = 0;
    const taken = new Set();
    plan.units.forEach((entry, i) => {
      const unit = entry && units[entry.unit];
      if (!unit) return problems.push(`units[${i}]: unknown unit ${JSON.stringify(entry && entry.unit)}.`);
      cost += unit.cost;
      if (!Number.isInteger(entry.y) || entry.y < 0 || entry.y >= info.rows) problems.push(`${entry.unit}: row y must be 0–4.`);
      if (info.role === 1) {
        if (!Number.isInteger(entry.x) || entry.x < 0 || entry.x >= info.columns) problems.push(`${entry.unit}: column x must be 0–10.`);
        const key = `${entry.x},${entry.y}`;
        if (taken.has(key)) problems.push(`Cell x=${entry.x}, y=${entry.y} holds two units.`);
        taken.add(key);
      } else {
        const t = entry.time ?? 0;
        if (typeof t !== "number" || t < 0 || t > info.window) problems.push(`${entry.unit}: time must be 0–${info.window} s.`);
      }
    });
    if (cost > info.budget) problems.push(`Over budget: ${cost} of ${info.budget}.`);
    return { cost, problems };
  }

  function render(ed) {
    const info = table(ed);
    const plan = read(ed);
    const { cost, problems } = check(ed, plan);
    const meter = ed.querySelector("[data-plan-meter]");
    meter.value = Math.min(cost, info.budget);
    ed.querySelector("[data-plan-cost]").textContent = String(cost);
    ed.querySelector("[data-plan-meter-wrap]").classList.toggle("is-over", cost > info.budget);
    const list = ed.querySelector("[data-plan-problems]");
    list.replaceChildren(...problems.map((text) => Object.assign(document.createElement("li"), { textContent: text })));
    const submit = ed.querySelector("[data-plan-submit]");
    submit.textContent = problems.length ? "Submit anyway (breaks the rules: forfeits the leg)" : "Submit plan";
    const codes = Object.fromEntries(info.units.map((u) => [u.name, u.code]));
    ed.querySelectorAll("[data-td-x]").forEach((cell) => {
      const here = plan && plan.units.find((u) => u.x === Number(cell.dataset.tdX) && u.y === Number(cell.dataset.tdY));
      cell.textContent = here ? codes[here.unit] || "?" : "";
      cell.classList.toggle("is-taken", Boolean(here));
      cell.setAttribute("aria-label", `x ${cell.dataset.tdX}, y ${cell.dataset.tdY}: ${here ? here.unit : "empty"}`);
    });
    const demons = ed.querySelector("[data-td-list]");
    if (demons && plan) {
      demons.replaceChildren(
        ...plan.units.map((u, i) => {
          const item = document.createElement("li");
          item.textContent = `${u.unit} · row ${u.y} · ${u.time ?? 0} s`;
          const remove = Object.assign(document.createElement("button"), { type: "button", textContent: "remove" });
          remove.className = "link-button";
          remove.dataset.tdRemove = String(i);
          item.append(remove);
          return item;
        }),
      );
    }
  }

  document.addEventListener("click", (event) => {
    const ed = event.target.closest(EDITOR);
    if (!ed) return;
    const plan = read(ed) || { units: [] };
    const cell = event.target.closest("[data-td-x]");
    if (cell) {
      const x = Number(cell.dataset.tdX);
      const y = Number(cell.dataset.tdY);
      const at = plan.units.findIndex((u) => u.x === x && u.y === y);
      if (at >= 0) plan.units.splice(at, 1);
      else plan.units.push({ unit: ed.querySelector("input[name=td-unit]:checked").value, x, y });
      write(ed, plan);
    } else if (event.target.closest("[data-td-add]")) {
      const count = Math.max(1, Math.min(20, Number(ed.querySelector("[data-td-count]").value) || 1));
      const time = Number(ed.querySelector("[data-td-time]").value) || 0;
      for (let n = 0; n < count; n++) {
        plan.units.push({
          unit: ed.querySelector("[data-td-demon]").value,
          y: Number(ed.querySelector("[data-td-row]").value),
          time,
        });
      }
      write(ed, plan);
    } else if (event.target.closest("[data-td-remove]")) {
      plan.units.splice(Number(event.target.closest("[data-td-remove]").dataset.tdRemove), 1);
      write(ed, plan);
    } else if (event.target.closest("[data-plan-load-previous]")) {
      const previous = JSON.parse(ed.querySelector("#tower-defense-previous").textContent);
      if (previous) write(ed, previous);
    }
  });
  document.addEventListener("input", (event) => {
    const ed = event.target.closest(EDITOR);
    if (ed && event.target.matches("[data-plan-json]")) render(ed);
  });

  // Render each editor once when it appears (first load, and after every fragment swap).
  const init = () =>
    document.querySelectorAll(EDITOR).forEach((ed) => {
      if (ed.dataset.ready) return;
      ed.dataset.ready = "1";
      render(ed);
    });
  new MutationObserver(init).observe(document.documentElement, { childList: true, subtree: true });
  init();
})();
