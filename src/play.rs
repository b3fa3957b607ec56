//! Terminal play: a human at the keyboard or the generic search on either side, with check, the last move marked, short notation, the result, PGN save and load.

use std::io::Write;
use std::path::{Path, PathBuf};

use varia_interpreter::{Evaluator, Limits, Move, MoveKind, Position, Searcher};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Moves typed at the keyboard.
    Human,
    /// The built-in opponent (alpha-beta search).
    Ai,
}

/// How a game in the terminal is played.
pub struct Options {
    /// Who plays each side, in player order.
    pub players: Vec<Player>,
    /// The engine's limits per move.
    pub limits: Limits,
    /// Write the game here as PGN when it ends or at `quit`.
    pub save: Option<PathBuf>,
    /// Long notation (`Ng1-f3`) instead of short (`Nf3`).
    pub long: bool,
    /// The engine's evaluation (tuned weights, where a variant has them).
    pub eval: Evaluator,
}

const COMMANDS: &str = "moves, undo, position, save FILE, load FILE, help, resign, quit";

/// A move as the game prints it: short with `+` or `#` (or long, on request).
fn written(pos: &mut Position, mv: Move, long: bool) -> String {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut text = if long { pos.long_notation(mv) } else { pos.short_notation(mv, &legal) };
    pos.make(mv);
    if pos.in_check() {
        let mate = pos.outcome().is_some_and(|(_, r)| r == varia_interpreter::EndReason::Checkmate);
        text.push(if mate { '#' } else { '+' });
    }
    pos.unmake();
    text
}

/// The terminal's width in characters: `COLUMNS` when the shell exports it, else 80.
fn width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).filter(|w| *w >= 20).unwrap_or(80)
}

/// Moves in columns no wider than `width`, filled row by row, each column as wide as the
/// longest move and two spaces, so that no move is split at the terminal's edge.
fn columns(moves: &[String], width: usize) -> String {
    let cell = moves.iter().map(|m| m.chars().count()).max().unwrap_or(0) + 2;
    let per_row = (width / cell).max(1);
    let rows: Vec<String> = moves
        .chunks(per_row)
        .map(|row| row.iter().map(|m| format!("{m:<cell$}")).collect::<String>().trim_end().to_string())
        .collect();
    rows.join("\n")
}

/// A few of this position's legal moves, of different kinds, as examples for the prompt.
fn examples(pos: &mut Position, long: bool) -> Vec<String> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut picked: Vec<Move> = Vec::new();
    // One of each kind: a letterless piece (a pawn), a lettered one, castling, square actions.
    let kind_of = |pos: &Position, m: &Move| -> u8 {
        match m.kind {
            MoveKind::Castle => 2,
            k if !k.is_piece_move() => 3 + k as u8,
            _ => {
                let r = pos.rules();
                u8::from(!r.variant.pieces[r.type_of(m.piece).0 as usize].san_without_letter)
            }
        }
    };
    for m in &legal {
        if picked.len() < 4 && !picked.iter().any(|p| kind_of(pos, p) == kind_of(pos, m)) {
            picked.push(*m);
        }
    }
    picked.iter().map(|m| written(pos, *m, long)).collect()
}

fn help(pos: &mut Position, long: bool) -> String {
    let ex = examples(pos, long);
    if ex.is_empty() {
        format!("no move to make; commands: {COMMANDS}")
    } else {
        format!("type a move ({} here), or: {COMMANDS}", ex.join(", "))
    }
}

/// The name a player goes by in PGN's White and Black tags.
fn player_name(p: Player, limits: &Limits) -> String {
    let how = match (limits.depth, limits.time) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(t)) => format!("{} s per move", t.as_secs_f64()),
        _ => String::new(),
    };
    match p {
        Player::Human => "human".to_string(),
        Player::Ai => format!("Varia alpha-beta, {how}"),
    }
}

fn save(pos: &Position, options: &Options, path: &Path) -> Result<(), String> {
    let tags = [
        ("Event", "Varia terminal game".to_string()),
        ("Site", "varia play".to_string()),
        ("Date", varia_interpreter::pgn::today()),
        ("White", player_name(options.players[0], &options.limits)),
        ("Black", player_name(options.players[1], &options.limits)),
    ];
    let text = varia_interpreter::pgn::write(pos, &tags);
    crate::files::write_atomic(path, text.as_bytes()).map_err(|e| e.trim_start_matches("error: ").to_string())
}

/// Replaces the game by the first game of a PGN (or plain move list) file, under these rules.
fn load(pos: &Position, path: &str) -> Result<Position, String> {
    let text = crate::files::read_text(Path::new(path), crate::files::MAX_GAME_BYTES, "a game file")
        .map_err(|e| e.trim_start_matches("error: ").to_string())?;
    let games = crate::game_file::read(path, &text)?;
    let mut start = pos.clone();
    while start.ply() > 0 {
        start.unmake();
    }
    let mut fresh = crate::game_file::start(start, None, &games[0], path)?;
    crate::game_file::play(&mut fresh, &games[0], path, &text)?;
    Ok(fresh)
}

/// Draws the board with the last move marked, and the outcome or a check.
fn draw(pos: &mut Position, last: &Option<(String, Vec<varia_interpreter::ir::CellId>)>) -> Result<(), String> {
    let marked = last.as_ref().map(|(_, c)| c.clone()).unwrap_or_default();
    out!("\n{}", crate::show::board_marked(pos, &marked));
    if let Some((text, _)) = last {
        outln!("last move: {text} (marked [ ])");
    }
    if let Some(line) = crate::outcome_line(pos) {
        outln!("{line}");
    } else if pos.in_check() {
        let r = pos.rules();
        let side = &r.variant.players[pos.side_to_move().0 as usize].name;
        let royal =
            r.variant.pieces.iter().find(|p| p.royal).map_or("royal piece".to_string(), |p| p.name.to_lowercase());
        outln!("check: {side}'s {royal} is attacked");
    }
    Ok(())
}

/// The `moves` command: the legal moves on one line.
fn list_moves(pos: &mut Position, long: bool) -> Result<(), String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let list: Vec<String> = moves.iter().map(|m| written(pos, *m, long)).collect();
    outln!("{}", if list.is_empty() { "no legal move".to_string() } else { columns(&list, width()) });
    Ok(())
}

/// The `undo` command: takes back to the last human decision of this side; whether it did.
fn undo(pos: &mut Position, players: &[Player]) -> Result<bool, String> {
    let steps = if players.iter().any(|p| *p != Player::Human) { 2 } else { 1 };
    if pos.ply() < steps {
        outln!("nothing to undo");
        return Ok(false);
    }
    for _ in 0..steps {
        pos.unmake();
    }
    Ok(true)
}

/// The `load FILE` command: the game loaded, or `None` after saying why not.
fn load_command(pos: &Position, arg: &str) -> Result<Option<Position>, String> {
    match load(pos, arg) {
        Ok(p) => {
            outln!("loaded {arg}: {} moves", p.ply());
            Ok(Some(p))
        }
        Err(e) => {
            outln!("{}", e.trim_start_matches("error: "));
            Ok(None)
        }
    }
}

/// Runs a game in the terminal until it ends (with a human at the keyboard: until `quit`).
pub fn run(mut pos: Position, options: Options) -> Result<(), String> {
    let players = options.players.clone();
    let long = options.long;
    let mut searcher = Searcher::with_evaluator(pos.rules(), 32, options.eval.clone());
    let mut input = crate::input::Lines::new(std::io::stdin().lock());
    let human = players.contains(&Player::Human);
    let mut last: Option<(String, Vec<varia_interpreter::ir::CellId>)> = None;
    let mut show = true;
    outln!("{}", help(&mut pos, long));
    loop {
        let over = pos.outcome().is_some();
        if show {
            draw(&mut pos, &last)?;
        }
        show = true;
        if over && !human {
            break;
        }
        let side = pos.side_to_move();
        let name = pos.rules().variant.players[side.0 as usize].name.clone();
        let who = players.get(side.0 as usize).copied().unwrap_or(Player::Human);
        if who != Player::Human && !over {
            let info = searcher.search(&mut pos, options.limits, |_| {});
            let Some(mv) = info.best() else { return Ok(()) };
            let text = written(&mut pos, mv, long);
            outln!("{name} plays {text} ({})", crate::analyse::score_text(&info, &name));
            last = Some((text, moved_cells(mv)));
            pos.make(mv);
            continue;
        }
        if over {
            out!("the game is over: undo, save FILE, load FILE or quit> ");
        } else {
            out!("{name}> ");
        }
        let _ = std::io::stdout().flush();
        let line = match input.next_input() {
            crate::input::Input::Line(line) => line,
            crate::input::Input::Bad(why) => {
                outln!("error: {why}");
                show = false;
                continue;
            }
            crate::input::Input::End => {
                outln!();
                break;
            }
        };
        let line = line.trim();
        let (cmd, arg) = line.split_once(' ').map(|(c, a)| (c, a.trim())).unwrap_or((line, ""));
        match cmd {
            "" => show = false,
            "help" | "?" => {
                outln!("{}", help(&mut pos, long));
                show = false;
            }
            "quit" | "exit" => break,
            "resign" => {
                outln!("{name} resigns");
                break;
            }
            "position" | "fen" => {
                outln!("{}", pos.to_position_string());
                show = false;
            }
            "moves" => {
                list_moves(&mut pos, long)?;
                show = false;
            }
            "undo" => {
                show = undo(&mut pos, &players)?;
                if show {
                    last = None;
                }
            }
            "save" if !arg.is_empty() => {
                match save(&pos, &options, Path::new(arg)) {
                    Ok(()) => outln!("game saved in {arg} (PGN)"),
                    Err(e) => outln!("{e}"),
                }
                show = false;
            }
            "load" if !arg.is_empty() => match load_command(&pos, arg)? {
                Some(p) => {
                    pos = p;
                    last = None;
                }
                None => show = false,
            },
            "save" | "load" => {
                outln!("{cmd} needs a file name: {cmd} FILE");
                show = false;
            }
            _ if over => {
                outln!("the game is over ({})", crate::outcome_line(&mut pos).unwrap_or_default());
                show = false;
            }
            _ => match pos.parse_move(line) {
                Ok(mv) => {
                    let text = written(&mut pos, mv, long);
                    last = Some((text, moved_cells(mv)));
                    pos.make(mv);
                }
                Err(e) => {
                    let why = crate::explain::why(&mut pos, line, &e);
                    outln!("`{line}` is not a legal move: {why}");
                    outln!("{}", help(&mut pos, long));
                    show = false;
                }
            },
        }
    }
    if let Some(path) = &options.save {
        save(&pos, &options, path)?;
        outln!("game saved in {}", path.display());
    }
    Ok(())
}

/// The cells a move's mark covers: its start and destination (none for a choice made before
/// the game, which has no cells).
fn moved_cells(mv: varia_interpreter::Move) -> Vec<varia_interpreter::ir::CellId> {
    if mv.kind == varia_interpreter::MoveKind::Choose {
        Vec::new()
    } else {
        vec![mv.from, mv.to]
    }
}

#[cfg(test)]
mod tests {
    use super::columns;

    #[test]
    fn moves_fill_columns_and_no_move_is_split() {
        let moves: Vec<String> = ["a3", "Nf3", "O-O-O", "e8=Q+", "b4", "Nxd4", "h3"].map(String::from).to_vec();
        assert_eq!(columns(&moves, 22), "a3     Nf3    O-O-O\ne8=Q+  b4     Nxd4\nh3");
        // A move longer than the width still gets a line of its own, whole.
        assert_eq!(columns(&moves, 5).lines().count(), 7);
        for w in 5..40 {
            let text = columns(&moves, w);
            let back: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(back, moves.iter().map(String::as_str).collect::<Vec<_>>(), "width {w}");
            assert!(text.lines().all(|l| l.chars().count() <= w.max(5)), "width {w}: {text}");
        }
    }
}
