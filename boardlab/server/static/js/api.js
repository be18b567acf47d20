// The server's API (docs/server.md) as small async functions. Every refusal becomes an
// ApiError carrying the server's stable code and its message.

export class ApiError extends Error {
  constructor(code, message, status) {
    super(message);
    this.code = code;
    this.status = status;
  }
}

/** A JSON request; `token` goes in the Authorization header, `player` (a remembered player's key) in X-Player-Key. */
export async function request(path, { method = "GET", body, token, player } = {}) {
  const headers = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  if (player) headers["X-Player-Key"] = player;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (error) {
    throw new ApiError("offline", "the game's server cannot be reached (the connection or the server is down); nothing was sent. Try again in a moment", 0);
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const error = data && data.error ? data.error : { code: "bad_response", message: `the server answered ${response.status}` };
    throw new ApiError(error.code, error.message, response.status);
  }
  return data;
}

const room = (id) => `/api/rooms/${encodeURIComponent(id)}`;

export const games = () => request("/api/games");
export const game = (id) => request(`/api/games/${encodeURIComponent(id)}`);
/** The server's rooms in `status`, and the visitor's own rooms of `mine` (ids) it would leave out. */
export const rooms = (status, mine = []) =>
  request(`/api/rooms?status=${encodeURIComponent(status)}${mine.length ? `&mine=${encodeURIComponent(mine.join(","))}` : ""}`);
export const createRoom = (body) => request("/api/rooms", { method: "POST", body });
export const roomState = (id, token, seat) =>
  request(room(id) + (seat === undefined || seat === null ? "" : `?seat=${seat}`), { token });
// with a remembered player's key the seat is theirs from the start, and `name` is left out (their name is private)
export const join = (id, code, name, player) =>
  request(`${room(id)}/join`, { method: "POST", body: name ? { code, name } : { code }, player });
// ply and revision of the state the move was chosen in: the revision also changes on a
// take-back, so a move chosen before an undo cannot land on the same ply after it
export const move = (id, token, text, ply, revision, seat) =>
  request(`${room(id)}/moves`, {
    method: "POST",
    token,
    body: seat === null || seat === undefined ? { move: text, ply, revision } : { move: text, ply, revision, seat },
  });
// the revision the take-back was asked at: a repeated click or a retry cannot take back twice
export const undo = (id, token, seat, revision) =>
  request(`${room(id)}/undo`, { method: "POST", token, body: { seat, revision } });
export const resign = (id, token, seat) => request(`${room(id)}/resign`, { method: "POST", token, body: { seat } });
export const draw = (id, token, action, seat) => request(`${room(id)}/draw`, { method: "POST", token, body: { action, seat } });
export const replay = (id, token, number, seat) =>
  request(`${room(id)}/replay?move=${number}` + (seat === null || seat === undefined ? "" : `&seat=${seat}`), { token });
export const recordUrl = (id) => `${room(id)}/record`;
export const offerRematch = (id, token, seat) => request(`${room(id)}/rematch`, { method: "POST", token, body: { seat } });
export const answerRematch = (id, token, action, seat) =>
  request(`${room(id)}/rematch/answer`, { method: "POST", token, body: { action, seat } });
export const liveUrl = (id) => `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}${room(id)}/live`;
