//! Small language features checked on tiny inline variants.

use std::sync::Arc;

use varia_interpreter::ir::PlayerId;
use varia_interpreter::{EndReason, GameResult, Position, Rules};

fn moves_of(text: &str) -> Vec<String> {
    let v = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

const HOPPERS: &str = r#"
variant "Hoppers"
board { grid 5 x 5 }
player white
player black swap n <-> s
piece King K { royal step all }
piece Grasshopper G { hop orthogonal max 1 }
piece Cannon C { slide orthogonal move-only  hop orthogonal capture-only }
piece Pawn P { step n }
setup {
  white: K a1, G c1, C e1, P c3 e3
  black: K a5, P c5 e5
}
"#;

#[test]
fn hop_max_counts_cells_past_the_screen() {
    let moves = moves_of(HOPPERS);
    let grasshopper: Vec<&String> = moves.iter().filter(|m| m.starts_with('G')).collect();
    // Screen c3: lands on c4 only (max 1), not c5.
    assert_eq!(grasshopper, vec!["Gc1-c4"]);
    let cannon: Vec<&String> = moves.iter().filter(|m| m.starts_with('C')).collect();
    // Quiet slides along rank 1 and up to e2; captures over the screen e3 onto e5.
    assert_eq!(cannon, vec!["Ce1-d1", "Ce1-e2", "Ce1xe5"]);
}

/// The goal example of docs/language.md: checks counted by `checks-given`, and a lone king on
/// the move losing by `to-move`.
const TWO_CHECKS: &str = r#"
variant "Two checks"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
setup { white: K a1, R b2  black: K d4 }
end {
  // The second check wins.
  goal white black win: checks-given 2
  // A lone king loses at once, on its move, against two pieces or more besides a king.
  goal white black loss: pieces-remaining 1 and to-move and not total-pieces 2 and not total-pieces 3
}
"#;

#[test]
fn checks_given_and_to_move_goals() {
    use varia_interpreter::ir::PlayerId;
    use varia_interpreter::{EndReason, GameResult};
    let v = varia_grammar::load(TWO_CHECKS).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let play = |pos: &mut Position, m: &str| {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
        pos.make(mv);
    };
    play(&mut pos, "Rb2-b4");
    assert_eq!((pos.checks_given(PlayerId(0)), pos.outcome()), (1, None));
    assert!(pos.to_position_string().ends_with(" checks=1,0"), "{}", pos.to_position_string());
    play(&mut pos, "Kd4-c3");
    play(&mut pos, "Rb4-b3");
    assert_eq!(pos.outcome(), Some((GameResult::Win(PlayerId(0)), EndReason::Goal(0))));
    // One rook besides the king: the lone king on the move plays on.
    assert_eq!(Position::from_position_string(pos.rules().clone(), "3k/4/1R2/K3 b").unwrap().outcome(), None);
    let mut two = Position::from_position_string(pos.rules().clone(), "3k/4/1RR1/K3 b").unwrap();
    assert_eq!(two.outcome(), Some((GameResult::Win(PlayerId(0)), EndReason::Goal(1))));
}

/// The hand example of docs/language.md: captured pieces join the capturer's hand, a promoted
/// piece as its declared base type.
const TOKINS: &str = r#"
variant "Tokins"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Pawn P {
  captured-to-hand
  step n
  promote in far to T
  drop { verify empty verify not in(far) add }
}
piece Tokin T {
  captured-to-hand as Pawn
  step all
}
setup { white: K a1  black: K c4, T b2 }
"#;

#[test]
fn captured_pieces_go_to_hand_as_their_base_type() {
    let v = varia_grammar::load(TOKINS).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let before = (pos.to_position_string(), pos.hash());
    assert!(before.0.contains("[] "), "{}", before.0);
    let mv = pos.parse_move("Ka1xb2").unwrap();
    pos.make(mv);
    assert!(pos.to_position_string().contains("[P] "), "{}", pos.to_position_string());
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.make(pos.clone().parse_move("Kc4-b4").unwrap());
    // White drops the pawn on any empty cell but its far rank.
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let drops: Vec<String> =
        moves.iter().filter(|m| m.kind == varia_interpreter::MoveKind::Drop).map(|m| pos.long_notation(*m)).collect();
    assert_eq!(drops.len(), 8, "{drops:?}");
    pos.unmake();
    pos.unmake();
    assert_eq!((pos.to_position_string(), pos.hash()), before);
}

/// The marked-symbol example of docs/language.md: a promoted pawn is its own type, written `Q~`
/// in position strings and `Q` in moves, and goes back to hand as a pawn.
const MARKED: &str = r#"
variant "Marked"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Queen Q { slide all }
piece Pawn P {
  captured-to-hand
  step n
  promote in far to PromotedQueen
}
piece PromotedQueen Q~ {
  captured-to-hand as Pawn
  slide all
}
setup { white: K c1, P b3  black: K c4, Q a4 }
"#;

#[test]
fn marked_types_share_a_letter_and_go_to_hand_as_declared() {
    let v = varia_grammar::load(MARKED).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = Arc::new(Rules::new(v));
    let mut pos = Position::start(rules.clone());
    let mv = pos.parse_move("Pb4=Q").unwrap();
    assert_eq!(pos.long_notation(mv), "Pb3-b4=Q");
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "qQ~k/3/3/2K[] b - - 1 1");
    // Two queens may take on b4: each is named by its letter, the start cell tells them apart.
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let short: Vec<String> = legal.iter().map(|m| pos.short_notation(*m, &legal)).collect();
    assert!(short.contains(&"Qxb4".to_string()), "{short:?}");
    pos.make(pos.clone().parse_move("Qxb4").unwrap());
    assert_eq!(pos.to_position_string(), "1qk/3/3/2K[p] w - - 0 2");
    assert_eq!(pos.hash(), pos.compute_hash());
    let back = Position::from_position_string(rules.clone(), "qQ~k/3/3/2K[] b - - 1 1").unwrap();
    assert_eq!(back.to_position_string(), "qQ~k/3/3/2K[] b - - 1 1");
}

#[test]
fn a_symbol_is_used_once_and_plus_is_refused_beside_owned_squares() {
    let twice = MARKED.replace("piece Queen Q {", "piece Other Q~ { step n }\npiece Queen Q {");
    let e = varia_grammar::load(&twice).expect_err("a repeated symbol");
    assert!(format!("{e:?}").contains("`Q~` is already the symbol of the piece `Other`"), "{e:?}");
    // In Hans38 `+` writes White's empty squares.
    let hans = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/variants/hans38.var")).unwrap();
    let plus = hans.replacen("piece Queen Q {", "piece Tokin +P { step n }\npiece Queen Q {", 1);
    let e = varia_grammar::load(&plus).expect_err("`+` beside owned squares");
    assert!(format!("{e:?}").contains("the piece `Tokin` is marked `+`, as are owned empty squares"), "{e:?}");
    let tilde = hans.replacen("piece Queen Q {", "piece Tokin P~ { step n }\npiece Queen Q {", 1);
    assert!(varia_grammar::load(&tilde).is_ok());
}

/// The legal moves of pieces of one letter, in long notation, sorted; checks that perft's count
/// of the last ply (by ray masks where it can) agrees with the list.
/// Every legal move in long notation, sorted.
fn common_moves(pos: &mut Position) -> Vec<String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut out: Vec<String> = legal.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

fn piece_moves(pos: &mut Position, letter: char) -> Vec<String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(varia_interpreter::perft(pos, 1), legal.len() as u64, "count and list agree");
    let mut out: Vec<String> = legal.iter().map(|m| pos.long_notation(*m)).filter(|m| m.starts_with(letter)).collect();
    out.sort();
    out
}

/// The promotion example of docs/language.md: `or from ZONE` promotes moves that leave the
/// zone too.
const CAMP: &str = r#"
variant "Camp"
board { grid 3 x 3 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone camp { white: rank 3  black: rank 1 }
piece King K { royal step all }
piece Silver S {
  step n ne nw se sw
  promote in camp or from camp to Gold optional
}
piece Gold G { step n ne nw e w s }
setup { white: K a1, S b3  black: K c3 }
"#;

#[test]
fn a_move_leaving_the_zone_promotes_with_or_from() {
    let rules = Arc::new(Rules::new(varia_grammar::load(CAMP).unwrap_or_else(|e| panic!("{e:?}"))));
    let mut pos = Position::start(rules.clone());
    // Back out of the camp (its forward steps leave the board), each with and without promotion.
    assert_eq!(piece_moves(&mut pos, 'S'), ["Sb3-a2", "Sb3-a2=G", "Sb3-c2", "Sb3-c2=G"]);
    // Without `or from`, leaving the camp does not promote.
    let plain = CAMP.replace(" or from camp", "");
    let rules = Arc::new(Rules::new(varia_grammar::load(&plain).unwrap()));
    let mut pos = Position::start(rules);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert!(legal.iter().all(|m| m.promotion().is_none()));
}

/// The `except in` example of docs/language.md: an optional promotion that is compulsory on the
/// far rank.
const FAR_RANK: &str = r#"
variant "Far rank"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone camp { white: rank 3 rank 4  black: rank 1 rank 2 }
zone far-rank { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Lance L {
  slide n
  promote in camp to Gold optional except in far-rank
}
piece Gold G { step n ne nw e w s }
setup { white: K c1, L a1  black: K c4 }
"#;

#[test]
fn an_optional_promotion_is_compulsory_in_the_except_zone() {
    let rules = Arc::new(Rules::new(varia_grammar::load(FAR_RANK).unwrap_or_else(|e| panic!("{e:?}"))));
    let mut pos = Position::start(rules.clone());
    assert_eq!(piece_moves(&mut pos, 'L'), ["La1-a2", "La1-a3", "La1-a3=G", "La1-a4=G"]);
    // Written back by `varia convert`, the rule keeps its zone.
    let text = varia_grammar::write::write_variant(&rules.variant).expect("writes");
    assert!(text.contains("promote in camp to G optional except in far-rank"), "{text}");
    // `except` needs `optional`: a compulsory promotion has no exception.
    let bad = FAR_RANK.replace("to Gold optional except", "to Gold except");
    assert!(varia_grammar::load(&bad).is_err());
}

/// The `captured-only` example of docs/language.md: a promotion replaces a lost piece.
const REPLACEMENTS: &str = r#"
variant "Replacements"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far { white: rank 3 rank 4  black: rank 2 rank 1 }
zone last { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Rook R { slide orthogonal }
piece Knight N { leap 2 1 }
piece Pawn P {
  step n move-only
  promote in far to R N optional except in last captured-only
}
setup { white: K c1, R b1, N a1, P a2 b2  black: K c4, R a4 }
"#;

#[test]
fn a_captured_only_promotion_offers_lost_types() {
    let rules = Arc::new(Rules::new(varia_grammar::load(REPLACEMENTS).unwrap_or_else(|e| panic!("{e:?}"))));
    let pawn_moves = |pos: &mut Position| piece_moves(pos, 'P');
    // Nothing lost: pawns step to rank 3 as pawns.
    let mut pos = Position::start(rules.clone());
    assert_eq!(pawn_moves(&mut pos), ["Pa2-a3", "Pb2-b3"]);
    // A pawn on rank 3 with nothing lost has no move (rank 4 compels a promotion).
    let mut pos = Position::from_position_string(rules.clone(), "r1k/1P1/3/NRK w - - 0 1").unwrap();
    assert_eq!(pawn_moves(&mut pos), Vec::<String>::new());
    // The knight lost: the pawn becomes a knight, not a rook (White's rook is on the board).
    let mut pos = Position::from_position_string(rules.clone(), "r1k/1P1/3/1RK w - - 0 1").unwrap();
    assert_eq!(pawn_moves(&mut pos), ["Pb3-b4=N"]);
    let text = varia_grammar::write::write_variant(&rules.variant).expect("writes");
    assert!(text.contains("promote in far to R N optional except in last captured-only"), "{text}");
}

/// The several-rules example of docs/language.md: each side's pawns promote by their own rule.
const OWN_PROMOTIONS: &str = r#"
variant "Own promotions"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone white-last { white: rank 4 }
zone black-last { black: rank 1 }
piece King K { royal step all }
piece Rook R { slide orthogonal }
piece Knight N { leap 2 1 }
piece Pawn P {
  step n move-only
  promote in white-last to R
  promote in black-last to N
}
setup { white: K c1, P a3  black: K c4, P b2 }
"#;

#[test]
fn each_player_promotes_by_its_own_rule() {
    let rules = Arc::new(Rules::new(varia_grammar::load(OWN_PROMOTIONS).unwrap_or_else(|e| panic!("{e:?}"))));
    let mut pos = Position::start(rules.clone());
    assert_eq!(piece_moves(&mut pos, 'P'), ["Pa3-a4=R"]);
    let mut pos = Position::from_position_string(rules.clone(), "2k/P2/1p1/2K b - - 0 1").unwrap();
    assert_eq!(piece_moves(&mut pos, 'P'), ["Pb2-b1=N"]);
    // Written back, both rules stay, in their order, and read back the same.
    let text = varia_grammar::write::write_variant(&rules.variant).expect("writes");
    assert!(text.contains("promote in white-last to R\n  promote in black-last to N"), "{text}");
    let again = varia_grammar::load(&text).unwrap_or_else(|e| panic!("{e:?}\n{text}"));
    assert_eq!(again.pieces[3].more_promotions.len(), 1);
    // Two rules for one player are refused, naming both.
    let bad =
        OWN_PROMOTIONS.replace("zone black-last { black: rank 1 }", "zone black-last { black: rank 1  white: rank 3 }");
    let err = format!("{:?}", varia_grammar::load(&bad).expect_err("two rules for White"));
    assert!(err.contains("two `promote` rules for player `white`") && err.contains("line 13, column 3"), "{err}");
}

/// The castling example of docs/language.md: a king that is not royal castles through an attack.
const PLAIN_KING_CASTLES: &str = r#"
variant "Plain king castles"
board { grid 8 x 8 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { step all }
piece Rook R { slide orthogonal }
castle "O-O" white right K king e1 -> g1 partner h1 -> f1
setup { white: K e1, R h1  black: K e8, R f8  castling K }
"#;

#[test]
fn only_a_royal_king_castles_clear_of_attacks() {
    assert!(moves_of(PLAIN_KING_CASTLES).contains(&"O-O".to_string()));
    let royal = PLAIN_KING_CASTLES.replace("piece King K { step all }", "piece King K { royal step all }");
    let moves = moves_of(&royal);
    assert!(!moves.contains(&"O-O".to_string()) && moves.contains(&"Ke1-d1".to_string()), "{moves:?}");
}

/// The `held-by-check` example of docs/language.md: a king that may not step out of check.
const HELD_BY_CHECK: &str = r#"
variant "Held by check"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal held-by-check step all }
piece Rook R { slide orthogonal }
setup { white: K a1, R d3  black: K c4, R a2 }
"#;

#[test]
fn a_king_held_by_check_only_takes_the_checker() {
    let rules = Arc::new(Rules::new(varia_grammar::load(HELD_BY_CHECK).unwrap_or_else(|e| panic!("{e:?}"))));
    let mut pos = Position::start(rules.clone());
    assert_eq!(piece_moves(&mut pos, 'K'), ["Ka1xa2"]);
    assert_eq!(varia_interpreter::perft(&mut pos, 3), pos.reference_perft(3));
    // The checker guarded: the king has no move, the rook on d2 takes the checker.
    let mut pos = Position::from_position_string(rules.clone(), "4/1k2/r2R/K3 w - - 0 1").unwrap();
    assert_eq!(common_moves(&mut pos), ["Rd2xa2"]);
    assert_eq!(varia_interpreter::perft(&mut pos, 3), pos.reference_perft(3));
    // Without the rule the king steps away as well.
    let plain = HELD_BY_CHECK.replace(" held-by-check", "");
    assert_eq!(moves_of(&plain).iter().filter(|m| m.starts_with('K')).count(), 2);
    // Written back, the flag stays.
    let text = varia_grammar::write::write_variant(&rules.variant).expect("writes");
    assert!(text.contains("held-by-check"), "{text}");
}

/// The piece-count example of docs/language.md: powers that depend on a side's pieces of a type.
const COUNTED: &str = r#"
variant "Counted"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Queen Q { slide all }
piece Ferz F { step diagonal }
piece Pawn P {
  step n move-only
  step e w move-only if pieces(Ferz) == 0     // sideways while its side has no ferz
  step all if pieces(enemy Queen) == 0        // a king's step once the enemy queen is gone
}
setup { white: K a1, P b2, F d1  black: K d4, Q c4 }
"#;

#[test]
fn conditions_count_a_sides_pieces_of_a_type() {
    let rules = Arc::new(Rules::new(varia_grammar::load(COUNTED).unwrap_or_else(|e| panic!("{e:?}"))));
    let pawn_moves = |text: &str| piece_moves(&mut Position::from_position_string(rules.clone(), text).unwrap(), 'P');
    assert_eq!(pawn_moves("2qk/4/1P2/K2F w - - 0 1"), ["Pb2-b3"]);
    // White's ferz gone: sideways too.
    assert_eq!(pawn_moves("2qk/4/1P2/K3 w - - 0 1"), ["Pb2-a2", "Pb2-b3", "Pb2-c2"]);
    // Black's queen gone: a king's step (b3 once, though two powers reach it).
    assert_eq!(
        pawn_moves("3k/4/1P2/K2F w - - 0 1"),
        ["Pb2-a2", "Pb2-a3", "Pb2-b1", "Pb2-b3", "Pb2-c1", "Pb2-c2", "Pb2-c3"]
    );
    // The count is the mover's: Black's ferz does not stop White's sideways steps.
    assert_eq!(pawn_moves("2qk/2f1/1P2/K3 w - - 0 1"), ["Pb2-a2", "Pb2-b3", "Pb2-c2"]);
    let text = varia_grammar::write::write_variant(&rules.variant).expect("writes");
    assert!(text.contains("step e w move-only if pieces(F) == 0"), "{text}");
    assert!(text.contains("if pieces(enemy Q) == 0"), "{text}");
    // An unknown piece type is a located error.
    let bad = COUNTED.replace("pieces(Ferz)", "pieces(Fers)");
    let e = varia_grammar::load(&bad).expect_err("unknown type");
    assert!(format!("{e:?}").contains("Fers"), "{e:?}");
}

/// The explosion example of docs/language.md.
const SAPPERS: &str = r#"
variant "Sappers"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
piece Sapper S { explodes orthogonal  step all }
piece Wall W { blast-proof }
setup { white: K a1, S c2, R e1  black: K e5, R c3 d3, W b3 }
"#;

#[test]
fn an_exploding_capture_clears_the_cells_beside_it_but_blast_proof_pieces() {
    let v = varia_grammar::load(SAPPERS).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = Arc::new(Rules::new(v));
    let mut pos = Position::start(rules.clone());
    let before = (pos.to_position_string(), pos.hash());
    let mv = pos.parse_move("Sc2xc3").unwrap();
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "4k/5/1w3/5/K3R b - - 0 1");
    assert_eq!(pos.hash(), pos.compute_hash());
    pos.unmake();
    assert_eq!((pos.to_position_string(), pos.hash()), before);
    // With the white king on c4 beside c3 (and in check from the rook there), the sapper may
    // not take on c3; taking on d3 blows up the checking rook too.
    let mut own = Position::from_position_string(rules, "4k/2K2/1wrr1/2S2/4R w - - 0 1").unwrap();
    let moves = moves_in(&mut own);
    assert!(!moves.iter().any(|m| m.starts_with("Sc2xc3")), "{moves:?}");
    assert!(moves.iter().any(|m| m.starts_with("Sc2xd3")), "{moves:?}");
    // A rook's capture does not explode.
    let mut plain = Position::from_position_string(own.rules().clone(), "4k/5/1wrr1/5/K1R2 w - - 0 1").unwrap();
    let mv = plain.parse_move("Rc1xc3").unwrap();
    plain.make(mv);
    assert_eq!(plain.to_position_string(), "4k/5/1wRr1/5/K4 b - - 0 1");
}

fn moves_in(pos: &mut Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    moves.iter().map(|m| pos.long_notation(*m)).collect()
}

/// The gating example of docs/language.md.
const GATES: &str = r#"
variant "Gates"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Knight N { leap 2 1 }
piece Hawk H { slide diagonal leap 2 1 }
gate white right B at b1
setup {
  white: K a1, N b1
  black: K d4
  hand white: Hawk 1
  castling B
}
"#;

#[test]
fn a_gated_cell_takes_a_piece_from_hand_on_its_first_move() {
    let v = varia_grammar::load(GATES).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let mut knight: Vec<String> = moves_in(&mut pos).into_iter().filter(|m| m.starts_with('N')).collect();
    knight.sort();
    assert_eq!(knight, ["Nb1-a3", "Nb1-a3/H", "Nb1-c3", "Nb1-c3/H", "Nb1-d2", "Nb1-d2/H"]);
    assert_eq!(pos.to_position_string(), "3k/4/4/KN2[H] w B - 0 1");
    let mv = pos.parse_move("b1c3h").unwrap();
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "3k/2N1/4/KH2[] b - - 1 1");
    pos.unmake();
    // Without the gate the right is gone all the same.
    let mv = pos.parse_move("Nc3").unwrap();
    pos.make(mv);
    assert_eq!(pos.to_position_string(), "3k/2N1/4/K3[H] b - - 1 1");
}

/// The gating `except` example of docs/language.md.
const GATES_EXCEPT: &str = r#"
variant "Gates except"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Knight N { leap 2 1 }
piece Hawk H { slide diagonal leap 2 1 }
piece Pawn P { step n }
gate white right B at b1 except Pawn
setup {
  white: K a1, N b1
  black: K d4
  hand white: Hawk 1, Pawn 1
  castling B
}
"#;

#[test]
fn a_gate_never_places_the_types_it_names_after_except() {
    let v = varia_grammar::load(GATES_EXCEPT).unwrap_or_else(|e| panic!("{e:?}"));
    // The writer keeps the list: the file written reads back the same.
    let written = varia_grammar::write::write_variant(&v).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(written.contains("gate white right B at b1 except P\n"), "{written}");
    assert!(varia_grammar::load(&written).is_ok_and(|back| back.gates[0].except == v.gates[0].except));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    let mut knight: Vec<String> = moves_in(&mut pos).into_iter().filter(|m| m.starts_with('N')).collect();
    knight.sort();
    assert_eq!(knight, ["Nb1-a3", "Nb1-a3/H", "Nb1-c3", "Nb1-c3/H", "Nb1-d2", "Nb1-d2/H"]);
    assert!(pos.parse_move("b1c3p").is_err());
    // A type the file does not have is a located error.
    let bad = GATES_EXCEPT.replace("except Pawn", "except Dragon");
    let errors = varia_grammar::load(&bad).expect_err("unknown piece");
    let at = bad.find("Dragon").expect("in the text");
    assert!(errors.iter().any(|e| e.message == "unknown piece `Dragon`" && e.span == (at..at + 6)), "{errors:?}");
}

/// The `can-reach` example of docs/language.md.
const FOLLOW: &str = r#"
variant "Follow"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone top { white: rank 4  black: rank 4 }
piece King K { royal step all }
setup { white: K a3  black: K d2 }
end {
  goal white draw: config(own King at top) and opponent(config(own King at top)) and to-move
  goal black win: config(own King at top)
  goal white win: config(own King at top) and (to-move or not opponent(can-reach(own King at top)))
}
"#;

#[test]
fn can_reach_lets_black_follow_the_king_onto_the_last_rank() {
    let v = varia_grammar::load(FOLLOW).unwrap_or_else(|e| panic!("{e:?}"));
    let written = varia_grammar::write::write_variant(&v).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(written.contains("not opponent(can-reach(own K at top))"), "{written}");
    let rules = Arc::new(Rules::new(v));
    // Black's king on d2 cannot follow: White wins at once.
    let mut pos = Position::start(rules.clone());
    let mv = pos.parse_move("a3a4").unwrap();
    pos.make(mv);
    assert!(moves_in(&mut pos).is_empty());
    assert!(matches!(pos.outcome(), Some((GameResult::Win(PlayerId(0)), _))), "{:?}", pos.outcome());
    // On d3 it can: Black moves; following draws, anything else loses.
    let mut pos = Position::from_position_string(rules, "4/K2k/4/4 w - - 0 1").unwrap();
    let mv = pos.parse_move("a3a4").unwrap();
    pos.make(mv);
    assert_eq!(moves_in(&mut pos).len(), 5);
    assert_eq!(pos.outcome(), None);
    let mv = pos.parse_move("d3d4").unwrap();
    pos.make(mv);
    assert!(matches!(pos.outcome(), Some((GameResult::Draw, _))), "{:?}", pos.outcome());
    pos.unmake();
    let mv = pos.parse_move("d3c3").unwrap();
    pos.make(mv);
    assert!(matches!(pos.outcome(), Some((GameResult::Win(PlayerId(0)), _))), "{:?}", pos.outcome());
}

/// The points example of docs/language.md.
const STANDOFF: &str = r#"
variant "Standoff"
board { grid 3 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { points 5  slide orthogonal }
piece Pawn P { points 1  step n }
setup { white: K b1, R a1  black: K b5, P c4 }
pass-turn
// While the kings face each other, a move must part them (or pass).
forbid: before(facing(own King, opponent King, n)) and facing(own King, opponent King, n) and not passed 1
end {
  points-bonus black 0.5
  goal white black points: passed 2
  goal white black points: before(facing(own King, opponent King, n)) and facing(own King, opponent King, n)
}
"#;

#[test]
fn facing_kings_must_be_parted_and_passes_end_the_game_on_points() {
    let v = varia_grammar::load(STANDOFF).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = Arc::new(Rules::new(v));
    let mut pos = Position::start(rules.clone());
    let mut moves = moves_in(&mut pos);
    moves.sort();
    assert_eq!(moves, ["Kb1-a2", "Kb1-c1", "Kb1-c2", "end"]);
    // A pass leaves the kings facing again: the game ends, and White has more points.
    let pass = pos.parse_move("end").unwrap();
    pos.make(pass);
    assert_eq!(pos.outcome(), Some((GameResult::Win(PlayerId(0)), EndReason::Goal(1))));
    assert_eq!((pos.points(PlayerId(0)), pos.points(PlayerId(1))), (500, 150));
    assert!(moves_in(&mut pos).is_empty());
    // Parted, the game goes on until two passes in a row.
    let mut pos = Position::start(rules);
    for mv in ["Kb1-c1", "end", "end"] {
        assert!(pos.outcome().is_none());
        let m = pos.parse_move(mv).unwrap();
        pos.make(m);
    }
    assert_eq!(pos.outcome(), Some((GameResult::Win(PlayerId(0)), EndReason::Goal(0))));
}

/// The `no-check` example of docs/language.md.
const QUIET_PROMOTION: &str = r#"
variant "Quiet promotion"
board { grid 3 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Ferz F { step diagonal }
piece Pawn P {
  no-check promotions
  step n move-only
  promote in far to F optional
}
setup { white: K a1, P b3  black: K c3 }
"#;

#[test]
fn a_promotion_that_would_give_check_is_illegal_under_no_check() {
    let v = varia_grammar::load(QUIET_PROMOTION).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v.clone())));
    let mut moves = moves_in(&mut pos);
    moves.sort();
    assert_eq!(moves, ["Ka1-a2", "Ka1-b1", "Pb3-b4"]);
    // Perft's count of the last ply judges the rule as the move list does.
    assert_eq!(varia_interpreter::perft(&mut pos, 1), 3);
    let leaves: u64 = {
        let mut first = Vec::new();
        pos.legal_moves(&mut first);
        first
            .into_iter()
            .map(|m| {
                pos.make(m);
                let mut replies = Vec::new();
                pos.legal_moves(&mut replies);
                pos.unmake();
                replies.len() as u64
            })
            .sum()
    };
    assert_eq!(varia_interpreter::perft(&mut pos, 2), leaves);
    // Without the rule, the ferz on b4 is a choice (and gives check).
    let mut free = v;
    free.pieces.iter_mut().for_each(|p| p.no_check = 0);
    let mut pos = Position::start(Arc::new(Rules::new(free)));
    let mut moves = moves_in(&mut pos);
    moves.sort();
    assert_eq!(moves, ["Ka1-a2", "Ka1-b1", "Pb3-b4", "Pb3-b4=F"]);
    let mv = pos.parse_move("Pb3-b4=F").unwrap();
    pos.make(mv);
    assert!(pos.in_check());
}

/// The counting example of docs/language.md.
const COUNTDOWN: &str = r#"
variant "Countdown"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
setup { white: K a1, R b2  black: K d4 }
end {
  // Against a bare king, a rook has three moves to mate.
  counting 3: pieces-remaining 1 and not total-pieces 0 Rook
}
"#;

#[test]
fn a_count_begun_against_a_bare_king_draws_when_it_runs_out() {
    let v = varia_grammar::load(COUNTDOWN).unwrap_or_else(|e| panic!("{e:?}"));
    let mut pos = Position::start(Arc::new(Rules::new(v)));
    assert_eq!(pos.count(), None);
    // Kings and rook wander without a mate: the count begins after White's first move and the
    // game is drawn on the seventh half-move after that.
    let walk = ["Ka1-a2", "Kd4-d3", "Ka2-a1", "Kd3-d4", "Rb2-c2", "Kd4-d3", "Rc2-b2", "Kd3-d4"];
    for (i, mv) in walk.iter().enumerate() {
        assert!(pos.outcome().is_none(), "over before {mv}");
        let m = pos.parse_move(mv).unwrap_or_else(|e| panic!("{mv}: {e}"));
        pos.make(m);
        assert_eq!(pos.count(), Some((6, i as u32)), "after {mv}");
    }
    assert_eq!(pos.to_position_string(), "3k/4/1R2/K3 w - 6 7 5");
    assert_eq!(pos.outcome(), Some((GameResult::Draw, EndReason::Counting)));
    pos.unmake();
    assert!(pos.outcome().is_none());
    assert_eq!(pos.count(), Some((6, 6)));
}

/// The choice example of docs/language.md: an army each before the first move, and `setup-only`
/// promotion to the types in play.
const TWO_ARMIES: &str = r#"
variant "Two armies"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone far { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Rook R { slide orthogonal }
piece Knight N { leap 2 1 }
piece Pawn P { step n move-only  step ne nw capture-only  promote in far to R N setup-only }
setup { white: K d1, P b3  black: K d4 }
choice army {
  option rooks "Heavy" {
    white: R a1
    black: R a4
  }
  option knights "Light" {
    white: N b1 c1
    black: N b4 c4
  }
}
"#;

#[test]
fn choices_come_first_and_setup_only_promotes_to_the_types_in_play() {
    let v = varia_grammar::load(TWO_ARMIES).unwrap_or_else(|e| panic!("{e:?}"));
    let rules = Arc::new(Rules::new(v));
    let mut pos = Position::start(rules.clone());
    assert_eq!(varia_interpreter::perft(&mut pos, 2), 4);
    let after = |moves: &[&str]| {
        let mut pos = Position::start(rules.clone());
        for m in moves {
            let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
            pos.make(mv);
        }
        let mut legal = Vec::new();
        pos.legal_moves(&mut legal);
        let mut out: Vec<String> = legal.iter().map(|m| pos.long_notation(*m)).collect();
        out.sort();
        out.into_iter().filter(|m| m.starts_with('P')).collect::<Vec<_>>()
    };
    // Both kinds in play: the blocked pawn takes the knight as either.
    assert_eq!(after(&["rooks", "army=knights"]), vec!["Pb3xc4=N", "Pb3xc4=R"]);
    // Rooks alone in play: only a rook.
    assert_eq!(after(&["army=rooks", "rooks"]), vec!["Pb3-b4=R", "Pb3xa4=R"]);
}
