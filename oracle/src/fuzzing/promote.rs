//! From a fuzz finding to a regression scenario (`mtg-oracle promote ARTIFACT`).
//!
//! The artifact is decoded exactly as its target decodes it. For the generator targets, a case
//! that still fails is first shrunk — cards, permanents, players and options removed one at a
//! time while the same check still fails — so the scenario shows only what matters. The
//! scenario's `expect:` is then what the oracle says is legal: the number of legal outcomes,
//! where each card that moves always ends up (or, where the choice is open, the places it can
//! end up), and how many searches, shuffles, reveals and triggers happen. Finally it is run
//! exactly as `mtg-oracle run` runs it, so a promoted scenario is known to pass at the time it
//! is written; promoted before the fix, it records the oracle's behaviour then, and promote
//! says so — promote again after the fix to record the corrected behaviour.
//!
//! [`scenario_with_expectations`] takes any scenario, so a failing engine `check` case (a
//! scenario and the engine's answer) can be promoted through it too once the protocol exists.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use crate::explore::{Exploration, explore};
use crate::model::ZoneRef;
use crate::outcome::Event;
use crate::runner::{RunResult, run_loaded};
use crate::scenario::format::{Assertion, Expectations, Scenario, Source, SourceKind};
use crate::scenario::{LoadError, load_scenario, load_str};
use crate::sim::SimError;
use crate::yaml::to_yaml;

use super::case::{FuzzCase, QualityKind, Searchers, Whose};
use super::decide::scripted_from_run;
use super::targets::{Target, case_from_fuzz_input};
use super::{CheckFailure, pool};

/// Most simulator runs spent enumerating a promoted scenario.
const PROMOTE_RUN_LIMIT: usize = 20_000;
/// Most checks spent shrinking a failing case.
const SHRINK_BUDGET: usize = 400;

/// A promoted scenario.
#[derive(Debug, Clone)]
pub struct Promoted {
    /// File name under `scenarios/regressions/`: `fuzz-<target>-<hash>.yaml`.
    pub file_name: String,
    /// The scenario file's text.
    pub yaml: String,
    /// The failure the artifact reproduces now, if it still does.
    pub failure: Option<String>,
    /// How many legal outcomes the scenario has.
    pub outcomes: usize,
    /// Why `mtg-oracle run` fails on the scenario, if it does (the bug it reproduces).
    pub run_failure: Option<String>,
}

/// Why an artifact or a scenario can't be promoted.
#[derive(Debug)]
pub enum PromoteError {
    /// A `scenario_yaml` artifact that doesn't load.
    ArtifactNotLoadable(LoadError),
    /// Too few bytes to decode a case from.
    TooShort,
    /// The decoded scenario doesn't load.
    NotLoadable(LoadError),
    /// The scenario has too many outcomes to enumerate (the simulator's message).
    TooLarge(String),
    /// The scenario can't be run.
    CantRun(SimError),
    /// The run the fuzzer took can't be replayed to script its decisions.
    Unscriptable(SimError),
    /// The promoted scenario, rendered, doesn't load back.
    ReloadFails(LoadError),
    /// The promoted scenario loads but `run` finds it invalid.
    NotValid(LoadError),
}

impl fmt::Display for PromoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PromoteError::ArtifactNotLoadable(e) => write!(
                f,
                "the artifact is not a loadable scenario ({e}); a loader finding belongs in tests/invalid/, not in scenarios/"
            ),
            PromoteError::TooShort => f.write_str("the artifact is too short to decode a case"),
            PromoteError::NotLoadable(e) => write!(f, "{e}"),
            PromoteError::TooLarge(m) => {
                write!(f, "too large to enumerate ({m}); shrink the artifact with `cargo fuzz tmin` first")
            }
            // The simulator's error has no user-facing rendering of its own (`Display`) yet; the
            // text is kept as it was until it does.
            PromoteError::CantRun(e) => write!(f, "the scenario can't be run: {e}"),
            PromoteError::Unscriptable(e) => write!(f, "{e}"),
            PromoteError::ReloadFails(e) => write!(f, "the promoted scenario doesn't load: {e}"),
            PromoteError::NotValid(e) => write!(
                f,
                "the promoted scenario is not valid: {e} — the oracle refuses a scenario it wrote itself (a scripted \
                 decision, or the first legal answer it takes at an open decision, breaks a rule it checks): an \
                 oracle bug to report with the artifact; nothing was written"
            ),
        }
    }
}

impl std::error::Error for PromoteError {}

/// The target an artifact belongs to, from its path: `fuzz/artifacts/<target>/…` or
/// `corpus/<target>/…`.
pub fn target_from_path(path: &Path) -> Option<Target> {
    path.parent().and_then(|d| d.file_name()).and_then(|n| n.to_str()).and_then(Target::from_name)
}

/// FNV-1a, 64 bits: a stable short name for an artifact's bytes.
pub fn content_hash(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

/// What a check does on an input: passes, fails a named check, or panics.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Pass,
    Fail(&'static str, String),
    Panic(String),
}

impl Outcome {
    fn same_kind(&self, other: &Outcome) -> bool {
        match (self, other) {
            (Outcome::Fail(a, _), Outcome::Fail(b, _)) => a == b,
            (Outcome::Panic(_), Outcome::Panic(_)) => true,
            _ => false,
        }
    }

    /// The failure in one line of at most 400 characters (messages may carry whole outcomes).
    fn describe(&self) -> Option<String> {
        let text = match self {
            Outcome::Pass => return None,
            Outcome::Fail(check, m) => format!("{check} check failed: {m}"),
            Outcome::Panic(m) => format!("panic: {m}"),
        };
        let line = text.lines().next().unwrap_or_default();
        Some(if line.chars().count() > 400 {
            format!("{}…", line.chars().take(400).collect::<String>())
        } else {
            line.to_string()
        })
    }
}

fn quietly(f: impl FnOnce() -> Result<(), CheckFailure>) -> Outcome {
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = catch_unwind(AssertUnwindSafe(f));
    std::panic::set_hook(hook);
    match result {
        Ok(Ok(())) => Outcome::Pass,
        Ok(Err(e)) => Outcome::Fail(e.check, e.message),
        Err(payload) => Outcome::Panic(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic without a message".into()),
        ),
    }
}

/// Shrinks a failing case while the same kind of failure remains.
fn shrink(target: Target, mut case: FuzzCase, rest: &[u8], failure: &Outcome) -> FuzzCase {
    let mut budget = SHRINK_BUDGET;
    'outer: loop {
        for smaller in case.smaller() {
            if budget == 0 {
                break 'outer;
            }
            budget -= 1;
            let got = quietly(|| target.check_case(smaller.clone(), rest).unwrap_or(Ok(())));
            if got.same_kind(failure) {
                case = smaller;
                continue 'outer;
            }
        }
        break;
    }
    case
}

fn rules_of(case: &FuzzCase) -> Vec<String> {
    let specs = case.specs();
    let mut rules = vec!["701.23a"];
    let s = &specs[0];
    if s.filter.as_ref().is_some_and(|f| !f.is_quantity_only()) {
        rules.push("701.23b");
    } else {
        rules.push("701.23d");
    }
    if matches!(case.search.quality, QualityKind::SameNameAsChosen | QualityKind::SameNameAsTarget) {
        rules.push("701.23c");
    }
    if specs.iter().any(|s| s.reveal) {
        rules.push("701.23e");
    }
    if !case.censors.is_empty() {
        rules.push("701.23f");
    }
    if specs.len() > 1 {
        rules.push("701.23h");
    }
    if case.search.searchers != Searchers::You {
        rules.push("701.23i");
    }
    if s.zones.contains(&crate::cards::instructions::SearchZone::Outside) {
        rules.push("701.23j");
    }
    if specs.iter().any(|s| s.shuffle) {
        rules.push("701.24a");
    }
    if specs.iter().any(|s| s.to == crate::cards::instructions::Destination::LibraryTop) {
        rules.push("701.24b");
    }
    if case.ob_nixilis.is_some() || case.cosi.is_some() {
        rules.push("603.3b");
    }
    if case.hosers.stranglehold.is_some() {
        rules.push("101.2");
    }
    if !case.hosers.opposition_agents.is_empty() {
        rules.push("723.5");
    }
    if case.search.whose != Whose::Own || case.search.searchers != Searchers::You {
        rules.push("101.4");
    }
    rules.into_iter().map(String::from).collect()
}

/// Expectations that say what the oracle finds legal, readably: the exact number of outcomes;
/// each moved card's final zone when it is always the same, and its possible zones when it
/// isn't; searches (with their 701.23f limit), shuffles, reveals and triggers per player when
/// their number doesn't vary.
pub fn expectations_from(scenario: &Scenario, x: &Exploration, start: &BTreeMap<String, String>) -> Expectations {
    let outcomes: Vec<&crate::outcome::Outcome> = x.outcomes.values().map(|l| &l.outcome).collect();
    let zone_of = |o: &crate::outcome::Outcome, card: &str| -> Option<String> {
        o.zones.iter().find(|(_, cs)| cs.iter().any(|c| c == card)).map(|(z, _)| z.clone())
    };
    let mut always = Vec::new();
    let mut sometimes = Vec::new();
    for (card, from) in start {
        let zones: BTreeSet<Option<String>> = outcomes.iter().map(|o| zone_of(o, card)).collect();
        let zones: Vec<String> = zones.into_iter().flatten().collect();
        match zones.as_slice() {
            [only] if only != from => always.push(Assertion::Zone { card: card.clone(), zone: only.clone() }),
            [_] | [] => {}
            many => {
                if sometimes.len() < 12 {
                    sometimes.extend(many.iter().map(|z| Assertion::Zone { card: card.clone(), zone: z.clone() }));
                }
            }
        }
    }
    always.truncate(16);
    sometimes.truncate(12);
    let players: Vec<String> = scenario.players.iter().map(|p| p.name.clone()).collect();
    let constant = |f: &dyn Fn(&crate::outcome::Outcome) -> usize| -> Option<usize> {
        let counts: BTreeSet<usize> = outcomes.iter().map(|o| f(o)).collect();
        (counts.len() == 1).then(|| counts.into_iter().next().unwrap_or(0))
    };
    for p in &players {
        let searches = |o: &crate::outcome::Outcome| {
            o.events.iter().filter(|e| matches!(&e.event, Event::Searched { player, .. } if player == p)).count()
        };
        // Players who never search nor shuffle are left out: zero is the obvious count there.
        if let Some(count) = constant(&searches).filter(|&n| n > 0) {
            always.push(Assertion::Events {
                kind: "searched".into(),
                player: Some(p.clone()),
                controller: None,
                card: None,
                zone: None,
                library_top: None,
                count,
            });
        }
        let capped: BTreeSet<u32> = outcomes
            .iter()
            .flat_map(|o| o.events.iter())
            .filter_map(|e| match &e.event {
                Event::Searched { player, library_top: Some(n), .. } if player == p => Some(*n),
                _ => None,
            })
            .collect();
        for n in capped {
            let with_cap = |o: &crate::outcome::Outcome| {
                o.events
                    .iter()
                    .filter(|e| matches!(&e.event, Event::Searched { player, library_top: Some(m), .. } if player == p && *m == n))
                    .count()
            };
            if let Some(count) = constant(&with_cap) {
                always.push(Assertion::Events {
                    kind: "searched".into(),
                    player: Some(p.clone()),
                    controller: None,
                    card: None,
                    zone: None,
                    library_top: Some(n),
                    count,
                });
            }
        }
        let shuffles = |o: &crate::outcome::Outcome| {
            o.events.iter().filter(|e| matches!(&e.event, Event::Shuffled { library } if library == p)).count()
        };
        if let Some(count) = constant(&shuffles).filter(|&n| n > 0) {
            always.push(Assertion::Events {
                kind: "shuffled".into(),
                player: Some(p.clone()),
                controller: None,
                card: None,
                zone: None,
                library_top: None,
                count,
            });
        }
    }
    for kind in ["revealed", "triggered"] {
        if let Some(count) = constant(&|o| o.events.iter().filter(|e| e.event.kind() == kind).count()) {
            always.push(Assertion::Events {
                kind: kind.into(),
                player: None,
                controller: None,
                card: None,
                zone: None,
                library_top: None,
                count,
            });
        }
    }
    Expectations { outcomes: Some(outcomes.len()), always, sometimes, never: Vec::new(), final_zones: None }
}

/// Fills a scenario's `expect:` from its legal outcomes, and runs it as `mtg-oracle run` does:
/// returns the scenario, its number of legal outcomes, and why `run` fails on it if it does (an
/// oracle bug the scenario reproduces, such as the judge rejecting an enumerated outcome).
/// Errors say why it can't be promoted at all.
pub fn scenario_with_expectations(mut scenario: Scenario) -> Result<(Scenario, usize, Option<String>), PromoteError> {
    let loaded = load_scenario("promoted", scenario.clone(), pool()).map_err(PromoteError::NotLoadable)?;
    let x = explore(&loaded.setup, PROMOTE_RUN_LIMIT).map_err(|e| match e {
        SimError::TooLarge(m) => PromoteError::TooLarge(m),
        other => PromoteError::CantRun(other),
    })?;
    let names = loaded.setup.game.names();
    let start: BTreeMap<String, String> = loaded
        .setup
        .ids
        .iter()
        .map(|(id, &o)| (id.clone(), loaded.setup.game.obj(o).zone))
        .filter(|(_, z)| *z != ZoneRef::Stack)
        .map(|(id, z)| (id, z.display(&names)))
        .collect();
    scenario.expect = expectations_from(&scenario, &x, &start);
    let n = x.outcomes.len();
    let text = to_yaml(&scenario);
    let reloaded = load_str("promoted", &text, pool()).map_err(PromoteError::ReloadFails)?;
    match run_loaded(reloaded) {
        RunResult::Pass { .. } => Ok((scenario, n, None)),
        RunResult::Fail { failures, .. } => {
            Ok((scenario, n, Some(failures.iter().map(|f| f.to_string()).collect::<Vec<_>>().join("; "))))
        }
        RunResult::Invalid(e) => Err(PromoteError::NotValid(e)),
    }
}

/// The scenario as YAML, with the card definitions' unset fields (null, empty lists, false)
/// left out — they are the defaults, and a card reads like the pool's entries without them.
pub fn readable_yaml(scenario: &Scenario) -> String {
    fn prune(v: &mut serde_yaml::Value) {
        match v {
            serde_yaml::Value::Mapping(m) => {
                m.retain(|_, x| {
                    !matches!(x, serde_yaml::Value::Null | serde_yaml::Value::Bool(false))
                        && !matches!(x, serde_yaml::Value::Sequence(s) if s.is_empty())
                });
                for (_, x) in m.iter_mut() {
                    prune(x);
                }
            }
            serde_yaml::Value::Sequence(s) => s.iter_mut().for_each(prune),
            _ => {}
        }
    }
    // Through the text, so enums keep the scenario style (one-key maps), not YAML tags.
    let plain = to_yaml(scenario);
    let Ok(mut value) = serde_yaml::from_str::<serde_yaml::Value>(&plain) else { return plain };
    if let Some(cards) = value.get_mut("cards") {
        prune(cards);
    }
    let pruned = to_yaml(&value);
    // Only if it still reads back as the same scenario.
    match crate::yaml::from_yaml::<Scenario>(&pruned) {
        Ok(back) if back == *scenario => pruned,
        _ => plain,
    }
}

/// Promotes a fuzz artifact of `target`; `artifact` names it in the scenario's source.
pub fn promote_fuzz_artifact(target: Target, data: &[u8], artifact: &str) -> Result<Promoted, PromoteError> {
    let hash = content_hash(data);
    let failure = quietly(|| target.check(data));
    let mut shrunk_note = String::new();
    let scenario = match target {
        Target::ScenarioYaml => {
            let text = String::from_utf8_lossy(data);
            let loaded = load_str(artifact, &text, pool()).map_err(PromoteError::ArtifactNotLoadable)?;
            loaded.scenario
        }
        _ => {
            let (case, rest) = case_from_fuzz_input(data, target.limits()).ok_or(PromoteError::TooShort)?;
            let case = if failure == Outcome::Pass {
                case
            } else {
                let small = shrink(target, case.clone(), rest, &failure);
                if small != case {
                    shrunk_note = " The decoded case was shrunk (cards, permanents and options removed while the same check still failed) before promotion.".into();
                }
                small
            };
            let mut scenario = case.scenario();
            scenario.rules = rules_of(&case);
            // Synthetic cards no zone holds any more (the shrinking removed them) are left out.
            let used: BTreeSet<String> = scenario
                .players
                .iter()
                .flat_map(|p| p.library.iter().chain(&p.hand).chain(&p.graveyard).chain(&p.outside))
                .chain(&scenario.battlefield)
                .map(|c| c.card.clone())
                .collect();
            scenario.cards.retain(|c| used.contains(&c.name));
            // A large state is fixed to the run the fuzzer took: its searches, "may" answers
            // and choices are scripted, so the outcome set stays small enough to list.
            let probe = load_scenario("promoted", scenario.clone(), pool()).map_err(PromoteError::NotLoadable)?;
            if target == Target::ZoneState
                && matches!(explore(&probe.setup, PROMOTE_RUN_LIMIT), Err(SimError::TooLarge(_)))
            {
                scenario.decisions = scripted_from_run(&probe.setup, rest).map_err(PromoteError::Unscriptable)?;
            }
            scenario
        }
    };
    let (mut scenario, outcomes, run_failure) = scenario_with_expectations(scenario)?;
    let what = failure.describe();
    scenario.title = format!("fuzz finding ({}): {}", target.name(), scenario.title);
    scenario.source = Source {
        kind: SourceKind::FuzzFinding,
        reference: format!("{artifact} (cargo fuzz target `{}`, content hash {hash:016x})", target.name()),
    };
    let status = match &what {
        Some(f) => format!(
            "When it was promoted the oracle still failed on it — {f} — so the expectations below record the \
             oracle's behaviour at that time: promote it again once the oracle is fixed."
        ),
        None => "When it was promoted every check passed on it; the expectations are what the oracle \
                 (enumerator and judge, which agree on it) says is legal."
            .to_string(),
    };
    scenario.description = Some(format!(
        "Found by the `{}` fuzz target ({artifact}).{shrunk_note} {status} Regenerate with \
         `mtg-oracle promote {artifact} --target {}`.",
        target.name(),
        target.name()
    ));
    let yaml = format!(
        "# Promoted from a fuzz artifact by `mtg-oracle promote`; see the description.\n{}",
        readable_yaml(&scenario)
    );
    Ok(Promoted {
        file_name: format!("fuzz-{}-{:012x}.yaml", target.name(), hash >> 16),
        yaml,
        failure: what,
        outcomes,
        run_failure,
    })
}
