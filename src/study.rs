//! Studies of engine games (`selfplay` and `match`): the games of a study, or of one shard of it, played into a report, and the report's games saved as PGN.

use std::path::PathBuf;
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

use crate::games::{self, Player, Record, Setup, Shard, Spec};
use crate::report::Study;

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
}

/// Plays a study (or its shard) and returns its report. In self-play (`is_match` false) game i
/// opens with opening i and one SPEC plays both sides; in a match games 2k and 2k+1 share
/// opening k with colours swapped, the first SPEC taking the first player in even games.
pub fn run(rules: Arc<Rules>, start: Position, args: &StudyArgs, is_match: bool) -> Result<Study, String> {
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
    Ok(Study {
        kind: label.to_string(),
        variant: rules.variant.title.clone(),
        file: args.file.display().to_string(),
        players,
        first: args.first.text.clone(),
        second: args.second.text.clone(),
        seed: args.seed,
        random_plies: args.random_plies,
        max_plies: args.max_plies,
        planned: args.games,
        shard: args.shard.map(|s| s.to_string()),
        records,
    })
}

/// Writes the games of a study to `dir` as PGN files (`game-001.pgn`, ...), replayed from
/// `start`, each player named by its SPEC.
pub fn save(dir: &std::path::Path, start: &Position, study: &Study) -> Result<(), String> {
    let is_match = study.kind == "match";
    let who = |g: &Record| {
        let (a, b) = (&study.first, &study.second);
        let (p0, p1) = if !is_match || g.first_side == 0 { (a, b) } else { (b, a) };
        (format!("Varia {p0}"), format!("Varia {p1}"))
    };
    let event = if is_match { "Varia match" } else { "Varia self-play" };
    let event = format!("{event}, {} random opening plies, seed {}", study.random_plies, study.seed);
    games::save(dir, start, &event, &study.records, who)
}
