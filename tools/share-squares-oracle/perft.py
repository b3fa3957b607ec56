import sys
sys_argv = sys.argv[:]
sys.argv = ["x"]
exec(open(__import__("os").path.join(__import__("os").path.dirname(__file__), "oracle.py")).read().replace("\nmain()\n", "\n"))
def make2(pos, m):
    c, t, p, take, kind, promo = m
    q = make(pos, m)
    if kind == "pass":
        fwd = 1 if color(p) == "w" else -1
        q.ep = name(step(c, 0, fwd))
    rights = pos.castling if pos.castling != "-" else ""
    for r, cells in (("K", (4, 7)), ("Q", (4, 0)), ("k", (60, 63)), ("q", (60, 56))):
        if c in cells or t in cells:
            rights = rights.replace(r, "")
    q.castling = rights or "-"
    return q
def perft(pos, d):
    ms = legal(pos)
    if d == 1: return len(ms)
    return sum(perft(make2(pos, m), d - 1) for m in ms)
start = sys_argv[2] if len(sys_argv) > 2 else "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
for d in range(1, int(sys_argv[1]) + 1):
    print(d, perft(Pos(*parse(start)), d), flush=True)
