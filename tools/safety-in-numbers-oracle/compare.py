#!/usr/bin/env python3
"""Random games of Safety in Numbers refereed by the oracle, checked move by move against Varia.

First compares the moves and perft 3 of a list of hand-made positions (FIXED: en passant,
castling, pins through crowds, pawn joins, the text's examples). Then plays random games with
the oracle (perft.py, imported in-process) as referee: `--games` from
the start and `--rich` from random positions full of crowds (see rich_start). Moves are picked
with a bias towards joins, captures, checks, castling, en passant and promotion, so that crowds
form and break up often. At every position it compares the oracle's sorted legal moves with

  A  `varia moves FILE [--position START] --after "m1 m2 ..."`  (the engine's own play)

and at every EVERY-th position (and always at a game's last one)

  B  `varia replay FILE PREFIX [--position START]`: the engine's position string after its own
     play must equal the oracle's (all fields), and at a game's end the engine's result must be
     the oracle's (no legal move: checkmate if in check, else stalemate, a draw);
  C  `varia moves FILE --position ORACLE`: the engine's moves from the oracle's position string
     (the engine reading a string it did not write) must be the oracle's;
  D  `varia replay FILE EMPTY --position ORACLE`: the engine writes the string back unchanged;
  E  (every PERFT_EVERY-th position) `varia perft FILE 2 --position ORACLE` must equal the
     oracle's perft 2 from that position (perft 3 at every fifth of these).

If the engine declares a draw (fifty-move rule, repetition) B stops for the rest of that game
(replay refuses moves after the end) and the draw is listed as a note; A, C, D and E go on.

Usage (from the repository root, after `cargo build --release`):
  python3 tools/safety-in-numbers-oracle/compare.py [--varia target/release/varia]
      [--games 40] [--rich 40] [--plies 120] [--seed 1] [--every 2] [--perft-every 10]
      [--jobs N] [--show 5]
Prints a summary and every difference (up to --show in full per kind); exits 1 on any
difference.
"""

import argparse
import concurrent.futures as cf
import os
import random
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True     # no __pycache__ in the tools directory
import perft as o  # noqa: E402  (the oracle)

VAR = "variants/safety-in-numbers.var"

# ---------------------------------------------------------------- positions

# Hand-made positions for the rulings that random play reaches seldom, compared by C and by
# perft 3 before the random games.
FIXED = [
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1",                  # en passant
    "4k3/8/8/3(Pp)P3/8/8/8/4K3 w - d6 0 1",               # ... not against a pawn in a crowd
    "4k3/8/8/2pP4/8/8/8/4K3 w - c6 0 1",
    "r3k2r/8/8/1(qN)6/8/8/8/R3K2R w KQkq - 0 1",          # castling: f1 attacked from a crowd
    "r3k2r/8/8/8/8/8/8/R3(Kp)2R w kq - 0 1",              # a king in a crowd does not castle
    "r3k2r/8/8/8/8/8/8/R3K2(Rn) w Qkq - 0 1",             # nor with a rook in a crowd
    "r3k2r/8/8/8/8/8/8/(RN)3K2R w Kkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3(Kp)2R w KQkq - 0 1",            # ... even with the rights given
    "r3k2r/8/8/8/8/8/8/R3K2(Rn) w KQkq - 0 1",
    "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1",
    "4k3/8/8/8/4r3/8/4(NB)3/4K3 w - - 0 1",               # a crowd keeps blocking
    "4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1",                  # a lone piece is pinned
    "4k3/8/8/8/3n(nP)3/2(pP)p1p2/PPPP1P2/4K3 w - - 0 1",  # pawn steps onto crowds and pieces
    "8/8/8/8/8/8/8/(Kk)7 w - - 0 1",                      # both kings on one square
    "4k3/8/8/8/8/8/p7/K7 b - - 0 1",                      # a pawn onto a lone king, promoting
    "4k3/8/8/8/1q6/8/3(Pp)4/4K3 w - - 0 1",               # check: join or block
    "4k3/3p4/8/4P3/8/8/8/4K3 b - - 0 1",
    "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1",  # the text's first example
    "rnbqkbnr/pppppppp/8/8/8/5r2/PPPPPPPP/RNBQKBNR w KQkq - 0 1",  # the text's second
    "rnb1kbnr/ppp2ppp/8/3p4/4(KqNPp)3/8/PPPP1PPP/R1BQ1BNR b kq - 5 6",  # the example game's end
]



def rich_start(rng):
    """A random position with many crowds: both kings (now and then on one square, or in a
    crowd), a random army for each side, each piece put on an occupied square (making or
    growing a crowd, of one side or both) with a random probability, pawns on ranks 2-7,
    castling rights where king and rook stand alone at home, either side to move; the side not
    to move is not in check."""
    while True:
        p = o.parse("8/8/8/8/8/8/8/8 w - - 0 1")
        board = p.board
        crowding = rng.uniform(0.1, 0.6)

        def put(c):
            pawn = c in "Pp"
            cells = [s for s in range(64) if not pawn or 8 <= s < 56]
            full = [s for s in cells if board[s]]
            if full and rng.random() < crowding:
                s = rng.choice(full)
            else:
                s = rng.choice([s for s in cells if not board[s]])
            board[s] = o.stack(board[s] + c)
        if rng.random() < 0.5:
            # kings and rooks at home, so that castling can happen
            board[4], board[60] = "K", "k"
            for s, c in ((0, "R"), (7, "R"), (56, "r"), (63, "r")):
                if rng.random() < 0.6:
                    board[s] = c
        else:
            put("K")
            put("k")
        for white in (True, False):
            army = ("Q" * rng.randint(0, 1) + "R" * rng.randint(0, 2) + "B" * rng.randint(0, 2)
                    + "N" * rng.randint(0, 2) + "P" * rng.randint(0, 8))
            for c in army:
                if c == "P" and rng.random() < 0.5:
                    # a pawn on its second rank or on the rank an enemy double step passes
                    # beside, for double steps, joins and en passant
                    rank = rng.choice((1, 4) if white else (6, 3))
                    s = rank * 8 + rng.randrange(8)
                    if not board[s]:
                        board[s] = "P" if white else "p"
                        continue
                put(c if white else c.lower())
        for s in range(64):
            if "K" in board[s]:
                p.kings[True] = s
            if "k" in board[s]:
                p.kings[False] = s
        p.castle = "".join(r for r, (k, rk) in o.RIGHT_SQUARES.items()
                           if board[k] == ("K" if r.isupper() else "k")
                           and board[rk] == ("R" if r.isupper() else "r") and rng.random() < 0.8)
        p.white = rng.random() < 0.5
        p.full = rng.randint(1, 40)
        other = not p.white
        if o.king_safe(board, p.kings[other], other) and o.legal(p):
            return o.parse(o.write(p))


def pick(rng, p, ms):
    """A random move, favouring joins, captures, checks, castling, en passant, promotion and
    king moves."""
    w = []
    for m in ms:
        kind = m[4]
        x = {o.QUIET: 3, o.CAPTURE: 12, o.JOIN: 20, o.EN_PASSANT: 40, o.DOUBLE: 4,
             o.CASTLE_K: 30, o.CASTLE_Q: 30}[kind]
        if m[3]:
            x += 10
        if m[2] in "Kk":
            x += 4
        if o.in_check(o.make(p, m)):
            x += 15
        w.append(x)
    return rng.choices(ms, w)[0]


def features(p, ms, check):
    out = {"in check"} if check else set()
    names = {o.QUIET: "quiet", o.CAPTURE: "capture", o.JOIN: "join", o.EN_PASSANT: "en passant",
             o.DOUBLE: "double step", o.CASTLE_K: "castling", o.CASTLE_Q: "castling"}
    for m in ms:
        out.add(names[m[4]])
        if m[3]:
            out.add("promotion by join" if m[4] == o.JOIN else "promotion")
        if m[4] == o.JOIN:
            if m[2] in "Kk":
                out.add("king joins")
            if m[2] in "Pp" and m[0] % 8 == m[1] % 8:
                out.add("pawn joins straight" if len(p.board[m[1]]) == 1
                        else "pawn joins a crowd straight")
            elif m[2] in "Pp":
                out.add("pawn joins diagonally")
        if len(p.board[m[0]]) > 1:
            out.add("leaves a crowd")
    crowds = [st for st in p.board if len(st) > 1]
    if crowds:
        out.add("crowd on the board")
    if any(len(st) > 1 and ("K" in st or "k" in st) for st in crowds):
        out.add("king in a crowd")
    if any(len(st) > 1 and st.isupper() or len(st) > 1 and st.islower() for st in crowds):
        out.add("one-side crowd")
    return out


def play_game(rng, start, plies, coverage):
    """One random game refereed by the oracle: a list of records (moves so far, oracle's sorted
    moves, oracle's position string, in check), one per position."""
    p = start.copy()
    acts, recs = [], []
    for _ in range(plies + 1):
        ms = o.legal(p)
        names = sorted(o.notation(m) for m in ms)
        check = o.in_check(p)
        recs.append((tuple(acts), names, o.write(p), check, p))
        for f in features(p, ms, check):
            coverage[f] = coverage.get(f, 0) + 1
        coverage["max crowd"] = max(coverage.get("max crowd", 0), max(len(st) for st in p.board))
        if not ms or len(acts) == plies:
            break
        m = pick(rng, p, ms)
        acts.append(o.notation(m))
        p = o.make(p, m)
    return recs


# ---------------------------------------------------------------- engine


def first_error(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return lines[0] if lines else "(no message)"


class Engine:
    def __init__(self, varia, tmp):
        self.varia, self.tmp = varia, tmp
        self.empty = os.path.join(tmp, "empty.txt")
        open(self.empty, "w").close()
        self.calls = 0

    def run(self, args):
        self.calls += 1
        r = subprocess.run([self.varia] + args, capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr

    def moves(self, start, acts):
        args = ["moves", VAR]
        if start:
            args += ["--position=" + start]
        if acts:
            args += ["--after=" + " ".join(acts)]
        rc, out, err = self.run(args)
        if rc:
            return None, first_error(err)
        return sorted(out.split()), ""

    def perft(self, start, depth):
        rc, out, err = self.run(["perft", VAR, str(depth), "--position=" + start])
        if rc:
            return None, first_error(err)
        nums = [int(w) for w in out.split() if w.isdigit()]
        return (nums[-1] if nums else None), out.strip()

    def replay(self, start, acts, tag):
        if acts:
            path = os.path.join(self.tmp, f"game-{tag}.txt")
            with open(path, "w") as f:
                f.write(" ".join(acts) + "\n")
        else:
            path = self.empty
        args = ["replay", VAR, path]
        if start:
            args += ["--position=" + start]
        rc, out, err = self.run(args)
        pos = res = None
        for ln in out.splitlines():
            if ln.startswith("position: "):
                pos = ln[len("position: "):]
            elif ln.startswith("result: "):
                res = ln[len("result: "):]
        return pos, res, (first_error(err) if rc else "")


# ---------------------------------------------------------------- the comparison


class Tally:
    def __init__(self):
        self.a = self.b = self.c = self.d = self.e = self.fixed = 0
        self.coverage = {}
        self.diffs = {}
        self.notes = []
        self.games = self.rich_games = self.moves_played = 0
        self.ends = {}

    def diff(self, kind, text):
        self.diffs.setdefault(kind, []).append(text)


def describe(start, acts):
    s = f"    moves ({len(acts)}): {' '.join(acts) or '(none)'}"
    if start:
        s = f"    start: {start}\n" + s
    return s


def set_diff(kind, tally, start, rec, engine, extra=""):
    acts, names, pos = rec[0], rec[1], rec[2]
    if engine is None:
        tally.diff(kind, f"{describe(start, acts)}\n    position: {pos}\n    engine error: {extra}")
        return
    eo = sorted(set(engine) - set(names))
    oo = sorted(set(names) - set(engine))
    dup = len(engine) != len(set(engine))
    tally.diff(kind, f"{describe(start, acts)}\n    position: {pos}\n"
                     f"    engine only ({len(eo)}): {' '.join(eo)}\n"
                     f"    oracle only ({len(oo)}): {' '.join(oo)}"
                     + ("\n    engine lists a move twice" if dup else ""))


def check_game(eng, pool, tally, start, recs, args, tag):
    n = len(recs)
    sample = {i for i in range(n) if i % args.every == 0} | {n - 1}
    jobs = {}
    for i, rec in enumerate(recs):
        jobs[("A", i)] = pool.submit(eng.moves, start, rec[0])
        if i in sample:
            jobs[("B", i)] = pool.submit(eng.replay, start, rec[0], f"{tag}-{i}")
            jobs[("C", i)] = pool.submit(eng.moves, rec[2], ())
            jobs[("D", i)] = pool.submit(eng.replay, rec[2], (), f"{tag}-d{i}")
        if args.perft_every and i % args.perft_every == 0:
            depth = 3 if i % (args.perft_every * 5) == 0 else 2
            jobs[("E", i)] = pool.submit(eng.perft, rec[2], depth)
    draw_at = None
    for i, rec in enumerate(recs):
        acts, names, pos, check, p = rec
        tally.a += 1
        got, err = jobs[("A", i)].result()
        if got != names:
            set_diff("A moves --after", tally, start, rec, got, err)
        if ("E", i) in jobs:
            tally.e += 1
            got, out = jobs[("E", i)].result()
            depth = 3 if i % (args.perft_every * 5) == 0 else 2
            want = o.perft(p, depth)
            if got != want:
                tally.diff(f"E perft {depth}", f"    position: {pos}\n    engine: {out}\n"
                                        f"    oracle: {want}")
        if i not in sample:
            continue
        epos, res, err = jobs[("B", i)].result()
        if draw_at is None and epos is None and "game ended" in err:
            draw_at = i
            tally.notes.append(f"engine ends the game before {len(acts)} moves in {tag}: {err}")
        if draw_at is None:
            tally.b += 1
            if epos is None:
                tally.diff("B replay", f"{describe(start, acts)}\n    oracle: {pos}\n"
                                       f"    engine error: {err}")
            else:
                if epos != pos:
                    tally.diff("B position", f"{describe(start, acts)}\n"
                                             f"    engine: {epos}\n    oracle: {pos}")
                if names:
                    if res != "game in progress":
                        if res and res.startswith("draw by") and "stalemate" not in res:
                            draw_at = i
                            tally.notes.append(f"engine declares {res} after {len(acts)} moves"
                                               f" in {tag}")
                        else:
                            tally.diff("B result", f"{describe(start, acts)}\n"
                                                   f"    engine: {res}\n    oracle: moves left")
                else:
                    if check:
                        want = f"{'black' if p.white else 'white'} wins by checkmate"
                    else:
                        want = "draw by stalemate"
                    if res != want:
                        tally.diff("B result", f"{describe(start, acts)}\n"
                                               f"    engine: {res}\n    oracle: {want}")
        tally.c += 1
        got, err = jobs[("C", i)].result()
        if got != names:
            set_diff("C moves --position", tally, None, rec, got, err)
        tally.d += 1
        epos, _, err = jobs[("D", i)].result()
        if epos != pos:
            tally.diff("D round trip", f"    given:  {pos}\n    engine: {epos or err}")
    last = recs[-1]
    tally.moves_played += len(last[0])
    key = (("checkmate" if last[3] else "stalemate") if not last[1] else "ply limit")
    tally.ends[key] = tally.ends.get(key, 0) + 1


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--varia", default="target/release/varia")
    ap.add_argument("--games", type=int, default=40, help="games from the start")
    ap.add_argument("--rich", type=int, default=40, help="games from random crowded positions")
    ap.add_argument("--plies", type=int, default=120, help="moves per game at most")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--every", type=int, default=2, help="checks B, C, D at every EVERY-th position")
    ap.add_argument("--perft-every", type=int, default=10,
                    help="check E (perft 2) at every N-th position; 0: never")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--show", type=int, default=5, help="differences printed in full per kind")
    args = ap.parse_args(argv)
    t0 = time.time()
    tally = Tally()
    rng = random.Random(f"{args.seed}-safety-in-numbers")
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.jobs) as pool:
        eng = Engine(args.varia, tmp)
        fixed = [(f, pool.submit(eng.moves, f, ()), pool.submit(eng.perft, f, 3)) for f in FIXED]
        for f, moves, count in fixed:
            p = o.parse(f)
            names = sorted(o.notation(m) for m in o.legal(p))
            got, err = moves.result()
            tally.fixed += 1
            if got != names:
                set_diff("F fixed moves", tally, None, ((), names, f), got, err)
            got, out = count.result()
            if got != o.perft(p, 3):
                tally.diff("F fixed perft 3", f"    position: {f}\n    engine: {out}\n"
                                              f"    oracle: {o.perft(p, 3)}")
        for g in range(args.games + args.rich):
            rich = g >= args.games
            start = rich_start(rng) if rich else o.parse(o.START)
            start_str = o.write(start) if rich else None
            recs = play_game(rng, start, args.plies, tally.coverage)
            tally.games += 1
            tally.rich_games += rich
            check_game(eng, pool, tally, start_str, recs, args, f"g{g}")
    ndiff = sum(len(v) for v in tally.diffs.values())
    print(f"== Safety in Numbers ({VAR}): {tally.games} games ({tally.games - tally.rich_games}"
          f" from the start, {tally.rich_games} from random crowded positions), "
          f"{tally.moves_played} moves played; {time.time() - t0:.1f} s, {eng.calls} engine calls")
    print("   game ends: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.ends.items())))
    print(f"   fixed positions: {tally.fixed} (moves and perft 3)")
    print(f"   positions compared: A {tally.a} (moves --after), B {tally.b} (engine position/"
          f"result), C {tally.c} (moves --position), D {tally.d} (round trip), E {tally.e} "
          f"(perft 2 or 3)")
    print("   positions with each feature: "
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.coverage.items())))
    for n in tally.notes:
        print("   note:", n)
    print(f"   differences: {ndiff}")
    for kind, items in sorted(tally.diffs.items()):
        print(f"   -- {kind}: {len(items)}")
        for t in items[:args.show]:
            print(t)
        if len(items) > args.show:
            print(f"    ... {len(items) - args.show} more")
    return 1 if ndiff else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
