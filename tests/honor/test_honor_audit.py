"""Audit of Honor against the product ruling: the catalogue (rules section 2), the
physics world and table (section 3), the first-contact sweep (4.4) and resignation
(7.13). Each test names the rule of docs/rules/honor.md it checks."""

from __future__ import annotations

import dataclasses
import math

import pytest

from boardlab.games.honor import catalogue, physics
from tests.honor.helpers import exact_game, play

pymunk = pytest.importorskip("pymunk")

#: rule 2.1: code -> (count, bounding-box width x height at rotation 0, profile area cm²)
EXPECTED = {
    "CU": (4, 3.0, 3.0, 9.0),
    "BR": (4, 6.0, 3.0, 18.0),
    "CO": (2, 3.0, 9.0, 27.0),
    "PS": (3, 9.0, 1.5, 13.5),
    "PL": (3, 12.0, 1.5, 18.0),
    "SL": (1, 15.0, 3.0, 45.0),
    "WE": (3, 6.0, 3.0, 9.0),
    "RF": (2, 6.0, 3 * math.sqrt(3), 9 * math.sqrt(3)),
    "TR": (2, 6.0, 3.0, 13.5),
    "HD": (2, 6.0, 3.0, 0.5 * 16 * 9 * math.sin(math.pi / 16)),  # 16 arc segments
    "AR": (2, 9.0, 4.5, None),
    "LG": (2, 2 * 1.5 * math.cos(math.pi / 16), 2 * 1.5 * math.cos(math.pi / 16),
           0.5 * 16 * 2.25 * math.sin(2 * math.pi / 16)),  # regular 16-gon, r 1.5, flat down
}


def test_r2_1_the_honor_30_set_sizes_counts_and_areas() -> None:
    assert len(catalogue.ALL_PIECES) == 30
    assert list(catalogue.ALL_PIECES) == sorted(catalogue.ALL_PIECES), "rule 1.3: the supply's order"
    for code, (count, width, height, area) in EXPECTED.items():
        kind = catalogue.KINDS[code]
        assert kind.count == count, code
        w, h = kind.width_height(0.0)
        assert w == pytest.approx(width, abs=1e-5) and h == pytest.approx(height, abs=1e-5), code
        if area is not None:
            assert kind.area == pytest.approx(area, abs=1e-4), code
    # the arch: the 9 x 4.5 block less a semicircle r 2.25, the arc as 8 chords (B-14 item 6)
    chord_cut = 0.5 * 8 * 2.25**2 * math.sin(math.pi / 8)
    assert catalogue.KINDS["AR"].area == pytest.approx(9 * 4.5 - chord_cut, abs=1e-4)


def test_r2_3_mass_is_1_8_g_per_cm2_and_the_body_matches_the_catalogue() -> None:
    """Rule 2.3 (B-14 item 6): mass = 1.8 x the catalogue polygon area; rule 2.2 (B-14 item
    13): vertices centred on the area centroid, so the body's position is its centre of mass."""
    space = physics.new_space(physics.TableLayout(2))
    for code, kind in catalogue.KINDS.items():
        assert kind.mass == pytest.approx(1.8 * kind.area)
        body = physics.add_piece(space, physics.BodySpec(f"{code}1", 0, False, 30.0, 50.0, 0.0))
        assert body.mass == pytest.approx(kind.mass, rel=1e-9), code
        assert abs(body.center_of_gravity.x) < 1e-5 and abs(body.center_of_gravity.y) < 1e-5, code
        for part in kind.parts:
            assert catalogue.polygon_area(part) > 0, f"{code}: parts counter-clockwise"
            assert len(catalogue.convex_hull(part)) == len(part), f"{code}: every part convex"
    assert catalogue.KINDS["LG"].mass == pytest.approx(12.4, abs=0.05)
    assert catalogue.KINDS["HD"].mass == pytest.approx(25.3, abs=0.05)


def _bottom_and_top(code: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    vertices = catalogue.KINDS[code].vertices
    low = min(y for _, y in vertices)
    high = max(y for _, y in vertices)
    return ([v for v in vertices if abs(v[1] - low) < 1e-6], [v for v in vertices if abs(v[1] - high) < 1e-6])


def test_r2_2_catalogue_orientation_at_rotation_zero() -> None:
    """Rule 2.2 / table 2.1 (B-14 item 14): BR lying, CO upright, WE right angle bottom-left,
    RF apex up, TR wide side down, HD flat down, AR opening down, LG a face down."""
    wedge = catalogue.KINDS["WE"].vertices
    corner = min(wedge, key=lambda v: v[0] + v[1])
    others = [v for v in wedge if v != corner]
    assert all(abs(v[0] - corner[0]) < 1e-6 or abs(v[1] - corner[1]) < 1e-6 for v in others), \
        "the wedge's right angle is its bottom-left corner"
    bottom, top = _bottom_and_top("RF")
    assert len(bottom) == 2 and len(top) == 1, "roof: apex up"
    bottom, top = _bottom_and_top("TR")
    width = lambda vs: max(x for x, _ in vs) - min(x for x, _ in vs)  # noqa: E731
    assert width(bottom) == pytest.approx(6.0) and width(top) == pytest.approx(3.0), "trapezoid: wide side down"
    bottom, top = _bottom_and_top("HD")
    assert width(bottom) == pytest.approx(6.0) and len(top) == 1, "half-disc: flat side down"
    assert len(catalogue.KINDS["HD"].parts[0]) == 17, "16 arc segments"
    bottom, _ = _bottom_and_top("LG")
    assert len(catalogue.KINDS["LG"].parts[0]) == 16 and len(bottom) == 2, "log: 16-gon, a face down"
    assert catalogue.KINDS["BR"].width_height() == pytest.approx((6.0, 3.0))
    assert catalogue.KINDS["CO"].width_height() == pytest.approx((3.0, 9.0))


def test_r2_2_the_arch_is_convex_parts_with_one_top_bar_and_its_opening_down() -> None:
    """Rule 2.2 (B-14 item 21): a concave profile is several convex polygons on one body,
    with one top bar so that the top face is one edge; the cut-out is at the bottom."""
    parts = catalogue.KINDS["AR"].parts
    assert len(parts) > 1
    top = max(y for part in parts for _, y in part)
    bars = [part for part in parts if sum(1 for _, y in part if abs(y - top) < 1e-6) >= 2]
    assert len(bars) == 1, "one part carries the whole top face"
    xs = [x for x, _ in bars[0]]
    assert max(xs) - min(xs) == pytest.approx(9.0)
    bottom = min(y for part in parts for _, y in part)
    centre_x = 0.0  # centred on the centroid; the arch is symmetric
    assert not any(catalogue.point_in_convex(part, centre_x, bottom + 0.5) for part in parts), "opening down"
    assert any(catalogue.point_in_convex(part, centre_x, top - 0.5) for part in parts)


def test_r3_2_physics_constants() -> None:
    """Rule 3.2 (B-3, B-14 item 20): every engine setting is pinned, collision bias 0.0018 included."""
    space = physics.new_space(physics.TableLayout(2))
    assert tuple(space.gravity) == (0.0, -981.0)
    assert space.iterations == 30
    assert space.collision_slop == pytest.approx(0.02)
    assert space.collision_bias == 0.0018
    assert space.collision_persistence == 3
    assert space.damping == pytest.approx(0.9)
    assert space.sleep_time_threshold == float("inf")
    assert not space.threaded
    assert physics.STEP == 1 / 240
    for shape in space.static_body.shapes:
        assert shape.friction == 0.7071 and shape.elasticity == 0.2236
    body = physics.add_piece(space, physics.BodySpec("CU1", 0, False, 30.0, 1.5, 0.0))
    for shape in body.shapes:
        assert shape.friction == 0.7071 and shape.elasticity == 0.2236


@pytest.mark.parametrize("players, gap", [(2, 0), (4, 7)])
def test_r3_1_zones_table_and_end_walls(players: int, gap: int) -> None:
    """Rule 3.1 (B-14 items 4, 15): zone k = [k(60+g), k(60+g)+60]; the table spans the zones
    and 1,000 cm each side, its top at y = 0, with a wall at each end."""
    layout = physics.TableLayout(players, gap)
    for k in range(players):
        assert layout.zone(k) == (k * (60 + gap), k * (60 + gap) + 60)
    right = 60 * players + (players - 1) * gap + 1000
    space = physics.new_space(layout)
    boxes = sorted((s.bb.left, s.bb.right, s.bb.top, s.collision_type) for s in space.static_body.shapes)
    table = [b for b in boxes if b[3] == physics.TABLE]
    assert table == [(-1000.0, right, 0.0, physics.TABLE)]
    walls = [b for b in boxes if b[3] == physics.WALL]
    assert len(walls) == 2 and walls[0][1] == -1000.0 and walls[1][0] == right and min(w[2] for w in walls) > 100
    game = exact_game(players, zone_gap=gap)
    assert f"gap={gap}" in game.rules.ruleset


def _overlaps(space, code: str, x: float, y: float, angle: float) -> bool:
    probe = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    for part in catalogue.world_parts(f"{code}1", x, y, angle):
        shape = pymunk.Poly(probe, part)
        shape.cache_bb()
        if space.shape_query(shape):
            return True
    return False


def test_r4_4_first_contact_lands_on_a_thin_tip() -> None:
    """Rule 4.4 (B-14 item 3): the swept test cannot step over a wedge's thin tip that
    overhangs a cube; y0 agrees with a fine (0.002 cm) overlap march."""
    layout = physics.TableLayout(2)
    specs = [physics.BodySpec("CU1", 0, True, 30.0, 1.5, 0.0),
             # the wedge's thin tip overhangs the cube's right side by about 3 cm
             physics.BodySpec("WE1", 0, False, 32.0 + 1.05, 3.0 + 1.0, 0.0)]
    space = physics.build_space(layout, specs)
    for code, x in (("RF", 39.9), ("CU", 38.45), ("PS", 41.5)):  # 0.15, 0.1, 0.05 cm over the tip
        y0 = physics.first_contact_height(space, code, x, 0.0)
        y = 20.0
        while not _overlaps(space, code, x, y, 0.0):
            y -= 0.002
        assert y0 is not None and y0 == pytest.approx(y, abs=0.003), code
        assert y0 > 3.0, f"{code} lands on the tip, not on the table"


def test_r7_13_a_resignation_leaving_one_player_runs_no_physics() -> None:
    """Rules 5.1 and 7.13 (B-14 item 5): a resolution stops as soon as at most one player
    stands. Here player 1's plank rests on player 0's slab; player 0 resigns, so player 1
    is the last tower standing (rule 8.1): the plank is not simulated falling afterwards."""
    state = exact_game(2).new_state(seed=1)
    play(state, "build SL1 0", "pass", "rel 52", "build CU1 0", "pass", "rel 61.5",
         "push PL1", "acc", "rel 57")
    assert state.standing == (True, True)
    play(state, "build CU2 0", "resign")
    assert state.result().winners == (1,) and "rule 8.1" in state.result().reason
    assert state.standing == (False, True) and state.out_at[1] is None
    assert state.last["collapses"] == [] and state.last["steps"] == 0
    assert {p.pid for p in state.table} == {"CU1", "PL1"}


def test_r4_5_tremor_order_legality_on_intended_then_tremor_then_first_contact() -> None:
    """Rule 4.5 (B-14 items 7, 12): legality is checked on the intended release; the tremor
    then moves it (here past the zone edge, which stays legal), the rotation wraps modulo
    360, and the first-contact height is found at the executed pose."""
    import boardlab
    from boardlab.games.honor.moves import Tremor

    state = boardlab.load("honor", players=2).new_state(seed=3)
    play(state, "build SL1 0", "pass", "rel 52.50")  # the slab's right end exactly at 60
    assert state.is_chance()
    space = state.canonical_space()
    state.play(Tremor(7, -5))
    assert state.last["intended"] == [5250, 0, 5] and state.last["executed"] == [5257, 3595]
    y0 = physics.first_contact_height(space, "SL", 52.57, math.radians(359.5))
    assert state.last["release_y"] == math.ceil(y0 * 1e4) + 500
    assert state.last["release_y"] > 15000 + 500, "the tilted slab's low corner meets the table first"
    assert not state.last["collapses"] and state.table[0].foundation


def test_r5_6_angles_wrap_to_minus_pi_pi_before_quantising() -> None:
    """Rule 5.6 (B-14 item 13): poses to 1e-4 cm and 1e-6 rad, the angle wrapped to [-pi, pi)."""
    assert physics.quantise_pose(1.0, 2.0, 2 * math.pi + 0.1)[2] == 100_000
    assert physics.quantise_pose(0.0, 0.0, math.pi)[2] == -3_141_593
    assert physics.quantise_pose(0.0, 0.0, -5 * math.pi / 2)[2] == -1_570_796
    assert physics.quantise_pose(12.34567, -0.00004, 0.0)[:2] == (123457, 0)


def test_r11_5_the_seed_is_committed_at_the_start_and_revealed_at_the_end() -> None:
    """Rule 11.5 (B-9 seed_commit, B-11.6): every view shows SHA-256 of the seed's 32 bytes;
    a resampled state keeps the real commitment (not the seed); the seed itself appears in
    the view only once the game is over, and it matches the commitment."""
    import hashlib
    import json
    import random

    state = exact_game(2).new_state(seed=2**255 + 99)
    commit = hashlib.sha256((2**255 + 99).to_bytes(32, "big")).hexdigest()
    assert state.view(0)["board"]["seed_commit"] == commit and state.view(None)["board"]["seed"] is None
    resampled = state.resample(1, random.Random(5))
    assert resampled.seed != state.seed and resampled.view(1) == state.view(1)
    assert resampled.view(1)["board"]["seed_commit"] == commit
    assert f"{state.seed:064x}" not in json.dumps(state.view(0))
    play(state, "build CU1 0", "pass", "rel 30", "build CU2 0", "pass", "rel 90", "build CU3 0", "pass",
         "rel 26")  # misses the cube: a collapse ends the game
    assert state.is_over()
    revealed = state.view(0)["board"]["seed"]
    assert hashlib.sha256(bytes.fromhex(revealed)).hexdigest() == commit


def test_picture_draws_one_outline_per_piece_and_every_piece_on_the_table(tmp_path) -> None:
    """The PNG (rule 2.2's profiles): each piece is one outline, the arch's concave one with
    the same area as its convex parts; a piece that rolled out of the zones stays in view."""
    pytest.importorskip("matplotlib")
    from boardlab.games.honor.render_image import render_png, table_span

    for code, kind in catalogue.KINDS.items():
        assert catalogue.polygon_area(catalogue.OUTLINES[code]) == pytest.approx(kind.area, abs=1e-6), code
    arch_hull = catalogue.convex_hull(catalogue.OUTLINES["AR"])
    assert catalogue.polygon_area(arch_hull) == pytest.approx(9 * 4.5), "the arch's outline keeps its cut-out"
    state = exact_game(2).new_state(seed=1)
    play(state, "build AR1 0", "pass", "rel 30", "build SL1 0", "pass", "rel 90")
    view = state.view(None)
    board = view["board"]
    board["table"][1] = dict(board["table"][1], x=231.0)  # as if it had rolled far away
    left, right = table_span(board)
    assert left <= -5 and right >= 239.0
    render_png(view, str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").stat().st_size > 1000


def test_r11_4_a_resignation_is_a_resolution_and_carries_its_hash() -> None:
    """Rule 11.4 (B-11.7: every logged resolution carries the state hash): a resignation
    takes pieces off the table and re-settles it, so its record line carries the hash too,
    and a replay that settles differently is refused."""
    from boardlab.core import Record, RecordError

    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass", "rel 30", "build BR1 0", "pass", "pass", "rel 90",
         "build CU1 0", "pass", "pass", "rel 150", "build CU2 0", "resign")
    record = Record.for_state(state)
    assert record.moves[-1] == f"resign #{state.state_hash()[:16]}"
    assert record.movers[-1] == 1, "player 1 resigned at their own decision (the auction)"
    assert Record.loads(record.dumps()).replay().position() == state.position()
    record.turns[-1] = dataclasses.replace(record.turns[-1], notation="resign #" + "0" * 16)
    with pytest.raises(RecordError, match="physics divergence"):
        record.replay()


def test_text_view_counts_tokens_in_words() -> None:
    from tests.honor.helpers import with_fields

    state = with_fields(exact_game(2).new_state(seed=1), pools=[1, 10], bank=9)
    text = state.render(None)
    assert "1 token," in text and "10 tokens," in text


def test_r6_3_a_pushed_first_piece_is_the_foundation_and_r6_2_no_foundation_is_standing() -> None:
    """Rule 6.3 (H-17): the first piece a player places is their foundation, also when it was
    pushed to them; it is placed inside their zone and may touch the table. Rule 6.2
    (H-11): a player with no piece yet is standing."""
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass", "rel 30")
    assert state.standing == (True, True, True), "players 1 and 2 have no foundation yet and stand"
    play(state, "push LG1", "acc")  # player 1 pushes; player 2 accepts the log: their foundation
    assert state.placing.placer == 2
    low, high = state.release_window(2, "LG1", 0)
    assert 12000 <= low < high <= 18000, "a foundation's window is the placer's zone (rule 4.3)"
    play(state, "rel 150")
    log = next(p for p in state.table if p.pid == "LG1")
    assert log.owner == 2 and log.foundation and state.standing == (True, True, True)
    assert not state.last["collapses"], "a foundation touching the table is no collapse"


def test_r6_1_an_eliminated_players_tokens_go_to_the_bank_and_pieces_to_the_supply() -> None:
    """Rule 6.1 (H-09, H-20): a collapsed player's pieces, foundation included, return to the
    supply and their pool goes to the bank; the others play on (rule 8)."""
    state = exact_game(3).new_state(seed=1)
    play(state, "build SL1 0", "pass", "pass", "rel 30", "build BR1 0", "pass", "pass", "rel 90",
         "build CU1 2", "pass", "pass", "rel 150")
    assert state.pools == (10, 10, 8) and state.bank == 2
    play(state, "push CU2", "passon", "acc", "rel 146.5")  # 3.5 cm left of player 2's cube: a miss
    assert state.standing == (True, True, False) and state.out_at[2] is not None
    assert state.pools == (10, 9, 0) and state.bank == 11
    assert {"CU1", "CU2"} <= set(state.supply) and all(p.owner != 2 for p in state.table)
    assert not state.is_over() and state.phase == "CHOOSE" and state.turn_player == 1
