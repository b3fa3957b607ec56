//! `Game`: a variant loaded from a rule file, a bundled name or `.var` text, with its players, cells, piece types and start position.

use std::sync::Arc;

use pyo3::prelude::*;
use varia_interpreter::ir::PlayerId;
use varia_interpreter::Rules;

use crate::actions::Encoding;
use crate::position::Position;

/// A variant: its compiled rules and where they came from.
#[pyclass(frozen, module = "varia")]
pub struct Game {
    pub rules: Arc<Rules>,
    /// The path or bundled name it was loaded from (`<text>` for text).
    pub source: String,
    pub notes: Vec<String>,
    pub encoding: Encoding,
}

impl Game {
    fn with(variant: varia_interpreter::ir::Variant, source: String, notes: Vec<String>) -> Game {
        let rules = Arc::new(Rules::new(variant));
        let encoding = Encoding::new(&rules);
        Game { rules, source, notes, encoding }
    }
}

#[pymethods]
impl Game {
    /// Loads a `.var` or `.zrf` file, or a bundled variant by name (`chess`, `hans38`, or
    /// Fairy-Stockfish's name such as `3check`); `variant` picks a game of a `.zrf` file (its
    /// title or number from 1). Raises `VariaError` with the located message.
    #[new]
    #[pyo3(signature = (source, variant = None))]
    fn new(py: Python<'_>, source: &str, variant: Option<&str>) -> PyResult<Game> {
        let loaded = py.detach(|| crate::load::load(source, variant)).map_err(crate::error)?;
        Ok(Game::with(loaded.variant, loaded.source, loaded.notes))
    }

    /// A game from `.var` text; `name` stands for the file in error messages.
    #[staticmethod]
    #[pyo3(signature = (text, name = "<text>"))]
    fn from_text(text: &str, name: &str) -> PyResult<Game> {
        let variant = crate::load::from_text(text, name).map_err(crate::error)?;
        Ok(Game::with(variant, name.to_string(), Vec::new()))
    }

    /// The variant's title (`Chess`).
    #[getter]
    fn title(&self) -> String {
        self.rules.variant.title.clone()
    }

    /// The path or name the game was loaded from.
    #[getter]
    fn source(&self) -> String {
        self.source.clone()
    }

    /// What a `.zrf` import left out, one located line each.
    #[getter]
    fn notes(&self) -> Vec<String> {
        self.notes.clone()
    }

    /// The players' names in turn order (player 0 moves first).
    #[getter]
    fn players(&self) -> Vec<String> {
        self.rules.variant.players.iter().map(|p| p.name.clone()).collect()
    }

    /// The sides' names, one per player (partners share their team's name).
    #[getter]
    fn sides(&self) -> Vec<String> {
        (0..self.rules.player_count() as u8).map(|p| self.rules.side_name(PlayerId(p))).collect()
    }

    #[getter]
    fn num_players(&self) -> usize {
        self.rules.player_count()
    }

    /// The cells' names, in the order the action encoding and observations number them.
    #[getter]
    fn cells(&self) -> Vec<String> {
        (0..self.rules.cell_count())
            .map(|c| self.rules.cell_name(varia_interpreter::ir::CellId(c as u16)).to_string())
            .collect()
    }

    /// The piece types as (name, letter), in the order observations number them.
    #[getter]
    fn piece_types(&self) -> Vec<(String, String)> {
        self.rules.variant.pieces.iter().map(|p| (p.name.clone(), p.letter.to_string())).collect()
    }

    /// Whether a captured piece goes to the capturer's hand (crazyhouse, shogi).
    #[getter]
    fn captures_to_hand(&self) -> bool {
        self.rules.variant.pieces.iter().any(|p| p.to_hand.is_some())
    }

    /// The start position's string.
    #[getter]
    fn start_fen(&self) -> String {
        varia_interpreter::Position::start(self.rules.clone()).to_position_string()
    }

    /// The size of the fixed action encoding (see `Position.action_mask`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.encoding.size()
    }

    /// The shape of `Position.observation()`: (cells + 1, planes).
    #[getter]
    fn observation_shape(&self) -> (usize, usize) {
        self.encoding.observation_shape()
    }

    /// The start position.
    fn start(slf: &Bound<'_, Game>) -> Position {
        Position::new(slf.clone().unbind(), varia_interpreter::Position::start(slf.get().rules.clone()))
    }

    /// A position: the start or `fen` (`"startpos"` is the start), after `moves` (any notation
    /// Varia reads, UCI included). Raises `VariaError` naming a bad string or move.
    #[pyo3(signature = (fen = None, moves = None))]
    fn position(slf: &Bound<'_, Game>, fen: Option<&str>, moves: Option<Vec<String>>) -> PyResult<Position> {
        let rules = slf.get().rules.clone();
        let pos = match fen {
            None | Some("startpos") => varia_interpreter::Position::start(rules),
            Some(text) => varia::load::position(&rules, Some(text)).map_err(crate::error)?,
        };
        let mut p = Position::new(slf.clone().unbind(), pos);
        for (i, text) in moves.unwrap_or_default().iter().enumerate() {
            p.push_text(text).map_err(|e| crate::error(format!("error: move {} `{text}`: {e}", i + 1)))?;
        }
        Ok(p)
    }

    fn __repr__(&self) -> String {
        format!("Game({:?})", self.source)
    }
}
