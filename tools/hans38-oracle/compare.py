#!/usr/bin/env python3
"""Random games refereed by the oracle, checked action by action against the engine.

For each of the six games (Hans38, Hans38 with Neutral Squares, The Game of Infinite
Reserves, Moving Occupied Squares, Hans38 under the Postal and the Postal Plus Rule) plays random games with the oracle (perft.py, imported
in-process) as referee: from the start, and from random positions with extra squares between
the armies (see rich_start: random owners, pieces removed, pawns advanced, random reserves or
fullmove). At every position (before every
single action) it compares the sorted legal single actions of the oracle (`--actions`
semantics: the actions of the phase due) with the engine's

  A  `varia moves FILE [--position START] --after "a1 a2 ..."`  (the engine's own play)

and, at every EVERY-th position (and always at the last one of a game),

  B  `varia replay FILE PREFIX [--position START]`: the engine's position string after its own
     play must equal the oracle's position converted to the engine's format (all fields; the
     half-move clock is modelled here: +1 per turn, 0 after a pawn move, a carried pawn or a
     capture), and at a game's end the engine's result must be the oracle's (no legal action:
     the side to move loses, by checkmate if in check, else by stalemate);
  C  `varia moves FILE --position CONVERTED`: the engine's actions from the converted oracle
     position (the engine reading a string it did not write) must be the oracle's;
  D  `varia replay FILE EMPTY --position CONVERTED`: the engine writes the string back
     unchanged (round trip).

A game ends when the oracle finds no legal action or after PLIES actions. If the engine
declares a draw (move rule, repetition) B stops for the rest of that game (replay refuses moves
after the end) and the draw is listed as a note with the modelled clock (a move-rule draw needs
100); A, C and D go on.

Usage (from the repository root, after `cargo build --release`):
  python3 tools/hans38-oracle/compare.py [--varia target/release/varia] [--games 15]
      [--rich 15] [--plies 150] [--seed 1] [--every 2] [--jobs N] [--modes hans38,neutral,infinite,occupied,postal,postal-plus]
      [--skip-midturn-ep] [--show 5]
Prints a summary per mode and every difference (up to --show in full per mode and kind);
exits 1 on any difference.
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

MODES = {  # name: (variant file, neutral, infinite, occupied, postal, plus)
    "hans38": ("variants/hans38.var", False, False, False, False, False),
    "neutral": ("variants/hans38-neutral.var", True, False, False, False, False),
    "infinite": ("variants/infinite-reserves.var", True, True, False, False, False),
    "occupied": ("variants/moving-occupied-squares.var", True, True, True, False, False),
    "postal": ("variants/hans38-postal.var", False, False, False, True, False),
    "postal-plus": ("variants/hans38-postal-plus.var", False, False, False, True, True),
}


def set_mode(name):
    _, o.R.neutral, o.R.infinite, o.R.occupied, o.R.postal, o.R.plus = MODES[name]
    o.R.end_check = o.R.old_rule = False
    o.R.actions = True


# ---------------------------------------------------------------- position strings


def to_engine(p, clock):
    """The oracle's position p in the engine's position-string format: `*` a hole, `+`/`-` an
    empty square of White/Black (owned game), a digit run empty squares (neutral games), then
    side castling ep halfmove fullmove reserves untouchable [action-due touched]."""
    owned = not o.R.neutral
    rows = []
    for y in range(7, -1, -1):
        s, run = "", 0
        for x in range(8):
            sq = y * 8 + x
            if p.sqs[sq] and p.board[sq] == "." and not owned:
                run += 1
                continue
            if run:
                s, run = s + str(run), 0
            if not p.sqs[sq]:
                s += "*"
            elif p.board[sq] != ".":
                s += p.board[sq]
            else:
                s += "+" if p.sqs[sq] == o.WSQ else "-"
        rows.append(s + (str(run) if run else ""))
    lst = lambda t: ",".join(sorted(o.name(s) for s in set(t))) or "-"
    f = ["/".join(rows), "w" if p.white else "b",
         "".join(c for c in "KQkq" if c in p.castle) or "-",
         o.name(p.ep) if p.ep >= 0 else "-", str(clock), str(p.full),
         "-" if o.R.infinite else f"{p.res[0]},{p.res[1]}", lst(p.frozen)]
    if o.multi():
        f += [str(p.phase + 1), lst(p.touched)]
    return " ".join(f)


def normal(s):
    """A position string with its location lists sorted (the order carries no meaning)."""
    f = s.split()
    for i in (7, 9):
        if i < len(f) and f[i] != "-":
            f[i] = ",".join(sorted(f[i].split(",")))
    return " ".join(f)


# ---------------------------------------------------------------- random play


def rich_start(rng):
    """The start with random extra squares on ranks 3-6 (random density and owners), some
    pieces other than the kings removed, some pawns advanced onto squares of their colour
    (ranks 3-7 for White, 6-2 for Black), castling rights where king and rook stand, in
    Hans38 random reserves, in the infinite games a random fullmove (1, 2, 4 or 6); the side
    not to move is not in check."""
    while True:
        p = o.parse(o.START)
        density = rng.uniform(0.2, 1.0)
        for s in range(16, 48):
            if rng.random() < density:
                p.sqs[s] = rng.choice((o.WSQ, o.BSQ))
        gone = rng.uniform(0.0, 0.5)
        for s in list(range(16)) + list(range(48, 64)):
            if p.board[s] not in "Kk" and rng.random() < gone:
                p.board[s] = "."
        advance = rng.uniform(0.0, 0.3)
        for s in list(range(8, 16)) + list(range(48, 56)):
            c = p.board[s]
            if c in "Pp" and rng.random() < advance:
                white = c == "P"
                t = s % 8 + 8 * rng.randint(2, 6) if white else s % 8 + 8 * rng.randint(1, 5)
                if p.board[t] == ".":
                    p.board[s], p.board[t] = ".", c
                    p.sqs[t] = o.WSQ if white else o.BSQ
        p.castle = "".join(r for r, (k, rk) in o.RIGHT_SQUARES.items()
                           if p.board[k] == ("K" if r.isupper() else "k")
                           and p.board[rk] == ("R" if r.isupper() else "r"))
        if o.R.postal:
            p.res = [rng.randint(0, 3), rng.randint(0, 3)]
            p.full = rng.choice((1, 2, 2, 5))     # the first turn may skip the piece move
        elif not o.R.infinite:
            p.res = [rng.randint(0, 3), rng.randint(0, 3)]
        else:
            p.full = rng.choice((1, 1, 2, 4, 6))    # squares are vacated from turn 4
        if not o.in_check(p, False):
            return o.parse(o.write(p))     # a clean copy (kings found again)


def pick(rng, p, ms):
    """A random action, favouring captures and other piece moves (to reach checks, castling,
    en passant, promotion) and placements next to or a knight's leap from the mover's pieces."""
    w = []
    for m in ms:
        if m[0] == o.PIECE:
            w.append(40 if m[5] else 12 if m[4] or m[3] else 6)
        elif m[0] == o.SQUARE:
            w.append(3 if p.board[m[1]] != "." else 1)
        elif m[0] == o.END:
            w.append(2)
        else:
            near = any(p.board[s] != "." and p.board[s].isupper() == p.white
                       for s in o.KING[m[2]] + o.KNIGHT[m[2]])
            w.append(4 if near else 1)
    return rng.choices(ms, w)[0]


def play_game(rng, start, plies, coverage):
    """One random game refereed by the oracle: a list of records (actions so far, oracle's
    sorted actions, converted position, half-move clock, oracle in check), one per position.
    coverage counts the positions with a legal action of each kind."""
    p = start.copy()
    acts, recs = [], []
    clock = 0
    new_turn = True
    for _ in range(plies + 1):
        conv = to_engine(p, clock)          # before legal(), which may advance the phase
        ms = o.legal(p)
        names = sorted(o.notation(p, m) for m in ms)
        check = o.in_check(p)
        recs.append((tuple(acts), names, conv, clock, check))
        feats = {"in check"} if check else set()
        for m in ms:
            if m[0] == o.PIECE:
                feats.add({2: "en passant", 3: "castling", 4: "castling"}.get(m[4], "piece"))
                if m[3]:
                    feats.add("promotion")
            elif m[0] == o.SQUARE:
                feats.add("carry" if p.board[m[1]] != "." else "square move")
                if m[3]:
                    feats.add("carry promotion")
            elif m[0] == o.END:
                feats.add("end")
            else:
                feats.add("placement")
        for f in feats:
            coverage[f] = coverage.get(f, 0) + 1
        if not ms or len(acts) == plies:
            break
        m = pick(rng, p, ms)
        if new_turn:
            clock += 1
        c = p.board[m[1]] if m[1] >= 0 else "."
        if (m[0] == o.PIECE and (m[5] or c in "Pp")) or (m[0] == o.SQUARE and c in "Pp"):
            clock = 0
        acts.append(o.notation(p, m))
        q = o.make(p, m)
        new_turn = q.white != p.white
        p = q
    return recs


# ---------------------------------------------------------------- engine


def first_error(err):
    """The first line of the engine's error message (without its source diagram)."""
    lines = [ln for ln in err.splitlines() if ln.strip()]
    return lines[0] if lines else "(no message)"


class Engine:
    def __init__(self, varia, var, tmp):
        self.varia, self.var, self.tmp = varia, var, tmp
        self.empty = os.path.join(tmp, "empty.txt")
        open(self.empty, "w").close()
        self.calls = 0

    def run(self, args):
        self.calls += 1
        r = subprocess.run([self.varia] + args, capture_output=True, text=True)
        return r.returncode, r.stdout, r.stderr

    def moves(self, start, acts):
        args = ["moves", self.var]
        if start:
            args += ["--position=" + start]
        if acts:
            args += ["--after=" + " ".join(acts)]
        rc, out, err = self.run(args)
        if rc:
            return None, first_error(err)
        return sorted(out.split()), ""

    def replay(self, start, acts, tag):
        """(position, result, error) after the actions, by `varia replay`."""
        if acts:
            path = os.path.join(self.tmp, f"game-{tag}.txt")
            with open(path, "w") as f:
                f.write(" ".join(acts) + "\n")
        else:
            path = self.empty
        args = ["replay", self.var, path]
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
        self.positions = self.positions_b = self.positions_c = self.positions_d = 0
        self.skipped = 0
        self.coverage = {}
        self.diffs = {}      # kind -> list of text
        self.notes = []
        self.games = self.rich_games = 0
        self.ends = {}
        self.max_full = 0
        self.actions_total = 0

    def diff(self, kind, text):
        self.diffs.setdefault(kind, []).append(text)


def describe(start, acts):
    s = f"    moves ({len(acts)}): {' '.join(acts) or '(none)'}"
    if start:
        s = f"    start: {start}\n" + s
    return s


def set_diff(kind, tally, start, rec, engine, extra=""):
    acts, names, conv = rec[0], rec[1], rec[2]
    if engine is None:
        tally.diff(kind, f"{describe(start, acts)}\n    position: {conv}\n    engine error: {extra}")
        return
    eo = sorted(set(engine) - set(names))
    oo = sorted(set(names) - set(engine))
    dup = len(engine) != len(set(engine))
    tally.diff(kind, f"{describe(start, acts)}\n    position: {conv}\n"
                     f"    engine only ({len(eo)}): {' '.join(eo)}\n"
                     f"    oracle only ({len(oo)}): {' '.join(oo)}"
                     + ("\n    engine lists an action twice" if dup else ""))


def midturn_ep(conv):
    """A position string of a several-action turn, after the mover's own double step and
    before the turn's end (the engine writes these but does not read them back)."""
    f = conv.split()
    return len(f) > 8 and f[3] != "-" and f[8] != "1"


def check_game(eng, pool, tally, start_conv, recs, every, tag, skip_ep):
    n = len(recs)
    sample = {i for i in range(n) if i % every == 0} | {n - 1}
    jobs = {}
    for i, rec in enumerate(recs):
        jobs[("A", i)] = pool.submit(eng.moves, start_conv, rec[0])
        if i in sample:
            jobs[("B", i)] = pool.submit(eng.replay, start_conv, rec[0], f"{tag}-{i}")
            if skip_ep and midturn_ep(rec[2]):
                continue
            jobs[("C", i)] = pool.submit(eng.moves, rec[2], ())
            jobs[("D", i)] = pool.submit(eng.replay, rec[2], (), f"{tag}-d{i}")
    draw_at = None
    for i, rec in enumerate(recs):
        acts, names, conv, clock, check = rec
        tally.positions += 1
        got, err = jobs[("A", i)].result()
        if got != names:
            set_diff("A moves --after", tally, start_conv, rec, got, err)
        if i not in sample:
            continue
        # B: the engine's own position and result
        pos, res, err = jobs[("B", i)].result()
        if draw_at is None and pos is None and "game ended (result: draw" in err:
            draw_at = i
            tally.notes.append(f"engine declares a draw before {len(acts)} actions "
                               f"(modelled clock {clock}) in {tag}: {err}")
        if draw_at is None:
            tally.positions_b += 1
            if pos is None:
                tally.diff("B replay", f"{describe(start_conv, acts)}\n    oracle: {conv}\n"
                                       f"    engine error: {err}")
            else:
                if normal(pos) != normal(conv):
                    tally.diff("B position", f"{describe(start_conv, acts)}\n"
                                             f"    engine: {pos}\n    oracle: {conv}")
                if names:
                    if res != "game in progress":
                        if res and res.startswith("draw by"):
                            draw_at = i
                            tally.notes.append(f"engine declares {res} after {len(acts)} actions"
                                               f" (modelled clock {clock}) in {tag}")
                        else:
                            tally.diff("B result", f"{describe(start_conv, acts)}\n"
                                                   f"    engine: {res}\n    oracle: actions left")
                else:
                    loser_white = conv.split()[1] == "w"
                    want = (f"{'black' if loser_white else 'white'} wins by "
                            f"{'checkmate' if check else 'stalemate'}")
                    if res != want:
                        tally.diff("B result", f"{describe(start_conv, acts)}\n"
                                               f"    engine: {res}\n    oracle: {want}")
        # C: the engine reading the converted oracle position
        if ("C", i) not in jobs:
            tally.skipped += 1
            continue
        tally.positions_c += 1
        got, err = jobs[("C", i)].result()
        if got != names:
            set_diff("C moves --position", tally, None, rec, got, err)
        # D: round trip of the converted position string
        tally.positions_d += 1
        pos, _, err = jobs[("D", i)].result()
        if pos is None or normal(pos) != normal(conv):
            tally.diff("D round trip", f"{describe(start_conv, acts)}\n    given:  {conv}\n"
                                       f"    engine: {pos or err}")
    last = recs[-1]
    tally.actions_total += len(last[0])
    key = ("no legal action" + (" (in check)" if last[4] else "")) if not last[1] else "ply limit"
    tally.ends[key] = tally.ends.get(key, 0) + 1
    tally.max_full = max(tally.max_full, int(last[2].split()[5]))


def run_mode(name, args, eng_path, tmp, pool):
    set_mode(name)
    var = MODES[name][0]
    eng = Engine(eng_path, var, tmp)
    tally = Tally()
    rng = random.Random(f"{args.seed}-{name}")
    t0 = time.time()
    for g in range(args.games + args.rich):
        rich = g >= args.games
        start = rich_start(rng) if rich else o.parse(o.START)
        start_conv = to_engine(start, 0) if rich else None
        recs = play_game(rng, start, args.plies, tally.coverage)
        tally.games += 1
        tally.rich_games += rich
        check_game(eng, pool, tally, start_conv, recs, args.every, f"{name}-{g}",
                   args.skip_midturn_ep)
    dt = time.time() - t0
    ndiff = sum(len(v) for v in tally.diffs.values())
    print(f"== {name} ({var}): {tally.games} games ({tally.games - tally.rich_games} from the "
          f"start, {tally.rich_games} with extra squares), {tally.actions_total} actions played,"
          f" up to fullmove {tally.max_full}; {dt:.1f} s, {eng.calls} engine calls")
    print(f"   game ends: " + ", ".join(f"{k} {v}" for k, v in sorted(tally.ends.items())))
    print(f"   positions compared: A {tally.positions} (moves --after), B {tally.positions_b} "
          f"(engine position/result), C {tally.positions_c} (moves --position), "
          f"D {tally.positions_d} (round trip)"
          + (f"; C and D skipped at {tally.skipped} mid-turn positions with en passant"
             if tally.skipped else ""))
    print("   positions with a legal action of each kind: "
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
    sys.stdout.flush()
    return ndiff


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--varia", default="target/release/varia")
    ap.add_argument("--games", type=int, default=15, help="games from the start, per mode")
    ap.add_argument("--rich", type=int, default=15,
                    help="games from random positions with extra squares, per mode")
    ap.add_argument("--plies", type=int, default=150, help="actions per game at most")
    ap.add_argument("--seed", default="1")
    ap.add_argument("--every", type=int, default=2,
                    help="checks B, C, D at every EVERY-th position (A at all)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--modes", default="hans38,neutral,infinite,occupied,postal,postal-plus")
    ap.add_argument("--forced-end", action="store_true",
                    help="Postal games: the oracle's --forced-end (a turn ends by itself only "
                         "after its last slot, as the engine does)")
    ap.add_argument("--skip-midturn-ep", action="store_true",
                    help="skip C and D where the engine cannot read its own string back "
                         "(several-action turn, after the mover's double step)")
    ap.add_argument("--show", type=int, default=5, help="differences printed in full")
    args = ap.parse_args(argv)
    total = 0
    t0 = time.time()
    o.R.forced_end = args.forced_end
    with tempfile.TemporaryDirectory() as tmp, cf.ThreadPoolExecutor(args.jobs) as pool:
        for name in args.modes.split(","):
            total += run_mode(name, args, args.varia, tmp, pool)
    print(f"total: {total} differences, {time.time() - t0:.1f} s")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
