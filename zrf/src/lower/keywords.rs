//! The words of the Zillions language, to tell a construct Varia lacks from a mistake in the file.

/// Instructions and conditions of Zillions' move language (its manual's keyword index).
const ZILLIONS_WORDS: &[&str] = &[
    "add",
    "add-copy",
    "add-partial",
    "add-copy-partial",
    "adjacent-to-enemy?",
    "and",
    "attacked?",
    "back",
    "capture",
    "cascade",
    "change-owner",
    "change-type",
    "create",
    "defended?",
    "else",
    "empty?",
    "enemy?",
    "false",
    "flag?",
    "flip",
    "friend?",
    "from",
    "go",
    "goal-position?",
    "not-goal-position?",
    "not-adjacent-to-enemy?",
    "if",
    "in-zone?",
    "last-from",
    "last-from?",
    "last-to",
    "last-to?",
    "mark",
    "marked?",
    "neutral?",
    "not",
    "not-attacked?",
    "not-defended?",
    "not-empty?",
    "not-enemy?",
    "not-flag?",
    "not-friend?",
    "not-in-zone?",
    "not-last-from?",
    "not-last-to?",
    "not-marked?",
    "not-neutral?",
    "not-piece?",
    "not-position-flag?",
    "not-position?",
    "on-board?",
    "not-on-board?",
    "opposite",
    "or",
    "piece?",
    "position-flag?",
    "position?",
    "set-attribute",
    "set-flag",
    "set-position-flag",
    "to",
    "true",
    "verify",
    "while",
];

/// The error message for a word that is no instruction or condition Varia lowers: a Zillions
/// word Varia does not support yet, or else a mistake in the file (with the nearest word when
/// one is a letter or two away, as `varify` is from `verify`).
pub(crate) fn unknown_word_message(word: &str) -> String {
    let lower = word.to_ascii_lowercase();
    if ZILLIONS_WORDS.contains(&lower.as_str()) {
        return format!("unsupported ZRF construct '{word}'");
    }
    let nearest = ZILLIONS_WORDS.iter().map(|known| (distance(&lower, known), *known)).filter(|&(d, _)| d <= 2).min();
    match nearest {
        Some((_, known)) => {
            format!(
                "'{word}' is not a Zillions instruction or condition: a mistake in the file? (did you mean '{known}'?)"
            )
        }
        None => format!(
            "'{word}' is not a Zillions instruction or condition (a mistake in the file, or a macro never defined?)"
        ),
    }
}

/// Levenshtein distance, for suggestions (both words are short).
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != *cb)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}
