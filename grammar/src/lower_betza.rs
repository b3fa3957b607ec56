//! Lowering of `betza "STRING"` powers: Fairy-Stockfish's reading of the string (`crate::betza`) made into move powers, and move programs for lame leaps and riders of leaps.

use varia_interpreter::ir::*;

use super::*;
use crate::betza::{self, Kind, Move};
use crate::diagnostic::Diagnostic;

/// What one group of a Betza string's moves lowers to.
enum Lowered {
    Power(MoveRule),
    Program(Program),
}

impl Lowerer {
    /// A `betza "STRING" MODIFIERS` power of a piece (`Some(index)`) or a square: its move
    /// powers (returned, the modifiers applied to each) and its move programs (added to the
    /// piece; a square has none).
    pub(super) fn betza(&mut self, rule: Node, piece: Option<usize>) -> Vec<MoveRule> {
        let mut it = rule.into_inner().skip(1);
        let s = it.next().expect("betza string");
        let inner = s.clone().into_inner().next().expect("string body");
        let moves = match betza::moves(inner.as_str()) {
            Ok(m) => m,
            Err((off, msg)) => {
                let start = inner.as_span().start() + off;
                self.errors.push(Diagnostic::new(format!("bad Betza notation: {msg}"), start..start + 1, msg));
                return Vec::new();
            }
        };
        if let Some(off) = inner.as_str().find('i') {
            let start = inner.as_span().start() + off;
            let msg = "expected no `i`: write an initial move as a power of its own with `from ZONE`";
            self.errors.push(Diagnostic::new("bad Betza notation: initial moves are not read", start..start + 1, msg));
            return Vec::new();
        }
        if ["n", "e", "s", "w", "ne", "se", "sw", "nw"].iter().any(|d| !self.dirs.contains_key(*d)) {
            self.error(&s, "Betza needs the grid's compass directions (n ne e se s sw w nw)", "declare a grid");
            return Vec::new();
        }
        let modifiers: Vec<Node> = it.collect();
        let mut out = Vec::new();
        for group in self.betza_groups(&moves) {
            match group {
                Lowered::Power(mut mr) => {
                    for m in &modifiers {
                        self.modifier(&mut mr, m.clone());
                    }
                    self.check_condition_needs_move_only(&s, &mr);
                    out.push(mr);
                }
                Lowered::Program(p) => {
                    let Some(index) = piece else {
                        self.error(
                            &s,
                            "a square's Betza move with a lame leap or a rider of leaps",
                            "expected steps, slides and leaps",
                        );
                        return out;
                    };
                    if let Some(m) = modifiers.first() {
                        self.error(
                            m,
                            "modifiers after a Betza string with lame leaps or riders of leaps",
                            "expected no modifier: those moves are move programs; write them apart",
                        );
                        return out;
                    }
                    if self.pieces[index].programs.len() >= varia_interpreter::limits::PROGRAMS_PER_PIECE {
                        let most = varia_interpreter::limits::PROGRAMS_PER_PIECE;
                        self.error(&s, "too many move programs", format!("expected at most {most} per piece"));
                        return out;
                    }
                    self.pieces[index].programs.push(p);
                }
            }
        }
        out
    }

    /// The compass direction of a unit (ranks, files) step, read from the first player's side.
    fn compass_dir(&self, (dr, df): (i8, i8)) -> DirId {
        let name = COMPASS.iter().find(|c| c.1 == df as i32 && c.2 == dr as i32).expect("a unit step").0;
        self.dirs[name]
    }

    /// The moves in groups: consecutive moves of one atom made alike share one power (a step,
    /// slide or hop in several directions, a leap along several paths); each lame leap and
    /// each rider of leaps is a move program.
    fn betza_groups(&self, moves: &[Move]) -> Vec<Lowered> {
        let mut out: Vec<Lowered> = Vec::new();
        let mut last: Option<(Kind, bool, bool, (u8, u8))> = None;
        for m in moves {
            let unit = m.dr.abs() <= 1 && m.df.abs() <= 1;
            let mode = match (m.quiet, m.capture) {
                (true, false) => MoveMode::MoveOnly,
                (false, true) => MoveMode::CaptureOnly,
                _ => MoveMode::MoveOrCapture,
            };
            let d = || self.compass_dir((m.dr.signum(), m.df.signum()));
            let geometry = match m.kind {
                Kind::Leap { .. } if unit => Geometry::Slide { dirs: vec![d()], max: Some(1) },
                Kind::Leap { lame: false } => Geometry::Leap {
                    paths: vec![betza::leap_steps(m.dr, m.df).into_iter().map(|u| self.compass_dir(u)).collect()],
                },
                Kind::Ride(max) if unit => Geometry::Slide { dirs: vec![d()], max: (max > 0).then_some(max) },
                Kind::Hop(max) => Geometry::Hop { dirs: vec![d()], max: (max > 0).then_some(max) },
                Kind::Leap { lame: true } => {
                    out.push(Lowered::Program(self.lame_program(m)));
                    last = None;
                    continue;
                }
                Kind::Ride(max) => {
                    out.push(Lowered::Program(self.rider_program(m, max)));
                    last = None;
                    continue;
                }
            };
            // One power per atom, as the atom's letter reads: its offset's size.
            let (x, y) = (m.dr.unsigned_abs(), m.df.unsigned_abs());
            let key = (m.kind, m.quiet, m.capture, (x.max(y), x.min(y)));
            if last == Some(key) {
                if let Some(Lowered::Power(prev)) = out.last_mut() {
                    match (&mut prev.geometry, geometry) {
                        (Geometry::Slide { dirs, .. }, Geometry::Slide { dirs: more, .. })
                        | (Geometry::Hop { dirs, .. }, Geometry::Hop { dirs: more, .. }) => dirs.extend(more),
                        (Geometry::Leap { paths }, Geometry::Leap { paths: more }) => paths.extend(more),
                        _ => unreachable!("a group's moves share their kind"),
                    }
                    continue;
                }
            }
            last = Some(key);
            out.push(Lowered::Power(MoveRule {
                geometry,
                mode,
                conditions: Vec::new(),
                marks_en_passant: false,
                captures_en_passant: false,
                stop_between: false,
            }));
        }
        out
    }

    /// The test of a program's landing cell.
    fn landing(m: &Move) -> Test {
        match (m.quiet, m.capture) {
            (true, false) => Test::Empty(None),
            (false, true) => Test::Enemy(None),
            _ => Test::Not(Box::new(Test::Friend(None))),
        }
    }

    /// A lame leap: each cell on the way empty, then the landing cell tested.
    fn lame_program(&self, m: &Move) -> Program {
        let steps = betza::lame_steps(m.dr, m.df);
        let mut body = Vec::new();
        for (k, &u) in steps.iter().enumerate() {
            body.push(Instr::Step(self.compass_dir(u)));
            body.push(Instr::Verify(if k + 1 < steps.len() { Test::Empty(None) } else { Self::landing(m) }));
        }
        body.push(add());
        Program { move_type: None, body }
    }

    /// A rider of leaps (the nightrider `NN`): leap after leap over empty cells, each a move
    /// when quiet moves are allowed, the first occupied one taken when captures are; with a
    /// most, that many leaps unrolled.
    fn rider_program(&self, m: &Move, max: u8) -> Program {
        let path: Vec<Instr> =
            betza::leap_steps(m.dr, m.df).into_iter().map(|u| Instr::Step(self.compass_dir(u))).collect();
        let mut body = Vec::new();
        if max == 0 {
            body.extend(path.iter().cloned());
            let mut inner = if m.quiet { vec![add()] } else { Vec::new() };
            inner.extend(path.iter().cloned());
            body.push(Instr::While(Test::Empty(None), inner));
            if m.capture {
                body.push(Instr::Verify(Test::Enemy(None)));
                body.push(add());
            }
            return Program { move_type: None, body };
        }
        for _ in 0..max {
            body.extend(path.iter().cloned());
            if m.capture {
                body.push(Instr::If(Test::Enemy(None), vec![add()], Vec::new()));
            }
            body.push(Instr::Verify(Test::Empty(None)));
            if m.quiet {
                body.push(add());
            }
        }
        Program { move_type: None, body }
    }
}

/// The plain `add`: the piece moves there.
fn add() -> Instr {
    Instr::Add { kind: AddKind::Move, promote: Vec::new(), then: None }
}
