//! The syntax tree: pest's pairs, which keep every node's rule and source span, plus friendly parse errors.

use pest::error::{ErrorVariant, InputLocation};
use pest::iterators::Pairs;
use pest::Parser;

use crate::diagnostic::Diagnostic;

/// The generated parser for `var.pest`.
#[derive(pest_derive::Parser)]
#[grammar = "var.pest"]
struct VarParser;

/// The syntax tree of a file: nested nodes, each with its [`Rule`] and span.
pub type SyntaxTree<'a> = Pairs<'a, Rule>;

/// Parses a `.var` text into its syntax tree.
pub fn parse(text: &str) -> Result<SyntaxTree<'_>, Diagnostic> {
    VarParser::parse(Rule::file, text).map_err(|e| from_pest(text, e))
}

/// How a rule is named in "expected ..." messages.
pub fn describe(rule: Rule) -> String {
    let s = match rule {
        Rule::EOI => "the end of the file",
        Rule::lbrace => "`{`",
        Rule::rbrace => "`}`",
        Rule::lparen => "`(`",
        Rule::rparen => "`)`",
        Rule::colon => "`:`",
        Rule::comma => "`,`",
        Rule::equals => "`=`",
        Rule::dotdot => "`..`",
        Rule::arrow => "`->`",
        Rule::swap_arrow => "`<->`",
        Rule::name | Rule::name_chars => "a name",
        Rule::cell_name | Rule::cell_list | Rule::cell_range => "a cell",
        Rule::piece_ref => "a piece letter or name",
        Rule::letter => "a single letter",
        Rule::int => "a whole number",
        Rule::string => "a quoted string",
        Rule::compare => "a comparison (`<`, `<=`, `==`, `>=`, `>`)",
        Rule::outcome => "`win`, `loss` or `draw`",
        Rule::condition => "a condition",
        Rule::variant_decl | Rule::k_variant => "`variant \"Title\"`",
        Rule::board_block => "`board`",
        Rule::player_decl => "`player`",
        Rule::zone_decl => "`zone`",
        Rule::piece_decl => "`piece`",
        Rule::castle_decl => "`castle`",
        Rule::phase_decl => "`phase`",
        Rule::setup_block => "`setup`",
        Rule::end_block => "`end`",
        Rule::move_rule | Rule::step | Rule::slide | Rule::leap | Rule::hop => "a move power (`step`, `slide`, `leap`, `hop`)",
        Rule::betza_rule => "`betza`",
        Rule::leap_offset => "two numbers",
        Rule::leap_path => "a path like `(n n e)`",
        Rule::dir_list => "a direction",
        _ => {
            let name = format!("{rule:?}");
            if let Some(k) = name.strip_prefix("k_") {
                return format!("`{}`", k.replace('_', "-"));
            }
            return name.replace('_', " ");
        }
    };
    s.to_string()
}

fn from_pest(text: &str, e: pest::error::Error<Rule>) -> Diagnostic {
    let start = match e.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let found_len = text[start..]
        .char_indices()
        .find(|(_, c)| c.is_whitespace() || "{}()".contains(*c) && start < text.len())
        .map(|(i, c)| if i == 0 { c.len_utf8() } else { i })
        .unwrap_or(text.len() - start);
    let found = &text[start..start + found_len];
    let expected = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => {
            let mut names: Vec<String> = Vec::new();
            for r in positives {
                let d = describe(*r);
                if !names.contains(&d) {
                    names.push(d);
                }
            }
            match names.len() {
                0 => "something else".to_string(),
                1 => names.remove(0),
                _ => {
                    let last = names.pop().unwrap_or_default();
                    format!("{} or {}", names.join(", "), last)
                }
            }
        }
        ErrorVariant::CustomError { message } => message.clone(),
    };
    let found_desc = if found.is_empty() { "the end of the file".to_string() } else { format!("`{found}`") };
    Diagnostic::new(
        format!("expected {expected}, found {found_desc}"),
        start..start + found_len.max(usize::from(start < text.len())),
        format!("expected {expected}"),
    )
}
