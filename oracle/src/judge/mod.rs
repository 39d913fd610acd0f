//! The judge: is an observed outcome one of the scenario's legal outcomes?
//!
//! It never enumerates. It replays the scenario once, taking every decision from the observed
//! event log (every event that records a choice carries it: `searched` has `found`, `chose` has
//! `card`…), with each answer checked by the same rules code the enumerator uses. If an answer
//! breaks a rule, that is the verdict; otherwise the replayed outcome is compared with the
//! observed one and every difference is reported with the clause that fixes it. Work is one
//! replay plus sorting the random part of each library: O(n log n) in cards and events.
//!
//! The judge reads decisions off the log in `read` (the `Observed` decider), names what the
//! replay decided in [`Causes`], and compares the replayed outcome with the observed one in
//! [`compare()`]; this module holds the entry points and the replays.

mod causes;
mod compare;
mod library;
mod read;

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;

use crate::model::{FastMap, ZoneRef, fast_map};

use crate::observables::{Observable, Observables};
use crate::outcome::{Event, LegalOutcome, LoggedEvent, Outcome};
use crate::scenario::Setup;
use crate::sim::script::{Scripted, blame_script};
use crate::sim::{Record, Sim, SimError};
pub use crate::verdict::{Difference, Verdict};
pub use causes::Causes;
pub use compare::compare;
use read::Observed;

/// Most replays of one judgement.
const MAX_REPLAYS: usize = 64;

/// Judges `observed` against the legal outcomes of `setup`.
///
/// Some of the log can be read more than one way: events other than `searched` and `triggered`
/// are unordered within a step, so when one step holds several decisions of one kind by one
/// player (two names, two draws, a reveal and a look…) which entry answers which decision is not
/// written down; and a declined "may search" leaves no entry, so the next `searched` event of
/// that player may be a later search's. The first replay takes the first reading of each such
/// point; when it doesn't match the observation, the other readings are tried depth-first (the
/// last point first). For each reading, a merged search (701.23h) whose found cards can be split
/// among its instructions in more than one legal way is replayed with the other splits when the
/// first replay doesn't match: one merged search at a time, keeping for each the split that
/// leaves the fewest differences (each search's split decides where its own cards go). Choices
/// the log doesn't show exactly — which replacement effect applied (616.1), the order cost parts
/// were paid in (601.2h) — are tried the same way. All of it within `MAX_REPLAYS` (64) replays.
/// When none matches, the verdict is that of the closest replay (the first one on a tie).
///
/// An observation no replay can match — it lists a card twice, or leaves out one of the scenario's
/// cards that never cease to exist — is judged by the first replay alone, without trying other
/// readings that can't help (only when everything is observed: a projection could hide that).
pub fn judge(setup: &Setup, observed: &Outcome) -> Verdict {
    judge_looking(setup, observed, &Observables::all(), false, None).verdict
}

/// A verdict with what the engine's declared observables left unchecked.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The verdict on what was observed.
    pub verdict: Verdict,
    /// The observables this scenario's outcome involves that the engine doesn't report.
    pub unchecked: Vec<Observable>,
    /// The legal options at each decision of the replay that matched the observation (else the
    /// first replay), for the option-set check.
    pub decisions: Vec<crate::offers::Legal>,
}

/// [`judge`] for an engine that reports only `observables` (protocol 2): both the replayed and
/// the observed outcome are projected onto them before they are compared.
pub fn judge_observing(setup: &Setup, observed: &Outcome, observables: &Observables) -> Judged {
    judge_looking(setup, observed, observables, true, None)
}

/// [`judge_observing`]; its `decisions` are listed only with `record_offers` (else empty).
fn judge_looking(
    setup: &Setup,
    observed: &Outcome,
    observables: &Observables,
    record_offers: bool,
    memo: Option<&ReplayMemo>,
) -> Judged {
    // An outcome that names no trigger kinds is judged without them.
    let strip_on = observed.events.iter().any(|e| matches!(&e.event, Event::Triggered { on, .. } if on.is_empty()));
    // The memo's replays hold for this judgement, or the memo is left out of it.
    let memo = memo.filter(|m| m.applies(observed, observables, record_offers));
    let look = Look { observables, strip_on, setup, observed, unmatchable: OnceCell::new(), record_offers, memo };
    let mut replays = 0;
    let mut trail: Vec<usize> = Vec::new();
    let mut best: Option<((usize, usize), Verdict)> = None;
    // What the first replay saw: the observables it left unchecked and the legal options.
    let mut first: Option<(Vec<Observable>, Vec<crate::offers::Legal>)> = None;
    let verdict = loop {
        let (verdict, score, readings) = judge_reading(setup, observed, &trail, &mut replays, &look, &mut first);
        if verdict.is_legal() {
            // The reading that matched is the one whose decisions the engine faced.
            break verdict;
        }
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, verdict));
        }
        match next_reading(&trail, &readings) {
            Some(next) if replays < look.max_replays() => trail = next,
            _ => break best.map_or_else(|| Verdict::Error("the judge made no replay".into()), |(_, v)| v),
        }
    };
    let (mut unchecked, decisions) = first.unwrap_or_default();
    if strip_on && observables.has(Observable::TriggerKind) && !unchecked.contains(&Observable::TriggerKind) {
        unchecked.push(Observable::TriggerKind);
    }
    Judged { verdict, unchecked, decisions }
}

/// What the judge compares.
struct Look<'a> {
    observables: &'a Observables,
    strip_on: bool,
    setup: &'a Setup,
    observed: &'a Outcome,
    /// Whether no replay can match the observation, worked out only once a replay hasn't
    /// matched: an observation the first replay accepts never pays for the check.
    unmatchable: OnceCell<bool>,
    /// Whether the replays list each decision's legal options (`Judged::decisions`).
    record_offers: bool,
    /// Replays to reuse: only a memo made for the observation's log, judged as it judges.
    memo: Option<&'a ReplayMemo<'a>>,
}

impl Look<'_> {
    /// Most replays of this judgement: one when no replay can match (see `breaks_conservation`).
    fn max_replays(&self) -> usize {
        let unmatchable = *self.unmatchable.get_or_init(|| {
            self.observables.is_all() && !self.strip_on && breaks_conservation(self.setup, self.observed)
        });
        if unmatchable { 1 } else { MAX_REPLAYS }
    }
}

/// Whether `observed` lists some card more than once across its zones (the stack included), or
/// leaves out a card of the scenario that is not a token or a copy. No replay's outcome does
/// either: each card is in exactly one zone (400.1), and only tokens and copies cease to exist
/// (111.7, 704.5d–e), so such an observation differs from every replay whatever the reading of
/// its log. Only sound when every observable is compared: a projection could hide the difference.
fn breaks_conservation(setup: &Setup, observed: &Outcome) -> bool {
    // Abilities on the stack are listed as `ability:<source>`, not as cards.
    let mut listed: Vec<&str> =
        observed.zones.values().flatten().map(String::as_str).filter(|c| !c.starts_with("ability:")).collect();
    listed.sort_unstable();
    if listed.windows(2).any(|w| w[0] == w[1]) {
        return true;
    }
    setup.ids.iter().any(|(id, &o)| {
        let obj = setup.game.obj(o);
        !obj.token && !obj.copy && listed.binary_search(&id.as_str()).is_err()
    })
}

/// The next reading depth-first after `trail`, given how many readings each ambiguous point of
/// its replay had: the last point that has another reading takes it, later points start over.
fn next_reading(trail: &[usize], readings: &[usize]) -> Option<Vec<usize>> {
    let mut next: Vec<usize> = (0..readings.len()).map(|i| trail.get(i).copied().unwrap_or(0)).collect();
    let i = (0..readings.len()).rev().find(|&i| next[i] + 1 < readings[i])?;
    next[i] += 1;
    next.truncate(i + 1);
    Some(next)
}

/// How close a verdict is: a replay that ran to the end is closer than one a rule stopped; then
/// fewer differences.
fn closeness(v: &Verdict, ran: bool) -> (usize, usize) {
    match v {
        Verdict::Legal => (0, 0),
        Verdict::Illegal(d) => (usize::from(!ran), d.len()),
        Verdict::Error(_) => (2, 0),
    }
}

/// The replays of one reading of the log (`read_picks`), with the splits of its merged searches
/// tried as `judge` describes: the best verdict, its closeness, and how many readings each
/// ambiguous point of the first replay had. Counts replays in `replays`; the unchecked observables
/// and legal options of the very first replay, or of the replay that matches, go to `first_seen`.
fn judge_reading(
    setup: &Setup,
    observed: &Outcome,
    read_picks: &[usize],
    replays: &mut usize,
    look: &Look,
    first_seen: &mut Option<(Vec<Observable>, Vec<crate::offers::Legal>)>,
) -> (Verdict, (usize, usize), Vec<usize>) {
    // The first replay works out only the split of each merged search it takes; when it doesn't
    // match and other splits may be tried, it is made again counting them (the same replay, so
    // not counted twice). Most observations judged match their first replay or can't be matched
    // at all, and listing every legal split was 7.7% of the zone_state fuzz target's time.
    let mut first = judge_with_splits(setup, observed, Reading::new(read_picks, Vec::new(), false), look);
    *replays += 1;
    if first.splits_uncounted && !first.verdict.is_legal() && *replays < look.max_replays() {
        first = judge_with_splits(setup, observed, Reading::new(read_picks, Vec::new(), true), look);
    }
    // The first replay's, unless a later one matches the observation (then that one's).
    if first_seen.is_none() || first.verdict.is_legal() {
        *first_seen = Some((first.unchecked, first.seen));
    }
    let readings = first.read_counts;
    let counts = first.split_counts;
    let mut best_score = closeness(&first.verdict, first.ran);
    let mut best = first.verdict;
    if best.is_legal() || counts.iter().all(|&c| c <= 1) {
        return (best, best_score, readings);
    }
    let mut picks = vec![0; counts.len()];
    // Passes over the merged searches until a pass changes nothing: a later search's split can
    // stop the replay before an earlier one's effects are compared.
    let mut improved = true;
    while improved {
        improved = false;
        for k in 0..counts.len() {
            for alt in 0..counts[k] {
                if alt == picks[k] {
                    continue;
                }
                if *replays >= look.max_replays() {
                    return (best, best_score, readings);
                }
                *replays += 1;
                let mut trial = picks.clone();
                trial[k] = alt;
                let replay = judge_with_splits(setup, observed, Reading::new(read_picks, trial.clone(), true), look);
                let score = closeness(&replay.verdict, replay.ran);
                if replay.verdict.is_legal() {
                    *first_seen = Some((replay.unchecked, replay.seen));
                    return (replay.verdict, score, readings);
                }
                if score < best_score {
                    best_score = score;
                    best = replay.verdict;
                    picks = trial;
                    improved = true;
                }
            }
        }
    }
    (best, best_score, readings)
}

/// What one replay gives.
struct Replay {
    verdict: Verdict,
    /// How many splits each merged search had.
    split_counts: Vec<usize>,
    /// How many readings each ambiguous point of the log had.
    read_counts: Vec<usize>,
    /// Whether the replay ran to the end (so its differences are a full comparison).
    ran: bool,
    /// The observables this replay's outcome involves that the engine doesn't report.
    unchecked: Vec<Observable>,
    /// The legal options at each decision of the replay.
    seen: Vec<crate::offers::Legal>,
    /// Whether a merged search's other splits went uncounted (`count_splits` off).
    splits_uncounted: bool,
}

/// One replay with the given reading of the log and splits; with `count_splits` off, a merged
/// search's splits other than the first are not worked out unless it found only a few cards
/// (`Replay::splits_uncounted` says whether there was one), so `split_counts` holds 1 for it.
/// With a [`ReplayMemo`] for the observation's log, a replay made before with the same reading
/// and splits is taken from it instead of being made again.
fn judge_with_splits(setup: &Setup, observed: &Outcome, reading: Reading, look: &Look) -> Replay {
    // A kept replay's counts are copied into each verdict; a replay not kept gives its own.
    let kept_replay = |run: &ReplayRun, outcome: &LegalOutcome| {
        let (verdict, unchecked) = verdict_of(setup, observed, look, run, Cow::Borrowed(outcome));
        run.counts.clone().into_replay(verdict, unchecked, run)
    };
    if let Some(memo) = look.memo
        && let Some(kept) = memo.runs.borrow().get(&reading).cloned()
    {
        memo.reused.set(memo.reused.get() + 1);
        return kept_replay(&kept.0, &kept.1);
    }
    let (mut run, outcome) = replay(setup, observed, &reading, look);
    match look.memo {
        Some(memo) if !run.read_beyond_log => {
            let kept = Rc::new((run, outcome));
            memo.runs.borrow_mut().insert(reading, kept.clone());
            kept_replay(&kept.0, &kept.1)
        }
        _ => {
            let (verdict, unchecked) = verdict_of(setup, observed, look, &run, Cow::Owned(outcome));
            std::mem::take(&mut run.counts).into_replay(verdict, unchecked, &run)
        }
    }
}

/// How one replay reads the log: which reading to take at each ambiguous point (`read_picks`),
/// which split of each merged search (`split_picks`), and whether to work out every split
/// (`count_splits`). Replays kept in a [`ReplayMemo`] are found by it.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Reading {
    read_picks: Vec<usize>,
    split_picks: Vec<usize>,
    count_splits: bool,
}

impl Reading {
    fn new(read_picks: &[usize], split_picks: Vec<usize>, count_splits: bool) -> Reading {
        Reading { read_picks: read_picks.to_vec(), split_picks, count_splits }
    }
}

/// What a replay's reading found out about the log's ambiguities.
#[derive(Debug, Clone, Default)]
struct Counts {
    split_counts: Vec<usize>,
    read_counts: Vec<usize>,
    seen: Vec<crate::offers::Legal>,
}

impl Counts {
    /// The replay's result, with its verdict on the observation.
    fn into_replay(self, verdict: Verdict, unchecked: Vec<Observable>, run: &ReplayRun) -> Replay {
        Replay {
            verdict,
            split_counts: self.split_counts,
            read_counts: self.read_counts,
            ran: run.ran.is_ok(),
            unchecked,
            seen: self.seen,
            splits_uncounted: run.splits_uncounted,
        }
    }
}

/// A replay made, before it is compared with the observation: the simulator's run with one
/// reading of the log, and what the reading found out.
struct ReplayRun {
    /// How the run ended (a scripted entry blamed for an illegal answer it gave).
    ran: Result<(), SimError>,
    /// The replay's non-empty libraries, by name, to be read from the final game as objects
    /// (its outcome leaves them out).
    libraries: BTreeMap<String, ZoneRef>,
    /// The final game and the run's records, for comparing libraries and naming causes.
    record: Record,
    counts: Counts,
    splits_uncounted: bool,
    /// Whether the reading used more of the observation than its log.
    read_beyond_log: bool,
    /// What the replay's rules decided, for naming differences: worked out when a first
    /// observation differs, then kept for the others judged against this replay.
    causes: OnceCell<Causes>,
}

/// Makes one replay: its run and its outcome, the libraries apart.
fn replay(setup: &Setup, observed: &Outcome, reading: &Reading, look: &Look) -> (ReplayRun, LegalOutcome) {
    let split_picks = reading.split_picks.clone();
    let mut reader = Observed::new(observed, &setup.ids, &reading.read_picks, split_picks, look.observables);
    reader.count_splits = reading.count_splits;
    reader.record_offers = look.record_offers;
    let mut decider = Scripted::new(&setup.script, reader);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    // The replay's libraries are compared as objects (`library::library_matches`) rather than
    // written out as ids, unless there is a difference to name; kept as zones of the final game,
    // not copies of their cards (a library may hold 100 000 cards).
    let (outcome, libraries) = sim.outcome_libraries_apart();
    let record = sim.into_record();
    let reader = &mut decider.inner;
    let run = ReplayRun {
        ran: ran.map_err(|e| blame_script(e, decider.last)),
        libraries,
        record,
        counts: Counts {
            split_counts: std::mem::take(&mut reader.split_counts),
            read_counts: std::mem::take(&mut reader.read_counts),
            seen: std::mem::take(&mut reader.seen),
        },
        splits_uncounted: reader.splits_uncounted,
        read_beyond_log: reader.read_beyond_log.get(),
        causes: OnceCell::new(),
    };
    (run, outcome)
}

/// The verdict of one replay on the observation, and the observables its outcome involves that
/// the engine doesn't report.
fn verdict_of(
    setup: &Setup,
    observed: &Outcome,
    look: &Look,
    run: &ReplayRun,
    outcome: Cow<'_, LegalOutcome>,
) -> (Verdict, Vec<Observable>) {
    let game = &run.record.game;
    let compares_all = look.observables.is_all() && !look.strip_on;
    // An observation equal to the replay has no difference to explain: no causes needed, no copy
    // of it to compare (`Outcome::is_canonically_apart`).
    let matches = compares_all
        && run.ran.is_ok()
        && observed.is_canonically_apart(&outcome.outcome, &outcome.fixed, &run.libraries, |zone, objects, got| {
            let fixed = outcome.fixed.get(zone).unwrap_or(&library::NOTHING_FIXED);
            library::library_matches(game, setup, game.zone(*objects), got, fixed)
        });
    // The replay's whole outcome, to name the differences (none is needed for a match: every
    // observable is compared then, so none is unchecked).
    let expected = (!matches).then(|| crate::sim::with_libraries(game, outcome.into_owned(), &run.libraries));
    let unchecked = expected.as_ref().map(|e| look.observables.unchecked(&e.outcome)).unwrap_or_default();
    let verdict = match (&run.ran, expected) {
        (Ok(()), None) => Verdict::Legal,
        (Ok(()), Some(expected)) => {
            let causes = run.causes.get_or_init(|| Causes::of_record(&run.record));
            let diffs = if compares_all {
                compare(&expected, observed, causes)
            } else {
                // Only what the engine reports is compared: both sides projected alike.
                let mut expected = expected;
                let mut observed = observed.clone();
                look.observables.project(&mut expected.outcome, look.strip_on);
                look.observables.project(&mut observed, look.strip_on);
                let mut causes = causes.clone();
                causes.log = causes
                    .log
                    .iter()
                    .filter_map(|(e, c)| look.observables.project_event(e, look.strip_on).map(|e| (e, *c)))
                    .collect();
                compare(&expected, &observed, &causes)
            };
            if diffs.is_empty() { Verdict::Legal } else { Verdict::Illegal(diffs) }
        }
        (Err(SimError::Illegal { violation, step, .. }), _) => Verdict::Illegal(vec![Difference {
            clause: violation.clause.to_string(),
            message: format!("step {step}: {}", violation.message),
        }]),
        (Err(SimError::NoAnswer { step, message, clause }), _) => Verdict::Illegal(vec![Difference {
            clause: clause.to_string(),
            message: format!("step {step}: {message}"),
        }]),
        (Err(other), _) => Verdict::Error(other.to_string()),
    };
    (verdict, unchecked)
}

/// Replays kept for judging several observations that share one log: the fuzz targets judge an
/// enumerated outcome and then corruptions of it, and two thirds of those corruptions move a card
/// and leave the log as it was (issue 13). A replay depends on the observation only through how
/// its decisions are read, which for most readings is from the log alone; such a replay is kept,
/// by its reading and splits, and compared again with each later observation instead of being
/// made again. A reading that looked at the observation's final zones, `known` or tapped
/// permanents (`Observed::beyond_log`) is not kept. Verdicts are those of [`judge`]; the memo
/// holds one final game per replay kept (at most 64 per observation judged).
pub struct ReplayMemo<'s> {
    setup: &'s Setup,
    log: Vec<LoggedEvent>,
    runs: RefCell<FastMap<Reading, Rc<(ReplayRun, LegalOutcome)>>>,
    reused: std::cell::Cell<usize>,
}

impl<'s> ReplayMemo<'s> {
    /// An empty memo for observations of `setup` whose log is `log`.
    pub fn new(setup: &'s Setup, log: &[LoggedEvent]) -> ReplayMemo<'s> {
        ReplayMemo { setup, log: log.to_vec(), runs: RefCell::new(fast_map(8)), reused: std::cell::Cell::new(0) }
    }

    /// How many replays judgements took from this memo instead of making them.
    pub fn reused(&self) -> usize {
        self.reused.get()
    }

    /// [`judge`] of `observed` against this memo's scenario, reusing the replays kept when
    /// `observed` has the memo's log (and keeping its own).
    pub fn judge(&self, observed: &Outcome) -> Verdict {
        judge_looking(self.setup, observed, &Observables::all(), false, Some(self)).verdict
    }

    /// Whether the replays kept hold for `observed` judged with `observables` and
    /// `record_offers`: the same log, every observable compared and no offers recorded (as
    /// [`ReplayMemo::judge`] judges).
    fn applies(&self, observed: &Outcome, observables: &Observables, record_offers: bool) -> bool {
        observables.is_all() && !record_offers && observed.events == self.log
    }
}
