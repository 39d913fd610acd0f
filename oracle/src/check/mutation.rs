//! Mutation adequacy: does the scenario corpus catch each known rules bug?
//!
//! `mtg-oracle mutants` checks the reference engine with each [`Mutant`] against the scenarios.
//! A mutant is caught when some scenario doesn't PASS (FAIL, ERROR or TIMEOUT) against it while
//! every scenario passes against the unmutated reference engine. Each mutant plays under two
//! choice policies, because a bug that lets a player find fewer cards shows only when the player
//! takes fewer, and one that offers other cards only when they take more.

use std::path::PathBuf;
use std::time::Duration;

use super::baseline::Baseline;
use super::engine::EngineCommand;
use super::{CheckOptions, Status, check};
use crate::cards::CardPool;
use crate::mutants::Mutant;
use crate::protocol::Mode;
use crate::serve::Policy;

/// The policies every mutant plays under.
pub const POLICIES: [Policy; 2] = [Policy::Minimal, Policy::Greedy];

/// A scenario that caught a mutant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Catch {
    /// The scenario.
    pub id: String,
    /// Its status against the mutant.
    pub status: Status,
    /// The policy it was caught under.
    pub policy: Policy,
    /// The clause of the main difference (FAIL), else empty.
    pub clause: String,
}

/// What the corpus did to one mutant.
#[derive(Debug, Clone)]
pub struct MutantResult {
    /// The mutant.
    pub mutant: Mutant,
    /// Scenarios that caught it, by id (the first catch of each).
    pub caught_by: Vec<Catch>,
}

/// The whole mutation run.
#[derive(Debug, Clone)]
pub struct MutationRun {
    /// Scenarios the unmutated reference engine doesn't pass: (policy, id, status, message).
    pub reference_failures: Vec<(Policy, String, Status, String)>,
    /// One entry per mutant.
    pub mutants: Vec<MutantResult>,
}

impl MutationRun {
    /// Mutants no scenario caught.
    pub fn survivors(&self) -> Vec<Mutant> {
        self.mutants.iter().filter(|m| m.caught_by.is_empty()).map(|m| m.mutant).collect()
    }
}

/// Runs every mutant (and the reference engine) over `files`. `engine` gives the command of the
/// reference engine with a mutant (or none) and a choice policy.
pub fn mutation_run(
    files: &[PathBuf],
    pool: &CardPool,
    timeout: Duration,
    engine: impl Fn(Option<Mutant>, Policy) -> EngineCommand,
    mut progress: impl FnMut(&str),
) -> MutationRun {
    let opts = |mutant, policy| CheckOptions {
        engine: engine(mutant, policy),
        mode: Mode::Scripted,
        timeout,
        validate: false,
        partition: None,
        baseline: Baseline::default(),
        limits: super::engine::Limits::default(),
    };
    let mut reference_failures = Vec::new();
    for policy in POLICIES {
        progress(&format!("reference engine, {} choices", policy.name()));
        let run = check(files, pool, &opts(None, policy), |_, _, _| {});
        for r in run.scenarios.into_iter().filter(|r| r.status != Status::Pass) {
            reference_failures.push((policy, r.id, r.status, r.message));
        }
    }
    let mut mutants = Vec::new();
    for mutant in Mutant::ALL {
        let mut caught_by: Vec<Catch> = Vec::new();
        for policy in POLICIES {
            progress(&format!("{mutant}, {} choices", policy.name()));
            let run = check(files, pool, &opts(Some(mutant), policy), |_, _, _| {});
            for r in run.scenarios {
                let caught = matches!(r.status, Status::Fail | Status::Error | Status::Timeout);
                if caught && !caught_by.iter().any(|c| c.id == r.id) {
                    let clause = r.verdict.first().map(|v| v.clause.clone()).unwrap_or_default();
                    caught_by.push(Catch { id: r.id, status: r.status, policy, clause });
                }
            }
        }
        caught_by.sort_by(|a, b| a.id.cmp(&b.id));
        mutants.push(MutantResult { mutant, caught_by });
    }
    MutationRun { reference_failures, mutants }
}

impl MutantResult {
    /// Whether some scenario catches it with its own clause named first.
    pub fn caught_with_own_clause(&self) -> bool {
        self.caught_by.iter().any(|c| c.clause == self.mutant.clause())
    }
}

/// The table `mtg-oracle mutants` prints: mutant, the clause it breaks, how many scenarios catch
/// it, whether one names that clause first, and the first few of them (with the clause the judge
/// named, or the status).
pub fn table(run: &MutationRun, shown: usize) -> String {
    let mut out = String::from(
        "| mutant | breaks | caught by | own clause first | first catching scenarios |\n| --- | --- | ---: | --- | --- |\n",
    );
    for m in &run.mutants {
        let first: Vec<String> = m
            .caught_by
            .iter()
            .take(shown)
            .map(|c| {
                let name = std::path::Path::new(&c.id).file_stem().map_or(c.id.clone(), |s| s.to_string_lossy().into());
                let why = if c.clause.is_empty() { c.status.name().to_string() } else { c.clause.clone() };
                format!("{name} ({why})")
            })
            .collect();
        let caught = if m.caught_by.is_empty() { "**SURVIVES**".to_string() } else { m.caught_by.len().to_string() };
        let own = if m.caught_with_own_clause() { "yes" } else { "no" };
        out.push_str(&format!(
            "| `{}` — {} | {} | {} | {} | {} |\n",
            m.mutant.name(),
            m.mutant.description(),
            m.mutant.clause(),
            caught,
            own,
            first.join(", ")
        ));
    }
    out
}
