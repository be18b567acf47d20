"""The kernel (the hot paths, compiled where the build can) against the rules' own answers.

The kernel lists moves; the rule modules say why a move is refused (``check_move``). Over
positions of seeded random games, in several rule variants, a decision lists exactly the
candidate moves the rules accept, each once. The kernel's geometry and its counting are
checked against direct definitions.
"""

from __future__ import annotations

import random
from itertools import product
from types import ModuleType

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import boardlab
from boardlab.compiled import pure_source
from boardlab.core import CHANCE, IllegalMoveError, Move
from boardlab.games.territories import kernel
from boardlab.games.territories.actions import town_site_reason
from boardlab.games.territories.geometry import shares_card
from boardlab.games.territories.geometry import touching as touching_cells
from boardlab.games.territories.moves import (
    BUY_TERRITORY,
    END_TURN,
    PROPOSE_TRADE,
    Announce,
    BankTrade,
    Build,
    PlaceCard,
    SwapCard,
)
from boardlab.games.territories.phases import MAIN
from boardlab.games.territories.state import TerritoriesState
from tests.territories.helpers import state as position_state

VARIANTS = [
    {},
    {"distance_rule": True, "bank_trade": "mixed4", "capital_yield": "per_suit", "capital_trigger": "per_match"},
    {"ability_limit": "per_building_per_turn", "expand_max_extent": "6x5", "trade_territories": True},
    {"ability_limit": "unlimited", "production": "roller", "hand_limit_counts": "resources_only", "target_points": 10},
]


def positions(options: dict[str, object], games: int, every: int = 3) -> list[TerritoriesState]:
    """Decision positions of seeded random games (every ``every``-th decision)."""
    game = boardlab.load("territories", **options)
    found: list[TerritoriesState] = []
    for seed in range(games):
        rng = random.Random(seed)
        state = game.new_state(seed)
        decisions = 0
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            moves = state.legal_moves()
            decisions += 1
            if decisions % every == 0:
                found.append(state.copy())  # type: ignore[arg-type]
            state.apply(moves[int(rng.random() * len(moves))])
    return found


def accepted(state: TerritoriesState, move: Move) -> bool:
    try:
        state.check_move(move)
    except IllegalMoveError:
        return False
    return True


def main_candidates(state: TerritoriesState) -> list[Move]:
    """Every move that could be legal in MAIN: any build on any intersection, any bank trade,
    any announcement, the proposal's announcement, the end of the turn."""
    candidates: list[Move] = [Build(kind, point) for point in state.intersection_points() for kind in range(6)]
    for give in product(range(5), repeat=4):
        if sum(give) == 4:
            candidates.extend(BankTrade(give, target) for target in (0, 1, 2, 3, BUY_TERRITORY))  # type: ignore[arg-type]
    candidates.extend(Announce(ability) for ability in range(4))
    candidates.extend((PROPOSE_TRADE, END_TURN))
    return candidates


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "distance_mixed", "per_building", "unlimited"])
def test_main_decisions_list_exactly_the_moves_the_rules_accept(options: dict[str, object]) -> None:
    checked = 0
    for state in positions(options, games=3):
        if state.phase != MAIN or state.discards_owed or state.wild_owed:
            continue
        listed = state.legal_moves()
        assert len(set(listed)) == len(listed), "a move is listed twice"
        assert set(listed) == {move for move in main_candidates(state) if accepted(state, move)}, state.position()
        kinds = [type(move) for move in listed]
        assert kinds == sorted(kinds, key=[Build, BankTrade, type(PROPOSE_TRADE), Announce, type(END_TURN)].index)
        checked += 1
    assert checked > 20


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "distance_mixed", "per_building", "unlimited"])
def test_every_listed_move_is_accepted_in_every_phase(options: dict[str, object]) -> None:
    """Setup, discards, wildcards, trades and abilities: what the kernel lists, the rules accept."""
    for state in positions(options, games=2, every=1):
        for move in state.legal_moves():
            assert accepted(state, move), (state.position(), str(move))


def test_the_kernels_numbers_are_the_cards_modules() -> None:
    from boardlab.games.territories import cards

    for name in ("TOWN", "FORT", "TEMPLE", "PALACE", "CAPITAL", "SWAP", "RAID", "EXPAND"):
        assert getattr(kernel, name) == getattr(cards, name), name


def test_town_sites_and_shared_cards_agree_with_the_geometry() -> None:
    for options in VARIANTS[:2]:
        for state in positions(options, games=2, every=7):
            grid, buildings = state.grid, state.buildings
            for x, y in product(range(-2, 9), range(-2, 8)):
                site = kernel.is_town_site(x, y, grid, buildings, state.rules.distance_rule)
                assert site == (town_site_reason(state, (x, y)) is None)
                for bx, by in product(range(x - 2, x + 3), range(y - 2, y + 3)):
                    assert kernel.shares_card(x, y, bx, by, grid) == shares_card((x, y), (bx, by), grid)


@settings(max_examples=60, deadline=None)
@given(
    st.sets(st.tuples(st.integers(-3, 6), st.integers(-3, 5)), min_size=1, max_size=25),
    st.one_of(st.none(), st.tuples(st.integers(5, 9), st.integers(4, 8))),
)
def test_expansion_cells_are_the_empty_side_neighbours_within_the_extent(
    cells: set[tuple[int, int]], extent: tuple[int, int] | None
) -> None:
    grid = dict.fromkeys(cells, 0)
    expected = []
    for c, r in product(range(-5, 9), range(-5, 8)):
        if (c, r) in grid or not any((c + dc, r + dr) in grid for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))):
            continue
        box = cells | {(c, r)}
        width = max(x for x, _ in box) - min(x for x, _ in box) + 1
        height = max(y for _, y in box) - min(y for _, y in box) + 1
        if extent is None or (width <= extent[0] and height <= extent[1]):
            expected.append((c, r))
    found = kernel.expansion_cells(grid, extent)
    assert found == sorted(expected, key=lambda cell: (cell[1], cell[0]))
    assert kernel.can_expand(grid, extent) == bool(found)


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 9), st.tuples(*[st.integers(0, 4)] * 4))
def test_multisets_are_every_bounded_count_in_the_documented_order(size: int, limits: tuple[int, ...]) -> None:
    everything = [a for a in product(*(range(limit + 1) for limit in limits)) if sum(a) == size]
    assert kernel.multisets(size, *limits) == sorted(everything, key=lambda a: (-a[0], -a[1], -a[2]))


@settings(max_examples=60, deadline=None)
@given(st.tuples(*[st.integers(0, 3)] * 4), st.lists(st.integers(0, 39), max_size=2, unique=True))
def test_proposal_sides_come_fewer_resources_first_then_more_hearts_spades_clubs(
    holding: tuple[int, int, int, int], cards: list[int]
) -> None:
    parts = sorted(
        product(*(range(count + 1) for count in holding)), key=lambda a: (sum(a), -a[0], -a[1], -a[2])
    )
    expected = [
        (amounts, part)
        for amounts in parts
        for part in [(), *((card,) for card in cards)]
        if any(amounts) or part
    ]
    sides = kernel.proposal_sides(holding, tuple(cards))
    assert [(amounts, part) for _, amounts, part, _ in sides] == expected
    assert len({key for *_, key in sides}) == len(sides), "side keys are unique"


def test_expected_income_counts_each_touching_card_at_its_numbers_chance() -> None:
    # a Town of seat 0 at 1,1 of the grid 2H 3S / 8S 8H, a Palace of seat 1 at 5,0 (touching 6H only)
    grid = {(0, 0): 0, (1, 0): 11, (0, 1): 15, (1, 1): 5, (4, 0): 4}
    buildings = {(1, 1): (0, 0), (5, 0): (1, 4)}
    touching = kernel.touching_table(grid, list(buildings))
    assert kernel.expected_incomes(buildings, touching, False) == [
        [1 / 36 + 5 / 36, 2 / 36 + 5 / 36, 0.0, 0.0],
        [5 / 36 * 2, 0.0, 0.0, 0.0],
    ]
    # seat 0 holds a Town (bit 0), seat 1 a Palace, of the second tier (bit 1)
    assert kernel.owned_kinds(buildings) == [1, 2]


def assert_kept_summary_is_fresh(state: TerritoriesState, after: str) -> None:
    rules = state.rules
    kept = kernel.building_summary(state.buildings, state.touching_cards(), rules.capital_per_suit)
    afresh = kernel.BuildingSummary(state.buildings, state.touching_cards(), rules.capital_per_suit)
    assert (kept.income, kept.held) == (afresh.income, afresh.held), after


@pytest.mark.parametrize("options", VARIANTS[:3], ids=["default", "distance_mixed", "per_building"])
def test_the_kept_building_summary_is_the_one_worked_out_afresh_through_builds_swaps_and_undos(
    options: dict[str, object],
) -> None:
    """The evaluation keeps what the buildings give each seat by the identity of the buildings
    and touching tables. A search applies and undoes moves on one state, so the tables it meets
    alternate between a parent's and its children's: after a build (new buildings), a Swap or
    an Expand (new touching cards, the same buildings) and their undos, the kept summary must
    be the one worked out from the tables as they are."""
    changed_tables = 0
    for state in positions(options, games=4, every=1):
        moves = state.legal_moves()
        grid_moves = [move for move in moves if isinstance(move, (SwapCard, PlaceCard, Build))]
        for move in moves[:: max(1, len(moves) // 6)] + grid_moves[:: max(1, len(grid_moves) // 6)]:
            before = (state.buildings, state.touching_cards())
            state.apply(move)
            changed_tables += (state.buildings, state.touching_cards()) != before
            assert_kept_summary_is_fresh(state, str(move))
            state.undo()
            assert_kept_summary_is_fresh(state, f"the undo of {move}")
    assert changed_tables > 50, "the games met builds, Swaps and Expands"


def test_the_evaluation_is_a_distribution_that_favours_the_stronger_seat() -> None:
    for state in positions({}, games=2, every=5):
        returns = state.evaluate()
        assert 0.0 <= returns[0] <= 1.0 and returns[0] + returns[1] == pytest.approx(1.0)
        stronger = kernel.estimate(
            [[4, 4, 4, 4], list(state.res[1])], [len(state.hands[0]), len(state.hands[1])], state.supply,
            state.buildings, state.touching_cards(), True, 60, False, state.rules.target_points,
        )
        weaker = kernel.estimate(
            [[0, 0, 0, 0], list(state.res[1])], [len(state.hands[0]), len(state.hands[1])], state.supply,
            state.buildings, state.touching_cards(), True, 60, False, state.rules.target_points,
        )
        assert stronger[0] >= weaker[0]


@pytest.mark.parametrize(
    ("options", "fields", "expected"),
    [
        ({}, 0, [0.2821457864629091, 0.7178542135370909]),
        ({"capital_yield": "per_suit", "hand_limit_counts": "resources_only"}, 0, [0.41899554234192177, 0.5810044576580782]),
        ({}, 1, [0.21611935835372373, 0.7838806416462762]),
        ({"capital_yield": "per_suit", "hand_limit_counts": "resources_only"}, 1, [0.21342574638790288, 0.7865742536120971]),
    ],
)
def test_the_evaluation_keeps_its_values(options: dict[str, object], fields: int, expected: list[float]) -> None:
    """Values of the evaluation before it moved into the kernel: income, readiness, hand-limit risk
    and the Capital's options all count."""
    positions_fields = [
        {"buildings": {(1, 1): "0P", (3, 2): "1P", (2, 3): "0B", (4, 1): "1K"}, "res0": (2, 1, 0, 5),
         "res1": (1, 1, 1, 1), "hand0": "9H,QH", "hand1": "4H"},
        {"buildings": {(0, 0): "0Q", (5, 4): "1R", (2, 2): "1N", (3, 1): "0P"}, "res1": (6, 2, 3, 1),
         "hand1": "TC,JD,2D"},
    ]
    game = boardlab.load("territories", **options)
    made = position_state(game, **positions_fields[fields])  # type: ignore[arg-type]
    assert made.evaluate() == pytest.approx(expected, rel=1e-12)


def pure_kernel() -> ModuleType:
    """kernel.py executed as plain Python, whether or not the imported kernel is compiled."""
    return pure_source(kernel)


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "distance_mixed", "per_building", "unlimited"])
def test_the_imported_kernel_and_its_source_agree_exactly(options: dict[str, object]) -> None:
    """Compiled (where the build compiled it) and pure: the same moves in the same order, the same
    production and the same floats, bit for bit."""
    source = pure_kernel()
    for state in positions(options, games=2, every=2):
        rules = state.rules
        territories = [len(state.hands[0]), len(state.hands[1])]
        touching = state.touching_cards()
        assert touching == {point: [state.grid[cell] for cell in touching_cells(point, state.grid)]
                            for point in state.intersection_points()}, "the cache follows the grid"
        args = (state.res, territories, state.supply, state.buildings, touching,
                rules.limit_counts_territories, rules.hand_limit, rules.capital_per_suit, rules.target_points)
        assert kernel.estimate(*args) == source.estimate(*args)
        assert kernel.expected_incomes(state.buildings, touching, rules.capital_per_suit) == (
            source.expected_incomes(state.buildings, touching, rules.capital_per_suit)
        )
        assert kernel.owned_kinds(state.buildings) == source.owned_kinds(state.buildings)
        for total in (2, 5, 8, 12):
            claims = (touching, state.buildings, state.active, total, rules.production_all,
                      rules.capital_per_match, rules.capital_per_suit)
            assert kernel.production_claims(*claims) == source.production_claims(*claims)
        seat = state.active
        main = (seat, state.res, state.supply[seat], state.bank, state.buildings, state.grid,
                state.intersection_points(), len(state.hands[seat]), state.used, True, True,
                rules.distance_rule, rules.bank_trade_mixed, kernel.ABILITY_LIMITS.index(rules.ability_limit),
                rules.expand_max_extent)
        assert kernel.main_moves(*main) == source.main_moves(*main)


@pytest.mark.parametrize("options", VARIANTS, ids=["default", "distance_mixed", "per_building", "unlimited"])
def test_a_move_replaces_the_fields_it_changes_and_leaves_snapshots_and_copies_alone(options: dict[str, object]) -> None:
    """Snapshots and copies share every field with the state (one tuple of references), so a move
    that changed a container in place would change the past too."""
    game = boardlab.load("territories", **options)
    for seed in range(2):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            before = state.position()
            twin = state.copy()
            if state.current_player() == CHANCE:
                move = state.sample_chance(rng)
            else:
                moves = state.legal_moves()
                move = moves[int(rng.random() * len(moves))]
            state.apply(move)
            after = state.position()
            assert twin.position() == before, str(move)
            state.undo()
            assert state.position() == before, str(move)
            state.apply(move)
            assert state.position() == after


@pytest.mark.parametrize("options", VARIANTS[:3], ids=["default", "distance_mixed", "per_building"])
def test_the_grid_kept_after_a_swap_or_an_expand_is_the_grid_worked_out_afresh(options: dict[str, object]) -> None:
    """R7.2 and R7.5 change one cell's card: only its corners are worked out again, and the
    intersections and each one's touching cards must be what a full rebuild gives, in its order
    (move generation walks them in that order)."""
    game = boardlab.load("territories", **options)
    grid_moves = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = game.new_state(seed)
        while not state.is_over():
            if state.current_player() == CHANCE:
                move = state.sample_chance(rng)
            else:
                moves = state.legal_moves()
                # favour the abilities that change the grid, so that each game meets several
                grid_changes = [m for m in moves if isinstance(m, (SwapCard, PlaceCard))]
                move = rng.choice(grid_changes) if grid_changes and rng.random() < 0.8 else rng.choice(moves)
            kept_points, kept_touching = state._points_cache, state._touching_cache
            before = (list(kept_points or ()), dict(kept_touching or {}))
            state.apply(move)
            if isinstance(move, (SwapCard, PlaceCard)):
                grid_moves += 1
                # what the position before kept is shared with its copies: replaced, never changed
                assert (list(kept_points or ()), dict(kept_touching or {})) == before
                fresh = TerritoriesState.__new__(TerritoriesState)
                fresh.grid = state.grid
                fresh._points_cache = fresh._touching_cache = None
                fresh.grid_changed()
                assert state._points_cache == fresh._points_cache
                assert state._touching_cache is not None and fresh._touching_cache is not None
                assert list(state._touching_cache.items()) == list(fresh._touching_cache.items()), str(move)
    assert grid_moves >= 30
