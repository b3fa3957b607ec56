#!/usr/bin/env python3
"""Self-tests of the Safety in Numbers oracle (plain asserts), from the rule text's examples and
the published FIDE perft counts (with crowds switched off). About 15 s."""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.dont_write_bytecode = True
import perft as o  # noqa: E402


def moves(pos, after=""):
    return sorted(o.notation(m) for m in o.legal(o.play(o.parse(pos), after)))


def onto(ms, sq):
    return sorted(m for m in ms if m.endswith(sq))


def test_fide_underneath():
    """With joins switched off the generator is FIDE chess: the published perft counts."""
    o.FIDE = True
    try:
        for fen, depth, count in [
                (o.START, 4, 197281),
                ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 3, 97862),
                ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1", 4, 43238),
                ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1", 3, 9467),
                ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8", 3, 62379)]:
            assert o.perft(o.parse(fen), depth) == count, fen
    finally:
        o.FIDE = False


def test_text_examples():
    # "put both Kings on f3; now the Pawns at e2 or g2 can move to f3, joining the crowd, by
    # using their capturing power; or, the Pawn at f2 [...] The Knight at g1 can join"
    kings = "rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1"
    assert onto(moves(kings), "f3") == ["Ng1-f3", "e2-f3", "f2-f3", "g2-f3"]
    # "the opening position with a Black Rook on f3; the Pawn at f2 can move to f3, creating a
    # crowd, or the Pawns at e2 or g2 can capture at f3 [...] or the Knight at g1 can capture"
    rook = "rnbqkbnr/pppppppp/8/8/8/5r2/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    assert onto(moves(rook), "f3") == ["Ng1xf3", "e2xf3", "f2-f3", "g2xf3"]
    # The example game; after 5...Qe7-e4+ the only answer is the king joining the crowd.
    game = "e2-e4 e7-e5 Nb1-c3 e5-e4 Nc3-e4 d7-d5 Ke1-e2 Qd8-e7 Ke2-e3 Qe7-e4"
    p = o.play(o.parse(o.START), game)
    assert o.in_check(p)
    assert [o.notation(m) for m in o.legal(p)] == ["Ke3-e4"]
    p = o.play(p, "Ke3-e4")
    assert o.write(p) == "rnb1kbnr/ppp2ppp/8/3p4/4(KqNPp)3/8/PPPP1PPP/R1BQ1BNR b kq - 5 6"
    # "the Knight is now free to leave e4, even if the Black pieces have left"
    p = o.play(p, "Qe4-e7 a2-a3 e4-e3")
    assert p.board[o.parse_sq("e4")] == "KNP"
    assert "Ne4-c3" in [o.notation(m) for m in o.legal(p)]
    # Breaking up a crowd: 1. e4 e5 2. e4-e5? Nc6 3 Nf3? e5-e4!
    p = o.play(o.parse(o.START), "e2-e4 e7-e5 e4-e5 Nb8-c6 Ng1-f3 e5-e4")
    assert o.write(p) == "r1bqkbnr/pppp1ppp/2n5/4P3/4p3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 0 4"
    assert "e4xf3" in moves(o.write(o.play(p, "a2-a3")))
    assert "Nc6xe5" in moves(o.write(o.play(p, "a2-a3")))
    # Pawns cannot be blockaded: 1. e4 e6 2. d4 d5 3. e5, then all four pawn joins.
    p = o.play(o.parse(o.START), "e2-e4 e7-e6 d2-d4 d7-d5 e4-e5")
    black = [o.notation(m) for m in o.legal(p)]
    assert "d5-d4" in black and "e6-e5" in black
    white = [o.notation(m) for m in o.legal(o.play(p, "a7-a6"))]
    assert "d4-d5" in white and "e5-e6" in white


def test_crowd_rules():
    # No capture on a crowd; a crowd of one's own pieces cannot be joined, the opponent's can.
    p = "4k3/8/8/8/3(NB)4/8/8/R3K3 w - - 0 1"
    assert not any(m.endswith("d4") for m in moves(p)) and moves(p.replace(" w ", " b "))
    assert "Ra1-a4" in moves(p)
    own = "4k3/8/8/8/r2(NB)4/8/8/4K3 b - - 0 1"
    assert "Ra4-d4" in moves(own) and "Ra4xd4" not in moves(own)
    # A king in a crowd is not in check; alone it is.
    assert not o.in_check(o.parse("4k3/8/8/8/8/8/8/r3(KN)3 w - - 0 1"))
    assert o.in_check(o.parse("4k3/8/8/8/8/8/8/r3K3 w - - 0 1"))
    # A crowd keeps blocking when a piece leaves it; a lone piece is pinned.
    assert "Ne2-c3" in moves("4k3/8/8/8/4r3/8/4(NB)3/4K3 w - - 0 1")
    assert "Ne2-c3" not in moves("4k3/8/8/8/4r3/8/4N3/4K3 w - - 0 1")
    # En passant only against a pawn alone on its square.
    assert "e5xd6" in moves("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert "e5xd6" not in moves("4k3/8/8/3(Pp)P3/8/8/8/4K3 w - d6 0 1")
    # A double step onto a lone enemy joins and marks no en passant square.
    p = o.play(o.parse("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1"), "e2-e4")
    assert p.board[o.parse_sq("e4")] == "nP" and p.ep == -1
    # A pawn steps onto a lone king and promotes.
    assert "a2-a1=Q" in moves("4k3/8/8/8/8/8/p7/K7 b - - 0 1")
    # Castling needs king and rook alone, and a path no piece (crowds included) attacks.
    ms = moves("r3k2r/8/8/1(qN)6/8/8/8/R3K2R w KQkq - 0 1")
    assert "O-O-O" in ms and "O-O" not in ms
    assert "O-O" not in moves("r3k2r/8/8/8/8/8/8/R3K2(Rn) w KQkq - 0 1")
    assert not any(m.startswith("O-O") for m in moves("r3k2r/8/8/8/8/8/8/R3(Kp)2R w KQkq - 0 1"))


def test_round_trip():
    for s in ["rnb1kbnr/ppp2ppp/8/3p4/4(KqNPp)3/8/PPPP1PPP/R1BQ1BNR b kq - 5 6",
              "8/8/8/8/8/8/8/(Kk)7 w - - 0 1"]:
        assert o.write(o.parse(s)) == s
    assert o.write(o.parse("8/8/8/8/8/8/8/(kK)7 w - - 0 1")).startswith("8/8/8/8/8/8/8/(Kk)7")


if __name__ == "__main__":
    for name, fn in list(globals().items()):
        if name.startswith("test_"):
            fn()
            print("ok", name)
