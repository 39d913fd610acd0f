//! The `PlayerAgent` that plays a scenario: it takes the step's action when it gets priority,
//! answers prompts from the scripted decisions (else makes the first legal choice) and reports
//! every search, "may", discard, sacrifice and choice it was offered.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

use manabrew_engine::agent::{
    ManaAbilityOption, ManaCostAction, PlayCardMode, PlayerAgent, PriorityActionSpace, TargetChoice,
};
use manabrew_engine::combat::DefenderId;
use manabrew_engine::game::GameState;
use manabrew_engine::ids::{CardId, PlayerId};
use manabrew_engine::mana::ManaPool;
use manabrew_engine::player::actions::{AbilityRef, PlayerAction};
use manabrew_engine::spellability::SpellAbility;
use serde_json::{Value, json};

use crate::observe::Recorder;

/// What the current step asks a player to do at their next priority.
pub struct Pending {
    /// Who acts.
    pub player: PlayerId,
    /// The card cast or whose ability is activated.
    pub card: CardId,
    /// `Some(name)`: activate this ability; `None`: cast the card.
    pub ability: Option<String>,
    /// Cast with flashback (from the graveyard).
    pub flashback: bool,
    /// Targets, card ids or player names, in order.
    pub targets: Vec<String>,
    /// How many targets have been given.
    pub targets_given: usize,
    /// The engine took the action.
    pub done: bool,
    /// The engine didn't list the action among the player's options.
    pub not_offered: bool,
}

/// A failure that ends the run: a scripted choice the engine doesn't offer.
pub struct NoSuchChoice {
    /// Index into `scenario.decisions`.
    pub decision: usize,
    /// What the engine offered instead.
    pub offered: Value,
    /// Why.
    pub message: String,
}

/// State shared by every player's agent and the driver.
pub struct Shared {
    /// The event and offer log.
    pub rec: Recorder,
    /// `scenario.decisions` (empty in free mode).
    pub decisions: Vec<Value>,
    used: Vec<bool>,
    /// The step's action.
    pub pending: Option<Pending>,
    /// A scripted choice the engine didn't offer.
    pub no_such_choice: Option<NoSuchChoice>,
    /// Scenario id -> engine card.
    pub cards: HashMap<String, CardId>,
    /// Targets of a scripted `targets` decision not yet given.
    pub trigger_targets: Vec<String>,
    /// Player name -> engine player.
    pub players: HashMap<String, PlayerId>,
}

impl Shared {
    /// Shared state for one run.
    pub fn new(rec: Recorder, decisions: Vec<Value>) -> Self {
        let used = vec![false; decisions.len()];
        Shared {
            rec,
            decisions,
            used,
            pending: None,
            no_such_choice: None,
            cards: HashMap::new(),
            trigger_targets: Vec::new(),
            players: HashMap::new(),
        }
    }

    /// The first unused scripted decision of this kind for this player; marks it used.
    pub fn next_decision(&mut self, kind: &str, player: PlayerId) -> Option<(usize, Value)> {
        let name = self.rec.player_name(player);
        let index = self.decisions.iter().enumerate().position(|(i, d)| {
            !self.used[i] && d.get(kind).and_then(|v| v.get("player")).and_then(Value::as_str) == Some(name.as_str())
        })?;
        self.used[index] = true;
        Some((index, self.decisions[index][kind].clone()))
    }

    /// Whether the scripted decision at `index` has been used.
    pub fn is_used(&self, index: usize) -> bool {
        self.used.get(index).copied().unwrap_or(true)
    }

    fn card(&self, id: &str) -> Option<CardId> {
        self.cards.get(id).copied()
    }

    fn offered_search(&self, player: PlayerId, valid: &[CardId]) -> Value {
        let cards: Vec<String> = valid.iter().map(|&c| self.rec.card_name(c)).collect();
        json!({"step": self.rec.step, "player": self.rec.player_name(player),
               "decision": "search", "cards": cards})
    }
}

/// One player's agent.
pub struct ScriptedAgent {
    /// Whose.
    pub player: PlayerId,
    /// Shared state.
    pub shared: Rc<RefCell<Shared>>,
}

impl ScriptedAgent {
    /// The next scripted target: the step's targets while it has some left, else the
    /// next of a `targets` decision for this player (a triggered ability's targets).
    fn next_target(&mut self) -> Option<String> {
        let mut shared = self.shared.borrow_mut();
        if let Some(pending) = shared.pending.as_mut().filter(|p| p.targets_given < p.targets.len()) {
            let target = pending.targets.get(pending.targets_given).cloned();
            pending.targets_given += 1;
            return target;
        }
        if shared.trigger_targets.is_empty() {
            let player = self.player;
            if let Some((_, decision)) = shared.next_decision("targets", player) {
                shared.trigger_targets = decision["targets"]
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default();
            }
        }
        if shared.trigger_targets.is_empty() { None } else { Some(shared.trigger_targets.remove(0)) }
    }

    /// Answers one search prompt (a single card, or `bounds` for a multi-card prompt).
    fn search(
        &mut self,
        game: &GameState,
        player: PlayerId,
        valid: &[CardId],
        optional: bool,
        bounds: Option<(usize, usize)>,
    ) -> Vec<CardId> {
        let mut shared = self.shared.borrow_mut();
        if shared.no_such_choice.is_some() {
            return Vec::new();
        }
        let first_prompt = shared.rec.search_prompt(game, player, valid, optional, bounds);
        if first_prompt
            && !shared.decisions.is_empty()
            && let Some((index, decision)) = shared.next_decision("search", player)
        {
            let wanted: Vec<String> = decision["find"]
                .as_array()
                .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                .unwrap_or_default();
            let mut remaining = Vec::new();
            for id in &wanted {
                match shared.card(id) {
                    Some(card) => remaining.push(card),
                    None => {
                        let offered = shared.offered_search(player, valid);
                        shared.no_such_choice =
                            Some(NoSuchChoice { decision: index, offered, message: format!("unknown card id {id}") });
                        return Vec::new();
                    }
                }
            }
            if let Some((decision, cards)) = shared.rec.open_search() {
                *decision = Some(index);
                *cards = remaining;
            }
        }
        let scripted =
            shared.rec.open_search().and_then(|(decision, remaining)| decision.map(|d| (d, remaining.clone())));
        let chosen: Vec<CardId> = match scripted {
            Some((index, remaining)) => {
                let take = bounds.map(|(_, max)| max).unwrap_or(1);
                let fitting: Vec<CardId> = remaining.iter().copied().filter(|c| valid.contains(c)).take(take).collect();
                let need = bounds.map(|(min, _)| min).unwrap_or(if optional || valid.is_empty() { 0 } else { 1 });
                let unfit: Vec<CardId> = if bounds.is_some() {
                    remaining.iter().copied().filter(|c| !valid.contains(c)).collect()
                } else {
                    Vec::new()
                };
                // A scripted card this prompt doesn't offer: prompts only narrow, so it can't be
                // found later in this search either.
                let none_offered = !remaining.is_empty() && fitting.is_empty();
                if fitting.len() < need || !unfit.is_empty() || none_offered {
                    let offered = shared.offered_search(player, valid);
                    shared.no_such_choice = Some(NoSuchChoice {
                        decision: index,
                        offered,
                        message: format!(
                            "the engine's search prompt offers {} card(s) and requires at least {need}; the script's cards it doesn't offer: {:?}",
                            valid.len(),
                            remaining
                                .iter()
                                .filter(|c| !valid.contains(c))
                                .map(|&c| shared.rec.card_name(c))
                                .collect::<Vec<_>>()
                        ),
                    });
                    return Vec::new();
                }
                if let Some((_, left)) = shared.rec.open_search() {
                    left.retain(|c| !fitting.contains(c));
                }
                fitting
            }
            None => {
                // The agent's own choice: as many cards as the prompt allows, from the front.
                let take = bounds.map(|(_, max)| max).unwrap_or(1);
                valid.iter().copied().take(take).collect()
            }
        };
        chosen
    }

    fn may(&mut self, player: PlayerId) -> bool {
        let mut shared = self.shared.borrow_mut();
        shared.rec.offer(player, "may", &[]);
        match shared.next_decision("may", player) {
            Some((_, decision)) => decision["accept"].as_bool().unwrap_or(true),
            None => true,
        }
    }

    fn pick_cards(&mut self, player: PlayerId, kind: &str, valid: &[CardId], count: usize) -> Vec<CardId> {
        let mut shared = self.shared.borrow_mut();
        shared.rec.offer(player, kind, valid);
        if let Some((index, decision)) = shared.next_decision(kind, player) {
            let ids: Vec<String> = match decision.get("cards") {
                Some(cards) => cards
                    .as_array()
                    .map(|a| a.iter().filter_map(|v| v.as_str().map(String::from)).collect())
                    .unwrap_or_default(),
                None => decision["card"].as_str().map(|s| vec![s.to_string()]).unwrap_or_default(),
            };
            let wanted: Vec<Option<CardId>> = ids.iter().map(|id| shared.card(id)).collect();
            if wanted.iter().any(|c| c.is_none_or(|c| !valid.contains(&c))) {
                let cards: Vec<String> = valid.iter().map(|&c| shared.rec.card_name(c)).collect();
                let offered = json!({"step": shared.rec.step, "player": shared.rec.player_name(player),
                                     "decision": kind, "cards": cards});
                shared.no_such_choice = Some(NoSuchChoice {
                    decision: index,
                    offered,
                    message: format!("the engine doesn't offer {ids:?} for this {kind}"),
                });
                return valid.iter().copied().take(count).collect();
            }
            return wanted.into_iter().flatten().collect();
        }
        valid.iter().copied().take(count).collect()
    }
}

impl PlayerAgent for ScriptedAgent {
    fn snapshot_state(&mut self, game: &GameState, _mana_pools: &[ManaPool]) {
        self.shared.borrow_mut().rec.observe(game);
    }

    fn mulligan_decision(&mut self, _: PlayerId, _: &[CardId], _: u32) -> bool {
        true
    }

    fn choose_action(
        &mut self,
        player: PlayerId,
        action_space: Option<&PriorityActionSpace>,
        request_action_space: &mut dyn FnMut() -> PriorityActionSpace,
    ) -> PlayerAction {
        let wants = {
            let shared = self.shared.borrow();
            match &shared.pending {
                Some(p) if p.player == player && !p.done && !p.not_offered => {
                    Some((p.card, p.ability.clone(), p.flashback))
                }
                _ => None,
            }
        };
        let Some((card, ability, flashback)) = wants else {
            return PlayerAction::PassPriority;
        };
        let requested;
        let space = match action_space {
            Some(space) => space,
            None => {
                requested = request_action_space();
                &requested
            }
        };
        let action = match &ability {
            None => space
                .playable
                .iter()
                .find(|o| {
                    o.card_id == card
                        && if flashback {
                            matches!(
                                o.mode,
                                PlayCardMode::Alternative(
                                    manabrew_engine::spellability::alternative_cost::AlternativeCost::Flashback
                                )
                            )
                        } else {
                            matches!(o.mode, PlayCardMode::Normal)
                        }
                })
                .map(|o| PlayerAction::CastSpell(*o)),
            Some(name) => {
                let wanted = name.to_lowercase().replace(['_', ' ', '-'], "");
                let of_card: Vec<_> =
                    space.activatable.iter().filter(|a| a.card_id == card && !a.is_mana_ability).collect();
                of_card
                    .iter()
                    .find(|a| a.description.to_lowercase().replace(['_', ' ', '-'], "").contains(&wanted))
                    .or(if of_card.len() == 1 { of_card.first() } else { None })
                    .map(|a| {
                        PlayerAction::ActivateAbility(AbilityRef { card_id: a.card_id, ability_index: a.ability_index })
                    })
            }
        };
        let mut shared = self.shared.borrow_mut();
        let pending = shared.pending.as_mut().expect("pending action");
        match action {
            Some(action) => {
                pending.done = true;
                if let PlayerAction::CastSpell(option) = &action
                    && matches!(
                        option.mode,
                        PlayCardMode::Alternative(
                            manabrew_engine::spellability::alternative_cost::AlternativeCost::Flashback
                        )
                    )
                {
                    shared.rec.flashback_cast = Some(card);
                }
                if let Some(name) = ability {
                    shared.rec.activating = Some((card, name));
                }
                action
            }
            None => {
                pending.not_offered = true;
                PlayerAction::PassPriority
            }
        }
    }

    fn choose_attackers(&mut self, _: PlayerId, _: &[CardId], _: &[DefenderId]) -> Vec<(CardId, DefenderId)> {
        Vec::new()
    }

    fn choose_blockers(&mut self, _: PlayerId, _: &[CardId], _: &[CardId], _: Option<usize>) -> Vec<(CardId, CardId)> {
        Vec::new()
    }

    fn choose_targets_for(&mut self, sa: &mut SpellAbility, game: &GameState, mana_pools: &[ManaPool]) -> bool {
        manabrew_engine::spellability::choose_targets_by_kind(self, sa, game, mana_pools)
    }

    fn choose_target_player(&mut self, _: PlayerId, valid: &[PlayerId], _: Option<&SpellAbility>) -> Option<PlayerId> {
        if let Some(target) = self.next_target() {
            let wanted = self.shared.borrow().players.get(&target).copied();
            if let Some(p) = wanted.filter(|p| valid.contains(p)) {
                return Some(p);
            }
        }
        valid.first().copied()
    }

    fn choose_target_card(&mut self, _: PlayerId, valid: &[CardId], _: Option<&SpellAbility>) -> Option<CardId> {
        if let Some(target) = self.next_target() {
            let wanted = self.shared.borrow().card(&target);
            if let Some(c) = wanted.filter(|c| valid.contains(c)) {
                return Some(c);
            }
        }
        valid.first().copied()
    }

    fn choose_target_any(
        &mut self,
        _: PlayerId,
        valid_players: &[PlayerId],
        valid_cards: &[CardId],
        _: Option<&SpellAbility>,
    ) -> TargetChoice {
        if let Some(target) = self.next_target() {
            let shared = self.shared.borrow();
            if let Some(p) = shared.players.get(&target).filter(|p| valid_players.contains(p)) {
                return TargetChoice::Player(*p);
            }
            if let Some(c) = shared.card(&target).filter(|c| valid_cards.contains(c)) {
                return TargetChoice::Card(c);
            }
        }
        if let Some(&c) = valid_cards.first() {
            TargetChoice::Card(c)
        } else if let Some(&p) = valid_players.first() {
            TargetChoice::Player(p)
        } else {
            TargetChoice::None
        }
    }

    fn choose_sacrifice(&mut self, player: PlayerId, valid: &[CardId], _: Option<CardId>) -> Option<CardId> {
        let chosen = self.pick_cards(player, "sacrifice", valid, 1).into_iter().next();
        if let Some(card) = chosen {
            self.shared.borrow_mut().rec.sacrifice_choices.push(card);
        }
        chosen
    }

    fn choose_discard(&mut self, player: PlayerId, hand: &[CardId], num: usize) -> Vec<CardId> {
        self.pick_cards(player, "discard", hand, num)
    }

    fn reveal_cards(
        &mut self,
        _game: &GameState,
        player: PlayerId,
        cards: &[CardId],
        _zone: forge_foundation::ZoneType,
        owner: PlayerId,
        _message_prefix: Option<&str>,
    ) {
        let _ = player;
        self.shared.borrow_mut().rec.reveal(self.player, owner, cards);
    }

    fn choose_single_card_for_zone_change(
        &mut self,
        game: &GameState,
        player: PlayerId,
        valid: &[CardId],
        _select_prompt: &str,
        is_optional: bool,
    ) -> Option<CardId> {
        self.search(game, player, valid, is_optional, None).into_iter().next()
    }

    fn choose_cards_for_zone_change(
        &mut self,
        game: &GameState,
        player: PlayerId,
        valid: &[CardId],
        min: usize,
        max: usize,
        _select_prompt: &str,
    ) -> Vec<CardId> {
        self.search(game, player, valid, min == 0, Some((min, max)))
    }

    fn choose_optional_trigger(
        &mut self,
        player: PlayerId,
        _description: &str,
        _source: Option<CardId>,
        _api: Option<manabrew_engine::ability::api_type::ApiType>,
    ) -> bool {
        self.may(player)
    }

    fn confirm_action(
        &mut self,
        player: PlayerId,
        mode: Option<&str>,
        message: &str,
        _options: &[String],
        _source: Option<CardId>,
        _api: Option<manabrew_engine::ability::api_type::ApiType>,
    ) -> bool {
        if mode == Some("ChangeZoneGeneral") && message.starts_with("Cancel search") {
            // The engine asks whether to cancel after an empty answer: keep the answer.
            return false;
        }
        let accepted = self.may(player);
        // "Search Bob's library?": the engine's question before an optional search.
        if mode == Some("ChangeZoneGeneral")
            && accepted
            && let Some(rest) = message.strip_prefix("Search ").and_then(|r| r.strip_suffix('?'))
            && let Some((name, _zone)) = rest.rsplit_once("'s ")
        {
            let mut shared = self.shared.borrow_mut();
            if shared.players.contains_key(name) {
                shared.rec.announce_search(player);
            }
        }
        accepted
    }

    fn choose_card_name(&mut self, player: PlayerId, valid_names: &[String]) -> Option<String> {
        let mut shared = self.shared.borrow_mut();
        let scripted = shared.next_decision("name", player).and_then(|(_, d)| d["name"].as_str().map(String::from));
        let name = scripted.or_else(|| valid_names.first().cloned())?;
        let step = shared.rec.step;
        let who = shared.rec.player_name(player);
        shared.rec.events.push(json!({"step": step, "event": "named", "player": who, "name": name}));
        Some(name)
    }

    fn choose_cards_for_effect(&mut self, player: PlayerId, valid: &[CardId], min: usize, max: usize) -> Vec<CardId> {
        let chosen = self.pick_cards(player, "choose", valid, max.max(min).min(1));
        let mut shared = self.shared.borrow_mut();
        let step = shared.rec.step;
        let who = shared.rec.player_name(player);
        for &card in &chosen {
            let id = shared.rec.card_name(card);
            shared.rec.events.push(json!({"step": step, "event": "chose", "player": who, "card": id}));
        }
        chosen
    }

    fn confirm_replacement_effect(
        &mut self,
        player: PlayerId,
        question: &str,
        effect_description: &str,
        source: Option<CardId>,
    ) -> bool {
        let is_dredge =
            effect_description.to_lowercase().contains("dredge") || question.to_lowercase().contains("dredge");
        let Some(card) = source.filter(|_| is_dredge) else {
            eprintln!("manabrew-adapter: confirm_replacement_effect {question:?} (accepted)");
            return true;
        };
        let mut shared = self.shared.borrow_mut();
        // The engine asks once per dredge card for the same draw: one offer lists them all.
        shared.rec.offer_dredge(player, &[card]);
        let accept = match shared.next_decision("dredge", player) {
            Some((_, decision)) => decision["card"].as_str() == Some(shared.rec.card_name(card).as_str()),
            None => true,
        };
        if accept {
            let step = shared.rec.step;
            let who = shared.rec.player_name(player);
            let id = shared.rec.card_name(card);
            let draw = shared.rec.draws_in_step + 1;
            shared.rec.events.push(json!({"step": step, "event": "dredged", "player": who, "card": id, "draw": draw}));
        }
        accept
    }

    fn choose_single_replacement_effect(&mut self, player: PlayerId, descriptions: &[String]) -> usize {
        // "<card name>: <description>" for each replacement effect that applies.
        let names: Vec<&str> =
            descriptions.iter().map(|d| d.split_once(": ").map(|(name, _)| name).unwrap_or(d.as_str())).collect();
        let all_dredge = !descriptions.is_empty() && descriptions.iter().all(|d| d.to_lowercase().contains("dredge"));
        if !all_dredge {
            eprintln!("manabrew-adapter: choose_single_replacement_effect {descriptions:?} (first)");
            return 0;
        }
        let mut shared = self.shared.borrow_mut();
        let mut cards: Vec<CardId> = Vec::new();
        for name in &names {
            for card in shared.rec.graveyard_cards_named(player, name) {
                if !cards.contains(&card) {
                    cards.push(card);
                }
            }
        }
        shared.rec.offer_dredge(player, &cards);
        // The scripted dredge card, if any, is the one to ask about (its confirm answers yes).
        let player_name = shared.rec.player_name(player);
        let scripted = shared
            .decisions
            .iter()
            .enumerate()
            .find(|(i, d)| !shared.is_used(*i) && d["dredge"]["player"].as_str() == Some(player_name.as_str()))
            .and_then(|(_, d)| d["dredge"]["card"].as_str().map(String::from));
        scripted
            .and_then(|id| shared.cards.get(&id).copied())
            .and_then(|card| shared.rec.names.get(&card).cloned())
            .and_then(|name| names.iter().position(|n| *n == name))
            .unwrap_or(0)
    }

    fn pay_mana_cost(
        &mut self,
        _player: PlayerId,
        _card_id: CardId,
        _card_name: &str,
        _mana_cost: &str,
        _mana_cost_display: &str,
        _mana_cost_checkpoint: &str,
        can_confirm_from_pool: bool,
        _allow_reserved_source_reuse: bool,
        _reserved_sacrifices: &[CardId],
        _mana_ability_options: &[ManaAbilityOption],
        _tappable_lands: &[CardId],
        _untappable_lands: &[CardId],
        _mana_pool: &ManaPool,
    ) -> ManaCostAction {
        if can_confirm_from_pool { ManaCostAction::Pay { auto: false } } else { ManaCostAction::Pay { auto: true } }
    }

    fn choose_land_or_spell(&mut self, _: PlayerId) -> Option<bool> {
        None
    }
}
