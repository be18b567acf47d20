// The rules page (/rules/GAME): each position the document embeds (a ```position GAME block,
// docs/learn.md) is drawn with the game's own renderer, from the view the server put in the
// figure; the text board stays as the figure's content where the renderer cannot draw it.
// The Learn link shows when the game has a lesson.

import * as api from "./api.js";
import { h } from "./dom.js";
import { loadRenderer } from "./renderers.js";

const game = document.body.dataset.game;

async function drawFigures() {
  const figures = [...document.querySelectorAll("figure.rules-position")];
  if (!figures.length) return;
  const entry = await api.game(figures[0].dataset.game);
  const { module, notice } = await loadRenderer(entry);
  if (notice) return; // the text board says it all; a generic list of moves would not
  for (const figure of figures) drawFigure(figure, module);
}

function drawFigure(figure, module) {
  const data = JSON.parse(figure.dataset.figure);
  const message = {
    type: "state", room: null, game: data.game, status: "playing", revision: 0, ply: data.ply,
    seat: data.seat, your_seats: [], seats: [], to_move: data.view.to_move, thinking: false,
    view: data.view, legal_moves: data.legal_moves, log: [],
    // a picture made from a position string, not a game: a renderer leaves out what only a game has
    // (Honor's seed, fresh at every load of such a position, reveals nothing here)
    figure: true,
  };
  // the move shown is drawn as the play page draws a hint: its first clicks selected, its last a target
  const path = data.move && module.clickPath ? module.clickPath(data.move) : null;
  const selected = [...(path ? path.slice(0, -1).map(String) : []), ...data.highlight];
  const targets = path ? new Map([[String(path[path.length - 1]), [data.move]]]) : new Map();
  const board = h("div", { class: "board rules-position-board" });
  figure.prepend(board);
  const renderer = module.mount(board, { play: async () => {}, click: () => {}, game: null });
  // with choices on, the position is drawn as its player sees it while deciding; nothing is sent
  renderer.render(message, { selected, targets, lastMove: null, interactive: data.choices, replay: false, seat: data.seat });
  figure.dataset.drawn = "true";
  const text = figure.querySelector(".rules-position-text");
  if (text) text.hidden = true;
}

async function showLearnLink() {
  const entry = await api.game(game);
  if (entry.lesson_page) document.getElementById("learn-link").hidden = false;
}

if (game) {
  drawFigures().catch((error) => console.error(error));
  showLearnLink().catch((error) => console.error(error));
}
