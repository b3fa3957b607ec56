//! `varia._varia`: the native part of the Python module: games loaded from rule files, positions and moves, search, perft, the action encoding of the PettingZoo environment, and studies.

mod actions;
mod game;
mod load;
mod position;
mod study;

use pyo3::prelude::*;

pyo3::create_exception!(
    _varia,
    VariaError,
    pyo3::exceptions::PyValueError,
    "A rule file, position string or move Varia cannot read: the message names the place (file:line:column)."
);

/// A Varia error as a Python exception.
pub(crate) fn error(message: impl Into<String>) -> PyErr {
    VariaError::new_err(message.into().trim_end().to_string())
}

#[pymodule]
fn _varia(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("VariaError", m.py().get_type::<VariaError>())?;
    m.add_class::<game::Game>()?;
    m.add_class::<position::Position>()?;
    m.add_class::<position::Move>()?;
    m.add_function(wrap_pyfunction!(load::bundled, m)?)?;
    m.add_function(wrap_pyfunction!(study::run_study, m)?)?;
    m.add_function(wrap_pyfunction!(study::merge_reports, m)?)?;
    m.add_function(wrap_pyfunction!(study::report_text, m)?)?;
    Ok(())
}
