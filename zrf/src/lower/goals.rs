//! Lowers `win-condition`, `loss-condition`, `draw-condition` and `count-condition` into the
//! IR's end rules and goal tests.
use varia_interpreter::ir::{ConfigGroup, Goal, GoalTest, Occupier, Outcome, PlayerId};

use super::{cell_id, construct_name, Lowerer};
use crate::reader::{Sexp, SexpKind, ZrfError};

/// Where a goal's result is decided.
pub(crate) struct GoalRules {
    pub(crate) checkmate: Option<Outcome>,
    pub(crate) stalemate: Option<Outcome>,
    pub(crate) goals: Vec<Goal>,
    pub(crate) royal: Vec<usize>,
    /// A `count-condition` is given: every piece counts one point when the count decides.
    pub(crate) counted: bool,
}

impl Lowerer<'_> {
    pub(crate) fn goals(&mut self, forms: &[&Sexp]) -> Result<GoalRules, ZrfError> {
        let mut rules =
            GoalRules { checkmate: None, stalemate: None, goals: Vec::new(), royal: Vec::new(), counted: false };
        for &form in forms {
            let label = "in a goal";
            let outcome = match form.head().map(str::to_ascii_lowercase).as_deref() {
                Some("win-condition") => Outcome::Win,
                Some("loss-condition") => Outcome::Loss,
                // The game ends and the player with the most pieces on the board wins.
                Some("count-condition") => Outcome::Points,
                _ => Outcome::Draw,
            };
            rules.counted |= outcome == Outcome::Points;
            let (who, condition) = match form.tail() {
                [who, condition] => (Some(who), condition),
                // A count-condition may leave out its players: it is every player's.
                [condition] if outcome == Outcome::Points => (None, condition),
                _ => return Err(self.err("a goal needs a player list and one condition", form, label)),
            };
            let players = match who {
                None => (0..self.players.len()).filter_map(|i| u8::try_from(i).ok()).map(PlayerId).collect(),
                Some(who) => match who.as_list() {
                    Some(list) => list.iter().map(|p| self.player(p, label)).collect::<Result<Vec<_>, _>>()?,
                    None => vec![self.player(who, label)?],
                },
            };
            // Every player who moves: a neutral player (missing from the turn order) never is
            // to move, so it is never checkmated or stalemated.
            let everyone = (0..self.players.len())
                .filter(|&i| self.has_turns.get(i).copied().unwrap_or(true))
                .all(|i| players.iter().any(|p| usize::from(p.0) == i));
            if condition.is_form("checkmated") {
                let [ty] = condition.tail() else {
                    return Err(self.err("'checkmated' needs one piece type", condition, label));
                };
                let piece = self.piece(ty, label)?;
                // Checkmate is one rule for all players in the IR.
                if !everyone {
                    return Err(self.err(
                        "unsupported ZRF construct 'checkmated'",
                        condition,
                        "a checkmated goal must be given for every player who moves",
                    ));
                }
                if !rules.royal.contains(&usize::from(piece.0)) {
                    rules.royal.push(usize::from(piece.0));
                }
                // The first checkmated goal decides, as goals are tested in order.
                rules.checkmate.get_or_insert(outcome);
                continue;
            }
            if condition.is_atom("stalemated") && everyone {
                rules.stalemate.get_or_insert(outcome);
                continue;
            }
            let test = self.goal_test(condition)?;
            rules.goals.push(Goal { players, outcome, test });
        }
        Ok(rules)
    }

    fn goal_test(&mut self, node: &Sexp) -> Result<GoalTest, ZrfError> {
        let label = "in a goal condition";
        let head = match &node.kind {
            SexpKind::Atom(word) => word.to_ascii_lowercase(),
            _ => node.head().map(str::to_ascii_lowercase).unwrap_or_default(),
        };
        let args = node.tail();
        let count = |this: &Self, arg: Option<&Sexp>| -> Result<u32, ZrfError> {
            arg.and_then(Sexp::as_atom)
                .and_then(|n| n.parse::<u32>().ok())
                .ok_or_else(|| this.err("expected a number of pieces", arg.unwrap_or(node), label))
        };
        let optional_piece = |this: &Self, arg: Option<&Sexp>| arg.map(|ty| this.piece(ty, label)).transpose();
        match (head.as_str(), node.as_atom().is_some()) {
            ("stalemated", true) => Ok(GoalTest::Stalemated),
            // Ruling: repetition is the third occurrence of a position.
            ("repetition", true) => Ok(GoalTest::Repetition(3)),
            ("pieces-remaining", false) if (1..=2).contains(&args.len()) => {
                Ok(GoalTest::PiecesRemaining(count(self, args.first())?, optional_piece(self, args.get(1))?))
            }
            ("total-piece-count", false) if (1..=2).contains(&args.len()) => {
                Ok(GoalTest::TotalPieces(count(self, args.first())?, optional_piece(self, args.get(1))?))
            }
            ("captured", false) if args.len() == 1 => {
                Ok(GoalTest::Captured(self.piece(args.first().unwrap_or(node), label)?))
            }
            ("absolute-config", false) if args.len() >= 2 => self.absolute_config(node, args),
            ("and" | "or", false) if !args.is_empty() => {
                let parts = args.iter().map(|arg| self.goal_test(arg)).collect::<Result<Vec<_>, _>>()?;
                Ok(if head == "and" { GoalTest::And(parts) } else { GoalTest::Or(parts) })
            }
            ("not", false) if args.len() == 1 => {
                Ok(GoalTest::Not(Box::new(self.goal_test(args.first().unwrap_or(node))?)))
            }
            ("relative-config", false) if args.len() >= 3 && args.len() % 2 == 1 => self.relative_config(node, args),
            ("checkmated", _) => Err(self.unsupported(node, "checkmated must be a goal's whole condition")),
            (
                "pieces-remaining" | "total-piece-count" | "captured" | "absolute-config" | "relative-config" | "and"
                | "or" | "not",
                false,
            ) => Err(self.err(format!("wrong arguments for '{head}'"), node, label)),
            _ => Err(self.unsupported(node, label)),
        }
    }

    /// `(absolute-config O ... (P-or-Z ...))`: occupiers, then the positions or zones.
    fn absolute_config(&mut self, node: &Sexp, args: &[Sexp]) -> Result<GoalTest, ZrfError> {
        let label = "in (absolute-config ...)";
        let Some((places, occupiers)) = args.split_last() else {
            return Err(self.err("absolute-config needs occupiers and positions", node, label));
        };
        let who = occupiers.iter().map(|o| self.occupier(o, label)).collect::<Result<Vec<_>, _>>()?;
        let Some(places) = places.as_list() else {
            return Err(self.err("expected a list of positions or zones", places, label));
        };
        let mut groups = Vec::new();
        for place in places {
            let name = place.as_atom().unwrap_or("");
            let group = match (self.cells.get(name), self.zones.get(name)) {
                (Some(cell), _) => ConfigGroup::Cell(cell_id(cell)),
                (None, Some(_)) => ConfigGroup::Zone(self.zone(place, label)?),
                (None, None) => {
                    return Err(self.err(format!("unknown position or zone '{}'", construct_name(place)), place, label))
                }
            };
            groups.push(group);
        }
        // Ruling: a list of positions is met when one of them holds an occupier (a zone, when
        // one of its positions does), as every corpus file that lists several positions means
        // it: breakthrough's and kamisado's far row, doubutsu-shogi's try, twins' target row.
        Ok(match groups.len() {
            1 => GoalTest::Config(who, groups),
            _ => GoalTest::Or(groups.into_iter().map(|g| GoalTest::Config(who.clone(), vec![g])).collect()),
        })
    }

    /// A piece type, `(opponent T)` or `(any-owner T)`.
    fn occupier(&self, occupier: &Sexp, label: &str) -> Result<Occupier, ZrfError> {
        Ok(match occupier.as_list() {
            None => Occupier::Own(self.piece(occupier, label)?),
            Some([kind, ty]) if kind.is_atom("opponent") => Occupier::Opponent(self.piece(ty, label)?),
            Some([kind, ty]) if kind.is_atom("any-owner") => Occupier::AnyOwner(self.piece(ty, label)?),
            Some(_) => return Err(self.unsupported(occupier, label)),
        })
    }

    /// `(relative-config O d O d ... O)`: somewhere on the board an O, one step d on the next O,
    /// and so on. Lowered to "one of these placements": for every start position from which the
    /// steps stay on the board, the absolute configuration they name. Directions are taken as
    /// written, not mirrored for the player.
    fn relative_config(&mut self, node: &Sexp, args: &[Sexp]) -> Result<GoalTest, ZrfError> {
        let label = "in (relative-config ...)";
        let mut who = Vec::new();
        let mut dirs = Vec::new();
        for (i, arg) in args.iter().enumerate() {
            if i % 2 == 0 {
                who.push(self.occupier(arg, label)?);
            } else {
                let Some(d) = arg.as_atom().and_then(|name| self.dirs.get(name)) else {
                    return Err(self.err(format!("unknown direction '{}'", construct_name(arg)), arg, label));
                };
                dirs.push(d);
            }
        }
        let cells = self.cells.len();
        if cells.saturating_mul(who.len()) > MAX_RELATIVE_CELLS {
            return Err(self.err(
                format!("relative-config on this board would test more than {MAX_RELATIVE_CELLS} positions"),
                node,
                "expected a shorter pattern or a smaller board",
            ));
        }
        let mut placements = Vec::new();
        'start: for start in 0..cells {
            let mut at = start;
            let mut all = vec![GoalTest::Config(vec![who[0]], vec![ConfigGroup::Cell(cell_id(at))])];
            for (d, occupier) in dirs.iter().zip(&who[1..]) {
                let Some(&next) = self.steps.get(&(at, *d)) else { continue 'start };
                at = next;
                all.push(GoalTest::Config(vec![*occupier], vec![ConfigGroup::Cell(cell_id(at))]));
            }
            placements.push(GoalTest::And(all));
        }
        Ok(GoalTest::Or(placements))
    }
}

/// Most positions a `relative-config` may test in all (start positions times pattern length).
const MAX_RELATIVE_CELLS: usize = 1 << 16;
