//! Studies from Python: a `selfplay` or `match` study, or one shard of it, played by the same code as `varia selfplay` and `varia match`, its report as the JSON they print with `--json`; reports of shards merged as `varia report merge` does.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::prelude::*;
use varia::games::{Shard, Spec};
use varia::report::Study;
use varia::study::StudyArgs;
use varia_interpreter::Rules;

/// Plays a study, or share `shard` ("K/N") of it, and returns its report as JSON, the object
/// `varia selfplay --json` (kind `selfplay`, `first` playing both sides) or `varia match --json`
/// (kind `match`) prints. `source` is the rule file or bundled name, as the command line takes
/// it (the report names it). Games run on `jobs` threads, without the Python lock.
#[pyfunction]
#[pyo3(signature = (source, kind = "selfplay", games = 10, first = "depth=2", second = None, seed = 1,
    random_plies = None, max_plies = 300, shard = None, jobs = 1, position = None, variant = None))]
#[allow(clippy::too_many_arguments)]
pub fn run_study(
    py: Python<'_>,
    source: &str,
    kind: &str,
    games: usize,
    first: &str,
    second: Option<&str>,
    seed: u64,
    random_plies: Option<usize>,
    max_plies: usize,
    shard: Option<&str>,
    jobs: usize,
    position: Option<&str>,
    variant: Option<&str>,
) -> PyResult<String> {
    let is_match = match kind {
        "match" => true,
        "selfplay" => false,
        _ => return Err(crate::error(format!("error: kind must be `selfplay` or `match`, not `{kind}`"))),
    };
    let first = Spec::parse(first).map_err(crate::error)?;
    let second = match second {
        Some(text) => Spec::parse(text).map_err(crate::error)?,
        None if is_match => return Err(crate::error("error: a match needs a second SPEC")),
        None => first.clone(),
    };
    let loaded = crate::load::load(source, variant).map_err(crate::error)?;
    let rules = Arc::new(Rules::new(loaded.variant));
    let start = varia::load::position(&rules, position).map_err(crate::error)?;
    let args = StudyArgs {
        file: PathBuf::from(crate::load::canonical(source)),
        games,
        first,
        second,
        max_plies,
        // The command line's defaults: 4 random plies opening a match, 2 a self-play game.
        random_plies: random_plies.unwrap_or(if is_match { 4 } else { 2 }),
        seed,
        save: None,
        resume: None,
        shard: shard.map(Shard::parse).transpose().map_err(crate::error)?,
        jobs: jobs.max(1),
    };
    let study = py.detach(|| varia::study::run(rules, start, &args, is_match)).map_err(crate::error)?;
    Ok(study.json())
}

/// Reads a report's JSON; errors name the report by its place in the list.
fn read(i: usize, text: &str) -> Result<(String, Study), String> {
    let name = format!("report {}", i + 1);
    serde_json::from_str(text)
        .map(|s| (name.clone(), s))
        .map_err(|e| format!("error: {name}:{}:{}: not a report of a study: {e}", e.line(), e.column()))
}

/// Merges the JSON reports of a study's shards into the JSON report of the whole study, as
/// `varia report merge --json` does; raises `VariaError` for reports of different studies or a
/// game twice.
#[pyfunction]
pub fn merge_reports(reports: Vec<String>) -> PyResult<String> {
    let studies = reports.iter().enumerate().map(|(i, t)| read(i, t)).collect::<Result<Vec<_>, _>>();
    let merged = varia::report::merge_studies(studies.map_err(crate::error)?).map_err(crate::error)?;
    Ok(merged.json())
}

/// A JSON report as the text `varia report merge` prints.
#[pyfunction]
pub fn report_text(report: &str) -> PyResult<String> {
    let (_, study) = read(0, report).map_err(crate::error)?;
    Ok(study.text())
}
