// The room's WebSocket (docs/server.md, "The WebSocket"): state messages as they happen, the
// log rebuilt from its deltas, and a reconnection whenever the connection drops. The server
// sends the whole current state on connecting, so a reconnected page is up to date at once.
// The seat token goes in the first message, never in the address: servers and proxies log
// addresses.

import { liveUrl } from "./api.js";

// Never more than a second apart: a server that restarts is back in seconds, and a player who
// stares at "reconnecting" for several more after that takes the game for broken. A refused
// connection to a server that is down costs next to nothing, so the retries stay this quick.
const RETRY_MS = [200, 500, 1000];
const PING_MS = 25000;

/**
 * Watch a room. `onState(message)` gets every state with its whole log; `onStatus(status, error)`
 * gets "open", "reconnecting" or "closed" (the server refused: an unknown room, a bad token).
 */
export function watchRoom(roomId, token, { onState, onStatus }) {
  let socket = null;
  let log = [];
  let attempt = 0;
  let stopped = false;
  let timer = null;
  let pinger = null;

  function connect() {
    const current = new WebSocket(liveUrl(roomId));
    socket = current;
    log = [];
    let lastError = null;
    let heard = Date.now();
    // with a token, the spectators' state the server sends on connecting is not this page's:
    // it waits for the answer to its auth (a state for one of its seats)
    let seated = !token;
    current.onopen = () => {
      attempt = 0;
      if (token) current.send(JSON.stringify({ type: "auth", token, seat: null }));
      onStatus("open");
      pinger = setInterval(() => {
        // a connection that went silent (a network gone without a word) is closed and made again
        if (Date.now() - heard > 2 * PING_MS + 5000) dropped(current);
        else send({ type: "ping" });
      }, PING_MS);
    };
    current.onmessage = (event) => {
      heard = Date.now();
      const message = JSON.parse(event.data);
      if (message.type === "state") {
        if (!seated) {
          if (!message.your_seats.length) return;
          seated = true;
        }
        // the log comes as a delta against the previous message on this connection; one sent
        // before an auth (whose answer brings the whole log) cannot be applied and is skipped
        if (message.log_start > log.length) return;
        log = log.slice(0, message.log_start).concat(message.log);
        onState({ ...message, log_start: 0, log: log.slice() });
      } else if (message.type === "error") {
        lastError = message.error;
        if (!seated) {
          // the token was refused: as with a closed connection, retrying would get the same answer
          stopped = true;
          current.close();
          onStatus("closed", message.error);
        }
      }
    };
    current.onclose = (event) => {
      clearInterval(pinger);
      if (stopped) return;
      if (event.code >= 4000 && event.code < 5000) {
        // the server refused this room or token: retrying would get the same answer
        onStatus("closed", lastError || { code: "closed", message: `the server closed the connection (${event.code})` });
        return;
      }
      dropped(current);
    };
  }

  /** Give up on `lost` (closed, or silent) and connect again after a pause that grows. */
  function dropped(lost) {
    lost.onclose = lost.onmessage = null;
    lost.close();
    clearInterval(pinger);
    if (stopped || lost !== socket) return;
    onStatus("reconnecting");
    timer = setTimeout(() => {
      timer = null;
      connect();
    }, RETRY_MS[Math.min(attempt++, RETRY_MS.length - 1)]);
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  // the browser knows when its network is back: no reason to wait for the next retry then
  const onOnline = () => {
    if (stopped || !timer) return;
    clearTimeout(timer);
    timer = null;
    connect();
  };
  window.addEventListener("online", onOnline);

  connect();
  return {
    /** Watch as another token (a second identity in this browser); the state comes again. */
    auth(newToken) {
      token = newToken;
      log = [];
      send({ type: "auth", token: newToken, seat: null });
    },
    close() {
      stopped = true;
      window.removeEventListener("online", onOnline);
      clearTimeout(timer);
      clearInterval(pinger);
      if (socket) socket.close();
    },
  };
}
