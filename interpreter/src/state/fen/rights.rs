//! The castling and gating rights of a position string checked against its pieces, and the rights whose cells come from the position written back.

use crate::ir::{CellId, PlayerId};
use crate::position::Position;

/// Why a gating right of its own cannot be held in this position, if it cannot: it needs a
/// piece of its player on one of its cells.
pub(super) fn gate_mismatch(pos: &Position, letter: char) -> Option<String> {
    let r = pos.rules();
    let gates: Vec<&crate::ir::Gate> = r.variant.gates.iter().filter(|g| g.right == letter).collect();
    let player = gates.first()?.player;
    let held =
        gates.iter().flat_map(|g| g.cells.iter()).any(|c| pos.pieces_at(*c).iter().any(|q| r.owner(*q) == player));
    if held {
        return None;
    }
    let cells: Vec<&str> = gates.iter().flat_map(|g| g.cells.iter()).map(|c| r.cell_name(*c)).collect();
    Some(format!(
        "gating right `{letter}` needs a piece of {}'s on {}",
        r.variant.players[player.0 as usize].name,
        cells.join(" or ")
    ))
}

/// The king cell and the partner cells on its side of a castling taken from the position, the
/// outermost first: the player's pieces of the declaration's types on its cells.
fn free_pieces(pos: &Position, d: &crate::rules::castles::FreeDecl) -> Option<(CellId, Vec<CellId>)> {
    let r = &pos.rules;
    let of = |c: CellId, ty| pos.piece_at(c).is_some_and(|p| r.owner(p) == d.player && r.type_of(p) == ty);
    let k = d.cells.iter().position(|c| of(*c, d.king))?;
    let mut partners: Vec<CellId> = (0..d.cells.len())
        .filter(|i| (*i as i32 - k as i32).signum() == d.side && of(d.cells[*i], d.partner))
        .map(|i| d.cells[i])
        .collect();
    if d.side > 0 {
        partners.reverse();
    }
    Some((d.cells[k], partners))
}

/// The rights bit an X-FEN letter (`K`, `Q`: a castling's own letter, for the outermost
/// partner on its side) stands for in this position: `None` if no castling taken from the
/// position has that letter, an error if it has but the position has no such partner.
pub(crate) fn alias_right(pos: &Position, letter: char) -> Option<Result<usize, String>> {
    let r = &pos.rules;
    let d = r.castles.decls.iter().find(|d| d.alias == letter)?;
    let player = &r.variant.players[d.player.0 as usize].name;
    let found = free_pieces(pos, d).and_then(|(_, partners)| partners.first().copied());
    Some(match found.and_then(|c| r.castles.bit_of(d.player, c)) {
        Some(bit) => Ok(bit),
        None => Err(format!(
            "castling right `{letter}` needs {player}'s {} on its castling cells with a {} on the castling's side",
            r.variant.pieces[d.king.0 as usize].name.to_lowercase(),
            r.variant.pieces[d.partner.0 as usize].name.to_lowercase()
        )),
    })
}

/// The bit of an X-FEN letter, if the position gives it one (for the setup's rights).
pub(crate) fn alias_bit(pos: &Position, letter: char) -> Option<usize> {
    alias_right(pos, letter).and_then(|r| r.ok())
}

/// Why a right named by its partner's file cannot be held, if it cannot: the partner and the
/// king of some castling taken from the position must stand there, the partner on its side.
pub(super) fn derived_mismatch(pos: &Position, bit: usize) -> Option<String> {
    let r = &pos.rules;
    let (player, cell, letter) = r.castles.letters[bit - r.castles.first_bit];
    let fits = r
        .castles
        .decls
        .iter()
        .filter(|d| d.player == player)
        .any(|d| free_pieces(pos, d).is_some_and(|(_, partners)| partners.contains(&cell)));
    (!fits).then(|| {
        format!(
            "castling right `{letter}` needs {}'s castling king on its castling cells and a castling partner on {} beside it",
            r.variant.players[player.0 as usize].name,
            r.cell_name(cell)
        )
    })
}

/// The rights held of the castlings taken from the position, for one player: the castling's
/// own letter for the outermost partner on its side (X-FEN), else the partner's file letter;
/// always the file letter with `castling-notation king-takes-partner` (Shredder-FEN).
pub(super) fn derived_rights(pos: &Position, player: PlayerId) -> String {
    let r = &pos.rules;
    let mut out = String::new();
    for d in r.castles.decls.iter().filter(|d| d.player == player) {
        let Some((_, partners)) = free_pieces(pos, d) else { continue };
        for (i, c) in partners.iter().enumerate() {
            let Some(bit) = r.castles.bit_of(player, *c) else { continue };
            if pos.st.rights.castling & (1 << bit) == 0 {
                continue;
            }
            let letter = r.castles.letters[bit - r.castles.first_bit].2;
            out.push(if i == 0 && !r.variant.king_takes_partner { d.alias } else { letter });
        }
    }
    out
}

/// Why a castling right cannot be held in this position, if it cannot: its royal piece and its
/// partner must stand on their start cells, each of the type the setup puts there (any royal
/// piece, and any other piece of the player, where the setup puts nothing).
pub(super) fn castling_mismatch(pos: &Position, c: &crate::ir::Castling) -> Option<String> {
    let r = &pos.rules;
    let v = &r.variant;
    let set_up = |cell: CellId| {
        v.setup
            .placements
            .iter()
            .find(|(x, _)| *x == cell)
            .and_then(|(_, stack)| stack.last().copied())
            .filter(|(owner, _)| *owner == c.player)
            .map(|(_, t)| t)
    };
    let type_name = |t: crate::ir::PieceTypeId| v.pieces[t.0 as usize].name.to_lowercase();
    let check = |cell: CellId, royal: bool| -> Option<String> {
        let wanted = set_up(cell);
        let fits = pos.piece_at(cell).is_some_and(|p| {
            r.owner(p) == c.player
                && match wanted {
                    Some(t) => r.type_of(p) == t,
                    None => v.pieces[r.type_of(p).0 as usize].royal == royal,
                }
        });
        if fits {
            return None;
        }
        let what = match (wanted, royal) {
            (Some(t), _) => type_name(t),
            (None, true) => "royal piece".to_string(),
            (None, false) => "castling partner".to_string(),
        };
        let found = match pos.piece_at(cell) {
            None => "it is empty".to_string(),
            Some(p) => format!("it holds {}'s {}", v.players[r.owner(p).0 as usize].name, type_name(r.type_of(p))),
        };
        Some(format!("{what} on {}, but {found}", r.cell_name(cell)))
    };
    let missing = check(c.king_from, true).or_else(|| check(c.partner_from, false))?;
    Some(format!(
        "castling right `{}` ({} {}) needs {}'s {missing}",
        c.right, v.players[c.player.0 as usize].name, c.notation, v.players[c.player.0 as usize].name
    ))
}
