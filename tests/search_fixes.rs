//! Judge verdicts on observed outcomes for the search fixes of the rules audit: each observation
//! (a JSON outcome beside its scenario in `scenarios/regressions/` or `tests/not-modelled/`) was
//! misjudged before the fix, and each test says what the rules make of it now.

use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, Outcome};
use mtg_oracle::runner::{RunResult, run_file, run_loaded};
use mtg_oracle::scenario::{Loaded, load_file, load_str};
use mtg_oracle_tests::{assert_illegal_first, pool, repo_root};

fn load(path: &str) -> Loaded {
    load_file(&repo_root().join(path), &pool()).unwrap_or_else(|e| panic!("{e}"))
}

fn observed(path: &str) -> Outcome {
    let text = std::fs::read_to_string(repo_root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

#[track_caller]
fn assert_legal(loaded: &Loaded, o: &Outcome) {
    let verdict = judge(&loaded.setup, o);
    assert!(verdict.is_legal(), "expected Legal, got {verdict:?}");
}

const MEMORICIDE: &str = "scenarios/regressions/701.23b-memoricide-any-number-may-leave-graveyard-copy";

/// Item 1 (701.23b): "any number" lets the searcher leave the graveyard copy; only "all" forces it.
#[test]
fn any_number_search_may_leave_a_graveyard_card() {
    let s = load(&format!("{MEMORICIDE}.yaml"));
    let o = observed(&format!("{MEMORICIDE}.observed-graveyard-copy-left.json"));
    assert!(o.zones["Bob.graveyard"].contains(&"bears-gy".to_string()));
    assert_legal(&s, &o);
    // The same observation under "all cards" (Splinter's and Cranial Extraction's wording) breaks
    // 701.23b: the scenario's text with the count changed.
    let text = std::fs::read_to_string(repo_root().join(format!("{MEMORICIDE}.yaml"))).expect("scenario");
    let all = text.replace("hand: [Memoricide]", "hand: [{card: Cranial Extraction, id: memoricide}]");
    let all = load_str("all.yaml", &all, &pool()).expect("the Cranial Extraction variant loads");
    assert_illegal_first(&all, &o, "701.23b", &["public zone", "bears-gy"]);
}

/// Item 2: a card whose unmodelled ability would act refuses the run instead of being judged.
/// (Jace's Erasure and then Panglacial Wurm were the cases here until issue 12 modelled them; they
/// are scenarios now, under `scenarios/121-draw/`, `scenarios/504-draw-step/` and
/// `scenarios/601.3-cast-permission/`; so is Bitter Ordeal's gravestorm, under
/// `scenarios/702.69-gravestorm/`. The case is now a hypothetical card with storm.)
#[test]
fn unmodelled_acting_cards_refuse_the_run() {
    let (name, card) = ("storm-spell-cast", "Hypothetical Storm Ordeal");
    let yaml = repo_root().join("tests/not-modelled").join(format!("{name}.yaml"));
    match run_file(&yaml, &pool()) {
        RunResult::Invalid(e) => {
            assert!(e.message.contains("not modelled") && e.message.contains(card), "{name}: {e}")
        }
        other => panic!("{name}: expected a not-modelled refusal, got {other:?}"),
    }
    let loaded = load(&format!("tests/not-modelled/{name}.yaml"));
    // The outcome an engine without the card's ability reports: not judged legal any more.
    let o = observed(&format!("tests/not-modelled/{name}.observed.json"));
    match judge(&loaded.setup, &o) {
        Verdict::Error(m) => assert!(m.contains("not modelled") && m.contains(card), "{name}: {m}"),
        other => panic!("{name}: expected an error (not modelled), got {other:?}"),
    }
}

/// 701.23h (found by the second audit): another player's search or another library's shuffle
/// between two search instructions of one library doesn't split them into two searches; carrying
/// it out inside the one search is refused as not modelled instead of judged as two searches.
#[test]
fn another_players_search_or_shuffle_inside_a_merged_search_is_refused() {
    for name in ["merged-search-around-another-librarys-shuffle", "merged-search-around-another-players-search"] {
        let yaml = repo_root().join("tests/not-modelled").join(format!("{name}.yaml"));
        match run_file(&yaml, &pool()) {
            RunResult::Invalid(e) => {
                assert!(e.message.contains("not modelled") && e.message.contains("701.23h"), "{name}: {e}")
            }
            other => panic!("{name}: expected a not-modelled refusal, got {other:?}"),
        }
    }
}

/// Item 2, the other side: the same cards where their abilities don't act are no reason to refuse.
#[test]
fn unmodelled_cards_that_do_not_act_are_fine() {
    let src = "\
title: t
rules: [\"701.23a\"]
source: {kind: clause, reference: t}
players:
  - name: Alice
    hand: [Praetor's Grasp]
    library: [Island]
  - name: Bob
    library: [Panglacial Wurm, Forest]
battlefield:
  - {card: \"Jace's Erasure\", owner: Bob}
steps:
  - cast: {player: Alice, card: praetor-s-grasp, targets: [Bob]}
  - resolve
  - draw: {player: Alice}
expect:
  outcomes: 2
";
    // Alice searches Bob's library (the Wurm's owner isn't searching) and draws while Bob
    // controls Jace's Erasure (its controller doesn't draw).
    let loaded = load_str("t.yaml", src, &pool()).expect("loads");
    let result = run_loaded(loaded);
    assert!(result.passed(), "{result:?}");
}

const MERGED: &str = "scenarios/regressions/701.23h-searches-apart-before-one-shuffle-are-one-search";

/// Item 6 (701.23h): search, lose life, search, shuffle is one search.
#[test]
fn searches_apart_before_one_shuffle_are_one_search() {
    let s = load(&format!("{MERGED}.yaml"));
    let o = observed(&format!("{MERGED}.observed-one-search.json"));
    assert_legal(&s, &o);
    // An engine that searched twice (a second `searched` event, its Ob Nixilis trigger left out)
    // breaks 701.23h.
    let mut twice = o.clone();
    let searched = twice.events.iter().find(|e| matches!(e.event, Event::Searched { .. })).cloned().expect("searched");
    let mut second = searched;
    if let Event::Searched { found, .. } = &mut second.event {
        found.clear();
    }
    twice.events.push(second);
    assert_illegal_first(&s, &twice, "701.23h", &["searched"]);
}

const CRANIAL: &str = "scenarios/regressions/201.4a-cranial-extraction-names-a-nonland-card";

/// Item 9 (201.4, 201.4a): a land card's name or a token's can't be chosen as a nonland card name,
/// whether or not such a card is in the game.
#[test]
fn illegal_names_are_rejected_by_201_4() {
    let s = load(&format!("{CRANIAL}.yaml"));
    let plains = observed(&format!("{CRANIAL}.observed-named-plains.json"));
    assert_illegal_first(&s, &plains, "201.4a", &["Plains"]);
    let renamed = |name: &str| {
        let mut o = plains.clone();
        for e in &mut o.events {
            if let Event::Named { name: n, .. } = &mut e.event {
                *n = name.to_string();
            }
        }
        o
    };
    assert_illegal_first(&s, &renamed("Hallowed Fountain"), "201.4a", &["Hallowed Fountain"]);
    assert_illegal_first(&s, &renamed("Clue"), "201.4", &["Clue", "token"]);
    // A nonland name is fine, in the game or not (a card the oracle doesn't know finds nothing).
    assert_legal(&s, &renamed("Grizzly Bears"));
    assert_legal(&s, &renamed("Black Lotus"));
}

/// Item 9, scripted: naming a land or a token is a located error at the decision.
#[test]
fn a_scripted_illegal_name_is_a_located_error() {
    let scenario = |name: &str| {
        format!(
            "\
title: t
rules: [\"201.4\"]
source: {{kind: clause, reference: t}}
players:
  - name: Alice
    hand: [Cranial Extraction]
  - name: Bob
    library: [Forest]
decisions:
  - name: {{player: Alice, name: {name}}}
steps:
  - cast: {{player: Alice, card: cranial-extraction, targets: [Bob]}}
  - resolve
expect:
  outcomes: 1
"
        )
    };
    for name in ["Plains", "Hallowed Fountain", "Clue"] {
        let loaded = load_str("t.yaml", &scenario(name), &pool()).expect("loads");
        match run_loaded(loaded) {
            RunResult::Invalid(e) => {
                assert_eq!((e.line, e.column), (10, 5), "{name}: {e}");
                assert!(e.message.contains("decisions[0]") && e.message.contains("201.4"), "{name}: {e}");
            }
            other => panic!("{name}: expected a located error, got {other:?}"),
        }
    }
    let loaded = load_str("t.yaml", &scenario("Grizzly Bears"), &pool()).expect("loads");
    let result = run_loaded(loaded);
    assert!(result.passed(), "{result:?}");
}

const LIMITS: &str = "scenarios/regressions/616.1-two-search-limits-searcher-orders-them";

/// Item 12 (616.1, 614.5): with two limits, the one the searcher applies last decides.
#[test]
fn either_of_two_search_limits_may_apply_last() {
    let s = load(&format!("{LIMITS}.yaml"));
    let o = observed(&format!("{LIMITS}.observed-top-seven-last.json"));
    assert_legal(&s, &o);
    // A limit no effect gives is not one the searcher could end up with.
    let mut five = o.clone();
    for e in &mut five.events {
        if let Event::Searched { library_top, .. } = &mut e.event {
            *library_top = Some(5);
        }
    }
    assert_illegal_first(&s, &five, "616.1", &["top 5", "[4, 7]"]);
}

const EMPTY_REVEAL: &str = "scenarios/regressions/701.20a-lobotomy-empty-hand-reveals-nothing";

/// Item 13 (701.20a): revealing an empty hand shows nothing; with or without an empty `revealed`
/// event, the outcome is legal.
#[test]
fn an_empty_reveal_need_not_be_logged() {
    let s = load(&format!("{EMPTY_REVEAL}.yaml"));
    for which in ["no-reveal", "empty-reveal"] {
        let o = observed(&format!("{EMPTY_REVEAL}.observed-{which}.json"));
        assert_legal(&s, &o);
    }
    // A reveal that shows a card is still an event the rules don't produce here.
    let mut shown = observed(&format!("{EMPTY_REVEAL}.observed-empty-reveal.json"));
    for e in &mut shown.events {
        if let Event::Revealed { cards, .. } = &mut e.event {
            cards.push("forest".into());
        }
    }
    assert!(!judge(&s.setup, &shown).is_legal());
}
