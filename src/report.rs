//! Reports of engine games: wins, draws and losses, score and Elo difference with a 95% interval, first-move advantage, endings and lengths, as text or one JSON object; `varia report merge` combines the JSON of a study's shards.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::games::Record;

/// A study: its settings and the games played (all of them, or one shard's).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Study {
    /// `match` or `selfplay`.
    pub kind: String,
    /// The variant's title and file.
    pub variant: String,
    pub file: String,
    /// The players' names in turn order (`white`, `black`).
    pub players: Vec<String>,
    /// The SPECs of the two sides (the same for self-play).
    pub first: String,
    pub second: String,
    pub seed: u64,
    pub random_plies: usize,
    pub max_plies: usize,
    /// Games in the whole study, over all shards.
    pub planned: usize,
    /// `K/N` for a shard; none for a whole study or a merge.
    pub shard: Option<String>,
    pub records: Vec<Record>,
}

/// The numbers of a report.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    pub games: usize,
    /// From the first SPEC's side (for self-play: the first player's).
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Games stopped at the ply limit (counted as draws).
    pub unfinished: usize,
    /// Points per game of the first side, from 0 to 1.
    pub score: f64,
    /// Elo difference of the first side and its 95% interval (none when unbounded: a score of
    /// 0 or 1).
    pub elo: Option<f64>,
    pub elo_low: Option<f64>,
    pub elo_high: Option<f64>,
    /// Points per game of the player who moves first, whoever plays it.
    pub first_mover_score: f64,
    /// Wins per player (by name).
    pub player_wins: BTreeMap<String, usize>,
    /// How games ended, with counts.
    pub endings: BTreeMap<String, usize>,
    pub length_min: usize,
    pub length_median: usize,
    pub length_mean: f64,
    pub length_max: usize,
}

/// The Elo difference for a score, `None` at 0 or 1 (unbounded).
fn elo_of(score: f64) -> Option<f64> {
    (score > 0.0 && score < 1.0).then(|| -400.0 * (1.0 / score - 1.0).log10())
}

/// Score, Elo and its 95% interval: a Wilson score interval with the spread of the games'
/// points (wins, draws and losses), which stays inside 0..1 even for a score of 0 or 1.
pub fn elo(wins: usize, draws: usize, losses: usize) -> (f64, Option<f64>, Option<f64>, Option<f64>) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.5, Some(0.0), None, None);
    }
    let s = (wins as f64 + draws as f64 / 2.0) / n;
    let var = (wins as f64 * (1.0 - s).powi(2) + draws as f64 * (0.5 - s).powi(2) + losses as f64 * s.powi(2)) / n;
    let z = 1.96f64;
    let centre = (s + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z * (var / n + z * z / (4.0 * n * n)).sqrt() / (1.0 + z * z / n);
    (s, elo_of(s), elo_of(centre - half), elo_of(centre + half))
}

/// The Elo difference and its 95% interval as text. A side that won (or lost) every game has
/// no finite Elo: the difference is then only bounded, by the interval's finite end
/// (`> +166 (every game won; 95% interval above +166)`).
fn elo_line(s: &Summary) -> String {
    let e = |x: f64| format!("{x:+.0}");
    match (s.elo, s.elo_low, s.elo_high) {
        (Some(elo), Some(low), Some(high)) => format!("{} (95% interval {} to {})", e(elo), e(low), e(high)),
        (None, Some(low), _) if s.score >= 1.0 => {
            format!("> {} (every game won; 95% interval above {})", e(low), e(low))
        }
        (None, _, Some(high)) if s.score <= 0.0 => {
            format!("< {} (every game lost; 95% interval below {})", e(high), e(high))
        }
        _ => "unknown (no game played)".to_string(),
    }
}

impl Study {
    /// The report's numbers.
    pub fn summary(&self) -> Summary {
        let games = self.records.len();
        let (mut wins, mut draws, mut losses, mut unfinished) = (0, 0, 0, 0);
        let mut first_mover = 0.0;
        let mut player_wins: BTreeMap<String, usize> = BTreeMap::new();
        let mut endings: BTreeMap<String, usize> = BTreeMap::new();
        for p in &self.players {
            player_wins.insert(p.clone(), 0);
        }
        for g in &self.records {
            let name = |p: usize| self.players.get(p).cloned().unwrap_or_else(|| format!("player {}", p + 1));
            match g.winner {
                Some(p) => {
                    *player_wins.entry(name(p)).or_default() += 1;
                    *endings.entry(format!("{} by {}", wins_phrase(&name(p)), g.ending)).or_default() += 1;
                    if p == g.first_side {
                        wins += 1;
                    } else {
                        losses += 1;
                    }
                    if p == 0 {
                        first_mover += 1.0;
                    }
                }
                None => {
                    draws += 1;
                    first_mover += 0.5;
                    if g.finished {
                        *endings.entry(format!("draw by {}", g.ending)).or_default() += 1;
                    } else {
                        unfinished += 1;
                        *endings.entry(format!("stopped at the {}-ply limit", self.max_plies)).or_default() += 1;
                    }
                }
            }
        }
        let (score, elo, elo_low, elo_high) = elo(wins, draws, losses);
        let mut lengths: Vec<usize> = self.records.iter().map(|g| g.plies).collect();
        lengths.sort_unstable();
        let mean = lengths.iter().sum::<usize>() as f64 / lengths.len().max(1) as f64;
        Summary {
            games,
            wins,
            draws,
            losses,
            unfinished,
            score,
            elo,
            elo_low,
            elo_high,
            first_mover_score: if games > 0 { first_mover / games as f64 } else { 0.5 },
            player_wins,
            endings,
            length_min: lengths.first().copied().unwrap_or(0),
            length_median: lengths.get(lengths.len() / 2).copied().unwrap_or(0),
            length_mean: mean,
            length_max: lengths.last().copied().unwrap_or(0),
        }
    }

    /// The report as one JSON object: the settings, the summary's numbers and every game.
    pub fn json(&self) -> String {
        let mut v = serde_json::to_value(self).unwrap_or_else(|_| json!({}));
        if let (Some(obj), Ok(serde_json::Value::Object(sum))) =
            (v.as_object_mut(), serde_json::to_value(self.summary()))
        {
            for (k, x) in sum {
                obj.insert(k, x);
            }
        }
        serde_json::to_string(&v).unwrap_or_default()
    }

    /// The report as text.
    pub fn text(&self) -> String {
        let s = self.summary();
        let mut out = String::new();
        let shard =
            self.shard.as_ref().map(|k| format!(" (shard {k} of {} planned)", self.planned)).unwrap_or_default();
        let pct = |x: f64| format!("{:.1}%", 100.0 * x);
        if self.kind == "match" {
            out.push_str(&format!(
                "{}: {} games{shard}, {} (first) against {} (second)\n",
                self.variant, s.games, self.first, self.second
            ));
            out.push_str(&format!("  first: {} wins, {} draws, {} losses", s.wins, s.draws, s.losses));
            if s.unfinished > 0 {
                out.push_str(&format!(" ({} stopped at the ply limit, counted as draws)", s.unfinished));
            }
            out.push('\n');
            out.push_str(&format!(
                "  score: {} for first ({}/{})\n",
                pct(s.score),
                s.wins as f64 + s.draws as f64 / 2.0,
                s.games
            ));
            out.push_str(&format!("  Elo difference: {}\n", elo_line(&s)));
            let mover = self.players.first().cloned().unwrap_or_default();
            out.push_str(&format!("  first-move advantage: {mover} scored {}\n", pct(s.first_mover_score)));
        } else {
            out.push_str(&format!("{}: {} games{shard}\n", self.variant, s.games));
            // Partners share one name (see `analyse`): one line per side.
            let sides: Vec<&String> = self
                .players
                .iter()
                .enumerate()
                .filter(|(i, n)| !self.players[..*i].contains(n))
                .map(|(_, n)| n)
                .collect();
            for name in sides {
                let n = s.player_wins.get(name).copied().unwrap_or(0);
                out.push_str(&format!(
                    "  {}: {n} ({:.0}%)\n",
                    wins_phrase(name),
                    100.0 * n as f64 / s.games.max(1) as f64
                ));
            }
            out.push_str(&format!("  draws: {}\n", s.draws - s.unfinished));
            out.push_str(&format!("  unfinished (ply limit): {}\n", s.unfinished));
            out.push_str(&format!(
                "  decisive: {} of {} ({:.0}%)\n",
                s.wins + s.losses,
                s.games,
                100.0 * (s.wins + s.losses) as f64 / s.games.max(1) as f64
            ));
        }
        out.push_str("how games ended:\n");
        for (reason, n) in &s.endings {
            out.push_str(&format!("  {reason}: {n}\n"));
        }
        if s.games > 0 {
            out.push_str(&format!(
                "game length in plies: min {}, median {}, mean {:.1}, max {}\n",
                s.length_min, s.length_median, s.length_mean, s.length_max
            ));
            let bucket = (self.max_plies / 10).max(1);
            let mut hist: BTreeMap<usize, usize> = BTreeMap::new();
            for g in &self.records {
                *hist.entry(g.plies / bucket * bucket).or_default() += 1;
            }
            for (from, n) in hist {
                out.push_str(&format!("  {:>4}-{:<4} {}\n", from, from + bucket - 1, "#".repeat(n)));
            }
        }
        out
    }
}

/// `varia report merge FILES...`: reads the JSON reports of a study's shards and combines them
/// into the text of one report (or its JSON with `json`). The files must come from one study (same kind,
/// variant, SPECs, seed and plies) and no game may appear twice.
pub fn merge(files: &[PathBuf], json: bool) -> Result<String, String> {
    if files.is_empty() {
        return Err("error: report merge needs at least one JSON report".to_string());
    }
    let mut studies = Vec::new();
    for f in files {
        let text = crate::files::read_text(f, crate::files::MAX_REPORT_BYTES, "a report")?;
        let study: Study = serde_json::from_str(&text).map_err(|e| refused(f, &e))?;
        studies.push((f.display().to_string(), study));
    }
    let m = merge_studies(studies)?;
    if json {
        return Ok(format!("{}\n", m.json()));
    }
    let mut text = m.text();
    if m.records.len() < m.planned {
        text.push_str(&format!("note: {} of the {} planned games are here\n", m.records.len(), m.planned));
    }
    Ok(text)
}

/// Combines the reports of a study's shards, each named (by its file) for errors, into one
/// report of the whole study, its games in order. They must come from one study (same kind,
/// variant, SPECs, seed and plies) and no game may appear twice.
pub fn merge_studies(studies: Vec<(String, Study)>) -> Result<Study, String> {
    let mut merged: Option<Study> = None;
    let first_name = studies.first().map(|(n, _)| n.clone()).unwrap_or_default();
    for (name, study) in studies {
        match &mut merged {
            None => merged = Some(study),
            Some(m) => {
                let same = m.kind == study.kind
                    && m.file == study.file
                    && m.variant == study.variant
                    && m.first == study.first
                    && m.second == study.second
                    && m.seed == study.seed
                    && m.random_plies == study.random_plies
                    && m.max_plies == study.max_plies
                    && m.planned == study.planned;
                if !same {
                    return Err(format!(
                        "error: {name}: a different study (kind, variant, SPECs, seed, plies or number of games differ from {first_name})"
                    ));
                }
                for r in study.records {
                    if m.records.iter().any(|x| x.index == r.index) {
                        return Err(format!("error: {name}: game {} is also in an earlier file", r.index + 1));
                    }
                    m.records.push(r);
                }
            }
        }
    }
    let mut m = merged.ok_or("error: report merge needs at least one JSON report")?;
    m.records.sort_by_key(|r| r.index);
    m.shard = None;
    Ok(m)
}

/// Why a file is not a report, at its line and column: a file that ends early (cut short) is
/// told apart from one that is not a report at all.
fn refused(file: &std::path::Path, e: &serde_json::Error) -> String {
    let what = e.to_string();
    let what = what.split(" at line ").next().unwrap_or_default();
    let at = format!("{}:{}:{}", file.display(), e.line(), e.column());
    if e.is_eof() {
        format!("error: {at}: the file ends early ({what}): expected the rest of a report; was it cut short?")
    } else {
        format!("error: {at}: not a report of `varia match --json` or `selfplay --json`: {what}")
    }
}

/// `white wins`, or `south and north win` for a team's name.
fn wins_phrase(name: &str) -> String {
    if name.contains(" and ") {
        format!("{name} win")
    } else {
        format!("{name} wins")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(wins: usize, draws: usize, losses: usize) -> String {
        let (score, elo, elo_low, elo_high) = elo(wins, draws, losses);
        elo_line(&Summary { score, elo, elo_low, elo_high, ..Summary::default() })
    }

    #[test]
    fn a_clean_sweep_has_a_bound_not_an_infinite_elo() {
        assert_eq!(line(10, 0, 0), "> +166 (every game won; 95% interval above +166)");
        assert_eq!(line(0, 0, 10), "< -166 (every game lost; 95% interval below -166)");
        assert_eq!(line(7, 2, 1), "+241 (95% interval +9 to +424)");
        for text in [line(10, 0, 0), line(0, 0, 10), line(1, 0, 0), line(5, 5, 0)] {
            assert!(!text.contains("inf"), "{text}");
        }
    }
}
