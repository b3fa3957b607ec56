#!/usr/bin/env python3
"""Search speed of Varia against Debian's Fairy-Max at chess: nodes per second, same positions,
same machine, one after the other.

Each position (a line of moves from the start) is searched by `varia analyse` (chess.var) and
by Fairy-Max (xboard, fixed depth) for about --seconds each; the figures are the deepest
completed iteration's nodes and time as each engine reports them. Both count every node they
visit, quiescence included; their trees differ (Varia prunes harder and goes deeper), so the
ratio compares speed per node, not strength. Issue 22 asks for Varia's rate to be at least
Fairy-Max's.

Needs: `apt-get install fairymax` and a release build (`cargo build --release`). Usage:

    python3 tools/nps-fairymax.py [--seconds 2]
"""

import argparse
import os
import re
import subprocess
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
VARIA = os.path.join(ROOT, "target", "release", "varia")

POSITIONS = [
    ("start", ""),
    ("Italian", "e2e4 e7e5 g1f3 b8c6 f1c4 f8c5"),
    ("Queen's Gambit Declined", "d2d4 d7d5 c2c4 e7e6 b1c3 g8f6 c1g5 f8e7"),
    ("Sicilian", "e2e4 c7c5 g1f3 d7d6 d2d4 c5d4 f3d4 g8f6 b1c3 a7a6"),
]


def varia(moves, seconds):
    """(depth, nodes, seconds) of Varia's last completed iteration."""
    args = [VARIA, "analyse", os.path.join(ROOT, "variants", "chess.var"), "--time", str(seconds)]
    if moves:
        args += ["--after", moves]
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    last = None
    for line in out.splitlines():
        m = re.match(r"depth\s+(\d+)\s+score\s+.+?\s+nodes\s+(\d+)\s+nps\s+\d+\s+time\s+([\d.]+)s", line)
        if m:
            last = (int(m.group(1)), int(m.group(2)), float(m.group(3)))
    return last


def fairymax(moves, seconds):
    """(depth, nodes, seconds) of Fairy-Max's deepest iteration that took at most `seconds`."""
    proc = subprocess.Popen(["fairymax"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    commands = ["xboard", "protover 2", "new", "force", *moves.split(), "post", "st 100", "sd 30", "go"]
    proc.stdin.write("\n".join(commands) + "\n")
    proc.stdin.flush()
    best = None
    start = time.time()
    # Fairy-Max may fall silent (no line to read): the watchdog ends it, and the reading with it.
    watchdog = threading.Timer(4 * seconds + 10, proc.kill)
    watchdog.start()
    for line in proc.stdout:
        # Thinking output: depth, score, time in centiseconds, nodes, principal variation.
        m = re.match(r"\s*(\d+)\s+-?\d+\s+(\d+)\s+(\d+)\s", line)
        if m:
            t = int(m.group(2)) / 100
            if t > seconds:
                break
            best = (int(m.group(1)), int(m.group(3)), t)
        if time.time() - start > 4 * seconds + 10:
            break
    watchdog.cancel()
    proc.kill()
    proc.wait()
    return best


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    args = parser.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    total = {"varia": [0, 0.0], "fairymax": [0, 0.0]}
    for name, moves in POSITIONS:
        v = varia(moves, args.seconds)
        f = fairymax(moves, args.seconds)
        for key, r in (("varia", v), ("fairymax", f)):
            total[key][0] += r[1]
            total[key][1] += r[2]
        print(
            f"{name:<26} varia depth {v[0]:>2} {v[1]:>9} nodes {v[1] / max(v[2], 1e-3):>9.0f}/s   "
            f"fairymax depth {f[0]:>2} {f[1]:>9} nodes {f[1] / max(f[2], 1e-3):>9.0f}/s"
        )
    vr = total["varia"][0] / total["varia"][1]
    fr = total["fairymax"][0] / total["fairymax"][1]
    print(f"nodes per second over all positions: varia {vr:.0f}, fairymax {fr:.0f}, varia/fairymax {vr / fr:.2f}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
