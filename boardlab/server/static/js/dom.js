// Tiny DOM helpers shared by the pages and the games' renderers (a stable import: /js/dom.js).

const SVG_NS = "http://www.w3.org/2000/svg";

// Set attributes, handlers and children on an element: `on*` keys add listeners, `text` sets
// textContent, `dataset` fills data-* attributes, `null`/`false` values are left out.
function fill(element, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "text") element.textContent = String(value);
    else if (key === "dataset") Object.assign(element.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") element.addEventListener(key.slice(2), value);
    else element.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return element;
}

/** An HTML element: h("button", {class: "primary", onclick: go}, "Start"). */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element: svg("circle", {cx: 10, cy: 10, r: 4, fill: "red"}). */
export function svg(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

/** Remove every child of `element` and append `children`; drawn boards get their roles, and
 * the keyboard's place survives the redraw (`refocus`). */
export function replace(element, ...children) {
  const mark = focusMark(element);
  element.replaceChildren();
  fill(element, {}, children);
  boardRoles(element);
  if (mark) refocus(element, mark);
  return element;
}

const FOCUSABLE = 'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';
const labelOf = (element) => (element.getAttribute("aria-label") || element.textContent || "").trim();

// A redraw replaces the focused element by a new one: without this a keyboard user would be sent
// back to the top of the page after every key press on a board or a form.
function focusMark(element) {
  const active = document.activeElement;
  if (!active || active === element || !element.contains(active)) return null;
  return {
    id: active.id || null,
    key: active.dataset ? active.dataset.key ?? null : null,
    label: labelOf(active),
    index: [...element.querySelectorAll(FOCUSABLE)].indexOf(active),
  };
}

/** Focus the redrawn element standing for the one focused before: the same id, the same board
 * key, the same label at the same place, else the nearest control still enabled. */
function refocus(element, mark) {
  const all = [...element.querySelectorAll(FOCUSABLE)];
  const usable = (candidate) => candidate && !candidate.disabled && candidate.getAttribute("tabindex") !== "-1";
  const byKey = mark.key === null ? null
    : all.find((candidate) => candidate.dataset && candidate.dataset.key === mark.key && candidate.hasAttribute("tabindex"));
  let chosen = [mark.id && all.find((candidate) => candidate.id === mark.id), byKey,
    all[mark.index] && labelOf(all[mark.index]) === mark.label ? all[mark.index] : null].find(usable);
  // only from a control among the others: the keyboard on something else (a board's zoomed box,
  // scrolled with the keys) would otherwise land on the first control, an offer's Accept maybe
  if (!chosen && mark.index >= 0) {
    const near = all.map((candidate, index) => [Math.abs(index - mark.index), candidate]).filter(([, candidate]) => usable(candidate));
    near.sort((a, b) => a[0] - b[0]);
    chosen = near.length ? near[0][1] : null;
  }
  // nothing inside can take the keyboard now (a move made with Enter left no square to click
  // while the answer comes): the nearest focusable container keeps it, never the page's top
  if (!chosen) chosen = element.closest('[tabindex]:not([tabindex="-1"])');
  if (chosen) chosen.focus({ preventScroll: true });
}

/**
 * Roles for screen readers in the SVG drawings under `element`, so that every renderer's board
 * reads the same way: a drawing whose parts are labelled (squares, pieces) is a "group" rather
 * than one "img" (an image's parts are hidden from screen readers, and its clickable squares
 * would be controls nested in an image); a labelled part without a role of its own (a square
 * no move goes through) is an "img" with its label. Clickable parts keep their "button".
 * Cost: one query over the drawing per redraw.
 */
export function boardRoles(element) {
  for (const part of element.querySelectorAll("svg [aria-label]:not([role])")) part.setAttribute("role", "img");
  for (const drawing of element.querySelectorAll('svg[role="img"]')) {
    if (drawing.querySelector("[aria-label], [tabindex]")) drawing.setAttribute("role", "group");
  }
}

/**
 * Move the writing drawn on a board's squares (digits, letters, badges: `<text>` inside an
 * element with `data-key`) into one layer over the drawing that pointers and screen readers
 * pass through: a square's label says the same in words, and a button whose visible text its
 * name lacks confuses speech input (WCAG 2.5.3). The writing keeps its place on the drawing
 * (the squares' coordinates are the drawing's own).
 */
export function liftWriting(drawing) {
  const writing = svg("g", { class: "bl-writing", "pointer-events": "none", "aria-hidden": "true" });
  for (const text of drawing.querySelectorAll("[data-key] text")) writing.append(text);
  drawing.append(writing);
  return drawing;
}

/** Plain text of a seat name or any value, never markup. */
/** Call ``clickKey(key)`` when a square of ``board`` (an element with ``data-key``) is clicked,
 * or focused and Enter or Space pressed: the play page and the lesson page take moves alike. */
export function onBoardKeys(board, clickKey) {
  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-key]");
    if (target && board.contains(target)) clickKey(target.dataset.key);
  });
  board.addEventListener("keydown", (event) => {
    const target = event.target.closest("[data-key]");
    if (target && (event.key === "Enter" || event.key === " ")) {
      event.preventDefault();
      clickKey(target.dataset.key);
    }
  });
}

export function text(value) {
  return document.createTextNode(value === null || value === undefined ? "" : String(value));
}
