"""``boardlab playtests --demo GAME``: a throwaway data folder with simulated people's games, so a
designer sees the Playtests page (and the command's figures) before the first real playtest.

The "people" are eight remembered players, each played by a computer level (beginner or
easy) standing in for them, in two playtest sessions: the rules as written and, where the
game has an option with choices, a variant. Their games are stored as rooms of people (the
seats' kind ``here`` and ``invite``, as a session's rooms are) with times a person might take;
most players answer the form, their answers drawn to fit the game (a loser finds the winner
favoured now and then, a long game too long). A small lab study of the same rules at the easy
level goes in the data folder's Lab, so each variant has the lab's figures beside people's.
Nothing here is real: the demo says so, and its folder is new (a real server's is refused).
"""

from __future__ import annotations

import random
import statistics
import tempfile
import time
from pathlib import Path

from rich.console import Console

from ..agents import seat_agents
from ..core.errors import OptionError
from ..core.game import Game
from ..core.match import Match
from ..core.registry import load
from ..lab.playtest_form import FormAnswer
from ..lab.playtests import changed_options, variant_label
from ..lab.store import StudyFolder
from ..lab.study import Study, Variant, run_study
from .designers import Designer
from .players import PlayerBook, RememberedPlayer
from .playtests import PlaytestBook
from .rooms import FINISHED, HUMAN, hash_secret, new_room_id, new_secret
from .rows import MoveRow, RoomRow, SeatRow, StoredRoom
from .settings import SQLITE_FILE
from .storage import Storage

NAMES = ("Ada", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
#: the levels that stand in for the demo's people (instant ones: the demo takes seconds)
STAND_INS = ("beginner", "easy")
#: the level of the demo's lab study
LAB_LEVEL = "easy"
NOTES = (
    "I lost track of whose turn it was near the end.",
    "The ending came suddenly; I did not see it coming.",
    "Fun, but the first few moves felt forced.",
    "The middle dragged on.",
    "I would play it again.",
    "Hard to tell who was ahead until late.",
)
#: how long the demo's games may take to play, in all (the count adapts to the game's speed)
DEMO_SECONDS = 30.0
MIN_GAMES, MAX_GAMES = 8, 24
SEED = 20240611


def demo_variant(base: Game) -> Game | None:
    """The game with its first option that has choices set to another choice (None: no such option)."""
    for option in base.options_spec:
        choices = [choice for choice in (option.choices or ()) if choice != base.options.get(option.name)]
        if choices:
            try:
                return load(base.id, players=base.num_players, **{option.name: choices[0]})
            except OptionError:
                continue
    return None


def run_demo(game_id: str, data_dir: str | None, games: int | None, err: Console) -> Path:
    """Fill a new data folder (``data_dir``, new or empty; default a temporary one) and return it."""
    folder = Path(data_dir) if data_dir else Path(tempfile.mkdtemp(prefix=f"boardlab-playtests-{game_id}-"))
    if folder.exists() and any(folder.iterdir()):
        raise OptionError(f"{folder} is not empty: the demo fills a new data folder, never a server's own")
    folder.mkdir(parents=True, exist_ok=True)
    base = load(game_id)
    variants = [game for game in (base, demo_variant(base)) if game is not None]
    storage = Storage(f"sqlite:///{(folder / SQLITE_FILE).resolve()}")
    try:
        _fill(storage, folder, variants, games, err)
    finally:
        storage.close()
    return folder


def _fill(storage: Storage, folder: Path, variants: list[Game], games: int | None, err: Console) -> None:
    rng = random.Random(SEED)
    players = PlayerBook(storage)
    book = PlaytestBook(storage, players)
    designer = Designer("demo", "the demo", admin=False)
    people = [(players.create(name)[0], rng.choice(STAND_INS)) for name in NAMES]
    sessions = [book.open_session(game, f"Demo: {variant_label(game) or 'the rules as written'}", designer) for game in variants]
    began = time.monotonic()
    first = _play(variants[0], people, rng, 0)
    count = games or max(MIN_GAMES, min(MAX_GAMES, round(DEMO_SECONDS / 2 / max(0.01, time.monotonic() - began))))
    err.print(
        f"The demo: {count} games of simulated people (computer levels standing in for them) and "
        f"{count} of the lab's per variant, in {folder}"
    )
    played = [(variants[0], sessions[0], first)]
    for number in range(1, count):
        which = number % len(variants)
        played.append((variants[which], sessions[which], _play(variants[which], people, rng, number)))
    typical = statistics.median(match.decisions for _, _, (match, _) in played)
    for game, session, outcome in played:
        _store(storage, book, players, people, game, session["id"], outcome, typical, rng)
    study = Study(
        game_id=variants[0].id,
        variants=tuple(
            Variant(variant_label(game) or "rules as written", changed_options(game), (LAB_LEVEL,)) for game in variants
        ),
        games=count,
        seed=SEED,
        players=variants[0].num_players,
    )
    run_study(study, sink=StudyFolder(folder / "lab" / "demo" / "study", study))


def _play(game: Game, people: list[tuple[RememberedPlayer, str]], rng: random.Random, number: int) -> tuple[Match, list[int]]:
    """A game between people chosen at random, each played by their stand-in level."""
    seated = rng.sample(range(len(people)), game.num_players)
    seed = rng.getrandbits(63)
    match = Match(game, seat_agents(game, [people[index][1] for index in seated], seed), seed=seed)
    match.play_out()
    return match, seated


def _store(
    storage: Storage,
    book: PlaytestBook,
    players: PlayerBook,
    people: list[tuple[RememberedPlayer, str]],
    game: Game,
    session: str,
    played: tuple[Match, list[int]],
    typical: float,
    rng: random.Random,
) -> None:
    """The game as a finished room of people in ``session``, its players linked, and their answers."""
    match, seated = played
    result = match.result()
    assert result is not None
    tokens = [new_secret() for _ in seated]
    seats = [
        SeatRow(seat, "here" if seat == 0 else "invite", HUMAN, game.player_name(seat), token_hash=hash_secret(token))
        for seat, token in enumerate(tokens)
    ]
    elapsed, moves = 0.0, []
    for turn in match.log():
        if turn.by >= 0:  # a person thinks; chance is at once
            elapsed += 3.0 + rng.expovariate(1 / 12)
        moves.append(MoveRow(turn.number, turn.notation, turn.by, round(elapsed, 3), turn.note))
    ended = time.time() - rng.uniform(0, 14 * 86400)
    room = RoomRow(
        new_room_id(), game.id, game.num_players, dict(game.options), match.seed, None, "never", None, FINISHED,
        revision=1, ending=None if match.ending is None else match.ending.to_json(), result=result.to_json(),
        created=ended - elapsed, updated=ended, session=session,
    )
    storage.create_room(StoredRoom(room, seats, moves))
    for seat, token in enumerate(tokens):
        player = people[seated[seat]][0]
        players.link(player, room.id, token)
        answer = _answer(seat, match.decisions, list(result.winners), game.num_players, typical, rng)
        if answer is not None:
            book.answer(room.id, token, answer, player)


def _answer(seat: int, decisions: int, winners: list[int], seats: int, typical: float, rng: random.Random) -> FormAnswer | None:
    """What a simulated person might answer: most answer; a winner had more fun; a long game
    felt long; a loser now and then thinks the winner was favoured."""
    if rng.random() > 0.75:
        return None
    won = winners == [seat]
    long_game, short_game = decisions > 1.25 * typical, decisions < 0.7 * typical
    fun = max(1, min(5, 3 + int(won) - int(long_game) + rng.choice((-1, 0, 0, 1))))
    fairness: str | None = "fair"
    favoured: int | None = None
    if not won and len(winners) == 1 and rng.random() < 0.35:
        fairness, favoured = "favoured", winners[0]
    elif rng.random() < 0.2:
        fairness = None
    length = "long" if long_game else "short" if short_game else "right"
    if rng.random() < 0.15:
        length = rng.choice(("short", "right", "long"))
    note = rng.choice(NOTES) if rng.random() < 0.25 else ""
    return FormAnswer(seat, fun, fairness, favoured, length, note).checked(seats)


__all__ = ["demo_variant", "run_demo"]
