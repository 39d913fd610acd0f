//! Between scenario files and protocol messages: a loaded scenario becomes a [`ScenarioMessage`]
//! with every id spelled out, and a message becomes a [`Scenario`] again (what `serve` runs).

use std::collections::BTreeSet;

use super::{Mode, ScenarioMessage};
use crate::cards::def::CardDef;
use crate::model::Game;
use crate::scenario::Loaded;
use crate::scenario::format::{CardSetup, Expectations, PlayerSetup, Scenario, Source, SourceKind, Step};
use crate::sim::Action;

/// Tags that describe a scenario's history rather than what an engine needs to run it.
const NOT_FEATURES: [&str; 1] = ["regression"];

/// The features a scenario needs: its tags (except `regression`), plus `hypothetical-card`,
/// `face-down` and `outside-the-game` when it uses them (whether or not its author tagged it).
pub fn features_of(scenario: &Scenario) -> Vec<String> {
    let mut out: BTreeSet<String> =
        scenario.tags.iter().filter(|t| !NOT_FEATURES.contains(&t.as_str())).cloned().collect();
    if !scenario.cards.is_empty() {
        out.insert("hypothetical-card".into());
    }
    let face_down = scenario
        .players
        .iter()
        .flat_map(|p| p.library.iter().chain(&p.hand).chain(&p.graveyard).chain(&p.outside))
        .chain(&scenario.battlefield)
        .chain(&scenario.exile)
        .any(|c| c.face_down);
    if face_down {
        out.insert("face-down".into());
    }
    if scenario.players.iter().any(|p| !p.outside.is_empty()) {
        out.insert("outside-the-game".into());
    }
    // Beginning a step of the turn (500–504) and permanents that start tapped: an engine needs a
    // way to move its game to that step, or to set up a tapped permanent.
    if scenario.steps.iter().any(|s| matches!(s, Step::BeginStep(_))) {
        out.insert("turn-steps".into());
    }
    if scenario.battlefield.iter().any(|c| c.tapped) {
        out.insert("tapped-at-start".into());
    }
    // A planeswalker set up with loyalty other than its printed number (306.5b).
    if scenario.battlefield.iter().any(|c| c.loyalty.is_some()) {
        out.insert("loyalty-at-start".into());
    }
    // Suspend (702.62): a card suspended from hand as a step (the 116.2f special action), or one
    // set up in exile with time counters, as if suspended on an earlier turn.
    if scenario.steps.iter().any(|s| matches!(s, Step::Suspend { .. })) {
        out.insert("suspend".into());
    }
    if scenario.exile.iter().any(|c| c.time_counters.is_some()) {
        out.insert("time-counters-at-start".into());
    }
    // Combat damage dealt earlier in the turn (prowl's condition, 702.76a): an engine needs a way
    // to record it without playing a combat.
    if scenario.players.iter().any(|p| !p.dealt_combat_damage_with.is_empty()) {
        out.insert("combat-damage-this-turn".into());
    }
    // Permanents put into graveyards earlier in the turn (gravestorm's count, 702.69a): an engine
    // needs a way to record them without playing them.
    if scenario.players.iter().any(|p| p.permanents_put_into_graveyard_earlier > 0) {
        out.insert("graveyard-count-this-turn".into());
    }
    // Steps that come from outside the scenario: an engine often has them only as a debug action
    // that skips what a real cause would do (a "leaves the battlefield" trigger), so each has a
    // tag an adapter can leave out of `supports.features`.
    for step in &scenario.steps {
        if let Some(tag) = outside_step_feature(step) {
            out.insert(tag.into());
        }
    }
    out.into_iter().collect()
}

/// The features of a loaded scenario: [`features_of`], plus `non-active-player-sorcery` when a
/// player other than the active one (the first) casts a spell with sorcery timing as a step: a
/// sorcery, or a permanent spell without flash (117.1a), while controlling at set-up nothing that lets them
/// cast spells as though they had flash (Vedalken Orrery; 702.8a); or activates a loyalty
/// ability, which has sorcery timing too (606.3), or suspends a card with sorcery timing
/// (702.62a: only when it could begin to be cast). The oracle doesn't model turns
/// (an adapter gives every player priority to take each step), but an engine that enforces
/// timing can't set that up, so it can leave the tag out of its features. An `attempt` refused
/// for timing (117.1a, 305.1) isn't tagged: an engine refuses it either way.
pub fn features_of_loaded(loaded: &Loaded) -> Vec<String> {
    let mut out = features_of(&loaded.scenario);
    let game = &loaded.setup.game;
    // Seat 0 is the active player (101.4).
    let active = 0;
    let sorcery_timed = |card: crate::model::ObjId, face: Option<usize>| {
        let chars = crate::rules::characteristics::stack_chars(&game.obj(card).def, face);
        !chars.types.contains(&crate::cards::def::CardType::Land) && !crate::rules::casting::has_instant_timing(&chars)
    };
    let tagged = loaded.setup.actions.iter().any(|action| {
        let action = match action {
            Action::Attempt { clause, .. } if clause == "117.1a" || clause == "305.1" => return false,
            Action::Attempt { action, .. } => action.as_ref(),
            a => a,
        };
        match *action {
            Action::Cast { player, card, face, .. } => {
                player != active
                    && !crate::rules::casting::casts_as_though_flash(game, player)
                    && sorcery_timed(card, face)
            }
            // Suspending is possible only when the card could begin to be cast (702.62a): for a
            // sorcery, in its owner's main phase (307.1), which the oracle doesn't check either.
            Action::Suspend(player, card) => player != active && sorcery_timed(card, None),
            // A loyalty ability has sorcery timing too (606.3).
            Action::Activate { player, card, ability, .. } => {
                player != active && game.obj(card).def.abilities.get(ability).is_some_and(|a| a.loyalty.is_some())
            }
            _ => false,
        }
    });
    if tagged {
        out.push("non-active-player-sorcery".into());
        out.sort();
    }
    out
}

/// The feature tag of a step something outside the scenario does (`dies`, `exile`,
/// `to_graveyard`, also inside an `attempt`).
pub fn outside_step_feature(step: &Step) -> Option<&'static str> {
    match step {
        Step::Dies { .. } => Some("step-dies"),
        Step::Exile { .. } => Some("step-exile"),
        Step::ToGraveyard { .. } => Some("step-to-graveyard"),
        Step::Attempt { step, .. } => outside_step_feature(step),
        _ => None,
    }
}

/// The scenario as sent to an engine in `mode`. Card ids, owners and controllers are filled in
/// from the loaded setup (the loader creates objects in file order: each player's library, hand,
/// graveyard and outside, then the battlefield, then exile), so the engine never derives a
/// default id itself.
pub fn scenario_message(loaded: &Loaded, mode: Mode) -> ScenarioMessage {
    let s = &loaded.scenario;
    let game = &loaded.setup.game;
    let mut next = 0usize;
    let mut fill = |c: &CardSetup, permanent: bool, in_player_zone: bool| -> CardSetup {
        let mut c = c.clone();
        if let Some(o) = game.objs.get(next) {
            c.id = Some(o.id_string());
            if !in_player_zone {
                c.owner = Some(game.players[o.owner].name.clone());
            }
            if permanent {
                c.controller = Some(game.players[o.controller].name.clone());
            }
        }
        next += 1;
        c
    };
    let players: Vec<PlayerSetup> = s
        .players
        .iter()
        .map(|p| {
            let mut p = p.clone();
            for zone in [&mut p.library, &mut p.hand, &mut p.graveyard, &mut p.outside] {
                *zone = zone.iter().map(|c| fill(c, false, true)).collect();
            }
            p
        })
        .collect();
    let battlefield = s.battlefield.iter().map(|c| fill(c, true, false)).collect();
    let exile = s.exile.iter().map(|c| fill(c, false, false)).collect();
    ScenarioMessage {
        title: s.title.clone(),
        rules: s.rules.clone(),
        features: features_of_loaded(loaded),
        players,
        battlefield,
        exile,
        steps: s.steps.clone(),
        decisions: if mode == Mode::Scripted { s.decisions.clone() } else { Vec::new() },
        cards: card_defs(game),
        hypothetical: s.cards.iter().map(|c| c.name.clone()).collect(),
    }
}

/// Every distinct card definition in the game, by name.
fn card_defs(game: &Game) -> Vec<CardDef> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for o in &game.objs {
        if seen.insert(o.def.name.clone()) {
            out.push((*o.def).clone());
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

/// A protocol scenario as a scenario the oracle can load: the hypothetical cards come from the
/// message, every other card from the card pool, and there are no expectations.
pub fn to_scenario(message: &ScenarioMessage) -> Scenario {
    let hypothetical: BTreeSet<&str> = message.hypothetical.iter().map(String::as_str).collect();
    Scenario {
        title: message.title.clone(),
        rules: message.rules.clone(),
        source: Source { kind: SourceKind::Clause, reference: "received over the engine protocol".into() },
        tags: Vec::new(),
        description: None,
        cards: message.cards.iter().filter(|c| hypothetical.contains(c.name.as_str())).cloned().collect(),
        players: message.players.clone(),
        battlefield: message.battlefield.clone(),
        exile: message.exile.clone(),
        steps: message.steps.clone(),
        decisions: message.decisions.clone(),
        expect: Expectations::default(),
    }
}
