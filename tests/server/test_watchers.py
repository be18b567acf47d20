"""A watcher's log delta: only new entries, unless the client's entries no longer hold."""

from __future__ import annotations

import asyncio
import json

from boardlab.server.watchers import Update, Watcher


def state(seat: int | None, log: list[str]) -> Update:
    return Update({"type": "state", "seat": seat, "log": log})


def sent(watcher: Watcher) -> dict[str, object]:
    message: dict[str, object] = json.loads(asyncio.run(watcher.next_message()))
    return message


def test_the_same_viewer_gets_only_the_entries_after_those_it_holds() -> None:
    watcher = Watcher(held=[0], seat=0)
    watcher.push(state(0, ["a", "b"]), unchanged_log=0)
    assert sent(watcher)["log"] == ["a", "b"]
    watcher.push(state(0, ["a", "b", "c"]), unchanged_log=2)
    message = sent(watcher)
    assert message["log_start"] == 2 and message["log"] == ["c"]


def test_an_undo_resends_from_the_first_entry_it_changed() -> None:
    watcher = Watcher(held=[0], seat=0)
    watcher.push(state(0, ["a", "b", "c"]), unchanged_log=0)
    sent(watcher)
    watcher.push(state(0, ["a", "x"]), unchanged_log=1)
    message = sent(watcher)
    assert message["log_start"] == 1 and message["log"] == ["x"]


def test_a_token_holding_both_seats_gets_the_log_again_where_it_reads_differently_for_the_new_viewer() -> None:
    # at one screen the viewer is the seat to move; seat 0's entries may show what seat 1
    # may not see (its own hidden cards), so they are written again for seat 1
    watcher = Watcher(held=[0, 1], seat=None)
    watcher.push(state(0, ["drew 3 Hearts", "built"]), unchanged_log=0)
    sent(watcher)
    watcher.push(state(1, ["drew a card", "built", "rolled 7"]), unchanged_log=2)
    message = sent(watcher)
    assert message["log_start"] == 0 and message["log"] == ["drew a card", "built", "rolled 7"]
    watcher.push(state(1, ["drew a card", "built", "rolled 7", "passed"]), unchanged_log=3)
    message = sent(watcher)
    assert message["log_start"] == 3 and message["log"] == ["passed"]


def test_a_log_that_reads_the_same_for_both_seats_still_comes_as_a_delta() -> None:
    # a game without hidden moves: the viewer changes every move, the entries do not
    watcher = Watcher(held=[0, 1], seat=None)
    watcher.push(state(0, ["e2", "e7"]), unchanged_log=0)
    sent(watcher)
    watcher.push(state(1, ["e2", "e7", "d2"]), unchanged_log=2)
    message = sent(watcher)
    assert message["log_start"] == 2 and message["log"] == ["d2"]
    # the first entries alike, the second not: sent again from the second
    watcher.push(state(0, ["e2", "drew 3 Hearts", "d2", "d7"]), unchanged_log=3)
    message = sent(watcher)
    assert message["log_start"] == 1 and message["log"] == ["drew 3 Hearts", "d2", "d7"]


def test_watchers_that_see_a_change_alike_share_one_encoding() -> None:
    # a room's spectators: one message, encoded once for all of them (a hundred watchers cost
    # one encoding); a watcher that holds fewer entries gets its own, from where it stands
    update = state(None, ["a", "b", "c"])
    caught_up = [Watcher(held=[], seat=None) for _ in range(100)]
    for watcher in caught_up:
        watcher.push(state(None, ["a", "b"]), unchanged_log=0)
        sent(watcher)
        watcher.push(update, unchanged_log=2)
    late = Watcher(held=[], seat=None)
    late.push(update, unchanged_log=2)
    texts = [asyncio.run(watcher.next_message()) for watcher in caught_up]
    assert all(text is texts[0] for text in texts)  # the same object: encoded once
    assert json.loads(texts[0])["log"] == ["c"]
    assert json.loads(asyncio.run(late.next_message()))["log"] == ["a", "b", "c"]
