"""Analysis of a game: each seat's chances after every move, the engine's preferred move at
every decision, and the moves that lost the most (``boardlab analyse``, the browser's replay).

How the numbers are made (docs/analysis.md says it for players):

* **The judge.** Every evaluation here is the game's fitted one (boardlab.core.fitted: weights
  fitted to game results, so a chance is a probability measured on held-out games), or the
  hand-set one in a game without fitted weights.
* **Searching.** Each position of the game is searched once with ``mcts`` judging by it (a
  deterministic number of iterations, :func:`default_iterations`; no time limit, so the same
  record and seed give the same analysis on any machine). A searched position's own value
  gives its player to move the mean return of the move the search prefers (1 for a win on the
  spot or a proven one); with two players the other gets the rest, with more the others share
  the rest in proportion to ``evaluate()``. A finished position gets its result, a chance node
  (dice, a deal) ``evaluate()`` as it stands. Where the search prefers another move than the
  one played, the position after that move is searched the same way, so the two moves are
  valued alike: each by a search of the position it leads to.
* **Chances that agree with themselves.** A player's chance before a decision is the better,
  for that player, of the chance after the move played and the value of the engine's move;
  the chance after the move played is, in turn, the next position's. So the chances are worked
  out from the end of the game back: a won game ends at 1 for its winner, and the mover's
  chance never rises through their own move. A decision's **loss** is exactly how far the
  mover's chance falls through it, and a decision that loses anything has the engine's move
  as its preferred move. Where the game was decided by dice or cards, the fall happens on the
  chance move (its ``luck``), never on a player's decision before it: the chance after a
  decision that a chance move follows is the evaluation's, before the outcome is known.
* **Hidden information.** A finished game's record holds every card, so its analysis
  searches the true states: the chances know what the players did not. This is for a game
  that is over; a hint during play (:func:`hint_spec`) is searched on the seat's own view.
* **Continuous moves** (Honor): a physics search per candidate is far too slow, so a
  position's chances are ``evaluate()``, the engine's move is the game's ``easy`` computer
  player's, and it is valued by ``evaluate()`` after ``state.preview(move)`` (the placement
  resolved without tremor).
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import BoardlabError, OptionError
from ..core.fitted import FITTED, judging_by
from ..core.game import Game
from ..core.records import Record
from ..core.seeds import derive_seed
from ..core.state import State
from ..core.values import CHANCE, TERMINAL, Move, Player, Result
from . import agent_class, make_agent, parse_spec
from .levels import level_spec

#: the analysis format's name, sent with every analysis (the browser checks it)
FORMAT = "boardlab-analysis/1"

#: Iterations per searched position, chosen so that a 60-move game takes well under 30 s on
#: one busy core, the searches of the engine's own moves included (docs/analysis.md has the
#: measurements). A game not named gets the default.
ITERATIONS = {"towers": 1000, "sovereign": 200, "overseer": 100, "territories": 200}
DEFAULT_ITERATIONS = 300
#: the search's settings besides its budget: the "normal" computer's, without its jitter
#: (an analysis is meant to be repeatable) and without its time cap (same reason), judging
#: by the game's fitted evaluation
SEARCH = f"leaf_eval=true,widen=1,c=0.2,evaluation={FITTED}"
#: a decision is listed among the worst when it lost at least this much of a win
WORST_MIN_LOSS = 0.1
#: the level whose computer player names the preferred move in games with continuous moves
CONTINUOUS_LEVEL = "easy"


class AnalysisCancelled(BoardlabError):
    """The analysis was stopped (its ``stop`` callback said so) before it finished."""

    code = "refused"


@dataclass(frozen=True)
class MoveAnalysis:
    """One move of the game: who made it and what it was worth.

    ``chances`` are every seat's estimated return after the move (they sum to 1).
    For a decision: ``preferred`` is the engine's move (the move played when it is as good),
    ``best`` the mover's chance before the move (the value of the better of the two),
    ``played`` the mover's chance after the move played, ``loss`` = best - played (>= 0).
    Chance moves have None in these and a loss of 0; their ``luck`` is the most any seat's
    chance fell through them (0 for a decision).
    """

    number: int
    by: Player
    move: str
    chances: tuple[float, ...]
    preferred: str | None = None
    best: float | None = None
    played: float | None = None
    loss: float = 0.0
    luck: float = 0.0
    #: ``move`` and ``preferred`` as people read them (``State.move_text`` for spectators:
    #: Honor's "release the slab, over the middle of its tower", Territories' "rolled 6+2 = 8")
    text: str = ""
    preferred_text: str | None = None

    @property
    def is_decision(self) -> bool:
        return self.by >= 0

    @property
    def differs(self) -> bool:
        """The engine preferred another move than the one played."""
        return self.preferred is not None and self.preferred != self.move

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "by": self.by if self.by >= 0 else "chance",
            "move": self.move,
            "chances": [round(chance, 4) for chance in self.chances],
            "preferred": self.preferred,
            "best": None if self.best is None else round(self.best, 4),
            "played": None if self.played is None else round(self.played, 4),
            "loss": round(self.loss, 4),
            "luck": round(self.luck, 4),
            "text": self.text or self.move,
            "preferred_text": self.preferred_text if self.preferred_text is not None else self.preferred,
        }


@dataclass
class Analysis:
    """A whole game's analysis: the chances at the start, then one entry per move."""

    game_id: str
    seat_names: list[str]
    method: str  # "search" (mcts per position) or "evaluate" (continuous moves)
    agent: str  # the spec that searched (or named the preferred move)
    iterations: int | None
    seed: int
    start: tuple[float, ...]
    moves: list[MoveAnalysis] = field(default_factory=list)
    seconds: float = 0.0
    #: the evaluation the chances come from: "fitted" (weights fitted to game results) or "hand"
    evaluation: str = "hand"
    #: how a match that ended outside the rules ended ("White resigned"); None: by the rules
    ending: str | None = None

    @property
    def worst(self) -> list[MoveAnalysis]:
        """Every decision that lost at least :data:`WORST_MIN_LOSS`, worst first; ties go to
        the earlier move."""
        lossy = [entry for entry in self.moves if entry.is_decision and entry.loss >= WORST_MIN_LOSS]
        return sorted(lossy, key=lambda entry: (-entry.loss, entry.number))

    def series(self) -> list[tuple[float, ...]]:
        """Every seat's chances at the start (index 0) and after each move."""
        return [self.start, *(entry.chances for entry in self.moves)]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "game": self.game_id,
            "players": len(self.seat_names),
            "seat_names": list(self.seat_names),
            "method": self.method,
            "agent": self.agent,
            "iterations": self.iterations,
            "seed": self.seed,
            "evaluation": self.evaluation,
            "seconds": round(self.seconds, 2),
            "start": [round(chance, 4) for chance in self.start],
            "moves": [entry.to_json() for entry in self.moves],
            "worst": [entry.number for entry in self.worst],
            "ending": self.ending,
        }


# --- budgets and specs --------------------------------------------------------------------------
def default_iterations(game: Game) -> int:
    """The analysis's iterations per position for ``game`` (:data:`ITERATIONS`)."""
    return ITERATIONS.get(game.id, DEFAULT_ITERATIONS)


def search_spec(game: Game, iterations: int | None = None) -> str:
    """The ``mcts`` spec that searches each position of ``game``."""
    budget = default_iterations(game) if iterations is None else iterations
    if isinstance(budget, bool) or not isinstance(budget, int) or budget < 1:
        raise OptionError(f"analysis budget {budget!r}: give a whole number of iterations, 1 or more")
    return f"mcts:iterations={budget},{SEARCH}"


def hint_spec(game: Game, iterations: int | None = None) -> str:
    """The agent that suggests a move during play. Games with continuous moves get their
    ``normal`` computer (its placements take about a second). Otherwise, where information is
    hidden the hint is handed the seat's own view (a resampled state), so it is the game's
    ``hard`` computer, whose strength was measured on exactly such views (docs/levels.md)."""
    if game.continuous_moves:
        return level_spec(game, "normal")
    if game.has_hidden_information:
        return level_spec(game, "hard")
    return search_spec(game, iterations)


# --- the analysis -------------------------------------------------------------------------------
@dataclass(frozen=True)
class PositionJudgement:
    """What the engine thinks of one position of the game: its own value (``chances``), the
    engine's move there, and the value of the position after that move when it is not the
    move played (``alternative``)."""

    chances: tuple[float, ...]
    mover: Player
    preferred: Move | None = None
    alternative: tuple[float, ...] | None = None


def analyse(
    source: Record | Sequence[State],
    *,
    iterations: int | None = None,
    seed: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> Analysis:
    """Analyse a game: a :class:`Record` (its moves are replayed and checked) or a list of
    states, the start first, each the one before plus one move.

    ``iterations`` per searched position (default :func:`default_iterations`); ``seed``
    seeds every search (position ``p`` gets ``derive_seed(seed, p)``), so the same game and
    seed give the same analysis. ``on_progress(done, total)`` after each position of the
    game (with the search of the engine's move there, where it is another);
    ``stop()`` is asked between positions and ends the work with :class:`AnalysisCancelled`.
    """
    began = time.perf_counter()
    states, texts, ending = _game_of(source)
    game = states[0].game
    continuous = game.continuous_moves
    spec = analysis_spec(game, iterations)
    total = len(states)
    judged: list[PositionJudgement] = []
    with judging_by(FITTED) as judge:
        evaluation = "fitted" if judge.for_game(game) is not None else "hand"
        for index, state in enumerate(states):
            if stop is not None and stop():
                raise AnalysisCancelled(f"the analysis was stopped after {index} of {total} positions")
            played = texts[index] if index < len(texts) else None
            judged.append(judge_position(state, played, spec, seed, continuous))
            if on_progress is not None:
                on_progress(index + 1, total)
    analysis = assemble(states, texts, judged, spec=spec, evaluation=evaluation, seed=seed, ending=ending,
                        iterations=None if continuous else (default_iterations(game) if iterations is None else iterations))
    analysis.seconds = time.perf_counter() - began
    return analysis


def assemble(
    states: Sequence[State],
    texts: Sequence[str],
    judged: Sequence[PositionJudgement],
    *,
    spec: str,
    evaluation: str,
    seed: int,
    iterations: int | None,
    ending: Result | None,
) -> Analysis:
    """The analysis made of every position's judgement (``judged[i]`` of ``states[i]``, the
    start first; ``texts`` the moves' notation): the chances from the end back, one entry per
    move, then a match-level ``ending``. :func:`analyse` judges the positions in one go; the
    server judges them a few at a time and puts them together here, so the numbers agree."""
    game = states[0].game
    values = _chances_from_the_end(judged)
    analysis = Analysis(
        game_id=game.id,
        seat_names=[game.player_name(seat) for seat in range(game.num_players)],
        method="evaluate" if game.continuous_moves else "search",
        agent=spec,
        iterations=iterations,
        seed=seed,
        start=values[0],
        evaluation=evaluation,
    )
    for number, text in enumerate(texts, 1):
        position, before = judged[number - 1], states[number - 1]
        entry = _move_entry(number, text, position, values[number - 1], values[number])
        words = _words(before, states[number].last_move, text)
        preferred_words = None
        if entry.preferred is not None:
            preferred_words = words if entry.preferred == text else _words(before, position.preferred, entry.preferred)
        analysis.moves.append(dataclasses.replace(entry, text=words, preferred_text=preferred_words))
    if ending is not None:
        # the match ended outside the rules (a resignation, an agreed draw): the result is the
        # ending's, shown after the last move, which is judged as it was played, not blamed for it
        analysis.ending = ending.reason
        if analysis.moves:
            analysis.moves[-1] = dataclasses.replace(analysis.moves[-1], chances=tuple(ending.returns))
        else:
            analysis.start = tuple(ending.returns)
    return analysis


def analysis_spec(game: Game, iterations: int | None = None) -> str:
    """The spec that judges ``game``'s positions: a search, or for continuous moves the
    evaluation after a preview."""
    return _continuous_spec(game) if game.continuous_moves else search_spec(game, iterations)


def _words(state: State, move: Move | None, notation: str) -> str:
    """``move`` of ``state`` as spectators read it; its ``notation`` where the move is not at
    hand (a state whose history was dropped)."""
    return notation if move is None else state.move_text(move, None)


def _game_of(source: Record | Sequence[State]) -> tuple[list[State], list[str], Result | None]:
    """The states (start first), the moves' notation, and the result of a match-level ending."""
    if isinstance(source, Record):
        state = source.initial_state()
        states = [state.copy()]
        for _number, _text, state in source.states():
            states.append(state.copy())
        ending = None if source.ending is None else source.ending.result(states[-1].game)
        return states, list(source.moves), ending
    states = list(source)
    if not states:
        raise OptionError("nothing to analyse: no states")
    texts = []
    for number, (before, after) in enumerate(itertools.pairwise(states), 1):
        if after.ply != before.ply + 1 or after.last_move is None:
            raise OptionError(f"state {number} is not the one before it plus one move")
        texts.append(str(after.last_move))
    return states, texts, None


def judge_position(state: State, played: str | None, spec: str, seed: int, continuous: bool) -> PositionJudgement:
    """One position of the game: its own value, the engine's move, and (where that is not
    ``played``) the value of the position the engine's move leads to, judged alike."""
    mover = state.current_player()
    position_seed = derive_seed(seed, state.ply)
    if mover == TERMINAL:
        return PositionJudgement(tuple(state.returns()), mover)
    if mover == CHANCE:
        return PositionJudgement(_shares(state, None, 0.0), mover)
    if continuous:
        chosen = make_agent(spec, seed=position_seed, game=state.game).choose(state.copy())
        alternative = None if played is None or str(chosen) == played else _value_after_preview(state, chosen)
        return PositionJudgement(_shares(state, None, 0.0), mover, chosen, alternative)
    chances, preferred, proven = _search(state, spec, position_seed)
    if preferred is None or played is None or str(preferred) == played:
        return PositionJudgement(chances, mover, preferred)
    if proven:
        alternative = tuple(1.0 if seat == mover else 0.0 for seat in range(state.num_players))
    else:
        after = state.copy()
        after.apply(preferred)
        alternative = _value(after, spec, derive_seed(position_seed, 1))
    return PositionJudgement(chances, mover, preferred, alternative)


def _value(state: State, spec: str, seed: int) -> tuple[float, ...]:
    """A position's own value: the result, the evaluation of a chance node, or its search."""
    mover = state.current_player()
    if mover == TERMINAL:
        return tuple(state.returns())
    if mover == CHANCE:
        return _shares(state, None, 0.0)
    return _search(state, spec, seed)[0]


def _search(state: State, spec: str, seed: int) -> tuple[tuple[float, ...], Move | None, bool]:
    """Search one position: (every seat's chance by the search, the engine's move, whether that
    move is a win on the spot or a proven one)."""
    mover = state.current_player()
    agent = make_agent(spec, seed=seed, game=state.game)
    root = agent.search(state)  # type: ignore[attr-defined]
    # the root's own move to each child (a child shared by a transposition was made by another)
    visited = [(move, child) for move, child in zip(root.child_moves, root.children) if child.visits > 0]
    if not visited:  # a search that ran no iteration (it cannot, but a cap might): the evaluation
        return _shares(state, None, 0.0), None, False
    # A search may prove a win (``winning``) long before the visit counts say so; it is read
    # where the search has it, and ignored otherwise.
    proven = getattr(root, "winning", None)
    win = proven.move if proven is not None and proven.move is not None else _win_on_the_spot(state, mover, visited)
    if win is not None:
        return _shares(state, mover, 1.0), win, True
    preferred, top = max(visited, key=lambda pair: (pair[1].visits, pair[1].value / pair[1].visits))
    return _shares(state, mover, top.value / top.visits), preferred, False


def _win_on_the_spot(state: State, mover: Player, visited: list[tuple[Any, Any]]) -> Move | None:
    """A move that wins at once: the game's own ``winning_move()``, or a root move the search
    valued as a sure win that really ends the game in the mover's favour. The search stops as
    soon as it finds one, so such a move may have fewer visits than the others."""
    named = state.winning_move()
    if named is not None:
        return named
    for move, child in visited:
        if child.value / child.visits >= 0.999:
            trial = state.copy()
            trial.apply(move)
            if trial.current_player() == TERMINAL and trial.returns()[mover] == 1.0:
                return move  # type: ignore[no-any-return]
    return None


def _shares(state: State, mover: Player | None, mover_share: float) -> tuple[float, ...]:
    """Every seat's chance: ``mover`` gets ``mover_share`` (None: nobody is searched) and the
    others split the rest in proportion to the evaluation; the whole sums to 1."""
    n = state.num_players
    estimate = state.evaluate()
    weights = [max(0.0, float(value)) for value in estimate] if estimate is not None else [1.0] * n
    others = [seat for seat in range(n) if seat != mover]
    rest = 1.0 - mover_share if mover is not None else 1.0
    total = sum(weights[seat] for seat in others)
    chances = [0.0] * n
    if mover is not None:
        chances[mover] = mover_share
    for seat in others:
        chances[seat] = rest * (weights[seat] / total if total > 0 else 1.0 / len(others))
    return tuple(chances)


def _chances_from_the_end(judged: Sequence[PositionJudgement]) -> list[tuple[float, ...]]:
    """Every position's chances, the last first: the last position's own value; before a
    decision, the better for its mover of the chances after the move played and the value
    of the engine's move; a chance node's own evaluation (what follows is chance's)."""
    values: list[tuple[float, ...]] = [judged[-1].chances] * len(judged)
    for index in range(len(judged) - 2, -1, -1):
        position = judged[index]
        line = values[index + 1]
        if position.mover < 0:
            values[index] = position.chances
        elif position.alternative is not None and position.alternative[position.mover] > line[position.mover]:
            values[index] = position.alternative
        else:
            values[index] = line
    return values


def _move_entry(
    number: int, text: str, position: PositionJudgement, before: tuple[float, ...], after: tuple[float, ...]
) -> MoveAnalysis:
    mover = position.mover
    if mover < 0:
        luck = max(0.0, *(was - now for was, now in zip(before, after)))
        return MoveAnalysis(number, mover, text, after, luck=luck)
    if position.preferred is None:
        return MoveAnalysis(number, mover, text, after)
    best, played = before[mover], after[mover]
    preferred = str(position.preferred) if best > played else text
    return MoveAnalysis(number, mover, text, after, preferred, best, played, max(0.0, best - played))


# --- games with continuous moves ----------------------------------------------------------------
def _continuous_spec(game: Game) -> str:
    """The ``easy`` computer of ``game``, without a time cap where it has one (``seconds=0``):
    its budget is a count of simulations, so the analysis is the same on a busy machine."""
    spec = level_spec(game, CONTINUOUS_LEVEL)
    name, params = parse_spec(spec)
    if "seconds" in agent_class(name).params and "seconds" not in params:
        spec += ",seconds=0" if ":" in spec else ":seconds=0"
    return spec


def _value_after_preview(state: State, move: Move) -> tuple[float, ...]:
    """Every seat's chance after ``move`` by the result or the evaluation of its preview."""
    after = state.preview(str(move))
    if after.current_player() == TERMINAL:
        return tuple(after.returns())
    return _shares(after, None, 0.0)


__all__ = [
    "DEFAULT_ITERATIONS",
    "FORMAT",
    "ITERATIONS",
    "Analysis",
    "AnalysisCancelled",
    "MoveAnalysis",
    "PositionJudgement",
    "analyse",
    "analysis_spec",
    "assemble",
    "default_iterations",
    "hint_spec",
    "judge_position",
    "search_spec",
]
