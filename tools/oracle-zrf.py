"""Cross-checks Varia's Zillions import against Fairy-Stockfish (pyffish), an independent oracle.

For the corpus files makruk.zrf, shatranj.zrf and courier-chess.zrf (in ../shared/zrf): perft 1-3
from the start, then the number of legal moves at every ply of random games (moves chosen by
pyffish, replayed in Varia with `varia moves FILE --after ...`).
Usage: pip install pyffish; cargo build --release; python3 tools/oracle-zrf.py
"""
import os, random, subprocess, sys
import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIA = os.path.join(ROOT, "target", "release", "varia")
ZRF = os.path.join(ROOT, "..", "shared", "zrf")

# Courier chess as courier-chess.zrf writes it: 12x8, Queen = ferz, Bishop = alfil, Courier =
# bishop, Fool = wazir, Man = commoner; single pawn steps, promotion to the ferz; no castling.
COURIER = """
[courierzrf]
maxRank = 8
maxFile = l
pawn = p
rook = r
knight = n
alfil = b
bishop = c
fers = q
wazir = f
commoner = m
king = k
promotionRegionWhite = *8
promotionRegionBlack = *1
promotionPieceTypes = q
doubleStep = false
castling = false
stalemateValue = loss
startFen = rnbcmkqfcbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBCMKQFCBNR w - - 0 1
"""
sf.load_variant_config(COURIER)

GAMES = [
    ("makruk.zrf", "makruk", "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"),
    ("shatranj.zrf", "shatranj", "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"),
    ("courier-chess.zrf", "courierzrf", "rnbcmkqfcbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBCMKQFCBNR w - - 0 1"),
]

def perft(variant, fen, moves, d):
    legal = sf.legal_moves(variant, fen, moves)
    if d == 1:
        return len(legal)
    return sum(perft(variant, fen, moves + [m], d - 1) for m in legal)

def varia(*args):
    out = subprocess.run([VARIA, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"varia {' '.join(args)} failed:\n{out.stderr}")
    return out.stdout

bad = 0
random.seed(7)
for file, variant, fen in GAMES:
    path = os.path.join(ZRF, file)
    for d in (1, 2, 3):
        ours = int(varia("perft", path, str(d)).strip().splitlines()[-1].split()[1])
        theirs = perft(variant, fen, [], d)
        print(f"{file} perft {d}: varia {ours}, fairy-stockfish {theirs}")
        bad += ours != theirs
    checked = 0
    for g in range(12):
        moves = []
        for ply in range(50):
            legal = sf.legal_moves(variant, fen, moves)
            # Promotions are spelt differently; a game stops before one.
            if not legal or any(len(m) > 4 and m[-1].isalpha() for m in legal):
                break
            listed = varia("moves", path, "--after", " ".join(moves)) if moves else varia("moves", path)
            ours = len([l for l in listed.splitlines() if l.strip()])
            checked += 1
            if ours != len(legal):
                bad += 1
                print(f"MISMATCH {file} after {' '.join(moves)}: varia {ours}, fairy-stockfish {len(legal)}")
                break
            moves.append(random.choice(legal))
    print(f"{file}: legal move counts agree at {checked} positions of 12 random games" if not bad else "")
print("all agree" if bad == 0 else f"{bad} mismatches")
sys.exit(1 if bad else 0)
