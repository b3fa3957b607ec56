"""The pyffish-compatible layer: pyffish's calls, as its own examples make them for the games Varia bundles, give pyffish's answers with `import varia as sf`."""

import pytest

import varia as sf

CHESS = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
CAPA = "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
XIANGQI = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
GRAND = "r8r/1nbqkcabn1/pppppppppp/10/10/10/10/PPPPPPPPPP/1NBQKCABN1/R8R w - - 0 1"
JANGGI = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"


def test_module_information():
    assert len(sf.version()) == 3
    assert sf.info().startswith("Varia")
    assert {"chess", "xiangqi", "janggi", "shogi", "3check"} <= set(sf.variants())
    assert sf.set_option("UCI_Variant", "capablanca") is None
    with pytest.raises(ValueError):
        sf.set_option("NoSuchOption", 1)
    assert not sf.two_boards("chess")
    assert not sf.captures_to_hand("seirawan")
    assert sf.captures_to_hand("crazyhouse")


def test_start_fen():
    assert sf.start_fen("chess") == CHESS
    assert sf.start_fen("capablanca") == CAPA
    assert sf.start_fen("xiangqi") == XIANGQI
    assert sf.start_fen("grand") == GRAND
    assert sf.start_fen("janggi") == JANGGI


def test_legal_moves():
    assert sf.legal_moves("capablanca", "10/10/10/10/10/k9/10/K9 w - - 0 1", []) == ["a1b1"]
    assert "a10b10" in sf.legal_moves("grand", GRAND, ["a3a5"])
    assert "i10h10" in sf.legal_moves("xiangqi", XIANGQI, ["h3h10"])
    seirawan = "rnbq3r/pp2bkpp/8/2p1p2K/2p1P3/8/PPPP1PPP/RNB4R[EHeh] b ABCHabcdh - 0 10"
    assert "c8g4h" in sf.legal_moves("seirawan", seirawan, [])
    # A janggi king may pass by moving to its own square.
    assert sf.legal_moves("janggi", "4k4/c7R/9/3R1R3/9/9/9/9/9/3K5 b - - 0 1", []) == ["e10e10"]
    assert len(sf.legal_moves("chess", "startpos", [])) == 20
    with pytest.raises(ValueError):
        sf.legal_moves("chess", CHESS, ["e2e5"])


def test_get_fen():
    assert sf.get_fen("chess", CHESS, []) == CHESS
    assert sf.get_fen("capablanca", CAPA, []) == CAPA
    assert sf.get_fen("xiangqi", XIANGQI, []) == XIANGQI
    assert sf.get_fen("chess", CHESS, ["e2e4", "c7c5", "g1f3"]) == (
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    )
    crazyhouse = sf.get_fen("crazyhouse", sf.start_fen("crazyhouse"), ["e2e4", "d7d5", "e4d5", "d8d5"])
    assert crazyhouse.startswith("rnb1kbnr/ppp1pppp/8/3q4/8/8/PPPP1PPP/RNBQKBNR[Pp] w KQkq")


def test_get_san():
    assert sf.get_san("chess", CHESS, "e2e4") == "e4"
    assert sf.get_san("chess", CHESS, "g1f3") == "Nf3"
    fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert sf.get_san_moves("chess", fen, ["e2e4", "e7e5", "g1f3", "b8c6"]) == ["e4", "e5", "Nf3", "Nc6"]
    mate = ["f2f3", "e7e5", "g2g4"]
    assert sf.get_san("chess", CHESS, "b1c3", notation=sf.NOTATION_SAN) == "Nc3"
    assert sf.get_san_moves("chess", CHESS, mate + ["d8h4"])[-1] == "Qh4#"


def test_gives_check_and_is_capture():
    assert not sf.gives_check("chess", CHESS, [])
    assert sf.gives_check("chess", CHESS, ["e2e4", "f7f5", "d1h5"])
    assert not sf.gives_check("chess", CHESS, ["e2e4", "f7f5", "d1h5", "g7g6"])
    assert sf.is_capture("chess", CHESS, ["e2e4", "d7d5"], "e4d5")
    assert not sf.is_capture("chess", CHESS, ["e2e4", "d7d5"], "e4e5")
    assert sf.is_capture("chess", "rnbqkbnr/ppp1pppp/8/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 1", [], "e5d6")


def test_game_result_and_game_ends():
    # The side to move is mated: the value is from its side.
    assert sf.game_result("chess", CHESS, ["f2f3", "e7e5", "g2g4", "d8h4"]) == -sf.VALUE_MATE
    assert sf.game_result("chess", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", []) == sf.VALUE_DRAW
    # Xiangqi: a player without a move loses, in check or not.
    assert sf.game_result("xiangqi", "3k5/2R1R4/9/9/9/9/9/9/9/4K4 b - - 0 1", []) == -sf.VALUE_MATE
    assert sf.is_immediate_game_end("chess", CHESS, []) == (False, 0)
    # Three-check: the third check wins at once.
    three = sf.start_fen("3check")
    checks = ["e2e4", "e7e5", "f1c4", "b8c6", "c4f7", "e8f7", "d1h5", "g7g6", "h5f3"]
    assert sf.is_immediate_game_end("3check", three, checks) == (True, -sf.VALUE_MATE)
    assert sf.is_optional_game_end("chess", CHESS, []) == (False, 0)
    repeat = ["g1f3", "g8f6", "f3g1", "f6g8"] * 2
    assert sf.is_optional_game_end("chess", CHESS, repeat) == (True, sf.VALUE_DRAW)
    assert sf.has_insufficient_material("chess", CHESS, []) == (False, False)


def test_validate_fen_and_what_varia_has_not():
    assert sf.validate_fen(CHESS, "chess") == sf.FEN_OK
    assert sf.validate_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1", "chess") < 0
    with pytest.raises(sf.error, match="variants.ini"):
        sf.load_variant_config("[mychess:chess]\n")
    with pytest.raises(sf.error):
        sf.legal_moves("chess", CHESS, [], True)


def test_a_rule_file_is_a_variant(root):
    path = str(root / "variants" / "chess.var")
    assert sf.start_fen(path) == CHESS
    assert len(sf.legal_moves(path, "startpos", ["e2e4"])) == 20
