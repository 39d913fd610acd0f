//! `check` against misbehaving engines (small fake engines in `tests/fake_engine.py`): every
//! crash, hang or garbage answer costs only its own scenario, the run completes, and the reports
//! are whole. Also the baseline's gate, partitions and atomic report files.

use std::path::{Path, PathBuf};

use mtg_oracle::check::baseline::{Baseline, BaselineError, Expected, Gate};
use mtg_oracle::check::engine::EngineCommand;
use mtg_oracle::check::{CheckOptions, CheckRun, Status, check, in_partition, parse_partition, report};
use mtg_oracle::protocol::Mode;
use mtg_oracle::scenario::collect_files;
use mtg_oracle_tests::{pool, repo_root};

fn fake(args: &str) -> EngineCommand {
    EngineCommand::shell(&format!("python3 {} {args}", repo_root().join("tests/fake_engine.py").display()))
}

fn scenarios(filter: &str) -> Vec<PathBuf> {
    mtg_oracle_tests::bundled_files(filter)
}

/// The five 701.23a tutor scenarios these tests name one by one (the fake engine's misbehaviours
/// are keyed to them), not every `701.23a-` file, which grows as cards are added.
fn tutor_scenarios() -> Vec<PathBuf> {
    ["701.23a-demonic", "701.23a-diabolic", "701.23a-enlightened", "701.23a-splinter-hand", "701.23a-worldly"]
        .into_iter()
        .flat_map(scenarios)
        .collect()
}

fn opts(engine: EngineCommand, timeout_ms: u64) -> CheckOptions {
    mtg_oracle_tests::check_options(engine, timeout_ms, mtg_oracle::check::engine::Limits::default())
}

#[track_caller]
fn result<'a>(run: &'a CheckRun, part: &str) -> &'a mtg_oracle::check::ScenarioResult {
    mtg_oracle_tests::result_of(run, part)
}

fn scratch(name: &str) -> PathBuf {
    mtg_oracle_tests::scratch_dir("check", name)
}

/// Well-formed XML, by Python's own parser (the tests already need python3 for the fake engines).
fn assert_well_formed_xml(path: &Path) {
    let ok = std::process::Command::new("python3")
        .args(["-c", "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])"])
        .arg(path)
        .status()
        .expect("python3 runs");
    assert!(ok.success(), "{} is not well-formed XML:\n{}", path.display(), std::fs::read_to_string(path).unwrap());
}

fn write_reports(run: &CheckRun, dir: &Path) {
    report::write_atomic(&dir.join("junit.xml"), &report::junit(run)).expect("junit");
    report::write_atomic(&dir.join("report.json"), &report::json(run)).expect("json");
    report::write_atomic(&dir.join("matrix.md"), &report::markdown(run)).expect("markdown");
    assert_well_formed_xml(&dir.join("junit.xml"));
    let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap())
        .expect("the JSON report parses");
    assert_eq!(json["scenarios"].as_array().map(Vec::len), Some(run.scenarios.len()));
    assert!(json["corpus"]["digest"].as_str().is_some_and(|d| d.starts_with("fnv1a64:")), "{json}");
    let md = std::fs::read_to_string(dir.join("matrix.md")).unwrap();
    assert!(md.contains("| clause |") && md.contains("701.23a"), "{md}");
    let leftovers: Vec<_> = std::fs::read_dir(dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert_eq!(leftovers.len(), 3, "no temporary files are left: {leftovers:?}");
}

#[test]
fn each_misbehaviour_costs_only_its_scenario_and_the_run_completes() {
    let mut files = tutor_scenarios();
    files.extend(scenarios("701.23b-splinter-howling-mine"));
    assert_eq!(files.len(), 6);
    let engine =
        fake("crash=demonic-tutor hang=diabolic-tutor garbage=enlightened wrong-ids=splinter-hand error=worldly-tutor");
    let run = check(&files, &pool(), &opts(engine, 1500), |_, _, _| {});
    assert_eq!(run.scenarios.len(), 6, "every scenario has a result");

    let crash = result(&run, "demonic-tutor");
    assert_eq!(crash.status, Status::Error, "{crash:?}");
    assert!(crash.message.contains("crashed") && crash.message.contains("exit status: 3"), "{crash:?}");
    assert!(crash.stderr_tail.iter().any(|l| l.contains("boom in")), "the stderr tail is kept: {crash:?}");

    let hang = result(&run, "diabolic-tutor");
    assert_eq!(hang.status, Status::Timeout, "{hang:?}");
    assert!(hang.time_ms < 10_000.0, "the hang was cut off at the limit: {hang:?}");

    let garbage = result(&run, "enlightened");
    assert_eq!(garbage.status, Status::Error);
    assert!(garbage.message.contains("malformed answer") && garbage.message.contains("not JSON"), "{garbage:?}");

    let wrong = result(&run, "splinter-hand");
    assert_eq!(wrong.status, Status::Error);
    assert!(wrong.message.contains("`no-such-card` is not a card id of this scenario"), "{wrong:?}");

    let error = result(&run, "worldly-tutor");
    assert_eq!(error.status, Status::Error);
    assert!(error.message.contains("not today"), "{error:?}");

    let unsupported = result(&run, "howling-mine");
    assert_eq!(unsupported.status, Status::Unsupported, "the engine was restarted and answered: {unsupported:?}");
    assert_eq!(unsupported.link.as_deref(), Some("https://example.org/fake/1"));

    assert_eq!(run.engine.as_ref().map(|e| e.name.as_str()), Some("fake"));
    assert_eq!(run.exit_code(), 1, "unexpected failures fail the gate");
    let summary = report::summary(&run);
    assert_eq!(summary.lines().last(), Some("0 passed, 5 failed"), "{summary}");
    write_reports(&run, &scratch("misbehaviour"));
}

#[test]
fn an_engine_that_never_greets_errors_every_scenario_and_is_given_up_after_three_starts() {
    let files = tutor_scenarios();
    for (args, words) in [
        ("hello=garbage", "not JSON"),
        ("hello=hang", "no `hello`"),
        ("hello=exit", "crashed"),
        ("hello=v3", "speaks protocol 3"),
    ] {
        // 2 s: long enough for Python to start on a loaded machine, short enough for the hangs.
        let run = check(&files, &pool(), &opts(fake(args), 2000), |_, _, _| {});
        assert_eq!(run.scenarios.len(), files.len());
        assert!(run.scenarios.iter().all(|s| s.status == Status::Error), "{args}: {:?}", run.scenarios);
        assert!(run.scenarios[0].message.contains(words), "{args}: {}", run.scenarios[0].message);
        assert!(run.scenarios[4].message.contains("not tried again"), "{args}: {}", run.scenarios[4].message);
        if args == "hello=exit" {
            assert!(run.scenarios[0].stderr_tail.iter().any(|l| l.contains("refusing to start")));
        }
        write_reports(&run, &scratch(args.replace('=', "-").as_str()));
    }
    let missing = EngineCommand { program: "/nonexistent/engine".into(), args: vec![], display: "nowhere".into() };
    let run = check(&files[..1], &pool(), &opts(missing, 500), |_, _, _| {});
    assert_eq!(run.scenarios[0].status, Status::Error);
    assert!(run.scenarios[0].message.contains("can't start"), "{}", run.scenarios[0].message);
}

#[test]
fn bytes_that_are_not_text_are_an_error_and_the_engine_is_restarted() {
    let mut files = scenarios("701.23a-demonic");
    files.extend(scenarios("701.23a-diabolic"));
    let run = check(&files, &pool(), &opts(fake("binary=demonic"), 2000), |_, _, _| {});
    assert_eq!(run.scenarios[0].status, Status::Error);
    assert!(run.scenarios[0].message.contains("malformed output") && run.scenarios[0].message.contains("UTF-8"));
    assert_eq!(run.scenarios[1].status, Status::Unsupported, "the next scenario runs on a fresh engine");
}

#[test]
fn an_answer_with_another_seq_is_a_protocol_violation() {
    let files = scenarios("701.23a-demonic");
    let run = check(&files, &pool(), &opts(fake("wrong-seq=demonic"), 2000), |_, _, _| {});
    assert_eq!(run.scenarios[0].status, Status::Error);
    assert!(run.scenarios[0].message.contains("protocol violation"), "{:?}", run.scenarios[0]);
}

#[test]
fn an_invalid_scenario_file_is_invalid_and_the_run_goes_on() {
    let dir = scratch("invalid");
    let text = std::fs::read_to_string(&scenarios("701.23a-demonic")[0]).unwrap();
    std::fs::write(dir.join("a-broken.yaml"), text.replace("Demonic Tutor", "Demonic Tutr")).unwrap();
    std::fs::write(dir.join("b-good.yaml"), &text).unwrap();
    let files = collect_files(&[dir]).unwrap();
    let run = check(&files, &pool(), &opts(fake(""), 2000), |_, _, _| {});
    assert_eq!(run.scenarios[0].status, Status::Invalid);
    assert!(run.scenarios[0].message.contains("did you mean `Demonic Tutor`"), "{:?}", run.scenarios[0]);
    assert_eq!(run.scenarios[1].status, Status::Unsupported);
    assert_eq!(run.exit_code(), 2);
}

#[test]
fn the_baseline_gate_fails_on_unexpected_failures_and_unexpected_passes() {
    let entry = |status| Expected { status, reason: Some("known".into()), link: None };
    let mut b = Baseline::default();
    b.expected.insert("fails".into(), entry(Status::Fail));
    b.expected.insert("times-out".into(), entry(Status::Timeout));
    b.expected.insert("unsupported".into(), entry(Status::Unsupported));
    assert_eq!(b.gate("fails", Status::Fail), Gate::KnownFailure);
    assert_eq!(b.gate("fails", Status::Pass), Gate::UnexpectedPass, "an unexpected pass keeps the baseline tight");
    assert_eq!(b.gate("fails", Status::Error), Gate::UnexpectedFailure, "another way of failing is news");
    assert_eq!(b.gate("times-out", Status::Timeout), Gate::KnownFailure);
    assert_eq!(b.gate("unsupported", Status::Unsupported), Gate::Expected);
    assert_eq!(b.gate("unsupported", Status::Pass), Gate::UnexpectedPass);
    assert_eq!(b.gate("new", Status::Fail), Gate::UnexpectedFailure);
    assert_eq!(b.gate("new", Status::Pass), Gate::Expected);
    assert_eq!(b.gate("new", Status::Unsupported), Gate::Expected, "UNSUPPORTED needs no entry");
    assert_eq!(b.gate("fails", Status::Invalid), Gate::UnexpectedFailure, "an invalid file is never expected");

    // A run against an engine that answers everything `unsupported` except two errors.
    let files = tutor_scenarios();
    let mut o = opts(fake("error=demonic error=worldly"), 2000);
    o.baseline = b.clone();
    let run = check(&files, &pool(), &o, |_, _, _| {});
    assert_eq!(run.exit_code(), 1);
    let updated = b.updated(&run);
    assert_eq!(updated.expected.get("fails"), b.expected.get("fails"), "entries of scenarios that didn't run are kept");
    let demonic = updated.expected.iter().find(|(k, _)| k.contains("demonic")).expect("recorded").1;
    assert_eq!(demonic.status, Status::Error);
    assert!(demonic.reason.as_deref().is_some_and(|r| r.contains("not today")), "{demonic:?}");
    // Written and read back, the updated baseline makes the same run pass the gate.
    let path = scratch("baseline").join("baseline.yaml");
    report::write_atomic(&path, &updated.to_yaml()).unwrap();
    let reread = Baseline::load(&path).expect("the written baseline loads");
    assert_eq!(reread, updated);
    o.baseline = reread;
    let again = check(&files, &pool(), &o, |_, _, _| {});
    assert_eq!(again.exit_code(), 0, "{}", report::summary(&again));
    assert_eq!(again.scenarios.iter().filter(|s| s.gate == Gate::KnownFailure).count(), 2);
    // A malformed baseline is an error naming the line.
    std::fs::write(&path, "expected:\n  x: {status: BROKEN}\n").unwrap();
    let e = Baseline::load(&path).expect_err("BROKEN is not a status");
    assert!(matches!(e, BaselineError::Malformed { at: Some((2, _)), .. }), "{e}");
    assert!(e.to_string().contains("baseline.yaml:2"), "{e}");
}

#[test]
fn partitions_are_disjoint_and_cover_every_scenario() {
    let ids: Vec<String> = scenarios("").iter().map(|f| f.display().to_string()).collect();
    for n in 1..=5u64 {
        for id in &ids {
            let owners = (1..=n).filter(|&i| in_partition(id, (i, n))).count();
            assert_eq!(owners, 1, "{id} is in {owners} of {n} partitions");
        }
    }
    // Through `check`: the partitions' results together are the whole run, each scenario once.
    let files = scenarios("701.23");
    let mut seen = Vec::new();
    for i in 1..=3 {
        let mut o = opts(fake(""), 2000);
        o.partition = Some((i, 3));
        let run = check(&files, &pool(), &o, |_, _, _| {});
        assert_eq!(run.partition.as_deref(), Some(format!("{i}/3").as_str()));
        seen.extend(run.scenarios.into_iter().map(|s| s.id));
    }
    seen.sort();
    let mut all: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    all.sort();
    assert_eq!(seen, all);
    for bad in ["0/3", "4/3", "3", "a/b", "1/0"] {
        assert!(parse_partition(bad).is_err(), "{bad}");
    }
    assert_eq!(parse_partition("2/4"), Ok((2, 4)));
}

#[test]
fn a_report_that_cannot_be_written_leaves_nothing_behind() {
    let dir = scratch("atomic");
    let target = dir.join("report.json");
    report::write_atomic(&target, "first\n").unwrap();
    report::write_atomic(&target, "second\n").unwrap();
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "second\n", "replaced whole");
    let missing = dir.join("no-such-dir").join("report.json");
    assert!(report::write_atomic(&missing, "x").is_err());
    assert!(!missing.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "only the report, no temporary file");
}

/// Options for checking the reference engine in process (no engine command runs), validating
/// every message.
fn in_process_reference(mode: Mode) -> CheckOptions {
    let mut opts = opts(EngineCommand::shell("true"), 10_000);
    opts.mode = mode;
    opts.validate = true;
    opts
}

/// A scenario the oracle can't run itself (here a scripted decision that never comes up) is
/// refused before any engine runs, with the node it concerns: by line and column when it was read
/// from text, by its path when it was made in code (which has no text to number).
#[test]
fn a_refused_scenario_names_its_node_by_place_or_by_path() {
    use mtg_oracle::check::Checker;
    use mtg_oracle::scenario::{load_scenario, load_str};
    use mtg_oracle::serve::{Policy, ServeOptions};
    let pool = pool();
    let text = r#"title: a decision that never comes up
rules: ["701.23a"]
source: {kind: clause, reference: "CR 701.23a"}
players:
  - name: Alice
    library: [{card: Forest, id: forest}]
  - name: Bob
decisions:
  - search: {player: Alice, find: [forest]}
steps: []
expect: {outcomes: 1}
"#;
    let from_text = load_str("refused.yaml", text, &pool).expect("the scenario loads");
    let made_in_code = load_scenario("refused", from_text.scenario.clone(), &pool).expect("the scenario loads");
    assert!(made_in_code.source.is_empty());
    let opts = in_process_reference(Mode::Scripted);
    let mut checker = Checker::new(&opts);
    let serve = ServeOptions { seed: 0, policy: Policy::Minimal, mutant: None };
    let located = checker.check_reference(from_text, serve, &pool);
    assert_eq!(located.status, Status::Invalid, "{}", located.message);
    assert!(located.message.starts_with("refused.yaml:9:"), "{}", located.message);
    assert!(located.message.contains("this decision never came up"), "{}", located.message);
    let by_path = checker.check_reference(made_in_code, serve, &pool);
    assert_eq!(by_path.status, Status::Invalid, "{}", by_path.message);
    assert!(by_path.message.starts_with("refused: decisions[0]: this decision never came up"), "{}", by_path.message);
}

/// The checker behind the `engine_diff` fuzz target, over seeded random scenarios: the reference
/// engine (in process) is never judged wrong under any choice policy, and a mutant that skips the
/// shuffle after a search is caught on some of them.
#[test]
fn generated_scenarios_through_the_reference_engine_and_a_mutant() {
    use mtg_oracle::check::Checker;
    use mtg_oracle::fuzzing::generate::GenParams;
    use mtg_oracle::mutants::Mutant;
    use mtg_oracle::scenario::load_scenario;
    use mtg_oracle::serve::{Policy, ServeOptions};
    let pool = pool();
    let opts = in_process_reference(Mode::Scripted);
    let mut checker = Checker::new(&opts);
    let (mut passed, mut caught) = (0, 0);
    for seed in 0..60u64 {
        let Ok(loaded) = load_scenario(&format!("generated-{seed}"), GenParams::from_seed(seed).scenario(), &pool)
        else {
            continue;
        };
        for policy in [Policy::Minimal, Policy::Greedy, Policy::Random] {
            let serve = ServeOptions { seed, policy, mutant: None };
            let r = checker.check_reference(loaded.clone(), serve, &pool);
            assert!(
                matches!(r.status, Status::Pass | Status::Unsupported | Status::Invalid),
                "seed {seed}, {policy:?}: {:?} {}",
                r.status,
                r.message
            );
            passed += usize::from(r.status == Status::Pass);
        }
        let serve = ServeOptions { seed, policy: Policy::Minimal, mutant: Some(Mutant::NoShuffleAfterSearch) };
        caught += usize::from(checker.check_reference(loaded, serve, &pool).status == Status::Fail);
    }
    assert!(passed > 100, "only {passed} passes: the generator should make runnable scenarios");
    assert!(caught > 5, "the no-shuffle mutant was caught on only {caught} generated scenarios");
}

/// The reference engine's random choices (free mode, ten seeds per bundled scenario) are always
/// judged legal: the judge reads any legal run back from its log, whatever the engine chose and
/// in whichever draw a dredge happened.
#[test]
fn random_reference_runs_of_every_bundled_scenario_are_judged_legal() {
    use mtg_oracle::check::Checker;
    use mtg_oracle::scenario::load_file;
    use mtg_oracle::serve::{Policy, ServeOptions};
    let pool = pool();
    let opts = in_process_reference(Mode::Free);
    let mut checker = Checker::new(&opts);
    let files = collect_files(&[repo_root().join("scenarios")]).expect("scenarios/");
    let mut wrong = Vec::new();
    for f in &files {
        let mut loaded = load_file(f, &pool).expect("a bundled scenario loads");
        // A repository-relative id: the reference engine seeds each scenario from its id, so an
        // absolute path would make the random choices differ between checkouts (this machine and
        // CI's clone).
        if let Ok(relative) = f.strip_prefix(repo_root()) {
            loaded.id = relative.display().to_string();
        }
        for seed in 0..10u64 {
            let serve = ServeOptions { seed, policy: Policy::Random, mutant: None };
            let r = checker.check_reference(loaded.clone(), serve, &pool);
            if !matches!(r.status, Status::Pass | Status::Unsupported) {
                wrong.push(format!("{} (seed {seed}): {} {}", loaded.id, r.status, r.message));
                break;
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
