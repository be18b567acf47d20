// A Lab game's replay: the study and the record come from the address
// (/lab/STUDY/replay?record=records/NAME.json); each position is fetched once from the server,
// which replays the record, and drawn by the game's own renderer, as in a room's replay.

import * as api from "./api.js";
import { loadRenderer } from "./renderers.js";

const $ = (id) => document.getElementById(id);
const studyId = decodeURIComponent(location.pathname.split("/")[2] || "");
const record = new URLSearchParams(location.search).get("record") || "";
const views = new Map();
let total = 0;
let shown = 0;
let board = null;

async function fetchMove(number) {
  if (!views.has(number)) {
    const path = `/api/lab/studies/${encodeURIComponent(studyId)}/replay?record=${encodeURIComponent(record)}&move=${number}`;
    views.set(number, await api.request(path));
  }
  return views.get(number);
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
  $("replay-caption").textContent = number === 0 ? `The start (${total} moves in all)`
    : `After move ${number} of ${total}: ${last ? last.text : ""}`;
  $("replay-caption").dataset.move = String(number);
}

async function start() {
  $("report-link").href = `/lab/${encodeURIComponent(studyId)}/report`;
  $("replay-record").href = `/lab/${encodeURIComponent(studyId)}/${record}`;
  let first;
  try {
    first = await fetchMove(0);
  } catch (error) {
    $("replay-caption").textContent = "This game cannot be shown.";
    $("replay-alert").textContent = error.message;
    $("replay-alert").hidden = false;
    return;
  }
  total = first.moves;
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
    if (event.key === "ArrowLeft") show(shown - 1);
    if (event.key === "ArrowRight") show(shown + 1);
  });
  await show(0);
}

start();
