//! Betza's funny notation as Fairy-Stockfish reads it (atoms, two-letter directions, riders, hoppers, lame leaps, initial moves): one reading for `.var` files and the variants.ini import.

/// One move a Betza string gives, on a board seen from the first player's side: a vector of
/// `dr` ranks forward and `df` files to the right, and how it is made.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub struct Move {
    /// A leap, a ride or a hop.
    pub kind: Kind,
    /// It may move to an empty cell.
    pub quiet: bool,
    /// It may capture.
    pub capture: bool,
    /// Only as the piece's first move (`i`).
    pub initial: bool,
    /// Ranks forward.
    pub dr: i8,
    /// Files to the right.
    pub df: i8,
}

/// How a Betza move is made.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Kind {
    /// A leap (or step); lame when the cells on the way must be empty (`n`).
    Leap { lame: bool },
    /// A rider (a doubled letter, R, B, Q, or a letter and its most moves), at most this many
    /// moves (0: any).
    Ride(u8),
    /// A hopper (`p`; `g`, the grasshopper, lands right behind the screen): at most this many
    /// cells beyond the screen (0: any).
    Hop(u8),
}

/// The predicates under which Fairy-Stockfish gives each of the eight orientations of an atom
/// (a, the larger coordinate, and b): the orientation's (ranks from a, ranks from b, files from
/// a, files from b) and the two-letter directions that select it.
type Orientation = ((i8, i8, i8, i8), &'static [&'static str]);

const ORIENTATIONS: [Orientation; 8] = [
    ((1, 0, 0, 1), &["ff", "vv", "rf", "rv", "fh", "rh", "hr"]),
    ((-1, 0, 0, -1), &["bb", "vv", "lb", "lv", "bh", "lh", "hr"]),
    ((0, -1, 1, 0), &["rr", "ss", "br", "bs", "bh", "rh", "hr"]),
    ((0, 1, -1, 0), &["ll", "ss", "fl", "fs", "fh", "lh", "hr"]),
    ((0, 1, 1, 0), &["rr", "ss", "fr", "fs", "fh", "rh", "hl"]),
    ((0, -1, -1, 0), &["ll", "ss", "bl", "bs", "bh", "lh", "hl"]),
    ((-1, 0, 0, 1), &["bb", "vv", "rb", "rv", "bh", "rh", "hl"]),
    ((1, 0, 0, -1), &["ff", "vv", "lf", "lv", "fh", "lh", "hl"]),
];

const VERTICALS: &str = "fbvh";
const HORIZONTALS: &str = "rlsh";

/// A Betza atom's offsets (larger coordinate first, one per symmetry class) and whether the
/// letter alone rides (R, B, Q); `None` for a letter that is no atom. `L` and `J` are
/// Fairy-Stockfish's names of `C` and `Z`.
pub fn atom(c: char) -> Option<(&'static [(i32, i32)], bool)> {
    Some(match c {
        'W' => (&[(1, 0)], false),
        'F' => (&[(1, 1)], false),
        'D' => (&[(2, 0)], false),
        'N' => (&[(2, 1)], false),
        'A' => (&[(2, 2)], false),
        'H' => (&[(3, 0)], false),
        'C' | 'L' => (&[(3, 1)], false),
        'Z' | 'J' => (&[(3, 2)], false),
        'G' => (&[(3, 3)], false),
        'K' => (&[(1, 0), (1, 1)], false),
        'R' => (&[(1, 0)], true),
        'B' => (&[(1, 1)], true),
        'Q' => (&[(1, 0), (1, 1)], true),
        _ => return None,
    })
}

/// The modifiers read before an atom.
#[derive(Default)]
struct Pending {
    quiet: bool,
    capture: bool,
    hop: bool,
    grass: bool,
    lame: bool,
    initial: bool,
    dirs: Vec<String>,
}

/// Reads a Betza string into its moves, atom by atom in the order written (each atom's moves
/// in the order of [`ORIENTATIONS`], a move given twice kept once); on error, the byte offset
/// and what was expected. `e` (en passant) is skipped, as Fairy-Stockfish reads en passant
/// from elsewhere.
pub fn moves(text: &str) -> Result<Vec<Move>, (usize, String)> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut out: Vec<Move> = Vec::new();
    let mut p = Pending::default();
    let mut modifier_at = None;
    let mut i = 0;
    while i < chars.len() {
        let (at, c) = chars[i];
        if c.is_ascii_lowercase() {
            modifier_at.get_or_insert(at);
        }
        match c {
            'm' => p.quiet = true,
            'c' => p.capture = true,
            'p' => p.hop = true,
            'g' => (p.hop, p.grass) = (true, true),
            'n' => p.lame = true,
            'i' => p.initial = true,
            'e' | ' ' => {}
            c if VERTICALS.contains(c) || HORIZONTALS.contains(c) => {
                let next = chars.get(i + 1).map(|&(_, n)| n);
                match next {
                    Some(n)
                        if n == c
                            || (VERTICALS.contains(c) && HORIZONTALS.contains(n))
                            || (HORIZONTALS.contains(c) && VERTICALS.contains(n)) =>
                    {
                        p.dirs.push(format!("{c}{n}"));
                        i += 1;
                    }
                    _ => p.dirs.push(format!("{c}{c}")),
                }
            }
            c => {
                let Some((atoms, rides)) = atom(c) else {
                    let expected =
                        "expected a Betza modifier (m c p g n f b l r v s h) or atom (W F D N A H C Z G K R B Q L J)";
                    return Err((at, format!("{expected}, found `{c}`")));
                };
                let mut rider = rides;
                let mut distance: u8 = if p.grass { 1 } else { 0 };
                if let Some(&(_, n)) = chars.get(i + 1) {
                    if n.is_ascii_digit() || n == c {
                        rider = true;
                        if let Some(d) = n.to_digit(10) {
                            distance = d as u8;
                        }
                        i += 1;
                    }
                }
                atom_moves(&p, atoms, rider, distance, at, &mut out)?;
                p = Pending::default();
                modifier_at = None;
            }
        }
        i += 1;
    }
    if let Some(at) = modifier_at {
        return Err((at, "expected a Betza atom after the modifiers".to_string()));
    }
    if out.is_empty() {
        return Err((0, "expected at least one Betza atom".to_string()));
    }
    Ok(out)
}

/// The moves of one atom under the pending modifiers, appended to `out`.
fn atom_moves(
    p: &Pending,
    atoms: &[(i32, i32)],
    rider: bool,
    distance: u8,
    at: usize,
    out: &mut Vec<Move>,
) -> Result<(), (usize, String)> {
    let (quiet, capture) = if p.quiet || p.capture { (p.quiet, p.capture) } else { (true, true) };
    for &(a, b) in atoms {
        let first = out.len();
        let (a, b) = (a as i8, b as i8);
        let mut chosen = p.dirs.clone();
        if atoms.len() == 1 && b == 0 {
            // Fairy-Stockfish splits `fs` on orthogonal atoms into `ff` and `ss`.
            chosen = p
                .dirs
                .iter()
                .flat_map(|d| {
                    let (x, y) = (&d[..1], &d[1..]);
                    if x != y {
                        vec![format!("{x}{x}"), format!("{y}{y}")]
                    } else {
                        vec![d.clone()]
                    }
                })
                .collect();
        }
        for ((ra, rb, fa, fb), sel) in ORIENTATIONS {
            if !chosen.is_empty() && !chosen.iter().any(|d| sel.contains(&d.as_str())) {
                continue;
            }
            let (dr, df) = (ra * a + rb * b, fa * a + fb * b);
            if p.hop && !(dr.abs() <= 1 && df.abs() <= 1) {
                return Err((at, "expected a hopper on orthogonal or diagonal lines (pR, pB, gQ, ...)".into()));
            }
            let kind = if p.hop {
                Kind::Hop(distance)
            } else if rider {
                Kind::Ride(distance)
            } else {
                Kind::Leap { lame: p.lame }
            };
            // Fairy-Stockfish has no initial captures.
            let capture = capture && !p.initial;
            let m = Move { kind, quiet, capture, initial: p.initial, dr, df };
            if (quiet || capture) && !out.contains(&m) {
                out.push(m);
            }
        }
        // Each atom's moves in compass order (n ne e se s sw w nw, then leaps turning either
        // way from each of n e s w), the order the lowering's powers list them in.
        out[first..].sort_by_key(|m| compass_rank(m.dr, m.df, a, b));
    }
    Ok(())
}

/// Where a move of the atom (a, b) comes in compass order.
fn compass_rank(dr: i8, df: i8, a: i8, b: i8) -> usize {
    const UNITS: [(i8, i8); 8] = [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];
    if a == 1 {
        return UNITS.iter().position(|u| *u == (dr.signum(), df.signum())).unwrap_or(0);
    }
    let mut k = 0;
    for (ux, uy) in [(1i8, 0i8), (0, 1), (-1, 0), (0, -1)] {
        for turn in [1i8, -1] {
            let (vx, vy) = (-uy * turn, ux * turn);
            let (tx, ty) = if a == b { (a * (ux + vx), a * (uy + vy)) } else { (a * ux + b * vx, a * uy + b * vy) };
            if (tx, ty) == (df, dr) {
                return k;
            }
            k += 1;
        }
    }
    k
}

/// The cells a lame leap passes, as (ranks, files) unit steps in Fairy-Stockfish's order:
/// sideways while the files left outnumber the ranks, forwards while the ranks do,
/// diagonally when they are even.
pub fn lame_steps(dr: i8, df: i8) -> Vec<(i8, i8)> {
    let (mut r, mut f) = (dr, df);
    let mut p = Vec::new();
    while r != 0 || f != 0 {
        let diff = f.abs() - r.abs();
        let step = if diff > 0 {
            (0, f.signum())
        } else if diff < 0 {
            (r.signum(), 0)
        } else {
            (r.signum(), f.signum())
        };
        p.push(step);
        r -= step.0;
        f -= step.1;
    }
    p
}

/// The unit steps of a leap: straight or diagonal runs for lines, else the longer leg first,
/// then the shorter.
pub fn leap_steps(dr: i8, df: i8) -> Vec<(i8, i8)> {
    let (r, f) = (dr.signum(), df.signum());
    if dr == 0 || df == 0 || dr.abs() == df.abs() {
        return vec![(r, f); dr.unsigned_abs().max(df.unsigned_abs()) as usize];
    }
    let ranks = vec![(r, 0); dr.unsigned_abs() as usize];
    let files = vec![(0, f); df.unsigned_abs() as usize];
    if dr.abs() > df.abs() {
        ranks.into_iter().chain(files).collect()
    } else {
        files.into_iter().chain(ranks).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn targets(text: &str) -> Vec<(i8, i8)> {
        let mut t: Vec<(i8, i8)> = moves(text).expect("reads").iter().map(|m| (m.df, m.dr)).collect();
        t.sort();
        t
    }

    /// Fairy-Stockfish's directions on the knight (pyffish 0.0.90, a custom piece on d4):
    /// `f` and `ff` the two narrow forward moves, `fs` the two wide ones, `fh` all four, `fl`
    /// the one wide move forward and left.
    #[test]
    fn knight_directions_read_as_fairy_stockfish_reads_them() {
        assert_eq!(targets("fN"), [(-1, 2), (1, 2)]);
        assert_eq!(targets("ffN"), [(-1, 2), (1, 2)]);
        assert_eq!(targets("fsN"), [(-2, 1), (2, 1)]);
        assert_eq!(targets("fhN"), [(-2, 1), (-1, 2), (1, 2), (2, 1)]);
        assert_eq!(targets("flN"), [(-2, 1)]);
        assert_eq!(targets("lvN"), [(-1, -2), (-1, 2)]);
        assert_eq!(targets("ffrN"), [(-1, 2), (1, 2), (2, -1), (2, 1)]);
        assert_eq!(targets("flF"), [(-1, 1)]);
        assert_eq!(targets("sW"), [(-1, 0), (1, 0)]);
    }

    #[test]
    fn riders_hoppers_and_lame_leaps() {
        let nn = moves("NN").expect("reads");
        assert_eq!(nn.len(), 8);
        assert!(nn.iter().all(|m| m.kind == Kind::Ride(0)));
        assert!(moves("R4").expect("reads").iter().all(|m| m.kind == Kind::Ride(4)));
        assert!(moves("gQ").expect("reads").iter().all(|m| m.kind == Kind::Hop(1)));
        assert!(moves("nN").expect("reads").iter().all(|m| m.kind == Kind::Leap { lame: true }));
        assert_eq!(lame_steps(2, 1), [(1, 0), (1, 1)]);
        assert_eq!(leap_steps(1, 2), [(0, 1), (0, 1), (1, 0)]);
    }

    #[test]
    fn bad_strings_say_where() {
        assert_eq!(moves("mQz").unwrap_err().0, 2);
        assert_eq!(moves("fm").unwrap_err().0, 0);
        assert_eq!(moves("pN").unwrap_err().0, 1);
        assert_eq!(moves("").unwrap_err().0, 0);
    }
}
