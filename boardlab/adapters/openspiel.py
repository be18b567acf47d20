"""Every boardlab game as an OpenSpiel Python game: ``pyspiel.load_game("boardlab_towers")``.

Importing this module registers ``boardlab_<id>`` for every registered game (and
:func:`register` does so for a game loaded later). Parameters are ``players``, ``seed`` and
the game's options whose default is a number, a flag or text (as OpenSpiel parameters are
typed, an option whose default is None cannot be set here)::

    import pyspiel
    import boardlab.adapters.openspiel  # registers the games

    game = pyspiel.load_game("boardlab_towers", {"players": 4, "layout": "blocks"})

* Actions are the game's :class:`~boardlab.core.ActionEncoding`; chance outcomes its chance
  indices with their exact probabilities. An illegal action raises
  :class:`~boardlab.core.ActionError` naming the index.
* Returns are the game's, in [0, 1] summing to 1 (constant-sum: a win 1, a k-way draw 1/k).
* Information-state and observation strings are JSON of ``state.view(player)``; the
  information state adds the moves as that player was told them (``move_text``), so hidden
  information never reaches a player's string. The observation tensor is the game's
  :class:`~boardlab.core.ObservationEncoding` of that view. There is no information-state
  tensor (the game type says so): asking for one raises ``pyspiel.SpielError``, as it does for
  OpenSpiel's own games that do not provide it.

Cloning an OpenSpiel state copies the boardlab state with ``State.copy()``. Games and states
pickle: a game as its id and parameters, a state as OpenSpiel pickles any Python state (its
history and its attributes, the boardlab state among them).
"""

from __future__ import annotations

import json
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError("the OpenSpiel adapter needs the extra: pip install 'boardlab[openspiel]'") from error

import boardlab
from boardlab.core import CHANCE, TERMINAL, ActionEncoding, Game, Move, ObservationEncoding, State

PREFIX = "boardlab_"


def game_name(game_id: str) -> str:
    """The OpenSpiel short name of a boardlab game: ``boardlab_<id>``."""
    return PREFIX + game_id


class _Inner:
    """Holds the boardlab state inside an OpenSpiel state. OpenSpiel clones a Python state by
    deep-copying its attributes; this makes that a ``State.copy()``, which shares the game's
    immutable tables instead of copying them."""

    __slots__ = ("actions", "actions_ply", "state", "texts")

    def __init__(self, state: State, texts: list[list[str]] | None) -> None:
        self.state = state
        #: per player, the moves as that player was told them (games with hidden information)
        self.texts = texts
        #: the legal actions' moves, computed once per ply
        self.actions: dict[int, Move] = {}
        self.actions_ply = -1

    def __deepcopy__(self, memo: dict[int, Any]) -> _Inner:
        texts = None if self.texts is None else [list(seen) for seen in self.texts]
        clone = _Inner(self.state.copy(), texts)
        # a search clones a state and then asks for its actions: the clone is at the same ply, and
        # the mapping is replaced, never changed in place, so the two can share it
        clone.actions, clone.actions_ply = self.actions, self.actions_ply
        return clone


class _Shared:
    """Immutable per-game parts that clones share (deep copies return the same object)."""

    __slots__ = ("encoding", "game")

    def __init__(self, game: Game, encoding: ActionEncoding) -> None:
        self.game = game
        self.encoding = encoding

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


def _parameters(game_class: type[Game]) -> dict[str, Any]:
    params: dict[str, Any] = {"players": game_class.default_players or game_class.min_players, "seed": 0}
    for option in game_class.options_spec:
        if isinstance(option.default, (bool, int, float, str)):
            params[option.name] = option.default
    return params


def _game_type(game_class: type[Game]) -> pyspiel.GameType:
    kind = pyspiel.GameType
    counts = game_class.allowed_player_counts()
    return kind(
        short_name=game_name(game_class.id),
        long_name=f"boardlab {game_class.name}",
        dynamics=kind.Dynamics.SEQUENTIAL,
        chance_mode=kind.ChanceMode.EXPLICIT_STOCHASTIC if game_class.has_chance else kind.ChanceMode.DETERMINISTIC,
        information=(kind.Information.IMPERFECT_INFORMATION if game_class.has_hidden_information
                     else kind.Information.PERFECT_INFORMATION),
        utility=kind.Utility.CONSTANT_SUM,
        reward_model=kind.RewardModel.TERMINAL,
        max_num_players=max(counts),
        min_num_players=min(counts),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(game_class),
    )


class BoardlabSpielGame(pyspiel.Game):
    """An OpenSpiel game over one boardlab game; made by :func:`register`, one subclass per id."""

    game_id = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_class = boardlab.game_class(self.game_id)
        values = {**_parameters(game_class), **(params or {})}
        self.seed = int(values.pop("seed"))
        players = int(values.pop("players"))
        game = boardlab.load(self.game_id, players=players, **values)
        encoding = game.action_encoding()
        info = pyspiel.GameInfo(
            num_distinct_actions=encoding.num_actions,
            max_chance_outcomes=encoding.num_chance_outcomes,
            num_players=game.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0,
            max_game_length=game.max_moves,
        )
        super().__init__(_game_type(game_class), info, {"players": players, "seed": self.seed, **values})
        self.shared = _Shared(game, encoding)

    def __reduce__(self) -> tuple[Any, tuple[str, dict[str, Any]]]:
        # pyspiel's own pickling of a game rebuilds only its C++ part, leaving this object's
        # attributes unset; loading it again by name and parameters rebuilds all of it
        return load_registered, (self.game_id, self.get_parameters())

    @property
    def boardlab_game(self) -> Game:
        return self.shared.game

    def new_initial_state(self) -> BoardlabSpielState:
        return BoardlabSpielState(self, self.shared.game.new_state(seed=self.seed))

    def from_boardlab_state(self, state: State) -> BoardlabSpielState:
        """An OpenSpiel state over a copy of ``state`` (a position from elsewhere: a record,
        a benchmark's starting positions). Its history in OpenSpiel starts there."""
        if state.game != self.shared.game:
            raise ValueError(f"{state.game!r} is not this OpenSpiel game's {self.shared.game!r}")
        return BoardlabSpielState(self, state.copy())

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ViewObserver:
        if params:
            raise ValueError(f"{self.game_id}: observer parameters are not supported, got {params}")
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        private = pyspiel.PrivateInfoType.SINGLE_PLAYER
        if iig_obs_type is not None:
            private = iig_obs_type.private_info
        return ViewObserver(game_name(self.game_id), self.shared.game.observation_encoding(), perfect_recall, private)


class BoardlabSpielState(pyspiel.State):
    """An OpenSpiel state over a boardlab state (:attr:`boardlab_state`)."""

    def __init__(self, game: BoardlabSpielGame, state: State) -> None:
        super().__init__(game)
        self.shared = game.shared
        hidden = state.game.has_hidden_information
        self.inner = _Inner(state, [[] for _ in range(state.game.num_players)] if hidden else None)

    @property
    def boardlab_state(self) -> State:
        """The boardlab state this OpenSpiel state plays (not a copy: do not change it)."""
        return self.inner.state

    def _mapping(self) -> dict[int, Move]:
        inner = self.inner
        if inner.actions_ply != inner.state.ply:
            inner.actions = self.shared.encoding.action_map(inner.state)
            inner.actions_ply = inner.state.ply
        return inner.actions

    def current_player(self) -> int:
        player = self.inner.state.current_player()
        if player == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if player == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.inner.state.current_player():
            return []
        return sorted(self._mapping())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.shared.encoding.chance_actions(self.inner.state)

    def _apply_action(self, action: int) -> None:
        state = self.inner.state
        move = self._mapping().get(int(action))
        if move is None:
            move = self.shared.encoding.move_for(state, int(action))  # raises ActionError naming the index
        texts = self.inner.texts
        if texts is not None:
            for player, seen in enumerate(texts):
                seen.append(state.move_text(move, player))
        state.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        state = self.inner.state
        if state.is_over():
            return f"action {action}"
        try:
            return str(self._mapping()[int(action)])
        except KeyError:
            return f"action {action} (not legal at ply {state.ply})"

    def is_terminal(self) -> bool:
        return self.inner.state.is_over()

    def returns(self) -> list[float]:
        return list(self.inner.state.returns())

    def __str__(self) -> str:
        return self.inner.state.position()


class ViewObserver:
    """OpenSpiel's Python observer interface over boardlab views (``set_from``, ``string_from``).

    With perfect recall (an information state) it has a string but no tensor: the observation
    encoding holds the view alone, and a tensor that forgot the moves would pass for one that
    remembers them."""

    def __init__(self, short_name: str, encoding: ObservationEncoding, perfect_recall: bool, private: Any) -> None:
        self.short_name = short_name
        self.encoding = encoding
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor: np.ndarray | None = None if perfect_recall else np.zeros(encoding.size, np.float32)
        self.dict = {} if self.tensor is None else {"observation": self.tensor}

    def _viewer(self, player: int) -> int | None:
        # without private information the observer sees what spectators see
        return None if self.private == pyspiel.PrivateInfoType.NONE else player

    def set_from(self, state: BoardlabSpielState, player: int) -> None:
        if self.tensor is None:
            raise pyspiel.SpielError(
                f"{self.short_name} provides no information-state tensor (provides_information_state_tensor "
                "is False): use information_state_string, or observation_tensor for the view alone"
            )
        view = state.boardlab_state.view(self._viewer(player))
        self.tensor[:] = self.encoding.encode_view(view)

    def string_from(self, state: BoardlabSpielState, player: int) -> str:
        inner = state.inner
        viewer = self._viewer(player)
        text = json.dumps(inner.state.view(viewer), sort_keys=True, separators=(",", ":"))
        if not self.perfect_recall:
            return text
        if inner.texts is not None and viewer is not None:
            moves = inner.texts[viewer]
        elif inner.texts is not None:
            moves = ["?"] * len(inner.texts[0])
        else:
            moves = [str(move) for move in inner.state.history]
        return text + "\n" + " ".join(moves)


def register(game_id: str) -> str:
    """Register ``boardlab_<game_id>`` with OpenSpiel (once) and return the name."""
    name = game_name(game_id)
    if name in pyspiel.registered_names():
        return name
    game_class = boardlab.game_class(game_id)
    class_name = "Boardlab" + "".join(part.title() for part in game_id.split("_")) + "SpielGame"
    spiel_class = type(class_name, (BoardlabSpielGame,), {"game_id": game_id, "__module__": __name__})
    # bound here by its name so that pickle finds the class of a game where it looks for it
    globals()[class_name] = spiel_class
    pyspiel.register_game(_game_type(game_class), spiel_class)
    return name


def register_all() -> list[str]:
    """Register every boardlab game; the OpenSpiel names."""
    return [register(game_id) for game_id in boardlab.game_ids()]


def load(game_id: str, **params: Any) -> BoardlabSpielGame:
    """``pyspiel.load_game("boardlab_<game_id>", params)`` after registering it."""
    return load_registered(game_id, params)


def load_registered(game_id: str, params: dict[str, Any]) -> BoardlabSpielGame:
    """The game ``boardlab_<game_id>`` with ``params``, registering it first (how a pickled game
    is loaded, in a process that may not have registered it yet)."""
    game = pyspiel.load_game(register(game_id), params)
    return game  # type: ignore[no-any-return]


register_all()

__all__ = [
    "BoardlabSpielGame",
    "BoardlabSpielState",
    "ViewObserver",
    "game_name",
    "load",
    "load_registered",
    "register",
    "register_all",
]
