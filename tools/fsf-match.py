#!/usr/bin/env python3
"""Plays Varia against Fairy-Stockfish over UCI on equal clocks, refereed by python-chess (chess)
or pyffish (every other variant), and reports Varia's Elo on Fairy-Stockfish's `UCI_Elo` scale.

Each opening (a line of the openings file) is played twice, colours swapped. Both engines play
on the same clock (`--tc 40/20`: 40 moves in 20 s, repeating; `--tc 10+0.1`: 10 s and 0.1 s a
move; `--tc 40/20+0.1` both) and each is charged the wall time from `go` to `bestmove`, as a
GUI charges it; an engine whose clock falls below zero, which plays an illegal move or which
ends loses. The referee, not the engines, decides every move's legality and the end: checkmate,
stalemate and the variant's other ends, and the draws a player may claim (repetition, the move
rule, insufficient material) claimed at once. A game reaching `--max-plies` is adjudicated a
draw; its last scores are kept in the PGN (each move carries `{score/depth time}`, as cutechess
writes) so that a cut game can be read.

`--elo 1800,2000` plays `--games` games at each level with `UCI_LimitStrength` on (`--elo full`:
Fairy-Stockfish at full strength). The report gives, per level, Varia's score and the Elo
difference with a 95% interval, and over all levels Varia's rating on that scale: the rating
whose expected score against the levels played equals the points scored, with a 95% interval
from the games' spread.

Needs: `apt-get install fairy-stockfish` (/usr/games/fairy-stockfish), a venv with
`pip install chess pyffish`, and a release build of Varia. Usage:

    python3 tools/fsf-match.py --variant chess --openings tools/openings/chess.txt \\
        --tc 10+0.1 --elo 1800,2200 --games 20 --pgn games.pgn --json games.json
"""

import argparse
import json
import math
import os
import queue
import subprocess
import sys
import threading
import time

from match_stats import score_interval


class Engine:
    """A UCI engine on a pipe, read by a thread so that waits can time out."""

    def __init__(self, command, name, options):
        self.command, self.name, self.options = command, name, options
        self.start()

    def start(self):
        self.proc = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.proc, self.lines), daemon=True).start()
        self.send("uci")
        self.wait_for(lambda l: l == "uciok", 30)
        for key, value in self.options.items():
            self.send(f"setoption name {key} value {value}")
        self.ready()

    @staticmethod
    def _read(proc, lines):
        for line in proc.stdout:
            lines.put(line.strip())
        lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, test, timeout, seen=None):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{self.name} did not answer")
            try:
                line = self.lines.get(timeout=left)
            except queue.Empty:
                raise TimeoutError(f"{self.name} did not answer") from None
            if line is None:
                raise EOFError(f"{self.name} ended")
            if seen is not None:
                seen.append(line)
            if test(line):
                return line

    def ready(self):
        self.send("isready")
        self.wait_for(lambda l: l == "readyok", 30)

    def new_game(self):
        """A fresh game; a process that ended or hangs is started again."""
        try:
            self.send("ucinewgame")
            self.ready()
        except (TimeoutError, EOFError, BrokenPipeError):
            self.quit()
            self.start()

    def play(self, fen, moves, clocks, inc_ms, to_go, white):
        """Asks for a move; returns (move or None, seconds spent, last score text, depth)."""
        position = "startpos" if fen is None else f"fen {fen}"
        self.send(f"position {position}" + (" moves " + " ".join(moves) if moves else ""))
        self.ready()
        go = f"go wtime {int(clocks[0] * 1000)} btime {int(clocks[1] * 1000)} winc {inc_ms} binc {inc_ms}"
        if to_go:
            go += f" movestogo {to_go}"
        seen = []
        start = time.monotonic()
        self.send(go)
        own = clocks[0] if white else clocks[1]
        try:
            line = self.wait_for(lambda l: l.startswith("bestmove"), own + 5, seen)
        except (TimeoutError, EOFError):
            return None, time.monotonic() - start, None, None
        spent = time.monotonic() - start
        score, depth = last_score(seen)
        words = line.split()
        move = words[1] if len(words) > 1 and words[1] not in ("0000", "(none)") else None
        return move, spent, score, depth

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def last_score(lines):
    """The last `score` and `depth` of an engine's `info` lines, as PGN comments write them."""
    score = depth = None
    for line in lines:
        w = line.split()
        if w[:1] != ["info"] or "score" not in w:
            continue
        i = w.index("score")
        if w[i + 1] == "cp":
            score = f"{int(w[i + 2]) / 100:+.2f}"
        elif w[i + 1] == "mate":
            score = f"{'+' if int(w[i + 2]) > 0 else '-'}M{abs(int(w[i + 2]))}"
        if "depth" in w:
            depth = w[w.index("depth") + 1]
    return score, depth


class ChessReferee:
    """Chess by python-chess: legality, the end, the draws claimed at once, SAN for the PGN."""

    def __init__(self, fen):
        import chess

        self.chess = chess
        self.board = chess.Board(fen) if fen else chess.Board()
        self.start = self.board.copy()

    def white_to_move(self):
        return self.board.turn == self.chess.WHITE

    def legal(self, move):
        try:
            return self.chess.Move.from_uci(move) in self.board.legal_moves
        except ValueError:
            return False

    def push(self, move):
        self.board.push_uci(move)

    def moves(self):
        return [m.uci() for m in self.board.move_stack]

    def outcome(self):
        o = self.board.outcome(claim_draw=True)
        return None if o is None else (o.result(), o.termination.name.lower())

    def san(self):
        return [s for s in self.start.variation_san(self.board.move_stack).split() if not s[0].isdigit()]


class FfishReferee:
    """Any variant Fairy-Stockfish knows, by pyffish (its rules compiled apart from the engine)."""

    def __init__(self, variant, fen):
        import pyffish

        self.sf, self.variant = pyffish, variant
        self.fen = fen or pyffish.start_fen(variant)
        self.list = []

    def white_to_move(self):
        return (self.fen.split()[1] == "w") == (len(self.list) % 2 == 0)

    def legal(self, move):
        return move in self.sf.legal_moves(self.variant, self.fen, self.list)

    def push(self, move):
        self.list.append(move)

    def moves(self):
        return list(self.list)

    def _result(self, value, reason):
        # pyffish's values are for the side to move.
        if value == 0:
            return "1/2-1/2", reason
        return ("1-0" if (value > 0) == self.white_to_move() else "0-1"), reason

    def outcome(self):
        sf, v, fen, ms = self.sf, self.variant, self.fen, self.list
        if not sf.legal_moves(v, fen, ms):
            value = sf.game_result(v, fen, ms)
            return self._result(value, "checkmate" if value != 0 else "stalemate")
        ended, value = sf.is_immediate_game_end(v, fen, ms)
        if ended:
            return self._result(value, "variant end")
        ended, value = sf.is_optional_game_end(v, fen, ms)
        if ended:
            return self._result(value, "claimed (repetition or move rule)")
        return None

    def san(self):
        return self.sf.get_san_moves(self.variant, self.fen, self.list)


def referee(variant, fen):
    return ChessReferee(fen) if variant == "chess" else FfishReferee(variant, fen)


def opening_referee(variant, opening):
    """The referee of a game from `opening` (a start FEN and the moves played from it)."""
    fen, start_moves = opening
    ref = referee(variant, fen)
    for m in start_moves:
        ref.push(m)
    return ref


def game_over(ref, max_plies):
    """(result, reason) once the game has ended by its rules or reached `max_plies`, else None."""
    end = ref.outcome()
    if end is None and len(ref.moves()) >= max_plies:
        end = ("1/2-1/2", "ply limit")
    return end


def read_openings(path, variant):
    """The openings file: a line of moves in UCI coordinates from the start, or `fen FEN` then
    optionally `moves ...`; `#` starts a comment. Each is checked by the referee."""
    if path is None:
        return [(None, [])]
    openings = []
    with open(path) as f:
        for n, raw in enumerate(f, 1):
            line = raw.split("#")[0].strip()
            if not line:
                continue
            fen, moves = None, line.split()
            if line.startswith("fen "):
                head, _, tail = line[4:].partition(" moves ")
                fen, moves = head.strip(), tail.split()
            ref = referee(variant, fen)
            for m in moves:
                if not ref.legal(m):
                    sys.exit(f"{path}:{n}: `{m}` is not legal in {variant} after `{' '.join(ref.moves())}`")
                ref.push(m)
            openings.append((fen, moves))
    if not openings:
        sys.exit(f"{path}: no openings")
    return openings


def parse_tc(text):
    """`M/S`, `S+I` or `M/S+I`: (moves per control or None, seconds, increment in seconds)."""
    try:
        control, _, inc = text.partition("+")
        moves, _, seconds = control.rpartition("/")
        return (int(moves) if moves else None), float(seconds), float(inc or 0)
    except ValueError:
        sys.exit(f"--tc: expected M/S, S+I or M/S+I (as 40/20 or 10+0.1), found `{text}`")


def play_game(varia, fsf, variant, opening, varia_white, tc, max_plies):
    """One game; returns its record (result for White, reason, moves, comments)."""
    per, seconds, inc = tc
    fen, start_moves = opening
    ref = opening_referee(variant, opening)
    clocks = [seconds, seconds]
    made = [0, 0]
    comments = []
    while True:
        end = game_over(ref, max_plies)
        if end is not None:
            result, reason = end
            break
        white = ref.white_to_move()
        side = 0 if white else 1
        engine = varia if white == varia_white else fsf
        to_go = per - made[side] % per if per else None
        move, spent, score, depth = engine.play(fen, ref.moves(), clocks, int(inc * 1000), to_go, white)
        clocks[side] -= spent
        loses = "0-1" if white else "1-0"
        if clocks[side] < 0:
            result, reason = loses, f"{engine.name} lost on time"
            break
        if move is None or not ref.legal(move):
            result, reason = loses, f"{engine.name} played an illegal move `{move}`"
            break
        ref.push(move)
        comments.append(f"{score or '?'}/{depth or '?'} {spent:.2f}s")
        made[side] += 1
        clocks[side] += inc
        if per and made[side] % per == 0:
            clocks[side] += seconds
    return {"result": result, "reason": reason, "moves": ref.moves(), "opening_plies": len(start_moves),
            "comments": comments, "san": ref.san(), "fen": fen}


def pgn(record, headers):
    """The game as PGN: SAN moves from the referee, each engine move with its comment."""
    out = [f'[{k} "{v}"]' for k, v in headers.items()]
    if record["fen"]:
        out += ['[SetUp "1"]', f'[FEN "{record["fen"]}"]']
    text = []
    first_black = record["fen"] is not None and record["fen"].split()[1] == "b"
    for i, san in enumerate(record["san"]):
        ply = i + first_black
        if ply % 2 == 0 or i == 0:
            text.append(f"{ply // 2 + 1}." if ply % 2 == 0 else f"{ply // 2 + 1}...")
        text.append(san)
        k = i - record["opening_plies"]
        if k >= 0 and k < len(record["comments"]):
            text.append("{" + record["comments"][k] + "}")
    text.append(record["result"])
    lines, line = [], ""
    for word in text:
        if len(line) + len(word) + 1 > 79:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    lines.append(line)
    return "\n".join(out) + "\n\n" + "\n".join(lines) + "\n"


def expected(diff):
    return 1 / (1 + 10 ** (-diff / 400))


def rating(levels):
    """Varia's rating on the levels' scale: the R whose expected points against the games played
    equal the points scored, and R for the points plus or minus 1.96 standard deviations (each
    level's per-game variance, at least that of a score a half game nearer the middle)."""
    games = [(lvl, n, pts, var) for lvl, n, pts, var in levels if n > 0]
    if not games:
        return None, None, None
    total = sum(p for _, _, p, _ in games)
    sd = math.sqrt(sum(v for _, _, _, v in games))

    def solve(points):
        lo, hi = -2000.0, 6000.0
        for _ in range(100):
            mid = (lo + hi) / 2
            if sum(n * expected(mid - lvl) for lvl, n, _, _ in games) < points:
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    n_all = sum(n for _, n, _, _ in games)
    # A bound beyond every game won (or lost) is unbounded; a perfect score's rating is a floor.
    inside = lambda p: solve(p) if 0 < p < n_all else None
    return solve(min(max(total, 0.25), n_all - 0.25)), inside(total - 1.96 * sd), inside(total + 1.96 * sd)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variant", default="chess", help="the UCI_Variant both engines are set to")
    ap.add_argument("--games", type=int, default=20, help="games at each level")
    ap.add_argument("--tc", default="40/20", help="time control: M/S, S+I or M/S+I (seconds)")
    ap.add_argument("--elo", default="1800", help="Fairy-Stockfish's UCI_Elo levels, comma-separated, or `full`")
    ap.add_argument("--openings", help="openings file (default: the start position)")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--varia", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "varia"))
    ap.add_argument("--varia-args", default="uci",
                    help="arguments of the Varia command (e.g. 'uci --weights F variants/chess.var': "
                         "given a rules file, Varia is not sent UCI_Variant)")
    ap.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    ap.add_argument("--hash", type=int, default=32, help="each engine's table, in MB")
    ap.add_argument("--fsf-overhead", type=int, default=100,
                    help="Fairy-Stockfish's Move Overhead in ms (its default, 30, flags on a loaded machine)")
    ap.add_argument("--pgn", help="write the games as PGN here")
    ap.add_argument("--json", help="write the games and the summary here")
    args = ap.parse_args()

    tc = parse_tc(args.tc)
    openings = read_openings(args.openings, args.variant)
    levels = [None] if args.elo == "full" else [int(x) for x in args.elo.split(",")]
    load_before = os.getloadavg()
    base = {"UCI_Variant": args.variant, "Hash": args.hash}
    varia_args = args.varia_args.split()
    # Given a rules file, Varia plays it (with the weights beside it or given): no UCI_Variant.
    named = any(a.endswith((".var", ".ini")) for a in varia_args)
    varia = Engine([args.varia] + varia_args, "Varia", {"Hash": args.hash} if named else base)
    records, summary_levels = [], []
    pgn_out = open(args.pgn, "w") if args.pgn else None
    try:
        for level in levels:
            opts = dict(base, **{"Move Overhead": args.fsf_overhead})
            if level is not None:
                opts.update({"UCI_LimitStrength": "true", "UCI_Elo": level})
            fsf_name = "Fairy-Stockfish" + (f" {level}" if level else "")
            fsf = Engine([args.fsf], fsf_name, opts)
            w = d = l = 0
            try:
                for g in range(args.games):
                    opening = openings[(g // 2) % len(openings)]
                    varia_white = g % 2 == 0
                    varia.new_game()
                    fsf.new_game()
                    rec = play_game(varia, fsf, args.variant, opening, varia_white, tc, args.max_plies)
                    pts = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[rec["result"]]
                    pts = pts if varia_white else 1 - pts
                    w, d, l = w + (pts == 1), d + (pts == 0.5), l + (pts == 0)
                    rec.update({"level": level, "varia_white": varia_white, "varia_points": pts})
                    records.append(rec)
                    white, black = ("Varia", fsf_name) if varia_white else (fsf_name, "Varia")
                    headers = {"Event": f"Varia against {fsf_name}", "Round": str(len(records)), "White": white,
                               "Black": black, "Result": rec["result"], "Variant": args.variant,
                               "TimeControl": args.tc, "Termination": rec["reason"]}
                    if pgn_out:
                        pgn_out.write(pgn(rec, headers) + "\n")
                        pgn_out.flush()
                    print(f"{fsf_name} game {g + 1:>3}: Varia {'white' if varia_white else 'black'}: {rec['result']} "
                          f"({rec['reason']}, {len(rec['moves'])} plies)  total +{w} ={d} -{l}", flush=True)
            finally:
                fsf.quit()
            s, elo, lo, hi = score_interval(w, d, l)
            n = w + d + l
            var = (w * (1 - s) ** 2 + d * (0.5 - s) ** 2 + l * s**2)
            sm = (w + d / 2 + 0.5) / (n + 1)
            summary_levels.append({"level": level, "wins": w, "draws": d, "losses": l, "score": s, "elo": elo,
                                   "elo_low": lo, "elo_high": hi, "variance": max(var, n * sm * (1 - sm))})
    finally:
        varia.quit()
        if pgn_out:
            pgn_out.close()
    fmt = lambda x: "unbounded" if x is None else f"{x:+.0f}"
    print(f"Varia against Fairy-Stockfish at {args.variant}, {args.tc}, {len(openings)} openings:")
    for sl in summary_levels:
        name = f"UCI_Elo {sl['level']}" if sl["level"] else "full strength"
        print(f"  {name}: +{sl['wins']} ={sl['draws']} -{sl['losses']}, score {100 * sl['score']:.1f}%, "
              f"Elo difference {fmt(sl['elo'])} (95% interval {fmt(sl['elo_low'])} to {fmt(sl['elo_high'])})")
    rated = [(sl["level"], sl["wins"] + sl["draws"] + sl["losses"], sl["wins"] + sl["draws"] / 2, sl["variance"])
             for sl in summary_levels if sl["level"]]
    r, r_lo, r_hi = rating(rated)
    if r is not None:
        bound = lambda x: "unbounded" if x is None else f"{x:.0f}"
        print(f"  rating on the UCI_Elo scale: {r:.0f} (95% interval {bound(r_lo)} to {bound(r_hi)})")
    cut = [i + 1 for i, rec in enumerate(records) if rec["reason"] == "ply limit"]
    if cut:
        print(f"  games cut at {args.max_plies} plies (read their last scores in the PGN): {cut}")
    load_after = os.getloadavg()
    print(f"  load average before: {load_before[0]:.2f}; after: {load_after[0]:.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"variant": args.variant, "tc": args.tc, "levels": summary_levels, "rating": r,
                       "rating_low": r_lo, "rating_high": r_hi, "load_before": load_before,
                       "load_after": load_after, "games": records}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
