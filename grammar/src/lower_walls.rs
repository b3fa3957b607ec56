//! Lowering of the `walls` block: where each piece move places a wall, and which pieces turn into walls when they capture.

use varia_interpreter::ir::*;

use super::*;
use crate::syntax::Rule;

impl Lowerer {
    /// Lowers `walls { place RULE [in ZONE]  petrify TYPES }`: one `place` line at most; a type
    /// named twice in `petrify` counts once.
    pub(super) fn walls(&mut self, block: Node) -> WallRules {
        let mut out = WallRules { place: None, zone: None, petrify: Vec::new() };
        let mut placed = false;
        for item in block.into_inner() {
            match item.as_rule() {
                Rule::wall_place_decl => {
                    if placed {
                        self.error(&item, "a second `place` line in `walls`", "expected one `place` line");
                        continue;
                    }
                    placed = true;
                    let mut it = item.into_inner().skip(1);
                    let rule = it.next().and_then(|r| r.into_inner().next()).expect("a wall rule");
                    out.place = Some(match rule.as_rule() {
                        Rule::k_arrow => WallPlace::Arrow,
                        Rule::k_past => WallPlace::Past,
                        Rule::k_duck => WallPlace::Duck,
                        _ => WallPlace::Anywhere,
                    });
                    if let Some(zone) = it.find(|n| n.as_rule() == Rule::any_name) {
                        out.zone = self.zone_id(&zone);
                    }
                }
                Rule::petrify_decl => {
                    for n in item.into_inner().filter(|n| n.as_rule() == Rule::piece_ref) {
                        if let Some(t) = self.piece_ref(&n) {
                            if self.pieces[t.0 as usize].royal {
                                self.error(
                                    &n,
                                    format!("the royal piece `{}` cannot turn into a wall", n.as_str()),
                                    "expected pieces that are not royal: give a royal piece moves that never capture instead",
                                );
                                continue;
                            }
                            if !out.petrify.contains(&t) {
                                out.petrify.push(t);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }
}
