"""The lobby's level chooser (static/js/lobby.js) names each level with its measured strength,
"the computer: hard, about 1600", where the catalog has a rating for it (docs/levels.md)."""

from __future__ import annotations

import json
from typing import Any


def rated_catalog(route: Any) -> None:
    """The real catalog, with Towers' hard level rated as a ladder.json would rate it."""
    response = route.fetch()
    games = response.json()
    for game in games:
        for entry in game["levels"]:
            rated = game["id"] == "towers" and entry["level"] == "hard"
            entry["rating"] = "about 1600" if rated else None
    route.fulfill(response=response, body=json.dumps(games))


def seat_choices(page: Any, seat: int) -> list[str]:
    return list(page.locator(f"#seat-{seat} option").all_inner_texts())


def test_a_rated_level_reads_about_its_rating(page: Any) -> None:
    page.route("**/api/games", rated_catalog)
    page.goto("/?game=towers")
    page.wait_for_selector("#seat-1 option[value='computer:hard']", state="attached")
    choices = seat_choices(page, 1)
    assert "the computer: hard, about 1600" in choices
    # every level of the game is offered, weakest first; an unrated one reads its name alone
    computer = [text for text in choices if text.startswith("the computer")]
    assert computer == ["the computer: beginner", "the computer: easy", "the computer: normal",
                        "the computer: hard, about 1600", "the computer: expert"]
    assert page.locator("#seat-1").input_value() == "computer:normal"
    # another game: its own levels, without Towers' rating
    page.select_option("#game", "overseer")
    page.wait_for_function("document.querySelector('#create').textContent.includes('Overseer')")
    assert "the computer: hard" in seat_choices(page, 1) and not any("about" in text for text in seat_choices(page, 1))
    # a game with a fifth level offers it last, above hard
    page.select_option("#game", "sovereign")
    page.wait_for_function("document.querySelector('#create').textContent.includes('Sovereign')")
    computer = [text for text in seat_choices(page, 1) if text.startswith("the computer")]
    assert [text.split(",")[0] for text in computer][-2:] == ["the computer: hard", "the computer: expert"]
