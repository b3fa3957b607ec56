#!/usr/bin/env python3
# Usage: python3 web/load-test.py target/release/varia          (about 30 s; loopback only)
#        python3 web/load-test.py target/release/varia --idle 600  (about 12 s)
# Bounded loopback load test of `varia serve`: the issue-20 reproducers sent concurrently,
# heavy replays, slow-header connections, while light requests are timed. Stops by itself.
# With --idle N: a crowd of N idle connections (each one the server closes is opened again)
# while light requests are timed for 10 s.
import json, socket, subprocess, sys, threading, time, urllib.request, statistics

VARIA = sys.argv[1]
IDLE = int(sys.argv[3]) if len(sys.argv) > 3 and sys.argv[2] == "--idle" else None
proc = subprocess.Popen([VARIA, "serve", "--port", "0"], stdout=subprocess.PIPE, text=True)
line = proc.stdout.readline()
base = line.split("http://")[1].split("/")[0]
host, port = base.split(":"); port = int(port)
chess = open(__import__("os").path.join(__import__("os").path.dirname(__file__), "..", "variants", "chess.var")).read()

def post(path, body, timeout=60):
    data = json.dumps(body).encode()
    req = urllib.request.Request(f"http://{base}{path}", data=data, headers={"content-type": "application/json"})
    t = time.time()
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            code = r.status; r.read()
    except urllib.error.HTTPError as e:
        code = e.code; e.read()
    except Exception as e:
        code = repr(e)
    return code, time.time() - t

def get(path):
    t = time.time()
    with urllib.request.urlopen(f"http://{base}{path}", timeout=60) as r:
        r.read(); code = r.status
    return code, time.time() - t

def idle_crowd(n):
    """N idle connections opened at once and held for 10 s while light requests are timed."""
    crowd = [socket.create_connection((host, port)) for _ in range(n)]
    light, t0 = [], time.time()
    while time.time() - t0 < 10:
        t = time.time()
        try:
            code = get("/api/variants")[0]
        except Exception as e:
            code = type(e).__name__
        light.append((code, time.time() - t))
        time.sleep(0.05)
    closed = 0
    for c in crowd:
        c.settimeout(0.01)
        try:
            closed += c.recv(1) == b""
        except socket.timeout:
            pass
        except OSError:
            closed += 1
    alive = get("/api/variants")[0] == 200
    proc.terminate()
    ts = [x[1] for x in light]
    bad = [x[0] for x in light if x[0] != 200]
    print(f"{n} idle connections: GET /api/variants {len(light)} requests, non-200: {len(bad)} {sorted(set(bad))}, "
          f"median {statistics.median(ts)*1000:.1f} ms, max {max(ts)*1000:.1f} ms; "
          f"idle connections the server closed: {closed}/{n}; server alive: {alive}")
    sys.exit(0)

if IDLE is not None:
    idle_crowd(IDLE)

bomb = "(define D $1$1$1$1$1$1$1$1$1$1)\n(game (title (D (D (D (D (D (D (D (D (D x)))))))))))\n"
chain = chess.replace("piece King K {\n  royal", "piece King K {\n  move { if empty(n) { n add } " + "else if empty(e) { e add } " * 4000 + "}\n  royal")
grids = "".join(f'  grid 26 x 99 prefix "{chr(65+i)}" layer {i}\n' for i in range(25))
big = chess.replace("  grid 8 x 8\n", grids)
queens = ('variant "Big queens"\nboard {\n  grid 26 x 99\n}\nplayer white\nplayer black swap n <-> s  ne <-> se  nw <-> sw\n'
          'piece King K {\n  royal\n  step all\n}\npiece Queen Q {\n  slide all\n}\nsetup {\n  white: K a1, Q d1\n  black: K a99, Q d99\n}\n')
qmoves = (["Qd2", "Qd98", "Qd1", "Qd99"] * 1000)
heavy = [("/api/game", {"source": bomb, "format": "zrf"}), ("/api/game", {"source": chain}), ("/api/game", {"source": big})]
heavy += [("/api/game", {"source": queens, "moves": qmoves})] * 4
heavy += [("/api/ai", {"source": chess, "moves": ["e4"], "time_ms": 10000})] * 2

results = {}
def run_heavy(i, path, body):
    results[i] = post(path, body)

slow = []
for _ in range(20):
    s = socket.create_connection((host, port)); s.sendall(b"POST /api/game HTTP/1.1\r\nHost: x\r\n"); slow.append(s)

threads = [threading.Thread(target=run_heavy, args=(i, p, b)) for i, (p, b) in enumerate(heavy)]
t0 = time.time()
for t in threads: t.start()
light = []
while time.time() - t0 < 25:
    light.append(("GET /api/variants",) + get("/api/variants"))
    light.append(("POST /api/game chess",) + post("/api/game", {"source": chess, "moves": ["e4", "e5", "Nf3"]}))
    time.sleep(0.2)
for t in threads: t.join()
closed = 0
for s in slow:
    s.settimeout(1)
    try:
        closed += s.recv(10) == b""
    except Exception:
        pass
alive = get("/api/variants")[0] == 200
proc.terminate()
for name in ("GET /api/variants", "POST /api/game chess"):
    ts = [x[2] for x in light if x[0] == name]
    bad = [x for x in light if x[0] == name and x[1] != 200]
    print(f"{name}: {len(ts)} requests, median {statistics.median(ts)*1000:.1f} ms, max {max(ts)*1000:.1f} ms, non-200: {len(bad)}")
for i, (p, b) in enumerate(heavy):
    print(f"heavy {i} {p} ({len(json.dumps(b))} bytes): status {results[i][0]} in {results[i][1]:.2f} s")
print(f"slow-header connections closed by the server after the run: {closed}/20; server alive: {alive}")
