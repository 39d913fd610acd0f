//! Checking protocol messages.
//!
//! How validation works: the JSON Schema that `mtg-oracle schema protocol` prints is generated
//! from the serde types in [`super`] (schemars), and every one of those types (and the outcome
//! and event types they contain) denies unknown fields. So deserializing a line *strictly* into
//! those types accepts exactly what the schema accepts: required fields present, no unknown
//! fields anywhere, the right JSON types, known `type` and `event` tags. That is
//! [`validate_from_engine`] / [`validate_to_engine`], which `mtg-oracle check --validate` applies
//! to every message in both directions. Without `--validate`, [`parse_from_engine`] is lenient
//! about extra fields in the message envelope (`type`, `seq`, …, `engine`, `supports`), so an
//! engine can add its own diagnostics; the outcome itself is always read strictly.
//!
//! What a schema can't say is checked by [`check_outcome`], always: the ids, zones, players and
//! steps an outcome names must be the scenario's, or the answer can't be judged at all.

use std::collections::BTreeSet;

use serde_json::Value;

use super::{FromEngine, ToEngine};
use crate::model::ZoneRef;
use crate::outcome::Outcome;
use crate::scenario::Setup;

/// Why a line is not a protocol message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MessageError {
    /// Strictly parsed, it doesn't match the protocol schema (the parser's words).
    Invalid(String),
    /// It is not JSON at all.
    NotJson(String),
    /// It is JSON but not an object.
    NotObject,
    /// The object has no `type` field naming the message.
    NoType,
    /// The `type` names no message of the protocol.
    UnknownType(String),
    /// A message of a known `type` whose fields are wrong.
    InvalidMessage {
        /// The message's `type`.
        kind: String,
        /// What is wrong, in the parser's words.
        error: String,
    },
}

impl std::fmt::Display for MessageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MessageError::Invalid(e) => write!(f, "not a valid protocol message: {e}"),
            MessageError::NotJson(e) => write!(f, "not JSON: {e}"),
            MessageError::NotObject => f.write_str("not a JSON object"),
            MessageError::NoType => f.write_str("no `type` field"),
            MessageError::UnknownType(kind) => write!(f, "unknown message type `{kind}`"),
            MessageError::InvalidMessage { kind, error } => write!(f, "not a valid `{kind}` message: {error}"),
        }
    }
}

impl std::error::Error for MessageError {}

/// Strictly parses a line from the engine: exactly the protocol schema.
pub fn validate_from_engine(line: &str) -> Result<FromEngine, MessageError> {
    if let Some(message) = strict_result(line) {
        return Ok(message);
    }
    serde_json::from_str(line).map_err(|e| MessageError::Invalid(e.to_string()))
}

/// Strictly parses a line to the engine (the oracle checks its own messages with `--validate`;
/// `serve` reads every message with it).
pub fn validate_to_engine(line: &str) -> Result<ToEngine, MessageError> {
    if let Ok(RunMessage { kind: RunTag::Run, seq, id, mode, scenario }) = serde_json::from_str(line) {
        return Ok(ToEngine::Run { seq, id, mode, scenario });
    }
    serde_json::from_str(line).map_err(|e| MessageError::Invalid(e.to_string()))
}

// The two big messages, `run` and `result`, read straight into their fields. `ToEngine` and
// `FromEngine` are internally tagged, so serde buffers a whole message (every string of the
// scenario or the outcome) before it reads the tag, then reads the buffer: twice the work,
// most of `serve`'s and a good part of `check`'s time per scenario. These structs have the
// same fields, with the same attributes, as their variants, and deny unknown fields as those do,
// so a line they read is a line the enum reads the same way; any other line (another message,
// or an invalid one, for its error) goes through the enum.

/// `ToEngine::Run`'s fields, with its tag.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct RunMessage {
    #[serde(rename = "type")]
    kind: RunTag,
    seq: u64,
    id: String,
    mode: super::Mode,
    scenario: super::ScenarioMessage,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum RunTag {
    Run,
}

/// A `result` message read strictly through [`ResultMessage`], if the line is one.
fn strict_result(line: &str) -> Option<FromEngine> {
    let ResultMessage { kind: ResultTag::Result, seq, outcome, offered } = serde_json::from_str(line).ok()?;
    Some(FromEngine::Result { seq, outcome, offered })
}

/// `FromEngine::Result`'s fields, with its tag.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct ResultMessage {
    #[serde(rename = "type")]
    kind: ResultTag,
    seq: u64,
    outcome: Outcome,
    #[serde(default)]
    offered: Vec<crate::offers::Offer>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum ResultTag {
    Result,
}

/// Leniently parses a line from the engine: unknown fields of the message envelope are ignored.
pub fn parse_from_engine(line: &str) -> Result<FromEngine, MessageError> {
    // A `result` line that is exactly the message parses strictly to what the lenient reading
    // below makes of it (it has nothing to drop), without building a `Value` tree of the whole
    // outcome first: that tree was most of the cost of reading an answer. Anything else takes
    // the lenient path, which also gives the errors.
    if let Some(message) = strict_result(line) {
        return Ok(message);
    }
    let mut value: Value = serde_json::from_str(line).map_err(|e| MessageError::NotJson(e.to_string()))?;
    let Some(map) = value.as_object_mut() else {
        return Err(MessageError::NotObject);
    };
    let kind = map.get("type").and_then(Value::as_str).map(str::to_string).ok_or(MessageError::NoType)?;
    let keep: &[&str] = match kind.as_str() {
        "hello" => &["type", "protocol", "engine", "supports"],
        "result" => &["type", "seq", "outcome", "offered"],
        "no_such_choice" => &["type", "seq", "decision", "offered", "message"],
        "unsupported" => &["type", "seq", "reason", "link"],
        "error" => &["type", "seq", "message"],
        other => return Err(MessageError::UnknownType(other.to_string())),
    };
    map.retain(|k, _| keep.contains(&k.as_str()));
    for (key, fields) in [
        ("engine", &["name", "version", "seed"][..]),
        ("supports", &["players", "cards", "features", "observables", "offers"]),
    ] {
        if let Some(Value::Object(inner)) = map.get_mut(key) {
            inner.retain(|k, _| fields.contains(&k.as_str()));
        }
    }
    serde_json::from_value(value).map_err(|e| MessageError::InvalidMessage { kind, error: e.to_string() })
}

/// Checks that an outcome speaks of this scenario: card ids (or `ability:<id>` on the stack),
/// zone names, player names, and step indexes it uses all exist. Returns every problem found.
pub fn check_outcome(outcome: &Outcome, setup: &Setup, steps: usize) -> Result<(), Vec<String>> {
    let names = setup.game.names();
    let players: BTreeSet<&str> = names.iter().map(String::as_str).collect();
    let mut problems = Vec::new();
    let card = |id: &str, problems: &mut Vec<String>, place: &str| {
        let bare = id.strip_prefix("ability:").unwrap_or(id);
        if !setup.ids.contains_key(bare) && !crate::scenario::is_run_time_id(setup, bare) {
            problems.push(format!("{place}: `{id}` is not a card id of this scenario"));
        }
    };
    let zone = |z: &str, problems: &mut Vec<String>, place: &str| {
        if ZoneRef::parse(z, &names).is_err() {
            problems.push(format!("{place}: `{z}` is not a zone of this scenario"));
        }
    };
    let player = |p: &str, problems: &mut Vec<String>, place: &str| {
        if !players.contains(p) {
            problems.push(format!("{place}: `{p}` is not a player of this scenario ({})", names.join(", ")));
        }
    };
    for (z, cards) in &outcome.zones {
        zone(z, &mut problems, "zones");
        for c in cards {
            card(c, &mut problems, &format!("zones.{z}"));
        }
    }
    for (c, who) in &outcome.known {
        card(c, &mut problems, "known");
        for p in who {
            player(p, &mut problems, &format!("known.{c}"));
        }
    }
    for p in outcome.life.keys() {
        player(p, &mut problems, "life");
    }
    for c in outcome.counters.keys() {
        card(c, &mut problems, "counters");
    }
    for (i, e) in outcome.events.iter().enumerate() {
        let place = format!("events[{i}]");
        if e.step >= steps {
            problems.push(format!("{place}: step {} but the scenario has {steps} step(s)", e.step));
        }
        // Generic over event kinds: fields are checked by what they name.
        let Ok(Value::Object(fields)) = serde_json::to_value(&e.event) else { continue };
        for (key, value) in &fields {
            let texts: Vec<&str> = match value {
                Value::String(s) => vec![s.as_str()],
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                _ => continue,
            };
            for t in texts {
                match key.as_str() {
                    "card" | "cards" | "found" | "source" | "of" => card(t, &mut problems, &place),
                    "player" | "controller" | "library" => player(t, &mut problems, &place),
                    "from" | "to" | "zones" => zone(t, &mut problems, &place),
                    "on" if !super::TRIGGER_KINDS.contains(&t) => problems.push(format!(
                        "{place}: `on` is `{t}`, not one of the trigger kinds {} (or leave it out)",
                        super::TRIGGER_KINDS.join(", ")
                    )),
                    _ => {}
                }
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}

/// Checks that offers speak of this scenario: players, card ids and steps. Returns every problem.
pub fn check_offers(offers: &[crate::offers::Offer], setup: &Setup, steps: usize) -> Result<(), Vec<String>> {
    let names = setup.game.names();
    let mut problems = Vec::new();
    for (i, o) in offers.iter().enumerate() {
        let place = format!("offered[{i}]");
        if o.step >= steps {
            problems.push(format!("{place}: step {} but the scenario has {steps} step(s)", o.step));
        }
        if !names.contains(&o.player) {
            problems.push(format!("{place}: `{}` is not a player of this scenario ({})", o.player, names.join(", ")));
        }
        for c in &o.cards {
            if !setup.ids.contains_key(c) && !crate::scenario::is_run_time_id(setup, c) {
                problems.push(format!("{place}: `{c}` is not a card id of this scenario"));
            }
        }
    }
    if problems.is_empty() { Ok(()) } else { Err(problems) }
}
