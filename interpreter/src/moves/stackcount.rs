//! The count on boards of stacks: the cells' occupancy rules read once per position into the ray masks' landing sets, so that a lone piece that is neither royal nor pinned has its legal moves counted from its masks as on a board of single pieces.
//!
//! A cell ends a ray unless it is empty or holds a lone inert piece; each cell a ray reaches
//! makes as many moves as the stack walk (`State::piece_moves_stacked`) would make there:
//! one to an empty cell, one per capture choice and join to an occupied one. The move of a
//! lone piece that is not pinned changes no line to its royal (a stack it leaves or joins
//! stays occupied), so it is legal when the royal is not attacked, except where it lands on
//! the royal's cell, wakes a lone inert enemy piece that could then attack the royal, may
//! leave a crowd as one inert piece (seen through) or may begin a phase that changes the
//! cells' rules: a piece whose targets include such a cell, or a cell of several capture
//! choices, is generated and tested, as are the pieces of a crowd or on an inert cell, castlings
//! and drops. The royal's targets are tried in the cell array.

use crate::ir::{CaptureRule, CellId, Condition, PlayerId};
use crate::paths::Path;
use crate::position::{Move, State};
use crate::royal_memo::Pins;
use crate::rules::masks::{Bits, Occupancy};
use crate::rules::programs::Only;
use crate::rules::{Piece, Rules};

impl State {
    /// Whether the count may read this board of stacks now, and if so whether a capture may
    /// begin a phase that changes the occupancy rules (such a capture is then tested).
    /// `None` where a move of another kind may begin one.
    pub(crate) fn stacked_count_now(&self, r: &Rules) -> Option<bool> {
        let pending = r.stacks.phases & !self.phases;
        if pending == 0 {
            return Some(false);
        }
        if !r.stacks.phases_on_capture {
            return None;
        }
        // Phases beginning on a count of pieces: does one hold with the pieces a capture leaves?
        let left = |k: u32| self.piece_count.saturating_sub(k);
        let may = |c: &Condition, k: u32| counted_condition(c, left(k)) != Some(false);
        // The pending phases by their bits (a walk of all 32 was a tenth of the count's wrapper).
        let mut rest = pending;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            if (1..=r.count.most_taken.min(self.piece_count)).any(|k| may(&r.variant.phases[i].when, k)) {
                return Some(true);
            }
        }
        Some(false)
    }
}

/// A condition on the number of pieces alone, evaluated for `pieces` on the board (`None` for
/// any other condition).
fn counted_condition(c: &Condition, pieces: u32) -> Option<bool> {
    match c {
        Condition::PieceCount(op, n) => Some(op.holds(pieces, *n)),
        Condition::Not(inner) => counted_condition(inner, pieces).map(|b| !b),
        _ => None,
    }
}

/// The landing sets of a board of stacks for one player, with the cells a count cannot read.
#[derive(Clone, Copy)]
pub(crate) struct StackOccupancy<B> {
    pub(crate) occ: Occupancy<B>,
    /// Cells where a capturing power makes several moves (capture choices, or a capture and a
    /// join), or where a capture may leave one inert piece (a crowd taken whole on an inert
    /// cell: the cell, which blocked, is then seen through).
    pub(crate) several: B,
    /// Cells of two pieces or more.
    pub(crate) crowds: B,
    /// Cells whose lone piece is inert now; those of them holding a lone enemy piece (which a
    /// join wakes).
    pub(crate) inert: B,
    pub(crate) woken: B,
}

impl State {
    /// The cells `piece` may not move to for a piece it keeps apart from (of its type, the other
    /// of the first two players'), as [`State::kept_apart`] judges (the types kept apart are
    /// royal).
    fn kept_from(&self, r: &Rules, piece: Piece) -> u128 {
        let ty = r.type_of(piece);
        let other = match r.owner(piece).0 {
            0 => PlayerId(1),
            1 => PlayerId(0),
            _ => return 0,
        };
        let Some((_, near)) = r.count.apart.iter().find(|(t, _)| *t == ty) else { return 0 };
        let code = r.piece(other, ty);
        self.royals[other.0 as usize]
            .iter()
            .filter(|c| self.pieces_at(r, *c).contains(&code))
            .fold(0, |m, c| m | near[c.0 as usize])
    }

    /// Of the cells `woken` (each holding a lone enemy piece), those whose piece could attack
    /// `royal` along a probe were the cells between empty.
    fn wake_threats(&self, r: &Rules, royal: CellId, side: PlayerId, woken: u128) -> u128 {
        let mut threats = 0;
        for p in (0..r.players as u8).map(PlayerId).filter(|p| r.threatens(*p, side)) {
            for probe in self.probes_holding(r, royal, p) {
                let s = probe.start as usize;
                for (k, c) in r.tables.probe_cells[s..s + probe.len as usize].iter().enumerate() {
                    let q = self.cells[c.0 as usize];
                    if woken & 1 << c.0 != 0 && r.owner(q) == p && r.probe_has(s + k, r.type_of(q)) {
                        threats |= 1 << c.0;
                    }
                }
            }
        }
        threats
    }

    /// The board of stacks as `side`'s ray masks see it (see the module doc): lone pieces by
    /// the cells' rules as masks, each crowd by its pieces.
    #[inline(always)]
    pub(crate) fn stack_occupancy<B: Bits>(&self, r: &Rules, side: PlayerId) -> StackOccupancy<B> {
        let own = B::from_words(self.occupied[side.0 as usize].words());
        let pieces = self.occupied.iter().fold(B::ZERO, |a, s| a | B::from_words(s.words()));
        let crowds = B::from_words(self.crowds.words());
        let phases = self.phases & r.stacks.phases;
        let rules = r.count.stack_rules.iter().find(|s| s.phases == phases).expect("a set of phases");
        let inert = B::of(rules.inert);
        let lone = pieces & !crowds;
        let seen_through = lone & inert;
        let lone_enemy = lone & !own & !inert;
        let mut all = (pieces | B::from_words(self.no_square.words())) & !seen_through;
        let land = !(pieces | B::from_words(self.no_square.words())) | (seen_through & B::of(rules.inert_joined));
        let mut enemy = lone_enemy;
        let mut join = lone_enemy & B::of(rules.lone_joined);
        let mut several = B::ZERO;
        let mut cells = crowds;
        while cells != B::ZERO {
            let at = cells.lowest();
            cells = cells.without(at);
            let cell = CellId(at as u16);
            let stack = self.pieces_at(r, cell);
            let n = stack.len();
            let rule = r.occupancy(cell, self.phases);
            let fits = |after: usize| rule.capacity.is_none_or(|c| after <= c as usize);
            let enemy_of = |q: &Piece| !r.allied(r.owner(*q), side);
            let enemies = stack.iter().filter(|q| enemy_of(q)).count();
            if enemies == 0 {
                continue;
            }
            // As `State::piece_moves_stacked` lands on a crowd: captures (one per enemy kind,
            // or all of them at once) and a join by any power.
            let captures = if rule.crowd_safe {
                0
            } else if rule.capture == CaptureRule::All {
                usize::from(fits(n - enemies + 1))
            } else if fits(n) {
                stack.iter().enumerate().filter(|(k, q)| enemy_of(q) && (*k == 0 || stack[k - 1] != **q)).count()
            } else {
                0
            };
            let joins = usize::from(fits(n + 1) && rule.join_mixed_crowd);
            let seen_after = inert.has(at) && rule.capture == CaptureRule::All;
            match captures + joins {
                0 => {}
                1 if !seen_after => enemy = enemy | B::cell(at),
                _ => several = several | B::cell(at),
            }
            if joins == 1 {
                join = join | B::cell(at);
            }
        }
        all = all | crowds;
        let woken = seen_through & !own;
        StackOccupancy { occ: Occupancy { all, enemy, land, join }, several, crowds, inert, woken }
    }

    /// The legal moves of `side`'s lone pieces that the masks count (see the module doc); the
    /// other pieces' pseudo-legal moves are pushed on `buf` to be tested. Also the royal's
    /// targets where its masks hold its moves, each one move to an empty cell or a capture of
    /// a lone piece, to be tried in the cell array (none where it stands in a crowd).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn count_stacked<B: Bits>(
        &self,
        r: &Rules,
        side: PlayerId,
        royal: CellId,
        pins: &Pins,
        captures_tested: bool,
        buf: &mut Vec<Move>,
    ) -> (u64, u128) {
        let masks = &r.count.masks;
        let StackOccupancy { occ, several, crowds, inert, woken } = self.stack_occupancy::<B>(r, side);
        let royal_bit = B::cell(royal.0 as u32);
        // Targets that make a move the count cannot read or cannot call legal: several moves,
        // the royal's cell, a lone inert enemy piece that could attack the royal from its cell
        // (joined, it wakes), and with `captures_tested` every capture (it may begin a phase
        // that changes the cells' rules). An empty inert cell is a plain target: the piece is
        // seen through there, as if it had left the board; a lone inert piece of the side's
        // wakes harmlessly, and a crowd there stays one.
        let own = B::from_words(self.occupied[side.0 as usize].words());
        let captures = if captures_tested { occ.enemy | several } else { B::ZERO };
        let threats = if woken == B::ZERO || r.program.is_some() {
            woken
        } else {
            B::of(self.wake_threats(r, royal, side, woken.wide()))
        };
        let odd = several | threats | captures | (royal_bit & (occ.enemy | occ.join | occ.land));
        // Every cell any power reaches, whatever stands there.
        let reach = Occupancy { all: occ.all, enemy: occ.all, land: !occ.all, join: occ.all };
        let pinned = if pins.overflow {
            !B::ZERO
        } else {
            pins.cells[..pins.len as usize].iter().fold(B::ZERO, |m, c| m | B::cell(c.0 as u32))
        };
        let general = pinned | crowds | royal_bit | inert;
        let ep = self.rights.ep.is_some();
        let passed = self.ep_passed_cells();
        let mut n = 0;
        let mut royal_targets = 0;
        let mut own = own;
        while own != B::ZERO {
            let at = own.lowest();
            own = own.without(at);
            let from = CellId(at as u16);
            // Pieces kept apart are royal: their moves are tested.
            let royal_tried = r.paths.allows(Path::StackedRoyalTargets) && !captures_tested;
            if from == royal && !(crowds | inert).has(at) && royal_tried {
                let piece = self.cells[at as usize];
                let slot = masks.slot(piece, from, r.cells);
                if slot.counted
                    && !masks.promotes(slot)
                    && !(ep && masks.ep_reach_of(r, side, piece, from) & passed != 0)
                {
                    // Onto a crowd or a cell of inert pieces: the royal's moves are tested.
                    let t = masks.targets(slot, Occupancy { enemy: occ.enemy | several, ..occ });
                    if t & (crowds | inert | several) == B::ZERO {
                        royal_targets = t.wide() & !self.kept_from(r, piece);
                        continue;
                    }
                }
            }
            if !general.has(at) {
                let piece = self.cells[at as usize];
                let near_ep = ep && masks.ep_reach_of(r, side, piece, from) & passed != 0;
                let slot = masks.slot(piece, from, r.cells);
                if slot.counted && !near_ep && (odd == B::ZERO || masks.targets(slot, reach) & odd == B::ZERO) {
                    n += masks.count::<B, false>(slot, occ);
                    continue;
                }
            }
            let stack = self.pieces_at(r, from);
            for (k, &piece) in stack.iter().enumerate() {
                // A stack is sorted, so equal pieces are neighbours: each kind moves once.
                if r.owner(piece) == side && (k == 0 || stack[k - 1] != piece) {
                    self.moves_of(r, side, from, piece, Only::ANY, buf);
                }
            }
        }
        (n, royal_targets)
    }
}
