"""Playtests on the server: a designer's sessions, the form people answer after a game, and
the designer's view of people's games beside the lab's (:mod:`boardlab.lab.playtests`).

* **Sessions.** A designer opens a session for a game with a rule variant (its options) and
  gets an invite link (``/?playtest=ID``: 72 random bits, unlisted). Every room made from it
  (:meth:`PlaytestBook.session_room`) has the session's game and options, and carries the
  session's id (``rooms.session``, also kept by its rematches), so people's games are grouped
  by variant and by session. A session's rooms are between people: the lobby offers the
  computer elsewhere. A closed session makes no more rooms; its games stay.
* **The form.** After a game every person who played may answer it once per seat (and change
  or delete the answer): fun, fairness, length, a note (:class:`~boardlab.lab.playtest_form.FormAnswer`).
  A seat's token proves who answers; a remembered player's key (:mod:`.players`) links the
  answer to them, so they can delete every answer of theirs at once. Nothing is required.
* **The designer's view.** The latest :data:`PEOPLE_GAMES_READ` finished games between people
  of a game, read in three statements, each game's outcome worked out once per process (a
  finished game never changes) in one thread at a time: the page's owner is a designer, its
  price one replay per new game, its limit that many games, its share one report at a time.
"""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import and_, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from ..agents.levels import is_level
from ..core.errors import OptionError, RefusedError
from ..core.game import Game
from ..core.match import Match
from ..core.records import Record
from ..core.registry import load
from ..core.values import Player
from ..lab.playtest_form import RECORD_ANSWERS, FormAnswer
from ..lab.playtests import (
    RECORD_SESSION,
    LabVariant,
    PeopleGame,
    playtest_report,
    variant_label,
)
from ..lab.stats import GameOutcome
from .designers import Designer
from .errors import GameNotOverError, ServerError
from .labfolder import JOB_FILE, STUDY_FOLDER
from .players import PlayerBook, RememberedPlayer, seats_held
from .rooms import FINISHED, stored_record
from .storage import Storage
from .tables import playtest_answers, playtest_sessions, rooms, seats

#: how many of a game's latest finished rooms the designer's view reads
PEOPLE_GAMES_READ = 2000
#: outcomes kept in memory, by room (a finished game's never changes)
OUTCOMES_KEPT = 20_000
#: the people's seat kinds a session's rooms may have
PEOPLE_SEATS = ("here", "invite")
#: what a session's id looks like (secrets.token_urlsafe)
SESSION_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


class UnknownSessionError(ServerError):
    code = "not_found"


class SessionClosedError(ServerError):
    code = "refused"


class PlaytestBook:
    """Sessions, answers and people's games in storage; synchronous (routes run it in a thread)."""

    def __init__(self, storage: Storage, players: PlayerBook, lab_root: Path | None = None) -> None:
        self.storage = storage
        self.players = players
        #: where the server's Lab keeps its studies (the lab's figures beside people's)
        self.lab_root = lab_root
        self._outcomes: OrderedDict[str, GameOutcome] = OrderedDict()
        #: one designer's report at a time: it replays games on the server's CPU
        self.reporting = threading.Lock()

    # --- sessions ---------------------------------------------------------------------------
    def open_session(self, game: Game, name: str, designer: Designer) -> dict[str, Any]:
        """A new session of ``game`` (its options are the variant); refused when the game has one
        of that name already."""
        session_id = secrets.token_urlsafe(9)
        values = {
            "id": session_id, "game": game.id, "name": name, "players": game.num_players, "options": dict(game.options),
            "designer": designer.id, "created": time.time(), "closed": None,
        }
        try:
            with self.storage.engine.begin() as conn:
                conn.execute(insert(playtest_sessions).values(**values))
        except IntegrityError:
            raise RefusedError(f"{game.id} has a playtest session named {name!r} already: choose another name") from None
        found = self.session(session_id)
        assert found is not None
        return found

    def sessions(self, game_id: str | None = None) -> list[dict[str, Any]]:
        """Every session (of ``game_id``), the newest first, with its rooms counted."""
        query = select(playtest_sessions).order_by(playtest_sessions.c.created.desc())
        if game_id is not None:
            query = query.where(playtest_sessions.c.game == game_id)
        return self._counted(query)

    def session(self, session_id: str) -> dict[str, Any] | None:
        if not SESSION_ID.fullmatch(session_id):  # no session's id (and maybe what no database keeps)
            return None
        found = self._counted(select(playtest_sessions).where(playtest_sessions.c.id == session_id))
        return found[0] if found else None

    def _counted(self, query: Any) -> list[dict[str, Any]]:
        """The sessions ``query`` selects, each with its rooms counted by status."""
        with self.storage.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
            ids = [row["id"] for row in rows]
            counts: dict[str, dict[str, int]] = {}
            if ids:
                counted = (
                    select(rooms.c.session, rooms.c.status, func.count())
                    .where(rooms.c.session.in_(ids))
                    .group_by(rooms.c.session, rooms.c.status)
                )
                for session_id, status, count in conn.execute(counted):
                    counts.setdefault(session_id, {})[status] = int(count)
        return [_session_json(row, counts.get(row["id"], {})) for row in rows]

    def known_session(self, session_id: str) -> dict[str, Any]:
        """The session; UnknownSessionError for an id that is nobody's."""
        found = self.session(session_id)
        if found is None:
            raise UnknownSessionError(f"there is no playtest session {session_id[:40]!r}")
        return found

    def open_for_rooms(self, session_id: str) -> dict[str, Any]:
        """The session a new room is made in; UnknownSessionError, SessionClosedError."""
        found = self.session(session_id)
        if found is None:
            raise UnknownSessionError(f"there is no playtest session {session_id[:40]!r} (check the invite link)")
        if found["closed"] is not None:
            raise SessionClosedError(f"the playtest session {found['name']!r} is closed: it makes no more games")
        return found

    def close_session(self, session_id: str) -> dict[str, Any]:
        self.known_session(session_id)
        with self.storage.engine.begin() as conn:
            changed = conn.execute(
                update(playtest_sessions)
                .where(and_(playtest_sessions.c.id == session_id, playtest_sessions.c.closed.is_(None)))
                .values(closed=time.time())
            ).rowcount
        found = self.session(session_id)
        if found is None:
            raise UnknownSessionError(f"there is no playtest session {session_id[:40]!r}")
        if not changed:
            raise SessionClosedError(f"the playtest session {found['name']!r} was closed already")
        return found

    def session_named(self, game_id: str, name: str) -> dict[str, Any] | None:
        with self.storage.engine.connect() as conn:
            found = conn.execute(
                select(playtest_sessions.c.id).where(and_(playtest_sessions.c.game == game_id, playtest_sessions.c.name == name))
            ).scalar_one_or_none()
        return None if found is None else self.session(found)

    # --- the form -------------------------------------------------------------------------------
    def form(self, room_id: str, token: str) -> dict[str, Any]:
        """The form of the token's seats that people played: each seat's answer (None: none)."""
        with self.storage.engine.connect() as conn:
            held = seats_held(conn, room_id, token)
            status, kinds = self._room_seats(conn, room_id)
            answers = self._answers(conn, room_id)
        return {
            "room": room_id,
            "status": status,
            "seats": [
                {"seat": seat, "answer": answers[seat].to_json() if seat in answers else None}
                for seat in held
                if kinds[seat] != "computer"
            ],
        }

    def answer(self, room_id: str, token: str, answer: FormAnswer, player: RememberedPlayer | None) -> dict[str, Any]:
        """Store (or replace) the seat's answer; refused before the game's end, for a seat the
        token does not hold, or for a computer's seat."""
        with self.storage.engine.begin() as conn:
            held = seats_held(conn, room_id, token)
            status, kinds = self._room_seats(conn, room_id)
            if answer.seat not in held:
                raise RefusedError(f"room {room_id}: this token does not hold seat {answer.seat}", code="not_your_seat")
            if kinds[answer.seat] == "computer":
                raise RefusedError(f"room {room_id}: seat {answer.seat} is the computer's; the form is for people")
            if status != FINISHED:
                raise GameNotOverError(f"room {room_id}: the playtest form is answered after the game's end")
            checked = answer.checked(len(kinds))
            values = {
                "fun": checked.fun, "fairness": checked.fairness, "favoured": checked.favoured, "length": checked.length,
                "note": checked.note, "answered": time.time(), "player": None if player is None else player.id,
            }
            where = and_(playtest_answers.c.room_id == room_id, playtest_answers.c.seat == checked.seat)
            conn.execute(delete(playtest_answers).where(where))
            conn.execute(insert(playtest_answers).values(room_id=room_id, seat=checked.seat, **values))
        return self.form(room_id, token)

    def delete_answer(self, room_id: str, token: str, seat: Player) -> dict[str, Any]:
        with self.storage.engine.begin() as conn:
            held = seats_held(conn, room_id, token)
            if seat not in held:
                raise RefusedError(f"room {room_id}: this token does not hold seat {seat}", code="not_your_seat")
            where = and_(playtest_answers.c.room_id == room_id, playtest_answers.c.seat == seat)
            conn.execute(delete(playtest_answers).where(where))
        return self.form(room_id, token)

    def player_answers(self, player: RememberedPlayer) -> list[dict[str, Any]]:
        """Every answer the player gave, the newest first, with its room and game."""
        query = (
            select(playtest_answers, rooms.c.game)
            .join(rooms, rooms.c.id == playtest_answers.c.room_id)
            .where(playtest_answers.c.player == player.id)
            .order_by(playtest_answers.c.answered.desc())
        )
        with self.storage.engine.connect() as conn:
            rows = conn.execute(query).mappings().all()
        return [
            {"room": row["room_id"], "game": row["game"], "answered": row["answered"], **_answer(row).to_json()} for row in rows
        ]

    def delete_player_answers(self, player: RememberedPlayer) -> int:
        with self.storage.engine.begin() as conn:
            return int(conn.execute(delete(playtest_answers).where(playtest_answers.c.player == player.id)).rowcount)

    @staticmethod
    def _room_seats(conn: Any, room_id: str) -> tuple[str, dict[Player, str]]:
        status = conn.execute(select(rooms.c.status).where(rooms.c.id == room_id)).scalar_one()
        kinds = {row.seat: row.kind for row in conn.execute(select(seats.c.seat, seats.c.kind).where(seats.c.room_id == room_id))}
        return str(status), kinds

    @staticmethod
    def _answers(conn: Any, room_id: str) -> dict[Player, FormAnswer]:
        rows = conn.execute(select(playtest_answers).where(playtest_answers.c.room_id == room_id)).mappings()
        return {row["seat"]: _answer(row) for row in rows}

    # --- the designer's view ------------------------------------------------------------------------
    def people_games(self, game_id: str, session_id: str | None = None) -> tuple[list[PeopleGame], dict[str, int]]:
        """The latest finished games between people of ``game_id`` (of one session), with their
        answers, session names and players' names; and how many finished games were left out
        (with the computer)."""
        stored = self.storage.finished_rooms(game_id, PEOPLE_GAMES_READ, session_id)
        people = [room for room in stored if all(seat.kind in PEOPLE_SEATS for seat in room.seats)]
        left_out = {"with the computer": len(stored) - len(people)} if len(stored) > len(people) else {}
        ids = [room.room.id for room in people]
        answers: dict[str, list[FormAnswer]] = {}
        session_ids = {room.room.session for room in people if room.room.session}
        with self.storage.engine.connect() as conn:
            if ids:
                for row in conn.execute(
                    select(playtest_answers).where(playtest_answers.c.room_id.in_(ids)).order_by(playtest_answers.c.seat)
                ).mappings():
                    answers.setdefault(row["room_id"], []).append(_answer(row))
        listed = self._counted(select(playtest_sessions).where(playtest_sessions.c.id.in_(sorted(session_ids))))
        names = {session["id"]: session["name"] for session in listed}
        player_names = self.players.names_in(ids)
        games = [
            PeopleGame(
                stored_record(room),
                tuple(answers.get(room.room.id, ())),
                session=names.get(room.room.session or ""),
                room=room.room.id,
                player_names=player_names.get(room.room.id, {}),
            )
            for room in people
        ]
        return games, left_out

    def report(self, game_id: str, session_id: str | None = None) -> dict[str, Any]:
        """The designer's view of ``game_id`` (:func:`~boardlab.lab.playtests.playtest_report`),
        with the sessions of the game."""
        if session_id is not None:
            self.known_session(session_id)
        with self.reporting:
            games, left_out = self.people_games(game_id, session_id)
            report = playtest_report(game_id, games, self._lab_folders(), left_out, outcomes=self._outcomes,
                                     describe_study=self._study_in_words)
            while len(self._outcomes) > OUTCOMES_KEPT:
                self._outcomes.popitem(last=False)
        for variant in report["variants"]:
            if variant["lab"] is not None:
                self._link_lab_report(variant)
        report["sessions"] = self.sessions(game_id)
        report["session"] = session_id
        return report

    @staticmethod
    def _study_in_words(game: Game, study: LabVariant) -> str:
        """Which lab study the figures come from, in words, never by the server's folder (a web
        page shows no path of the server's file system): its games, the game and its rules, and
        the agents."""
        agents = list(dict.fromkeys(study.agents))
        named = [f"the computer at the {agent} level" if is_level(agent) else agent for agent in agents]
        who = f"{named[0]} in every seat" if len(named) == 1 else f"between {', '.join(named[:-1])} and {named[-1]}"
        rules = variant_label(game) or "the rules as written"
        return f"{len(study.outcomes)} games of {game.name} ({rules}), {who}"

    def _link_lab_report(self, variant: dict[str, Any]) -> None:
        """The lab study's folder left out of the page's data; ``study["report"]`` links its
        report on the Lab page when the study is one of the server's own Lab studies that has one
        (else None)."""
        study = variant["lab"]["study"]
        folder = Path(study.pop("folder"))
        study["report"] = None
        root = self.lab_root
        if root is not None and folder.parent.parent == root and folder.name == STUDY_FOLDER:
            job = folder.parent
            if (job / JOB_FILE).is_file() and (folder / "report.json").is_file():
                study["report"] = f"/lab/{job.name}/report"

    def export_records(self, game_id: str, session_id: str | None = None) -> list[Record]:
        """Every game of the designer's view as a whole record (what ``boardlab replay`` reads),
        its room, session, players' names and the form's answers in its ``meta``: a folder of
        them is what ``boardlab playtests GAME FOLDER`` reads."""
        if session_id is not None:
            self.known_session(session_id)
        games, _ = self.people_games(game_id, session_id)
        records = []
        for game in games:
            full = Match.from_record(game.record, [None] * game.record.players).record(
                room=game.room,
                **{RECORD_ANSWERS: [answer.to_json() for answer in game.answers]},
                **({RECORD_SESSION: game.session} if game.session else {}),
                players={str(seat): name for seat, name in game.player_names.items()},
            )
            records.append(full)
        return records

    def _lab_folders(self) -> list[Path]:
        return [self.lab_root] if self.lab_root is not None else []


def check_session_seats(seat_kinds: Sequence[str] | None, players: int) -> list[str]:
    """A session room's seats: people only (``here``, ``invite``); by default the first at this
    screen and the others invited. OptionError names a seat that is not a person's."""
    kinds = list(seat_kinds) if seat_kinds is not None else ["here"] + ["invite"] * (players - 1)
    for number, kind in enumerate(kinds, 1):
        if kind not in PEOPLE_SEATS:
            raise OptionError(
                f"seat {number}: {kind!r}; a playtest session's games are between people (here or invite); "
                "play the computer from the lobby"
            )
    return kinds


def _answer(row: Any) -> FormAnswer:
    return FormAnswer(row["seat"], row["fun"], row["fairness"], row["favoured"], row["length"], row["note"])


def _session_json(row: Any, counts: dict[str, int]) -> dict[str, Any]:
    game = load(row["game"], players=row["players"], **row["options"])
    return {
        "id": row["id"],
        "game": row["game"],
        "name": row["name"],
        "players": row["players"],
        "options": row["options"],
        "variant": variant_label(game),
        "link": f"/?playtest={row['id']}",
        "designer": row["designer"],
        "created": row["created"],
        "closed": row["closed"],
        "rooms": sum(counts.values()),
        "finished": counts.get(FINISHED, 0),
    }


__all__ = [
    "PEOPLE_GAMES_READ",
    "PlaytestBook",
    "SessionClosedError",
    "UnknownSessionError",
    "check_session_seats",
]
