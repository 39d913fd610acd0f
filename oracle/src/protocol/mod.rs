//! The engine protocol: JSON lines over an engine process's stdin and stdout.
//!
//! The oracle starts the engine once per run (again after a crash or a timeout) and talks to it
//! in messages, one JSON object per line, each with a `type`:
//!
//! | direction | `type` | meaning |
//! | --- | --- | --- |
//! | oracle → engine | `start` | the protocol version the oracle speaks; the engine answers `hello` |
//! | engine → oracle | `hello` | the engine's name, version and what it supports |
//! | oracle → engine | `run` | one scenario (`seq` numbers it): the initial state, the cards, the steps, and in scripted mode every scripted decision |
//! | engine → oracle | `result` | the outcome (final zones, who knows what, life, counters, event log) |
//! | engine → oracle | `unsupported` | the engine can't run this scenario, and why |
//! | engine → oracle | `error` | the engine failed on this scenario |
//! | engine → oracle | `no_such_choice` | (v2) a scripted decision the engine can't follow: its engine offers no such choice, with what it did offer |
//! | oracle → engine | `stop` | the run is over; the engine exits |
//!
//! The scenario in a `run` message reuses the scenario file's types ([`PlayerSetup`],
//! [`CardSetup`], [`Step`], [`ScriptedDecision`], [`CardDef`]), so step kinds and decisions added
//! to the format flow into the protocol without a change here; the outcome is [`Outcome`], the
//! shape `mtg-oracle judge` reads. `mtg-oracle schema protocol` prints the JSON Schema of every
//! message, generated from these types. docs/protocol.md documents the conventions an adapter needs
//! (card ids, zone order, player names, knowledge, required events).

mod build;
pub mod validate;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cards::def::CardDef;
use crate::observables::Observable;
use crate::offers::Offer;
use crate::outcome::Outcome;
use crate::scenario::format::{CardSetup, PlayerSetup, ScriptedDecision, Step};

pub use build::{features_of, features_of_loaded, outside_step_feature, scenario_message, to_scenario};

/// The protocol version. An engine that answers `hello` with a version the oracle doesn't accept
/// ([`ACCEPTED_VERSIONS`]) is not run.
/// Version 1: `start`/`hello`, `run`/`result`/`unsupported`/`error`, `stop`.
/// Version 2: `hello.supports.observables` (what the engine reports; the rest isn't judged),
/// `hello.supports.offers` and `result.offered` (the options offered at each decision, compared
/// with the legal ones), `supports.cards: "any"`, `triggered.on` optional, the `no_such_choice`
/// answer, and feature tags for steps that come from outside the scenario.
pub const PROTOCOL_VERSION: u32 = 2;

/// The versions an engine may answer `hello` with. A version 1 engine is version 2 without the
/// new fields, so it is judged as before.
pub const ACCEPTED_VERSIONS: [u32; 2] = [1, 2];

/// The public vocabulary of `triggered.on`: the kinds of event a trigger can fire on.
pub const TRIGGER_KINDS: [&str; 17] = [
    "dies",
    "another_creature_dies",
    "enters",
    "leaves_battlefield",
    "put_into_graveyard",
    "this_cycled",
    "cycled",
    "discarded",
    "cycled_or_discarded",
    "sacrificed",
    "searched_library",
    "shuffled_library",
    "beginning_of_step",
    "drew",
    "became_untapped",
    "last_time_counter_removed",
    "this_cast",
];

/// How the engine is to make the scenario's choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Mode {
    /// Every decision the scenario scripts is sent and binding; the engine makes the others.
    #[default]
    Scripted,
    /// No decisions are sent: the engine makes every choice; any legal choice passes.
    Free,
}

impl Mode {
    /// The name used on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Mode::Scripted => "scripted",
            Mode::Free => "free",
        }
    }
}

/// A message from the oracle to the engine.
// One message at a time, serialized right away: boxing the scenario would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ToEngine {
    /// The first message: the engine answers with `hello`.
    Start {
        /// The protocol version the oracle speaks ([`PROTOCOL_VERSION`]).
        protocol: u32,
    },
    /// Run one scenario; the engine answers `result`, `unsupported` or `error` with the same `seq`.
    Run {
        /// Sequence number of this request, echoed in the answer.
        seq: u64,
        /// The scenario's id (its path in the corpus), for the engine's logs.
        id: String,
        /// Scripted or free.
        mode: Mode,
        /// The scenario.
        scenario: ScenarioMessage,
    },
    /// The run is over: the engine should exit (it is killed if it hasn't within a few seconds).
    Stop,
}

/// A message from the engine to the oracle.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum FromEngine {
    /// The answer to `start`.
    Hello {
        /// The protocol version the engine speaks; it must equal the oracle's.
        protocol: u32,
        /// Which engine this is.
        engine: EngineInfo,
        /// What it supports; omitted parts mean "everything".
        #[serde(default)]
        supports: Supports,
    },
    /// The outcome of a scenario.
    Result {
        /// The `seq` of the `run` message.
        seq: u64,
        /// Final zones, knowledge, life, counters and the event log (`mtg-oracle schema outcome`).
        outcome: Outcome,
        /// (v2, with `supports.offers`) What the engine offered at each decision, in order:
        /// compared with the legal options.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        offered: Vec<Offer>,
    },
    /// (v2) A scripted decision the engine can't follow because it offers no such choice (an
    /// engine that always takes every copy, asked to find only the graveyard one). The oracle
    /// decides: a legal scripted choice the engine can't make is a FAIL (a legal option missing).
    NoSuchChoice {
        /// The `seq` of the `run` message.
        seq: u64,
        /// Which scripted decision: its index in the scenario's `decisions`.
        decision: usize,
        /// What the engine offered instead, if it can say.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        offered: Option<Offer>,
        /// Why, in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        message: String,
    },
    /// The engine can't run this scenario (a card, step or feature it doesn't have).
    Unsupported {
        /// The `seq` of the `run` message.
        seq: u64,
        /// Why, in words.
        reason: String,
        /// A link to the engine's issue tracker entry, if there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        link: Option<String>,
    },
    /// The engine failed on this scenario (an exception, an illegal scripted decision…).
    Error {
        /// The `seq` of the `run` message, when the error is about one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seq: Option<u64>,
        /// What went wrong.
        message: String,
    },
}

/// An engine's name and version, as reports show them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct EngineInfo {
    /// The engine's name.
    pub name: String,
    /// Its version (a release number or a commit).
    pub version: String,
    /// The seed of the engine's random choices and shuffles, if it has one, so a run can be
    /// replayed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

/// What an engine supports. A scenario outside it is reported UNSUPPORTED without being sent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Supports {
    /// Player counts the engine can set up (default: any).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<Vec<usize>>,
    /// Card names the engine knows, or `"any"` for an engine that reads any Oracle text (and
    /// answers `unsupported` per scenario); default: any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<CardSupport>,
    /// Features it supports, from the scenario feature vocabulary (`hypothetical-card`,
    /// `face-down`, `outside-the-game`, … — a scenario's `features`); default: all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub features: Option<Vec<String>>,
    /// (v2) The observables the engine reports (`known`, `library_top`, `moves_within_library`,
    /// `looked_at`, `revealed_empty`, `trigger_kind`, `searched`); default: all of them. What it doesn't
    /// report is not judged, and every report names it per scenario.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observables: Option<Vec<Observable>>,
    /// (v2) The engine reports, with each `result`, the options it offered at each decision
    /// (`offered`), and they are compared with the legal options.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub offers: bool,
}

/// The cards an engine knows: a list of names, or any card.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum CardSupport {
    /// Any card (the engine reads Oracle text): `"any"`.
    Any(AnyCard),
    /// These names.
    Names(Vec<String>),
}

/// The word `any`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AnyCard {
    /// Any card.
    Any,
}

impl CardSupport {
    /// Whether a card of this name is supported.
    pub fn knows(&self, name: &str) -> bool {
        match self {
            CardSupport::Any(_) => true,
            CardSupport::Names(names) => names.iter().any(|n| n == name),
        }
    }
}

/// A scenario as sent to an engine: what the scenario file says about the game, without its
/// expectations (those are the oracle's business), with every card id, owner and controller
/// spelled out and every card's definition included.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioMessage {
    /// The scenario's title.
    pub title: String,
    /// The CR clauses it exercises.
    pub rules: Vec<String>,
    /// Features the scenario needs: its tags, plus `hypothetical-card`, `face-down` and
    /// `outside-the-game` when it uses them. Compared with the engine's `supports.features`.
    #[serde(default)]
    pub features: Vec<String>,
    /// Players in turn order; the first is the active player. Every card has its `id`.
    /// Libraries and graveyards are listed TOP FIRST.
    pub players: Vec<PlayerSetup>,
    /// Permanents on the battlefield, each with `id`, `owner` and `controller`.
    #[serde(default)]
    pub battlefield: Vec<CardSetup>,
    /// Cards in exile, each with `id` and `owner`.
    #[serde(default)]
    pub exile: Vec<CardSetup>,
    /// What happens, in order; events name their step by its index here.
    pub steps: Vec<Step>,
    /// Scripted mode: the choices fixed in advance, matched in order by kind and player. Empty
    /// in free mode.
    #[serde(default)]
    pub decisions: Vec<ScriptedDecision>,
    /// The definition of every card the scenario uses (Oracle text and its structured reading).
    pub cards: Vec<CardDef>,
    /// Names of the cards that exist only in this scenario (no real card has that name): an
    /// engine must build them from their definition or answer `unsupported`.
    #[serde(default)]
    pub hypothetical: Vec<String>,
}

/// Every protocol message, either direction: the document `mtg-oracle schema protocol` prints.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
pub enum Message {
    /// Oracle to engine.
    ToEngine(ToEngine),
    /// Engine to oracle.
    FromEngine(FromEngine),
}

/// The JSON Schema of the protocol (every message, both directions).
pub fn schema() -> schemars::Schema {
    let mut schema = schemars::schema_for!(Message);
    schema.insert("title".into(), format!("mtg-oracle engine protocol, version {PROTOCOL_VERSION}").into());
    schema
}

/// One message as one line of JSON.
pub fn to_line<T: Serialize>(message: &T) -> String {
    serde_json::to_string(message).unwrap_or_else(|e| format!("{{\"type\":\"error\",\"message\":\"{e}\"}}"))
}
