//! Issue 3 actions through the judge: an engine outcome with one known kind of bug in the actions
//! around searching (flashback, dredge, casting without paying, investigate, reveal/look) is judged
//! Illegal naming the clause, and the oracle's own outcomes are Legal. The scenarios are inline so
//! each test shows the whole situation.

use mtg_oracle::explore::explore;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, Outcome};
use mtg_oracle::runner::{RunResult, run_loaded};
use mtg_oracle::scenario::{Loaded, load_str};
use mtg_oracle_tests::{assert_illegal, pool};

fn load(yaml: &str) -> Loaded {
    load_str("inline.yaml", yaml, &pool()).unwrap_or_else(|e| panic!("{e}"))
}

/// The only legal outcome (the scenarios here are fully determined).
fn only_outcome(loaded: &Loaded) -> Outcome {
    let x = explore(&loaded.setup, 10_000).expect("explores");
    assert_eq!(x.outcomes.len(), 1, "one legal outcome");
    x.outcomes.values().next().expect("one").outcome.clone()
}

fn move_card(o: &mut Outcome, card: &str, from: &str, to: &str) {
    o.zones.get_mut(from).expect("zone").retain(|c| c != card);
    o.zones.entry(to.to_string()).or_default().push(card.to_string());
}

const THINK_TWICE_FLASHBACK: &str = r#"
title: Think Twice cast with flashback
rules: ["702.34a"]
source: {kind: clause, reference: "702.34a"}
players:
  - name: Alice
    library: [Island, Forest]
    graveyard: [Think Twice]
  - name: Bob
steps:
  - cast: {player: Alice, card: think-twice, flashback: true}
  - resolve
expect:
  always:
    - zone: {card: think-twice, zone: exile}
"#;

#[test]
fn flashback_spell_left_in_the_graveyard_breaks_702_34a() {
    let s = load(THINK_TWICE_FLASHBACK);
    let mut o = only_outcome(&s);
    assert!(judge(&s.setup, &o).is_legal());
    move_card(&mut o, "think-twice", "exile", "Alice.graveyard");
    for e in &mut o.events {
        if let Event::Moved { card, to, .. } = &mut e.event
            && card == "think-twice"
            && to == "exile"
        {
            *to = "Alice.graveyard".into();
        }
    }
    assert_illegal(&s, &o, "702.34a");
}

#[test]
fn flashback_from_the_hand_is_refused() {
    let yaml = r#"
title: flashback needs the graveyard
rules: ["702.34a"]
source: {kind: clause, reference: "702.34a"}
players:
  - name: Alice
    hand: [Think Twice]
  - name: Bob
steps:
  - attempt: {step: {cast: {player: Alice, card: think-twice, flashback: true}}, refused: "702.34a"}
expect:
  always:
    - zone: {card: think-twice, zone: Alice.hand}
    - events: {kind: refused, player: Alice, card: think-twice, count: 1}
"#;
    assert!(matches!(run_loaded(load(yaml)), RunResult::Pass { .. }));
}

#[test]
fn an_attempt_the_rules_allow_is_an_error() {
    let yaml = THINK_TWICE_FLASHBACK.replace(
        "  - cast: {player: Alice, card: think-twice, flashback: true}\n  - resolve",
        "  - attempt: {step: {cast: {player: Alice, card: think-twice, flashback: true}}, refused: \"702.34a\"}",
    );
    match run_loaded(load(&yaml)) {
        RunResult::Invalid(e) => {
            assert!(e.to_string().contains("the rules allow it"), "{e}");
            assert!(e.to_string().contains("steps[0]"), "{e}");
        }
        other => panic!("expected an error, got passed={}", other.passed()),
    }
}

#[test]
fn dredge_with_too_few_cards_breaks_702_52b() {
    let yaml = r#"
title: dredge 4 with three cards
rules: ["702.52b"]
source: {kind: clause, reference: "702.52b"}
players:
  - name: Alice
    library: [Island, Forest, Swamp]
    graveyard: [Golgari Thug]
  - name: Bob
steps:
  - draw: {player: Alice}
expect:
  never:
    - events: {kind: dredged, count: 1}
"#;
    let s = load(yaml);
    let mut o = only_outcome(&s);
    assert!(judge(&s.setup, &o).is_legal());
    // The engine dredged anyway: milled three and returned the Thug instead of drawing.
    o.zones.remove("Alice.hand");
    o.zones.insert("Alice.hand".into(), vec!["golgari-thug".into()]);
    o.zones.insert("Alice.graveyard".into(), vec!["forest".into(), "island".into(), "swamp".into()]);
    o.zones.remove("Alice.library");
    o.known.clear();
    o.events = vec![mtg_oracle::outcome::LoggedEvent {
        step: 0,
        event: Event::Dredged { player: "Alice".into(), card: "golgari-thug".into(), draw: 1 },
    }];
    assert_illegal(&s, &o, "702.52b");
}

#[test]
fn x_other_than_zero_without_paying_the_mana_cost_is_illegal() {
    let yaml = r#"
title: Jetsam casts an X spell with X = 0
rules: ["R003-14"]
source: {kind: card-ruling, reference: "Flotsam // Jetsam ruling 2024-02-02"}
cards:
  - name: Hypothetical Insight
    mana_cost: "{X}{U}"
    types: [Instant]
    oracle: "Draw X cards."
    spell:
      effect: [draw_x]
players:
  - name: Alice
    hand: [Flotsam // Jetsam]
    library: [Island, Forest]
  - name: Bob
    library: [Hypothetical Insight, Swamp, Swamp]
steps:
  - cast: {player: Alice, card: flotsam-jetsam, face: Jetsam}
  - resolve_all
decisions:
  - cast: {player: Alice, card: hypothetical-insight}
expect:
  always:
    - zone: {card: hypothetical-insight, zone: exile}
    - count: {zone: Alice.hand, count: 0}
"#;
    let s = load(yaml);
    let mut o = only_outcome(&s);
    assert!(judge(&s.setup, &o).is_legal());
    for e in &mut o.events {
        if let Event::Cast { x, card, .. } = &mut e.event
            && card == "hypothetical-insight"
        {
            assert_eq!(*x, Some(0));
            *x = Some(2);
        }
    }
    // 107.3b: X is 0 for a spell cast without paying its mana cost (the rule of the difference).
    assert_illegal(&s, &o, "107.3b");
}

#[test]
fn naming_both_halves_of_a_split_card_is_illegal() {
    let yaml = r#"
title: Cranial Extraction naming a split card
rules: ["709.4a"]
source: {kind: clause, reference: "709.4a"}
players:
  - name: Alice
    hand: [Cranial Extraction]
  - name: Bob
    library: ["Cease // Desist", Island]
steps:
  - cast: {player: Alice, card: cranial-extraction, targets: [Bob]}
  - resolve
decisions:
  - name: {player: Alice, name: "Cease // Desist"}
expect:
  always:
    - shuffled: {player: Bob}
"#;
    match run_loaded(load(yaml)) {
        RunResult::Invalid(e) => assert!(e.to_string().contains("709.4a"), "{e}"),
        other => panic!("expected an illegal scripted name, got passed={}", other.passed()),
    }
}

#[test]
fn a_split_card_is_found_by_either_name() {
    let yaml = r#"
title: Cranial Extraction naming Desist finds Cease // Desist
rules: ["709.4a"]
source: {kind: clause, reference: "709.4a"}
players:
  - name: Alice
    hand: [Cranial Extraction]
  - name: Bob
    graveyard: ["Cease // Desist"]
steps:
  - cast: {player: Alice, card: cranial-extraction, targets: [Bob]}
  - resolve
decisions:
  - name: {player: Alice, name: Desist}
expect:
  always:
    - zone: {card: cease-desist, zone: exile}
"#;
    assert!(matches!(run_loaded(load(yaml)), RunResult::Pass { .. }));
}

#[test]
fn a_missing_clue_breaks_701_16a() {
    let yaml = r#"
title: Flotsam mills three and investigates
rules: ["701.16a"]
source: {kind: clause, reference: "701.16a"}
players:
  - name: Alice
    hand: [Flotsam // Jetsam]
    library: [Island, Forest, Swamp, Plains]
  - name: Bob
steps:
  - cast: {player: Alice, card: flotsam-jetsam, face: Flotsam}
  - resolve
expect:
  always:
    - zone: {card: clue-token-1, zone: battlefield}
"#;
    let s = load(yaml);
    assert!(matches!(run_loaded(load(yaml)), RunResult::Pass { .. }));
    let legal = explore(&s.setup, 10_000).expect("explores");
    let mut o = legal.outcomes.values().next().expect("one").outcome.clone();
    o.zones.remove("battlefield");
    o.events.retain(|e| !matches!(e.event, Event::Created { .. }));
    match judge(&s.setup, &o) {
        Verdict::Illegal(diffs) => assert!(diffs.iter().any(|d| d.message.contains("clue-token-1")), "{diffs:?}"),
        other => panic!("expected Illegal, got {other:?}"),
    }
}

#[test]
fn looking_is_knowledge_for_one_player_only() {
    let yaml = r#"
title: look at the top two
rules: ["701.20e"]
source: {kind: clause, reference: "701.20e"}
cards:
  - name: Hypothetical Peek
    mana_cost: "{U}"
    types: [Instant]
    oracle: "Look at the top two cards of your library."
    spell:
      effect:
        - look_at_top: {player: you, count: 2}
players:
  - name: Alice
    hand: [Hypothetical Peek]
    library: [Island, Forest, Swamp]
  - name: Bob
steps:
  - cast: {player: Alice, card: hypothetical-peek}
  - resolve
expect:
  always:
    - known: {card: island, to: [Alice]}
    - known: {card: swamp, to: []}
"#;
    let s = load(yaml);
    let mut o = only_outcome(&s);
    assert!(judge(&s.setup, &o).is_legal());
    // The engine showed the cards to everyone.
    o.known.insert("island".into(), vec!["Alice".into(), "Bob".into()]);
    match judge(&s.setup, &o) {
        Verdict::Illegal(diffs) => assert!(diffs.iter().any(|d| d.message.contains("island")), "{diffs:?}"),
        other => panic!("expected Illegal, got {other:?}"),
    }
}
