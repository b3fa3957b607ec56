//! The one compiled form of a piece's movement: declarative powers and the move programs that have their shape both become atoms.
//!
//! An atom is a ride, a leap or a hop with a mode (move, capture or both), conditions,
//! promotion and move type. `Rules::new` turns every atom into rays of the move tables and
//! reverse attack probes, whatever spelling it came from: `slide orthogonal` and a Zillions
//! rook's `n (while empty? add n) (verify not-friend?) add` give the same tables. Programs of
//! any other shape stay programs ([`crate::program`]).

use crate::ir::{
    AddKind, Condition, DirId, Geometry, Instr, MoveMode, MoveRule, MoveTypeId, PieceType, Program, Promotion, Test,
};

/// Where an atom goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shape {
    /// Repeat the path through empty cells (a slide is a path of one step), at most `max`
    /// times; each path end is a target. The cells inside a path of several steps are jumped.
    Ride { path: Vec<DirId>, max: Option<u8> },
    /// Jump to the end of the path. Bit `i` of `lame` set: the cell after step `i + 1` must
    /// be empty (a lame leap, as a Xiangqi horse).
    Leap { path: Vec<DirId>, lame: u16 },
    /// Pass empty cells to the first occupied one (the screen), then ride beyond it, at most
    /// `max` cells past the screen.
    Hop { dir: DirId, max: Option<u8> },
}

/// One compiled movement pattern of a piece type.
#[derive(Clone, Debug)]
pub(crate) struct Atom {
    pub(crate) shape: Shape,
    pub(crate) mode: MoveMode,
    /// Conditions of the language: `from` zones are decided when the tables are built, the
    /// rest during play.
    pub(crate) conditions: Vec<Condition>,
    /// Tests on the board's geometry alone (zones, named cells, edges), decided when the
    /// tables are built: `(steps taken, test)`, tested at the cell reached after that many
    /// steps of the path.
    pub(crate) cell_tests: Vec<(u8, Test)>,
    pub(crate) marks_ep: bool,
    pub(crate) captures_ep: bool,
    pub(crate) stop_between: bool,
    /// Promotions on landing, the first that reaches the moving player applying (none: the
    /// atom's moves never promote).
    pub(crate) promotion: Vec<Promotion>,
    pub(crate) move_type: Option<MoveTypeId>,
}

/// The atoms of a declarative power: one per direction or path, with the piece's promotion.
pub(crate) fn of_power(piece: &PieceType, rule: &MoveRule) -> Vec<Atom> {
    let atom = |shape| Atom {
        shape,
        mode: rule.mode,
        conditions: rule.conditions.clone(),
        cell_tests: Vec::new(),
        marks_ep: rule.marks_en_passant,
        captures_ep: rule.captures_en_passant,
        stop_between: rule.stop_between,
        promotion: piece.promotions().cloned().collect(),
        move_type: None,
    };
    match &rule.geometry {
        Geometry::Slide { dirs, max } => dirs.iter().map(|d| atom(Shape::Ride { path: vec![*d], max: *max })).collect(),
        Geometry::Leap { paths } => paths.iter().map(|p| atom(Shape::Leap { path: p.clone(), lame: 0 })).collect(),
        Geometry::Hop { dirs, max } => dirs.iter().map(|d| atom(Shape::Hop { dir: *d, max: *max })).collect(),
    }
}

/// Whether a test depends on the board's geometry alone (never on what stands where), so that
/// it can be decided for each start cell when the tables are built.
pub(crate) fn is_geometric(t: &Test) -> bool {
    match t {
        Test::True | Test::False | Test::InZone(..) | Test::OnBoard(_) | Test::At(_) => true,
        Test::Holds(c) => is_from_zone(c),
        Test::Not(inner) => is_geometric(inner),
        Test::And(all) | Test::Or(all) => all.iter().all(is_geometric),
        _ => false,
    }
}

fn is_from_zone(c: &Condition) -> bool {
    match c {
        Condition::FromZone(_) => true,
        Condition::Not(inner) => is_from_zone(inner),
        _ => false,
    }
}

/// The atom a move program is written as, if it has the shape of one: a leap (steps, then a
/// test of the target and `add`), a ride (`DIR while empty { add DIR }`, then optionally a
/// capture) or a lame leap (steps with `verify empty` between them), with geometric tests
/// anywhere on the path and an `add` that may promote in a zone. The atom gives exactly the
/// program's moves on boards where a cell holds one piece (the caller does not ask on boards
/// with stacks or locations between cells).
pub(crate) fn recognise(program: &Program) -> Option<Atom> {
    let body = &program.body;
    let mut i = 0;
    let mut cell_tests = Vec::new();
    let mut path: Vec<DirId> = Vec::new();
    let mut lame = 0u16;
    // Steps, with geometric tests and `verify empty` between them.
    while let Some(instr) = body.get(i) {
        match instr {
            Instr::Step(d) => {
                if path.len() >= 16 {
                    return None;
                }
                path.push(*d);
            }
            // The piece itself stands on its start cell.
            Instr::Verify(Test::Friend(None)) if path.is_empty() => {}
            Instr::Verify(t) if is_geometric(t) => cell_tests.push((path.len() as u8, t.clone())),
            Instr::Verify(Test::Empty(None)) if !path.is_empty() => {
                // Provisionally lame; the last step's `verify empty` is the target's test.
                lame |= 1 << (path.len() - 1);
            }
            _ => break,
        }
        i += 1;
    }
    if path.is_empty() {
        return None;
    }
    let rest = &body[i..];
    let atom = |shape, mode, cell_tests, promotion| Atom {
        shape,
        mode,
        conditions: Vec::new(),
        cell_tests,
        marks_ep: false,
        captures_ep: false,
        stop_between: false,
        promotion: Option::into_iter(promotion).collect(),
        move_type: program.move_type,
    };
    // A ride: `while empty { ADD PATH }`, then the end of the program or a capture.
    if let Some(Instr::While(Test::Empty(None), inner)) = rest.first() {
        if lame != 0 || cell_tests.iter().any(|(k, _)| *k != 0) {
            return None;
        }
        let (promotion, used) = add_of(inner)?;
        let steps: Vec<DirId> = inner[used..]
            .iter()
            .map(|x| match x {
                Instr::Step(d) => Some(*d),
                _ => None,
            })
            .collect::<Option<_>>()?;
        if steps != path {
            return None;
        }
        let shape = Shape::Ride { path, max: None };
        let tail = &rest[1..];
        if tail.is_empty() {
            return Some(atom(shape, MoveMode::MoveOnly, cell_tests, promotion));
        }
        let [Instr::Verify(t), add @ ..] = tail else { return None };
        if !matches!(t, Test::Enemy(None)) && *t != Test::Not(Box::new(Test::Friend(None))) {
            return None;
        }
        let (promo2, used) = add_of(add)?;
        if used != add.len() || promo2 != promotion {
            return None;
        }
        return Some(atom(shape, MoveMode::MoveOrCapture, cell_tests, promotion));
    }
    // A leap: tests of the target (one on its contents), then `add`.
    let n = path.len() as u8;
    let mut mode = None;
    let mut k = 0;
    // The last step's `verify empty` tests the target, not a cell passed over.
    if lame & (1 << (n - 1)) != 0 {
        lame &= !(1 << (n - 1));
        mode = Some(MoveMode::MoveOnly);
    }
    while let Some(Instr::Verify(t)) = rest.get(k) {
        if is_geometric(t) {
            cell_tests.push((n, t.clone()));
        } else {
            let m = match t {
                Test::Empty(None) => MoveMode::MoveOnly,
                Test::Enemy(None) => MoveMode::CaptureOnly,
                Test::Not(inner) if **inner == Test::Friend(None) => MoveMode::MoveOrCapture,
                _ => return None,
            };
            if mode.replace(m).is_some_and(|old| old != m) {
                return None;
            }
        }
        k += 1;
    }
    // Without a test of the target, `add` would also take a friend: no atom does that.
    let mode = mode?;
    let (promotion, used) = add_of(&rest[k..])?;
    if k + used != rest.len() {
        return None;
    }
    Some(atom(Shape::Leap { path, lame }, mode, cell_tests, promotion))
}

/// An `add` that moves the piece, possibly promoting in a zone: `add`,
/// `if in(Z) { add(L) } else { add }` (promotion compulsory there) or
/// `if in(Z) { add add(L) } else { add }` (optional). Returns the promotion and how many
/// instructions it took.
fn add_of(body: &[Instr]) -> Option<(Option<Promotion>, usize)> {
    let plain = |x: &Instr| matches!(x, Instr::Add { kind: AddKind::Move, promote, then: None } if promote.is_empty());
    let promoting = |x: &Instr| match x {
        Instr::Add { kind: AddKind::Move, promote, then: None } if !promote.is_empty() => Some(promote.clone()),
        _ => None,
    };
    match body.first()? {
        x if plain(x) => Some((None, 1)),
        Instr::If(Test::InZone(zone, None), yes, no) if no.len() == 1 && plain(&no[0]) => {
            let promotion = match yes.as_slice() {
                [a] => Promotion {
                    zone: *zone,
                    from_zone: None,
                    forced_zone: None,
                    choices: promoting(a)?,
                    mandatory: true,
                    captured_only: false,
                    setup_only: false,
                },
                [a, b] if plain(a) => Promotion {
                    zone: *zone,
                    from_zone: None,
                    forced_zone: None,
                    choices: promoting(b)?,
                    mandatory: false,
                    captured_only: false,
                    setup_only: false,
                },
                _ => return None,
            };
            Some((Some(promotion), 1))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::ZoneId;

    fn add() -> Instr {
        Instr::Add { kind: AddKind::Move, promote: vec![], then: None }
    }

    fn prog(body: Vec<Instr>) -> Program {
        Program { move_type: None, body }
    }

    fn not_friend() -> Test {
        Test::Not(Box::new(Test::Friend(None)))
    }

    #[test]
    fn a_zillions_rook_is_a_ride() {
        let d = DirId(0);
        let p = prog(vec![
            Instr::Step(d),
            Instr::While(Test::Empty(None), vec![add(), Instr::Step(d)]),
            Instr::Verify(not_friend()),
            add(),
        ]);
        let a = recognise(&p).expect("a ride");
        assert_eq!(a.shape, Shape::Ride { path: vec![d], max: None });
        assert_eq!(a.mode, MoveMode::MoveOrCapture);
    }

    #[test]
    fn a_knight_is_a_leap_and_a_horse_a_lame_leap() {
        let (n, e) = (DirId(0), DirId(1));
        let knight = prog(vec![Instr::Step(n), Instr::Step(n), Instr::Step(e), Instr::Verify(not_friend()), add()]);
        assert_eq!(recognise(&knight).unwrap().shape, Shape::Leap { path: vec![n, n, e], lame: 0 });
        let horse = prog(vec![
            Instr::Step(n),
            Instr::Verify(Test::Empty(None)),
            Instr::Step(e),
            Instr::Verify(not_friend()),
            add(),
        ]);
        assert_eq!(recognise(&horse).unwrap().shape, Shape::Leap { path: vec![n, e], lame: 1 });
    }

    #[test]
    fn a_pawn_step_with_promotion_and_a_double_step_with_a_zone_test() {
        let n = DirId(0);
        let z = ZoneId(1);
        let step = prog(vec![
            Instr::Step(n),
            Instr::Verify(Test::Empty(None)),
            Instr::If(
                Test::InZone(ZoneId(0), None),
                vec![Instr::Add { kind: AddKind::Move, promote: vec![crate::ir::PieceTypeId(4)], then: None }],
                vec![add()],
            ),
        ]);
        let a = recognise(&step).unwrap();
        assert_eq!(a.mode, MoveMode::MoveOnly);
        assert!(a.promotion.first().is_some_and(|p| p.mandatory));
        let double = prog(vec![
            Instr::Step(n),
            Instr::Verify(Test::Empty(None)),
            Instr::Verify(Test::InZone(z, None)),
            Instr::Step(n),
            Instr::Verify(Test::Empty(None)),
            add(),
        ]);
        let a = recognise(&double).unwrap();
        assert_eq!(a.shape, Shape::Leap { path: vec![n, n], lame: 1 });
        assert_eq!(a.mode, MoveMode::MoveOnly);
        assert_eq!(a.cell_tests, vec![(1, Test::InZone(z, None))]);
    }

    #[test]
    fn programs_of_other_shapes_stay_programs() {
        let n = DirId(0);
        // No test of the target: `add` would take a friend.
        assert!(recognise(&prog(vec![Instr::Step(n), add()])).is_none());
        // A capture elsewhere.
        assert!(recognise(&prog(vec![Instr::Step(n), Instr::Capture(None), Instr::Step(n), add()])).is_none());
        // A test of history.
        assert!(recognise(&prog(vec![Instr::Step(n), Instr::Verify(Test::LastTo(None)), add()])).is_none());
    }
}
