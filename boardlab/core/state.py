"""The mutable half of the protocol: a :class:`State` is a position plus its history.

Games fill in the private hooks (``_legal_moves``, ``_apply``, ``_snapshot`` ...);
history, undo, validation, chance sampling, copying and the view envelope live
here, once for every game. See docs/api.md for the contract of each hook.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Self, TypeAlias

from .errors import BoardlabError, GameOverError, IllegalMoveError, NotationError
from .fields import CORE_FIELDS, INLINED_HOOKS, StateFields
from .values import CHANCE, TERMINAL, Move, Player, Result, is_seat

if TYPE_CHECKING:
    from .game import Game

#: the moves played and their undo snapshots, newest first (:attr:`State._trail`)
Trail: TypeAlias = "tuple[Trail, Move, Any] | None"
#: the version of the view envelope (:meth:`State.view`); bumped when its keys change
VIEW_FORMAT = "boardlab-view/1"
#: longer move text is refused before any game parses it (no notation comes close)
MAX_MOVE_TEXT = 200


class State:
    """A position with its history. Mutable; :meth:`copy` for an independent one.

    Subclasses implement the hooks marked "hook". The public methods validate
    input and keep history; the hooks may assume valid input.
    """

    #: Slots of the base class; subclasses may declare their own ``__slots__``.
    __slots__ = ("__weakref__", *CORE_FIELDS)

    #: the game's fields, declared once (:class:`StateFields`): ``_snapshot``, ``_restore`` and
    #: ``_copy`` are generated from it for the class that declares it. None: the game writes
    #: those three hooks by hand (the conformance suite then compares every attribute it finds).
    state_fields: ClassVar[StateFields | None] = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        declared = cls.__dict__.get("state_fields")
        if declared is not None:
            declared.install(cls)
        else:
            # a generated apply or copy above inlines its class's snapshot or copy: a class that
            # writes its own hook needs the method that calls it
            for hook, method in INLINED_HOOKS.items():
                if hook in cls.__dict__ and method not in cls.__dict__:
                    setattr(cls, method, getattr(State, method))

    def __init__(self, game: Game, seed: int) -> None:
        self.game = game
        self.seed = seed
        #: the moves played, newest first, each with the snapshot that undoes it: None, or
        #: ``(earlier trail, move, snapshot)``. Never changed, only extended, so a copy shares it
        #: whole (a search copies its root state once per iteration, deep into a game)
        self._trail: Trail = None
        #: the moves made in the game, and how many of them came before the trail (:meth:`rebase`)
        self._ply = 0
        self._base_ply = 0
        self._start_position: str | None = None

    # === hooks: every game implements these ======================================
    def current_player(self) -> Player:
        """Hook. Whose decision it is: a player, :data:`CHANCE` or :data:`TERMINAL`."""
        raise NotImplementedError

    def _legal_moves(self) -> list[Move]:
        """Hook. The legal moves of the player to move (never called at chance or terminal nodes)."""
        raise NotImplementedError

    def _chance_outcomes(self) -> list[tuple[Move, float]]:
        """Hook. The outcomes of this chance node with their exact probabilities."""
        raise NotImplementedError

    def _apply(self, move: Move) -> None:
        """Hook. Apply a move known to be legal (a chance outcome at chance nodes)."""
        raise NotImplementedError

    def _snapshot(self) -> Any:
        """Hook, generated from :attr:`state_fields`. Whatever :meth:`_restore` needs to undo the
        next ``_apply``."""
        raise NotImplementedError

    def _restore(self, snapshot: Any) -> None:
        """Hook, generated from :attr:`state_fields`. Return to the state captured by
        :meth:`_snapshot`; the snapshot itself stays as it was (copies share the undo stack)."""
        raise NotImplementedError

    def _copy(self) -> Self:
        """Hook, generated from :attr:`state_fields`. An independent copy of the game-specific
        fields (the base fields are copied by :meth:`copy`)."""
        raise NotImplementedError

    def _parse_move(self, text: str) -> Move:
        """Hook. Text to a move *object*; raise NotationError for malformed text.

        Need not check legality: :meth:`parse_move` does that afterwards.
        """
        raise NotImplementedError

    def result(self) -> Result | None:
        """Hook. How the game ended, or None while it goes on."""
        raise NotImplementedError

    def _view(self, viewer: Player | None) -> dict[str, Any]:
        """Hook. The game's own part of :meth:`view`: JSON-safe, exactly what ``viewer`` may see
        (``None`` is the spectators' view). It becomes the envelope's ``board``."""
        raise NotImplementedError

    def position(self) -> str:
        """Hook. The documented one-line position string (the full state, hidden parts included)."""
        raise NotImplementedError

    # === optional hooks =========================================================
    def _illegal_reason(self, move: Move) -> str | None:
        """Optional hook: why ``move`` is illegal, or None if it is legal.

        The default compares with :meth:`legal_moves`; games with continuous
        moves (or a cheaper test) override it.
        """
        if move in self.legal_moves():
            return None
        return "not a legal move here"

    def _illegal_chance_reason(self, move: Move) -> str | None:
        """Optional hook: why ``move`` is not a possible outcome of this chance node.

        The default looks it up in :meth:`_chance_outcomes`; games whose chance
        is continuous (a listed discretisation for search, any value in play)
        override it.
        """
        if any(outcome == move for outcome, _ in self._chance_outcomes()):
            return None
        return "not a possible chance outcome here"

    def _move_text(self, move: Move, viewer: Player | None) -> str:
        """Optional hook: how ``move`` (about to be applied here) reads to ``viewer``.

        The default is the notation. Games with hidden information say less to a
        viewer who may not see everything ("Black drew a card" for a hidden draw).
        """
        return str(move)

    def evaluate(self) -> Sequence[float] | None:
        """Optional hook: estimated returns per player (in [0, 1], summing to 1) or None."""
        return None

    def winning_move(self) -> Move | None:
        """Optional hook for the search agents: a legal move that wins the game on the spot for
        the player to move, when the game can name one cheaply (Overseer: a capture of the
        enemy Overseer), else None. None also means "not known": agents never rely on it for
        correctness. ``mcts`` plays it at once in rollouts and searches only it at a tree node."""
        return None

    def secrets(self, player: Player | None) -> set[str]:
        """Optional hook: strings of hidden state that must never appear in what ``player`` is shown.

        A game declaring ``has_hidden_information`` must name them (the conformance
        suite checks that some position has secrets, and that no view or move text
        shows one).
        """
        return set()

    def _resample(self, player: Player, rng: random.Random) -> State:
        """Optional hook behind :meth:`resample` (arguments already checked).

        The default suits games without hidden information: a copy with a new seed. Games
        with hidden information override it: copy, re-draw the hidden parts with ``rng``,
        replace the seed, then call :meth:`rebase` so that neither the history nor undo
        holds the real ones.
        """
        state = self.copy()
        state.seed = rng.getrandbits(64)
        return state

    def position_key(self) -> Hashable:
        """Optional hook: what "the same position again" compares (repetition statistics): the
        position without move counters. Default: the position string; games whose string counts
        moves override it (Towers: its Zobrist hash of the stacks and the seat to move)."""
        return self.position()

    def default_move(self) -> Move | None:
        """Optional hook: the move the rules make for the player to move when their time runs
        out (Territories: end the turn, reject an offer ...). None: running out of time loses."""
        return None

    def resign_move(self, player: Player) -> Move | None:
        """Optional hook: the rules' own resignation move for ``player`` at ``player``'s decision, in
        games whose ``Game.resigns_by_move`` (Honor: the player leaves, the others play on).
        None otherwise: resigning is then an interface action that ends the match."""
        return None

    def _preview(self, move: Move) -> State:
        """Optional hook: the state ``move`` leads to, for showing a person before they commit.
        Default: a copy with the move applied (a chance node after it is left pending). A game
        may resolve what follows in a neutral way (Honor: the release without tremor)."""
        preview = self.copy()
        preview.apply(move)
        return preview

    def history_notation(self) -> list[str]:
        """The notation of every move in :attr:`history`, as records store it. Games may annotate
        (Honor adds the state hash after each physics resolution)."""
        return [str(move) for move in self.history]

    # === the public protocol =====================================================
    def is_over(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance(self) -> bool:
        return self.current_player() == CHANCE

    def legal_moves(self) -> list[Move]:
        """The legal moves of the player to move; empty at chance and terminal nodes.

        For games with ``continuous_moves`` the list is complete for discrete
        decisions and a documented candidate set for continuous ones.
        """
        player = self.current_player()
        if player < 0:
            return []
        return self._legal_moves()

    def chance_outcomes(self) -> list[tuple[Move, float]]:
        """At a chance node: every outcome with its exact probability; otherwise empty."""
        if self.current_player() != CHANCE:
            return []
        return self._chance_outcomes()

    def sample_chance(self, rng: random.Random | None = None) -> Move:
        """Draw a chance outcome. Without ``rng``, the state's seed decides.

        The seeded draw depends only on (seed, ply), so a seed reproduces a game.
        Agents always pass their own ``rng``.
        """
        if self.current_player() != CHANCE:
            raise IllegalMoveError("not a chance node: nothing to sample")
        if rng is None:
            rng = random.Random(f"{self.seed}/{self.ply}")
        outcomes = self._chance_outcomes()
        r = rng.random()
        acc = 0.0
        for move, prob in outcomes:
            acc += prob
            if r < acc:
                return move
        return outcomes[-1][0]

    def parse_move(self, text: str) -> Move:
        """Text in the game's notation to a legal move.

        Raises :class:`NotationError` for malformed text and
        :class:`IllegalMoveError` (with the reason) for a well-formed illegal move.
        """
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move must be text, not {type(text).__name__}")
        text = text.strip()
        if self.current_player() == TERMINAL:
            raise GameOverError(f"{_shorten(text)}: the game is over")
        if len(text) > MAX_MOVE_TEXT:
            raise NotationError(f"{_shorten(text)}: too long to be a move ({len(text)} characters)")
        move = self._parse_move(text)
        self.check_move(move)
        return move

    def move_from_json(self, data: Mapping[str, Any]) -> Move:
        """The inverse of :meth:`Move.to_json`: the legal move whose notation is
        ``data["notation"]`` (and whose type is ``data["type"]`` when given). Errors as :meth:`parse_move`."""
        if not isinstance(data, Mapping) or not isinstance(data.get("notation"), str):
            raise IllegalMoveError("a move as JSON must be an object with its notation in 'notation'")
        move = self.parse_move(data["notation"])
        expected = data.get("type")
        if expected is not None and expected != move.json_type():
            raise IllegalMoveError(f"{move}: is a {move.json_type()} move, not {expected!r}")
        return move

    def check_move(self, move: Move) -> None:
        """Raise :class:`IllegalMoveError` saying why ``move`` is illegal here."""
        player = self.current_player()
        if player == TERMINAL:
            raise GameOverError(f"{move}: the game is over")
        if player == CHANCE:
            reason = self._illegal_chance_reason(move)
        else:
            reason = self._illegal_reason(move)
        if reason is not None:
            raise IllegalMoveError(f"{move}: {reason}")

    def play(self, move: Move | str) -> Move:
        """Validate and apply a move (object or notation text); return the move object.

        An illegal move raises and leaves the state unchanged.
        """
        move = self._legal_move(move)
        self.apply(move)
        return move

    def _legal_move(self, move: Move | str) -> Move:
        """``move`` as a legal move object: notation parsed, an object checked; raises otherwise."""
        if isinstance(move, str):
            return self.parse_move(move)
        if isinstance(move, Move):
            self.check_move(move)
            return move
        raise IllegalMoveError(f"{_shorten(repr(move))}: not a move")

    def apply(self, move: Move) -> None:
        """Apply a move taken from :meth:`legal_moves` or :meth:`chance_outcomes`.

        No validation: this is the fast path for agents. Use :meth:`play` for input.
        (A class that declares :attr:`state_fields` gets this method generated with its
        snapshot written inline: one call less on every move of a search.)
        """
        snapshot = self._snapshot()
        self._apply(move)
        self._trail = (self._trail, move, snapshot)
        self._ply += 1

    def undo(self) -> Move:
        """Take back the last move (chance outcomes included) and return it."""
        trail = self._trail
        if trail is None:
            raise IllegalMoveError("nothing to undo: no move has been played since the start")
        self._trail, move, snapshot = trail
        self._restore(snapshot)
        self._ply -= 1
        return move

    def copy(self) -> Self:
        """An independent copy (history included, so it can undo too)."""
        clone = self._copy()
        clone.game = self.game
        clone.seed = self.seed
        clone._trail = self._trail
        clone._ply = self._ply
        clone._base_ply = self._base_ply
        clone._start_position = self._start_position
        return clone

    def __getstate__(self) -> dict[str, Any]:
        """What pickle and deepcopy keep (a state crosses to a worker process this way): every
        attribute, with the trail as a flat list of ``(move, snapshot)``, oldest first: the
        chain of nested tuples of a long game is deeper than pickle may recurse."""
        fields: dict[str, Any] = dict(getattr(self, "__dict__", {}))
        for cls in type(self).__mro__:
            slots = cls.__dict__.get("__slots__", ())
            for name in (slots,) if isinstance(slots, str) else slots:
                if name != "__weakref__" and name not in fields and hasattr(self, name):
                    fields[name] = getattr(self, name)
        steps = []
        trail = self._trail
        while trail is not None:
            trail, move, snapshot = trail
            steps.append((move, snapshot))
        steps.reverse()
        fields["_trail"] = steps
        return fields

    def __setstate__(self, fields: dict[str, Any]) -> None:
        trail: Trail = None
        for move, snapshot in fields["_trail"]:
            trail = (trail, move, snapshot)
        for name, value in fields.items():
            object.__setattr__(self, name, trail if name == "_trail" else value)

    def rebase(self) -> None:
        """Make the current position the start: history and undo snapshots are dropped,
        :attr:`ply` keeps counting. For :meth:`resample`, so that a state whose hidden parts
        were re-drawn holds no trace of the real ones."""
        self._trail = None
        self._base_ply = self._ply
        self._start_position = self.position()

    def resample(self, player: Player, rng: random.Random) -> State:
        """A full state consistent with everything ``player`` may know; hidden parts drawn with ``rng``.

        This is what agents receive: they never see the real hidden state. The seed is
        always replaced, so future chance is unknown to the caller.
        """
        if not is_seat(player, self.game.num_players):
            raise BoardlabError(f"resample: {player!r} is not a seat of this {self.game.num_players}-player game")
        if not isinstance(rng, random.Random):
            raise BoardlabError(f"resample: rng must be a random.Random, not {type(rng).__name__}")
        return self._resample(player, rng)

    def preview(self, move: Move | str) -> State:
        """The state a legal move (object or notation) would lead to, leaving this one unchanged;
        errors as :meth:`play`."""
        return self._preview(self._legal_move(move))

    def move_text(self, move: Move, viewer: Player | None) -> str:
        """How ``move``, about to be applied to this state, reads to ``viewer`` (None: spectators).

        The notation where ``viewer`` may see all of it; a redacted text otherwise
        ("drew a card"). Never names one of the viewer's :meth:`secrets`.
        """
        return self._move_text(move, viewer)

    def view(self, viewer: Player | None = None) -> dict[str, Any]:
        """A JSON-safe description of exactly what ``viewer`` may see (``None``: spectators).

        The envelope is the same for every game (``format`` names its version);
        the game's own part is under ``board``::

            {"format": "boardlab-view/1", "game": "towers", "rules_version": "1",
             "players": 2, "seat_names": ["White", "Black"], "viewer": 0, "ply": 12,
             "to_move": 1, "chance": false, "over": false, "result": null, "board": {...}}

        ``to_move`` is the seat that decides now (None at chance and at the end).
        """
        player = self.current_player()
        result = self.result()
        game = self.game
        return {
            "format": VIEW_FORMAT,
            "game": game.id,
            "rules_version": game.rules_version,
            "players": game.num_players,
            "seat_names": [game.player_name(seat) for seat in range(game.num_players)],
            "viewer": viewer,
            "ply": self.ply,
            "to_move": player if player >= 0 else None,
            "chance": player == CHANCE,
            "over": player == TERMINAL,
            "result": None if result is None else result.to_json(),
            "board": self._view(viewer),
        }

    @property
    def history(self) -> tuple[Move, ...]:
        """Every move played since the start (or the last :meth:`rebase`), chance outcomes included."""
        moves = []
        trail = self._trail
        while trail is not None:
            trail, move, _snapshot = trail
            moves.append(move)
        moves.reverse()
        return tuple(moves)

    @property
    def last_move(self) -> Move | None:
        """The move played last (chance outcomes included), or None at the start (or the last
        :meth:`rebase`): without walking :attr:`history`."""
        trail = self._trail
        return None if trail is None else trail[1]

    @property
    def ply(self) -> int:
        """Number of moves played in the game (chance outcomes included)."""
        return self._ply

    @property
    def start_position(self) -> str | None:
        """The position string the history starts from; None for the game's own set-up."""
        return self._start_position

    @property
    def num_players(self) -> int:
        return self.game.num_players

    def returns(self) -> tuple[float, ...]:
        """Per-player returns: the result's at the end, all zero before it."""
        result = self.result()
        if result is None:
            return (0.0,) * self.game.num_players
        return result.returns

    def winners(self) -> tuple[Player, ...]:
        """The players sharing the result; empty while the game goes on."""
        result = self.result()
        return () if result is None else result.winners

    def render(self, viewer: Player | None = None) -> str:
        """Terminal drawing (rich markup) of what ``viewer`` sees."""
        return self.game.render_view(self.view(viewer))

    def __str__(self) -> str:
        return self.position()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {_shorten(self.position(), 120)!r}>"


def _shorten(text: str, limit: int = 60) -> str:
    """``text`` cut to ``limit`` characters with an ellipsis, so an error never echoes a huge input."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


__all__ = ["VIEW_FORMAT", "State", "StateFields"]
