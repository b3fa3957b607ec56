//! Reading one move costs about as much as listing the moves: in a Zillions game of 21,600 drops,
//! the protocols' move table (`moves --uci`, `--after`, UCI, XBoard) and the notation's reader
//! find a move in time proportional to the list, and every text read back is its own move's.
//! Over the shared Zillions files, the protocols' texts are each one move's, and the texts
//! `moves` prints are the game `replay` reads.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use varia_interpreter::{Position, Rules};

/// A 30x30 board (files a-z, aa-ad; ranks 1-30) and 25 piece types, each dropped anywhere
/// empty; P0 is given to nobody (`off 0`), so 24 types x 900 cells = 21,600 drops.
fn drops_game() -> Position {
    let files: Vec<String> =
        (b'a'..=b'z').map(|c| (c as char).to_string()).chain(["aa", "ab", "ac", "ad"].map(String::from)).collect();
    let ranks: Vec<String> = (1..=30).rev().map(|r| r.to_string()).collect();
    let pieces: String = (0..25).map(|i| format!("(piece (name P{i}) (drops ((verify empty?) add)))\n")).collect();
    let text = format!(
        r#"(game (title "drops") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("{}" (10 0)) ("{}" (0 10)))
    (directions (n 0 -1) (e 1 0))))
  {pieces}
  (board-setup (White (P0 off 0)) (Black (P0 off 0))))"#,
        files.join("/"),
        ranks.join("/")
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

/// The shortest of three timings of `f` (the machine is shared: the least disturbed run).
fn fastest(mut f: impl FnMut()) -> Duration {
    (0..3)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .expect("three runs")
}

#[test]
fn the_protocol_table_of_twenty_thousand_drops_is_built_and_read_in_linear_time() {
    let mut pos = drops_game();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(legal.len(), 21_600);
    let table = varia::uci::move_table(&mut pos);
    let mut texts: Vec<&str> = table.iter().map(|(_, t)| t.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), table.len(), "every drop has its own text");
    // A sample across the list reads back as its own move, through the table and the notation.
    for (mv, text) in table.iter().step_by(997) {
        assert_eq!(varia::uci::read_move(&mut pos, text).as_ref(), Ok(mv), "`{text}`");
        let long = pos.long_notation(*mv);
        assert_eq!(pos.parse_move(&long), Ok(*mv), "`{long}`");
    }
    let (mv, text) = table[table.len() * 2 / 3].clone();
    let listing = fastest(|| {
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        for m in &moves {
            std::hint::black_box(pos.long_notation(*m));
        }
    });
    let reading = fastest(|| assert_eq!(varia::uci::read_move(&mut pos, &text), Ok(mv)));
    let parsing = fastest(|| assert_eq!(pos.parse_move(&text), Ok(mv)));
    eprintln!("listing {listing:?}, reading through the table {reading:?}, through the notation {parsing:?}");
    // Counting each text against every other (quadratic) took about 1,000 listings; a linear
    // table takes a few. The bound leaves room for a loaded machine.
    for (what, took) in [("the table", reading), ("the notation", parsing)] {
        assert!(
            took < listing * 20 + Duration::from_millis(20),
            "reading `{text}` through {what} took {took:?}, listing the moves with their texts {listing:?}"
        );
    }
}

/// 60 White queens spread over the 30x30 board of [`drops_game`] (Zillions slides), one Black
/// queen: 2,431 moves, several to most cells.
fn queens_game() -> Position {
    let files: Vec<String> =
        (b'a'..=b'z').map(|c| (c as char).to_string()).chain(["aa", "ab", "ac", "ad"].map(String::from)).collect();
    let ranks: Vec<String> = (1..=30).rev().map(|r| r.to_string()).collect();
    let cells: Vec<String> = (0..60).map(|i| format!("{}{}", files[(i * 7) % 30], ranks[(i * 11) % 30])).collect();
    let text = format!(
        r#"(define slide ($1 (while empty? add $1)))
(game (title "queens") (players White Black) (turn-order White Black)
  (board (grid (start-rectangle 0 0 10 10) (dimensions ("{}" (10 0)) ("{}" (0 10)))
    (directions (n 0 -1) (e 1 0) (s 0 1) (w -1 0) (ne 1 -1) (nw -1 -1) (se 1 1) (sw -1 1))))
  (piece (name Queen)
    (moves (slide n) (slide e) (slide s) (slide w) (slide ne) (slide nw) (slide se) (slide sw)))
  (board-setup (White (Queen {})) (Black (Queen ad1))))"#,
        files.join("/"),
        ranks.join("/"),
        cells.join(" ")
    );
    let game = varia_zrf::load(&text, None).unwrap_or_else(|e| panic!("{}", e.render(&text)));
    Position::start(Arc::new(Rules::new(game.variant)))
}

#[test]
fn the_short_forms_of_a_long_list_are_written_in_linear_time() {
    let mut pos = queens_game();
    let mut legal = Vec::new();
    pos.legal_moves(&mut legal);
    assert_eq!(legal.len(), 2431);
    let one_by_one: Vec<String> = legal.iter().map(|m| pos.short_notation(*m, &legal)).collect();
    let all = pos.short_notations(&legal);
    assert_eq!(all, one_by_one, "the list's short forms are each move's");
    let mut texts = all.clone();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), legal.len(), "every short form is its own");
    let each = fastest(|| {
        for m in &legal {
            std::hint::black_box(pos.short_notation(*m, &legal));
        }
    });
    let listed = fastest(|| {
        std::hint::black_box(pos.short_notations(&legal));
    });
    eprintln!("short forms one by one {each:?}, as a list {listed:?}");
    // One by one, each move is told from the whole list (quadratic); the list weighs each only
    // against the moves to the cells its text names.
    assert!(listed * 2 < each, "as a list {listed:?}, one by one {each:?}");
}

/// The main game of every Zillions file of ../shared (its chess files and the Dagaz corpus) that
/// loads, with its path; empty without ../shared.
fn shared_games() -> Vec<(PathBuf, Arc<Rules>)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
        paths.sort();
        for p in paths {
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x.eq_ignore_ascii_case("zrf")) {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&common::root().join("../shared/zrf"), &mut files);
    walk(&common::root().join("../shared/zrf-corpus"), &mut files);
    files
        .into_iter()
        .filter_map(|p| varia_zrf::load_file(&p, None).ok().map(|(_, g)| (p, Arc::new(Rules::new(g.variant)))))
        .collect()
}

/// A tiny deterministic generator for the random games.
fn next(seed: &mut u64) -> usize {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    (*seed >> 33) as usize
}

/// What `moves --uci` and `varia uci` write is read back as that move by them, and by `replay`
/// and the web, which read with the notation alone.
#[test]
fn the_protocols_texts_of_the_shared_zillions_games_are_each_one_moves() {
    let games = shared_games();
    if games.is_empty() {
        eprintln!("../shared not found: skipped");
        return;
    }
    let mut seed = 50;
    for (path, rules) in &games {
        let mut pos = Position::start(rules.clone());
        for ply in 0..20 {
            let table = varia::uci::move_table(&mut pos);
            if table.is_empty() {
                break;
            }
            let mut texts: Vec<&str> = table.iter().map(|(_, t)| t.as_str()).collect();
            texts.sort_unstable();
            let twice = texts.windows(2).find(|w| w[0] == w[1]);
            assert!(twice.is_none(), "{}: ply {ply}: {twice:?} at {}", path.display(), pos.to_position_string());
            for (mv, text) in table.iter().step_by(table.len().div_ceil(20)) {
                let back = varia::uci::read_move(&mut pos, text);
                assert_eq!(
                    back.as_ref(),
                    Ok(mv),
                    "{}: ply {ply}: `{text}` at {}",
                    path.display(),
                    pos.to_position_string()
                );
                // `replay` and the web read with the notation alone: the same move.
                let back = pos.parse_move(text);
                assert_eq!(
                    back.as_ref(),
                    Ok(mv),
                    "{}: ply {ply}: `{text}` at {}",
                    path.display(),
                    pos.to_position_string()
                );
            }
            pos.make(table[next(&mut seed) % table.len()].0);
        }
    }
}

/// Games whose moves are written with more than a step: capture chains of men and flying kings
/// (Italian checkers, dameo), partial moves that go on (suzumu-shogi), a move and its shot
/// (amazons).
const WRITTEN_AT_LENGTH: [&str; 4] =
    ["checkers/italian-checkers.zrf", "checkers/dameo.zrf", "shogi-family/suzumu-shogi.zrf", "stalemate/amazons.zrf"];

#[test]
fn the_moves_that_moves_prints_are_a_game_that_replay_reads() {
    let corpus = common::root().join("../shared/zrf-corpus");
    if !corpus.is_dir() {
        eprintln!("../shared/zrf-corpus not found: skipped");
        return;
    }
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut seed = 7;
    for name in WRITTEN_AT_LENGTH {
        let path = corpus.join(name);
        let (_, game) = varia_zrf::load_file(&path, None).unwrap_or_else(|(t, e)| panic!("{}", e.render(&t)));
        let mut pos = Position::start(Arc::new(Rules::new(game.variant)));
        let mut written = Vec::new();
        for _ in 0..60 {
            let mut moves = Vec::new();
            pos.legal_moves(&mut moves);
            if moves.is_empty() || pos.outcome().is_some() {
                break;
            }
            let mv = moves[next(&mut seed) % moves.len()];
            written.push(pos.long_notation(mv));
            pos.make(mv);
        }
        eprintln!("{name}: {} moves, last {:?}", written.len(), written.last());
        let game_file = dir.path().join("game.txt");
        std::fs::write(&game_file, written.join(" ")).expect("write the game");
        let out = Command::new(env!("CARGO_BIN_EXE_varia"))
            .arg("replay")
            .arg(&path)
            .arg(&game_file)
            .output()
            .expect("run varia replay");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{name}: replay of {written:?} failed: {}", String::from_utf8_lossy(&out.stderr));
        let reached = stdout.lines().find_map(|l| l.strip_prefix("position: ")).unwrap_or_default();
        assert_eq!(reached, pos.to_position_string(), "{name}: replay of {} moves", written.len());
    }
}
