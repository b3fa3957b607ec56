//! Occupying Multiple Squares (Event #87): a scenario for each rule sentence of the rule text
//! (`shared/rules/occupying-multiple-squares.txt`), each of its four examples and each ruling
//! recorded in `docs/variants/multiple-squares.md`, its legal moves snapshotted.
//!
//! Locations between squares: `a1.5` covers a1 and a2, `ab1` covers a1 and b1, `ab1.5` covers
//! a1, a2, b1 and b2. Position strings write the covered squares empty in the rows and list the
//! pieces between squares after them in braces: `4K3{Ra1.5,bef3.5}`.

mod common;
#[path = "multiple_squares/helpers.rs"]
mod helpers;

use helpers::*;

/// Snapshots the position string and the sorted legal moves under `name` (insta names the
/// snapshot after this file), and returns the moves.
fn snap(name: &str, pos: &mut Position) -> Vec<String> {
    let (text, moves) = move_list(pos);
    insta::assert_snapshot!(name, text);
    moves
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
