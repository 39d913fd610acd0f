//! Reports of a check run: the human summary, JUnit XML, JSON and a Markdown conformance matrix.
//! Report files are written whole or not at all (a temporary file in the same folder, renamed
//! over the target), so a CI system never ingests half a report.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use serde::Serialize;

use super::baseline::Gate;
use super::{CheckRun, ScenarioResult, Status};
use crate::serve::stable_hash;

/// Which scenario corpus ran.
#[derive(Debug, Clone, Serialize)]
pub struct Corpus {
    /// The git commit of the repository holding the scenarios, when there is one; `-dirty` is
    /// appended when scenario files differ from it.
    pub revision: Option<String>,
    /// A digest of the scenario files' paths and contents (FNV-1a, 64 bit), which identifies the
    /// corpus with or without git.
    pub digest: String,
    /// How many scenario files.
    pub scenarios: usize,
}

impl Corpus {
    /// Describes the corpus made of `files`.
    pub fn of<'a>(files: impl Iterator<Item = &'a Path>) -> Corpus {
        let files: Vec<&Path> = files.collect();
        let mut text = String::new();
        for f in &files {
            text.push_str(&f.display().to_string());
            text.push('\0');
            text.push_str(&std::fs::read_to_string(f).unwrap_or_default());
            text.push('\0');
        }
        let digest = format!("fnv1a64:{:016x}", stable_hash(&text));
        let revision = files.first().and_then(|f| git_revision(f, &files));
        Corpus { revision, digest, scenarios: files.len() }
    }
}

fn git_revision(first: &Path, files: &[&Path]) -> Option<String> {
    let dir = first.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .arg("-C")
            .arg(dir)
            .args(args)
            .stderr(std::process::Stdio::null())
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let head = git(&["rev-parse", "HEAD"])?;
    let abs: Vec<String> =
        files.iter().filter_map(|f| std::fs::canonicalize(f).ok()).map(|p| p.display().to_string()).collect();
    let mut args = vec!["status", "--porcelain", "--"];
    args.extend(abs.iter().map(String::as_str));
    let dirty = git(&args).is_some_and(|s| !s.is_empty());
    Some(if dirty { format!("{head}-dirty") } else { head })
}

/// Writes `contents` to `path` whole or not at all.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "report".into());
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::File::create(&tmp).and_then(|mut f| {
        f.write_all(contents.as_bytes())?;
        f.sync_all()
    });
    match written.and_then(|()| std::fs::rename(&tmp, path)) {
        Ok(()) => Ok(()),
        Err(e) => {
            let _ = std::fs::remove_file(&tmp);
            Err(e)
        }
    }
}

/// One line per scenario, for the terminal.
pub fn line(r: &ScenarioResult) -> String {
    let mut out = format!("{} {}", r.status, r.id);
    if !r.unobserved.is_empty() {
        // What the engine doesn't report wasn't checked: "PASS …, knowledge not observed".
        let _ = write!(out, ", {}", r.unobserved.join(", "));
    }
    match r.gate {
        Gate::KnownFailure => out.push_str(" (expected: baseline)"),
        Gate::UnexpectedPass => {
            out.push_str(" (UNEXPECTED PASS: the baseline expects it to fail; update the baseline)")
        }
        _ => {}
    }
    if !r.message.is_empty() {
        let _ = write!(out, "\n  {}", r.message);
    }
    if r.verdict.len() > 1 {
        let _ = write!(out, "\n  (+{} more difference(s))", r.verdict.len() - 1);
    }
    if let Some(link) = &r.link {
        let _ = write!(out, "\n  see {link}");
    }
    if !r.stderr_tail.is_empty() {
        out.push_str("\n  engine stderr (last lines):");
        for l in &r.stderr_tail {
            let _ = write!(out, "\n    | {l}");
        }
    }
    out
}

/// The summary printed after the per-scenario lines; its last line is `N passed, M failed`
/// (failed: every scenario that is neither PASS nor UNSUPPORTED).
pub fn summary(run: &CheckRun) -> String {
    let mut out = String::new();
    let engine = run.engine.as_ref().map_or_else(
        || format!("`{}` (never introduced itself)", run.engine_command),
        |e| format!("{} {}{}", e.name, e.version, e.seed.map(|s| format!(" (seed {s})")).unwrap_or_default()),
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
        let _ = writeln!(out, "baseline entries for scenarios that didn't run: {}", run.stale_baseline.join(", "));
    }
    let failed = run.scenarios.iter().filter(|s| !matches!(s.status, Status::Pass | Status::Unsupported)).count();
    let _ = write!(out, "{} passed, {failed} failed", run.count(Status::Pass));
    out
}

/// The run as JSON: engine, version, protocol, corpus revision, per scenario status, verdict
/// and time.
pub fn json(run: &CheckRun) -> String {
    serde_json::to_string_pretty(run).unwrap_or_default() + "\n"
}

fn xml(text: &str) -> String {
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

/// A Markdown conformance matrix: one row per CR clause, one column per status, each cell the
/// number of scenarios citing that clause with that status; the scenarios that are neither PASS
/// nor UNSUPPORTED are linked from their row and listed with their verdicts below.
pub fn markdown(run: &CheckRun) -> String {
    let mut out = String::from("# mtg-oracle conformance\n\n");
    let engine = run.engine.as_ref().map_or(run.engine_command.clone(), |e| format!("{} {}", e.name, e.version));
    let _ = writeln!(
        out,
        "Engine: **{engine}** · protocol {} · {} mode · corpus {} ({})\n",
        run.protocol,
        run.mode.name(),
        run.corpus.revision.as_deref().unwrap_or("not in git"),
        run.corpus.digest
    );
    let mut matrix: BTreeMap<&str, BTreeMap<Status, Vec<&ScenarioResult>>> = BTreeMap::new();
    for r in &run.scenarios {
        let clauses: Vec<&str> =
            if r.rules.is_empty() { vec!["(none)"] } else { r.rules.iter().map(String::as_str).collect() };
        for c in clauses.into_iter().collect::<BTreeSet<_>>() {
            matrix.entry(c).or_default().entry(r.status).or_default().push(r);
        }
    }
    out.push_str("| clause |");
    for s in Status::ALL {
        let _ = write!(out, " {s} |");
    }
    out.push_str(" not passing |\n| --- |");
    for _ in Status::ALL {
        out.push_str(" ---: |");
    }
    out.push_str(" --- |\n");
    for (clause, by_status) in &matrix {
        let _ = write!(out, "| {clause} |");
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
            .map(|r| format!("[{}]({})", short(&r.id), r.id))
            .collect();
        let _ = writeln!(out, " {} |", failing.join(", "));
    }
    let not_passing: Vec<&ScenarioResult> =
        run.scenarios.iter().filter(|r| !matches!(r.status, Status::Pass | Status::Unsupported)).collect();
    if !not_passing.is_empty() {
        out.push_str("\n## Not passing\n\n");
        for r in not_passing {
            let _ = writeln!(out, "- **{}** [{}]({}): {}", r.status, short(&r.id), r.id, md(&r.message));
        }
    }
    let unobserved: Vec<&ScenarioResult> = run.scenarios.iter().filter(|r| !r.unobserved.is_empty()).collect();
    if !unobserved.is_empty() {
        out.push_str("\n## Not observed\n\nWhat the engine doesn't report was not checked for these scenarios:\n\n");
        for r in unobserved {
            let _ = writeln!(out, "- **{}** [{}]({}): {}", r.status, short(&r.id), r.id, r.unobserved.join(", "));
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

fn short(id: &str) -> String {
    Path::new(id).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| id.to_string())
}

fn md(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}
