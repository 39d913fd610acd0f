//! The human report: one line per scenario and the summary, safe to print on a terminal.

use std::fmt::Write as _;

use crate::check::baseline::Gate;
use crate::check::{CheckRun, ScenarioResult, Status};

/// `text` made safe to print on a terminal: control characters (newlines, escape sequences) and
/// bidirectional overrides are shown escaped, so an engine's text or a file name can't forge
/// lines or colour the output.
pub fn terminal_safe(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if is_unsafe_char(c) => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
            c => out.push(c),
        }
    }
    out
}

/// Control characters and the invisible formatting characters that reorder text.
pub(super) fn is_unsafe_char(c: char) -> bool {
    c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{2028}' | '\u{2029}')
}

/// One line per scenario, for the terminal.
pub fn line(r: &ScenarioResult) -> String {
    // Every text here may come from an engine or a file name: escaped, so none can forge a line.
    let safe = terminal_safe;
    let mut out = format!("{} {}", r.status, safe(&r.id));
    if !r.unobserved.is_empty() {
        // What the engine doesn't report wasn't checked: "PASS …, knowledge not observed".
        let _ = write!(out, ", {}", safe(&r.unobserved.join(", ")));
    }
    match r.gate {
        Gate::KnownFailure => out.push_str(" (expected: baseline)"),
        Gate::UnexpectedPass => {
            out.push_str(" (UNEXPECTED PASS: the baseline expects it to fail; update the baseline)")
        }
        _ => {}
    }
    if !r.message.is_empty() {
        let _ = write!(out, "\n  {}", safe(&r.message));
    }
    if r.verdict.len() > 1 {
        let _ = write!(out, "\n  (+{} more difference(s))", r.verdict.len() - 1);
    }
    if let Some(link) = &r.link {
        let _ = write!(out, "\n  see {}", safe(link));
    }
    if !r.stderr_tail.is_empty() {
        out.push_str("\n  engine stderr (last lines):");
        for l in &r.stderr_tail {
            let _ = write!(out, "\n    | {}", safe(l));
        }
    }
    out
}

/// The summary printed after the per-scenario lines; its last line is `N passed, M failed`
/// (failed: every scenario that is neither PASS nor UNSUPPORTED).
pub fn summary(run: &CheckRun) -> String {
    let mut out = String::new();
    let engine = run.engine.as_ref().map_or_else(
        || format!("`{}` (never introduced itself)", terminal_safe(&run.engine_command)),
        |e| {
            let seed = e.seed.map(|s| format!(" (seed {s})")).unwrap_or_default();
            format!("{} {}{seed}", terminal_safe(&e.name), terminal_safe(&e.version))
        },
    );
    let _ = writeln!(out, "engine: {engine}; protocol {}; mode {}", run.protocol, run.mode.name());
    let counts: Vec<String> =
        Status::ALL.iter().filter(|s| run.count(**s) > 0).map(|s| format!("{} {}", run.count(*s), s)).collect();
    let _ = writeln!(out, "{} scenario(s) in {:.1} s: {}", run.scenarios.len(), run.seconds, counts.join(", "));
    let known = run.scenarios.iter().filter(|s| s.gate == Gate::KnownFailure).count();
    let unexpected_pass = run.scenarios.iter().filter(|s| s.gate == Gate::UnexpectedPass).count();
    let unexpected_fail = run.scenarios.iter().filter(|s| s.gate == Gate::UnexpectedFailure).count();
    let _ = writeln!(
        out,
        "gate: {} ({known} expected failure(s), {unexpected_fail} unexpected failure(s), {unexpected_pass} unexpected pass(es))",
        if run.exit_code() == 0 { "ok" } else { "FAILED" }
    );
    if !run.stale_baseline.is_empty() {
        let _ = writeln!(
            out,
            "baseline entries for scenarios that didn't run: {}",
            terminal_safe(&run.stale_baseline.join(", "))
        );
    }
    let failed = run.scenarios.iter().filter(|s| !matches!(s.status, Status::Pass | Status::Unsupported)).count();
    let _ = write!(out, "{} passed, {failed} failed", run.count(Status::Pass));
    out
}
