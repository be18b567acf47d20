// Players who come back (docs/playtests.md): a name and a key this browser keeps, nothing else.
// The pages link this browser's seats to its player, read the names of a room's players (for
// its players only) and make a player when a visitor first gives a name.

import * as api from "./api.js";
import * as store from "./store.js";

/** This browser's player, made with `name` if there is none yet (and a name is given); null otherwise. */
export async function ensurePlayer(name) {
  const known = store.player();
  const wanted = (name || "").trim();
  if (known) {
    if (wanted && wanted !== known.name) return renamePlayer(wanted);
    return known;
  }
  if (!wanted) return null;
  const made = await api.request("/api/players", { method: "POST", body: { name: wanted } });
  store.rememberPlayer(made);
  return store.player();
}

export async function renamePlayer(name) {
  const known = store.player();
  const renamed = await api.request("/api/players/me", { method: "PATCH", body: { name }, player: known.key });
  store.rememberPlayer({ ...known, name: renamed.name });
  return store.player();
}

/** A request as this browser's player; a key the server no longer knows is forgotten here. */
export async function asPlayer(path, options = {}) {
  const known = store.player();
  if (!known) return null;
  try {
    return await api.request(path, { ...options, player: known.key });
  } catch (error) {
    if (error.code === "bad_player_key") store.forgetPlayer();
    throw error;
  }
}

/** Tell the server that this browser's seats of the room are its player's (once per token). */
export async function linkSeats(roomId) {
  const entry = store.roomEntry(roomId);
  if (!store.player() || !entry) return;
  for (const identity of entry.identities.filter((candidate) => !candidate.linked)) {
    try {
      await asPlayer(`/api/rooms/${encodeURIComponent(roomId)}/player`, { method: "POST", token: identity.token });
      store.markLinked(roomId, identity.token);
    } catch (error) {
      console.warn(`room ${roomId}: ${error.message}`); // the game goes on; the link is tried again next time
    }
  }
}

/** The names of the room's remembered players by seat, for a holder of one of its seats ({} else). */
export async function roomNames(roomId, token) {
  if (!token) return {};
  try {
    return (await api.request(`/api/rooms/${encodeURIComponent(roomId)}/players`, { token })).names;
  } catch {
    return {};
  }
}
