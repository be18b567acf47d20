"""The lobby says the server's refusals in its own terms: the form calls the seats "Player 1",
"Player 2", where the API numbers them from 0 ("seat 0's name: ...", docs/server.md)."""

from __future__ import annotations

from typing import Any


def test_a_refused_name_is_said_as_the_forms_player(page: Any) -> None:
    page.goto("/?game=towers")
    page.wait_for_selector("#name-1")
    page.select_option("#seat-1", "here")
    # a right-to-left override would reverse the text after it: the server refuses both names
    page.fill("#name-0", "Ann\u202eevil")
    page.fill("#name-1", "Bo\u202eb")
    with page.expect_response(lambda answer: answer.url.endswith("/api/rooms") and answer.request.method == "POST") as sent:
        page.locator("#create").click()
    assert sent.value.status == 422
    assert sent.value.json()["error"]["message"].startswith("seat 0's name: ")  # the API keeps its numbers
    error = page.locator("#create-error")
    error.wait_for(state="visible")
    text = error.inner_text()
    assert text.startswith("Player 1's name: a name may not hold a mark that changes the direction"), text
    assert "Player 2's name: " in text and "seat 0" not in text and "seat 1" not in text, text
    assert "/rooms/" not in page.url  # nothing was created
