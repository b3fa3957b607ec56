//! Lowers the `(board ...)` items: grids, single positions, links, unlinks, killed positions, zones and symmetries.
use std::collections::HashSet;

use varia_interpreter::ir::{Board, Cell, DirId, Link};

use super::{cell_id, construct_name, is_presentation, Lowerer, Names, ZrfNote, MAX_POSITIONS};
use crate::reader::{Sexp, ZrfError};

/// A player's symmetry: the player and its (direction, direction read instead) pairs.
pub(crate) type Symmetry = (usize, Vec<(usize, usize)>);

/// A direction index as an IR id; indices are bounded by the one-byte id space.
pub(crate) fn dir_id(index: usize) -> DirId {
    DirId(u8::try_from(index).unwrap_or(u8::MAX))
}

/// The board while it is assembled, before killed positions are removed.
#[derive(Default)]
struct Raw {
    names: Names,
    pixels: Vec<(i64, i64)>,
    links: Vec<(usize, usize, usize)>,
    seen: HashSet<(usize, usize, usize)>,
    killed: Vec<bool>,
    /// The first grid's corner and its step in pixels across and down, where every grid
    /// steps along the axes (see `display`).
    lattice: Option<((i64, i64), (i64, i64))>,
    /// Some grid steps aslant (a hexagonal layout): no lattice.
    aslant: bool,
}

impl Raw {
    fn link(&mut self, from: usize, dir: usize, to: usize) {
        if self.seen.insert((from, dir, to)) {
            self.links.push((from, dir, to));
        }
    }
}

const LABEL: &str = "in the board";

impl Lowerer<'_> {
    pub(crate) fn board(&mut self, items: &[&Sexp]) -> Result<(Board, Vec<Symmetry>), ZrfError> {
        let mut raw = Raw::default();
        // Pass 1: positions (grids and single positions), and direction names in order of
        // first appearance (a `links` direction counts where it is written).
        for &item in items {
            let Some(head) = item.head() else {
                return Err(self.unsupported(item, LABEL));
            };
            match head.to_ascii_lowercase().as_str() {
                "grid" => self.grid(item, &mut raw)?,
                "positions" => {
                    for position in item.tail() {
                        let (name, x, y) = self.single_position(position)?;
                        self.add_position(&mut raw, name, (x, y), position)?;
                    }
                }
                "links" => {
                    let dir = item.tail().first().unwrap_or(item);
                    self.direction_name(dir)?;
                }
                "unlink" | "kill-positions" | "symmetry" | "zone" => {}
                _ if is_presentation(head) => {}
                _ => return Err(self.unsupported(item, LABEL)),
            }
        }
        // Pass 2: links and unlinks, in the order written.
        for &item in items {
            if item.is_form("links") {
                self.links(item, &mut raw)?;
            } else if item.is_form("unlink") {
                self.unlink(item, &mut raw)?;
            }
        }
        // Pass 3: kill-positions removes positions and every link from or to them.
        for &item in items.iter().filter(|item| item.is_form("kill-positions")) {
            for position in item.tail() {
                let index = self.raw_position(&raw, position, "in (kill-positions ...)")?;
                if let Some(dead) = raw.killed.get_mut(index) {
                    *dead = true;
                }
            }
        }
        // IR cells are a dense list: renumber the survivors, in the order they were made.
        let mut new_index = vec![None; raw.names.len()];
        let mut cells_pixels = Vec::new();
        for (index, name) in raw.names.list.iter().enumerate() {
            if raw.killed.get(index).copied().unwrap_or(false) {
                self.killed.intern(name);
                continue;
            }
            if let Some(slot) = new_index.get_mut(index) {
                *slot = Some(self.cells.len());
            }
            self.cells.intern(name);
            cells_pixels.push(raw.pixels.get(index).copied().unwrap_or((0, 0)));
        }
        let links: Vec<Link> = raw
            .links
            .iter()
            .filter_map(|&(from, dir, to)| {
                let from = (*new_index.get(from)?)?;
                let to = (*new_index.get(to)?)?;
                Some(Link { from: cell_id(from), dir: dir_id(dir), to: cell_id(to) })
            })
            .collect();

        // Pass 4: zones and symmetries, which name the final positions.
        let mut symmetries: Vec<Symmetry> = Vec::new();
        for &item in items {
            if item.is_form("zone") {
                self.zone_form(item)?;
            } else if item.is_form("symmetry") {
                symmetries.extend(self.symmetry(item)?);
            }
        }

        // Display coordinates: the rank of each pixel x among the distinct x values (0 =
        // leftmost), and of each pixel y counted from the bottom of the screen (0 = lowest).
        let mut xs: Vec<i64> = cells_pixels.iter().map(|p| p.0).collect();
        let mut ys: Vec<i64> = cells_pixels.iter().map(|p| p.1).collect();
        xs.sort_unstable();
        xs.dedup();
        ys.sort_unstable_by(|a, b| b.cmp(a));
        ys.dedup();
        let rank = |values: &[i64], v: i64, descending: bool| {
            let found =
                if descending { values.binary_search_by(|probe| v.cmp(probe)) } else { values.binary_search(&v) };
            i32::try_from(found.unwrap_or(0)).unwrap_or(i32::MAX)
        };
        let ranked: Vec<(i32, i32)> =
            cells_pixels.iter().map(|&(px, py)| (rank(&xs, px, false), rank(&ys, py, true))).collect();
        let places = lattice_places(&raw, &cells_pixels).unwrap_or(ranked);
        let cells = self
            .cells
            .list
            .iter()
            .zip(&places)
            .map(|(name, &(x, y))| Cell { name: name.clone(), x, y, layer: 0, covers: Vec::new(), also_at: Vec::new() })
            .collect();
        let board = Board {
            cells,
            directions: self.dirs.list.clone(),
            direction_sets: Vec::new(),
            links,
            initially_empty_locations: Vec::new(),
        };
        Ok((board, symmetries))
    }

    fn direction_name(&mut self, node: &Sexp) -> Result<usize, ZrfError> {
        let Some(name) = node.as_atom() else {
            return Err(self.err("a direction name must be a word", node, LABEL));
        };
        let mut names = std::mem::take(&mut self.dirs);
        let id = self.intern_byte(&mut names, name, "direction", node);
        self.dirs = names;
        id.map(usize::from)
    }

    fn add_position(&self, raw: &mut Raw, name: &str, pixel: (i64, i64), node: &Sexp) -> Result<usize, ZrfError> {
        // Clashing names are unknown ground in Zillions (SEMANTICS.md section 3): refuse them.
        if raw.names.exact.contains_key(name) {
            return Err(self.err(format!("position '{name}' is defined twice"), node, LABEL));
        }
        if raw.names.len() >= MAX_POSITIONS {
            return Err(self.err(format!("more than {MAX_POSITIONS} positions"), node, "the board is too large"));
        }
        raw.pixels.push(pixel);
        raw.killed.push(false);
        Ok(raw.names.intern(name))
    }

    fn number(&self, node: Option<&Sexp>, parent: &Sexp, what: &str) -> Result<i64, ZrfError> {
        node.and_then(Sexp::as_atom)
            .and_then(|text| text.parse::<i32>().ok())
            .map(i64::from)
            .ok_or_else(|| self.err(format!("expected {what}"), node.unwrap_or(parent), LABEL))
    }

    /// `(NAME x1 y1 x2 y2)` of a `positions` form: the name and the rectangle's corner.
    fn single_position<'a>(&self, node: &'a Sexp) -> Result<(&'a str, i64, i64), ZrfError> {
        let Some((name, coords)) = node.as_list().and_then(<[Sexp]>::split_first) else {
            return Err(self.err("expected (NAME x1 y1 x2 y2)", node, "in (positions ...)"));
        };
        let Some(name_text) = name.as_atom() else {
            return Err(self.err("a position name must be a word", name, "in (positions ...)"));
        };
        let x = self.number(coords.first(), node, "a pixel coordinate")?;
        let y = self.number(coords.get(1), node, "a pixel coordinate")?;
        Ok((name_text, x, y))
    }

    /// `(grid (start-rectangle x1 y1 x2 y2) (dimensions ("l1/l2" (dx dy)) ...) (directions ...))`.
    fn grid(&mut self, grid: &Sexp, raw: &mut Raw) -> Result<(), ZrfError> {
        let label = "in (grid ...)";
        let mut corner = (0, 0);
        let mut dimensions: Vec<(Vec<String>, (i64, i64))> = Vec::new();
        let mut directions: Vec<(usize, Vec<i64>, &Sexp)> = Vec::new();
        let mut dims_form = None;
        for item in grid.tail() {
            let Some(head) = item.head() else {
                return Err(self.unsupported(item, label));
            };
            match head.to_ascii_lowercase().as_str() {
                "start-rectangle" => {
                    corner = (
                        self.number(item.tail().first(), item, "a pixel coordinate")?,
                        self.number(item.tail().get(1), item, "a pixel coordinate")?,
                    );
                }
                "dimensions" => {
                    dims_form = Some(item);
                    for dimension in item.tail() {
                        let parts = dimension.as_list().unwrap_or(&[]);
                        let (Some(labels), Some(offset)) = (parts.first().and_then(Sexp::text), parts.get(1)) else {
                            return Err(self.err("expected (\"l1/l2/...\" (dx dy))", dimension, label));
                        };
                        let dx = self.number(offset.as_list().and_then(|o| o.first()), offset, "a pixel offset")?;
                        let dy = self.number(offset.as_list().and_then(|o| o.get(1)), offset, "a pixel offset")?;
                        dimensions.push((labels.split('/').map(str::to_string).collect(), (dx, dy)));
                    }
                }
                "directions" => {
                    for direction in item.tail() {
                        let Some((name, deltas)) = direction.as_list().and_then(<[Sexp]>::split_first) else {
                            return Err(self.err("expected (name delta ...)", direction, label));
                        };
                        let dir = self.direction_name(name)?;
                        let deltas = deltas
                            .iter()
                            .map(|d| self.number(Some(d), direction, "an index delta"))
                            .collect::<Result<Vec<_>, _>>()?;
                        directions.push((dir, deltas, direction));
                    }
                }
                _ => return Err(self.unsupported(item, label)),
            }
        }
        let Some(dims_form) = dims_form.filter(|_| !dimensions.is_empty()) else {
            return Err(self.err("a grid needs (dimensions ...)", grid, label));
        };
        raw.aslant |= dimensions.iter().any(|(_, (dx, dy))| *dx != 0 && *dy != 0);
        let across = dimensions.iter().map(|(_, (dx, _))| dx.abs()).filter(|d| *d > 0).min();
        let down = dimensions.iter().map(|(_, (_, dy))| dy.abs()).filter(|d| *d > 0).min();
        if let (None, Some(across), Some(down)) = (raw.lattice, across, down) {
            raw.lattice = Some((corner, (across, down)));
        }
        let total = dimensions.iter().try_fold(1usize, |acc, (labels, _)| acc.checked_mul(labels.len()));
        let total = match total {
            Some(total) if raw.names.len().saturating_add(total) <= MAX_POSITIONS => total,
            _ => return Err(self.err(format!("more than {MAX_POSITIONS} positions"), dims_form, label)),
        };
        // Cells are made with the first dimension varying fastest (a8 b8 ... h8 a7 ... h1).
        let sizes: Vec<usize> = dimensions.iter().map(|(labels, _)| labels.len()).collect();
        let mut first = None;
        for flat in 0..total {
            let index = unflatten(flat, &sizes);
            let name: String = dimensions
                .iter()
                .zip(&index)
                .filter_map(|((labels, _), &i)| labels.get(i).map(String::as_str))
                .collect();
            let mut pixel = corner;
            for ((_, (dx, dy)), &i) in dimensions.iter().zip(&index) {
                let i = i64::try_from(i).unwrap_or(0);
                pixel = (pixel.0.saturating_add(i.saturating_mul(*dx)), pixel.1.saturating_add(i.saturating_mul(*dy)));
            }
            let id = self.add_position(raw, &name, pixel, dims_form)?;
            first.get_or_insert(id);
        }
        let first = first.unwrap_or(0);
        // Each direction links every position to the one at the index delta, inside this grid.
        for (dir, mut deltas, node) in directions {
            // Fewer deltas than dimensions leave the rest at 0: a board of levels whose
            // directions run within each level (real files link the levels by `links`).
            if deltas.len() > sizes.len() || deltas.is_empty() {
                return Err(self.err(
                    format!("a direction needs at most {} index deltas, one per dimension", sizes.len()),
                    node,
                    label,
                ));
            }
            deltas.resize(sizes.len(), 0);
            for flat in 0..total {
                let index = unflatten(flat, &sizes);
                let target: Option<Vec<usize>> = index
                    .iter()
                    .zip(&deltas)
                    .zip(&sizes)
                    .map(|((&i, &d), &size)| {
                        let t = i64::try_from(i).ok()?.checked_add(d)?;
                        usize::try_from(t).ok().filter(|&t| t < size)
                    })
                    .collect();
                if let Some(target) = target {
                    raw.link(first + flat, dir, first + flatten(&target, &sizes));
                }
            }
        }
        Ok(())
    }

    fn raw_position(&self, raw: &Raw, node: &Sexp, label: &str) -> Result<usize, ZrfError> {
        node.as_atom()
            .and_then(|name| raw.names.get(name))
            .ok_or_else(|| self.err(format!("unknown position '{}'", construct_name(node)), node, label))
    }

    /// `(links DIR (A B) ...)`: one-way links A -> B in DIR (a new direction name is fine).
    fn links(&mut self, form: &Sexp, raw: &mut Raw) -> Result<(), ZrfError> {
        let label = "in (links ...)";
        let Some((dir, pairs)) = form.tail().split_first() else {
            return Err(self.err("expected (links DIR (FROM TO) ...)", form, label));
        };
        let dir = self.direction_name(dir)?;
        for pair in pairs {
            let [from, to] = pair.as_list().unwrap_or(&[]) else {
                return Err(self.err("expected a pair (FROM TO)", pair, label));
            };
            let from = self.raw_position(raw, from, label)?;
            let to = self.raw_position(raw, to, label)?;
            raw.link(from, dir, to);
        }
        Ok(())
    }

    /// `(unlink ...)`: a bare position loses every link from and to it; `(A d)` removes A's link
    /// in direction d; `(A B)` removes the one-way link A -> B in every direction (SEMANTICS.md:
    /// a pair is read one way, so both orders remove both ways).
    fn unlink(&mut self, form: &Sexp, raw: &mut Raw) -> Result<(), ZrfError> {
        let label = "in (unlink ...)";
        for item in form.tail() {
            match item.as_list() {
                None => {
                    let at = self.raw_position(raw, item, label)?;
                    raw.links.retain(|&(from, _, to)| from != at && to != at);
                }
                Some([from, second]) => {
                    let from = self.raw_position(raw, from, label)?;
                    // A direction wins over a position of the same name, as in move bodies.
                    if let Some(dir) = second.as_atom().and_then(|name| self.dirs.get(name)) {
                        raw.links.retain(|&(f, d, _)| f != from || d != dir);
                    } else {
                        let to = second.as_atom().and_then(|name| raw.names.get(name)).ok_or_else(|| {
                            self.err(
                                format!("unknown position or direction '{}'", construct_name(second)),
                                second,
                                label,
                            )
                        })?;
                        raw.links.retain(|&(f, _, t)| f != from || t != to);
                    }
                }
                Some(_) => return Err(self.err("expected a position, (POS DIR) or (FROM TO)", item, label)),
            }
        }
        raw.seen = raw.links.iter().copied().collect();
        Ok(())
    }

    /// `(zone (name Z) (players P ...) (positions ...))`: one IR zone per name, cells per player.
    fn zone_form(&mut self, form: &Sexp) -> Result<(), ZrfError> {
        let label = "in (zone ...)";
        let child = |key: &str| form.tail().iter().find(|item| item.is_form(key));
        for item in form.tail() {
            let shown = item.head().is_some_and(super::is_presentation);
            if !(shown || item.is_form("name") || item.is_form("players") || item.is_form("positions")) {
                return Err(self.unsupported(item, label));
            }
        }
        let Some(name_node) = child("name").and_then(|n| n.tail().first()) else {
            return Err(self.err("a zone needs a (name ...)", form, label));
        };
        let Some(name) = name_node.as_atom() else {
            return Err(self.err("a zone name must be a word", name_node, label));
        };
        let players = child("players")
            .map_or(&[][..], Sexp::tail)
            .iter()
            .map(|p| self.player(p, label))
            .collect::<Result<Vec<_>, _>>()?;
        let mut cells = Vec::new();
        for position in child("positions").map_or(&[][..], Sexp::tail) {
            // Ruling: a zone may list positions that kill-positions removed (morris.zrf's
            // `killed` zone); they are left out of it, with a note.
            let removed =
                position.as_atom().is_some_and(|n| self.cells.get(n).is_none() && self.killed.get(n).is_some());
            if removed {
                self.notes.push(crate::ZrfNote {
                    message: format!("zone '{name}' lists position '{position}', removed by kill-positions: left out"),
                    span: position.span.clone(),
                });
                continue;
            }
            cells.push(self.cell(position, label)?);
        }
        let mut names = std::mem::take(&mut self.zones);
        let id = self.intern_byte(&mut names, name, "zone", name_node);
        self.zones = names;
        let id = usize::from(id?);
        let player_count = self.players.len();
        while self.zone_cells.len() <= id {
            self.zone_cells.push(vec![Vec::new(); player_count]);
        }
        if let Some(per_player) = self.zone_cells.get_mut(id) {
            for player in players {
                if let Some(list) = per_player.get_mut(usize::from(player.0)) {
                    for &cell in &cells {
                        if !list.contains(&cell) {
                            list.push(cell);
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `(symmetry P (a b) ...)`: when P moves, direction a is followed as b. A symmetry of
    /// one who is not a player, or a pair naming a direction no board has, changes nothing
    /// (no link follows such a direction) and is passed over with a note, as real files
    /// carry both.
    fn symmetry(&mut self, form: &Sexp) -> Result<Option<Symmetry>, ZrfError> {
        let label = "in (symmetry ...)";
        let Some((who, pairs)) = form.tail().split_first() else {
            return Err(self.err("expected (symmetry Player (d1 d2) ...)", form, label));
        };
        let Some(player) = who.as_atom().and_then(|name| self.players.get(name)) else {
            let message = format!("a symmetry of '{}', who is not a player: ignored", construct_name(who));
            self.notes.push(ZrfNote { message, span: who.span.clone() });
            return Ok(None);
        };
        let mut map = Vec::new();
        for pair in pairs {
            let [from, to] = pair.as_list().unwrap_or(&[]) else {
                return Err(self.err("expected a pair of directions (d1 d2)", pair, label));
            };
            let unknown = [from, to].into_iter().find(|d| d.as_atom().and_then(|name| self.dirs.get(name)).is_none());
            if let Some(unknown) = unknown {
                let message = format!(
                    "'{}' is no direction of the board: the symmetry pair ({} {}) is ignored",
                    construct_name(unknown),
                    construct_name(from),
                    construct_name(to)
                );
                self.notes.push(ZrfNote { message, span: pair.span.clone() });
                continue;
            }
            map.push((self.known_direction(from, label)?, self.known_direction(to, label)?));
        }
        Ok(Some((player, map)))
    }

    pub(crate) fn known_direction(&self, node: &Sexp, label: &str) -> Result<usize, ZrfError> {
        node.as_atom()
            .and_then(|name| self.dirs.get(name))
            .ok_or_else(|| self.err(format!("unknown direction '{}'", construct_name(node)), node, label))
    }
}

/// The index tuple of a flat index, first dimension varying fastest.
fn unflatten(mut flat: usize, sizes: &[usize]) -> Vec<usize> {
    sizes
        .iter()
        .map(|&size| {
            let i = flat % size.max(1);
            flat /= size.max(1);
            i
        })
        .collect()
}

fn flatten(index: &[usize], sizes: &[usize]) -> usize {
    index.iter().zip(sizes).rev().fold(0, |acc, (&i, &size)| acc * size + i)
}

/// Display places on the grids' own lattice: each position's pixel corner in steps of the first
/// grid from its corner (rounded), so that positions outside the grids (chaturaji's boats'
/// reserve squares, its dice) stand beside them where the file draws them instead of adding
/// rows between the ranks. `None` (the places are then the ranks of the distinct pixel values)
/// without an upright grid, or where two positions would share a place.
fn lattice_places(raw: &Raw, pixels: &[(i64, i64)]) -> Option<Vec<(i32, i32)>> {
    let ((x0, y0), (dx, dy)) = raw.lattice.filter(|_| !raw.aslant)?;
    let steps = |p: i64, origin: i64, step: i64| -> i64 {
        let d = p.saturating_sub(origin);
        // Round to the nearest step (half away from zero).
        (d.saturating_mul(2).saturating_add(step * d.signum())) / (2 * step)
    };
    let raw_places: Vec<(i64, i64)> = pixels.iter().map(|&(px, py)| (steps(px, x0, dx), -steps(py, y0, dy))).collect();
    let min_x = raw_places.iter().map(|p| p.0).min()?;
    let min_y = raw_places.iter().map(|p| p.1).min()?;
    let places: Vec<(i32, i32)> = raw_places
        .iter()
        .map(|&(x, y)| Some((i32::try_from(x - min_x).ok()?, i32::try_from(y - min_y).ok()?)))
        .collect::<Option<_>>()?;
    let mut seen = HashSet::new();
    places.iter().all(|p| seen.insert(*p)).then_some(places)
}
