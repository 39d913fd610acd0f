//! The JUnit XML report.

use std::fmt::Write as _;
use std::path::Path;

use super::text::line;
use crate::check::baseline::Gate;
use crate::check::{CheckRun, Status};

/// Text as XML, safe in element content and quoted attribute values (the HTML page uses it too).
pub(super) fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // Characters XML 1.0 can't carry at all.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{FFFD}'),
            '\u{FFFE}' | '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
    out
}

/// JUnit XML. A failure the baseline expects is reported as skipped (it doesn't fail the gate);
/// an unexpected pass as a failure (it does).
pub fn junit(run: &CheckRun) -> String {
    let engine = run.engine.as_ref().map_or(run.engine_command.clone(), |e| format!("{} {}", e.name, e.version));
    let (mut failures, mut errors, mut skipped) = (0, 0, 0);
    let mut cases = String::new();
    for r in &run.scenarios {
        let classname = Path::new(&r.id).parent().map(|p| p.display().to_string()).unwrap_or_default();
        let _ = write!(
            cases,
            "    <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\">",
            xml(&classname),
            xml(&r.id),
            r.time_ms / 1000.0
        );
        let detail = xml(&line(r));
        match (r.gate, r.status) {
            (Gate::UnexpectedPass, _) => {
                failures += 1;
                let _ = write!(
                    cases,
                    "<failure message=\"unexpected pass: the baseline expects it to fail\" type=\"UNEXPECTED_PASS\">{detail}</failure>"
                );
            }
            (Gate::KnownFailure, s) => {
                skipped += 1;
                let _ = write!(cases, "<skipped message=\"expected {s} (baseline)\">{detail}</skipped>");
            }
            (_, Status::Pass) if !r.unobserved.is_empty() => {
                let _ = write!(cases, "<system-out>{}</system-out>", xml(&r.unobserved.join(", ")));
            }
            (_, Status::Pass) => {}
            (_, Status::Unsupported) => {
                skipped += 1;
                let _ = write!(cases, "<skipped message=\"{}\"/>", xml(&format!("UNSUPPORTED: {}", r.message)));
            }
            (_, Status::Fail) => {
                failures += 1;
                let _ = write!(cases, "<failure message=\"{}\" type=\"FAIL\">{detail}</failure>", xml(&r.message));
            }
            (_, s) => {
                errors += 1;
                let _ = write!(cases, "<error message=\"{}\" type=\"{s}\">{detail}</error>", xml(&r.message));
            }
        }
        cases.push_str("</testcase>\n");
    }
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"mtg-oracle check\" tests=\"{n}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{t:.3}\">",
        n = run.scenarios.len(),
        t = run.seconds
    );
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{n}\" failures=\"{failures}\" errors=\"{errors}\" skipped=\"{skipped}\" time=\"{t:.3}\">",
        xml(&format!("mtg-oracle check: {engine} ({} mode)", run.mode.name())),
        n = run.scenarios.len(),
        t = run.seconds
    );
    let _ = writeln!(out, "    <properties>");
    let props = [
        ("protocol", run.protocol.to_string()),
        ("corpus.revision", run.corpus.revision.clone().unwrap_or_default()),
        ("corpus.digest", run.corpus.digest.clone()),
    ];
    for (k, v) in props {
        let _ = writeln!(out, "      <property name=\"{k}\" value=\"{}\"/>", xml(&v));
    }
    let _ = writeln!(out, "    </properties>");
    out.push_str(&cases);
    out.push_str("  </testsuite>\n</testsuites>\n");
    out
}
