//! Rule files as read from disk: Windows-1252 text and `(include ...)`.
use varia_zrf::{decode, load_with, MAX_INCLUDE_DEPTH};

const GAME: &str = r#"(include "pieces.zrf")
(game (title "t") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("a/b/c" (10 0)) ("3/2/1" (0 10)))
    (directions (n 0 -1) (s 0 1))))
  (Stepper)
  (board-setup (White (Man a1)) (Black (Man c3))))"#;

const PIECES: &str = "(define Stepper (piece (name Man) (moves (n add) (s add))))";

#[test]
fn windows_1252_bytes_decode_to_their_characters() {
    assert_eq!(decode(b"plain"), "plain");
    assert_eq!(decode("déjà".as_bytes()), "déjà");
    // 0x93/0x94 are curly quotes, 0xE9 is é, 0x80 the euro sign in Windows-1252.
    assert_eq!(decode(b"\x93Caf\xe9\x94 \x80"), "\u{201C}Caf\u{e9}\u{201D} \u{20AC}");
}

#[test]
fn an_included_file_brings_its_macros() {
    let game = load_with(GAME, None, &mut |name| {
        assert_eq!(name, "pieces.zrf");
        Ok(PIECES.to_string())
    })
    .expect("loads");
    assert_eq!(game.variant.pieces.len(), 1);
    assert_eq!(game.variant.pieces[0].name, "Man");
}

#[test]
fn an_include_without_a_folder_is_a_located_error() {
    let e = varia_zrf::load(GAME, None).unwrap_err();
    assert_eq!(e.span.start, 0);
    assert!(e.message.contains("cannot include \"pieces.zrf\""), "{}", e.message);
}

#[test]
fn an_error_inside_an_included_file_points_at_the_include() {
    let e = load_with(GAME, None, &mut |_| Ok("(define Stepper (piece (name Man)".to_string())).unwrap_err();
    assert_eq!(e.render(GAME).split(": ").next(), Some("1:1"));
    assert!(e.message.starts_with("in included file \"pieces.zrf\": 1:"), "{}", e.message);
}

#[test]
fn a_file_including_itself_stops_with_the_limit_named() {
    let e = load_with(GAME, None, &mut |_| Ok(r#"(include "pieces.zrf")"#.to_string())).unwrap_err();
    assert!(e.message.contains(&format!("more than {MAX_INCLUDE_DEPTH} deep")), "{}", e.message);
    assert_eq!(e.span.start, 0);
}
