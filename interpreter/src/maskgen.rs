//! Legal move generation by the ray masks: where the count's preconditions hold (`count.rs`), a piece the masks hold whole that is neither royal nor pinned has a legal move to each of its targets, made from the target bits without walking its rays or testing the moves.
//!
//! The royal's targets come from its masks too, each tried in the cell array by the probe
//! walk (where no program may capture and no square may vanish behind it). A pinned piece and
//! one near an en passant chance are generated and tested as before. The moves come in the
//! walk's order: pieces by cell, each piece's entries in turn, each ray outward from the piece;
//! then castlings and drops.

use crate::attack::Pins;
use crate::ir::{CellId, MoveMode};
use crate::legal::{is_noisy, retain_from};
use crate::position::{Move, MoveKind, Position};
use crate::raymask::{Bits, EntryRay, Occupancy};
use crate::rules::{Piece, Rules};
use crate::tables::{Entry, NO_PROMOTION};

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
        let rules = self.rules.clone();
        let r = &*rules;
        let safe = Some((royal, pins));
        if r.cells <= 64 {
            self.generate_pieces::<u64>(r, royal, &safe, enemies, noisy, out);
        } else {
            self.generate_pieces::<u128>(r, royal, &safe, enemies, noisy, out);
        }
        let first = out.len();
        let side = self.st.side;
        if !noisy {
            self.st.castling_moves(r, side, out);
        }
        if let Some(pr) = r.program.as_deref() {
            self.st.drop_moves(r, pr, side, crate::program::Only::ANY, out);
        }
        self.keep_legal(out, first, &safe, noisy);
        true
    }

    /// The pieces' moves, by cell: made from the masks for a counted piece that is neither
    /// pinned nor near an en passant chance (the royal's each tried); else generated and
    /// tested.
    fn generate_pieces<B: Bits>(
        &mut self,
        r: &Rules,
        royal: CellId,
        safe: &Option<(CellId, Pins)>,
        enemies: u128,
        noisy: bool,
        out: &mut Vec<Move>,
    ) {
        let masks = &r.count.masks;
        let side = self.st.side;
        let occ = self.st.occupancy::<B>(side);
        let passed = self.st.ep_passed_cells();
        let ep = self.st.ep.is_some();
        // The pinned pieces: tested.
        let pinned = match safe {
            Some((_, pins)) if !pins.overflow => {
                pins.cells[..pins.len as usize].iter().fold(B::ZERO, |m, c| m | B::cell(c.0 as u32))
            }
            _ => !B::ZERO,
        };
        // The royal's targets are each tried in the cell array, as the count tries them, where
        // no program may capture and no square vanishes behind it.
        let royal_by_masks = r.paths.allows(crate::paths::Path::RoyalTargets);
        // The board with the royal lifted, as its targets are tried.
        let lifted = occ.all.wide() & !(1 << (royal.0 & 127));
        let mut own = B::from_words(self.st.occupied[side.0 as usize].words());
        while own != B::ZERO {
            let at = own.lowest();
            own = own.without(at);
            let from = CellId(at as u16);
            let piece = self.st.cells[from.0 as usize];
            let slot = masks.slot(piece, from, r.cells);
            let is_royal = from == royal;
            let by_masks = if is_royal { royal_by_masks && !masks.promotes(slot) } else { !pinned.has(at) };
            if slot.counted && by_masks && !(ep && masks.ep_reach_of(r, side, piece, from) & passed != 0) {
                // Asked for captures and promotions: a piece that can make neither is passed
                // over on its slot's targets alone (most pieces, most of the time).
                if noisy && masks.targets(slot, occ) & occ.enemy == B::ZERO && !masks.promotes(slot) {
                    continue;
                }
                let (a, b, _) = r.entries_for(side, r.type_of(piece), from);
                let first = out.len();
                let mut mv = Move::by_power(from, from, piece, 0, MoveKind::Normal, 0, Piece::EMPTY);
                // The royal off its cell while its targets are tried (it no longer blocks there).
                if is_royal {
                    self.st.cells[from.0 as usize] = Piece::EMPTY;
                }
                for (e, ray) in r.entries[a..b].iter().zip(&masks.entry_rays[a..b]) {
                    mv.move_type = e.move_type;
                    let passes = e.marks_ep && !e.leap;
                    // In the walk's order: outward from the piece.
                    let mut t = entry_targets(e, ray, occ, noisy);
                    while t != B::ZERO {
                        let to = if ray.up { t.lowest() } else { t.highest() };
                        t = t.without(to);
                        mv.to = CellId(to as u16);
                        mv.take = self.st.cells[to as usize];
                        if is_royal {
                            self.st.cells[to as usize] = piece;
                            let attacked = self.st.royal_attacked_on(r, mv.to, side, enemies, lifted);
                            self.st.cells[to as usize] = mv.take;
                            if attacked {
                                continue;
                            }
                        }
                        (mv.kind, mv.extra) = if passes && mv.to != ray.first {
                            (MoveKind::Passage, e.dir.0 as u16)
                        } else {
                            (MoveKind::Normal, 0)
                        };
                        self.st.push(r, e.promo, mv, out);
                    }
                }
                if is_royal {
                    self.st.cells[from.0 as usize] = piece;
                }
                if noisy {
                    // A promotion that may be declined also makes a quiet move.
                    retain_from(out, first, |mv| is_noisy(&mv));
                }
                continue;
            }
            let first = out.len();
            self.st.lone_moves(r, side, from, noisy, out);
            self.keep_legal(out, first, safe, noisy);
        }
    }

    /// Keeps the legal moves from `first` on (`noisy`: only captures and promotions).
    fn keep_legal(&mut self, out: &mut Vec<Move>, first: usize, safe: &Option<(CellId, Pins)>, noisy: bool) {
        retain_from(out, first, |mv| (!noisy || is_noisy(&mv)) && self.legal_fast(mv, safe));
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
