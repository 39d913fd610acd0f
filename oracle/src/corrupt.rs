//! Outcomes as an engine might report them: concrete shuffles, and single-step corruptions.
//!
//! The agreement checks (judge ⇔ enumerator) use both: every legal outcome, reported with any
//! shuffle order, must be accepted; every single-step change of it must be accepted exactly when
//! it lands on another legal outcome.

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use std::collections::{BTreeMap, BTreeSet};

use crate::outcome::{Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome};

/// `legal` as an engine could report it: the random middle of each library in a random order
/// and the events within each step reordered (keeping the searches' relative order, 701.23i).
pub fn concretize(legal: &LegalOutcome, seed: u64) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = legal.outcome.clone();
    for (zone, cards) in out.zones.iter_mut() {
        if let Some(fixed) = legal.fixed.get(zone) {
            let len = cards.len();
            let top = fixed.top().min(len);
            let bottom = fixed.bottom().min(len - top);
            for range in fixed.top_ranges(len).into_iter().chain(fixed.bottom_ranges(len)) {
                cards[range].shuffle(&mut rng);
            }
            cards[top..len - bottom].shuffle(&mut rng);
        } else if zone != "stack" {
            cards.shuffle(&mut rng);
        }
    }
    // Within each step, shuffle the events whose order is free and keep the relative order of
    // searches, of triggers and of casts (701.23i, 603.3b, 101.4c), merging the runs at random.
    let mut by_step: BTreeMap<usize, [Vec<LoggedEvent>; 4]> = BTreeMap::new();
    for e in out.events.drain(..) {
        let lane = match e.event {
            Event::Searched { .. } => 0,
            Event::Triggered { .. } => 1,
            Event::Cast { .. } => 2,
            _ => 3,
        };
        by_step.entry(e.step).or_default()[lane].push(e);
    }
    for (_, mut lanes) in by_step {
        lanes[3].shuffle(&mut rng);
        let mut queues: Vec<std::collections::VecDeque<LoggedEvent>> = lanes.into_iter().map(Into::into).collect();
        while queues.iter().any(|q| !q.is_empty()) {
            let open: Vec<usize> = (0..queues.len()).filter(|&i| !queues[i].is_empty()).collect();
            let lane = open[rng.random_range(0..open.len())];
            if let Some(e) = queues[lane].pop_front() {
                out.events.push(e);
            }
        }
    }
    out
}

/// Single-step changes of an outcome, each with a description.
pub fn corruptions(o: &Outcome) -> Vec<(String, Outcome)> {
    let mut out = Vec::new();
    let zones: Vec<String> = o.zones.keys().cloned().chain(["exile".to_string()]).collect();
    // Move one card to another zone.
    for (zone, cards) in &o.zones {
        for (i, card) in cards.iter().enumerate().take(4) {
            for other in zones.iter().filter(|z| *z != zone).take(3) {
                let mut c = o.clone();
                if let Some(v) = c.zones.get_mut(zone) {
                    v.remove(i);
                }
                c.zones.entry(other.clone()).or_default().insert(0, card.clone());
                out.push((format!("move {card} from {zone} to {other}"), c));
            }
        }
    }
    // List one card in a second zone as well.
    for (zone, cards) in &o.zones {
        if let (Some(card), Some(other)) = (cards.first(), zones.iter().find(|z| *z != zone)) {
            let mut c = o.clone();
            c.zones.entry(other.clone()).or_default().push(card.clone());
            out.push((format!("list {card} in {other} too"), c));
        }
    }
    // Swap the top two cards of a library.
    for (zone, cards) in &o.zones {
        if zone.ends_with(".library") && cards.len() >= 2 {
            let mut c = o.clone();
            if let Some(v) = c.zones.get_mut(zone) {
                v.swap(0, 1);
            }
            out.push((format!("swap the top two cards of {zone}"), c));
        }
    }
    // Drop or duplicate one event.
    for i in 0..o.events.len() {
        let mut c = o.clone();
        let e = c.events.remove(i);
        out.push((format!("drop event {i} ({})", e.event.kind()), c));
        let mut d = o.clone();
        d.events.insert(i, o.events[i].clone());
        out.push((format!("duplicate event {i} ({})", o.events[i].event.kind()), d));
    }
    // Change what a search found; reveal what it found.
    for (i, e) in o.events.iter().enumerate() {
        if let Event::Searched { player, found, .. } = &e.event {
            if let Some(first) = found.first() {
                let mut c = o.clone();
                if let Event::Searched { found, .. } = &mut c.events[i].event {
                    found.remove(0);
                }
                out.push((format!("search {i} did not find {first}"), c));
                let mut r = o.clone();
                r.events.insert(
                    i + 1,
                    LoggedEvent {
                        step: e.step,
                        event: Event::Revealed { player: player.clone(), cards: vec![first.clone()] },
                    },
                );
                out.push((format!("reveal {first}"), r));
            }
            for (zone, cards) in &o.zones {
                if let Some(extra) = cards.iter().find(|c| !found.contains(c)) {
                    let mut c = o.clone();
                    if let Event::Searched { found, .. } = &mut c.events[i].event {
                        found.push(extra.clone());
                    }
                    out.push((format!("search {i} also found {extra} (in {zone})"), c));
                    break;
                }
            }
        }
    }
    // Knowledge and life.
    if let Some((card, who)) = o.known.iter().next() {
        let mut c = o.clone();
        c.known.remove(card);
        out.push((format!("nobody knows {card} (was {who:?})"), c));
    }
    for (zone, cards) in &o.zones {
        if (zone.ends_with(".hand") || zone.ends_with(".library")) && !cards.is_empty() {
            let mut c = o.clone();
            let names: Vec<String> = o.life.keys().cloned().collect();
            c.known.insert(cards[0].clone(), names);
            out.push((format!("everyone knows {}", cards[0]), c));
            break;
        }
    }
    if let Some((p, l)) = o.life.iter().next() {
        let mut c = o.clone();
        c.life.insert(p.clone(), l - 1);
        out.push((format!("{p} lost a life"), c));
    }
    out
}

/// True if `observed` is one of the explored outcomes (compared in each legal outcome's
/// canonical form; there are few distinct sets of fixed positions, so this is a few lookups).
pub fn is_member(observed: &Outcome, legal: &BTreeMap<Outcome, LegalOutcome>) -> bool {
    let shapes: BTreeSet<&BTreeMap<String, FixedPositions>> = legal.values().map(|l| &l.fixed).collect();
    shapes.into_iter().any(|fixed| legal.get(&observed.canonical(fixed)).is_some_and(|l| &l.fixed == fixed))
}
