//! Per-input cost of every fuzz target, replayed in process from its committed corpus.
//!
//! For each target this runs each file of `corpus/<target>/` through the same function the
//! cargo-fuzz target calls, one at a time, `ROUNDS` times, and prints the median, mean, 90th
//! percentile and maximum time per input (the fastest of the rounds for each input, so a busy
//! machine doesn't count against it), the slowest input's name, and the inputs per second that the
//! median implies. The mean is what replaying the whole corpus costs per input: a few slow inputs
//! weigh on it, and on a fuzzing run's exec/s, more than on the median. It measures the checks
//! only: the coverage instrumentation of a real libFuzzer run adds to this (`fuzz/speed.sh`
//! measures that run's exec/s).
//!
//! Run with `cargo bench -p mtg-oracle --bench fuzz_targets` (all five targets) or
//! `cargo bench -p mtg-oracle --bench fuzz_targets -- zone_state search_request` (some).
//! Set `FUZZ_BENCH_ROUNDS` to change the number of rounds (default 3), and `FUZZ_BENCH_FILTER`
//! to time only the inputs whose file name contains it (to profile one input with `perf`).
//! `FUZZ_BENCH_SLOWEST=N` also lists each target's N slowest inputs with their times (the inputs
//! to profile: the slowest ones decide a fuzzing run's exec/s more than the median does).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mtg_oracle::fuzzing::engine_diff::engine_diff;
use mtg_oracle::fuzzing::targets::Target;

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

const TARGETS: [&str; 5] = ["zone_state", "search_request", "scenario_yaml", "judge_observation", "engine_diff"];

fn run(target: &str, data: &[u8]) -> bool {
    match target {
        "engine_diff" => engine_diff(data).is_ok(),
        name => Target::from_name(name).is_some_and(|t| t.check(data).is_ok()),
    }
}

fn corpus_files(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("corpus").join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    files
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn main() {
    // `cargo bench` passes `--bench`; every other argument names a target.
    let wanted: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with('-')).collect();
    let rounds: usize = std::env::var("FUZZ_BENCH_ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(3).max(1);
    println!(
        "{:<18} {:>6} {:>10} {:>10} {:>10} {:>10} {:>12}  slowest input",
        "target", "inputs", "median", "mean", "p90", "max", "inputs/s"
    );
    for target in TARGETS.into_iter().filter(|t| wanted.is_empty() || wanted.iter().any(|w| w == t)) {
        let only = std::env::var("FUZZ_BENCH_FILTER").unwrap_or_default();
        let files: Vec<PathBuf> =
            corpus_files(target).into_iter().filter(|p| p.to_string_lossy().contains(only.as_str())).collect();
        let inputs: Vec<(String, Vec<u8>)> = files
            .iter()
            .map(|p| {
                let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                (name, std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
            })
            .collect();
        let mut best = vec![Duration::MAX; inputs.len()];
        let mut failed = 0;
        for round in 0..rounds {
            for (i, (_, data)) in inputs.iter().enumerate() {
                let start = Instant::now();
                let ok = run(target, data);
                best[i] = best[i].min(start.elapsed());
                if round == 0 && !ok {
                    failed += 1;
                }
            }
        }
        let slowest = best.iter().enumerate().max_by_key(|(_, d)| **d).map(|(i, _)| inputs[i].0.clone());

        let mut sorted = best.clone();
        sorted.sort();
        if sorted.is_empty() {
            println!("{target:<18} {:>6}", 0);
            continue;
        }
        let median = percentile(&sorted, 0.5);
        let mean = sorted.iter().sum::<Duration>() / sorted.len() as u32;
        println!(
            "{:<18} {:>6} {:>10} {:>10} {:>10} {:>10} {:>12.0}  {}{}",
            target,
            inputs.len(),
            format!("{:.3} ms", median.as_secs_f64() * 1e3),
            format!("{:.3} ms", mean.as_secs_f64() * 1e3),
            format!("{:.3} ms", percentile(&sorted, 0.9).as_secs_f64() * 1e3),
            format!("{:.3} ms", sorted[sorted.len() - 1].as_secs_f64() * 1e3),
            1.0 / median.as_secs_f64().max(1e-9),
            slowest.unwrap_or_default(),
            if failed > 0 { format!("  ({failed} input(s) FAIL their checks)") } else { String::new() },
        );
        let list: usize = std::env::var("FUZZ_BENCH_SLOWEST").ok().and_then(|n| n.parse().ok()).unwrap_or(0);
        let mut by_time: Vec<(Duration, &str)> = best.iter().zip(&inputs).map(|(d, (n, _))| (*d, n.as_str())).collect();
        by_time.sort_by(|a, b| b.cmp(a));
        for (d, name) in by_time.iter().take(list) {
            println!("  {:>10}  {name}", format!("{:.3} ms", d.as_secs_f64() * 1e3));
        }
    }
}
