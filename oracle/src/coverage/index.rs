//! The rules index (`oracle/rules-index.yaml`): the CR clauses and card rulings in the project's
//! scope, each with a one-line summary, and the CR version they were checked against.
//!
//! Loading validates more than the shape: ids are unique and well formed, every summary is one
//! non-empty line, every clause sits under the rule number its `section` names, and ids a ruling
//! relates to are real entries when they fall under an in-scope rule number, and a `supporting`
//! clause is neither in scope nor under an in-scope rule number. Every error names
//! `file:line:column`.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::scenario::LoadError;
use crate::scenario::locate::{YamlIndex, parse_path};
use crate::yaml::from_yaml;

/// The index bundled with the binary.
pub const BUNDLED_INDEX: &str = include_str!("../../rules-index.yaml");

/// The name the bundled index goes by in error messages.
pub const BUNDLED_INDEX_NAME: &str = "oracle/rules-index.yaml";

/// The rules index file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulesIndex {
    /// The CR version the summaries were checked against, e.g. "Comprehensive Rules, September 25, 2026".
    pub checked_against: String,
    /// In-scope clauses, one per clause that has text (sub-clauses individually).
    pub clauses: Vec<ClauseEntry>,
    /// Clauses under an in-scope rule number that are deliberately left out.
    #[serde(default)]
    pub out_of_scope: Vec<OutOfScope>,
    /// Card rulings and rules-relevant pieces of the seed cards.
    #[serde(default)]
    pub rulings: Vec<RulingEntry>,
    /// Clauses outside the scope that the code relies on and cites (casting, resolving, tokens…).
    /// Not coverage targets: listed so that every clause id in the code is checked against the
    /// index, and a renumbering of the CR fails a test instead of going unnoticed.
    #[serde(default)]
    pub supporting: Vec<SupportingEntry>,
}

/// One in-scope CR clause.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClauseEntry {
    /// The clause number, e.g. `701.24c`.
    pub id: String,
    /// The rule it belongs to: its number, then a title, e.g. `701.24 Shuffle`. The number is the
    /// family of ids the typo guard watches.
    pub section: String,
    /// One line, in our own words.
    pub summary: String,
    /// How many examples the CR prints under this clause; each needs a passing `cr-example`
    /// scenario.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub examples: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A clause left out of scope, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutOfScope {
    /// The clause number.
    pub id: String,
    /// One line: why it is not in scope.
    pub reason: String,
}

/// One card ruling (or rules-relevant piece of a seed card).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulingEntry {
    /// A stable id: seed letter-and-number, a dash, a two-digit ordinal (`R003-11`, `C004-04`).
    pub id: String,
    /// The group it is reported under, e.g. `Seed 003: MKM rulings`.
    pub section: String,
    /// One line, in our own words.
    pub summary: String,
    /// The cards it concerns (empty for a general ruling).
    #[serde(default)]
    pub cards: Vec<String>,
    /// Related CR clauses.
    #[serde(default)]
    pub clauses: Vec<String>,
}

/// A clause outside the scope that the code relies on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportingEntry {
    /// The clause number, e.g. `608.2b`.
    pub id: String,
    /// One line, in our own words: what the clause says, as far as the code relies on it.
    pub summary: String,
}

/// What an id cited by a scenario is, as far as the index can tell.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Citation {
    /// An entry of the index.
    InScope,
    /// Listed under `out_of_scope`.
    OutOfScope,
    /// Looks like an in-scope id (same rule number as an index clause, or same ruling prefix) but
    /// is not in the index: most likely a typo.
    Unknown,
    /// Some other clause (e.g. `603.3b`); the index has nothing to say about it.
    Other,
}

impl RulesIndex {
    /// The index bundled with the binary.
    pub fn bundled() -> Result<RulesIndex, LoadError> {
        RulesIndex::parse(BUNDLED_INDEX_NAME, BUNDLED_INDEX)
    }

    /// Reads and validates an index file.
    pub fn load_file(path: &Path) -> Result<RulesIndex, LoadError> {
        let name = path.display().to_string();
        let source = crate::scenario::read_source(path).map_err(|e| LoadError {
            file: name.clone(),
            line: 1,
            column: 1,
            message: format!("can't read the rules index: {e}"),
        })?;
        if let Some((line, column)) = crate::scenario::too_deep(&source, crate::scenario::MAX_YAML_DEPTH) {
            let message = format!("nested more than {} levels deep; not parsed", crate::scenario::MAX_YAML_DEPTH);
            return Err(LoadError { file: name, line, column, message });
        }
        RulesIndex::parse(&name, &source)
    }

    /// Parses and validates index text; `name` names it in errors.
    pub fn parse(name: &str, source: &str) -> Result<RulesIndex, LoadError> {
        let located = |e: serde_yaml::Error| {
            let (line, column) = e.location().map_or((1, 1), |l| (l.line(), l.column()));
            let message = e.to_string().replacen(&format!(" at line {line} column {column}"), "", 1);
            LoadError { file: name.to_string(), line, column, message: format!("rules index: {message}") }
        };
        // Syntax first, so that a broken line is reported as such rather than as a missing field.
        serde_yaml::from_str::<serde_yaml::Value>(source).map_err(located)?;
        let index: RulesIndex = from_yaml(source).map_err(located)?;
        if let Some((path, message)) = index.problems().into_iter().next() {
            let pos = YamlIndex::parse(source).map(|ix| ix.locate(&parse_path(&path)));
            let (line, column) = pos.map_or((1, 1), |p| (p.line, p.column));
            return Err(LoadError {
                file: name.to_string(),
                line,
                column,
                message: format!("rules index: {path}: {message}"),
            });
        }
        Ok(index)
    }

    /// Semantic problems, each with the path of the node it concerns; empty for a valid index.
    fn problems(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if self.checked_against.trim().is_empty() {
            out.push(("checked_against".into(), "say which CR version the summaries were checked against".into()));
        }
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        let mut unique = |id: &str, path: String, out: &mut Vec<(String, String)>| {
            if let Some(first) = seen.get(id) {
                out.push((path, format!("`{id}` is listed twice (first at {first})")));
            } else {
                seen.insert(id.to_string(), path);
            }
        };
        for (i, c) in self.clauses.iter().enumerate() {
            let at = format!("clauses[{i}]");
            unique(&c.id, format!("{at}.id"), &mut out);
            if !is_clause_id(&c.id) {
                out.push((format!("{at}.id"), format!("`{}` is not a clause number like 701.23 or 701.23b", c.id)));
            }
            match section_number(&c.section) {
                None => out.push((
                    format!("{at}.section"),
                    "a section starts with its rule number, e.g. `701.24 Shuffle`".into(),
                )),
                Some(n) if !in_family(&c.id, n) => out.push((
                    format!("{at}.section"),
                    format!("`{}` is not under rule {n}: the section must start with the clause's rule number", c.id),
                )),
                Some(_) => {}
            }
            check_line(&c.summary, format!("{at}.summary"), &mut out);
        }
        for (i, o) in self.out_of_scope.iter().enumerate() {
            let at = format!("out_of_scope[{i}]");
            unique(&o.id, format!("{at}.id"), &mut out);
            if !is_clause_id(&o.id) {
                out.push((format!("{at}.id"), format!("`{}` is not a clause number", o.id)));
            } else if self.clause_family_of(&o.id).is_none() {
                out.push((
                    format!("{at}.id"),
                    format!("`{}` is not under any in-scope rule number, so it needs no out_of_scope entry", o.id),
                ));
            }
            check_line(&o.reason, format!("{at}.reason"), &mut out);
        }
        for (i, s) in self.supporting.iter().enumerate() {
            let at = format!("supporting[{i}]");
            unique(&s.id, format!("{at}.id"), &mut out);
            if !is_clause_id(&s.id) {
                out.push((format!("{at}.id"), format!("`{}` is not a clause number like 608.2 or 608.2b", s.id)));
            } else if let Some(rule) = self.clause_family_of(&s.id) {
                out.push((
                    format!("{at}.id"),
                    format!("`{}` is under the in-scope rule {rule}: list it under clauses or out_of_scope", s.id),
                ));
            }
            check_line(&s.summary, format!("{at}.summary"), &mut out);
        }
        for (i, r) in self.rulings.iter().enumerate() {
            let at = format!("rulings[{i}]");
            unique(&r.id, format!("{at}.id"), &mut out);
            if ruling_prefix(&r.id).is_none() {
                out.push((
                    format!("{at}.id"),
                    format!("`{}` is not a ruling id like R003-01 (letter, seed number, dash, number)", r.id),
                ));
            }
            if r.section.trim().is_empty() {
                out.push((format!("{at}.section"), "name the group this ruling is reported under".into()));
            }
            check_line(&r.summary, format!("{at}.summary"), &mut out);
            for (j, clause) in r.clauses.iter().enumerate() {
                if self.classify(clause) == Citation::Unknown {
                    out.push((
                        format!("{at}.clauses[{j}]"),
                        format!("`{clause}` is under an in-scope rule number but is not in the index"),
                    ));
                }
            }
        }
        out
    }

    /// The in-scope rule number (a clause's section number) that `id` falls under, if any.
    fn clause_family_of(&self, id: &str) -> Option<&str> {
        self.clauses.iter().filter_map(|c| section_number(&c.section)).find(|n| in_family(id, n))
    }

    /// What `id`, as cited by a scenario, is.
    pub fn classify(&self, id: &str) -> Citation {
        if self.clauses.iter().any(|c| c.id == id) || self.rulings.iter().any(|r| r.id == id) {
            Citation::InScope
        } else if self.out_of_scope.iter().any(|o| o.id == id) {
            Citation::OutOfScope
        } else if self.clause_family_of(id).is_some()
            || self.rulings.iter().filter_map(|r| ruling_prefix(&r.id)).any(|p| id.starts_with(p))
        {
            Citation::Unknown
        } else {
            Citation::Other
        }
    }

    /// Every in-scope id: clauses first, then rulings, in file order.
    pub fn ids(&self) -> impl Iterator<Item = &str> {
        self.clauses.iter().map(|c| c.id.as_str()).chain(self.rulings.iter().map(|r| r.id.as_str()))
    }

    /// The in-scope id closest to `id` (for a did-you-mean on a typo).
    pub fn closest(&self, id: &str) -> Option<&str> {
        crate::cards::closest(id, self.ids())
    }
}

/// Pushes a problem unless `text` is exactly one non-empty line.
fn check_line(text: &str, path: String, out: &mut Vec<(String, String)>) {
    if text.trim().is_empty() {
        out.push((path, "must not be empty".into()));
    } else if text.trim().contains('\n') {
        out.push((path, "must be a single line".into()));
    }
}

/// True for `NNN`, `NNN.N…` and `NNN.N…x` (one lower-case letter; the CR skips `l` and `o`).
pub fn is_clause_id(id: &str) -> bool {
    let Some((rule, rest)) = id.split_once('.') else {
        return id.len() == 3 && id.bytes().all(|b| b.is_ascii_digit());
    };
    let digits = rest.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let letters = rest.len() - digits.len();
    rule.len() == 3
        && rule.bytes().all(|b| b.is_ascii_digit())
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && letters <= 1
        && !rest.ends_with(['l', 'o'])
}

/// The leading rule number of a section title (`701.24 Shuffle` → `701.24`).
pub fn section_number(section: &str) -> Option<&str> {
    let number = section.split_whitespace().next()?;
    is_clause_id(number).then_some(number)
}

/// True when `id` is `family` or one of its sub-clauses: `401.3` is under `401`, `701.24c` under
/// `701.24`, but `701.240` is not under `701.24`.
pub fn in_family(id: &str, family: &str) -> bool {
    id.strip_prefix(family).is_some_and(|rest| !rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// The prefix of a ruling id (`R003-11` → `R003-`), when `id` has the ruling shape.
pub fn ruling_prefix(id: &str) -> Option<&str> {
    let (head, number) = id.split_once('-')?;
    let mut chars = head.chars();
    let letter = chars.next()?;
    let ok = letter.is_ascii_uppercase()
        && head.len() == 4
        && chars.all(|c| c.is_ascii_digit())
        && number.len() >= 2
        && number.bytes().all(|b| b.is_ascii_digit());
    ok.then(|| &id[..head.len() + 1])
}
