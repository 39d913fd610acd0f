//! The card pool: the bundled Oracle cards (`oracle/cards/pool.yaml`, compiled into the binary)
//! plus a scenario's inline hypothetical cards.

pub mod def;
pub mod instructions;

use std::collections::BTreeMap;
use std::sync::Arc;

use def::CardDef;

/// The bundled card pool, as YAML.
pub const BUNDLED_POOL: &str = include_str!("../../cards/pool.yaml");

/// Cards by name.
#[derive(Debug, Clone, Default)]
pub struct CardPool {
    by_name: BTreeMap<String, Arc<CardDef>>,
}

impl CardPool {
    /// The bundled pool.
    pub fn bundled() -> Result<CardPool, String> {
        CardPool::from_yaml(BUNDLED_POOL).map_err(|e| format!("oracle/cards/pool.yaml: {e}"))
    }

    /// A pool from a YAML list of card definitions.
    pub fn from_yaml(source: &str) -> Result<CardPool, String> {
        let defs: Vec<CardDef> = crate::yaml::from_yaml(source).map_err(|e| e.to_string())?;
        let mut pool = CardPool::default();
        for def in defs {
            pool.insert(def)?;
        }
        Ok(pool)
    }

    /// Adds a definition; a second card with the same name is an error.
    pub fn insert(&mut self, def: CardDef) -> Result<(), String> {
        if self.by_name.contains_key(&def.name) {
            return Err(format!("card `{}` is defined twice", def.name));
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

/// The candidate most like `word` (case-insensitive Jaro-Winkler), if any is reasonably close.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let lower = word.to_lowercase();
    candidates
        .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
        .filter(|(score, _)| *score > 0.75)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, c)| c)
}
