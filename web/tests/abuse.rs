//! The server under abuse (issue 20, items 1, 2, 4, 5 and 9): hostile texts, slow and vanishing
//! clients, heavy requests in parallel with light ones, and errors that are all JSON.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use varia_web::{Server, Timeouts};

/// Starts a server with these time limits; returns its address and state.
fn start(timeouts: Timeouts) -> (String, Arc<Server>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut server = Server::new(&[]).expect("the bundled variants load");
    server.timeouts = timeouts;
    let server = Arc::new(server);
    let state = server.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .thread_stack_size(32 << 20)
            .build()
            .expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
            tx.send(listener.local_addr().expect("an address")).expect("the test waits");
            varia_web::serve(listener, server).await.expect("the server runs");
        });
    });
    (rx.recv().expect("the server starts").to_string(), state)
}

fn short() -> Timeouts {
    Timeouts {
        header: Duration::from_millis(800),
        body: Duration::from_millis(800),
        request: Duration::from_secs(20),
        job: Duration::from_millis(400),
    }
}

/// The start of a JSON answer, for assertion messages.
fn brief(v: &Value) -> String {
    v.to_string().chars().take(300).collect()
}

/// Sends raw bytes and reads the whole answer (the server closes after it: `Connection: close`).
fn raw(addr: &str, request: &[u8]) -> String {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    s.write_all(request).expect("send");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).into_owned()
}

/// Status and JSON body of a raw answer.
fn parse(answer: &str) -> (u16, Value) {
    let status = answer.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = answer.split("\r\n\r\n").nth(1).unwrap_or("");
    (status, serde_json::from_str(body).unwrap_or(Value::String(body.to_string())))
}

fn post(addr: &str, path: &str, body: &Value) -> (u16, Value) {
    let body = body.to_string();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    parse(&raw(addr, [head.as_bytes(), body.as_bytes()].concat().as_slice()))
}

fn get(addr: &str, path: &str) -> (u16, Value) {
    parse(&raw(addr, format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").as_bytes()))
}

fn chess() -> String {
    std::fs::read_to_string(format!("{}/../variants/chess.var", env!("CARGO_MANIFEST_DIR"))).expect("chess.var")
}

/// Errors of every kind are JSON: 405, a path that is not UTF-8, an unknown route.
#[test]
fn every_error_is_json() {
    let (addr, _) = start(Timeouts::default());
    for (request, status) in [
        ("PUT /api/game HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", 405),
        ("GET /api/game HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
        ("DELETE /api/variants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 405),
        ("GET /api/variants/%FF%FE HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 400),
        ("GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", 404),
    ] {
        let (got, body) = parse(&raw(&addr, request.as_bytes()));
        assert_eq!(got, status, "{request}: {}", brief(&body));
        assert!(body["error"].as_str().is_some_and(|e| !e.is_empty()), "{request}: {}", brief(&body));
    }
}

/// The reproducers of items 1, 2 and 4, sent together: each gets a 422 with its diagnostic,
/// quickly, and the server stays up.
#[test]
fn hostile_texts_get_located_errors_and_the_server_stays_up() {
    let (addr, _) = start(Timeouts::default());
    let bomb = "(define D $1$1$1$1$1$1$1$1$1$1)\n(game (title (D (D (D (D (D (D (D (D (D x)))))))))))\n";
    let chain = chess().replace(
        "piece King K {\n  royal",
        &format!(
            "piece King K {{\n  move {{ if empty(n) {{ n add }} {}}}\n  royal",
            "else if empty(e) { e add } ".repeat(4000)
        ),
    );
    let grids: String =
        (0..25).map(|i| format!("  grid 26 x 99 prefix \"{}\" layer {i}\n", (b'A' + i) as char)).collect();
    let big = chess().replace("  grid 8 x 8\n", &grids);
    let texts = [
        (json!({"source": bomb, "format": "zrf"}), "macro expansion produces more than 16777216 bytes"),
        (json!({"source": chain}), "nested too deep"),
        (json!({"source": big}), "the board has more than 10000 cells"),
    ];
    let started = Instant::now();
    let answers: Vec<(u16, Value)> = std::thread::scope(|s| {
        let handles: Vec<_> = texts.iter().map(|(body, _)| s.spawn(|| post(&addr, "/api/game", body))).collect();
        handles.into_iter().map(|h| h.join().expect("a client")).collect()
    });
    for ((status, body), (_, message)) in answers.iter().zip(&texts) {
        assert_eq!(*status, 422, "{}", brief(body));
        let first = body["diagnostics"][0]["message"].as_str().unwrap_or("");
        assert!(first.contains(message), "{first}");
    }
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(get(&addr, "/api/variants").0, 200);
}

/// Item 5: connections that send their headers slowly (or nothing) are closed after the header
/// timeout, and a light request answers meanwhile.
#[test]
fn slow_headers_and_bodies_are_cut_off() {
    let (addr, _) = start(short());
    let mut slow: Vec<TcpStream> = (0..20)
        .map(|_| {
            let mut s = TcpStream::connect(&addr).expect("connect");
            s.write_all(b"POST /api/game HTTP/1.1\r\nHost: x\r\n").expect("half a header");
            s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
            s
        })
        .collect();
    let started = Instant::now();
    assert_eq!(get(&addr, "/api/variants").0, 200);
    assert!(started.elapsed() < Duration::from_secs(2));
    for s in &mut slow {
        let mut buf = [0u8; 256];
        // Closed by the server: end of file (or a reset), well before our 10 s read timeout.
        let n = s.read(&mut buf).unwrap_or(0);
        assert_eq!(n, 0, "{}", String::from_utf8_lossy(&buf[..n]));
    }
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    // A body that never arrives in full: a JSON error once the body timeout passes.
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.write_all(
        b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"sou",
    )
    .expect("part of a body");
    s.set_read_timeout(Some(Duration::from_secs(10))).expect("timeout");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let (status, body) = parse(&String::from_utf8_lossy(&out));
    assert!((400..600).contains(&status), "{status} {body}");
    assert!(body["error"].is_string(), "{body}");
}

/// A game whose replay takes well over the test's 0.4 s deadline: 4,000 moves on a 26 x 99
/// board where each side has 106 queens, in a variant without repetition or move rules, so the
/// queens may shuffle for ever. The other queens stand on ranks from which none reaches d2 or
/// d98, so that `Qd2` and `Qd98` stay one move each.
fn heavy_game() -> Value {
    let files = "fghijklmnopqrstuvwxyz";
    let ranks =
        |rs: &[u32]| -> String { rs.iter().flat_map(|r| files.chars().map(move |f| format!(" {f}{r}"))).collect() };
    let text = format!(
        "variant \"Big queens\"\nboard {{\n  grid 26 x 99\n}}\nplayer white\n\
         player black swap n <-> s  ne <-> se  nw <-> sw\npiece King K {{\n  royal\n  step all\n}}\n\
         piece Queen Q {{\n  slide all\n}}\nsetup {{\n  white: K a1, Q d1{}\n  black: K a99, Q d99{}\n}}\n",
        ranks(&[30, 35, 40, 45, 50]),
        ranks(&[51, 55, 60, 65, 70])
    );
    let moves: Vec<&str> = ["Qd2", "Qd98", "Qd1", "Qd99"].iter().cycle().take(4000).copied().collect();
    json!({"source": text, "moves": moves})
}

/// Items 4 and 5: heavy requests run off the async workers, end at their deadline with a JSON
/// 503, and light requests answer within 2 s meanwhile; a heavy request whose client goes away
/// stops.
#[test]
fn light_requests_answer_while_heavy_ones_run() {
    let heavy = heavy_game();
    // The heavy game is legal: its first moves replay (on a server with the usual deadline,
    // which a loaded machine does not make this check miss).
    let mut opening = heavy.clone();
    opening["moves"] = json!(heavy["moves"].as_array().map(|m| m[..8].to_vec()));
    let (status, body) = post(&start(Timeouts::default()).0, "/api/game", &opening);
    assert_eq!(status, 200, "{}", brief(&body));
    let (addr, _) = start(short());
    let started = Instant::now();
    std::thread::scope(|s| {
        let heavies: Vec<_> = (0..4).map(|_| s.spawn(|| post(&addr, "/api/game", &heavy))).collect();
        std::thread::sleep(Duration::from_millis(500));
        let mut slowest = Duration::ZERO;
        for _ in 0..5 {
            let t = Instant::now();
            assert_eq!(get(&addr, "/api/variants").0, 200);
            let (status, _) = post(&addr, "/api/game", &json!({"source": chess(), "moves": ["e4", "e5"]}));
            assert_eq!(status, 200);
            slowest = slowest.max(t.elapsed());
        }
        println!("slowest light request pair while 4 heavy ones run: {slowest:?}");
        assert!(slowest < Duration::from_secs(2), "{slowest:?}");
        for h in heavies {
            let (status, body) = h.join().expect("a heavy client");
            assert_eq!(status, 503, "{}", brief(&body));
            assert!(body["error"].as_str().is_some_and(|e| e.contains("took longer than 0.4 s")), "{}", brief(&body));
        }
    });
    assert!(started.elapsed() < Duration::from_secs(15), "{:?}", started.elapsed());
    // A client that goes away: its 10 s search stops at once.
    let (addr, server) = start(Timeouts::default());
    let body = json!({"source": chess(), "moves": ["e4"], "time_ms": 10000}).to_string();
    let mut s = TcpStream::connect(&addr).expect("connect");
    let head = format!(
        "POST /api/ai HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send");
    s.write_all(body.as_bytes()).expect("send");
    let until = Instant::now() + Duration::from_secs(3);
    while server.jobs_running() == 0 && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(server.jobs_running(), 1);
    for _ in 0..10 {
        std::thread::sleep(Duration::from_millis(100));
        assert_eq!(server.jobs_running(), 1, "the search still runs");
    }
    drop(s);
    let gone = Instant::now();
    while server.jobs_running() > 0 && gone.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(10));
    }
    println!("job stopped {:?} after its client left", gone.elapsed());
    assert!(gone.elapsed() < Duration::from_secs(1), "{:?}", gone.elapsed());
}

/// Eight pieces' programs a side, each walking a 26 x 26 board in nested loops without
/// producing a move: before programs were bounded by a constant per move, compiling such a game
/// took about 37 s and listing its moves seconds.
const LOOPING_GAME: &str = include_str!("../../tests/games/looping-programs.var");

/// Issue 50, item 4: eight requests for a game of looping programs are answered within the
/// usual deadline, light requests answer meanwhile, and no work goes on after the answers.
#[test]
fn games_of_looping_programs_are_answered_within_their_deadline() {
    let (addr, server) = start(Timeouts::default());
    let game = json!({"source": LOOPING_GAME, "moves": []});
    let started = Instant::now();
    std::thread::scope(|s| {
        let heavies: Vec<_> = (0..8).map(|_| s.spawn(|| post(&addr, "/api/game", &game))).collect();
        std::thread::sleep(Duration::from_millis(200));
        let t = Instant::now();
        assert_eq!(get(&addr, "/api/variants").0, 200);
        assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
        for h in heavies {
            let (status, body) = h.join().expect("a client");
            assert_eq!(status, 200, "{}", brief(&body));
        }
    });
    let took = started.elapsed();
    println!("eight games of looping programs answered in {took:?}");
    assert!(took < varia_web::JOB_DEADLINE, "{took:?}");
    assert_eq!(server.jobs_running(), 0);
}
