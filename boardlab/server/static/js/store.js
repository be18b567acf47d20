// What this browser keeps of its rooms (localStorage): the seat tokens, so that a reload comes
// back to the same game, and the invite links it made. A token is a secret: it stays here.

const KEY = "boardlab.rooms";

function load() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) || "{}");
    return data && typeof data === "object" ? data : {};
  } catch {
    return {};
  }
}

function save(data) {
  localStorage.setItem(KEY, JSON.stringify(data));
}

/** This browser's entry for a room: {game, identities: [{token, seats}], invites, created}. */
export function roomEntry(roomId) {
  return load()[roomId] || null;
}

/** Every room this browser holds a seat in, newest first. */
export function myRooms() {
  return Object.entries(load())
    .map(([room, entry]) => ({ room, ...entry }))
    .sort((a, b) => (b.created || 0) - (a.created || 0));
}

/** Remember that `token` acts for `seats` of the room (a creator's `here` seats, or a guest's seat). */
export function addIdentity(roomId, game, token, seats) {
  const data = load();
  const entry = data[roomId] || { game, identities: [], invites: [], created: Date.now() };
  entry.identities = entry.identities.filter((identity) => identity.token !== token);
  entry.identities.push({ token, seats });
  data[roomId] = entry;
  save(data);
}

export function saveInvites(roomId, game, invites) {
  const data = load();
  const entry = data[roomId] || { game, identities: [], invites: [], created: Date.now() };
  entry.invites = invites;
  data[roomId] = entry;
  save(data);
}

/** Forget a token the server no longer knows (a room from a wiped server). */
export function dropIdentity(roomId, token) {
  const data = load();
  const entry = data[roomId];
  if (!entry) return;
  entry.identities = entry.identities.filter((identity) => identity.token !== token);
  if (!entry.identities.length) delete data[roomId];
  save(data);
}

/** The identity whose token holds `seat`, or null. */
export function identityFor(roomId, seat) {
  const entry = roomEntry(roomId);
  return (entry && entry.identities.find((identity) => identity.seats.includes(seat))) || null;
}

/** Every seat this browser holds in the room. */
export function heldSeats(roomId) {
  const entry = roomEntry(roomId);
  return entry ? entry.identities.flatMap((identity) => identity.seats) : [];
}

/** Mark `token`'s seats of the room as linked to this browser's remembered player (done once). */
export function markLinked(roomId, token) {
  const data = load();
  const identity = ((data[roomId] || {}).identities || []).find((candidate) => candidate.token === token);
  if (!identity) return;
  identity.linked = true;
  save(data);
}

// --- the remembered player: a name and a key (no password); the key is a secret: it stays here
const PLAYER = "boardlab.player";

/** This browser's remembered player, {id, name, key}, or null (nothing is needed to play). */
export function player() {
  try {
    const found = JSON.parse(localStorage.getItem(PLAYER) || "null");
    return found && typeof found.key === "string" ? found : null;
  } catch {
    return null;
  }
}

export function rememberPlayer({ id, name, key }) {
  localStorage.setItem(PLAYER, JSON.stringify({ id, name, key }));
}

/** Forget the player here (the server forgot them, or they asked to be forgotten); their rooms' links go too. */
export function forgetPlayer() {
  localStorage.removeItem(PLAYER);
  const data = load();
  for (const entry of Object.values(data)) for (const identity of entry.identities || []) delete identity.linked;
  save(data);
}

const LAST_GAME = "boardlab.lastGame";

/** The game this browser last started a room of, so the lobby's form offers it again (or null). */
export function lastGame() {
  try {
    return localStorage.getItem(LAST_GAME);
  } catch {
    return null;
  }
}

export function rememberGame(gameId) {
  try {
    localStorage.setItem(LAST_GAME, gameId);
  } catch {
    // storage refused (a private window's quota): the lobby falls back to its default
  }
}
