//! One function per fuzz target. Each takes the fuzzer's bytes and returns `Err` when an
//! invariant fails; the cargo-fuzz targets panic on it, the corpus replay test asserts `Ok`, and
//! `promote` decodes an artifact with the same functions, so all three read bytes the same way.
//!
//! Inputs that decode to nothing useful (too short, a state the oracle refuses as not modelled
//! or too large to enumerate) pass: they are not findings.

use arbitrary::Unstructured;

use crate::explore::{Exploration, explore, explore_contains, first_run};
use crate::judge::{Verdict, judge};
use crate::outcome::Outcome;
use crate::outcome::concrete::concretize;
use crate::scenario::format::Scenario;
use crate::scenario::load_str;
use crate::yaml::{from_yaml, to_yaml};

use super::case::{FuzzCase, Limits};
use super::check::{Built, agreement_picked, determinism, is_skip, judge_accepts_run, outcome_invariants};
use super::decide::run_with_choices;
use super::observe::{Vocabulary, mutate};
use super::{CheckFailure, pool};

/// Most simulator runs an enumerating target spends on one input.
pub const ENUMERATION_LIMIT: usize = 200;

/// The fuzz targets that decode bytes into checks (the engine target, which needs an engine,
/// lives with the protocol).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// Generator → one simulated run with random legal decisions → invariants.
    ZoneState,
    /// Generator (small states) → enumerator ⇔ judge, corruptions, invariants on every outcome.
    SearchRequest,
    /// Arbitrary bytes into the scenario loader: errors, never panics.
    ScenarioYaml,
    /// Arbitrary observed outcomes: the judge never panics and explains every rejection.
    JudgeObservation,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 4] =
        [Target::ZoneState, Target::SearchRequest, Target::ScenarioYaml, Target::JudgeObservation];

    /// Its name, as in `fuzz/fuzz_targets/<name>.rs` and `corpus/<name>/`.
    pub fn name(self) -> &'static str {
        match self {
            Target::ZoneState => "zone_state",
            Target::SearchRequest => "search_request",
            Target::ScenarioYaml => "scenario_yaml",
            Target::JudgeObservation => "judge_observation",
        }
    }

    /// The target with this name.
    pub fn from_name(name: &str) -> Option<Target> {
        Target::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs the target's checks on one input.
    pub fn check(self, data: &[u8]) -> Result<(), CheckFailure> {
        match self {
            Target::ZoneState => zone_state(data),
            Target::SearchRequest => search_request(data),
            Target::ScenarioYaml => scenario_yaml(data),
            Target::JudgeObservation => judge_observation(data),
        }
    }

    /// Runs the target's checks on a decoded case and the bytes after it (`None` for
    /// `scenario_yaml`, which has no case).
    pub fn check_case(self, case: FuzzCase, rest: &[u8]) -> Option<Result<(), CheckFailure>> {
        match self {
            Target::ZoneState => Some(zone_state_case(case, rest)),
            Target::SearchRequest => Some(search_request_case(case, rest)),
            Target::JudgeObservation => Some(judge_observation_case(case, rest)),
            Target::ScenarioYaml => None,
        }
    }

    /// The limits its generator uses.
    pub fn limits(self) -> Limits {
        match self {
            Target::ZoneState => Limits::ZONE_STATE,
            _ => Limits::SMALL,
        }
    }
}

/// Decodes the generated case at the start of a fuzz input, and returns the bytes after it
/// (the choices, for `zone_state`). This is also how an engine target gets its scenario:
/// `case_from_fuzz_input(data, Limits::SMALL)?.0.scenario()`.
pub fn case_from_fuzz_input(data: &[u8], limits: Limits) -> Option<(FuzzCase, &[u8])> {
    let mut u = Unstructured::new(data);
    let case = FuzzCase::arbitrary_within(&mut u, limits).ok()?;
    Some((case, u.take_rest()))
}

/// The scenario a fuzz input describes (the generator's decoding, small states): what an
/// engine-differential target sends to an engine.
pub fn scenario_from_fuzz_input(data: &[u8]) -> Option<Scenario> {
    case_from_fuzz_input(data, Limits::SMALL).map(|(case, _)| case.scenario())
}

fn seed_of(rest: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    for (i, x) in rest.iter().take(8).enumerate() {
        b[i] = *x;
    }
    u64::from_le_bytes(b)
}

/// `zone_state`: a generated state (libraries up to a few hundred cards), one run with the
/// decisions the remaining bytes pick, and every invariant on its outcome; the same run again
/// (determinism); the judge accepts the outcome and rejects any version of it that loses,
/// creates or duplicates a card.
pub fn zone_state(data: &[u8]) -> Result<(), CheckFailure> {
    let Some((case, choices)) = case_from_fuzz_input(data, Limits::ZONE_STATE) else { return Ok(()) };
    zone_state_case(case, choices)
}

/// [`zone_state`] on a decoded case and its choice bytes.
pub fn zone_state_case(case: FuzzCase, choices: &[u8]) -> Result<(), CheckFailure> {
    let built = Built::new(case)?;
    let setup = &built.loaded.setup;
    let run = run_with_choices(setup, choices);
    determinism(setup, choices, &run)?;
    let run = match run {
        Ok(r) => r,
        Err(e) if is_skip(&e) => return Ok(()),
        Err(e) => {
            return Err(CheckFailure {
                check: "simulator",
                message: format!("a run with legal choices failed: {e:?}"),
            });
        }
    };
    outcome_invariants(&built, &run.outcome)?;
    judge_accepts_run(setup, &run.outcome, seed_of(choices))
}

fn explore_small(built: &Built) -> Result<Option<Exploration>, CheckFailure> {
    match explore(&built.loaded.setup, ENUMERATION_LIMIT) {
        Ok(x) => Ok(Some(x)),
        Err(e) if is_skip(&e) => Ok(None),
        Err(e) => Err(CheckFailure { check: "enumerator", message: format!("explore failed: {e:?}") }),
    }
}

/// `search_request`: a small generated state, all its legal outcomes, every one of which
/// satisfies the invariants, and judge ⇔ enumerator agreement on a few of them and a few of
/// their single-step corruptions, which the bytes after the case pick ([`agreement_picked`]).
pub fn search_request(data: &[u8]) -> Result<(), CheckFailure> {
    let Some((case, rest)) = case_from_fuzz_input(data, Limits::SMALL) else { return Ok(()) };
    search_request_case(case, rest)
}

/// [`search_request`] on a decoded case and the bytes after it.
pub fn search_request_case(case: FuzzCase, rest: &[u8]) -> Result<(), CheckFailure> {
    let built = Built::new(case)?;
    let Some(x) = explore_small(&built)? else { return Ok(()) };
    for legal in x.outcomes.values() {
        outcome_invariants(&built, legal)?;
    }
    agreement_picked(&built.loaded.setup, &x, rest)
}

/// `judge_observation`: a small generated state, one of its legal outcomes changed by arbitrary
/// edits, and the judge: it must not panic, every rejection names a clause, and an outcome it
/// accepts must be one the enumerator lists.
pub fn judge_observation(data: &[u8]) -> Result<(), CheckFailure> {
    let Some((case, rest)) = case_from_fuzz_input(data, Limits::SMALL) else { return Ok(()) };
    judge_observation_case(case, rest)
}

/// How many of the bytes after a `judge_observation` case answer the decisions of the run that
/// makes the legal outcome to edit (the rest are the edits).
const OBSERVATION_RUN_BYTES: usize = 16;

/// [`judge_observation`] on a decoded case and the bytes after it.
///
/// The legal outcome to edit comes from one run with decisions the bytes pick (a random legal
/// decision sequence, as `zone_state` makes), not from enumerating every outcome: most edited
/// outcomes are rejected, and only an accepted one needs the enumeration, to be looked up in it.
pub fn judge_observation_case(case: FuzzCase, rest: &[u8]) -> Result<(), CheckFailure> {
    let built = Built::new(case)?;
    let setup = &built.loaded.setup;
    let mut u = Unstructured::new(rest);
    let pick = u.arbitrary::<u16>().unwrap_or(0) as usize;
    let run_bytes = u.bytes(OBSERVATION_RUN_BYTES.min(u.len())).unwrap_or_default();
    let base: Outcome = match run_with_choices(setup, run_bytes) {
        Ok(run) => concretize(&run.outcome, pick as u64),
        Err(_) => Outcome::default(),
    };
    let vocab = Vocabulary::of(setup);
    let observed = mutate(&base, &vocab, &mut u, 8).unwrap_or(base);
    match judge(setup, &observed) {
        Verdict::Illegal(diffs) if diffs.is_empty() || diffs.iter().any(|d| d.clause.is_empty()) => {
            Err(CheckFailure { check: "judge", message: format!("a rejection without a clause: {diffs:?}") })
        }
        // The enumeration stops as soon as it lists the observation (`explore_contains`); only an
        // accepted outcome it never lists walks every path.
        Verdict::Legal => match explore_contains(setup, ENUMERATION_LIMIT, &observed) {
            Ok(true) => Ok(()),
            Ok(false) => Err(CheckFailure {
                check: "judge",
                message: format!("the judge accepts an outcome the enumerator doesn't list:\n{observed:#?}"),
            }),
            Err(e) if is_skip(&e) => Ok(()),
            Err(e) => Err(CheckFailure { check: "enumerator", message: format!("explore failed: {e:?}") }),
        },
        _ => Ok(()),
    }
}

/// `scenario_yaml`: arbitrary bytes as a scenario file. Loading fails with a located error or
/// succeeds; a loaded scenario renders back to YAML that loads to the same scenario; running it
/// (bounded) fails with an error or gives outcomes the judge accepts. Nothing panics.
pub fn scenario_yaml(data: &[u8]) -> Result<(), CheckFailure> {
    let text = String::from_utf8_lossy(data);
    let loaded = match load_str("fuzz.yaml", &text, pool()) {
        Ok(l) => l,
        Err(e) if e.line >= 1 && e.column >= 1 && !e.message.is_empty() => return Ok(()),
        Err(e) => {
            return Err(CheckFailure { check: "loader", message: format!("an error without a place or text: {e:?}") });
        }
    };
    let rendered = to_yaml(&loaded.scenario);
    match from_yaml::<Scenario>(&rendered) {
        Ok(again) if again == loaded.scenario => {}
        Ok(again) => {
            return Err(CheckFailure {
                check: "loader",
                message: format!("the scenario changes when rendered and read back:\n{rendered}\n{again:?}"),
            });
        }
        Err(e) => {
            return Err(CheckFailure {
                check: "loader",
                message: format!("the scenario's own rendering doesn't read back: {e}\n{rendered}"),
            });
        }
    }
    if first_run(&loaded.setup).is_err() {
        return Ok(());
    }
    let Ok(x) = explore(&loaded.setup, ENUMERATION_LIMIT) else { return Ok(()) };
    for (i, legal) in x.outcomes.values().enumerate().take(16) {
        let verdict = judge(&loaded.setup, &concretize(legal, i as u64));
        if !verdict.is_legal() {
            return Err(CheckFailure {
                check: "agreement",
                message: format!("the judge rejects enumerated outcome #{i} of a loaded scenario: {verdict:?}"),
            });
        }
    }
    Ok(())
}
