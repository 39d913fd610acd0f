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

/// An error about one node of a scenario, found while building its setup or running its script
/// (`runner::script_problem`): the dotted path of the node at fault (e.g. `steps[2].cast.card`,
/// empty for the whole file) and what is wrong with it. The loader turns it into a [`LoadError`]
/// by locating the path in the source.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BuildError {
    /// The dotted path of the node at fault.
    pub path: String,
    /// What is wrong.
    pub message: String,
}

impl BuildError {
    /// An error about the node at `path`.
    pub fn new(path: String, message: String) -> Self {
        BuildError { path, message }
    }

    /// Located in `source`, the text of the scenario `file`.
    pub(super) fn located(self, file: &str, source: &str) -> LoadError {
        locate_error(file, source, &self.path, self.message)
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.path, self.message) }
    }
}

impl std::error::Error for BuildError {}

/// A located error about the node at `path` (dotted, e.g. `decisions[2]`) of `source`; an empty
/// path is the whole file.
pub(super) fn locate_error(file: &str, source: &str, path: &str, message: String) -> LoadError {
    let pos = YamlIndex::parse(source).map(|ix| ix.locate(&parse_path(path)));
    let (line, column) = pos.map_or((1, 1), |p| (p.line, p.column));
    let message = if path.is_empty() { message } else { format!("{path}: {message}") };
    LoadError { file: file.to_string(), line, column, message }
}
