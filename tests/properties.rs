//! Random-playout properties over every bundled variant: hashes stay incremental-equal,
//! position strings round-trip, unmake restores, and garbage input never panics.

mod common;

use varia_interpreter::Position;

/// A small deterministic generator (xorshift64*), so failures reproduce.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

#[test]
fn random_playouts_keep_state_consistent() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        for _game in 0..200 {
            let mut pos = Position::start(rules.clone());
            let start = pos.to_position_string();
            let mut moves = Vec::new();
            let mut plies = 0;
            while plies < 300 && pos.outcome().is_none() {
                pos.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                let before = pos.to_position_string();
                pos.make(mv);
                assert_eq!(pos.hash(), pos.compute_hash(), "{name}: hash after {}", pos.to_position_string());
                let text = pos.to_position_string();
                let back = Position::from_position_string(rules.clone(), &text).expect("own output reads back");
                assert_eq!(back.to_position_string(), text, "{name}");
                assert_eq!(back.hash(), pos.hash(), "{name}: {text}");
                if plies % 7 == 0 {
                    pos.unmake();
                    assert_eq!(pos.to_position_string(), before, "{name}: unmake");
                    pos.make(mv);
                }
                plies += 1;
            }
            while pos.ply() > 0 {
                pos.unmake();
            }
            assert_eq!(pos.to_position_string(), start, "{name}: full unwind");
        }
    }
}

/// In random games of every variant, the long and the short form of every legal move read
/// back as that move, and no two legal moves share a long form.
#[test]
fn every_written_move_reads_back() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut rng = Rng(0x0123_4567_89AB_CDEF);
        for _game in 0..12 {
            let mut pos = Position::start(rules.clone());
            let mut moves = Vec::new();
            for _ply in 0..100 {
                if pos.outcome().is_some() {
                    break;
                }
                pos.legal_moves(&mut moves);
                let mut longs: Vec<String> = Vec::new();
                for &mv in &moves {
                    let long = pos.long_notation(mv);
                    let short = pos.short_notation(mv, &moves);
                    for text in [&long, &short] {
                        let back = pos.parse_move(text);
                        assert_eq!(back, Ok(mv), "{name}: `{text}` in {}", pos.to_position_string());
                    }
                    assert!(!longs.contains(&long), "{name}: two moves written {long}");
                    longs.push(long);
                }
                pos.make(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn garbage_position_strings_and_moves_never_panic() {
    let rules = common::rules("chess.var");
    let mut rng = Rng(42);
    let alphabet: Vec<char> = "rnbqkpRNBQKP12345678/ -wbKQkq*|e3,x0123456789abcdefgh+#=O".chars().collect();
    for _ in 0..20_000 {
        let len = rng.below(70);
        let text: String = (0..len).map(|_| alphabet[rng.below(alphabet.len())]).collect();
        if let Ok(mut pos) = Position::from_position_string(rules.clone(), &text) {
            let _ = pos.to_position_string();
            let _ = pos.parse_move(&text);
        }
        let mut pos = Position::start(rules.clone());
        let _ = pos.parse_move(&text);
    }
}

#[test]
fn garbage_variant_texts_never_panic() {
    let text = std::fs::read_to_string(common::root().join("variants/chess.var")).expect("chess.var");
    let mut rng = Rng(7);
    for _ in 0..300 {
        // Cut, duplicate or delete a random slice of a valid file.
        let mut t: Vec<char> = text.chars().collect();
        let a = rng.below(t.len());
        let b = (a + rng.below(40)).min(t.len());
        match rng.below(3) {
            0 => {
                t.drain(a..b);
            }
            1 => {
                let piece: Vec<char> = t[a..b].to_vec();
                let at = rng.below(t.len());
                t.splice(at..at, piece);
            }
            _ => t.truncate(a),
        }
        let t: String = t.into_iter().collect();
        if let Ok(v) = varia_grammar::load(&t) {
            let rules = std::sync::Arc::new(varia_interpreter::Rules::new(v));
            let mut pos = Position::start(rules);
            let _ = varia_interpreter::perft(&mut pos, 2);
        }
    }
}
