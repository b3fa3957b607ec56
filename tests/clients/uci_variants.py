"""python-chess as a UCI GUI for variants: it sends `UCI_Variant` by its own names (`3check`).

Usage: python3 tests/clients/uci_variants.py [VARIA_BIN]   (default target/debug/varia)
Needs `pip install chess`. python-chess checks the name it sends against the option's `var`
list, then plays three-check, crazyhouse and atomic games by its own rules of those variants:
every move Varia sends must be legal there, and every game must reach its end.
"""

import sys

import chess
import chess.engine
import chess.variant

BIN = sys.argv[1] if len(sys.argv) > 1 else "target/debug/varia"


def play_out(engine, board_class, limit, max_plies=400):
    """Varia against itself, both sides through python-chess's board of the variant."""
    board = board_class()
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        move = engine.play(board, limit).move
        assert move in board.legal_moves, f"{board_class.uci_variant}: illegal {move} in {board.fen()}"
        board.push(move)
    return board


def main():
    engine = chess.engine.SimpleEngine.popen_uci([BIN, "uci"])
    try:
        combo = engine.options["UCI_Variant"]
        # The names python-chess sends for its variants, each a value of the combo option.
        for cls in [chess.variant.ThreeCheckBoard, chess.variant.CrazyhouseBoard, chess.variant.AtomicBoard,
                    chess.Board]:
            assert combo.parse(cls.uci_variant) == cls.uci_variant, cls.uci_variant
        for name in ["3check", "crazyhouse", "shogi", "xiangqi", "janggi", "minishogi", "atomic", "seirawan",
                     "grand", "capablanca", "shatranj", "sittuyin", "loop"]:
            combo.parse(name)
        print("UCI_Variant takes:", " ".join(combo.var))
        for cls in [chess.variant.ThreeCheckBoard, chess.variant.CrazyhouseBoard, chess.variant.AtomicBoard]:
            board = play_out(engine, cls, chess.engine.Limit(depth=2))
            outcome = board.outcome(claim_draw=True)
            assert outcome is not None, f"{cls.uci_variant} not finished: {board.fen()}"
            print(f"{cls.uci_variant}: {board.ply()} plies, {outcome.termination.name} {outcome.result()}")
    finally:
        engine.quit()
    print("ok")


if __name__ == "__main__":
    main()
