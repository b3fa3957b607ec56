"""The object API: games from names, files and text, positions, moves, notation, results, perft and search; errors as located VariaError."""

import pytest

import varia
from conftest import ROOT


def test_a_bundled_game_loads_by_name_and_by_path():
    by_name = varia.Game("chess")
    by_path = varia.Game(str(ROOT / "variants" / "chess.var"))
    assert by_name.title == by_path.title == "Chess"
    assert by_name.players == ["white", "black"]
    assert len(by_name.cells) == 64
    assert by_name.start_fen == "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    names = [name for name, _, _ in varia.bundled()]
    assert "hans38" in names and "xiangqi" in names


def test_a_zrf_file_loads(tmp_path):
    zrf = tmp_path / "tiny.zrf"
    zrf.write_text(
        """(game (title "Tiny") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 50 50) (dimensions ("a/b/c" (50 0)) ("3/2/1" (0 50)))
    (directions (n 0 -1) (s 0 1) (e 1 0) (w -1 0))))
  (piece (name King) (image White "K.bmp" Black "K.bmp") (moves (n add) (s add) (e add) (w add)))
  (board-setup (White (King a1)) (Black (King c3)))
  (win-condition (White Black) (captured King)))
"""
    )
    game = varia.Game(str(zrf))
    assert game.title == "Tiny"
    assert game.num_players == 2
    assert len(game.start().legal_moves()) == 2


def test_a_bad_rule_file_raises_a_located_error(tmp_path):
    bad = tmp_path / "bad.var"
    bad.write_text('variant "Bad"\nboard { grid 8 x }\n')
    with pytest.raises(varia.VariaError) as e:
        varia.Game(str(bad))
    assert "bad.var:2:18" in str(e.value)
    with pytest.raises(varia.VariaError) as e:
        varia.Game.from_text('variant "Bad"\nboard { grid 8 x }\n', name="mine.var")
    assert "mine.var:2:18" in str(e.value)
    with pytest.raises(varia.VariaError, match="nor is it a bundled variant"):
        varia.Game("no-such-game")


def test_bad_positions_and_moves_raise_value_errors():
    game = varia.Game("chess")
    with pytest.raises(varia.VariaError, match="<position>:1:"):
        game.position("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1")
    pos = game.start()
    with pytest.raises(ValueError, match="e2e5"):
        pos.push("e2e5")
    with pytest.raises(varia.VariaError, match="move 2"):
        game.position(moves=["e2e4", "e2e4"])
    with pytest.raises(IndexError):
        pos.pop()


def test_moves_are_made_and_taken_back():
    pos = varia.Game("chess").start()
    moves = pos.legal_moves()
    assert len(moves) == 20
    e4 = next(m for m in moves if m == "e2e4")
    assert (e4.uci, e4.long, e4.from_cell, e4.to_cell, e4.kind) == ("e2e4", "e2-e4", "e2", "e4", "move")
    pos.push(e4)
    pos.push("e7e5")
    pos.push("Nf3")
    assert pos.fen == "rnbqkbnr/pppp1ppp/8/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    assert [m.uci for m in pos.move_stack] == ["e2e4", "e7e5", "g1f3"]
    assert pos.pop() == "g1f3"
    copy = pos.copy()
    copy.push("d2d4")
    assert pos.ply == 2 and copy.ply == 3
    assert pos.san("g1f3") == "Nf3"


def test_checks_captures_results_and_notation():
    game = varia.Game("chess")
    pos = game.position(moves=["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6"])
    assert pos.is_capture("h5f7") and not pos.is_capture("h5h4")
    assert pos.gives_check("h5f7")
    assert pos.san("h5f7") == "Qxf7#"
    pos.push("h5f7")
    assert pos.is_check()
    assert pos.result() == (0, "checkmate")
    assert pos.is_game_over()
    assert pos.legal_moves() == []
    drawn = game.position("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert drawn.result() == (None, "stalemate")


def test_drops_castling_and_several_actions_a_turn():
    zh = varia.Game("crazyhouse").position(moves=["e2e4", "d7d5", "e4d5", "d8d5"])
    assert zh.legal_moves() and any(m.is_drop for m in zh.legal_moves())
    assert "P@e6" in zh.uci_moves()
    castle = varia.Game("chess").position("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castle.parse_move("e1g1").kind == "castle"
    hans = varia.Game("hans38").start()
    first = hans.legal_moves()[0]
    hans.push(first)
    assert hans.turn == 0 or hans.action_index == 0


def test_perft_counts_the_move_tree():
    assert varia.Game("chess").start().perft(3) == 8902
    assert varia.Game("xiangqi").start().perft(2) == 1920
    assert varia.perft("chess", "startpos", ["e2e4"], 2) == 600


def test_analyse_finds_a_mate_and_obeys_its_limits():
    pos = varia.Game("chess").position("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    found = pos.analyse(depth=3)
    assert found["best"] == "a1a8"
    assert found["mate"] == 1
    assert [m.uci for m in found["pv"]] == ["a1a8"]
    timed = varia.Game("chess").start().analyse(time=0.2)
    assert timed["best"] is not None and timed["seconds"] < 5
    assert varia.Game("chess").start().analyse(nodes=2000)["nodes"] <= 4000
    with pytest.raises(varia.VariaError):
        pos.analyse(depth=0)
