//! `varia`: the command-line front end: check, perft, moves, replay, show, play, analyse, self-play, match and tune any variant.

/// `print!` to standard output through [`write_out`]: a closed pipe ends the command (with `?`).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::write_out(format_args!($($arg)*))?
    };
}

/// `println!` to standard output through [`write_out`].
macro_rules! outln {
    () => {
        out!("\n")
    };
    ($($arg:tt)*) => {
        $crate::write_out(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

mod analyse;
mod explain;
mod game_file;
mod play;
mod show;
mod tune;
mod xboard;
mod xboard_board;
mod xboard_probe;

use varia::{files, games, input, load, report, study, uci, weights};

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use varia_interpreter::{divide, divide_threads, divide_turns, perft, perft_threads, perft_turns, Position};

/// Varia plays chess variants described in `.var` files.
#[derive(Parser)]
#[command(name = "varia", version, about, long_about = None)]
struct Cli {
    /// For a Zillions `.zrf` file: play this variant of it (its title, or its number counting
    /// from 1) instead of the main game. For a Fairy-Stockfish `variants.ini` file: the section
    /// to play (required).
    #[arg(long, global = true, value_name = "TITLE|N")]
    variant: Option<String>,
    /// For a variant whose setup shuffles pieces (`shuffle`): draw the start from this seed
    /// (the same seed gives the same start everywhere; default 0). A position string given
    /// with `--position` is read as it is.
    #[arg(long, global = true, value_name = "N")]
    seed: Option<u64>,
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
        /// Depth in plies (at most 64).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=MAX_PERFT_DEPTH))]
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
        /// Play these moves first (space-separated, any accepted notation).
        #[arg(long)]
        after: Option<String>,
        /// Count the root moves' subtrees on this many threads (1: in this thread; at most four
        /// per core).
        #[arg(long, default_value_t = 1, value_parser = games::thread_count)]
        threads: usize,
        /// Count with the plain reference: every action made in full, check decided by making
        /// every reply (slow; the definition the fast paths are tested against).
        #[arg(long, conflicts_with_all = ["turns", "threads", "without"])]
        reference: bool,
        /// Switch off these fast paths (names as in docs/architecture.md, comma-separated): to
        /// measure what one gains, or to narrow down a fault.
        #[arg(long, value_delimiter = ',', value_name = "PATHS")]
        without: Vec<String>,
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
        /// Write the moves as `varia uci` does (`e2e4`, `e7e8q`, `P@e4`), sorted, as Fairy-Stockfish lists them.
        #[arg(long)]
        uci: bool,
        /// List the moves the plain reference finds (every action made in full, check decided
        /// by making every reply), in its order.
        #[arg(long, conflicts_with = "uci")]
        reference: bool,
    },
    /// Check a game file move by move and print the final position and result.
    Replay {
        /// The `.var` file.
        file: PathBuf,
        /// A PGN file, or a text file of moves (move numbers, `+ # ! ?` and `{comments}` allowed).
        game: PathBuf,
        /// Start from this position string instead of the game's FEN tag or the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Which game of a file holding several, counting from 1.
        #[arg(long = "game", value_name = "N", default_value_t = 1)]
        game_number: usize,
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
        /// Who plays the third side and those after it, in games of more than two players.
        #[arg(long, default_value = "human")]
        others: play::Player,
        /// Search depth of the built-in opponent, in plies (actions; at most 100).
        #[arg(long, value_parser = search_depth())]
        depth: Option<u32>,
        /// Thinking time of the built-in opponent per move, in seconds (default: 2 without --depth;
        /// at most 86400).
        #[arg(long)]
        time: Option<f64>,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Write the game as PGN to this file when it ends or at `quit` (`save FILE` at the
        /// prompt writes it at any time).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Write moves in long notation (`Ng1-f3`) instead of short (`Nf3`).
        #[arg(long)]
        long: bool,
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
        /// Deepest iteration, in turns (default: 8 without --time; at most 100).
        #[arg(long, value_parser = search_depth())]
        depth: Option<u32>,
        /// Time to search, in seconds (at most 86400).
        #[arg(long)]
        time: Option<f64>,
        /// Evaluation weights (from `varia tune`; default: FILE's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
    },
    /// Play the engine against itself and report results, endings and game lengths.
    Selfplay {
        /// The `.var` file.
        file: PathBuf,
        /// Number of games (played in parallel; at most 100000).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        games: u64,
        /// Search depth per move, in turns (default: 2 without --time; at most 100).
        #[arg(long, value_parser = search_depth())]
        depth: Option<u32>,
        /// Search time per move, in seconds (at most 86400).
        #[arg(long)]
        time: Option<f64>,
        /// Stop a game after this many plies (it then counts as unfinished; at most 100000).
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        max_plies: u64,
        /// Open each game with this many random moves, so that games differ (at most 1000).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(0..=1000))]
        random_plies: u64,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write every game to this directory as a PGN file (`game-001.pgn`, ...).
        #[arg(long)]
        save: Option<PathBuf>,
        /// Keep each game's moves in this directory as it is played (`game-001.moves`, ...) and
        /// continue the games kept there: a study stopped partway resumes where it stopped.
        #[arg(long, value_name = "DIR")]
        resume: Option<PathBuf>,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Evaluation weights (default: FILE's `.weights.toml` beside it, if any).
        #[arg(long)]
        weights: Option<PathBuf>,
        /// Play only share K of N of the games (games K-1, K-1+N, ... counted from 0); merge
        /// the JSON reports with `varia report merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Games played at once (default: one per core; at most four per core).
        #[arg(long, value_parser = games::thread_count)]
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
        /// Number of games (pairs of games share an opening, colours swapped; at most 100000).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        games: u64,
        /// The first setting: comma-separated key=value pairs: depth=N, time=SECONDS, nodes=N,
        /// engine=alphabeta, weights=FILE, hash=MB.
        #[arg(long)]
        first: String,
        /// The second setting (as --first).
        #[arg(long)]
        second: String,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Open each pair of games with this many random moves (at most 1000).
        #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(0..=1000))]
        random_plies: u64,
        /// Stop a game after this many plies (it then counts as a draw; at most 100000).
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u64).range(1..=100_000))]
        max_plies: u64,
        /// Start from this position string instead of the variant's setup.
        #[arg(long)]
        position: Option<String>,
        /// Write every game to this directory as a replayable file.
        #[arg(long)]
        save: Option<PathBuf>,
        /// Keep each game's moves in this directory as it is played (`game-001.moves`, ...) and
        /// continue the games kept there: a study stopped partway resumes where it stopped.
        #[arg(long, value_name = "DIR")]
        resume: Option<PathBuf>,
        /// Play only share K of N of the games (games K-1, K-1+N, ... counted from 0; the two
        /// games of an opening are 2i and 2i+1); merge the JSON reports with `varia report merge`.
        #[arg(long, value_name = "K/N")]
        shard: Option<String>,
        /// Games played at once (default: one per core; at most four per core; use 1 for timed
        /// settings on a busy machine).
        #[arg(long, value_parser = games::thread_count)]
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
    /// Speak the XBoard/WinBoard protocol (CECP v2) on standard input/output; `variant` picks any bundled game XBoard can draw.
    Xboard {
        /// A variant to offer besides the bundled ones (first after chess).
        file: Option<PathBuf>,
    },
    /// Start the web playground on 127.0.0.1 and print its address (see docs/web.md).
    Serve {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Variant files to offer first in the page's list (the bundled variants follow); a
        /// `variants.ini` file offers its `--variant` section.
        files: Vec<PathBuf>,
        /// Evaluation weights files (each applies to the variant it names); the bundled
        /// variants' `.weights.toml` files are read too.
        #[arg(long)]
        weights: Vec<PathBuf>,
    },
    /// List the bundled variants (from variants/catalogue.toml).
    List,
    /// Write a Zillions `.zrf` game, a `variants.ini` section (or any rule file Varia reads) as a `.var` file.
    Convert {
        /// The rule file (`.zrf` or `.var`).
        file: PathBuf,
        /// Write here instead of standard output (the file is written only on success).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
}

/// The error of a write to a closed standard output (`varia moves ... | head -1`): the reader
/// has what it wanted, so the command ends quietly and successfully.
const CLOSED: &str = "standard output closed";

/// Writes to standard output; a closed pipe becomes [`CLOSED`] (`println!` would panic).
fn write_out(args: std::fmt::Arguments) -> Result<(), String> {
    std::io::stdout().lock().write_fmt(args).map_err(|e| match e.kind() {
        std::io::ErrorKind::BrokenPipe => CLOSED.to_string(),
        _ => format!("error: cannot write the output: {e}"),
    })
}

/// The deepest perft: deeper counts would take years, and each ply keeps a move buffer.
const MAX_PERFT_DEPTH: i64 = 64;

/// The values `--depth` of a search takes (the search goes no deeper than 100 plies).
fn search_depth() -> clap::builder::RangedI64ValueParser<u32> {
    clap::value_parser!(u32).range(1..=100)
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
    load::choose_seed(cli.seed);
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) if message == CLOSED => ExitCode::SUCCESS,
        Err(message) => {
            let _ = std::io::stdout().flush();
            eprintln!("{}", message.trim_end());
            ExitCode::FAILURE
        }
    }
}

/// A file `serve` offers: a `variants.ini` section through the import, as `.var` text the page
/// edits like any other; the server reads the other formats itself.
fn served(path: &std::path::Path) -> Result<varia_web::Listed, String> {
    if !varia::ini::is_ini(path) {
        return varia_web::Listed::read(path);
    }
    let var = load::ini_var_text(path)?;
    // The section's rules must load here, as every other command would refuse them.
    load::variant(path)?;
    let name = path.display().to_string();
    let section = load::chosen_variant().unwrap_or_default();
    Ok(varia_web::Listed::converted(format!("{name} [{section}]"), format!("section {section} of {name}"), var))
}

fn run(command: Command) -> Result<(), String> {
    match command {
        Command::Check { file } => check(&file),
        Command::Perft { file, depth, position, divide: split, turns, after, threads, reference, without } => {
            let rules = load::rules_with(&file, reference, &without)?;
            let mut pos = load::position(&rules, position.as_deref())?;
            play_after(&mut pos, after.as_deref())?;
            perft_counts(&mut pos, depth, PerftHow { split, turns, threads, reference })
        }
        Command::Moves { file, position, after, uci, reference } => {
            let rules = load::rules_with(&file, reference, &[])?;
            let mut pos = load::position(&rules, position.as_deref())?;
            play_after(&mut pos, after.as_deref())?;
            list_moves(&mut pos, uci, reference)
        }
        Command::Replay { file, game, position, game_number } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let text = files::read_text(&game, files::MAX_GAME_BYTES, "a game file")?;
            game_file::replay(pos, position.as_deref(), &game.display().to_string(), &text, game_number)
        }
        Command::Show { file, position } => show_board(&file, position.as_deref()),
        Command::Play { file, white, black, others, depth, time, position, save, long, weights } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let eval = weights::evaluator(&rules, Some(&file), weights.as_deref())?;
            let mut players = vec![white, black];
            players.resize(rules.player_count().max(2), others);
            let options = play::Options { players, limits: limits(depth, time, 2.0, None)?, save, long, eval };
            play::run(pos, options)
        }
        Command::Analyse { file, position, after, depth, time, weights } => {
            let rules = load::rules(&file)?;
            let mut pos = load::position(&rules, position.as_deref())?;
            play_after(&mut pos, after.as_deref())?;
            let eval = weights::evaluator(&rules, Some(&file), weights.as_deref())?;
            analyse::analyse(pos, limits(depth, time, 0.0, Some(8))?, eval)
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
            resume,
            position,
            weights,
            shard,
            jobs,
            json,
        } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let spec = alphabeta_spec(depth, time, weights)?;
            let args = study::StudyArgs {
                file,
                games: games as usize,
                first: spec.clone(),
                second: spec,
                max_plies: max_plies as usize,
                random_plies: random_plies as usize,
                seed,
                save,
                resume,
                shard: shard.as_deref().map(games::Shard::parse).transpose()?,
                jobs: jobs.unwrap_or_else(games::default_jobs),
            };
            analyse::study(rules, pos, args, json, false)
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
            resume,
            shard,
            jobs,
            json,
        } => {
            let rules = load::rules(&file)?;
            let pos = load::position(&rules, position.as_deref())?;
            let args = study::StudyArgs {
                file,
                games: games as usize,
                first: games::Spec::parse(&first)?,
                second: games::Spec::parse(&second)?,
                max_plies: max_plies as usize,
                random_plies: random_plies as usize,
                seed,
                save,
                resume,
                shard: shard.as_deref().map(games::Shard::parse).transpose()?,
                jobs: jobs.unwrap_or_else(games::default_jobs),
            };
            analyse::study(rules, pos, args, json, true)
        }
        Command::Tune(args) => tune::run(args),
        Command::Report { command: ReportCommand::Merge { files, json } } => {
            let text = report::merge(&files, json)?;
            out!("{text}");
            Ok(())
        }
        Command::Uci { file, weights } => uci::run(file, weights),
        Command::Xboard { file } => xboard::run(file),
        Command::Serve { port, files, weights: paths } => serve(port, &files, &paths),
        Command::List => list(),
        Command::Convert { file, output } => convert(&file, output.as_deref()),
    }
}

/// `varia check`: the file loads; a summary, and a warning when no rule can end the game.
fn check(file: &std::path::Path) -> Result<(), String> {
    let rules = load::rules(file)?;
    let v = &rules.variant;
    outln!(
        "{}: ok: \"{}\", {} cells, {} players, {} piece types, {} zones",
        file.display(),
        v.title,
        v.board.cells.len(),
        v.players.len(),
        v.pieces.len(),
        v.zones.len()
    );
    if let Some(warning) = no_way_to_end(v) {
        eprintln!("warning: {}: {warning}", file.display());
    }
    if rules.program_reach_cut() {
        eprintln!(
            "warning: {}: the analysis of where the move programs may capture ran out of its budget (a million states for the variant): the programs it could not follow are run from every cell holding their piece in every check test, which is slower",
            file.display()
        );
    }
    // A move program that runs past its steps stops there, keeping the moves it produced:
    // said when it happens in the start position.
    let mut pos = Position::start(rules.clone());
    pos.legal_moves(&mut Vec::new());
    if let Some((piece, cell)) = pos.take_cut_run() {
        eprintln!(
            "warning: {}: a move program of piece '{piece}' from {cell} ran past {} steps (and {} more per move it produced; docs/language.md, limits): it stopped there, keeping the moves it had",
            file.display(),
            varia_interpreter::limits::PROGRAM_STEPS,
            varia_interpreter::limits::PROGRAM_STEPS_PER_MOVE
        );
    }
    Ok(())
}

/// How `varia perft` counts: per first move, by whole turns, on threads, or by the reference
/// move generator.
struct PerftHow {
    split: bool,
    turns: bool,
    threads: usize,
    reference: bool,
}

/// `varia perft`: the node count (per first move with `split`), as `how` says.
fn perft_counts(pos: &mut Position, depth: u32, how: PerftHow) -> Result<(), String> {
    let PerftHow { split, turns, threads, reference } = how;
    if reference {
        if split {
            let counts = pos.reference_divide(depth);
            for (mv, n) in &counts {
                outln!("{} {n}", pos.long_notation(*mv));
            }
            outln!("nodes {}", counts.iter().map(|(_, n)| n).sum::<u64>());
        } else {
            outln!("nodes {}", pos.reference_perft(depth));
        }
        return Ok(());
    }
    if split {
        let mut total = 0;
        let mut lines = Vec::new();
        let counts = if threads > 1 {
            divide_threads(pos, depth, turns, threads).map_err(|e| e.to_string())?
        } else if turns {
            divide_turns(pos, depth).map_err(|e| e.to_string())?
        } else {
            divide(pos, depth)
        };
        for (mv, n) in counts {
            lines.push(format!("{} {n}", pos.long_notation(mv)));
            total += n;
        }
        for l in lines {
            outln!("{l}");
        }
        outln!("nodes {total}");
    } else if threads > 1 {
        outln!("nodes {}", perft_threads(pos, depth, turns, threads).map_err(|e| e.to_string())?);
    } else if turns {
        outln!("nodes {}", perft_turns(pos, depth).map_err(|e| e.to_string())?);
    } else {
        outln!("nodes {}", perft(pos, depth));
    }
    Ok(())
}

/// `varia moves`: the legal moves in long notation, or sorted as `varia uci` writes them.
fn list_moves(pos: &mut Position, uci: bool, reference: bool) -> Result<(), String> {
    if uci {
        let mut table: Vec<String> = uci::move_table(pos).into_iter().map(|(_, t)| t).collect();
        table.sort();
        for t in table {
            outln!("{t}");
        }
        return Ok(());
    }
    let mut moves = Vec::new();
    if reference {
        pos.reference_moves(&mut moves);
    } else {
        pos.legal_moves(&mut moves);
    }
    for mv in moves {
        outln!("{}", pos.long_notation(mv));
    }
    Ok(())
}

/// The engine of `varia selfplay`: alpha-beta with these limits and weights.
fn alphabeta_spec(depth: Option<u32>, time: Option<f64>, weights: Option<PathBuf>) -> Result<games::Spec, String> {
    Ok(games::Spec {
        engine: games::Engine::Alphabeta,
        limits: limits(depth, time, 0.0, Some(2))?,
        weights,
        hash_mb: 8,
        text: spec_text(depth, time),
    })
}

/// `varia show`: the board of the position (the setup, or `position`).
fn show_board(file: &std::path::Path, position: Option<&str>) -> Result<(), String> {
    let rules = load::rules(file)?;
    let pos = load::position(&rules, position)?;
    out!("{}", show::board(&pos));
    Ok(())
}

/// `varia serve`: the web server, with the bundled weights and those of `paths`.
fn serve(port: u16, files: &[PathBuf], paths: &[PathBuf]) -> Result<(), String> {
    let mut all = weights::bundled();
    for p in paths {
        all.push(weights::read(p)?);
    }
    let offered = files.iter().map(|f| served(f)).collect::<Result<Vec<_>, _>>()?;
    varia_web::run(port, offered, all)
}

/// `varia convert`: the variant as `.var` text, to `output` or stdout.
fn convert(file: &std::path::Path, output: Option<&std::path::Path>) -> Result<(), String> {
    let text = load::convert(file)?;
    match output {
        Some(out) => files::write_atomic(out, text.as_bytes()),
        None => {
            out!("{text}");
            Ok(())
        }
    }
}

/// Plays the moves of `--after` (space-separated, any accepted notation), naming the first
/// that is not legal.
fn play_after(pos: &mut Position, after: Option<&str>) -> Result<(), String> {
    for (i, text) in after.unwrap_or_default().split_whitespace().enumerate() {
        // The forms `varia uci` reads: any notation, and castling as the king's move (`e1g1`).
        let mv = uci::read_move(pos, text).map_err(|e| format!("error: --after move {}: {e}", i + 1))?;
        pos.make(mv);
    }
    Ok(())
}

/// A SPEC's text for self-play settings given as options.
fn spec_text(depth: Option<u32>, time: Option<f64>) -> String {
    match (depth, time) {
        (_, Some(t)) => format!("time={t}"),
        (Some(d), None) => format!("depth={d}"),
        (None, None) => "depth=2".to_string(),
    }
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
        ..Default::default()
    })
}

/// Why a variant may never end, if it may not: no royal piece (so no checkmate and no capture
/// of the king ends it), no goal and no bare-king rule.
fn no_way_to_end(v: &varia_interpreter::ir::Variant) -> Option<String> {
    if v.pieces.iter().any(|p| p.royal) || !v.end.goals.is_empty() || v.end.bare_king.is_some() {
        return None;
    }
    let mut draws = Vec::new();
    if v.end.move_rule.is_some() {
        draws.push("the move rule");
    }
    if v.end.repetition.is_some() {
        draws.push("repetition");
    }
    let draws = if draws.is_empty() { String::new() } else { format!(", or draws by {}", draws.join(" or ")) };
    Some(format!(
        "no way to win: no piece type is `royal` and the `end` block has no goal or bare-king rule, so no \
         checkmate or capture ends the game; it ends only when a side has no legal move{draws}"
    ))
}

/// Prints the bundled variants: the name commands take, the title and a line about each.
fn list() -> Result<(), String> {
    let all = varia_variants::all();
    // Columns as wide as their longest entry.
    let name_w = all.iter().map(|b| b.name().len()).max().unwrap_or(0);
    let title_w = all.iter().map(|b| b.title.len()).max().unwrap_or(0);
    for b in all {
        outln!("{:<name_w$}  {:<title_w$}  {}", b.name(), b.title, b.about);
    }
    Ok(())
}

/// Prints a position's outcome line, if the game is over.
pub(crate) fn outcome_line(pos: &mut Position) -> Option<String> {
    let (result, reason) = pos.outcome()?;
    Some(match result {
        varia_interpreter::GameResult::Win(p) => {
            format!("result: {} by {}", pos.rules().winners_phrase(p), reason.name())
        }
        varia_interpreter::GameResult::Draw => format!("result: draw by {}", reason.name()),
    })
}
