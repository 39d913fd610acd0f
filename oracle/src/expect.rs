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
        Assertion::Events { kind, player, controller, card, zone, library_top, count } => {
            let n = o
                .events
                .iter()
                .filter(|e| e.event.kind() == kind)
                .filter(|e| player.as_ref().is_none_or(|p| actor(&e.event).as_deref() == Some(p.as_str())))
                .filter(|e| controller.as_ref().is_none_or(|c| controller_of(&e.event) == Some(c.as_str())))
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

/// What an assertion looked at in one outcome, for a failure message: the zone's cards, where the
/// card is, the events of that kind and the closest near-miss among them (an event that differs
/// in one field only), and so on.
pub fn looked_at(assertion: &Assertion, outcome: &LegalOutcome) -> String {
    let o = &outcome.outcome;
    let cards_in = |zone: &str| quoted_list(o.zones.get(zone).map_or(&[][..], Vec::as_slice));
    match assertion {
        Assertion::Zone { card, zone } => {
            let at = o.zones.iter().find(|(_, cs)| cs.contains(card)).map(|(z, _)| z.as_str());
            match at {
                Some(at) if at == zone => format!("`{card}` is in {zone}"),
                Some(at) => format!("`{card}` is in {at}; {zone} holds {}", cards_in(zone)),
                None => format!("`{card}` is in no zone; {zone} holds {}", cards_in(zone)),
            }
        }
        Assertion::Count { zone, .. } => {
            format!("{zone} holds {} card(s): {}", o.zones.get(zone).map_or(0, Vec::len), cards_in(zone))
        }
        Assertion::Top { player, .. } => {
            let zone = format!("{player}.library");
            let fixed = outcome.fixed.get(&zone).map_or(0, |f| f.top());
            format!("{zone} is {} with {fixed} position(s) fixed from the top", cards_in(&zone))
        }
        Assertion::Shuffled { player } => {
            let zone = format!("{player}.library");
            let shuffles = o
                .events
                .iter()
                .filter(|e| matches!(&e.event, Event::Shuffled { library } if library == player))
                .count();
            let fixed = outcome.fixed.get(&zone).cloned().unwrap_or_default();
            format!(
                "{shuffles} shuffle(s) of {zone}; {} of its {} card(s) fixed from the top, {} from the bottom",
                fixed.top(),
                o.zones.get(&zone).map_or(0, Vec::len),
                fixed.bottom()
            )
        }
        Assertion::Known { card, .. } => {
            format!("`{card}` is known to {}", quoted_list(o.known.get(card).map_or(&[][..], Vec::as_slice)))
        }
        Assertion::Life { player, .. } => match o.life.get(player) {
            Some(l) => format!("{player}'s life is {l}"),
            None => format!("no life total for `{player}`"),
        },
        Assertion::Counters { card, .. } => {
            format!("`{card}` has {} counter(s)", o.counters.get(card).copied().unwrap_or(0))
        }
        Assertion::Tapped { .. } => format!("tapped: {}", quoted_list(&o.tapped)),
        Assertion::SearchOrder { .. } => {
            let order: Vec<String> = o
                .events
                .iter()
                .filter_map(|e| match &e.event {
                    Event::Searched { player, .. } => Some(player.clone()),
                    _ => None,
                })
                .collect();
            format!("searches in order: {}", quoted_list(&order))
        }
        Assertion::Events { kind, player, controller, card, zone, library_top, .. } => {
            let of_kind: Vec<&crate::outcome::LoggedEvent> =
                o.events.iter().filter(|e| e.event.kind() == kind).collect();
            if of_kind.is_empty() {
                let kinds: std::collections::BTreeSet<&str> = o.events.iter().map(|e| e.event.kind()).collect();
                return format!(
                    "no `{kind}` event; logged kinds: {}",
                    kinds.into_iter().collect::<Vec<_>>().join(", ")
                );
            }
            // Which of the given fields each event fails.
            let misses = |e: &Event| -> Vec<&'static str> {
                let mut m = Vec::new();
                if player.as_ref().is_some_and(|p| actor(e).as_deref() != Some(p.as_str())) {
                    m.push("player");
                }
                if controller.as_ref().is_some_and(|c| controller_of(e) != Some(c.as_str())) {
                    m.push("controller");
                }
                if card.as_ref().is_some_and(|c| !cards_of(e).contains(c)) {
                    m.push("card");
                }
                if zone.as_ref().is_some_and(|z| !matches!(e, Event::Searched { zones, .. } if zones.contains(z))) {
                    m.push("zone");
                }
                if library_top
                    .is_some_and(|n| !matches!(e, Event::Searched { library_top: t, .. } if t.unwrap_or(0) == n))
                {
                    m.push("library_top");
                }
                m
            };
            let matching = of_kind.iter().filter(|e| misses(&e.event).is_empty()).count();
            let shown: Vec<String> = of_kind.iter().take(5).map(|e| event_text(e)).collect();
            let more = if of_kind.len() > 5 { format!(" (and {} more)", of_kind.len() - 5) } else { String::new() };
            let mut text = format!("{matching} matching event(s); `{kind}` events: {}{more}", shown.join("; "));
            if let Some((e, m)) = of_kind.iter().map(|e| (e, misses(&e.event))).find(|(_, m)| m.len() == 1) {
                text.push_str(&format!("; closest: {} (differs in `{}`)", event_text(e), m[0]));
            }
            text
        }
    }
}

/// An event as the outcome JSON shows it.
fn event_text(e: &crate::outcome::LoggedEvent) -> String {
    serde_json::to_string(e).unwrap_or_default()
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
        | Event::Refused { player, .. }
        | Event::Copied { player, .. } => Some(player.clone()),
        Event::Shuffled { library } => Some(library.clone()),
        // The triggering player, as the outcome JSON's `player`; the controller has its own field.
        Event::Triggered { player, .. } => player.clone(),
        Event::Moved { .. } | Event::Counters { .. } => None,
    }
}

/// A `triggered` event's controller; other events have none.
fn controller_of(e: &Event) -> Option<&str> {
    match e {
        Event::Triggered { controller, .. } => Some(controller),
        _ => None,
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
        // The copy, the spell it copies, and its targets.
        Event::Copied { card, of, targets, .. } => {
            [card.clone(), of.clone()].into_iter().chain(targets.iter().cloned()).collect()
        }
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
            let seen = looked_at(a, outcomes[bad]);
            failures.push((format!("expect.always[{i}]"), format!("fails in legal outcome #{}: {seen}", bad + 1)));
        }
    }
    for (i, a) in e.sometimes.iter().enumerate() {
        if !outcomes.iter().any(|o| holds(a, o, names_of)) {
            let seen =
                outcomes.first().map(|o| format!(" (in legal outcome #1: {})", looked_at(a, o))).unwrap_or_default();
            failures.push((format!("expect.sometimes[{i}]"), format!("holds in no legal outcome{seen}")));
        }
    }
    for (i, a) in e.never.iter().enumerate() {
        if let Some(bad) = outcomes.iter().position(|o| holds(a, o, names_of)) {
            let seen = looked_at(a, outcomes[bad]);
            failures.push((format!("expect.never[{i}]"), format!("holds in legal outcome #{}: {seen}", bad + 1)));
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

#[cfg(test)]
mod tests {
    use crate::cards::CardPool;
    use crate::explore::explore;
    use crate::scenario::load_str;

    /// Failures from `expect` lines that are wrong on purpose.
    fn failures(expect: &str) -> Vec<(String, String)> {
        let text = format!(
            "title: t\nrules: ['701.23a']\nsource: {{kind: clause, reference: '701.23a'}}\n\
             players:\n  - name: Alice\n    library: [Forest, Island]\n    hand: [Demonic Tutor]\n  - name: Bob\n\
             steps:\n  - cast: {{player: Alice, card: demonic-tutor}}\n  - resolve\n\
             decisions:\n  - search: {{player: Alice, find: [island]}}\n{expect}"
        );
        let pool = CardPool::bundled().expect("pool");
        let loaded = load_str("t.yaml", &text, &pool).expect("loads");
        let x = explore(&loaded.setup, 1000).expect("explores");
        super::check(&loaded.scenario, &x, &|_| Vec::new())
    }

    #[test]
    fn a_failed_event_count_shows_the_events_of_that_kind_and_the_near_miss() {
        let f = failures("expect:\n  always:\n    - events: {kind: shuffled, player: Bob, count: 1}\n");
        assert_eq!(f.len(), 1, "{f:?}");
        assert_eq!(f[0].0, "expect.always[0]");
        let m = &f[0].1;
        assert!(m.starts_with("fails in legal outcome #1: 0 matching event(s); `shuffled` events: "), "{m}");
        assert!(m.contains("\"library\":\"Alice\"") && m.contains("differs in `player`"), "{m}");
    }

    #[test]
    fn a_failed_zone_assertion_shows_where_the_card_is_and_what_the_zone_holds() {
        let f = failures(
            "expect:\n  always:\n    - zone: {card: island, zone: Alice.library}\n  never:\n    - zone: {card: island, zone: Alice.hand}\n  sometimes:\n    - events: {kind: revealed, count: 1}\n",
        );
        let m: Vec<&str> = f.iter().map(|(_, m)| m.as_str()).collect();
        assert!(m[0].contains("`island` is in Alice.hand; Alice.library holds [\"forest\"]"), "{m:?}");
        assert!(m.iter().any(|m| m.starts_with("holds in legal outcome #1: `island` is in Alice.hand")), "{m:?}");
        assert!(
            m.iter().any(|m| m.starts_with("holds in no legal outcome (in legal outcome #1: no `revealed` event")),
            "{m:?}"
        );
    }
}

#[cfg(test)]
mod idiom_tests {
    use std::collections::BTreeMap;

    use super::holds;
    use crate::cards::CardPool;
    use crate::outcome::{Event, LegalOutcome, LoggedEvent, Outcome};
    use crate::scenario::format::Assertion;
    use crate::scenario::load_str;

    fn outcome(events: Vec<Event>) -> LegalOutcome {
        let events = events.into_iter().map(|event| LoggedEvent { step: 1, event }).collect();
        LegalOutcome { outcome: Outcome { events, ..Outcome::default() }, fixed: BTreeMap::new() }
    }

    fn events(kind: &str, player: &str, count: usize) -> Assertion {
        Assertion::Events {
            kind: kind.into(),
            player: Some(player.into()),
            controller: None,
            card: None,
            zone: None,
            library_top: None,
            count,
        }
    }

    fn searched(player: &str) -> Event {
        Event::Searched {
            player: player.into(),
            zones: vec![format!("{player}.library")],
            found: Vec::new(),
            library_top: None,
        }
    }

    /// docs/scenarios.md, "`triggered`: `controller` and `player`": `player` is the triggering
    /// player, as in the outcome JSON, and `controller` the ability's controller. The old reading
    /// (`player` = controller) would count Bob's ability under `player: Bob`; it must not.
    #[test]
    fn triggered_player_is_the_triggering_player_and_controller_the_controller() {
        let o = outcome(vec![Event::Triggered {
            source: "ob-nixilis".into(),
            controller: "Bob".into(),
            on: "searched_library".into(),
            player: Some("Alice".into()),
            targets: Vec::new(),
        }]);
        let none = |_: &str| Vec::new();
        let triggered = |player: Option<&str>, controller: Option<&str>, count| Assertion::Events {
            kind: "triggered".into(),
            player: player.map(Into::into),
            controller: controller.map(Into::into),
            card: None,
            zone: None,
            library_top: None,
            count,
        };
        assert!(holds(&triggered(None, Some("Bob"), 1), &o, &none));
        assert!(holds(&triggered(None, Some("Alice"), 0), &o, &none));
        assert!(holds(&triggered(Some("Alice"), Some("Bob"), 1), &o, &none));
        assert!(holds(&triggered(Some("Bob"), Some("Bob"), 0), &o, &none), "`player` is not the controller");
        assert!(holds(&triggered(Some("Alice"), Some("Alice"), 0), &o, &none));
        let near_miss = super::looked_at(&triggered(Some("Alice"), Some("Alice"), 1), &o);
        assert!(near_miss.contains("differs in `controller`"), "{near_miss}");
    }

    /// The old reading of `player` on `triggered` is a load error naming the fix, not a silent
    /// change of meaning.
    #[test]
    fn a_triggered_assertion_with_player_but_no_controller_does_not_load() {
        let text = "title: t\nrules: ['701.23a']\nsource: {kind: clause, reference: '701.23a'}\n\
             players:\n  - name: Alice\n    library: [Forest]\n  - name: Bob\n\
             steps:\n  - draw: {player: Alice}\n\
             expect:\n  always:\n    - events: {kind: triggered, player: Bob, count: 0}\n";
        let pool = CardPool::bundled().expect("pool");
        let Err(err) = load_str("t.yaml", text, &pool) else { panic!("must not load") };
        let err = err.to_string();
        assert!(err.contains("Write `controller:`") && err.contains("used to mean"), "{err}");
        let fixed = text.replace("player: Bob", "controller: Bob");
        assert!(load_str("t.yaml", &fixed, &pool).is_ok());
        let misplaced = text.replace("kind: triggered, player: Bob", "kind: searched, controller: Bob");
        let Err(err) = load_str("t.yaml", &misplaced, &pool) else { panic!("must not load") };
        let err = err.to_string();
        assert!(err.contains("`controller` applies to `triggered` events only"), "{err}");
    }

    /// docs/authoring.md, "Groups of players": one searched/shuffled pair per player.
    #[test]
    fn per_player_pairs_catch_a_searcher_who_did_not_shuffle() {
        let none = |_: &str| Vec::new();
        let idiom = [
            events("searched", "Alice", 1),
            events("shuffled", "Alice", 1),
            events("searched", "Bob", 1),
            events("shuffled", "Bob", 1),
        ];
        let both = outcome(vec![
            searched("Alice"),
            searched("Bob"),
            Event::Shuffled { library: "Alice".into() },
            Event::Shuffled { library: "Bob".into() },
        ]);
        assert!(idiom.iter().all(|a| holds(a, &both, &none)));
        let bob_forgot = outcome(vec![searched("Alice"), searched("Bob"), Event::Shuffled { library: "Alice".into() }]);
        let failing: Vec<&Assertion> = idiom.iter().filter(|a| !holds(a, &bob_forgot, &none)).collect();
        assert_eq!(failing, [&idiom[3]]);
    }
}
