//! Property tests (proptest) over every bundled variant: along random games, make and unmake
//! restore the position and its hash, the incremental hash and piece-square sums equal the
//! computed ones, the legal moves made from the ray masks are those walked and tested one by
//! one, position strings read back as themselves, every legal move's long and short forms read
//! back as that move, and garbage position strings, moves and variant texts never panic. A
//! failing case is shrunk to a short game and kept in `proptest-regressions/`.

mod common;

use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use varia_interpreter::{Position, Rules};

/// Every bundled variant, compiled once.
fn variants() -> &'static Vec<(String, Arc<Rules>)> {
    static ALL: OnceLock<Vec<(String, Arc<Rules>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        common::variant_files()
            .into_iter()
            .filter(|f| f.ends_with(".var"))
            .map(|f| {
                let rules = common::rules(&f);
                (f, rules)
            })
            .collect()
    })
}

/// A variant (by index) and a game: each number picks one of the legal moves of its ply.
fn games(plies: usize) -> impl Strategy<Value = (usize, Vec<usize>)> {
    (0..variants().len(), proptest::collection::vec(any::<usize>(), 0..plies))
}

/// Plays `choices` in the variant, checking every invariant after each move; returns the
/// position reached.
fn play(index: usize, choices: &[usize], notations: bool) -> Result<(), TestCaseError> {
    let (name, rules) = &variants()[index];
    let mut pos = Position::start(rules.clone());
    // The board keeps the evaluation's piece-square sums, as in a search, with the passed term
    // weighed (its cache is read only where the sums are kept).
    let mut weights = varia_interpreter::Weights::defaults(rules);
    weights.terms.insert("passed".into(), [37.0, 91.0]);
    let eval = varia_interpreter::eval::Evaluator::with_weights(rules, &weights).expect("valid weights");
    pos.attach_piece_squares(&eval);
    let start = pos.to_position_string();
    let mut moves = Vec::new();
    let mut trail = Vec::new();
    for &choice in choices {
        if pos.outcome().is_some() {
            break;
        }
        pos.legal_moves(&mut moves);
        if moves.is_empty() {
            break;
        }
        if notations {
            let mut longs = std::collections::HashSet::new();
            // The list's short forms (the playground's) are each move's own.
            let shorts = pos.short_notations(&moves);
            // Of a list of hundreds of moves (each with its wall), an even sample is read back
            // (reading one generates the list): every long form is still told apart.
            let every = moves.len() / 256 + 1;
            for (k, (&mv, listed)) in moves.iter().zip(&shorts).enumerate() {
                let long = pos.long_notation(mv);
                if k % every != 0 {
                    prop_assert!(longs.insert(long.clone()), "{}: two moves written {}", name, long);
                    continue;
                }
                let short = pos.short_notation(mv, &moves);
                prop_assert_eq!(listed, &short, "{}: in {}", name, pos.to_position_string());
                for text in [&long, &short] {
                    prop_assert_eq!(
                        pos.parse_move(text),
                        Ok(mv),
                        "{}: `{}` in {}",
                        name,
                        text,
                        pos.to_position_string()
                    );
                }
                prop_assert!(longs.insert(long.clone()), "{}: two moves written {}", name, long);
            }
        }
        // Moves made from the ray masks are the moves the walk finds and tests, in its order.
        let mut walked = Vec::new();
        pos.legal_moves_by_walk(&mut walked);
        prop_assert_eq!(common::as_set(&walked), common::as_set(&moves), "{}: in {}", name, pos.to_position_string());
        // The evaluation's mobility count agrees with the list it stands for.
        let mut listed = Vec::new();
        for p in 0..rules.player_count() {
            let player = varia_interpreter::ir::PlayerId(p as u8);
            pos.pseudo_legal_moves_of(player, &mut listed);
            let counted = pos.pseudo_legal_move_count(player, &mut Vec::new());
            prop_assert_eq!(counted, listed.len(), "{}: player {} in {}", name, p, pos.to_position_string());
        }
        let mv = moves[choice % moves.len()];
        let before = (pos.to_position_string(), pos.hash());
        pos.make(mv);
        trail.push(before.clone());
        prop_assert_eq!(pos.hash(), pos.compute_hash(), "{}: hash after {}", name, pos.to_position_string());
        prop_assert!(!pos.piece_square_drift(), "{}: piece-square sums after {}", name, pos.to_position_string());
        let text = pos.to_position_string();
        let back = Position::from_position_string(rules.clone(), &text);
        prop_assert!(back.is_ok(), "{}: `{}` does not read back: {:?}", name, text, back.err());
        let back = back.expect("checked");
        prop_assert_eq!(back.to_position_string(), text.clone(), "{}", name);
        prop_assert_eq!(back.hash(), pos.hash(), "{}: {}", name, text);
        // The evaluation from the kept sums and the cache is the one from scratch.
        prop_assert_eq!(eval.evaluate(&pos), eval.evaluate(&back), "{}: evaluation of {}", name, text);
        pos.unmake();
        prop_assert_eq!((pos.to_position_string(), pos.hash()), before, "{}: unmake", name);
        pos.make(mv);
    }
    while let Some(before) = trail.pop() {
        pos.unmake();
        prop_assert_eq!((pos.to_position_string(), pos.hash()), before, "{}: unwinding", name);
        prop_assert!(!pos.piece_square_drift(), "{}: piece-square sums unwinding", name);
    }
    prop_assert_eq!(pos.to_position_string(), start, "{}: full unwind", name);
    Ok(())
}

proptest! {
    #![proptest_config(common::proptest_config(600))]

    /// Make/unmake, hashes and position strings along random games of every variant.
    #[test]
    fn random_games_keep_state_consistent((index, choices) in games(200)) {
        play(index, &choices, false)?;
    }
}

proptest! {
    #![proptest_config(common::proptest_config(120))]

    /// In random games of every variant, the long and the short form of every legal move read
    /// back as that move, and no two legal moves share a long form.
    #[test]
    fn every_written_move_reads_back((index, choices) in games(60)) {
        play(index, &choices, true)?;
    }

    /// Position strings and moves made of the characters they use, for every variant: an error
    /// or a position that writes itself back, never a panic.
    #[test]
    fn garbage_position_strings_and_moves_never_panic(
        index in 0..variants().len(),
        text in "[rnbqkpRNBQKPmMsS0-9/ wbKQ*|e3,x+#=O@()\\-{}.]{0,80}",
    ) {
        let (_, rules) = &variants()[index];
        if let Ok(mut pos) = Position::from_position_string(rules.clone(), &text) {
            let written = pos.to_position_string();
            let back = Position::from_position_string(rules.clone(), &written);
            prop_assert!(back.is_ok(), "`{}` (from `{}`) does not read back", written, text);
            let _ = pos.parse_move(&text);
        }
        let mut pos = Position::start(rules.clone());
        if let Ok(mv) = pos.parse_move(&text) {
            let mut legal = Vec::new();
            pos.legal_moves(&mut legal);
            prop_assert!(legal.contains(&mv));
        }
    }

    /// Cut, duplicate or delete a slice of a bundled variant's text: an error or a variant that
    /// plays, never a panic.
    #[test]
    fn garbage_variant_texts_never_panic(
        index in 0..variants().len(),
        edits in proptest::collection::vec((0..3u8, any::<usize>(), 0..40usize, any::<usize>()), 1..4),
    ) {
        let (name, _) = &variants()[index];
        let text = std::fs::read_to_string(common::root().join("variants").join(name)).expect("the variant");
        let mut t: Vec<char> = text.chars().collect();
        for (kind, from, len, to) in edits {
            if t.is_empty() {
                break;
            }
            let a = from % t.len();
            let b = (a + len).min(t.len());
            match kind {
                0 => {
                    t.drain(a..b);
                }
                1 => {
                    let piece: Vec<char> = t[a..b].to_vec();
                    let at = to % (t.len() + 1);
                    t.splice(at..at, piece);
                }
                _ => t.truncate(a),
            }
        }
        let t: String = t.into_iter().collect();
        if let Ok(v) = varia_grammar::load(&t) {
            let mut pos = Position::start(Arc::new(Rules::new(v)));
            let _ = varia_interpreter::perft(&mut pos, 2);
        }
    }
}
