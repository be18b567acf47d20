"""A deliberately plain Towers reference model for the tests (no tables, no incremental state).

It follows the rules document line by line on a dict of square name -> list of
letters, so the fast engine can be compared with it move by move (perft).
"""

from __future__ import annotations

FILES = "abcdefg"
DIRECTIONS = {"N": (0, 1), "E": (1, 0), "S": (0, -1), "W": (-1, 0)}
SUPPLY = {2: 75, 4: 50}
NEED = {2: (4, 3), 4: (3, 2)}  # castles, crowned castles


def parse_board(position: str) -> tuple[dict[str, list[str]], str]:
    """Board part and mover letter of a position string."""
    fields = position.split()
    board: dict[str, list[str]] = {}
    for row, rank_text in enumerate(fields[0].split("/")):
        for file, cell in enumerate(rank_text.split(",")):
            board[f"{FILES[file]}{7 - row}"] = [] if cell == "-" else list(cell)
    return board, fields[1]


def board_text(board: dict[str, list[str]]) -> str:
    return "/".join(
        ",".join("".join(board[f"{f}{r}"]) or "-" for f in FILES) for r in range(7, 0, -1)
    )


def neighbour(square: str, direction: str) -> str | None:
    df, dr = DIRECTIONS[direction]
    file = FILES.find(square[0]) + df
    rank = int(square[1]) + dr
    if 0 <= file < 7 and 1 <= rank <= 7:
        return f"{FILES[file]}{rank}"
    return None


def push(board: dict[str, list[str]], start: str, direction: str) -> tuple[dict[str, list[str]], bool, bool]:
    """Rules 5.3 as written: returns (new board, moved anything, dropped a piece)."""
    board = {sq: list(stack) for sq, stack in board.items()}
    cur, base, moved, dropped = start, 0, False, False
    while True:
        k = len(board[cur]) - base
        nxt = neighbour(cur, direction)
        if nxt is None:
            blocked = k
        else:
            blocked = min(k, max(1, len(board[nxt]) - base))
        if blocked == k:
            break
        movers = board[cur][base + blocked:]
        board[cur] = board[cur][: base + blocked]
        new_base = len(board[nxt])
        if new_base < base + blocked:
            dropped = True
        board[nxt] = board[nxt] + movers
        cur, base, moved = nxt, new_base, True
    return board, moved, dropped


def legal_moves(board: dict[str, list[str]], letter: str, players: int) -> list[str]:
    reserve = SUPPLY[players] - sum(stack.count(letter) for stack in board.values())
    moves = []
    for square, stack in board.items():
        if not stack or stack[-1] != letter:
            continue
        if stack[0] != "C" and len(stack) <= 4 and reserve >= 1:
            moves.append(square + "+")
        if len(stack) >= 2:
            for direction in "NESW":
                if push(board, square, direction)[1]:
                    moves.append(square + direction)
    return moves


def apply(board: dict[str, list[str]], move: str, letter: str) -> dict[str, list[str]]:
    square, action = move[:2], move[2]
    if action == "+":
        new = {sq: list(stack) for sq, stack in board.items()}
        new[square].append(letter)
        return new
    return push(board, square, action)[0]


def castle_winner(board: dict[str, list[str]], letters: str, mover: int) -> int | None:
    players = len(letters)
    need_castles, need_crowns = NEED[players]
    for offset in range(players):
        seat = (mover + offset) % players
        castles = [s for s in board.values() if s and s[0] == "C" and len(s) > 1 and s[-1] == letters[seat]]
        if len(castles) >= need_castles or sum(len(s) == 5 for s in castles) >= need_crowns:
            return seat
    return None


def next_turn(board: dict[str, list[str]], letters: str, mover: int) -> tuple[int | None, bool]:
    """(seat to move next or None, game over) after ``mover`` moved (rules 7.3-7.7)."""
    if castle_winner(board, letters, mover) is not None:
        return None, True
    players = len(letters)
    for offset in range(1, players):
        seat = (mover + offset) % players
        if legal_moves(board, letters[seat], players):
            return seat, False
        if players == 2:
            return None, True
    return None, True


def perft(board: dict[str, list[str]], letters: str, seat: int, depth: int) -> int:
    """Leaf count of the move tree; finished games are leaves."""
    if depth == 0:
        return 1
    total = 0
    for move in legal_moves(board, letters[seat], len(letters)):
        after = apply(board, move, letters[seat])
        nxt, over = next_turn(after, letters, seat)
        total += 1 if over or depth == 1 else perft(after, letters, nxt, depth - 1)
    return total
