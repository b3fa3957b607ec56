//! `varia uci`: the Universal Chess Interface, so that chess GUIs can play the bundled variants (those on ordinary boards) against Varia's search.

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use varia_interpreter::ir::CellId;
use varia_interpreter::{Limits, Move, MoveKind, Position, Rules, SearchInfo, Searcher};

use crate::input::Input;

/// The coordinate form of a move: start and destination cells and a lower-case promotion
/// letter (`e2e4`, `e7e8q`); castling as the king's move (`e1g1`), or as the king taking its
/// partner (`e1h1`) where the variant says `castling-notation king-takes-partner`; drops as `P@e3` (promoted side up `+P@e3`). A gated
/// piece's lower-case letter follows (`b1c3h`); a castling that gates on the partner's cell is
/// written from there to the king's (`h1e1h`), as Fairy-Stockfish writes them; a pass as the
/// royal piece's move to its own cell (`e2e2`). A move that walls up a cell ends with a comma,
/// its destination and the wall's cell (`e2e4,e4d5`), as Fairy-Stockfish writes them.
fn coordinates(pos: &Position, mv: Move, name: &dyn Fn(CellId) -> String) -> Option<String> {
    let text = plain_coordinates(pos, mv, name)?;
    let Some(wall) = mv.wall() else { return Some(text) };
    let to = if mv.kind == MoveKind::Castle { pos.rules().castling(mv.extra).king_to } else { mv.to };
    Some(format!("{text},{}{}", name(to), name(wall)))
}

/// [`coordinates`] without the wall.
fn plain_coordinates(pos: &Position, mv: Move, name: &dyn Fn(CellId) -> String) -> Option<String> {
    let r = pos.rules();
    let promo = mv.promotion().map(|t| r.uci_promotion(r.type_of(mv.piece), t)).unwrap_or_default();
    let gate = pos.gate_of(mv);
    let gate_letter = gate.map(|(_, t)| r.variant.pieces[t.0 as usize].letter.to_ascii_lowercase().to_string());
    let gate_letter = gate_letter.unwrap_or_default();
    match mv.kind {
        MoveKind::Castle => {
            let c = &r.castling(mv.extra);
            if gate.is_some_and(|(cell, _)| cell == c.partner_from && cell != c.king_from) {
                return Some(format!("{}{}{gate_letter}", name(c.partner_from), name(c.king_from)));
            }
            // `castling-notation king-takes-partner`: as UCI_Chess960 writes it (`e1h1`).
            if r.variant.king_takes_partner {
                return Some(format!("{}{}{gate_letter}", name(c.king_from), name(c.partner_from)));
            }
            Some(format!("{}{}{gate_letter}", name(c.king_from), name(c.king_to)))
        }
        MoveKind::Drop => {
            let letter = r.variant.pieces[r.type_of(mv.piece).0 as usize].letter.to_ascii_uppercase();
            // Promoted side up, Fairy-Stockfish marks the letter (`+P@b2`).
            Some(match promo.as_str() {
                "+" => format!("+{letter}@{}", name(mv.to)),
                _ => format!("{letter}@{}{promo}", name(mv.to)),
            })
        }
        k if k.is_piece_move() => Some(format!("{}{}{promo}{gate_letter}", name(mv.from), name(mv.to))),
        // A pass, as Fairy-Stockfish writes it: the mover's single royal piece moving to its
        // own cell (`e2e2`).
        _ => pos.pass_cell(mv).map(|c| format!("{}{}", name(c), name(c))),
    }
}

/// The legal moves of a position, each with the text a protocol writes for it: the coordinate
/// form (a castling that reads as a king's step as the king taking its partner, `d1a1`), or
/// Varia's long notation where coordinates cannot tell it from another legal move (a capture
/// that chooses its victim on a crowded square) or cannot say it (actions on squares).
/// So every move written is read back as that move.
pub fn move_table(pos: &mut Position) -> Vec<(Move, String)> {
    let rules = pos.rules().clone();
    move_table_named(pos, &|c| rules.cell_name(c).to_string())
}

/// [`move_table`] with cells named by `name` (a GUI's coordinates rather than Varia's names).
pub fn move_table_named(pos: &mut Position, name: &dyn Fn(CellId) -> String) -> Vec<(Move, String)> {
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    let mut coords: Vec<Option<String>> = legal.iter().map(|m| coordinates(pos, *m, name)).collect();
    // A castling whose king's move reads as an ordinary king move (the king going one cell) is
    // written as the king taking its partner, as Fairy-Stockfish does.
    let uses = text_counts(&coords);
    let shared: Vec<usize> = (0..legal.len())
        .filter(|&i| legal[i].kind == MoveKind::Castle && coords[i].as_ref().is_some_and(|c| uses[c.as_str()] > 1))
        .collect();
    for i in shared {
        let c = &pos.rules().castling(legal[i].extra);
        if pos.gate_of(legal[i]).is_none() {
            coords[i] = Some(format!("{}{}", name(c.king_from), name(c.partner_from)));
        }
    }
    let uses = text_counts(&coords);
    legal
        .iter()
        .zip(&coords)
        .map(|(&mv, c)| {
            let unique = c.as_ref().filter(|c| uses[c.as_str()] == 1);
            (mv, unique.cloned().unwrap_or_else(|| pos.long_notation(mv)))
        })
        .collect()
}

/// How many moves each coordinate text stands for: counted once, so that a table of 20,000
/// drops costs about as much as listing them (counting per move was quadratic).
fn text_counts(coords: &[Option<String>]) -> std::collections::HashMap<&str, usize> {
    let mut uses = std::collections::HashMap::new();
    for c in coords.iter().flatten() {
        *uses.entry(c.as_str()).or_insert(0) += 1;
    }
    uses
}

/// A move as this protocol writes it (see [`move_table`]).
pub fn uci_move(pos: &Position, mv: Move) -> String {
    let mut p = pos.clone();
    move_table(&mut p).into_iter().find(|(m, _)| *m == mv).map(|(_, t)| t).unwrap_or_else(|| pos.long_notation(mv))
}

/// Reads a move a GUI sends: the form [`move_table`] writes, castling also as the king taking
/// its own rook (`e1h1`, as Chess960 GUIs send it), else any notation Varia reads.
pub fn read_move(pos: &mut Position, text: &str) -> Result<Move, String> {
    let rules = pos.rules().clone();
    read_move_named(pos, text, &|c| rules.cell_name(c).to_string())
}

/// [`read_move`] with cells named by `name`.
pub fn read_move_named(pos: &mut Position, text: &str, name: &dyn Fn(CellId) -> String) -> Result<Move, String> {
    let table = move_table_named(pos, name);
    // A text the table gives one move (every move's text is its own; were two alike, the
    // notation's own reading reports the ambiguity).
    let mut written = table.iter().filter(|(_, t)| t == text);
    if let (Some((mv, _)), None) = (written.next(), written.next()) {
        return Ok(*mv);
    }
    let r = pos.rules().clone();
    let castle = table.iter().find(|(m, _)| {
        m.kind == MoveKind::Castle && {
            let c = &r.castling(m.extra);
            format!("{}{}", name(c.king_from), name(c.partner_from)) == text
        }
    });
    if let Some((mv, _)) = castle {
        return Ok(*mv);
    }
    pos.parse_move(text).map_err(|e| e.to_string())
}

/// A score as UCI writes it: centipawns, or mate in moves (negative: being mated).
fn score(i: &SearchInfo) -> String {
    match i.mate_in() {
        Some(n) if n > 0 => format!("mate {}", (n + 1) / 2),
        Some(n) => format!("mate -{}", (-n + 1) / 2),
        None => format!("cp {}", i.score),
    }
}

pub fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

fn info_line(pos: &Position, i: &SearchInfo, line: usize, hashfull: u32) -> String {
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &mv in &i.pv {
        pv.push(uci_move(&p, mv));
        p.make(mv);
    }
    format!(
        "info depth {} multipv {line} score {} nodes {} nps {} hashfull {hashfull} time {} pv {}",
        i.depth,
        score(i),
        i.nodes,
        nps(i.nodes, i.elapsed),
        i.elapsed.as_millis(),
        pv.join(" ")
    )
}

/// Writes one line to standard output at once (the search thread writes too). When the GUI
/// has closed its end (a broken pipe), no one reads on: the process ends quietly, with success.
pub fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|()| out.flush()) {
        if e.kind() != std::io::ErrorKind::BrokenPipe {
            eprintln!("error: cannot write the output: {e}");
            std::process::exit(1);
        }
        std::process::exit(0);
    }
}

/// The most milliseconds a `go` command's times may give (about 11.5 days).
const MAX_GO_MS: i64 = 1_000_000_000;

/// A number of a `go` command: `None` when `key` is absent; a value outside `lo..=hi`, or a
/// key without a whole number after it, is an error naming the bound.
fn go_number(args: &[&str], key: &str, lo: i64, hi: i64) -> Result<Option<i64>, String> {
    let Some(i) = args.iter().position(|a| *a == key) else { return Ok(None) };
    let value = args.get(i + 1).copied().unwrap_or("");
    match value.parse::<i64>() {
        Ok(n) if (lo..=hi).contains(&n) => Ok(Some(n)),
        _ => Err(format!("`go {key}` takes a whole number from {lo} to {hi}, found `{value}`")),
    }
}

/// The search limits of a `go` command received at `received`, the time a pondered move
/// searches on after `ponderhit`, and whether it ponders. Times are in milliseconds, at most [`MAX_GO_MS`]; a negative time (a
/// GUI's clock that has run out) counts as 0. A clock gives a target and a limit
/// ([`crate::clock::move_time`]); `movetime` is used whole.
fn go_limits(pos: &Position, args: &[&str], received: Instant) -> Result<(Limits, Option<Duration>, bool), String> {
    let ms = |key: &str| -> Result<Option<u64>, String> {
        Ok(go_number(args, key, -MAX_GO_MS, MAX_GO_MS)?.map(|t| t.max(0) as u64))
    };
    let white = pos.side_to_move().0 == 0;
    let (wtime, btime, winc, binc) = (ms("wtime")?, ms("btime")?, ms("winc")?, ms("binc")?);
    let (mine, inc) = if white { (wtime, winc) } else { (btime, binc) };
    let movestogo = go_number(args, "movestogo", 1, 1000)?.map(|n| n as u64);
    let nodes = go_number(args, "nodes", 1, i64::MAX)?.map(|n| n as u64);
    let depth = go_number(args, "depth", 1, 100)?;
    let mate = go_number(args, "mate", 1, 50)?;
    let (time, target) = if let Some(t) = ms("movetime")? {
        (Some(Duration::from_millis(t.max(1))), None)
    } else {
        match mine.map(|t| crate::clock::move_time(t, inc.unwrap_or(0), movestogo)) {
            Some(m) => (Some(m.limit), Some(m.target)),
            None => (None, None),
        }
    };
    let ponder = args.contains(&"ponder");
    let open_ended = args.contains(&"infinite") || ponder;
    let depth = depth.or(mate.map(|m| 2 * m)).map(|d| d as u32);
    let limits = Limits {
        // Unbounded searches still need a depth, or the search stops at its default of 4.
        depth: depth.or(Some(if open_ended || time.is_some() || nodes.is_some() { 100 } else { 6 })),
        time: if open_ended { None } else { time },
        nodes,
        target: if open_ended { None } else { target },
        // A pondering search's time starts at `ponderhit`.
        started: (!open_ended).then_some(received),
    };
    // A ponder that hits searches for the target (the time a move should take).
    Ok((limits, target.or(time), ponder))
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<Searcher>,
    stop: Arc<AtomicBool>,
    /// While set (`go ponder` or `go infinite`), `bestmove` waits for `stop` or `ponderhit`.
    hold: Arc<AtomicBool>,
    /// For `go ponder`: the time to search once `ponderhit` comes.
    ponder_time: Option<Duration>,
}

struct Session {
    rules: Arc<Rules>,
    /// The variant file (for the weights beside it) and a weights file given on the command
    /// line; both forgotten when `UCI_Variant` picks another game.
    file: Option<std::path::PathBuf>,
    weights: Option<std::path::PathBuf>,
    /// `None` after a refused `position` command, until the next good one.
    pos: Option<Position>,
    refused: String,
    hash_mb: usize,
    multipv: usize,
    debug: bool,
    searcher: Option<Searcher>,
    running: Option<Running>,
}

impl Session {
    fn new(rules: Arc<Rules>, file: Option<std::path::PathBuf>, weights: Option<std::path::PathBuf>) -> Session {
        Session {
            pos: Some(Position::start(rules.clone())),
            rules,
            file,
            weights,
            refused: String::new(),
            hash_mb: 32,
            multipv: 1,
            debug: false,
            searcher: None,
            running: None,
        }
    }

    fn debug(&self, text: &str) {
        if self.debug {
            say(&format!("info string {text}"));
        }
    }

    /// Stops the running search, if any, and waits for its `bestmove`.
    fn finish_search(&mut self) {
        if let Some(run) = self.running.take() {
            run.stop.store(true, Ordering::Relaxed);
            run.hold.store(false, Ordering::Relaxed);
            if let Ok(s) = run.handle.join() {
                self.searcher = Some(s);
            }
        }
    }

    /// `ponderhit`: the move pondered on was played; search on for the normal time.
    fn ponderhit(&mut self) {
        let Some(run) = &mut self.running else { return };
        if let Some(t) = run.ponder_time.take() {
            let stop = run.stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(t);
                stop.store(true, Ordering::Relaxed);
            });
        }
        run.hold.store(false, Ordering::Relaxed);
    }

    fn set_option(&mut self, args: &[&str]) -> Result<(), String> {
        let name_at = args.iter().position(|a| *a == "name").ok_or("expected `setoption name NAME [value VALUE]`")?;
        let value_at = args.iter().position(|a| *a == "value");
        if value_at.is_some_and(|v| v < name_at) {
            return Err("expected `setoption name NAME [value VALUE]`: `value` comes after the name".to_string());
        }
        let name = args[name_at + 1..value_at.unwrap_or(args.len())].join(" ");
        let value = value_at.map(|v| args[v + 1..].join(" ")).unwrap_or_default();
        let number = |lo: usize, hi: usize| -> Result<usize, String> {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or(format!("option {name} takes a whole number from {lo} to {hi}, not `{value}`"))
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let rules = crate::load::bundled_rules(&value)
                    .ok_or_else(|| format!("unknown variant `{value}`; known: {}", variant_names().join(" ")))??;
                self.pos = Some(Position::start(rules.clone()));
                self.rules = rules;
                // A bundled variant named without its file: its weights come compiled in, as
                // for `varia uci NAME`.
                self.file = Some(std::path::PathBuf::from(&value));
                self.weights = None;
                self.searcher = None;
            }
            "hash" => {
                self.hash_mb = number(1, 4096)?;
                self.searcher = None;
            }
            "multipv" => self.multipv = number(1, 64)?,
            "ponder" | "uci_analysemode" => {}
            "clear hash" => self.searcher = None,
            _ => return Err(format!("unknown option `{name}`")),
        }
        Ok(())
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        // Whatever happens, the position before this command is gone.
        self.pos = None;
        let moves_at = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") => Position::start(self.rules.clone()),
            Some(&"fen") => {
                let fen = args[1..moves_at].join(" ");
                Position::from_position_string(self.rules.clone(), &fen)
                    .map_err(|e| format!("bad position string `{fen}`: {e}"))?
            }
            _ => return Err("expected `position startpos` or `position fen ...`".to_string()),
        };
        for (i, m) in args.iter().skip(moves_at + 1).enumerate() {
            if pos.outcome().is_some() {
                return Err(format!("move {} `{m}` comes after the game ended", i + 1));
            }
            let mv = read_move(&mut pos, m).map_err(|e| format!("move {} `{m}` is not legal: {e}", i + 1))?;
            pos.make(mv);
        }
        self.pos = Some(pos);
        Ok(())
    }

    fn go(&mut self, args: &[&str], received: Instant) {
        let Some(pos) = self.pos.clone() else {
            say(&format!("info string no position to search: {}", self.refused));
            say("bestmove 0000");
            return;
        };
        let (limits, time, ponder) = match go_limits(&pos, args, received) {
            Ok(l) => l,
            Err(e) => {
                say(&format!("info string error: {e}"));
                say("bestmove 0000");
                return;
            }
        };
        let open_ended = ponder || args.contains(&"infinite");
        self.debug(&format!("searching with {limits:?}{}", if ponder { ", pondering" } else { "" }));
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => {
                let eval = crate::weights::evaluator(&self.rules, self.file.as_deref(), self.weights.as_deref())
                    .unwrap_or_else(|_| varia_interpreter::Evaluator::new(&self.rules));
                Searcher::with_evaluator(&self.rules, self.hash_mb, eval)
            }
        };
        // A fresh stop flag per search: a late `stop` cannot reach the next one.
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop_flag(stop.clone());
        let hold = Arc::new(AtomicBool::new(open_ended));
        let progress = searcher.progress();
        let lines = self.multipv;
        let (stop2, hold2) = (stop.clone(), hold.clone());
        let handle = std::thread::spawn(move || {
            let mut pos = pos;
            let root = pos.clone();
            // Periodic `info` lines while an iteration runs long; the reporter wakes at once
            // when the search ends (its channel closes), not up to a sleep later.
            let (done, until_done) = mpsc::channel::<()>();
            let reporter = {
                let progress = progress.clone();
                let start = Instant::now();
                std::thread::spawn(move || {
                    let mut next = Duration::from_secs(1);
                    loop {
                        let wait = next.saturating_sub(start.elapsed());
                        if until_done.recv_timeout(wait) != Err(mpsc::RecvTimeoutError::Timeout) {
                            return;
                        }
                        let elapsed = start.elapsed();
                        next = elapsed + Duration::from_secs(1);
                        let nodes = progress.nodes.load(Ordering::Relaxed);
                        say(&format!(
                            "info depth {} nodes {nodes} nps {} hashfull {} time {}",
                            progress.depth.load(Ordering::Relaxed),
                            nps(nodes, elapsed),
                            progress.hashfull.load(Ordering::Relaxed),
                            elapsed.as_millis()
                        ));
                    }
                })
            };
            let mut hashfull = 0;
            let info = searcher.search_lines(&mut pos, limits, lines, |found| {
                hashfull = progress.hashfull.load(Ordering::Relaxed);
                for (k, i) in found.iter().enumerate() {
                    say(&info_line(&root, i, k + 1, hashfull));
                }
            });
            drop(done);
            let _ = reporter.join();
            // In `go infinite` and `go ponder`, `bestmove` waits for `stop` (or `ponderhit`).
            while hold2.load(Ordering::Relaxed) && !stop2.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(5));
            }
            let best = &info[0];
            match best.best() {
                Some(mv) => {
                    let mut text = format!("bestmove {}", uci_move(&root, mv));
                    if let Some(&reply) = best.pv.get(1) {
                        let mut after = root.clone();
                        after.make(mv);
                        text.push_str(&format!(" ponder {}", uci_move(&after, reply)));
                    }
                    say(&text);
                }
                None => say("bestmove 0000"),
            }
            searcher
        });
        // Without a clock, a ponder that hits searches one more second.
        let ponder_time = ponder.then(|| time.unwrap_or(Duration::from_secs(1)));
        self.running = Some(Running { handle, stop, hold, ponder_time });
    }
}

/// The values of the `UCI_Variant` option: each bundled variant's name, then the other names
/// GUIs and Fairy-Stockfish send for it (`3check`), as the catalogue lists them.
fn variant_names() -> Vec<&'static str> {
    varia_variants::all().iter().flat_map(|b| std::iter::once(b.name()).chain(b.aliases.iter().copied())).collect()
}

/// Runs the protocol on standard input and output until `quit` or the end of input.
pub fn run(variant: Option<std::path::PathBuf>, weights: Option<std::path::PathBuf>) -> Result<(), String> {
    let rules = match &variant {
        Some(path) => crate::load::rules(path)?,
        None => crate::load::bundled_rules("chess").ok_or("error: chess is not bundled")??,
    };
    if rules.player_count() != 2 {
        return Err(format!(
            "error: UCI plays games of two players; this game has {} (play it with `varia play` or `varia serve`)",
            rules.player_count()
        ));
    }
    // A bad weights file is reported at once rather than at the first `go`.
    crate::weights::evaluator(&rules, variant.as_deref(), weights.as_deref())?;
    let mut s = Session::new(rules, variant, weights);
    let (tx, rx) = mpsc::channel::<Input>();
    crate::input::spawn(move |input| tx.send(input).is_ok());
    let names = variant_names();
    while let Ok(input) = rx.recv() {
        let line = match input {
            Input::Line(line) => (line, Instant::now()),
            Input::Bad(why) => {
                say(&format!("info string error: {why}"));
                continue;
            }
            Input::End => break,
        };
        let (line, received) = line;
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else { continue };
        match cmd {
            "uci" => {
                say("id name Varia");
                say("id author the Varia developers");
                let vars: Vec<String> = names.iter().map(|n| format!("var {n}")).collect();
                say(&format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
                say("option name Hash type spin default 32 min 1 max 4096");
                say("option name Clear Hash type button");
                say("option name MultiPV type spin default 1 min 1 max 64");
                say("option name Ponder type check default false");
                say("uciok");
            }
            "isready" => say("readyok"),
            "debug" => s.debug = args.first() != Some(&"off"),
            "setoption" => {
                s.finish_search();
                if let Err(e) = s.set_option(args) {
                    say(&format!("info string error: {e}"));
                }
            }
            "ucinewgame" => {
                s.finish_search();
                s.searcher = None;
                s.pos = Some(Position::start(s.rules.clone()));
            }
            "position" => {
                s.finish_search();
                if let Err(e) = s.position(args) {
                    s.refused = format!("the last position command was refused: {e}");
                    say(&format!("info string error: {e}; no position is set until the next good one"));
                }
            }
            "go" => {
                s.finish_search();
                s.go(args, received);
            }
            "ponderhit" => s.ponderhit(),
            "stop" => s.finish_search(),
            "quit" => break,
            _ => say(&format!("info string unknown command `{cmd}`")),
        }
    }
    s.finish_search();
    Ok(())
}
