//! What each position learns once of the side to move's royal piece: whether it is in check, and where the count by rays applies, its cell, the pieces pinned to it and the enemy pieces' cells.

use crate::ir::CellId;
use crate::position::{Position, State};
use crate::royal_memo::{Pins, RoyalMemo};
use crate::rules::masks::Bits;
use crate::rules::Rules;

impl Position {
    /// Where the count applies now (see the module doc): the side to move's single royal
    /// piece's cell, the pieces pinned to it and (with ray masks) the enemy pieces' cells;
    /// `None` in check, with no single royal, partway through a move, with pieces kept apart
    /// standing too near, or where a program of the enemy's may reach the royal.
    #[inline]
    pub(crate) fn counted_royal(&mut self) -> Option<(CellId, Pins, Option<u128>)> {
        self.royal_memo().counted()
    }

    /// The position as the royal memo knows it: its hash and the moves made to it.
    #[inline]
    fn memo_key(&self) -> (u64, u32) {
        (self.st.hash, self.st.history.len() as u32)
    }

    /// Whether the side to move has a royal piece under attack.
    pub fn in_check(&self) -> bool {
        let m = &self.royal_memo;
        if (m.hash, m.ply) == self.memo_key() {
            m.check
        } else {
            self.st.royal_attacked(&self.rules, self.st.side)
        }
    }

    /// [`Position::in_check`], remembered for this position with what the count needs (a
    /// search asks whether a move gave check, then the reply asks again and generates with
    /// the pins).
    #[inline]
    pub(crate) fn in_check_learnt(&mut self) -> bool {
        self.royal_memo().check
    }

    /// Whether the pieces kept apart stand far enough apart, learnt once per position.
    #[inline]
    pub(crate) fn kept_apart_learnt(&mut self) -> bool {
        self.rules.apart.is_empty() || self.royal_memo().apart
    }

    /// The side to move's check and the count's royal, learnt once per position.
    #[inline]
    pub(crate) fn royal_memo(&mut self) -> &RoyalMemo {
        let (hash, ply) = self.memo_key();
        if (self.royal_memo.hash, self.royal_memo.ply) != (hash, ply) {
            learn_royal(&self.rules, &self.st, hash, ply, &mut self.royal_memo);
        }
        &self.royal_memo
    }
}

/// [`Position::royal_memo`] computed into `m`: where the count applies, the bit sets of the
/// threats (or one walk of the probes) from the royal tell both the check and the pins.
fn learn_royal(r: &Rules, st: &State, hash: u64, ply: u32, m: &mut RoyalMemo) {
    (m.hash, m.ply, m.check, m.counted) = (hash, ply, false, false);
    m.apart = r.apart.is_empty() || st.kept_apart(r);
    let side = st.side;
    let attacked = || st.royal_attacked(r, side);
    if !(r.count.applies || r.count.stacked) || st.partial.is_some() {
        m.check = attacked();
        return;
    }
    let mut royals = st.royals[side.0 as usize].iter();
    let (Some(royal), None) = (royals.next(), royals.next()) else {
        m.check = attacked();
        return;
    };
    // Pieces kept apart that stand too near already make every move answer for them, as a
    // check does: the count's pins do not see them.
    if !m.apart {
        m.check = attacked();
        return;
    }
    if r.count.stacked || r.between.on {
        // Crowds, pieces between cells: the attack test and the pins that read them (no
        // ray masks to check). A royal between cells is tested move by move.
        if r.is_between(royal) {
            m.check = attacked();
            return;
        }
        let pins = if r.paths.allows(crate::paths::Path::StackLines) {
            // Off the cells that may hold a stack, the board's lines read as those of single
            // pieces (the royal stands apart, capturable).
            match st.lines_off_stacks(r, royal, side, &mut m.pins) {
                Some(true) => None,
                Some(false) => Some(m.pins),
                None => st.stacked_pins_unless_check(r, royal, side),
            }
        } else if r.paths.allows(crate::paths::Path::ProbeAttacks) {
            st.pins_unless_attacked(r, royal, side)
        } else if attacked() {
            None
        } else {
            Some(st.pinned(r, royal, side))
        };
        let Some(pins) = pins else {
            m.check = true;
            return;
        };
        if r.count.program_attacks && st.programs_may_take(r, royal, side) {
            return;
        }
        (m.royal, m.pins, m.enemies, m.counted) = (royal, pins, None, true);
        return;
    }
    // With masks: the pieces of the players not allied to the side to move.
    let enemies = (!r.count.masks.fits.is_empty()).then(|| st.enemy_cells(r, side));
    let told = match enemies {
        Some(e) if r.count.threats.built() => {
            let own = u128::from_words(st.occupied[side.0 as usize].words());
            st.lines_to(r, royal, own, st.occupancy::<u128>(side).all, e, 0, &mut m.pins)
        }
        _ => None,
    };
    let check = match told {
        Some(check) => check,
        None => match st.pins_unless_check(r, royal, side, enemies) {
            Some(pins) => {
                m.pins = pins;
                false
            }
            None => true,
        },
    };
    if check {
        m.check = true;
        return;
    }
    if r.count.program_attacks && st.programs_may_take(r, royal, side) {
        m.check = attacked();
        return;
    }
    (m.royal, m.enemies, m.counted) = (royal, enemies, true);
}
