//! Game files: PGN (tags, comments, variations, several games) or a plain list of moves, read and replayed move by move.

use varia_interpreter::pgn::{self, Game};
use varia_interpreter::Position;

/// Reads the games of a file; errors come back with the file's line and column.
pub fn read(name: &str, text: &str) -> Result<Vec<Game>, String> {
    pgn::read(text).map_err(|e| {
        let (line, col) = varia_grammar::line_col(text, e.offset.min(text.len()));
        format!("error: {name}:{line}:{col}: {}", e.message)
    })
}

/// The position a game starts from: `start` (from `--position`), else its `FEN` tag, else
/// the variant's setup. A `Variant` tag must name the rules given.
pub fn start(rules_pos: Position, start: Option<&str>, game: &Game, name: &str) -> Result<Position, String> {
    let rules = rules_pos.rules().clone();
    if let Some(v) = game.tag("Variant") {
        let title = &rules.variant.title;
        let same = pgn::tag_names(v, &rules.variant) || varia_variants::find(v).is_some_and(|b| b.title == title);
        if !same {
            return Err(format!("error: {name}: the game is of variant \"{v}\", but the rules given are \"{title}\""));
        }
    }
    match (start, game.tag("FEN")) {
        (Some(_), _) | (None, None) => Ok(rules_pos),
        (None, Some(fen)) => Position::from_position_string(rules, fen)
            .map_err(|e| format!("error: {name}: its FEN tag `{fen}` is not a position of these rules: {e}")),
    }
}

/// The ranks of the squares a move names: the digits after each lower-case file letter.
fn ranks(token: &str) -> Vec<String> {
    let chars: Vec<char> = token.chars().collect();
    (0..chars.len())
        .filter(|&i| chars[i].is_ascii_lowercase())
        .map(|i| chars[i + 1..].iter().take_while(|c| c.is_ascii_digit()).collect::<String>())
        .filter(|r| !r.is_empty())
        .collect()
}

/// A move with every rank one higher, a square's or a disambiguating one (`Ch0g2` becomes
/// `Ch1g3`, `A7e8` becomes `A8e9`): XBoard counts the ranks of a board of ten from 0.
fn rank_up(token: &str) -> String {
    if token.starts_with('0') {
        // Castling written with zeros.
        return token.to_string();
    }
    let mut out = String::new();
    let mut digits = String::new();
    for c in token.chars().chain(std::iter::once(' ')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&(digits.parse::<u32>().unwrap_or(0) + 1).to_string());
            digits.clear();
        }
        out.push(c);
    }
    out.pop();
    out
}

/// A move as XBoard writes it, in the game's terms: ranks one higher (see [`rank_up`]),
/// XBoard's piece letters as the game's (the catalogue's `xboard-letters`: xiangqi's `Hd1`
/// is `Nd2`), and a pawn's move with its letter (`e4` is `Pe5`).
fn from_xboard(token: &str, letters: &[(char, char)]) -> String {
    // XBoard writes a pawn's move without its letter, whatever the game calls the piece.
    let lettered =
        if token.starts_with(|c: char| c.is_ascii_lowercase()) { format!("P{token}") } else { token.to_string() };
    rank_up(&lettered).chars().map(|c| letters.iter().find(|(x, _)| *x == c).map_or(c, |(_, own)| *own)).collect()
}

/// Whether a game is XBoard's on a board of ten ranks (xiangqi, janggi), which XBoard counts
/// from 0: the board has no rank 0 and a move names one (`h0g2`), or no move names rank 10
/// and the game cannot be read as written but can as XBoard's.
fn ranks_from_zero(pos: &Position, game: &Game, letters: &[(char, char)]) -> bool {
    let rules = pos.rules();
    let names: Vec<&str> =
        (0..rules.cell_count()).map(|i| rules.cell_name(varia_interpreter::ir::CellId(i as u16))).collect();
    let rank_of = |n: &str| n.trim_start_matches(|c: char| c.is_ascii_alphabetic()).to_string();
    if !names.iter().any(|n| rank_of(n) == "10") || names.iter().any(|n| rank_of(n) == "0") {
        return false;
    }
    let mentions = |rank: &str| game.moves.iter().any(|(t, _)| ranks(t).iter().any(|r| r == rank));
    if mentions("0") {
        return true;
    }
    if mentions("10") {
        return false;
    }
    let (mut one, mut zero) = (pos.clone(), pos.clone());
    let reads = |p: &mut Position, up: bool| {
        game.moves.iter().all(|(t, _)| match p.parse_move(&if up { from_xboard(t, letters) } else { t.clone() }) {
            Ok(mv) => {
                p.make(mv);
                true
            }
            Err(_) => false,
        })
    };
    !reads(&mut one, false) && reads(&mut zero, true)
}

/// Plays a game's moves on `pos`, checking each; a move that is not legal is reported with its
/// line and column, its number and side, and the position it was tried in. A game of XBoard's,
/// whose ranks count from 0 on a board of ten, is read as such.
pub fn play(pos: &mut Position, game: &Game, name: &str, text: &str) -> Result<(), String> {
    let title = &pos.rules().variant.title;
    let letters = varia_variants::all().iter().find(|b| b.title == title).map_or(&[][..], |b| b.xboard_letters);
    let xboard = ranks_from_zero(pos, game, letters);
    for (token, offset) in &game.moves {
        let token = &if xboard { from_xboard(token, letters) } else { token.clone() };
        let (line, col) = varia_grammar::line_col(text, *offset);
        let side = pos.rules().variant.players[pos.side_to_move().0 as usize].name.clone();
        let number = pos.fullmove_number();
        if let Some(end) = crate::outcome_line(pos) {
            return Err(format!(
                "error: {name}:{line}:{col}: move {number} ({side}) `{token}` comes after the game ended ({end})"
            ));
        }
        match pos.parse_move(token) {
            Ok(mv) => pos.make(mv),
            Err(e) => {
                return Err(format!(
                    "error: {name}:{line}:{col}: move {number} ({side}) `{token}` is illegal: {e}\nposition: {}",
                    pos.to_position_string()
                ))
            }
        }
    }
    Ok(())
}

/// Replays game `index` (from 1) of a file; prints the final position and the result.
pub fn replay(pos: Position, start: Option<&str>, name: &str, text: &str, index: usize) -> Result<(), String> {
    let games = read(name, text)?;
    let game = games
        .get(index.wrapping_sub(1))
        .ok_or_else(|| format!("error: {name}: there is no game {index}: the file holds {} game(s)", games.len()))?;
    let mut pos = self::start(pos, start, game, name)?;
    play(&mut pos, game, name, text)?;
    out!("{}", crate::show::board(&pos));
    outln!("position: {}", pos.to_position_string());
    match crate::outcome_line(&mut pos) {
        Some(line) => outln!("{line}"),
        None => outln!("result: game in progress"),
    }
    if games.len() > 1 {
        outln!("game {index} of {} in the file (--game N picks another)", games.len());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xboards_moves_in_the_games_terms() {
        assert_eq!(rank_up("Ch0g2"), "Ch1g3");
        assert_eq!(rank_up("A7e8"), "A8e9");
        assert_eq!(rank_up("dxe1+"), "dxe2+");
        assert_eq!(rank_up("h9h10"), "h10h11");
        assert_eq!(rank_up("0-0"), "0-0");
        let letters = [('E', 'B'), ('H', 'N')];
        assert_eq!(from_xboard("Hd1", &letters), "Nd2");
        assert_eq!(from_xboard("E0e2", &letters), "B1e3");
        assert_eq!(from_xboard("e4", &letters), "Pe5");
        assert_eq!(ranks("Ch0g2"), ["0", "2"]);
    }
}
