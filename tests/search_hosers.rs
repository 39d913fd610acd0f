//! The search hosers (issue 12): "can't search" effects (101.2: Stranglehold, Leonin Arbiter,
//! Ashiok, Dream Render), the special action that ignores Leonin Arbiter (116.2d), and Archive
//! Trap's alternative cost (118.9) — the rules functions at their boundaries, and the verdicts an
//! engine with the matching bug gets.

use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, LoggedEvent, Outcome};
use mtg_oracle::rules::casting::check_alternative_cost;
use mtg_oracle::rules::search::{check_may_ignore_search_ban, library_search_ban};
use mtg_oracle::scenario::Loaded;
use mtg_oracle_tests::{load_bundled, obj_of, seat_of, the_legal_outcome};

#[track_caller]
fn assert_clause(loaded: &Loaded, observed: &Outcome, clause: &str) {
    match judge(&loaded.setup, observed) {
        Verdict::Illegal(diffs) => assert_eq!(diffs[0].clause, clause, "main difference: {diffs:?}"),
        other => panic!("expected Illegal({clause}), got {other:?}"),
    }
}

#[test]
fn stranglehold_stops_opponents_in_any_library_but_not_its_controller() {
    let s = load_bundled("rulings/h012-03-stranglehold-stops-searching-the-controllers-library.yaml");
    let (bob, alice) = (seat_of(&s, "Bob"), seat_of(&s, "Alice"));
    let game = &s.setup.game;
    assert!(library_search_ban(game, bob, bob, bob).is_some(), "Bob's own library");
    assert!(library_search_ban(game, bob, alice, bob).is_some(), "Alice's library");
    assert!(library_search_ban(game, alice, alice, alice).is_none(), "Alice is not her own opponent");
}

#[test]
fn ashiok_stops_only_an_opponents_own_search_of_their_own_library() {
    let s = load_bundled("101.2-cant/101.2-ashiok-stops-opponents-own-tutor.yaml");
    let (bob, alice) = (seat_of(&s, "Bob"), seat_of(&s, "Alice"));
    let game = &s.setup.game;
    assert!(library_search_ban(game, bob, bob, bob).is_some(), "Bob's spell, Bob's library");
    assert!(library_search_ban(game, bob, alice, bob).is_none(), "another player's library");
    assert!(library_search_ban(game, bob, bob, alice).is_none(), "Alice's ability makes Bob search");
    assert!(library_search_ban(game, alice, alice, alice).is_none(), "Ashiok's controller");
}

#[test]
fn only_leonin_arbiter_offers_the_special_action() {
    let s = load_bundled("116.2-special-actions/116.2d-only-an-ignorable-effect-can-be-ignored.yaml");
    let refused = check_may_ignore_search_ban(&s.setup.game, obj_of(&s, "stranglehold")).expect_err("Stranglehold");
    assert_eq!(refused.clause, "116.2d");
    let a = load_bundled("rulings/h012-09-two-leonin-arbiters-one-paid-still-cant-search.yaml");
    assert!(check_may_ignore_search_ban(&a.setup.game, obj_of(&a, "arbiter-1")).is_ok());
    // Paying for one Arbiter leaves the other's effect on Bob; paying for both frees him, and
    // only him.
    let mut game = a.setup.game.clone();
    let (bob, alice) = (seat_of(&a, "Bob"), seat_of(&a, "Alice"));
    game.objs[obj_of(&a, "arbiter-1")].flags.search_ban_ignored_by |= 1 << bob;
    assert_eq!(library_search_ban(&game, bob, bob, bob), Some(obj_of(&a, "arbiter-2")));
    game.objs[obj_of(&a, "arbiter-2")].flags.search_ban_ignored_by |= 1 << bob;
    assert_eq!(library_search_ban(&game, bob, bob, bob), None);
    assert!(library_search_ban(&game, alice, alice, alice).is_some(), "Alice didn't pay");
}

#[test]
fn archive_traps_cost_needs_an_opponent_who_searched_their_library() {
    let s = load_bundled("rulings/h012-12-archive-trap-free-after-tutor-finds-nothing.yaml");
    let (bob, alice) = (seat_of(&s, "Bob"), seat_of(&s, "Alice"));
    let trap = obj_of(&s, "archive-trap");
    let mut game = s.setup.game.clone();
    assert_eq!(check_alternative_cost(&game, trap, alice).expect_err("no search yet").clause, "118.9");
    game.searched_own_library |= 1 << alice;
    assert!(check_alternative_cost(&game, trap, alice).is_err(), "Alice's own search doesn't count");
    game.searched_own_library |= 1 << bob;
    assert!(check_alternative_cost(&game, trap, alice).is_ok());
    let tutor = obj_of(&s, "mystical-tutor");
    assert!(check_alternative_cost(&game, tutor, alice).is_err(), "a card without an alternative cost");
}

#[test]
fn a_search_under_stranglehold_breaks_101_2() {
    let s = load_bundled("rulings/h012-02-stranglehold-tutor-still-shuffles.yaml");
    let mut o = the_legal_outcome(&s);
    assert!(judge(&s.setup, &o).is_legal());
    // The engine lets Bob search and take the Forest anyway.
    let search = Event::Searched {
        player: "Bob".into(),
        zones: vec!["Bob.library".into()],
        library_top: None,
        found: vec!["forest".into()],
    };
    let at = o.events.iter().position(|e| e.step == 1).expect("a step-1 event");
    o.events.insert(at, LoggedEvent { step: 1, event: search });
    assert_clause(&s, &o, "101.2");
}

#[test]
fn a_skipped_shuffle_after_a_stopped_search_breaks_701_24a() {
    let s = load_bundled("rulings/h012-02-stranglehold-tutor-still-shuffles.yaml");
    let mut o = the_legal_outcome(&s);
    o.events.retain(|e| !matches!(e.event, Event::Shuffled { .. }));
    assert_clause(&s, &o, "701.24a");
}
