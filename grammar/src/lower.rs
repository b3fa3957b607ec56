//! Lowering: the one place where the syntax tree becomes the IR, resolving every name and reporting every semantic error.

use std::collections::HashMap;
use std::ops::Range;

use indexmap::{IndexMap, IndexSet};
use pest::iterators::Pair;

use varia_interpreter::ir::*;
use varia_interpreter::limits::{compile_work, TooMuchWork, MAX_CELLS, MAX_COMPILE_WORK};

use crate::betza;
use crate::diagnostic::Diagnostic;
use crate::syntax::{Rule, SyntaxTree};

/// The compass of a grid: direction names and their (dx, dy).
const COMPASS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

#[path = "lower_program.rs"]
mod program;

type Node<'a> = Pair<'a, Rule>;

/// The span of a node without the whitespace and comments that pest's implicit skipping
/// leaves at its end (after an optional part that did not match).
fn span(p: &Node) -> Range<usize> {
    let (start, end) = (p.as_span().start(), p.as_span().end());
    let text = p.as_str();
    if text.trim_end() == text {
        return start..end;
    }
    match p.clone().into_inner().last() {
        Some(last) => start..span(&last).end,
        None => start..start + text.trim_end().len(),
    }
}

struct Lowerer {
    errors: Vec<Diagnostic>,
    cells: Vec<Cell>,
    cell_ids: IndexMap<String, CellId>,
    coords: HashMap<(i32, i32, i32), CellId>,
    dirs: IndexMap<String, DirId>,
    dir_sets: IndexMap<String, Vec<DirId>>,
    links: Vec<Link>,
    no_square: Vec<CellId>,
    players: Vec<Player>,
    zones: IndexMap<String, Zone>,
    phases: IndexMap<String, Option<Condition>>,
    piece_ids: IndexMap<String, PieceTypeId>,
    pieces: Vec<PieceType>,
    /// Where the board declares `between` locations, for errors about them.
    between_at: Option<Range<usize>>,
    /// Move type names, by id.
    move_types: IndexSet<String>,
    /// Attribute names, by id.
    attribute_names: IndexSet<String>,
    /// Flag names, by id.
    flag_names: IndexSet<String>,
}

/// Lowers a parsed file into a checked [`Variant`].
pub fn lower(mut tree: SyntaxTree) -> Result<Variant, Vec<Diagnostic>> {
    let file = tree.next().expect("the grammar's `file` rule");
    let mut items: Vec<Node> = file.into_inner().filter(|p| p.as_rule() != Rule::EOI).collect();
    let header = items.remove(0);
    let header_span = span(&header);
    let title = string_value(&header.into_inner().nth(1).expect("variant title"));
    let mut l = Lowerer {
        errors: Vec::new(),
        cells: Vec::new(),
        cell_ids: IndexMap::new(),
        coords: HashMap::new(),
        dirs: IndexMap::new(),
        dir_sets: IndexMap::new(),
        links: Vec::new(),
        no_square: Vec::new(),
        players: Vec::new(),
        zones: IndexMap::new(),
        phases: IndexMap::new(),
        piece_ids: IndexMap::new(),
        pieces: Vec::new(),
        between_at: None,
        move_types: IndexSet::new(),
        attribute_names: IndexSet::new(),
        flag_names: IndexSet::new(),
    };
    let of = |rule: Rule| -> Vec<Node> { items.iter().filter(|p| p.as_rule() == rule).cloned().collect() };

    let boards = of(Rule::board_block);
    match boards.len() {
        0 => l.errors.push(Diagnostic::new(
            "a variant needs a `board { ... }` block",
            header_span.clone(),
            "expected a `board { grid W x H }` in this variant",
        )),
        1 => l.board(boards[0].clone()),
        _ => l.errors.push(Diagnostic::new("a second `board` block", span(&boards[1]), "only one board block")),
    }
    // Every later declaration names cells and directions: without a board they would only
    // repeat the same error, so stop here.
    if l.cells.is_empty() {
        return Err(l.errors);
    }
    let player_decls = of(Rule::player_decl);
    for p in player_decls.iter().cloned() {
        l.player(p);
    }
    if l.players.len() < 2 {
        let (at, label) = match player_decls.last() {
            Some(p) => (span(p), "the only player: expected a second `player` declaration"),
            None => (header_span.clone(), "expected `player white` and `player black` in this variant"),
        };
        l.errors.push(Diagnostic::new(
            format!("a variant needs at least two `player` declarations, found {}", l.players.len()),
            at,
            label,
        ));
    }
    // Phase names first: zones name them in `in-phase` blocks.
    let phases = of(Rule::phase_decl);
    for p in &phases {
        let name = p.clone().into_inner().nth(1).expect("phase name");
        if l.phases.insert(name.as_str().to_string(), None).is_some() {
            l.error(&name, format!("duplicate phase `{}`", name.as_str()), "expected a name no other phase uses");
        } else if l.phases.len() > 32 {
            l.error(&name, "too many phases", "expected at most 32 phases");
        }
    }
    for z in of(Rule::zone_decl) {
        l.zone(z);
    }
    // Move types, attributes and flags get their ids in order of first appearance.
    l.register_names(&items);
    let pieces = of(Rule::piece_decl);
    for p in &pieces {
        l.declare_piece(p.clone());
    }
    for (i, p) in pieces.iter().enumerate() {
        l.piece_body(i, p.clone());
    }
    for p in &phases {
        let cond = p.clone().into_inner().nth(3).expect("phase condition");
        let name = p.clone().into_inner().nth(1).expect("phase name").as_str().to_string();
        let c = l.condition(cond);
        l.phases.insert(name, c);
    }
    let castle_decls = of(Rule::castle_decl);
    if let Some(extra) = castle_decls.get(32) {
        l.error(extra, "too many castlings", "expected at most 32 `castle` declarations");
    }
    let castlings: Vec<Castling> = castle_decls.into_iter().take(32).filter_map(|c| l.castle(c)).collect();
    let setups = of(Rule::setup_block);
    let setup = match setups.len() {
        1 => l.setup(setups[0].clone(), &castlings),
        n => {
            if n > 1 {
                l.error(&setups[1], "a second `setup` block", "only one setup block");
            } else {
                l.errors.push(Diagnostic::new(
                    "a variant needs a `setup { ... }` block",
                    header_span.clone(),
                    "expected a `setup { white: ... black: ... }` in this variant",
                ));
            }
            Setup { placements: Vec::new(), castling_rights: Vec::new(), square_owners: Vec::new(), hands: Vec::new() }
        }
    };
    let squares_blocks = of(Rule::squares_block);
    if let Some(second) = squares_blocks.get(1) {
        l.error(second, "a second `squares` block", "expected one `squares` block");
    }
    let squares = squares_blocks.first().map(|b| (span(b), l.squares(b.clone())));
    let turn_blocks = of(Rule::turn_block);
    if let Some(second) = turn_blocks.get(1) {
        l.error(second, "a second `turn` block", "expected one `turn` block");
    }
    let turn = match turn_blocks.first() {
        Some(t) => l.turn(t.clone(), squares.is_some()),
        None => Turn {
            actions: vec![TurnAction { kinds: vec![ActionKind::MovePiece], optional: false, skip_if_none: None }],
        },
    };
    let mut setup = setup;
    if let Some((at, sq)) = &squares {
        if sq.owned {
            // Each player owns the squares under their starting army.
            setup.square_owners =
                setup.placements.iter().filter_map(|(c, stack)| stack.first().map(|(p, _)| (*c, *p))).collect();
            if l.players.len() != 2 {
                l.errors.push(Diagnostic::new(
                    "owned squares need exactly two players",
                    at.clone(),
                    "position strings mark the squares of the first and second player with `+` and `-`",
                ));
            }
        }
        if l.between_at.is_some() {
            l.errors.push(Diagnostic::new(
                "a `squares` block and `between` locations do not go together: a piece between cells \
                 stands on several squares at once, so which square would carry it, or be left \
                 behind, has no meaning",
                at.clone(),
                "remove the `squares` block, or the board's `between`",
            ));
        }
    }
    let ends = of(Rule::end_block);
    if let Some(second) = ends.get(1) {
        l.error(second, "a second `end` block", "expected one `end` block");
    }
    let end = match ends.first() {
        Some(e) => l.end(e.clone()),
        None => EndRules {
            checkmate: Outcome::Loss,
            stalemate: Outcome::Draw,
            bare_king: None,
            move_rule: None,
            repetition: None,
            goals: Vec::new(),
        },
    };
    let turn_orders = of(Rule::turn_order_decl);
    if let Some(second) = turn_orders.get(1) {
        l.error(second, "a second `turn-order`", "expected one `turn-order` block");
    }
    let turn_order = turn_orders.first().and_then(|t| l.turn_order(t.clone()));
    let priorities = of(Rule::priorities_decl);
    if let Some(second) = priorities.get(1) {
        l.error(second, "a second `priorities` line", "expected one `priorities` line listing every ranked move type");
    }
    let move_priorities = priorities.first().map(|p| l.priorities(p.clone())).unwrap_or_default();
    let pass_partial = !of(Rule::pass_partial_decl).is_empty();
    if let Some(at) = l.between_at.clone() {
        if l.zones.values().any(|z| z.occupancy.is_some()) {
            l.errors.push(Diagnostic::new(
                "`between` locations and zone occupancy rules (stacks) do not go together: a piece \
                 between cells fills each cell it covers whole, so no other piece can share those \
                 cells as a stack's pieces do",
                at,
                "remove `between` or the zones' occupancy rules",
            ));
        }
    }
    // Attributes belong to the piece on a cell; on a stack cell several pieces would share them.
    let attributes_used = l.pieces.iter().any(|p| !p.attributes.is_empty())
        || l.pieces.iter().flat_map(|p| p.programs.iter().chain(&p.drops)).any(program_sets_attribute);
    if attributes_used && l.zones.values().any(|z| z.occupancy.is_some()) {
        l.errors.push(Diagnostic::new(
            "piece attributes and zone occupancy rules (stacks) do not go together: an attribute \
             is kept per cell, and the pieces of a stack share their cell",
            header_span.clone(),
            "remove the attributes, or the zones' occupancy rules",
        ));
    }
    if !l.errors.is_empty() {
        return Err(l.errors);
    }
    let variant = Variant {
        title,
        board: Board {
            cells: l.cells,
            directions: l.dirs.keys().cloned().collect(),
            direction_sets: l.dir_sets.into_iter().collect(),
            links: l.links,
            initially_empty_locations: l.no_square,
        },
        players: l.players,
        zones: l.zones.into_values().collect(),
        pieces: l.pieces,
        castlings,
        phases: l
            .phases
            .into_iter()
            .map(|(name, when)| Phase { name, when: when.unwrap_or(Condition::PieceCount(Compare::Less, 0)) })
            .collect(),
        turn,
        squares: squares.map(|(_, s)| s),
        setup,
        end,
        move_types: l.move_types.into_iter().collect(),
        move_priorities,
        attributes: l.attribute_names.into_iter().collect(),
        flags: l.flag_names.into_iter().collect(),
        turn_order,
        pass_partial,
    };
    // The compiled tables must stay small, whatever the text asks for.
    if let Err(too_much) = compile_work(&variant) {
        let (at, what) = match too_much {
            TooMuchWork::Piece(i) => (pieces.get(i).map(span), "the powers of this piece"),
            TooMuchWork::Squares => (squares_blocks.first().map(span), "the moves of squares"),
        };
        return Err(vec![Diagnostic::new(
            format!("the variant is too large to compile: its move tables would hold more than {MAX_COMPILE_WORK} ray cells"),
            at.unwrap_or(header_span),
            format!("expected a smaller board or fewer powers: {what} bring the tables past the limit"),
        )]);
    }
    Ok(variant)
}

fn string_value(p: &Node) -> String {
    p.clone().into_inner().next().map(|s| s.as_str().to_string()).unwrap_or_default()
}

fn int_value(l: &mut Lowerer, p: &Node, max: u64) -> u64 {
    int_checked(l, p, max).unwrap_or(0)
}

/// A number up to `max`, or `None` after reporting it out of range.
fn int_checked(l: &mut Lowerer, p: &Node, max: u64) -> Option<u64> {
    match p.as_str().parse::<u64>() {
        Ok(n) if n <= max => Some(n),
        _ => {
            l.error(
                p,
                format!("number `{}` is out of range", p.as_str()),
                format!("expected a number from 0 to {max}"),
            );
            None
        }
    }
}

impl Lowerer {
    fn error(&mut self, at: &Node, message: impl Into<String>, label: impl Into<String>) {
        self.errors.push(Diagnostic::new(message, span(at), label));
    }

    // ------------------------------------------------------------ board

    fn board(&mut self, block: Node) {
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
            for (name, _, _) in COMPASS {
                let id = DirId(self.dirs.len() as u8);
                self.dirs.entry(name.to_string()).or_insert(id);
            }
            let set =
                |names: &[&str], dirs: &IndexMap<String, DirId>| names.iter().map(|n| dirs[*n]).collect::<Vec<_>>();
            self.dir_sets.insert("orthogonal".into(), set(&["n", "e", "s", "w"], &self.dirs));
            self.dir_sets.insert("diagonal".into(), set(&["ne", "se", "sw", "nw"], &self.dirs));
            self.dir_sets.insert("all".into(), set(&["n", "ne", "e", "se", "s", "sw", "w", "nw"], &self.dirs));
        }
        for item in items.iter().filter(|p| p.as_rule() == Rule::direction_decl) {
            for n in item.clone().into_inner().skip(1) {
                self.declare_direction(&n);
            }
        }
        // Directions by offset of display coordinates: declared here, linked with the compass.
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
        let mut removed = Vec::new();
        for item in items.iter().filter(|p| p.as_rule() == Rule::remove_decl) {
            let list = item.clone().into_inner().nth(1).expect("cells");
            removed.extend(self.cell_list(list, None));
        }
        // Compass links by coordinates within each layer; removed cells break them.
        if grids > 0 {
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
            for &(dir, dx, dy, dl) in &offsets {
                if let Some(&to) = self.coords.get(&(cell.x + dx, cell.y + dy, cell.layer + dl)) {
                    let joined = [from, to].iter().all(|c| !removed.contains(c) && !free.contains(c));
                    if joined {
                        self.links.push(Link { from, dir, to });
                    }
                }
            }
        }
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
                Rule::unlink_decl => {
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
                Rule::dirset_decl => {
                    let mut it = item.into_inner().skip(1);
                    let name = it.next().expect("set name");
                    let mut set = Vec::new();
                    for d in it.filter(|p| p.as_rule() == Rule::name) {
                        set.extend(self.directions(&d));
                    }
                    if self.dirs.contains_key(name.as_str()) || self.dir_sets.contains_key(name.as_str()) {
                        self.error(
                            &name,
                            format!("`{}` is already a direction or set", name.as_str()),
                            "choose another name",
                        );
                    } else {
                        self.dir_sets.insert(name.as_str().to_string(), set);
                    }
                }
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

    /// Reports the declaration that would bring the board past [`MAX_CELLS`] with `more` cells.
    fn too_many_cells(&mut self, at: &Node, more: usize) {
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
    fn between(&mut self, item: Node) {
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
    fn between_name(&self, covers: &[CellId], x2: i32, y2: i32) -> Option<String> {
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
    fn declare_direction(&mut self, n: &Node) -> Option<DirId> {
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
    fn free_cell(&mut self, item: Node) -> Option<CellId> {
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

    fn grid(&mut self, g: Node, index: i32) {
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
    fn merge(&mut self, item: Node) {
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
    fn remove_cells(&mut self, removed: &[CellId]) {
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

    fn cell(&mut self, n: &Node) -> Option<CellId> {
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

    fn direction(&mut self, n: &Node) -> Option<DirId> {
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
    fn directions(&mut self, n: &Node) -> Vec<DirId> {
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
    fn cell_list(&mut self, list: Node, player: Option<PlayerId>) -> Vec<CellId> {
        self.cell_list_spanned(list, player).into_iter().map(|(c, _)| c).collect()
    }

    /// Like [`Lowerer::cell_list`], with the span of the term that named each cell.
    fn cell_list_spanned(&mut self, list: Node, _player: Option<PlayerId>) -> Vec<(CellId, Range<usize>)> {
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

    // ------------------------------------------------------------ players and zones

    fn player(&mut self, p: Node) {
        let mut it = p.into_inner().skip(1);
        let name = it.next().expect("player name");
        if self.players.iter().any(|q| q.name == name.as_str()) {
            self.error(&name, format!("duplicate player `{}`", name.as_str()), "expected a name no other player uses");
            return;
        }
        if self.players.len() >= 2 {
            // Position strings tell players apart by letter case, so two for now.
            self.error(&name, "a third player is not supported by this version", "expected exactly two players");
            return;
        }
        let mut map: Vec<DirId> = (0..self.dirs.len()).map(|i| DirId(i as u8)).collect();
        for pair in it.filter(|p| p.as_rule() == Rule::dir_pair) {
            let mut ends = pair.into_inner();
            let a = ends.next().expect("dir");
            let b = ends.nth(1).expect("dir");
            if let (Some(a), Some(b)) = (self.direction(&a), self.direction(&b)) {
                map[a.0 as usize] = b;
                map[b.0 as usize] = a;
            }
        }
        self.players.push(Player { name: name.as_str().to_string(), direction_map: map });
    }

    fn player_id(&mut self, n: &Node) -> Option<PlayerId> {
        let id = self.players.iter().position(|p| p.name == n.as_str()).map(|i| PlayerId(i as u8));
        if id.is_none() {
            let known: Vec<&str> = self.players.iter().map(|p| p.name.as_str()).collect();
            self.error(n, format!("unknown player `{}`", n.as_str()), format!("expected one of: {}", known.join(" ")));
        }
        id
    }

    fn zone(&mut self, z: Node) {
        let mut it = z.into_inner().skip(1);
        let name = it.next().expect("zone name");
        let mut cells: Vec<Vec<CellId>> = vec![Vec::new(); self.players.len()];
        let mut occupancy: Option<Occupancy> = None;
        let mut phase_occupancy = Vec::new();
        for part in it {
            match part.as_rule() {
                Rule::zone_player => {
                    let mut pi = part.into_inner();
                    let who = pi.next().expect("player");
                    let list = pi.nth(1).expect("cells");
                    if let Some(p) = self.player_id(&who) {
                        let found = self.cell_list(list, Some(p));
                        cells[p.0 as usize] = found;
                    }
                }
                Rule::cell_list => {
                    let found = self.cell_list(part, None);
                    for c in cells.iter_mut() {
                        *c = found.clone();
                    }
                }
                Rule::capacity_option | Rule::occupancy_flag => {
                    let o = occupancy.get_or_insert_with(Occupancy::default);
                    self.occupancy_rule(o, part);
                }
                Rule::zone_phase => {
                    let mut pi = part.into_inner().skip(1);
                    let phase_name = pi.next().expect("phase name");
                    let phase = match self.phases.get_index_of(phase_name.as_str()) {
                        Some(i) => Some(PhaseId(i as u8)),
                        None => {
                            let known: Vec<&str> = self.phases.keys().map(|s| s.as_str()).collect();
                            let label = if known.is_empty() {
                                "expected a phase declared with `phase NAME when ...`; this variant has none"
                                    .to_string()
                            } else {
                                format!("expected one of the phases: {}", known.join(" "))
                            };
                            self.error(&phase_name, format!("unknown phase `{}`", phase_name.as_str()), label);
                            None
                        }
                    };
                    // A phase block starts from the zone's own rules (as written before it).
                    let mut o = occupancy.unwrap_or_default();
                    for rule in pi.filter(|r| matches!(r.as_rule(), Rule::capacity_option | Rule::occupancy_flag)) {
                        self.occupancy_rule(&mut o, rule);
                    }
                    if let Some(phase) = phase {
                        occupancy.get_or_insert_with(Occupancy::default);
                        phase_occupancy.push((phase, o));
                    }
                }
                _ => {}
            }
        }
        if self.zones.contains_key(name.as_str()) {
            self.error(&name, format!("duplicate zone `{}`", name.as_str()), "expected a name no other zone uses");
            return;
        }
        if self.zones.len() >= 255 {
            self.error(&name, "too many zones", "expected at most 255 zones");
            return;
        }
        if occupancy.is_some() {
            // A cell follows one set of occupancy rules: two zones with rules may not share it.
            for other in self.zones.values().filter(|z| z.occupancy.is_some()) {
                let shared = cells.iter().flatten().find(|c| other.cells.iter().flatten().any(|o| o == *c));
                if let Some(c) = shared {
                    let cell = self.cells[c.0 as usize].name.clone();
                    self.error(
                        &name,
                        format!(
                            "cell `{cell}` is in two zones with occupancy rules: `{}` and `{}`",
                            other.name,
                            name.as_str()
                        ),
                        "expected each cell to follow the occupancy rules of one zone only",
                    );
                    break;
                }
            }
        }
        self.zones.insert(
            name.as_str().to_string(),
            Zone { name: name.as_str().to_string(), cells, occupancy, phase_occupancy },
        );
    }

    /// Applies one occupancy rule (`capacity 2`, `lone-inert`, ...) to `o`.
    fn occupancy_rule(&mut self, o: &mut Occupancy, rule: Node) {
        if rule.as_rule() == Rule::capacity_option {
            let n = rule.into_inner().nth(1).expect("capacity value");
            if n.as_rule() == Rule::k_any {
                o.capacity = None;
            } else {
                let v = int_value(self, &n, 255) as u8;
                if v == 0 {
                    self.error(
                        &n,
                        "a capacity of 0",
                        "expected at least 1 (use `no-square` for cells that hold nothing)",
                    );
                }
                o.capacity = Some(v.max(1));
            }
            return;
        }
        let flag = rule.into_inner().next().expect("occupancy flag");
        match flag.as_rule() {
            Rule::k_lone_inert => o.lone_inert = true,
            Rule::k_lone_active => o.lone_inert = false,
            Rule::k_crowd_safe => o.crowd_safe = true,
            Rule::k_crowd_open => o.crowd_safe = false,
            Rule::k_capture_one => o.capture = CaptureRule::One,
            Rule::k_capture_all => o.capture = CaptureRule::All,
            Rule::k_join_mixed_crowd => o.join_mixed_crowd = true,
            Rule::k_join_enemy_by_move => o.join_enemy_by_move = true,
            Rule::k_join_none => {
                o.join_mixed_crowd = false;
                o.join_enemy_by_move = false;
            }
            _ => {}
        }
    }

    fn zone_id(&mut self, n: &Node) -> Option<ZoneId> {
        let id = self.zones.get_index_of(n.as_str()).map(|i| ZoneId(i as u8));
        if id.is_none() {
            let known: Vec<&str> = self.zones.keys().map(|s| s.as_str()).collect();
            self.error(n, format!("unknown zone `{}`", n.as_str()), format!("expected one of: {}", known.join(" ")));
        }
        id
    }

    // ------------------------------------------------------------ pieces

    fn declare_piece(&mut self, p: Node) {
        let mut it = p.into_inner().skip(1);
        let name = it.next().expect("piece name");
        let letter = it.next().expect("piece letter");
        let ch = letter.as_str().chars().next().expect("one letter");
        if self.piece_ids.contains_key(name.as_str()) {
            self.error(&name, format!("duplicate piece `{}`", name.as_str()), "expected a name no other piece uses");
        } else if let Some(other) = self.pieces.iter().find(|q| q.letter.eq_ignore_ascii_case(&ch)) {
            let message = format!("letter `{ch}` is already used by the piece `{}`", other.name);
            self.error(&letter, message, "expected a letter no other piece uses (case is ignored)");
        } else if self.pieces.len() >= varia_interpreter::limits::PIECE_TYPES {
            let most = varia_interpreter::limits::PIECE_TYPES;
            self.error(&name, "too many piece types", format!("expected at most {most} piece types"));
            return;
        }
        self.piece_ids.insert(name.as_str().to_string(), PieceTypeId(self.pieces.len() as u8));
        self.pieces.push(PieceType {
            name: name.as_str().to_string(),
            letter: ch.to_ascii_uppercase(),
            royal: false,
            value: None,
            san_without_letter: false,
            resets_move_clock: false,
            moves: Vec::new(),
            promotion: None,
            keep_apart: None,
            programs: Vec::new(),
            drops: Vec::new(),
            drop_supply: DropSupply::Hand,
            attributes: Vec::new(),
            to_hand: None,
        });
    }

    fn piece_ref(&mut self, n: &Node) -> Option<PieceTypeId> {
        let s = n.as_str();
        if let Some(id) = self.piece_ids.get(s) {
            return Some(*id);
        }
        if s.len() == 1 {
            if let Some(i) =
                self.pieces.iter().position(|p| p.letter.eq_ignore_ascii_case(&s.chars().next().unwrap_or(' ')))
            {
                return Some(PieceTypeId(i as u8));
            }
        }
        let known: Vec<String> = self.pieces.iter().map(|p| format!("{} ({})", p.name, p.letter)).collect();
        self.error(n, format!("unknown piece `{s}`"), format!("expected one of: {}", known.join(", ")));
        None
    }

    fn piece_body(&mut self, index: usize, p: Node) {
        let mut moves = Vec::new();
        let mut attributes = Vec::new();
        for item in p.into_inner().skip(3) {
            match item.as_rule() {
                Rule::royal_flag => self.pieces[index].royal = true,
                Rule::san_flag => self.pieces[index].san_without_letter = true,
                Rule::clock_flag => self.pieces[index].resets_move_clock = true,
                Rule::keep_apart_decl => {
                    let n = item.into_inner().nth(1).expect("distance");
                    self.pieces[index].keep_apart = Some(int_value(self, &n, 255) as u8);
                }
                Rule::value_decl => {
                    let n = item.into_inner().nth(1).expect("value");
                    self.pieces[index].value = Some(int_value(self, &n, 1_000_000) as i32);
                }
                Rule::promote_decl => {
                    let mut zone = None;
                    let mut choices = Vec::new();
                    let mut mandatory = true;
                    for part in item.into_inner() {
                        match part.as_rule() {
                            Rule::name => zone = self.zone_id(&part),
                            Rule::piece_ref => choices.extend(self.piece_ref(&part)),
                            Rule::optional_flag => mandatory = false,
                            _ => {}
                        }
                    }
                    if let Some(zone) = zone {
                        self.pieces[index].promotion = Some(Promotion { zone, choices, mandatory });
                    }
                }
                Rule::move_rule => moves.extend(self.move_rule(item)),
                Rule::betza_rule => moves.extend(self.betza(item)),
                Rule::move_program | Rule::drop_program => {
                    let drop = item.as_rule() == Rule::drop_program;
                    let Some(p) = self.program(item.clone()) else { continue };
                    self.check_loops(&p, &item);
                    let list = if drop { &mut self.pieces[index].drops } else { &mut self.pieces[index].programs };
                    if list.len() >= varia_interpreter::limits::PROGRAMS_PER_PIECE {
                        let most = varia_interpreter::limits::PROGRAMS_PER_PIECE;
                        let what = if drop { "drop" } else { "move" };
                        self.error(
                            &item,
                            format!("too many {what} programs"),
                            format!("expected at most {most} per piece"),
                        );
                        continue;
                    }
                    list.push(p);
                }
                Rule::to_hand_decl => {
                    let base = item.into_inner().nth(2);
                    self.pieces[index].to_hand = match base {
                        Some(b) => self.piece_ref(&b),
                        None => Some(PieceTypeId(index as u8)),
                    };
                }
                Rule::drop_supply_decl => {
                    let which = item.into_inner().nth(1).expect("hand or unlimited");
                    self.pieces[index].drop_supply =
                        if which.as_rule() == Rule::k_hand { DropSupply::Hand } else { DropSupply::Unlimited };
                }
                Rule::attribute_decl => {
                    let at = item.clone();
                    if let Some((id, set)) = self.attribute_decl(item) {
                        if attributes.contains(&id) {
                            self.error(&at, "an attribute declared twice", "expected each attribute once per piece");
                        } else {
                            attributes.push(id);
                            if set {
                                self.pieces[index].attributes.push(id);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        self.pieces[index].moves = moves;
    }

    fn move_rule(&mut self, rule: Node) -> Option<MoveRule> {
        let mut it = rule.into_inner();
        let geo = it.next().expect("geometry");
        let geometry = match geo.as_rule() {
            Rule::step | Rule::slide | Rule::hop => {
                let list = geo.clone().into_inner().nth(1).expect("directions");
                let mut dirs = Vec::new();
                for d in list.into_inner() {
                    for id in self.directions(&d) {
                        if !dirs.contains(&id) {
                            dirs.push(id);
                        }
                    }
                }
                match geo.as_rule() {
                    Rule::step => Geometry::Slide { dirs, max: Some(1) },
                    Rule::slide => Geometry::Slide { dirs, max: None },
                    _ => Geometry::Hop { dirs, max: None },
                }
            }
            _ => {
                let mut paths = Vec::new();
                for part in geo.clone().into_inner().skip(1) {
                    match part.as_rule() {
                        Rule::leap_offset => {
                            let mut ns = part.clone().into_inner();
                            let a = ns.next().expect("a");
                            let b = ns.next().expect("b");
                            let (a, b) = (int_value(self, &a, 16) as i32, int_value(self, &b, 16) as i32);
                            paths.extend(self.offset_paths(&part, a, b, &[]));
                        }
                        Rule::leap_path => {
                            let mut path = Vec::new();
                            for d in part.into_inner().filter(|p| p.as_rule() == Rule::name) {
                                path.extend(self.direction(&d));
                            }
                            paths.push(path);
                        }
                        _ => {}
                    }
                }
                Geometry::Leap { paths }
            }
        };
        let mut out = MoveRule {
            geometry,
            mode: MoveMode::MoveOrCapture,
            conditions: Vec::new(),
            marks_en_passant: false,
            captures_en_passant: false,
            stop_between: false,
        };
        for m in it {
            self.modifier(&mut out, m);
        }
        Some(out)
    }

    fn modifier(&mut self, out: &mut MoveRule, m: Node) {
        match m.as_rule() {
            Rule::max_mod => {
                let n = m.clone().into_inner().nth(1).expect("max");
                let v = int_value(self, &n, 255) as u8;
                match &mut out.geometry {
                    Geometry::Slide { max, .. } | Geometry::Hop { max, .. } => *max = Some(v),
                    Geometry::Leap { .. } => {
                        self.error(&m, "`max` applies to slides and hops, not leaps", "remove `max`")
                    }
                }
            }
            Rule::move_only => out.mode = MoveMode::MoveOnly,
            Rule::capture_only => out.mode = MoveMode::CaptureOnly,
            Rule::from_mod => {
                let n = m.into_inner().nth(1).expect("zone");
                if let Some(z) = self.zone_id(&n) {
                    out.conditions.push(Condition::FromZone(z));
                }
            }
            Rule::to_mod => {
                let n = m.into_inner().nth(1).expect("zone");
                if let Some(z) = self.zone_id(&n) {
                    out.conditions.push(Condition::ToZone(z));
                }
            }
            Rule::if_mod => {
                let c = m.into_inner().nth(1).expect("condition");
                if let Some(c) = self.condition(c) {
                    out.conditions.push(c);
                }
            }
            Rule::marks_ep => out.marks_en_passant = true,
            Rule::captures_ep => out.captures_en_passant = true,
            Rule::stop_between_mod => {
                if !matches!(out.geometry, Geometry::Slide { .. }) {
                    self.error(&m, "`stop-between` applies to steps and slides", "remove `stop-between`");
                } else if self.between_at.is_none() {
                    self.error(
                        &m,
                        "`stop-between` needs locations between cells",
                        "expected `between DIRECTIONS` in the board",
                    );
                } else {
                    out.stop_between = true;
                }
            }
            _ => {}
        }
    }

    fn condition(&mut self, c: Node) -> Option<Condition> {
        let inner = c.into_inner().next().expect("condition body");
        let mut it = inner.clone().into_inner();
        match inner.as_rule() {
            Rule::not_cond => {
                let sub = it.nth(1).expect("negated condition");
                self.condition(sub).map(|c| Condition::Not(Box::new(c)))
            }
            Rule::count_cond | Rule::turn_cond => {
                let op = it.nth(1).expect("comparison");
                let n = it.next().expect("number");
                let n = int_value(self, &n, u32::MAX as u64) as u32;
                let op = match op.as_str() {
                    "<" => Compare::Less,
                    "<=" => Compare::LessEq,
                    "==" => Compare::Eq,
                    ">=" => Compare::GreaterEq,
                    _ => Compare::Greater,
                };
                Some(if inner.as_rule() == Rule::count_cond {
                    Condition::PieceCount(op, n)
                } else {
                    Condition::TurnNumber(op, n)
                })
            }
            _ => {
                let name = it.nth(1).expect("phase name");
                match self.phases.get_index_of(name.as_str()) {
                    Some(i) => Some(Condition::InPhase(PhaseId(i as u8))),
                    None => {
                        let known: Vec<&str> = self.phases.keys().map(|s| s.as_str()).collect();
                        let label = if known.is_empty() {
                            "expected a phase, but none is declared: add `phase NAME when ...`".to_string()
                        } else {
                            format!("expected one of: {}", known.join(" "))
                        };
                        self.error(&name, format!("unknown phase `{}`", name.as_str()), label);
                        None
                    }
                }
            }
        }
    }

    /// Paths for a leap by (a, b) in every compass orientation passing `filters`: straight or
    /// diagonal runs for (a, 0) and (a, a); otherwise `a` steps one way, then `b` turning.
    fn offset_paths(&mut self, at: &Node, a: i32, b: i32, filters: &[char]) -> Vec<Vec<DirId>> {
        let mut out: Vec<(i32, i32, Vec<DirId>)> = Vec::new();
        let dir = |l: &Self, dx: i32, dy: i32| {
            COMPASS.iter().find(|c| c.1 == dx && c.2 == dy).and_then(|c| l.dirs.get(c.0).copied())
        };
        if ["n", "e", "s", "w", "ne", "se", "sw", "nw"].iter().any(|d| !self.dirs.contains_key(*d)) {
            self.error(
                at,
                "leap offsets and Betza need the grid's compass directions (n ne e se s sw w nw)",
                "declare a grid",
            );
            return Vec::new();
        }
        let (a, b) = (a.max(b), a.min(b));
        if a == 0 {
            self.error(at, "a leap of (0, 0) goes nowhere", "expected a non-zero offset");
            return Vec::new();
        }
        for (ux, uy) in [(1, 0), (0, 1), (-1, 0), (0, -1)] {
            for turn in [1, -1] {
                // Rotate the unit vector by 90 degrees (either way) for the second leg.
                let (vx, vy) = (-uy * turn, ux * turn);
                let (dx, dy) = if b == a { (ux + vx, uy + vy) } else { (ux, uy) };
                let path: Vec<DirId> = if b == a {
                    (0..a).filter_map(|_| dir(self, dx, dy)).collect()
                } else {
                    let first = dir(self, ux, uy);
                    let second = dir(self, vx, vy);
                    (0..a).filter_map(|_| first).chain((0..b).filter_map(|_| second)).collect()
                };
                let (tx, ty) = if b == a { (a * dx, a * dy) } else { (a * ux + b * vx, a * uy + b * vy) };
                if betza::passes(filters, tx, ty) && !out.iter().any(|(x, y, _)| *x == tx && *y == ty) {
                    out.push((tx, ty, path));
                }
            }
        }
        out.into_iter().map(|(_, _, p)| p).collect()
    }

    fn betza(&mut self, rule: Node) -> Vec<MoveRule> {
        let mut it = rule.into_inner().skip(1);
        let s = it.next().expect("betza string");
        let inner = s.clone().into_inner().next().expect("string body");
        let atoms = match betza::parse(inner.as_str()) {
            Ok(a) => a,
            Err((off, msg)) => {
                let start = inner.as_span().start() + off;
                self.errors.push(Diagnostic::new(format!("bad Betza notation: {msg}"), start..start + 1, msg));
                return Vec::new();
            }
        };
        let modifiers: Vec<Node> = it.collect();
        let mut out = Vec::new();
        for atom in atoms {
            let (a, b) = atom.offset;
            let geometry = if b == 0 || a == b {
                // Steps and rides along compass lines.
                if a != 1 && atom.rider {
                    self.error(
                        &s,
                        "rider leaps other than W and F are not supported yet",
                        "use `slide` or a single leap",
                    );
                    continue;
                }
                let dirs: Vec<DirId> = COMPASS
                    .iter()
                    .filter(|(_, dx, dy)| {
                        (dx.abs() + dy.abs() == 1) == (b == 0) && betza::passes(&atom.filters, *dx, *dy)
                    })
                    .filter_map(|(n, _, _)| self.dirs.get(*n).copied())
                    .collect();
                if a == 1 {
                    Geometry::Slide { dirs, max: if atom.rider { None } else { Some(1) } }
                } else {
                    Geometry::Leap { paths: self.offset_paths(&s, a, b, &atom.filters) }
                }
            } else {
                if atom.rider {
                    self.error(&s, "rider leaps other than W and F are not supported yet", "use a single leap");
                    continue;
                }
                Geometry::Leap { paths: self.offset_paths(&s, a, b, &atom.filters) }
            };
            let mode = match (atom.move_only, atom.capture_only) {
                (true, false) => MoveMode::MoveOnly,
                (false, true) => MoveMode::CaptureOnly,
                _ => MoveMode::MoveOrCapture,
            };
            let mut mr = MoveRule {
                geometry,
                mode,
                conditions: Vec::new(),
                marks_en_passant: false,
                captures_en_passant: false,
                stop_between: false,
            };
            for m in &modifiers {
                self.modifier(&mut mr, m.clone());
            }
            out.push(mr);
        }
        out
    }

    // ------------------------------------------------------------ castling, setup, end

    /// The cells strictly after `from` up to and including `to` along one direction.
    fn line(&self, from: CellId, to: CellId) -> Option<Vec<CellId>> {
        for d in self.dirs.values() {
            let mut path = Vec::new();
            let mut at = from;
            while let Some(l) = self.links.iter().find(|l| l.from == at && l.dir == *d) {
                at = l.to;
                if at == from || path.contains(&at) {
                    break;
                }
                path.push(at);
                if at == to {
                    return Some(path);
                }
            }
        }
        None
    }

    fn castle(&mut self, c: Node) -> Option<Castling> {
        let parts: Vec<Node> = c.clone().into_inner().collect();
        let notation = string_value(&parts[1]);
        let player = self.player_id(&parts[2]);
        let right = parts[4].as_str().chars().next().expect("letter");
        let kf = self.cell(&parts[6]);
        let kt = self.cell(&parts[8]);
        let pf = self.cell(&parts[10]);
        let pt = self.cell(&parts[12]);
        let (player, kf, kt, pf, pt) = (player?, kf?, kt?, pf?, pt?);
        let king_path = if kf == kt { Some(Vec::new()) } else { self.line(kf, kt) };
        let partner_path = if pf == pt { Some(Vec::new()) } else { self.line(pf, pt) };
        for (who, path, a, b) in
            [("king", &king_path, &parts[6], &parts[8]), ("partner", &partner_path, &parts[10], &parts[12])]
        {
            if path.is_none() {
                self.errors.push(Diagnostic::new(
                    format!(
                        "the castling {who} cannot move from `{}` to `{}` along one direction",
                        a.as_str(),
                        b.as_str()
                    ),
                    a.as_span().start()..b.as_span().end(),
                    "expected two cells on one straight line of the board, like a rank",
                ));
            }
        }
        let (Some(king_path), Some(partner_path)) = (king_path, partner_path) else {
            return None;
        };
        let mut must_be_empty: Vec<CellId> = Vec::new();
        for x in king_path.iter().chain(partner_path.iter()) {
            if *x != kf && *x != pf && !must_be_empty.contains(x) {
                must_be_empty.push(*x);
            }
        }
        // Every cell between king and partner must be empty too.
        if let Some(between) = self.line(kf, pf) {
            for x in between {
                if x != pf && !must_be_empty.contains(&x) {
                    must_be_empty.push(x);
                }
            }
        }
        let mut must_be_safe = vec![kf];
        must_be_safe.extend(king_path);
        Some(Castling {
            notation,
            player,
            right,
            king_from: kf,
            king_to: kt,
            partner_from: pf,
            partner_to: pt,
            must_be_empty,
            must_be_safe,
        })
    }

    /// Lowers `squares { ... }`.
    fn squares(&mut self, block: Node) -> SquareRules {
        let mut out = SquareRules {
            owned: false,
            reserve: Some(0),
            moves: Vec::new(),
            carries: Vec::new(),
            carry_royal: true,
            place_zone: None,
            untouchable: Untouchable::Nothing,
            vacate: None,
        };
        for item in block.into_inner() {
            match item.as_rule() {
                Rule::owned_flag => out.owned = true,
                Rule::neutral_flag => out.owned = false,
                Rule::reserve_decl => {
                    let v = item.into_inner().nth(1).expect("reserve size");
                    out.reserve =
                        if v.as_rule() == Rule::k_any { None } else { Some(int_value(self, &v, 10_000) as u32) };
                }
                Rule::square_move_decl | Rule::carry_decl => {
                    let carry = item.as_rule() == Rule::carry_decl;
                    let mut it = item.into_inner().skip(1);
                    let power = it.next().expect("a move power");
                    let geometries = self.square_power(power);
                    if carry {
                        out.carries.extend(geometries);
                        if it.next().is_some() {
                            out.carry_royal = false;
                        }
                    } else {
                        out.moves.extend(geometries);
                    }
                }
                Rule::place_decl => {
                    let where_ = item.into_inner().last().expect("place target");
                    out.place_zone = if where_.as_rule() == Rule::name { self.zone_id(&where_) } else { None };
                }
                Rule::untouchable_decl => {
                    let which = item.into_inner().nth(1).expect("moved or touched");
                    out.untouchable =
                        if which.as_rule() == Rule::k_moved { Untouchable::Moved } else { Untouchable::Touched };
                }
                Rule::vacate_decl => {
                    let conds = item.into_inner().filter(|p| p.as_rule() == Rule::condition);
                    out.vacate = Some(conds.filter_map(|c| self.condition(c)).collect());
                }
                _ => {}
            }
        }
        out
    }

    /// The geometries of a square's move power: leaps and steps or slides, with no modifier but
    /// `max` (a square does not capture, and its moves have no conditions).
    fn square_power(&mut self, power: Node) -> Vec<Geometry> {
        let rules = match power.as_rule() {
            Rule::move_rule => self.move_rule(power.clone()).into_iter().collect(),
            _ => self.betza(power.clone()),
        };
        let mut out = Vec::new();
        for rule in rules {
            let plain = rule.mode == MoveMode::MoveOrCapture
                && rule.conditions.is_empty()
                && !rule.marks_en_passant
                && !rule.captures_en_passant
                && !rule.stop_between;
            if matches!(rule.geometry, Geometry::Hop { .. }) {
                self.error(&power, "a square cannot hop", "expected a leap, step or slide");
            } else if !plain {
                self.error(
                    &power,
                    "a square's move takes no modifiers but `max`",
                    "squares neither capture nor take en passant, and their moves have no conditions",
                );
            } else {
                out.push(rule.geometry);
            }
        }
        out
    }

    /// Lowers `turn { ... }`.
    fn turn(&mut self, block: Node, has_squares: bool) -> Turn {
        let mut actions = Vec::new();
        for slot in block.clone().into_inner().filter(|p| p.as_rule() == Rule::turn_slot) {
            let mut action = TurnAction { kinds: Vec::new(), optional: false, skip_if_none: None };
            for part in slot.into_inner() {
                match part.as_rule() {
                    Rule::action_kind => {
                        let k = part.clone().into_inner().next().expect("action keyword");
                        let kind = match k.as_rule() {
                            Rule::k_piece => ActionKind::MovePiece,
                            Rule::k_move_square => ActionKind::MoveSquare,
                            _ => ActionKind::PlaceSquare,
                        };
                        if kind != ActionKind::MovePiece && !has_squares {
                            self.error(
                                &part,
                                format!("`{}` needs a `squares {{ ... }}` block", part.as_str()),
                                "declare how squares move and are placed in a `squares` block",
                            );
                        }
                        if action.kinds.contains(&kind) {
                            self.error(&part, "an action listed twice", "expected each kind once per action");
                        }
                        action.kinds.push(kind);
                    }
                    Rule::optional_flag => action.optional = true,
                    Rule::skip_if_none => {
                        let conds = part.into_inner().filter(|p| p.as_rule() == Rule::condition);
                        action.skip_if_none = Some(conds.filter_map(|c| self.condition(c)).collect());
                    }
                    _ => {}
                }
            }
            actions.push(action);
        }
        if actions.len() > 8 {
            self.error(&block, "too many actions in a turn", "expected at most 8 actions");
            actions.truncate(8);
        }
        Turn { actions }
    }

    fn setup(&mut self, s: Node, castlings: &[Castling]) -> Setup {
        let mut placements: Vec<(CellId, Vec<(PlayerId, PieceTypeId)>)> = Vec::new();
        let mut rights = Vec::new();
        let mut right_nodes = Vec::new();
        let mut hands = Vec::new();
        for item in s.into_inner() {
            match item.as_rule() {
                Rule::hand_decl => hands.extend(self.hand(item)),
                Rule::setup_player => {
                    let mut it = item.into_inner();
                    let who = it.next().expect("player");
                    let player = self.player_id(&who);
                    for pl in it.filter(|p| p.as_rule() == Rule::placement) {
                        let mut pi = pl.into_inner();
                        let piece = pi.next().expect("piece");
                        let list = pi.next().expect("cells");
                        let ty = self.piece_ref(&piece);
                        let cells = self.cell_list_spanned(list, player);
                        if let (Some(player), Some(ty)) = (player, ty) {
                            for (c, at) in cells {
                                let piece = &self.pieces[ty.0 as usize];
                                if !self.cells[c.0 as usize].covers.is_empty()
                                    && !piece.moves.iter().any(|m| m.stop_between)
                                {
                                    let name = piece.name.clone();
                                    self.errors.push(Diagnostic::new(
                                        format!("a {name} cannot stand between cells"),
                                        at,
                                        "expected a cell: none of its moves may `stop-between`",
                                    ));
                                    continue;
                                }
                                if let Some(other) = self.covered_by_other(c, &placements) {
                                    let (a, b) = (&self.cells[c.0 as usize].name, &self.cells[other.0 as usize].name);
                                    self.errors.push(Diagnostic::new(
                                        format!("`{a}` overlaps the piece set up on `{b}`"),
                                        at,
                                        "a piece between cells covers them: expected cells it leaves free",
                                    ));
                                    continue;
                                }
                                let capacity = self.start_capacity(c);
                                if let Some((_, stack)) = placements.iter_mut().find(|(x, _)| *x == c) {
                                    if capacity.is_some_and(|n| stack.len() >= n as usize) {
                                        let name = self.cells[c.0 as usize].name.clone();
                                        let n = capacity.unwrap_or(1);
                                        let label = if n == 1 {
                                            format!("`{name}` already has a piece: a cell holds one piece")
                                        } else {
                                            format!("`{name}` already has {n} pieces, its capacity")
                                        };
                                        self.errors.push(Diagnostic::new(
                                            format!("too many pieces set up on `{name}`"),
                                            at,
                                            label,
                                        ));
                                        continue;
                                    }
                                    stack.push((player, ty));
                                    continue;
                                }
                                placements.push((c, vec![(player, ty)]));
                            }
                        }
                    }
                }
                Rule::castling_rights => {
                    for l in item.into_inner().skip(1) {
                        let ch = l.as_str().chars().next().expect("letter");
                        if castlings.iter().any(|c| c.right == ch) {
                            rights.push(ch);
                            right_nodes.push((ch, l.clone()));
                        } else {
                            self.error(
                                &l,
                                format!("no castling has the right letter `{ch}`"),
                                "expected the right letter of a `castle ... right X ...` declaration",
                            );
                        }
                    }
                }
                _ => {}
            }
        }
        placements.sort_by_key(|(c, _)| *c);
        // A right needs its king and partner set up, as a position string's right does.
        for (ch, l) in right_nodes {
            let Some(c) = castlings.iter().find(|c| c.right == ch) else { continue };
            let holds = |cell: CellId| {
                placements.iter().any(|(x, stack)| *x == cell && stack.iter().any(|(p, _)| *p == c.player))
            };
            if !holds(c.king_from) || !holds(c.partner_from) {
                let (player, king, partner) = (
                    self.players[c.player.0 as usize].name.clone(),
                    self.cells[c.king_from.0 as usize].name.clone(),
                    self.cells[c.partner_from.0 as usize].name.clone(),
                );
                self.error(
                    &l,
                    format!("castling right `{ch}` without its pieces in place"),
                    format!(
                        "expected pieces of {player}'s set up on `{king}` and `{partner}`, where the castling starts"
                    ),
                );
            }
        }
        Setup { placements, castling_rights: rights, square_owners: Vec::new(), hands }
    }

    /// A placement other than on `c` itself whose covered cells meet `c`'s (a piece standing
    /// between cells covers them all).
    fn covered_by_other(&self, c: CellId, placements: &[(CellId, Vec<(PlayerId, PieceTypeId)>)]) -> Option<CellId> {
        let area = |x: CellId| {
            let covers = &self.cells[x.0 as usize].covers;
            if covers.is_empty() {
                vec![x]
            } else {
                covers.clone()
            }
        };
        let mine = area(c);
        placements.iter().map(|(x, _)| *x).find(|&x| x != c && area(x).iter().any(|y| mine.contains(y)))
    }

    /// How many pieces a cell may hold at the start (its zone's rules without phases).
    fn start_capacity(&self, c: CellId) -> Option<u8> {
        self.zones
            .values()
            .find(|z| z.occupancy.is_some() && z.cells.iter().flatten().any(|x| *x == c))
            .and_then(|z| z.occupancy)
            .map_or(Some(1), |o| o.capacity)
    }

    fn end(&mut self, e: Node) -> EndRules {
        let mut end = EndRules {
            checkmate: Outcome::Loss,
            stalemate: Outcome::Draw,
            bare_king: None,
            move_rule: None,
            repetition: None,
            goals: Vec::new(),
        };
        let outcome = |n: &Node| match n.as_str() {
            "win" => Outcome::Win,
            "loss" => Outcome::Loss,
            _ => Outcome::Draw,
        };
        for item in e.into_inner() {
            let rule = item.as_rule();
            if rule == Rule::goal_end {
                end.goals.extend(self.goal(item));
                continue;
            }
            let Some(v) = item.clone().into_inner().nth(1) else { continue };
            match rule {
                Rule::checkmate_end => end.checkmate = outcome(&v),
                Rule::stalemate_end => end.stalemate = outcome(&v),
                Rule::bare_king_end => end.bare_king = Some(outcome(&v)),
                Rule::move_rule_end => end.move_rule = Some(int_value(self, &v, 100_000) as u32),
                Rule::repetition_end => end.repetition = Some(int_value(self, &v, 1000) as u32),
                _ => {}
            }
        }
        end
    }
}

impl Lowerer {
    /// Reports the loops of a program that could never end once entered, at their `while`.
    fn check_loops(&mut self, p: &varia_interpreter::ir::Program, item: &Node) {
        let endless = varia_interpreter::endless_loops(p);
        if endless.is_empty() {
            return;
        }
        let loops: Vec<Node> =
            item.clone().into_inner().flatten().filter(|n| n.as_rule() == Rule::while_instr).collect();
        for k in endless {
            if let Some(n) = loops.get(k) {
                self.error(
                    n,
                    "this loop never ends once entered: its body neither moves nor sets a flag, so its test keeps its value",
                    "expected a loop that steps to another cell (or sets a flag its test reads)",
                );
            }
        }
    }
}

/// Whether a program sets a piece attribute anywhere.
fn program_sets_attribute(p: &varia_interpreter::ir::Program) -> bool {
    fn sets(body: &[varia_interpreter::ir::Instr]) -> bool {
        use varia_interpreter::ir::Instr;
        body.iter().any(|i| match i {
            Instr::SetAttribute(..) => true,
            Instr::If(_, a, b) => sets(a) || sets(b),
            Instr::While(_, b) => sets(b),
            _ => false,
        })
    }
    sets(&p.body)
}
