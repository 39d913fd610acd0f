//! The simulator: carries out a scenario's steps on a [`Game`], asking a [`Decider`] at every
//! choice the rules leave open, and checking every answer against the rules before using it.
//!
//! The same simulator serves three callers: the explorer (a decider that walks every option),
//! the judge (a decider that reads the choices off an observed outcome), and scripted runs. All
//! three go through the same checks, which is what keeps the judge and the explorer in agreement;
//! the property tests in `tests/agreement.rs` check that they do.

mod effects;

use std::collections::BTreeMap;

use crate::cards::def::{CardType, UnmodelledWhen};
use crate::effects::{Effect, Target};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::outcome::{Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome};
use crate::rules::Violation;
use crate::rules::apnap::bit;
use crate::rules::characteristics::matches;
use crate::rules::search::PartPlan;
use crate::rules::shuffle::library_segments;
use crate::rules::triggers::{
    Happening, LastOnBattlefield, PendingTrigger, apnap_groups, is_stack_order, triggered_by,
};
use crate::rules::zones::{Position, is_permanent_type, move_object};

/// A target as chosen when a spell is cast.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetChoice {
    /// An object, remembered with its object number so a zone change makes it illegal (400.7).
    Obj(ObjId, u32),
    /// A player.
    Player(PlayerId),
}

/// One scenario step, resolved to game objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// Cast a spell from hand (CR 701.5, 601).
    Cast {
        /// Caster.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Which half of a split card (709.3).
        face: Option<usize>,
        /// Targets, in the order the card lists them.
        targets: Vec<TargetChoice>,
    },
    /// Activate an ability of a card (602), e.g. typecycling from hand.
    Activate {
        /// Who activates.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Index into the card's abilities.
        ability: usize,
    },
    /// Resolve the top object of the stack (608).
    Resolve,
    /// Resolve until the stack is empty.
    ResolveAll,
    /// A creature dies: it is put into its owner's graveyard from the battlefield.
    Dies(ObjId),
    /// A player draws cards (121).
    Draw(PlayerId, u32),
    /// An object is exiled by something outside the scenario (e.g. in response).
    Exile(ObjId),
}

/// A choice the rules leave to a player, or to chance.
#[derive(Debug, Clone)]
pub enum Decision {
    /// "may": whether to do something — `search` (701.23g) or `counters`.
    May {
        /// Who chooses.
        player: PlayerId,
        /// What about.
        about: &'static str,
        /// The source of the ability offering the choice, when it matters.
        card: Option<ObjId>,
    },
    /// Which cards a search finds, one set per merged instruction (701.23h).
    Find {
        /// Who searches.
        searcher: PlayerId,
        /// One plan per instruction.
        parts: Vec<PartPlan>,
        /// Every card the searcher looked at.
        looked_at: Vec<ObjId>,
        /// The 701.23f limit, if one applied.
        cap: Option<u32>,
        /// For merged instructions whose own minimums can't all be met: how many cards the whole
        /// search must find (701.23h with 701.23d); 0 otherwise.
        joint_min: usize,
    },
    /// Choose one card among options (e.g. from a revealed hand).
    ChooseCard {
        /// Who chooses.
        player: PlayerId,
        /// The options.
        options: Vec<ObjId>,
    },
    /// Choose a permanent to sacrifice.
    Sacrifice {
        /// Who sacrifices.
        player: PlayerId,
        /// The options.
        options: Vec<ObjId>,
    },
    /// The order in which a player puts their simultaneous triggered abilities on the stack
    /// (603.3b): the answer lists indexes into `triggers`, first = lowest on the stack.
    OrderTriggers {
        /// Whose triggers.
        player: PlayerId,
        /// Each trigger's source, event, and triggering player.
        triggers: Vec<(ObjId, &'static str, Option<PlayerId>)>,
    },
    /// Chance: which `count` cards of `from` are where a shuffled library's order put them
    /// (the top card drawn, the top N searched). Not a player's choice.
    Random {
        /// Whose library.
        player: PlayerId,
        /// What the randomness decides: `draw` or `search_window`.
        purpose: &'static str,
        /// Cards that could be there.
        from: Vec<ObjId>,
        /// How many.
        count: usize,
    },
}

impl Decision {
    /// The player the decision belongs to.
    pub fn player(&self) -> PlayerId {
        match self {
            Decision::May { player, .. }
            | Decision::ChooseCard { player, .. }
            | Decision::Sacrifice { player, .. }
            | Decision::Random { player, .. }
            | Decision::OrderTriggers { player, .. } => *player,
            Decision::Find { searcher, .. } => *searcher,
        }
    }
}

/// An answer to a [`Decision`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Yes / no, for [`Decision::May`].
    Bool(bool),
    /// Cards, for every other decision; for [`Decision::Find`] use [`Choice::Parts`].
    Cards(Vec<ObjId>),
    /// Found cards per merged search instruction.
    Parts(Vec<Vec<ObjId>>),
    /// An order, as indexes, for [`Decision::OrderTriggers`].
    Order(Vec<usize>),
}

/// Why a simulation stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SimError {
    /// A decision's answer broke a rule.
    Illegal {
        /// The rule and what happened.
        violation: Violation,
        /// The step it happened in.
        step: usize,
        /// The legal answers, described, when there are few enough to list.
        options: Vec<String>,
    },
    /// A step can't be taken as written (card not where the step needs it, bad target…).
    Invalid {
        /// The step.
        step: usize,
        /// What is wrong.
        message: String,
    },
    /// A scripted decision (by index in the scenario's `decisions`) is not a legal answer.
    ScriptIllegal {
        /// Index of the scripted decision.
        entry: usize,
        /// The rule and what happened.
        violation: Violation,
        /// The legal answers, described.
        options: Vec<String>,
    },
    /// The scenario needs something the oracle doesn't model.
    Unsupported {
        /// The step.
        step: usize,
        /// What isn't modelled.
        message: String,
    },
    /// Too many outcomes to enumerate.
    TooLarge(String),
    /// The decider had no answer (for example an observed log that lacks the event).
    NoAnswer {
        /// The step.
        step: usize,
        /// What was missing.
        message: String,
        /// The clause the missing event is about.
        clause: &'static str,
    },
}

/// Answers decisions.
pub trait Decider {
    /// Answers `decision`, taken during `step` of a game now in state `game`.
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError>;

    /// Told when a script answered `decision` instead, so a decider that reads answers from a
    /// log can account for the log entry that answer corresponds to.
    fn note_scripted(&mut self, _game: &Game, _step: usize, _decision: &Decision, _choice: &Choice) {}
}

/// Something on the stack.
#[derive(Debug, Clone)]
enum StackItem {
    Spell { obj: ObjId, face: Option<usize>, targets: Vec<TargetChoice>, controller: PlayerId },
    Ability { source: ObjId, controller: PlayerId, effect: Vec<Effect>, triggering_player: Option<PlayerId> },
}

/// What the rules did to one card, for attributing differences to a clause.
#[derive(Debug, Clone, Copy)]
pub struct MoveCause {
    /// The clause of the instruction that last moved it.
    pub clause: &'static str,
    /// The step it happened in.
    pub step: usize,
}

/// A simulation in progress.
pub struct Sim<'d> {
    /// The game.
    pub game: Game,
    stack: Vec<StackItem>,
    /// The log so far.
    pub log: Vec<LoggedEvent>,
    /// The clause behind each log entry.
    pub log_clauses: Vec<&'static str>,
    /// The clause behind the last move of each object.
    pub last_move: BTreeMap<ObjId, MoveCause>,
    pending: Vec<PendingTrigger>,
    entered: Vec<ObjId>,
    refused: Option<SimError>,
    step: usize,
    decider: &'d mut dyn Decider,
}

impl<'d> Sim<'d> {
    /// A simulation of `game` answering decisions with `decider`.
    pub fn new(game: Game, decider: &'d mut dyn Decider) -> Self {
        Sim {
            game,
            stack: Vec::new(),
            log: Vec::new(),
            log_clauses: Vec::new(),
            last_move: BTreeMap::new(),
            pending: Vec::new(),
            entered: Vec::new(),
            refused: None,
            step: 0,
            decider,
        }
    }

    /// Runs every action in order; the step number of each is its index.
    pub fn run(&mut self, actions: &[Action]) -> Result<(), SimError> {
        for (i, action) in actions.iter().enumerate() {
            self.step = i;
            self.act(action)?;
        }
        Ok(())
    }

    fn names(&self) -> Vec<String> {
        self.game.names()
    }

    fn id(&self, obj: ObjId) -> String {
        self.game.obj(obj).id.clone()
    }

    fn pname(&self, p: PlayerId) -> String {
        self.game.players[p].name.clone()
    }

    fn invalid(&self, message: impl Into<String>) -> SimError {
        SimError::Invalid { step: self.step, message: message.into() }
    }

    fn emit(&mut self, event: Event, clause: &'static str) {
        self.log.push(LoggedEvent { step: self.step, event });
        self.log_clauses.push(clause);
    }

    fn decide(&mut self, decision: &Decision) -> Result<Choice, SimError> {
        self.decider.decide(&self.game, self.step, decision)
    }

    fn illegal(&self, violation: Violation, options: Vec<String>) -> SimError {
        SimError::Illegal { violation, step: self.step, options }
    }

    /// Moves a card and logs it; `clause` is the rule or instruction responsible.
    fn move_card(&mut self, obj: ObjId, to: ZoneRef, position: Position, seen_by: u8, clause: &'static str) {
        let names = self.names();
        let from = self.game.obj(obj).zone;
        let to = move_object(&mut self.game, obj, to, position, seen_by);
        let card = self.id(obj);
        self.emit(Event::Moved { card, from: from.display(&names), to: to.display(&names) }, clause);
        self.last_move.insert(obj, MoveCause { clause, step: self.step });
        if to == ZoneRef::Battlefield {
            self.entered.push(obj);
        }
        // An unmodelled ability that would act at this move makes the run unsupported.
        let def = &self.game.obj(obj).def;
        let acts = |w: UnmodelledWhen| def.unmodelled_acts.contains(&w);
        let hit = (to == ZoneRef::Battlefield && (acts(UnmodelledWhen::Enters) || acts(UnmodelledWhen::OnBattlefield)))
            || (from == ZoneRef::Battlefield && acts(UnmodelledWhen::LeavesBattlefield));
        if hit && self.refused.is_none() {
            let why = def.unmodelled.clone().unwrap_or_default();
            self.refused = Some(SimError::Unsupported { step: self.step, message: format!("{}: {why}", def.name) });
        }
    }

    /// "When this enters" abilities trigger once the entering permanent has its controller.
    fn trigger_entered(&mut self) {
        for obj in std::mem::take(&mut self.entered) {
            if self.game.obj(obj).zone == ZoneRef::Battlefield {
                self.trigger(Happening::Entered(obj), None);
            }
        }
    }

    fn trigger(&mut self, happening: Happening, died: Option<LastOnBattlefield>) {
        self.pending.extend(triggered_by(&self.game, happening, died));
    }

    /// A permanent dies: it goes to its owner's graveyard, and dies triggers look back at it.
    pub(crate) fn put_into_graveyard_from_battlefield(&mut self, obj: ObjId, clause: &'static str) {
        let o = self.game.obj(obj);
        let last = LastOnBattlefield { controller: o.controller, face_down: o.face_down };
        let owner = o.owner;
        self.move_card(obj, ZoneRef::Graveyard(owner), Position::Top, 0, clause);
        self.trigger(Happening::Died(obj), Some(last));
    }

    /// 603.3b: triggered abilities go on the stack the next time a player would receive priority,
    /// in APNAP order, each player ordering their own. A `triggered` event is logged as each goes
    /// on the stack, so the log shows the order.
    fn flush_triggers(&mut self) -> Result<(), SimError> {
        if let Some(e) = self.refused.take() {
            return Err(e);
        }
        self.trigger_entered();
        let pending = std::mem::take(&mut self.pending);
        for (player, group) in apnap_groups(pending, self.game.players.len()) {
            let order: Vec<usize> = if group.len() < 2 {
                (0..group.len()).collect()
            } else {
                let triggers = group.iter().map(|t| (t.source, t.on, t.triggering_player)).collect();
                match self.decide(&Decision::OrderTriggers { player, triggers })? {
                    Choice::Order(o) if is_stack_order(&o, group.len()) => o,
                    other => {
                        return Err(self.illegal(
                            Violation::new(
                                "603.3b",
                                format!("{other:?} doesn't put each of {} triggers on the stack once", group.len()),
                            ),
                            Vec::new(),
                        ));
                    }
                }
            };
            for i in order {
                let t = group[i].clone();
                let (source, controller) = (self.id(t.source), self.pname(t.controller));
                let player = t.triggering_player.map(|p| self.pname(p));
                self.emit(Event::Triggered { source, controller, on: t.on.to_string(), player }, "603.3b");
                self.stack.push(StackItem::Ability {
                    source: t.source,
                    controller: t.controller,
                    effect: t.effect,
                    triggering_player: t.triggering_player,
                });
            }
        }
        Ok(())
    }

    fn act(&mut self, action: &Action) -> Result<(), SimError> {
        match action {
            Action::Cast { player, card, face, targets } => self.cast(*player, *card, *face, targets)?,
            Action::Activate { player, card, ability } => self.activate(*player, *card, *ability)?,
            Action::Resolve => self.resolve_top()?,
            Action::ResolveAll => {
                let mut guard = 0;
                while !self.stack.is_empty() {
                    self.resolve_top()?;
                    guard += 1;
                    if guard > 10_000 {
                        return Err(self.invalid("the stack did not empty after 10000 resolutions"));
                    }
                }
            }
            Action::Dies(obj) => {
                let o = self.game.obj(*obj);
                if o.zone != ZoneRef::Battlefield || !o.chars.types.contains(&CardType::Creature) {
                    return Err(self.invalid(format!("{} is not a creature on the battlefield, so it can't die", o.id)));
                }
                self.put_into_graveyard_from_battlefield(*obj, "700.4");
            }
            Action::Draw(player, count) => {
                // Draws past the last card do nothing here (704.5b is not modelled).
                let n = (*count as usize).min(self.game.zone(ZoneRef::Library(*player)).len());
                for _ in 0..n {
                    self.draw(*player)?;
                }
            }
            Action::Exile(obj) => {
                // A spell exiled from the stack is gone: it won't resolve.
                self.stack.retain(|item| !matches!(item, StackItem::Spell { obj: o, .. } if o == obj));
                self.move_card(*obj, ZoneRef::Exile, Position::Top, 0, "701.13a")
            }
        }
        self.flush_triggers()
    }

    /// 121.1: the top card goes to the hand. After a shuffle, which card is on top is chance.
    fn draw(&mut self, player: PlayerId) -> Result<(), SimError> {
        let Some(&card) = self.top_cards(player, 1, "draw")?.first() else {
            return Ok(()); // An empty library: nothing to draw (704.5b is not modelled).
        };
        self.move_card(card, ZoneRef::Hand(player), Position::Top, bit(player), "121.1");
        Ok(())
    }

    /// The top `n` cards of a library. Where the oracle doesn't know the order within a segment
    /// (after a shuffle, 701.24a; cards put on top at once, 401.4), which of its cards are among
    /// the top `n` is a [`Decision::Random`].
    pub(crate) fn top_cards(
        &mut self,
        player: PlayerId,
        n: usize,
        purpose: &'static str,
    ) -> Result<Vec<ObjId>, SimError> {
        let mut out = Vec::new();
        for segment in library_segments(&self.game, player) {
            let need = n - out.len();
            if need == 0 {
                break;
            }
            if segment.len() <= need {
                out.extend(segment);
            } else {
                let decision = Decision::Random { player, purpose, from: segment.clone(), count: need };
                out.extend(self.random_pick(&decision, &segment, need)?);
            }
        }
        Ok(out)
    }

    fn random_pick(&mut self, decision: &Decision, from: &[ObjId], count: usize) -> Result<Vec<ObjId>, SimError> {
        match self.decide(decision)? {
            Choice::Cards(cards)
                if cards.len() == count
                    && cards.iter().all(|c| from.contains(c))
                    && cards.iter().collect::<std::collections::BTreeSet<_>>().len() == count =>
            {
                Ok(cards)
            }
            other => Err(self.illegal(
                Violation::new(
                    "701.24a",
                    format!("{other:?} is not {count} of the cards whose order the oracle leaves open there"),
                ),
                Vec::new(),
            )),
        }
    }

    fn cast(
        &mut self,
        player: PlayerId,
        card: ObjId,
        face: Option<usize>,
        targets: &[TargetChoice],
    ) -> Result<(), SimError> {
        let o = self.game.obj(card);
        if o.zone != ZoneRef::Hand(player) {
            return Err(self.invalid(format!(
                "{} can't be cast by {}: it is in {}, not in their hand",
                o.id,
                self.pname(player),
                o.zone.display(&self.names())
            )));
        }
        if o.def.is_split() && face.is_none() {
            return Err(self.invalid(format!(
                "{} is a split card: the step must say which half is cast (709.3), one of: {}",
                o.id,
                o.def.split.iter().map(|h| h.name.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        let def = o.def.clone();
        let cast_face = face.and_then(|f| def.split.get(f)).unwrap_or(&def);
        // Casting a card whose text isn't fully modelled would silently misread it (an enters
        // trigger skipped, a spell that does nothing), so it is refused with the card's own note.
        if let Some(why) = cast_face.unmodelled.as_ref().or(def.unmodelled.as_ref()) {
            return Err(SimError::Unsupported { step: self.step, message: format!("{}: {why}", cast_face.name) });
        }
        if cast_face.spell.is_none() && !is_permanent(cast_face) {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!("{} has no spell ability written in the card pool", cast_face.name),
            });
        }
        // Targets are the objects as they are now (400.7): remember their current object numbers.
        let targets: Vec<TargetChoice> = targets
            .iter()
            .map(|t| match *t {
                TargetChoice::Obj(o, _) => TargetChoice::Obj(o, self.game.obj(o).object_no),
                other => other,
            })
            .collect();
        let wanted: &[Target] = cast_face.spell.as_ref().map_or(&[], |s| s.targets.as_slice());
        if wanted.len() != targets.len() {
            return Err(self.invalid(format!(
                "{} needs {} target(s) but the step gives {}",
                cast_face.name,
                wanted.len(),
                targets.len()
            )));
        }
        for (spec, t) in wanted.iter().zip(&targets) {
            if !self.target_legal(spec, *t, player) {
                let what = match t {
                    TargetChoice::Obj(o, _) => {
                        let o = self.game.obj(*o);
                        format!("{} ({}, in {})", o.id, o.def.name, o.zone.display(&self.names()))
                    }
                    TargetChoice::Player(p) => self.pname(*p),
                };
                return Err(self.invalid(format!(
                    "{what} is not a legal target for {}: it needs {}",
                    cast_face.name,
                    crate::effects::describe_target(spec)
                )));
            }
        }
        let id = self.id(card);
        let pname = self.pname(player);
        self.emit(Event::Cast { player: pname, card: id, face: face.map(|_| cast_face.name.clone()) }, "701.5a");
        self.move_card(card, ZoneRef::Stack, Position::Top, 0, "701.5a");
        self.game.objs[card].controller = player;
        self.stack.push(StackItem::Spell { obj: card, face, targets, controller: player });
        Ok(())
    }

    fn target_legal(&self, spec: &Target, t: TargetChoice, caster: PlayerId) -> bool {
        match (spec, t) {
            (Target::Permanent(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Battlefield && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::Player, TargetChoice::Player(_)) => true,
            (Target::Opponent, TargetChoice::Player(p)) => p != caster,
            _ => false,
        }
    }

    fn activate(&mut self, player: PlayerId, card: ObjId, ability: usize) -> Result<(), SimError> {
        let o = self.game.obj(card).clone();
        let abilities: Vec<_> = o.def.faces().into_iter().flat_map(|f| f.abilities.iter()).collect();
        let Some(ab) = abilities.get(ability).map(|a| (*a).clone()) else {
            return Err(self.invalid(format!("{} has no ability number {ability}", o.id)));
        };
        if ab.discard_this && o.zone != ZoneRef::Hand(player) {
            return Err(self.invalid(format!(
                "{}'s {} is activated by discarding it from its owner's hand, but it is in {}",
                o.id,
                ab.name,
                o.zone.display(&self.names())
            )));
        }
        if !ab.discard_this && (o.zone != ZoneRef::Battlefield || o.controller != player) {
            return Err(self.invalid(format!("{} is not a permanent {} controls", o.id, self.pname(player))));
        }
        let pname = self.pname(player);
        self.emit(Event::Activated { player: pname, card: o.id.clone(), ability: ab.name.clone() }, "602.2");
        if ab.discard_this {
            // 701.9a: discarding moves the card from its owner's hand to their graveyard.
            self.move_card(card, ZoneRef::Graveyard(o.owner), Position::Top, 0, "701.9a");
        }
        self.stack.push(StackItem::Ability {
            source: card,
            controller: player,
            effect: ab.effect,
            triggering_player: None,
        });
        Ok(())
    }

    fn resolve_top(&mut self) -> Result<(), SimError> {
        let Some(item) = self.stack.pop() else {
            return Err(self.invalid("there is nothing on the stack to resolve"));
        };
        match item {
            StackItem::Ability { source, controller, effect, triggering_player } => {
                let mut ctx = effects::Ctx::new(source, controller, Vec::new(), triggering_player);
                self.run_effects(&mut ctx, &effect)?;
            }
            StackItem::Spell { obj, face, targets, controller } => {
                let def = self.game.obj(obj).def.clone();
                let cast_face = face.and_then(|f| def.split.get(f)).unwrap_or(&def);
                let spell = cast_face.spell.clone();
                // 608.2b: a spell whose every target has become illegal doesn't resolve.
                let all_illegal = spell.as_ref().is_some_and(|s| {
                    !s.targets.is_empty()
                        && s.targets.iter().zip(&targets).all(|(spec, t)| !self.target_legal(spec, *t, controller))
                });
                if let Some(spell) = spell.filter(|_| !all_illegal) {
                    let mut ctx = effects::Ctx::new(obj, controller, targets.clone(), None);
                    ctx.capture_target(&self.game);
                    self.run_effects(&mut ctx, &spell.effect)?;
                }
                let owner = self.game.obj(obj).owner;
                if self.game.obj(obj).zone == ZoneRef::Stack {
                    if is_permanent(cast_face) && !all_illegal {
                        self.move_card(obj, ZoneRef::Battlefield, Position::Top, 0, "608.3");
                        self.game.objs[obj].controller = controller;
                    } else {
                        let clause = if all_illegal { "608.2b" } else { "608.2n" };
                        self.move_card(obj, ZoneRef::Graveyard(owner), Position::Top, 0, clause);
                    }
                }
            }
        }
        self.flush_triggers()
    }

    /// The outcome so far, in canonical form.
    pub fn outcome(&self) -> LegalOutcome {
        let names = self.names();
        let mut zones = BTreeMap::new();
        let mut fixed = BTreeMap::new();
        for (zone, cards) in &self.game.zones {
            if *zone == ZoneRef::Stack || cards.is_empty() {
                continue;
            }
            zones.insert(zone.display(&names), cards.iter().map(|&o| self.id(o)).collect::<Vec<_>>());
        }
        for (p, shape) in self.game.shapes.iter().enumerate() {
            fixed.insert(
                ZoneRef::Library(p).display(&names),
                FixedPositions { top_groups: shape.top_groups.clone(), bottom: shape.bottom_fixed },
            );
        }
        let stack: Vec<String> = self
            .stack
            .iter()
            .rev()
            .map(|item| match item {
                StackItem::Spell { obj, .. } => self.id(*obj),
                StackItem::Ability { source, .. } => format!("ability:{}", self.id(*source)),
            })
            .collect();
        if !stack.is_empty() {
            zones.insert("stack".to_string(), stack);
        }
        let mut known = BTreeMap::new();
        let mut counters = BTreeMap::new();
        for o in &self.game.objs {
            if matches!(o.zone, ZoneRef::Hand(_) | ZoneRef::Library(_) | ZoneRef::Outside(_)) && o.known != 0 {
                let who: Vec<String> =
                    (0..names.len()).filter(|&p| o.known & bit(p) != 0).map(|p| names[p].clone()).collect();
                known.insert(o.id.clone(), who);
            }
            if o.zone == ZoneRef::Battlefield && o.counters > 0 {
                counters.insert(o.id.clone(), o.counters);
            }
        }
        let life = self.game.players.iter().map(|p| (p.name.clone(), p.life)).collect();
        let outcome = Outcome { zones, known, life, counters, events: self.log.clone() };
        LegalOutcome { outcome: outcome.canonical(&fixed), fixed }
    }
}

fn is_permanent(face: &crate::cards::def::CardDef) -> bool {
    is_permanent_type(&face.types)
}
