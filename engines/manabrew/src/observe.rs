//! What the adapter reads off the engine: zone changes, life changes, casts and triggers (from
//! the stack), shuffles (from a recording `GameRng`), search offers (from the engine's search
//! prompts) and reveals (from `reveal_cards`). Nothing here is worked out from the rules: an
//! event is logged only when the engine's own state or callbacks show it. No `searched` event
//! is logged: some of the engine's searches have no prompt for a zone (a graveyard
//! `ChangeZoneAll`), so the adapter can't report every search and doesn't declare the
//! `searched` observable; the judge reads what each search found from the moves.

use std::cell::RefCell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

use forge_foundation::ZoneType;
use manabrew_engine::game::GameState;
use manabrew_engine::game_rng::GameRng;
use manabrew_engine::ids::{CardId, PlayerId};
use serde_json::{Value, json};

/// The zones the outcome names, per player.
pub const PLAYER_ZONES: [ZoneType; 7] = [
    ZoneType::Library,
    ZoneType::Hand,
    ZoneType::Graveyard,
    ZoneType::Battlefield,
    ZoneType::Exile,
    ZoneType::Stack,
    ZoneType::Sideboard,
];

/// Every shuffle the engine asks its RNG for: the cards handed to `shuffle_cards`.
pub type ShuffleLog = Rc<RefCell<Vec<Vec<CardId>>>>;

/// A `GameRng` that shuffles like the engine's default one and records what it shuffled.
pub struct RecordingRng {
    /// Where each shuffle is recorded.
    pub log: ShuffleLog,
}

impl GameRng for RecordingRng {
    fn shuffle_cards(&mut self, cards: &mut [CardId]) {
        use rand::seq::SliceRandom;
        self.log.borrow_mut().push(cards.to_vec());
        cards.shuffle(&mut rand::thread_rng());
    }

    fn next_int(&mut self, bound: i32) -> i32 {
        use rand::Rng;
        if bound <= 0 {
            return 0;
        }
        rand::thread_rng().gen_range(0..bound)
    }
}

/// Where every card is, and each player's life, at one moment.
#[derive(Default, Clone)]
struct Snapshot {
    /// Card -> (zone name, zone timestamp).
    cards: HashMap<CardId, (String, u64)>,
    life: Vec<i32>,
    /// Stack entry ids seen.
    stack: Vec<u32>,
    /// +1/+1 counters on permanents.
    counters: HashMap<CardId, i32>,
}

/// A search in progress: one or more consecutive search prompts of one player, reported as one
/// `search` offer.
struct OpenSearch {
    chooser: PlayerId,
    offer_index: usize,
    /// Index into the scenario's decisions, when a scripted one answers it.
    pub decision: Option<usize>,
    /// Scripted cards not yet given.
    pub remaining: Vec<CardId>,
    prompts: usize,
    mandatory_prompts: usize,
    multi_bounds: Option<(usize, usize)>,
}

/// A reveal the engine showed to some players.
struct PendingReveal {
    player: PlayerId,
    cards: Vec<CardId>,
    viewers: Vec<PlayerId>,
}

/// The log of one run.
pub struct Recorder {
    /// Engine card -> scenario id.
    pub ids: HashMap<CardId, String>,
    /// Engine card -> card name.
    pub names: HashMap<CardId, String>,
    /// Player names by engine index.
    pub players: Vec<String>,
    /// The scenario step being carried out.
    pub step: usize,
    /// The event log.
    pub events: Vec<Value>,
    /// The options offered.
    pub offers: Vec<Value>,
    /// Shuffles recorded by the RNG, not yet attributed.
    pub shuffles: ShuffleLog,
    /// Name of the ability being activated (the step's name for it), by source card.
    pub activating: Option<(CardId, String)>,
    last: Snapshot,
    search: Option<OpenSearch>,
    reveals: Vec<PendingReveal>,
    tokens: usize,
    /// The last dredge offer: (offer index, draws seen in the step when offered, step).
    pub last_dredge_offer: Option<(usize, usize, usize)>,
    /// Permanents the engine asked a player to choose for a sacrifice (not yet seen leaving).
    pub sacrifice_choices: Vec<CardId>,
    /// The card whose cast the agent made with flashback (the engine's flashback cast mode).
    pub flashback_cast: Option<CardId>,
    /// Draws from this player's library seen in this step (moves library -> hand), for dredge's
    /// draw index.
    pub draws_in_step: usize,
    /// Problems the adapter met that make the run unreportable (logged to stderr).
    pub problems: Vec<String>,
}

impl Recorder {
    /// A recorder for a game with these players.
    pub fn new(players: Vec<String>, shuffles: ShuffleLog) -> Self {
        Recorder {
            ids: HashMap::new(),
            names: HashMap::new(),
            players,
            step: 0,
            events: Vec::new(),
            offers: Vec::new(),
            shuffles,
            activating: None,
            last: Snapshot::default(),
            search: None,
            reveals: Vec::new(),
            tokens: 0,
            flashback_cast: None,
            sacrifice_choices: Vec::new(),
            last_dredge_offer: None,
            draws_in_step: 0,
            problems: Vec::new(),
        }
    }

    /// The player's name.
    pub fn player_name(&self, player: PlayerId) -> String {
        self.players.get(player.index()).cloned().unwrap_or_else(|| format!("player{}", player.index()))
    }

    /// The scenario id of an engine card (tokens get one when first seen).
    pub fn card_name(&self, card: CardId) -> String {
        self.ids.get(&card).cloned().unwrap_or_else(|| format!("engine-card-{}", card.0))
    }

    fn zone_name(&self, zone: ZoneType, owner: PlayerId) -> Option<String> {
        let player = self.player_name(owner);
        Some(match zone {
            ZoneType::Library => format!("{player}.library"),
            ZoneType::Hand => format!("{player}.hand"),
            ZoneType::Graveyard => format!("{player}.graveyard"),
            ZoneType::Sideboard => format!("{player}.outside"),
            ZoneType::Battlefield => "battlefield".to_string(),
            ZoneType::Exile => "exile".to_string(),
            ZoneType::Stack => "stack".to_string(),
            _ => return None,
        })
    }

    fn take_snapshot(&self, game: &GameState) -> Snapshot {
        let mut snapshot = Snapshot::default();
        for player in 0..self.players.len() {
            let pid = PlayerId(player as u32);
            for zone in PLAYER_ZONES {
                let Some(name) = self.zone_name(zone, pid) else {
                    continue;
                };
                for &card in game.cards_in_zone(zone, pid) {
                    let stamp = game.card(card).zone_timestamp;
                    snapshot.cards.insert(card, (name.clone(), stamp));
                }
            }
            snapshot.life.push(game.player(pid).life);
        }
        snapshot.stack = game.stack.iter().map(|entry| entry.id).collect();
        for (&card, (zone, _)) in &snapshot.cards {
            if zone == "battlefield" {
                let count = plus_one_counters(game, card);
                if count > 0 {
                    snapshot.counters.insert(card, count);
                }
            }
        }
        snapshot
    }

    /// Takes the starting state (after set-up, before the first step).
    pub fn start(&mut self, game: &GameState) {
        self.last = self.take_snapshot(game);
        self.shuffles.borrow_mut().clear();
    }

    /// Logs what changed in the engine since the last look.
    pub fn observe(&mut self, game: &GameState) {
        let now = self.take_snapshot(game);
        // New stack entries: casts, activations, triggers.
        for entry in game.stack.iter() {
            if self.last.stack.contains(&entry.id) || entry.is_pending_cast {
                continue;
            }
            let sa = &entry.spell_ability;
            let controller = self.player_name(sa.activating_player);
            if sa.is_trigger {
                let source = sa.source.or(sa.trigger_source).map(|c| self.card_name(c)).unwrap_or_default();
                let mut event = json!({"step": self.step, "event": "triggered",
                                       "source": source, "controller": controller});
                // The triggering player, for triggers about a player's action.
                let kind = sa
                    .source
                    .zip(sa.trigger_index)
                    .and_then(|(card, index)| game.card(card).triggers.get(index))
                    .map(|trigger| trigger.kind);
                use manabrew_engine::trigger::TriggerType as T;
                if matches!(kind, Some(T::SearchedLibrary | T::Shuffled | T::Cycled | T::Discarded | T::Sacrificed)) {
                    let key = manabrew_engine::ability::AbilityKey::Player;
                    // The engine stores the player as a player value or as its index in text.
                    let triggering = sa.get_triggering_player(key).or_else(|| {
                        sa.get_triggering_object(key).and_then(|text| text.parse::<u32>().ok()).map(PlayerId)
                    });
                    if let Some(player) = triggering {
                        event["player"] = json!(self.player_name(player));
                    }
                }
                let targets = self.targets_of(sa);
                if !targets.is_empty() {
                    event["targets"] = json!(targets);
                }
                self.events.push(event);
            } else if sa.is_spell {
                if let Some(card) = sa.source {
                    let mut event = json!({"step": self.step, "event": "cast",
                                           "player": controller, "card": self.card_name(card)});
                    if self.flashback_cast == Some(card) {
                        self.flashback_cast = None;
                        event["flashback"] = json!(true);
                    }
                    self.events.push(event);
                }
            } else if let Some(card) = sa.source
                && let Some((source, ability)) = self.activating.take()
                && source == card
            {
                self.events.push(json!({"step": self.step, "event": "activated",
                                                "player": controller, "card": self.card_name(card),
                                                "ability": ability}));
            }
        }
        let mut new_stack = now.stack.clone();
        // Entries still pending stay unseen so their cast is logged once complete.
        new_stack.retain(|id| game.stack.iter().any(|entry| entry.id == *id && !entry.is_pending_cast));
        // Zone changes.
        let mut moves: Vec<(CardId, String, String)> = Vec::new();
        let mut ordered: Vec<(&CardId, &(String, u64))> = now.cards.iter().collect();
        ordered.sort_by_key(|(card, _)| card.0);
        for (card, (zone, stamp)) in ordered {
            match self.last.cards.get(card) {
                Some((old_zone, old_stamp)) => {
                    if old_zone != zone || old_stamp != stamp {
                        moves.push((*card, old_zone.clone(), zone.clone()));
                    }
                }
                None => {
                    if !self.ids.contains_key(card) {
                        self.tokens += 1;
                        let name = game.card(*card).card_name.to_lowercase().replace(' ', "-");
                        let id = format!("{name}-token-{}", self.tokens);
                        let owner = self.player_name(game.card(*card).owner);
                        self.ids.insert(*card, id.clone());
                        self.events.push(json!({"step": self.step, "event": "created",
                                                "player": owner, "card": id,
                                                "token": game.card(*card).card_name}));
                    }
                }
            }
        }
        if !moves.is_empty() {
            self.close_search();
        }
        for (card, from, to) in moves {
            let id = self.card_name(card);
            if from.ends_with(".library") && to.ends_with(".hand") {
                self.draws_in_step += 1;
            }
            self.events.push(json!({"step": self.step, "event": "moved",
                                    "card": id, "from": from, "to": to}));
            // The engine records the last permanent sacrificed (`GameState::last_sacrificed_card`).
            let chosen_for_sacrifice = self.sacrifice_choices.contains(&card);
            if from == "battlefield" && (chosen_for_sacrifice || game.last_sacrificed_card == Some(card)) {
                self.sacrifice_choices.retain(|c| *c != card);
                let player = self.player_name(self.last_controller(card, game));
                self.events.push(json!({"step": self.step, "event": "sacrificed",
                                        "player": player, "card": id.clone()}));
            }
            // The engine marks a discarded card (`Card::discarded`, set by its discard action).
            if from.ends_with(".hand") && to.ends_with(".graveyard") && game.card(card).discarded {
                let player = self.player_name(game.card(card).owner);
                self.events.push(json!({"step": self.step, "event": "discarded",
                                        "player": player, "card": id}));
            }
        }
        // Shuffles.
        let shuffles: Vec<Vec<CardId>> = self.shuffles.borrow_mut().drain(..).collect();
        for cards in shuffles {
            match self.library_of_shuffle(game, &now, &cards) {
                Some(player) => self.events.push(json!({"step": self.step, "event": "shuffled",
                                                        "library": self.player_name(player)})),
                None => self.problems.push(format!(
                    "step {}: the engine shuffled {} card(s) the adapter can't attribute to one library",
                    self.step,
                    cards.len()
                )),
            }
        }
        self.flush_reveals();
        // +1/+1 counters put on permanents.
        let mut counted: Vec<(&CardId, &i32)> = now.counters.iter().collect();
        counted.sort_by_key(|(card, _)| card.0);
        for (card, &count) in counted {
            let before = self.last.counters.get(card).copied().unwrap_or(0);
            if count > before {
                self.events.push(json!({"step": self.step, "event": "counters",
                                        "card": self.card_name(*card), "count": count - before}));
            }
        }
        // Life.
        for (index, (&old, &new)) in self.last.life.iter().zip(now.life.iter()).enumerate() {
            let player = self.players[index].clone();
            if new < old {
                self.events.push(json!({"step": self.step, "event": "lost_life",
                                        "player": player, "amount": old - new}));
            } else if new > old {
                self.events.push(json!({"step": self.step, "event": "gained_life",
                                        "player": player, "amount": new - old}));
            }
        }
        self.last = now;
        self.last.stack = new_stack;
    }

    /// Who controlled a permanent that just left the battlefield (its controller field keeps
    /// the last one).
    fn last_controller(&self, card: CardId, game: &GameState) -> PlayerId {
        game.card(card).controller
    }

    /// The +1/+1 counters the engine has on a card.
    pub fn counters(&self, game: &GameState) -> BTreeMap<String, i32> {
        let mut out = BTreeMap::new();
        for player in 0..self.players.len() {
            for &card in game.cards_in_zone(ZoneType::Battlefield, PlayerId(player as u32)) {
                let count = plus_one_counters(game, card);
                if count > 0 {
                    out.insert(self.card_name(card), count);
                }
            }
        }
        out
    }

    /// The targets the engine recorded for a spell or ability: cards and players.
    fn targets_of(&self, sa: &manabrew_engine::spellability::SpellAbility) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        if !sa.uses_targeting() {
            // A "Defined" player or card the engine keeps in the same record isn't a target.
            return out;
        }
        let chosen = &sa.target_chosen;
        if let Some(card) = chosen.target_card {
            out.push(self.card_name(card));
        }
        for player in chosen.target_player.iter().chain(&chosen.additional_target_players) {
            out.push(self.player_name(*player));
        }
        out
    }

    /// The player whose library the engine shuffled: every shuffled card is in (or was just in)
    /// its owner's library. An empty shuffle is attributed only when exactly one library is
    /// empty both before and after.
    fn library_of_shuffle(&self, game: &GameState, now: &Snapshot, cards: &[CardId]) -> Option<PlayerId> {
        if cards.is_empty() {
            let empty: Vec<usize> = (0..self.players.len())
                .filter(|&p| {
                    let library = format!("{}.library", self.players[p]);
                    !self.last.cards.values().any(|(zone, _)| *zone == library)
                        && !now.cards.values().any(|(zone, _)| *zone == library)
                })
                .collect();
            return (empty.len() == 1).then(|| PlayerId(empty[0] as u32));
        }
        let owner = game.card(cards[0]).owner;
        let library = format!("{}.library", self.player_name(owner));
        let in_library = |card: &CardId| {
            now.cards.get(card).is_some_and(|(zone, _)| *zone == library)
                || self.last.cards.get(card).is_some_and(|(zone, _)| *zone == library)
        };
        cards.iter().all(in_library).then_some(owner)
    }

    /// A search prompt: `valid` are the cards offered. Returns the open search (new or
    /// continued).
    pub fn search_prompt(
        &mut self,
        game: &GameState,
        chooser: PlayerId,
        valid: &[CardId],
        optional: bool,
        bounds: Option<(usize, usize)>,
    ) -> bool {
        self.observe(game);
        // A search the engine announced with its "Search <player>'s <zone>?" question gets its
        // first prompt now: the offer is made here.
        let announced =
            self.search.as_ref().is_some_and(|s| s.chooser == chooser && s.prompts == 0 && s.offer_index == usize::MAX);
        if announced {
            let cards: Vec<String> = valid.iter().map(|&c| self.card_name(c)).collect();
            self.offers.push(json!({"step": self.step, "player": self.player_name(chooser),
                                    "decision": "search", "cards": cards, "min": 0, "max": 0}));
            let search = self.search.as_mut().expect("announced search");
            search.offer_index = self.offers.len() - 1;
            search.multi_bounds = bounds;
        }
        let continues = announced
            || self
                .search
                .as_ref()
                .is_some_and(|s| s.chooser == chooser && bounds.is_none() && s.multi_bounds.is_none());
        if !continues {
            self.close_search();
            let cards: Vec<String> = valid.iter().map(|&c| self.card_name(c)).collect();
            self.offers.push(json!({"step": self.step, "player": self.player_name(chooser),
                                    "decision": "search", "cards": cards, "min": 0, "max": 0}));
            self.search = Some(OpenSearch {
                chooser,
                offer_index: self.offers.len() - 1,
                decision: None,
                remaining: Vec::new(),
                prompts: 0,
                mandatory_prompts: 0,
                multi_bounds: bounds,
            });
        }
        let search = self.search.as_mut().expect("open search");
        if !valid.is_empty() {
            search.prompts += 1;
            if !optional {
                search.mandatory_prompts += 1;
            }
        }
        !continues
    }

    /// A search the engine announced ("Search <player>'s <zone>?") and the chooser accepted: its
    /// first prompt, if one follows, opens its offer.
    pub fn announce_search(&mut self, chooser: PlayerId) {
        self.close_search();
        self.search = Some(OpenSearch {
            chooser,
            offer_index: usize::MAX,
            decision: None,
            remaining: Vec::new(),
            prompts: 0,
            mandatory_prompts: 0,
            multi_bounds: None,
        });
    }

    /// The cards with this name in the player's graveyard, at the last look.
    pub fn graveyard_cards_named(&self, player: PlayerId, name: &str) -> Vec<CardId> {
        let graveyard = format!("{}.graveyard", self.player_name(player));
        let mut cards: Vec<CardId> = self
            .last
            .cards
            .iter()
            .filter(|(card, (zone, _))| *zone == graveyard && self.names.get(card).is_some_and(|n| n == name))
            .map(|(card, _)| *card)
            .collect();
        cards.sort_by_key(|c| c.0);
        cards
    }

    /// The dredge offer of the current draw, made or extended with `cards`.
    pub fn offer_dredge(&mut self, player: PlayerId, cards: &[CardId]) {
        let draw = self.draws_in_step;
        let step = self.step;
        let name = self.player_name(player);
        let current = self.last_dredge_offer.filter(|&(index, d, s)| {
            d == draw && s == step && self.offers.get(index).is_some_and(|o| o["player"] == json!(name))
        });
        match current {
            Some((index, _, _)) => {
                for &card in cards {
                    let id = json!(self.card_name(card));
                    if let Some(list) = self.offers[index]["cards"].as_array_mut()
                        && !list.contains(&id)
                    {
                        list.push(id);
                    }
                }
            }
            None => {
                self.offer(player, "dredge", cards);
                self.last_dredge_offer = Some((self.offers.len() - 1, draw, step));
            }
        }
    }

    /// The open search, to answer its prompt.
    pub fn open_search(&mut self) -> Option<(&mut Option<usize>, &mut Vec<CardId>)> {
        self.search.as_mut().map(|s| (&mut s.decision, &mut s.remaining))
    }

    /// Closes the open search: writes its offered bounds.
    pub fn close_search(&mut self) {
        let Some(search) = self.search.take() else {
            return;
        };
        let (min, max) = match search.multi_bounds {
            Some(bounds) => bounds,
            None => (search.mandatory_prompts, search.prompts),
        };
        if search.offer_index == usize::MAX {
            return;
        }
        let offer = &mut self.offers[search.offer_index];
        let offered = offer["cards"].as_array().map(Vec::len).unwrap_or(0);
        offer["min"] = json!(min.min(offered));
        offer["max"] = json!(max.min(offered));
    }

    /// A reveal shown to `viewer`.
    pub fn reveal(&mut self, viewer: PlayerId, player: PlayerId, cards: &[CardId]) {
        if let Some(last) = self.reveals.last_mut()
            && last.player == player
            && last.cards == cards
            && !last.viewers.contains(&viewer)
        {
            last.viewers.push(viewer);
            return;
        }
        self.reveals.push(PendingReveal { player, cards: cards.to_vec(), viewers: vec![viewer] });
    }

    /// Reveals shown to every player are `revealed` events; one shown to fewer is a look, which
    /// this adapter doesn't report (`looked_at` is not declared).
    fn flush_reveals(&mut self) {
        let reveals: Vec<PendingReveal> = self.reveals.drain(..).collect();
        for reveal in reveals {
            if reveal.viewers.len() >= self.players.len() {
                let cards: Vec<String> = reveal.cards.iter().map(|&c| self.card_name(c)).collect();
                self.events.push(json!({"step": self.step, "event": "revealed",
                                        "player": self.player_name(reveal.player),
                                        "cards": cards}));
            }
        }
    }

    /// Records an offer of another kind.
    pub fn offer(&mut self, player: PlayerId, decision: &str, cards: &[CardId]) {
        let cards: Vec<String> = cards.iter().map(|&c| self.card_name(c)).collect();
        self.offers.push(json!({"step": self.step, "player": self.player_name(player),
                                "decision": decision, "cards": cards}));
    }

    /// The outcome's zones, libraries and graveyards top first.
    pub fn zones(&self, game: &GameState) -> BTreeMap<String, Vec<String>> {
        let mut zones: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for player in 0..self.players.len() {
            let pid = PlayerId(player as u32);
            for zone in PLAYER_ZONES {
                if zone == ZoneType::Stack {
                    continue;
                }
                let Some(name) = self.zone_name(zone, pid) else {
                    continue;
                };
                let mut cards: Vec<String> = game.cards_in_zone(zone, pid).iter().map(|&c| self.card_name(c)).collect();
                if matches!(zone, ZoneType::Library | ZoneType::Graveyard) {
                    cards.reverse();
                }
                if !cards.is_empty() {
                    zones.entry(name).or_default().extend(cards);
                }
            }
        }
        let mut stack: Vec<String> = game
            .stack
            .iter()
            .map(|entry| {
                let sa = &entry.spell_ability;
                match sa.source {
                    Some(card) if sa.is_spell => self.card_name(card),
                    Some(card) => format!("ability:{}", self.card_name(card)),
                    None => "ability:unknown".to_string(),
                }
            })
            .collect();
        stack.reverse();
        if !stack.is_empty() {
            zones.insert("stack".to_string(), stack);
        }
        zones
    }

    /// Every player's life.
    pub fn life(&self, game: &GameState) -> BTreeMap<String, i32> {
        (0..self.players.len()).map(|p| (self.players[p].clone(), game.player(PlayerId(p as u32)).life)).collect()
    }
}

fn plus_one_counters(game: &GameState, card: CardId) -> i32 {
    game.card(card).counters.get(&manabrew_engine::card::CounterType::P1P1).copied().unwrap_or(0)
}
