//! Rules coverage: which scenarios exercise each clause and ruling of the rules index, and the
//! gate that fails when one of them has no passing scenario (`mtg-oracle coverage`).
//!
//! Every scenario is run exactly as `mtg-oracle run` runs it ([`crate::runner::run_file`]); each id in
//! its `rules:` list is then credited with a passing or a failing scenario. A scenario that does
//! not load counts as failing for every id its `rules:` list names (read leniently from the raw
//! YAML); one whose `rules:` can't be read at all is reported on its own and fails the gate, since
//! the coverage it would have given is unknown.
//!
//! An index entry is **OK** when at least the minimum number of scenarios citing it pass (and, for
//! a clause with CR examples, as many passing `cr-example` scenarios cite it and name it in their
//! `source.reference`), **THIN** with fewer, **FAILING** when only failing scenarios cite it,
//! **MISSING** when none does, **NO-EXAMPLE** when the examples are not all covered. A cited id
//! that looks in scope but is not in the index (a typo guard: same rule number as an index clause,
//! or the `R003-`-style prefix of a ruling) also fails the gate.

pub mod index;
pub mod render;

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::cards::CardPool;
use crate::runner::{RunResult, run_file};
use crate::scenario::format::SourceKind;
use crate::scenario::{Loaded, NoSuchPath, collect_files};
pub use index::{Citation, RulesIndex};

/// How many passing scenarios an entry needs to be OK.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Thresholds {
    /// For a CR clause (the CLI's default is 2).
    pub min_clause: usize,
    /// For a ruling or card entry (the CLI's default is 1).
    pub min_ruling: usize,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds { min_clause: 2, min_ruling: 1 }
    }
}

/// The coverage status of one index entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub enum Status {
    /// Enough passing scenarios (and CR examples covered).
    #[serde(rename = "OK")]
    Ok,
    /// Fewer passing scenarios than the minimum.
    #[serde(rename = "THIN")]
    Thin,
    /// Cited only by failing scenarios.
    #[serde(rename = "FAILING")]
    Failing,
    /// The clause prints examples in the CR that no passing `cr-example` scenario covers.
    #[serde(rename = "NO-EXAMPLE")]
    NoExample,
    /// No scenario cites it.
    #[serde(rename = "MISSING")]
    Missing,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 5] = [Status::Ok, Status::Thin, Status::Failing, Status::NoExample, Status::Missing];

    /// The label printed in reports.
    pub fn label(self) -> &'static str {
        match self {
            Status::Ok => "OK",
            Status::Thin => "THIN",
            Status::Failing => "FAILING",
            Status::NoExample => "NO-EXAMPLE",
            Status::Missing => "MISSING",
        }
    }

    /// Decides the status from the counts; a lack of passing scenarios is reported before a lack
    /// of examples.
    pub fn of(passing: usize, failing: usize, minimum: usize, examples: usize, examples_found: usize) -> Status {
        if passing == 0 && failing == 0 {
            Status::Missing
        } else if passing == 0 {
            Status::Failing
        } else if passing < minimum {
            Status::Thin
        } else if examples_found < examples {
            Status::NoExample
        } else {
            Status::Ok
        }
    }
}

/// What the coverage report needs to know about one scenario file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ScenarioRecord {
    /// Its id (the path it was loaded from).
    pub id: String,
    /// Whether it passed (loaded, every expectation held).
    pub passed: bool,
    /// The ids its `rules:` list cites.
    pub rules: Vec<String>,
    /// Whether its `source.kind` is `cr-example`.
    pub cr_example: bool,
    /// Its `source.reference`.
    pub reference: String,
    /// Why it failed (the first located failure or load error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
    /// True when not even its `rules:` list could be read.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rules_unreadable: bool,
}

impl ScenarioRecord {
    /// Runs the scenario file like `mtg-oracle run` and records the result. Never fails: a file
    /// that does not load is a failing record.
    pub fn run(path: &Path, pool: &CardPool) -> ScenarioRecord {
        match run_file(path, pool) {
            RunResult::Pass { loaded, .. } => ScenarioRecord::from_loaded(&loaded, None),
            RunResult::Fail { loaded, failures } => {
                let problem = failures.first().map_or_else(|| "failed".to_string(), ToString::to_string);
                ScenarioRecord::from_loaded(&loaded, Some(problem))
            }
            RunResult::Invalid(e) => ScenarioRecord::unloadable(path, e.to_string()),
        }
    }

    fn from_loaded(loaded: &Loaded, problem: Option<String>) -> ScenarioRecord {
        let source = &loaded.scenario.source;
        ScenarioRecord {
            id: loaded.id.clone(),
            passed: problem.is_none(),
            rules: loaded.scenario.rules.clone(),
            cr_example: source.kind == SourceKind::CrExample,
            reference: source.reference.clone(),
            problem,
            rules_unreadable: false,
        }
    }

    /// A scenario that failed to load: its citations are read from the raw YAML where possible.
    fn unloadable(path: &Path, problem: String) -> ScenarioRecord {
        // Read as a scenario is (regular files only, size and depth limits), so a hostile file
        // costs no more here than it did when it failed to load.
        let value = crate::scenario::read_source(path)
            .ok()
            .filter(|text| crate::scenario::too_deep(text, crate::scenario::MAX_YAML_DEPTH).is_none())
            .and_then(|text| serde_yaml::from_str::<serde_yaml::Value>(&text).ok());
        let rules = value
            .as_ref()
            .and_then(|v| v.get("rules"))
            .and_then(|r| r.as_sequence())
            .map(|items| items.iter().filter_map(|i| i.as_str().map(str::to_string)).collect::<Vec<_>>());
        let reference = value
            .as_ref()
            .and_then(|v| v.get("source"))
            .and_then(|s| s.get("reference"))
            .and_then(|r| r.as_str())
            .unwrap_or_default()
            .to_string();
        ScenarioRecord {
            id: path.display().to_string(),
            passed: false,
            rules_unreadable: rules.is_none(),
            rules: rules.unwrap_or_default(),
            cr_example: false,
            reference,
            problem: Some(problem),
        }
    }

    /// Whether this scenario covers a CR example printed under `clause`: it passes, is a
    /// `cr-example`, cites the clause and names it in its reference.
    pub fn covers_example_of(&self, clause: &str) -> bool {
        self.passed && self.cr_example && self.rules.iter().any(|r| r == clause) && mentions(&self.reference, clause)
    }
}

/// True when `text` names `id` as a whole token (`CR 701.23b example` names 701.23b, not 701.23).
fn mentions(text: &str, id: &str) -> bool {
    text.match_indices(id).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + id.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '.')
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

/// Whether an entry is a CR clause or a ruling.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A CR clause.
    Clause,
    /// A card ruling or a piece of a seed card.
    Ruling,
}

/// The coverage of one index entry.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntryReport {
    /// The index id.
    pub id: String,
    /// Clause or ruling.
    pub kind: EntryKind,
    /// The section it is grouped under.
    pub section: String,
    /// Its status.
    pub status: Status,
    /// Passing scenarios that cite it.
    pub passing: Vec<String>,
    /// Failing scenarios that cite it.
    pub failing: Vec<String>,
    /// The minimum number of passing scenarios.
    pub minimum: usize,
    /// CR examples printed under the clause.
    pub examples: usize,
    /// Passing `cr-example` scenarios that cover them.
    pub example_scenarios: Vec<String>,
}

/// A scenario citation that looks in scope but is not in the index.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UnknownCitation {
    /// The citing scenario.
    pub scenario: String,
    /// The cited id.
    pub id: String,
    /// The closest index id, if any is close.
    pub did_you_mean: Option<String>,
}

/// Counts for the summary line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Clauses that are OK.
    pub clauses_ok: usize,
    /// Clauses in the index.
    pub clauses: usize,
    /// Rulings that are OK.
    pub rulings_ok: usize,
    /// Rulings in the index.
    pub rulings: usize,
    /// Scenarios run.
    pub scenarios: usize,
    /// Scenarios that passed.
    pub scenarios_passed: usize,
    /// Whether the gate passes.
    pub gate_passes: bool,
}

/// The coverage report.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// The CR version the index was checked against.
    pub checked_against: String,
    /// The minimums used.
    pub thresholds: Thresholds,
    /// The counts.
    pub summary: Summary,
    /// One per index entry, in index order (clauses, then rulings).
    pub entries: Vec<EntryReport>,
    /// Citations that look like typos.
    pub unknown_citations: Vec<UnknownCitation>,
    /// Every scenario run.
    pub scenarios: Vec<ScenarioRecord>,
}

impl Report {
    /// Maps every index entry to the scenarios citing it.
    pub fn measure(index: &RulesIndex, scenarios: Vec<ScenarioRecord>, thresholds: Thresholds) -> Report {
        let mut citing: BTreeMap<&str, (Vec<String>, Vec<String>)> = BTreeMap::new();
        let mut unknown_citations = Vec::new();
        for s in &scenarios {
            let mut cited: Vec<&str> = s.rules.iter().map(String::as_str).collect();
            cited.sort_unstable();
            cited.dedup();
            for id in cited {
                match index.classify(id) {
                    Citation::InScope => {
                        let (pass, fail) = citing.entry(id).or_default();
                        if s.passed { pass } else { fail }.push(s.id.clone());
                    }
                    Citation::Unknown => unknown_citations.push(UnknownCitation {
                        scenario: s.id.clone(),
                        id: id.to_string(),
                        did_you_mean: index.closest(id).map(str::to_string),
                    }),
                    Citation::OutOfScope | Citation::Other => {}
                }
            }
        }
        let entry = |id: &str, kind, section: &str, minimum: usize, examples: usize| {
            let (passing, failing) = citing.get(id).cloned().unwrap_or_default();
            let example_scenarios: Vec<String> = if examples == 0 {
                Vec::new()
            } else {
                scenarios.iter().filter(|s| s.covers_example_of(id)).map(|s| s.id.clone()).collect()
            };
            EntryReport {
                id: id.to_string(),
                kind,
                section: section.to_string(),
                status: Status::of(passing.len(), failing.len(), minimum, examples, example_scenarios.len()),
                passing,
                failing,
                minimum,
                examples,
                example_scenarios,
            }
        };
        let entries: Vec<EntryReport> = index
            .clauses
            .iter()
            .map(|c| entry(&c.id, EntryKind::Clause, &c.section, thresholds.min_clause, c.examples))
            .chain(index.rulings.iter().map(|r| entry(&r.id, EntryKind::Ruling, &r.section, thresholds.min_ruling, 0)))
            .collect();
        let ok = |kind| entries.iter().filter(|e| e.kind == kind && e.status == Status::Ok).count();
        let gate_passes = entries.iter().all(|e| e.status == Status::Ok)
            && unknown_citations.is_empty()
            && scenarios.iter().all(|s| !s.rules_unreadable);
        let summary = Summary {
            clauses_ok: ok(EntryKind::Clause),
            clauses: index.clauses.len(),
            rulings_ok: ok(EntryKind::Ruling),
            rulings: index.rulings.len(),
            scenarios: scenarios.len(),
            scenarios_passed: scenarios.iter().filter(|s| s.passed).count(),
            gate_passes,
        };
        Report {
            checked_against: index.checked_against.clone(),
            thresholds,
            summary,
            entries,
            unknown_citations,
            scenarios,
        }
    }

    /// Scenarios whose `rules:` list could not be read at all.
    pub fn unreadable(&self) -> impl Iterator<Item = &ScenarioRecord> {
        self.scenarios.iter().filter(|s| s.rules_unreadable)
    }

    /// Whether the coverage gate passes.
    pub fn gate_passes(&self) -> bool {
        self.summary.gate_passes
    }
}

/// Runs every scenario file under `paths` and measures the index's coverage.
pub fn measure_paths(
    index: &RulesIndex,
    paths: &[PathBuf],
    pool: &CardPool,
    thresholds: Thresholds,
) -> Result<Report, NoSuchPath> {
    let files = collect_files(paths)?;
    let records = files.iter().map(|f| ScenarioRecord::run(f, pool)).collect();
    Ok(Report::measure(index, records, thresholds))
}

/// The options of `mtg-oracle coverage`.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Scenario files or folders.
    pub paths: Vec<PathBuf>,
    /// An index file to use instead of the bundled one.
    pub index: Option<PathBuf>,
    /// The minimums.
    pub thresholds: Thresholds,
    /// Where to write the report as markdown.
    pub markdown: Option<PathBuf>,
    /// Where to write the report as JSON.
    pub json: Option<PathBuf>,
}

/// `mtg-oracle coverage`: prints the coverage table to `out` (errors to `err`) and returns the
/// exit status: 0 when the gate passes, 1 when it fails, 2 for an invalid index, a scenario path
/// that does not exist, or a report that can't be written.
pub fn command(options: &Options, pool: &CardPool, out: &mut dyn Write, err: &mut dyn Write) -> u8 {
    let index = match &options.index {
        Some(path) => RulesIndex::load_file(path),
        None => RulesIndex::bundled(),
    };
    let index = match index {
        Ok(i) => i,
        Err(e) => {
            let _ = writeln!(err, "{e}");
            return 2;
        }
    };
    let report = match measure_paths(&index, &options.paths, pool, options.thresholds) {
        Ok(r) => r,
        Err(e) => {
            let _ = writeln!(err, "error: {e}");
            return 2;
        }
    };
    let _ = write!(out, "{}", render::text(&report));
    let mut status = if report.gate_passes() { 0 } else { 1 };
    if let Some(path) = &options.markdown
        && let Err(e) = write_whole(path, &render::markdown(&report))
    {
        let _ = writeln!(err, "error: {}: can't write the markdown report: {e}", path.display());
        status = 2;
    }
    if let Some(path) = &options.json {
        let json = serde_json::to_string_pretty(&report).map_err(std::io::Error::other);
        if let Err(e) = json.and_then(|j| write_whole(path, &(j + "\n"))) {
            let _ = writeln!(err, "error: {}: can't write the JSON report: {e}", path.display());
            status = 2;
        }
    }
    status
}

/// Writes a file whole or not at all, never through a symlink or over a special file: as
/// `check`'s reports are ([`crate::check::report::write_atomic`]).
pub fn write_whole(path: &Path, contents: &str) -> std::io::Result<()> {
    crate::check::report::write_atomic(path, contents)
}
