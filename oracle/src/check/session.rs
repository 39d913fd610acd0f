//! One engine session: starting the engine and reading its `hello`, sending each scenario,
//! supervising the process (timeouts, late output, restarts) and judging its answer.

use std::time::{Duration, Instant};

use super::engine::{Engine, Failure, cut_text};
use super::{CheckOptions, ScenarioResult, Status, Verdict1, choices, result};
use crate::cards::CardPool;
use crate::judge::judge_observing;
use crate::observables::Observables;
use crate::protocol::validate::{
    MessageError, check_offers, check_outcome, parse_from_engine, validate_from_engine, validate_to_engine,
};
use crate::protocol::{
    ACCEPTED_VERSIONS, EngineInfo, FromEngine, Mode, PROTOCOL_VERSION, Supports, ToEngine, features_of_loaded,
    scenario_message, to_line,
};
use crate::scenario::Loaded;
use crate::verdict::Verdict;

/// How many consecutive failed starts end the attempts to start the engine.
const MAX_FAILED_STARTS: usize = 3;

/// Whether an engine's line is an answer to `seq` ([`answered_seq`]). Nearly every line answers
/// the scenario just sent, so its `seq` alone, read without the rest of the message, settles
/// that it doesn't answer an earlier one; only a line whose `seq` is `seq` (or that this quick
/// read can't make sense of) is parsed whole.
fn answers_seq(line: &str, seq: u64) -> bool {
    #[derive(serde::Deserialize)]
    struct SeqOnly {
        #[serde(default)]
        seq: Option<u64>,
    }
    match serde_json::from_str::<SeqOnly>(line) {
        // A message that parses names its `seq` in this field, or has none.
        Ok(SeqOnly { seq: s }) if s != Some(seq) => false,
        _ => answered_seq(line) == Some(seq),
    }
}

/// The seq an engine's line answers, if it is an answer that names one.
fn answered_seq(line: &str) -> Option<u64> {
    match parse_from_engine(line).ok()? {
        FromEngine::Result { seq, .. } | FromEngine::Unsupported { seq, .. } | FromEngine::NoSuchChoice { seq, .. } => {
            Some(seq)
        }
        FromEngine::Error { seq, .. } => seq,
        FromEngine::Hello { .. } => None,
    }
}

/// Cuts every text of a result an engine may have provided to `max_chars` characters, with a note.
fn cut_result(r: &mut ScenarioResult, max_chars: usize) {
    r.message = cut_text(&r.message, max_chars);
    r.link = r.link.as_deref().map(|l| cut_text(l, max_chars));
    for v in &mut r.verdict {
        v.message = cut_text(&v.message, max_chars);
        v.clause = cut_text(&v.clause, max_chars);
    }
    for u in &mut r.unobserved {
        *u = cut_text(u, max_chars);
    }
    for l in &mut r.stderr_tail {
        *l = cut_text(l, max_chars);
    }
}

/// The engine and what it said about itself.
pub(super) struct Session<'a> {
    pub(super) engine: Engine,
    pub(super) hello: Option<(EngineInfo, Supports)>,
    failed_starts: usize,
    last_start_error: String,
    seq: u64,
    /// The stderr mark of the scenario last sent to the engine.
    last_sent: Option<u64>,
    /// The seq of the scenario last sent to the engine, and which start of the engine got it.
    last_seq: Option<(u64, usize)>,
    /// True once the current scenario was sent to the engine.
    pub(super) talked: bool,
    /// Output the engine wrote after an answer, with its stderr since that scenario was sent:
    /// for the caller to charge to the scenario that answered.
    pub(super) late: Option<(String, Vec<String>)>,
    /// The outcome of the last answer judged illegal (FAIL), kept for `reduce` to show and to
    /// draft `never:` from.
    last_failing_outcome: Option<crate::outcome::Outcome>,
    /// Whether a FAIL gets its observed zones beside the closest legal ones (for the reports).
    pub(super) zones: bool,
    opts: &'a CheckOptions,
}

/// The oracle must be able to run a scenario itself before an engine is judged on it.
/// (The script check `run` and `explain` make too: [`crate::runner::check_script`].)
///
/// A scenario made in code (it has no source text: the `engine_diff` fuzz target's, `reduce`'s
/// candidates) is refused naming the node's path (`ID: steps[2]: …`) rather than a line and
/// column: locating it would write the scenario out as YAML and read that back, a sixth of
/// `engine_diff`'s work (callgrind, issue 13) for a message nobody reads there.
fn precheck(loaded: &Loaded, mk: &dyn Fn(Status, String) -> ScenarioResult) -> Option<ScenarioResult> {
    let problem = crate::runner::script_problem(loaded)?;
    let message = if loaded.source.is_empty() {
        format!("{}: {problem}", loaded.id)
    } else {
        loaded.error_at(&problem.path, problem.message).to_string()
    };
    Some(mk(Status::Invalid, message))
}

/// A loaded scenario and, when the oracle can't run it itself, the result that says why: the
/// work of a scenario that needs no engine, done where `check` loads scenarios.
pub(super) struct Prepared {
    loaded: Loaded,
    refused: Option<ScenarioResult>,
    /// The mode the scenario is sent in ([`effective_mode`]; in free mode that explores the
    /// scenario, which needs no engine either).
    mode: Mode,
}

impl Prepared {
    pub(super) fn new(loaded: Loaded, mode: Mode) -> Self {
        let refused =
            precheck(&loaded, &|status, message| result(&loaded.id, loaded.scenario.rules.clone(), status, message));
        let mode = if refused.is_some() { mode } else { effective_mode(&loaded, mode) };
        Prepared { loaded, refused, mode }
    }

    /// The scenario's tags.
    pub(super) fn tags(&self) -> &[String] {
        &self.loaded.scenario.tags
    }
}

/// Checks scenarios one at a time as a caller makes them (the `engine_diff` fuzz target): the
/// same process supervision, protocol and judging as [`check`](super::check), without files or reports.
pub struct Checker<'a> {
    session: Session<'a>,
}

impl<'a> Checker<'a> {
    /// A checker for the engine `opts` names; the engine starts with the first scenario.
    pub fn new(opts: &'a CheckOptions) -> Self {
        Checker { session: Session::new(opts) }
    }

    /// Runs one scenario through the engine and judges the answer.
    pub fn check(&mut self, loaded: Loaded) -> ScenarioResult {
        self.session.run(loaded)
    }

    /// The engine as its `hello` introduced it (`None` before it has run a scenario, or if it
    /// never introduced itself).
    pub fn engine_info(&self) -> Option<&EngineInfo> {
        self.session.hello.as_ref().map(|(info, _)| info)
    }

    /// The outcome the engine reported for the last scenario checked, if that scenario FAILed
    /// (its answer was judged illegal); `None` for any other status.
    pub fn last_failing_outcome(&self) -> Option<&crate::outcome::Outcome> {
        self.session.last_failing_outcome.as_ref()
    }

    /// Runs one scenario through the reference engine in this process (what `mtg-oracle serve`
    /// with `serve` options would answer, without a process per scenario) and judges the answer
    /// exactly as an external engine's.
    pub fn check_reference(
        &mut self,
        loaded: Loaded,
        serve: crate::serve::ServeOptions,
        pool: &CardPool,
    ) -> ScenarioResult {
        let id = loaded.id.clone();
        let rules = loaded.scenario.rules.clone();
        let mk = |status, message: String| result(&id, rules.clone(), status, message);
        self.session.last_failing_outcome = None;
        if let Some(r) = precheck(&loaded, &mk) {
            return r;
        }
        self.session.seq += 1;
        let seq = self.session.seq;
        let mode = effective_mode(&loaded, self.session.opts.mode);
        let sent = Instant::now();
        let answer = crate::serve::run_scenario(seq, &id, &scenario_message(&loaded, mode), pool, serve);
        let line = to_line(&answer);
        if self.session.hello.is_none() {
            self.session.hello = Some((serve.info(), crate::serve::supports()));
        }
        let exchanged = self.session.read_answer(loaded, seq, &line, mode, sent);
        self.session.finish(exchanged)
    }
}

impl Drop for Checker<'_> {
    fn drop(&mut self) {
        self.session.engine.stop(to_line(&ToEngine::Stop));
    }
}

/// What [`Session::exchange`] leaves to do for one scenario.
#[allow(clippy::large_enum_variant)] // One per scenario, moved once: boxing the result buys nothing.
pub(super) enum Exchange {
    /// The scenario's result (refused, unsupported, an engine error, a timeout…).
    Done(ScenarioResult),
    /// The engine answered with a well-formed `result`: judging it is left, and needs no engine.
    Judge(Box<ToJudge>),
}

/// An engine's well-formed `result` and what judging it needs, so that it can be judged on
/// another thread while the engine runs the next scenario (`check`): the judge takes about a fifth
/// of `check`'s time over the bundled scenarios, and the engine would otherwise wait for it.
pub(super) struct ToJudge {
    loaded: Loaded,
    outcome: crate::outcome::Outcome,
    /// What the engine offered at each decision, when its `hello` says it reports offers.
    offered: Option<Vec<crate::offers::Offer>>,
    mode: Mode,
    /// What the engine reports, from the `hello` of the process that answered.
    observables: Observables,
    /// Whether a FAIL gets its observed zones beside the closest legal ones.
    zones: bool,
    /// From sending the scenario to reading its answer.
    answered_in: Duration,
    max_text_chars: usize,
}

impl ToJudge {
    /// The verdict on the answer, and the observed outcome if it is illegal (a FAIL).
    pub(super) fn judge(self) -> (ScenarioResult, Option<crate::outcome::Outcome>) {
        let started = Instant::now();
        let ToJudge { loaded, outcome, offered, mode, observables, zones, answered_in, max_text_chars } = self;
        let mk = |status, message: String| result(&loaded.id, loaded.scenario.rules.clone(), status, message);
        // Free mode judges without the script; scripted mode needs no copy of the game.
        let setup = match mode {
            Mode::Scripted => std::borrow::Cow::Borrowed(&loaded.setup),
            Mode::Free => {
                let mut s = loaded.setup.clone();
                s.script.clear();
                std::borrow::Cow::Owned(s)
            }
        };
        let judged = judge_observing(&setup, &outcome, &observables);
        // Option sets are compared when the outcome itself is legal: they catch what a legal
        // outcome can't show (an illegal option offered but not taken).
        let verdict = match (judged.verdict, &offered) {
            (Verdict::Legal, Some(offered)) => {
                let diffs = crate::offers::compare(&judged.decisions, offered, Some(&loaded.setup.game));
                if diffs.is_empty() { Verdict::Legal } else { Verdict::Illegal(diffs) }
            }
            (v, _) => v,
        };
        let mut failing = None;
        let mut r = match verdict {
            Verdict::Legal => mk(Status::Pass, String::new()),
            Verdict::Illegal(diffs) => {
                let mut r = mk(Status::Fail, diffs.first().map(|d| d.to_string()).unwrap_or_default());
                r.verdict = diffs.iter().map(Verdict1::from).collect();
                if zones {
                    r.zones = super::report::ZoneSides::of(&setup, &outcome);
                }
                failing = Some(outcome);
                r
            }
            Verdict::Error(e) => mk(Status::Invalid, format!("the oracle can't judge this scenario: {e}")),
        };
        r.unobserved = judged.unchecked.iter().map(|o| o.not_observed()).collect();
        // From sending the scenario to the verdict, less any wait for a judging thread.
        r.time_ms = (answered_in + started.elapsed()).as_secs_f64() * 1000.0;
        cut_result(&mut r, max_text_chars);
        (r, failing)
    }
}

impl<'a> Session<'a> {
    pub(super) fn new(opts: &'a CheckOptions) -> Self {
        Session {
            engine: Engine::with_limits(opts.engine.clone(), opts.limits),
            hello: None,
            failed_starts: 0,
            last_start_error: String::new(),
            seq: 0,
            last_sent: None,
            last_seq: None,
            talked: false,
            late: None,
            last_failing_outcome: None,
            zones: false,
            opts,
        }
    }

    pub(super) fn run(&mut self, loaded: Loaded) -> ScenarioResult {
        let prepared = Prepared::new(loaded, self.opts.mode);
        self.run_prepared(prepared)
    }

    /// [`Session::run`] for a scenario the oracle has already tried itself (on another thread).
    pub(super) fn run_prepared(&mut self, prepared: Prepared) -> ScenarioResult {
        let exchanged = self.exchange(prepared);
        self.finish(exchanged)
    }

    /// The result of an exchange, judged here if that is left, keeping a FAIL's outcome
    /// ([`Checker::last_failing_outcome`]).
    fn finish(&mut self, exchanged: Exchange) -> ScenarioResult {
        match exchanged {
            Exchange::Done(r) => r,
            Exchange::Judge(job) => {
                let (r, failing) = job.judge();
                self.last_failing_outcome = failing;
                r
            }
        }
    }

    /// Sends a prepared scenario to the engine and reads its answer: the result, or, for an
    /// engine's `result` that is well formed, what judging it needs ([`ToJudge`]), which another
    /// thread may do while the engine runs the next scenario. Everything that decides the
    /// engine's fate (a malformed or stale answer kills it) is done here, before it gets the next.
    pub(super) fn exchange(&mut self, prepared: Prepared) -> Exchange {
        let max_chars = self.opts.limits.max_text_chars;
        match prepared.refused {
            Some(mut r) => {
                cut_result(&mut r, max_chars);
                Exchange::Done(r)
            }
            None => match self.run_uncut(prepared.loaded, prepared.mode) {
                Exchange::Done(mut r) => {
                    cut_result(&mut r, max_chars);
                    Exchange::Done(r)
                }
                judge => judge,
            },
        }
    }

    fn run_uncut(&mut self, loaded: Loaded, mode: Mode) -> Exchange {
        self.last_failing_outcome = None;
        let id = loaded.id.clone();
        let rules = loaded.scenario.rules.clone();
        let mk = |status, message: String| result(&id, rules.clone(), status, message);
        if let Err(failure) = self.ensure_started() {
            let mut r = mk(Status::Error, failure.to_string());
            r.stderr_tail = self.engine.stderr_tail();
            return Exchange::Done(r);
        }
        if let Some(why) = self.unsupported_by_hello(&loaded) {
            return Exchange::Done(mk(Status::Unsupported, why));
        }
        // Sent again, once, to a fresh engine if the first answer turns out to be the previous
        // scenario's (a second answer it wrote late).
        let mut retried = false;
        let (seq, mark, sent, answer) = loop {
            self.seq += 1;
            let seq = self.seq;
            let message = ToEngine::Run { seq, id: id.clone(), mode, scenario: scenario_message(&loaded, mode) };
            let line = to_line(&message);
            if self.opts.validate
                && let Err(e) = validate_to_engine(&line)
            {
                return Exchange::Done(mk(Status::Invalid, format!("the oracle's own message is not valid: {e}")));
            }
            // Output the engine wrote after its last answer belongs to that scenario: kept for the
            // caller, and this scenario starts clean with a fresh engine.
            if self.drain_late(Duration::ZERO)
                && let Err(failure) = self.ensure_started()
            {
                let mut r = mk(Status::Error, failure.to_string());
                r.stderr_tail = self.engine.stderr_tail();
                return Exchange::Done(r);
            }
            let previous = (self.last_seq, self.last_sent);
            let mark = self.engine.stderr_mark();
            (self.last_seq, self.last_sent) = (Some((seq, self.engine.starts)), Some(mark));
            self.talked = true;
            let sent = Instant::now();
            let answer = self.ask(line);
            // An answer to the previous scenario, from the same engine process.
            let stale = match (answer.as_ref(), previous.0) {
                (Ok(l), Some((s, start))) if start == self.engine.starts => answers_seq(l, s),
                _ => false,
            };
            if !stale || retried || previous.1.is_none() {
                break (seq, mark, sent, answer);
            }
            retried = true;
            let late = answer.unwrap_or_default();
            let why = format!("it wrote after its answer: {}", cut_text(&late, 200));
            let tail = self.engine.stderr_since(previous.1.unwrap_or(0));
            self.engine.kill();
            self.late = Some((why, tail));
            if let Err(failure) = self.ensure_started() {
                let mut r = mk(Status::Error, failure.to_string());
                r.stderr_tail = self.engine.stderr_tail();
                return Exchange::Done(r);
            }
        };
        let mut r = match answer {
            Err(Failure::Timeout(d)) => {
                mk(Status::Timeout, format!("no answer within {:.1} s; the engine was killed", d.as_secs_f64()))
            }
            Err(failure) => mk(Status::Error, failure.to_string()),
            Ok(line) => match self.read_answer(loaded, seq, &line, mode, sent) {
                Exchange::Done(r) => r,
                // A well-formed `result`: the engine is fine whatever the verdict.
                judge => return judge,
            },
        };
        // From sending the scenario to the verdict: an engine's start-up is not counted.
        r.time_ms = sent.elapsed().as_secs_f64() * 1000.0;
        if matches!(r.status, Status::Error | Status::Timeout) {
            r.stderr_tail = self.engine.stderr_since(mark);
            // After garbage the stream can't be trusted: start afresh for the next scenario.
            self.engine.kill();
        }
        Exchange::Done(r)
    }

    /// Looks for output the engine wrote after its last answer (waiting up to `grace`); if there
    /// is some, keeps it with the stderr written since that scenario was sent, kills the engine
    /// and returns true.
    pub(super) fn drain_late(&mut self, grace: Duration) -> bool {
        let Some(why) = self.engine.late_output(grace) else { return false };
        let tail = self.engine.stderr_since(self.last_sent.unwrap_or(0));
        self.engine.kill();
        self.late = Some((cut_text(&why, self.opts.limits.max_text_chars), tail));
        true
    }

    fn ask(&mut self, line: String) -> Result<String, Failure> {
        let now = Instant::now();
        // A limit too far in the future to add is as good as none.
        let deadline = now.checked_add(self.opts.timeout).unwrap_or(now + Duration::from_secs(100 * 365 * 86_400));
        self.engine.send_by(line, deadline, self.opts.timeout)?;
        self.engine.receive(deadline, self.opts.timeout)
    }

    fn parse(&self, line: &str) -> Result<FromEngine, AnswerError> {
        if self.opts.validate {
            validate_from_engine(line).map_err(AnswerError::Violation)
        } else {
            parse_from_engine(line).map_err(AnswerError::Malformed)
        }
    }

    /// Reads an engine's answer to scenario `seq` (sent at `sent`): a result for every answer but a
    /// well-formed `result`, which is handed back to be judged ([`ToJudge`]).
    fn read_answer(&mut self, loaded: Loaded, seq: u64, line: &str, mode: Mode, sent: Instant) -> Exchange {
        let rules = loaded.scenario.rules.clone();
        let mk = |status, message: String| result(&loaded.id, rules.clone(), status, message);
        let shown = |line: &str| line.chars().take(200).collect::<String>();
        let message = match self.parse(line) {
            Ok(m) => m,
            Err(e) => return Exchange::Done(mk(Status::Error, format!("{e} (line: {})", shown(line)))),
        };
        let answered = match &message {
            FromEngine::Result { seq, .. }
            | FromEngine::Unsupported { seq, .. }
            | FromEngine::NoSuchChoice { seq, .. } => Some(*seq),
            FromEngine::Error { seq, .. } => *seq,
            FromEngine::Hello { .. } => None,
        };
        if answered.is_some_and(|s| s != seq) {
            let answered = answered.map_or_else(|| "none".to_string(), |s| s.to_string());
            return Exchange::Done(mk(
                Status::Error,
                format!("protocol violation: answer for seq {answered}, expected {seq}"),
            ));
        }
        let done = match message {
            FromEngine::Hello { .. } => mk(Status::Error, "protocol violation: `hello` in answer to `run`".into()),
            FromEngine::Error { message, .. } => mk(Status::Error, format!("the engine reports an error: {message}")),
            FromEngine::Unsupported { reason, link, .. } => {
                let mut r = mk(Status::Unsupported, reason);
                r.link = link;
                r
            }
            FromEngine::NoSuchChoice { decision, offered, message, .. } => {
                if mode != Mode::Scripted {
                    mk(
                        Status::Error,
                        "protocol violation: `no_such_choice` answers a scripted decision, and none was sent".into(),
                    )
                } else {
                    choices::no_such_choice(&loaded, decision, offered.as_ref(), &message, &mk)
                }
            }
            FromEngine::Result { outcome, offered, .. } => {
                if let Err(problems) = check_outcome(&outcome, &loaded.setup, loaded.setup.actions.len()) {
                    return Exchange::Done(mk(Status::Error, format!("malformed answer: {}", problems.join("; "))));
                }
                let (observables, offers) = self.hello.as_ref().map_or((Observables::all(), false), |(_, s)| {
                    (Observables::declared(s.observables.as_deref()), s.offers)
                });
                if offers && let Err(problems) = check_offers(&offered, &loaded.setup, loaded.setup.actions.len()) {
                    return Exchange::Done(mk(Status::Error, format!("malformed answer: {}", problems.join("; "))));
                }
                return Exchange::Judge(Box::new(ToJudge {
                    loaded,
                    outcome,
                    offered: if offers { Some(offered) } else { None },
                    mode,
                    observables,
                    zones: self.zones,
                    answered_in: sent.elapsed(),
                    max_text_chars: self.opts.limits.max_text_chars,
                }));
            }
        };
        Exchange::Done(done)
    }

    /// Starts the engine if it isn't running and reads its `hello`.
    fn ensure_started(&mut self) -> Result<(), StartError> {
        if self.engine.is_running() {
            return Ok(());
        }
        if self.failed_starts >= MAX_FAILED_STARTS {
            return Err(StartError::GaveUp { last: self.last_start_error.clone() });
        }
        match self.handshake() {
            Ok(()) => {
                self.failed_starts = 0;
                Ok(())
            }
            Err(e) => {
                self.engine.kill();
                self.failed_starts += 1;
                self.last_start_error = e.to_string();
                Err(StartError::Failed(e))
            }
        }
    }

    fn handshake(&mut self) -> Result<(), HandshakeError> {
        self.engine.start().map_err(HandshakeError::Start)?;
        let line = to_line(&ToEngine::Start { protocol: PROTOCOL_VERSION });
        let answer = self.ask(line).map_err(HandshakeError::NoHello)?;
        match self.parse(&answer).map_err(HandshakeError::Answer)? {
            FromEngine::Hello { protocol, mut engine, supports } if ACCEPTED_VERSIONS.contains(&protocol) => {
                let max = self.opts.limits.max_text_chars;
                engine.name = cut_text(&engine.name, max.min(200));
                engine.version = cut_text(&engine.version, max.min(200));
                self.hello = Some((engine, supports));
                Ok(())
            }
            FromEngine::Hello { protocol, .. } => Err(HandshakeError::Version { protocol }),
            other => Err(HandshakeError::NotHello(cut_text(&to_line(&other), 200))),
        }
    }

    /// Why the engine's `hello` rules this scenario out, if it does.
    fn unsupported_by_hello(&self, loaded: &Loaded) -> Option<String> {
        let (_, supports) = self.hello.as_ref()?;
        let players = loaded.scenario.players.len();
        if let Some(counts) = &supports.players
            && !counts.contains(&players)
        {
            return Some(format!("the engine supports {} players; this scenario has {players}", bracketed(counts)));
        }
        if let Some(cards) = &supports.cards {
            let missing: std::collections::BTreeSet<&str> =
                loaded.setup.game.objs.iter().map(|o| o.def.name.as_str()).filter(|n| !cards.knows(n)).collect();
            if !missing.is_empty() {
                return Some(format!(
                    "cards the engine doesn't list: {}",
                    missing.into_iter().collect::<Vec<_>>().join(", ")
                ));
            }
        }
        if let Some(features) = &supports.features {
            let missing: Vec<String> =
                features_of_loaded(loaded).into_iter().filter(|f| !features.contains(f)).collect();
            if !missing.is_empty() {
                return Some(format!("features the engine doesn't list: {}", missing.join(", ")));
            }
        }
        None
    }
}

/// The mode a scenario is actually sent in. Free mode leaves every choice to the engine, but some
/// scenarios' later steps only make sense after the choices their `decisions` fix (a step casts the
/// card a scripted search found). A scenario whose steps can fail under some other legal choice is
/// sent scripted even in free mode — decided by the enumerator, which runs it without its script.
pub fn effective_mode(loaded: &Loaded, mode: Mode) -> Mode {
    if mode == Mode::Scripted || loaded.setup.script.is_empty() {
        return mode;
    }
    let mut free = loaded.setup.clone();
    free.script.clear();
    match crate::explore::explore(&free, crate::explore::DEFAULT_RUN_LIMIT) {
        Ok(_) | Err(crate::sim::SimError::TooLarge(_)) => Mode::Free,
        Err(_) => Mode::Scripted,
    }
}

/// `items` as a bracketed, comma-separated list: `[2, 4]`.
fn bracketed<T: std::fmt::Display>(items: &[T]) -> String {
    format!("[{}]", items.iter().map(ToString::to_string).collect::<Vec<_>>().join(", "))
}

/// Why an engine's line can't be read as an answer.
#[derive(Debug, Clone, PartialEq, Eq)]
enum AnswerError {
    /// With `--validate`: it doesn't match the protocol schema.
    Violation(MessageError),
    /// It can't be read as a protocol message even leniently.
    Malformed(MessageError),
}

impl std::fmt::Display for AnswerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AnswerError::Violation(e) => write!(f, "protocol violation: {e}"),
            AnswerError::Malformed(e) => write!(f, "malformed answer: {e}"),
        }
    }
}

impl std::error::Error for AnswerError {}

/// Why the engine didn't introduce itself.
#[derive(Debug, Clone, PartialEq, Eq)]
enum HandshakeError {
    /// Its process couldn't be started.
    Start(Failure),
    /// It gave no answer to `start`.
    NoHello(Failure),
    /// Its answer can't be read.
    Answer(AnswerError),
    /// It speaks a protocol version the oracle doesn't accept.
    Version {
        /// The version it speaks.
        protocol: u32,
    },
    /// It answered with another message (cut to 200 characters).
    NotHello(String),
}

impl std::fmt::Display for HandshakeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            HandshakeError::Start(failure) => write!(f, "{failure}"),
            HandshakeError::NoHello(failure) => write!(f, "no `hello`: {failure}"),
            HandshakeError::Answer(e) => write!(f, "{e}"),
            HandshakeError::Version { protocol } => write!(
                f,
                "the engine speaks protocol {protocol}; the oracle speaks {PROTOCOL_VERSION} (and accepts {})",
                bracketed(&ACCEPTED_VERSIONS)
            ),
            HandshakeError::NotHello(line) => write!(f, "protocol violation: expected `hello`, got {line}"),
        }
    }
}

impl std::error::Error for HandshakeError {}

/// Why the engine isn't running for the next scenario.
#[derive(Debug, Clone, PartialEq, Eq)]
enum StartError {
    /// It failed to start [`MAX_FAILED_STARTS`] times in a row; `last` says why the last time.
    GaveUp {
        /// Why the last start failed.
        last: String,
    },
    /// This start failed.
    Failed(HandshakeError),
}

impl std::fmt::Display for StartError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StartError::GaveUp { last } => {
                write!(f, "the engine failed to start {MAX_FAILED_STARTS} times in a row; not tried again: {last}")
            }
            StartError::Failed(e) => write!(f, "engine start failed: {e}"),
        }
    }
}

impl std::error::Error for StartError {}
