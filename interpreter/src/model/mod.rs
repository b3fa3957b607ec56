//! The model: the IR of a variant, the board graph, cell sets, the move tables and the size limits, read by every layer above.

pub(crate) mod atoms;
pub mod bitset;
pub mod graph;
pub mod ir;
pub mod limits;
pub mod shuffle;
pub(crate) mod tables;
