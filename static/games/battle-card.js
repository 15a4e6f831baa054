// Battle card plan editor. The JSON in the form's `move` input is the single source of truth:
// every click rewrites it and re-renders the line-up, budget meter and problems from it.
// Event delegation on document, because the play page replaces the panel's HTML on every update.
(() => {
  "use strict";
  const EDITOR = '[data-plan-editor="battle-card"]';

  const input = (ed) => ed.querySelector("[data-plan-json]");
  const table = (ed) => JSON.parse(ed.querySelector("#battle-card-editor").textContent);
  const read = (ed) => {
    try {
      const plan = JSON.parse(input(ed).value);
      return plan && Array.isArray(plan.minions) ? plan : null;
    } catch {
      return null;
    }
  };
  const write = (ed, plan) => {
    input(ed).value = JSON.stringify(plan);
    render(ed);
  };

  // The same rules as games/battle_card/units.py.
  function check(info, plan) {
    if (!plan) return { cost: 0, problems: ['The plan is not valid JSON with a "minions" list.'] };
    const units = Object.fromEntries(info.units.map((u) => [u.name, u]));
    const problems = [];
    let cost = 0;
    plan.minions.forEach((m, i) => {
      const name = typeof m === "string" ? m : m && m.unit;
      if (!units[name]) return problems.push(`minions[${i}]: unknown minion ${JSON.stringify(name)}.`);
      cost += units[name].cost * (m.gold ? info.gold_cost : 1);
    });
    if (plan.minions.length > info.max) problems.push(`At most ${info.max} minions (you have ${plan.minions.length}).`);
    if (plan.target_priority !== undefined && !info.priorities.includes(plan.target_priority)) {
      problems.push(`target_priority must be one of ${info.priorities.join(", ")}.`);
    }
    if (cost > info.budget) problems.push(`Over budget: ${cost} of ${info.budget}.`);
    return { cost, problems };
  }

  function button(text, data, value) {
    const b = Object.assign(document.createElement("button"), { type: "button", textContent: text, className: "link-button" });
    b.dataset[data] = String(value);
    return b;
  }

  function render(ed) {
    const info = table(ed);
    const plan = read(ed);
    const { cost, problems } = check(info, plan);
    ed.querySelector("[data-plan-meter]").value = Math.min(cost, info.budget);
    ed.querySelector("[data-plan-cost]").textContent = String(cost);
    ed.querySelector("[data-plan-meter-wrap]").classList.toggle("is-over", cost > info.budget);
    ed.querySelector("[data-bc-count]").textContent = String(plan ? plan.minions.length : 0);
    ed.querySelector("[data-plan-problems]").replaceChildren(
      ...problems.map((text) => Object.assign(document.createElement("li"), { textContent: text })),
    );
    ed.querySelector("[data-plan-submit]").textContent = problems.length
      ? "Submit anyway (breaks the rules: forfeits the leg)"
      : "Submit plan";
    if (!plan) return;
    ed.querySelector("[data-bc-priority]").value = plan.target_priority || "leftmost";
    ed.querySelector("[data-bc-list]").replaceChildren(
      ...plan.minions.map((m, i) => {
        const item = document.createElement("li");
        const name = typeof m === "string" ? m : m.unit;
        item.append(`${m.gold ? "★ gold " : ""}${name} `);
        item.append(button("↑", "bcUp", i), button("↓", "bcDown", i), button("remove", "bcRemove", i));
        return item;
      }),
    );
  }

  document.addEventListener("click", (event) => {
    const ed = event.target.closest(EDITOR);
    if (!ed) return;
    const plan = read(ed) || { minions: [], target_priority: "leftmost" };
    const hit = (name) => event.target.closest(`[data-${name}]`);
    if (hit("bc-add")) {
      plan.minions.push({ unit: hit("bc-add").dataset.bcAdd, gold: hit("bc-add").hasAttribute("data-bc-gold") });
    } else if (hit("bc-remove")) {
      plan.minions.splice(Number(hit("bc-remove").dataset.bcRemove), 1);
    } else if (hit("bc-up") || hit("bc-down")) {
      const i = Number((hit("bc-up") || hit("bc-down")).dataset[hit("bc-up") ? "bcUp" : "bcDown"]);
      const j = hit("bc-up") ? i - 1 : i + 1;
      if (j < 0 || j >= plan.minions.length) return;
      [plan.minions[i], plan.minions[j]] = [plan.minions[j], plan.minions[i]];
    } else if (hit("plan-load-previous")) {
      const previous = JSON.parse(ed.querySelector("#battle-card-previous").textContent);
      if (!previous) return;
      write(ed, previous);
      return;
    } else {
      return;
    }
    write(ed, plan);
  });
  document.addEventListener("change", (event) => {
    const ed = event.target.closest(EDITOR);
    if (!ed || !event.target.matches("[data-bc-priority]")) return;
    const plan = read(ed) || { minions: [] };
    plan.target_priority = event.target.value;
    write(ed, plan);
  });
  document.addEventListener("input", (event) => {
    const ed = event.target.closest(EDITOR);
    if (ed && event.target.matches("[data-plan-json]")) render(ed);
  });

  const init = () =>
    document.querySelectorAll(EDITOR).forEach((ed) => {
      if (ed.dataset.ready) return;
      ed.dataset.ready = "1";
      render(ed);
    });
  new MutationObserver(init).observe(document.documentElement, { childList: true, subtree: true });
  init();
})();
