//! Text drawing of a position: every layer as a grid of its cells' display coordinates.

use varia_interpreter::ir::CellId;
use varia_interpreter::Position;

/// Draws the board: pieces by letter, `.` an empty square, `_` a location without a square;
/// layers side by side on a common grid of display coordinates, files lettered from `a`.
pub fn board(pos: &Position) -> String {
    let rules = pos.rules();
    let cells = &rules.variant.board.cells;
    let mut layers: Vec<i32> = cells.iter().map(|c| c.layer).collect();
    layers.sort();
    layers.dedup();
    let (min_x, max_x) = (cells.iter().map(|c| c.x).min().unwrap_or(0), cells.iter().map(|c| c.x).max().unwrap_or(0));
    let (min_y, max_y) = (cells.iter().map(|c| c.y).min().unwrap_or(0), cells.iter().map(|c| c.y).max().unwrap_or(0));
    let find = |x: i32, y: i32, l: i32| {
        cells.iter().position(|c| c.x == x && c.y == y && c.layer == l).map(|i| CellId(i as u16))
    };
    let mut lines: Vec<String> = Vec::new();
    for y in (min_y..=max_y).rev() {
        let mut line = format!("{:>3} ", y + 1);
        for (li, l) in layers.iter().enumerate() {
            if li > 0 {
                line.push_str("    ");
            }
            for x in min_x..=max_x {
                let ch = match find(x, y, *l) {
                    None => ' ',
                    Some(c) if !pos.has_square(c) => '_',
                    Some(c) => pos.piece_at(c).map(|p| rules.piece_letter(p)).unwrap_or('.'),
                };
                line.push(' ');
                line.push(ch);
            }
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
            files.push((b'a' + (x - min_x).clamp(0, 25) as u8) as char);
        }
    }
    lines.push(files);
    let side = &rules.variant.players[pos.side_to_move().0 as usize].name;
    lines.push(format!("{side} to move"));
    lines.join("\n") + "\n"
}
