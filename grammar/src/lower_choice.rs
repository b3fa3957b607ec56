//! Lowering of `choice` blocks: the options the players pick before the first move, each a fragment of setup per player.

use varia_interpreter::ir::*;

use super::{span, Lowerer, Node};
use crate::diagnostic::Diagnostic;
use crate::syntax::Rule;

/// At most this many choices in a variant, and options in a choice (a position string names
/// each option made; a move names one).
pub(super) const MAX_CHOICES: usize = 16;
pub(super) const MAX_OPTIONS: usize = 64;

impl Lowerer {
    /// Lowers every `choice` block, in file order.
    pub(super) fn choices(
        &mut self,
        nodes: &[Node],
        castlings: &[Castling],
        gates: &[Gate],
        setup: &Setup,
    ) -> Vec<Choice> {
        if let Some(extra) = nodes.get(MAX_CHOICES) {
            self.error(extra, "too many choices", format!("expected at most {MAX_CHOICES} `choice` blocks"));
        }
        let mut out: Vec<Choice> = Vec::new();
        for node in nodes.iter().take(MAX_CHOICES) {
            let mut it = node.clone().into_inner().skip(1);
            let name_node = it.next().expect("choice name");
            let name = name_node.as_str().to_string();
            if out.iter().any(|c| c.name == name) {
                self.error(
                    &name_node,
                    format!("a second choice `{name}`"),
                    "expected each choice to have its own name",
                );
            }
            let options: Vec<Node> = it.filter(|p| p.as_rule() == Rule::choice_option).collect();
            if options.is_empty() {
                self.errors.push(Diagnostic::new(
                    format!("the choice `{name}` has no option"),
                    span(node),
                    "expected at least one `option NAME { ... }` in it",
                ));
            }
            if let Some(extra) = options.get(MAX_OPTIONS) {
                self.error(extra, "too many options", format!("expected at most {MAX_OPTIONS} options in a choice"));
            }
            let mut choice = Choice { name, choosers: Vec::new(), options: Vec::new() };
            let errors_before = self.errors.len();
            for opt in options.iter().take(MAX_OPTIONS) {
                let mut oi = opt.clone().into_inner().skip(1);
                let opt_name = oi.next().expect("option name");
                let title = oi.next().filter(|p| p.as_rule() == Rule::string);
                let oname = opt_name.as_str().to_string();
                if choice.options.iter().any(|o| o.name == oname) {
                    self.error(
                        &opt_name,
                        format!("the option name `{oname}` is taken"),
                        "expected a name no other option of the choice has",
                    );
                }
                let title = match title {
                    Some(t) => t.into_inner().next().map(|s| s.as_str().to_string()).unwrap_or_default(),
                    None => oname.clone(),
                };
                let given = self.setup(opt.clone(), castlings, gates, &setup.placements);
                let mut grants = vec![Grant::default(); self.players.len()];
                for (cell, stack) in &given.placements {
                    for (p, t) in stack {
                        grants[p.0 as usize].placements.push((*cell, *t));
                    }
                }
                for (p, t, n) in &given.hands {
                    grants[p.0 as usize].hands.push((*t, *n));
                }
                for ch in &given.castling_rights {
                    let owner = castlings
                        .iter()
                        .find(|c| c.right == *ch)
                        .map(|c| c.player)
                        .or_else(|| gates.iter().find(|g| g.right == *ch).map(|g| g.player));
                    if let Some(p) = owner {
                        grants[p.0 as usize].rights.push(*ch);
                    }
                }
                choice.options.push(ChoiceOption { name: oname, title, grants });
            }
            // Whoever some option gives something makes the choice, among every option.
            choice.choosers = (0..self.players.len())
                .filter(|&p| choice.options.iter().any(|o| o.grants[p] != Grant::default()))
                .map(|p| PlayerId(p as u8))
                .collect();
            // (An option whose lines were refused has given nothing: no second error for it.)
            if choice.choosers.is_empty() && !choice.options.is_empty() && self.errors.len() == errors_before {
                self.errors.push(Diagnostic::new(
                    format!("no option of the choice `{}` gives a player anything", choice.name),
                    span(node),
                    "expected `PLAYER: PIECE CELLS`, `hand PLAYER: ...` or `castling ...` in an option",
                ));
            }
            out.push(choice);
        }
        out
    }
}
