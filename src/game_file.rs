//! Game files: reading a list of moves with move numbers, annotations and comments, and replaying it.

use varia_interpreter::Position;

/// One move token of a game file with its byte offset (line and column are worked out only for
/// an error, so a long file costs linear time).
struct Token<'a> {
    text: &'a str,
    offset: usize,
}

/// Splits a game text into move tokens: `{...}` comments, move numbers (`12.`, `12...`, `12`)
/// and results (`1-0`, `0-1`, `1/2-1/2`, `*`) are skipped.
fn tokens<'a>(text: &'a str) -> Result<Vec<Token<'a>>, String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start: Option<usize> = None;
    let flush = |s: usize, e: usize, out: &mut Vec<Token<'a>>| {
        let raw = &text[s..e];
        // "12.e4" carries a number glued to the move.
        let t = raw.trim_start_matches(|c: char| c.is_ascii_digit()).trim_start_matches('.');
        let t = if raw.contains('.') && raw.starts_with(|c: char| c.is_ascii_digit()) { t } else { raw };
        if t.is_empty() || ["1-0", "0-1", "1/2-1/2", "*"].contains(&t) || t.chars().all(|c| c.is_ascii_digit()) {
            return;
        }
        out.push(Token { text: t, offset: e - t.len() });
    };
    let at = |offset: usize| {
        let (line, col) = varia_grammar::line_col(text, offset);
        format!("{line}:{col}")
    };
    // Where the outermost open comment began.
    let mut opened = 0;
    for (i, c) in text.char_indices() {
        if c == '{' {
            if let Some(s) = start.take() {
                flush(s, i, &mut out);
            }
            if depth == 0 {
                opened = i;
            }
            depth += 1;
            continue;
        }
        if c == '}' {
            if depth == 0 {
                return Err(format!("{}: `}}` without an opening `{{`", at(i)));
            }
            depth -= 1;
            continue;
        }
        if depth > 0 {
            continue;
        }
        if c.is_whitespace() {
            if let Some(s) = start.take() {
                flush(s, i, &mut out);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if depth > 0 {
        return Err(format!("{}: this `{{` comment is never closed: expected `}}`", at(opened)));
    }
    if let Some(s) = start {
        flush(s, text.len(), &mut out);
    }
    Ok(out)
}

/// Replays a game, checking every move; prints the final position and the result.
pub fn replay(mut pos: Position, name: &str, text: &str) -> Result<(), String> {
    let toks = tokens(text).map_err(|e| format!("error: {name}:{e}"))?;
    for t in toks {
        let place = || {
            let (line, col) = varia_grammar::line_col(text, t.offset);
            format!("{line}:{col}")
        };
        let side = pos.rules().variant.players[pos.side_to_move().0 as usize].name.clone();
        let number = pos.fullmove_number();
        if let Some(outcome) = crate::outcome_line(&mut pos) {
            return Err(format!(
                "error: {name}:{}: move {number} ({side}) `{}` comes after the game ended ({})",
                place(),
                t.text,
                outcome
            ));
        }
        match pos.parse_move(t.text) {
            Ok(mv) => pos.make(mv),
            Err(e) => {
                return Err(format!(
                    "error: {name}:{}: move {number} ({side}) `{}` is illegal: {e}\nposition: {}",
                    place(),
                    t.text,
                    pos.to_position_string()
                ))
            }
        }
    }
    out!("{}", crate::show::board(&pos));
    outln!("position: {}", pos.to_position_string());
    match crate::outcome_line(&mut pos) {
        Some(line) => outln!("{line}"),
        None => outln!("result: game in progress"),
    }
    Ok(())
}
