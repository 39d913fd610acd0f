//! `mtg-oracle check`: runs scenarios through an engine over the protocol and judges its answers.
//!
//! Each scenario ends in one status, kept distinct: PASS, FAIL (the judge rejects the outcome;
//! with the clause and the smallest difference), UNSUPPORTED (the engine says so, or its `hello`
//! rules it out), ERROR (crash, malformed answer, protocol violation — with the engine's stderr
//! tail), TIMEOUT (no answer within the limit). A scenario file the oracle itself can't run is
//! INVALID (exit status 2, as for `run`). One bad scenario never ends the run: after a crash,
//! a timeout or garbage the engine is killed and started again for the next scenario.

pub mod baseline;
pub mod choices;
pub mod engine;
pub mod mutation;
pub mod report;
mod session;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::cards::CardPool;
use crate::protocol::{EngineInfo, Mode, PROTOCOL_VERSION, ToEngine, to_line};
use crate::scenario::load_file;
use crate::serve::stable_hash;
use crate::verdict::Difference;
use baseline::{Baseline, Gate};
use engine::{EngineCommand, Limits};
use session::Session;
pub use session::{Checker, effective_mode};

/// A scenario's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum Status {
    /// The engine's outcome is one of the legal outcomes.
    Pass,
    /// It is not.
    Fail,
    /// The engine doesn't support the scenario.
    Unsupported,
    /// The engine crashed, answered garbage or broke the protocol.
    Error,
    /// The engine didn't answer in time.
    Timeout,
    /// The scenario file is not valid (the oracle's input, not the engine's fault).
    Invalid,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 6] =
        [Status::Pass, Status::Fail, Status::Unsupported, Status::Error, Status::Timeout, Status::Invalid];

    /// As printed.
    pub fn name(self) -> &'static str {
        match self {
            Status::Pass => "PASS",
            Status::Fail => "FAIL",
            Status::Unsupported => "UNSUPPORTED",
            Status::Error => "ERROR",
            Status::Timeout => "TIMEOUT",
            Status::Invalid => "INVALID",
        }
    }
}

impl std::fmt::Display for Status {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of one scenario.
#[derive(Debug, Clone, Serialize)]
pub struct ScenarioResult {
    /// The scenario's id (its path).
    pub id: String,
    /// The CR clauses it exercises.
    pub rules: Vec<String>,
    /// The scenario's tags (features an engine may not support), for the conformance page's filter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// What happened.
    pub status: Status,
    /// How the baseline judges it.
    pub gate: Gate,
    /// For FAIL: the judge's differences, the main one first (clause and message).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub verdict: Vec<Verdict1>,
    /// One line saying why, for every status but PASS.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// What could not be checked for this scenario because the engine doesn't report it
    /// (`knowledge not observed`, …), whatever the status.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unobserved: Vec<String>,
    /// For FAIL: the observed zones beside those of the closest legal outcome (the conformance
    /// page shows them side by side). Reports written before it existed have none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub zones: Option<report::ZoneSides>,
    /// For UNSUPPORTED: the engine's link, if it gave one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub link: Option<String>,
    /// For ERROR and TIMEOUT: the last lines the engine wrote to stderr.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub stderr_tail: Vec<String>,
    /// Wall time from sending the scenario to judging the answer (not the engine's start-up), in
    /// milliseconds.
    pub time_ms: f64,
}

/// One difference of a FAIL verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Verdict1 {
    /// The clause that decides it.
    pub clause: String,
    /// What differs.
    pub message: String,
}

impl From<&Difference> for Verdict1 {
    fn from(d: &Difference) -> Self {
        Verdict1 { clause: d.clause.clone(), message: d.message.clone() }
    }
}

/// Settings of a check run.
#[derive(Debug, Clone)]
pub struct CheckOptions {
    /// The engine.
    pub engine: EngineCommand,
    /// Scripted or free.
    pub mode: Mode,
    /// Per-scenario time limit (from sending the scenario to its answer).
    pub timeout: Duration,
    /// Validate every message against the protocol schema.
    pub validate: bool,
    /// This runner's share of the scenarios: `(i, n)`, 1-based.
    pub partition: Option<(u64, u64)>,
    /// The expected-failure baseline.
    pub baseline: Baseline,
    /// What one engine can make the oracle hold (line size, text size, stderr lines).
    pub limits: Limits,
}

/// What a whole run found.
#[derive(Debug, Clone, Serialize)]
pub struct CheckRun {
    /// The engine as it introduced itself (`None` if it never did).
    pub engine: Option<EngineInfo>,
    /// The command that started it.
    pub engine_command: String,
    /// The protocol version.
    pub protocol: u32,
    /// Scripted or free.
    pub mode: Mode,
    /// Which corpus ran.
    pub corpus: report::Corpus,
    /// The partition, as `i/n`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
    /// Per scenario, in id order.
    pub scenarios: Vec<ScenarioResult>,
    /// Baseline entries for scenarios that ran and are no longer failing the way it says, or
    /// that didn't run at all.
    pub stale_baseline: Vec<String>,
    /// Total wall time in seconds.
    pub seconds: f64,
}

impl CheckRun {
    /// How many scenarios have this status.
    pub fn count(&self, status: Status) -> usize {
        self.scenarios.iter().filter(|s| s.status == status).count()
    }

    /// Results the baseline doesn't expect (unexpected failures and unexpected passes).
    pub fn unexpected(&self) -> impl Iterator<Item = &ScenarioResult> {
        self.scenarios.iter().filter(|s| matches!(s.gate, Gate::UnexpectedFailure | Gate::UnexpectedPass))
    }

    /// The exit status, as for `run`: 2 if a scenario file is invalid, 1 if a result is
    /// unexpected, else 0.
    pub fn exit_code(&self) -> u8 {
        if self.count(Status::Invalid) > 0 {
            2
        } else if self.unexpected().next().is_some() {
            1
        } else {
            0
        }
    }
}

/// True if scenario `id` belongs to partition `i` of `n` (1-based): a stable hash of the id,
/// so each scenario lands in exactly one partition whatever else is in the corpus.
pub fn in_partition(id: &str, (i, n): (u64, u64)) -> bool {
    n > 0 && stable_hash(id) % n == i - 1
}

/// Parses `I/N` (1 ≤ I ≤ N).
pub fn parse_partition(text: &str) -> Result<(u64, u64), PartitionError> {
    let bad = || PartitionError { text: text.to_string() };
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u64, u64) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i == 0 || n == 0 || i > n { Err(bad()) } else { Ok((i, n)) }
}

/// A `--partition` that is not `I/N` with 1 ≤ I ≤ N.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionError {
    /// The text given.
    pub text: String,
}

impl std::fmt::Display for PartitionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "`{}` is not a partition: expected I/N with 1 ≤ I ≤ N, e.g. 2/4", self.text)
    }
}

impl std::error::Error for PartitionError {}

/// How long the run waits, after the last answer, for output the engine writes after it.
const LATE_OUTPUT_GRACE: Duration = Duration::from_millis(100);

/// How many loaded scenarios `check` keeps ready ahead of the one the engine is running.
const LOAD_AHEAD: usize = 8;

/// Runs `files` through the engine. `progress` is told after each scenario (index, total, result).
pub fn check(
    files: &[PathBuf],
    pool: &CardPool,
    opts: &CheckOptions,
    progress: impl FnMut(usize, usize, &ScenarioResult),
) -> CheckRun {
    check_run(files, pool, opts, false, progress)
}

/// [`check`], with each FAIL's observed zones beside the closest legal ones
/// ([`ScenarioResult::zones`], for the JSON report and the conformance page). Finding the closest
/// legal outcome explores the scenario, so only runs that write such a report pay for it.
pub fn check_with_zones(
    files: &[PathBuf],
    pool: &CardPool,
    opts: &CheckOptions,
    progress: impl FnMut(usize, usize, &ScenarioResult),
) -> CheckRun {
    check_run(files, pool, opts, true, progress)
}

fn check_run(
    files: &[PathBuf],
    pool: &CardPool,
    opts: &CheckOptions,
    zones: bool,
    mut progress: impl FnMut(usize, usize, &ScenarioResult),
) -> CheckRun {
    let started = Instant::now();
    let files: Vec<&PathBuf> =
        files.iter().filter(|f| opts.partition.is_none_or(|p| in_partition(&f.display().to_string(), p))).collect();
    let mut session = Session::new(opts);
    session.zones = zones;
    // Each scenario's result, in the order of `files`; `None` while a judging thread has it.
    let mut scenarios: Vec<Option<ScenarioResult>> = Vec::new();
    // What an engine writes after its answer is that scenario's fault, not the next one's: it is
    // looked for just before the engine's next message (and after its last answer), and charged
    // to the last scenario that talked to the engine. So a result is reported once a later
    // scenario has talked to the engine (or the run is over): the results before `last_talker`.
    let mut reported = 0;
    let mut last_talker: Option<usize> = None;
    // Late output charged to a scenario whose result the judging thread still has.
    let mut blamed: std::collections::BTreeMap<usize, (String, Vec<String>)> = std::collections::BTreeMap::new();
    let blame_one = |r: &mut ScenarioResult, (why, tail): (String, Vec<String>)| {
        r.status = Status::Error;
        r.message = format!("{why}; the engine was restarted");
        r.verdict.clear();
        r.stderr_tail = tail;
        r.gate = opts.baseline.gate(&r.id, r.status);
    };
    let blame = |scenarios: &mut Vec<Option<ScenarioResult>>,
                 blamed: &mut std::collections::BTreeMap<usize, (String, Vec<String>)>,
                 talker: Option<usize>,
                 late: Option<(String, Vec<String>)>| {
        if let (Some(i), Some(late)) = (talker, late) {
            match scenarios[i].as_mut() {
                Some(r) => blame_one(r, late),
                None => {
                    blamed.insert(i, late);
                }
            }
        }
    };
    // A judged result back from the judging thread: its gate, and any late output charged to it.
    let settle = |scenarios: &mut Vec<Option<ScenarioResult>>,
                  blamed: &mut std::collections::BTreeMap<usize, (String, Vec<String>)>,
                  (i, mut r, tags): (usize, ScenarioResult, Vec<String>)| {
        r.tags = tags;
        r.gate = opts.baseline.gate(&r.id, r.status);
        if let Some(late) = blamed.remove(&i) {
            blame_one(&mut r, late);
        }
        scenarios[i] = Some(r);
    };
    let mut report_ready = |scenarios: &[Option<ScenarioResult>], reported: &mut usize, final_before: usize| {
        while *reported < final_before
            && let Some(r) = &scenarios[*reported]
        {
            progress(*reported, files.len(), r);
            *reported += 1;
        }
    };
    // Scenarios are read and built on a second thread, a few ahead of the engine: loading (YAML
    // parsing most of all) was over half of `check`'s own time, and it needs no engine. The
    // channel is bounded, so at most `LOAD_AHEAD` loaded scenarios wait in memory, and results
    // keep the order of `files`. An engine's `result` is judged on a third thread while the
    // engine runs the next scenario (`session::ToJudge`), at most `LOAD_AHEAD` waiting.
    let corpus = std::thread::scope(|scope| {
        // Which corpus ran (reading and hashing every file again, and git's index) needs
        // neither the engine nor the results: worked out beside them, not after them.
        let corpus = scope.spawn(|| report::Corpus::of(files.iter().map(|f| f.as_path())));
        let (loaded_tx, loaded_rx) = std::sync::mpsc::sync_channel(LOAD_AHEAD);
        let to_load = &files;
        scope.spawn(move || {
            for file in to_load {
                let t = Instant::now();
                let prepared = load_file(file, pool).map(|loaded| session::Prepared::new(loaded, opts.mode));
                if loaded_tx.send((prepared, t.elapsed())).is_err() {
                    break;
                }
            }
        });
        let (judge_tx, judge_rx) =
            std::sync::mpsc::sync_channel::<(usize, Box<session::ToJudge>, Vec<String>)>(LOAD_AHEAD);
        let (judged_tx, judged_rx) = std::sync::mpsc::channel();
        scope.spawn(move || {
            for (i, job, tags) in judge_rx {
                if judged_tx.send((i, job.judge().0, tags)).is_err() {
                    break;
                }
            }
        });
        for (file, (loaded, load_time)) in files.iter().zip(loaded_rx) {
            for done in judged_rx.try_iter() {
                settle(&mut scenarios, &mut blamed, done);
            }
            let id = file.display().to_string();
            let t = Instant::now();
            let index = scenarios.len();
            let r = match loaded {
                Err(e) => Some(result(&id, Vec::new(), Status::Invalid, e.to_string())),
                Ok(prepared) => {
                    let tags = prepared.tags().to_vec();
                    match session.exchange(prepared) {
                        session::Exchange::Done(mut r) => {
                            r.tags = tags;
                            Some(r)
                        }
                        session::Exchange::Judge(job) => {
                            // The judging thread stops only by panicking, and the scope then
                            // passes its panic on: nothing is left to judge here.
                            if judge_tx.send((index, job, tags)).is_err() {
                                break;
                            }
                            None
                        }
                    }
                }
            };
            blame(&mut scenarios, &mut blamed, last_talker, session.late.take());
            let r = r.map(|mut r| {
                if r.time_ms == 0.0 {
                    r.time_ms = (load_time + t.elapsed()).as_secs_f64() * 1000.0;
                }
                r.gate = opts.baseline.gate(&r.id, r.status);
                r
            });
            if std::mem::take(&mut session.talked) {
                last_talker = Some(index);
            }
            scenarios.push(r);
            report_ready(&scenarios, &mut reported, last_talker.unwrap_or(0));
        }
        drop(judge_tx);
        // The judging thread's last results (its channel closes when it has sent them all).
        for done in judged_rx.iter() {
            settle(&mut scenarios, &mut blamed, done);
        }
        corpus.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    // The last answer: a moment for whatever the engine writes after it. `stop` goes first, and
    // the engine exits on it (the protocol asks it to, quietly), so its closed output ends the
    // wait; a whole `LATE_OUTPUT_GRACE` per run was a fifth of checking the bundled scenarios.
    session.engine.close_input(to_line(&ToEngine::Stop));
    session.drain_late(LATE_OUTPUT_GRACE);
    blame(&mut scenarios, &mut blamed, last_talker, session.late.take());
    report_ready(&scenarios, &mut reported, scenarios.len());
    session.engine.stop(to_line(&ToEngine::Stop));
    // Every result is in: the judging thread sent one for each scenario it was given.
    let scenarios: Vec<ScenarioResult> = scenarios.into_iter().flatten().collect();
    let ran: std::collections::BTreeSet<&str> = scenarios.iter().map(|s| s.id.as_str()).collect();
    let stale = opts
        .baseline
        .expected
        .keys()
        .filter(|id| opts.partition.is_none_or(|p| in_partition(id, p)) && !ran.contains(id.as_str()))
        .cloned()
        .collect();
    CheckRun {
        engine: session.hello.map(|h| h.0),
        engine_command: opts.engine.display.clone(),
        protocol: PROTOCOL_VERSION,
        mode: opts.mode,
        corpus,
        partition: opts.partition.map(|(i, n)| format!("{i}/{n}")),
        scenarios,
        stale_baseline: stale,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// A scenario's result with `status` and `message`, before any verdict, timing or engine output is
/// added to it.
pub fn result(id: &str, rules: Vec<String>, status: Status, message: String) -> ScenarioResult {
    ScenarioResult {
        id: id.to_string(),
        rules,
        tags: Vec::new(),
        status,
        gate: Gate::Expected,
        verdict: Vec::new(),
        message,
        unobserved: Vec::new(),
        zones: None,
        link: None,
        stderr_tail: Vec::new(),
        time_ms: 0.0,
    }
}
