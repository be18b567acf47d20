"""A deliberately plain Overseer reference model for the tests (no tables, no incremental state).

It follows docs/rules/overseer.md line by line on a dict {(sector, index): letter}, with
sectors 0..11 for A..L and indices 1..8, and collects moves in a set of texts, so a move
reached two ways is one move (rule 2.3) by construction. The fast engine is compared with
it move by move and by perft counts.
"""

from __future__ import annotations

SECTORS = "ABCDEFGHIJKL"
FORWARD_BACKWARD = [(0, 1), (0, -1)]
RADIAL = [(1, 0), (-1, 0)]
DIAGONAL = [(1, 1), (-1, 1), (1, -1), (-1, -1)]
EVERY_WAY = FORWARD_BACKWARD + RADIAL + DIAGONAL

Square = tuple[int, int]
Board = dict[Square, str]


def name(square: Square) -> str:
    return f"{SECTORS[square[0]]}{square[1]}"


def parse(ofen: str) -> tuple[Board, str]:
    """The board and the side to move ('w' or 'b') of a position string (rule 10.1)."""
    rings, side = ofen.split()[:2]
    board: Board = {}
    for row, ring in enumerate(rings.split("/")):
        index = 8 - row
        sector = 0
        digits = ""
        for char in ring + " ":
            if char.isdigit():
                digits += char
                continue
            if digits:
                sector += int(digits)
                digits = ""
            if char != " ":
                board[(sector, index)] = char
                sector += 1
    return board, side


def board_text(board: Board) -> str:
    """The first field of the position string (rule 10.1)."""
    rings = []
    for index in range(8, 0, -1):
        text, empty = "", 0
        for sector in range(12):
            letter = board.get((sector, index))
            if letter is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += letter
        rings.append(text + (str(empty) if empty else ""))
    return "/".join(rings)


def side_of(letter: str) -> str:
    return "w" if letter.isupper() else "b"


def is_barricade(letter: str | None) -> bool:
    return letter is not None and letter.upper() == "B"


def step(square: Square, way: tuple[int, int]) -> Square | None:
    """Rule 2.1: the next square, round the ring without end, never past index 1 or 8."""
    index = square[1] + way[1]
    if index < 1 or index > 8:
        return None
    return ((square[0] + way[0]) % 12, index)


def may_land(board: Board, square: Square | None, side: str) -> str | None:
    """'-' if the square is empty, 'x' if it holds an enemy non-Barricade, else None (rule 4)."""
    if square is None:
        return None
    letter = board.get(square)
    if letter is None:
        return "-"
    if side_of(letter) != side and not is_barricade(letter):
        return "x"
    return None


def slide(board: Board, start: Square, way: tuple[int, int], side: str, over_barricades: bool) -> list[tuple[Square, str]]:
    """Rule 2.2: the squares a sliding piece may stop on in one direction."""
    found = []
    square = start
    for _ in range(11):
        square = step(square, way)
        if square is None or square == start:
            break
        letter = board.get(square)
        if letter is None:
            found.append((square, "-"))
            continue
        if is_barricade(letter) and over_barricades:
            continue
        if side_of(letter) != side and not is_barricade(letter):
            found.append((square, "x"))
        break
    return found


def piece_moves(board: Board, start: Square, side: str) -> set[str]:
    """Rules 3.1-3.7 for the piece on ``start``."""
    kind = board[start].upper()
    targets: list[tuple[Square, str]] = []

    def one_step(ways: list[tuple[int, int]]) -> None:
        for way in ways:
            square = step(start, way)
            mark = may_land(board, square, side)
            if mark is not None and square is not None:
                targets.append((square, mark))

    if kind == "B":
        for way in FORWARD_BACKWARD + RADIAL:
            square = step(start, way)
            if square is not None and square not in board:
                targets.append((square, "-"))
    elif kind == "S":
        one_step(EVERY_WAY)
        for way in EVERY_WAY:
            middle = step(start, way)
            if middle is not None and is_barricade(board.get(middle)):
                beyond = step(middle, way)
                mark = may_land(board, beyond, side)
                if mark is not None and beyond is not None:
                    targets.append((beyond, mark))
    elif kind == "C":
        one_step(RADIAL)
        for way in FORWARD_BACKWARD:
            targets += slide(board, start, way, side, False)
    elif kind == "G":
        one_step(FORWARD_BACKWARD)
        for way in RADIAL:
            targets += slide(board, start, way, side, False)
    elif kind == "P":
        for way in DIAGONAL:
            targets += slide(board, start, way, side, True)
    elif kind == "M":
        for way in EVERY_WAY:
            targets += slide(board, start, way, side, False)
    elif kind == "O":
        one_step(EVERY_WAY)
    return {f"{name(start)}{mark}{name(square)}" for square, mark in targets}


def legal_moves(board: Board, side: str) -> set[str]:
    moves: set[str] = set()
    for square, letter in board.items():
        if side_of(letter) == side:
            moves |= piece_moves(board, square, side)
    return moves


def to_square(text: str) -> Square:
    return (SECTORS.index(text[0]), int(text[1:]))


def apply(board: Board, move: str) -> Board:
    """The board after ``move`` (a text from :func:`legal_moves`)."""
    start, end = to_square(move[:2]), to_square(move[3:])
    after = dict(board)
    after[end] = after.pop(start)
    return after


def neighbours(square: Square) -> list[Square]:
    return [n for n in (step(square, way) for way in EVERY_WAY) if n is not None]


def over_after(board: Board, side_to_move: str) -> bool:
    """Whether the game is over in ``board`` with ``side_to_move`` to play, by rules 7.1, 7.2
    and 7.5 (repetition and the capture counter never come up in a few plies from a fresh
    position with counter 0)."""
    overseers = {side_of(letter): square for square, letter in board.items() if letter.upper() == "O"}
    if len(overseers) < 2:
        return True
    only_overseers_and_barricades = all(letter.upper() in "OB" for letter in board.values())
    if only_overseers_and_barricades and overseers["b"] not in neighbours(overseers["w"]):
        return True
    return not legal_moves(board, side_to_move)


def perft(board: Board, side: str, depth: int) -> int:
    """Leaf count of the move tree; finished games are leaves."""
    if depth == 0:
        return 1
    other = "b" if side == "w" else "w"
    total = 0
    for move in legal_moves(board, side):
        after = apply(board, move)
        total += 1 if depth == 1 or over_after(after, other) else perft(after, other, depth - 1)
    return total
