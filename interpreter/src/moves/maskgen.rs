//! Legal move generation by the ray masks: where the count's preconditions hold (`count.rs`), a piece the masks hold that is neither royal nor pinned has a legal move to each of its targets, made from the target bits without walking its rays or testing the moves.
//!
//! A piece whose slot is whole (`raymask::whole_moves`: one move type, no promotion) has its
//! moves made from all its targets at once, in cell order; another entry by entry, each ray
//! outward from the piece, as the walk makes them. The royal's targets come from its masks
//! too (in cell order where its slot is whole and marks no passage), each tried in the cell
//! array by the threat tables or the probe walk (where no program may capture and no square
//! may vanish behind it). The pieces the masks do not make (pinned, near an en passant
//! chance, or not held) are generated and tested after the others; then castlings and drops.
//! So the list holds the walk's moves, not always in its order.

use crate::ir::{CellId, MoveMode, PlayerId};
use crate::legal::{is_noisy, retain_from};
use crate::position::{Move, MoveKind, Position, State};
use crate::royal_memo::Pins;
use crate::rules::masks::{Bits, EntryRay, MaskTables, Occupancy, Slot};
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, NO_PROMOTION};

impl State {
    /// The moves of a piece whose slot is whole, which are legal: one per target, in cell order
    /// (`noisy`: the captures only, as none promotes).
    #[inline(always)]
    fn moves_from_targets<B: Bits>(
        &self,
        masks: &MaskTables,
        slot: &Slot,
        (from, piece): (CellId, Piece),
        occ: Occupancy<B>,
        noisy: bool,
        out: &mut Vec<Move>,
    ) {
        let mut t = masks.targets(slot, occ);
        if noisy {
            t = t & occ.enemy;
        }
        let mv = Move::by_power(from, from, piece, slot.move_type, MoveKind::Normal, 0, Piece::EMPTY);
        // In cell order: the plain targets below each passing one, then it (slot 0 passes
        // nothing: most slots are not looked up).
        if slot.passage != 0 {
            let passage = &masks.passages[slot.passage as usize];
            let passing_move = Move { kind: MoveKind::Passage, extra: passage.dir, ..mv };
            let mut passing = t & B::of(passage.cells);
            while passing != B::ZERO {
                let cell = B::cell(passing.lowest());
                passing = passing & !cell;
                let below = t & (cell.through_lowest() ^ cell);
                self.push_targets(mv, below, out);
                self.push_targets(passing_move, cell, out);
                t = t & !(below | cell);
            }
        }
        self.push_targets(mv, t, out);
    }

    /// One move like `mv` to each target, in cell order, taking what stands there.
    #[inline(always)]
    fn push_targets<B: Bits>(&self, mut mv: Move, mut t: B, out: &mut Vec<Move>) {
        while t != B::ZERO {
            let to = t.lowest();
            t = t.without(to);
            mv.to = CellId(to as u16);
            mv.take = self.cells[to as usize];
            out.push(mv);
        }
    }
}

impl Position {
    /// Adds the legal moves of the side to move's pieces, castlings and drops (`noisy`: only
    /// the captures and promotions among them) by the masks where the count applies; `false`
    /// and nothing added where it does not.
    pub(crate) fn legal_moves_by_masks(&mut self, out: &mut Vec<Move>, noisy: bool) -> bool {
        // A forbidden test judges each move on the position after it.
        if !self.rules.paths.allows(crate::paths::Path::MaskMoves) {
            return false;
        }
        let Some((royal, pins, Some(enemies))) = self.counted_royal() else { return false };
        let safe = Some((royal, pins));
        // The rules and the state are separate fields: no reference count taken at every node.
        let r = &*self.rules;
        let tested = if r.cells <= 64 {
            self.st.pieces_by_masks::<u64>(r, royal, &pins, enemies, noisy, out)
        } else {
            self.st.pieces_by_masks::<u128>(r, royal, &pins, enemies, noisy, out)
        };
        let mut tested = tested;
        while tested != 0 {
            let from = CellId(tested.trailing_zeros() as u16);
            tested &= tested - 1;
            let first = out.len();
            self.st.lone_moves(&self.rules, self.st.side, from, noisy, out);
            self.keep_legal(out, first, &safe, noisy);
        }
        let first = out.len();
        let side = self.st.side;
        if !noisy {
            self.st.castling_moves(&self.rules, side, out);
        }
        if let Some(pr) = self.rules.program.as_deref() {
            self.st.drop_moves(&self.rules, pr, side, crate::rules::programs::Only::ANY, out);
        }
        self.keep_legal(out, first, &safe, noisy);
        true
    }

    /// Keeps the legal moves from `first` on (`noisy`: only captures and promotions).
    fn keep_legal(&mut self, out: &mut Vec<Move>, first: usize, safe: &Option<(CellId, Pins)>, noisy: bool) {
        retain_from(out, first, |mv| (!noisy || is_noisy(&mv)) && self.legal_fast(mv, safe));
    }
}

impl State {
    /// The pieces' moves the masks make, by cell: for a piece that is neither pinned nor near
    /// an en passant chance, from its slot's targets where it is whole, else entry by entry in
    /// the walk's order (the royal's targets each tried). Returns the cells of the other pieces,
    /// whose moves are to be generated and tested.
    fn pieces_by_masks<B: Bits>(
        &mut self,
        r: &Rules,
        royal: CellId,
        pins: &Pins,
        enemies: u128,
        noisy: bool,
        out: &mut Vec<Move>,
    ) -> u128 {
        let masks = &r.count.masks;
        let side = self.side;
        let occ = self.occupancy::<B>(side);
        let passed = self.ep_passed_cells();
        // The cells near an en passant chance, found once (most positions have none).
        let near_ep = B::of(if self.rights.ep.is_some() { masks.ep_sources_of(r, side, passed) } else { 0 });
        let pinned = if pins.overflow {
            !B::ZERO
        } else {
            pins.cells[..pins.len as usize].iter().fold(B::ZERO, |m, c| m | B::cell(c.0 as u32))
        };
        // The royal's targets are each tried in the cell array, as the count tries them, where
        // no program may capture and no square vanishes behind it.
        let royal_by_masks = r.paths.allows(crate::paths::Path::RoyalTargets);
        // Neither the royal, pinned nor near an en passant chance: most pieces, told apart with
        // one test.
        let free = !(pinned | near_ep | B::cell(royal.0 as u32));
        let mut tested = 0u128;
        let mut own = B::from_words(self.occupied[side.0 as usize].words());
        while own != B::ZERO {
            let at = own.lowest();
            own = own.without(at);
            let from = CellId(at as u16);
            let piece = self.cells[from.0 as usize];
            let slot = masks.slot(piece, from, r.cells);
            if free.has(at) && slot.whole {
                self.moves_from_targets(masks, slot, (from, piece), occ, noisy, out);
                continue;
            }
            let is_royal = from == royal;
            let by_masks = if is_royal { royal_by_masks && !masks.promotes(slot) } else { !pinned.has(at) };
            let by_masks = by_masks && !(near_ep.has(at) && masks.ep_reach_of(r, side, piece, from) & passed != 0);
            if by_masks && slot.whole && !is_royal {
                self.moves_from_targets(masks, slot, (from, piece), occ, noisy, out);
            } else if by_masks && slot.whole && slot.passage == 0 {
                self.royal_moves_from_targets(r, slot, (from, piece), (occ, enemies), noisy, out);
            } else if by_masks && slot.counted {
                // Asked for captures and promotions: a piece that can make neither is passed
                // over on its slot's targets alone (most pieces, most of the time).
                if noisy && masks.targets(slot, occ) & occ.enemy == B::ZERO && !masks.promotes(slot) {
                    continue;
                }
                let first = out.len();
                self.moves_by_entries(r, from, is_royal, enemies, occ, noisy, out);
                if noisy {
                    // A promotion that may be declined also makes a quiet move.
                    retain_from(out, first, |mv| is_noisy(&mv));
                }
            } else {
                tested |= 1 << at;
            }
        }
        tested
    }

    /// The royal's moves where its slot is whole and marks no passage: one per target, in cell
    /// order, each tried with the royal lifted off its cell.
    #[inline(always)]
    fn royal_moves_from_targets<B: Bits>(
        &mut self,
        r: &Rules,
        slot: &Slot,
        (from, piece): (CellId, Piece),
        (occ, enemies): (Occupancy<B>, u128),
        noisy: bool,
        out: &mut Vec<Move>,
    ) {
        let mut t = r.count.masks.targets(slot, occ);
        if noisy {
            t = t & occ.enemy;
        }
        let side = self.side;
        let lifted = occ.all.wide() & !(1 << (from.0 & 127));
        self.cells[from.0 as usize] = Piece::EMPTY;
        let mut mv = Move::by_power(from, from, piece, slot.move_type, MoveKind::Normal, 0, Piece::EMPTY);
        while t != B::ZERO {
            let to = t.lowest();
            t = t.without(to);
            mv.to = CellId(to as u16);
            mv.take = self.cells[to as usize];
            if !self.royal_attacked_landing(r, mv, side, enemies, lifted) {
                out.push(mv);
            }
        }
        self.cells[from.0 as usize] = piece;
    }

    /// Whether the royal `mv` moves (lifted off its cell, `lifted` the occupancy without it)
    /// is attacked once it stands on `mv.to`, tried in the cell array and put back.
    #[inline(always)]
    fn royal_attacked_landing(&mut self, r: &Rules, mv: Move, side: PlayerId, enemies: u128, lifted: u128) -> bool {
        self.cells[mv.to.0 as usize] = mv.piece;
        let attacked = self.royal_attacked_on(r, mv.to, side, enemies, lifted);
        self.cells[mv.to.0 as usize] = mv.take;
        attacked
    }

    /// The moves of a counted piece entry by entry, each ray outward from the piece (the
    /// royal's targets each tried, with the royal lifted off its cell).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn moves_by_entries<B: Bits>(
        &mut self,
        r: &Rules,
        from: CellId,
        is_royal: bool,
        enemies: u128,
        occ: Occupancy<B>,
        noisy: bool,
        out: &mut Vec<Move>,
    ) {
        let masks = &r.count.masks;
        let side = self.side;
        let piece = self.cells[from.0 as usize];
        let (a, b, _) = r.entries_for(side, r.type_of(piece), from);
        let mut mv = Move::by_power(from, from, piece, 0, MoveKind::Normal, 0, Piece::EMPTY);
        // The board with the royal lifted, as its targets are tried (it no longer blocks there).
        let lifted = occ.all.wide() & !(1 << (from.0 & 127));
        if is_royal {
            self.cells[from.0 as usize] = Piece::EMPTY;
        }
        for (e, ray) in r.tables.entries[a..b].iter().zip(&masks.entry_rays[a..b]) {
            mv.move_type = e.move_type;
            let passes = e.marks_ep && !e.leap;
            // In the walk's order: outward from the piece.
            let mut t = entry_targets(e, ray, occ, noisy);
            while t != B::ZERO {
                let to = if ray.up { t.lowest() } else { t.highest() };
                t = t.without(to);
                mv.to = CellId(to as u16);
                mv.take = self.cells[to as usize];
                if is_royal && self.royal_attacked_landing(r, mv, side, enemies, lifted) {
                    continue;
                }
                (mv.kind, mv.extra) = if passes && mv.to != ray.first {
                    (MoveKind::Passage, e.dir.0 as u16)
                } else {
                    (MoveKind::Normal, 0)
                };
                self.push(r, e.promo, mv, out);
            }
        }
        if is_royal {
            self.cells[from.0 as usize] = piece;
        }
    }
}

/// The cells an entry's ray reaches and may move or capture on (`noisy`: only capture, or
/// move where it may promote), as the ray walk finds them.
#[inline(always)]
fn entry_targets<B: Bits>(e: &Entry, ray: &EntryRay, occ: Occupancy<B>, noisy: bool) -> B {
    let cells = B::of(ray.cells);
    if B::of(ray.lame) & occ.all != B::ZERO {
        return B::ZERO;
    }
    let blockers = cells & occ.all;
    let reach =
        if ray.up { cells & blockers.through_lowest_or_all() } else { cells & blockers.highest_and_above_or_all() };
    let mut t = B::ZERO;
    if e.mode != MoveMode::CaptureOnly && (!noisy || e.promo != NO_PROMOTION) {
        t = t | (reach & occ.land);
        if e.mode == MoveMode::MoveOnly {
            t = t | (reach & occ.join);
        }
    }
    if e.mode != MoveMode::MoveOnly {
        t = t | (reach & occ.enemy);
    }
    t
}
