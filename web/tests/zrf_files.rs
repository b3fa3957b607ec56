//! Zillions files given to `varia serve`: read as the command line reads them (Windows-1252 unless UTF-8).

#[test]
fn a_windows_1252_rule_file_is_served() {
    let dir = std::env::temp_dir().join(format!("varia-web-zrf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("caf\u{e9}.zrf");
    // `(title "Café")` with é as the single Windows-1252 byte 0xE9: not UTF-8.
    let mut text = b"(game (title \"Caf\xe9\") (players White Black) (turn-order White Black)\n".to_vec();
    text.extend_from_slice(
        b"(board (grid (start-rectangle 0 0 10 10) (dimensions (\"a/b\" (10 0)) (\"2/1\" (0 10))) (directions (n 0 -1))))\n\
          (piece (name K) (moves (n add)))\n(board-setup (White (K a1)) (Black (K b2))))\n",
    );
    assert!(std::str::from_utf8(&text).is_err());
    std::fs::write(&path, &text).expect("written");
    let served = varia_web::Server::new(std::slice::from_ref(&path));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(served.is_ok(), "{:?}", served.err());
}
