//! `engine_diff`: the generator's scenarios (small states) sent to an engine over the protocol
//! and judged exactly as `mtg-oracle check` judges a bundled scenario. By default the engine is
//! the reference engine, run in this process (the answer `mtg-oracle serve` would give, without a
//! process per input); `MTG_ORACLE_ENGINE="command args…"` names any other engine, started once
//! and kept for the whole fuzzing run. The reference engine's choices and shuffles come from the
//! bytes after the case, so a saved input replays exactly.

use std::cell::RefCell;
use std::sync::OnceLock;
use std::time::Duration;

use super::case::Limits;
use super::targets::case_from_fuzz_input;
use super::{CheckFailure, pool};
use crate::check::baseline::Baseline;
use crate::check::engine::EngineCommand;
use crate::check::{CheckOptions, Checker, Status};
use crate::protocol::Mode;
use crate::scenario::load_scenario;
use crate::serve::{Policy, ServeOptions};

/// The environment variable naming an engine command for `engine_diff`.
pub const ENGINE_VARIABLE: &str = "MTG_ORACLE_ENGINE";

fn options() -> &'static CheckOptions {
    static OPTIONS: OnceLock<CheckOptions> = OnceLock::new();
    OPTIONS.get_or_init(|| CheckOptions {
        engine: EngineCommand::shell(&std::env::var(ENGINE_VARIABLE).unwrap_or_default()),
        mode: Mode::Free,
        timeout: Duration::from_secs(10),
        validate: true,
        partition: None,
        baseline: Baseline::default(),
        limits: crate::check::engine::Limits::default(),
    })
}

thread_local! {
    static CHECKER: RefCell<Checker<'static>> = RefCell::new(Checker::new(options()));
}

/// Runs one fuzz input through the engine. A FAIL (the judge found a rules violation), an ERROR
/// (crash, malformed answer, protocol violation) or a TIMEOUT is a finding; PASS, UNSUPPORTED and
/// a state the oracle itself can't run are not.
pub fn engine_diff(data: &[u8]) -> Result<(), CheckFailure> {
    let Some((case, rest)) = case_from_fuzz_input(data, Limits::SMALL) else { return Ok(()) };
    let Ok(loaded) = load_scenario("engine_diff", case.scenario(), pool()) else { return Ok(()) };
    let seed = rest.iter().take(8).fold(0u64, |h, &b| (h << 8) | u64::from(b));
    let policy = match rest.get(8).copied().unwrap_or(0) % 3 {
        0 => Policy::Minimal,
        1 => Policy::Greedy,
        _ => Policy::Random,
    };
    let external = std::env::var_os(ENGINE_VARIABLE).is_some_and(|v| !v.is_empty());
    let result = CHECKER.with(|c| {
        let mut checker = c.borrow_mut();
        if external {
            checker.check(loaded)
        } else {
            checker.check_reference(loaded, ServeOptions { seed, policy, mutant: None }, pool())
        }
    });
    match result.status {
        Status::Pass | Status::Unsupported | Status::Invalid => Ok(()),
        status => Err(CheckFailure {
            check: "engine differential",
            message: format!("{status}: {} (reference engine seed {seed}, {policy:?} choices)", result.message),
        }),
    }
}

/// The outcome the in-process reference engine answered for an `engine_diff` input whose check
/// failed (`None` when it passes or doesn't decode): what a finding is reproduced from.
pub fn failing_outcome(data: &[u8]) -> Option<crate::outcome::Outcome> {
    engine_diff(data).err()?;
    CHECKER.with(|c| c.borrow().last_failing_outcome().cloned())
}
