//! Phases in position strings: the `phases=` field, written where the phases that have begun are not those their conditions give now (a phase never ends, while its condition may stop holding).

use crate::fen::PositionError;
use crate::position::{Position, State};
use crate::rules::Rules;

impl State {
    /// The phases the conditions give in this position, as a setup derives them.
    fn phases_from_conditions(&self, r: &Rules) -> u32 {
        let mut probe = self.clone();
        probe.phases = 0;
        probe.update_phases(r);
        probe.phases
    }
}

impl Position {
    /// The ` phases=NAME,...` field (`-` for none) where the phases that have begun differ from
    /// those the conditions give now; else nothing.
    pub(crate) fn phase_field(&self) -> String {
        let r = &*self.rules;
        if r.variant.phases.is_empty() || self.st.phases == self.st.phases_from_conditions(r) {
            return String::new();
        }
        let names: Vec<&str> = r
            .variant
            .phases
            .iter()
            .enumerate()
            .filter(|(i, _)| self.st.phases & (1 << i) != 0)
            .map(|(_, p)| p.name.as_str())
            .collect();
        format!(" phases={}", if names.is_empty() { "-".to_string() } else { names.join(",") })
    }

    /// Reads the value of a `phases=` field (at byte `at` of the string): the phases that have
    /// begun.
    pub(crate) fn read_phase_field(rules: &Rules, value: &str, at: usize) -> Result<u32, PositionError> {
        if value == "-" {
            return Ok(0);
        }
        let mut phases = 0;
        let mut offset = at;
        for part in value.split(',') {
            let Some(i) = rules.variant.phases.iter().position(|p| p.name == part) else {
                return Err(PositionError {
                    offset,
                    len: part.len().max(1),
                    message: format!("expected the name of a phase in `phases=`, found `{part}`"),
                });
            };
            phases |= 1 << i;
            offset += part.len() + 1;
        }
        Ok(phases)
    }
}
