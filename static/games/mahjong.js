// Mahjong on the play page.
// - In the typed action box a bare tile ("w3", "J1") means "discard it", so it is sent as "Play W3"; every other
//   action is sent as typed (the server reads it and explains any mistake).
// - When Pass is the only legal answer to a discard, it is sent for the person (most answers are such passes),
//   unless they untick "Pass for me"; the choice is kept in localStorage.
(() => {
  "use strict";
  const TILE = /^\s*([wtbWTB][1-9]|[fF][1-4]|[jJ][1-3])\s*$/;
  const KEY = "arena.mahjong.autoPass";
  document.addEventListener(
    "submit",
    (event) => {
      const form = event.target.closest("[data-mahjong-command]");
      if (!form) return;
      const input = form.querySelector("input[name=move]");
      const tile = TILE.exec(input.value);
      if (tile) input.value = `Play ${tile[1].toUpperCase()}`;
    },
    true,
  );

  const root = document.querySelector(".play[data-match]");
  if (!root) return;
  const enabled = () => {
    try {
      return localStorage.getItem(KEY) !== "off";
    } catch {
      return true; // storage refused (private mode): the default
    }
  };
  let passedAt = null;

  function onlyPass() {
    const live = document.getElementById(`match-${root.dataset.match}-live`);
    if (!live || live.dataset.myTurn !== "true") return null;
    const data = document.getElementById(`match-${root.dataset.match}-legal`);
    const legal = data ? JSON.parse(data.textContent) : [];
    return legal.length === 1 && legal[0].text === "Pass" ? live : null;
  }

  function update() {
    root.querySelectorAll("[data-mahjong-autopass]").forEach((box) => (box.checked = enabled()));
    const connected = root.querySelector("[data-connection]")?.dataset.state === "ok";
    const live = onlyPass();
    if (!connected || !live || !enabled() || passedAt === live.dataset.ply) return;
    const button = live.querySelector('[data-cell="Pass"]');
    if (!button) return;
    passedAt = live.dataset.ply; // once per decision, even if the page redraws before the answer lands
    button.click();
  }

  root.addEventListener("change", (event) => {
    const box = event.target.closest("[data-mahjong-autopass]");
    if (!box) return;
    try {
      localStorage.setItem(KEY, box.checked ? "on" : "off");
    } catch {
      // storage refused: the choice lasts until the next redraw
    }
    update();
  });
  new MutationObserver(update).observe(root, { childList: true });
  const connection = root.querySelector("[data-connection]");
  if (connection) new MutationObserver(update).observe(connection, { attributes: true, attributeFilter: ["data-state"] });
  update();
})();
