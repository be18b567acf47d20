// The lobby: the games (each with its description and rules page), the form that starts a
// room, the invite links it made, and the rooms on this server (yours first).

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { inviteRow } from "./panels.js";
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
const PERSON_CHOICES = [
  ["here", "a person at this screen"],
  ["invite", "an invited person (gets a link)"],
];
let catalog = [];
const FIRST_GAME = "towers";

async function start() {
  try {
    catalog = await api.games();
  } catch (error) {
    replace($("games"), h("p", { class: "alert" }, error.message));
    return;
  }
  drawGames();
  const asked = new URLSearchParams(location.search).get("game");
  const known = (id) => catalog.some((game) => game.id === id);
  // a newcomer starts with the simplest game, not the catalog's first (Honor, the most complex)
  drawForm([asked, store.lastGame(), FIRST_GAME].find(known) || catalog[0].id);
  drawRooms();
  setInterval(drawRooms, 10000);
}

function drawGames() {
  replace($("games"),
    catalog.map((game) => {
      const description = h("p", { class: "description" });
      description.innerHTML = game.description; // the server's Markdown rendering (no raw HTML passes)
      return h("article", { class: "game-card", dataset: { game: game.id } },
        h("h2", {}, game.name),
        h("p", { class: "facts" }, `${playersText(game)} players · ${natureText(game)}`),
        description,
        h("div", { class: "buttons" },
          h("button", { class: "primary", dataset: { play: game.id }, onclick: () => { drawForm(game.id); $("new-game").scrollIntoView({ behavior: "smooth" }); } }, `Play ${game.name}`),
          game.rules_page ? h("a", { class: "button", href: game.rules_page }, "Rules") : null,
          game.lesson_page ? h("a", { class: "button", href: game.lesson_page, dataset: { learn: game.id } }, "Learn") : null,
        ),
      );
    }),
  );
}

function playersText(game) {
  const counts = game.player_counts;
  return counts.length === 1 ? String(counts[0]) : `${counts.slice(0, -1).join(", ")} or ${counts.at(-1)}`;
}

function natureText(game) {
  const parts = [];
  parts.push(game.chance ? "dice or cards" : "no luck");
  if (game.hidden_information) parts.push("hidden cards");
  if (game.continuous_moves) parts.push("physics");
  return parts.join(", ");
}

// --- the form ------------------------------------------------------------------------------
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
      h("select", { id: `seat-${seat}`, name: `seat-${seat}` },
        seatChoices(game).map(([value, label]) => h("option", { value, selected: value === (seat === 0 ? "here" : "computer:normal") }, label))),
      h("input", { id: `name-${seat}`, name: `name-${seat}`, maxlength: 40, placeholder: "name (optional)", "aria-label": `player ${seat + 1}'s name` }),
    ));
  const options = game.options.map(optionField);
  const form = $("create-form");
  replace(form,
    h("div", { class: "form-row" }, h("label", { for: "game" }, "Game"), gameSelect),
    h("div", { class: "form-row" }, h("label", { for: "players" }, "Players"), playersSelect),
    h("fieldset", {}, h("legend", {}, "Who plays"), seats),
    options.length ? h("fieldset", { class: "options" }, h("legend", {}, `${game.name}'s options`), options) : null,
    h("details", { class: "more" }, h("summary", {}, "Time limit and take-backs"),
      h("div", { class: "form-row" }, h("label", { for: "move-seconds" }, "Seconds per move"),
        h("input", { id: "move-seconds", type: "number", min: 5, max: 86400, placeholder: "no limit" }),
        h("span", { class: "help" }, "At least 5 seconds (the server's floor). When a person runs out of time the game's own rule applies (a default move, or the loss).")),
      h("div", { class: "form-row" }, h("label", { for: "undo" }, "Take-backs"),
        h("select", { id: "undo" },
          h("option", { value: "" }, "automatic (own moves against the computer; none with an invited person)"),
          h("option", { value: "own" }, "a person takes back their own move"),
          h("option", { value: "same_screen" }, "the last person's move (people at one screen)"),
          h("option", { value: "never" }, "never"))),
    ),
    h("p", { id: "create-error", class: "alert", role: "alert", hidden: true }),
    h("button", { class: "primary", id: "create", type: "submit" }, `Start ${game.name}`),
  );
  form.onsubmit = (event) => {
    event.preventDefault();
    create(game, players);
  };
}

/** People, then the game's levels weakest first, each with its measured strength where the
 * game has one ("the computer: hard, about 1600", an Elo with random play at 0). */
function seatChoices(game) {
  const levels = (game.levels || []).map((entry) =>
    [`computer:${entry.level}`, `the computer: ${entry.level}${entry.rating ? `, ${entry.rating}` : ""}`]);
  return [...PERSON_CHOICES, ...levels];
}

/** One option: a checkbox, a list of choices, or a number, with its help and default. */
function optionField(option) {
  const id = `option-${option.name}`;
  let control;
  if (typeof option.default === "boolean") {
    control = h("input", { id, type: "checkbox", checked: option.default, dataset: { option: option.name, kind: "bool" } });
  } else if (option.choices) {
    control = h("select", { id, dataset: { option: option.name, kind: "text" } },
      option.choices.map((choice) => h("option", { value: choice, selected: choice === option.default }, choice)));
  } else if (typeof option.default === "number") {
    const range = /(-?\d+)\.\.(-?\d+)/.exec(option.allowed || "");
    control = h("input", { id, type: "number", value: option.default, min: range ? range[1] : null, max: range ? range[2] : null, step: Number.isInteger(option.default) ? 1 : "any", dataset: { option: option.name, kind: "number" } });
  } else {
    control = h("input", { id, value: option.default, dataset: { option: option.name, kind: "text" } });
  }
  return h("div", { class: "form-row option" },
    h("label", { for: id }, option.name.replaceAll("_", " ")),
    control,
    h("span", { class: "help" }, `${option.help} (default: ${String(option.default)})`));
}

function readOptions(game) {
  const options = {};
  for (const option of game.options) {
    const control = document.getElementById(`option-${option.name}`);
    const kind = control.dataset.kind;
    const value = kind === "bool" ? control.checked : kind === "number" ? Number(control.value) : control.value;
    if (value !== option.default) options[option.name] = value; // only what differs from the rules' default
  }
  return options;
}

async function create(game, players) {
  const seats = Array.from({ length: players }, (_, seat) => $(`seat-${seat}`).value);
  const names = Array.from({ length: players }, (_, seat) => $(`name-${seat}`).value.trim());
  const body = { game: game.id, players, seats, options: readOptions(game) };
  if (names.some(Boolean)) body.names = names.map((name, seat) => name || defaultName(seats[seat], seat));
  const seconds = $("move-seconds").value;
  if (seconds) body.move_seconds = Number(seconds);
  if ($("undo").value) body.undo = $("undo").value;
  const error = $("create-error");
  error.hidden = true;
  $("create").disabled = true;
  try {
    const created = await api.createRoom(body);
    store.rememberGame(game.id);
    const here = seats.flatMap((kind, seat) => (kind === "here" ? [seat] : []));
    if (created.token) store.addIdentity(created.room, game.id, created.token, here);
    store.saveInvites(created.room, game.id, created.invites);
    if (!created.invites.length) {
      location.href = `/rooms/${encodeURIComponent(created.room)}`;
      return;
    }
    showInvites(game, created);
  } catch (failure) {
    error.textContent = failure.message;
    error.hidden = false;
  } finally {
    $("create").disabled = false;
  }
}

function defaultName(kind, seat) {
  return kind.startsWith("computer") ? `Computer (${kind.split(":")[1]})` : `Player ${seat + 1}`;
}

function showInvites(game, created) {
  const names = created.state.view.seat_names || [];
  replace($("created"),
    h("h2", {}, `Your ${game.name} game is ready`),
    h("p", {}, "Send each link to the person who plays that seat; each link works once. The game starts when everybody has joined."),
    created.invites.map((invite) => inviteRow(names[invite.seat] || `Player ${invite.seat + 1}`, invite.link)),
    h("p", {}, h("a", { class: "button primary", id: "open-room", href: `/rooms/${encodeURIComponent(created.room)}` }, "Open the game")),
  );
  $("created").hidden = false;
  $("created").scrollIntoView({ behavior: "smooth" });
  drawRooms();
}

// --- rooms ---------------------------------------------------------------------------------
async function drawRooms() {
  const lists = { open: [], playing: [], finished: [] };
  try {
    const all = await api.rooms("all");
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
    h("span", { class: "muted" }, `${room.moves} move${room.moves === 1 ? "" : "s"}${result ? ` · ${result}` : ""}`),
    mine ? h("span", { class: "tag" }, "yours") : null,
  );
}

start();
