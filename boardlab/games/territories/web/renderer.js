// Territories in the browser (docs/web.md): the grid of playing cards with the buildings on
// their corners, the dice, both hands (the viewer's cards face up, the other's as card backs
// except the cards the viewer is known to have seen), resources, the bank, the open trade
// offer and the decisions of the player who is not on turn (answering an offer, discarding on
// a 7). The view's board part is docs/rules/territories.md R11.3; everything drawn comes from
// it and from this seat's legal moves, so a hidden card never reaches this page.

import { h, replace, svg } from "/js/dom.js";

const CELL_W = 84;
const CELL_H = 112;
const MARGIN = 26; // room for the buildings on the outer corners
const SUITS = "HSCD";
// a four-colour deck: the suits differ by colour as well as by symbol
const SUIT = {
  H: { symbol: "♥", name: "Hearts", colour: "#c62828" },
  S: { symbol: "♠", name: "Spades", colour: "#222" },
  C: { symbol: "♣", name: "Clubs", colour: "#2e7d32" },
  D: { symbol: "♦", name: "Diamonds", colour: "#1f5fbf" },
};
const RANK_NUMBER = { T: 10, J: 11, Q: 12 };
const BUILDING = {
  P: { name: "Town", glyph: "♟", points: 1, cost: "HSCD" },
  R: { name: "Fort", glyph: "♜", points: 2, cost: "DDDD", grants: "Swap" },
  N: { name: "Barracks", glyph: "♞", points: 2, cost: "CCCC", grants: "Raid" },
  B: { name: "Temple", glyph: "♝", points: 2, cost: "HHHH", grants: "Convert" },
  Q: { name: "Palace", glyph: "♛", points: 2, cost: "SSSS", grants: "Expand" },
  K: { name: "Capital", glyph: "♚", points: 3, cost: "DDCCHHSS", grants: "every ability" },
};
const SEAT = [
  { fill: "#fbfaf4", line: "#4a4535", ink: "#2a261c" },
  { fill: "#2f2f2f", line: "#000", ink: "#fff" },
];
const ABILITY = {
  swap: "Swap: roll a die, pay that many resources, exchange a grid card with one of your hand",
  raid: "Raid: pay ♥♠♣♦, win a die duel, remove one of the opponent's Towns",
  conv: "Convert: pay ♥♠♣♦, win a die duel, replace an opponent's building next to your Temple or Capital by yours",
  expand: "Expand: roll a die, pay that many resources, lay a card of your hand beside the grid",
};
// the moves chosen on the board or with one button; the others (a proposal's contents, a
// discard, wildcards, a payment) are put together in a small form
const FORM_TYPES = new Set(["offer", "counter", "discard", "wild", "pay"]);
// announcing a proposal (R8.2) or a counter-proposal (R8.3) commits the player to make one, so
// the page composes the proposal first and sends the announcement and the proposal together
const ANNOUNCES = { propose_trade: "offer", propose_counter: "counter" };

const point = (p) => `pt:${p[0]},${p[1]}`;
const cell = (c) => `cell:${c[0]},${c[1]}`;

/** Where each move is clicked: a Town on its corner; an upgrade, a Capital or a conversion on
 * the building and then the piece; Swap and Expand on a hand card and then its cell; the rest
 * on its own button (keyed by its notation). Forms send the others. */
export function clickPath(move) {
  switch (move.type) {
    case "build":
      return move.kind === "P" ? [point(move.point)] : [point(move.point), `kind:${move.kind}`];
    case "convert_to":
      return [point(move.point), `kind:${move.kind}`];
    case "destroy":
      return [point(move.point)];
    case "swap_card":
    case "place_card":
      return [`card:${move.card}`, cell(move.cell)];
    default:
      return FORM_TYPES.has(move.type) || move.type in ANNOUNCES ? null : [move.notation];
  }
}

/** A hinted proposal ("propose", "counter") marks the button that opens its form, but that mark
 * is the one every clickable action wears: the board shows no hinted move of its own, so the
 * page's hint must not say it is highlighted. */
export function hintOnBoard() {
  return false;
}

/** What this seat is asked to answer outside the flow of its own turn, in words for the page's
 * banner, or null: a trade offered to it (or a counter-proposal to its offer), the counter-
 * proposal it announced in answer and now names, a discard the dice ask for, Temple wildcards
 * or the second player's starting resources to choose. Its panel is drawn above the grid on a
 * narrow screen (docs/web.md). */
export function question(message) {
  const board = message.view.board;
  const seat = message.seat;
  if (seat === null || seat === undefined || message.view.over) return null;
  const types = new Set(message.legal_moves.map((move) => move.type));
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (types.has("accept") && board.offer) {
    const from = message.view.seat_names[board.offer.from];
    const answers = types.has("propose_counter") ? "accept, reject or counter it" : "accept or reject it";
    return board.phase === "counter_respond" ? `${from} answers with a counter-proposal: ${answers}` : `${from} offers you a trade: ${answers}`;
  }
  // announced from the question's panel (R8.3): its proposal is put together where the offer was
  if (types.has("counter")) return `Name your counter-proposal to ${message.view.seat_names[1 - seat]}`;
  if (types.has("discard")) {
    const owed = board.discards_owed.find(([owing]) => owing === seat)?.[1] ?? 0;
    return `A 7 was rolled: discard ${plural(owed, "card")}`;
  }
  if (types.has("wild")) {
    const owed = board.wildcards_owed.find(([owing]) => owing === seat)?.[1] ?? 0;
    const count = Math.min(owed, Object.values(board.bank).reduce((sum, n) => sum + n, 0));
    // before the first turn, the wildcards are the second player's starting resources (R3.4)
    return board.turn === 0 ? `Choose your ${plural(count, "starting resource")} from the bank` : `Choose ${plural(count, "Temple wildcard resource")}`;
  }
  return null;
}

// where renderer.css stacks the side column under the grid: a question then goes above the grid,
// where a phone shows it without scrolling past the grid and its legend
const STACKED = "(max-width: 900px)";

export function seatColours() {
  return SEAT.map((seat) => seat.fill);
}

const cardNumber = (code) => RANK_NUMBER[code[0]] || Number(code[0]);
const rankLabel = (code) => (code[0] === "T" ? "10" : code[0]);
/** Ways to roll a number with two dice, out of 36: how often a card produces. */
const ways = (n) => 6 - Math.abs(7 - n);
const letters = (text) => Object.fromEntries([...SUITS].map((s) => [s, [...(text || "")].filter((c) => c === s).length]));
const lettersText = (counts) => [...SUITS].map((s) => s.repeat(counts[s] || 0)).join("");

/** Resources as suit symbols with counts (`♥2 ♠1`), or "nothing". */
function goods(text, cards = []) {
  const counts = letters(text);
  const parts = [...SUITS].filter((s) => counts[s]).map((s) =>
    h("span", { class: "terr-res", style: `color:${SUIT[s].colour}`, title: SUIT[s].name }, `${SUIT[s].symbol}${counts[s] > 1 ? "×" + counts[s] : ""}`));
  for (const code of cards) parts.push(h("span", { class: "terr-card-name" }, cardName(code)));
  return parts.length ? parts : [h("span", { class: "muted" }, "nothing")];
}

function cardName(code) {
  return `${rankLabel(code)}${SUIT[code[1]].symbol}`;
}

export function mount(element, host) {
  const root = h("div", { class: "terr" });
  replace(element, root);
  // a form's choices survive the redraws of one position; a new position starts them again
  let form = { key: null, counts: {}, cards: [] };
  let latest = null; // the message drawn last: what the page shows once an announcement is answered
  let redrawLatest = () => {};
  const stacked = window.matchMedia(STACKED);
  const restack = () => redrawLatest(); // a phone turned sideways, a window made wider
  stacked.addEventListener("change", restack);
  // a proposal being put together before anything is sent (null: none), and one being sent
  const proposal = { composing: null, sending: null };
  proposal.open = (announce) => {
    proposal.composing = { announce, give: emptyCounts(), get: emptyCounts(), problem: "" };
    redrawLatest();
  };
  proposal.redraw = () => redrawLatest();
  proposal.cancel = () => {
    proposal.composing = null;
    redrawLatest();
  };
  proposal.send = async (plan) => {
    proposal.composing = null;
    proposal.sending = plan;
    redrawLatest();
    await host.play(plan.announce.notation);
    proposal.sending = null;
    const now = latest;
    const type = ANNOUNCES[plan.announce.type];
    const offers = now && now.view.board.phase !== "over" ? now.legal_moves.filter((move) => move.type === type) : [];
    if (!offers.length) {
      redrawLatest(); // the announcement was refused (the page says why): nothing is committed
      return;
    }
    const give = lettersText(plan.give);
    const get = lettersText(plan.get);
    const withCards = offers.some((move) => move.give_cards.length || move.get_cards.length);
    const made = offers.find((move) => move.give === give && move.get === get && !move.give_cards.length && !move.get_cards.length);
    if (made && !withCards) {
      await host.play(made.notation);
      return;
    }
    // the room trades territory cards too (R8.4), or the composed proposal is no longer possible:
    // the form of the announced proposal opens with what was composed
    form = { key: formKeyOf(now), give: { ...plan.give }, get: { ...plan.get }, cards: [], getCards: [],
      note: made ? "Announced. Add a territory card if you like, then send the proposal." : "Announced, but that proposal is not possible now: choose another (once announced, a proposal must be made, R8.2)." };
    redrawLatest();
  };
  return {
    render(message, ui) {
      latest = message;
      redrawLatest = () => this.render(latest, ui);
      const board = message.view.board;
      const formKey = formKeyOf(message);
      if (form.key !== formKey) {
        form = { key: formKey, give: emptyCounts(), get: emptyCounts(), cards: [], getCards: [] };
        // a new position: a proposal put together in the old one is not sent
        if (proposal.composing && !message.legal_moves.some((move) => move.notation === proposal.composing.announce.notation)) proposal.composing = null;
      }
      const viewer = message.seat === null || message.seat === undefined ? null : message.seat;
      const asked = question(message);
      const above = Boolean(asked) && stacked.matches;
      const decision = decisionPanel(message, ui, form, host, () => this.render(message, ui), proposal, { asked, above });
      // the question comes first in the page's order too, so that Tab reaches it where it is seen
      replace(root,
        score(message),
        h("div", { class: "terr-main" },
          above ? decision : null,
          h("div", { class: "terr-table" }, drawGrid(board, ui, message), legend(board)),
          h("div", { class: "terr-side" },
            dicePanel(board),
            above ? null : decision,
            hands(message, ui, viewer),
            bankPanel(board)),
        ),
      );
    },
    destroy() {
      stacked.removeEventListener("change", restack);
    },
  };
}

function formKeyOf(message) {
  return `${message.revision}/${message.ply}/${message.view.board.phase}`;
}

function emptyCounts() {
  return { H: 0, S: 0, C: 0, D: 0 };
}

function score(message) {
  const board = message.view.board;
  return h("div", { class: "bl-score terr-score" },
    message.view.seat_names.map((name, seat) => {
      const info = board.seats[seat];
      return h("span", { class: `terr-score-seat${board.active === seat && !message.view.over ? " to-move" : ""}`, dataset: { seat } },
        h("span", { class: "bl-chip", style: `background:${SEAT[seat].fill}` }),
        h("b", {}, name), info.label ? ` (${info.label === "P1" ? "plays first" : "plays second"})` : "",
        ` ${info.points} of ${board.target_points} points`,
        info.no_building_turns ? h("span", { class: "terr-warn" }, ` · no building for ${info.no_building_turns} turn(s)`) : "",
      );
    }),
    // turn 0 is the set-up (the free Towns): no turn has been played yet
    h("span", { class: "muted" }, board.turn ? `turn ${board.turn} of ${board.max_turns}` : `the set-up (then ${board.max_turns} turns at most)`),
  );
}

// --- the grid ---------------------------------------------------------------------------------
function drawGrid(board, ui, message) {
  const cells = new Map(board.grid.map(([c, r, code]) => [`${c},${r}`, code]));
  // empty cells a card may be laid in (Expand) belong to the drawing too, so that they can be clicked
  const openCells = new Set();
  for (const [key] of ui.targets) if (key.startsWith("cell:") && !cells.has(key.slice(5))) openCells.add(key.slice(5));
  for (const move of message.legal_moves) if (move.type === "place_card") openCells.add(`${move.cell[0]},${move.cell[1]}`);
  const all = [...cells.keys(), ...openCells].map((k) => k.split(",").map(Number));
  const minC = Math.min(...all.map((p) => p[0]));
  const minR = Math.min(...all.map((p) => p[1]));
  const maxC = Math.max(...all.map((p) => p[0]));
  const maxR = Math.max(...all.map((p) => p[1]));
  const X = (c) => MARGIN + 18 + (c - minC) * CELL_W;
  const Y = (r) => MARGIN + (r - minR) * CELL_H;
  const width = X(maxC + 1) + MARGIN;
  const height = Y(maxR + 1) + MARGIN + 16;
  const root = svg("svg", {
    class: "bl-board-svg terr-board", viewBox: `0 0 ${width} ${height}`, role: "img",
    "aria-label": "the Territories grid of cards with the buildings on their corners",
  });
  const rolled = board.last_roll && board.phase !== "setup" ? board.last_roll[0] + board.last_roll[1] : null;
  const lastKeys = lastMoveKeys(ui.lastMove);
  // column and row numbers: a corner x,y is where column line x meets row line y
  for (let c = minC; c <= maxC + 1; c++) root.append(svg("text", { x: X(c), y: height - 6, class: "terr-coord", "text-anchor": "middle" }, c));
  for (let r = minR; r <= maxR + 1; r++) root.append(svg("text", { x: 12, y: Y(r) + 4, class: "terr-coord", "text-anchor": "middle" }, r));
  for (const [key, code] of cells) {
    const [c, r] = key.split(",").map(Number);
    root.append(gridCard(code, c, r, X(c), Y(r), ui, rolled === cardNumber(code), lastKeys.has(`cell:${key}`)));
  }
  for (const key of openCells) {
    if (cells.has(key)) continue;
    const [c, r] = key.split(",").map(Number);
    const name = `cell:${key}`;
    if (!ui.targets.has(name)) continue;
    root.append(svg("g", { class: `terr-cell terr-open ${ui.selected.length ? "bl-target" : "bl-movable"}`, dataset: { key: name }, tabindex: 0, role: "button", "aria-label": `empty cell [${c},${r}]` },
      svg("rect", { x: X(c) + 4, y: Y(r) + 4, width: CELL_W - 8, height: CELL_H - 8, rx: 7, fill: "#fff8dc", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": "7 5" }),
      svg("text", { x: X(c) + CELL_W / 2, y: Y(r) + CELL_H / 2 + 6, "text-anchor": "middle", class: "terr-open-text" }, "lay here")));
  }
  // corners: every intersection of the grid, built or clickable
  const corners = new Set();
  for (const key of cells.keys()) {
    const [c, r] = key.split(",").map(Number);
    for (const [dx, dy] of [[0, 0], [1, 0], [0, 1], [1, 1]]) corners.add(`${c + dx},${r + dy}`);
  }
  const buildings = new Map(board.buildings.map(([x, y, owner, kind]) => [`${x},${y}`, { owner, kind }]));
  for (const key of corners) {
    const [x, y] = key.split(",").map(Number);
    root.append(corner(`pt:${key}`, X(x), Y(y), buildings.get(key), ui, lastKeys.has(`pt:${key}`)));
  }
  return root;
}

/** The keys the last move touched, from its structure: the point a build, a raid or a
 * conversion names, the cell a swap or an expansion names. */
function lastMoveKeys(entry) {
  const keys = new Set();
  const move = entry && entry.move;
  if (!move) return keys;
  if (move.point) keys.add(`pt:${move.point[0]},${move.point[1]}`);
  if (move.cell) keys.add(`cell:${move.cell[0]},${move.cell[1]}`);
  return keys;
}

function gridCard(code, c, r, x, y, ui, produced, last) {
  const key = `cell:${c},${r}`;
  const suit = SUIT[code[1]];
  const target = ui.targets.has(key);
  const classes = ["terr-cell"];
  if (target) classes.push(ui.selected.length ? "bl-target" : "bl-movable");
  const number = cardNumber(code);
  const group = svg("g", {
    class: classes.join(" "), dataset: { key, card: code }, tabindex: target ? 0 : null, role: target ? "button" : null,
    "aria-label": `card ${cardName(code)} at [${c},${r}]: yields ${suit.name} on a roll of ${number}`,
  });
  group.append(svg("rect", { x: x + 3, y: y + 3, width: CELL_W - 6, height: CELL_H - 6, rx: 7, class: "terr-card-face", fill: produced ? "#fff2b3" : "#fff", stroke: produced ? "#d4a017" : "#b9b2a2", "stroke-width": produced ? 3 : 1.2 }));
  if (last) group.append(svg("rect", { x: x + 5, y: y + 5, width: CELL_W - 10, height: CELL_H - 10, rx: 6, class: "bl-last", fill: "#4aa3ff", "fill-opacity": 0.22 }));
  group.append(svg("text", { x: x + 11, y: y + 24, class: "terr-rank", fill: suit.colour }, rankLabel(code)));
  group.append(svg("text", { x: x + 11, y: y + 40, class: "terr-rank-suit", fill: suit.colour }, suit.symbol));
  group.append(svg("text", { x: x + CELL_W / 2, y: y + CELL_H / 2 + 14, class: "terr-big-suit", fill: suit.colour, "text-anchor": "middle" }, suit.symbol));
  // the number it produces on, with dots for how likely that roll is (out of 36)
  group.append(svg("circle", { cx: x + CELL_W / 2, cy: y + CELL_H - 24, r: 12, fill: produced ? "#f5c518" : "#f1ece0", stroke: "#8a7f66" }));
  group.append(svg("text", { x: x + CELL_W / 2, y: y + CELL_H - 19.5, class: "terr-number", "text-anchor": "middle", fill: number === 6 || number === 8 ? "#b3261e" : "#2a261c" }, number));
  for (let i = 0; i < ways(number); i++) {
    group.append(svg("circle", { cx: x + CELL_W / 2 + (i - (ways(number) - 1) / 2) * 5, cy: y + CELL_H - 7, r: 1.7, fill: "#6b6250" }));
  }
  if (target) {
    group.append(svg("rect", { x: x + 2, y: y + 2, width: CELL_W - 4, height: CELL_H - 4, rx: 8, fill: "none", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": ui.selected.length ? null : "7 5" }));
  }
  return group;
}

function corner(key, x, y, building, ui, last) {
  const target = ui.targets.has(key);
  const selected = ui.selected[0] === key;
  const classes = ["terr-corner"];
  if (target) classes.push(ui.selected.length ? "bl-target" : "bl-movable");
  if (selected) classes.push("bl-selected");
  const [px, py] = key.slice(3).split(",");
  const label = building
    ? `${BUILDING[building.kind].name} of seat ${building.owner} at corner ${px},${py}`
    : `empty corner ${px},${py}`;
  const group = svg("g", { class: classes.join(" "), dataset: { key, building: building ? `${building.owner}${building.kind}` : "" }, tabindex: target ? 0 : null, role: target ? "button" : null, "aria-label": label });
  if (last) group.append(svg("circle", { cx: x, cy: y, r: 21, class: "bl-last", fill: "#4aa3ff", "fill-opacity": 0.45 }));
  if (selected) group.append(svg("circle", { cx: x, cy: y, r: 20, fill: "#f2b600", "fill-opacity": 0.5, stroke: "#e0a800", "stroke-width": 3 }));
  if (building) {
    const colours = SEAT[building.owner];
    group.append(svg("circle", { cx: x, cy: y, r: 15, fill: colours.fill, stroke: colours.line, "stroke-width": 2 }));
    group.append(svg("text", { x, y: y + 7, class: "terr-piece", fill: colours.ink, "text-anchor": "middle" }, BUILDING[building.kind].glyph));
  } else {
    group.append(svg("circle", { cx: x, cy: y, r: target ? 9 : 3, fill: target ? "#fff8dc" : "#b9b2a2", stroke: target ? "#8a6d00" : "none" }));
  }
  if (target && !selected) {
    group.append(svg("circle", { cx: x, cy: y, r: 18, fill: "none", stroke: "#e0a800", "stroke-width": 3, "stroke-dasharray": ui.selected.length ? null : "5 4" }));
  }
  // a larger invisible disc so that a corner is easy to hit
  group.append(svg("circle", { cx: x, cy: y, r: 20, fill: "transparent" }));
  return group;
}

function legend(board) {
  const piece = (kind) => h("li", {}, h("span", { class: "terr-legend-piece" }, BUILDING[kind].glyph),
    `${BUILDING[kind].name} ${BUILDING[kind].points} pt${kind === "P" ? ", on a corner" : ""} · costs `, goods(BUILDING[kind].cost),
    BUILDING[kind].grants ? ` · ${BUILDING[kind].grants}` : "");
  return h("div", { class: "terr-legend" },
    h("ul", { class: "bl-legend" },
      h("li", {}, h("span", { class: "bl-chip", style: `background:${SEAT[0].fill}` }), "White's buildings"),
      h("li", {}, h("span", { class: "bl-chip", style: `background:${SEAT[1].fill}` }), "Black's buildings"),
      h("li", {}, h("span", { class: "terr-legend-number" }, "8"), "the roll a card pays on (its rank: J = 11, Q = 12); dots: chances out of 36"),
      h("li", {}, h("span", { class: "terr-legend-produced" }), "cards paying on the last roll"),
      h("li", {}, h("span", { class: "terr-legend-last" }), "last move"),
    ),
    h("ul", { class: "bl-legend terr-pieces" }, Object.keys(BUILDING).map(piece)),
    h("p", { class: "bl-hint" },
      `Each building collects the suit of every card it touches when that card's number is rolled (a Palace twice, a Temple any suit). First to ${board.target_points} points wins.`),
  );
}

// --- dice, bank, hands -----------------------------------------------------------------------
function die(value) {
  const spots = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]], 5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [2, 0], [0, 1], [2, 1], [0, 2], [2, 2]] };
  return svg("svg", { class: "terr-die", width: 34, height: 34, viewBox: "0 0 34 34", role: "img", "aria-label": `die ${value}` },
    svg("rect", { x: 1, y: 1, width: 32, height: 32, rx: 6, fill: "#fff", stroke: "#555", "stroke-width": 1.5 }),
    (spots[value] || []).map(([i, j]) => svg("circle", { cx: 8 + i * 9, cy: 8 + j * 9, r: 3, fill: "#222" })));
}

function dicePanel(board) {
  const roll = board.last_roll;
  return h("div", { class: "terr-panel terr-dice", dataset: { roll: roll ? roll.join("+") : "" } },
    h("span", { class: "terr-panel-title" }, "Last roll"),
    roll ? [die(roll[0]), die(roll[1]), h("b", {}, ` = ${roll[0] + roll[1]}`),
      h("span", { class: "muted" }, roll[0] + roll[1] === 7 ? " a 7: nobody collects; hands over 7 cards discard" : " cards with this number pay")]
      : h("span", { class: "muted" }, "no roll yet"),
    board.ability && board.die ? h("span", { class: "terr-ability-die" }, ` ${board.ability} die: `, die(board.die)) : "",
  );
}

function bankPanel(board) {
  return h("div", { class: "terr-panel terr-bank" },
    h("span", { class: "terr-panel-title" }, "Bank"),
    h("span", {}, [...SUITS].map((s) => h("span", { class: "terr-res", style: `color:${SUIT[s].colour}`, title: SUIT[s].name }, `${SUIT[s].symbol} ${board.bank[s]} `))),
    h("span", { class: "muted" }, ` · pile: ${board.pile_size} card${board.pile_size === 1 ? "" : "s"} face down`),
    board.pile_bottom.length ? h("span", {}, " · under the pile: ", board.pile_bottom.map(cardName).join(" ")) : "",
    board.discard.length ? h("span", {}, " · discarded: ", board.discard.map(cardName).join(" ")) : "",
  );
}

function hands(message, ui, viewer) {
  const board = message.view.board;
  const order = viewer === null ? [0, 1] : [viewer, 1 - viewer];
  return order.map((seat) => hand(message, ui, seat, seat === viewer));
}

function hand(message, ui, seat, own) {
  const board = message.view.board;
  const info = board.seats[seat];
  const name = message.view.seat_names[seat];
  const known = new Set(info.known_to_opponent);
  // the view holds only the cards this viewer may see; the others are backs
  const hidden = info.territory_count - info.territories.length;
  const cards = info.territories.map((code) => handCard(code, ui, own && known.has(code)));
  for (let i = 0; i < hidden; i++) cards.push(h("span", { class: "terr-hand-card terr-back", title: "a territory card you cannot see" }));
  const resources = info.resources
    ? [...SUITS].map((s) => h("span", { class: "terr-res terr-res-count", style: `color:${SUIT[s].colour}`, title: SUIT[s].name, dataset: { suit: s } }, `${SUIT[s].symbol} ${info.resources[s]}`))
    : h("span", { class: "muted" }, `${info.resource_count} resources (hidden)`);
  const supply = Object.entries(info.supply).filter(([, n]) => n).map(([kind, n]) => `${BUILDING[kind].glyph}${n}`).join(" ");
  return h("div", { class: `terr-panel terr-hand${own ? " terr-own" : ""}`, dataset: { seat } },
    h("div", { class: "terr-panel-title" },
      h("span", { class: "bl-chip", style: `background:${SEAT[seat].fill}` }),
      own ? `Your hand (${name})` : `${name}'s hand`,
      h("span", { class: "muted" }, ` · ${info.hand_size} card${info.hand_size === 1 ? "" : "s"} in hand${info.hand_size > board.hand_limit ? ` (over ${board.hand_limit}: discards on a 7)` : ""}`)),
    h("div", { class: "terr-resources" }, resources),
    h("div", { class: "terr-hand-cards" }, cards.length ? cards : h("span", { class: "muted" }, "no territory cards")),
    own && known.size ? h("div", { class: "muted terr-small" }, "underlined: cards your opponent has seen") : "",
    h("div", { class: "muted terr-small" }, `not yet built: ${supply || "none"}`),
  );
}

function handCard(code, ui, seen) {
  const key = `card:${code}`;
  const target = ui.targets.has(key);
  const classes = ["terr-hand-card"];
  if (target) classes.push(ui.selected.length ? "bl-target" : "bl-movable");
  if (ui.selected[0] === key) classes.push("bl-selected");
  if (seen) classes.push("terr-seen");
  const suit = SUIT[code[1]];
  return h(target ? "button" : "span", { class: classes.join(" "), dataset: { key, card: code }, style: `color:${suit.colour}`, title: `${cardName(code)}: pays ${suit.name} on ${cardNumber(code)}` },
    h("span", { class: "terr-hand-rank" }, rankLabel(code)), h("span", {}, suit.symbol));
}

// --- what the deciding player does -----------------------------------------------------------
function decisionPanel(message, ui, form, host, redraw, proposal, { asked = null, above = false } = {}) {
  const board = message.view.board;
  const moves = message.legal_moves;
  const names = message.view.seat_names;
  // a match that ended outside the rules (a resignation) leaves the rules' decision in the board
  if (message.view.over) return h("div", { class: "terr-panel terr-decide" }, h("p", { class: "terr-decision" }, "The game is over."));
  const parts = [h("p", { class: "terr-decision" }, sentence(board.decision))];
  if (board.offer) parts.push(offerLine(board.offer, names));
  // above the grid the hands are out of sight: what an answer or a discard is weighed against
  const own = board.seats[message.seat];
  if (above && own && own.resources && moves.some((move) => move.type === "accept" || move.type === "discard")) {
    parts.push(h("p", { class: "terr-small terr-holding" }, h("b", {}, "You hold "), goods(lettersText(own.resources), own.territories)));
  }
  if (proposal.sending) {
    parts.push(h("p", { class: "bl-hint", role: "status" }, "Sending the proposal…"));
  } else if (ui.interactive) {
    parts.push(h("p", { class: "bl-hint" }, hint(board, moves, ui)));
    const selected = ui.selected[0];
    if (selected && selected.startsWith("pt:")) parts.push(piecePalette(ui));
    const buttons = moves.filter((move) => !FORM_TYPES.has(move.type) && !(move.type in ANNOUNCES) && clickPath(move).length === 1 && !/^(pt|card|cell):/.test(clickPath(move)[0]));
    const announces = moves.filter((move) => move.type in ANNOUNCES);
    if (buttons.length || announces.length) parts.push(actionButtons(buttons, ui, announces, proposal));
    if (proposal.composing) parts.push(composeForm(message, proposal));
    const formType = moves.find((move) => FORM_TYPES.has(move.type))?.type;
    if (formType) parts.push(goodsForm(formType, message, form, host, redraw));
  }
  // a question is a region of its own: a screen reader's landmarks lead to it, and the page
  // finds it (bl-question) to offer a way back to it when it is scrolled out of sight
  return h("div", {
    class: `terr-panel terr-decide${ui.interactive ? " terr-yours" : ""}${asked ? " bl-question" : ""}`,
    role: asked ? "region" : null, "aria-label": asked ? "for you to answer" : null,
  }, parts);
}

/** Why a composed proposal may not be made, by R8.2 as far as the viewer can tell from the
 * public holdings ("" when it may): checked before the announcement commits the player. */
export function proposalProblem(plan, own, other, otherName) {
  const given = [...SUITS].filter((s) => plan.give[s] > 0);
  const wanted = [...SUITS].filter((s) => plan.get[s] > 0);
  if (!given.length) return "Choose what you give: both sides need something (R8.2).";
  if (!wanted.length) return "Choose what you want: both sides need something (R8.2).";
  const both = given.find((s) => plan.get[s] > 0);
  if (both) return `${SUIT[both].name} on both sides: a suit goes one way only (R8.2).`;
  const short = given.find((s) => plan.give[s] > (own.resources?.[s] ?? 0));
  if (short) return `You hold only ${own.resources?.[short] ?? 0} ${SUIT[short].name} (R8.2).`;
  if (other.resources) {
    const missing = wanted.find((s) => plan.get[s] > other.resources[s]);
    if (missing) return `${otherName} holds only ${other.resources[missing]} ${SUIT[missing].name} (R8.2).`;
  } else if (wanted.reduce((sum, s) => sum + plan.get[s], 0) > other.resource_count) {
    return `${otherName} holds only ${other.resource_count} resources (R8.2).`;
  }
  return "";
}

/** The proposal put together before anything is sent: nothing is committed until "Send"; the
 * page then announces it (R8.2: \`propose\`, or R8.3: \`counter\`) and makes it at once. */
function composeForm(message, proposal) {
  const board = message.view.board;
  const seat = message.seat;
  const plan = proposal.composing;
  const own = board.seats[seat];
  const other = board.seats[1 - seat];
  const otherName = message.view.seat_names[1 - seat];
  const counter = plan.announce.type === "propose_counter";
  const wantMax = other.resources || Object.fromEntries([...SUITS].map((s) => [s, other.resource_count]));
  const problem = proposalProblem(plan, own, other, otherName);
  const section = (title, counts, max, side) => h("fieldset", { class: "terr-compose-side" },
    h("legend", { class: "terr-form-label" }, title),
    h("div", { class: "terr-form-row terr-steppers" }, [...SUITS].map((s) => stepper(counts, s, max, side, () => proposal.redraw()))));
  return h("form", {
    class: "terr-form terr-compose", dataset: { type: counter ? "compose-counter" : "compose-offer" },
    "aria-label": counter ? "your counter-proposal" : "your trade proposal",
    onsubmit: (event) => { event.preventDefault(); if (!proposalProblem(plan, own, other, otherName)) proposal.send(plan); },
  },
    h("p", { class: "terr-small" }, counter
      ? `Your counter-proposal to ${otherName} (it declines the open one, R8.3). Nothing is sent until you press Send.`
      : `Your proposal to ${otherName}. Nothing is sent until you press Send; then it is announced and made at once (R8.2).`),
    section("You give", plan.give, own.resources || emptyCounts(), "give"),
    section(`You want from ${otherName}`, plan.get, wantMax, "get"),
    h("p", { class: "terr-small terr-problem", role: "status" }, problem || `${counter ? "Counter" : "Offer"}: give ${describeGoods(plan.give)} for ${describeGoods(plan.get)}.`),
    h("div", { class: "terr-form-row" },
      h("button", { type: "submit", class: "primary", id: "terr-send-proposal", disabled: Boolean(problem) }, counter ? "Send the counter-proposal" : "Send the proposal"),
      h("button", { type: "button", id: "terr-cancel-proposal", onclick: () => proposal.cancel() }, "Cancel")),
  );
}

function describeGoods(counts) {
  // "1 Club", "2 Clubs"
  const parts = [...SUITS].filter((s) => counts[s]).map((s) => `${counts[s]} ${counts[s] === 1 ? SUIT[s].name.slice(0, -1) : SUIT[s].name}`);
  return parts.length ? parts.join(", ") : "nothing";
}

/** A suit's count in a form: − and + buttons named for screen readers, within 0..max. */
function stepper(counts, suit, max, side, redraw) {
  const name = SUIT[suit].name;
  return h("span", { class: "terr-stepper", role: "group", "aria-label": `${side === "get" ? "wanted" : side === "give" ? "given" : "chosen"} ${name}` },
    h("button", { type: "button", class: "terr-step", "aria-label": `one ${name} less`, disabled: counts[suit] <= 0, onclick: () => { counts[suit]--; redraw(); } }, "−"),
    h("span", { class: "terr-res", style: `color:${SUIT[suit].colour}`, "aria-live": "polite" }, `${SUIT[suit].symbol} ${counts[suit]}`, h("span", { class: "bl-sr-only" }, ` ${name}`)),
    h("button", { type: "button", class: "terr-step", "aria-label": `one ${name} more`, disabled: counts[suit] >= (max[suit] || 0), onclick: () => { counts[suit]++; redraw(); } }, "+"));
}

function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) + "." : "";
}

function offerLine(offer, names) {
  return h("div", { class: "terr-offer" },
    h("b", {}, `${names[offer.from]} offers `), goods(offer.gives, offer.gives_cards),
    h("b", {}, ` to ${names[offer.to]} for `), goods(offer.wants, offer.wants_cards));
}

function hint(board, moves, ui) {
  const types = new Set(moves.map((move) => move.type));
  if (ui.selected.length && ui.selected[0].startsWith("pt:")) return "Choose the building to put there. Esc cancels.";
  if (ui.selected.length && ui.selected[0].startsWith("card:")) return `Click the highlighted cell for this card${types.has("place_card") ? " (beside the grid)" : " (its grid card comes to your hand, face up)"}. Esc cancels.`;
  if (board.phase === "setup") return "Click a corner (dashed circle) to place a free Town.";
  if (types.has("accept")) return types.has("propose_counter") ? "Accept the trade, reject it, or counter it." : "Accept the trade, or reject it.";
  if (types.has("destroy")) return "Click the opponent's Town to remove.";
  if (types.has("convert_to")) return "Click the opponent's building to take over, then the piece that replaces it.";
  if (types.has("swap_card") || types.has("place_card")) return "Click a card of your hand, then where it goes.";
  if (types.has("build")) {
    const towns = moves.some((move) => move.type === "build" && move.kind === "P");
    const upgrades = moves.some((move) => move.type === "build" && move.kind !== "P");
    const ways = [towns && "a dashed empty corner to build a Town", upgrades && "one of your ringed buildings to upgrade it"];
    return `Click ${ways.filter(Boolean).join(", or ")}; or use a button below.`;
  }
  if (types.has("discard")) return "Choose the cards to discard below.";
  if (types.has("wild")) {
    // before the first turn, the wildcards are the second player's starting resources (rule R3.4)
    if (board.turn === 0) return "Choose your starting resources below (the second player's compensation).";
    return "Choose the suits of your Temple's wildcard resources below.";
  }
  if (types.has("pay")) return "Choose the resources to pay below.";
  if (types.has("offer") || types.has("counter")) return "Put the trade together below: what you give and what you want.";
  return "Choose below.";
}

function piecePalette(ui) {
  return h("div", { class: "terr-buttons" },
    [...ui.targets.keys()].filter((key) => key.startsWith("kind:")).map((key) => {
      const kind = key.slice(5);
      const building = BUILDING[kind];
      return h("button", { class: "terr-action bl-target", dataset: { key }, title: building.grants ? `grants ${building.grants}` : "" },
        h("span", { class: "terr-legend-piece" }, building.glyph), ` ${building.name} (${building.points} pt) `, goods(building.cost));
    }));
}

function actionButtons(moves, ui, announces = [], proposal = null) {
  const label = (move) => {
    switch (move.type) {
      case "end_turn": return "End the turn";
      case "propose_trade": return "Propose a trade…";
      case "propose_counter": return "Counter-propose…";
      case "accept": return "Accept the trade";
      case "reject": return "Reject it";
      case "announce": return ABILITY[move.ability] || move.ability;
      default: return move.notation;
    }
  };
  const button = (move, content) => h("button", { class: `terr-action ${ui.targets.has(move.notation) ? "bl-movable" : ""}${move.type === "accept" ? " primary" : ""}`, dataset: { key: move.notation, type: move.type }, title: move.notation }, content);
  const order = ["accept", "reject", "propose_counter", "announce", "propose_trade", "end_turn"];
  const sorted = moves.filter((move) => move.type !== "bank_trade").sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type));
  // bank trades grouped by what is given: "give ♥×4 for: ♠ ♣ ♦ a card"
  const byGive = new Map();
  for (const move of moves.filter((m) => m.type === "bank_trade")) byGive.set(move.give, [...(byGive.get(move.give) || []), move]);
  // a proposal is composed first (composeForm); the button opens that form, it sends nothing
  const composing = proposal && proposal.composing;
  const composeButtons = announces.map((move) => h("button", {
    type: "button", class: `terr-action terr-compose-open${ui.hint === move.notation ? " bl-target" : ""}`, dataset: { announce: move.type }, "aria-expanded": String(Boolean(composing && composing.announce.notation === move.notation)),
    onclick: () => (composing ? proposal.cancel() : proposal.open(move)),
  }, move.type === "propose_counter" ? "Counter-propose…" : "Propose a trade…"));
  return h("div", {},
    h("div", { class: "terr-buttons" }, sorted.map((move) => button(move, label(move))), composeButtons),
    [...byGive].map(([give, trades]) => h("div", { class: "terr-buttons terr-bank-trades" },
      h("span", {}, "Bank: give "), goods(give), h("span", {}, " for"),
      trades.map((move) => button(move, move.get === "T" ? "a territory card" : goods(move.get))))));
}

/** A proposal, a discard, wildcards or a payment: counts per suit (and cards) put together,
 * then sent when they name one of the legal moves. */
function goodsForm(type, message, form, host, redraw) {
  const board = message.view.board;
  const seat = message.seat;
  const moves = message.legal_moves.filter((move) => move.type === type);
  const own = board.seats[seat];
  const other = board.seats[1 - seat];
  const trading = type === "offer" || type === "counter";
  const giveMax = type === "wild" ? board.bank : own.resources || emptyCounts();
  const rows = [];
  const giveTitle = { offer: "You give", counter: "You give", discard: "Discard", wild: "Take from the bank", pay: "Pay" }[type];
  rows.push(h("div", { class: "terr-form-label" }, giveTitle), h("div", { class: "terr-form-row terr-steppers" }, [...SUITS].map((s) => stepper(form.give, s, giveMax, trading ? "give" : "", redraw))));
  if (trading) {
    rows.push(h("div", { class: "terr-form-label" }, "You want"), h("div", { class: "terr-form-row terr-steppers" }, [...SUITS].map((s) => stepper(form.get, s, other.resources || emptyCounts(), "get", redraw))));
  }
  // territory cards that may go with it: a discard's, or one per side of a proposal (option)
  const cardChoices = (field, side) => [...new Set(moves.flatMap((move) => move[field] || []))].map((code) =>
    h("button", {
      type: "button", class: `terr-hand-card terr-pick${form[side].includes(code) ? " bl-selected" : ""}`, style: `color:${SUIT[code[1]].colour}`,
      onclick: () => { form[side] = form[side].includes(code) ? form[side].filter((c) => c !== code) : [...form[side], code]; redraw(); },
    }, h("span", { class: "terr-hand-rank" }, rankLabel(code)), h("span", {}, SUIT[code[1]].symbol)));
  const field = type === "discard" ? "cards" : "give_cards";
  const cardsToGive = cardChoices(field, "cards");
  if (cardsToGive.length) rows.push(h("div", { class: "terr-form-row" }, h("span", { class: "terr-form-label" }, type === "discard" ? "and cards" : "your card"), cardsToGive));
  const cardsToGet = trading ? cardChoices("get_cards", "getCards") : [];
  if (cardsToGet.length) rows.push(h("div", { class: "terr-form-row" }, h("span", { class: "terr-form-label" }, "their card"), cardsToGet));
  const give = lettersText(form.give);
  const same = (a, b) => [...a].sort().join() === [...(b || [])].sort().join();
  const chosen = moves.find((move) => {
    if (type === "discard") return move.resources === give && same(form.cards, move.cards);
    if (type === "wild" || type === "pay") return move.resources === give;
    return move.give === give && move.get === lettersText(form.get) && same(form.cards, move.give_cards) && same(form.getCards, move.get_cards);
  });
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const need = { discard: () => plural(board.discards_owed.find(([s]) => s === seat)?.[1] ?? 0, "card"), wild: () => `${board.wildcards_owed.find(([s]) => s === seat)?.[1] ?? "?"} (at most what the bank holds)`, pay: () => plural(board.die, "resource") }[type];
  return h("form", { class: "terr-form", dataset: { type }, onsubmit: (event) => { event.preventDefault(); if (chosen) host.play(chosen.notation); } },
    form.note ? h("p", { class: "terr-small terr-note", role: "status" }, form.note) : "",
    need ? h("p", { class: "terr-small" }, `Choose ${need()}.`) : h("p", { class: "terr-small" }, "Both sides need something, and no suit on both sides. Once announced, a proposal must be made (R8.2)."),
    rows,
    h("div", { class: "terr-form-row" },
      h("button", { type: "submit", class: "primary", id: "terr-send", disabled: !chosen }, { offer: "Send the offer", counter: "Send the counter-offer", discard: "Discard", wild: "Take them", pay: "Pay" }[type]),
      h("span", { class: "muted terr-small" }, chosen ? chosen.notation : "not a legal choice yet")),
  );
}
