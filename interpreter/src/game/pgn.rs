//! Portable Game Notation: games written with their tags and SAN movetext (Varia's notation where SAN cannot say a move), and read back.
//!
//! Writing follows the PGN export format: the seven tag roster, `SetUp`/`FEN` when the game
//! does not start from standard chess's setup, `Variant` for every game that does not declare
//! itself PGN's standard game (`pgn-variant standard`), move numbers, `+` and `#`, lines of at
//! most 80 characters. Reading takes any PGN: tags, `{...}`
//! and `;` comments, `%` escape lines, `(...)` variations and `$n` glyphs are skipped; several
//! games may follow one another. A plain list of moves is a game without tags.

use crate::end::GameResult;
use crate::ir::{PgnVariant, Variant};
use crate::position::{Move, Position};

/// The value of the `Variant` tag a game of `variant` carries; `None` for PGN's standard game.
pub fn variant_tag(variant: &Variant) -> Option<&str> {
    match &variant.pgn_variant {
        PgnVariant::Title => Some(&variant.title),
        PgnVariant::Standard => None,
        PgnVariant::Named(name) => Some(name),
    }
}

/// Whether a game's `Variant` tag names `variant`: its tag as written, its title, or (for a
/// variant declared PGN's standard game) one of the names PGN tools give standard chess.
pub fn tag_names(tag: &str, variant: &Variant) -> bool {
    let standard = ["standard", "chess", "normal"].contains(&tag.to_ascii_lowercase().as_str());
    match variant_tag(variant) {
        Some(name) => tag.eq_ignore_ascii_case(name) || tag.eq_ignore_ascii_case(&variant.title),
        None => standard || tag.eq_ignore_ascii_case(&variant.title),
    }
}

/// The longest PGN text read (bytes): a cost an input controls is bounded.
pub const MAX_TEXT: usize = 16 << 20;

/// A game read from PGN: its tags and its movetext tokens, each with its byte offset.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Game {
    /// Tag pairs in the order written.
    pub tags: Vec<(String, String)>,
    /// The moves as written (annotations `!?` and check marks kept; the move readers ignore them).
    pub moves: Vec<(String, usize)>,
    /// The result token at the end of the movetext, if any (`1-0`, `0-1`, `1/2-1/2`, `*`).
    pub result: Option<String>,
}

impl Game {
    /// A tag's value.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a PGN text cannot be read, and where (a byte offset).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct PgnError {
    /// What is wrong.
    pub message: String,
    /// Where, in bytes from the start of the text.
    pub offset: usize,
}

fn err(message: impl Into<String>, offset: usize) -> PgnError {
    PgnError { message: message.into(), offset }
}

/// Reads every game of a PGN text (or of a plain list of moves).
pub fn read(text: &str) -> Result<Vec<Game>, PgnError> {
    if text.len() > MAX_TEXT {
        return Err(err(format!("the text is {} bytes long; at most {MAX_TEXT} are read", text.len()), 0));
    }
    let bytes = text.as_bytes();
    let mut games = Vec::new();
    let mut game = Game::default();
    let mut in_moves = false;
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let c = bytes[i];
        if line_start && c == b'%' {
            // An escape line: skipped to its end.
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = c == b'\n';
        match c {
            _ if c.is_ascii_whitespace() => i += 1,
            b'[' => {
                if in_moves {
                    // A tag after movetext without a result: a new game begins.
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                }
                let (tag, end) = tag_pair(text, i)?;
                game.tags.push(tag);
                i = end;
            }
            b'{' => {
                let close =
                    text[i..].find('}').ok_or_else(|| err("this `{` comment is never closed: expected `}`", i))?;
                i += close + 1;
            }
            b'}' => return Err(err("`}` without an opening `{`", i)),
            b';' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'(' => {
                // A variation (possibly nested, with comments inside): skipped.
                let start = i;
                let mut depth = 0usize;
                while i < bytes.len() {
                    match bytes[i] {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        b'{' => match text[i..].find('}') {
                            Some(k) => i += k,
                            None => return Err(err("this `{` comment is never closed: expected `}`", i)),
                        },
                        _ => {}
                    }
                    i += 1;
                }
                if i >= bytes.len() {
                    return Err(err("this `(` variation is never closed: expected `)`", start));
                }
                i += 1;
            }
            b')' => return Err(err("`)` without an opening `(`", i)),
            _ => {
                let start = i;
                while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !b"{}[]();".contains(&bytes[i]) {
                    i += 1;
                }
                in_moves = true;
                let raw = &text[start..i];
                if ["1-0", "0-1", "1/2-1/2", "*"].contains(&raw) {
                    game.result = Some(raw.to_string());
                    games.push(std::mem::take(&mut game));
                    in_moves = false;
                    continue;
                }
                if raw.starts_with('$') && raw.len() > 1 && raw[1..].bytes().all(|b| b.is_ascii_digit()) {
                    continue;
                }
                // A move number (`12.`, `12...`), possibly glued to its move (`12.e4`).
                let digits = raw.bytes().take_while(|b| b.is_ascii_digit()).count();
                let dots = raw[digits..].bytes().take_while(|b| *b == b'.').count();
                if digits > 0 && (dots > 0 || digits == raw.len()) {
                    let rest = &raw[digits + dots..];
                    if !rest.is_empty() {
                        game.moves.push((rest.to_string(), start + digits + dots));
                    }
                    continue;
                }
                game.moves.push((raw.to_string(), start));
            }
        }
    }
    if in_moves || !game.tags.is_empty() || games.is_empty() {
        games.push(game);
    }
    Ok(games)
}

/// A tag pair `[Name "value"]` starting at `start`; returns it and the offset after it.
fn tag_pair(text: &str, start: usize) -> Result<((String, String), usize), PgnError> {
    let bytes = text.as_bytes();
    let mut i = start + 1;
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    let name_start = i;
    while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
        i += 1;
    }
    let name = text[name_start..i].to_string();
    if name.is_empty() {
        return Err(err("expected a tag name after `[`", name_start));
    }
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    if bytes.get(i) != Some(&b'"') {
        return Err(err(format!("expected a quoted value for tag `{name}`"), i));
    }
    i += 1;
    let mut value = String::new();
    loop {
        match bytes.get(i) {
            None | Some(b'\n') => return Err(err(format!("the value of tag `{name}` is never closed"), i)),
            Some(b'\\') if matches!(bytes.get(i + 1), Some(b'"' | b'\\')) => {
                value.push(bytes[i + 1] as char);
                i += 2;
            }
            Some(b'"') => {
                i += 1;
                break;
            }
            Some(_) => {
                let ch = text[i..].chars().next().unwrap_or(' ');
                value.push(ch);
                i += ch.len_utf8();
            }
        }
    }
    while i < bytes.len() && bytes[i].is_ascii_whitespace() && bytes[i] != b'\n' {
        i += 1;
    }
    if bytes.get(i) != Some(&b']') {
        return Err(err(format!("expected `]` to close tag `{name}`"), i));
    }
    Ok(((name, value), i + 1))
}

/// Today's date as PGN's Date tag writes it (`2026.11.23`), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The result token of a position: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
pub fn result_token(pos: &mut Position) -> &'static str {
    match pos.outcome() {
        Some((GameResult::Win(p), _)) if p.0 == 0 => "1-0",
        Some((GameResult::Win(_), _)) => "0-1",
        Some((GameResult::Draw, _)) => "1/2-1/2",
        None => "*",
    }
}

/// Writes the game that led to `pos` (its moves since the start it was set up from) as PGN.
/// `tags` come first (Event, Site, Date, Round, White, Black in this order, with `?` for those
/// not given), then Result, then the others given; `SetUp` and `FEN` are added when the game
/// starts elsewhere than standard chess's setup, `Variant` (see [`variant_tag`]) unless the
/// variant declares itself PGN's standard game. Moves are in short notation with `+`/`#`, or Varia's notation where SAN has no form.
pub fn write(pos: &Position, tags: &[(&str, String)]) -> String {
    let mut start = pos.clone();
    let moves: Vec<Move> = pos.moves_made().collect();
    for _ in &moves {
        start.unmake();
    }
    let mut end = pos.clone();
    let result = result_token(&mut end);
    let start_string = start.to_position_string();
    let variant_tag = variant_tag(&pos.rules().variant);
    let standard = variant_tag.is_none() && start_string == Position::start(pos.rules().clone()).to_position_string();
    let given = |name: &str| tags.iter().find(|(n, _)| *n == name).map(|(_, v)| v.clone());
    let mut out = String::new();
    let mut tag = |name: &str, value: &str| {
        out.push_str(&format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\"")));
    };
    for name in ["Event", "Site", "Date", "Round", "White", "Black"] {
        tag(name, &given(name).unwrap_or_else(|| if name == "Date" { "????.??.??" } else { "?" }.to_string()));
    }
    tag("Result", result);
    if let Some(name) = variant_tag {
        tag("Variant", name);
    }
    if !standard {
        tag("SetUp", "1");
        tag("FEN", &start_string);
    }
    for (name, value) in tags {
        if !["Event", "Site", "Date", "Round", "White", "Black", "Result", "Variant", "SetUp", "FEN"].contains(name) {
            tag(name, value);
        }
    }
    out.push('\n');
    // Movetext: a number before each first-player turn, and before the first move.
    let mut words: Vec<String> = Vec::new();
    let mut p = start;
    let mut legal = Vec::new();
    let mut last_side = None;
    for &mv in &moves {
        let side = p.side_to_move();
        if last_side != Some(side) {
            if side.0 == 0 {
                words.push(format!("{}.", p.fullmove_number()));
            } else if last_side.is_none() {
                words.push(format!("{}...", p.fullmove_number()));
            }
        }
        last_side = Some(side);
        p.legal_moves(&mut legal);
        let mut text = p.short_notation(mv, &legal);
        p.make(mv);
        if p.in_check() {
            let mate = matches!(p.outcome(), Some((GameResult::Win(_), crate::end::EndReason::Checkmate)));
            text.push(if mate { '#' } else { '+' });
        }
        // A move number stays on the line of its move.
        match words.last_mut() {
            Some(w) if w.ends_with('.') => {
                w.push(' ');
                w.push_str(&text);
            }
            _ => words.push(text),
        }
    }
    if let Some((_, reason)) = end.outcome() {
        words.push(format!("{{{}}}", reason.name()));
    }
    words.push(result.to_string());
    // Lines of at most 80 characters.
    let mut line = String::new();
    for w in words {
        if !line.is_empty() && line.len() + 1 + w.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&w);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}
