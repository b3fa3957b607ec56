//! The pieces' notation letters (and which type short notation writes without one) and the `(board-setup ...)`: placements on the board and pieces in hand.
use varia_interpreter::ir::{Instr, PieceType, PieceTypeId, PlayerId};

use super::{cell_id, construct_name, Lowerer, ZrfNote};
use crate::reader::{Sexp, ZrfError};

/// The letters chess notation gives its pieces, with their English names.
const CHESS_LETTERS: [(char, &str); 6] =
    [('K', "King"), ('Q', "Queen"), ('R', "Rook"), ('B', "Bishop"), ('N', "Knight"), ('P', "Pawn")];

/// The setup's pieces on the board, by cell.
pub(crate) type Placements = Vec<(varia_interpreter::ir::CellId, Vec<(PlayerId, PieceTypeId)>)>;

/// The setup's pieces in hand: (player, type, how many).
pub(crate) type Hands = Vec<(PlayerId, PieceTypeId, u32)>;

impl Lowerer<'_> {
    /// The notation letters of the declared pieces: each name's first letter, given first to
    /// the shortest names that want it (a short name has fewer other letters to fall back on:
    /// King keeps K and Knight takes N), ties in declaration order; then the next letter of
    /// the name not used yet, else any free letter A-Z, else a free Greek or Cyrillic capital
    /// (only needed past 26 types; 82 letters in all).
    pub(crate) fn letters(&self) -> Vec<char> {
        let names = &self.pieces.list;
        let mut order: Vec<usize> = (0..names.len()).collect();
        order.sort_by_key(|&i| names[i].chars().count());
        let mut letters = vec!['?'; names.len()];
        let mut used: Vec<char> = Vec::new();
        let upper = |name: &str| -> Vec<char> {
            name.chars().filter(char::is_ascii_alphabetic).map(|c| c.to_ascii_uppercase()).collect()
        };
        let mut pending = Vec::new();
        for &i in &order {
            match upper(&names[i]).first() {
                Some(&c) if !used.contains(&c) => {
                    used.push(c);
                    letters[i] = c;
                }
                _ => pending.push(i),
            }
        }
        pending.sort();
        for i in pending {
            // Greek, then Cyrillic capitals with a lower-case form (U+03A2 has none), so that
            // both players' letters differ in position strings.
            let spare = ('A'..='Z').chain(('Α'..='Ω').chain('А'..='Я').filter(|c| c.to_lowercase().next() != Some(*c)));
            // A letter taken from later in the name never reads as another chess piece's
            // (shatranj's Sarbaz is not written B, the bishop's letter), unless nothing else
            // is left.
            let reads_as_other = |c: &char| {
                CHESS_LETTERS.iter().any(|(letter, name)| letter == c && !names[i].eq_ignore_ascii_case(name))
            };
            let letter = upper(&names[i])
                .into_iter()
                .chain(spare.clone())
                .find(|c| !used.contains(c) && !reads_as_other(c))
                .or_else(|| spare.clone().find(|c| !used.contains(c)))
                .unwrap_or('?');
            used.push(letter);
            letters[i] = letter;
        }
        letters
    }

    /// `(board-setup (P (Type pos ... off N ...)) ...)`: placements sorted by cell, and hands.
    pub(crate) fn setup(&mut self, forms: &[&Sexp]) -> Result<(Placements, Hands), ZrfError> {
        let label = "in (board-setup ...)";
        let mut placed: Vec<(usize, PlayerId, PieceTypeId)> = Vec::new();
        let mut hands: Vec<(PlayerId, PieceTypeId, u32)> = Vec::new();
        for form in forms {
            for side in form.tail() {
                let Some((who, groups)) = side.as_list().and_then(<[Sexp]>::split_first) else {
                    return Err(self.err("expected (Player (Piece position ...) ...)", side, label));
                };
                let player = self.player(who, label)?;
                for group in groups {
                    let Some((ty, places)) = group.as_list().and_then(<[Sexp]>::split_first) else {
                        return Err(self.err("expected (Piece position ... off N ...)", group, label));
                    };
                    let piece = self.piece(ty, label)?;
                    let mut rest = places.iter();
                    while let Some(at) = rest.next() {
                        if at.is_atom("off") {
                            let count = rest.next();
                            let Some(n) = count.and_then(Sexp::as_atom).and_then(|n| n.parse::<u32>().ok()) else {
                                return Err(self.err("'off' needs a number of pieces", count.unwrap_or(at), label));
                            };
                            match hands.iter_mut().find(|(p, t, _)| *p == player && *t == piece) {
                                Some(entry) => entry.2 = entry.2.saturating_add(n),
                                None => hands.push((player, piece, n)),
                            }
                            continue;
                        }
                        let cell = self.cell(at, label)?;
                        // Ruling: one piece per position (Zillions boards hold no stacks) and the
                        // setup is placed in order, so a later piece replaces an earlier one
                        // (short-assize.zrf puts a PQ on e6 over the Pawn there), with a note.
                        if let Some(at_before) = placed.iter().position(|&(c, _, _)| c == cell) {
                            let (_, _, before) = placed.remove(at_before);
                            let before = self.pieces.list.get(usize::from(before.0)).cloned().unwrap_or_default();
                            self.notes.push(ZrfNote {
                                message: format!(
                                    "{} on position '{}' replaces the {before} placed there before",
                                    construct_name(ty),
                                    construct_name(at)
                                ),
                                span: at.span.clone(),
                            });
                        }
                        placed.push((cell, player, piece));
                    }
                }
            }
        }
        placed.sort_by_key(|&(cell, _, _)| cell);
        let placements =
            placed.into_iter().map(|(cell, player, piece)| (cell_id(cell), vec![(player, piece)])).collect();
        Ok((placements, hands))
    }
}

/// Marks the type short notation writes without its letter, as chess writes its pawns: the type
/// the setup gives the most pieces (on the board and in hand, all players together; no other
/// type as many), when one of its moves promotes it (an `add` naming a type it becomes). A game
/// where that type does not promote, or two types tie, writes every letter.
pub(crate) fn mark_letterless(types: &mut [PieceType], placements: &Placements, hands: &Hands) {
    let mut count = vec![0u64; types.len()];
    for (_, stack) in placements {
        for &(_, ty) in stack {
            count[usize::from(ty.0)] += 1;
        }
    }
    for &(_, ty, n) in hands {
        count[usize::from(ty.0)] += u64::from(n);
    }
    let Some(most) = count.iter().copied().max().filter(|&m| m > 0) else { return };
    let mut tops = (0..types.len()).filter(|&i| count[i] == most);
    let (Some(top), None) = (tops.next(), tops.next()) else { return };
    let own = PieceTypeId(top as u8);
    if types[top].programs.iter().any(|p| promotes(&p.body, own)) {
        types[top].san_without_letter = true;
    }
}

/// Whether a block (or a block inside it) adds the moving piece as another type.
fn promotes(block: &[Instr], own: PieceTypeId) -> bool {
    block.iter().any(|i| match i {
        Instr::Add { promote, .. } => promote.iter().any(|&t| t != own),
        Instr::If(_, then, other) => promotes(then, own) || promotes(other, own),
        Instr::While(_, body) => promotes(body, own),
        _ => false,
    })
}
