//! What the replay decided, to name the first cause of each difference.

use std::collections::BTreeMap;

use crate::model::ObjId;
use crate::outcome::{Event, LoggedEvent};
use crate::rules::verdicts;
use crate::sim::Sim;

/// What the replay decided, to name the first cause of a difference: every logged event with the
/// clause that decided it, every rule decision that prevented or replaced events
/// ([`crate::sim::RuleDecision`]), and the clause of each card's last move.
#[derive(Debug, Clone, Default)]
pub struct Causes {
    /// The replayed log, normalized, in order, each event with its clause.
    pub log: Vec<(LoggedEvent, &'static str)>,
    /// Rule decisions: step, log position (before the event at that index), clause, card ids.
    pub decisions: Vec<(usize, usize, &'static str, Vec<String>)>,
    /// The clause of the instruction that last moved each card.
    pub moves: BTreeMap<String, &'static str>,
    /// The actor of each event of `log` ([`actor`]), worked out once, when an unexpected event
    /// first needs its counterpart (an outcome with many extra events would otherwise
    /// serialize the log once per event).
    actors: std::cell::OnceCell<Vec<String>>,
}

impl Causes {
    /// The causes recorded by a finished replay.
    pub fn of(sim: &Sim) -> Causes {
        let id = |o: ObjId| sim.game.obj(o).id.clone();
        Causes {
            log: sim
                .log
                .iter()
                .map(|e| LoggedEvent { step: e.step, event: e.event.normalized() })
                .zip(sim.log_clauses.iter().copied())
                .collect(),
            decisions: sim
                .decisions
                .iter()
                .map(|d| (d.step, d.at, d.clause, d.cards.iter().map(|&o| id(o)).collect()))
                .collect(),
            moves: sim.last_move.iter().map(|(&o, cause)| (id(o), cause.clause)).collect(),
            actors: std::cell::OnceCell::new(),
        }
    }

    /// Where an event missing from the observation parts ways: its position in the replay and
    /// the clause that decided it.
    pub(super) fn missing(&self, e: &LoggedEvent) -> (u64, &'static str) {
        match self.log.iter().position(|(l, _)| l == e) {
            Some(i) => (event_key(i), self.log[i].1),
            None => (u64::MAX / 2, "608.2"),
        }
    }

    /// Where an event the rules don't produce parts ways: the replayed event it stands for (the
    /// same kind of event by the same actor in the same step — preferring one that is itself
    /// missing — whose clause decided what should have happened); else the first rule decision
    /// of the step that prevented or replaced events; else the end of the step, with the clause
    /// of that kind of event.
    pub(super) fn extra(&self, e: &LoggedEvent, missing: &BTreeMap<&LoggedEvent, i64>) -> (u64, &'static str) {
        let who = actor(&e.event);
        let actors = self.actors.get_or_init(|| self.log.iter().map(|(l, _)| actor(&l.event)).collect());
        let same = |i: usize, l: &LoggedEvent| l.step == e.step && l.event.kind() == e.event.kind() && actors[i] == who;
        let counterpart = self
            .log
            .iter()
            .enumerate()
            .filter(|(i, (l, _))| same(*i, l))
            .min_by_key(|(_, (l, _))| missing.get(l).is_none_or(|n| *n <= 0));
        if let Some((i, (_, clause))) = counterpart {
            return (event_key(i) + 1, clause);
        }
        // 707.10: a copy of a spell the replay put on the stack is not cast.
        if let Event::Cast { card, .. } = &e.event
            && let Some(i) =
                self.log.iter().position(|(l, _)| matches!(&l.event, Event::Copied { card: c, .. } if c == card))
        {
            return (event_key(i) + 1, "707.10");
        }
        if let Some((_, at, clause, _)) = self.decisions.iter().find(|d| d.0 == e.step) {
            return (2 * *at as u64, clause);
        }
        let end = self.log.iter().position(|(l, _)| l.step > e.step).unwrap_or(self.log.len());
        let (flashback, free) = match e.event {
            Event::Cast { flashback, without_paying_mana_cost, .. } => (flashback, without_paying_mana_cost),
            _ => (false, false),
        };
        (2 * end as u64, verdicts::unexpected_event_clause(e.event.kind(), flashback, free))
    }

    /// The clause of the last rule decision that set what players know of `card` (now in
    /// `zone`): a shuffle of its library, a reveal, a look, a search of its hand, a reordering, a
    /// move that decides it (face-down exile, 406.3). `None` when there is none, or only a move by
    /// a plain instruction.
    pub(super) fn knowledge(&self, card: &str, zone: Option<&str>) -> Option<&'static str> {
        let library = zone.and_then(|z| z.strip_suffix(".library"));
        let mut last: Option<(u64, &'static str)> = None;
        for (i, (l, clause)) in self.log.iter().enumerate() {
            let touches = match &l.event {
                Event::Shuffled { library: lib } => library == Some(lib.as_str()),
                Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.iter().any(|c| c == card),
                Event::Searched { zones, .. } => {
                    zone.is_some_and(|z| z.ends_with(".hand") && zones.iter().any(|s| s == z))
                }
                Event::Moved { card: c, .. } => c == card,
                _ => false,
            };
            // A move by a plain instruction doesn't decide who knows the card; an earlier
            // decision (a reordering before a draw) still does.
            if touches && !(matches!(l.event, Event::Moved { .. }) && verdicts::GENERIC_MOVE_CLAUSES.contains(clause)) {
                // A searcher knows a searched hand because searching looks at every card (701.23a).
                let clause = if matches!(l.event, Event::Searched { .. }) { "701.23a" } else { clause };
                last = Some((event_key(i), clause));
            }
        }
        for (_, at, clause, cards) in &self.decisions {
            if cards.iter().any(|c| c == card) && last.is_none_or(|(k, _)| 2 * *at as u64 >= k) {
                last = Some((2 * *at as u64, clause));
            }
        }
        last.map(|(_, c)| c)
    }
}

/// The sort key of a replayed event at log index `i`; a rule decision made before it sorts first.
fn event_key(i: usize) -> u64 {
    2 * i as u64 + 1
}

/// Who or what an event is about, to match an unexpected event with the replayed one it stands
/// for: a trigger's source and event, else the card, library or player.
fn actor(e: &Event) -> String {
    let v = serde_json::to_value(e).unwrap_or_default();
    let field = |k: &str| v.get(k).map(|x| x.to_string());
    match (field("source"), field("on")) {
        (Some(s), Some(on)) => format!("{s}/{on}"),
        _ => ["card", "library", "player", "token"].iter().find_map(|k| field(k)).unwrap_or_default(),
    }
}
