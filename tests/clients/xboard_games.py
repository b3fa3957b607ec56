"""python-chess as an XBoard (CECP v2) GUI against `varia xboard`: complete games with castling,
analysis, and the features a GUI needs.

Usage: python3 tests/clients/xboard_games.py [VARIA_BIN]   (default target/debug/varia)
Needs `pip install chess`. Every move Varia sends must be legal for python-chess's FIDE rules,
every game must reach its end, and both Varia and its opponent must castle.
"""

import random
import sys

import chess
import chess.engine

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/debug/varia"


def opponent(board, rng):
    """Castles when it can, else takes the biggest piece it can, else plays at random."""
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    if castles:
        return castles[0]
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    captures = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if captures:
        return max(captures, key=lambda m: values[board.piece_at(m.to_square).piece_type])
    return rng.choice(moves)


def game(engine, side, fen, opening, rng, limit):
    board = chess.Board(fen)
    for san in opening:
        board.push_san(san)
    castled = {"varia": False, "opponent": False}
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        if board.turn == side:
            move = engine.play(board, limit).move
            assert move in board.legal_moves, f"Varia sent an illegal move {move} in {board.fen()}"
            castled["varia"] |= board.is_castling(move)
        else:
            move = opponent(board, rng)
            castled["opponent"] |= board.is_castling(move)
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None, f"unfinished after {board.ply()} plies: {board.fen()}"
    return board, outcome, castled


def main():
    rng = random.Random(20)
    engine = chess.engine.SimpleEngine.popen_xboard([BIN, "xboard"], timeout=30)
    try:
        assert engine.id.get("name") == "Varia", engine.id
        castles = {"varia": 0, "opponent": 0}
        opening = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]
        for i, side in enumerate([chess.WHITE, chess.BLACK, chess.WHITE, chess.BLACK]):
            board, outcome, castled = game(engine, side, chess.STARTING_FEN, opening if i < 2 else [], rng,
                                           chess.engine.Limit(time=0.05))
            for k in castles:
                castles[k] += castled[k]
            print(f"game {i + 1}: Varia {'white' if side else 'black'}, {board.ply()} plies, "
                  f"{outcome.termination.name} {outcome.result()}, castled {castled}")
            assert outcome.winner in (side, None), f"Varia lost to the scripted player: {board.fen()}"
        # Castling is Varia's only mate in one here, for each side.
        mate = chess.Board("8/8/8/5N2/8/2N2k1P/8/4K2R w K - 0 1")
        for side, fen in [(chess.WHITE, mate.fen()), (chess.BLACK, mate.mirror().fen())]:
            board, outcome, castled = game(engine, side, fen, [], rng, chess.engine.Limit(depth=2))
            assert castled["varia"] and outcome.termination == chess.Termination.CHECKMATE, board.move_stack
            castles["varia"] += 1
            print(f"castling mate as {'white' if side else 'black'}: {board.move_stack}")
        assert castles["varia"] > 0 and castles["opponent"] > 0, castles
        # Analysis: thinking output with depth, score and principal variation.
        board = chess.Board("6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1")
        info = engine.analyse(board, chess.engine.Limit(time=1))
        assert info["score"].white() == chess.engine.Mate(1), info
        assert info["pv"][0] == chess.Move.from_uci("d1d8"), info
        # A clock instead of a fixed time per move.
        board = chess.Board()
        move = engine.play(board, chess.engine.Limit(white_clock=5, black_clock=5, white_inc=0.1)).move
        assert move in board.legal_moves
        print("analysis:", info["score"], info["pv"], "clock move:", move)
    finally:
        engine.quit()
    print("ok")


if __name__ == "__main__":
    main()
