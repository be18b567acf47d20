"""A study's folder: its settings, one line per finished game, and every game's record.

::

    DIR/study.json                      the study's settings and id (see Study.settings)
    DIR/games.jsonl                     one GameOutcome per line, appended as games finish
    DIR/<game>-00000.json ...           each game's record (one variant)
    DIR/<game>-<variant>-00000.json     ... (several variants)
    DIR/report.html, report.json, ...   written by boardlab.lab.report

The folder is the resume point. A game counts once it has a line in
``games.jsonl``: its record is saved first (atomically), then the line is
appended and flushed to disk, so an interruption loses at most the games under
way, which a new run plays again (the same seeds give the same games). Nothing
that is not this study's is ever overwritten: a folder holding another study,
or files the study did not write where it would write, is refused with
:class:`StudyFolderError`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..core.errors import BoardlabError
from ..core.values import is_seat
from .play import PlayedGame
from .stats import GameOutcome, moves_digest
from .study import OutcomeSink, Study

STUDY_FILE = "study.json"
#: the games' records sit in their own sub-folder, so the report and tables stay easy to find
RECORDS_FOLDER = "records"
GAMES_FILE = "games.jsonl"


class StudyFolderError(BoardlabError):
    """A study folder that cannot be used without losing or mixing data."""

    code = "bad_study_folder"


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=+-]+", "_", name).strip("_")


class StudyFolder(OutcomeSink):
    """Open (create, or continue) the folder of ``study``; refuse anything else."""

    def __init__(self, folder: str | os.PathLike[str], study: Study) -> None:
        self.folder = Path(folder).expanduser()
        self.study = study
        self.settings = study.settings()
        self.study_id = study.study_id
        self._check_folder()
        self._file_names = self._record_names()
        self._outcomes = {key: self._with_digest(outcome) for key, outcome in self._read_games().items()}

    # --- opening -----------------------------------------------------------------
    def _check_folder(self) -> None:
        folder = self.folder
        if folder.exists() and not folder.is_dir():
            raise StudyFolderError(f"{folder} is a file, not a folder: give a folder for the study's records")
        settings_path = folder / STUDY_FILE
        if settings_path.exists():
            try:
                stored = json.loads(settings_path.read_text(encoding="utf-8"))
            except (OSError, ValueError) as exc:
                raise StudyFolderError(f"{settings_path}: unreadable ({exc}); not touching that folder") from None
            if not isinstance(stored, dict) or stored.get("settings") != json.loads(json.dumps(self.settings)):
                raise StudyFolderError(
                    f"{folder} holds a different study ({_differences(stored, self.settings)}); "
                    "run with the same settings to continue it, or choose another folder"
                )
            return
        if folder.exists() and any(folder.iterdir()):
            raise StudyFolderError(
                f"{folder} is not empty and holds no boardlab study ({STUDY_FILE}); "
                "choose a new or empty folder so nothing in it is overwritten"
            )
        folder.mkdir(parents=True, exist_ok=True)
        text = json.dumps({"study_id": self.study_id, "settings": self.settings}, indent=1) + "\n"
        _write_atomically(settings_path, text)

    def _read_games(self) -> dict[tuple[str, int], GameOutcome]:
        """The games of earlier runs; an unreadable line is refused (the file is not ours)."""
        path = self.folder / GAMES_FILE
        outcomes: dict[tuple[str, int], GameOutcome] = {}
        if not path.exists():
            return outcomes
        # every complete line ends with a newline: what follows the last one is a line
        # an interrupted run did not finish, dropped here (that game is played again)
        *lines, _unfinished = path.read_bytes().split(b"\n")
        kept = 0
        for number, line in enumerate(lines, 1):
            kept += len(line) + 1
            if not line.strip():
                continue
            try:
                outcome = self._checked_outcome(json.loads(line))
            except (ValueError, KeyError, TypeError) as exc:
                why = f"no {exc} field" if isinstance(exc, KeyError) else str(exc)
                raise StudyFolderError(
                    f"{path} line {number}: not a game of this study ({why}); remove the line to play that game "
                    "again, or choose another folder"
                ) from None
            # a game is counted once even if a line was ever written twice
            outcomes.setdefault(outcome.key, outcome)
        if kept < path.stat().st_size:
            with path.open("r+b") as handle:
                handle.truncate(kept)
        return outcomes

    def _checked_outcome(self, data: Any) -> GameOutcome:
        """A line of ``games.jsonl`` as a game of this study, or ValueError saying what is wrong
        with it: a line of the right shape with a wrong type or a seat out of range would
        otherwise stop the report far from its cause."""
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        if data.pop("study") != self.study_id:
            raise ValueError("another study's game")
        outcome = GameOutcome.from_json(data)
        seats = self.settings["players"]
        variants = [variant["name"] for variant in self.settings["variants"]]
        # exactly int: JSON's true and false are Python bools, not game numbers
        if type(outcome.index) is not int or outcome.index < 0:
            raise ValueError(f"index {outcome.index!r} is not a game number")
        if outcome.variant not in variants:
            raise ValueError(f"variant {outcome.variant!r} is not one of the study's")
        for name, values in (("seat_agents", outcome.seat_agents), ("returns", outcome.returns)):
            if len(values) != seats:
                raise ValueError(f"{name} has {len(values)} entries for {seats} seats")
        if not all(is_seat(agent, seats) for agent in outcome.seat_agents):
            raise ValueError(f"seat_agents {list(outcome.seat_agents)} names an agent that is not at the table")
        if not all(is_seat(seat, seats) for seat in outcome.winners):
            raise ValueError(f"winners {list(outcome.winners)} names a seat the game does not have")
        if any(isinstance(value, bool) or not isinstance(value, (int, float)) for value in outcome.returns):
            raise ValueError(f"returns {list(outcome.returns)} are not numbers")
        for name in ("moves", "decisions"):
            if type(getattr(outcome, name)) is not int:
                raise ValueError(f"{name} {getattr(outcome, name)!r} is not a whole number")
        return outcome

    def _with_digest(self, outcome: GameOutcome) -> GameOutcome:
        """A game stored before its moves' digest was kept gets it from its record, when the
        record is there and readable (so that repeated games are told by their moves)."""
        if outcome.moves_digest or outcome.variant not in self._file_names:
            return outcome
        try:
            record = json.loads(self.record_path(outcome.variant, outcome.index).read_text(encoding="utf-8"))
            digest = _record_moves_digest(record)
        except (OSError, ValueError, KeyError, TypeError):
            return outcome
        return replace(outcome, moves_digest=digest)

    def _record_names(self) -> dict[str, str]:
        """The file-name part of each variant ("" when there is only one)."""
        return _record_names_of([variant.name for variant in self.study.variants])

    # --- the sink -------------------------------------------------------------------
    def done(self) -> dict[tuple[str, int], GameOutcome]:
        return dict(self._outcomes)

    def record_path(self, variant: str, index: int) -> Path:
        return _record_file(self.folder, self.study.game_id, self._file_names[variant], index)

    def add(self, played: PlayedGame) -> GameOutcome:
        """Store a finished game: its record, then its line. Returns the outcome with its record path."""
        return self._store(played.outcome, played.record.save)

    def _store(self, outcome: GameOutcome, save_record: Callable[[Path], object]) -> GameOutcome:
        if outcome.key in self._outcomes:
            return self._outcomes[outcome.key]
        target = self.record_path(outcome.variant, outcome.index)
        if target.exists():
            self._check_own_record(target, outcome)
        target.parent.mkdir(exist_ok=True)
        save_record(target)
        stored = replace(outcome, record_path=str(target))
        line = json.dumps({"study": self.study_id, **stored.to_json()}, separators=(",", ":")) + "\n"
        # Ctrl-C waits until the line is written and counted, so the statistics printed after an
        # interrupt are those of exactly the stored games
        with _interrupts_held():
            with (self.folder / GAMES_FILE).open("a", encoding="utf-8") as games:
                games.write(line)
                games.flush()
                os.fsync(games.fileno())
            self._outcomes[stored.key] = stored
        return stored

    def adopt(self, other: str | os.PathLike[str]) -> int:
        """Take over the games another study's folder holds of the variants both studies play
        alike (same game, players, seed, seating rule, and each such variant's options and
        agents): the same seeds make them the very games this study would play. Their records
        are copied with this study's id; games this folder has are kept. Returns how many were
        taken. A folder that is not a study, or not a compatible one, gives none."""
        source = Path(other).expanduser()
        try:
            stored = json.loads((source / STUDY_FILE).read_text(encoding="utf-8"))
            theirs, their_id = stored["settings"], stored["study_id"]
        except (OSError, ValueError, KeyError, TypeError):
            return 0
        ours = json.loads(json.dumps(self.settings))
        if not isinstance(theirs, dict) or their_id == self.study_id:
            return 0
        if any(theirs.get(key) != ours.get(key) for key in ("lab_format", "game", "players", "seed", "rotate")):
            return 0
        # a variant's settings hold its name, options and agents: equal settings, the same games
        wanted = {variant["name"] for variant in ours["variants"] if variant in theirs.get("variants", [])}
        if not wanted:
            return 0
        their_slugs = _record_names_of([variant["name"] for variant in theirs["variants"]])
        taken = 0
        for outcome in stored_games(source / GAMES_FILE, their_id):
            if outcome.variant not in wanted or outcome.key in self._outcomes:
                continue
            record = _record_file(source, self.study.game_id, their_slugs[outcome.variant], outcome.index)
            try:
                content = json.loads(record.read_text(encoding="utf-8"))
                content["meta"]["study"] = self.study_id
                digest = outcome.moves_digest or _record_moves_digest(content)
            except (OSError, ValueError, KeyError, TypeError):
                continue
            self._store(replace(outcome, moves_digest=digest), functools.partial(_write_atomically, text=json.dumps(content)))
            taken += 1
        return taken

    def _check_own_record(self, path: Path, outcome: GameOutcome) -> None:
        """A record left by an interrupted run of this study may be replaced (the game is
        played again from the same seed); anything else is refused."""
        try:
            meta = json.loads(path.read_text(encoding="utf-8")).get("meta", {})
        except (OSError, ValueError, AttributeError):
            meta = {}
        if not (
            isinstance(meta, dict)
            and meta.get("study") == self.study_id
            and meta.get("variant") == outcome.variant
            and meta.get("game_index") == outcome.index
        ):
            raise StudyFolderError(f"{path} exists and is not this study's record of game {outcome.index}; not overwriting it")


def stored_games(path: Path, study_id: str) -> Iterator[GameOutcome]:
    """The games of the study ``study_id`` that a ``games.jsonl`` holds, read without opening the
    study: complete lines only, and a line that is not one of its games is passed over (another
    study's, or a torn one). None when the file cannot be read."""
    try:
        lines = path.read_bytes().split(b"\n")[:-1]
    except OSError:
        return
    for line in lines:
        try:
            data = json.loads(line)
            if data.pop("study") != study_id:
                continue
            yield GameOutcome.from_json(data)
        except (ValueError, KeyError, TypeError, AttributeError):
            continue


def _record_file(folder: Path, game_id: str, slug: str, index: int) -> Path:
    """Where a study in ``folder`` keeps the record of game ``index`` of the variant ``slug``."""
    middle = f"-{slug}" if slug else ""
    return folder / RECORDS_FOLDER / f"{game_id}{middle}-{index:05d}.json"


def _record_moves_digest(record: dict[str, Any]) -> str:
    """The moves' digest of a saved record (its JSON object)."""
    return moves_digest(str(entry["move"]) for entry in record["moves"])


def _record_names_of(variants: list[str]) -> dict[str, str]:
    """The file-name part of each of a study's variants ("" when there is only one)."""
    if len(variants) == 1:
        return {variants[0]: ""}
    slugs = {name: _slug(name) or f"v{number}" for number, name in enumerate(variants)}
    if len(set(slugs.values())) != len(slugs):
        slugs = {name: f"v{number}-{slugs[name]}" for number, name in enumerate(variants)}
    return slugs


def _differences(stored: Any, settings: dict[str, Any]) -> str:
    old = stored.get("settings") if isinstance(stored, dict) else None
    if not isinstance(old, dict):
        return "its study.json is not one this version writes"
    new = json.loads(json.dumps(settings))
    changed = [key for key in sorted(set(old) | set(new)) if old.get(key) != new.get(key)]
    if not changed:
        return "different settings"
    return "; ".join(
        _variants_differences(old.get(key), new.get(key)) if key == "variants" else _changed(key, old.get(key), new.get(key))
        for key in changed
    )


def _changed(name: str, stored: Any, asked: Any) -> str:
    """``name``: what the folder's study has, against what this run asks for."""
    def shown(value: Any) -> str:
        text = json.dumps(value, separators=(",", ":")) if not isinstance(value, str) else value
        return text if len(text) <= 60 else text[:57] + "..."

    if isinstance(stored, dict) and isinstance(asked, dict):
        # options and the like: only the entries that differ, which a shortened whole would hide
        keys = [key for key in sorted(set(stored) | set(asked)) if stored.get(key) != asked.get(key)]
        return f"{name}: " + ", ".join(
            f"{key} {shown(stored.get(key, 'none'))} there, {shown(asked.get(key, 'none'))} asked" for key in keys
        )
    return f"{name} {shown(stored)} there, {shown(asked)} asked"


def _variants_differences(stored: Any, asked: list[dict[str, Any]]) -> str:
    """What differs between the variants stored and those asked for: their number, or within
    each (its name, its agents, its options)."""
    if not isinstance(stored, list) or len(stored) != len(asked):
        count = len(stored) if isinstance(stored, list) else 0
        return f"{count} variants there, {len(asked)} asked"
    parts = []
    for there, new in zip(stored, asked):
        old = there if isinstance(there, dict) else {}
        where = f"variant {new.get('name')!r}: " if len(asked) > 1 else ""
        parts += [f"{where}{_changed(key, old.get(key), new.get(key))}"
                  for key in ("name", "agents", "options") if old.get(key) != new.get(key)]
    return "; ".join(parts) or "different variants"


def _write_atomically(path: Path, text: str) -> None:
    temporary = path.with_name(f".{path.name}.tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)


@contextlib.contextmanager
def _interrupts_held() -> Iterator[None]:
    """Hold Ctrl-C back until the block is done, then act on it as the handler before would.
    Python runs signal handlers in the main thread only, so elsewhere there is nothing to hold."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[tuple[int, Any]] = []
    previous = signal.signal(signal.SIGINT, lambda number, frame: caught.append((number, frame)))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if caught:
            if callable(previous):
                previous(*caught[0])
            elif previous == signal.SIG_DFL:
                raise KeyboardInterrupt
