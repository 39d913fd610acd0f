//! The `mtg-oracle` command line.

mod cli_check;
mod cli_new;
mod cli_reduce;
mod cli_report;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use mtg_oracle::cards::CardPool;
use mtg_oracle::coverage;
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::Outcome;
use mtg_oracle::runner::{RunResult, locate_sim_error, render_outcome, run_file};
use mtg_oracle::scenario::format::Scenario;
use mtg_oracle::scenario::{collect_files, load_file};

/// mimalloc ([`mtg_oracle::FastAllocator`]): `check`, `serve` and `run` allocate many small,
/// short-lived strings, which glibc's allocator serves more slowly.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

/// A rules-conformance oracle for searching zones in Magic: The Gathering (CR 701.23).
#[derive(Parser)]
#[command(name = "mtg-oracle", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run scenarios: enumerate each one's legal outcomes and check its expectations.
    ///
    /// Prints PASS/FAIL per scenario and a last line `N passed, M failed`. Exit status: 0 when
    /// all pass, 1 when one fails, 2 when a file is not a valid scenario.
    Run {
        /// Scenario files or folders (searched for *.yaml).
        #[arg(default_value = "scenarios")]
        paths: Vec<PathBuf>,
        /// Only scenarios whose path contains this text.
        #[arg(long)]
        filter: Option<String>,
        /// Print the number of legal outcomes of passing scenarios too.
        #[arg(long, short)]
        verbose: bool,
    },
    /// Show a scenario's legal outcomes: how many, and a sample.
    Explain {
        /// The scenario file.
        file: PathBuf,
        /// How many outcomes to show.
        #[arg(long, default_value_t = 5)]
        sample: usize,
        /// Print the sampled outcomes as a JSON array (the shape `judge` reads) instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Judge an observed outcome (JSON, as in the protocol) against a scenario.
    Judge {
        /// The scenario file.
        file: PathBuf,
        /// The observed outcome, a JSON file.
        outcome: PathBuf,
    },
    /// Rules coverage: map every clause and ruling of the rules index to the scenarios citing it.
    ///
    /// Prints id → passing/failing scenarios → status (OK, THIN, FAILING, NO-EXAMPLE, MISSING)
    /// by section, and a summary. Exit status: 0 when every id is OK, 1 when one is not or a
    /// scenario cites an in-scope-looking id that is not in the index, 2 for an invalid index or
    /// scenario path.
    Coverage {
        /// Scenario files or folders (searched for *.yaml).
        #[arg(default_value = "scenarios")]
        paths: Vec<PathBuf>,
        /// A rules index to use instead of the bundled oracle/rules-index.yaml.
        #[arg(long)]
        index: Option<PathBuf>,
        /// Passing scenarios a CR clause needs to be OK.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
        min_clause: u32,
        /// Passing scenarios a ruling needs to be OK.
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
        min_ruling: u32,
        /// Also write the report as markdown to this file.
        #[arg(long)]
        markdown: Option<PathBuf>,
        /// Also write the report as JSON to this file.
        #[arg(long)]
        json: Option<PathBuf>,
    },
    /// Check an engine: run scenarios through it over the protocol and judge its answers.
    ///
    /// Without --engine, checks the built-in reference engine (`mtg-oracle serve`). Prints one
    /// line per scenario and a last line `N passed, M failed`. Exit status: 0 when every result is
    /// as the baseline expects, 1 on an unexpected failure or pass, 2 when a file is not a valid
    /// scenario (or a report can't be written).
    Check(cli_check::CheckArgs),
    /// The reference engine: speak the engine protocol on stdin/stdout.
    Serve(cli_check::ServeArgs),
    /// Run the scenarios against every mutant of the reference engine and show which catch it.
    ///
    /// Exit status 1 if a mutant survives, 2 if the unmutated reference engine fails a scenario.
    Mutants(cli_check::MutantsArgs),
    /// Turn a fuzz artifact into a regression scenario under scenarios/regressions/.
    ///
    /// Decodes ARTIFACT as its fuzz target does, shrinks a case that still fails, fills
    /// `expect:` with what the oracle says is legal, checks that `run` passes it, writes
    /// `fuzz-<target>-<hash>.yaml` and prints its path. Exit status: 0 when written and the
    /// artifact no longer fails; 1 when written but the artifact still fails (promote again after
    /// the fix); 2 when nothing could be written.
    Promote {
        /// The artifact (e.g. fuzz/artifacts/zone_state/crash-…, or a corpus file).
        artifact: PathBuf,
        /// The fuzz target (zone_state, search_request, scenario_yaml, judge_observation);
        /// default: the artifact's folder name.
        #[arg(long)]
        target: Option<String>,
        /// Where to write the scenario.
        #[arg(long, default_value = "scenarios/regressions")]
        out: PathBuf,
    },
    /// Reduce a scenario an engine FAILs on to the smallest one it still FAILs on, with the same
    /// clause named first (players, cards, steps and decisions dropped, cards made vanilla).
    ///
    /// Writes `engine-bug-<engine>-<clause>-<hash>.yaml` with expectations drafted from the oracle
    /// (to review) and prints the engine's outcome beside the legal ones. Exit status: 0 when
    /// written, 1 when the engine doesn't FAIL on the scenario, 2 on an error.
    Reduce(cli_reduce::ReduceArgs),
    /// Build the conformance page from JSON reports of `check --json` (one engine column each).
    ///
    /// One self-contained HTML file (no network; works from file://): a summary per engine, the
    /// clause × engine heat map, filters, and each FAIL's verdict and zones. Exit status 2 when a
    /// report can't be read or the page can't be written.
    Report(cli_report::ReportArgs),
    /// Draft a scenario from a few flags: cards per zone, steps, source.
    ///
    /// The `expect:` block is drafted from the oracle's legal outcomes and marked `# REVIEW`; the
    /// draft loads, runs and passes as written. Prints it (or writes --out). Exit status 2 when the
    /// flags don't make a valid scenario.
    New(cli_new::NewArgs),
    /// Print a JSON Schema generated from the serde types.
    Schema {
        /// Which document.
        #[arg(value_enum, default_value_t = SchemaKind::Scenario)]
        kind: SchemaKind,
    },
}

#[derive(Clone, Copy, ValueEnum)]
enum SchemaKind {
    /// A scenario file.
    Scenario,
    /// An outcome (final zones and event log).
    Outcome,
    /// The card pool file.
    Cards,
    /// Every message of the engine protocol (both directions).
    Protocol,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let pool = match CardPool::bundled() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        Command::Run { paths, filter, verbose } => run(&paths, filter.as_deref(), verbose, &pool),
        Command::Explain { file, sample, json } => explain(&file, sample, json, &pool),
        Command::Judge { file, outcome } => judge_cmd(&file, &outcome, &pool),
        Command::Coverage { paths, index, min_clause, min_ruling, markdown, json } => {
            let thresholds = coverage::Thresholds { min_clause: min_clause as usize, min_ruling: min_ruling as usize };
            let options = coverage::Options { paths, index, thresholds, markdown, json };
            ExitCode::from(coverage::command(&options, &pool, &mut std::io::stdout().lock(), &mut std::io::stderr()))
        }
        Command::Check(args) => cli_check::check(args, &pool),
        Command::Serve(args) => cli_check::serve(args, &pool),
        Command::Mutants(args) => cli_check::mutants(args, &pool),
        Command::Reduce(args) => cli_reduce::reduce_cmd(args, &pool),
        Command::Promote { artifact, target, out } => promote_cmd(&artifact, target.as_deref(), &out),
        Command::Report(args) => cli_report::report(&args),
        Command::New(args) => cli_new::new_cmd(args),
        Command::Schema { kind } => {
            let schema = match kind {
                SchemaKind::Scenario => schemars::schema_for!(Scenario),
                SchemaKind::Outcome => schemars::schema_for!(Outcome),
                SchemaKind::Cards => schemars::schema_for!(Vec<mtg_oracle::cards::def::CardDef>),
                SchemaKind::Protocol => mtg_oracle::protocol::schema(),
            };
            // write!, not println!: `schema | head -c1` must end quietly, not panic.
            let _ = writeln!(std::io::stdout().lock(), "{}", serde_json::to_string_pretty(&schema).unwrap_or_default());
            ExitCode::SUCCESS
        }
    }
}

fn run(paths: &[PathBuf], filter: Option<&str>, verbose: bool, pool: &CardPool) -> ExitCode {
    let files = match collect_files(paths) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let files: Vec<_> =
        files.into_iter().filter(|f| filter.is_none_or(|t| f.display().to_string().contains(t))).collect();
    let (mut passed, mut failed, mut invalid) = (0, 0, 0);
    let mut stdout = std::io::stdout().lock();
    // File names are shown escaped: a newline or an escape sequence in one can't forge a line.
    let safe = mtg_oracle::check::report::terminal_safe;
    for file in &files {
        match run_file(file, pool) {
            RunResult::Pass { loaded, exploration } => {
                passed += 1;
                if verbose {
                    let _ =
                        writeln!(stdout, "PASS {} ({} legal outcomes)", safe(&loaded.id), exploration.outcomes.len());
                } else {
                    let _ = writeln!(stdout, "PASS {}", safe(&loaded.id));
                }
            }
            RunResult::Fail { loaded, failures } => {
                failed += 1;
                let _ = writeln!(stdout, "FAIL {}", safe(&loaded.id));
                for f in failures {
                    let _ = writeln!(stdout, "  {}", safe(&f.to_string()));
                }
            }
            RunResult::Invalid(e) => {
                invalid += 1;
                let _ = writeln!(stdout, "ERROR {}", safe(&e.to_string()));
            }
        }
    }
    let _ = writeln!(stdout, "{passed} passed, {} failed", failed + invalid);
    if invalid > 0 {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

fn explain(file: &Path, sample: usize, json: bool, pool: &CardPool) -> ExitCode {
    // Written with write!, not println!, so a closed pipe (`explain … | head`) ends quietly.
    let mut out = std::io::stdout().lock();
    let loaded = match load_file(file, pool) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    // The script is checked as `run` checks it: a decision that never comes up is an error here too.
    if let Err(e) = mtg_oracle::runner::check_script(&loaded) {
        eprintln!("{e}");
        return ExitCode::from(2);
    }
    match mtg_oracle::explore::explore(&loaded.setup, mtg_oracle::explore::DEFAULT_RUN_LIMIT) {
        Err(e) => {
            eprintln!("{}", locate_sim_error(&loaded, &e));
            ExitCode::from(2)
        }
        Ok(x) if json => {
            let sampled: Vec<&Outcome> = x.outcomes.values().take(sample).map(|l| &l.outcome).collect();
            let _ = writeln!(out, "{}", serde_json::to_string_pretty(&sampled).unwrap_or_default());
            ExitCode::SUCCESS
        }
        Ok(x) => {
            let _ = writeln!(out, "{}: {}", loaded.id, loaded.scenario.title);
            let _ = writeln!(out, "rules: {}", loaded.scenario.rules.join(", "));
            let _ =
                writeln!(out, "{} legal outcome(s) from {} path(s) through the decisions", x.outcomes.len(), x.runs);
            for (i, o) in x.outcomes.values().take(sample).enumerate() {
                let _ = writeln!(out, "  outcome #{}:", i + 1);
                let _ = write!(out, "{}", render_outcome(&o.outcome));
            }
            if x.outcomes.len() > sample {
                let _ = writeln!(out, "  … and {} more (use --sample N)", x.outcomes.len() - sample);
            }
            ExitCode::SUCCESS
        }
    }
}

fn judge_cmd(file: &Path, outcome: &Path, pool: &CardPool) -> ExitCode {
    let loaded = match load_file(file, pool) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    let observed: Outcome = match mtg_oracle::scenario::read_source(outcome)
        .map_err(|e| e.to_string())
        .and_then(|s| serde_json::from_str(&s).map_err(|e| e.to_string()))
    {
        Ok(o) => o,
        Err(e) => {
            eprintln!("{}: {e}", outcome.display());
            return ExitCode::from(2);
        }
    };
    let mut out = std::io::stdout().lock();
    match judge(&loaded.setup, &observed) {
        Verdict::Legal => {
            let _ = writeln!(out, "LEGAL");
            ExitCode::SUCCESS
        }
        Verdict::Illegal(diffs) => {
            let _ = writeln!(out, "ILLEGAL");
            for d in diffs {
                let _ = writeln!(out, "  {d}");
            }
            ExitCode::from(1)
        }
        Verdict::Error(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn promote_cmd(artifact: &Path, target: Option<&str>, out: &Path) -> ExitCode {
    use mtg_oracle::fuzzing::promote::{promote_fuzz_artifact, target_from_path};
    use mtg_oracle::fuzzing::targets::Target;
    let target = match target {
        Some(name) => Target::from_name(name),
        None => target_from_path(artifact),
    };
    let Some(target) = target else {
        let names: Vec<&str> = Target::ALL.iter().map(|t| t.name()).collect();
        eprintln!("error: name the fuzz target with --target ({})", names.join(", "));
        return ExitCode::from(2);
    };
    let data = match std::fs::read(artifact) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("{}: {e}", artifact.display());
            return ExitCode::from(2);
        }
    };
    let promoted = match promote_fuzz_artifact(target, &data, &artifact.display().to_string()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {}: {e}", artifact.display());
            return ExitCode::from(2);
        }
    };
    let path = out.join(&promoted.file_name);
    if let Err(e) = std::fs::create_dir_all(out).and_then(|()| std::fs::write(&path, &promoted.yaml)) {
        eprintln!("{}: {e}", path.display());
        return ExitCode::from(2);
    }
    let _ = writeln!(std::io::stdout().lock(), "{}", path.display());
    match &promoted.run_failure {
        None => eprintln!("{} legal outcome(s); `mtg-oracle run {}` passes", promoted.outcomes, path.display()),
        Some(f) => eprintln!("{} legal outcome(s); `mtg-oracle run` FAILS on it now: {f}", promoted.outcomes),
    }
    if let Some(f) = &promoted.failure {
        eprintln!("the artifact still fails: {f}\npromote it again once the oracle is fixed");
    }
    if promoted.failure.is_some() || promoted.run_failure.is_some() { ExitCode::from(1) } else { ExitCode::SUCCESS }
}
