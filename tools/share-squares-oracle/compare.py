#!/usr/bin/env python3
"""Random games played by the engine, each position's legal moves compared with the oracle's.

Usage (from anywhere): python3 tools/share-squares-oracle/compare.py SEED GAMES PLIES
Plays GAMES random games of at most PLIES moves from the start with `varia moves` and `varia
replay` (the engine at target/release/varia, or $VARIA), and at every position compares the
engine's sorted legal moves with the oracle's (oracle.py's generator, loaded without running its
main). Prints each difference and a summary line: positions, positions in check, differences; exits
with 1 if there was a difference.
"""
import os, random, subprocess, sys, tempfile
import types
HERE = os.path.dirname(os.path.abspath(__file__))
src = open(os.path.join(HERE, "oracle.py")).read()
src = src[:src.rindex("main()")]
oracle = types.ModuleType("oracle"); oracle.__file__ = os.path.join(HERE, "oracle.py")
sys.path.insert(0, HERE)
exec(compile(src, "oracle.py", "exec"), oracle.__dict__)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
V = os.environ.get("VARIA", os.path.join(ROOT, "target/release/varia"))
VAR = os.path.join(ROOT, "variants/share-squares.var")
def moves(fen):
    out = subprocess.run([V, "moves", VAR, "--position=" + fen], capture_output=True, text=True).stdout
    return out.split()
def after(fen, mv):
    with tempfile.NamedTemporaryFile("w", suffix=".txt") as f:
        f.write(mv + "\n")
        f.flush()
        out = subprocess.run([V, "replay", VAR, f.name, "--position=" + fen], capture_output=True, text=True).stdout
    for l in out.splitlines():
        if l.startswith("position: "):
            return l[len("position: "):]
    return None
rng = random.Random(int(sys.argv[1]))
games, plies = int(sys.argv[2]), int(sys.argv[3])
start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
n = bad = checks = 0
for g in range(games):
    fen = start
    for p in range(plies):
        theirs = sorted(moves(fen))
        pos = oracle.Pos(*oracle.parse(fen))
        mine = sorted(oracle.notation(pos, m) for m in oracle.legal(pos))
        n += 1
        checks += oracle.in_check(pos, pos.side)
        if mine != theirs:
            bad += 1
            print(fen, "engine only", sorted(set(theirs) - set(mine)), "oracle only", sorted(set(mine) - set(theirs)))
        if not theirs:
            break
        fen2 = after(fen, rng.choice(theirs))
        if fen2 is None:
            break
        fen = fen2
print("positions", n, "in check", checks, "differences", bad)
sys.exit(1 if bad else 0)
