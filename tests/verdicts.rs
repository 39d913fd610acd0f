//! The judge's verdicts name the broken clause: outcomes an engine with a known kind of bug would
//! report, built from a legal outcome of a bundled scenario by one change, each judged Illegal with
//! the clause that bug breaks.

use mtg_oracle::explore::explore;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, LoggedEvent, Outcome};
use mtg_oracle::scenario::{Loaded, load_file};
use mtg_oracle_tests::{found_mut, pool, repo_root};

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

mod arbitrary_observations {
    //! Whatever an engine reports, the judge answers with a verdict and never panics.

    use super::*;
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngSeed};

    fn word() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("mine-gy".to_string()),
            Just("mine-bf".to_string()),
            Just("mine-lib-1".to_string()),
            Just("forest".to_string()),
            Just("splinter".to_string()),
            Just("Alice".to_string()),
            Just("Bob".to_string()),
            Just("Bob.library".to_string()),
            Just("exile".to_string()),
            "[a-z.:-]{0,12}",
        ]
    }

    fn event() -> impl Strategy<Value = Event> {
        prop_oneof![
            (
                word(),
                prop::collection::vec(word(), 0..3),
                prop::option::of(0u32..6),
                prop::collection::vec(word(), 0..4)
            )
                .prop_map(|(player, zones, library_top, found)| Event::Searched {
                    player,
                    zones,
                    library_top,
                    found
                }),
            word().prop_map(|library| Event::Shuffled { library }),
            (word(), prop::collection::vec(word(), 0..3)).prop_map(|(player, cards)| Event::Revealed { player, cards }),
            (word(), word(), word()).prop_map(|(card, from, to)| Event::Moved { card, from, to }),
            (word(), word()).prop_map(|(player, card)| Event::Chose { player, card }),
            (word(), word(), word(), prop::option::of(word())).prop_map(|(source, controller, on, player)| {
                Event::Triggered { source, controller, on, player, targets: Vec::new() }
            }),
        ]
    }

    fn outcome() -> impl Strategy<Value = Outcome> {
        (
            prop::collection::btree_map(word(), prop::collection::vec(word(), 0..5), 0..6),
            prop::collection::btree_map(word(), prop::collection::vec(word(), 0..3), 0..3),
            prop::collection::btree_map(word(), -5i32..30, 0..3),
            prop::collection::vec((0usize..4, event()), 0..10),
        )
            .prop_map(|(zones, known, life, events)| Outcome {
                zones,
                known,
                life,
                counters: Default::default(),
                tapped: Vec::new(),
                time_counters: Default::default(),
                events: events.into_iter().map(|(step, event)| LoggedEvent { step, event }).collect(),
            })
    }

    proptest! {
        #![proptest_config(Config { cases: 400, rng_seed: RngSeed::Fixed(7), failure_persistence: None, ..Config::default() })]

        #[test]
        fn judge_never_panics_and_always_explains_a_rejection(o in outcome()) {
            let s = load(SPLINTER);
            match judge(&s.setup, &o) {
                Verdict::Illegal(diffs) => prop_assert!(!diffs.is_empty() && diffs.iter().all(|d| !d.clause.is_empty() && !d.message.is_empty())),
                Verdict::Legal => {}
                Verdict::Error(e) => prop_assert!(!e.is_empty()),
            }
        }
    }
}

#[test]
fn triggers_stacked_out_of_apnap_order_break_603_3b() {
    let s = load("101.4-apnap/101.4-603.3b-ob-nixilis-above-trickster.yaml");
    let mut o = legal_where(&s, |_| true);
    assert!(judge(&s.setup, &o).is_legal());
    // Report Carol's Ob Nixilis trigger as stacked before Bob's Trickster trigger.
    let positions: Vec<usize> = o
        .events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.step == 1 && matches!(e.event, Event::Triggered { .. }))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(positions.len(), 2, "{:?}", o.events);
    o.events.swap(positions[0], positions[1]);
    assert_clause(&s, &o, "603.3b", &["on the stack"]);
}

#[test]
fn a_player_may_stack_their_own_triggers_in_either_order() {
    let s = load("101.4-apnap/603.3b-one-player-orders-own-triggers.yaml");
    let x = explore(&s.setup, 1_000).expect("explores");
    let orders: std::collections::BTreeSet<Vec<String>> = x
        .outcomes
        .values()
        .map(|l| {
            l.outcome
                .events
                .iter()
                .filter_map(|e| match &e.event {
                    Event::Triggered { source, .. } => Some(source.clone()),
                    _ => None,
                })
                .collect()
        })
        .collect();
    assert_eq!(orders.len(), 2, "both orders are legal: {orders:?}");
}

#[test]
fn a_capped_search_that_shuffles_only_the_top_four_breaks_701_23f() {
    let s = load("701.23-search/701.23f-capped-search-still-shuffles-the-bottom-cards.yaml");
    let mut o = legal_where(&s, |_| true);
    assert!(judge(&s.setup, &o).is_legal());
    // An engine that shuffled only the searched top four leaves Bob knowing his bottom cards: the
    // "then shuffle" of a search limited to the top cards is of the whole library (701.23f).
    o.known.insert("bottom-1".into(), vec!["Bob".into()]);
    o.known.insert("bottom-2".into(), vec!["Bob".into()]);
    assert_clause(&s, &o, "701.23f", &["bottom-1", "bottom-2"]);
}
