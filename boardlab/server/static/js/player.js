// The player's page (/player): this browser's remembered player (a name and the key it keeps),
// their games and results on this server, and their answers to the playtest form, which they
// can delete; or, for a visitor, the name that makes them remembered (docs/playtests.md).

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { asPlayer, ensurePlayer, renamePlayer } from "./players.js";
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
let catalog = [];

async function start() {
  catalog = await api.games().catch(() => []);
  await draw();
}

async function draw() {
  const player = store.player();
  if (!player) return drawVisitor();
  let games, answers;
  try {
    [games, answers] = await Promise.all([asPlayer("/api/players/me/games"), asPlayer("/api/players/me/answers")]);
  } catch (error) {
    if (!store.player()) return drawVisitor(); // this server does not know the key (it was forgotten)
    replace($("who"), h("p", { class: "alert" }, error.message));
    return;
  }
  drawWho(player);
  drawResults(games);
  drawAnswers(answers);
}

function drawVisitor() {
  const name = h("input", { id: "player-name", maxlength: 40, autocomplete: "nickname", required: true });
  const error = h("p", { class: "alert", role: "alert", hidden: true });
  replace($("who"),
    h("h2", { id: "who-title" }, "You are not remembered here"),
    h("form", {
      class: "inline-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await ensurePlayer(name.value);
          await draw();
        } catch (failure) {
          error.textContent = failure.message;
          error.hidden = false;
        }
      },
    }, h("label", { for: "player-name" }, "Your name"), name, h("button", { type: "submit", class: "primary", id: "remember" }, "Remember me")),
    error);
  $("results").hidden = true;
  $("answers").hidden = true;
}

function drawWho(player) {
  const name = h("input", { id: "player-name", maxlength: 40, autocomplete: "nickname", value: player.name, required: true });
  const status = h("p", { class: "muted", role: "status" });
  replace($("who"),
    h("h2", { id: "who-title" }, `You play as ${player.name}`),
    h("form", {
      class: "inline-form",
      onsubmit: async (event) => {
        event.preventDefault();
        try {
          await renamePlayer(name.value.trim());
          await draw();
        } catch (failure) {
          status.textContent = failure.message;
        }
      },
    }, h("label", { for: "player-name" }, "Your name"), name, h("button", { type: "submit", id: "rename" }, "Change it")),
    status,
    h("div", { class: "buttons" }, h("button", { type: "button", id: "forget", onclick: forget }, "Forget me on this server")));
}

async function forget() {
  if (!confirm("Forget you on this server: your name, your links to your games and your playtest answers?")) return;
  try {
    await asPlayer("/api/players/me", { method: "DELETE" });
  } catch (error) {
    if (error.code !== "bad_player_key") return alert(error.message);
  }
  store.forgetPlayer();
  await draw();
}

function gameName(id) {
  const found = catalog.find((game) => game.id === id);
  return found ? found.name : id;
}

/** "you won" ... from the player's seats and the result (null while the game goes on). */
function outcome(game) {
  if (game.status !== "finished" || !game.result) return null;
  const winners = game.result.winners;
  const mine = game.your_seats.filter((seat) => winners.includes(seat));
  if (!winners.length || winners.length === game.players) return "draw";
  if (!mine.length) return "lost";
  return winners.length === 1 ? "won" : "shared";
}

function drawResults(games) {
  const counts = { won: 0, lost: 0, draw: 0, shared: 0 };
  for (const game of games) {
    const ended = outcome(game);
    if (ended) counts[ended] += 1;
  }
  const finished = counts.won + counts.lost + counts.draw + counts.shared;
  const words = { won: "you won", lost: "you lost", draw: "a draw", shared: "you shared the win" };
  const rows = games.map((game) => {
    const others = game.seats.filter((seat) => !game.your_seats.includes(seat.seat)).map((seat) => game.player_names[seat.seat] || seat.name);
    const ended = outcome(game);
    return h("tr", { dataset: { room: game.room } },
      h("td", {}, h("a", { href: `/rooms/${encodeURIComponent(game.room)}` }, gameName(game.game))),
      h("td", {}, others.join(", ") || "at one screen"),
      h("td", {}, ended ? words[ended] : game.status === "waiting" ? "waiting for players" : "being played"),
      h("td", {}, `${game.moves} moves`),
      h("td", {}, new Date(game.updated * 1000).toLocaleDateString()));
  });
  replace($("results"),
    h("h2", { id: "results-title" }, "Your games"),
    h("p", { id: "tally" }, games.length
      ? `${finished} finished: ${counts.won} won, ${counts.lost} lost, ${counts.draw} drawn${counts.shared ? `, ${counts.shared} shared` : ""}.`
      : "No game yet: start one in the lobby."),
    games.length ? h("div", { class: "table-box" }, h("table", { class: "figures games-table" },
      h("thead", {}, h("tr", {}, ["game", "against", "how it ended", "length", "when"].map((title) => h("th", { scope: "col" }, title)))),
      h("tbody", {}, rows))) : null);
  $("results").hidden = false;
}

function drawAnswers(answers) {
  replace($("answers"),
    h("h2", { id: "answers-title" }, "Your answers to the playtest form"),
    h("p", {}, answers.length
      ? `${answers.length} answer${answers.length === 1 ? "" : "s"}, read by the server's game designers beside the computer's games.`
      : "None yet. After a game, its page asks four short questions for the game's designer; every one is optional."),
    answers.length ? h("ul", { class: "notes" }, answers.map((answer) => h("li", {},
      h("a", { href: `/rooms/${encodeURIComponent(answer.room)}` }, gameName(answer.game)),
      ` ${[answer.fun ? `fun ${answer.fun} of 5` : "", answer.length ? `length: ${answer.length}` : "", answer.note ? `“${answer.note}”` : ""].filter(Boolean).join(" · ")}`))) : null,
    answers.length ? h("div", { class: "buttons" }, h("button", { type: "button", id: "delete-answers", onclick: deleteAnswers }, "Delete all my answers")) : null);
  $("answers").hidden = false;
}

async function deleteAnswers() {
  try {
    await asPlayer("/api/players/me/answers", { method: "DELETE" });
  } catch (error) {
    alert(error.message);
  }
  await draw();
}

start().catch((error) => {
  console.error(error);
  replace($("who"), h("p", { class: "alert" }, `The page failed: ${error.message}`));
});
