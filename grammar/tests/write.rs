//! The writer: the `.var` text it writes for an IR lowers back to the same IR.

use std::path::PathBuf;

use varia_grammar::load;
use varia_grammar::write::{write_variant, WriteError};
use varia_interpreter::ir::*;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read_variant(name: &str) -> Variant {
    let text = std::fs::read_to_string(root().join("variants").join(name)).unwrap();
    load(&text).unwrap_or_else(|d| panic!("{name} does not load: {d:?}"))
}

fn loaded(text: &str) -> Variant {
    load(text).unwrap_or_else(|d| panic!("the test's text does not load: {d:?}\n{text}"))
}

fn json(v: &Variant) -> serde_json::Value {
    serde_json::to_value(v).unwrap()
}

/// Writes `v`, lowers the text and compares the IRs; returns the text.
fn round_trip(v: &Variant) -> String {
    let text = write_variant(v).unwrap_or_else(|e| panic!("cannot write {:?}: {e}", v.title));
    let back = load(&text).unwrap_or_else(|d| panic!("the written text does not load: {d:?}\n{text}"));
    assert_eq!(json(v), json(&back), "round trip of {:?} differs; text:\n{text}", v.title);
    assert_eq!(write_variant(v).unwrap(), text, "the text of {:?} is not deterministic", v.title);
    text
}

fn write_error(v: &Variant) -> WriteError {
    match write_variant(v) {
        Ok(text) => panic!("expected an error, wrote:\n{text}"),
        Err(e) => e,
    }
}

// ---------------------------------------------------------------- bundled variants and docs

#[test]
fn every_bundled_variant_round_trips() {
    let mut names: Vec<String> = std::fs::read_dir(root().join("variants"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".var"))
        .collect();
    names.sort();
    assert!(names.len() >= 11, "{names:?}");
    // None of them needs an error: merges, offsets, between and no-square all have a form.
    for name in &names {
        round_trip(&read_variant(name));
    }
}

#[test]
fn boards_keep_their_grid_form() {
    let chess = write_variant(&read_variant("chess.var")).unwrap();
    assert!(chess.contains("board {\n  grid 8 x 8\n}"), "{chess}");
    let central = write_variant(&read_variant("central-squares.var")).unwrap();
    assert!(central.contains("direction up-ne offset 1 1 1"), "{central}");
    assert!(central.contains("merge Bc3 Ac3 Cc3 as c3"), "{central}");
    assert!(!central.contains("link "), "{central}");
    let multiple = write_variant(&read_variant("multiple-squares.var")).unwrap();
    assert!(multiple.contains("between all"), "{multiple}");
    let hans = write_variant(&read_variant("hans38.var")).unwrap();
    assert!(hans.contains("no-square a3..h6"), "{hans}");
}

/// Every complete example of the language documentation that loads.
#[test]
fn documentation_examples_round_trip() {
    let doc = std::fs::read_to_string(root().join("docs/language.md")).unwrap();
    let mut done = 0;
    for block in doc.split("```var\n").skip(1) {
        let text = &block[..block.find("```").unwrap()];
        if let Ok(v) = load(text) {
            round_trip(&v);
            done += 1;
        }
    }
    assert!(done >= 2, "only {done} examples load");
}

// ---------------------------------------------------------------- programs

const PROGRAMS: &str = r#"variant "Programs"

board {
  grid 5 x 5
}

player white
player black swap n <-> s  ne <-> se  nw <-> sw

move-types normal capture
attributes never-moved
flags jumped

zone last-rank { white: rank 5  black: rank 1 }
zone third-rank { white: rank 3  black: rank 3 }

piece Pawn P {
  move normal {
    n verify empty
    if in(last-rank) { add(Q) } else { add }
  }
  move normal { n verify empty verify in(third-rank) n verify empty add }
  move capture { ne verify enemy add }
  drop { verify empty and not in(last-rank) add }
}

piece Queen Q {
  drop-supply unlimited
  move { while empty(n) { n } n verify enemy add }
}

piece King K {
  royal
  attribute never-moved set
  move { n verify not friend set-attribute never-moved false add }
  move capture {
    mark
    e
    if enemy { capture set-flag jumped true e verify empty and flag(jumped) add-partial then capture }
    else if friend(w) or (attacked and not defended-by(normal, n)) { back to add-copy }
    else { go from create(owner: black, piece: P, at: s) add }
  }
}

priorities capture normal
turn-order { white black:normal repeat white black }
pass-partial

setup {
  white: K a1, P b2
  black: K e5, P d4
  hand white: P 2, Q 1
  hand black: P 1
}

end {
  checkmate loss
  stalemate draw
  goal white black loss: pieces-remaining 1 K and not captured P
  goal white win: config(own K, any Q at a5 last-rank) or total-pieces 3
  goal black draw: stalemated or repetition 2
}
"#;

#[test]
fn a_program_variant_round_trips() {
    let v = loaded(PROGRAMS);
    assert!(!v.pieces[0].programs.is_empty() && !v.end.goals.is_empty() && !v.setup.hands.is_empty());
    round_trip(&v);
}

/// A small variant to hang IR-built programs on.
fn base() -> Variant {
    loaded(
        r#"variant "Base"
board { grid 4 x 4 }
player white
player black swap n <-> s
zone far { white: rank 4  black: rank 1 }
piece King K { royal step all }
piece Man M { step n }
setup { white: K a1, M b2  black: K d4, M c3 }
"#,
    )
}

fn d(v: &Variant, name: &str) -> DirId {
    DirId(v.board.directions.iter().position(|x| x == name).unwrap() as u8)
}

fn c(v: &Variant, name: &str) -> CellId {
    CellId(v.board.cells.iter().position(|x| x.name == name).unwrap() as u16)
}

#[test]
fn every_instruction_and_test_round_trips() {
    let mut v = base();
    v.move_types = vec!["normal".into(), "jump".into()];
    v.attributes = vec!["fresh".into(), "tired".into()];
    v.flags = vec!["seen".into(), "hit".into()];
    let (n, e) = (d(&v, "n"), d(&v, "e"));
    let (b2, c3) = (c(&v, "b2"), c(&v, "c3"));
    let (k, m) = (PieceTypeId(0), PieceTypeId(1));
    let at_n = Some(Place::Dir(n));
    let at_c3 = Some(Place::Cell(c3));
    let tests = vec![
        Test::True,
        Test::False,
        Test::Empty(None),
        Test::Empty(at_n),
        Test::Friend(at_c3),
        Test::Enemy(None),
        Test::Piece(m, None),
        Test::Piece(k, at_n),
        Test::InZone(ZoneId(0), None),
        Test::InZone(ZoneId(0), at_c3),
        Test::OnBoard(Place::Dir(e)),
        Test::OnBoard(Place::Cell(b2)),
        Test::At(b2),
        Test::LastFrom(None),
        Test::LastTo(at_n),
        Test::Marked(at_c3),
        Test::Attacked(None, None),
        Test::Attacked(Some(MoveTypeId(1)), at_n),
        Test::Defended(None, at_n),
        Test::Defended(Some(MoveTypeId(0)), None),
        Test::AdjacentToEnemy(None),
        Test::AdjacentToEnemy(at_n),
        Test::Flag(FlagId(1)),
        Test::CellFlag(FlagId(0), None),
        Test::CellFlag(FlagId(1), at_c3),
        Test::Attribute(AttributeId(1), None),
        Test::Attribute(AttributeId(0), at_n),
        Test::Holds(Condition::Not(Box::new(Condition::TurnNumber(Compare::GreaterEq, 3)))),
        Test::Not(Box::new(Test::Not(Box::new(Test::Empty(None))))),
        // Nesting that needs brackets: an `or` in an `and`, an `and` in an `and`, an `or` in an `or`.
        Test::And(vec![Test::Or(vec![Test::True, Test::False]), Test::Empty(None)]),
        Test::And(vec![Test::And(vec![Test::True, Test::False]), Test::Empty(None)]),
        Test::Or(vec![Test::Or(vec![Test::True, Test::False]), Test::And(vec![Test::Enemy(None), Test::True])]),
        Test::Not(Box::new(Test::Or(vec![Test::True, Test::Not(Box::new(Test::And(vec![Test::True, Test::False])))]))),
    ];
    let mut body: Vec<Instr> = tests.iter().cloned().map(Instr::Verify).collect();
    body.extend([
        Instr::Step(n),
        Instr::Jump(c3),
        Instr::Go(Landmark::From),
        Instr::Go(Landmark::To),
        Instr::Go(Landmark::Mark),
        Instr::Go(Landmark::LastFrom),
        Instr::Go(Landmark::LastTo),
        Instr::Mark(None),
        Instr::Mark(Some(Place::Dir(e))),
        Instr::Mark(Some(Place::Cell(b2))),
        Instr::Back,
        Instr::If(Test::Empty(None), vec![Instr::Step(n)], vec![]),
        Instr::If(Test::Empty(None), vec![], vec![Instr::Back]),
        Instr::If(
            Test::Friend(None),
            vec![Instr::Step(e), Instr::If(Test::True, vec![Instr::To], vec![Instr::From])],
            vec![Instr::If(Test::Enemy(None), vec![Instr::Cascade], vec![Instr::If(Test::True, vec![], vec![])])],
        ),
        Instr::While(Test::Empty(at_n), vec![Instr::Step(n)]),
        Instr::While(Test::False, vec![]),
        Instr::To,
        Instr::From,
        Instr::Cascade,
        Instr::Capture(None),
        Instr::Capture(at_n),
        Instr::ChangeType(m, None),
        Instr::ChangeType(k, at_c3),
        Instr::ChangeOwner(None),
        Instr::ChangeOwner(at_n),
        Instr::Flip(None),
        Instr::Flip(at_c3),
        Instr::Create { owner: None, piece: None, at: None },
        Instr::Create { owner: Some(PlayerId(1)), piece: None, at: None },
        Instr::Create { owner: None, piece: Some(m), at: None },
        Instr::Create { owner: None, piece: None, at: at_n },
        Instr::Create { owner: Some(PlayerId(0)), piece: Some(k), at: at_c3 },
        Instr::SetFlag(FlagId(0), Test::Enemy(None)),
        Instr::SetCellFlag(FlagId(1), Test::True, None),
        Instr::SetCellFlag(FlagId(0), Test::And(vec![Test::True, Test::Empty(None)]), at_n),
        Instr::SetAttribute(AttributeId(1), Test::False),
    ]);
    for kind in [AddKind::Move, AddKind::Copy, AddKind::Partial, AddKind::CopyPartial] {
        body.push(Instr::Add { kind, promote: vec![], then: None });
        body.push(Instr::Add { kind, promote: vec![k, m], then: None });
    }
    body.push(Instr::Add { kind: AddKind::Partial, promote: vec![], then: Some(MoveTypeId(1)) });
    body.push(Instr::Add { kind: AddKind::CopyPartial, promote: vec![m], then: Some(MoveTypeId(0)) });
    let man = &mut v.pieces[1];
    man.programs.push(Program { move_type: None, body: body.clone() });
    man.programs.push(Program {
        move_type: Some(MoveTypeId(1)),
        body: vec![Instr::Step(n), Instr::Add { kind: AddKind::Move, promote: vec![], then: None }],
    });
    man.programs.push(Program { move_type: Some(MoveTypeId(0)), body: vec![] });
    man.drops.push(Program {
        move_type: None,
        body: vec![Instr::Verify(Test::Empty(None)), Instr::Add { kind: AddKind::Move, promote: vec![], then: None }],
    });
    man.drops.push(Program { move_type: Some(MoveTypeId(1)), body });
    man.attributes = vec![AttributeId(1), AttributeId(0)];
    v.pieces[0].drop_supply = DropSupply::Unlimited;
    v.pieces[0].attributes = vec![AttributeId(0)];
    round_trip(&v);
}

#[test]
fn turn_orders_priorities_hands_and_goals_round_trip() {
    let mut v = base();
    v.move_types = vec!["a".into(), "b".into()];
    let (white, black) = (PlayerId(0), PlayerId(1));
    v.move_priorities = vec![MoveTypeId(1), MoveTypeId(0)];
    v.play.pass_partial = true;
    v.setup.hands = vec![
        (white, PieceTypeId(1), 2),
        (white, PieceTypeId(0), 1),
        (black, PieceTypeId(1), 3),
        (white, PieceTypeId(1), 1),
    ];
    let entry = |player, t: Option<u8>| TurnEntry { player, move_type: t.map(MoveTypeId) };
    for order in [
        TurnOrder { opening: vec![], cycle: vec![entry(white, None), entry(black, Some(1))] },
        TurnOrder {
            opening: vec![entry(white, Some(0))],
            cycle: vec![entry(black, None), entry(black, Some(1)), entry(white, None)],
        },
    ] {
        v.turn_order = Some(order);
        round_trip(&v);
    }
    let (k, m) = (PieceTypeId(0), PieceTypeId(1));
    let goal = |players: Vec<PlayerId>, outcome, test| Goal { players, outcome, test };
    v.end.goals = vec![
        goal(vec![white, black], Outcome::Loss, GoalTest::PiecesRemaining(0, None)),
        goal(vec![black], Outcome::Win, GoalTest::PiecesRemaining(2, Some(m))),
        goal(vec![white], Outcome::Draw, GoalTest::TotalPieces(2, None)),
        goal(vec![black, white], Outcome::Draw, GoalTest::TotalPieces(3, Some(k))),
        goal(vec![white], Outcome::Loss, GoalTest::Captured(k)),
        goal(vec![white], Outcome::Loss, GoalTest::Stalemated),
        goal(vec![white], Outcome::Draw, GoalTest::Repetition(3)),
        goal(
            vec![white],
            Outcome::Win,
            GoalTest::Config(
                vec![Occupier::Own(k), Occupier::Opponent(m), Occupier::AnyOwner(m)],
                vec![ConfigGroup::Cell(c(&v, "a1")), ConfigGroup::Zone(ZoneId(0)), ConfigGroup::Cell(c(&v, "d4"))],
            ),
        ),
        goal(
            vec![black],
            Outcome::Win,
            GoalTest::Or(vec![
                GoalTest::Or(vec![GoalTest::Stalemated, GoalTest::Captured(m)]),
                GoalTest::And(vec![
                    GoalTest::Not(Box::new(GoalTest::PiecesRemaining(1, None))),
                    GoalTest::And(vec![GoalTest::Repetition(2), GoalTest::TotalPieces(4, None)]),
                    GoalTest::Not(Box::new(GoalTest::Or(vec![GoalTest::Stalemated, GoalTest::Repetition(5)]))),
                ]),
            ]),
        ),
    ];
    v.end.bare_king = Some(Outcome::Loss);
    round_trip(&v);
}

// ---------------------------------------------------------------- boards

#[test]
fn grid_differences_round_trip() {
    let v = loaded(
        r#"variant "Differences"
board {
  grid 4 x 3
  grid 2 x 2 prefix "X" layer 3
  direction up
  direction down offset 0 0 -1
  remove a1 d1 Xb2
  cell far at 9 9
  cell farther at -2 5 layer 3
  unlink b2 n
  unlink c2 ne
  link b2 n d3
  link far up b1
  link b1 up far
  link far down farther
  directions vertical = up down
  directions around = all vertical
  no-square c1 b2
}
player white
player black swap up <-> down
zone z { b1 c1 far }
piece King K { royal step all vertical }
setup { white: K b1  black: K far }
"#,
    );
    let text = round_trip(&v);
    assert!(text.contains("grid 4 x 3\n  grid 2 x 2 prefix \"X\" layer 3"), "{text}");
    assert!(text.contains("unlink b2 n"), "{text}");
    assert!(text.contains("cell farther at -2 5 layer 3"), "{text}");
}

#[test]
fn a_board_without_grid_is_written_cell_by_cell() {
    let v = loaded(
        r#"variant "Ring"
board {
  direction cw ccw
  cell top at 1 2
  cell right at 2 1
  cell bottom at 1 0
  cell left at 0 1
  link top cw right  link right cw bottom  link bottom cw left  link left cw top
  link top ccw left  link left ccw bottom  link bottom ccw right  link right ccw top
  link top cw bottom
  directions both = cw ccw
}
player white
player black swap cw <-> ccw
zone start { white: bottom  black: top }
piece Runner R { slide both }
setup { white: R bottom  black: R top }
"#,
    );
    let text = round_trip(&v);
    assert!(text.contains("cell top at 1 2"), "{text}");
}

#[test]
fn links_out_of_the_grids_order_still_round_trip() {
    // The lowering appends every `link` after the grid's links: a board whose links come in
    // another order needs the grid's links removed and written again.
    let mut v = read_variant("chess.var");
    v.board.links.swap(0, 100);
    let text = round_trip(&v);
    assert!(text.contains("unlink a1 n"), "{text}");
    // Cells out of the grid's order: written one by one.
    let mut v = loaded(
        r#"variant "Swapped"
board { grid 2 x 1 }
player white
player black
piece King K { royal step all }
setup { white: K a1  black: K b1 }
"#,
    );
    v.board.cells.swap(0, 1);
    for l in &mut v.board.links {
        (l.from, l.to) = (CellId(1 - l.from.0), CellId(1 - l.to.0));
    }
    for (cell, _) in &mut v.setup.placements {
        *cell = CellId(1 - cell.0);
    }
    v.setup.placements.reverse();
    let text = round_trip(&v);
    assert!(text.contains("cell b1 at 1 0  cell a1 at 0 0"), "{text}");
}

// ---------------------------------------------------------------- names

/// The variant with every name blanked, to compare what names do not change.
fn nameless(v: &Variant) -> serde_json::Value {
    let mut v = v.clone();
    v.title.clear();
    v.board.cells.iter_mut().for_each(|c| c.name.clear());
    v.board.directions.iter_mut().for_each(String::clear);
    v.board.direction_sets.iter_mut().for_each(|s| s.0.clear());
    v.players.iter_mut().for_each(|p| p.name.clear());
    v.zones.iter_mut().for_each(|z| z.name.clear());
    v.pieces.iter_mut().for_each(|p| {
        p.name.clear();
        p.letter = p.letter.to_ascii_uppercase();
    });
    v.phases.iter_mut().for_each(|p| p.name.clear());
    for names in [&mut v.move_types, &mut v.attributes, &mut v.flags] {
        names.iter_mut().for_each(String::clear);
    }
    json(&v)
}

#[test]
fn invalid_names_are_sanitised_consistently() {
    let mut v = base();
    v.title = "A \"quoted\" title".into();
    v.board.cells[0].name = "1a".into();
    v.board.cells[1].name = "n".into(); // a direction's name
    v.board.cells[2].name = "move".into(); // a keyword
    v.board.directions[1] = "north east".into();
    v.players[1].name = "win".into(); // ends a goal's players
    v.zones[0].name = "far/away".into();
    v.pieces[0].name = "King?".into();
    v.pieces[1].name = "King!".into(); // sanitised, it would be the same as the first
    v.pieces[1].letter = 'm';
    v.move_types = vec!["to".into(), "2x".into()];
    v.flags = vec!["a b".into()];
    v.attributes = vec!["hand".into()];
    v.pieces[1].programs.push(Program {
        move_type: Some(MoveTypeId(1)),
        body: vec![
            Instr::Jump(CellId(1)),
            Instr::Step(DirId(1)),
            Instr::Verify(Test::InZone(ZoneId(0), Some(Place::Cell(CellId(2))))),
            Instr::SetFlag(FlagId(0), Test::Attacked(Some(MoveTypeId(0)), None)),
            Instr::SetAttribute(AttributeId(0), Test::True),
            Instr::Add { kind: AddKind::Move, promote: vec![PieceTypeId(0)], then: None },
        ],
    });
    v.end.goals.push(Goal {
        players: vec![PlayerId(1)],
        outcome: Outcome::Win,
        test: GoalTest::Captured(PieceTypeId(0)),
    });
    let text = write_variant(&v).unwrap_or_else(|e| panic!("{e}"));
    let back = load(&text).unwrap_or_else(|d| panic!("{d:?}\n{text}"));
    assert_eq!(nameless(&v), nameless(&back), "{text}");
    assert_eq!(back.title, "A 'quoted' title");
    assert_eq!(back.board.cells[0].name, "_1a");
    assert_ne!(back.board.cells[1].name, "n");
    assert_ne!(back.board.cells[2].name, "move");
    assert_eq!(back.board.directions[1], "north_east");
    assert_ne!(back.pieces[0].name, back.pieces[1].name);
    assert_eq!(back.pieces[1].letter, 'M');
    assert_eq!(back.zones[0].name, "far_away");
    assert_eq!(back.move_types, ["to_", "_2x"]);
    // Each rename is noted at the top, with the original spelling.
    assert!(text.contains("// The piece \"King?\" is written `King_`."), "{text}");
    assert!(text.contains("// The cell \"1a\" is written `_1a`."), "{text}");
    // Valid names stay as they are.
    assert_eq!(back.pieces.len(), 2);
    assert_eq!(back.players[0].name, "white");
}

// ---------------------------------------------------------------- what cannot be written

#[test]
fn what_the_language_cannot_express_is_an_error() {
    let v = base();
    let mut seventeen = v.clone();
    for k in 2..17 {
        seventeen.players.push(Player { name: format!("p{k}"), direction_map: v.players[0].direction_map.clone() });
    }
    assert_eq!(write_error(&seventeen).what, "the players");

    let mut rotated = v.clone();
    // n -> e -> s -> w -> n: a rotation, not swapped pairs.
    let map = &mut rotated.players[1].direction_map;
    let (n, e, s, w) = (d(&v, "n"), d(&v, "e"), d(&v, "s"), d(&v, "w"));
    map[n.0 as usize] = e;
    map[e.0 as usize] = s;
    map[s.0 as usize] = w;
    map[w.0 as usize] = n;
    assert!(write_error(&rotated).why.contains("swap"));

    let mut lone_or = v.clone();
    lone_or.pieces[1].programs.push(Program { move_type: None, body: vec![Instr::Verify(Test::Or(vec![Test::True]))] });
    assert_eq!(write_error(&lone_or).what, "piece `Man`");

    let mut zone_phase = v.clone();
    zone_phase.phases.push(Phase { name: "late".into(), when: Condition::FromZone(ZoneId(0)) });
    assert_eq!(write_error(&zone_phase).what, "phase `late`");

    let mut then_move = v.clone();
    then_move.move_types = vec!["t".into()];
    then_move.pieces[1].programs.push(Program {
        move_type: None,
        body: vec![Instr::Add { kind: AddKind::Move, promote: vec![], then: Some(MoveTypeId(0)) }],
    });
    assert!(write_error(&then_move).why.contains("then"));

    // A cell on two places of a board that is no grid: `merge` cannot make it.
    let mut ring = loaded(
        r#"variant "Two cells"
board { direction up  cell a at 0 0  cell b at 0 1  link a up b }
player white
player black
piece King K { royal step up }
setup { white: K a  black: K b }
"#,
    );
    ring.board.cells[0].also_at.push((5, 5, 0));
    let err = write_error(&ring);
    assert_eq!(err.what, "the board");
    assert!(err.why.contains("merge"), "{err}");

    // A location between cells that `between` would not make.
    let mut between = v.clone();
    between.board.cells.push(Cell {
        name: "ab1".into(),
        x: 0,
        y: 0,
        layer: 0,
        covers: vec![CellId(0), CellId(5)],
        also_at: vec![],
    });
    assert_eq!(write_error(&between).what, "the board");

    // A castling whose derived cells differ from the language's.
    let mut chess = read_variant("chess.var");
    chess.castlings[0].must_be_safe.pop();
    assert_eq!(write_error(&chess).what, "castling `O-O`");
}

// ---------------------------------------------------------------- snapshots

#[test]
fn chess_text() {
    insta::assert_snapshot!(write_variant(&read_variant("chess.var")).unwrap());
}

#[test]
fn program_text() {
    insta::assert_snapshot!(write_variant(&loaded(PROGRAMS)).unwrap());
}
