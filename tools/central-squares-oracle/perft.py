#!/usr/bin/env python3
"""An independent move generator for The Central Squares (Joao Pedro Neto, 2000).

Written from ../shared/rules/central-squares.txt and the rulings of
docs/variants/central-squares.md, in 3D coordinates, sharing nothing with the engine.

A location is (x, y, z): x the file 0..5 (a..f), y the rank 0..5 (1..6), z the board 0..2
(A, B, C). The four centre squares c3 d3 c4 d4 (x and y in 2..3) are one square each for all
three boards: a piece there lies on every board, so a step out of a centre square may start
from any of its three boards. A step that ends where it started (up or down from a centre
square) leads nowhere.

Usage:
  perft.py DEPTH [POSITION]            perft at every depth 1..DEPTH
  perft.py divide DEPTH [POSITION]     count per root move (long notation, sorted)
  perft.py moves [POSITION]            the legal moves, sorted, one per line

With --knight-locations first, the knight follows the alternative reading described in
README.md (not Varia's rulings); everything else is unchanged.
"""

import sys

FILES = "abcdef"
BOARDS = "ABC"


def is_centre(x, y):
    return 2 <= x <= 3 and 2 <= y <= 3


# Cells: centre squares are stored with z = 1 (they are written in board B's rows).
CELLS = []
for z in range(3):
    for y in range(6):
        for x in range(6):
            if is_centre(x, y) and z != 1:
                continue
            CELLS.append((x, y, z))
INDEX = {c: i for i, c in enumerate(CELLS)}
assert len(CELLS) == 100


def canon(x, y, z):
    return (x, y, 1) if is_centre(x, y) else (x, y, z)


def name(i):
    x, y, z = CELLS[i]
    sq = FILES[x] + str(y + 1)
    return sq if is_centre(x, y) else BOARDS[z] + sq


def boards_of(i):
    """The locations a cell stands for: three for a centre square, one otherwise."""
    x, y, z = CELLS[i]
    return [(x, y, w) for w in range(3)] if is_centre(x, y) else [(x, y, z)]


def step(i, d):
    """Every cell one step from cell i along d = (dx, dy, dz), from each board it lies on."""
    dx, dy, dz = d
    out = []
    for (x, y, z) in boards_of(i):
        nx, ny, nz = x + dx, y + dy, z + dz
        if 0 <= nx < 6 and 0 <= ny < 6 and 0 <= nz < 3:
            j = INDEX[canon(nx, ny, nz)]
            if j != i and j not in out:
                out.append(j)
    return out


N, S, E, W = (0, 1, 0), (0, -1, 0), (1, 0, 0), (-1, 0, 0)
UP, DOWN = (0, 0, 1), (0, 0, -1)
ORTHO = [N, S, E, W]
DIAG = [(1, 1, 0), (-1, 1, 0), (1, -1, 0), (-1, -1, 0)]
VERT = [UP, DOWN]
TRIAG = [(dx, dy, dz) for dz in (1, -1) for dy in (1, -1) for dx in (1, -1)]

KING_DIRS = ORTHO + DIAG + VERT
QUEEN_DIRS = ORTHO + DIAG + VERT + TRIAG
ROOK_DIRS = ORTHO + VERT
BISHOP_DIRS = DIAG + TRIAG


def knight_paths():
    """Two steps along one axis, then one along another: 6 x 4 = 24 paths."""
    axes = [N, S, E, W, UP, DOWN]
    paths = []
    for a in axes:
        for b in axes:
            if [abs(v) for v in a] != [abs(v) for v in b]:
                paths.append((a, a, b))
    assert len(paths) == 24
    return paths


KNIGHT_PATHS = knight_paths()

# Precomputed tables.
NEXT = [{d: step(i, d) for d in QUEEN_DIRS + [(1, 0, 1), (-1, 0, 1), (1, 0, -1), (-1, 0, -1)]}
        for i in range(100)]


def knight_targets(i):
    out = set()
    for path in KNIGHT_PATHS:
        here = {i}
        for d in path:
            here = {j for h in here for j in NEXT[h][d]}
        out |= here
    out.discard(i)
    return sorted(out)


def knight_targets_by_location(i):
    """The alternative reading (not Varia's): the knight moves between locations, so a last
    step up or down from a centre location reaches another location of the same square, and
    the knight lands there (Ac1 -> Ac2 -> Ac3 -> Bc3 = c3)."""
    out = set()
    for path in KNIGHT_PATHS:
        here = set(boards_of(i))
        for d in path:
            nxt = set()
            for (x, y, z) in here:
                nx, ny, nz = x + d[0], y + d[1], z + d[2]
                if 0 <= nx < 6 and 0 <= ny < 6 and 0 <= nz < 3:
                    nxt |= set(boards_of(INDEX[canon(nx, ny, nz)])) if is_centre(nx, ny) \
                        else {(nx, ny, nz)}
            here = nxt
        out |= {INDEX[canon(*loc)] for loc in here}
    out.discard(i)
    return sorted(out)


KNIGHT = [knight_targets(i) for i in range(100)]

# Pawns: forward and up (Black: towards rank 1 and towards board A); captures diagonally
# forward on a board, or sideways and up.
PAWN_MOVE = {"w": [N, UP], "b": [S, DOWN]}
PAWN_CAPT = {"w": [(1, 1, 0), (-1, 1, 0), (1, 0, 1), (-1, 0, 1)],
             "b": [(1, -1, 0), (-1, -1, 0), (1, 0, -1), (-1, 0, -1)]}


def promotes(i, side):
    x, y, z = CELLS[i]
    return (side == "w" and z == 2 and y == 5) or (side == "b" and z == 0 and y == 0)


def colour(p):
    return "w" if p.isupper() else "b"


def rays(board, i, dirs, own):
    """Slide targets: every branch, stopping at the first occupied cell of each."""
    out = set()
    for d in dirs:
        seen = {i}
        frontier = [i]
        while frontier:
            nxt = []
            for h in frontier:
                for j in NEXT[h][d]:
                    if j in seen:
                        continue
                    seen.add(j)
                    p = board[j]
                    if p is None:
                        out.add(j)
                        nxt.append(j)
                    elif colour(p) != own:
                        out.add(j)
            frontier = nxt
    return out


def targets(board, i):
    """Cells piece on i attacks or moves to (captures included), pawns: quiet and capture split."""
    p = board[i]
    own = colour(p)
    k = p.upper()
    if k == "K":
        return {j for d in KING_DIRS for j in NEXT[i][d]
                if board[j] is None or colour(board[j]) != own}, set()
    if k == "N":
        return {j for j in KNIGHT[i] if board[j] is None or colour(board[j]) != own}, set()
    if k == "Q":
        return rays(board, i, QUEEN_DIRS, own), set()
    if k == "R":
        return rays(board, i, ROOK_DIRS, own), set()
    if k == "B":
        return rays(board, i, BISHOP_DIRS, own), set()
    assert k == "P"
    quiet = {j for d in PAWN_MOVE[own] for j in NEXT[i][d] if board[j] is None}
    capt = {j for d in PAWN_CAPT[own] for j in NEXT[i][d]
            if board[j] is not None and colour(board[j]) != own}
    return capt, quiet


def attacked(board, target, by):
    """Whether side `by` attacks cell `target`."""
    for i in range(100):
        p = board[i]
        if p is None or colour(p) != by:
            continue
        if target in targets(board, i)[0]:
            return True
    return False


def king_of(board, side):
    k = "K" if side == "w" else "k"
    for i in range(100):
        if board[i] == k:
            return i
    return None


def pseudo(board, side):
    out = []
    for i in range(100):
        p = board[i]
        if p is None or colour(p) != side:
            continue
        a, q = targets(board, i)
        for j in sorted(a | q):
            if p.upper() == "P" and promotes(j, side):
                for r in "QRBN":
                    out.append((i, j, r if side == "w" else r.lower()))
            else:
                out.append((i, j, None))
    return out


def make(board, m):
    i, j, promo = m
    b = list(board)
    b[j] = promo if promo else b[i]
    b[i] = None
    return b


def other(side):
    return "b" if side == "w" else "w"


def legal(board, side):
    out = []
    for m in pseudo(board, side):
        b = make(board, m)
        k = king_of(b, side)
        if k is None or not attacked(b, k, other(side)):
            out.append(m)
    return out


def in_check(board, side):
    k = king_of(board, side)
    return k is not None and attacked(board, k, other(side))


def notation(board, m):
    i, j, promo = m
    p = board[i]
    letter = "" if p.upper() == "P" else p.upper()
    sep = "x" if board[j] is not None else "-"
    tail = "=" + promo.upper() if promo else ""
    return letter + name(i) + sep + name(j) + tail


def parse(text):
    fields = text.split()
    layers = fields[0].split("|")
    assert len(layers) == 3, "three boards A|B|C"
    board = [None] * 100
    for z, layer in enumerate(layers):
        rows = layer.split("/")
        assert len(rows) == 6, f"board {BOARDS[z]}: six rows"
        for r, row in enumerate(rows):
            y = 5 - r
            xs = [x for x in range(6) if z == 1 or not is_centre(x, y)]
            k = 0
            for ch in row:
                if ch.isdigit():
                    k += int(ch)
                else:
                    board[INDEX[canon(xs[k], y, z)]] = ch
                    k += 1
            assert k == len(xs), f"row {row!r} of board {BOARDS[z]} rank {y + 1}"
    side = fields[1][0] if len(fields) > 1 else "w"
    return board, side


def write(board, side):
    layers = []
    for z in range(3):
        rows = []
        for y in range(5, -1, -1):
            s, gap = "", 0
            for x in range(6):
                if z != 1 and is_centre(x, y):
                    continue
                p = board[INDEX[canon(x, y, z)]]
                if p is None:
                    gap += 1
                else:
                    s += (str(gap) if gap else "") + p
                    gap = 0
            rows.append(s + (str(gap) if gap else ""))
        layers.append("/".join(rows))
    return "|".join(layers) + " " + side


# White: board A rank 1 R B N K B R, rank 2 pawns; Black: board C rank 6 R B N K N R, rank 5.
START = "6/6/4/4/PPPPPP/RBNKBR|6/6/6/6/6/6|rbnknr/pppppp/4/4/6/6 w"


def perft(board, side, depth):
    ms = legal(board, side)
    if depth == 1:
        return len(ms)
    return sum(perft(make(board, m), other(side), depth - 1) for m in ms)


def main(argv):
    global KNIGHT
    if argv and argv[0] == "--knight-locations":
        KNIGHT = [knight_targets_by_location(i) for i in range(100)]
        argv = argv[1:]
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "moves":
        board, side = parse(argv[1] if len(argv) > 1 else START)
        for s in sorted(notation(board, m) for m in legal(board, side)):
            print(s)
        return 0
    if argv[0] == "divide":
        depth = int(argv[1])
        board, side = parse(argv[2] if len(argv) > 2 else START)
        total = 0
        rows = []
        for m in legal(board, side):
            n = 1 if depth == 1 else perft(make(board, m), other(side), depth - 1)
            rows.append((notation(board, m), n))
            total += n
        for s, n in sorted(rows):
            print(s, n)
        print("nodes", total)
        return 0
    depth = int(argv[0])
    board, side = parse(argv[1] if len(argv) > 1 else START)
    for d in range(1, depth + 1):
        print(d, perft(board, side, d), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
