//! The `check`, `serve` and `mutants` commands.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use mtg_oracle::cards::CardPool;
use mtg_oracle::check::baseline::Baseline;
use mtg_oracle::check::engine::{EngineCommand, Limits};
use mtg_oracle::check::mutation::{mutation_run, table};
use mtg_oracle::check::{CheckOptions, check as run_check, check_with_zones, parse_partition, report};
use mtg_oracle::mutants::Mutant;
use mtg_oracle::protocol::Mode;
use mtg_oracle::scenario::collect_files;
use mtg_oracle::serve::{Policy, ServeOptions, serve as run_serve};

/// Scripted or free.
#[derive(Clone, Copy, ValueEnum)]
pub enum ModeArg {
    /// The scenario's scripted decisions are sent and binding; the engine makes the others.
    Scripted,
    /// No decisions are sent; the engine makes every choice.
    Free,
}

/// How the reference engine makes its players' choices.
#[derive(Clone, Copy, ValueEnum)]
pub enum PolicyArg {
    /// Find as few cards as allowed, accept every "may", take the first option.
    Minimal,
    /// Find as many cards as allowed.
    Greedy,
    /// A seeded random legal choice.
    Random,
}

impl From<PolicyArg> for Policy {
    fn from(p: PolicyArg) -> Policy {
        match p {
            PolicyArg::Minimal => Policy::Minimal,
            PolicyArg::Greedy => Policy::Greedy,
            PolicyArg::Random => Policy::Random,
        }
    }
}

/// The longest time limit accepted, in seconds (a year): any longer is no limit in practice, and
/// a much longer one can't be held as a deadline.
const MAX_TIMEOUT_SECONDS: f64 = 365.0 * 86_400.0;

/// A time limit in seconds: a positive, finite number no larger than [`MAX_TIMEOUT_SECONDS`].
pub fn parse_seconds(text: &str) -> Result<f64, String> {
    let bad = || format!("expected a positive number of seconds, at most {MAX_TIMEOUT_SECONDS}");
    let seconds: f64 = text.trim().parse().map_err(|_| bad())?;
    if seconds.is_finite() && seconds > 0.0 && seconds <= MAX_TIMEOUT_SECONDS { Ok(seconds) } else { Err(bad()) }
}

/// A size limit: a whole number, at least 1.
fn parse_limit(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err("expected a whole number, at least 1".into()),
    }
}

fn parse_mutant(name: &str) -> Result<Mutant, String> {
    Mutant::from_name(name)
        .ok_or_else(|| format!("unknown mutant `{name}`; mutants: {}", Mutant::ALL.map(|m| m.name()).join(", ")))
}

/// `mtg-oracle check`.
#[derive(Args)]
pub struct CheckArgs {
    /// Scenario files or folders (searched for *.yaml).
    #[arg(default_value = "scenarios")]
    paths: Vec<PathBuf>,
    /// The engine: a command line run with `sh -c`, speaking the protocol on stdin/stdout.
    /// Default: the built-in reference engine (`mtg-oracle serve`).
    #[arg(long)]
    engine: Option<String>,
    /// Scripted: the scenario's decisions are sent and binding; free: the engine makes every choice.
    #[arg(long, value_enum, default_value_t = ModeArg::Scripted)]
    mode: ModeArg,
    /// Per-scenario time limit in seconds.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    timeout: f64,
    /// The longest line accepted from the engine, in bytes (longer: ERROR for that scenario).
    #[arg(long, default_value_t = Limits::default().max_line_bytes, value_parser = parse_limit)]
    max_line_bytes: usize,
    /// The most characters kept of any text the engine provides (messages, reasons, links, stderr
    /// lines); the rest is cut, with a note.
    #[arg(long, default_value_t = Limits::default().max_text_chars, value_parser = parse_limit)]
    max_text_chars: usize,
    /// Expected-failure baseline (YAML: scenario id → status, reason, link).
    #[arg(long)]
    baseline: Option<PathBuf>,
    /// Write the current results to the --baseline file.
    #[arg(long, requires = "baseline")]
    update_baseline: bool,
    /// Run only partition I of N (1-based), e.g. 2/4.
    #[arg(long)]
    partition: Option<String>,
    /// Only scenarios whose path contains this text.
    #[arg(long)]
    filter: Option<String>,
    /// Validate every message in both directions against the protocol schema.
    #[arg(long)]
    validate: bool,
    /// Write a JUnit XML report.
    #[arg(long)]
    junit: Option<PathBuf>,
    /// Write a JSON report.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write a Markdown conformance matrix.
    #[arg(long)]
    markdown: Option<PathBuf>,
    /// Write the conformance page: one self-contained HTML file (see `mtg-oracle report`).
    #[arg(long)]
    html: Option<PathBuf>,
    /// Built-in engine only: the seed of its shuffles and random choices (default: from the clock; printed).
    #[arg(long)]
    seed: Option<u64>,
    /// Built-in engine only: how it makes its players' choices.
    #[arg(long, value_enum, default_value_t = PolicyArg::Minimal)]
    choices: PolicyArg,
    /// Built-in engine only: play with this known rules bug (see `mtg-oracle mutants`).
    #[arg(long, value_parser = parse_mutant)]
    mutant: Option<Mutant>,
    /// No progress display, even on a terminal.
    #[arg(long, short)]
    quiet: bool,
    /// Reduce every unexpected FAIL to a minimal scenario (as `mtg-oracle reduce` does) and
    /// write it to this folder.
    #[arg(long)]
    reduce: Option<PathBuf>,
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64)
}

fn reference_engine(seed: u64, policy: Policy, mutant: Option<Mutant>) -> Result<EngineCommand, String> {
    let exe = std::env::current_exe().map_err(|e| format!("can't find the mtg-oracle binary: {e}"))?;
    let mut args =
        vec!["serve".to_string(), "--seed".into(), seed.to_string(), "--choices".into(), policy.name().into()];
    if let Some(m) = mutant {
        args.extend(["--mutant".to_string(), m.name().to_string()]);
    }
    let display = format!("mtg-oracle {}", args.join(" "));
    Ok(EngineCommand { program: exe.display().to_string(), args, display })
}

fn files(paths: &[PathBuf], filter: Option<&str>) -> Result<Vec<PathBuf>, String> {
    let files = collect_files(paths).map_err(|e| e.to_string())?;
    Ok(files.into_iter().filter(|f| filter.is_none_or(|t| f.display().to_string().contains(t))).collect())
}

/// Progress on a terminal, quiet in CI or when told.
fn show_progress(quiet: bool) -> bool {
    !quiet && std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

/// Runs `mtg-oracle check`.
pub fn check(args: CheckArgs, pool: &CardPool) -> ExitCode {
    let fail = |e: String| {
        eprintln!("error: {e}");
        ExitCode::from(2)
    };
    let files = match files(&args.paths, args.filter.as_deref()) {
        Ok(f) => f,
        Err(e) => return fail(e),
    };
    let partition = match args.partition.as_deref().map(parse_partition).transpose() {
        Ok(p) => p,
        Err(e) => return fail(e.to_string()),
    };
    let baseline = match &args.baseline {
        Some(path) => match Baseline::load(path) {
            Ok(b) => b,
            Err(e) => return fail(e.to_string()),
        },
        None => Baseline::default(),
    };
    let engine = match &args.engine {
        Some(cmd) => EngineCommand::shell(cmd),
        None => {
            let seed = args.seed.unwrap_or_else(clock_seed);
            eprintln!("checking the reference engine, seed {seed} (replay with --seed {seed})");
            match reference_engine(seed, args.choices.into(), args.mutant) {
                Ok(e) => e,
                Err(e) => return fail(e),
            }
        }
    };
    let opts = CheckOptions {
        engine,
        mode: match args.mode {
            ModeArg::Scripted => Mode::Scripted,
            ModeArg::Free => Mode::Free,
        },
        timeout: Duration::from_secs_f64(args.timeout),
        validate: args.validate,
        partition,
        baseline: baseline.clone(),
        limits: Limits {
            max_line_bytes: args.max_line_bytes,
            max_text_chars: args.max_text_chars,
            ..Limits::default()
        },
    };
    let progress = show_progress(args.quiet);
    let mut stdout = std::io::stdout().lock();
    // The zones of each FAIL are worked out only for the reports that show them.
    let with_zones = args.json.is_some() || args.html.is_some();
    let show = |i: usize, n: usize, r: &mtg_oracle::check::ScenarioResult| {
        if progress {
            eprint!("\r\x1b[K[{}/{n}] {}", i + 1, report::terminal_safe(&r.id));
        }
        if r.status != mtg_oracle::check::Status::Pass || !progress {
            if progress {
                eprint!("\r\x1b[K");
            }
            let _ = writeln!(stdout, "{}", report::line(r));
        }
    };
    let mut run =
        if with_zones { check_with_zones(&files, pool, &opts, show) } else { run_check(&files, pool, &opts, show) };
    if progress {
        eprint!("\r\x1b[K");
    }
    let mut code = 0u8;
    if args.update_baseline
        && let Some(path) = &args.baseline
    {
        let updated = baseline.updated(&run);
        match report::write_atomic(path, &updated.to_yaml()) {
            Ok(()) => {
                eprintln!("baseline written: {} ({} entries)", path.display(), updated.expected.len());
                for r in &mut run.scenarios {
                    r.gate = updated.gate(&r.id, r.status);
                }
                run.stale_baseline.clear();
            }
            Err(e) => {
                eprintln!("error: {}: {e}", path.display());
                code = 2;
            }
        }
    }
    type Render = fn(&mtg_oracle::check::CheckRun) -> String;
    let reports: [(&Option<PathBuf>, Render); 3] =
        [(&args.junit, report::junit), (&args.json, report::json), (&args.markdown, report::markdown)];
    for (path, render) in reports {
        if let Some(path) = path
            && let Err(e) = report::write_atomic(path, &render(&run))
        {
            eprintln!("error: {}: {e}", path.display());
            code = 2;
        }
    }
    if let Some(path) = &args.html {
        let written = crate::cli_report::clause_summaries()
            .and_then(|s| report::write_atomic(path, &report::html_of_run(&run, &s)).map_err(|e| e.to_string()));
        if let Err(e) = written {
            eprintln!("error: {}: {e}", path.display());
            code = 2;
        }
    }
    let _ = writeln!(stdout, "{}", report::summary(&run));
    if let Some(dir) = &args.reduce {
        code = code.max(crate::cli_reduce::reduce_unexpected_failures(&run, &opts, args.seed.unwrap_or(0), dir, pool));
    }
    ExitCode::from(code.max(run.exit_code()))
}

/// `mtg-oracle serve`.
#[derive(Args)]
pub struct ServeArgs {
    /// The seed of shuffles and random choices (default: from the clock; printed on stderr).
    #[arg(long)]
    seed: Option<u64>,
    /// How the engine makes its players' choices.
    #[arg(long, value_enum, default_value_t = PolicyArg::Minimal)]
    choices: PolicyArg,
    /// Play with this known rules bug.
    #[arg(long, value_parser = parse_mutant)]
    mutant: Option<Mutant>,
}

/// Runs `mtg-oracle serve`.
pub fn serve(args: ServeArgs, pool: &CardPool) -> ExitCode {
    let seed = args.seed.unwrap_or_else(clock_seed);
    let opts = ServeOptions { seed, policy: args.choices.into(), mutant: args.mutant };
    eprintln!(
        "mtg-oracle serve: seed {seed}, {} choices{}",
        opts.policy.name(),
        args.mutant.map(|m| format!(", mutant {m}")).unwrap_or_default()
    );
    let stdin = std::io::stdin().lock();
    let stdout = std::io::stdout().lock();
    match run_serve(stdin, stdout, pool, opts) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("mtg-oracle serve: {e}");
            ExitCode::from(2)
        }
    }
}

/// `mtg-oracle mutants`.
#[derive(Args)]
pub struct MutantsArgs {
    /// Scenario files or folders.
    #[arg(default_value = "scenarios")]
    paths: Vec<PathBuf>,
    /// Per-scenario time limit in seconds.
    #[arg(long, default_value_t = 10.0, value_parser = parse_seconds)]
    timeout: f64,
    /// The seed of the reference engine's shuffles.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// How many catching scenarios to name per mutant.
    #[arg(long, default_value_t = 3)]
    show: usize,
    /// List the mutants and exit.
    #[arg(long)]
    list: bool,
}

/// Runs `mtg-oracle mutants`.
pub fn mutants(args: MutantsArgs, pool: &CardPool) -> ExitCode {
    // Written with write!, not println!, so a closed pipe (`mutants … | head`) ends quietly.
    let mut out = std::io::stdout().lock();
    if args.list {
        for m in Mutant::ALL {
            let _ = writeln!(out, "{:32} {:8} {}", m.name(), m.clause(), m.description());
        }
        return ExitCode::SUCCESS;
    }
    let files = match files(&args.paths, None) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let exe = match reference_engine(args.seed, Policy::Minimal, None) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    let progress = show_progress(false);
    let run = mutation_run(
        &files,
        pool,
        Duration::from_secs_f64(args.timeout.max(0.1)),
        |mutant, policy| reference_engine(args.seed, policy, mutant).unwrap_or_else(|_| exe.clone()),
        |what| {
            if progress {
                eprint!("\r\x1b[Kchecking {what}");
            }
        },
    );
    if progress {
        eprint!("\r\x1b[K");
    }
    let _ = writeln!(out, "{} scenarios, {} mutants, seed {}\n", files.len(), run.mutants.len(), args.seed);
    let _ = write!(out, "{}", table(&run, args.show));
    for (policy, id, status, message) in &run.reference_failures {
        let (id, message) = (report::terminal_safe(id), report::terminal_safe(message));
        let _ = writeln!(out, "reference engine ({} choices): {status} {id}: {message}", policy.name());
    }
    let survivors = run.survivors();
    let caught = run.mutants.len() - survivors.len();
    let own = run.mutants.iter().filter(|m| m.caught_with_own_clause()).count();
    let _ = writeln!(
        out,
        "\n{caught} caught, {} survived; {own} caught with their own clause named first",
        survivors.len()
    );
    if !run.reference_failures.is_empty() {
        ExitCode::from(2)
    } else if !survivors.is_empty() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
