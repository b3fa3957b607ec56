"""Independent Share Squares move generator, written from the rule text and the rulings."""
import sys

FILES = "abcdefgh"
SHARE = {3 + 8 * 3, 4 + 8 * 3, 3 + 8 * 4, 4 + 8 * 4}  # d4 e4 d5 e5
ORDER = "KQRBNP"


def name(c):
    return FILES[c % 8] + str(c // 8 + 1)


def parse(fen):
    f = fen.split()
    board = [[] for _ in range(64)]
    rows = f[0].split("/")
    for ri, row in enumerate(rows):
        rank = 7 - ri
        file = 0
        i = 0
        while i < len(row):
            ch = row[i]
            if ch.isdigit():
                file += int(ch)
                i += 1
            elif ch == "(":
                j = row.index(")", i)
                for x in row[i + 1:j]:
                    board[rank * 8 + file].append(x)
                file += 1
                i = j + 1
            else:
                board[rank * 8 + file].append(ch)
                file += 1
                i += 1
    side = "w" if f[1] == "w" else "b"
    castling = f[2]
    ep = None if f[3] == "-" else f[3]
    return board, side, castling, ep


def color(p):
    return "w" if p.isupper() else "b"


def other(s):
    return "b" if s == "w" else "w"


def step(c, df, dr):
    f, r = c % 8 + df, c // 8 + dr
    if 0 <= f < 8 and 0 <= r < 8:
        return r * 8 + f
    return None


class Pos:
    def __init__(self, board, side, castling, ep):
        self.b = board
        self.side = side
        self.castling = castling
        self.ep = ep  # cell name passed

    def count(self):
        return sum(len(x) for x in self.b)

    def wrap(self):
        return self.count() <= 5

    def cap(self, c):
        if c in SHARE:
            return 1 if self.wrap() else 2
        return 1

    def inert(self, c):
        return c in SHARE and not self.wrap() and len(self.b[c]) == 1

    def see(self, c):
        return len(self.b[c]) == 0 or self.inert(c)

    def capture_all(self, c):
        return c in SHARE and self.wrap()


DIRS_ORTH = [(1, 0), (-1, 0), (0, 1), (0, -1)]
DIRS_DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]
KNIGHT = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def targets(pos, c, p):
    """(to, mode, kind) rays: yields lists of cells per ray with mode 'both'/'move'/'cap' and slide flag."""
    t = p.upper()
    fwd = 1 if color(p) == "w" else -1
    rays = []
    if t == "K":
        for d in DIRS_ORTH + DIRS_DIAG:
            rays.append(([step(c, *d)], "both"))
    elif t == "N":
        for d in KNIGHT:
            rays.append(([step(c, *d)], "both"))
    elif t in "QRB":
        dirs = (DIRS_ORTH if t in "QR" else []) + (DIRS_DIAG if t in "QB" else [])
        for d in dirs:
            ray = []
            x = c
            while True:
                x = step(x, *d)
                if x is None:
                    break
                ray.append(x)
            rays.append((ray, "both"))
    elif t == "P":
        start = 1 if fwd == 1 else 6
        ray = [step(c, 0, fwd)]
        if c // 8 == start:
            ray.append(step(c, 0, 2 * fwd))
        rays.append((ray, "move"))
        for df in (-1, 1):
            rays.append(([step(c, df, fwd)], "cap"))
    return [([x for x in ray if x is not None], mode) for ray, mode in rays]


def pseudo(pos, side):
    """Moves as tuples (from, to, piece, take, kind, promo); take: letter, 'ALL' or None."""
    out = []
    for c in range(64):
        seen = set()
        for p in pos.b[c]:
            if color(p) != side or p in seen:
                continue
            seen.add(p)
            inert_from = pos.inert(c)
            for ray, mode in targets(pos, c, p):
                for i, t in enumerate(ray):
                    n = len(pos.b[t])
                    cap = pos.cap(t)
                    if pos.see(t):
                        if mode != "cap":
                            if n + 1 <= cap:
                                kind = "pass" if (p.upper() == "P" and i == 1) else "normal"
                                out.append((c, t, p, None, kind))
                        elif n == 0 and not inert_from and pos.ep is not None and name(t) == pos.ep:
                            # en passant: victim one step beyond in the passer's direction
                            fwd = 1 if side == "w" else -1
                            v = step(t, 0, -fwd)
                            vp = "p" if side == "w" else "P"
                            if vp in pos.b[v] and capturable_ep(pos, v, side):
                                out.append((c, t, p, vp, "ep"))
                        continue
                    enemies = [q for q in pos.b[t] if color(q) != side]
                    if enemies and mode != "move" and not inert_from:
                        if n >= 2 and pos.capture_all(t):
                            if n - len(enemies) + 1 <= cap:
                                out.append((c, t, p, "ALL", "normal"))
                        elif n <= cap:
                            for q in sorted(set(enemies)):
                                out.append((c, t, p, q, "normal"))
                    break
    # castling
    for right, kf, kt, rf, rt, empty, safe, sd in [
        ("K", 4, 6, 7, 5, [5, 6], [4, 5, 6], "w"),
        ("Q", 4, 2, 0, 3, [1, 2, 3], [4, 3, 2], "w"),
        ("k", 60, 62, 63, 61, [61, 62], [60, 61, 62], "b"),
        ("q", 60, 58, 56, 59, [57, 58, 59], [60, 59, 58], "b"),
    ]:
        if sd != side or right not in pos.castling:
            continue
        K = "K" if side == "w" else "k"
        R = "R" if side == "w" else "r"
        if pos.b[kf] != [K] or pos.b[rf] != [R]:
            continue
        if any(pos.b[x] for x in empty):
            continue
        if any(attacked(pos, x, other(side)) for x in safe):
            continue
        out.append((kf, kt, K, None, "castle" + right))
    # promotions
    res = []
    for m in out:
        c, t, p, take, kind = m
        if p.upper() == "P" and t // 8 in (0, 7):
            for q in "QRBN":
                res.append(m + (q,))
        else:
            res.append(m + (None,))
    return res


def capturable_ep(pos, v, by):
    if v not in SHARE:
        return True
    n = len(pos.b[v])
    if n == 1 and not pos.wrap():
        return False
    cap = pos.cap(v)
    taken = len([q for q in pos.b[v] if color(q) != by]) if (n >= 2 and pos.capture_all(v)) else 1
    return n - taken <= cap


def attacked(pos, cell, by):
    """For castling cells (never share cells, always empty or the king): could `by` capture there."""
    b2 = [list(x) for x in pos.b]
    if not b2[cell]:
        b2[cell] = ["k" if by == "w" else "K"]
    q = Pos(b2, by, "", None)
    # keep the phase as it is: the dummy may change the count, so only use it on non-share cells
    q_count = pos.count()
    q.count = lambda: q_count
    return any(m[1] == cell and m[3] is not None and m[4] == "normal" for m in pseudo(q, by))


def make(pos, m):
    c, t, p, take, kind, promo = m
    b = [list(x) for x in pos.b]
    b[c].remove(p)
    if kind == "ep":
        fwd = 1 if color(p) == "w" else -1
        b[step(t, 0, -fwd)].remove(take)
    elif take == "ALL":
        b[t] = [x for x in b[t] if color(x) == color(p)]
    elif take is not None:
        b[t].remove(take)
    b[t].append(promo if promo is None else (promo if color(p) == "w" else promo.lower()))
    if promo is not None:
        b[t][-1] = promo if color(p) == "w" else promo.lower()
    else:
        b[t][-1] = p
    if kind.startswith("castle"):
        rf, rt = {"K": (7, 5), "Q": (0, 3), "k": (63, 61), "q": (56, 59)}[kind[-1]]
        b[rf].remove("R" if color(p) == "w" else "r")
        b[rt].append("R" if color(p) == "w" else "r")
    return Pos(b, other(pos.side), pos.castling, None)


def king_cell(pos, side):
    K = "K" if side == "w" else "k"
    for c in range(64):
        if K in pos.b[c]:
            return c
    return None


def in_check(pos, side):
    K = "K" if side == "w" else "k"
    for m in pseudo(pos, other(side)):
        c, t, p, take, kind, promo = m
        if take == K or (take == "ALL" and K in pos.b[t]):
            return True
    return False


def legal(pos):
    out = []
    for m in pseudo(pos, pos.side):
        after = make(pos, m)
        if in_check(after, pos.side):
            continue
        a, b = king_cell(after, "w"), king_cell(after, "b")
        if a is not None and b is not None and max(abs(a % 8 - b % 8), abs(a // 8 - b // 8)) <= 1:
            continue
        out.append(m)
    return out


def notation(pos, m):
    c, t, p, take, kind, promo = m
    if kind.startswith("castle"):
        return "O-O" if kind[-1] in "Kk" else "O-O-O"
    s = "" if p.upper() == "P" else p.upper()
    s += name(c)
    s += "x" if take is not None else "-"
    if kind == "normal" and take not in (None, "ALL") and len(pos.b[t]) >= 2:
        s += take.upper()
    s += name(t)
    if promo:
        s += "=" + promo
    return s


def main():
    bad = 0
    n = 0
    every = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    for li, line in enumerate(open(sys.argv[1])):
        if li % every:
            continue
        fen, chk, moves = line.rstrip("\n").split("\t")
        pos = Pos(*parse(fen))
        mine = sorted(notation(pos, m) for m in legal(pos))
        theirs = sorted(moves.split()) if moves else []
        mychk = in_check(pos, pos.side)
        n += 1
        if mine != theirs or mychk != (chk == "true"):
            bad += 1
            if bad <= 20:
                print(fen, "check", chk, mychk)
                print("  engine only:", sorted(set(theirs) - set(mine)))
                print("  oracle only:", sorted(set(mine) - set(theirs)))
    print("positions", n, "differences", bad)


main()
