//! Level loading errors: each names the file, and the line and column (RON's own
//! position for syntax errors) or the offending unit.
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use std::path::PathBuf;
use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq)]
pub enum LevelError {
    #[error("{}: cannot read: {message}", path.display())]
    Io { path: PathBuf, message: String },
    #[error("{}:{line}:{col}: {message}", path.display())]
    Syntax { path: PathBuf, line: usize, col: usize, message: String },
    #[error(
        "{}:{line}:{col}: level version {found} is not one this fivefoot reads (it reads version {})",
        path.display(), crate::level::LEVEL_VERSION
    )]
    Version { path: PathBuf, line: usize, col: usize, found: u32 },
    #[error("{}: the map has no rows", path.display())]
    EmptyMap { path: PathBuf },
    #[error("{}:{line}:{col}: map row {row} has {found} squares, the first row has {expected}", path.display())]
    RaggedRow { path: PathBuf, line: usize, col: usize, row: usize, expected: usize, found: usize },
    #[error(
        "{}:{line}:{col}: unknown terrain character '{ch}' at ({x}, {y}) (known: '.' floor, '#' wall, '~' difficult, '=' low wall)",
        path.display()
    )]
    UnknownTerrain { path: PathBuf, line: usize, col: usize, ch: char, x: i32, y: i32 },
    #[error("{}: {count} units, at most {} are allowed", path.display(), crate::level::MAX_UNITS)]
    TooManyUnits { path: PathBuf, count: usize },
    #[error("{}:{line}:{col}: unit \"{unit}\": {problem}", path.display())]
    Unit { path: PathBuf, line: usize, col: usize, unit: String, problem: String },
}
