//! How the judge reads an observed log: which entry answers which decision must not depend on
//! the order of the events the format calls unordered within a step, a declined "may search"
//! (no entry) must not take a later search's entry, and a scripted run's logged finds must match
//! the searches. Each regression scenario in `scenarios/regressions/` has an observed outcome
//! beside it (`.observed-legal.json` or `.observed-illegal.json`).

use mtg_oracle::explore::explore;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::{Event, Outcome, is_ordered_event};
use mtg_oracle::scenario::{Loaded, load_file};
use mtg_oracle_tests::{pool, repo_root};

const REGRESSIONS: &str = "scenarios/regressions";

fn load(name: &str) -> Loaded {
    let path = repo_root().join(REGRESSIONS).join(format!("{name}.yaml"));
    load_file(&path, &pool()).unwrap_or_else(|e| panic!("{e}"))
}

fn observed(name: &str, kind: &str) -> Outcome {
    let path = repo_root().join(REGRESSIONS).join(format!("{name}.observed-{kind}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[track_caller]
fn assert_legal(s: &Loaded, o: &Outcome) {
    let verdict = judge(&s.setup, o);
    assert!(verdict.is_legal(), "expected Legal, got {verdict:?}");
}

#[track_caller]
fn assert_illegal(s: &Loaded, o: &Outcome, clause: &str, words: &[&str]) {
    match judge(&s.setup, o) {
        Verdict::Illegal(diffs) => {
            let text = diffs.iter().map(|d| d.to_string()).collect::<Vec<_>>().join("\n");
            assert!(diffs.iter().any(|d| d.clause == clause), "no {clause} difference:\n{text}");
            for w in words {
                assert!(text.contains(w), "verdict lacks {w:?}:\n{text}");
            }
        }
        other => panic!("expected Illegal({clause}), got {other:?}"),
    }
}

const DECLINED: &str = "701.23g-declined-may-search-before-a-tutor-in-one-step";

#[test]
fn a_declined_may_search_does_not_take_the_tutors_entry() {
    let s = load(DECLINED);
    let o = observed(DECLINED, "legal");
    let searched: Vec<&Event> = o.events.iter().map(|e| &e.event).filter(|e| e.kind() == "searched").collect();
    assert_eq!(searched.len(), 1, "the observation is the run where the Tusker's search was declined");
    assert_legal(&s, &o);
}

#[test]
fn the_tutors_search_still_has_to_be_logged_after_a_declined_may() {
    let s = load(DECLINED);
    let mut o = observed(DECLINED, "legal");
    // Neither the declined Tusker nor the Tutor logged a search: the Tutor's search is missing.
    o.events.retain(|e| !matches!(e.event, Event::Searched { .. }));
    assert_illegal(&s, &o, "701.23a", &["no `searched` event"]);
}

const EXTRACTIONS: &str = "709.4a-two-cranial-extractions-name-in-one-step";

#[test]
fn names_are_paired_with_searches_whatever_order_they_are_listed_in() {
    let s = load(EXTRACTIONS);
    let o = observed(EXTRACTIONS, "legal");
    // The first search found the Bolt, so Lightning Bolt was named first; the log lists the names
    // sorted, Howling Mine first.
    let names: Vec<&str> = o
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Named { name, .. } => Some(name.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["Howling Mine", "Lightning Bolt"]);
    assert_legal(&s, &o);
    let mut reversed = o.clone();
    let at: Vec<usize> = (0..o.events.len()).filter(|&i| o.events[i].event.kind() == "named").collect();
    reversed.events.swap(at[0], at[1]);
    assert_legal(&s, &reversed);
}

#[test]
fn a_name_no_search_matches_is_still_rejected() {
    let s = load(EXTRACTIONS);
    let mut o = observed(EXTRACTIONS, "legal");
    // Both names are Howling Mine, but one search exiled the Bolt.
    for e in &mut o.events {
        if let Event::Named { name, .. } = &mut e.event {
            *name = "Howling Mine".into();
        }
    }
    assert_illegal(&s, &o, "701.23a", &["bolt-gy"]);
}

const REVEAL_LOOK: &str = "701.20e-reveal-and-look-in-one-step-either-log-order";

#[test]
fn a_look_listed_before_a_reveal_is_read_as_the_look() {
    let s = load(REVEAL_LOOK);
    let o = observed(REVEAL_LOOK, "legal");
    let kinds: Vec<&str> =
        o.events.iter().map(|e| e.event.kind()).filter(|k| *k == "revealed" || *k == "looked_at").collect();
    assert_eq!(kinds, ["looked_at", "revealed"]);
    assert_legal(&s, &o);
    // The same events the other way round.
    let mut other = o.clone();
    let at: Vec<usize> = (0..o.events.len()).filter(|&i| kinds.contains(&o.events[i].event.kind())).collect();
    other.events.swap(at[0], at[1]);
    assert_legal(&s, &other);
}

#[test]
fn a_looked_at_card_known_to_everyone_is_still_rejected() {
    let s = load(REVEAL_LOOK);
    let mut o = observed(REVEAL_LOOK, "legal");
    // Looking shows a card to the looker only (701.20e).
    let card = o
        .events
        .iter()
        .find_map(|e| match &e.event {
            Event::LookedAt { cards, .. } => cards.first().cloned(),
            _ => None,
        })
        .expect("a look");
    o.known.insert(card.clone(), vec!["Alice".into(), "Bob".into()]);
    // The first cause is the look that showed it to Alice alone (701.20e).
    assert_illegal(&s, &o, "701.20e", &[card.as_str(), "known to"]);
}

const TUTORS: &str = "701.24b-two-scripted-tutors-in-one-step-log-each-find";

#[test]
fn a_scripted_run_whose_log_swaps_the_finds_is_rejected() {
    let s = load(TUTORS);
    let o = observed(TUTORS, "illegal");
    assert_illegal(&s, &o, "701.23i", &["found [island]", "found [swamp]"]);
    // Put back, the finds are the script's: legal.
    let mut fixed = o.clone();
    let at: Vec<usize> = (0..o.events.len()).filter(|&i| o.events[i].event.kind() == "searched").collect();
    fixed.events.swap(at[0], at[1]);
    assert_legal(&s, &fixed);
}

/// Every bundled scenario: each legal outcome with the unordered events of every step listed in
/// reverse is still legal (only `searched` and `triggered` events keep their relative order).
#[test]
fn every_legal_outcome_is_legal_with_its_unordered_events_reversed() {
    let mut files = Vec::new();
    let mut dirs = vec![repo_root().join("scenarios")];
    while let Some(d) = dirs.pop() {
        for entry in std::fs::read_dir(&d).expect("a scenarios folder") {
            let p = entry.expect("an entry").path();
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|x| x == "yaml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let pool = pool();
    let mut checked = 0;
    for path in files {
        let Ok(s) = load_file(&path, &pool) else { continue };
        let Ok(x) = explore(&s.setup, 10_000) else { continue };
        for legal in x.outcomes.values().take(24) {
            let mut o = legal.outcome.clone();
            let mut reversed = Vec::new();
            let steps: std::collections::BTreeSet<usize> = o.events.iter().map(|e| e.step).collect();
            for step in steps {
                let in_step: Vec<_> = o.events.iter().filter(|e| e.step == step).cloned().collect();
                let mut unordered: Vec<_> = in_step.iter().filter(|e| !is_ordered_event(&e.event)).cloned().collect();
                unordered.reverse();
                let mut next = unordered.into_iter();
                for e in in_step {
                    if is_ordered_event(&e.event) {
                        reversed.push(e);
                    } else {
                        reversed.push(next.next().expect("as many"));
                    }
                }
            }
            o.events = reversed;
            let verdict = judge(&s.setup, &o);
            assert!(verdict.is_legal(), "{}: reversed unordered events rejected: {verdict:?}", path.display());
            checked += 1;
        }
    }
    assert!(checked > 200, "only {checked} outcomes checked");
}

const GRAVEYARDS: &str = "400.5-graveyard-order-is-kept-milled-cards-ordered-by-owner";

#[test]
fn cards_milled_at_once_may_be_listed_in_any_order() {
    let s = load(GRAVEYARDS);
    let o = observed(GRAVEYARDS, "legal");
    assert_legal(&s, &o);
    let mut other = o.clone();
    other.zones.get_mut("Alice.graveyard").expect("a graveyard")[1..4].reverse();
    assert_legal(&s, &other);
}

#[test]
fn a_graveyard_nobody_touched_reported_reversed_breaks_400_5() {
    let s = load(GRAVEYARDS);
    let mut o = observed(GRAVEYARDS, "legal");
    o.zones.get_mut("Bob.graveyard").expect("Bob's graveyard").reverse();
    assert_illegal(&s, &o, "400.5", &["Bob.graveyard", "howling-mine", "lightning-bolt"]);
}

#[test]
fn a_card_put_into_a_graveyard_later_listed_under_earlier_ones_breaks_400_5() {
    let s = load(GRAVEYARDS);
    let mut o = observed(GRAVEYARDS, "legal");
    // Flotsam went there after the milled cards, so it is above them.
    let gy = o.zones.get_mut("Alice.graveyard").expect("a graveyard");
    let flotsam = gy.remove(0);
    gy.insert(3, flotsam);
    assert_illegal(&s, &o, "400.5", &["Alice.graveyard", "flotsam-jetsam"]);
}

/// 601.2c: the targets of a spell cast during a resolution (Alice's free cast of the Deep
/// Analysis her Counterspell exiled through Guile) are read from its `cast` event; for an engine
/// that doesn't report them (`cast_targets` not declared) each legal choice is a reading the
/// judge tries, and the report says they were not observed.
#[test]
fn a_free_casts_targets_are_read_from_its_cast_event_or_each_choice_is_tried() {
    use mtg_oracle::judge::judge_observing;
    use mtg_oracle::observables::{Observable, Observables};
    let s = mtg_oracle_tests::load_bundled(
        "701.6-counter/601.2c-c014-01-guile-cast-deep-analysis-choosing-its-target.yaml",
    );
    let x = explore(&s.setup, 10_000).expect("explores");
    let alices_cast = |o: &Outcome, target: &str| {
        o.events.iter().any(|e| {
            matches!(&e.event, Event::Cast { player, card, targets, .. }
                if player == "Alice" && card == "analysis" && targets.len() == 1 && targets[0] == target)
        })
    };
    // Bob is the first player, so targeting Alice is the second choice: reading it needs a retry.
    let at_alice = x
        .outcomes
        .values()
        .map(|l| l.outcome.clone())
        .find(|o| alices_cast(o, "Alice"))
        .expect("Alice targets herself");
    assert_legal(&s, &at_alice);
    let set_targets = |o: &mut Outcome, to: &[&str]| {
        for e in &mut o.events {
            if let Event::Cast { player, card, targets, .. } = &mut e.event
                && player == "Alice"
                && card == "analysis"
            {
                *targets = to.iter().map(|t| t.to_string()).collect();
            }
        }
    };
    // The log says Bob was targeted, but Alice drew: illegal.
    let mut wrong = at_alice.clone();
    set_targets(&mut wrong, &["Bob"]);
    assert!(!judge(&s.setup, &wrong).is_legal());
    // No targets reported by an engine that declares everything: illegal too.
    let mut stripped = at_alice.clone();
    set_targets(&mut stripped, &[]);
    assert!(!judge(&s.setup, &stripped).is_legal());
    // An engine without `cast_targets`: the second reading (Alice) matches.
    let all_but: Vec<Observable> = Observable::ALL.into_iter().filter(|&o| o != Observable::CastTargets).collect();
    let judged = judge_observing(&s.setup, &stripped, &Observables::only(&all_but));
    assert!(judged.verdict.is_legal(), "{:?}", judged.verdict);
    assert!(judged.unchecked.contains(&Observable::CastTargets), "{:?}", judged.unchecked);
    assert_eq!(Observable::CastTargets.not_observed(), "cast targets not observed");
}

/// 702.62a: a suspended card's time counters are part of the outcome (observable `time_counters`):
/// a wrong count is illegal and names suspend; an engine that doesn't report them isn't judged on
/// them, and its report says so.
#[test]
fn time_counters_are_compared_when_observed() {
    use mtg_oracle::judge::judge_observing;
    use mtg_oracle::observables::{Observable, Observables};
    let s = mtg_oracle_tests::load_bundled("702.62-suspend/702.62a-upkeep-removes-a-time-counter-not-the-last.yaml");
    let x = explore(&s.setup, 10_000).expect("explores");
    let legal = x.outcomes.values().next().expect("one outcome").outcome.clone();
    assert_eq!(legal.time_counters.get("vision"), Some(&1), "one of two counters removed: {legal:?}");
    assert_legal(&s, &legal);
    // An engine whose upkeep trigger removed nothing.
    let mut none_removed = legal.clone();
    none_removed.time_counters.insert("vision".into(), 2);
    let verdict = judge(&s.setup, &none_removed);
    let first = match &verdict {
        mtg_oracle::verdict::Verdict::Illegal(d) => d.first().map(|d| d.clause.as_str()),
        _ => None,
    };
    assert_eq!(first, Some("702.62a"), "{verdict:?}");
    // An engine without `time_counters` reports none: not compared, and said so.
    let mut unreported = legal.clone();
    unreported.time_counters.clear();
    let all_but: Vec<Observable> = Observable::ALL.into_iter().filter(|&o| o != Observable::TimeCounters).collect();
    let judged = judge_observing(&s.setup, &unreported, &Observables::only(&all_but));
    assert!(judged.verdict.is_legal(), "{:?}", judged.verdict);
    assert!(judged.unchecked.contains(&Observable::TimeCounters), "{:?}", judged.unchecked);
    // Reported by an engine that declares everything, a missing count is wrong.
    assert!(!judge(&s.setup, &unreported).is_legal());
}

/// fuzz/FINDINGS.md #12: in a simultaneous search (701.23i) a Panglacial Wurm the first searcher
/// cast from their library (601.3) is on the stack, so the next searcher of that library can't
/// find it; the outcomes that do happen (the Wurm found, or cast) stay legal.
#[test]
fn a_wurm_cast_during_an_earlier_search_is_not_found_by_a_later_searcher() {
    let name = "fuzz-search_request-162cd4b38278";
    let s = load(name);
    assert_illegal(&s, &observed(name, "illegal"), "701.23a", &["panglacial-wurm", "not in a zone that was searched"]);
    let legal = explore(&s.setup, 10_000).expect("the scenario explores");
    assert_eq!(legal.outcomes.len(), 2);
    for o in legal.outcomes.values() {
        assert_legal(&s, &o.outcome);
    }
}

/// Two Panglacial Wurms cast during one search (601.3): the log must list the casts in the order
/// the stack shows (101.4c, 405.2). The judge once compared `cast` entries' order by their kind
/// alone, so every order of the casts looked alike (found by a black-box audit, 2026-12-06).
#[test]
fn casts_logged_in_an_order_the_stack_contradicts_are_rejected() {
    let name = "101.4c-two-wurms-cast-during-a-demonic-tutor-search-logged-in-stack-order";
    let s = load(name);
    let bad = observed(name, "illegal");
    assert!(!judge(&s.setup, &bad).is_legal(), "the contradicting log must be rejected");
    let legal = explore(&s.setup, 10_000).expect("the scenario explores");
    assert_eq!(legal.outcomes.len(), 9);
    let mut both_cast = 0;
    for o in legal.outcomes.values() {
        assert_legal(&s, &o.outcome);
        let casts: Vec<&str> = o
            .outcome
            .events
            .iter()
            .filter_map(|e| match &e.event {
                Event::Cast { card, .. } if e.step == 1 => Some(card.as_str()),
                _ => None,
            })
            .collect();
        if casts.len() == 2 {
            both_cast += 1;
            // The same outcome with its two casts listed the other way round.
            let mut swapped = o.outcome.clone();
            let at: Vec<usize> = swapped
                .events
                .iter()
                .enumerate()
                .filter(|(_, e)| e.step == 1 && matches!(e.event, Event::Cast { .. }))
                .map(|(i, _)| i)
                .collect();
            swapped.events.swap(at[0], at[1]);
            assert!(!judge(&s.setup, &swapped).is_legal(), "casts {casts:?} listed in reverse were accepted");
        }
    }
    assert_eq!(both_cast, 2, "both orders of casting the two Wurms are legal outcomes");
}

/// fuzz/FINDINGS.md #13 (`engine_diff`): a merged search's found creature sacrificed in the same
/// step has two unordered `moved` entries; the split of the found cards between the instructions
/// is read from its move out of the searched library, not from whichever entry is listed first.
#[test]
fn a_found_card_moved_again_in_the_same_step_is_split_by_its_move_out_of_the_library() {
    let name = "701.23h-merged-search-found-creature-sacrificed-to-ob-nixilis";
    let s = load(name);
    let o = observed(name, "legal");
    let first_bears_move = o.events.iter().find_map(|e| match &e.event {
        Event::Moved { card, from, .. } if card == "bears" => Some(from.as_str()),
        _ => None,
    });
    assert_eq!(first_bears_move, Some("battlefield"), "the sacrifice must be listed first to test the reading");
    assert_legal(&s, &o);
}

const SPLIT_OF_60: &str = "701.23h-merged-search-all-different-names-and-all-cheap-cards-split-of-60";

/// fuzz/FINDINGS.md #14 (`zone_state`): one search of two instructions, "all cards with
/// different names" and "all cards with mana value 2 or less", both into the hand, finds 60 cards
/// that either could have found. The split the log doesn't give must give the first instruction
/// exactly one card of each name (701.23a); the greedy splits and the bounded walk never reached
/// it, so the scripted find was refused and an engine's legal log rejected.
#[test]
fn a_large_ambiguous_merged_find_is_split_so_each_instruction_is_legal() {
    let s = load(SPLIT_OF_60);
    let o = observed(SPLIT_OF_60, "legal");
    // The scenario scripts the find (the simulator has to split it too): `run` passes it.
    let result = mtg_oracle::runner::run_loaded(s.clone());
    assert!(result.passed(), "{result:?}");
    // The judge reads the split from the log alone: without the script, the same log.
    let mut unscripted = s.clone();
    unscripted.setup.script.clear();
    let found = o.events.iter().find_map(|e| match &e.event {
        Event::Searched { found, .. } => Some(found.len()),
        _ => None,
    });
    assert_eq!(found, Some(60), "every card of the library is found");
    assert_legal(&unscripted, &o);
    // Leave every Grizzly Bears in the library: no split gives the first instruction a card of
    // each name, and the verdict names the find that is too small, not a repeated name.
    let mut no_bears = o.clone();
    let bears = |c: &str| c.starts_with("bears-");
    for e in &mut no_bears.events {
        if let Event::Searched { found, .. } = &mut e.event {
            found.retain(|c| !bears(c));
        }
    }
    no_bears.events.retain(|e| !matches!(&e.event, Event::Moved { card, .. } if bears(card)));
    let moved: Vec<String> = no_bears.zones["Alice.hand"].iter().filter(|c| bears(c)).cloned().collect();
    no_bears.zones.get_mut("Alice.hand").expect("a hand").retain(|c| !bears(c));
    no_bears.zones.entry("Alice.library".into()).or_default().extend(moved.iter().cloned());
    for c in &moved {
        no_bears.known.remove(c);
    }
    assert_eq!(moved.len(), 20);
    mtg_oracle_tests::assert_illegal_first(&unscripted, &no_bears, "701.23d", &["2 card(s) were found but at least 3"]);
}

const SPLIT_BY_REVEAL: &str = "701.23h-three-merged-instructions-split-by-which-found-cards-were-revealed";

/// Found by the audit of finding 14's fix: three merged instructions put their cards into one
/// hand and only the first reveals (701.23e). With one Bears revealed among six found cards the
/// only legal split gives that Bears alone to the first instruction; the judge kept the first 16
/// of 45 splits and none was that one. The reveal now guides the split.
#[test]
fn merged_instructions_into_one_zone_are_told_apart_by_the_reveal() {
    let s = load(SPLIT_BY_REVEAL);
    let o = observed(SPLIT_BY_REVEAL, "legal");
    let revealed: Vec<&String> = o
        .events
        .iter()
        .flat_map(|e| match &e.event {
            Event::Revealed { cards, .. } => cards.iter().collect(),
            _ => Vec::new(),
        })
        .collect();
    assert_eq!(revealed, ["bear0"], "one Bears revealed, as in the audit's probe");
    assert_legal(&s, &o);
    // The Bolt revealed too: no instruction that reveals could find it (701.23e).
    let mut bolt_shown = o.clone();
    for e in &mut bolt_shown.events {
        if let Event::Revealed { cards, .. } = &mut e.event {
            cards.push("bolt0".into());
        }
    }
    bolt_shown.known.insert("bolt0".into(), vec!["Alice".into(), "Bob".into()]);
    assert!(!judge(&s.setup, &bolt_shown).is_legal(), "a revealed Bolt was accepted");
}

/// Merged searches under Opposition Agent (701.23h, 614.1a): every found card is exiled, so where
/// a card went doesn't say which instruction found it, and the judge's first split goes by the
/// reveals — the search's own, not a "reveal the top card" the replay has already read. Both legal
/// outcomes are accepted; the first was rejected when the split went by each instruction's own
/// destination (the replays ran out), the second when earlier reveals guided it.
#[test]
fn merged_searches_under_opposition_agent_are_read_by_their_own_reveals() {
    for name in [
        "agent-exiles-a-merged-search-with-a-revealing-instruction",
        "agent-exiles-a-merged-search-after-a-top-card-reveal",
    ] {
        let folder = repo_root().join("tests/judge_guide");
        let s = load_file(&folder.join(format!("{name}.yaml")), &pool()).unwrap_or_else(|e| panic!("{e}"));
        let path = folder.join(format!("{name}.observed-legal.json"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let o: Outcome = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_legal(&s, &o);
    }
}

/// 101.4 with 401.4: two searchers' finds that a "put it on the bottom instead" effect sends to
/// the bottom of one library in the same event are one group its owner arranges, so the judge
/// accepts them in either order — the order the reference engine happens to log, and the other,
/// which was rejected while each searcher's cards moved separately (a helper's audit).
#[test]
fn two_searchers_finds_sent_to_one_library_bottom_together_are_accepted_in_either_order() {
    let name = "101.4-two-searchers-cards-sent-to-one-library-bottom-at-once-its-owner-orders";
    let path = repo_root().join(format!("scenarios/101.4-apnap/{name}.yaml"));
    let s = load_file(&path, &pool()).unwrap_or_else(|e| panic!("{e}"));
    let observed = repo_root().join(
        "tests/simultaneous_search/two-searchers-cards-sent-to-one-library-bottom-in-the-other-order.observed-legal.json",
    );
    let text = std::fs::read_to_string(&observed).unwrap_or_else(|e| panic!("{}: {e}", observed.display()));
    let other_order: Outcome = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", observed.display()));
    let mut logged_order = other_order.clone();
    let library = logged_order.zones.get_mut("Bob.library").expect("Bob's library in the observation");
    library.swap(1, 2);
    assert_ne!(logged_order, other_order);
    assert_legal(&s, &other_order);
    assert_legal(&s, &logged_order);
    // The Think Twice stays on top: only the two found cards form the group.
    let mut tt_moved = other_order.clone();
    tt_moved.zones.get_mut("Bob.library").expect("Bob's library").swap(0, 1);
    assert!(!judge(&s.setup, &tt_moved).is_legal(), "the Think Twice below a found card was accepted");
}
