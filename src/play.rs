//! Terminal play: a human at the keyboard or a small built-in opponent (material alpha-beta) on either side.

use std::io::{BufRead, Write};

use varia_interpreter::ir::Outcome;
use varia_interpreter::{Move, Position};

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Player {
    /// Moves typed at the keyboard.
    Human,
    /// The built-in opponent.
    Ai,
}

const HELP: &str = "type a move (e2-e4, e4, Nf3, O-O, e7e8q), or: moves, undo, position, help, resign, quit";

/// Runs a game in the terminal until it ends or the user quits.
pub fn run(mut pos: Position, players: [Player; 2], depth: u32) -> Result<(), String> {
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
        if who == Player::Ai {
            let mv = best_move(&mut pos, depth.max(1));
            println!("{name} plays {}", pos.long_notation(mv));
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
                let steps = if players.contains(&Player::Ai) { 2 } else { 1 };
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

fn value(pos: &Position, piece: varia_interpreter::Piece) -> i32 {
    let rules = pos.rules();
    let t = &rules.variant.pieces[rules.type_of(piece).0 as usize];
    if t.royal {
        0
    } else {
        t.value.unwrap_or(300)
    }
}

fn evaluate(pos: &Position) -> i32 {
    let rules = pos.rules().clone();
    let me = pos.side_to_move();
    let mut score = 0;
    for p in 0..rules.player_count() {
        let player = varia_interpreter::ir::PlayerId(p as u8);
        for c in pos.occupied_by(player).iter() {
            // Every piece of the player on the cell (a stack may hold several, of both sides).
            for &q in pos.pieces_at(c).iter().filter(|q| rules.owner(**q) == player) {
                let v = value(pos, q);
                score += if player == me { v } else { -v };
            }
        }
    }
    score
}

fn search(pos: &mut Position, depth: u32, mut alpha: i32, beta: i32) -> i32 {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    if moves.is_empty() {
        // No legal move: the variant's checkmate or stalemate outcome for the side to move.
        let end = &pos.rules().variant.end;
        let outcome = if pos.in_check() { end.checkmate } else { end.stalemate };
        return match outcome {
            Outcome::Loss => -100_000 - depth as i32,
            Outcome::Win => 100_000 + depth as i32,
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return evaluate(pos);
    }
    for mv in moves {
        let s = score_after(pos, mv, depth, alpha, beta);
        if s >= beta {
            return s;
        }
        alpha = alpha.max(s);
    }
    alpha
}

/// The score of a move for its mover: negamax across a change of side, the same side's view
/// within a turn of several actions.
fn score_after(pos: &mut Position, mv: Move, depth: u32, alpha: i32, beta: i32) -> i32 {
    let mover = pos.side_to_move();
    pos.make(mv);
    let s = if pos.side_to_move() == mover {
        search(pos, depth - 1, alpha, beta)
    } else {
        -search(pos, depth - 1, -beta, -alpha)
    };
    pos.unmake();
    s
}

/// The move with the best material score at `depth` plies (first found among equals).
pub fn best_move(pos: &mut Position, depth: u32) -> Move {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut best = (i32::MIN, moves[0]);
    for mv in moves {
        let s = score_after(pos, mv, depth, best.0.max(-1_000_000), 1_000_000);
        if s > best.0 {
            best = (s, mv);
        }
    }
    best.1
}
