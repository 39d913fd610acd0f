//! The judge and the enumerator agree: on random small states, every enumerated outcome (reported
//! with any shuffle order) is judged legal, and every single-step corruption of it is judged legal
//! exactly when it is itself one of the enumerated outcomes.

use mtg_oracle::fuzzing::check::agreement;
use mtg_oracle::fuzzing::generate::{GenParams, PALETTE};
use mtg_oracle::scenario::load_scenario;
use mtg_oracle_tests::pool;
use proptest::prelude::*;
use proptest::test_runner::{Config, RngSeed};

fn zone(max: usize) -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(0..PALETTE.len() as u8, 0..=max)
}

fn params() -> impl Strategy<Value = GenParams> {
    let player = (zone(6), zone(2), zone(2), zone(2)).prop_map(|(a, b, c, d)| [a, b, c, d]);
    (
        prop::collection::vec(player, 2..=3),
        (0..3usize, prop::option::of(0..3usize), prop::option::of(0..3usize)),
        (0..16u8, 0..8u8, 0..4u8, 1..=3u8),
        (any::<bool>(), 0..5u8, any::<bool>(), any::<bool>()),
        (any::<bool>(), any::<bool>(), prop::option::weighted(0.2, 0..8u8)),
    )
        .prop_map(
            |(
                zones,
                (caster, mindcensor, ob_nixilis),
                (zone_bits, quality, count_kind, count_n),
                (reveal, destination, shuffle, optional),
                (each_player, target_opponent, second),
            )| {
                GenParams {
                    zones,
                    caster,
                    mindcensor,
                    ob_nixilis,
                    zone_bits,
                    quality,
                    count_kind,
                    count_n,
                    reveal,
                    destination,
                    shuffle,
                    optional,
                    each_player,
                    target_opponent,
                    second,
                }
            },
        )
}

/// Runs the agreement check on one generated scenario; returns how many outcomes it covered.
/// The check itself is shared with the fuzz targets (`mtg_oracle::fuzzing::check::agreement`).
fn check_agreement(p: &GenParams, seed: u64) -> Result<usize, TestCaseError> {
    let pool = pool();
    let loaded = load_scenario("generated", p.scenario(), &pool)
        .map_err(|e| TestCaseError::fail(format!("generator made an invalid scenario: {e}")))?;
    // Too many outcomes to enumerate, or a palette card whose unmodelled enters ability would
    // act (Snapcaster Mage put onto the battlefield), count as 0 outcomes.
    agreement(&loaded.setup, 400, seed).map_err(|e| TestCaseError::fail(e.to_string()))
}

proptest! {
    #![proptest_config(Config { cases: 160, rng_seed: RngSeed::Fixed(0x6d74_675f_6f72_636c), failure_persistence: None, ..Config::default() })]

    #[test]
    fn judge_agrees_with_enumerator(p in params(), seed in any::<u64>()) {
        check_agreement(&p, seed)?;
    }
}

/// The generator from seeds reaches the interesting cases and they agree too.
#[test]
fn seeded_scenarios_agree_and_cover_the_interesting_cases() {
    let (mut capped, mut multi_outcome, mut total) = (0, 0, 0);
    for seed in 0..120u64 {
        let p = GenParams::from_seed(seed);
        let n = check_agreement(&p, seed).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        total += n;
        if n > 1 {
            multi_outcome += 1;
        }
        if p.mindcensor.is_some() {
            capped += 1;
        }
    }
    assert!(capped > 20, "only {capped} seeds had a Mindcensor");
    assert!(multi_outcome > 30, "only {multi_outcome} seeds had a choice");
    assert!(total > 300, "only {total} outcomes checked");
}
