"""Cross-checks varia's chess.var perft against python-chess (an independent oracle).

Plays random games with python-chess, and for positions along them compares perft 3 from
`varia perft variants/chess.var 3 --position FEN` with python-chess's own count.
Usage: pip install chess; cargo build --release; python3 tools/oracle-chess.py
"""
import os
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIA = os.path.join(ROOT, "target", "release", "varia")
CHESS = os.path.join(ROOT, "variants", "chess.var")
import chess, random, subprocess
random.seed(1)
def perft(b, d):
    if d == 0: return 1
    n = 0
    for m in b.legal_moves:
        b.push(m); n += perft(b, d-1); b.pop()
    return n
bad = 0; count = 0
for g in range(40):
    b = chess.Board()
    for _ in range(random.randint(5, 80)):
        ms = list(b.legal_moves)
        if not ms: break
        b.push(random.choice(ms))
    if b.is_game_over(): continue
    fen = b.fen()
    out = subprocess.run([VARIA, "perft", CHESS, "3", "--position", fen], capture_output=True, text=True).stdout.strip().splitlines()[-1]
    v = int(out.split()[1]); p = perft(b, 3); count += 1
    if v != p: bad += 1; print("MISMATCH", fen, v, p)
print(f"{count} positions, {bad} mismatches")
