//! `mtg-oracle check`, `serve` and `mutants` end to end, through the binary. (In the oracle
//! package, where Cargo gives integration tests the binary's path; the library-level tests of
//! `check` with fake engines are in `tests/check.rs`.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{Reports, repo};

const BIN: &str = env!("CARGO_BIN_EXE_mtg-oracle");

fn oracle(args: &[&str]) -> Output {
    Command::new(BIN).args(args).current_dir(repo()).env("CI", "true").output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("check-cli", name)
}

fn fake(args: &str) -> String {
    format!("python3 tests/fake_engine.py delegate={BIN} {args}")
}

fn scenario_count() -> usize {
    fn walk(dir: &Path) -> usize {
        std::fs::read_dir(dir)
            .expect("readable")
            .filter_map(Result::ok)
            .map(|e| e.path())
            .map(|p| if p.is_dir() { walk(&p) } else { usize::from(p.extension().is_some_and(|e| e == "yaml")) })
            .sum()
    }
    walk(&repo().join("scenarios"))
}

fn statuses(report: &Path) -> Vec<(String, String)> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).expect("report")).expect("JSON");
    json["scenarios"]
        .as_array()
        .expect("scenarios")
        .iter()
        .map(|s| (s["id"].as_str().unwrap().to_string(), s["status"].as_str().unwrap().to_string()))
        .collect()
}

#[test]
fn check_without_an_engine_passes_every_bundled_scenario_and_writes_every_report() {
    let dir = scratch("reference");
    let reports = Reports::in_dir(&dir);
    let (junit, json, md) = (&reports.junit, &reports.json, &reports.markdown);
    let flags = reports.flags();
    let o = oracle(&[&["check", "--seed", "11"][..], &flags.iter().map(String::as_str).collect::<Vec<_>>()].concat());
    let n = scenario_count();
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), Some(format!("{n} passed, 0 failed").as_str()), "{}", stdout(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("seed 11"), "the seed is printed");
    let s = statuses(json);
    assert_eq!(s.len(), n);
    assert!(s.iter().all(|(_, st)| st == "PASS"));
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    assert_eq!(report["engine"]["seed"], 11);
    assert!(report["corpus"]["digest"].is_string());
    assert!(std::fs::read_to_string(junit).unwrap().contains(&format!("tests=\"{n}\" failures=\"0\"")));
    let matrix = std::fs::read_to_string(md).unwrap();
    assert!(matrix.contains("| 701.23b |"));
    // The summary comes first: counts per status and the pass rate of the scenarios run.
    let summary = format!("| {n} | {n} | 0 | 0 | 0 | 0 | 0 | 100.0% |");
    assert!(matrix.find(&summary).is_some_and(|i| i < matrix.find("| clause |").unwrap()), "{matrix}");
    // Free mode and random choices pass as well.
    for args in [["--mode", "free", "--choices", "random"], ["--mode", "scripted", "--choices", "greedy"]] {
        let o = oracle(&[&["check", "--seed", "5"][..], &args[..]].concat());
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn every_mutant_is_caught_by_the_bundled_scenarios() {
    let o = oracle(&["mutants"]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains(" caught, 0 survived"), "{out}");
    assert!(!out.contains("SURVIVES"), "{out}");
    let list = stdout(&oracle(&["mutants", "--list"]));
    assert!(list.lines().count() >= 15, "{list}");
    for line in list.lines() {
        let name = line.split_whitespace().next().unwrap();
        assert!(out.contains(&format!("`{name}`")), "{name} is missing from the table:\n{out}");
    }
}

#[test]
fn a_mutant_fails_the_gate_with_the_clause_it_breaks() {
    let o = oracle(&["check", "--seed", "1", "--mutant", "found-card-revealed", "--filter", "701.23e-demonic"]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let out = stdout(&o);
    assert!(out.contains("FAIL") && out.contains("701.23e:"), "{out}");
    assert_eq!(out.lines().last(), Some("0 passed, 1 failed"));
}

#[test]
fn crashes_hangs_and_garbage_mixed_with_passes_the_run_completes_and_reports_are_whole() {
    let dir = scratch("mixed");
    let json = dir.join("report.json");
    let junit = dir.join("junit.xml");
    // Whole file-name prefixes: "demonic-tutor" alone also names a Knowledge Exploitation scenario.
    let engine = fake("crash=701.23a-demonic-tutor hang=701.23a-diabolic-tutor garbage=701.23a-enlightened");
    let o = oracle(&[
        "check",
        "scenarios/701.23-search",
        "--filter",
        "701.23a-",
        "--engine",
        &engine,
        "--timeout",
        "1.5",
        "--json",
        json.to_str().unwrap(),
        "--junit",
        junit.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let s = statuses(&json);
    let status = |part: &str| s.iter().find(|(id, _)| id.contains(part)).map(|(_, st)| st.as_str()).unwrap();
    assert_eq!(status("701.23a-demonic-tutor"), "ERROR");
    assert_eq!(status("701.23a-diabolic-tutor"), "TIMEOUT");
    assert_eq!(status("701.23a-enlightened"), "ERROR");
    assert_eq!(status("splinter-hand"), "PASS", "the restarted engine goes on");
    assert_eq!(status("worldly-tutor"), "PASS");
    // Every other 701.23a scenario (the folder grows as cards are added) passes on the fake engine.
    let passed = s.iter().filter(|(_, st)| st == "PASS").count();
    assert!(passed >= 2, "{s:?}");
    assert_eq!(stdout(&o).lines().last(), Some(format!("{passed} passed, 3 failed").as_str()));
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert!(xml.contains("errors=\"3\"") && xml.ends_with("</testsuites>\n"), "{xml}");
}

#[test]
fn validate_catches_a_message_the_schema_does_not_allow() {
    let engine = fake("extra-field=demonic-tutor");
    let args = ["check", "scenarios/701.23-search", "--filter", "701.23a-demonic", "--engine", &engine];
    let lenient = oracle(&args);
    assert_eq!(lenient.status.code(), Some(0), "without --validate an extra field is ignored: {}", stdout(&lenient));
    let strict = oracle(&[&args[..], &["--validate"]].concat());
    assert_eq!(strict.status.code(), Some(1), "{}", stdout(&strict));
    assert!(
        stdout(&strict).contains("protocol violation") && stdout(&strict).contains("engine_note"),
        "{}",
        stdout(&strict)
    );
}

#[test]
fn baselines_record_known_failures_and_fail_on_unexpected_passes() {
    let dir = scratch("baseline");
    let baseline = dir.join("engine-baseline.yaml");
    let b = baseline.to_str().unwrap();
    let mutant = ["check", "--seed", "1", "--mutant", "found-card-revealed", "--filter", "701.23e-"];
    assert_eq!(oracle(&mutant).status.code(), Some(1), "failures without a baseline fail the gate");
    let o = oracle(&[&mutant[..], &["--baseline", b, "--update-baseline"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let text = std::fs::read_to_string(&baseline).expect("written");
    assert!(text.contains("701.23e-demonic-tutor-not-revealed.yaml") && text.contains("status: FAIL"), "{text}");
    let o = oracle(&[&mutant[..], &["--baseline", b]].concat());
    assert_eq!(o.status.code(), Some(0), "known failures pass the gate: {}", stdout(&o));
    assert!(stdout(&o).contains("(expected: baseline)"));
    // The fixed engine now passes what the baseline expects to fail.
    let o = oracle(&["check", "--seed", "1", "--filter", "701.23e-", "--baseline", b]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(stdout(&o).contains("UNEXPECTED PASS"), "{}", stdout(&o));
}

#[test]
fn partitions_split_the_corpus_and_bad_arguments_exit_2() {
    let dir = scratch("partition");
    let mut all = Vec::new();
    for i in 1..=2 {
        let json = dir.join(format!("p{i}.json"));
        let o = oracle(&["check", "--seed", "3", "--partition", &format!("{i}/2"), "--json", json.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
        all.extend(statuses(&json).into_iter().map(|(id, _)| id));
    }
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!((n, all.len()), (scenario_count(), scenario_count()), "disjoint and complete");
    assert_eq!(oracle(&["check", "--partition", "3/2"]).status.code(), Some(2));
    assert_eq!(oracle(&["check", "no/such/path"]).status.code(), Some(2));
    let unwritable = oracle(&["check", "--filter", "701.23a-demonic", "--json", "/nonexistent/dir/r.json"]);
    assert_eq!(unwritable.status.code(), Some(2));
}

#[test]
fn the_example_adapter_passes_what_it_handles() {
    // The docs link to engines/example_adapter.py rather than embed a copy (oracle/tests/docs.rs).
    let dir = scratch("adapter");
    let json = dir.join("r.json");
    let o = oracle(&[
        "check",
        "--engine",
        "python3 engines/example_adapter.py",
        "--validate",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    let s = statuses(&json);
    let passed: Vec<&str> = s.iter().filter(|(_, st)| st == "PASS").map(|(id, _)| id.as_str()).collect();
    assert!(passed.len() >= 3 && passed.iter().all(|id| id.contains("tutor")), "{passed:?}");
    assert!(s.iter().all(|(_, st)| st == "PASS" || st == "UNSUPPORTED"), "{s:?}");
}

#[test]
fn schema_protocol_is_json() {
    let o = oracle(&["schema", "protocol"]);
    assert_eq!(o.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    assert!(v["title"].as_str().is_some_and(|t| t.contains("protocol")), "{v}");
}

#[test]
fn declared_unobservable_fields_are_not_judged_and_every_report_names_them() {
    let tutor = "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml";
    let capped = "scenarios/701.23-search/701.23f-mindcensor-veteran-explorer-cr-example.yaml";
    let strip = "strip-known=701.23a-demonic-tutor-finds-bottom strip-library-top=veteran-explorer-cr";
    // Without a declaration, an answer that leaves out `known` or `library_top` fails, each with
    // the clause of what is missing.
    let o = oracle(&["check", "--engine", &fake(strip), "--validate", tutor, capped]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("701.20a:"), "a card in hand its owner must know: {out}");
    assert!(out.contains("701.23f:") && out.contains("field `library_top` is missing"), "{out}");
    assert!(!out.contains("701.23h"), "a missing field is not an extra search: {out}");
    // Declared as not reported, they are not judged, and every report names them per scenario.
    let dir = scratch("unobserved");
    let reports = Reports::in_dir(&dir);
    let (junit, json, md) = (&reports.junit, &reports.json, &reports.markdown);
    let engine = fake(&format!("{strip} observables=moves_within_library,looked_at,revealed_empty,trigger_kind"));
    let flags = reports.flags();
    let mut args = vec!["check", "--engine", &engine, "--validate"];
    args.extend(flags.iter().map(String::as_str));
    let o = oracle(&[&args[..], &[tutor, capped]].concat());
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(
        out.contains(
            "PASS scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml, knowledge not observed"
        ),
        "{out}"
    );
    assert!(out.contains("library_top not observed"), "{out}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(json).unwrap()).unwrap();
    let unobserved: Vec<String> = report["scenarios"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["unobserved"].as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect();
    assert!(unobserved.contains(&"knowledge not observed".to_string()), "{report}");
    assert!(unobserved.contains(&"library_top not observed".to_string()), "{report}");
    for file in [&junit, &md] {
        let text = std::fs::read_to_string(file).unwrap();
        assert!(text.contains("knowledge not observed") && text.contains("library_top not observed"), "{text}");
    }
}

#[test]
fn an_engine_that_offers_no_such_choice_fails_when_the_scripted_choice_is_legal() {
    // Splinter's script finds only the graveyard copy; the engine always takes every copy. The
    // scripted choice is legal (a library is hidden and the search states a name), so the
    // engine lacks a legal option: FAIL, 701.23b.
    let splinter = "scenarios/701.23-search/701.23b-splinter-scripted-leaves-library-copies.yaml";
    let o = oracle(&["check", "--engine", &fake("no-such-choice=splinter-scripted"), "--validate", splinter]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}");
    assert!(out.contains("FAIL") && out.contains("701.23b:") && out.contains("offers no such choice"), "{out}");
    // The same answer for a scenario whose scripted choice is illegal: the scenario is INVALID.
    let dir = scratch("no-such-choice");
    let bad = dir.join("splinter-illegal-script.yaml");
    let text = std::fs::read_to_string(repo().join(splinter))
        .unwrap()
        .replace("find: [mine-gy]}", "find: [mine-lib-1]}")
        .replace("expect:\n  outcomes: 1", "expect:\n  outcomes: 0");
    std::fs::write(&bad, text).unwrap();
    let o = oracle(&["check", "--engine", &fake("no-such-choice=splinter-illegal"), bad.to_str().unwrap()]);
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(2), "{out}");
    assert!(out.contains("INVALID") && out.contains("701.23b"), "{out}");
}

#[test]
fn option_set_mutants_pass_every_outcome_check_but_fail_on_what_they_offer() {
    for (mutant, filter, clause) in [
        ("offers-below-mindcensor-window", "701.23f-mindcensor-veteran-explorer-cr-example", "701.23f:"),
        ("lobotomy-offers-basic-lands", "701.23c-lobotomy-nonbasic-land-is-choosable", "608.2d:"),
        ("may-search-not-offered", "701.23f-mindcensor-veteran-explorer-cr-example", "608.2d:"),
        ("opposition-agent-searcher-chooses", "h012-19-opposition-agent-finds-only-what-the-search-asks", "723.5:"),
    ] {
        let o = oracle(&["check", "--seed", "1", "--mutant", mutant, "--filter", filter]);
        let out = stdout(&o);
        assert_eq!(o.status.code(), Some(1), "{mutant}: {out}");
        assert!(out.contains("FAIL") && out.contains(clause), "{mutant}: {out}");
    }
}
