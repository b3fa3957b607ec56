//! Lowering of the `display` block: points, extra lines, rivers and pieces drawn upside down.

use super::*;

impl Lowerer {
    /// The one `display` block, or the plain display without one.
    pub(super) fn display(&mut self, blocks: &[Node]) -> Display {
        let mut d = Display::default();
        let Some(block) = self.one_block(blocks, "display") else { return d };
        for item in block.into_inner() {
            match item.as_rule() {
                Rule::display_points => {
                    if d.points {
                        self.error(&item, "a second `points`", "expected `points` once");
                    }
                    d.points = true;
                }
                Rule::display_line => {
                    let mut it = item.clone().into_inner().skip(1);
                    let (a, b) = (it.next().expect("a cell"), it.next().expect("a cell"));
                    let (a, b) = (self.cell(&a), self.cell(&b));
                    if let (Some(a), Some(b)) = (a, b) {
                        if a == b || self.cells[a.0 as usize].layer != self.cells[b.0 as usize].layer {
                            self.error(
                                &item,
                                "a line needs two cells of one board",
                                "expected two different cells of one board",
                            );
                        } else {
                            d.lines.push((a, b));
                        }
                    }
                }
                Rule::display_river => self.river(item, &mut d),
                Rule::display_upside_down => {
                    let name = item.clone().into_inner().nth(1).expect("a player");
                    if let Some(p) = self.player_id(&name) {
                        if d.upside_down.contains(&p) {
                            self.error(
                                &name,
                                format!("player `{}` is already upside down", name.as_str()),
                                "expected each player once",
                            );
                        } else {
                            d.upside_down.push(p);
                        }
                    }
                }
                _ => {}
            }
        }
        d
    }

    /// `river e5 e6 "label"`: the two cells must lie in neighbouring rows of one board.
    fn river(&mut self, item: Node, d: &mut Display) {
        let mut it = item.clone().into_inner().skip(1);
        let (a, b) = (it.next().expect("a cell"), it.next().expect("a cell"));
        let label = it.next().map(|s| string_value(&s)).unwrap_or_default();
        let (Some(a), Some(b)) = (self.cell(&a), self.cell(&b)) else { return };
        let (ca, cb) = (&self.cells[a.0 as usize], &self.cells[b.0 as usize]);
        if ca.layer != cb.layer || (ca.y - cb.y).abs() != 1 {
            self.error(
                &item,
                format!("`{}` and `{}` are not in neighbouring rows", ca.name, cb.name),
                "expected a cell of each of two neighbouring rows of one board (`river e5 e6`)",
            );
            return;
        }
        let (below, above) = if ca.y < cb.y { (a, b) } else { (b, a) };
        d.rivers.push(River { below, above, label });
    }
}
