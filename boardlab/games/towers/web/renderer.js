// Towers in the browser (docs/web.md): the 7x7 board seen from above and a little in front,
// each stack drawn as discs in its pieces' colours, bottom to top, with its height written
// beside it; castles on green, crowns in gold. The view's board part is documented in
// docs/rules/towers.md (the view); squares are named a1..g7.

import { h, liftWriting, replace, svg } from "/js/dom.js";

const SIZE = 7;
const FILES = "abcdefg";
const CELL = 80;
const LEFT = 30; // room for the rank numbers
const TOP = 8;
const BOARD = SIZE * CELL;
const DISC = { width: 54, rise: 10, ry: 7 };

// per colour letter: the disc's top, its side, its outline, and the letter's ink
const COLOURS = {
  W: { top: "#fbfaf4", side: "#cbc5b2", line: "#5f5a4d", ink: "#222" },
  B: { top: "#3b3b3b", side: "#161616", line: "#000", ink: "#fff" },
  U: { top: "#4a86e8", side: "#2a5cae", line: "#173b75", ink: "#fff" },
  R: { top: "#e0483e", side: "#a52c25", line: "#6d1712", ink: "#fff" },
  C: { top: "#3fa35b", side: "#277a3f", line: "#15502a", ink: "#fff" },
};
const ARROWS = { N: [0, -1], E: [1, 0], S: [0, 1], W: [-1, 0] };

/** A build is clicked on its stack twice; a push on the stack, then on the square it falls towards. */
export function clickPath(move) {
  return move.type === "build" ? [move.square, move.square] : [move.from, move.to];
}

/** The colour of each seat's pieces, for the players panel. */
export function seatColours(view) {
  return [...view.board.letters].map((letter) => COLOURS[letter].top);
}

function squareXY(name) {
  const file = FILES.indexOf(name[0]);
  const rank = Number(name.slice(1));
  return { x: LEFT + file * CELL, y: TOP + (SIZE - rank) * CELL };
}

/** The last move's square and arrow, from its structure (a build's square, a push's origin
 * and direction); null where the move is not shown. */
function lastMoveMarks(entry) {
  const move = entry && entry.move;
  if (!move) return null;
  if (move.type === "build") return { square: move.square, action: "+" };
  if (move.type === "push") return { square: move.from, action: move.direction };
  return null;
}

export function mount(element) {
  const root = h("div", { class: "towers" });
  replace(element, root);
  return {
    render(message, ui) {
      const board = message.view.board;
      replace(root, score(message), drawBoard(board, ui), legend(board, ui, message));
    },
  };
}

function score(message) {
  const board = message.view.board;
  const names = message.view.seat_names;
  return h("div", { class: "bl-score" },
    names.map((name, seat) =>
      h("span", { class: `towers-score${message.view.to_move === seat ? " to-move" : ""}`, dataset: { seat } },
        h("span", { class: "bl-chip", style: `background:${COLOURS[board.letters[seat]].top}` }),
        h("b", {}, name),
        ` castles ${board.castle_counts[seat]}/${board.castles_to_win} · crowns ${board.crown_counts[seat]}/${board.crowns_to_win} · ${board.reserves[seat]} in reserve`,
      ),
    ),
  );
}

function drawBoard(board, ui) {
  const castles = new Set(board.castles);
  const crowned = board.crowned;
  const selected = ui.selected[0] || null;
  const last = lastMoveMarks(ui.lastMove);
  const root = svg("svg", {
    class: "bl-board-svg towers-board",
    viewBox: `0 0 ${LEFT + BOARD + 8} ${TOP + BOARD + 30}`,
    role: "img",
    "aria-label": "the Towers board",
  });
  const overlay = svg("g", { class: "towers-overlay", "pointer-events": "none" });
  for (let row = 0; row < SIZE; row++) {
    const rank = SIZE - row;
    root.append(svg("text", { x: LEFT - 14, y: TOP + row * CELL + CELL / 2 + 5, class: "towers-coord", "text-anchor": "middle" }, rank));
    for (let file = 0; file < SIZE; file++) {
      const name = FILES[file] + rank;
      const stack = board.stacks[row][file];
      root.append(square(name, stack, { castle: castles.has(name), crown: crowned[name], ui, selected, last }));
    }
  }
  for (let file = 0; file < SIZE; file++) {
    root.append(svg("text", { x: LEFT + file * CELL + CELL / 2, y: TOP + BOARD + 21, class: "towers-coord", "text-anchor": "middle" }, FILES[file]));
  }
  if (last) overlay.append(lastMoveArrow(last));
  if (selected) for (const [key, moves] of ui.targets) if (key !== selected) overlay.append(pushArrow(selected, key, moves[0].direction));
  root.append(overlay);
  return liftWriting(root);
}

function square(name, stack, { castle, crown, ui, selected, last }) {
  const { x, y } = squareXY(name);
  const dark = (FILES.indexOf(name[0]) + Number(name.slice(1))) % 2 === 0;
  const isTarget = ui.targets.has(name);
  const classes = ["towers-square"];
  if (isTarget) classes.push(ui.selected.length ? "bl-target" : "bl-movable");
  if (name === selected) classes.push("bl-selected");
  const group = svg("g", {
    class: classes.join(" "),
    dataset: { key: name, height: stack.length, top: stack.at(-1) || "" },
    tabindex: isTarget ? 0 : null,
    role: isTarget ? "button" : null,
    "aria-label": describe(name, stack, castle, crown),
  });
  group.append(svg("rect", { x, y, width: CELL, height: CELL, class: "towers-cell", stroke: "#c4b48f", "stroke-width": 1, fill: castle ? (dark ? "#cfe6d2" : "#dcefdf") : dark ? "#e3d5b8" : "#efe6d2" }));
  if (last && last.square === name) group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, class: "bl-last", fill: "#4aa3ff", "fill-opacity": 0.28 }));
  // highlights: the fill under the stack, the outline over it
  const pushTarget = isTarget && ui.selected.length && name !== selected;
  if (name === selected || pushTarget) group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "#f2b600", "fill-opacity": name === selected ? 0.35 : 0.28 }));
  if (castle) group.append(castleMark(x + 4, y + 4));
  if (crown !== undefined) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, fill: "none", stroke: "#d4a017", "stroke-width": 4, rx: 4 }));
  }
  group.append(drawStack(stack, x + CELL / 2, y + CELL - 12));
  if (stack.length) {
    group.append(svg("text", { x: x + CELL - 8, y: y + 17, class: "towers-height", "text-anchor": "end" }, stack.length));
  }
  if (crown !== undefined) group.append(crownMark(x + CELL / 2, y + CELL - 12 - stack.length * DISC.rise - DISC.ry - 4));
  if (name === selected) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, class: "towers-select", fill: "none", stroke: "#e0a800", "stroke-width": 4 }));
    if (isTarget) group.append(buildBadge(x, y));
  } else if (isTarget && !ui.selected.length) {
    group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5, fill: "none", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": "7 5" }));
  } else if (pushTarget) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: "none", stroke: "#e0a800", "stroke-width": 2 }));
  }
  return group;
}

function describe(name, stack, castle, crown) {
  const pieces = [...stack].map((letter) => (letter === "C" ? "castle" : letter)).join(" ");
  return `${name}${castle ? " (castle)" : ""}${crown !== undefined ? " (crowned)" : ""}: ${stack.length ? `height ${stack.length}, bottom to top ${pieces}` : "empty"}`;
}

/** The stack as discs, bottom to top; the top disc carries its colour's letter. */
function drawStack(stack, cx, bottom) {
  const group = svg("g", { class: "towers-stack" });
  const half = DISC.width / 2;
  [...stack].forEach((letter, level) => {
    const colour = COLOURS[letter] || COLOURS.C;
    const low = bottom - level * DISC.rise;
    const high = low - DISC.rise;
    group.append(svg("path", {
      d: `M${cx - half},${high} L${cx - half},${low} A${half},${DISC.ry} 0 0 0 ${cx + half},${low} L${cx + half},${high} Z`,
      fill: colour.side, stroke: colour.line, "stroke-width": 1,
    }));
    group.append(svg("ellipse", { cx, cy: high, rx: half, ry: DISC.ry, fill: colour.top, stroke: colour.line, "stroke-width": 1 }));
    if (level === stack.length - 1 && letter !== "C") {
      group.append(svg("text", { x: cx, y: high + 4, class: "towers-letter", fill: colour.ink, "text-anchor": "middle" }, letter));
    }
  });
  return group;
}

function castleMark(x, y) {
  // a small green turret in the corner: this square is a castle (its green piece is the bottom disc)
  return svg("path", {
    d: `M${x},${y + 16} v-11 h3 v3 h3 v-3 h3 v3 h3 v-3 h3 v11 Z`,
    fill: "#2f8f4e", stroke: "#15502a", "stroke-width": 1, class: "towers-castle-mark",
  });
}

function crownMark(cx, y) {
  return svg("path", {
    d: `M${cx - 12},${y} l2,-12 l5,7 l5,-10 l5,10 l5,-7 l2,12 Z`,
    fill: "#f5c518", stroke: "#8a6d00", "stroke-width": 1.2, class: "towers-crown",
  });
}

function buildBadge(x, y) {
  return svg("g", { class: "towers-build-badge" },
    svg("circle", { cx: x + 15, cy: y + 15, r: 11, fill: "#e0a800", stroke: "#7a5a00" }),
    svg("text", { x: x + 15, y: y + 21.5, "text-anchor": "middle", class: "towers-plus" }, "+"));
}

function arrow(fromX, fromY, dx, dy, colour, length) {
  const tipX = fromX + dx * length;
  const tipY = fromY + dy * length;
  const side = 9;
  return svg("g", {},
    svg("line", { x1: fromX, y1: fromY, x2: tipX - dx * 8, y2: tipY - dy * 8, stroke: colour, "stroke-width": 6, "stroke-linecap": "round" }),
    svg("path", { d: `M${tipX},${tipY} L${tipX - dx * 14 - dy * side},${tipY - dy * 14 - dx * side} L${tipX - dx * 14 + dy * side},${tipY - dy * 14 + dx * side} Z`, fill: colour }));
}

function pushArrow(from, to, direction) {
  const { x, y } = squareXY(from);
  const [dx, dy] = ARROWS[direction];
  // from the stack's edge into the neighbour it falls towards
  return svg("g", { class: "towers-push-arrow", opacity: 0.9 }, arrow(x + CELL / 2 + dx * 30, y + CELL / 2 + dy * 30, dx, dy, "#e0a800", 42));
}

function lastMoveArrow(last) {
  if (last.action === "+") return svg("g");
  const { x, y } = squareXY(last.square);
  const [dx, dy] = ARROWS[last.action];
  return svg("g", { class: "towers-last-arrow", opacity: 0.85 }, arrow(x + CELL / 2 + dx * 30, y + CELL / 2 + dy * 30, dx, dy, "#1f78d1", 42));
}

function legend(board, ui, message) {
  const chip = (colour) => svg("svg", { width: 22, height: 16, viewBox: "0 0 22 16" },
    svg("rect", { x: 1, y: 5, width: 20, height: 6, fill: colour.side, stroke: colour.line }),
    svg("ellipse", { cx: 11, cy: 5, rx: 10, ry: 4, fill: colour.top, stroke: colour.line }));
  const names = message.view.seat_names;
  let hint = "";
  if (ui.interactive && !ui.selected.length) hint = "Your move: click one of your stacks (dashed outline).";
  else if (ui.interactive) {
    const selected = ui.selected[0];
    const builds = ui.targets.has(selected);
    const pushes = [...ui.targets.keys()].some((key) => key !== selected);
    const ways = [builds && "click the same stack again to build on it (+1 piece)", pushes && "click a highlighted neighbour to push the stack that way"];
    hint = `${ways.filter(Boolean).join(", or ")}. Esc cancels.`;
    hint = hint[0].toUpperCase() + hint.slice(1);
  }
  return h("div", { class: "towers-legend" },
    h("ul", { class: "bl-legend" },
      [...board.letters].map((letter, seat) => h("li", {}, chip(COLOURS[letter]), `${names[seat]} (${letter})`)),
      h("li", {}, chip(COLOURS.C), "castle piece (green, at the bottom)"),
      h("li", {}, svg("svg", { width: 22, height: 16, viewBox: "0 0 22 16" }, svg("path", { d: "M1,14 l2,-12 l5,7 l3,-8 l3,8 l5,-7 l2,12 Z", fill: "#f5c518", stroke: "#8a6d00" })), "crowned castle (5 high)"),
      h("li", {}, h("b", {}, "3"), "stack height; the top colour controls the square"),
      h("li", {}, svg("svg", { width: 22, height: 16 }, svg("rect", { x: 1, y: 1, width: 20, height: 14, fill: "#4aa3ff", "fill-opacity": 0.4 })), "last move"),
    ),
    h("p", { class: "bl-hint" }, `To win: ${board.castles_to_win} castles, or ${board.crowns_to_win} crowned ones. ${hint}`),
  );
}
