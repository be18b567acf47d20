"""Game records: the one file format that saves, loads and replays a game exactly.

Format 2::

    {
      "format": 2,
      "game": "towers", "players": 2, "options": {"layout": "diagram"},
      "rules_version": "1",
      "seed": 1234,
      "start": null,                               # or a position string
      "seats": [{"name": "Ann", "agent": "human"}, {"name": "mcts", "agent": "mcts"}],
      "moves": [{"move": "b7+", "by": 0, "t": 1.52},   # by: the deciding seat, or "chance"
                {"move": "r3+4", "by": "chance", "t": 1.52},
                {"move": "end", "by": 1, "t": 91.5, "note": "timeout"}, ...],   # note: optional
      "ending": null,                              # or {"code": "resign", "seat": 1}
      "result": {"winners": [0], "returns": [1.0, 0.0], "code": "castles", "reason": "..."},
      "final_position": "...",
      "meta": {...}                                # free-form: who saved it, when ...
    }

Chance outcomes are moves too, so a replay is exact. ``ending`` records how a
match ended outside the rules (a resignation, a draw by agreement, a timeout
that loses); the moves then stop before the game's own end. Loading re-validates
every move, who made it, the result and the final position, and reports the
first problem by its 1-based move number.

Format 1 records (boardlab 0.1: no ``by``, results without a code) still load:
they are converted on reading by replaying them, and ``meta["converted_from"]``
says so.

A record holds the whole game, hidden parts included (the seed, every dealt
card): it is for saving and analysis, not for showing to a player mid-game.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .errors import BoardlabError, IllegalMoveError, RecordError
from .game import Game
from .registry import load
from .state import State
from .turns import Turn, numbered
from .values import CHANCE, MATCH_ENDING_CODES, Player, Result, is_seat

RECORD_FORMAT = 2
#: the formats :meth:`Record.from_json` reads (older ones are converted)
READABLE_FORMATS = (1, 2)
#: record files larger than this are refused before parsing (no real game comes near)
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: one parsed entry of a record's moves: (notation, who decided it, time, note); format 1 has no
#: ``by`` (None until the conversion replays the game)
Entry = tuple[str, Player | None, float, str]


@dataclass(frozen=True)
class Seat:
    """Who sat in a seat: a display name and the agent spec (``human`` for a person)."""

    name: str
    agent: str = "human"

    @property
    def is_human(self) -> bool:
        return self.agent == "human"

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "agent": self.agent}

    @classmethod
    def from_json(cls, data: Any, number: int) -> Seat:
        """Parse one seat entry; ``number`` (1-based) names it in errors."""
        if not isinstance(data, Mapping) or not isinstance(data.get("name"), str):
            raise RecordError(f"seat {number} must be an object with a text 'name'")
        agent = data.get("agent", "human")
        if not isinstance(agent, str):
            raise RecordError(f"seat {number}: 'agent' must be text, not {type(agent).__name__}")
        return cls(data["name"], agent)


@dataclass(frozen=True)
class Ending:
    """A match that ended outside the rules: ``resign`` or ``timeout`` by ``seat``, or ``agreement``."""

    code: str
    seat: Player | None = None

    def __post_init__(self) -> None:
        if self.code not in MATCH_ENDING_CODES:
            raise ValueError(f"ending {self.code!r}: expected one of {', '.join(MATCH_ENDING_CODES)}")
        if (self.code == "agreement") != (self.seat is None):
            raise ValueError(f"ending {self.code!r}: a seat is named for resign and timeout only")

    def result(self, game: Game) -> Result:
        """The result this ending gives: in a 2-player game the other player wins; with more
        players those left share a draw (the game cannot go on without a seat)."""
        n = game.num_players
        if self.code == "agreement":
            return Result.draw(range(n), n, "drawn by agreement", code="agreement")
        assert self.seat is not None
        name = game.player_name(self.seat)
        what = "resigned" if self.code == "resign" else "ran out of time"
        others = [p for p in range(n) if p != self.seat]
        reason = f"{name} {what}" if n == 2 else f"{name} {what}; the others share the game"
        return Result.shared(others, n, reason, code=self.code)

    def to_json(self) -> dict[str, Any]:
        return {"code": self.code, "seat": self.seat}

    @classmethod
    def from_json(cls, data: Any, players: int) -> Ending:
        if not isinstance(data, Mapping):
            raise RecordError("record 'ending' must be an object or null")
        seat = data.get("seat")
        if seat is not None and not is_seat(seat, players):
            raise RecordError(f"record 'ending': seat {seat!r} is not a seat of a {players}-player game")
        try:
            return cls(str(data.get("code")), seat)
        except ValueError as exc:
            raise RecordError(f"record 'ending': {exc}") from None


@dataclass
class Record:
    """A complete game: a header (the game, its seed and start, the seats, how it ended) and
    the played turns (:class:`~boardlab.core.turns.Turn`: each move's notation as records
    store it, who decided it, its time in seconds since the start and the match's note).

    :attr:`moves`, :attr:`movers`, :attr:`times` and :attr:`notes` read one field of every
    turn (new lists: change :attr:`turns` to change the record).
    """

    game_id: str
    players: int
    options: dict[str, Any]
    seed: int
    start: str | None = None
    seats: list[Seat] = field(default_factory=list)
    turns: list[Turn] = field(default_factory=list)
    ending: Ending | None = None
    result: Result | None = None
    rules_version: str | None = None
    final_position: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)

    # --- the turns, field by field ---------------------------------------------
    @property
    def moves(self) -> list[str]:
        return [turn.notation for turn in self.turns]

    @property
    def movers(self) -> list[Player]:
        return [turn.by for turn in self.turns]

    @property
    def times(self) -> list[float]:
        return [turn.t for turn in self.turns]

    @property
    def notes(self) -> list[str]:
        return [turn.note for turn in self.turns]

    # --- building ----------------------------------------------------------
    @classmethod
    def for_state(
        cls,
        state: State,
        seats: Sequence[Seat] | None = None,
        *,
        turns: Sequence[Turn] | None = None,
        ending: Ending | None = None,
        **meta: Any,
    ) -> Record:
        """A record of everything ``state`` has played since its start.

        ``turns`` are the match's turns of the state's history (who decided, when, the
        notes); without them who decided each move is worked out by walking a copy of the
        state back to its start, and the times are zeros. The record's notation is the
        state's :meth:`~State.history_notation` (a game may annotate it). ``ending`` names a
        match-level ending.
        """
        history = state.history
        notation = state.history_notation()
        if turns is None:
            turns = [Turn(number, by, 0.0, None, text) for number, (by, text) in enumerate(zip(_movers_of(state), notation), 1)]
        if len(turns) != len(history):
            raise ValueError(f"{len(turns)} turns for {len(history)} moves")
        result = state.result() if ending is None else ending.result(state.game)
        return cls(
            game_id=state.game.id,
            players=state.game.num_players,
            options=dict(state.game.options),
            seed=state.seed,
            start=state.start_position,
            seats=list(seats or []),
            turns=numbered(
                turn if turn.notation == text else replace(turn, notation=text) for turn, text in zip(turns, notation)
            ),
            ending=ending,
            result=result,
            rules_version=state.game.rules_version,
            final_position=state.position(),
            meta=dict(meta),
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
        for number, turn in enumerate(self.turns, 1):
            self._play(state, number)
            yield number, turn.notation, state

    def _play(self, state: State, number: int) -> None:
        """Play move ``number`` (1-based) on ``state``, checking who made it."""
        turn = self.turns[number - 1]
        text = turn.notation
        to_move = state.current_player()
        if turn.by != to_move:
            claimed = turn.by
            raise RecordError(
                f"move {number} ({_short(text)!r}) is marked as {_who(state, claimed)}'s, "
                f"but {_who(state, to_move)} was to decide",
                number,
            )
        try:
            state.play(text)
        except IllegalMoveError as exc:
            raise RecordError(f"move {number} ({_short(text)!r}) is not legal: {exc}", number) from None

    def state_at(self, number: int) -> State:
        """The state after the first ``number`` moves (0 = the start), every move validated."""
        if isinstance(number, bool) or not isinstance(number, int):
            raise RecordError(f"move {number!r}: a move number is a whole number")
        if not 0 <= number <= len(self.turns):
            raise RecordError(f"move {number} does not exist: the record has moves 0..{len(self.turns)}")
        state = self.initial_state()
        for index in range(1, number + 1):
            self._play(state, index)
        return state

    def replay(self) -> State:
        """The final state, every move re-validated; the result (or the ending) and, when
        recorded, the final position must match the record's (so a change of rules is never silent)."""
        state = self.state_at(len(self.turns))
        if self.final_position is not None and not self._reaches(self.final_position, state):
            raise RecordError(
                f"replaying the {len(self.turns)} moves does not reach the recorded final position "
                f"(rules version then: {self.rules_version or 'unknown'}, now: {state.game.rules_version})"
            )
        actual = state.result() if self.ending is None else self.ending.result(state.game)
        if self.ending is not None and state.is_over():
            raise RecordError(
                f"the record ends by {self.ending.code}, but the moves already end the game "
                f"({state.result().code})"  # type: ignore[union-attr]
            )
        recorded = self.result
        if recorded is None:
            if actual is not None:
                raise RecordError(f"the record has no result, but replaying ends the game ({actual.code})")
        elif (
            actual is None
            or actual.winners != recorded.winners
            or actual.code != state.game.current_result_code(recorded.code)
        ):
            got = "no result" if actual is None else f"winners {list(actual.winners)} ({actual.code})"
            raise RecordError(
                f"the record says winners {list(recorded.winners)} ({recorded.code}), replaying gives {got}"
            )
        elif any(abs(kept - replayed) > 1e-9 for kept, replayed in zip(recorded.returns, actual.returns)):
            raise RecordError(
                f"the record says returns {list(recorded.returns)}, replaying gives {list(actual.returns)}"
            )
        return state

    @staticmethod
    def _reaches(recorded: str, state: State) -> bool:
        """Whether ``state`` is the recorded final position: the same text, or the same position
        written by an earlier version (an ending code renamed since: the game reads it as today's)."""
        if recorded == state.position():
            return True
        if not state.game.renamed_result_codes:
            return False
        try:
            return state.game.state_from_position(recorded).position() == state.position()
        except BoardlabError:
            return False

    # --- JSON --------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "format": RECORD_FORMAT,
            "game": self.game_id,
            "players": self.players,
            "options": self.options,
            "rules_version": self.rules_version,
            "seed": self.seed,
            "start": self.start,
            "seats": [s.to_json() for s in self.seats],
            "moves": [_move_entry(turn) for turn in self.turns],
            "ending": None if self.ending is None else self.ending.to_json(),
            "result": None if self.result is None else self.result.to_json(),
            "final_position": self.final_position,
            "meta": self.meta,
        }

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Parse a record. Format 2: structure only (:meth:`replay` checks the moves).
        Format 1: converted, which replays it (a RecordError names a move that fails)."""
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        if "format" not in data:  # another of boardlab's files (a study's settings, a games list), or none
            keys = ", ".join(repr(key) for key in list(data)[:4]) or "nothing"
            raise RecordError(
                f"not a game record: it has no 'format' field (it holds {keys}). Game records are the files "
                "`boardlab play` saves, a finished room's record download, and the files in DIR/records/ after "
                "`boardlab simulate --records DIR`"
            )
        version = data.get("format")
        if isinstance(version, bool) or version not in READABLE_FORMATS:
            raise RecordError(
                f"record format {version!r} is not supported (this boardlab reads formats "
                f"{', '.join(map(str, READABLE_FORMATS))})"
            )
        for key in ("game", "players", "seed", "moves"):
            if key not in data:
                raise RecordError(f"record has no {key!r} field")
        game_id = data["game"]
        if not isinstance(game_id, str):
            raise RecordError(f"record 'game' must be a game id, not {_short(repr(game_id))}")
        players = _whole_number(data["players"], "players")
        seed = _whole_number(data["seed"], "seed")
        options = data.get("options", {})
        if not isinstance(options, Mapping):
            raise RecordError("record 'options' must be an object")
        start = data.get("start")
        if start is not None and not isinstance(start, str):
            raise RecordError("record 'start' must be a position string or null")
        entries = _parse_moves(data["moves"], players, version)
        seats_data = data.get("seats", [])
        if not isinstance(seats_data, list):
            raise RecordError("record 'seats' must be a list")
        seats = [Seat.from_json(entry, number) for number, entry in enumerate(seats_data, 1)]
        if seats and len(seats) != players:
            raise RecordError(f"record lists {len(seats)} seats for {players} players")
        meta = data.get("meta", {})
        if not isinstance(meta, Mapping):
            raise RecordError("record 'meta' must be an object")
        meta = dict(meta)
        ending_data = data.get("ending")
        ending = None if ending_data is None else Ending.from_json(ending_data, players)
        result_data = data.get("result")
        rules_version = data.get("rules_version", meta.pop("rules_version", None) if version == 1 else None)
        final_position = data.get("final_position", meta.pop("final_position", None) if version == 1 else None)
        if rules_version is not None and not isinstance(rules_version, str):
            raise RecordError("record 'rules_version' must be text")
        if final_position is not None and not isinstance(final_position, str):
            raise RecordError("record 'final_position' must be a position string")
        record = cls(
            game_id=game_id,
            players=players,
            options=dict(options),
            seed=seed,
            start=start,
            seats=seats,
            ending=ending,
            rules_version=rules_version,
            final_position=final_position,
            meta=meta,
        )
        if version == 1:
            return _converted_from_format_1(record, entries, result_data)
        for number, (text, by, stamp, note) in enumerate(entries, 1):
            assert by is not None  # format 2 names who decided every move (_parse_moves checked it)
            record.turns.append(Turn(number, by, stamp, None, text, note))
        record.turns = numbered(record.turns)
        record.result = _parse_result(result_data, players)
        return record

    def dumps(self) -> str:
        """The record as JSON text (what :meth:`save` writes)."""
        return json.dumps(self.to_json(), indent=1) + "\n"

    def save(self, path: str | os.PathLike[str], *, overwrite: bool = True) -> Path:
        """Write the record atomically: a crash never leaves half a file or loses the old one.

        The text goes to a temporary file in the target's folder, is flushed to
        disk, then renamed over the target. ``overwrite=False`` refuses an existing
        file with FileExistsError. Returns the path written; OSError propagates
        (no partial file).
        """
        target = Path(path).expanduser()
        if not overwrite and target.exists():
            raise FileExistsError(f"{target} already exists")
        text = self.dumps()
        handle, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
                out.flush()
                os.fsync(out.fileno())
            if overwrite:
                os.replace(tmp_name, target)
            else:
                os.link(tmp_name, target)  # fails if the file appeared meanwhile: never clobber
                os.unlink(tmp_name)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp_name)
            raise
        return target

    @classmethod
    def loads(cls, text: str, source: str = "record", validate: bool = True) -> Record:
        """Parse record JSON text; ``source`` names it in errors.

        With ``validate`` (the default) every move is replayed and re-validated
        (cost: one game replay), so a RecordError names the first bad move.
        """
        if not isinstance(text, str):
            raise RecordError(f"{source}: a record is JSON text, not {type(text).__name__}")
        try:
            # editors on Windows often start UTF-8 files with a byte-order mark; JSON has none
            data = json.loads(text.removeprefix("\ufeff"))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{source}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from None
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
    def load(cls, path: str | os.PathLike[str], validate: bool = True) -> Record:
        """Read a record file; RecordError says what is wrong with it.

        With ``validate`` (the default) every move is re-validated, as in :meth:`loads`.
        """
        if not isinstance(path, (str, os.PathLike)):
            raise RecordError(f"a record path must be text, not {type(path).__name__}")
        target = Path(path).expanduser()
        try:
            if target.is_dir():
                raise RecordError(f"{path}: is a folder, not a record file")
            if target.stat().st_size > MAX_RECORD_BYTES:
                raise RecordError(f"{path}: larger than {MAX_RECORD_BYTES // 2**20} MiB, not a record")
            text = target.read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"{path}: cannot read: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise RecordError(f"{path}: not a text file (a record is UTF-8 JSON)") from None
        return cls.loads(text, str(path), validate)


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _who(state: State, player: Player) -> str:
    if player == CHANCE:
        return "chance"
    if 0 <= player < state.game.num_players:
        return state.game.player_name(player)
    return "nobody (the game was over)"


def _movers_of(state: State) -> list[Player]:
    """Who decided each move of ``state``'s history: after undoing a move, whoever is to decide made it.
    A copy is walked back to the start (undo only: no move is applied again)."""
    walker = state.copy()
    movers = []
    while walker.last_move is not None:
        walker.undo()
        movers.append(walker.current_player())
    movers.reverse()
    return movers


def _converted_from_format_1(record: Record, entries: list[Entry], result_data: Any) -> Record:
    """A format 1 record as format 2: replayed for who made each move and the ending's code."""
    state = record.initial_state()
    for number, (text, _by, stamp, note) in enumerate(entries, 1):
        record.turns.append(Turn(number, state.current_player(), stamp, None, text, note))
        try:
            state.play(text)
        except IllegalMoveError as exc:
            raise RecordError(
                f"converting a format 1 record: move {number} ({_short(text)!r}) is not legal: {exc}", number
            ) from None
    if result_data is not None:
        if not isinstance(result_data, Mapping) or "winners" not in result_data:
            raise RecordError("record 'result' is malformed: expected an object with 'winners'")
        replayed = state.result()
        if replayed is None:
            raise RecordError("converting a format 1 record: it has a result, but its moves do not end the game")
        try:
            recorded = Result.from_json({**result_data, "code": replayed.code})
        except (KeyError, TypeError, ValueError) as exc:
            raise RecordError(f"record 'result' is malformed: {exc}") from None
        record.result = recorded
    record.turns = numbered(record.turns)
    record.meta["converted_from"] = 1
    return record


def _parse_result(data: Any, players: int) -> Result | None:
    if data is None:
        return None
    try:
        result = Result.from_json(data)
    except KeyError as exc:
        raise RecordError(f"record 'result' is malformed: it has no {exc.args[0]!r}") from None
    except (TypeError, ValueError) as exc:
        raise RecordError(f"record 'result' is malformed: {exc}") from None
    if len(result.returns) != players:
        raise RecordError(f"record 'result' has {len(result.returns)} returns for {players} players")
    return result


def _whole_number(value: Any, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RecordError(f"record {name!r} must be a whole number, not {_short(repr(value))}")
    return value


def _move_entry(turn: Turn) -> dict[str, Any]:
    entry: dict[str, Any] = {"move": turn.notation, "by": "chance" if turn.by == CHANCE else turn.by, "t": round(turn.t, 3)}
    if turn.note:
        entry["note"] = turn.note
    return entry


def _parse_moves(moves_data: Any, players: int, version: int) -> list[Entry]:
    """The moves list of a record: ``{move, by, t[, note]}`` objects (format 1: notation strings or ``{move, t}``)."""
    if not isinstance(moves_data, list):
        raise RecordError("record 'moves' must be a list")
    entries: list[Entry] = []
    for number, entry in enumerate(moves_data, 1):
        if version == 1 and isinstance(entry, str):
            entries.append((entry, None, 0.0, ""))
            continue
        if not isinstance(entry, Mapping) or not isinstance(entry.get("move"), str):
            raise RecordError(f"move {number} is not a {{move, by, t}} object", number)
        stamp = entry.get("t", 0.0)
        if isinstance(stamp, bool) or not isinstance(stamp, (int, float)) or not math.isfinite(stamp) or stamp < 0:
            raise RecordError(f"move {number}: time {_short(repr(stamp))} is not a number of seconds >= 0", number)
        mover: Player | None = None
        if version >= 2:
            by = entry.get("by")
            if by == "chance":
                mover = CHANCE
            elif isinstance(by, int) and not isinstance(by, bool) and 0 <= by < players:
                mover = by
            else:
                raise RecordError(
                    f"move {number}: 'by' must be a seat 0..{players - 1} or \"chance\", not {_short(repr(by))}",
                    number,
                )
        note = entry.get("note", "")
        if not isinstance(note, str):
            raise RecordError(f"move {number}: 'note' must be text", number)
        entries.append((entry["move"], mover, float(stamp), note))
    return entries


__all__ = ["READABLE_FORMATS", "RECORD_FORMAT", "Ending", "Record", "Seat"]
