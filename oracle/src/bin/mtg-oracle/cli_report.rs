//! `mtg-oracle report`: the conformance page from saved JSON reports.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mtg_oracle::check::report::{self, ClauseSummaries, SavedRun};
use mtg_oracle::coverage::index::RulesIndex;

/// `mtg-oracle report`.
#[derive(Args)]
pub struct ReportArgs {
    /// JSON reports written by `mtg-oracle check --json`, one engine column each, in this order.
    #[arg(required = true)]
    reports: Vec<PathBuf>,
    /// Where to write the page.
    #[arg(long)]
    html: PathBuf,
}

/// Runs `mtg-oracle report`.
pub fn report(args: &ReportArgs) -> ExitCode {
    let mut runs = Vec::with_capacity(args.reports.len());
    for path in &args.reports {
        let read = read_report(path).and_then(|text| SavedRun::parse(&text).map_err(|e| e.to_string()));
        match read {
            Ok(run) => runs.push(run),
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
        }
    }
    let summaries = match clause_summaries() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Err(e) = report::write_atomic(&args.html, &report::html(&runs, &summaries)) {
        eprintln!("error: {}: {e}", args.html.display());
        return ExitCode::from(2);
    }
    eprintln!("conformance page written: {} ({} engine runs)", args.html.display(), runs.len());
    ExitCode::SUCCESS
}

/// The most bytes of a JSON report read (a run of thousands of FAILs with their zones fits).
const MAX_REPORT_BYTES: u64 = 256 << 20;

/// A report file's text: a regular file (not a folder or a FIFO that never ends), at most
/// [`MAX_REPORT_BYTES`], in UTF-8.
fn read_report(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read as _;
    // Looked at before opening: opening a FIFO would wait for a writer.
    if !std::fs::metadata(path).map_err(|e| e.to_string())?.is_file() {
        return Err("not a regular file".into());
    }
    let file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    file.take(MAX_REPORT_BYTES + 1).read_to_end(&mut bytes).map_err(|e| e.to_string())?;
    if bytes.len() as u64 > MAX_REPORT_BYTES {
        return Err(format!("larger than {} MiB", MAX_REPORT_BYTES >> 20));
    }
    String::from_utf8(bytes).map_err(|_| "not UTF-8".to_string())
}

/// The bundled rules index's summaries, for the page's hover text.
pub fn clause_summaries() -> Result<ClauseSummaries, String> {
    let index = RulesIndex::bundled().map_err(|e| e.to_string())?;
    let clauses = index.clauses.iter().map(|c| (c.id.clone(), format!("{}: {}", c.section, c.summary)));
    let rulings = index.rulings.iter().map(|r| (r.id.clone(), format!("{}: {}", r.section, r.summary)));
    let supporting = index.supporting.iter().map(|s| (s.id.clone(), s.summary.clone()));
    Ok(ClauseSummaries {
        checked_against: index.checked_against.clone(),
        by_id: clauses.chain(rulings).chain(supporting).collect(),
    })
}
