//! Counts a game keeps besides the board: the checks each player's moves have given, for goals that count them (`checks-given N`), and the count of a counting rule.
//!
//! A move gives check when, after it, the player to move (another player's turn has begun) has
//! a royal piece attacked. The count rises when such a move is made and falls again when it is
//! taken back; it is part of the hash and of position strings (`checks=W,B`).

use crate::ir::PlayerId;
use crate::position::Position;

/// The largest half-move clock and move number a position string may give: far beyond any
/// game. Playing on stops the counters here (a move from move 1000000000 leaves the move
/// number at 1000000000), so every position the engine writes reads back.
pub const MAX_CLOCK: u32 = 1_000_000_000;

/// The hash key of `n` checks given by `player` (0 for none, so counting costs nothing until a
/// check is given).
pub(crate) fn check_key(player: PlayerId, n: u32) -> u64 {
    if n == 0 {
        return 0;
    }
    let mut s = 0x6368_6563_6b73_0000 ^ ((player.0 as u64) << 32) ^ n as u64;
    crate::rules::keys::splitmix(&mut s)
}

impl Position {
    /// How many times `player`'s moves have given check (0 when no goal counts checks).
    pub fn checks_given(&self, player: PlayerId) -> u32 {
        self.st.clocks.checks.get(player.0 as usize).copied().unwrap_or(0)
    }

    /// The player whose move made the current position, when that move ended a turn and
    /// left the player to move in check.
    fn checking_player(&self) -> Option<PlayerId> {
        let mover = self.st.history.last()?.side;
        (mover != self.st.side && self.in_check()).then_some(mover)
    }

    /// After a move: counts the check it gave, if it gave one.
    pub(crate) fn count_check(&mut self) {
        if let Some(p) = self.checking_player() {
            let n = &mut self.st.clocks.checks[p.0 as usize];
            self.st.hash ^= check_key(p, *n) ^ check_key(p, *n + 1);
            *n += 1;
        }
    }

    /// Before taking a move back: uncounts the check it gave (the hash comes back with the
    /// undo record).
    pub(crate) fn uncount_check(&mut self) {
        if let Some(p) = self.checking_player() {
            let n = &mut self.st.clocks.checks[p.0 as usize];
            *n = n.saturating_sub(1);
        }
    }

    /// Sets the checks given (position strings), keeping the hash to be recomputed.
    pub(crate) fn set_checks(&mut self, checks: Vec<u32>) {
        if self.rules.ends.counts_checks {
            self.st.clocks.checks = checks;
        }
    }
}

/// Reads Fairy-Stockfish's field of checks still needed by each player (`2+3`: the first
/// player needs two more, the second three), where it follows the en-passant field of a game
/// whose goals count checks, and takes it out of the fields. The counts are taken against the
/// largest count a goal asks for.
pub(crate) fn read_checks_remaining(
    pos: &mut Position,
    fields: &mut Vec<(usize, &str)>,
) -> Result<(), crate::position_error::PositionError> {
    let Some(limit) = pos.rules.variant.check_limit().filter(|_| pos.rules.ends.counts_checks) else { return Ok(()) };
    let Some(&(at, text)) = fields.get(4).filter(|(_, s)| s.contains('+')) else { return Ok(()) };
    let counts: Option<Vec<u32>> =
        text.split('+').map(|n| n.parse::<u32>().ok().filter(|n| *n <= limit).map(|n| limit - n)).collect();
    match counts {
        Some(c) if c.len() == pos.rules.player_count() => {
            pos.set_checks(c);
            fields.remove(4);
            Ok(())
        }
        _ => Err(crate::position_error::PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected the checks each player still needs, 0 to {limit} (e.g. `3+2`), found `{text}`"),
        }),
    }
}

impl Position {
    /// After a move that ends a turn: a running count goes on by one half-move unless the move
    /// captured or promoted; with none running, or after a capture or a promotion, the first
    /// counting rule whose test holds for the player to move begins its count (over) at 0 (or
    /// from the pieces); failing that, after a capture, the first `for-mover` rule whose test
    /// holds for the player who moved. Where no test holds, a running count goes on. The count
    /// before the move is kept for unmaking.
    pub(crate) fn update_count(&mut self) {
        self.st.clocks.count_history.push(self.st.clocks.count);
        if self.st.slot != 0 || self.st.partial.is_some() {
            return;
        }
        let (limit, ply) = self.st.clocks.count;
        // A capture or a promotion changes what each side has: the rules are judged again.
        let captured = !self.st.last_captured().is_empty();
        let promoted = self.st.history.last().is_some_and(|u| u.mv.promote != 0);
        let judged = limit == 0 || captured || promoted;
        let side = self.side_to_move();
        let rules = self.rules.clone();
        let counts = &rules.variant.end.counting;
        let mut begun = if judged {
            counts.iter().find(|c| !c.for_mover && self.goal_holds(&c.test, side, false)).map(|c| (c, 0))
        } else {
            None
        };
        // After a capture, a `for-mover` rule judged for the player who made it.
        let mover = self.st.history.last().map(|u| u.side);
        if let Some(mover) = mover.filter(|_| begun.is_none() && captured) {
            begun = counts.iter().find(|c| c.for_mover && self.goal_holds(&c.test, mover, false)).map(|c| (c, 1));
        }
        match begun {
            Some((c, short)) => {
                let start = if c.from_pieces { 2 * self.pieces_on_board_total() } else { 0 };
                self.st.clocks.count = (2 * c.moves, start.saturating_sub(short).min(MAX_CLOCK));
            }
            None if limit > 0 => self.st.clocks.count.1 = (ply + 1).min(MAX_CLOCK),
            None => {}
        }
    }

    /// How many pieces stand on the board, all players'.
    fn pieces_on_board_total(&self) -> u32 {
        (0..self.rules.player_count() as u8)
            .flat_map(|p| self.occupied_by(PlayerId(p)).iter().map(move |c| (p, c)))
            .map(|(p, c)| self.pieces_at(c).iter().filter(|q| self.rules.owner(**q).0 == p).count() as u32)
            .sum()
    }

    /// Whether a running count has gone past its limit (the game is then drawn).
    pub(crate) fn counting_ran_out(&self) -> bool {
        let (limit, ply) = self.st.clocks.count;
        limit > 0 && ply > limit
    }

    /// The running count of a counting rule, in half-moves: its limit and how far it has
    /// gone, if one runs.
    pub fn count(&self) -> Option<(u32, u32)> {
        (self.st.clocks.count.0 > 0).then_some(self.st.clocks.count)
    }
}
