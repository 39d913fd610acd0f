//! Every CR clause id and ruling id the code cites is in `oracle/rules-index.yaml`, so that a
//! renumbering of the Comprehensive Rules (or a typo in a citation) fails a test instead of
//! needing an audit.
//!
//! The scan reads every `.rs` file under `oracle/src` and `fuzz/fuzz_targets`, and every `.py`
//! file directly in `engines/`, comments and strings alike. A clause id there must be a clause of
//! the index (`clauses:`), a clause the code relies on outside the scope (`supporting:`), or the
//! rule number a group of index clauses is under (its `section`, e.g. `701.23`); a ruling id must
//! be under `rulings:`.

use std::path::{Path, PathBuf};

use mtg_oracle::coverage::index::{RulesIndex, is_clause_id, ruling_prefix, section_number};

mod common;
use common::repo;

/// Numbers the scan finds that are not citations, each with why. Keep it tiny.
const NOT_CITATIONS: &[(&str, &str)] = &[
    // coverage/index.rs documents `in_family` with a number that is *not* under rule 701.24.
    ("701.240", "an example of a number outside rule 701.24 (coverage/index.rs, in_family)"),
];

/// The clause ids in `line`: `NNN.N…` with an optional lower-case letter (`400.2`, `701.23b`,
/// `702.102a`). The rule number is three digits not starting with 0 and the sub-rule number
/// doesn't start with 0 (the CR numbers from 1), and the id stands alone: not inside a longer
/// number or word, so versions (`0.103.0`, `1.85.0`), decimals (`365.0`, `1.5 s`) and dates
/// are not taken for clauses.
fn clause_ids(line: &str) -> Vec<&str> {
    let bytes = line.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    let mut i = 0;
    while i + 5 <= bytes.len() {
        let standalone = i == 0 || !(word(bytes[i - 1]) || bytes[i - 1] == b'.');
        let rule = bytes[i..i + 3].iter().all(u8::is_ascii_digit) && bytes[i] != b'0';
        if !(standalone && rule && bytes[i + 3] == b'.' && (b'1'..=b'9').contains(&bytes[i + 4])) {
            i += 1;
            continue;
        }
        let mut end = i + 5;
        while end < bytes.len() && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end < bytes.len() && bytes[end].is_ascii_lowercase() {
            end += 1;
        }
        let next = bytes.get(end).copied();
        let continues =
            next.is_some_and(word) || (next == Some(b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit));
        if !continues {
            out.push(&line[i..end]);
        }
        i = end;
    }
    out
}

/// The ruling ids in `line`: whole words shaped like `R003-11` or `C004-05`.
fn ruling_ids(line: &str) -> Vec<&str> {
    line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '-')).filter(|w| ruling_prefix(w).is_some()).collect()
}

/// The files to scan: `.rs` under `oracle/src` and `fuzz/fuzz_targets` (walked, so files moving
/// between folders are still found), `.py` directly in `engines/`.
fn scanned_files(root: &Path) -> Vec<PathBuf> {
    let mut files = common::files_with_extension(&root.join("oracle/src"), "rs", true);
    files.extend(common::files_with_extension(&root.join("fuzz/fuzz_targets"), "rs", true));
    files.extend(common::files_with_extension(&root.join("engines"), "py", false));
    files.sort();
    files
}

/// Where the index lists `id`, if it does.
fn listed(index: &RulesIndex, id: &str) -> bool {
    index.clauses.iter().any(|c| c.id == id || section_number(&c.section) == Some(id))
        || index.supporting.iter().any(|s| s.id == id)
        || index.rulings.iter().any(|r| r.id == id)
}

#[test]
fn every_clause_id_in_the_code_is_in_the_rules_index() {
    let root = repo();
    let index = RulesIndex::bundled().unwrap_or_else(|e| panic!("{e}"));
    let files = scanned_files(&root);
    assert!(files.len() > 20, "the scan found only {} files under {}", files.len(), root.display());
    let (mut problems, mut seen) = (Vec::new(), std::collections::BTreeSet::new());
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        let shown = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        for (n, line) in text.lines().enumerate() {
            for id in clause_ids(line).into_iter().chain(ruling_ids(line)) {
                seen.insert(id.to_string());
                if NOT_CITATIONS.iter().any(|(not, _)| *not == id) || listed(&index, id) {
                    continue;
                }
                let place = if is_clause_id(id) {
                    "under `clauses:` if it is in the coverage scope (with a scenario citing it), or under \
                     `supporting:` with a one-line summary in our own words, checked against the CR"
                } else {
                    "under `rulings:`"
                };
                problems.push(format!("{shown}:{}: `{id}` is not in oracle/rules-index.yaml: add it {place}", n + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{} citation(s) not in the rules index:\n{}", problems.len(), problems.join("\n"));
    // The exceptions are still needed, and the scan still finds citations at all.
    for (id, why) in NOT_CITATIONS {
        assert!(seen.contains(*id), "`{id}` ({why}) no longer occurs: remove it from NOT_CITATIONS");
    }
    assert!(seen.contains("701.23b") && seen.contains("608.2b"), "the scan found too little: {seen:?}");
}

#[test]
fn every_supporting_clause_is_cited_somewhere_in_the_code() {
    // The `supporting:` list holds only what the code relies on: an entry nothing cites any more
    // is dead weight that would go unchecked on the next CR update.
    let root = repo();
    let index = RulesIndex::bundled().unwrap_or_else(|e| panic!("{e}"));
    let mut cited = std::collections::BTreeSet::new();
    for file in scanned_files(&root) {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        cited.extend(text.lines().flat_map(clause_ids).map(str::to_string));
    }
    let unused: Vec<&str> = index.supporting.iter().map(|s| s.id.as_str()).filter(|id| !cited.contains(*id)).collect();
    assert!(
        unused.is_empty(),
        "supporting clauses no code cites (remove them from oracle/rules-index.yaml): {unused:?}"
    );
}

#[test]
fn the_scan_takes_citations_and_leaves_other_numbers() {
    let cases: &[(&str, &[&str])] = &[
        ("// 701.23b: a public zone (400.2), see 608.2d and 702.102a.", &["701.23b", "400.2", "608.2d", "702.102a"]),
        ("\"701.24\" then CR 117.1a, and 400.2.", &["701.24", "117.1a", "400.2"]),
        ("version 0.103.0, rustc 1.85.0, 365.0 * 86_400.0, 1.5 s, 100.0%", &[]),
        ("2026.12.01, 1701.23b, 701.23bc, x701.23, 701.0, 070.1, 701.23.4", &[]),
        ("scenarios/701.23-search/701.23b-splinter.yaml", &["701.23", "701.23b"]),
    ];
    for (line, want) in cases {
        assert_eq!(clause_ids(line), *want, "in {line:?}");
    }
    assert_eq!(ruling_ids("rulings R003-11, C004-05; not XR003-11 or R03-11 or R003-1"), ["R003-11", "C004-05"]);
}
