//! `mtg-oracle new`: a scenario skeleton from a few flags, with its `expect:` block drafted from
//! the oracle's outcome set (as `promote` drafts it) and marked for review.
//!
//! The author names the cards per zone, the steps and the source; the oracle enumerates the
//! legal outcomes and writes what holds in all of them (moved cards' zones, searches, shuffles,
//! reveals and triggers per player) and what varies (`sometimes:`). The draft is checked the way
//! `mtg-oracle run` checks a file before it is returned, so it loads, runs and passes as written;
//! what it can't know is whether those outcomes are the *right* ones — hence the `# REVIEW` mark.

use std::fmt;

use crate::fuzzing::promote::{PromoteError, readable_yaml, scenario_with_expectations};
use crate::scenario::format::{
    CardSetup, Expectations, PlayerSetup, Scenario, ScriptedDecision, Source, SourceKind, Step,
};
use crate::yaml::from_yaml;

/// The comment put on the line before the drafted `expect:` block.
pub const REVIEW_MARK: &str = "# REVIEW: drafted from the oracle's outcome set by `mtg-oracle new` — check every line \
     against the rules (the oracle may be wrong; a scenario that repeats it proves nothing), then delete this comment.";

/// What `mtg-oracle new` is given.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    /// The scenario's title; a placeholder asking for one when not given.
    pub title: Option<String>,
    /// The CR clauses it exercises (at least one).
    pub rules: Vec<String>,
    /// The kind of source.
    pub source: SourceKind,
    /// The source's reference; `CR <first rule>` when not given.
    pub reference: Option<String>,
    /// Player names in turn order; Alice and Bob when empty.
    pub players: Vec<String>,
    /// Cards as `ZONE=CARD`: ZONE is `<player>.library` (top first), `.hand`, `.graveyard`,
    /// `.outside`, `.battlefield` or `.exile` (the player owns it); CARD is a card name, with
    /// `#id` appended to give it an explicit id.
    pub cards: Vec<String>,
    /// Steps, each one YAML step as in a scenario (`resolve`, `cast: {player: Alice, card: x}`).
    pub steps: Vec<String>,
    /// Scripted decisions, each one YAML decision as in a scenario.
    pub decisions: Vec<String>,
}

/// Why no draft could be made.
#[derive(Debug)]
pub enum NewError {
    /// A flag's value is malformed (which flag, and what is wrong).
    Flag(String),
    /// The skeleton isn't a valid scenario, or the oracle can't draft its expectations.
    Draft(PromoteError),
    /// The drafted file fails its own expectations under `run` (an oracle bug: the enumerator
    /// and the expectation checker disagree).
    FailsItsOwnExpectations(String),
}

impl fmt::Display for NewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NewError::Flag(m) => f.write_str(m),
            NewError::Draft(e) => write!(f, "{e}"),
            NewError::FailsItsOwnExpectations(m) => write!(
                f,
                "the drafted scenario fails its own expectations under `run` ({m}); this is an oracle bug — please report it"
            ),
        }
    }
}

impl std::error::Error for NewError {}

/// A drafted scenario file.
#[derive(Debug, Clone)]
pub struct Draft {
    /// The file's text: the scenario, with [`REVIEW_MARK`] before `expect:`.
    pub yaml: String,
    /// How many legal outcomes the oracle found.
    pub outcomes: usize,
}

/// Turns one `ZONE=CARD` flag into the scenario's card entry.
fn place_card(scenario: &mut Scenario, flag: &str) -> Result<(), NewError> {
    let bad = |why: &str| NewError::Flag(format!("--card `{flag}`: {why}"));
    let (zone, card) = flag.split_once('=').ok_or_else(|| bad("expected ZONE=CARD, e.g. Alice.library=Forest"))?;
    let (player, zone) = zone
        .trim()
        .split_once('.')
        .ok_or_else(|| bad("ZONE is <player>.<zone>, e.g. Alice.hand or Bob.battlefield"))?;
    let (name, id) = match card.rsplit_once('#') {
        Some((name, id)) => (name.trim(), Some(id.trim().to_string())),
        None => (card.trim(), None),
    };
    if name.is_empty() || id.as_deref() == Some("") {
        return Err(bad("the card name (and the id after `#`, if any) can't be empty"));
    }
    let mut setup = CardSetup::named(name);
    setup.id = id;
    let names: Vec<String> = scenario.players.iter().map(|p| p.name.clone()).collect();
    let Some(p) = scenario.players.iter_mut().find(|p| p.name == player) else {
        return Err(bad(&format!("no player `{player}` (players: {})", names.join(", "))));
    };
    match zone {
        "library" => p.library.push(setup),
        "hand" => p.hand.push(setup),
        "graveyard" => p.graveyard.push(setup),
        "outside" => p.outside.push(setup),
        "battlefield" | "exile" => {
            setup.owner = Some(player.to_string());
            if zone == "exile" { &mut scenario.exile } else { &mut scenario.battlefield }.push(setup);
        }
        other => {
            return Err(bad(&format!(
                "unknown zone `{other}`; zones are library, hand, graveyard, outside, battlefield, exile"
            )));
        }
    }
    Ok(())
}

/// The scenario the flags describe, with an empty `expect:`.
pub fn skeleton_scenario(s: &Skeleton) -> Result<Scenario, NewError> {
    let Some(first_rule) = s.rules.first() else {
        return Err(NewError::Flag("give at least one --rule (the CR clause the scenario exercises)".into()));
    };
    if s.steps.is_empty() {
        return Err(NewError::Flag(
            "give at least one --step (e.g. --step 'cast: {player: Alice, card: demonic-tutor}' --step resolve)".into(),
        ));
    }
    let players = if s.players.is_empty() { vec!["Alice".to_string(), "Bob".to_string()] } else { s.players.clone() };
    let parse_each = |flag: &str, texts: &[String]| -> Result<Vec<serde_yaml::Value>, NewError> {
        texts
            .iter()
            .map(|t| {
                serde_yaml::from_str::<serde_yaml::Value>(t)
                    .map_err(|e| NewError::Flag(format!("--{flag} `{t}`: not YAML: {e}")))
            })
            .collect()
    };
    // Each step and decision is read on its own, so an error names the flag that has it.
    let steps = parse_each("step", &s.steps)?
        .into_iter()
        .zip(&s.steps)
        .map(|(v, t)| {
            from_yaml::<Step>(&crate::yaml::to_yaml(&v)).map_err(|e| NewError::Flag(format!("--step `{t}`: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let decisions = parse_each("decision", &s.decisions)?
        .into_iter()
        .zip(&s.decisions)
        .map(|(v, t)| {
            from_yaml::<ScriptedDecision>(&crate::yaml::to_yaml(&v))
                .map_err(|e| NewError::Flag(format!("--decision `{t}`: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut scenario = Scenario {
        title: s.title.clone().unwrap_or_else(|| "TODO: one line saying what the scenario shows".into()),
        rules: s.rules.clone(),
        source: Source { kind: s.source, reference: s.reference.clone().unwrap_or_else(|| format!("CR {first_rule}")) },
        tags: Vec::new(),
        description: None,
        cards: Vec::new(),
        players: players
            .into_iter()
            .map(|name| PlayerSetup {
                name,
                life: 20,
                library: Vec::new(),
                hand: Vec::new(),
                graveyard: Vec::new(),
                outside: Vec::new(),
                dealt_combat_damage_with: Vec::new(),
                permanents_put_into_graveyard_earlier: 0,
            })
            .collect(),
        battlefield: Vec::new(),
        exile: Vec::new(),
        steps,
        decisions,
        expect: Expectations::default(),
    };
    for flag in &s.cards {
        place_card(&mut scenario, flag)?;
    }
    Ok(scenario)
}

/// Drafts the scenario file: the skeleton, its `expect:` filled from the oracle's outcome set and
/// marked for review. The result loads, runs and passes (checked here).
pub fn draft_new(s: &Skeleton) -> Result<Draft, NewError> {
    let scenario = skeleton_scenario(s)?;
    let (scenario, outcomes, run_failure) = scenario_with_expectations(scenario).map_err(NewError::Draft)?;
    if let Some(why) = run_failure {
        return Err(NewError::FailsItsOwnExpectations(why));
    }
    let text = readable_yaml(&scenario);
    let yaml = match text.find("\nexpect:") {
        Some(at) => format!("{}\n{REVIEW_MARK}{}", &text[..at], &text[at..]),
        None => format!("{REVIEW_MARK}\n{text}"),
    };
    Ok(Draft { yaml, outcomes })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::CardPool;
    use crate::runner::{RunResult, run_loaded};
    use crate::scenario::load_str;

    fn tutor() -> Skeleton {
        Skeleton {
            title: Some("Demonic Tutor finds any card".into()),
            rules: vec!["701.23a".into()],
            source: SourceKind::Clause,
            reference: None,
            players: Vec::new(),
            cards: vec![
                "Alice.library=Forest".into(),
                "Alice.library=Island#isl".into(),
                "Alice.hand=Demonic Tutor".into(),
                "Bob.battlefield=Ob Nixilis, Unshackled#ob".into(),
            ],
            steps: vec!["cast: {player: Alice, card: demonic-tutor}".into(), "resolve".into()],
            decisions: Vec::new(),
        }
    }

    #[test]
    fn a_drafted_scenario_loads_runs_and_passes_and_is_marked_for_review() {
        let d = draft_new(&tutor()).expect("drafts");
        let lines: Vec<&str> = d.yaml.lines().collect();
        let at = lines.iter().position(|l| *l == "expect:").expect("an expect: block");
        assert_eq!(lines[at - 1], REVIEW_MARK);
        let pool = CardPool::bundled().expect("pool");
        let loaded = load_str("drafted.yaml", &d.yaml, &pool).expect("loads");
        assert_eq!(loaded.scenario.source.reference, "CR 701.23a");
        assert_eq!(loaded.scenario.battlefield[0].owner.as_deref(), Some("Bob"));
        // Forest or Island found (or neither: 701.23d doesn't apply to "a card"… the oracle says).
        assert_eq!(loaded.scenario.expect.outcomes, Some(d.outcomes));
        assert!(d.outcomes >= 2, "{}", d.yaml);
        assert!(
            d.yaml.contains("kind: triggered") && d.yaml.contains("kind: shuffled"),
            "the draft counts the trigger and the shuffle:\n{}",
            d.yaml
        );
        match run_loaded(loaded) {
            RunResult::Pass { .. } => {}
            other => panic!("the draft must pass: {other:?}"),
        }
    }

    #[test]
    fn malformed_flags_say_which_flag_and_why() {
        let err = |f: &dyn Fn(&mut Skeleton)| {
            let mut s = tutor();
            f(&mut s);
            draft_new(&s).expect_err("refused").to_string()
        };
        assert!(err(&|s| s.cards.push("Carol.hand=Forest".into())).contains("no player `Carol`"));
        assert!(err(&|s| s.cards.push("Alice.deck=Forest".into())).contains("unknown zone `deck`"));
        assert!(err(&|s| s.cards.push("Forest".into())).contains("expected ZONE=CARD"));
        assert!(err(&|s| s.steps.push("cats: {}".into())).contains("--step `cats: {}`"));
        assert!(err(&|s| s.rules.clear()).contains("--rule"));
        assert!(err(&|s| s.cards.push("Alice.hand=Demonic Tutr".into())).contains("Demonic Tutor"), "did-you-mean");
    }
}
