//! `mtg-oracle reduce` and `check --reduce` end to end, with mutants of the reference engine
//! (`mtg-oracle serve --mutant NAME`) as the engines.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::{repo, scratch_dir};

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mtg-oracle")
}

fn mtg(args: &[&str]) -> Output {
    Command::new(bin()).args(args).current_dir(repo()).output().expect("runs")
}

fn text(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The engine command of a mutant.
fn mutant_engine(mutant: &str, choices: &str) -> String {
    format!("'{}' serve --seed 0 --choices {choices} --mutant {mutant}", bin())
}

/// The `.yaml` files in `dir`.
fn written(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("the out folder exists")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    files.sort();
    files
}

/// The sizes `reduce` prints: `size A → B`.
fn sizes(out: &str) -> (usize, usize) {
    let line = out.lines().find(|l| l.starts_with("size ")).unwrap_or_else(|| panic!("no size line:\n{out}"));
    let mut numbers = line.split(|c: char| !c.is_ascii_digit()).filter(|w| !w.is_empty()).map(|w| w.parse().unwrap());
    (numbers.next().unwrap(), numbers.next().unwrap())
}

#[test]
fn five_mutants_reduce_to_scenarios_that_still_catch_them() {
    let cases = [
        (
            "no-shuffle-after-search",
            "minimal",
            "scenarios/701.23-search/701.23a-diabolic-tutor-to-hand.yaml",
            "701.24a",
        ),
        (
            "public-copies-optional",
            "minimal",
            "scenarios/701.23-search/701.23b-splinter-howling-mine-cr-example.yaml",
            "701.23b",
        ),
        (
            "found-card-revealed",
            "minimal",
            "scenarios/701.23-search/701.23e-demonic-tutor-not-revealed.yaml",
            "701.23e",
        ),
        (
            "flashback-not-exiled",
            "minimal",
            "scenarios/702.34-flashback/702.34a-think-twice-flashback-draws-and-exiles.yaml",
            "702.34a",
        ),
        (
            "fetched-land-enters-untapped",
            "minimal",
            "scenarios/110.5-tapped/110.5b-evolving-wilds-scripted-forest-tapped.yaml",
            "110.5b",
        ),
        (
            "mindcensor-bottom-n",
            "greedy",
            "scenarios/701.23-search/701.23f-mindcensor-veteran-explorer-cr-example.yaml",
            "701.23f",
        ),
    ];
    for (mutant, choices, scenario, clause) in cases {
        let dir = scratch_dir("reduce", mutant);
        let engine = mutant_engine(mutant, choices);
        let out = mtg(&["reduce", "--engine", &engine, scenario, "--out", dir.to_str().unwrap(), "--seed", "5"]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(0), "{mutant}:\n{said}");
        assert!(said.contains("seed 5"), "the seed is printed:\n{said}");
        assert!(said.contains(&format!("FAIL {clause}")), "{mutant}:\n{said}");
        assert!(said.contains("the engine's outcome beside"), "{mutant}: the outcomes side by side:\n{said}");
        let (before, after) = sizes(&said);
        assert!(after <= before, "{mutant}: size {before} → {after}");
        let files = written(&dir);
        assert_eq!(files.len(), 1, "{mutant}: {files:?}");
        let file = files[0].to_str().unwrap();
        let yaml = std::fs::read_to_string(file).unwrap();
        assert!(yaml.contains("kind: engine-bug") && yaml.contains("REVIEW"), "{mutant}:\n{yaml}");
        // The drafted expectations hold: `run` passes it …
        let run = mtg(&["run", file]);
        assert_eq!(run.status.code(), Some(0), "{mutant}: run:\n{}", text(&run));
        // … and the mutant still FAILs on it, with the same clause first.
        let check = mtg(&["check", "-q", "--engine", &engine, file]);
        let checked = text(&check);
        assert_eq!(check.status.code(), Some(1), "{mutant}: check:\n{checked}");
        assert!(checked.contains("FAIL") && checked.contains(clause), "{mutant}: check:\n{checked}");
    }
}

#[test]
fn a_scenario_the_engine_passes_exits_1_and_writes_nothing() {
    let dir = scratch_dir("reduce", "passes");
    let engine = format!("'{}' serve --seed 0", bin());
    let scenario = "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml";
    let out = mtg(&["reduce", "--engine", &engine, scenario, "--out", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("doesn't FAIL"), "{}", text(&out));
    assert!(written(&dir).is_empty());
}

#[test]
fn check_reduce_writes_one_scenario_per_unexpected_failure() {
    let dir = scratch_dir("reduce", "check");
    let engine = mutant_engine("no-shuffle-after-search", "minimal");
    let out = mtg(&[
        "check",
        "-q",
        "--engine",
        &engine,
        "--reduce",
        dir.to_str().unwrap(),
        "scenarios/701.23-search/701.23a-diabolic-tutor-to-hand.yaml",
        "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml",
        "scenarios/406-exile/406.3-praetors-grasp-only-the-caster-may-look.yaml",
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(1), "unexpected failures:\n{said}");
    let fails = said.lines().filter(|l| l.starts_with("FAIL")).count();
    assert!(fails >= 2, "{said}");
    assert_eq!(written(&dir).len(), fails, "one reduced scenario per FAIL:\n{said}");
}
