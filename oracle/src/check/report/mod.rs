//! Reports of a check run: the human summary, JUnit XML, JSON, a Markdown conformance matrix and
//! the HTML conformance page.
//! Report files are written whole or not at all (a temporary file in the same folder, renamed
//! over the target), so a CI system never ingests half a report.//!
//! One file per format: `text` (the terminal lines and the summary), `junit`, `markdown`, `html`
//! (the page, also built from saved JSON reports by `mtg-oracle report`), and JSON here; `zones`
//! puts a FAIL's observed zones beside the closest legal ones, `corpus` names the corpus that
//! ran, `atomic` writes the files.

mod atomic;
mod corpus;
mod html;
mod junit;
mod markdown;
mod text;
mod zones;

use super::CheckRun;
pub use atomic::write_atomic;
pub use corpus::Corpus;
pub use html::{ClauseSummaries, ReadError, SavedRun, html, html_of_run};
pub use junit::junit;
pub use markdown::markdown;
pub use text::{line, summary, terminal_safe};
pub use zones::ZoneSides;

/// The run as JSON: engine, version, protocol, corpus revision, per scenario status, verdict
/// and time.
pub fn json(run: &CheckRun) -> String {
    serde_json::to_string_pretty(run).unwrap_or_default() + "\n"
}
