//! What the replay decided, to name the first cause of each difference.

use std::collections::BTreeMap;

use crate::model::ObjId;
use crate::outcome::{Event, LoggedEvent};
use crate::rules::verdicts;
use crate::sim::Record;

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
    pub fn of_record(record: &Record) -> Causes {
        let Record { game, log, log_clauses, last_move, decisions } = record;
        let id = |o: ObjId| game.obj(o).id_string();
        Causes {
            log: log
                .iter()
                .map(|e| LoggedEvent { step: e.step, event: e.event.normalized() })
                .zip(log_clauses.iter().copied())
                .collect(),
            decisions: decisions
                .iter()
                .map(|d| (d.step, d.at, d.clause, d.cards.iter().map(|&o| id(o)).collect()))
                .collect(),
            moves: last_move.iter().map(|(&o, cause)| (id(o), cause.clause)).collect(),
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
        // 707.10: a copy of a spell the replay put on the stack is not cast, so neither is it
        // logged as cast nor do its "when you cast" abilities (gravestorm's own) trigger.
        let copy = match &e.event {
            Event::Cast { card, .. } | Event::Triggered { source: card, .. } => Some(card),
            _ => None,
        };
        if let Some(card) = copy
            && let Some(i) =
                self.log.iter().position(|(l, _)| matches!(&l.event, Event::Copied { card: c, .. } if c == card))
        {
            return (event_key(i) + 1, "707.10");
        }
        if let Some((_, at, clause, _)) = self.decisions.iter().find(|d| d.0 == e.step) {
            return (2 * *at as u64, clause);
        }
        // A card moved that the rules leave where it is: the instruction that moved cards of the
        // same kind of zone to the same zone in that step is the one applied to too many cards
        // (Ashiok's "exile each opponent's graveyard" exiling its controller's too, 701.13a).
        if let Event::Moved { from, to, .. } = &e.event
            && let Some((i, clause)) = self.like_move(Some(e.step), from, to)
        {
            return (event_key(i) + 1, clause);
        }
        let end = self.log.iter().position(|(l, _)| l.step > e.step).unwrap_or(self.log.len());
        // A spell cast while a search resolves, by nobody the rules let cast it then: the only
        // such permission is a card's own while its owner searches their library (Panglacial
        // Wurm), so the cast broke 601.3 (a spell may be cast only when a rule or effect allows
        // it), not the general casting rules.
        if let Event::Cast { flashback: false, without_paying_mana_cost: false, .. } = e.event
            && self.log.iter().any(|(l, _)| l.step == e.step && matches!(l.event, Event::Searched { .. }))
        {
            return (2 * end as u64, "601.3");
        }
        let (flashback, free) = match e.event {
            Event::Cast { flashback, without_paying_mana_cost, .. } => (flashback, without_paying_mana_cost),
            _ => (false, false),
        };
        (2 * end as u64, verdicts::unexpected_event_clause(e.event.kind(), flashback, free))
    }

    /// The last replayed move (its log index and clause) from a zone of the same kind as `from`
    /// (`Bob.graveyard` is like `Alice.graveyard`) to `to`, in `step` if given: the instruction an
    /// engine most likely applied to a card the rules don't move.
    pub(super) fn like_move(&self, step: Option<usize>, from: &str, to: &str) -> Option<(usize, &'static str)> {
        let kind = |z: &str| z.rsplit_once('.').map_or(z, |(_, k)| k).to_string();
        let from_kind = kind(from);
        self.log.iter().enumerate().rev().find_map(|(i, (l, clause))| match &l.event {
            Event::Moved { from: f, to: t, .. }
                if step.is_none_or(|s| s == l.step) && t == to && kind(f) == from_kind =>
            {
                Some((i, *clause))
            }
            _ => None,
        })
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
    // The commonest events read directly, as the generic reading below reads them (a field's
    // JSON text): serialising every event of the log into a `Value` was a quarter of comparing
    // an outcome with differences. Every other kind is read generically.
    let json = |s: &str| serde_json::to_string(s).unwrap_or_default();
    match e {
        Event::Moved { card, .. } | Event::Cast { card, .. } => return json(card),
        Event::Shuffled { library } => return json(library),
        Event::Searched { player, .. } | Event::Revealed { player, .. } | Event::LookedAt { player, .. } => {
            return json(player);
        }
        Event::Triggered { source, on, player, .. } => {
            return if !on.is_empty() {
                format!("{}/{}", json(source), json(on))
            } else {
                player.as_deref().map(json).unwrap_or_default()
            };
        }
        _ => {}
    }
    actor_of_fields(e)
}

/// [`actor`] read off the event's serialised fields: a trigger's `source` and `on`, else the
/// first of `card`, `library`, `player`, `token`.
fn actor_of_fields(e: &Event) -> String {
    let v = serde_json::to_value(e).unwrap_or_default();
    let field = |k: &str| v.get(k).map(|x| x.to_string());
    match (field("source"), field("on")) {
        (Some(s), Some(on)) => format!("{s}/{on}"),
        _ => ["card", "library", "player", "token"].iter().find_map(|k| field(k)).unwrap_or_default(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_direct_reading_of_an_actor_is_the_generic_one() {
        let s = |x: &str| x.to_string();
        let events = [
            Event::Moved { card: s("a\"b"), from: s("Bob.library"), to: s("battlefield") },
            Event::Cast {
                player: s("Bob"),
                card: s("c"),
                face: None,
                flashback: false,
                without_paying_mana_cost: false,
                x: None,
                targets: vec![s("Ann")],
            },
            Event::Shuffled { library: s("Bob.library") },
            Event::Searched { player: s("Bob"), zones: vec![s("Bob.library")], library_top: None, found: vec![s("c")] },
            Event::Revealed { player: s("Ann"), cards: vec![s("c")] },
            Event::LookedAt { player: s("Ann"), cards: Vec::new() },
            Event::Triggered {
                source: s("t"),
                controller: s("Bob"),
                on: s("enters"),
                player: None,
                targets: Vec::new(),
            },
            Event::Triggered {
                source: s("t"),
                controller: s("Bob"),
                on: String::new(),
                player: Some(s("Ann")),
                targets: Vec::new(),
            },
            Event::Triggered {
                source: s("t"),
                controller: s("Bob"),
                on: String::new(),
                player: None,
                targets: vec![s("x")],
            },
        ];
        for e in &events {
            assert_eq!(actor(e), actor_of_fields(e), "{e:?}");
        }
    }
}
