"""What an agent is, and the registry that builds agents from spec strings.

It lives in the core so that a game may ship an agent of its own (declared, as every
agent is, in the entry-point group ``boardlab.agents``) while depending on the core only.

An agent is a strategy: ``choose(state) -> Move``. The state it is given comes
from :meth:`State.resample` for its own seat, so it holds no hidden information
of other players and no usable seed; agents may copy it and search freely.

Spec strings name an agent and its parameters: ``mcts``,
``mcts:iterations=2000``, ``mcts:seconds=1.5,c=1.2``.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Mapping
from typing import Any, ClassVar

from .entry_points import AGENT_GROUP, declared, distribution_text, is_own
from .errors import OptionError, UnsupportedAgentError
from .state import State
from .values import Move, Player


class Agent:
    """Base class. Subclasses set ``name`` and ``params`` and implement :meth:`choose`.

    ``params`` maps each parameter to (type, default, one-line help); the
    constructor validates keyword arguments against it.
    """

    name: ClassVar[str]
    summary: ClassVar[str] = ""
    params: ClassVar[dict[str, tuple[type, Any, str]]] = {}
    #: the ids of the games this agent plays; None: every game, through the protocol only
    games: ClassVar[tuple[str, ...] | None] = None

    @classmethod
    def describe(cls, params: Mapping[str, str]) -> str:
        """What this agent plays with ``params`` (a spec's settings, as text), in a player's
        words; the lobby and docs/levels.md show it beside a level. Default: the summary."""
        return cls.summary or cls.name

    @staticmethod
    def count_text(params: Mapping[str, str], key: str) -> str:
        """A count setting as a player reads it ("2,000"), for :meth:`describe`."""
        return f"{int(params[key]):,}" if key in params else "a set number of"

    @classmethod
    def supports(cls, game_id: str) -> bool:
        """Whether this agent plays the game ``game_id``."""
        return cls.games is None or game_id in cls.games

    @classmethod
    def check_supports(cls, game_id: str) -> None:
        """Raise :class:`UnsupportedAgentError` naming the agent's games unless it plays ``game_id``."""
        if not cls.supports(game_id):
            assert cls.games is not None
            raise UnsupportedAgentError(
                f"agent {cls.name} plays only {', '.join(cls.games)}, not {game_id}; "
                "`boardlab agents` lists the agents for every game"
            )

    def __init__(self, seed: int | None = None, **kwargs: Any) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        for key in kwargs:
            if key not in self.params:
                valid = ", ".join(sorted(self.params)) or "(none)"
                raise OptionError(f"agent {self.name}: unknown parameter {key!r}; valid: {valid}")
        self.settings: dict[str, Any] = {}
        for key, (kind, default, _help) in self.params.items():
            value = kwargs.get(key, default)
            if value is not None and key in kwargs:
                try:
                    value = _coerce(kind, value)
                except (TypeError, ValueError):
                    raise OptionError(
                        f"agent {self.name}: parameter {key}={kwargs[key]!r} is not {kind_words(kind)}"
                    ) from None
            self.settings[key] = value
        self._configure()

    def _configure(self) -> None:
        """Hook: check settings and derive fields (raise OptionError on bad values)."""

    def choose(self, state: State) -> Move:
        """Pick a move for ``state.current_player()`` (one of ``state.legal_moves()``
        or, for continuous games, any legal move)."""
        raise NotImplementedError

    def reset(self) -> None:
        """Forget anything kept between moves (a new game starts, or moves were taken back)."""

    def carry_over(self, searched: Agent) -> None:
        """Take over what ``searched``, this agent's copy that thought a decision elsewhere (a
        worker process), learned: its memory between moves. The default takes every field."""
        self.__dict__.update(searched.__dict__)

    def own_time_cap(self) -> float | None:
        """The most wall time a decision may take by the agent's own settings, before any
        deadline :meth:`limit_time` sets: its ``seconds``; None when it has no cap of its own.
        An agent whose cap has a default that ``seconds`` leaves unsaid (a level's) says it here."""
        seconds = self.settings.get("seconds")
        return float(seconds) if isinstance(seconds, (int, float)) and seconds > 0 else None

    def limit_time(self, seconds: float | None) -> None:
        """Cap the next decisions at ``seconds`` of wall time (a deadline: the server's, a clock's),
        or lift the cap with None; the agent's own cap stays when it is smaller. A search that
        reaches the cap plays the best move it has found so far. The default does nothing: an
        agent that does not search decides in its own (short) time."""

    def interrupt(self) -> None:
        """Asked from another thread while :meth:`choose` runs: decide now with what is known.
        Agents that search override it; the default decides in its own time."""

    def accepts_draw(self, state: State, seat: Player) -> bool:
        """Whether ``seat`` agrees to end the game as a draw in ``state`` (a resampled state).

        The default accepts when the game's evaluation gives ``seat`` no more than a
        draw's share, and declines when the game has no evaluation.
        """
        estimate = state.evaluate()
        if estimate is None:
            return False
        return float(estimate[seat]) <= 1.0 / state.game.num_players

    def spec(self) -> str:
        """The spec string that rebuilds this agent (without its seed)."""
        changed = [
            f"{k}={v}" for k, v in self.settings.items() if v != self.params[k][1]
        ]
        return self.name + (":" + ",".join(changed) if changed else "")

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.settings.items())
        return f"{type(self).__name__}({args}{', ' if args else ''}seed={self.seed!r})"


def kind_words(kind: type) -> str:
    """What a parameter of ``kind`` takes, in words: "a whole number", "true or false", "text"."""
    return {float: "a finite number", int: "a whole number", bool: "true or false", str: "text"}.get(
        kind, f"a {kind.__name__}")


def _coerce(kind: type, value: Any) -> Any:
    if kind is float:
        number = float(value)
        if not math.isfinite(number):
            raise ValueError(value)  # nan or inf: a budget that never ends, a score that never compares
        return number
    if kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).lower()
        if text in ("1", "true", "yes", "on"):
            return True
        if text in ("0", "false", "no", "off"):
            return False
        raise ValueError(value)
    return kind(value)


_AGENTS: dict[str, type[Agent]] = {}
#: agent name -> why another package's agent could not be loaded
_AGENT_FAILURES: dict[str, str] = {}
#: the names of the agents loaded from other packages' entry points
_PLUGIN_AGENTS: set[str] = set()
_agents_discovered = False
_agents_discovering = False
# the server builds agents from several threads: the first loads them, the others wait
_agents_lock = threading.RLock()


def register_agent(agent_class: type[Agent]) -> type[Agent]:
    """Make an agent buildable by its ``name`` in this interpreter (the installed agents are
    found through their entry points: :data:`~boardlab.core.entry_points.AGENT_GROUP`)."""
    existing = _AGENTS.get(agent_class.name)
    if existing is not None and existing is not agent_class:
        raise ValueError(f"agent name {agent_class.name!r} is already registered")
    _AGENTS[agent_class.name] = agent_class
    return agent_class


def registered_agents() -> dict[str, type[Agent]]:
    """Every agent by name: those of the installed packages' entry points (boardlab's own
    and other packages'), loaded on first use, and any registered in this interpreter."""
    _discover_agents()
    return dict(_AGENTS)


def agent_failures() -> dict[str, str]:
    """The agents of other installed packages that could not be loaded: name -> the cause."""
    _discover_agents()
    return dict(_AGENT_FAILURES)


def _discover_agents() -> None:
    """Load every entry point of the agent group, once. One of boardlab's own that fails to
    load raises (the install is broken); another package's is left out with its cause."""
    global _agents_discovered, _agents_discovering
    if _agents_discovered:
        return
    with _agents_lock:
        # an agent module's own import may ask (same thread, lock held): it gets what is loaded so far
        if _agents_discovered or _agents_discovering:
            return
        _agents_discovering = True
        try:
            _load_agents()
            _agents_discovered = True
        finally:
            _agents_discovering = False


def _load_agents() -> None:
    """Load the agent group's entry points not loaded yet (boardlab's own first)."""
    for entry_point in declared(AGENT_GROUP):
        taken = _AGENTS.get(entry_point.name)
        if taken is not None and is_own(entry_point):
            continue  # registered by name in this interpreter before discovery
        try:
            if taken is not None:
                raise LookupError(f"the name is taken by {taken.__module__}.{taken.__qualname__}")
            loaded = entry_point.load()
            if not (isinstance(loaded, type) and issubclass(loaded, Agent)):
                raise TypeError(f"{entry_point.value} is not an Agent subclass")
            if loaded.name != entry_point.name:
                raise LookupError(f"the entry point is named {entry_point.name!r} but names the agent {loaded.name!r}")
        except Exception as exc:  # any failure of foreign code: reported, the other agents stay
            if is_own(entry_point):
                raise ImportError(f"boardlab's agent {entry_point.name!r} ({entry_point.value}) failed to load: {exc}") from exc
            _AGENT_FAILURES[entry_point.name] = (
                f"{entry_point.value} (from {distribution_text(entry_point)}): {type(exc).__name__}: {exc}"
            )
            continue
        _AGENTS[entry_point.name] = loaded
        if not is_own(entry_point):
            _PLUGIN_AGENTS.add(entry_point.name)


def refresh_agents() -> None:
    """Look for other packages' agents again, as after installing or removing a package in a
    running interpreter: their agents are dropped and the entry points read anew (see
    :func:`boardlab.refresh_plugins`)."""
    global _agents_discovered
    with _agents_lock:
        for name in _PLUGIN_AGENTS:
            _AGENTS.pop(name, None)
        _PLUGIN_AGENTS.clear()
        _AGENT_FAILURES.clear()
        _agents_discovered = False
        _discover_agents()


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=2000,c=1.4"`` -> ``("mcts", {"iterations": "2000", "c": "1.4"})``."""
    spec = spec.strip()
    if not spec:
        raise OptionError("empty agent spec")
    name, _, rest = spec.partition(":")
    params: dict[str, str] = {}
    if rest.strip():
        for part in rest.split(","):
            key, eq, value = part.partition("=")
            if not eq or not key.strip():
                raise OptionError(f"agent spec {spec!r}: expected key=value, got {part!r}")
            params[key.strip()] = value.strip()
    return name.strip(), params
