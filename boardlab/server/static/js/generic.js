// The generic renderer: every game is playable before it has a board of its own. It shows the
// board part of the view as readable text and every legal move as a button.

import { h, replace } from "./dom.js";

// past this many moves a filter box shows, and only the first SHOWN moves are buttons until it is used
const MANY = 60;
const SHOWN = 120;

/** No board to click on: every move is a button here (or typed in the notation box). */
export function clickPath() {
  return null;
}

export function mount(element, host) {
  let filter = "";
  const board = h("pre", { class: "generic-board", "aria-label": "the board, as the server describes it" });
  const moves = h("div", { class: "generic-moves" });
  const search = h("input", {
    type: "search",
    class: "generic-filter",
    placeholder: "filter the moves",
    "aria-label": "filter the moves",
    oninput: () => {
      filter = search.value.trim().toLowerCase();
      draw();
    },
  });
  let last = null;
  replace(
    element,
    h("div", { class: "generic" },
      h("p", { class: "generic-note" }, "This game has no board drawing yet: its position is shown as the server describes it, and its moves as buttons."),
      h("details", { class: "generic-details", open: true }, h("summary", {}, "Position"), board),
      h("h3", {}, "Your moves"),
      search,
      moves,
    ),
  );

  function draw() {
    if (!last) return;
    const { message, ui } = last;
    board.textContent = describe(message.view.board);
    const legal = ui.interactive ? message.legal_moves : [];
    const shown = legal.filter((move) => !filter || move.notation.toLowerCase().includes(filter));
    search.hidden = legal.length <= MANY;
    const groups = new Map();
    const limit = filter ? 400 : SHOWN;
    for (const move of shown.slice(0, limit)) {
      if (!groups.has(move.type)) groups.set(move.type, []);
      groups.get(move.type).push(move);
    }
    replace(
      moves,
      legal.length ? null : h("p", { class: "muted" }, ui.replay ? "A replay: no moves to make." : "No move of yours now."),
      [...groups].map(([type, list]) =>
        h("div", { class: "generic-group" },
          h("span", { class: "generic-type" }, type.replaceAll("_", " ")),
          list.map((move) => h("button", { class: "move-button", dataset: { move: move.notation }, onclick: () => host.play(move.notation) }, move.notation)),
        ),
      ),
      shown.length > limit ? h("p", { class: "muted" }, `${shown.length - limit} more: filter them, or type the move`) : null,
    );
  }

  return {
    render(message, ui) {
      last = { message, ui };
      draw();
    },
  };
}

/** The board part of a view as indented text: short lists stay on one line. */
export function describe(value, indent = "") {
  if (Array.isArray(value)) {
    const flat = JSON.stringify(value);
    if (flat.length <= 72) return flat;
    return "[\n" + value.map((item) => indent + "  " + describe(item, indent + "  ")).join(",\n") + "\n" + indent + "]";
  }
  if (value && typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return "{}";
    const flat = JSON.stringify(value);
    if (flat.length <= 72) return flat;
    return entries.map(([key, item]) => `${indent}${key}: ${describe(item, indent + "  ").trimStart()}`).join("\n");
  }
  return JSON.stringify(value);
}
