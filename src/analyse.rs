//! `varia analyse`, `varia selfplay` and `varia match`: the search's best move with its principal variation, and studies of engine games with a report.

use std::path::PathBuf;
use std::sync::Arc;

use varia_interpreter::{Evaluator, Limits, Position, Rules, SearchInfo, Searcher};

use crate::games::{self, Player, Record, Setup, Shard, Spec};
use crate::report::Study;

/// A score as text: centipawns as pawns (`+0.35`), or a mate in N moves of the side to move.
pub fn score_text(info: &SearchInfo) -> String {
    match info.mate_in() {
        Some(n) if n > 0 => format!("mate in {} plies", n),
        Some(n) => format!("mated in {} plies", -n),
        None => format!("{:+.2}", info.score as f64 / 100.0),
    }
}

/// Searches a position and prints a line per finished depth (and, marked `..`, each better move
/// found during a depth), then the best move.
pub fn analyse(mut pos: Position, limits: Limits, eval: Evaluator) -> Result<(), String> {
    let rules = pos.rules().clone();
    let mut searcher = Searcher::with_evaluator(&rules, 64, eval);
    let root = pos.clone();
    let mut written = Ok(());
    let info = searcher.search(&mut pos, limits, |i| {
        let pv = pv_text(&mut root.clone(), &i.pv);
        let nps = i.nodes as f64 / i.elapsed.as_secs_f64().max(1e-6);
        // A better move found during a depth is reported before the depth ends.
        let label = if i.partial { "  .. " } else { "depth" };
        let line = format!(
            "{label} {:>2}  score {:>8}  nodes {:>10}  nps {:>9.0}  time {:>7.2}s  pv {pv}",
            i.depth,
            score_text(i),
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

/// The settings of a study of engine games (`selfplay` or `match`).
pub struct StudyArgs {
    pub file: PathBuf,
    pub games: usize,
    pub first: Spec,
    pub second: Spec,
    pub max_plies: usize,
    pub random_plies: usize,
    pub seed: u64,
    pub save: Option<PathBuf>,
    pub resume: Option<PathBuf>,
    pub shard: Option<Shard>,
    pub jobs: usize,
    pub json: bool,
}

/// Plays a study and prints its report. In self-play (`is_match` false) game i opens with
/// opening i and one SPEC plays both sides; in a match games 2k and 2k+1 share opening k with
/// colours swapped, the first SPEC taking the first player in even games.
pub fn study(rules: Arc<Rules>, start: Position, args: StudyArgs, is_match: bool) -> Result<(), String> {
    if args.games == 0 || args.games > 1_000_000 {
        return Err(format!("error: --games must be from 1 to 1000000, not {}", args.games));
    }
    if args.max_plies == 0 || args.max_plies > 100_000 {
        return Err(format!("error: --max-plies must be from 1 to 100000, not {}", args.max_plies));
    }
    if args.random_plies > 1000 {
        return Err(format!("error: --random-plies must be at most 1000, not {}", args.random_plies));
    }
    // Read weights files now, so that a bad one is reported once, before any game.
    for spec in [&args.first, &args.second] {
        crate::weights::evaluator(&rules, Some(&args.file), spec.weights.as_deref())?;
    }
    let label = if is_match { "match" } else { "selfplay" };
    let resume = match &args.resume {
        Some(dir) => {
            std::fs::create_dir_all(dir).map_err(|e| format!("error: --resume {}: {e}", dir.display()))?;
            let mut study = format!(
                "varia {label} {} --first {} --second {} --seed {} --random-plies {} --max-plies {}",
                args.file.display(),
                args.first.text,
                args.second.text,
                args.seed,
                args.random_plies,
                args.max_plies
            );
            // A study from another start (`--position`) keeps other games.
            let position = start.to_position_string();
            if position != Position::start(rules.clone()).to_position_string() {
                study.push_str(&format!(" --position {position}"));
            }
            Some(games::Resume { dir: dir.clone(), study })
        }
        None => None,
    };
    let setup = Setup {
        start,
        variant_file: args.file.clone(),
        max_plies: args.max_plies,
        random_plies: args.random_plies,
        seed: args.seed,
        resume,
    };
    let opening_of = |g: usize| if is_match { g / 2 } else { g };
    let indices: Vec<usize> = (0..args.games).filter(|&g| args.shard.is_none_or(|s| s.takes(g))).collect();
    let records = games::run_all(&indices, args.jobs, label, is_match, |g| {
        let first_side = if is_match { g % 2 } else { 0 };
        let a = Player::new(&args.first, &rules, &setup.variant_file)?;
        let b = Player::new(&args.second, &rules, &setup.variant_file)?;
        let mut players = if first_side == 0 { [a, b] } else { [b, a] };
        games::play(&setup, g, opening_of(g), first_side, &mut players)
    })?;
    // A team's players all go by the team's names: its wins are counted once, as the side's.
    let players: Vec<String> =
        (0..rules.player_count() as u8).map(|p| rules.side_name(varia_interpreter::ir::PlayerId(p))).collect();
    let study = Study {
        kind: label.to_string(),
        variant: rules.variant.title.clone(),
        file: args.file.display().to_string(),
        players: players.clone(),
        first: args.first.text.clone(),
        second: args.second.text.clone(),
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        planned: args.games,
        shard: args.shard.map(|s| s.to_string()),
        records,
    };
    if args.json {
        outln!("{}", study.json());
    } else {
        out!("{}", study.text());
    }
    if let Some(dir) = &args.save {
        let who = |g: &Record| {
            let (a, b) = (&args.first.text, &args.second.text);
            let (p0, p1) = if !is_match || g.first_side == 0 { (a, b) } else { (b, a) };
            (format!("Varia {p0}"), format!("Varia {p1}"))
        };
        let event = if is_match { "Varia match" } else { "Varia self-play" };
        let event = format!("{event}, {} random opening plies, seed {}", args.random_plies, args.seed);
        games::save(dir, &setup.start, &event, &study.records, who)?;
        if !args.json {
            outln!("games saved in {} as PGN (replay with `varia replay FILE GAME`)", dir.display());
        }
    }
    Ok(())
}
