"""The 8x8 board of the Hans38 oracle (perft.py): location names, leaps and lines."""

FILES = "abcdefgh"


def name(sq):
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_sq(s):
    if len(s) != 2 or s[0] not in FILES or s[1] not in "12345678":
        raise ValueError(f"not a location: {s!r}")
    return (int(s[1]) - 1) * 8 + FILES.index(s[0])


def on(x, y):
    return 0 <= x < 8 and 0 <= y < 8


def leaps(sq, deltas):
    x, y = sq % 8, sq // 8
    return tuple((y + dy) * 8 + x + dx for dx, dy in deltas if on(x + dx, y + dy))


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_D = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
# A square moves like a king, knight, alfil (2,2) or dabbaba (2,0): every offset with
# max(|dx|, |dy|) in {1, 2}, 24 in all.
SQUARE_D = [(dx, dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx, dy) != (0, 0)]
assert len(SQUARE_D) == 24

KNIGHT = [leaps(sq, KNIGHT_D) for sq in range(64)]
KING = [leaps(sq, ORTH + DIAG) for sq in range(64)]
SQLEAP = [leaps(sq, SQUARE_D) for sq in range(64)]
# squares from which a pawn of the colour attacks sq / squares a pawn on sq attacks
PAWN_FROM = {True: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)]}
PAWN_CAPT = {True: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)]}


def line(sq, d):
    x, y = sq % 8, sq // 8
    out = []
    while on(x + d[0], y + d[1]):
        x, y = x + d[0], y + d[1]
        out.append(y * 8 + x)
    return tuple(out)


LINES_O = [[line(sq, d) for d in ORTH] for sq in range(64)]
LINES_D = [[line(sq, d) for d in DIAG] for sq in range(64)]
# ALIGNED[k][s]: s lies on a rank, file or diagonal through k
ALIGNED = [[False] * 64 for _ in range(64)]
for _k in range(64):
    for _l in LINES_O[_k] + LINES_D[_k]:
        for _s in _l:
            ALIGNED[_k][_s] = True

E1, E8 = 4, 60
RIGHT_SQUARES = {"K": (4, 7), "Q": (4, 0), "k": (60, 63), "q": (60, 56)}
