//! Lowering of the end of a game: goals and their tests, outcomes, points, and the `forbid` rules that share the goals' tests.

use varia_interpreter::ir::*;

use super::{int_checked, int_value, Lowerer, Node};
use crate::syntax::Rule;

/// At most this many `before(...)` and `streak(...)` tests in a variant: the value of each, for
/// each player, is kept with every move made, in 64 bits (so fewer with more than four players).
pub(super) const MAX_BEFORE_TESTS: u8 = 16;

/// At most this many moves in a `shuttled N` test: judging it reads the last 2N + 2 moves
/// and takes a copy of the position back over them.
pub(super) const MAX_SHUTTLE: u32 = 100;

/// An outcome word.
pub(super) fn outcome_of(word: &str) -> Outcome {
    match word {
        "win" => Outcome::Win,
        "loss" => Outcome::Loss,
        "points" => Outcome::Points,
        _ => Outcome::Draw,
    }
}

impl Lowerer {
    /// Lowers `goal PLAYER ... OUTCOME: GOALTEST`.
    pub(super) fn goal(&mut self, node: Node) -> Option<Goal> {
        let mut players = Some(Vec::new());
        let mut outcome = Outcome::Draw;
        let mut test = None;
        for part in node.into_inner() {
            match part.as_rule() {
                Rule::goal_player => {
                    let n = part.clone().into_inner().next().expect("player name");
                    match (self.player_id(&n), &mut players) {
                        (Some(p), Some(v)) if v.contains(&p) => {
                            self.error(
                                &n,
                                format!("player `{}` listed twice", n.as_str()),
                                "expected each player once",
                            );
                            players = None;
                        }
                        (Some(p), Some(v)) => v.push(p),
                        _ => players = None,
                    }
                }
                Rule::outcome => outcome = outcome_of(part.as_str()),
                Rule::goal_test => test = self.goal_test(part),
                _ => {}
            }
        }
        Some(Goal { players: players?, outcome, test: test? })
    }

    pub(super) fn goal_test(&mut self, t: Node) -> Option<GoalTest> {
        let rule = t.as_rule();
        let parts: Vec<Node> = t.clone().into_inner().collect();
        let piece_of = |l: &mut Lowerer, parts: &[Node]| -> Option<Option<PieceTypeId>> {
            match parts.iter().find(|p| p.as_rule() == Rule::goal_piece) {
                Some(p) => l.piece_ref(&p.clone().into_inner().next().expect("piece")).map(Some),
                None => Some(None),
            }
        };
        Some(match rule {
            Rule::goal_test | Rule::goal_and => {
                let subs: Vec<Option<GoalTest>> = parts
                    .into_iter()
                    .filter(|p| !matches!(p.as_rule(), Rule::k_and | Rule::k_or))
                    .map(|p| self.goal_test(p))
                    .collect();
                let mut subs: Vec<GoalTest> = subs.into_iter().collect::<Option<_>>()?;
                if subs.len() == 1 {
                    subs.remove(0)
                } else if rule == Rule::goal_test {
                    GoalTest::Or(subs)
                } else {
                    GoalTest::And(subs)
                }
            }
            Rule::goal_not => match parts[0].as_rule() {
                Rule::k_not => GoalTest::Not(Box::new(self.goal_test(parts[1].clone())?)),
                _ => self.goal_test(parts[0].clone())?,
            },
            Rule::paren_goal => self.goal_test(parts[1].clone())?,
            Rule::pieces_remaining_goal | Rule::total_pieces_goal => {
                let n = int_value(self, &parts[1], 100_000) as u32;
                let ty = piece_of(self, &parts)?;
                if rule == Rule::pieces_remaining_goal {
                    GoalTest::PiecesRemaining(n, ty)
                } else {
                    GoalTest::TotalPieces(n, ty)
                }
            }
            Rule::captured_goal => GoalTest::Captured(self.piece_ref(&parts[1])?),
            Rule::stalemated_goal => GoalTest::Stalemated,
            Rule::opponent_goal => GoalTest::Opponent(Box::new(self.goal_test(parts[2].clone())?)),
            Rule::count_running_goal => GoalTest::CountRunning,
            Rule::to_move_goal => GoalTest::ToMove,
            Rule::checks_given_goal => {
                GoalTest::ChecksGiven(self.count_from_one(&parts[1], 1000, "a check count of 0", "expected at least 1"))
            }
            Rule::repetition_goal => GoalTest::Repetition(self.count_from_one(
                &parts[1],
                1000,
                "a repetition count of 0",
                "expected at least 1",
            )),
            Rule::config_goal => {
                let mut occupiers = Some(Vec::new());
                let mut groups = Some(Vec::new());
                for p in &parts {
                    match p.as_rule() {
                        Rule::occupier => match (self.occupier(p), &mut occupiers) {
                            (Some(o), Some(v)) => v.push(o),
                            _ => occupiers = None,
                        },
                        Rule::config_group => match (self.config_group(p), &mut groups) {
                            (Some(g), Some(v)) => v.push(g),
                            _ => groups = None,
                        },
                        _ => {}
                    }
                }
                if parts[0].as_rule() == Rule::k_safe_config {
                    GoalTest::SafeConfig(occupiers?, groups?)
                } else if parts[0].as_rule() == Rule::k_can_reach {
                    GoalTest::CanReach(occupiers?, groups?)
                } else {
                    GoalTest::Config(occupiers?, groups?)
                }
            }
            Rule::passed_goal => {
                GoalTest::Passed(self.count_from_one(&parts[1], 1000, "a count of 0 passes", "expected at least 1"))
            }
            Rule::shuttled_goal => self.shuttled(&parts)?,
            Rule::facing_goal => {
                let occ: Vec<Node> = parts.iter().filter(|p| p.as_rule() == Rule::occupier).cloned().collect();
                let first = self.occupier(&occ[0]);
                let second = self.occupier(&occ[1]);
                let dirs = parts.iter().find(|p| p.as_rule() == Rule::dir_list).expect("directions").clone();
                let dirs = self.dir_list(dirs);
                GoalTest::Facing(first?, second?, dirs)
            }
            Rule::before_goal => {
                let inner = self.goal_test(parts[2].clone())?;
                let i = self.history_slot(&t, inner.clone(), "before")?;
                GoalTest::Before(i, Box::new(inner))
            }
            Rule::streak_goal => self.streak_goal(&t, &parts)?,
            Rule::in_check_goal | Rule::checked_by_goal => self.check_goal(rule, &parts)?,
            _ => return None,
        })
    }

    /// `shuttled N [TYPE ...]`: at least 2 moves, each type once.
    fn shuttled(&mut self, parts: &[Node]) -> Option<GoalTest> {
        let n = int_checked(self, &parts[1], MAX_SHUTTLE as u64);
        if n.is_some_and(|n| n < 2) {
            self.error(&parts[1], "a shuttle of fewer than 2 moves", "expected 2 or more moves back and forth");
        }
        let mut types = Some(Vec::new());
        for p in parts.iter().filter(|p| p.as_rule() == Rule::goal_piece) {
            match (self.piece_ref(&p.clone().into_inner().next().expect("piece")), &mut types) {
                (Some(t), Some(v)) if !v.contains(&t) => v.push(t),
                (Some(_), Some(_)) => {
                    self.error(p, format!("piece `{}` listed twice", p.as_str()), "expected each type once");
                    types = None;
                }
                _ => types = None,
            }
        }
        Some(GoalTest::Shuttled(n.filter(|n| *n >= 2)? as u32, types?))
    }

    /// `streak(WHILE, SOME)`, with its history slot.
    fn streak_goal(&mut self, t: &Node, parts: &[Node]) -> Option<GoalTest> {
        let tests: Vec<Node> = parts.iter().filter(|p| p.as_rule() == Rule::goal_test).cloned().collect();
        let during = self.goal_test(tests[0].clone());
        let some = self.goal_test(tests[1].clone());
        let (during, some) = (Box::new(during?), Box::new(some?));
        // Kept apart from the `before(...)` tests: a streak's slot holds the streak's own
        // value, not its tests'.
        let key = GoalTest::Streak(u8::MAX, during.clone(), some.clone());
        Some(GoalTest::Streak(self.history_slot(t, key, "streak")?, during, some))
    }

    /// `in-check`, `checked-by(TYPES)` or `checked-by(only TYPES)`: an error in a variant
    /// without royal pieces, where nobody is ever in check.
    fn check_goal(&mut self, rule: Rule, parts: &[Node]) -> Option<GoalTest> {
        if !self.pieces.iter().any(|p| p.royal) {
            self.error(
                &parts[0],
                format!("`{}` in a variant without royal pieces", parts[0].as_str()),
                "expected a piece declared `royal`: without one, no player is ever in check",
            );
            return None;
        }
        if rule == Rule::in_check_goal {
            return Some(GoalTest::InCheck);
        }
        let mut types = Vec::new();
        for p in parts.iter().filter(|p| p.as_rule() == Rule::checked_by_piece) {
            types.push(self.piece_ref(&p.clone().into_inner().next().expect("piece")));
        }
        let types: Vec<PieceTypeId> = types.into_iter().collect::<Option<_>>()?;
        Some(if parts.iter().any(|p| p.as_rule() == Rule::k_only) {
            GoalTest::CheckedOnlyBy(types)
        } else {
            GoalTest::CheckedBy(types)
        })
    }

    /// The index of a history test (`before(...)`, `streak(...)`), whose value for each player
    /// is kept in 64 bits with every move: the same test twice is kept once; past the limit,
    /// a located error (once, at the first test too many).
    fn history_slot(&mut self, t: &Node, key: GoalTest, word: &str) -> Option<u8> {
        if let Some(i) = self.before_tests.iter().position(|k| *k == key) {
            return Some(i as u8);
        }
        let players = self.players.len().clamp(1, 64);
        let most = (64 / players).min(MAX_BEFORE_TESTS as usize);
        if self.before_tests.len() >= most {
            if self.before_tests.len() > most {
                return None;
            }
            self.before_tests.push(key);
            let (what, label) = match word {
                "before" => (String::new(), "in a variant of"),
                _ => (" `before(...)` and `streak(...)`".to_string(), "of both in a variant of"),
            };
            let message = if what.is_empty() {
                format!("more than {most} different `before(...)` tests")
            } else {
                format!("more than {most} different{what} tests")
            };
            self.error(
                t,
                message,
                format!("expected at most {most} {label} {players} players (64 / players, at most {MAX_BEFORE_TESTS})"),
            );
            return None;
        }
        self.before_tests.push(key);
        Some(self.before_tests.len() as u8 - 1)
    }

    /// A cell or a zone of a configuration goal; a cell wins when both have the name.
    fn config_group(&mut self, n: &Node) -> Option<ConfigGroup> {
        let s = n.as_str().trim();
        if let Some(c) = self.cell_ids.get(s) {
            return Some(ConfigGroup::Cell(*c));
        }
        if let Some(i) = self.zones.get_index_of(s) {
            return Some(ConfigGroup::Zone(ZoneId(i as u8)));
        }
        let zones: Vec<&str> = self.zones.keys().map(|z| z.as_str()).collect();
        let label = if zones.is_empty() {
            "expected a cell of the board (this variant declares no zones)".to_string()
        } else {
            format!("expected a cell of the board or a zone: {}", zones.join(" "))
        };
        self.error(n, format!("unknown cell or zone `{s}`"), label);
        None
    }

    /// `own TYPE`, `opponent TYPE` or `any TYPE`.
    fn occupier(&mut self, p: &Node) -> Option<Occupier> {
        let mut oi = p.clone().into_inner();
        let who = oi.next().expect("own, opponent or any").as_rule();
        let ty = self.piece_ref(&oi.next().expect("piece"))?;
        Some(match who {
            Rule::k_own => Occupier::Own(ty),
            Rule::k_opponent => Occupier::Opponent(ty),
            _ => Occupier::AnyOwner(ty),
        })
    }

    /// A number of points (`13`, `1.5`), in hundredths.
    pub(super) fn points(&mut self, p: &Node) -> u32 {
        let text = p.as_str();
        let (whole, frac) = text.split_once('.').unwrap_or((text, ""));
        let frac = format!("{frac:0<2}");
        match (whole.parse::<u32>(), frac.parse::<u32>()) {
            (Ok(w), Ok(f)) if w <= 1_000_000 => w * 100 + f,
            _ => {
                self.error(
                    p,
                    format!("number `{text}` is out of range"),
                    "expected a number of points from 0 to 1000000",
                );
                0
            }
        }
    }

    /// A count that must be at least 1: a number up to `max` (out of range: reported, 0), and
    /// `zero` with its label reported for a 0.
    pub(super) fn count_from_one(&mut self, n: &Node, max: u64, zero: &str, label: &str) -> u32 {
        let value = int_checked(self, n, max);
        if value == Some(0) {
            self.error(n, zero, label);
        }
        value.unwrap_or(0) as u32
    }

    /// `forbid: GOALTEST`.
    pub(super) fn forbid(&mut self, node: Node) -> Option<GoalTest> {
        let test = node.into_inner().find(|p| p.as_rule() == Rule::goal_test).expect("the forbidden test");
        self.goal_test(test)
    }
}
