//! Comparing the replayed outcome with the observed one: every difference, with the clause that
//! decides it, in the order of the rule decisions they stem from.

use std::collections::{BTreeMap, BTreeSet};

use super::causes::Causes;
use crate::model::{FastMap, fast_map};
use crate::outcome::{
    Event, LegalOutcome, LoggedEvent, Outcome, events_match, is_ordered_event, zones_match_canonical,
};
use crate::rules::verdicts;
use crate::verdict::{Difference, quoted, quoted_list as list};

fn show(event: &LoggedEvent) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| format!("a `{}` event", event.event.kind()))
}

/// Every difference between the replayed outcome and the observed one.
///
/// Differences come in the order of the rule decisions they stem from, so the first one names the
/// root cause: an event difference at the position of the replayed event or rule decision where
/// the replay and the observation part ways ([`Causes`]); differences of zones, knowledge, life
/// and counters (which follow from events, or are an outcome inconsistent with its own log) after
/// them.
pub fn compare(expected: &LegalOutcome, observed: &Outcome, causes: &Causes) -> Vec<Difference> {
    let want = &expected.outcome;
    // The observed outcome in canonical form, but for its zones: those are compared in place
    // (`zones_match_canonical`), and put in canonical form only when they differ.
    let observed_zones = &observed.zones;
    let same_events = events_match(&observed.events, &want.events);
    let mut got = Outcome {
        zones: BTreeMap::new(),
        known: observed.known.clone(),
        life: observed.life.clone(),
        counters: observed.counters.clone(),
        tapped: observed.tapped.clone(),
        time_counters: observed.time_counters.clone(),
        events: if same_events { Vec::new() } else { observed.events.clone() },
    }
    .into_canonical(&expected.fixed);
    let zones_match = zones_match_canonical(&want.zones, observed_zones, &expected.fixed);
    if !zones_match {
        got.zones =
            Outcome { zones: observed_zones.clone(), ..Outcome::default() }.into_canonical(&expected.fixed).zones;
    }
    let got = got;
    let mut keyed: Vec<(u64, Difference)> = Vec::new();
    // Differences that don't come from one event sort after the events'.
    let mut push =
        |clause: &str, message: String| keyed.push((u64::MAX, Difference { clause: clause.to_string(), message }));
    let mut event_diffs: Vec<(u64, Difference)> = Vec::new();

    // An observed log that is the replay's (in canonical form) has no event difference, and
    // most rejected observations differ elsewhere: it is neither copied nor compared event by
    // event then.
    if !same_events {
        event_differences(want, &got, causes, &mut event_diffs, &mut push);
    }

    // Where each card is — only worked out card by card when the zones differ at all, which
    // keeps judging a legal outcome to one comparison of canonical zones.
    if !zones_match {
        zone_differences(want, &got, &expected.fixed, causes, &mut push);
    }

    // Who knows what.
    let cards: BTreeSet<&String> = want.known.keys().chain(got.known.keys()).collect();
    for card in cards {
        let (w, g) =
            (want.known.get(card).cloned().unwrap_or_default(), got.known.get(card).cloned().unwrap_or_default());
        if w != g {
            let extra = g.iter().any(|p| !w.contains(p));
            let in_library = want.zones.iter().any(|(z, cards)| z.ends_with(".library") && cards.contains(card));
            // Knowledge that should be gone from a library card means it wasn't shuffled as a new
            // object (701.24a, 701.20d); elsewhere it means a reveal that wasn't told (701.23e).
            let zone = want.zones.iter().find(|(_, cards)| cards.contains(card)).map(|(z, _)| z.as_str());
            let clause = causes.knowledge(card, zone).unwrap_or(verdicts::knowledge_clause(extra, in_library));
            push(clause, format!("{card} should be known to {} but is known to {}", list(&w), list(&g)));
        }
    }
    for (player, life) in &want.life {
        if got.life.get(player) != Some(life) {
            push("119.3", format!("{player}'s life should be {life} but is {}", life_total(got.life.get(player))));
        }
    }
    // A life total for a name that is no player of the scenario (found by judge_observation).
    for player in got.life.keys().filter(|p| !want.life.contains_key(*p)) {
        push("119.1", format!("the outcome gives a life total to `{player}`, who is not a player"));
    }
    if want.counters != got.counters {
        push("122.1", format!("counters should be {} but are {}", counters(&want.counters), counters(&got.counters)));
    }
    if want.time_counters != got.time_counters {
        push(
            crate::rules::suspend::TIME_COUNTERS_CLAUSE,
            format!(
                "time counters should be {} but are {}",
                counters(&want.time_counters),
                counters(&got.time_counters)
            ),
        );
    }
    if want.tapped != got.tapped {
        push(
            crate::rules::verdicts::TAPPED_CLAUSE,
            format!("the tapped permanents should be {} but are {}", list(&want.tapped), list(&got.tapped)),
        );
    }
    event_diffs.extend(keyed);
    // A stable sort: differences with one cause keep the order they were found in.
    event_diffs.sort_by_key(|(k, _)| *k);
    event_diffs.into_iter().map(|(_, d)| d).collect()
}

/// The differences between the replay's events and the observed log (`got`, in canonical form),
/// each keyed by where it stems from (`event_diffs`); a difference only of order goes to `push`.
fn event_differences(
    want: &Outcome,
    got: &Outcome,
    causes: &Causes,
    event_diffs: &mut Vec<(u64, Difference)>,
    push: &mut impl FnMut(&str, String),
) {
    // Events, as a multiset per step.
    let mut missing: BTreeMap<&LoggedEvent, i64> = BTreeMap::new();
    for e in &want.events {
        *missing.entry(e).or_default() += 1;
    }
    for e in &got.events {
        *missing.entry(e).or_default() -= 1;
    }
    // A `searched` event the rules produce and one the log has, for the same player in the same
    // step, are one search reported with a wrong or missing field: name the field and the clause
    // of its cause rather than an extra search (701.23h) and a missing one.
    // The difference sits where the replayed search is, and a wrong `found` takes the clause
    // that decided that search (701.23b for a hidden zone searched for a stated quality, 701.23f
    // under a limit, …).
    for (want_e, got_e) in paired_searches(&missing) {
        let (at, decided_by) = causes.missing(want_e);
        for (clause, message) in search_field_differences(want_e, got_e) {
            let clause = clause.unwrap_or(decided_by);
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        }
        *missing.get_mut(want_e).expect("paired") -= 1;
        *missing.get_mut(got_e).expect("paired") += 1;
    }
    // Likewise a `cast` event the rules produce and one the log has, of the same card by the
    // same player in the same step, that differ only in their targets: one spell cast with wrong
    // or missing targets (601.2c), not an extra cast and a missing one.
    for (want_e, got_e) in paired_casts(&missing) {
        let (at, _) = causes.missing(want_e);
        if let (Event::Cast { player, card, targets: wt, .. }, Event::Cast { targets: gt, .. }) =
            (&want_e.event, &got_e.event)
        {
            let message = format!(
                "step {}: {player}'s `cast` event of {card}: field `targets` is {}; the rules target {}",
                want_e.step,
                list(gt),
                list(wt)
            );
            event_diffs.push((at, Difference { clause: verdicts::CAST_TARGETS_CLAUSE.to_string(), message }));
        }
        *missing.get_mut(want_e).expect("paired") -= 1;
        *missing.get_mut(got_e).expect("paired") += 1;
    }
    for (e, n) in &missing {
        if *n > 0 {
            let (at, clause) = causes.missing(e);
            let message =
                format!("step {}: expected {} but it is not in the log: {}", e.step, plural(*n, "event"), show(e));
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        } else if *n < 0 {
            let (at, clause) = causes.extra(e, &missing);
            let message =
                format!("step {}: the log has {} the rules don't produce: {}", e.step, plural(-*n, "event"), show(e));
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        }
    }

    if missing.values().all(|n| *n == 0) && want.events != got.events {
        // Same events, different order: the relative order of searches (APNAP, 701.23i) or of
        // triggered abilities going on the stack (603.3b) differs.
        let sequence = |o: &Outcome, kind: u8| -> Vec<String> {
            o.events
                .iter()
                .filter(|e| {
                    let k = match e.event {
                        Event::Searched { .. } => 0,
                        Event::Cast { .. } => 2,
                        _ => 1,
                    };
                    k == kind && is_ordered_event(&e.event)
                })
                .map(|e| format!("[{}] {}", e.step, show_short(&e.event)))
                .collect()
        };
        for (kind, (clause, what)) in (0u8..).zip(verdicts::ORDERED_SEQUENCES) {
            let (w, g) = (sequence(want, kind), sequence(got, kind));
            if w != g {
                push(clause, format!("{what} happened in the order {}; the rules give {}", list(&g), list(&w)));
            }
        }
    }
}

/// Pairs a missing `searched` event with an extra one of the same step and player.
fn paired_searches<'a>(missing: &BTreeMap<&'a LoggedEvent, i64>) -> Vec<(&'a LoggedEvent, &'a LoggedEvent)> {
    paired_by(missing, |e| match &e.event {
        Event::Searched { player, .. } => Some((e.step, player.clone())),
        _ => None,
    })
}

/// Pairs a missing `cast` event with an extra one of the same step, player and card that differs
/// from it only in its targets.
fn paired_casts<'a>(missing: &BTreeMap<&'a LoggedEvent, i64>) -> Vec<(&'a LoggedEvent, &'a LoggedEvent)> {
    // The event with its targets left out: two casts of one spell that differ only there match.
    paired_by(missing, |e| match &e.event {
        Event::Cast { .. } => {
            let mut e = e.clone();
            if let Event::Cast { targets, .. } = &mut e.event {
                targets.clear();
            }
            Some(e)
        }
        _ => None,
    })
}

/// Pairs each missing event with an extra one of the same `key` (events without a key aren't
/// paired), one extra event per missing one.
fn paired_by<'a, K: PartialEq>(
    missing: &BTreeMap<&'a LoggedEvent, i64>,
    key: impl Fn(&LoggedEvent) -> Option<K>,
) -> Vec<(&'a LoggedEvent, &'a LoggedEvent)> {
    let mut extra: Vec<(&LoggedEvent, K, i64)> =
        missing.iter().filter(|(_, n)| **n < 0).filter_map(|(e, n)| key(e).map(|k| (*e, k, -*n))).collect();
    let mut out = Vec::new();
    for (want, n) in missing.iter().filter(|(_, n)| **n > 0) {
        let Some(want_key) = key(want) else { continue };
        for _ in 0..*n {
            if let Some(slot) = extra.iter_mut().find(|(_, k, left)| *left > 0 && *k == want_key) {
                slot.2 -= 1;
                out.push((*want, slot.0));
            }
        }
    }
    out
}

/// What differs between two `searched` events of one search, field by field, each with the
/// clause that fixes that field (`None`: the clause that decided the search itself, for `found`).
fn search_field_differences(want: &LoggedEvent, got: &LoggedEvent) -> Vec<(Option<&'static str>, String)> {
    let (
        Event::Searched { player, zones: wz, library_top: wt, found: wf },
        Event::Searched { zones: gz, library_top: gt, found: gf, .. },
    ) = (&want.event, &got.event)
    else {
        return Vec::new();
    };
    let at = format!("step {}: {player}'s `searched` event", want.step);
    let mut out = Vec::new();
    match (wt, gt) {
        (Some(n), None) => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` is missing; the search was limited to the top {n} card(s)"),
        )),
        (None, Some(n)) => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` ({n}) is extra; no effect limited this search to the top cards"),
        )),
        (Some(a), Some(b)) if a != b => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` is {b}; the search was limited to the top {a}"),
        )),
        _ => {}
    }
    if wz != gz {
        out.push((Some("701.23a"), format!("{at}: field `zones` is {}; the rules search {}", list(gz), list(wz))));
    }
    if wf != gf {
        out.push((None, format!("{at}: field `found` is {}; the replay found {}", list(gf), list(wf))));
    }
    out
}

/// An ordered event in a few words — everything it records, so that two sequences that differ
/// only in which search found what (or which trigger chose which targets) read differently.
fn show_short(e: &Event) -> String {
    match e.normalized() {
        Event::Searched { player, zones, library_top, found } => {
            let top = library_top.map(|n| format!(" (top {n})")).unwrap_or_default();
            format!("{player} searched {}{top}, found [{}]", zones.join(", "), found.join(", "))
        }
        Event::Triggered { source, controller, on, player, targets } => {
            let by = player.map(|p| format!(" by {p}")).unwrap_or_default();
            let targets =
                if targets.is_empty() { String::new() } else { format!(", targeting [{}]", targets.join(", ")) };
            format!("{controller}'s {source} ({on}{by}){targets}")
        }
        // The card names the spell: without it every cast looks alike and two spells cast in
        // the wrong order (101.4c; the stack says which came first) would compare equal.
        Event::Cast { player, card, .. } => format!("{player} cast {card}"),
        other => other.kind().to_string(),
    }
}

fn plural(n: i64, word: &str) -> String {
    if n == 1 { format!("an {word}") } else { format!("{n} such {word}s") }
}

/// Card-by-card differences in where cards are and in positions the rules fix.
fn zone_differences(
    want: &Outcome,
    got: &Outcome,
    fixed_positions: &BTreeMap<String, crate::outcome::FixedPositions>,
    causes: &Causes,
    push: &mut impl FnMut(&str, String),
) {
    let move_clauses = &causes.moves;
    fn locate(o: &Outcome) -> FastMap<&str, &str> {
        let mut at = fast_map(o.zones.values().map(Vec::len).sum());
        at.extend(o.zones.iter().flat_map(|(z, cards)| cards.iter().map(move |c| (c.as_str(), z.as_str()))));
        at
    }
    // An object is in one zone at a time, once (400.1): a card the outcome lists twice is wrong
    // however the rest compares. Abilities on the stack may repeat.
    let mut listed: FastMap<&str, usize> = fast_map(got.zones.values().map(Vec::len).sum());
    for cards in got.zones.values() {
        for c in cards.iter().filter(|c| !c.starts_with("ability:")) {
            *listed.entry(c.as_str()).or_default() += 1;
        }
    }
    let mut twice: Vec<(&str, usize)> = listed.into_iter().filter(|(_, n)| *n > 1).collect();
    twice.sort_unstable();
    for (card, n) in twice {
        push("400.1", format!("{card} is listed {n} times; an object is in one zone, once"));
    }
    // An ability is an object only on the stack (405.1); listed in any other zone it is wrong.
    for (zone, cards) in &got.zones {
        if zone != "stack" {
            for c in cards.iter().filter(|c| c.starts_with("ability:")) {
                push("405.1", format!("{c} is listed in {zone}; abilities exist only on the stack"));
            }
        }
    }
    let (want_at, got_at) = (locate(want), locate(got));
    // The cards out of place, in order of id: sorting only those, not every card of both sides,
    // was most of the cost of naming a misplaced card in a large state.
    let mut out_of_place: Vec<&str> = want_at
        .iter()
        .filter(|(card, zone)| got_at.get(*card) != Some(*zone))
        .map(|(card, _)| *card)
        .chain(got_at.keys().filter(|card| !want_at.contains_key(*card)).copied())
        .collect();
    out_of_place.sort_unstable();
    for card in out_of_place {
        let (want_zone, got_zone) = (want_at.get(card), got_at.get(card));
        // The clause of the card's last move; for a card the rules leave where it is, that of
        // the instruction that moved such cards to where the outcome has it. Worked out only for
        // a card that is out of place.
        let clause = || {
            move_clauses.get(card).copied().unwrap_or_else(|| match (want_zone, got_zone) {
                (Some(w), Some(g)) => causes.like_move(None, w, g).map_or("400.7", |(_, c)| c),
                _ => "400.7",
            })
        };
        match (want_zone, got_zone) {
            (Some(w), Some(g)) if w != g => push(clause(), format!("{card} should be in {w} but is in {g}")),
            (Some(w), None) => push(clause(), format!("{card} should be in {w} but the outcome doesn't list it")),
            (None, Some(g)) => push("400.7", format!("{card} is listed in {g} but the rules put it nowhere")),
            _ => {}
        }
    }
    // Positions the rules fix within a library, and the order of a graveyard.
    for (zone, fixed) in fixed_positions {
        let (w, g) =
            (want.zones.get(zone).map_or(&[][..], Vec::as_slice), got.zones.get(zone).map_or(&[][..], Vec::as_slice));
        if w.len() != g.len() {
            continue; // already reported card by card
        }
        let len = w.len();
        for range in fixed.top_ranges(len).chain(fixed.bottom_ranges(len)) {
            // Each group holds the right cards (they are sorted within a group by canonical form).
            if w[range.clone()] != g[range.clone()] {
                // 400.5: a graveyard's order can't be changed (only a group put there at once is
                // its owner's to order).
                let clause = if zone.ends_with(".graveyard") {
                    "400.5"
                } else {
                    move_clauses.get(&w[range.start]).copied().unwrap_or("401.2")
                };
                let what = if range.len() == 1 {
                    format!("position {}", range.start + 1)
                } else {
                    format!("positions {}–{}", range.start + 1, range.end)
                };
                push(
                    clause,
                    format!(
                        "{zone} {what} (from the top) must hold {} but hold {}",
                        list(&w[range.clone()]),
                        list(&g[range])
                    ),
                );
            }
        }
    }
    let (w, g) = (want.zones.get("stack"), got.zones.get("stack"));
    if w != g {
        let show = |z: Option<&Vec<String>>| list(z.map_or(&[][..], Vec::as_slice));
        push("405.2", format!("the stack should be {} (top first) but is {}", show(w), show(g)));
    }
}

/// The counters of an outcome as a difference shows them: `{"card": 2}`.
fn counters(counters: &BTreeMap<String, u32>) -> String {
    let entries: Vec<String> = counters.iter().map(|(card, n)| format!("{}: {n}", quoted(card))).collect();
    format!("{{{}}}", entries.join(", "))
}

/// An observed life total as a difference shows it: `Some(20)`, or `None` when the outcome gives
/// the player none (the wording the reports have always used).
fn life_total(life: Option<&i32>) -> String {
    life.map_or_else(|| "None".to_string(), |l| format!("Some({l})"))
}
