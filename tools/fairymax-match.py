#!/usr/bin/env python3
"""Plays Varia (UCI) against Debian's Fairy-Max (xboard) at chess, with python-chess as referee.

Every game starts from one of the openings below (each played twice, colours swapped) and is
played to its end by the rules python-chess applies (checkmate, stalemate, insufficient
material, threefold repetition and the fifty-move rule claimed at once), or adjudicated a draw
at --max-plies. Both engines play on a clock: --moves moves in --seconds seconds, repeating
(40 in 20 s by default: 0.5 s a move on average). Fairy-Max reads time only in whole seconds
per move (`st`), so a clock is the only way to give both the same time; each engine manages
its own. An engine that oversteps its clock loses.

Fairy-Max does not declare `setboard`, which python-chess's xboard client requires, so this
script drives it with a small xboard client of its own (new, force, level, time/otim, go).

Needs: `apt-get install fairymax`, `pip install chess`, and a release build of Varia
(`cargo build --release`). Usage:

    python3 tools/fairymax-match.py --games 40 --json /tmp/fm.json

Prints one line per game and the summary: wins, draws and losses of Varia, its score and Elo
difference with a 95% interval (Wilson score interval with the games' spread, as
`varia match` reports), and the machine's load average before and after.
"""

import argparse
import json
import os
import queue
import subprocess
import sys
import threading
import time

import chess
import chess.engine
import chess.pgn

from match_stats import score_interval

# Common openings (up to six plies), each balanced enough for a test match.
OPENINGS = [
    "e2e4 e7e5 g1f3 b8c6 f1b5",  # Ruy Lopez
    "e2e4 e7e5 g1f3 b8c6 f1c4",  # Italian
    "e2e4 c7c5 g1f3 d7d6 d2d4",  # Sicilian
    "e2e4 c7c5 b1c3 b8c6 g2g3",  # Closed Sicilian
    "e2e4 e7e6 d2d4 d7d5 b1c3",  # French
    "e2e4 c7c6 d2d4 d7d5 e4e5",  # Caro-Kann advance
    "e2e4 d7d6 d2d4 g8f6 b1c3",  # Pirc
    "e2e4 d7d5 e4d5 d8d5 b1c3",  # Scandinavian
    "d2d4 d7d5 c2c4 e7e6 b1c3",  # Queen's Gambit Declined
    "d2d4 d7d5 c2c4 c7c6 g1f3",  # Slav
    "d2d4 d7d5 c2c4 d5c4 g1f3",  # Queen's Gambit Accepted
    "d2d4 g8f6 c2c4 g7g6 b1c3",  # King's Indian / Grünfeld
    "d2d4 g8f6 c2c4 e7e6 b1c3",  # Nimzo-Indian
    "d2d4 g8f6 c2c4 e7e6 g1f3",  # Queen's Indian
    "d2d4 f7f5 g2g3 g8f6 f1g2",  # Dutch
    "c2c4 e7e5 b1c3 g8f6 g1f3",  # English
    "c2c4 c7c5 g1f3 g8f6 b1c3",  # Symmetrical English
    "g1f3 d7d5 g2g3 g8f6 f1g2",  # Réti
    "e2e4 e7e5 f2f4 e5f4 g1f3",  # King's Gambit
    "e2e4 e7e5 b1c3 g8f6 f2f4",  # Vienna
    "e2e4 g8f6 e4e5 f6d5 d2d4",  # Alekhine
    "d2d4 d7d5 g1f3 g8f6 c1f4",  # London
    "e2e4 e7e5 g1f3 g8f6 f3e5",  # Petrov
    "b2b3 e7e5 c1b2 b8c6 e2e3",  # Larsen
]


class XBoard:
    """A minimal xboard (protocol 2) client: the engine is kept in force mode and told to move
    with `go` when it is its turn."""

    def __init__(self, command):
        self.proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.lines = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.send("xboard")
        self.send("protover 2")
        self.wait_for(lambda l: l.startswith("feature") and "done=1" in l, 10)

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put(line.strip())
        self.lines.put(None)

    def send(self, text):
        self.proc.stdin.write(text + "\n")
        self.proc.stdin.flush()

    def wait_for(self, test, timeout):
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise TimeoutError("the xboard engine did not answer")
            line = self.lines.get(timeout=left)
            if line is None:
                raise EOFError("the xboard engine quit")
            if test(line):
                return line

    def new_game(self, moves, moves_per_control, seconds):
        self.send("new")
        self.send("easy")
        self.send("force")
        minutes, secs = divmod(int(round(seconds)), 60)
        self.send(f"level {moves_per_control} {minutes}:{secs:02d} 0")
        for m in moves:
            self.send(m)

    def play(self, own_clock, other_clock, timeout):
        self.send(f"time {max(1, int(own_clock * 100))}")
        self.send(f"otim {max(1, int(other_clock * 100))}")
        self.send("go")
        line = self.wait_for(lambda l: l.startswith("move ") or l.startswith("resign"), timeout)
        self.send("force")
        if line.startswith("resign"):
            return None
        return line.split()[1]

    def opponent_move(self, uci):
        self.send(uci)

    def quit(self):
        try:
            self.send("quit")
            self.proc.wait(timeout=5)
        except Exception:
            self.proc.kill()


def play_game(varia, fairymax, opening, varia_white, args, game_no):
    board = chess.Board()
    for uci in opening.split():
        board.push_uci(uci)
    fairymax.new_game(opening.split(), args.moves, args.seconds)
    varia_side = chess.WHITE if varia_white else chess.BLACK
    clocks = {chess.WHITE: args.seconds, chess.BLACK: args.seconds}
    moves_played = {chess.WHITE: 0, chess.BLACK: 0}
    while True:
        outcome = board.outcome(claim_draw=True)
        if outcome is not None:
            return board, outcome.result(), outcome.termination.name.lower()
        if board.ply() >= args.max_plies:
            return board, "1/2-1/2", "ply limit"
        side = board.turn
        loses = "0-1" if side == chess.WHITE else "1-0"
        start = time.monotonic()
        if side == varia_side:
            left = args.moves - moves_played[side] % args.moves
            limit = chess.engine.Limit(
                white_clock=clocks[chess.WHITE], black_clock=clocks[chess.BLACK], remaining_moves=left
            )
            move = varia.play(board, limit, game=game_no).move
        else:
            text = fairymax.play(clocks[side], clocks[not side], clocks[side] + 30)
            if text is None:
                return board, loses, "resignation"
            try:
                move = chess.Move.from_uci(text)
            except ValueError:
                return board, loses, f"unreadable move {text}"
        clocks[side] -= time.monotonic() - start
        if clocks[side] < 0:
            return board, loses, "time forfeit"
        if move is None or move not in board.legal_moves:
            return board, loses, f"illegal move {move}"
        board.push(move)
        if side == varia_side:
            fairymax.opponent_move(move.uci())
        moves_played[side] += 1
        if moves_played[side] % args.moves == 0:
            clocks[side] += args.seconds


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--moves", type=int, default=40, help="moves per time control")
    ap.add_argument("--seconds", type=float, default=20.0, help="seconds per time control")
    ap.add_argument("--max-plies", type=int, default=400)
    ap.add_argument("--varia", default=os.path.join(os.path.dirname(__file__), "..", "target", "release", "varia"))
    ap.add_argument("--varia-args", default="uci", help="arguments of the Varia command (e.g. 'uci --weights F')")
    ap.add_argument("--fairymax", default="/usr/games/fairymax")
    ap.add_argument("--json", help="write the games and the summary here")
    ap.add_argument("--pgn", help="write the games as PGN here")
    ap.add_argument("--first-game", type=int, default=0, help="start at this game number (for resuming)")
    args = ap.parse_args()

    load_before = os.getloadavg()
    varia = chess.engine.SimpleEngine.popen_uci([args.varia] + args.varia_args.split())
    fairymax = XBoard([args.fairymax])
    games = []
    wins = draws = losses = 0
    try:
        for g in range(args.first_game, args.games):
            opening = OPENINGS[(g // 2) % len(OPENINGS)]
            varia_white = g % 2 == 0
            board, result, reason = play_game(varia, fairymax, opening, varia_white, args, g)
            varia_points = {"1-0": 1.0, "0-1": 0.0, "1/2-1/2": 0.5}[result]
            if not varia_white:
                varia_points = 1.0 - varia_points
            if varia_points == 1.0:
                wins += 1
            elif varia_points == 0.0:
                losses += 1
            else:
                draws += 1
            game = chess.pgn.Game.from_board(board)
            game.headers["Event"] = "Varia against Fairy-Max"
            game.headers["Round"] = str(g + 1)
            game.headers["White"] = "Varia" if varia_white else "Fairy-Max"
            game.headers["Black"] = "Fairy-Max" if varia_white else "Varia"
            game.headers["Result"] = result
            game.headers["Termination"] = reason
            games.append(
                {
                    "game": g + 1,
                    "opening": opening,
                    "varia_white": varia_white,
                    "result": result,
                    "reason": reason,
                    "plies": board.ply(),
                    "varia_points": varia_points,
                    "pgn": str(game),
                }
            )
            s, elo, lo, hi = score_interval(wins, draws, losses)
            print(
                f"game {g + 1:>3}: Varia {'white' if varia_white else 'black'}: {result} ({reason}, {board.ply()} plies)"
                f"  total +{wins} ={draws} -{losses} ({100 * s:.1f}%)",
                flush=True,
            )
    finally:
        varia.quit()
        fairymax.quit()
    load_after = os.getloadavg()
    s, elo, lo, hi = score_interval(wins, draws, losses)
    fmt = lambda x: "unbounded" if x is None else f"{x:+.0f}"
    print(f"Varia against Fairy-Max: {len(games)} games, +{wins} ={draws} -{losses}")
    print(f"score {100 * s:.1f}%, Elo {fmt(elo)} (95% interval {fmt(lo)} to {fmt(hi)})")
    print(f"time control: {args.moves} moves in {args.seconds:g} s, repeating")
    print(f"load average before: {load_before[0]:.2f} {load_before[1]:.2f} {load_before[2]:.2f}; after: {load_after[0]:.2f} {load_after[1]:.2f} {load_after[2]:.2f}")
    summary = {
        "games": len(games),
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "score": s,
        "elo": elo,
        "elo_low": lo,
        "elo_high": hi,
        "moves_per_control": args.moves,
        "seconds_per_control": args.seconds,
        "load_before": load_before,
        "load_after": load_after,
        "records": games,
    }
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=1)
    if args.pgn:
        with open(args.pgn, "w") as f:
            for gm in games:
                f.write(gm["pgn"] + "\n\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
