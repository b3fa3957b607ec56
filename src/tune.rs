//! `varia tune`: fits the evaluation's weights to one variant's own self-play games (Texel's method: the weights that best predict the games' results from their quiet positions) and writes them to a weights file.

use std::path::PathBuf;

use varia_interpreter::{Evaluator, GameResult, Limits, Position, Searcher};

use crate::games::{self, Setup};

/// Options of `varia tune`.
#[derive(clap::Args)]
pub struct TuneArgs {
    /// The `.var` file.
    pub file: PathBuf,
    /// Self-play games to learn from (at most 100000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub games: u64,
    /// Search depth of the self-play games, in turns (at most 16).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub depth: u32,
    /// Random moves opening each game, so that games differ (at most 1000).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(0..=1000))]
    pub random_plies: u64,
    /// Stop a game after this many plies (a draw for the fit; at most 100000).
    #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub max_plies: u64,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Weights to start from and to play the games with (default: FILE's `.weights.toml`
    /// beside it, if any, else the defaults).
    #[arg(long)]
    pub weights: Option<PathBuf>,
    /// Where to write the fitted weights (default: FILE's `.weights.toml` beside it).
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Steps of gradient descent (at most 1000000).
    #[arg(long, default_value_t = 3000, value_parser = clap::value_parser!(u64).range(0..=1_000_000))]
    pub steps: u64,
    /// Games played at once (default: one per core; at most four per core).
    #[arg(long, value_parser = games::thread_count)]
    pub jobs: Option<usize>,
}

/// A labelled position: its features from the first player's view and the result for it.
struct Sample {
    features: Vec<f64>,
    result: f64,
}

/// The predicted result of an evaluation (centipawns, first player's view): a logistic curve
/// whose steepness `k` is fitted first.
fn sigmoid(k: f64, e: f64) -> f64 {
    1.0 / (1.0 + (-k * e / 400.0).exp())
}

fn dot(w: &[f64], f: &[f64]) -> f64 {
    w.iter().zip(f).map(|(a, b)| a * b).sum()
}

/// Mean squared error of the predictions.
fn error(samples: &[Sample], w: &[f64], k: f64) -> f64 {
    samples.iter().map(|s| (s.result - sigmoid(k, dot(w, &s.features))).powi(2)).sum::<f64>()
        / samples.len().max(1) as f64
}

/// Each game's quiet positions labelled with its result (1 a first-player win, 0 a loss, 0.5
/// otherwise); and the first and second players' wins and the other games.
fn labelled(records: &[games::Record], per_game: Vec<Vec<Vec<f64>>>) -> (Vec<Sample>, [usize; 2], usize) {
    let mut samples = Vec::new();
    let (mut wins, mut draws) = ([0usize; 2], 0);
    for (rec, feats) in records.iter().zip(per_game) {
        let result = match rec.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
        match rec.winner {
            Some(p) => wins[p.min(1)] += 1,
            None => draws += 1,
        }
        samples.extend(feats.into_iter().map(|features| Sample { features, result }));
    }
    (samples, wins, draws)
}

/// Runs the tuner: self-play, sampling, fitting, writing.
pub fn run(args: TuneArgs) -> Result<(), String> {
    let rules = crate::load::rules(&args.file)?;
    let eval = crate::weights::evaluator(&rules, Some(&args.file), args.weights.as_deref())?;
    let start_weights = eval.weights().clone();
    let setup = Setup {
        start: Position::start(rules.clone()),
        variant_file: args.file.clone(),
        max_plies: args.max_plies as usize,
        random_plies: args.random_plies as usize,
        seed: args.seed,
        resume: None,
    };
    let limits = Limits { depth: Some(args.depth), ..Limits::default() };
    let indices: Vec<usize> = (0..args.games as usize).collect();
    let jobs = args.jobs.unwrap_or_else(games::default_jobs);
    // Each game gives its quiet positions (the player to move not in check, the move played
    // not a capture) labelled with the result.
    let per_game = std::sync::Mutex::new(vec![Vec::new(); args.games as usize]);
    let records = games::run_all(&indices, jobs, "tune: self-play", false, |g| {
        let mut searcher = Searcher::with_evaluator(&rules, 8, eval.clone());
        let mut pos = setup.start.clone();
        let mut written = Vec::new();
        for mv in games::opening(&setup, g) {
            written.push(pos.long_notation(mv));
            pos.make(mv);
        }
        let mut quiet = Vec::new();
        let (winner, finished, ending) = loop {
            if let Some((result, reason)) = pos.outcome() {
                break (
                    match result {
                        GameResult::Win(p) => Some(p.0 as usize),
                        GameResult::Draw => None,
                    },
                    true,
                    reason.name().to_string(),
                );
            }
            if written.len() >= setup.max_plies {
                break (None, false, "ply limit".to_string());
            }
            let Some(mv) = searcher.search(&mut pos, limits, |_| {}).best() else {
                break (None, false, "no move".to_string());
            };
            if pos.action_index() == 0 && !pos.in_check() && !mv.is_capture() {
                quiet.push(eval.features(&pos));
            }
            written.push(pos.long_notation(mv));
            pos.make(mv);
        };
        if let Ok(mut all) = per_game.lock() {
            all[g] = quiet;
        }
        Ok(games::Record {
            index: g,
            opening: g,
            first_side: 0,
            winner,
            ending,
            finished,
            plies: written.len(),
            moves: written,
        })
    })?;
    let per_game = per_game.into_inner().map_err(|_| "error: a self-play game failed".to_string())?;
    let (samples, wins, draws) = labelled(&records, per_game);
    outln!(
        "{}: {} self-play games at depth {} ({} first-player wins, {} second-player wins, {} draws or unfinished), {} quiet positions",
        rules.variant.title,
        records.len(),
        args.depth,
        wins[0],
        wins[1],
        draws,
        samples.len()
    );
    if samples.len() < 50 {
        return Err(format!("error: only {} quiet positions: play more games (--games)", samples.len()));
    }
    let w0 = start_weights.to_vector();
    let k = fit_k(&samples, &w0);
    let before = error(&samples, &w0, k);
    let w = descend(&samples, &w0, k, args.steps as usize);
    let after = error(&samples, &w, k);
    let mut fitted = start_weights.clone();
    fitted.set_vector(&w.iter().map(|x| (x * 10.0).round() / 10.0).collect::<Vec<_>>());
    // The fitted weights must still be accepted for the variant.
    Evaluator::with_weights(&rules, &fitted).map_err(|e| format!("error: the fit gave unusable weights: {e}"))?;
    outln!("logistic scale k = {k:.3}; mean squared error {before:.5} with the starting weights, {after:.5} fitted");
    let names = fitted.vector_names();
    let new = fitted.to_vector();
    for (i, name) in names.iter().enumerate() {
        if (new[i] - w0[i]).abs() >= 0.5 {
            outln!("  {name:<24} {:>9.1} -> {:>9.1}", w0[i], new[i]);
        }
    }
    let out = args.output.clone().unwrap_or_else(|| crate::weights::beside(&args.file));
    let header = format!(
        "Evaluation weights for \"{}\", fitted by `varia tune` to {} quiet positions of {} self-play\n\
         games at depth {} (seed {}, {} random opening plies); mean squared error {:.5} -> {:.5}.\n\
         play, analyse, selfplay, match, uci and serve read this file when it lies beside the variant.",
        rules.variant.title,
        samples.len(),
        records.len(),
        args.depth,
        args.seed,
        args.random_plies,
        before,
        after
    );
    crate::weights::write(&out, &fitted, &header)?;
    outln!("weights written to {}", out.display());
    Ok(())
}

/// The logistic scale that best fits the starting weights (golden-section search).
fn fit_k(samples: &[Sample], w: &[f64]) -> f64 {
    let (mut a, mut b) = (0.05f64, 10.0f64);
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let c = b - g * (b - a);
        let d = a + g * (b - a);
        if error(samples, w, c) < error(samples, w, d) {
            b = d;
        } else {
            a = c;
        }
    }
    (a + b) / 2.0
}

/// Gradient descent (Adam) on the mean squared error, with a light pull towards the starting
/// weights so that terms the games say little about stay where they were.
fn descend(samples: &[Sample], w0: &[f64], k: f64, steps: usize) -> Vec<f64> {
    let n = w0.len();
    let mut w = w0.to_vec();
    let (mut m, mut v) = (vec![0.0; n], vec![0.0; n]);
    let (b1, b2, rate, pull) = (0.9, 0.999, 1.0, 1e-7);
    let mut grad = vec![0.0; n];
    for t in 1..=steps {
        grad.iter_mut().for_each(|g| *g = 0.0);
        for s in samples {
            let p = sigmoid(k, dot(&w, &s.features));
            // d/dw (y - p)^2 = -2 (y - p) p (1 - p) (k / 400) f.
            let common = -2.0 * (s.result - p) * p * (1.0 - p) * k / 400.0;
            for (g, f) in grad.iter_mut().zip(&s.features) {
                *g += common * f;
            }
        }
        let count = samples.len() as f64;
        for i in 0..n {
            let g = grad[i] / count + pull * (w[i] - w0[i]);
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-12);
        }
    }
    w
}
