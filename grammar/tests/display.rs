//! The `display` block: what it lowers to, and its errors located by line and column (parse
//! errors and names the board or players do not have), rendered and snapshotted.

use varia_grammar::{line_col, Diagnostic};
use varia_interpreter::ir::{CellId, PlayerId, River};

/// A small variant with `display` as its display block.
fn text(display: &str) -> String {
    format!(
        r#"variant "Display"
board {{ grid 5 x 6 }}
player white
player black swap n <-> s  ne <-> se  nw <-> sw
{display}
piece King K {{ royal step all }}
setup {{
  white: K c1
  black: K c6
}}
"#
    )
}

/// Renders diagnostics as the command line does: message, location, the line and the label.
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

fn errors(text: &str) -> String {
    match varia_grammar::load(text) {
        Ok(_) => panic!("expected errors:\n{text}"),
        Err(diags) => {
            for d in &diags {
                assert!(d.span.start <= d.span.end && d.span.end <= text.len(), "{d:?}");
                assert!(d.label.contains("expected"), "no `expected` in the label of {d:?}");
            }
            render(text, &diags)
        }
    }
}

#[test]
fn a_display_block_lowers_to_points_lines_rivers_and_turned_players() {
    let v = varia_grammar::load(&text(
        "display {\n  points\n  line b1 d3\n  river c4 c3 \"River\"\n  upside-down black\n}",
    ))
    .unwrap();
    let at = |name: &str| CellId(v.board.cells.iter().position(|c| c.name == name).unwrap() as u16);
    assert!(v.display.points);
    assert_eq!(v.display.lines, vec![(at("b1"), at("d3"))]);
    // The lower row first, whichever order the file names them in.
    assert_eq!(v.display.rivers, vec![River { below: at("c3"), above: at("c4"), label: "River".into() }]);
    assert_eq!(v.display.upside_down, vec![PlayerId(1)]);
}

#[test]
fn without_a_display_block_the_display_is_plain() {
    assert!(varia_grammar::load(&text("")).unwrap().display.is_plain());
}

#[test]
fn a_display_rule_the_language_does_not_have() {
    insta::assert_snapshot!(errors(&text("display {\n  points\n  squares\n}")));
}

#[test]
fn a_line_with_one_cell() {
    insta::assert_snapshot!(errors(&text("display { line b1 }")));
}

#[test]
fn unknown_cells_and_players() {
    insta::assert_snapshot!(errors(&text("display {\n  line b1 z9\n  river a7 a6\n  upside-down red\n}")));
}

#[test]
fn a_river_between_rows_that_are_not_neighbours() {
    insta::assert_snapshot!(errors(&text("display {\n  river a1 a3 \"wide\"\n  line c2 c2\n}")));
}

#[test]
fn two_display_blocks() {
    insta::assert_snapshot!(errors(&text("display { points }\ndisplay { upside-down black\n upside-down black }")));
}
