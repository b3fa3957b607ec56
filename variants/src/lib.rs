//! The bundled variants (listed in `variants/catalogue.toml`), their texts compiled in, so that every binary plays them from any folder.

mod generated {
    include!(concat!(env!("OUT_DIR"), "/bundled.rs"));
}

/// One bundled variant.
#[derive(Clone, Copy, Debug)]
pub struct Bundled {
    /// Its file in `variants/` (`chess.var`).
    pub file: &'static str,
    /// Display title.
    pub title: &'static str,
    /// One line about it.
    pub about: &'static str,
    /// Other names GUIs and Fairy-Stockfish give the game (`3check`).
    pub aliases: &'static [&'static str],
    /// The name XBoard knows the game by, when XBoard has its rules built in (`normal`).
    pub xboard: Option<&'static str>,
    /// For a game XBoard does not know: the XBoard variant its `setup` builds on (`xiangqi`).
    pub xboard_parent: Option<&'static str>,
    /// XBoard's piece letters that differ from the game's: (XBoard's, the game's).
    pub xboard_letters: &'static [(char, char)],
    /// The file's text.
    pub source: &'static str,
    /// The text of its evaluation weights file (`NAME.weights.toml` beside it), if it has one.
    pub weights: Option<&'static str>,
}

impl Bundled {
    /// The name commands take: the file name without `.var` (`chess`).
    pub fn name(&self) -> &'static str {
        self.file.strip_suffix(".var").unwrap_or(self.file)
    }

    /// Every name the game is found by: its own, its aliases, then XBoard's (each once).
    pub fn names(&self) -> Vec<&'static str> {
        let mut out = vec![self.name()];
        for n in self.aliases.iter().copied().chain(self.xboard) {
            if !out.iter().any(|o| o.eq_ignore_ascii_case(n)) {
                out.push(n);
            }
        }
        out
    }
}

/// Every bundled variant, in catalogue order.
pub fn all() -> &'static [Bundled] {
    generated::BUNDLED
}

/// The bundled variant a name means: `chess`, `chess.var` or `variants/chess.var`, or one of
/// its other names (`3check`, XBoard's `normal`), any case.
pub fn find(name: &str) -> Option<&'static Bundled> {
    let name = name.trim().replace('\\', "/");
    let name = name.strip_prefix("./").unwrap_or(&name);
    let name = name.strip_prefix("variants/").unwrap_or(name);
    let name = name.strip_suffix(".var").unwrap_or(name);
    // A file's own name wins over another game's alias.
    all()
        .iter()
        .find(|b| b.name().eq_ignore_ascii_case(name))
        .or_else(|| all().iter().find(|b| b.names().iter().any(|n| n.eq_ignore_ascii_case(name))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_find_the_bundled_chess() {
        for name in ["chess", "Chess", "chess.var", "variants/chess.var", "./variants/chess.var"] {
            assert_eq!(find(name).map(|b| b.title), Some("Chess"), "{name}");
        }
        assert!(find("chess2").is_none());
        assert_eq!(find("normal").map(|b| b.title), Some("Chess"));
        assert!(find("").is_none());
        assert!(all()[0].source.contains("variant \"Chess\""));
    }

    #[test]
    fn other_names_find_their_game_and_no_name_is_two_games() {
        assert_eq!(find("3check").map(|b| b.name()), Some("three-check"));
        assert_eq!(find("3CHECK").map(|b| b.name()), Some("three-check"));
        let mut seen = std::collections::HashSet::new();
        for b in all() {
            for n in b.names() {
                assert!(seen.insert(n.to_ascii_lowercase()), "`{n}` names two games");
                assert!(!n.is_empty() && !n.contains(char::is_whitespace), "`{n}` is one word");
            }
        }
    }

    #[test]
    fn a_weights_file_beside_a_variant_is_compiled_in() {
        let hans38 = find("hans38").expect("bundled");
        assert!(hans38
            .weights
            .is_some_and(|w| w.contains("variant = \"Hans38 Chess\"") && w.contains("contempt = 100.0")));
        assert!(find("chess").expect("bundled").weights.is_none());
    }
}
