"""A person's name, as others will see it beside theirs: trimmed, at most 40 characters, and
refused with a sentence that says why when it shows nothing or hides or reorders the text."""

from __future__ import annotations

import pytest

from tests.server.harness import Harness


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("x" * 41, "a name is at most 40 characters; this one has 41"),
        ("   ", "a name needs a letter, a digit or a sign"),
        ("\u200b", "a name needs a letter, a digit or a sign"),  # a zero-width space alone shows nothing
        # a right-to-left override would reverse what follows
        ("Ann\u202eevil", "a name may not hold a mark that changes the direction of the text (U+202E)"),
        ("Ann\x07", "a name may not hold a control character (U+0007)"),
    ],
)
def test_a_name_that_shows_nothing_or_hides_text_is_refused_in_words(sqlite_server: Harness, name: str, reason: str) -> None:
    for path, body in (
        ("/api/players", {"name": name}),
        ("/api/rooms", {"game": "towers", "seats": ["here", "here"], "names": [name, None]}),
    ):
        response = sqlite_server.client.post(path, json=body)
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["code"] == "bad_request" and reason in error["message"], error
        assert "items" not in error["message"]
        if path == "/api/rooms":
            assert error["message"].startswith("seat 0's name: ")  # a seat as the API numbers it, not "names.0"
        else:
            assert error["message"].startswith("a name ")  # the request's one name: no field path before it


def test_a_name_is_kept_trimmed_and_may_hold_any_script_and_emoji(sqlite_server: Harness) -> None:
    for typed, kept in (("  Bea  ", "Bea"), ("Zoë 李", "Zoë 李"), ("👨\u200d👩\u200d👧 Ana", "👨\u200d👩\u200d👧 Ana")):
        response = sqlite_server.client.post("/api/players", json={"name": typed})
        assert response.status_code == 201, response.text
        assert response.json()["name"] == kept


def test_a_refused_seat_is_numbered_as_the_api_numbers_seats_and_named(sqlite_server: Harness) -> None:
    response = sqlite_server.client.post("/api/rooms", json={"game": "towers", "seats": ["here", "computer:hard:x"]})
    assert response.status_code == 422
    assert response.json()["error"]["message"].startswith("seat 1 (Black): unknown computer level 'hard:x'")
    response = sqlite_server.client.post("/api/rooms", json={"game": "towers", "seats": ["robot", "here"]})
    assert response.json()["error"]["message"].startswith("seat 0 (White): 'robot' is not a seat")


def test_a_refused_seat_lists_the_levels_of_its_own_game(sqlite_server: Harness) -> None:
    # Honor has no expert level, Overseer has one: each refusal lists what its game offers, and
    # a level of another game is refused with why this one has none
    response = sqlite_server.client.post("/api/rooms", json={"game": "honor", "seats": ["computer:nope", "here"]})
    assert response.status_code == 422
    assert response.json()["error"]["message"].endswith("levels: beginner, easy, normal, hard")
    response = sqlite_server.client.post("/api/rooms", json={"game": "overseer", "seats": ["here", "robot"]})
    assert "(levels: beginner, easy, normal, hard, expert)" in response.json()["error"]["message"]
    response = sqlite_server.client.post("/api/rooms", json={"game": "honor", "seats": ["computer:expert", "here"]})
    assert response.status_code == 422
    assert "honor has no expert level" in response.json()["error"]["message"]
