//! For a FAIL: the zones the engine reported beside those of the closest legal outcome, so a
//! reader sees at a glance which cards ended up where they can't (the conformance page shows them
//! side by side).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::explore::{explore_bounded, first_run};
use crate::outcome::{LegalOutcome, Outcome, canonical_library};
use crate::scenario::Setup;

/// How many paths through the decisions are explored to find the closest legal outcome; beyond
/// it the first legal outcome stands in (one FAIL must not cost more than a moment).
const CLOSEST_RUN_LIMIT: usize = 2_000;

/// How many bytes of distinct outcomes that exploration may hold.
const CLOSEST_OUTCOME_BYTES: usize = 16 << 20;

/// The observed zones and the zones of the legal outcome closest to them.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZoneSides {
    /// Zone name → card ids, as the engine reported them.
    pub observed: BTreeMap<String, Vec<String>>,
    /// Zone name → card ids of the closest legal outcome (a library's random middle sorted by id).
    pub legal: BTreeMap<String, Vec<String>>,
    /// Per legal library: the index range `[start, end)` whose order is random (any order is
    /// legal there, 701.24a); left out when at most one card is in random order.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub unordered: BTreeMap<String, [usize; 2]>,
    /// True when the legal side is the first legal outcome rather than the closest (the scenario
    /// has too many outcomes to compare them all).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub first_legal_only: bool,
}

impl ZoneSides {
    /// The zones of `observed` beside those of the legal outcome of `setup` with the fewest
    /// differing zones; `None` if the oracle can't run the scenario.
    pub fn of(setup: &Setup, observed: &Outcome) -> Option<ZoneSides> {
        let (closest, first_legal_only) = match explore_bounded(setup, CLOSEST_RUN_LIMIT, CLOSEST_OUTCOME_BYTES) {
            Ok(found) => (found.outcomes.into_values().min_by_key(|legal| distance(legal, observed))?, false),
            Err(_) => (first_run(setup).ok()?.0, true),
        };
        let unordered = closest
            .outcome
            .zones
            .iter()
            .filter_map(|(zone, cards)| {
                let fixed = closest.fixed.get(zone).filter(|_| zone.ends_with(".library"))?;
                let len = cards.len();
                let top = fixed.top().min(len);
                let end = len - fixed.bottom().min(len - top);
                (end > top + 1).then(|| (zone.clone(), [top, end]))
            })
            .collect();
        Some(ZoneSides { observed: observed.zones.clone(), legal: closest.outcome.zones, unordered, first_legal_only })
    }
}

/// How far `observed`'s zones are from `legal`'s: per zone, the cards in one and not the other,
/// plus one when the same cards are in an order the rules don't allow.
fn distance(legal: &LegalOutcome, observed: &Outcome) -> usize {
    let empty = Vec::new();
    let names: std::collections::BTreeSet<&String> = legal.outcome.zones.keys().chain(observed.zones.keys()).collect();
    names
        .into_iter()
        .map(|zone| {
            let want = legal.outcome.zones.get(zone).unwrap_or(&empty);
            let got = observed.zones.get(zone).unwrap_or(&empty);
            let missing = want.iter().filter(|c| !got.contains(c)).count();
            let extra = got.iter().filter(|c| !want.contains(c)).count();
            if missing + extra > 0 {
                return missing + extra;
            }
            let mut got = got.clone();
            if let Some(fixed) = legal.fixed.get(zone).filter(|_| zone.ends_with(".library")) {
                canonical_library(&mut got, fixed);
            }
            usize::from(&got != want)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardPool;
    use crate::scenario::load_file;

    /// Every legal outcome of a scenario with four of them is its own closest: the legal side is
    /// picked by distance, not the first one found.
    #[test]
    fn the_legal_side_is_the_outcome_closest_to_the_observed_one() {
        let pool = CardPool::bundled().unwrap();
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../scenarios/101.4-apnap/101.4e-leyline-choices-unscripted-four-outcomes.yaml");
        let loaded = load_file(&path, &pool).unwrap();
        let found = explore_bounded(&loaded.setup, CLOSEST_RUN_LIMIT, CLOSEST_OUTCOME_BYTES).unwrap();
        let distinct: std::collections::BTreeSet<_> = found.outcomes.values().map(|l| &l.outcome.zones).collect();
        assert!(distinct.len() > 1, "the scenario needs outcomes with different zones");
        for legal in found.outcomes.values() {
            let sides = ZoneSides::of(&loaded.setup, &legal.outcome).unwrap();
            assert_eq!(sides.legal, legal.outcome.zones, "an observed legal outcome is its own closest");
            assert_eq!(sides.observed, legal.outcome.zones);
            assert!(!sides.first_legal_only);
        }
    }
}
