//! Lowers `(option "NAME" VALUE)` and the older keyword forms (`(pass-turn VALUE)`): rule
//! options into the IR, presentation ones ignored, unknown ones noted.
use varia_interpreter::ir::{PassTurn, PieceTypeId};

use super::{Lowerer, ZrfNote};
use crate::reader::{eq_keyword, Sexp, ZrfError};

/// Options that only change Zillions' user interface.
const PRESENTATION_OPTIONS: &[&str] = &[
    "animate captures",
    "animate drops",
    "smart moves",
    "prevent flipping",
    "show moves list",
    "highlight goals",
    "selection screen",
];

/// Options with a rule meaning the IR cannot express (unless switched off).
const UNSUPPORTED_OPTIONS: &[&str] = &["recycle captures", "recycle promotions"];

/// The game-level keywords of the first Zillions language that set an option: `(pass-turn
/// forced)` is `(option "pass turn" forced)`. Version 2 made them options (Polygamo, a
/// re-implementation of Zillions, keeps these words as deprecated forms of the options).
pub(crate) const OPTION_KEYWORDS: &[&str] = &[
    "allow-flipping",
    "animate-captures",
    "animate-drops",
    "include-off-pieces",
    "maximal-captures",
    "pass-partial",
    "pass-turn",
    "recycle-captures",
    "recycle-promotions",
];

/// Whether a game item is one of [`OPTION_KEYWORDS`].
pub(crate) fn is_option_keyword(head: &str) -> bool {
    OPTION_KEYWORDS.iter().any(|k| eq_keyword(k, head))
}

/// The rule options a game sets.
#[derive(Debug, Default)]
pub(crate) struct Options {
    pub(crate) pass_partial: bool,
    pub(crate) pass_turn: PassTurn,
    pub(crate) maximal_captures: bool,
    /// `"maximal captures" 2`: of the turns taking the most pieces, those taking the most kings.
    pub(crate) maximal_kings: bool,
    pub(crate) goals_count_hands: bool,
    /// Dagaz's `"sliding-puzzle"`: pieces of the same `value` move as one block (blocks.rs).
    pub(crate) sliding_puzzle: bool,
    /// Dagaz's `"shared pieces"`: every player moves every piece.
    pub(crate) shared_pieces: bool,
}

impl Options {
    /// The piece types `"maximal captures" 2` prefers when turns take as many pieces: the
    /// kings, read as Dagaz's checkers code reads them (for which these files were written):
    /// every type but the first one declared (the man). Empty for the other values.
    pub(crate) fn maximal_captures_prefer(&self, piece_types: usize) -> Vec<PieceTypeId> {
        if !self.maximal_kings {
            return Vec::new();
        }
        (1..piece_types).filter_map(|t| u8::try_from(t).ok()).map(PieceTypeId).collect()
    }
}

impl Lowerer<'_> {
    /// Options: presentation ones are ignored, `"pass partial"` is kept, rule options the IR
    /// lacks are errors, unknown ones are noted and ignored, as Zillions ignores them.
    pub(crate) fn options(&mut self, forms: &[&Sexp]) -> Result<Options, ZrfError> {
        let mut set = Options::default();
        for &form in forms {
            let (option, value) = self.option_of(form)?;
            let option = option.as_str();
            let off = value.text().is_some_and(|v| eq_keyword(v, "false"));
            // Zillions writes "smart moves"; many corpus files write "smart-moves".
            let bare = option.trim().replace('-', " ");
            let is = |list: &[&str]| list.iter().any(|known| eq_keyword(known, &bare));
            if is(PRESENTATION_OPTIONS) || eq_keyword(&bare, "allow flipping") {
                continue;
            }
            let on = || -> Result<bool, ZrfError> {
                match value.text() {
                    Some(v) if eq_keyword(v, "true") => Ok(true),
                    _ if off => Ok(false),
                    _ => Err(self.err(
                        format!("unsupported ZRF construct 'option \"{option}\" {value}'"),
                        value,
                        if eq_keyword(&bare, "maximal captures") {
                            format!("\"{option}\" must be true, false or 2")
                        } else {
                            format!("\"{option}\" must be true or false")
                        },
                    )),
                }
            };
            // Zillions writes "include off pieces"; the corpus also "include off-pieces".
            match bare.to_ascii_lowercase().as_str() {
                "pass partial" => set.pass_partial = on()?,
                "maximal captures" if value.text().is_some_and(|v| v.trim() == "2") => {
                    (set.maximal_captures, set.maximal_kings) = (true, true);
                }
                "maximal captures" => (set.maximal_captures, set.maximal_kings) = (on()?, false),
                "include off pieces" => set.goals_count_hands = on()?,
                "sliding puzzle" => set.sliding_puzzle = on()?,
                _ => {}
            }
            if ["pass partial", "maximal captures", "include off pieces", "sliding puzzle"]
                .iter()
                .any(|o| eq_keyword(o, &bare))
            {
                continue;
            }
            if eq_keyword(option.trim(), "pass turn") {
                // "forced": a player passes only when without a legal move (Zillions' manual).
                set.pass_turn = match value.text() {
                    Some(v) if eq_keyword(v, "true") => PassTurn::Always,
                    Some(v) if eq_keyword(v, "forced") => PassTurn::IfNoMove,
                    _ if off => PassTurn::Never,
                    _ => return Err(self.unsupported(value, "\"pass turn\" must be true, false or forced")),
                };
                continue;
            }
            // Dagaz's "shared pieces": every player moves every piece.
            if eq_keyword(&bare, "shared pieces") {
                set.shared_pieces = on()?;
                continue;
            }
            if is(UNSUPPORTED_OPTIONS) {
                if off {
                    continue;
                }
                return Err(self.err(
                    format!("unsupported ZRF construct 'option \"{option}\"'"),
                    form,
                    "Varia has no such rule; only false is accepted",
                ));
            }
            self.notes.push(ZrfNote {
                message: format!("unknown option '{option}' ignored, as Zillions does"),
                span: form.span.clone(),
            });
        }
        Ok(set)
    }

    /// The name and value of `(option "NAME" VALUE)`, or of a keyword form `(pass-turn VALUE)`
    /// (named `pass turn`).
    fn option_of<'s>(&self, form: &'s Sexp) -> Result<(String, &'s Sexp), ZrfError> {
        let head = form.head().unwrap_or_default();
        if is_option_keyword(head) {
            let [value] = form.tail() else {
                return Err(self.err(
                    format!("'{head}' needs one value"),
                    form,
                    format!("expected ({head} VALUE), as (option \"{}\" VALUE)", head.replace('-', " ")),
                ));
            };
            return Ok((head.replace('-', " "), value));
        }
        let [name, value] = form.tail() else {
            return Err(self.err("an option needs a name and a value", form, "expected (option \"name\" value)"));
        };
        let Some(option) = name.text() else {
            return Err(self.err("an option name must be a string", name, "expected (option \"name\" value)"));
        };
        Ok((option.to_string(), value))
    }
}
