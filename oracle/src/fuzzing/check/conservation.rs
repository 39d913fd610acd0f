//! Conservation: every card of the scenario is in exactly one place, and no other card appears.

use crate::fuzzing::CheckFailure;
use crate::model::{FastMap, fast_map};
use crate::outcome::{Event, Outcome};
use crate::scenario::Setup;

use super::fail;

/// Conservation: no card is created or lost, and no card is in two places. Every id an outcome
/// lists, in zones or events, is one of the scenario's.
pub fn conservation(setup: &Setup, o: &Outcome) -> Result<(), CheckFailure> {
    // The common case first, by hash alone: every card listed once, and as many of them as the
    // scenario has, all of its ids among them — then the listed cards are exactly the scenario's.
    // Looking each one up in the scenario's sorted ids compared strings a few times per card, for
    // every outcome (2% of the `search_request` fuzz target's instructions). Anything else is
    // worked out card by card below, to name what is wrong.
    let mut listed: FastMap<&str, ()> = fast_map(setup.ids.len());
    let mut once = true;
    for (zone, cards) in &o.zones {
        for c in cards.iter().filter(|c| !(zone == "stack" && c.starts_with("ability:"))) {
            once &= listed.insert(c.as_str(), ()).is_none();
        }
    }
    if once && listed.len() == setup.ids.len() && setup.ids.keys().all(|id| listed.contains_key(id.as_str())) {
        return events_name_cards(setup, o, |c| listed.contains_key(c));
    }
    let mut seen: FastMap<&str, &str> = fast_map(setup.ids.len());
    for (zone, cards) in &o.zones {
        for c in cards {
            if zone == "stack" && c.starts_with("ability:") {
                continue;
            }
            if !setup.ids.contains_key(c) {
                return Err(fail("conservation", format!("{zone} holds `{c}`, which is not a card of the scenario")));
            }
            if let Some(other) = seen.insert(c, zone) {
                return Err(fail("conservation", format!("`{c}` is listed in both {other} and {zone}")));
            }
        }
    }
    // Every id listed is one of the scenario's, once: a card is lost exactly when fewer are listed.
    if seen.len() < setup.ids.len()
        && let Some(lost) = setup.ids.keys().find(|id| !seen.contains_key(id.as_str()))
    {
        return Err(fail("conservation", format!("`{lost}` is in no zone: a card was lost")));
    }
    events_name_cards(setup, o, |c| setup.ids.contains_key(c))
}

/// Every card an event of `o` names is one of the scenario's (`is_scenario_card`) or one the run
/// made (a token, a copy).
fn events_name_cards(setup: &Setup, o: &Outcome, is_scenario_card: impl Fn(&str) -> bool) -> Result<(), CheckFailure> {
    for e in &o.events {
        let cards: &[String] = match &e.event {
            Event::Cast { card, .. }
            | Event::Activated { card, .. }
            | Event::Moved { card, .. }
            | Event::Chose { card, .. }
            | Event::Sacrificed { card, .. }
            | Event::Counters { card, .. }
            | Event::Discarded { card, .. }
            | Event::Dredged { card, .. }
            | Event::Created { card, .. }
            | Event::Refused { card, .. } => std::slice::from_ref(card),
            Event::Searched { found, .. } => found,
            Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards,
            Event::Triggered { source, .. } => std::slice::from_ref(source),
            // A copy names the copy and its original (checked below).
            Event::Copied { card, .. } => std::slice::from_ref(card),
            Event::Shuffled { .. } | Event::LostLife { .. } | Event::GainedLife { .. } | Event::Named { .. } => &[],
        };
        let original = match &e.event {
            Event::Copied { of, .. } => std::slice::from_ref(of),
            _ => &[],
        };
        if let Some(c) = cards
            .iter()
            .chain(original)
            .find(|c| !is_scenario_card(c.as_str()) && !crate::scenario::is_run_time_id(setup, c))
        {
            return Err(fail(
                "conservation",
                format!("a `{}` event names `{c}`, not a card of the scenario", e.event.kind()),
            ));
        }
    }
    Ok(())
}
