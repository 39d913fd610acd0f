//! The coverage report as text (for the terminal) and as markdown (for the README).

use std::fmt::Write as _;
use std::path::Path;

use super::{EntryKind, EntryReport, Report, Status};

/// How many scenario names a row lists before `+N more`.
const NAMES_SHOWN: usize = 3;

/// The report for the terminal: one block per section, one row per id
/// (`id  status  passing/failing  examples  scenarios`), then the summary.
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    let t = report.thresholds;
    let _ = writeln!(
        out,
        "Rules coverage against {} (OK needs {} passing scenario(s) per clause, {} per ruling)",
        report.checked_against, t.min_clause, t.min_ruling
    );
    for (section, entries) in sections(report) {
        let _ = writeln!(out, "\n{section}");
        for e in entries {
            let row = format!(
                "  {:<9} {:<10} {:>3} pass {:>2} fail  {:<6} {}",
                e.id,
                e.status.label(),
                e.passing.len(),
                e.failing.len(),
                examples_cell(e),
                names(e)
            );
            let _ = writeln!(out, "{}", row.trim_end());
        }
    }
    if !report.unknown_citations.is_empty() {
        let _ = writeln!(out, "\nCited ids that look in scope but are not in the index:");
        for u in &report.unknown_citations {
            let hint = u.did_you_mean.as_ref().map_or_else(String::new, |d| format!(" (did you mean `{d}`?)"));
            let _ = writeln!(out, "  {}: `{}`{hint}", u.scenario, u.id);
        }
    }
    let unreadable: Vec<_> = report.unreadable().collect();
    if !unreadable.is_empty() {
        let _ = writeln!(out, "\nScenarios whose rules: list can't be read (their coverage is unknown):");
        for s in unreadable {
            let _ = writeln!(out, "  {}", s.problem.as_deref().unwrap_or(&s.id));
        }
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "{}", summary_line(report));
    out
}

/// One line: clauses and rulings covered, scenarios, and the gate's verdict.
pub fn summary_line(report: &Report) -> String {
    let s = &report.summary;
    let mut problems = Vec::new();
    for status in Status::ALL.into_iter().filter(|&st| st != Status::Ok) {
        let n = report.entries.iter().filter(|e| e.status == status).count();
        if n > 0 {
            problems.push(format!("{n} {}", status.label()));
        }
    }
    if !report.unknown_citations.is_empty() {
        problems.push(format!("{} unknown id(s) cited", report.unknown_citations.len()));
    }
    let unreadable = report.unreadable().count();
    if unreadable > 0 {
        problems.push(format!("{unreadable} unreadable scenario(s)"));
    }
    let verdict =
        if s.gate_passes { "coverage OK".to_string() } else { format!("coverage FAILED: {}", problems.join(", ")) };
    format!(
        "clauses covered {}/{}, rulings covered {}/{} ({} of {} scenarios passed); {verdict}",
        s.clauses_ok, s.clauses, s.rulings_ok, s.rulings, s.scenarios_passed, s.scenarios
    )
}

/// The report as markdown: a summary table by section, then a row per id.
pub fn markdown(report: &Report) -> String {
    let mut out = String::new();
    let t = report.thresholds;
    let _ = writeln!(
        out,
        "Checked against {}. OK needs {} passing scenario(s) per clause and {} per ruling.\n",
        report.checked_against, t.min_clause, t.min_ruling
    );
    let _ = writeln!(out, "{}\n", summary_line(report));
    let _ = writeln!(out, "| section | ids | OK | THIN | FAILING | NO-EXAMPLE | MISSING |");
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    let mut totals = [0usize; 5];
    for (section, entries) in sections(report) {
        let counts = Status::ALL.map(|st| entries.iter().filter(|e| e.status == st).count());
        for (t, c) in totals.iter_mut().zip(counts) {
            *t += c;
        }
        let _ =
            writeln!(out, "| {} | {} | {} |", cell(section), entries.len(), counts.map(|c| c.to_string()).join(" | "));
    }
    let _ = writeln!(out, "| **total** | {} | {} |", report.entries.len(), totals.map(|c| c.to_string()).join(" | "));
    let _ = writeln!(out, "\n| id | section | status | passing | failing | CR examples | scenarios |");
    let _ = writeln!(out, "| --- | --- | --- | ---: | ---: | --- | --- |");
    for e in &report.entries {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            cell(&e.id),
            cell(&e.section),
            e.status.label(),
            e.passing.len(),
            e.failing.len(),
            examples_cell(e),
            cell(&names(e))
        );
    }
    if !report.unknown_citations.is_empty() {
        let _ = writeln!(out, "\nCited ids that look in scope but are not in the index:\n");
        for u in &report.unknown_citations {
            let _ = writeln!(out, "- `{}` in `{}`", u.id, u.scenario);
        }
    }
    out
}

/// Entries grouped by section, sections in index order.
fn sections(report: &Report) -> Vec<(&str, Vec<&EntryReport>)> {
    let mut out: Vec<(&str, Vec<&EntryReport>)> = Vec::new();
    for e in &report.entries {
        match out.iter_mut().find(|(s, _)| *s == e.section) {
            Some((_, list)) => list.push(e),
            None => out.push((&e.section, vec![e])),
        }
    }
    // Clauses before rulings even if an index interleaves them.
    out.sort_by_key(|(_, list)| list.first().is_some_and(|e| e.kind == EntryKind::Ruling));
    out
}

/// `found/required` for a clause with CR examples, empty otherwise.
fn examples_cell(e: &EntryReport) -> String {
    if e.examples == 0 {
        String::new()
    } else {
        format!("ex {}/{}", e.example_scenarios.len().min(e.examples), e.examples)
    }
}

/// The citing scenarios' file names, passing first, at most [`NAMES_SHOWN`].
fn names(e: &EntryReport) -> String {
    let all: Vec<String> =
        e.passing.iter().map(|s| short(s)).chain(e.failing.iter().map(|s| format!("{} (failing)", short(s)))).collect();
    let mut shown = all.iter().take(NAMES_SHOWN).cloned().collect::<Vec<_>>().join(", ");
    if all.len() > NAMES_SHOWN {
        let _ = write!(shown, " +{} more", all.len() - NAMES_SHOWN);
    }
    shown
}

fn short(id: &str) -> String {
    Path::new(id).file_stem().map_or_else(|| id.to_string(), |s| s.to_string_lossy().into_owned())
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|")
}
