//! The rows of a position string: cells, stacks and the pieces standing between cells.

use crate::ir::{CellId, PlayerId};
use crate::position::Position;
use crate::position_error::PositionError;
use crate::rules::{Piece, Rules};

/// Reads one row of cells at byte offset `at`.
pub(super) fn read_row(pos: &mut Position, row: &[CellId], text: &str, at: usize) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let mut i = 0;
    let bytes: Vec<(usize, char)> = text.char_indices().collect();
    let mut k = 0;
    let too_many = |o: usize| PositionError {
        offset: at + o,
        len: 1,
        message: format!("too many cells in this row: it has {}", row.len()),
    };
    while k < bytes.len() {
        let (o, ch) = bytes[k];
        if ch.is_ascii_digit() {
            let mut n = 0usize;
            let start = o;
            while k < bytes.len() && bytes[k].1.is_ascii_digit() {
                n = n.saturating_mul(10).saturating_add(bytes[k].1 as usize - '0' as usize);
                k += 1;
            }
            // `n > row.len() - i`, not `i + n > row.len()`: a count of 20 digits must not wrap.
            if n == 0 || n > row.len() - i {
                return Err(if n == 0 {
                    PositionError {
                        offset: at + start,
                        len: 1,
                        message: "expected a count of empty squares of at least 1".into(),
                    }
                } else {
                    too_many(start)
                });
            }
            i += n;
            continue;
        }
        if i >= row.len() {
            return Err(too_many(o));
        }
        if ch == '*' {
            pos.set_hole(row[i]);
        } else if ch == '+' && !rules.squares.owned && rules.has_marks() {
            // `+P`: a piece of a type marked `+`.
            let (piece, _) = rules.read_piece_symbol(&text[o..], true).ok_or_else(|| PositionError {
                offset: at + o,
                len: text[o..].chars().take(2).map(char::len_utf8).sum(),
                message: "expected a piece marked `+` (like `+P`) after `+`".into(),
            })?;
            pos.put(row[i], piece);
            pos.set_owner(row[i], Some(rules.owner(piece)));
            k += 1;
        } else if ch == '+' || ch == '-' {
            if !rules.squares.owned {
                return Err(PositionError {
                    offset: at + o,
                    len: 1,
                    message: format!("`{ch}` marks an owned empty square, but this game's squares have no owners"),
                });
            }
            pos.set_owner(row[i], Some(PlayerId(if ch == '+' { 0 } else { 1 })));
        } else if ch == '(' {
            // A stack: `(Pn)` puts a white pawn and a black knight on one cell.
            let close = bytes[k..].iter().position(|(_, c)| *c == ')').map(|j| k + j).ok_or_else(|| PositionError {
                offset: at + o,
                len: text.len() - o,
                message: "expected `)` to close this stack".into(),
            })?;
            read_stack(pos, row[i], &text[o..=bytes[close].0], at + o)?;
            k = close;
        } else {
            let (piece, len) = rules.read_piece_symbol(&text[o..], false).ok_or_else(|| PositionError {
                offset: at + o,
                len: ch.len_utf8(),
                message: format!("expected a piece letter, a digit, `*` or a `(` stack, found `{ch}`"),
            })?;
            // A `~` read with the letter (`Q~`), a player prefix before it (`sQ`, `n+P`).
            k += text[o..o + len].chars().count() - 1;
            pos.put(row[i], piece);
            // A piece stands on a square of its own player's.
            pos.set_owner(row[i], Some(rules.owner(piece)));
        }
        i += 1;
        k += 1;
    }
    if i != row.len() {
        return Err(PositionError {
            offset: at,
            len: text.len().max(1),
            message: format!("this row describes {i} cells, but the board's row has {}", row.len()),
        });
    }
    Ok(())
}

/// Reads a stack, `(Pn)` (the parentheses included), onto `cell`; `at` is its byte offset.
fn read_stack(pos: &mut Position, cell: CellId, text: &str, at: usize) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let name = rules.cell_name(cell).to_string();
    let capacity = rules.most_pieces(cell);
    // The stack's pieces, each with its offset and length in the text.
    let inner_text = &text[1..text.len() - 1];
    let mut inner: Vec<(usize, Result<Piece, char>)> = Vec::new();
    // Where squares are owned, `+` or `-` last names the square's owner (`(pG+)`).
    let mark = match inner_text.chars().last() {
        Some(m @ ('+' | '-')) if rules.squares.owned && inner_text.len() > 1 => Some(m),
        _ => None,
    };
    let inner_text = &inner_text[..inner_text.len() - mark.map_or(0, char::len_utf8)];
    let mut j = 0;
    while j < inner_text.len() {
        let rest = &inner_text[j..];
        match rules.read_piece_symbol(rest, !rules.squares.owned) {
            Some((piece, len)) => {
                inner.push((1 + j, Ok(piece)));
                j += len;
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                inner.push((1 + j, Err(c)));
                j += c.len_utf8();
            }
        }
    }
    if inner.is_empty() {
        return Err(PositionError { offset: at, len: 2, message: "expected piece letters inside `( )`".into() });
    }
    if !rules.is_stack_cell(cell) && inner.len() > 1 {
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("`{name}` holds one piece: it is in no zone with a capacity"),
        });
    }
    if capacity.is_some_and(|n| inner.len() > n as usize) {
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected at most {} pieces on `{name}`, found {}", capacity.unwrap_or(0), inner.len()),
        });
    }
    let mut owners = Vec::new();
    for &(po, pc) in &inner {
        let piece = pc.map_err(|pc| PositionError {
            offset: at + po,
            len: pc.len_utf8(),
            message: format!("expected a piece letter in the stack, found `{pc}`"),
        })?;
        pos.put(cell, piece);
        owners.push(rules.owner(piece));
    }
    // As for a single letter: pieces of one player stand on a square of theirs, so `(B)`
    // reads as `B`; unless the mark names the owner.
    match mark {
        Some(m) => pos.set_owner(cell, Some(PlayerId(if m == '+' { 0 } else { 1 }))),
        None if owners.windows(2).all(|w| w[0] == w[1]) => pos.set_owner(cell, owners.first().copied()),
        None => {}
    }
    Ok(())
}

/// Reads the pieces standing between cells: `{Ra1.5,bef3.5}` at byte offset `at`.
pub(super) fn read_between(pos: &mut Position, text: &str, at: usize) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let err = |offset: usize, len: usize, message: String| PositionError { offset, len: len.max(1), message };
    let Some(inner) = text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) else {
        return Err(err(at, text.len(), "expected `{...}` closed by `}` at the end of the board".into()));
    };
    if !rules.has_between() {
        return Err(err(at, text.len(), "this board has no locations between cells".into()));
    }
    let mut offset = at + 1;
    for entry in inner.split(',') {
        let (piece, len) = rules.read_piece_symbol(entry, true).ok_or_else(|| {
            err(offset, entry.len(), format!("expected a piece letter and a location like `Ra1.5`, found `{entry}`"))
        })?;
        let name = &entry[len..];
        let name_at = offset + entry.len() - name.len();
        let ty = &rules.variant.pieces[rules.type_of(piece).0 as usize];
        if !ty.stands_between() {
            return Err(err(
                offset,
                1,
                format!("a {} cannot stand between cells: none of its moves may `stop-between`", ty.name),
            ));
        }
        let cell = rules.cell_by_name(name).filter(|c| rules.is_between(*c)).ok_or_else(|| {
            err(name_at, name.len(), format!("expected a location between cells (like `a1.5`), found `{name}`"))
        })?;
        if let Some(c) = rules.covers(cell).iter().find(|c| pos.piece_at(**c).is_some()) {
            return Err(err(
                name_at,
                name.len(),
                format!("`{name}` covers `{}`, which already holds a piece", rules.cell_name(*c)),
            ));
        }
        pos.put(cell, piece);
        offset += entry.len() + 1;
    }
    Ok(())
}

/// The owner of a square a position string gives by its pieces alone: the one player whose
/// pieces stand there, none under both players' (or none).
pub(super) fn implied_owner(rules: &Rules, pieces: &[Piece]) -> Option<PlayerId> {
    let first = rules.owner(*pieces.first()?);
    pieces.iter().all(|p| rules.owner(*p) == first).then_some(first)
}
