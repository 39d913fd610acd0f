//! Knowledge and revealing: observed outcomes (JSON beside their regression scenarios in
//! `scenarios/regressions/`) that the judge used to get wrong — a revealed top card drawn at random
//! again (701.20b), a top card revealed between two draws (401.5), a reordered revealed top card
//! (401.5, 701.20d), a cycled card not revealed (602.2a) — each judged with the clause it rests on.

use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::Outcome;
use mtg_oracle::scenario::{Loaded, load_file};
use mtg_oracle_tests::{assert_illegal_first, pool, repo_root};

fn regression(name: &str) -> (Loaded, Outcome, Outcome) {
    let dir = repo_root().join("scenarios/regressions");
    let stem = name.split(".observed-").next().expect("a name");
    let loaded = load_file(&dir.join(format!("{stem}.yaml")), &pool()).unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("the observation is there");
    let observed: Outcome = serde_json::from_str(&text).expect("an outcome");
    let explored = mtg_oracle::explore::explore(&loaded.setup, 10_000).expect("explores");
    let legal = explored.outcomes.values().next().expect("a legal outcome").outcome.clone();
    (loaded, observed, legal)
}

#[test]
fn drawing_another_card_than_the_revealed_top_card_breaks_121_1() {
    // The engine revealed the Forest on top after the shuffle, then drew the Island.
    let (s, observed, legal) =
        regression("701.20b-top-card-revealed-after-a-shuffle-is-the-next-draw.observed-illegal");
    assert!(judge(&s.setup, &legal).is_legal());
    assert_illegal_first(&s, &observed, "121.1", &["forest", "island"]);
}

#[test]
fn a_top_card_revealed_between_two_draws_is_legal() {
    let (s, observed, _) = regression("401.5-new-top-card-revealed-between-two-draws.observed-legal");
    assert_eq!(judge(&s.setup, &observed), Verdict::Legal);
    // Without that reveal the outcome breaks 401.5.
    let mut without = observed.clone();
    without.events.retain(|e| {
        !matches!(&e.event, mtg_oracle::outcome::Event::Revealed { cards, .. } if cards == &["alice-forest".to_string()])
    });
    assert_illegal_first(&s, &without, "401.5", &["alice-forest"]);
}

#[test]
fn a_reordered_revealed_top_card_revealed_again_is_legal() {
    let (s, observed, _) =
        regression("401.5-reordered-revealed-top-card-revealed-again-as-a-new-object.observed-legal");
    assert_eq!(judge(&s.setup, &observed), Verdict::Legal);
}

#[test]
fn cycling_without_revealing_the_card_breaks_602_2a() {
    let (s, observed, legal) = regression("602.2a-cycling-reveals-the-cycled-card.observed-illegal");
    assert!(judge(&s.setup, &legal).is_legal());
    assert_illegal_first(&s, &observed, "602.2a", &["lonely-sandbar"]);
}
