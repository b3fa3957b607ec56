//! Check and pins read from bit sets: which enemy pieces would attack a cell were their ways clear, and the cells between, so that only those pieces' lines are looked at.
//!
//! The reverse probes from a cell list, per cell along each, the piece types that attack from
//! there. Turned around per piece code, they give the cells from which such a piece would
//! attack the cell (its span); with the cells each probe passes before reaching one of them,
//! a check is an attacker with nothing between, a pin an attacker with one piece of the
//! royal's side between. This is the probe walk's answer exactly: the walk stops at the first
//! piece past the shield, which is either such an attacker or ends the probe without effect.
//! Built on boards of up to 128 cells where the ray masks are; a cell two probes of one
//! player pass through, each past other cells first (irregular boards), leaves that position
//! to the walk. On a board of stacks they read the royal's lines off the cells that may hold
//! a stack: an occupied such cell on them (an enemy piece there on the royal's spans, any
//! piece between it and an attacker) leaves the position to the walk; they are not built
//! where every cell may hold a stack.

use crate::rules::threats::TWO_PROBES;

use crate::ir::{CellId, PlayerId};
use crate::position::State;
use crate::royal_memo::Pins;
use crate::rules::masks::Bits;
use crate::rules::Rules;

/// A position's occupancy (every piece and location without a square) and the cells of the
/// pieces that threaten one side, as a trial in the cell array starts from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrialBoard {
    all: u128,
    enemies: u128,
}

impl State {
    /// The pieces among `enemies` that would attack `cell` were their ways clear: for each,
    /// `f` is given its cell and the cells between and may end the look (`None`), which makes the answer
    /// `Some(true)`; `Some(false)` when it looked at them all; `None` where the walk decides
    /// (a cell two probes of a player pass through past other cells, a cell of `unsure`
    /// between, or an enemy on such a cell within the cell's spans). `unsure`: cells whose contents the tables cannot
    /// read (occupied cells that may hold a stack).
    #[inline(always)]
    fn threats<F: FnMut(usize, u128) -> Option<()>>(
        &self,
        r: &Rules,
        cell: CellId,
        enemies: u128,
        unsure: u128,
        mut f: F,
    ) -> Option<bool> {
        let t = &r.count.threats;
        let mut cand = t.any[cell.0 as usize] & enemies;
        if cand & unsure != 0 {
            return None;
        }
        while cand != 0 {
            let c = cand.trailing_zeros() as usize;
            cand &= cand - 1;
            let q = self.cells[c];
            if t.spans[cell.0 as usize * t.codes + q.0 as usize] >> c & 1 == 0 {
                continue;
            }
            let between = t.between[(r.owner(q).0 as usize * r.cells + cell.0 as usize) * r.cells + c];
            if between == TWO_PROBES || between & unsure != 0 {
                return None;
            }
            if f(c, between).is_none() {
                return Some(true);
            }
        }
        Some(false)
    }

    /// Whether `by` attacks `cell` once the piece on `left` (a capture's origin) has left it,
    /// so that a line through `left` counts: read from the tables where they are exact and the
    /// probes hold every attack; `None` where they cannot tell.
    pub(crate) fn attacked_leaving(&self, r: &Rules, cell: CellId, by: PlayerId, left: CellId) -> Option<bool> {
        if !(r.count.threats.built() && r.paths.allows(crate::paths::Path::ProbeAttacks))
            || cell.0 >= 128
            || left.0 >= 128
        {
            return None;
        }
        let gone = 1u128 << left.0;
        let by_cells = u128::from_words(self.occupied[by.0 as usize].words()) & !gone;
        self.threatened(r, cell, self.occupancy::<u128>(by).all & !gone, by_cells, 0)
    }

    /// The cells of `by`'s pieces that attack `cell` by a probe, with the cells an exchange has
    /// `vacated` (still in the occupancy sets) empty: the cells the probe walk
    /// ([`State::probe_attackers`]) finds, read from the tables where they are exact; `None`
    /// where the walk must find them.
    pub(crate) fn attackers_read(&self, r: &Rules, cell: CellId, by: PlayerId, vacated: u128) -> Option<u128> {
        if !r.count.threats.built() || cell.0 >= 128 {
            return None;
        }
        let by_cells = u128::from_words(self.occupied[by.0 as usize].words()) & !(vacated | 1 << cell.0);
        let all = self.occupancy::<u128>(by).all & !vacated;
        let mut found = 0;
        self.threats(r, cell, by_cells, 0, |c, between| {
            if between & all == 0 {
                found |= 1 << c;
            }
            Some(())
        })?;
        Some(found)
    }

    /// Check and pins of a royal on `royal`, the board's occupancy `all` (every piece and
    /// every location without a square) and `enemies` (the pieces of the players not allied
    /// to its owner): `Some(true)` in check, `Some(false)` with in `pins` the cells of
    /// `shields` that alone stand between it and an attacker, `None` where the walk decides
    /// (see [`State::threats`]). The shields are its owner's pieces for the pins, the
    /// locations without a square for the openings a square put there would make.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn lines_to(
        &self,
        r: &Rules,
        royal: CellId,
        shields: u128,
        all: u128,
        enemies: u128,
        unsure: u128,
        pins: &mut Pins,
    ) -> Option<bool> {
        (pins.len, pins.overflow) = (0, false);
        self.threats(r, royal, enemies, unsure, |_, between| {
            let b = between & all;
            if b == 0 {
                return None;
            }
            if b & (b - 1) == 0 && b & shields != 0 {
                pins.add(CellId(b.trailing_zeros() as u16));
            }
            Some(())
        })
    }

    /// Whether a piece among `enemies` attacks `cell` (of a player not allied to `side`),
    /// `all` the occupancy the cell array holds now; `None` where the walk decides (see
    /// [`State::threats`]).
    #[inline(always)]
    pub(crate) fn threatened(&self, r: &Rules, cell: CellId, all: u128, enemies: u128, unsure: u128) -> Option<bool> {
        self.threats(r, cell, enemies, unsure, |_, between| (between & all != 0).then_some(()))
    }

    /// Whether a player threatening `side` attacks `cell` by the probes, read from the tables,
    /// after a trial in the cell array has emptied the cells of `emptied` and put a piece of
    /// `side`'s on those of `own` and an enemy's on those of `theirs` (the occupancy sets, not
    /// updated by a trial, show the cells as before it): the probe walk's answer, `None` where
    /// the tables cannot tell it (the probes miss some attacks, blasts, pieces between cells).
    #[inline]
    pub(crate) fn attacked_in_trial(
        &self,
        r: &Rules,
        cell: CellId,
        side: PlayerId,
        emptied: u128,
        filled: (u128, u128),
    ) -> Option<bool> {
        let board = self.trial_board(r, side)?;
        self.attacked_on_trial_board(r, board, cell, emptied, filled)
    }

    /// What [`State::attacked_in_trial`] reads of the position before a trial, where the
    /// tables tell `side`'s attackers (else `None`): the same for every trial of a position.
    #[inline]
    pub(crate) fn trial_board(&self, r: &Rules, side: PlayerId) -> Option<TrialBoard> {
        if !(r.count.threats.built() && r.paths.allows(crate::paths::Path::ThreatTrial)) {
            return None;
        }
        Some(TrialBoard { all: self.occupancy::<u128>(side).all, enemies: self.enemy_cells(r, side) })
    }

    /// [`State::attacked_in_trial`] from the board read before the trial.
    #[inline]
    pub(crate) fn attacked_on_trial_board(
        &self,
        r: &Rules,
        board: TrialBoard,
        cell: CellId,
        emptied: u128,
        (own, theirs): (u128, u128),
    ) -> Option<bool> {
        if cell.0 >= 128 {
            return None;
        }
        let all = (board.all & !emptied) | own | theirs;
        let enemies = (board.enemies & !(emptied | own)) | theirs;
        self.threatened(r, cell, all, enemies, 0)
    }

    /// [`State::lines_to`] for `side`'s royal on a board of stacks, off the cells that may hold
    /// one: their lines read as those of single pieces unless an occupied such cell lies on one
    /// of them (an enemy piece there on the royal's spans, or any piece between it and an
    /// attacker), where the walk decides (`None`).
    #[inline]
    pub(crate) fn lines_off_stacks(&self, r: &Rules, royal: CellId, side: PlayerId, pins: &mut Pins) -> Option<bool> {
        let t = &r.count.threats;
        if !t.for_stacks() || t.stackable(royal) {
            return None;
        }
        let all = self.occupancy::<u128>(side).all;
        let own = u128::from_words(self.occupied[side.0 as usize].words());
        self.lines_to(r, royal, own, all, self.enemy_cells(r, side), t.unsure(all), pins)
    }

    /// Whether `side`'s royal, lifted off its cell (`lifted`: the occupancy without it) and set
    /// on `to` in the cell array, would be attacked by a piece among `enemies` (the cells of
    /// the players not allied to `side`): from the tables where they decide, else by the
    /// probe walk.
    #[inline]
    pub(crate) fn royal_attacked_on(&self, r: &Rules, to: CellId, side: PlayerId, enemies: u128, lifted: u128) -> bool {
        if r.count.threats.built() {
            if let Some(attacked) = self.threatened(r, to, lifted, enemies, 0) {
                return attacked;
            }
        }
        self.attacked_through(r, to, side, enemies)
    }

    /// The cells of the pieces that threaten `side`'s (see [`Rules::threatens`]; on the first
    /// 128 cells).
    #[inline]
    pub(crate) fn enemy_cells(&self, r: &Rules, side: PlayerId) -> u128 {
        let mut cells = 0;
        for (p, set) in self.occupied.iter().enumerate().take(r.players) {
            if r.threatens(PlayerId(p as u8), side) {
                cells |= u128::from_words(set.words());
            }
        }
        cells
    }
}
