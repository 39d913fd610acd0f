//! `reduce` with the mutants as the engines: every labelled mutant case of
//! `tests/diagnosis/mutants.json` (a scenario that catches the mutant) reduces to a scenario that
//! still catches it — the same clause named first — and is no larger (cards + steps + decisions)
//! than the catching scenario; and the drafted scenario passes `run`, with `never:` the mutant's
//! outcome wherever an assertion can say it.

use std::time::Duration;

use mtg_oracle::check::Status;
use mtg_oracle::mutants::Mutant;
use mtg_oracle::reduce::{Engine, ReduceOptions, ReferenceEngine, draft, in_process_options, reduce, size};
use mtg_oracle::scenario::load_str;
use mtg_oracle::serve::{Policy, ServeOptions};
use mtg_oracle_tests::{pool, repo_root};
use serde_json::Value;

/// Loads the scenario at `path` (relative to the repository) with the path itself as its id, as
/// `mtg-oracle mutants` gives it: the reference engine seeds with the id.
fn load_repo_scenario(path: &str, pool: &mtg_oracle::cards::CardPool) -> mtg_oracle::scenario::Loaded {
    let source = std::fs::read_to_string(repo_root().join(path)).expect("the scenario file");
    load_str(path, &source, pool).unwrap_or_else(|e| panic!("{path}: the scenario doesn't load: {e}"))
}

/// Each labelled mutant case: (scenario path, mutant, policy).
fn mutant_cases() -> Vec<(String, Mutant, Policy)> {
    let text = std::fs::read_to_string(repo_root().join("tests/diagnosis/mutants.json")).expect("mutants.json");
    let list: Vec<Value> = serde_json::from_str(&text).expect("a JSON list");
    list.iter()
        .map(|v| {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            let mutant = Mutant::from_name(&s("mutant").expect("mutant")).expect("a known mutant");
            let policy = if s("policy").as_deref() == Some("greedy") { Policy::Greedy } else { Policy::Minimal };
            (s("scenario").expect("scenario"), mutant, policy)
        })
        .collect()
}

#[test]
fn every_mutant_catching_scenario_reduces_to_one_that_still_catches_it() {
    let pool = pool();
    let check = in_process_options();
    let opts = ReduceOptions { seed: 7, time_limit: Duration::from_secs(60), max_candidates: 600 };
    let cases = mutant_cases();
    let mut mutants_reduced = std::collections::BTreeSet::new();
    let (mut smaller, mut with_never) = (0, 0);
    for (path, mutant, policy) in &cases {
        let loaded = load_repo_scenario(path, &pool);
        let serve = ServeOptions { seed: 0, policy: *policy, mutant: Some(*mutant) };
        let mut engine = ReferenceEngine::new(&check, serve, &pool);
        let r = reduce(&loaded, &mut engine, &pool, opts, |_| {}).unwrap_or_else(|e| panic!("{path} ({mutant}): {e}"));
        let reduced = mtg_oracle::scenario::load_scenario(path, r.reduced.clone(), &pool)
            .unwrap_or_else(|e| panic!("{path} ({mutant}): the reduced scenario doesn't load: {e}"));
        let again = engine.probe(reduced);
        assert_eq!(again.status, Status::Fail, "{path} ({mutant}): the reduced scenario no longer catches it");
        assert_eq!(again.clause.as_deref(), Some(r.clause.as_str()), "{path} ({mutant}): another clause");
        let (before, after) = (size(&loaded.scenario), size(&r.reduced));
        assert!(after <= before, "{path} ({mutant}): size {before} → {after}");
        smaller += usize::from(after < before);
        let drafted = draft::draft(&r, &pool).unwrap_or_else(|e| panic!("{path} ({mutant}): {e}"));
        assert_eq!(drafted.run_failure, None, "{path} ({mutant}): `run` fails on the drafted scenario");
        assert!(drafted.yaml.contains("kind: engine-bug"), "{path}: {}", drafted.yaml);
        // A bug seen only in the options offered leaves a legal outcome: nothing for `never:`.
        if !mutant.only_in_offers() {
            with_never += usize::from(drafted.never > 0);
        }
        mutants_reduced.insert(*mutant);
    }
    assert_eq!(mutants_reduced.len(), Mutant::ALL.len() - missing_from_corpus(&cases).len());
    assert!(smaller * 2 > cases.len(), "only {smaller} of {} cases got smaller", cases.len());
    let outcome_cases = cases.iter().filter(|(_, m, _)| !m.only_in_offers()).count();
    assert!(with_never * 4 >= outcome_cases * 3, "`never:` drafted for only {with_never} of {outcome_cases} cases");
}

/// Mutants with no labelled case (none today; the diagnosis test requires one per mutant).
fn missing_from_corpus(cases: &[(String, Mutant, Policy)]) -> Vec<Mutant> {
    Mutant::ALL.into_iter().filter(|m| !cases.iter().any(|(_, c, _)| c == m)).collect()
}

#[test]
fn the_same_seed_gives_the_same_reduction() {
    let pool = pool();
    let check = in_process_options();
    let path = "scenarios/701.23-search/701.23b-splinter-howling-mine-cr-example.yaml";
    let loaded = load_repo_scenario(path, &pool);
    let serve = ServeOptions { seed: 0, policy: Policy::Minimal, mutant: Some(Mutant::PublicCopiesOptional) };
    let run = |seed| {
        let mut engine = ReferenceEngine::new(&check, serve, &pool);
        let opts = ReduceOptions { seed, ..ReduceOptions::default() };
        reduce(&loaded, &mut engine, &pool, opts, |_| {}).expect("reduces").reduced
    };
    assert_eq!(run(3), run(3));
}

#[test]
fn a_scenario_the_engine_passes_is_not_reduced() {
    let pool = pool();
    let check = in_process_options();
    let path = "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml";
    let loaded = load_repo_scenario(path, &pool);
    let mut engine = ReferenceEngine::new(&check, ServeOptions::default(), &pool);
    let err =
        reduce(&loaded, &mut engine, &pool, ReduceOptions::default(), |_| {}).expect_err("PASS: nothing to reduce");
    assert_eq!(err.status, Status::Pass);
}

#[test]
fn the_limits_bound_the_search() {
    let pool = pool();
    let check = in_process_options();
    let path = "scenarios/701.23-search/701.23b-splinter-howling-mine-cr-example.yaml";
    let loaded = load_repo_scenario(path, &pool);
    let serve = ServeOptions { seed: 0, policy: Policy::Minimal, mutant: Some(Mutant::PublicCopiesOptional) };
    let mut engine = ReferenceEngine::new(&check, serve, &pool);
    let opts = ReduceOptions { seed: 0, time_limit: Duration::from_secs(60), max_candidates: 1 };
    let r = reduce(&loaded, &mut engine, &pool, opts, |_| {}).expect("reduces");
    assert!(r.tried <= 1);
    assert_eq!(r.stop, mtg_oracle::reduce::Stop::CandidateLimit);
    let opts = ReduceOptions { seed: 0, time_limit: Duration::ZERO, max_candidates: 100 };
    let r = reduce(&loaded, &mut engine, &pool, opts, |_| {}).expect("reduces");
    assert_eq!((r.tried, r.stop), (0, mtg_oracle::reduce::Stop::TimeLimit));
}
