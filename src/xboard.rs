//! `varia xboard`: the Chess Engine Communication Protocol (CECP v2) of XBoard and WinBoard, each variant's board and pieces described to the GUI with `setup` and `piece` commands.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use varia_interpreter::{GameResult, Limits, Move, Position, Rules, SearchInfo, Searcher};

use crate::input::Input;
use crate::uci::say;
use crate::xboard_board::Board;

/// A variant the engine offers: its names, how XBoard learns its rules, its rules and board.
struct Offered {
    /// Its name in the `variants` feature, then the other names `variant` accepts.
    names: Vec<String>,
    /// Whether XBoard has the game's rules built in: then no `setup` is sent.
    native: bool,
    /// The XBoard variant whose rules a `setup` builds on.
    parent: String,
    rules: Arc<Rules>,
    board: Board,
}

/// What the command loop waits for: input from the GUI, or a finished search.
enum Event {
    Input(Input),
    Searched { generation: u64, info: SearchInfo },
}

/// The clock settings: `level`, `st`, `sd`, `time`.
#[derive(Default)]
struct Clock {
    /// Moves per session (0: the whole game), base time and increment, in seconds.
    level: Option<(u32, f64, f64)>,
    /// Seconds per move.
    per_move: Option<f64>,
    depth: Option<u32>,
    /// The engine's clock, in centiseconds.
    remaining_cs: Option<u64>,
}

impl Clock {
    /// The limits of a move asked for at `started`, after `moves_made` moves of the engine.
    fn limits(&self, moves_made: usize, started: Instant) -> Limits {
        let depth = Some(self.depth.unwrap_or(100));
        if let Some(t) = self.per_move {
            let time = Some(Duration::from_secs_f64(t.clamp(0.001, 86_400.0)));
            return Limits { depth, time, started: Some(started), ..Limits::default() };
        }
        let Some(cs) = self.remaining_cs else {
            return Limits { depth, time: Some(Duration::from_secs(2)), started: Some(started), ..Limits::default() };
        };
        let (mps, _, inc) = self.level.unwrap_or((0, 0.0, 0.0));
        let to_go = (mps > 0).then(|| (mps - (moves_made as u32 % mps)) as u64);
        let t = varia::clock::move_time(cs * 10, (inc * 1000.0) as u64, to_go);
        Limits { depth, time: Some(t.limit), target: Some(t.target), started: Some(started), nodes: None }
    }
}

struct Session {
    offered: Vec<Offered>,
    /// Index into `offered`.
    variant: usize,
    pos: Position,
    /// The side the engine plays; `None` in force mode.
    engine: Option<usize>,
    analyzing: bool,
    post: bool,
    clock: Clock,
    hash_mb: usize,
    searcher: Option<Searcher>,
    running: Option<(u64, Arc<AtomicBool>, JoinHandle<Searcher>)>,
    generation: u64,
    /// The opponent is an engine (XBoard's `computer`).
    computer: bool,
    /// `ping`s answered once the engine's move is out.
    pongs: Vec<String>,
    tx: mpsc::Sender<Event>,
}

impl Session {
    fn board(&self) -> &Board {
        &self.offered[self.variant].board
    }

    fn name_of(&self) -> impl Fn(varia_interpreter::ir::CellId) -> String + '_ {
        |c| self.board().name(c)
    }

    fn write_move(&self, pos: &Position, mv: Move) -> String {
        let name = self.name_of();
        xboard_move(pos, mv, &name)
    }

    /// Stops the running search; its move, if `keep`, is still played when it arrives.
    fn stop(&mut self, keep: bool) {
        if let Some((generation, flag, handle)) = self.running.take() {
            flag.store(true, Ordering::Relaxed);
            if let Ok(s) = handle.join() {
                self.searcher = Some(s);
            }
            if keep {
                // The result is already on its way in the channel with this generation.
                self.generation = generation;
            } else {
                self.generation += 1;
            }
        }
    }

    fn start_search(&mut self, analyze: bool) {
        self.stop(false);
        if self.pos.outcome().is_some() {
            return;
        }
        self.generation += 1;
        let generation = self.generation;
        let limits = if analyze {
            Limits { depth: Some(100), ..Limits::default() }
        } else {
            self.clock.limits(self.pos.ply() / 2, Instant::now())
        };
        let mut searcher =
            self.searcher.take().unwrap_or_else(|| Searcher::new(&self.offered[self.variant].rules, self.hash_mb));
        let stop = Arc::new(AtomicBool::new(false));
        searcher.set_stop_flag(stop.clone());
        let mut pos = self.pos.clone();
        let root = pos.clone();
        let post = self.post || analyze;
        let names: Vec<String> = (0..root.rules().cell_count())
            .map(|i| self.board().name(varia_interpreter::ir::CellId(i as u16)))
            .collect();
        let tx = self.tx.clone();
        let handle = std::thread::spawn(move || {
            let name = |c: varia_interpreter::ir::CellId| names[c.0 as usize].clone();
            let info = searcher.search(&mut pos, limits, |i| {
                if post {
                    say(&thinking_line(&root, i, &name));
                }
            });
            let _ = tx.send(Event::Searched { generation, info });
            searcher
        });
        self.running = Some((generation, stop, handle));
    }

    /// A search has ended: play its move when the engine is on move and not analysing.
    fn searched(&mut self, generation: u64, info: SearchInfo) {
        if generation != self.generation {
            return;
        }
        if let Some((_, _, handle)) = self.running.take() {
            if let Ok(s) = handle.join() {
                self.searcher = Some(s);
            }
        }
        if self.analyzing || self.engine != Some(self.pos.side_to_move().0 as usize) {
            return;
        }
        if let Some(mv) = info.best() {
            say(&format!("move {}", self.write_move(&self.pos, mv)));
            self.pos.make(mv);
            self.announce_end();
        }
        for p in std::mem::take(&mut self.pongs) {
            say(&p);
        }
    }

    /// Sends the result once the game is over by the variant's rules.
    fn announce_end(&mut self) {
        let Some((result, reason)) = self.pos.outcome() else { return };
        // XBoard checks a win an engine claims for itself against another engine by its own
        // picture of the game; where that picture leaves check to Varia (see `Board::exact`)
        // it would call the claim false, so the loser's engine says it instead.
        if let GameResult::Win(p) = result {
            if self.computer && !self.board().exact && self.engine == Some(p.0 as usize) {
                return;
            }
        }
        let names = &self.pos.rules().variant.players;
        let text = match result {
            GameResult::Win(p) if p.0 == 0 => format!("1-0 {{{} wins by {}}}", names[0].name, reason.name()),
            GameResult::Win(p) => format!("0-1 {{{} wins by {}}}", names[p.0 as usize].name, reason.name()),
            GameResult::Draw => format!("1/2-1/2 {{draw by {}}}", reason.name()),
        };
        say(&text);
    }

    /// The engine's turn to move: think.
    fn maybe_think(&mut self) {
        if self.analyzing {
            self.start_search(true);
        } else if self.engine == Some(self.pos.side_to_move().0 as usize) && self.running.is_none() {
            self.start_search(false);
        }
    }

    fn set_variant(&mut self, name: &str) -> Result<(), String> {
        let i = self
            .offered
            .iter()
            .position(|o| o.names.iter().any(|n| n.eq_ignore_ascii_case(name)))
            .ok_or_else(|| format!("unknown variant {name}"))?;
        self.variant = i;
        self.searcher = None;
        self.pos = Position::start(self.offered[i].rules.clone());
        let o = &self.offered[i];
        if !o.native {
            let table = o.board.piece_table(&o.rules);
            let fen = to_xboard_fen(&o.board, &self.pos);
            let (w, h, held) = (o.board.width, o.board.height, o.board.holdings(&o.rules));
            say(&format!("setup ({table}) {w}x{h}+{held}_{} {fen}", o.parent));
            for p in o.board.piece_commands(&o.rules) {
                say(&p);
            }
        }
        Ok(())
    }

    fn user_move(&mut self, text: &str) {
        if self.pos.outcome().is_some() {
            say(&format!("Illegal move (the game is over): {text}"));
            return;
        }
        let name = self.board_names();
        // XBoard marks a move into a promotion zone that does not promote with `=` (shogi's
        // `b2h8=`): the move without the mark.
        let text = text.strip_suffix('=').filter(|t| !t.is_empty()).unwrap_or(text);
        let pass = || {
            let mut legal = Vec::new();
            self.pos.clone().legal_moves(&mut legal);
            let pass = legal.into_iter().find(|m| m.kind == varia_interpreter::MoveKind::EndTurn);
            pass.ok_or_else(|| "passing is not allowed here".to_string())
        };
        let read = if text == PASS {
            pass()
        } else {
            crate::uci::read_move_named(&mut self.pos, text, &|c| name[c.0 as usize].clone())
        };
        match read {
            Ok(mv) => {
                self.pos.make(mv);
                self.announce_end();
                self.maybe_think();
            }
            Err(e) => say(&format!("Illegal move ({}): {text}", e.replace(['(', ')'], ""))),
        }
    }

    fn board_names(&self) -> Vec<String> {
        (0..self.pos.rules().cell_count()).map(|i| self.board().name(varia_interpreter::ir::CellId(i as u16))).collect()
    }

    fn set_board(&mut self, fen: &str) -> Result<(), String> {
        // XBoard tells of a pass by sending the position after it: when passing here gives
        // that board and side to move, the pass is played, so the game keeps its history
        // (two passes in a row, repetitions).
        let mut legal = Vec::new();
        self.pos.legal_moves(&mut legal);
        if let Some(&pass) = legal.iter().find(|m| m.kind == varia_interpreter::MoveKind::EndTurn) {
            let mut after = self.pos.clone();
            after.make(pass);
            let mine = to_xboard_fen(self.board(), &after);
            let head = |s: &str| s.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
            if head(&mine) == head(fen) {
                self.pos = after;
                self.announce_end();
                return Ok(());
            }
        }
        let text = from_xboard_fen(self.board(), &self.pos, fen);
        self.pos = Position::from_position_string(self.offered[self.variant].rules.clone(), &text)
            .map_err(|e| e.to_string())?;
        Ok(())
    }
}

/// XBoard's null move, which it reads and sends for a pass.
const PASS: &str = "@@@@";

/// A move as XBoard reads it: [`crate::uci::move_table_named`]'s text in XBoard's square
/// names, a pass (a turn ended without moving) as XBoard's null move `@@@@`.
fn xboard_move(pos: &Position, mv: Move, name: &dyn Fn(varia_interpreter::ir::CellId) -> String) -> String {
    if mv.kind == varia_interpreter::MoveKind::EndTurn && pos.action_index() == 0 {
        return PASS.to_string();
    }
    let mut p = pos.clone();
    crate::uci::move_table_named(&mut p, name)
        .into_iter()
        .find(|(m, _)| *m == mv)
        .map(|(_, t)| t)
        .unwrap_or_else(|| pos.long_notation(mv))
}

/// A thinking line as XBoard reads it: depth, score (centipawns; mates as 100000 + moves),
/// time in centiseconds, nodes, then the principal variation.
fn thinking_line(root: &Position, i: &SearchInfo, name: &dyn Fn(varia_interpreter::ir::CellId) -> String) -> String {
    let score = match i.mate_in() {
        Some(n) if n > 0 => 100_000 + (n + 1) / 2,
        Some(n) => -100_000 - (-n + 1) / 2,
        None => i.score,
    };
    let mut p = root.clone();
    let mut pv = Vec::new();
    for &mv in &i.pv {
        pv.push(xboard_move(&p, mv, name));
        p.make(mv);
    }
    format!("{} {score} {} {} {}", i.depth, i.elapsed.as_millis() / 10, i.nodes, pv.join(" "))
}

/// The position as XBoard's FEN: Varia's position string, whose board part is already FEN's,
/// with the en-passant square renamed to XBoard's coordinates.
fn to_xboard_fen(board: &Board, pos: &Position) -> String {
    let text = pos.to_position_string();
    let mut fields: Vec<String> = text.split(' ').map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3) {
        if let Some(c) = pos.rules().cell_by_name(ep) {
            *ep = board.name(c);
        }
    }
    fields.join(" ")
}

/// XBoard's FEN as Varia's position string (the en-passant square renamed back).
fn from_xboard_fen(board: &Board, pos: &Position, fen: &str) -> String {
    let mut fields: Vec<String> = fen.split_whitespace().map(str::to_string).collect();
    if let Some(ep) = fields.get_mut(3) {
        if let Some(c) = board.cell(ep) {
            *ep = pos.rules().cell_name(c).to_string();
        }
    }
    fields.join(" ")
}

/// The most seconds a clock command may give (about 11.5 days, as `varia uci`'s bound).
const MAX_SECONDS: f64 = 1_000_000.0;

/// A number of seconds from 0 to [`MAX_SECONDS`].
fn seconds(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|t| (0.0..=MAX_SECONDS).contains(t))
}

/// `level MPS BASE INC`: MPS moves per session (0 to 10000), BASE in minutes or
/// `minutes:seconds`, INC in seconds, each time at most [`MAX_SECONDS`].
fn parse_level(args: &[&str]) -> Result<(u32, f64, f64), String> {
    let bad = || {
        format!("level takes MPS from 0 to 10000, BASE minutes or MIN:SEC and INC seconds, each time at most {MAX_SECONDS} s")
    };
    let mps = args.first().and_then(|a| a.parse::<u32>().ok()).filter(|m| *m <= 10_000).ok_or_else(bad)?;
    let base = args.get(1).ok_or_else(bad)?;
    let base = match base.split_once(':') {
        Some((m, s)) => m.parse::<f64>().ok().zip(s.parse::<f64>().ok()).map(|(m, s)| m * 60.0 + s),
        None => base.parse::<f64>().ok().map(|m| m * 60.0),
    };
    let base = base.filter(|b| (0.0..=MAX_SECONDS).contains(b)).ok_or_else(bad)?;
    let inc = args.get(2).and_then(|a| seconds(a)).ok_or_else(bad)?;
    Ok((mps, base, inc))
}

/// The variants offered: every bundled variant XBoard can show, under XBoard's own name for it
/// when XBoard knows it (chess first, as `normal`), and the file given on the command line
/// (which must be one XBoard can show).
fn offered(file: Option<&std::path::Path>) -> Result<Vec<Offered>, String> {
    let mut out = Vec::new();
    for b in varia_variants::all() {
        let Some(Ok(rules)) = crate::load::bundled_rules(b.name()) else { continue };
        let Ok(board) = Board::new(&rules) else { continue };
        if b.xboard.is_none() && Board::undescribable(&rules).is_some() {
            continue;
        }
        let mut names: Vec<String> = b.names().into_iter().map(str::to_string).collect();
        if let Some(x) = b.xboard {
            names.retain(|n| n != x);
            names.insert(0, x.to_string());
        }
        let parent = b.xboard_parent.unwrap_or("fairy").to_string();
        out.push(Offered { names, native: b.xboard.is_some(), parent, rules, board });
    }
    if let Some(path) = file {
        let rules = crate::load::rules(path)?;
        let board = Board::new(&rules).map_err(|e| format!("error: {}: {e}", path.display()))?;
        if let Some(why) = Board::undescribable(&rules) {
            return Err(format!("error: {}: XBoard cannot be told this game: {why}", path.display()));
        }
        let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
        let mut name: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
        if name.is_empty() || out.iter().any(|o| o.names.contains(&name)) {
            name = format!("file-{name}");
        }
        let file = Offered { names: vec![name], native: false, parent: "fairy".to_string(), rules, board };
        out.insert(1.min(out.len()), file);
    }
    Ok(out)
}

/// Runs the protocol on standard input and output until `quit` or the end of the input (a
/// search still running then is stopped).
pub fn run(file: Option<std::path::PathBuf>) -> Result<(), String> {
    let offered = offered(file.as_deref())?;
    let start = if file.is_some() { 1 } else { 0 };
    let (tx, rx) = mpsc::channel::<Event>();
    let lines = tx.clone();
    crate::input::spawn(move |input| lines.send(Event::Input(input)).is_ok());
    let pos = Position::start(offered[start].rules.clone());
    let mut s = Session {
        offered,
        variant: start,
        pos,
        engine: None,
        analyzing: false,
        post: false,
        clock: Clock::default(),
        hash_mb: 32,
        searcher: None,
        running: None,
        generation: 0,
        computer: false,
        pongs: Vec::new(),
        tx,
    };
    // Until `new`, XBoard may send moves in force mode; the engine plays Black after `new`.
    while let Ok(event) = rx.recv() {
        match event {
            Event::Searched { generation, info } => s.searched(generation, info),
            Event::Input(Input::Line(line)) => {
                if !s.command(&line) {
                    break;
                }
            }
            Event::Input(Input::Bad(why)) => {
                say(&format!("Error ({}): the line was not read", why.replace(['(', ')'], "")))
            }
            Event::Input(Input::End) => break,
        }
    }
    s.stop(false);
    Ok(())
}

impl Session {
    /// Carries out one command; false for `quit`.
    fn command(&mut self, line: &str) -> bool {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else { return true };
        let s = self;
        match cmd {
            "computer" => s.computer = true,
            "xboard" | "accepted" | "rejected" | "random" | "name" | "rating" | "ics" | "hard" | "easy" | "draw"
            | "cores" | "." | "bk" | "hint" | "option" | "egtpath" => {}
            "protover" => {
                let names: Vec<&str> = s.offered.iter().map(|o| o.names[0].as_str()).collect();
                say(&format!(
                    "feature myname=\"Varia\" ping=1 setboard=1 usermove=1 san=0 time=1 draw=0 sigint=0 sigterm=0 \
                     reuse=1 analyze=1 colors=0 playother=1 name=0 nps=0 memory=1 pause=0 exclude=0 \
                     variants=\"{}\"",
                    names.join(",")
                ));
                say("feature done=1");
            }
            "new" => {
                s.stop(false);
                s.analyzing = false;
                s.clock.depth = None;
                s.variant = 0;
                s.searcher = None;
                s.pos = Position::start(s.offered[0].rules.clone());
                s.engine = Some(1);
            }
            "variant" => {
                s.stop(false);
                if let Err(e) = s.set_variant(args.first().copied().unwrap_or("")) {
                    say(&format!("Error ({e}): {line}"));
                }
            }
            "force" => {
                s.stop(false);
                s.engine = None;
            }
            "go" => {
                s.engine = Some(s.pos.side_to_move().0 as usize);
                s.maybe_think();
            }
            "playother" => s.engine = Some(1 - s.pos.side_to_move().0 as usize),
            "white" | "black" => {}
            "level" | "st" | "sd" | "time" | "otim" | "memory" => {
                if let Err(e) = s.setting(cmd, args) {
                    say(&format!("Error ({e}): {line}"));
                }
            }
            "usermove" => {
                if s.running.is_some() && !s.analyzing {
                    say(&format!("Error (command not legal now): {line}"));
                } else {
                    s.stop(false);
                    s.user_move(args.first().copied().unwrap_or(""));
                }
            }
            "?" => s.stop(true),
            "ping" => {
                let pong = format!("pong {}", args.first().copied().unwrap_or(""));
                if s.running.is_some() && !s.analyzing {
                    s.pongs.push(pong);
                } else {
                    say(&pong);
                }
            }
            "setboard" => {
                s.stop(false);
                if let Err(e) = s.set_board(&args.join(" ")) {
                    say(&format!("tellusererror Illegal position: {e}"));
                }
                // After a pass told this way, the engine on move thinks.
                s.maybe_think();
            }
            "undo" | "remove" => {
                s.stop(false);
                let n = if cmd == "undo" { 1 } else { 2 };
                if s.pos.ply() < n {
                    say(&format!("Error (command not legal now): {cmd}"));
                } else {
                    for _ in 0..n {
                        s.pos.unmake();
                    }
                }
                if s.analyzing {
                    s.start_search(true);
                }
            }
            "post" => s.post = true,
            "nopost" => s.post = false,
            "analyze" => {
                s.analyzing = true;
                s.engine = None;
                s.start_search(true);
            }
            "exit" => {
                s.stop(false);
                s.analyzing = false;
            }
            "result" => {
                s.stop(false);
                s.engine = None;
            }
            "quit" => return false,
            _ if cmd == PASS
                || s.pos.clone().parse_move(cmd).is_ok()
                || cmd.len() >= 4 && cmd.as_bytes()[1].is_ascii_digit() =>
            {
                // Protocol 1 GUIs send moves without `usermove`.
                s.stop(false);
                s.user_move(cmd);
            }
            _ => say(&format!("Error (unknown command): {cmd}")),
        }
        true
    }

    /// The clock and memory commands, each number within its bound.
    fn setting(&mut self, cmd: &str, args: &[&str]) -> Result<(), String> {
        let first = args.first().copied().unwrap_or("");
        let whole = |lo: i64, hi: i64, what: &str| -> Result<i64, String> {
            first
                .parse::<i64>()
                .ok()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or(format!("{cmd} takes {what} from {lo} to {hi}, found `{first}`"))
        };
        // XBoard's clocks count in centiseconds; one that has run out may be negative.
        let max_cs = (MAX_SECONDS * 100.0) as i64;
        match cmd {
            "level" => {
                self.clock.level = Some(parse_level(args)?);
                self.clock.per_move = None;
            }
            "st" => {
                let t = first.parse::<f64>().ok().filter(|t| *t > 0.0 && *t <= 86_400.0);
                self.clock.per_move =
                    Some(t.ok_or(format!("st takes seconds above 0 and at most 86400, found `{first}`"))?);
            }
            "sd" => self.clock.depth = Some(whole(1, 100, "a depth")? as u32),
            "time" => self.clock.remaining_cs = Some(whole(-max_cs, max_cs, "centiseconds")?.max(0) as u64),
            "otim" => {
                whole(-max_cs, max_cs, "centiseconds")?;
            }
            _ => {
                self.hash_mb = whole(1, 4096, "megabytes")? as usize;
                self.searcher = None;
            }
        }
        Ok(())
    }
}
