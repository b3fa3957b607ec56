//! Safety in Numbers (Crowd Chess 1, by Ralph Betza): one scenario per rule sentence of the text
//! (`shared/rules/safety-in-numbers.txt`), one per ruling recorded in
//! `docs/variants/safety-in-numbers.md`, and the text's two example games replayed move by move.
//!
//! Every scenario snapshots the sorted legal moves (long notation) of a position given by its
//! position string, and asserts the facts that matter with plain `assert!`s.

mod common;

use common::{game_moves, legal, play};

use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Move, MoveKind, Piece, Position, Rules};

const FILE: &str = "safety-in-numbers.var";
const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);

/// A position of Safety in Numbers.
fn at(text: &str) -> Position {
    let rules = common::rules(FILE);
    common::position(&rules, text)
}

/// The text of a snapshot: the position string, then the sorted legal moves.
fn listing(pos: &mut Position) -> String {
    format!("position: {}\n{}", pos.to_position_string(), legal(pos).join("\n"))
}

/// Whether the legal moves include `mv` (long notation, exactly as written).
fn has(pos: &mut Position, mv: &str) -> bool {
    legal(pos).iter().any(|m| m == mv)
}

/// The letters of the pieces on a cell, in the stack's canonical order.
fn stack(pos: &Position, cell: &str) -> String {
    let rules = pos.rules().clone();
    let c = rules.cell_by_name(cell).unwrap_or_else(|| panic!("no cell {cell}"));
    pos.pieces_at(c).iter().map(|p| rules.piece_letter(*p)).collect()
}

/// Whether `by` attacks the cell (could capture a piece of the other side there).
fn attacked(pos: &Position, cell: &str, by: PlayerId) -> bool {
    pos.is_attacked(pos.rules().cell_by_name(cell).expect("cell"), by)
}

/// Whether the legal move written `mv` (long notation) captures.
fn captures(pos: &mut Position, mv: &str) -> bool {
    let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
    assert_eq!(pos.long_notation(m), mv, "{mv} was read as another move");
    m.is_capture()
}

/// The position after the moves, from a position string.
fn after(text: &str, moves: &str) -> Position {
    let mut pos = at(text);
    play(&mut pos, moves);
    pos
}

// ---------------------------------------------------------------------------------------------
// The rule sentences of the text.
// ---------------------------------------------------------------------------------------------

/// "When there are multiple pieces on the same square, there can be no captures on that square."
/// The black rook reaches a crowd of two white pieces: it cannot capture either, but (the crowd
/// holding pieces that are enemies to Black) it may join it. The crowd also ends the rook's ray.
#[test]
fn no_capture_on_a_square_holding_several_pieces() {
    let mut pos = at("4k3/8/8/8/r2(NP)4/8/8/4K3 b - - 0 1");
    insta::assert_snapshot!("no-capture-on-a-crowd", listing(&mut pos));
    assert!(legal(&mut pos).iter().all(|m| !m.contains('x')), "no capture at all");
    assert!(has(&mut pos, "Ra4-d4") && !captures(&mut pos, "Ra4-d4"), "the rook joins without capturing");
    assert!(!has(&mut pos, "Ra4-e4"), "the crowd blocks the rook");
    assert!(!attacked(&pos, "d4", BLACK), "nothing can be captured on d4");
    play(&mut pos, "Ra4-d4");
    assert_eq!(stack(&pos, "d4"), "rNP", "the rook stands in the crowd, nothing was taken");
    assert_eq!(pos.piece_count(), 5);
}

/// "Because all the pieces are immune to capture, a King in a crowd is also immune to check."
/// The white king shares e4 with a black pawn on the black rook's file. Without the pawn it
/// would be in check; when the pawn leaves (breaking up the crowd) it is.
#[test]
fn a_king_in_a_crowd_cannot_be_checked() {
    let mut pos = at("4r2k/8/8/8/4(Kp)3/8/8/8 w - - 0 1");
    insta::assert_snapshot!("king-in-a-crowd", listing(&mut pos));
    assert!(!pos.in_check(), "the rook's file reaches e4, but the king is in a crowd");
    assert!(!has(&mut pos, "Ke4-e5"), "leaving the crowd along the file is leaving into check");
    // The pawn on e4 covers d3 and f3; the rook covers e5.
    assert_eq!(legal(&mut pos), vec!["Ke4-d4", "Ke4-d5", "Ke4-e3", "Ke4-f4", "Ke4-f5"]);
    assert!(at("4r2k/8/8/8/4K3/8/8/8 w - - 0 1").in_check(), "alone on e4 the king is in check");

    // Black to move: the rook may join the crowd (not capture the king), and the pawn may leave
    // it, which checks the king left alone.
    let mut pos = at("4r2k/8/8/8/4(Kp)3/8/8/8 b - - 0 1");
    insta::assert_snapshot!("king-in-a-crowd-black-to-move", listing(&mut pos));
    assert!(has(&mut pos, "Re8-e4") && !captures(&mut pos, "Re8-e4"));
    play(&mut pos, "e4-e3");
    assert!(pos.in_check(), "the crowd broke up: the king stands alone on the rook's file");
}

/// "If there are already multiple pieces on a square, and if there is also an enemy piece on
/// the square, any piece may move onto the square, using either its movement power or its
/// capture power." The pawn on c3 joins d4 by its capture power, the one on d3 by its move.
#[test]
fn a_crowd_with_an_enemy_is_joined_by_move_or_capture_power() {
    let mut pos = at("4k3/8/8/8/3(Pp)4/2PP4/8/4K3 w - - 0 1");
    insta::assert_snapshot!("join-mixed-crowd", listing(&mut pos));
    assert!(has(&mut pos, "c3-d4") && !captures(&mut pos, "c3-d4"), "joins by the capture power, written with -");
    assert!(has(&mut pos, "d3-d4") && !captures(&mut pos, "d3-d4"), "joins by the move power");
    assert!(!has(&mut pos, "c3xd4"), "no capture on a crowd");
    play(&mut pos, "c3-d4");
    assert_eq!(stack(&pos, "d4"), "PPp");
}

/// "If you have several pieces on the same square, but there are no enemy pieces there, no more
/// of your pieces may join the crowd." The white rook stops below its own crowd on d4.
#[test]
fn a_crowd_without_an_enemy_cannot_be_joined() {
    let mut pos = at("4k3/8/8/8/r2(NP)4/8/8/3RK3 w - - 0 1");
    insta::assert_snapshot!("own-crowd-cannot-be-joined", listing(&mut pos));
    assert!(has(&mut pos, "Rd1-d3") && !has(&mut pos, "Rd1-d4"), "the rook may not join its own crowd");
    assert!(has(&mut pos, "Nd4-e6"), "the pieces of the crowd may leave it");
    assert!(!has(&mut pos, "Nd4-d4"));
    // The same crowd, Black to move: for Black it holds enemies, so Black may join it.
    let mut pos = at("4k3/8/8/8/r2(NP)4/8/8/3RK3 b - - 0 1");
    assert!(has(&mut pos, "Ra4-d4"));
}

/// The text's first example: the opening position with both kings on f3. The pawns on e2 and
/// g2 join by their capture power, the pawn on f2 by its move power, the knight on g1 by either.
/// Neither king can step off f3: every neighbouring square is covered by the other king.
#[test]
fn text_example_both_kings_on_f3() {
    let mut pos = at("rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1");
    insta::assert_snapshot!("text-kings-on-f3", listing(&mut pos));
    for mv in ["e2-f3", "g2-f3", "f2-f3", "Ng1-f3"] {
        assert!(has(&mut pos, mv), "{mv} joins the crowd");
        assert!(!captures(&mut pos, mv), "{mv} captures nothing");
        let mut after = pos.clone();
        play(&mut after, mv);
        assert_eq!(after.piece_count(), 32, "{mv} leaves every piece on the board");
        assert_eq!(after.pieces_at(after.rules().cell_by_name("f3").unwrap()).len(), 3, "{mv}");
    }
    assert!(legal(&mut pos).iter().all(|m| !m.starts_with('K')), "no king move");
    assert!(!pos.in_check());
}

/// The text's second example: the opening position with a black rook on f3. The pawn on f2
/// joins it by its straight move; the pawns on e2 and g2 and the knight on g1 capture it and
/// may not move there without capturing.
#[test]
fn text_example_black_rook_on_f3() {
    let mut pos = at("rnbqkbn1/pppppppp/8/8/8/5r2/PPPPPPPP/RNBQKBNR w Qq - 0 1");
    insta::assert_snapshot!("text-black-rook-on-f3", listing(&mut pos));
    let moves = legal(&mut pos);
    for mv in ["e2xf3", "g2xf3", "Ng1xf3"] {
        assert!(moves.contains(&mv.to_string()), "{mv}");
        assert!(captures(&mut pos, mv), "{mv}");
    }
    for mv in ["e2-f3", "g2-f3", "Ng1-f3"] {
        assert!(!moves.contains(&mv.to_string()), "{mv} would join without capturing");
    }
    assert!(moves.contains(&"f2-f3".to_string()) && !captures(&mut pos, "f2-f3"));
    assert!(!moves.contains(&"f2-f4".to_string()), "the double step cannot pass f3");
    play(&mut pos, "f2-f3");
    assert_eq!(stack(&pos, "f3"), "rP");
}

/// "Pawns can never be blockaded." The text's chain, after 1. e4 e6 2. d4 d5 3. e5 (the text
/// writes "1. e5", a slip for 1. e4): each of d5-d4, e6-e5, d4-d5 and e5-e6 is possible. A piece
/// put in front of a pawn only invites it to step into a crowd.
#[test]
fn pawns_cannot_be_blockaded() {
    let mut pos = after(START, "e4 e6 d4 d5 e5");
    insta::assert_snapshot!("no-blockade-chain", listing(&mut pos));
    for mv in ["d5-d4", "e6-e5"] {
        assert!(has(&mut pos, mv) && !captures(&mut pos, mv), "{mv} joins the white pawn");
    }
    let mut white = after(START, "e4 e6 d4 d5 e5 a6");
    for mv in ["d4-d5", "e5-e6"] {
        assert!(has(&mut white, mv) && !captures(&mut white, mv), "{mv} joins the black pawn");
    }
    play(&mut white, "d4-d5");
    assert_eq!(stack(&white, "d5"), "Pp");

    let mut pos = at("4k3/8/8/4n3/4P3/8/8/4K3 w - - 0 1");
    insta::assert_snapshot!("no-blockade-knight", listing(&mut pos));
    assert!(has(&mut pos, "e4-e5"));
    play(&mut pos, "e4-e5");
    assert_eq!(stack(&pos, "e5"), "nP", "pawn and blockader now share e5, both safe");
    assert!(!attacked(&pos, "e5", BLACK) && !attacked(&pos, "e5", WHITE));
}

/// A small variant with the same occupancy rules, a cannon (moves like a rook, captures by
/// hopping one screen: the pao of the text) and a hook (slides orthogonally to move, captures one
/// step in any direction), for the points about pieces whose move and capture powers differ.
const CANNONS: &str = r#"
variant "Crowded cannons"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone crowd {
  a1..e5
  capacity any
  crowd-safe
  join-mixed-crowd
  join-enemy-by-move
}
piece King K { royal step all }
piece Cannon C { slide orthogonal move-only  hop orthogonal capture-only }
piece Hook H { slide orthogonal move-only  step all capture-only }
piece Rook R { slide orthogonal }
piece Pawn P { step n move-only  step ne nw capture-only }
setup {
  white: K a1, C c1
  black: K e5, R c3
}
"#;

fn cannons(text: &str) -> Position {
    let v = varia_grammar::load(CANNONS).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = Arc::new(Rules::new(v));
    common::position(&rules, text)
}

/// "The Pao is another example of a piece whose movement and capture powers are different, and
/// which therefore can start a crowd." The cannon slides onto the lone black rook (it could not
/// capture it there, lacking a screen) and so starts a crowd; a rook captures instead.
#[test]
fn a_cannon_starts_a_crowd() {
    let mut pos = cannons("4k/5/2r2/5/K1C2 w - - 0 1");
    insta::assert_snapshot!("cannon-starts-a-crowd", listing(&mut pos));
    assert!(has(&mut pos, "Cc1-c3") && !captures(&mut pos, "Cc1-c3"));
    play(&mut pos, "Cc1-c3");
    assert_eq!(stack(&pos, "c3"), "Cr");
    // At a distance too, when nothing stands between.
    let mut pos = cannons("2r1k/5/5/5/K1C2 w - - 0 1");
    assert!(has(&mut pos, "Cc1-c5"));
    // With a screen in between, the cannon reaches the rook only by its capture power: it captures.
    let mut pos = cannons("4k/5/2r2/2r2/K1C2 w - - 0 1");
    insta::assert_snapshot!("cannon-captures-over-a-screen", listing(&mut pos));
    assert!(has(&mut pos, "Cc1xc3") && !has(&mut pos, "Cc1-c3"));
    assert!(has(&mut pos, "Cc1-c2"), "the screen itself is a lone enemy the cannon joins by its slide");
    // A rook, whose move and capture are the same, captures and never joins a lone enemy.
    let mut pos = cannons("4k/5/2r2/5/K1R2 w - - 0 1");
    insta::assert_snapshot!("rook-captures-a-lone-enemy", listing(&mut pos));
    assert!(has(&mut pos, "Rc1xc3") && !has(&mut pos, "Rc1-c3"));
}

/// Ruling: a crowd is a screen for a hop like any occupied square; a cannon hopping over one may
/// capture a lone piece beyond, or join a mixed crowd beyond by its capture power.
#[test]
fn a_crowd_is_a_hop_screen() {
    let mut pos = cannons("4k/2r2/2(Rr)2/5/K1C2 w - - 0 1");
    insta::assert_snapshot!("crowd-as-hop-screen", listing(&mut pos));
    assert!(has(&mut pos, "Cc1xc4"), "over the crowd on c3");
    assert!(has(&mut pos, "Cc1-c3"), "onto the mixed crowd by the slide");
    assert!(has(&mut pos, "Rc3xc4"), "the rook leaves the crowd by capturing");
    let mut pos = cannons("4k/2(Rr)2/2p2/5/K1C2 w - - 0 1");
    insta::assert_snapshot!("cannon-joins-by-hop", listing(&mut pos));
    assert!(has(&mut pos, "Cc1-c4") && !captures(&mut pos, "Cc1-c4"), "joins the crowd beyond the screen");
    assert!(has(&mut pos, "Cc1-c3"), "joins the lone pawn by the slide");
}

/// Ruling: onto a lone enemy, a move-only power joins only when no capture power of the same piece
/// reaches that cell. The hook reaches c2 by its slide and by its one-step capture: it captures.
/// It reaches c3 by its slide only: it joins.
#[test]
fn join_by_move_only_where_no_capture_power_reaches() {
    let mut pos = cannons("4k/5/2r2/2r2/K1H2 w - - 0 1");
    insta::assert_snapshot!("hook-captures-next-door", listing(&mut pos));
    assert!(has(&mut pos, "Hc1xc2") && !has(&mut pos, "Hc1-c2"));
    let mut pos = cannons("4k/5/2r2/5/K1H2 w - - 0 1");
    insta::assert_snapshot!("hook-joins-at-a-distance", listing(&mut pos));
    assert!(has(&mut pos, "Hc1-c3") && !captures(&mut pos, "Hc1-c3"));
    assert!(has(&mut pos, "Hc1-c2"));
}

/// "It is possible to get both Kings onto the same square." A line reaching it on Black's sixth
/// move: 1. e4 e5 2. Ke2 e5-e4 3. Ke3 Ke7 4. a3 Ke6 5. a4 Ke5 6. Ke3-e4+ Ke5-e4.
#[test]
fn both_kings_on_one_square() {
    let mut pos = after(START, "e4 e5 Ke2 e5-e4 Ke3 Ke7 a3 Ke6 a4 Ke5 Ke3-e4");
    // The white king checks from inside the crowd; the black king must step away or join it.
    assert!(pos.in_check());
    insta::assert_snapshot!("kings-check-from-a-crowd", listing(&mut pos));
    assert_eq!(legal(&mut pos), vec!["Ke5-d6", "Ke5-e4", "Ke5-e6", "Ke5-f6"]);
    play(&mut pos, "Ke5-e4");
    assert_eq!(stack(&pos, "e4"), "KkPp");
    assert!(!pos.in_check());
    assert_eq!(pos.to_position_string(), "rnbq1bnr/pppp1ppp/8/8/P3(KkPp)3/8/1PPP1PPP/RNBQ1BNR w - - 3 7");
    assert!(legal(&mut pos).iter().all(|m| !m.starts_with('K')), "each king covers every square around e4");

    // The same meeting in a bare position: the white king joins the black one.
    let mut pos = at("8/8/8/8/4(kP)3/4(Kp)3/8/8 w - - 0 1");
    insta::assert_snapshot!("kings-meet", listing(&mut pos));
    assert!(!pos.in_check(), "both kings stand in crowds");
    play(&mut pos, "Ke3-e4");
    assert_eq!(stack(&pos, "e4"), "KkP");
    assert!(!pos.in_check());
}

// ---------------------------------------------------------------------------------------------
// Rulings where the text is silent.
// ---------------------------------------------------------------------------------------------

/// Ruling: a piece in a crowd may leave it by any of its moves, capturing elsewhere included.
#[test]
fn a_piece_leaves_a_crowd_by_any_move() {
    let mut pos = at("4k3/8/5r2/3b4/4(NPp)3/8/8/4K3 w - - 0 1");
    insta::assert_snapshot!("leave-a-crowd", listing(&mut pos));
    assert!(captures(&mut pos, "Ne4xf6"), "the knight captures from the crowd");
    assert!(captures(&mut pos, "e4xd5"), "the pawn captures from the crowd");
    assert!(has(&mut pos, "e4-e5"));
    play(&mut pos, "e4xd5");
    assert_eq!(stack(&pos, "e4"), "Np", "the crowd is smaller but still a crowd");
}

/// Ruling: a crowd blocks a slide like any occupied square, and stays a block while any piece is
/// left on it: a piece leaving a crowd between its king and an enemy slider is not pinned.
#[test]
fn a_crowd_keeps_blocking_when_one_piece_leaves() {
    let mut pos = at("4r2k/8/8/8/8/8/4(Np)3/4K3 w - - 0 1");
    insta::assert_snapshot!("crowd-shields-the-king", listing(&mut pos));
    assert!(has(&mut pos, "Ne2-c3"), "the knight is not pinned: the pawn stays on e2");
    play(&mut pos, "Ne2-c3");
    assert!(!attacked(&pos, "e1", BLACK), "the lone black pawn now blocks the file");
    // Alone on e2 the knight is pinned.
    let mut pos = at("4r2k/8/8/8/8/8/4N3/4K3 w - - 0 1");
    insta::assert_snapshot!("lone-knight-pinned", listing(&mut pos));
    assert!(legal(&mut pos).iter().all(|m| m.starts_with('K')));
}

/// Ruling: a pawn's double step needs its passed square empty, and may end by joining: onto a
/// lone enemy by its straight move, or onto a crowd that includes an enemy; never onto a crowd of
/// its own side.
#[test]
fn a_pawn_double_step_passes_an_empty_square_and_may_join() {
    // A lone enemy on e3: the pawn joins it and cannot go further.
    let mut pos = at("4k3/8/8/8/8/4n3/4P3/4K3 w - - 0 1");
    insta::assert_snapshot!("double-step-lone-enemy-on-e3", listing(&mut pos));
    assert!(has(&mut pos, "e2-e3") && !has(&mut pos, "e2-e4"));
    // A lone enemy on e4, e3 empty: the double step joins it.
    let mut pos = at("4k3/8/8/8/4n3/8/4P3/4K3 w - - 0 1");
    insta::assert_snapshot!("double-step-joins-lone-enemy", listing(&mut pos));
    assert!(has(&mut pos, "e2-e4") && !captures(&mut pos, "e2-e4"));
    // A mixed crowd on e3 is joined by the single step and stops the double one.
    let mut pos = at("4k3/8/8/8/8/4(Pp)3/4P3/4K3 w - - 0 1");
    insta::assert_snapshot!("double-step-crowd-on-e3", listing(&mut pos));
    assert!(has(&mut pos, "e2-e3") && !has(&mut pos, "e2-e4"));
    // A mixed crowd on e4, e3 empty: the double step joins it.
    let mut pos = at("4k3/8/8/8/4(Pp)3/8/4P3/4K3 w - - 0 1");
    insta::assert_snapshot!("double-step-joins-crowd", listing(&mut pos));
    assert!(has(&mut pos, "e2-e4"));
    play(&mut pos, "e2-e4");
    assert_eq!(stack(&pos, "e4"), "PPp");
    // A crowd of White's own on e4: only the single step.
    let mut pos = at("4k3/8/8/8/4(NP)3/8/4P3/4K3 w - - 0 1");
    insta::assert_snapshot!("double-step-own-crowd", listing(&mut pos));
    assert!(has(&mut pos, "e2-e3") && !has(&mut pos, "e2-e4"));
}

/// Ruling: en passant is possible only if the pawn that passed could be captured on its square;
/// a double step that joins a crowd cannot be taken en passant.
#[test]
fn en_passant_only_against_a_capturable_pawn() {
    let mut pos = after("4k3/8/8/8/3p4/8/4P3/4K3 w - - 0 1", "e2-e4");
    insta::assert_snapshot!("en-passant-lone-pawn", listing(&mut pos));
    assert!(has(&mut pos, "d4xe3"), "the lone pawn is taken en passant as in chess");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");

    let mut pos = after("4k3/8/8/8/3pn3/8/4P3/4K3 w - - 0 1", "e2-e4");
    insta::assert_snapshot!("en-passant-joined-pawn", listing(&mut pos));
    assert_eq!(stack(&pos, "e4"), "nP");
    assert!(!has(&mut pos, "d4xe3"), "the pawn joined a crowd: it cannot be captured");
    assert_eq!(pos.to_position_string(), "4k3/8/8/8/3p(nP)3/8/8/4K3 b - - 0 1");

    // A position string that claims the passage anyway gives no capture either.
    let mut pos = at("4k3/8/8/8/3p(nP)3/8/8/4K3 b - e3 0 1");
    assert!(!has(&mut pos, "d4xe3"));
}

/// Ruling: a king may join a crowd that includes an enemy, even on a square an enemy reaches,
/// because the move makes that square a crowd; it may not step to (or capture on) a square where
/// it would stand alone and attacked.
#[test]
fn a_king_enters_an_attacked_square_only_by_joining() {
    // The rook on h4 reaches e4; the pawn on e4 covers d3 and f3; the bishop guards the knight.
    let mut pos = at("4k3/8/8/8/1b2(Pp)2r/4K3/3n4/8 w - - 0 1");
    insta::assert_snapshot!("king-joins-attacked-crowd", listing(&mut pos));
    assert_eq!(legal(&mut pos), vec!["Ke3-d4", "Ke3-e2", "Ke3-e4", "Ke3-f2", "e4-e5"]);
    assert!(!has(&mut pos, "Ke3xd2"), "the knight is guarded: the king would stand alone there");
    play(&mut pos, "Ke3-e4");
    assert_eq!(stack(&pos, "e4"), "KPp");
    // In check, joining a crowd is an escape.
    let mut pos = at("7k/8/8/8/8/5n2/6(Nn)1/r6K w - - 0 1");
    assert!(pos.in_check());
    insta::assert_snapshot!("king-escapes-into-a-crowd", listing(&mut pos));
    assert_eq!(legal(&mut pos), vec!["Kh1-g2", "Ng2-e1"]);
    play(&mut pos, "Kh1-g2");
    assert_eq!(stack(&pos, "g2"), "KNn");
    play(&mut pos, "Kh8-g8");
    assert!(!pos.in_check(), "the rook's rank and the knight reach g2, but the king is in a crowd");
}

/// Ruling: a piece in a crowd attacks as usual, so it may give check, and it cannot be captured:
/// the black knight checks from d3, which it shares with a white rook, and only the king can
/// answer (by moving; castling out of check is not allowed either).
#[test]
fn a_piece_in_a_crowd_gives_check_and_cannot_be_taken() {
    let mut pos = at("4k3/8/8/8/8/3(Rn)4/8/R3K2R w KQ - 0 1");
    assert!(pos.in_check());
    insta::assert_snapshot!("check-from-a-crowd", listing(&mut pos));
    assert_eq!(legal(&mut pos), vec!["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1"]);
}

/// Ruling: two pieces of one side can never start a crowd alone: a lone friendly piece cannot be
/// joined, as in chess.
#[test]
fn one_side_cannot_start_a_crowd() {
    let mut pos = at("4k3/8/8/8/8/3N4/3P4/4KB2 w - - 0 1");
    insta::assert_snapshot!("no-friendly-crowd", listing(&mut pos));
    let moves = legal(&mut pos);
    for mv in ["d2-d3", "Nd3-e1", "Ke1-d2", "Ke1-f1", "Bf1-d3"] {
        assert!(!moves.contains(&mv.to_string()), "{mv}");
    }
}

/// The text, on the example game: "if the Black Pawn has also left, the Knight or Pawn can't rejoin
/// the crowd on e4". A crowd whose enemy left is still safe, but its own side cannot add to it;
/// the other side can.
#[test]
fn a_crowd_whose_enemy_left_stays_safe_but_closed() {
    let mut pos = after(START, "e4 e5 Nc3 e5-e4 Nc3-e4 e4-e3 d3 Nf6");
    assert_eq!(stack(&pos, "e4"), "NP");
    assert!(!has(&mut pos, "d3-e4"), "the d-pawn may not join White's own crowd");
    play(&mut pos, "Ne4-c3 a6");
    assert!(!has(&mut pos, "Nc3-e4"), "the knight cannot rejoin the lone pawn");

    let mut pos = at("4k3/8/5n2/8/4(NP)3/3P4/8/4K3 w - - 0 1");
    insta::assert_snapshot!("closed-crowd-white", listing(&mut pos));
    assert!(!has(&mut pos, "d3-e4") && has(&mut pos, "Ne4xf6"));
    let mut pos = at("4k3/8/5n2/8/4(NP)3/3P4/8/4K3 b - - 0 1");
    insta::assert_snapshot!("closed-crowd-black", listing(&mut pos));
    assert!(has(&mut pos, "Nf6-e4") && !has(&mut pos, "Nf6xe4"), "Black may join, not capture");
}

/// Ruling: castling needs the king and the rook alone on their squares and the squares between
/// them empty (a crowd is not empty).
#[test]
fn castling_needs_king_and_rook_alone() {
    let mut pos = at("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
    insta::assert_snapshot!("castling-plain", listing(&mut pos));
    assert!(has(&mut pos, "O-O") && has(&mut pos, "O-O-O"));
    let mut pos = at("4k3/8/8/8/8/8/8/R3(Kn)2R w KQ - 0 1");
    insta::assert_snapshot!("castling-king-in-a-crowd", listing(&mut pos));
    assert!(!has(&mut pos, "O-O") && !has(&mut pos, "O-O-O"));
    assert!(has(&mut pos, "Ra1-e1") && has(&mut pos, "Rh1-e1"), "the rooks may join the king's mixed crowd");
    let mut pos = at("4k3/8/8/8/8/8/8/R3K2(Rn) w KQ - 0 1");
    insta::assert_snapshot!("castling-rook-in-a-crowd", listing(&mut pos));
    assert!(!has(&mut pos, "O-O") && has(&mut pos, "O-O-O"));
    let mut pos = at("4k3/8/8/8/8/8/8/R(Nn)2K2R w KQ - 0 1");
    insta::assert_snapshot!("castling-crowd-between", listing(&mut pos));
    assert!(has(&mut pos, "O-O") && !has(&mut pos, "O-O-O"));
}

/// Ruling: a pawn that reaches the last rank by joining a crowd (here a lone enemy, by its
/// straight step) promotes there.
#[test]
fn a_pawn_promotes_when_it_joins_on_the_last_rank() {
    let mut pos = at("4r2k/4P3/8/8/8/8/8/K7 w - - 0 1");
    insta::assert_snapshot!("promotion-by-joining", listing(&mut pos));
    assert!(has(&mut pos, "e7-e8=Q") && !captures(&mut pos, "e7-e8=Q"));
    play(&mut pos, "e7-e8=N");
    assert_eq!(stack(&pos, "e8"), "rN");
}

/// Ruling: a lone king is a lone enemy piece like any other: a pawn may step straight onto it and
/// form a crowd with it (the king is then immune, but may be left without a move).
#[test]
fn a_pawn_may_step_onto_a_lone_king() {
    let mut pos = at("4k3/8/8/8/8/8/4p3/4K3 b - - 0 1");
    insta::assert_snapshot!("pawn-joins-the-king", listing(&mut pos));
    assert!(has(&mut pos, "e2-e1=Q") && !captures(&mut pos, "e2-e1=Q"));
    let mut knight = pos.clone();
    play(&mut knight, "e2-e1=N");
    assert_eq!(stack(&knight, "e1"), "Kn");
    assert_eq!(legal(&mut knight), vec!["Ke1-d1", "Ke1-d2", "Ke1-e2", "Ke1-f1", "Ke1-f2"]);
}

/// Ruling: stalemate is a draw and checkmate a win, as in chess; a crowd the king may join is a
/// way out of both.
#[test]
fn stalemate_draws_and_checkmate_wins() {
    let mut pos = after("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra1-a8");
    assert!(legal(&mut pos).is_empty());
    assert_eq!(pos.outcome(), Some((GameResult::Win(WHITE), EndReason::Checkmate)));

    // The same check, with a mixed crowd on h8: the king escapes into it.
    let mut pos = after("6k(Nn)/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra1-a8");
    assert!(pos.in_check());
    insta::assert_snapshot!("mate-averted-by-a-crowd", listing(&mut pos));
    assert_eq!(legal(&mut pos), vec!["Kg8-h8"]);
    assert_eq!(pos.outcome(), None);

    let mut pos = at("k7/8/1Q6/8/8/8/8/7K b - - 0 1");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));

    // A king in a crowd cannot be checked, but it can be stalemated: the queen promoted on the
    // king's square covers every square around it, and cannot be taken in the crowd.
    let mut pos = after("4k3/8/8/8/8/8/4p3/4K3 b - - 0 1", "e2-e1=Q");
    assert_eq!(stack(&pos, "e1"), "Kq");
    assert!(!pos.in_check());
    insta::assert_snapshot!("stalemate-in-a-crowd", listing(&mut pos));
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Stalemate)));
}

/// Ruling: a stack has no order: position strings accept any order and write one canonical order,
/// and repetition compares stacks as sets (the same pieces, arrived in another order).
#[test]
fn repetition_compares_stacks_as_sets() {
    let mut pos = at("7k/8/8/8/4(nNpP)3/8/8/K7 w - - 0 1");
    assert_eq!(pos.to_position_string(), "7k/8/8/8/4(NnPp)3/8/8/K7 w - - 0 1", "written in canonical order");
    assert_eq!(pos.hash(), at("7k/8/8/8/4(PpNn)3/8/8/K7 w - - 0 1").hash());
    insta::assert_snapshot!("repetition-start", listing(&mut pos));
    let start = pos.hash();
    // The knights leave, then come back after the pawns: the crowd is the same set.
    play(&mut pos, "Ne4-c3 Ne4-c5 Nc3-e4 Nc5-e4");
    assert_eq!(pos.hash(), start);
    assert_eq!(pos.hash(), pos.compute_hash());
    assert_eq!(pos.repetitions(), 1);
    assert_eq!(pos.outcome(), None);
    // Black's knight now comes back first; the kings step aside and back meanwhile.
    play(&mut pos, "Ne4-c3 Ne4-c5 Ka1-b1 Nc5-e4 Nc3-e4 Kh8-g8 Kb1-a1 Kg8-h8");
    assert_eq!(pos.hash(), start);
    assert_eq!(pos.repetitions(), 2);
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Repetition)));
}

// ---------------------------------------------------------------------------------------------
// The example games of the text, from tests/games/.
// ---------------------------------------------------------------------------------------------

/// Replays a game file from the start, calling `check` after each move with the number of
/// moves made and the move as written.
fn replay(name: &str, mut check: impl FnMut(usize, &str, &mut Position)) -> Position {
    let mut pos = at(START);
    for (i, m) in game_moves(name).iter().enumerate() {
        play(&mut pos, m);
        check(i + 1, m, &mut pos);
    }
    pos
}

#[test]
fn text_example_game() {
    let mut seen = Vec::new();
    let mut pos = replay("safety-in-numbers-example.txt", |ply, m, pos| {
        seen.push(m.to_string());
        match ply {
            // 2...e5-e4: the black pawn joins the white one.
            4 => assert_eq!(stack(pos, "e4"), "Pp"),
            // 3. Nc3-e4: knight and pawn both on e4, where nothing can be captured.
            5 => {
                assert_eq!(stack(pos, "e4"), "NPp");
                assert!(!attacked(pos, "e4", BLACK));
                assert!(legal(pos).iter().all(|m| !m.ends_with("e4") || !m.contains('x')));
            }
            // 5...Qe7-e4+: check from the crowd, but not mate: the king may join.
            10 => {
                assert!(pos.in_check());
                assert_eq!(stack(pos, "e4"), "qNPp");
                assert!(has(pos, "Ke3-e4"));
                assert_eq!(pos.outcome(), None, "not checkmate");
                insta::assert_snapshot!("example-game-after-5-qe4", listing(pos));
            }
            // 6 Ke3-e4: the white king in the crowd, not in check.
            11 => {
                assert_eq!(stack(pos, "e4"), "KqNPp");
                assert!(!pos.in_check());
                assert!(!attacked(pos, "e4", BLACK));
            }
            _ => {}
        }
    });
    assert_eq!(seen.len(), 11, "{seen:?}");
    insta::assert_snapshot!("example-game-end", pos.to_position_string());
    // "The Knight is now free to leave e4, even if the Black pieces have left, without fear of
    // breaking up the crowd."
    play(&mut pos, "Qe4-e7 a3 e4-e3 Ne4-c3");
    assert_eq!(stack(&pos, "e4"), "KP");
    assert!(!attacked(&pos, "e4", BLACK), "the queen on e7 faces a crowd, not a king");
}

#[test]
fn text_breakup_game() {
    let mut pos = replay("safety-in-numbers-breakup.txt", |ply, _, pos| {
        if ply == 3 {
            // 2. e4-e5: the white pawn joins the black one.
            assert_eq!(stack(pos, "e5"), "Pp");
            assert!(!attacked(pos, "e5", BLACK) && !attacked(pos, "e5", WHITE));
        }
    });
    // 3...e5-e4: the white pawn on e5 is alone again, and the knight on c6 can take it; the pawn
    // on e4 attacks the knight on f3.
    assert_eq!(stack(&pos, "e5"), "P");
    assert_eq!(stack(&pos, "e4"), "p");
    assert!(attacked(&pos, "e5", BLACK));
    assert!(attacked(&pos, "f3", BLACK));
    insta::assert_snapshot!("breakup-game-end", pos.to_position_string());
    insta::assert_snapshot!("breakup-game-white-to-move", listing(&mut pos));
    play(&mut pos, "a3");
    assert!(has(&mut pos, "Nc6xe5") && has(&mut pos, "e4xf3"));
}

// ---------------------------------------------------------------------------------------------
// Random games: the fast legality test agrees with the definition.
// ---------------------------------------------------------------------------------------------

/// Whether the side to move has a pseudo-legal move that captures a royal piece of `victim`.
fn royal_capturable(pos: &Position, victim: PlayerId) -> bool {
    let r = pos.rules().clone();
    let royal = |p: &Piece| r.owner(*p) == victim && r.variant.pieces[r.type_of(*p).0 as usize].royal;
    let mut moves = Vec::new();
    pos.pseudo_legal_moves(&mut moves);
    moves.iter().any(|m| {
        m.kind != MoveKind::Castle
            && if m.take == Piece::ALL {
                pos.pieces_at(m.to).iter().any(royal)
            } else {
                !m.take.is_empty() && royal(&m.take)
            }
    })
}

/// Random games that favour joining crowds: every position's legal moves (castling aside) are
/// exactly the pseudo-legal moves after which no enemy move can capture the mover's king, and
/// check by attack tables agrees with check by move generation.
#[test]
fn random_crowded_games_agree_with_the_definition_of_legality() {
    let rules = common::rules(FILE);
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move |n: usize| {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    let mut crowded_positions = 0;
    for _game in 0..300 {
        let mut pos = Position::start(rules.clone());
        for _ply in 0..160 {
            // A game drawn by the move rule or repetition has no moves: the comparison ends.
            if matches!(pos.outcome(), Some((_, EndReason::MoveRule | EndReason::Repetition))) {
                break;
            }
            let side = pos.side_to_move();
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            let mut pseudo = Vec::new();
            pos.pseudo_legal_moves(&mut pseudo);
            let mut slow = Vec::new();
            for &m in pseudo.iter().filter(|m| m.kind != MoveKind::Castle) {
                pos.make(m);
                if !royal_capturable(&pos, side) {
                    slow.push(m);
                }
                pos.unmake();
            }
            let fast: Vec<Move> = legal.iter().copied().filter(|m| m.kind != MoveKind::Castle).collect();
            let text = pos.to_position_string();
            let names = |v: &[Move]| {
                let mut n: Vec<String> = v.iter().map(|m| pos.long_notation(*m)).collect();
                n.sort();
                n
            };
            assert_eq!(names(&fast), names(&slow), "legal moves in {text}");
            assert_eq!(pos.in_check(), pos.royal_capturable_by_generation(side), "check in {text}");
            if text.contains('(') {
                crowded_positions += 1;
            }
            if legal.is_empty() || pos.outcome().is_some() {
                break;
            }
            let joins: Vec<Move> =
                legal.iter().copied().filter(|m| !m.is_capture() && !pos.pieces_at(m.to).is_empty()).collect();
            let mv = if !joins.is_empty() && next(3) > 0 { joins[next(joins.len())] } else { legal[next(legal.len())] };
            pos.make(mv);
        }
    }
    assert!(crowded_positions > 10_000, "only {crowded_positions} positions with crowds");
}

/// Every legal move's short (SAN-like) form names that move and no other: written, then read
/// back, it gives the same move. Joins are the new case: a pawn joining by its capture power
/// and a pawn joining (or moving) straight may reach the same cell. Checked in the text's
/// position with both kings on f3 and in random games that favour joins.
#[test]
fn short_forms_of_joins_name_their_move() {
    fn check(pos: &mut Position, failures: &mut Vec<String>) {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for &mv in &moves {
            let short = pos.short_notation(mv, &moves);
            match pos.parse_move(&short) {
                Ok(back) if back == mv => {}
                other => failures.push(format!(
                    "{}: {} written {short:?} reads as {other:?}",
                    pos.to_position_string(),
                    pos.long_notation(mv)
                )),
            }
        }
    }
    let mut failures = Vec::new();
    check(&mut at("rnbq1bnr/pppppppp/8/8/8/5(Kk)2/PPPPPPPP/RNBQ1BNR w - - 0 1"), &mut failures);
    let rules = common::rules(FILE);
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move |n: usize| {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        (seed.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    };
    for _game in 0..40 {
        let mut pos = Position::start(rules.clone());
        for _ply in 0..80 {
            check(&mut pos, &mut failures);
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            if legal.is_empty() {
                break;
            }
            let joins: Vec<Move> =
                legal.iter().copied().filter(|m| !m.is_capture() && !pos.pieces_at(m.to).is_empty()).collect();
            let mv = if !joins.is_empty() && next(3) > 0 { joins[next(joins.len())] } else { legal[next(legal.len())] };
            pos.make(mv);
        }
    }
    let count = failures.len();
    failures.truncate(12);
    assert!(count == 0, "{count} short forms do not name their move, among them:\n{}", failures.join("\n"));
}
