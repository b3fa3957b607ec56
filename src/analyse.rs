//! `varia analyse`, `varia selfplay` and `varia match`: the search's best move with its principal variation, and studies of engine games with a report.

use std::sync::Arc;

use varia_interpreter::{Evaluator, Limits, Position, Rules, SearchInfo, Searcher};

use varia::study::{self, StudyArgs};

/// A score as text, for `side` (the side to move, whose view the search takes): centipawns as
/// pawns (`+0.35 for white`: plus is better for that side), or a mate in N plies
/// (`white mates in 3 plies`, `black is mated in 2 plies`).
pub fn score_text(info: &SearchInfo, side: &str) -> String {
    match info.mate_in() {
        Some(n) if n > 0 => format!("{side} mates in {}", plies(n)),
        Some(n) => format!("{side} is mated in {}", plies(-n)),
        None => format!("{:+.2} for {side}", info.score as f64 / 100.0),
    }
}

/// `1 ply`, `3 plies`.
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// Searches a position and prints a line per finished depth (and, marked `..`, each better move
/// found during a depth), then the best move.
pub fn analyse(mut pos: Position, limits: Limits, eval: Evaluator) -> Result<(), String> {
    let rules = pos.rules().clone();
    let mut searcher = Searcher::with_evaluator(&rules, 64, eval);
    let root = pos.clone();
    let side = rules.variant.players[pos.side_to_move().0 as usize].name.clone();
    let mut written = Ok(());
    let info = searcher.search(&mut pos, limits, |i| {
        let pv = pv_text(&mut root.clone(), &i.pv);
        let nps = i.nodes as f64 / i.elapsed.as_secs_f64().max(1e-6);
        // A better move found during a depth is reported before the depth ends.
        let label = if i.partial { "  .. " } else { "depth" };
        let line = format!(
            "{label} {:>2}  score {:>14}  nodes {:>10}  nps {:>9.0}  time {:>7.2}s  pv {pv}",
            i.depth,
            score_text(i, &side),
            i.nodes,
            nps,
            i.elapsed.as_secs_f64()
        );
        if written.is_ok() {
            written = crate::write_out(format_args!("{line}\n"));
        }
    });
    written?;
    match info.best() {
        Some(mv) => {
            outln!("best move: {} (score {})", pos.long_notation(mv), score_text(&info, &side));
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

/// Plays a study (`selfplay` or `match`, see [`study::run`]) and prints its report, as text or
/// one JSON object; with `--save` its games are written as PGN files.
pub fn study(rules: Arc<Rules>, start: Position, args: StudyArgs, json: bool, is_match: bool) -> Result<(), String> {
    let report = study::run(rules, start.clone(), &args, is_match)?;
    if json {
        outln!("{}", report.json());
    } else {
        out!("{}", report.text());
    }
    if let Some(dir) = &args.save {
        study::save(dir, &start, &report)?;
        if !json {
            outln!("games saved in {} as PGN (replay with `varia replay FILE GAME`)", dir.display());
        }
    }
    Ok(())
}
