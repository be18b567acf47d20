"""The physics world and the resolution of a placement (rules sections 3, 5 and 6).

pymunk is imported lazily, inside these functions, so that importing the game
(and the registry's discovery) works without it; creating a space without
pymunk raises :class:`PhysicsUnavailableError` telling the user what to install.

A resolution is a pure function of (the stored space bytes, the integer table
record, the executed release): it loads the pickled space (warm start: Chipmunk's
cached contact impulses travel with it, ruling B-14 item 1), adds the piece,
steps in fixed 1/240 s steps, records table contacts, removes collapsed towers
at segment ends, canonicalises in place and pickles again.
"""

from __future__ import annotations

import math
import pickle
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from boardlab.core import BoardlabError

from .catalogue import KINDS, convex_hull, place

PYMUNK_VERSION = "7.3.1"

GRAVITY = -981.0
STEP = 1.0 / 240.0
ITERATIONS = 30
COLLISION_SLOP = 0.02
COLLISION_BIAS = 0.0018  # the ruled value (B-14 item 20; pymunk's default is 0.9**60 = 0.001797)
COLLISION_PERSISTENCE = 3
DAMPING = 0.9
FRICTION = 0.7071  # per shape: pair mu = 0.5
ELASTICITY = 0.2236  # per shape: pair e = 0.05
ZONE_WIDTH = 60
TABLE_MARGIN = 1000.0
WALL_HEIGHT = 400.0

#: collision types: TABLE contacts are recorded for pieces; a foundation has its own
#: type so the recorder is not called for the one piece allowed to touch the table
PIECE, TABLE, WALL, FOUNDATION = 1, 2, 3, 4

#: march step and start rule of the first-contact sweep (B-14 item 3)
MARCH = 0.25
BISECTIONS = 12
LOWEST_CONTACT = -1.0
#: coarse chunk of the march, tested with the whole piece's hull: an exact shortcut,
#: since the hull contains every part (a free chunk has no part hit either)
MARCH_CHUNK = 16 * MARCH

POSITION_QUANTUM = 1e-4  # cm
ANGLE_QUANTUM = 1e-6  # rad


class PhysicsUnavailableError(BoardlabError):
    """pymunk (the ``physics`` extra) is not installed, or is not the pinned version."""


def pymunk_module() -> Any:
    """Import pymunk, or explain how to get it."""
    try:
        import pymunk
    except ImportError:
        raise PhysicsUnavailableError(
            "honor needs the pymunk physics engine: pip install 'boardlab[physics]'"
        ) from None
    if pymunk.version != PYMUNK_VERSION:
        raise PhysicsUnavailableError(
            f"honor's ruleset pins pymunk=={PYMUNK_VERSION}, found {pymunk.version}: "
            "pip install 'boardlab[physics]'"
        )
    return pymunk


def chipmunk_lib() -> Any:
    """The engine's C functions under pymunk (the pinned version's cffi ``lib``): the hot
    loop of a segment reads velocities through it."""
    pymunk_module()
    from pymunk._chipmunk import lib  # type: ignore[import-not-found]

    return lib


@dataclass(frozen=True)
class SettleRule:
    """When a segment ends (H-08): after ``min_steps`` and ``quiet_steps`` quiet steps
    in a row, or at ``max_steps`` (a timeout)."""

    min_steps: int
    quiet_steps: int
    max_steps: int
    speed_limit: float = 0.2  # cm/s
    spin_limit: float = 0.02  # rad/s


#: the ruled criterion: >= 1 s simulated, 1 s continuously quiet, 20 s timeout
RULED_SETTLE = SettleRule(240, 240, 4800)
#: the option settle=quick: half the windows and timeout, for faster lab runs
QUICK_SETTLE = SettleRule(120, 120, 2400)
#: the agent's screening criterion (B-14 item 23): a 0.5 s window, 3 s cap
SCREEN_SETTLE = SettleRule(120, 120, 720)


@dataclass(frozen=True)
class TableLayout:
    """Zones on one line in seat order (B-14 item 15): zone k = [k(60+g), k(60+g)+60]."""

    players: int
    zone_gap: int = 0

    def zone(self, seat: int) -> tuple[float, float]:
        left = seat * (ZONE_WIDTH + self.zone_gap)
        return float(left), float(left + ZONE_WIDTH)

    @property
    def width(self) -> float:
        return float(self.players * ZONE_WIDTH + (self.players - 1) * self.zone_gap)

    @property
    def table_left(self) -> float:
        return -TABLE_MARGIN

    @property
    def table_right(self) -> float:
        return self.width + TABLE_MARGIN


@dataclass(frozen=True, slots=True)
class BodySpec:
    """What the physics needs of one piece on the table: id, owner, foundation flag, pose."""

    pid: str
    owner: int
    foundation: bool
    x: float
    y: float
    angle: float


@dataclass
class Resolution:
    """The outcome of one resolution.

    ``collapses``: (step, player) in order of first table contact; ``poses``: the
    canonical (pid, xq, yq, aq) of every body left, in insertion order; ``blob``:
    the pickled canonical space; ``release_y``: the release height used (cm);
    ``fallen``: (pid, xq, yq, aq) of every piece removed with a collapsed tower, at its pose
    when its segment ended (for showing what fell).
    """

    collapses: list[tuple[int, int]] = field(default_factory=list)
    timed_out: bool = False
    steps: int = 0
    segments: int = 0
    poses: list[tuple[str, int, int, int]] = field(default_factory=list)
    blob: bytes = b""
    release_y: float | None = None
    fallen: list[tuple[str, int, int, int]] = field(default_factory=list)


# --- building and storing spaces ---------------------------------------------------

def new_space(layout: TableLayout) -> Any:
    """A space holding only the table and its end walls (B-3, B-14 item 4)."""
    pymunk = pymunk_module()
    space = pymunk.Space(threaded=False)
    space.gravity = (0.0, GRAVITY)
    space.iterations = ITERATIONS
    space.collision_slop = COLLISION_SLOP
    space.collision_bias = COLLISION_BIAS
    space.collision_persistence = COLLISION_PERSISTENCE
    space.damping = DAMPING
    space.sleep_time_threshold = float("inf")
    left, right = layout.table_left, layout.table_right
    table = pymunk.Poly(space.static_body, [(left, -20.0), (right, -20.0), (right, 0.0), (left, 0.0)])
    walls = [
        pymunk.Poly(space.static_body, [(left - 10, -20.0), (left, -20.0), (left, WALL_HEIGHT), (left - 10, WALL_HEIGHT)]),
        pymunk.Poly(space.static_body, [(right, -20.0), (right + 10, -20.0), (right + 10, WALL_HEIGHT), (right, WALL_HEIGHT)]),
    ]
    table.collision_type = TABLE
    for shape in (table, *walls):
        shape.friction = FRICTION
        shape.elasticity = ELASTICITY
    for wall in walls:
        wall.collision_type = WALL
    space.add(table, *walls)
    return space


def add_piece(space: Any, spec: BodySpec) -> Any:
    """Add one piece body (mass from 1.8 g/cm² per part) at rest at its pose."""
    pymunk = pymunk_module()
    body = pymunk.Body()
    body.honor_pid = spec.pid
    shapes = []
    for part in KINDS[spec.pid[:2]].parts:
        shape = pymunk.Poly(body, part)
        shape.density = 1.8
        shape.friction = FRICTION
        shape.elasticity = ELASTICITY
        shape.collision_type = FOUNDATION if spec.foundation else PIECE
        shapes.append(shape)
    body.position = (spec.x, spec.y)
    body.angle = spec.angle
    space.add(body, *shapes)
    return body


def build_space(layout: TableLayout, pieces: Iterable[BodySpec]) -> Any:
    """A cold space from the integer record: table first, then pieces in placement order."""
    space = new_space(layout)
    for spec in pieces:
        add_piece(space, spec)
    return space


def dump_space(space: Any) -> bytes:
    return pickle.dumps(space, protocol=5)


def load_space(blob: bytes) -> Any:
    pymunk_module()
    return pickle.loads(blob)


# --- first-contact height (B-4, B-14 item 3) ------------------------------------------

def _swept_hit(space: Any, pymunk: Any, probe: Any, parts: Sequence[Sequence[tuple[float, float]]],
               x: float, top: float, bottom: float) -> bool:
    """True if any part, swept straight down from centroid height ``top`` to ``bottom``,
    overlaps or touches a shape. ``probe`` is a kinematic body outside the space: a
    query shape needs one for its bounding box."""
    for part in parts:
        upper = [(px + x, py + top) for px, py in part]
        lower = [(px + x, py + bottom) for px, py in part]
        shape = pymunk.Poly(probe, upper + lower)
        shape.cache_bb()
        if space.shape_query(shape):
            return True
    return False


def first_contact_height(space: Any, code: str, x: float, angle: float) -> float | None:
    """The lowest centroid height the piece reaches moving straight down at (x, angle)
    before it would overlap a shape; None if nothing is hit above y = -1 (illegal).

    Cost: a few dozen shape queries (tens of microseconds each)."""
    pymunk = pymunk_module()
    probe = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    parts = [[(px, py) for px, py in place(part, 0.0, 0.0, angle)] for part in KINDS[code].parts]
    hull = [convex_hull([v for part in parts for v in part])]
    piece_top = max(py for part in parts for _, py in part)
    piece_bottom = min(py for part in parts for _, py in part)
    highest = 0.0
    for body in space.bodies:
        for shape in body.shapes:
            highest = max(highest, shape.cache_bb().top)
    start = MARCH * math.ceil((highest + (piece_top - piece_bottom) + MARCH) / MARCH)
    y = start
    while y > LOWEST_CONTACT and not _swept_hit(space, pymunk, probe, hull, x, y, y - MARCH_CHUNK):
        y -= MARCH_CHUNK
    while y > LOWEST_CONTACT and not _swept_hit(space, pymunk, probe, parts, x, y, y - MARCH):
        y -= MARCH
    if y <= LOWEST_CONTACT:
        return None
    free, hit = y, y - MARCH
    for _ in range(BISECTIONS):
        middle = (free + hit) / 2.0
        if _swept_hit(space, pymunk, probe, parts, x, free, middle):
            hit = middle
        else:
            free = middle
    return free


def touched_below(space: Any, code: str, x: float, y0: float, angle: float) -> list[str]:
    """What a piece released at (x, angle) first touches when it comes down to centroid
    height ``y0`` (the first-contact height): piece ids, and ``"table"`` for the table."""
    pymunk = pymunk_module()
    probe = pymunk.Body(body_type=pymunk.Body.KINEMATIC)
    parts = [place(part, 0.0, 0.0, angle) for part in KINDS[code].parts]
    found: set[str] = set()
    for part in parts:
        shape = pymunk.Poly(probe, [(px + x, py + y0 - 4 * MARCH / 2**BISECTIONS) for px, py in part])
        shape.cache_bb()
        for hit in space.shape_query(shape):
            body = hit.shape.body
            found.add(getattr(body, "honor_pid", None) or ("table" if hit.shape.collision_type == TABLE else "wall"))
    return sorted(found)


# --- settling, collapse and canonicalisation (B-5) -------------------------------------

def _record_table_contact(arbiter: Any, space: Any, data: dict[str, Any]) -> None:
    """pre_solve on (PIECE, TABLE): only records; never changes the physics (B-3)."""
    data["touching"].add(arbiter.shapes[0].body.honor_pid)


def _attach_recorder(space: Any) -> set[str]:
    touching: set[str] = set()
    space.on_collision(PIECE, TABLE, pre_solve=_record_table_contact, data={"touching": touching})
    return touching


def quantise_pose(x: float, y: float, angle: float) -> tuple[int, int, int]:
    """Poses to 1e-4 cm and 1e-6 rad, half-even, the angle wrapped to [-pi, pi) first."""
    wrapped = (angle + math.pi) % (2.0 * math.pi) - math.pi
    return round(x / POSITION_QUANTUM), round(y / POSITION_QUANTUM), round(wrapped / ANGLE_QUANTUM)


def canonicalise(space: Any) -> tuple[Any, bytes, list[tuple[str, int, int, int]]]:
    """Quantise poses and zero velocities in place, then pickle and reload (B-14 item 1)."""
    poses = []
    for body in space.bodies:
        xq, yq, aq = quantise_pose(body.position.x, body.position.y, body.angle)
        body.position = (xq * POSITION_QUANTUM, yq * POSITION_QUANTUM)
        body.angle = aq * ANGLE_QUANTUM
        body.velocity = (0.0, 0.0)
        body.angular_velocity = 0.0
        poses.append((body.honor_pid, xq, yq, aq))
    blob = dump_space(space)
    return pickle.loads(blob), blob, poses


@dataclass
class Segment:
    """What one segment saw: first table-contact step per player, and whether it timed out."""

    contacts: dict[int, int]
    timed_out: bool
    steps: int


def run_segment(space: Any, owners: dict[str, int], watched: set[int], rule: SettleRule,
                first_step: int, stop_at_contact: int | None = None) -> Segment:
    """Step until the settle rule holds; record the first table-contact step of each
    watched player (a non-foundation piece touching the table).

    ``stop_at_contact``: end the segment as soon as that player touches (screening)."""
    touching = _attach_recorder(space)
    # the quiet test reads the engine directly: pymunk's properties build a Vec2d per body per
    # step, most of the test's cost; x**2 + y**2 is Vec2d.length_squared's own formula, so the
    # test decides exactly as it did through them
    lib = chipmunk_lib()
    velocity_of, spin_of = lib.cpBodyGetVelocity, lib.cpBodyGetAngularVelocity
    handles = [b._body for b in space.bodies]
    contacts: dict[int, int] = {}
    speed2 = rule.speed_limit * rule.speed_limit
    spin = rule.spin_limit
    quiet = 0
    step = space.step
    for t in range(1, rule.max_steps + 1):
        step(STEP)
        if touching:
            for pid in touching:
                owner = owners[pid]
                if owner in watched and owner not in contacts:
                    contacts[owner] = first_step + t
            touching.clear()
            if stop_at_contact is not None and stop_at_contact in contacts:
                return Segment(contacts, False, t)
        for handle in handles:
            velocity = velocity_of(handle)
            if velocity.x**2 + velocity.y**2 >= speed2 or abs(spin_of(handle)) >= spin:
                quiet = 0
                break
        else:
            quiet += 1
        if t >= rule.min_steps and quiet >= rule.quiet_steps:
            return Segment(contacts, False, t)
    return Segment(contacts, True, rule.max_steps)


def remove_players(space: Any, owners: dict[str, int], players: set[int]) -> list[tuple[str, int, int, int]]:
    """Take every piece of ``players`` (foundations included) out of the space; return their
    quantised poses (pid, xq, yq, aq) at removal."""
    removed = []
    for body in list(space.bodies):
        if owners.get(body.honor_pid) in players:
            removed.append((body.honor_pid, *quantise_pose(body.position.x, body.position.y, body.angle)))
            space.remove(body, *body.shapes)
    return removed


def resolve(space: Any, owners: dict[str, int], standing: Sequence[bool],
            new_piece: BodySpec | None = None, removed: set[int] | frozenset[int] = frozenset(),
            rule: SettleRule = RULED_SETTLE) -> Resolution:
    """The ruled resolution (B-5 with B-14 items 1, 5): segments until one after the
    first eliminates nobody, or at most one player stands (a resignation that leaves at
    most one standing runs no segment at all).

    ``space`` must be canonical (loaded from stored bytes or built cold); it is
    consumed. ``owners`` maps every pid in it (and ``new_piece``) to its owner.
    ``removed`` players (a resignation) are taken off before the first segment.
    """
    outcome = Resolution()
    alive = {p for p, up in enumerate(standing) if up and p not in removed}
    if removed:
        remove_players(space, owners, set(removed))
        if len(alive) <= 1 and new_piece is None:
            # At most one player stands: the result is decided, and any later collapse
            # could not change it (B-14 item 5), so no segment is run.
            _, outcome.blob, outcome.poses = canonicalise(space)
            return outcome
    if new_piece is not None:
        add_piece(space, new_piece)
    step = 0
    while True:
        outcome.segments += 1
        segment = run_segment(space, owners, alive, rule, step)
        step += segment.steps
        outcome.timed_out = outcome.timed_out or segment.timed_out
        newly = sorted(segment.contacts.items(), key=lambda item: (item[1], item[0]))
        for player, at in newly:
            outcome.collapses.append((at, player))
            alive.discard(player)
        if newly:
            outcome.fallen.extend(remove_players(space, owners, {player for player, _ in newly}))
        space, outcome.blob, outcome.poses = canonicalise(space)
        if len(alive) <= 1 or (not newly and (outcome.segments > 1 or new_piece is None)):
            break
    outcome.steps = step
    return outcome


__all__ = [
    "QUICK_SETTLE",
    "RULED_SETTLE",
    "SCREEN_SETTLE",
    "BodySpec",
    "PhysicsUnavailableError",
    "Resolution",
    "SettleRule",
    "TableLayout",
    "build_space",
    "canonicalise",
    "dump_space",
    "first_contact_height",
    "load_space",
    "pymunk_module",
    "quantise_pose",
    "resolve",
    "run_segment",
]


@dataclass
class Trial:
    """A screening run's outcome: did the placer's tower fall, which rivals fell, how far
    the placer's other pieces moved (cm, summed), where the new piece ended (top y), and
    whether a probe dropped on the new piece afterwards stayed up."""

    own_fell: bool
    rivals_fell: list[int]
    moved: float
    top: float
    probe_stood: bool = False


def trial_release(space: Any, owners: dict[str, int], watched: set[int], spec: BodySpec,
                  rule: SettleRule = SCREEN_SETTLE, probe: str | None = None) -> Trial:
    """One screening simulation for the agent (B-14 item 23): a single segment under
    ``rule`` that stops at the placer's first table contact. ``space`` is consumed.

    ``probe``: a piece id (its kind by the first two letters, its owner in ``owners``) dropped
    straight onto the new piece's centre once it has settled, to see whether the tower can
    still take a piece there (ruling B-10 item 5)."""
    before = {body.honor_pid: body.position for body in space.bodies if owners.get(body.honor_pid) == spec.owner}
    body = add_piece(space, spec)
    segment = run_segment(space, owners, watched, rule, 0, stop_at_contact=spec.owner)
    moved = sum((b.position - before[b.honor_pid]).length for b in space.bodies if b.honor_pid in before)
    top = max(shape.cache_bb().top for shape in body.shapes)
    rivals = sorted(p for p in segment.contacts if p != spec.owner)
    own_fell = spec.owner in segment.contacts
    probe_stood = False
    if probe is not None and not own_fell:
        x = body.position.x
        y0 = first_contact_height(space, probe[:2], x, 0.0)
        if y0 is not None:
            add_piece(space, BodySpec(probe, spec.owner, False, x, math.ceil(y0 * 1e4) * 1e-4 + 0.05, 0.0))
            again = run_segment(space, owners, {spec.owner}, rule, 0, stop_at_contact=spec.owner)
            probe_stood = spec.owner not in again.contacts
    return Trial(own_fell, rivals, moved, top, probe_stood)
