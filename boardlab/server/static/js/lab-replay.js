// A Lab game's replay: the study and the record come from the address
// (/lab/STUDY/replay?record=records/NAME.json); each position is fetched once from the server,
// which replays the record, and drawn by the game's own renderer, as in a room's replay.
// The game's ending is said in words from the start (a designer opened this game for how it
// ended), and the moves are numbered as the players made them, as `boardlab replay` numbers them.

import * as api from "./api.js";
import { movesCounted } from "./analysis.js";
import { resultText } from "./panels.js";
import { loadRenderer } from "./renderers.js";

const $ = (id) => document.getElementById(id);
const studyId = decodeURIComponent(location.pathname.split("/")[2] || "");
const record = new URLSearchParams(location.search).get("record") || "";
const views = new Map();
let total = 0; // the log's entries: the positions run from 0 to total
let log = []; // the whole game's log, from the last position
let counted = [0]; // counted[k]: the players' moves in the first k entries of the log
let ending = "";
let shown = 0;
let board = null;

async function fetchMove(number) {
  if (!views.has(number)) {
    const path = `/api/lab/studies/${encodeURIComponent(studyId)}/replay?record=${encodeURIComponent(record)}&move=${number}`;
    views.set(number, await api.request(path));
  }
  return views.get(number);
}

/** "Draw: P1 has no legal move", "P2 wins: …": the result in words, as the play page says it. */
function endingText(last) {
  if (!last.view.over) return "The record stops before the game ended.";
  return resultText({ view: last.view, seats: [], log: last.log });
}

/** "After move 12 of 30: b7+", "After move 12 of 30 and chance (5+3)": the position after entry k. */
function caption(number) {
  const entry = log[number - 1];
  if (number === 0) return `The start (${counted[total]} moves in all)`;
  const where = counted[number] === 0 ? "The start" : `After move ${counted[number]} of ${counted[total]}`;
  const what = !entry ? "" : entry.by === "chance" ? ` and chance (${entry.text})` : `: ${entry.text}`;
  return number === total ? `The end. ${where}${what}. ${ending}.` : `${where}${what}`;
}

async function show(number) {
  number = Math.max(0, Math.min(total, number));
  let answer;
  try {
    answer = await fetchMove(number);
  } catch (error) {
    $("replay-alert").textContent = error.message;
    $("replay-alert").hidden = false;
    return;
  }
  shown = number;
  const last = answer.log.length ? answer.log[answer.log.length - 1] : null;
  const message = {
    view: answer.view, legal_moves: [], seat: null, your_seats: [], seats: [], status: "finished",
    log: answer.log, thinking: false, ply: answer.move, revision: 0, to_move: answer.view.to_move,
  };
  board.render(message, { interactive: false, selected: [], targets: new Map(), lastMove: last, replay: true, seat: null });
  $("replay-caption").textContent = caption(number);
  $("replay-caption").dataset.move = String(number);
}

async function start() {
  $("report-link").href = `/lab/${encodeURIComponent(studyId)}/report`;
  $("replay-record").href = `/lab/${encodeURIComponent(studyId)}/${record}`;
  let first;
  let last;
  try {
    first = await fetchMove(0);
    last = await fetchMove(first.moves);
  } catch (error) {
    $("replay-caption").textContent = "This game cannot be shown.";
    $("replay-alert").textContent = error.message;
    $("replay-alert").hidden = false;
    return;
  }
  total = first.moves;
  log = last.log;
  counted = movesCounted(log);
  ending = endingText(last).replace(/\.$/, "");
  $("replay-ending").textContent = `How the game ended, after ${counted[total]} move${counted[total] === 1 ? "" : "s"}: ${ending}.`;
  const entry = await api.game(first.game);
  $("replay-title").textContent = `${entry.name}: ${record.replace(/^records\//, "")}`;
  const { module } = await loadRenderer(entry);
  const element = $("board");
  board = module.mount(element, { play: async () => {}, click: () => {}, game: entry });
  $("replay-start").onclick = () => show(0);
  $("replay-back").onclick = () => show(shown - 1);
  $("replay-next").onclick = () => show(shown + 1);
  $("replay-end").onclick = () => show(total);
  document.addEventListener("keydown", (event) => {
    const steps = { ArrowLeft: shown - 1, ArrowRight: shown + 1, Home: 0, End: total };
    if (event.key in steps) {
      event.preventDefault();
      show(steps[event.key]);
    }
  });
  await show(0);
}

start();
