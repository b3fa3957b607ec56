"""Cross-checks variants/capablanca.var against Fairy-Stockfish (pyffish), an independent oracle.

Counts perft with Fairy-Stockfish's built-in `capablanca` from the start (depth 1-3) and from
positions along random games (depth 2, castling, en passant and promotions included), and
compares each with `varia perft variants/capablanca.var D --position FEN`.
Usage: pip install pyffish; cargo build; python3 tools/oracle-capablanca.py [VARIA_BIN]
"""
import os
import random
import subprocess
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "target", "debug", "varia")
FILE = os.path.join(ROOT, "variants", "capablanca.var")


def perft(fen, depth):
    if depth == 0:
        return 1
    moves = sf.legal_moves("capablanca", fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(sf.get_fen("capablanca", fen, [m]), depth - 1) for m in moves)


def varia(fen, depth):
    out = subprocess.run([VARIA, "perft", FILE, str(depth), "--position", fen], capture_output=True, text=True)
    return int(out.stdout.split()[-1])


def main():
    start = sf.start_fen("capablanca")
    bad = 0
    for d in (1, 2, 3):
        a, b = perft(start, d), varia(start, d)
        print(f"start depth {d}: Fairy-Stockfish {a}, Varia {b}")
        bad += a != b
    rng = random.Random(7)
    count = 0
    for _ in range(60):
        fen = start
        for _ in range(rng.randint(4, 70)):
            moves = sf.legal_moves("capablanca", fen, [])
            if not moves:
                break
            fen = sf.get_fen("capablanca", fen, [rng.choice(moves)])
        if not sf.legal_moves("capablanca", fen, []):
            continue
        a, b = perft(fen, 2), varia(fen, 2)
        count += 1
        if a != b:
            bad += 1
            print("MISMATCH", fen, "Fairy-Stockfish", a, "Varia", b)
    print(f"{count} random positions at depth 2, {bad} mismatches")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
