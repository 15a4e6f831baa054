// The live match page: one websocket, fragments swapped in as they arrive, moves made by
// clicking the board's cells (matched against the legal moves' cell sequences) or by typing.
(() => {
  "use strict";
  const root = document.querySelector(".play[data-match]");
  if (!root) return;
  const matchId = root.dataset.match;
  const connection = root.querySelector("[data-connection]");
  const errorBox = root.querySelector("[data-move-error]");
  let socket = null;
  let retries = 0;
  let selected = [];
  let thinking = 0;
  let flagged = false;

  const live = () => document.getElementById(`match-${matchId}-live`);
  const myTurn = () => live().dataset.myTurn === "true";
  const legal = () => {
    const data = document.getElementById(`match-${matchId}-legal`);
    return data ? JSON.parse(data.textContent) : [];
  };

  function setConnection(text, state) {
    connection.textContent = text;
    connection.dataset.state = state;
  }

  function showError(message) {
    errorBox.textContent = message;
    errorBox.hidden = false;
    live().classList.remove("sending");
  }

  function send(frame) {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError("Not connected; your move was not sent. Reconnecting…");
      return;
    }
    socket.send(JSON.stringify(frame));
  }

  function sendMove(text) {
    errorBox.hidden = true;
    live().classList.add("sending");
    send({ type: "move", move: text, ply: Number(live().dataset.ply) });
    selected = [];
    highlight();
  }

  function startsWith(cells, prefix) {
    return prefix.every((cell, i) => cells[i] === cell);
  }

  // What to click next: the board's data-steps names each click of a move ("Select a worker|Move to …");
  // a half-made move can be cancelled.
  function showStep() {
    const step = live().querySelector("[data-move-step]");
    if (!step) return;
    const board = live().querySelector("[data-steps]");
    const steps = board ? board.dataset.steps.split("|") : [];
    const hint = steps[Math.min(selected.length, steps.length - 1)] || "";
    step.querySelector("[data-move-hint]").textContent = hint;
    step.querySelector("[data-cancel-move]").hidden = !selected.length;
    step.hidden = !myTurn() || (!hint && !selected.length);
  }

  function highlight() {
    const board = live();
    board.querySelectorAll(".cell-target, .cell-selected").forEach((el) => el.classList.remove("cell-target", "cell-selected"));
    board.querySelector(".move-chooser").hidden = true;
    showStep();
    if (!myTurn()) return;
    const next = new Set();
    for (const move of legal()) {
      if (move.cells.length > selected.length && startsWith(move.cells, selected)) next.add(move.cells[selected.length]);
    }
    board.querySelectorAll("[data-cell]").forEach((el) => {
      if (next.has(el.dataset.cell)) el.classList.add("cell-target");
      if (selected.includes(el.dataset.cell)) el.classList.add("cell-selected");
    });
  }

  function choose(moves) {
    const chooser = live().querySelector(".move-chooser");
    chooser.replaceChildren(
      ...moves.map((move) => {
        const button = document.createElement("button");
        button.type = "button";
        button.className = "button";
        button.textContent = move.text;
        button.addEventListener("click", () => sendMove(move.text));
        return button;
      }),
    );
    chooser.hidden = false;
  }

  function clickCell(name) {
    if (!myTurn()) {
      showError("It is not your turn.");
      return;
    }
    let path = [...selected, name];
    let candidates = legal().filter((m) => startsWith(m.cells, path));
    if (!candidates.length && selected.includes(name)) {
      // A cell of the half-made move that is no next step: the first one again deselects it; any other says why.
      if (name === selected[0] && selected.length === 1) {
        selected = [];
        errorBox.hidden = true;
      } else showError(`${name} is not a next step of your move: click a highlighted square, or Cancel.`);
      highlight();
      return;
    }
    if (!candidates.length && selected.length) {
      path = [name]; // start a new move from this cell
      candidates = legal().filter((m) => startsWith(m.cells, path));
    }
    if (!candidates.length) {
      selected = [];
      highlight();
      showError(`No legal move starts at ${name}.`);
      return;
    }
    errorBox.hidden = true;
    selected = path;
    const complete = candidates.filter((m) => m.cells.length === path.length);
    highlight();
    if (complete.length === 1 && candidates.length === 1) sendMove(complete[0].text);
    else if (complete.length >= 1) choose(complete); // promotions, or a move that could also go on
  }

  // Countdowns on the thinking clock, no server round trip: [data-countdown-s] is the seconds a move may take
  // (its [data-countdown-left] show what is left; data-state: ok, warning within data-warn-s, over), and
  // [data-count-from] shows data-count-from + ⌈seconds thought × data-per-s⌉ (e.g. the tick a move arrives at).
  function countdowns() {
    live().querySelectorAll("[data-countdown-s]").forEach((el) => {
      const left = Number(el.dataset.countdownS) - thinking;
      el.dataset.state = left < 0 ? "over" : left <= Number(el.dataset.warnS || 0) ? "warning" : "ok";
      el.querySelectorAll("[data-countdown-left]").forEach((out) => (out.textContent = Math.max(left, 0)));
    });
    live().querySelectorAll("[data-count-from]").forEach((el) => {
      el.textContent = Number(el.dataset.countFrom) + Math.ceil(thinking * Number(el.dataset.perS || 1));
    });
  }

  function tick() {
    const clock = live().querySelector("[data-clock]");
    if (!clock || live().dataset.status !== "running") return;
    thinking += 1;
    clock.textContent = `${thinking} s`;
    countdowns();
    const limit = Number(live().dataset.timeLimit);
    if (limit && thinking > limit && !flagged) {
      flagged = true;
      send({ type: "flag" });
    }
  }

  // A long game's move list scrolls; the newest move stays in view.
  function showLatestMove() {
    const list = live().querySelector(".move-list");
    if (list) list.scrollTop = list.scrollHeight;
  }

  function swap(html) {
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    live().replaceWith(template.content.firstElementChild);
    showLatestMove();
    thinking = Number(live().dataset.thinking) || 0;
    countdowns();
    flagged = false;
    selected = [];
    highlight();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${root.dataset.wsPath}`);
    socket.addEventListener("open", () => {
      retries = 0;
      setConnection("connected", "ok");
    });
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "fragment") swap(message.html);
      else if (message.type === "error") showError(message.message);
    });
    socket.addEventListener("close", (event) => {
      const delay = Math.min(8000, 250 * 2 ** retries++);
      // 4429: refused by a limit on open connections; its reason says which one.
      const why = event.code === 4429 ? event.reason : "connection lost";
      setConnection(`${why}; reconnecting in ${Math.round(delay / 100) / 10} s…`, "lost");
      setTimeout(connect, delay);
    });
  }

  root.addEventListener("click", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell && root.contains(cell)) clickCell(cell.dataset.cell);
    if (event.target.closest("[data-cancel-move]")) {
      selected = [];
      errorBox.hidden = true;
      highlight();
    }
    if (event.target.closest("[data-resign]") && window.confirm("Resign this game?")) send({ type: "resign" });
  });
  root.addEventListener("keydown", (event) => {
    const cell = event.target.closest("[data-cell]");
    if (cell && cell.tagName !== "BUTTON" && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      clickCell(cell.dataset.cell);
    }
  });
  root.addEventListener("submit", (event) => {
    const form = event.target.closest("[data-move-form]");
    if (!form) return;
    event.preventDefault();
    const input = form.querySelector("[name=move]"); // a text input, or a textarea (Diplomacy: orders and messages)
    let text = input.value.trim();
    // A chat box takes plain text: what does not read as one of its commands (data-move-command, a regular
    // expression) is sent after data-move-prefix ("say "), as the game's notation wants it.
    const command = form.dataset.moveCommand;
    if (text && command && !new RegExp(command, "i").test(text)) text = `${form.dataset.movePrefix}${text}`;
    if (text) sendMove(text);
    input.value = "";
  });

  thinking = Number(live().dataset.thinking) || 0;
  countdowns();
  highlight();
  setInterval(tick, 1000);
  showLatestMove();
  connect();
})();
