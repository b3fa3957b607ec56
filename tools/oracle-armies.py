"""Cross-checks Chess with Different Armies (variants/different-armies.var) against
Fairy-Stockfish (pyffish), configured from Betza's army definitions, not from Varia.

Fairy-Stockfish has no choice of army, so each of the 16 pairings (White's army, Black's) is a
variant of its own here: the armies' pieces as custom pieces in Betza notation, the start
position with both armies, promotion to the pieces of both armies, castling with the corner
pieces. Then
- perft from the true start: Varia's count at depth D (the two choices, then D - 2 moves) must
  equal the sum over the pairings of Fairy-Stockfish's perft D - 2. Up to D = 6 no castling is
  reachable (a king castles on White's third move at the earliest), so the Clobberers' long
  castling, which Fairy-Stockfish can give only to both sides at once, plays no part;
- perft of each pairing from its start (Varia reading the position string);
- seeded random games in each pairing, comparing the legal-move lists at every position
  (`varia moves --uci`, reached by replaying the moves from the pairing's start and by reading
  Fairy-Stockfish's position string). Where exactly one side plays the Clobberers, that side's
  long castling right is left out of both, as Fairy-Stockfish cannot castle the two sides
  differently; with the Clobberers on both sides it castles to b1/b8 for both.

Usage: pip install pyffish; cargo build
       python3 tools/oracle-armies.py [--depth D] [--pairing-depth D] [--positions N] [--seed S] [--varia BIN]
Exits 1 on any difference.
"""
import argparse
import importlib.util
import itertools
import os
import random
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_spec = importlib.util.spec_from_file_location("oracle_fsf", os.path.join(ROOT, "tools", "oracle-fsf.py"))
oracle_fsf = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(oracle_fsf)

# Each army: its back rank from a to h (the king on e), and its pieces in Betza's notation as
# Fairy-Stockfish reads it (from Betza's pages: the FIDEs are chess's own pieces).
ARMIES = {
    "fides": ("rnbqkbnr", {}),
    "clobberers": ("dwackawd", {"d": "BD", "w": "WA", "a": "FAD", "c": "BN"}),
    "rookies": ("smfekfms", {"s": "R4", "m": "WD", "f": "FDH", "e": "RN"}),
    "nutty": ("gihokhig", {"g": "fsRbK", "i": "FvN", "h": "fhNbKsW", "o": "KfsRfhN"}),
}


def pairing(white, black):
    """Loads the pairing's variant into Fairy-Stockfish; returns its name and start FEN."""
    name = f"cwda-{white}-{black}"
    pieces = {**ARMIES[white][1], **ARMIES[black][1]}
    custom = "\n".join(f"customPiece{i + 1} = {l}:{b}" for i, (l, b) in enumerate(sorted(pieces.items())))
    rights = "KQkq"
    if white == "clobberers" and black != "clobberers":
        rights = "Kkq"
    elif black == "clobberers" and white != "clobberers":
        rights = "KQk"
    start = f"{ARMIES[black][0]}/pppppppp/8/8/8/8/PPPPPPPP/{ARMIES[white][0].upper()} w {rights} - 0 1"
    promotion = "".join(sorted(set(ARMIES[white][0][:4] + ARMIES[black][0][:4])))
    corners = "".join(sorted({ARMIES[white][0][0], ARMIES[black][0][0]}))
    queenside = "castlingQueensideFile = b\n" if white == black == "clobberers" else ""
    sf.load_variant_config(
        f"[{name}:chess]\n{custom}\nstartFen = {start}\npromotionPieceTypes = {promotion}\n"
        f"castlingRookPieces = {corners}\n{queenside}"
    )
    return name, start


def varia_fen(fen, white, black):
    """Fairy-Stockfish's position string as Varia's: the Clobberers' long castling right is
    `L`/`l` (its king goes to b1), and the choices made are written out."""
    parts = fen.split(" ")
    rights = parts[2]
    if white == "clobberers":
        rights = rights.replace("Q", "L")
    if black == "clobberers":
        rights = rights.replace("q", "l")
    parts[2] = rights
    return " ".join(parts) + f" choices=army:{white},{black}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--depth", type=int, default=5, help="perft depth from the true start (at most 6)")
    p.add_argument("--pairing-depth", type=int, default=3, help="perft depth from each pairing's start")
    p.add_argument("--positions", type=int, default=40, help="random-game positions per pairing")
    p.add_argument("--plies", type=int, default=120, help="longest random game")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--varia", default=os.path.join(ROOT, "target", "debug", "varia"))
    args = p.parse_args()
    if args.depth > 6:
        sys.exit("--depth: at most 6 (castling would be reachable)")
    varia = oracle_fsf.Varia(args.varia, "different-armies.var")
    bad = 0
    total = 0
    pairings = list(itertools.product(ARMIES, ARMIES))
    for white, black in pairings:
        variant, start = pairing(white, black)
        if args.depth >= 2:
            total += oracle_fsf.fsf_perft(variant, start, [], args.depth - 2)
        start_v = varia_fen(start, white, black)
        for d in range(1, args.pairing_depth + 1):
            a = oracle_fsf.fsf_perft(variant, start, [], d)
            out, err = varia.run("perft", varia.file, str(d), "--position", start_v)
            b = int(out.split()[-1]) if out else err
            if a != b:
                bad += 1
                print(f"{white}-{black}: perft {d}: DIFFERENCE: Fairy-Stockfish {a}, Varia {b}")
        rng = random.Random(f"{args.seed}-{white}-{black}")
        positions = 0
        while positions < args.positions:
            moves = []
            for _ in range(args.plies):
                over = oracle_fsf.fsf_over(variant, start, moves)
                want = [] if over else sorted(sf.legal_moves(variant, start, moves))
                fen = sf.get_fen(variant, start, moves)
                if not over and sf.is_optional_game_end(variant, start, moves)[0]:
                    break
                from_fen = sorted(sf.legal_moves(variant, fen, [])) if not over else []
                for how, got, expected in (
                    ("after", varia.moves("--position", start_v, "--after", " ".join(moves)), want),
                    ("position", varia.moves("--position", varia_fen(fen, white, black)), from_fen),
                ):
                    if got != expected:
                        bad += 1
                        print(f"{white}-{black}: DIFFERENCE ({how}) at {fen} after {' '.join(moves) or '-'}")
                        print(f"  only Fairy-Stockfish: {sorted(set(expected) - set(got))}")
                        print(f"  only Varia: {sorted(set(got) - set(expected))}")
                positions += 1
                if over or positions >= args.positions:
                    break
                moves.append(rng.choice(want))
        print(f"{white}-{black}: perft 1..{args.pairing_depth} and {positions} random-game positions compared", flush=True)
    if args.depth >= 2:
        got = varia.perft(args.depth)
        print(f"true start: perft {args.depth}: Varia {got}, sum over the 16 pairings of Fairy-Stockfish's perft {args.depth - 2}: {total}")
        bad += got != total
    print(f"total: {bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
