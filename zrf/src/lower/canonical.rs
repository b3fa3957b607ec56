//! Puts a lowered board into the order Varia's own `grid` uses, so that a converted game reads as a grid.
//!
//! Zillions numbers positions from the top-left corner and lists directions as the file does;
//! Varia's `grid` numbers cells from `a1` rank by rank and its compass as n ne e se s sw w nw. The
//! game is the same either way: this only renumbers cells, directions and links (and every id
//! that refers to them), which lets `varia convert` write `grid 8 x 8` instead of a cell list.

use varia_interpreter::ir::{CellId, ConfigGroup, DirId, GoalTest, Instr, Link, Place, Test, Variant};

/// The compass of a Varia grid: names and display offsets, in the grid's order.
const COMPASS: [(&str, i32, i32); 8] =
    [("n", 0, 1), ("ne", 1, 1), ("e", 1, 0), ("se", 1, -1), ("s", 0, -1), ("sw", -1, -1), ("w", -1, 0), ("nw", -1, 1)];

/// Renumbers the variant's board into grid order: cells by layer, row and column; the
/// compass directions first when every link of theirs goes by its offset; links of each cell
/// in direction order.
pub(super) fn canonical_board(v: &mut Variant) {
    let cells = &v.board.cells;
    let mut order: Vec<usize> = (0..cells.len()).collect();
    order.sort_by_key(|&i| (cells[i].layer, cells[i].y, cells[i].x));
    let mut cell_map = vec![CellId(0); cells.len()];
    for (new, &old) in order.iter().enumerate() {
        cell_map[old] = CellId(new as u16);
    }

    let names = &v.board.directions;
    let compass: Option<Vec<usize>> =
        COMPASS.iter().map(|(n, _, _)| names.iter().position(|d| d == n)).collect::<Option<Vec<_>>>();
    // The compass moves first only if its links all go by the grid's offsets.
    let compass = compass.filter(|ids| {
        v.board.links.iter().all(|l| match ids.iter().position(|&d| d == l.dir.0 as usize) {
            Some(k) => {
                let (a, b) = (&cells[l.from.0 as usize], &cells[l.to.0 as usize]);
                a.layer == b.layer && b.x - a.x == COMPASS[k].1 && b.y - a.y == COMPASS[k].2
            }
            None => true,
        })
    });
    let mut dir_order: Vec<usize> = compass.clone().unwrap_or_default();
    let rest: Vec<usize> = (0..names.len()).filter(|d| !dir_order.contains(d)).collect();
    dir_order.extend(rest);
    let mut dir_map = vec![DirId(0); names.len()];
    for (new, &old) in dir_order.iter().enumerate() {
        dir_map[old] = DirId(new as u8);
    }

    renumber(v, &cell_map, &dir_map);
    let cells_sorted: Vec<_> = order.iter().map(|&i| v.board.cells[i].clone()).collect();
    v.board.cells = cells_sorted;
    let dirs_sorted: Vec<String> = dir_order.iter().map(|&i| v.board.directions[i].clone()).collect();
    v.board.directions = dirs_sorted;
    // Links as a grid makes them: the compass links of each cell in order, then the others.
    let compass_count = if compass.is_some() { 8 } else { 0 };
    v.board.links.sort_by_key(|l| {
        let extra = l.dir.0 as usize >= compass_count;
        (extra, if extra { l.dir.0 } else { 0 }, l.from, l.dir)
    });
    if compass.is_some() && v.board.direction_sets.is_empty() {
        let set = |ids: &[u8]| ids.iter().map(|d| DirId(*d)).collect::<Vec<_>>();
        v.board.direction_sets = vec![
            ("orthogonal".to_string(), set(&[0, 2, 4, 6])),
            ("diagonal".to_string(), set(&[1, 3, 5, 7])),
            ("all".to_string(), set(&[0, 1, 2, 3, 4, 5, 6, 7])),
        ];
    }
}

fn renumber(v: &mut Variant, cells: &[CellId], dirs: &[DirId]) {
    let c = |x: &mut CellId| *x = cells[x.0 as usize];
    let d = |x: &mut DirId| *x = dirs[x.0 as usize];
    for Link { from, dir, to } in &mut v.board.links {
        c(from);
        c(to);
        d(dir);
    }
    for (_, set) in &mut v.board.direction_sets {
        set.iter_mut().for_each(d);
    }
    for x in &mut v.board.initially_empty_locations {
        c(x);
    }
    // A player's map says which direction each written direction means: both sides renumber.
    for p in &mut v.players {
        let old = p.direction_map.clone();
        for (written, meant) in old.iter().enumerate() {
            p.direction_map[dirs[written].0 as usize] = dirs[meant.0 as usize];
        }
    }
    for z in &mut v.zones {
        for list in &mut z.cells {
            list.iter_mut().for_each(c);
            list.sort();
        }
    }
    for (cell, _) in &mut v.setup.placements {
        c(cell);
    }
    v.setup.placements.sort_by_key(|(cell, _)| *cell);
    for piece in &mut v.pieces {
        for prog in piece.programs.iter_mut().chain(piece.drops.iter_mut()) {
            instrs(&mut prog.body, cells, dirs);
        }
    }
    for goal in &mut v.end.goals {
        goal_test(&mut goal.test, cells);
    }
}

fn place(p: &mut Place, cells: &[CellId], dirs: &[DirId]) {
    match p {
        Place::Dir(x) => *x = dirs[x.0 as usize],
        Place::Cell(x) => *x = cells[x.0 as usize],
    }
}

fn opt_place(p: &mut Option<Place>, cells: &[CellId], dirs: &[DirId]) {
    if let Some(p) = p {
        place(p, cells, dirs);
    }
}

fn instrs(body: &mut [Instr], cells: &[CellId], dirs: &[DirId]) {
    for i in body {
        match i {
            Instr::Step(x) => *x = dirs[x.0 as usize],
            Instr::Jump(x) => *x = cells[x.0 as usize],
            Instr::Mark(p) | Instr::Capture(p) | Instr::ChangeOwner(p) | Instr::Flip(p) => opt_place(p, cells, dirs),
            Instr::ChangeType(_, p) => opt_place(p, cells, dirs),
            Instr::Create { at, .. } => opt_place(at, cells, dirs),
            Instr::Verify(t) | Instr::SetFlag(_, t) | Instr::SetAttribute(_, t) => test(t, cells, dirs),
            Instr::SetCellFlag(_, t, p) => {
                test(t, cells, dirs);
                opt_place(p, cells, dirs);
            }
            Instr::If(t, a, b) => {
                test(t, cells, dirs);
                instrs(a, cells, dirs);
                instrs(b, cells, dirs);
            }
            Instr::While(t, a) => {
                test(t, cells, dirs);
                instrs(a, cells, dirs);
            }
            Instr::Go(_) | Instr::Back | Instr::To | Instr::From | Instr::Cascade | Instr::Add { .. } => {}
        }
    }
}

fn test(t: &mut Test, cells: &[CellId], dirs: &[DirId]) {
    match t {
        Test::True | Test::False | Test::Flag(_) | Test::Holds(_) => {}
        Test::Empty(p)
        | Test::Friend(p)
        | Test::Enemy(p)
        | Test::Piece(_, p)
        | Test::InZone(_, p)
        | Test::LastFrom(p)
        | Test::LastTo(p)
        | Test::Marked(p)
        | Test::Attacked(_, p)
        | Test::Defended(_, p)
        | Test::AdjacentToEnemy(p)
        | Test::CellFlag(_, p)
        | Test::Attribute(_, p) => opt_place(p, cells, dirs),
        Test::OnBoard(p) => place(p, cells, dirs),
        Test::At(x) => *x = cells[x.0 as usize],
        Test::Not(inner) => test(inner, cells, dirs),
        Test::And(all) | Test::Or(all) => all.iter_mut().for_each(|x| test(x, cells, dirs)),
    }
}

fn goal_test(t: &mut GoalTest, cells: &[CellId]) {
    match t {
        GoalTest::Config(_, groups) | GoalTest::SafeConfig(_, groups) | GoalTest::CanReach(_, groups) => {
            for g in groups {
                if let ConfigGroup::Cell(x) = g {
                    *x = cells[x.0 as usize];
                }
            }
        }
        GoalTest::Not(inner) => goal_test(inner, cells),
        GoalTest::And(all) | GoalTest::Or(all) => all.iter_mut().for_each(|x| goal_test(x, cells)),
        _ => {}
    }
}
