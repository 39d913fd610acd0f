//! What an engine can report: the observables of an outcome an engine may declare it doesn't
//! report (protocol 2, `hello.supports.observables`).
//!
//! Real engines don't log everything the oracle's reference engine does: one keeps no per-player
//! knowledge, another never says that a search was limited to the top N cards, another moves a
//! card to the top of its library without logging a move. An adapter must never invent what its
//! engine didn't say, so instead the engine declares which observables it reports, and the judge
//! compares exactly those: both the replayed outcome and the observed one are *projected* onto
//! the declared observables before they are compared ([`Observables::project`]), and every
//! report names, per scenario, the observables the scenario's legal outcome involves that could
//! not be checked ([`Observables::unchecked`]) — "PASS, knowledge not observed".
//!
//! The judge still replays the scenario from the engine's log. Most observables here are ones no
//! decision is read from, so leaving them out never changes which choices the replay makes. The
//! exception is `searched`: without it the judge reads what each search found from what the log
//! does with the cards (see [`Observable::Searched`]).

use std::collections::BTreeSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::outcome::{Event, LoggedEvent, Outcome};

/// One observable an engine may or may not report.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Observable {
    /// The outcome's `known` map: which players have seen each card in a hidden zone (400.2,
    /// 701.23e). Without it, "revealed only when told" and "the shuffled cards are new objects
    /// nobody has seen" are not checked.
    Known,
    /// `searched.library_top`: that Aven Mindcensor limited a search to the top N cards (701.23f).
    LibraryTop,
    /// `moved` events from a library to the same library (a card put on top or on the bottom of
    /// the library it was found in; 401.4, 701.24b).
    MovesWithinLibrary,
    /// `looked_at` events (701.20e).
    LookedAt,
    /// `revealed` events that reveal no card (revealing an empty hand, 701.20a).
    RevealedEmpty,
    /// `triggered.on`: the kind of event a trigger fired on (see `protocol::TRIGGER_KINDS`).
    /// Without it triggers are identified by source, controller and triggering player.
    TriggerKind,
    /// `searched` events (701.23): who searched which zones and what they found. Without them
    /// the judge takes a search's found cards to be the cards it could find that the log moves
    /// or reveals in the same step (a card put back on top of its library is seen only with
    /// `moves_within_library`), and a "may search" is read both ways. What the search itself
    /// did is then not checked: that it happened (701.23a), its zones, its top-N limit, and a
    /// found card left where it was.
    Searched,
    /// The outcome's `tapped` list: which permanents are tapped (110.5b; "put onto the
    /// battlefield tapped", {T} costs). Without it whether a fetched land entered tapped is not
    /// checked.
    Tapped,
    /// `cast.targets`: the targets chosen for each spell cast (601.2c). Without them the targets
    /// of a spell cast during a resolution (Guile's exiled spell, a suspended card) are each a
    /// reading the judge tries, and what the log says about any spell's targets is not checked.
    CastTargets,
    /// The outcome's `time_counters`: how many time counters each exiled card has (702.62a).
    /// Without it a suspended card's count is checked only through what it causes (its upkeep
    /// trigger, and the cast when the last one is removed).
    TimeCounters,
}

impl Observable {
    /// Every observable, in report order.
    pub const ALL: [Observable; 10] = [
        Observable::Known,
        Observable::LibraryTop,
        Observable::MovesWithinLibrary,
        Observable::LookedAt,
        Observable::RevealedEmpty,
        Observable::TriggerKind,
        Observable::Searched,
        Observable::Tapped,
        Observable::CastTargets,
        Observable::TimeCounters,
    ];

    /// The name used in `hello` and reports.
    pub fn name(self) -> &'static str {
        match self {
            Observable::Known => "known",
            Observable::LibraryTop => "library_top",
            Observable::MovesWithinLibrary => "moves_within_library",
            Observable::LookedAt => "looked_at",
            Observable::RevealedEmpty => "revealed_empty",
            Observable::TriggerKind => "trigger_kind",
            Observable::Searched => "searched",
            Observable::Tapped => "tapped",
            Observable::CastTargets => "cast_targets",
            Observable::TimeCounters => "time_counters",
        }
    }

    /// How reports say that it wasn't checked ("knowledge not observed").
    pub fn not_observed(self) -> String {
        let what = match self {
            Observable::Known => "knowledge",
            Observable::LibraryTop => "library_top",
            Observable::MovesWithinLibrary => "moves within a library",
            Observable::LookedAt => "looked_at",
            Observable::RevealedEmpty => "empty reveals",
            Observable::TriggerKind => "trigger kinds",
            Observable::Searched => "searches",
            Observable::Tapped => "tapped permanents",
            Observable::CastTargets => "cast targets",
            Observable::TimeCounters => "time counters",
        };
        format!("{what} not observed")
    }
}

impl std::fmt::Display for Observable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The observables an engine reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Observables(BTreeSet<Observable>);

impl Default for Observables {
    /// Everything (protocol 1, and a `hello` that doesn't say).
    fn default() -> Self {
        Observables::all()
    }
}

impl Observables {
    /// Every observable.
    pub fn all() -> Self {
        Observables(Observable::ALL.into_iter().collect())
    }

    /// Exactly these.
    pub fn only(list: &[Observable]) -> Self {
        Observables(list.iter().copied().collect())
    }

    /// From a `hello`: `None` means everything.
    pub fn declared(list: Option<&[Observable]>) -> Self {
        list.map_or_else(Observables::all, Observables::only)
    }

    /// Whether the engine reports `o`.
    pub fn has(&self, o: Observable) -> bool {
        self.0.contains(&o)
    }

    /// True when every observable is reported (nothing is projected away).
    pub fn is_all(&self) -> bool {
        Observable::ALL.iter().all(|o| self.has(*o))
    }

    /// The outcome with what isn't observed removed. Applied to the replayed outcome and to the
    /// observed one alike, so neither side's value of an unobserved detail can make a difference.
    /// `strip_trigger_kinds` also drops `triggered.on` (when the observed outcome leaves it out).
    pub fn project(&self, outcome: &mut Outcome, strip_trigger_kinds: bool) {
        if !self.has(Observable::Known) {
            outcome.known.clear();
        }
        if !self.has(Observable::Tapped) {
            outcome.tapped.clear();
        }
        if !self.has(Observable::TimeCounters) {
            outcome.time_counters.clear();
        }
        let strip_on = strip_trigger_kinds || !self.has(Observable::TriggerKind);
        outcome.events = outcome.events.iter().filter_map(|e| self.project_event(e, strip_on)).collect();
    }

    /// One event as the projection keeps it, or `None` when it isn't observed at all.
    /// `strip_trigger_kinds` drops `triggered.on` as [`Observables::project`] does; so does an
    /// engine that doesn't report trigger kinds, so that a replayed event and its projection in
    /// the outcome stay equal (the judge finds the clause of a missing event by that equality).
    pub fn project_event(&self, e: &LoggedEvent, strip_trigger_kinds: bool) -> Option<LoggedEvent> {
        let strip_on = strip_trigger_kinds || !self.has(Observable::TriggerKind);
        let mut e = e.clone();
        match &mut e.event {
            Event::Searched { .. } if !self.has(Observable::Searched) => return None,
            Event::Searched { library_top, .. } if !self.has(Observable::LibraryTop) => *library_top = None,
            Event::Moved { from, to, .. }
                if !self.has(Observable::MovesWithinLibrary) && from == to && from.ends_with(".library") =>
            {
                return None;
            }
            Event::LookedAt { .. } if !self.has(Observable::LookedAt) => return None,
            Event::Revealed { cards, .. } if cards.is_empty() && !self.has(Observable::RevealedEmpty) => return None,
            Event::Triggered { on, .. } if strip_on => on.clear(),
            Event::Cast { targets, .. } if !self.has(Observable::CastTargets) => targets.clear(),
            _ => {}
        }
        Some(e)
    }

    /// The observables this legal outcome involves that the engine doesn't report: what could
    /// not be checked for this scenario.
    pub fn unchecked(&self, expected: &Outcome) -> Vec<Observable> {
        let involves = |o: Observable| match o {
            Observable::Known => !expected.known.is_empty(),
            Observable::LibraryTop => {
                expected.events.iter().any(|e| matches!(e.event, Event::Searched { library_top: Some(_), .. }))
            }
            Observable::MovesWithinLibrary => expected
                .events
                .iter()
                .any(|e| matches!(&e.event, Event::Moved { from, to, .. } if from == to && from.ends_with(".library"))),
            Observable::LookedAt => expected.events.iter().any(|e| matches!(e.event, Event::LookedAt { .. })),
            Observable::RevealedEmpty => {
                expected.events.iter().any(|e| matches!(&e.event, Event::Revealed { cards, .. } if cards.is_empty()))
            }
            Observable::TriggerKind => expected.events.iter().any(|e| matches!(e.event, Event::Triggered { .. })),
            Observable::Searched => expected.events.iter().any(|e| matches!(e.event, Event::Searched { .. })),
            Observable::Tapped => !expected.tapped.is_empty(),
            Observable::TimeCounters => !expected.time_counters.is_empty(),
            Observable::CastTargets => {
                expected.events.iter().any(|e| matches!(&e.event, Event::Cast { targets, .. } if !targets.is_empty()))
            }
        };
        Observable::ALL.into_iter().filter(|&o| !self.has(o) && involves(o)).collect()
    }
}
