//! The expected-failure baseline of an engine: a YAML file mapping scenario ids to the status the
//! engine is known to get, why, and a link to the engine's bug.
//!
//! ```yaml
//! engine: my-engine            # informational
//! expected:
//!   scenarios/701.23-search/701.23f-mindcensor-own-search-unlimited.yaml:
//!     status: FAIL
//!     reason: Mindcensor limits its controller too
//!     link: https://example.org/my-engine/issues/12
//! ```
//!
//! The gate fails on an unexpected failure (a scenario not PASS whose status the baseline doesn't
//! name) and on an unexpected pass (a scenario the baseline expects to fail that passes), so the
//! baseline can't silently go stale. UNSUPPORTED is a declared limitation, not a failure: it
//! needs no entry, but an entry saying UNSUPPORTED must still hold.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{CheckRun, Status};

/// One expected result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    /// The status the engine is known to get.
    pub status: Status,
    /// Why, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A link to the engine's bug.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
}

/// A baseline file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct Baseline {
    /// The engine it is for (informational).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
    /// Scenario id → expected result.
    #[serde(default)]
    pub expected: BTreeMap<String, Expected>,
}

/// How a result stands against the baseline.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Gate {
    /// As expected: a pass with no entry, an UNSUPPORTED with no entry, or the status the entry names.
    Expected,
    /// A known failure: the baseline names this status.
    KnownFailure,
    /// Not PASS, and the baseline doesn't expect this.
    UnexpectedFailure,
    /// PASS, but the baseline expects it to fail.
    UnexpectedPass,
}

impl Baseline {
    /// Reads a baseline file; a missing file is an empty baseline.
    pub fn load(path: &Path) -> Result<Baseline, BaselineError> {
        if std::fs::symlink_metadata(path).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            return Ok(Baseline::default());
        }
        let file = path.display().to_string();
        let text = crate::scenario::read_source(path)
            .map_err(|e| BaselineError::Unreadable { file: file.clone(), error: e.to_string() })?;
        if text.trim().is_empty() {
            return Ok(Baseline::default());
        }
        let depth = crate::scenario::MAX_YAML_DEPTH;
        if let Some((line, column)) = crate::scenario::too_deep(&text, depth) {
            return Err(BaselineError::TooDeep { file, line, column, depth });
        }
        serde_yaml::from_str(&text).map_err(|e| BaselineError::Malformed {
            file,
            at: e.location().map(|l| (l.line(), l.column())),
            error: e.to_string(),
        })
    }

    /// How `status` for scenario `id` stands.
    pub fn gate(&self, id: &str, status: Status) -> Gate {
        match (status, self.expected.get(id)) {
            (Status::Invalid, _) => Gate::UnexpectedFailure,
            (Status::Pass, None) => Gate::Expected,
            (Status::Pass, Some(e)) if e.status == Status::Pass => Gate::Expected,
            (Status::Pass, Some(_)) => Gate::UnexpectedPass,
            (Status::Unsupported, None) => Gate::Expected,
            (s, Some(e)) if e.status == s => {
                if s == Status::Unsupported {
                    Gate::Expected
                } else {
                    Gate::KnownFailure
                }
            }
            _ => Gate::UnexpectedFailure,
        }
    }

    /// The baseline that records `run`: every result but PASS and INVALID, keeping the reason
    /// and link of entries whose status didn't change, and the entries of scenarios that didn't
    /// run (another partition's).
    pub fn updated(&self, run: &CheckRun) -> Baseline {
        let mut expected = self.expected.clone();
        for r in &run.scenarios {
            match r.status {
                Status::Pass | Status::Invalid => {
                    expected.remove(&r.id);
                }
                status => {
                    let kept = self.expected.get(&r.id).filter(|e| e.status == status);
                    let entry = match kept {
                        Some(e) => e.clone(),
                        None => Expected {
                            status,
                            reason: Some(r.message.lines().next().unwrap_or_default().chars().take(200).collect()),
                            link: r.link.clone(),
                        },
                    };
                    expected.insert(r.id.clone(), entry);
                }
            }
        }
        let engine = run.engine.as_ref().map(|e| e.name.clone()).or_else(|| self.engine.clone());
        Baseline { engine, expected }
    }

    /// The baseline as YAML, with a header comment.
    pub fn to_yaml(&self) -> String {
        let body = serde_yaml::to_string(self).unwrap_or_default();
        format!(
            "# mtg-oracle check baseline: scenario id → the status this engine is known to get.\n\
             # Written by `mtg-oracle check --update-baseline`; edit `reason` and `link` freely.\n{body}"
        )
    }
}

/// Why a baseline file can't be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BaselineError {
    /// The file can't be read (not a regular file, too big, not UTF-8, an I/O error).
    Unreadable {
        /// The file, as given.
        file: String,
        /// Why, in words.
        error: String,
    },
    /// The YAML nests deeper than the loader parses.
    TooDeep {
        /// The file, as given.
        file: String,
        /// Where it gets too deep (1-based).
        line: usize,
        /// The column there (1-based).
        column: usize,
        /// The deepest nesting parsed.
        depth: usize,
    },
    /// The YAML is not a baseline.
    Malformed {
        /// The file, as given.
        file: String,
        /// The line and column of the mistake, when the parser knows it.
        at: Option<(usize, usize)>,
        /// What is wrong, in the parser's words.
        error: String,
    },
}

impl std::fmt::Display for BaselineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BaselineError::Unreadable { file, error } => write!(f, "{file}: {error}"),
            BaselineError::TooDeep { file, line, column, depth } => {
                write!(f, "{file}:{line}:{column}: nested more than {depth} levels deep; not parsed")
            }
            BaselineError::Malformed { file, at, error } => match at {
                Some((line, column)) => write!(f, "{file}:{line}:{column}: {error}"),
                None => write!(f, "{file}: {error}"),
            },
        }
    }
}

impl std::error::Error for BaselineError {}
