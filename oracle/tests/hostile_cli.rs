//! Hostile engines and inputs through the binary (issue 16): the misbehaviours that used to take
//! the whole process down — memory floods, a missing `kill`, bad numbers, a closed stdout — run
//! here under a memory limit (`ulimit -v`) and a time limit, and must end with every scenario's
//! status and the reports written. The in-process tests are in `tests/hostile.rs`.
//!
//! `HOSTILE_CLI_BIN=/path/to/mtg-oracle` runs them against another build (to see an old one fail).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::{Reports, repo};

fn bin() -> String {
    std::env::var("HOSTILE_CLI_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_mtg-oracle").to_string())
}

fn scratch(name: &str) -> PathBuf {
    common::scratch_dir("hostile-cli", name)
}

fn hostile(args: &str) -> String {
    format!("python3 {} {args}", repo().join("tests/hostile_engine.py").display())
}

/// The binary with `args`, under a virtual memory limit of `mib` MiB and a time limit of
/// `seconds` (`timeout` sends SIGKILL after it).
fn limited(mib: u64, seconds: u64, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("ulimit -v {} && exec timeout -s KILL {seconds} \"$0\" \"$@\"", mib * 1024))
        .arg(bin())
        .args(args)
        .current_dir(repo())
        .env("CI", "true")
        .stdin(Stdio::null())
        .output()
        .expect("runs")
}

fn text(o: &Output) -> String {
    format!(
        "status {:?}\nstdout:\n{}\nstderr:\n{}",
        o.status,
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn statuses(report: &Path) -> Vec<String> {
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(report).expect("the report was written")).expect("JSON");
    json["scenarios"].as_array().expect("scenarios").iter().map(|s| s["status"].as_str().unwrap().to_string()).collect()
}

fn two_scenarios(dir: &Path) -> PathBuf {
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    for name in ["701.23a-demonic-tutor-finds-bottom-card.yaml", "701.23a-diabolic-tutor-to-hand.yaml"] {
        let from = repo().join("scenarios/701.23-search").join(name);
        std::fs::copy(&from, folder.join(name)).unwrap_or_else(|e| panic!("{}: {e}", from.display()));
    }
    folder
}

// 1. Gigabytes on stderr with no newline: read in bounded pieces; the run ends with both statuses.
#[test]
fn a_stderr_flood_without_newlines_costs_no_memory() {
    let dir = scratch("stderr-flood");
    let folder = two_scenarios(&dir);
    let json = dir.join("r.json");
    let engine = hostile("stderr-flood=demonic size=2000000000");
    let o =
        limited(700, 120, &["check", "--engine", &engine, "--json", json.to_str().unwrap(), folder.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(statuses(&json), ["UNSUPPORTED", "UNSUPPORTED"]);
}

// 2. Blank lines without end: dropped as read, a bounded queue, the deadline still holds.
#[test]
fn a_blank_line_flood_times_out_in_bounded_memory() {
    let dir = scratch("blank-flood");
    let folder = two_scenarios(&dir);
    let json = dir.join("r.json");
    let started = Instant::now();
    let o = limited(
        700,
        60,
        &[
            "check",
            "--engine",
            &hostile("blank-flood=demonic"),
            "--timeout",
            "3",
            "--json",
            json.to_str().unwrap(),
            folder.to_str().unwrap(),
        ],
    );
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert_eq!(statuses(&json), ["TIMEOUT", "UNSUPPORTED"]);
    assert!(started.elapsed() < Duration::from_secs(30), "the deadline held: {:?}", started.elapsed());
}

// 4. Many huge answers: each text is cut as it arrives, so memory stays bounded and the reports
// are small.
#[test]
fn many_huge_answers_are_cut_as_they_arrive() {
    let dir = scratch("huge-answers");
    let folder = dir.join("scenarios");
    std::fs::create_dir_all(&folder).unwrap();
    let source =
        std::fs::read_to_string(repo().join("scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml"))
            .unwrap();
    for i in 0..24 {
        std::fs::write(folder.join(format!("s{i:02}.yaml")), &source).unwrap();
    }
    let reports = Reports::in_dir(&dir);
    let (json, junit, md) = (&reports.json, &reports.junit, &reports.markdown);
    let engine = hostile("long-text=yaml size=30000000");
    let flags = reports.flags();
    let mut args = vec!["check", "--engine", &engine];
    args.extend(flags.iter().map(String::as_str));
    args.push(folder.to_str().unwrap());
    let o = limited(1200, 120, &args);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    assert_eq!(statuses(json).len(), 24);
    for report in [json, junit, md] {
        let size = std::fs::metadata(report).unwrap().len();
        assert!(size < 1_000_000, "{}: {size} bytes", report.display());
    }
    assert!(o.stdout.len() < 1_000_000);
}

// 9. A tutor over 10,000 cards: the enumeration stops at its memory bound; the scenario is
// INVALID (too large), for `run` and for `check --mode free`, and nothing aborts.
#[test]
fn a_scenario_too_large_to_enumerate_is_invalid_not_an_abort() {
    let dir = scratch("too-large");
    let mut lines = vec![
        "title: Demonic Tutor over ten thousand Forests".to_string(),
        "rules: [\"701.23a\"]".into(),
        "source: {kind: clause, reference: \"CR 701.23a\"}".into(),
        "players:".into(),
        "  - name: Alice".into(),
        "    hand: [Demonic Tutor]".into(),
        "    library:".into(),
    ];
    lines.extend(std::iter::repeat_n("      - Forest".to_string(), 10_000));
    lines.extend(
        [
            "  - name: Bob",
            "steps:",
            "  - cast: {player: Alice, card: demonic-tutor}",
            "  - resolve",
            "expect:",
            "  always:",
            "    - count: {zone: Alice.hand, count: 1}",
        ]
        .map(String::from),
    );
    let file = dir.join("big.yaml");
    std::fs::write(&file, lines.join("\n") + "\n").unwrap();
    let o = limited(1500, 120, &["run", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(String::from_utf8_lossy(&o.stdout).contains("too large to enumerate"), "{}", text(&o));
    let json = dir.join("r.json");
    let o = limited(
        1500,
        120,
        &["check", "--seed", "1", "--mode", "free", "--json", json.to_str().unwrap(), file.to_str().unwrap()],
    );
    assert!(matches!(o.status.code(), Some(0..=2)), "{}", text(&o));
    assert_eq!(statuses(&json).len(), 1, "{}", text(&o));
}

// 8. A link to /dev/zero named like a scenario: refused, not read until memory runs out.
#[test]
fn a_link_to_an_endless_device_is_refused() {
    let dir = scratch("dev-zero");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.yaml")).unwrap();
    std::fs::copy(
        repo().join("scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml"),
        dir.join("ok.yaml"),
    )
    .unwrap();
    let o = limited(700, 60, &["run", dir.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("zero.yaml:1:1: can't read the file: not a regular file"), "{}", text(&o));
    assert!(out.contains("PASS") && out.contains("ok.yaml"), "{}", text(&o));
}

// 11. Without `kill` on PATH a timed-out engine is still killed (a system call, not a program),
// with whatever it started.
#[test]
fn a_timed_out_engine_is_killed_without_a_kill_program() {
    let dir = scratch("no-kill");
    let folder = two_scenarios(&dir);
    let bin_dir = dir.join("bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    for program in ["sh", "python3"] {
        let found =
            ["/usr/bin", "/bin", "/usr/local/bin"].iter().map(|d| Path::new(d).join(program)).find(|p| p.exists());
        std::os::unix::fs::symlink(found.expect("installed"), bin_dir.join(program)).unwrap();
    }
    let pidfile = dir.join("engine.pid");
    // `; :` keeps sh as the engine's process, so killing sh alone would leave Python running.
    let engine = format!("{}; :", hostile(&format!("hang=demonic pidfile={}", pidfile.display())));
    let o = Command::new(bin())
        .args(["check", "--engine", &engine, "--timeout", "2", folder.to_str().unwrap()])
        .env("PATH", &bin_dir)
        .env("CI", "true")
        .output()
        .expect("runs");
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    let pid = std::fs::read_to_string(&pidfile).expect("the engine wrote its pid");
    let alive = |pid: &str| {
        std::fs::read_to_string(format!("/proc/{}/stat", pid.trim()))
            .is_ok_and(|s| s.rsplit_once(')').is_some_and(|(_, r)| !r.trim_start().starts_with('Z')))
    };
    let until = Instant::now() + Duration::from_secs(2);
    while alive(&pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survived = alive(&pid);
    if survived {
        let _ = Command::new("kill").args(["-9", pid.trim()]).status();
    }
    assert!(!survived, "the timed-out engine {pid} survived");
}

// 13. Numbers are checked at the command line; no command panics on a closed stdout.
#[test]
fn bad_numbers_are_refused_and_a_closed_stdout_is_no_panic() {
    for (command, value) in [
        ("check", "1e20"),
        ("check", "1e19"),
        ("check", "inf"),
        ("check", "nan"),
        ("check", "-1"),
        ("check", "0"),
        ("mutants", "inf"),
        ("mutants", "1e20"),
    ] {
        let timeout = format!("--timeout={value}");
        let o = limited(
            2000,
            60,
            &[command, &timeout, "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml"],
        );
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{command} --timeout {value}: {}", text(&o));
        assert!(!err.contains("panicked") && err.contains("--timeout"), "{command} --timeout {value}: {err}");
    }
    for value in ["0", "-5", "x"] {
        let o = limited(2000, 60, &["check", "--max-line-bytes", value]);
        assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    }
    for args in [
        &["schema", "protocol"][..],
        &["mutants", "--list"],
        &["explain", "scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml"],
    ] {
        let mut child = Command::new(bin())
            .args(args)
            .current_dir(repo())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("runs");
        drop(child.stdout.take()); // closed before anything is written
        let o = child.wait_with_output().expect("ends");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(!err.contains("panicked") && o.status.code() != Some(101), "{args:?}: {err}");
    }
}

// 15. A folder that can't be listed is one INVALID entry naming it; the run goes on. (As root,
// which reads any folder, the binary runs as `nobody`.)
#[test]
fn an_unreadable_folder_is_named_and_the_run_goes_on() {
    let dir = scratch("unreadable");
    std::fs::create_dir_all(dir.join("locked")).unwrap();
    std::fs::copy(
        repo().join("scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml"),
        dir.join("ok.yaml"),
    )
    .unwrap();
    std::fs::copy(
        repo().join("scenarios/701.23-search/701.23a-diabolic-tutor-to-hand.yaml"),
        dir.join("locked/hidden.yaml"),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    for (path, mode) in [(dir.clone(), 0o755), (dir.join("ok.yaml"), 0o644), (dir.join("locked"), 0o000)] {
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode)).unwrap();
    }
    let root = running_as_root();
    let mut cmd = if root {
        // The binary must be reachable by `nobody`: copy it to the scratch folder.
        let copy = dir.join("mtg-oracle");
        std::fs::copy(bin(), &copy).unwrap();
        std::fs::set_permissions(&copy, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"]).arg(copy);
        c
    } else {
        Command::new(bin())
    };
    let o = cmd.args(["run"]).arg(&dir).current_dir("/").output().expect("runs");
    std::fs::set_permissions(dir.join("locked"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o));
    assert!(out.contains("locked:1:1: can't list the folder: Permission denied"), "{}", text(&o));
    assert!(out.contains("PASS") && out.contains("ok.yaml"), "{}", text(&o));
}

/// True when this test runs as root (which reads any folder whatever its mode).
fn running_as_root() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("Uid:")).map(|l| l.split_whitespace().nth(1) == Some("0")))
        .unwrap_or(false)
}
