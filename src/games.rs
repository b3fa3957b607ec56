//! Engine games for `match`, `selfplay` and `tune`: players described by a SPEC (`depth=3`, `time=0.5`, `weights=FILE`), seeded random openings, one game, and many games in parallel with a progress bar, or a deterministic share of them (`--shard K/N`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use varia_interpreter::{GameResult, Limits, Move, Position, Rules, Searcher};

/// Which search plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Engine {
    /// Principal variation search (alpha-beta) with iterative deepening: the only search (the
    /// Monte Carlo tree search was removed, docs/play.md says why).
    Alphabeta,
}

/// How one side plays: engine, limits, weights file.
#[derive(Clone, Debug)]
pub struct Spec {
    pub engine: Engine,
    pub limits: Limits,
    pub weights: Option<PathBuf>,
    pub hash_mb: usize,
    /// The text it was read from (for reports).
    pub text: String,
}

/// The most nodes a SPEC's search may be given (hours of search).
const MAX_NODES: u64 = 1_000_000_000_000;

const SPEC_KEYS: &str = "depth=N, time=SECONDS, nodes=N, engine=alphabeta, weights=FILE, hash=MB";

impl Spec {
    /// Reads a SPEC: comma-separated `key=value` pairs (keys: depth, time, nodes, engine,
    /// weights, hash). Without depth, time or nodes, depth 2 is used.
    pub fn parse(text: &str) -> Result<Spec, String> {
        let mut spec = Spec {
            engine: Engine::Alphabeta,
            limits: Limits::default(),
            weights: None,
            hash_mb: 8,
            text: text.to_string(),
        };
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((key, value)) = part.split_once('=') else {
                return Err(format!("error: `{part}` in SPEC `{text}` is not key=value (keys: {SPEC_KEYS})"));
            };
            let bad = |what: &str| format!("error: `{part}` in SPEC `{text}`: {what}");
            match key.trim() {
                "depth" => match value.parse::<u32>() {
                    Ok(d) if (1..=64).contains(&d) => spec.limits.depth = Some(d),
                    _ => return Err(bad("depth must be a whole number from 1 to 64")),
                },
                "time" => match value.parse::<f64>() {
                    Ok(t) if t.is_finite() && t > 0.0 && t <= 3600.0 => {
                        spec.limits.time = Some(Duration::from_secs_f64(t))
                    }
                    _ => return Err(bad("time must be a number of seconds above 0 and at most 3600")),
                },
                "nodes" => match value.parse::<u64>() {
                    Ok(n) if (1..=MAX_NODES).contains(&n) => spec.limits.nodes = Some(n),
                    _ => return Err(bad(&format!("nodes must be a whole number from 1 to {MAX_NODES}"))),
                },
                "engine" => {
                    spec.engine = match value {
                        "alphabeta" | "ab" => Engine::Alphabeta,
                        "mcts" => {
                            return Err(bad(
                                "the Monte Carlo tree search was removed: it lost to alpha-beta at equal time in \
                                 every family of games (docs/play.md); engine must be alphabeta",
                            ))
                        }
                        _ => return Err(bad("engine must be alphabeta")),
                    }
                }
                "weights" => spec.weights = Some(PathBuf::from(value)),
                "hash" => match value.parse::<usize>() {
                    Ok(mb) if (1..=4096).contains(&mb) => spec.hash_mb = mb,
                    _ => return Err(bad("hash must be a number of megabytes from 1 to 4096")),
                },
                _ => return Err(bad(&format!("unknown key (keys: {SPEC_KEYS})"))),
            }
        }
        if spec.limits.depth.is_none() && spec.limits.time.is_none() && spec.limits.nodes.is_none() {
            spec.limits.depth = Some(2);
        }
        Ok(spec)
    }
}

/// A player ready to choose moves in one game.
pub enum Player {
    AlphaBeta(Box<Searcher>, Limits),
}

impl Player {
    /// A player for a spec; weights come from the spec, else from beside the variant file.
    pub fn new(spec: &Spec, rules: &Arc<Rules>, variant_file: &Path) -> Result<Player, String> {
        let eval = crate::weights::evaluator(rules, Some(variant_file), spec.weights.as_deref())?;
        Ok(match spec.engine {
            Engine::Alphabeta => {
                Player::AlphaBeta(Box::new(Searcher::with_evaluator(rules, spec.hash_mb, eval)), spec.limits)
            }
        })
    }

    /// The move to play, if there is a legal one.
    pub fn choose(&mut self, pos: &mut Position) -> Option<Move> {
        match self {
            Player::AlphaBeta(s, limits) => s.search(pos, *limits, |_| {}).best(),
        }
    }
}

/// One finished (or stopped) game.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// The game's number in the study, from 0.
    pub index: usize,
    /// The opening it started from, from 0 (a match plays each opening twice, colours swapped).
    pub opening: usize,
    /// Which player (0 moves first) the first SPEC played.
    pub first_side: usize,
    /// The winning player, if any.
    pub winner: Option<usize>,
    /// How it ended: `checkmate`, `repetition`, ... or `ply limit` when stopped.
    pub ending: String,
    /// Whether it ended by the rules (not stopped at the ply limit).
    pub finished: bool,
    pub plies: usize,
    /// The moves in long notation.
    pub moves: Vec<String>,
}

/// What every game of a study shares.
#[derive(Clone, Debug)]
pub struct Setup {
    pub start: Position,
    pub variant_file: PathBuf,
    pub max_plies: usize,
    pub random_plies: usize,
    pub seed: u64,
    /// Where each game's moves are kept as it is played (`--resume DIR`).
    pub resume: Option<Resume>,
}

/// A study's games kept move by move in a directory (`--resume DIR`), so that a study stopped
/// partway (a machine's time limit) continues each game from its last position.
#[derive(Clone, Debug)]
pub struct Resume {
    pub dir: PathBuf,
    /// The first line of every file: the study's settings, so that another study's file is
    /// refused rather than continued.
    pub study: String,
}

/// A kept game's file is refused past this size (a game of 100,000 plies takes about 1 MB).
const RESUME_FILE_LIMIT: usize = 16 << 20;

impl Resume {
    fn path(&self, index: usize) -> PathBuf {
        self.dir.join(format!("game-{:03}.moves", index + 1))
    }

    /// The moves kept for game `index` (from 0), if its file exists.
    fn read(&self, index: usize) -> Result<Option<(PathBuf, Vec<String>)>, String> {
        let path = self.path(index);
        if !path.exists() {
            return Ok(None);
        }
        let text = crate::files::read_text(&path, RESUME_FILE_LIMIT, "a kept game")?;
        let mut lines = text.lines();
        let head = lines.next().unwrap_or("");
        if head != self.study {
            return Err(format!(
                "error: {}:1:1: `{head}`: this game belongs to another study; expected `{}`",
                path.display(),
                self.study
            ));
        }
        let moves = lines.next().unwrap_or("").split_whitespace().map(str::to_string).collect();
        Ok(Some((path, moves)))
    }

    /// Keeps the moves so far: written to a new file renamed over the old one, so that a stop
    /// partway through the write leaves the last complete list.
    fn write(&self, index: usize, moves: &[String]) -> Result<(), String> {
        crate::files::write_atomic(&self.path(index), format!("{}\n{}\n", self.study, moves.join(" ")).as_bytes())
    }
}

/// A small deterministic generator (splitmix64) for the openings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// The moves of opening `n`: `random_plies` random legal moves from the start. Each is drawn
/// in a random order from the moves that do not lose by force within the opponent's next turn
/// (a search of one turn, or two while the mover's own turn goes on), when one exists, so that
/// an opening does not decide the game by itself (in games of several actions a turn, a random
/// placement could leave the mover stalemated); the whole opening is drawn again (a few times)
/// if it still ends the game.
pub fn opening(setup: &Setup, n: usize) -> Vec<Move> {
    let mut moves = Vec::new();
    let mut out = Vec::new();
    let mut searcher = Searcher::new(setup.start.rules(), 1);
    for attempt in 0..16u64 {
        let mut rng =
            Rng(setup.seed ^ (n as u64).wrapping_mul(0xA24B_AED4_963E_E407) ^ attempt.wrapping_mul(0x1234_5678_9ABC));
        let mut pos = setup.start.clone();
        out.clear();
        for _ in 0..setup.random_plies {
            if pos.outcome().is_some() {
                break;
            }
            pos.legal_moves(&mut moves);
            // A random order (Fisher-Yates), then the first move that keeps the game open.
            for i in (1..moves.len()).rev() {
                moves.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            let mv = moves
                .iter()
                .take(OPENING_TRIES)
                .copied()
                .find(|m| keeps_game_open(&mut searcher, &mut pos, *m))
                .unwrap_or(moves[0]);
            out.push(mv);
            pos.make(mv);
        }
        if pos.outcome().is_none() {
            break;
        }
    }
    out
}

/// At most this many random moves are tried for one opening ply before one is taken untested.
const OPENING_TRIES: usize = 24;

/// Whether a move leaves the game open: it does not end it, and a search to the end of the
/// opponent's next turn finds no forced loss for the mover.
fn keeps_game_open(searcher: &mut Searcher, pos: &mut Position, mv: Move) -> bool {
    let mover = pos.side_to_move();
    pos.make(mv);
    let open = pos.outcome().is_none() && {
        let turns = if pos.side_to_move() == mover { 2 } else { 1 };
        let limits = Limits { depth: Some(turns), nodes: Some(200_000), ..Default::default() };
        let info = searcher.search(pos, limits, |_| {});
        // The score is the side to move's, the mover's while its own turn goes on.
        let for_mover = if pos.side_to_move() == mover { info.score } else { -info.score };
        info.mate_in().is_none() || for_mover > 0
    };
    pos.unmake();
    open
}

/// Plays one game from an opening (or from its kept moves, with `--resume`): `players[p]`
/// moves for player p.
pub fn play(
    setup: &Setup,
    index: usize,
    opening_n: usize,
    first_side: usize,
    players: &mut [Player; 2],
) -> Result<Record, String> {
    let mut pos = setup.start.clone();
    let mut written = Vec::new();
    let kept = match &setup.resume {
        Some(r) => r.read(index)?,
        None => None,
    };
    if let Some((path, moves)) = kept {
        if moves.len() > setup.max_plies {
            return Err(format!(
                "error: {}:2:1: {} moves kept, more than --max-plies {}",
                path.display(),
                moves.len(),
                setup.max_plies
            ));
        }
        for (i, text) in moves.iter().enumerate() {
            let mv = pos
                .parse_move(text)
                .map_err(|e| format!("error: {}:2: move {} of the kept game: {e}", path.display(), i + 1))?;
            written.push(pos.long_notation(mv));
            pos.make(mv);
            if pos.outcome().is_some() && i + 1 < moves.len() {
                return Err(format!(
                    "error: {}:2: the kept game ends at move {}, before its last",
                    path.display(),
                    i + 1
                ));
            }
        }
    } else {
        for mv in opening(setup, opening_n) {
            written.push(pos.long_notation(mv));
            pos.make(mv);
        }
    }
    loop {
        // Kept before each search and at the end: a finished game is then only replayed.
        if let Some(r) = &setup.resume {
            r.write(index, &written)?;
        }
        if let Some((result, reason)) = pos.outcome() {
            let winner = match result {
                GameResult::Win(p) => Some(p.0 as usize),
                GameResult::Draw => None,
            };
            return Ok(record(index, opening_n, first_side, winner, reason.name().to_string(), true, written));
        }
        if written.len() >= setup.max_plies {
            return Ok(record(index, opening_n, first_side, None, "ply limit".to_string(), false, written));
        }
        let side = pos.side_to_move().0 as usize;
        let Some(mv) = players[side.min(1)].choose(&mut pos) else {
            return Ok(record(index, opening_n, first_side, None, "no move".to_string(), false, written));
        };
        written.push(pos.long_notation(mv));
        pos.make(mv);
    }
}

fn record(
    index: usize,
    opening: usize,
    first_side: usize,
    winner: Option<usize>,
    ending: String,
    finished: bool,
    moves: Vec<String>,
) -> Record {
    Record { index, opening, first_side, winner, ending, finished, plies: moves.len(), moves }
}

/// A share of a study: `K/N` takes the games whose number is K-1 modulo N, so with N equal to
/// the number of games every game is a shard of its own (its report is written when it ends).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub k: usize,
    pub n: usize,
}

impl Shard {
    /// Reads `K/N` (1 <= K <= N).
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((k, n)) if n >= 1 && (1..=n).contains(&k) => Ok(Shard { k, n }),
            _ => Err(format!("error: --shard `{text}` must be K/N with 1 <= K <= N, as in 3/8")),
        }
    }

    /// Whether a game belongs to this share.
    pub fn takes(&self, game: usize) -> bool {
        game % self.n == self.k - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

/// Runs `play(index)` for every index on `jobs` threads, with a progress bar on standard
/// error on a terminal, else a line per game as it ends (`is_match`: the two settings differ,
/// and the line says which won); results come back in index order.
pub fn run_all<F>(indices: &[usize], jobs: usize, label: &str, is_match: bool, play: F) -> Result<Vec<Record>, String>
where
    F: Fn(usize) -> Result<Record, String> + Sync,
{
    let bar = ProgressBar::new(indices.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{prefix} [{bar:30}] {pos}/{len} games, {elapsed} elapsed, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("#>."),
    );
    bar.set_prefix(label.to_string());
    let quiet_bar = !std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.max(1))
        .build()
        .map_err(|e| format!("error: cannot start {jobs} threads: {e}"))?;
    let results: Vec<Result<Record, String>> = pool.install(|| {
        indices
            .par_iter()
            .map(|&i| {
                let r = play(i);
                bar.inc(1);
                // Without a terminal (a log, a batch job) the bar is hidden: a line per game
                // shows a long study is moving.
                if let (true, Ok(g)) = (quiet_bar, &r) {
                    eprintln!(
                        "{label}: {}; {}/{} done, {}",
                        game_line(g, is_match),
                        bar.position(),
                        indices.len(),
                        clock(started.elapsed())
                    );
                }
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    results.into_iter().collect()
}

/// How a game ended, in a line: `game 7 ended, player 2 won: the first setting (checkmate, 84 plies)`.
fn game_line(g: &Record, is_match: bool) -> String {
    let winner = match g.winner {
        None => "no winner".to_string(),
        Some(p) if !is_match => format!("player {} won", p + 1),
        Some(p) if p == g.first_side => format!("player {} won: the first setting", p + 1),
        Some(p) => format!("player {} won: the second setting", p + 1),
    };
    format!("game {} ended, {winner} ({}, {} plies)", g.index + 1, g.ending, g.plies)
}

/// Minutes and seconds: `12m05s`.
fn clock(d: Duration) -> String {
    format!("{}m{:02}s", d.as_secs() / 60, d.as_secs() % 60)
}

/// The number of threads to use by default: every core.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

/// How many threads `--jobs` and `--threads` may ask for per core: more only slow every
/// game down (`selfplay --jobs 10000` started ten thousand threads and stalled the machine).
pub const THREADS_PER_CORE: usize = 4;

/// Reads the value of `--jobs` or `--threads` (for clap): a whole number from 1 to
/// [`THREADS_PER_CORE`] times the cores.
pub fn thread_count(text: &str) -> Result<usize, String> {
    let cores = default_jobs();
    let most = cores * THREADS_PER_CORE;
    match text.parse::<usize>() {
        Ok(n) if (1..=most).contains(&n) => Ok(n),
        _ => Err(format!(
            "expected a whole number from 1 to {most} ({THREADS_PER_CORE} threads per core; this machine has {cores})"
        )),
    }
}

/// Writes each game as a PGN file in `dir` (`game-001.pgn`, ...), its moves replayed from
/// `start`; `who` names the players of a game, white first.
pub fn save(
    dir: &Path,
    start: &Position,
    event: &str,
    records: &[Record],
    who: impl Fn(&Record) -> (String, String),
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("error: {}: {e}", dir.display()))?;
    let date = varia_interpreter::pgn::today();
    for g in records {
        let mut pos = start.clone();
        for text in &g.moves {
            let mv = pos.parse_move(text).map_err(|e| format!("error: game {}: {text}: {e}", g.index + 1))?;
            pos.make(mv);
        }
        let (white, black) = who(g);
        let tags = [
            ("Event", event.to_string()),
            ("Site", "varia".to_string()),
            ("Date", date.clone()),
            ("Round", (g.index + 1).to_string()),
            ("White", white),
            ("Black", black),
        ];
        let text = varia_interpreter::pgn::write(&pos, &tags);
        let path = dir.join(format!("game-{:03}.pgn", g.index + 1));
        crate::files::write_atomic(&path, text.as_bytes())?;
    }
    Ok(())
}
