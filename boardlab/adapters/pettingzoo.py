"""Every boardlab game as a PettingZoo AEC environment: ``env("towers", **options)``.

* Agents are ``player_0 .. player_{n-1}``; chance is resolved inside :meth:`step` with the
  environment's seeded generator (a chance node is never an agent's turn).
* Actions are ``Discrete(num_actions)`` of the game's :class:`~boardlab.core.ActionEncoding`.
  Each observation is a dict: ``observation``, the game's fixed-size numeric encoding of the
  seat's view (:class:`~boardlab.core.ObservationEncoding`, float32 in [0, 1]), and
  ``action_mask`` (int8, 1 for the legal actions of that seat, all 0 when it is not to move).
* Rewards come at the end: each seat's return in [0, 1] (a win 1, a k-way draw 1/k).
* An illegal action raises :class:`~boardlab.core.ActionError` naming the index (the core
  refuses illegal moves; wrap the environment with PettingZoo's own wrappers for penalties),
  and so does an action that is not an index (``None`` while the agent's game goes on).
* :attr:`BoardlabEnv.boardlab_state` is the boardlab state being played. ``state()`` is
  PettingZoo's: there is no global-state encoding, so it raises ``NotImplementedError``.
* ``render_mode="ansi"``: :meth:`render` returns the game's terminal drawing as plain text.

Territories' player proposals make its action space large (about 1.5 million actions, more
with ``trade_territories``): the mask is as large, so :data:`MAX_MASK` bounds it.
"""

from __future__ import annotations

import operator
import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover - depends on the installed extras
    raise ImportError("the PettingZoo adapter needs the extra: pip install 'boardlab[pettingzoo]'") from error

from rich.text import Text

import boardlab
from boardlab.core import ActionError, Game, OptionError, State

#: the largest action space an environment accepts: its mask is sent with every observation
MAX_MASK = 1 << 22


class BoardlabEnv(AECEnv):
    """A PettingZoo AEC environment over one boardlab game (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "name": "boardlab_v0", "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        self.game = game
        self.encoding = game.action_encoding()
        self.observer = game.observation_encoding()
        if self.encoding.num_actions > MAX_MASK:
            raise OptionError(
                f"{game.id}{_options_text(game)}: {self.encoding.num_actions:,} actions are too many for "
                f"an action mask (at most {MAX_MASK:,}); choose options with fewer moves"
            )
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise OptionError(f"render_mode={render_mode!r}: choose one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"boardlab_{game.id}_v{game.rules_version}"}
        self.possible_agents = [f"player_{seat}" for seat in range(game.num_players)]
        self.seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Box(self.observer.low, self.observer.high, self.observer.shape, np.float32)
        mask = spaces.Box(0, 1, (self.encoding.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask}) for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents}
        # not ``state``: that name is PettingZoo's method for a global state
        self.boardlab_state: State = game.new_state(seed=0)
        self._rng = random.Random(0)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.boardlab_state = self.game.new_state(seed=self._rng.getrandbits(64))
        self._resolve_chance()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._deciding_agent()

    def _resolve_chance(self) -> None:
        while self.boardlab_state.is_chance():
            outcomes = self.boardlab_state.chance_outcomes()
            moves = [move for move, _ in outcomes]
            weights = [p for _, p in outcomes]
            self.boardlab_state.apply(self._rng.choices(moves, weights)[0])

    def _deciding_agent(self) -> str:
        player = self.boardlab_state.current_player()
        if player >= 0:
            return self.possible_agents[player]
        # at the end every agent still listed steps once with None, as PettingZoo expects
        return self.agents[0] if self.agents else self.possible_agents[0]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.seat[agent]
        mask = np.zeros(self.encoding.num_actions, np.int8)
        if self.boardlab_state.current_player() == seat:
            mask[self.encoding.legal_actions(self.boardlab_state)] = 1
        values = np.asarray(self.observer.encode(self.boardlab_state, seat), np.float32)
        return {"observation": values, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            if self.agents:
                self.agent_selection = self.agents[0]
            return
        try:
            index = operator.index(action)  # type: ignore[arg-type]
        except TypeError:
            raise ActionError(
                f"{agent} is to move: an action is an index below {self.encoding.num_actions}, got {action!r}"
                + (" (None is only for an agent whose game has ended)" if action is None else "")
            ) from None
        move = self.encoding.move_for(self.boardlab_state, index)
        self._cumulative_rewards[agent] = 0.0
        self.boardlab_state.apply(move)
        self._resolve_chance()
        if self.boardlab_state.is_over():
            returns = self.boardlab_state.returns()
            for a in self.agents:
                self.rewards[a] = float(returns[self.seat[a]])
                self.terminations[a] = True
        else:
            for a in self.agents:
                self.rewards[a] = 0.0
        self._accumulate_rewards()
        self.agent_selection = self._deciding_agent()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        # the game draws in rich markup for the terminal; "ansi" asks for the text itself
        return Text.from_markup(self.boardlab_state.render(None)).plain

    def close(self) -> None:
        pass


def _options_text(game: Game) -> str:
    """The options that differ from their defaults, as ``" (name=value, ...)"``, or nothing."""
    changed = [f"{option.name}={game.options[option.name]!r}" for option in game.options_spec
               if game.options[option.name] != option.default]
    return f" ({', '.join(changed)})" if changed else ""


def env(game_id: str, players: int | None = None, render_mode: str | None = None, **options: Any) -> BoardlabEnv:
    """A PettingZoo AEC environment for ``boardlab.load(game_id, players, **options)``."""
    return BoardlabEnv(boardlab.load(game_id, players=players, **options), render_mode=render_mode)


__all__ = ["MAX_MASK", "BoardlabEnv", "env"]
