//! The JSON API against a real server on a random loopback port: answers, limits and errors.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::{Arc, Barrier, OnceLock};
use std::time::Duration;

use serde_json::{json, Value};

/// The address of a server started once for most tests.
fn base() -> &'static str {
    static BASE: OnceLock<String> = OnceLock::new();
    BASE.get_or_init(start)
}

/// Starts a server on a port the system chose and returns its address.
fn start() -> String {
    {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
                tx.send(listener.local_addr().expect("an address")).expect("the test waits");
                let server = Arc::new(varia_web::Server::new(&[]).expect("the bundled variants load"));
                varia_web::serve(listener, server).await.expect("the server runs");
            });
        });
        format!("http://{}", rx.recv().expect("the server starts"))
    }
}

fn source(file: &str) -> String {
    std::fs::read_to_string(format!("{}/../variants/{file}", env!("CARGO_MANIFEST_DIR"))).expect("variant file")
}

/// An answer: its status, media type (without parameters such as the charset) and body.
struct Response {
    status: u16,
    content_type: String,
    body: String,
}

/// One request on a connection of its own (`Connection: close`, so the answer ends where the
/// connection does). Plain `std`: an HTTP client crate's dependencies would change the features
/// of crates the `varia` binary shares and make `cargo test` rebuild them after `cargo run`.
fn request(base: &str, method: &str, path: &str, content_type: Option<&str>, body: &str) -> Response {
    let host = base.strip_prefix("http://").expect("an http:// address");
    let mut stream = TcpStream::connect(host).expect("connect to the server");
    stream.set_read_timeout(Some(Duration::from_secs(120))).expect("a read timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if let Some(media) = content_type {
        head.push_str(&format!("Content-Type: {media}\r\n"));
    }
    if method != "GET" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    stream.write_all(format!("{head}{body}").as_bytes()).expect("send the request");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("read the answer");
    let raw = String::from_utf8(raw).expect("a UTF-8 answer");
    let (head, body) = raw.split_once("\r\n\r\n").expect("an answer with a head");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    let header = |name: &str| {
        head.lines().skip(1).find_map(|l| {
            let (key, value) = l.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim().to_string())
        })
    };
    assert!(header("transfer-encoding").is_none(), "a chunked answer: {head}");
    let content_type = header("content-type").unwrap_or_default();
    let content_type = content_type.split(';').next().unwrap_or("").trim().to_string();
    Response { status, content_type, body: body.to_string() }
}

/// Status and JSON body (or the text, if not JSON) of an answer, success or not.
fn answer(resp: Response) -> (u16, Value) {
    let value = serde_json::from_str(&resp.body).unwrap_or(Value::String(resp.body));
    (resp.status, value)
}

fn get(path: &str) -> (u16, Value) {
    answer(request(base(), "GET", path, None, ""))
}

fn post(path: &str, body: Value) -> (u16, Value) {
    post_to(base(), path, body)
}

fn post_to(base: &str, path: &str, body: Value) -> (u16, Value) {
    answer(request(base, "POST", path, Some("application/json"), &body.to_string()))
}

fn post_raw(path: &str, content_type: &str, body: &str) -> (u16, Value) {
    answer(request(base(), "POST", path, Some(content_type), body))
}

fn game(file: &str, moves: &[&str]) -> Value {
    let (status, body) = post("/api/game", json!({ "source": source(file), "moves": moves }));
    assert_eq!(status, 200, "{body}");
    body
}

fn longs(view: &Value) -> Vec<String> {
    view["legal"].as_array().expect("legal moves").iter().map(|m| m["long"].as_str().unwrap().to_string()).collect()
}

fn cell(view: &Value, name: &str) -> usize {
    view["board"]["cells"].as_array().unwrap().iter().position(|c| c["name"] == name).expect("a cell of that name")
}

#[test]
fn the_page_and_its_assets_are_served() {
    let page = request(base(), "GET", "/", None, "");
    assert_eq!((page.status, page.content_type.as_str()), (200, "text/html"));
    assert!(page.body.contains("/app.js") && page.body.contains("id=\"board\""));
    for (path, media) in [
        ("/app.js", "text/javascript"),
        ("/pieces.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/side.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let asset = request(base(), "GET", path, None, "");
        assert_eq!((asset.status, asset.content_type.as_str()), (200, media), "{path}");
        assert!(!asset.body.is_empty(), "{path}");
    }
    let (status, body) = get("/no/such/page");
    assert_eq!(status, 404);
    assert_eq!(body["error"], "no such page or API route");
}

#[test]
fn variants_are_listed_in_catalogue_order_and_fetched_by_id() {
    let (status, body) = get("/api/variants");
    assert_eq!(status, 200);
    let ids: Vec<&str> = body["variants"].as_array().unwrap().iter().map(|v| v["id"].as_str().unwrap()).collect();
    let catalogue = source("catalogue.toml");
    let listed: Vec<&str> =
        catalogue.lines().filter_map(|l| l.strip_prefix("file = \"")).map(|l| l.trim_end_matches('"')).collect();
    assert_eq!(ids, listed);
    let (status, body) = get("/api/variants/hans38.var");
    assert_eq!(status, 200);
    assert_eq!(body["title"], "Hans38 Chess");
    assert_eq!(body["source"], source("hans38.var"));
    let (status, body) = get("/api/variants/nothing.var");
    assert_eq!(status, 404);
    assert_eq!(body["error"], "no variant `nothing.var`; GET /api/variants lists them");
}

#[test]
fn a_chess_game_from_the_start() {
    let view = game("chess.var", &[]);
    assert_eq!(view["title"], "Chess");
    assert_eq!(view["position"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert_eq!(view["turn"], json!({ "side": 0, "action": 0, "actions": 1, "kinds": ["move a piece"] }));
    assert_eq!(view["check"], false);
    assert_eq!(view["result"], Value::Null);
    assert_eq!(view["stacks"].as_array().unwrap().len(), 32);
    assert_eq!(view["board"]["layers"], json!([0]));
    insta::assert_snapshot!(longs(&view).join(" "));
    // Every legal move names its cells by index into the board.
    let e2 = cell(&view, "e2");
    let e4 = cell(&view, "e4");
    let m = view["legal"].as_array().unwrap().iter().find(|m| m["long"] == "e2-e4").unwrap();
    assert_eq!((m["from"].as_u64(), m["to"].as_u64()), (Some(e2 as u64), Some(e4 as u64)));
    assert_eq!(m["short"], "e4");
    assert_eq!(m["kind"], "move");
    assert_eq!(m["label"], "Pawn moves");
}

#[test]
fn moves_in_any_notation_replay_and_come_back_in_long_and_short_form() {
    let view = game("chess.var", &["e4", "e7e5", "Ng1-f3", "Nc6"]);
    let played: Vec<(String, String, u64)> = view["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| (h["long"].as_str().unwrap().into(), h["short"].as_str().unwrap().into(), h["side"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        played,
        vec![
            ("e2-e4".into(), "e4".into(), 0),
            ("e7-e5".into(), "e5".into(), 1),
            ("Ng1-f3".into(), "Nf3".into(), 0),
            ("Nb8-c6".into(), "Nc6".into(), 1)
        ]
    );
    assert_eq!(view["position"], "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
    let (status, after) =
        post("/api/move", json!({ "source": source("chess.var"), "moves": ["e4", "e5", "Nf3", "Nc6"], "move": "Bb5" }));
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["history"][4]["long"], "Bf1-b5");
    assert_eq!(after["turn"]["side"], 1);
}

#[test]
fn checkmate_ends_the_game_with_a_result_and_no_moves() {
    let view = game("chess.var", &["f3", "e5", "g4", "Qh4"]);
    assert_eq!(view["result"], json!({ "winner": 1, "reason": "checkmate", "text": "black wins by checkmate" }));
    assert_eq!(view["check"], true);
    assert_eq!(view["legal"], json!([]));
    // The move list marks the mate `#`, and a check `+`, as SAN does; the long form has neither.
    assert_eq!(
        (view["history"][3]["short"].as_str(), view["history"][3]["long"].as_str()),
        (Some("Qh4#"), Some("Qd8-h4"))
    );
    let view = game("chess.var", &["e4", "f5", "Qh5"]);
    let shorts: Vec<&str> = view["history"].as_array().unwrap().iter().map(|h| h["short"].as_str().unwrap()).collect();
    assert_eq!(shorts, ["e4", "f5", "Qh5+"]);
    let (status, body) =
        post("/api/move", json!({ "source": source("chess.var"), "moves": ["e4", "f5"], "move": "Qh5" }));
    assert_eq!((status, body["history"][2]["short"].as_str()), (200, Some("Qh5+")));
    let (status, body) =
        post("/api/move", json!({ "source": source("chess.var"), "moves": ["f3", "e5", "g4", "Qh4"], "move": "e4" }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "the game is over (checkmate)");
}

#[test]
fn promotion_offers_one_move_per_piece_with_labels_for_the_chooser() {
    let start = "8/P6k/8/8/8/8/8/K7 w - - 0 1";
    let (status, view) = post("/api/game", json!({ "source": source("chess.var"), "start": start }));
    assert_eq!(status, 200, "{view}");
    let promotions: Vec<(String, String)> = view["legal"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["from"] == cell(&view, "a7") && m["to"] == cell(&view, "a8"))
        .map(|m| (m["long"].as_str().unwrap().into(), m["label"].as_str().unwrap().into()))
        .collect();
    insta::assert_debug_snapshot!(promotions);
}

#[test]
fn illegal_and_unreadable_moves_are_refused_with_the_reason() {
    let (status, body) = post("/api/move", json!({ "source": source("chess.var"), "move": "e2-e5" }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "`e2-e5` is not a move here: no legal move is written that way");
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "moves": ["e4", "e4"] }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "move 2 (e4): `e4` is not a move here: no legal move is written that way");
    let (status, body) =
        post("/api/move", json!({ "source": source("hans38.var"), "moves": ["@@e3"], "move": "@@e3" }));
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("`@@e3` is not a move here: "), "{body}");
}

#[test]
fn a_variant_with_errors_gets_its_diagnostics_by_line_and_column() {
    let text = source("chess.var").replacen("grid 8 x 8", "grid 8 x", 1);
    let (status, body) = post("/api/game", json!({ "source": text }));
    assert_eq!(status, 422);
    insta::assert_json_snapshot!(body);
    let (status, body) = post("/api/game", json!({ "source": "variant \"x\"\nboard { grid 2 x 2 }\npiece Ghost" }));
    assert_eq!(status, 422);
    assert!(body["diagnostics"].as_array().is_some_and(|d| !d.is_empty()), "{body}");
}

#[test]
fn bad_requests_get_4xx_with_a_message() {
    let (status, body) = post_raw("/api/game", "application/json", "{not json");
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("bad request body: "), "{body}");
    let (status, body) = post_raw("/api/game", "text/plain", "{}");
    assert_eq!(status, 415);
    assert!(body["error"].as_str().unwrap().contains("application/json"), "{body}");
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "colour": "white" }));
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("unknown field `colour`"), "{body}");
    let (status, body) = post("/api/game", json!({ "moves": [] }));
    assert_eq!(status, 422);
    assert!(body["error"].as_str().unwrap().contains("missing field `source`"), "{body}");
    let (status, body) = post("/api/game", json!({ "source": "", "format": "pgn" }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "unknown format `pgn`: expected `var` or `zrf`");
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "start": "rnbqkbnr/ppp w" }));
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("bad start position at column "), "{body}");
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "start": "ééé/8 w - - 0 1" }));
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("bad start position at column 1: "), "{body}");
    let (status, body) = post("/api/move", json!({ "source": source("chess.var"), "move": "é\u{0}♞" }));
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("is not a move here"), "{body}");
    // The server goes on answering.
    assert_eq!(game("chess.var", &["d4"])["history"][0]["long"], "d2-d4");
}

#[test]
fn request_sizes_are_bounded() {
    let big = "x".repeat(varia_web::MAX_BODY + 1);
    let (status, _) = post("/api/game", json!({ "source": big }));
    assert_eq!(status, 413);
    let moves: Vec<&str> =
        ["Nf3", "Nf6", "Ng1", "Ng8"].iter().cycle().take(varia_web::MAX_MOVES + 1).copied().collect();
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "moves": moves }));
    assert_eq!(status, 413);
    assert_eq!(
        body["error"],
        format!("too many moves: {} (at most {})", varia_web::MAX_MOVES + 1, varia_web::MAX_MOVES)
    );
}

#[test]
fn the_ai_plays_a_legal_move_and_finds_a_mate_in_one() {
    let (status, body) = post("/api/ai", json!({ "source": source("chess.var"), "time_ms": 300 }));
    assert_eq!(status, 200, "{body}");
    let start = game("chess.var", &[]);
    assert!(longs(&start).contains(&body["move"].as_str().unwrap().to_string()), "{body}");
    assert_eq!(body["game"]["history"][0]["long"], body["move"]);
    assert_eq!(body["game"]["turn"]["side"], 1);
    // Scholar's mate is there to be found.
    let moves = ["e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"];
    let (status, body) =
        post("/api/ai", json!({ "source": source("chess.var"), "moves": moves, "time_ms": 5000, "depth": 2 }));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["move"], "Qh5xf7");
    assert_eq!((body["short"].as_str(), body["game"]["history"][6]["short"].as_str()), (Some("Qxf7#"), Some("Qxf7#")));
    assert_eq!(body["mate_in"], 1);
    assert_eq!(body["game"]["result"]["reason"], "checkmate");
}

#[test]
fn ai_time_is_bounded() {
    for t in [0, varia_web::MAX_AI_MS + 1] {
        let (status, body) = post("/api/ai", json!({ "source": source("chess.var"), "time_ms": t }));
        assert_eq!(status, 400);
        assert_eq!(body["error"], format!("time_ms must be between 1 and {}, not {t}", varia_web::MAX_AI_MS));
    }
    let (status, body) =
        post("/api/ai", json!({ "source": source("chess.var"), "moves": ["f3", "e5", "g4", "Qh4"], "time_ms": 100 }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "the game is over (checkmate)");
}

#[test]
fn concurrent_ai_searches_are_bounded() {
    // More searches than allowed at once, all started together and each long enough to
    // overlap the others: the surplus is refused with 429, the rest answer. A server of its
    // own, so other tests' searches do not count.
    let base: &'static str = start().leak();
    let n = varia_web::MAX_SEARCHES + 2;
    let barrier = Arc::new(Barrier::new(n));
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                barrier.wait();
                post_to(base, "/api/ai", json!({ "source": source("chess.var"), "time_ms": 3000 }))
            })
        })
        .collect();
    let statuses: Vec<u16> = threads.into_iter().map(|t| t.join().unwrap().0).collect();
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 2, "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 200).count(), varia_web::MAX_SEARCHES, "{statuses:?}");
}

#[test]
fn unusual_boards_come_with_their_geometry() {
    // The Central Squares: three boards, the shared centre drawn on each.
    let view = game("central-squares.var", &[]);
    assert_eq!(view["board"]["layers"], json!([0, 1, 2]));
    let c3 = &view["board"]["cells"][cell(&view, "c3")];
    assert_eq!(c3["at"].as_array().unwrap().len(), 3, "{c3}");
    // Occupying Multiple Squares: between locations know the squares they cover.
    let view = game("multiple-squares.var", &[]);
    let between = &view["board"]["cells"][cell(&view, "ab1.5")];
    assert_eq!(between["covers"], json!(["a1", "b1", "a2", "b2"]));
    // Share Squares: a knight joins a pawn on a shared square; the stack lists both (in the
    // engine's canonical order: these games give a stack no order of arrival).
    let view = game("share-squares.var", &["e4", "a6", "Nc3", "a5"]);
    let join = view["legal"].as_array().unwrap().iter().find(|m| m["long"] == "Nc3-e4").expect("the join").clone();
    assert_eq!(join["label"], "Knight moves, joining the pieces there");
    let view = game("share-squares.var", &["e4", "a6", "Nc3", "a5", "Nc3-e4"]);
    let e4 = cell(&view, "e4");
    let stack = view["stacks"].as_array().unwrap().iter().find(|s| s["cell"] == e4).unwrap();
    assert_eq!(
        stack["pieces"],
        json!([
            { "letter": "N", "symbol": "N", "player": 0, "name": "Knight", "moves": "N", "royal": false },
            { "letter": "P", "symbol": "P", "player": 0, "name": "Pawn", "moves": "fW", "royal": false }
        ])
    );
}

#[test]
fn square_play_shows_holes_owners_reserves_and_the_action_due() {
    let view = game("hans38.var", &[]);
    let squares = &view["squares"];
    assert_eq!(squares["holes"].as_array().unwrap().len(), 32);
    assert_eq!(squares["owners"].as_array().unwrap().len(), 32);
    assert_eq!(squares["reserves"], json!([3, 3]));
    assert_eq!(view["turn"]["actions"], 1);
    let place = view["legal"].as_array().unwrap().iter().find(|m| m["long"] == "@@e3").unwrap().clone();
    assert_eq!((place["kind"].as_str(), place["from"] == place["to"]), (Some("place-square"), true));
    let view = game("hans38.var", &["@@e3"]);
    assert_eq!(view["turn"]["side"], 1);
    assert_eq!(view["squares"]["reserves"], json!([2, 3]));
    let e3 = cell(&view, "e3");
    assert!(view["squares"]["owners"].as_array().unwrap().contains(&json!([e3, 0])));
    // Hans38 by post: a piece move, then a square action or the end of the turn.
    let view = game("hans38-postal.var", &["@@e3", "@@e6", "e2-e3"]);
    assert_eq!(
        view["turn"],
        json!({ "side": 0, "action": 1, "actions": 2, "kinds": ["move a square", "place a square"] })
    );
    let end = view["legal"].as_array().unwrap().iter().find(|m| m["kind"] == "end-turn").expect("`end`").clone();
    assert_eq!((end["long"].as_str(), end["label"].as_str()), (Some("end"), Some("end the turn here")));
    let view = game("hans38-postal.var", &["@@e3", "@@e6", "e2-e3", "end"]);
    assert_eq!(view["turn"]["side"], 1);
    assert_eq!(view["history"][3]["side"], 0);
}

#[test]
fn zillions_files_are_played_and_their_errors_located() {
    let zrf = |name: &str| {
        std::fs::read_to_string(format!("{}/../zrf/tests/games/{name}", env!("CARGO_MANIFEST_DIR"))).expect("zrf file")
    };
    // Drops from the hand: the second move of Pocket Skirmish may place a piece.
    let (status, body) = post("/api/game", json!({ "source": zrf("drops.zrf"), "format": "zrf" }));
    assert_eq!(status, 200, "{body}");
    let legal = longs(&body);
    assert_eq!(legal.len(), 37);
    assert!(legal.iter().any(|m| m.contains('@')), "{legal:?}");
    let first_drop = legal.iter().find(|m| m.contains('@')).unwrap().clone();
    let (status, body) =
        post("/api/game", json!({ "source": zrf("drops.zrf"), "format": "zrf", "moves": [first_drop.clone()] }));
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["history"][0]["long"], first_drop.as_str());
    let (status, body) = post("/api/game", json!({ "source": "(game (title \"x\")\n (bogus))", "format": "zrf" }));
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["diagnostics"][0]["line"], 2);
    assert!(body["diagnostics"][0]["message"].as_str().unwrap().contains("bogus"), "{body}");
}

#[test]
fn a_checked_king_is_named_by_its_cell() {
    let view = game("chess.var", &["e4", "f5", "Qh5"]);
    assert_eq!(view["check"], true);
    assert_eq!(view["checked"], json!([cell(&view, "e8")]));
    let view = game("chess.var", &["e4", "f5"]);
    assert_eq!(view["checked"], json!([]));
}

#[test]
fn games_come_with_their_pgn_and_pgn_loads_a_game() {
    let view = game("chess.var", &["f3", "e5", "g4", "Qh4"]);
    let pgn = view["pgn"].as_str().expect("the game's PGN");
    assert!(pgn.starts_with("[Event \"Varia playground\"]\n"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]") && pgn.ends_with("1. f3 e5 2. g4 Qh4# {checkmate} 0-1\n\n"), "{pgn}");
    assert_eq!(view["start"], "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // The PGN back in: the same moves, and the FEN tag as the start.
    let (status, back) = post("/api/game", json!({ "source": source("chess.var"), "pgn": pgn }));
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["history"].as_array().unwrap().len(), 4);
    assert_eq!(back["result"]["text"], "black wins by checkmate");
    let pgn = "[SetUp \"1\"]\n[FEN \"6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\"]\n\n1. Rd8# 1-0\n";
    let (status, back) = post("/api/game", json!({ "source": source("chess.var"), "pgn": pgn }));
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["start"], "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1");
    assert_eq!(back["history"][0]["long"], "Rd1-d8");
    // A game of another variant, a bad PGN, both moves and PGN: refused with the reason.
    let (status, body) =
        post("/api/game", json!({ "source": source("chess.var"), "pgn": "[Variant \"Hans38 Chess\"]\n1. @@f3 *" }));
    assert_eq!(status, 400);
    assert_eq!(body["error"], "the PGN is a game of \"Hans38 Chess\"; the rules loaded are \"Chess\"");
    // ...naming the listed variant the tag names (its title, in any case), if one does.
    assert_eq!(body["variant"], "hans38.var");
    let three = "[Variant \"three-check\"]\n1. e4 *";
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "pgn": three }));
    assert_eq!((status, body["variant"].as_str()), (400, Some("three-check.var")));
    let (status, body) =
        post("/api/game", json!({ "source": source("chess.var"), "pgn": "[Variant \"Nonesuch\"]\n1. e4 *" }));
    assert_eq!((status, body.get("variant")), (400, None));
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "pgn": "1. e4 {" }));
    assert_eq!(
        (status, body["error"].as_str().unwrap()),
        (400, "bad PGN at line 1, column 7: this `{` comment is never closed: expected `}`")
    );
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "pgn": "1. e4", "moves": ["e4"] }));
    assert_eq!((status, body["error"].as_str().unwrap()), (400, "send either `moves` or `pgn`, not both"));
    let (status, body) = post("/api/game", json!({ "source": source("chess.var"), "pgn": "1. e4 e5 2. Ke3" }));
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().starts_with("move 3 (Ke3): "), "{body}");
}

#[test]
fn hands_are_shown_and_drops_are_moves_on_their_cell() {
    assert_eq!(game("chess.var", &[])["hands"], Value::Null);
    let view = game("crazyhouse.var", &["e4", "d5", "exd5", "Qxd5"]);
    assert_eq!(
        view["hands"],
        json!([[{ "symbol": "P", "name": "Pawn", "count": 1 }], [{ "symbol": "p", "name": "Pawn", "count": 1 }]])
    );
    let e6 = cell(&view, "e6");
    let drop = view["legal"].as_array().unwrap().iter().find(|m| m["long"] == "P@e6").expect("the drop").clone();
    assert_eq!((drop["from"].as_u64(), drop["to"].as_u64()), (Some(e6 as u64), Some(e6 as u64)));
    assert_eq!((drop["kind"].as_str(), drop["label"].as_str()), (Some("drop"), Some("drop a Pawn")));
    // A drop names the piece dropped, which the page asks to be chosen in the hand first.
    assert_eq!(drop["piece"], "Pawn");
    // A promoted pawn is drawn as the queen it moves as and written with its mark.
    let view = game("crazyhouse.var", &["a4", "b5", "axb5", "a6", "bxa6", "Bb7", "axb7", "Nc6", "bxa8=Q"]);
    let a8 = cell(&view, "a8");
    let stack = view["stacks"].as_array().unwrap().iter().find(|s| s["cell"] == a8).unwrap();
    assert_eq!(
        stack["pieces"],
        json!([{ "letter": "Q", "symbol": "Q~", "player": 0, "name": "PromotedQueen", "moves": "Q", "royal": false }])
    );
}

#[test]
fn the_board_view_says_how_the_file_draws_it() {
    // Xiangqi: pieces on the points, the palaces' diagonals and the river between ranks 5 and 6.
    let view = game("xiangqi.var", &[]);
    let display = &view["board"]["display"];
    assert_eq!(display["points"], true);
    let lines: Vec<[String; 2]> = display["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            [0, 1].map(|k| view["board"]["cells"][l[k].as_u64().unwrap() as usize]["name"].as_str().unwrap().into())
        })
        .collect();
    assert_eq!(lines, [["d1", "f3"], ["f1", "d3"], ["d8", "f10"], ["f8", "d10"]].map(|l| l.map(String::from)));
    let river = &display["rivers"][0];
    assert_eq!(
        (river["below"].as_u64(), river["above"].as_u64()),
        (Some(cell(&view, "e5") as u64), Some(cell(&view, "e6") as u64))
    );
    assert!(river["label"].as_str().unwrap().contains("river"), "{river}");
    assert_eq!(display["upside_down"], json!([]));
    // Shogi turns the second player's pieces round; chess declares nothing.
    assert_eq!(game("shogi.var", &[])["board"]["display"]["upside_down"], json!([1]));
    let chess = game("chess.var", &[]);
    assert_eq!(chess["board"]["display"], json!({ "points": false, "lines": [], "rivers": [], "upside_down": [] }));
}

#[test]
fn pieces_come_with_how_they_move() {
    // Xiangqi's horse moves as a knight (lame, which an empty board does not show), the cannon
    // as a rook that hops, the soldier forwards and (across the river) sideways.
    let view = game("xiangqi.var", &[]);
    let piece = |name: &str| {
        let at = cell(&view, name);
        view["stacks"].as_array().unwrap().iter().find(|s| s["cell"] == at).unwrap()["pieces"][0].clone()
    };
    let looks = |name: &str| (piece(name)["name"].clone(), piece(name)["moves"].clone(), piece(name)["royal"].clone());
    assert_eq!(looks("b1"), (json!("Horse"), json!("N"), json!(false)));
    assert_eq!(looks("b3"), (json!("Cannon"), json!("RpR"), json!(false)));
    assert_eq!(looks("a4"), (json!("Soldier"), json!("fsW"), json!(false)));
    assert_eq!(looks("e1"), (json!("General"), json!("W"), json!(true)));
    // The second player's pieces are described as the first player's move: forward is up.
    assert_eq!(piece("a7")["moves"], "fsW");
}
