//! `mtg-oracle reduce`: from an engine's FAIL to the smallest scenario that still shows it.
//!
//! Delta debugging over the scenario: players (beyond two), steps, scripted decisions, chunks of
//! each starting zone down to single cards (libraries shortened from the bottom first), cards
//! replaced by a vanilla one, `known_to` cleared, unused local card definitions dropped. A
//! candidate is kept when it still loads, the oracle can still run it, and the engine still FAILs
//! on it with the same clause named first; an invalid candidate is skipped. Each kept candidate
//! is smaller by [`size`] (cards in the starting zones + steps + scripted decisions) or, at the
//! same size, by [`complexity`], so the search ends; it is also bounded by a number of candidates
//! and a time limit. The order in which candidates of one size are tried is shuffled with a seed,
//! so a run is reproducible (given a deterministic engine) and another seed may find another
//! minimum.
//!
//! [`draft`] turns the result into a scenario file (`source.kind: engine-bug`, expectations
//! drafted from the oracle, `never:` the engine's wrong outcome where an assertion can say it).

pub mod draft;
mod shrink;

use std::collections::BTreeSet;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use crate::cards::CardPool;
use crate::check::engine::EngineCommand;
use crate::check::{CheckOptions, Checker, Status};
use crate::outcome::Outcome;
use crate::protocol::EngineInfo;
use crate::scenario::format::{Expectations, Scenario};
use crate::scenario::{Loaded, load_scenario};
use crate::serve::ServeOptions;
use crate::yaml::to_yaml;
pub use shrink::{VANILLA_CARD, complexity, size};

/// Bounds and seed of a reduction.
#[derive(Debug, Clone, Copy)]
pub struct ReduceOptions {
    /// Seeds the order candidates of one size are tried in.
    pub seed: u64,
    /// Stop trying candidates after this long (the best scenario so far is kept).
    pub time_limit: Duration,
    /// Stop after this many candidates have been run through the engine.
    pub max_candidates: usize,
}

impl Default for ReduceOptions {
    fn default() -> Self {
        ReduceOptions { seed: 0, time_limit: Duration::from_secs(120), max_candidates: 2000 }
    }
}

/// What the engine did with one scenario.
#[derive(Debug, Clone)]
pub struct Probe {
    /// Its status.
    pub status: Status,
    /// For FAIL: the clause named first.
    pub clause: Option<String>,
    /// For FAIL: the first difference; otherwise why it isn't a FAIL.
    pub message: String,
    /// For FAIL: the outcome the engine reported.
    pub outcome: Option<Outcome>,
}

/// An engine the reducer runs candidates through.
pub trait Engine {
    /// Runs one scenario and judges the answer.
    fn probe(&mut self, loaded: Loaded) -> Probe;
    /// The engine as it introduced itself, once it has.
    fn info(&self) -> Option<EngineInfo>;
}

fn probe_of(r: crate::check::ScenarioResult, outcome: Option<&Outcome>) -> Probe {
    Probe {
        status: r.status,
        clause: r.verdict.first().map(|v| v.clause.clone()),
        message: r.message,
        outcome: if r.status == Status::Fail { outcome.cloned() } else { None },
    }
}

/// An engine process, supervised exactly as `check` supervises it (started once, restarted after
/// a crash or a timeout).
pub struct ProcessEngine<'a> {
    checker: Checker<'a>,
}

impl<'a> ProcessEngine<'a> {
    /// The engine `opts` names; it starts with the first probe.
    pub fn new(opts: &'a CheckOptions) -> Self {
        ProcessEngine { checker: Checker::new(opts) }
    }
}

impl Engine for ProcessEngine<'_> {
    fn probe(&mut self, loaded: Loaded) -> Probe {
        let r = self.checker.check(loaded);
        probe_of(r, self.checker.last_failing_outcome())
    }

    fn info(&self) -> Option<EngineInfo> {
        self.checker.engine_info().cloned()
    }
}

/// The reference engine, with a mutant or not, run in this process (what `mtg-oracle serve`
/// with the same options answers, without a process).
pub struct ReferenceEngine<'a> {
    checker: Checker<'a>,
    serve: ServeOptions,
    pool: &'a CardPool,
}

impl<'a> ReferenceEngine<'a> {
    /// The reference engine with `serve`'s seed, policy and mutant; `opts` gives the mode and
    /// the checks of `check` (its engine command is not used).
    pub fn new(opts: &'a CheckOptions, serve: ServeOptions, pool: &'a CardPool) -> Self {
        ReferenceEngine { checker: Checker::new(opts), serve, pool }
    }
}

impl Engine for ReferenceEngine<'_> {
    fn probe(&mut self, loaded: Loaded) -> Probe {
        let r = self.checker.check_reference(loaded, self.serve, self.pool);
        probe_of(r, self.checker.last_failing_outcome())
    }

    fn info(&self) -> Option<EngineInfo> {
        Some(self.serve.info())
    }
}

/// Check options for [`ReferenceEngine`]: scripted mode, a 10 s limit, no baseline; the engine
/// command is never run.
pub fn in_process_options() -> CheckOptions {
    CheckOptions {
        engine: EngineCommand::shell("true"),
        mode: crate::protocol::Mode::Scripted,
        timeout: Duration::from_secs(10),
        validate: false,
        partition: None,
        baseline: Default::default(),
        limits: Default::default(),
    }
}

/// Why the search stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// No candidate of the last scenario kept the failure: it is minimal for these candidates.
    Minimal,
    /// The time limit was reached.
    TimeLimit,
    /// The candidate limit was reached.
    CandidateLimit,
}

impl Stop {
    /// In words.
    pub fn describe(self) -> &'static str {
        match self {
            Stop::Minimal => "no smaller candidate keeps the failure",
            Stop::TimeLimit => "time limit reached",
            Stop::CandidateLimit => "candidate limit reached",
        }
    }
}

/// The result of a reduction.
#[derive(Debug, Clone)]
pub struct Reduction {
    /// The scenario's id (its path).
    pub id: String,
    /// The scenario as given.
    pub original: Scenario,
    /// The smallest scenario found, with the original's `expect:` cleared.
    pub reduced: Scenario,
    /// The clause the engine's FAIL names first, on both.
    pub clause: String,
    /// The first difference on the reduced scenario.
    pub message: String,
    /// The engine's outcome on the reduced scenario.
    pub engine_outcome: Option<Outcome>,
    /// The engine as it introduced itself.
    pub engine: Option<EngineInfo>,
    /// The seed of the candidate order.
    pub seed: u64,
    /// Candidates run through the engine.
    pub tried: usize,
    /// Candidates kept.
    pub kept: usize,
    /// Why the search stopped.
    pub stop: Stop,
}

/// A scenario the engine doesn't FAIL on: nothing to reduce.
#[derive(Debug, Clone)]
pub struct NotFailing {
    /// The engine's status on it.
    pub status: Status,
    /// Why.
    pub message: String,
}

impl std::fmt::Display for NotFailing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.message.is_empty() {
            write!(f, "the engine doesn't FAIL on this scenario ({})", self.status)
        } else {
            write!(f, "the engine doesn't FAIL on this scenario ({}: {})", self.status, self.message)
        }
    }
}

impl std::error::Error for NotFailing {}

/// Progress of a reduction, for a display.
#[derive(Debug, Clone, Copy)]
pub struct Progress {
    /// Candidates run so far.
    pub tried: usize,
    /// Size of the scenario as given.
    pub original_size: usize,
    /// Size of the smallest failing scenario so far.
    pub size: usize,
}

/// The measure a kept candidate must lower: [`size`] first, then [`complexity`].
fn measure(s: &Scenario) -> (usize, usize) {
    (size(s), complexity(s))
}

/// Reduces `loaded` while `engine` keeps FAILing on it with the same clause first.
pub fn reduce(
    loaded: &Loaded,
    engine: &mut dyn Engine,
    pool: &CardPool,
    opts: ReduceOptions,
    mut progress: impl FnMut(Progress),
) -> Result<Reduction, NotFailing> {
    let started = Instant::now();
    let first = engine.probe(loaded.clone());
    let clause = match (&first.status, &first.clause) {
        (Status::Fail, Some(c)) => c.clone(),
        _ => return Err(NotFailing { status: first.status, message: first.message }),
    };
    let same_failure = |p: &Probe| p.status == Status::Fail && p.clause.as_deref() == Some(clause.as_str());
    let load = |s: &Scenario| load_scenario(&loaded.id, s.clone(), pool).ok();
    let mut original = loaded.scenario.clone();
    original.expect = Expectations::default();
    // Ids pinned, so dropping a card doesn't rename the cards after it (kept only if the engine
    // sees the same failure: it should, as the game is the same).
    let pinned = shrink::pin_ids(&original);
    let (mut current, mut best) = match load(&pinned).map(|l| engine.probe(l)) {
        Some(p) if same_failure(&p) => (pinned, p),
        _ => (original.clone(), first),
    };
    let original_size = size(&current);
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut seen: BTreeSet<String> = BTreeSet::new();
    let (mut tried, mut kept) = (0, 0);
    let stop = 'search: loop {
        let mut candidates: Vec<Scenario> =
            shrink::candidates(&current).into_iter().filter(|c| measure(c) < measure(&current)).collect();
        // Seeded order within one measure; the smallest candidates first (the boldest cuts).
        candidates.shuffle(&mut rng);
        candidates.sort_by_key(measure);
        let mut improved = false;
        for candidate in candidates {
            if tried >= opts.max_candidates {
                break 'search Stop::CandidateLimit;
            }
            if started.elapsed() >= opts.time_limit {
                break 'search Stop::TimeLimit;
            }
            if !seen.insert(to_yaml(&candidate)) {
                continue;
            }
            let Some(l) = load(&candidate) else { continue };
            tried += 1;
            let p = engine.probe(l);
            progress(Progress { tried, original_size, size: size(&current) });
            if same_failure(&p) {
                current = candidate;
                best = p;
                kept += 1;
                improved = true;
                progress(Progress { tried, original_size, size: size(&current) });
                break;
            }
        }
        if !improved {
            break Stop::Minimal;
        }
    };
    // Explicit ids the loader would give anyway are dropped, if the engine still fails the same.
    let unpinned = shrink::unpin_ids(&current);
    if unpinned != current
        && let Some(p) = load(&unpinned).map(|l| engine.probe(l)).filter(same_failure)
    {
        current = unpinned;
        best = p;
    }
    Ok(Reduction {
        id: loaded.id.clone(),
        original: loaded.scenario.clone(),
        reduced: current,
        clause,
        message: best.message,
        engine_outcome: best.outcome,
        engine: engine.info(),
        seed: opts.seed,
        tried,
        kept,
        stop,
    })
}
