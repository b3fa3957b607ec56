#!/usr/bin/env python3
"""Random games with the engine, checked move list by move list against the oracle.

Usage: compare.py VARIA GAMES PLIES [SEED] [PERFT_DEPTH]

Plays GAMES random games of up to PLIES half-moves with `VARIA moves` and `VARIA replay`
(so the positions are the engine's), and at every position compares the engine's sorted legal
moves with perft.py's (first in the hand positions of FIXED). After every move it also compares the engine's new position with the
oracle's (both written by perft.write, so the order of the {...} list does not matter). At the
end of each game it prints the last position string, and with PERFT_DEPTH compares
`VARIA perft` with the oracle's perft there. Run from the repository root with
PYTHONPATH=tools/multiple-squares-oracle.
"""

import random
import subprocess
import sys
import tempfile

import perft as oracle

VAR = "variants/multiple-squares.var"

# Hand positions checked first (moves and perft to PERFT_DEPTH, at least 2): the rule text's
# examples and what random games seldom reach (castling, en passant, promotion).
FIXED = [
    "7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1",
    "7k/6pp/8/8/8/8/8/4K3{Rab1} w - - 0 1",
    "8/8/8/7k/8/6P1/8/K1B5 w - - 0 1",
    "4k3/8/8/3n4/8/8/8/4K3{Bef3.5} b - - 0 1",
    "4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1",
    "4k3/8/8/8/8/8/4P1P1/4K3{bef3.5} w - - 0 1",
    "4k3/8/8/8/8/8/8/4K3{ref2} w - - 0 1",
    "1k6/8/8/8/8/8/8/4K3{Rab1} b - - 0 1",
    "8/8/8/8/4n3/8/8/4k1K1{Re7.5} b - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R{qcd4.5} w KQkq - 0 1",
    "r3k3/8/8/8/8/8/8/R3K3{Qfg1.5} w Qq - 0 1",
    "4k3/8/8/8/8/8/8/4K3{Rh1.5} w K - 0 1",
    "4k3/8/8/8/8/8/8/R3K2R{rfg5.5} w KQ - 0 1",
    "r3k2r/p6p/8/8/8/8/P6P/R3K2R{Bbc3.5,bfg6} b KQkq - 0 1",
    "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 2",
    "4k3/8/8/8/3pP3/8/8/4K3{Bab2.5} b - e3 0 1",
    "4k3/4P3/8/8/8/8/8/4K3{rcd8} w - - 0 1",
    "2n1k3/1P1P4/8/8/8/8/8/4K3{bgh8} w - - 0 1",
    "4k3/8/8/8/8/8/4P3/4K3{bde4} w - - 0 1",
    "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5Q2/PPPP1PPP/RNB1K1NR w KQkq - 4 4",
]


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
    halves_seen = 0
    for pos in FIXED:
        p = oracle.parse(pos)
        halves_seen += bool(p.halves)
        mine = sorted(oracle.notation(p, m) for m in oracle.legal(p))
        theirs = engine_moves(varia, pos)
        checked += 1
        if mine != theirs:
            diffs += 1
            print("DIFF", pos)
            print("  engine only:", sorted(set(theirs) - set(mine)))
            print("  oracle only:", sorted(set(mine) - set(theirs)))
        line = f"fixed: {pos}"
        for d in range(1, max(depth, 2) + 1):
            e, o = engine_perft(varia, pos, d), oracle.perft(p, d)
            line += f"  d{d} {e}/{o}" + ("" if e == o else " MISMATCH")
            diffs += e != o
        print(line, flush=True)
    for g in range(games):
        pos = oracle.START
        for _ in range(plies):
            p = oracle.parse(pos)
            halves_seen += bool(p.halves)
            mine = sorted(oracle.notation(p, m) for m in oracle.legal(p))
            theirs = engine_moves(varia, pos)
            checked += 1
            if mine != theirs:
                diffs += 1
                print("DIFF", pos)
                print("  engine only:", sorted(set(theirs) - set(mine)))
                print("  oracle only:", sorted(set(mine) - set(theirs)))
            if not theirs:
                break
            move = rng.choice(theirs)
            pos, result = engine_after(varia, pos, move)
            if move in mine:
                expected = oracle.write(oracle.play(p, move))
                got = oracle.write(oracle.parse(pos))
                if expected != got:
                    diffs += 1
                    print("POSITION DIFF after", move, "from", oracle.write(p))
                    print("  engine:", got)
                    print("  oracle:", expected)
            if result != "game in progress":
                print("  game", g, "ended:", result)
                break
        line = f"game {g}: {pos}"
        if depth:
            p = oracle.parse(pos)
            for d in range(1, depth + 1):
                e, o = engine_perft(varia, pos, d), oracle.perft(p, d)
                line += f"  d{d} {e}/{o}" + ("" if e == o else " MISMATCH")
                diffs += e != o
        print(line, flush=True)
    print(f"{checked} positions compared ({halves_seen} with a piece between squares), "
          f"{diffs} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
