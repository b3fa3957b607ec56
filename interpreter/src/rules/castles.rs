//! Castlings as the rules play them: the fixed ones as declared, and those whose start cells come from the position (chess960) expanded into one castling per pair of start cells, with their rights named by the partner's file (X-FEN, Shredder-FEN).
//!
//! A castling declared `from CELLS` may start with its king on any of the cells and its
//! partner on any other on the side the declaration gives. Its rights are one bit per
//! (player, partner cell), after the fixed castlings' bits: the right of the partner on that
//! cell to castle with the king. The king's start cell is wherever the king stands on the
//! cells while a right is held, so a right is lost when the king leaves the cells' king cell
//! (or is taken there), and when a move starts or ends on the partner's cell.

use crate::bitset::CellSet;
use crate::graph::Graph;
use crate::ir::{Castling, CellId, FreeCastling, PieceTypeId, PlayerId, Variant};

/// A declaration `from CELLS` of one player.
#[derive(Debug, Clone)]
pub(crate) struct FreeDecl {
    pub(crate) player: PlayerId,
    /// The X-FEN letter: the outermost partner on this side.
    pub(crate) alias: char,
    pub(crate) king: PieceTypeId,
    pub(crate) partner: PieceTypeId,
    pub(crate) cells: Vec<CellId>,
    /// +1: the partner stands after the king in the cells' order; -1: before.
    pub(crate) side: i32,
}

/// The compiled castlings.
#[derive(Debug, Default)]
pub(crate) struct CastleRules {
    /// Every castling: the fixed ones in declaration order, then the derived ones.
    pub(crate) list: Vec<Castling>,
    /// Per castling: its rights bit.
    pub(crate) bit: Vec<u8>,
    /// How many of `list` are fixed.
    pub(crate) fixed: usize,
    /// Per player: its fixed castlings (indices into `list`), tried at every node.
    pub(crate) fixed_of: Vec<Vec<u16>>,
    /// The declarations `from CELLS`.
    pub(crate) decls: Vec<FreeDecl>,
    /// Per (player, cell): the derived castlings whose king starts there.
    pub(crate) at: Vec<Vec<u16>>,
    /// Per player: the bits of its derived castlings' rights.
    pub(crate) player_bits: Vec<u32>,
    /// Per player: the cells its derived castlings start from.
    pub(crate) cells: Vec<CellSet>,
    /// Per player: the same cells, in order.
    pub(crate) king_cells: Vec<Vec<CellId>>,
    /// Per castling: its declaration in `decls` (0 for the fixed ones).
    pub(crate) decl_of: Vec<u16>,
    /// The rights bits of the derived castlings: (player, partner cell, file letter).
    pub(crate) letters: Vec<(PlayerId, CellId, char)>,
    /// The first bit of `letters`.
    pub(crate) first_bit: usize,
    /// Some fixed castling's right is gained by a drop (`gained-by-drop`), learnt once.
    by_drop: bool,
}

/// The cells passed going from `from` to `to` along one direction (ending with `to`).
fn line(graph: &Graph, dirs: usize, from: CellId, to: CellId) -> Option<Vec<CellId>> {
    if from == to {
        return Some(Vec::new());
    }
    for d in 0..dirs {
        let mut path = Vec::new();
        let mut at = from;
        while let Some(&next) = graph.step(at, crate::ir::DirId(d as u8)).first() {
            if next == from || path.contains(&next) {
                break;
            }
            path.push(next);
            at = next;
            if at == to {
                return Some(path);
            }
        }
    }
    None
}

/// A castling from fixed cells: the cells that must be empty and safe, as the declaration's
/// lowering derives them for a fixed castling.
pub(crate) fn concrete(graph: &Graph, dirs: usize, template: &Castling, kf: CellId, pf: CellId) -> Option<Castling> {
    let king_path = line(graph, dirs, kf, template.king_to)?;
    let partner_path = line(graph, dirs, pf, template.partner_to)?;
    let mut must_be_empty: Vec<CellId> = Vec::new();
    for x in king_path.iter().chain(partner_path.iter()) {
        if *x != kf && *x != pf && !must_be_empty.contains(x) {
            must_be_empty.push(*x);
        }
    }
    for x in line(graph, dirs, kf, pf)? {
        if x != pf && !must_be_empty.contains(&x) {
            must_be_empty.push(x);
        }
    }
    let mut must_be_safe = vec![kf];
    must_be_safe.extend(king_path);
    Some(Castling { king_from: kf, partner_from: pf, must_be_empty, must_be_safe, free: None, ..template.clone() })
}

/// The file letter of a cell's name (`h` for `h1`), upper case for the first player.
pub(crate) fn file_letter(v: &Variant, cell: CellId, player: PlayerId) -> char {
    let ch = v.board.cells[cell.0 as usize].name.chars().next().unwrap_or('?');
    if player.0 == 0 {
        ch.to_ascii_uppercase()
    } else {
        ch.to_ascii_lowercase()
    }
}

impl CastleRules {
    /// Compiles a variant's castlings; the derived rights take bits from `first_bit` on.
    pub(crate) fn new(v: &Variant, graph: &Graph) -> CastleRules {
        let cells = v.board.cells.len();
        let players = v.players.len();
        let dirs = v.board.directions.len();
        let mut out = CastleRules {
            at: vec![Vec::new(); players * cells],
            player_bits: vec![0; players],
            cells: vec![CellSet::new(cells); players],
            king_cells: vec![Vec::new(); players],
            fixed_of: vec![Vec::new(); players],
            ..CastleRules::default()
        };
        for c in v.castlings.iter().filter(|c| c.free.is_none()) {
            if let Some(of) = out.fixed_of.get_mut(c.player.0 as usize) {
                of.push(out.list.len() as u16);
            }
            out.bit.push(out.list.len() as u8);
            out.decl_of.push(0);
            out.list.push(c.clone());
        }
        out.fixed = out.list.len();
        out.first_bit = out.fixed;
        out.by_drop = out.list.iter().any(|c| c.gained_by_drop.is_some());
        for c in &v.castlings {
            let Some(FreeCastling { king, partner, cells: group }) = &c.free else { continue };
            let pos = |x: CellId| group.iter().position(|g| *g == x).unwrap_or(0) as i32;
            let side = if pos(c.king_to) > pos(c.partner_to) { 1 } else { -1 };
            out.decls.push(FreeDecl {
                player: c.player,
                alias: c.right,
                king: *king,
                partner: *partner,
                cells: group.clone(),
                side,
            });
            for (ki, &kf) in group.iter().enumerate() {
                for (pi, &pf) in group.iter().enumerate() {
                    if (pi as i32 - ki as i32).signum() != side {
                        continue;
                    }
                    let Some(made) = concrete(graph, dirs, c, kf, pf) else { continue };
                    let bit = match out.letters.iter().position(|(p, x, _)| *p == c.player && *x == pf) {
                        Some(i) => out.first_bit + i,
                        None => {
                            out.letters.push((c.player, pf, file_letter(v, pf, c.player)));
                            out.first_bit + out.letters.len() - 1
                        }
                    };
                    if bit >= 32 {
                        continue;
                    }
                    out.at[c.player.0 as usize * cells + kf.0 as usize].push(out.list.len() as u16);
                    out.player_bits[c.player.0 as usize] |= 1 << bit;
                    if !out.cells[c.player.0 as usize].contains(kf) {
                        out.cells[c.player.0 as usize].insert(kf);
                        out.king_cells[c.player.0 as usize].push(kf);
                    }
                    out.decl_of.push(out.decls.len() as u16 - 1);
                    out.bit.push(bit as u8);
                    out.list.push(made);
                }
            }
        }
        out
    }

    /// Whether any castling takes its start cells from the position.
    #[inline]
    pub(crate) fn has_free(&self) -> bool {
        !self.decls.is_empty()
    }

    /// Whether a drop may give a castling right (`gained-by-drop`).
    #[inline]
    pub(crate) fn gained_by_drop(&self) -> bool {
        self.by_drop
    }

    /// The rights bits a drop on `cell` by `player` gives (`gained-by-drop`), given what
    /// stands on each cell after it: the castlings of the player that start on that cell with
    /// the king's type on the king's start cell and the partner's on the partner's.
    pub(crate) fn gained_on(
        &self,
        player: PlayerId,
        cell: CellId,
        at: impl Fn(CellId) -> Option<(PlayerId, PieceTypeId)>,
    ) -> u32 {
        let mut bits = 0;
        for (i, c) in self.list[..self.fixed].iter().enumerate() {
            let Some((king, partner)) = c.gained_by_drop else { continue };
            if c.player == player
                && (cell == c.king_from || cell == c.partner_from)
                && at(c.king_from) == Some((player, king))
                && at(c.partner_from) == Some((player, partner))
            {
                bits |= 1 << self.bit[i];
            }
        }
        bits
    }

    /// The derived rights lost when `ty` of `player` leaves (or is taken on) `cell`: all of the
    /// player's, when it is a castling king on the castling cells.
    #[inline]
    pub(crate) fn king_loss(&self, player: PlayerId, ty: PieceTypeId, cell: CellId) -> u32 {
        let p = player.0 as usize;
        if self.player_bits.get(p).copied().unwrap_or(0) == 0 || !self.cells[p].contains(cell) {
            return 0;
        }
        if self.decls.iter().any(|d| d.player == player && d.king == ty) {
            self.player_bits[p]
        } else {
            0
        }
    }

    /// The rights bit of a derived right held by `player` for the partner on `cell`.
    pub(crate) fn bit_of(&self, player: PlayerId, cell: CellId) -> Option<usize> {
        self.letters.iter().position(|(p, c, _)| *p == player && *c == cell).map(|i| self.first_bit + i)
    }
}
