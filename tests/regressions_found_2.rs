//! Defects the differential test (`varia_fuzz::differential`) found on random variants, continued from `regressions_found.rs`: each with the smallest game that showed it.

use varia_interpreter::paths::Path;
use varia_interpreter::{perft, Position};

mod common;
use common::{every_rules, start_moves_and_perft};

/// The legal moves of `text`'s start (sorted) and its perft count to `depth`, on each of
/// [`every_rules`], with the fast paths of the rules that found them.
fn legal_everywhere(text: &str, without: &[Path], depth: u32) -> Vec<(Vec<String>, u64, String)> {
    every_rules(text, without)
        .into_iter()
        .map(|rules| {
            let (written, n) = start_moves_and_perft(&rules, depth);
            (written, n, format!("{:?}", rules.fast_paths()))
        })
        .collect()
}

/// `defended` asks whether the mover's side could capture an enemy piece on the cell. A
/// program imagined the enemy as the next player in turn order, who with teams may be the
/// mover's partner: a program's `verify enemy` then refused the capture, while the move tables
/// (the path Atoms) take any imagined piece as an enemy, so a drop on a cell a program slider
/// covers was legal on the fast rules alone (random_var 68841). The imagined enemy is now the
/// next player not allied to the mover.
#[test]
fn a_cell_is_defended_against_an_enemy_not_a_partner() {
    let text = r#"variant "Defended beside a partner"
board { grid 4 x 4 }
player south
player north swap n <-> s  ne <-> se  nw <-> sw
player west swap n <-> e  s <-> w  nw <-> se
team south north
piece Zulu Z { move { ne while empty { add ne } verify enemy add } }
piece Juliett J { drop { verify empty verify defended add } }
setup { south: Zulu a1  north: Zulu d1  west: Zulu a4  hand south: Juliett 1 }
"#;
    let found = legal_everywhere(text, &[Path::Atoms], 2);
    for (moves, _, paths) in &found {
        assert_eq!(moves, &["J@b2", "J@c3", "J@d4", "Za1-b2", "Za1-c3", "Za1-d4"], "{paths}");
    }
    let counts: Vec<u64> = found.iter().map(|f| f.1).collect();
    assert!(counts.iter().all(|n| *n == counts[0]), "{found:?}");
}

/// Every choice is made before the first move, the first chooser first. The start had the
/// game's first mover to move even when no option gives it anything, so it moved before the
/// second player chose, could take the cells of that player's options and leave it a choice
/// with none free, a position whose string does not read back (random_var 79023).
#[test]
fn the_second_player_chooses_before_the_first_moves() {
    let text = r#"variant "The second player chooses"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
setup { white: K d1, R b1  black: K d4 }
choice army {
  option middle { black: R b4 }
  option corner { black: R a4 }
}
"#;
    let found = legal_everywhere(text, &[], 3);
    for (moves, n, paths) in &found {
        assert_eq!(moves, &["army=corner", "army=middle"], "{paths}");
        assert_eq!(*n, 98, "{paths}");
    }
    for rules in every_rules(text, &[]) {
        let mut pos = Position::start(rules.clone());
        assert_eq!(pos.side_to_move().0, 1);
        let start = pos.to_position_string();
        let back = Position::from_position_string(rules.clone(), &start).expect("the start reads back");
        assert_eq!((back.to_position_string(), back.hash()), (start, pos.hash()));
        let middle = pos.parse_move("army=middle").expect("a choice");
        pos.make(middle);
        assert_eq!(pos.side_to_move().0, 0, "white moves once black has chosen");
        assert!(pos.to_position_string().starts_with("1r1k/"), "{}", pos.to_position_string());
    }
}

/// A piece between cells moves as from each cell it covers, its own cells empty for it. Its
/// attack from the farther of two covered cells on a line passes through the nearer one; the
/// probe walk stopped at the first occupied cell (the nearer one, from which its `from` zone
/// gives it no move) and missed the check, so moves that leave the king attacked were legal
/// (random_var 88234).
#[test]
fn a_piece_between_cells_attacks_through_its_own_cells() {
    let text = r#"variant "Covering attacker"
board { grid 3 x 4  between all }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone top { a3 b3 c3 a4 b4 c4 }
piece King K { royal step all }
piece Oscar O { slide n ne nw max 3 stop-between from top }
piece Rook R { step e w }
setup { white: King b1, Rook a4  black: King c3, Oscar b2.5 }
"#;
    let found = legal_everywhere(text, &[Path::ProbeAttacks, Path::PinShortcut], 2);
    for (moves, _, paths) in &found {
        // In check from b3 through b2, the piece on b2 guarded by the king on c3: the king
        // steps aside; the rook's step leaves it attacked.
        assert_eq!(moves, &["Kb1-a1", "Kb1-c1"], "{paths}");
    }
    let counts: Vec<u64> = found.iter().map(|f| f.1).collect();
    assert!(counts.iter().all(|n| *n == counts[0]), "{found:?}");
}

/// Two rooks check along lines that branch apart after sharing cells (the centre cells every
/// board of central-squares shares): the check was taken for a double check, answered only by
/// the royal, while a piece standing on a shared cell of both lines blocks both. An answer to
/// every check now stands on every checking line (found by tests/properties.rs).
#[test]
fn a_block_on_the_shared_part_of_two_checking_lines_answers_both() {
    let rules = common::rules("central-squares.var");
    let mut pos = common::position(&rules, "6/2r3/4/1P2/6/6|6/2P3/6/3R2/P1Kb2/6|1nk3/1pr3/4/3P/6/6 w - - 1 57");
    let mut reference = Vec::new();
    pos.reference_moves(&mut reference);
    let mut reference: Vec<String> = reference.iter().map(|m| pos.long_notation(*m)).collect();
    reference.sort();
    let mut listed = common::legal(&mut pos);
    listed.sort();
    assert!(listed.iter().any(|m| m.contains("Rd3-c3")), "{listed:?}");
    assert_eq!(listed.len(), 6, "{listed:?}");
    let mut fast = Vec::new();
    pos.legal_moves(&mut fast);
    let mut fast: Vec<String> = fast.iter().map(|m| pos.long_notation(*m)).collect();
    fast.sort();
    assert_eq!(fast, reference);
}

/// On a cell of a stack zone a program move that does more than move its piece, and every
/// drop or created piece, joins what stands there (`apply_changes` takes nothing there but its
/// own `capture`s). The attack test took such a landing on a royal's cell for a capture, and
/// the move was written and searched as one (`x`), so a royal could not step next to a piece
/// whose only way there joins it, nor anywhere a drop program reaches (random variant 720931).
#[test]
fn a_joining_program_move_or_drop_does_not_check() {
    let text = r#"variant "Joining a royal's crowd"
board { grid 3 x 3 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone crowd { rank 1 rank 2 rank 3 capacity any }
piece King K { royal step orthogonal }
piece Mule M { move { n verify enemy change-type(Mule) add } }
piece Seed S { drop { verify not friend add } }
setup { white: King a1, Mule c1  black: King c3  hand white: Seed 1 }
"#;
    let mut counts = Vec::new();
    for rules in every_rules(text, &[]) {
        let reference = rules.is_reference();
        let mut pos = Position::start(rules);
        common::play(&mut pos, "Ka1-b1");
        let mut moves = Vec::new();
        if reference {
            pos.reference_moves(&mut moves);
        } else {
            pos.legal_moves(&mut moves);
        }
        let mut written: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
        written.sort();
        assert_eq!(written, ["Kc3-b3", "Kc3-c2"], "{:?}", pos.rules().fast_paths());
        common::play(&mut pos, "Kc3-c2");
        let mut white = common::legal(&mut pos);
        white.sort();
        // The mule joins the king's cell: written as a move, not a capture.
        assert!(white.iter().any(|m| m == "Mc1-c2=M"), "{white:?}");
        assert!(!white.iter().any(|m| m.contains('x')), "{white:?}");
        let mut pos = Position::start(pos.rules().clone());
        counts.push(if reference { pos.reference_perft(3) } else { perft(&mut pos, 3) });
    }
    assert!(counts.iter().all(|n| *n == counts[0]), "{counts:?}");
}

/// A drop that must not checkmate is asked whether it mates by listing the replies; where the
/// replies' own such drops were each asked the same in turn, the questions branched at every
/// level (random variant 721638: an unlimited supply of them ran for minutes on one position).
/// The replies are now listed first without those drops, and with them only where nothing else
/// answers: here the lance dropped on e5 checks the king on a5, whose one answer is its own lance
/// dropped between (which checks nothing), so the drop is no mate and is legal, on every path
/// and on the reference.
#[test]
fn a_check_answered_only_by_a_drop_that_must_not_mate_is_no_mate() {
    let text = r#"variant "Lances answer lances"
board { grid 5 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Wall W { }
piece Lance L {
  slide orthogonal
  no-drop-checkmate
  drop { verify empty add }
}
setup { white: K e1  black: K a5, W a4, W b4  hand white: L 1  hand black: L 1 }
"#;
    let found = legal_everywhere(text, &[], 2);
    for (moves, _, paths) in &found {
        assert!(moves.iter().any(|m| m == "L@e5"), "{paths}: {moves:?}");
    }
    let counts: Vec<u64> = found.iter().map(|f| f.1).collect();
    assert!(counts.iter().all(|n| *n == counts[0]), "{found:?}");
    // After the drop Black's only answers are its lance between the two (b5, c5, d5).
    let rules = every_rules(text, &[]).remove(0);
    let mut pos = Position::start(rules);
    common::play(&mut pos, "L@e5");
    assert_eq!(common::legal(&mut pos), ["L@b5", "L@c5", "L@d5"]);
}

/// A program may take a friendly piece, its own royal among them; with no royal left the
/// mover is not in check, so the move is legal (the plain reference's definition). The trial
/// in the cell array watched the royal's old cell, which then held the capturer, and called the
/// move illegal where an enemy attacked that cell; such a move is now made in full (found by a
/// helper's test variant, not by random_var).
#[test]
fn a_move_that_takes_its_own_royal_is_judged_in_full() {
    let text = r#"variant "Takes its own king"
board { grid 4 x 4 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
piece King K { royal step all }
piece Rook R { slide orthogonal }
piece Taker T { move { e add } }
setup { white: T a1, K b1  black: R b4, K d4 }
"#;
    let found = legal_everywhere(text, &[Path::LightTrial], 3);
    for (moves, _, paths) in &found {
        assert!(moves.iter().any(|m| m == "Ta1xb1"), "{moves:?} {paths}");
    }
    let counts: Vec<u64> = found.iter().map(|f| f.1).collect();
    assert!(counts.iter().all(|n| *n == counts[0]), "{found:?}");
}

/// Maximal captures weighed each move by the turn's best continuation, under one budget of
/// moves for the whole list: where a piece may hop to and fro within a turn, the first move
/// weighed spent the budget and the later ones counted only their own captures, so which moves
/// were legal depended on the order the generator found them in, and the move tables (the path
/// Atoms) found them in another order than the reference (random_var 983268). Each position of
/// the turn is now weighed once, whatever the order: here every move begins a turn that can
/// take the black wall (a hop away and back, then the capture).
#[test]
fn maximal_captures_do_not_depend_on_the_order_of_the_moves() {
    let text = r#"variant "Weighed in any order"
board { grid 3 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
maximal-captures
piece Runner R {
  move { n verify not empty n verify empty add-partial }
  move { s verify not empty s verify empty add-partial }
  move { s while empty { add s } verify enemy add }
}
piece Wall W { }
setup { white: R b3, W b4  black: W b2, W a5 }
"#;
    for (moves, _, paths) in legal_everywhere(text, &[Path::Atoms], 1) {
        assert_eq!(moves, ["Rb3-b1,then", "Rb3-b5,then", "Rb3xb2"], "{paths}");
    }
}

/// A program's `capture` clears the whole crowd on its cell, the capturer's own royal piece
/// with the enemy's. Where captures explode, the attack test counted no capture whose blast
/// reaches a royal of the capturer, but legality counted only the royals the blast itself took:
/// a capture of a crowd holding both kings was legal for its mover, so the reference found the
/// other king attacked there and the engine did not (random_var 955808). Legality now counts a
/// royal of the mover taken by the move's captures anywhere the blast reaches as lost with it.
#[test]
fn a_blast_that_takes_the_capturers_royal_from_a_crowd_is_illegal() {
    let text = r#"variant "A crowd with the capturer's royal"
board { grid 4 x 5 }
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone crowd {
  rank 1 rank 2 rank 3 rank 4 rank 5
  capacity 4
  lone-inert
  capture-one
}
piece King K { royal step all }
piece Bomber B {
  move { n verify empty verify enemy(ne) capture(ne) add }
  explodes all
}
setup { white: King c1  black: King c3, Bomber b5 }
"#;
    for rules in every_rules(text, &[Path::Atoms, Path::LightTrial]) {
        let paths = format!("{:?}", rules.fast_paths());
        let listed = |position: &str| common::listed(&mut common::position(&rules, position));
        // The bomber's capture of the crowd on c3 would blow up its own king: no check.
        assert!(listed("1b2/4/2k1/2K1/4 w - - 0 1").contains(&"Kc2-c3".to_string()), "{paths}");
        // Nor may the bomber make it: only the black king moves.
        let black = listed("1b2/4/2(Kk)1/4/4 b - - 0 1");
        assert_eq!(black.len(), 8, "{paths}: {black:?}");
        assert!(black.iter().all(|m| m.starts_with("Kc3-")), "{paths}: {black:?}");
    }
}

/// A reply made only to read what it takes (held-by-check asks which pieces give check) is
/// made without its blast; its wall was still built, and a duck may be put on the cell the
/// blast would have cleared, where the capturer then still stood: the square went from under
/// it, the cell read as a hole while the player's cells still held it, and the next move
/// generation panicked (random_var 1051253, `varia perft` 2). Such a reply now builds no wall.
#[test]
fn a_reply_made_without_its_blast_builds_no_wall() {
    let text = r#"variant "A blast, a duck and a held piece"

board {
  grid 4 x 5
  direction warp
  link d5 warp c3
}

player sente 
player gote swap n <-> s  ne <-> se  nw <-> sw

zone far { sente: rank 5 rank 4  gote: rank 1 rank 2 }
zone last { sente: rank 5  gote: rank 1 }
zone far-first { sente: rank 5 rank 4 }
zone far-rest { gote: rank 1 rank 2 }
zone start { sente: rank 2  gote: rank 4 }
zone mid { a3 b3 c3 d3 }

piece King K {
  royal
  step all
  attribute fresh set
  move { verify attribute(fresh) s verify empty s verify empty set-attribute fresh false add }
  points 3
  explodes n s
}
piece Pawn P {
  san-without-letter
  resets-move-clock
  step n
  held-by-check
  explodes all
}
piece November N {
  move jump { n verify enemy capture n verify empty add-partial then jump }
  betza "bRfrFF" move-only if not in-check
  points 2.5
}
piece Tango T {
  move { nw verify empty verify not marked add-copy }
  step w s all
  explodes all
}
piece Yankee Y {
  step diagonal
  no-check promotions
}
piece Xray X {
  hop orthogonal ne max 1
  leap 3 3 to last
  hop nw w diagonal
}

forbid: config(own Xray at far)

setup {
  sente: King c1, Pawn b2, Pawn d2, Pawn c2, Tango a1, Tango a2, Xray d1, November b1
  gote: King b5, Pawn b4, Pawn a4, Pawn d4, Tango c4, Tango a5, Xray c5, November d5
}
end {
  bare-king loss
  goal gote sente win: facing(own Tango, opponent Yankee, e)
  goal gote loss: shuttled 3 Pawn
}
walls {
  place duck in mid
}
"#;
    // Counted to 3 plies by the fast rules and by the plain reference, without a panic.
    let found = legal_everywhere(text, &[], 3);
    assert_eq!(found.len(), 2);
    assert_eq!(found[0].1, found[1].1, "{found:?}");
}
