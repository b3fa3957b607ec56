"""Writes random games played by Fairy-Stockfish (pyffish) with their end and result, for
tests/fsf_results.rs to replay in Varia.

Each game starts from a given position string and is played with seeded random moves until
Fairy-Stockfish ends it: no legal move (checkmate, stalemate), an immediate end, or an end a
player could claim (the move rule, repetition, counting: Varia declares those itself). The file
records, per game, the start, the moves, the number of legal moves at every position (0 at the
end where no move is left) and the result: `white`, `black` or `draw`.

A start may carry moves to play first, after a `;` (`FEN;e2e3 e9e8`): the game plays them, then
random moves (for endings random games rarely reach, such as janggimodern's piece moved back and
forth).

Usage: pip install pyffish
       python3 tools/fsf-results.py VARIANT SEED GAMES PLIES FEN[;MOVES] [FEN[;MOVES] ...] > tests/fsf_results/NAME.txt
"""
import random
import sys

import pyffish as sf


def result(fen, value):
    """The winner's colour, or draw, from a value for the side to move."""
    if value == 0:
        return "draw"
    white_to_move = fen.split()[1] == "w"
    return "white" if (value > 0) == white_to_move else "black"


def play(variant, start, rng, plies, forced=()):
    moves, counts = [], []
    while True:
        fen = sf.get_fen(variant, start, moves)
        legal = sf.legal_moves(variant, start, moves)
        counts.append(len(legal))
        if not legal:
            return moves, counts, result(fen, sf.game_result(variant, start, moves)), "no-moves"
        over, value = sf.is_immediate_game_end(variant, start, moves)
        if over:
            counts[-1] = 0
            return moves, counts, result(fen, value), "immediate"
        over, value = sf.is_optional_game_end(variant, start, moves)
        if over:
            counts[-1] = 0
            return moves, counts, result(fen, value), "claim"
        if len(moves) >= plies:
            return moves, counts, "none", "unfinished"
        if len(moves) < len(forced):
            if forced[len(moves)] not in legal:
                sys.exit(f"{forced[len(moves)]} is not legal after {' '.join(moves) or 'the start'} from {start}")
            moves.append(forced[len(moves)])
        else:
            moves.append(rng.choice(sorted(legal)))


def main():
    variant, seed, games, plies = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    starts = sys.argv[5:]
    rng = random.Random(seed)
    print(f"# pyffish {'.'.join(map(str, sf.version()))}, variant {variant}, seed {seed}")
    for k in range(games):
        start, _, forced = starts[k % len(starts)].partition(";")
        moves, counts, res, how = play(variant, start, rng, plies, forced.split())
        print(f"start {start}")
        print(f"moves {' '.join(moves)}")
        print(f"counts {' '.join(map(str, counts))}")
        print(f"result {res} {how}")
        print()


if __name__ == "__main__":
    main()
