#!/usr/bin/env python3
"""Checks the engine's move-list snapshots of the Hans38 family against the oracle.

Reads every snapshot in tests/snapshots/ whose body is `FILE.var`, a position string in the
engine's format, `--` and the sorted legal moves (the `snap` helper of tests/hans38.rs and
tests/hans38_neutral_postal.rs), or a position string, `--` and the moves (tests/infinite_reserves.rs
and tests/moving_occupied_squares.rs, whose snapshots have no file line: `infinite_*` are The
Game of Infinite Reserves, `occupied_*` Moving Occupied Squares), for the games the oracle
knows, reads the position into the oracle and compares the oracle's legal single actions with
the snapshot's list. Also checks tests/snapshots/variants__start-moves-FILE.snap (the moves
from the start) for the same games.

Usage (from the repository root): python3 tools/hans38-oracle/snapshots.py [--forced-end]
Prints one line per snapshot and exits 1 on any difference.
"""

import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import perft as o  # noqa: E402
from compare import MODES, set_mode  # noqa: E402

FILES = {v[0].split("/")[-1]: k for k, v in MODES.items()}


def from_engine(text):
    """The oracle's position from a position string in the engine's format (`*` a hole, `+`/`-`
    an empty square of White's/Black's, a digit a run of empty squares of nobody's; then side
    castling ep halfmove fullmove reserves untouchable [action-due touched])."""
    f = text.split()
    p = o.Pos()
    p.board, p.sqs, p.kings = ["."] * 64, [o.HOLE] * 64, {}
    for r, row in enumerate(f[0].split("/")):
        y, x = 7 - r, 0
        for ch in row:
            if ch.isdigit():
                for _ in range(int(ch)):
                    p.sqs[y * 8 + x] = o.WSQ        # nobody's: the owner is never consulted
                    x += 1
                continue
            sq = y * 8 + x
            if ch == "+":
                p.sqs[sq] = o.WSQ
            elif ch == "-":
                p.sqs[sq] = o.BSQ
            elif ch != "*":
                p.board[sq] = ch
                p.sqs[sq] = o.WSQ if ch.isupper() else o.BSQ
                if ch in "Kk":
                    p.kings[ch == "K"] = sq
            x += 1
        assert x == 8, row
    p.white = f[1] == "w"
    p.castle = f[2] if f[2] != "-" else ""
    p.ep = o.parse_sq(f[3]) if f[3] != "-" else -1
    p.full = int(f[5])
    p.res = [int(n) for n in f[6].split(",")] if f[6] != "-" else [0, 0]
    p.frozen = tuple(o.parse_sq(s) for s in f[7].split(",")) if f[7] != "-" else ()
    p.phase = int(f[8]) - 1 if len(f) > 8 else o.PIECE
    p.touched = tuple(o.parse_sq(s) for s in f[9].split(",")) if len(f) > 9 and f[9] != "-" else ()
    return p


def body(path):
    text = open(path).read()
    return text.split("---\n", 2)[2].rstrip("\n")


def main(argv):
    forced = "--forced-end" in argv
    root = os.path.join(HERE, "..", "..")
    cases = []
    for path in sorted(glob.glob(os.path.join(root, "tests/snapshots/*.snap"))):
        b = body(path)
        lines = b.split("\n")
        name = os.path.basename(path)
        if len(lines) >= 3 and lines[0] in FILES and lines[2] == "--":
            cases.append((path, lines[0], lines[1], lines[3:]))
        elif name.startswith(("infinite_reserves__", "moving_occupied_squares__")) and len(lines) >= 2 and lines[1] == "--":
            game = "infinite" if name.startswith("infinite_reserves__infinite_") else "occupied"
            cases.append((path, MODES[game][0].split("/")[-1], lines[0], lines[2:]))
        for file in FILES:
            if name == f"variants__start-moves-{file}.snap":
                cases.append((path, file, None, lines))
    bad = 0
    for path, file, pos, moves in cases:
        set_mode(FILES[file])
        o.R.forced_end = forced
        p = from_engine(pos) if pos else o.parse(o.START)
        if pos is None and o.multi():
            p.phase, p.touched = o.PIECE, ()
        got = sorted(o.notation(p, m) for m in o.legal(p))
        want = sorted(m for m in moves if m)
        ok = got == want
        bad += not ok
        print(f"{'ok  ' if ok else 'DIFF'} {os.path.basename(path)} ({len(want)} moves)")
        if not ok:
            print("   snapshot only:", " ".join(sorted(set(want) - set(got))))
            print("   oracle only:  ", " ".join(sorted(set(got) - set(want))))
    print(f"{len(cases)} snapshots, {bad} differences")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
