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
    check_nesting(text)?;
    VarParser::parse(Rule::file, text).map_err(|e| from_pest(text, e))
}

/// The deepest nesting of brackets, `not`s and `else if` links the parser accepts: deeper input
/// would exhaust the stack of the recursive parser, and of the lowering after it.
pub const MAX_NESTING: usize = 100;

/// Reports brackets, `not`s and `else if` links nested deeper than [`MAX_NESTING`], skipping
/// comments and strings. Each link of an `if ... else if ...` chain nests the rest of the chain
/// one level deeper (in the parser, the lowering and the IR), so a chain counts as deep as it is
/// long, from its second `if` until the instruction after it.
fn check_nesting(text: &str) -> Result<(), Diagnostic> {
    /// The token before the current one, as far as chains are concerned.
    #[derive(PartialEq)]
    enum Prev {
        /// A `}`: an `else` may follow and continue a chain.
        Close,
        /// `else` right after a `}`: an `if` now adds a link.
        Else,
        Other,
    }
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'-';
    let mut brackets = 0usize;
    let mut nots = 0usize;
    // The `else if` links of the chain going on at each open bracket level, and their sum.
    let mut links: Vec<usize> = vec![0];
    let mut all_links = 0usize;
    let mut prev = Prev::Other;
    let mut i = 0;
    while i < b.len() {
        if let Some(e) = inert_end(b, i) {
            i = e + 1;
            continue;
        }
        let start = i;
        match b[i] {
            b'(' | b'{' => {
                brackets += 1;
                links.push(0);
                prev = Prev::Other;
            }
            b')' | b'}' => {
                brackets = brackets.saturating_sub(1);
                if links.len() > 1 {
                    all_links -= links.pop().unwrap_or(0);
                }
                prev = if b[i] == b'}' { Prev::Close } else { Prev::Other };
            }
            c if word(c) => {
                while i + 1 < b.len() && word(b[i + 1]) {
                    i += 1;
                }
                let w = &b[start..=i];
                nots = if w == b"not" { nots + 1 } else { 0 };
                let level = links.last_mut().expect("the top level is never closed");
                if prev == Prev::Else && w == b"if" {
                    *level += 1;
                    all_links += 1;
                } else if prev == Prev::Close && w != b"else" {
                    all_links -= *level;
                    *level = 0;
                }
                prev = if prev == Prev::Close && w == b"else" { Prev::Else } else { Prev::Other };
            }
            c if c.is_ascii_whitespace() => {}
            _ => prev = Prev::Other,
        }
        if brackets + nots + all_links > MAX_NESTING {
            return Err(Diagnostic::new(
                "brackets, `not`s or `else if` links nested too deep",
                start..(i + 1).min(text.len()),
                format!("expected at most {MAX_NESTING} nested brackets, `not`s and `else if` links"),
            ));
        }
        i += 1;
    }
    Ok(())
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
        Rule::name | Rule::any_name | Rule::name_chars => "a name",
        Rule::cell_name | Rule::cell_list | Rule::cell_range => "a cell",
        Rule::piece_ref => "a piece letter or name",
        Rule::letter => "a single letter",
        Rule::int => "a whole number",
        Rule::decimal => "a number with at most two decimals (`1.5`)",
        Rule::signed => "a whole number (may be negative)",
        Rule::string => "a quoted string",
        Rule::compare => "a comparison (`<`, `<=`, `==`, `>=`, `>`)",
        Rule::outcome => "`win`, `loss` or `draw`",
        Rule::royal_check_kind => "`any`, `all` or `last`",
        Rule::condition => "a condition",
        Rule::variant_decl | Rule::k_variant => "`variant \"Title\"`",
        Rule::pgn_variant_decl | Rule::k_pgn_variant => "`pgn-variant`",
        Rule::board_block => "`board`",
        Rule::display_block | Rule::k_display => "`display`",
        Rule::display_points | Rule::display_line | Rule::display_river | Rule::display_upside_down => {
            "a display rule (`points`, `line`, `river`, `upside-down`)"
        }
        Rule::player_decl => "`player`",
        Rule::team_decl => "`team`",
        Rule::zone_decl => "`zone`",
        Rule::piece_decl => "`piece`",
        Rule::castle_decl => "`castle`",
        Rule::phase_decl => "`phase`",
        Rule::setup_block => "`setup`",
        Rule::squares_block => "`squares`",
        Rule::walls_block => "`walls`",
        Rule::wall_place_decl | Rule::petrify_decl => "a walls rule (`place`, `petrify`)",
        Rule::wall_rule => "a place for walls (`arrow`, `past`, `anywhere`, `duck`)",
        Rule::turn_block => "`turn`",
        Rule::action_kind | Rule::turn_slot => "an action (`piece`, `move-square`, `place-square`)",
        Rule::bar => "`|`",
        Rule::k_then => "`then`",
        Rule::skip_if_none | Rule::k_skip_if_none => "`skip-if-none`",
        Rule::owned_flag
        | Rule::neutral_flag
        | Rule::reserve_decl
        | Rule::square_move_decl
        | Rule::carry_decl
        | Rule::place_decl
        | Rule::untouchable_decl
        | Rule::vacate_decl => {
            "a square rule (`owned`, `neutral`, `reserve`, `move`, `carry`, `place`, `untouchable`, `vacate`)"
        }
        Rule::k_anywhere => "`anywhere`",
        Rule::k_moved | Rule::k_touched => "`moved` or `touched`",
        Rule::except_royal => "`except-royal`",
        Rule::end_block => "`end`",
        Rule::move_rule | Rule::step | Rule::slide | Rule::leap | Rule::hop => {
            "a move power (`step`, `slide`, `leap`, `hop`)"
        }
        Rule::betza_rule => "`betza`",
        Rule::occupancy_flag | Rule::capacity_option | Rule::k_capacity => {
            "an occupancy rule (`capacity`, `lone-inert`, `crowd-safe`, `capture-one`, `join-mixed-crowd`, ...)"
        }
        Rule::zone_phase => "`in-phase`",
        Rule::leap_offset => "two numbers",
        Rule::leap_path => "a path like `(n n e)`",
        Rule::dir_list => "a direction",
        Rule::bare_place => "an instruction",
        Rule::place | Rule::place_arg => "a direction or a cell",
        Rule::test | Rule::test_and | Rule::test_not => "a test",
        Rule::goal_test | Rule::goal_and | Rule::goal_not => "a goal test",
        Rule::goal_player => "a player",
        Rule::no_check_kind | Rule::k_moves | Rule::k_drops | Rule::k_promotions => "`moves`, `drops` or `promotions`",
        Rule::move_type_def | Rule::move_type_ref | Rule::move_type_name => "a move type name",
        Rule::attr_def | Rule::attr_ref => "an attribute name",
        Rule::flag_def | Rule::flag_ref => "a flag name",
        Rule::config_group => "a cell or a zone",
        Rule::occupier => "`own`, `opponent` or `any` and a piece",
        Rule::k_own | Rule::k_opponent => "`own`, `opponent` or `any`",
        Rule::hand_entry => "a piece and a count",
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
            let positives = group(positives);
            // "The end of the file" reads best as the last alternative.
            let eoi_last =
                positives.iter().filter(|r| **r != Rule::EOI).chain(positives.iter().filter(|r| **r == Rule::EOI));
            for r in eoi_last {
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
    let positives: &[Rule] = match &e.variant {
        ErrorVariant::ParsingError { positives, .. } => positives,
        ErrorVariant::CustomError { .. } => &[],
    };
    // A string that runs to the end of its line.
    if positives.contains(&Rule::string) && text[start..].starts_with('"') {
        let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
        let line_end = if text[..line_end].ends_with('\r') { line_end - 1 } else { line_end };
        return Diagnostic::new(
            "unterminated string: expected a closing `\"` on the same line",
            start..line_end.max(start + 1),
            "this string is not closed",
        );
    }
    // A block left open: the next declaration (or the end of the file) comes where `}` was due.
    let starts_line = text[..start].rsplit('\n').next().is_some_and(|l| l.trim().is_empty());
    let next_declaration = found.is_empty() || (starts_line && TOP_LEVEL.contains(&found));
    if positives.contains(&Rule::rbrace) && next_declaration {
        if let Some(open) = unclosed_brace(text, start) {
            let (line, _) = crate::diagnostic::line_col(text, open);
            return Diagnostic::new(
                format!("expected `}}` to close the `{{` on line {line}, found {found_desc}"),
                start..start + found_len.max(usize::from(start < text.len())),
                format!("expected `}}` before this: the block opened on line {line} is not closed"),
            );
        }
    }
    let span = start..start + found_len.max(usize::from(start < text.len()));
    if let Some(word) = reserved_word(&text[start..]).filter(|_| positives.iter().any(|r| NAMES.contains(r))) {
        return Diagnostic::new(
            format!("expected {expected}, found `{word}`, a reserved word: it cannot be a name here"),
            start..start + word.len(),
            format!("`{word}` is reserved"),
        );
    }
    Diagnostic::new(format!("expected {expected}, found {found_desc}"), span, format!("expected {expected}"))
}

/// Rules that read a name where a reserved word is refused.
const NAMES: [Rule; 4] = [Rule::name, Rule::piece_ref, Rule::move_type_name, Rule::move_type_def];

/// The word the text starts with, if the language reserves it (so that it is no `name`).
fn reserved_word(text: &str) -> Option<&str> {
    let len = text.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-')).unwrap_or(text.len());
    let word = &text[..len];
    let whole = |rule| VarParser::parse(rule, word).is_ok_and(|p| p.as_str().len() == word.len());
    (whole(Rule::any_name) && !whole(Rule::name)).then_some(word)
}

/// Keywords that begin a top-level declaration.
const TOP_LEVEL: [&str; 25] = [
    "variant",
    "board",
    "player",
    "zone",
    "piece",
    "castle",
    "phase",
    "squares",
    "turn",
    "setup",
    "end",
    "move-types",
    "attributes",
    "flags",
    "priorities",
    "turn-order",
    "pass-partial",
    "pass-turn",
    "maximal-captures",
    "goals-count-hands",
    "shared-pieces",
    "royal-check",
    "must-capture",
    "castling-notation",
    "team",
];

/// Top-level declarations of version 5, left out of the list of what may start a declaration
/// (so the messages of earlier versions stay as they were).
const TOP_LEVEL_V5: [Rule; 14] = [
    Rule::k_move_types,
    Rule::k_attributes,
    Rule::k_flags,
    Rule::k_priorities,
    Rule::k_turn_order,
    Rule::k_pass_partial,
    Rule::k_pass_turn,
    Rule::k_maximal_captures,
    Rule::k_goals_count_hands,
    Rule::k_shared_pieces,
    Rule::k_royal_check,
    Rule::k_must_capture,
    Rule::k_castling_notation,
    Rule::k_team,
];

/// Keywords that start an instruction of a program.
const INSTR_STARTS: [Rule; 23] = [
    Rule::add_kind,
    Rule::k_go,
    Rule::k_mark,
    Rule::k_back,
    Rule::k_verify,
    Rule::k_if,
    Rule::k_else,
    Rule::k_while,
    Rule::k_to,
    Rule::k_from,
    Rule::k_cascade,
    Rule::k_add_copy_partial,
    Rule::k_add_copy,
    Rule::k_add_partial,
    Rule::k_add,
    Rule::k_capture,
    Rule::k_change_type,
    Rule::k_change_owner,
    Rule::k_flip,
    Rule::k_create,
    Rule::k_set_flag,
    Rule::k_set_cell_flag,
    Rule::k_set_attribute,
];

/// Keywords and tokens that start a test of a program.
const TEST_STARTS: [Rule; 25] = [
    Rule::k_true,
    Rule::k_false,
    Rule::k_empty,
    Rule::k_friend,
    Rule::k_enemy,
    Rule::k_piece,
    Rule::k_in,
    Rule::k_on_board,
    Rule::k_at,
    Rule::k_last_from,
    Rule::k_last_to,
    Rule::k_marked,
    Rule::k_attacked,
    Rule::k_attacked_by,
    Rule::k_defended,
    Rule::k_defended_by,
    Rule::k_adjacent_to_enemy,
    Rule::k_flag,
    Rule::k_cell_flag,
    Rule::k_attribute,
    Rule::k_holds,
    Rule::k_not,
    Rule::lparen,
    Rule::test_not,
    Rule::test_and,
];

/// Keywords and tokens that start a goal test.
const GOAL_STARTS: [Rule; 15] = [
    Rule::k_pieces_remaining,
    Rule::k_total_pieces,
    Rule::k_captured,
    Rule::k_stalemated,
    Rule::k_to_move,
    Rule::k_checks_given,
    Rule::k_repetition,
    Rule::k_config,
    Rule::k_safe_config,
    Rule::k_can_reach,
    Rule::k_in_check,
    Rule::k_checked_by,
    Rule::k_streak,
    Rule::k_not,
    Rule::lparen,
];

/// Shortens the alternatives pest lists: every way to start an instruction is "an
/// instruction", every way to start a test "a test", and so on.
fn group(positives: &[Rule]) -> Vec<Rule> {
    let mut out: Vec<Rule> = positives.to_vec();
    if out.contains(&Rule::k_board) {
        out.retain(|r| !TOP_LEVEL_V5.contains(r));
    }
    for (marker, starts, instead) in [
        (Rule::bare_place, &INSTR_STARTS[..], Rule::bare_place),
        (Rule::k_true, &TEST_STARTS[..], Rule::test),
        (Rule::k_pieces_remaining, &GOAL_STARTS[..], Rule::goal_test),
    ] {
        if let Some(at) = out.iter().position(|r| *r == marker) {
            out[at] = instead;
            out.retain(|r| *r == instead || !starts.contains(r));
        }
    }
    out
}

/// Where a string or comment starting at `i` ends (its last byte, or past the end of the text),
/// or `None` when none starts there.
fn inert_end(b: &[u8], mut i: usize) -> Option<usize> {
    let to_line_end = |mut i: usize| {
        while i < b.len() && b[i] != b'\n' {
            i += 1;
        }
        i
    };
    match b[i] {
        b'"' => {
            i += 1;
            while i < b.len() && b[i] != b'"' && b[i] != b'\n' {
                i += 1;
            }
            Some(i)
        }
        b'#' => Some(to_line_end(i)),
        b'/' if b.get(i + 1) == Some(&b'/') => Some(to_line_end(i)),
        b'/' if b.get(i + 1) == Some(&b'*') => {
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                i += 1;
            }
            Some(i + 1)
        }
        _ => None,
    }
}

/// The byte offset of the last `{` before `end` that no `}` closes, skipping comments and strings.
fn unclosed_brace(text: &str, end: usize) -> Option<usize> {
    let b = &text.as_bytes()[..end];
    let mut open = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if let Some(e) = inert_end(b, i) {
            i = e + 1;
            continue;
        }
        match b[i] {
            b'{' => open.push(i),
            b'}' => {
                open.pop();
            }
            _ => {}
        }
        i += 1;
    }
    open.pop()
}
