// Attribute battle plan editor. The JSON in the form's `move` input is the single source of truth:
// every change rewrites it and re-renders the characters, budget meter and problems from it.
// Event delegation on document, because the play page replaces the panel's HTML on every update.
(() => {
  "use strict";
  const EDITOR = '[data-plan-editor="attribute-battle"]';

  const input = (ed) => ed.querySelector("[data-plan-json]");
  const table = (ed) => JSON.parse(ed.querySelector("#attribute-battle-editor").textContent);
  const read = (ed) => {
    try {
      const plan = JSON.parse(input(ed).value);
      return plan && Array.isArray(plan.characters) ? plan : null;
    } catch {
      return null;
    }
  };
  const write = (ed, plan) => {
    input(ed).value = JSON.stringify(plan);
    render(ed);
  };

  // The same rules as games/attribute_battle/skills.py.
  function check(info, plan) {
    if (!plan) return { cost: 0, problems: ['The plan is not valid JSON with a "characters" list.'] };
    const byElement = Object.fromEntries(info.elements.map((e) => [e.element, e.skills]));
    const problems = [];
    let cost = 0;
    const seen = plan.characters.map((c) => c && c.element).sort();
    if (JSON.stringify(seen) !== JSON.stringify(Object.keys(byElement).sort())) {
      problems.push(`Field exactly one each of ${Object.keys(byElement).join(", ")}.`);
    }
    plan.characters.forEach((c, i) => {
      const pool = byElement[c && c.element];
      if (!pool) return problems.push(`characters[${i}]: unknown element.`);
      const skills = Array.isArray(c.skills) ? c.skills : [];
      if (skills.length !== 3 || new Set(skills).size !== 3) problems.push(`${c.element}: choose three different skills.`);
      skills.forEach((name) => {
        const skill = pool.find((s) => s.name === name);
        if (skill) cost += skill.cost;
        else problems.push(`${c.element}: ${JSON.stringify(name)} is not a ${c.element} skill.`);
      });
    });
    if (plan.target_priority !== undefined && !info.priorities.includes(plan.target_priority)) {
      problems.push(`target_priority must be one of ${info.priorities.join(", ")}.`);
    }
    if (cost > info.budget) problems.push(`Over budget: ${cost} of ${info.budget}.`);
    return { cost, problems };
  }

  function character(info, c, i, count) {
    const pool = (info.elements.find((e) => e.element === c.element) || { skills: [] }).skills;
    const box = document.createElement("fieldset");
    box.className = "ab-editor-char";
    box.append(Object.assign(document.createElement("legend"), { textContent: `${i + 1}. ${c.element}` }));
    for (let k = 0; k < 3; k++) {
      const label = Object.assign(document.createElement("label"), { className: "ab-skill", textContent: `Skill ${k + 1} ` });
      const select = document.createElement("select");
      select.dataset.abChar = String(i);
      select.dataset.abSlot = String(k);
      select.append(new Option("— choose —", ""));
      pool.forEach((s) => select.append(new Option(`${s.name} (cost ${s.cost})`, s.name)));
      select.value = (c.skills || [])[k] || "";
      label.append(select);
      box.append(label);
    }
    for (const [text, key, ok] of [["↑ earlier", "abUp", i > 0], ["↓ later", "abDown", i < count - 1]]) {
      if (!ok) continue;
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: text, className: "link-button" });
      b.dataset[key] = String(i);
      box.append(b, " ");
    }
    return box;
  }

  function render(ed) {
    const info = table(ed);
    const plan = read(ed);
    const { cost, problems } = check(info, plan);
    ed.querySelector("[data-plan-meter]").value = Math.min(cost, info.budget);
    ed.querySelector("[data-plan-cost]").textContent = String(cost);
    ed.querySelector("[data-plan-meter-wrap]").classList.toggle("is-over", cost > info.budget);
    ed.querySelector("[data-plan-problems]").replaceChildren(
      ...problems.map((text) => Object.assign(document.createElement("li"), { textContent: text })),
    );
    ed.querySelector("[data-plan-submit]").textContent = problems.length
      ? "Submit anyway (breaks the rules: forfeits the leg)"
      : "Submit plan";
    if (!plan) return;
    ed.querySelector("[data-ab-priority]").value = plan.target_priority || "first";
    const chars = plan.characters.filter((c) => c && typeof c === "object");
    ed.querySelector("[data-ab-chars]").replaceChildren(...chars.map((c, i) => character(info, c, i, chars.length)));
  }

  document.addEventListener("click", (event) => {
    const ed = event.target.closest(EDITOR);
    if (!ed) return;
    const plan = read(ed);
    const move = event.target.closest("[data-ab-up], [data-ab-down]");
    if (move && plan) {
      const i = Number(move.dataset.abUp ?? move.dataset.abDown);
      const j = move.dataset.abUp !== undefined ? i - 1 : i + 1;
      [plan.characters[i], plan.characters[j]] = [plan.characters[j], plan.characters[i]];
      write(ed, plan);
    } else if (event.target.closest("[data-plan-load-previous]")) {
      const previous = JSON.parse(ed.querySelector("#attribute-battle-previous").textContent);
      if (previous) write(ed, previous);
    }
  });
  document.addEventListener("change", (event) => {
    const ed = event.target.closest(EDITOR);
    if (!ed) return;
    const plan = read(ed);
    if (!plan) return;
    if (event.target.matches("[data-ab-priority]")) {
      plan.target_priority = event.target.value;
    } else if (event.target.matches("[data-ab-slot]")) {
      const c = plan.characters[Number(event.target.dataset.abChar)];
      const skills = Array.isArray(c.skills) ? c.skills : [];
      while (skills.length < 3) skills.push("");
      skills[Number(event.target.dataset.abSlot)] = event.target.value;
      c.skills = skills;
    } else {
      return;
    }
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
