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

use std::cell::OnceCell;

use crate::observables::{Observable, Observables};
use crate::outcome::{Event, Outcome};
use crate::scenario::Setup;
use crate::sim::script::{Scripted, blame_script};
use crate::sim::{Sim, SimError};
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
    judge_looking(setup, observed, &Observables::all(), false).verdict
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
    judge_looking(setup, observed, observables, true)
}

/// [`judge_observing`]; its `decisions` are listed only with `record_offers` (else empty).
fn judge_looking(setup: &Setup, observed: &Outcome, observables: &Observables, record_offers: bool) -> Judged {
    // An outcome that names no trigger kinds is judged without them.
    let strip_on = observed.events.iter().any(|e| matches!(&e.event, Event::Triggered { on, .. } if on.is_empty()));
    let look = Look { observables, strip_on, setup, observed, unmatchable: OnceCell::new(), record_offers };
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
    let mut first = judge_with_splits(setup, observed, read_picks, Vec::new(), look, false);
    *replays += 1;
    if first.splits_uncounted && !first.verdict.is_legal() && *replays < look.max_replays() {
        first = judge_with_splits(setup, observed, read_picks, Vec::new(), look, true);
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
                let replay = judge_with_splits(setup, observed, read_picks, trial.clone(), look, true);
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
fn judge_with_splits(
    setup: &Setup,
    observed: &Outcome,
    read_picks: &[usize],
    split_picks: Vec<usize>,
    look: &Look,
    count_splits: bool,
) -> Replay {
    let mut reader = Observed::new(observed, &setup.ids, read_picks, split_picks, look.observables);
    reader.count_splits = count_splits;
    reader.record_offers = look.record_offers;
    let mut decider = Scripted::new(&setup.script, reader);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    let compares_all = look.observables.is_all() && !look.strip_on;
    // An observation equal to the replay has no difference to explain: no causes needed, no copy
    // of it to compare (`Outcome::is_canonically_apart`), and the replay's libraries compared as
    // objects (`library::library_matches`) rather than written out as ids.
    let (outcome, libraries) = sim.outcome_libraries_apart();
    let matches = compares_all
        && ran.is_ok()
        && observed.is_canonically_apart(&outcome.outcome, &outcome.fixed, &libraries, |zone, want, got| {
            let fixed = outcome.fixed.get(zone).unwrap_or(&library::NOTHING_FIXED);
            library::library_matches(&sim.game, setup, want, got, fixed)
        });
    // The replay's whole outcome, to name the differences (none is needed for a match: every
    // observable is compared then, so none is unchecked).
    let expected = if matches { None } else { Some(sim.with_libraries(outcome, libraries)) };
    let causes = if matches { Causes::default() } else { Causes::of(&sim) };
    drop(sim);
    let split_counts = std::mem::take(&mut decider.inner.split_counts);
    let read_counts = std::mem::take(&mut decider.inner.read_counts);
    let seen = std::mem::take(&mut decider.inner.seen);
    let splits_uncounted = decider.inner.splits_uncounted;
    let ran_through = ran.is_ok();
    let unchecked = expected.as_ref().map(|e| look.observables.unchecked(&e.outcome)).unwrap_or_default();
    let verdict = match (ran.map_err(|e| blame_script(e, decider.last)), expected) {
        (Ok(()), None) => Verdict::Legal,
        (Ok(()), Some(expected)) => {
            let diffs = if compares_all {
                compare(&expected, observed, &causes)
            } else {
                // Only what the engine reports is compared: both sides projected alike.
                let mut expected = expected;
                let mut observed = observed.clone();
                look.observables.project(&mut expected.outcome, look.strip_on);
                look.observables.project(&mut observed, look.strip_on);
                let mut causes = causes;
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
    Replay { verdict, split_counts, read_counts, ran: ran_through, unchecked, seen, splits_uncounted }
}
