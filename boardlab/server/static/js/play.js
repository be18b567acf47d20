// The play page (/rooms/ROOM, and /rooms/ROOM?invite=CODE to join): one room, live.
//
// The server is the only authority: the page shows the last state message it got (over HTTP
// or the WebSocket, the newer revision wins), asks the renderer to draw it, and sends moves
// as their notation. Nothing is decided here but what to show.

import * as api from "./api.js";
import { BoardZoom } from "./boardzoom.js";
import { h, onBoardKeys, replace } from "./dom.js";
import { watchRoom } from "./live.js";
import { bannerText, drawCarry, drawInvites, drawMoves, drawPlayers, personName, seatAndPerson, seatName } from "./panels.js";
import { MovePicker } from "./picker.js";
import { adoptRematch, drawRematch, followsNow, rematchQuestion } from "./rematch.js";
import { ensurePlayer, linkSeats, roomNames } from "./players.js";
import { drawPlaytestForm } from "./playtest-form.js";
import { loadRenderer } from "./renderers.js";
import { Replay } from "./replay.js";
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
const root = $("play");
const roomId = decodeURIComponent(location.pathname.split("/")[2] || "");
// where boardlab.css stacks the side panels under the board: a question the people here must
// answer (a draw or a rematch offered) is shown above the board instead of in the Play panel
const STACKED = window.matchMedia("(max-width: 900px)");

const page = {
  message: null, // the latest state message
  game: null, // the game's catalog entry
  module: null, // the renderer module
  renderer: null, // its mounted instance (null while the board is hidden)
  picker: null,
  identity: null, // {token, seats}: which of this browser's tokens the page acts with
  shownSeat: null, // whose view the screen showed last (same-screen hand-over)
  handOver: { key: "", needed: null }, // whether the view in waiting needs a hand-over
  live: null,
  busy: false, // a request is on its way: no second move meanwhile
  replay: null, // the replay view of a finished game
  connection: "",
  offline: false, // the socket is down: the server may be too, so no move is offered or sent
  confirmResign: false,
  receivedAt: 0,
  hint: null, // the engine's suggestion for this position: {revision, seat, busy | move, text, path, highlighted | error}
  names: {}, // the remembered players' names by seat (for the room's own players: docs/playtests.md)
  joined: -1, // how many seats had their person when the names were read
  asked: null, // what the people here are asked to answer now, in words (null: nothing)
  drawOffer: null, // the draw offer as the last message showed it: {seats, moves}
  drawDeclined: null, // "Black declined the draw.": said to those who offered it, until the next move
  carry: { open: false }, // the "Play on another device" panel: whether it is open
};

// --- starting ------------------------------------------------------------------------------
async function start() {
  if (!roomId) return fail("No room in the address.");
  const invite = new URLSearchParams(location.search).get("invite");
  if (invite) await joinWithInvite(invite);
  const carried = new URLSearchParams(location.hash.slice(1)).get("seat");
  if (carried) await takeCarriedSeat(carried);
  page.identity = (store.roomEntry(roomId) || { identities: [] }).identities[0] || null;
  let message;
  try {
    message = await fetchState();
  } catch (error) {
    return fail(error.code === "unknown_room" ? `There is no room ${roomId} on this server.` : error.message);
  }
  // act with the token that holds the seat deciding now, if this browser has several
  const deciding = store.identityFor(roomId, message.to_move);
  if (deciding && deciding.token !== page.identity?.token) {
    page.identity = deciding;
    message = await fetchState();
  }
  page.game = await api.game(message.game);
  document.title = `${page.game.name} · boardlab`;
  $("game-title").textContent = page.game.name;
  if (page.game.rules_page) {
    $("rules-link").href = page.game.rules_page;
    $("rules-link").hidden = false;
  }
  const { module, notice } = await loadRenderer(page.game);
  page.module = module;
  if (notice) showNotice(notice);
  page.picker = new MovePicker(module.clickPath || null);
  page.zoom = new BoardZoom($("board"), $("zoom"), page.game.id);
  page.replay = new Replay(roomId, () => page.identity?.token, () => drawAll());
  await linkSeats(roomId); // this browser's remembered player sits in its seats
  accept(message);
  page.live = watchRoom(roomId, page.identity?.token, { onState: accept, onStatus: connectionChanged });
  setInterval(tickClock, 1000);
  STACKED.addEventListener("change", () => drawAll());
  window.addEventListener("scroll", placeQuestionJump, { passive: true });
  window.addEventListener("resize", placeQuestionJump, { passive: true });
  $("question-jump").addEventListener("click", showQuestion);
}

/** The room's state as the active identity sees it; a token the server does not know is dropped. */
async function fetchState() {
  try {
    return await api.roomState(roomId, page.identity?.token);
  } catch (error) {
    if (error.code === "bad_token" && page.identity) {
      store.dropIdentity(roomId, page.identity.token);
      page.identity = null;
      return api.roomState(roomId, null);
    }
    throw error;
  }
}

/**
 * What an invitation is to, in words, from the room as anybody may see it: "Ann invites you to
 * play Towers (you would play Black)". Null where the room cannot be read (the join form then
 * says why).
 */
async function invitationWords() {
  try {
    const room = await api.roomState(roomId, null);
    const game = await api.game(room.game);
    const free = room.seats.filter((seat) => seat.kind === "invite" && !seat.joined).map((seat) => seatName(room, seat.seat));
    const hosts = room.seats.filter((seat) => seat.kind === "here").map((seat) => personName(room, seat.seat)).filter(Boolean);
    const host = hosts.length ? `${hosts.join(" and ")} ${hosts.length > 1 ? "invite" : "invites"} you` : "You are invited";
    const seat = free.length === 1 ? ` (you would play ${free[0]})` : free.length ? ` (a free seat: ${free.join(" or ")})` : "";
    return { title: `${host} to play ${game.name}${seat}`, summary: game.summary, used: !free.length };
  } catch {
    return null;
  }
}

async function joinWithInvite(code) {
  const about = await invitationWords();
  return new Promise((resolve) => {
    if (about && about.used && store.heldSeats(roomId).length) {
      // this browser joined with the link before: straight to its seat
      history.replaceState(null, "", `/rooms/${encodeURIComponent(roomId)}`);
      resolve();
      return;
    }
    const card = $("join");
    const known = store.player();
    const name = h("input", {
      id: "join-name", maxlength: 40, placeholder: "your name (optional)", autocomplete: "nickname", value: known ? known.name : null,
    });
    const status = h("p", { class: "muted", role: "status" });
    const done = () => {
      history.replaceState(null, "", `/rooms/${encodeURIComponent(roomId)}`);
      card.hidden = true;
      resolve();
    };
    const joinButton = h("button", { class: "primary", id: "join-button", type: "submit" }, "Join the game");
    const form = h("form", {
      onsubmit: async (event) => {
        event.preventDefault();
        joinButton.disabled = true;
        try {
          // a name makes (or renames) this browser's remembered player: it is shown to this
          // game's players only, not to everyone who watches
          const player = await ensurePlayer(name.value);
          const joined = await api.join(roomId, code, undefined, player ? player.key : undefined);
          store.addIdentity(roomId, joined.state.game, joined.token, [joined.seat]);
          if (player) store.markLinked(roomId, joined.token);
          done();
        } catch (error) {
          joinButton.disabled = false;
          const already = error.code === "seat_taken" && store.heldSeats(roomId).length;
          if (already) return done(); // this browser joined with the link before
          // a refusal is said as one: where the person looks, in the page's colour for it
          status.className = "alert";
          status.setAttribute("role", "alert");
          status.textContent =
            error.code === "seat_taken" ? "This invitation has been used already: you can watch the game."
            : error.code === "bad_invite" ? "This invitation is not valid for this room."
            : error.message;
        }
      },
    }, h("label", { for: "join-name" }, "Your name"), name, joinButton,
    h("p", { class: "muted join-privacy" }, "Shown to the other players of your games only; this browser remembers it."));
    if (about && about.used) {
      // every invited seat is taken: nothing to join, the game to watch
      replace(card,
        h("h2", { id: "join-title" }, "This invitation has been used already"),
        h("p", {}, `${about.title.replace(/ \(.*\)$/, "")}: every invited seat has its player. You can watch the game.`),
        h("button", { type: "button", class: "primary", id: "watch-instead", onclick: done }, "Watch the game"),
      );
    } else {
      replace(card,
        h("h2", { id: "join-title" }, about ? about.title : "You are invited to a game"),
        about && about.summary ? h("p", { class: "muted" }, about.summary) : null,
        h("p", {}, "Join to take your seat. The game starts when every invited player has joined."),
        form, status,
        h("button", { type: "button", class: "link", onclick: done }, "Just watch"),
      );
    }
    $("banner").textContent = "An invitation";
    card.hidden = false;
    root.dataset.mode = "join";
  });
}

/** A link from "Play on another device" (#seat=TOKEN): hold that token's seats in this browser
 * too. The token leaves the address bar first, so that it is not bookmarked or shared with the page. */
async function takeCarriedSeat(token) {
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const state = await api.roomState(roomId, token);
    if (state.your_seats && state.your_seats.length) store.addIdentity(roomId, state.game, token, state.your_seats);
  } catch (error) {
    showNotice(error.code === "bad_token"
      ? "This link to a seat does not work for this room (the game may have been deleted): you can watch the game."
      : `This link to a seat could not be checked: ${error.message}`);
  }
}

function fail(text) {
  root.dataset.mode = "error";
  $("banner").textContent = text;
}

// --- state -----------------------------------------------------------------------------------
/**
 * A state message from anywhere. Ignored (false) when older than the one shown, or when it is
 * the same revision seen by another of this screen's seats while the one shown decides (an
 * action's answer is its actor's view; the socket's is the deciding seat's, which wins).
 */
function accept(message) {
  const previous = page.message;
  if (previous && message.revision < previous.revision) return false;
  if (previous && message.revision === previous.revision && message.seat !== previous.seat && previous.seat === previous.to_move) {
    return false;
  }
  const changed = !previous || message.revision !== previous.revision || message.seat !== previous.seat;
  page.message = message;
  page.receivedAt = Date.now();
  if (changed) {
    page.picker.setMoves(message.legal_moves);
    hideChooser();
    page.confirmResign = false;
    page.hint = null; // a hint is for the position it was asked in
  }
  if (message.status === "finished") page.replay.finish(message);
  const joined = message.seats.filter((seat) => seat.joined).length;
  if (joined !== page.joined) {
    // a guest came (with their name, linked as they joined): the players' names are read again
    page.joined = joined;
    roomNames(roomId, page.identity?.token).then((names) => {
      page.names = names;
      drawAll();
    });
  }
  // the rematch started while this page watched: go there (spectators too)
  if (followsNow(previous, message)) location.assign(adoptRematch(roomId, message));
  // a second identity of this browser (its own invite link) holds the seat deciding now
  const deciding = store.identityFor(roomId, message.to_move);
  if (deciding && page.identity && deciding.token !== page.identity.token && page.live) {
    page.identity = deciding;
    page.live.auth(deciding.token);
  }
  drawAll();
  return true;
}

function held() {
  return store.heldSeats(roomId);
}

/**
 * Must the screen be handed over before `message` shows? When people share this screen in a
 * game that hides something, and the view is now another seat's than the one shown, and the two
 * seats' views really differ (the board or the log; Honor hides only its seed, so it never
 * asks). Returns null while finding out: the screen then keeps what it showed.
 */
function handOverNeeded(message) {
  const seats = held();
  if (!page.game.hidden_information || message.seat === null || message.seat === page.shownSeat || seats.length < 2) {
    return false;
  }
  const key = `${message.revision}:${message.seat}:${page.shownSeat}`;
  if (page.handOver.key === key) return page.handOver.needed;
  page.handOver = { key, needed: null };
  const other = page.shownSeat !== null ? page.shownSeat : seats.find((seat) => seat !== message.seat);
  viewsDiffer(message, other).then((needed) => {
    if (page.handOver.key !== key) return;
    page.handOver.needed = needed;
    drawAll();
  });
  return null;
}

/** Whether `other`'s view of the room differs from the one in `message` (when unsure: yes). */
async function viewsDiffer(message, other) {
  try {
    const theirs = await api.roomState(roomId, store.identityFor(roomId, other).token, other);
    const seen = (state) => JSON.stringify([state.view.board, state.log.map((entry) => entry.text)]);
    return theirs.revision !== message.revision || seen(theirs) !== seen(message);
  } catch {
    return true;
  }
}

// --- drawing ---------------------------------------------------------------------------------
function drawAll() {
  const message = page.message;
  if (!message) return;
  const heldSeats = held();
  root.dataset.status = message.status;
  root.dataset.ply = message.ply;
  root.dataset.revision = message.revision;
  root.dataset.moves = message.log.length;
  root.dataset.seat = message.seat === null ? "" : message.seat;
  root.dataset.toMove = message.to_move === null ? "" : message.to_move;
  root.dataset.yourTurn = String(interactive());
  root.dataset.thinking = String(message.thinking);
  const handOver = handOverNeeded(message);
  if (handOver === null) return;
  if (handOver) return drawHandOver(message);
  const place = readerPlace();
  $("handover").hidden = true;
  announceMoves(message);
  root.dataset.mode = page.replay.active ? "replay" : "live";
  page.shownSeat = message.seat;
  const stacked = STACKED.matches;
  noteDrawAnswer(message, heldSeats);
  const draw = drawButtons(message, heldSeats);
  const rematch = rematchQuestion(roomId, message, heldSeats, rematchOptions());
  page.asked = rematch ? rematch.words
    : draw.answers.length ? `${draw.offeredBy} ${draw.offerers > 1 ? "offer" : "offers"} a draw: accept or decline it`
    : page.module.question ? page.module.question(message) : null;
  $("banner").textContent = page.replay.active ? page.replay.caption(message)
    // "Your move" would invite a move that cannot reach the server
    : page.offline && message.status !== "finished" ? "Connection lost: moves are paused"
    : bannerText(message, heldSeats, page.names, page.asked);
  const colours = page.module.seatColours ? page.module.seatColours(message.view) : null;
  drawPlayers($("players"), message, heldSeats, colours, page.names);
  const tokens = heldSeats.map((seat) => tokenFor(seat));
  // kept through the replay: hidden, it would pull the panels under it up by its height, and a
  // window scrolled down to the move list would jump with them, the board far out of view
  drawPlaytestForm($("playtest"), roomId, message, tokens, drawAll);
  drawInvites($("invites"), message, (store.roomEntry(roomId) || {}).invites || []);
  drawCarry($("carry"), message, (store.roomEntry(roomId) || {}).identities || [], page.carry);
  drawActions(message, heldSeats, { stacked, draw });
  drawQuestion(message, { stacked, draw, rematch });
  page.replay.drawControls($("replay"), message);
  const current = page.replay.active ? page.replay.number : null;
  drawMoves($("moves"), message, current, message.status === "finished" ? (number) => page.replay.show(number, message) : null);
  drawBoard(message);
  placeQuestionJump();
  keepReaderPlace(place);
}

// --- the reader's place across a redraw -------------------------------------------------------
// The panels are drawn anew on every message, so the browser's own scroll anchoring loses the
// part it held on to (a player's line, a move of the list) and then lets the page move when
// something above the reader grows (a question drawn above the board on a phone). The page keeps
// the place itself, and alone (no second adjustment by the browser): the top of the first
// lasting part on the screen, in the page's order, before the drawing and after it.
document.documentElement.style.overflowAnchor = "none";
const LASTING = ["board", "players", "invites", "carry", "actions", "playtest", "replay", "moves"];

function readerPlace() {
  if (window.scrollY <= 0) return null; // at the top: what comes above the board is meant to be seen
  const shown = LASTING.map((id) => $(id)).filter((element) => element && !element.hidden)
    .map((element) => ({ element, box: element.getBoundingClientRect() })).filter(({ box }) => box.height);
  // the first part that begins on the screen (what grows inside a part above it moves it), else
  // the part the screen's top lies in
  const place = shown.find(({ box }) => box.top >= 0 && box.top < window.innerHeight)
    || shown.find(({ box }) => box.top < 0 && box.bottom > 0);
  return place ? { element: place.element, top: place.box.top } : null;
}

function keepReaderPlace(place) {
  if (!place || !place.element.isConnected) return;
  const moved = place.element.getBoundingClientRect().top - place.top;
  if (Math.abs(moved) >= 1) window.scrollBy(0, moved);
}

/**
 * Moves made since the last drawing, read out by screen readers (#announcer is a polite live
 * region): "Black (Bea): d4N". Not on the first drawing (the banner and the move list say where the
 * game stands), nor while replaying; at most the last three when several came at once.
 */
function announceMoves(message) {
  const count = message.log.length;
  const before = page.announced;
  page.announced = count;
  if (before === undefined || page.replay.active || count <= before) return;
  const entries = message.log.slice(Math.max(before, count - 3));
  const who = (seat) => seatAndPerson(message, seat, page.names);
  $("announcer").textContent = entries.map((entry) => `${entry.by === "chance" ? "chance" : who(entry.by)}: ${entry.text}`).join(". ") + ".";
}

function drawBoard(message) {
  if (!page.renderer) {
    $("board").hidden = false;
    page.renderer = page.module.mount($("board"), host);
  }
  const shown = page.replay.active ? page.replay.message(message) : message;
  const log = message.log;
  const number = page.replay.active ? page.replay.number : log.length;
  // the board holds the keyboard while it is drawn: its own stop when nothing in it is clicked
  $("board").setAttribute("tabindex", "0");
  page.renderer.render(shown, {
    selected: page.picker.selected.slice(),
    targets: page.replay.active || !interactive() ? new Map() : hintedTargets(page.picker.targets()),
    lastMove: number > 0 ? log[number - 1] || null : null,
    interactive: !page.replay.active && interactive(),
    replay: page.replay.active,
    seat: message.seat,
    hint: !page.replay.active && page.hint && page.hint.move && page.hint.revision === message.revision ? page.hint.move : null,
  });
  page.zoom.apply();
  rove();
}

// --- the board's keyboard: one Tab stop, the arrows between its targets ------------------------
// Every renderer makes the board's clickable parts of its drawing focusable (`tabindex` on a
// `data-key` element); the page makes them one Tab stop (a roving tabindex: the current target
// has 0, the others -1), moves between them with the arrow keys (the nearest target that way on
// the screen, else the next or previous in reading order), and after a redraw or a move gives the
// keyboard back to the current target, so that the next turn goes on from there. Enter and
// Space click (onBoardKeys). Parts outside the drawing (a renderer's buttons) keep their stops.
const ROVING = "svg [data-key][tabindex]";
const ARROWS = { ArrowRight: [1, 0], ArrowLeft: [-1, 0], ArrowDown: [0, 1], ArrowUp: [0, -1] };
// `key` and `point`: the target the keyboard was on last (its place on the screen, for the
// nearest one when it is gone); `held`: the keyboard was on a target and no one moved it off
// the board since (a redraw that leaves nothing to click puts it on the board meanwhile)
const roving = { key: null, point: null, held: false };

function rovingTargets() {
  return [...$("board").querySelectorAll(ROVING)].filter((part) => !part.closest('[aria-hidden="true"]'));
}

function centreOf(part) {
  const box = part.getBoundingClientRect();
  return box.width || box.height ? { x: box.left + box.width / 2, y: box.top + box.height / 2 } : null;
}

/** The roving pass, after every drawing of the board (the page's or the renderer's own). */
function rove() {
  const board = $("board");
  const targets = rovingTargets();
  const active = document.activeElement;
  let current = targets.find((part) => part === active) || null;
  if (!current && roving.key !== null) current = targets.find((part) => part.dataset.key === roving.key) || null;
  if (!current && roving.point && targets.length) {
    const distance = (part) => {
      const centre = centreOf(part);
      return centre ? Math.hypot(centre.x - roving.point.x, centre.y - roving.point.y) : Infinity;
    };
    current = targets.reduce((best, part) => (distance(part) < distance(best) ? part : best));
  }
  if (!current) current = targets[0] || null;
  for (const part of targets) {
    const want = part === current ? "0" : "-1";
    if (part.getAttribute("tabindex") !== want) part.setAttribute("tabindex", want);
  }
  const own = current ? "-1" : "0";
  if (board.getAttribute("tabindex") !== own) board.setAttribute("tabindex", own);
  // the keyboard was on a target before this drawing (a move made with Enter): back onto one
  if (roving.held && (active === board || active === document.body || !active)) {
    if (current) current.focus({ preventScroll: true });
    else if (active !== board) board.focus({ preventScroll: true });
  }
}

function rovingTo(part) {
  for (const other of rovingTargets()) other.setAttribute("tabindex", other === part ? "0" : "-1");
  part.focus();
}

/** The target after `from` in direction `[dx, dy]`: the nearest that way on the screen (a step
 * across counts twice a step along), or the next or previous in reading order without boxes. */
function neighbour(targets, from, [dx, dy]) {
  const start = centreOf(from);
  if (!start || targets.some((part) => !centreOf(part))) {
    const index = targets.indexOf(from) + (dx + dy > 0 ? 1 : -1);
    return targets[index] || null;
  }
  let best = null;
  let bestScore = Infinity;
  for (const part of targets) {
    if (part === from) continue;
    const centre = centreOf(part);
    const along = (centre.x - start.x) * dx + (centre.y - start.y) * dy;
    if (along < 1) continue;
    const across = Math.abs((centre.x - start.x) * dy + (centre.y - start.y) * dx);
    const score = along + 2 * across;
    if (score < bestScore) [best, bestScore] = [part, score];
  }
  return best;
}

$("board").addEventListener("keydown", (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  const targets = rovingTargets();
  const from = event.target.closest ? event.target.closest("[data-key]") : null;
  if (!from || !targets.includes(from)) return;
  let next = null;
  if (ARROWS[event.key]) next = neighbour(targets, from, ARROWS[event.key]);
  else if (event.key === "Home") next = targets[0];
  else if (event.key === "End") next = targets[targets.length - 1];
  else return;
  event.preventDefault();
  if (next) rovingTo(next);
});

document.addEventListener("focusin", (event) => {
  const board = $("board");
  const part = event.target.closest ? event.target.closest("[data-key]") : null;
  if (part && board.contains(part) && rovingTargets().includes(part)) {
    roving.key = part.dataset.key;
    roving.point = centreOf(part);
    roving.held = true;
  } else if (event.target !== board) {
    roving.held = false; // the person went elsewhere: their place is theirs
  }
});

document.addEventListener("focusout", (event) => {
  // a target left for nothing (a click beside the board) while it is still there: not a redraw
  if (event.relatedTarget) return;
  const left = event.target;
  queueMicrotask(() => {
    if (left.isConnected && !$("board").contains(document.activeElement)) roving.held = false;
  });
});

// a renderer's own redraw (a form of its, a piece dragged) is given the same pass
new MutationObserver(() => {
  if (page.renderer) rove();
}).observe($("board"), { childList: true, subtree: true });

function drawHandOver(message) {
  root.dataset.mode = "handover";
  // the previous person's view leaves the page entirely, not just the screen
  if (page.renderer && page.renderer.destroy) page.renderer.destroy();
  page.renderer = null;
  replace($("board"));
  replace($("moves"));
  replace($("actions")); // its list of legal moves is the previous seat's
  replace($("question"));
  $("question").hidden = true;
  page.asked = null;
  placeQuestionJump();
  hideChooser();
  $("board").hidden = true;
  $("zoom").hidden = true;
  const name = seatName(message, message.seat);
  $("banner").textContent = `Pass the screen to ${name}`;
  replace($("handover"),
    h("h2", {}, `${name}'s turn`),
    h("p", {}, `Hand the screen to the person playing ${name}. Their view, which the others must not see, shows when they are ready.`),
    h("button", { class: "primary", id: "handover-ready", onclick: () => { page.shownSeat = message.seat; drawAll(); } }, `I am ${name}: show my view`),
  );
  $("handover").hidden = false;
}

function interactive() {
  const message = page.message;
  return Boolean(message && message.status === "playing" && message.legal_moves.length && !page.busy && !page.replay.active && !page.offline);
}

function drawActions(message, heldSeats, { stacked, draw }) {
  const playing = message.status === "playing";
  const mine = heldSeats.length > 0 && page.identity;
  const match = message.view.match || {};
  const legal = message.legal_moves.map((move) => move.notation);
  const input = h("input", {
    id: "notation", name: "move", autocomplete: "off", list: "legal-moves", spellcheck: "false",
    // short, so that the example fits the panel whole (the label says what the box is for)
    placeholder: interactive() ? "e.g. " + (legal[0] || "")
      : page.offline && legal.length ? "offline: reconnecting…" : "no move to make now",
    disabled: !interactive(), "aria-label": "a move in the game's notation",
  });
  const typed = h("form", {
    class: "notation",
    onsubmit: (event) => {
      event.preventDefault();
      if (input.value.trim()) return play(input.value.trim());
      // an empty box says what it wants, never leaves an earlier refusal standing as its answer
      if (interactive()) showAlert(`Type a move first${legal.length ? `, for example ${legal[0]}` : ""}, or make it on the board.`);
    },
  }, input, h("button", { type: "submit", disabled: !interactive() }, "Play"),
  h("datalist", { id: "legal-moves" }, legal.slice(0, 500).map((text) => h("option", { value: text }))));
  const buttons = [];
  // nothing is offered that cannot reach the server: a click would only be refused
  const waiting = page.offline || page.busy;
  if (mine && playing && match.undo !== "never" && message.log.length) {
    buttons.push(h("button", { id: "undo", disabled: waiting, onclick: () => act(() => api.undo(roomId, page.identity.token, null, message.revision)) }, "Take back"));
  }
  if (draw.offer) buttons.push(draw.offer);
  if (page.drawDeclined) buttons.push(h("p", { id: "draw-declined", class: "muted" }, page.drawDeclined));
  if (!stacked) buttons.push(...draw.answers); // stacked: above the board (drawQuestion)
  if (mine && playing) {
    const seat = actingSeat(message, heldSeats);
    buttons.push(h("button", {
      id: "resign", class: page.confirmResign ? "danger" : "", disabled: waiting,
      onclick: () => {
        if (!page.confirmResign) {
          page.confirmResign = true;
          return drawAll();
        }
        page.confirmResign = false;
        act(() => api.resign(roomId, tokenFor(seat), seat));
      },
    }, page.confirmResign ? `Really resign as ${seatName(message, seat)}?` : "Resign"));
  }
  if (message.status === "finished") {
    buttons.push(h("a", { id: "download", class: "button", href: api.recordUrl(roomId), download: "" }, "Download the record"));
  }
  const clock = match.move_seconds ? h("p", { id: "clock", class: "clock" }) : null;
  const watching = !mine && message.status !== "finished" ? h("p", { class: "muted" }, "You are watching this game.") : null;
  const awaited = mine && message.status === "waiting" ? waitingText(message) : null;
  replace($("actions"), h("h2", {}, mine ? "Play" : "Game"), mine && playing ? typed : null, drawHint(message, heldSeats),
    watching, awaited, clock, h("div", { class: "buttons" }, buttons),
    ...drawRematch(roomId, message, heldSeats, { ...rematchOptions(), answerElsewhere: stacked }));
  tickClock();
}

function rematchOptions() {
  return { act, tokenFor, disabled: page.busy || page.offline, names: page.names };
}

/**
 * A draw the people here offered that is gone with no move made was declined by the others: say
 * so (beside "Offer a draw", and to a screen reader) until the next move; a move lapses an offer
 * by itself, and a shared screen answers its own offers.
 */
function noteDrawAnswer(message, heldSeats) {
  const seats = (message.view.match || {}).draw_offer || [];
  const before = page.drawOffer;
  page.drawOffer = { seats, moves: message.log.length };
  if (message.status !== "playing" || (before && before.moves !== message.log.length)) page.drawDeclined = null;
  if (!before || message.status !== "playing" || before.moves !== message.log.length || seats.length) return;
  const ours = before.seats.filter((seat) => heldSeats.includes(seat));
  const others = message.seats.map((entry) => entry.seat).filter((seat) => !heldSeats.includes(seat));
  if (!ours.length || !others.length || page.replay.active) return;
  page.drawDeclined = `${others.map((seat) => seatAndPerson(message, seat, page.names)).join(" and ")} declined the draw.`;
  $("announcer").textContent = page.drawDeclined;
}

/**
 * The draw's buttons for the people here: `offer` ("Offer a draw", none pending) or `answers`
 * (Accept and Decline, when the others offer one: on a shared screen each seat answers in
 * turn), with who offers (`offeredBy`, in words, and how many: `offerers`).
 */
function drawButtons(message, heldSeats) {
  const match = message.view.match || {};
  const none = { offer: null, answers: [], offeredBy: "", offerers: 0 };
  if (!heldSeats.length || !page.identity || message.status !== "playing" || !match.draw_by_agreement) return none;
  const offer = match.draw_offer || [];
  const answering = heldSeats.filter((seat) => !offer.includes(seat));
  const seat = !offer.length ? actingSeat(message, heldSeats) : answering[0];
  // nothing is offered that cannot reach the server: a click would only be refused
  const waiting = page.offline || page.busy;
  const draw = (action) => () => act(() => api.draw(roomId, tokenFor(seat), action, seat));
  const as = heldSeats.length > 1 ? ` as ${seatName(message, seat)}` : "";
  if (!offer.length) return { ...none, offer: h("button", { id: "offer-draw", disabled: waiting, onclick: draw("offer") }, `Offer a draw${as}`) };
  if (!answering.length) return none;
  return {
    ...none,
    answers: [
      h("button", { id: "accept-draw", disabled: waiting, onclick: draw("accept") }, `Accept the draw${as}`),
      h("button", { id: "decline-draw", disabled: waiting, onclick: draw("decline") }, "Decline"),
    ],
    offeredBy: offer.map((other) => seatAndPerson(message, other, page.names)).join(" and "),
    offerers: offer.length,
  };
}

// --- a question to answer ----------------------------------------------------------------------
/**
 * On a stacked (narrow) screen, the draw or the rematch the others offer is asked above the
 * board, under the banner that says it, where a phone shows it without scrolling past the board
 * (a renderer puts a question of its own game above its drawing likewise: Territories' trade
 * offers). Wider, the side panel beside the board asks it, in the Play panel.
 */
function drawQuestion(message, { stacked, draw, rematch }) {
  const parts = [];
  if (stacked && draw.answers.length) {
    parts.push(h("p", { id: "draw-note" }, `${draw.offeredBy} ${draw.offerers > 1 ? "offer" : "offers"} a draw.`),
      h("div", { class: "buttons" }, draw.answers));
  }
  if (stacked && rematch) parts.push(...rematch.parts);
  replace($("question"), parts);
  $("question").hidden = !parts.length;
}

/** The question shown now: the page's above the board, or the one the renderer marks. */
function questionShown() {
  return !$("question").hidden ? $("question") : $("board").querySelector(".bl-question");
}

/**
 * A question scrolled out of sight on a stacked screen (the person was reading their hand or the
 * moves when it came) gets a button at the foot of the screen that says it and brings it back.
 * The page never moves the keyboard's focus or the screen by itself when a question comes: the
 * person's place is theirs, and the banner, a live region, has read the question out.
 */
function placeQuestionJump() {
  const jump = $("question-jump");
  const shown = page.asked && STACKED.matches && ["live", "replay"].includes(root.dataset.mode) ? questionShown() : null;
  if (!shown) {
    jump.hidden = true;
    return;
  }
  const box = shown.getBoundingClientRect();
  const seen = Math.min(box.bottom, window.innerHeight) - Math.max(box.top, 0);
  jump.hidden = seen >= Math.min(48, box.height);
  if (jump.hidden) return;
  const arrow = box.bottom <= 0 ? "↑" : "↓";
  if (jump.dataset.words !== `${arrow}${page.asked}`) {
    jump.dataset.words = `${arrow}${page.asked}`;
    replace(jump, h("span", { "aria-hidden": "true" }, `${arrow} `), page.asked);
  }
}

/** The button's answer: the question into view, and the keyboard just before its answers. */
function showQuestion() {
  const shown = questionShown();
  if (!shown) return;
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  shown.scrollIntoView({ block: "start", behavior: calm ? "auto" : "smooth" });
  // the board keeps the keyboard across its redraws, and its question comes first in it
  roving.held = false;
  (shown === $("question") ? shown : $("board")).focus({ preventScroll: true });
}

/** What the creator's Play panel says before the game starts: who is awaited, and what to do. */
function waitingText(message) {
  const missing = message.seats.filter((seat) => !seat.joined);
  const invites = ((store.roomEntry(roomId) || {}).invites || []).filter((invite) => missing.some((seat) => seat.seat === invite.seat));
  const several = missing.length > 1;
  const text = invites.length
    ? `Waiting for your guest${several ? "s" : ""} to join: send ${several ? "each of them their" : "them the"} invite link above. The game starts as soon as ${several ? "everybody has" : "they have"} joined.`
    : `Waiting for ${missing.map((seat) => seatName(message, seat.seat)).join(", ")} to join with ${several ? "their invite links" : "the invite link"}.`;
  return h("p", { id: "waiting-note", class: "waiting-note", role: "status" }, text);
}

// --- hints -------------------------------------------------------------------------------------
/**
 * Hints are offered to the seat deciding here, in rooms without an invited person (a person
 * against the computer, or people at one screen): nobody there is treated unfairly by one.
 * The server works the hint out from this seat's own view only (docs/analysis.md).
 */
function hintsOffered(message, heldSeats) {
  return heldSeats.length > 0 && interactive() && !message.seats.some((seat) => seat.kind === "invite");
}

function drawHint(message, heldSeats) {
  if (!hintsOffered(message, heldSeats)) return null;
  const hint = page.hint && page.hint.revision === message.revision ? page.hint : null;
  const button = h("button", {
    type: "button", id: "hint", disabled: Boolean(hint && hint.busy), onclick: askHint,
    title: "the engine's suggestion for this position",
  }, hint && hint.busy ? "Thinking…" : "Hint");
  let shown = null;
  if (hint && hint.move) {
    // the move's words are the log's ("proposes a trade", "pass"), third person or not: they
    // follow a colon, never a verb of the sentence's own
    shown = h("p", { id: "hint-text", class: "hint-text", role: "status" },
      "The engine suggests this move: ", h("strong", {}, hint.text || hint.move), hint.highlighted ? " (highlighted on the board). " : ". ",
      h("button", { type: "button", id: "hint-play", class: "link", onclick: () => play(hint.move) }, "Play it"));
  } else if (hint && hint.error) {
    shown = h("p", { id: "hint-text", class: "hint-text", role: "status" }, `No hint: ${hint.error}`);
  }
  return h("div", { class: "hint" }, h("div", { class: "buttons" }, button), shown);
}

async function askHint() {
  const message = page.message;
  const seat = message.seat;
  const revision = message.revision;
  page.hint = { revision, seat, busy: true };
  drawAll();
  let hint;
  try {
    const answer = await api.request(`/api/rooms/${encodeURIComponent(roomId)}/hint`, {
      method: "POST", token: tokenFor(seat), body: { seat },
    });
    hint = { revision: answer.revision, seat, move: answer.move, text: answer.text, path: null };
  } catch (error) {
    hint = { revision, seat, error: error.message };
  }
  // the position may have moved on meanwhile (a move, an undo): then the hint is dropped
  if (!page.hint || page.hint.revision !== hint.revision || page.message.revision !== hint.revision) return;
  const picked = page.picker.paths.find(({ move }) => move.notation === hint.move);
  if (picked) {
    // select the move's first clicks, so that the board lights up the hinted move alone
    hint.path = picked.path;
    page.picker.selected = picked.path.slice(0, -1);
  }
  page.hint = hint;
  drawAll();
  // the sentence claims a highlight only once the board was seen to draw one: a move chosen
  // in a form, or a key the renderer draws no mark on, leaves the board as it was
  hint.highlighted = hintDrawn(hint);
  if (hint.highlighted) drawAll();
}

/** Whether the board, as just drawn, shows the hinted move: its last click marked as the one to
 * make, or a move the renderer says it drew itself (Honor's release: the piece goes there). */
function hintDrawn(hint) {
  if (hint.path) {
    const last = $("board").querySelector(`[data-key="${CSS.escape(hint.path[hint.path.length - 1])}"]`);
    if (last && (last.classList.contains("bl-target") || last.classList.contains("bl-movable"))) return true;
  }
  return Boolean(page.module.hintOnBoard && page.module.hintOnBoard(hint.move) === true);
}

/** The picker's targets, narrowed to the hinted move's next click while its clicks are selected. */
function hintedTargets(targets) {
  const hint = page.hint;
  if (!hint || !hint.path || hint.revision !== page.message.revision) return targets;
  const prefix = hint.path.slice(0, -1);
  const selected = page.picker.selected;
  if (selected.length !== prefix.length || !prefix.every((key, i) => key === selected[i])) return targets;
  const last = hint.path[hint.path.length - 1];
  return targets.has(last) ? new Map([[last, targets.get(last)]]) : targets;
}

/** The seat this screen acts for outside moves: the one deciding if it is ours, else our first. */
function actingSeat(message, heldSeats) {
  return heldSeats.includes(message.to_move) ? message.to_move : heldSeats[0];
}

function tokenFor(seat) {
  return (store.identityFor(roomId, seat) || page.identity).token;
}

function tickClock() {
  const clock = $("clock");
  const message = page.message;
  if (!clock || !message) return;
  const left = message.view.match.seconds_left;
  if (left === null || left === undefined || message.status !== "playing") {
    clock.textContent = "";
    return;
  }
  const remaining = Math.max(0, left - (Date.now() - page.receivedAt) / 1000);
  clock.textContent = `${seatName(message, message.to_move)}: ${Math.ceil(remaining)} s left for this move`;
}

// --- acting ----------------------------------------------------------------------------------
/** The renderer's side of the page (docs/web.md). */
const host = {
  play: (text) => play(text),
  click: (key) => clickKey(key),
  get game() {
    return page.game;
  },
};

async function play(text) {
  const message = page.message;
  if (page.offline && message?.status === "playing") return refuseOffline();
  if (!interactive()) return;
  // no seat named: the server acts for the seat deciding now and answers with the view of the
  // seat deciding next (another of this screen's seats, maybe), as the socket will
  await act(() => api.move(roomId, page.identity.token, text, message.ply, message.revision));
}

/** Send an action; its answer is the new state. A refusal is shown and changes nothing. */
async function act(request) {
  page.busy = true;
  page.picker.reset();
  hideChooser();
  drawAll();
  try {
    const answer = await request();
    hideAlert();
    page.busy = false;
    // the WebSocket may have brought a newer state (the computer's reply) before this answer
    if (!accept(answer)) drawAll();
  } catch (error) {
    page.busy = false;
    showAlert(error.message);
    drawAll();
  }
}

function clickKey(key) {
  if (page.offline && page.message?.status === "playing") return refuseOffline();
  if (!interactive()) return;
  // while a hint narrows the board to its move, a click off it starts a selection afresh
  const targets = page.picker.targets();
  const narrowed = hintedTargets(targets);
  if (narrowed !== targets && !narrowed.has(key)) page.picker.reset();
  const chosen = page.picker.click(key);
  if (chosen && chosen.play) return play(chosen.play.notation);
  if (chosen && chosen.choose) showChooser(chosen.choose);
  else hideChooser();
  drawAll();
}

onBoardKeys($("board"), clickKey);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && page.picker) {
    page.picker.reset();
    hideChooser();
    drawAll();
  } else if (page.replay && page.replay.active && !event.target.closest("input")) {
    page.replay.key(event, page.message);
  }
});

function showChooser(moves) {
  replace($("chooser"), h("span", {}, "Which move?"),
    moves.map((move) => h("button", { class: "move-button", onclick: () => play(move.notation) }, move.notation)));
  $("chooser").hidden = false;
}

function hideChooser() {
  $("chooser").hidden = true;
}

function showAlert(text) {
  replace($("alert"), h("span", {}, text), h("button", { class: "link", onclick: hideAlert, "aria-label": "dismiss" }, "×"));
  $("alert").hidden = false;
}

function hideAlert() {
  $("alert").hidden = true;
}

function showNotice(text) {
  $("notice").textContent = text;
  $("notice").hidden = false;
}

function connectionChanged(status, error) {
  const labels = { open: "live", reconnecting: "reconnecting…", closed: "disconnected" };
  $("connection").textContent = labels[status] || status;
  $("connection").dataset.state = status;
  root.dataset.connection = status;
  if (status === "closed" && error) showAlert(error.message);
  if (status === "open" && page.connection === "reconnecting") hideAlert();
  page.connection = status;
  const offline = status === "reconnecting";
  if (offline === page.offline) return;
  page.offline = offline;
  if (offline) {
    // a half-chosen move would be played on a position that may have changed meanwhile
    page.picker?.reset();
    hideChooser();
    replace($("offline"),
      h("strong", {}, "Connection lost — reconnecting…"),
      h("span", { id: "offline-detail" }, " Moves are paused until the server answers again."));
  }
  $("offline").hidden = !offline;
  drawAll();
}

/** A move tried while offline: say why nothing happens (the server could not hear it). */
function refuseOffline() {
  $("offline-detail").textContent = " Your move was not sent: the server cannot be reached. Try again once the game is live.";
}

start().catch((error) => {
  console.error(error);
  fail(`The page failed: ${error.message}`);
});
