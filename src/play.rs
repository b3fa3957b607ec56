//! Terminal play: a human at the keyboard or the generic search (alpha-beta) on either side.

use std::io::{BufRead, Write};

use varia_interpreter::{Evaluator, Limits, Mcts, Position, Searcher};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Moves typed at the keyboard.
    Human,
    /// The built-in opponent (alpha-beta search).
    Ai,
    /// The Monte Carlo tree search opponent.
    Mcts,
}

const HELP: &str = "type a move (e2-e4, e4, Nf3, O-O, e7e8q), or: moves, undo, position, help, resign, quit";

/// Runs a game in the terminal until it ends or the user quits.
pub fn run(mut pos: Position, players: [Player; 2], limits: Limits, eval: Evaluator) -> Result<(), String> {
    let mut searcher = Searcher::with_evaluator(pos.rules(), 32, eval.clone());
    let mut mcts = Mcts::with_evaluator(1, eval);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    println!("{HELP}");
    loop {
        print!("\n{}", crate::show::board(&pos));
        if let Some(line) = crate::outcome_line(&mut pos) {
            println!("{line}");
            return Ok(());
        }
        let side = pos.side_to_move();
        let name = pos.rules().variant.players[side.0 as usize].name.clone();
        let who = players.get(side.0 as usize).copied().unwrap_or(Player::Human);
        if who != Player::Human {
            let info = match who {
                Player::Mcts => mcts.search(&mut pos, limits),
                _ => searcher.search(&mut pos, limits, |_| {}),
            };
            let Some(mv) = info.best() else { return Ok(()) };
            println!("{name} plays {} ({})", pos.long_notation(mv), crate::analyse::score_text(&info));
            pos.make(mv);
            continue;
        }
        print!("{name}> ");
        let _ = std::io::stdout().flush();
        let mut line = String::new();
        if input.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            println!();
            return Ok(());
        }
        match line.trim() {
            "" => {}
            "help" | "?" => println!("{HELP}"),
            "quit" | "exit" => return Ok(()),
            "resign" => {
                println!("{name} resigns");
                return Ok(());
            }
            "position" | "fen" => println!("{}", pos.to_position_string()),
            "moves" => {
                let mut moves = Vec::new();
                pos.legal_moves(&mut moves);
                let list: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
                println!("{}", list.join(" "));
            }
            "undo" => {
                // Take back to the last human decision of this side.
                let steps = if players.iter().any(|p| *p != Player::Human) { 2 } else { 1 };
                if pos.ply() < steps {
                    println!("nothing to undo");
                } else {
                    for _ in 0..steps {
                        pos.unmake();
                    }
                }
            }
            text => match pos.parse_move(text) {
                Ok(mv) => pos.make(mv),
                Err(e) => println!("{e} (type `moves` to list the legal moves)"),
            },
        }
    }
}
