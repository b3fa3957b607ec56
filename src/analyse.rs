//! `varia analyse` and `varia selfplay`: the search's best move with its principal variation, and games of the engine against itself with a report.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use rayon::prelude::*;
use varia_interpreter::{EndReason, GameResult, Limits, Mcts, Position, Rules, SearchInfo, Searcher};

/// A score as text: centipawns as pawns (`+0.35`), or a mate in N moves of the side to move.
pub fn score_text(info: &SearchInfo) -> String {
    match info.mate_in() {
        Some(n) if n > 0 => format!("mate in {} plies", n),
        Some(n) => format!("mated in {} plies", -n),
        None => format!("{:+.2}", info.score as f64 / 100.0),
    }
}

/// Which search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Engine {
    /// Negamax alpha-beta with iterative deepening.
    Alphabeta,
    /// Monte Carlo tree search with random playouts.
    Mcts,
}

/// Searches a position and prints a line per finished depth, then the best move.
pub fn analyse(mut pos: Position, limits: Limits, engine: Engine) -> Result<(), String> {
    if engine == Engine::Mcts {
        let info = Mcts::new(pos.rules(), 1).search(&mut pos, limits);
        let nps = info.nodes as f64 / info.elapsed.as_secs_f64().max(1e-6);
        outln!("playouts {}  per second {:.0}  time {:.2}s", info.nodes, nps, info.elapsed.as_secs_f64());
        return match info.best() {
            Some(mv) => {
                outln!(
                    "best move: {} (win rate {:.0}%)",
                    pos.long_notation(mv),
                    (info.score as f64 / 1000.0 + 1.0) * 50.0
                );
                Ok(())
            }
            None => Err("no legal move: the game is over".to_string()),
        };
    }
    let mut searcher = Searcher::new(pos.rules(), 64);
    let root = pos.clone();
    let mut written = Ok(());
    let info = searcher.search(&mut pos, limits, |i| {
        let pv = pv_text(&mut root.clone(), &i.pv);
        let nps = i.nodes as f64 / i.elapsed.as_secs_f64().max(1e-6);
        if written.is_ok() {
            written = crate::write_out(format_args!(
                "depth {:>2}  score {:>8}  nodes {:>10}  nps {:>9.0}  time {:>7.2}s  pv {pv}\n",
                i.depth,
                score_text(i),
                i.nodes,
                nps,
                i.elapsed.as_secs_f64()
            ));
        }
    });
    written?;
    match info.best() {
        Some(mv) => {
            outln!("best move: {} (score {})", pos.long_notation(mv), score_text(&info));
            Ok(())
        }
        None => Err(match pos.outcome() {
            Some(_) => format!("the game is over: {}", crate::outcome_line(&mut pos).unwrap_or_default()),
            None => "no legal move".to_string(),
        }),
    }
}

fn pv_text(pos: &mut Position, pv: &[varia_interpreter::Move]) -> String {
    let mut out = Vec::new();
    for &mv in pv {
        out.push(pos.long_notation(mv));
        pos.make(mv);
    }
    out.join(" ")
}

/// One finished self-play game.
struct Game {
    result: Option<(GameResult, EndReason)>,
    plies: usize,
    /// The last position, with the game's moves in its history.
    end: Position,
}

/// Self-play settings.
pub struct SelfPlay {
    pub games: usize,
    pub limits: Limits,
    pub max_plies: usize,
    pub random_plies: usize,
    pub seed: u64,
    pub save: Option<PathBuf>,
    pub engine: Engine,
}

/// A small deterministic generator for the opening moves (xorshift).
fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn play_one(start: &Position, cfg: &SelfPlay, index: usize) -> Game {
    let mut pos = start.clone();
    let mut searcher = Searcher::new(pos.rules(), 8);
    let mut mcts = Mcts::new(pos.rules(), cfg.seed ^ index as u64);
    let mut rng = cfg.seed ^ (index as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves = Vec::new();
    let mut plies = 0;
    loop {
        if let Some(result) = pos.outcome() {
            return Game { result: Some(result), plies, end: pos };
        }
        if plies >= cfg.max_plies {
            return Game { result: None, plies, end: pos };
        }
        let mv = if plies < cfg.random_plies {
            pos.legal_moves(&mut moves);
            moves[(next(&mut rng) % moves.len() as u64) as usize]
        } else {
            let info = match cfg.engine {
                Engine::Mcts => mcts.search(&mut pos, cfg.limits),
                Engine::Alphabeta => searcher.search(&mut pos, cfg.limits, |_| {}),
            };
            match info.best() {
                Some(mv) => mv,
                None => return Game { result: pos.outcome(), plies, end: pos },
            }
        };
        pos.make(mv);
        plies += 1;
    }
}

/// Plays the games in parallel and prints the report.
pub fn selfplay(rules: Arc<Rules>, start: Position, cfg: SelfPlay) -> Result<(), String> {
    if let Some(dir) = &cfg.save {
        std::fs::create_dir_all(dir).map_err(|e| format!("error: {}: {e}", dir.display()))?;
    }
    let done = AtomicUsize::new(0);
    let total = cfg.games;
    let games: Vec<Game> = (0..total)
        .into_par_iter()
        .map(|i| {
            let g = play_one(&start, &cfg, i);
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            let width = 30;
            let filled = n * width / total.max(1);
            eprint!("\r[{}{}] {n}/{total} games", "#".repeat(filled), ".".repeat(width - filled));
            g
        })
        .collect();
    eprintln!();
    let names: Vec<&str> = rules.variant.players.iter().map(|p| p.name.as_str()).collect();
    let mut wins = vec![0usize; names.len()];
    let mut draws = 0;
    let mut unfinished = 0;
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for g in &games {
        match g.result {
            Some((GameResult::Win(p), reason)) => {
                wins[p.0 as usize] += 1;
                *reasons.entry(format!("{} wins by {}", names[p.0 as usize], reason.name())).or_default() += 1;
            }
            Some((GameResult::Draw, reason)) => {
                draws += 1;
                *reasons.entry(format!("draw by {}", reason.name())).or_default() += 1;
            }
            None => {
                unfinished += 1;
                *reasons.entry(format!("stopped at the {}-ply limit", cfg.max_plies)).or_default() += 1;
            }
        }
    }
    outln!("{}: {} games", rules.variant.title, total);
    for (p, name) in names.iter().enumerate() {
        outln!("  {name} wins: {} ({:.0}%)", wins[p], 100.0 * wins[p] as f64 / total.max(1) as f64);
    }
    outln!("  draws: {draws}");
    outln!("  unfinished (ply limit): {unfinished}");
    outln!("how games ended:");
    for (reason, n) in &reasons {
        outln!("  {reason}: {n}");
    }
    let mut lengths: Vec<usize> = games.iter().map(|g| g.plies).collect();
    lengths.sort();
    if !lengths.is_empty() {
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len() as f64;
        outln!(
            "game length in plies: min {}, median {}, mean {:.1}, max {}",
            lengths[0],
            lengths[lengths.len() / 2],
            mean,
            lengths[lengths.len() - 1]
        );
        let bucket = (cfg.max_plies / 10).max(1);
        let mut hist: BTreeMap<usize, usize> = BTreeMap::new();
        for l in &lengths {
            *hist.entry(l / bucket * bucket).or_default() += 1;
        }
        for (from, n) in hist {
            outln!("  {:>4}-{:<4} {}", from, from + bucket - 1, "#".repeat(n));
        }
    }
    if let Some(dir) = &cfg.save {
        let engine = match cfg.engine {
            Engine::Alphabeta => "alpha-beta",
            Engine::Mcts => "MCTS",
        };
        let how = match (cfg.limits.depth, cfg.limits.time) {
            (Some(d), _) => format!("depth {d}"),
            (_, Some(t)) => format!("{} s per move", t.as_secs_f64()),
            _ => String::new(),
        };
        let date = varia_interpreter::pgn::today();
        for (i, g) in games.iter().enumerate() {
            let tags = [
                ("Event", format!("Varia self-play, {} random opening plies, seed {}", cfg.random_plies, cfg.seed)),
                ("Site", "varia selfplay".to_string()),
                ("Date", date.clone()),
                ("Round", (i + 1).to_string()),
                ("White", format!("Varia {engine}, {how}")),
                ("Black", format!("Varia {engine}, {how}")),
            ];
            let text = varia_interpreter::pgn::write(&g.end, &tags);
            let path = dir.join(format!("game-{:03}.pgn", i + 1));
            std::fs::write(&path, text).map_err(|e| format!("error: {}: {e}", path.display()))?;
        }
        outln!("games saved in {} as PGN (replay with `varia replay FILE GAME`)", dir.display());
    }
    Ok(())
}
