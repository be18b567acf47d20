// Honor in the browser (docs/web.md): the table seen from the side, each player's zone and
// tower, the pieces drawn from the view's outlines (board.shapes) at their poses, and a
// placement animated from the physics frames the view carries right after it resolves
// (board.frames). While a piece is to be placed the person drags it over the legal window,
// turns it, and lets go: the release goes to the server as notation (rel x θ h). A finger only
// aims: lifting it leaves the piece there, and the "Drop … here" button under the table lets
// go (a slip of the finger is not a move); a mouse lets go on release. Choosing a
// piece, bids and pushes are clicks. The view's board part is docs/rules/honor.md 11.6.

import { h, replace, svg } from "/js/dom.js";

const SCALE = 9; // px per cm
const COLOURS = [
  { fill: "#e0483e", dark: "#8e231c", soft: "#fbe3e1" },
  { fill: "#4a86e8", dark: "#1d4f9c", soft: "#e1ecfc" },
  { fill: "#3fa35b", dark: "#1e6a34", soft: "#e0f2e5" },
  { fill: "#e8b100", dark: "#8a6900", soft: "#fcf3d3" },
];
const FRAME_MS = 1000 / 30; // the view's frames are 8 physics steps apart: 1/30 s
const DEFAULT_CLEARANCE = "0.05";

/** Choosing a piece: the piece, then its opening bid or Push; the rest are buttons. Releases
 * are made by dragging (null here). */
export function clickPath(move) {
  switch (move.type) {
    case "build": return [move.piece, `bid:${move.bid}`];
    case "push": return [move.piece, "push"];
    // a release is dragged; resigning is the page's own button
    case "release": case "tremor": case "resign": return null;
    default: return [move.notation];
  }
}

/** A release the page's hint names ("rel X THETA CLEARANCE") is shown on the board: the
 * piece in the hand moves to it, and dropping it plays it. */
export function hintOnBoard(notation) {
  return hintedAim(notation) !== null;
}

function hintedAim(notation) {
  const found = /^rel\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)(?:\s|$)/.exec(notation || "");
  return found ? { x: Number(found[1]), rotation: Number(found[2]) } : null;
}

export function seatColours(view) {
  return view.seat_names.map((_, seat) => COLOURS[seat % COLOURS.length].fill);
}

const rad = (deg) => (deg * Math.PI) / 180;
const deg = (r) => (r * 180) / Math.PI;

/** A piece's outline (cm, y up) at centre (x, y), turned `angle` radians counter-clockwise. */
function outline(shapes, pid, x, y, angle) {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  return shapes[pid.slice(0, 2)].map(([px, py]) => [x + px * c - py * s, y + px * s + py * c]);
}

export function mount(element, host) {
  const root = h("div", { class: "honor" });
  replace(element, root);
  // what lasts between render calls: the aim being dragged, the animation under way, and the
  // owners of pieces seen (a piece that fell is no longer on the table)
  // (touch: whether the last pointer pressed on the page was a finger, Pointer Events' pointerType)
  const state = { aim: null, aimKey: null, hintKey: null, animation: null, animatedPly: null, seenMessage: false, owners: {}, last: null, touch: false };

  function draw(message, ui) {
    state.last = [message, ui];
    const board = message.view.board;
    for (const piece of board.table) state.owners[piece.pid] = piece.owner;
    for (const report of board.reports || []) for (const fallen of report.fallen || []) state.owners[fallen.pid] = fallen.owner;
    const releasing = ui.interactive && board.phase === "PLACE" && board.placing && message.legal_moves.some((m) => m.type === "release");
    const aimKey = releasing ? `${message.revision}/${board.placing.pid}` : null;
    if (aimKey !== state.aimKey) {
      state.aimKey = aimKey;
      state.aim = releasing ? initialAim(board) : null;
    }
    // a hint for this release takes the piece there, once: the person may then move it on
    const hinted = releasing ? hintedAim(ui.hint) : null;
    if (hinted && state.hintKey !== `${aimKey}/${ui.hint}`) {
      state.hintKey = `${aimKey}/${ui.hint}`;
      state.aim = hinted;
    }
    replace(root, score(message), table(message, ui, state), state.aim ? dropBar(board, state, host) : "",
      controls(message, ui, state, host, () => draw(message, ui)), legend(message, state));
  }

  const redraw = () => state.last && draw(...state.last);
  installDrag(root, state, host, redraw);
  // a finger or a mouse, as the person last pressed anywhere on the page: the hint says what to do with it
  const pointed = (event) => {
    const touch = event.pointerType === "touch";
    if (touch === state.touch) return;
    state.touch = touch;
    if (state.aim) setTimeout(redraw, 0); // after this press has reached the drag's own listener
  };
  document.addEventListener("pointerdown", pointed, true);

  return {
    render(message, ui) {
      const frames = message.view.board.frames;
      // a new resolution seen live is played back; on the first drawing (a reload) it is not
      if (frames && frames.ply !== state.animatedPly) {
        state.animatedPly = frames.ply;
        if (state.seenMessage && !ui.replay) start(frames);
      }
      state.seenMessage = true;
      draw(message, ui);
    },
    destroy() {
      stop();
      document.removeEventListener("pointerdown", pointed, true);
    },
  };

  function start(frames) {
    stop();
    state.animation = { frames, index: 0, timer: setInterval(tick, FRAME_MS) };
  }

  function stop() {
    if (state.animation) clearInterval(state.animation.timer);
    state.animation = null;
  }

  function tick() {
    const animation = state.animation;
    if (!animation) return;
    animation.index += 1;
    if (animation.index >= animation.frames.poses.length) {
      stop();
      if (state.last) draw(...state.last); // the settled table as the view has it
      return;
    }
    movePieces(root, animation.frames, animation.index, state.last[0].view.board);
  }
}

function initialAim(board) {
  const aim = board.placing.aim;
  return { x: aim ? aim.x : (board.placing.window[0] + board.placing.window[1]) / 200, rotation: aim ? aim.rotation : 0 };
}

// --- geometry of the drawing -----------------------------------------------------------------
function frame(board, state) {
  const zones = board.zones;
  const left = zones[0][0] - 6;
  const right = zones[zones.length - 1][1] + 6;
  let top = 24;
  // the pieces on the table and those of a tower just taken off (drawn where they lay, with a label)
  const fallen = (board.reports || []).flatMap((report) => report.fallen || []);
  for (const piece of [...board.table, ...fallen]) {
    for (const [, y] of outline(board.shapes, piece.pid, piece.x, piece.y, piece.angle)) top = Math.max(top, y + 14);
  }
  if (state.animation) for (const pose of state.animation.frames.poses[0]) top = Math.max(top, pose[1] + 10);
  return { left, right, top, X: (x) => (x - left) * SCALE, Y: (y) => (top - y) * SCALE, width: (right - left) * SCALE, height: (top + 7) * SCALE };
}

function points(pts, f) {
  return pts.map(([x, y]) => `${f.X(x).toFixed(1)},${f.Y(y).toFixed(1)}`).join(" ");
}

/** A piece as an SVG group drawn around its centre, placed by a transform (so that an
 * animation moves it by changing one attribute). */
function pieceGroup(board, pid, owner, { foundation = false, ghost = false, fallen = false, key = null, classes = "" } = {}) {
  const colour = COLOURS[owner % COLOURS.length];
  const local = board.shapes[pid.slice(0, 2)].map(([x, y]) => `${(x * SCALE).toFixed(1)},${(-y * SCALE).toFixed(1)}`).join(" ");
  return svg("g", { class: `honor-piece ${classes}`, dataset: { pid, key }, "aria-label": `${pieceName(board, pid)}${foundation ? " (foundation)" : ""}${fallen ? ", fallen" : ""}` },
    svg("polygon", {
      points: local, fill: ghost ? colour.soft : colour.fill, "fill-opacity": fallen ? 0.35 : ghost ? 0.85 : 0.92,
      stroke: foundation ? "#111" : colour.dark, "stroke-width": foundation ? 2.6 : 1.4, "stroke-dasharray": ghost ? "5 3" : null,
    }),
    fallen ? svg("polygon", { points: local, fill: "url(#honor-hatch)" }) : null,
  );
}

function place(group, f, x, y, angle) {
  group.setAttribute("transform", `translate(${f.X(x).toFixed(1)},${f.Y(y).toFixed(1)}) rotate(${(-deg(angle)).toFixed(2)})`);
  return group;
}

function movePieces(root, frames, index, board) {
  const drawing = root.querySelector(".honor-table");
  if (!drawing) return;
  const f = drawing.__frame;
  frames.pids.forEach((pid, i) => {
    const group = drawing.querySelector(`.honor-piece[data-pid="${pid}"]:not(.honor-ghost)`);
    const [x, y, angle] = frames.poses[index][i];
    if (group) place(group, f, x, y, angle);
  });
}

// --- the table -------------------------------------------------------------------------------
function table(message, ui, state) {
  const board = message.view.board;
  const f = frame(board, state);
  const names = message.view.seat_names;
  const root = svg("svg", {
    class: "bl-board-svg honor-table", viewBox: `0 0 ${f.width.toFixed(0)} ${f.height.toFixed(0)}`, role: "img",
    "aria-label": "the table seen from the side, with each player's zone and tower",
  });
  root.__frame = f;
  root.append(svg("defs", {}, svg("pattern", { id: "honor-hatch", width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#222", "stroke-width": 1.5 }))));
  board.zones.forEach(([lo, hi], seat) => {
    const colour = COLOURS[seat % COLOURS.length];
    root.append(svg("rect", { x: f.X(lo), y: 0, width: (hi - lo) * SCALE, height: f.Y(0), fill: colour.soft, "fill-opacity": board.standing[seat] ? 0.8 : 0.3 }));
    root.append(svg("text", { x: f.X((lo + hi) / 2), y: 22, class: "honor-zone-name", "text-anchor": "middle", fill: colour.dark },
      `${names[seat]}'s zone${board.standing[seat] ? "" : " (out)"}`));
  });
  // the table top and a cm ruler under it
  root.append(svg("rect", { x: 0, y: f.Y(0), width: f.width, height: 7 * SCALE, fill: "#8a6a48" }));
  for (let x = Math.ceil(f.left / 5) * 5; x <= f.right; x += 5) {
    root.append(svg("line", { x1: f.X(x), y1: f.Y(0), x2: f.X(x), y2: f.Y(0) + (x % 10 === 0 ? 12 : 6), stroke: "#f3e6d3", "stroke-width": 1.5 }));
    if (x % 10 === 0) root.append(svg("text", { x: f.X(x), y: f.Y(0) + 27, class: "honor-ruler", "text-anchor": "middle" }, `${x}`));
  }
  root.append(svg("text", { x: 6, y: f.Y(0) + 50, class: "honor-ruler" }, "cm"));
  // the legal window of the piece in hand, shaded on the table
  const aiming = state.aim && board.placing;
  if (aiming) {
    const [lo, hi] = windowFor(board, state.aim.rotation);
    root.append(svg("rect", { class: "honor-window", x: f.X(lo), y: f.Y(0) - 5, width: Math.max(2, (hi - lo) * SCALE), height: 10, fill: "#f2b600", "fill-opacity": 0.75 }));
  }
  const lastPid = board.last && board.last.pid;
  for (const piece of [...board.table].sort((a, b) => a.order - b.order)) {
    const group = pieceGroup(board, piece.pid, piece.owner, { foundation: piece.foundation, classes: piece.pid === lastPid ? "honor-last" : "" });
    root.append(place(group, f, piece.x, piece.y, piece.angle));
  }
  // what fell in the last resolution: a collapsed tower is taken off the table when everything has
  // come to rest (rules 5.1, 5.2, 6.1), and is drawn hatched where it lay then, its foundation
  // outlined as on the table, under a label saying whose tower fell (rule 14.2)
  const fallenPieces = (board.reports || []).flatMap((report) => report.fallen || []);
  if (!state.animation) {
    for (const fallen of fallenPieces) {
      root.append(place(pieceGroup(board, fallen.pid, fallen.owner, { foundation: fallen.foundation, fallen: true, classes: "honor-fallen" }), f, fallen.x, fallen.y, fallen.angle));
    }
    fallenLabels(root, board, names, fallenPieces, f);
  } else {
    // pieces that moved in the resolution start where the frames say (a fallen one is not on the table any more)
    const frames = state.animation.frames;
    frames.pids.forEach((pid, i) => {
      if (board.table.some((piece) => piece.pid === pid)) return;
      const [x, y, angle] = frames.poses[0][i];
      const fallen = fallenPieces.find((piece) => piece.pid === pid);
      root.append(place(pieceGroup(board, pid, state.owners[pid] ?? 0, { foundation: Boolean(fallen && fallen.foundation) }), f, x, y, angle));
    });
    // the pieces of a collapsing tower that did not move (its foundation, most often) stay drawn
    // during the fall: they lie where they were taken off
    for (const fallen of fallenPieces) {
      if (frames.pids.includes(fallen.pid)) continue;
      root.append(place(pieceGroup(board, fallen.pid, fallen.owner, { foundation: fallen.foundation }), f, fallen.x, fallen.y, fallen.angle));
    }
    movePiecesNow(root, f, frames, state.animation.index);
  }
  if (aiming) root.append(aimDrawing(board, state, f));
  return root;
}

/** Above each collapsed tower's pieces: whose tower it was and that it is off the table. */
function fallenLabels(root, board, names, fallenPieces, f) {
  const owners = [...new Set(fallenPieces.map((piece) => piece.owner))];
  for (const owner of owners) {
    const pieces = fallenPieces.filter((piece) => piece.owner === owner);
    let top = 0;
    let left = Infinity;
    let right = -Infinity;
    for (const piece of pieces) {
      for (const [x, y] of outline(board.shapes, piece.pid, piece.x, piece.y, piece.angle)) {
        top = Math.max(top, y);
        left = Math.min(left, x);
        right = Math.max(right, x);
      }
    }
    root.append(svg("text", { x: f.X((left + right) / 2), y: f.Y(top) - 8, class: "honor-fallen-label", "text-anchor": "middle", fill: COLOURS[owner % COLOURS.length].dark },
      `${names[owner]}'s tower collapsed: taken off the table`));
  }
}

function movePiecesNow(root, f, frames, index) {
  frames.pids.forEach((pid, i) => {
    const group = root.querySelector(`.honor-piece[data-pid="${pid}"]`);
    const [x, y, angle] = frames.poses[index][i];
    if (group) place(group, f, x, y, angle);
  });
}

/** The legal x range (cm) at a rotation: the view's window for a resting orientation; for
 * another angle the tower's reach (the same at any angle) or, for a foundation, the zone less
 * the turned piece's half-widths (rule 4.3). */
function windowFor(board, rotation) {
  const placing = board.placing;
  const listed = placing.rotations.find((r) => Math.abs(r.rotation - rotation) < 0.05);
  if (listed) return [listed.window[0] / 100, listed.window[1] / 100];
  if (!placing.foundation) return [placing.window[0] / 100, placing.window[1] / 100];
  const xs = outline(board.shapes, placing.pid, 0, 0, rad(rotation)).map(([x]) => x);
  const [lo, hi] = board.zones[placing.placer];
  return [Math.ceil((lo - Math.min(...xs)) * 100) / 100, Math.floor((hi - Math.max(...xs)) * 100) / 100];
}

/** Where the piece would land if let go at x: lowered until its outline meets the table or a
 * piece, sampled across its width. An estimate for the drawing only; the server sweeps exactly. */
function landing(board, pid, x, rotation) {
  const own = outline(board.shapes, pid, x, 0, rad(rotation));
  const others = board.table.map((piece) => outline(board.shapes, piece.pid, piece.x, piece.y, piece.angle));
  const xs = own.map(([px]) => px);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  let centre = -Infinity;
  for (let i = 0; i <= 40; i++) {
    const sx = lo + ((hi - lo) * i) / 40;
    const bottom = span(own, sx)?.[0];
    if (bottom === undefined) continue;
    let surface = 0;
    for (const poly of others) {
      const s = span(poly, sx);
      if (s) surface = Math.max(surface, s[1]);
    }
    centre = Math.max(centre, surface - bottom);
  }
  return centre;
}

/** The lowest and highest y of a polygon's outline at x (null when x misses it). */
function span(poly, x) {
  let low = Infinity;
  let high = -Infinity;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i];
    const [x2, y2] = poly[(i + 1) % poly.length];
    if ((x1 <= x && x <= x2) || (x2 <= x && x <= x1)) {
      const y = x1 === x2 ? Math.min(y1, y2) : y1 + ((y2 - y1) * (x - x1)) / (x2 - x1);
      const yy = x1 === x2 ? Math.max(y1, y2) : y;
      low = Math.min(low, y);
      high = Math.max(high, yy);
    }
  }
  return low === Infinity ? null : [low, high];
}

function aimDrawing(board, state, f) {
  const placing = board.placing;
  const { x, rotation } = state.aim;
  const rest = landing(board, placing.pid, x, rotation);
  const heldAt = Math.max(rest + 6, f.top - 8);
  const group = svg("g", { class: "honor-aim" });
  // where it would come to rest, faintly, and the line it would fall along
  group.append(svg("line", { x1: f.X(x), y1: f.Y(heldAt), x2: f.X(x), y2: f.Y(0), stroke: "#b08900", "stroke-dasharray": "4 4", "stroke-width": 1.5 }));
  group.append(place(pieceGroup(board, placing.pid, placing.placer, { ghost: true, classes: "honor-landing" }), f, x, rest, rad(rotation)));
  // the piece in the hand: drag it sideways, let go to release it
  const hand = place(pieceGroup(board, placing.pid, placing.placer, { classes: "honor-hand" }), f, x, heldAt, rad(rotation));
  // a fingertip-sized handle round the piece: a thin piece alone is too small to grab on a phone
  hand.prepend(svg("circle", { class: "honor-hand-handle", cx: 0, cy: 0, r: 40, fill: "transparent" }));
  hand.dataset.hand = "true";
  hand.dataset.x = x.toFixed(2);
  hand.dataset.rotation = rotation.toFixed(1);
  hand.setAttribute("tabindex", "0");
  hand.setAttribute("role", "slider");
  hand.setAttribute("aria-valuenow", x.toFixed(2)); // a slider says where it stands: x in cm
  const where = whereWords(placing.words, x);
  const turn = turnWords(placing.words, rotation);
  hand.setAttribute("aria-valuetext", [where, turn].filter(Boolean).join(", "));
  hand.setAttribute("aria-label", `${placing.words.name} in your hand, ${where}: ${state.touch ? "drag it to aim, then tap Drop" : "drag it, let go to drop it"}`);
  group.append(hand);
  // the piece and where it is against the tower, in the words the move list will use for its release
  group.append(svg("text", { x: f.X(x), y: f.Y(heldAt) - 34, class: "honor-hand-label", "text-anchor": "middle" },
    [placing.words.name, where, turn].filter(Boolean).join(" · ")));
  return group;
}

// --- the controls beside the table -----------------------------------------------------------
function controls(message, ui, state, host, redraw) {
  const board = message.view.board;
  const names = message.view.seat_names;
  const parts = [];
  const text = (pid) => pieceName(board, pid);
  if (board.auction) {
    const a = board.auction;
    parts.push(h("p", { class: "honor-status" }, `Auction for ${text(a.pid)}: high bid ${a.high} by ${names[a.bidder]}; ${names[a.to_act]} to bid or pass.`,
      a.passed.length ? ` Passed: ${a.passed.map((s) => names[s]).join(", ")}.` : "",
      a.order && a.order.length > 2 ? ` Bidding order: ${a.order.map((s) => names[s]).join(", ")}.` : ""));
  }
  if (board.push) {
    const p = board.push;
    parts.push(h("p", { class: "honor-status" }, `${names[p.pusher]} pushed ${text(p.pid)}: ${names[p.holder]} accepts it, or pays ${p.fee} token${p.fee === 1 ? "" : "s"} to pass it on.`));
  }
  if (board.placing) {
    const p = board.placing;
    parts.push(h("p", { class: "honor-status" }, `${names[p.placer]} places ${text(p.pid)}${p.foundation ? " as the foundation (anywhere in their zone)" : " on their tower (within 3 cm of it)"}.`));
  }
  if (ui.interactive) parts.push(decide(message, ui, state, host, redraw));
  if (board.phase === "CHOOSE" || ui.interactive) parts.push(supplyTray(board, ui));
  const reports = (board.reports || []).slice(-2);
  if (reports.length) parts.push(h("div", { class: "honor-reports" }, h("b", {}, "Last placements"), reports.map((r) => h("p", {}, r.text))));
  if (message.view.over && board.seed && !message.figure) parts.push(h("p", { class: "muted honor-small" }, `Seed ${board.seed} (its SHA-256 is the commitment ${board.seed_commit.slice(0, 16)}… shown from the start).`));
  return h("div", { class: "honor-controls" }, parts);
}

/** A piece by its name ("the log") and as the supply labels it ("log 2", its number only where
 * the set has more than one of its kind): the view's piece_names, made by words.py. */
function pieceName(board, pid) {
  return board.piece_names[pid].name;
}

function pieceLabel(board, pid) {
  return board.piece_names[pid].label;
}

// --- the piece in the hand in words: words.py's where_words and turn_words, with the phrases and
// thresholds the view sends (placing.words), so that the hand says what the move list will say --
/** Python's f"{value:.Nf}" for value >= 0: toFixed rounds an exact tie (2.5, 2.25) up, Python
 * to the even digit. A decimal tie a double holds exactly is an odd multiple of 2^-(N+1). */
function pyFixed(value, digits) {
  const halves = value * 2 ** (digits + 1);
  if (Number.isInteger(halves) && halves % 2 !== 0) {
    const down = Math.floor(value * 10 ** digits);
    if (down % 2 === 0) return (down / 10 ** digits).toFixed(digits);
  }
  return value.toFixed(digits);
}

/** words.py's cm: "3 cm", "2.5 cm", "0.3 cm". */
function cmWords(value) {
  return `${pyFixed(Math.abs(value), 1).replace(/0+$/, "").replace(/\.$/, "")} cm`;
}

/** words.py's _degrees: "1 degree", "0.5 degrees", "30 degrees". */
function degreeWords(value) {
  const number = Math.abs(value);
  const text = number >= 1.5 ? pyFixed(number, 0) : pyFixed(number, 1).replace(/0+$/, "").replace(/\.$/, "");
  return `${text} degree${text === "1" ? "" : "s"}`;
}

/** words.py's where_words: x (cm) against the placer's tower, or in its zone for a foundation. */
function whereWords(words, x) {
  const say = (key, value) => words.phrases[key].replace("{cm}", value === undefined ? "" : cmWords(value));
  x = Number(x.toFixed(2)); // the x the release will carry
  if (words.extent === null) {
    const off = x - (words.zone[0] + words.zone[1]) / 2;
    if (Math.abs(off) < words.middle_cm) return say("zone_middle");
    return say(off < 0 ? "zone_left" : "zone_right", off);
  }
  const [left, right] = words.extent;
  if (x < left) return say("past_left", left - x);
  if (x > right) return say("past_right", x - right);
  const off = x - (left + right) / 2;
  if (Math.abs(off) < words.middle_cm) return say("middle");
  const side = off < 0 ? "left" : "right";
  if (Math.abs(off) >= (words.near_end * (right - left)) / 2) return say(`near_${side}`);
  return say(side, off);
}

/** words.py's turn_words: "" for the piece as drawn in the catalogue. */
function turnWords(words, rotation) {
  const theta = ((Math.round(rotation * 10) % 3600) + 3600) % 3600 / 10; // the rotation the release will carry
  if (theta === 0) return "";
  if (theta === 90 || theta === 180 || theta === 270) return words.phrases[`turn_${theta}`];
  if (theta < 180) return words.phrases.turn_left.replace("{degrees}", degreeWords(theta));
  return words.phrases.turn_right.replace("{degrees}", degreeWords(360 - theta));
}

function decide(message, ui, state, host, redraw) {
  const board = message.view.board;
  const moves = message.legal_moves;
  const names = message.view.seat_names;
  const button = (key, label, extra = "") => h("button", { class: `honor-action ${ui.targets.has(key) ? (ui.selected.length ? "bl-target" : "bl-movable") : ""} ${extra}`, dataset: { key }, disabled: !ui.targets.has(key) }, label);
  if (state.aim) return placeControl(board, state, host, redraw);
  const selected = ui.selected[0];
  if (board.phase === "CHOOSE") {
    if (!selected) return h("p", { class: "bl-hint" }, "Your turn: click a piece of the supply below (or a dashed one) to build with it (you open its auction) or push it to the next player.");
    const bids = [...ui.targets.keys()].filter((k) => k.startsWith("bid:"));
    const next = names[(board.turn_player + 1) % names.length];
    return h("div", { class: "honor-decide" },
      h("p", { class: "bl-hint" }, `${capitalise(pieceName(board, selected))}: build with it, opening the auction at a bid of…, or push it to ${next}. Esc cancels.`),
      h("div", { class: "honor-buttons" }, h("span", {}, "Build, opening bid: "), bids.map((key) => button(key, key.slice(4)))),
      ui.targets.has("push") ? h("div", { class: "honor-buttons" }, button("push", `Push it to the next player`)) : "");
  }
  const simple = moves.filter((m) => clickPath(m) && clickPath(m).length === 1);
  const label = (m) => ({ raise: `Bid ${m.bid}`, pass: "Pass (final)", accept: "Accept the piece and place it", pass_on: `Pay ${board.push ? board.push.fee : ""} to pass it on`, resign: "Resign" }[m.type] || m.notation);
  return h("div", { class: "honor-decide" },
    h("p", { class: "bl-hint" }, board.auction ? "Raise the bid, or pass for good." : board.push ? "Take the piece, or pay the fee to send it on." : "Choose."),
    h("div", { class: "honor-buttons" }, simple.filter((m) => m.type !== "resign").map((m) => button(m.notation, label(m), m.type === "accept" ? "primary" : ""))));
}

const releaseOf = (state) => `rel ${state.aim.x.toFixed(2)} ${state.aim.rotation.toFixed(1)} ${DEFAULT_CLEARANCE}`;

/** Right under the table while a piece is aimed: the button that lets go of it, a fingertip
 * large and saying what it does ("Drop the log here"): on a touch screen the only way to let go. */
function dropBar(board, state, host) {
  const name = pieceName(board, board.placing.pid);
  return h("div", { class: `honor-drop-bar${state.touch ? " honor-touch" : ""}` },
    h("button", { class: "primary honor-drop", id: "honor-drop", onclick: () => host.play(releaseOf(state)) }, `Drop ${name} here`),
    h("span", { class: "honor-drop-where" }, whereWords(board.placing.words, state.aim.x)));
}

/** Drag the piece in hand over the table (the pointer's x is the release's x), turn it, let
 * go (a mouse; a finger only aims, and "Drop … here" lets go): the release goes as
 * `rel x θ 0.05`. Arrow keys move it, Enter drops it. */
function placeControl(board, state, host, redraw) {
  const placing = board.placing;
  const name = pieceName(board, placing.pid);
  const setRotation = (value) => {
    state.aim.rotation = ((value % 360) + 360) % 360;
    const [lo, hi] = windowFor(board, state.aim.rotation);
    state.aim.x = Math.min(hi, Math.max(lo, state.aim.x));
    redraw();
  };
  const [lo, hi] = windowFor(board, state.aim.rotation);
  const hint = state.touch
    ? `Drag to aim, then tap Drop: move ${name} sideways over the yellow band (where it may drop); lifting your finger leaves it there, so drag again to adjust, and tap "Drop ${name} here" under the table to let go. It falls straight down onto what is below (the dashed outline shows about where). Turn it first if you like.`
    : `Drag ${name} sideways over the yellow band (where it may drop) and let go to drop it; it falls straight down onto what is below (the dashed outline shows about where). Turn it first if you like.`;
  return h("div", { class: "honor-decide honor-place" },
    h("p", { class: "bl-hint" }, hint),
    h("div", { class: "honor-buttons" }, h("span", {}, "Turn to a flat side down: "),
      placing.rotations.map((r) => h("button", { class: `honor-rot${Math.abs(r.rotation - state.aim.rotation) < 0.05 ? " bl-selected" : ""}`, dataset: { rotation: r.rotation }, onclick: () => setRotation(r.rotation) }, `${r.rotation}°`)),
      h("button", { title: "5° to the left", onclick: () => setRotation(state.aim.rotation + 5) }, "⟲ 5°"),
      h("button", { title: "5° to the right", onclick: () => setRotation(state.aim.rotation - 5) }, "⟳ 5°")),
    h("div", { class: "honor-buttons" },
      h("span", { class: "honor-aim-words" }, aimWords(placing.words, state.aim.x, lo, hi))),
  );
}

/** Where the piece in hand is, and how far it may go, in the words of its release: "over the
 * middle of its tower; it may drop from 3 cm past the left end of its tower to 3 cm past the right end". */
function aimWords(words, x, lo, hi) {
  return `${capitalise(whereWords(words, x))}; it may drop from ${whereWords(words, lo)} to ${whereWords(words, hi)}.`;
}

function supplyTray(board, ui) {
  return h("div", { class: "honor-supply" }, h("b", {}, `Supply (${board.supply.length} pieces)`),
    h("div", { class: "honor-tray" }, board.supply.map((pid) => {
      const target = ui.targets.has(pid);
      const selected = ui.selected[0] === pid;
      const xs = board.shapes[pid.slice(0, 2)];
      const size = 8; // one scale for every piece (the slab is 15 cm long), so sizes compare
      return h("button", {
        class: `honor-supply-piece${target ? (ui.selected.length ? " bl-target" : " bl-movable") : ""}${selected ? " bl-selected" : ""}`,
        dataset: { key: pid }, disabled: !target && !selected, title: pieceLabel(board, pid),
      },
      svg("svg", { viewBox: `${-size} -5 ${2 * size} 10`, width: 64, height: 40 },
        svg("polygon", { points: xs.map(([x, y]) => `${x},${-y}`).join(" "), fill: "#c9a97a", stroke: "#5b4325", "stroke-width": 0.25 })),
      h("span", {}, pieceLabel(board, pid)));
    })));
}

const capitalise = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function score(message) {
  const board = message.view.board;
  const names = message.view.seat_names;
  return h("div", { class: "bl-score honor-score" },
    names.map((name, seat) => h("span", { class: `honor-seat${message.view.to_move === seat ? " to-move" : ""}`, dataset: { seat } },
      h("span", { class: "bl-chip", style: `background:${COLOURS[seat % COLOURS.length].fill}` }),
      h("b", {}, name), board.turn_player === seat && !message.view.over ? " (turn)" : "",
      ` ${board.standing[seat] ? "standing" : "out"} · `,
      h("span", { class: "honor-tokens", title: `${board.pools[seat]} tokens` }, `${board.pools[seat]} token${board.pools[seat] === 1 ? "" : "s"} `, "●".repeat(board.pools[seat])))),
    h("span", { class: "muted" }, `bank ${board.bank} · turn ${board.turn}`));
}

function legend(message, state) {
  const board = message.view.board;
  const names = message.view.seat_names;
  return h("div", { class: "honor-legend" },
    h("ul", { class: "bl-legend" },
      names.map((name, seat) => h("li", {}, h("span", { class: "bl-chip", style: `background:${COLOURS[seat % COLOURS.length].fill}` }), `${name}'s pieces and zone`)),
      h("li", {}, h("span", { class: "honor-key honor-key-foundation" }), "foundation (black outline): the only piece that may touch the table"),
      h("li", {}, h("span", { class: "honor-key honor-key-fallen" }), "fell in the last placement: taken off the table"),
      state.aim ? h("li", {}, h("span", { class: "honor-key honor-key-window" }), "where the piece may be let go") : null,
      h("li", {}, h("span", { class: "honor-key honor-key-last" }), "placed last"),
    ),
    h("p", { class: "bl-hint" }, "Players bid tokens for pieces and balance them on their own tower; a tower whose piece other than the foundation touches the table collapses and its player is out. The last tower standing wins."),
  );
}

/** The drag: pointer down on the piece in hand, move, up releases -- a mouse's or a pen's; a
 * finger's (pointerType "touch") only aims, and the drop bar lets go; on the keyboard, arrows move
 * it (Shift: 1 cm) and Enter drops it. Listening on the renderer's root element, which lives
 * as long as the mount, keeps a drag going through redraws. */
function installDrag(root, state, host, redraw) {
  const cmAt = (event) => {
    const drawing = root.querySelector(".honor-table");
    const box = drawing.getBoundingClientRect();
    const f = drawing.__frame;
    return f.left + ((event.clientX - box.left) * (f.width / box.width)) / SCALE;
  };
  const moveTo = (x) => {
    const board = state.last[0].view.board;
    const [lo, hi] = windowFor(board, state.aim.rotation);
    state.aim.x = Math.round(Math.min(hi, Math.max(lo, x)) * 100) / 100;
    redraw();
  };
  const release = () => host.play(releaseOf(state));
  root.addEventListener("pointerdown", (event) => {
    if (!state.aim || !event.target.closest("[data-hand]")) return;
    event.preventDefault();
    state.drag = { offset: state.aim.x - cmAt(event), touch: event.pointerType === "touch" };
    root.setPointerCapture(event.pointerId);
    root.classList.add("honor-dragging");
  });
  root.addEventListener("pointermove", (event) => {
    if (state.drag && state.aim) moveTo(cmAt(event) + state.drag.offset);
  });
  const end = (event, drop) => {
    if (!state.drag) return;
    const { touch } = state.drag;
    state.drag = null;
    root.classList.remove("honor-dragging");
    if (root.hasPointerCapture(event.pointerId)) root.releasePointerCapture(event.pointerId);
    // a lifted finger leaves the piece aimed where it is: "Drop … here" lets go
    if (drop && state.aim && !touch) release();
  };
  root.addEventListener("pointerup", (event) => end(event, true));
  root.addEventListener("pointercancel", (event) => end(event, false));
  root.addEventListener("keydown", (event) => {
    if (!state.aim || !event.target.closest("[data-hand]")) return;
    const step = event.shiftKey ? 1 : 0.1;
    if (event.key === "ArrowLeft" || event.key === "ArrowRight") {
      event.preventDefault();
      moveTo(state.aim.x + (event.key === "ArrowLeft" ? -step : step));
      root.querySelector("[data-hand]")?.focus();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      release();
    }
  });
}
