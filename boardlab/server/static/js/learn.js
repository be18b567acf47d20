// The lesson page (/learn/GAME, /learn/GAME?step=N): a game's guided lesson, one rule at a time
// on a real board (docs/learn.md).
//
// Each step's position comes from the server as a state message and is drawn by the game's own
// renderer; a move is chosen by clicking as in a real game (or typed) and judged by the server
// through the rules: the game's refusal, why a legal move misses the task, or well done with the
// position it leads to. The page decides nothing but what to show.

import * as api from "./api.js";
import { BoardZoom } from "./boardzoom.js";
import { h, onBoardKeys, replace } from "./dom.js";
import { MovePicker } from "./picker.js";
import { loadRenderer } from "./renderers.js";
import * as store from "./store.js";

const $ = (id) => document.getElementById(id);
const root = $("learn");
const gameId = decodeURIComponent(location.pathname.split("/")[2] || "");

const page = {
  lesson: null, // GET /api/games/GAME/lesson
  game: null, // the game's catalog entry
  module: null,
  renderer: null,
  picker: null,
  index: 0, // the step shown (0-based)
  message: null, // the position shown: the step's, or the one a legal move led to
  lastMove: null, // the move that led to the position shown
  outcome: null, // the last try's outcome: done, not_done, illegal (null: none yet)
  feedback: "",
  hints: 0, // hints shown in this step
  done: new Set(), // the steps done (or shown)
  busy: false,
};

async function start() {
  if (!gameId) return fail("No game in the address.");
  try {
    page.lesson = await api.request(`/api/games/${encodeURIComponent(gameId)}/lesson`);
  } catch (error) {
    return fail(error.message);
  }
  page.game = await api.game(gameId);
  document.title = `${page.lesson.title} · boardlab`;
  $("game-title").textContent = page.game.name;
  $("lesson-title").textContent = page.lesson.title;
  $("lesson-intro").textContent = page.lesson.intro;
  if (page.game.rules_page) {
    $("rules-link").href = page.game.rules_page;
    $("rules-link").hidden = false;
  }
  const { module } = await loadRenderer(page.game);
  page.module = module;
  page.picker = new MovePicker(module.clickPath || null);
  page.zoom = new BoardZoom($("board"), $("zoom"), gameId);
  const asked = Number(new URLSearchParams(location.search).get("step"));
  showStep(asked >= 1 && asked <= page.lesson.steps.length ? asked - 1 : 0);
}

function fail(text) {
  root.dataset.mode = "error";
  $("lesson-title").textContent = "No lesson";
  $("failure").textContent = text;
  $("failure").hidden = false;
}

function step() {
  return page.lesson.steps[page.index];
}

function showStep(index) {
  page.index = index;
  page.hints = 0;
  restore();
}

/** Back to the step's own position, ready for a (new) try. */
function restore() {
  page.message = step().state;
  page.lastMove = null;
  page.outcome = null;
  page.feedback = "";
  page.picker.setMoves(page.message.legal_moves);
  hideChooser();
  drawAll();
}

/** Moves are taken while the step's own position is shown (after a refusal too). */
function interactive() {
  return !page.busy && (page.outcome === null || page.outcome === "illegal");
}

// --- drawing ---------------------------------------------------------------------------------
function drawAll() {
  const current = step();
  root.dataset.mode = "step";
  root.dataset.step = current.number;
  root.dataset.outcome = page.outcome || "";
  root.dataset.busy = String(page.busy);
  $("finished").hidden = true;
  $("step").hidden = false;
  drawProgress();
  $("step-title").textContent = `Step ${current.number} of ${page.lesson.steps.length}: ${current.title}`;
  $("step-explanation").textContent = current.explanation;
  $("step-task").textContent = current.task;
  const feedback = $("feedback");
  feedback.hidden = !page.feedback;
  feedback.dataset.outcome = page.outcome || "";
  feedback.textContent = page.feedback;
  replace($("hints"), current.hints.slice(0, page.hints).map((hint) => h("li", {}, hint)));
  const done = page.outcome === "done";
  $("hint").disabled = done || page.hints >= current.hints.length;
  $("show").disabled = done || page.busy;
  $("retry").hidden = page.outcome !== "not_done";
  $("next").hidden = !done;
  $("next").textContent = page.index + 1 < page.lesson.steps.length ? "Next step" : "Finish the lesson";
  $("notation").disabled = !interactive();
  drawBoard();
}

/** The steps as buttons: any step is one tap away, done or not (the current one is marked). */
function drawProgress() {
  const finished = root.dataset.mode === "finished";
  replace($("progress"), page.lesson.steps.map((other, i) => {
    const state = !finished && i === page.index ? "current" : finished || page.done.has(i) ? "done" : "todo";
    return h("li", { dataset: { state } },
      h("button", {
        type: "button", class: "learn-step-button", dataset: { step: other.number },
        "aria-current": state === "current" ? "step" : null,
        "aria-label": `step ${other.number}: ${other.title}${state === "done" ? " (done)" : ""}`,
        onclick: () => showStep(i),
      }, `${other.number}. ${other.title}`));
  }));
}

function drawBoard() {
  if (!page.renderer) page.renderer = page.module.mount($("board"), host);
  page.renderer.render(page.message, {
    selected: page.picker.selected.slice(),
    targets: interactive() ? page.picker.targets() : new Map(),
    lastMove: page.lastMove,
    interactive: interactive(),
    replay: false,
    seat: page.message.seat,
  });
  page.zoom.apply();
}

function drawFinished() {
  root.dataset.mode = "finished";
  $("step").hidden = true;
  $("lesson-outro").textContent = page.lesson.outro;
  drawProgress();
  $("finished").hidden = false;
}

// --- trying moves ----------------------------------------------------------------------------
/** Send a move to be judged; a legal one shows the position it leads to. */
async function tryMove(text, shown = false) {
  if (page.busy) return;
  page.busy = true;
  page.picker.reset();
  hideChooser();
  drawAll();
  let answer;
  try {
    answer = await api.request(`/api/games/${encodeURIComponent(gameId)}/lesson/steps/${step().number}/try`, {
      method: "POST", body: { move: text },
    });
  } catch (error) {
    answer = { outcome: "illegal", message: error.message, state: null, move: null };
  }
  page.busy = false;
  page.outcome = answer.outcome;
  page.feedback = shown && answer.outcome === "done" ? `The solution: ${answer.move.notation}.` : answer.message;
  if (answer.state) {
    page.message = answer.state;
    page.lastMove = { number: 1, by: step().seat, type: answer.move.type, text: answer.move.notation, move: answer.move };
  }
  if (answer.outcome === "done") page.done.add(page.index);
  else if (answer.outcome === "illegal") page.picker.setMoves(page.message.legal_moves);
  drawAll();
}

/** The renderer's side of the page (docs/web.md). */
const host = {
  play: (text) => (interactive() ? tryMove(text) : Promise.resolve()),
  click: (key) => clickKey(key),
  get game() {
    return page.game;
  },
};

function clickKey(key) {
  if (!interactive()) return;
  const chosen = page.picker.click(key);
  if (chosen && chosen.play) return tryMove(chosen.play.notation);
  if (chosen && chosen.choose) showChooser(chosen.choose);
  else hideChooser();
  drawBoard();
}

function showChooser(moves) {
  replace($("chooser"), h("span", {}, "Which move?"),
    moves.map((move) => h("button", { type: "button", class: "move-button", onclick: () => tryMove(move.notation) }, move.notation)));
  $("chooser").hidden = false;
}

function hideChooser() {
  $("chooser").hidden = true;
}

/** The practice game: this person against the gentlest computer, hints and take-backs on. */
async function practice() {
  const plan = page.lesson.practice;
  $("practice").disabled = true;
  try {
    const created = await api.createRoom({ game: gameId, seats: plan.seats, undo: plan.undo });
    store.rememberGame(gameId);
    store.addIdentity(created.room, gameId, created.token, plan.seats.flatMap((kind, seat) => (kind === "here" ? [seat] : [])));
    location.href = `/rooms/${encodeURIComponent(created.room)}`;
  } catch (error) {
    $("practice-error").textContent = error.message;
    $("practice-error").hidden = false;
    $("practice").disabled = false;
  }
}

// --- wiring ----------------------------------------------------------------------------------
onBoardKeys($("board"), clickKey);
document.addEventListener("keydown", (event) => {
  if (event.key === "Escape" && page.picker) {
    page.picker.reset();
    hideChooser();
    drawBoard();
  }
});
$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("notation").value.trim();
  if (text && interactive()) {
    $("notation").value = "";
    tryMove(text);
  }
});
$("hint").addEventListener("click", () => {
  page.hints += 1;
  drawAll();
});
$("show").addEventListener("click", () => {
  if (page.outcome === "not_done") restore();
  tryMove(step().solution, true);
});
$("retry").addEventListener("click", restore);
$("next").addEventListener("click", () => {
  if (page.index + 1 < page.lesson.steps.length) showStep(page.index + 1);
  else drawFinished();
});
$("again").addEventListener("click", () => {
  page.done.clear();
  showStep(0);
});
$("practice").addEventListener("click", practice);

start().catch((error) => {
  console.error(error);
  fail(`The page failed: ${error.message}`);
});
