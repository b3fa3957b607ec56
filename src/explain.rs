//! Why a move text is not a legal move here, in the game's words: no such cell, no square there, no such piece, it cannot get there, it would leave the royal piece attacked, or the turn wants another move.

use varia_interpreter::ir::CellId;
use varia_interpreter::{Move, MoveError, Position};

/// The cells named in a move text, in order (`Ng1f3`: g1, f3), read greedily from the left
/// with the longest cell name at each point.
fn cells_named(pos: &Position, text: &str) -> Vec<CellId> {
    let rules = pos.rules();
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let found = (i + 1..=text.len())
            .rev()
            .filter(|j| text.is_char_boundary(*j) && text.is_char_boundary(i))
            .find_map(|j| rules.cell_by_name(&text[i..j]).map(|c| (c, j)));
        match found {
            Some((c, j)) => {
                out.push(c);
                i = j;
            }
            None => i += text[i..].chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

/// The piece type a move text starts with (`N` of `Nf3`), if its first letter is one.
fn piece_letter(pos: &Position, text: &str) -> Option<usize> {
    let first = text.chars().next()?;
    if !first.is_ascii_uppercase() {
        return None;
    }
    pos.rules().variant.pieces.iter().position(|p| p.letter.eq_ignore_ascii_case(&first))
}

/// Why the pseudo-legal moves `could` are refused: the game is over, a move under way must go
/// on, they would leave a royal piece attacked, or the turn's rules want another move (a
/// capture, say).
fn why_refused(pos: &mut Position, could: &[Move], legal: &[Move], me: &str) -> String {
    let rules = pos.rules().clone();
    let side = pos.side_to_move();
    if legal.is_empty() {
        return "the game is over: no move may be made".to_string();
    }
    if let Some(c) = pos.partial_move() {
        return format!("{me}'s move under way must go on from {}", rules.cell_name(c));
    }
    let exposes = could.iter().any(|&mv| {
        pos.make(mv);
        let attacked = pos.royal_attacked(side);
        pos.unmake();
        attacked
    });
    if exposes {
        return format!("it would leave {me}'s royal piece attacked");
    }
    if legal.iter().all(|m| !m.take.is_empty()) && could.iter().all(|m| m.take.is_empty()) {
        return format!("{me} must capture");
    }
    "the rules of this turn allow only other moves".to_string()
}

/// A sentence saying why `text` is no legal move, for the message after `error`.
pub fn why(pos: &mut Position, text: &str, error: &MoveError) -> String {
    let MoveError::NoMatch(_) = error else { return error.to_string() };
    let rules = pos.rules().clone();
    let side = pos.side_to_move();
    let me = rules.variant.players[side.0 as usize].name.clone();
    let clean: String = text.trim().trim_end_matches(['+', '#', '!', '?']).to_string();
    let body = clean.split('=').next().unwrap_or("").to_string();
    let cells = cells_named(pos, &body);
    let Some(&to) = cells.last() else {
        return format!("`{clean}` names no cell of this board and is not a move Varia reads");
    };
    let to_name = rules.cell_name(to).to_string();
    if !pos.has_square(to) {
        let place = if rules.variant.squares.is_some() {
            format!(" (a square is placed with @@{to_name})")
        } else {
            String::new()
        };
        return format!("there is no square on {to_name}: nothing can move there{place}");
    }
    let mut pseudo: Vec<Move> = Vec::new();
    pos.pseudo_legal_moves(&mut pseudo);
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let type_name = |t: usize| rules.variant.pieces[t].name.to_lowercase();
    // The mover: from the start cell if one is named, else from the piece letter (or the
    // letterless piece, the pawn).
    let from = (cells.len() >= 2).then(|| cells[cells.len() - 2]);
    let kind = piece_letter(pos, &clean)
        .or_else(|| rules.variant.pieces.iter().position(|p| p.san_without_letter).filter(|_| from.is_none()));
    let candidates = |moves: &[Move]| -> Vec<Move> {
        moves
            .iter()
            .copied()
            .filter(|m| m.kind.is_piece_move() && m.to == to)
            .filter(|m| from.is_none_or(|f| m.from == f))
            .filter(|m| kind.is_none_or(|k| rules.type_of(m.piece).0 as usize == k))
            .collect()
    };
    if let Some(f) = from {
        let f_name = rules.cell_name(f);
        match pos.piece_at(f) {
            None => return format!("there is no piece on {f_name}"),
            Some(p) if rules.owner(p) != side => {
                let owner = &rules.variant.players[rules.owner(p).0 as usize].name;
                return format!("the piece on {f_name} is {owner}'s, and it is {me}'s turn");
            }
            Some(_) => {}
        }
    } else if let Some(k) = kind {
        let own = (0..rules.cell_count()).any(|c| {
            pos.pieces_at(CellId(c as u16)).iter().any(|p| rules.owner(*p) == side && rules.type_of(*p).0 as usize == k)
        });
        if !own {
            return format!("{me} has no {} on the board", type_name(k));
        }
    }
    let could = candidates(&pseudo);
    if !could.is_empty() && candidates(&legal).is_empty() {
        return why_refused(pos, &could, &legal, &me);
    }
    let mover = match (from, kind) {
        (Some(f), _) => format!(
            "the {} on {}",
            pos.piece_at(f).map(|p| type_name(rules.type_of(p).0 as usize)).unwrap_or_default(),
            rules.cell_name(f)
        ),
        (None, Some(k)) => format!("no {} of {me}'s", type_name(k)),
        (None, None) => format!("no piece of {me}'s"),
    };
    if from.is_some() {
        format!("{mover} cannot move to {to_name}")
    } else {
        format!("{mover} can move to {to_name}")
    }
}
