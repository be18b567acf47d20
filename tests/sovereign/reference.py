"""A deliberately plain Sovereign reference model for the tests (default rules only).

No tables, no bit sets, no incremental state: positions are dicts of square name ->
(height, piece letter), rebuilt for every move, and each rule of docs/rules/sovereign.md
is written out as directly as possible. The fast engine is compared with it move by
move and by perft counts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

FILES = "abcdefg"
ORTHO = [(1, 0), (-1, 0), (0, 1), (0, -1)]
KING = [*ORTHO, (1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
SETUP = ["S", "D", "C", "C", "B", "B", "B"]
PLY_LIMIT = 200


@dataclass(frozen=True)
class Position:
    board: dict  # square name -> (height, letter or "")
    to_move: int  # 1 or 2
    placements: int  # 14 in play
    lower: int
    top: int
    ply: int


def square(file: int, rank: int) -> str | None:
    """The name of (file 0-6, rank 1-7), or None off the board."""
    if 0 <= file < 7 and 1 <= rank <= 7:
        return f"{FILES[file]}{rank}"
    return None


def coords(name: str) -> tuple[int, int]:
    return FILES.index(name[0]), int(name[1])


def offset(name: str, df: int, dr: int) -> str | None:
    file, rank = coords(name)
    return square(file + df, rank + dr)


def parse(text: str) -> Position:
    board_text, mover, phase, pool, ply = text.split()[:5]
    board = {}
    for row, rank_text in enumerate(board_text.split("/")):
        tokens = re.findall(r"[0-3][SDCBsdcb]?", rank_text)
        for file, token in enumerate(tokens):
            board[f"{FILES[file]}{7 - row}"] = (int(token[0]), token[1:])
    lower, top = pool.split("/")
    placements = 14 if phase == "p" else int(phase[1:])
    return Position(board, int(mover), placements, int(lower), int(top), int(ply))


def text(pos: Position) -> str:
    ranks = []
    for rank in range(7, 0, -1):
        ranks.append("".join(f"{pos.board[f'{f}{rank}'][0]}{pos.board[f'{f}{rank}'][1]}" for f in FILES))
    phase = "p" if pos.placements == 14 else f"s{pos.placements}"
    return f"{'/'.join(ranks)} {pos.to_move} {phase} {pos.lower}/{pos.top} {pos.ply}"


def owner(letter: str) -> int:
    return 1 if letter.isupper() else 2


def height(pos: Position, name: str) -> int:
    return pos.board[name][0]


def piece(pos: Position, name: str) -> str:
    return pos.board[name][1]


def mine(pos: Position, letter: str) -> str:
    return letter.upper() if pos.to_move == 1 else letter.lower()


def home(player: int) -> set[int]:
    return {1, 2} if player == 1 else {6, 7}


def goal(player: int) -> set[int]:
    return home(3 - player)


# --- Consultants, protection, threats (rules 1.7-1.9) ---------------------------------------------
def knight_reaches(pos: Position, c: str, x: str) -> bool:
    (cf, cr), (xf, xr) = coords(c), coords(x)
    return (xf - cf, xr - cr) in KNIGHT and height(pos, x) <= height(pos, c) + 2


def protected(pos: Position, x: str, player: int) -> bool:
    diplomat = "D" if player == 1 else "d"
    for df, dr in KING:
        y = offset(x, df, dr)
        if y and piece(pos, y) == diplomat and height(pos, y) >= 2:
            return True
    return False


def enemy_consultants(pos: Position, player: int) -> list[str]:
    letter = "c" if player == 1 else "C"
    return [name for name in pos.board if piece(pos, name) == letter]


def threatened_at(pos: Position, player: int, x: str) -> bool:
    """Would ``player``'s Sovereign on ``x`` be threatened (the position otherwise as it is)?"""
    if protected(pos, x, player):
        return False
    return any(knight_reaches(pos, c, x) for c in enemy_consultants(pos, player))


def sovereign_square(pos: Position, player: int) -> str:
    letter = "S" if player == 1 else "s"
    return next(name for name in pos.board if piece(pos, name) == letter)


def threatened(pos: Position, player: int) -> bool:
    return threatened_at(pos, player, sovereign_square(pos, player))


def ban(pos: Position, player: int, x: str) -> bool:
    return any(knight_reaches(pos, c, x) for c in enemy_consultants(pos, player))


# --- walking (rules 1.4, 1.5) ------------------------------------------------------------------
def walk(pos: Position, start: str, from_own_square: bool, banned) -> set[str]:
    """Squares reachable through the castle of ``start`` (start included unless it is the
    mover's own square). Banned squares may be reached but not walked on from."""
    found = set()
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        own = here == start and from_own_square
        if not own:
            found.add(here)
            if banned(here):
                continue
        for df, dr in ORTHO:
            there = offset(here, df, dr)
            if there and there not in seen and height(pos, there) >= 1 and not piece(pos, there):
                seen.add(there)
                todo.append(there)
    return found


def slider_destinations(pos: Position, x: str, is_sovereign: bool) -> set[str]:
    player = owner(piece(pos, x))
    level = height(pos, x)

    def banned(y: str) -> bool:
        return is_sovereign and ban(pos, player, y)

    out = set()
    for df, dr in ORTHO:
        y = offset(x, df, dr)
        steps = 0
        while y and not piece(pos, y):
            steps += 1
            if height(pos, y) == 0:
                out.add(y)
                if banned(y):
                    break
                y = offset(y, df, dr)
                continue
            # a tower square: enter it from open ground, unless it is next to a piece on a tower
            if steps > 1 or level == 0:
                out |= {z for z in walk(pos, y, False, banned) if height(pos, z) <= 1}
            break
    if level >= 1:
        out |= {z for z in walk(pos, x, True, banned) if height(pos, z) <= level + 1}
    return out


# --- the legal moves ---------------------------------------------------------------------------
def setup_moves(pos: Position) -> list[str]:
    player = 1 if pos.placements % 2 == 0 else 2
    kind = SETUP[pos.placements // 2]
    free = [n for n in pos.board if coords(n)[1] in home(player) and not piece(pos, n) and height(pos, n) == 0]
    if pos.placements // 2 < 6:
        return [f"{kind}@{n}" for n in free]
    moves = []
    third = 3 if player == 1 else 5
    for n in free:
        for df, dr in KING:
            t = offset(n, df, dr)
            if t and not piece(pos, t) and height(pos, t) == 0 and coords(t)[1] in home(player) | {third}:
                moves.append(f"B@{n}^{t}")
    return moves


def play_moves(pos: Position) -> list[str]:
    player = pos.to_move
    must_move_sovereign = threatened(pos, player)
    sovereign = sovereign_square(pos, player)
    pinned = (not must_move_sovereign) and any(
        knight_reaches(pos, c, sovereign) for c in enemy_consultants(pos, player)
    )
    moves = []
    for x, (h, letter) in sorted(pos.board.items()):
        if not letter or owner(letter) != player:
            continue
        kind = letter.upper()
        if must_move_sovereign and kind != "S":
            continue
        if kind == "S":
            for t in sorted(slider_destinations(pos, x, True)):
                wins = height(pos, t) == 3 and coords(t)[1] in goal(player)
                if wins or not threatened_at(pos, player, t):
                    moves.append(f"S{x}-{t}")
        elif kind == "D":
            if not pinned:
                moves += [f"D{x}-{t}" for t in sorted(slider_destinations(pos, x, False))]
        elif kind == "C":
            for df, dr in KNIGHT:
                t = offset(x, df, dr)
                if not t or height(pos, t) > h + 2:
                    continue
                other = piece(pos, t)
                if not other:
                    moves.append(f"C{x}-{t}")
                elif owner(other) != player and not protected(pos, t, owner(other)):
                    moves.append(f"C{x}x{t}")
        else:
            for df, dr in KING:
                t = offset(x, df, dr)
                if not t or piece(pos, t) or height(pos, t) > h + 1:
                    continue
                for ef, er in KING:
                    b = offset(t, ef, er)
                    if not b or (piece(pos, b) and b != x) or height(pos, b) == 3:
                        continue
                    if (height(pos, b) == 2 and pos.top) or (height(pos, b) < 2 and pos.lower):
                        moves.append(f"B{x}-{t}^{b}")
    return moves


def legal_moves(pos: Position) -> list[str]:
    return setup_moves(pos) if pos.placements < 14 else play_moves(pos)


# --- applying ---------------------------------------------------------------------------------
def apply(pos: Position, move: str) -> tuple[Position, bool]:
    """The position after ``move`` and whether it won the game (rule 1.10)."""
    board = dict(pos.board)
    player = pos.to_move
    lower, top = pos.lower, pos.top
    won = False
    if "@" in move:
        letter = mine(pos, move[0])
        target = move[2:4]
        board[target] = ({"S": 3, "D": 2}.get(move[0], 0), letter)
        if "^" in move:
            board[move[5:7]] = (1, "")
        return replace(pos, board=board, to_move=3 - player, placements=pos.placements + 1), False
    origin, target = move[1:3], move[4:6]
    h, letter = board[origin]
    board[origin] = (h, "")
    if move[0] == "C":
        th = board[target][0]
        if th == 3:
            top += 1
        elif th >= 1:
            lower += 1
        board[target] = (max(th - 1, 0), letter)
    else:
        board[target] = (board[target][0], letter)
        won = move[0] == "S" and board[target][0] == 3 and coords(target)[1] in goal(player)
        if move[0] == "B":
            b = move[7:9]
            bh = board[b][0]
            if bh == 2:
                top -= 1
            else:
                lower -= 1
            board[b] = (bh + 1, board[b][1])
    return Position(board, 3 - player, 14, lower, top, pos.ply + 1), won


def ended(pos: Position, won: bool) -> bool:
    """Whether the game is over after a move (rule 6; repetition is not modelled here)."""
    if won:
        return True
    if pos.placements == 14 and pos.ply >= PLY_LIMIT:
        return True
    return not legal_moves(pos)


def perft(pos: Position, depth: int) -> int:
    """Leaf count of the move tree; finished games are leaves."""
    total = 0
    for move in legal_moves(pos):
        if depth == 1:
            total += 1
            continue
        after, won = apply(pos, move)
        total += 1 if ended(after, won) else perft(after, depth - 1)
    return total
