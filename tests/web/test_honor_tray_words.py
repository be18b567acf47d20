"""Honor's play page while a piece is aimed, as a newcomer reads it: the supply tray names its
pieces in words ("slab", "log 1": the number only where the set has two of a kind) and the label
over the piece in the hand, the line beside the controls and the one by the drop button say the
piece and where it is against the player's tower (and how far it may go) in the words the move
list will use for its release, never engine codes like SL1 or LG2 (rule 10.2.1).
The codes stay where they are data (data-key, data-pid) and in the API's notation."""

from __future__ import annotations

import re
from typing import Any

from tests.web.browser import Server
from tests.web.steps import HONOR_TO_AIMING, honor_room_aiming, wait_for_moves

CODE = re.compile(r"\b[A-Z]{2}\d\b")


def test_the_tray_and_the_piece_in_the_hand_are_named_in_words_while_aiming(page: Any, web_server: Server) -> None:
    room, token, _state = honor_room_aiming(page, web_server, [0, 1])

    # the tray: every piece by its name, numbered only where the set has more than one of its kind
    tray = page.locator("#board .honor-supply")
    tray_text = tray.inner_text()
    assert not CODE.findall(tray_text), f"the tray shows piece codes: {tray_text!r}"
    labels = {button.get_attribute("data-key"): button.inner_text().strip()
              for button in tray.locator(".honor-supply-piece").all()}
    assert labels["SL1"] == "slab" and labels["LG1"] == "log 1" and labels["BR3"] == "brick 3", labels
    assert labels["AR2"] == "arch 2" and labels["PS1"] == "short plank 1", labels
    assert "LG2" not in labels and "BR1" not in labels, "the log in the hand and the placed bricks are not in the supply"

    # the label over the piece in the hand: its name and where it is against Red's tower
    label = page.locator("#board .honor-hand-label")
    start = label.text_content() or ""
    assert not CODE.findall(start), f"the hand label shows a piece code: {start!r}"
    assert re.fullmatch(r"the log · .*its tower", start), start
    assert "cm ·" not in start and "°" not in start, f"no coordinates as the label: {start!r}"

    # turned and moved, it says so in the move list's words, and dropping it there plays just that
    page.locator("#board button[title='5° to the left']").click()
    hand = page.locator("#board [data-hand]")
    hand.focus()
    page.keyboard.press("Shift+ArrowLeft")
    page.keyboard.press("Shift+ArrowLeft")
    aimed = label.text_content() or ""
    assert not CODE.findall(aimed), aimed
    name, where, turn = aimed.split(" · ")
    assert name == "the log" and turn == "turned 5 degrees to the left", aimed
    assert where.endswith("of its tower") and where != start.split(" · ")[1], f"the label follows the hand: {aimed!r}"
    # the controls say the same place, and how far the piece may go, in words: no coordinates
    readout = page.locator("#board .honor-aim-words").inner_text()
    assert readout.startswith(where[0].upper() + where[1:] + "; it may drop from "), readout
    assert re.search(r"from \S.* past the left end of its tower to .* past the right end of its tower\.$", readout), readout
    assert "legal" not in readout and not re.search(r"\d\.\d\d", readout), f"no coordinates: {readout!r}"
    drop_where = page.locator("#board .honor-drop-where").inner_text()
    assert drop_where == where, f"the drop button's line says where it drops: {drop_where!r}"
    hand.focus()
    page.keyboard.press("Enter")
    wait_for_moves(page, len(HONOR_TO_AIMING) + 1)
    played = web_server.state(room, token)["log"][-1]
    assert played["move"]["notation"].startswith("rel "), "the API keeps the notation"
    assert played["text"] == f"release the log, {turn}, {where}", "the hand said what the move list says"
