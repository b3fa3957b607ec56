//! `varia serve FILE.ini --variant NAME`: the web playground offers a `variants.ini` section as the import's `.var` text, and refuses what the other commands refuse.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::Value;

const TINY: &str = "[tiny:chess]\nmaxRank = 5\nmaxFile = 5\nstartFen = rnbqk/ppppp/5/PPPPP/RNBQK w - - 0 1\n\
                    castling = false\ndoubleStep = false\npromotionRegionWhite = *5\n\
                    [forced:tiny]\nmustDrop = true\n";

/// One request on a connection of its own; the status and the JSON body.
fn request(host: &str, method: &str, path: &str, body: &str) -> (u16, Value) {
    let mut stream = TcpStream::connect(host).expect("connect to the server");
    stream.set_read_timeout(Some(Duration::from_secs(60))).expect("a read timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n");
    if method != "GET" {
        head.push_str(&format!("Content-Type: application/json\r\nContent-Length: {}\r\n", body.len()));
    }
    stream.write_all(format!("{head}\r\n{body}").as_bytes()).expect("send the request");
    let mut raw = String::new();
    stream.read_to_string(&mut raw).expect("read the answer");
    let (head, body) = raw.split_once("\r\n\r\n").expect("an answer with a head");
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status line");
    (status, serde_json::from_str(body).expect("a JSON body"))
}

/// Kills the server this test started when the test ends, passed or failed.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn serve_offers_a_section_as_var_text_and_plays_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("v.ini");
    std::fs::write(&path, TINY).expect("written");
    let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["serve", "--port", "0", "--variant", "tiny"])
        .arg(&path)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts");
    let stdout = child.stdout.take().expect("its output");
    let server = Server(child);
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("the address line");
    let host = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("an address in {line:?}"))
        .to_string();

    let (status, list) = request(&host, "GET", "/api/variants", "");
    assert_eq!(status, 200, "{list}");
    let first = &list["variants"][0];
    let id = format!("{} [tiny]", path.display());
    assert_eq!(first["id"], id.as_str(), "{first}");
    assert_eq!(first["title"], "tiny", "{first}");
    assert_eq!(first["format"], "var", "{first}");

    let encoded: String = id.bytes().map(|b| format!("%{b:02X}")).collect();
    let (status, text) = request(&host, "GET", &format!("/api/variants/{encoded}"), "");
    assert_eq!(status, 200, "{text}");
    let source = text["source"].as_str().expect("the section's text").to_string();
    assert!(source.starts_with("// Imported from a Fairy-Stockfish variants.ini section"), "{source}");
    assert!(source.contains("grid 5 x 5"), "{source}");

    // The page plays what it was given: 5x5 without a double step, White's 5 pawns' steps and
    // the knight's 2 leaps (the same first-ply count as `varia perft` of the section).
    let body = serde_json::json!({ "source": source, "moves": [] }).to_string();
    let (status, view) = request(&host, "POST", "/api/game", &body);
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["legal"].as_array().expect("legal moves").len(), 7, "{view}");
    drop(server);
}

/// Exit status and standard error of `varia serve` that must stop before serving.
fn refused(args: &[&str], path: &std::path::Path) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_varia"))
        .args(["serve", "--port", "0"])
        .args(args)
        .arg(path)
        .output()
        .expect("runs");
    assert!(!out.status.success(), "served: {}", String::from_utf8_lossy(&out.stdout));
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn serve_refuses_an_ini_without_a_section_or_with_a_refused_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("v.ini");
    std::fs::write(&path, TINY).expect("written");
    let err = refused(&[], &path);
    assert!(err.contains("choose a section with --variant NAME (its sections: tiny, forced)"), "{err}");
    let err = refused(&["--variant", "forced"], &path);
    assert!(err.contains("v.ini:9:12: `mustDrop = true`"), "{err}");
    let err = refused(&["--variant", "nosuch"], &path);
    assert!(err.contains("nosuch"), "{err}");
}
