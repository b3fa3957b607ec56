"""Cross-checks Varia's Zillions import against Fairy-Stockfish (pyffish), an independent oracle.

For the files of ../shared/zrf and ../shared/zrf-corpus whose rules Fairy-Stockfish can be
configured to: perft 1-3 from the start, then (where the rules agree beyond the opening) the
number of legal moves at every ply of random games (moves chosen by pyffish, replayed in Varia
with `varia moves FILE --after ...`).
Usage: pip install pyffish; cargo build --release; python3 tools/oracle-zrf.py
(VARIA=path/to/varia runs another build.)
"""
import os, random, subprocess, sys
import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIA = os.environ.get("VARIA", os.path.join(ROOT, "target", "release", "varia"))
SHARED = os.path.join(ROOT, "..", "shared")

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

# Shogi as zrf-corpus/shogi-family/shogi.zrf writes it: its move bodies never promote. Its drops
# go to any empty cell (no two pawns on a file, no pawn-drop mate), which Fairy-Stockfish's
# shogi forbids, so only perft from the start (no drop is possible within three plies) compares.
SHOGI_ZRF = """
[shogizrf:shogi]
promotedPieceType = p:- n:- s:- l:- r:- b:-
"""
sf.load_variant_config(SHOGI_ZRF)

MAKRUK = "rnsmksnr/8/pppppppp/8/8/PPPPPPPP/8/RNSKMSNR w - - 0 1"
SHATRANJ = "rnbkqbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKQBNR w - - 0 1"
COURIER_FEN = "rnbcmkqfcbnr/pppppppppppp/12/12/12/12/PPPPPPPPPPPP/RNBCMKQFCBNR w - - 0 1"
# (file under ../shared, Fairy-Stockfish variant, start position, random games to replay)
GAMES = [
    ("zrf/makruk.zrf", "makruk", MAKRUK, 12),
    ("zrf/shatranj.zrf", "shatranj", SHATRANJ, 12),
    ("zrf/courier-chess.zrf", "courierzrf", COURIER_FEN, 12),
    # zrf-corpus/chess/makruk.zrf, shatranj.zrf and courier-chess.zrf are the same files.
    # The corpus chess.zrf castles without Zillions' checks (see docs/zrf.md): perft only.
    ("zrf-corpus/chess/chess.zrf", "chess", sf.start_fen("chess"), 0),
    ("zrf-corpus/shogi-family/shogi.zrf", "shogizrf", sf.start_fen("shogizrf"), 0),
    ("zrf-corpus/breakthrough/breakthrough.zrf", "breakthrough", sf.start_fen("breakthrough"), 12),
    # Its captured pieces go to hand cells of the board, written differently: perft only.
    ("zrf-corpus/breakthrough/doubutsu-shogi.zrf", "dobutsu", sf.start_fen("dobutsu"), 0),
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
for file, variant, fen, games in GAMES:
    path = os.path.join(SHARED, file)
    for d in (1, 2, 3):
        ours = int(varia("perft", path, str(d)).strip().splitlines()[-1].split()[1])
        theirs = perft(variant, fen, [], d)
        print(f"{file} perft {d}: varia {ours}, fairy-stockfish {theirs}")
        bad += ours != theirs
    checked = 0
    for g in range(games):
        moves = []
        for ply in range(50):
            legal = sf.legal_moves(variant, fen, moves)
            # Promotions are spelt differently; a game stops before one.
            if any(len(m) > 4 and m[-1].isalpha() for m in legal):
                break
            listed = varia("moves", path, "--after", " ".join(moves)) if moves else varia("moves", path)
            ours = len([l for l in listed.splitlines() if l.strip()])
            # A game over (a pawn on the far row) has no moves in either.
            if not legal:
                checked += 1
                if ours:
                    bad += 1
                    print(f"MISMATCH {file} after {' '.join(moves)}: the game is over for fairy-stockfish, varia lists {ours} moves")
                break
            checked += 1
            if ours != len(legal):
                bad += 1
                print(f"MISMATCH {file} after {' '.join(moves)}: varia {ours}, fairy-stockfish {len(legal)}")
                break
            moves.append(random.choice(legal))
    if games and not bad:
        print(f"{file}: legal move counts agree at {checked} positions of {games} random games")
# Games whose turn is two actions (an amazon's move, then its shot): Fairy-Stockfish lists a turn
# as one gating move (`d1a1,a1b1`), Varia as two (`d1a1`, then `a1b1h`: the amazon becomes the
# arrow and a new amazon stands where it shot from, as the file writes it). Whole turns are
# counted with `varia perft --turns` (depth 3 is ~9 billion turns: 1 and 2 only).
TURN_GAMES = [("zrf-corpus/stalemate/amazons.zrf", "amazons", 6)]
for file, variant, games in TURN_GAMES:
    path = os.path.join(SHARED, file)
    fen = sf.start_fen(variant)
    for d in (1, 2):
        ours = int(varia("perft", path, str(d), "--turns").strip().splitlines()[-1].split()[1])
        theirs = perft(variant, fen, [], d)
        print(f"{file} perft {d} (turns): varia {ours}, fairy-stockfish {theirs}")
        bad += ours != theirs
    checked = 0
    for g in range(games):
        moves, written = [], []
        for ply in range(40):
            legal = sf.legal_moves(variant, fen, moves)
            args = ["perft", path, "1", "--turns"] + (["--after", " ".join(written)] if written else [])
            ours = int(varia(*args).strip().splitlines()[-1].split()[1])
            checked += 1
            if ours != len(legal):
                bad += 1
                print(f"MISMATCH {file} after {' '.join(moves)}: varia {ours} turns, fairy-stockfish {len(legal)}")
                break
            if not legal:
                break
            mv = random.choice(legal)
            moves.append(mv)
            step, shot = mv.split(",")
            written += [step, shot + "h"]
    if games and not bad:
        print(f"{file}: turn counts agree at {checked} positions of {games} random games")
print("all agree" if bad == 0 else f"{bad} mismatches")
sys.exit(1 if bad else 0)
