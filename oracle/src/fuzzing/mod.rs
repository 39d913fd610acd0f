//! Fuzzing support shared by the cargo-fuzz targets (`fuzz/`), the corpus replay and property
//! tests (`tests/`), and `mtg-oracle promote`.
//!
//! - [`case`]: structure-aware generators — [`case::FuzzCase`] decodes fuzzer bytes into a valid
//!   game state around one search request;
//! - [`decide`]: random legal decision sequences read from the same bytes;
//! - [`check`]: invariant checkers (conservation, hidden information, quantity rules, public-zone
//!   completeness, shuffle bookkeeping, determinism, judge ⇔ enumerator);
//! - [`observe`]: arbitrary observed outcomes for the judge;
//! - [`targets`]: one function per fuzz target, so a target is one line of glue and every corpus
//!   file can be replayed by `cargo test` on stable;
//! - [`promote`]: a fuzz artifact → a readable regression scenario;
//! - [`generate`]: random small scenarios around one search (property tests, benchmarks);
//! - [`corrupt`]: single-step corruptions of an outcome (the judge must reject each one that
//!   leaves the legal set).

pub mod case;
pub mod check;
pub mod corrupt;
pub mod decide;
pub mod engine_diff;
pub mod generate;
pub mod observe;
pub mod promote;
pub mod targets;

use std::sync::OnceLock;

use crate::cards::CardPool;

/// A failed invariant: which check, and what happened.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckFailure {
    /// The checker's name (`conservation`, `hidden information`, `agreement`…).
    pub check: &'static str,
    /// What went wrong, in words.
    pub message: String,
}

impl std::fmt::Display for CheckFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} check failed: {}", self.check, self.message)
    }
}

impl std::error::Error for CheckFailure {}

/// The bundled card pool, loaded once per process (fuzz targets run millions of inputs).
pub fn pool() -> &'static CardPool {
    static POOL: OnceLock<CardPool> = OnceLock::new();
    POOL.get_or_init(|| match CardPool::bundled() {
        Ok(p) => p,
        // The bundled pool is compiled in and tested; failing to parse it is a build defect.
        Err(e) => panic!("the bundled card pool does not load: {e}"),
    })
}
