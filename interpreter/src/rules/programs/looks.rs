//! Looks at a neighbour folded into tests of it: `mark STEP tests back` becomes the tests with the neighbour as their place (the `NeighbourTests` path).
//!
//! A program that guards a move by what stands around a cell (`if on-board(n) { mark n if
//! enemy { verify not piece(H) } back }`, once per direction) steps there, tests and steps
//! back: six instructions per neighbour. The tests name the cell by its direction instead, so a
//! run makes none of the steps (the `if on-board` keeps it from a step off the board), and the
//! `mark` goes where no later instruction reads it. A look without that `if` stays as written.

use crate::ir::{DirId, Place, Test};
use crate::rules::programs::code::{Code, Op};

impl Code {
    /// Folds every look at a neighbour (see the module): the same runs, with fewer steps.
    pub(crate) fn fold_looks(&mut self) {
        let live = mark_live(self);
        let looks: Vec<Look> = (0..self.ops.len()).filter_map(|m| look_at(self, m, &live)).collect();
        if looks.is_empty() {
            return;
        }
        // The instructions kept, and the new place of each old one (a removed one's is the
        // place of the next one kept, where jumps to it now land).
        let mut ops = Vec::with_capacity(self.ops.len());
        let mut new_at = vec![0u32; self.ops.len() + 1];
        let mut looks = looks.into_iter().peekable();
        let mut pc = 0;
        while pc < self.ops.len() {
            match looks.next_if(|l| l.mark == pc) {
                Some(l) => {
                    let first = ops.len() as u32;
                    if l.keep_mark {
                        ops.push(Op::Mark(None));
                    }
                    new_at[pc] = first;
                    new_at[pc + 1] = first;
                    for (k, there) in (pc + 2..l.back).zip(&l.tests) {
                        new_at[k] = ops.len() as u32;
                        let mut op = self.ops[k].clone();
                        if let (Op::Verify(t) | Op::IfNot(t, _), Some(there)) = (&mut op, there) {
                            *t = self.test(there);
                        }
                        ops.push(op);
                    }
                    new_at[l.back] = ops.len() as u32;
                    pc = l.back + 1;
                }
                None => {
                    new_at[pc] = ops.len() as u32;
                    ops.push(self.ops[pc].clone());
                    pc += 1;
                }
            }
        }
        new_at[self.ops.len()] = ops.len() as u32;
        for op in &mut ops {
            match op {
                Op::IfNot(_, t) | Op::Goto(t) | Op::While { exit: t, .. } => *t = new_at[*t as usize],
                _ => {}
            }
        }
        self.ops = ops;
        self.fuse_looks();
    }

    /// Folded looks that each end the run where a test holds at one neighbour (`if on-board(D)
    /// { if A(D) { verify B(D) } }`: fail where A and not B hold there), one after another with
    /// the same test, become one [`Op::Around`]: a run reads the neighbours in one instruction.
    fn fuse_looks(&mut self) {
        let mut groups: Vec<(usize, usize, Vec<DirId>, Test)> = Vec::new();
        let mut pc = 0;
        while pc < self.ops.len() {
            let Some((end, dir, when)) = forbid_at(self, pc) else {
                pc += 1;
                continue;
            };
            match groups.last_mut() {
                Some((_, last, dirs, same)) if *last == pc && *same == when => {
                    *last = end;
                    dirs.push(dir);
                }
                _ => groups.push((pc, end, vec![dir], when)),
            }
            pc = end;
        }
        // A group another instruction jumps into the middle of stays as it is.
        let jumps_into = |(start, end): (usize, usize)| {
            self.ops.iter().enumerate().any(|(k, op)| {
                let target = match op {
                    Op::IfNot(_, t) | Op::Goto(t) | Op::While { exit: t, .. } => *t as usize,
                    _ => return false,
                };
                !(start..end).contains(&k) && target > start && target < end
            })
        };
        groups.retain(|(start, end, ..)| !jumps_into((*start, *end)));
        if groups.is_empty() {
            return;
        }
        let mut ops = Vec::with_capacity(self.ops.len());
        let mut new_at = vec![0u32; self.ops.len() + 1];
        let mut groups = groups.into_iter().peekable();
        let mut pc = 0;
        while pc < self.ops.len() {
            new_at[pc] = ops.len() as u32;
            match groups.next_if(|g| g.0 == pc) {
                Some((_, end, dirs, when)) => {
                    let piece = needs_piece(&when);
                    let when = self.test(&when);
                    self.dir_sets.push(dirs);
                    ops.push(Op::Around { dirs: (self.dir_sets.len() - 1) as u16, when, piece });
                    pc = end;
                }
                None => {
                    ops.push(self.ops[pc].clone());
                    pc += 1;
                }
            }
        }
        new_at[self.ops.len()] = ops.len() as u32;
        for op in &mut ops {
            match op {
                Op::IfNot(_, t) | Op::Goto(t) | Op::While { exit: t, .. } => *t = new_at[*t as usize],
                _ => {}
            }
        }
        self.ops = ops;
    }
}

/// A folded look at `pc` that fails the run where a test holds at one neighbour: where it
/// ends, its direction, and that test read at the current cell. Either `IfNot(on-board(D), E)
/// Verify(B(D))` with E next (fail where not B), or `IfNot(on-board(D), E) IfNot(A(D), E)
/// Verify(B(D))` with E next (fail where A and not B).
fn forbid_at(code: &Code, pc: usize) -> Option<(usize, DirId, Test)> {
    let ops = &code.ops;
    let Op::IfNot(t, end) = ops.get(pc)? else { return None };
    let Test::OnBoard(Place::Dir(dir)) = code.tests[*t as usize] else { return None };
    let end = *end as usize;
    let not = |t: Test| match t {
        Test::Not(inner) => *inner,
        other => Test::Not(Box::new(other)),
    };
    match (ops.get(pc + 1)?, ops.get(pc + 2)) {
        (Op::Verify(b), _) if end == pc + 2 => Some((end, dir, not(here_of(&code.tests[*b as usize], dir)?))),
        (Op::IfNot(a, e), Some(Op::Verify(b))) if end == pc + 3 && *e as usize == end => {
            let a = here_of(&code.tests[*a as usize], dir)?;
            let b = not(here_of(&code.tests[*b as usize], dir)?);
            Some((end, dir, Test::And(vec![a, b])))
        }
        _ => None,
    }
}

/// Whether test `t` can hold only where the current cell holds a piece (as a run reads it:
/// not a hole, nor the moving piece covering the cell from between cells).
fn needs_piece(t: &Test) -> bool {
    match t {
        Test::Friend(None) | Test::Enemy(None) | Test::Piece(_, None) => true,
        Test::And(all) => all.iter().any(needs_piece),
        Test::Or(any) => !any.is_empty() && any.iter().all(needs_piece),
        _ => false,
    }
}

/// The test `t` of the neighbour along `dir` read at the current cell instead (the inverse of
/// [`at_neighbour`]; `None` where it reads another place by direction or the current cell).
fn here_of(t: &Test, dir: DirId) -> Option<Test> {
    with_places(t, &|p| match p {
        Some(Place::Dir(d)) if *d == dir => Some(None),
        Some(Place::Cell(c)) => Some(Some(Place::Cell(*c))),
        _ => None,
    })
}

/// A look at a neighbour found in the code.
struct Look {
    /// Where its `mark` stands; its step follows, then the tests, then `back` at `back`.
    mark: usize,
    back: usize,
    /// A later instruction may read the mark it sets.
    keep_mark: bool,
    /// Per instruction between the step and `back`: its test read at the neighbour.
    tests: Vec<Option<Test>>,
}

/// The look whose `mark` stands at `m`, if one does and it can be folded: an `if on-board(DIR)`
/// skips it whole, only tests and jumps inside it between the step and `back`, each test
/// readable at the neighbour, and no jump from elsewhere into it.
fn look_at(code: &Code, m: usize, live: &[bool]) -> Option<Look> {
    let ops = &code.ops;
    let (Op::Mark(None), Some(Op::Step(dir))) = (&ops[m], ops.get(m + 1)) else { return None };
    let dir = *dir;
    let mut back = m + 2;
    let mut tests = Vec::new();
    loop {
        match ops.get(back)? {
            Op::Back => break,
            Op::Verify(t) | Op::IfNot(t, _) => tests.push(Some(at_neighbour(&code.tests[*t as usize], dir)?)),
            Op::Goto(_) => tests.push(None),
            _ => return None,
        }
        back += 1;
    }
    let body = m + 2..back;
    for k in body.clone() {
        if let Op::IfNot(_, t) | Op::Goto(t) = &ops[k] {
            if !(m + 2..=back).contains(&(*t as usize)) {
                return None;
            }
        }
    }
    let jumps_from_outside = |into: std::ops::RangeInclusive<usize>| {
        ops.iter().enumerate().any(|(k, op)| {
            let target = match op {
                Op::IfNot(_, t) | Op::Goto(t) | Op::While { exit: t, .. } => *t as usize,
                _ => return false,
            };
            !body.contains(&k) && into.contains(&target)
        })
    };
    if jumps_from_outside(m + 1..=back) {
        return None;
    }
    let guarded = m > 0
        && matches!(&ops[m - 1], Op::IfNot(t, end) if *end as usize == back + 1
            && code.tests[*t as usize] == Test::OnBoard(Place::Dir(dir)))
        && !jumps_from_outside(m..=m);
    // Unguarded, the look would trade its step and back for a verify of the edge, and its
    // tests read in line for tests of a place, which runs read the slow way: measured, a
    // run costs more (platform-chess's `mark down verify not empty back`).
    if !guarded {
        return None;
    }
    Some(Look { mark: m, back, keep_mark: live[back + 1], tests })
}

/// The test `t` of the current cell read one step along `dir` instead (`None` where it cannot
/// be: it names a place by direction, or reads the current cell itself or the mark).
fn at_neighbour(t: &Test, dir: DirId) -> Option<Test> {
    with_places(t, &|p| match p {
        None => Some(Some(Place::Dir(dir))),
        Some(Place::Cell(c)) => Some(Some(Place::Cell(*c))),
        Some(Place::Dir(_)) => None,
    })
}

/// The test `t` with each place it reads rewritten by `place` (`None` where one cannot be, or
/// where the test reads a place no rewrite covers: a direction's board edge, the mark).
fn with_places(t: &Test, place: &dyn Fn(&Option<Place>) -> Option<Option<Place>>) -> Option<Test> {
    Some(match t {
        Test::True | Test::False | Test::Flag(_) => t.clone(),
        Test::Empty(p) => Test::Empty(place(p)?),
        Test::Friend(p) => Test::Friend(place(p)?),
        Test::Enemy(p) => Test::Enemy(place(p)?),
        Test::Piece(ty, p) => Test::Piece(*ty, place(p)?),
        Test::InZone(z, p) => Test::InZone(*z, place(p)?),
        Test::OnBoard(Place::Cell(c)) => Test::OnBoard(Place::Cell(*c)),
        Test::LastFrom(p) => Test::LastFrom(place(p)?),
        Test::LastTo(p) => Test::LastTo(place(p)?),
        Test::Attacked(ty, p) => Test::Attacked(*ty, place(p)?),
        Test::Defended(ty, p) => Test::Defended(*ty, place(p)?),
        Test::AdjacentToEnemy(p) => Test::AdjacentToEnemy(place(p)?),
        Test::CellFlag(f, p) => Test::CellFlag(*f, place(p)?),
        Test::Attribute(a, p) => Test::Attribute(*a, place(p)?),
        Test::Not(inner) => Test::Not(Box::new(with_places(inner, place)?)),
        Test::And(all) => Test::And(all.iter().map(|x| with_places(x, place)).collect::<Option<_>>()?),
        Test::Or(any) => Test::Or(any.iter().map(|x| with_places(x, place)).collect::<Option<_>>()?),
        Test::OnBoard(Place::Dir(_)) | Test::At(_) | Test::Marked(_) | Test::Holds(_) => return None,
    })
}

/// Per instruction (and one past the last): whether the mark may be read from there on before
/// an instruction sets it.
fn mark_live(code: &Code) -> Vec<bool> {
    let n = code.ops.len();
    let mut live = vec![false; n + 1];
    // Jumps go backward only to a loop's head: repeat until nothing changes.
    loop {
        let mut changed = false;
        for pc in (0..n).rev() {
            let op = &code.ops[pc];
            let reads = match op {
                Op::Back | Op::Go(crate::ir::Landmark::Mark) => true,
                Op::Verify(t)
                | Op::IfNot(t, _)
                | Op::While { test: t, .. }
                | Op::SetFlag(_, t)
                | Op::SetCellFlag(_, t, _)
                | Op::SetAttribute(_, t) => reads_mark(&code.tests[*t as usize]),
                _ => false,
            };
            let next = |t: u32| live[t as usize];
            let after = match op {
                Op::Mark(_) => false,
                Op::Goto(t) => next(*t),
                Op::IfNot(_, t) | Op::While { exit: t, .. } => live[pc + 1] || next(*t),
                _ => live[pc + 1],
            };
            let v = reads || after;
            if v != live[pc] {
                live[pc] = v;
                changed = true;
            }
        }
        if !changed {
            return live;
        }
    }
}

/// Whether a test or one of its parts reads the mark.
fn reads_mark(t: &Test) -> bool {
    match t {
        Test::Marked(_) => true,
        Test::Not(inner) => reads_mark(inner),
        Test::And(all) | Test::Or(all) => all.iter().any(reads_mark),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::{AddKind, Instr, PieceTypeId, Program};

    fn add() -> Instr {
        Instr::Add { kind: AddKind::Move, promote: vec![], then: None }
    }

    /// `if on-board(n) { mark n if enemy { verify not piece(H) } back }`
    fn look(n: DirId) -> Instr {
        let hia = PieceTypeId(1);
        Instr::If(
            Test::OnBoard(Place::Dir(n)),
            vec![
                Instr::Mark(None),
                Instr::Step(n),
                Instr::If(Test::Enemy(None), vec![Instr::Verify(Test::Not(Box::new(Test::Piece(hia, None))))], vec![]),
                Instr::Back,
            ],
            vec![],
        )
    }

    #[test]
    fn a_guarded_look_becomes_tests_of_the_neighbour() {
        let (n, e) = (DirId(0), DirId(2));
        let p = Program { move_type: None, body: vec![Instr::Step(e), add(), look(n), add()] };
        let mut c = Code::compile(&p);
        c.fold_looks();
        let name = |op: &Op| match op {
            Op::IfNot(t, to) => format!("if-not {:?} {to}", c.tests[*t as usize]),
            Op::Verify(t) => format!("verify {:?}", c.tests[*t as usize]),
            other => format!("{other:?}"),
        };
        let shown: Vec<String> = c.ops.iter().map(name).collect();
        // Folded, the look reads `if-not on-board(n) 5; if-not enemy(n) 5; verify not
        // piece(H, n)`: it fails where an enemy H stands north, one `Around` instruction.
        let when = c.test(&Test::And(vec![Test::Enemy(None), Test::Piece(PieceTypeId(1), None)]));
        assert_eq!(
            shown,
            vec![
                "Step(DirId(2))".to_string(),
                "Add { kind: Move, promote: 0, then: None }".to_string(),
                format!("Around {{ dirs: 0, when: {when}, piece: true }}"),
                "Add { kind: Move, promote: 0, then: None }".to_string(),
            ]
        );
        assert_eq!(c.dir_sets, vec![vec![n]]);
    }

    #[test]
    fn looks_one_after_another_with_the_same_test_become_one_instruction() {
        let dirs = [DirId(0), DirId(1), DirId(2), DirId(3)];
        let mut body = vec![Instr::Step(DirId(2)), add()];
        body.extend(dirs.iter().map(|d| look(*d)));
        body.push(add());
        let mut c = Code::compile(&Program { move_type: None, body });
        c.fold_looks();
        assert_eq!(c.ops.len(), 4, "{:?}", c.ops);
        assert!(matches!(c.ops[2], Op::Around { dirs: 0, .. }), "{:?}", c.ops);
        assert_eq!(c.dir_sets, vec![dirs.to_vec()]);
    }

    #[test]
    fn a_look_jumped_into_stays_folded_apart() {
        let n = DirId(0);
        let mut c = Code::default();
        let on = c.test(&Test::OnBoard(Place::Dir(n)));
        let enemy = c.test(&Test::Enemy(Some(Place::Dir(n))));
        let not_h = c.test(&Test::Not(Box::new(Test::Piece(PieceTypeId(1), Some(Place::Dir(n))))));
        let add = Op::Add { kind: AddKind::Move, promote: 0, then: None };
        let folded = vec![Op::IfNot(on, 3), Op::IfNot(enemy, 3), Op::Verify(not_h), add.clone()];
        c.ops = folded.clone();
        c.fuse_looks();
        assert!(matches!(c.ops[..], [Op::Around { .. }, Op::Add { .. }]), "{:?}", c.ops);
        // A jump to the test of the enemy from outside keeps the look as it was.
        let mut jumped = folded;
        jumped.push(Op::Goto(1));
        c.ops = jumped.clone();
        c.fuse_looks();
        assert_eq!(c.ops, jumped);
    }

    #[test]
    fn a_look_keeps_its_mark_where_it_is_read() {
        let n = DirId(0);
        let p = Program { move_type: None, body: vec![look(n), Instr::Step(n), Instr::Back, add()] };
        let mut c = Code::compile(&p);
        c.fold_looks();
        let tests: Vec<&Test> = c
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::IfNot(t, _) | Op::Verify(t) => Some(&c.tests[*t as usize]),
                _ => None,
            })
            .collect();
        assert_eq!(c.ops.len(), 7, "{:?}", c.ops);
        assert_eq!(c.ops[1], Op::Mark(None));
        assert_eq!(tests[1], &Test::Enemy(Some(Place::Dir(n))));
        assert_eq!(&c.ops[4..], &[Op::Step(n), Op::Back, Op::Add { kind: AddKind::Move, promote: 0, then: None }]);
    }

    #[test]
    fn an_unguarded_look_stays() {
        let n = DirId(0);
        let p = Program {
            move_type: None,
            body: vec![Instr::Mark(None), Instr::Step(n), Instr::Verify(Test::Empty(None)), Instr::Back, add()],
        };
        let mut c = Code::compile(&p);
        let before = c.ops.clone();
        c.fold_looks();
        assert_eq!(c.ops, before);
    }

    #[test]
    fn a_look_that_reads_the_current_cell_or_moves_stays() {
        let n = DirId(0);
        let guarded = |body: Vec<Instr>| Program {
            move_type: None,
            body: vec![Instr::If(Test::OnBoard(Place::Dir(n)), body, vec![]), add()],
        };
        let at = guarded(vec![
            Instr::Mark(None),
            Instr::Step(n),
            Instr::Verify(Test::At(crate::ir::CellId(3))),
            Instr::Back,
        ]);
        let moves = guarded(vec![Instr::Mark(None), Instr::Step(n), add(), Instr::Back]);
        for p in [at, moves] {
            let mut c = Code::compile(&p);
            let before = c.ops.clone();
            c.fold_looks();
            assert_eq!(c.ops, before);
        }
    }
}
