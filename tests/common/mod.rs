//! Helpers shared by the integration tests: loading bundled variants.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use varia_interpreter::{Position, Rules};

/// The workspace root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Loads `variants/NAME` and compiles it, panicking with the diagnostics if it is invalid.
pub fn rules(name: &str) -> Arc<Rules> {
    let path = root().join("variants").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    match varia_grammar::load(&text) {
        Ok(v) => Arc::new(Rules::new(v)),
        Err(d) => panic!("{}: {d:?}", path.display()),
    }
}

/// A position of the variant from a position string, or the start when `text` is `start`.
pub fn position(rules: &Arc<Rules>, text: &str) -> Position {
    if text == "start" {
        Position::start(rules.clone())
    } else {
        Position::from_position_string(rules.clone(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
    }
}

/// The legal moves of the side to move in long notation, sorted; no move may be generated twice.
pub fn legal(pos: &mut Position) -> Vec<String> {
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    let mut unique = out.clone();
    unique.dedup();
    assert_eq!(unique.len(), out.len(), "a move is generated twice in {}: {out:?}", pos.to_position_string());
    out
}

/// The legal moves in long notation, sorted: by the plain reference where the position's
/// rules are the reference's, else as [`legal`] lists them.
#[allow(dead_code)]
pub fn listed(pos: &mut Position) -> Vec<String> {
    if !pos.rules().is_reference() {
        return legal(pos);
    }
    let mut moves = Vec::new();
    pos.reference_moves(&mut moves);
    let mut out: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    out.sort();
    out
}

/// Plays moves given in any accepted notation (each must be legal: `parse_move` reads only
/// legal moves).
pub fn play(pos: &mut Position, moves: &str) {
    for m in moves.split_whitespace() {
        let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m} in {}: {e}", pos.to_position_string()));
        pos.make(mv);
    }
}

/// Every bundled variant file name, sorted.
pub fn variant_files() -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join("variants"))
        .expect("variants/")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| Path::new(n).extension().is_some_and(|x| x == "var"))
        .collect();
    out.sort();
    out
}

/// Whether the move list holds `m`.
pub fn has(moves: &[String], m: &str) -> bool {
    moves.iter().any(|x| x == m)
}

/// The moves starting with `prefix` (a piece letter and its cell, such as `NAc1` or `Ra1.5`).
pub fn from<'a>(moves: &'a [String], prefix: &str) -> Vec<&'a str> {
    moves.iter().filter(|m| m.starts_with(prefix)).map(|m| m.as_str()).collect()
}

/// The destinations of the moves starting with `prefix`.
pub fn targets(moves: &[String], prefix: &str) -> std::collections::BTreeSet<String> {
    from(moves, prefix).iter().map(|m| m[prefix.len()..].trim_start_matches(['-', 'x']).to_string()).collect()
}

/// The moves of a game file: `{comments}`, move numbers (`1.`, `3...`, `4`) and results skipped.
pub fn game_moves(name: &str) -> Vec<String> {
    let path = root().join("tests").join("games").join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut plain = String::new();
    let mut depth = 0usize;
    for ch in text.chars() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ if depth == 0 => plain.push(ch),
            _ => plain.push(' '),
        }
    }
    plain
        .split_whitespace()
        .filter(|t| !t.chars().all(|c| c.is_ascii_digit() || c == '.'))
        .filter(|t| !["1-0", "0-1", "1/2-1/2", "*"].contains(t))
        .map(str::to_string)
        .collect()
}

/// perft(2 + depth) from the start counted by two routes: after each root move and each reply,
/// perft(depth) continuing in the same position object (make/unmake) and from a fresh position
/// read from its position string, which must write back the same string and hash. Any state
/// make/unmake keeps but the string loses (or the reverse) shows as a mismatch. Returns the total.
pub fn perft_two_routes(name: &str, depth: u32) -> u64 {
    let rules = self::rules(name);
    let mut pos = Position::start(rules.clone());
    let (mut made_total, mut fresh_total) = (0, 0);
    let mut first = Vec::new();
    pos.legal_moves(&mut first);
    for m1 in first {
        pos.make(m1);
        let mut second = Vec::new();
        pos.legal_moves(&mut second);
        for m2 in second {
            pos.make(m2);
            let made = varia_interpreter::perft(&mut pos, depth);
            let text = pos.to_position_string();
            let mut fresh = Position::from_position_string(rules.clone(), &text).expect("own string");
            assert_eq!(fresh.to_position_string(), text, "{name}");
            assert_eq!(fresh.hash(), pos.hash(), "{name}: {text}");
            let again = varia_interpreter::perft(&mut fresh, depth);
            assert_eq!(made, again, "{name}: {text}");
            made_total += made;
            fresh_total += again;
            pos.unmake();
        }
        pos.unmake();
    }
    assert_eq!(made_total, fresh_total, "{name}");
    made_total
}

/// The knight of a bundled game's text (its `leap 2 1`) rewritten as its eight move programs.
pub fn with_program_knight(text: &str) -> String {
    assert!(text.contains("  leap 2 1\n"), "the game has a 2,1 leaper");
    text.replacen("  leap 2 1\n", &program_knight(), 1)
}

/// The eight move programs of a knight, one line each.
pub fn program_knight() -> String {
    ["n n e", "n n w", "s s e", "s s w", "e e n", "e e s", "w w n", "w w s"]
        .iter()
        .map(|p| format!("  move {{ {p} verify not friend add }}\n"))
        .collect()
}

/// Chess with a knight and a pawn in each hand: drops (knights anywhere empty, pawns neither on
/// their first rank nor on the promotion rank) compose with castling, en passant, promotion and
/// check. Built from variants/chess.var as tools/fsf-variants.ini's `dropchess` describes it.
pub fn drop_chess_text() -> String {
    let chess = std::fs::read_to_string(root().join("variants/chess.var")).expect("chess.var");
    chess
        .replacen("zone pawn-start {", "zone back {\n  white: rank 1\n  black: rank 8\n}\n\nzone pawn-start {", 1)
        .replacen("  leap 2 1\n", "  leap 2 1\n  drop { verify empty add }\n", 1)
        .replacen(
            "  promote in promotion to Q R B N\n",
            "  promote in promotion to Q R B N\n  drop { verify empty verify not in(promotion) verify not in(back) add }\n",
            1,
        )
        .replacen("  castling K Q k q\n", "  castling K Q k q\n  hand white: N 1, P 1\n  hand black: N 1, P 1\n", 1)
}

/// The legal moves in Fairy-Stockfish's UCI form (start and destination cells, a lower-case
/// promotion or gated piece letter), sorted.
pub fn uci(pos: &mut Position) -> Vec<String> {
    let rules = pos.rules().clone();
    let mut moves = Vec::new();
    pos.legal_moves(&mut moves);
    let mut out: Vec<String> = moves
        .iter()
        .map(|m| {
            // A pass: the royal piece to its own cell (`e2e2`).
            if let Some(king) = pos.pass_cell(*m) {
                return format!("{}{}", rules.cell_name(king), rules.cell_name(king));
            }
            if m.kind == varia_interpreter::MoveKind::Drop {
                let letter = rules.variant.pieces[rules.type_of(m.piece).0 as usize].letter;
                // Promoted side up, as Fairy-Stockfish writes it (`+P@b2`).
                let sign = m.promotion().filter(|t| rules.uci_promotion(rules.type_of(m.piece), *t) == "+");
                return format!("{}{letter}@{}", if sign.is_some() { "+" } else { "" }, rules.cell_name(m.to));
            }
            let promo = m.promotion().map(|t| rules.uci_promotion(rules.type_of(m.piece), t)).unwrap_or_default();
            // A gated piece's letter follows; castling gated on the rook's cell is written from
            // there to the king's (`h1e1h`).
            let gate = pos.gate_of(*m);
            let letter = gate.map(|(_, t)| rules.variant.pieces[t.0 as usize].letter.to_ascii_lowercase());
            let gate_text = letter.map(String::from).unwrap_or_default();
            if m.kind == varia_interpreter::MoveKind::Castle {
                let c = rules.castling(m.extra);
                if gate.is_some_and(|(cell, _)| cell == c.partner_from) {
                    return format!("{}{}{gate_text}", rules.cell_name(c.partner_from), rules.cell_name(c.king_from));
                }
            }
            format!("{}{}{promo}{gate_text}", rules.cell_name(m.from), rules.cell_name(m.to))
        })
        .collect();
    out.sort();
    out
}

/// A move list as a set (each move's debug text, sorted): the fast paths may list the moves
/// of a piece in another order than the walk.
#[allow(dead_code)]
pub fn as_set(moves: &[varia_interpreter::Move]) -> Vec<String> {
    let mut texts: Vec<String> = moves.iter().map(|m| format!("{m:?}")).collect();
    texts.sort();
    texts
}

/// `text`'s rules: with every fast path, without each of `without`, and the reference.
pub fn every_rules(text: &str, without: &[varia_interpreter::paths::Path]) -> Vec<Arc<Rules>> {
    let variant = varia_grammar::load(text).unwrap_or_else(|e| panic!("{e:?}"));
    let mut all = vec![Rules::new(variant.clone())];
    all.extend(without.iter().map(|p| Rules::without(variant.clone(), &[*p])));
    all.push(Rules::reference(variant));
    all.into_iter().map(Arc::new).collect()
}

/// The start position's moves (long forms, sorted) and its perft at `depth`, by the plain
/// reference where `rules` are the reference's, else by the generator play and search use.
#[allow(dead_code)]
pub fn start_moves_and_perft(rules: &Arc<Rules>, depth: u32) -> (Vec<String>, u64) {
    let mut pos = Position::start(rules.clone());
    let mut moves = Vec::new();
    let n = if rules.is_reference() {
        pos.reference_moves(&mut moves);
        pos.reference_perft(depth)
    } else {
        pos.legal_moves(&mut moves);
        varia_interpreter::perft(&mut pos, depth)
    };
    let mut written: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
    written.sort();
    (written, n)
}

/// A property test's configuration: `cases` runs from a fixed seed, so that every run of the
/// suite tests the same games (`PROPTEST_RNG_SEED=N` explores others; the fuzz target
/// `varia-fuzz differential` is where random search goes on).
#[allow(dead_code)]
pub fn proptest_config(cases: u32) -> proptest::test_runner::Config {
    let seed = std::env::var("PROPTEST_RNG_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x0076_6172_6961);
    proptest::test_runner::Config {
        cases,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..proptest::test_runner::Config::default()
    }
}

/// Asserts that the position is legal: the side that just moved left none of its royal pieces
/// attacked (hand-written positions whose moves are snapshotted).
pub fn assert_not_left_in_check(pos: &Position) {
    let mover = pos.side_to_move();
    let other = varia_interpreter::ir::PlayerId(1 - mover.0);
    assert!(
        pos.royal_cells(other).all(|c| !pos.is_attacked(c, mover)),
        "{}: the side not to move is in check",
        pos.to_position_string()
    );
}

/// `white`, `black` or `draw`, as the fixtures of tests/fsf_results write a result.
pub fn result_name(result: varia_interpreter::GameResult) -> &'static str {
    match result {
        varia_interpreter::GameResult::Win(p) if p.0 == 0 => "white",
        varia_interpreter::GameResult::Win(_) => "black",
        varia_interpreter::GameResult::Draw => "draw",
    }
}

/// Replays every game of a fixture of tests/fsf_results (tools/fsf-results.py): the number of
/// legal moves at each position and the result at the end must be pyffish's. Returns the games
/// and positions compared.
pub fn replay_fsf_games(rules: Arc<Rules>, fixture: &str) -> (usize, usize) {
    let path = root().join("tests/fsf_results").join(fixture);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (mut games, mut positions) = (0, 0);
    for block in text.split("\n\n").filter(|b| b.contains("start ")) {
        let field = |key: &str| {
            block.lines().find_map(|l| l.strip_prefix(key).map(str::trim)).unwrap_or_else(|| panic!("{key} in {block}"))
        };
        let start = field("start ");
        let moves: Vec<&str> = field("moves").split_whitespace().collect();
        let counts: Vec<usize> = field("counts").split_whitespace().map(|n| n.parse().unwrap()).collect();
        let result = field("result ").split_whitespace().next().unwrap();
        let mut pos = Position::from_position_string(rules.clone(), start).unwrap();
        for (k, want) in counts.iter().enumerate() {
            let legal = uci(&mut pos);
            assert_eq!(legal.len(), *want, "{fixture}: {start} after {:?}: {legal:?}", &moves[..k]);
            positions += 1;
            if let Some(m) = moves.get(k) {
                let mv = pos.parse_move(m).unwrap_or_else(|e| panic!("{m}: {e}"));
                pos.make(mv);
            }
        }
        let got = pos.outcome().map_or("none", |(r, _)| result_name(r));
        assert_eq!(got, result, "{fixture}: {start} after {}", moves.join(" "));
        games += 1;
    }
    (games, positions)
}
