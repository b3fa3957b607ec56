"""Cross-checks a shuffled-start variant (chess960 and its kin) against Fairy-Stockfish (pyffish,
with chess960 on).

For each seed it draws Varia's start (`varia play --seed N`, command `fen`), then
- counts perft from that start with pyffish (by recursion) and with `varia perft --position`;
- plays seeded random games with pyffish's moves and, at every position, compares pyffish's
  legal-move list with `varia moves --uci`, reached both by reading pyffish's position string
  (`--position`, Shredder-FEN rights) and by replaying the moves from the start (`--after`,
  castling as the king taking its rook).
With `--bare`, every back-rank piece but kings and rooks is taken off the drawn start first, so
that castlings come at once (and pass attacked cells, blocked cells and rooks shielding the king).

Usage: python3 tools/oracle-shuffled.py FILE.var FSF_VARIANT [--seeds 0,1,2] [--depth 3]
           [--games 2] [--plies 80] [--varia BIN]
Prints one line per check and a summary; exits 1 on any difference.
"""
import argparse
import random
import subprocess
import sys

import pyffish as sf


def varia(args, binary, stdin=None):
    out = subprocess.run([binary] + args, input=stdin, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"varia {' '.join(args)}: {out.stderr.strip()}")
    return out.stdout


def start_fen(binary, path, seed):
    out = varia(["play", "--seed", str(seed), path], binary, stdin="fen\nquit\n")
    for line in out.splitlines():
        if "/" in line:
            return line.split("> ", 1)[-1].strip()
    raise RuntimeError("no position string from `varia play`")


def bare(fen):
    """The position with only kings and rooks left on the first and last rows."""
    rows, rest = fen.split(" ", 1)
    rows = rows.split("/")

    def keep(row):
        out, empty = "", 0
        for ch in row:
            if ch.isdigit():
                empty += int(ch)
            elif ch in "KRkr":
                out += (str(empty) if empty else "") + ch
                empty = 0
            else:
                empty += 1
        return out + (str(empty) if empty else "")

    rows[0], rows[-1] = keep(rows[0]), keep(rows[-1])
    return "/".join(rows) + " " + rest


def fsf_perft(variant, fen, moves, depth):
    legal = sf.legal_moves(variant, fen, moves, True)
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(variant, fen, moves + [m], depth - 1) for m in legal)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("file")
    ap.add_argument("variant")
    ap.add_argument("--seeds", default="0,1,2,3,4")
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--plies", type=int, default=80)
    ap.add_argument("--varia", default="target/debug/varia")
    ap.add_argument("--bare", action="store_true")
    a = ap.parse_args()
    bad = checks = 0
    for seed in [int(s) for s in a.seeds.split(",")]:
        fen = start_fen(a.varia, a.file, seed)
        if a.bare:
            fen = bare(fen)
        want = fsf_perft(a.variant, fen, [], a.depth)
        got = int(varia(["perft", "--position", fen, a.file, str(a.depth)], a.varia).split()[-1])
        checks += 1
        ok = want == got
        bad += not ok
        print(f"seed {seed}: {fen}: perft {a.depth} pyffish {want} varia {got} {'ok' if ok else 'DIFFERENT'}")
        rng = random.Random(seed)
        for g in range(a.games):
            moves = []
            for _ in range(a.plies):
                legal = sorted(sf.legal_moves(a.variant, fen, moves, True))
                at = sf.get_fen(a.variant, fen, moves, True)
                by_fen = sorted(varia(["moves", "--uci", "--position", at, a.file], a.varia).split())
                after = ["--after", " ".join(moves)] if moves else []
                by_moves = sorted(varia(["moves", "--uci", "--position", fen] + after + [a.file], a.varia).split())
                checks += 1
                if legal != by_fen or legal != by_moves:
                    bad += 1
                    print(f"  game {g}: DIFFERENT at {at}: pyffish {legal} by position {by_fen} by moves {by_moves}")
                    break
                if not legal:
                    break
                moves.append(rng.choice(legal))
            print(f"  game {g} (seed {seed}): {len(moves)} plies compared")
    print(f"{checks} checks, {bad} different")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
