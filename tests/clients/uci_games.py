"""python-chess as a UCI GUI against `varia uci`: complete games with castling, MultiPV, ponder.

Usage: python3 tests/clients/uci_games.py [VARIA_BIN]   (default target/debug/varia)
Needs `pip install chess`. Every move Varia sends must be legal for python-chess's own FIDE
rules, every game must reach its end, and both Varia and its opponent must castle.
"""

import random
import sys
import time

import chess
import chess.engine

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/debug/varia"


def scripted_reply(board: chess.Board, rng: random.Random) -> chess.Move:
    """The opponent: castles when it can, else takes the biggest piece it can, else plays at random."""
    moves = list(board.legal_moves)
    castles = [m for m in moves if board.is_castling(m)]
    if castles:
        return castles[0]
    values = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9}
    captures = [m for m in moves if board.is_capture(m) and board.piece_at(m.to_square)]
    if captures:
        return max(captures, key=lambda m: values.get(board.piece_at(m.to_square).piece_type, 0))
    return rng.choice(moves)


def play_game(engine, varia_side, opening, rng, limit, fen=chess.STARTING_FEN):
    board = chess.Board(fen)
    for san in opening:
        board.push_san(san)
    varia_castled = opponent_castled = False
    while not board.is_game_over(claim_draw=True) and board.ply() < 400:
        if board.turn == varia_side:
            result = engine.play(board, limit)
            move = result.move
            assert move in board.legal_moves, f"Varia sent an illegal move {move} in {board.fen()}"
            varia_castled |= board.is_castling(move)
        else:
            move = scripted_reply(board, rng)
            opponent_castled |= board.is_castling(move)
        board.push(move)
    outcome = board.outcome(claim_draw=True)
    assert outcome is not None, f"game not finished after {board.ply()} plies: {board.fen()}"
    return board, outcome, varia_castled, opponent_castled


def main():
    rng = random.Random(21)
    engine = chess.engine.SimpleEngine.popen_uci([BIN, "uci"])
    try:
        # Openings that let both sides castle king-side soon.
        opening = ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"]
        limit = chess.engine.Limit(time=0.05)
        castled = {"varia": 0, "opponent": 0}
        for game, side in enumerate([chess.WHITE, chess.BLACK, chess.WHITE, chess.BLACK]):
            engine.configure({"Hash": 16})
            board, outcome, v, o = play_game(engine, side, opening if game < 2 else [], rng, limit)
            castled["varia"] += v
            castled["opponent"] += o
            print(f"game {game + 1}: Varia {'white' if side else 'black'}, {board.ply()} plies, "
                  f"{outcome.termination.name} {outcome.result()}, Varia castled {v}, opponent castled {o}")
            assert outcome.winner in (side, None), f"Varia lost to the scripted player: {board.fen()}"
        # Castling is Varia's only mate in one here (the rook alone leaves g2 free), for each side.
        mate = chess.Board("8/8/8/5N2/8/2N2k1P/8/4K2R w K - 0 1")
        for side, fen in [(chess.WHITE, mate.fen()), (chess.BLACK, mate.mirror().fen())]:
            board, outcome, v, o = play_game(engine, side, [], rng, chess.engine.Limit(depth=2), fen)
            assert v and outcome.termination == chess.Termination.CHECKMATE, board.move_stack
            castled["varia"] += v
            print(f"castling mate as {'white' if side else 'black'}: {board.move_stack}")
        # Varia against itself, both sides through python-chess.
        board = chess.Board()
        board.push_san("e4")
        board.push_san("e5")
        while not board.is_game_over(claim_draw=True) and board.ply() < 300:
            move = engine.play(board, chess.engine.Limit(depth=2)).move
            assert move in board.legal_moves, f"illegal {move} in {board.fen()}"
            castled["varia"] += board.is_castling(move)
            board.push(move)
        print(f"self-play: {board.ply()} plies, {board.result(claim_draw=True)}")
        assert castled["varia"] > 0 and castled["opponent"] > 0, castled
        # Two lines from analyse(multipv=2), each with its own first move.
        board = chess.Board("r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
        infos = engine.analyse(board, chess.engine.Limit(depth=4), multipv=2)
        assert len(infos) == 2, infos
        firsts = [i["pv"][0] for i in infos]
        assert firsts[0] != firsts[1] and all(m in board.legal_moves for m in firsts), firsts
        print("multipv 2:", [(board.san(i["pv"][0]), str(i["score"].white())) for i in infos])
        # Periodic info during a long search, then `stop`.
        with engine.analysis(chess.Board(), chess.engine.Limit(time=2.5)) as analysis:
            seen = [info for info in analysis]
        assert any("hashfull" in i and "depth" in i and "pv" not in i for i in seen), seen
        # Pondering: go ponder, then ponderhit.
        board = chess.Board()
        result = engine.play(board, chess.engine.Limit(time=0.2), ponder=True)
        assert result.move in board.legal_moves
        time.sleep(0.3)
        print("castled:", castled, "ponder:", result.move, result.ponder)
    finally:
        engine.quit()
    print("ok")


if __name__ == "__main__":
    main()
