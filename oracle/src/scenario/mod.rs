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
use crate::model::{Game, ObjId};
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
        self.id_index.0.get_or_init(|| std::sync::Arc::new(ObjectsById::new(&self.game)))
    }
}

/// A game's objects by id ([`Setup::objects_by_id`]): an open-addressing table (linear probing,
/// at most half full) of [`IndexSlot`]s, each 32 bits of an id's hash and where the id's record
/// starts; the records (an object's number, its id's length and the id) follow one another in
/// one buffer.
///
/// Made for the judge's lookup of every card of a long observed library. There the index is
/// larger than the processor's caches (100 000 cards: a 2 MB table and 2 MB of records), so each
/// lookup waits for memory; three choices keep that wait short:
/// - the index is small: 8 bytes a slot, and the records packed, so fewer lines are fetched;
/// - a lookup makes two dependent reads, the slot and then the record, which holds both the id
///   to compare and the object to answer (with the ids in one buffer and their ends in another,
///   the end was a third read: about 0.6 ms of a 100 000-card judgement, `perf record` of
///   `judge_once`);
/// - [`ObjectsById::all_found`] looks ids up in batches and reads ahead, first the slot of each
///   id of a batch, then the record the slot names, each read independent of the others, so the
///   processor waits for them together rather than one at a time.
///
/// With `std`'s map from boxed ids (three dependent reads a lookup: slot, box, text), a 100 000-card
/// judgement spent a third of its time on the lookups (`perf record` and `perf annotate` of
/// `judge_once`; docs/benchmarks.md has the figures).
pub(crate) struct ObjectsById {
    /// A power of two long; empty slots have `record == EMPTY`.
    slots: Vec<IndexSlot>,
    hasher: foldhash::fast::RandomState,
    /// The records, in object order, one per id (the first object that has it): the object's
    /// number (4 bytes, little-endian), the id's length (4 bytes, little-endian), then the id.
    records: Vec<u8>,
    /// Each object's id when the index was made, by object ([`ObjectsById::describes`]).
    ids: Vec<compact_str::CompactString>,
}

/// The `record` of an empty [`IndexSlot`].
const EMPTY: u32 = u32::MAX;

/// The bytes of a record before its id: the object's number and the id's length.
const RECORD_HEAD: usize = 8;

/// How many ids [`ObjectsById::all_found`] looks up together.
const BATCH: usize = 32;

/// One object of an [`ObjectsById`]: where its record starts and its id's hash's high half (the
/// low bits choose the slot), which settles nearly every comparison before the id is read.
#[derive(Clone, Copy)]
struct IndexSlot {
    record: u32,
    tag: u32,
}

impl ObjectsById {
    fn new(game: &Game) -> ObjectsById {
        let mut index = ObjectsById {
            slots: vec![IndexSlot { record: EMPTY, tag: 0 }; (2 * game.objs.len()).next_power_of_two()],
            hasher: foldhash::fast::RandomState::default(),
            records: Vec::with_capacity(game.objs.iter().map(|obj| RECORD_HEAD + obj.id.len()).sum()),
            ids: game.objs.iter().map(|obj| obj.id.clone()).collect(),
        };
        for (o, obj) in game.objs.iter().enumerate() {
            // A game too large for the records' numbers gets an index that finds nothing past
            // them, so the judge compares the long way; a scenario file (`MAX_FILE_BYTES`) can't
            // make one.
            let (Ok(number), Ok(len), Ok(record)) =
                (u32::try_from(o), u32::try_from(obj.id.len()), u32::try_from(index.records.len()))
            else {
                break;
            };
            if record == EMPTY {
                break;
            }
            let hash = index.hash(&obj.id);
            // The first object with an id keeps it, as `get` promises.
            if index.find(hash, obj.id.as_bytes()).is_none() {
                index.records.extend_from_slice(&number.to_le_bytes());
                index.records.extend_from_slice(&len.to_le_bytes());
                index.records.extend_from_slice(obj.id.as_bytes());
                let mut at = index.first_slot(hash);
                while index.slots[at].record != EMPTY {
                    at = (at + 1) & (index.slots.len() - 1);
                }
                index.slots[at] = IndexSlot { record, tag: tag_of(hash) };
            }
        }
        index
    }

    fn hash(&self, id: &str) -> u64 {
        std::hash::BuildHasher::hash_one(&self.hasher, id)
    }

    fn first_slot(&self, hash: u64) -> usize {
        // The length is a power of two, so this keeps the hash's low bits (foldhash mixes them).
        hash as usize & (self.slots.len() - 1)
    }

    /// The object and the id of the record starting at `record`.
    fn record(&self, record: u32) -> (ObjId, &[u8]) {
        let word = |at: usize| {
            let bytes = self.records.get(at..at + 4).and_then(|b| <[u8; 4]>::try_from(b).ok());
            bytes.map_or(0, u32::from_le_bytes) as usize
        };
        let start = record as usize;
        let (obj, len) = (word(start), word(start + 4));
        let id = self.records.get(start + RECORD_HEAD..start + RECORD_HEAD + len).unwrap_or_default();
        (obj, id)
    }

    /// The object whose id is `id` (its hash `hash`), probing from its first slot.
    fn find(&self, hash: u64, id: &[u8]) -> Option<ObjId> {
        let tag = tag_of(hash);
        let mut at = self.first_slot(hash);
        loop {
            let slot = self.slots[at];
            if slot.record == EMPTY {
                return None;
            }
            if slot.tag == tag {
                let (obj, slot_id) = self.record(slot.record);
                if slot_id == id {
                    return Some(obj);
                }
            }
            at = (at + 1) & (self.slots.len() - 1);
        }
    }

    /// The object whose id is `id`, if the game the index was made from has one (the first, if
    /// several have it).
    #[cfg(test)]
    pub(crate) fn get(&self, id: &str) -> Option<ObjId> {
        self.find(self.hash(id), id.as_bytes())
    }

    /// Looks up each of `ids` in turn (as `get` does) and hands the answer to `take`, stopping at
    /// the first `false` it returns; whether none did.
    pub(crate) fn all_found(&self, ids: &[String], mut take: impl FnMut(Option<ObjId>) -> bool) -> bool {
        let mut hashes = [0u64; BATCH];
        ids.chunks(BATCH).all(|batch| {
            let hashes = &mut hashes[..batch.len()];
            for (hash, id) in hashes.iter_mut().zip(batch) {
                *hash = self.hash(id);
            }
            // Read ahead: each first slot of the batch, then the start of the record it names.
            // The reads of one round don't wait on each other, so their trips to memory overlap,
            // and the lookups then find what they read in the cache. The folds only keep the
            // reads from being optimised away.
            let slots: u32 = hashes.iter().fold(0, |acc, &h| acc ^ self.slots[self.first_slot(h)].record);
            let records = hashes.iter().fold(0, |acc, &h| {
                let record = self.slots[self.first_slot(h)].record as usize;
                acc ^ self.records.get(record).copied().unwrap_or(0)
            });
            std::hint::black_box((slots, records));
            hashes.iter().zip(batch).all(|(&hash, id)| take(self.find(hash, id.as_bytes())))
        })
    }

    /// Whether every object of the game the index was made from has the same id in `game`: true
    /// of a replay of the setup, which only adds objects. A pass in object order, over ids that
    /// are mostly held inline in the objects.
    pub(crate) fn describes(&self, game: &crate::model::Game) -> bool {
        game.objs.len() >= self.ids.len() && self.ids.iter().zip(&game.objs).all(|(id, obj)| *id == obj.id)
    }
}

/// The half of an id's hash a slot keeps.
fn tag_of(hash: u64) -> u32 {
    (hash >> 32) as u32
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
    // A syntax error is reported before a schema error that a document cut short could cause:
    // serde_norway reads the events up to a syntax error and deserializes them, so a mapping the
    // error closed early is reported as missing a field. Only an untyped second reading finds
    // that later syntax error (serde_norway drops it when deserializing fails). A document that
    // deserializes has valid syntax, and an error that the node it is about settles by itself (see
    // `is_settled_by_its_node`) is a real error before any syntax error, so neither is read twice:
    // parsing every scenario twice was a sixth of `check`'s time, and half of what a malformed
    // document costs the `scenario_yaml` fuzz target.
    let scenario: Scenario = match from_yaml(source) {
        Ok(scenario) => scenario,
        Err(schema) if is_settled_by_its_node(&schema.to_string()) => return Err(located(schema)),
        Err(schema) => {
            serde_yaml::from_str::<serde_yaml::Value>(source).map_err(located)?;
            return Err(located(schema));
        }
    };
    let setup = Builder::new(&scenario, pool).build().map_err(|e| e.located(id, source))?;
    Ok(Loaded { id: id.to_string(), scenario, setup, source: source.to_string() })
}

/// True for a serde error that the node it is about settles by itself: a key or enum variant the
/// type doesn't have, or a value of the wrong type (a map where a string belongs: the node's first
/// event settles it) or form. The reader got to that node before any syntax error in the text
/// (serde_norway keeps no events past one), and nothing after the node can change the error, so
/// it is reported as it is. Every other error (a missing field, a wrong number of entries, a field
/// written twice, an error serde_norway raised at a syntax error, any message this doesn't know)
/// may come from the document being cut short, and [`load_str`] looks for a syntax error first.
/// `shown` is the error as displayed: its message may follow the path of the node (`steps[1]:
/// unknown variant ...`).
fn is_settled_by_its_node(shown: &str) -> bool {
    const SETTLED: [&str; 4] = ["unknown field `", "unknown variant `", "invalid type: ", "invalid value: "];
    let message = match shown.split_once(": ") {
        Some((path, rest)) if !SETTLED.iter().any(|start| shown.starts_with(start)) && !path.contains(' ') => rest,
        _ => shown,
    };
    SETTLED.iter().any(|start| message.starts_with(start))
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

#[cfg(test)]
mod load_error_order_tests {
    use super::is_settled_by_its_node;

    /// Errors their own node settles are told from those a cut-short document could cause,
    /// with or without the path serde_norway puts first.
    #[test]
    fn tells_errors_their_node_settles_from_the_others() {
        for settled in [
            "unknown field `playres`, expected one of `title`, `rules`",
            "steps[1]: unknown variant `resolv`, expected one of `cast`",
            "rules: invalid type: string \"701.23b\", expected a sequence",
            "players[0].life: invalid value: integer `-1`, expected u32",
        ] {
            assert!(is_settled_by_its_node(settled), "{settled}");
        }
        for other in [
            "missing field `title`",
            "source: missing field `reference`",
            "duplicate field `title`",
            "steps[0]: invalid length 2, expected map containing 1 entry",
            "did not find expected key at line 12 column 2, while parsing a block mapping at line 7 column 1",
            "a key with spaces: unknown field `x`",
        ] {
            assert!(!is_settled_by_its_node(other), "{other}");
        }
    }
}

#[cfg(test)]
mod index_tests {
    use super::*;

    fn game(size: usize) -> Game {
        let pool = CardPool::bundled().unwrap();
        let scenario = crate::fuzzing::generate::land_search_scenario(size, 3, None);
        load_scenario("index", scenario, &pool).unwrap().setup.game
    }

    /// Every object is found by its id, through `get` and through the batched `all_found` alike
    /// (5 000 ids, and one longer than usual); an id no object has, or one differing by a byte,
    /// finds nothing; and a slot whose hash matches still needs the id itself to match.
    #[test]
    fn finds_each_object_by_its_id_and_nothing_else() {
        let mut game = game(5000);
        let long = "a-card-with-an-id-much-longer-than-the-inline-bytes-of-a-slot";
        let mut extra = game.objs[0].clone();
        extra.id = long.into();
        game.objs.push(extra);
        let index = ObjectsById::new(&game);
        let ids: Vec<String> = game.objs.iter().map(|obj| obj.id.to_string()).collect();
        for (o, id) in ids.iter().enumerate() {
            assert_eq!(index.get(id), Some(o), "{id}");
        }
        let mut found = Vec::new();
        assert!(index.all_found(&ids, |o| {
            found.push(o);
            true
        }));
        assert_eq!(found, (0..ids.len()).map(Some).collect::<Vec<_>>());
        for absent in ["", "forest-5001", "forest-1 ", "Forest-7", &long[..long.len() - 1]] {
            assert_eq!(index.get(absent), None, "{absent:?}");
        }
        // Looked for with another id's hash (as if the two hashes collided), an id finds nothing:
        // the slot's hash bits are a shortcut, the id is what decides.
        assert_eq!(index.find(index.hash(&ids[3]), ids[4].as_bytes()), None);
        // `all_found` stops at the first `false`, in the middle of a batch.
        let mut asked = 0;
        assert!(!index.all_found(&ids, |_| {
            asked += 1;
            asked < 40
        }));
        assert_eq!(asked, 40);
    }

    /// Two objects with one id: the index names the first, as `get` promises (the judge then
    /// can't take both, so it compares the long way).
    #[test]
    fn the_first_object_keeps_a_shared_id() {
        let mut game = game(50);
        let copy = game.objs[7].clone();
        game.objs.push(copy);
        let index = ObjectsById::new(&game);
        assert_eq!(index.get(&game.objs[7].id), Some(7));
    }
}
