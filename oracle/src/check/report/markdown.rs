//! The Markdown conformance report.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::Path;

use super::text::{is_unsafe_char, terminal_safe};
use crate::check::{CheckRun, ScenarioResult, Status};

/// A Markdown conformance report: a summary (counts per status and the pass rate of the scenarios
/// the engine ran), then the matrix: one row per CR clause, one column per status, each cell the
/// number of scenarios citing that clause with that status; the scenarios that are neither PASS
/// nor UNSUPPORTED are linked from their row and listed with their verdicts below.
pub fn markdown(run: &CheckRun) -> String {
    let mut out = String::from("# mtg-oracle conformance\n\n");
    let engine = run.engine.as_ref().map_or(run.engine_command.clone(), |e| format!("{} {}", e.name, e.version));
    let _ = writeln!(
        out,
        "Engine: **{}** · protocol {} · {} mode · corpus {} ({})\n",
        md(&engine),
        run.protocol,
        run.mode.name(),
        run.corpus.revision.as_deref().unwrap_or("not in git"),
        run.corpus.digest
    );
    // The summary: counts per status, and the pass rate of the scenarios the engine ran (those
    // it answered UNSUPPORTED and those the oracle found INVALID aside).
    out.push_str(&status_table_head("scenarios", "---:", "pass rate (of those run)", "---:"));
    let _ = write!(out, "| {} |", run.scenarios.len());
    for s in Status::ALL {
        let _ = write!(out, " {} |", run.count(s));
    }
    let ran = run.scenarios.iter().filter(|r| !matches!(r.status, Status::Unsupported | Status::Invalid)).count();
    let rate = if ran == 0 {
        "—".to_string()
    } else {
        format!("{:.1}%", 100.0 * run.count(Status::Pass) as f64 / ran as f64)
    };
    let _ = writeln!(out, " {rate} |\n");
    let mut matrix: BTreeMap<&str, BTreeMap<Status, Vec<&ScenarioResult>>> = BTreeMap::new();
    for r in &run.scenarios {
        let clauses: Vec<&str> =
            if r.rules.is_empty() { vec!["(none)"] } else { r.rules.iter().map(String::as_str).collect() };
        for c in clauses.into_iter().collect::<BTreeSet<_>>() {
            matrix.entry(c).or_default().entry(r.status).or_default().push(r);
        }
    }
    out.push_str(&status_table_head("clause", "---", "not passing", "---"));
    for (clause, by_status) in &matrix {
        let _ = write!(out, "| {} |", md(clause));
        for s in Status::ALL {
            let n = by_status.get(&s).map_or(0, Vec::len);
            if n == 0 {
                out.push_str(" · |");
            } else {
                let _ = write!(out, " {n} |");
            }
        }
        let failing: Vec<String> = by_status
            .iter()
            .filter(|(s, _)| !matches!(s, Status::Pass | Status::Unsupported))
            .flat_map(|(_, rs)| rs.iter())
            .map(|r| md_link(&r.id))
            .collect();
        let _ = writeln!(out, " {} |", failing.join(", "));
    }
    let not_passing: Vec<&ScenarioResult> =
        run.scenarios.iter().filter(|r| !matches!(r.status, Status::Pass | Status::Unsupported)).collect();
    if !not_passing.is_empty() {
        out.push_str("\n## Not passing\n\n");
        for r in not_passing {
            let _ = writeln!(out, "- **{}** {}: {}", r.status, md_link(&r.id), md(&r.message));
        }
    }
    let unobserved: Vec<&ScenarioResult> = run.scenarios.iter().filter(|r| !r.unobserved.is_empty()).collect();
    if !unobserved.is_empty() {
        out.push_str("\n## Not observed\n\nWhat the engine doesn't report was not checked for these scenarios:\n\n");
        for r in unobserved {
            let _ = writeln!(out, "- **{}** {}: {}", r.status, md_link(&r.id), md(&r.unobserved.join(", ")));
        }
    }
    let _ = writeln!(
        out,
        "\n{} passed, {} failed",
        run.count(Status::Pass),
        run.scenarios.iter().filter(|s| !matches!(s.status, Status::Pass | Status::Unsupported)).count()
    );
    out
}

/// The head of a Markdown table with a column per status between a first and a last column
/// (each with its alignment row cell, `---` or `---:`).
fn status_table_head(first: &str, first_align: &str, last: &str, last_align: &str) -> String {
    let mut out = format!("| {first} |");
    for s in Status::ALL {
        let _ = write!(out, " {s} |");
    }
    let _ = write!(out, " {last} |\n| {first_align} |");
    for _ in Status::ALL {
        out.push_str(" ---: |");
    }
    let _ = writeln!(out, " {last_align} |");
    out
}

fn short(id: &str) -> String {
    Path::new(id).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| id.to_string())
}

/// Text for a Markdown table cell or list item: `|` (a cell break), link and code markup and HTML
/// escaped, newlines as spaces, control characters shown escaped.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in terminal_safe(&text.replace(['\n', '\r'], " ")).chars() {
        match c {
            '|' | '\\' | '`' | '[' | ']' => {
                out.push('\\');
                out.push(c);
            }
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            c => out.push(c),
        }
    }
    out
}

/// A Markdown link to scenario `id`, named by its file stem: the name escaped as text, the
/// target percent-encoded where Markdown or a table would read a character as syntax.
fn md_link(id: &str) -> String {
    let mut target = String::with_capacity(id.len());
    for c in id.chars() {
        if c.is_ascii_alphanumeric()
            || matches!(c, '/' | '.' | '-' | '_' | '~' | ',' | '+' | '=' | ':' | '@')
            || (!c.is_ascii() && !is_unsafe_char(c))
        {
            target.push(c);
        } else {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                let _ = write!(target, "%{b:02X}");
            }
        }
    }
    format!("[{}]({target})", md(&short(id)))
}
