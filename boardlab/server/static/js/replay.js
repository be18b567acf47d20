// The replay view of a finished game: step through its positions, each fetched once from
// the server (GET .../replay?move=N), which replays the record; the page holds no rules.

import * as api from "./api.js";
import { h, replace } from "./dom.js";

export class Replay {
  constructor(roomId, token, redraw) {
    this.roomId = roomId;
    this.token = token; // () => the token the page acts with (the view is that seat's)
    this.redraw = redraw;
    this.views = new Map();
    this.finished = false;
    this.total = 0;
    this.number = null; // the move shown; `total` is the final position, the live page's own
    this.error = "";
  }

  /** Showing a position before the end (the final one is the live state itself). */
  get active() {
    return this.finished && this.number !== null && this.number !== this.total;
  }

  finish(message) {
    this.finished = true;
    this.total = message.log.length;
    if (this.number === null || this.number > this.total) this.number = this.total;
  }

  async show(number) {
    number = Math.max(0, Math.min(this.total, number));
    this.error = "";
    if (number !== this.total && !this.views.has(number)) {
      try {
        const answer = await api.replay(this.roomId, this.token(), number);
        this.views.set(number, answer.view);
      } catch (error) {
        this.error = error.message;
        return this.redraw();
      }
    }
    this.number = number;
    this.redraw();
  }

  /** The message a renderer is given for the position shown: its view, no moves to make. */
  message(message) {
    const view = this.views.get(this.number);
    return { ...message, view, ply: view.ply, to_move: view.to_move, legal_moves: [], status: "finished" };
  }

  caption(message) {
    const entry = message.log[this.number - 1];
    return this.number === 0 ? "Replay: the start" : `Replay: after move ${this.number} of ${this.total} (${entry ? entry.text : ""})`;
  }

  key(event) {
    const steps = { ArrowLeft: this.number - 1, ArrowRight: this.number + 1, Home: 0, End: this.total };
    if (event.key in steps) {
      event.preventDefault();
      this.show(steps[event.key]);
    }
  }

  drawControls(element) {
    element.hidden = !this.finished;
    if (!this.finished) return;
    const go = (number) => () => this.show(number);
    const slider = h("input", {
      type: "range", min: 0, max: this.total, value: this.number, id: "replay-slider", "aria-label": "move shown",
      onchange: () => this.show(Number(slider.value)),
    });
    replace(element,
      h("h2", {}, "Replay"),
      h("div", { class: "replay-buttons" },
        h("button", { id: "replay-start", onclick: go(0), title: "the start (Home)" }, "|◀"),
        h("button", { id: "replay-back", onclick: go(this.number - 1), title: "one move back (←)" }, "◀"),
        h("span", { id: "replay-position", class: "replay-position" }, `${this.number} / ${this.total}`),
        h("button", { id: "replay-forward", onclick: go(this.number + 1), title: "one move on (→)" }, "▶"),
        h("button", { id: "replay-end", onclick: go(this.total), title: "the end (End)" }, "▶|"),
      ),
      slider,
      this.error ? h("p", { class: "alert" }, this.error) : h("p", { class: "muted" }, "Click a move in the list to see the position after it."),
    );
  }
}
