"""A playtest in the browser, from the designer's session to their Playtests page: the designer
opens a session with a rule variant; two people come by its link, each gives a name, they play
the session's rules (each seeing the other's name), both answer the form at the end (one then
deletes theirs and answers again); the designer's page shows the game, the answers, the note
with its replay, and the Lab's study of the same rules beside them."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from boardlab.lab.playtests import with_texts
from boardlab.lab.store import StudyFolder
from boardlab.lab.study import Study, Variant, run_study
from boardlab.lab.verdict import percent_text
from tests.web.browser import Server
from tests.web.conftest import assert_no_serious_violations
from tests.web.steps import PLAY, play_by_clicking, wait_for_moves, wait_for_turn


def lab_study_of_the_variant(server: Server) -> None:
    """A small Lab study of Towers with the pinwheel layout, stored where the server's Lab keeps studies."""
    study = Study(game_id="towers", variants=(Variant("layout=pinwheel", {"layout": "pinwheel"}, ("greedy",)),), games=4, seed=5)
    run_study(study, sink=StudyFolder(server.log.parent / "lab" / secrets.token_hex(6) / "study", study))


def answer_form(page: Any, fun: int, fair: str, length: str, note: str = "") -> None:
    form = page.locator("#playtest form.playtest-form")
    form.wait_for()
    form.locator(f'input[name$="-fun"][value="{fun}"]').check()
    form.locator(f'input[name$="-fair"][value="{fair}"]').check()
    form.locator(f'input[name$="-length"][value="{length}"]').check()
    if note:
        form.locator("textarea").fill(note)
    form.locator(".playtest-send").click()
    page.locator("#playtest .playtest-answered").wait_for()


def test_two_people_playtest_a_session_and_the_designers_page_shows_it(
    new_page: Callable[[], Any], web_server: Server, axe_script: Path
) -> None:
    lab_study_of_the_variant(web_server)
    # the designer (this computer's browser is the server's admin: no key needed here)
    designer = new_page()
    designer.context.add_init_script(path=str(axe_script))
    designer.goto("/playtests/towers")
    # a name of its own: the server is shared, and a game's session names are unique
    designer.locator("#pt-session-name").fill(f"Club night {secrets.token_hex(3)}")
    designer.select_option("#option-layout", "pinwheel")
    designer.locator("#pt-open").click()
    link = designer.locator("#pt-opened .invite-link").input_value()
    assert "/?playtest=" in link

    ada = new_page()
    ada.context.add_init_script(path=str(axe_script))
    ada.goto(link)
    invitation = ada.locator("#playtest-invitation")
    invitation.locator("#playtest-invite").wait_for()
    assert "Club night" in invitation.inner_text() and "layout pinwheel" in invitation.inner_text()
    ada.locator("#playtest-name").fill("Ada")
    ada.locator("#playtest-invite").click()
    invite = ada.locator("#created .invite-link").input_value()
    ada.locator("#open-room").click()
    ada.wait_for_function(f"() => {PLAY}.status === 'waiting'")

    ben = new_page()
    ben.goto(invite)
    ben.locator("#join-name").fill("Ben")
    ben.locator("#join-button").click()
    ben.wait_for_function(f"() => {PLAY}.mode === 'live'")
    # each sees the other's name; the lobby's public list does not
    ada.wait_for_function("() => document.getElementById('players')?.innerText.includes('Ben')")
    ben.wait_for_function("() => document.getElementById('players')?.innerText.includes('Ada')")
    assert "Ada" not in str(web_server.client.get("/api/rooms").json())

    rng = random.Random(3)
    for turn, page in enumerate((ada, ben, ada)):
        wait_for_turn(page)
        play_by_clicking(page, rng)
        wait_for_moves(page, turn + 1)
    ben.wait_for_function(f"() => {PLAY}.yourTurn === 'true'")
    ben.locator("#resign").click()
    ben.locator("#resign").click()  # "Really resign?"
    for page in (ada, ben):
        page.wait_for_function(f"() => {PLAY}.status === 'finished'")

    ada.locator("#playtest form.playtest-form").wait_for()
    assert_no_serious_violations(ada, "the playtest form")
    answer_form(ada, 4, "favoured:1", "long", "Black's start on the pinwheel looks stronger")
    answer_form(ben, 2, "fair", "right")
    # a player deletes their answers, and may answer again
    ben.locator("#playtest .playtest-delete").click()
    ben.locator("#playtest .playtest-skipped button").click()
    answer_form(ben, 5, "fair", "right")

    designer.reload()
    report = designer.locator("#pt-report")
    # other tests on this server play Towers between people too: their games are a variant of their own
    report.locator('.variant[data-variant="layout=pinwheel"]').wait_for()
    assert "between people" in designer.locator("#pt-count").inner_text()
    variant = report.locator('.variant[data-variant="layout=pinwheel"]')
    text = variant.inner_text()
    assert text.startswith("layout=pinwheel: 1 game, 2 players"), text
    assert "4.5" in text  # fun: 4 and 5
    assert variant.locator(".pt-endings").inner_text().startswith("Endings among people: resign 1; in the lab: ")
    # the Lab's study of the same rules beside people's, said in words: no path of the server's
    assert "The lab's figures: 4 games of Towers (layout=pinwheel), greedy in every seat." in text
    assert str(web_server.log.parent) not in designer.locator("body").inner_text()
    assert variant.locator(".pt-figures th", has_text="the Lab (greedy, 4 games)").count() == 1
    note = variant.locator(".pt-notes li")
    assert "Black's start on the pinwheel looks stronger" in note.inner_text() and "Ada" in note.inner_text()
    room = ada.url.split("/rooms/")[1]
    assert note.locator("a").get_attribute("href") == f"/rooms/{room}"
    assert "Club night" in variant.locator(".pt-sessions").inner_text()
    assert_no_serious_violations(designer, "the Playtests page")
    # the player's own page: the game, its result for them, their answer
    ada.goto("/player")
    ada.locator("#results tbody tr").wait_for()
    assert "you won" in ada.locator("#results").inner_text() and "Ben" in ada.locator("#results").inner_text()
    assert "pinwheel looks stronger" in ada.locator("#answers").inner_text()
    assert_no_serious_violations(ada, "the player's page")


def a_share(value: float, low: float, high: float, games: int) -> dict[str, Any]:
    return {"value": value, "low": low, "high": high, "games": games}


def test_the_playtests_table_rounds_a_share_as_the_verdicts_sentence_does(
        new_page: Callable[[], Any], web_server: Server) -> None:
    # a share exactly halfway between two whole points, and bounds that rounding to the nearest
    # point would move inward: the sentence (boardlab.lab.verdict) rounds half up and outward
    people = a_share(0.5, 0.2666, 0.8112, 12)
    lab = a_share(0.625, 0.3864, 0.8152, 24)
    difference = a_share(-0.125, -0.4153, 0.1450, 12)
    sentence = (f"No clear difference from the lab in who wins: the first player wins {percent_text(people)} among people, "
                f"{percent_text(lab)} in the lab.")
    nothing = {"value": None, "low": None, "high": None, "games": 0}
    form = {"answers": 0, "fun": nothing, "fair": nothing, "favoured": [nothing, nothing],
            "length": {"short": nothing, "right": nothing, "long": nothing}}
    variant = {
        "variant": "", "players": 2, "seat_names": ["White", "Black"], "verdict": [sentence], "endings": "",
        "people": {"games": 12, "form": form, "notes": [], "metrics": {"first_player_wins": people, "decisions": nothing}},
        "sessions": [], "lab_command": "",
        "lab": {"games": 24, "study": {"agents": ["easy"], "report": "/lab/abc123/report", "about": "24 games of Towers"}},
        "rows": [{"key": "first_player_wins", "title": "first player wins", "percent": True, "people": people, "lab": lab,
                  "difference": difference, "sure": False}],
    }
    with_texts(variant)
    report = {"games": 12, "left_out": {}, "sessions": [], "variants": [variant]}
    page = new_page()
    page.route("**/api/playtests/games/towers", lambda route: route.fulfill(json=report))
    page.goto("/playtests/towers")
    row = page.locator('.pt-figures tr[data-key="first_player_wins"] td')
    row.first.wait_for()
    assert row.all_inner_texts() == [percent_text(people), percent_text(lab), "-13 [-42, 15]"]
    assert percent_text(lab) == "63% [38, 82]"  # the figures above read in one rounding only where this holds
    assert page.locator("ul.verdict li").inner_text() == sentence
    assert page.locator(".pt-lab-study a").get_attribute("href") == "/lab/abc123/report"
