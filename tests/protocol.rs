//! The engine protocol: its schema, the scenario messages built from every bundled scenario, the
//! reference engine (`serve`) in process, and validation.

use mtg_oracle::check::effective_mode;
use mtg_oracle::judge::{Verdict, judge, judge_observing};
use mtg_oracle::mutants::Mutant;
use mtg_oracle::observables::Observables;
use mtg_oracle::outcome::{Event, LoggedEvent, Outcome};
use mtg_oracle::protocol::validate::{
    MessageError, check_outcome, parse_from_engine, validate_from_engine, validate_to_engine,
};
use mtg_oracle::protocol::{
    FromEngine, Mode, PROTOCOL_VERSION, ToEngine, scenario_message, schema, to_line, to_scenario,
};
use mtg_oracle::scenario::{Loaded, collect_files, load_file, load_scenario};
use mtg_oracle::serve::{Policy, ServeOptions, play_loaded, serve};
use mtg_oracle_tests::{pool, repo_root};

fn bundled() -> Vec<Loaded> {
    let pool = pool();
    collect_files(&[repo_root().join("scenarios")])
        .expect("scenarios/")
        .iter()
        .map(|f| load_file(f, &pool).unwrap_or_else(|e| panic!("{e}")))
        // Ids relative to the repository: the reference engine seeds each scenario from its id,
        // so absolute paths would make the random policies choose differently in every checkout
        // (CI's clone chose a Doomsday split this machine's never did).
        .map(|mut l| {
            if let Ok(relative) = std::path::Path::new(&l.id).strip_prefix(repo_root()) {
                l.id = relative.display().to_string();
            }
            l
        })
        .collect()
}

#[test]
fn the_schema_covers_every_message_and_names_the_version() {
    let text = serde_json::to_string(&schema()).unwrap();
    for kind in ["start", "run", "stop", "hello", "result", "unsupported", "error", "no_such_choice"] {
        assert!(text.contains(&format!("\"{kind}\"")), "the schema lacks `{kind}`");
    }
    // Protocol 2's fields and their vocabularies.
    for word in ["offered", "observables", "offers", "library_top", "moves_within_library", "revealed_empty"] {
        assert!(text.contains(&format!("\"{word}\"")), "the schema lacks `{word}`");
    }
    assert!(text.contains("\"any\""), "supports.cards may be \"any\"");
    assert!(text.contains(&format!("version {PROTOCOL_VERSION}")));
    assert!(text.contains("\"additionalProperties\":false"), "unknown fields are not allowed");
}

#[test]
fn every_bundled_scenario_becomes_a_valid_message_that_loads_back_with_the_same_ids() {
    let pool = pool();
    for loaded in bundled() {
        for mode in [Mode::Scripted, Mode::Free] {
            let message =
                ToEngine::Run { seq: 1, id: loaded.id.clone(), mode, scenario: scenario_message(&loaded, mode) };
            let line = to_line(&message);
            let parsed = validate_to_engine(&line).unwrap_or_else(|e| panic!("{}: {e}\n{line}", loaded.id));
            assert_eq!(parsed, message, "{}: the message round-trips", loaded.id);
            let ToEngine::Run { scenario, .. } = parsed else { unreachable!() };
            assert_eq!(scenario.decisions.is_empty(), mode == Mode::Free || loaded.scenario.decisions.is_empty());
            // Every card has an explicit id; permanents an owner and a controller.
            let every = scenario
                .players
                .iter()
                .flat_map(|p| p.library.iter().chain(&p.hand).chain(&p.graveyard).chain(&p.outside))
                .chain(&scenario.battlefield)
                .chain(&scenario.exile);
            assert!(every.clone().all(|c| c.id.is_some()), "{}", loaded.id);
            assert!(scenario.battlefield.iter().all(|c| c.owner.is_some() && c.controller.is_some()), "{}", loaded.id);
            // The engine side rebuilds the same game.
            let back = load_scenario(&loaded.id, to_scenario(&scenario), &pool)
                .unwrap_or_else(|e| panic!("{}: the message doesn't load back: {e}", loaded.id));
            assert_eq!(back.setup.ids, loaded.setup.ids, "{}", loaded.id);
            for (a, b) in back.setup.game.objs.iter().zip(&loaded.setup.game.objs) {
                assert_eq!(
                    (&a.id, a.zone, a.owner, a.controller, a.known),
                    (&b.id, b.zone, b.owner, b.controller, b.known)
                );
            }
        }
    }
}

/// Runs `serve` in process on the given input lines and returns its answers.
fn serve_lines(lines: &[String], opts: ServeOptions) -> Vec<FromEngine> {
    let input = lines.join("\n") + "\n";
    let mut output = Vec::new();
    serve(input.as_bytes(), &mut output, &pool(), opts).expect("serve writes");
    String::from_utf8(output)
        .unwrap()
        .lines()
        .map(|l| validate_from_engine(l).unwrap_or_else(|e| panic!("serve wrote an invalid message: {e}\n{l}")))
        .collect()
}

/// The reference engine's choice policies (and seeds) the whole-corpus tests run.
const POLICIES: [(Policy, u64); 4] =
    [(Policy::Minimal, 1), (Policy::Greedy, 2), (Policy::Random, 3), (Policy::Random, 4)];

/// Every scenario sent to the reference engine in `mode` (free mode sends scripted the scenarios
/// whose steps need their scripted choices, as `check` does), then `stop` and a line it must not
/// read: the mode each was sent in, and the answers (`hello` first).
fn serve_all(scenarios: &[Loaded], mode: Mode, opts: ServeOptions) -> (Vec<Mode>, Vec<FromEngine>) {
    let mut lines = vec![to_line(&ToEngine::Start { protocol: PROTOCOL_VERSION })];
    let modes: Vec<Mode> = scenarios.iter().map(|l| effective_mode(l, mode)).collect();
    for (i, l) in scenarios.iter().enumerate() {
        let scenario = scenario_message(l, modes[i]);
        lines.push(to_line(&ToEngine::Run { seq: i as u64, id: l.id.clone(), mode: modes[i], scenario }));
    }
    lines.push(to_line(&ToEngine::Stop));
    lines.push("never read: serve stopped".into());
    (modes, serve_lines(&lines, opts))
}

#[test]
fn the_reference_engine_passes_every_bundled_scenario_in_both_modes_under_every_policy() {
    let scenarios = bundled();
    for mode in [Mode::Scripted, Mode::Free] {
        for (policy, seed) in POLICIES {
            let (modes, answers) = serve_all(&scenarios, mode, ServeOptions { seed, policy, mutant: None });
            assert!(
                matches!(&answers[0], FromEngine::Hello { protocol: PROTOCOL_VERSION, engine, .. } if engine.seed == Some(seed))
            );
            assert_eq!(answers.len(), scenarios.len() + 1, "one answer per scenario, nothing after stop");
            for ((l, answer), sent) in scenarios.iter().zip(&answers[1..]).zip(&modes) {
                let FromEngine::Result { outcome, offered, .. } = answer else { panic!("{}: {answer:?}", l.id) };
                let mut setup = l.setup.clone();
                if *sent == Mode::Free {
                    setup.script.clear();
                }
                let judged = judge_observing(&setup, outcome, &Observables::all());
                assert_eq!(judged.verdict, Verdict::Legal, "{} ({mode:?}, {policy:?}, seed {seed})", l.id);
                assert!(judged.unchecked.is_empty(), "{}: the reference engine reports every observable", l.id);
                // The options it offered at each decision are exactly the legal ones.
                let diffs = mtg_oracle::offers::compare(&judged.decisions, offered, Some(&setup.game));
                assert!(diffs.is_empty(), "{} ({mode:?}, {policy:?}): {diffs:?}", l.id);
            }
        }
    }
}

#[test]
fn serve_answers_bad_input_with_an_error_and_goes_on() {
    let answers = serve_lines(
        &[
            "not json".into(),
            r#"{"type":"start","protocol":99}"#.into(),
            r#"{"type":"run","seq":5}"#.into(),
            r#"{"type":"start","protocol":1}"#.into(),
        ],
        ServeOptions::default(),
    );
    assert!(matches!(&answers[0], FromEngine::Error { seq: None, .. }));
    assert!(matches!(&answers[1], FromEngine::Error { message, .. } if message.contains("not 99")));
    assert!(matches!(&answers[2], FromEngine::Error { message, .. } if message.contains("missing field")));
    assert!(matches!(&answers[3], FromEngine::Hello { .. }));
    // Bytes that aren't UTF-8 are answered too, and the loop goes on.
    let mut out = Vec::new();
    let input = b"\xff\xfe garbage\n{\"type\":\"start\",\"protocol\":1}\n";
    serve(&input[..], &mut out, &pool(), ServeOptions::default()).expect("serve writes");
    let text = String::from_utf8(out).expect("serve writes UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].contains("\"error\"") && lines[1].contains("\"hello\""), "{text}");
}

#[test]
fn validation_is_strict_where_parsing_is_lenient() {
    let extra = r#"{"type":"unsupported","seq":3,"reason":"no sideboards","engine_note":"x"}"#;
    assert!(validate_from_engine(extra).is_err(), "--validate rejects an unknown field");
    assert!(matches!(parse_from_engine(extra), Ok(FromEngine::Unsupported { seq: 3, .. })));
    let no_version = r#"{"type":"hello","engine":{"name":"e","version":"1"}}"#;
    assert!(validate_from_engine(no_version).is_err());
    assert!(parse_from_engine(no_version).is_err(), "a missing required field is never accepted");
    let unknown_event =
        r#"{"type":"result","seq":1,"outcome":{"zones":{},"events":[{"step":0,"event":"teleported"}]}}"#;
    assert!(validate_from_engine(unknown_event).is_err() && parse_from_engine(unknown_event).is_err());
    assert_eq!(parse_from_engine(r#"{"seq":1}"#).unwrap_err(), MessageError::NoType);
    let unknown = parse_from_engine(r#"{"type":"greetings"}"#).unwrap_err();
    assert_eq!(unknown, MessageError::UnknownType("greetings".into()));
    assert_eq!(unknown.to_string(), "unknown message type `greetings`");
}

#[test]
fn outcomes_naming_things_the_scenario_lacks_are_rejected_before_judging() {
    let loaded = &bundled()[0];
    let setup = &loaded.setup;
    let steps = setup.actions.len();
    let first_id = setup.ids.keys().next().unwrap().clone();
    let mut o = Outcome::default();
    o.zones.insert("exile".into(), vec![first_id.clone(), "ghost".into()]);
    o.zones.insert("Zed.hand".into(), vec![]);
    o.known.insert(first_id.clone(), vec!["Nobody".into()]);
    o.events.push(LoggedEvent { step: steps, event: Event::Shuffled { library: "Nobody".into() } });
    let problems = check_outcome(&o, setup, steps).expect_err("four problems");
    let text = problems.join("\n");
    for words in ["`ghost` is not a card id", "`Zed.hand` is not a zone", "`Nobody` is not a player", "scenario has"] {
        assert!(text.contains(words), "{words}: {text}");
    }
    let mut ok = Outcome::default();
    ok.zones.insert("stack".into(), vec![format!("ability:{first_id}")]);
    assert!(check_outcome(&ok, setup, steps).is_ok());
}

#[test]
fn mutants_have_unique_names_and_a_mutant_is_a_parameter_of_one_game() {
    let mut names: Vec<&str> = Mutant::ALL.iter().map(|m| m.name()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), Mutant::ALL.len());
    assert!(Mutant::ALL.len() >= 15);
    for m in Mutant::ALL {
        assert_eq!(Mutant::from_name(m.name()), Some(m));
        assert!(!m.description().is_empty() && m.clause().contains('.'));
    }
    // Demonic Tutor: played with `no-shuffle-after-search` the outcome is illegal; the next game,
    // played without a mutant, is the correct rules again (nothing of the mutant lingers).
    let loaded = bundled().into_iter().find(|l| l.id.contains("701.23a-demonic-tutor")).expect("bundled");
    let buggy = play_loaded(&loaded.setup, Policy::Minimal, 1, Some(Mutant::NoShuffleAfterSearch)).expect("plays");
    assert!(!judge(&loaded.setup, &buggy).is_legal());
    let correct = play_loaded(&loaded.setup, Policy::Minimal, 1, None).expect("plays");
    assert!(judge(&loaded.setup, &correct).is_legal());
}

#[test]
fn a_mutant_changes_what_the_reference_engine_answers() {
    // Demonic Tutor: the mutant skips "then shuffle", so the judge misses the shuffle (701.24a).
    let loaded = bundled().into_iter().find(|l| l.id.contains("701.23a-demonic-tutor")).expect("bundled");
    let run = to_line(&ToEngine::Run {
        seq: 1,
        id: loaded.id.clone(),
        mode: Mode::Scripted,
        scenario: scenario_message(&loaded, Mode::Scripted),
    });
    let opts = ServeOptions { mutant: Some(Mutant::NoShuffleAfterSearch), ..ServeOptions::default() };
    let answers = serve_lines(&[run], opts);
    let FromEngine::Result { outcome, .. } = &answers[0] else { panic!("{answers:?}") };
    match judge(&loaded.setup, outcome) {
        Verdict::Illegal(d) => assert_eq!(d[0].clause, "701.24a", "{d:?}"),
        other => panic!("the mutant's answer should be illegal: {other:?}"),
    }
}

/// The reference engine's answer to one bundled scenario, in process.
fn reference_answer(id_part: &str, mutant: Option<Mutant>) -> (Loaded, FromEngine) {
    let loaded = bundled().into_iter().find(|l| l.id.contains(id_part)).expect("bundled");
    let run = to_line(&ToEngine::Run {
        seq: 1,
        id: loaded.id.clone(),
        mode: Mode::Scripted,
        scenario: scenario_message(&loaded, Mode::Scripted),
    });
    let answers = serve_lines(&[run], ServeOptions { mutant, seed: 1, ..ServeOptions::default() });
    (loaded, answers.into_iter().next().expect("an answer"))
}

#[test]
fn option_set_mutants_answer_legal_outcomes_but_offer_illegal_options_or_miss_legal_ones() {
    for (mutant, id_part, clause, words) in [
        (Mutant::OffersBelowMindcensorWindow, "701.23f-mindcensor-veteran-explorer-cr-example", "701.23f", "offered"),
        (Mutant::LobotomyOffersBasicLands, "701.23c-lobotomy-nonbasic-land-is-choosable", "608.2d", "offered"),
        (Mutant::MaySearchNotOffered, "701.23f-mindcensor-veteran-explorer-cr-example", "608.2d", "was not offered"),
    ] {
        let (loaded, answer) = reference_answer(id_part, Some(mutant));
        let FromEngine::Result { outcome, offered, .. } = answer else { panic!("{mutant}: {answer:?}") };
        let judged = judge_observing(&loaded.setup, &outcome, &Observables::all());
        assert_eq!(judged.verdict, Verdict::Legal, "{mutant}: the outcome itself is legal");
        let diffs = mtg_oracle::offers::compare(&judged.decisions, &offered, Some(&loaded.setup.game));
        assert!(!diffs.is_empty(), "{mutant}: its offers must differ");
        assert_eq!(diffs[0].clause, clause, "{mutant}: {diffs:?}");
        assert!(diffs[0].message.contains(words), "{mutant}: {diffs:?}");
    }
}

#[test]
fn an_offered_illegal_option_and_a_missing_legal_option_each_fail_with_their_clause() {
    use mtg_oracle::offers::{OfferKind, compare};
    // Splinter on Howling Mine: the searcher may find the graveyard copy and both library copies
    // (and must find the graveyard one).
    let (loaded, answer) = reference_answer("701.23b-splinter-howling-mine-cr-example", None);
    let FromEngine::Result { outcome, offered, .. } = answer else { panic!("{answer:?}") };
    let judged = judge_observing(&loaded.setup, &outcome, &Observables::all());
    assert_eq!(judged.verdict, Verdict::Legal);
    assert!(compare(&judged.decisions, &offered, Some(&loaded.setup.game)).is_empty());
    let search = offered.iter().position(|o| o.decision == OfferKind::Search).expect("a search offer");
    assert_eq!(offered[search].min, Some(1), "{offered:?}");
    // An illegal option: the Forest, which doesn't have the name.
    let mut extra = offered.clone();
    extra[search].cards.push("forest".into());
    let d = compare(&judged.decisions, &extra, Some(&loaded.setup.game));
    assert_eq!((d.len(), d[0].clause.as_str()), (1, "701.23a"), "{d:?}");
    assert!(d[0].message.contains("offered forest, which is not a legal option"), "{d:?}");
    // A legal option missing: a library copy never offered.
    let mut fewer = offered.clone();
    fewer[search].cards.retain(|c| c != "mine-lib-1");
    let d = compare(&judged.decisions, &fewer, Some(&loaded.setup.game));
    assert_eq!((d.len(), d[0].clause.as_str()), (1, "701.23a"), "{d:?}");
    assert!(d[0].message.contains("didn't offer mine-lib-1"), "{d:?}");
    // A legal option missing: finding fewer than every copy (an engine that takes them all).
    let mut all = offered.clone();
    all[search].min = all[search].max;
    let d = compare(&judged.decisions, &all, Some(&loaded.setup.game));
    assert_eq!(d[0].clause, "701.23b", "{d:?}");
    // An illegal option: leaving the graveyard copy behind.
    let mut none = offered.clone();
    none[search].min = Some(0);
    let d = compare(&judged.decisions, &none, Some(&loaded.setup.game));
    assert_eq!(d[0].clause, "701.23b", "{d:?}");
}

#[test]
fn no_such_choice_is_invalid_when_the_scripted_choice_is_itself_illegal() {
    use mtg_oracle::check::{ScenarioResult, Status, choices::no_such_choice};
    let pool = pool();
    let path = repo_root().join("scenarios/701.23-search/701.23b-splinter-scripted-leaves-library-copies.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let mk =
        |status, message: String| -> ScenarioResult { mtg_oracle::check::result("x", Vec::new(), status, message) };
    // The script as written is legal: the engine that can't follow it fails, 701.23b.
    let legal = mtg_oracle::scenario::load_str("legal.yaml", &text, &pool).expect("loads");
    let offer = mtg_oracle::offers::Offer {
        step: 1,
        player: "Alice".into(),
        decision: mtg_oracle::offers::OfferKind::Search,
        cards: vec!["mine-gy".into(), "mine-lib-1".into(), "mine-lib-2".into()],
        min: Some(3),
        max: Some(3),
        names: Vec::new(),
    };
    let r = no_such_choice(&legal, 0, Some(&offer), "takes every copy", &mk);
    assert_eq!(r.status, Status::Fail, "{r:?}");
    assert_eq!(r.verdict[0].clause, "701.23b", "{r:?}");
    assert!(r.message.contains("no fewer than 3"), "{r:?}");
    // Scripted to leave the graveyard copy behind, which 701.23b forbids: INVALID.
    let bad = text.replace("find: [mine-gy]}", "find: [mine-lib-1]}");
    let illegal = mtg_oracle::scenario::load_str("illegal.yaml", &bad, &pool).expect("loads");
    let r = no_such_choice(&illegal, 0, Some(&offer), "", &mk);
    assert_eq!(r.status, Status::Invalid, "{r:?}");
    assert!(r.message.contains("not legal either") && r.message.contains("701.23b"), "{r:?}");
    // A decision the scenario doesn't script is a protocol error.
    assert_eq!(no_such_choice(&legal, 7, None, "", &mk).status, Status::Error);
}

#[test]
fn steps_from_outside_and_sorceries_cast_by_a_non_active_player_are_feature_tags() {
    let scenarios = bundled();
    let features = |part: &str| {
        let l = scenarios.iter().find(|l| l.id.contains(part)).expect("bundled");
        scenario_message(l, Mode::Scripted).features
    };
    assert!(features("701.23f-mindcensor-veteran-explorer-cr-example").contains(&"step-dies".to_string()));
    assert!(features("400.7-splinter-target-exiled-in-response").contains(&"step-exile".to_string()));
    let alice_casts = features("701.23a-demonic-tutor-finds-bottom-card");
    assert!(alice_casts.is_empty(), "{alice_casts:?}");
    // Bob (not the active player) casts a sorcery-timed spell: tagged, unless he controls
    // Vedalken Orrery (702.8a) or the cast is an attempt refused for timing (117.1a).
    let pool = pool();
    let tags = |bob_casts: &str, battlefield: &str| {
        let text = format!(
            "title: t\nrules: [\"117.1a\"]\nsource: {{kind: clause, reference: x}}\ndescription: d\n\
             players:\n  - name: Alice\n  - name: Bob\n    hand: [{{card: Demonic Tutor, id: dt}}, \
             {{card: Grizzly Bears, id: gb}}, {{card: Mystical Tutor, id: mt}}]\n    library: [Forest]\n\
             {battlefield}steps:\n  - {bob_casts}\nexpect:\n  outcomes: 1\n"
        );
        let l = mtg_oracle::scenario::load_str("t.yaml", &text, &pool).expect("loads");
        scenario_message(&l, Mode::Scripted).features.contains(&"non-active-player-sorcery".to_string())
    };
    let orrery = "battlefield: [{card: Vedalken Orrery, owner: Bob, controller: Bob}]\n";
    assert!(tags("cast: {player: Bob, card: dt}", ""));
    assert!(tags("cast: {player: Bob, card: gb}", ""), "a creature spell has sorcery timing too");
    assert!(!tags("cast: {player: Bob, card: mt}", ""), "an instant doesn't");
    assert!(!tags("cast: {player: Bob, card: dt}", orrery));
    assert!(!tags("attempt: {step: {cast: {player: Bob, card: dt}}, refused: \"117.1a\"}", ""));
    // A loyalty ability has sorcery timing too (606.3).
    let ashiok = "battlefield: [{card: \"Ashiok, Dream Render\", id: ashiok, owner: Bob}]\n";
    assert!(tags("activate: {player: Bob, card: ashiok, ability: minus_one, targets: [Alice]}", ashiok));
    // Suspending a sorcery (Ancestral Vision) is possible only when it could be cast (702.62a).
    let vision = "suspend: {player: Bob, card: av}";
    let tags_suspend = |step: &str| {
        let text = format!(
            "title: t\nrules: [\"702.62a\"]\nsource: {{kind: clause, reference: x}}\ndescription: d\n\
             players:\n  - name: Alice\n    hand: [{{card: Ancestral Vision, id: aa}}]\n  - name: Bob\n    \
             hand: [{{card: Ancestral Vision, id: av}}]\nsteps:\n  - {step}\nexpect:\n  outcomes: 1\n"
        );
        let l = mtg_oracle::scenario::load_str("t.yaml", &text, &pool).expect("loads");
        scenario_message(&l, Mode::Scripted).features.contains(&"non-active-player-sorcery".to_string())
    };
    assert!(tags_suspend(vision), "a suspend by the non-active player");
    assert!(!tags_suspend("suspend: {player: Alice, card: aa}"), "the active player's suspend");
    // No bundled scenario needs it unless that is what it tests (none does).
    for l in &scenarios {
        let f = scenario_message(l, Mode::Scripted).features;
        assert!(!f.contains(&"non-active-player-sorcery".to_string()), "{}", l.id);
    }
    // Only scenarios that have such a step carry the tag.
    for l in &scenarios {
        let f = scenario_message(l, Mode::Scripted).features;
        let has_step = |word: &str| serde_json::to_string(&l.scenario.steps).unwrap().contains(word);
        assert_eq!(f.contains(&"step-to-graveyard".to_string()), has_step("\"to_graveyard\""), "{}", l.id);
    }
}

#[test]
fn a_v2_hello_may_list_any_card_observables_and_offers_and_trigger_kinds_are_a_public_vocabulary() {
    let line = r#"{"type":"hello","protocol":2,"engine":{"name":"x","version":"1"},"supports":{"cards":"any","observables":["known","library_top"],"offers":true}}"#;
    for parsed in [validate_from_engine(line), parse_from_engine(line)] {
        let Ok(FromEngine::Hello { supports, .. }) = parsed else { panic!("{parsed:?}") };
        assert!(supports.cards.as_ref().is_some_and(|c| c.knows("Any Card Name")));
        assert_eq!(supports.observables.as_ref().map(Vec::len), Some(2));
        assert!(supports.offers);
    }
    let bad = r#"{"type":"hello","protocol":2,"engine":{"name":"x","version":"1"},"supports":{"observables":["everything"]}}"#;
    assert!(validate_from_engine(bad).is_err(), "an unknown observable is not valid");
    // `triggered.on` may be left out; when given it must be a public trigger kind.
    let loaded = bundled().into_iter().find(|l| l.id.contains("701.23a-demonic-tutor-finds-bottom")).unwrap();
    let event = |on: &str| Outcome {
        events: vec![LoggedEvent {
            step: 0,
            event: Event::Triggered {
                source: "demonic-tutor".into(),
                controller: "Alice".into(),
                on: on.into(),
                player: None,
                targets: Vec::new(),
            },
        }],
        ..Outcome::default()
    };
    assert!(check_outcome(&event(""), &loaded.setup, 2).is_ok());
    assert!(check_outcome(&event("searched_library"), &loaded.setup, 2).is_ok());
    let problems = check_outcome(&event("searched"), &loaded.setup, 2).unwrap_err();
    assert!(problems[0].contains("not one of the trigger kinds"), "{problems:?}");
}

#[test]
fn triggers_without_their_kind_are_identified_by_source_and_the_report_says_kinds_were_not_observed() {
    use mtg_oracle::observables::Observable;
    let (loaded, answer) = reference_answer("101.4-603.3b-tricksters-three-shuffles", None);
    let FromEngine::Result { mut outcome, .. } = answer else { panic!("{answer:?}") };
    let mut triggers = 0;
    for e in &mut outcome.events {
        if let Event::Triggered { on, .. } = &mut e.event {
            on.clear();
            triggers += 1;
        }
    }
    assert!(triggers > 0, "the scenario has triggers");
    let judged = judge_observing(&loaded.setup, &outcome, &Observables::all());
    assert_eq!(judged.verdict, Verdict::Legal);
    assert_eq!(judged.unchecked, vec![Observable::TriggerKind]);
    // A trigger that didn't happen is still a difference without kinds.
    outcome.events.retain(|e| !matches!(e.event, Event::Triggered { .. }));
    assert!(!judge_observing(&loaded.setup, &outcome, &Observables::all()).verdict.is_legal());
}

/// Every observable but `searched`: an engine that logs no searches.
fn without_searches() -> Observables {
    use mtg_oracle::observables::Observable;
    let rest: Vec<Observable> = Observable::ALL.into_iter().filter(|&o| o != Observable::Searched).collect();
    Observables::only(&rest)
}

#[test]
fn without_searched_events_the_judge_reads_found_cards_from_moves_and_accepts_every_reference_outcome() {
    use mtg_oracle::observables::Observable;
    let scenarios = bundled();
    let observables = without_searches();
    let mut failures = Vec::new();
    for mode in [Mode::Scripted, Mode::Free] {
        for (policy, seed) in POLICIES {
            let (modes, answers) = serve_all(&scenarios, mode, ServeOptions { seed, policy, mutant: None });
            let mut with_searches = 0;
            for ((l, answer), sent) in scenarios.iter().zip(&answers[1..]).zip(&modes) {
                let FromEngine::Result { outcome, .. } = answer else { continue };
                let mut outcome = outcome.clone();
                let before = outcome.events.len();
                outcome.events.retain(|e| !matches!(e.event, Event::Searched { .. }));
                if outcome.events.len() == before {
                    continue;
                }
                with_searches += 1;
                let mut setup = l.setup.clone();
                if *sent == Mode::Free {
                    setup.script.clear();
                }
                let judged = judge_observing(&setup, &outcome, &observables);
                if judged.verdict != Verdict::Legal {
                    failures.push(format!("{} ({mode:?}, {policy:?}): {:?}", l.id, judged.verdict));
                } else if !judged.unchecked.contains(&Observable::Searched) {
                    failures.push(format!("{}: searches not named unchecked: {:?}", l.id, judged.unchecked));
                }
            }
            assert!(with_searches > 150, "most bundled scenarios search ({with_searches})");
        }
    }
    assert!(failures.is_empty(), "{} rejected:\n{}", failures.len(), failures.join("\n"));
}

#[test]
fn without_searched_events_a_found_card_put_in_the_wrong_place_is_still_a_fail() {
    let (loaded, answer) = reference_answer("701.23a-demonic-tutor-finds-bottom-card", None);
    let FromEngine::Result { mut outcome, .. } = answer else { panic!("{answer:?}") };
    outcome.events.retain(|e| !matches!(e.event, Event::Searched { .. }));
    assert_eq!(judge_observing(&loaded.setup, &outcome, &without_searches()).verdict, Verdict::Legal);
    // The tutored card goes to the graveyard instead of the hand.
    let mut wrong = outcome.clone();
    let text = serde_json::to_string(&wrong).unwrap().replace("Alice.hand", "Alice.graveyard");
    wrong = serde_json::from_str(&text).unwrap();
    let verdict = judge_observing(&loaded.setup, &wrong, &without_searches()).verdict;
    assert!(!verdict.is_legal(), "{verdict:?}");
    // And an engine that searched nothing, moving no card, hasn't done the tutor's job either.
    let mut nothing = outcome;
    nothing.events.retain(|e| !matches!(e.event, Event::Moved { .. }));
    let verdict = judge_observing(&loaded.setup, &nothing, &without_searches()).verdict;
    assert!(!verdict.is_legal(), "{verdict:?}");
}

#[test]
fn undeclared_observables_leave_legal_outcomes_legal_and_illegal_ones_illegal() {
    use mtg_oracle::observables::Observable::{self, *};
    let pool = pool();
    let dir = repo_root().join("tests/unobserved");
    let load = |name: &str| {
        let text = std::fs::read_to_string(dir.join(format!("{name}.yaml"))).unwrap();
        mtg_oracle::scenario::load_str(name, &text, &pool).expect("loads")
    };
    let observed = |file: &str| -> Outcome {
        serde_json::from_str(&std::fs::read_to_string(dir.join(file)).unwrap()).expect("an outcome")
    };
    let cases: [(&str, &str, &[Observable]); 6] = [
        ("d1-vampiric", "d1-observed.json", &[Known, LibraryTop, LookedAt, RevealedEmpty, TriggerKind]),
        ("d1-vampiric", "d1-observed.json", &[]),
        ("d2-shuffle-peek", "d2-observed-top-island.json", &[]),
        (
            "d3-mindcensor-unshuffled",
            "d3-observed.json",
            &[LibraryTop, MovesWithinLibrary, LookedAt, RevealedEmpty, TriggerKind, Searched],
        ),
        ("d4-two-limits", "d4-observed-nosearched.json", &[Known, LibraryTop, MovesWithinLibrary, LookedAt]),
        ("d4-two-limits", "d4-observed-searched-no-library-top.json", &[Known, MovesWithinLibrary, Searched]),
    ];
    for (scenario, file, declared) in cases {
        let loaded = load(scenario);
        let outcome = observed(file);
        let judged = judge_observing(&loaded.setup, &outcome, &Observables::only(declared));
        assert_eq!(judged.verdict, Verdict::Legal, "{scenario} with {file} and {declared:?}");
    }
    // Illegal variants stay illegal: the eighth card (below both limits) found instead of the
    // sixth; Vampiric Tutor's card not on top (the top card swapped with one nobody found).
    let loaded = load("d4-two-limits");
    let text = serde_json::to_string(&observed("d4-observed-nosearched.json")).unwrap();
    let swapped =
        text.replace("grizzly-bears", "@").replace("ornithopter", "grizzly-bears").replace('@', "ornithopter");
    let wrong: Outcome = serde_json::from_str(&swapped).unwrap();
    for declared in [&[Known, LibraryTop, MovesWithinLibrary, LookedAt][..], &[]] {
        let verdict = judge_observing(&loaded.setup, &wrong, &Observables::only(declared)).verdict;
        assert!(!verdict.is_legal(), "{declared:?}: {verdict:?}");
    }
}

#[test]
fn name_offers_must_hold_every_nameable_half_and_no_name_the_rules_forbid() {
    use mtg_oracle::offers::{OfferKind, compare};
    let (loaded, answer) = reference_answer("709.4a-r003-12-memoricide-desist-finds-split-card", None);
    let FromEngine::Result { outcome, offered, .. } = answer else { panic!("{answer:?}") };
    let judged = judge_observing(&loaded.setup, &outcome, &Observables::all());
    assert_eq!(judged.verdict, Verdict::Legal);
    let name_offer = offered.iter().position(|o| o.decision == OfferKind::Name).expect("the reference offers names");
    assert!(offered[name_offer].names.contains(&"Desist".to_string()), "{offered:?}");
    let game = Some(&loaded.setup.game);
    assert!(compare(&judged.decisions, &offered, game).is_empty());
    // Names of real cards the oracle doesn't know may be offered too (201.4).
    let mut more = offered.clone();
    more[name_offer].names.push("Black Lotus".into());
    assert!(compare(&judged.decisions, &more, game).is_empty());
    // Only the left half of the split card offered: 709.4a.
    let mut left_only = offered.clone();
    left_only[name_offer].names.retain(|n| n != "Desist");
    let diffs = compare(&judged.decisions, &left_only, game);
    assert_eq!(diffs.first().map(|d| d.clause.as_str()), Some("709.4a"), "{diffs:?}");
    // Both halves as one name (709.4a), a land's name for "a nonland card name" (201.4a).
    for (bad, clause) in [
        ("Cease // Desist", "709.4a"),
        ("Cease//Desist", "709.4a"),
        ("Plains", "201.4a"),
        ("FOREST", "201.4a"),
        ("Clue ", "201.4"),
    ] {
        let mut wrong = offered.clone();
        wrong[name_offer].names.push(bad.into());
        let diffs = compare(&judged.decisions, &wrong, game);
        assert_eq!(diffs.first().map(|d| d.clause.as_str()), Some(clause), "{bad}: {diffs:?}");
    }
    // A legal name written in other capitals is still that name.
    let mut capitals = offered.clone();
    for n in &mut capitals[name_offer].names {
        *n = n.to_lowercase();
    }
    assert!(compare(&judged.decisions, &capitals, game).is_empty());
    // Reporting name offers is optional.
    let mut none = offered;
    none.remove(name_offer);
    assert!(compare(&judged.decisions, &none, game).is_empty());
}
