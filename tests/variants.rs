//! Snapshots over every bundled variant: its IR, and its legal moves at the start.

mod common;

#[test]
fn ir_of_every_variant() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        insta::assert_yaml_snapshot!(format!("ir-{name}"), rules.variant);
    }
}

#[test]
fn start_moves_of_every_variant() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let mut pos = varia_interpreter::Position::start(rules);
        let mut moves = Vec::new();
        pos.legal_moves(&mut moves);
        let list: Vec<String> = moves.iter().map(|m| pos.long_notation(*m)).collect();
        insta::assert_snapshot!(format!("start-moves-{name}"), list.join("\n"));
    }
}

#[test]
fn start_position_strings_round_trip() {
    for name in common::variant_files() {
        let rules = common::rules(&name);
        let pos = varia_interpreter::Position::start(rules.clone());
        let text = pos.to_position_string();
        let back = common::position(&rules, &text);
        assert_eq!(back.to_position_string(), text, "{name}");
        assert_eq!(back.hash(), pos.hash(), "{name}");
    }
}

/// Every weights file beside a bundled variant (compiled in, read by play, match, uci and
/// serve) names that variant and only pieces and terms it has, with weights in range.
#[test]
fn weights_files_of_bundled_variants_fit_them() {
    let mut found = 0;
    for name in common::variant_files() {
        let stem = name.strip_suffix(".var").unwrap_or(&name);
        let path = common::root().join("variants").join(format!("{stem}.weights.toml"));
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        found += 1;
        let rules = common::rules(&name);
        let weights: varia_interpreter::Weights =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(weights.variant, rules.variant.title, "{}", path.display());
        let eval = varia_interpreter::Evaluator::with_weights(&rules, &weights)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        // Every weight the file sets is the one the evaluation uses.
        for (term, w) in &weights.terms {
            assert_eq!(eval.weights().terms[term], *w, "{}: {term}", path.display());
        }
        assert_eq!(eval.weights().contempt, weights.contempt, "{}", path.display());
    }
    assert!(found >= 3, "only {found} weights files beside the bundled variants");
}
