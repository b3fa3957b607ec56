//! `varia`: the command-line front end: check, perft, moves, replay, show, play, analyse, self-play, match and tune any variant.

mod analyse;
mod game_file;
mod games;
mod load;
mod play;
mod report;
mod show;
mod tune;
mod uci;
mod weights;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use varia_interpreter::{divide, divide_turns, perft, perft_turns, Position};

/// Varia plays chess variants described in `.var` files.
#[derive(Parser)]
#[command(name = "varia", version, about, long_about = None)]
struct Cli {
    /// For a Zillions `.zrf` file: play this variant of it (its title, or its number counting
    /// from 1) instead of the main game.
    #[arg(long, global = true, value_name = "TITLE|N")]
    variant: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Validate a variant file: a one-line summary, or every error with its location.
    Check {
        /// The `.var` file.
        file: PathBuf,
    },
    /// Count the leaf nodes of the legal move tree to a depth.
    Perft {
        /// The `.var` file.
        file: PathBuf,
        /// Depth in plies.
        depth: u32,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Print each root move with its count first.
        #[arg(long)]
        divide: bool,
        /// Count whole turns instead of single actions (in games where a turn has several).
        #[arg(long)]
        turns: bool,
    },
    /// List the legal moves, one per line.
    Moves {
        /// The `.var` file.
        file: PathBuf,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Play these moves first (space-separated, any accepted notation).
        #[arg(long)]
        after: Option<String>,
    },
    /// Check a game file move by move and print the final position and result.
    Replay {
        /// The `.var` file.
        file: PathBuf,
        /// A text file of moves (move numbers, `+ # ! ?` and `{comments}` allowed).
        game: PathBuf,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
    },
    /// Draw the board as text.
    Show {
        /// The `.var` file.
        file: PathBuf,
        /// Show this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
    },
    /// Play in the terminal: human against human, or against the built-in opponent.
    Play {
        /// The `.var` file.
        file: PathBuf,
        /// Who plays the first side.
        #[arg(long, default_value = "human")]
        white: play::Player,
        /// Who plays the second side.
        #[arg(long, default_value = "human")]
        black: play::Player,
        /// Search depth of the built-in opponent, in plies (actions).
        #[arg(long)]
        depth: Option<u32>,
        /// Thinking time of the built-in opponent per move, in seconds (default: 2 without --depth).
        #[arg(long)]
        time: Option<f64>,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Evaluation weights (from `varia tune`; default: FILE's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Search a position: a line per depth (score, nodes, principal variation), then the best move.
    Analyse {
        /// The `.var` file.
        file: PathBuf,
        /// Analyse this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Play these moves first (space-separated, any accepted notation).
        #[arg(long)]
        after: Option<String>,
        /// Deepest iteration, in turns (default: 8 without --time).
        #[arg(long)]
        depth: Option<u32>,
        /// Time to search, in seconds.
        #[arg(long)]
        time: Option<f64>,
        /// Which search: alpha-beta, or Monte Carlo tree search (its --depth N means N x 1000 playouts).
        #[arg(long, default_value = "alphabeta")]
        engine: games::Engine,
        /// Evaluation weights (from `varia tune`; default: FILE's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Play the engine against itself and report results, endings and game lengths.
    Selfplay {
        /// The `.var` file.
        file: PathBuf,
        /// Number of games (played in parallel).
        #[arg(long, default_value_t = 10)]
        games: usize,
        /// Search depth per move, in turns (default: 2 without --time).
        #[arg(long)]
        depth: Option<u32>,
        /// Search time per move, in seconds.
        #[arg(long)]
        time: Option<f64>,
        /// Stop a game after this many plies (it then counts as unfinished).
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// Open each game with this many random moves, so that games differ.
        #[arg(long, default_value_t = 2)]
        random_plies: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write every game to this directory as a replayable file.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Which search plays both sides.
        #[arg(long, default_value = "alphabeta")]
        engine: games::Engine,
        /// Evaluation weights (default: FILE's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Play only share K of N of the games (openings K-1, K-1+N, ...); merge the JSON
        /// reports with `varia report merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Games played at once (default: one per core).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print the report as one JSON object (with every game).
        #[arg(long)]
        json: bool,
    },
    /// Play two engine settings against each other from the same openings, colours swapped,
    /// and report the score with an Elo difference and its 95% interval.
    Match {
        /// The `.var` file.
        file: PathBuf,
        /// Number of games (pairs of games share an opening, colours swapped).
        #[arg(long, default_value_t = 20)]
        games: usize,
        /// The first setting: comma-separated key=value pairs: depth=N, time=SECONDS, nodes=N,
        /// engine=alphabeta|mcts, weights=FILE, hash=MB.
        #[arg(long)]
        first: String,
        /// The second setting (as --first).
        #[arg(long)]
        second: String,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Open each pair of games with this many random moves.
        #[arg(long, default_value_t = 4)]
        random_plies: usize,
        /// Stop a game after this many plies (it then counts as a draw).
        #[arg(long, default_value_t = 300)]
        max_plies: usize,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Write every game to this directory as a replayable file.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Play only share K of N of the games; merge the JSON reports with `varia report merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Games played at once (default: one per core; use 1 for timed settings on a busy machine).
        #[arg(long)]
        jobs: Option<usize>,
        /// Print the report as one JSON object (with every game).
        #[arg(long)]
        json: bool,
    },
    /// Fit the evaluation's weights to self-play games of one variant (Texel's method) and
    /// write them where play, analyse, match, uci and serve find them.
    Tune(tune::TuneArgs),
    /// Work with reports of `match --json` and `selfplay --json`.
    Report {
        #[command(subcommand)]
        command: ReportCommand,
    },
    /// Speak the UCI protocol on standard input/output, for chess GUIs (UCI_Variant picks a bundled variant).
    Uci {
        /// The variant to start with (default: the bundled chess.var).
        file: Option<PathBuf>,
        /// Evaluation weights (default: the variant's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Start the web playground on 127.0.0.1 and print its address (see docs/web.md).
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Variant files to offer first in the page's list (the bundled variants follow).
        files: Vec<PathBuf>,
        /// Evaluation weights files (each applies to the variant it names); the bundled
        /// variants' `.weights.toml` files are read too.
        #[arg(long)]
        weights: Vec<PathBuf>,
    },
    /// List the bundled variants (from variants/catalogue.toml).
    List,
    /// Write a Zillions `.zrf` game (or any rule file Varia reads) as a `.var` file.
    Convert {
        /// The rule file (`.zrf` or `.var`).
        file: PathBuf,
        /// Write here instead of standard output (the file is written only on success).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
enum ReportCommand {
    /// Combine the JSON reports of a study's shards into one report.
    Merge {
        /// The JSON files (`varia match ... --shard K/N --json > FILE`).
        files: Vec<PathBuf>,
        /// Print the merged report as JSON.
        #[arg(long)]
        json: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    load::choose_variant(cli.variant);
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            let _ = std::io::stdout().flush();
            eprintln!("{}", message.trim_end());
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Check { file } => {
            let rules = load::rules(&file)?;
            let v = &rules.variant;
            println!(
                "{}: ok: \"{}\", {} cells, {} players, {} piece types, {} zones",
                file.display(),
                v.title,
                v.board.cells.len(),
                v.players.len(),
                v.pieces.len(),
                v.zones.len()
            );
            Ok(())
        }
        Command::Perft { file, depth, position, divide: split, turns } => {
            let rules = load::rules(&file)?;
            let mut pos = load::position(&rules, position.as_deref())?;
            if split {
                let mut total = 0;
                let mut lines = Vec::new();
                let counts = if turns { divide_turns(&mut pos, depth) } else { divide(&mut pos, depth) };
                for (mv, n) in counts {
                    lines.push(format!("{} {n}", pos.long_notation(mv)));
                    total += n;
                }
                for l in lines {
                    println!("{l}");
                }
                println!("nodes {total}");
            } else if turns {
                println!("nodes {}", perft_turns(&mut pos, depth));
            } else {
                println!("nodes {}", perft(&mut pos, depth));
            }
            Ok(())
        }
        Command::Moves { file, position, after } => {
            let rules = load::rules(&file)?;
            let mut pos = load::position(&rules, position.as_deref())?;
            if let Some(after) = after {
                for (i, text) in after.split_whitespace().enumerate() {
                    let mv = pos.parse_move(text).map_err(|e| format!("error: --after move {}: {e}", i + 1))?;
                    pos.make(mv);
                }
            }
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            for mv in moves {
                println!("{}", pos.long_notation(mv));
            }
            Ok(())
        }
        Command::Replay { file, game, position } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let text =
                std::fs::read_to_string(&game).map_err(|e| format!("error: cannot read {}: {e}", game.display()))?;
            game_file::replay(pos, &game.display().to_string(), &text)
        }
        Command::Show { file, position } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            print!("{}", show::board(&pos));
            Ok(())
        }
        Command::Play { file, white, black, depth, time, position, weights } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let eval = weights::evaluator(&rules, Some(&file), weights.as_deref())?;
            play::run(pos, [white, black], limits(depth, time, 2.0, None)?, eval)
        }
        Command::Analyse { file, position, after, depth, time, engine, weights } => {
            let rules = load::rules(&file)?;
            let mut pos = load::position(&rules, position.as_deref())?;
            if let Some(after) = after {
                for (i, text) in after.split_whitespace().enumerate() {
                    let mv = pos.parse_move(text).map_err(|e| format!("error: --after move {}: {e}", i + 1))?;
                    pos.make(mv);
                }
            }
            let eval = weights::evaluator(&rules, Some(&file), weights.as_deref())?;
            analyse::analyse(pos, limits(depth, time, 0.0, Some(8))?, engine, eval)
        }
        Command::Selfplay {
            file,
            games,
            depth,
            time,
            max_plies,
            random_plies,
            seed,
            save,
            position,
            engine,
            weights,
            shard,
            jobs,
            json,
        } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let spec = games::Spec {
                engine,
                limits: limits(depth, time, 0.0, Some(2))?,
                weights,
                hash_mb: 8,
                text: spec_text(engine, depth, time),
            };
            let args = analyse::StudyArgs {
                file,
                games,
                first: spec.clone(),
                second: spec,
                max_plies,
                random_plies,
                seed,
                save,
                shard: shard.as_deref().map(games::Shard::parse).transpose()?,
                jobs: jobs.unwrap_or_else(games::default_jobs),
                json,
            };
            analyse::study(rules, pos, args, false)
        }
        Command::Match {
            file,
            games,
            first,
            second,
            seed,
            random_plies,
            max_plies,
            position,
            save,
            shard,
            jobs,
            json,
        } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let args = analyse::StudyArgs {
                file,
                games,
                first: games::Spec::parse(&first)?,
                second: games::Spec::parse(&second)?,
                max_plies,
                random_plies,
                seed,
                save,
                shard: shard.as_deref().map(games::Shard::parse).transpose()?,
                jobs: jobs.unwrap_or_else(games::default_jobs),
                json,
            };
            analyse::study(rules, pos, args, true)
        }
        Command::Tune(args) => tune::run(args),
        Command::Report { command: ReportCommand::Merge { files, json } } => report::merge(&files, json),
        Command::Uci { file, weights } => uci::run(file, weights),
        Command::Serve { port, files, weights: paths } => {
            let mut all = weights::bundled();
            for p in &paths {
                all.push(weights::read(p)?);
            }
            varia_web::run(port, &files, all)
        }
        Command::List => load::list(),
        Command::Convert { file, output } => {
            let text = load::convert(&file)?;
            match output {
                Some(out) => {
                    std::fs::write(&out, text).map_err(|e| format!("error: cannot write {}: {e}", out.display()))
                }
                None => {
                    print!("{text}");
                    Ok(())
                }
            }
        }
    }
}

/// A SPEC's text for self-play settings given as options.
fn spec_text(engine: games::Engine, depth: Option<u32>, time: Option<f64>) -> String {
    let mut parts = Vec::new();
    if engine == games::Engine::Mcts {
        parts.push("engine=mcts".to_string());
    }
    match (depth, time) {
        (_, Some(t)) => parts.push(format!("time={t}")),
        (Some(d), None) => parts.push(format!("depth={d}")),
        (None, None) => parts.push("depth=2".to_string()),
    }
    parts.join(",")
}

/// Search limits from the command line: a depth, a time in seconds, or the defaults.
fn limits(
    depth: Option<u32>,
    time: Option<f64>,
    default_time: f64,
    default_depth: Option<u32>,
) -> Result<varia_interpreter::Limits, String> {
    if let Some(t) = time {
        if !(t.is_finite() && t > 0.0 && t <= 86_400.0) {
            return Err(format!("error: --time must be a number of seconds above 0, found {t}"));
        }
    }
    if depth == Some(0) {
        return Err("error: --depth must be at least 1".to_string());
    }
    let time = time.or((depth.is_none() && default_depth.is_none()).then_some(default_time));
    Ok(varia_interpreter::Limits {
        depth: depth.or(if time.is_none() { default_depth } else { None }),
        time: time.map(std::time::Duration::from_secs_f64),
        nodes: None,
    })
}

/// Prints a position's outcome line, if the game is over.
pub(crate) fn outcome_line(pos: &mut Position) -> Option<String> {
    let (result, reason) = pos.outcome()?;
    Some(match result {
        varia_interpreter::GameResult::Win(p) => {
            format!("result: {} wins by {}", pos.rules().variant.players[p.0 as usize].name, reason.name())
        }
        varia_interpreter::GameResult::Draw => format!("result: draw by {}", reason.name()),
    })
}
