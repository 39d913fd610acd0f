//! The documentation stays true to the repository: the committed coverage table is what
//! `mtg-oracle coverage --markdown` prints today, every relative link in the Markdown docs points
//! at a file that exists (and, into a Markdown page, at a heading it has), and no page embeds a
//! copy of `engines/example_adapter.py` that could drift from it. (In the oracle package, like
//! `cli.rs`, so the coverage table comes from the binary itself.)

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{repo, scratch_dir};

/// The command that regenerates `docs/coverage.md`, as a person types it at the repository root.
const REFRESH_COVERAGE: &str = "cargo run --release -p mtg-oracle -- coverage scenarios --markdown docs/coverage.md";

#[test]
fn the_committed_coverage_table_is_what_coverage_markdown_prints() {
    let out = scratch_dir("docs", "coverage").join("coverage.md");
    // The same command as REFRESH_COVERAGE, run from the repository root, so the scenario paths
    // it records are the same.
    let status = Command::new(env!("CARGO_BIN_EXE_mtg-oracle"))
        .current_dir(repo())
        .args(["coverage", "scenarios", "--markdown"])
        .arg(&out)
        .output()
        .expect("run mtg-oracle coverage");
    assert_eq!(status.status.code(), Some(0), "the coverage gate fails:\n{}", String::from_utf8_lossy(&status.stdout));
    let fresh = std::fs::read_to_string(&out).expect("the markdown report is written");
    let committed = std::fs::read_to_string(repo().join("docs/coverage.md")).unwrap_or_default();
    assert!(
        committed == fresh,
        "docs/coverage.md is not what the coverage command prints now; refresh it with\n    {REFRESH_COVERAGE}\n\
         (first difference at line {})",
        first_difference(&committed, &fresh)
    );
}

/// The 1-based number of the first line where two texts differ.
fn first_difference(a: &str, b: &str) -> usize {
    let same = a.lines().zip(b.lines()).take_while(|(x, y)| x == y).count();
    same + 1
}

/// The Markdown pages a reader navigates between: the README, `docs/`, the fuzzing docs and the
/// engines' READMEs.
fn pages() -> Vec<PathBuf> {
    let root = repo();
    let mut pages = vec![root.join("README.md")];
    for folder in ["docs", "fuzz", "fuzz/findings", "engines/phase", "engines/manabrew"] {
        let mut found: Vec<PathBuf> = std::fs::read_dir(root.join(folder))
            .unwrap_or_else(|e| panic!("{folder}: {e}"))
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|x| x == "md"))
            .collect();
        found.sort();
        pages.extend(found);
    }
    pages
}

/// A page's lines, with the fence lines and the lines inside fenced code blocks blanked (they
/// may show link or heading syntax without being either).
fn unfenced(text: &str) -> Vec<&str> {
    let mut fenced = false;
    text.lines()
        .map(|line| {
            let fence = line.trim_start().starts_with("```");
            fenced ^= fence;
            if fence || fenced { "" } else { line }
        })
        .collect()
}

/// The text of a page outside fenced code blocks and inline code spans, line by line.
fn prose(text: &str) -> Vec<String> {
    // Drop the contents of `code spans`, keeping what surrounds them.
    unfenced(text)
        .into_iter()
        .map(|line| line.split('`').enumerate().filter(|(i, _)| i % 2 == 0).map(|(_, part)| part).collect())
        .collect()
}

/// Every inline link target `[text](target)` of a page, with its line number.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for (n, line) in prose(text).iter().enumerate() {
        let mut rest = line.as_str();
        while let Some(at) = rest.find("](") {
            let after = &rest[at + 2..];
            let Some(end) = after.find(')') else { break };
            found.push((n + 1, after[..end].trim().to_string()));
            rest = &after[end..];
        }
    }
    found
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || *c == ' ' || *c == '-' || *c == '_')
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// The anchors of a page's headings (outside code blocks).
fn anchors(text: &str) -> Vec<String> {
    unfenced(text).into_iter().filter(|l| l.starts_with('#')).map(|l| anchor(l.trim_start_matches('#'))).collect()
}

#[test]
fn every_relative_link_in_the_docs_points_at_an_existing_file_and_heading() {
    let mut broken = Vec::new();
    let mut checked = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let folder = page.parent().unwrap_or(Path::new("."));
        for (line, target) in links(&text) {
            if target.contains("://") || target.starts_with("mailto:") {
                continue;
            }
            checked += 1;
            let (path, fragment) = target.split_once('#').unwrap_or((target.as_str(), ""));
            let file = if path.is_empty() { page.clone() } else { folder.join(path) };
            let shown = format!("{}:{line}: {target}", page.strip_prefix(repo()).unwrap_or(&page).display());
            if !file.exists() {
                broken.push(format!("{shown} (no such file)"));
                continue;
            }
            let is_markdown = file.extension().is_some_and(|x| x == "md");
            if !fragment.is_empty() && is_markdown {
                let target_text = std::fs::read_to_string(&file).expect("read linked page");
                if !anchors(&target_text).iter().any(|a| a == fragment) {
                    broken.push(format!("{shown} (no heading with that anchor)"));
                }
            }
        }
    }
    assert!(checked > 50, "only {checked} relative links found: is the link scanner broken?");
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_link_scanner_sees_links_and_skips_code() {
    let text = "See [a](docs/a.md#x) and [`b`](../b.py).\n`[not](a-link)`\n```\n[nor](this)\n```\n";
    let found: Vec<String> = links(text).into_iter().map(|(_, t)| t).collect();
    assert_eq!(found, ["docs/a.md#x", "../b.py"]);
    assert_eq!(anchor(" The protocol (version 2)"), "the-protocol-version-2");
    assert_eq!(anchor(" `mtg-oracle check`"), "mtg-oracle-check");
    assert_eq!(anchor(" Real engines: phase.rs and manabrew"), "real-engines-phasers-and-manabrew");
}

/// The docs link to `engines/example_adapter.py` instead of showing a copy: one adapter to keep
/// working (`oracle/tests/check_cli.rs` runs it), nothing to drift. No page may embed three
/// consecutive lines of its code.
#[test]
fn no_page_embeds_a_copy_of_the_example_adapter_and_the_protocol_page_links_it() {
    let adapter = std::fs::read_to_string(repo().join("engines/example_adapter.py")).expect("adapter");
    let code: Vec<&str> = adapter.lines().map(str::trim).filter(|l| l.len() > 10).collect();
    assert!(code.len() > 20, "the adapter is a complete program");
    for page in pages() {
        let text = std::fs::read_to_string(&page).expect("read page");
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| l.len() > 10).collect();
        for window in code.windows(3) {
            assert!(
                !lines.windows(3).any(|w| w == window),
                "{} embeds a copy of engines/example_adapter.py ({:?}…): link to the file instead",
                page.display(),
                window[0]
            );
        }
    }
    let protocol = std::fs::read_to_string(repo().join("docs/protocol.md")).expect("docs/protocol.md");
    assert!(protocol.contains("](../engines/example_adapter.py)"), "docs/protocol.md links the example adapter");
}
