//! Malformed scenarios are rejected with an error that names the file, the line and column of the
//! offending node, and words a person can act on (the unknown name, a did-you-mean, the legal
//! options).
//!
//! The cases are data, as in toml-test's `invalid/`: every file of `tests/invalid/` is one kind of
//! mistake, and its header comment says where the error must be and what its message must say
//! (the format is in `tests/invalid/README.md`). [`every_invalid_file_fails_as_its_header_says`]
//! runs them all. The few cases that can't be one such file stay as code at the end of this
//! file, each saying why.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

use mtg_oracle::cards::CardPool;
use mtg_oracle::runner::{RunResult, run_loaded};
use mtg_oracle::scenario::{LoadError, Loaded, load_file, load_str};
use mtg_oracle_tests::{pool, repo_root, scratch_dir};

// ---------------------------------------------------------------------------------------------
// The data-driven cases.

/// When a case's error must come.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Stage {
    /// The file must not load.
    Load,
    /// The file must load, and running it must find it invalid (a scripted step or decision the
    /// rules refuse).
    Run,
}

/// What a case's header promises about its error.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Expected {
    stage: Stage,
    line: usize,
    column: usize,
    /// Every one must be part of the message.
    contains: Vec<String>,
    /// None may be part of the message.
    lacks: Vec<String>,
}

/// Reads the header of a case: its leading `#` lines, which are a description, a line holding only
/// `#`, then one `# key: value` line per expectation (keys `fails`, `at`, `message`,
/// `not-in-message`). Anything else after the `#` line is refused, so that a misspelt key can't
/// silently weaken a case.
fn parse_header(text: &str) -> Result<Expected, String> {
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    let Some(separator) = header.iter().position(|l| l.trim_end() == "#") else {
        return Err("no header: the file must start with `#` comment lines: a description, a line `#`, then \
                    `# fails:`, `# at:` and `# message:` lines"
            .into());
    };
    if !header[..separator].iter().any(|l| !l.trim_start_matches('#').trim().is_empty()) {
        return Err("the header has no description before its `#` line".into());
    }
    let (mut stage, mut at, mut contains, mut lacks) = (None, None, Vec::new(), Vec::new());
    for (i, line) in header.iter().enumerate().skip(separator + 1) {
        let n = i + 1;
        let Some((key, value)) = line.strip_prefix("# ").and_then(|l| l.split_once(": ")) else {
            return Err(format!("header line {n} is not `# key: value`: {line:?}"));
        };
        match key {
            "fails" if stage.is_none() => {
                stage = Some(match value {
                    "load" => Stage::Load,
                    "run" => Stage::Run,
                    other => return Err(format!("header line {n}: `fails` is `load` or `run`, not {other:?}")),
                })
            }
            "at" if at.is_none() => at = Some(parse_position(value).map_err(|e| format!("header line {n}: {e}"))?),
            "message" if !value.trim().is_empty() => contains.push(value.to_string()),
            "not-in-message" if !value.trim().is_empty() => lacks.push(value.to_string()),
            "fails" | "at" => return Err(format!("header line {n}: a second `{key}`")),
            "message" | "not-in-message" => return Err(format!("header line {n}: an empty `{key}`")),
            other => {
                return Err(format!("header line {n}: unknown key `{other}` (fails, at, message, not-in-message)"));
            }
        }
    }
    let stage = stage.ok_or("the header has no `# fails: load` or `# fails: run` line")?;
    let (line, column) = at.ok_or("the header has no `# at: LINE:COLUMN` line")?;
    if contains.is_empty() {
        return Err("the header has no `# message:` line".into());
    }
    Ok(Expected { stage, line, column, contains, lacks })
}

/// `LINE:COLUMN`, both from 1.
fn parse_position(text: &str) -> Result<(usize, usize), String> {
    let number = |s: &str| s.parse::<usize>().ok().filter(|&n| n >= 1);
    text.split_once(':')
        .and_then(|(line, column)| Some((number(line)?, number(column)?)))
        .ok_or_else(|| format!("`at` is LINE:COLUMN, both from 1, not {text:?}"))
}

/// Checks that `e` is located in `file` at the expected place, that its Display says so, and what
/// its message says.
fn check_error(e: &LoadError, file: &str, want: &Expected) -> Result<(), String> {
    let mut problems = Vec::new();
    if e.file != file {
        problems.push(format!("the error names the file {:?}, not {file:?}", e.file));
    }
    if (e.line, e.column) != (want.line, want.column) {
        problems.push(format!("the error is at {}:{}, not {}:{}", e.line, e.column, want.line, want.column));
    }
    if !e.to_string().starts_with(&format!("{}:{}:{}: ", e.file, e.line, e.column)) {
        problems.push("its Display is not `file:line:column: message`".into());
    }
    problems.extend(
        want.contains.iter().filter(|w| !e.message.contains(w.as_str())).map(|w| format!("the message lacks {w:?}")),
    );
    problems
        .extend(want.lacks.iter().filter(|w| e.message.contains(w.as_str())).map(|w| format!("the message has {w:?}")));
    if problems.is_empty() { Ok(()) } else { Err(format!("{}; the error: {e}", problems.join("; "))) }
}

/// Runs one case file: it must fail at the stage, place and with the words its header gives.
fn check_case(path: &Path, pool: &CardPool) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("can't read it: {e}"))?;
    let want = parse_header(&text)?;
    let id = path.display().to_string();
    let error = match (want.stage, load_file(path, pool)) {
        (Stage::Load, Err(e)) => e,
        (Stage::Load, Ok(_)) => return Err("it loads, but its header says `fails: load`".into()),
        (Stage::Run, Err(e)) => return Err(format!("it should load and fail when run, but it doesn't load: {e}")),
        (Stage::Run, Ok(loaded)) => match run_loaded(loaded) {
            RunResult::Invalid(e) => e,
            RunResult::Pass { .. } => return Err("it loads and passes, but its header says `fails: run`".into()),
            RunResult::Fail { failures, .. } => {
                let failures = failures.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ");
                return Err(format!("it should be invalid when run, but it only failed expectations: {failures}"));
            }
        },
    };
    check_error(&error, &id, &want)
}

/// The case files of `dir`: its `.yaml` files, sorted. An empty folder or a file of another kind
/// (a `.yml`, say, which would otherwise never run) is an error; `README.md` is the only other file
/// allowed.
fn case_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: can't list it: {e}", dir.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().is_some_and(|x| x == "yaml") && path.is_file() {
            files.push(path);
        } else if path.file_name().is_none_or(|n| n != "README.md") {
            return Err(format!("{}: not a case (cases are `.yaml` files)", path.display()));
        }
    }
    if files.is_empty() {
        return Err(format!("{}: no cases in it", dir.display()));
    }
    files.sort();
    Ok(files)
}

/// Every case of `dir`, as `file: problem` lines; empty when all pass.
fn failures_in(dir: &Path, pool: &CardPool) -> Vec<String> {
    match case_files(dir) {
        Err(e) => vec![e],
        Ok(files) => {
            files.iter().filter_map(|f| check_case(f, pool).err().map(|e| format!("{}: {e}", f.display()))).collect()
        }
    }
}

#[test]
fn every_invalid_file_fails_as_its_header_says() {
    let failures = failures_in(&repo_root().join("tests/invalid"), &pool());
    assert!(failures.is_empty(), "{} invalid case(s) failed:\n{}", failures.len(), failures.join("\n"));
}

// The harness itself: a case that doesn't fail, or fails elsewhere, or a garbled header, or an
// empty folder, is reported.

/// A valid scenario (the Splinter example), for the harness's own tests.
fn valid_case(header: &str) -> String {
    format!("{header}{SPLINTER}")
}

#[test]
fn the_harness_refuses_garbled_headers() {
    let good = "# d\n#\n# fails: load\n# at: 3:4\n# message: x\n";
    let want = Expected { stage: Stage::Load, line: 3, column: 4, contains: vec!["x".into()], lacks: vec![] };
    assert_eq!(parse_header(good), Ok(want));
    for (header, why) in [
        ("", "no header"),
        ("title: x\n", "no header"),
        ("# d\n# fails: load\n# at: 3:4\n# message: x\n", "no header"),
        ("#\n# fails: load\n# at: 3:4\n# message: x\n", "no description"),
        ("# d\n#\n# at: 3:4\n# message: x\n", "no `# fails"),
        ("# d\n#\n# fails: loads\n# at: 3:4\n# message: x\n", "`load` or `run`"),
        ("# d\n#\n# fails: load\n# message: x\n", "no `# at"),
        ("# d\n#\n# fails: load\n# at: 3\n# message: x\n", "LINE:COLUMN"),
        ("# d\n#\n# fails: load\n# at: 0:4\n# message: x\n", "LINE:COLUMN"),
        ("# d\n#\n# fails: load\n# at: 3:4\n", "no `# message"),
        ("# d\n#\n# fails: load\n# at: 3:4\n# mesage: x\n", "unknown key `mesage`"),
        ("# d\n#\n# fails: load\n# at: 3:4\n# message: x\n# some prose\n", "not `# key: value`"),
        ("# d\n#\n# fails: load\n# at: 3:4\n# at: 3:5\n# message: x\n", "a second `at`"),
        ("# d\n#\n# fails: load\n# at: 3:4\n# message: \n", "an empty `message`"),
    ] {
        match parse_header(header) {
            Ok(e) => panic!("{header:?} should be refused ({why}), but reads as {e:?}"),
            Err(e) => assert!(e.contains(why), "{header:?}: {e:?} should say {why:?}"),
        }
    }
}

#[test]
fn the_harness_fails_a_case_that_loads_or_fails_elsewhere() {
    let dir = scratch_dir("invalid", "harness");
    let pool = pool();
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write a case");
        path
    };
    // A valid scenario under either stage.
    let loads = write("loads.yaml", &valid_case("# d\n#\n# fails: load\n# at: 1:1\n# message: x\n"));
    assert!(check_case(&loads, &pool).is_err_and(|e| e.contains("it loads")));
    let passes = write("passes.yaml", &valid_case("# d\n#\n# fails: run\n# at: 1:1\n# message: x\n"));
    assert!(check_case(&passes, &pool).is_err_and(|e| e.contains("passes")));
    // The right mistake, but the wrong position, a missing word, a word that must not be there.
    let typo =
        valid_case("# d\n#\n# fails: load\n# at: 14:9\n# message: did you mean\n").replace("- Forest", "- Forst");
    assert_eq!(check_case(&write("typo.yaml", &typo), &pool), Ok(()));
    let elsewhere = write("elsewhere.yaml", &typo.replace("at: 14:9", "at: 14:10"));
    assert!(check_case(&elsewhere, &pool).is_err_and(|e| e.contains("is at 14:9, not 14:10")));
    let wordless = write("wordless.yaml", &typo.replace("did you mean", "no such card"));
    assert!(check_case(&wordless, &pool).is_err_and(|e| e.contains("lacks \"no such card\"")));
    let lacks = write("lacks.yaml", &typo.replace("# message:", "# not-in-message: Forst\n# message:"));
    assert!(check_case(&lacks, &pool).is_err_and(|e| e.contains("has \"Forst\"")));
    // The folder: another kind of file, or no cases at all.
    write("typo.yml", &typo);
    assert!(case_files(&dir).is_err_and(|e| e.contains("typo.yml: not a case")));
    let empty = scratch_dir("invalid", "empty");
    std::fs::write(empty.join("README.md"), "no cases").expect("write");
    assert!(failures_in(&empty, &pool).iter().any(|e| e.contains("no cases in it")));
}

// ---------------------------------------------------------------------------------------------
// Cases that stay as code. They start from `SPLINTER`, a small valid scenario whose lines are
// numbered for reference:
//
// ```text
//  1 title: Splinter on Howling Mine
//  2 rules: ["701.23b"]
//  3 source: {kind: cr-example, reference: CR 701.23b example}
//  4 players:
//  5   - name: Alice
//  6     hand: [Splinter]
//  7   - name: Bob
//  8     library:
//  9       - Forest
// 10       - {card: Howling Mine, id: mine-lib-1}
// 11     graveyard:
// 12       - {card: Howling Mine, id: mine-gy}
// 13 battlefield:
// 14   - {card: Howling Mine, id: mine-bf, owner: Bob}
// 15 steps:
// 16   - cast: {player: Alice, card: splinter, targets: [mine-bf]}
// 17   - resolve
// 18 expect:
// 19   outcomes: 2
// 20   always:
// 21     - zone: {card: mine-gy, zone: exile}
// 22     - shuffled: {player: Bob}
// ```

/// The id every code case is loaded under.
const ID: &str = "test.yaml";

const SPLINTER: &str = "\
title: Splinter on Howling Mine
rules: [\"701.23b\"]
source: {kind: cr-example, reference: CR 701.23b example}
players:
  - name: Alice
    hand: [Splinter]
  - name: Bob
    library:
      - Forest
      - {card: Howling Mine, id: mine-lib-1}
    graveyard:
      - {card: Howling Mine, id: mine-gy}
battlefield:
  - {card: Howling Mine, id: mine-bf, owner: Bob}
steps:
  - cast: {player: Alice, card: splinter, targets: [mine-bf]}
  - resolve
expect:
  outcomes: 2
  always:
    - zone: {card: mine-gy, zone: exile}
    - shuffled: {player: Bob}
";

/// `SPLINTER` with line `n` (1-based) replaced by `with`, which may hold several lines.
fn splinter_line(n: usize, with: &str) -> String {
    let mut lines: Vec<&str> = SPLINTER.lines().collect();
    assert!(n >= 1 && n <= lines.len(), "no line {n} in SPLINTER");
    lines[n - 1] = with;
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// The load error for `source`; fails the test if it loads.
#[track_caller]
fn load_err(source: &str) -> LoadError {
    match load_str(ID, source, &pool()) {
        Ok(_) => panic!("this scenario should have been rejected:\n{source}"),
        Err(e) => e,
    }
}

/// Loads `source`, which must load.
#[track_caller]
fn load_ok(source: &str) -> Loaded {
    load_str(ID, source, &pool()).unwrap_or_else(|e| panic!("this scenario should load, but: {e}\n{source}"))
}

/// `e` is at `line:column` in `ID`, its Display says so, and its message holds every word.
#[track_caller]
fn assert_located(e: &LoadError, line: usize, column: usize, words: &[&str]) {
    let want = Expected {
        stage: Stage::Load,
        line,
        column,
        contains: words.iter().map(|w| w.to_string()).collect(),
        lacks: vec![],
    };
    if let Err(problem) = check_error(e, ID, &want) {
        panic!("{problem}");
    }
}

#[test]
fn the_base_scenario_loads_and_passes() {
    // Code: the base of the code cases below (and of the harness's own tests), not a mistake.
    let result = run_loaded(load_ok(SPLINTER));
    assert!(result.passed(), "SPLINTER should pass: {result:?}");
}

#[test]
fn empty_file() {
    // Code: a case file starts with its header comment, so it can't be empty or hold only blank
    // lines. (A file of comments alone is `tests/invalid/only-comments.yaml`.)
    for src in ["", "\n\n"] {
        let e = load_err(src);
        assert_located(&e, 1, 1, &["the file is empty", "title"]);
    }
}

#[test]
fn binary_garbage_as_lossy_utf8() {
    // Code: the input is bytes that aren't UTF-8, decoded lossily before loading (a case file is
    // read as UTF-8 text, and the file reader refuses anything else outright).
    let bytes: Vec<u8> =
        vec![0xff, 0xfe, 0x00, 0x01, b't', b'i', b't', 0xc3, b'l', b'e', b':', 0x80, b'\n', 0x1b, 0x9f];
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // `\u{FFFD}\u{FFFD}\0…`: the NUL is the first character YAML refuses. libyaml's reader
    // reports only a byte offset (6: two 3-byte replacement characters), so serde_norway has no
    // line and column and the error is at 1:1.
    let e = load_err(&text);
    assert_located(&e, 1, 1, &["control characters are not allowed", "position 6"]);
    // Invalid bytes in an otherwise valid scenario: replacement characters in a card name.
    let mut bytes = splinter_line(9, "      - For\u{1}est").into_bytes();
    let at = bytes.iter().position(|&b| b == 1).expect("the marker byte is there");
    bytes[at] = 0xff;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let e = load_err(&text);
    // `For\u{FFFD}est` is an unknown card at line 9, column 9.
    assert_located(&e, 9, 9, &["unknown card `For\u{FFFD}est`", "did you mean `Forest`?"]);
}

#[test]
fn deeply_nested_structure() {
    // Code: generated inputs of 20 KB to 2 MB, mostly brackets or indentation. (The case of an
    // error found after 100 allowed levels is `tests/invalid/error-after-deep-nesting.yaml`.)
    //
    // 10 000 nested flow sequences as the rules list (line 2): the outer `[` at column 8 is the
    // list, the second `[` (column 9) is rules[0], which should be a string.
    let deep = format!("{}\"x\"{}", "[".repeat(10_000), "]".repeat(10_000));
    // The depth pre-scan runs first and stops at the recursion limit, inside the brackets on line 2.
    let e = load_err(&splinter_line(2, &format!("rules: {deep}")));
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("recursion limit exceeded"), "{e}");
    // 2 000 nested block mappings under `description` (line 4): the map starts at line 5,
    // column 2.
    let mut block = String::from("description:\n");
    for depth in 1..2000 {
        block.push_str(&" ".repeat(depth));
        block.push_str("k:\n");
    }
    // `description` is a string, so the typed reading stops at the map that opens the nesting
    // and reports it, an error about that one node, without going down the nesting (the untyped
    // reading, with its 128-level recursion limit, is only for errors a syntax error further on
    // could have caused).
    let e = load_err(&splinter_line(3, &format!("source: {{kind: cr-example, reference: r}}\n{}", block.trim_end())));
    assert_eq!((e.line, e.column), (5, 2), "{e}");
    assert!(e.message.contains("description: invalid type: map, expected a string"), "{e}");
    // 5 000 nested `not:` filters in an inline sorcery's target (lines 4-10, the filter from line
    // 9, column 22), where nesting is allowed: the depth pre-scan, which counts the flow levels on
    // the line (no more than the parser's 128-level recursion limit would), stops it before the
    // parser runs, at the `{` that opens the 129th level: the 128th `{not: `, column 22 + 6 × 127.
    let deep = format!("{}{{}}{}", "{not: ".repeat(5000), "}".repeat(5000));
    let inline = format!(
        "source: {{kind: cr-example, reference: r}}\ncards:\n  - name: Deep Widget\n    types: [Sorcery]\n    spell:\n      targets:\n        - permanent: {deep}\n      effect: []"
    );
    let e = load_err(&splinter_line(3, &inline));
    assert_located(&e, 9, 22 + 6 * 127, &["recursion limit exceeded", "nested more than 128 levels deep"]);
}

// Mutations: nothing panics, every error is located. Code: the inputs are generated.

/// A fixed-seed xorshift64 generator.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// One random edit: delete, duplicate or swap characters, or delete, duplicate or swap lines.
fn mutate(text: &str, rng: &mut XorShift) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match rng.below(6) {
        0 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.remove(i);
        }
        1 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.insert(i, chars[i]);
        }
        2 if chars.len() >= 2 => {
            let i = rng.below(chars.len());
            let j = rng.below(chars.len());
            chars.swap(i, j);
        }
        3 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.remove(i);
            return lines.join("\n") + "\n";
        }
        4 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i].clone());
            return lines.join("\n") + "\n";
        }
        _ if lines.len() >= 2 => {
            let i = rng.below(lines.len());
            let j = rng.below(lines.len());
            lines.swap(i, j);
            return lines.join("\n") + "\n";
        }
        _ => {}
    }
    chars.into_iter().collect()
}

#[track_caller]
fn assert_in_file(e: &LoadError, src: &str, what: &str, seed: u64, case: usize) {
    let lines = src.lines().count().max(1);
    assert!(
        e.line >= 1 && e.column >= 1 && e.line <= lines + 1 && e.file == ID,
        "seed {seed:#x}, mutation {case}: {what} error not located in the file ({lines} lines): {e}\n--- input ---\n{src}"
    );
}

#[test]
fn random_mutations_never_panic_and_errors_are_located() {
    const SEED: u64 = 0x2545_F491_4F6C_DD1D;
    let pool = pool();
    let mut rng = XorShift(SEED);
    let (mut loaded, mut rejected) = (0, 0);
    for case in 0..300 {
        let mut src = SPLINTER.to_string();
        for _ in 0..=rng.below(3) {
            src = mutate(&src, &mut rng);
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| match load_str(ID, &src, &pool) {
            Err(e) => Err(e),
            Ok(l) => Ok(run_loaded(l)),
        }));
        let result = match outcome {
            Ok(r) => r,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("seed {SEED:#x}, mutation {case}: panicked ({why})\n--- input ---\n{src}");
            }
        };
        match result {
            Err(e) => {
                rejected += 1;
                assert_in_file(&e, &src, "load", SEED, case);
            }
            Ok(RunResult::Invalid(e)) => {
                loaded += 1;
                assert_in_file(&e, &src, "run", SEED, case);
            }
            Ok(RunResult::Fail { failures, .. }) => {
                loaded += 1;
                for e in &failures {
                    assert_in_file(e, &src, "expectation", SEED, case);
                }
            }
            Ok(RunResult::Pass { .. }) => loaded += 1,
        }
    }
    assert!(
        loaded > 0 && rejected > 0,
        "seed {SEED:#x}: the mutations should both load ({loaded}) and fail ({rejected})"
    );
}
