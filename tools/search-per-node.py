#!/usr/bin/env python3
"""Instructions per search node in chess, crazyhouse, shogi and xiangqi, from the start and from a middlegame.

Each search runs `varia analyse FILE --depth N` under `valgrind --tool=cachegrind
--cache-sim=no`; the instructions over the nodes of the last finished depth are the cost of a
node (loading the file included, a small part at these depths). Instructions do not move with
the machine's load, so two builds compare from run to run; a build that keeps the search's trees
prints the same nodes and best moves. The middlegames are the first 24 plies Fairy-Stockfish
played against itself at depth 9 in each game.

Needs valgrind and a release build (`cargo build --release -p varia --bin varia`; the binary is
read from $CARGO_TARGET_DIR when it is set, or given with --varia). Usage:

    python3 tools/search-per-node.py [--varia PATH] [GAME ...]
"""

import argparse
import os
import re
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))

# (game, depth, the middlegame's moves in UCI notation)
GAMES = [
    ("chess", 10, "d2d4 g8f6 c2c4 e7e6 e2e3 d7d5 h2h4 c7c6 g1f3 f8d6 b1c3 e8g8 c1d2 a7a6 f1d3 d5c4 "
     "d3c4 c6c5 c4d3 c8d7 c3e4 f6e4 d3e4 c5d4"),
    ("crazyhouse", 9, "d2d4 g8f6 g1f3 d7d5 b1c3 b8c6 e2e3 f6e4 f1b5 c8d7 b5c6 d7c6 f3e5 e4d6 e5c6 "
     "b7c6 B@a4 B@d7 e1g1 N@g6 N@a5 d6b5 a5c6 d7c6"),
    ("shogi", 8, "c3c4 f9f8 f3f4 d7d6 h2f2 i7i6 f4f5 b8d8 c1c2 c7c6 f1e2 d9c8 e1f1 e7e6 g1g2 g7g6 "
     "b2h8 g9h8 f1g1 B@g5 g3g4 g5e7 a3a4 c9b8"),
    ("xiangqi", 8, "c1e3 g7g6 h1g3 h8h6 c4c5 h10g8 a4a5 c7c6 b1d2 c10e8 c5c6 b10d9 d2c4 h6c6 h3h7 "
     "i10i9 i4i5 i9h9 h7f7 h9h7 f7f3 c6f6 d1e2 d10e9"),
]


def measure(varia, game, depth, after):
    """The nodes of the last depth, the instructions, and the best move line."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", varia,
           "analyse", os.path.join(ROOT, "variants", game + ".var"), "--depth", str(depth)]
    if after:
        cmd += ["--after", after]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    text = out.stdout + out.stderr
    nodes = int(re.findall(r"^depth +%d .*?nodes +(\d+)" % depth, text, re.M)[-1])
    instructions = int(re.search(r"I\s+refs:\s+([\d,]+)", text).group(1).replace(",", ""))
    best = re.search(r"^best move: (\S+)", text, re.M).group(1)
    return nodes, instructions, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--varia", default=os.path.join(TARGET, "release", "varia"))
    ap.add_argument("games", nargs="*")
    args = ap.parse_args()
    print("| game | position | depth | nodes | best move | instructions per node |")
    print("| --- | --- | --- | --- | --- | --- |")
    for game, depth, moves in GAMES:
        if args.games and game not in args.games:
            continue
        for where, after in (("start", None), ("middlegame", moves)):
            nodes, instructions, best = measure(args.varia, game, depth, after)
            print(f"| {game} | {where} | {depth} | {nodes:,} | {best} | {instructions // nodes:,} |")


if __name__ == "__main__":
    main()
