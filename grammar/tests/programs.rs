//! Version 5 of the language: move and drop programs, attributes, flags, move types, hands,
//! turn orders, priorities, goals and single cells, lowered to the exact IR expected.

use varia_interpreter::ir::*;

/// A 4x4 board with a king each, a pawn type and a `last-rank` zone; `top` goes after the
/// players, `pieces` inside the piece list, `setup` into the setup block and `end` into an end
/// block.
fn text(top: &str, pieces: &str, setup: &str, end: &str) -> String {
    format!(
        r#"variant "Programs"
board {{ grid 4 x 4 }}
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone last-rank {{ white: rank 4  black: rank 1 }}
{top}
piece King K {{ royal step all }}
piece Queen Q {{ slide all }}
{pieces}
setup {{
  white: K a1
  black: K d4
  {setup}
}}
end {{ {end} }}
"#
    )
}

fn load(text: &str) -> Variant {
    varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}\n{text}"))
}

/// The programs of the piece type named `name`.
fn piece<'a>(v: &'a Variant, name: &str) -> &'a PieceType {
    v.pieces.iter().find(|p| p.name == name).expect("piece type")
}

/// The programs of a piece `Pawn P { BODY }` added to the base variant.
fn programs(body: &str) -> Vec<Program> {
    let v = load(&text("", &format!("piece Pawn P {{ {body} }}"), "", ""));
    piece(&v, "Pawn").programs.clone()
}

/// The body of the only program of a piece whose program is `move { BODY }`.
fn body(instrs: &str) -> Vec<Instr> {
    let mut p = programs(&format!("move {{ {instrs} }}"));
    assert_eq!(p.len(), 1);
    p.remove(0).body
}

fn dir(v: &Variant, name: &str) -> DirId {
    DirId(v.board.directions.iter().position(|d| d == name).expect("direction") as u8)
}

fn cell(v: &Variant, name: &str) -> CellId {
    CellId(v.board.cells.iter().position(|c| c.name == name).expect("cell") as u16)
}

// The base board's ids: compass directions in order, cells a1 b1 .. d4 row by row.
const N: DirId = DirId(0);
const NE: DirId = DirId(1);
const E: DirId = DirId(2);
const W: DirId = DirId(6);
const KING: PieceTypeId = PieceTypeId(0);
const QUEEN: PieceTypeId = PieceTypeId(1);
const PAWN: PieceTypeId = PieceTypeId(2);
const WHITE: PlayerId = PlayerId(0);
const BLACK: PlayerId = PlayerId(1);
const LAST_RANK: ZoneId = ZoneId(0);

fn c(name: &str) -> CellId {
    let b = name.as_bytes();
    CellId(((b[1] - b'1') as u16) * 4 + (b[0] - b'a') as u16)
}

fn add() -> Instr {
    Instr::Add { kind: AddKind::Move, promote: Vec::new(), then: None }
}

#[test]
fn the_base_ids_are_what_the_tests_assume() {
    let v = load(&text("", "piece Pawn P { }", "", ""));
    assert_eq!([dir(&v, "n"), dir(&v, "ne"), dir(&v, "e"), dir(&v, "w")], [N, NE, E, W]);
    assert_eq!(cell(&v, "c2"), c("c2"));
    assert_eq!(piece(&v, "Pawn").letter, 'P');
    // New in version 5: nothing declared, nothing lowered.
    assert!(v.move_types.is_empty() && v.attributes.is_empty() && v.flags.is_empty());
    assert!(v.move_priorities.is_empty() && v.turn_order.is_none() && !v.play.pass_partial);
    assert!(v.setup.hands.is_empty() && v.end.goals.is_empty());
    assert!(piece(&v, "Pawn").programs.is_empty() && piece(&v, "Pawn").drops.is_empty());
    assert_eq!(piece(&v, "Pawn").drop_supply, DropSupply::Hand, "the default supply is the hand");
}

#[test]
fn steps_jumps_and_landmarks() {
    assert_eq!(
        body("n ne c3 go from go to go mark go last-from go last-to mark mark(e) mark(a1) back"),
        vec![
            Instr::Step(N),
            Instr::Step(NE),
            Instr::Jump(c("c3")),
            Instr::Go(Landmark::From),
            Instr::Go(Landmark::To),
            Instr::Go(Landmark::Mark),
            Instr::Go(Landmark::LastFrom),
            Instr::Go(Landmark::LastTo),
            Instr::Mark(None),
            Instr::Mark(Some(Place::Dir(E))),
            Instr::Mark(Some(Place::Cell(c("a1")))),
            Instr::Back,
        ]
    );
}

#[test]
fn an_empty_program_and_several_programs_in_file_order() {
    let p = programs("move { } move { n add } drop { verify empty add }");
    assert_eq!(
        p,
        vec![Program { move_type: None, body: vec![] }, Program { move_type: None, body: vec![Instr::Step(N), add()] }]
    );
    let v = load(&text("", "piece Pawn P { drop { verify empty add } drop { } }", "", ""));
    assert_eq!(
        piece(&v, "Pawn").drops,
        vec![
            Program { move_type: None, body: vec![Instr::Verify(Test::Empty(None)), add()] },
            Program { move_type: None, body: vec![] },
        ]
    );
}

#[test]
fn control_flow() {
    assert_eq!(
        body(
            "n verify empty
             if in(last-rank) { add(Q) } else { add }
             while empty { n }
             if friend { back }
             if enemy { to } else if empty { from } else { cascade }"
        ),
        vec![
            Instr::Step(N),
            Instr::Verify(Test::Empty(None)),
            Instr::If(
                Test::InZone(LAST_RANK, None),
                vec![Instr::Add { kind: AddKind::Move, promote: vec![QUEEN], then: None }],
                vec![add()],
            ),
            Instr::While(Test::Empty(None), vec![Instr::Step(N)]),
            Instr::If(Test::Friend(None), vec![Instr::Back], vec![]),
            Instr::If(
                Test::Enemy(None),
                vec![Instr::To],
                vec![Instr::If(Test::Empty(None), vec![Instr::From], vec![Instr::Cascade])],
            ),
        ]
    );
}

#[test]
fn adds_of_every_kind() {
    let v = load(&text(
        "move-types normal jump",
        "piece Pawn P { move normal { add add-copy add(Q K) add-copy(Q, K) add-partial add-partial then jump
                                      add-copy-partial(Q) then normal add-partial(K) } }",
        "",
        "",
    ));
    assert_eq!(v.move_types, ["normal", "jump"]);
    let (normal, jump) = (MoveTypeId(0), MoveTypeId(1));
    let add = |kind, promote: Vec<PieceTypeId>, then| Instr::Add { kind, promote, then };
    assert_eq!(
        piece(&v, "Pawn").programs,
        vec![Program {
            move_type: Some(normal),
            body: vec![
                add(AddKind::Move, vec![], None),
                add(AddKind::Copy, vec![], None),
                add(AddKind::Move, vec![QUEEN, KING], None),
                add(AddKind::Copy, vec![QUEEN, KING], None),
                add(AddKind::Partial, vec![], None),
                add(AddKind::Partial, vec![], Some(jump)),
                add(AddKind::CopyPartial, vec![QUEEN], Some(normal)),
                add(AddKind::Partial, vec![KING], None),
            ],
        }]
    );
}

#[test]
fn board_changes() {
    assert_eq!(
        body(
            "capture capture(n) capture(b2) change-type(Q) change-type(King, e) change-owner change-owner(w)
             flip flip(d4) create create(owner: black) create(piece: Q, at: n) create(owner: white, piece: P, at: a4)"
        ),
        vec![
            Instr::Capture(None),
            Instr::Capture(Some(Place::Dir(N))),
            Instr::Capture(Some(Place::Cell(c("b2")))),
            Instr::ChangeType(QUEEN, None),
            Instr::ChangeType(KING, Some(Place::Dir(E))),
            Instr::ChangeOwner(None),
            Instr::ChangeOwner(Some(Place::Dir(W))),
            Instr::Flip(None),
            Instr::Flip(Some(Place::Cell(c("d4")))),
            Instr::Create { owner: None, piece: None, at: None },
            Instr::Create { owner: Some(BLACK), piece: None, at: None },
            Instr::Create { owner: None, piece: Some(QUEEN), at: Some(Place::Dir(N)) },
            Instr::Create { owner: Some(WHITE), piece: Some(PAWN), at: Some(Place::Cell(c("a4"))) },
        ]
    );
}

#[test]
fn every_test() {
    let v = load(&text(
        "move-types normal capture",
        "piece Pawn P { move normal { verify attacked-by(capture) verify defended-by(normal, n) add } }
         piece Man M {
           attribute moved
           move {
             verify true verify false verify empty verify empty(n) verify friend verify friend(e)
             verify enemy verify enemy(a1) verify piece(Q) verify piece(K, n) verify in(last-rank)
             verify in(last-rank, ne) verify on-board(n) verify on-board(b2) verify at(c3)
             verify last-from verify last-from(n) verify last-to verify last-to(w) verify marked verify marked(e)
             verify attacked verify attacked(n) verify attacked-by(capture) verify defended verify defended(e)
             verify adjacent-to-enemy verify adjacent-to-enemy(n)
             set-flag seen true verify flag(seen) verify cell-flag(seen) verify cell-flag(seen, n)
             verify attribute(moved) verify attribute(moved, e) verify holds(pieces <= 5) verify holds(not turn > 3)
           }
         }",
        "",
        "",
    ));
    let (normal, capture, seen, moved) = (MoveTypeId(0), MoveTypeId(1), FlagId(0), AttributeId(0));
    assert_eq!(
        piece(&v, "Pawn").programs[0].body,
        vec![
            Instr::Verify(Test::Attacked(Some(capture), None)),
            Instr::Verify(Test::Defended(Some(normal), Some(Place::Dir(N)))),
            add(),
        ]
    );
    let tests: Vec<Test> = piece(&v, "Man").programs[0]
        .body
        .iter()
        .filter_map(|i| match i {
            Instr::Verify(t) => Some(t.clone()),
            _ => None,
        })
        .collect();
    let n = Some(Place::Dir(N));
    assert_eq!(
        tests,
        vec![
            Test::True,
            Test::False,
            Test::Empty(None),
            Test::Empty(n),
            Test::Friend(None),
            Test::Friend(Some(Place::Dir(E))),
            Test::Enemy(None),
            Test::Enemy(Some(Place::Cell(c("a1")))),
            Test::Piece(QUEEN, None),
            Test::Piece(KING, n),
            Test::InZone(LAST_RANK, None),
            Test::InZone(LAST_RANK, Some(Place::Dir(NE))),
            Test::OnBoard(Place::Dir(N)),
            Test::OnBoard(Place::Cell(c("b2"))),
            Test::At(c("c3")),
            Test::LastFrom(None),
            Test::LastFrom(n),
            Test::LastTo(None),
            Test::LastTo(Some(Place::Dir(W))),
            Test::Marked(None),
            Test::Marked(Some(Place::Dir(E))),
            Test::Attacked(None, None),
            Test::Attacked(None, n),
            Test::Attacked(Some(capture), None),
            Test::Defended(None, None),
            Test::Defended(None, Some(Place::Dir(E))),
            Test::AdjacentToEnemy(None),
            Test::AdjacentToEnemy(n),
            Test::Flag(seen),
            Test::CellFlag(seen, None),
            Test::CellFlag(seen, n),
            Test::Attribute(moved, None),
            Test::Attribute(moved, Some(Place::Dir(E))),
            Test::Holds(Condition::PieceCount(Compare::LessEq, 5)),
            Test::Holds(Condition::Not(Box::new(Condition::TurnNumber(Compare::Greater, 3)))),
        ]
    );
    assert_eq!(v.flags, ["seen"]);
    assert_eq!(v.attributes, ["moved"]);
}

#[test]
fn not_and_or_precedence_and_flattening() {
    let t = |s: &str| match body(&format!("verify {s}")).remove(0) {
        Instr::Verify(t) => t,
        other => panic!("{other:?}"),
    };
    let (e, f, en) = (Test::Empty(None), Test::Friend(None), Test::Enemy(None));
    assert_eq!(t("empty and friend and enemy"), Test::And(vec![e.clone(), f.clone(), en.clone()]));
    assert_eq!(t("empty or friend or enemy"), Test::Or(vec![e.clone(), f.clone(), en.clone()]));
    // not > and > or
    assert_eq!(
        t("not empty and friend or enemy"),
        Test::Or(vec![Test::And(vec![Test::Not(Box::new(e.clone())), f.clone()]), en.clone()])
    );
    assert_eq!(
        t("empty or friend and not not enemy"),
        Test::Or(vec![e.clone(), Test::And(vec![f.clone(), Test::Not(Box::new(Test::Not(Box::new(en.clone()))))])])
    );
    assert_eq!(t("not (empty or friend)"), Test::Not(Box::new(Test::Or(vec![e.clone(), f.clone()]))));
    assert_eq!(t("(empty)"), e);
}

#[test]
fn flags_attributes_and_set_instructions() {
    let v = load(&text(
        "flags hit  attributes royal-ish never-moved",
        "piece Pawn P {
           attribute never-moved set
           attribute promoted
           attribute royal-ish set
           move {
             set-flag hit enemy
             set-flag jumped not empty
             set-cell-flag visited true
             set-cell-flag(n) visited flag(hit)
             set-attribute never-moved false
             set-attribute charged attribute(promoted)
             add
           }
         }",
        "",
        "",
    ));
    assert_eq!(v.flags, ["hit", "jumped", "visited"]);
    assert_eq!(v.attributes, ["royal-ish", "never-moved", "promoted", "charged"]);
    let pawn = piece(&v, "Pawn");
    // Only the attributes declared `set`, in the piece's order.
    assert_eq!(pawn.attributes, [AttributeId(1), AttributeId(0)]);
    assert_eq!(
        pawn.programs[0].body,
        vec![
            Instr::SetFlag(FlagId(0), Test::Enemy(None)),
            Instr::SetFlag(FlagId(1), Test::Not(Box::new(Test::Empty(None)))),
            Instr::SetCellFlag(FlagId(2), Test::True, None),
            Instr::SetCellFlag(FlagId(2), Test::Flag(FlagId(0)), Some(Place::Dir(N))),
            Instr::SetAttribute(AttributeId(1), Test::False),
            Instr::SetAttribute(AttributeId(3), Test::Attribute(AttributeId(2), None)),
            add(),
        ]
    );
}

#[test]
fn move_types_in_order_of_first_appearance() {
    let v = load(&text(
        "move-types slow
         priorities capture slow
         turn-order { white:drop black:drop repeat white black }",
        "piece Pawn P {
           move { verify attacked-by(quick) add-partial then quick }
           move capture { add }
           move quick { add }
           drop drop { verify empty add }
         }",
        "",
        "",
    ));
    // `slow` is declared; then `capture` (priorities), `drop` (turn order), `quick` (a test).
    assert_eq!(v.move_types, ["slow", "capture", "drop", "quick"]);
    assert_eq!(v.move_priorities, [MoveTypeId(1), MoveTypeId(0)]);
    let pawn = piece(&v, "Pawn");
    assert_eq!(
        pawn.programs.iter().map(|p| p.move_type).collect::<Vec<_>>(),
        [None, Some(MoveTypeId(1)), Some(MoveTypeId(3))]
    );
    assert_eq!(pawn.drops[0].move_type, Some(MoveTypeId(2)));
    assert_eq!(
        pawn.programs[0].body,
        vec![
            Instr::Verify(Test::Attacked(Some(MoveTypeId(3)), None)),
            Instr::Add { kind: AddKind::Partial, promote: vec![], then: Some(MoveTypeId(3)) },
        ]
    );
}

#[test]
fn turn_orders_and_pass_partial() {
    let order = |s: &str| load(&text(s, "", "", "")).turn_order;
    let entry = |player, t: Option<u8>| TurnEntry { player, move_type: t.map(MoveTypeId) };
    assert_eq!(
        order("move-types drop\nturn-order { white:drop black:drop repeat white black }"),
        Some(TurnOrder {
            opening: vec![entry(WHITE, Some(0)), entry(BLACK, Some(0))],
            cycle: vec![entry(WHITE, None), entry(BLACK, None)],
        })
    );
    // Without `repeat`, every entry is the cycle.
    assert_eq!(
        order("turn-order { white black black white }"),
        Some(TurnOrder {
            opening: vec![],
            cycle: vec![entry(WHITE, None), entry(BLACK, None), entry(BLACK, None), entry(WHITE, None)],
        })
    );
    assert_eq!(
        order("turn-order { white repeat black white }"),
        Some(TurnOrder { opening: vec![entry(WHITE, None)], cycle: vec![entry(BLACK, None), entry(WHITE, None)] })
    );
    assert!(load(&text("pass-partial", "", "", "")).play.pass_partial);
}

#[test]
fn drop_supply_and_hands() {
    let v = load(&text(
        "",
        "piece Pawn P { drop-supply unlimited drop { verify empty add } }
         piece Knight N { drop-supply hand drop { verify empty add } }
         piece Silver S { drop { add } }",
        "hand white: P 3, N 1\n  hand black: Knight 2",
        "",
    ));
    assert_eq!(piece(&v, "Pawn").drop_supply, DropSupply::Unlimited);
    assert_eq!(piece(&v, "Knight").drop_supply, DropSupply::Hand);
    assert_eq!(piece(&v, "Silver").drop_supply, DropSupply::Hand);
    let (knight, pawn) = (PieceTypeId(3), PAWN);
    assert_eq!(v.setup.hands, vec![(WHITE, pawn, 3), (WHITE, knight, 1), (BLACK, knight, 2)]);
    // The placements are still there.
    assert_eq!(v.setup.placements, vec![(c("a1"), vec![(WHITE, KING)]), (c("d4"), vec![(BLACK, KING)])]);
}

#[test]
fn goals() {
    let v = load(&text(
        "zone centre { b2 c2 b3 c3 }",
        "",
        "",
        "checkmate loss
         goal white black loss: pieces-remaining 1
         goal white win: pieces-remaining 0 Q or total-pieces 2 K
         goal black draw: captured Q and not stalemated
         goal white black win: repetition 3
         goal white win: config(own Q, opponent K any Queen at centre d4)
         goal black loss: not (stalemated or captured K) and total-pieces 5",
    ));
    assert_eq!(v.end.checkmate, Outcome::Loss);
    assert_eq!(
        v.end.goals,
        vec![
            Goal { players: vec![WHITE, BLACK], outcome: Outcome::Loss, test: GoalTest::PiecesRemaining(1, None) },
            Goal {
                players: vec![WHITE],
                outcome: Outcome::Win,
                test: GoalTest::Or(vec![
                    GoalTest::PiecesRemaining(0, Some(QUEEN)),
                    GoalTest::TotalPieces(2, Some(KING))
                ]),
            },
            Goal {
                players: vec![BLACK],
                outcome: Outcome::Draw,
                test: GoalTest::And(vec![GoalTest::Captured(QUEEN), GoalTest::Not(Box::new(GoalTest::Stalemated))]),
            },
            Goal { players: vec![WHITE, BLACK], outcome: Outcome::Win, test: GoalTest::Repetition(3) },
            Goal {
                players: vec![WHITE],
                outcome: Outcome::Win,
                test: GoalTest::Config(
                    vec![Occupier::Own(QUEEN), Occupier::Opponent(KING), Occupier::AnyOwner(QUEEN)],
                    vec![ConfigGroup::Zone(ZoneId(1)), ConfigGroup::Cell(c("d4"))],
                ),
            },
            Goal {
                players: vec![BLACK],
                outcome: Outcome::Loss,
                test: GoalTest::And(vec![
                    GoalTest::Not(Box::new(GoalTest::Or(vec![GoalTest::Stalemated, GoalTest::Captured(KING)]))),
                    GoalTest::TotalPieces(5, None),
                ]),
            },
        ]
    );
}

#[test]
fn single_cells_and_unlink() {
    let v = load(
        r#"variant "Cells"
board {
  grid 2 x 1
  cell hub at 5 5
  cell far at -3 2 layer 1
  direction out in
  link a1 out hub
  link hub in a1
  link hub in b1
  unlink a1 e
}
player white
player black
piece King K { royal move { out verify not friend add } }
setup { white: K a1  black: K hub }
"#,
    );
    let names: Vec<&str> = v.board.cells.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names, ["a1", "b1", "hub", "far"]);
    let far = &v.board.cells[3];
    assert_eq!((far.x, far.y, far.layer), (-3, 2, 1));
    let hub = &v.board.cells[2];
    assert_eq!((hub.x, hub.y, hub.layer), (5, 5, 0));
    let (out, inn, e, w) = (dir(&v, "out"), dir(&v, "in"), dir(&v, "e"), dir(&v, "w"));
    let links: Vec<(u16, DirId, u16)> = v.board.links.iter().map(|l| (l.from.0, l.dir, l.to.0)).collect();
    // The grid's own links but a1 e (unlinked); the single cells only by `link`.
    assert_eq!(links, [(1, w, 0), (0, out, 2), (2, inn, 0), (2, inn, 1)]);
    assert!(!links.iter().any(|l| l.1 == e));
    assert_eq!(v.pieces[0].programs[0].body[0], Instr::Step(out));
}

#[test]
fn a_direction_wins_over_a_cell_of_the_same_name() {
    let v = load(
        r#"variant "Names"
board { cell x at 0 0  cell y at 1 0  direction y  link x y y }
player white
player black
piece King K { royal move { y add x add mark(y) } }
setup { white: K x  black: K y }
"#,
    );
    let y = dir(&v, "y");
    assert_eq!(
        v.pieces[0].programs[0].body,
        vec![Instr::Step(y), add(), Instr::Jump(cell(&v, "x")), add(), Instr::Mark(Some(Place::Dir(y)))]
    );
}

#[test]
fn the_example_of_the_language_page() {
    let v = load(&text(
        "zone third-rank { white: rank 3  black: rank 2 }",
        "piece Pawn P {
           move {
             n verify empty
             if in(last-rank) { add(Q) } else { add }
           }
           move { n verify empty verify in(third-rank) n verify empty add }
           move { ne verify enemy add }
         }
         piece Man M {
           attribute never-moved set
           move { n verify not friend set-attribute never-moved false add }
         }",
        "",
        "",
    ));
    let pawn = piece(&v, "Pawn");
    assert_eq!(pawn.programs.len(), 3);
    assert_eq!(
        pawn.programs[1].body,
        vec![
            Instr::Step(N),
            Instr::Verify(Test::Empty(None)),
            Instr::Verify(Test::InZone(ZoneId(1), None)),
            Instr::Step(N),
            Instr::Verify(Test::Empty(None)),
            add(),
        ]
    );
    assert_eq!(pawn.programs[2].body, vec![Instr::Step(NE), Instr::Verify(Test::Enemy(None)), add()]);
    let man = piece(&v, "Man");
    assert_eq!(v.attributes, ["never-moved"]);
    assert_eq!(man.attributes, [AttributeId(0)]);
    assert_eq!(
        man.programs[0].body,
        vec![
            Instr::Step(N),
            Instr::Verify(Test::Not(Box::new(Test::Friend(None)))),
            Instr::SetAttribute(AttributeId(0), Test::False),
            add(),
        ]
    );
}

#[test]
fn programs_sit_beside_the_older_move_powers() {
    let v = load(&text("", "piece Pawn P { step n move-only move { ne verify enemy add } value 100 }", "", ""));
    let pawn = piece(&v, "Pawn");
    assert_eq!(pawn.moves.len(), 1);
    assert_eq!(pawn.value, Some(100));
    assert_eq!(pawn.programs.len(), 1);
}

#[test]
fn every_bundled_variant_still_loads() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../variants");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).expect("variants") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "var") {
            let text = std::fs::read_to_string(&path).expect("read");
            let v = varia_grammar::load(&text).unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            // A piece has programs where the file writes one (`move {`, `move TYPE {`) or a
            // Betza string makes one (a rider of leaps, a lame leap).
            let programs = v.pieces.iter().any(|p| !p.programs.is_empty());
            let written = text.lines().any(|l| l.trim_start().starts_with("move ") && l.contains('{'));
            let expected = written || text.split("betza \"").skip(1).any(betza_makes_programs);
            assert_eq!(programs, expected, "{}", path.display());
            // Every piece's supply is the hand unless the file says it is endless (ataxx).
            let endless = text.contains("drop-supply unlimited");
            assert!(v.pieces.iter().all(|p| p.drop_supply == DropSupply::Hand || endless), "{}", path.display());
            assert_eq!(v.pieces.iter().any(|p| p.drop_supply != DropSupply::Hand), endless, "{}", path.display());
            n += 1;
        }
    }
    assert!(n >= 10);
}

/// Whether the Betza string at the start of `rest` (up to its closing quote) makes move
/// programs: a rider of leaps or a lame leap.
fn betza_makes_programs(rest: &str) -> bool {
    use varia_grammar::betza::{moves, Kind};
    let text = rest.split('"').next().unwrap_or("");
    moves(text).is_ok_and(|ms| {
        ms.iter().any(|m| {
            let unit = m.dr.abs() <= 1 && m.df.abs() <= 1;
            !unit && matches!(m.kind, Kind::Ride(_) | Kind::Leap { lame: true })
        })
    })
}
