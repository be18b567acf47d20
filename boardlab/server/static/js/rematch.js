// The end-of-game rematch panel of the play page (docs/web.md, "Rematch"): "Play again" offers
// the same game with the seats rotated; the other people accept or decline, live; once the
// rematch starts, everybody watching the old room is taken to the new one.
//
// The people keep their tokens in the new room (the server gives each new seat its person's old
// token hash), so this browser copies its identities there, each seat moved one on.

import * as api from "./api.js";
import { h } from "./dom.js";
import { seatAndPerson } from "./panels.js";
import * as store from "./store.js";

/** The seat the player of `seat` takes in the rematch (the server's rule: s -> s + 1 mod n). */
export function rotated(seat, players) {
  return (seat + 1) % players;
}


/**
 * Once the rematch of `roomId` has started: this browser's tokens hold the rotated seats there.
 * Returns the new room's address (null while no rematch has started).
 */
export function adoptRematch(roomId, message) {
  const rematch = message.rematch;
  if (!rematch || rematch.status !== "started") return null;
  const entry = store.roomEntry(roomId);
  const players = message.seats.length;
  for (const identity of entry ? entry.identities : []) {
    const seats = identity.seats.map((seat) => rotated(seat, players)).sort((a, b) => a - b);
    store.addIdentity(rematch.room, message.game, identity.token, seats);
  }
  return `/rooms/${encodeURIComponent(rematch.room)}`;
}

/**
 * Whether the page should go to the rematch now: it saw the offer start while it was open
 * (a page opened later on the old game stays there, with a link, to look back at it).
 */
export function followsNow(previous, message) {
  return Boolean(previous && message.rematch && message.rematch.status === "started"
    && (!previous.rematch || previous.rematch.status !== "started"));
}

/** The seats whose answer to the open rematch offer is still awaited. */
function awaited(message) {
  return message.seats.map((entry) => entry.seat).filter((other) => !message.rematch.accepted.includes(other));
}

/**
 * A rematch offered to this screen's people and not answered yet: `{words, parts}`, the words
 * for the banner and the offer's note with its Accept and Decline buttons; null otherwise. The
 * play page shows the parts in the Play panel, or above the board on a narrow screen.
 */
export function rematchQuestion(roomId, message, heldSeats, { act, tokenFor, disabled, names = {} }) {
  const rematch = message.rematch;
  if (message.status !== "finished" || !rematch || rematch.status !== "open") return null;
  if (!heldSeats.some((own) => awaited(message).includes(own))) return null;
  const seat = heldSeats[0];
  const offers = heldSeats.includes(rematch.by) ? "You offer" : `${seatAndPerson(message, rematch.by, names)} offers`;
  const seats = message.seats.length === 2 ? "colours swapped" : "every player one seat on";
  const answer = (action) => () => act(() => api.answerRematch(roomId, tokenFor(seat), action, seat));
  return {
    words: `${offers} a rematch: accept or decline it`,
    parts: [
      h("p", { id: "rematch-note", role: "status" }, `${offers} a rematch: the same game, ${seats}.`),
      h("div", { class: "buttons" },
        h("button", { id: "rematch-accept", class: "primary", disabled, onclick: answer("accept") }, "Accept the rematch"),
        h("button", { id: "rematch-decline", disabled, onclick: answer("decline") }, "Decline")),
    ],
  };
}

/**
 * The panel's part for the rematch: links between the rooms, and, at the end, the offer and
 * its answers (without them with `answerElsewhere`: the page shows rematchQuestion's parts
 * where it asks). `act(request)` sends a request and shows its answer; `tokenFor(seat)` is the
 * token of one of `heldSeats`.
 */
export function drawRematch(roomId, message, heldSeats, { act, tokenFor, disabled, names = {}, answerElsewhere = false }) {
  // the person by name, or "you" for a seat this page holds
  const who = (seat) => (heldSeats.includes(seat) ? "you" : seatAndPerson(message, seat, names));
  const parts = [];
  if (message.rematch_of) {
    parts.push(h("p", { id: "rematch-of", class: "muted" }, "A rematch of ",
      h("a", { href: `/rooms/${encodeURIComponent(message.rematch_of)}` }, "the previous game"), " (seats rotated)."));
  }
  if (message.status !== "finished") return parts;
  const rematch = message.rematch;
  const mine = heldSeats.length > 0;
  const seat = heldSeats[0];
  const buttons = [];
  let text = null;
  if (!rematch || rematch.status === "declined") {
    if (rematch) {
      const declined = rematch.declined.map(who).join(", ");
      text = `${declined[0].toUpperCase()}${declined.slice(1)} declined the rematch.`;
    }
    if (mine) {
      buttons.push(h("button", {
        id: "rematch-offer", class: "primary", disabled,
        title: "the same game again, every player one seat on",
        onclick: () => act(() => api.offerRematch(roomId, tokenFor(seat), seat)),
      }, "Play again"));
    }
  } else if (rematch.status === "open") {
    const asked = rematchQuestion(roomId, message, heldSeats, { act, tokenFor, disabled, names });
    if (asked && !answerElsewhere) parts.push(...asked.parts);
    if (!asked) {
      const offerer = who(rematch.by);
      const seats = message.seats.length === 2 ? "colours swapped" : "every player one seat on";
      text = `${offerer === "you" ? "You offer" : `${offerer} offers`} a rematch: the same game, ${seats}. `
        + `Waiting for ${awaited(message).map(who).join(", ")} to answer.`;
    }
  } else if (rematch.status === "starting") {
    text = "Everybody accepted: starting the rematch…";
  } else {
    const address = adoptRematch(roomId, message);
    parts.push(h("p", { id: "rematch-started" }, "The rematch has started: ",
      h("a", { id: "rematch-link", href: address }, "go to the rematch"), "."));
  }
  if (text) parts.push(h("p", { id: "rematch-note", role: "status" }, text));
  if (buttons.length) parts.push(h("div", { class: "buttons" }, buttons));
  return parts;
}
