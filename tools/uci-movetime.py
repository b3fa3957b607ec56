#!/usr/bin/env python3
"""Times `go movetime N` answers of a UCI engine: the wall time from sending `go` to reading
`bestmove`, over positions of a short self-played game, and prints the median, the 90th
percentile and the most, each against N."""
import argparse
import statistics
import subprocess
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--engine", default="target/release/varia", help="the engine's binary")
    ap.add_argument("--args", default="uci", help="its arguments, space-separated")
    ap.add_argument("--movetime", type=int, default=500, help="milliseconds per move")
    ap.add_argument("--moves", type=int, default=50, help="moves to time")
    ap.add_argument("--go", default="", help="the go command's arguments instead of movetime")
    a = ap.parse_args()
    p = subprocess.Popen([a.engine] + a.args.split(), stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine ended")
            if line.startswith(prefix):
                return line

    send("uci")
    until("uciok")
    send("ucinewgame")
    send("isready")
    until("readyok")
    moves, times = [], []
    go = a.go or f"movetime {a.movetime}"
    for _ in range(a.moves):
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("isready")
        until("readyok")
        t0 = time.monotonic()
        send("go " + go)
        best = until("bestmove").split()[1]
        times.append((time.monotonic() - t0) * 1000)
        if best == "0000" or best == "(none)":
            moves = []
            continue
        moves.append(best)
    send("quit")
    p.wait()
    times.sort()
    print(f"{len(times)} moves, go {go}: median {statistics.median(times):.1f} ms, "
          f"90% {times[int(len(times) * 0.9)]:.1f} ms, most {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
