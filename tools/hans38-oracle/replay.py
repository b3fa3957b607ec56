#!/usr/bin/env python3
"""Replay a game of the Hans38 family written like the rule text, checking every action.

Usage:
  replay.py GAMEFILE [--neutral|--infinite|--occupied] [--end-check] [--keep-going]
            [--replace LABEL:MOVE ...] [--verbose] [--pos "POSITION"]

The game file holds move text such as `1. @@f3 @@f6 2. Ng1-f3 Ng8-f6 ...`. Lines starting with
`#` and `{...}` comments are ignored; move numbers are checked against the position. Captures
may be written `x` or `:`; short algebraic (`Nf3`) is read where unambiguous.

On an illegal action it prints the move number, the action, why it is illegal and the legal
actions that look closest, then stops, unless --keep-going is given: then the action is applied
anyway if it is at least a well-formed action that can physically be carried out (a piece of
the mover on its origin, a square to move, a hole to fill), and the replay goes on.

--replace LABEL:MOVE plays MOVE instead of the action labelled LABEL, e.g. `15b:b7-b6` (15th
move, Black) or `4w2:@d3-d5` (the second action of White's 4th turn, infinite modes).
--verbose prints every action and the final position.
"""

import difflib
import re
import sys

import perft as o

NAMES = {"P": "pawn", "N": "knight", "B": "bishop", "R": "rook", "Q": "queen", "K": "king"}
LONG = re.compile(r"^([KQRBN])?([a-h][1-8])([-x])([a-h][1-8])(?:=?([QRBN]))?$")
SQMOVE = re.compile(r"^@([a-h][1-8])-([a-h][1-8])(?:=?([QRBN]))?$")
PLACE = re.compile(r"^@@([a-h][1-8])$")


def side(white):
    return "White" if white else "Black"


def piece_desc(ch):
    return f"{side(ch.isupper())} {NAMES[ch.upper()]}"


def sq_desc(p, s):
    """e.g. 'Black's square b6 (empty)' / 'no square at b6'."""
    n = o.name(s)
    if not p.sqs[s]:
        return f"no square at {n}"
    own = "" if o.R.neutral else f"{side(p.sqs[s] == o.WSQ)}'s "
    c = p.board[s]
    return f"{own}square {n} ({'empty' if c == '.' else 'under a ' + piece_desc(c)})"


def king_reason(p, m):
    """Why action m (pseudo-legal) is illegal for the king's sake."""
    w = p.white
    q = o.make(p, m)
    k = q.kings[w]
    att = o.attackers(q, k, not w)
    who = ", ".join(f"{NAMES[q.board[s].upper()]} {o.name(s)}" for s in att)
    before = o.in_check(p)
    txt = f"it would leave the {side(w)} king on {o.name(k)} attacked (by the {who})"
    if before:
        txt += f"; the king is in check now (by the " + ", ".join(
            f"{NAMES[p.board[s].upper()]} {o.name(s)}" for s in o.attackers(p, p.kings[w], not w)
        ) + ") and this action does not answer it"
    elif m[0] == o.PLACE or (m[0] == o.SQUARE and p.board[m[1]] == "."):
        txt += f": the new square at {o.name(m[2])} completes the line"
    return txt


def phase_reason(p, typ):
    if not o.R.infinite or p.phase == typ:
        return None
    what = ["the piece move", "the square move", "the placement"]
    if p.phase < typ:
        return f"{what[p.phase]} of this turn comes first (turn order: piece, square, placement)"
    return f"{what[typ]} of this turn has already been made or skipped; now {what[p.phase]}"


def explain(p, tok):
    """Reasons (list of strings) why tok is not a legal action in p."""
    t = o.clean(tok)
    w = p.white
    me = o.WSQ if w else o.BSQ
    mine = lambda c: c != "." and c.isupper() == w
    g = PLACE.match(t)
    if g:
        to = o.parse_sq(g.group(1))
        r = []
        ph = phase_reason(p, o.PLACE)
        if ph:
            r.append(ph)
        if not o.R.infinite and p.res[0 if w else 1] <= 0:
            r.append(f"{side(w)} has no squares left in reserve")
        if p.sqs[to]:
            r.append(f"there is already a square at {o.name(to)}: {sq_desc(p, to)}")
        if not r:
            m = (o.PLACE, -1, to, "", 0, False)
            if not o.safe_after(p, m):
                r.append(king_reason(p, m))
        return r or ["not among the legal actions"]
    g = SQMOVE.match(t)
    if g:
        frm, to = o.parse_sq(g.group(1)), o.parse_sq(g.group(2))
        r = []
        ph = phase_reason(p, o.SQUARE)
        if ph:
            r.append(ph)
        c = p.board[frm]
        if not p.sqs[frm]:
            r.append(f"no square at {o.name(frm)}")
        elif c != "." and not o.R.occupied:
            r.append(f"the square {o.name(frm)} is occupied by a {piece_desc(c)}: "
                     "only an empty square can move")
        elif c != "." and not mine(c):
            r.append(f"the square {o.name(frm)} carries a {piece_desc(c)}: an occupied square "
                     "moves only with one of the mover's pieces")
        elif c in "Kk":
            r.append(f"the square under the king ({o.name(frm)}) cannot move")
        elif not o.R.neutral and p.sqs[frm] != me:
            r.append(f"square {o.name(frm)} is not {side(w)}'s (it belongs to {side(not w)})")
        if p.sqs[frm] and frm in p.frozen:
            r.append(f"the square on {o.name(frm)} was just "
                     f"{'touched' if o.R.infinite else 'moved'} by {side(not w)} and cannot be "
                     "moved this turn")
        dx, dy = to % 8 - frm % 8, to // 8 - frm // 8
        if p.sqs[frm] and c != ".":
            if max(abs(dx), abs(dy)) != 1:
                r.append(f"an occupied square moves one step only ({o.name(frm)} to "
                         f"{o.name(to)} is not)")
        elif max(abs(dx), abs(dy)) > 2 or (dx, dy) == (0, 0):
            r.append(f"{o.name(frm)} to {o.name(to)} is not a king, knight, alfil or dabbaba "
                     "leap (a square moves at most two locations)")
        if p.sqs[to]:
            r.append(f"the destination must have no square, but there is {sq_desc(p, to)}")
        if o.R.old_rule and not r and c == "." and max(abs(dx), abs(dy)) == 2:
            ones = [o.name(s) for s in o.KING[frm] if not p.sqs[s]]
            if ones:
                r.append(f"under the old square rule a square that can move one location must: "
                         f"{o.name(frm)} could step to {', '.join(ones)}")
        if not r:
            m = (o.SQUARE, frm, to, g.group(3) or "", 0, False)
            if not o.safe_after(p, m):
                r.append(king_reason(p, m))
        return r or ["not among the legal actions"]
    if t in ("O-O", "O-O-O"):
        r = []
        ph = phase_reason(p, o.PIECE)
        if ph:
            r.append(ph)
        home = o.E1 if w else o.E8
        kside = t == "O-O"
        right = ("K" if kside else "Q") if w else ("k" if kside else "q")
        rook = home + 3 if kside else home - 4
        between = (home + 1, home + 2) if kside else (home - 1, home - 2, home - 3)
        path = (home, home + 1, home + 2) if kside else (home, home - 1, home - 2)
        if right not in p.castle:
            r.append(f"{side(w)} may no longer castle on that side (the king or that rook has "
                     "moved or the rook was taken)")
        if p.board[home] != ("K" if w else "k"):
            r.append(f"the king is not on {o.name(home)}")
        if p.board[rook] != ("R" if w else "r"):
            r.append(f"no {side(w)} rook on {o.name(rook)}")
        for s in between:
            if not p.sqs[s]:
                r.append(f"no square at {o.name(s)} between king and rook")
            elif p.board[s] != ".":
                r.append(f"{o.name(s)} is occupied by a {piece_desc(p.board[s])}")
        if not r:
            for s in path:
                if o.attacked(p.board, p.sqs, s, not w):
                    r.append(f"the king's {'start' if s == home else 'path'} square "
                             f"{o.name(s)} is attacked")
        return r or ["not among the legal actions"]
    g = LONG.match(t)
    if not g:
        sm = o.SAN.match(t)
        if sm:
            ms = [m for m in o.legal(p) if m[0] == o.PIECE and m[2] == o.parse_sq(sm.group(5))]
            return [f"short form {tok!r} fits {len(ms)} legal moves"
                    + (": " + ", ".join(o.notation(p, m) for m in ms) if ms else "")]
        return [f"{tok!r} is not an action in this notation"]
    letter, fs, mark, ts, promo = g.groups()
    letter = letter or "P"
    frm, to = o.parse_sq(fs), o.parse_sq(ts)
    r = []
    ph = phase_reason(p, o.PIECE)
    if ph:
        r.append(ph)
    c = p.board[frm]
    if c == ".":
        return r + [f"no piece on {fs}" + ("" if p.sqs[frm] else f" (no square at {fs})")]
    if not mine(c):
        return r + [f"the piece on {fs} is a {piece_desc(c)}"]
    if c.upper() != letter:
        return r + [f"the piece on {fs} is a {NAMES[c.upper()]}, not a {NAMES[letter]}"]
    tc = p.board[to]
    if not p.sqs[to]:
        r.append(f"no square at {ts}")
    elif mine(tc):
        r.append(f"{ts} holds a {piece_desc(tc)}")
    dx, dy = to % 8 - frm % 8, to // 8 - frm // 8
    u = letter
    if u == "N":
        if (abs(dx), abs(dy)) not in ((1, 2), (2, 1)):
            r.append(f"a knight cannot go from {fs} to {ts}")
    elif u == "K":
        if max(abs(dx), abs(dy)) != 1:
            r.append(f"a king cannot go from {fs} to {ts}" +
                     (" (castling is written O-O / O-O-O)" if abs(dx) == 2 and dy == 0 else ""))
    elif u == "P":
        fwd = 1 if w else -1
        if dx == 0 and dy == fwd:
            if p.sqs[to] and tc != ".":
                r.append(f"the pawn is blocked by the {piece_desc(tc)} on {ts}")
        elif dx == 0 and dy == 2 * fwd:
            mid = frm + 8 * fwd
            if frm // 8 != (1 if w else 6):
                r.append(f"a pawn double-steps only from its second rank")
            if not p.sqs[mid]:
                r.append(f"no square at {o.name(mid)} (a double step needs both squares)")
            elif p.board[mid] != ".":
                r.append(f"the {piece_desc(p.board[mid])} on {o.name(mid)} blocks the pawn")
            if p.sqs[to] and tc != ".":
                r.append(f"the pawn is blocked by the {piece_desc(tc)} on {ts}")
        elif abs(dx) == 1 and dy == fwd:
            if p.sqs[to] and tc == "." and to != p.ep:
                r.append(f"a pawn moves diagonally only to capture, and {ts} is empty")
        else:
            r.append(f"a pawn cannot go from {fs} to {ts}")
        last = to // 8 == (7 if w else 0)
        if last and not promo:
            r.append("a pawn reaching the last rank must promote (=Q, =R, =B or =N)")
        if promo and not last:
            r.append("only a pawn reaching the last rank promotes")
    else:
        ok_dir = ((dx == 0 or dy == 0) and u in "RQ") or (abs(dx) == abs(dy) and u in "BQ")
        if (dx, dy) == (0, 0) or not ok_dir:
            r.append(f"a {NAMES[u]} cannot go from {fs} to {ts}")
        else:
            sx = (dx > 0) - (dx < 0)
            sy = (dy > 0) - (dy < 0)
            s = frm + sy * 8 + sx
            while s != to:
                if not p.sqs[s]:
                    r.append(f"no square at {o.name(s)}: a {NAMES[u]} needs an unbroken line of "
                             "squares")
                    break
                if p.board[s] != ".":
                    r.append(f"the {piece_desc(p.board[s])} on {o.name(s)} blocks the line")
                    break
                s += sy * 8 + sx
    if not r:
        ps = []
        o.piece_moves(p, ps)
        for m in ps:
            if m[1] == frm and m[2] == to and m[3] == (promo or ""):
                return [king_reason(p, m)]
        r.append("not among the legal actions")
    return r


def closest(p, tok, ms, n=6):
    """The legal actions that look most like tok: same origin and destination first, then same
    destination, then same origin, then by spelling."""
    t = o.clean(tok)
    locs = re.findall(r"[a-h][1-8]", t)
    frm = o.parse_sq(locs[0]) if len(locs) >= 2 else None
    to = o.parse_sq(locs[-1]) if locs else None
    scored = []
    for m in ms:
        s = o.notation(p, m)
        same_to = to is not None and m[2] == to
        same_from = frm is not None and m[1] == frm
        rank = 0 if same_to and same_from else 1 if same_to else 2 if same_from else 3
        scored.append((rank, -difflib.SequenceMatcher(None, t, s).ratio(), s))
    scored.sort()
    best = [s for rank, _, s in scored if rank < 3][:n]
    return best or [s for _, _, s in scored[:3]]


def force(p, tok):
    """tok as an action that can physically be carried out in p (legal or not), or None."""
    t = o.clean(tok)
    w = p.white
    g = PLACE.match(t)
    if g:
        to = o.parse_sq(g.group(1))
        return (o.PLACE, -1, to, "", 0, False) if not p.sqs[to] else None
    g = SQMOVE.match(t)
    if g:
        frm, to = o.parse_sq(g.group(1)), o.parse_sq(g.group(2))
        if p.sqs[frm] and not p.sqs[to]:
            return (o.SQUARE, frm, to, g.group(3) or "", 0, False)
        return None
    if t in ("O-O", "O-O-O"):
        home = o.E1 if w else o.E8
        kind = 3 if t == "O-O" else 4
        rook = home + 3 if kind == 3 else home - 4
        to = home + 2 if kind == 3 else home - 2
        rt = to - 1 if kind == 3 else to + 1
        if (p.board[home] == ("K" if w else "k") and p.board[rook] == ("R" if w else "r")
                and p.sqs[to] and p.sqs[rt]):
            return (o.PIECE, home, to, "", kind, False)
        return None
    g = LONG.match(t)
    if not g:
        return None
    letter, fs, mark, ts, promo = g.groups()
    frm, to = o.parse_sq(fs), o.parse_sq(ts)
    c, tc = p.board[frm], p.board[to]
    if c == "." or c.isupper() != w or not p.sqs[to] or (tc != "." and tc.isupper() == w):
        return None
    kind = 0
    if c in "Pp" and abs(to - frm) == 16:
        kind = 1
    elif c in "Pp" and to == p.ep and tc == "." and (to - frm) % 8 != 0:
        kind = 2
    return (o.PIECE, frm, to, promo or "", kind, tc != "." or kind == 2)


def game_tokens(text):
    """[(kind, value)]: ('num', N) for move numbers, ('act', token) for actions."""
    text = "\n".join(l for l in text.splitlines() if not l.lstrip().startswith("#"))
    text = re.sub(r"\{[^}]*\}", " ", text)
    out = []
    for tok in text.split():
        g = re.match(r"^(\d+)\.+(.*)$", tok)
        if g:
            out.append(("num", int(g.group(1))))
            tok = g.group(2)
        if tok:
            out.append(("act", tok))
    return out


def main(argv):
    args, pos, _ = o.set_mode(argv)
    keep = "--keep-going" in args
    verbose = "--verbose" in args
    replace = {}
    files = []
    i = 0
    while i < len(args):
        a = args[i]
        if a == "--replace":
            label, mv = args[i + 1].split(":", 1)
            replace[label] = mv
            i += 1
        elif a not in ("--keep-going", "--verbose"):
            files.append(a)
        i += 1
    if len(files) != 1:
        print(__doc__)
        return 2
    p = o.parse(pos)
    illegal = 0
    count = 0
    index = 0          # action index within the current turn
    turn_key = None
    for kind, val in game_tokens(open(files[0]).read()):
        if kind == "num":
            if val != p.full or not p.white:
                print(f"note: move number {val}. found where {side(p.white)}'s move "
                      f"{p.full} was expected")
            continue
        tok = val
        ms = o.legal(p)            # (infinite modes: skips forced-empty phases first)
        key = (p.full, p.white)
        index = index + 1 if key == turn_key else 1
        turn_key = key
        label = f"{p.full}{'w' if p.white else 'b'}"
        shown = f"{p.full}.{'' if p.white else '..'} {tok}"
        for lab in (label + str(index), label if index == 1 else None):
            if lab in replace:
                print(f"{shown}: replaced by {replace[lab]} (--replace {lab})")
                tok = replace[lab]
                shown = f"{p.full}.{'' if p.white else '..'} {tok}"
                break
        count += 1
        m = o.find(p, tok, ms)
        if m is not None:
            written = o.notation(p, m)
            if verbose:
                print(f"{shown}: ok ({written})")
            elif o.clean(tok) != written:
                print(f"{shown}: ok, read as {written}")
            p = o.make(p, m)
            continue
        illegal += 1
        print(f"{shown}: ILLEGAL ({side(p.white)} to move)")
        for why in explain(p, tok):
            print(f"    - {why}")
        near = closest(p, tok, ms)
        print(f"    closest legal actions: {', '.join(near) if near else '(none: no legal action)'}")
        if not keep:
            print(f"stopped: {count - 1} actions were legal before this one")
            print(o.write(p))
            return 1
        fm = force(p, tok)
        if fm is None:
            print("    cannot be carried out at all; stopped")
            print(o.write(p))
            return 1
        print("    applied anyway (--keep-going)")
        p = o.make(p, fm)
    print(f"{count} actions replayed, {illegal} illegal")
    print(o.write(p))
    if verbose:
        print(o.diagram(p))
    return 1 if illegal else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
