//! Checking a scenario's expectations against its set of legal outcomes.

use crate::explore::Exploration;
use crate::outcome::{Event, LegalOutcome, canonical_graveyard, canonical_library, is_ordered_zone};
use crate::scenario::format::{Assertion, Scenario};
use crate::verdict::quoted_list;

/// True if `assertion` holds in `outcome`. `names_of` gives a card id's names, for `count`.
pub fn holds(assertion: &Assertion, outcome: &LegalOutcome, names_of: &dyn Fn(&str) -> Vec<String>) -> bool {
    let o = &outcome.outcome;
    match assertion {
        Assertion::Zone { card, zone } => o.zones.get(zone).is_some_and(|cards| cards.contains(card)),
        Assertion::Count { zone, name, count } => {
            let cards = o.zones.get(zone).map(Vec::as_slice).unwrap_or(&[]);
            let n = match name {
                None => cards.len(),
                Some(name) => cards.iter().filter(|c| names_of(c).contains(name)).count(),
            };
            n == *count
        }
        Assertion::Top { player, cards } => {
            let zone = format!("{player}.library");
            let fixed = outcome.fixed.get(&zone).cloned().unwrap_or_default();
            let lib = o.zones.get(&zone).map(Vec::as_slice).unwrap_or(&[]);
            // Cards put on top together may be in any order (401.4): compare group by group.
            let mut want = cards.clone();
            for range in fixed.top_ranges(want.len()) {
                want[range].sort_unstable();
            }
            cards.len() <= fixed.top() && lib.len() >= cards.len() && lib[..cards.len()] == want[..]
        }
        Assertion::Shuffled { player } => {
            let zone = format!("{player}.library");
            let len = o.zones.get(&zone).map_or(0, Vec::len);
            // Shuffled at some point, and some positions are still random (an empty or one-card
            // library counts once it has been shuffled, 701.24e).
            let fixed = outcome.fixed.get(&zone).cloned().unwrap_or_default();
            let was_shuffled =
                o.events.iter().any(|e| matches!(&e.event, Event::Shuffled { library } if library == player));
            was_shuffled && (fixed.top() + fixed.bottom() < len || len <= 1)
        }
        Assertion::Known { card, to } => {
            let mut want = to.clone();
            want.sort();
            o.known.get(card).cloned().unwrap_or_default() == want
        }
        Assertion::Life { player, life } => o.life.get(player) == Some(life),
        Assertion::Counters { card, count } => o.counters.get(card).copied().unwrap_or(0) == *count,
        Assertion::Tapped { card, tapped } => o.tapped.contains(card) == *tapped,
        Assertion::Events { kind, player, card, zone, library_top, count } => {
            let n = o
                .events
                .iter()
                .filter(|e| e.event.kind() == kind)
                .filter(|e| player.as_ref().is_none_or(|p| actor(&e.event).as_deref() == Some(p.as_str())))
                .filter(|e| card.as_ref().is_none_or(|c| cards_of(&e.event).contains(c)))
                .filter(|e| {
                    zone.as_ref().is_none_or(|z| matches!(&e.event, Event::Searched { zones, .. } if zones.contains(z)))
                })
                .filter(|e| {
                    library_top.is_none_or(
                        |n| matches!(&e.event, Event::Searched { library_top: top, .. } if top.unwrap_or(0) == n),
                    )
                })
                .count();
            n == *count
        }
        Assertion::SearchOrder { players } => {
            let order: Vec<&String> = o
                .events
                .iter()
                .filter_map(|e| match &e.event {
                    Event::Searched { player, .. } => Some(player),
                    _ => None,
                })
                .collect();
            order.len() == players.len() && order.iter().zip(players).all(|(a, b)| *a == b)
        }
    }
}

fn actor(e: &Event) -> Option<String> {
    match e {
        Event::Cast { player, .. }
        | Event::Activated { player, .. }
        | Event::Searched { player, .. }
        | Event::Revealed { player, .. }
        | Event::Chose { player, .. }
        | Event::Sacrificed { player, .. }
        | Event::LostLife { player, .. }
        | Event::LookedAt { player, .. }
        | Event::Discarded { player, .. }
        | Event::Dredged { player, .. }
        | Event::Named { player, .. }
        | Event::Created { player, .. }
        | Event::GainedLife { player, .. }
        | Event::Refused { player, .. } => Some(player.clone()),
        Event::Shuffled { library } => Some(library.clone()),
        Event::Triggered { controller, .. } => Some(controller.clone()),
        Event::Moved { .. } | Event::Counters { .. } => None,
    }
}

fn cards_of(e: &Event) -> Vec<String> {
    match e {
        Event::Cast { card, .. }
        | Event::Activated { card, .. }
        | Event::Moved { card, .. }
        | Event::Chose { card, .. }
        | Event::Sacrificed { card, .. }
        | Event::Counters { card, .. }
        | Event::Discarded { card, .. }
        | Event::Dredged { card, .. }
        | Event::Created { card, .. }
        | Event::Refused { card, .. } => vec![card.clone()],
        Event::Searched { found, .. } => found.clone(),
        Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.clone(),
        Event::Triggered { source, targets, .. } => {
            std::iter::once(source.clone()).chain(targets.iter().cloned()).collect()
        }
        Event::Named { name, .. } => vec![name.clone()],
        Event::Shuffled { .. } | Event::LostLife { .. } | Event::GainedLife { .. } => Vec::new(),
    }
}

/// Checks every expectation; returns the failures, each as `(path, message)`.
pub fn check(
    scenario: &Scenario,
    exploration: &Exploration,
    names_of: &dyn Fn(&str) -> Vec<String>,
) -> Vec<(String, String)> {
    let e = &scenario.expect;
    let outcomes: Vec<&LegalOutcome> = exploration.outcomes.values().collect();
    let mut failures = Vec::new();
    if let Some(n) = e.outcomes
        && n != outcomes.len()
    {
        failures
            .push(("expect.outcomes".to_string(), format!("expected {n} legal outcome(s), found {}", outcomes.len())));
    }
    for (i, a) in e.always.iter().enumerate() {
        if let Some(bad) = outcomes.iter().position(|o| !holds(a, o, names_of)) {
            failures.push((format!("expect.always[{i}]"), format!("fails in legal outcome #{}", bad + 1)));
        }
    }
    for (i, a) in e.sometimes.iter().enumerate() {
        if !outcomes.iter().any(|o| holds(a, o, names_of)) {
            failures.push((format!("expect.sometimes[{i}]"), "holds in no legal outcome".to_string()));
        }
    }
    for (i, a) in e.never.iter().enumerate() {
        if let Some(bad) = outcomes.iter().position(|o| holds(a, o, names_of)) {
            failures.push((format!("expect.never[{i}]"), format!("holds in legal outcome #{}", bad + 1)));
        }
    }
    if let Some(fin) = &e.final_zones {
        if outcomes.len() != 1 {
            failures.push((
                "expect.final".to_string(),
                format!("`final` needs exactly one legal outcome; there are {}", outcomes.len()),
            ));
        } else {
            let o = outcomes[0];
            let mut want = fin.clone();
            want.retain(|_, v| !v.is_empty());
            for (zone, cards) in want.iter_mut() {
                if zone.ends_with(".library") {
                    canonical_library(cards, &o.fixed.get(zone).cloned().unwrap_or_default());
                } else if zone.ends_with(".graveyard") {
                    canonical_graveyard(cards, o.fixed.get(zone));
                } else if !is_ordered_zone(zone) {
                    cards.sort_unstable(); // compared as a set, like the outcome
                }
            }
            for zone in want.keys().chain(o.outcome.zones.keys()).collect::<std::collections::BTreeSet<_>>() {
                let (w, g) = (want.get(zone), o.outcome.zones.get(zone));
                if w != g {
                    failures.push((
                        format!("expect.final[{zone}]"),
                        format!(
                            "expected {}, the outcome has {}",
                            quoted_list(w.map_or(&[][..], Vec::as_slice)),
                            quoted_list(g.map_or(&[][..], Vec::as_slice))
                        ),
                    ));
                }
            }
        }
    }
    failures
}
