#!/usr/bin/env python3
"""Random games with the engine, checked move list by move list against the oracle.

Usage: compare.py VARIA GAMES PLIES [SEED] [PERFT_DEPTH]

Plays GAMES random games of up to PLIES half-moves with `VARIA moves` and `VARIA replay`
(so the positions are the engine's), and at every position compares the engine's sorted legal
moves with perft.py's. At the end of each game it prints the last position string, and with
PERFT_DEPTH compares `VARIA perft` with the oracle's perft there. Run from the repository root.
"""

import random
import subprocess
import sys
import tempfile

import perft as oracle

VAR = "variants/central-squares.var"


def engine_moves(varia, pos):
    out = subprocess.run([varia, "moves", VAR, "--position", pos],
                         capture_output=True, text=True, check=True).stdout
    return sorted(out.split())


def engine_after(varia, pos, move):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(move + "\n")
        f.flush()
        out = subprocess.run([varia, "replay", VAR, f.name, "--position", pos],
                             capture_output=True, text=True, check=True).stdout
    position = result = None
    for line in out.splitlines():
        if line.startswith("position: "):
            position = line[len("position: "):]
        if line.startswith("result: "):
            result = line[len("result: "):]
    return position, result


def engine_perft(varia, pos, depth):
    out = subprocess.run([varia, "perft", VAR, str(depth), "--position", pos],
                         capture_output=True, text=True, check=True).stdout
    return int(out.split()[-1])


def main(argv):
    varia, games, plies = argv[0], int(argv[1]), int(argv[2])
    rng = random.Random(int(argv[3]) if len(argv) > 3 else 1)
    depth = int(argv[4]) if len(argv) > 4 else 0
    diffs = 0
    checked = 0
    for g in range(games):
        pos = oracle.START
        for _ in range(plies):
            mine = sorted(oracle.notation(b, m) for b, s in [oracle.parse(pos)]
                          for m in oracle.legal(b, s))
            theirs = engine_moves(varia, pos)
            checked += 1
            if mine != theirs:
                diffs += 1
                print("DIFF", pos)
                print("  engine only:", sorted(set(theirs) - set(mine)))
                print("  oracle only:", sorted(set(mine) - set(theirs)))
            if not theirs:
                break
            pos, result = engine_after(varia, pos, rng.choice(theirs))
            if result != "game in progress":
                print("  game", g, "ended:", result)
                break
        line = f"game {g}: {pos}"
        if depth:
            b, s = oracle.parse(pos)
            for d in range(1, depth + 1):
                e, o = engine_perft(varia, pos, d), oracle.perft(b, s, d)
                line += f"  d{d} {e}/{o}" + ("" if e == o else " MISMATCH")
                diffs += e != o
        print(line, flush=True)
    print(f"{checked} positions compared, {diffs} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
