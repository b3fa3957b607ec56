//! Reading a position string: the string split into fields, each field read in turn (the rows, the side to move, the rights, en passant or a count's limit, the clocks, the squares' fields and the `key=value` fields).

use std::sync::Arc;

use super::rights::{alias_right, castling_mismatch, derived_mismatch, gate_mismatch};
use super::rows::{read_between, read_row};
use super::{layout, side_token, MAX_COUNT};
use crate::counters::MAX_CLOCK;
use crate::ir::{CellId, Geometry, PlayerId};
use crate::position::{EnPassant, Position, SquareMarks, UNLIMITED};
use crate::position_error::PositionError;
use crate::rules::{Piece, Rules};

impl Position {
    /// Reads a position string of this variant.
    pub fn from_position_string(rules: Arc<Rules>, text: &str) -> Result<Position, PositionError> {
        let mut pos = Position::empty(rules.clone());
        for c in &rules.variant.board.initially_empty_locations {
            pos.st.cells[c.0 as usize] = Piece::EMPTY;
            pos.st.no_square.remove(*c);
        }
        let mut fields: Vec<(usize, &str)> = split_fields(text);
        // Fairy-Stockfish's shogi form leaves out castling and en passant (`... w 0 1`): a
        // number where the castling rights stand means both are `-`.
        if fields.get(2).is_some_and(|(_, s)| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())) {
            let at = fields[2].0;
            fields.splice(2..2, [(at, "-"), (at, "-")]);
        }
        // Fairy-Stockfish's checks still needed (`3+3`) after the en-passant field.
        crate::counters::read_checks_remaining(&mut pos, &mut fields)?;
        let Some(&(board_at, board)) = fields.first() else {
            return Err(err(0, 0, "expected a position string, found nothing".into()));
        };
        read_board(&mut pos, board, board_at)?;
        let field = |i: usize| fields.get(i).copied();
        let side = read_side(&rules, field(1))?;
        pos.set_side(side);
        let castling = match field(2) {
            Some((o, s)) if s != "-" => read_rights(&pos, s, o)?,
            _ => 0,
        };
        let (ep, count_limit) = match field(3) {
            Some((o, s)) => read_passage_or_count(&pos, s, o)?,
            None => (None, 0),
        };
        let halfmove = number(field(4), 0, 0)?;
        let fullmove = number(field(5), 1, 1)?;
        let mut next = 6;
        if rules.variant.squares.is_some() {
            read_square_fields(&mut pos, field(next), field(next + 1))?;
            next += 2;
        }
        if rules.squares.slots.len() > 1 {
            read_action_fields(&mut pos, field(next), field(next + 1))?;
            next += 2;
        }
        let mut phases = None;
        let keyed = !rules.variant.phases.is_empty() || !rules.variant.choices.is_empty() || rules.eliminating();
        if rules.program.is_some() || keyed {
            (phases, next) = read_keyed_fields(&mut pos, &fields, next, side, fullmove)?;
        }
        if let Some((o, s)) = field(next) {
            return Err(err(o, s.len(), format!("expected the end of the position string, found `{s}`")));
        }
        if let Some(message) = pos.choice_without_room() {
            return Err(err(text.trim_end().len(), 0, message));
        }
        if count_limit > 0 {
            // The clock's field holds the count's progress; the clock itself starts at 0.
            pos.set_state(castling, ep, 0, fullmove);
            pos.st.clocks.count = (count_limit, halfmove);
        } else {
            pos.set_state(castling, ep, halfmove, fullmove);
        }
        if let Some(begun) = phases {
            pos.st.phases = begun;
            pos.st.hash = pos.st.compute_hash(&rules);
        }
        Ok(pos)
    }
}

/// A field of a position string and where it starts, if the string has it.
type Field<'a> = Option<(usize, &'a str)>;

/// An error at `offset` in a position string, at least one character long.
fn err(offset: usize, len: usize, message: String) -> PositionError {
    PositionError { offset, len: len.max(1), message }
}

/// Reads the board field at `board_at`: its layers of rows, then the pieces between cells (in
/// braces) and the pieces in hand (in brackets).
fn read_board(pos: &mut Position, board: &str, board_at: usize) -> Result<(), PositionError> {
    let layers = layout(&pos.rules);
    // Pieces in hand in Fairy-Stockfish's form, after the rows in brackets.
    let (board, hand) = crate::to_hand::split_hand(board, board_at);
    // Pieces between cells, after the rows in braces.
    let (board, between) = match board.find('{') {
        Some(i) => (&board[..i], Some((board_at + i, &board[i..]))),
        None => (board, None),
    };
    let layer_texts: Vec<&str> = board.split('|').collect();
    if layer_texts.len() != layers.len() {
        return Err(err(
            board_at,
            board.len(),
            format!("expected {} board layer(s) separated by `|`, found {}", layers.len(), layer_texts.len()),
        ));
    }
    let mut at = board_at;
    for (layer, ltext) in layers.iter().zip(&layer_texts) {
        let rows: Vec<&str> = ltext.split('/').collect();
        if rows.len() != layer.len() {
            return Err(err(
                at,
                ltext.len(),
                format!("expected {} rows separated by `/`, found {}", layer.len(), rows.len()),
            ));
        }
        for (row, rtext) in layer.iter().zip(&rows) {
            read_row(pos, row, rtext, at)?;
            at += rtext.len() + 1;
        }
    }
    if let Some((o, text)) = between {
        read_between(pos, text, o)?;
    }
    if let Some((o, text)) = hand {
        crate::to_hand::read_hand(pos, text, o)?;
    }
    Ok(())
}

/// The side to move: its token or its player's name (the first player without the field).
fn read_side(rules: &Rules, field: Field) -> Result<PlayerId, PositionError> {
    let Some((o, s)) = field else {
        return Ok(PlayerId(0));
    };
    (0..rules.player_count())
        .map(|p| PlayerId(p as u8))
        .find(|p| side_token(rules, *p) == s || rules.variant.players[p.0 as usize].name == s)
        .ok_or_else(|| {
            let expected: Vec<String> =
                (0..rules.player_count()).map(|p| format!("`{}`", side_token(rules, PlayerId(p as u8)))).collect();
            err(o, s.len(), format!("expected the side to move ({}), found `{s}`", expected.join(" or ")))
        })
}

/// The castling and gating rights of the field `s` at `o` (not `-`), each checked against the
/// pieces the rows placed.
fn read_rights(pos: &Position, s: &str, o: usize) -> Result<u32, PositionError> {
    let rules = &pos.rules;
    let mut castling = 0;
    for (k, ch) in s.char_indices() {
        if let Some(found) = alias_right(pos, ch) {
            castling |= 1 << found.map_err(|why| err(o + k, ch.len_utf8(), why))?;
            continue;
        }
        let i = rules.gates.bit(ch).ok_or_else(|| {
            err(
                o + k,
                ch.len_utf8(),
                format!("expected a castling or gating right of this variant or `-`, found `{ch}`"),
            )
        })?;
        let derived = i >= rules.castles.first_bit && i < rules.castles.first_bit + rules.castles.letters.len();
        let why = if derived {
            derived_mismatch(pos, i)
        } else if i < rules.castles.fixed {
            castling_mismatch(pos, &rules.castles.list[i])
        } else {
            gate_mismatch(pos, ch)
        };
        if let Some(why) = why {
            return Err(err(o + k, ch.len_utf8(), why));
        }
        castling |= rules.gates.read_letter(ch).unwrap_or(1 << i);
    }
    Ok(castling)
}

/// The field after the rights: the en passant cells, or under counting rules a count's limit
/// in half-moves (0: none).
fn read_passage_or_count(pos: &Position, s: &str, o: usize) -> Result<(Option<EnPassant>, u32), PositionError> {
    if pos.rules.ends.counting && s.starts_with(|c: char| c.is_ascii_digit()) {
        return match s.parse::<u32>() {
            Ok(n) if (1..=MAX_COUNT).contains(&n) => Ok((None, n)),
            _ => Err(err(o, s.len(), format!("expected a count's limit in half-moves, 1 to {MAX_COUNT}, found `{s}`"))),
        };
    }
    if s == "-" {
        return Ok((None, 0));
    }
    Ok((Some(read_en_passant(pos, s, o)?), 0))
}

/// A clock's number from `min` to [`MAX_CLOCK`], `default` without the field.
fn number(field: Field, default: u32, min: u32) -> Result<u32, PositionError> {
    match field {
        None => Ok(default),
        Some((o, s)) => match s.parse::<u32>() {
            Ok(n) if n >= min && n <= MAX_CLOCK => Ok(n),
            _ => Err(err(o, s.len(), format!("expected a number from {min} to {MAX_CLOCK}, found `{s}`"))),
        },
    }
}

/// Where squares are game objects: the squares in reserve and the untouchable squares.
fn read_square_fields(pos: &mut Position, reserve: Field, frozen: Field) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let reserve = match reserve {
        Some((o, s)) => read_reserves(&rules, s, o)?,
        None => pos.st.squares.reserve.clone(),
    };
    let frozen = match frozen {
        Some((o, s)) => read_marks(&rules, s, o, "an untouchable")?,
        None => SquareMarks::default(),
    };
    pos.set_square_state(reserve, frozen, 0, SquareMarks::default());
    Ok(())
}

/// Where a turn has several actions: the number of the action due and the squares touched.
fn read_action_fields(pos: &mut Position, due: Field, touched: Field) -> Result<(), PositionError> {
    let rules = pos.rules.clone();
    let slot = number(due, 1, 1)?;
    if slot as usize > rules.squares.slots.len() {
        let (o, s) = due.expect("a number was read");
        return Err(err(
            o,
            s.len(),
            format!("expected the number of the action due, 1 to {}, found `{s}`", rules.squares.slots.len()),
        ));
    }
    let touched = match touched {
        Some((o, s)) => read_marks(&rules, s, o, "a touched")?,
        None => SquareMarks::default(),
    };
    pos.st.slot = (slot - 1) as u8;
    pos.st.squares.touched = touched;
    Ok(())
}

/// The `key=value` fields from field `next` on (`out=`, `phases=`, `choices=` and the
/// programs' fields), for the side to move at move `fullmove`: the phases begun, if given, and
/// the index of the first field past them.
fn read_keyed_fields(
    pos: &mut Position,
    fields: &[(usize, &str)],
    mut next: usize,
    side: PlayerId,
    fullmove: u32,
) -> Result<(Option<u32>, usize), PositionError> {
    let rules = pos.rules.clone();
    let mut phases = None;
    // New pieces carry their type's attributes unless an `attrs=` field says otherwise.
    if !pos.st.attrs.is_empty() {
        for c in 0..rules.cell_count() {
            if let Some(p) = pos.piece_at(CellId(c as u16)) {
                pos.st.attrs[c] = rules.attr_default(rules.type_of(p));
            }
        }
    }
    let mut turn_given = false;
    let mut out_at = None;
    while let Some(&(o, s)) = fields.get(next) {
        turn_given |= s.starts_with("turn=");
        if let (Some(v), true) = (s.strip_prefix("out="), rules.eliminating()) {
            pos.read_out_field(v, o + 4)?;
            out_at = Some((o, s.len()));
            next += 1;
            continue;
        }
        if let (Some(v), false) = (s.strip_prefix("phases="), rules.variant.phases.is_empty()) {
            phases = Some(Position::read_phase_field(&rules, v, o + 7)?);
            next += 1;
            continue;
        }
        match s.strip_prefix("choices=") {
            Some(v) if !rules.variant.choices.is_empty() => pos.read_choice_field(v, o + 8)?,
            _ if rules.program.is_some() => crate::program_fields::read_program_field(pos, s, o)?,
            _ => {
                return Err(err(
                    o,
                    s.len(),
                    format!("expected `choices=...` or the end of the position string, found `{s}`"),
                ))
            }
        }
        next += 1;
    }
    // Nobody goes out before the choices are all made.
    if let (Some((o, len)), Some(_)) = (out_at, pos.st.pending_choice(&rules)) {
        return Err(err(o, len, "a choice is still to be made: no player is out yet".into()));
    }
    if !turn_given && rules.program.is_some() {
        // Without `turn=`, the first turn of the order in which the side moves.
        pos.st.turn = crate::program_fields::first_turn_of(&rules, side, fullmove);
    }
    Ok((phases, next))
}

fn split_fields(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, ch) in text.char_indices() {
        match (ch.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// Reads the reserves field: a count per player, or `-` for an unlimited supply.
fn read_reserves(rules: &Rules, text: &str, at: usize) -> Result<Vec<u32>, PositionError> {
    let players = rules.player_count();
    let unlimited = rules.variant.squares.as_ref().is_some_and(|s| s.reserve.is_none());
    if unlimited {
        if text == "-" {
            return Ok(vec![UNLIMITED; players]);
        }
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected `-`: reserves are unlimited in this game, found `{text}`"),
        });
    }
    let parts: Vec<&str> = text.split(',').collect();
    let mut out = Vec::new();
    let mut offset = at;
    for part in &parts {
        match part.parse::<u32>() {
            Ok(n) if n < UNLIMITED => out.push(n),
            _ => {
                return Err(PositionError {
                    offset,
                    len: part.len().max(1),
                    message: format!("expected the number of squares in reserve, found `{part}`"),
                })
            }
        }
        offset += part.len() + 1;
    }
    if out.len() != players {
        return Err(PositionError {
            offset: at,
            len: text.len(),
            message: format!("expected {players} reserve counts separated by `,` (like `3,3`), found `{text}`"),
        });
    }
    Ok(out)
}

/// Reads a list of squares (`d5,e6`, or `-` for none).
fn read_marks(rules: &Rules, text: &str, at: usize, what: &str) -> Result<SquareMarks, PositionError> {
    let mut marks = SquareMarks::default();
    if text == "-" {
        return Ok(marks);
    }
    let mut offset = at;
    for name in text.split(',') {
        let cell = rules.cell_by_name(name).ok_or_else(|| PositionError {
            offset,
            len: name.len().max(1),
            message: format!("expected the name of {what} square or `-`, found `{name}`"),
        })?;
        if marks.cells().len() == 8 {
            return Err(PositionError {
                offset,
                len: name.len(),
                message: "at most 8 squares in this list".to_string(),
            });
        }
        marks.push(cell);
        offset += name.len() + 1;
    }
    Ok(marks)
}

/// Splits cell names written without separators (`f3f4`, `a9a10`) into at most 5 names (one
/// more than the field holds, so that a fifth is refused by count): the first split, trying
/// longer names first, that leaves nothing over. Only names as long as a cell's are tried and
/// dead ends are remembered, so a long text costs no more than a short one.
fn run_together<'a>(rules: &Rules, text: &'a str) -> Option<Vec<&'a str>> {
    fn split<'a>(
        rules: &Rules,
        text: &'a str,
        from: usize,
        out: &mut Vec<&'a str>,
        dead: &mut std::collections::HashSet<(usize, usize)>,
    ) -> bool {
        if from == text.len() {
            return true;
        }
        if out.len() == 5 || dead.contains(&(from, out.len())) {
            return false;
        }
        let rest = &text[from..];
        let longest = rules.variant.board.cells.iter().map(|c| c.name.len()).max().unwrap_or(0);
        let ends: Vec<usize> =
            rest.char_indices().map(|(i, c)| i + c.len_utf8()).take_while(|&e| e <= longest).collect();
        for &end in ends.iter().rev() {
            if rules.cell_by_name(&rest[..end]).is_some() {
                out.push(&rest[..end]);
                if split(rules, text, from + end, out, dead) {
                    return true;
                }
                out.pop();
            }
        }
        dead.insert((from, out.len()));
        false
    }
    let mut out = Vec::new();
    split(rules, text, 0, &mut out, &mut Default::default()).then_some(out)
}

/// Reads the en-passant field: passed cells; the victim is found next to the last one, as the
/// previous player's piece whose passage power points there.
fn read_en_passant(pos: &Position, text: &str, at: usize) -> Result<EnPassant, PositionError> {
    let rules = &pos.rules;
    let mut ep = EnPassant { cells: [CellId(0); 4], len: 0, victim: CellId(0), piece: Piece::EMPTY };
    let mut offset = at;
    // Fairy-Stockfish runs the cells together (`f3f4`); Varia separates them with commas.
    let names: Vec<&str> = match text.contains(',') {
        false if rules.cell_by_name(text).is_none() => run_together(rules, text).unwrap_or(vec![text]),
        _ => text.split(',').collect(),
    };
    let sep = usize::from(names.len() > 1 && text.contains(','));
    for name in names {
        let cell = rules.cell_by_name(name).ok_or_else(|| PositionError {
            offset,
            len: name.len(),
            message: format!("expected an en-passant cell name or `-`, found `{name}`"),
        })?;
        if ep.len as usize == ep.cells.len() {
            return Err(PositionError { offset, len: name.len(), message: "at most 4 en-passant cells".into() });
        }
        ep.cells[ep.len as usize] = cell;
        ep.len += 1;
        offset += name.len() + sep;
    }
    let players = rules.player_count() as u8;
    let last = ep.cells[ep.len as usize - 1];
    // The previous player passed the cells, or, in a turn of several actions, the side to move.
    let previous = (pos.st.side.0 + players - 1) % players;
    for mover in (0..players).map(|k| PlayerId((previous + k) % players)) {
        let map = &rules.variant.players[mover.0 as usize].direction_map;
        // Under `shared-pieces` the mover may have moved any player's piece (its own first).
        let owners: Vec<PlayerId> = if rules.variant.shared_pieces {
            (0..players).map(|k| PlayerId((mover.0 + k) % players)).collect()
        } else {
            vec![mover]
        };
        for (t, piece) in rules.variant.pieces.iter().enumerate() {
            for rule in piece.moves.iter().filter(|r| r.marks_en_passant) {
                let Geometry::Slide { dirs, .. } = &rule.geometry else { continue };
                for d in dirs {
                    for v in rules.graph.step(last, map[d.0 as usize]) {
                        let here = pos.pieces_at(*v);
                        let found = owners
                            .iter()
                            .map(|o| rules.piece(*o, crate::ir::PieceTypeId(t as u8)))
                            .find(|code| here.contains(code));
                        if let Some(code) = found {
                            ep.victim = *v;
                            ep.piece = code;
                            return Ok(ep);
                        }
                    }
                }
            }
        }
    }
    Err(PositionError {
        offset: at,
        len: text.len(),
        message: format!("no piece that just passed `{text}` stands next to it"),
    })
}
