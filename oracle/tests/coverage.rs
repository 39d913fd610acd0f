//! The rules index and the `mtg-oracle coverage` gate. (In the oracle package, like `cli.rs`, so
//! the binary's exit codes can be checked too.)

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use mtg_oracle::cards::CardPool;
use mtg_oracle::coverage::index::{RulesIndex, is_clause_id, ruling_prefix};
use mtg_oracle::coverage::{self, Citation, Options, Report, Status, Thresholds};

mod common;
use common::repo;

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    common::scratch_dir("coverage", test)
}

fn write(path: &Path, text: &str) -> PathBuf {
    std::fs::write(path, text).expect("write");
    path.to_path_buf()
}

/// The CR 701.23b example scenario: cites 701.23b, 701.23a and 400.2, kind cr-example.
fn splinter() -> String {
    std::fs::read_to_string(repo().join("scenarios/701.23-search/701.23b-splinter-howling-mine-cr-example.yaml"))
        .expect("read the Splinter scenario")
}

/// A tiny index: 701.23a and 701.23b (one CR example) and one ruling.
const TINY_INDEX: &str = r#"checked_against: "Comprehensive Rules, September 25, 2026"
clauses:
  - id: "701.23a"
    section: "701.23 Search"
    summary: "Searching means looking at every card of the zone and finding matching ones."
  - id: "701.23b"
    section: "701.23 Search"
    summary: "A hidden-zone search for a stated quality may leave matches unfound."
    examples: 1
rulings:
  - id: R001-01
    section: "Test rulings"
    summary: "Splinter finds the graveyard copy."
    cards: ["Splinter"]
    clauses: ["701.23b"]
"#;

/// The Splinter scenario, also citing the tiny index's ruling.
fn splinter_citing_ruling() -> String {
    splinter()
        .replace(r#"rules: ["701.23b", "701.23a", "400.2"]"#, r#"rules: ["701.23b", "701.23a", "400.2", "R001-01"]"#)
}

fn run(index: &Path, paths: &[PathBuf], thresholds: Thresholds) -> (u8, String, String) {
    let pool = CardPool::bundled().expect("pool");
    let options = Options { paths: paths.to_vec(), index: Some(index.to_path_buf()), thresholds, ..Options::default() };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = coverage::command(&options, &pool, &mut out, &mut err);
    (code, String::from_utf8_lossy(&out).into_owned(), String::from_utf8_lossy(&err).into_owned())
}

fn measure(index: &Path, paths: &[PathBuf], thresholds: Thresholds) -> Report {
    let pool = CardPool::bundled().expect("pool");
    let index = RulesIndex::load_file(index).expect("index loads");
    coverage::measure_paths(&index, paths, &pool, thresholds).expect("paths exist")
}

fn status_of(report: &Report, id: &str) -> Status {
    report.entries.iter().find(|e| e.id == id).unwrap_or_else(|| panic!("{id} is in the report")).status
}

const ONE_EACH: Thresholds = Thresholds { min_clause: 1, min_ruling: 1 };

// ---- the bundled index ----

/// Every clause of the issue's scope list, sub-clauses individually (400.7: only the exceptions
/// that bear on the in-scope actions; 709: everything but the 709.5 Rooms rules).
const EXPECTED_CLAUSES: &[&str] = &[
    "101.2", //
    "101.4", "101.4a", "101.4b", "101.4c", "101.4e", //
    "119.4",  //
    "116.2d", "116.2f", //
    "400.2",  //
    "400.7", "400.7e", "400.7g", "400.7h", "400.7i", "400.7j", //
    "401.1", "401.2", "401.3", "401.4", "401.5", "401.6", "401.7", //
    "406.1", "406.2", "406.3", "406.3a", "406.3b", "406.4", "406.5", "406.6", "406.7", "406.8", //
    "701.5a", "701.5b", //
    "701.8a", //
    "701.9a", "701.9b", "701.9c",  //
    "701.13a", //
    "701.16a", "111.10f", //
    "701.17a", "701.17b", "701.17c", "701.17d", //
    "701.20a", "701.20b", "701.20c", "701.20d", "701.20e", //
    "701.23a", "701.23b", "701.23c", "701.23d", "701.23e", "701.23f", "701.23g", "701.23h", "701.23i",
    "701.23j", //
    "701.24a", "701.24b", "701.24c", "701.24d", "701.24e", "701.24f", "701.24g", //
    "702.8a", "702.8b", //
    "702.29a", "702.29b", "702.29c", "702.29d", "702.29e", "702.29f", //
    "702.34a", //
    "702.52a", "702.52b", //
    "702.53a", //
    "702.61a", "702.61b", //
    "709.1", "709.2", "709.3", "709.3a", "709.3b", "709.3c", "709.4", "709.4a", "709.4b", "709.4c", "709.4d", "502.3",
    "502.4", "503.1a", "504.1", "504.2", "603.2b", "603.2e", "603.2g", "603.4", "601.3", "113.6", "302.6", "602.1b",
    "120.3a", "120.3e", "704.5g", "700.3", "306.5b", "606.3", "606.4", "606.5", "704.5i", "715.2", "715.3", "715.3a",
    "715.3b", "715.3d", "715.4", "702.76a", "702.62a", "702.62b", "702.69a", "702.69b", "707.10", "707.10c",
];

/// The 400.7 exceptions and 709.5 Rooms rules left out, each with a reason, 101.4d (no effect
/// in the seeds or the pool nests one player's choice inside another's), 702.53b (transmute
/// outside the hand: no pool card looks for activated abilities), 701.8b–c (destroying by
/// lethal damage or regeneration: neither is modelled) and 702.61c (more than one split second
/// on a spell: no pool card has that).
const EXPECTED_OUT_OF_SCOPE: &[&str] = &[
    "101.2a", //
    "101.4d", //
    "400.7a", "400.7b", "400.7c", "400.7d", "400.7f", "400.7k", "400.7m",  //
    "702.53b", //
    "120.3c", "120.3d", //
    "701.8b", "701.8c", "702.61c", //
    "709.5", "709.5a", "709.5b", "709.5c", "709.5d", "709.5e", "709.5f", "709.5g", "709.5h", "709.5i", "709.5j",
    "715.1", "715.2a", "715.2b", "715.2c", "715.3c", "702.62c", "702.62d",
];

/// The CR examples printed under in-scope clauses.
const EXPECTED_EXAMPLES: &[(&str, usize)] = &[
    ("101.4", 1),
    ("701.20c", 1),
    ("701.23b", 1),
    ("701.23c", 1),
    ("701.23f", 1),
    ("701.24c", 2),
    ("701.24d", 1),
    ("701.24g", 1),
    ("709.4b", 2),
];

#[test]
fn the_bundled_index_parses_and_names_the_cr_version() {
    let index = RulesIndex::bundled().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(index.checked_against, "Comprehensive Rules, September 25, 2026");
}

#[test]
fn every_clause_of_the_scope_is_in_the_index_and_nothing_else() {
    let index = RulesIndex::bundled().expect("bundled index");
    let clauses: Vec<&str> = index.clauses.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(clauses, EXPECTED_CLAUSES, "the index's clauses, in order");
    let out: Vec<&str> = index.out_of_scope.iter().map(|o| o.id.as_str()).collect();
    assert_eq!(out, EXPECTED_OUT_OF_SCOPE);
    assert!(index.out_of_scope.iter().all(|o| !o.reason.trim().is_empty()));
    let examples: Vec<(&str, usize)> =
        index.clauses.iter().filter(|c| c.examples > 0).map(|c| (c.id.as_str(), c.examples)).collect();
    assert_eq!(examples, EXPECTED_EXAMPLES);
}

#[test]
fn rulings_are_numbered_in_file_order_without_gaps() {
    let index = RulesIndex::bundled().expect("bundled index");
    let ids: Vec<&str> = index.rulings.iter().map(|r| r.id.as_str()).collect();
    let expected: Vec<String> = (1..=20)
        .map(|n| format!("R003-{n:02}"))
        .chain((1..=5).map(|n| format!("C001-{n:02}")))
        .chain((1..=5).map(|n| format!("C004-{n:02}")))
        .chain((1..=4).map(|n| format!("L012-{n:02}")))
        .chain((1..=23).map(|n| format!("H012-{n:02}")))
        .chain((1..=4).map(|n| format!("T012-{n:02}")))
        .chain((1..=1).map(|n| format!("G012-{n:02}")))
        .chain((1..=2).map(|n| format!("X012-{n:02}")))
        .chain((1..=1).map(|n| format!("V013-{n:02}")))
        .chain((1..=2).map(|n| format!("F013-{n:02}")))
        .chain((1..=2).map(|n| format!("W013-{n:02}")))
        .chain((1..=1).map(|n| format!("A014-{n:02}")))
        .chain((1..=2).map(|n| format!("C014-{n:02}")))
        .chain((1..=4).map(|n| format!("B014-{n:02}")))
        .chain((1..=2).map(|n| format!("S015-{n:02}")))
        .chain((1..=3).map(|n| format!("R015-{n:02}")))
        .collect();
    assert_eq!(ids, expected);
    // Spot checks that the numbering follows the seed's paragraphs.
    let summary = |id: &str| &index.rulings.iter().find(|r| r.id == id).expect("present").summary;
    assert!(summary("R003-11").contains("mana value 8"), "R003-11 is the Cease // Desist mana value ruling");
    assert!(summary("R003-20").contains("choosing one half"), "R003-20 is the last paragraph");
    for r in &index.rulings {
        if r.id.starts_with('C') {
            assert!(!r.cards.is_empty(), "{} names its card", r.id);
        }
    }
}

#[test]
fn ids_are_unique_well_formed_and_every_entry_has_a_one_line_summary() {
    let index = RulesIndex::bundled().expect("bundled index");
    let mut seen = BTreeSet::new();
    for id in index.ids().chain(index.out_of_scope.iter().map(|o| o.id.as_str())) {
        assert!(seen.insert(id), "{id} appears twice");
    }
    for c in &index.clauses {
        assert!(is_clause_id(&c.id), "{}", c.id);
        assert!(!c.summary.trim().is_empty() && !c.summary.contains('\n'), "{}: one-line summary", c.id);
        assert!(!c.section.trim().is_empty(), "{}", c.id);
    }
    for r in &index.rulings {
        assert!(ruling_prefix(&r.id).is_some(), "{}", r.id);
        assert!(!r.summary.trim().is_empty() && !r.summary.contains('\n'), "{}: one-line summary", r.id);
    }
}

#[test]
fn citations_are_classified_for_the_typo_guard() {
    let index = RulesIndex::bundled().expect("bundled index");
    assert_eq!(index.classify("701.23b"), Citation::InScope);
    assert_eq!(index.classify("R003-11"), Citation::InScope);
    assert_eq!(index.classify("400.7a"), Citation::OutOfScope);
    assert_eq!(index.classify("709.5c"), Citation::OutOfScope);
    assert_eq!(index.classify("701.23k"), Citation::Unknown, "there is no 701.23k");
    assert_eq!(index.classify("406.9"), Citation::Unknown, "all of 406 is in scope");
    assert_eq!(index.classify("R003-21"), Citation::Unknown);
    assert_eq!(index.classify("C004-1"), Citation::Unknown);
    assert_eq!(index.classify("603.3b"), Citation::Other);
    assert_eq!(index.classify("608.2h"), Citation::Other);
    assert_eq!(index.classify("400.11"), Citation::Other, "400.11 is not under 400.2 or 400.7");
    assert_eq!(index.classify("111.10a"), Citation::Other, "only the Clue clause of 111.10 is in scope");
    assert_eq!(index.classify("701.240"), Citation::Other);
}

// ---- the gate ----

#[test]
fn the_gate_passes_when_every_entry_is_covered() {
    let dir = scratch("covered");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let scenario = write(&dir.join("splinter.yaml"), &splinter_citing_ruling());
    let (code, out, err) = run(&index, &[scenario], ONE_EACH);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("701.23b") && out.contains("OK"), "{out}");
    assert!(out.lines().last().is_some_and(|l| l.contains("clauses covered 2/2, rulings covered 1/1")), "{out}");
}

#[test]
fn the_gate_fails_on_a_missing_clause() {
    let dir = scratch("missing");
    let index = TINY_INDEX.replace(
        "rulings:",
        "  - id: \"701.23c\"\n    section: \"701.23 Search\"\n    summary: \"Undefined quality: finds nothing.\"\nrulings:",
    );
    let index = write(&dir.join("index.yaml"), &index);
    let scenario = write(&dir.join("splinter.yaml"), &splinter_citing_ruling());
    let report = measure(&index, std::slice::from_ref(&scenario), ONE_EACH);
    assert_eq!(status_of(&report, "701.23c"), Status::Missing);
    assert_eq!(status_of(&report, "701.23b"), Status::Ok);
    assert!(!report.gate_passes());
    let (code, out, _) = run(&index, &[scenario], ONE_EACH);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("MISSING") && out.contains("1 MISSING"), "{out}");
}

#[test]
fn the_gate_fails_on_a_thin_clause() {
    let dir = scratch("thin");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let scenario = write(&dir.join("splinter.yaml"), &splinter_citing_ruling());
    let report = measure(&index, std::slice::from_ref(&scenario), Thresholds { min_clause: 2, min_ruling: 1 });
    assert_eq!(status_of(&report, "701.23a"), Status::Thin);
    assert_eq!(status_of(&report, "R001-01"), Status::Ok, "rulings have their own minimum");
    assert!(!report.gate_passes());
    // A second passing scenario citing both clauses makes them OK.
    let second = write(&dir.join("splinter-2.yaml"), &splinter());
    let report = measure(&index, &[scenario, second], Thresholds { min_clause: 2, min_ruling: 1 });
    assert!(report.gate_passes(), "{}", coverage::render::text(&report));
}

#[test]
fn the_gate_fails_on_a_mistyped_id_and_suggests_the_right_one() {
    let dir = scratch("typo");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let typo = splinter_citing_ruling().replace(r#""701.23a""#, r#""701.23a", "701.23bb", "603.3b""#);
    let scenario = write(&dir.join("splinter.yaml"), &typo);
    let report = measure(&index, std::slice::from_ref(&scenario), ONE_EACH);
    assert!(report.entries.iter().all(|e| e.status == Status::Ok));
    assert_eq!(report.unknown_citations.len(), 1, "603.3b is another section, so it is fine");
    assert_eq!(report.unknown_citations[0].id, "701.23bb");
    assert_eq!(report.unknown_citations[0].did_you_mean.as_deref(), Some("701.23b"));
    assert!(!report.gate_passes());
    let (code, out, _) = run(&index, &[scenario], ONE_EACH);
    assert_eq!(code, 1);
    assert!(out.contains("`701.23bb` (did you mean `701.23b`?)"), "{out}");
}

#[test]
fn a_clause_with_a_cr_example_needs_a_passing_cr_example_scenario() {
    let dir = scratch("example");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let variant = splinter_citing_ruling().replace("kind: cr-example", "kind: cr-variant");
    let scenario = write(&dir.join("splinter.yaml"), &variant);
    let report = measure(&index, &[scenario], ONE_EACH);
    assert_eq!(status_of(&report, "701.23b"), Status::NoExample);
    assert_eq!(status_of(&report, "701.23a"), Status::Ok, "701.23a prints no example");
    assert!(!report.gate_passes());
}

#[test]
fn failing_and_unloadable_scenarios_count_as_failing_and_the_run_goes_on() {
    let dir = scratch("failing");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let failing = write(&dir.join("a-failing.yaml"), &splinter_citing_ruling().replace("outcomes: 4", "outcomes: 5"));
    let report = measure(&index, std::slice::from_ref(&failing), ONE_EACH);
    assert_eq!(status_of(&report, "701.23b"), Status::Failing);
    assert!(!report.gate_passes());

    // An unknown card: the file does not load, but its rules: list is still read.
    let broken = write(
        &dir.join("b-broken.yaml"),
        &splinter_citing_ruling().replace("Howling Mine, id: mine-gy", "Howling Mnie, id: mine-gy"),
    );
    let report = measure(&index, std::slice::from_ref(&broken), ONE_EACH);
    assert_eq!(status_of(&report, "701.23b"), Status::Failing);
    let record = &report.scenarios[0];
    assert!(!record.passed && record.problem.as_deref().is_some_and(|p| p.contains("Howling Mnie")), "{record:?}");

    // Not YAML at all: its coverage is unknown, which fails the gate; the others are still run.
    let garbage = write(&dir.join("c-garbage.yaml"), "rules: [\"701.23b\"\n  - : : [");
    let good = write(&dir.join("d-good.yaml"), &splinter_citing_ruling());
    let report = measure(&index, &[failing, broken, garbage, good], ONE_EACH);
    assert_eq!(report.scenarios.len(), 4);
    assert_eq!(report.unreadable().count(), 1);
    assert!(report.entries.iter().all(|e| e.status == Status::Ok), "the good scenario covers everything");
    assert!(!report.gate_passes(), "an unreadable scenario fails the gate");
}

/// Options for a coverage run of the tiny index over one Splinter scenario, in `dir`, writing the
/// markdown report to `markdown` and the JSON one to `json`.
fn splinter_reports(dir: &Path, markdown: PathBuf, json: Option<PathBuf>) -> Options {
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let scenario = write(&dir.join("splinter.yaml"), &splinter_citing_ruling());
    Options { paths: vec![scenario], index: Some(index), thresholds: ONE_EACH, markdown: Some(markdown), json }
}

#[test]
fn markdown_and_json_reports_are_written() {
    let dir = scratch("reports");
    let options = splinter_reports(&dir, dir.join("coverage.md"), Some(dir.join("coverage.json")));
    let pool = CardPool::bundled().expect("pool");
    let code = coverage::command(&options, &pool, &mut Vec::new(), &mut Vec::new());
    assert_eq!(code, 0);
    let md = std::fs::read_to_string(dir.join("coverage.md")).expect("markdown written");
    assert!(md.contains("| section | ids | OK | THIN | FAILING | NO-EXAMPLE | MISSING |"), "{md}");
    assert!(md.contains("| 701.23 Search | 2 | 2 | 0 | 0 | 0 | 0 |"), "{md}");
    assert!(md.contains("| 701.23b | 701.23 Search | OK | 1 | 0 | ex 1/1 | splinter |"), "{md}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("coverage.json")).expect("json written"))
            .expect("valid JSON");
    assert_eq!(json["summary"]["gate_passes"], true);
    assert_eq!(json["entries"][1]["status"], "OK");
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .expect("list")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp-"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary files are left behind");
}

#[test]
fn a_report_that_cannot_be_written_exits_2() {
    let dir = scratch("unwritable");
    let options = splinter_reports(&dir, dir.join("no-such-dir").join("coverage.md"), None);
    let pool = CardPool::bundled().expect("pool");
    let mut err = Vec::new();
    assert_eq!(coverage::command(&options, &pool, &mut Vec::new(), &mut err), 2);
    assert!(String::from_utf8_lossy(&err).contains("can't write the markdown report"));
}

// ---- a malformed index ----

fn index_error(text: &str) -> String {
    let dir = scratch("bad-index");
    let index = write(&dir.join("index.yaml"), text);
    let (code, out, err) = run(&index, &[repo().join("scenarios/400-zones")], ONE_EACH);
    assert_eq!(code, 2, "{out}{err}");
    assert!(out.is_empty(), "no table for an invalid index: {out}");
    err.trim().replace(&dir.join("index.yaml").display().to_string(), "index.yaml")
}

#[test]
fn a_malformed_index_gives_a_located_error() {
    // Syntax.
    let e =
        index_error(&TINY_INDEX.replace("    section: \"701.23 Search\"\n    summary: \"A hidden", "   section: [\n"));
    assert!(e.starts_with("index.yaml:"), "{e}");
    // An unknown key (a typo of `summary`), at its line.
    let e = index_error(&TINY_INDEX.replace("    summary: \"Searching", "    sumary: \"Searching"));
    assert!(e.starts_with("index.yaml:5:5: rules index:") && e.contains("unknown field `sumary`"), "{e}");
    // A duplicate id, at the second occurrence.
    let e = index_error(&TINY_INDEX.replace("id: \"701.23b\"", "id: \"701.23a\""));
    assert_eq!(e, "index.yaml:6:9: rules index: clauses[1].id: `701.23a` is listed twice (first at clauses[0].id)");
    // An empty summary.
    let e = index_error(&TINY_INDEX.replace("\"Splinter finds the graveyard copy.\"", "\"\""));
    assert_eq!(e, "index.yaml:13:14: rules index: rulings[0].summary: must not be empty");
    // A clause filed under the wrong rule number.
    let e = index_error(&TINY_INDEX.replacen("section: \"701.23 Search\"", "section: \"701.24 Shuffle\"", 1));
    assert!(e.starts_with("index.yaml:4:14: rules index: clauses[0].section:"), "{e}");
    // A ruling relating to a clause the index should have but doesn't.
    let e = index_error(&TINY_INDEX.replace("clauses: [\"701.23b\"]", "clauses: [\"701.23z\"]"));
    assert!(e.starts_with("index.yaml:15:15: rules index: rulings[0].clauses[0]:"), "{e}");
    // A value of the wrong type.
    let e = index_error(&TINY_INDEX.replace("examples: 1", "examples: one"));
    assert!(e.starts_with("index.yaml:9:15: rules index:") && e.contains("invalid type"), "{e}");
}

#[test]
fn the_supporting_list_is_validated_and_not_a_coverage_target() {
    let with = |entries: &str| format!("{TINY_INDEX}supporting:\n{entries}");
    let error = |entries: &str| match RulesIndex::parse("index.yaml", &with(entries)) {
        Ok(_) => panic!("should be refused:\n{entries}"),
        Err(e) => e.to_string(),
    };
    // A clause outside the in-scope rules, with a one-line summary: fine, and nothing to cover.
    let index =
        RulesIndex::parse("index.yaml", &with("  - id: \"608.2b\"\n    summary: \"Targets are checked again.\"\n"))
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(index.supporting.len(), 1);
    assert!(index.ids().all(|id| id != "608.2b"), "a supporting clause is not a coverage target");
    assert_eq!(index.classify("608.2b"), Citation::Other);
    // Listed in `clauses` too, at the second occurrence.
    let e = error("  - id: \"701.23a\"\n    summary: \"Twice.\"\n");
    assert_eq!(e, "index.yaml:17:9: rules index: supporting[0].id: `701.23a` is listed twice (first at clauses[0].id)");
    // Under an in-scope rule number: it belongs in `clauses` or `out_of_scope`.
    let e = error("  - id: \"701.23c\"\n    summary: \"Undefined quality.\"\n");
    assert!(e.starts_with("index.yaml:17:9:") && e.contains("under the in-scope rule 701.23"), "{e}");
    // Not a clause number.
    let e = error("  - id: \"608.2B\"\n    summary: \"Targets.\"\n");
    assert!(e.contains("supporting[0].id: `608.2B` is not a clause number"), "{e}");
    // An empty summary, an unknown key.
    let e = error("  - id: \"608.2b\"\n    summary: \"\"\n");
    assert!(e.contains("supporting[0].summary: must not be empty"), "{e}");
    let e = error("  - id: \"608.2b\"\n    summary: \"x\"\n    reason: \"y\"\n");
    assert!(e.contains("unknown field `reason`"), "{e}");
}

#[test]
fn a_missing_scenario_path_or_index_file_exits_2() {
    let dir = scratch("paths");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let (code, _, err) = run(&index, &[dir.join("nope")], ONE_EACH);
    assert_eq!(code, 2);
    assert!(err.contains("no such file or directory"), "{err}");
    let (code, _, err) = run(&dir.join("missing-index.yaml"), std::slice::from_ref(&dir), ONE_EACH);
    assert_eq!(code, 2);
    assert!(err.contains("can't read the rules index"), "{err}");
}

// ---- the binary ----

#[test]
fn the_cli_reports_and_exits_with_the_gate() {
    let dir = scratch("cli");
    let index = write(&dir.join("index.yaml"), TINY_INDEX);
    let scenario = write(&dir.join("splinter.yaml"), &splinter_citing_ruling());
    let cli = |extra: &[&str]| {
        let mut args = vec!["coverage", scenario.to_str().unwrap(), "--index", index.to_str().unwrap()];
        args.extend_from_slice(extra);
        Command::new(env!("CARGO_BIN_EXE_mtg-oracle")).args(&args).current_dir(repo()).output().expect("runs")
    };
    let o = cli(&["--min-clause", "1", "--min-ruling", "1"]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stdout));
    let o = cli(&[]);
    assert_eq!(o.status.code(), Some(1), "the default minimum is 2 passing scenarios per clause and per ruling");
    assert!(String::from_utf8_lossy(&o.stdout).contains("THIN"));
    let o = cli(&["--min-clause", "0"]);
    assert_eq!(o.status.code(), Some(2), "a minimum of 0 is refused");
}

#[test]
fn the_bundled_index_runs_against_the_bundled_scenarios() {
    // Not a coverage requirement (scenarios for many clauses are still being written): the
    // report must simply list every index entry and credit the scenarios that exist.
    let index = RulesIndex::bundled().expect("bundled index");
    let pool = CardPool::bundled().expect("pool");
    let report = coverage::measure_paths(&index, &[repo().join("scenarios")], &pool, Thresholds::default())
        .expect("scenarios folder");
    assert_eq!(report.entries.len(), index.clauses.len() + index.rulings.len());
    assert_eq!(report.summary.scenarios, report.summary.scenarios_passed, "every bundled scenario passes");
    assert_eq!(status_of(&report, "701.23b"), Status::Ok);
    assert!(report.unknown_citations.is_empty(), "{:?}", report.unknown_citations);
}
