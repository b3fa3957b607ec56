#!/usr/bin/env python3
"""Perft by Fairy-Stockfish (pyffish, `pip install pyffish`): leaves counted by recursion carrying
the move list (some end rules need the history); a position where Fairy-Stockfish ends the game
(`is_immediate_game_end`: janggi's two passes, three checks given) has no moves below it. An
independent source for tests/ counts:

    python3 tools/fsf-perft.py --ini tools/fsf-variants.ini --variant dropchess \\
        --fen "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[NPnp] w KQkq - 0 1" --depth 3
"""
import argparse, sys
import pyffish as sf

def perft(variant, fen, moves, depth):
    if depth == 0:
        return 1
    if sf.is_immediate_game_end(variant, fen, moves)[0]:
        return 0
    legal = sf.legal_moves(variant, fen, moves)
    if depth == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], depth - 1) for m in legal)

ap = argparse.ArgumentParser()
ap.add_argument("--ini")
ap.add_argument("--variant", default="chess")
ap.add_argument("--fen", required=True)
ap.add_argument("--depth", type=int, default=3)
a = ap.parse_args()
if a.ini:
    sf.load_variant_config(open(a.ini).read())
for d in range(1, a.depth + 1):
    print(d, perft(a.variant, a.fen, [], d), flush=True)
