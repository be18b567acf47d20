// The board's zoom (docs/web.md), on the play page and the lesson page: the drawing fits the
// width by default, so that every piece is on the screen; − and + (and a two-finger pinch on a
// touch screen) zoom it inside a box of its own, which pans; zooming in centres the player's
// own pieces (those a move can start from) or the piece selected. Only the drawing zooms: a
// renderer's score line, instructions and buttons stay put. The zoom chosen is kept per game
// in this browser, and a page opened zoomed in opens on the player's pieces.

import { h, replace } from "./dom.js";

export const ZOOMS = [1, 1.5, 2, 3];
const KEY = "boardlab.zoom";
// where the zoom is offered: phones and touch screens (a desktop's board is large enough)
const SMALL = "(max-width: 900px), (pointer: coarse)";

function remembered(game) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}")[game];
    return ZOOMS.includes(kept) ? kept : 1;
  } catch {
    return 1;
  }
}

function remember(game, zoom) {
  try {
    const kept = JSON.parse(localStorage.getItem(KEY) || "{}");
    kept[game] = zoom;
    localStorage.setItem(KEY, JSON.stringify(kept));
  } catch {
    // storage refused (a private window): the zoom lasts as long as the page
  }
}

export class BoardZoom {
  /** `board`: the element the renderer draws in; `bar`: where the zoom buttons go. */
  constructor(board, bar, game) {
    this.board = board;
    this.bar = bar;
    this.game = game;
    this.offered = window.matchMedia(SMALL).matches;
    this.zoom = this.offered ? remembered(game) : 1;
    this.scroll = null; // the box's scroll, kept across redraws (null: centre on the pieces)
    this.pinch = null;
    this.drawBar();
  }

  /** After every drawing: put the drawing in its box at the zoom chosen. */
  apply() {
    const drawing = this.board.querySelector("svg.bl-board-svg");
    if (this.bar) this.bar.hidden = !this.offered || !drawing;
    if (!drawing || !this.offered) return; // a desktop's board needs no zoom
    let box = drawing.parentElement;
    if (!box.classList.contains("bl-zoom-box")) {
      box = h("div", { class: "bl-zoom-box", dataset: { zoom: this.zoom } });
      // moving the drawing takes the keyboard off a square in it: it is given back at once
      const focused = drawing.contains(document.activeElement) ? document.activeElement : null;
      drawing.replaceWith(box);
      box.append(drawing);
      if (focused) focused.focus({ preventScroll: true });
      box.addEventListener("scroll", () => {
        this.scroll = { left: box.scrollLeft, top: box.scrollTop };
      }, { passive: true });
      this.listenForPinch(box);
    }
    box.dataset.zoom = this.zoom;
    drawing.style.width = this.zoom === 1 ? "" : `${this.zoom * 100}%`;
    drawing.classList.toggle("bl-zoomed", this.zoom !== 1);
    if (this.zoom === 1) this.scroll = null;
    else if (this.scroll === null) this.centre(box, drawing);
    else {
      box.scrollLeft = this.scroll.left;
      box.scrollTop = this.scroll.top;
    }
  }

  /** Scroll `box` so that the player's own pieces (or the selection) are in its middle. */
  centre(box, drawing) {
    const picked = [...drawing.querySelectorAll("[data-key].bl-selected")];
    const own = picked.length ? picked : [...drawing.querySelectorAll("[data-key].bl-movable")];
    const frame = box.getBoundingClientRect();
    let x = frame.width / 2;
    let y = frame.height / 2;
    if (own.length) {
      const boxes = own.map((node) => node.getBoundingClientRect());
      x = boxes.reduce((sum, part) => sum + part.left + part.width / 2, 0) / boxes.length - frame.left + box.scrollLeft;
      y = boxes.reduce((sum, part) => sum + part.top + part.height / 2, 0) / boxes.length - frame.top + box.scrollTop;
    } else {
      x += box.scrollLeft;
      y += box.scrollTop;
    }
    box.scrollLeft = Math.max(0, x - frame.width / 2);
    box.scrollTop = Math.max(0, y - frame.height / 2);
    this.scroll = { left: box.scrollLeft, top: box.scrollTop };
  }

  set(zoom) {
    zoom = Math.min(ZOOMS.at(-1), Math.max(ZOOMS[0], zoom));
    if (zoom === this.zoom) return;
    this.zoom = zoom;
    this.scroll = null; // zooming in centres the player's pieces
    remember(this.game, zoom);
    this.apply();
    this.drawBar();
  }

  step(direction) {
    const index = ZOOMS.findIndex((zoom) => zoom >= this.zoom);
    this.set(ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, index + direction))]);
  }

  drawBar() {
    if (!this.bar || !this.offered) return;
    const label = this.zoom === 1 ? "fits the screen" : `${this.zoom}×`;
    replace(this.bar,
      h("span", { class: "zoom-label", id: "zoom-label" }, `Board: ${label}`),
      h("button", { type: "button", id: "zoom-out", "aria-label": "zoom out", disabled: this.zoom === ZOOMS[0], onclick: () => this.step(-1) }, "−"),
      h("button", { type: "button", id: "zoom-fit", disabled: this.zoom === 1, onclick: () => this.set(1) }, "Fit"),
      h("button", { type: "button", id: "zoom-in", "aria-label": "zoom in", disabled: this.zoom === ZOOMS.at(-1), onclick: () => this.step(1) }, "+"),
    );
    this.bar.hidden = false;
  }

  /** Two fingers on the board zoom it (one finger pans the box, as the browser does). */
  listenForPinch(box) {
    const distance = (touches) => Math.hypot(touches[0].clientX - touches[1].clientX, touches[0].clientY - touches[1].clientY);
    box.addEventListener("touchstart", (event) => {
      if (event.touches.length === 2) this.pinch = { from: distance(event.touches), zoom: this.zoom };
    }, { passive: true });
    box.addEventListener("touchmove", (event) => {
      if (!this.pinch || event.touches.length !== 2) return;
      event.preventDefault(); // the page itself does not zoom: the board does
      const wanted = this.pinch.zoom * (distance(event.touches) / this.pinch.from);
      const nearest = ZOOMS.reduce((best, zoom) => (Math.abs(zoom - wanted) < Math.abs(best - wanted) ? zoom : best));
      if (nearest !== this.zoom) this.set(nearest);
    }, { passive: false });
    box.addEventListener("touchend", () => {
      this.pinch = null;
    }, { passive: true });
  }
}
