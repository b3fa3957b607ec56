//! The castlings of a section: those the start position's rights ask for, and with `castlingDroppedPiece` every castling a drop of the king or a rook may grant (`gained-by-drop`).

use super::{cell, type_name, Writer};
use crate::ini::fen::Mark;

impl Writer<'_> {
    /// The castle lines, and the rights the start position holds.
    pub(super) fn castles(&mut self) -> (Vec<String>, Vec<char>) {
        let m = self.m;
        let (mut lines, mut rights) = (Vec::new(), Vec::new());
        if !m.castling.allowed {
            return (lines, rights);
        }
        let mut wanted: Vec<char> = self.fen.castling.chars().collect();
        if m.castling.dropped_piece {
            // Fairy-Stockfish grants these rights to a king dropped on its castling cell with a
            // rook in a corner of the rank, or a rook dropped in a corner beside such a king.
            wanted.extend("KQkq".chars().filter(|r| !self.fen.castling.contains(*r)));
        }
        for right in wanted {
            let held = self.fen.castling.contains(right);
            let white = right.is_ascii_uppercase();
            let Some((king, rook, kto, rto, notation)) = self.castling_cells(right, held) else { continue };
            let rank = if white { m.castling.rank - 1 } else { m.ranks - m.castling.rank };
            let player = if white { "white" } else { "black" };
            let mut line = format!(
                "castle \"{notation}\" {player} right {right} king {} -> {} partner {} -> {}",
                cell(king, rank),
                cell(kto, rank),
                cell(rook, rank),
                cell(rto, rank)
            );
            if m.castling.dropped_piece {
                match self.gained_by_drop(usize::from(!white), king, rook) {
                    Some(by) => line.push_str(&by),
                    None => continue,
                }
            }
            lines.push(line);
            if held {
                rights.push(right);
            }
        }
        (lines, rights)
    }

    /// The king's and the partner's start files, their destinations and the notation of a
    /// right: from the start position where it holds the right, else the castling king file
    /// and the corner.
    fn castling_cells(&mut self, right: char, held: bool) -> Option<(u8, u8, u8, u8, &'static str)> {
        let m = self.m;
        let white = right.is_ascii_uppercase();
        let c = usize::from(!white);
        let rank = if white { m.castling.rank - 1 } else { m.ranks - m.castling.rank };
        let (king, rook) = if held {
            let on_rank = |slot_ok: &dyn Fn(usize) -> bool| -> Vec<u8> {
                let mut files: Vec<u8> = self
                    .fen
                    .pieces
                    .iter()
                    .filter(|p| p.1 == rank && p.2 == white && p.4 == Mark::Plain && slot_ok(p.3))
                    .map(|p| p.0)
                    .collect();
                files.sort();
                files
            };
            let kings = on_rank(&|s| s == m.castling.king_piece[c]);
            let &king = kings.iter().find(|&&f| f == m.castling.king_file).or(kings.first())?;
            let rooks = on_rank(&|s| m.castling.rook_pieces[c] & (1 << s) != 0);
            let rook = match right.to_ascii_lowercase() {
                'k' => *rooks.iter().rev().find(|&&f| f > king)?,
                'q' => *rooks.iter().find(|&&f| f < king)?,
                _ => {
                    self.refuse(
                        "startFen",
                        &format!("castling right `{right}` (a file letter, as in Chess960) is not imported"),
                    );
                    return None;
                }
            };
            (king, rook)
        } else {
            let corner = if right.eq_ignore_ascii_case(&'k') { m.files - 1 } else { 0 };
            (m.castling.king_file, corner)
        };
        Some(if right.eq_ignore_ascii_case(&'k') {
            (king, rook, m.castling.kingside_file, m.castling.kingside_file - 1, "O-O")
        } else {
            (king, rook, m.castling.queenside_file, m.castling.queenside_file + 1, "O-O-O")
        })
    }

    /// ` gained-by-drop KING ROOK` for a castling of player `c` from these files, or a refusal
    /// where the language cannot say what Fairy-Stockfish grants.
    fn gained_by_drop(&mut self, c: usize, king: u8, rook: u8) -> Option<String> {
        let m = self.m;
        let rooks: Vec<usize> = m.slots().filter(|s| m.castling.rook_pieces[c] & (1 << s) != 0).collect();
        let corner = rook == 0 || rook == m.files - 1;
        if rooks.len() != 1 || king != m.castling.king_file || !corner {
            self.refuse(
                "castlingDroppedPiece",
                "castling gained by drops needs one castling rook type, the king on its castling file and the rooks in the corners",
            );
            return None;
        }
        Some(format!(" gained-by-drop {} {}", type_name(m.castling.king_piece[c]), type_name(rooks[0])))
    }
}
