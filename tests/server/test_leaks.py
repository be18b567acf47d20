"""No leaks: for every game with hidden information, no message the server builds for a seat
(or for the spectators) holds a secret of that viewer, checked with the real match's
``secrets(viewer)`` at the moment the message is built; and what the clients receive is
exactly what was built for them."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import boardlab
from boardlab.server import rooms as room_module
from boardlab.server import service as service_module
from boardlab.server import watching as watching_module
from boardlab.server.routers import rooms as rooms_router
from boardlab.testing import leaked
from tests.server.harness import Harness, watch

HIDDEN_INFORMATION_GAMES = [game for game in boardlab.game_ids() if boardlab.game_class(game).has_hidden_information]
#: actions per game: enough for cards to be dealt, drawn, traded and shown
ACTIONS = 80


class BuiltMessages:
    """Every state message the server builds, with the viewer's secrets at that moment and,
    when the viewer decides, its legal moves in a state resampled for it (what it may know)."""

    def __init__(self) -> None:
        self.built: list[tuple[int | None, dict[str, Any], set[str]]] = []
        self.resampled_moves: list[tuple[set[str], set[str]]] = []

    def __call__(self, room: Any, viewer: int | None, held: list[int]) -> dict[str, Any]:
        message = room_module.state_message(room, viewer, held)
        self.built.append((viewer, message, room.match.secrets(viewer)))
        if message["legal_moves"]:
            assert viewer is not None
            resampled = room.match.agent_input(viewer)
            self.resampled_moves.append(
                ({move["notation"] for move in message["legal_moves"]}, {str(move) for move in resampled.legal_moves()})
            )
        return message

    def texts_for(self, viewer: int | None) -> set[str]:
        return {json.dumps(message, sort_keys=True) for seat, message, _ in self.built if seat == viewer}


def messages_until(socket: Any, revision: int) -> list[dict[str, Any]]:
    """What a watcher receives up to the room's ``revision`` (a slow watcher may skip states)."""
    messages = [socket.receive_json()]
    while messages[-1]["revision"] < revision:
        messages.append(socket.receive_json())
    return messages


def without_own_notation(message: dict[str, Any], viewer: int | None) -> dict[str, Any]:
    """The message less the notation of the viewer's own moves: the legal moves' texts (checked
    above against a resampled state instead) and the log entries of its own decisions, and the
    notation of bank trades. Notation may use a secret's spelling for something else:
    Territories' bank trade ``4S>H`` gives four spades while the card ``4S`` may be hidden."""
    stripped = dict(message)
    stripped["legal_moves"] = [{k: v for k, v in move.items() if k != "notation"} for move in message["legal_moves"]]
    stripped["log"] = [
        # another seat's bank trade comes whole (it reads the same to all); its notation ``4S>H``
        # spells four spades as the card 4S is spelled, which its structure (give SSSS) does not
        {**entry, "move": {k: v for k, v in entry["move"].items() if k != "notation"}}
        if entry.get("move") and entry["move"]["type"] == "bank_trade" else entry
        for entry in message["log"] if viewer is None or entry["by"] != viewer
    ]
    return stripped


@pytest.fixture
def built(monkeypatch: pytest.MonkeyPatch) -> BuiltMessages:
    recorder = BuiltMessages()
    monkeypatch.setattr(service_module, "state_message", recorder)
    monkeypatch.setattr(watching_module, "state_message", recorder)
    monkeypatch.setattr(rooms_router, "state_message", recorder)
    return recorder


def test_there_are_hidden_information_games_to_check() -> None:
    assert {"territories", "honor"} <= set(HIDDEN_INFORMATION_GAMES)


@pytest.mark.parametrize("game", HIDDEN_INFORMATION_GAMES)
@pytest.mark.parametrize("opponent", ["invite", "computer:easy"])
def test_no_message_to_a_seat_or_a_spectator_holds_a_secret_of_theirs(
    sqlite_server: Harness, built: BuiltMessages, game: str, opponent: str
) -> None:
    server = sqlite_server
    created = server.create(game, ["here", opponent])
    assert created.token is not None
    tokens: dict[int, str] = {0: created.token}
    if opponent == "invite":
        tokens[1] = server.join(created.room, created.invites[0]["code"]).json()["token"]
    rng = random.Random(7)
    received: dict[int | None, list[dict[str, Any]]] = {}
    with (
        watch(server.client, created.room, tokens[0]) as first,
        watch(server.client, created.room) as spectator,
    ):
        received[0], received[None] = [first.receive_json()], [spectator.receive_json()]
        for _ in range(ACTIONS):
            state = server.settled(created.room, created.token)
            if state["status"] == "finished":
                break
            seat = state["to_move"]
            if seat not in tokens:
                continue
            mine = server.state(created.room, tokens[seat])
            choices = [move for move in mine["legal_moves"] if move["type"] != "resign"] or mine["legal_moves"]
            answer = server.move(created.room, tokens[seat], rng.choice(choices)["notation"], mine["ply"])
            assert answer.status_code == 200, answer.text
            revision = answer.json()["revision"]
            received[0] += messages_until(first, revision)
            received[None] += messages_until(spectator, revision)
        listing = server.client.get("/api/rooms").json()
        spectators_secrets = server.live_room(created.room).match.secrets(None)  # watched: still in memory
    assert not leaked(listing, spectators_secrets)

    assert len(built.built) >= 10, "too few messages to say anything"
    assert any(secrets for _, _, secrets in built.built), f"{game}: no secret was ever at stake"
    for real_moves, resampled_moves in built.resampled_moves:
        assert real_moves == resampled_moves, f"{game}: the legal moves depend on what their seat may not know"
    for viewer, message, secrets in built.built:
        found = leaked(without_own_notation(message, viewer), secrets)
        assert not found, f"{game}: a message to {viewer} shows its secrets {sorted(found)[:5]}"
    for viewer, messages in received.items():
        sent = built.texts_for(viewer)
        log: list[dict[str, Any]] = []
        for message in messages:
            log = log[: message["log_start"]] + message["log"]  # the log arrives as a delta
            whole = {**message, "log_start": 0, "log": log}
            assert json.dumps(whole, sort_keys=True) in sent
