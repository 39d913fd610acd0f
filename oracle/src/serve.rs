//! The reference engine: `mtg-oracle serve` speaks the engine protocol on stdin/stdout and runs
//! each scenario through the oracle's own simulator.
//!
//! It is what `mtg-oracle check` checks when no `--engine` is given, the baseline an engine
//! author can compare an adapter's messages with, and — with `--mutant NAME` — a reference
//! engine with one known rules bug ([`crate::mutants`]).
//!
//! Choices the scenario doesn't script are the engine's. Every random thing comes from one seed
//! (printed on stderr and reported in `hello`): shuffles and which cards a shuffled library puts
//! on top are always random; the players' choices follow a [`Policy`]. Each scenario gets its own
//! generator, seeded from the seed and the scenario id, so a result doesn't depend on the order or
//! the partition the scenarios ran in.

use std::io::{BufRead, Write};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::cards::CardPool;
use crate::explore::options;
use crate::model::Game;
use crate::mutants::Mutant;
use crate::offers::{Offer, reference_offer};
use crate::outcome::Outcome;
use crate::outcome::concrete::concretize;
use crate::protocol::{
    ACCEPTED_VERSIONS, EngineInfo, FromEngine, PROTOCOL_VERSION, ScenarioMessage, Supports, ToEngine, to_line,
    to_scenario, validate::validate_to_engine,
};
use crate::rules::search::a_legal_find;
use crate::scenario::load_scenario;
use crate::sim::script::Scripted;
use crate::sim::{Choice, Decider, Decision, Sim, SimError};

/// How the reference engine makes the choices a scenario leaves to its players.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Policy {
    /// The least: find as few cards as the rules allow, accept every "may", take the first
    /// option, put triggers on the stack in the order they triggered.
    #[default]
    Minimal,
    /// The most: find as many cards as the rules allow; otherwise as `Minimal`.
    Greedy,
    /// A seeded random legal choice at every decision.
    Random,
}

impl Policy {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Policy::Minimal => "minimal",
            Policy::Greedy => "greedy",
            Policy::Random => "random",
        }
    }
}

/// Settings of the reference engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct ServeOptions {
    /// The seed of every random choice.
    pub seed: u64,
    /// How players' choices are made.
    pub policy: Policy,
    /// A rules bug to play with.
    pub mutant: Option<Mutant>,
}

impl ServeOptions {
    /// The engine's name and version as `hello` reports them.
    pub fn info(&self) -> EngineInfo {
        let mut name = "mtg-oracle-reference".to_string();
        if let Some(m) = self.mutant {
            name.push_str(&format!(" (mutant {m})"));
        }
        EngineInfo { name, version: env!("CARGO_PKG_VERSION").to_string(), seed: Some(self.seed) }
    }
}

/// Serves the protocol until `stop` or the end of input. Returns an I/O error only if the output
/// can't be written; bad input is answered with an `error` message and the loop goes on.
pub fn serve(input: impl BufRead, output: impl Write, pool: &CardPool, opts: ServeOptions) -> std::io::Result<()> {
    serve_limited(input, output, pool, opts, MAX_LINE_BYTES)
}

/// The longest input line `serve` reads, in bytes (as `check`'s default for an engine's lines).
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// [`serve`], reading lines of at most `max_line` bytes: a longer line is answered with an
/// `error` message, the rest of it read and dropped, and the loop goes on.
pub fn serve_limited(
    mut input: impl BufRead,
    mut output: impl Write,
    pool: &CardPool,
    opts: ServeOptions,
    max_line: usize,
) -> std::io::Result<()> {
    use std::io::Read;
    loop {
        let mut bytes = Vec::new();
        let cap = max_line as u64 + 1;
        if (&mut input).take(cap).read_until(b'\n', &mut bytes)? == 0 {
            return Ok(());
        }
        if bytes.len() as u64 == cap && bytes.last() != Some(&b'\n') {
            // Drop the rest of the line, a bounded piece at a time.
            loop {
                bytes.clear();
                if (&mut input).take(cap).read_until(b'\n', &mut bytes)? == 0 || bytes.last() == Some(&b'\n') {
                    break;
                }
            }
            let message = format!("a line longer than {max_line} bytes; not read");
            writeln!(output, "{}", to_line(&FromEngine::Error { seq: None, message }))?;
            output.flush()?;
            continue;
        }
        // Bytes that aren't UTF-8 become U+FFFD, and the line is answered as invalid JSON.
        let line = String::from_utf8_lossy(&bytes);
        if line.trim().is_empty() {
            continue;
        }
        let reply = match validate_to_engine(&line) {
            Err(e) => FromEngine::Error { seq: None, message: e.to_string() },
            Ok(ToEngine::Stop) => return Ok(()),
            Ok(ToEngine::Start { protocol }) if !ACCEPTED_VERSIONS.contains(&protocol) => FromEngine::Error {
                seq: None,
                message: format!("this engine speaks protocol {PROTOCOL_VERSION} (and 1), not {protocol}"),
            },
            // An oracle that speaks version 1 gets a version 1 greeting (no offers).
            Ok(ToEngine::Start { protocol: 1 }) => {
                FromEngine::Hello { protocol: 1, engine: opts.info(), supports: Supports::default() }
            }
            Ok(ToEngine::Start { .. }) => {
                FromEngine::Hello { protocol: PROTOCOL_VERSION, engine: opts.info(), supports: supports() }
            }
            Ok(ToEngine::Run { seq, id, scenario, .. }) => run_scenario(seq, &id, &scenario, pool, opts),
        };
        writeln!(output, "{}", to_line(&reply))?;
        output.flush()?;
    }
}

/// What the reference engine supports: everything, every observable, and it reports the options
/// it offers at each decision.
pub fn supports() -> Supports {
    Supports { offers: true, ..Supports::default() }
}

/// FNV-1a, 64-bit: a stable hash for seeds and partitions (std's hasher may change between
/// releases, and these numbers are printed and replayed).
pub fn stable_hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3))
}

/// Runs one scenario and answers it.
pub fn run_scenario(seq: u64, id: &str, message: &ScenarioMessage, pool: &CardPool, opts: ServeOptions) -> FromEngine {
    let seed = opts.seed ^ stable_hash(id);
    match play(id, message, pool, opts.policy, seed, opts.mutant) {
        Ok((outcome, offered)) => FromEngine::Result { seq, outcome, offered },
        Err(Answer::Unsupported(reason)) => FromEngine::Unsupported { seq, reason, link: None },
        Err(Answer::Error(message)) => FromEngine::Error { seq: Some(seq), message },
    }
}

enum Answer {
    Unsupported(String),
    Error(String),
}

fn play(
    id: &str,
    message: &ScenarioMessage,
    pool: &CardPool,
    policy: Policy,
    seed: u64,
    mutant: Option<Mutant>,
) -> Result<(Outcome, Vec<Offer>), Answer> {
    let loaded = load_scenario(id, to_scenario(message), pool).map_err(|e| Answer::Error(e.to_string()))?;
    play_setup(&loaded.setup, policy, seed, mutant)
}

/// The outcome the reference engine reports for a loaded scenario, with the choices of `policy`
/// and the shuffles of `seed`, playing with `mutant` (none: the correct rules). `serve` seeds each
/// scenario with `seed ^ stable_hash(id)`.
pub fn play_loaded(
    setup: &crate::scenario::Setup,
    policy: Policy,
    seed: u64,
    mutant: Option<Mutant>,
) -> Result<Outcome, String> {
    play_setup(setup, policy, seed, mutant).map(|(outcome, _)| outcome).map_err(|e| match e {
        Answer::Unsupported(m) => format!("unsupported: {m}"),
        Answer::Error(m) => m,
    })
}

fn play_setup(
    setup: &crate::scenario::Setup,
    policy: Policy,
    seed: u64,
    mutant: Option<Mutant>,
) -> Result<(Outcome, Vec<Offer>), Answer> {
    let chooser = Chooser { policy, rng: StdRng::seed_from_u64(seed), offered: Vec::new(), mutant };
    let mut decider = Scripted::new(&setup.script, chooser);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    sim.engine_mode = true;
    sim.set_mutant(mutant);
    let ran = sim.run(&setup.actions);
    let legal = sim.outcome();
    drop(sim);
    match ran {
        Ok(()) => Ok((concretize(&legal, seed), std::mem::take(&mut decider.inner.offered))),
        Err(SimError::Unsupported { step, message }) => Err(Answer::Unsupported(format!("step {step}: {message}"))),
        Err(SimError::Illegal { violation, step, .. }) if decider.last.is_some() => Err(Answer::Error(format!(
            "step {step}: scripted decision {} is illegal: {violation}",
            decider.last.unwrap_or_default()
        ))),
        Err(e) => Err(Answer::Error(e.to_string())),
    }
}

/// The engine's own choices.
struct Chooser {
    policy: Policy,
    rng: StdRng,
    /// What it offered at each decision (protocol 2 `offered`).
    offered: Vec<Offer>,
    /// The known rules bug it plays with, which may change what it offers too.
    mutant: Option<Mutant>,
}

impl Decider for Chooser {
    fn note_scripted(&mut self, game: &Game, step: usize, decision: &Decision, _choice: &Choice) {
        self.offered.extend(reference_offer(game, step, decision, self.mutant));
    }

    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        self.offered.extend(reference_offer(game, step, decision, self.mutant));
        let none = || SimError::Unsupported { step, message: format!("a decision with no legal answer: {decision:?}") };
        if let Decision::Random { from, count, .. } = decision {
            // Chance, not a choice: which cards a random shuffle left on top.
            let mut cards = from.clone();
            cards.shuffle(&mut self.rng);
            cards.truncate(*count);
            return Ok(Choice::Cards(cards));
        }
        if self.policy == Policy::Random
            && let Ok(opts) = options(game, decision, 10_000)
            && !opts.is_empty()
        {
            let pick = self.rng.random_range(0..opts.len());
            return Ok(opts[pick].clone());
        }
        Ok(match decision {
            Decision::May { .. } => Choice::Bool(true),
            Decision::OrderTriggers { triggers, .. } => Choice::Order((0..triggers.len()).collect()),
            Decision::ChooseCard { any_number: true, .. } => Choice::Cards(Vec::new()),
            Decision::ChooseCard { options, count, .. } if *count != 1 => {
                Choice::Cards(options.iter().copied().take(*count).collect())
            }
            Decision::ChooseCard { options, .. } | Decision::Sacrifice { options, .. } => {
                Choice::Cards(vec![*options.first().ok_or_else(none)?])
            }
            Decision::Random { .. } => return Err(none()),
            Decision::Find { parts, joint_min, .. } => {
                let greedy = self.policy == Policy::Greedy;
                crate::explore::find_choice(game, parts, *joint_min, |p, taken| {
                    let least = a_legal_find(game, p, taken)?;
                    Some(if greedy { most(game, p, taken).unwrap_or(least) } else { least })
                })
                .ok_or_else(none)?
            }
            // Dredge, discards, names, casts during a resolution, targets: the first legal answer
            // (declining where declining is an answer), or the last under the greedy policy.
            Decision::Dredge { .. }
            | Decision::Discard { .. }
            | Decision::Name { .. }
            | Decision::CastFree { .. }
            | Decision::Targets { .. }
            | Decision::SearchLimit { .. }
            | Decision::Replacement { .. }
            | Decision::CostOrder { .. } => {
                let opts = options(game, decision, 10_000)?;
                let pick = if self.policy == Policy::Greedy { opts.last() } else { opts.first() };
                pick.cloned().ok_or_else(none)?
            }
        })
    }
}

/// As many cards as a plan allows, first candidates first, skipping cards another merged
/// instruction took and repeated names where names must differ; `None` if that isn't legal.
fn most(
    game: &Game,
    plan: &crate::rules::search::PartPlan,
    taken: &std::collections::BTreeSet<usize>,
) -> Option<Vec<usize>> {
    let mut found: Vec<usize> = Vec::new();
    let mut names = std::collections::BTreeSet::new();
    for &c in &plan.candidates {
        if found.len() >= plan.max {
            break;
        }
        if taken.contains(&c) || (plan.different_names && !names.insert(game.obj(c).chars.names.join(" // "))) {
            continue;
        }
        found.push(c);
    }
    crate::rules::search::found_is_legal(game, plan, &found).then_some(found)
}
