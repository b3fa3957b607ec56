//! `(opposite d)`: the direction that leads back along every link of direction `d`.
use varia_interpreter::ir::{Board, DirId};

/// For each direction, the direction that reverses all its links (`a --d--> b` has
/// `b --e--> a` for every such pair), when exactly one does; `None` otherwise.
pub(crate) fn opposites(board: &Board) -> Vec<Option<DirId>> {
    let count = board.directions.len();
    let mut by_dir: Vec<Vec<(u16, u16)>> = vec![Vec::new(); count];
    for link in &board.links {
        if let Some(pairs) = by_dir.get_mut(usize::from(link.dir.0)) {
            pairs.push((link.from.0, link.to.0));
        }
    }
    for pairs in &mut by_dir {
        pairs.sort_unstable();
    }
    (0..count)
        .map(|d| {
            let reversing: Vec<usize> = (0..count)
                .filter(|&e| {
                    !by_dir[d].is_empty() && by_dir[d].iter().all(|&(a, b)| by_dir[e].binary_search(&(b, a)).is_ok())
                })
                .collect();
            match reversing.as_slice() {
                [e] => u8::try_from(*e).ok().map(DirId),
                _ => None,
            }
        })
        .collect()
}
