//! Occupying Multiple Squares (Event #87): a scenario for each rule sentence of the rule text
//! (`shared/rules/occupying-multiple-squares.txt`), each of its four examples and each ruling
//! recorded in `docs/variants/multiple-squares.md`, its legal moves snapshotted.
//!
//! Locations between squares: `a1.5` covers a1 and a2, `ab1` covers a1 and b1, `ab1.5` covers
//! a1, a2, b1 and b2. Position strings write the covered squares empty in the rows and list the
//! pieces between squares after them in braces: `4K3{Ra1.5,bef3.5}`.

mod common;

use common::{from, game_moves, has, legal, play, targets};

use std::collections::BTreeSet;
use std::sync::Arc;

use varia_interpreter::ir::{CellId, PlayerId};
use varia_interpreter::{perft, EndReason, GameResult, MoveError, Position, Rules};

const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

/// The Occupying Multiple Squares rules.
fn rules() -> Arc<Rules> {
    common::rules("multiple-squares.var")
}

/// A position of Occupying Multiple Squares from a position string (or `start`).
fn at(text: &str) -> Position {
    common::position(&rules(), text)
}

/// Snapshots the position string and the sorted legal moves under `name`, and returns the moves.
/// The position must be legal: the side that just moved is not in check.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let mover = pos.side_to_move();
    let other = PlayerId(1 - mover.0);
    let royals: Vec<CellId> = pos.royal_cells(other).collect();
    assert!(
        royals.iter().all(|c| !pos.is_attacked(*c, mover)),
        "{}: the side not to move is in check",
        pos.to_position_string()
    );
    let moves = legal(pos);
    insta::assert_snapshot!(name, format!("{}\n--\n{}", pos.to_position_string(), moves.join("\n")));
    moves
}

/// The cell or location named `name`.
fn cell(name: &str) -> CellId {
    rules().cell_by_name(name).unwrap_or_else(|| panic!("no location {name}"))
}

/// The letter of the piece on a square or covering it, if any.
fn on(pos: &Position, name: &str) -> Option<char> {
    pos.piece_at(cell(name)).map(|p| pos.rules().piece_letter(p))
}

/// Where the piece on the square stands: the square itself or the location between squares.
fn standing(pos: &Position, name: &str) -> String {
    pos.rules().cell_name(pos.standing_at(cell(name))).to_string()
}

/// The squares a location covers, sorted by name.
fn covered(name: &str) -> Vec<String> {
    let rules = rules();
    let mut out: Vec<String> = rules.covers(cell(name)).iter().map(|c| rules.cell_name(*c).to_string()).collect();
    out.sort();
    out
}

/// The position after the moves, from a position string.
fn after(text: &str, moves: &str) -> Position {
    let mut pos = at(text);
    play(&mut pos, moves);
    pos
}

/// The short form Varia writes for the legal move written `long`.
fn short(pos: &mut Position, long: &str) -> String {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mv = *moves.iter().find(|m| pos.long_notation(**m) == long).unwrap_or_else(|| panic!("{long} is not legal"));
    pos.short_notation(mv, &moves)
}

/// Checks that every legal move's long and short forms read back as that move.
fn every_form_reads_back(pos: &mut Position) {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    for &mv in &moves {
        let long = pos.long_notation(mv);
        let short = pos.short_notation(mv, &moves);
        for text in [&long, &short] {
            assert_eq!(pos.parse_move(text), Ok(mv), "`{text}` ({long}) in {}", pos.to_position_string());
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The locations between squares, and how they are written.
// ---------------------------------------------------------------------------------------------

/// "When moving between files, ".5" will be used. When moving between ranks, the letters for
/// both ranks will be used. Example: Qab1.5 is the queen moving between files 1 and 2 and between
/// the ranks a and b." The text swaps "files" and "ranks", but its example is clear: letters
/// name files, numbers ranks. `a1.5` lies between a1 and a2, `ab1` between a1 and b1, `ab1.5`
/// between all four; 161 locations besides the 64 squares.
#[test]
fn locations_between_squares_are_named_as_in_the_text() {
    let rules = rules();
    assert_eq!(rules.cell_count(), 64 + 161);
    assert_eq!(covered("a1.5"), ["a1", "a2"]);
    assert_eq!(covered("ab1"), ["a1", "b1"]);
    assert_eq!(covered("ab1.5"), ["a1", "a2", "b1", "b2"]);
    assert_eq!(covered("ef3.5"), ["e3", "e4", "f3", "f4"]);
    assert_eq!(covered("gh8"), ["g8", "h8"]);
    assert_eq!(covered("h7.5"), ["h7", "h8"]);
    assert!(rules.covers(cell("e4")).is_empty() && !rules.is_between(cell("e4")));
    assert!(rules.is_between(cell("a1.5")) && rules.is_between(cell("ab1")) && rules.is_between(cell("ab1.5")));
    // Off the board, swapped letters or ranks, and two files apart are not locations.
    for name in ["a8.5", "a0.5", "hi1", "ba1", "ac1", "a1.25", "1a", "ab8.5", "ab1.5.5"] {
        assert!(rules.cell_by_name(name).is_none(), "{name}");
    }
    let between = (0..rules.cell_count()).filter(|i| rules.is_between(CellId(*i as u16))).count();
    assert_eq!(between, 56 + 56 + 49, "7 per file, 7 per rank, 7 x 7 between four squares");
}

/// Position strings: the rows as in FEN, with the squares a piece covers from between squares
/// written empty, then the pieces between squares in braces. The string reads back as itself;
/// the piece is on every square it covers and stands at its location.
#[test]
fn position_strings_list_pieces_between_squares_in_braces() {
    let text = "6k1/6pp/8/8/8/8/8/4K3{Ra1.5,bef3.5} w - - 0 1";
    let pos = at(text);
    assert_eq!(pos.to_position_string(), text);
    for sq in ["a1", "a2"] {
        assert_eq!(on(&pos, sq), Some('R'), "{sq}");
        assert_eq!(standing(&pos, sq), "a1.5");
    }
    for sq in ["e3", "e4", "f3", "f4"] {
        assert_eq!(on(&pos, sq), Some('b'), "{sq}");
        assert_eq!(standing(&pos, sq), "ef3.5");
    }
    assert_eq!(on(&pos, "a1.5"), Some('R'));
    assert_eq!(standing(&pos, "e1"), "e1");
    assert_eq!(on(&pos, "a3"), None);
    assert_eq!(pos.piece_count(), 6, "a piece between squares is one piece");
    assert_eq!(pos.hash(), pos.compute_hash());
    // The order in the braces does not matter; Varia writes them by rank, then by file.
    let other = at("6k1/6pp/8/8/8/8/8/4K3{bef3.5,Ra1.5} w - - 0 1");
    assert_eq!(other.to_position_string(), text);
    assert_eq!(other.hash(), pos.hash());
    // Without pieces between squares, no braces.
    assert_eq!(at("start").to_position_string(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
}

/// Position-string errors: a location that is not between squares, a location whose squares
/// already hold a piece (in the rows or covered by another piece between squares), a bad piece
/// letter and a missing `}` are each reported with the offending text's offset and length.
#[test]
fn bad_pieces_between_squares_are_located_errors() {
    let cases = [
        ("4k3/8/8/8/8/8/8/4K3{Ra1} w - - 0 1", "a1", "expected a location between cells (like `a1.5`), found `a1`"),
        ("4k3/8/8/8/8/8/8/4K3{Rba1} w - - 0 1", "ba1", "found `ba1`"),
        ("4k3/8/8/8/8/8/8/R3K3{Ra1.5} w - - 0 1", "a1.5", "`a1.5` covers `a1`, which already holds a piece"),
        ("4k3/8/8/8/8/8/8/4K3{Ra1.5,Bab1.5} w - - 0 1", "ab1.5", "which already holds a piece"),
        ("4k3/8/8/8/8/8/8/4K3{Ra1.5,Xc4.5} w - - 0 1", "Xc4.5", "expected a piece letter and a location like `Ra1.5`"),
        ("4k3/8/8/8/8/8/8/4K3{Ra1.5 w - - 0 1", "{Ra1.5", "expected `{...}` closed by `}` at the end of the board"),
    ];
    for (text, offending, message) in cases {
        let e = Position::from_position_string(rules(), text).err().unwrap_or_else(|| panic!("{text} was read"));
        assert!(e.message.contains(message), "{text}: {}", e.message);
        assert_eq!(&text[e.offset..e.offset + e.len], offending, "{text}: {}", e.message);
    }
    // The overlap names the first covered square already taken.
    let e = Position::from_position_string(rules(), "4k3/8/8/8/8/8/8/4K3{Ra1.5,Bab1.5} w - - 0 1").unwrap_err();
    assert!(e.message.starts_with("`ab1.5` covers `a"), "{}", e.message);
}

// ---------------------------------------------------------------------------------------------
// Stopping between squares.
// ---------------------------------------------------------------------------------------------

/// "Queens, rooks and bishops can stop between squares." On an open board a queen on d4 has
/// its 27 chess moves and 27 stops between squares: one between each two consecutive squares of
/// each line, the start square included. A rook stops between two squares (14 + 14 moves), a
/// bishop between four (13 + 13).
#[test]
fn queens_rooks_and_bishops_stop_between_squares() {
    let mut pos = at("k7/8/8/8/3Q4/8/8/7K w - - 0 1");
    let moves = snap("queen_stops_between_squares", &mut pos);
    let queen = targets(&moves, "Qd4");
    assert_eq!(queen.len(), 54);
    let stops: Vec<&String> = queen.iter().filter(|t| rules().is_between(cell(t))).collect();
    assert_eq!(stops.len(), 27, "{stops:?}");
    for t in ["d4.5", "d3.5", "d1.5", "de4", "cd4", "gh4", "de4.5", "cd3.5", "ab1.5", "gh7.5", "cd4.5", "fg1.5"] {
        assert!(queen.contains(t), "{t}");
    }

    let mut pos = at("k7/8/8/8/3R4/8/8/7K w - - 0 1");
    let moves = snap("rook_stops_between_two_squares", &mut pos);
    let rook = targets(&moves, "Rd4");
    assert_eq!(rook.len(), 28);
    assert!(rook.iter().filter(|t| rules().is_between(cell(t))).all(|t| covered(t).len() == 2));

    let mut pos = at("k7/8/8/8/3B4/8/8/7K w - - 0 1");
    let moves = snap("bishop_stops_between_four_squares", &mut pos);
    let bishop = targets(&moves, "Bd4");
    assert_eq!(bishop.len(), 26);
    assert!(bishop.iter().filter(|t| rules().is_between(cell(t))).all(|t| covered(t).len() == 4));
}

/// Only queens, rooks and bishops: knights, kings and pawns move as in chess and never end
/// between squares. From the start no piece can stop anywhere yet: the 20 chess moves.
#[test]
fn knights_kings_and_pawns_never_stop_between_squares() {
    let mut pos = at("4k3/8/8/8/3N4/8/4P3/4K3 w - - 0 1");
    let moves = snap("knights_kings_and_pawns_never_stop_between_squares", &mut pos);
    assert_eq!(from(&moves, "Nd4").len(), 7, "not e2, its own pawn");
    assert_eq!(from(&moves, "e2").len(), 2);
    assert_eq!(from(&moves, "Ke1").len(), 4);
    let mut all = Vec::new();
    pos.legal_moves(&mut all);
    assert!(all.iter().all(|m| !rules().is_between(m.to)));
    let mut pos = at("start");
    let mut all = Vec::new();
    pos.legal_moves(&mut all);
    assert_eq!(all.len(), 20);
    assert!(all.iter().all(|m| !rules().is_between(m.to)));
}

/// "They can move ½ square more/less with their normal movement." The rook on a1 reaches a2,
/// a3 and a4, and half a square more or less than each: a1.5 (half a square short of a2), a2.5,
/// a3.5 ... but not a4.5, half a square past a4, which would cover the pawn on a5. Along the
/// first rank it stops up to fg1, not gh1, which would cover its own king.
#[test]
fn half_a_square_further_or_shorter() {
    let mut pos = at("7k/8/8/p7/8/8/8/R6K w - - 0 1");
    let moves = snap("half_a_square_further_or_shorter", &mut pos);
    assert_eq!(
        from(&moves, "Ra1"),
        [
            "Ra1-a1.5", "Ra1-a2", "Ra1-a2.5", "Ra1-a3", "Ra1-a3.5", "Ra1-a4", "Ra1-ab1", "Ra1-b1", "Ra1-bc1", "Ra1-c1",
            "Ra1-cd1", "Ra1-d1", "Ra1-de1", "Ra1-e1", "Ra1-ef1", "Ra1-f1", "Ra1-fg1", "Ra1-g1", "Ra1xa5"
        ]
    );
}

/// "No capture can be made when stopping between squares": a stop needs every square it covers
/// empty, so it never takes anything. The queen on a1 takes the pawn on b2 by landing on b2,
/// but cannot stop on ab1.5 (covering b2); no move to a location between squares captures.
#[test]
fn stopping_between_squares_never_captures() {
    let mut pos = at("7k/8/8/8/8/8/1p6/Q6K w - - 0 1");
    let moves = snap("stopping_between_squares_never_captures", &mut pos);
    assert!(has(&moves, "Qa1xb2"));
    assert!(!has(&moves, "Qa1-ab1.5") && !has(&moves, "Qa1xab1.5"));
    assert!(has(&moves, "Qa1-ab1") && has(&moves, "Qa1-a1.5"));
    let mut all = Vec::new();
    pos.legal_moves(&mut all);
    let captures: Vec<String> = all.iter().filter(|m| m.is_capture()).map(|m| pos.long_notation(*m)).collect();
    assert_eq!(captures, ["Qa1xb2"]);
    assert!(all.iter().filter(|m| rules().is_between(m.to)).all(|m| !m.is_capture()));
    play(&mut pos, "Qa1-ab1");
    assert_eq!(pos.piece_count(), 4, "nothing was taken");
}

/// "...and all adjacent squares must be unoccupied": every square the location covers, own
/// pieces included. A diagonal stop covers four squares, the two of the path and the two corner
/// squares: the bishop on c1 cannot stop on bc1.5 or cd1.5 (its own pawn on c2) nor on de2.5
/// (the black pawn on e2), but it can on ef3.5, fg4.5, gh5.5 and ab2.5.
#[test]
fn every_covered_square_must_be_empty() {
    let mut pos = at("7k/8/8/8/8/8/2P1p3/2B4K w - - 0 1");
    let moves = snap("every_covered_square_must_be_empty", &mut pos);
    assert_eq!(
        targets(&moves, "Bc1"),
        ["a3", "ab2.5", "b2", "d2", "e3", "ef3.5", "f4", "fg4.5", "g5", "gh5.5", "h6"].map(String::from).into()
    );
}

/// Ruling: passing along a diagonal never needs the corner squares; only stopping does. With
/// pawns on both corners d3 and e2, the bishop still goes from d2 to e3 and beyond, but cannot
/// stop on de2.5 between them.
#[test]
fn passing_a_diagonal_needs_no_empty_corner() {
    let mut pos = at("7k/8/8/8/8/3p4/2P1p3/2B4K w - - 0 1");
    let moves = snap("passing_a_diagonal_needs_no_empty_corner", &mut pos);
    for m in ["Bc1-d2", "Bc1-e3", "Bc1-ef3.5", "Bc1-f4", "Bc1-h6"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "Bc1-de2.5"));
}

// ---------------------------------------------------------------------------------------------
// Occupying several squares.
// ---------------------------------------------------------------------------------------------

/// "A piece standing between 2 squares will occupy both those squares." The rook on a1.5 is on
/// a1 and a2: the knight on c3 cannot go to a2, and the black rook on a8 captures it on a2
/// (not further), after which a1 is empty too.
#[test]
fn a_piece_between_two_squares_occupies_both() {
    let mut pos = at("r6k/8/8/8/8/2N5/8/4K3{Ra1.5} w - - 0 1");
    assert_eq!((on(&pos, "a1"), on(&pos, "a2")), (Some('R'), Some('R')));
    let moves = snap("a_piece_between_two_squares_occupies_both", &mut pos);
    assert_eq!(targets(&moves, "Nc3"), ["a4", "b1", "b5", "d1", "d5", "e2", "e4"].map(String::from).into());
    let mut pos = at("r6k/8/8/8/8/2N5/8/4K3{Ra1.5} b - - 0 1");
    let moves = snap("a_piece_between_two_squares_occupies_both_black", &mut pos);
    assert!(has(&moves, "Ra8xa2") && has(&moves, "Ra8-a3"));
    assert!(!has(&moves, "Ra8-a2.5") && !has(&moves, "Ra8xa1"));
    play(&mut pos, "Ra8xa2");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/8/2N5/r7/4K3 w - - 0 2");
    assert_eq!(on(&pos, "a1"), None);
}

/// "A piece standing between 4 squares will occupy all 4 squares." The bishop on ef3.5 is on
/// e3, e4, f3 and f4: the rook on e8 comes down to e5 and takes it on e4, the rook on a3 takes
/// it on e3; neither passes.
#[test]
fn a_piece_between_four_squares_occupies_all_four() {
    let mut pos = at("4r2k/8/8/8/8/r7/8/7K{Bef3.5} b - - 0 1");
    for sq in ["e3", "e4", "f3", "f4"] {
        assert_eq!(on(&pos, sq), Some('B'), "{sq}");
    }
    let moves = snap("a_piece_between_four_squares_occupies_all_four", &mut pos);
    assert_eq!(
        targets(&moves, "Re8")
            .iter()
            .filter(|t| t.starts_with('e') && t.as_bytes()[1].is_ascii_digit())
            .cloned()
            .collect::<Vec<_>>(),
        ["e4", "e5", "e5.5", "e6", "e6.5", "e7", "e7.5"]
    );
    assert!(has(&moves, "Re8xe4") && has(&moves, "Ra3xe3"));
    assert!(!has(&moves, "Ra3-de3") && !has(&moves, "Re8-e4.5"));
    play(&mut pos, "Re8xe4");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/4r3/r7/8/7K w - - 0 2");
}

/// "...the piece is blocking other pieces on those squares": the bishop on de3.5 stands on e3
/// and e4, stopping the rook on e8 at e4, and the pawn on e2 cannot move.
#[test]
fn a_covering_piece_blocks_sliders_and_pawns() {
    let mut pos = at("1k2r3/8/8/8/8/8/4P3/4K3{Bde3.5} w - - 0 1");
    assert!(!pos.in_check());
    assert!(!pos.is_attacked(cell("e1"), BLACK) && !pos.is_attacked(cell("e2"), BLACK));
    assert!(pos.is_attacked(cell("e4"), BLACK) && !pos.is_attacked(cell("e3"), BLACK));
    let moves = snap("a_covering_piece_blocks_sliders_and_pawns", &mut pos);
    assert!(from(&moves, "e2").is_empty());
}

/// "...can be captured on any of those squares": Black takes the bishop on ef3.5 with the
/// knight on e3 or f4, the pawn on f4, or the rook on e3. The capturer lands on the square it
/// aimed at; the whole bishop leaves; the capture resets the move clock.
#[test]
fn a_covering_piece_is_captured_on_any_of_its_squares() {
    let text = "4k3/8/8/3n2p1/8/r7/8/7K{Bef3.5} b - - 5 30";
    let mut pos = at(text);
    let moves = snap("a_covering_piece_is_captured_on_any_of_its_squares", &mut pos);
    let captures: Vec<&String> = moves.iter().filter(|m| m.contains('x')).collect();
    assert_eq!(captures, ["Nd5xe3", "Nd5xf4", "Ra3xe3", "g5xf4"]);
    for (mv, after_text) in [
        ("Nd5xe3", "4k3/8/8/6p1/8/r3n3/8/7K w - - 0 31"),
        ("Nd5xf4", "4k3/8/8/6p1/5n2/r7/8/7K w - - 0 31"),
        ("Ra3xe3", "4k3/8/8/3n2p1/8/4r3/8/7K w - - 0 31"),
        ("g5xf4", "4k3/8/8/3n4/5p2/r7/8/7K w - - 0 31"),
    ] {
        let mut pos = at(text);
        play(&mut pos, mv);
        assert_eq!(pos.to_position_string(), after_text, "{mv}");
        assert_eq!(pos.piece_count(), 5);
        assert_eq!(pos.hash(), pos.compute_hash());
        pos.unmake();
        assert_eq!(pos.to_position_string(), text, "unmake {mv}");
        assert_eq!(pos.hash(), pos.compute_hash());
    }
}

/// Ruling: knights, kings and pawns move as in chess against pieces between squares. The rook on
/// ef2 (e2, f2) checks the king on e1 from e2; the king takes it on e2 or f2 or steps to d1 (d2
/// is on rank 2, f1 on the f-file).
#[test]
fn a_king_takes_a_checking_piece_on_either_square() {
    let mut pos = at("4k3/8/8/8/8/8/8/4K3{ref2} w - - 0 1");
    assert!(pos.in_check());
    let moves = snap("a_king_takes_a_checking_piece_on_either_square", &mut pos);
    assert_eq!(moves, ["Ke1-d1", "Ke1xe2", "Ke1xf2"]);
    play(&mut pos, "Kxf2");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/8/5K2/8 b - - 0 1");
}

/// "...and can move as if it was standing on any of those squares." Ruling: it is lifted first
/// (its own squares are empty for it) and its moves are the union of the moves from each square,
/// each once, without its own location. The rook on cd4 moves exactly where a rook alone on c4
/// or alone on d4 could; the queen on de4.5 where a queen on d4, e4, d5 or e5 could.
#[test]
fn a_covering_piece_moves_from_each_of_its_squares() {
    let union = |alone: &[&str], prefix: &str, location: &str| -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        for text in alone {
            let mut pos = at(text);
            let moves = legal(&mut pos);
            let p = from(&moves, prefix).first().expect("a piece")[..prefix.len() + 2].to_string();
            out.extend(targets(&moves, &p));
        }
        out.remove(location);
        out
    };
    let mut pos = at("8/8/8/7k/8/K7/8/8{Rcd4} w - - 0 1");
    let moves = snap("rook_on_cd4_moves_from_c4_and_d4", &mut pos);
    let rook = targets(&moves, "Rcd4");
    assert_eq!(rook, union(&["8/8/8/7k/2R5/K7/8/8 w - - 0 1", "8/8/8/7k/3R4/K7/8/8 w - - 0 1"], "R", "cd4"));
    assert_eq!(from(&moves, "Rcd4").len(), rook.len(), "each destination once");
    assert!(rook.contains("c4") && rook.contains("d4") && rook.contains("bc4") && rook.contains("de4"));

    let mut pos = at("8/8/7k/8/8/K7/8/8{Qde4.5} w - - 0 1");
    let moves = snap("queen_on_de4_5_moves_from_its_four_squares", &mut pos);
    let queen = targets(&moves, "Qde4.5");
    let alone = [
        "8/8/7k/8/3Q4/K7/8/8 w - - 0 1",
        "8/8/7k/8/4Q3/K7/8/8 w - - 0 1",
        "8/8/7k/3Q4/8/K7/8/8 w - - 0 1",
        "8/8/7k/4Q3/8/K7/8/8 w - - 0 1",
    ];
    assert_eq!(queen, union(&alone, "Q", "de4.5"));
    assert_eq!(from(&moves, "Qde4.5").len(), queen.len(), "each destination once");
}

/// Ruling: its own squares and overlapping locations are destinations. The rook on ab1 may go to
/// a1 or b1, to a1.5 or b1.5 (half a square up from either), to bc1 (from a1 over its own b1),
/// but not to de1 (covering the king).
#[test]
fn own_covered_squares_are_destinations() {
    let mut pos = at("7k/6pp/8/8/8/8/8/4K3{Rab1} w - - 0 1");
    let moves = snap("own_covered_squares_are_destinations", &mut pos);
    for m in ["Rab1-a1", "Rab1-b1", "Rab1-a1.5", "Rab1-b1.5", "Rab1-bc1", "Rab1-c1", "Rab1-cd1", "Rab1-d1"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "Rab1-de1") && !has(&moves, "Rab1-ab1"));
    assert_eq!(from(&moves, "Rab1").len(), 34, "2 own squares, 4 along rank 1, 14 up each file");
}

/// "A piece occupying multiple squares must be moved as if were standing on any of those
/// squares. It cannot move "along the grid"." The rook on ab1 cannot shift to ab2, nor to
/// ab1.5; a bishop on ef3.5 does not slide to ef5.5 or gh3.5. (Its half diagonal step from e4
/// to ef4.5, or from f3 to fg3.5, is a bishop move from one of its squares, so it is allowed.)
#[test]
fn no_movement_along_the_grid() {
    let mut pos = at("7k/6pp/8/8/8/8/8/4K3{Rab1} w - - 0 1");
    let moves = legal(&mut pos);
    for m in ["Rab1-ab2", "Rab1-ab1.5", "Rab1-ab3", "Rab1-bc2"] {
        assert!(!has(&moves, m), "{m}");
    }
    let mut pos = at("4k3/8/8/8/8/8/8/4K3{Bef3.5} w - - 0 1");
    let moves = snap("no_movement_along_the_grid", &mut pos);
    for m in ["Bef3.5-ef5.5", "Bef3.5-gh3.5", "Bef3.5-cd3.5", "Bef3.5-e5.5"] {
        assert!(!has(&moves, m), "{m}");
    }
    for m in ["Bef3.5-ef4.5", "Bef3.5-fg3.5", "Bef3.5-ef2.5", "Bef3.5-de3.5", "Bef3.5-e3", "Bef3.5-f4"] {
        assert!(has(&moves, m), "{m}");
    }
}

/// Ruling: a piece between squares attacks from every square it covers. The bishop on ef3.5
/// checks a king on h5 (from f3), h6 (from f4), h7 and a8 (from e4) and b6 (from e3), not on h8,
/// c8 or d8.
#[test]
fn gives_check_from_every_covered_square() {
    for (king, check) in [
        ("h5", true),
        ("h6", true),
        ("h7", true),
        ("a8", true),
        ("b6", true),
        ("h8", false),
        ("c8", false),
        ("d8", false),
    ] {
        let mut board = [['.'; 8]; 8];
        let (f, r) = (king.as_bytes()[0] - b'a', king.as_bytes()[1] - b'1');
        board[r as usize][f as usize] = 'k';
        board[0][0] = 'K';
        let rows: Vec<String> = (0..8)
            .rev()
            .map(|r| {
                let mut row = String::new();
                let mut empty = 0;
                for c in board[r] {
                    if c == '.' {
                        empty += 1;
                    } else {
                        if empty > 0 {
                            row.push_str(&empty.to_string());
                            empty = 0;
                        }
                        row.push(c);
                    }
                }
                if empty > 0 {
                    row.push_str(&empty.to_string());
                }
                row
            })
            .collect();
        let pos = at(&format!("{}{{Bef3.5}} b - - 0 1", rows.join("/")));
        assert_eq!(pos.in_check(), check, "king on {king}");
    }
    let mut pos = at("8/8/8/7k/8/8/8/K7{Bef3.5} b - - 0 1");
    let moves = snap("gives_check_from_every_covered_square", &mut pos);
    assert_eq!(moves, ["Kh5-h4"], "g4 and g6 from f3 and e4, g5 and h6 from f4");
}

/// Ruling: a piece between squares can be pinned like any other. The rook on de3 shields its
/// king on e1 from the rook on e8 with its square e3: it may move only where it still stands on
/// the e-file (e3 itself, up or down the file, or ef3 beside it), never to d3.
#[test]
fn a_covering_piece_may_be_pinned() {
    let mut pos = at("4r2k/8/8/8/8/8/8/4K3{Rde3} w - - 0 1");
    let moves = snap("a_covering_piece_may_be_pinned", &mut pos);
    assert_eq!(
        from(&moves, "Rde3"),
        [
            "Rde3-e2",
            "Rde3-e2.5",
            "Rde3-e3",
            "Rde3-e3.5",
            "Rde3-e4",
            "Rde3-e4.5",
            "Rde3-e5",
            "Rde3-e5.5",
            "Rde3-e6",
            "Rde3-e6.5",
            "Rde3-e7",
            "Rde3-ef3",
            "Rde3xe8"
        ]
    );
}

// ---------------------------------------------------------------------------------------------
// Castling.
// ---------------------------------------------------------------------------------------------

/// "Rooks can not be put between squares when castling": castling is the fixed chess move, and
/// the rook lands on f1 or d1. There is one O-O and one O-O-O, never a variant with the rook
/// between squares.
#[test]
fn castling_never_puts_the_rook_between_squares() {
    let text = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let mut pos = at(text);
    let moves = snap("castling_never_puts_the_rook_between_squares", &mut pos);
    assert_eq!(moves.iter().filter(|m| m.starts_with("O-O")).count(), 2);
    assert_eq!(after(text, "O-O").to_position_string(), "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 1 1");
    assert_eq!(after(text, "O-O-O").to_position_string(), "r3k2r/8/8/8/8/8/8/2KR3R b kq - 1 1");
}

/// Ruling: the squares between king and rook must be empty, and a square covered by a piece
/// between squares is not empty: the own bishop on fg1.5 (f1, g1, f2, g2) forbids O-O, the own
/// queen on b1.5 (b1, b2) forbids O-O-O.
#[test]
fn castling_needs_the_squares_between_empty() {
    let mut pos = at("4k3/8/8/8/8/8/8/R3K2R{Bfg1.5} w KQ - 0 1");
    let moves = snap("castling_with_a_bishop_on_f1_and_g1", &mut pos);
    assert!(has(&moves, "O-O-O") && !has(&moves, "O-O"));
    let mut pos = at("4k3/8/8/8/8/8/8/R3K2R{Qb1.5} w KQ - 0 1");
    let moves = legal(&mut pos);
    assert!(has(&moves, "O-O") && !has(&moves, "O-O-O"));
}

/// Ruling: the king may not pass a square attacked from between squares: the rook on fg4
/// (f4, g4) sees f1 and g1 down both files, so O-O is illegal; O-O-O is not affected.
#[test]
fn castling_through_a_square_attacked_from_between() {
    let mut pos = at("4k3/8/8/8/8/8/8/R3K2R{rfg4} w KQ - 0 1");
    assert!(!pos.in_check());
    assert!(pos.is_attacked(cell("f1"), BLACK) && pos.is_attacked(cell("g1"), BLACK));
    let moves = snap("castling_through_a_square_attacked_from_between", &mut pos);
    assert!(has(&moves, "O-O-O") && !has(&moves, "O-O") && !has(&moves, "Ke1-f1"));
}

/// Ruling: king and rook must stand on their corner squares; a rook covering h1 from h1.5 is
/// not on h1, so it cannot castle even if the position string grants the right.
#[test]
fn no_castling_with_a_rook_covering_its_corner() {
    let mut pos = at("4k3/8/8/8/8/8/8/4K3{Rh1.5} w K - 0 1");
    let moves = snap("no_castling_with_a_rook_covering_its_corner", &mut pos);
    assert!(!has(&moves, "O-O"));
    assert!(has(&moves, "Rh1.5-h1"));
}

/// Ruling: a rook that leaves its corner for a location between squares loses its castling
/// right, and coming back does not restore it.
#[test]
fn castling_right_lost_when_the_rook_goes_between() {
    let mut pos = at("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    play(&mut pos, "Rh1-h1.5");
    assert_eq!(pos.to_position_string(), "r3k2r/8/8/8/8/8/8/R3K3{Rh1.5} b Qkq - 1 1");
    play(&mut pos, "Ra8-ab8");
    assert_eq!(pos.to_position_string(), "4k2r/8/8/8/8/8/8/R3K3{Rh1.5,rab8} w Qk - 2 2");
    play(&mut pos, "Rh1.5-h1");
    assert_eq!(pos.to_position_string(), "4k2r/8/8/8/8/8/8/R3K2R{rab8} b Qk - 3 2");
    play(&mut pos, "Kf8");
    let moves = legal(&mut pos);
    assert!(!has(&moves, "O-O") && has(&moves, "O-O-O"));
}

// ---------------------------------------------------------------------------------------------
// Pawns.
// ---------------------------------------------------------------------------------------------

/// Ruling: pawns move as in chess against pieces between squares. The pawn on g2 cannot step to
/// the covered g3, the pawn on e2 steps to e3 but not to the covered e4, and both take the
/// bishop on fg3.5 on f3, which removes it from all four squares.
#[test]
fn pawns_against_covering_pieces() {
    let mut pos = at("4k3/8/8/8/8/8/4P1P1/K7{rde4,bfg3.5} w - - 0 1");
    let moves = snap("pawns_against_covering_pieces", &mut pos);
    assert_eq!(from(&moves, "e2"), ["e2-e3", "e2xf3"]);
    assert_eq!(from(&moves, "g2"), ["g2xf3"]);
    play(&mut pos, "gxf3");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/5P2/4P3/K7{rde4} b - - 0 1");
    // En passant as in chess.
    let mut pos = at("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1");
    play(&mut pos, "e4");
    assert!(has(&legal(&mut pos), "d4xe3"));
    play(&mut pos, "dxe3");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/8/4p3/8/4K3 w - - 0 2");
}

/// Ruling: promotion only on a normal square (a pawn never stops between squares); a pawn
/// promoting by capturing a piece between squares takes the whole piece: the pawn on e7 takes
/// the rook on cd8 on d8, and c8 is empty afterwards.
#[test]
fn promotion_captures_a_piece_between_squares() {
    let mut pos = at("4k3/4P3/8/8/8/8/8/4K3{rcd8} w - - 0 1");
    let moves = snap("promotion_captures_a_piece_between_squares", &mut pos);
    assert_eq!(from(&moves, "e7"), ["e7xd8=B", "e7xd8=N", "e7xd8=Q", "e7xd8=R"]);
    play(&mut pos, "exd8=Q+");
    assert_eq!(pos.to_position_string(), "3Qk3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(pos.in_check());
}

// ---------------------------------------------------------------------------------------------
// The text's four examples.
// ---------------------------------------------------------------------------------------------

/// Example 1: "Whites rook is occupying both a1 and a2. Whites rook can move from any of those
/// squares. The rook can NOT move to b1.5, since the rook can't reach there from either a1 or
/// a2. A legal move, however is Ra7.5#. Whites rook is able to move from either a7 or a8. Black
/// is checkmated." The black king on h8 behind its pawns g7 and h7: the rook checks from a8.
#[test]
fn example_1_rook_a1_5_to_a7_5_mates() {
    let mut pos = at("7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1");
    let moves = snap("example_1_rook_a1_5", &mut pos);
    assert!(!has(&moves, "Ra1.5-b1.5"));
    assert!(has(&moves, "Ra1.5-a7.5") && has(&moves, "Ra1.5-a1") && has(&moves, "Ra1.5-a2"));
    assert_eq!(short(&mut pos, "Ra1.5-a7.5"), "Ra7.5");
    play(&mut pos, "Ra7.5#");
    assert_eq!(pos.to_position_string(), "7k/6pp/8/8/8/8/8/4K3{Ra7.5} b - - 1 1");
    assert_eq!((on(&pos, "a7"), on(&pos, "a8")), (Some('R'), Some('R')));
    assert!(pos.in_check());
    assert!(pos.is_attacked(cell("g8"), WHITE));
    let moves = snap("example_1_after_ra7_5", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
}

/// Example 2: "White plays Bef3.5#. Whites bishop is able to move from either e3, e4, f3 or f4.
/// Black is checkmated." Reconstructed: the bishop goes from c1 to ef3.5 (half a square past
/// e3) and checks the king on h5 from f3; it also guards g4 (from f3), g5 and h6 (from f4) and
/// g6 (from e4); the knight on g2 guards h4.
#[test]
fn example_2_bishop_to_ef3_5_mates() {
    let mut pos = at("8/8/8/7k/8/8/6N1/K1B5 w - - 0 1");
    let moves = snap("example_2_bishop_c1", &mut pos);
    assert!(has(&moves, "Bc1-ef3.5"));
    assert_eq!(short(&mut pos, "Bc1-ef3.5"), "Bef3.5");
    play(&mut pos, "Bef3.5#");
    assert_eq!(pos.to_position_string(), "8/8/8/7k/8/8/6N1/K7{Bef3.5} b - - 1 1");
    assert!(pos.in_check());
    for sq in ["g4", "g5", "g6", "h4", "h6"] {
        assert!(pos.is_attacked(cell(sq), WHITE), "{sq}");
    }
    let moves = snap("example_2_after_bef3_5", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
    // Without the knight the king escapes to h4: no mate.
    let mut pos = after("8/8/8/7k/8/8/8/K1B5 w - - 0 1", "Bef3.5+");
    assert_eq!(legal(&mut pos), ["Kh5-h4"]);
}

/// Example 3: "Whites bishop can be captured on any square it is occupying. Black plays Nxf4."
/// The knight on h5 takes the bishop on ef3.5 by landing on f4; the bishop leaves e3, e4, f3
/// and f4.
#[test]
fn example_3_knight_takes_the_bishop_on_f4() {
    let mut pos = at("4k3/8/8/7n/8/8/8/4K3{Bef3.5} b - - 0 1");
    let moves = snap("example_3_knight_h5", &mut pos);
    assert!(has(&moves, "Nh5xf4"));
    assert_eq!(short(&mut pos, "Nh5xf4"), "Nxf4");
    play(&mut pos, "Nxf4");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/5n2/8/8/4K3 w - - 0 2");
    assert_eq!(on(&pos, "f4"), Some('n'));
    for sq in ["e3", "e4", "f3"] {
        assert_eq!(on(&pos, sq), None, "{sq}");
    }
    assert_eq!(pos.piece_count(), 3);
}

/// Example 4: "Whites queen is occupying f3, f4, g3 and g4. Whites pawns on f2 and g2 are
/// blocked and cannot move. Whites knight can not move to f3. Whites dark squared bishop can not
/// move to f4, g5 or h6."
#[test]
fn example_4_queen_on_fg3_5_blocks_its_own_pieces() {
    let mut pos = at("4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1");
    let moves = snap("example_4_queen_on_fg3_5", &mut pos);
    assert!(from(&moves, "f2").is_empty() && from(&moves, "g2").is_empty());
    assert!(has(&moves, "h2-h3") && has(&moves, "h2-h4"));
    assert!(!has(&moves, "Ng1-f3") && !has(&moves, "Ne1-f3"));
    assert!(has(&moves, "Ng1-h3") && has(&moves, "Ng1-e2") && has(&moves, "Ne1-d3"));
    for t in ["f4", "g5", "h6", "ef3.5", "fg4.5"] {
        assert!(!has(&moves, &format!("Be3-{t}")), "{t}");
    }
    assert!(has(&moves, "Be3-d4") && has(&moves, "Be3-d2"));
    // The queen moves from each of its squares, including onto them.
    for m in ["Qfg3.5-f8", "Qfg3.5-g8", "Qfg3.5-a4", "Qfg3.5-h3", "Qfg3.5-f3", "Qfg3.5-g4", "Qfg3.5-fg4.5"] {
        assert!(has(&moves, m), "{m}");
    }
    assert!(!has(&moves, "Qfg3.5-fg5.5") && !has(&moves, "Qfg3.5-e3") && !has(&moves, "Qfg3.5-a3"));
}

// ---------------------------------------------------------------------------------------------
// Notation.
// ---------------------------------------------------------------------------------------------

/// The text's notation is read as is: `Ra7.5` (example 1), `Bef3.5` (example 2), `Nxf4`
/// (example 3) and `Qab1.5`, here a queen on d4 going down the long diagonal to stop between
/// a1, a2, b1 and b2. Varia writes the same short forms, and the long forms `Ra1.5-a7.5`,
/// `Bc1-ef3.5`, `Nh5xf4`, `Qd4-ab1.5`.
#[test]
fn the_texts_notation_reads_as_is() {
    let cases = [
        ("7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1", "Ra7.5", "Ra1.5-a7.5"),
        ("8/8/8/7k/8/8/6N1/K1B5 w - - 0 1", "Bef3.5", "Bc1-ef3.5"),
        ("4k3/8/8/7n/8/8/8/4K3{Bef3.5} b - - 0 1", "Nxf4", "Nh5xf4"),
        ("4k3/8/8/8/3Q4/8/8/7K w - - 0 1", "Qab1.5", "Qd4-ab1.5"),
    ];
    for (text, written, long) in cases {
        let mut pos = at(text);
        let mv = pos.parse_move(written).unwrap_or_else(|e| panic!("{written}: {e}"));
        assert_eq!(pos.long_notation(mv), long);
        assert_eq!(short(&mut pos, long), written);
        for form in [long.to_string(), long.replace(['-', 'x'], ""), format!("{written}+")] {
            assert_eq!(pos.parse_move(&form), Ok(mv), "{form}");
        }
    }
}

/// Ruling: where names run together, the short form names more of the start square until no
/// other legal move reads the same way. With a rook on c2 and one on cd3 (c3, d3), `Rcd2` could
/// be the rook on c2 going to d2 or to cd2: Varia writes `R2d2` and `Rccd2`, and reads `Rcd2`
/// as ambiguous. The rook on cd3 going to d2 is `Rcdd2`. (The position comes from a failing
/// property test.)
#[test]
fn notation_where_names_run_together() {
    let text = "4r1n1/p4kr1/3b1npp/1pqp4/3N1B1P/Pp2B3/2R3P1/4K1N1{Rcd3} w - - 7 43";
    let mut pos = at(text);
    let moves = snap("notation_where_names_run_together", &mut pos);
    assert!(has(&moves, "Rc2-d2") && has(&moves, "Rc2-cd2") && has(&moves, "Rcd3-d2"));
    assert_eq!(short(&mut pos, "Rc2-d2"), "R2d2");
    assert_eq!(short(&mut pos, "Rc2-cd2"), "Rccd2");
    assert_eq!(short(&mut pos, "Rcd3-d2"), "Rcdd2");
    match pos.parse_move("Rcd2") {
        Err(MoveError::Ambiguous { candidates, .. }) => assert_eq!(candidates, ["Rc2-cd2", "Rc2-d2"]),
        other => panic!("Rcd2: {other:?}"),
    }
    every_form_reads_back(&mut pos);
}

/// Every legal move's long and short forms read back as that move, in positions with pieces of
/// both sides between squares (and, in the last, two rooks whose names run together).
#[test]
fn every_written_move_reads_back() {
    for text in [
        "7k/6pp/8/8/8/8/8/4K3{Ra1.5} w - - 0 1",
        "4k3/8/8/8/8/4B3/5PPP/1K2N1N1{Qfg3.5} w - - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R{qab2,Rcd3,Rc5.5,Bde5.5,bgh5.5} w KQkq - 0 1",
        "r3k2r/8/8/8/8/8/8/R3K2R{qab2,Rcd3,Rc5.5,Bde5.5,bgh5.5} b KQkq - 0 1",
        "4k3/8/8/3n2p1/8/r7/8/7K{Bef3.5} b - - 0 1",
        "7k/8/8/8/8/8/2R5/4K3{Rbc1,Rcd3} w - - 0 1",
    ] {
        let mut pos = at(text);
        assert_eq!(pos.to_position_string(), text);
        every_form_reads_back(&mut pos);
    }
}

// ---------------------------------------------------------------------------------------------
// Perft, the end of the game, and a game file.
// ---------------------------------------------------------------------------------------------

/// Perft from the start: 20, 400, 9,490 (depth 4, 222,790, and depth 5, 6,278,155, are in
/// `tests/perft.txt`; the independent oracle in `tools/multiple-squares-oracle/` agrees).
/// The first stops between squares come at depth 3 (after 1. e4, say, and a black move,
/// `Bf1-cd3.5`).
#[test]
fn perft_from_the_start() {
    let mut pos = at("start");
    assert_eq!(perft(&mut pos, 1), 20);
    assert_eq!(perft(&mut pos, 2), 400);
    assert_eq!(perft(&mut pos, 3), 9490);
    let mut pos = after("start", "e4 e5");
    assert!(has(&legal(&mut pos), "Bf1-cd3.5"));
}

/// "Condition: None": the rest is FIDE chess. Stalemate draws: the queen on g5.5 (g5, g6) takes
/// g7, g8 and h7 from the king on h8 without checking it.
#[test]
fn stalemate_draws() {
    let mut pos = at("7k/8/8/8/8/8/8/K5Q1 w - - 0 1");
    play(&mut pos, "Qg5.5");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/8/8/8/K7{Qg5.5} b - - 1 1");
    assert!(!pos.in_check());
    let moves = snap("stalemate_draws", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
}

/// Threefold repetition counts positions with pieces between squares like any other: the rook
/// goes a1 - a1.5 - a1 twice, the king h8 - g8 - h8, and the start's third occurrence draws. A
/// move between squares is not a capture or a pawn move and does not reset the move clock.
#[test]
fn threefold_repetition_with_a_piece_between_squares() {
    let mut pos = at("7k/8/8/8/8/8/8/R6K w - - 0 1");
    let start = pos.hash();
    let moves = "Ra1-a1.5 Kh8-g8 Ra1.5-a1 Kg8-h8 Ra1-a1.5 Kh8-g8 Ra1.5-a1";
    for m in moves.split_whitespace() {
        play(&mut pos, m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{m}");
        assert_eq!(pos.outcome(), None);
    }
    assert_eq!(pos.halfmove_clock(), 7);
    play(&mut pos, "Kg8-h8");
    assert_eq!(pos.hash(), start);
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Repetition)));
}

/// Replays a game file from the start, calling `check` after each move with the number of
/// moves made and the position.
fn replay(name: &str, mut check: impl FnMut(usize, &mut Position)) -> Position {
    let mut pos = at("start");
    for (i, m) in game_moves(name).iter().enumerate() {
        play(&mut pos, m);
        assert_eq!(pos.hash(), pos.compute_hash(), "{m}");
        check(i + 1, &mut pos);
    }
    pos
}

/// The Scholar's mate with the bishop between squares: 2. Bcd3.5 puts it on c3, d3, c4 and d4,
/// and from c4 it guards f7 for 4. Qxf7#.
#[test]
fn game_scholars_mate_from_between_squares() {
    let mut pos = replay("multiple-squares-scholars-mate.txt", |ply, pos| {
        if ply == 3 {
            assert_eq!(
                pos.to_position_string(),
                "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQK1NR{Bcd3.5} b KQkq - 1 2"
            );
            assert!(pos.is_attacked(cell("f7"), WHITE), "from c4");
        }
    });
    assert_eq!(pos.to_position_string(), "r1bqkb1r/pppp1Qpp/2n2n2/4p3/4P3/8/PPPP1PPP/RNB1K1NR{Bcd3.5} b KQkq - 0 4");
    let moves = snap("game_scholars_mate_from_between_squares", &mut pos);
    assert!(moves.is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));
}

/// Example 3 in a game: 2. Bef3.5 stands on e3, e4, f3 and f4; 3...Nxf4 takes it on f4.
#[test]
fn game_knight_takes_the_bishop_between_squares() {
    let pos = replay("multiple-squares-knight-takes-bishop.txt", |ply, pos| {
        if ply == 3 {
            assert_eq!(
                pos.to_position_string(),
                "rnbqkb1r/pppppppp/5n2/8/3P4/8/PPP1PPPP/RN1QKBNR{Bef3.5} b KQkq - 2 2"
            );
            // The knight on f6 could already take it on e4.
            assert!(has(&legal(pos), "Nf6xe4"));
        }
    });
    assert_eq!(pos.to_position_string(), "rnbqkb1r/pppppppp/8/8/3P1n2/2N5/PPP1PPPP/R2QKBNR w KQkq - 0 4");
}

// ---------------------------------------------------------------------------------------------
// Random games that favour pieces between squares.
// ---------------------------------------------------------------------------------------------

/// Random games from three starts (the setup and two with many queens and rooks), choosing a
/// move to or from a location between squares two times in three when there is one. In every
/// position: each legal move leaves no royal capturable by the opponent's generated moves, each
/// rejected pseudo-legal move does, check agrees with generation, the hash kept by make equals
/// a fresh one, and the position string reads back to the same position. Every eighth position,
/// every legal move's long and short forms read back as that move.
#[test]
fn random_games_agree_with_the_definition_of_legality() {
    let rules = rules();
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let starts =
        ["start", "r1q1k1br/8/8/8/8/8/8/RQ1BK2R w KQkq - 0 1", "rr2k1qq/pp4pp/8/8/8/8/PP4PP/RR2K1QQ w - - 0 1"];
    let (mut positions, mut with_between) = (0, 0);
    for g in 0..9 {
        let mut pos = at(starts[g % starts.len()]);
        for ply in 0..80 {
            if pos.outcome().is_some() {
                break;
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            positions += 1;
            let text = pos.to_position_string();
            with_between += usize::from(text.contains('{'));
            let back = Position::from_position_string(rules.clone(), &text).expect("own string");
            assert_eq!(back.to_position_string(), text);
            assert_eq!(back.hash(), pos.hash(), "{text}");
            assert_eq!(pos.hash(), pos.compute_hash(), "{text}");
            assert_eq!(pos.in_check(), pos.royal_capturable_by_generation(pos.side_to_move()), "{text}");
            let mut pseudo = Vec::new();
            pos.pseudo_legal_moves(&mut pseudo);
            for &mv in &pseudo {
                if mv.kind == varia_interpreter::MoveKind::Castle {
                    continue;
                }
                let mover = pos.side_to_move();
                pos.make(mv);
                let exposed = pos.royal_capturable_by_generation(mover);
                pos.unmake();
                assert_eq!(!exposed, moves.contains(&mv), "{} in {text}", pos.long_notation(mv));
            }
            if ply % 8 == 0 {
                every_form_reads_back(&mut pos);
            }
            let between: Vec<_> =
                moves.iter().filter(|m| rules.is_between(m.to) || rules.is_between(m.from)).copied().collect();
            let mv = if !between.is_empty() && next(3) > 0 {
                between[next(between.len())]
            } else {
                moves[next(moves.len())]
            };
            pos.make(mv);
        }
    }
    assert!(
        positions > 500 && with_between * 2 > positions,
        "{positions} positions, {with_between} with a piece between"
    );
}
