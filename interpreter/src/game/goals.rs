//! Goals: the tests of `goal` lines and `forbid` rules on a position, the points that decide `points` outcomes, and the values of `before(...)` and `streak(...)` tests kept with each move.

use crate::end::GameResult;
use crate::ir::{ConfigGroup, DirId, GoalTest, Occupier, PieceTypeId, PlayerId};
use crate::position::{MoveKind, Position, Undo};
use crate::rules::{Piece, Rules};

/// Whether a piece matches an occupier, for `player`.
fn matches(r: &Rules, o: Occupier, player: PlayerId, q: Piece) -> bool {
    match o {
        Occupier::Own(t) => r.owner(q) == player && r.type_of(q) == t,
        Occupier::Opponent(t) => !r.allied(r.owner(q), player) && r.type_of(q) == t,
        Occupier::AnyOwner(t) => r.type_of(q) == t,
    }
}

/// Whether a move made was a pass: a player's `end` at the start of a turn.
pub(crate) fn is_pass(u: &Undo) -> bool {
    u.mv.kind == MoveKind::EndTurn && u.partial.is_none() && u.slot == 0
}

impl Position {
    /// [`Position::before_bits`], kept for the position's hash and the values kept with the
    /// last move where the tests read only those: a position's moves are made from it one
    /// after another.
    pub(crate) fn before_bits_cached(&mut self) -> u64 {
        if !self.rules.ends.before_cacheable {
            return self.before_bits();
        }
        let last = self.st.history.last().map_or(0, |u| u.before);
        if let Some((hash, kept, bits)) = self.st.memos.before_cache {
            if hash == self.st.hash && kept == last {
                return bits;
            }
        }
        let bits = self.before_bits();
        self.st.memos.before_cache = Some((self.st.hash, last, bits));
        bits
    }

    /// The values of the variant's `before(...)` tests here, one bit per (test, player): kept
    /// with the next move made, for the position after it.
    pub(crate) fn before_bits(&self) -> u64 {
        let r = &*self.rules;
        let players = r.player_count();
        let mut bits = 0u64;
        for (i, test) in &r.ends.before_tests {
            for p in 0..players {
                let bit = *i as usize * players + p;
                if bit < 64 && self.goal_holds(test, PlayerId(p as u8), false) {
                    bits |= 1 << bit;
                }
            }
        }
        bits
    }

    /// Whether a forbidden test holds for `player` (after `player`'s move).
    pub(crate) fn forbidden(&self, player: PlayerId) -> bool {
        self.rules.variant.forbids.iter().any(|t| self.goal_holds(t, player, false))
    }

    /// A player's points: its pieces' on the board, plus its bonus.
    pub fn points(&self, player: PlayerId) -> u64 {
        let r = &*self.rules;
        let mut total = r.variant.end.points_bonus.get(player.0 as usize).copied().unwrap_or(0) as u64;
        for c in self.occupied_by(player).iter() {
            for q in self.pieces_at(c).iter().filter(|q| r.owner(**q) == player) {
                total += r.variant.pieces[r.type_of(*q).0 as usize].points as u64;
            }
        }
        total
    }

    /// The result when points decide: the single player with the most wins, else a draw.
    pub(crate) fn points_result(&self) -> GameResult {
        // Neutral players (without turns) are not in the contest.
        let scores: Vec<Option<u64>> = (0..self.rules.player_count() as u8)
            .map(PlayerId)
            .map(|p| self.rules.has_turns(p).then(|| self.points(p)))
            .collect();
        let best = scores.iter().flatten().copied().max().unwrap_or(0);
        let mut top = scores.iter().enumerate().filter(|(_, s)| **s == Some(best));
        match (top.next(), top.next()) {
            (Some((p, _)), None) => GameResult::Win(PlayerId(p as u8)),
            _ => GameResult::Draw,
        }
    }

    /// Whether a piece matching `a` (for `player`) sees one matching `b` along one of `dirs`
    /// (as `player` reads them), over empty cells only.
    fn facing(&self, player: PlayerId, a: Occupier, b: Occupier, dirs: &[DirId]) -> bool {
        let r = &*self.rules;
        let map = &r.variant.players[player.0 as usize].direction_map;
        let (Occupier::Own(ty) | Occupier::Opponent(ty) | Occupier::AnyOwner(ty)) = a;
        let royal = r.variant.pieces[ty.0 as usize].royal;
        for owner in (0..r.player_count() as u8).map(PlayerId) {
            let mine = owner == player;
            if matches!(a, Occupier::Own(_)) != mine && !matches!(a, Occupier::AnyOwner(_)) {
                continue;
            }
            // Royal pieces are found through their own (small) cell sets.
            let cells = if royal { &self.st.royals[owner.0 as usize] } else { self.occupied_by(owner) };
            for c in cells.iter() {
                if !self.pieces_at(c).iter().any(|q| matches(r, a, player, *q)) {
                    continue;
                }
                for d in dirs {
                    let d = map.get(d.0 as usize).copied().unwrap_or(*d);
                    let mut at = c;
                    // A line meets each cell at most once.
                    for _ in 0..r.cell_count() {
                        let Some(&next) = r.graph.step(at, d).first() else { break };
                        at = next;
                        if self.st.cells[at.0 as usize] == Piece::HOLE {
                            break;
                        }
                        let here = self.pieces_at(at);
                        if here.is_empty() {
                            continue;
                        }
                        if here.iter().any(|q| matches(r, b, player, *q)) {
                            return true;
                        }
                        break;
                    }
                }
            }
        }
        false
    }
}

impl Position {
    /// Whether `player` is in check and the types of the pieces giving it pass `test`: the
    /// pieces are found as the plain reference finds them, by the other players' moves that
    /// would take a royal piece (a check is rare, and this is asked only then).
    fn checked_by(&self, player: PlayerId, test: impl FnOnce(&[PieceTypeId]) -> bool) -> bool {
        let r = &*self.rules;
        if !self.goal_holds(&GoalTest::InCheck, player, false) {
            return false;
        }
        let mut st = self.st.clone();
        test(&st.checking_types(r, player))
    }
}

thread_local! {
    /// Set while a `can-reach` test tries the moves: a goal judged in the positions after them
    /// does not look one move further (the look-ahead stays one move deep).
    static LOOKING_AHEAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

impl Position {
    /// `can-reach`: `player` is to move and one of its legal moves leads to a position where
    /// the configuration holds for it. The moves are tried on a copy of the position.
    fn can_reach(&self, player: PlayerId, occupiers: &[Occupier], groups: &[ConfigGroup]) -> bool {
        if self.side_to_move() != player || LOOKING_AHEAD.with(|l| l.get()) {
            return false;
        }
        LOOKING_AHEAD.with(|l| l.set(true));
        let config = GoalTest::Config(occupiers.to_vec(), groups.to_vec());
        let mut pos = self.clone();
        let mut moves = Vec::new();
        pos.generate_legal(&mut moves);
        let reached = moves.into_iter().any(|mv| {
            pos.make(mv);
            let holds = pos.goal_holds(&config, player, false);
            pos.unmake();
            holds
        });
        LOOKING_AHEAD.with(|l| l.set(false));
        reached
    }

    /// Whether a goal's test holds for `player`.
    pub(crate) fn goal_holds(&self, test: &GoalTest, player: PlayerId, no_moves: bool) -> bool {
        let r = &*self.rules;
        let count = |owner: Option<PlayerId>, ty: Option<crate::ir::PieceTypeId>| {
            // One piece per occupied cell: the cell sets count them.
            if ty.is_none() && !r.stacks.on && !r.between.on && !r.variant.goals_count_hands {
                return match owner {
                    Some(o) => self.occupied_by(o).len() as u32,
                    None => (0..r.player_count() as u8).map(|p| self.occupied_by(PlayerId(p)).len() as u32).sum(),
                };
            }
            let mut n = 0u32;
            for p in 0..r.player_count() as u8 {
                if owner.is_some_and(|o| o.0 != p) {
                    continue;
                }
                if r.variant.goals_count_hands {
                    for (t, _) in r.variant.pieces.iter().enumerate() {
                        let t = crate::ir::PieceTypeId(t as u8);
                        if ty.is_none_or(|want| want == t) {
                            n += self.in_hand(PlayerId(p), t);
                        }
                    }
                }
                // Royal pieces are found through their own (small) cell sets.
                let royal = ty.is_some_and(|t| r.variant.pieces[t.0 as usize].royal);
                let cells = if royal { &self.st.royals[p as usize] } else { self.occupied_by(PlayerId(p)) };
                for c in cells.iter() {
                    n += self
                        .pieces_at(c)
                        .iter()
                        .filter(|q| r.owner(**q).0 == p && ty.is_none_or(|t| r.type_of(**q) == t))
                        .count() as u32;
                }
            }
            n
        };
        match test {
            GoalTest::PiecesRemaining(n, ty) => count(Some(player), *ty) == *n,
            GoalTest::TotalPieces(n, ty) => count(None, *ty) == *n,
            GoalTest::Captured(ty) => {
                self.st.last_captured().iter().any(|q| r.owner(*q) == player && r.type_of(*q) == *ty)
            }
            GoalTest::Stalemated => no_moves && self.side_to_move() == player,
            GoalTest::ToMove => self.side_to_move() == player,
            GoalTest::ChecksGiven(n) => self.checks_given(player) >= *n,
            GoalTest::Repetition(n) => {
                self.st.history.last().is_some_and(|u| u.side == player) && self.repetitions() + 1 >= *n
            }
            GoalTest::Config(occupiers, groups) | GoalTest::SafeConfig(occupiers, groups) => groups.iter().all(|g| {
                let safe_only = matches!(test, GoalTest::SafeConfig(..));
                // `safe-config`: the piece must be one no enemy of its owner could capture there.
                let safe =
                    |c: crate::ir::CellId, q: Piece| !safe_only || !self.st.attacked_by_any_enemy(r, c, r.owner(q));
                let matches = |c: crate::ir::CellId| {
                    self.pieces_at(c)
                        .iter()
                        .any(|q| occupiers.iter().any(|o| matches(r, *o, player, *q)) && safe(c, *q))
                };
                match *g {
                    ConfigGroup::Cell(c) => matches(c),
                    ConfigGroup::Zone(z) => (0..r.cell_count())
                        .map(|c| crate::ir::CellId(c as u16))
                        .any(|c| r.in_zone(z, player, c) && matches(c)),
                }
            }),
            GoalTest::CanReach(occupiers, groups) => self.can_reach(player, occupiers, groups),
            GoalTest::Passed(n) => {
                let h = &self.st.history;
                h.len() >= *n as usize && h[h.len() - *n as usize..].iter().all(is_pass)
            }
            GoalTest::Shuttled(n, types) => self.shuttled(player, *n, types),
            GoalTest::Facing(a, b, dirs) => self.facing(player, *a, *b, dirs),
            GoalTest::Before(i, _) => self.st.history.last().is_some_and(|u| {
                let bit = *i as usize * r.player_count() + player.0 as usize;
                bit < 64 && u.before >> bit & 1 == 1
            }),
            GoalTest::Opponent(inner) => {
                let mut opponents = (0..r.player_count() as u8)
                    .map(PlayerId)
                    .filter(|&p| r.has_turns(p) && !r.allied(p, player) && !self.is_out(p))
                    .peekable();
                opponents.peek().is_some() && opponents.all(|p| self.goal_holds(inner, p, no_moves))
            }
            GoalTest::CountRunning => self.st.clocks.count.0 > 0,
            GoalTest::InCheck if player == self.side_to_move() => self.in_check(),
            GoalTest::InCheck => self.st.royal_attacked(r, player),
            GoalTest::CheckedBy(types) => {
                self.checked_by(player, |checkers| checkers.iter().any(|t| types.contains(t)))
            }
            GoalTest::CheckedOnlyBy(types) => {
                self.checked_by(player, |checkers| checkers.iter().all(|t| types.contains(t)))
            }
            GoalTest::Streak(i, during, some) => {
                // The run as far as the position before the last move: for a player not to
                // move here, the run ends at its last turn.
                let bit = *i as usize * r.player_count() + player.0 as usize;
                let before = self.st.history.last().is_some_and(|u| bit < 64 && u.before >> bit & 1 == 1);
                if self.side_to_move() != player {
                    return before;
                }
                self.goal_holds(during, player, no_moves) && (before || self.goal_holds(some, player, no_moves))
            }
            GoalTest::Not(inner) => !self.goal_holds(inner, player, no_moves),
            GoalTest::And(all) => all.iter().all(|t| self.goal_holds(t, player, no_moves)),
            GoalTest::Or(any) => any.iter().any(|t| self.goal_holds(t, player, no_moves)),
        }
    }
}
