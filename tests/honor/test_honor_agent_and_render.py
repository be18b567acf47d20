"""The honor agent and the renderers (docs/rules/honor.md, section 13)."""

from __future__ import annotations

import random

import pytest

import boardlab
from boardlab.core import OptionError
from boardlab.core.agent import registered_agents
from boardlab.games.honor.moves import Accept, Pass, PassOn, Release
from tests.honor.helpers import exact_game, play, with_fields


def agent(level: str = "easy"):
    return registered_agents()["honor"](seed=1, level=level)


def test_r13_agent_places_a_legal_release_on_its_tower() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build CU1 0", "pass")
    move = agent().choose(state.resample(0, random.Random(2)))
    assert isinstance(move, Release)
    state.check_move(move)
    state.play(move)
    assert state.standing == (True, True), "a cube on a slab is an easy, safe placement"


def test_r13_agent_passes_a_dangerous_piece_and_accepts_a_safe_one_when_passing_costs_more() -> None:
    start = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build BR2 0", "pass", "rel 30")
    state = play(start.copy(), "push RF1")
    assert agent().choose(state) == PassOn(), "a roof on a tower is worth a token to avoid"
    state = play(start.copy(), "push CU1", "passon")
    assert state.current_player() == 1 and state.push.fee == 2
    assert agent().choose(state) == Accept(), "a cube on a brick is not worth 2 tokens"


def test_r13_agent_bids_for_a_good_foundation_only() -> None:
    state = exact_game(2).new_state(seed=1)
    play(state, "build SL1 0")
    assert str(agent().choose(state)) == "raise 1"
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build CU1 0")
    assert agent().choose(state) == Pass()


def test_agent_levels_are_checked() -> None:
    with pytest.raises(OptionError, match="level"):
        registered_agents()["honor"](level="superhuman")


def test_text_view_draws_towers_and_the_piece_in_hand() -> None:
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build AR1 0", "pass")
    text = state.render(1)
    assert "▓" in text and "░" in text and "AR1" in text and "Red" in text


def test_png_renderer_writes_a_picture(tmp_path) -> None:
    pytest.importorskip("matplotlib")
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30")
    path = tmp_path / "table.png"
    state.game.render_image(state.view(None), str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_r13_agent_never_reads_the_seed() -> None:
    """Two states that differ only in their (hidden) seed get the same decision."""
    moves = ["build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90", "build PL1 0", "pass"]
    decisions = []
    for seed in (11, 2**255 + 3):
        state = play(exact_game(2).new_state(seed=seed), *moves)
        decisions.append(agent("normal").choose(state.resample(0, random.Random(5))))
    assert decisions[0] == decisions[1]


# --- rule 13: levels, pass chains, judgement ----------------------------------------------------
def slab_and_brick():
    return play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90")


def test_r13_a_pass_chain_is_solved_backwards_from_who_can_pay() -> None:
    """Rule 7.7 with fees 1, 2, 3, ...: between equal pools of 10 a dangerous push comes back to
    the pusher (the holder pays 1 to pass it, and the pusher could not pass it on for good);
    with 3 tokens each the holder cannot win the exchange and accepts at once."""
    state = slab_and_brick()
    chooser = agent("normal")
    always_risky = lambda player, pid: 0.7  # noqa: E731
    assert chooser._chain(state, "LG1", 1, 1, (10, 10), always_risky) == (0, (10, 9))
    assert chooser._chain(state, "LG1", 1, 1, (3, 3), always_risky) == (1, (3, 3))
    never_risky = lambda player, pid: 0.0  # noqa: E731
    assert chooser._chain(state, "CU1", 1, 1, (10, 10), never_risky) == (1, (10, 10))


def test_r13_normal_keeps_its_tokens_where_easy_and_hard_pay_for_the_slab() -> None:
    """A one-token lead decides who must accept the awkward pieces (rule 7.7): normal lets the
    opener have the slab at 0 and builds its own foundation on its turn; hard raises by one,
    to at most 2, for a flat foundation while it has none (measured: as seat 1 against normal
    it went 6-9-5 without this, rules 13.5), and passes once it has a foundation."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0")
    assert str(agent("easy").choose(state)) == "raise 1"
    assert agent("normal").choose(state) == Pass()
    assert str(agent("hard").choose(state)) == "raise 1"
    assert agent("hard").choose(play(state, "raise 1", "raise 2")) == Pass(), "2 tokens at most"
    state = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build PL1 0")
    assert agent("hard").choose(state) == Pass(), "with a foundation every later piece is a risk"


def test_r13_levels_grow_in_search_and_shrink_in_noise() -> None:
    from boardlab.games.honor.agent import LEVELS

    easy, normal, hard = LEVELS["easy"], LEVELS["normal"], LEVELS["hard"]
    assert easy.place.screens < normal.place.screens < hard.place.screens
    assert easy.shaky_hand > normal.shaky_hand > hard.shaky_hand == 0
    assert hard.judgement == "simulate" and hard.place.probe and easy.seconds <= normal.seconds <= hard.seconds


def test_r13_hard_judges_pushes_by_simulation_and_caches_by_tower(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bids and pushes use the placement search (a small budget per player and piece kind);
    a tower that has not changed is not simulated again."""
    from boardlab.games.honor import agent as agent_module

    calls = []
    real = agent_module.search_release

    def counting(*args, **kwargs):
        calls.append(args[1:3])
        return real(*args, **kwargs)

    monkeypatch.setattr(agent_module, "search_release", counting)
    state = slab_and_brick()
    hard = agent("hard")
    move = hard.choose(state.resample(0, random.Random(1)))
    state.check_move(move)
    first = len(calls)
    assert first > 0 and all(player in (0, 1) for player, _ in calls)
    hard.choose(state.resample(0, random.Random(2)))
    assert not set(calls[first:]) & set(calls[:first]), "the same towers: known risks come from the cache"


def test_r13_count_budgets_make_decisions_reproducible_and_a_time_cap_stops_the_search() -> None:
    import time

    state = play(slab_and_brick(), "build CU1 0", "pass")
    first = registered_agents()["honor"](seed=3, level="normal", seconds=0).choose(state.copy())
    second = registered_agents()["honor"](seed=3, level="normal", seconds=0).choose(state.copy())
    assert first == second
    started = time.perf_counter()
    quick = registered_agents()["honor"](seed=3, level="hard", seconds=0.01).choose(state.copy())
    state.check_move(quick)
    assert time.perf_counter() - started < 5


def weights_file(tmp_path, game, **weights: float) -> str:
    """A weights file for ``game`` weighing only the terms named, for the agent's evaluation=."""
    from boardlab.core.fitted import FittedEvaluation, write_evaluation
    from boardlab.games.honor.evaluation import TERMS

    model = FittedEvaluation(game_id="honor", players=game.num_players, options=game.options,
                             rules_version=str(game.rules_version), terms=TERMS,
                             weights=tuple(weights.get(name, 0.0) for name in TERMS), seat_bias=(0.0,) * game.num_players)
    path = tmp_path / f"{'-'.join(weights)}.json"
    write_evaluation(path, model)
    return str(path)


def test_r13_judged_by_weights_a_holder_pays_to_pass_on_only_what_the_weights_say_is_worth_a_token(tmp_path) -> None:
    """With an evaluation, a push chain's outcomes are each seat's chance one placement ahead,
    solved backwards (rules 7.7, 7.8). Blue, with 3 tokens, holds a cube at a fee of 2 and Red,
    with 2, could not pass it back at 3: Blue accepts where tokens weigh (2 of its 3 are worth
    more than the small risk of a cube) and passes it on where height does. With 9 and 10
    each, Red would pass it back until Blue could not pay, so Blue accepts at once even where
    only height counts."""
    start = play(exact_game(2).new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass",
                 "rel 90", "build BR2 0", "pass", "rel 30")
    state = play(start.copy(), "push CU1", "passon")
    assert state.current_player() == 1 and state.push.fee == 2
    red_is_short = with_fields(state, pools=[2, 3], bank=15)
    tokens_count = weights_file(tmp_path, state.game, tokens=10.0)
    height_counts = weights_file(tmp_path, state.game, height=-100.0)
    judged = registered_agents()["honor"]
    assert judged(seed=1, level="normal", evaluation=tokens_count).choose(red_is_short) == Accept()
    assert judged(seed=1, level="normal", evaluation=height_counts).choose(red_is_short) == PassOn()
    assert judged(seed=1, level="normal", evaluation=height_counts).choose(state) == Accept()
    assert judged(seed=1, level="normal").choose(red_is_short) == Accept(), "by hand: a cube is not worth 2 tokens"


def test_r13_judged_by_weights_the_foundations_are_still_chosen_by_hand(tmp_path) -> None:
    """The weights do not see a foundation's top, so while a tower is missing its foundation
    the agent bids and chooses as it does by hand."""
    state = play(exact_game(2).new_state(seed=1), "build SL1 0")
    tokens_count = weights_file(tmp_path, state.game, tokens=100.0)
    judged = registered_agents()["honor"](seed=1, level="hard", evaluation=tokens_count)
    assert str(judged.choose(state)) == "raise 1"


def test_r13_an_evaluation_for_another_game_is_refused_by_name(tmp_path) -> None:
    game = exact_game(2)
    state = play(game.new_state(seed=1), "build SL1 0", "pass", "rel 30", "build BR1 0", "pass", "rel 90", "push CU1")
    other = weights_file(tmp_path, boardlab.load("honor", players=2), tokens=1.0)  # tremor on: other options
    with pytest.raises(OptionError, match=r"do not hold for this game.*tremor"):
        registered_agents()["honor"](seed=1, level="normal", evaluation=other).choose(state)
