//! Hostile engines and hostile inputs (issue 16), in process: each misbehaviour costs at most its
//! own scenario, every text an engine provides is cut to the limit, reports never write through
//! a link or a device, the scenario walk and the file reader can't be made to loop or block, and
//! the depth pre-scan rejects deep YAML in linear time. The engine is `tests/hostile_engine.py`;
//! every flood is bounded in size, and every wait in time. (The tests that need a memory limit
//! or another PATH run the binary: `oracle/tests/hostile_cli.rs`.)

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mtg_oracle::check::baseline::{Baseline, BaselineError};
use mtg_oracle::check::engine::{EngineCommand, Limits};
use mtg_oracle::check::{CheckOptions, CheckRun, ScenarioResult, Status, check, report};
use mtg_oracle::scenario::{collect_files, load_file, load_str};
use mtg_oracle_tests::{pool, repo_root};

fn hostile(args: &str) -> EngineCommand {
    EngineCommand::shell(&format!("python3 {} {args}", repo_root().join("tests/hostile_engine.py").display()))
}

fn scenario(part: &str) -> PathBuf {
    mtg_oracle_tests::bundled_files(part).into_iter().next().expect("the scenario exists")
}

/// Three bundled scenarios, in this order.
fn three() -> Vec<PathBuf> {
    vec![scenario("701.23a-demonic"), scenario("701.23a-diabolic"), scenario("701.23a-enlightened")]
}

fn opts(engine: EngineCommand, timeout_ms: u64, limits: Limits) -> CheckOptions {
    mtg_oracle_tests::check_options(engine, timeout_ms, limits)
}

fn small_limits() -> Limits {
    Limits { max_text_chars: 100, ..Limits::default() }
}

fn run(files: &[PathBuf], engine: EngineCommand, limits: Limits) -> CheckRun {
    check(files, &pool(), &opts(engine, 5000, limits), |_, _, _| {})
}

#[track_caller]
fn result<'a>(run: &'a CheckRun, part: &str) -> &'a ScenarioResult {
    mtg_oracle_tests::result_of(run, part)
}

fn scratch(name: &str) -> PathBuf {
    mtg_oracle_tests::scratch_dir("hostile", name)
}

/// Runs `f` on another thread and fails if it takes longer than `limit` (a blocked read would
/// otherwise hang the test).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit).unwrap_or_else(|_| panic!("did not finish within {limit:?}"))
}

/// True while process `pid` exists and is not a zombie.
fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(')').map(|(_, rest)| !rest.trim_start().starts_with('Z')))
        .unwrap_or(false)
}

fn wait_for_file(path: &Path, limit: Duration) -> String {
    let until = Instant::now() + limit;
    while Instant::now() < until {
        if let Ok(text) = std::fs::read_to_string(path) {
            return text;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("{} never appeared", path.display());
}

// 1. A stderr line with no end is read in bounded pieces: the scenario still gets its answer and
// the line is kept cut, with a note. (The memory bound itself is tested through the binary under
// a memory limit: hostile_cli.rs.)
#[test]
fn stderr_without_a_newline_is_read_in_bounded_pieces_and_cut() {
    let run = run(&three()[..2], hostile("stderr-flood=demonic error=diabolic size=20000000"), small_limits());
    assert_eq!(result(&run, "demonic").status, Status::Unsupported, "{:?}", run.scenarios[0]);
    // The next scenario's report shows its own stderr only, not the flood.
    let error = result(&run, "diabolic");
    assert_eq!(error.status, Status::Error);
    assert!(error.stderr_tail.iter().all(|l| l.chars().count() < 200), "{:?}", error.stderr_tail);
}

// 3. A byte that is not UTF-8 on stderr is no reason to stop reading it: the engine keeps its
// pipe and answers; the line is shown with U+FFFD.
#[test]
fn bytes_that_are_not_utf8_on_stderr_are_read_lossily_and_the_engine_goes_on() {
    let run = run(&three()[..2], hostile("stderr-binary=demonic error=diabolic"), small_limits());
    let first = result(&run, "demonic");
    assert_eq!(first.status, Status::Unsupported, "the engine was not killed by SIGPIPE: {first:?}");
    let second = result(&run, "diabolic");
    assert_eq!(second.status, Status::Error, "{second:?}");
    assert_eq!(run.scenarios.iter().filter(|s| s.status == Status::Error).count(), 1);
}

// 4. Every text an engine provides is cut, in memory and so in every report.
#[test]
fn every_engine_text_is_cut_to_the_limit_in_results_and_reports() {
    let files = three();
    let engine = hostile("long-text=demonic long-error=diabolic name-size=100000 size=1000000");
    let run = run(&files, engine, small_limits());
    let long = result(&run, "demonic");
    assert_eq!(long.status, Status::Unsupported);
    assert!(long.message.len() < 200 && long.message.contains("[cut: 999900 more bytes]"), "{}", long.message);
    let link = long.link.as_deref().expect("a link");
    assert!(link.len() < 200 && link.contains("[cut:"), "{link}");
    let error = result(&run, "diabolic");
    assert_eq!(error.status, Status::Error);
    assert!(error.message.len() < 200 && error.message.contains("[cut:"), "{}", error.message);
    let name = &run.engine.as_ref().expect("hello").name;
    assert!(name.len() < 300 && name.contains("[cut:"), "the engine's name is cut too: {} bytes", name.len());
    let dir = scratch("cut");
    for (file, text) in
        [("r.json", report::json(&run)), ("r.xml", report::junit(&run)), ("r.md", report::markdown(&run))]
    {
        report::write_atomic(&dir.join(file), &text).unwrap();
        let written = std::fs::metadata(dir.join(file)).unwrap().len();
        assert!(written < 50_000, "{file} holds no engine text whole: {written} bytes");
    }
    assert!(report::summary(&run).len() < 2000);
}

// 5. A second answer belongs to the scenario that gave it; the next scenario starts clean.
#[test]
fn output_after_an_answer_is_that_scenarios_error_and_the_next_starts_clean() {
    let run = run(&three(), hostile("duplicate=demonic error=enlightened"), small_limits());
    let duplicate = result(&run, "demonic");
    assert_eq!(duplicate.status, Status::Error, "{duplicate:?}");
    assert!(duplicate.message.contains("after its answer"), "{}", duplicate.message);
    let next = result(&run, "diabolic");
    assert_eq!(next.status, Status::Unsupported, "the next scenario is not blamed: {next:?}");
    // The scenario after that runs on the restarted engine too.
    assert_eq!(result(&run, "enlightened").status, Status::Error);
    assert!(result(&run, "enlightened").message.contains("hostile engine: an error"));
}

// 11. A grandchild that left the engine's process group with setsid() is found and killed with
// the engine; its stderr doesn't reach the next scenario's report.
#[test]
fn a_grandchild_that_escaped_the_process_group_is_killed_with_the_engine() {
    let dir = scratch("escape");
    let pidfile = dir.join("grandchild.pid");
    let engine = hostile(&format!("escape=demonic error=diabolic pidfile={}", pidfile.display()));
    let run = check(&three()[..2], &pool(), &opts(engine, 1500, small_limits()), |_, _, _| {});
    assert_eq!(result(&run, "demonic").status, Status::Timeout);
    let error = result(&run, "diabolic");
    assert!(error.stderr_tail.iter().all(|l| !l.contains("escaped grandchild")), "{:?}", error.stderr_tail);
    let pid: u32 = wait_for_file(&pidfile, Duration::from_secs(5)).trim().parse().expect("a pid");
    let until = Instant::now() + Duration::from_secs(2);
    while alive(pid) && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    let survived = alive(pid);
    if survived {
        let _ = std::process::Command::new("kill").args(["-9", &pid.to_string()]).status();
    }
    assert!(!survived, "the escaped grandchild {pid} is still running");
}

// 14. Engine text reaches the terminal and the Markdown escaped: no forged lines, no escape
// sequences, no broken table.
#[test]
fn engine_text_and_file_names_are_escaped_on_the_terminal_and_in_markdown() {
    let dir = scratch("escaping");
    let forged = dir.join("a|b [x] (y).yaml");
    std::fs::copy(scenario("701.23a-demonic"), &forged).unwrap();
    let run = run(&[forged], hostile("forge=escaping"), Limits::default());
    let r = &run.scenarios[0];
    assert_eq!(r.status, Status::Error);
    let line = report::line(r);
    assert!(!line.contains('\x1b') && !line.contains('\x07'), "{line:?}");
    assert!(line.lines().all(|l| !l.starts_with("PASS") && !l.contains("passed, 0 failed") || l.starts_with("  ")));
    assert_eq!(line.lines().count(), 2, "status line and message line only: {line:?}");
    let md = report::markdown(&run);
    assert!(!md.contains('\x1b'), "{md:?}");
    let rows: Vec<&str> = md.lines().filter(|l| l.starts_with('|')).collect();
    let cells = |row: &str| row.replace("\\|", "").matches('|').count();
    assert!(rows.len() >= 3, "{md}");
    assert!(rows.iter().all(|r| cells(r) == cells(rows[0])), "every row has the header's cells:\n{md}");
    assert!(md.lines().all(|l| !l.starts_with("9 passed")), "{md}");
}

// 6. Reports never write through a symbolic link or over a special file, and a planted link at a
// temporary name can't redirect them.
#[test]
fn reports_refuse_links_and_special_files_and_ignore_planted_temporary_names() {
    let dir = scratch("links");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "keep me\n").unwrap();
    let link = dir.join("link.json");
    std::os::unix::fs::symlink(&victim, &link).unwrap();
    let e = report::write_atomic(&link, "report\n").expect_err("a link is refused");
    assert!(e.to_string().contains("symbolic link"), "{e}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link is left as it was");
    assert!(mtg_oracle::coverage::write_whole(&link, "report\n").is_err(), "coverage's writer too");
    let fifo = dir.join("fifo.xml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let e = within(Duration::from_secs(10), move || report::write_atomic(&fifo, "x").map_err(|e| e.to_string()));
    assert!(e.is_err_and(|e| e.contains("special file")));
    // The name the old writer used for its temporary file, planted as a link to the victim.
    let target = dir.join("report.json");
    let pid = std::process::id();
    std::os::unix::fs::symlink(&victim, dir.join(format!(".report.json.tmp-{pid}"))).unwrap();
    report::write_atomic(&target, "report\n").unwrap();
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me\n", "the victim is untouched");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "report\n");
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 5, "victim, link, fifo, planted link and report, no temporary file: {names:?}");
}

// 7. and 15. The walk doesn't follow folder links (no cycle, no repeats), and a folder it can't
// list is one entry naming it, which fails to load with the reason.
#[test]
fn the_scenario_walk_does_not_follow_folder_links() {
    let dir = scratch("walk");
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::copy(scenario("701.23a-demonic"), dir.join("a.yaml")).unwrap();
    std::fs::copy(scenario("701.23a-diabolic"), dir.join("sub/b.yaml")).unwrap();
    std::os::unix::fs::symlink(".", dir.join("self")).unwrap();
    std::os::unix::fs::symlink("..", dir.join("sub/up")).unwrap();
    let root = dir.clone();
    let files = within(Duration::from_secs(20), move || collect_files(&[root]).unwrap());
    assert_eq!(files, vec![dir.join("a.yaml"), dir.join("sub/b.yaml")]);
}

// 8. Only regular files are read, and not past the size limit: a FIFO doesn't block, a huge file
// is refused with the reason.
#[test]
fn only_regular_files_of_bounded_size_are_read() {
    let dir = scratch("files");
    let fifo = dir.join("x.yaml");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let e = within(Duration::from_secs(10), move || load_file(&fifo, &pool()).map(|_| ()).unwrap_err().to_string());
    assert!(e.contains("not a regular file"), "{e}");
    let big = dir.join("big.yaml");
    let size = mtg_oracle::scenario::MAX_FILE_BYTES + 1;
    std::fs::File::create(&big).unwrap().set_len(size).unwrap();
    let e = load_file(&big, &pool()).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains(&format!("files over {} bytes are not read", size - 1)), "{e}");
    let folder = dir.join("folder.yaml");
    std::fs::create_dir(&folder).unwrap();
    let e = load_file(&folder, &pool()).map(|_| ()).unwrap_err().to_string();
    assert!(e.contains("a folder"), "{e}");
}

// 10. Deep nesting is refused by a linear pre-scan, before the YAML parser, for scenarios and
// baselines alike.
#[test]
fn deeply_nested_yaml_is_refused_before_parsing() {
    for deep in ["[".repeat(200_000), "- ".repeat(100_000) + "x\n", format!("a: {}", "{b: ".repeat(100_000))] {
        let started = Instant::now();
        let e = load_str("deep.yaml", &deep, &pool()).map(|_| ()).unwrap_err();
        assert!(e.message.contains("nested more than 128 levels deep"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
        let dir = scratch("deep-baseline");
        std::fs::write(dir.join("baseline.yaml"), &deep).unwrap();
        let started = Instant::now();
        let e = Baseline::load(&dir.join("baseline.yaml")).unwrap_err();
        assert!(matches!(e, BaselineError::TooDeep { depth: 128, .. }), "{e}");
        assert!(e.to_string().contains("nested more than 128 levels deep"), "{e}");
        assert!(started.elapsed() < Duration::from_secs(2), "took {:?}", started.elapsed());
    }
    // Brackets in quotes and comments are not nesting.
    let text = std::fs::read_to_string(scenario("701.23a-demonic")).unwrap();
    let noisy = format!("# {}\n{text}", "[".repeat(100)).replace("title: ", &format!("title: '{}' ", "[".repeat(100)));
    assert!(mtg_oracle::scenario::too_deep(&noisy, 64).is_none());
}

// 15. A UTF-8 byte-order mark is not a second document.
#[test]
fn a_byte_order_mark_is_ignored() {
    let text = std::fs::read_to_string(scenario("701.23a-demonic")).unwrap();
    let dir = scratch("bom");
    std::fs::write(dir.join("bom.yaml"), format!("\u{feff}{text}")).unwrap();
    let loaded = load_file(&dir.join("bom.yaml"), &pool());
    assert!(loaded.is_ok(), "{:?}", loaded.err());
}

// 15. `serve` reads lines up to a limit: a longer line is answered with an error and the next
// line is served.
#[test]
fn serve_refuses_an_overlong_line_and_goes_on() {
    let input = format!("{}\n{{\"type\":\"start\",\"protocol\":2}}\n", "x".repeat(10_000));
    let mut output = Vec::new();
    let opts = mtg_oracle::serve::ServeOptions::default();
    mtg_oracle::serve::serve_limited(input.as_bytes(), &mut output, &pool(), opts, 1000).unwrap();
    let text = String::from_utf8(output).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].contains("longer than 1000 bytes"), "{}", lines[0]);
    assert!(lines[1].contains("\"hello\""), "{}", lines[1]);
}

// 12. The corpus revision is read from the repository's files: a `core.fsmonitor` program in an
// untrusted `.git/config` is never run, and `-dirty` still says when a scenario file changed.
#[test]
fn the_corpus_revision_runs_nothing_from_the_repository() {
    let dir = scratch("git");
    let git = |args: &[&str]| {
        let out = std::process::Command::new("git")
            .args(["-c", "user.name=t", "-c", "user.email=t@example.org", "-c", "core.fsmonitor=false"])
            .args(args)
            .current_dir(&dir)
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    git(&["init", "-q"]);
    std::fs::copy(scenario("701.23a-demonic"), dir.join("a.yaml")).unwrap();
    std::fs::copy(scenario("701.23a-diabolic"), dir.join("b.yaml")).unwrap();
    git(&["add", "."]);
    git(&["commit", "-qm", "scenarios"]);
    git(&["pack-refs", "--all"]);
    let head = git(&["rev-parse", "HEAD"]);
    let marker = dir.join("fsmonitor-ran");
    let hook = dir.join("hook.sh");
    std::fs::write(&hook, format!("#!/bin/sh\ntouch '{}'\n", marker.display())).unwrap();
    std::os::unix::fs::PermissionsExt::set_mode(&mut std::fs::metadata(&hook).unwrap().permissions(), 0o755);
    std::fs::set_permissions(&hook, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let config = std::fs::read_to_string(dir.join(".git/config")).unwrap();
    std::fs::write(dir.join(".git/config"), format!("{config}[core]\n\tfsmonitor = {}\n", hook.display())).unwrap();
    let files = [dir.join("a.yaml"), dir.join("b.yaml")];
    let corpus = report::Corpus::of(files.iter().map(PathBuf::as_path));
    assert_eq!(corpus.revision.as_deref(), Some(head.as_str()));
    assert!(!marker.exists(), "the repository's fsmonitor program was run");
    // A change that keeps the size and puts the modification time back is still seen: the
    // index's stat data is trusted only when every field of it matches (the change time doesn't).
    let b = dir.join("b.yaml");
    let (original, modified) = (std::fs::read(&b).unwrap(), std::fs::metadata(&b).unwrap().modified().unwrap());
    let mut same_size = original.clone();
    let at = same_size.iter().position(u8::is_ascii_lowercase).unwrap();
    same_size[at] = same_size[at].to_ascii_uppercase();
    std::fs::write(&b, &same_size).unwrap();
    std::fs::File::options().write(true).open(&b).unwrap().set_modified(modified).unwrap();
    let corpus = report::Corpus::of(files.iter().map(PathBuf::as_path));
    assert_eq!(corpus.revision, Some(format!("{head}-dirty")), "a same-size change with its mtime put back");
    std::fs::write(&b, &original).unwrap();
    let corpus = report::Corpus::of(files.iter().map(PathBuf::as_path));
    assert_eq!(corpus.revision.as_deref(), Some(head.as_str()), "the content is the index's again");
    std::fs::write(dir.join("b.yaml"), "changed\n").unwrap();
    let corpus = report::Corpus::of(files.iter().map(PathBuf::as_path));
    assert_eq!(corpus.revision, Some(format!("{head}-dirty")));
    assert!(!marker.exists(), "the repository's fsmonitor program was run");
}
