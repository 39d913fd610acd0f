//! The card pool: the bundled Oracle cards (`oracle/cards/pool.yaml`, compiled into the binary)
//! plus a scenario's inline hypothetical cards.

pub mod def;
pub mod instructions;
pub mod validate;

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use def::CardDef;
pub use validate::{DefError, validate_def};

/// The bundled card pool, as YAML.
pub const BUNDLED_POOL: &str = include_str!("../../cards/pool.yaml");

/// Cards by name.
#[derive(Debug, Clone, Default)]
pub struct CardPool {
    by_name: BTreeMap<String, Arc<CardDef>>,
}

impl CardPool {
    /// The bundled pool. Its YAML is read once per process, though several parts of the oracle
    /// ask for the pool (the rule on naming a card read it a second time in `check` and `serve`:
    /// 17 M instructions each); each call gets a copy, which shares the cards' definitions. Should
    /// the bundled YAML ever fail to read, each call reads it again for its error.
    pub fn bundled() -> Result<CardPool, PoolError> {
        static BUNDLED: std::sync::OnceLock<Option<CardPool>> = std::sync::OnceLock::new();
        if let Some(pool) = BUNDLED.get_or_init(|| CardPool::from_yaml(BUNDLED_POOL).ok()) {
            return Ok(pool.clone());
        }
        CardPool::from_yaml(BUNDLED_POOL)
            .map_err(|error| PoolError::InFile { file: "oracle/cards/pool.yaml", error: Box::new(error) })
    }

    /// A pool from a YAML list of card definitions, each checked as [`CardPool::insert`] does.
    pub fn from_yaml(source: &str) -> Result<CardPool, PoolError> {
        let defs: Vec<CardDef> = crate::yaml::from_yaml(source).map_err(PoolError::Yaml)?;
        let mut pool = CardPool::default();
        for def in defs {
            pool.insert(def)?;
        }
        Ok(pool)
    }

    /// Adds a definition after checking its structure ([`validate_def`]); a second card with the
    /// same name is an error.
    pub fn insert(&mut self, def: CardDef) -> Result<(), PoolError> {
        validate_def(&def).map_err(PoolError::Invalid)?;
        if self.by_name.contains_key(&def.name) {
            return Err(PoolError::DefinedTwice { name: def.name });
        }
        self.by_name.insert(def.name.clone(), Arc::new(def));
        Ok(())
    }

    /// The card with this exact name.
    pub fn get(&self, name: &str) -> Option<Arc<CardDef>> {
        self.by_name.get(name).cloned()
    }

    /// The closest known name, for "did you mean" hints.
    pub fn suggest(&self, name: &str) -> Option<&str> {
        closest(name, self.by_name.keys().map(String::as_str))
    }

    /// The token definitions (e.g. Clue, CR 111.10f), by name.
    pub fn token_defs(&self) -> BTreeMap<String, Arc<CardDef>> {
        self.by_name.iter().filter(|(_, d)| d.token).map(|(n, d)| (n.clone(), d.clone())).collect()
    }

    /// Every card, by name.
    pub fn cards(&self) -> impl Iterator<Item = &Arc<CardDef>> {
        self.by_name.values()
    }
}

/// Why a card pool can't be built.
#[derive(Debug)]
pub enum PoolError {
    /// The pool's YAML doesn't read as a list of card definitions.
    Yaml(serde_yaml::Error),
    /// Two definitions share a name.
    DefinedTwice {
        /// The name.
        name: String,
    },
    /// A definition fails a structural check.
    Invalid(DefError),
    /// An error in a named pool file.
    InFile {
        /// The file, as the message names it.
        file: &'static str,
        /// What is wrong in it.
        error: Box<PoolError>,
    },
}

impl fmt::Display for PoolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PoolError::Yaml(e) => write!(f, "{e}"),
            PoolError::DefinedTwice { name } => write!(f, "card `{name}` is defined twice"),
            PoolError::Invalid(e) => write!(f, "{e}"),
            PoolError::InFile { file, error } => write!(f, "{file}: {error}"),
        }
    }
}

impl std::error::Error for PoolError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PoolError::Yaml(e) => Some(e),
            PoolError::Invalid(e) => Some(e),
            PoolError::InFile { error, .. } => Some(error.as_ref()),
            PoolError::DefinedTwice { .. } => None,
        }
    }
}

/// The candidate most like `word` (case-insensitive Jaro-Winkler), if any is reasonably close.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
