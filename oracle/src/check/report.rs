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
            // Read as the scenarios are: only regular files, and not past the size limit.
            text.push_str(&crate::scenario::read_source(f).unwrap_or_default());
            text.push('\0');
        }
        let digest = format!("fnv1a64:{:016x}", stable_hash(&text));
        let revision = files.first().and_then(|f| git::revision(f, &files));
        Corpus { revision, digest, scenarios: files.len() }
    }
}

/// The corpus revision, read from the repository's files. No `git` program is run: a scenario
/// folder may be an untrusted checkout, and git would execute what its `.git/config` names
/// (`core.fsmonitor`, filters, hooks).
mod git {
    use std::path::{Path, PathBuf};

    /// Git files read here are small; a bigger one is not read.
    const MAX_GIT_FILE: u64 = 64 << 20;

    fn read_small(path: &Path) -> Option<Vec<u8>> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > MAX_GIT_FILE {
            return None;
        }
        std::fs::read(path).ok()
    }

    fn read_text(path: &Path) -> Option<String> {
        String::from_utf8(read_small(path)?).ok()
    }

    fn is_object_id(text: &str) -> bool {
        matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
    }

    /// A repository: its work tree, its git folder and the common folder (they differ in a
    /// linked work tree).
    struct Repo {
        work_tree: PathBuf,
        git_dir: PathBuf,
        common_dir: PathBuf,
    }

    fn find(start: &Path) -> Option<Repo> {
        let start = std::fs::canonicalize(start).ok()?;
        for dir in start.ancestors() {
            let dot_git = dir.join(".git");
            let Ok(meta) = std::fs::symlink_metadata(&dot_git) else { continue };
            let git_dir = if meta.is_dir() {
                dot_git
            } else if meta.is_file() {
                let text = read_text(&dot_git)?;
                dir.join(text.trim().strip_prefix("gitdir:")?.trim())
            } else {
                continue;
            };
            let common_dir = match read_text(&git_dir.join("commondir")) {
                Some(c) => git_dir.join(c.trim()),
                None => git_dir.clone(),
            };
            return Some(Repo { work_tree: dir.to_path_buf(), git_dir, common_dir });
        }
        None
    }

    /// The commit a ref names: a loose ref file, else a line of `packed-refs`.
    fn resolve(repo: &Repo, name: &str) -> Option<String> {
        let safe = name.starts_with("refs/") && name.split('/').all(|c| !c.is_empty() && c != "." && c != "..");
        if !safe {
            return None;
        }
        for dir in [&repo.git_dir, &repo.common_dir] {
            if let Some(text) = read_text(&dir.join(name)) {
                let id = text.trim();
                return is_object_id(id).then(|| id.to_string());
            }
        }
        let packed = read_text(&repo.common_dir.join("packed-refs"))?;
        packed.lines().filter(|l| !l.starts_with(['#', '^'])).find_map(|l| {
            let (id, r) = l.split_once(' ')?;
            (r.trim() == name && is_object_id(id)).then(|| id.to_string())
        })
    }

    /// The commit checked out in the repository holding `first`, with `-dirty` when one of
    /// `files` is not in the index or its content differs from the index's blob.
    pub fn revision(first: &Path, files: &[&Path]) -> Option<String> {
        let dir = first.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let repo = find(dir)?;
        let head = read_text(&repo.git_dir.join("HEAD"))?;
        let head = head.trim();
        let commit = match head.strip_prefix("ref:") {
            Some(name) => resolve(&repo, name.trim())?,
            None if is_object_id(head) => head.to_string(),
            None => return None,
        };
        let dirty = match read_small(&repo.git_dir.join("index")).and_then(|i| index_entries(&i)) {
            Some(index) => files.iter().any(|f| {
                let relative = std::fs::canonicalize(f)
                    .ok()
                    .and_then(|abs| abs.strip_prefix(&repo.work_tree).ok().map(|r| r.to_string_lossy().into_owned()));
                let content = crate::scenario::read_source(f).ok();
                match (relative.and_then(|r| index.get(&r).cloned()), content) {
                    (Some(id), Some(content)) => blob_id(content.as_bytes()) != id,
                    _ => true,
                }
            }),
            // No index (or one this reader doesn't know): the revision is the commit alone.
            None => false,
        };
        Some(if dirty { format!("{commit}-dirty") } else { commit })
    }

    /// Git's SHA-1 object id of a blob with `content`, in hex.
    fn blob_id(content: &[u8]) -> String {
        let mut hash = sha1_smol::Sha1::new();
        hash.update(format!("blob {}\0", content.len()).as_bytes());
        hash.update(content);
        hash.digest().to_string()
    }

    /// Path → blob id (hex) of the entries of a git index file (versions 2 to 4, SHA-1).
    fn index_entries(data: &[u8]) -> Option<std::collections::HashMap<String, String>> {
        let u32_at = |at: usize| data.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        if data.get(..4)? != b"DIRC" {
            return None;
        }
        let version = u32_at(4)?;
        if !(2..=4).contains(&version) {
            return None;
        }
        let count = u32_at(8)? as usize;
        let mut at = 12;
        let mut previous = Vec::<u8>::new();
        let mut out = std::collections::HashMap::new();
        for _ in 0..count {
            let start = at;
            let id: String = data.get(at + 40..at + 60)?.iter().map(|b| format!("{b:02x}")).collect();
            let flags = u16::from_be_bytes([*data.get(at + 60)?, *data.get(at + 61)?]);
            at += 62;
            if version >= 3 && flags & 0x4000 != 0 {
                at += 2;
            }
            let path = if version == 4 {
                // A varint: how many bytes of the previous path to drop, then the rest, NUL-ended.
                let mut strip = 0usize;
                loop {
                    let b = *data.get(at)?;
                    at += 1;
                    strip = (strip << 7) | usize::from(b & 0x7f);
                    if b & 0x80 == 0 {
                        break;
                    }
                    strip += 1;
                }
                let end = at + data.get(at..)?.iter().position(|&b| b == 0)?;
                let mut path = previous.get(..previous.len().checked_sub(strip)?)?.to_vec();
                path.extend_from_slice(&data[at..end]);
                at = end + 1;
                path
            } else {
                let end = at + data.get(at..)?.iter().position(|&b| b == 0)?;
                let path = data[at..end].to_vec();
                // Entries are padded with NULs to a multiple of 8 bytes.
                at = start + (end - start + 8) / 8 * 8;
                path
            };
            previous = path.clone();
            out.insert(String::from_utf8_lossy(&path).into_owned(), id);
        }
        Some(out)
    }
}

/// Writes `contents` to `path` whole or not at all, and never through anything but a regular
/// file: a symlink, a folder or a device at `path` is refused (not followed, not replaced). The
/// contents go to a new file in the same folder, created exclusively — on Linux an unnamed one
/// (`O_TMPFILE`), so a write killed part-way leaves nothing behind — which is then renamed over
/// the target. On failure no temporary file is left.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    write_atomic_checked(path, contents.as_bytes(), &|| {})
}

/// [`write_atomic`], calling `before_naming` once the contents are written and synced but before
/// the file has a name (tests look at the folder then).
fn write_atomic_checked(path: &Path, contents: &[u8], before_naming: &dyn Fn()) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => m.permissions().mode() & 0o7777,
        Ok(m) => {
            let what = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a folder"
            } else {
                "a special file (device, FIFO or socket)"
            };
            return Err(std::io::Error::other(format!(
                "{what}, not a regular file: refusing to write a report over it"
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0o644,
        Err(e) => return Err(e),
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "report".into());
    let prefix = format!(".{name}.");
    let fill = |file: &mut std::fs::File| -> std::io::Result<()> {
        file.write_all(contents)?;
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        file.sync_all()
    };
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{AtFlags, CWD, Mode, OFlags};
        let unnamed = rustix::fs::openat(
            CWD,
            dir,
            OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        );
        if let Ok(fd) = unnamed {
            let mut file = std::fs::File::from(fd);
            fill(&mut file)?;
            before_naming();
            use std::os::fd::AsRawFd;
            let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
            // A fresh name, taken exclusively (a link never replaces an existing file).
            let named = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").make_in(dir, |tmp| {
                rustix::fs::linkat(CWD, proc_path.as_str(), CWD, tmp, AtFlags::SYMLINK_FOLLOW).map_err(Into::into)
            });
            if let Ok(named) = named {
                return named.persist(path).map(drop).map_err(|e| e.error);
            }
            // Without /proc to name it by, fall back to a named temporary file.
        }
    }
    let mut tmp = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir)?;
    fill(tmp.as_file_mut())?;
    before_naming();
    tmp.persist(path).map(drop).map_err(|e| e.error)
}

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
fn is_unsafe_char(c: char) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Until the contents are whole and synced, the folder holds no file of the report's: a write
    /// killed part-way leaves nothing behind (on Linux, where the file is unnamed until then).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_report_has_no_name_in_the_folder_until_it_is_whole() {
        let dir = std::env::temp_dir().join(format!("mtg-oracle-unnamed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("report.json");
        let listing = || std::fs::read_dir(&dir).unwrap().count();
        let seen = std::cell::Cell::new(usize::MAX);
        write_atomic_checked(&target, b"whole\n", &|| seen.set(listing())).unwrap();
        assert_eq!(seen.get(), 0, "a file was named before the report was whole");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "whole\n");
        assert_eq!(listing(), 1, "only the report is left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
