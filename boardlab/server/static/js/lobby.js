// The lobby: the visitor's unfinished games, then the games, each with a picture of its board
// (drawn by its own renderer from its starting position), what it is in a line, and one click
// to play the computer or to learn it; below, the form that starts a game with every choice,
// and the rooms on this server.

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { optionField, readOptions } from "./options.js";
import { inviteRow } from "./panels.js";
import { asPlayer, ensurePlayer } from "./players.js";
import { drawPicture } from "./renderers.js";
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
const PERSON_CHOICES = [
  ["here", "a person at this screen"],
  ["invite", "an invited person (gets a link)"],
];
// the order a newcomer meets the games in: the simplest first, the richest last
const NEWCOMER_ORDER = ["towers", "overseer", "sovereign", "territories", "honor"];
// the level "Play the computer" starts at: a step above the lessons' practice opponent
const QUICK_LEVEL = "easy";
// how many of this browser's rooms the lobby looks up (one request each)
const MY_GAMES_SHOWN = 8;
// how many of this browser's own rooms the room listing is asked to hold (the server's most)
const MINE_LISTED = 8;
// how many of the remembered player's finished games the lobby lists
const RECENT_SHOWN = 6;
let catalog = [];
// the form's room on its way to the server: a second click (a double click) meanwhile makes none
let creating = false;
// the form made a room that waits for its guests: its Start button makes no second one until a
// choice in the form changes or the player asks for another game ("Start another game")
let made = false;

async function start() {
  try {
    catalog = ordered(await api.games());
  } catch (error) {
    replace($("games"), h("p", { class: "alert" }, error.message));
    return;
  }
  drawGames();
  const asked = new URLSearchParams(location.search).get("game");
  const known = (id) => catalog.some((game) => game.id === id);
  drawForm([asked, store.lastGame(), NEWCOMER_ORDER[0]].find(known) || catalog[0].id);
  drawMe();
  const invitation = new URLSearchParams(location.search).get("playtest");
  if (invitation) drawInvitation(invitation);
  drawMyGames();
  drawRecentGames();
  drawRooms();
  setInterval(drawRooms, 10000);
  // back from a game the lobby opened (the browser's page cache): its buttons work again
  window.addEventListener("pageshow", (event) => {
    if (!event.persisted) return;
    for (const button of document.querySelectorAll("button[data-play]")) button.disabled = false;
    if (!made && $("create")) $("create").disabled = false;
  });
}

/** The catalog in the newcomer's order; a game not named there (a plug-in) comes after. */
function ordered(games) {
  const rank = (game) => (NEWCOMER_ORDER.includes(game.id) ? NEWCOMER_ORDER.indexOf(game.id) : NEWCOMER_ORDER.length);
  return [...games].sort((a, b) => rank(a) - rank(b));
}

// --- the games -----------------------------------------------------------------------------
function drawGames() {
  replace($("games"), catalog.map(gameCard));
  for (const game of catalog) drawBoardPicture(game);
}

function gameCard(game) {
  const description = h("div", { class: "description" });
  description.innerHTML = game.description; // the server's Markdown rendering (no raw HTML passes)
  return h("article", { class: "game-card", dataset: { game: game.id }, "aria-labelledby": `title-${game.id}` },
    h("div", { class: "game-picture", id: `picture-${game.id}`, role: "img", "aria-label": `${game.name}: the board at the start of a game` }),
    h("h2", { id: `title-${game.id}` }, game.name),
    h("p", { class: "facts" }, `${playersText(game)} players · ${natureText(game)}`),
    h("p", { class: "summary" }, firstSentence(description.textContent) || sentence(game.summary)),
    h("div", { class: "buttons" },
      h("button", {
        type: "button", class: "primary", dataset: { play: game.id },
        title: `you against the computer (${QUICK_LEVEL}), take-backs and hints on`,
        onclick: (event) => playComputer(game, event.currentTarget),
      }, "Play the computer"),
      game.lesson_page ? h("a", { class: "button", href: game.lesson_page, dataset: { learn: game.id } }, "Learn") : null,
    ),
    h("details", { class: "about" }, h("summary", {}, "About the game"), description,
      h("p", { class: "links" },
        game.rules_page ? h("a", { href: game.rules_page }, "The rules") : null,
        h("a", { href: "#new-game", onclick: () => drawForm(game.id) }, "More ways to play"))),
  );
}

async function drawBoardPicture(game) {
  try {
    const start = await api.request(`/api/games/${encodeURIComponent(game.id)}/start`);
    await drawPicture($(`picture-${game.id}`), game, start);
  } catch (error) {
    console.error(error);
    $(`picture-${game.id}`).hidden = true; // the card still says what the game is
  }
}

/** The description's first sentence: the card's line; the whole of it is under "About the game". */
function firstSentence(text) {
  const found = /^(.+?[.!?])(\s|$)/s.exec((text || "").trim());
  return found ? found[1].replace(/\s+/g, " ") : "";
}

function sentence(text) {
  const trimmed = (text || "").trim();
  return trimmed ? trimmed[0].toUpperCase() + trimmed.slice(1) + (/[.!?]$/.test(trimmed) ? "" : ".") : "";
}

function playersText(game) {
  const counts = game.player_counts;
  return counts.length === 1 ? String(counts[0]) : `${counts.slice(0, -1).join(", ")} or ${counts.at(-1)}`;
}

/** The game's own words for how it plays (the catalog's ``nature``: dice, hidden cards, physics). */
function natureText(game) {
  return game.nature.join(", ");
}

/** One click: this person against the computer, take-backs of their own moves, then the game. */
async function playComputer(game, button) {
  button.disabled = true;
  $("quick-error").hidden = true;
  const seats = Array.from({ length: game.default_players }, (_, seat) => (seat === 0 ? "here" : `computer:${QUICK_LEVEL}`));
  try {
    const created = await api.createRoom({ game: game.id, seats, undo: "own" });
    store.rememberGame(game.id);
    store.addIdentity(created.room, game.id, created.token, [0]);
    location.href = `/rooms/${encodeURIComponent(created.room)}`;
  } catch (failure) {
    $("quick-error").textContent = `${game.name} could not start: ${failure.message}`;
    $("quick-error").hidden = false;
    button.disabled = false;
  }
}

// --- the visitor's own games -----------------------------------------------------------------
/** The unfinished games this browser holds a seat in (from its tokens), newest first. */
async function drawMyGames() {
  const mine = store.myRooms().filter((entry) => entry.identities && entry.identities.length).slice(0, MY_GAMES_SHOWN);
  const found = await Promise.all(mine.map(async (entry) => {
    try {
      return { entry, state: await api.roomState(entry.room, entry.identities[0].token) };
    } catch {
      return null; // a room this server no longer has
    }
  }));
  const open = found.filter((item) => item && item.state.status !== "finished");
  $("my-games").hidden = !open.length;
  replace($("my-games-list"), open.map(({ entry, state }) => myGameItem(entry, state)));
}

function myGameItem(entry, state) {
  const game = catalog.find((candidate) => candidate.id === state.game);
  const held = entry.identities.flatMap((identity) => identity.seats);
  const others = state.seats.filter((seat) => !held.includes(seat.seat)).map((seat) => seat.name);
  const yourTurn = state.status === "playing" && held.includes(state.to_move);
  const where = state.status === "waiting" ? "waiting for your guests" : yourTurn ? "your move" : "their move";
  const moves = state.log.filter((turn) => turn.by !== "chance").length;
  // one compact link a game, so that the games' cards stay on the first screen
  return h("li", { class: `my-game${yourTurn ? " your-turn" : ""}`, dataset: { room: entry.room } },
    h("a", { class: "button", href: `/rooms/${encodeURIComponent(entry.room)}` },
      h("strong", {}, game ? game.name : state.game),
      h("span", { class: "my-game-detail" }, ` ${others.length ? `against ${others.join(", ")}` : "at this screen"} · ${moves} move${moves === 1 ? "" : "s"} · ${where}`)),
  );
}

// --- the remembered player ----------------------------------------------------------------------
function drawMe() {
  const player = store.player();
  $("me-link").textContent = player ? player.name : "Your games";
  $("me-link").title = player ? "your games, results and playtest answers" : "be remembered here: a name, nothing else";
}

/** The remembered player's finished games on this server, the latest first, with how each ended for them. */
async function drawRecentGames() {
  let games;
  try {
    games = await asPlayer("/api/players/me/games");
  } catch {
    drawMe(); // a player this server does not know (forgotten): the lobby as for a visitor
    return;
  }
  const finished = (games || []).filter((game) => game.status === "finished").slice(0, RECENT_SHOWN);
  $("my-recent").hidden = !finished.length;
  replace($("my-recent-list"), finished.map(recentItem));
}

function recentItem(game) {
  const known = catalog.find((candidate) => candidate.id === game.game);
  const others = game.seats.filter((seat) => !game.your_seats.includes(seat.seat))
    .map((seat) => game.player_names[seat.seat] || seat.name);
  const detail = [outcomeFor(game), others.length ? `against ${others.join(", ")}` : "at one screen", since(game.updated)];
  const unanswered = game.your_seats.some((seat) => !game.answered.includes(seat) && game.seats[seat].kind !== "computer");
  return h("li", { class: "my-game", dataset: { room: game.room } },
    h("a", { class: "button", href: `/rooms/${encodeURIComponent(game.room)}` },
      h("strong", {}, known ? known.name : game.game),
      h("span", { class: "my-game-detail" }, ` ${detail.filter(Boolean).join(" · ")}`),
      unanswered ? h("span", { class: "tag" }, "the playtest form is open") : null));
}

/** "you won", "you lost", "a draw", "you shared the win": a finished game as its player sees it. */
function outcomeFor(game) {
  const winners = (game.result || {}).winners || [];
  const mine = game.your_seats.filter((seat) => winners.includes(seat));
  if (winners.length === 0 || winners.length === game.players) return "a draw";
  if (!mine.length) return "you lost";
  return winners.length === 1 ? "you won" : "you shared the win";
}

// --- a playtest session's invitation (/?playtest=ID) ------------------------------------------------
/** What the designer's invite link offers: their game and rules, played between people. */
async function drawInvitation(sessionId) {
  const panel = $("playtest-invitation");
  let session;
  try {
    session = await api.request(`/api/playtests/invitations/${encodeURIComponent(sessionId)}`);
  } catch (error) {
    replace(panel, h("h2", { id: "playtest-invitation-title" }, "A playtest"), h("p", { class: "alert" }, error.message));
    panel.hidden = false;
    return;
  }
  const game = catalog.find((candidate) => candidate.id === session.game);
  const player = store.player();
  const name = h("input", { id: "playtest-name", maxlength: 40, autocomplete: "nickname", value: player ? player.name : null, placeholder: "optional" });
  const error = h("p", { id: "playtest-error", class: "alert", role: "alert", hidden: true });
  const start = (seats) => async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    error.hidden = true;
    try {
      await ensurePlayer(name.value);
      const created = await api.request(`/api/playtests/invitations/${encodeURIComponent(sessionId)}/rooms`, { method: "POST", body: { seats } });
      drawMe();
      started(game, seats, created);
    } catch (failure) {
      error.textContent = failure.message;
      error.hidden = false;
    } finally {
      button.disabled = false;
    }
  };
  const invite = ["here", ...Array(session.players - 1).fill("invite")];
  const together = Array(session.players).fill("here");
  const others = session.players === 2 ? "the other player" : "the other players";
  replace(panel,
    h("h2", { id: "playtest-invitation-title" }, `A playtest of ${game ? game.name : session.game}: ${session.name}`),
    h("p", {}, `The game's designer asks people to play ${game ? game.name : session.game} with ${session.variant ? `these rules: ${ruleWords(session.variant)}` : "its rules as written"}, `,
      `${session.players} players. After the game a short form asks what you thought; every question is optional.`),
    h("div", { class: "form-row" }, h("label", { for: "playtest-name" }, "Your name"), name,
      h("span", { class: "help" }, "Shown to the other players of your games and to the designer only; nothing else is asked.")),
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "primary", id: "playtest-invite", onclick: start(invite) }, `Start, and invite ${others}`),
      h("button", { type: "button", id: "playtest-together", onclick: start(together) }, "Start with everybody at this screen")),
    error);
  panel.hidden = false;
}

/** "layout=pinwheel,ply_cap=100" in a player's words: "layout pinwheel, ply cap 100". */
function ruleWords(variant) {
  return variant.split(",").map((part) => part.replace("=", " ").replaceAll("_", " ")).join(", ");
}

// --- the form --------------------------------------------------------------------------------
function drawForm(gameId, players) {
  const game = catalog.find((entry) => entry.id === gameId);
  players = players || game.default_players;
  const gameSelect = h("select", { id: "game", name: "game", onchange: () => drawForm(gameSelect.value) },
    catalog.map((entry) => h("option", { value: entry.id, selected: entry.id === gameId }, entry.name)));
  const playersSelect = h("select", { id: "players", name: "players", onchange: () => drawForm(gameId, Number(playersSelect.value)) },
    game.player_counts.map((count) => h("option", { value: count, selected: count === players }, String(count))));
  const seats = Array.from({ length: players }, (_, seat) =>
    h("div", { class: "seat-row" },
      h("label", { for: `seat-${seat}` }, `Player ${seat + 1}`),
      h("select", { id: `seat-${seat}`, name: `seat-${seat}`, onchange: () => drawLevelHelp(game) },
        seatChoices(game).map(([value, label]) => h("option", { value, selected: value === (seat === 0 ? "here" : "computer:normal") }, label))),
      h("input", { id: `name-${seat}`, name: `name-${seat}`, maxlength: 40, placeholder: "name (optional)", "aria-label": `player ${seat + 1}'s name` }),
    ));
  const options = game.options.map(optionField);
  const form = $("create-form");
  replace(form,
    h("div", { class: "form-row" }, h("label", { for: "game" }, "Game"), gameSelect),
    h("div", { class: "form-row" }, h("label", { for: "players" }, "Players"), playersSelect),
    h("fieldset", {}, h("legend", {}, "Who plays"), seats, h("div", { id: "level-help", class: "level-help", "aria-live": "polite" })),
    // the variants are the designer's and the enthusiast's: a first game needs none of them
    options.length ? h("details", { class: "more", id: "rule-variants" },
      h("summary", {}, `Rule variants of ${game.name} (left as they are: the rules as written)`),
      h("fieldset", { class: "options" }, h("legend", {}, `Options of ${game.name}`), options)) : null,
    h("details", { class: "more" }, h("summary", {}, "Time limit and take-backs"),
      h("div", { class: "form-row" }, h("label", { for: "move-seconds" }, "Seconds per move"),
        h("input", { id: "move-seconds", type: "number", min: 5, max: 86400, placeholder: "no limit" }),
        h("span", { class: "help" }, "At least 5 seconds. When a person runs out of time the game's own rule applies (a move is made for them, or they lose).")),
      h("div", { class: "form-row" }, h("label", { for: "undo" }, "Take-backs"),
        h("select", { id: "undo" },
          h("option", { value: "" }, "automatic (own moves against the computer; none with an invited person)"),
          h("option", { value: "own" }, "a person takes back their own move"),
          h("option", { value: "same_screen" }, "the last person's move (people at one screen)"),
          h("option", { value: "never" }, "never"))),
    ),
    h("p", { id: "create-error", class: "alert", role: "alert", hidden: true }),
    h("div", { class: "create-buttons" },
      h("button", { class: "primary", id: "create", type: "submit" }, `Start ${game.name}`),
      h("p", { id: "create-made", class: "made-note", role: "status" })),
  );
  made = false;
  form.onsubmit = (event) => {
    event.preventDefault();
    create(game, players);
  };
  // a choice changed after a room was made: the form starts a new room again
  form.oninput = () => {
    if (made) formReady(game);
  };
  drawLevelHelp(game);
}

/** The form made a room that waits for its guests: its Start button is spent (one click, one
 * room), and a line beside it says where the room's links are and how to start another game. */
function formMade(game) {
  made = true;
  $("create").disabled = true;
  $("create").textContent = `${game.name} started`;
  replace($("create-made"),
    `Your ${game.name} game is made: its invitation links are below. Change a choice above to start another, or `,
    h("button", { type: "button", class: "link", id: "create-another", onclick: () => formReady(game, true) }, "start another game"),
    ".");
}

/** The form back to starting a room (a choice changed, or "start another game" asked for one). */
function formReady(game, focus = false) {
  made = false;
  $("create").disabled = false;
  $("create").textContent = `Start ${game.name}`;
  replace($("create-made"));
  if (focus) $("create").focus();
}

/** People, then the game's levels weakest first, each with its rating and its time a move. */
function seatChoices(game) {
  const levels = (game.levels || []).map((entry) => [`computer:${entry.level}`, `the computer: ${levelLine(entry)}`]);
  return [...PERSON_CHOICES, ...levels];
}

/** "hard · rated 3000 · about 1 s a move": a level in a player's words (no engine settings). */
function levelLine(entry) {
  const parts = [entry.level];
  if (entry.elo !== null && entry.elo !== undefined) parts.push(`rated ${Math.round(entry.elo / 50) * 50}`);
  const time = moveTime(entry.seconds_typical);
  if (time) parts.push(time);
  return parts.join(" · ");
}

/** How long the computer takes for a move at a level, as measured: "answers at once", "about 2 s a move". */
function moveTime(seconds) {
  if (seconds === null || seconds === undefined) return "";
  if (seconds < 0.2) return "answers at once";
  return `about ${seconds < 2 ? Math.max(0.5, Math.round(seconds * 2) / 2) : Math.round(seconds)} s a move`;
}

/** Under the seats: each computer level chosen in a player's words (the catalog's `for_players`;
 * its spec and what that plays, `agent` and `about`, are the Lab's), its rating explained, its times. */
function drawLevelHelp(game) {
  const chosen = new Set([...document.querySelectorAll("#create-form select[id^=seat-]")].map((select) => select.value));
  const lines = (game.levels || []).filter((entry) => chosen.has(`computer:${entry.level}`)).map((entry) => {
    const rating = entry.elo === null || entry.elo === undefined ? "" : ` Rated ${Math.round(entry.elo / 50) * 50} on an Elo scale where random moves are 0 (each level measured against the one below).`;
    const longest = entry.seconds_longest >= 1 ? ` Its longest move took ${Math.round(entry.seconds_longest)} s; a busy machine makes it slower.` : "";
    const time = moveTime(entry.seconds_typical);
    return h("li", {}, h("strong", {}, entry.level), `: ${sentence(entry.for_players)}${rating}${time ? ` It ${time === "answers at once" ? time : `takes ${time}`} on a two-core machine.` : ""}${longest}`);
  });
  replace($("level-help"), lines.length ? h("ul", { class: "help" }, lines) : null);
}

async function create(game, players) {
  // one click, one room: not while the last click's room is on its way, nor again once it is made
  if (creating || made) return;
  creating = true;
  const seats = Array.from({ length: players }, (_, seat) => $(`seat-${seat}`).value);
  const names = Array.from({ length: players }, (_, seat) => $(`name-${seat}`).value.trim());
  const body = { game: game.id, players, seats, options: readOptions(game) };
  // a seat left unnamed is called by its own name (White, Computer (hard)): null asks for that
  if (names.some(Boolean)) body.names = names.map((name) => name || null);
  const seconds = $("move-seconds").value;
  if (seconds) body.move_seconds = Number(seconds);
  if ($("undo").value) body.undo = $("undo").value;
  const error = $("create-error");
  error.hidden = true;
  $("create").disabled = true;
  let created;
  try {
    created = await api.createRoom(body);
  } catch (failure) {
    error.textContent = asForm(failure.message);
    error.hidden = false;
    $("create").disabled = false;
    return;
  } finally {
    creating = false;
  }
  // the room opens (the button stays spent while the page changes), or its links are shown
  if (started(game, seats, created) === "invites") formMade(game);
}

/** A refusal of the form's room in the form's terms: the API numbers seats from 0 ("seat 0's
 * name: ..."), the form calls them "Player 1", "Player 2". */
function asForm(message) {
  return (message || "").replace(/\bseat (\d+)\b/g, (_, seat) => `Player ${Number(seat) + 1}`);
}

/** A room made: this browser keeps its token and invite links, then opens it ("opened"), or shows
 * the links to send ("invites"). */
function started(game, seats, created) {
  store.rememberGame(game.id);
  const here = seats.flatMap((kind, seat) => (kind === "here" ? [seat] : []));
  if (created.token) store.addIdentity(created.room, game.id, created.token, here);
  store.saveInvites(created.room, game.id, created.invites);
  if (!created.invites.length) {
    location.href = `/rooms/${encodeURIComponent(created.room)}`;
    return "opened";
  }
  showInvites(game, created);
  return "invites";
}

function showInvites(game, created) {
  const names = created.state.view.seat_names || [];
  const panel = $("created");
  replace(panel,
    h("h2", { id: "created-title" }, `Your ${game.name} game is ready`),
    h("p", {}, "Send each link to the person who plays that seat; each link works once. The game starts when everybody has joined."),
    created.invites.map((invite) => inviteRow(names[invite.seat] || `Player ${invite.seat + 1}`, invite.link)),
    h("p", {}, h("a", { class: "button primary", id: "open-room", href: `/rooms/${encodeURIComponent(created.room)}` }, "Open the game")),
  );
  panel.hidden = false;
  // brought into view and announced: the keyboard's place moves to the panel (a screen reader
  // reads its heading), and the page scrolls to its top, under the form it appeared beneath
  panel.focus({ preventScroll: true });
  const calm = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  panel.scrollIntoView({ behavior: calm ? "auto" : "smooth", block: "start" });
  drawRooms();
}

// --- rooms ---------------------------------------------------------------------------------
async function drawRooms() {
  const lists = { open: [], playing: [], finished: [] };
  try {
    // the listing holds a few rooms of one address (the lobby is shared): this browser's own
    // newest rooms are asked for too, so that its games are always listed for it
    const all = await api.rooms("all", store.myRooms().slice(0, MINE_LISTED).map((entry) => entry.room));
    for (const room of all) (lists[room.status === "waiting" ? "open" : room.status] || []).push(room);
  } catch (error) {
    replace($("rooms"), h("p", { class: "alert" }, error.message));
    return;
  }
  const mine = new Set(store.myRooms().map((entry) => entry.room));
  const section = (title, rooms, empty) =>
    h("div", { class: "room-list" }, h("h3", {}, title),
      rooms.length ? h("ul", {}, rooms.map((room) => roomItem(room, mine.has(room.room)))) : h("p", { class: "muted" }, empty));
  replace($("rooms"),
    section("Waiting for invited players", lists.open, "No game is waiting for players."),
    section("Being played", lists.playing, "No game is being played."),
    section("Finished", lists.finished, "No game has finished yet."),
  );
}

function roomItem(room, mine) {
  const game = catalog.find((entry) => entry.id === room.game);
  const seats = room.seats.map((seat) => seat.name).join(" · ");
  const action = room.status === "finished" ? "Replay" : mine ? "Continue" : "Watch";
  let result = "";
  if (room.result) {
    const winners = room.result.winners.map((seat) => room.seats[seat].name);
    result = winners.length === 1 ? `${winners[0]} won` : winners.length === room.players ? "draw" : `${winners.join(", ")} shared`;
  }
  return h("li", { class: `room${mine ? " mine" : ""}`, dataset: { room: room.room } },
    h("a", { href: `/rooms/${encodeURIComponent(room.room)}` }, `${action}: ${game ? game.name : room.game}`),
    h("span", { class: "room-seats" }, seats),
    h("span", { class: "muted" }, `${since(room.updated)}${result ? ` · ${result}` : ""}`),
    mine ? h("span", { class: "tag" }, "yours") : null,
  );
}

/** "just now", "5 min ago", "3 h ago", "2 days ago": when the room last changed. */
function since(seconds) {
  if (!seconds) return "";
  const ago = Math.max(0, Date.now() / 1000 - seconds);
  if (ago < 60) return "just now";
  if (ago < 3600) return `${Math.round(ago / 60)} min ago`;
  if (ago < 86400) return `${Math.round(ago / 3600)} h ago`;
  return `${Math.round(ago / 86400)} days ago`;
}

start();
