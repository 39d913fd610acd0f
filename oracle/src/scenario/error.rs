//! The loader's errors: a [`LoadError`] names file:line:column, found from the dotted path of
//! the node at fault ([`locate`](super::locate)).

use std::fmt;

use super::locate::{YamlIndex, parse_path};

/// A located error in a scenario file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LoadError {
    /// The file (or scenario id).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.file, self.line, self.column, self.message)
    }
}

impl std::error::Error for LoadError {}

/// A located error about the node at `path` (dotted, e.g. `decisions[2]`) of `source`; an empty
/// path is the whole file.
pub(super) fn locate_error(file: &str, source: &str, path: &str, message: String) -> LoadError {
    let pos = YamlIndex::parse(source).map(|ix| ix.locate(&parse_path(path)));
    let (line, column) = pos.map_or((1, 1), |p| (p.line, p.column));
    let message = if path.is_empty() { message } else { format!("{path}: {message}") };
    LoadError { file: file.to_string(), line, column, message }
}
