//! The position-string fields of program features: pieces in hand, attributes, the turn number of a turn order, a partial move's piece, the last move; and the hash key of a partial move.

use crate::ir::{CellId, MoveTypeId, PlayerId};
use crate::position::{Move, MoveKind, Position, State};
use crate::position_error::PositionError;
use crate::rules::programs::ProgramRules;
use crate::rules::Rules;

impl State {
    /// The move made last: the last of the history, else the one a position string gave.
    pub(crate) fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv).or(self.prior)
    }

    /// The hash key of a partial move going on (0 when none): everything its continuation
    /// depends on besides the board, that is its piece's cell, the move type it continues with,
    /// the actions its turn has had (the turn ends at the limit) and, where programs test it,
    /// the last move.
    pub(crate) fn partial_key(&self, r: &Rules, pr: &ProgramRules) -> u64 {
        let Some((c, ty)) = self.partial else { return 0 };
        let mut key = pr.z_partial[c.0 as usize] ^ pr.z_parts[self.parts.min(crate::limits::TURN_PARTS) as usize];
        if let Some(t) = ty {
            key ^= pr.z_partial_type.get(t.0 as usize).copied().unwrap_or(0);
        }
        if let Some(m) = self.last_move().filter(|_| pr.reads_history) {
            let cells = r.cell_count();
            key ^= pr.z_last[2 * m.from.0 as usize] ^ pr.z_last[2 * m.to.0 as usize + 1];
            if m.kind == MoveKind::Drop {
                key ^= pr.z_last[2 * cells];
            }
        }
        key
    }
}

impl crate::position::Position {
    /// In the middle of a turn of partial moves: whether this position, the count of actions
    /// aside, was met earlier in the same turn (a man hopping to and fro is back where it was).
    /// Every turn that goes on from here could have gone on from there, so the search need not
    /// look further.
    pub fn repeats_in_turn(&self) -> bool {
        let (st, r) = (&self.st, &*self.rules);
        let Some(pr) = r.program.as_deref().filter(|_| st.partial.is_some()) else { return false };
        let without_parts = |hash: u64, partial: bool, parts: u8| {
            if partial {
                hash ^ pr.z_parts[parts.min(crate::limits::TURN_PARTS) as usize]
            } else {
                hash
            }
        };
        let here = without_parts(st.hash, true, st.parts);
        for u in st.history.iter().rev() {
            if u.side != st.side {
                return false;
            }
            if without_parts(u.hash, u.partial.is_some(), u.parts) == here {
                return true;
            }
            // The turn's first action: nothing before it belongs to this turn.
            if u.partial.is_none() && u.slot == 0 {
                return false;
            }
        }
        false
    }

    /// The position-string fields of program play, each with a leading space (the hands are
    /// written after the rows, see [`crate::to_hand`]; `hand=` is still read): `attrs=` (for each attribute, the cells whose piece has
    /// it: `never-moved:a1,e1;...`), `turn=` (turns completed, with a turn order), `last=`
    /// (the last move, where programs test it), `partial=` (the piece that goes on in the
    /// middle of a partial move) and `parts=` (the actions its turn has had).
    pub(crate) fn program_fields(&self) -> String {
        let r = &*self.rules;
        let Some(pr) = r.program.as_deref() else { return String::new() };
        let v = &r.variant;
        let mut out = String::new();
        if pr.attributes > 0 {
            let parts: Vec<String> = (0..pr.attributes)
                .map(|a| {
                    let cells: Vec<&str> = (0..r.cells)
                        .filter(|&c| self.st.attrs[c] & (1u64 << a) != 0 && self.piece_at(CellId(c as u16)).is_some())
                        .map(|c| r.cell_name(CellId(c as u16)))
                        .collect();
                    format!("{}:{}", v.attributes[a], if cells.is_empty() { "-".to_string() } else { cells.join(",") })
                })
                .collect();
            out.push_str(&format!(" attrs={}", parts.join(";")));
        }
        if r.ends.counts_checks {
            let n: Vec<String> = self.st.clocks.checks.iter().map(|n| n.to_string()).collect();
            out.push_str(&format!(" checks={}", n.join(",")));
        }
        if v.turn_order.is_some() {
            out.push_str(&format!(" turn={}", self.st.turn));
        }
        if let Some(m) = self.st.last_move().filter(|_| pr.reads_history) {
            // A drop is written `@TO` (`FROM@TO` where its program started elsewhere): a test
            // of where the last move started is false after a drop.
            let (from, to) = (r.cell_name(m.from), r.cell_name(m.to));
            match m.kind {
                MoveKind::Drop if m.from == m.to => out.push_str(&format!(" last=@{to}")),
                MoveKind::Drop => out.push_str(&format!(" last={from}@{to}")),
                _ => out.push_str(&format!(" last={from}-{to}")),
            }
        }
        if let Some((c, ty)) = self.st.partial {
            out.push_str(&format!(" partial={}", r.cell_name(c)));
            if let Some(t) = ty {
                out.push_str(&format!(":{}", v.move_types[t.0 as usize]));
            }
            out.push_str(&format!(" parts={}", self.st.parts));
        }
        out
    }
}

/// Reads one `key=value` field of program play into the position (see
/// [`crate::position::Position::program_fields`]).
pub(crate) fn read_program_field(pos: &mut Position, field: &str, at: usize) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let r = &*rules;
    let Some((key, value)) = field.split_once('=') else {
        return Err(err(
            at,
            field.len(),
            format!("expected `hand=`, `attrs=`, `checks=`, `turn=`, `partial=`, `parts=` or `last=`, found `{field}`"),
        ));
    };
    // Where the value starts.
    let vat = at + key.len() + 1;
    match key {
        "hand" => read_hand(pos, value, vat)?,
        "attrs" => read_attrs(pos, value, vat)?,
        "checks" if r.ends.counts_checks => {
            let counts: Vec<Option<u32>> = value.split(',').map(|n| n.parse().ok().filter(|n| *n <= 1000)).collect();
            match counts.into_iter().collect::<Option<Vec<u32>>>() {
                Some(c) if c.len() == r.players => pos.set_checks(c),
                _ => {
                    return Err(err(
                        vat,
                        value.len(),
                        format!("expected the checks given by each player (e.g. `1,0`; at most 1000), found `{value}`"),
                    ))
                }
            }
        }
        "turn" => {
            pos.st.turn =
                value.parse().map_err(|_| err(vat, value.len(), format!("expected a number, found `{value}`")))?;
        }
        "partial" => {
            let (c, ty) = match value.split_once(':') {
                Some((c, t)) => {
                    let id = r.variant.move_types.iter().position(|x| x == t).ok_or_else(|| {
                        err(vat + c.len() + 1, t.len(), format!("expected a move type of this game, found `{t}`"))
                    })?;
                    (c, Some(MoveTypeId(id as u8)))
                }
                None => (value, None),
            };
            pos.st.partial = Some((cell(r, c, vat)?, ty));
            pos.st.parts = pos.st.parts.max(1);
        }
        "parts" => read_parts(pos, field, value, at)?,
        "last" => read_last(pos, value, vat)?,
        _ => {
            return Err(err(
                at,
                key.len(),
                format!("expected `hand=`, `attrs=`, `turn=`, `partial=`, `parts=` or `last=`, found `{key}=`"),
            ))
        }
    }
    Ok(())
}

/// An error at `offset` in the position string, at least one character long.
fn err(offset: usize, len: usize, message: String) -> PositionError {
    PositionError { offset, len: len.max(1), message }
}

/// The cell named `name`, written at `at`.
fn cell(r: &Rules, name: &str, at: usize) -> Result<CellId, PositionError> {
    r.cell_by_name(name).ok_or_else(|| err(at, name.len(), format!("expected a cell name, found `{name}`")))
}

/// `hand=`: the pieces in hand, each a piece's symbol and a count (`-`: none), the value at `vat`.
fn read_hand(pos: &mut Position, value: &str, vat: usize) -> Result<(), PositionError> {
    let r = pos.rules.clone();
    pos.st.hand.iter_mut().for_each(|n| *n = 0);
    if value == "-" {
        return Ok(());
    }
    let chars: Vec<(usize, char)> = value.char_indices().collect();
    let mut k = 0;
    while k < chars.len() {
        let (o, ch) = chars[k];
        let (piece, len) = r
            .read_piece_symbol(&value[o..], true)
            .ok_or_else(|| err(vat + o, ch.len_utf8(), format!("expected a piece letter, found `{ch}`")))?;
        // The symbol's characters (`Q~` is two).
        k += value[o..o + len].chars().count();
        let start = k;
        while k < chars.len() && chars[k].1.is_ascii_digit() {
            k += 1;
        }
        let digits: String = chars[start..k].iter().map(|(_, c)| *c).collect();
        // Bounded as a setup's hand is: hands are written one letter per piece.
        let n: u32 = digits
            .parse()
            .ok()
            .filter(|n| *n <= 10_000)
            .ok_or_else(|| err(vat + o, ch.len_utf8(), format!("expected a count from 0 to 10000 after `{ch}`")))?;
        let i = r.owner(piece).0 as usize * r.types + r.type_of(piece).0 as usize;
        pos.st.hand[i] = n;
    }
    Ok(())
}

/// `attrs=`: per attribute, the cells whose pieces carry it (`name:cells;...`), the value at
/// `vat`.
fn read_attrs(pos: &mut Position, value: &str, vat: usize) -> Result<(), PositionError> {
    let r = pos.rules.clone();
    pos.st.attrs.iter_mut().for_each(|a| *a = 0);
    let mut o = vat;
    for part in value.split(';') {
        let Some((name, cells)) = part.split_once(':') else {
            return Err(err(o, part.len(), format!("expected `attribute:cells`, found `{part}`")));
        };
        let a = r
            .variant
            .attributes
            .iter()
            .position(|x| x == name)
            .filter(|a| *a < 64 && !pos.st.attrs.is_empty())
            .ok_or_else(|| err(o, name.len(), format!("expected an attribute of this game, found `{name}`")))?;
        let mut co = o + name.len() + 1;
        if cells != "-" {
            for c in cells.split(',') {
                let id = cell(&r, c, co)?;
                pos.st.attrs[id.0 as usize] |= 1u64 << a;
                co += c.len() + 1;
            }
        }
        o += part.len() + 1;
    }
    Ok(())
}

/// `parts=`: the actions of the partial move so far (after `partial=`), the field at `at`.
fn read_parts(pos: &mut Position, field: &str, value: &str, at: usize) -> Result<(), PositionError> {
    if pos.st.partial.is_none() {
        return Err(err(
            at,
            field.len(),
            "`parts=` counts the actions of a partial move: it follows `partial=`".into(),
        ));
    }
    let vat = at + "parts=".len();
    let max = crate::limits::TURN_PARTS;
    pos.st.parts = value.parse().ok().filter(|n| (1..max).contains(n)).ok_or_else(|| {
        err(
            vat,
            value.len(),
            format!(
                "expected the actions of the turn so far, 1 to {} (a turn has at most {max}), found `{value}`",
                max - 1
            ),
        )
    })?;
    Ok(())
}

/// `last=`: the move played last (`FROM-TO`, or a drop `@TO`), the value at `vat`.
fn read_last(pos: &mut Position, value: &str, vat: usize) -> Result<(), PositionError> {
    let r = pos.rules.clone();
    let (from, to, kind) = match (value.split_once('@'), value.split_once('-')) {
        (Some((f, t)), _) => (if f.is_empty() { t } else { f }, t, MoveKind::Drop),
        (None, Some((f, t))) => (f, t, MoveKind::Normal),
        _ => return Err(err(vat, value.len(), format!("expected `FROM-TO` or `@TO`, found `{value}`"))),
    };
    let to_at = vat + value.len() - to.len();
    let from_at = if value.starts_with('@') { to_at } else { vat };
    let (from, to) = (cell(&r, from, from_at)?, cell(&r, to, to_at)?);
    pos.st.prior = Some(Move { from, to, kind, ..Move::end_turn() });
    Ok(())
}

/// The first turn of the turn order in which `side` moves (0 without a turn order), for a
/// position string that gives no `turn=`.
pub(crate) fn first_turn_of(r: &crate::rules::Rules, side: PlayerId, _fullmove: u32) -> u32 {
    let Some(o) = r.variant.turn_order.as_ref() else { return 0 };
    let span = (o.opening.len() + o.cycle.len()) as u32;
    (0..span).find(|&t| crate::rules::players::turn_entry(r, t).is_some_and(|e| e.player == side)).unwrap_or(0)
}
