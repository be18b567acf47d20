// Sovereign in the browser (docs/web.md): the 7x7 board from above, each tower drawn as
// stacked stone levels (1 to 3, each smaller and darker, its number in the corner) and the
// pieces standing on top. P1 (seat 0, upper-case letters, light pieces) sets up on ranks 1-2
// and races for ranks 6-7; P2 (dark pieces) the other way. The view is documented in
// boardlab/games/sovereign/view.py and docs/rules/sovereign.md.

import { h, liftWriting, replace, svg } from "/js/dom.js";

const SIZE = 7;
const FILES = "abcdefg";
const CELL = 80;
const LEFT = 30;
const TOP = 8;
const BOARD = SIZE * CELL;
const GOAL_BAR = 22; // the band right of the board naming whose goal each rank is

const SIDES = [
  { fill: "#fdf8ea", line: "#5a4a2a", ink: "#2a2113" }, // P1: light
  { fill: "#26385e", line: "#0b1430", ink: "#ffffff" }, // P2: dark
];
const KINDS = { S: "Sovereign", D: "Diplomat", C: "Consultant", B: "Contractor (builder)" };
// a tower's levels: inset from the square's edge, stone colour, outline
const LEVELS = [
  { inset: 6, fill: "#d8ccb0", line: "#8f7d58" },
  { inset: 14, fill: "#bba57a", line: "#7a6440" },
  { inset: 22, fill: "#8d7148", line: "#54401f" },
];

/**
 * Placements: the square (and, for the third Contractor, then its tower's square); the
 * Sovereign, Diplomat and Consultants: the piece, then where it goes; a Contractor: the
 * piece, where it steps, then where it builds.
 */
export function clickPath(move) {
  if (move.type === "placement") return move.tower ? [move.square, move.tower] : [move.square];
  if (move.type === "contractor_move") return [move.from, move.to, move.build];
  return [move.from, move.to];
}

export function seatColours() {
  return SIDES.map((side) => side.fill);
}

function squareXY(name) {
  return { x: LEFT + FILES.indexOf(name[0]) * CELL, y: TOP + (SIZE - Number(name.slice(1))) * CELL };
}

export function mount(element) {
  const root = h("div", { class: "sovereign" });
  replace(element, root);
  return {
    render(message, ui) {
      replace(root, score(message), drawBoard(message.view.board, ui), legend(message, ui));
    },
  };
}

function seatOf(letter) {
  return letter === letter.toUpperCase() ? 0 : 1;
}

function score(message) {
  const board = message.view.board;
  return h("div", { class: "bl-score" },
    board.seat_names.map((name, seat) =>
      h("span", { class: `sovereign-score${message.view.to_move === seat ? " to-move" : ""}`, dataset: { seat } },
        h("span", { class: "bl-chip", style: `background:${SIDES[seat].fill}` }),
        h("b", {}, name),
        ` goal: ranks ${board.goal_ranks[seat].join("-")}`,
        board.captured[seat].length ? ` · lost ${board.captured[seat].join(" ")}` : "",
        board.threatened[seat] ? h("b", { class: "sovereign-danger" }, " · Sovereign attacked!") : "",
      ),
    ),
    h("span", { class: "muted" }, board.phase === "setup"
      ? `setup: placement ${board.setup.placements + 1} of 14`
      : `supply: ${board.supply.lower} lower, ${board.supply.top} top pieces · ${board.play_ply} moves of play since the set-up; a draw after ${board.ply_limit}`),
  );
}

/** The squares the last move touched, from its structure (where it came from, went, built). */
function lastSquares(entry) {
  const move = entry && entry.by !== "chance" ? entry.move : null;
  if (!move) return [];
  return ["square", "tower", "from", "to", "build"].map((field) => move[field]).filter((square) => typeof square === "string");
}

/**
 * The part of a move already clicked, drawn as it will stand (rule 1.6): once a Contractor's step
 * is chosen (`ui.selected` is [from, to, ...], the picker's clicks so far) it stands on `to` and
 * `from` is empty while the player chooses where it builds; once the third Contractor's square
 * is chosen in the set-up it stands there while its tower's square is chosen. Null otherwise (no
 * move in progress, a move of one click left, a replay). Returns {from, to, letter}: `from` is
 * null for a placement.
 */
export function previewOf(board, ui) {
  const selected = ui.selected || [];
  if (ui.replay || !selected.length) return null;
  if (board.phase === "setup") {
    const setup = board.setup;
    if (!setup || !setup.with_tower || pieceOn(board, selected[0])) return null;
    const letter = setup.seat === 0 ? setup.piece.toUpperCase() : setup.piece.toLowerCase();
    return { from: null, to: selected[0], letter };
  }
  if (selected.length < 2 || selected[0] === selected[1]) return null;
  const letter = pieceOn(board, selected[0]);
  if (!letter || letter.toUpperCase() !== "B" || pieceOn(board, selected[1])) return null;
  return { from: selected[0], to: selected[1], letter };
}

function pieceOn(board, name) {
  const row = SIZE - Number(name.slice(1));
  const file = FILES.indexOf(name[0]);
  return row >= 0 && row < SIZE && file >= 0 ? board.pieces[row][file] || "" : "";
}

function drawBoard(board, ui) {
  const preview = previewOf(board, ui);
  // while a Contractor's move is in progress the piece is selected where it stepped to (and a
  // build square once clicked, while the page asks how many levels); where it came from is empty
  // (and may be a build target, marked as one), never drawn as selected
  const selected = preview && preview.from ? [preview.to, ...ui.selected.slice(2)] : ui.selected;
  const root = svg("svg", {
    class: "bl-board-svg sovereign-board",
    viewBox: `0 0 ${LEFT + BOARD + GOAL_BAR + 8} ${TOP + BOARD + 30}`,
    role: "img",
    "aria-label": "the Sovereign board",
  });
  const last = lastSquares(ui.lastMove);
  const protectedSquares = new Set(board.protected.flat());
  const goals = board.goal_squares.map((squares) => new Set(squares));
  for (let row = 0; row < SIZE; row++) {
    const rank = SIZE - row;
    root.append(svg("text", { x: LEFT - 14, y: TOP + row * CELL + CELL / 2 + 5, class: "sovereign-coord", "text-anchor": "middle" }, rank));
    for (let file = 0; file < SIZE; file++) {
      const name = FILES[file] + rank;
      const moving = !preview ? null : name === preview.to ? "arrives" : name === preview.from ? "leaves" : null;
      const letter = moving === "arrives" ? preview.letter : moving === "leaves" ? "" : board.pieces[row][file];
      root.append(square(name, board.heights[row][file], letter, {
        ui, selected, moving, last, board, guarded: protectedSquares.has(name), goal: goals[0].has(name) ? 0 : goals[1].has(name) ? 1 : null,
      }));
    }
  }
  for (let file = 0; file < SIZE; file++) {
    root.append(svg("text", { x: LEFT + file * CELL + CELL / 2, y: TOP + BOARD + 21, class: "sovereign-coord", "text-anchor": "middle" }, FILES[file]));
  }
  board.goal_ranks.forEach((ranks, seat) => root.append(goalBand(ranks, seat, board.seat_names[seat])));
  return liftWriting(root);
}

function goalBand(ranks, seat, name) {
  const top = TOP + (SIZE - Math.max(...ranks)) * CELL;
  const height = ranks.length * CELL;
  const x = LEFT + BOARD + 4;
  return svg("g", { class: "sovereign-goal-band" },
    svg("rect", { x, y: top + 2, width: GOAL_BAR - 4, height: height - 4, rx: 4, fill: SIDES[seat].fill, stroke: SIDES[seat].line }),
    svg("text", {
      x: x + (GOAL_BAR - 4) / 2, y: top + height / 2, fill: SIDES[seat].ink, class: "sovereign-goal-text",
      "text-anchor": "middle", "dominant-baseline": "central", transform: `rotate(-90 ${x + (GOAL_BAR - 4) / 2} ${top + height / 2})`,
    }, `${name}'s goal`));
}

function square(name, height, letter, { ui, selected: chosen, moving, last, board, guarded, goal }) {
  const { x, y } = squareXY(name);
  const isTarget = ui.targets.has(name);
  const selected = chosen.includes(name);
  const stage = ui.selected.length;
  const note = { arrives: " (moving here)", leaves: " (the Contractor steps away)" }[moving] || "";
  const group = svg("g", {
    class: `sovereign-square${isTarget ? (stage ? " bl-target" : " bl-movable") : ""}${selected ? " bl-selected" : ""}${moving ? ` sovereign-preview-${moving}` : ""}`,
    dataset: { key: name, height, piece: letter, ...(moving ? { preview: moving } : {}) },
    tabindex: isTarget ? 0 : null,
    role: isTarget ? "button" : null,
    "aria-label": `${name}: ${height ? `tower of ${height} level${height > 1 ? "s" : ""}` : "open ground"}${letter ? `, ${board.seat_names[seatOf(letter)]}'s ${KINDS[letter.toUpperCase()]}` : ""}${note}`,
  });
  group.append(svg("rect", { x, y, width: CELL, height: CELL, class: "sovereign-cell", fill: "#ece6d3", stroke: "#c9bd9c" }));
  if (last.includes(name)) group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "#4aa3ff", "fill-opacity": 0.3, class: "bl-last" }));
  if (selected) group.append(svg("rect", { x: x + 1, y: y + 1, width: CELL - 2, height: CELL - 2, fill: "#f2b600", "fill-opacity": 0.35 }));
  for (let level = 0; level < height; level++) {
    const { inset, fill, line } = LEVELS[level];
    // a darker edge below and right of each level reads as its height
    group.append(svg("rect", { x: x + inset + 2, y: y + inset + 3, width: CELL - 2 * inset, height: CELL - 2 * inset, rx: 5, fill: "#000", "fill-opacity": 0.18 }));
    group.append(svg("rect", { x: x + inset, y: y + inset, width: CELL - 2 * inset, height: CELL - 2 * inset, rx: 5, fill, stroke: line, "stroke-width": 1.5 }));
  }
  if (height) group.append(svg("text", { x: x + CELL - 5, y: y + CELL - 6, class: "sovereign-level", "text-anchor": "end" }, height));
  if (goal !== null) group.append(star(x + 11, y + 12, SIDES[goal]));
  if (letter) group.append(piece(x + CELL / 2, y + CELL / 2, letter, board, guarded, moving === "arrives"));
  group.append(highlight(x, y, name, { isTarget, selected, stage, moves: ui.targets.get(name) || [], letter }));
  return group;
}

function piece(cx, cy, letter, board, guarded, previewed = false) {
  const seat = seatOf(letter);
  const side = SIDES[seat];
  const kind = letter.toUpperCase();
  const group = svg("g", { class: `sovereign-piece${previewed ? " sovereign-preview-piece" : ""}` });
  if (kind === "S" && board.threatened[seat]) group.append(svg("circle", { cx, cy, r: 25, fill: "none", stroke: "#d32f2f", "stroke-width": 4, class: "sovereign-threat" }));
  group.append(svg("circle", { cx: cx + 1.5, cy: cy + 2.5, r: 18, fill: "#000", "fill-opacity": 0.3 }));
  group.append(svg("circle", { cx, cy, r: 18, fill: side.fill, stroke: side.line, "stroke-width": 2 }));
  if (kind === "S") group.append(svg("circle", { cx, cy, r: 14, fill: "none", stroke: "#d4a017", "stroke-width": 2.5 }));
  group.append(svg("text", { x: cx, y: cy + 6.5, class: "sovereign-letter", fill: side.ink, "text-anchor": "middle" }, kind));
  if (guarded) {
    group.append(svg("path", {
      d: `M${cx + 12},${cy + 6} h12 v6 c0,6 -6,9 -6,9 c0,0 -6,-3 -6,-9 Z`,
      fill: "#2f6fd6", stroke: "#fff", "stroke-width": 1, class: "sovereign-shield",
    }));
  }
  return group;
}

function star(cx, cy, side) {
  const points = [];
  for (let i = 0; i < 10; i++) {
    const radius = i % 2 ? 3.5 : 8;
    const angle = (Math.PI / 5) * i - Math.PI / 2;
    points.push(`${(cx + radius * Math.cos(angle)).toFixed(1)},${(cy + radius * Math.sin(angle)).toFixed(1)}`);
  }
  return svg("polygon", { points: points.join(" "), fill: side.fill, stroke: side.line, "stroke-width": 1.2, class: "sovereign-goal-star" });
}

function highlight(x, y, name, { isTarget, selected, stage, moves, letter }) {
  const group = svg("g", { "pointer-events": "none" });
  if (selected) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: "none", stroke: "#e0a800", "stroke-width": 4 }));
  } else if (isTarget && !stage && moves[0].type !== "placement") {
    group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL - 6, height: CELL - 6, rx: 5, fill: "none", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": "7 5" }));
  } else if (isTarget) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL - 4, height: CELL - 4, rx: 4, fill: "#f2b600", "fill-opacity": 0.22, stroke: "#e0a800", "stroke-width": 2 }));
    const move = moves[0];
    const building = (move.type === "contractor_move" && stage === 2) || (move.type === "placement" && stage === 1);
    if (building) group.append(badge(x + CELL / 2, y + CELL / 2, "+1", "build a level here"));
    else if (move.captures === name) group.append(badge(x + CELL / 2, y + CELL / 2, "×", "capture"));
    else if (move.type === "placement") group.append(ghost(x + CELL / 2, y + CELL / 2, move.piece));
    else if (!letter) group.append(svg("circle", { cx: x + CELL / 2, cy: y + CELL / 2, r: 9, fill: "#e0a800", "fill-opacity": 0.85 }));
  }
  return group;
}

function ghost(cx, cy, kind) {
  // the piece about to be placed, faint, where it could go
  return svg("g", { class: "sovereign-ghost", opacity: 0.55 },
    svg("circle", { cx, cy, r: 18, fill: "#fff8df", stroke: "#7a5a00", "stroke-width": 2, "stroke-dasharray": "4 3" }),
    svg("text", { x: cx, y: cy + 6, "text-anchor": "middle", class: "sovereign-letter", fill: "#7a5a00" }, kind));
}

function badge(cx, cy, label, title) {
  return svg("g", { class: "sovereign-badge" },
    svg("title", {}, title),
    svg("circle", { cx, cy, r: 14, fill: "#e0a800", stroke: "#7a5a00" }),
    svg("text", { x: cx, y: cy + 5.5, "text-anchor": "middle", class: "sovereign-badge-text" }, label));
}

function legend(message, ui) {
  const board = message.view.board;
  const names = board.seat_names;
  const pieceChip = (seat, kind) => svg("svg", { width: 22, height: 22, viewBox: "0 0 22 22" },
    svg("circle", { cx: 11, cy: 11, r: 10, fill: SIDES[seat].fill, stroke: SIDES[seat].line, "stroke-width": 1.5 }),
    svg("text", { x: 11, y: 15, "text-anchor": "middle", fill: SIDES[seat].ink, "font-size": 11, "font-weight": 700 }, kind));
  const levelChip = (height) => svg("svg", { width: 22, height: 22, viewBox: "0 0 22 22" },
    LEVELS.slice(0, height).map(({ fill, line }, level) => svg("rect", { x: 1 + level * 3, y: 1 + level * 3, width: 20 - level * 6, height: 20 - level * 6, rx: 2, fill, stroke: line })));
  let hint = "";
  if (board.phase === "setup" && board.setup) {
    const item = KINDS[board.setup.piece] || board.setup.piece;
    const tower = { S: " on its 3-level tower", D: " on its 2-level tower" }[board.setup.piece] || "";
    hint = `Setup: ${names[board.setup.seat]} places the ${item}${tower} on an empty square of their back two ranks${board.setup.with_tower ? ", then its 1-level tower next to it" : ""}.`;
  }
  if (ui.interactive) {
    if (!ui.selected.length) hint += board.phase === "setup" ? " Click a highlighted square." : " Your move: click one of your pieces (dashed outline).";
    else if (ui.selected.length === 1) hint += board.phase === "setup" ? " Click where its tower goes." : " Click a highlighted square to move there. Esc cancels.";
    else {
      const preview = previewOf(board, ui);
      hint += preview && preview.from
        ? ` The Contractor steps from ${preview.from} to ${preview.to}: click where it builds (+1 level, highlighted). Esc cancels.`
        : " Click where the Contractor builds (+1 level).";
    }
  }
  return h("div", { class: "sovereign-legend" },
    h("ul", { class: "bl-legend" },
      Object.entries(KINDS).map(([kind, label]) => h("li", {}, pieceChip(0, kind), pieceChip(1, kind), label)),
      [1, 2, 3].map((height) => h("li", {}, levelChip(height), `tower, ${height} level${height > 1 ? "s" : ""}`)),
      h("li", {}, svg("svg", { width: 22, height: 22 }, star(11, 11, SIDES[0])), "3-level tower in a goal: the Sovereign wins there"),
      h("li", {}, svg("svg", { width: 22, height: 22 }, svg("path", { d: "M5,3 h12 v6 c0,6 -6,9 -6,9 c0,0 -6,-3 -6,-9 Z", fill: "#2f6fd6" })), "shielded by its Diplomat"),
      h("li", {}, svg("svg", { width: 22, height: 22 }, svg("circle", { cx: 11, cy: 11, r: 9, fill: "none", stroke: "#d32f2f", "stroke-width": 3 })), "Sovereign under attack"),
      h("li", {}, svg("svg", { width: 22, height: 16 }, svg("rect", { x: 1, y: 1, width: 20, height: 14, fill: "#4aa3ff", "fill-opacity": 0.4 })), "last move"),
    ),
    h("p", { class: "bl-hint" }, `${names[0]}: light pieces, ${names[1]}: dark. Bring your Sovereign onto a 3-level tower in your goal ranks to win.${hint ? " " + hint : ""}`),
  );
}
