//! The compiled explosions: per type whether its captures explode, and the cells each blast reaches.

use crate::ir::{CellId, PieceTypeId, PlayerId, Variant};

/// The compiled explosions of a variant.
#[derive(Debug)]
pub(crate) struct Explosions {
    /// Per type: its captures explode.
    pub(crate) exploding: Vec<bool>,
    /// Per type: the piece survives an explosion beside it.
    pub(crate) proof: Vec<bool>,
    /// Per (player, type, target cell): the cells beside the target that the blast reaches
    /// (empty for types that do not explode).
    pub(crate) around: Vec<Box<[CellId]>>,
    /// The variant's piece types and cells, which index `around`.
    types: usize,
    cells: usize,
}

impl Explosions {
    /// The explosions of a variant, if any type explodes.
    pub(crate) fn new(v: &Variant, graph: &crate::graph::Graph) -> Option<Explosions> {
        if v.pieces.iter().all(|p| p.explodes.is_none()) {
            return None;
        }
        let cells = graph.cell_count();
        let types = v.pieces.len();
        let mut around = Vec::with_capacity(v.players.len() * types * cells);
        for player in &v.players {
            for piece in &v.pieces {
                for c in 0..cells {
                    let mut near: Vec<CellId> = Vec::new();
                    for d in piece.explodes.iter().flatten() {
                        let d = player.direction_map.get(d.0 as usize).copied().unwrap_or(*d);
                        for &n in graph.step(CellId(c as u16), d) {
                            if n.0 as usize != c && !near.contains(&n) {
                                near.push(n);
                            }
                        }
                    }
                    around.push(near.into_boxed_slice());
                }
            }
        }
        Some(Explosions {
            exploding: v.pieces.iter().map(|p| p.explodes.is_some()).collect(),
            proof: v.pieces.iter().map(|p| p.blast_proof).collect(),
            around,
            types,
            cells,
        })
    }

    /// Whether captures by this type explode.
    #[inline]
    pub(crate) fn explodes(&self, ty: PieceTypeId) -> bool {
        self.exploding[ty.0 as usize]
    }

    /// The cells beside `target` that a blast of `player`'s piece of type `ty` reaches.
    #[inline]
    pub(crate) fn around(&self, player: PlayerId, ty: PieceTypeId, target: CellId) -> &[CellId] {
        &self.around[(player.0 as usize * self.types + ty.0 as usize) * self.cells + target.0 as usize]
    }
}
