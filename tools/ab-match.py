#!/usr/bin/env python3
"""Plays two builds of Varia against each other over UCI at a fixed node count per move, to
measure a change to the search or the evaluation by games (A/B), whatever the machine's load.

Each opening (a line of the openings file, read as tools/fsf-match.py reads it) is played
twice, colours swapped. A search of fixed nodes is deterministic, so the node count of each
pair of games is drawn at random within `--jitter` of `--nodes` (seeded by `--seed`, the same
for both engines of a game): playing the openings again gives other games. The referee
(python-chess in chess, pyffish elsewhere) decides legality and the end; a game is adjudicated
when both engines have reported a score beyond `--resign` centipawns for the same side for
`--resign-moves` moves each, and drawn at `--max-plies`. The report gives the new build's
score, wins-draws-losses and the Elo difference with its 95% interval (tools/match_stats.py).
A change that costs search speed is charged for it with `--new-speed`: the new build's nodes
per second over the base's, measured apart, scale its node count.

Usage:

    python3 tools/ab-match.py --base OLD/varia --new NEW/varia --variant chess \\
        --openings tools/openings/chess.txt --nodes 100000 --games 200 --concurrency 2
"""

import argparse
import importlib.util
import os
import random
import sys
import threading

from match_stats import score_interval

_spec = importlib.util.spec_from_file_location("fsf_match", os.path.join(os.path.dirname(__file__), "fsf-match.py"))
fsf_match = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fsf_match)


def ask(engine, fen, moves, nodes):
    """The engine's move at `nodes` nodes and its last score in centipawns (mates as +-100000)."""
    position = "startpos" if fen is None else f"fen {fen}"
    engine.send(f"position {position}" + (" moves " + " ".join(moves) if moves else ""))
    engine.ready()
    seen = []
    engine.send(f"go nodes {nodes}")
    try:
        line = engine.wait_for(lambda l: l.startswith("bestmove"), 120, seen)
    except (TimeoutError, EOFError):
        return None, None
    score = None
    for info in seen:
        w = info.split()
        if w[:1] == ["info"] and "score" in w:
            i = w.index("score")
            if w[i + 1] == "cp":
                score = int(w[i + 2])
            elif w[i + 1] == "mate":
                score = 100000 if int(w[i + 2]) > 0 else -100000
    words = line.split()
    move = words[1] if len(words) > 1 and words[1] not in ("0000", "(none)") else None
    return move, score


def play(engines, new_white, variant, opening, nodes, args):
    """One game; returns (points of the new build, reason, record for the PGN)."""
    fen, start = opening
    ref = fsf_match.opening_referee(variant, opening)
    for e in engines.values():
        e.new_game()
    # Per engine, its scores turned to White's view, latest last.
    white_scores = {"new": [], "base": []}
    comments = []
    while True:
        end = fsf_match.game_over(ref, args.max_plies)
        if end is not None:
            result, reason = end
            break
        white = ref.white_to_move()
        who = "new" if white == new_white else "base"
        # A change that slows the search is charged for it: the new build gets fewer nodes.
        budget = max(1, int(nodes * args.new_speed)) if who == "new" else nodes
        move, score = ask(engines[who], fen, ref.moves(), budget)
        if move is None or not ref.legal(move):
            result, reason = ("0-1" if white else "1-0"), f"{who} played an illegal move `{move}`"
            break
        ref.push(move)
        comments.append(f"{'?' if score is None else score / 100:+}")
        if score is not None:
            white_scores[who].append(score if white else -score)
        k = args.resign_moves
        last = [s for w in ("new", "base") for s in white_scores[w][-k:]]
        if all(len(white_scores[w]) >= k for w in white_scores):
            if all(s >= args.resign for s in last):
                result, reason = "1-0", "adjudicated"
                break
            if all(s <= -args.resign for s in last):
                result, reason = "0-1", "adjudicated"
                break
    points = {"1-0": 1.0, "0-1": 0.0}.get(result, 0.5)
    if not new_white:
        points = 1 - points
    record = {"result": result, "reason": reason, "moves": ref.moves(), "opening_plies": len(start),
              "comments": comments, "san": ref.san(), "fen": fen}
    return points, reason, record


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", required=True, help="the old build's binary")
    ap.add_argument("--new", required=True, help="the new build's binary")
    ap.add_argument("--args", default="uci", help="arguments of both commands")
    ap.add_argument("--variant", default="chess")
    ap.add_argument("--openings", help="openings file (default: the start position)")
    ap.add_argument("--games", type=int, default=100, help="games in all (pairs of colours)")
    ap.add_argument("--nodes", type=int, default=100000, help="nodes per move")
    ap.add_argument("--new-speed", type=float, default=1.0,
                    help="the new build's nodes per move as a fraction of the base's: its measured speed "
                         "against the base's, so that a slower evaluation pays for its nodes")
    ap.add_argument("--jitter", type=float, default=0.2, help="node count drawn within this fraction")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--concurrency", type=int, default=1, help="games played at once")
    ap.add_argument("--hash", type=int, default=16)
    ap.add_argument("--max-plies", type=int, default=300)
    ap.add_argument("--resign", type=int, default=700, help="adjudication score, centipawns")
    ap.add_argument("--resign-moves", type=int, default=4)
    ap.add_argument("--pgn", help="write the games as PGN here")
    args = ap.parse_args()

    openings = fsf_match.read_openings(args.openings, args.variant)
    rng = random.Random(args.seed)
    jobs = []
    for pair in range((args.games + 1) // 2):
        nodes = int(args.nodes * (1 + rng.uniform(-args.jitter, args.jitter)))
        for new_white in (True, False):
            jobs.append((pair, openings[pair % len(openings)], nodes, new_white))
    jobs = jobs[: args.games]
    lock = threading.Lock()
    tally = {"w": 0, "d": 0, "l": 0}
    reasons = {}
    pgns = []
    named = any(a.endswith((".var", ".ini")) for a in args.args.split())
    opts = {"Hash": args.hash} if named else {"Hash": args.hash, "UCI_Variant": args.variant}

    def worker():
        engines = {"new": fsf_match.Engine([args.new] + args.args.split(), "new", opts),
                   "base": fsf_match.Engine([args.base] + args.args.split(), "base", opts)}
        try:
            while True:
                with lock:
                    if not jobs:
                        return
                    n, opening, nodes, new_white = jobs.pop(0)
                points, reason, record = play(engines, new_white, args.variant, opening, nodes, args)
                with lock:
                    tally["w" if points == 1 else "l" if points == 0 else "d"] += 1
                    reasons[reason] = reasons.get(reason, 0) + 1
                    w, d, l = tally["w"], tally["d"], tally["l"]
                    s, elo, lo, hi = score_interval(w, d, l)
                    print(f"game {w + d + l}: new {'white' if new_white else 'black'} {record['result']} "
                          f"({reason}, {len(record['moves'])} plies, {nodes} nodes)  "
                          f"total +{w} ={d} -{l}  {100 * s:.1f}%", flush=True)
                    headers = {"Event": "ab-match", "Round": str(n + 1),
                               "White": "new" if new_white else "base", "Black": "base" if new_white else "new",
                               "Result": record["result"], "Termination": reason}
                    pgns.append(fsf_match.pgn(record, headers))
        finally:
            for e in engines.values():
                e.quit()

    threads = [threading.Thread(target=worker) for _ in range(args.concurrency)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    w, d, l = tally["w"], tally["d"], tally["l"]
    s, elo, lo, hi = score_interval(w, d, l)
    fmt = lambda x: "unbounded" if x is None else f"{x:+.0f}"
    print(f"new vs base: +{w} ={d} -{l} of {w + d + l}, score {100 * s:.1f}%, "
          f"Elo {fmt(elo)} (95% {fmt(lo)} to {fmt(hi)}); endings: {reasons}")
    if args.pgn:
        with open(args.pgn + ".tmp", "w") as f:
            f.write("\n".join(pgns))
        os.replace(args.pgn + ".tmp", args.pgn)
    return 0


if __name__ == "__main__":
    sys.exit(main())
