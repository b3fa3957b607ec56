"""Cross-checks Varia's import of a Fairy-Stockfish variants.ini against Fairy-Stockfish itself (pyffish).

For each section of the file (all by default) it
- asks `varia convert FILE --variant NAME` whether Varia loads the section, or why it refuses it;
- counts perft from the start with Fairy-Stockfish (by recursion over legal_moves, stopping where
  it ends the game) and compares it with `varia perft`, to depth 3 (2 for sections whose depth 3
  is too slow for pyffish's recursion);
- plays seeded random games with Fairy-Stockfish's moves and, at every position, compares its
  legal-move list with `varia moves --uci --after ...`. A position where Fairy-Stockfish ends the
  game must have no moves in Varia; a game stops uncompared where Fairy-Stockfish lets a player
  claim a draw (the move rule, repetition), which Varia declares itself.

Usage: pip install pyffish; cargo build
       python3 tools/oracle-ini.py [--ini FILE] [--depth D] [--games G] [--plies P] [--seed S]
                                   [--varia BIN] [SECTION ...]
Prints one line per section (section, loads?, agrees?, or the refusal) and the counts; exits 1
when a section that loads disagrees.
"""
import argparse
import os
import random
import re
import subprocess
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Sections whose perft to depth 3 takes pyffish's recursion too long (many drops): depth 2.
SHALLOW = {"stardust", "cetus", "fullmoon", "mansindam", "pandemonium", "leaperhouse", "mandala", "elgam", "muje"}


def sections(text):
    return re.findall(r"^\[([^\]:]+)", text, re.M)


def fsf_perft(name, start, moves, depth):
    if depth == 0:
        return 1
    if sf.is_immediate_game_end(name, start, moves)[0]:
        return 0
    legal = sf.legal_moves(name, start, moves)
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(name, start, moves + [m], depth - 1) for m in legal)


class Varia:
    def __init__(self, binary, ini, section):
        self.binary, self.ini, self.section = binary, ini, section

    def run(self, command, *args):
        out = subprocess.run([self.binary, command, self.ini, *args, "--variant", self.section], capture_output=True, text=True)
        return (out.stdout, None) if out.returncode == 0 else (None, out.stderr.strip())

    def moves(self, moves):
        out, err = self.run("moves", "--uci", *(["--after", " ".join(moves)] if moves else []))
        return sorted(out.split()) if out is not None else ["ERROR: " + err]


def refusal(err):
    """The first error line of a refusal, without the path."""
    for line in err.splitlines():
        if line.startswith(("Error:", "error:")):
            return line.split(": ", 1)[1]
    return err.splitlines()[0] if err else "?"


def check(name, args, varia, rng):
    """(agrees, notes) for one section that loads."""
    notes = []
    start = sf.start_fen(name)
    depth = min(args.depth, 2) if name in SHALLOW else args.depth
    for d in range(1, depth + 1):
        a = fsf_perft(name, start, [], d)
        out, err = varia.run("perft", str(d))
        b = int(out.split()[-1]) if out else err
        if a != b:
            return False, [f"perft {d}: Fairy-Stockfish {a}, Varia {b}"]
    notes.append(f"perft {depth} = {a}")
    positions = 0
    for _ in range(args.games):
        moves = []
        for _ in range(args.plies):
            over = not sf.legal_moves(name, start, moves) or sf.is_immediate_game_end(name, start, moves)[0]
            if not over and sf.is_optional_game_end(name, start, moves)[0]:
                break
            want = [] if over else sorted(sf.legal_moves(name, start, moves))
            got = varia.moves(moves)
            positions += 1
            if got != want:
                missing, extra = sorted(set(want) - set(got)), sorted(set(got) - set(want))
                return False, [f"after {' '.join(moves) or 'the start'}: missing {missing[:8]}, extra {extra[:8]}"]
            if over:
                break
            moves.append(rng.choice(want))
    notes.append(f"{positions} positions")
    return True, notes


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--ini", default=os.path.join(ROOT, "..", "shared", "fsf", "variants.ini"))
    p.add_argument("--depth", type=int, default=3)
    p.add_argument("--games", type=int, default=3)
    p.add_argument("--plies", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--varia", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "debug", "varia"))
    p.add_argument("names", nargs="*")
    args = p.parse_args()
    text = open(args.ini).read()
    sf.load_variant_config(text)
    names = args.names or sections(text)
    loads = agrees = 0
    bad = []
    for name in names:
        varia = Varia(args.varia, args.ini, name)
        out, err = varia.run("convert")
        if out is None:
            print(f"{name:24} refused  {refusal(err)}", flush=True)
            continue
        loads += 1
        ok, notes = check(name, args, varia, random.Random(f"{args.seed}-{name}"))
        agrees += ok
        if not ok:
            bad.append(name)
        print(f"{name:24} loads    {'agrees' if ok else 'DIFFERS'}: {'; '.join(notes)}", flush=True)
    print(f"{len(names)} sections: {loads} load, {agrees} agree with Fairy-Stockfish; differ: {' '.join(bad) or 'none'}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
