//! The judge on libraries of 10^3, 10^4 and 10^5 cards: Alice casts a hypothetical "search your
//! library for up to three basic land cards, put them onto the battlefield, then shuffle". The
//! judge must accept the legal outcome as an engine would report it (library in a random order)
//! and reject each corrupted one with the clause that decides it, and the enumerator must give up
//! with `TooLarge` on the big library instead of hanging. No timing assertions: the benchmark
//! (`cargo bench -p mtg-oracle --bench judge`) measures the time.

use std::sync::OnceLock;

use mtg_oracle::explore::{explore, first_run};
use mtg_oracle::fuzzing::generate::{forests_to_find, land_search_scenario};
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::concrete::concretize;
use mtg_oracle::outcome::{Event, Outcome};
use mtg_oracle::scenario::{Setup, load_scenario};
use mtg_oracle::sim::SimError;
use mtg_oracle_tests::{found_mut, pool};

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const SEED: u64 = 0x5ca1_ab1e;

/// The unscripted setup the judge works on, and a legal outcome of it (three Forests found, the
/// library in a random order), as an engine would report it.
struct Fixture {
    size: usize,
    setup: Setup,
    found: Vec<String>,
    legal: Outcome,
}

fn build(size: usize) -> Fixture {
    let pool = pool();
    let found = forests_to_find(size, 3);
    let id = format!("scaling-{size}");
    let setup = load_scenario(&id, land_search_scenario(size, 3, None), &pool).expect("the scenario loads").setup;
    // A scripted find picks which three Forests the legal outcome has (an outcome of the
    // unscripted scenario too); the judge then works on the unscripted setup.
    let scripted =
        load_scenario(&id, land_search_scenario(size, 3, Some(found.clone())), &pool).expect("the scenario loads");
    let (outcome, unused) = first_run(&scripted.setup).expect("the scripted run succeeds");
    assert!(unused.is_empty(), "the scripted find was not used");
    let legal = concretize(&outcome, SEED);
    Fixture { size, setup, found, legal }
}

fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| SIZES.iter().map(|&n| build(n)).collect())
}

fn zone<'a>(o: &'a mut Outcome, name: &str) -> &'a mut Vec<String> {
    o.zones.get_mut(name).unwrap_or_else(|| panic!("the outcome has no {name}"))
}

/// The main difference's clause; panics unless the verdict is `Illegal`.
fn clause(verdict: &Verdict, what: &str, size: usize) -> String {
    match verdict {
        Verdict::Illegal(diffs) => diffs.first().map(|d| d.clause.clone()).unwrap_or_default(),
        other => panic!("{what} at {size} cards: expected Illegal, got {other:?}"),
    }
}

#[test]
fn judge_accepts_the_concretized_legal_outcome() {
    for f in fixtures() {
        // The library really is reported in a random order, not the canonical (sorted) one.
        let library = &f.legal.zones["Alice.library"];
        assert_eq!(library.len(), f.size - 3);
        assert!(library.windows(2).any(|w| w[0] > w[1]), "concretize left the library sorted");
        let mut on_battlefield = f.legal.zones["battlefield"].clone();
        on_battlefield.sort();
        let mut found = f.found.clone();
        found.sort();
        assert_eq!(on_battlefield, found);
        assert_eq!(judge(&f.setup, &f.legal), Verdict::Legal, "at {} cards", f.size);
    }
}

#[test]
fn judge_rejects_finding_a_card_that_is_not_a_basic_land() {
    for f in fixtures() {
        // The engine "found" Grizzly Bears instead of the first Forest and put it onto the
        // battlefield.
        let mut o = f.legal.clone();
        let forest = f.found[0].clone();
        let bears = "bears-1".to_string();
        found_mut(&mut o)[0] = bears.clone();
        for e in &mut o.events {
            if let Event::Moved { card, .. } = &mut e.event
                && *card == forest
            {
                *card = bears.clone();
            }
        }
        let battlefield = zone(&mut o, "battlefield");
        let at = battlefield.iter().position(|c| *c == forest).expect("the Forest is on the battlefield");
        battlefield[at] = bears.clone();
        let library = zone(&mut o, "Alice.library");
        let at = library.iter().position(|c| *c == bears).expect("the Bears are in the library");
        library[at] = forest;
        let verdict = judge(&f.setup, &o);
        assert_eq!(clause(&verdict, "a nonbasic find", f.size), "701.23a", "{verdict:?}");
        let Verdict::Illegal(diffs) = &verdict else { unreachable!() };
        assert!(diffs[0].message.contains("bears-1") && diffs[0].message.contains("doesn't match"), "{diffs:?}");
    }
}

#[test]
fn judge_rejects_a_found_forest_left_in_the_library() {
    for f in fixtures() {
        // The log says the Forest was found and moved, but the final state has it back in the
        // library (in the middle of the random part).
        let mut o = f.legal.clone();
        let forest = f.found[1].clone();
        zone(&mut o, "battlefield").retain(|c| *c != forest);
        let library = zone(&mut o, "Alice.library");
        library.insert(library.len() / 2, forest.clone());
        let verdict = judge(&f.setup, &o);
        assert_eq!(clause(&verdict, "a Forest left in the library", f.size), "701.23a", "{verdict:?}");
        let Verdict::Illegal(diffs) = &verdict else { unreachable!() };
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert!(diffs[0].message.contains(&forest) && diffs[0].message.contains("battlefield"), "{diffs:?}");
    }
}

#[test]
fn judge_rejects_a_missing_shuffle() {
    for f in fixtures() {
        let mut o = f.legal.clone();
        let before = o.events.len();
        o.events.retain(|e| !matches!(e.event, Event::Shuffled { .. }));
        assert_eq!(o.events.len(), before - 1, "the legal outcome has exactly one shuffle");
        let verdict = judge(&f.setup, &o);
        assert_eq!(clause(&verdict, "a missing shuffle", f.size), "701.24a", "{verdict:?}");
        let Verdict::Illegal(diffs) = &verdict else { unreachable!() };
        assert_eq!(diffs.len(), 1, "{diffs:?}");
        assert!(diffs[0].message.contains("shuffled"), "{diffs:?}");
    }
}

#[test]
fn judge_rejects_a_fourth_forest() {
    for f in fixtures() {
        // "Up to three": a fourth Forest found (and put onto the battlefield) is one too many.
        let mut o = f.legal.clone();
        let extra = "forest-7".to_string();
        assert!(!f.found.contains(&extra));
        found_mut(&mut o).push(extra.clone());
        zone(&mut o, "Alice.library").retain(|c| *c != extra);
        zone(&mut o, "battlefield").push(extra);
        let verdict = judge(&f.setup, &o);
        assert_eq!(clause(&verdict, "a fourth Forest", f.size), "701.23a", "{verdict:?}");
        let Verdict::Illegal(diffs) = &verdict else { unreachable!() };
        assert!(diffs[0].message.contains("at most 3"), "{diffs:?}");
    }
}

/// `explore` on the 10^5 library with a small run limit.
fn explore_huge() -> Result<usize, SimError> {
    let f = fixtures().last().expect("fixtures");
    assert_eq!(f.size, 100_000);
    explore(&f.setup, 10_000).map(|x| x.runs)
}

#[test]
fn explore_gives_up_on_a_huge_library_instead_of_hanging() {
    // 14,286 Forests, up to three: far more finds than the limit. Run on a thread with the usual
    // 2 MiB test stack: listing the finds is iterative, so depth doesn't grow with the library.
    let default_stack = std::thread::Builder::new().stack_size(2 << 20);
    let result = default_stack.spawn(explore_huge).expect("spawn").join().expect("explore panicked");
    match result {
        Err(SimError::TooLarge(why)) => assert!(why.contains("10000"), "{why}"),
        Err(other) => panic!("expected TooLarge, got {other:?}"),
        Ok(runs) => panic!("expected TooLarge, got an exploration of {runs} runs"),
    }
}

#[test]
fn explore_and_judge_agree_on_a_small_library() {
    // The same scenario at a size the enumerator handles: every enumerated outcome, reported in a
    // random order, is judged legal. 64 cards hold 10 Forests: 1 + 10 + 45 finds of up to two.
    let pool = pool();
    let setup = load_scenario("scaling-64", land_search_scenario(64, 2, None), &pool).expect("loads").setup;
    let x = explore(&setup, 10_000).expect("64 cards can be enumerated");
    assert_eq!(x.outcomes.len(), 56);
    assert_eq!(x.runs, 56);
    for (i, legal) in x.outcomes.values().enumerate() {
        assert_eq!(judge(&setup, &concretize(legal, SEED ^ i as u64)), Verdict::Legal, "outcome #{i}");
    }
}

/// A merged search (701.23h) of "all cards with different names" and "all cards with mana value
/// 2 or less", both into the hand, over a library of `copies` Forests, Lightning Bolts and
/// Grizzly Bears each; the scripted find takes every card, one of each name first (the in-order
/// rule gives those three to the first instruction).
fn merged_find_scenario(copies: usize, scripted: bool) -> String {
    let mut library = String::new();
    let mut find = vec!["forest-1".to_string(), "bolt-1".to_string(), "bears-1".to_string()];
    for (name, id) in [("Forest", "forest"), ("Lightning Bolt", "bolt"), ("Grizzly Bears", "bears")] {
        for i in 1..=copies {
            library.push_str(&format!("      - {{card: {name}, id: {id}-{i}}}\n"));
            if i > 1 {
                find.push(format!("{id}-{i}"));
            }
        }
    }
    let decisions = if scripted {
        format!("decisions:\n  - search: {{player: Alice, find: [{}]}}\n", find.join(", "))
    } else {
        String::new()
    };
    format!(
        "title: merged find at scale\nrules: [\"701.23h\"]\nsource: {{kind: clause, reference: \"701.23h\"}}\ncards:\n  \
         - name: Sorted Tutor\n    mana_cost: \"{{1}}\"\n    types: [Sorcery]\n    oracle: \"test\"\n    spell:\n      \
         effect:\n        - search: {{searcher: you, zones: [library], count: all, different_names: true, to: hand}}\n        \
         - search: {{searcher: you, zones: [library], for: {{mana_value_at_most: 2}}, count: all, to: hand, shuffle: true}}\n\
         players:\n  - name: Alice\n    hand: [{{card: Sorted Tutor, id: tutor}}]\n    library:\n{library}  - name: Bob\n\
         {decisions}steps:\n  - cast: {{player: Alice, card: tutor}}\n  - resolve_all\nexpect: {{}}\n"
    )
}

/// Fuzz finding 14 at scale: the judge splits a merged find of 300 and 4 500 ambiguous cards
/// exactly (a flow, not a bounded walk), accepts the legal outcome, and names the minimum a find
/// without the Bears breaks (701.23d). No timing assertion: the flow is linear in practice
/// (`fuzz/FINDINGS.md` 14 has the figure).
#[test]
fn judge_splits_a_large_merged_find_exactly() {
    for copies in [100, 1_500] {
        let scripted =
            mtg_oracle::scenario::load_str("scaled.yaml", &merged_find_scenario(copies, true), &pool()).expect("loads");
        let unscripted = mtg_oracle::scenario::load_str("scaled.yaml", &merged_find_scenario(copies, false), &pool())
            .expect("loads");
        let (outcome, _) = first_run(&scripted.setup).expect("the scripted run succeeds");
        let legal = concretize(&outcome, SEED);
        assert_eq!(judge(&unscripted.setup, &legal), Verdict::Legal, "{copies} copies of each name");
        let mut no_bears = legal.clone();
        let bears = |c: &str| c.starts_with("bears-");
        found_mut(&mut no_bears).retain(|c| !bears(c));
        no_bears.events.retain(|e| !matches!(&e.event, Event::Moved { card, .. } if bears(card)));
        let moved: Vec<String> = zone(&mut no_bears, "Alice.hand").iter().filter(|c| bears(c)).cloned().collect();
        zone(&mut no_bears, "Alice.hand").retain(|c| !bears(c));
        no_bears.zones.entry("Alice.library".into()).or_default().extend(moved.iter().cloned());
        for c in &moved {
            no_bears.known.remove(c);
        }
        let verdict = judge(&unscripted.setup, &no_bears);
        assert_eq!(clause(&verdict, "no Bears found", copies), "701.23d", "{verdict:?}");
    }
}
