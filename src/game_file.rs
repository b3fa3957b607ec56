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
        let standard = ["standard", "chess", "normal"].contains(&v.to_ascii_lowercase().as_str());
        let same = v.eq_ignore_ascii_case(title) || varia_variants::find(v).is_some_and(|b| b.title == title);
        if !(same || standard && title.eq_ignore_ascii_case("chess")) {
            return Err(format!("error: {name}: the game is of variant \"{v}\", but the rules given are \"{title}\""));
        }
    }
    match (start, game.tag("FEN")) {
        (Some(_), _) | (None, None) => Ok(rules_pos),
        (None, Some(fen)) => Position::from_position_string(rules, fen)
            .map_err(|e| format!("error: {name}: its FEN tag `{fen}` is not a position of these rules: {e}")),
    }
}

/// Plays a game's moves on `pos`, checking each; a move that is not legal is reported with its
/// line and column, its number and side, and the position it was tried in.
pub fn play(pos: &mut Position, game: &Game, name: &str, text: &str) -> Result<(), String> {
    for (token, offset) in &game.moves {
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
