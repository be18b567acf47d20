"""Evaluations fitted to game results: a game's shipped weights, and which evaluation judges.

A game's static evaluation (``State.evaluate()``) has two forms:

* **hand**: the terms and weights its author set, each with its reason (the game's
  evaluation.py). Every computer level was measured with it (docs/levels.md).
* **fitted**: the same terms, weighted by a model fitted to the results of many games
  (``boardlab train GAME``; docs/evaluation.md), so that "70%" wins about 70% of the time.
  Per seat ``s`` the model scores ``bias[s] + sum(weights[k] * terms[s][k])``; each score's
  distance ``d`` from the mean of the seats still in the game is bent by a fitted curve,
  ``linear * d + square * d * |d|`` (a lead that is already large is surer than a straight
  line says), and the chances are the softmax of the bent scores over those seats. With two
  players and a straight curve that is the logistic curve of the difference of the scores
  (the chess programmers' "Texel tuning").

The weights ship in the game's folder as ``evaluation.json``: one entry per (player count,
options, rules version) they were fitted for. A game, or a variant, without an entry is
judged by hand. A game may also ship ``search-evaluation.json``, the same terms weighted by
a fit to the games of one of its own searches, where those order positions better for a
search than the judge's weights do but would misjudge other players' games (Sovereign: the
judge is fitted to the players an analysis mostly meets, its alpha-beta ``expert`` to
alpha-beta's games; docs/evaluation.md). The chess engines keep the same split: the search's
evaluation, and a separate model that turns it into chances.

Which form judges is a setting of the code that asks, not of the game: :func:`judging_by`
sets it for the current thread (a context variable), and the game's ``evaluate()`` reads
it (:func:`evaluation_in_force`). Outside any setting the evaluation is ``hand``, the form
the levels were measured with; the analysis of a game (boardlab.agents.analysis) judges by
``fitted``; an agent judges by the one its spec names (``evaluation=fitted``, or
``evaluation=search`` for the search's weights). So two
agents in one match may judge the same position differently.

A game offers its terms for fitting by registering a function that reads them off a state
(:func:`register_evaluation_terms`, called by the game's evaluation module); the training
code (boardlab.lab.training) reaches them only through :func:`evaluation_terms`.

Everything here is the standard library: the play-time evaluation is plain Python, or the
game's compiled kernel reading :attr:`FittedEvaluation.weights`.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BoardlabError, OptionError

if TYPE_CHECKING:
    from .game import Game
    from .state import State

#: the format of a weights file; a file of another format is refused
FORMAT = "boardlab-evaluation/1"
#: the weights file in a game's package folder
FILE_NAME = "evaluation.json"
#: the weights fitted to the games of one of the game's searches, where it ships them
SEARCH_FILE_NAME = "search-evaluation.json"
#: the evaluation choices by name (another is a path to a weights file)
HAND = "hand"
FITTED = "fitted"
SEARCH = "search"
#: the file each choice that names a game's shipped weights reads
SHIPPED_FILES = {FITTED: FILE_NAME, SEARCH: SEARCH_FILE_NAME}
#: a score this far below the best seat's is a chance of 0 (exp underflows long before)
_NEGLIGIBLE = 700.0


class EvaluationFileError(BoardlabError):
    """A weights file that cannot be read or does not hold what it should."""

    code = "bad_evaluation_file"


@dataclass(frozen=True)
class FittedEvaluation:
    """Fitted weights of one game's evaluation terms, for one player count, options and rules version.

    ``about`` says how they were made and measured (the command, the games, held-out
    scores); nothing at play time reads it."""

    game_id: str
    players: int
    options: Mapping[str, Any]
    rules_version: str
    terms: tuple[str, ...]
    weights: tuple[float, ...]
    seat_bias: tuple[float, ...]
    about: Mapping[str, Any] = field(default_factory=dict)
    #: (linear, square): how a seat's score's distance from the mean is bent (see the module)
    curve: tuple[float, float] = (1.0, 0.0)

    def __post_init__(self) -> None:
        # options as a weights file holds them (JSON), so that a model compares alike before and after saving
        object.__setattr__(self, "options", _plain_options(self.options))

    def holds_for(self, game: Game) -> bool:
        """Whether these weights were fitted for ``game``: its id, player count, options and rules
        version, and the terms its evaluation weighs now, in their order (the weights are read by
        position: a file from before a term was added or renamed must not be read as today's)."""
        return (
            self.game_id == game.id
            and self.players == game.num_players
            and self.rules_version == str(game.rules_version)
            and self.current_options(game) == _plain_options(game.options)
            and self.terms == _term_names(game)
        )

    def current_options(self, game: Game) -> dict[str, Any]:
        """The options these weights hold for, an option saved under a former name read by its
        name in ``game`` now (a file written before the rename still holds)."""
        try:
            return type(game).current_options(self.options)
        except OptionError:
            return dict(self.options)  # both names: matches nothing, and mismatch() shows them

    def mismatch(self, game: Game) -> str:
        """What differs between these weights and ``game`` ("" when they hold for it)."""
        wanted = {
            "game": game.id, "players": game.num_players, "rules version": str(game.rules_version),
            "options": _plain_options(game.options),
        }
        have = {"game": self.game_id, "players": self.players, "rules version": self.rules_version,
                "options": self.current_options(game)}
        problems = [f"{key} {have[key]!r}, not {wanted[key]!r}" for key in wanted if have[key] != wanted[key]]
        weighed = _term_names(game)
        if self.game_id == game.id and self.terms != weighed:
            problems.append(_terms_difference(self.terms, weighed))
        return "; ".join(problems)

    def chances(self, terms: Sequence[Sequence[float] | None]) -> tuple[float, ...]:
        """Each seat's chance of winning from its terms: the softmax of the seats' scores; a
        seat whose terms are None is out of the game and gets 0. Cost: one multiplication
        per term and seat, one ``exp`` per seat."""
        weights = self.weights
        scores: list[float] = []
        standing: list[bool] = []
        for seat, seat_terms in enumerate(terms):
            score = self.seat_bias[seat]
            if seat_terms is not None:
                for weight, value in zip(weights, seat_terms):
                    score += weight * value
            scores.append(score)
            standing.append(seat_terms is not None)
        return softmax(self.bent(scores, standing), standing)

    def bent(self, scores: Sequence[float], standing: Sequence[bool]) -> list[float]:
        """The scores bent by :attr:`curve` round the mean of the seats ``standing``."""
        linear, square = self.curve
        alive = [score for score, up in zip(scores, standing) if up]
        mean = sum(alive) / len(alive) if alive else 0.0
        return [linear * (score - mean) + square * (score - mean) * abs(score - mean) for score in scores]

    def to_json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "options": dict(self.options),
            "rules_version": self.rules_version,
            "terms": dict(zip(self.terms, self.weights)),
            "seat_bias": list(self.seat_bias),
            "curve": {"linear": self.curve[0], "square": self.curve[1]},
            "about": dict(self.about),
        }

    @classmethod
    def from_json(cls, game_id: str, data: Any, source: str) -> FittedEvaluation:
        """Read one entry of a weights file; EvaluationFileError names what is wrong."""
        if not isinstance(data, dict):
            raise EvaluationFileError(f"{source}: an entry must be an object, not {type(data).__name__}")
        missing = [key for key in ("players", "options", "rules_version", "terms", "seat_bias") if key not in data]
        if missing:
            raise EvaluationFileError(f"{source}: an entry lacks {', '.join(missing)}")
        players, options, terms, bias = data["players"], data["options"], data["terms"], data["seat_bias"]
        if isinstance(players, bool) or not isinstance(players, int) or players < 1:
            raise EvaluationFileError(f"{source}: 'players' must be a whole number of seats, not {players!r}")
        if not isinstance(options, dict):
            raise EvaluationFileError(f"{source}: 'options' must be an object")
        if not isinstance(terms, dict) or not terms or not all(_is_number(v) for v in terms.values()):
            raise EvaluationFileError(f"{source}: 'terms' must map each term's name to its weight (a number)")
        if not isinstance(bias, list) or len(bias) != players or not all(_is_number(v) for v in bias):
            raise EvaluationFileError(f"{source}: 'seat_bias' must be {players} numbers, one per seat")
        about = data.get("about", {})
        curve = data.get("curve", {"linear": 1.0, "square": 0.0})
        if not isinstance(curve, dict) or not all(_is_number(curve.get(key)) for key in ("linear", "square")):
            raise EvaluationFileError(f"{source}: 'curve' must give its 'linear' and 'square' numbers")
        return cls(
            game_id=game_id,
            players=players,
            options=dict(options),
            rules_version=str(data["rules_version"]),
            terms=tuple(str(name) for name in terms),
            weights=tuple(float(weight) for weight in terms.values()),
            seat_bias=tuple(float(value) for value in bias),
            about=about if isinstance(about, dict) else {},
            curve=(float(curve["linear"]), float(curve["square"])),
        )


def softmax(scores: Sequence[float], standing: Sequence[bool] | None = None) -> tuple[float, ...]:
    """Chances from scores: ``exp(score)`` over the sum for the seats ``standing``, 0 for the others."""
    alive = [standing is None or standing[seat] for seat in range(len(scores))]
    best = max((score for score, up in zip(scores, alive) if up), default=0.0)
    weights = [
        math.exp(score - best) if up and best - score < _NEGLIGIBLE else 0.0 for score, up in zip(scores, alive)
    ]
    total = sum(weights)
    if total <= 0.0:
        return tuple(0.0 for _ in scores)
    return tuple(weight / total for weight in weights)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def _plain_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """Options as they read back from JSON (tuples become lists)."""
    plain: dict[str, Any] = json.loads(json.dumps(dict(options), sort_keys=True))
    return plain


# --- weights files ----------------------------------------------------------------------------
def read_evaluations(path: str | os.PathLike[str]) -> list[FittedEvaluation]:
    """Every entry of the weights file at ``path``; EvaluationFileError if it cannot be read."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise EvaluationFileError(f"{source}: cannot read it ({exc.strerror or exc})") from None
    return _parse_file(text, source)


def _parse_file(text: str, source: str) -> list[FittedEvaluation]:
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise EvaluationFileError(f"{source}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise EvaluationFileError(f"{source}: not a weights file (its 'format' must be {FORMAT!r})")
    game_id, entries = data.get("game"), data.get("evaluations")
    if not isinstance(game_id, str) or not isinstance(entries, list):
        raise EvaluationFileError(f"{source}: a weights file names its 'game' and lists its 'evaluations'")
    return [FittedEvaluation.from_json(game_id, entry, f"{source}, entry {number}") for number, entry in
            enumerate(entries, 1)]


def writable_evaluations(path: str | os.PathLike[str], game_id: str) -> list[FittedEvaluation]:
    """The entries already in the weights file at ``path`` (none where there is no file yet),
    once it is sure that weights of ``game_id`` can be written there; EvaluationFileError names
    what stands in the way: a folder, a missing or read-only folder to hold the file, a file
    that is not a weights file, or weights of another game. Cheap, so that a command can ask
    before it spends time on the weights rather than fail after."""
    target = Path(path)
    if target.is_dir():
        raise EvaluationFileError(f"{target}: is a folder; give the path of a weights file, e.g. {target / FILE_NAME}")
    folder = target.parent
    if not folder.exists():
        raise EvaluationFileError(f"{target}: there is no folder {folder} to write it in")
    if not folder.is_dir():
        raise EvaluationFileError(f"{target}: {folder} is a file, not a folder to write it in")
    # the file is replaced through a new file beside it, so the folder must take new files
    if not os.access(folder, os.W_OK | os.X_OK):
        raise EvaluationFileError(f"{target}: cannot write in its folder {folder} (permission denied)")
    entries = read_evaluations(target) if target.exists() else []
    if any(entry.game_id != game_id for entry in entries):
        raise EvaluationFileError(f"{target}: holds weights of another game than {game_id}")
    return entries


def write_evaluation(path: str | os.PathLike[str], model: FittedEvaluation) -> None:
    """Put ``model`` into the weights file at ``path`` (made if missing), replacing the entry
    for the same player count, options and rules version; the file is replaced whole, so a
    reader never sees half of it. EvaluationFileError where it cannot be written."""
    target = Path(path)
    entries = writable_evaluations(target, model.game_id)
    kept = [
        entry for entry in entries
        if (entry.players, dict(entry.options), entry.rules_version)
        != (model.players, dict(model.options), model.rules_version)
    ]
    data = {"format": FORMAT, "game": model.game_id, "evaluations": [entry.to_json() for entry in [*kept, model]]}
    partial = target.with_name(target.name + ".partial")
    try:
        partial.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
        os.replace(partial, target)
    except OSError as exc:  # a full disk, or a folder changed since it was checked
        partial.unlink(missing_ok=True)
        raise EvaluationFileError(f"{target}: cannot write it ({exc.strerror or exc})") from None


def shipped_path(game: Game, file_name: str = FILE_NAME) -> Path:
    """Where ``game``'s shipped weights file lives (its package folder; it may not exist):
    the judge's (``evaluation.json``), or ``search-evaluation.json``."""
    package = type(game).__module__.rpartition(".")[0]
    return Path(str(resources.files(package).joinpath(file_name)))


def shipped_evaluation(game: Game, file_name: str = FILE_NAME) -> FittedEvaluation | None:
    """The shipped weights of ``file_name`` (:data:`FILE_NAME` or :data:`SEARCH_FILE_NAME`)
    that hold for ``game``, or None (read once per Game object and file)."""
    key = _CACHE_KEYS[file_name]
    cached = game.__dict__.get(key, _UNREAD)
    if cached is not _UNREAD:
        return cached  # type: ignore[no-any-return]
    found: FittedEvaluation | None = None
    path = shipped_path(game, file_name)
    if path.is_file():
        found = next((entry for entry in read_evaluations(path) if entry.holds_for(game)), None)
    game.__dict__[key] = found
    return found


_UNREAD = object()
#: where a Game object keeps each shipped file's weights once read (no string built per leaf)
_CACHE_KEYS = {FILE_NAME: "_shipped_evaluation", SEARCH_FILE_NAME: "_shipped_search_evaluation"}


# --- which evaluation judges ------------------------------------------------------------------
class EvaluationChoice:
    """``hand``, ``fitted`` (the game's shipped weights; hand where none hold), ``search`` (the
    game's shipped search weights; hand where none hold), or the weights of one file
    (``model``). Made by :func:`evaluation_choice`."""

    __slots__ = ("_checked", "_shipped_file", "model", "name")

    def __init__(self, name: str, model: FittedEvaluation | None = None) -> None:
        self.name = name
        self.model = model
        self._checked: Game | None = None
        self._shipped_file = SHIPPED_FILES.get(name, FILE_NAME)

    def for_game(self, game: Game) -> FittedEvaluation | None:
        """The weights this choice judges ``game`` by; None: by hand."""
        if self.name == HAND:
            return None
        model = self.model
        if model is None:
            return shipped_evaluation(game, self._shipped_file)
        if self._checked is not game:
            problem = model.mismatch(game)
            if problem:
                raise OptionError(f"evaluation {self.name}: these weights do not hold for this game ({problem})")
            self._checked = game
        return model

    def __repr__(self) -> str:
        return f"EvaluationChoice({self.name!r})"


#: the agent parameter naming the evaluation an agent judges by (``mcts``, ``alphabeta``, ``greedy``)
EVALUATION_PARAM: tuple[type, Any, str] = (
    str,
    HAND,
    "the evaluation it judges positions by: hand (the hand-set weights), "
    "fitted (the game's weights fitted to game results, docs/evaluation.md; hand where it has none), "
    "search (the game's weights fitted to the games of its own search, where it ships them; hand "
    "where it has none) or the path of a weights file written by boardlab train",
)

_HAND_CHOICE = EvaluationChoice(HAND)
_FITTED_CHOICE = EvaluationChoice(FITTED)
_SEARCH_CHOICE = EvaluationChoice(SEARCH)
_IN_FORCE: ContextVar[EvaluationChoice] = ContextVar("boardlab_evaluation", default=_HAND_CHOICE)
#: what a compiled evaluation reads at every leaf instead of calling :func:`evaluation_in_force`
#: (a Python call each time): the choice in force (``IN_FORCE.get()``), and the hand-set one
IN_FORCE = _IN_FORCE
HAND_CHOICE = _HAND_CHOICE


def evaluation_choice(text: str | EvaluationChoice) -> EvaluationChoice:
    """``hand``, ``fitted``, ``search`` or the path of a weights file (its one entry, or OptionError)."""
    if isinstance(text, EvaluationChoice):
        return text
    name = str(text).strip()
    if name == HAND:
        return _HAND_CHOICE
    if name == FITTED:
        return _FITTED_CHOICE
    if name == SEARCH:
        return _SEARCH_CHOICE
    words = f"{HAND}, {FITTED}, {SEARCH} or the path of a weights file"
    if not name:
        raise OptionError(f"evaluation {name!r}: give {words}")
    path = Path(name).expanduser()
    if path.is_dir():
        raise OptionError(f"evaluation {name!r}: {path} is a folder, not a weights file; give {words}")
    if not path.is_file():
        raise OptionError(f"evaluation {name!r}: no file {path} exists; give {words}")
    entries = read_evaluations(Path(name).expanduser())
    if len(entries) != 1:
        raise OptionError(f"evaluation {name!r}: the file holds {len(entries)} entries; give a file of one")
    return EvaluationChoice(name, entries[0])


@contextmanager
def judging_by(choice: str | EvaluationChoice) -> Iterator[EvaluationChoice]:
    """Within the block, ``evaluate()`` in this thread judges by ``choice``."""
    chosen = evaluation_choice(choice)
    token = _IN_FORCE.set(chosen)
    try:
        yield chosen
    finally:
        _IN_FORCE.reset(token)


def evaluation_in_force(game: Game) -> FittedEvaluation | None:
    """The fitted weights ``evaluate()`` should use for ``game`` now, or None for the hand-set
    evaluation. Cost: a context lookup and a cached read (the hot path of every search leaf)."""
    return _IN_FORCE.get().for_game(game)


def evaluation_name() -> str:
    """The name of the evaluation in force in this thread: hand, fitted, search or a file's path."""
    return _IN_FORCE.get().name


# --- the terms a game offers for fitting -------------------------------------------------------
TermsFunction = Callable[["State"], "Sequence[Sequence[float] | None] | None"]


@dataclass(frozen=True)
class EvaluationTerms:
    """A game's evaluation terms: their names, and the function that reads each seat's
    values off a state: None for a seat out of the game (its chance is 0), and None instead
    of the list where the position is judged outside the model (a finished game, a win on
    the spot; the game's evaluate() says why)."""

    names: tuple[str, ...]
    read: TermsFunction


_TERMS: dict[str, EvaluationTerms] = {}


def register_evaluation_terms(game_id: str, names: Sequence[str], read: TermsFunction) -> None:
    """Offer ``game_id``'s terms for fitting (a game's evaluation module calls this once)."""
    _TERMS[game_id] = EvaluationTerms(tuple(names), read)


def _term_names(game: Game) -> tuple[str, ...]:
    """The terms ``game`` weighs, in order; none where its evaluation registers none."""
    registered = _TERMS.get(game.id)
    return registered.names if registered is not None else ()


def _terms_difference(have: Sequence[str], wanted: Sequence[str]) -> str:
    """How a weights file's terms differ from those the game weighs, in words."""
    if not wanted:
        return "the game weighs no terms"
    missing = [name for name in wanted if name not in have]
    unknown = [name for name in have if name not in wanted]
    parts = []
    if missing:
        parts.append(f"no weight for {', '.join(missing)}")
    if unknown:
        parts.append(f"weights for terms the game does not weigh: {', '.join(unknown)}")
    if not parts:
        parts.append(f"the terms in another order (the game's: {', '.join(wanted)})")
    return "terms: " + "; ".join(parts)


def terms_of(game: Game) -> EvaluationTerms:
    """``game``'s registered terms; OptionError if it offers none."""
    found = _TERMS.get(game.id)
    if found is None:
        raise OptionError(f"{game.id} offers no evaluation terms to fit (its evaluation module registers none)")
    return found


def evaluation_terms(state: State) -> list[list[float] | None] | None:
    """Each seat's terms in ``state`` (``terms_of(game).names`` order; None for a seat out of
    the game), or None where the position is judged outside the model."""
    read = terms_of(state.game).read(state)
    return None if read is None else [None if seat is None else list(seat) for seat in read]


__all__ = [
    "EVALUATION_PARAM", "FILE_NAME", "FITTED", "FORMAT", "HAND", "SEARCH", "SEARCH_FILE_NAME", "SHIPPED_FILES",
    "EvaluationChoice", "EvaluationFileError", "EvaluationTerms",
    "FittedEvaluation", "evaluation_choice", "evaluation_in_force", "evaluation_name", "evaluation_terms",
    "judging_by", "read_evaluations", "register_evaluation_terms", "shipped_evaluation", "shipped_path", "softmax",
    "terms_of", "writable_evaluations", "write_evaluation",
]
