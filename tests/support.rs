//! Shared helpers for the integration tests.

use std::path::PathBuf;

use mtg_oracle::cards::CardPool;

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ has a parent").to_path_buf()
}

/// The bundled card pool.
pub fn pool() -> CardPool {
    CardPool::bundled().expect("the bundled card pool loads")
}

/// The `found` list of the first `searched` event of an outcome, for tests that corrupt it.
pub fn found_mut(o: &mut mtg_oracle::outcome::Outcome) -> &mut Vec<String> {
    o.events
        .iter_mut()
        .find_map(|e| match &mut e.event {
            mtg_oracle::outcome::Event::Searched { found, .. } => Some(found),
            _ => None,
        })
        .expect("the outcome has a searched event")
}
