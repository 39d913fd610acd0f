//! Building a manabrew game from a scenario message and carrying out its steps.

use std::cell::RefCell;
use std::path::Path;
use std::rc::Rc;

use forge_carddb::CardDatabase;
use forge_foundation::ZoneType;
use forge_foundation::mana::ManaAtom;
use manabrew_engine::agent::PlayerAgent;
use manabrew_engine::card::CardInstance;
use manabrew_engine::game::GameState;
use manabrew_engine::game_loop::GameLoop;
use manabrew_engine::ids::{CardId, PlayerId};
use serde_json::{Value, json};

use crate::agent::{Pending, ScriptedAgent, Shared};
use crate::observe::{Recorder, RecordingRng, ShuffleLog};

/// The scenario features this adapter can run (see `hello`). Left out: `face-down` (no way to
/// set a card face down in a hidden-information-free set-up), `non-active-player-sorcery` (the
/// engine enforces sorcery timing and the adapter gives the turn only to the first player), and
/// `step-to-graveyard` (several permanents put into graveyards at once: the engine moves one card
/// at a time). `step-dies` and `step-exile` go through the engine's zone-change machinery and
/// its `ChangesZone` trigger, like its destroy and exile effects.
pub const SUPPORTED_FEATURES: [&str; 4] = ["hypothetical-card", "outside-the-game", "step-dies", "step-exile"];

/// The Forge card scripts, as an archive the engine's card database reads.
pub struct CardLibrary {
    db: CardDatabase,
    names: Vec<String>,
}

impl CardLibrary {
    /// Reads every `.txt` script of `dir` and builds the archive with
    /// `forge_cardset_archive::build_test_archive` (entries sorted by lower-cased name).
    pub fn load(dir: &Path) -> Result<CardLibrary, String> {
        let entries = std::fs::read_dir(dir)
            .map_err(|e| format!("can't read the Forge card scripts in {}: {e}", dir.display()))?;
        let mut scripts: Vec<(String, String)> = Vec::new();
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().and_then(|e| e.to_str()) != Some("txt") {
                continue;
            }
            let Ok(raw) = std::fs::read_to_string(&path) else {
                continue;
            };
            let names: Vec<&str> = raw.lines().filter_map(|l| l.trim().strip_prefix("Name:")).map(str::trim).collect();
            let Some(first) = names.first() else { continue };
            let split = raw.lines().any(|l| l.trim() == "AlternateMode:Split");
            let name =
                if split && names.len() >= 2 { format!("{} // {}", names[0], names[1]) } else { first.to_string() };
            scripts.push((name.to_lowercase(), raw));
        }
        if scripts.is_empty() {
            return Err(format!("no Forge card scripts (*.txt) in {}", dir.display()));
        }
        scripts.sort_by(|a, b| a.0.cmp(&b.0));
        let pairs: Vec<(&str, &str)> = scripts.iter().map(|(n, r)| (n.as_str(), r.as_str())).collect();
        let bytes = forge_cardset_archive::build_test_archive(&pairs);
        let bundle = CardDatabase::load_from_archive(&bytes)?;
        Ok(CardLibrary { db: bundle.cards, names: scripts.into_iter().map(|(n, _)| n).collect() })
    }

    fn knows(&self, name: &str) -> bool {
        self.names.binary_search(&name.to_lowercase()).is_ok()
    }

    fn create(&self, game: &mut GameState, name: &str, owner: PlayerId) -> Option<CardId> {
        if !self.knows(name) {
            return None;
        }
        let rules = self.db.get_by_card_name(name)?;
        Some(game.create_card(CardInstance::from_rules(rules, owner)))
    }
}

/// The answer to one `run`.
pub enum Answer {
    /// The outcome and the offers.
    Result {
        /// The outcome.
        outcome: Value,
        /// The options offered.
        offered: Value,
    },
    /// The engine can't run it.
    Unsupported(String),
    /// A scripted choice the engine doesn't offer.
    NoSuchChoice {
        /// Index into `scenario.decisions`.
        decision: usize,
        /// What it offered.
        offered: Value,
        /// Why.
        message: String,
    },
    /// The adapter failed.
    Error(String),
}

struct Run {
    game: GameState,
    game_loop: GameLoop,
    agents: Vec<Box<dyn PlayerAgent>>,
    shared: Rc<RefCell<Shared>>,
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

fn list<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map(Vec::as_slice).unwrap_or(&[])
}

/// Plays one scenario.
pub fn play(library: &CardLibrary, scenario: &Value) -> Answer {
    let players: Vec<String> = list(scenario, "players").iter().map(|p| text(p, "name").to_string()).collect();
    if players.len() < 2 {
        return Answer::Unsupported("fewer than two players".into());
    }
    // Every card the scenario uses must have a Forge script.
    let mut missing: Vec<String> = Vec::new();
    let mut note = |name: &str| {
        if !library.knows(name) && !missing.iter().any(|m| m == name) {
            missing.push(name.to_string());
        }
    };
    for p in list(scenario, "players") {
        for zone in ["library", "hand", "graveyard", "outside"] {
            for c in list(p, zone) {
                note(text(c, "card"));
            }
        }
    }
    for zone in ["battlefield", "exile"] {
        for c in list(scenario, zone) {
            note(text(c, "card"));
        }
    }
    if !missing.is_empty() {
        return Answer::Unsupported(format!("no Forge script for {}", missing.join(", ")));
    }
    for zone in ["battlefield", "exile"] {
        for c in list(scenario, zone) {
            if c.get("face_down").and_then(Value::as_bool) == Some(true) {
                return Answer::Unsupported("face-down cards".into());
            }
        }
    }

    let names: Vec<&str> = players.iter().map(String::as_str).collect();
    let mut game = GameState::new(&names, 20);
    let shuffles: ShuffleLog = Rc::new(RefCell::new(Vec::new()));
    let rec = Recorder::new(players.clone(), shuffles.clone());
    let decisions = list(scenario, "decisions").to_vec();
    let shared = Rc::new(RefCell::new(Shared::new(rec, decisions)));
    let pid = |name: &str| players.iter().position(|p| p == name).map(|i| PlayerId(i as u32));

    // Set-up: libraries top first in the scenario, top last in the engine.
    for (index, p) in list(scenario, "players").iter().enumerate() {
        let owner = PlayerId(index as u32);
        if let Some(life) = p.get("life").and_then(Value::as_i64) {
            game.player_mut(owner).life = life as i32;
        }
        for (zone, engine_zone, reverse) in [
            ("library", ZoneType::Library, true),
            ("hand", ZoneType::Hand, false),
            ("graveyard", ZoneType::Graveyard, true),
            ("outside", ZoneType::Sideboard, false),
        ] {
            let mut cards: Vec<&Value> = list(p, zone).iter().collect();
            if reverse {
                cards.reverse();
            }
            for c in cards {
                if c.get("gains_flashback").and_then(Value::as_bool) == Some(true) {
                    return Answer::Unsupported("a card that has gained flashback".into());
                }
                let Some(card) = library.create(&mut game, text(c, "card"), owner) else {
                    return Answer::Unsupported(format!("no Forge script for {}", text(c, "card")));
                };
                game.move_card(card, engine_zone, owner);
                let mut s = shared.borrow_mut();
                s.rec.names.insert(card, text(c, "card").to_string());
                s.rec.ids.insert(card, text(c, "id").to_string());
                s.cards.insert(text(c, "id").to_string(), card);
            }
        }
    }
    for (zone, engine_zone) in [("battlefield", ZoneType::Battlefield), ("exile", ZoneType::Exile)] {
        for c in list(scenario, zone) {
            let Some(owner) = pid(text(c, "owner")) else {
                return Answer::Error(format!("unknown owner of {}", text(c, "id")));
            };
            let controller = pid(text(c, "controller")).unwrap_or(owner);
            let Some(card) = library.create(&mut game, text(c, "card"), owner) else {
                return Answer::Unsupported(format!("no Forge script for {}", text(c, "card")));
            };
            let zone_owner = if engine_zone == ZoneType::Battlefield { controller } else { owner };
            game.move_card(card, engine_zone, zone_owner);
            game.card_mut(card).controller = controller;
            let mut s = shared.borrow_mut();
            s.rec.names.insert(card, text(c, "card").to_string());
            s.rec.ids.insert(card, text(c, "id").to_string());
            s.cards.insert(text(c, "id").to_string(), card);
        }
    }
    {
        let mut s = shared.borrow_mut();
        for (i, name) in players.iter().enumerate() {
            s.players.insert(name.clone(), PlayerId(i as u32));
        }
    }
    game.turn.active_player = PlayerId(0);
    game.turn.priority_player = PlayerId(0);
    game.turn.phase = forge_foundation::PhaseType::Main1;
    game.turn.turn_number = 2;

    let mut game_loop = GameLoop::new(players.len());
    game_loop.game_rng = Box::new(RecordingRng { log: shuffles });
    game_loop.set_provide_priority_action_space(true);
    // The set-up moved cards without the trigger handler: register every card's triggers.
    game_loop.trigger_handler.reset_active_triggers(&game);
    let agents: Vec<Box<dyn PlayerAgent>> = (0..players.len())
        .map(|i| Box::new(ScriptedAgent { player: PlayerId(i as u32), shared: shared.clone() }) as Box<dyn PlayerAgent>)
        .collect();
    let mut run = Run { game, game_loop, agents, shared };
    run.shared.borrow_mut().rec.start(&run.game);

    for (index, step) in list(scenario, "steps").iter().enumerate() {
        {
            let mut s = run.shared.borrow_mut();
            s.rec.step = index;
            s.rec.draws_in_step = 0;
        }
        if let Err(answer) = run.step(step) {
            return answer;
        }
        let mut s = run.shared.borrow_mut();
        s.rec.observe(&run.game);
        s.rec.close_search();
        if let Some(failure) = s.no_such_choice.take() {
            return Answer::NoSuchChoice {
                decision: failure.decision,
                offered: failure.offered,
                message: failure.message,
            };
        }
        if !s.rec.problems.is_empty() {
            return Answer::Error(s.rec.problems.join("; "));
        }
        if run.game.game_over {
            return Answer::Unsupported(format!("the engine ended the game at step {index} (a player lost)"));
        }
    }
    let s = run.shared.borrow();
    let outcome = json!({
        "zones": s.rec.zones(&run.game),
        "known": {},
        "life": s.rec.life(&run.game),
        "counters": s.rec.counters(&run.game),
        "events": s.rec.events,
    });
    Answer::Result { outcome, offered: json!(s.rec.offers) }
}

impl Run {
    fn player(&self, name: &str) -> Result<PlayerId, Answer> {
        self.shared.borrow().players.get(name).copied().ok_or_else(|| Answer::Error(format!("unknown player {name}")))
    }

    fn card(&self, id: &str) -> Result<CardId, Answer> {
        self.shared.borrow().cards.get(id).copied().ok_or_else(|| Answer::Error(format!("unknown card id {id}")))
    }

    /// Plenty of every kind of mana for every player: the oracle doesn't model mana.
    fn fill_mana_pools(&mut self) {
        for p in 0..self.game.players.len() {
            let pool = self.game_loop.pool_mut(PlayerId(p as u32));
            pool.reset_pool();
            for atom in
                [ManaAtom::WHITE, ManaAtom::BLUE, ManaAtom::BLACK, ManaAtom::RED, ManaAtom::GREEN, ManaAtom::COLORLESS]
            {
                pool.add(atom, 20);
            }
        }
    }

    /// Offers the step's cast or activation to its player in a priority round; false when the
    /// engine didn't list it among the player's options.
    fn take_action(&mut self, kind: &str, body: &Value) -> Result<bool, Answer> {
        let player = self.player(text(body, "player"))?;
        let card = self.card(text(body, "card"))?;
        if body.get("face").is_some() {
            return Err(Answer::Unsupported(
                "casting one half of a split card (the engine offers a split card one cast option, Normal; only Rooms have a mode per half)".into(),
            ));
        }
        if body.get("x").is_some() {
            return Err(Answer::Unsupported("choosing X".into()));
        }
        if body.get("alternative_cost").and_then(Value::as_bool) == Some(true) {
            return Err(Answer::Unsupported(
                "paying an alternative cost (Archive Trap's {0}): the adapter casts with the engine's Normal option, paid from its filled mana pools".into(),
            ));
        }
        if body.get("phyrexian_life").is_some() {
            return Err(Answer::Unsupported(
                "paying Phyrexian mana with life: the adapter pays every cost from its filled mana pools".into(),
            ));
        }
        if kind == "cast" && self.game.card(card).is_land() {
            // The engine's only option for a land card is playing it (a special action, 305.1),
            // which is not a cast: the engine lists no cast of it.
            return Ok(false);
        }
        for cost in ["discard", "reveal", "sacrifice"] {
            if body.get(cost).is_some() {
                return Err(Answer::Unsupported(format!("a {cost} cost chosen by the step")));
            }
        }
        let ability = (kind == "activate").then(|| text(body, "ability").to_string());
        let targets: Vec<String> = list(body, "targets").iter().filter_map(|t| t.as_str().map(String::from)).collect();
        self.shared.borrow_mut().pending = Some(Pending {
            player,
            card,
            ability,
            flashback: body.get("flashback").and_then(Value::as_bool) == Some(true),
            targets,
            targets_given: 0,
            done: false,
            not_offered: false,
        });
        self.priority_round();
        let pending = self.shared.borrow_mut().pending.take();
        Ok(pending.is_some_and(|p| p.done))
    }

    /// Moves a permanent the way the engine's own destroy and exile effects do: through its
    /// zone-change machinery (replacement effects apply) and then its `ChangesZone` trigger.
    fn move_with_triggers(&mut self, card: CardId, from: ZoneType, to: ZoneType) {
        let owner = self.game.card(card).owner;
        let gl = &mut self.game_loop;
        let mut runtime = manabrew_engine::replacement::replacement_handler::ReplacementRuntime {
            trigger_handler: &mut gl.trigger_handler,
            token_templates: &gl.token_templates,
            token_art_variants: &gl.token_art_variants,
            token_fallback: &gl.token_fallback,
            edition_dates: &gl.edition_dates,
            mana_pools: &mut gl.mana_pools,
            rng: gl.game_rng.as_mut(),
        };
        self.game.move_card_with_agents_and_replacement_runtime(card, to, owner, &mut self.agents, &mut runtime);
        manabrew_engine::ability::effects::zone_triggers::emit_zone_trigger(&mut gl.trigger_handler, card, from, to);
    }

    /// A priority round in which nobody acts but the player of a pending action: state-based
    /// actions are checked and waiting triggers go on the stack.
    fn priority_round(&mut self) {
        self.fill_mana_pools();
        self.game_loop.priority_round(&mut self.game, &mut self.agents, true);
    }

    fn step(&mut self, step: &Value) -> Result<(), Answer> {
        if step.as_str() == Some("resolve") {
            if self.game.stack.is_empty() {
                // Nothing the engine put on the stack is left to resolve: report the outcome as
                // it is (the judge then names what the engine didn't do).
                eprintln!("manabrew-adapter: `resolve` with an empty stack: nothing to resolve");
                return Ok(());
            }
            self.fill_mana_pools();
            self.game_loop.resolve_stack(&mut self.game, &mut self.agents);
            self.priority_round();
            return Ok(());
        }
        if step.as_str() == Some("resolve_all") {
            let mut guard = 0;
            while !self.game.stack.is_empty() && !self.game.game_over {
                guard += 1;
                if guard > 200 {
                    return Err(Answer::Error("resolve_all: more than 200 resolutions".into()));
                }
                self.fill_mana_pools();
                self.game_loop.resolve_stack(&mut self.game, &mut self.agents);
                self.priority_round();
            }
            return Ok(());
        }
        let Some((kind, body)) = step.as_object().and_then(|o| o.iter().next()) else {
            return Err(Answer::Error(format!("unreadable step {step}")));
        };
        match kind.as_str() {
            "cast" | "activate" => {
                if !self.take_action(kind, body)? {
                    // The engine doesn't list this legal action among the player's options: the
                    // outcome shows it wasn't taken, and the judge says which rule that breaks.
                    eprintln!(
                        "manabrew-adapter: the engine doesn't offer {} {} {}",
                        text(body, "player"),
                        if kind == "activate" { "activating an ability of" } else { "casting" },
                        text(body, "card")
                    );
                }
                Ok(())
            }
            "attempt" => {
                let inner = body.get("step").cloned().unwrap_or(Value::Null);
                let Some((inner_kind, inner_body)) = inner.as_object().and_then(|o| o.iter().next()) else {
                    return Err(Answer::Error(format!("unreadable attempt {body}")));
                };
                if !matches!(inner_kind.as_str(), "cast" | "activate") {
                    return Err(Answer::Unsupported(format!(
                        "an attempted `{inner_kind}` step (the adapter tries only casts and activations)"
                    )));
                }
                if !self.take_action(inner_kind, inner_body)? {
                    // The engine didn't list the action among the player's options: it refuses.
                    let mut s = self.shared.borrow_mut();
                    let step = s.rec.step;
                    s.rec.events.push(json!({"step": step, "event": "refused",
                                             "player": text(inner_body, "player"),
                                             "card": text(inner_body, "card")}));
                }
                Ok(())
            }
            "draw" => {
                let player = self.player(text(body, "player"))?;
                let count = body.get("count").and_then(Value::as_u64).unwrap_or(1);
                for _ in 0..count {
                    self.game.draw_card_with_agents(player, &mut self.agents);
                }
                self.priority_round();
                Ok(())
            }
            "dies" | "exile" => {
                let card = self.card(text(body, "card"))?;
                let from = self.game.card(card).zone;
                let to = if kind == "dies" { ZoneType::Graveyard } else { ZoneType::Exile };
                let allowed = if kind == "dies" {
                    from == ZoneType::Battlefield
                } else {
                    matches!(from, ZoneType::Battlefield | ZoneType::Graveyard | ZoneType::Hand | ZoneType::Library)
                };
                if !allowed {
                    return Err(Answer::Unsupported(format!(
                        "a `{kind}` step for a card in the engine's {from:?} zone"
                    )));
                }
                self.move_with_triggers(card, from, to);
                self.priority_round();
                Ok(())
            }
            "discard" => {
                let player = self.player(text(body, "player"))?;
                let card = self.card(text(body, "card"))?;
                self.game.discard_card(card, player, None, Some(&mut self.agents), &mut self.game_loop.trigger_handler);
                self.priority_round();
                Ok(())
            }
            other => Err(Answer::Unsupported(format!("the step `{other}` (the adapter has no engine action for it)"))),
        }
    }
}
