#!/usr/bin/env python3
"""Instructions per perft node of the chess-family Zillions files, against variants/chess.var.

Each game is counted twice under `valgrind --tool=cachegrind --cache-sim=no`: at its depth and
at depth 1. The difference of the instruction counts over the difference of the node counts is
the cost of a node with loading and compiling the file taken off. Instructions do not move with
the machine's load, so the ratios are comparable from run to run. The depths keep each run under
about a second without valgrind.

Needs valgrind and a release build (`cargo build --release -p varia --bin varia`; the binary is
read from $CARGO_TARGET_DIR when it is set). Usage:

    python3 tools/zrf-per-node.py [GAME ...]
    python3 tools/zrf-per-node.py --dir FOLDER [--nodes N]

With `--dir`, every `.zrf` file under FOLDER (its main game) is measured instead, each at the
deepest depth whose perft has at most N nodes (200,000 by default; found by plain runs first),
with the files that fail to load or have no move listed at the end.
"""

import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TARGET = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
VARIA = os.path.join(TARGET, "release", "varia")
CORPUS = os.path.join(ROOT, "..", "shared", "zrf-corpus")

# (name, file under ../shared/zrf-corpus, depth)
GAMES = [
    ("makruk", "chess/makruk.zrf", 5),
    ("courier-chess", "chess/courier-chess.zrf", 5),
    ("shatranj", "chess/shatranj.zrf", 6),
    ("anti-king", "chess/anti-king.zrf", 5),
    ("chess.zrf", "chess/chess.zrf", 5),
    ("escalation", "checkmate/escalation.zrf", 3),
    ("short-assize", "chess/short-assize.zrf", 5),
    ("swap-chess", "chess/swap-chess.zrf", 6),
    ("fighting-chess", "chess/fighting-chess.zrf", 4),
    ("dragonchess", "chess/dragonchess.zrf", 3),
    ("menrow", "chess/menrow.zrf", 6),
    ("ttc", "chess/ttc.zrf", 4),
    ("bomb-chess", "chess/bomb-chess.zrf", 4),
    ("platform-chess", "chess/platform-chess.zrf", 5),
    ("caissa", "checkmate/caissa.zrf", 4),
    ("chaturaji", "chess/chaturaji.zrf", 4),
    ("hiashatar", "chess/hiashatar.zrf", 3),
    ("pawn-wars", "chess/pawn-wars.zrf", 6),
    ("knights-court", "checkmate/knights-court.zrf", 6),
]


def run(path, depth):
    """Instructions and nodes of `varia perft path depth` under cachegrind."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         VARIA, "perft", path, str(depth)],
        capture_output=True, text=True, check=True)
    instructions = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    nodes = re.search(r"nodes (\d+)", out.stdout)
    if not instructions or not nodes:
        sys.exit(f"{path} {depth}: no instruction or node count in\n{out.stdout}{out.stderr}")
    return int(instructions.group(1).replace(",", "")), int(nodes.group(1))


def per_node(path, depth):
    """Instructions per node at `depth`, the run at depth 1 taken off, and the node count."""
    deep, nodes = run(path, depth)
    shallow, first = run(path, 1)
    if nodes <= first:
        return None, nodes
    return (deep - shallow) / (nodes - first), nodes


def nodes_at(path, depth):
    """The perft count at `depth` by a plain run, or the error's first line."""
    out = subprocess.run([VARIA, "perft", path, str(depth)], capture_output=True, text=True, timeout=600)
    found = re.search(r"nodes (\d+)", out.stdout)
    if out.returncode != 0 or not found:
        return None, (out.stderr.strip().splitlines() or ["no node count"])[0]
    return int(found.group(1)), None


def folder(root, most):
    """Per-node costs of every `.zrf` under `root`, each at the deepest depth within `most` nodes."""
    chess, _ = per_node(os.path.join(ROOT, "variants", "chess.var"), 5)
    print(f"| file | depth | nodes | instructions per node | against chess.var ({chess:.0f}) |")
    print("| --- | --- | --- | --- | --- |")
    left_out = []
    files = sorted(os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs if f.endswith(".zrf"))
    for path in files:
        name = os.path.relpath(path, root)
        depth, error = 0, None
        for d in range(1, 12):
            n, error = nodes_at(path, d)
            if n is None or n == 0 or n > most:
                break
            depth = d
        if depth < 2:
            left_out.append(f"{name}: {error or 'too few or too many moves to measure'}")
            continue
        cost, nodes = per_node(path, depth)
        if cost is None:
            left_out.append(f"{name}: no more nodes at depth {depth} than at depth 1")
            continue
        print(f"| {name} | {depth} | {nodes:,} | {cost:.0f} | {cost / chess:.1f}x |")
        sys.stdout.flush()
    for line in left_out:
        print(f"not measured: {line}")


def main():
    if sys.argv[1:2] == ["--dir"]:
        most = int(sys.argv[sys.argv.index("--nodes") + 1]) if "--nodes" in sys.argv else 200_000
        folder(sys.argv[2], most)
        return
    wanted = set(sys.argv[1:])
    chess, _ = per_node(os.path.join(ROOT, "variants", "chess.var"), 5)
    print(f"| game | depth | nodes | instructions per node | against chess.var ({chess:.0f}) |")
    print("| --- | --- | --- | --- | --- |")
    for name, file, depth in GAMES:
        if wanted and name not in wanted:
            continue
        cost, nodes = per_node(os.path.join(CORPUS, file), depth)
        if cost is None:
            print(f"| {name} | {depth} | {nodes} | - | - |")
        else:
            print(f"| {name} | {depth} | {nodes:,} | {cost:.0f} | {cost / chess:.1f}x |")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
