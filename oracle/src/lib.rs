//! # mtg-oracle
//!
//! A rules-conformance test oracle for searching zones in Magic: The Gathering (Comprehensive
//! Rules 701.23) and the actions around it. For a scenario it knows the *set* of legal outcomes:
//! [`explore()`] enumerates it for small states, and [`judge()`] decides whether one observed outcome
//! belongs to it without enumerating, by replaying the scenario once.
//!
//! ## The pipeline, and the one import a user needs
//!
//! load → simulate → judge → report:
//!
//! ```
//! use mtg_oracle::{CardPool, explore, judge, load_file};
//!
//! let pool = CardPool::bundled()?;
//! let path = "../scenarios/701.23-search/701.23a-demonic-tutor-finds-bottom-card.yaml";
//! let loaded = load_file(path.as_ref(), &pool)?;
//! // Every legal outcome (small scenarios only) …
//! let legal = explore(&loaded.setup, 10_000)?;
//! // … and the judge accepts each of them without enumerating.
//! for outcome in legal.outcomes.keys() {
//!     assert!(judge(&loaded.setup, outcome).is_legal());
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! ## Modules, bottom to top
//!
//! A module only uses modules listed before it (`docs/design.md` shows the graph; a test keeps
//! it acyclic):
//!
//! - [`yaml`]: YAML as the project writes it;
//! - [`cards`]: card definitions, the card instruction language, the bundled pool;
//! - [`model`]: the game state;
//! - [`rules`]: every rule decision, one module per section of the Comprehensive Rules;
//! - [`outcome`]: outcomes, the event log, sets of legal outcomes;
//! - [`verdict`]: a verdict on an observed outcome and the differences it names;
//! - [`mutants`] and [`sim`]: the simulator that plays a scenario's steps, asking a decider for
//!   every choice (the scripted one in [`sim::script`]);
//! - [`scenario`]: the YAML scenario loader;
//! - [`explore`](mod@explore) (enumerator), [`observables`], [`verdict`], [`offers`], [`judge`](mod@judge);
//! - [`expect`], [`runner`]: a scenario's expectations, and running a file;
//! - [`protocol`], [`serve`], [`check`]: the engine protocol, the reference engine, checking an
//!   engine;
//! - [`coverage`]: the rules index and which scenarios cover it;
//! - [`fuzzing`]: generators and checkers behind the fuzz targets;
//! - [`reduce`]: from an engine's FAIL to the smallest scenario that still shows it;
//! - [`authoring`]: `mtg-oracle new`, a scenario skeleton with its expectations drafted.

#![warn(missing_docs)]

pub mod authoring;
pub mod cards;
pub mod check;
pub mod coverage;
pub mod expect;
pub mod explore;
pub mod fuzzing;
pub mod judge;
pub mod model;
pub mod mutants;
pub mod observables;
pub mod offers;
pub mod outcome;
pub mod protocol;
pub mod reduce;
pub mod rules;
pub mod runner;
pub mod scenario;
pub mod serve;
pub mod sim;
pub mod verdict;
pub mod yaml;

pub use cards::CardPool;
pub use explore::{Exploration, explore};
pub use judge::{Verdict, judge};
pub use outcome::{LegalOutcome, Outcome};
pub use runner::{RunResult, run_file};

/// The allocator this project's programs use (mimalloc): the `mtg-oracle` binary, the fuzz
/// targets, the benches and the examples each declare it as their `#[global_allocator]`. Judging
/// and enumerating allocate many small, short-lived strings and vectors, and glibc's malloc and
/// free were about a quarter of a fuzz input's time. The library sets no allocator, so a program
/// that links it keeps its own. The fuzz targets leave it out in sanitizer builds (the fuzz
/// crate's `fast-alloc` feature), where the sanitizer's own allocator does the checking.
pub use mimalloc::MiMalloc as FastAllocator;
pub use scenario::{LoadError, Loaded, load_file, load_str};

/// What the crate's unit tests share.
#[cfg(test)]
pub(crate) mod test_support {
    use proptest::test_runner::{Config, RngSeed, TestRunner};

    /// A proptest runner of `cases` cases from a fixed seed: the run is the same every time (a
    /// failure prints its case), and nothing is written to disk.
    pub(crate) fn seeded_runner(cases: u32, seed: u64) -> TestRunner {
        TestRunner::new(Config {
            cases,
            rng_seed: RngSeed::Fixed(seed),
            failure_persistence: None,
            ..Config::default()
        })
    }
}
