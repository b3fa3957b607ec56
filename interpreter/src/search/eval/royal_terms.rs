//! The evaluation's terms around royal pieces: open lines to them, attacked cells beside them, and the cornering of a lone royal when one side leads.

use super::{Evaluator, CORNERING_LEAD};
use crate::ir::PlayerId;
use crate::position::Position;
use crate::rules::Piece;

impl Evaluator {
    /// The empty cells on the lines from `player`'s royal pieces, each up to its first piece or
    /// missing square, however far: lines an enemy piece could come down.
    pub(super) fn open_lines(&self, pos: &Position, player: PlayerId) -> i32 {
        let cells = &pos.st.cells;
        let mut n = 0;
        for royal in pos.royal_cells(player) {
            for line in &self.lines[royal.0 as usize] {
                // The cell array holds a stack's first piece and a covering piece, and a hole
                // where there is no square: empty there is empty everywhere.
                n += line.iter().take_while(|c| cells[c.0 as usize] == Piece::EMPTY).count();
            }
        }
        n as i32
    }

    /// The cells next to `player`'s royal pieces that an enemy attacks (for the tuner, which
    /// needs the feature whatever its weight).
    pub(super) fn royal_zone(&self, pos: &Position, player: PlayerId) -> i32 {
        let r = &**pos.rules();
        let mut n = 0;
        for royal in pos.royal_cells(player) {
            for q in (0..r.player_count()).map(|q| PlayerId(q as u8)).filter(|q| !r.allied(*q, player)) {
                n += self.near1[royal.0 as usize].iter().filter(|&c| c != royal && pos.is_attacked(c, q)).count();
            }
        }
        n as i32
    }
}

impl Evaluator {
    /// The cornering feature from `me`'s view in a game of two players: when one of them leads
    /// in material by [`CORNERING_LEAD`] or more, the steps by which the other's royal stands
    /// nearer the rim than the deepest cell, plus the steps by which the two royals stand
    /// nearer each other than the board's diameter; positive for the leader.
    pub(super) fn cornering_feature(&self, pos: &Position, me: PlayerId, material: &[i64; 2]) -> i32 {
        let Some(k) = &self.cornering else { return 0 };
        if pos.rules().player_count() != 2 {
            return 0;
        }
        let lead = material[0] - material[1];
        let (leader, sign) = match lead {
            l if l >= CORNERING_LEAD => (PlayerId(0), 1),
            l if l <= -CORNERING_LEAD => (PlayerId(1), -1),
            _ => return 0,
        };
        let (Some(own), Some(other)) = (pos.royal_cells(leader).next(), pos.royal_cells(PlayerId(1 - leader.0)).next())
        else {
            return 0;
        };
        let (own, other) = (own.0 as usize, other.0 as usize);
        let rim = k.deepest.saturating_sub(k.rim[other]) as i32;
        let near = k.diameter.saturating_sub(k.steps[own * k.cells + other]) as i32;
        let f = sign * (rim + near);
        if me.0 == 0 {
            f
        } else {
            -f
        }
    }
}
