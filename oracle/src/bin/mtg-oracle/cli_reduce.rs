//! The `reduce` command, and the reduction `check --reduce DIR` runs after a check.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use clap::Args;
use mtg_oracle::cards::CardPool;
use mtg_oracle::check::engine::{EngineCommand, Limits};
use mtg_oracle::check::{CheckOptions, report};
use mtg_oracle::protocol::Mode;
use mtg_oracle::reduce::{ProcessEngine, ReduceOptions, draft, reduce};
use mtg_oracle::scenario::load_file;

use crate::cli_check::{ModeArg, parse_seconds};

/// Why nothing was written.
pub enum ReduceFailure {
    /// The engine doesn't FAIL on the scenario: nothing to reduce.
    NotFailing(String),
    /// Anything else (the scenario doesn't load, the file can't be written…).
    Error(String),
}

/// `mtg-oracle reduce`.
#[derive(Args)]
pub struct ReduceArgs {
    /// The scenario the engine FAILs on.
    scenario: PathBuf,
    /// The engine: a command line run with `sh -c`, speaking the protocol on stdin/stdout
    /// (e.g. `mtg-oracle serve --mutant no-shuffle-after-search`).
    #[arg(long)]
    engine: String,
    /// Where to write the reduced scenario.
    #[arg(long, default_value = "scenarios/regressions")]
    out: PathBuf,
    /// The seed of the order candidates are tried in (printed; the same seed, scenario and
    /// engine give the same result).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Stop reducing after this many seconds (the smallest scenario so far is written).
    #[arg(long, default_value_t = 120.0, value_parser = parse_seconds)]
    time_limit: f64,
    /// Stop reducing after this many candidates.
    #[arg(long, default_value_t = ReduceOptions::default().max_candidates)]
    max_candidates: usize,
    /// Scripted: the scenario's decisions are sent and binding; free: the engine makes every choice.
    #[arg(long, value_enum, default_value_t = ModeArg::Scripted)]
    mode: ModeArg,
    /// Per-scenario time limit in seconds.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    timeout: f64,
}

/// Reduces the scenario at `file` against the engine of `check`, writes the result under `out`
/// and prints what it did to `out_text`; returns the path written.
pub fn reduce_file(
    file: &Path,
    check: &CheckOptions,
    opts: ReduceOptions,
    out: &Path,
    pool: &CardPool,
    out_text: &mut dyn Write,
) -> Result<PathBuf, ReduceFailure> {
    let error = |e: String| ReduceFailure::Error(e);
    let loaded = load_file(file, pool).map_err(|e| error(e.to_string()))?;
    let progress = std::io::stderr().is_terminal() && std::env::var_os("CI").is_none();
    let mut engine = ProcessEngine::new(check);
    let _ = writeln!(
        out_text,
        "reducing {} (seed {}; replay with --seed {})",
        report::terminal_safe(&loaded.id),
        opts.seed,
        opts.seed
    );
    let reduction = reduce(&loaded, &mut engine, pool, opts, |p| {
        if progress {
            eprint!("\r\x1b[K[{} candidates] size {} → {}", p.tried, p.original_size, p.size);
        }
    });
    if progress {
        eprint!("\r\x1b[K");
    }
    let r = reduction.map_err(|e| ReduceFailure::NotFailing(e.to_string()))?;
    let drafted = draft::draft(&r, pool).map_err(|e| error(format!("the reduced scenario can't be written: {e}")))?;
    let engine_name = r.engine.as_ref().map_or_else(|| "?".to_string(), |e| format!("{} {}", e.name, e.version));
    let _ = writeln!(
        out_text,
        "engine {}: FAIL {} — {}\nsize {} → {} (cards + steps + decisions), {} candidates tried, {} kept; {}",
        report::terminal_safe(&engine_name),
        r.clause,
        report::terminal_safe(&r.message),
        mtg_oracle::reduce::size(&r.original),
        mtg_oracle::reduce::size(&r.reduced),
        r.tried,
        r.kept,
        r.stop.describe()
    );
    if let Some(o) = &r.engine_outcome {
        for line in draft::side_by_side(o, &drafted.legal, 2).lines() {
            let _ = writeln!(out_text, "{}", report::terminal_safe(line));
        }
    }
    if let Some(why) = &drafted.run_failure {
        let _ = writeln!(out_text, "note: `run` fails on the drafted scenario: {}", report::terminal_safe(why));
    }
    std::fs::create_dir_all(out).map_err(|e| error(format!("{}: {e}", out.display())))?;
    let path = out.join(&drafted.file_name);
    report::write_atomic(&path, &drafted.yaml).map_err(|e| error(format!("{}: {e}", path.display())))?;
    let _ = writeln!(
        out_text,
        "wrote {} ({} never: assertion(s); review its expect: block)",
        path.display(),
        drafted.never
    );
    Ok(path)
}

/// Runs `mtg-oracle reduce`. Exit status: 0 when written, 1 when the engine doesn't FAIL on the
/// scenario, 2 on any other error.
pub fn reduce_cmd(args: ReduceArgs, pool: &CardPool) -> ExitCode {
    let check = CheckOptions {
        engine: EngineCommand::shell(&args.engine),
        mode: match args.mode {
            ModeArg::Scripted => Mode::Scripted,
            ModeArg::Free => Mode::Free,
        },
        timeout: Duration::from_secs_f64(args.timeout),
        validate: false,
        partition: None,
        baseline: Default::default(),
        limits: Limits::default(),
    };
    let opts = ReduceOptions {
        seed: args.seed,
        time_limit: Duration::from_secs_f64(args.time_limit),
        max_candidates: args.max_candidates,
    };
    let mut stdout = std::io::stdout().lock();
    match reduce_file(&args.scenario, &check, opts, &args.out, pool, &mut stdout) {
        Ok(_) => ExitCode::SUCCESS,
        Err(ReduceFailure::NotFailing(e)) => {
            eprintln!("{}", report::terminal_safe(&e));
            ExitCode::from(1)
        }
        Err(ReduceFailure::Error(e)) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// `check --reduce DIR`: reduces every unexpected FAIL of `run` against the same engine and
/// writes each result to `dir`. Returns the exit status it adds: 2 if one couldn't be written.
pub fn reduce_unexpected_failures(
    run: &mtg_oracle::check::CheckRun,
    check: &CheckOptions,
    seed: u64,
    dir: &Path,
    pool: &CardPool,
) -> u8 {
    use mtg_oracle::check::Status;
    use mtg_oracle::check::baseline::Gate;
    let mut code = 0;
    let mut stdout = std::io::stdout().lock();
    let opts = ReduceOptions { seed, ..ReduceOptions::default() };
    for r in run.scenarios.iter().filter(|r| r.status == Status::Fail && r.gate == Gate::UnexpectedFailure) {
        match reduce_file(Path::new(&r.id), check, opts, dir, pool, &mut stdout) {
            Ok(_) => {}
            // A FAIL that doesn't repeat (an engine that isn't deterministic): said, not an error.
            Err(ReduceFailure::NotFailing(e)) => {
                let _ = writeln!(stdout, "reduce {}: {}", report::terminal_safe(&r.id), report::terminal_safe(&e));
            }
            Err(ReduceFailure::Error(e)) => {
                let _ =
                    writeln!(stdout, "reduce {}: error: {}", report::terminal_safe(&r.id), report::terminal_safe(&e));
                code = 2;
            }
        }
    }
    code
}
