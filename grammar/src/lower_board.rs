//! Lowering of the board: grids, cells, merges, removed cells, `between` locations, directions and cell lists.

use std::ops::Range;

use varia_interpreter::ir::*;

use super::*;
use crate::diagnostic::Diagnostic;
use crate::syntax::Rule;

impl Lowerer {
    // ------------------------------------------------------------ board

    pub(super) fn board(&mut self, block: Node) {
        let block_span = span(&block);
        let items: Vec<Node> = block
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::k_board | Rule::lbrace | Rule::rbrace))
            .collect();
        let mut grids = 0;
        for item in items.iter().filter(|p| p.as_rule() == Rule::grid_decl) {
            self.grid(item.clone(), grids);
            grids += 1;
        }
        // Single cells: no links by coordinates (only `link` joins them).
        let mut free: Vec<CellId> = Vec::new();
        for item in items.iter().filter(|p| p.as_rule() == Rule::cell_decl) {
            free.extend(self.free_cell(item.clone()));
        }
        if grids > 0 {
            self.compass_directions();
        }
        for item in items.iter().filter(|p| p.as_rule() == Rule::direction_decl) {
            for n in item.clone().into_inner().skip(1) {
                self.declare_direction(&n);
            }
        }
        // Directions by offset of display coordinates: declared here, linked with the compass.
        let offsets = self.offset_directions(&items);
        let mut removed = Vec::new();
        for item in items.iter().filter(|p| p.as_rule() == Rule::remove_decl) {
            let list = item.clone().into_inner().nth(1).expect("cells");
            removed.extend(self.cell_list(list, None));
        }
        self.link_by_coordinates(grids > 0, &offsets, &removed, &free);
        if !removed.is_empty() {
            self.remove_cells(&removed);
        }
        for item in items.iter().filter(|p| p.as_rule() == Rule::merge_decl) {
            self.merge(item.clone());
        }
        let items_between: Vec<Node> = items.iter().filter(|p| p.as_rule() == Rule::between_decl).cloned().collect();
        for item in items {
            match item.as_rule() {
                Rule::link_decl => {
                    let mut it = item.into_inner().skip(1);
                    let (a, d, b) = (it.next().expect("from"), it.next().expect("dir"), it.next().expect("to"));
                    let (a, b) = (self.cell(&a), self.cell(&b));
                    let d = self.direction(&d);
                    if let (Some(from), Some(dir), Some(to)) = (a, d, b) {
                        self.links.push(Link { from, dir, to });
                    }
                }
                Rule::unlink_decl => self.unlink(item),
                Rule::dirset_decl => self.direction_set(item),
                Rule::no_square_decl => {
                    let list = item.into_inner().nth(1).expect("cells");
                    let cells = self.cell_list(list, None);
                    self.no_square.extend(cells);
                }
                _ => {}
            }
        }
        // Between locations last: they sit between the final cells and links.
        for item in items_between {
            self.between(item);
        }
        if self.cells.is_empty() && self.errors.is_empty() {
            self.errors.push(Diagnostic::new(
                "the board has no cells",
                block_span.clone(),
                "expected a `grid W x H` in this block",
            ));
        }
    }

    /// The compass directions of grids, with their sets `orthogonal`, `diagonal` and `all`.
    fn compass_directions(&mut self) {
        for (name, _, _) in COMPASS {
            let id = DirId(self.dirs.len() as u8);
            self.dirs.entry(name.to_string()).or_insert(id);
        }
        let set = |names: &[&str], dirs: &IndexMap<String, DirId>| names.iter().map(|n| dirs[*n]).collect::<Vec<_>>();
        self.dir_sets.insert("orthogonal".into(), set(&["n", "e", "s", "w"], &self.dirs));
        self.dir_sets.insert("diagonal".into(), set(&["ne", "se", "sw", "nw"], &self.dirs));
        self.dir_sets.insert("all".into(), set(&["n", "ne", "e", "se", "s", "sw", "w", "nw"], &self.dirs));
    }

    /// The directions declared by an offset of display coordinates (`direction up offset 0 0 1`).
    fn offset_directions(&mut self, items: &[Node]) -> Vec<(DirId, i32, i32, i32)> {
        let mut offsets: Vec<(DirId, i32, i32, i32)> = Vec::new();
        for item in items.iter().filter(|p| p.as_rule() == Rule::offset_dir_decl) {
            let mut it = item.clone().into_inner().skip(1);
            let n = it.next().expect("direction name");
            let mut delta = [0i32; 3];
            let mut in_range = true;
            for (d, node) in delta.iter_mut().zip(it.skip(1)) {
                match node.as_str().parse::<i32>() {
                    Ok(v) if (-16..=16).contains(&v) => *d = v,
                    // Left out of `offsets`: added to coordinates, it would overflow.
                    _ => {
                        self.error(&node, "offset too large", "expected an offset between -16 and 16");
                        in_range = false;
                    }
                }
            }
            if !in_range {
                continue;
            }
            if delta == [0, 0, 0] {
                self.error(&n, "a direction with offset 0 0 0", "expected an offset that moves somewhere");
            } else if let Some(id) = self.declare_direction(&n) {
                offsets.push((id, delta[0], delta[1], delta[2]));
            }
        }
        offsets
    }

    /// The links by coordinates: the compass's within each layer (with `compass`: the board has
    /// grids) and the offset directions'; removed and single cells break them.
    fn link_by_coordinates(
        &mut self,
        compass: bool,
        offsets: &[(DirId, i32, i32, i32)],
        removed: &[CellId],
        free: &[CellId],
    ) {
        // Compass links by coordinates within each layer; removed cells break them.
        if compass {
            for (i, cell) in self.cells.iter().enumerate() {
                let from = CellId(i as u16);
                if removed.contains(&from) || free.contains(&from) {
                    continue;
                }
                for (name, dx, dy) in COMPASS {
                    if let Some(&to) = self.coords.get(&(cell.x + dx, cell.y + dy, cell.layer)) {
                        if !removed.contains(&to) && !free.contains(&to) {
                            self.links.push(Link { from, dir: self.dirs[name], to });
                        }
                    }
                }
            }
        }
        for (i, cell) in self.cells.iter().enumerate() {
            let from = CellId(i as u16);
            for &(dir, dx, dy, dl) in offsets {
                if let Some(&to) = self.coords.get(&(cell.x + dx, cell.y + dy, cell.layer + dl)) {
                    let joined = [from, to].iter().all(|c| !removed.contains(c) && !free.contains(c));
                    if joined {
                        self.links.push(Link { from, dir, to });
                    }
                }
            }
        }
    }

    /// `unlink CELL DIR`: takes the cell's links in that direction away (an error if it has none).
    fn unlink(&mut self, item: Node) {
        let mut it = item.clone().into_inner().skip(1);
        let (a, d) = (it.next().expect("from"), it.next().expect("dir"));
        let (a, d) = (self.cell(&a), self.direction(&d));
        if let (Some(from), Some(dir)) = (a, d) {
            let before = self.links.len();
            self.links.retain(|l| l.from != from || l.dir != dir);
            if self.links.len() == before {
                let mut it = item.clone().into_inner().skip(1);
                let (a, d) = (it.next().expect("from"), it.next().expect("dir"));
                self.error(
                    &item,
                    format!("`{}` has no link in direction `{}`", a.as_str(), d.as_str()),
                    "expected a cell and a direction that are linked (here, so far)",
                );
            }
        }
    }

    /// `directions NAME = DIR...`: a named set of directions.
    fn direction_set(&mut self, item: Node) {
        let mut it = item.into_inner().skip(1);
        let name = it.next().expect("set name");
        let mut set = Vec::new();
        for d in it.filter(|p| p.as_rule() == Rule::name) {
            set.extend(self.directions(&d));
        }
        if self.dirs.contains_key(name.as_str()) || self.dir_sets.contains_key(name.as_str()) {
            self.error(&name, format!("`{}` is already a direction or set", name.as_str()), "choose another name");
        } else {
            self.dir_sets.insert(name.as_str().to_string(), set);
        }
    }

    /// Reports the declaration that would bring the board past [`MAX_CELLS`] with `more` cells.
    pub(super) fn too_many_cells(&mut self, at: &Node, more: usize) {
        if self.errors.iter().any(|e| e.message.starts_with("the board has more than")) {
            return;
        }
        self.error(
            at,
            format!("the board has more than {MAX_CELLS} cells"),
            format!("expected at most {MAX_CELLS} cells in all: this adds {more} to {}", self.cells.len()),
        );
    }

    /// `between DIRS`: a location at the midpoint of every two cells of one layer linked in one of
    /// the directions, one step apart in each coordinate; it covers every cell of its layer within
    /// half a step in both coordinates (two cells between a file's or rank's neighbours, four
    /// between diagonal ones). Named as on a grid: `a1.5` between ranks, `ab1` between files,
    /// `ab1.5` between both.
    pub(super) fn between(&mut self, item: Node) {
        let mut dirs = Vec::new();
        for d in item.clone().into_inner().skip(1) {
            dirs.extend(self.directions(&d));
        }
        let base = self.cells.len();
        if base.saturating_mul(2) > MAX_CELLS {
            // Up to one location per link: checked before they are made.
            let links = self.links.iter().filter(|l| dirs.contains(&l.dir)).count();
            if base + links > MAX_CELLS {
                self.too_many_cells(&item, links);
                return;
            }
        }
        // The cells at each place, so a location finds the cells it covers without a scan.
        let mut at_place: HashMap<(i32, i32, i32), Vec<CellId>> = HashMap::new();
        for (i, c) in self.cells.iter().enumerate() {
            at_place.entry((c.x, c.y, c.layer)).or_default().push(CellId(i as u16));
        }
        let mut made: HashMap<(i32, i32, i32), CellId> = HashMap::new();
        let mut added = 0;
        for l in self.links.clone() {
            if !dirs.contains(&l.dir) {
                continue;
            }
            let (a, b) = (&self.cells[l.from.0 as usize], &self.cells[l.to.0 as usize]);
            if a.layer != b.layer || (a.x - b.x).abs() > 1 || (a.y - b.y).abs() > 1 {
                continue;
            }
            // Doubled coordinates of the midpoint, so halves stay whole numbers.
            let key = (a.x + b.x, a.y + b.y, a.layer);
            if made.contains_key(&key) {
                continue;
            }
            // Cells within half a step of the midpoint in both coordinates.
            let near = |k: i32| [k.div_euclid(2), (k + 1).div_euclid(2)];
            let mut covers: Vec<CellId> = Vec::new();
            for x in near(key.0) {
                for y in near(key.1) {
                    for &c in at_place.get(&(x, y, key.2)).into_iter().flatten() {
                        if !covers.contains(&c) {
                            covers.push(c);
                        }
                    }
                }
            }
            covers.sort();
            let Some(name) = self.between_name(&covers, key.0, key.1) else {
                self.error(
                    &item,
                    "`between` needs cells named as on a grid (file letter and rank number)",
                    "expected a board made of `grid`s",
                );
                return;
            };
            if self.cell_ids.contains_key(&name) {
                self.error(&item, format!("duplicate cell `{name}`"), "a between location would take this name");
                return;
            }
            let id = CellId(self.cells.len() as u16);
            made.insert(key, id);
            self.cell_ids.insert(name.clone(), id);
            self.cells.push(Cell {
                name,
                x: key.0.div_euclid(2),
                y: key.1.div_euclid(2),
                layer: key.2,
                covers,
                also_at: Vec::new(),
            });
            added += 1;
        }
        if added == 0 {
            self.error(&item, "no cells are linked in these directions", "expected directions that link neighbours");
        }
        self.between_at = Some(span(&item));
    }

    /// The grid-style name of a between location at doubled coordinates `(x2, y2)`, from the
    /// name of its lowest covered cell: its prefix, the file letter or the two around it, the
    /// rank number with `.5` when between ranks.
    pub(super) fn between_name(&self, covers: &[CellId], x2: i32, y2: i32) -> Option<String> {
        let low = covers.iter().map(|c| &self.cells[c.0 as usize]).min_by_key(|c| (c.y, c.x))?;
        let file = |x: i32| (0..26).contains(&x).then(|| (b'a' + x as u8) as char);
        let own = format!("{}{}", file(low.x)?, low.y + 1);
        let prefix = low.name.strip_suffix(&own)?;
        let (x, y) = (x2.div_euclid(2), y2.div_euclid(2));
        let files = if x2 % 2 == 0 { file(x)?.to_string() } else { format!("{}{}", file(x)?, file(x + 1)?) };
        let rank = if y2 % 2 == 0 { format!("{}", y + 1) } else { format!("{}.5", y + 1) };
        Some(format!("{prefix}{files}{rank}"))
    }

    /// Declares a direction name, reporting a duplicate or one too many.
    pub(super) fn declare_direction(&mut self, n: &Node) -> Option<DirId> {
        if self.dirs.contains_key(n.as_str()) {
            self.error(n, format!("duplicate direction `{}`", n.as_str()), "expected a name no other direction uses");
            return None;
        }
        if self.dirs.len() >= 255 {
            self.error(n, "too many directions", "expected at most 255 directions");
            return None;
        }
        let id = DirId(self.dirs.len() as u8);
        self.dirs.insert(n.as_str().to_string(), id);
        Some(id)
    }

    /// `cell NAME at X Y [layer L]`: one cell at display coordinates.
    pub(super) fn free_cell(&mut self, item: Node) -> Option<CellId> {
        let item_node = item.clone();
        let mut it = item.into_inner().skip(1);
        let name = it.next().expect("cell name");
        let _at = it.next();
        let mut xy = [0i32; 2];
        let mut ok = true;
        for v in xy.iter_mut() {
            let node = it.next().expect("coordinate");
            match node.as_str().parse::<i32>() {
                Ok(n) if (-1000..=1000).contains(&n) => *v = n,
                _ => {
                    self.error(&node, "coordinate out of range", "expected a number from -1000 to 1000");
                    ok = false;
                }
            }
        }
        let mut layer = 0;
        if let Some(opt) = it.next() {
            let n = opt.into_inner().nth(1).expect("layer");
            layer = int_value(self, &n, 1000) as i32;
        }
        if self.cell_ids.contains_key(name.as_str()) {
            self.error(&name, format!("duplicate cell `{}`", name.as_str()), "expected a name no other cell has");
            return None;
        }
        if !ok {
            return None;
        }
        if let Some(other) = self.coords.get(&(xy[0], xy[1], layer)) {
            let other = self.cells[other.0 as usize].name.clone();
            self.error(
                &name,
                format!("cell `{}` is at the place of `{other}`", name.as_str()),
                "expected display coordinates (and layer) no other cell has",
            );
            return None;
        }
        if self.cells.len() >= MAX_CELLS {
            self.too_many_cells(&item_node, 1);
            return None;
        }
        let id = CellId(self.cells.len() as u16);
        self.cell_ids.insert(name.as_str().to_string(), id);
        self.coords.insert((xy[0], xy[1], layer), id);
        self.cells.push(Cell {
            name: name.as_str().to_string(),
            x: xy[0],
            y: xy[1],
            layer,
            covers: Vec::new(),
            also_at: Vec::new(),
        });
        Some(id)
    }

    pub(super) fn grid(&mut self, g: Node, index: i32) {
        let mut it = g.clone().into_inner().skip(1);
        let w_node = it.next().expect("width");
        // An out-of-range size is reported and read as the largest size, so that the rest of
        // the file still finds its cells.
        let w = int_checked(self, &w_node, 26).unwrap_or(26) as i32;
        let _x = it.next();
        let h_node = it.next().expect("height");
        let h = int_checked(self, &h_node, 99).unwrap_or(99) as i32;
        if w == 0 || h == 0 {
            self.error(&g, "a grid needs at least one file and one rank", "expected sizes of at least 1");
        }
        if self.cells.len() + (w * h) as usize > MAX_CELLS {
            self.too_many_cells(&g, (w * h) as usize);
            return;
        }
        let mut prefix = String::new();
        let mut layer = index;
        for opt in it {
            match opt.as_rule() {
                Rule::prefix_option => prefix = string_value(&opt.into_inner().nth(1).expect("prefix")),
                Rule::layer_option => {
                    let n = opt.into_inner().nth(1).expect("layer");
                    layer = int_value(self, &n, 1000) as i32;
                }
                _ => {}
            }
        }
        for y in 0..h {
            for x in 0..w {
                let name = format!("{prefix}{}{}", (b'a' + x as u8) as char, y + 1);
                if self.cell_ids.contains_key(&name) {
                    self.error(
                        &g,
                        format!("duplicate cell `{name}`: two grids name the same cell"),
                        "expected a `prefix \"...\"` that no other grid uses",
                    );
                    return;
                }
                let id = CellId(self.cells.len() as u16);
                self.cell_ids.insert(name.clone(), id);
                self.coords.insert((x, y, layer), id);
                self.cells.push(Cell { name, x, y, layer, covers: Vec::new(), also_at: Vec::new() });
            }
        }
    }

    /// `merge CELLS as NAME`: the first cell takes the name and every link of the others,
    /// which disappear; links that now lead from the cell to itself are dropped.
    pub(super) fn merge(&mut self, item: Node) {
        let mut it = item.into_inner().skip(1);
        let list = it.next().expect("cells");
        let name = it.nth(1).expect("merged name");
        let cells = self.cell_list(list, None);
        let Some(&keep) = cells.first() else { return };
        if cells.len() < 2 {
            self.error(&name, "a merge of a single cell", "expected two or more cells to merge");
            return;
        }
        if self.cell_ids.get(name.as_str()).is_some_and(|c| !cells.contains(c)) {
            self.error(&name, format!("duplicate cell `{}`", name.as_str()), "expected a name no other cell has");
            return;
        }
        let gone: Vec<CellId> = cells[1..].to_vec();
        let extra: Vec<(i32, i32, i32)> = gone
            .iter()
            .map(|c| &self.cells[c.0 as usize])
            .flat_map(|c| std::iter::once((c.x, c.y, c.layer)).chain(c.also_at.clone()))
            .collect();
        let at = |c: CellId| if gone.contains(&c) { keep } else { c };
        let mut links: Vec<Link> = Vec::new();
        for l in &self.links {
            let link = Link { from: at(l.from), dir: l.dir, to: at(l.to) };
            if link.from != link.to
                && !links.iter().any(|x| x.from == link.from && x.dir == link.dir && x.to == link.to)
            {
                links.push(link);
            }
        }
        self.links = links;
        let cell = &mut self.cells[keep.0 as usize];
        cell.name = name.as_str().to_string();
        cell.also_at.extend(extra);
        self.remove_cells(&gone);
    }

    /// Deletes removed cells, renumbering the others and their links.
    pub(super) fn remove_cells(&mut self, removed: &[CellId]) {
        let mut map = vec![None; self.cells.len()];
        let mut cells = Vec::new();
        for (i, c) in self.cells.iter().enumerate() {
            if !removed.contains(&CellId(i as u16)) {
                map[i] = Some(CellId(cells.len() as u16));
                cells.push(c.clone());
            }
        }
        self.links = self
            .links
            .iter()
            .filter_map(|l| Some(Link { from: map[l.from.0 as usize]?, dir: l.dir, to: map[l.to.0 as usize]? }))
            .collect();
        self.cells = cells;
        self.cell_ids = self.cells.iter().enumerate().map(|(i, c)| (c.name.clone(), CellId(i as u16))).collect();
        self.coords = self.cells.iter().enumerate().map(|(i, c)| ((c.x, c.y, c.layer), CellId(i as u16))).collect();
    }

    pub(super) fn cell(&mut self, n: &Node) -> Option<CellId> {
        let id = self.cell_ids.get(n.as_str()).copied();
        if id.is_none() {
            let label = match (self.cells.first(), self.cells.last()) {
                (Some(a), Some(b)) => format!("expected a cell of the board ({} .. {})", a.name, b.name),
                _ => "expected a cell of the board".to_string(),
            };
            self.error(n, format!("unknown cell `{}`", n.as_str()), label);
        }
        id
    }

    pub(super) fn direction(&mut self, n: &Node) -> Option<DirId> {
        let id = self.dirs.get(n.as_str()).copied();
        if id.is_none() {
            let known: Vec<&str> = self.dirs.keys().map(|s| s.as_str()).collect();
            let label = if known.is_empty() {
                "no directions are declared: expected a `grid` or `direction` in the board".to_string()
            } else {
                format!("expected one of: {}", known.join(" "))
            };
            self.error(n, format!("unknown direction `{}`", n.as_str()), label);
        }
        id
    }

    /// A direction or a direction set.
    pub(super) fn directions(&mut self, n: &Node) -> Vec<DirId> {
        if let Some(set) = self.dir_sets.get(n.as_str()) {
            return set.clone();
        }
        if let Some(d) = self.dirs.get(n.as_str()) {
            return vec![*d];
        }
        let mut known: Vec<&str> = self.dirs.keys().map(|s| s.as_str()).collect();
        known.extend(self.dir_sets.keys().map(|s| s.as_str()));
        let label = format!("expected a direction or set: {}", known.join(" "));
        self.error(n, format!("unknown direction `{}`", n.as_str()), label);
        Vec::new()
    }

    /// Resolves a cell list; `rank`/`file` are read in the display coordinates.
    pub(super) fn cell_list(&mut self, list: Node, player: Option<PlayerId>) -> Vec<CellId> {
        self.cell_list_spanned(list, player).into_iter().map(|(c, _)| c).collect()
    }

    /// Like [`Lowerer::cell_list`], with the span of the term that named each cell.
    pub(super) fn cell_list_spanned(&mut self, list: Node, _player: Option<PlayerId>) -> Vec<(CellId, Range<usize>)> {
        let mut out = Vec::new();
        let mut spans = Vec::new();
        for term in list.into_inner() {
            let at = span(&term);
            match term.as_rule() {
                Rule::cell_name => out.extend(self.cell(&term)),
                Rule::rank_term => {
                    let n = term.clone().into_inner().nth(1).expect("rank");
                    let r = int_value(self, &n, 1000) as i32;
                    let found: Vec<CellId> = (0..self.cells.len())
                        .filter(|i| self.cells[*i].y == r - 1 && self.cells[*i].covers.is_empty())
                        .map(|i| CellId(i as u16))
                        .collect();
                    if found.is_empty() {
                        let top = self.cells.iter().map(|c| c.y + 1).max().unwrap_or(0);
                        self.error(
                            &term,
                            format!("the board has no rank {r}"),
                            format!("expected a rank from 1 to {top}"),
                        );
                    }
                    out.extend(found);
                }
                Rule::file_term => {
                    let n = term.clone().into_inner().nth(1).expect("file");
                    let f = n.as_str();
                    let x = if f.len() == 1 { f.as_bytes()[0] as i32 - b'a' as i32 } else { -1 };
                    let found: Vec<CellId> = (0..self.cells.len())
                        .filter(|i| self.cells[*i].x == x && self.cells[*i].covers.is_empty())
                        .map(|i| CellId(i as u16))
                        .collect();
                    if found.is_empty() {
                        let last = self.cells.iter().map(|c| c.x).max().unwrap_or(0).clamp(0, 25) as u8;
                        self.error(
                            &term,
                            format!("the board has no file `{f}`"),
                            format!("expected a file from a to {}", (b'a' + last) as char),
                        );
                    }
                    out.extend(found);
                }
                Rule::cell_range => {
                    let mut it = term.clone().into_inner();
                    let a = it.next().expect("range start");
                    let b = it.nth(1).expect("range end");
                    if let (Some(a), Some(b)) = (self.cell(&a), self.cell(&b)) {
                        let (ca, cb) = (&self.cells[a.0 as usize], &self.cells[b.0 as usize]);
                        if ca.layer != cb.layer {
                            self.error(&term, "a range must stay on one layer", "both ends on the same board");
                        } else {
                            let (x0, x1) = (ca.x.min(cb.x), ca.x.max(cb.x));
                            let (y0, y1) = (ca.y.min(cb.y), ca.y.max(cb.y));
                            let layer = ca.layer;
                            for y in y0..=y1 {
                                for x in x0..=x1 {
                                    if let Some(id) = self.coords.get(&(x, y, layer)) {
                                        out.push(*id);
                                    }
                                }
                            }
                        }
                    }
                }
                _ => {}
            }
            spans.resize(out.len(), at);
        }
        out.into_iter().zip(spans).collect()
    }
}
