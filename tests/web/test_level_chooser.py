"""The lobby's level chooser (static/js/lobby.js) names each level in a player's words: its name,
its measured strength labelled as a rating ("rated 1600") and how long it takes a move, where the
catalog has these measurements (docs/levels.md); the agent's settings never show. Under the
seats, each chosen level is said in full in the catalog's words for players (``for_players``, no
engine setting), the rating's scale explained."""

from __future__ import annotations

import json
from typing import Any


def rated_catalog(route: Any) -> None:
    """The real catalog, with only Towers' hard level measured, as a ladder.json would measure it."""
    response = route.fetch()
    games = response.json()
    for game in games:
        for entry in game["levels"]:
            rated = game["id"] == "towers" and entry["level"] == "hard"
            entry.update(elo=1612.4 if rated else None, rating="about 1600" if rated else None,
                         seconds_typical=1.2 if rated else None, seconds_longest=4.4 if rated else None)
    route.fulfill(response=response, body=json.dumps(games))


def seat_choices(page: Any, seat: int) -> list[str]:
    return list(page.locator(f"#seat-{seat} option").all_inner_texts())


def test_a_rated_level_reads_its_rating_and_its_time_never_its_settings(page: Any) -> None:
    page.route("**/api/games", rated_catalog)
    page.goto("/?game=towers")
    page.wait_for_selector("#seat-1 option[value='computer:hard']", state="attached")
    choices = seat_choices(page, 1)
    # every level of the game is offered, weakest first; an unmeasured one reads its name alone
    computer = [text for text in choices if text.startswith("the computer")]
    assert computer == ["the computer: beginner", "the computer: easy", "the computer: normal",
                        "the computer: hard · rated 1600 · about 1 s a move", "the computer: expert"]
    assert page.locator("#seat-1").input_value() == "computer:normal"
    page.select_option("#seat-1", "computer:hard")
    help_text = page.locator("#level-help").inner_text()
    assert "Rated 1600 on an Elo scale where random moves are 0" in help_text
    assert "takes about 1 s a move" in help_text and "longest move took 4 s" in help_text
    assert "mcts" not in help_text and "iterations" not in " ".join(choices)
    assert "positions" not in help_text and "a search of" not in help_text  # the spec's words are the Lab's
    # another game: its own levels, without Towers' rating
    page.select_option("#game", "overseer")
    page.wait_for_function("document.querySelector('#create')?.textContent.includes('Overseer')")
    assert "the computer: hard" in seat_choices(page, 1) and not any("rated" in text for text in seat_choices(page, 1))
    # a game with a fifth level offers it last, above hard
    page.select_option("#game", "sovereign")
    page.wait_for_function("document.querySelector('#create')?.textContent.includes('Sovereign')")
    computer = [text for text in seat_choices(page, 1) if text.startswith("the computer")]
    assert [text.split(" ·")[0] for text in computer][-2:] == ["the computer: hard", "the computer: expert"]


def test_the_level_help_says_each_chosen_level_in_a_players_words(page: Any) -> None:
    page.goto("/?game=towers")
    page.wait_for_selector("#seat-1 option[value='computer:hard']", state="attached")
    catalog = {game["id"]: game for game in page.evaluate("fetch('/api/games').then((answer) => answer.json())")}
    words = {entry["level"]: entry["for_players"] for entry in catalog["towers"]["levels"]}
    page.select_option("#seat-1", "computer:hard")
    help_text = page.locator("#level-help").inner_text()
    # the catalog's words for players, as a sentence; never the search's settings
    assert "positions" not in help_text and "search of" not in help_text and "evaluation" not in help_text
    said = help_text.split(" Rated ")[0].split(" It ")[0]  # then the measured rating and times, in figures
    assert said == f"hard: {words['hard'][0].upper()}{words['hard'][1:]}.", said
    # Honor's levels place their pieces with a shaky or a steady hand, said in plain words
    page.select_option("#game", "honor")
    page.wait_for_function("document.querySelector('#create')?.textContent.includes('Honor')")
    page.select_option("#seat-1", "computer:easy")
    help_text = page.locator("#level-help").inner_text()
    assert "shaky hand" in help_text and "tremor" not in help_text and "placements" not in help_text, help_text
