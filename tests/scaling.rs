//! The judge on libraries of 10^3, 10^4 and 10^5 cards: Alice casts a hypothetical "search your
//! library for up to three basic land cards, put them onto the battlefield, then shuffle". The
//! judge must accept the legal outcome as an engine would report it (library in a random order)
//! and reject each corrupted one with the clause that decides it, and the enumerator must give up
//! with `TooLarge` on the big library instead of hanging. No timing assertions: the benchmark
//! (`cargo bench -p mtg-oracle --bench judge`) measures the time.

use std::sync::OnceLock;

use mtg_oracle::cards::def::{CardDef, CardType, SpellAbility, Supertype};
use mtg_oracle::corrupt::concretize;
use mtg_oracle::effects::{Count, Destination, Effect, Filter, SearchSpec, SearchZone};
use mtg_oracle::explore::{explore, first_run};
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, Outcome};
use mtg_oracle::scenario::format::{
    CardSetup, Expectations, PlayerSetup, Scenario, ScriptedDecision, Source, SourceKind, Step,
};
use mtg_oracle::scenario::{Setup, load_scenario};
use mtg_oracle::sim::SimError;
use mtg_oracle_tests::pool;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];
const SEARCH_CARD: &str = "Scaling Search";
const SEED: u64 = 0x5ca1_ab1e;

/// "Search your library for up to `n` basic land cards, put them onto the battlefield, then
/// shuffle."
fn search_card(n: u32) -> CardDef {
    let filter = Filter { types: vec![CardType::Land], supertypes: vec![Supertype::Basic], ..Filter::default() };
    CardDef {
        name: SEARCH_CARD.into(),
        mana_cost: Some("{1}{G}".into()),
        types: vec![CardType::Sorcery],
        oracle: format!(
            "Search your library for up to {n} basic land cards, put them onto the battlefield, then shuffle."
        ),
        spell: Some(SpellAbility {
            targets: Vec::new(),
            effect: vec![Effect::Search(SearchSpec {
                zones: vec![SearchZone::Library],
                filter: Some(filter),
                count: Count::UpTo(n),
                to: Destination::Battlefield,
                shuffle: true,
                ..SearchSpec::default()
            })],
        }),
        ..CardDef::default()
    }
}

fn card(name: &str, id: String) -> CardSetup {
    CardSetup { card: name.into(), id: Some(id), owner: None, controller: None, known_to: Vec::new(), face_down: false }
}

/// Alice's library, top first: every 7th card a Forest, the rest Grizzly Bears. Ids are given
/// explicitly (`forest-0`, `bears-1`, …).
fn alice_library(size: usize) -> Vec<CardSetup> {
    (0..size)
        .map(|i| {
            if i % 7 == 0 { card("Forest", format!("forest-{i}")) } else { card("Grizzly Bears", format!("bears-{i}")) }
        })
        .collect()
}

/// `count` Forests spread over the library (first, middle, last, …).
fn forests_to_find(size: usize, count: usize) -> Vec<String> {
    let forests: Vec<usize> = (0..size).step_by(7).collect();
    let count = count.min(forests.len());
    let picks: Vec<usize> = match count {
        0 => Vec::new(),
        1 => vec![forests[0]],
        _ => (0..count).map(|j| forests[j * (forests.len() - 1) / (count - 1)]).collect(),
    };
    picks.into_iter().map(|i| format!("forest-{i}")).collect()
}

/// The scenario; with `find`, Alice's search is scripted to find those cards.
fn scenario(size: usize, up_to: u32, find: Option<Vec<String>>) -> Scenario {
    let bob = ["Plains", "Island", "Forest", "Grizzly Bears", "Forest"]
        .iter()
        .enumerate()
        .map(|(i, name)| card(name, format!("bob-{i}")))
        .collect();
    Scenario {
        title: format!("up to {up_to} basic lands from a library of {size}"),
        rules: vec!["701.23a".into(), "701.23b".into(), "701.24a".into()],
        source: Source { kind: SourceKind::Clause, reference: "701.23a (scaling test)".into() },
        tags: Vec::new(),
        description: None,
        cards: vec![search_card(up_to)],
        players: vec![
            PlayerSetup {
                name: "Alice".into(),
                life: 20,
                library: alice_library(size),
                hand: vec![card(SEARCH_CARD, "the-search".into())],
                graveyard: Vec::new(),
                outside: Vec::new(),
            },
            PlayerSetup {
                name: "Bob".into(),
                life: 20,
                library: bob,
                hand: Vec::new(),
                graveyard: Vec::new(),
                outside: Vec::new(),
            },
        ],
        battlefield: Vec::new(),
        exile: Vec::new(),
        steps: vec![
            Step::Cast { player: "Alice".into(), card: "the-search".into(), face: None, targets: Vec::new() },
            Step::ResolveAll,
        ],
        decisions: find.map(|find| vec![ScriptedDecision::Search { player: "Alice".into(), find }]).unwrap_or_default(),
        expect: Expectations::default(),
    }
}

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
    let setup = load_scenario(&id, scenario(size, 3, None), &pool).expect("the scenario loads").setup;
    // A scripted find picks which three Forests the legal outcome has (an outcome of the
    // unscripted scenario too); the judge then works on the unscripted setup.
    let scripted = load_scenario(&id, scenario(size, 3, Some(found.clone())), &pool).expect("the scenario loads");
    let (outcome, unused) = first_run(&scripted.setup).expect("the scripted run succeeds");
    assert!(unused.is_empty(), "the scripted find was not used");
    let legal = concretize(&outcome, SEED);
    Fixture { size, setup, found, legal }
}

fn fixtures() -> &'static [Fixture] {
    static FIXTURES: OnceLock<Vec<Fixture>> = OnceLock::new();
    FIXTURES.get_or_init(|| SIZES.iter().map(|&n| build(n)).collect())
}

fn searched_found(o: &mut Outcome) -> &mut Vec<String> {
    o.events
        .iter_mut()
        .find_map(|e| match &mut e.event {
            Event::Searched { found, .. } => Some(found),
            _ => None,
        })
        .expect("the outcome has a search")
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
        searched_found(&mut o)[0] = bears.clone();
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
        searched_found(&mut o).push(extra.clone());
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
    let setup = load_scenario("scaling-64", scenario(64, 2, None), &pool).expect("loads").setup;
    let x = explore(&setup, 10_000).expect("64 cards can be enumerated");
    assert_eq!(x.outcomes.len(), 56);
    assert_eq!(x.runs, 56);
    for (i, legal) in x.outcomes.values().enumerate() {
        assert_eq!(judge(&setup, &concretize(legal, SEED ^ i as u64)), Verdict::Legal, "outcome #{i}");
    }
}
