//! The HTML conformance page: one self-contained file (its CSS and script inline, nothing fetched,
//! so it works from `file://`) built from one or more JSON reports of `check`.
//!
//! It shows a summary per engine (pass rate, counts per status), the clause × engine matrix as a
//! heat map (each clause's one-line summary from the rules index on hover — our own words, never
//! CR text), filters by clause, status, tag and engine, and every result; a FAIL's row opens onto
//! its verdict, the cards out of place and the observed zones beside the closest legal ones.
//!
//! Everything a report holds is untrusted (scenario ids, card names, engine output): every text
//! is HTML-escaped here, and the script reads only `data-` attributes and writes only
//! `textContent`, classes and styles.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Deserialize;

use super::ZoneSides;
// XML escaping is HTML escaping too (`&apos;` is an HTML5 entity), in content and quoted attributes.
use super::junit::xml as esc;
use crate::check::{CheckRun, Status, Verdict1};

const STYLE: &str = include_str!("html.css");
const SCRIPT: &str = include_str!("html.js");

/// The clause a scenario citing none is listed under.
const NO_CLAUSE: &str = "(none)";

/// A JSON report of `check` as the page reads it: every field optional, so reports written by
/// older versions (without tags or zones, say) still read.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SavedRun {
    /// The engine as it introduced itself.
    pub engine: Option<SavedEngine>,
    /// The command that started it.
    pub engine_command: String,
    /// `scripted` or `free`.
    pub mode: String,
    /// Which corpus ran.
    pub corpus: SavedCorpus,
    /// The partition, as `i/n`.
    pub partition: Option<String>,
    /// Per scenario.
    pub scenarios: Vec<SavedResult>,
    /// Total wall time in seconds.
    pub seconds: f64,
}

/// The engine's name and version.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SavedEngine {
    /// Its name.
    pub name: String,
    /// Its version.
    pub version: String,
}

/// Which corpus ran.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct SavedCorpus {
    /// The git revision, if any.
    pub revision: Option<String>,
    /// The digest of the scenario files.
    pub digest: String,
}

/// One scenario's result.
#[derive(Debug, Clone, Deserialize)]
pub struct SavedResult {
    /// The scenario's id (its path).
    pub id: String,
    /// The clauses it cites.
    #[serde(default)]
    pub rules: Vec<String>,
    /// Its tags.
    #[serde(default)]
    pub tags: Vec<String>,
    /// What happened.
    pub status: Status,
    /// How the baseline judged it (`expected`, `known_failure`, …).
    #[serde(default)]
    pub gate: String,
    /// For FAIL: the differences, the main one first.
    #[serde(default)]
    pub verdict: Vec<Verdict1>,
    /// Why, for every status but PASS.
    #[serde(default)]
    pub message: String,
    /// What the engine doesn't report, so wasn't checked.
    #[serde(default)]
    pub unobserved: Vec<String>,
    /// For FAIL: the observed and the closest legal zones.
    #[serde(default)]
    pub zones: Option<ZoneSides>,
    /// For UNSUPPORTED: the engine's link.
    #[serde(default)]
    pub link: Option<String>,
    /// For ERROR and TIMEOUT: the engine's last stderr lines.
    #[serde(default)]
    pub stderr_tail: Vec<String>,
}

/// A JSON report that can't be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    /// What is wrong, with the position in the JSON.
    pub message: String,
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "not a JSON report of `mtg-oracle check --json`: {}", self.message)
    }
}

impl std::error::Error for ReadError {}

impl SavedRun {
    /// Reads a JSON report of `check`.
    pub fn parse(text: &str) -> Result<SavedRun, ReadError> {
        serde_json::from_str(text).map_err(|e| ReadError { message: e.to_string() })
    }

    /// The run as the page reads it (what its JSON report says).
    pub fn of(run: &CheckRun) -> SavedRun {
        serde_json::to_value(run)
            .ok()
            .and_then(|v| serde_json::from_value(v).ok())
            .unwrap_or_else(|| SavedRun { engine_command: run.engine_command.clone(), ..SavedRun::default() })
    }

    /// The engine as a column head: name and version (else its command), and the mode.
    fn label(&self) -> String {
        let engine = match &self.engine {
            Some(e) => format!("{} {}", e.name, e.version).trim().to_string(),
            None => self.engine_command.clone(),
        };
        let engine = if engine.is_empty() { "engine".to_string() } else { engine };
        if self.mode.is_empty() { engine } else { format!("{engine} · {}", self.mode) }
    }

    fn count(&self, status: Status) -> usize {
        self.scenarios.iter().filter(|s| s.status == status).count()
    }
}

/// The clause summaries the page shows on hover: the rules index's, in the project's own words
/// (the caller reads the index: `check` sits below `coverage`).
#[derive(Debug, Clone, Default)]
pub struct ClauseSummaries {
    /// The CR version the summaries were checked against.
    pub checked_against: String,
    /// Clause or ruling id → its one-line summary (with its section).
    pub by_id: BTreeMap<String, String>,
}

/// The page for one run of `check` (`check --html`).
pub fn html_of_run(run: &CheckRun, summaries: &ClauseSummaries) -> String {
    html(&[SavedRun::of(run)], summaries)
}

/// The conformance page for `runs` (one column of the matrix each), with `summaries` on hover.
pub fn html(runs: &[SavedRun], summaries: &ClauseSummaries) -> String {
    let labels = labels(runs);
    let mut out = String::with_capacity(64 * 1024);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    // Nothing may be fetched: the page stands alone, also as a file.
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; \
         script-src 'unsafe-inline'; img-src data:\">\n",
    );
    out.push_str("<title>mtg-oracle conformance</title>\n<style>\n");
    out.push_str(STYLE);
    out.push_str("</style>\n</head>\n<body>\n");
    // First, so an error anywhere later in the page is counted (the browser test reads it).
    out.push_str(
        "<script>window.addEventListener('error', function () { var d = document.documentElement; \
         d.dataset.errors = String(Number(d.dataset.errors || 0) + 1); });</script>\n",
    );
    out.push_str("<header><h1>mtg-oracle conformance</h1>\n");
    if !summaries.checked_against.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"note\">Clause summaries on hover are the project's own words (rules index checked \
             against {}); read the Comprehensive Rules for the text.</p>",
            esc(&summaries.checked_against)
        );
    }
    out.push_str("</header>\n");
    let summaries = &summaries.by_id;
    summary_section(&mut out, runs, &labels);
    filters_section(&mut out, runs, &labels);
    matrix_section(&mut out, runs, &labels, summaries);
    results_section(&mut out, runs, &labels, summaries);
    out.push_str("<script>\n");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body>\n</html>\n");
    out
}

/// One label per run; runs that would share one are told apart by their position.
fn labels(runs: &[SavedRun]) -> Vec<String> {
    let plain: Vec<String> = runs.iter().map(SavedRun::label).collect();
    plain
        .iter()
        .enumerate()
        .map(
            |(i, l)| if plain.iter().filter(|o| *o == l).count() > 1 { format!("{l} (#{})", i + 1) } else { l.clone() },
        )
        .collect()
}

/// The clauses a result is listed under.
fn clauses_of(r: &SavedResult) -> Vec<&str> {
    if r.rules.is_empty() {
        return vec![NO_CLAUSE];
    }
    let set: BTreeSet<&str> = r.rules.iter().map(String::as_str).collect();
    set.into_iter().collect()
}

/// Whether a status counts toward the pass rate: the engine ran the scenario (it didn't answer
/// UNSUPPORTED, and the scenario file is valid).
fn was_run(status: Status) -> bool {
    !matches!(status, Status::Unsupported | Status::Invalid)
}

/// The heat colour of a pass rate (red at 0, green at 1); the script computes the same.
fn heat(passed: usize, run: usize) -> String {
    if run == 0 {
        return "#e4e4e4".into();
    }
    format!("hsl({}, 65%, 72%)", (120.0 * passed as f64 / run as f64).round() as i64)
}

fn rate(passed: usize, run: usize) -> String {
    if run == 0 { "—".into() } else { format!("{:.1}%", 100.0 * passed as f64 / run as f64) }
}

fn summary_section(out: &mut String, runs: &[SavedRun], labels: &[String]) {
    out.push_str("<section id=\"summary\"><h2>Engines</h2>\n<table id=\"engines\">\n<thead><tr><th>engine</th>");
    out.push_str("<th>command</th><th>corpus</th><th>scenarios</th>");
    for s in Status::ALL {
        let _ = write!(out, "<th>{s}</th>");
    }
    out.push_str("<th>pass rate (of those run)</th></tr></thead>\n<tbody>\n");
    for (i, (run, label)) in runs.iter().zip(labels).enumerate() {
        let ran = run.scenarios.iter().filter(|r| was_run(r.status)).count();
        let passed = run.count(Status::Pass);
        let corpus = format!(
            "{} ({})",
            run.corpus.revision.as_deref().unwrap_or("not in git"),
            if run.corpus.digest.is_empty() { "no digest" } else { &run.corpus.digest }
        );
        let _ = write!(
            out,
            "<tr data-engine=\"{i}\"><th scope=\"row\">{}</th><td><code>{}</code></td><td>{}</td><td class=\"n\">{}</td>",
            esc(label),
            esc(&run.engine_command),
            esc(&corpus),
            run.scenarios.len()
        );
        for s in Status::ALL {
            let _ = write!(out, "<td class=\"n st-{s}\" data-status=\"{s}\">{}</td>", run.count(s));
        }
        let _ = writeln!(
            out,
            "<td class=\"n rate\" style=\"background: {}\">{}</td></tr>",
            heat(passed, ran),
            rate(passed, ran)
        );
    }
    out.push_str("</tbody></table></section>\n");
}

fn filters_section(out: &mut String, runs: &[SavedRun], labels: &[String]) {
    out.push_str("<section id=\"filters\"><h2>Filters</h2>\n<form id=\"filter-form\" onsubmit=\"return false\">\n");
    out.push_str(
        "<label>Clause <input id=\"f-clause\" type=\"search\" list=\"clause-list\" placeholder=\"e.g. 701.23\" \
         autocomplete=\"off\"></label>\n",
    );
    let all_clauses: BTreeSet<&str> = runs.iter().flat_map(|r| r.scenarios.iter().flat_map(clauses_of)).collect();
    out.push_str("<datalist id=\"clause-list\">");
    for c in sorted_clauses(all_clauses.iter().copied()) {
        let _ = write!(out, "<option value=\"{}\">", esc(c));
    }
    out.push_str("</datalist>\n<fieldset id=\"f-status\"><legend>Status</legend>\n");
    for s in Status::ALL {
        let _ = writeln!(out, "<label><input type=\"checkbox\" value=\"{s}\" checked> {s}</label>");
    }
    out.push_str("</fieldset>\n<label>Tag <select id=\"f-tag\"><option value=\"\">any</option>");
    let tags: BTreeSet<&str> =
        runs.iter().flat_map(|r| r.scenarios.iter().flat_map(|s| s.tags.iter().map(String::as_str))).collect();
    for t in tags {
        let _ = write!(out, "<option value=\"{0}\">{0}</option>", esc(t));
    }
    out.push_str("</select></label>\n<label>Engine <select id=\"f-engine\"><option value=\"\">all</option>");
    for (i, l) in labels.iter().enumerate() {
        let _ = write!(out, "<option value=\"{i}\">{}</option>", esc(l));
    }
    out.push_str("</select></label>\n<button type=\"reset\" id=\"f-reset\">Clear</button>\n</form>\n");
    out.push_str("<p id=\"shown\" class=\"note\"></p></section>\n");
}

/// Per clause and engine: how many results citing it passed, how many ran, and the count per status.
type Cell = (usize, usize, BTreeMap<Status, usize>);

fn matrix_section(out: &mut String, runs: &[SavedRun], labels: &[String], summaries: &BTreeMap<String, String>) {
    let mut matrix: BTreeMap<&str, Vec<Cell>> = BTreeMap::new();
    for (e, run) in runs.iter().enumerate() {
        for r in &run.scenarios {
            for c in clauses_of(r) {
                let cells = matrix.entry(c).or_insert_with(|| vec![Cell::default(); runs.len()]);
                let cell = &mut cells[e];
                cell.0 += usize::from(r.status == Status::Pass);
                cell.1 += usize::from(was_run(r.status));
                *cell.2.entry(r.status).or_default() += 1;
            }
        }
    }
    out.push_str("<section id=\"matrix\"><h2>Clause × engine</h2>\n");
    out.push_str(
        "<p class=\"note\">Each cell: scenarios citing the clause that passed / that the engine ran (UNSUPPORTED \
         and INVALID aside), coloured from red (none pass) to green (all pass). Hover a clause for its summary; \
         click a cell to list its results.</p>\n",
    );
    out.push_str("<table id=\"heat\">\n<thead><tr><th>clause</th>");
    for l in labels {
        let _ = write!(out, "<th scope=\"col\">{}</th>", esc(l));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for clause in sorted_clauses(matrix.keys().copied()) {
        let summary = summaries.get(clause).map_or("(not in the rules index)", String::as_str);
        let _ = write!(
            out,
            "<tr data-clause=\"{0}\"><th scope=\"row\" title=\"{1}\">{0}</th>",
            esc(clause),
            esc(&format!("{clause} — {summary}"))
        );
        for (e, (passed, ran, by_status)) in matrix[clause].iter().enumerate() {
            let counts: Vec<String> = by_status.iter().map(|(s, n)| format!("{s} {n}")).collect();
            let title = format!(
                "{clause} — {summary}\n{}: {}",
                labels[e],
                if counts.is_empty() { "no scenario".to_string() } else { counts.join(", ") }
            );
            let text =
                if ran + by_status.values().sum::<usize>() == 0 { "·".to_string() } else { format!("{passed}/{ran}") };
            let _ = write!(
                out,
                "<td class=\"cell\" data-engine=\"{e}\" title=\"{}\" style=\"background: {}\">{text}</td>",
                esc(&title),
                heat(*passed, *ran)
            );
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody></table></section>\n");
}

fn results_section(out: &mut String, runs: &[SavedRun], labels: &[String], summaries: &BTreeMap<String, String>) {
    out.push_str("<section id=\"results\"><h2>Results</h2>\n<table id=\"list\">\n");
    out.push_str("<thead><tr><th>engine</th><th>status</th><th>scenario</th><th>clauses</th><th>tags</th>");
    out.push_str("<th>what happened</th></tr></thead>\n<tbody>\n");
    for (e, run) in runs.iter().enumerate() {
        for r in &run.scenarios {
            result_row(out, e, &labels[e], r, summaries);
        }
    }
    out.push_str("</tbody></table></section>\n");
}

fn result_row(out: &mut String, engine: usize, label: &str, r: &SavedResult, summaries: &BTreeMap<String, String>) {
    let clauses = clauses_of(r);
    let json = |v: &[&str]| serde_json::to_string(v).unwrap_or_else(|_| "[]".into());
    let tags: Vec<&str> = r.tags.iter().map(String::as_str).collect();
    let _ = write!(
        out,
        "<tr class=\"result\" data-engine=\"{engine}\" data-status=\"{}\" data-clauses=\"{}\" data-tags=\"{}\">",
        r.status,
        esc(&json(&clauses)),
        esc(&json(&tags))
    );
    let _ = write!(out, "<td>{}</td><td><span class=\"st st-{1}\">{1}</span>", esc(label), r.status);
    match r.gate.as_str() {
        "known_failure" => out.push_str(" <span class=\"gate\" title=\"the baseline expects it\">known</span>"),
        "unexpected_failure" | "unexpected_pass" => {
            out.push_str(" <span class=\"gate new\" title=\"the baseline doesn't expect it\">unexpected</span>")
        }
        _ => {}
    }
    let _ = write!(out, "</td><td class=\"id\">{}</td><td>", esc(&r.id));
    for c in &clauses {
        let summary = summaries.get(*c).map_or("(not in the rules index)", String::as_str);
        let _ = write!(out, "<span class=\"clause\" title=\"{}\">{}</span> ", esc(summary), esc(c));
    }
    let _ = write!(out, "</td><td>{}</td><td>", esc(&r.tags.join(", ")));
    if r.status == Status::Fail {
        fail_detail(out, r, summaries);
    } else {
        let _ = write!(out, "<span class=\"msg\">{}</span>", esc(&r.message));
        if let Some(link) = &r.link {
            let _ = write!(out, " <span class=\"link\">{}</span>", esc(link));
        }
        if !r.stderr_tail.is_empty() {
            let _ = write!(
                out,
                "<details><summary>engine stderr</summary><pre>{}</pre></details>",
                esc(&r.stderr_tail.join("\n"))
            );
        }
    }
    if !r.unobserved.is_empty() {
        let _ = write!(out, "<div class=\"note\">not checked: {}</div>", esc(&r.unobserved.join(", ")));
    }
    out.push_str("</td></tr>\n");
}

/// A FAIL's detail: the main difference, the rest of the verdict, the cards out of place, and the
/// zones side by side.
fn fail_detail(out: &mut String, r: &SavedResult, summaries: &BTreeMap<String, String>) {
    let main = r.verdict.first();
    match main {
        Some(d) => {
            let _ = write!(
                out,
                "<div class=\"minimal\"><b>minimal difference</b> <span class=\"clause\" title=\"{}\">{}</span>: {}</div>",
                esc(summaries.get(&d.clause).map_or("", String::as_str)),
                esc(&d.clause),
                esc(&d.message)
            );
        }
        None => {
            let _ = write!(out, "<div class=\"minimal\">{}</div>", esc(&r.message));
        }
    }
    out.push_str("<details class=\"fail\"><summary>verdict and zones</summary>\n<ol class=\"verdict\">");
    for d in &r.verdict {
        let _ = write!(out, "<li><span class=\"clause\">{}</span>: {}</li>", esc(&d.clause), esc(&d.message));
    }
    out.push_str("</ol>\n");
    match &r.zones {
        Some(zones) => zone_sides(out, zones),
        None => out.push_str("<p class=\"note\">This report has no zones for this FAIL.</p>"),
    }
    out.push_str("</details>");
}

/// Where each card is on each side, for the cards whose zone differs: `card: legal → observed`.
fn moved_cards(z: &ZoneSides) -> Vec<(String, String, String)> {
    let place = |zones: &BTreeMap<String, Vec<String>>| -> BTreeMap<String, String> {
        zones.iter().flat_map(|(zone, cards)| cards.iter().map(move |c| (c.clone(), zone.clone()))).collect()
    };
    let (legal, observed) = (place(&z.legal), place(&z.observed));
    let cards: BTreeSet<&String> = legal.keys().chain(observed.keys()).collect();
    let nowhere = "(nowhere)".to_string();
    cards
        .into_iter()
        .filter_map(|c| {
            let (l, o) = (legal.get(c).unwrap_or(&nowhere), observed.get(c).unwrap_or(&nowhere));
            (l != o).then(|| (c.clone(), l.clone(), o.clone()))
        })
        .collect()
}

fn zone_sides(out: &mut String, z: &ZoneSides) {
    let moved = moved_cards(z);
    if moved.is_empty() {
        out.push_str("<p class=\"note\">Every card is in a zone the closest legal outcome has it in; the difference is in order, the log or the options.</p>");
    } else {
        out.push_str("<p><b>cards out of place</b> (closest legal → observed):</p><ul class=\"moved\">");
        for (card, legal, observed) in &moved {
            let _ = write!(
                out,
                "<li><span class=\"card\">{}</span>: {} → <b>{}</b></li>",
                esc(card),
                esc(legal),
                esc(observed)
            );
        }
        out.push_str("</ul>");
    }
    if z.first_legal_only {
        out.push_str(
            "<p class=\"note\">Too many legal outcomes to find the closest: the legal side is the first one.</p>",
        );
    }
    out.push_str(
        "<table class=\"zones\"><thead><tr><th>zone</th><th>legal (closest)</th><th>observed</th></tr></thead><tbody>",
    );
    let names: BTreeSet<&String> = z.legal.keys().chain(z.observed.keys()).collect();
    let empty = Vec::new();
    for zone in names {
        let (legal, observed) = (z.legal.get(zone).unwrap_or(&empty), z.observed.get(zone).unwrap_or(&empty));
        let differs = if legal == observed { "" } else { " class=\"differs\"" };
        let _ = write!(out, "<tr{differs}><th scope=\"row\">{}</th><td class=\"side legal\">", esc(zone));
        let unordered = z.unordered.get(zone).copied();
        for (i, card) in legal.iter().enumerate() {
            if unordered.is_some_and(|[start, _]| start == i) {
                out.push_str("<span class=\"any-order\" title=\"in any order (shuffled)\">");
            }
            card_span(out, card, !observed.contains(card), "missing");
            if unordered.is_some_and(|[_, end]| end == i + 1) {
                out.push_str("</span>");
            }
        }
        out.push_str("</td><td class=\"side observed\">");
        for card in observed {
            card_span(out, card, !legal.contains(card), "extra");
        }
        out.push_str("</td></tr>");
    }
    out.push_str("</tbody></table>");
}

fn card_span(out: &mut String, card: &str, marked: bool, mark: &str) {
    let class = if marked { format!("card {mark}") } else { "card".to_string() };
    let _ = write!(out, "<span class=\"{class}\">{}</span> ", esc(card));
}

/// Clause ids in reading order: `101.4` before `101.4a` before `701.5a` before `701.13a`, numbers compared as
/// numbers, rulings (`R003-…`) after clauses, `(none)` last.
fn sorted_clauses<'a>(clauses: impl Iterator<Item = &'a str>) -> Vec<&'a str> {
    let mut v: Vec<&str> = clauses.collect();
    v.sort_by_cached_key(|c| natural_key(c));
    v.dedup();
    v
}

/// `(no-digit-start, [(text, number)…])`: runs of digits compared as numbers.
fn natural_key(id: &str) -> (u8, Vec<(String, u64)>) {
    let rank = if id == NO_CLAUSE { 2 } else { u8::from(!id.starts_with(|c: char| c.is_ascii_digit())) };
    let mut parts = Vec::new();
    let mut text = String::new();
    let mut digits = String::new();
    for c in id.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                parts.push((std::mem::take(&mut text), digits.parse().unwrap_or(u64::MAX)));
                digits.clear();
            }
            text.push(c);
        }
    }
    parts.push((text, digits.parse().unwrap_or(0)));
    (rank, parts)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(id: &str, status: Status) -> SavedResult {
        SavedResult {
            id: id.to_string(),
            rules: vec!["701.23a".into()],
            tags: Vec::new(),
            status,
            gate: String::new(),
            verdict: Vec::new(),
            message: String::new(),
            unobserved: Vec::new(),
            zones: None,
            link: None,
            stderr_tail: Vec::new(),
        }
    }

    /// Ids, card names, tags, messages and engine output are untrusted: none reaches the page as
    /// markup, in element content or in an attribute.
    #[test]
    fn hostile_text_is_escaped_everywhere() {
        let hostile = "<script>alert(1)</script>\"'&";
        let mut fail = result(&format!("scenarios/{hostile}.yaml"), Status::Fail);
        fail.rules = vec![hostile.into()];
        fail.tags = vec![hostile.into()];
        fail.verdict = vec![Verdict1 { clause: hostile.into(), message: hostile.into() }];
        fail.message = hostile.into();
        fail.zones = Some(ZoneSides {
            observed: [(format!("{hostile}.hand"), vec![hostile.to_string()])].into(),
            legal: [(format!("{hostile}.library"), vec![hostile.to_string()])].into(),
            ..ZoneSides::default()
        });
        let mut error = result(hostile, Status::Error);
        error.stderr_tail = vec![hostile.into()];
        error.link = Some(format!("javascript:{hostile}"));
        let run = SavedRun {
            engine: Some(SavedEngine { name: hostile.into(), version: hostile.into() }),
            engine_command: hostile.into(),
            mode: hostile.into(),
            scenarios: vec![fail, error],
            ..SavedRun::default()
        };
        let page = html(&[run], &ClauseSummaries::default());
        assert!(!page.contains("<script>alert"), "a hostile name reached the page as markup");
        assert!(!page.contains("\"'&\""), "an unescaped quote could end an attribute");
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;&quot;&apos;&amp;"));
        assert!(!page.contains("href=\"javascript"), "an engine's link is shown, never followed");
        // The page's own scripts: the error counter and the filters.
        assert_eq!(page.matches("<script>").count(), 2);
    }

    /// A report from before tags and zones existed still reads, and its FAIL says it has no zones.
    #[test]
    fn an_old_report_without_tags_or_zones_reads() {
        let old = r#"{"engine":{"name":"x","version":"1"},"engine_command":"x","protocol":3,"mode":"scripted",
            "corpus":{"revision":null,"digest":"fnv1a64:0","scenarios":1},
            "scenarios":[{"id":"a.yaml","rules":["701.23a"],"status":"FAIL","gate":"expected",
            "verdict":[{"clause":"701.23a","message":"wrong"}],"message":"701.23a: wrong","time_ms":1.0}],
            "stale_baseline":[],"seconds":0.1}"#;
        let run = SavedRun::parse(old).unwrap();
        let page = html(&[run], &ClauseSummaries::default());
        assert!(page.contains("This report has no zones for this FAIL."));
        assert!(page.contains("<b>minimal difference</b>"));
        assert!(SavedRun::parse("{\"scenarios\": [{\"id\": 1}]}").is_err());
        assert!(SavedRun::parse("not json").is_err());
    }

    /// The matrix counts passes over the scenarios the engine ran, per engine column, and the
    /// cards out of place name both zones.
    #[test]
    fn matrix_cells_and_moved_cards() {
        let mut a = SavedRun { mode: "scripted".into(), ..SavedRun::default() };
        a.scenarios =
            vec![result("a.yaml", Status::Pass), result("b.yaml", Status::Fail), result("c.yaml", Status::Unsupported)];
        let b = SavedRun { mode: "free".into(), scenarios: vec![result("a.yaml", Status::Pass)], ..a.clone() };
        let page = html(&[a, b], &ClauseSummaries::default());
        assert!(page.contains("data-engine=\"0\" title=\"701.23a — (not in the rules index)\nengine · scripted: PASS 1, FAIL 1, UNSUPPORTED 1\" style=\"background: hsl(60, 65%, 72%)\">1/2</td>"));
        assert!(page.contains(">1/1</td>"));
        let z = ZoneSides {
            legal: [("Bob.hand".to_string(), vec!["forest".to_string()])].into(),
            observed: [("Bob.library".to_string(), vec!["forest".to_string()])].into(),
            ..ZoneSides::default()
        };
        assert_eq!(moved_cards(&z), vec![("forest".into(), "Bob.hand".into(), "Bob.library".into())]);
    }

    #[test]
    fn clauses_sort_as_numbers() {
        let ids = ["701.23b", "R003-11", "(none)", "101.4", "701.5a", "101.4a", "701.23"];
        assert_eq!(
            sorted_clauses(ids.into_iter()),
            ["101.4", "101.4a", "701.5a", "701.23", "701.23b", "R003-11", "(none)"]
        );
    }
}
