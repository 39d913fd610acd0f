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

/// Asserts that `observed` is judged illegal, with `clause` named first (the root cause) and
/// every one of `words` somewhere in the differences.
#[track_caller]
pub fn assert_illegal_first(
    loaded: &mtg_oracle::scenario::Loaded,
    observed: &mtg_oracle::outcome::Outcome,
    clause: &str,
    words: &[&str],
) {
    match mtg_oracle::judge::judge(&loaded.setup, observed) {
        mtg_oracle::judge::Verdict::Illegal(diffs) => {
            assert_eq!(diffs[0].clause, clause, "main difference: {diffs:?}");
            let text = diffs.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            for w in words {
                assert!(text.contains(w), "verdict lacks {w:?}:\n{text}");
            }
        }
        other => panic!("expected Illegal({clause}), got {other:?}"),
    }
}

/// A fresh scratch folder in the system temp dir, named by `prefix`, this process and `name`.
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mtg-oracle-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The result of the scenario of `run` whose id contains `part`.
#[track_caller]
pub fn result_of<'a>(run: &'a mtg_oracle::check::CheckRun, part: &str) -> &'a mtg_oracle::check::ScenarioResult {
    run.scenarios.iter().find(|s| s.id.contains(part)).unwrap_or_else(|| panic!("no result for {part}"))
}

/// The bundled scenario files whose path contains `part`.
pub fn bundled_files(part: &str) -> Vec<PathBuf> {
    let all = mtg_oracle::scenario::collect_files(&[repo_root().join("scenarios")]).expect("scenarios/ exists");
    all.into_iter().filter(|f| f.display().to_string().contains(part)).collect()
}

/// `check` options for the library-level tests: scripted mode, no validation, no partition, no
/// baseline, the given engine, time limit and limits.
pub fn check_options(
    engine: mtg_oracle::check::engine::EngineCommand,
    timeout_ms: u64,
    limits: mtg_oracle::check::engine::Limits,
) -> mtg_oracle::check::CheckOptions {
    mtg_oracle::check::CheckOptions {
        engine,
        mode: mtg_oracle::protocol::Mode::Scripted,
        timeout: std::time::Duration::from_millis(timeout_ms),
        validate: false,
        partition: None,
        baseline: mtg_oracle::check::baseline::Baseline::default(),
        limits,
    }
}

/// Loads the bundled scenario `scenarios/<name>`.
#[track_caller]
pub fn load_bundled(name: &str) -> mtg_oracle::scenario::Loaded {
    let path = repo_root().join("scenarios").join(name);
    mtg_oracle::scenario::load_file(&path, &pool()).unwrap_or_else(|e| panic!("{e}"))
}

/// The object of the card with scenario id `id`.
#[track_caller]
pub fn obj_of(loaded: &mtg_oracle::scenario::Loaded, id: &str) -> mtg_oracle::model::ObjId {
    *loaded.setup.ids.get(id).unwrap_or_else(|| panic!("no card {id}"))
}

/// The seat of the player named `name`.
#[track_caller]
pub fn seat_of(loaded: &mtg_oracle::scenario::Loaded, name: &str) -> mtg_oracle::model::PlayerId {
    loaded.setup.game.players.iter().position(|p| p.name == name).unwrap_or_else(|| panic!("no player {name}"))
}

/// The scenario's one legal outcome (asserting there is exactly one).
#[track_caller]
pub fn the_legal_outcome(loaded: &mtg_oracle::scenario::Loaded) -> mtg_oracle::outcome::Outcome {
    let x = mtg_oracle::explore::explore(&loaded.setup, 10_000).expect("explores");
    assert_eq!(x.outcomes.len(), 1, "one legal outcome");
    x.outcomes.values().next().expect("one").outcome.clone()
}

/// Asserts that `observed` is judged illegal with some difference naming `clause` (not
/// necessarily first; see [`assert_illegal_first`] for the root cause).
#[track_caller]
pub fn assert_illegal(loaded: &mtg_oracle::scenario::Loaded, observed: &mtg_oracle::outcome::Outcome, clause: &str) {
    match mtg_oracle::judge::judge(&loaded.setup, observed) {
        mtg_oracle::judge::Verdict::Illegal(diffs) => {
            assert!(diffs.iter().any(|d| d.clause == clause), "expected a {clause} difference, got {diffs:?}")
        }
        other => panic!("expected Illegal({clause}), got {other:?}"),
    }
}
