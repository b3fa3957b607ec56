//! Fairy-Stockfish's `immobilityIllegal`: the cells from which a piece type could never move again, where it may neither move without promoting nor be dropped.

use super::betza;
use super::fen::{Fen, Mark};
use super::model::{rank_region, square, Model, Region, PAWN, SLOTS};

/// The cells of each side from which no quiet move of `slot` lands on the board; `None` when
/// its Betza string does not read (an error the piece's own lines report).
pub fn dead(m: &Model, slot: usize) -> Option<[Region; 2]> {
    // The pawn's moves are written by hand (`step n`), not from its Betza string.
    let vectors = if slot == PAWN { vec![(1, 0)] } else { betza::quiet_vectors(m.betza(slot)).ok()? };
    let (files, ranks) = (i16::from(m.files), i16::from(m.ranks));
    let mut out = [0, 0];
    for rank in 0..ranks {
        for file in 0..files {
            for (c, sign) in [(0, 1), (1, -1)] {
                // Black's moves are White's turned round.
                let alive = vectors.iter().any(|&(dr, df)| {
                    let (r, f) = (rank + sign * i16::from(dr), file + sign * i16::from(df));
                    (0..ranks).contains(&r) && (0..files).contains(&f)
                });
                if !alive {
                    out[c] |= square(file as u8, rank as u8);
                }
            }
        }
    }
    Some(out)
}

/// Why the import cannot bar the cells with `forbid` lines, if it cannot: a piece that stands,
/// or may arrive by promotion or castling, where it could never move again (Fairy-Stockfish
/// bars only a piece's own moves and drops there; a forbid would bar every move after).
pub fn unsupported(m: &Model, fen: &Fen) -> Option<&'static str> {
    let dead: Vec<[Region; 2]> =
        (0..SLOTS).map(|s| if m.letters[s].is_some() { dead(m, s).unwrap_or([0, 0]) } else { [0, 0] }).collect();
    let stands = fen.pieces.iter().any(|&(f, r, white, slot, mark)| {
        let moves_as =
            if mark == Mark::Plus { m.promotion.promoted_piece_type.get(&slot).copied().unwrap_or(slot) } else { slot };
        dead[moves_as][usize::from(!white)] & square(f, r) != 0
    });
    if stands {
        return Some("a start position with a piece where it could never move again is not imported");
    }
    for c in [0, 1] {
        let pawn_targets = if m.promotion.pawn_types[c] != 0 { m.promotion.piece_types[c] } else { 0 };
        let by_pawn = (0..SLOTS).any(|s| pawn_targets & (1 << s) != 0 && dead[s][c] & m.promotion.region[c] != 0);
        let by_piece = m.promotion.promoted_piece_type.values().any(|&t| dead[t][c] != 0);
        if by_pawn || by_piece {
            return Some("a promotion to a piece that could never move again from where it lands is not imported");
        }
        let rank = rank_region(if c == 0 {
            m.castling.rank.saturating_sub(1)
        } else {
            m.ranks.saturating_sub(m.castling.rank)
        });
        let rooks = m.castling.rook_pieces[c];
        let castlers =
            (0..SLOTS).any(|s| (s == m.castling.king_piece[c] || rooks & (1 << s) != 0) && dead[s][c] & rank != 0);
        if m.castling.allowed && castlers {
            return Some("castling with a piece that could never move again from the castling rank is not imported");
        }
    }
    None
}
