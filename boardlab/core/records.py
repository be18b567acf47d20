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
      "meta": {"rules_version": "1", "final_position": "...", ...}   # plus free-form
    }

Chance outcomes are moves too, so a replay is exact. Loading re-validates
every move and reports the first bad one by its 1-based number.

A record holds the whole game, hidden parts included (the seed, every dealt
card): it is for saving and analysis, not for showing to a player mid-game.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
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

    @classmethod
    def from_json(cls, data: Any, number: int) -> "Seat":
        """Parse one seat entry; ``number`` (1-based) names it in errors."""
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise RecordError(f"seat {number} must be an object with a text 'name'")
        agent = data.get("agent", "human")
        if not isinstance(agent, str):
            raise RecordError(f"seat {number}: 'agent' must be text, not {type(agent).__name__}")
        return cls(data["name"], agent)


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
    def for_state(
        cls,
        state: State,
        seats: list[Seat] | None = None,
        times: list[float] | None = None,
        **meta: Any,
    ) -> "Record":
        """A record of everything ``state`` has played so far.

        ``times`` gives seconds since the start for each move (zeros when unknown).
        ``meta["rules_version"]`` notes the rules the game was played under, and
        ``meta["final_position"]`` the position reached, which :meth:`replay` checks.
        """
        data = state.to_json()
        moves = list(data["moves"])
        return cls(
            game_id=state.game.id,
            players=state.game.num_players,
            options=dict(state.game.options),
            seed=state.seed,
            start=data["start"],
            seats=list(seats or []),
            moves=moves,
            times=list(times)[: len(moves)] if times is not None else [0.0] * len(moves),
            result=state.result(),
            meta={"rules_version": state.game.rules_version, "final_position": data["position"], **meta},
        )

    def game(self) -> Game:
        """The game the record was played under; RecordError if it cannot be built."""
        try:
            return load(self.game_id, players=self.players, **self.options)
        except BoardlabError as exc:
            raise RecordError(f"record cannot set up its game: {exc}") from None

    # --- replaying ---------------------------------------------------------
    def initial_state(self) -> State:
        """The state before move 1; RecordError if the game or start position is bad."""
        game = self.game()
        try:
            if self.start is None:
                return game.new_state(self.seed)
            return game.state_from_position(self.start, self.seed)
        except BoardlabError as exc:
            raise RecordError(f"record start position is not valid: {exc}") from None

    def states(self) -> Iterator[tuple[int, str, State]]:
        """Replay move by move: yields (number, move text, state after it).

        The same state object is yielded each time (copy it to keep one).
        Raises :class:`RecordError` naming the first bad move. Cost: one
        validated ``play`` per move.
        """
        state = self.initial_state()
        for number, text in enumerate(self.moves, 1):
            try:
                state.play(text)
            except IllegalMoveError as exc:
                raise RecordError(f"move {number} ({text!r}) is not legal: {exc}", number) from None
            yield number, text, state

    def state_at(self, number: int) -> State:
        """The state after the first ``number`` moves (0 = the start), every move validated."""
        if not 0 <= number <= len(self.moves):
            raise RecordError(f"move {number} does not exist: the record has moves 0..{len(self.moves)}")
        state = self.initial_state()
        for index, text in enumerate(self.moves[:number], 1):
            try:
                state.play(text)
            except IllegalMoveError as exc:
                raise RecordError(f"move {index} ({text!r}) is not legal: {exc}", index) from None
        return state

    def replay(self) -> State:
        """The final state, every move re-validated; the result and, when recorded, the
        final position must match the record's (so a change of rules is never silent)."""
        state = self.state_at(len(self.moves))
        expected = self.meta.get("final_position")
        if expected is not None and expected != state.position():
            raise RecordError(
                f"replaying the {len(self.moves)} moves gives the position {state.position()!r}, "
                f"the record says {expected!r} (rules version then: "
                f"{self.meta.get('rules_version', 'unknown')}, now: {state.game.rules_version})"
            )
        recorded = self.result
        actual = state.result()
        if recorded is None:
            if actual is not None:
                raise RecordError(
                    f"the record has no result, but replaying ends the game ({actual.reason})"
                )
        elif actual is None or actual.winners != recorded.winners:
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
    def from_json(cls, data: Any) -> "Record":
        """Parse a record (structure only; :meth:`replay` checks the moves)."""
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        version = data.get("format")
        if isinstance(version, bool) or version != RECORD_FORMAT:
            raise RecordError(f"record format {version!r} is not supported (expected {RECORD_FORMAT})")
        for key in ("game", "players", "seed", "moves"):
            if key not in data:
                raise RecordError(f"record has no {key!r} field")
        game_id = data["game"]
        if not isinstance(game_id, str):
            raise RecordError(f"record 'game' must be a game id, not {game_id!r}")
        players = _whole_number(data["players"], "players")
        seed = _whole_number(data["seed"], "seed")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordError("record 'options' must be an object")
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError("record 'start' must be a position string or null")
        moves, times = _parse_moves(data["moves"])
        seats_data = data.get("seats", [])
        if not isinstance(seats_data, list):
            raise RecordError("record 'seats' must be a list")
        seats = [Seat.from_json(entry, number) for number, entry in enumerate(seats_data, 1)]
        if seats and len(seats) != players:
            raise RecordError(f"record lists {len(seats)} seats for {players} players")
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise RecordError("record 'meta' must be an object")
        result_data = data.get("result")
        try:
            result = None if result_data is None else Result.from_json(result_data)
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record 'result' is malformed: {exc!r}") from None
        if result is not None and len(result.returns) != players:
            raise RecordError(f"record 'result' has {len(result.returns)} returns for {players} players")
        return cls(
            game_id=game_id,
            players=players,
            options=dict(options),
            seed=seed,
            start=start,
            seats=seats,
            moves=moves,
            times=times,
            result=result,
            meta=dict(meta),
        )

    def dumps(self) -> str:
        """The record as JSON text (what :meth:`save` writes)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the record atomically: a crash never leaves half a file or loses the old one.

        The text goes to a temporary file in the target's folder, is flushed to
        disk, then renamed over the target. OSError propagates (no partial file).
        """
        target = Path(path)
        text = self.dumps()
        handle, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp_name, target)
        except BaseException:
            try:
                os.unlink(tmp_name)
            except FileNotFoundError:
                pass
            raise

    @classmethod
    def loads(cls, text: str, source: str = "record", validate: bool = True) -> "Record":
        """Parse record JSON text; ``source`` names it in errors.

        With ``validate`` (the default) every move is replayed and re-validated
        (cost: one game replay), so a RecordError names the first bad move.
        """
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{source}: not valid JSON (line {exc.lineno}: {exc.msg})") from None
        except RecursionError:
            raise RecordError(f"{source}: JSON nested too deeply") from None
        try:
            record = cls.from_json(data)
            if validate:
                record.replay()
        except RecordError as exc:
            raise RecordError(f"{source}: {exc}", exc.move_number) from None
        return record

    @classmethod
    def load(cls, path: str | os.PathLike[str], validate: bool = True) -> "Record":
        """Read a record file; RecordError says what is wrong with it.

        With ``validate`` (the default) every move is re-validated, as in :meth:`loads`.
        """
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path}: not a text file (a record is UTF-8 JSON)") from None
        return cls.loads(text, str(path), validate)


def _whole_number(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"record {name!r} must be a whole number, not {value!r}")
    return value


def _parse_moves(moves_data: Any) -> tuple[list[str], list[float]]:
    """The moves list of a record: notation strings or ``{move, t}`` objects."""
    if not isinstance(moves_data, list):
        raise RecordError("record 'moves' must be a list")
    moves: list[str] = []
    times: list[float] = []
    for number, entry in enumerate(moves_data, 1):
        if isinstance(entry, str):
            moves.append(entry)
            times.append(0.0)
            continue
        if not isinstance(entry, Mapping) or not isinstance(entry.get("move"), str):
            raise RecordError(f"move {number} is not a string or a {{move, t}} object", number)
        stamp = entry.get("t", 0.0)
        if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or not math.isfinite(stamp) or stamp < 0:
            raise RecordError(f"move {number}: time {stamp!r} is not a number of seconds >= 0", number)
        moves.append(entry["move"])
        times.append(float(stamp))
    return moves, times
