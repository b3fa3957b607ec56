//! Betza's funny notation (`mfW`, `N`, `Q`, `cfF`), parsed into offsets and modifiers for the lowering.

/// One Betza atom with its modifiers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The leap offset (larger coordinate first), e.g. (1, 0) for W, (2, 1) for N.
    pub offset: (i32, i32),
    /// Slides any distance (doubled letter, or R/B/Q).
    pub rider: bool,
    /// `m`: move only.
    pub move_only: bool,
    /// `c`: capture only.
    pub capture_only: bool,
    /// Direction filters (`f`, `b`, `l`, `r`, `v`, `s`); empty means all.
    pub filters: Vec<char>,
}

/// A Betza atom's offsets (larger coordinate first, one per symmetry class) and whether the
/// letter alone rides (R, B, Q); `None` for a letter that is no atom.
pub fn atom(c: char) -> Option<(&'static [(i32, i32)], bool)> {
    Some(match c {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' => (&[(3, 1)], false),
        'Z' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

/// Parses a Betza string; on error returns the byte offset and what was expected.
pub fn parse(text: &str) -> Result<Vec<Atom>, (usize, String)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut atoms = Vec::new();
    let mut i = 0;
    let mut move_only = false;
    let mut capture_only = false;
    let mut filters = Vec::new();
    while i < chars.len() {
        let (at, c) = chars[i];
        i += 1;
        match c {
            'm' => move_only = true,
            'c' => capture_only = true,
            'f' | 'b' | 'l' | 'r' | 'v' | 's' => filters.push(c),
            _ if c.is_ascii_uppercase() => {
                let Some((base, rider)) = atom(c) else {
                    return Err((at, format!("expected a Betza atom (W F D N A H C Z G K R B Q), found `{c}`")));
                };
                let mut rider = rider;
                if i < chars.len() && chars[i].1 == c {
                    rider = true;
                    i += 1;
                }
                for &offset in base {
                    atoms.push(Atom { offset, rider, move_only, capture_only, filters: filters.clone() });
                }
                move_only = false;
                capture_only = false;
                filters.clear();
            }
            _ => return Err((at, format!("expected a Betza modifier (m c f b l r v s) or atom, found `{c}`"))),
        }
    }
    if move_only || capture_only || !filters.is_empty() {
        return Err((text.len(), "expected a Betza atom after the modifiers".to_string()));
    }
    if atoms.is_empty() {
        return Err((0, "expected at least one Betza atom".to_string()));
    }
    Ok(atoms)
}

/// Whether a displacement (dx, dy) passes the atom's direction filters (`f` is +y).
pub fn passes(filters: &[char], dx: i32, dy: i32) -> bool {
    filters.is_empty()
        || filters.iter().any(|f| match f {
            'f' => dy > 0,
            'b' => dy < 0,
            'l' => dx < 0,
            'r' => dx > 0,
            'v' => dx == 0 && dy != 0,
            's' => dy == 0 && dx != 0,
            _ => false,
        })
}
