"""How much one held-out set can read: a training study's games held out a fifth at a time
(docs/evaluation.md, *Each fifth held out in turn*).

``boardlab train`` fits on four fifths of a study's games and measures on the fifth it holds
out (``--held-out K``, the last by default). A tenth of the reliability table may come from a
few dozen games, so one fifth can read several points either way. This script fits the
weights five times, once without each fifth, as ``boardlab train`` does
(boardlab.lab.training), judges each fifth by the weights fitted without it, and prints each
fifth's figures and those of the five added up: every position judged by weights that never
saw its game (out-of-fold), with the worst tenth's interval from resampling whole games;
and, where the game decides some positions outside the model (a capture that wins now, say),
the same for the positions the model judges.
Nothing is played and no weights file is written. With ``--weights FILE`` nothing is
fitted either: the weights in FILE judge every game of the folder (weights measured on games
they were not fitted to, such as those of the next turn of the loop).

    python bench/calibration_folds.py train-honor            # the folder `boardlab train --out` made
    python bench/calibration_folds.py train-honor --json folds.json
    python bench/calibration_folds.py turn-2 --weights boardlab/games/territories/evaluation.json

Each record is read twice (its terms once, then its own ``evaluate()`` by the weights
fitted without it), so it costs about two ``boardlab train`` runs on the same games.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boardlab.core.fitted import read_evaluations
from boardlab.core.records import Record
from boardlab.lab.calibration import RELIABLE_COUNT, Calibration, calibration
from boardlab.lab.training import HELD_OUT_EVERY, Positions, fit, fitted_evaluation, is_held_out, judged_by, read_positions

_INDEX = re.compile(r"-(\d+)\.json$")


def study_records(folder: Path) -> list[tuple[int, Record]]:
    """(game number within its pairing, record) of every stored game of a training folder."""
    records_folder = folder / "games" / "records" if (folder / "games").is_dir() else folder / "records"
    found = []
    for path in sorted(records_folder.glob("*.json")):
        number = _INDEX.search(path.name)
        if number is not None:
            found.append((int(number.group(1)), Record.load(path, validate=False)))
    if not found:
        raise SystemExit(f"no game records under {records_folder}")
    return found


def joined(parts: list[Positions], players: int) -> Positions:
    """The positions of several games as one set, each game keeping its own number."""
    whole = Positions(players)
    for part in parts:
        whole.returns += part.returns
        whole.hand += part.hand
        whole.terms += part.terms
        whole.game_of += [whole.games + number for number in part.game_of]
        whole.games += part.games
    return whole


def line(name: str, hand: Calibration, fitted: Calibration, games: int) -> str:
    gap, hand_gap = fitted.worst_gap(RELIABLE_COUNT), hand.worst_gap(RELIABLE_COUNT)
    low, high = fitted.worst_gap_interval(RELIABLE_COUNT) or (float("nan"), float("nan"))
    return (f"{name:<10} {games:>6} games  log loss {hand.log_loss:.4f} -> {fitted.log_loss:.4f}  "
            f"worst tenth: hand {100 * (hand_gap or 0):5.1f}, fitted {100 * (gap or 0):5.1f} "
            f"[{100 * low:.1f}, {100 * high:.1f}] (tenth {fitted.worst_tenth(RELIABLE_COUNT)})")


def judge_all(args: argparse.Namespace, game: Any, records: list[Record]) -> int:
    """Every game of the folder judged by the weights of ``args.weights`` that hold for ``game``."""
    held_for = [model for model in read_evaluations(args.weights) if model.holds_for(game)]
    if not held_for:
        raise SystemExit(f"{args.weights} holds no weights for {game.id} with these players and options")
    positions = read_positions(records, game.num_players)
    hand = calibration(positions.hand, positions.returns, positions.game_of)
    fitted = calibration(judged_by(records, held_for[0]), positions.returns, positions.game_of)
    print(line("all games", hand, fitted, positions.games))
    if args.json is not None:
        judged = {"games": positions.games, "hand": hand.to_json(), "fitted": fitted.to_json()}
        args.json.write_text(json.dumps({"game": game.id, "folder": str(args.folder), "weights": str(args.weights),
                                         "all": judged}, indent=1)
                             + "\n", encoding="utf-8")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a training folder (boardlab train --out) or its games folder")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--weights", type=Path, help="fit nothing: judge every game by the weights in this file")
    args = parser.parse_args(argv)
    records = study_records(args.folder)
    game = records[0][1].initial_state().game
    players = game.num_players
    if args.weights is not None:
        return judge_all(args, game, [record for _number, record in records])
    per_game = [read_positions([record], players) for _number, record in records]
    chances: list[tuple[float, ...]] = []
    fifths: list[Positions] = []
    report: dict[str, Any] = {"game": game.id, "folder": str(args.folder), "fifths": []}
    for fifth in range(HELD_OUT_EVERY):
        inside = [index for index, (number, _record) in enumerate(records) if not is_held_out(number, fifth)]
        outside = [index for index, (number, _record) in enumerate(records) if is_held_out(number, fifth)]
        model = fitted_evaluation(game, fit(joined([per_game[index] for index in inside], players)), {})
        held = joined([per_game[index] for index in outside], players)
        judged = judged_by([records[index][1] for index in outside], model)
        hand = calibration(held.hand, held.returns, held.game_of)
        fitted = calibration(judged, held.returns, held.game_of)
        print(line(f"fifth {fifth}", hand, fitted, held.games), flush=True)
        report["fifths"].append({"fifth": fifth, "games": held.games, "hand": hand.to_json(), "fitted": fitted.to_json()})
        chances += judged
        fifths.append(held)
    everything = joined(fifths, players)
    hand = calibration(everything.hand, everything.returns, everything.game_of)
    fitted = calibration(chances, everything.returns, everything.game_of)
    print(line("all five", hand, fitted, everything.games))
    report["all"] = {"games": everything.games, "hand": hand.to_json(), "fitted": fitted.to_json()}
    judged_by_model = [index for index, terms in enumerate(everything.terms) if terms is not None]
    if len(judged_by_model) < len(everything.terms):  # some positions are decided outside the model
        def only(values: list[Any]) -> list[Any]:
            return [values[index] for index in judged_by_model]
        game_of = only(everything.game_of)
        model_hand = calibration(only(everything.hand), only(everything.returns), game_of)
        model_fitted = calibration(only(chances), only(everything.returns), game_of)
        print(line("the model", model_hand, model_fitted, len(set(game_of)))
              + f"  ({len(judged_by_model)} of {len(everything.terms)} positions: those not decided outside the model)")
        report["model_judged"] = {"positions": len(judged_by_model), "hand": model_hand.to_json(),
                                  "fitted": model_fitted.to_json()}
    print("out-of-fold reliability (tenth: seat-positions, mean predicted, share won):")
    for tenth, (count, chance, won) in enumerate(fitted.table):
        if count:
            print(f"  {tenth / 10:.1f}-{(tenth + 1) / 10:.1f}  {count:>8}  {chance:.3f}  {won:.3f}")
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
