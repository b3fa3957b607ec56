//! Text drawing of a position: every layer as a grid of its cells' display coordinates.

use varia_interpreter::ir::{ActionKind, CellId, PlayerId};
use varia_interpreter::{Position, Rules};

/// The widest stack drawn in full; longer ones are cut and listed under the board.
const MAX_DRAWN: usize = 4;

/// Draws the board: pieces by letter, `.` an empty square, `_` a location without a square;
/// layers side by side on a common grid of display coordinates, files lettered from `a`.
/// A cell holding several pieces shows all their letters (`Pn`), every column as wide as the
/// tallest stack, and the stacks are listed under the board. A square shared by several boards
/// is drawn on each of them, as `+` when empty. A piece standing between squares is drawn on
/// every square it covers and listed under the board with its location. Where squares are
/// owned, an empty square is drawn `+` (first player's) or `-` (second player's), as in position
/// strings; reserves, untouchable squares and the action due in a turn of several are listed.
pub fn board(pos: &Position) -> String {
    board_marked(pos, &[])
}

/// [`board`] with some cells marked, each in brackets (`[P]`; neighbours share one: `[K|.]`):
/// the last move's start and end in terminal play.
pub fn board_marked(pos: &Position, marked: &[CellId]) -> String {
    let mut lines = grid(pos, marked);
    lines.extend(cell_notes(pos));
    lines.extend(square_notes(pos));
    lines.extend(marked_types_note(pos));
    lines.extend(side_notes(pos));
    lines.join("\n") + "\n"
}

/// A piece as the grid draws it: with more than two players, with its player's prefix (`sR`).
fn glyph(rules: &Rules, p: &varia_interpreter::Piece) -> String {
    rules.player_prefix(rules.owner(*p)).into_iter().chain([rules.piece_letter(*p)]).collect()
}

fn player_name(rules: &Rules, p: usize) -> &str {
    rules.variant.players[p].name.as_str()
}

/// The grid of every layer, rank by rank from the top, and the file letters under it.
fn grid(pos: &Position, marked: &[CellId]) -> Vec<String> {
    let rules = pos.rules();
    let cells = &rules.variant.board.cells;
    let mut layers: Vec<i32> = cells.iter().map(|c| c.layer).collect();
    layers.sort();
    layers.dedup();
    let (min_x, max_x) = (cells.iter().map(|c| c.x).min().unwrap_or(0), cells.iter().map(|c| c.x).max().unwrap_or(0));
    let (min_y, max_y) = (cells.iter().map(|c| c.y).min().unwrap_or(0), cells.iter().map(|c| c.y).max().unwrap_or(0));
    // A merged cell (a square shared by several boards) is found at each of its positions.
    let find = |x: i32, y: i32, l: i32| {
        cells
            .iter()
            .position(|c| (c.x == x && c.y == y && c.layer == l) || c.also_at.contains(&(x, y, l)))
            .map(|i| CellId(i as u16))
    };
    let draw = |p: &varia_interpreter::Piece| glyph(rules, p);
    let per_piece = if rules.player_count() > 2 { 2 } else { 1 };
    let stack_text = |c: CellId| -> String {
        let pieces = pos.pieces_at(c);
        if pieces.len() > MAX_DRAWN {
            pieces.iter().take(MAX_DRAWN - 1).map(draw).chain(["+".to_string()]).collect()
        } else {
            pieces.iter().map(draw).collect()
        }
    };
    let width = per_piece
        * (0..cells.len()).map(|i| pos.pieces_at(CellId(i as u16)).len().min(MAX_DRAWN)).max().unwrap_or(1).max(1);
    let mut lines: Vec<String> = Vec::new();
    for y in (min_y..=max_y).rev() {
        let mut line = format!("{:>3} ", y + 1);
        for (li, l) in layers.iter().enumerate() {
            if li > 0 {
                line.push_str("   ");
            }
            let mut before_marked = false;
            for x in min_x..=max_x {
                let cell = find(x, y, *l);
                let text = match cell {
                    None => " ".to_string(),
                    Some(c) if !pos.has_square(c) => "_".to_string(),
                    Some(c) if pos.pieces_at(c).is_empty() && pos.square_owner(c).is_some() => {
                        if pos.square_owner(c).is_some_and(|p| p.0 == 0) { "+" } else { "-" }.to_string()
                    }
                    Some(c) if pos.pieces_at(c).is_empty() && !cells[c.0 as usize].also_at.is_empty() => {
                        "+".to_string()
                    }
                    Some(c) if pos.pieces_at(c).is_empty() => ".".to_string(),
                    Some(c) => stack_text(c),
                };
                let is_marked = cell.is_some_and(|c| marked.contains(&c));
                line.push(match (before_marked, is_marked) {
                    (true, true) => '|',
                    (false, true) => '[',
                    (true, false) => ']',
                    (false, false) => ' ',
                });
                before_marked = is_marked;
                line.push_str(&format!("{text:<width$}"));
            }
            line.push(if before_marked { ']' } else { ' ' });
        }
        lines.push(line.trim_end().to_string());
    }
    let mut files = String::from("    ");
    for li in 0..layers.len() {
        if li > 0 {
            files.push_str("    ");
        }
        for x in min_x..=max_x {
            files.push(' ');
            let letter = (b'a' + (x - min_x).clamp(0, 25) as u8) as char;
            files.push_str(&format!("{letter:<width$}"));
        }
    }
    lines.push(files.trim_end().to_string());
    lines
}

/// The cells the grid cannot show in full: stacks, pieces between squares, squares shared by
/// every board.
fn cell_notes(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let cells = &rules.variant.board.cells;
    let mut lines = Vec::new();
    let stacks: Vec<String> = (0..cells.len())
        .map(|i| CellId(i as u16))
        .filter(|c| pos.pieces_at(*c).len() > 1)
        .map(|c| {
            let letters: Vec<String> = pos.pieces_at(c).iter().map(|p| glyph(rules, p)).collect();
            format!("{} {}", rules.cell_name(c), letters.join(" "))
        })
        .collect();
    if !stacks.is_empty() {
        lines.push(format!("stacks: {}", stacks.join(", ")));
    }
    let between: Vec<String> = (0..cells.len())
        .map(|i| CellId(i as u16))
        .filter(|c| rules.is_between(*c))
        .filter_map(|c| {
            let p = pos.piece_at(c)?;
            let covered: Vec<&str> = rules.covers(c).iter().map(|x| rules.cell_name(*x)).collect();
            Some(format!("{} {} ({})", glyph(rules, &p), rules.cell_name(c), covered.join(" ")))
        })
        .collect();
    if !between.is_empty() {
        lines.push(format!("between squares (drawn on each square covered): {}", between.join(", ")));
    }
    let shared: Vec<&str> = cells.iter().filter(|c| !c.also_at.is_empty()).map(|c| c.name.as_str()).collect();
    if !shared.is_empty() {
        lines.push(format!("shared by every board (drawn on each, `+` when empty): {}", shared.join(" ")));
    }
    lines
}

/// Squares as game objects: who owns the empty ones, the reserves, the untouchable ones.
fn square_notes(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let name = |p: usize| player_name(rules, p);
    let mut lines = Vec::new();
    if let Some(sq) = &rules.variant.squares {
        if sq.owned {
            lines.push(format!("empty squares: `+` {}'s, `-` {}'s; `_` no square", name(0), name(1)));
        }
        let reserves: Vec<String> = (0..rules.player_count())
            .map(|p| match pos.reserve(PlayerId(p as u8)) {
                Some(n) => format!("{} {n}", name(p)),
                None => format!("{} unlimited", name(p)),
            })
            .collect();
        lines.push(format!("squares in reserve: {}", reserves.join(", ")));
        let frozen: Vec<&str> = pos.untouchable_squares().iter().map(|c| rules.cell_name(*c)).collect();
        if !frozen.is_empty() {
            lines.push(format!("untouchable this turn: {}", frozen.join(" ")));
        }
    }
    lines
}

/// Pieces the grid draws by letter alone: those of marked types (`Q~`, `+P`).
fn marked_types_note(pos: &Position) -> Option<String> {
    let rules = pos.rules();
    let cells = &rules.variant.board.cells;
    let marked: Vec<String> = (0..cells.len())
        .map(|i| CellId(i as u16))
        .flat_map(|c| pos.pieces_at(c).iter().map(move |p| (c, *p)))
        .filter(|(_, p)| rules.variant.pieces[rules.type_of(*p).0 as usize].mark.is_some())
        .map(|(c, p)| format!("{} {}", rules.piece_symbol(p), rules.cell_name(c)))
        .collect();
    (!marked.is_empty()).then(|| format!("marked: {}", marked.join(", ")))
}

/// The hands, the players and teams of a game of more than two, and who is to move (and which
/// action of the turn).
fn side_notes(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let name = |p: usize| player_name(rules, p);
    let mut lines = Vec::new();
    if rules.has_hands() {
        let hands: Vec<String> = (0..rules.player_count())
            .map(|p| {
                let player = PlayerId(p as u8);
                let pieces: Vec<String> = pos
                    .hand(player)
                    .map(|(t, n)| {
                        let symbol = rules.piece_symbol(rules.piece(player, t));
                        if n == 1 {
                            symbol
                        } else {
                            format!("{symbol}{n}")
                        }
                    })
                    .collect();
                format!("{} {}", name(p), if pieces.is_empty() { "-".to_string() } else { pieces.join(" ") })
            })
            .collect();
        lines.push(format!("in hand: {}", hands.join(", ")));
    }
    if rules.player_count() > 2 {
        let players: Vec<String> = (0..rules.player_count())
            .map(|p| {
                let player = PlayerId(p as u8);
                let out = if pos.is_out(player) { " (out)" } else { "" };
                format!("{} {}{out}", rules.player_prefix(player).unwrap_or('?'), name(p))
            })
            .collect();
        lines.push(format!("players: {}", players.join(", ")));
        if !rules.variant.teams.is_empty() {
            let teams: Vec<String> = rules.variant.teams.iter().map(|t| rules.side_name(t[0])).collect();
            lines.push(format!("teams: {}", teams.join(", ")));
        }
    }
    let side = name(pos.side_to_move().0 as usize);
    let slots = &rules.variant.turn.actions;
    if slots.len() > 1 {
        let i = pos.action_index();
        let kinds: Vec<&str> = slots[i]
            .kinds
            .iter()
            .map(|k| match k {
                ActionKind::MovePiece => "move a piece",
                ActionKind::MoveSquare => "move a square",
                ActionKind::PlaceSquare => "place a square",
            })
            .collect();
        let mut line = format!("{side} to move: action {} of {} ({})", i + 1, slots.len(), kinds.join(" or "));
        let touched: Vec<&str> = pos.touched_squares().iter().map(|c| rules.cell_name(*c)).collect();
        if !touched.is_empty() {
            line.push_str(&format!("; touched this turn: {}", touched.join(" ")));
        }
        lines.push(line);
    } else {
        lines.push(format!("{side} to move"));
    }
    lines
}
