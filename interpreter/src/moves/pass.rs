//! What the search and the evaluation need of a position beyond the game's moves: passing the turn (the null move) and boards holding one lone piece.
//!
//! Kept apart from `position.rs` so that the state's internals are touched in one small place.

use std::sync::Arc;

use crate::ir::CellId;
use crate::position::{EnPassant, Position, SquareMarks};
use crate::rules::{Piece, Rules};

/// What [`Position::make_null`] changed, for [`Position::unmake_null`].
#[derive(Clone, Copy, Debug)]
pub struct NullUndo {
    side: crate::ir::PlayerId,
    fullmove: u32,
    turn: u32,
    ep: Option<EnPassant>,
    halfmove: u32,
    hash: u64,
    frozen: SquareMarks,
}

impl Position {
    /// Passes the turn without acting (the search's null move): the next player moves, an
    /// en-passant chance ends, squares frozen by the last turn thaw, and the move clock restarts
    /// so that no repetition is looked for across the pass. `None`, and nothing changes, where a
    /// pass has no meaning: in the middle of a turn of several actions or of a partial move,
    /// under a turn order (whose schedule a pass would shift), or before a choice is made.
    pub fn make_null(&mut self) -> Option<NullUndo> {
        let r: &Rules = &self.rules;
        if r.variant.turn_order.is_some()
            || self.st.pending_choice(r).is_some()
            || self.st.partial.is_some()
            || self.st.slot != 0
            || !self.st.squares.touched.cells().is_empty()
        {
            return None;
        }
        let st = &mut self.st;
        let undo = NullUndo {
            side: st.side,
            fullmove: st.clocks.fullmove,
            turn: st.turn,
            ep: st.rights.ep,
            halfmove: st.clocks.halfmove,
            hash: st.hash,
            frozen: st.squares.frozen,
        };
        st.clear_en_passant(r);
        if r.squares.play {
            for c in st.squares.frozen.cells() {
                st.hash ^= r.keys.frozen[c.0 as usize];
            }
            st.squares.frozen = SquareMarks::default();
        }
        st.clocks.halfmove = 0;
        st.next_player(r);
        Some(undo)
    }

    /// Takes back [`Position::make_null`] (after every move made since has been unmade).
    pub fn unmake_null(&mut self, undo: NullUndo) {
        let st = &mut self.st;
        st.side = undo.side;
        st.clocks.fullmove = undo.fullmove;
        st.turn = undo.turn;
        st.rights.ep = undo.ep;
        st.clocks.halfmove = undo.halfmove;
        st.hash = undo.hash;
        st.squares.frozen = undo.frozen;
    }

    /// The pseudo-legal piece moves of any player, whoever is to move (the evaluation's
    /// mobility). Conditions that depend on the player to move are judged for `player`'s
    /// opponent's turn as it stands, so counts are approximate for such moves.
    pub fn pseudo_legal_moves_of(&self, player: crate::ir::PlayerId, out: &mut Vec<crate::position::Move>) {
        out.clear();
        self.st.pseudo_moves(&self.rules, player, out);
    }

    /// How many pseudo-legal piece moves `player` has (as [`Position::pseudo_legal_moves_of`]
    /// lists them), counted without listing them where the ray masks allow; `buf` is scratch.
    pub fn pseudo_legal_move_count(&self, player: crate::ir::PlayerId, buf: &mut Vec<crate::position::Move>) -> usize {
        self.st.pseudo_move_count(&self.rules, player, buf) as usize
    }

    /// A board of the variant where every location has a square and only `piece` stands, on
    /// `cell`, with its owner to move: what the evaluation measures a piece's reach on.
    pub fn lone_piece(rules: Arc<Rules>, cell: CellId, piece: Piece) -> Position {
        let mut pos = Position::empty(rules);
        for c in pos.st.cells.iter_mut() {
            if *c == Piece::HOLE {
                *c = Piece::EMPTY;
            }
        }
        pos.put(cell, piece);
        let owner = pos.rules.owner(piece);
        pos.set_side(owner);
        pos.set_state(0, None, 0, 1);
        pos
    }

    /// [`Position::lone_piece`] with one more piece, `other` on `at` (another cell): the board
    /// a piece's moves beside a blocker or behind a screen are tried on (drawings that tell a
    /// hopper from a slider).
    pub fn lone_piece_beside(rules: Arc<Rules>, cell: CellId, piece: Piece, at: CellId, other: Piece) -> Position {
        let mut pos = Position::lone_piece(rules, cell, piece);
        if at != cell {
            pos.put(at, other);
            pos.set_state(0, None, 0, 1);
        }
        pos
    }
}
