//! A piece on the board as one small code: the type the compiled rules, the position and the moves share.

/// A piece on the board: owner and type packed into one small code; 0 is an empty cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Piece(pub u16);

impl Piece {
    /// No piece.
    pub const EMPTY: Piece = Piece(0);
    /// A location with no square: nothing may stand there, sliders stop before it.
    pub const HOLE: Piece = Piece(u16::MAX);
    /// In a move's `take`: every enemy piece on the target (a `capture-all` cell).
    pub const ALL: Piece = Piece(u16::MAX - 1);

    /// Whether the cell holds nothing (and has a square).
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
}
