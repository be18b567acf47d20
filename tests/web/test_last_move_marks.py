"""The board marks the last move from the move's structure that the log carries: renderers
read structure, never notation text."""

from __future__ import annotations

from typing import Any

import pytest

from tests.web.browser import Server
from tests.web.test_boards import enter, here_room

#: moves played through the API first: the last of them is the one marked
MOVES = {"towers": 5, "sovereign": 17, "overseer": 4, "territories": 1}


def expected_keys(game: str, move: dict[str, Any]) -> set[str]:
    if game == "towers":
        return {move["square"] if move["type"] == "build" else move["from"]}
    if game == "overseer":
        return {move["from"], move["to"]}
    if game == "sovereign":
        return {move[field] for field in ("square", "tower", "from", "to", "build") if isinstance(move.get(field), str)}
    keys = {f"pt:{move['point'][0]},{move['point'][1]}"} if "point" in move else set()
    return keys | ({f"cell:{move['cell'][0]},{move['cell'][1]}"} if "cell" in move else set())


@pytest.mark.parametrize("game", sorted(MOVES))
def test_the_last_move_is_marked_where_its_structure_says(page: Any, web_server: Server, game: str) -> None:
    created = here_room(web_server, game, MOVES[game], seed=3)
    last = created["state"]["log"][-1]
    # the move's structure comes with it, whatever words the move list reads it in
    assert last["move"] is not None and last["move"]["notation"]
    expected = expected_keys(game, last["move"])
    assert expected, last
    enter(page, game, created)
    page.wait_for_selector("#board .bl-last")
    marked = page.eval_on_selector_all("#board [data-key]:has(> .bl-last)", "nodes => nodes.map(n => n.dataset.key)")
    assert set(marked) == expected
