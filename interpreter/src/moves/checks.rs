//! Whether a quiet move gives check, told before it is made: the search prunes the quiet moves that cannot lift a hopeless position unless they check, and making each one to ask cost a fifth of a chess search's time.

use crate::ir::{CellId, PlayerId};
use crate::moves::threats::TrialBoard;
use crate::paths::Path;
use crate::position::{Move, MoveKind, Position};
use crate::rules::masks::Bits;
use crate::rules::programs::PLAIN_DROP;
use crate::rules::Piece;

/// What the trial needs, found once per position: the other player's royal and the mover's
/// cells (with ray masks, to skip the probes that hold none of them).
#[derive(Clone, Copy, Debug)]
pub(crate) struct CheckTrial {
    royal: CellId,
    opponent: PlayerId,
    movers: u128,
    /// The board the threat tables read the trials from (the mover's pieces threatening the
    /// royal), where they tell.
    board: Option<TrialBoard>,
}

impl Position {
    /// A check trial, where one is sound: plain moves may be tried in the cell array
    /// (`Rules::cell_trials`), the other player's single royal is attacked exactly when a
    /// reverse probe from it meets an attacker first (the count's precondition), and the
    /// position is not partway through a move.
    pub(crate) fn check_trial(&self) -> Option<CheckTrial> {
        let r = &*self.rules;
        let st = &self.st;
        if !r.paths.allows(Path::CheckTrial) || st.partial.is_some() {
            return None;
        }
        let opponent = PlayerId(1 - st.side.0);
        let mut royals = st.royals[opponent.0 as usize].iter();
        let (Some(royal), None) = (royals.next(), royals.next()) else { return None };
        // Without ray masks no probe is skipped.
        let movers =
            if r.count.masks.fits.is_empty() { !0 } else { u128::from_words(st.occupied[st.side.0 as usize].words()) };
        let board = st.trial_board(r, opponent).filter(|_| r.threatens(st.side, opponent));
        Some(CheckTrial { royal, opponent, movers, board })
    }

    /// Whether the side to move's `mv` would attack the other player's royal: `None` unless
    /// it is a plain quiet move (a step, slide or leap without capture or promotion), which
    /// is tried in the cell array alone.
    pub(crate) fn quiet_move_checks(&mut self, trial: &CheckTrial, mv: Move) -> Option<bool> {
        if !matches!(mv.kind, MoveKind::Normal | MoveKind::Passage) || !mv.take.is_empty() || mv.promote != 0 {
            return None;
        }
        let r = &*self.rules;
        let cells = &mut self.st.cells;
        let piece = cells[mv.from.0 as usize];
        cells[mv.from.0 as usize] = Piece::EMPTY;
        cells[mv.to.0 as usize] = piece;
        // From the threat tables where they tell (the mover's pieces are the royal's enemies).
        let told = match trial.board {
            Some(board) if mv.from.0 < 128 && mv.to.0 < 128 => {
                let (from, to) = (1u128 << mv.from.0, 1u128 << mv.to.0);
                self.st.attacked_on_trial_board(r, board, trial.royal, from & !to, (0, to))
            }
            _ => None,
        };
        let movers = if mv.to.0 < 128 { trial.movers | u128::cell(mv.to.0 as u32) } else { trial.movers };
        let check = told.unwrap_or_else(|| self.st.attacked_through(r, trial.royal, trial.opponent, movers));
        let cells = &mut self.st.cells;
        cells[mv.to.0 as usize] = Piece::EMPTY;
        cells[mv.from.0 as usize] = piece;
        Some(check)
    }
}

impl Position {
    /// Whether `mv` would give check as the search's trial tells it before making it (`None`
    /// where no trial is sound), for tests to hold against the move made.
    #[cfg(feature = "test-hooks")]
    pub fn check_told_before(&mut self, mv: Move) -> Option<bool> {
        let trial = self.check_trial()?;
        self.quiet_move_checks(&trial, mv)
    }
}

/// The answers to a check by one piece the probes find: capturing it or standing on the
/// cells between it and the royal. Any other plain move of a piece other than the royal
/// leaves the check as it was, and is passed over without a trial.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Evasions {
    royal: CellId,
    /// No cell lies on every checking line (checked by pieces on two cells, their lines
    /// apart): only the royal may move.
    double: bool,
    answers: [CellId; 32],
    len: u8,
    /// The answers as a set, where cells fit one (the ray masks').
    mask: u128,
}

impl Evasions {
    /// Whether `mv` surely leaves the check standing: a step, slide or leap of a piece other
    /// than the royal, or a plain drop onto an empty cell (which can only block), to a cell
    /// that neither holds the checker nor lies between.
    #[inline]
    pub(crate) fn ignores(&self, mv: &Move) -> bool {
        let plain_drop = mv.kind == MoveKind::Drop && mv.seq == PLAIN_DROP && mv.take.is_empty();
        (matches!(mv.kind, MoveKind::Normal | MoveKind::Passage) || plain_drop)
            && mv.from != self.royal
            && (self.double || !self.answers[..self.len as usize].contains(&mv.to))
    }
}

impl Position {
    /// The answers to the side to move's check, where the probes tell every attack and a
    /// plain move changes only its two cells as attacks see them (one royal, no stacks,
    /// locations between cells, vanishing squares, explosions, phases or forbidden tests);
    /// `None` elsewhere, out of check, or when the line to the checker is longer than kept.
    pub(crate) fn evasions(&self) -> Option<Evasions> {
        let r = &*self.rules;
        let st = &self.st;
        if !r.paths.allows(Path::Evasions) || st.partial.is_some() {
            return None;
        }
        let side = st.side;
        let mut royals = st.royal_cells(side);
        let (Some(royal), None) = (royals.next(), royals.next()) else { return None };
        let mut ev = Evasions { royal, double: false, answers: [royal; 32], len: 0, mask: 0 };
        let mut checked = false;
        for p in (0..r.players as u8).filter(|p| r.threatens(PlayerId(*p), side)) {
            let i = p as usize * r.cells + royal.0 as usize;
            for probe in &r.tables.probes[r.tables.probe_index[i] as usize..r.tables.probe_index[i + 1] as usize] {
                let Some(k) = st.probe_hit(r, probe, PlayerId(p)) else { continue };
                // The cells of this line, its checker included: an answer to every check
                // stands on each line (lines that branch may share cells before their
                // checkers, on one piece or on two).
                let line = &r.tables.probe_cells[probe.start as usize..=k];
                if !checked {
                    if line.len() > ev.answers.len() {
                        return None;
                    }
                    ev.answers[..line.len()].copy_from_slice(line);
                    ev.len = line.len() as u8;
                    checked = true;
                } else {
                    let mut kept = 0;
                    for j in 0..ev.len as usize {
                        if line.contains(&ev.answers[j]) {
                            ev.answers[kept] = ev.answers[j];
                            kept += 1;
                        }
                    }
                    ev.len = kept as u8;
                }
            }
        }
        ev.double = checked && ev.len == 0;
        ev.mask = ev.answers[..ev.len as usize].iter().fold(0, |m, c| m | 1u128 << (c.0 & 127));
        checked.then_some(ev)
    }
}

impl Position {
    /// The pseudo-legal moves that may answer the check `ev`, in the order the generator makes
    /// all of them: the moves of a piece other than the royal whose targets by the ray masks
    /// miss the checker and the cells between (all of them, in double check) are not made,
    /// as [`Evasions::ignores`] would pass over each. Pieces the masks do not hold (programs,
    /// en passant within reach), the castlings and the drops are generated. `false`, with
    /// nothing added, where the masks do not apply (stacks, locations between cells, shared
    /// pieces, gates, a move under way).
    pub(crate) fn evasion_candidates(&self, ev: &Evasions, out: &mut Vec<Move>) -> bool {
        let r = &*self.rules;
        let st = &self.st;
        let masks = &r.count.masks;
        if !r.paths.allows(Path::EvasionMasks) || masks.fits.is_empty() || st.partial.is_some() {
            return false;
        }
        let side = st.side;
        let occ = st.occupancy::<u128>(side);
        let passed = st.ep_passed_cells();
        for from in st.occupied[side.0 as usize].iter() {
            let piece = st.cells[from.0 as usize];
            let slot = masks.slot(piece, from, r.cells);
            let ep = st.rights.ep.is_some() && masks.ep_reach_of(r, side, piece, from) & passed != 0;
            if from != ev.royal && slot.counted && !ep && (ev.double || masks.targets(slot, occ) & ev.mask == 0) {
                continue;
            }
            st.single_piece_moves(r, side, from, out);
        }
        st.castling_moves(r, side, out);
        if let Some(pr) = r.program.as_deref() {
            st.drop_moves(r, pr, side, crate::rules::programs::Only::ANY, out);
        }
        true
    }
}
