// Mahjong on the play page: in the typed action box a bare tile ("w3", "J1") means "discard it", so it is sent
// as "Play W3"; every other action is sent as typed (the server reads it and explains any mistake).
(() => {
  "use strict";
  const TILE = /^\s*([wtbWTB][1-9]|[fF][1-4]|[jJ][1-3])\s*$/;
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
})();
