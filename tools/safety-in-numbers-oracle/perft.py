#!/usr/bin/env python3
"""An independent move generator for Crowd Chess 1: Safety in Numbers (Ralph Betza).

Written from ../shared/rules/safety-in-numbers.txt and the rulings of
docs/variants/safety-in-numbers.md (README.md lists them as this file implements them), sharing
nothing with the engine.

Usage:
  perft.py DEPTH [--pos "P"] [--moves "M1 M2 ..."]      perft at every depth 1..DEPTH
  perft.py divide DEPTH [--pos "P"] [--moves "..."]     count per root move, sorted
  perft.py moves [--pos "P"] [--moves "..."]            the legal moves, sorted
  perft.py show [--pos "P"] [--moves "..."]             the position string and a diagram

Position strings are Varia's: FEN, with a square holding several pieces written as its pieces
in parentheses, e.g. `rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1`.
Moves are long algebraic: `Ng1-f3`, `e4xd5`, `e7-e8=Q`, `O-O`; `x` is a capture (always of a
lone piece), `-` any other move, a join included.
"""

import re
import sys

FILES = "abcdefgh"
ORDER = "KQRBNP"           # the order of a stack's pieces in a position string

# Move kinds.
QUIET, CAPTURE, JOIN, EN_PASSANT, DOUBLE, CASTLE_K, CASTLE_Q = range(7)

# Classes of a destination square, seen from the mover.
EMPTY, FRIEND, ENEMY, MIXED_CROWD, OWN_CROWD = range(5)

# With FIDE set (self-tests only), a move power never goes onto a lone enemy piece: the game is
# FIDE chess (no crowd can form), to check the chess underneath against the published counts.
FIDE = False

# ---------------------------------------------------------------- geometry


def name(sq):
    return FILES[sq % 8] + str(sq // 8 + 1)


def parse_sq(s):
    if len(s) != 2 or s[0] not in FILES or s[1] not in "12345678":
        raise ValueError(f"not a square: {s!r}")
    return (int(s[1]) - 1) * 8 + FILES.index(s[0])


def on(x, y):
    return 0 <= x < 8 and 0 <= y < 8


def leaps(sq, deltas):
    x, y = sq % 8, sq // 8
    return tuple((y + dy) * 8 + x + dx for dx, dy in deltas if on(x + dx, y + dy))


def ray(sq, d):
    x, y = sq % 8, sq // 8
    out = []
    while on(x + d[0], y + d[1]):
        x, y = x + d[0], y + d[1]
        out.append(y * 8 + x)
    return tuple(out)


ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT_D = [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)]
KNIGHT = [leaps(sq, KNIGHT_D) for sq in range(64)]
KING = [leaps(sq, ORTH + DIAG) for sq in range(64)]
RAYS_O = [[ray(sq, d) for d in ORTH] for sq in range(64)]
RAYS_D = [[ray(sq, d) for d in DIAG] for sq in range(64)]
# PAWN_CAPT[white][sq]: the squares a pawn of that colour on sq captures on (its capture power);
# PAWN_FROM[white][sq]: the squares from which a pawn of that colour captures on sq.
PAWN_CAPT = {True: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)]}
PAWN_FROM = {True: [leaps(sq, [(-1, -1), (1, -1)]) for sq in range(64)],
             False: [leaps(sq, [(-1, 1), (1, 1)]) for sq in range(64)]}
# Castling rights and the squares whose use (a move from or to them) loses them.
RIGHT_SQUARES = {"K": (4, 7), "Q": (4, 0), "k": (60, 63), "q": (60, 56)}

# ---------------------------------------------------------------- position


def stack(pieces):
    """A square's contents in the canonical order: by type K Q R B N P, White's before Black's."""
    return "".join(sorted(pieces, key=lambda c: (ORDER.index(c.upper()), c.islower())))


class Pos:
    """board[sq]: the pieces on the square, a string of letters in canonical order ('' empty);
    white: side to move; castle: rights (a string of KQkq); ep: the square a pawn passed with a
    double step onto an empty square, or -1; half, full: the clocks; kings: {white: square}."""
    __slots__ = ("board", "white", "castle", "ep", "half", "full", "kings")

    def copy(self):
        q = Pos.__new__(Pos)
        q.board = self.board[:]
        q.white, q.castle, q.ep, q.half, q.full = self.white, self.castle, self.ep, self.half, self.full
        q.kings = dict(self.kings)
        return q


START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def parse(text):
    f = text.split()
    rows = f[0].split("/")
    if len(rows) != 8:
        raise ValueError("a board has eight ranks")
    p = Pos()
    p.board = [""] * 64
    p.kings = {}
    for r, row in enumerate(rows):
        y, x, i = 7 - r, 0, 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                x += int(ch)
                i += 1
                continue
            if x >= 8:
                raise ValueError(f"rank {row!r} too long")
            if ch == "(":
                j = row.index(")", i)
                pieces = row[i + 1:j]
                i = j + 1
            else:
                pieces = ch
                i += 1
            if not pieces or any(c not in "KQRBNPkqrbnp" for c in pieces):
                raise ValueError(f"bad square {pieces!r} in {row!r}")
            sq = y * 8 + x
            p.board[sq] = stack(pieces)
            for c in pieces:
                if c in "Kk":
                    p.kings[c == "K"] = sq
            x += 1
        if x != 8:
            raise ValueError(f"rank {row!r}: {x} squares")
    p.white = (f[1] if len(f) > 1 else "w") == "w"
    p.castle = f[2] if len(f) > 2 and f[2] != "-" else ""
    p.ep = parse_sq(f[3]) if len(f) > 3 and f[3] != "-" else -1
    p.half = int(f[4]) if len(f) > 4 else 0
    p.full = int(f[5]) if len(f) > 5 else 1
    return p


def write(p):
    rows = []
    for y in range(7, -1, -1):
        s, gap = "", 0
        for x in range(8):
            st = p.board[y * 8 + x]
            if not st:
                gap += 1
                continue
            if gap:
                s, gap = s + str(gap), 0
            s += st if len(st) == 1 else "(" + st + ")"
        rows.append(s + (str(gap) if gap else ""))
    castle = "".join(c for c in "KQkq" if c in p.castle) or "-"
    ep = name(p.ep) if p.ep >= 0 else "-"
    return f"{'/'.join(rows)} {'w' if p.white else 'b'} {castle} {ep} {p.half} {p.full}"


def diagram(p):
    w = max(3, max(len(st) for st in p.board) + 1)
    lines = []
    for y in range(7, -1, -1):
        lines.append(f"{y + 1} " + "".join((p.board[y * 8 + x] or ".").ljust(w) for x in range(8)))
    lines.append("  " + "".join(f.ljust(w) for f in FILES))
    lines.append(("white" if p.white else "black") + " to move")
    return "\n".join(lines)


# ---------------------------------------------------------------- the crowd rules


def kind_of(st, white):
    """What a square holding the pieces st is to a piece of the side `white`."""
    if not st:
        return EMPTY
    if len(st) == 1:
        return FRIEND if st.isupper() == white else ENEMY
    # a crowd: two or more pieces, whoever's
    for c in st:
        if c.isupper() != white:
            return MIXED_CROWD
    return OWN_CROWD


def attacked(board, t, by_white):
    """Whether a piece of side by_white has a capture power that reaches square t (so that it
    would capture a lone enemy piece standing there). Pieces in crowds attack like any other;
    any occupied square, lone piece or crowd, stops a line."""
    if by_white:
        N, K, P, R, B, Q = "NKPRBQ"
    else:
        N, K, P, R, B, Q = "nkprbq"
    for s in KNIGHT[t]:
        if N in board[s]:
            return True
    for s in KING[t]:
        if K in board[s]:
            return True
    for s in PAWN_FROM[by_white][t]:
        if P in board[s]:
            return True
    for rays, a, b in ((RAYS_O[t], R, Q), (RAYS_D[t], B, Q)):
        for rr in rays:
            for s in rr:
                st = board[s]
                if st:
                    if a in st or b in st:
                        return True
                    break
    return False


def king_safe(board, k, white):
    """The king of `white` on k cannot be captured: it shares its square with another piece
    (a crowd is safe), or no enemy capture power reaches it."""
    return len(board[k]) >= 2 or not attacked(board, k, not white)


# ---------------------------------------------------------------- moves
# A move is (frm, to, letter, promo, kind): letter is the moving piece as written in the
# position ('N' or 'n'), promo '' or the new type's upper-case letter.


def land(out, s, t, letter, cls, can_move, can_capture, capture_reaches, promos=("",)):
    """The moves of one power of a piece from s reaching t (rule text, both parts):
    - an empty square: a move power moves there;
    - a lone enemy piece: a capture power captures it; a move power that cannot capture there
      joins it, if no capture power of the same piece reaches t (the second part);
    - a crowd holding an enemy piece: any power joins it (the first part; no capture on a crowd);
    - a lone friendly piece or a crowd of the mover's own pieces: nothing."""
    if cls == EMPTY:
        kinds = (QUIET,) if can_move else ()
    elif cls == ENEMY:
        if can_capture:
            kinds = (CAPTURE,)
        elif can_move and not capture_reaches and not FIDE:
            kinds = (JOIN,)
        else:
            kinds = ()
    elif cls == MIXED_CROWD:
        kinds = (JOIN,)
    else:
        kinds = ()
    for k in kinds:
        for pr in promos:
            out.append((s, t, letter, pr, k))


def pseudo_moves(p):
    board, white = p.board, p.white
    out = []
    for s in range(64):
        st = board[s]
        if not st:
            continue
        seen = ""
        for c in st:
            if c.isupper() != white or c in seen:
                continue        # two equal pieces in one crowd have the same moves
            seen += c
            u = c.upper()
            if u == "N" or u == "K":
                # one power that moves and captures alike
                for t in (KNIGHT if u == "N" else KING)[s]:
                    land(out, s, t, c, kind_of(board[t], white), True, True, True)
                if u == "K":
                    castling(p, s, out)
            elif u == "P":
                pawn_moves(p, s, c, out)
            else:
                rays = (RAYS_O[s] if u != "B" else []) + (RAYS_D[s] if u != "R" else [])
                for rr in rays:
                    for t in rr:
                        cls = kind_of(board[t], white)
                        land(out, s, t, c, cls, True, True, True)
                        if cls != EMPTY:
                            break       # any occupied square, lone piece or crowd, stops a line
    return out


def pawn_moves(p, s, c, out):
    """The pawn: move powers one step forward and, from its second rank, two steps over an
    empty square; capture power one step diagonally forward, and en passant."""
    board, white = p.board, p.white
    fwd = 8 if white else -8
    last = 7 if white else 0
    capt = PAWN_CAPT[white][s]
    t1 = s + fwd
    if not 0 <= t1 < 64:
        return
    promos = ("Q", "R", "B", "N") if t1 // 8 == last else ("",)
    cls1 = kind_of(board[t1], white)
    land(out, s, t1, c, cls1, True, False, t1 in capt, promos)
    if s // 8 == (1 if white else 6) and cls1 == EMPTY:
        t2 = t1 + fwd
        cls2 = kind_of(board[t2], white)
        if cls2 == EMPTY:
            out.append((s, t2, c, "", DOUBLE))
        else:
            land(out, s, t2, c, cls2, True, False, t2 in capt)
    for t in capt:
        cls = kind_of(board[t], white)
        if cls == EMPTY:
            # en passant: the pawn that passed t with a double step, alone on its square
            if t == p.ep and board[t - fwd] == ("p" if white else "P"):
                out.append((s, t, c, "", EN_PASSANT))
        else:
            promos = ("Q", "R", "B", "N") if t // 8 == last else ("",)
            land(out, s, t, c, cls, False, True, True, promos)


def castling(p, ksq, out):
    """As in chess, with the king and the rook each alone on their squares and the squares
    between them empty (a crowd is not empty); the king's start, path and end not attacked."""
    board, white = p.board, p.white
    home, rights, K, R = (4, "KQ", "K", "R") if white else (60, "kq", "k", "r")
    if ksq != home or board[home] != K:
        return
    for right, rook, between, path, kind in (
            (rights[0], home + 3, (home + 1, home + 2), (home, home + 1, home + 2), CASTLE_K),
            (rights[1], home - 4, (home - 1, home - 2, home - 3), (home, home - 1, home - 2),
             CASTLE_Q)):
        if right not in p.castle or board[rook] != R:
            continue
        if any(board[s] for s in between):
            continue
        if any(attacked(board, s, not white) for s in path):
            continue
        out.append((home, path[2], K, "", kind))


def remove_one(st, c):
    i = st.index(c)
    return st[:i] + st[i + 1:]


def make(p, m):
    """The position after move m (no legality test)."""
    frm, to, c, promo, kind = m
    q = p.copy()
    board = q.board
    white = p.white
    board[frm] = remove_one(board[frm], c)
    if kind == CAPTURE:
        board[to] = ""                  # a capture always takes a lone piece
    elif kind == EN_PASSANT:
        board[to - 8 if white else to + 8] = ""
    piece = (promo if white else promo.lower()) if promo else c
    board[to] = stack(board[to] + piece)
    if kind == CASTLE_K or kind == CASTLE_Q:
        rf, rt = (to + 1, to - 1) if kind == CASTLE_K else (to - 2, to + 1)
        board[rt] = board[rf]
        board[rf] = ""
    if c in "Kk":
        q.kings[white] = to
    q.ep = (frm + to) // 2 if kind == DOUBLE else -1
    if q.castle:
        rights = q.castle
        for r, sqs in RIGHT_SQUARES.items():
            if r in rights and (frm in sqs or to in sqs):
                rights = rights.replace(r, "")
        q.castle = rights
    # a join captures nothing: only a pawn's move or a capture resets the clock
    q.half = 0 if (c in "Pp" or kind == CAPTURE or kind == EN_PASSANT) else p.half + 1
    if not white:
        q.full += 1
    q.white = not white
    return q


def legal(p):
    """The legal moves: the pseudo-legal moves after which the mover's king cannot be captured."""
    white = p.white
    out = []
    for m in pseudo_moves(p):
        q = make(p, m)
        k = q.kings.get(white)
        if k is None or king_safe(q.board, k, white):
            out.append(m)
    return out


def in_check(p):
    k = p.kings.get(p.white)
    return k is not None and not king_safe(p.board, k, p.white)


def perft(p, depth):
    ms = legal(p)
    if depth <= 1:
        return len(ms)
    return sum(perft(make(p, m), depth - 1) for m in ms)


# ---------------------------------------------------------------- notation


def notation(m):
    frm, to, c, promo, kind = m
    if kind == CASTLE_K:
        return "O-O"
    if kind == CASTLE_Q:
        return "O-O-O"
    letter = "" if c in "Pp" else c.upper()
    sep = "x" if kind in (CAPTURE, EN_PASSANT) else "-"
    return letter + name(frm) + sep + name(to) + ("=" + promo if promo else "")


def clean(token):
    t = token.strip().replace(":", "x")
    t = re.sub(r"(e\.p\.|ep)$", "", t)
    t = t.rstrip("+#!?")
    return t.replace("0-0-0", "O-O-O").replace("0-0", "O-O")


def find(p, token, ms=None):
    """The legal move written `token` in long algebraic notation, or None."""
    t = clean(token)
    for m in (legal(p) if ms is None else ms):
        if notation(m) == t:
            return m
    return None


def tokens(text):
    """Split a move list: move numbers (`12.`, `12...`) and `{comments}` are dropped."""
    text = re.sub(r"\{[^}]*\}", " ", text)
    out = []
    for tok in text.split():
        tok = re.sub(r"^\d+\.+", "", tok)
        if tok:
            out.append(tok)
    return out


def play(p, text):
    for tok in tokens(text):
        m = find(p, tok)
        if m is None:
            raise ValueError(f"illegal or unreadable move {tok!r} in {write(p)}")
        p = make(p, m)
    return p


# ---------------------------------------------------------------- command line


def main(argv):
    pos, moves, args = START, "", []
    i = 0
    while i < len(argv):
        if argv[i] == "--pos":
            pos, i = argv[i + 1], i + 2
        elif argv[i] == "--moves":
            moves, i = argv[i + 1], i + 2
        else:
            args.append(argv[i])
            i += 1
    if not args:
        print(__doc__)
        return 2
    p = play(parse(pos), moves)
    if args[0] == "show":
        print(write(p))
        print(diagram(p))
        return 0
    if args[0] == "moves":
        for s in sorted(notation(m) for m in legal(p)):
            print(s)
        return 0
    if args[0] == "divide":
        depth = int(args[1])
        rows = [(notation(m), 1 if depth <= 1 else perft(make(p, m), depth - 1)) for m in legal(p)]
        for s, n in sorted(rows):
            print(s, n)
        print("nodes", sum(n for _, n in rows))
        return 0
    for d in range(1, int(args[0]) + 1):
        print(d, perft(p, d), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
