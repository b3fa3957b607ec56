//! Errors in the version 5 constructs (programs, tests, names, hands, turn orders, goals, single
//! cells): each is a located diagnostic with an "expected ..." label, rendered and snapshotted.

use varia_grammar::{line_col, Diagnostic};

/// The base variant with `top` after the players, `pieces` among the pieces, `setup` inside the
/// setup block and `end` inside an end block.
fn text(top: &str, pieces: &str, setup: &str, end: &str) -> String {
    format!(
        r#"variant "Errors"
board {{ grid 4 x 4 }}
player white
player black swap n <-> s  ne <-> se  nw <-> sw
zone last-rank {{ white: rank 4  black: rank 1 }}
{top}
piece King K {{ royal step all }}
{pieces}
setup {{
  white: K a1
  black: K d4
  {setup}
}}
end {{ {end} }}
"#
    )
}

/// Renders diagnostics as the command line does, in plain text: message, location, the line
/// and the label under the span.
fn render(text: &str, diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        let (line, col) = line_col(text, d.span.start);
        let source = text.lines().nth(line - 1).unwrap_or("");
        let width =
            text[d.span.clone()].chars().count().clamp(1, source.chars().count().saturating_sub(col - 1).max(1));
        out.push_str(&format!("error: {}\n --> {line}:{col}\n  |\n", d.message));
        out.push_str(&format!("  | {source}\n"));
        out.push_str(&format!("  | {}{} {}\n", " ".repeat(col - 1), "^".repeat(width), d.label));
    }
    out
}

/// The rendered errors of a text that must not load.
fn errors(text: &str) -> String {
    match varia_grammar::load(text) {
        Ok(_) => panic!("expected errors:\n{text}"),
        Err(diags) => {
            assert!(!diags.is_empty());
            for d in &diags {
                assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?}");
                assert!(d.label.contains("expected"), "no `expected` in the label of {d:?}");
            }
            render(text, &diags)
        }
    }
}

fn piece(body: &str) -> String {
    text("", &format!("piece Pawn P {{\n  {body}\n}}"), "", "")
}

#[test]
fn unknown_direction_or_cell_in_a_program() {
    insta::assert_snapshot!(errors(&piece("move { n nn verify empty add }")));
}

#[test]
fn a_direction_set_is_not_a_place() {
    insta::assert_snapshot!(errors(&piece("move { verify empty(orthogonal) add }")));
}

#[test]
fn unknown_piece_zone_and_cell_in_tests() {
    insta::assert_snapshot!(errors(&piece("move { n verify piece(Z) verify in(first-rank) verify at(e9) add(Q) }")));
}

#[test]
fn else_without_if() {
    insta::assert_snapshot!(errors(&piece("move { n verify empty add else { add } }")));
}

#[test]
fn then_after_a_plain_add() {
    insta::assert_snapshot!(errors(&text("move-types slow", "piece Pawn P { move slow { n add then slow } }", "", "")));
}

#[test]
fn create_arguments_out_of_order() {
    insta::assert_snapshot!(errors(&piece("move { create(piece: P, owner: white) add }")));
}

#[test]
fn a_reserved_word_used_as_a_bare_place() {
    let t = r#"variant "Back"
board { grid 2 x 2  direction back offset 0 -1 0 }
player white
player black
piece King K { royal move { back verify empty add } }
setup { white: K a2  black: K b1 }
"#;
    insta::assert_snapshot!(errors(t));
}

#[test]
fn unknown_attribute_and_flag() {
    insta::assert_snapshot!(errors(&piece(
        "attribute never-moved set\n  move { verify attribute(never-movd) verify flag(jumped) add }"
    )));
}

#[test]
fn unknown_move_type() {
    insta::assert_snapshot!(errors(&text(
        "priorities capture",
        "piece Pawn P { move capture { add } move { verify attacked-by(captures) add-partial then quick } }",
        "",
        ""
    )));
}

#[test]
fn duplicate_names_in_declarations() {
    insta::assert_snapshot!(errors(&text("move-types a b a\nflags x x", "", "", "")));
}

#[test]
fn too_many_move_types() {
    let names: Vec<String> = (0..256).map(|i| format!("t{i}")).collect();
    let t = text(&format!("move-types {}", names.join(" ")), "", "", "");
    let diags = varia_grammar::load(&t).expect_err("too many move types");
    assert_eq!(diags.len(), 1, "{diags:?}");
    assert_eq!(&t[diags[0].span.clone()], "t255", "the 256th name is the one too many");
    insta::assert_snapshot!(format!("{}\n{}", diags[0].message, diags[0].label));
}

#[test]
fn empty_turn_orders() {
    insta::assert_snapshot!(errors(&text("turn-order { }", "", "", "")));
    insta::assert_snapshot!("repeat_nothing", errors(&text("turn-order { white black repeat }", "", "", "")));
}

#[test]
fn unknown_player_in_turn_order_hand_and_goal() {
    insta::assert_snapshot!(errors(&text(
        "turn-order { white red }",
        "",
        "hand green: K 1",
        "goal white blue loss: pieces-remaining 1"
    )));
}

#[test]
fn bad_hands() {
    insta::assert_snapshot!(errors(&text("", "", "hand white: K 0, X 2", "")));
}

#[test]
fn bad_goals() {
    insta::assert_snapshot!(errors(&text(
        "",
        "",
        "",
        "goal white white win: captured K\n  goal black win: config(own K at middle) or repetition 0"
    )));
}

#[test]
fn bad_single_cells_and_unlinks() {
    let t = r#"variant "Cells"
board {
  grid 2 x 2
  cell a1 at 5 5
  cell hub at 1 1
  cell far at 99999 0
  unlink a1 s
  unlink zz n
}
player white
player black
piece King K { royal step all }
setup { white: K a1  black: K b2 }
"#;
    insta::assert_snapshot!(errors(t));
}

#[test]
fn parse_errors_name_an_instruction_or_a_test() {
    insta::assert_snapshot!("missing_instruction", errors(&piece("move { n verify empty 3 }")));
    insta::assert_snapshot!("missing_test", errors(&piece("move { n verify }")));
    insta::assert_snapshot!("missing_goal_test", errors(&text("", "", "", "goal white win: )")));
    insta::assert_snapshot!(
        "unclosed_program",
        errors(&piece("move { n verify empty add\npiece Rook R { slide orthogonal }"))
    );
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let deep = |n: usize| piece(&format!("move {{ verify {}empty{} add }}", "(".repeat(n), ")".repeat(n)));
    assert!(varia_grammar::load(&deep(90)).is_ok());
    assert!(varia_grammar::load(&deep(100_000)).is_err());
    insta::assert_snapshot!(errors(&deep(120)));
    let nots = piece(&format!("move {{ verify {}empty add }}", "not ".repeat(100_000)));
    assert!(varia_grammar::load(&nots).is_err());
}

/// Issue 20, item 2: each `else if` link nests the rest of the chain one level deeper, in the
/// parser, the lowering and the IR; a chain of 12,000 links overflowed the stack.
#[test]
fn long_else_if_chains_are_bounded_like_nesting() {
    let chain = |n: usize| {
        let links = "else if empty(e) { e add } ".repeat(n);
        piece(&format!("move {{ if empty(n) {{ n add }} {links}else {{ s add }} }}"))
    };
    // Inside `piece { move { ... { e add } } }`, 97 links are the longest chain allowed.
    let variant = varia_grammar::load(&chain(97)).expect("a chain of 97 links loads");
    let pawn = variant.pieces.iter().find(|p| p.name == "Pawn").expect("the pawn");
    let mut depth = 0;
    let mut body = &pawn.programs[0].body;
    while let [varia_interpreter::ir::Instr::If(_, _, otherwise)] = body.as_slice() {
        depth += 1;
        body = otherwise;
    }
    assert_eq!(depth, 98, "the first `if` and 97 links");
    assert_eq!(body.len(), 2, "the final `else` block: `s add`");
    insta::assert_snapshot!(errors(&chain(98)));
    assert!(varia_grammar::load(&chain(12_000)).is_err());
    // Chains one after another, or ended by another instruction, do not add up.
    let two = piece(&format!(
        "move {{ if empty(n) {{ n add }} {a}\n  if empty(s) {{ s add }} {a}add }}",
        a = "else if empty(e) { e add } ".repeat(90)
    ));
    assert!(varia_grammar::load(&two).is_ok(), "{:?}", varia_grammar::load(&two).err());
}

#[test]
fn no_input_panics() {
    // Truncations of a file using every construct must give errors, never a panic.
    let full = text(
        "move-types normal\nflags f\nattributes a\npriorities normal\nturn-order { white repeat black white:normal }\npass-partial",
        "piece Pawn P {\n  attribute a set\n  drop-supply hand\n  move normal { n verify (empty or enemy(e)) and not attacked if in(last-rank) { add(K) } else { set-flag f true add-partial then normal } }\n  drop { verify empty add }\n}",
        "hand white: P 2",
        "goal white black loss: pieces-remaining 1 P or config(own K at last-rank a1)",
    );
    assert!(varia_grammar::load(&full).is_ok(), "{:?}", varia_grammar::load(&full).err());
    for cut in (0..full.len()).filter(|i| full.is_char_boundary(*i)) {
        let _ = varia_grammar::load(&full[..cut]);
    }
}
