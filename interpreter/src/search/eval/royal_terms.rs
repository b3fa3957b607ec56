//! The evaluation's terms around royal pieces: open lines to them, attacked cells beside them, drops that could land beside them, castling kept or done, and the cornering of a lone royal when one side leads.

use super::{Evaluator, CORNERING_LEAD};
use crate::ir::PlayerId;
use crate::position::Position;
use crate::rules::masks::Bits;
use crate::rules::Piece;

/// The most pieces in hand the hand-drops term counts: beyond a few, more add no new threat.
const HAND_CAP: u32 = 8;

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

    /// The attack on `player`'s royal pieces: per royal, the enemy pieces whose moves land on
    /// it or next to it, times the cells of that zone they land on together. Squared in effect
    /// (two pieces bearing on three cells each count 12, one alone 3), as one attacker rarely
    /// mates and several do. Read from the ray masks, as the mobility count reads them: a piece
    /// whose moves the masks do not hold (programs, en passant) is left out, and games whose
    /// boards exceed 128 cells count nothing.
    pub(super) fn royal_attack(&self, pos: &Position, player: PlayerId) -> i32 {
        let r = &**pos.rules();
        if self.empty_reach.is_empty() || pos.st.partial.is_some() {
            return 0;
        }
        if r.cells <= 64 {
            self.royal_attack_in::<u64>(pos, player)
        } else {
            self.royal_attack_in::<u128>(pos, player)
        }
    }

    fn royal_attack_in<B: Bits>(&self, pos: &Position, player: PlayerId) -> i32 {
        let r = &**pos.rules();
        let st = &pos.st;
        let masks = &r.count.masks;
        let mut total = 0;
        for royal in st.royals[player.0 as usize].iter() {
            let zone = B::from_words(self.near1[royal.0 as usize].words());
            let (mut pieces, mut cells) = (0, 0);
            for &q in &self.enemies[player.0 as usize] {
                let occ = st.occupancy::<B>(q);
                for from in st.occupied[q.0 as usize].iter() {
                    let piece = st.cells[from.0 as usize];
                    let at = piece.0 as usize * r.cells + from.0 as usize;
                    // A piece that could not reach the zone on the empty board cannot here.
                    if B::of(self.empty_reach[at]) & zone == B::ZERO || r.pieces.royal_code[piece.0 as usize] {
                        continue;
                    }
                    let slot = masks.slot(piece, from, r.cells);
                    if !slot.counted {
                        continue;
                    }
                    let within = masks.targets_within(slot, occ, zone);
                    debug_assert!(within == masks.targets(slot, occ) & zone, "the zone's rays give its targets");
                    let hit = within.ones();
                    if hit > 0 {
                        pieces += 1;
                        cells += hit as i32;
                    }
                }
            }
            total += pieces * cells;
        }
        total
    }

    /// The drops that threaten `player`'s royal pieces: per royal, the pieces its enemies hold
    /// in hand (up to [`HAND_CAP`]) times the empty cells next to it. A piece in hand can land
    /// anywhere at once, so the empty cells beside a royal piece are its open doors.
    pub(super) fn hand_drops(&self, pos: &Position, player: PlayerId) -> i32 {
        if pos.st.hand.is_empty() {
            return 0;
        }
        let held: u32 = self.enemies[player.0 as usize].iter().flat_map(|q| pos.hand(*q)).map(|(_, n)| n).sum();
        if held == 0 {
            return 0;
        }
        let cells = &pos.st.cells;
        let mut doors = 0;
        for royal in pos.royal_cells(player) {
            doors += self.near1[royal.0 as usize].iter().filter(|c| cells[c.0 as usize] == Piece::EMPTY).count();
        }
        held.min(HAND_CAP) as i32 * doors as i32
    }

    /// 1 when `player` still holds a castling right or one of its royal pieces stands where
    /// one of its castlings ends, else 0: a royal piece that gave up castling by walking away
    /// counts 0 (the king walked to d2 in chess), one castled counts as one that still may.
    pub(super) fn castle_feature(&self, pos: &Position, player: PlayerId) -> i32 {
        let Some((bits, ends)) = self.castles.get(player.0 as usize) else { return 0 };
        if *bits == 0 {
            return 0;
        }
        let held = pos.castling_rights() & bits != 0;
        i32::from(held || super::counted::common(ends, &pos.st.royals[player.0 as usize]) > 0)
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
