// Overseer in the browser (docs/web.md): the board as the disc it is, 12 sectors A-L clockwise
// from 12 o'clock and 8 rings, index 1 at the centre and 8 at the rim, with the seam between
// L and A marked (rings go on across it). Pieces are discs with their kind's letter, White
// light and Black dark. The view is documented in boardlab/games/overseer/view.py.

import { h, replace, svg } from "/js/dom.js";

const SIZE = 760;
const CENTRE = SIZE / 2;
const HOLE = 62; // nothing crosses the centre (rule 1.3): it is left empty
const RING = 36;
const SECTOR_DEGREES = 30;
const PIECE = 14;

const SIDES = [
  { fill: "#fbf8ef", line: "#3b3b3b", ink: "#1b1b1b" }, // White
  { fill: "#2a2a2a", line: "#000000", ink: "#ffffff" }, // Black
];
const KINDS = [
  ["O", "Overseer (capture it to win)"],
  ["M", "Commander"],
  ["G", "General"],
  ["C", "Captain"],
  ["P", "Pilot"],
  ["S", "Soldier"],
  ["B", "Barricade (cannot be captured)"],
];

/** Every move: click the piece, then the square it goes to. */
export function clickPath(move) {
  return [move.from, move.to];
}

export function seatColours() {
  return SIDES.map((side) => side.fill);
}

// sector s spans the angles [-90 + 30 s, -90 + 30 (s + 1)] degrees, clockwise on the screen
function point(radius, degrees) {
  const radians = (degrees * Math.PI) / 180;
  return [CENTRE + radius * Math.cos(radians), CENTRE + radius * Math.sin(radians)];
}

function cellGeometry(sector, index) {
  const inner = HOLE + (index - 1) * RING;
  const outer = inner + RING;
  const start = -90 + sector * SECTOR_DEGREES;
  const end = start + SECTOR_DEGREES;
  const [ax, ay] = point(outer, start);
  const [bx, by] = point(outer, end);
  const [cx, cy] = point(inner, end);
  const [dx, dy] = point(inner, start);
  const path = `M${ax},${ay} A${outer},${outer} 0 0 1 ${bx},${by} L${cx},${cy} A${inner},${inner} 0 0 0 ${dx},${dy} Z`;
  const [mx, my] = point((inner + outer) / 2, start + SECTOR_DEGREES / 2);
  return { path, mx, my };
}

function parse(name, sectors) {
  return { sector: sectors.indexOf(name[0]), index: Number(name.slice(1)) };
}

export function mount(element) {
  const root = h("div", { class: "overseer" });
  replace(element, root);
  return {
    render(message, ui) {
      replace(root, score(message), drawBoard(message.view.board, ui), legend(message, ui));
    },
  };
}

function score(message) {
  const board = message.view.board;
  return h("div", { class: "bl-score" },
    board.seat_names.map((name, seat) =>
      h("span", { class: `overseer-score${message.view.to_move === seat ? " to-move" : ""}`, dataset: { seat } },
        h("span", { class: "bl-chip", style: `background:${SIDES[seat].fill}` }),
        h("b", {}, name),
        ` ${Object.values(board.material[seat]).reduce((sum, count) => sum + count, 0)} pieces`,
        board.overseer_in_danger[seat] ? h("b", { class: "overseer-danger" }, " · Overseer attacked!") : "",
      ),
    ),
    h("span", { class: "muted" }, `${board.plies_since_capture} of ${board.no_capture_limit} moves without a capture`),
  );
}

/** The last move's squares, from the log entry's structure (where the piece came from and went),
 * as every game's renderer reads it; null for none. */
function lastMoveSquares(entry) {
  const move = entry && entry.by !== "chance" ? entry.move : null;
  return move && typeof move.from === "string" && typeof move.to === "string" ? { from: move.from, to: move.to } : null;
}

function drawBoard(board, ui) {
  const root = svg("svg", { class: "bl-board-svg overseer-board", viewBox: `0 0 ${SIZE} ${SIZE}`, role: "img", "aria-label": "the Overseer board: a disc of 12 sectors and 8 rings" });
  const dark = new Set(board.dark_squares);
  const lastMove = lastMoveSquares(ui.lastMove);
  const lastSquares = lastMove ? [lastMove.from, lastMove.to] : [];
  const selected = ui.selected[0] || null;
  const overlay = svg("g", { "pointer-events": "none" });
  root.append(svg("circle", { cx: CENTRE, cy: CENTRE, r: HOLE + board.indices * RING + 4, fill: "#6b5a3e" }));
  root.append(svg("circle", { cx: CENTRE, cy: CENTRE, r: HOLE, fill: "#e9e3d3", stroke: "#6b5a3e", "stroke-width": 2 }));
  root.append(svg("text", { x: CENTRE, y: CENTRE - 4, class: "overseer-centre", "text-anchor": "middle" }, "centre"));
  root.append(svg("text", { x: CENTRE, y: CENTRE + 12, class: "overseer-centre", "text-anchor": "middle" }, "(no crossing)"));
  board.sectors.forEach((letter, sector) => {
    for (let index = 1; index <= board.indices; index++) {
      const name = `${letter}${index}`;
      root.append(cell(name, sector, index, {
        dark: dark.has(name), piece: board.pieces[name], ui, selected, last: lastSquares.includes(name),
        danger: board.overseers.some((square, seat) => square === name && board.overseer_in_danger[seat]),
      }));
    }
    const [lx, ly] = point(HOLE + board.indices * RING + 18, -90 + sector * SECTOR_DEGREES + SECTOR_DEGREES / 2);
    root.append(svg("text", { x: lx, y: ly + 6, class: "overseer-sector", "text-anchor": "middle" }, letter));
  });
  root.append(seam(board));
  if (lastMove) overlay.append(moveArrow(lastMove.from, lastMove.to, board.sectors, "#1f78d1"));
  if (selected) for (const key of ui.targets.keys()) overlay.append(moveArrow(selected, key, board.sectors, "#e0a800", 0.55));
  root.append(overlay);
  return root;
}

function seam(board) {
  const outer = HOLE + board.indices * RING;
  const [x1, y1] = point(HOLE, -90);
  const [x2, y2] = point(outer + 6, -90);
  const group = svg("g", { class: "overseer-seam", "pointer-events": "none" },
    svg("line", { x1, y1, x2, y2, stroke: "#d32f2f", "stroke-width": 4 }),
    svg("text", { x: x2, y: y2 - 8, "text-anchor": "middle", class: "overseer-seam-label" }, "seam: L ↔ A"));
  for (let index = 1; index <= board.indices; index++) {
    const [x, y] = point(HOLE + (index - 0.5) * RING, -90);
    group.append(svg("text", { x, y: y + 4.5, "text-anchor": "middle", class: "overseer-index" }, index));
  }
  return group;
}

function cell(name, sector, index, { dark, piece, ui, selected, last, danger }) {
  const { path, mx, my } = cellGeometry(sector, index);
  const isTarget = ui.targets.has(name);
  const stage = ui.selected.length;
  const group = svg("g", {
    class: `overseer-square${isTarget ? (stage ? " bl-target" : " bl-movable") : ""}${name === selected ? " bl-selected" : ""}`,
    dataset: { key: name, piece: piece ? piece.letter : "" },
    tabindex: isTarget ? 0 : null,
    role: isTarget ? "button" : null,
    "aria-label": `${name}${piece ? `: ${piece.seat ? "Black" : "White"} ${piece.kind}` : ": empty"}`,
  });
  group.append(svg("path", { d: path, class: "overseer-cell", fill: dark ? "#c9b48c" : "#efe6d1", stroke: "#8a7652", "stroke-width": 1 }));
  if (last) group.append(svg("path", { d: path, fill: "#4aa3ff", "fill-opacity": 0.35, class: "bl-last" }));
  if (name === selected) group.append(svg("path", { d: path, fill: "#f2b600", "fill-opacity": 0.35, stroke: "#e0a800", "stroke-width": 3.5 }));
  else if (isTarget && !stage) group.append(svg("path", { d: path, fill: "none", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": "6 4" }));
  else if (isTarget) group.append(svg("path", { d: path, fill: "#f2b600", "fill-opacity": 0.3, stroke: "#e0a800", "stroke-width": 1.5 }));
  if (piece) group.append(drawPiece(mx, my, piece, danger));
  if (isTarget && stage) {
    group.append(piece
      ? svg("circle", { cx: mx, cy: my, r: PIECE + 3, fill: "none", stroke: "#d32f2f", "stroke-width": 3, class: "overseer-capture" })
      : svg("circle", { cx: mx, cy: my, r: 6, fill: "#e0a800" }));
  }
  return group;
}

function drawPiece(cx, cy, piece, danger) {
  const side = SIDES[piece.seat];
  const letter = piece.letter.toUpperCase();
  const group = svg("g", { class: "overseer-piece" });
  if (danger) group.append(svg("circle", { cx, cy, r: PIECE + 5, fill: "none", stroke: "#d32f2f", "stroke-width": 3.5 }));
  if (letter === "B") {
    // a Barricade is a block: it cannot be captured or landed on
    group.append(svg("rect", { x: cx - PIECE + 1, y: cy - PIECE + 1, width: 2 * PIECE - 2, height: 2 * PIECE - 2, rx: 3, fill: side.fill, stroke: side.line, "stroke-width": 2 }));
  } else {
    group.append(svg("circle", { cx, cy, r: PIECE, fill: side.fill, stroke: side.line, "stroke-width": 1.6 }));
  }
  if (letter === "O") group.append(svg("circle", { cx, cy, r: PIECE - 3.5, fill: "none", stroke: "#d4a017", "stroke-width": 2.2 }));
  group.append(svg("text", { x: cx, y: cy + 5, class: "overseer-letter", fill: side.ink, "text-anchor": "middle" }, letter));
  return group;
}

function moveArrow(from, to, sectors, colour, opacity = 0.9) {
  const a = parse(from, sectors);
  const b = parse(to, sectors);
  const start = cellGeometry(a.sector, a.index);
  const end = cellGeometry(b.sector, b.index);
  const dx = end.mx - start.mx;
  const dy = end.my - start.my;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  const tipX = end.mx - ux * (PIECE + 2);
  const tipY = end.my - uy * (PIECE + 2);
  const head = `M${tipX},${tipY} L${tipX - ux * 11 - uy * 6},${tipY - uy * 11 + ux * 6} L${tipX - ux * 11 + uy * 6},${tipY - uy * 11 - ux * 6} Z`;
  return svg("g", { opacity },
    svg("line", { x1: start.mx + ux * (PIECE + 2), y1: start.my + uy * (PIECE + 2), x2: tipX - ux * 8, y2: tipY - uy * 8, stroke: colour, "stroke-width": 3.5, "stroke-linecap": "round" }),
    svg("path", { d: head, fill: colour }));
}

function legend(message, ui) {
  const names = message.view.board.seat_names;
  const chip = (seat, letter) => svg("svg", { width: 24, height: 24, viewBox: "0 0 24 24" },
    letter === "B"
      ? svg("rect", { x: 2, y: 2, width: 20, height: 20, rx: 3, fill: SIDES[seat].fill, stroke: SIDES[seat].line, "stroke-width": 1.5 })
      : svg("circle", { cx: 12, cy: 12, r: 10.5, fill: SIDES[seat].fill, stroke: SIDES[seat].line, "stroke-width": 1.5 }),
    letter === "O" ? svg("circle", { cx: 12, cy: 12, r: 7.5, fill: "none", stroke: "#d4a017", "stroke-width": 1.8 }) : null,
    svg("text", { x: 12, y: 16, "text-anchor": "middle", fill: SIDES[seat].ink, "font-size": 11, "font-weight": 700 }, letter));
  let hint = "";
  if (ui.interactive && !ui.selected.length) hint = " Your move: click one of your pieces (dashed outline).";
  else if (ui.interactive) hint = " Click a highlighted square to move there (a red ring captures). Esc cancels.";
  return h("div", { class: "overseer-legend" },
    h("ul", { class: "bl-legend" },
      KINDS.map(([letter, label]) => h("li", {}, chip(0, letter), chip(1, letter), `${letter} ${label}`)),
      h("li", {}, svg("svg", { width: 24, height: 16 }, svg("line", { x1: 12, y1: 0, x2: 12, y2: 16, stroke: "#d32f2f", "stroke-width": 4 })), "the seam: a ring goes on from L to A"),
      h("li", {}, svg("svg", { width: 22, height: 16 }, svg("rect", { x: 1, y: 1, width: 20, height: 14, fill: "#4aa3ff", "fill-opacity": 0.45 })), "last move"),
    ),
    h("p", { class: "bl-hint" }, `${names[0]} (light) starts on the inner rings, ${names[1]} (dark) on the outer rings; index 1 is next to the centre, 8 the rim.${hint}`),
  );
}
