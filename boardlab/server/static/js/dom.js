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

/** Remove every child of `element` and append `children`. */
export function replace(element, ...children) {
  element.replaceChildren();
  return fill(element, {}, children);
}

/** Plain text of a seat name or any value, never markup. */
export function text(value) {
  return document.createTextNode(value === null || value === undefined ? "" : String(value));
}
