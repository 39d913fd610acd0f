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

/// The candidate most like `word` (case-insensitive Jaro-Winkler), if any is reasonably close:
/// the best score above 0.75, the last listed among equals.
///
/// The loader names the closest card for every unknown one, against the whole pool, and the
/// `scenario_yaml` fuzz target names unknown cards all the time: scoring every card was 9% of
/// its time (issue 13). A candidate is scored only when it could beat the best so far: Jaro
/// counts matching characters, which are at most the characters the two strings share, so
/// `jaro_winkler_bound` of that count bounds its score. The answer is the same.
pub fn closest<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    const THRESHOLD: f64 = 0.75;
    let lower = word.to_lowercase();
    let word_chars = CharCounts::of(&lower);
    let mut best: Option<(f64, &'a str)> = None;
    for candidate in candidates {
        let candidate_lower = candidate.to_lowercase();
        let counts = CharCounts::of(&candidate_lower);
        let bound = jaro_winkler_bound(word_chars.len, counts.len, word_chars.shared(&counts));
        if bound <= THRESHOLD || best.is_some_and(|(score, _)| bound < score) {
            continue;
        }
        let score = strsim::jaro_winkler(&lower, &candidate_lower);
        if score > THRESHOLD && best.is_none_or(|(best_score, _)| score >= best_score) {
            best = Some((score, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// How many of each character a string has: ASCII characters one by one, the others together
/// (which overcounts what two strings share, so a bound stays a bound).
struct CharCounts {
    ascii: [u32; 128],
    other: u32,
    len: usize,
}

impl CharCounts {
    fn of(text: &str) -> CharCounts {
        let mut counts = CharCounts { ascii: [0; 128], other: 0, len: 0 };
        for c in text.chars() {
            match usize::try_from(u32::from(c)).ok().filter(|&i| i < 128) {
                Some(i) => counts.ascii[i] += 1,
                None => counts.other += 1,
            }
            counts.len += 1;
        }
        counts
    }

    /// At most how many characters of the two strings can match: those they have in common,
    /// counted with repeats.
    fn shared(&self, other: &CharCounts) -> usize {
        let ascii: u32 = self.ascii.iter().zip(&other.ascii).map(|(a, b)| *a.min(b)).sum();
        (ascii + self.other.min(other.other)) as usize
    }
}

/// An upper bound of `strsim::jaro_winkler` of two strings of `a_len` and `b_len` characters of
/// which at most `shared` can match: every one of them a match, none transposed, the longest
/// prefix bonus (4 characters), and a margin for rounding.
fn jaro_winkler_bound(a_len: usize, b_len: usize, shared: usize) -> f64 {
    if a_len == 0 || b_len == 0 {
        return 1.0;
    }
    if shared == 0 {
        return 0.0;
    }
    let m = shared.min(a_len).min(b_len) as f64;
    let jaro = (m / a_len as f64 + m / b_len as f64 + 1.0) / 3.0;
    jaro + 0.4 * (1.0 - jaro) + 1e-9
}

#[cfg(test)]
mod tests {
    use super::{CardPool, closest};

    /// `closest` as it was written before it skipped candidates: every candidate scored.
    fn closest_scoring_all<'a>(word: &str, candidates: impl Iterator<Item = &'a str>) -> Option<&'a str> {
        let lower = word.to_lowercase();
        candidates
            .map(|c| (strsim::jaro_winkler(&lower, &c.to_lowercase()), c))
            .filter(|(score, _)| *score > 0.75)
            .max_by(|a, b| a.0.total_cmp(&b.0))
            .map(|(_, c)| c)
    }

    /// Skipping the candidates that can't win changes no answer: misspellings, prefixes, case,
    /// accents, repeated letters, nonsense and the empty word, against the whole bundled pool,
    /// the same candidate even among equal scores.
    #[test]
    fn closest_is_the_best_score_of_all() {
        let pool = CardPool::bundled().expect("the bundled pool");
        let names: Vec<&str> = pool.cards().map(|d| d.name.as_str()).collect();
        let mut words: Vec<String> = vec!["".into(), "x".into(), "zzzzzz".into(), "Lim-Dûl".into(), "ÆTHER".into()];
        for name in &names {
            let chars: Vec<char> = name.chars().collect();
            words.push(name.to_uppercase());
            words.push(chars.iter().skip(1).collect());
            words.push(chars.iter().rev().collect());
            words.push(chars.iter().take(chars.len() / 2).collect());
            words.push(chars.iter().map(|&c| if c == 'e' { 'a' } else { c }).collect());
            words.push(format!("{name}{name}"));
        }
        // Copies of the first names, listed after them, score the same: the copy must win.
        let copies: Vec<String> = names.iter().take(20).map(|n| n.to_string()).collect();
        let mut with_ties = names.clone();
        with_ties.extend(copies.iter().map(String::as_str));
        let mut found = 0;
        for word in &words {
            let want = closest_scoring_all(word, with_ties.iter().copied());
            let got = closest(word, with_ties.iter().copied());
            assert_eq!(got.map(str::as_ptr), want.map(str::as_ptr), "{word:?}: {got:?}, not {want:?}");
            found += usize::from(want.is_some());
        }
        assert!(found > words.len() / 2, "only {found} of {} words have a suggestion", words.len());
    }
}
