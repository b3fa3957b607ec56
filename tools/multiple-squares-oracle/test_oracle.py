#!/usr/bin/env python3
"""Self-tests of the oracle against hand-checked facts: the rule text's four examples and the
rulings, plus perft from the start. Plain asserts: run `python3 test_oracle.py`.

If python-chess is installed, the oracle with stops between squares switched off (--plain) is
also checked against it on random chess positions."""

import random

import perft as o


def moves(pos):
    p = o.parse(pos)
    ms = [o.notation(p, m) for m in o.legal(p)]
    assert len(ms) == len(set(ms)), f"duplicate moves in {pos}"
    return set(ms)


def sq(name):
    return o.KEY_SQ[o.BY_NAME[name]]


def after(pos, move):
    return o.play(o.parse(pos), move)


def mated(p):
    return not o.legal(p) and o.in_check(p)


def test_start():
    assert o.perft(o.parse(o.START), 1) == 20
    assert o.perft(o.parse(o.START), 2) == 400
    # no queen, rook or bishop can move in the first two plies
    assert all(m[0] in "abcdefghN" for m in moves(o.START))


def test_names():
    assert o.COVER[o.BY_NAME["a1.5"]] == (0, 8)              # a1, a2
    assert o.COVER[o.BY_NAME["ab1"]] == (0, 1)               # a1, b1
    assert o.COVER[o.BY_NAME["ab1.5"]] == (0, 1, 8, 9)       # a1, b1, a2, b2
    assert sorted(o.sq_name(s) for s in o.COVER[o.BY_NAME["ef3.5"]]) == ["e3", "e4", "f3", "f4"]
    pos = "6k1/6pp/8/8/8/8/8/4K3{Ra1.5,bef3.5} w - - 0 1"
    assert o.write(o.parse(pos)) == pos


EX1 = "7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1"


def test_example1():
    ms = moves(EX1)
    assert "Ra1.5-b1.5" not in ms          # not reachable from a1 or a2
    assert "Ra1.5-a7.5" in ms
    assert "Ra1.5-a1" in ms and "Ra1.5-a2" in ms  # onto its own squares
    assert "Ra1.5-a2.5" in ms              # overlapping its current squares
    assert "Ra1.5-ab1" in ms and "Ra1.5-ab2" in ms  # half a square along a rank
    q = after(EX1, "Ra1.5-a7.5")
    assert q.halves == {o.BY_NAME["a7.5"]: "R"}
    assert q.board[sq("a7")] == "R" and q.board[sq("a8")] == "R"
    assert mated(q)                        # checked along rank 8 from a8
    # the same rook on ab1 moves from a1 and b1 but never "along the grid"
    ms = moves("7k/6pp/8/8/8/8/8/4K3{Rab1} w - - 0 1")
    assert "Rab1-ab2" not in ms
    assert "Rab1-a8" in ms and "Rab1-b8" in ms and "Rab1-a7.5" in ms and "Rab1-b7.5" in ms
    assert "Rab1-a1" in ms and "Rab1-b1" in ms and "Rab1-c1" in ms and "Rab1-cd1" in ms
    assert "Rab1-bc1" in ms                # from a1 past its own b1: overlaps b1
    assert "Rab1-de1" not in ms            # would cover e1 (the king)


EX2 = "8/8/8/7k/8/6P1/8/K1B5 w - - 0 1"


def test_example2():
    ms = moves(EX2)
    assert "Bc1-e3" in ms and "Bc1-ef3.5" in ms and "Bc1-f4" in ms
    q = after(EX2, "Bc1-ef3.5")
    # bishop covers e3 e4 f3 f4: checks h5 from f3 over g4, guards g4 (f3), g5 (f4), g6 (e4),
    # h6 (f4 over g5); the pawn g3 guards h4
    assert o.in_check(q) and mated(q)
    # one square short of a normal stop, half a square further than e3: needs f4, e4 and f3
    assert "Bc1-ef3.5" not in moves("8/8/8/7k/4p3/6P1/8/K1B5 w - - 0 1")


EX3 = "4k3/8/8/3n4/8/8/8/4K3{Bef3.5} b - - 0 1"


def test_example3():
    ms = moves(EX3)
    assert "Nd5xf4" in ms and "Nd5xe3" in ms     # captured on any square it covers
    assert "Nd5-f6" in ms
    q = after(EX3, "Nd5xf4")
    assert q.halves == {}
    for s in ("e3", "e4", "f3"):
        assert q.board[sq(s)] == "."
    assert q.board[sq("f4")] == "n"
    assert o.write(q) == "4k3/8/8/8/5n2/8/8/4K3 w - - 0 2"
    # a pawn captures it diagonally, a king captures it too; it blocks pawn pushes
    ms = moves("4k3/8/8/8/8/8/4P1P1/4K3{bef3.5} w - - 0 1")
    assert "e2xf3" in ms and "g2xf3" in ms
    assert not any(m.startswith("e2-") for m in ms)       # e3 covered: blocked
    # a rook on ef2 covers e2 and f2 and attacks along rank 2 and the e and f files
    pos = "4k3/8/8/8/8/8/8/4K3{ref2} w - - 0 1"
    assert o.in_check(o.parse(pos))
    assert moves(pos) == {"Ke1xe2", "Ke1xf2", "Ke1-d1"}
    q = after(pos, "Ke1xf2")
    assert q.halves == {} and q.board[sq("e2")] == "."


EX4 = "4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1"


def test_example4():
    ms = moves(EX4)
    assert not any(m.startswith("f2-") or m.startswith("g2-") for m in ms)
    assert "h2-h3" in ms and "h2-h4" in ms
    assert "Ng1-f3" not in ms and "Ne1-f3" not in ms
    assert "Ng1-h3" in ms and "Ng1-e2" in ms and "Ne1-d3" in ms
    for t in ("f4", "g5", "h6"):
        assert "Be3-" + t not in ms
    assert "Be3-d4" in ms and "Be3-d2" in ms
    # the queen moves from f3, f4, g3 and g4
    for m in ("Qfg3.5-f8", "Qfg3.5-g8", "Qfg3.5-a4", "Qfg3.5-fg4", "Qfg3.5-h4", "Qfg3.5-c7", "Qfg3.5-h3",
              "Qfg3.5-fg4.5", "Qfg3.5-f3", "Qfg3.5-g4", "Qfg3.5-gh3.5"):
        assert m in ms, m
    assert "Qfg3.5-a3" not in ms           # from g3 over its own f3, then the bishop on e3
    assert "Qfg3.5-fg5.5" not in ms        # along the grid: not a queen move from any square
    assert "Qfg3.5-e3" not in ms
    assert "Qfg3.5-ef3.5" not in ms       # would cover e3 (own bishop)


def test_stops():
    # stopping between squares never captures, and needs every covered square empty
    ms = moves("4k3/8/8/8/8/p7/8/R3K3 w - - 0 1")
    assert "Ra1-a1.5" in ms and "Ra1-a2" in ms and "Ra1xa3" in ms
    assert "Ra1-a2.5" not in ms and "Ra1-a3.5" not in ms
    assert "Ra1-ab1" in ms and "Ra1-cd1" in ms and "Ra1-de1" not in ms
    # diagonal stops need the two corner squares, passing does not
    ms = moves("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")
    assert "Bc1-cd1.5" in ms and "Bc1-bc1.5" in ms
    ms = moves("4k3/8/8/8/8/8/2P5/2BQK3 w - - 0 1")
    assert "Bc1-cd1.5" not in ms and "Bc1-d2" in ms and "Bc1-de2.5" in ms and "Bc1-e3" in ms
    assert "Bc1-bc1.5" not in ms        # covers c2 (own pawn)
    # a queen stops between four squares only on a diagonal step
    ms = moves("4k3/8/8/8/3Q4/8/8/4K3 w - - 0 1")
    assert "Qd4-de4.5" in ms and "Qd4-d4.5" in ms and "Qd4-de4" in ms
    assert "Qd4-de5" not in ms


def test_attacks_and_pins():
    # a rook on ab1 gives check from b1 up the b-file; a8 and b7 are attacked from a1 and b1
    pos = "1k6/8/8/8/8/8/8/4K3{Rab1} b - - 0 1"
    assert o.in_check(o.parse(pos))
    assert moves(pos) == {"Kb8-c7", "Kb8-c8"}
    # its own other square does not block it: a rook on ab1 attacks c1..h1 from a1 too
    assert "Kd2-d1" not in moves("8/8/8/8/8/8/3k4/8{Rab1} b - - 0 1")
    # pinned by a piece between squares: the knight on e4 is pinned by a rook covering e7, e8
    ms = moves("8/8/8/8/4n3/8/8/4k1K1{Re7.5} b - - 0 1")
    assert not any(m.startswith("N") for m in ms)
    # a black bishop on fg2.5 gives check to e1 from f2
    assert o.in_check(o.parse("4k3/8/8/8/8/8/8/4K3{bfg2.5} w - - 0 1"))


def test_castling():
    base = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    ms = moves(base)
    assert "O-O" in ms and "O-O-O" in ms
    q = after(base, "O-O")
    assert o.write(q).startswith("r3k2r/8/8/8/8/8/8/R4RK1 b kq")
    # a covered square is not empty
    ms = moves("r3k3/8/8/8/8/8/8/R3K3{Qfg1.5} w Qq - 0 1")
    assert "O-O-O" in ms
    ms = moves("r3k3/8/8/8/8/8/8/R3K3{Qfg1.5} w KQq - 0 1")
    assert "O-O" not in ms
    # a rook covering h1 from h1.5 is not on h1
    assert "O-O" not in moves("4k3/8/8/8/8/8/8/4K3{Rh1.5} w K - 0 1")
    # attacked path from a piece between squares: a black rook on fg5.5 attacks f1 and g1
    ms = moves("4k3/8/8/8/8/8/8/R3K2R{rfg5.5} w KQ - 0 1")
    assert "O-O" not in ms and "O-O-O" in ms
    # rights: lost when the rook leaves for a half location
    q = after(base, "Rh1-h1.5")
    assert o.write(q).split()[2] == "Qkq"
    q = after(base, "Ra1xa8")
    assert o.write(q).split()[2] == "Kk"


def test_pawns():
    # en passant
    p = after("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2-e4")
    assert o.write(p).split()[3] == "e3"
    q = o.play(p, "d4xe3")
    assert o.write(q) == "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2"
    # promotion, including capturing a piece between squares on the last rank
    ms = moves("4k3/4P3/8/8/8/8/8/4K3{rcd8} w - - 0 1")
    assert {"e7xd8=Q", "e7xd8=R", "e7xd8=B", "e7xd8=N"} <= ms
    assert "e7-e8=Q" not in ms and "e7-e8=N" not in ms   # e8 is the king... occupied
    # double step needs both squares empty (a covered square is not empty)
    assert "e2-e4" in moves("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")
    ms = moves("4k3/8/8/8/8/8/4P3/4K3{bde4} w - - 0 1")
    assert "e2-e3" in ms and "e2-e4" not in ms


def test_plain_against_python_chess():
    try:
        import chess
    except ImportError:
        print("python-chess not installed: plain-chess check skipped")
        return
    rng = random.Random(5)
    o.PLAIN = True
    try:
        for _ in range(30):
            b = chess.Board()
            for _ in range(rng.randint(0, 60)):
                ms = list(b.legal_moves)
                if not ms:
                    break
                b.push(rng.choice(ms))
            p = o.parse(b.fen())
            assert len(o.legal(p)) == b.legal_moves.count(), b.fen()
            assert o.perft(p, 2) == _perft(b, 2), b.fen()
    finally:
        o.PLAIN = False


def _perft(b, d):
    if d == 0:
        return 1
    n = 0
    for m in b.legal_moves:
        b.push(m)
        n += _perft(b, d - 1)
        b.pop()
    return n


if __name__ == "__main__":
    tests = [v for k, v in sorted(globals().items()) if k.startswith("test_")]
    for t in tests:
        t()
        print("ok", t.__name__)
    print(len(tests), "tests passed")
