"""Cross-checks the bundled Fairy-Stockfish games against Fairy-Stockfish itself (pyffish).

For each game named (all by default) it
- counts perft from the start with Fairy-Stockfish, by recursion carrying the move list (so end
  rules that look back see the whole game), and compares it with `varia perft`;
- plays seeded random games with Fairy-Stockfish's moves and, at every position, compares its
  legal-move list with `varia moves --uci`, reached both by replaying the moves (`--after`) and
  by reading Fairy-Stockfish's position string (`--position`). A position where Fairy-Stockfish
  ends the game (checkmate, stalemate or a variant's own end) must have no moves in Varia. A game
  stops uncompared where Fairy-Stockfish would let a player claim a draw (the move rule,
  repetition): Varia declares those draws itself.

Games with a shuffled start (SHUFFLED) are compared from the starts Varia draws for a few seeds
(`varia play --seed N`), with Fairy-Stockfish's chess960 on: castling is written as the king
taking its rook, rights in Shredder-FEN.

Games whose start leaves a rule unplayed (ALSO_FROM) are compared from further positions too.

Usage: pip install pyffish; cargo build
       python3 tools/oracle-fsf.py [--depth D] [--positions N] [--few N] [--seed S] [--varia BIN] [GAME ...]
       python3 tools/oracle-fsf.py --start FEN GAME   (random games from that position)
Prints one line per check and a summary; exits 1 on any difference.
"""
import argparse
import os
import random
import re
import subprocess
import sys

import pyffish as sf

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Varia's file, Fairy-Stockfish's variant name, the perft depth from the start.
GAMES = {
    "xiangqi": ("xiangqi.var", "xiangqi", 4),
    "minixiangqi": ("minixiangqi.var", "minixiangqi", 3),
    "manchu": ("manchu.var", "manchu", 3),
    "capablanca": ("capablanca.var", "capablanca", 4),
    "shatranj": ("shatranj.var", "shatranj", 4),
    "three-check": ("three-check.var", "3check", 4),
    "loop": ("loop.var", "loop", 4),
    "crazyhouse": ("crazyhouse.var", "crazyhouse", 4),
    "bughouse": ("bughouse.var", "bughouse", 4),
    "dragon": ("dragon.var", "dragon", 4),
    "minishogi": ("minishogi.var", "minishogi", 4),
    "shogi": ("shogi.var", "shogi", 3),
    "shoshogi": ("shoshogi.var", "shoshogi", 3),
    "okisakishogi": ("okisakishogi.var", "okisakishogi", 3),
    "yarishogi": ("yarishogi.var", "yarishogi", 3),
    "micro": ("micro.var", "micro", 4),
    "torishogi": ("torishogi.var", "torishogi", 4),
    "grand": ("grand.var", "grand", 3),
    "atomic": ("atomic.var", "atomic", 4),
    "nocheckatomic": ("nocheckatomic.var", "nocheckatomic", 3),
    "atomar": ("atomar.var", "atomar", 3),
    "seirawan": ("seirawan.var", "seirawan", 3),
    "janggi": ("janggi.var", "janggi", 3),
    "sittuyin": ("sittuyin.var", "sittuyin", 3),
    "nocastle": ("nocastle.var", "nocastle", 3),
    "amazon": ("amazon.var", "amazon", 3),
    "almost": ("almost.var", "almost", 3),
    "chigorin": ("chigorin.var", "chigorin", 4),
    "fischerandom": ("fischerandom.var", "fischerandom", 3),
    "caparandom": ("caparandom.var", "caparandom", 3),
    "sortofalmost": ("sortofalmost.var", "sortofalmost", 4),
    "georgian": ("georgian.var", "georgian", 3),
    "raazuvaa": ("raazuvaa.var", "raazuvaa", 3),
    "fairy": ("fairy.var", "fairy", 3),
    "hoppelpoppel": ("hoppelpoppel.var", "hoppelpoppel", 3),
    "newzealand": ("newzealand.var", "newzealand", 3),
    "kingofthehill": ("kingofthehill.var", "kingofthehill", 3),
    "misere": ("misere.var", "misere", 3),
    "grasshopper": ("grasshopper.var", "grasshopper", 3),
    "coregal": ("coregal.var", "coregal", 3),
    "perfect": ("perfect.var", "perfect", 3),
    "pawnsideways": ("pawnsideways.var", "pawnsideways", 3),
    "pawnback": ("pawnback.var", "pawnback", 3),
    "torpedo": ("torpedo.var", "torpedo", 3),
    "gothic": ("gothic.var", "gothic", 3),
    "embassy": ("embassy.var", "embassy", 3),
    "janus": ("janus.var", "janus", 3),
    "centaur": ("centaur.var", "centaur", 3),
    "chancellor": ("chancellor.var", "chancellor", 3),
    "modern": ("modern.var", "modern", 3),
    "asean": ("asean.var", "asean", 3),
    "makruk": ("makruk.var", "makruk", 3),
    "shatar": ("shatar.var", "shatar", 3),
    "ai-wok": ("ai-wok.var", "ai-wok", 3),
    "makpong": ("makpong.var", "makpong", 3),
    "cambodian": ("cambodian.var", "cambodian", 3),
    "karouk": ("karouk.var", "karouk", 3),
    "suicide": ("suicide.var", "suicide", 3),
    "armageddon": ("armageddon.var", "armageddon", 3),
    "berolina": ("berolina.var", "berolina", 3),
    "spartan": ("spartan.var", "spartan", 3),
    "legan": ("legan.var", "legan", 4),
    "chaturanga": ("chaturanga.var", "chaturanga", 3),
    "courier": ("courier.var", "courier", 3),
    "pocketknight": ("pocketknight.var", "pocketknight", 3),
    "chessgi": ("chessgi.var", "chessgi", 3),
    "five-check": ("five-check.var", "5check", 3),
    "losalamos": ("losalamos.var", "losalamos", 4),
    "knightmate": ("knightmate.var", "knightmate", 3),
    "gardner": ("gardner.var", "gardner", 4),
    "nightrider": ("nightrider.var", "nightrider", 3),
    "threekings": ("threekings.var", "threekings", 3),
    "horde": ("horde.var", "horde", 3),
    "antichess": ("antichess.var", "antichess", 3),
    "giveaway": ("giveaway.var", "giveaway", 3),
    "codrus": ("codrus.var", "codrus", 3),
    "extinction": ("extinction.var", "extinction", 3),
    "kinglet": ("kinglet.var", "kinglet", 3),
    "losers": ("losers.var", "losers", 3),
    "shako": ("shako.var", "shako", 3),
    "tencubed": ("tencubed.var", "tencubed", 3),
    "opulent": ("opulent.var", "opulent", 3),
    "capahouse": ("capahouse.var", "capahouse", 3),
    "gorogoro": ("gorogoro.var", "gorogoro", 3),
    "judkins": ("judkins.var", "judkins", 3),
    "euroshogi": ("euroshogi.var", "euroshogi", 3),
    "dobutsu": ("dobutsu.var", "dobutsu", 4),
    "paradigm": ("paradigm.var", "paradigm", 3),
    "snailtrail": ("snailtrail.var", "snailtrail", 3),
    "joust": ("joust.var", "joust", 3),
    "isolation": ("isolation.var", "isolation", 2),
    "isolation7x7": ("isolation7x7.var", "isolation7x7", 2),
    "amazons": ("amazons.var", "amazons", 1),
    "duck": ("duck.var", "duck", 2),
    "petrified": ("petrified.var", "petrified", 3),
    "gustav3": ("gustav3.var", "gustav3", 3),
    "troitzky": ("troitzky.var", "troitzky", 3),
    "omicron": ("omicron.var", "omicron", 3),
    "breakthrough": ("breakthrough.var", "breakthrough", 3),
    "clobber": ("clobber.var", "clobber", 3),
    "clobber10": ("clobber10.var", "clobber10", 2),
    "fox-and-hounds": ("fox-and-hounds.var", "fox-and-hounds", 3),
    "jesonmor": ("jesonmor.var", "jesonmor", 3),
    "checkshogi": ("checkshogi.var", "checkshogi", 3),
    "supply": ("supply.var", "supply", 3),
    "janggicasual": ("janggicasual.var", "janggicasual", 3),
    "janggitraditional": ("janggitraditional.var", "janggitraditional", 3),
    "janggimodern": ("janggimodern.var", "janggimodern", 3),
    "kyotoshogi": ("kyotoshogi.var", "kyotoshogi", 4),
    "wolf": ("wolf.var", "wolf", 3),
    "koedem": ("koedem.var", "koedem", 3),
    "shouse": ("shouse.var", "shouse", 3),
    "racingkings": ("racingkings.var", "racingkings", 3),
    "ataxx": ("ataxx.var", "ataxx", 3),
    "flipello": ("flipello.var", "flipello", 3),
    "flipello10": ("flipello10.var", "flipello10", 3),
    "flipersi": ("flipersi.var", "flipersi", 3),
    "placement": ("placement.var", "placement", 3),
}


# Games with a shuffled start: Varia draws it from a seed; the comparison runs from the starts of
# these seeds, Fairy-Stockfish with chess960 on.
SHUFFLED = {"fischerandom": [0, 1, 2], "caparandom": [0, 1, 2]}

# Games whose start leaves a rule unplayed (bughouse's hands are empty at the start: only the
# partner fills them): besides the games from the start, as many random-game positions from each
# of these position strings (without `--start`).
ALSO_FROM = {
    "bughouse": ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[QRPPbnpp] w KQkq - 2 3"],
    "supply": ["r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKABR1[RNCPPrbcap] w - - 4 3"],
    # Racing kings: kings near the eighth rank (random games from the start rarely get there).
    "racingkings": ["rn1qQNRN/2k5/2B3K1/8/8/8/8/8 b - - 5 29", "1r1n1q2/2R3N1/3k3K/8/8/r7/8/8 b - - 8 30",
                    "2RRBbN1/r7/k5K1/4B3/8/8/8/8 w - - 0 38"],
    # Koedem: kings in hand (dropped first), and a player whose only king is in hand.
    "koedem": ["r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQ1B1R[KQbnp] w kq - 2 3",
               "r1bq1bnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R[Kkrp] b KQ - 2 3"],
    # Cambodian: the first leaps with rooks about (the king's right lost to a rook on its lines),
    # and an ending where a bare king may take the last pawn (its own count begins).
    "cambodian": ["3mk3/8/2p5/8/8/5P2/8/R2KM2r w DEde - 0 1", "4k3/4p3/8/8/8/8/R7/3K4 w De - 0 1"],
    "karouk": ["3mk3/8/2p5/8/8/5P2/8/R2KM2r w DEde - 0 1"],
}

# Whether the game compared now is a chess960 one (every pyffish call passes it).
C960 = False


# Games whose pawn may not be dropped to give checkmate (shogi's uchifuzume). Fairy-Stockfish
# declares the rule for them (`shogiPawnDropMateIllegal`), but pyffish 0.0.90 lists such drops
# (even a plain mate: `k4/2+S2/1B3/K4/5[P] w - - 0 1`, P@a4). Varia follows the rule: the
# comparison takes these drops out of Fairy-Stockfish's lists and counts them apart. The letter
# is the piece's whose drop may not mate (torishogi's swallow).
DROP_MATE_RULE = {"minishogi": "P", "shogi": "P", "gorogoro": "P", "judkins": "P", "euroshogi": "P",
                  "okisakishogi": "P", "torishogi": "S"}


# Games whose draws Fairy-Stockfish lets a player claim where Varia's rules differ (janggi: its
# 50-move rule and repetition are decided on points there; Varia has no move rule, see
# docs/variants/janggi.md). Elsewhere Varia must declare the draw where the claim arises.
CLAIMS_DIFFER = {"janggi"}


# Games whose pawns may step back or sideways, or move diagonally, where Fairy-Stockfish writes
# several en-passant cells run together in its position strings (`... KQkq g3g4 5 3`, after a
# pawn that had stepped back steps two cells; berolina's `... KQkq g3f4 0 1` after h2f4). Varia does not read that field yet (issue 55, "Fairy-Stockfish's
# position forms are not read"): for such a string the comparison by position string is left
# out and counted; the comparison by replaying the moves is made as everywhere. Wolf chess's
# sergeant, after its double step (`b3b5`), has the cell it passed and the one it stands on
# written (`... - b4b5 0 64`).
EP_FIELD_UNREAD = {"pawnback", "pawnsideways", "berolina", "petrified", "wolf"}


# The built-ins bundled by family (docs/variants/chess-family.md, capablanca-family.md,
# shatranj-family.md, shogi-family.md): CI compares fewer random-game positions for each
# (`--few`), to keep its time down; their full runs are in those pages.
FAMILIES = {
    "nocastle", "amazon", "almost", "chigorin", "sortofalmost", "fischerandom", "caparandom",
    "georgian", "raazuvaa", "fairy", "hoppelpoppel", "newzealand",
    "kingofthehill", "misere", "grasshopper", "coregal", "perfect", "pawnsideways",
    "pawnback", "torpedo", "gothic", "embassy", "janus", "centaur", "chancellor", "modern",
    "asean", "chaturanga", "courier", "chessgi", "pocketknight", "five-check", "losalamos",
    "knightmate", "gardner", "makruk", "ai-wok", "makpong", "cambodian", "karouk", "suicide", "armageddon", "berolina", "spartan", "legan", "minixiangqi", "manchu", "shoshogi", "okisakishogi", "yarishogi", "micro", "torishogi", "nightrider", "threekings", "horde", "nocheckatomic", "atomar", "antichess", "giveaway", "codrus", "extinction", "kinglet", "losers",
    "paradigm", "shako", "tencubed", "opulent", "capahouse", "gorogoro", "judkins", "euroshogi",
    "dobutsu", "snailtrail", "joust", "isolation", "isolation7x7", "amazons", "duck", "petrified",
    "gustav3", "troitzky", "omicron", "breakthrough", "clobber", "clobber10", "fox-and-hounds", "jesonmor", "bughouse", "dragon",
    "checkshogi", "supply", "kyotoshogi", "wolf", "koedem", "shouse", "racingkings",
    "ataxx", "flipello", "flipello10", "flipersi",
    "placement",
}


def several_ep_cells(fen):
    fields = fen.split()
    return len(fields) > 3 and len(re.findall(r"[a-z][0-9]+", fields[3])) > 1


def pawn_drop_mate(variant, start, moves, move, letter):
    after = moves + [move]
    return move.startswith(f"{letter}@") and sf.gives_check(variant, start, after, C960) and not sf.legal_moves(variant, start, after, C960)


def fsf_over(variant, start, moves):
    """Whether Fairy-Stockfish ends the game here: no legal move, or a variant end rule."""
    if not sf.legal_moves(variant, start, moves, C960):
        return True
    return sf.is_immediate_game_end(variant, start, moves, C960)[0]


def fsf_expected(name, variant, start, moves):
    """Whether Fairy-Stockfish ends the game here, its legal moves (none if it does) and how
    many pawn drops that mate it listed and the rule took out."""
    over = fsf_over(variant, start, moves)
    expected = [] if over else sorted(sf.legal_moves(variant, start, moves, C960))
    mates = []
    if name in DROP_MATE_RULE:
        mates = [m for m in expected if pawn_drop_mate(variant, start, moves, m, DROP_MATE_RULE[name])]
        expected = [m for m in expected if m not in mates]
    return over, expected, len(mates)


def fsf_perft(variant, start, moves, depth):
    if depth == 0:
        return 1
    if sf.is_immediate_game_end(variant, start, moves, C960)[0]:
        return 0
    legal = sf.legal_moves(variant, start, moves, C960)
    if depth == 1:
        return len(legal)
    return sum(fsf_perft(variant, start, moves + [m], depth - 1) for m in legal)


class Varia:
    def __init__(self, binary, file):
        self.binary = binary
        self.file = os.path.join(ROOT, "variants", file)

    def run(self, *args):
        out = subprocess.run([self.binary, *args], capture_output=True, text=True)
        if out.returncode != 0:
            return None, out.stderr.strip()
        return out.stdout, None

    def perft(self, depth, *args):
        out, err = self.run("perft", self.file, str(depth), *args)
        return int(out.split()[-1]) if out else err

    def moves(self, *args):
        out, err = self.run("moves", "--uci", self.file, *args)
        return sorted(out.split()) if out is not None else ["ERROR: " + err]


    def drawn_start(self, seed):
        out = subprocess.run([self.binary, "play", "--seed", str(seed), self.file], input="fen\nquit\n",
                             capture_output=True, text=True).stdout
        return next(line.split("> ", 1)[-1].strip() for line in out.splitlines() if "/" in line)


def perft_depth(args, depth):
    """The perft depth of a game: its own, capped by `--depth` (amazons' perft 3 is about 10^10
    leaves: a game's smaller depth stands)."""
    return min(args.depth, depth) if args.depth else depth


def compare(name, args, rng):
    """Compares one game: from its start, from `--start`, or from each drawn start of a
    shuffled game (the random-game positions shared among them)."""
    global C960
    C960 = name in SHUFFLED
    file, variant, depth = GAMES[name]
    varia = Varia(args.varia, file)
    wanted = min(args.positions, args.few) if args.few is not None and name in FAMILIES else args.positions
    if C960 and not args.start:
        seeds = SHUFFLED[name]
        bad = 0
        for k, seed in enumerate(seeds):
            start = varia.drawn_start(seed)
            print(f"{name}: seed {seed}: start {start}")
            share = wanted // len(seeds) + (k < wanted % len(seeds))
            bad += compare_from(name, args, rng, start, True, share, perft_depth(args, depth))
        return bad
    bad = compare_from(name, args, rng, args.start or sf.start_fen(variant), bool(args.start), wanted,
                       0 if args.start else perft_depth(args, depth))
    for start in [] if args.start else ALSO_FROM.get(name, []):
        print(f"{name}: from {start}")
        bad += compare_from(name, args, rng, start, True, wanted, 0)
    return bad


def compare_from(name, args, rng, start, given, wanted, depth):
    """Perft to `depth` and `wanted` random-game positions from `start` (`given`: Varia is told
    it with `--position`)."""
    file, variant, _ = GAMES[name]
    varia = Varia(args.varia, file)
    at = ["--position", start] if given else []
    bad = 0
    for d in range(1, depth + 1):
        a, b = fsf_perft(variant, start, [], d), varia.perft(d, *at)
        print(f"{name}: perft {d}: Fairy-Stockfish {a}, Varia {b}", flush=True)
        bad += a != b
    positions = 0
    games = {"variant rule": 0, "no legal move": 0, "claimable draw": 0, "cut short": 0}
    drop_mates = 0
    unread = 0
    while positions < wanted:
        moves = []
        for _ in range(args.plies):
            over, expected, mates = fsf_expected(name, variant, start, moves)
            drop_mates += mates
            fen = sf.get_fen(variant, start, moves, C960)
            if not over and sf.is_optional_game_end(variant, start, moves, C960)[0]:
                # Fairy-Stockfish lets a player claim this draw; Varia declares it: no moves.
                games["claimable draw"] += 1
                got = varia.moves(*at, "--after", " ".join(moves))
                if got and name not in CLAIMS_DIFFER:
                    bad += 1
                    print(f"{name}: DIFFERENCE (claimable draw) at {fen} after {' '.join(moves)}: Varia plays on")
                break
            # A position string does not carry the moves before it: read alone, it is judged
            # by Fairy-Stockfish from the same string (an end that needs the history, such as
            # janggi's two passes, is not over there).
            from_fen = fsf_expected(name, variant, fen, [])[1] if moves else expected
            checks = [("after", varia.moves(*at, "--after", " ".join(moves)), expected)]
            if name in EP_FIELD_UNREAD and several_ep_cells(fen):
                unread += 1
            else:
                checks.append(("position", varia.moves("--position", fen), from_fen))
            for how, got, want in checks:
                if got != want:
                    bad += 1
                    missing = sorted(set(want) - set(got))
                    extra = sorted(set(got) - set(want))
                    print(f"{name}: DIFFERENCE ({how}) at {fen} after {' '.join(moves) or '-'}")
                    print(f"  only Fairy-Stockfish: {missing}\n  only Varia: {extra}")
            positions += 1
            if over:
                games["variant rule" if sf.is_immediate_game_end(variant, start, moves, C960)[0] else "no legal move"] += 1
                break
            if positions >= wanted or len(moves) + 1 >= args.plies:
                games["cut short"] += 1
                break
            moves.append(rng.choice(expected))
    ends = ", ".join(f"{k} {v}" for k, v in games.items())
    if unread:
        ends += f"; {unread} position strings with several en-passant cells compared by moves only"
    ruling = f"; pawn drops that mate, listed by Fairy-Stockfish and refused by the rule: {drop_mates}" if name in DROP_MATE_RULE else ""
    print(f"{name}: {positions} positions of {sum(games.values())} random games compared (each by moves and by position string), {bad} differences; games ended by {ends}{ruling}")
    return bad


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=list(GAMES))
    p.add_argument("--depth", type=int, help="perft depth from the start, at most (a game whose perft is slow keeps its own smaller depth; default: each game's)")
    p.add_argument("--positions", type=int, default=500, help="random-game positions per game")
    p.add_argument("--few", type=int, help="random-game positions for the games bundled by family (FAMILIES)")
    p.add_argument("--plies", type=int, default=200, help="longest random game")
    p.add_argument("--seed", type=int, default=17)
    p.add_argument("--start", help="play the random games from this position string (no perft)")
    p.add_argument("--varia", default=os.path.join(ROOT, "target", "debug", "varia"))
    args = p.parse_args()
    bad = 0
    for name in args.games:
        if name not in GAMES:
            sys.exit(f"unknown game {name}: one of {', '.join(GAMES)}")
        bad += compare(name, args, random.Random(f"{args.seed}-{name}"))
    print(f"total: {bad} differences")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
