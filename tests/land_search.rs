//! Land search and ramp cards of issue 12 (lands2): Natural Order's sacrifice as an additional
//! cost (601.2f, 701.21a), Hallowed Fountain's "as this land enters, you may pay 2 life" (614.1c,
//! 119.4) and Cultivate's split destinations (701.23h) — the rules functions at their boundaries,
//! and the verdicts an engine with the matching bug gets.

use mtg_oracle::explore::explore;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::rules::casting::{check_sacrifice_cost, sacrifice_cost_options};
use mtg_oracle::rules::replacement::as_enters_life_payment;
use mtg_oracle_tests::{assert_illegal, load_bundled, obj_of, seat_of, the_legal_outcome};

#[test]
fn natural_order_sacrifices_only_a_green_creature_its_caster_controls() {
    let s = load_bundled("701.5-cast/701.5a-natural-order-sacrifices-green-creature-finds-green-creature.yaml");
    let (alice, bob) = (seat_of(&s, "Alice"), seat_of(&s, "Bob"));
    let game = &s.setup.game;
    let green_creature = mtg_oracle::cards::instructions::Filter {
        types: vec![mtg_oracle::cards::def::CardType::Creature],
        color: Some(mtg_oracle::cards::def::Color::Green),
        ..Default::default()
    };
    let bears = obj_of(&s, "bears");
    assert!(check_sacrifice_cost(game, alice, bears, &green_creature).is_ok(), "her Grizzly Bears");
    let err = |o, p| check_sacrifice_cost(game, p, o, &green_creature).map_err(|v| v.clause);
    assert_eq!(err(bears, bob), Err("701.21a"), "Bob doesn't control the Bears");
    assert_eq!(err(obj_of(&s, "elder"), alice), Err("701.21a"), "a card in the library isn't a permanent");
    assert_eq!(err(obj_of(&s, "thopter"), alice), Err("701.21a"), "Ornithopter is in the library");
    assert_eq!(sacrifice_cost_options(game, alice, &green_creature), vec![bears]);
    assert!(sacrifice_cost_options(game, bob, &green_creature).is_empty());

    let colourless = load_bundled("701.5-cast/701.5a-natural-order-cant-sacrifice-a-colourless-creature.yaml");
    let thopter = obj_of(&colourless, "thopter");
    let alice = seat_of(&colourless, "Alice");
    let refused = check_sacrifice_cost(&colourless.setup.game, alice, thopter, &green_creature);
    assert_eq!(refused.map_err(|v| v.clause), Err("601.2f"), "Ornithopter isn't green");
}

#[test]
fn natural_order_outcome_with_the_sacrificed_creature_still_there_is_illegal() {
    let s = load_bundled("701.5-cast/701.5a-natural-order-sacrifices-green-creature-finds-green-creature.yaml");
    let x = explore(&s.setup, 10_000).expect("explores");
    let mut o = x.outcomes.values().next().expect("an outcome").outcome.clone();
    // An engine that didn't pay the additional cost: the Bears stay on the battlefield.
    o.zones.get_mut("Alice.graveyard").expect("graveyard").retain(|c| c != "bears");
    o.zones.entry("battlefield".into()).or_default().push("bears".into());
    o.events.retain(|e| e.event.kind() != "sacrificed");
    assert!(matches!(judge(&s.setup, &o), Verdict::Illegal(_)), "the sacrifice is part of the cast");
}

#[test]
fn hallowed_fountain_asks_two_life_and_basic_lands_ask_nothing() {
    let s = load_bundled("rulings/l012-04-misty-rainforest-fetches-hallowed-fountain-pay-or-tapped.yaml");
    let game = &s.setup.game;
    assert_eq!(as_enters_life_payment(game.obj(obj_of(&s, "fountain"))), Some(2));
    assert_eq!(as_enters_life_payment(game.obj(obj_of(&s, "a-island"))), None);
    assert_eq!(as_enters_life_payment(game.obj(obj_of(&s, "misty"))), None);
}

#[test]
fn hallowed_fountain_untapped_without_paying_is_illegal() {
    let s = load_bundled("110.5-tapped/110.5b-hallowed-fountain-declined-enters-tapped.yaml");
    let mut o = the_legal_outcome(&s);
    assert_eq!(o.tapped, vec!["fountain".to_string()]);
    o.tapped.clear();
    assert_illegal(&s, &o, "110.5b");
}

#[test]
fn hallowed_fountain_untapped_with_life_unchanged_is_illegal_when_fetched() {
    let s = load_bundled("rulings/l012-04-misty-rainforest-fetches-hallowed-fountain-pay-or-tapped.yaml");
    let x = explore(&s.setup, 10_000).expect("explores");
    assert_eq!(x.outcomes.len(), 2, "pay (untapped) or not (tapped)");
    let declined = x.outcomes.values().map(|l| l.outcome.clone()).find(|o| !o.tapped.is_empty()).expect("declined");
    assert_eq!(declined.life.get("Alice"), Some(&19));
    let mut untapped = declined.clone();
    untapped.tapped.clear();
    assert!(matches!(judge(&s.setup, &untapped), Verdict::Illegal(_)), "19 life and untapped is no outcome");
}

#[test]
fn cultivate_both_lands_onto_the_battlefield_is_illegal() {
    let s = load_bundled("701.23-search/701.23h-cultivate-one-land-tapped-onto-battlefield-other-to-hand.yaml");
    let mut o = the_legal_outcome(&s);
    o.zones.get_mut("Alice.hand").expect("hand").retain(|c| c != "a-plains");
    o.zones.entry("battlefield".into()).or_default().push("a-plains".into());
    o.tapped.push("a-plains".into());
    assert_illegal(&s, &o, "701.23a");
}
