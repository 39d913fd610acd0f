//! Regressions of an audit of the oracle's replacement effects, library positions and cost
//! order: each bundled regression scenario is judged against the observed outcome stored beside
//! it (`<scenario>.observed-legal.json` must be judged legal, `.observed-illegal.json` illegal
//! with the clause given here).

use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::Outcome;
use mtg_oracle_tests::{pool, repo_root};

fn verdict(scenario: &str, observation: &str) -> Verdict {
    let dir = repo_root().join("scenarios/regressions");
    let loaded = mtg_oracle::scenario::load_file(&dir.join(format!("{scenario}.yaml")), &pool())
        .unwrap_or_else(|e| panic!("{e}"));
    let text = std::fs::read_to_string(dir.join(format!("{scenario}.{observation}.json"))).expect("observation");
    let observed: Outcome = serde_json::from_str(&text).expect("an outcome");
    judge(&loaded.setup, &observed)
}

#[track_caller]
fn assert_legal(scenario: &str) {
    let v = verdict(scenario, "observed-legal");
    assert!(v.is_legal(), "{scenario}: the judge must accept the observation: {v:?}");
}

#[track_caller]
fn assert_illegal(scenario: &str, clause: &str) {
    match verdict(scenario, "observed-illegal") {
        Verdict::Illegal(d) => assert!(d.iter().any(|d| d.clause == clause), "{scenario}: {d:?}"),
        other => panic!("{scenario}: the judge must reject the observation ({clause}): {other:?}"),
    }
}

/// 401.4: two milled cards put on the bottom at once may be in either order.
#[test]
fn milled_cards_on_the_bottom_in_the_other_order_are_legal() {
    assert_legal("401.4-milled-cards-put-on-the-bottom-together-owner-orders");
}

/// 401.4: two discarded cards put on the bottom at once may be in either order.
#[test]
fn discarded_cards_on_the_bottom_in_the_other_order_are_legal() {
    assert_legal("401.4-two-cards-discarded-to-the-bottom-together-owner-orders");
}

/// 701.24g: the card put on the bottom at the time of the shuffle stays on the bottom.
#[test]
fn bears_shuffled_in_with_the_colossus_are_illegal() {
    assert_illegal("701.24g-colossus-and-bears-at-once-bears-on-the-bottom", "614.1a");
}

/// 701.24g with a top and a bottom card at once.
#[test]
fn bears_off_the_bottom_with_the_zombie_on_top_are_illegal() {
    assert_illegal("701.24g-colossus-zombie-and-bears-at-once", "614.1a");
}

/// 616.1: Gravebane Zombie's controller may apply the other permanent's effect.
#[test]
fn gravebane_zombie_on_the_bottom_is_legal() {
    assert_legal("616.1-gravebane-zombie-under-bottom-void-controller-chooses");
}

/// 616.1: a discarded Colossus's owner may apply the other permanent's effect.
#[test]
fn colossus_on_the_bottom_unrevealed_is_legal() {
    assert_legal("616.1-colossus-discarded-under-bottom-void-owner-chooses");
}

/// 601.2h: the mill part of the cost may be paid before the sacrifice.
#[test]
fn mill_paid_before_the_sacrifice_is_legal() {
    assert_legal("601.2h-sacrifice-and-mill-cost-paid-in-either-order");
}
