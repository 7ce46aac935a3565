"""The rules of Mabula written out plainly in Python, as RULES.md states them, to check the
package against: a second implementation that shares no code with the Rust crate.

Squares are (file, rank) pairs, 0 to 7; the board is a dict from square to "w" or "b".
"""

FILES = "abcdefgh"


def name(sq):
    return f"{FILES[sq[0]]}{sq[1] + 1}"


def is_corner(sq):
    return sq[0] in (0, 7) and sq[1] in (0, 7)


def is_edge(sq):
    return not is_corner(sq) and (sq[0] in (0, 7) or sq[1] in (0, 7))


def is_field(sq):
    return 1 <= sq[0] <= 6 and 1 <= sq[1] <= 6


def parse(text):
    """A position string: (board, side to move)."""
    ranks, side = text.split(" ")
    board = {}
    for i, rank in enumerate(ranks.split("/")):
        r = 7 - i
        f = 0
        for c in rank:
            if c.isdigit():
                f += int(c)
            else:
                board[(f, r)] = c
                f += 1
    return board, side


def write(board, side):
    """The position string of (board, side)."""
    out = []
    for r in range(7, -1, -1):
        rank, empty = "", 0
        for f in range(8):
            c = board.get((f, r))
            if c is None:
                empty += 1
            else:
                if empty:
                    rank += str(empty)
                    empty = 0
                rank += c
        if empty:
            rank += str(empty)
        out.append(rank)
    return "/".join(out) + " " + side


def line(sq):
    """The six field squares in front of an edge space, nearest first."""
    f, r = sq
    if r == 0:
        d = (0, 1)
    elif r == 7:
        d = (0, -1)
    elif f == 0:
        d = (1, 0)
    else:
        d = (-1, 0)
    return [(f + d[0] * i, r + d[1] * i) for i in range(1, 7)]


def pushes(board, side):
    """Every push of `side`: (from, distance)."""
    out = []
    for sq, c in board.items():
        if c != side or not is_edge(sq):
            continue
        k = sum(1 for s in line(sq) if s in board)
        out.extend((sq, d) for d in range(1, 7 - k))
    return out


def other(side):
    return "b" if side == "w" else "w"


def legal_moves(board, side):
    """The legal moves in notation: pushes, or ["pass"], or [] when the game is over."""
    mine = pushes(board, side)
    if mine:
        return [f"{name(sq)}-{name(line(sq)[d - 1])}" for sq, d in mine]
    return ["pass"] if pushes(board, other(side)) else []


def play(board, side, move):
    """The board and side after a legal move."""
    board = dict(board)
    if move == "pass":
        return board, other(side)
    start, end = move.split("-")
    sq = (FILES.index(start[0]), int(start[1]) - 1)
    squares = line(sq)
    d = [name(s) for s in squares].index(end) + 1
    cells = [board.pop(s, None) for s in squares]
    mover = board.pop(sq)
    pos = -1
    # The marble travels one square at a time; each step pushes the chain touching it.
    for _ in range(d):
        target = pos + 1
        if cells[target] is not None:
            j = target
            while cells[j] is not None:
                j += 1
            for t in range(j, target, -1):
                cells[t] = cells[t - 1]
            cells[target] = None
        pos = target
    cells[pos] = mover
    for s, c in zip(squares, cells):
        if c is not None:
            board[s] = c
    return board, other(side)


def groups(board, color):
    """The sizes of `color`'s groups in the field."""
    seen, sizes = set(), []
    for sq, c in board.items():
        if c != color or not is_field(sq) or sq in seen:
            continue
        size, todo = 0, [sq]
        seen.add(sq)
        while todo:
            f, r = todo.pop()
            size += 1
            for n in ((f + 1, r), (f - 1, r), (f, r + 1), (f, r - 1)):
                if is_field(n) and board.get(n) == color and n not in seen:
                    seen.add(n)
                    todo.append(n)
        sizes.append(size)
    return sizes


def score(board, color, scoring):
    sizes = groups(board, color)
    if not sizes:
        return 0
    if scoring == "largest":
        return max(sizes)
    product = 1
    for s in sizes:
        product *= s
    return product


RING = [(f, 0) for f in range(1, 7)] + [(7, r) for r in range(1, 7)] + \
    [(f, 7) for f in range(6, 0, -1)] + [(0, r) for r in range(6, 0, -1)]


def is_valid_deal(board):
    """All 24 marbles on the edge, 12 of each, and never three of one colour in a row on the
    ring of edge spaces."""
    if len(board) != 24 or any(not is_edge(s) for s in board):
        return False
    if sum(1 for c in board.values() if c == "w") != 12:
        return False
    colours = [board[s] for s in RING]
    return all(not (colours[i] == colours[i - 1] == colours[i - 2]) for i in range(24))
