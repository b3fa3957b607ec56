//! Captures to hand: a captured piece whose type says `captured-to-hand [as TYPE]` joins the capturer's hand, as that type.
//!
//! The capturer is the player who made the move. The piece goes to the hand as the declared base
//! type (shogi's promoted pieces, crazyhouse's promoted pawns) or, without one, as its own type.
//! The hand counts are logged like any other change of the general make path, so unmaking the
//! move takes them back, and they are part of the hash; the plain make adds the one piece a
//! plain capture takes, and its unmake takes it back.

use crate::ir::PlayerId;
use crate::position::{Logged, State};
use crate::rules::{Piece, Rules};

impl State {
    /// After a move's captures (the log from `log` on): each captured piece whose type goes to
    /// hand adds one piece to the mover's hand.
    pub(crate) fn captures_to_hand(&mut self, r: &Rules, log: usize) {
        let captured: Vec<crate::rules::Piece> = self.log[log..]
            .iter()
            .filter_map(|e| match *e {
                Logged::Took(_, p, _, true) => Some(p),
                _ => None,
            })
            .collect();
        for p in captured {
            if let Some(i) = hand_slot(r, self.side, p) {
                self.hand_logged(r, i, self.hand[i] + 1);
            }
        }
    }

    /// The plain make's capture to hand (unlogged): the piece joins the mover's hand, the
    /// hash kept. Unmaking restores the hash from the undo record and calls
    /// [`State::unplain_to_hand`].
    #[inline]
    pub(crate) fn plain_to_hand(&mut self, r: &Rules, captured: Piece) {
        if let Some(i) = hand_slot(r, self.side, captured) {
            self.set_hand(r, i, self.hand[i] + 1);
        }
    }

    /// Takes back [`State::plain_to_hand`] of `mover`'s capture (the hash is the undo
    /// record's).
    #[inline]
    pub(crate) fn unplain_to_hand(&mut self, r: &Rules, mover: PlayerId, captured: Piece) {
        if let Some(i) = hand_slot(r, mover, captured) {
            self.hand[i] -= 1;
        }
    }
}

/// Where a captured piece joins `mover`'s hand, if its type goes to hand: the index of its
/// base type's count.
#[inline]
fn hand_slot(r: &Rules, mover: PlayerId, captured: Piece) -> Option<usize> {
    let base = r.variant.pieces[r.type_of(captured).0 as usize].to_hand?;
    Some(mover.0 as usize * r.types + base.0 as usize)
}

/// Splits Fairy-Stockfish's hand (`[PPn]`, `[-]` or `[]`) off the board field of a position
/// string: the rows, and the bracketed text with its offset.
pub(crate) fn split_hand(board: &str, at: usize) -> (&str, Option<(usize, &str)>) {
    match board.find('[') {
        Some(i) => (&board[..i], Some((at + i, &board[i..]))),
        None => (board, None),
    }
}

/// Reads Fairy-Stockfish's hand: one letter per piece in hand (upper case for the first
/// player), `-` or nothing for empty hands, in brackets.
pub(crate) fn read_hand(
    pos: &mut crate::position::Position,
    text: &str,
    at: usize,
) -> Result<(), crate::position_error::PositionError> {
    let err =
        |offset: usize, len: usize, message: String| crate::position_error::PositionError { offset, len, message };
    let rules = pos.rules.clone();
    let r = &*rules;
    let Some(inner) = text.strip_prefix('[').and_then(|t| t.strip_suffix(']')) else {
        return Err(err(at, text.len(), format!("expected pieces in hand in brackets (`[Pp]`), found `{text}`")));
    };
    // As the writer decides: a game without drops, captures to hand or hands in its setup
    // has no hands to give (its hand field would not be written back).
    if !r.has_hands() || pos.st.hand.is_empty() {
        return Err(err(at, text.len(), "expected no hand: pieces in hand are not part of this game".into()));
    }
    pos.st.hand.iter_mut().for_each(|n| *n = 0);
    if inner == "-" {
        return Ok(());
    }
    let mut k = 0;
    while k < inner.len() {
        let (piece, len) = r.read_piece_symbol(&inner[k..], true).ok_or_else(|| {
            let ch = inner[k..].chars().next().unwrap_or(' ');
            err(at + 1 + k, ch.len_utf8(), format!("expected the letter of a piece in hand, found `{ch}`"))
        })?;
        let i = r.owner(piece).0 as usize * r.types + r.type_of(piece).0 as usize;
        pos.st.hand[i] += 1;
        k += len;
    }
    Ok(())
}

impl crate::position::Position {
    /// The hands as Fairy-Stockfish writes them after the rows: one letter per piece, the first
    /// player's in upper case first (`[PPn]`, `[]` when both are empty); nothing in a game
    /// without hands.
    pub(crate) fn hand_text(&self) -> String {
        let r = &*self.rules;
        if !r.has_hands() {
            return String::new();
        }
        let mut out = String::from("[");
        for p in 0..r.players {
            for t in 0..r.types {
                let symbol = r.piece_symbol(r.piece(crate::ir::PlayerId(p as u8), crate::ir::PieceTypeId(t as u8)));
                for _ in 0..self.st.hand[p * r.types + t] {
                    out.push_str(&symbol);
                }
            }
        }
        out.push(']');
        out
    }
}
