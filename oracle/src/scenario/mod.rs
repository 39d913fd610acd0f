//! Loading scenarios: YAML → [`Scenario`] → a [`Setup`] the simulator can run. Every error names
//! file:line:column.

mod build;
mod error;
pub mod format;
pub mod locate;
mod read;

use std::collections::BTreeMap;
use std::path::Path;

use crate::cards::CardPool;
use crate::model::{FastMap, Game, ObjId, fast_map};
use crate::sim::Action;
use crate::sim::script::ScriptEntry;
use crate::yaml::{from_yaml, to_yaml};
use build::Builder;
use error::locate_error;
pub use error::{BuildError, LoadError};
use format::Scenario;
pub use read::{MAX_FILE_BYTES, MAX_YAML_DEPTH, NoSuchPath, ReadError, collect_files, read_source, too_deep};

/// A scenario ready to run.
#[derive(Debug, Clone)]
pub struct Setup {
    /// The initial game.
    pub game: Game,
    /// The steps, resolved.
    pub actions: Vec<Action>,
    /// The scripted decisions, resolved, in file order.
    pub script: Vec<ScriptEntry>,
    /// Card id → object.
    pub ids: BTreeMap<String, ObjId>,
    /// The game's objects by id, made the first time the judge compares a long library.
    pub(crate) id_index: IdIndex,
}

impl Setup {
    /// The initial game's objects by id, made on first use (the judge looks up each card of a long
    /// observed library in it: one hash lookup a card instead of an ordered map's dozen string
    /// comparisons).
    pub(crate) fn objects_by_id(&self) -> &ObjectsById {
        self.id_index.0.get_or_init(|| {
            let mut by_id = fast_map(self.game.objs.len());
            // Copies of the ids, made one after another so the lookups' comparisons read compact
            // memory: with the objects' own ids as keys, spread over the whole game, a 100 000-card
            // judgement took 19.5 ms against 16.2 ms (criterion, back to back).
            for (o, obj) in self.game.objs.iter().enumerate() {
                by_id.entry(Box::<str>::from(&*obj.id)).or_insert(o);
            }
            let ids = self.game.objs.iter().map(|obj| obj.id.clone()).collect();
            std::sync::Arc::new(ObjectsById { by_id, ids })
        })
    }
}

/// A game's objects by id ([`Setup::objects_by_id`]).
pub(crate) struct ObjectsById {
    by_id: FastMap<Box<str>, ObjId>,
    /// Each object's id when the index was made, by object: held, so that a game whose objects
    /// hold these very ids (compared by address, [`ObjectsById::describes`]) has these ids.
    ids: Vec<std::sync::Arc<str>>,
}

impl ObjectsById {
    /// The object whose id is `id`, if the game the index was made from has one (the first, if
    /// several have it).
    pub(crate) fn get(&self, id: &str) -> Option<ObjId> {
        self.by_id.get(id).copied()
    }

    /// Whether every object of the game the index was made from has the same id in `game`: true
    /// of a replay of the setup, which only adds objects. A cheap pass in object order, with no
    /// id read: ids are immutable and held here, so the same address is the same id.
    pub(crate) fn describes(&self, game: &crate::model::Game) -> bool {
        game.objs.len() >= self.ids.len()
            && self.ids.iter().zip(&game.objs).all(|(id, obj)| std::sync::Arc::ptr_eq(id, &obj.id))
    }
}

/// [`Setup::objects_by_id`]'s index, made once and shared by the setup's copies.
#[derive(Clone, Default)]
pub(crate) struct IdIndex(std::sync::OnceLock<std::sync::Arc<ObjectsById>>);

impl std::fmt::Debug for IdIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "IdIndex({})", if self.0.get().is_some() { "made" } else { "not made" })
    }
}

/// A loaded scenario.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// Its id: the path it was loaded from, as given.
    pub id: String,
    /// The parsed file.
    pub scenario: Scenario,
    /// The runnable setup.
    pub setup: Setup,
    /// The source text, kept to locate errors found while running. Empty for a scenario made in
    /// code ([`load_scenario`]): its YAML rendering is made only when an error needs a place.
    pub source: String,
}

impl Loaded {
    /// A located error about the node at `path` (dotted, e.g. `decisions[2]`).
    pub fn error_at(&self, path: &str, message: impl Into<String>) -> LoadError {
        if self.source.is_empty() {
            return locate_error(&self.id, &to_yaml(&self.scenario), path, message.into());
        }
        locate_error(&self.id, &self.source, path, message.into())
    }
}

/// Loads a scenario file (read by [`read_source`]).
pub fn load_file(path: &Path, pool: &CardPool) -> Result<Loaded, LoadError> {
    let id = path.display().to_string();
    let source =
        read_source(path).map_err(|e| LoadError { file: id.clone(), line: 1, column: 1, message: e.to_string() })?;
    load_str(&id, &source, pool)
}

/// Loads a scenario from text; `id` names it in errors.
pub fn load_str(id: &str, source: &str, pool: &CardPool) -> Result<Loaded, LoadError> {
    let source = source.strip_prefix('\u{feff}').unwrap_or(source);
    if let Some((line, column)) = too_deep(source, MAX_YAML_DEPTH) {
        return Err(LoadError {
            file: id.to_string(),
            line,
            column,
            message: format!("recursion limit exceeded: nested more than {MAX_YAML_DEPTH} levels deep; not parsed"),
        });
    }
    let located = |e: serde_yaml::Error| {
        let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
        // Drop the position serde_norway appends (it is in the `file:line:column` prefix) but
        // keep any other positions the message gives, such as where a bracket was opened.
        let message = e.to_string().replacen(&format!(" at line {line} column {column}"), "", 1);
        LoadError { file: id.to_string(), line, column, message }
    };
    if source.trim().is_empty() || source.lines().all(|l| l.trim().is_empty() || l.trim_start().starts_with('#')) {
        return Err(LoadError {
            file: id.to_string(),
            line: 1,
            column: 1,
            message: "the file is empty: a scenario needs at least title, rules, source, players, steps and expect"
                .into(),
        });
    }
    // Syntax errors are reported before schema errors: serde would otherwise report a field
    // missing from the part it could read. A document that deserializes has valid syntax, so the
    // untyped parse that finds the syntax error only runs when the typed one fails (parsing every
    // scenario twice was a sixth of `check`'s time).
    let scenario: Scenario = match from_yaml(source) {
        Ok(scenario) => scenario,
        Err(schema) => {
            serde_yaml::from_str::<serde_yaml::Value>(source).map_err(located)?;
            return Err(located(schema));
        }
    };
    let setup = Builder::new(&scenario, pool).build().map_err(|e| e.located(id, source))?;
    Ok(Loaded { id: id.to_string(), scenario, setup, source: source.to_string() })
}

/// Builds a scenario made in code (generators, tests, benchmarks). Errors are located in the
/// scenario's YAML rendering, which is made only for an error: rendering every generated scenario
/// was a sixth of the `engine_diff` fuzz target's time (it loads each scenario twice).
pub fn load_scenario(id: &str, scenario: Scenario, pool: &CardPool) -> Result<Loaded, LoadError> {
    let setup = Builder::new(&scenario, pool).build().map_err(|e| e.located(id, &to_yaml(&scenario)))?;
    Ok(Loaded { id: id.to_string(), scenario, setup, source: String::new() })
}

/// True for ids of objects a run creates: tokens (`clue-token-1`, CR 111) and copies of cards made
/// to be cast (`<card id>-copy-<n>`, CR 707.12).
pub fn is_run_time_id(setup: &Setup, id: &str) -> bool {
    if crate::rules::tokens::token_def_for_id(&setup.game, id).is_some() {
        return true;
    }
    id.rsplit_once("-copy-").is_some_and(|(of, n)| n.parse::<u32>().is_ok_and(|n| n > 0) && setup.ids.contains_key(of))
}
