#!/usr/bin/env python3
"""An independent move generator for Occupying Multiple Squares (event chess #87).

Written from ../../../shared/rules/occupying-multiple-squares.txt (the rule text) and the
rulings given with it (see README.md), sharing nothing with the engine.

FIDE chess, plus: queens, rooks and bishops may end a move half a square further or shorter,
standing between two squares (covering both) or between four squares (covering all four).

Locations are kept in doubled coordinates (X, Y), X and Y in 0..14: even X is file X/2, odd X
lies between files (X-1)/2 and (X+1)/2, and the same for Y and the ranks. A location covers
every square within half a square of it in both coordinates: one, two or four squares. The key
of a location is Y * 15 + X; a square sq = y * 8 + x has the key SQ_KEY[sq].

The board is two arrays over the 64 squares: `board[sq]` the piece letter standing on or
covering sq ('.' for empty), and `owner[sq]` the key of the location of the piece covering sq
(-1 for empty). Pieces on half locations are also listed in the dict `halves` (key -> letter).

Usage:
  perft.py DEPTH [POSITION]            perft at every depth 1..DEPTH
  perft.py divide DEPTH [POSITION]     count per root move (long notation, sorted)
  perft.py moves [POSITION]            the legal moves, sorted, one per line

With --plain first, no piece ever stops between squares (plain FIDE chess, for a sanity check
against another chess move generator); everything else is unchanged.
"""

import sys

FILES = "abcdefgh"
PLAIN = False  # --plain: no stops between squares

# ---------------------------------------------------------------- geometry tables

SQ_KEY = [(2 * (sq // 8)) * 15 + 2 * (sq % 8) for sq in range(64)]
KEY_SQ = [-1] * 225          # key -> square, or -1 for a half location
for _sq in range(64):
    KEY_SQ[SQ_KEY[_sq]] = _sq


def key(X, Y):
    return Y * 15 + X


def covered(k):
    """The squares location k covers (1, 2 or 4)."""
    X, Y = k % 15, k // 15
    xs = [X // 2] if X % 2 == 0 else [(X - 1) // 2, (X + 1) // 2]
    ys = [Y // 2] if Y % 2 == 0 else [(Y - 1) // 2, (Y + 1) // 2]
    return tuple(y * 8 + x for y in ys for x in xs)


COVER = [covered(k) for k in range(225)]


def loc_name(k):
    X, Y = k % 15, k // 15
    f = FILES[X // 2] if X % 2 == 0 else FILES[(X - 1) // 2] + FILES[(X + 1) // 2]
    r = str(Y // 2 + 1) if Y % 2 == 0 else str((Y - 1) // 2 + 1) + ".5"
    return f + r


NAME = [loc_name(k) for k in range(225)]
BY_NAME = {n: k for k, n in enumerate(NAME)}


def sq_name(sq):
    return NAME[SQ_KEY[sq]]


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def on(x, y):
    return 0 <= x < 8 and 0 <= y < 8


def ray(sq, d):
    """The walk s1, s2, ... from sq along d, each step as (s, mid, corner1, corner2): mid is the
    key of the midpoint of the previous square and s; corners are the two other squares that
    midpoint covers on a diagonal step (-1 on an orthogonal one)."""
    x, y = sq % 8, sq // 8
    dx, dy = d
    out = []
    while on(x + dx, y + dy):
        nx, ny = x + dx, y + dy
        mid = key(x + nx, y + ny)  # doubled coordinates of the midpoint
        if dx and dy:
            c1, c2 = y * 8 + nx, ny * 8 + x
        else:
            c1 = c2 = -1
        out.append((ny * 8 + nx, mid, c1, c2))
        x, y = nx, ny
    return tuple(out)


RAYS_O = [[ray(sq, d) for d in ORTH] for sq in range(64)]
RAYS_D = [[ray(sq, d) for d in DIAG] for sq in range(64)]
# Plain square lists along each ray, for attack tests.
LINE_O = [[tuple(s for s, _, _, _ in r) for r in RAYS_O[sq]] for sq in range(64)]
LINE_D = [[tuple(s for s, _, _, _ in r) for r in RAYS_D[sq]] for sq in range(64)]


def leaps(sq, deltas):
    x, y = sq % 8, sq // 8
    return tuple((y + dy) * 8 + x + dx for dx, dy in deltas if on(x + dx, y + dy))


KNIGHT = [leaps(sq, [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)])
          for sq in range(64)]
KING = [leaps(sq, ORTH + DIAG) for sq in range(64)]
# Squares from which a pawn of the colour attacks sq.
PAWN_FROM = {True: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)]}
# Squares a pawn on sq attacks.
PAWN_CAPT = {True: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)]}

A1, H1, A8, H8, E1, E8 = 0, 7, 56, 63, 4, 60
# Castling right -> squares it depends on
RIGHT_SQUARES = {"K": (E1, H1), "Q": (E1, A1), "k": (E8, H8), "q": (E8, A8)}

# ---------------------------------------------------------------- position


class Pos:
    __slots__ = ("board", "owner", "halves", "white", "castle", "ep", "half", "full", "kings")

    def copy(self):
        p = Pos.__new__(Pos)
        p.board = self.board[:]
        p.owner = self.owner[:]
        p.halves = dict(self.halves)
        p.white, p.castle, p.ep = self.white, self.castle, self.ep
        p.half, p.full = self.half, self.full
        p.kings = dict(self.kings)
        return p


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def parse(text):
    fields = text.split()
    bf = fields[0]
    extra = []
    if "{" in bf:
        bf, rest = bf.split("{", 1)
        assert rest.endswith("}"), "half-location list must end with }"
        extra = [e.strip() for e in rest[:-1].split(",") if e.strip()]
    rows = bf.split("/")
    assert len(rows) == 8, "eight rows"
    p = Pos()
    p.board = ["."] * 64
    p.owner = [-1] * 64
    p.halves = {}
    p.kings = {}
    for r, row in enumerate(rows):
        y = 7 - r
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            else:
                assert ch in "KQRBNPkqrbnp", f"piece {ch!r}"
                assert x < 8, f"row {row!r}"
                sq = y * 8 + x
                p.board[sq] = ch
                p.owner[sq] = SQ_KEY[sq]
                if ch in "Kk":
                    p.kings[ch == "K"] = sq
                x += 1
        assert x == 8, f"row {row!r}: {x} squares"
    for e in extra:
        ch, where = e[0], e[1:]
        assert ch in "QRBqrb", f"only queens, rooks and bishops stand between squares: {e!r}"
        k = BY_NAME[where]
        assert KEY_SQ[k] < 0, f"{e!r} is not a half location"
        for c in COVER[k]:
            assert p.board[c] == ".", f"{e!r} overlaps an occupied square"
            p.board[c] = ch
            p.owner[c] = k
        p.halves[k] = ch
    p.white = (fields[1] if len(fields) > 1 else "w") == "w"
    p.castle = fields[2] if len(fields) > 2 and fields[2] != "-" else ""
    p.ep = -1
    if len(fields) > 3 and fields[3] != "-":
        p.ep = KEY_SQ[BY_NAME[fields[3]]]
    p.half = int(fields[4]) if len(fields) > 4 else 0
    p.full = int(fields[5]) if len(fields) > 5 else 1
    return p


def write(p):
    rows = []
    for y in range(7, -1, -1):
        s, gap = "", 0
        for x in range(8):
            sq = y * 8 + x
            if p.board[sq] == "." or p.owner[sq] != SQ_KEY[sq]:
                gap += 1
            else:
                s += (str(gap) if gap else "") + p.board[sq]
                gap = 0
        rows.append(s + (str(gap) if gap else ""))
    bf = "/".join(rows)
    if p.halves:
        bf += "{" + ",".join(p.halves[k] + NAME[k] for k in sorted(p.halves)) + "}"
    castle = "".join(c for c in "KQkq" if c in p.castle) or "-"
    ep = sq_name(p.ep) if p.ep >= 0 else "-"
    return f"{bf} {'w' if p.white else 'b'} {castle} {ep} {p.half} {p.full}"


# ---------------------------------------------------------------- attacks


def attacked(board, sq, by_white):
    """Whether side by_white attacks square sq (could capture a piece standing there).
    A piece between squares attacks from each square it covers; since its other squares are
    its own, the first occupied square along a line from sq decides."""
    if by_white:
        N, K, P, R, B, Q = "NKPRBQ"
    else:
        N, K, P, R, B, Q = "nkprbq"
    for t in KNIGHT[sq]:
        if board[t] == N:
            return True
    for t in KING[sq]:
        if board[t] == K:
            return True
    for t in PAWN_FROM[by_white][sq]:
        if board[t] == P:
            return True
    for line in LINE_O[sq]:
        for s in line:
            c = board[s]
            if c != ".":
                if c == R or c == Q:
                    return True
                break
    for line in LINE_D[sq]:
        for s in line:
            c = board[s]
            if c != ".":
                if c == B or c == Q:
                    return True
                break
    return False


def in_check(p):
    k = p.kings.get(p.white)
    return k is not None and attacked(p.board, k, not p.white)


# ---------------------------------------------------------------- moves
# A move is (frm, to, promo, kind, capture): frm and to are location keys, promo a letter or
# "", kind 0 ordinary, 1 pawn double step, 2 en passant, 3 O-O, 4 O-O-O.


def slider_dests(board, white, origins, diag, orth, out):
    """Rulings 2 and 4: walk from every origin square along every direction; every empty
    square is a destination, the first occupied one ends the walk (a capture if an enemy);
    the midpoint of every consecutive pair up to there is a destination if every square it
    covers is empty. out maps destination key -> capture flag."""
    plain = PLAIN
    for o in origins:
        if orth:
            for r in RAYS_O[o]:
                for s, mid, _, _ in r:
                    c = board[s]
                    if c == ".":
                        out[SQ_KEY[s]] = False
                        if not plain:
                            out[mid] = False
                    else:
                        if c.isupper() != white:
                            out[SQ_KEY[s]] = True
                        break
        if diag:
            for r in RAYS_D[o]:
                for s, mid, c1, c2 in r:
                    c = board[s]
                    if c == ".":
                        out[SQ_KEY[s]] = False
                        if not plain and board[c1] == "." and board[c2] == ".":
                            out[mid] = False
                    else:
                        if c.isupper() != white:
                            out[SQ_KEY[s]] = True
                        break


def pseudo(p):
    board, white = p.board, p.white
    moves = []
    for sq in range(64):
        ch = board[sq]
        if ch == "." or ch.isupper() != white or p.owner[sq] != SQ_KEY[sq]:
            continue
        u = ch.upper()
        fk = SQ_KEY[sq]
        if u == "P":
            step = 8 if white else -8
            last = (56 <= sq + step < 64) if white else (0 <= sq + step < 8)
            promos = ("QRBN" if white else "qrbn") if last else ("",)
            t = sq + step
            if 0 <= t < 64 and board[t] == ".":
                for pr in promos:
                    moves.append((fk, SQ_KEY[t], pr, 0, False))
                start = (8 <= sq < 16) if white else (48 <= sq < 56)
                if start and board[t + step] == ".":
                    moves.append((fk, SQ_KEY[t + step], "", 1, False))
            for t in PAWN_CAPT[white][sq]:
                c = board[t]
                if c != "." and c.isupper() != white:
                    for pr in promos:
                        moves.append((fk, SQ_KEY[t], pr, 0, True))
                elif t == p.ep and c == ".":
                    moves.append((fk, SQ_KEY[t], "", 2, True))
        elif u == "N" or u == "K":
            for t in (KNIGHT if u == "N" else KING)[sq]:
                c = board[t]
                if c == ".":
                    moves.append((fk, SQ_KEY[t], "", 0, False))
                elif c.isupper() != white:
                    moves.append((fk, SQ_KEY[t], "", 0, True))
            if u == "K":
                castling(p, sq, moves)
        else:
            out = {}
            slider_dests(board, white, (sq,), u != "R", u != "B", out)
            for t, cap in out.items():
                moves.append((fk, t, "", 0, cap))
    for k, ch in list(p.halves.items()):
        if ch.isupper() != white:
            continue
        u = ch.upper()
        cov = COVER[k]
        for c in cov:        # lift the piece: its squares are empty while it moves
            board[c] = "."
        out = {}
        slider_dests(board, white, cov, u != "R", u != "B", out)
        for c in cov:
            board[c] = ch
        out.pop(k, None)     # it does not stay where it is
        for t, cap in out.items():
            moves.append((k, t, "", 0, cap))
    return moves


def castling(p, ksq, moves):
    """Ruling 6: king and rook on their own starting squares (a piece between squares is not on
    a square), every square between them empty, the king's start, path and end not attacked."""
    board, white = p.board, p.white
    if white:
        home, rights, R = E1, ("K", "Q"), "R"
    else:
        home, rights, R = E8, ("k", "q"), "r"
    if ksq != home:
        return
    enemy = not white
    for right, rook, between, path, kind in (
            (rights[0], home + 3, (home + 1, home + 2), (home, home + 1, home + 2), 3),
            (rights[1], home - 4, (home - 1, home - 2, home - 3), (home, home - 1, home - 2), 4)):
        if right not in p.castle:
            continue
        if board[rook] != R or p.owner[rook] != SQ_KEY[rook]:
            continue
        if any(board[s] != "." for s in between):
            continue
        if any(attacked(board, s, enemy) for s in path):
            continue
        moves.append((SQ_KEY[home], SQ_KEY[path[2]], "", kind, False))


def make(p, m):
    frm, to, promo, kind, cap = m
    q = p.copy()
    board, owner = q.board, q.owner
    # lift the mover
    fs = KEY_SQ[frm]
    if fs >= 0:
        ch = board[fs]
        board[fs] = "."
        owner[fs] = -1
    else:
        ch = q.halves.pop(frm)
        for c in COVER[frm]:
            board[c] = "."
            owner[c] = -1
    ts = KEY_SQ[to]
    castle = q.castle
    if ts >= 0:
        if board[ts] != ".":        # a capture: the whole captured piece leaves the board
            h = owner[ts]
            if KEY_SQ[h] < 0:
                del q.halves[h]
                for c in COVER[h]:
                    board[c] = "."
                    owner[c] = -1
        board[ts] = promo or ch
        owner[ts] = to
        if kind == 2:               # en passant
            vs = ts - 8 if ch == "P" else ts + 8
            board[vs] = "."
            owner[vs] = -1
        elif kind == 3 or kind == 4:
            rf, rt = (ts + 1, ts - 1) if kind == 3 else (ts - 2, ts + 1)
            board[rt] = board[rf]
            owner[rt] = SQ_KEY[rt]
            board[rf] = "."
            owner[rf] = -1
    else:
        q.halves[to] = ch
        for c in COVER[to]:
            board[c] = ch
            owner[c] = to
    if ch == "K" or ch == "k":
        q.kings[ch == "K"] = ts
    if castle:
        for r, sqs in RIGHT_SQUARES.items():
            if r in castle and (fs in sqs or ts in sqs):
                castle = castle.replace(r, "")
        q.castle = castle
    q.ep = (ts + fs) // 2 if kind == 1 else -1
    q.half = 0 if (ch in "Pp" or cap) else p.half + 1
    if not p.white:
        q.full = p.full + 1
    q.white = not p.white
    return q


def legal(p):
    out = []
    mover = p.white
    for m in pseudo(p):
        q = make(p, m)
        k = q.kings.get(mover)
        if k is None or not attacked(q.board, k, not mover):
            out.append(m)
    return out


def notation(p, m):
    frm, to, promo, kind, cap = m
    if kind == 3:
        return "O-O"
    if kind == 4:
        return "O-O-O"
    fs = KEY_SQ[frm]
    ch = p.board[fs] if fs >= 0 else p.halves[frm]
    letter = "" if ch in "Pp" else ch.upper()
    tail = "=" + promo.upper() if promo else ""
    return letter + NAME[frm] + ("x" if cap else "-") + NAME[to] + tail


def perft(p, depth):
    ms = legal(p)
    if depth <= 1:
        return len(ms)
    return sum(perft(make(p, m), depth - 1) for m in ms)


def play(p, text):
    """The position after the move written `text` (long notation), or KeyError."""
    for m in legal(p):
        if notation(p, m) == text:
            return make(p, m)
    raise KeyError(text)


def main(argv):
    global PLAIN
    if argv and argv[0] == "--plain":
        PLAIN = True
        argv = argv[1:]
    if not argv:
        print(__doc__)
        return 2
    if argv[0] == "moves":
        p = parse(" ".join(argv[1:]) if len(argv) > 1 else START)
        for s in sorted(notation(p, m) for m in legal(p)):
            print(s)
        return 0
    if argv[0] == "divide":
        depth = int(argv[1])
        p = parse(" ".join(argv[2:]) if len(argv) > 2 else START)
        total = 0
        rows = []
        for m in legal(p):
            n = 1 if depth <= 1 else perft(make(p, m), depth - 1)
            rows.append((notation(p, m), n))
            total += n
        for s, n in sorted(rows):
            print(s, n)
        print("nodes", total)
        return 0
    depth = int(argv[0])
    p = parse(" ".join(argv[1:]) if len(argv) > 1 else START)
    for d in range(1, depth + 1):
        print(d, perft(p, d), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
