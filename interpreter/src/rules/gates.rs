//! The compiled gating rights: the rights bits of castlings and gates, and the cells that end them.

use crate::ir::{CellId, Gate, MoveMode, PieceTypeId, PlayerId, Variant};
use crate::tables::{Entry, EntryKind, MoveTables};

use super::castles::CastleRules;

/// `Move::gate`'s flag: on a castling, the piece goes on the partner's cell, not the king's.
pub(crate) const GATE_ON_PARTNER: u8 = 0x80;

/// The compiled gating rights.
#[derive(Debug, Default)]
pub(crate) struct GateRules {
    /// Per rights bit: its player and letter (castlings first, in declaration order).
    pub(crate) letters: Vec<(PlayerId, char)>,
    /// Per (player, cell): the rights bits that gate the cell.
    pub(crate) cells: Vec<u32>,
    /// Per castling: the gate bits a castling right also stands for in position strings.
    pub(crate) implied: Vec<u32>,
    /// The bits of castlings whose start cells come from the position (written by the
    /// position string, which knows where the pieces stand).
    pub(crate) derived: u32,
    /// Per rights bit: the types its gate never places (`except`), empty for most.
    pub(crate) except: Vec<Vec<PieceTypeId>>,
    /// The board's cell count, which indexes `cells`.
    cell_count: usize,
    /// Per (player, piece type, cell): the rights a piece of the player's ending a move there
    /// takes away (`aimed-by`); empty where no gate names types.
    pub(crate) aimed: Vec<u32>,
    /// The variant's piece types, which index `aimed`.
    types: usize,
}

impl GateRules {
    /// The rights of a variant's castlings and gates.
    pub(crate) fn new(v: &Variant, castles: &CastleRules, cells: usize) -> GateRules {
        let fixed = &castles.list[..castles.fixed];
        let mut letters: Vec<(PlayerId, char)> = fixed.iter().map(|c| (c.player, c.right)).collect();
        let mut derived = 0u32;
        for (p, _, l) in &castles.letters {
            if letters.len() < 32 {
                derived |= 1 << letters.len();
            }
            letters.push((*p, *l));
        }
        let mut by_cell = vec![0u32; v.players.len() * cells];
        let mut except = Vec::new();
        for g in &v.gates {
            let bit = match letters.iter().position(|(p, l)| *p == g.player && *l == g.right) {
                Some(i) => i,
                None => {
                    letters.push((g.player, g.right));
                    letters.len() - 1
                }
            };
            if bit >= 32 {
                continue;
            }
            if except.len() <= bit {
                except.resize(bit + 1, Vec::new());
            }
            except[bit].clone_from(&g.except);
            for c in &g.cells {
                by_cell[g.player.0 as usize * cells + c.0 as usize] |= 1 << bit;
            }
        }
        let implied = fixed
            .iter()
            .map(|c| {
                let mut bits = 0;
                for (i, (p, l)) in letters.iter().enumerate().skip(fixed.len()).take(32) {
                    // Only a gate that no move can end without ending the castling too, nor
                    // the castling come back without the gate: one whose cells are all the
                    // king's or the partner's, not lost to an enemy's aim (`aimed-by`), of a
                    // castling no drop gives back (`gained-by-drop`). Otherwise the gate may be
                    // lost while the castling is held, and the castling's letter could not
                    // then say so.
                    let gates: Vec<&Gate> = v.gates.iter().filter(|g| g.player == *p && g.right == *l).collect();
                    let cells: Vec<CellId> = gates.iter().flat_map(|g| g.cells.clone()).collect();
                    let within = cells.iter().all(|cell| *cell == c.king_from || *cell == c.partner_from);
                    let ended_alike = gates.iter().all(|g| g.aimed_by.is_empty()) && c.gained_by_drop.is_none();
                    if *p == c.player && !cells.is_empty() && within && ended_alike {
                        bits |= 1 << i;
                    }
                }
                bits
            })
            .collect();
        GateRules { letters, cells: by_cell, implied, derived, except, cell_count: cells, aimed: Vec::new(), types: 0 }
    }

    /// Learns, from the move tables, where the `aimed-by` types of each gate take its right:
    /// a piece of another player's ends a move on a cell from which one of its powers would
    /// capture on one of the right's cells, were the board empty (a slide's every cell, a
    /// leap's last; a hop needs a screen, and conditions are not weighed).
    pub(crate) fn learn_aimed(&mut self, v: &Variant, tables: &MoveTables) {
        if v.gates.iter().all(|g| g.aimed_by.is_empty()) {
            return;
        }
        let (players, types, cells) = (v.players.len(), v.pieces.len(), self.cell_count);
        self.types = types;
        self.aimed = vec![0; players * types * cells];
        for g in v.gates.iter().filter(|g| !g.aimed_by.is_empty()) {
            let Some(bit) = self.bit(g.right) else { continue };
            for p in (0..players).filter(|p| *p != g.player.0 as usize) {
                for t in &g.aimed_by {
                    // The type's powers only: a move program never aims, though the tables
                    // also hold those shaped like atoms (after the powers' atoms) when the
                    // `Atoms` path reads them so.
                    let piece = &v.pieces[t.0 as usize];
                    let powers = piece.moves.iter().map(|m| crate::atoms::of_power(piece, m).len()).sum::<usize>();
                    for c in 0..cells {
                        let i = (p * types + t.0 as usize) * cells + c;
                        let (a, b) = (tables.entry_index[i] as usize, tables.entry_index[i + 1] as usize);
                        let mut entries = tables.entries[a..b].iter().filter(|e| (e.atom as usize) < powers);
                        if entries.any(|e| reaches_empty(tables, e, &g.cells)) {
                            self.aimed[i] |= 1 << bit;
                        }
                    }
                }
            }
        }
    }

    /// The rights a piece of `player`'s type `t` takes away by ending a move on `cell`.
    #[inline]
    pub(crate) fn aimed_loss(&self, player: PlayerId, t: PieceTypeId, cell: CellId) -> u32 {
        let i = (player.0 as usize * self.types + t.0 as usize) * self.cell_count + cell.0 as usize;
        self.aimed.get(i).copied().unwrap_or(0)
    }
}

/// Whether a capturing entry would take on one of `targets` on an empty board.
fn reaches_empty(tables: &MoveTables, e: &Entry, targets: &[CellId]) -> bool {
    if e.mode == MoveMode::MoveOnly {
        return false;
    }
    let ray = &tables.ray_cells[e.start as usize..e.start as usize + e.len as usize];
    match e.kind {
        EntryKind::Slide => ray.iter().any(|c| targets.contains(c)),
        EntryKind::Lame => ray.last().is_some_and(|c| targets.contains(c)),
        EntryKind::Hop => false,
    }
}

impl GateRules {
    /// The bits a right's letter stands for in a position string: a castling's with the gates
    /// on its cells, or a gate's own.
    pub(crate) fn read_letter(&self, letter: char) -> Option<u32> {
        let bit = self.bit(letter)?;
        Some((1 << bit) | self.implied.get(bit).copied().unwrap_or(0))
    }

    /// The rights held, as a position string writes them: each player's castlings, then the
    /// gates no held castling stands for.
    pub(crate) fn text(&self, players: usize, held: u32, derived: &dyn Fn(u8) -> String) -> String {
        let covered: u32 =
            self.implied.iter().enumerate().filter(|(i, _)| held & (1 << i) != 0).fold(0, |m, (_, b)| m | b);
        let mut out = String::new();
        for p in 0..players as u8 {
            for (i, (owner, letter)) in self.letters.iter().enumerate().take(32) {
                let derived = self.derived & (1 << i) != 0;
                if owner.0 == p
                    && held & (1 << i) != 0
                    && !derived
                    && (i < self.implied.len() || covered & (1 << i) == 0)
                {
                    out.push(*letter);
                }
            }
            out.push_str(&derived(p));
        }
        out
    }

    /// The rights bit of a letter, if the variant has that right.
    pub(crate) fn bit(&self, letter: char) -> Option<usize> {
        self.letters.iter().position(|(_, l)| *l == letter).filter(|i| *i < 32)
    }

    /// Whether one of the held rights `bits` places a piece of type `t` (a gate places every
    /// type but those it names after `except`).
    pub(crate) fn places(&self, bits: u32, t: PieceTypeId) -> bool {
        (0..32).filter(|b| bits & (1 << b) != 0).any(|b| !self.except.get(b).is_some_and(|e| e.contains(&t)))
    }

    /// The rights that gate a cell for a player.
    #[inline]
    pub(crate) fn gating(&self, player: PlayerId, cell: CellId) -> u32 {
        self.cells.get(player.0 as usize * self.cell_count + cell.0 as usize).copied().unwrap_or(0)
    }
}

/// The bits that touching each cell takes away: a castling's king and partner cells end it; a
/// gate ends once a piece leaves or lands on one of its cells.
pub(crate) fn rights_kept(v: &Variant, castles: &CastleRules, gates: &GateRules, cells: usize) -> Vec<u32> {
    let mut keep = vec![u32::MAX; cells];
    for (i, c) in castles.list[..castles.fixed].iter().enumerate() {
        keep[c.king_from.0 as usize] &= !(1 << i);
        keep[c.partner_from.0 as usize] &= !(1 << i);
    }
    // A derived right is lost with its partner's cell (the king's, by `CastleRules::king_loss`).
    for (i, (_, cell, _)) in castles.letters.iter().enumerate() {
        if castles.first_bit + i < 32 {
            keep[cell.0 as usize] &= !(1 << (castles.first_bit + i));
        }
    }
    for g in &v.gates {
        if let Some(bit) = gates.bit(g.right).filter(|b| *b >= castles.fixed) {
            for c in &g.cells {
                keep[c.0 as usize] &= !(1 << bit);
            }
        }
    }
    keep
}
