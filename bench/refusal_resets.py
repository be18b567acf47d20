"""How often a refused connection's answer is lost to a reset: a client that sends a request head
over the server's limit, whole or in pieces, and reads the ``431 head_too_large`` back.

    python bench/refusal_resets.py                  # 1,500 tries, two CPU-bound processes beside
    python bench/refusal_resets.py --busy 0         # the same on a quiet machine
    python bench/refusal_resets.py --checkout DIR   # the server from another checkout (code before a change)

It starts a real ``boardlab serve`` (SQLite in a throwaway folder, its per-address limits off, as
the tests' servers), from ``--checkout`` when given (that folder first on the server's
``PYTHONPATH``; build its kernels in place, ``python setup.py build_ext --inplace``, to time it
compiled), and ``--busy`` processes that only spin, since a reset loses an answer only when the
server is slow to send it. Each try opens a connection and sends a head of three times the limit:
the odd tries in one write, the even ones in pieces of 4 KiB, the last pieces arriving after the
server has answered. It counts the tries that read the 431, those reset before it, and anything
else, and prints them with the load average.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import socket
import sys
import tempfile
import time
from pathlib import Path

from boardlab.server.front import MAX_HEAD_BYTES

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tests.support.serve import serve_process

HEAD = b"GET /api/games HTTP/1.1\r\nHost: bench\r\nX-big: "


def spin() -> None:
    while True:
        pass


def one_try(host: str, port: int, whole: bool) -> str:
    """``answered``, ``reset`` or ``other`` for one connection that sends a head too large."""
    with socket.create_connection((host, port), timeout=10) as sock:
        try:
            if whole:
                sock.sendall(HEAD + b"a" * (MAX_HEAD_BYTES * 3) + b"\r\n\r\n")
            else:
                sock.sendall(HEAD)
                for _ in range(MAX_HEAD_BYTES // 4096 + 1):
                    time.sleep(0.005)
                    sock.sendall(b"a" * 4096)
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        except (ConnectionResetError, BrokenPipeError):
            return "reset"
    return "answered" if answer.startswith(b"HTTP/1.1 431 ") else "other"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tries", type=int, default=1500, help="connections (default 1500)")
    parser.add_argument("--busy", type=int, default=2, help="CPU-bound processes beside it (default 2)")
    parser.add_argument("--checkout", type=Path, help="a checkout whose code the server runs (default: this one's)")
    args = parser.parse_args()
    counts = {"answered": 0, "reset": 0, "other": 0}
    if args.checkout is not None:  # the server inherits it
        os.environ["PYTHONPATH"] = os.pathsep.join([str(args.checkout.resolve()), os.environ.get("PYTHONPATH", "")])
    os.chdir(tempfile.mkdtemp())  # `python -m` puts the working folder first: not this checkout
    with (
        tempfile.TemporaryDirectory() as folder,
        serve_process(Path(folder), Path(folder) / "serve.log", options=["--log-level", "error"]) as (url, _),
    ):
        host, port = url.removeprefix("http://").split(":")
        spinners = [multiprocessing.Process(target=spin, daemon=True) for _ in range(args.busy)]
        for spinner in spinners:
            spinner.start()
        load_before = os.getloadavg()[0]
        began = time.perf_counter()
        try:
            for index in range(args.tries):
                counts[one_try(host, int(port), whole=index % 2 == 1)] += 1
        finally:
            for spinner in spinners:
                spinner.terminate()
    seconds = time.perf_counter() - began
    print(f"server from {args.checkout or 'this checkout'}; {args.busy} busy processes; {os.cpu_count()} CPUs")
    print(f"{args.tries} tries in {seconds:.1f} s: {counts['answered']} read the 431, {counts['reset']} reset, "
          f"{counts['other']} other")
    print(f"load average at the start {load_before:.2f}, at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
