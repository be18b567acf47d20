// The playtest form at the end of a game (docs/playtests.md): for each seat this browser played,
// four questions for the game's designer, every one optional, the whole form skippable; an
// answer can be changed or deleted. The server keeps one answer per seat, with this browser's
// remembered player when there is one (who can then delete all of theirs at once).

import * as api from "./api.js";
import { h, replace } from "./dom.js";
import { seatName } from "./panels.js";
import * as store from "./store.js";

const FUN = [[1, "1: no fun"], [2, "2"], [3, "3"], [4, "4"], [5, "5: great fun"]];
const LENGTHS = [["short", "too short"], ["right", "about right"], ["long", "too long"]];
const SKIPPED = "boardlab.playtestSkipped";

const form = {
  room: null,
  loaded: false,
  loading: false,
  seats: [], // [{seat, token, answer}] for the seats this browser played
  editing: new Set(),
  error: "",
  // bumped by every change of the form's own state: the page redraws on every message, and
  // the form is rebuilt only when it changed (a half-filled form keeps what was chosen)
  version: 0,
  redraw: () => {},
};

function changed() {
  form.version += 1;
  form.redraw();
}

/**
 * Draw the form in `element` once the game is over, for the seats people played from this
 * browser (`tokens`: each of them with the token that holds it). `redraw` draws the page again.
 */
export function drawPlaytestForm(element, roomId, message, tokens, redraw) {
  form.redraw = redraw;
  if (message.status !== "finished" || !tokens.length) {
    element.hidden = true;
    return;
  }
  if (form.room !== roomId) Object.assign(form, { room: roomId, loaded: false, seats: [], editing: new Set(), error: "" });
  if (!form.loaded) {
    if (!form.loading) load(roomId, tokens);
    element.hidden = true;
    return;
  }
  element.hidden = !form.seats.length;
  if (element.hidden || element.dataset.version === `${roomId}:${form.version}`) return;
  element.dataset.version = `${roomId}:${form.version}`;
  const several = form.seats.length > 1;
  replace(element,
    h("h2", { id: "playtest-title" }, "For the game's designer"),
    h("p", { class: "muted" }, "How was it? Every question is optional; the designer reads the answers beside the computer's games. Your name is shown to nobody but this game's players and the designer."),
    form.error ? h("p", { class: "alert", role: "alert" }, form.error) : null,
    form.seats.map((entry) => seatPart(message, entry, several)));
}

async function load(roomId, tokens) {
  form.loading = true;
  try {
    const found = [];
    for (const token of [...new Set(tokens)]) {
      const answer = await api.request(`/api/rooms/${encodeURIComponent(roomId)}/playtest`, { token });
      for (const seat of answer.seats) found.push({ seat: seat.seat, token, answer: seat.answer });
    }
    form.seats = found.sort((a, b) => a.seat - b.seat);
    form.loaded = true;
  } catch (error) {
    form.loaded = true; // a server without playtests (or away): no form, the game's page as ever
    form.seats = [];
    console.warn(error.message);
  } finally {
    form.loading = false;
  }
  changed();
}

function seatPart(message, entry, several) {
  const name = seatName(message, entry.seat);
  const as = several ? ` (${name})` : "";
  if (skipped(entry.seat) && !entry.answer) {
    return h("p", { class: "playtest-skipped", dataset: { seat: entry.seat } }, `Form skipped${as}. `,
      h("button", { type: "button", class: "link", onclick: () => unskip(entry.seat) }, `Answer it${as}`));
  }
  if (entry.answer && !form.editing.has(entry.seat)) return answered(message, entry, as);
  return questions(message, entry, as);
}

function answered(message, entry, as) {
  const answer = entry.answer;
  const parts = [];
  if (answer.fun) parts.push(`fun ${answer.fun} of 5`);
  if (answer.fairness === "fair") parts.push("fair");
  if (answer.fairness === "favoured") parts.push(`${seatName(message, answer.favoured)} favoured`);
  if (answer.length) parts.push(LENGTHS.find(([key]) => key === answer.length)[1]);
  return h("div", { class: "playtest-answered", dataset: { seat: entry.seat } },
    h("p", { role: "status" }, `Thank you: your answers${as} are stored. `, parts.join(" · ")),
    answer.note ? h("p", { class: "playtest-note" }, `“${answer.note}”`) : null,
    h("div", { class: "buttons" },
      h("button", { type: "button", class: "playtest-change", onclick: () => { form.editing.add(entry.seat); changed(); } }, "Change"),
      h("button", { type: "button", class: "playtest-delete", onclick: () => remove(entry) }, `Delete my answers${as}`)));
}

function questions(message, entry, as) {
  const id = (part) => `playtest-${entry.seat}-${part}`;
  const old = entry.answer || {};
  const radios = (name, options, checked) => options.map(([value, label]) =>
    h("label", { class: "playtest-choice" },
      h("input", { type: "radio", name: id(name), value: String(value), checked: String(checked) === String(value) }), ` ${label}`));
  const players = message.view.players || message.seats.length;
  const fairness = [["fair", "yes, fair"], ...Array.from({ length: players }, (_, seat) => [`favoured:${seat}`, `${seatName(message, seat)} was favoured`])];
  const fairNow = old.fairness === "favoured" ? `favoured:${old.favoured}` : old.fairness;
  const note = h("textarea", { id: id("note"), maxlength: 1000, rows: 2 }, old.note || "");
  const send = h("button", { type: "submit", class: "primary playtest-send" }, `Send${as}`);
  const element = h("form", {
    class: "playtest-form", dataset: { seat: entry.seat }, "aria-label": `the playtest form${as}`,
    onsubmit: async (event) => {
      event.preventDefault();
      send.disabled = true;
      await submit(entry, element, note.value);
    },
  },
  h("fieldset", {}, h("legend", {}, `How much fun was it${as}?`), h("div", { class: "playtest-choices" }, radios("fun", FUN, old.fun))),
  h("fieldset", {}, h("legend", {}, "Did it feel fair?"), h("div", { class: "playtest-choices" }, radios("fair", fairness, fairNow))),
  h("fieldset", {}, h("legend", {}, "Its length"), h("div", { class: "playtest-choices" }, radios("length", LENGTHS, old.length))),
  h("label", { for: id("note"), class: "playtest-note-label" }, "A note for the designer"), note,
  h("div", { class: "buttons" }, send,
    h("button", { type: "button", class: "playtest-skip", onclick: () => skip(entry) }, entry.answer ? "Keep my answers" : "Skip")));
  return element;
}

function chosen(element, name) {
  const input = element.querySelector(`input[name="playtest-${element.dataset.seat}-${name}"]:checked`);
  return input ? input.value : null;
}

async function submit(entry, element, note) {
  const body = { seat: entry.seat };
  const fun = chosen(element, "fun");
  if (fun) body.fun = Number(fun);
  const fair = chosen(element, "fair");
  if (fair === "fair") body.fairness = "fair";
  else if (fair) Object.assign(body, { fairness: "favoured", favoured: Number(fair.split(":")[1]) });
  const length = chosen(element, "length");
  if (length) body.length = length;
  if (note.trim()) body.note = note.trim();
  const player = store.player();
  try {
    const answer = await api.request(`/api/rooms/${encodeURIComponent(form.room)}/playtest`, {
      method: "PUT", body, token: entry.token, player: player && player.key,
    });
    entry.answer = answer.seats.find((seat) => seat.seat === entry.seat).answer;
    form.editing.delete(entry.seat);
    form.error = "";
  } catch (error) {
    form.error = error.code === "bad_option" && !Object.keys(body).some((key) => key !== "seat")
      ? "Answer a question (or skip the form) before sending." : error.message;
  }
  changed();
}

async function remove(entry) {
  try {
    await api.request(`/api/rooms/${encodeURIComponent(form.room)}/playtest?seat=${entry.seat}`, { method: "DELETE", token: entry.token });
    entry.answer = null;
    form.error = "";
    skip(entry);
  } catch (error) {
    form.error = error.message;
    changed();
  }
}

function skippedSeats() {
  try {
    return JSON.parse(sessionStorage.getItem(SKIPPED) || "{}");
  } catch {
    return {};
  }
}

function skipped(seat) {
  return (skippedSeats()[form.room] || []).includes(seat);
}

function skip(entry) {
  form.editing.delete(entry.seat);
  if (!entry.answer) {
    const data = skippedSeats();
    data[form.room] = [...new Set([...(data[form.room] || []), entry.seat])];
    sessionStorage.setItem(SKIPPED, JSON.stringify(data));
  }
  changed();
}

function unskip(seat) {
  const data = skippedSeats();
  data[form.room] = (data[form.room] || []).filter((other) => other !== seat);
  sessionStorage.setItem(SKIPPED, JSON.stringify(data));
  changed();
}
