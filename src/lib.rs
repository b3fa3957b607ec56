//! The `varia` library: rule files loaded with located errors, evaluation weights, engine games and studies with their reports, and UCI move text, shared by the command line and the Python module.

pub mod clock;
pub mod files;
pub mod games;
pub mod ini;
pub mod input;
pub mod load;
pub mod report;
pub mod study;
pub mod uci;
pub mod weights;
