"""Every game draws a PNG of a position, through ``boardlab render`` too.

The pictures are read back, not just found: their size is the documented layout's, the pixels
where a piece stands are that piece's colour (and where none stands are not), and different
positions give different pictures.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import boardlab
from boardlab.agents import seat_agents
from boardlab.cli.render import picture_renderer
from boardlab.cli.replay import move_boundaries
from boardlab.core import Match
from boardlab.core.pictures import picture_title
from tests.cli.test_commands import run

Image = pytest.importorskip("PIL.Image")

from boardlab.games.overseer import render_image as overseer_picture  # noqa: E402
from boardlab.games.sovereign import render_image as sovereign_picture  # noqa: E402
from boardlab.games.territories import render_image as territories_picture  # noqa: E402
from boardlab.games.territories.view import card_code_words  # noqa: E402
from boardlab.games.towers import render_image as towers_picture  # noqa: E402

NEW_RENDERERS = ("towers", "sovereign", "overseer", "territories")


def played(game_id: str, plies: int, seed: int, **options: Any) -> boardlab.State:
    """A position after ``plies`` random moves (chance sampled from the same seeded generator)."""
    state = boardlab.load(game_id, **options).new_state(seed)
    rng = random.Random(seed)
    for _ in range(plies):
        if state.is_over():
            break
        state.apply(state.sample_chance(rng) if state.is_chance() else rng.choice(state.legal_moves()))
    return state


def drawn(state: boardlab.State, path: Path, viewer: int | None = 0) -> Any:
    picture_renderer(state.game)(state.view(viewer), str(path))
    return Image.open(path).convert("RGB")


def colour_at(image: Any, centre: tuple[int, int], radius: int = 8) -> str:
    """The most common colour in a small square round ``centre``, as #rrggbb (a letter or an
    outline drawn there covers less than the piece's face)."""
    x, y = centre
    counts = Counter(image.getpixel((i, j)) for i in range(x - radius, x + radius + 1)
                     for j in range(y - radius, y + radius + 1))
    red, green, blue = counts.most_common(1)[0][0]
    return f"#{red:02x}{green:02x}{blue:02x}"


@pytest.mark.parametrize("game_id", (*NEW_RENDERERS, "honor"))
def test_every_game_has_a_picture_renderer(game_id: str) -> None:
    assert picture_renderer(boardlab.load(game_id)) is not None


def test_a_game_without_a_render_image_module_has_none() -> None:
    assert picture_renderer(boardlab.load("dicenim")) is None


@pytest.mark.parametrize("players", [2, 4])
def test_towers_squares_show_their_top_piece(players: int, tmp_path: Path) -> None:
    state = played("towers", 60, seed=players, players=players)
    image = drawn(state, tmp_path / "t.png")
    assert image.size == towers_picture.PICTURE_SIZE
    board = state.view(0)["board"]
    stacked = empty = 0
    for row, cells in enumerate(board["stacks"]):
        for file, stack in enumerate(cells):
            name = f"{'abcdefg'[file]}{7 - row}"
            colour = colour_at(image, towers_picture.square_centre(name))
            faces = {face for face, _ in towers_picture.PIECE_COLOURS.values()}
            if stack:
                stacked += 1
                assert colour == towers_picture.PIECE_COLOURS[stack[-1]][0], (name, stack)
            else:
                empty += 1
                assert colour not in faces, name
    assert stacked and empty


def test_towers_crowned_castle_is_ringed_in_gold(tmp_path: Path) -> None:
    # rule 3: a castle 5 high is crowned; the position string puts a crown on d4
    game = boardlab.load("towers")
    row, castle_row = "-,-,-,-,-,-,-", "-,-,-,C,-,-,-"
    ranks = [row, castle_row, row, "-,C,-,CWWWW,-,C,-", row, "W,-,-,C,-,-,B", row]  # rank 7 first
    position = "/".join(ranks) + " W"
    state = game.state_from_position(position)
    assert state.view(0)["board"]["crowned"] == {"d4": 0}
    image = drawn(state, tmp_path / "crown.png")
    x, y = towers_picture.square_centre("d4")
    edge = towers_picture.CELL // 2 - 5  # the ring runs 5 px inside the square's edge
    assert colour_at(image, (x, y - edge), radius=1) == towers_picture.CROWN
    assert colour_at(image, towers_picture.square_centre("a4"), radius=1) != towers_picture.CROWN


def test_sovereign_pieces_and_towers_in_their_colours(tmp_path: Path) -> None:
    state = played("sovereign", 40, seed=1)
    image = drawn(state, tmp_path / "s.png")
    assert image.size == sovereign_picture.PICTURE_SIZE
    board = state.view(0)["board"]
    seen = set()
    for row in range(7):
        for file in range(7):
            name = f"{'abcdefg'[file]}{7 - row}"
            letter, height = board["pieces"][row][file], board["heights"][row][file]
            colour = colour_at(image, sovereign_picture.square_centre(name), radius=4)
            if letter:
                expected = sovereign_picture.SIDES[0 if letter.isupper() else 1][0]
            elif height:
                expected = sovereign_picture.LEVELS[height - 1][1]
            else:
                expected = sovereign_picture.GROUND
            assert colour == expected, (name, letter, height)
            seen.add(expected)
    assert len(seen) >= 4  # both sides' pieces, bare ground and at least one tower level


def test_overseer_pieces_sit_on_their_squares_of_the_disc(tmp_path: Path) -> None:
    state = played("overseer", 30, seed=2)
    image = drawn(state, tmp_path / "o.png")
    assert image.size == overseer_picture.PICTURE_SIZE
    board = state.view(0)["board"]
    for name, piece in board["pieces"].items():
        assert colour_at(image, overseer_picture.square_centre(name)) == overseer_picture.SIDES[piece["seat"]][0], name
    dark = set(board["dark_squares"])
    touched = {board["last_move"]["from"], board["last_move"]["to"]}
    for sector in board["sectors"]:
        for index in range(1, board["indices"] + 1):
            name = f"{sector}{index}"
            if name in board["pieces"] or name in touched:
                continue
            expected = overseer_picture.DARK if name in dark else overseer_picture.LIGHT
            assert colour_at(image, overseer_picture.square_centre(name), radius=3) == expected, name


def test_territories_buildings_cards_and_the_rolled_number(tmp_path: Path) -> None:
    state = played("territories", 120, seed=3)
    board = state.view(0)["board"]
    image = drawn(state, tmp_path / "te.png")
    assert image.size == territories_picture.picture_size(board)
    assert len(board["buildings"]) >= 4
    for x, y, owner, _kind in board["buildings"]:
        centre = territories_picture.corner_centre(board, x, y)
        assert colour_at(image, centre, radius=5) == territories_picture.SEATS[owner][0], (x, y)
    rolled = sum(board["last_roll"])
    for column, row, code in board["grid"]:
        cx, cy = territories_picture.cell_centre(board, column, row)
        # the card's big suit symbol sits in its middle, in the suit's colour (rule R1: four suits)
        pixels = {image.getpixel((i, j)) for i in range(cx - 6, cx + 7) for j in range(cy - 8, cy + 5)}
        suit = territories_picture.SUIT_COLOUR[code[1]]
        assert tuple(int(suit[k:k + 2], 16) for k in (1, 3, 5)) in pixels, code
        # a card whose number was rolled is lit (rule R4: it produces)
        corner_face = colour_at(image, (cx - 30, cy + 30), radius=2)
        lit = territories_picture.card_number(code) == rolled
        assert (corner_face == territories_picture.LIT) == lit, code


def test_territories_picture_shows_only_what_the_viewer_may_see() -> None:
    # R11: the other hand's cards stay hidden unless they entered it face up; the viewer's own show
    state = played("territories", 120, seed=3)
    secret = state.secrets(1)
    assert secret  # the position does hide something from Black
    # the hand lines only: a count of resources such as "13♥" would read as a card
    lines = "\n".join(line for line in territories_picture.panel_lines(state.view(1)) if "hand:" in line)
    for code in state.view(1)["board"]["seats"][1]["territories"]:
        assert card_code_words(code) in lines
    for code in secret:
        assert card_code_words(code) not in lines, code
    other = state.view(1)["board"]["seats"][0]
    assert f"{other['territory_count'] - len(other['territories'])} unseen" in lines


@pytest.mark.parametrize("game_id", NEW_RENDERERS)
def test_distinct_positions_give_distinct_pictures(game_id: str, tmp_path: Path) -> None:
    early = played(game_id, 30, seed=5)
    later = early.copy()
    while later.ply < early.ply + 4 and not later.is_over():
        rng = random.Random(later.ply)
        later.apply(later.sample_chance(rng) if later.is_chance() else rng.choice(later.legal_moves()))
    first = drawn(early, tmp_path / "a.png")
    again = drawn(early, tmp_path / "b.png")
    second = drawn(later, tmp_path / "c.png")
    assert first.tobytes() == again.tobytes()  # the same position, the same picture
    assert first.tobytes() != second.tobytes()


@pytest.mark.parametrize("game_id", NEW_RENDERERS)
def test_render_draws_a_record_at_a_move(game_id: str, tmp_path: Path) -> None:
    game = boardlab.load(game_id)
    match = Match(game, seat_agents(game, ["random"] * game.num_players, 7), seed=7)
    while match.decisions < 14 and not match.is_over():
        match.play_computer()
    record = tmp_path / "game.json"
    match.record().save(record)
    target = tmp_path / "board.png"
    done = run("render", str(record), "--move", "12", "-o", str(target), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"Wrote the picture {target}" in done.stdout.replace("\n", "")
    assert "after move 12" in " ".join(done.stdout.split())  # the terminal may wrap a long path anywhere
    # move 12 as players count them: the twelfth decision and the chance after it (a deal is no move)
    expected = tmp_path / "expected.png"
    loaded = boardlab.Record.load(record)
    view = loaded.state_at(move_boundaries(loaded.turns)[12]).view(None)
    picture_renderer(game)({**view, "moves_made": 12}, str(expected))
    assert Image.open(target).convert("RGB").tobytes() == Image.open(expected).convert("RGB").tobytes()


def test_a_pictures_heading_numbers_the_players_moves_not_the_chance_outcomes() -> None:
    # Territories' deal is 20 chance outcomes and its seat draw one more: the ply ran 21 ahead
    game = boardlab.load("territories")
    match = Match(game, seat_agents(game, ["random", "random"], 5), seed=5)
    while match.decisions < 5:
        match.play_computer()
    view, made = match.view(None), match.decisions
    assert view["ply"] > made + 20
    titled = picture_title("Territories", {**view, "moves_made": made})
    assert titled.startswith(f"Territories, move {made + 1}"), titled
    assert picture_title("Territories", view).startswith(f"Territories, move {view['ply'] + 1}")  # no count given
