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
