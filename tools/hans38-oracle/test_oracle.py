#!/usr/bin/env python3
"""Self-tests of the Hans38 oracle: the rule text's claims and examples and the rulings (see
README.md). Plain asserts: run `python3 test_oracle.py` (from this directory or with it on
PYTHONPATH)."""

import os
import random
import subprocess
import sys

import perft as o

HERE = os.path.dirname(os.path.abspath(__file__))


def mode(name=""):
    o.R.neutral = name in ("neutral", "infinite", "occupied")
    o.R.infinite = name in ("infinite", "occupied")
    o.R.occupied = name == "occupied"
    o.R.postal = name in ("postal", "plus")
    o.R.plus = name == "plus"
    o.R.end_check = o.R.actions = o.R.old_rule = o.R.forced_end = False


def start(moves=""):
    return o.play(o.parse(o.START), moves)


def acts(p):
    ms = [o.notation(p, m) for m in o.legal(p)]
    assert len(ms) == len(set(ms)), "duplicate actions"
    return set(ms)


def turn_set(p):
    return {s for s, _ in o.units(p)}


def sq(n):
    return o.parse_sq(n)


def illegal(p, tok):
    return o.find(p, tok) is None


# ---------------------------------------------------------------- Hans38


def test_first_move():
    """'Each player's first move must be to place a square on the board, because there simply
    is no other legal move': all 32 squares are occupied (nothing to move), every piece move
    needs a square at its destination and ranks 3-6 have none, so White's 32 actions are the
    32 placements on the 32 holes of ranks 3-6."""
    mode()
    p = start()
    ms = o.legal(p)
    assert len(ms) == 32 and all(m[0] == o.PLACE for m in ms)
    assert {o.name(m[2]) for m in ms} == {f + r for f in o.FILES for r in "3456"}
    # Black's replies: 31 placements, plus the pieces that can land on White's square (a6, c6,
    # f6, h6: pawn or knight; b6, d6, e6, g6: pawn): 32 * 31 + 12 = 1004
    assert o.perft(p, 2) == 1004
    q = start("@@d4")
    assert all(m[0] == o.PLACE for m in o.legal(q)) and len(o.legal(q)) == 31
    # 'Each player's first move must be to place a square': true for White, not for Black,
    # whose pieces can take a square White placed on rank 6 (12 such first moves in all; the
    # text's own stalemate line starts 1. @@a6 a7-a6)
    firsts = [x for m in o.legal(p) for x in acts(o.make(p, m)) if not x.startswith("@@")]
    assert len(firsts) == 12
    mode("neutral")      # with neutral squares Black may also move White's placed square
    assert "@d4-d6" in acts(start("@@d4"))
    mode()
    assert {a for a in acts(start("@@c6")) if not a.startswith("@@")} == {"Nb8-c6", "c7-c6"}
    # perft regression (this oracle's own numbers)
    assert [o.perft(p, d) for d in (1, 2, 3)] == [32, 1004, 44212]


def test_stalemate_in_three():
    """'The shortest win by stalemate is 3 turns: White places at a6, Black captures the square,
    White places at b6, and so on.' After White's third placement is taken too, White has no
    square in reserve, no empty square of its own (ranks 1-2 are full, a6/b6/c6 are under Black
    pawns and now Black's) and no piece can reach a square: no legal action, not in check:
    stalemate, which loses."""
    mode()
    p = start("@@a6 a7-a6")
    assert p.sqs[sq("a6")] == o.BSQ                 # captured by the pawn's straight step
    p = o.play(p, "@@b6 b7-b6")
    assert p.sqs[sq("b6")] == o.BSQ and p.res == [1, 3]
    assert acts(p) >= {"@@c6"}
    p = o.play(p, "@@c6 c7-c6")
    assert p.white and p.res == [0, 3]
    assert o.legal(p) == [] and not o.in_check(p)   # stalemate: White loses
    # the knight may take the square instead (Nb8-a6 ... ); same result
    q = start("@@a6 Nb8-a6 @@b6 b7-b6 @@c6 c7-c6")
    assert o.legal(q) == []
    # nothing shorter exists: a side with a square in reserve always has a placement (a
    # placement can only fail by opening a line to its own king, impossible this early), and
    # each side starts with 3, so neither can be without a legal action before its 4th turn.
    # But it is a 'win in 3' only if White cooperates: White could move the a6 square
    # instead of placing again, e.g. 2. @@b6 is not forced.
    p = start("@@a6 @@h6")
    assert "@a6-a4" in acts(p)                      # White's own empty square can move


def test_g1_cannot_step():
    """'after Ng1-f3, the square on g1 is empty but cannot make a King move': every location
    next to g1 holds a square, so g1 can only leap two (to e3, g3, h3 here)."""
    mode()
    p = start("@@f3 @@f6 Ng1-f3 Ng8-f6")
    assert {x for x in acts(p) if x.startswith("@g1")} == {"@g1-e3", "@g1-g3", "@g1-h3"}


def test_slider_blocked_by_hole():
    mode()
    # rook a1; squares a2 and a4 but no square at a3; king e1 on an island
    p = o.parse("4k3/8/8/8/+7/8/+7/R3K3 w - - 0,0 - 10")
    a = acts(p)
    assert "Ra1-a2" in a and "Ra1-a3" not in a and "Ra1-a4" not in a
    assert not any(x.startswith("K") for x in a)
    # bishop c1: d2 present, e3 hole, f4 present
    p = o.parse("4k3/8/8/8/5+2/8/3+4/2B1K3 w - - 0,0 - 10")
    a = {x for x in acts(p) if x.startswith("B")}
    assert a == {"Bc1-d2"}
    # queen: blocked by the hole, reaches over an unbroken line
    p = o.parse("4k3/8/8/8/5+2/4+3/3+4/2Q1K3 w - - 0,0 - 10")
    assert {x for x in acts(p) if x.startswith("Q")} == {"Qc1-d2", "Qc1-e3", "Qc1-f4"}


def test_attacks_need_unbroken_lines():
    mode()
    # black rook a8, white king a1, a-file squares except a4: no check
    pos = "r3k3/+7/+7/+7/8/+7/++6/K7 w - - 1,0 - 10"
    p = o.parse(pos)
    assert not o.in_check(p)
    a = acts(p)
    assert "Ka1-a2" in a                            # a2 is not attacked over the hole
    assert "@@a4" not in a and "@@b4" in a          # placing at a4 completes the line
    assert "@b2-a4" not in a                        # so does moving a square into a4
    assert "@a3-a4" in a and "@a2-a4" in a          # these leave a hole behind on the file
    # the same placement is legal for Black... (Black's king is not on the line)
    q = o.parse(pos.replace(" w ", " b ").replace("1,0", "0,1"))
    assert "@@a4" in acts(q)
    # a knight attacks over holes
    p = o.parse("4k3/8/8/8/8/1n6/8/K7 w - - 0,0 - 10")
    assert o.in_check(p)


def test_knight_leaps_holes():
    mode()
    p = o.parse("4k3/8/8/8/8/2+5/8/1N2K3 w - - 0,0 - 10")
    assert {x for x in acts(p) if x.startswith("N")} == {"Nb1-c3"}
    assert "Ng1-f3" in acts(start("@@f3 @@f6"))
    assert "Ng1-h3" not in acts(start("@@f3 @@f6"))


def test_pawn_double_step():
    mode()
    a = acts(start("@@e4 @@a6"))
    assert "e2-e3" not in a and "e2-e4" not in a     # no square at e3
    a = acts(start("@@e3 @@a6"))
    assert "e2-e3" in a and "e2-e4" not in a         # no square at e4
    a = acts(start("@@e3 @@a6 @@e4 @@h6"))
    assert "e2-e3" in a and "e2-e4" in a
    # en passant: the passed square exists because the double step needed it
    p = o.parse("4k3/3p4/3-4/3-P3/8/8/8/4K3 b - - 0,0 - 10")
    p = o.play(p, "d7-d5")
    assert "e5xd6" in acts(p)
    q = o.play(p, "e5xd6")
    assert q.board[sq("d5")] == "." and q.sqs[sq("d5")] == o.BSQ   # the taken pawn's square
    assert q.sqs[sq("d6")] == o.WSQ                                # captured by landing
    assert q.sqs[sq("e5")] == o.WSQ and q.board[sq("e5")] == "."


def test_castling():
    mode()
    p = o.parse("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0,0 - 10")
    assert not {"O-O", "O-O-O"} & acts(p)             # no squares between king and rooks
    p = o.parse("r3k2r/8/8/8/8/8/8/R+++K++R w KQkq - 0,0 - 10")
    assert {"O-O", "O-O-O"} <= acts(p)
    p = o.parse("r3k2r/8/8/8/8/8/8/R1++K++R w KQkq - 0,0 - 10")
    assert "O-O" in acts(p) and "O-O-O" not in acts(p)  # b1 must hold a square too
    # g1 is Black's (an empty square a Black piece once stood on): castling takes it
    p = o.parse("r3k2r/8/8/8/8/8/8/R+++K+-R w KQkq - 0,0 - 10")
    q = o.play(p, "O-O")
    assert q.sqs[sq("g1")] == o.WSQ and q.board[sq("g1")] == "K" and q.board[sq("f1")] == "R"
    # path attacked over an unbroken f-file: no O-O; break the file: O-O again
    p = o.parse("r3kr2/5+2/5+2/5+2/5+2/5+2/5+2/R+++K++R w KQ - 0,0 - 10")
    assert "O-O" not in acts(p) and "O-O-O" in acts(p)
    p = o.parse("r3kr2/5+2/5+2/8/5+2/5+2/5+2/R+++K++R w KQ - 0,0 - 10")
    assert "O-O" in acts(p)


def test_check_blocked_by_moving_a_square():
    mode()
    # black rook a8 checks the king a1 along a2..a7 (White's squares): moving any of them off
    # the file blocks; the king cannot go to a2 (attacked) and b1/b2 are holes
    pos = "r3k3/+7/+7/+7/+7/+7/+7/K7 w - - 0,0 - 10"
    p = o.parse(pos)
    assert o.in_check(p)
    a = acts(p)
    assert a and all(x.startswith("@a") for x in a)
    assert "@a4-c4" in a and "@a2-b3" in a
    # the same squares Black's: White may not move them (Hans38): checkmate
    p = o.parse(pos.replace("+", "-"))
    assert o.legal(p) == [] and o.in_check(p)
    mode("neutral")                                   # neutral: any empty square moves
    assert "@a4-c4" in acts(o.parse(pos.replace("+", "-")))


def test_square_move_exposing_king():
    mode()
    # king e1, black rook e8, e-file squares except e4; White's empty square d3 may not fill
    # e4 (line completed), but may go elsewhere
    p = o.parse("4r1k1/4+3/4+3/4+3/8/3++3/4+3/4K3 w - - 0,0 - 10")
    assert not o.in_check(p)
    a = acts(p)
    assert "@d3-e4" not in a and "@d3-d4" in a
    assert "@e3-e4" in a        # leaves a hole at e3: still blocked


def test_ownership():
    mode()
    # a pawn's straight step captures the square; the square it leaves keeps its owner
    p = start("@@a6 a7-a6")
    assert p.sqs[sq("a6")] == o.BSQ and p.sqs[sq("a7")] == o.BSQ
    # a piece moving off a captured square leaves it to the capturer
    p = start("@@f3 @@f6 Ng1-f3 Ng8-f6 @@e4 Nf6xe4")   # Black's knight takes White's square
    assert p.sqs[sq("e4")] == o.BSQ
    p = o.play(p, "@@a3 Ne4-f6")
    assert p.sqs[sq("e4")] == o.BSQ and p.board[sq("e4")] == "."
    assert not any(x.startswith("@e4") for x in acts(p))          # White may not move it
    # squares White owns but Black occupies cannot move either (occupied)
    # a placed square belongs to the placer
    p = start("@@d4")
    assert p.sqs[sq("d4")] == o.WSQ
    assert "@d4-d5" not in acts(p)                    # Black may not move White's square
    # Hans38 reserve: 3 placements, then none
    p = start("@@a3 @@a6 @@b3 @@b6 @@c3 @@c6")
    assert p.res == [0, 0] and not any(x.startswith("@@") for x in acts(p))


def test_just_moved_rule():
    mode("neutral")
    p = start("@@f3 @@f6 Ng1-f3 Ng8-f6 @@e3")
    a = acts(p)
    assert "@e3-d5" in a            # the square White just placed may be moved (stolen)
    p = o.play(p, "@e3-d5")
    assert p.frozen == (sq("d5"),)
    assert not any(x.startswith("@d5") for x in acts(p))          # the square just moved
    q = o.play(p, "@@a3 @@a6")
    assert any(x.startswith("@d5") for x in acts(q))              # one turn later: free
    # the text's continuation: Black takes the square to e6 and puts a pawn on it, White
    # 'recaptures' with @e7-f5 then @f5-e3
    q = o.play(p, "@@a3 @d5-e6 @a3-a4 e7-e6 @e7-f5 @@h6 @f5-e3")
    assert q.sqs[sq("e3")] and q.board[sq("e6")] == "p"
    # Hans38 (owned squares): the text's neutral opening is illegal at its last move
    mode()
    p = start("@@f3 @@f6 Ng1-f3 Ng8-f6 @@e3")
    assert "@e3-d5" not in acts(p)


def test_neutral_counts():
    mode("neutral")
    p = start()
    # Black may also move White's placed square to every hole within two locations
    assert [o.perft(p, d) for d in (1, 2, 3)] == [32, 1448, 71506]


def test_replays():
    """The sample game: every action legal except 15... @b7-b6 (an occupied square moving onto
    a square); with b7-b6 instead the game is legal to the end."""
    def run(*args):
        r = subprocess.run([sys.executable, os.path.join(HERE, "replay.py"), *args],
                           capture_output=True, text=True, cwd=HERE)
        return r.returncode, r.stdout
    rc, out = run("games/hans38-sample.txt")
    assert rc == 1 and "15... @b7-b6: ILLEGAL" in out and "stopped: 29 actions" in out
    assert "closest legal actions: b7-b6" in out
    rc, out = run("games/hans38-sample.txt", "--replace", "15b:b7-b6")
    assert rc == 0 and "47 actions replayed, 0 illegal" in out
    assert "4kb1-/1rpbqppr/1pn-pn1p/p1-1B3/4++2/2NP1N2/PPP++PPP/1R1QRBK1 b - - 0,1 - 24" in out
    # the comment after 20. @g3-f4: 'e5? would be met with 21. e4-e5!' (a Black square placed
    # on e5 is taken by the pawn's straight step)
    mode()
    text = open(os.path.join(HERE, "games/hans38-sample.txt")).read()
    moves = " ".join(l for l in text.splitlines() if not l.startswith("#"))
    moves = moves.replace("@b7-b6", "b7-b6").split("20. @g3-f4")[0] + "20. @g3-f4"
    p = o.play(start(), moves + " @@e5")
    q = o.play(p, "e4-e5")
    assert q.sqs[sq("e5")] == o.WSQ
    # under the abandoned rule (one step if possible, else two) five square moves fail
    rc, out = run("--old-square-rule", "--keep-going", "--replace", "15b:b7-b6",
                  "games/hans38-sample.txt")
    bad = [l.split(":")[0] for l in out.splitlines() if "ILLEGAL" in l]
    assert bad == ["11... @c8-a6", "14... @a8-b6", "17... @a7-a5", "19... @a6-c5",
                   "22. @e3-e5"], bad
    rc, out = run("--neutral", "games/hans38-neutral-opening.txt")
    assert rc == 0 and "6 actions replayed, 0 illegal" in out
    rc, out = run("games/hans38-neutral-opening.txt")
    assert rc == 1 and "square e3 is not Black's" in out


# ---------------------------------------------------------------- Infinite Reserves


def test_infinite_first_turns():
    mode("infinite")
    p = start()
    assert turn_set(p) == {f"@@{f}{r}" for f in o.FILES for r in "3456"}
    # Black's piece move is compulsory when there is one: after @@f6 every turn starts
    # with Ng8-f6 or f7-f6, then a square move of the vacated square (3 or 9 holes), then one
    # of 31 placements
    t = turn_set(start("@@f6"))
    assert all(x.split()[0] in ("Ng8-f6", "f7-f6") for x in t)
    assert len(t) == (3 + 9) * 31
    assert len(turn_set(start("@@d4"))) == 31          # no piece move, no square move
    assert o.perft(p, 2) == 2976
    # White's second turn without a piece move: no legal turn (stalemate, loses)
    q = start("@@d4 @@e5")
    assert turn_set(q) == set()
    # a flat action list is read phase by phase
    q = start("@@f6 Ng8-f6 @g8-e6 @@c6")
    assert q.white and q.full == 2 and q.phase == o.PIECE
    assert set(q.frozen) == {sq("e6"), sq("c6")}


def test_infinite_removal_and_frozen():
    mode("infinite")
    pos = "r3k2r/pppppppp/++++++++/8/8/4++++/++++PPPP/R+++K++R w KQkq - 0,0 - {} p"
    p = o.parse(pos.format(3))
    q = o.play(p, "e2-e3")
    assert q.sqs[sq("e2")] != o.HOLE                 # turn 3: the square stays
    p = o.parse(pos.format(4))
    q = o.play(p, "e2-e3")
    assert q.sqs[sq("e2")] == o.HOLE                 # turn 4: returned to reserve
    q = o.play(p, "O-O")
    assert q.sqs[sq("e1")] == o.HOLE and q.sqs[sq("h1")] != o.HOLE   # only the king's square
    # the two squares the opponent just touched cannot be moved
    pos2 = "4k3/8/8/8/3-4/8/8/4K+2 w - - 0,0 d4,h8 9 s"
    a = acts(o.parse(pos2.replace("h8", "f1")))
    assert not any(x.startswith("@d4") or x.startswith("@f1") for x in a)
    a = acts(o.parse(pos2))
    assert not any(x.startswith("@d4") for x in a) and any(x.startswith("@f1") for x in a)
    # en passant at turn >= 4: only the capturing pawn's square is vacated
    pos3 = "4k3/3p4/3+4/3+P3/+7/8/8/4K3 b - - 0,0 - 5 p"
    p = o.play(o.parse(pos3), "d7-d5")
    assert p.sqs[sq("d7")] == o.HOLE and p.phase == o.SQUARE
    p = o.play(p, "@a4-a5 @@h4")
    assert "e5xd6" in acts(p)
    q = o.play(p, "e5xd6")
    assert q.sqs[sq("e5")] == o.HOLE and q.sqs[sq("d5")] != o.HOLE
    assert q.board[sq("d5")] == "." and q.board[sq("d6")] == "P"
    # the double-stepper moved the passed square away: no en passant (no square to land on)
    p = o.play(o.parse(pos3), "d7-d5 @d6-c7 @@h4")
    assert "e5xd6" not in acts(p)


def test_occupied():
    mode("occupied")
    p = start()
    t = turn_set(p)
    # White's first turn: no piece move (skipped), a rank-2 pawn's square steps to rank 3,
    # carrying it (22 ways), then a placement (32)
    assert len(t) == 22 * 32
    assert "@e2-e3 @@e2" in t and "@e2-d3 @@h6" in t
    p = o.parse("4k3/6P1/5+2/8/8/8/5+2/4K2R w K - 0,0 - 10 s")
    a = acts(p)
    assert "@g7-g8=Q" in a and "@g7-g8=N" in a       # a carried pawn promotes
    assert not any(x.startswith("@e1") for x in a)   # never the king's square
    assert "@h1-h2" in a
    q = o.play(p, "@h1-h2")
    assert q.castle == ""                              # a carried rook has moved
    assert not any(x.startswith("@g7-e") for x in a)  # occupied squares step once
    # a carry can neither expose nor shield the king (the square it leaves is a hole, the one
    # it reaches is occupied): in check, only moving an empty square out of the line helps
    p = o.parse("r3k3/+7/+7/+7/+7/+N6/+7/K7 w - - 0,0 - 10 s")
    assert o.in_check(p)
    a = acts(p)
    assert a and all(x.startswith("@a") for x in a) and "@a4-c4" in a
    assert o.in_check(o.parse("4r1k1/4+3/4+3/4+3/4+3/4+3/4B3/4K3 b - - 0,0 - 10 s"), True) is False
    p = o.parse("4r1k1/4+3/4+3/4+3/4+3/4+3/4B3/4K3 w - - 0,0 - 10 s")
    assert "@e2-d3" in acts(p)                         # the pinned bishop leaves a hole behind


# ---------------------------------------------------------------- consistency


def attacked_by_movegen(p, t, by_white):
    """Independent attack test: put a dummy piece of the other side on t and ask by_white's
    move generator whether it can capture there."""
    q = p.copy()
    q.board[t] = "k" if by_white else "K"
    q.white, q.ep, q.castle = by_white, -1, ""
    ms = []
    o.piece_moves(q, ms)
    return any(m[2] == t and m[5] for m in ms)


def rich_start(rnd):
    """The initial position with random extra squares between the armies (owners random)."""
    p = o.parse(o.START)
    for s in range(16, 48):
        if rnd.random() < 0.55:
            p.sqs[s] = rnd.choice((o.WSQ, o.BSQ))
    return p


def pick(rnd, p, ms):
    """A random action, favouring captures and piece moves so that games reach checks,
    castling, en passant and promotions."""
    weights = []
    for m in ms:
        if m[0] == o.PIECE:
            weights.append(40 if m[5] else 12 if m[4] or m[3] else 6)
        elif m[0] == o.SQUARE:
            weights.append(1 if p.board[m[1]] == "." else 3)
        else:
            weights.append(1)
    return rnd.choices(ms, weights)[0]


def random_games(name, games, plies, seed):
    mode(name)
    rnd = random.Random(seed)
    seen = 0
    for g in range(games):
        p = start() if g % 2 == 0 else rich_start(rnd)
        for _ in range(plies):
            ms = o.legal(p)
            seen += 1
            for w in (True, False):
                k = p.kings[w]
                assert o.attacked(p.board, p.sqs, k, not w) == attacked_by_movegen(p, k, not w)
            pseudo = []
            if not o.R.infinite or p.phase == o.PIECE:
                o.piece_moves(p, pseudo)
            if not o.R.infinite or p.phase == o.SQUARE:
                o.square_moves(p, pseudo)
            if not o.R.infinite or p.phase == o.PLACE:
                o.placements(p, pseudo)
            full = []
            for m in pseudo:
                q = o.make(p, m)
                if not attacked_by_movegen(q, q.kings[p.white], not p.white):
                    full.append(m)
            assert sorted(full) == sorted(ms), (o.write(p), set(full) ^ set(ms))
            for m in ms:                               # square/ownership invariants
                q = o.make(p, m)
                for s in range(64):
                    c = q.board[s]
                    if c != ".":
                        assert q.sqs[s] == (o.WSQ if c.isupper() else o.BSQ)
                assert o.parse(o.write(q)).board == q.board
                if not o.R.infinite and g % 2 == 0:
                    assert sum(1 for s in q.sqs if s) + sum(q.res) == 38
                if o.R.infinite and g % 2 == 0 and q.white != p.white:
                    # 'the number of squares on the board will be constant ... 38': one more
                    # per turn for three turns each, then one removed and one placed per turn
                    done = 2 * (q.full - 1) + (0 if q.white else 1)
                    assert sum(1 for s in q.sqs if s) == 32 + min(done, 6)
            if not ms:
                break
            p = o.make(p, pick(rnd, p, ms))
    return seen


def test_random_consistency():
    n = 0
    for name, seed in (("", 1), ("neutral", 2), ("infinite", 3), ("occupied", 4)):
        n += random_games(name, 8, 150, seed)
    assert n > 2000


FIDE = [  # (FEN board and fields, perft 1..3): with every square present and no reserves the
    # game is FIDE chess
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -", (20, 400, 8902)),
    ("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -", (48, 2039, 97862)),
    ("8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -", (14, 191, 2812)),
    ("r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq -", (6, 264, 9467)),
    ("rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ -", (44, 1486, 62379)),
]


def test_full_board_is_chess():
    mode()
    for fen, counts in FIDE:
        board, rest = fen.split(" ", 1)
        board = "".join("+" * int(c) if c.isdigit() else c for c in board)
        p = o.parse(f"{board} {rest} 0,0 - 1")
        assert tuple(o.perft(p, d) for d in (1, 2, 3)) == counts, fen



def test_postal():
    """The Postal Rule (rulings 18-23): depth 2 in turns by hand (docs/variants/hans38-postal.md:
    744 + 12 x 32 + 72 = 1200; Postal Plus 744 + 32 x (12 + 72) = 3432), the first-turn
    exemption, stalemate from the second turn, check met by the piece move, `end`, and the turn
    that ends by itself."""
    for name, two in (("postal", 1200), ("plus", 3432)):
        mode(name)
        p = start()
        assert acts(p) == {"@@" + o.name(s) for s in range(16, 48)}   # no piece move, no end
        assert o.perft(p, 2) == two
        o.R.actions = True
        assert o.perft(p, 2) == 756
        o.R.actions = False
        # Black must move a piece when it can (a7-a6 or Nb8-a6 onto White's a6)
        assert acts(start("@@a6")) == {"a7-a6", "Nb8-a6"}
        # after the piece move: square moves, placements and end
        q = start("@@f3 @@f6 Ng1-f3")
        a = acts(q)
        assert "end" in a and "@g1-h3" in a and "@@e3" in a
        r = o.play(q, "@g1-h3")
        assert (r.white, r.phase) == ((True, o.PLACE) if name == "plus" else (False, o.PIECE))
        if name == "plus":
            assert "end" in acts(r) and "@@e3" in acts(r) and not any(x.startswith("@g") for x in acts(r))
        # stalemate from the second turn: 1. @@d4 @@e5 leaves White no piece move
        assert acts(start("@@d4 @@e5")) == set()
        # a check must be met by the piece move
        p = o.parse("r7/+7/+7/+7/+7/+7/+7/K7 w - - 1,0 - 10 p -")
        assert acts(p) == set()
        # a turn ends by itself when no square action is possible (ruling 23) ...
        full = "----k---/--------/--------/--------/++++++++/++++++++/++++++++/++++K+++ w - - 0,0 - 2 p -"
        q = o.play(o.parse(full), "Ke1-e2")
        assert not q.white and q.phase == o.PIECE
        # ... or, with --forced-end, asks for `end`
        o.R.forced_end = True
        q = o.play(o.parse(full), "Ke1-e2")
        assert q.white and acts(q) == {"end"}
        o.R.forced_end = False


if __name__ == "__main__":
    tests = [(k, v) for k, v in sorted(globals().items()) if k.startswith("test_")]
    for k, v in tests:
        v()
        print("ok", k)
    mode()
    print(f"{len(tests)} tests passed")
