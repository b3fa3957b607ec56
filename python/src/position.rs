//! `Position` and `Move`: a game's state with its legal moves, making and taking back moves, notation, the result, perft, search, and the environment's actions and observations.

use std::time::Duration;

use pyo3::exceptions::PyIndexError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use varia_interpreter::{GameResult, Limits, MoveKind, Searcher};

use crate::game::Game;

/// A legal move of the position it came from, with its UCI text and Varia's long notation.
#[pyclass(frozen, module = "varia")]
#[derive(Clone)]
pub struct Move {
    pub mv: varia_interpreter::Move,
    /// The text `varia uci` writes (`e2e4`, `e7e8q`, `P@e4`; long notation where coordinates
    /// cannot tell the move from another).
    #[pyo3(get)]
    pub uci: String,
    /// Varia's long notation (`e2-e4`, `Ng1-f3`).
    #[pyo3(get)]
    pub long: String,
    /// The cell the piece leaves (`None` for a drop, a square placed or the end of a turn).
    #[pyo3(get)]
    pub from_cell: Option<String>,
    /// The cell the move goes to (`None` for the end of a turn or a choice).
    #[pyo3(get)]
    pub to_cell: Option<String>,
}

#[pymethods]
impl Move {
    /// Whether the move captures.
    #[getter]
    fn is_capture(&self) -> bool {
        self.mv.is_capture() && self.mv.kind != MoveKind::Castle
    }

    /// Whether the move puts a piece from the hand on the board.
    #[getter]
    fn is_drop(&self) -> bool {
        self.mv.kind == MoveKind::Drop
    }

    /// What the move does: `move`, `castle`, `en passant`, `drop`, `square move`, `square
    /// carry`, `square placement`, `end turn` or `choice`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.mv.kind {
            MoveKind::Normal | MoveKind::Passage | MoveKind::Program => "move",
            MoveKind::EnPassant => "en passant",
            MoveKind::Castle => "castle",
            MoveKind::Drop => "drop",
            MoveKind::MoveSquare => "square move",
            MoveKind::CarrySquare => "square carry",
            MoveKind::PlaceSquare => "square placement",
            MoveKind::EndTurn => "end turn",
            MoveKind::Choose => "choice",
        }
    }

    fn __str__(&self) -> String {
        self.uci.clone()
    }

    fn __repr__(&self) -> String {
        format!("Move({:?})", self.uci)
    }

    /// Equal to the same move, or to its UCI text or long notation.
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        if let Ok(m) = other.cast::<Move>() {
            return m.get().mv == self.mv;
        }
        other.extract::<String>().is_ok_and(|s| s == self.uci || s == self.long)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.mv.hash(&mut h);
        h.finish()
    }
}

impl Move {
    /// A legal move of `pos` with its texts; `uci` is computed when not given.
    pub fn of(pos: &varia_interpreter::Position, mv: varia_interpreter::Move, uci: Option<String>) -> Move {
        let r = pos.rules();
        let name = |c: varia_interpreter::ir::CellId| Some(r.cell_name(c).to_string());
        let (from_cell, to_cell) = match mv.kind {
            MoveKind::Castle => {
                let c = &r.castling(mv.extra);
                (name(c.king_from), name(c.king_to))
            }
            MoveKind::Drop | MoveKind::PlaceSquare => (None, name(mv.to)),
            MoveKind::EndTurn | MoveKind::Choose => (None, None),
            _ => (name(mv.from), name(mv.to)),
        };
        let uci = uci.unwrap_or_else(|| varia::uci::uci_move(pos, mv));
        Move { mv, long: pos.long_notation(mv), uci, from_cell, to_cell }
    }
}

/// A position of a game: its state and the moves made on it (for `pop`).
#[pyclass(module = "varia")]
pub struct Position {
    game: Py<Game>,
    pub pos: varia_interpreter::Position,
    made: Vec<Move>,
}

impl Position {
    pub fn new(game: Py<Game>, pos: varia_interpreter::Position) -> Position {
        Position { game, pos, made: Vec::new() }
    }

    /// The legal moves with their UCI texts.
    fn table(&mut self) -> Vec<Move> {
        varia::uci::move_table(&mut self.pos).into_iter().map(|(mv, uci)| Move::of(&self.pos, mv, Some(uci))).collect()
    }

    /// The legal move a text names (UCI, or any notation Varia reads).
    fn find(&mut self, text: &str) -> Result<Move, String> {
        let mv = varia::uci::read_move(&mut self.pos, text)?;
        Ok(Move::of(&self.pos, mv, None))
    }

    /// Makes the move a text names.
    pub fn push_text(&mut self, text: &str) -> Result<(), String> {
        let m = self.find(text)?;
        self.pos.make(m.mv);
        self.made.push(m);
        Ok(())
    }

    /// The legal move `m` stands for: a `Move` of this position, or a text.
    fn resolve(&mut self, m: &Bound<'_, PyAny>) -> PyResult<Move> {
        if let Ok(m) = m.cast::<Move>() {
            let m = m.get().clone();
            let mut legal = Vec::new();
            self.pos.legal_moves(&mut legal);
            if !legal.contains(&m.mv) {
                return Err(crate::error(format!("error: {} is not a legal move here", m.uci)));
            }
            return Ok(m);
        }
        let text: String = m.extract()?;
        self.find(&text).map_err(|e| crate::error(format!("error: `{text}`: {e}")))
    }

    fn game_ref(&self) -> &Game {
        self.game.get()
    }
}

#[pymethods]
impl Position {
    /// The game this position belongs to.
    #[getter]
    fn game(&self, py: Python<'_>) -> Py<Game> {
        self.game.clone_ref(py)
    }

    /// The position string (FEN, extended as the game needs).
    #[getter]
    fn fen(&self) -> String {
        self.pos.to_position_string()
    }

    /// The player to move (0 moves first).
    #[getter]
    fn turn(&self) -> usize {
        self.pos.side_to_move().0 as usize
    }

    /// Which action of the turn comes next (0 for the first; games of several actions a turn).
    #[getter]
    fn action_index(&self) -> usize {
        self.pos.action_index()
    }

    /// Actions made since the start of the game.
    #[getter]
    fn ply(&self) -> usize {
        self.pos.ply()
    }

    /// The moves made on this object, oldest first.
    #[getter]
    fn move_stack(&self) -> Vec<Move> {
        self.made.clone()
    }

    /// The legal moves.
    fn legal_moves(&mut self) -> Vec<Move> {
        self.table()
    }

    /// The legal moves as UCI texts, as pyffish lists them.
    fn uci_moves(&mut self) -> Vec<String> {
        self.table().into_iter().map(|m| m.uci).collect()
    }

    /// The legal move a text names (UCI or any notation Varia reads).
    fn parse_move(&mut self, text: &str) -> PyResult<Move> {
        self.find(text).map_err(|e| crate::error(format!("error: `{text}`: {e}")))
    }

    /// Makes a move (a `Move` or a text); raises `VariaError` if it is not legal here.
    fn push(&mut self, m: &Bound<'_, PyAny>) -> PyResult<Move> {
        let m = self.resolve(m)?;
        self.pos.make(m.mv);
        self.made.push(m.clone());
        Ok(m)
    }

    /// Takes back the last move made on this object and returns it.
    fn pop(&mut self) -> PyResult<Move> {
        let m = self.made.pop().ok_or_else(|| PyIndexError::new_err("pop from a position with no move made"))?;
        self.pos.unmake();
        Ok(m)
    }

    /// A copy (moves made on it do not change this one).
    fn copy(&self, py: Python<'_>) -> Position {
        Position { game: self.game.clone_ref(py), pos: self.pos.clone(), made: self.made.clone() }
    }

    fn __copy__(&self, py: Python<'_>) -> Position {
        self.copy(py)
    }

    /// Whether the player to move has a royal piece under attack.
    fn is_check(&self) -> bool {
        self.pos.in_check()
    }

    /// Whether a move leaves the next player in check.
    fn gives_check(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        let m = self.resolve(m)?;
        self.pos.make(m.mv);
        let check = self.pos.in_check();
        self.pos.unmake();
        Ok(check)
    }

    /// Whether a move captures.
    fn is_capture(&mut self, m: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.resolve(m)?.is_capture())
    }

    /// A move in short notation (`Nf3`, `exd5`, `Qxf7#`), a check marked `+`, a checkmate `#`.
    fn san(&mut self, m: &Bound<'_, PyAny>) -> PyResult<String> {
        let m = self.resolve(m)?;
        let mut legal = Vec::new();
        self.pos.legal_moves(&mut legal);
        let text = self.pos.short_notation(m.mv, &legal);
        // A check is marked `+`, a checkmate `#`, as SAN writes them.
        self.pos.make(m.mv);
        let mark = match self.pos.outcome() {
            Some((_, varia_interpreter::EndReason::Checkmate)) => "#",
            _ if self.pos.in_check() => "+",
            _ => "",
        };
        self.pos.unmake();
        Ok(format!("{text}{mark}"))
    }

    /// The result if the game is over: (winner, reason), the winner `None` for a draw
    /// (`(0, "checkmate")`, `(None, "stalemate")`); `None` while the game goes on.
    fn result(&mut self) -> Option<(Option<usize>, &'static str)> {
        self.pos.outcome().map(|(r, why)| match r {
            GameResult::Win(p) => (Some(p.0 as usize), why.name()),
            GameResult::Draw => (None, why.name()),
        })
    }

    /// Whether the game is over.
    fn is_game_over(&mut self) -> bool {
        self.pos.outcome().is_some()
    }

    /// Counts the leaves of the legal move tree to `depth` actions (whole turns with `turns`).
    #[pyo3(signature = (depth, turns = false))]
    fn perft(&mut self, py: Python<'_>, depth: u32, turns: bool) -> PyResult<u64> {
        if depth > 64 {
            return Err(crate::error(format!("error: perft depth {depth} is above 64")));
        }
        let pos = &mut self.pos;
        py.detach(|| {
            if turns {
                varia_interpreter::perft_turns(pos, depth).map_err(|e| e.to_string())
            } else {
                Ok(varia_interpreter::perft(pos, depth))
            }
        })
        .map_err(crate::error)
    }

    /// Searches the position to a depth (in turns), for a time (seconds) or a number of nodes
    /// (depth 4 when none is given) and returns a dict: `best` (a `Move`, `None` when the game
    /// is over), `score` (centipawns for the player to move), `mate` (plies to mate, negative
    /// when being mated, else `None`), `depth`, `nodes`, `seconds` and `pv` (a list of moves).
    /// `weights` names an evaluation weights file (default: the one beside the rule file).
    #[pyo3(signature = (depth = None, time = None, nodes = None, weights = None, hash_mb = 16))]
    fn analyse<'py>(
        &self,
        py: Python<'py>,
        depth: Option<u32>,
        time: Option<f64>,
        nodes: Option<u64>,
        weights: Option<std::path::PathBuf>,
        hash_mb: usize,
    ) -> PyResult<Bound<'py, PyDict>> {
        if depth.is_some_and(|d| d == 0 || d > 100) {
            return Err(crate::error("error: depth must be from 1 to 100"));
        }
        if time.is_some_and(|t| !(t.is_finite() && t > 0.0 && t <= 86_400.0)) {
            return Err(crate::error("error: time must be a number of seconds above 0"));
        }
        let game = self.game_ref();
        let rules = game.rules.clone();
        let source = std::path::PathBuf::from(&game.source);
        let eval = varia::weights::evaluator(&rules, Some(&source), weights.as_deref()).map_err(crate::error)?;
        let limits = Limits { depth, time: time.map(Duration::from_secs_f64), nodes, ..Limits::default() };
        let mut pos = self.pos.clone();
        let info = py.detach(|| {
            let mut searcher = Searcher::with_evaluator(&rules, hash_mb.clamp(1, 4096), eval);
            searcher.search(&mut pos, limits, |_| {})
        });
        let mut line = self.pos.clone();
        let mut pv = Vec::new();
        for &mv in &info.pv {
            pv.push(Move::of(&line, mv, None));
            line.make(mv);
        }
        let d = PyDict::new(py);
        d.set_item("best", pv.first().cloned())?;
        d.set_item("score", info.score)?;
        d.set_item("mate", info.mate_in())?;
        d.set_item("depth", info.depth)?;
        d.set_item("nodes", info.nodes)?;
        d.set_item("seconds", info.elapsed.as_secs_f64())?;
        d.set_item("pv", pv)?;
        Ok(d)
    }

    /// The legal moves' action indices (see `Game.num_actions`), with the moves.
    fn legal_actions(&mut self) -> Vec<(usize, Move)> {
        let table = self.game.get().encoding.table(&mut self.pos);
        let texts: std::collections::HashMap<_, _> = varia::uci::move_table(&mut self.pos).into_iter().collect();
        table.into_iter().map(|(a, mv)| (a, Move::of(&self.pos, mv, texts.get(&mv).cloned()))).collect()
    }

    /// The legal-action mask: `Game.num_actions` bytes, 1 for each legal action.
    fn action_mask<'py>(&mut self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let enc = &self.game.get().encoding;
        let mut mask = vec![0u8; enc.size()];
        for (a, _) in enc.table(&mut self.pos) {
            mask[a] = 1;
        }
        PyBytes::new(py, &mask)
    }

    /// Makes the move of an action index; raises `VariaError` if no legal move has it.
    fn push_action(&mut self, action: usize) -> PyResult<Move> {
        let table = self.game.get().encoding.table(&mut self.pos);
        let Some(&(_, mv)) = table.iter().find(|(a, _)| *a == action) else {
            return Err(crate::error(format!("error: action {action} is not a legal move here")));
        };
        let m = Move::of(&self.pos, mv, None);
        self.pos.make(mv);
        self.made.push(m.clone());
        Ok(m)
    }

    /// The observation planes as float32 bytes, row by row, of shape `Game.observation_shape`.
    fn observation<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let values = self.game_ref().encoding.observation(&self.pos);
        let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_le_bytes()).collect();
        PyBytes::new(py, &bytes)
    }

    fn __str__(&self) -> String {
        self.fen()
    }

    fn __repr__(&self) -> String {
        format!("Position({:?})", self.fen())
    }
}
