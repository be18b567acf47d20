"""Game records: a JSON file per game that saves, loads and replays exactly.

Format (``format`` = 1)::

    {
      "format": 1,
      "game": "towers",
      "players": 2,
      "options": {"layout": "diagram"},
      "seed": 1234,
      "start": null,                       # or a position string
      "seats": [{"name": "Ann", "agent": "human"}, {"name": "mcts", "agent": "mcts"}],
      "moves": [{"move": "b7+", "t": 1.52}, ...],   # notation; t = seconds since the start
      "result": {"winners": [0], "returns": [1.0, 0.0], "reason": "..."},
      "meta": {...}                        # free-form: date, ruleset id, hashes ...
    }

Chance outcomes are moves too, so a replay is exact. Loading re-validates
every move and reports the first bad one by its 1-based number.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, Mapping

from .errors import BoardlabError, IllegalMoveError, RecordError
from .game import Game, Result, State
from .registry import load

RECORD_FORMAT = 1


@dataclass
class Seat:
    """Who sat in a seat: a display name and the agent spec (``human`` for a person)."""

    name: str
    agent: str = "human"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "agent": self.agent}


@dataclass
class Record:
    """A complete game: what was played, by whom, and how it ended."""

    game_id: str
    players: int
    options: dict[str, Any]
    seed: int
    start: str | None = None
    seats: list[Seat] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    result: Result | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # --- building ----------------------------------------------------------
    @classmethod
    def for_state(cls, state: State, seats: list[Seat] | None = None, **meta: Any) -> "Record":
        """A record of everything ``state`` has played so far."""
        data = state.to_json()
        record = cls(
            game_id=state.game.id,
            players=state.game.num_players,
            options=dict(state.game.options),
            seed=state.seed,
            start=data["start"],
            seats=list(seats or []),
            moves=list(data["moves"]),
            times=[0.0] * len(data["moves"]),
            result=state.result(),
            meta=dict(meta),
        )
        return record

    def game(self) -> Game:
        return load(self.game_id, players=self.players, **self.options)

    # --- replaying ---------------------------------------------------------
    def initial_state(self) -> State:
        game = self.game()
        if self.start is None:
            return game.new_state(self.seed)
        return game.state_from_position(self.start, self.seed)

    def states(self) -> Iterator[tuple[int, str, State]]:
        """Replay move by move: yields (number, move text, state after it).

        Raises :class:`RecordError` naming the first bad move.
        """
        state = self.initial_state()
        for number, text in enumerate(self.moves, 1):
            try:
                state.play(text)
            except IllegalMoveError as exc:
                raise RecordError(f"move {number} ({text!r}) is not legal: {exc}", number) from None
            yield number, text, state

    def replay(self) -> State:
        """The final state, every move re-validated; the result must match the record's."""
        try:
            state = self.initial_state()
        except BoardlabError as exc:
            raise RecordError(f"record cannot set up its game: {exc}") from None
        for _number, _text, state in self.states():
            pass
        recorded = self.result
        actual = state.result()
        if recorded is not None and (actual is None or actual.winners != recorded.winners):
            got = "no result" if actual is None else f"winners {list(actual.winners)}"
            raise RecordError(
                f"the record says winners {list(recorded.winners)}, replaying gives {got}"
            )
        return state

    # --- JSON --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "players": self.players,
            "options": self.options,
            "seed": self.seed,
            "start": self.start,
            "seats": [s.to_json() for s in self.seats],
            "moves": [
                {"move": m, "t": round(t, 3)} for m, t in zip(self.moves, self._padded_times())
            ],
            "result": None if self.result is None else self.result.to_json(),
            "meta": self.meta,
        }

    def _padded_times(self) -> list[float]:
        return list(self.times) + [0.0] * (len(self.moves) - len(self.times))

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Record":
        """Parse a record (structure only; :meth:`replay` checks the moves)."""
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        version = data.get("format")
        if version != RECORD_FORMAT:
            raise RecordError(f"record format {version!r} is not supported (expected {RECORD_FORMAT})")
        try:
            moves_data = data["moves"]
            if not isinstance(moves_data, list):
                raise TypeError("moves must be a list")
            moves: list[str] = []
            times: list[float] = []
            for number, entry in enumerate(moves_data, 1):
                if isinstance(entry, str):
                    moves.append(entry)
                    times.append(0.0)
                elif isinstance(entry, Mapping) and isinstance(entry.get("move"), str):
                    moves.append(entry["move"])
                    times.append(float(entry.get("t", 0.0)))
                else:
                    raise RecordError(f"move {number} is not a string or a {{move, t}} object", number)
            seats = [Seat(str(s["name"]), str(s.get("agent", "human"))) for s in data.get("seats", [])]
            result = data.get("result")
            return cls(
                game_id=str(data["game"]),
                players=int(data["players"]),
                options=dict(data.get("options", {})),
                seed=int(data["seed"]),
                start=data.get("start"),
                seats=seats,
                moves=moves,
                times=times,
                result=None if result is None else Result.from_json(result),
                meta=dict(data.get("meta", {})),
            )
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record is missing or has a bad field: {exc}") from None

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically (a crash never leaves half a file)."""
        target = Path(path)
        tmp = target.with_name(target.name + ".tmp")
        tmp.write_text(json.dumps(self.to_json(), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, target)

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> "Record":
        """Read a record file; RecordError says what is wrong with it."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_json(data)
