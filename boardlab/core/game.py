"""The immutable half of the protocol: a :class:`Game` is a rules object that makes states.

Modelled on OpenSpiel's game API with python-chess ergonomics (see docs/api.md).
A Game holds the id, the player count, the validated options and what kind of
game it is (chance, hidden information, continuous moves). States come from
:meth:`Game.new_state` and :meth:`Game.state_from_position`; a saved game is a
:class:`boardlab.core.records.Record`.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from .errors import OptionError, PositionError
from .options import Option, resolve_options
from .state import State
from .values import Player

if TYPE_CHECKING:
    from .encoding import ActionEncoding, ObservationEncoding


class RulesClass(Protocol):
    """What a game's ``rules_class`` offers: its frozen rules built once per Game."""

    def from_options(self, players: int, options: Mapping[str, Any]) -> Any:
        """The rules of a game of ``players`` seats with validated ``options``."""
        ...


class ViewRenderer(Protocol):
    """A game's terminal drawing of a view envelope (its render.py's ``render_view``)."""

    def __call__(self, view: Mapping[str, Any], /) -> str: ...


class ImageRenderer(Protocol):
    """A game's PNG picture of a view envelope written to a path (its render_image.py's
    ``render_png``; matplotlib is imported only when it draws)."""

    def __call__(self, view: Mapping[str, Any], path: str, /) -> None: ...


class Game:
    """An immutable rules object. Subclasses declare the class attributes below.

    Construct through :func:`boardlab.load` (or the subclass directly):
    ``Game(players=2, layout="pinwheel")``. Unknown options and bad values raise
    :class:`OptionError` listing what is valid.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    default_players: ClassVar[int | None] = None
    #: the allowed player counts when not every count in min..max is (Towers: 2 or 4)
    player_counts: ClassVar[tuple[int, ...] | None] = None
    options_spec: ClassVar[tuple[Option, ...]] = ()
    #: chance nodes occur (dice, shuffles, tremor)
    has_chance: ClassVar[bool] = False
    #: some state is hidden from some player (cards, seeds)
    has_hidden_information: ClassVar[bool] = False
    #: some decisions are continuous; legal_moves() then lists candidates (docs/continuous-moves.md)
    continuous_moves: ClassVar[bool] = False
    #: how the game plays, in a player's words (the lobby's cards, ``boardlab games``): dice,
    #: hidden cards, physics; empty: said from the three flags above (:meth:`nature_words`)
    nature: ClassVar[tuple[str, ...]] = ()
    #: the players may agree to a draw (an interface feature the match driver offers)
    draw_by_agreement: ClassVar[bool] = False
    #: the ending codes this game's results use (documented in its rules document)
    result_codes: ClassVar[tuple[str, ...]] = ()
    #: names this game's options and ending codes had before they were renamed (old -> new),
    #: so that what was saved under an old name (a record, a saved room, a study, a weights
    #: file, a position) still loads and reads as the new one
    renamed_options: ClassVar[Mapping[str, str]] = {}
    renamed_result_codes: ClassVar[Mapping[str, str]] = {}
    #: the ending codes that mean a game was stopped by a limit (of moves, of moves without
    #: progress) rather than decided by play; the lab counts them as "ended by a limit"
    limit_codes: ClassVar[tuple[str, ...]] = ("move_limit", "no_progress")
    #: bumped whenever the rules' behaviour changes
    rules_version: ClassVar[str] = "1"
    #: how much work the conformance suite spends on this game (keys of boardlab.testing.Budget);
    #: a slow game (physics) asks for fewer, shorter games
    conformance_budget: ClassVar[Mapping[str, int]] = {}
    #: the State subclass this game makes
    state_class: ClassVar[type[State]]
    #: the game's frozen rules class (``<Name>Rules`` in its rules.py): the Game builds
    #: ``self.rules = rules_class.from_options(num_players, options)`` once, after the options
    #: are checked; states read ``state.rules``. None: the game makes its own (or none).
    rules_class: ClassVar[RulesClass | None] = None
    #: the seat names, seat 0 first ("White", "Black"): :meth:`player_name` reads them.
    #: None: "P1", "P2" ... (a game whose names depend on the player count overrides player_name)
    seat_names: ClassVar[tuple[str, ...] | None] = None
    #: the game's encodings (its encoding.py), each made with the Game by :meth:`action_encoding`
    #: and :meth:`observation_encoding`; None: the game has none (the adapters cannot play it)
    action_encoding_class: ClassVar[type[ActionEncoding] | None] = None
    observation_encoding_class: ClassVar[type[ObservationEncoding] | None] = None
    #: the terminal drawing of a view envelope (its render.py's ``render_view``, given as
    #: ``staticmethod(render_view)``); None: :meth:`render_view` writes the board as JSON
    view_renderer: ClassVar[ViewRenderer | None] = None
    #: the PNG picture of a view envelope (its render_image.py's ``render_png``, given as
    #: ``staticmethod(render_png)``); None: the game draws no picture
    image_renderer: ClassVar[ImageRenderer | None] = None
    #: the computer's levels for this game, chosen by measurement: level name -> agent spec
    #: (``beginner``, ``easy``, ``normal``, ``hard``; see docs/levels.md). A level the table
    #: leaves out is played by the core's fallback (:mod:`boardlab.agents.levels`).
    level_specs: ClassVar[Mapping[str, str]] = {}
    #: a level in a player's words where this game's plays otherwise than the core's words say
    #: (level name -> words, no engine setting: what the lobby shows); a level the table leaves
    #: out reads the core's (:data:`boardlab.agents.levels.PLAYER_WORDS`)
    level_words: ClassVar[Mapping[str, str]] = {}
    #: the lab's presets where this game plays them otherwise (preset name -> agent spec,
    #: chosen by measurement: docs/lab.md, "Presets"); a preset the table leaves out is the
    #: lab's own (:data:`boardlab.lab.presets.PRESETS`)
    lab_presets: ClassVar[Mapping[str, str]] = {}

    def __init__(self, players: int | None = None, **options: Any) -> None:
        if players is None:
            players = self.default_players or self.min_players
        if isinstance(players, str):
            try:
                players = int(players)
            except ValueError:
                raise OptionError(f"{self.id}: players={players!r} is not a number") from None
        if isinstance(players, bool) or not isinstance(players, int):
            raise OptionError(f"{self.id}: players={players!r} is not a whole number")
        if players not in self.allowed_player_counts():
            raise OptionError(
                f"{self.id}: players={players} not allowed; "
                f"{self.player_counts_text()} players"
            )
        self.num_players: int = players
        self.options: Mapping[str, Any] = resolve_options(self.id, self.options_spec, self.current_options(options))
        self._check_options()
        if self.rules_class is not None:
            self.rules: Any = self.rules_class.from_options(players, self.options)

    @classmethod
    def current_options(cls, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with any option given by its former name (:attr:`renamed_options`) under
        its name now; the two names at once are refused."""
        current = dict(options)
        for old, new in cls.renamed_options.items():
            if old in current:
                if new in current:
                    raise OptionError(f"{cls.id}: {old!r} is the former name of {new!r}; give one of them")
                current[new] = current.pop(old)
        return current

    @classmethod
    def current_result_code(cls, code: str) -> str:
        """The ending code ``code`` is now (:attr:`renamed_result_codes`); itself if not renamed."""
        return cls.renamed_result_codes.get(code, code)

    # --- hooks for subclasses --------------------------------------------------
    def _check_options(self) -> None:
        """Cross-option validation (raise OptionError); default: nothing to check."""

    def _new_state(self, seed: int) -> State:
        raise NotImplementedError

    def _state_from_position(self, text: str) -> State:
        raise NotImplementedError

    # --- public API ------------------------------------------------------------
    @property
    def max_moves(self) -> int:
        """A proven bound on the moves of a game (all moves, chance included)."""
        raise NotImplementedError

    def new_state(self, seed: int | None = None) -> State:
        """The start of a new game. ``seed`` drives every chance node the state samples itself."""
        if seed is None:
            seed = secrets.randbits(64)
        state = self._new_state(_whole_seed(self.id, seed))
        state._start_position = None
        return state

    def state_from_position(self, text: str, seed: int | None = None) -> State:
        """A state from the game's one-line position string; :class:`PositionError` if malformed."""
        if not isinstance(text, str):
            raise PositionError(f"{self.id}: a position must be a string, not {type(text).__name__}")
        seed = secrets.randbits(64) if seed is None else _whole_seed(self.id, seed)
        state = self._state_from_position(text.strip())
        state.seed = seed
        state._start_position = state.position()
        return state

    @property
    def resigns_by_move(self) -> bool:
        """Whether the rules have a resignation move of their own (:meth:`State.resign_move`):
        the resigning player leaves at their next decision and the others play on. Default: no,
        resigning ends the match (:class:`boardlab.Match`)."""
        return False

    def render_view(self, view: Mapping[str, Any]) -> str:
        """Text (with rich console markup) drawing a view envelope, for terminals: the game's
        :attr:`view_renderer`, else the board as JSON."""
        renderer = type(self).view_renderer
        if renderer is not None:
            return renderer(view)
        return json.dumps(view["board"], indent=1)

    def render_image(self, view: Mapping[str, Any], path: str) -> None:
        """Write a PNG picture of a view envelope to ``path`` with the game's
        :attr:`image_renderer` (it needs the ``plot`` extra); NotImplementedError without one."""
        renderer = type(self).image_renderer
        if renderer is None:
            raise NotImplementedError(f"{self.id} has no picture renderer")
        renderer(view, path)

    def action_encoding(self) -> ActionEncoding:
        """The game's integer actions (:mod:`boardlab.core.encoding`), for the OpenSpiel and
        PettingZoo adapters: its :attr:`action_encoding_class` (in its ``encoding.py``) made
        with this Game."""
        make = type(self).action_encoding_class
        if make is None:
            raise NotImplementedError(f"{self.id} declares no action encoding (docs/api.md, 'Adding a game')")
        return make(self)

    def observation_encoding(self) -> ObservationEncoding:
        """The game's fixed-size numeric observation of a seat's view, for the PettingZoo adapter:
        its :attr:`observation_encoding_class` made with this Game."""
        make = type(self).observation_encoding_class
        if make is None:
            raise NotImplementedError(f"{self.id} declares no observation encoding (docs/api.md, 'Adding a game')")
        return make(self)

    def player_name(self, player: Player) -> str:
        """A short name for a seat: its entry in :attr:`seat_names`, else "P1", "P2" ..."""
        if self.seat_names is not None:
            return self.seat_names[player]
        return f"P{player + 1}"

    @classmethod
    def allowed_player_counts(cls) -> tuple[int, ...]:
        if cls.player_counts is not None:
            return cls.player_counts
        return tuple(range(cls.min_players, cls.max_players + 1))

    @classmethod
    def player_counts_text(cls) -> str:
        counts = cls.allowed_player_counts()
        if len(counts) == 1:
            return str(counts[0])
        if counts == tuple(range(counts[0], counts[-1] + 1)):
            return f"{counts[0]}-{counts[-1]}"
        return " or ".join(str(c) for c in counts)

    @classmethod
    def nature_words(cls) -> tuple[str, ...]:
        """The game's own :attr:`nature`, or the words for its flags (luck, hidden information,
        continuous moves; a game with none: no luck, nothing hidden)."""
        if cls.nature:
            return cls.nature
        flags = ((cls.has_chance, "luck"), (cls.has_hidden_information, "hidden information"),
                 (cls.continuous_moves, "continuous moves"))
        return tuple(word for flag, word in flags if flag) or ("no luck", "nothing hidden")

    @classmethod
    def describe(cls) -> dict[str, Any]:
        """The catalog entry: id, name, player counts, nature and options."""
        return {
            "id": cls.id,
            "name": cls.name,
            "summary": cls.summary,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "default_players": cls.default_players or cls.min_players,
            "player_counts": list(cls.allowed_player_counts()),
            "chance": cls.has_chance,
            "hidden_information": cls.has_hidden_information,
            "continuous_moves": cls.continuous_moves,
            "nature": list(cls.nature_words()),
            "draw_by_agreement": cls.draw_by_agreement,
            "result_codes": list(cls.result_codes),
            "rules_version": cls.rules_version,
            "options": [opt.describe() for opt in cls.options_spec],
        }

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        sep = ", " if opts else ""
        return f"{type(self).__name__}(players={self.num_players}{sep}{opts})"

    def __eq__(self, other: object) -> bool:
        return (
            type(other) is type(self)
            and other.num_players == self.num_players
            and dict(other.options) == dict(self.options)
        )

    def __hash__(self) -> int:
        return hash((self.id, self.num_players, tuple(sorted(self.options.items(), key=str))))


def _whole_seed(game_id: str, seed: Any) -> int:
    """``seed`` as an int, or OptionError naming it (a seed is a whole number, not text or a float)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise OptionError(f"{game_id}: seed={seed!r} is not a whole number")
    return seed


def check_position_fields(game_id: str, text: str, count: int, sep: str = " ") -> list[str]:
    """Split a position string into exactly ``count`` fields or raise PositionError."""
    fields = text.split(sep)
    if len(fields) != count:
        raise PositionError(
            f"{game_id} position {text[:80]!r}: expected {count} fields separated by {sep!r}, got {len(fields)}"
        )
    return fields


__all__ = ["Game", "RulesClass", "check_position_fields"]
