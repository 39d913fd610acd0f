//! Comparing an observed library with the replay's, card by card where the rules fix positions
//! and as a set of objects where the library was shuffled, without writing out the replay's
//! library as ids: the judge's test for a match on a library of 100 000 cards.
//!
//! It answers exactly what [`crate::outcome::zones_match_canonical`] answers for a library zone
//! (the canonical form sorts each fixed group and the shuffled middle, then the two lists must be
//! equal), or `false` where it can't tell cheaply (an id the setup's index doesn't hold, two
//! objects with one id): the judge then compares the whole outcome the usual way, so a `false`
//! here costs time, never a verdict.

use crate::model::{Game, ObjId};
use crate::outcome::FixedPositions;
use crate::scenario::Setup;

/// The longest shuffled part compared by sorting its ids; a longer one is looked up in the
/// setup's index of objects by id, one hash lookup a card.
const SORTED_UP_TO: usize = 32;

/// The positions of a library no rule fixes.
pub(super) static NOTHING_FIXED: FixedPositions = FixedPositions { top_groups: Vec::new(), bottom_groups: Vec::new() };

/// Whether the observed library `got` holds the replay's library `want` (its objects, top first),
/// given the positions `fixed` fixes: each fixed group the same cards in any order (401.4: the
/// owner orders cards put there at once), every other fixed position the same card, and the
/// shuffled part the same cards in any order (701.24a).
pub(super) fn library_matches(
    game: &Game,
    setup: &Setup,
    want: &[ObjId],
    got: &[String],
    fixed: &FixedPositions,
) -> bool {
    let len = want.len();
    if got.len() != len {
        return false;
    }
    let id = |o: ObjId| &*game.obj(o).id;
    let top = fixed.top().min(len);
    let bottom = fixed.bottom().min(len - top);
    let groups: Vec<std::ops::Range<usize>> = fixed.top_ranges(len).chain(fixed.bottom_ranges(len)).collect();
    if !groups.iter().all(|r| same_ids_sorted(want[r.clone()].iter().map(|&o| id(o)), &got[r.clone()])) {
        return false;
    }
    // A fixed position in no group (the canonical form leaves it as listed).
    let in_a_group = |i: usize| groups.iter().any(|r| r.contains(&i));
    let fixed_positions = (0..top).chain(len - bottom..len);
    if !fixed_positions.filter(|&i| !in_a_group(i)).all(|i| id(want[i]) == got[i]) {
        return false;
    }
    let (want, got) = (&want[top..len - bottom], &got[top..len - bottom]);
    if want.len() <= SORTED_UP_TO {
        return same_ids_sorted(want.iter().map(|&o| id(o)), got);
    }
    // Each observed id takes a distinct replay object that has it; with as many ids as objects,
    // every object is taken once: the same cards. The index is the setup's; the replay's objects
    // are the setup's, with the same ids, plus any it made (which the index can't name).
    let index = setup.objects_by_id();
    if !index.describes(game) {
        return false;
    }
    let mut untaken = vec![false; game.objs.len()];
    for &o in want {
        untaken[o] = true;
    }
    index.all_found(got, |found| match found {
        Some(o) if untaken[o] => {
            untaken[o] = false;
            true
        }
        _ => false,
    })
}

/// Whether `want` and `got` hold the same ids, in any order (in the same order, as an observation
/// of the oracle's own outcome has them, without sorting).
fn same_ids_sorted<'a>(want: impl Iterator<Item = &'a str> + Clone, got: &[String]) -> bool {
    if want.clone().eq(got.iter().map(String::as_str)) {
        return true;
    }
    let mut want: Vec<&str> = want.collect();
    let mut got: Vec<&str> = got.iter().map(String::as_str).collect();
    want.sort_unstable();
    got.sort_unstable();
    want == got
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{canonical_library, zones_match_canonical};
    use std::collections::BTreeMap;

    fn setup(size: usize) -> Setup {
        let pool = crate::cards::CardPool::bundled().unwrap();
        let scenario = crate::fuzzing::generate::land_search_scenario(size, 3, None);
        crate::scenario::load_scenario("library-match", scenario, &pool).unwrap().setup
    }

    /// What `outcome::zones_match_canonical` answers for one library zone.
    fn canonical_answer(game: &Game, want: &[ObjId], got: &[String], fixed: &FixedPositions) -> bool {
        let mut ids: Vec<String> = want.iter().map(|&o| game.obj(o).id_string()).collect();
        canonical_library(&mut ids, fixed);
        let zone = "Alice.library".to_string();
        let one = |v: Vec<String>| BTreeMap::from([(zone.clone(), v)]);
        let canonical = if ids.is_empty() { BTreeMap::new() } else { one(ids) };
        zones_match_canonical(&canonical, &one(got.to_vec()), &BTreeMap::from([(zone.clone(), fixed.clone())]))
    }

    /// On libraries short and long (both ways of comparing the shuffled part), with fixed groups
    /// at the top and bottom, observations in another order or changed by a swap, a card of
    /// another zone or a repeated card get the answer the canonical comparison gives.
    #[test]
    fn answers_as_the_canonical_comparison_does() {
        use proptest::prelude::*;
        let setup = setup(120);
        let game = &setup.game;
        let objects: Vec<ObjId> = (0..game.objs.len()).collect();
        let groups = || proptest::collection::vec(1..4usize, 0..3);
        let library = proptest::sample::subsequence(objects.clone(), 0..90).prop_shuffle();
        let change = (0..4u8, 0..200usize, 0..200usize, 0..game.objs.len());
        let mut runner = crate::test_support::seeded_runner(3000, 0x6c69_6272);
        let (agreed_yes, agreed_no, long) = (std::cell::Cell::new(0), std::cell::Cell::new(0), std::cell::Cell::new(0));
        runner
            .run(&(library, groups(), groups(), change), |(want, top_groups, bottom_groups, (kind, i, j, other))| {
                let fixed = FixedPositions { top_groups, bottom_groups };
                let mut got: Vec<String> = want.iter().map(|&o| game.obj(o).id_string()).collect();
                canonical_library(&mut got, &fixed);
                let len = got.len();
                let top = fixed.top().min(len);
                let bottom = fixed.bottom().min(len - top);
                got[top..len - bottom].reverse();
                if len > 0 {
                    let (i, j) = (i % len, j % len);
                    match kind {
                        0 => got.swap(i, j),
                        1 => got[i] = game.obj(other).id_string(),
                        2 => got[i] = got[j].clone(),
                        _ => {}
                    }
                }
                let expected = canonical_answer(game, &want, &got, &fixed);
                prop_assert_eq!(library_matches(game, &setup, &want, &got, &fixed), expected);
                let counter = if expected { &agreed_yes } else { &agreed_no };
                counter.set(counter.get() + 1);
                long.set(long.get() + usize::from(len - top - bottom > SORTED_UP_TO));
                Ok(())
            })
            .unwrap();
        assert!(
            agreed_yes.get() > 500 && agreed_no.get() > 500,
            "{} matches, {} not",
            agreed_yes.get(),
            agreed_no.get()
        );
        assert!(long.get() > 500, "too few shuffled parts took the index: {}", long.get());
    }

    /// The judge's two parts of a replay's outcome, put together, are the outcome itself, for
    /// every bundled scenario (run with the first legal answer at each decision) and the long
    /// library of the scaling benchmark.
    #[test]
    fn the_outcome_in_two_parts_is_the_outcome() {
        use crate::sim::Sim;
        use crate::sim::script::Scripted;
        let pool = crate::cards::CardPool::bundled().unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../scenarios");
        let files = crate::scenario::collect_files(&[root]).unwrap();
        let mut setups: Vec<Setup> =
            files.iter().filter_map(|f| crate::scenario::load_file(f, &pool).ok()).map(|l| l.setup).collect();
        assert!(setups.len() > 500, "only {} bundled scenarios loaded", setups.len());
        setups.push(setup(1000));
        let mut with_libraries = 0;
        for setup in &setups {
            let mut decider = Scripted::new(&setup.script, crate::explore::FirstLegal);
            let mut sim = Sim::new(setup.game.clone(), &mut decider);
            let _ = sim.run(&setup.actions);
            let (outcome, libraries) = sim.outcome_libraries_apart();
            with_libraries += usize::from(!libraries.is_empty());
            assert_eq!(crate::sim::with_libraries(&sim.game, outcome, &libraries), sim.outcome());
        }
        assert!(with_libraries > 400, "only {with_libraries} outcomes had a library");
    }

    /// A game whose objects don't hold the ids the index was made from (an object given another
    /// id) is not compared through the index: `false`, and the judge compares the long way.
    /// Through the index, the observation (which still names the old id) would match.
    #[test]
    fn a_game_the_index_does_not_describe_is_not_matched_through_it() {
        let setup = setup(100);
        let want: Vec<ObjId> = setup.game.zones[&crate::model::ZoneRef::Library(0)].iter().copied().rev().collect();
        let got: Vec<String> = want.iter().map(|&o| setup.game.obj(o).id_string()).collect();
        assert!(want.len() > SORTED_UP_TO);
        assert!(library_matches(&setup.game, &setup, &want, &got, &NOTHING_FIXED));
        let mut changed = setup.game.clone();
        changed.objs[want[5]].id = "a-renamed-card".into();
        assert!(!library_matches(&changed, &setup, &want, &got, &NOTHING_FIXED));
    }
}
