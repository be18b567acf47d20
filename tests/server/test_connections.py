"""Connections where ``boardlab serve`` accepts them: two thousand idle connections from one
address leave another client's moves quick, the address's next connection gets a JSON
``429`` with ``Retry-After``, idle connections and half-sent heads are closed on time, a head
too large is refused however it arrives (and a client still sending reads the refusal, then is cut
off on time), a WebSocket message too large is told why before the
close, and every such answer is JSON (server/front.py)."""

from __future__ import annotations

import json
import socket
import statistics
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from boardlab.server.front import DRAIN_BYTES, DRAIN_SECONDS, MAX_HEAD_BYTES
from boardlab.server.settings import MAX_BODY_BYTES
from tests.support.bench import load_bench
from tests.support.serve import serve_process

#: the flood: idle connections from one address that never send a byte
FLOOD = 2000
#: another client's move while the flood holds its connections
MOVE_SECONDS = 0.1
OTHER_ADDRESS = "127.0.0.2"  # the loopback network: another address of this machine


#: one worker plays this module's tests, so that they share one server
pytestmark = pytest.mark.xdist_group("connections")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """One server for the module: each test opens connections of its own and closes them, and what
    one test leaves (a flood of two thousand closed at once) must not change how the next is served."""
    folder = tmp_path_factory.mktemp("serve")
    options = ["--max-open-per-address", "64", "--keep-alive-seconds", "3", "--header-seconds", "1"]
    with serve_process(folder, folder / "serve.log", options=options) as (url, _process):
        yield url


def raw_answer(sock: socket.socket, timeout: float = 5.0) -> tuple[int, dict[str, str], dict[str, object]]:
    """Read one whole HTTP answer (the server closes the connection after it)."""
    sock.settimeout(timeout)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split()[1]), headers, json.loads(body)


def test_two_thousand_idle_connections_from_one_address_leave_another_clients_moves_quick(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    transport = httpx.HTTPTransport(local_address=OTHER_ADDRESS)
    with httpx.Client(base_url=server.replace("127.0.0.1", host), transport=transport, timeout=30) as other:
        room = other.post("/api/rooms", json={"game": "towers", "seats": ["here", "here"]}).json()
        token, state = room["token"], room["state"]
        flood = []
        try:
            for _ in range(FLOOD):
                flood.append(socket.create_connection((host, int(port)), timeout=10))
            time.sleep(0.5)  # the server has accepted (and turned away) the flood
            took = []
            for _ in range(8):
                began = time.perf_counter()
                answer = other.post(
                    f"/api/rooms/{room['room']}/moves",
                    json={"move": state["legal_moves"][0]["notation"], "ply": state["ply"]},
                    headers={"Authorization": f"Bearer {token}"},
                )
                took.append(time.perf_counter() - began)
                assert answer.status_code == 200, answer.text
                state = answer.json()
            assert statistics.median(took) < MOVE_SECONDS, took
            # the flooding address's next connection is refused at once, as JSON, with Retry-After
            with socket.create_connection((host, int(port)), timeout=10) as one_more:
                status, headers, body = raw_answer(one_more)
            assert status == 429 and int(headers["retry-after"]) >= 1 and headers["content-type"] == "application/json"
            assert body["error"]["code"] == "rate_limited" and "connections open" in body["error"]["message"]  # type: ignore[index]
        finally:
            for sock in flood:
                sock.close()


def test_idle_connections_and_half_sent_heads_are_closed_on_time(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as idle:
        began = time.monotonic()
        idle.settimeout(10)
        assert idle.recv(100) == b""  # closed, with nothing said
        assert 2.0 < time.monotonic() - began < 6.0  # --keep-alive-seconds 3
    with socket.create_connection((host, int(port)), timeout=10) as slow:
        began = time.monotonic()
        slow.sendall(b"GET /api/games HTTP/1.1\r\nHost: x\r\n")
        for _ in range(4):  # a header a byte at a time, each within the idle time
            time.sleep(0.3)
            slow.sendall(b"X")
        status, _headers, body = raw_answer(slow)
        assert status == 408 and body["error"]["code"] == "header_timeout"  # type: ignore[index]
        assert time.monotonic() - began < 3.0  # --header-seconds 1 from the first byte
    with socket.create_connection((host, int(port)), timeout=10) as broken:
        broken.sendall(b"NOT HTTP AT ALL\r\n\r\n")
        status, _headers, body = raw_answer(broken)
        assert status == 400 and body["error"]["code"] == "bad_request"  # type: ignore[index]


def test_a_head_over_its_limit_is_refused_whether_it_comes_whole_or_in_pieces(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    start = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-big: "
    with socket.create_connection((host, int(port)), timeout=10) as whole:  # one write, one read: the head ends in it
        whole.sendall(start + b"a" * (MAX_HEAD_BYTES * 3) + b"\r\n\r\n")
        status, _headers, body = raw_answer(whole)
    assert status == 431 and body["error"]["code"] == "head_too_large", body  # type: ignore[index]
    with socket.create_connection((host, int(port)), timeout=10) as pieces:  # a head that never ends, a piece a read
        pieces.sendall(start)
        for _ in range(MAX_HEAD_BYTES // 4096 + 1):
            time.sleep(0.05)
            pieces.sendall(b"a" * 4096)
        status, _headers, body = raw_answer(pieces)
    assert status == 431 and body["error"]["code"] == "head_too_large", body  # type: ignore[index]
    with socket.create_connection((host, int(port)), timeout=10) as fits:  # a head under the limit passes
        fits.sendall(start + b"a" * 8000 + b"\r\nConnection: close\r\n\r\n")
        status, _headers, _body = raw_answer(fits)
    assert status == 200


def test_a_client_still_sending_after_its_refusal_reads_the_answer_and_is_cut_off_on_time(server: str) -> None:
    # closed with the client's bytes unread, a connection is reset, and the reset can drop the
    # answer on its way: so the server shuts its side, drops what still comes for a while, then closes
    host, port = server.removeprefix("http://").split(":")
    head = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-big: " + b"a" * (MAX_HEAD_BYTES * 2)
    with socket.create_connection((host, int(port)), timeout=10) as late:
        late.sendall(head)
        time.sleep(0.3)  # refused by now
        for _ in range(3):  # the rest of what it was sending: a closed connection answers it with a reset
            late.sendall(b"a" * 65536)
            time.sleep(0.1)
        status, _headers, body = raw_answer(late)
    assert status == 431 and body["error"]["code"] == "head_too_large", body  # type: ignore[index]
    with socket.create_connection((host, int(port)), timeout=10) as flood:
        flood.sendall(head)
        began = time.monotonic()
        sent = 0
        with pytest.raises(OSError):  # broken pipe or reset, once the drain is spent
            while time.monotonic() - began < DRAIN_SECONDS + 5:
                sent += flood.send(b"a" * 65536)
                time.sleep(0.001)
    assert time.monotonic() - began < DRAIN_SECONDS + 2
    # cut off by the byte count long before the time: the drain, plus what both sockets' buffers
    # can hold (Linux grows a loopback receive buffer up to 32 MiB), under the 2 s of sending
    assert sent < DRAIN_BYTES + 48 * 1024 * 1024


def test_the_reset_bench_counts_a_refusal_read_whole_and_in_pieces_as_answered(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    one_try = load_bench("refusal_resets").one_try
    assert [one_try(host, int(port), whole) for whole in (True, False)] == ["answered", "answered"]


def test_a_pipelined_head_over_its_limit_is_refused_though_it_came_behind_a_whole_request(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    first = b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n"
    second = b"GET /api/games HTTP/1.1\r\nHost: x\r\nX-big: " + b"a" * (MAX_HEAD_BYTES * 3) + b"\r\n\r\n"
    with socket.create_connection((host, int(port)), timeout=10) as pipelined:  # both in one write
        pipelined.sendall(first + second)
        pipelined.settimeout(10)
        answers = b""
        while chunk := pipelined.recv(65536):
            answers += chunk
    assert b"head_too_large" in answers, answers[:300]
    assert answers.count(b"HTTP/1.1 200") <= 1  # the second request was never answered


@pytest.mark.parametrize("compression", ["deflate", None], ids=["compressed", "uncompressed"])
def test_a_websocket_message_over_its_limit_is_told_why_before_the_close(server: str, compression: str | None) -> None:
    room = httpx.post(f"{server}/api/rooms", json={"game": "towers", "seats": ["here", "here"]}, timeout=30).json()["room"]
    address = f"{server.replace('http', 'ws', 1)}/api/rooms/{room}/live"
    # uncompressed, most of the message is still unread when the server refuses it from its header
    with connect(address, open_timeout=30, max_size=None, compression=compression) as live:
        assert json.loads(live.recv(timeout=30))["type"] == "state"
        live.send('{"type": "ping", "padding": "' + "x" * MAX_BODY_BYTES + '"}')
        refusal = json.loads(live.recv(timeout=30))
        assert refusal["type"] == "error" and refusal["error"]["code"] == "body_too_large", refusal
        assert str(MAX_BODY_BYTES) in refusal["error"]["message"]
        with pytest.raises(ConnectionClosed) as closed:
            live.recv(timeout=30)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009  # the standard code: message too big
