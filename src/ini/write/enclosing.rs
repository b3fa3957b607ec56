//! `enclosingDrop` and `flipEnclosedPieces` for drops: the test a drop must pass (closing a line of enemy pieces, reversi; beside an own piece, ataxx) and the enemy pieces it turns over, as move-program code (variants/flipello.var and ataxx.var write the same by hand).

use super::Writer;

/// The eight directions, as the players read them.
const ALL: [&str; 8] = ["n", "ne", "e", "se", "s", "sw", "w", "nw"];

impl Writer<'_> {
    /// The program code a drop runs before `add`: empty without these options, and where
    /// [`Writer::check_enclosing`] refuses them.
    pub(super) fn enclosing(&self) -> Vec<String> {
        let m = self.m;
        let (rule, flip) = (m.drops.enclosing.as_str(), m.drops.flip.as_str());
        if !self.enclosing_written() {
            return Vec::new();
        }
        let mut code = Vec::new();
        if rule == "reversi" || flip == "reversi" {
            // Each line of enemy pieces closed by an own piece: marked closed (and turned over).
            code.push("mark".to_string());
            for d in ALL {
                let set = if rule == "reversi" { "set-flag encloses true " } else { "" };
                let turn =
                    if flip == "reversi" { format!("back {d} while enemy {{ flip {d} }} ") } else { String::new() };
                code.push(format!(
                    "if enemy({d}) {{ {d} while enemy and on-board({d}) {{ {d} }} if friend {{ {set}{turn}}} back }}"
                ));
            }
        }
        // Judged on the board before the drop's flips turn any piece over.
        let test = match rule {
            "reversi" => Some("verify flag(encloses)".to_string()),
            "ataxx" => Some(format!("verify {}", ALL.map(|d| format!("friend({d})")).join(" or "))),
            _ => None,
        };
        if let Some(test) = test {
            code.push(self.unless_starting(test));
        }
        if flip == "ataxx" {
            code.extend(ALL.map(|d| format!("if enemy({d}) {{ flip({d}) }}")));
        }
        code
    }

    /// Whether the rules are ones the import writes: reversi and ataxx, flipping after drops
    /// only (Fairy-Stockfish flips after every move, so no piece may have moves).
    fn enclosing_written(&self) -> bool {
        let m = self.m;
        let written = |r: &str| ["none", "reversi", "ataxx"].contains(&r);
        written(&m.drops.enclosing)
            && written(&m.drops.flip)
            && (m.drops.flip == "none" || m.slots().all(|s| m.betza(s).is_empty()))
    }

    /// Refuses the enclosing rules the import does not write, whether or not pieces drop.
    pub(super) fn check_enclosing(&mut self) {
        let m = self.m;
        if !["none", "reversi", "ataxx"].contains(&m.drops.enclosing.as_str()) {
            self.refuse("enclosingDrop", "only `reversi` and `ataxx` drops are imported");
        }
        if !["none", "reversi", "ataxx"].contains(&m.drops.flip.as_str()) {
            self.refuse("flipEnclosedPieces", "only `reversi` and `ataxx` flips are imported");
        } else if m.drops.flip != "none" && m.slots().any(|s| !m.betza(s).is_empty()) {
            self.refuse(
                "flipEnclosedPieces",
                "flips after a piece's move are not imported: only drops of pieces without moves flip",
            );
        }
    }

    /// `test`, or while a cell of `enclosingDropStart` is empty, a drop there instead (closing
    /// nothing).
    fn unless_starting(&self, test: String) -> String {
        let start = self.m.drops.enclosing_start & self.m.board();
        if start == 0 {
            return test;
        }
        let cells: Vec<String> = self.cells(start).split(' ').map(String::from).collect();
        let empty: Vec<String> = cells.iter().map(|c| format!("empty({c})")).collect();
        let at: Vec<String> = cells.iter().map(|c| format!("at({c})")).collect();
        format!("if {} {{ verify {} }} else {{ {test} }}", empty.join(" or "), at.join(" or "))
    }
}
