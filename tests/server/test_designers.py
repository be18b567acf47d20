"""The designers' credential: the admin key (made once, kept private, or given), keys an admin
issues and revokes, the Lab page's sign-in cookie, this computer's browser on a loopback
server, and studies that only their owner or an admin may stop or delete."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from starlette.requests import Request

from boardlab.cli.serve import serves_this_computer_only
from boardlab.core.errors import OptionError
from boardlab.server.designers import ADMIN_KEY_FILE, SESSION_COOKIE, admin_key, is_local_request
from tests.server.harness import Harness, make_harness

#: a small study that the tests only store: nothing plays it (max_running 0)
STUDY = {"game": "towers", "agents": ["greedy"], "games": 2}


@pytest.fixture
def lab(tmp_path: Path) -> Iterator[Harness]:
    with make_harness(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path) as harness:
        jobs = harness.app.state.lab
        jobs.limits = replace(jobs.limits, max_running=0)  # stored, never played: the tests look at ownership
        yield harness


def admin(harness: Harness) -> dict[str, str]:
    key = (Path(harness.app.state.settings.data_dir) / ADMIN_KEY_FILE).read_text().strip()
    return {"X-Designer-Key": key}


def issue(harness: Harness, name: str, is_admin: bool = False) -> dict[str, str]:
    answer = harness.client.post("/api/designers", json={"name": name, "admin": is_admin}, headers=admin(harness))
    assert answer.status_code == 201, answer.text
    return {"X-Designer-Key": answer.json()["key"]}


def test_without_a_key_the_lab_refuses_and_says_how_to_sign_in(lab: Harness) -> None:
    for method, path in (("POST", "/api/lab/studies"), ("GET", "/api/lab/studies"), ("GET", "/api/lab/limits")):
        answer = lab.client.request(method, path, json=STUDY if method == "POST" else None)
        assert answer.status_code == 401, (path, answer.text)
        error = answer.json()["error"]
        assert error["code"] == "designer_key_missing" and "admin.key" in error["message"]
    wrong = lab.client.get("/api/lab/studies", headers={"X-Designer-Key": "not-a-key-of-this-server"})
    assert wrong.status_code == 403 and wrong.json()["error"]["code"] == "bad_designer_key"
    assert lab.app.state.lab.all() == []
    # the pages say it too, as a page
    page = lab.client.get("/lab/abc123/report")
    assert page.status_code in (401, 404)


def test_the_admin_key_is_made_once_readable_by_its_owner_only_and_can_be_given(tmp_path: Path) -> None:
    key, made = admin_key(tmp_path)
    assert made and len(key) >= 32
    assert stat.S_IMODE(os.stat(tmp_path / ADMIN_KEY_FILE).st_mode) == 0o600
    assert admin_key(tmp_path) == (key, False)  # read again, never made twice
    assert admin_key(tmp_path, "  a-key-given-by-the-operator  ") == ("a-key-given-by-the-operator", False)
    with pytest.raises(OptionError, match="at least 16"):
        admin_key(tmp_path, "short")


def test_an_admin_issues_keys_a_designer_cannot_and_a_revoked_key_stops_working(lab: Harness) -> None:
    ada = issue(lab, "Ada")
    me = lab.client.get("/api/designers/me", headers=ada).json()
    assert me["name"] == "Ada" and not me["admin"]
    refused = lab.client.post("/api/designers", json={"name": "Eve"}, headers=ada)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "admin_only"
    listed = lab.client.get("/api/designers", headers=admin(lab)).json()
    assert {entry["name"] for entry in listed} == {"admin", "Ada"}
    assert all("key" not in entry and "key_hash" not in entry for entry in listed)
    assert lab.client.delete(f"/api/designers/{me['id']}", headers=admin(lab)).status_code == 204
    gone = lab.client.get("/api/lab/studies", headers=ada)
    assert gone.status_code == 403 and gone.json()["error"]["code"] == "bad_designer_key"
    # the admin key of the data folder is not revoked from the API (its file is)
    own = lab.client.get("/api/designers/me", headers=admin(lab)).json()["id"]
    assert lab.client.delete(f"/api/designers/{own}", headers=admin(lab)).status_code == 404


def test_signing_in_sets_a_cookie_no_script_and_no_other_site_can_use(lab: Harness) -> None:
    key = admin(lab)["X-Designer-Key"]
    wrong = lab.client.post("/api/designers/session", json={"key": "x" * 32})
    assert wrong.status_code == 403 and SESSION_COOKIE not in wrong.headers.get("set-cookie", "")
    answer = lab.client.post("/api/designers/session", json={"key": key})
    assert answer.status_code == 200 and answer.json()["admin"]
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=strict" in cookie and "path=/" in cookie
    assert lab.client.get("/api/lab/studies").status_code == 200  # the cookie signs the page's requests
    assert lab.client.delete("/api/designers/session").status_code == 204
    lab.client.cookies.clear()
    assert lab.client.get("/api/lab/studies").status_code == 401


def test_only_a_studys_owner_or_an_admin_stops_continues_or_deletes_it(lab: Harness) -> None:
    ada, bob = issue(lab, "Ada"), issue(lab, "Bob")
    created = lab.client.post("/api/lab/studies", json=STUDY, headers=ada)
    assert created.status_code == 201, created.text
    study = created.json()
    assert study["owner"] == "Ada" and study["may_manage"]
    seen_by_bob = lab.client.get(f"/api/lab/studies/{study['id']}", headers=bob).json()
    assert seen_by_bob["owner"] == "Ada" and not seen_by_bob["may_manage"]
    for method, action in (("POST", "/stop"), ("DELETE", "")):
        refused = lab.client.request(method, f"/api/lab/studies/{study['id']}{action}", headers=bob)
        assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_owner", refused.text
    assert lab.client.post(f"/api/lab/studies/{study['id']}/stop", headers=ada).json()["state"] == "stopped"
    assert lab.client.post(f"/api/lab/studies/{study['id']}/continue", headers=bob).status_code == 403
    assert lab.client.delete(f"/api/lab/studies/{study['id']}", headers=admin(lab)).status_code == 204
    assert lab.client.get(f"/api/lab/studies/{study['id']}", headers=ada).status_code == 404
    assert not (Path(lab.app.state.settings.data_dir) / "lab" / study["id"]).exists()


def request_from(peer: str, headers: dict[str, str]) -> Request:
    scope: dict[str, Any] = {
        "type": "http", "method": "GET", "path": "/api/lab/studies", "query_string": b"", "client": (peer, 50000),
        "headers": [(name.lower().encode(), value.encode()) for name, value in headers.items()],
    }
    return Request(scope)


@pytest.mark.parametrize(
    ("peer", "headers", "local"),
    [
        ("127.0.0.1", {"Host": "127.0.0.1:8000"}, True),
        ("::1", {"Host": "[::1]:8000", "Origin": "http://localhost:8000", "Sec-Fetch-Site": "same-origin"}, True),
        ("10.1.2.3", {"Host": "127.0.0.1:8000"}, False),  # another machine
        ("127.0.0.1", {"Host": "127.0.0.1:8000", "X-Forwarded-For": "203.0.113.9"}, False),  # a proxy on this host
        ("127.0.0.1", {"Host": "games.example.org"}, False),  # a proxy that kept the public name
        ("127.0.0.1", {"Host": "evil.example:8000"}, False),  # a name made to resolve to 127.0.0.1
        ("127.0.0.1", {"Host": "127.0.0.1:8000", "Origin": "https://evil.example"}, False),  # another site's page
        ("127.0.0.1", {"Host": "127.0.0.1:8000", "Sec-Fetch-Site": "cross-site"}, False),
        ("testclient", {"Host": "127.0.0.1:8000"}, False),
    ],
)
def test_only_a_browser_on_this_computer_counts_as_local(peer: str, headers: dict[str, str], local: bool) -> None:
    assert is_local_request(request_from(peer, headers)) is local


def test_the_server_trusts_this_computers_browser_only_when_it_listens_on_loopback_without_a_proxy() -> None:
    assert serves_this_computer_only("127.0.0.1", []) and serves_this_computer_only("::1", [])
    assert serves_this_computer_only("localhost", [])
    assert not serves_this_computer_only("0.0.0.0", []) and not serves_this_computer_only("192.168.1.5", [])
    assert not serves_this_computer_only("127.0.0.1", ["127.0.0.1"])  # behind a proxy: everyone's requests
