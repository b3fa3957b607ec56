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
