//! The engine protocols through the built binary: `varia uci` and `varia xboard` driven line by line, as a GUI drives them.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// A running `varia` speaking a protocol on its standard input and output.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far, for failure messages.
    seen: Vec<String>,
}

impl Drop for Engine {
    /// A failed test leaves no engine running.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_varia"))
            .args(args)
            .current_dir(Path::new(env!("CARGO_MANIFEST_DIR")))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start varia");
        let input = child.stdin.take().expect("stdin");
        let out = child.stdout.take().expect("stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(out).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, input, lines, seen: Vec::new() }
    }

    fn send(&mut self, text: &str) {
        for line in text.lines() {
            writeln!(self.input, "{line}").expect("write to varia");
        }
        self.input.flush().expect("flush");
    }

    /// The lines up to and including the first that starts with `prefix`, within `secs` seconds.
    fn until(&mut self, prefix: &str, secs: u64) -> Vec<String> {
        let deadline = Instant::now() + Duration::from_secs(secs);
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    let done = line.starts_with(prefix);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no `{prefix}` within {secs} s; output so far:\n{}", self.seen.join("\n"))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("varia ended before `{prefix}`; output:\n{}", self.seen.join("\n"))
                }
            }
        }
    }

    /// Sends `text` and returns the last line of the answer, which starts with `prefix`.
    fn ask(&mut self, text: &str, prefix: &str) -> String {
        self.send(text);
        self.until(prefix, 60).pop().expect("a line")
    }

    /// Waits for the process to end by itself within `secs` seconds; its exit code.
    fn exit_within(mut self, secs: u64) -> Option<i32> {
        let _ = writeln!(self.input);
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status.code();
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("varia did not exit within {secs} s; output:\n{}", self.seen.join("\n"));
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

#[test]
fn uci_reads_castling_back_in_both_forms() {
    let mut e = Engine::start(&["uci"]);
    e.ask("uci", "uciok");
    // The king's move, as every GUI sends it (python-chess, Cute Chess, Arena).
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1g1");
    let best = e.ask("go depth 1", "bestmove");
    let reply = best.split_whitespace().nth(1).expect("a move");
    assert!(reply.len() == 4 && "12345678".contains(&reply[1..2]), "{best}");
    // Black's own castling, written by Varia, is read back.
    e.send("position fen 4k2r/8/2n2K1p/8/5n2/8/8/8 b k - 0 1");
    let best = e.ask("go depth 2", "bestmove");
    assert_eq!(best, "bestmove e8g8", "castling mates here");
    e.send("position fen 4k2r/8/2n2K1p/8/5n2/8/8/8 b k - 0 1 moves e8g8");
    let best = e.ask("go depth 1", "bestmove");
    assert_eq!(best, "bestmove 0000", "White is mated: {:?}", e.seen);
    // The king taking its own rook, as Chess960 GUIs write castling.
    e.send("position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 f8c5 e1h1 g8f6");
    e.send("isready");
    let lines = e.until("readyok", 10);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    let best = e.ask("go depth 1", "bestmove");
    assert_ne!(best, "bestmove 0000");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_variant_takes_the_names_guis_send() {
    let mut e = Engine::start(&["uci"]);
    let lines = {
        e.send("uci");
        e.until("uciok", 10)
    };
    let combo = lines.iter().find(|l| l.starts_with("option name UCI_Variant")).expect("the option");
    // The catalogue's names and the other names GUIs and Fairy-Stockfish send, each a `var`.
    for name in ["chess", "three-check", "3check", "crazyhouse", "shogi", "xiangqi", "janggi", "minishogi"] {
        assert!(combo.split(" var ").skip(1).any(|v| v == name), "{name} missing from {combo}");
    }
    for name in ["atomic", "seirawan", "grand", "capablanca", "shatranj", "sittuyin", "loop"] {
        assert!(combo.split(" var ").skip(1).any(|v| v == name), "{name} missing from {combo}");
    }
    // `3check` is three-check: a queen down after two checks, White wins by the third.
    e.send("setoption name UCI_Variant value 3check\nisready");
    let lines = e.until("readyok", 10);
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
    e.send("position startpos moves e2e4 f7f6 d1h5 g7g6 h5g6 h7g6 f1c4 a7a6");
    let lines = {
        e.send("go depth 3");
        e.until("bestmove", 30)
    };
    assert_eq!(lines.last().unwrap(), "bestmove c4f7", "{lines:?}");
    assert!(lines[0].contains(" score mate 1 "), "{lines:?}");
    e.send("setoption name UCI_Variant value 4check\nisready");
    let lines = e.until("readyok", 10);
    assert!(lines[0].starts_with("info string error: unknown variant `4check`; known: chess "), "{lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_refused_position_leaves_no_stale_state() {
    let mut e = Engine::start(&["uci"]);
    e.send("position startpos moves e2e4 e7e5\nposition startpos moves e2e4 e7e6 e1e3\nisready");
    let lines = e.until("readyok", 10);
    assert!(lines.iter().any(|l| l.starts_with("info string error: move 3 `e1e3` is not legal")), "{lines:?}");
    // No answer for the side not to move: no position until the next good one.
    let best = e.ask("go depth 2", "bestmove");
    assert_eq!(best, "bestmove 0000");
    assert!(e.seen.iter().any(|l| l.starts_with("info string no position to search")), "{:?}", e.seen);
    e.send("position startpos moves e2e4");
    let best = e.ask("go depth 1", "bestmove");
    let mv = best.split_whitespace().nth(1).expect("a move");
    assert!(mv.ends_with('6') || mv.ends_with('5'), "Black answers: {best}");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_stop_right_after_go_infinite_ends_the_search() {
    // Issue 20: the search cleared the stop flag when it began, so a `stop` that came first was
    // lost and `go infinite` ran for ever.
    for _ in 0..5 {
        let mut e = Engine::start(&["uci"]);
        e.send("go infinite\nstop");
        let best = e.ask("isready", "bestmove");
        assert!(best.starts_with("bestmove "), "{best}");
        e.send("go infinite\nquit");
        assert_eq!(e.exit_within(10), Some(0));
    }
    // `go infinite` waits for `stop` even when the search is over (a mate found at once).
    let mut e = Engine::start(&["uci"]);
    e.send("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo infinite");
    e.until("info depth 1", 10);
    std::thread::sleep(Duration::from_millis(300));
    e.send("isready");
    let lines = e.until("readyok", 10);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "{lines:?}");
    assert_eq!(e.ask("stop", "bestmove"), "bestmove d1d8");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_setoption_in_any_order_never_panics() {
    let mut e = Engine::start(&["uci"]);
    // Issue 20: `value` before `name` sliced backwards and panicked.
    e.send("setoption value x name y\nsetoption name\nsetoption\nsetoption name Hash value lots");
    e.send("setoption name MultiPV value 0\nsetoption name Nothing value 3\nisready");
    let lines = e.until("readyok", 10);
    let errors: Vec<&String> = lines.iter().filter(|l| l.starts_with("info string error:")).collect();
    assert_eq!(errors.len(), 6, "{lines:?}");
    assert!(errors[0].contains("`value` comes after the name"), "{errors:?}");
    assert!(errors[3].contains("option Hash takes a whole number from 1 to 4096, not `lots`"), "{errors:?}");
    assert!(errors[5].contains("unknown option `Nothing`"), "{errors:?}");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_multipv_lines_and_periodic_info() {
    let mut e = Engine::start(&["uci"]);
    e.ask("uci", "uciok");
    assert!(e.seen.iter().any(|l| l == "option name MultiPV type spin default 1 min 1 max 64"), "{:?}", e.seen);
    e.send("setoption name MultiPV value 3\nposition startpos");
    e.send("go depth 3");
    let lines = e.until("bestmove", 60);
    let at3: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 3 multipv")).collect();
    assert_eq!(at3.len(), 3, "{lines:?}");
    let firsts: Vec<&str> = at3.iter().map(|l| l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap()).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2], "{at3:?}");
    for l in &at3 {
        for field in ["score ", "nodes ", "nps ", "hashfull ", "time ", "pv "] {
            assert!(l.contains(field), "{l}");
        }
    }
    // A long search reports its progress about once a second, then stops when told.
    e.send("setoption name MultiPV value 1\ngo infinite");
    std::thread::sleep(Duration::from_millis(2500));
    let best = e.ask("stop", "bestmove");
    let progress: Vec<&String> = e
        .seen
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains("hashfull") && !l.contains(" pv "))
        .collect();
    assert!(!progress.is_empty(), "{:?}", e.seen);
    assert!(best.contains(" ponder "), "{best}");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

/// The `multipv` lines of a search's output: (depth, line number, score, first move).
fn multipv_lines(lines: &[String]) -> Vec<(u32, usize, i32, String)> {
    let field =
        |l: &str, key: &str| l.split(&format!(" {key} ")).nth(1).and_then(|r| r.split(' ').next()).map(str::to_string);
    lines
        .iter()
        .filter(|l| l.contains(" multipv "))
        .map(|l| {
            let score = field(l, "cp").and_then(|s| s.parse().ok()).unwrap_or_else(|| {
                let m: i32 = field(l, "mate").unwrap().parse().unwrap();
                if m > 0 {
                    100_000 - m
                } else {
                    -100_000 - m
                }
            });
            (
                field(l, "depth").unwrap().parse().unwrap(),
                field(l, "multipv").unwrap().parse().unwrap(),
                score,
                field(l, "pv").unwrap(),
            )
        })
        .collect()
}

#[test]
fn uci_multipv_blocks_rank_their_lines_and_never_repeat_line_one() {
    let mut e = Engine::start(&["uci"]);
    e.ask("uci", "uciok");
    e.send("setoption name MultiPV value 3");
    // Searches stopped by the clock at many points, mid-iteration included.
    let positions = [
        "startpos moves e2e4 e7e5 g1f3",
        "fen r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4",
        "fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
    ];
    for (i, position) in positions.iter().enumerate() {
        for ms in [40, 130, 370, 900] {
            e.send(&format!("position {position}\ngo movetime {ms}"));
            let out = e.until("bestmove", 60);
            let blocks = multipv_lines(&out);
            assert!(!blocks.is_empty(), "{out:?}");
            // Each report is lines 1, 2, 3 in order, each first move once, best first.
            for block in blocks.chunks(3) {
                let numbers: Vec<usize> = block.iter().map(|b| b.1).collect();
                assert_eq!(numbers, [1, 2, 3], "position {i}, {ms} ms: {out:#?}");
                let moves: Vec<&String> = block.iter().map(|b| &b.3).collect();
                assert!(moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2], "{out:#?}");
                let same_depth = block.iter().all(|b| b.0 == block[0].0);
                if same_depth {
                    assert!(block[0].2 >= block[1].2 && block[1].2 >= block[2].2, "ranked: {out:#?}");
                }
            }
            // The best move is the last report's line 1.
            let best = out.last().unwrap().split_whitespace().nth(1).unwrap();
            assert_eq!(best, blocks[blocks.len() - 3].3, "position {i}, {ms} ms: {out:#?}");
        }
    }
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_ponder_waits_for_ponderhit_and_debug_speaks() {
    let mut e = Engine::start(&["uci"]);
    e.send("debug on\nposition startpos moves e2e4\ngo ponder wtime 1000 btime 1000");
    e.until("info string searching", 10);
    std::thread::sleep(Duration::from_millis(400));
    e.send("isready");
    let lines = e.until("readyok", 10);
    assert!(!lines.iter().any(|l| l.starts_with("bestmove")), "pondering must not answer: {lines:?}");
    let best = e.ask("ponderhit", "bestmove");
    assert!(best.starts_with("bestmove "), "{best}");
    e.send("debug off\nquit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn uci_writes_share_squares_captures_it_can_read_back() {
    // A knight on e2 may take either black piece of the two on the shared d4: coordinates cannot
    // say which, so both are written in Varia's long notation, and every move is read back.
    let mut e = Engine::start(&["uci"]);
    e.send("setoption name UCI_Variant value share-squares");
    e.send("setoption name MultiPV value 40");
    e.send("position fen rnbqkb1r/ppp1pppp/8/8/3(pn)4/8/PPPPNPPP/RNBQKB1R w KQkq - 0 1");
    let lines = {
        e.send("go depth 1");
        e.until("bestmove", 30)
    };
    let firsts: Vec<String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth 1 multipv"))
        .map(|l| l.split(" pv ").nth(1).unwrap().to_string())
        .collect();
    assert!(firsts.contains(&"Ne2xNd4".to_string()) && firsts.contains(&"Ne2xPd4".to_string()), "{firsts:?}");
    assert!(firsts.iter().all(|m| m != "e2d4"), "{firsts:?}");
    for m in &firsts {
        e.send(&format!("position fen rnbqkb1r/ppp1pppp/8/8/3(pn)4/8/PPPPNPPP/RNBQKB1R w KQkq - 0 1 moves {m}"));
        e.send("isready");
        let lines = e.until("readyok", 10);
        assert!(!lines.iter().any(|l| l.contains("error")), "{m}: {lines:?}");
    }
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn xboard_announces_its_features_and_every_drawable_bundled_game() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard\nprotover 2");
    let lines = e.until("feature done=1", 10);
    let features = &lines[0];
    for f in ["ping=1", "setboard=1", "usermove=1", "san=0", "myname=\"Varia\"", "analyze=1", "sigint=0"] {
        assert!(features.contains(f), "{features}");
    }
    // Games XBoard knows go by its names (chess is `normal`, three-check `3check`); janggi is
    // described to it; games XBoard cannot show (stacks, three boards, squares that move,
    // choices before the game) or be told (the promoted types of minishogi, the shogi family
    // and capahouse share letters with others; the pieces of sittuyin and the flipello family start
    // in hand) are not offered.
    assert!(
        features.contains(
            "variants=\"normal,capablanca,xiangqi,shatranj,3check,loop,crazyhouse,grand,shogi,atomic,seirawan,janggi,\
             nocastle,amazon,almost,chigorin,sortofalmost,fischerandom,caparandom,georgian,raazuvaa,fairy,hoppelpoppel,newzealand,kingofthehill,misere,grasshopper,\
             coregal,perfect,pawnsideways,pawnback,torpedo,gothic,embassy,janus,centaur,chancellor,modern,asean,\
             chaturanga,courier,chessgi,five-check,losalamos,knightmate,gardner,makruk,ai-wok,makpong,cambodian,karouk,nightrider,threekings,horde,\
             antichess,nocheckatomic,giveaway,codrus,extinction,kinglet,losers,paradigm,shako,tencubed,opulent,suicide,armageddon,berolina,minixiangqi,spartan,legan,manchu,\
             snailtrail,joust,isolation,isolation7x7,amazons,duck,petrified,gustav3,troitzky,omicron,breakthrough,\
             clobber,clobber10,fox-and-hounds,jesonmor,atomar,supply,janggicasual,janggitraditional,janggimodern,racingkings,ataxx,shatar\""
        ),
        "{features}"
    );
    // XBoard knows Capablanca Chess: nothing is described. `variant` takes Varia's names too.
    e.send("new\nvariant capablanca\nvariant three-check\nvariant 3check\nping 1");
    assert_eq!(e.until("pong", 10), ["pong 1"]);
    e.send("variant janggi\nping 2");
    let lines = e.until("pong 2", 10);
    assert_eq!(
        lines,
        [
            // XBoard's king image is left out ('.' last): the descriptions below allow more than
            // janggi does (palace lines are beyond Betza), so XBoard must not judge check.
            "setup (PN.R..B...AC...K.pn.r..b...ac...k.) 9x10+0_fairy \
             rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1",
            // From the rules: the general steps (`WF`), the elephant goes one straight and two
            // diagonal points, each empty (XBoard's `mafsmafW`), the horse is lame (`nN`), the
            // chariot also slides the palace's diagonals (at most 2), the cannon jumps (`pR`,
            // and `pF2` in the palace), the soldier steps forward, sideways and diagonally
            // forward in the palace.
            "piece K& WF",
            "piece B& mafsmafW",
            "piece N& nN",
            "piece R& RF2",
            "piece C& pRpF2",
            "piece P& fWsWfF",
            "pong 2"
        ]
        .map(String::from)
    );
    // The soldier's sideways step XBoard once refused, a pass as XBoard's null move, and a pass
    // told as the position after it (as XBoard does) keep the game: two passes end it on points.
    e.send("force\nusermove e3f3\nusermove @@@@\nping 3");
    assert_eq!(e.until("pong 3", 10), ["pong 3"]);
    e.send("setboard rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P2PP1P/1C5C1/4K4/RNBA1ABNR b - - 0 2\nping 4");
    assert_eq!(e.until("pong 4", 10), ["0-1 {black wins by goal}", "pong 4"]);
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn xboard_plays_games_with_hands_by_xboards_own_rules() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard\nprotover 2");
    let features = e.until("feature done=1", 10).remove(0);
    for name in ["crazyhouse", "shogi", "seirawan", "loop"] {
        assert!(features.contains(&format!(",{name},")), "{name}: {features}");
    }
    // XBoard knows crazyhouse: nothing is described; a capture goes to the hand and is dropped.
    e.send("new\nvariant crazyhouse\nforce\nusermove e2e4\nusermove d7d5\nusermove e4d5\nusermove d8d5");
    e.send("usermove P@e6\nusermove P@e4\nping 1");
    assert_eq!(e.until("pong 1", 10), ["pong 1"]);
    e.send("usermove P@e5\nping 2");
    let lines = e.until("pong 2", 10);
    assert!(lines[0].starts_with("Illegal move") && lines[0].ends_with("P@e5"), "White's hand is empty: {lines:?}");
    // Shogi: XBoard writes a move into the camp that does not promote with `=`.
    e.send("new\nvariant shogi\nforce\nusermove c3c4\nusermove g7g6\nusermove b2h8=\nping 3");
    assert_eq!(e.until("pong 3", 10), ["pong 3"]);
    // Loop chess is not XBoard's: it builds on crazyhouse, holdings of five.
    e.send("variant loop");
    let setup = e.ask("ping 4", "setup");
    assert!(setup.starts_with("setup (PNBRQKpnbrqk) 8x8+5_crazyhouse "), "{setup}");
    e.until("pong 4", 10);
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn xboard_plays_reads_castling_and_refuses_illegal_moves() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard\nprotover 2");
    e.until("feature done=1", 10);
    e.send("new\nforce\nusermove e2e4\nusermove e7e5\nusermove g1f3\nusermove b8c6\nusermove f1c4\nusermove f8c5");
    e.send("usermove e1g1\nusermove e8e6");
    let refused = e.ask("ping 2", "Illegal move");
    assert!(refused.ends_with(": e8e6") && refused.starts_with("Illegal move ("), "{refused}");
    assert_eq!(e.until("pong", 10), ["pong 2"]);
    // The engine plays Black from here, in a tenth of a second, and says what it thinks.
    e.send("post\nst 0.1\ngo");
    let lines = e.until("move ", 30);
    let thinking = lines.iter().find(|l| l.starts_with("1 ")).expect("a thinking line at depth 1");
    assert!(thinking.split_whitespace().count() >= 5, "{thinking}");
    let mv = lines.last().unwrap().trim_start_matches("move ").to_string();
    assert!(mv.len() >= 4 && &mv[1..2] >= "5", "Black's move: {mv}");
    // A position set up, then mate in one found and the result announced.
    e.send("force\nsetboard 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo");
    assert_eq!(e.until("move ", 30).last().unwrap(), "move d1d8");
    assert_eq!(e.until("1-0", 10).last().unwrap(), "1-0 {white wins by checkmate}");
    // Undo takes the mate back; the engine is in force mode after `force`.
    e.send("force\nundo\nping 3");
    assert_eq!(e.until("pong", 10), ["pong 3"]);
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
}

#[test]
fn xboard_describes_a_fairy_piece_and_refuses_a_board_it_cannot_draw() {
    let dir = std::env::temp_dir().join(format!("varia-xboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let chess = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/chess.var")).unwrap();
    // Knights become camels, which leap (3, 1): XBoard is told how they move.
    let camel = chess.replace("piece Knight N {", "piece Camel N {").replace("leap 2 1", "leap 3 1");
    let file = dir.join("camel-chess.var");
    std::fs::write(&file, camel).unwrap();
    let f = file.to_string_lossy().into_owned();
    let mut e = Engine::start(&["xboard", &f]);
    e.send("xboard\nprotover 2");
    let lines = e.until("feature done=1", 10);
    assert!(
        lines[0].contains(
            "variants=\"normal,camel-chess,capablanca,xiangqi,shatranj,3check,loop,crazyhouse,grand,shogi,atomic,seirawan,\
             janggi,nocastle,amazon,almost,chigorin,sortofalmost,fischerandom,caparandom,georgian,raazuvaa,fairy,hoppelpoppel,newzealand,kingofthehill,misere,\
             grasshopper,coregal,perfect,pawnsideways,pawnback,torpedo,gothic,embassy,janus,centaur,chancellor,modern,\
             asean,chaturanga,courier,chessgi,five-check,losalamos,knightmate,gardner,makruk,ai-wok,makpong,cambodian,karouk,nightrider,threekings,horde,\
             antichess,nocheckatomic,giveaway,codrus,extinction,kinglet,losers,paradigm,shako,tencubed,opulent,suicide,armageddon,berolina,minixiangqi,spartan,legan,manchu,\
             snailtrail,joust,isolation,isolation7x7,amazons,duck,petrified,gustav3,troitzky,omicron,breakthrough,\
             clobber,clobber10,fox-and-hounds,jesonmor,atomar,supply,janggicasual,janggitraditional,janggimodern,racingkings,ataxx,shatar\""
        ),
        "{lines:?}"
    );
    e.send("new\nvariant camel-chess\nping 1");
    let lines = e.until("pong", 10);
    assert_eq!(
        lines,
        [
            // The camel has no image of its own: it is drawn with XBoard's 14th, `I`.
            "setup (P.BRQ........NKp.brq........nk) 8x8+0_fairy rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
            "piece N& C",
            "pong 1"
        ]
        .map(String::from)
    );
    e.send("force\nusermove g1f3\nusermove g1h4\nping 2");
    let lines = e.until("pong", 10);
    assert!(lines[0].starts_with("Illegal move") && lines[0].ends_with("g1f3"), "{lines:?}");
    assert_eq!(lines.len(), 2, "g1h4 is a camel's leap: {lines:?}");
    e.send("quit");
    assert_eq!(e.exit_within(10), Some(0));
    let out = Command::new(env!("CARGO_BIN_EXE_varia")).args(["xboard", "hans38"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("XBoard cannot show \"Hans38 Chess\": squares move or are placed"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Plays `moves` moves of a game of Varia against itself through UCI on a clock of
/// `control_ms` for every `per_control` moves (`None`: sudden death) with `inc_ms` a move,
/// each side's clock charged the wall time from `go` to `bestmove`, as a GUI charges it.
/// Returns the least time either clock held after a move and the share of the clock used.
fn uci_clock_game(control_ms: u64, per_control: Option<u64>, inc_ms: u64, moves: usize) -> (i64, f64) {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok", 10);
    let mut clocks = [control_ms as i64; 2];
    let (mut played, mut given) = (Vec::<String>::new(), 0i64);
    let mut least = i64::MAX;
    for ply in 0..moves {
        let side = ply % 2;
        let to_go = per_control.map(|c| format!(" movestogo {}", c - (ply as u64 / 2) % c)).unwrap_or_default();
        e.send(&format!("position startpos moves {}", played.join(" ")));
        e.ask("isready", "readyok");
        let go = format!("go wtime {} btime {} winc {inc_ms} binc {inc_ms}{to_go}", clocks[0], clocks[1]);
        let start = Instant::now();
        let best = e.ask(&go, "bestmove");
        let spent = start.elapsed().as_millis() as i64;
        clocks[side] -= spent;
        assert!(clocks[side] > 0, "move {ply}: {spent} ms spent, the clock fell; after `{go}`");
        least = least.min(clocks[side]);
        clocks[side] += inc_ms as i64;
        given += spent;
        if per_control.is_some_and(|c| (ply as u64 / 2 + 1) % c == 0) {
            clocks[side] += control_ms as i64;
        }
        let mv = best.split_whitespace().nth(1).expect("a move").to_string();
        if mv == "0000" {
            break;
        }
        played.push(mv);
    }
    e.send("quit");
    let budget = (control_ms + inc_ms * moves as u64 / 2) as f64 * 2.0;
    (least, given as f64 / budget)
}

#[test]
fn uci_clock_moves_to_go_never_flags_and_spends_the_time() {
    // 10 moves in 2 s for each side, over two controls: the last move before each control
    // has its own clock alone, and the engine must still answer in time.
    let (least, used) = uci_clock_game(2_000, Some(10), 0, 40);
    assert!(least > 0, "{least}");
    // Measured in time, not in depth: most of the time given is used (not wasted at once).
    assert!(used > 0.25, "only {:.0}% of the clock used", used * 100.0);
}

#[test]
fn uci_clock_sudden_death_with_increment_never_flags() {
    let (least, used) = uci_clock_game(1_500, None, 50, 40);
    assert!(least > 0, "{least}");
    assert!(used > 0.1, "only {:.0}% of the clock used", used * 100.0);
}

#[test]
fn uci_movetime_is_kept() {
    let mut e = Engine::start(&["uci"]);
    e.send("uci");
    e.until("uciok", 10);
    for moves in ["", "e2e4", "e2e4 c7c5 g1f3"] {
        e.send(&format!("position startpos moves {moves}"));
        e.ask("isready", "readyok");
        let start = Instant::now();
        e.ask("go movetime 300", "bestmove");
        let spent = start.elapsed();
        // Never early; late only by what a loaded machine adds (release builds measure a few
        // ms: docs/play.md).
        assert!(spent >= Duration::from_millis(300) && spent < Duration::from_millis(600), "{spent:?}");
    }
    e.send("quit");
}

#[test]
fn xboard_level_and_time_never_flag() {
    let mut e = Engine::start(&["xboard"]);
    e.send("xboard\nprotover 2");
    e.until("feature done=1", 10);
    // 10 moves in 3 s; the engine plays Black against the moves given, charged wall time.
    e.send("new\nlevel 10 0:03 0\nforce");
    let mut clock = 3_000i64;
    let (mut given, mut played) = (0, 0i64);
    let white = ["e2e4", "g1f3", "f1c4", "b1c3", "d2d3", "c1g5", "h2h3", "a2a3", "d1d2", "e1c1", "h1e1", "g2g4"];
    let mut prev = String::new();
    for (n, w) in white.iter().enumerate() {
        // A move the engine's last move made illegal ends the game here.
        e.send(&format!("usermove {w}\nping {n}"));
        let answer = e.until("pong", 10);
        if answer.iter().any(|l| l.starts_with("Illegal")) {
            break;
        }
        e.send(&format!("time {}\notim 300", clock / 10));
        let start = Instant::now();
        e.send("go");
        let mv = e.until("move ", 30).pop().unwrap();
        let spent = start.elapsed().as_millis() as i64;
        clock -= spent;
        given += spent;
        played += 1;
        assert!(clock > 0, "Black's move {n} ({mv}) took {spent} ms; the clock fell (last move {prev})");
        if (n + 1) % 10 == 0 {
            clock += 3_000;
        }
        e.send("force");
        prev = mv;
    }
    // The clock is used, not hoarded: about 300 ms a move are due (3 s for 10 moves). How many
    // moves are played depends on the engine's moves (a given White move may turn illegal).
    assert!(played >= 3 && given > 100 * played, "only {given} ms of the clock used in {played} moves");
    e.send("quit");
}
