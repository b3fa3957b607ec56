#!/usr/bin/env python3
"""Independent oracle for the Dagaz sliding puzzles (../shared/zrf-corpus/sliding-puzzles).

Written from the rule text, not from Varia: each puzzle file declares its pieces with
common.zrf's macro `(T NAME VALUE)` (a piece named NAME followed by VALUE, whose attribute
`value` is VALUE, moving by `(step d)` = `d add` in the directions n, s, w and e) and sets them
up on a grid; Dagaz's "sliding-puzzle" option (its extension sliding-puzzle.js) turns each such
one-step move of a piece into a move of its whole block: every other piece with the same
non-zero value moves by the same step, and every piece of the block must land on an empty
position or one holding a piece of the block; a piece of value 0 moves alone onto empty
positions. Each piece's step is its own move (a block of k pieces has k moves in a direction
that all give the same position). The game is won, and over, when some win-condition holds: all
the absolute-configs of its (and ...), each meaning that piece stands on one of the positions.

Compares, per puzzle, perft 1..D from the start with `varia perft`, and along random games the
moves `varia moves` lists (each as the set of its from-to steps) with the oracle's.

Usage: tools/oracle-sliding.py --varia target/release/varia [--depth 3] [--games 3] [--plies 40]
"""
import argparse
from collections import Counter
import glob
import os
import random
import re
import subprocess
import sys

STEPS = ("n", "s", "w", "e")


def read_sexp(text):
    text = re.sub(r";[^\n]*", "", text)
    tokens = re.findall(r'"[^"]*"|\(|\)|[^\s()]+', text)
    stack = [[]]
    for tok in tokens:
        if tok == "(":
            stack.append([])
        elif tok == ")":
            done = stack.pop()
            stack[-1].append(done)
        else:
            stack[-1].append(tok.strip('"'))
    return stack[0]


def find(form, head):
    return [x for x in form if isinstance(x, list) and x and x[0] == head]


class Puzzle:
    def __init__(self, path):
        top = read_sexp(open(path, encoding="latin-1").read())
        game = find(top, "game")[0]
        grid = find(find(game, "board")[0], "grid")[0]
        files, ranks = [d[0].split("/") for d in find(grid, "dimensions")[0][1:]]
        self.cells = {}
        for x, f in enumerate(files):
            for y, r in enumerate(ranks):
                self.cells[f + r] = (x, y)
        self.at = {xy: name for name, xy in self.cells.items()}
        self.dirs = {d[0]: (int(d[1]), int(d[2])) for d in find(grid, "directions")[0][1:]}
        self.value = {}
        for t in find(game, "T"):
            self.value[t[1] + t[2]] = t[2]  # a number, or a word (mothers.zrf's block A)
        setup = find(game, "board-setup")[0][1]
        self.start = {}
        for placement in setup[1:]:
            for cell in placement[1:]:
                self.start[cell] = placement[0]
        self.wins = []
        for w in find(game, "win-condition"):
            cond = w[2]
            configs = cond[1:] if cond[0] == "and" else [cond]
            self.wins.append([(c[1], set(c[2])) for c in configs])

    def won(self, board):
        where = {piece: cell for cell, piece in board.items()}
        return any(all(where.get(piece) in cells for piece, cells in win) for win in self.wins)

    def step(self, cell, d):
        x, y = self.cells[cell]
        dx, dy = self.dirs[d]
        return self.at.get((x + dx, y + dy))

    def moves(self, board):
        """Each move as (frozenset of (from, to)), one per piece and direction."""
        if self.won(board):
            return []
        out = []
        for cell, piece in board.items():
            v = self.value[piece]
            block = [cell] if v == "0" else [c for c, p in board.items() if self.value[p] == v]
            for d in STEPS:
                steps = []
                for c in block:
                    t = self.step(c, d)
                    if t is None:
                        break
                    there = board.get(t)
                    if there is not None and not (v != "0" and self.value[there] == v):
                        break
                    steps.append((c, t))
                else:
                    out.append(frozenset(steps))
        return out

    @staticmethod
    def play(board, move):
        after = dict(board)
        lifted = [(t, board[f]) for f, t in move]
        for f, _ in move:
            del after[f]
        for t, p in lifted:
            after[t] = p
        return after

    def perft(self, board, depth):
        moves = self.moves(board)
        if depth == 1:
            return len(moves)
        return sum(self.perft(self.play(board, m), depth - 1) for m in moves)


def varia(bin_, *args):
    out = subprocess.run([bin_, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"varia {' '.join(args)} failed:\n{out.stderr}")
    return out.stdout


def parse_varia_move(text):
    """`Ga1-a2,a2-a3` -> ({(a1, a2), (a2, a3)}): the leading piece letter dropped."""
    parts = text.strip().split(",")
    parts[0] = re.sub(r"^[^a-z]+", "", parts[0])
    return frozenset(tuple(p.split("-")) for p in parts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--varia", required=True)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--games", type=int, default=3)
    ap.add_argument("--plies", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--corpus", default=os.path.join(here, "..", "..", "shared", "zrf-corpus", "sliding-puzzles"))
    args = ap.parse_args()
    files = sorted(f for f in glob.glob(os.path.join(args.corpus, "*.zrf")) if not f.endswith("common.zrf"))
    if not files:
        print(f"skipping: no sliding puzzles at {args.corpus}")
        return 0
    rng = random.Random(args.seed)
    bad = 0
    positions = 0
    for path in files:
        name = os.path.basename(path)
        puzzle = Puzzle(path)
        counts = []
        for d in range(1, args.depth + 1):
            ours = int(varia(args.varia, "perft", path, str(d)).split()[-1])
            theirs = puzzle.perft(puzzle.start, d)
            counts.append(str(theirs))
            if ours != theirs:
                bad += 1
                print(f"MISMATCH {name} perft {d}: varia {ours}, oracle {theirs}")
        for _ in range(args.games):
            board, played = puzzle.start, []
            for _ in range(args.plies):
                listed = varia(args.varia, "moves", path, *(["--after", " ".join(played)] if played else []))
                ours = {}
                for line in listed.split():
                    ours.setdefault(parse_varia_move(line), []).append(line)
                theirs = puzzle.moves(board)
                positions += 1
                if Counter({m: len(l) for m, l in ours.items()}) != Counter(theirs):
                    bad += 1
                    print(f"MISMATCH {name} after {' '.join(played)}: varia {listed.split()}, oracle {theirs}")
                    break
                if not theirs:
                    break
                move = rng.choice(theirs)
                played.append(rng.choice(ours[move]))
                board = puzzle.play(board, move)
        print(f"{name}: perft {' '.join(counts)}")
    print(f"{len(files)} puzzles, {positions} positions of random games compared")
    print("all agree" if bad == 0 else f"{bad} mismatches")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
