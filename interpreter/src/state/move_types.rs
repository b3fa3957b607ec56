//! A move as a value (`Move`, `MoveKind`), the squares a turn marks (`SquareMarks`) and the en-passant right a move leaves (`EnPassant`).

use crate::ir::{CellId, PieceTypeId};
use crate::rules::{Piece, Rules};

/// What a move does beyond carrying a piece from one cell to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// Move (and capture whatever stands on the target).
    Normal,
    /// Move along a ray that marks its passed cells for en passant; `extra` is the direction.
    Passage,
    /// Capture en passant; `extra` is the cell of the captured piece.
    EnPassant,
    /// Castle; `extra` is the castling's index.
    Castle,
    /// Move an empty square from `from` to the location `to`, which has none.
    MoveSquare,
    /// Move the square on `from` with the mover's piece on it to the location `to`.
    CarrySquare,
    /// Place a square from the mover's reserve on the location `to` (`from` is `to`).
    PlaceSquare,
    /// End the turn, leaving its remaining (optional) actions out.
    EndTurn,
    /// A move emitted by a move program that does more than move its piece: `extra` is the
    /// program's index among the piece type's programs that are not atoms, `seq` which of the
    /// run's emissions it is.
    Program,
    /// A drop: a new piece of `piece`'s type placed on `to`, by the piece type's drop program
    /// number `extra`, run from `from` (`seq` as for [`MoveKind::Program`]).
    Drop,
    /// A choice made before the first move: option `extra` of choice `seq`.
    Choose,
}

impl MoveKind {
    /// Whether the move moves a piece by its powers (not a square action or the end of a turn).
    #[inline]
    pub fn is_piece_move(self) -> bool {
        matches!(
            self,
            MoveKind::Normal
                | MoveKind::Passage
                | MoveKind::EnPassant
                | MoveKind::Castle
                | MoveKind::Program
                | MoveKind::Drop
        )
    }
}

/// A few squares: those the side to move may not move, or those touched this turn.
// Sixteen bytes, no length apart (the unused places hold `NO_MARK`): copied in whole words.
// With a length byte the record a move of square play pushes was copied in pieces and read
// back across them, a stall of a fifth of that make.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareMarks {
    cells: [CellId; 8],
}

/// An unused place of [`SquareMarks`].
const NO_MARK: CellId = CellId(u16::MAX);

impl Default for SquareMarks {
    fn default() -> SquareMarks {
        SquareMarks { cells: [NO_MARK; 8] }
    }
}

impl SquareMarks {
    /// The squares, in the order they were touched.
    pub fn cells(&self) -> &[CellId] {
        let len = self.cells.iter().position(|c| *c == NO_MARK).unwrap_or(self.cells.len());
        &self.cells[..len]
    }

    /// Whether the square is among them.
    #[inline]
    pub fn contains(&self, c: CellId) -> bool {
        c != NO_MARK && self.cells.contains(&c)
    }

    pub(crate) fn push(&mut self, c: CellId) {
        if self.contains(c) {
            return;
        }
        if let Some(free) = self.cells.iter_mut().find(|m| **m == NO_MARK) {
            *free = c;
        }
    }
}

/// The squares a move of square play found untouchable and touched, for unmaking.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SquareUndo {
    pub(crate) frozen: SquareMarks,
    pub(crate) touched: SquareMarks,
}

/// A move: small and `Copy`, so move lists never allocate per move.
// The equality below is the derived one (field by field), only compared faster: the derived
// hash agrees with it.
#[allow(clippy::derived_hash_with_manual_eq)]
#[derive(Clone, Copy, Debug, Hash)]
// In C order: the fields a generator sets once per piece come first, those set per target
// next, then those that are constant in a run of targets, so a push stores few words.
#[repr(C)]
pub struct Move {
    /// Where the moving piece starts.
    pub from: CellId,
    /// The moving piece (the king for a castling): on a stack it says which piece moves.
    pub piece: Piece,
    /// Where it lands.
    pub to: CellId,
    /// What the move captures: a piece code, [`Piece::ALL`] for every enemy piece on the
    /// target, or [`Piece::EMPTY`] for none (a move to an empty cell, or joining a stack).
    pub take: Piece,
    /// Kind-specific data (see [`MoveKind`]).
    pub extra: u16,
    /// For a move or drop of a program: which of the run's emitted moves it is
    /// (`u16::MAX` for a drop that only places its piece).
    pub seq: u16,
    /// The cell the move walls up (see the walls module), plus one; 0 for none.
    pub wall: u16,
    /// What kind of move.
    pub kind: MoveKind,
    /// The piece type promoted to, plus one; 0 when there is no promotion.
    pub promote: u8,
    /// The move type (of the program or power that made the move), or 255 for none.
    pub move_type: u8,
    /// A piece from hand put on the cell the move leaves: its type plus one (with a flag for a
    /// castling partner's cell); 0 for none (see the gating module).
    pub gate: u8,
}

// Equal field by field, compared as two words (the fields fill the 16 bytes): the ordering
// compares every move of a list with the table's move and the killers.
impl PartialEq for Move {
    #[inline(always)]
    fn eq(&self, o: &Move) -> bool {
        let w = |m: &Move| {
            let a = m.from.0 as u64 | (m.piece.0 as u64) << 16 | (m.to.0 as u64) << 32 | (m.take.0 as u64) << 48;
            let b = m.extra as u64 | (m.seq as u64) << 16 | (m.kind as u64) << 32 | (m.promote as u64) << 40;
            (a, b | (m.move_type as u64) << 48 | (m.gate as u64) << 56)
        };
        // Every field is compared: this does not compile until a new field is named here.
        let Move {
            from: _,
            piece: _,
            to: _,
            take: _,
            extra: _,
            seq: _,
            kind: _,
            promote: _,
            move_type: _,
            gate: _,
            wall: _,
        } = *self;
        // The two words hold all but the wall.
        w(self) == w(o) && self.wall == o.wall
    }
}

impl Eq for Move {}

impl Move {
    /// A move of `piece` by a power of type `move_type`, a castling or a square action (no
    /// promotion yet, no program step, no gating).
    #[inline(always)]
    pub(crate) fn by_power(
        from: CellId,
        to: CellId,
        piece: Piece,
        move_type: u8,
        kind: MoveKind,
        extra: u16,
        take: Piece,
    ) -> Move {
        Move { from, to, kind, promote: 0, extra, piece, take, seq: 0, move_type, gate: 0, wall: 0 }
    }

    /// `end`: the turn ends here (a pass, or the optional actions of a turn left out).
    pub(crate) fn end_turn() -> Move {
        let c = CellId(0);
        Move {
            from: c,
            to: c,
            kind: MoveKind::EndTurn,
            promote: 0,
            extra: 0,
            piece: Piece::EMPTY,
            take: Piece::EMPTY,
            seq: 0,
            move_type: crate::tables::NO_MOVE_TYPE,
            gate: 0,
            wall: 0,
        }
    }

    /// The cell the move walls up, if any.
    pub fn wall(&self) -> Option<CellId> {
        (self.wall != 0).then(|| CellId(self.wall - 1))
    }

    /// The promotion piece type, if any.
    pub fn promotion(&self) -> Option<PieceTypeId> {
        (self.promote != 0).then(|| PieceTypeId(self.promote - 1))
    }

    /// The piece standing on the target after the move: `moved`, or what it promotes to.
    pub(crate) fn landed(&self, r: &Rules, moved: Piece) -> Piece {
        match self.promotion() {
            Some(t) => r.piece(r.owner(moved), t),
            None => moved,
        }
    }

    /// Whether the move captures.
    pub fn is_capture(&self) -> bool {
        !self.take.is_empty()
    }

    /// A capture or a promotion by a piece: what quiescence searches.
    pub fn is_noisy(&self) -> bool {
        (self.is_capture() && self.kind != MoveKind::Castle && self.kind.is_piece_move())
            || (self.promote != 0 && self.kind.is_piece_move())
    }
}

/// En-passant state: cells just passed by a piece, which may be captured by landing on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The passed cells (up to four).
    pub cells: [CellId; 4],
    /// How many of `cells` are used.
    pub len: u8,
    /// The cell of the piece that passed them.
    pub victim: CellId,
    /// The piece that passed them.
    pub piece: Piece,
}

impl EnPassant {
    /// The passed cells.
    pub fn passed(&self) -> &[CellId] {
        &self.cells[..self.len as usize]
    }
}
