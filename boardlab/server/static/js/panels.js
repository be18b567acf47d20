// The play page's side panels and banner, drawn from a state message: who plays which seat,
// whose turn it is or how the game ended, the move list, the invite links.

import { h, replace } from "./dom.js";

/** The seat's name in the game (White, P2 ...). */
export function seatName(message, seat) {
  const names = message.view.seat_names || [];
  return names[seat] || `Seat ${seat + 1}`;
}

/** "White wins: holds 4 castles" / "Draw: ..." from the view's result; a game that ended on a
 * resignation says so, whatever rule the game then applied ("Blue wins: Red resigned"). */
export function resultText(message) {
  const result = message.view.result;
  if (!result) return "The game is over.";
  const players = message.view.players || message.seats.length;
  const names = result.winners.map((seat) => seatName(message, seat));
  let head;
  if (result.winners.length === 1) head = `${names[0]} wins`;
  else if (result.winners.length === players || !result.winners.length) head = "Draw";
  else head = `${names.slice(0, -1).join(", ")} and ${names.at(-1)} share the win`;
  const last = [...(message.log || [])].reverse().find((turn) => turn.by !== "chance");
  // the rule's number is for the rules page; the banner says what happened in words
  const reason = last && last.type === "resign" ? `${seatName(message, last.by)} resigned`
    : (result.reason || "").replace(/\s*\((?:rules?|R)\s*[\d.]+[^)]*\)/g, "");
  return reason ? `${head}: ${reason}` : head;
}

/**
 * The person in `seat` by name: the name their remembered player gave (`names`, which only the
 * room's own players are given), else the seat's public name; "" for a seat named after itself.
 */
export function personName(message, seat, names = {}) {
  const name = names[seat] || (message.seats[seat] || {}).name || "";
  return name === seatName(message, seat) ? "" : name;
}

/** "Black (Bo)", or "Black" for a seat whose person has no name of their own. */
export function seatAndPerson(message, seat, names = {}) {
  const person = personName(message, seat, names);
  return person ? `${seatName(message, seat)} (${person})` : seatName(message, seat);
}

/** What the banner says: the result, whose turn, or who is awaited; and before the turn, what
 * this screen's people are asked to answer (`asked`: a rematch offered to them, or the words
 * the game's renderer gives for a question of its own, a trade offered in Territories), which
 * the banner, a live region, reads out to screen readers as it comes. */
export function bannerText(message, held, names = {}, asked = null) {
  if (message.status === "finished") return asked ? `${resultText(message)}. ${asked}` : resultText(message);
  if (message.status === "waiting") {
    const missing = message.seats.filter((seat) => !seat.joined).map((seat) => seatName(message, seat.seat));
    return `Waiting for the invited player${missing.length > 1 ? "s" : ""} (${missing.join(", ")}) to join`;
  }
  // a draw offered by the others is said first, to the people who may answer it
  const offered = (message.view.match && message.view.match.draw_offer) || [];
  if (offered.length && held.some((own) => !offered.includes(own))) {
    const by = offered.map((other) => seatAndPerson(message, other, names)).join(" and ");
    return `${by} ${offered.length > 1 ? "offer" : "offers"} a draw: accept or decline it below`;
  }
  if (asked) return asked;
  const seat = message.to_move;
  if (seat === null || seat === undefined) return "…";
  const name = seatName(message, seat);
  if (held.includes(seat)) return held.length > 1 ? `${name} to move: your turn` : `Your move (${name})`;
  if (message.thinking) return `${name} is thinking…`;
  // a player left unnamed is called by the seat's name: "Waiting for White (White)" says it twice
  return `Waiting for ${seatAndPerson(message, seat, names)}`;
}

function seatKind(seat, held) {
  if (held.includes(seat.seat)) return "you";
  if (seat.kind === "computer") return "computer";
  if (seat.kind === "invite") return seat.joined ? "invited" : "invited: not joined yet";
  return "the host";
}

/** The players: colour swatch (from the renderer, if it gives one), seat, name, kind, turn.
 * `names`: the remembered players' names by seat (only the room's own players are given them). */
export function drawPlayers(element, message, held, colours, names = {}) {
  const drawOffer = (message.view.match && message.view.match.draw_offer) || [];
  replace(
    element,
    h("h2", {}, "Players"),
    h("ul", { class: "players" },
      message.seats.map((seat) =>
        h("li", {
          class: `player${message.to_move === seat.seat && message.status === "playing" ? " to-move" : ""}`,
          dataset: { seat: seat.seat },
        },
          h("span", { class: "swatch", style: colours && colours[seat.seat] ? `background:${colours[seat.seat]}` : null, "aria-hidden": "true" }),
          h("span", { class: "seat-name" }, seatName(message, seat.seat)),
          personName(message, seat.seat, names) ? h("span", { class: "player-name" }, personName(message, seat.seat, names)) : null,
          h("span", { class: "player-kind" }, seatKind(seat, held)),
          drawOffer.includes(seat.seat) ? h("span", { class: "tag" }, "offers a draw") : null,
          message.to_move === seat.seat && message.status === "playing" ? h("span", { class: "turn-mark", title: "to move" }, "◀ to move") : null,
        ),
      ),
    ),
  );
}

/** The move list, numbered as players count moves (a roll or a deal is listed without a
 * number); `current` marks the turn shown (replays), `onPick(number)` makes entries clickable.
 * Several chance entries that open the log (a set-up dealt before anybody moves) are drawn as
 * one entry that opens on them: the log, its numbers and the replay's steps stay each entry's. */
export function drawMoves(element, message, current, onPick) {
  const log = message.log || [];
  const active = document.activeElement;
  const inside = element.contains(active) && active !== element;
  const focused = inside && active.dataset ? active.dataset.number ?? null : null;
  const onSummary = inside && active.matches("summary.deal-summary");
  const entryItem = (entry) => {
    const chance = entry.by === "chance";
    const item = h("li", {
      class: `move${chance ? " chance" : ` by-${entry.by}`}${entry.number === current ? " current" : ""}`,
      dataset: { number: entry.number, move: chance ? "" : entry.move_number },
      value: chance ? null : entry.move_number,
    },
      h("span", { class: "move-by" }, chance ? "chance" : seatName(message, entry.by)),
      " ",
      h("span", { class: "move-text" }, entry.text),
      entry.note ? h("span", { class: "tag" }, entry.note) : null,
    );
    if (onPick) {
      item.tabIndex = 0;
      item.classList.add("pickable");
      item.addEventListener("click", (event) => {
        if (event.target.closest("li") === item) onPick(entry.number);
      });
      item.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && event.target === item) onPick(entry.number);
      });
    }
    return item;
  };
  const dealt = setUpDeal(log);
  let deal = null;
  if (dealt.length) {
    const texts = dealt.map((entry) => entry.text);
    const within = current !== null && current !== undefined && dealt.some((entry) => entry.number === current);
    const details = h("details", { class: "deal" },
      h("summary", { class: "deal-summary", title: texts.join(", ") },
        h("span", { class: "move-by" }, "chance"), " ",
        h("span", { class: "move-text" }, `The set-up is dealt: ${dealt.length} entries`)),
      h("ol", { class: "deal-entries" }, dealt.map(entryItem)));
    // opened by the person (kept across redraws), or by a replay that steps through the deal
    details.open = element.dataset.dealOpen === "true" || within;
    details.addEventListener("toggle", () => {
      element.dataset.dealOpen = String(details.open);
    });
    deal = h("li", {
      class: `move chance deal-entry${within ? " current" : ""}`,
      dataset: { deal: `${dealt[0].number}-${dealt.at(-1).number}` },
    }, details);
  }
  replace(
    element,
    log.length ? null : h("li", { class: "muted empty" }, message.status === "finished" ? "No move was played." : "No moves yet."),
    deal,
    log.slice(dealt.length).map(entryItem),
  );
  // scroll the list itself (never the page) to the move shown, and only when it is out of the
  // list's sight: a move clicked stays under the pointer
  const shown = element.querySelector(".deal-entries .current") || element.querySelector(".current") || element.lastElementChild;
  const top = element.scrollTop;
  if (shown && (shown.offsetTop < top || shown.offsetTop + shown.offsetHeight > top + element.clientHeight)) {
    element.scrollTop = shown.offsetTop - element.clientHeight / 2; // .moves is the offset parent
  }
  // the entry clicked or chosen with Enter was drawn anew: the keyboard stays on it
  const again = onSummary ? element.querySelector("summary.deal-summary")
    : focused ? element.querySelector(`li[data-number="${CSS.escape(focused)}"]`) : null;
  if (again) again.focus({ preventScroll: true });
}

/** The chance entries that open the log before the players' first move, when there are several
 * (a board dealt at the set-up); none otherwise. */
function setUpDeal(log) {
  let count = 0;
  while (count < log.length && log[count].by === "chance") count++;
  return count >= 2 ? log.slice(0, count) : [];
}

/** The invite links this browser made, while the game waits for its guests. */
export function drawInvites(element, message, invites) {
  const waiting = invites.filter((invite) => !(message.seats[invite.seat] || {}).joined);
  element.hidden = message.status !== "waiting" || !waiting.length;
  if (element.hidden) return;
  replace(
    element,
    h("h2", {}, "Invite links"),
    h("p", { class: "muted" }, "Send each link to the person who plays that seat. A link works once."),
    waiting.map((invite) => inviteRow(seatName(message, invite.seat), invite.link)),
  );
}

/**
 * "Play on another device": for each of this browser's tokens in the room, a link that another
 * browser (a phone, another computer) opens to hold the same seats; this one keeps them. The
 * token rides in the link's fragment (#seat=…), which a browser never sends to a server, and the
 * page takes it out of the address as soon as it has read it. `kept.open`: whether the reader
 * opened the panel, kept across redraws.
 */
export function drawCarry(element, message, identities, kept) {
  element.hidden = message.status === "finished" || !identities.length;
  if (element.hidden) return;
  const path = `/rooms/${encodeURIComponent(message.room)}`;
  const details = h("details", { open: kept.open, ontoggle: () => (kept.open = details.open) },
    h("summary", {}, "Play on another device"),
    h("p", { class: "muted" },
      "Open this link in another browser (your phone, another computer) to play there too; this one keeps playing. " +
      "Anyone who has the link can play as you, so send it only to yourself."),
    identities.map((identity) => inviteRow(
      identity.seats.map((seat) => seatName(message, seat)).join(" and "),
      `${path}#seat=${encodeURIComponent(identity.token)}`,
      "link to play",
    )));
  replace(element, details);
}

/** One invite link with a copy button (also used by the lobby). */
export function inviteRow(label, link, what = "invite link") {
  const url = new URL(link, location.origin).href;
  // a textarea, not an input: it wraps, so the whole link is seen in a narrow panel
  const field = h("textarea", { class: "invite-link", readonly: true, rows: 1, spellcheck: "false", "aria-label": `${what} for ${label}` }, url);
  const button = h("button", {
    type: "button",
    onclick: async () => {
      field.select();
      try {
        await navigator.clipboard.writeText(url);
      } catch {
        document.execCommand("copy");
      }
      button.textContent = "Copied";
      setTimeout(() => (button.textContent = "Copy"), 1500);
    },
  }, "Copy");
  return h("div", { class: "invite" }, h("span", { class: "invite-seat" }, label), field, button);
}
