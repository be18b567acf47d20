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
