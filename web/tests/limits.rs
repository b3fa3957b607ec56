//! The server's documented limits, each checked (issue 51): an idle crowd of connections cannot keep light requests out, a body must arrive whole within the body timeout, an idle kept-alive connection is closed after the header timeout, and docs/web.md states the limits the code has.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_web::{Server, Timeouts};

/// Starts a server with these time limits; returns its address and state.
fn start(timeouts: Timeouts) -> (String, Arc<Server>) {
    let (tx, rx) = std::sync::mpsc::channel();
    let mut server = Server::new(&[]).expect("the bundled variants load");
    server.timeouts = timeouts;
    let server = Arc::new(server);
    let state = server.clone();
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.expect("a free port");
            tx.send(listener.local_addr().expect("an address")).expect("the test waits");
            varia_web::serve(listener, server).await.expect("the server runs");
        });
    });
    (rx.recv().expect("the server starts").to_string(), state)
}

/// The status of a light request on a connection of its own (0: no answer).
fn light_get(addr: &str) -> u16 {
    let Ok(mut s) = TcpStream::connect(addr) else { return 0 };
    let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
    if s.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").is_err() {
        return 0;
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    String::from_utf8_lossy(&out).split(' ').nth(1).and_then(|c| c.parse().ok()).unwrap_or(0)
}

/// Whether the server closes a connection (end of file or a reset) within `wait`; what it still
/// sends is read and dropped.
fn closed_within(s: &mut TcpStream, wait: Duration) -> bool {
    s.set_read_timeout(Some(wait)).expect("a read timeout");
    let mut buf = [0u8; 64 * 1024];
    loop {
        match s.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                return false
            }
            Err(_) => return true,
        }
    }
}

#[test]
fn an_idle_crowd_cannot_keep_light_requests_out() {
    // Idle connections are given long enough not to time out while the test runs.
    let timeouts = Timeouts { header: Duration::from_secs(60), ..Timeouts::default() };
    let (addr, server) = start(timeouts);
    let crowd: Vec<TcpStream> = (0..600).filter_map(|_| TcpStream::connect(&addr).ok()).collect();
    assert_eq!(crowd.len(), 600);
    std::thread::sleep(Duration::from_millis(300));
    let started = Instant::now();
    let statuses: Vec<u16> = (0..100).map(|_| light_get(&addr)).collect();
    let took = started.elapsed();
    let failed = statuses.iter().filter(|s| **s != 200).count();
    assert_eq!(failed, 0, "{failed} of 100 light requests failed beside 600 idle connections: {statuses:?}");
    assert!(took < Duration::from_secs(10), "100 light requests took {took:?}");
    assert!(server.connections_open() <= varia_web::MAX_CONNECTIONS, "{}", server.connections_open());
    println!("100 light requests beside 600 idle connections: {took:?}, {} open", server.connections_open());
}

#[test]
fn a_body_must_arrive_whole_within_the_body_timeout() {
    let timeouts =
        Timeouts { body: Duration::from_millis(800), request: Duration::from_secs(20), ..Timeouts::default() };
    let (addr, _) = start(timeouts);
    let mut s = TcpStream::connect(&addr).expect("connect");
    s.write_all(b"POST /api/game HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        .expect("headers");
    let started = Instant::now();
    // A byte every 200 ms: never a pause as long as the body timeout, but never the whole body.
    let mut answer = Vec::new();
    s.set_read_timeout(Some(Duration::from_millis(200))).expect("a read timeout");
    while started.elapsed() < Duration::from_secs(15) {
        if s.write_all(b" ").is_err() {
            break;
        }
        let mut buf = [0u8; 4096];
        match s.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                answer.extend_from_slice(&buf[..n]);
                if answer.windows(4).any(|w| w == b"\r\n\r\n") && answer.ends_with(b"}") {
                    break;
                }
            }
            Err(_) => {}
        }
    }
    let took = started.elapsed();
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("{\"error\":\"the request body did not arrive within 0.8 s\"}"), "{answer}");
    assert!(took >= Duration::from_millis(700) && took < Duration::from_secs(3), "cut off after {took:?}");
}

#[test]
fn an_idle_kept_alive_connection_is_closed_after_the_header_timeout() {
    let (addr, _) = start(Timeouts { header: Duration::from_millis(800), ..Timeouts::default() });
    // A connection that never sends anything, and one idle after an answer.
    let mut silent = TcpStream::connect(&addr).expect("connect");
    let mut kept = TcpStream::connect(&addr).expect("connect");
    kept.write_all(b"GET /api/variants HTTP/1.1\r\nHost: x\r\n\r\n").expect("a request");
    let mut head = [0u8; 12];
    kept.read_exact(&mut head).expect("an answer");
    assert_eq!(&head, b"HTTP/1.1 200");
    let started = Instant::now();
    assert!(closed_within(&mut kept, Duration::from_secs(3)), "the kept-alive connection stays open");
    assert!(closed_within(&mut silent, Duration::from_secs(1)), "the silent connection stays open");
    let took = started.elapsed();
    assert!(took >= Duration::from_millis(500) && took < Duration::from_secs(4), "closed after {took:?}");
}

#[test]
fn docs_state_the_limits_the_server_has() {
    let docs = std::fs::read_to_string(format!("{}/../docs/web.md", env!("CARGO_MANIFEST_DIR"))).expect("docs/web.md");
    // Lines wrap anywhere: compare the words.
    let docs = docs.split_whitespace().collect::<Vec<_>>().join(" ");
    let secs = |d: Duration| d.as_secs();
    for phrase in [
        format!("send a request's headers within {} s", secs(varia_web::HEADER_TIMEOUT)),
        format!("an idle kept-alive connection is closed after {} s", secs(varia_web::HEADER_TIMEOUT)),
        format!("its whole body within {} s", secs(varia_web::BODY_TIMEOUT)),
        format!("a whole request {} s", secs(varia_web::REQUEST_TIMEOUT)),
        format!("compiling and replaying get {} s per request", secs(varia_web::JOB_DEADLINE)),
        format!("at most {} open at once", varia_web::MAX_CONNECTIONS),
        format!("a body over {} KiB", varia_web::MAX_BODY / 1024),
        format!("more than {} moves", varia_web::MAX_MOVES),
        format!("at most {} requests at once", varia_web::MAX_JOBS),
        format!("(at most {} at once)", varia_web::MAX_SEARCHES),
    ] {
        assert!(docs.contains(&phrase), "docs/web.md does not say `{phrase}`");
    }
}
