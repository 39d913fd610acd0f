//! The `mtg-oracle` command line, end to end. (This file lives in the oracle package rather than
//! in `tests/` because Cargo gives a package's own integration tests the path of its binary.)

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repo root").to_path_buf()
}

fn oracle(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mtg-oracle")).args(args).current_dir(repo()).output().expect("runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn scratch(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mtg-oracle-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write");
    path
}

const SPLINTER: &str = "scenarios/701.23-search/701.23b-splinter-howling-mine-cr-example.yaml";

#[test]
fn run_passes_and_ends_with_the_summary_line() {
    let o = oracle(&["run", SPLINTER]);
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o).lines().last(), Some("1 passed, 0 failed"));
}

#[test]
fn run_exits_1_on_a_failing_expectation_and_2_on_bad_input_and_goes_on() {
    let text = std::fs::read_to_string(repo().join(SPLINTER)).expect("read");
    let failing = scratch("failing.yaml", &text.replace("outcomes: 4", "outcomes: 5"));
    let o = oracle(&["run", failing.to_str().unwrap(), SPLINTER]);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    assert!(out.contains("FAIL") && out.contains("expected 5 legal outcome(s), found 4"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 1 failed"));

    let broken = scratch("broken.yaml", &text.replace("Howling Mine, id: mine-gy", "Howling Mnie, id: mine-gy"));
    let o = oracle(&["run", broken.to_str().unwrap(), failing.to_str().unwrap(), SPLINTER]);
    assert_eq!(o.status.code(), Some(2), "bad input wins over a failure");
    let out = stdout(&o);
    assert!(out.contains("ERROR") && out.contains("did you mean `Howling Mine`?"), "{out}");
    assert_eq!(out.lines().last(), Some("1 passed, 2 failed"));
}

#[test]
fn explain_refuses_a_scripted_decision_that_never_comes_up_as_run_does() {
    // Bob never decides anything in Splinter's scenario: a `may` scripted for him is the author's
    // error, which `explain` used to ignore while `run` refused it.
    let text = std::fs::read_to_string(repo().join(SPLINTER)).expect("read");
    let at = text.find("\nsteps:").expect("a steps block");
    let scripted = format!("{}\ndecisions:\n  - may: {{player: Bob, accept: true}}{}", &text[..at], &text[at..]);
    let path = scratch("never-comes-up.yaml", &scripted);
    for command in ["explain", "run"] {
        let o = oracle(&[command, path.to_str().unwrap()]);
        assert_eq!(o.status.code(), Some(2), "{command}: {}", stdout(&o));
        let all = format!("{}{}", stdout(&o), String::from_utf8_lossy(&o.stderr));
        assert!(all.contains("decisions[0]") && all.contains("never came up"), "{command}: {all}");
    }
}

#[test]
fn explain_json_round_trips_through_judge() {
    let o = oracle(&["explain", SPLINTER, "--json", "--sample", "1"]);
    assert_eq!(o.status.code(), Some(0));
    let outcomes: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
    let first = outcomes.get(0).expect("one outcome").clone();
    let legal = scratch("legal.json", &first.to_string());
    let o = oracle(&["judge", SPLINTER, legal.to_str().unwrap()]);
    assert_eq!((o.status.code(), stdout(&o).trim()), (Some(0), "LEGAL"));

    // The same outcome with the graveyard copy back in the graveyard: 701.23b.
    let mut bad = first;
    let exile = bad["zones"]["exile"].as_array_mut().expect("exile");
    exile.retain(|c| c != "mine-gy");
    bad["zones"]["Bob.graveyard"] = serde_json::json!(["mine-gy"]);
    for e in bad["events"].as_array_mut().expect("events") {
        if e["event"] == "searched" {
            e["found"].as_array_mut().expect("found").retain(|c| c != "mine-gy");
        }
    }
    let illegal = scratch("illegal.json", &bad.to_string());
    let o = oracle(&["judge", SPLINTER, illegal.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("ILLEGAL") && stdout(&o).contains("701.23b"), "{}", stdout(&o));
}

#[test]
fn schema_is_json_for_each_document() {
    for kind in ["scenario", "outcome", "cards"] {
        let o = oracle(&["schema", kind]);
        assert_eq!(o.status.code(), Some(0));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("schema is JSON");
        assert!(v.get("$schema").is_some() || v.get("title").is_some(), "{kind}: {v}");
    }
}

/// `mtg-oracle new` drafts a scenario that `run` passes as written, with the `expect:` block
/// marked for review, and refuses flags that don't make a scenario (exit 2, naming the flag).
#[test]
fn new_drafts_a_scenario_that_runs_and_passes_and_is_marked_for_review() {
    let dir = std::env::temp_dir().join(format!("mtg-oracle-cli-new-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    let out = dir.join("drafted.yaml");
    let o = oracle(&[
        "new",
        "--rule",
        "701.23a",
        "--card",
        "Alice.library=Forest",
        "--card",
        "Alice.library=Island",
        "--card",
        "Alice.hand=Demonic Tutor",
        "--card",
        "Bob.battlefield=Ob Nixilis, Unshackled#ob",
        "--step",
        "cast: {player: Alice, card: demonic-tutor}",
        "--step",
        "resolve",
        "--decision",
        "search: {player: Alice, find: [island]}",
        "--out",
        out.to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", String::from_utf8_lossy(&o.stderr));
    let text = std::fs::read_to_string(&out).expect("written");
    let review = text.lines().position(|l| l.starts_with("# REVIEW")).expect("a # REVIEW line");
    assert_eq!(text.lines().nth(review + 1), Some("expect:"), "{text}");
    assert!(text.contains("outcomes: 1") && text.contains("title: 'TODO"), "{text}");
    let run = oracle(&["run", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(0), "{}", stdout(&run));
    assert_eq!(stdout(&run).lines().last(), Some("1 passed, 0 failed"));
    // It won't overwrite, and a bad flag is named.
    let again = oracle(&["new", "--rule", "701.23a", "--step", "resolve", "--out", out.to_str().unwrap()]);
    assert_eq!(again.status.code(), Some(2));
    let bad = oracle(&["new", "--rule", "701.23a", "--card", "Alice.deck=Forest", "--step", "resolve"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--card `Alice.deck=Forest`: unknown zone `deck`"));
    let _ = std::fs::remove_dir_all(&dir);
}
