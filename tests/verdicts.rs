//! The judge's verdicts name the broken clause: outcomes an engine with a known kind of bug would
//! report, built from a legal outcome of a bundled scenario by one change, each judged Illegal with
//! the clause that bug breaks.

use mtg_oracle::explore::explore;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, LoggedEvent, Outcome};
use mtg_oracle::scenario::{Loaded, load_file};
use mtg_oracle_tests::{pool, repo_root};

fn load(name: &str) -> Loaded {
    let path = repo_root().join("scenarios").join(name);
    load_file(&path, &pool()).unwrap_or_else(|e| panic!("{e}"))
}

/// The legal outcome of `loaded` in which `pred` holds.
fn legal_where(loaded: &Loaded, pred: impl Fn(&Outcome) -> bool) -> Outcome {
    let x = explore(&loaded.setup, 10_000).expect("explores");
    x.outcomes.values().map(|l| l.outcome.clone()).find(|o| pred(o)).expect("a legal outcome with that property")
}

fn in_zone(o: &Outcome, card: &str, zone: &str) -> bool {
    o.zones.get(zone).is_some_and(|z| z.iter().any(|c| c == card))
}

fn move_card(o: &mut Outcome, card: &str, from: &str, to: &str) {
    o.zones.get_mut(from).expect("zone").retain(|c| c != card);
    o.zones.entry(to.to_string()).or_default().push(card.to_string());
}

fn found_mut(o: &mut Outcome) -> &mut Vec<String> {
    o.events
        .iter_mut()
        .find_map(|e| match &mut e.event {
            Event::Searched { found, .. } => Some(found),
            _ => None,
        })
        .expect("a searched event")
}

#[track_caller]
fn assert_clause(loaded: &Loaded, observed: &Outcome, clause: &str, words: &[&str]) {
    match judge(&loaded.setup, observed) {
        Verdict::Illegal(diffs) => {
            assert_eq!(diffs[0].clause, clause, "main difference: {:?}", diffs);
            let text = diffs.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            for w in words {
                assert!(text.contains(w), "verdict lacks {w:?}:\n{text}");
            }
        }
        other => panic!("expected Illegal({clause}), got {other:?}"),
    }
}

const SPLINTER: &str = "701.23-search/701.23b-splinter-howling-mine-cr-example.yaml";

#[test]
fn graveyard_copy_left_behind_breaks_701_23b() {
    let s = load(SPLINTER);
    let mut o = legal_where(&s, |o| in_zone(o, "mine-lib-1", "exile") && in_zone(o, "mine-lib-2", "exile"));
    assert!(judge(&s.setup, &o).is_legal());
    // The engine neither found nor exiled the graveyard copy.
    found_mut(&mut o).retain(|c| c != "mine-gy");
    move_card(&mut o, "mine-gy", "exile", "Bob.graveyard");
    o.events.retain(|e| !matches!(&e.event, Event::Moved { card, .. } if card == "mine-gy"));
    assert_clause(&s, &o, "701.23b", &["public zone", "mine-gy", "Bob.graveyard"]);
}

#[test]
fn found_card_revealed_when_not_told_breaks_701_23e() {
    let s = load(SPLINTER);
    let mut o = legal_where(&s, |_| true);
    let step = o.events.last().map_or(1, |e| e.step);
    o.events
        .push(LoggedEvent { step, event: Event::Revealed { player: "Alice".into(), cards: vec!["mine-gy".into()] } });
    assert_clause(&s, &o, "701.23e", &["revealed"]);
}

#[test]
fn no_shuffle_after_the_search_breaks_701_24a() {
    let s = load(SPLINTER);
    let mut o = legal_where(&s, |_| true);
    o.events.retain(|e| !matches!(e.event, Event::Shuffled { .. }));
    assert_clause(&s, &o, "701.24a", &["shuffled"]);
}

#[test]
fn a_found_card_left_in_place_is_a_zone_difference() {
    let s = load(SPLINTER);
    let mut o = legal_where(&s, |o| in_zone(o, "mine-lib-1", "exile"));
    move_card(&mut o, "mine-lib-1", "exile", "Bob.library");
    o.events.retain(|e| !matches!(&e.event, Event::Moved { card, .. } if card == "mine-lib-1"));
    assert_clause(&s, &o, "701.23a", &["mine-lib-1"]);
}

#[test]
fn empty_hand_lobotomy_without_a_search_breaks_701_23c() {
    let s = load("701.23-search/701.23c-lobotomy-empty-hand-cr-example.yaml");
    let mut o = legal_where(&s, |_| true);
    o.events.retain(|e| !matches!(e.event, Event::Searched { .. }));
    assert_clause(&s, &o, "701.23c", &["no `searched` event"]);
}

#[test]
fn mindcensor_search_below_the_top_four_breaks_701_23f() {
    let s = load("701.23-search/701.23f-mindcensor-veteran-explorer-cr-example.yaml");
    let mut o = legal_where(&s, |o| in_zone(o, "bob-plains", "Bob.library"));
    // Bob found a Forest fifth from the top, as if the Mindcensor capped nothing.
    for e in o.events.iter_mut() {
        if let Event::Searched { player, found, .. } = &mut e.event
            && player == "Bob"
        {
            found.push("bob-forest-1".into());
        }
    }
    move_card(&mut o, "bob-forest-1", "Bob.library", "battlefield");
    assert_clause(&s, &o, "701.23f", &["top 4"]);
}

#[test]
fn mindcensor_search_not_logged_breaks_701_23f() {
    let s = load("701.23-search/701.23f-mindcensor-veteran-explorer-cr-example.yaml");
    let mut o = legal_where(&s, |o| in_zone(o, "bob-plains", "Bob.library"));
    o.events.retain(|e| !matches!(&e.event, Event::Searched { player, .. } if player == "Bob"));
    // The scenario scripts Bob's "may" as yes, so his capped search had to happen and be logged.
    assert_clause(&s, &o, "701.23f", &["Bob had to search", "still a search"]);
}

#[test]
fn quantity_only_search_finding_too_few_breaks_701_23d() {
    let s = load("701.23-search/701.23d-three-cards-from-five.yaml");
    let mut o = legal_where(&s, |_| true);
    let dropped = found_mut(&mut o).pop().expect("three found");
    let _ = dropped;
    assert_clause(&s, &o, "701.23d", &["at least 3"]);
}

#[test]
fn two_searched_events_for_one_merged_search_break_701_23h() {
    let s = load("701.23-search/701.23h-forest-and-plains-one-search.yaml");
    let mut o = legal_where(&s, |_| true);
    let searched = o.events.iter().find(|e| matches!(e.event, Event::Searched { .. })).cloned().expect("searched");
    let mut second = searched.clone();
    if let Event::Searched { found, .. } = &mut second.event {
        found.clear();
    }
    o.events.push(second);
    assert_clause(&s, &o, "701.23h", &["searched"]);
}

#[test]
fn searches_out_of_apnap_order_break_701_23i() {
    let s = load("701.23-search/701.23i-explorer-nonactive-controller-3p.yaml");
    let mut o = legal_where(&s, |_| true);
    let positions: Vec<usize> = o
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| matches!(e.event, Event::Searched { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(positions.len(), 3);
    o.events.swap(positions[0], positions[2]);
    assert_clause(&s, &o, "701.23i", &["APNAP"]);
}

#[test]
fn finding_an_opponents_sideboard_card_breaks_701_23j() {
    let s = load("701.23-search/701.23j-only-own-sideboard.yaml");
    let o = legal_where(&s, |_| true);
    let bobs = o.zones.get("Bob.outside").and_then(|z| z.first()).cloned().expect("Bob has a sideboard card");
    let mut bad = o.clone();
    found_mut(&mut bad).push(bobs.clone());
    assert_clause(&s, &bad, "701.23j", &[&bobs, "outside the game"]);
}
