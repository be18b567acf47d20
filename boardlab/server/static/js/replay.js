// The replay view of a finished game: step through its positions, each fetched once from
// the server (GET .../replay?move=N), which replays the record; the page holds no rules.
// Beside it, the engine's analysis (GET .../analysis, asked for once the game is over): a
// graph of each seat's chances to click through, and the moves that lost the most.

import * as api from "./api.js";
import { graph, legend, movesCounted, positionName, positionText, worstList } from "./analysis.js";
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
    this.wanted = null; // the move asked for last (show), shown once its view is here
    this.fetching = false; // a view is being fetched
    this.error = "";
    this.analysis = null; // the engine's analysis, once it came
    this.analysisState = ""; // "", "working", "ready" or "failed"
    this.analysisError = "";
  }

  /** Showing a position before the end (the final one is the live state itself). */
  get active() {
    return this.finished && this.number !== null && this.number !== this.total;
  }

  finish(message) {
    this.finished = true;
    this.total = message.log.length;
    if (this.number === null || this.number > this.total) this.number = this.total;
    // a game ended before anybody moved (a resignation at the start) has nothing to analyse
    if (!this.analysisState && movesCounted(message.log)[this.total] > 0) this.analyse();
  }

  /** Ask for the engine's analysis (the server works it out once per game: seconds). */
  async analyse() {
    this.analysisState = "working";
    this.redraw();
    try {
      const analysis = await api.request(`/api/rooms/${encodeURIComponent(this.roomId)}/analysis`);
      if (analysis.format !== "boardlab-analysis/1") throw new Error(`an analysis in an unknown format (${analysis.format})`);
      this.analysis = analysis;
      this.analysisState = "ready";
    } catch (error) {
      this.analysisError = error.message;
      this.analysisState = "failed";
    }
    this.redraw();
  }

  /** Show the position after move `number`, its view fetched once. One request at a time:
   * keys held down or pressed quickly ask for many positions before the first view comes; the
   * last one asked is fetched next and the others skipped (the server refuses an address a
   * fourth replay request under way). */
  async show(number) {
    this.wanted = Math.max(0, Math.min(this.total, number));
    this.error = "";
    if (this.fetching) return;
    this.fetching = true;
    try {
      while (this.wanted !== this.total && !this.views.has(this.wanted)) {
        const asked = this.wanted;
        try {
          const answer = await api.replay(this.roomId, this.token(), asked);
          this.views.set(asked, answer.view);
        } catch (error) {
          this.error = error.message;
          return this.redraw();
        }
      }
    } finally {
      this.fetching = false;
    }
    this.number = this.wanted;
    this.redraw();
  }

  /** The message a renderer is given for the position shown: its view, no moves to make. */
  message(message) {
    const view = this.views.get(this.number);
    return { ...message, view, ply: view.ply, to_move: view.to_move, legal_moves: [], status: "finished" };
  }

  /** "Replay: after move 12 of 30 (b7+)": the one numbering, a roll or a deal no move. */
  caption(message) {
    const log = message.log;
    const counted = movesCounted(log);
    const entry = log[this.number - 1];
    if (this.number === 0) return "Replay: the start";
    const played = entry && entry.by !== "chance" ? ` (${entry.text})` : "";
    return `Replay: ${positionName(log, counted, this.number)} of ${counted[this.total]}${played}`;
  }

  /** The position asked for last, shown or on its way: a step is from there, so that every
   * key press and click counts while a view is being fetched. */
  get asked() {
    return this.fetching ? this.wanted : this.number;
  }

  key(event) {
    const steps = { ArrowLeft: this.asked - 1, ArrowRight: this.asked + 1, Home: 0, End: this.total };
    if (event.key in steps) {
      event.preventDefault();
      this.show(steps[event.key]);
    }
  }

  drawControls(element, message) {
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
        h("button", { id: "replay-back", onclick: () => this.show(this.asked - 1), title: "one move back (←)" }, "◀"),
        h("span", { id: "replay-position", class: "replay-position" }, `move ${movesCounted(message.log)[this.number]} / ${movesCounted(message.log)[this.total]}`),
        h("button", { id: "replay-forward", onclick: () => this.show(this.asked + 1), title: "one move on (→)" }, "▶"),
        h("button", { id: "replay-end", onclick: go(this.total), title: "the end (End)" }, "▶|"),
      ),
      slider,
      this.error ? h("p", { class: "alert" }, this.error) : h("p", { class: "muted" }, "Click a move in the list to see the position after it."),
      this.drawAnalysis(message),
    );
  }

  drawAnalysis(message) {
    const box = h("section", { id: "analysis", class: "analysis", "aria-label": "the engine's analysis" },
      h("h3", {}, "The engine's analysis"));
    if (movesCounted(message.log)[this.total] === 0) {
      box.append(h("p", { class: "muted", id: "analysis-none" }, "No move was played, so there is nothing to analyse."));
    } else if (this.analysisState === "working") {
      box.append(h("p", { class: "muted", role: "status" }, "The engine is going through the game…"));
    } else if (this.analysisState === "failed") {
      box.append(
        h("p", { class: "alert" }, `No analysis: ${this.analysisError}`),
        h("button", { type: "button", id: "analysis-retry", onclick: () => this.analyse() }, "Try again"),
      );
    } else if (this.analysis && this.analysis.moves.length === this.total) {
      const names = this.analysis.seat_names.map((name, seat) => (message.view.seat_names || [])[seat] || name);
      const pick = (number) => this.show(number);
      box.append(
        legend(names),
        graph(this.analysis, names, this.number, pick, message.log),
        h("p", { id: "analysis-now", class: "analysis-now", "aria-live": "polite" }, positionText(this.analysis, names, this.number, message.log)),
        h("h4", {}, "Moves that lost the most"),
        worstList(this.analysis, names, pick, message.log),
        h("p", { class: "muted analysis-about" },
          "Chances are the engine's estimates for players as strong as it is, not certainties; a loss is how much of a win a move gave away against the engine's move."),
      );
    }
    return box;
  }
}
