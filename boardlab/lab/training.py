"""Fitting a game's evaluation to game results (``boardlab train GAME``; docs/evaluation.md).

The cycle, each step resumable or cheap to repeat:

1. **Play.** Games between cheap agents (by default the game's ``beginner`` and ``easy``
   levels, whose drawn moves vary the games) are played as a lab study
   (:mod:`boardlab.lab.study`): seeded, stored as they finish in the study folder, so an
   interrupted run continues where it stopped, on this machine's processes or on Ray.
2. **Read.** Every decision position of every game is replayed from its record; each gives
   the seats' evaluation terms (:func:`boardlab.core.fitted.evaluation_terms`), the hand-set
   evaluation's chances, and the game's result. Game ``i`` of a pairing is *held out* (never
   fitted) when ``i % HELD_OUT_EVERY == fifth``, the last fifth by default; holding out each
   fifth in turn (``boardlab train --held-out K``) shows how much one held-out set can read.
3. **Fit.** A conditional-logit (softmax) model of the result on the terms, one weight per
   term shared by the seats and a bias per seat, by Newton's method on the log loss with a
   little L2 (the chess programmers' "Texel tuning"; numpy); then, with those weights fixed,
   the two numbers of the curve that bends each seat's distance from the mean score
   (boardlab.core.fitted), by Newton's method again.
4. **Measure.** On the held-out games: log loss, Brier score and a reliability table of the
   game's own ``evaluate()`` by hand and by the new weights (the whole evaluation, with
   every position it judges outside the model; :mod:`boardlab.lab.calibration`).
5. **Write.** The weights, tagged with the game's rules version, player count and options,
   and what was measured, into a weights file (the game's own by default).

A position's target is the game's returns (a win 1, a loss 0, a draw shared), so a draw
counts as half a win for each side, as the returns do everywhere else.
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..agents import resolve_spec
from ..core.errors import OptionError
from ..core.fitted import HAND, EvaluationChoice, FittedEvaluation, judging_by, terms_of
from ..core.game import Game
from ..core.records import Record
from ..core.registry import load
from .calibration import Calibration, calibration
from .stats import GameOutcome
from .store import StudyFolder
from .study import Study, Variant

#: the agents of the games the evaluation is fitted to, unless the command names others
DEFAULT_PAIRINGS: tuple[tuple[str, ...], ...] = (("beginner", "beginner"), ("beginner", "easy"), ("easy", "easy"))
#: game i is held out when i % HELD_OUT_EVERY == the held-out fifth (by default the last)
HELD_OUT_EVERY = 5
HELD_OUT_FIFTH = HELD_OUT_EVERY - 1
#: L2 penalty on the standardized weights: enough to keep a term that never varies at 0
L2_PENALTY = 1e-4


# --- the games ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TrainingSetup:
    """What decides the training games: the game, its options, the agent pairings (each a
    spec per seat, repeated round the table), the games per pairing and the seed."""

    game_id: str
    players: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    pairings: tuple[tuple[str, ...], ...] = DEFAULT_PAIRINGS
    games: int = 200
    seed: int = 0

    def game(self) -> Game:
        return load(self.game_id, players=self.players, **self.options)

    def study(self) -> Study:
        """The lab study that plays the games (one variant per pairing, seats rotated), its
        agents checked: OptionError names what is wrong before anything is played."""
        game = self.game()
        terms_of(game)  # refuse a game that offers no terms before anything is played
        if self.games < HELD_OUT_EVERY:
            raise OptionError(f"train at least {HELD_OUT_EVERY} games per pairing (one in {HELD_OUT_EVERY} is held out)")
        variants = []
        for pairing in self.pairings:
            specs = tuple(resolve_spec(game, spec) for spec in pairing)
            variants.append(Variant(" vs ".join(pairing), {}, specs))
        study = Study(
            game_id=game.id, variants=tuple(variants), games=self.games, seed=self.seed, players=game.num_players,
            rotate=True, options=dict(self.options),
        )
        # an unknown agent or a pairing of the wrong size is named before the study folder is
        # opened, which would otherwise only say that its stored games are of another study
        study.validate()
        return study


def is_held_out(index: int, fifth: int = HELD_OUT_FIFTH) -> bool:
    """Whether game ``index`` of a pairing is kept out of the fit, to measure it."""
    if not 0 <= fifth < HELD_OUT_EVERY:
        raise OptionError(f"the held-out fifth is 0 to {HELD_OUT_EVERY - 1}, not {fifth}")
    return index % HELD_OUT_EVERY == fifth


def split_records(
    study: Study, folder: StudyFolder, outcomes: Mapping[str, Sequence[GameOutcome]], fifth: int = HELD_OUT_FIFTH
) -> tuple[list[Record], list[Record]]:
    """The records of a training study's finished games: (to fit, held out: the games of each
    pairing numbered ``fifth`` modulo 5)."""
    train: list[Record] = []
    held_out: list[Record] = []
    for variant in study.variants:
        for outcome in outcomes[variant.name]:
            record = Record.load(folder.record_path(variant.name, outcome.index), validate=False)
            (held_out if is_held_out(outcome.index, fifth) else train).append(record)
    return train, held_out


# --- the positions ------------------------------------------------------------------------------
@dataclass
class Positions:
    """Decision positions of finished games: per position the game's returns, the hand-set
    evaluation's chances and the seats' terms (None where the evaluation judges outside the
    model; a seat's None: out of the game)."""

    players: int
    returns: list[tuple[float, ...]] = field(default_factory=list)
    hand: list[tuple[float, ...]] = field(default_factory=list)
    terms: list[list[list[float] | None] | None] = field(default_factory=list)
    games: int = 0
    #: per position, the number of its game among these (0, 1, ...): a game's positions are
    #: not independent, so intervals resample whole games
    game_of: list[int] = field(default_factory=list)

    def __len__(self) -> int:
        return len(self.returns)


def read_positions(
    records: Iterable[Record], players: int, on_record: Callable[[], None] | None = None
) -> Positions:
    """The decision positions of finished ``records``, each with the hand-set chances and the
    terms; an unfinished game is skipped (it says nothing about who wins). ``on_record`` is
    called after each record."""
    found = Positions(players)
    with judging_by(HAND):
        for record in records:
            rows, returns = _read_record(record)
            if returns is not None:
                for hand, terms in rows:
                    found.returns.append(returns)
                    found.hand.append(hand)
                    found.terms.append(terms)
                    found.game_of.append(found.games)
                found.games += 1
            if on_record is not None:
                on_record()
    return found


Row = tuple[tuple[float, ...], "list[list[float] | None] | None"]


def _read_record(record: Record) -> tuple[list[Row], tuple[float, ...] | None]:
    """(hand-set chances, terms) of each decision position, and the game's returns (None: unfinished)."""
    state = record.initial_state()
    read_terms = terms_of(state.game).read
    rows: list[Row] = []

    def take(position: Any) -> None:
        if position.current_player() >= 0:
            read = read_terms(position)
            terms = None if read is None else [None if seat is None else list(seat) for seat in read]
            rows.append((_chances(position), terms))

    take(state)
    last = state
    for _number, _text, last in record.states():
        take(last)
    if record.ending is not None:
        return rows, tuple(float(value) for value in record.ending.result(last.game).returns)
    if last.is_over():
        return rows, tuple(float(value) for value in last.returns())
    return rows, None


def judged_by(records: Iterable[Record], model: FittedEvaluation, on_record: Callable[[], None] | None = None
              ) -> list[tuple[float, ...]]:
    """The game's own ``evaluate()`` by ``model``'s weights at every decision position of the
    finished ``records``, in :func:`read_positions`'s order."""
    chances: list[tuple[float, ...]] = []
    with judging_by(EvaluationChoice("candidate", model)):
        for record in records:
            state = record.initial_state()
            found: list[tuple[float, ...]] = []
            if state.current_player() >= 0:
                found.append(_chances(state))
            last = state
            for _number, _text, last in record.states():
                if last.current_player() >= 0:
                    found.append(_chances(last))
            if record.ending is not None or last.is_over():
                chances += found
            if on_record is not None:
                on_record()
    return chances


def _chances(state: Any) -> tuple[float, ...]:
    return tuple(float(value) for value in state.evaluate())


# --- the fit ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Fit:
    """Fitted weights (one per term, in the terms' order) and biases (one per seat), and the
    training log loss they reach."""

    weights: tuple[float, ...]
    seat_bias: tuple[float, ...]
    log_loss: float
    positions: int
    iterations: int
    curve: tuple[float, float] = (1.0, 0.0)


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise OptionError("fitting needs numpy: pip install 'boardlab[train]'") from None
    return numpy


def fit(positions: Positions, l2: float = L2_PENALTY, iterations: int = 50) -> Fit:
    """Fit the softmax model to ``positions`` (those with terms) by Newton's method.

    Terms are standardized (by their spread over all seats) before the fit and the weights
    scaled back after it; a common shift of a term cancels in the softmax. The last seat's
    bias is 0 (only differences of scores matter). Cost: a few dozen passes over the data."""
    np = _numpy()
    players = positions.players
    rows = [index for index, terms in enumerate(positions.terms) if terms is not None]
    if len(rows) < 10:
        raise OptionError(f"only {len(rows)} positions to fit: play more games")
    count = len(next(seat for index in rows for seat in positions.terms[index] if seat is not None))  # type: ignore[union-attr]
    values = np.zeros((len(rows), players, count))
    standing = np.ones((len(rows), players), dtype=bool)
    for row, index in enumerate(rows):
        for seat, seat_terms in enumerate(positions.terms[index]):  # type: ignore[arg-type]
            if seat_terms is None:
                standing[row, seat] = False
            else:
                values[row, seat] = seat_terms
    targets = np.array([positions.returns[index] for index in rows], dtype=float)
    scale = values[standing].std(axis=0)
    scale[scale < 1e-12] = 1.0
    # the features: standardized terms, then a seat indicator for every seat but the last
    features = np.concatenate([values / scale, np.broadcast_to(np.eye(players)[:, : players - 1],
                                                              (len(rows), players, players - 1))], axis=2)
    size = features.shape[2]
    theta = np.zeros(size)
    penalty = np.full(size, l2)
    penalty[count:] = 0.0
    loss = math.inf
    done = 0
    for step_number in range(1, iterations + 1):
        done = step_number
        chances, loss = _softmax_loss(np, features, standing, targets, theta, penalty)
        residual = chances - targets
        gradient = np.einsum("ns,nsk->k", residual, features) / len(rows) + penalty * theta
        mean = np.einsum("ns,nsk->nk", chances, features)
        second = np.einsum("ns,nsk,nsl->kl", chances, features, features) - np.einsum("nk,nl->kl", mean, mean)
        hessian = second / len(rows) + np.diag(penalty) + 1e-9 * np.eye(size)
        step = np.linalg.solve(hessian, gradient)
        # a damped step: halve it until the loss does not rise (Newton can overshoot far from the optimum)
        shrink = 1.0
        while shrink > 1e-4:
            trial = theta - shrink * step
            _trial_chances, trial_loss = _softmax_loss(np, features, standing, targets, trial, penalty)
            if trial_loss <= loss + 1e-12:
                break
            shrink /= 2
        theta = trial
        if abs(loss - trial_loss) < 1e-10 and float(np.max(np.abs(shrink * step))) < 1e-7:
            loss = trial_loss
            break
        loss = trial_loss
    weights = tuple(float(value) for value in theta[:count] / scale)
    bias = (*(float(value) for value in theta[count:]), 0.0)
    curve, plain = _fit_curve(np, features @ theta, standing, targets)
    return Fit(weights, bias, float(plain), len(rows), done, curve)


def _fit_curve(np: Any, scores: Any, standing: Any, targets: Any, iterations: int = 30) -> tuple[tuple[float, float], float]:
    """The curve (linear, square >= 0) that bends the scores' distances from their mean to fit
    the results best, by Newton's method on the two numbers; and the log loss it reaches."""
    alive = standing.sum(axis=1, keepdims=True)
    mean = np.where(standing, scores, 0.0).sum(axis=1, keepdims=True) / alive
    distance = np.where(standing, scores - mean, 0.0)
    features = np.stack([distance, distance * np.abs(distance)], axis=2)
    theta = np.array([1.0, 0.0])
    none = np.zeros(2)
    _chances, loss = _softmax_loss(np, features, standing, targets, theta, none)
    for _ in range(iterations):
        chances, loss = _softmax_loss(np, features, standing, targets, theta, none)
        gradient = np.einsum("ns,nsk->k", chances - targets, features) / len(scores)
        mean_feature = np.einsum("ns,nsk->nk", chances, features)
        hessian = (np.einsum("ns,nsk,nsl->kl", chances, features, features)
                   - np.einsum("nk,nl->kl", mean_feature, mean_feature)) / len(scores) + 1e-9 * np.eye(2)
        step = np.linalg.solve(hessian, gradient)
        shrink = 1.0
        while shrink > 1e-4:
            trial = theta - shrink * step
            trial[1] = max(trial[1], 0.0)  # a curve that flattens large leads could stop rising
            _trial, trial_loss = _softmax_loss(np, features, standing, targets, trial, none)
            if trial_loss <= loss + 1e-12:
                break
            shrink /= 2
        else:
            break
        done = abs(loss - trial_loss) < 1e-10
        theta, loss = trial, trial_loss
        if done:
            break
    return (float(theta[0]), float(theta[1])), float(loss)


def _softmax_loss(np: Any, features: Any, standing: Any, targets: Any, theta: Any, penalty: Any) -> tuple[Any, float]:
    scores = features @ theta
    scores = np.where(standing, scores, -np.inf)
    scores = scores - scores.max(axis=1, keepdims=True)
    exps = np.where(standing, np.exp(scores), 0.0)
    chances = exps / exps.sum(axis=1, keepdims=True)
    logs = np.where(standing, np.log(np.clip(chances, 1e-300, None)), 0.0)
    loss = -(targets * logs).sum(axis=1).mean() + 0.5 * float((penalty * theta * theta).sum())
    return chances, float(loss)


# --- the whole step: fit on some games, measure on others ------------------------------------------
@dataclass(frozen=True)
class TrainingReport:
    """What a training run made and measured: the weights (with ``about`` filled in) and the
    held-out calibration of the game's evaluate() by hand and by them."""

    model: FittedEvaluation
    fit: Fit
    hand: Calibration
    fitted: Calibration
    train_games: int
    held_out_games: int

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.model.game_id,
            "players": self.model.players,
            "options": dict(self.model.options),
            "train": {"games": self.train_games, "positions": self.fit.positions},
            "held_out": {"games": self.held_out_games, "hand": self.hand.to_json(), "fitted": self.fitted.to_json()},
            "weights": dict(zip(self.model.terms, self.model.weights)),
            "seat_bias": list(self.model.seat_bias),
            "curve": {"linear": self.model.curve[0], "square": self.model.curve[1]},
        }


def train_and_measure(
    game: Game,
    train: Sequence[Record],
    held_out: Sequence[Record],
    about: dict[str, Any],
    on_record: Callable[[str], None] | None = None,
) -> TrainingReport:
    """Fit ``game``'s weights to the ``train`` records and measure them against the hand-set
    evaluation on the ``held_out`` ones. ``on_record(step)`` after each record read
    (steps: "train", "held out", "judge")."""
    def tick(step: str) -> Callable[[], None] | None:
        return None if on_record is None else (lambda: on_record(step))

    learned = read_positions(train, game.num_players, tick("train"))
    result = fit(learned)
    measured = read_positions(held_out, game.num_players, tick("held out"))
    if not len(measured):
        raise OptionError("no held-out position to measure: play more games")
    model = fitted_evaluation(game, result, {})
    by_model = judged_by(held_out, model, tick("judge"))
    hand = calibration(measured.hand, measured.returns, measured.game_of)
    fitted_calibration = calibration(by_model, measured.returns, measured.game_of)
    about = {
        **about,
        "fitted": now(),
        "train": {"games": learned.games, "positions": result.positions},
        "held_out": {
            "games": measured.games,
            "positions": len(measured),
            "log_loss": {"hand": round(hand.log_loss, 5), "fitted": round(fitted_calibration.log_loss, 5)},
            "brier": {"hand": round(hand.brier, 5), "fitted": round(fitted_calibration.brier, 5)},
        },
    }
    return TrainingReport(
        fitted_evaluation(game, result, about), result, hand, fitted_calibration, learned.games, measured.games
    )


def plot_reliability(report: TrainingReport, path: str | Path) -> Path:
    """A reliability diagram of the held-out chances, by hand and fitted (matplotlib)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionError("the plot needs matplotlib: pip install 'boardlab[train]'") from None
    figure, axes = plt.subplots(figsize=(4.6, 4.4), dpi=110)
    axes.plot([0, 1], [0, 1], color="#999999", linewidth=1, label="perfect")
    for label, measured, style in (("hand-set", report.hand, "s--"), ("fitted", report.fitted, "o-")):
        points = [(chance, won) for count, chance, won in measured.table if count >= 20]
        axes.plot([p for p, _ in points], [w for _, w in points], style, markersize=4,
                  label=f"{label} (log loss {measured.log_loss:.3f}, Brier {measured.brier:.3f})")
    axes.set_xlabel("predicted chance (mean of each tenth)")
    axes.set_ylabel("share won (a draw: half)")
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_title(f"{report.model.game_id}: {report.held_out_games} held-out games")
    axes.legend(loc="upper left", fontsize=7)
    figure.tight_layout()
    target = Path(path)
    figure.savefig(target)
    plt.close(figure)
    return target


# --- the weights ------------------------------------------------------------------------------------
def fitted_evaluation(game: Game, result: Fit, about: dict[str, Any]) -> FittedEvaluation:
    """The weights of ``result`` for ``game``, tagged with its rules version, seats and options."""
    return FittedEvaluation(
        game_id=game.id,
        players=game.num_players,
        options={key: game.options[key] for key in sorted(game.options)},
        rules_version=str(game.rules_version),
        terms=terms_of(game).names,
        weights=tuple(round(weight, 6) for weight in result.weights),
        seat_bias=tuple(round(bias, 6) for bias in result.seat_bias),
        about=about,
        curve=(round(result.curve[0], 6), round(result.curve[1], 6)),
    )


def now() -> str:
    return datetime.datetime.now(datetime.UTC).replace(microsecond=0).isoformat()


__all__ = [
    "DEFAULT_PAIRINGS", "HELD_OUT_EVERY", "HELD_OUT_FIFTH", "Fit", "Positions", "TrainingReport", "TrainingSetup", "fit",
    "fitted_evaluation", "is_held_out", "judged_by", "now", "plot_reliability", "read_positions", "split_records",
    "train_and_measure",
]
