//! Writing a board as grids: finding the grid plan that reproduces the cells and links, and simulating it to check.

use std::collections::{HashMap, HashSet};

use varia_interpreter::ir::*;

use super::*;

// ---------------------------------------------------------------- the board as grids

/// A board described as grids and their differences.
pub(super) struct GridPlan {
    /// Width, height, prefix, layer of each grid, in declaration order.
    pub(super) grids: Vec<(i32, i32, String, i32)>,
    /// Directions declared by name after the compass (ids 8 ..).
    pub(super) plain_dirs: Vec<DirId>,
    /// Directions declared by offset, after the plain ones.
    pub(super) offset_dirs: Vec<(DirId, [i32; 3])>,
    /// Grid cells that do not exist.
    pub(super) removed: Vec<String>,
    /// Merged cells: the names of the grid cells merged, and the cell they become.
    pub(super) merges: Vec<(Vec<String>, CellId)>,
    /// Cells that are not grid cells, declared one by one.
    pub(super) extra_cells: Vec<CellId>,
    /// Links of the grid that the board lacks.
    pub(super) unlinks: Vec<(CellId, DirId)>,
    /// Links beyond the grid's.
    pub(super) links: Vec<Link>,
}

pub(super) fn file_rank(x: i32, y: i32) -> Option<String> {
    ((0..26).contains(&x) && (0..99).contains(&y)).then(|| format!("{}{}", (b'a' + x as u8) as char, y + 1))
}

/// The grid description of the board, if it is made of grids (with the compass first).
pub(super) fn grid_plan(e: &Variant) -> Option<GridPlan> {
    let b = &e.board;
    if !has_grid_directions(b) {
        return None;
    }
    // Cells between cells come last (`between` runs after everything else).
    let n = b.cells.iter().position(|c| !c.covers.is_empty()).unwrap_or(b.cells.len());
    if b.cells[n..].iter().any(|c| c.covers.is_empty()) {
        return None;
    }
    let cells = &b.cells[..n];
    let prefixes = layer_prefixes(cells);
    let grid_name = |x: i32, y: i32, l: i32| Some(format!("{}{}", prefixes.get(&l)?, file_rank(x, y)?));
    let is_grid = |c: &Cell| {
        if c.also_at.is_empty() {
            grid_name(c.x, c.y, c.layer).as_deref() == Some(c.name.as_str())
        } else {
            std::iter::once((c.x, c.y, c.layer))
                .chain(c.also_at.iter().copied())
                .all(|(x, y, l)| grid_name(x, y, l).is_some())
        }
    };
    let grid_ids: Vec<usize> = (0..n).filter(|&i| is_grid(&cells[i])).collect();
    let extra_cells: Vec<CellId> = (0..n).filter(|&i| !is_grid(&cells[i])).map(|i| CellId(i as u16)).collect();
    if grid_ids.is_empty() {
        return None;
    }
    let grids = grid_sizes(cells, &grid_ids, &prefixes)?;
    // Directions after the compass: plain ones, then those that link by a constant offset.
    let mut first_offset = b.directions.len();
    while first_offset > 8 && offset_of(b, first_offset - 1).is_some() {
        first_offset -= 1;
    }
    for first in [first_offset, b.directions.len()] {
        let offsets: Vec<(DirId, [i32; 3])> =
            (first..b.directions.len()).map(|d| (DirId(d as u8), offset_of(b, d).unwrap_or_default())).collect();
        let Some((removed, merges, sim_links)) = simulate(b, n, &grids, &offsets, &extra_cells) else {
            continue;
        };
        let Some((unlinks, links)) = link_changes(b, &sim_links) else {
            continue;
        };
        let offset_touched = |d: DirId| offsets.iter().any(|(o, _)| *o == d);
        if first < b.directions.len()
            && (unlinks.iter().any(|u| offset_touched(u.1)) || links.iter().any(|l| offset_touched(l.dir)))
        {
            continue;
        }
        return Some(GridPlan {
            grids,
            plain_dirs: (8..first).map(|d| DirId(d as u8)).collect(),
            offset_dirs: offsets,
            removed,
            merges,
            extra_cells,
            unlinks,
            links,
        });
    }
    None
}

/// Whether the board's directions start with the compass and its sets, as grids declare them.
fn has_grid_directions(b: &Board) -> bool {
    if b.directions.len() < 8 || (0..8).any(|i| b.directions[i] != COMPASS[i].0) || b.direction_sets.len() < 3 {
        return false;
    }
    GRID_SETS.iter().enumerate().all(|(i, (name, members))| {
        let want: Vec<DirId> = members.iter().map(|&m| DirId(m)).collect();
        b.direction_sets[i].0 == *name && b.direction_sets[i].1 == want
    })
}

/// Each layer's prefix, from its first cell named as a grid names it.
fn layer_prefixes(cells: &[Cell]) -> HashMap<i32, String> {
    let mut prefixes: HashMap<i32, String> = HashMap::new();
    for c in cells.iter().filter(|c| c.also_at.is_empty()) {
        if let Some(own) = file_rank(c.x, c.y) {
            if let Some(p) = c.name.strip_suffix(&own) {
                prefixes.entry(c.layer).or_insert_with(|| p.to_string());
            }
        }
    }
    prefixes
}

/// The grids (width, height, prefix, layer) in order of their first cell, their sizes from
/// the positions their cells cover; `None` where two cells share a position or a layer has no
/// prefix.
fn grid_sizes(
    cells: &[Cell],
    grid_ids: &[usize],
    prefixes: &HashMap<i32, String>,
) -> Option<Vec<(i32, i32, String, i32)>> {
    let mut layers: Vec<i32> = Vec::new();
    let mut size: HashMap<i32, (i32, i32)> = HashMap::new();
    let mut occupied: HashSet<(i32, i32, i32)> = HashSet::new();
    for &i in grid_ids {
        let c = &cells[i];
        if !layers.contains(&c.layer) {
            layers.push(c.layer);
        }
        for (x, y, l) in std::iter::once((c.x, c.y, c.layer)).chain(c.also_at.iter().copied()) {
            if !occupied.insert((x, y, l)) {
                return None;
            }
            let s = size.entry(l).or_insert((0, 0));
            *s = (s.0.max(x + 1), s.1.max(y + 1));
        }
    }
    for l in size.keys() {
        if !layers.contains(l) {
            layers.push(*l);
        }
    }
    if layers.iter().any(|l| *l < 0 || !prefixes.contains_key(l)) {
        return None;
    }
    Some(layers.iter().map(|l| (size[l].0, size[l].1, prefixes[l].clone(), *l)).collect())
}

/// The one offset by which direction `d` links every pair of single-position cells, if it
/// has one (between -16 and 16, not zero).
fn offset_of(b: &Board, d: usize) -> Option<[i32; 3]> {
    let pos = |c: CellId| {
        let c = &b.cells[c.0 as usize];
        (c.x, c.y, c.layer, c.also_at.is_empty())
    };
    let mut delta = None;
    for l in b.links.iter().filter(|l| l.dir.0 as usize == d) {
        let (a, z) = (pos(l.from), pos(l.to));
        // A merged cell has several positions: its links are checked by the simulation.
        if !a.3 || !z.3 {
            continue;
        }
        let dd = [z.0 - a.0, z.1 - a.1, z.2 - a.2];
        if *delta.get_or_insert(dd) != dd {
            return None;
        }
    }
    delta.filter(|d| d.iter().all(|v| (-16..=16).contains(v)) && *d != [0, 0, 0])
}

/// The board's links as the grid's (`sim_links`) less some (the unlinks), plus others (the
/// links past them); `None` where a link the board lacks cannot be told from one it keeps.
#[allow(clippy::type_complexity)]
fn link_changes(b: &Board, sim_links: &[Link]) -> Option<(Vec<(CellId, DirId)>, Vec<Link>)> {
    let mut unlinks: Vec<(CellId, DirId)> = Vec::new();
    let mut kept: Vec<(CellId, DirId)> = Vec::new();
    let mut i = 0;
    for s in sim_links {
        match b.links.get(i) {
            Some(l) if (l.from, l.dir, l.to) == (s.from, s.dir, s.to) => {
                i += 1;
                kept.push((s.from, s.dir));
            }
            _ => {
                if !unlinks.contains(&(s.from, s.dir)) {
                    unlinks.push((s.from, s.dir));
                }
            }
        }
    }
    if unlinks.iter().any(|u| kept.contains(u)) {
        return None;
    }
    Some((unlinks, b.links[i..].to_vec()))
}

pub(super) type Simulated = (Vec<String>, Vec<(Vec<String>, CellId)>, Vec<Link>);

/// Builds the grids as the lowering does (cells, compass and offset links, removals, merges)
/// and checks the cells come out as the board's first `n` cells (less the extra ones).
/// Returns the removed cells, the merges and the links made.
pub(super) fn simulate(
    b: &Board,
    n: usize,
    grids: &[(i32, i32, String, i32)],
    offsets: &[(DirId, [i32; 3])],
    extra: &[CellId],
) -> Option<Simulated> {
    struct SimCell {
        name: String,
        pos: (i32, i32, i32),
        also_at: Vec<(i32, i32, i32)>,
    }
    let mut cells: Vec<SimCell> = Vec::new();
    let mut coords: HashMap<(i32, i32, i32), usize> = HashMap::new();
    let mut names = HashSet::new();
    for (w, h, prefix, layer) in grids {
        for y in 0..*h {
            for x in 0..*w {
                let name = format!("{prefix}{}", file_rank(x, y)?);
                if !names.insert(name.clone()) {
                    return None;
                }
                coords.insert((x, y, *layer), cells.len());
                cells.push(SimCell { name, pos: (x, y, *layer), also_at: Vec::new() });
            }
        }
    }
    let grid_cells: Vec<&Cell> = (0..n).filter(|i| !extra.contains(&CellId(*i as u16))).map(|i| &b.cells[i]).collect();
    let mut present: HashSet<(i32, i32, i32)> = HashSet::new();
    for c in &grid_cells {
        present.insert((c.x, c.y, c.layer));
        present.extend(c.also_at.iter().copied());
    }
    let removed_ids: Vec<usize> = (0..cells.len()).filter(|&i| !present.contains(&cells[i].pos)).collect();
    let removed_set: HashSet<usize> = removed_ids.iter().copied().collect();
    let mut links: Vec<(usize, DirId, usize)> = Vec::new();
    for (i, c) in cells.iter().enumerate() {
        if removed_set.contains(&i) {
            continue;
        }
        for (d, (_, dx, dy)) in COMPASS.iter().enumerate() {
            if let Some(&j) = coords.get(&(c.pos.0 + dx, c.pos.1 + dy, c.pos.2)) {
                if !removed_set.contains(&j) {
                    links.push((i, DirId(d as u8), j));
                }
            }
        }
    }
    for (i, c) in cells.iter().enumerate() {
        for (dir, [dx, dy, dl]) in offsets {
            if let Some(&j) = coords.get(&(c.pos.0 + dx, c.pos.1 + dy, c.pos.2 + dl)) {
                if !removed_set.contains(&i) && !removed_set.contains(&j) {
                    links.push((i, *dir, j));
                }
            }
        }
    }
    let removed: Vec<String> = removed_ids.iter().map(|&i| cells[i].name.clone()).collect();
    // Cells as ids into `cells`, after removal.
    let mut alive: Vec<usize> = (0..cells.len()).filter(|i| !removed_set.contains(i)).collect();
    let mut merges = Vec::new();
    for c in grid_cells.iter().filter(|c| !c.also_at.is_empty()) {
        let keep = *coords.get(&(c.x, c.y, c.layer))?;
        let gone: Vec<usize> = c.also_at.iter().map(|p| coords.get(p).copied()).collect::<Option<_>>()?;
        let mut list = vec![cells[keep].name.clone()];
        list.extend(gone.iter().map(|&g| cells[g].name.clone()));
        let at = |x: usize| if gone.contains(&x) { keep } else { x };
        let mut merged: Vec<(usize, DirId, usize)> = Vec::new();
        for &(f, d, t) in &links {
            let l = (at(f), d, at(t));
            if l.0 != l.2 && !merged.contains(&l) {
                merged.push(l);
            }
        }
        links = merged;
        let extra_at: Vec<(i32, i32, i32)> =
            gone.iter().flat_map(|&g| std::iter::once(cells[g].pos).chain(cells[g].also_at.clone())).collect();
        cells[keep].name = c.name.clone();
        cells[keep].also_at.extend(extra_at);
        alive.retain(|x| !gone.contains(x));
        // The final id of `keep` is needed in the text; found below once the order is known.
        merges.push((list, keep));
    }
    if alive.len() != grid_cells.len() {
        return None;
    }
    for (&i, c) in alive.iter().zip(&grid_cells) {
        let s = &cells[i];
        if s.name != c.name || s.pos != (c.x, c.y, c.layer) || s.also_at != c.also_at {
            return None;
        }
    }
    // Map simulated ids to the board's: grid cells are the board's cells less the extra ones.
    let board_ids: Vec<usize> = (0..n).filter(|i| !extra.contains(&CellId(*i as u16))).collect();
    let mut to_board: HashMap<usize, CellId> = HashMap::new();
    for (k, &i) in alive.iter().enumerate() {
        to_board.insert(i, CellId(board_ids[k] as u16));
    }
    let links = links
        .into_iter()
        .map(|(f, d, t)| Some(Link { from: to_board[&f], dir: d, to: *to_board.get(&t)? }))
        .collect::<Option<_>>()?;
    let merges = merges.into_iter().map(|(list, keep)| (list, to_board[&keep])).collect();
    Some((removed, merges, links))
}
