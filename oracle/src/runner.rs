//! Running scenarios: load, enumerate, check expectations, and cross-check judge and enumerator.
//! Shared by the CLI and the tests, so both see the same verdicts.

use std::path::Path;

use crate::cards::CardPool;
use crate::expect;
use crate::explore::{DEFAULT_RUN_LIMIT, Exploration, explore, first_run};
use crate::judge::{Verdict, judge};
use crate::outcome::concrete::concretize;
use crate::outcome::{LoggedEvent, Outcome};
use crate::scenario::{BuildError, LoadError, Loaded, load_file};
use crate::sim::SimError;

/// The result of running one scenario.
#[derive(Debug)]
pub enum RunResult {
    /// Every expectation holds.
    Pass {
        /// The scenario.
        loaded: Box<Loaded>,
        /// Its legal outcomes.
        exploration: Exploration,
    },
    /// Some expectation fails; each failure located in the file.
    Fail {
        /// The scenario.
        loaded: Box<Loaded>,
        /// Located failures.
        failures: Vec<LoadError>,
    },
    /// The file is not a valid scenario.
    Invalid(LoadError),
}

impl RunResult {
    /// True for a pass.
    pub fn passed(&self) -> bool {
        matches!(self, RunResult::Pass { .. })
    }
}

/// Turns a simulation error into a located error.
pub fn locate_sim_error(loaded: &Loaded, error: &SimError) -> LoadError {
    loaded.error_at(&error.place(), error.message())
}

/// Runs the scenario once with its script: an illegal scripted choice, or a scripted decision
/// that never comes up, is the author's error at that entry (`run` and `explain` both refuse it).
pub fn check_script(loaded: &Loaded) -> Result<(), LoadError> {
    match script_problem(loaded) {
        Some(problem) => Err(loaded.error_at(&problem.path, problem.message)),
        None => Ok(()),
    }
}

/// [`check_script`] without locating the problem in the scenario's text: the path of the node
/// concerned (`steps[2]`, `decisions[0]`) and what is wrong, for a scenario made in code, whose
/// text would first have to be written out and read back just to number its lines.
pub fn script_problem(loaded: &Loaded) -> Option<BuildError> {
    match first_run(&loaded.setup) {
        Err(e) => Some(BuildError::new(e.place(), e.message())),
        Ok((_, unused)) => unused.first().map(|&i| {
            BuildError::new(
                format!("decisions[{i}]"),
                "this decision never came up: no choice of that kind for that player happens in the steps".to_string(),
            )
        }),
    }
}

/// Loads and runs one scenario file.
pub fn run_file(path: &Path, pool: &CardPool) -> RunResult {
    match load_file(path, pool) {
        Ok(loaded) => run_loaded(loaded),
        Err(e) => RunResult::Invalid(e),
    }
}

/// Runs a loaded scenario: checks its script, enumerates, checks expectations, and checks that
/// the judge accepts every enumerated outcome.
pub fn run_loaded(loaded: Loaded) -> RunResult {
    if let Err(e) = check_script(&loaded) {
        return RunResult::Invalid(e);
    }
    let exploration = match explore(&loaded.setup, DEFAULT_RUN_LIMIT) {
        Ok(x) => x,
        Err(e) => return RunResult::Invalid(locate_sim_error(&loaded, &e)),
    };
    // Names printed on the card (both halves of a split card), whatever its state at the start.
    let names_of = |id: &str| match loaded.setup.ids.get(id) {
        Some(&o) => loaded.setup.game.obj(o).def.face_slice().iter().map(|f| f.name.clone()).collect(),
        None => crate::rules::tokens::token_def_for_id(&loaded.setup.game, id)
            .map_or_else(Vec::new, |d| vec![d.name.clone()]),
    };
    let mut failures: Vec<LoadError> = expect::check(&loaded.scenario, &exploration, &names_of)
        .into_iter()
        .map(|(path, message)| loaded.error_at(&path, message))
        .collect();
    for (i, legal) in exploration.outcomes.values().enumerate() {
        // As an engine would report it: shuffled parts of libraries in some concrete order.
        let observed = concretize(legal, i as u64);
        if let verdict @ (Verdict::Illegal(_) | Verdict::Error(_)) = judge(&loaded.setup, &observed) {
            failures.push(loaded.error_at(
                "",
                format!("internal disagreement: the judge rejects enumerated outcome #{}: {verdict}", i + 1),
            ));
        }
    }
    if failures.is_empty() {
        RunResult::Pass { loaded: Box::new(loaded), exploration }
    } else {
        RunResult::Fail { loaded: Box::new(loaded), failures }
    }
}

/// A short, readable rendering of one outcome for `explain`.
pub fn render_outcome(outcome: &Outcome) -> String {
    let mut out = String::new();
    for (zone, cards) in &outcome.zones {
        out.push_str(&format!("    {zone}: [{}]\n", cards.join(", ")));
    }
    for (card, who) in &outcome.known {
        out.push_str(&format!("    known: {card} → {}\n", who.join(", ")));
    }
    for (card, n) in &outcome.counters {
        out.push_str(&format!("    counters: {card} +{n}\n"));
    }
    if !outcome.tapped.is_empty() {
        out.push_str(&format!("    tapped: [{}]\n", outcome.tapped.join(", ")));
    }
    out.push_str(&format!(
        "    life: {}\n",
        outcome.life.iter().map(|(p, l)| format!("{p} {l}")).collect::<Vec<_>>().join(", ")
    ));
    out.push_str("    events:\n");
    for e in &outcome.events {
        out.push_str(&format!("      {}\n", render_event(e)));
    }
    out
}

fn render_event(e: &LoggedEvent) -> String {
    let json = serde_json::to_value(&e.event).unwrap_or_default();
    let mut parts = Vec::new();
    if let Some(map) = json.as_object() {
        for (k, v) in map {
            if k != "event" {
                parts.push(format!("{k}={}", v.to_string().trim_matches('"')));
            }
        }
    }
    format!("[{}] {} {}", e.step, e.event.kind(), parts.join(" "))
}
