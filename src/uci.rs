//! `varia uci`: the Universal Chess Interface, so that chess GUIs can play the bundled variants (those on ordinary boards) against Varia's search.

use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::thread::JoinHandle;
use std::time::Duration;

use varia_interpreter::{Limits, Move, Position, Rules, SearchInfo, Searcher};

/// A move as UCI writes it: start and destination cells and a lower-case promotion letter
/// (castling as the king's move); actions on squares in Varia's notation.
pub fn uci_move(pos: &Position, mv: Move) -> String {
    if !mv.kind.is_piece_move() {
        return pos.long_notation(mv);
    }
    let r = pos.rules();
    let promo = mv
        .promotion()
        .map(|t| r.variant.pieces[t.0 as usize].letter.to_ascii_lowercase().to_string())
        .unwrap_or_default();
    format!("{}{}{promo}", r.cell_name(mv.from), r.cell_name(mv.to))
}

fn info_line(pos: &Position, i: &SearchInfo) -> String {
    let score = match i.mate_in() {
        Some(n) if n > 0 => format!("mate {}", (n + 1) / 2),
        Some(n) => format!("mate -{}", (-n + 1) / 2),
        None => format!("cp {}", i.score),
    };
    let mut p = pos.clone();
    let mut pv = Vec::new();
    for &mv in &i.pv {
        pv.push(uci_move(&p, mv));
        p.make(mv);
    }
    let ms = i.elapsed.as_millis();
    let nps = (i.nodes as f64 / i.elapsed.as_secs_f64().max(1e-6)) as u64;
    format!("info depth {} score {score} nodes {} nps {nps} time {ms} pv {}", i.depth, i.nodes, pv.join(" "))
}

struct Session {
    rules: Arc<Rules>,
    /// The variant file (for the weights beside it) and a weights file given on the command line.
    file: std::path::PathBuf,
    weights: Option<std::path::PathBuf>,
    pos: Position,
    hash_mb: usize,
    searcher: Option<Searcher>,
    running: Option<(JoinHandle<Searcher>, Arc<AtomicBool>)>,
}

impl Session {
    fn finish_search(&mut self, stop: bool) {
        if let Some((handle, flag)) = self.running.take() {
            if stop {
                flag.store(true, Ordering::Relaxed);
            }
            if let Ok(s) = handle.join() {
                self.searcher = Some(s);
            }
        }
    }

    fn position(&mut self, args: &[&str]) -> Result<(), String> {
        let moves_at = args.iter().position(|a| *a == "moves").unwrap_or(args.len());
        let mut pos = match args.first() {
            Some(&"startpos") => Position::start(self.rules.clone()),
            Some(&"fen") => {
                let fen = args[1..moves_at].join(" ");
                Position::from_position_string(self.rules.clone(), &fen).map_err(|e| format!("bad fen: {e}"))?
            }
            _ => return Err("expected `position startpos` or `position fen ...`".to_string()),
        };
        let mut legal = Vec::new();
        for m in args.iter().skip(moves_at + 1) {
            // UCI coordinates first (castling is written as the king's move, `e1g1`), then
            // any notation Varia reads.
            pos.legal_moves(&mut legal);
            let mv = match legal.iter().find(|x| uci_move(&pos, **x) == *m) {
                Some(x) => *x,
                None => pos.parse_move(m).map_err(|e| format!("bad move {m}: {e}"))?,
            };
            pos.make(mv);
        }
        self.pos = pos;
        Ok(())
    }

    fn go(&mut self, args: &[&str]) {
        let num = |key: &str| -> Option<u64> {
            args.iter().position(|a| *a == key).and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok())
        };
        let white = self.pos.side_to_move().0 == 0;
        let (mine, inc) = if white { (num("wtime"), num("winc")) } else { (num("btime"), num("binc")) };
        let time = if let Some(ms) = num("movetime") {
            Some(Duration::from_millis(ms))
        } else {
            // The clock's share for this move (the search uses all of it), keeping back a
            // twentieth and 30 ms against overheads so that the last move before a control
            // does not overstep.
            mine.map(|t| {
                let usable = t.saturating_sub(30 + t / 20);
                let share = usable / num("movestogo").unwrap_or(30).clamp(1, 60) + inc.unwrap_or(0) * 3 / 4;
                Duration::from_millis(share.clamp(1, usable.max(1)))
            })
        };
        let infinite = args.contains(&"infinite");
        let limits = Limits {
            depth: num("depth").map(|d| d as u32).or(if infinite || time.is_some() { Some(100) } else { Some(6) }),
            time: if infinite { None } else { time },
            nodes: num("nodes"),
        };
        let mut searcher = match self.searcher.take() {
            Some(s) => s,
            None => {
                let eval = crate::weights::evaluator(&self.rules, Some(&self.file), self.weights.as_deref())
                    .unwrap_or_else(|_| varia_interpreter::Evaluator::new(&self.rules));
                Searcher::with_evaluator(&self.rules, self.hash_mb, eval)
            }
        };
        let flag = searcher.stop_flag();
        let mut pos = self.pos.clone();
        let handle = std::thread::spawn(move || {
            let root = pos.clone();
            let info = searcher.search(&mut pos, limits, |i| {
                println!("{}", info_line(&root, i));
                let _ = std::io::stdout().flush();
            });
            match info.best() {
                Some(mv) => println!("bestmove {}", uci_move(&root, mv)),
                None => println!("bestmove 0000"),
            }
            let _ = std::io::stdout().flush();
            searcher
        });
        self.running = Some((handle, flag));
    }
}

/// Runs the protocol on standard input and output until `quit`.
pub fn run(variant: Option<std::path::PathBuf>, weights: Option<std::path::PathBuf>) -> Result<(), String> {
    let files = crate::load::catalogue_files()?;
    let names: Vec<String> = files.iter().map(|f| f.trim_end_matches(".var").to_string()).collect();
    let path = variant.unwrap_or_else(|| crate::load::bundled("chess.var"));
    let rules = crate::load::rules(&path)?;
    // A bad weights file is reported at once rather than at the first `go`.
    crate::weights::evaluator(&rules, Some(&path), weights.as_deref())?;
    let mut s = Session {
        pos: Position::start(rules.clone()),
        rules,
        file: path,
        weights,
        hash_mb: 32,
        searcher: None,
        running: None,
    };
    let (tx, rx) = mpsc::channel::<String>();
    std::thread::spawn(move || {
        for line in std::io::stdin().lock().lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let say = |text: String| {
        println!("{text}");
        let _ = std::io::stdout().flush();
    };
    while let Ok(line) = rx.recv() {
        let words: Vec<&str> = line.split_whitespace().collect();
        let Some((&cmd, args)) = words.split_first() else { continue };
        match cmd {
            "uci" => {
                say("id name Varia".to_string());
                say("id author the Varia developers".to_string());
                let vars: Vec<String> = names.iter().map(|n| format!("var {n}")).collect();
                say(format!("option name UCI_Variant type combo default chess {}", vars.join(" ")));
                say("option name Hash type spin default 32 min 1 max 4096".to_string());
                say("uciok".to_string());
            }
            "isready" => say("readyok".to_string()),
            "setoption" => {
                s.finish_search(true);
                let name_at = args.iter().position(|a| *a == "name");
                let value_at = args.iter().position(|a| *a == "value");
                if let (Some(n), Some(v)) = (name_at, value_at) {
                    let name = args[n + 1..v].join(" ");
                    let value = args[v + 1..].join(" ");
                    if name.eq_ignore_ascii_case("UCI_Variant") {
                        let file = format!("{}.var", value.to_lowercase());
                        if files.contains(&file) {
                            match crate::load::rules(&crate::load::bundled(&file)) {
                                Ok(r) => {
                                    s.pos = Position::start(r.clone());
                                    s.rules = r;
                                    s.file = crate::load::bundled(&file);
                                    // Weights given on the command line belong to the first variant.
                                    s.weights = None;
                                    s.searcher = None;
                                }
                                Err(e) => say(format!("info string {}", e.lines().next().unwrap_or(""))),
                            }
                        } else {
                            say(format!("info string unknown variant {value}; known: {}", names.join(" ")));
                        }
                    } else if name.eq_ignore_ascii_case("Hash") {
                        if let Ok(mb) = value.parse::<usize>() {
                            s.hash_mb = mb.clamp(1, 4096);
                            s.searcher = None;
                        }
                    }
                }
            }
            "ucinewgame" => {
                s.finish_search(true);
                s.searcher = None;
                s.pos = Position::start(s.rules.clone());
            }
            "position" => {
                s.finish_search(true);
                if let Err(e) = s.position(args) {
                    say(format!("info string {e}"));
                }
            }
            "go" => {
                s.finish_search(true);
                s.go(args);
            }
            "stop" => s.finish_search(true),
            "quit" => {
                s.finish_search(true);
                break;
            }
            _ => say(format!("info string unknown command {cmd}")),
        }
    }
    s.finish_search(true);
    Ok(())
}
