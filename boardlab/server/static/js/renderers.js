// Loading a game's renderer (docs/web.md): the module the catalog names (served from the
// game's own web/ folder), or the generic renderer when a game has none or its module fails.

import * as generic from "./generic.js";

/** The renderer module for a catalog entry, and a notice when the generic one stands in. */
export async function loadRenderer(entry) {
  if (entry.stylesheet) {
    document.head.append(Object.assign(document.createElement("link"), { rel: "stylesheet", href: entry.stylesheet }));
  }
  if (!entry.renderer) return { module: generic, notice: null };
  try {
    const module = await import(entry.renderer);
    if (typeof module.mount !== "function") throw new Error(`${entry.renderer} exports no mount()`);
    return { module, notice: null };
  } catch (error) {
    console.error(error);
    return { module: generic, notice: `${entry.name}'s board could not be drawn (${error.message}); the generic view stands in.` };
  }
}

/**
 * A still picture of `message` in `container`, drawn by the game's own renderer: its board
 * drawing alone (the drawing every renderer marks `bl-board-svg`), nothing in it to click or
 * to reach with the keyboard; the container names it for screen readers. False (and nothing
 * drawn) where the game has no renderer of its own.
 */
export async function drawPicture(container, entry, message) {
  const { module, notice } = await loadRenderer(entry);
  if (notice || module === generic) return false;
  // drawn off the screen at a board's usual width: a renderer may measure what it draws
  const scratch = document.createElement("div");
  scratch.className = "board bl-scratch";
  scratch.setAttribute("aria-hidden", "true");
  document.body.append(scratch);
  try {
    const renderer = module.mount(scratch, { play: async () => {}, click: () => {}, game: entry });
    renderer.render(message, { selected: [], targets: new Map(), lastMove: null, interactive: false, replay: true, seat: message.seat });
    const drawing = scratch.querySelector("svg.bl-board-svg");
    if (!drawing) return false;
    for (const part of drawing.querySelectorAll("[tabindex]")) part.removeAttribute("tabindex");
    for (const part of drawing.querySelectorAll("[role], [aria-label]")) {
      part.removeAttribute("role");
      part.removeAttribute("aria-label");
    }
    drawing.removeAttribute("role");
    drawing.removeAttribute("aria-label");
    drawing.setAttribute("aria-hidden", "true");
    drawing.setAttribute("focusable", "false");
    container.replaceChildren(drawing);
    if (renderer.destroy) renderer.destroy();
    return true;
  } finally {
    scratch.remove();
  }
}
