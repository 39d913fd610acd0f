//! The simulator: carries out a scenario's steps on a [`Game`], asking a [`Decider`] at every
//! choice the rules leave open, and checking every answer against the rules before using it.
//!
//! The same simulator serves three callers: the explorer (a decider that walks every option),
//! the judge (a decider that reads the choices off an observed outcome), and scripted runs. All
//! three go through the same checks, which is what keeps the judge and the explorer in agreement;
//! the property tests in `tests/agreement.rs` check that they do.

mod cast;
mod effects;
mod moves;
pub mod script;

pub(crate) use effects::destination_zone;

use std::collections::BTreeMap;

use crate::cards::def::CardType;
use crate::cards::instructions::Effect;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::mutants::Mutant;
use crate::outcome::{Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome};
use crate::rules::Violation;
use crate::rules::apnap::bit;
use crate::rules::casting::CastMode;
use crate::rules::search::PartPlan;
use crate::rules::shuffle::{library_segments, settle_top_of_segment};
use crate::rules::triggers::{
    Happening, LastOnBattlefield, PendingTrigger, apnap_groups, is_stack_order, stacked_clause, triggered_by,
};
use crate::rules::zones::{Position, is_permanent_type};

/// The most events one run may log before it is stopped as a loop.
pub const MAX_EVENTS: usize = 5_000;

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
    /// Cast a spell from hand, or from the graveyard with flashback (CR 701.5, 601, 702.34a).
    Cast {
        /// Caster.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Which half of a split card (709.3).
        face: Option<usize>,
        /// Targets, in the order the card lists them.
        targets: Vec<TargetChoice>,
        /// Cast with flashback from the graveyard.
        flashback: bool,
        /// The value of X.
        x: Option<u32>,
        /// The card discarded for the additional cost.
        discard: Option<ObjId>,
        /// The card revealed for the additional cost.
        reveal: Option<ObjId>,
    },
    /// Activate an ability of a card (602), e.g. typecycling from hand.
    Activate {
        /// Who activates.
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// Index into the card's abilities.
        ability: usize,
        /// The value of X.
        x: Option<u32>,
        /// The permanent sacrificed for a "sacrifice a …" cost.
        sacrifice: Option<ObjId>,
        /// The card discarded for a "discard a …" cost.
        discard: Option<ObjId>,
    },
    /// The game starts: opening-hand actions are chosen in APNAP order, the starting player (the
    /// first player) counting as the active player (101.4e), then happen at once.
    StartGame,
    /// A player discards a card (701.9a).
    Discard(PlayerId, ObjId),
    /// A player plays a land (305.1): from hand, or from exile where an effect allows it (400.7i).
    PlayLand(PlayerId, ObjId),
    /// Permanents go to their owners' graveyards from the battlefield at once.
    ToGraveyard(Vec<ObjId>),
    /// An action the rules forbid, refused for `clause`.
    Attempt {
        /// The action.
        action: Box<Action>,
        /// The clause expected to forbid it.
        clause: String,
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

/// What a "may" decision is about.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum MayAbout {
    /// "You may search" (701.23g: even an empty library may be searched).
    Search,
    /// "You may put counters" on a permanent.
    Counters,
    /// "You may begin the game with this card on the battlefield" (a Leyline).
    BeginOnBattlefield,
}

impl MayAbout {
    /// Its name in messages: `search`, `counters`, `begin_on_battlefield`.
    pub fn name(self) -> &'static str {
        match self {
            MayAbout::Search => "search",
            MayAbout::Counters => "counters",
            MayAbout::BeginOnBattlefield => "begin_on_battlefield",
        }
    }
}

/// Shown as its quoted name, as a decision's description has always shown it.
impl std::fmt::Debug for MayAbout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}", self.name())
    }
}

/// A choice the rules leave to a player, or to chance.
#[derive(Debug, Clone)]
pub enum Decision {
    /// "may": whether to do something ([`MayAbout`]).
    May {
        /// Who chooses.
        player: PlayerId,
        /// What about.
        about: MayAbout,
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
        /// Where each instruction puts the cards it finds.
        to: Vec<crate::cards::instructions::Destination>,
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
    /// Whether to dredge instead of drawing (702.52a), and with which card: answered with
    /// `Cards` holding none or one of `options`.
    Dredge {
        /// Who would draw.
        player: PlayerId,
        /// Which of the player's draws in this step, from 1.
        draw: u32,
        /// Cards in their graveyard whose dredge N their library can pay (702.52b).
        options: Vec<ObjId>,
    },
    /// Which cards to discard (701.9b: the discarding player chooses), answered with `Cards`.
    Discard {
        /// Who discards.
        player: PlayerId,
        /// Cards that may be discarded.
        options: Vec<ObjId>,
        /// How many.
        count: usize,
        /// An optional cost: discarding nothing is also an answer.
        optional: bool,
    },
    /// A card name (709.4a: one half's name for a split card), answered with `Name`.
    Name {
        /// Who names.
        player: PlayerId,
        /// Names of cards in the game that may be named.
        options: Vec<String>,
        /// The kind of card named ("a nonland card name"), which decides what else may be
        /// named (201.3): names of cards outside the game are legal too.
        filter: crate::cards::instructions::Filter,
    },
    /// Whether to cast a spell from a graveyard as part of a resolving effect, and which
    /// (card, half) — answered with `Cast`.
    CastFree {
        /// Who may cast.
        player: PlayerId,
        /// Whose graveyards the options come from (several when the caster chooses the order in
        /// which to cast one spell from each, 101.4c).
        from: Vec<PlayerId>,
        /// Castable cards, with the half for split cards.
        options: Vec<(ObjId, Option<usize>)>,
    },
    /// Targets of a triggered ability as it goes on the stack (603.3d), answered with `Targets`.
    Targets {
        /// The ability's controller.
        player: PlayerId,
        /// The ability's source.
        source: ObjId,
        /// Every legal combination.
        options: Vec<Vec<TargetChoice>>,
    },
    /// Which of several 701.23f limits applies last (616.1: the searcher orders the replacement
    /// effects), answered with `Limit`.
    SearchLimit {
        /// The searcher.
        player: PlayerId,
        /// The limits of the effects that apply, smallest first.
        options: Vec<u32>,
    },
    /// Which of several replacement effects that would modify a card's move to a graveyard
    /// applies first (616.1, 616.1e), answered with `Name` holding the effect's key.
    Replacement {
        /// The affected card's controller, or its owner (616.1).
        player: PlayerId,
        /// The card.
        card: ObjId,
        /// The applicable effects, the card's own first.
        options: Vec<crate::rules::replacement::GraveyardReplacement>,
    },
    /// The order in which the parts of a total cost are paid (601.2h, 602.2b), answered with
    /// `Order`: indexes into `parts`, first paid first.
    CostOrder {
        /// Who pays.
        player: PlayerId,
        /// The parts that move cards.
        parts: Vec<crate::rules::casting::CostPart>,
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
            | Decision::OrderTriggers { player, .. }
            | Decision::Dredge { player, .. }
            | Decision::Discard { player, .. }
            | Decision::Name { player, .. }
            | Decision::CastFree { player, .. }
            | Decision::Targets { player, .. }
            | Decision::SearchLimit { player, .. }
            | Decision::Replacement { player, .. }
            | Decision::CostOrder { player, .. } => *player,
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
    /// An order, as indexes, for [`Decision::OrderTriggers`] and [`Decision::CostOrder`].
    Order(Vec<usize>),
    /// A card name, for [`Decision::Name`]; a replacement effect's key, for
    /// [`Decision::Replacement`].
    Name(String),
    /// A spell to cast (card and split half), or none, for [`Decision::CastFree`].
    Cast(Option<(ObjId, Option<usize>)>),
    /// Targets, for [`Decision::Targets`].
    Targets(Vec<TargetChoice>),
    /// A library search limit, for [`Decision::SearchLimit`].
    Limit(u32),
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
    /// The rules forbid the step (a cost that can't be paid, a card that can't be cast so).
    Refused {
        /// The step.
        step: usize,
        /// The clause that forbids it.
        clause: &'static str,
        /// Why.
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

impl SimError {
    /// Where in the scenario it happened: `steps[N]`, `decisions[N]`, or empty when the whole
    /// scenario is concerned (too large to enumerate).
    pub fn place(&self) -> String {
        match self {
            SimError::Illegal { step, .. }
            | SimError::Invalid { step, .. }
            | SimError::Unsupported { step, .. }
            | SimError::Refused { step, .. }
            | SimError::NoAnswer { step, .. } => format!("steps[{step}]"),
            SimError::ScriptIllegal { entry, .. } => format!("decisions[{entry}]"),
            SimError::TooLarge(_) => String::new(),
        }
    }

    /// What went wrong, as the author of the scenario reads it (without [`SimError::place`]).
    pub fn message(&self) -> String {
        let legal = |options: &[String]| {
            if options.is_empty() { String::new() } else { format!("; legal: {}", options.join("; ")) }
        };
        match self {
            SimError::Invalid { message, .. } | SimError::NoAnswer { message, .. } => message.clone(),
            SimError::ScriptIllegal { violation, options, .. } => {
                format!("not a legal choice — {violation}{}", legal(options))
            }
            SimError::Illegal { violation, options, .. } => format!("{violation}{}", legal(options)),
            SimError::Unsupported { message, .. } => format!("not modelled: {message}"),
            SimError::Refused { clause, message, .. } => format!(
                "the rules forbid this step ({clause}: {message}); to expect that, wrap it in `attempt: {{step: …, \
                 refused: \"{clause}\"}}`"
            ),
            SimError::TooLarge(m) => format!("too large to enumerate: {m}"),
        }
    }
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let place = self.place();
        if place.is_empty() { f.write_str(&self.message()) } else { write!(f, "{place}: {}", self.message()) }
    }
}

impl std::error::Error for SimError {}

/// Answers decisions.
pub trait Decider {
    /// Answers `decision`, taken during `step` of a game now in state `game`.
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError>;

    /// Told when a script answered `decision` instead, so a decider that reads answers from a
    /// log can account for the log entry that answer corresponds to.
    fn note_scripted(&mut self, _game: &Game, _step: usize, _decision: &Decision, _choice: &Choice) {}

    /// Told of every `revealed` and `looked_at` event the simulation logs, so a decider that reads
    /// answers from a log can account for the entry (a reveal that was no choice, e.g. a
    /// continuously revealed top card whose place is already fixed, 401.5).
    fn note_shown(&mut self, _step: usize, _event: &Event) {}
}

/// Something on the stack.
#[derive(Debug, Clone)]
enum StackItem {
    Spell {
        obj: ObjId,
        face: Option<usize>,
        targets: Vec<TargetChoice>,
        controller: PlayerId,
        x: u32,
    },
    Ability {
        source: ObjId,
        /// The source's object number when the ability was put on the stack (400.7: "it" means
        /// that object only).
        source_no: u32,
        controller: PlayerId,
        effect: Vec<Effect>,
        triggering_player: Option<PlayerId>,
        targets: Vec<TargetChoice>,
        x: u32,
        /// The new object its source became in a public zone, for a zone-change trigger (400.7e).
        found_no: Option<u32>,
    },
}

/// What the rules did to one card, for attributing differences to a clause.
#[derive(Debug, Clone, Copy)]
pub struct MoveCause {
    /// The clause of the instruction that last moved it.
    pub clause: &'static str,
    /// The step it happened in.
    pub step: usize,
}

/// A rule decision that prevented, replaced or shaped events rather than logging one of its own
/// (a spell whose targets are gone, 608.2b; dredge not offered, 702.52b; a refused step; cards
/// reordered, 701.20d). The judge attributes a difference to the first rule decision where the
/// replay and the observation part ways: a logged event's clause, or one of these.
#[derive(Debug, Clone)]
pub struct RuleDecision {
    /// The step it was made in.
    pub step: usize,
    /// How many events the log held when it was made (it comes before the event at this index).
    pub at: usize,
    /// The clause that decided it.
    pub clause: &'static str,
    /// The cards whose state (what players know of them) it decided, if any.
    pub cards: Vec<ObjId>,
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
    /// Rule decisions that prevented or replaced events, in order (see [`RuleDecision`]).
    pub decisions: Vec<RuleDecision>,
    pending: Vec<PendingTrigger>,
    entered: Vec<ObjId>,
    refused: Option<SimError>,
    step: usize,
    decider: &'d mut dyn Decider,
    /// While cards are being put into libraries at the same time (401.4): per player, how many
    /// went on top and how many to the bottom since the batch began or the library was shuffled.
    placed_at_once: Option<Vec<[usize; 2]>>,
    /// Draws each player has made in the current step (to number dredge replacements).
    draws_in_step: BTreeMap<(usize, PlayerId), u32>,
    /// Permanents that left the battlefield earlier in the same simultaneous event, which
    /// leaves-the-battlefield abilities still see as there (603.10a).
    lookback: Vec<(ObjId, LastOnBattlefield)>,
    /// Playing as an engine rather than deciding legality: an attempted step the rules (as this
    /// engine plays them) allow is taken instead of being an error.
    pub engine_mode: bool,
    /// The known rules bug this simulator plays with, if any (the reference engine's mutant).
    mutant: Option<Mutant>,
    /// How many actions in progress hold back continuous reveals (401.5: casting a spell,
    /// activating an ability, and actions that move several cards at once).
    reveal_hold: u32,
    /// Whether a "play with the top card revealed" effect has applied during the run, so
    /// libraries need checking for a revealed top card (401.5–401.6).
    top_reveals_seen: bool,
    /// The card revealed because an ability is being activated from a hidden zone (602.2a): it
    /// stays revealed while the activation moves it (701.20a).
    revealed_for_activation: Option<ObjId>,
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
            decisions: Vec::new(),
            pending: Vec::new(),
            entered: Vec::new(),
            refused: None,
            step: 0,
            decider,
            engine_mode: false,
            mutant: None,
            draws_in_step: BTreeMap::new(),
            reveal_hold: 0,
            top_reveals_seen: false,
            revealed_for_activation: None,
            lookback: Vec::new(),
            placed_at_once: None,
        }
    }

    /// Plays with `mutant`, a known rules bug (none: the correct rules). Only the reference engine
    /// sets one; characteristics the scenario's loader computed are brought in line with it.
    pub fn set_mutant(&mut self, mutant: Option<Mutant>) {
        self.mutant = mutant;
        for obj in 0..self.game.objs.len() {
            self.mutate_chars(obj);
        }
    }

    /// True if the simulator plays with `mutant`.
    pub(crate) fn bug(&self, mutant: Mutant) -> bool {
        self.mutant == Some(mutant)
    }

    /// Mutant `split-mana-value-one-half`: `obj`'s characteristics, as the rules computed them,
    /// with the bug applied.
    pub(crate) fn mutate_chars(&mut self, obj: ObjId) {
        if !self.bug(Mutant::SplitManaValueOneHalf) {
            return;
        }
        let o = &mut self.game.objs[obj];
        let mut chars = (*o.chars).clone();
        crate::mutants::split_mana_value_one_half(&o.def, &mut chars);
        if chars != *o.chars {
            o.chars = std::sync::Arc::new(chars);
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
        // A loop of triggers and zone changes would otherwise never end (and explode the
        // enumeration): past this many events the run is an error naming the step.
        if self.log.len() >= MAX_EVENTS && self.refused.is_none() {
            self.refused = Some(SimError::Invalid {
                step: self.step,
                message: format!(
                    "the scenario doesn't end: more than {MAX_EVENTS} events in one run (a loop of triggers?)"
                ),
            });
        }
        if matches!(event, Event::Revealed { .. } | Event::LookedAt { .. }) {
            self.decider.note_shown(self.step, &event);
        }
        self.log.push(LoggedEvent { step: self.step, event });
        self.log_clauses.push(clause);
    }

    /// Records a rule decision that prevents, replaces or shapes events (see [`RuleDecision`]).
    pub(crate) fn rule_decision(&mut self, clause: &'static str, cards: Vec<ObjId>) {
        self.decisions.push(RuleDecision { step: self.step, at: self.log.len(), clause, cards });
    }

    fn decide(&mut self, decision: &Decision) -> Result<Choice, SimError> {
        self.decider.decide(&self.game, self.step, decision)
    }

    fn illegal(&self, violation: Violation, options: Vec<String>) -> SimError {
        SimError::Illegal { violation, step: self.step, options }
    }

    /// Moves a card and logs it; `clause` is the rule or instruction responsible.
    fn refused(&self, v: Violation) -> SimError {
        SimError::Refused { step: self.step, clause: v.clause, message: v.message }
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
        let cycled = matches!(happening, Happening::Discarded { cycled: true, .. });
        for t in triggered_by(&self.game, happening, died, &self.lookback) {
            // Mutant `cycle-or-discard-twice`: a cycled card triggers "cycles or discards" once
            // as a cycle and once as a discard.
            if cycled && t.on == "cycled_or_discarded" && self.bug(Mutant::CycleOrDiscardTwice) {
                self.pending.push(t.clone());
            }
            self.pending.push(t);
        }
    }

    /// 603.3b: triggered abilities go on the stack the next time a player would receive priority,
    /// in APNAP order, each player ordering their own. A `triggered` event is logged as each goes
    /// on the stack, so the log shows the order. Targets are chosen then (603.3d); an ability
    /// with no legal choice for a target is removed from the stack instead (and not logged).
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
                let targets = if t.targets.is_empty() {
                    Vec::new()
                } else {
                    let options = self.target_options(t.source, t.controller, &t.targets)?;
                    if options.is_empty() {
                        continue; // 603.3d: no legal targets, so it is removed from the stack.
                    }
                    let decision =
                        Decision::Targets { player: t.controller, source: t.source, options: options.clone() };
                    match self.decide(&decision)? {
                        Choice::Targets(chosen) if options.contains(&chosen) => chosen,
                        other => {
                            let listed = options.iter().map(|o| self.describe_targets(o)).collect();
                            return Err(self.illegal(
                                Violation::new("603.3d", format!("{other:?} is not a legal choice of targets")),
                                listed,
                            ));
                        }
                    }
                };
                let (source, controller) = (self.id(t.source), self.pname(t.controller));
                let player = t.triggering_player.map(|p| self.pname(p));
                let target_names = self.target_names(&targets);
                // The clause of the search that set off a search trigger (701.23f capped, 701.23h
                // merged…): the last one logged.
                let last_search = (t.on == "searched_library")
                    .then(|| {
                        let searches = self.log.iter().zip(&self.log_clauses).rev();
                        searches.filter(|(e, _)| matches!(e.event, Event::Searched { .. })).map(|(_, &c)| c).next()
                    })
                    .flatten();
                let clause = stacked_clause(&t, &group, last_search);
                self.emit(
                    Event::Triggered { source, controller, on: t.on.to_string(), player, targets: target_names },
                    clause,
                );
                self.stack.push(StackItem::Ability {
                    source: t.source,
                    source_no: t.source_no,
                    controller: t.controller,
                    effect: t.effect,
                    triggering_player: t.triggering_player,
                    targets,
                    x: 0,
                    found_no: t.found_no,
                });
            }
        }
        Ok(())
    }

    fn act(&mut self, action: &Action) -> Result<(), SimError> {
        match action {
            Action::Cast { player, card, face, targets, flashback, x, discard, reveal } => {
                let mode = if *flashback { CastMode::Flashback } else { CastMode::Normal };
                self.cast(*player, *card, *face, targets, mode, *x, *discard, *reveal)?
            }
            Action::Activate { player, card, ability, x, sacrifice, discard } => {
                self.activate(*player, *card, *ability, *x, *sacrifice, *discard)?
            }
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
                for _ in 0..*count {
                    if self.game.zone(ZoneRef::Library(*player)).is_empty() {
                        break;
                    }
                    self.draw(*player)?;
                }
            }
            Action::Exile(obj) => {
                // A spell exiled from the stack is gone: it won't resolve.
                self.stack.retain(|item| !matches!(item, StackItem::Spell { obj: o, .. } if o == obj));
                self.move_card(*obj, ZoneRef::Exile, Position::Top, 0, "701.13a")
            }
            Action::Discard(player, obj) => {
                let o = self.game.obj(*obj);
                if o.zone != ZoneRef::Hand(*player) {
                    return Err(self.invalid(format!(
                        "{} can't be discarded by {}: it is not in their hand (701.9a)",
                        o.id,
                        self.pname(*player)
                    )));
                }
                self.discard(*player, *obj, false);
            }
            Action::PlayLand(player, obj) => self.play_land(*player, *obj)?,
            Action::StartGame => {
                // 101.4e: while starting the game the starting player is the active player, so
                // the choices go in seat order; then the chosen cards enter at the same time.
                let mut chosen = Vec::new();
                for p in crate::rules::apnap::apnap_order(self.game.players.len()) {
                    for card in self.game.zone(ZoneRef::Hand(p)).to_vec() {
                        let begins = self.game.obj(card).def.faces().iter().any(|f| {
                            f.statics.contains(&crate::cards::instructions::StaticAbility::BeginOnBattlefield)
                        });
                        let decision =
                            Decision::May { player: p, about: MayAbout::BeginOnBattlefield, card: Some(card) };
                        if begins && effects_yes_no(self, &decision)? {
                            chosen.push((p, card));
                        }
                    }
                }
                for (p, card) in chosen {
                    self.move_card(card, ZoneRef::Battlefield, Position::Top, 0, "101.4e");
                    self.game.objs[card].controller = p;
                }
            }
            Action::ToGraveyard(objs) => {
                for &obj in objs {
                    if self.game.obj(obj).zone != ZoneRef::Battlefield {
                        return Err(self.invalid(format!("{} is not on the battlefield", self.id(obj))));
                    }
                }
                self.put_into_graveyards_at_once(objs, "700.4");
            }
            Action::Attempt { action, clause } => match self.act_refusable(action) {
                Err(SimError::Refused { clause: c, message, .. }) if c == clause.as_str() => {
                    let (player, card) = self.attempt_names(action);
                    self.rule_decision(c, Vec::new());
                    self.emit(Event::Refused { player, card }, c);
                    let _ = message;
                }
                Err(SimError::Refused { clause: c, message, .. }) => {
                    return Err(self.invalid(format!(
                        "the step is refused, but by {c} ({message}), not by {clause} as the scenario says"
                    )));
                }
                Err(e) => return Err(e),
                // An engine (the reference engine playing a mutant) that allows the step just
                // takes it; the judge then finds the missing refusal.
                Ok(()) if self.engine_mode => {}
                Ok(()) => {
                    return Err(self.invalid(format!(
                        "the scenario expects this step to be refused by {clause}, but the rules allow it"
                    )));
                }
            },
        }
        self.apply_reveal_statics()?;
        self.flush_triggers()
    }

    /// Runs an attempted action; the refusal checks come before any change to the game, so a
    /// refused action leaves it as it was.
    fn act_refusable(&mut self, action: &Action) -> Result<(), SimError> {
        match action {
            Action::Cast { player, card, face, targets, flashback, x, discard, reveal } => {
                let mode = if *flashback { CastMode::Flashback } else { CastMode::Normal };
                self.cast(*player, *card, *face, targets, mode, *x, *discard, *reveal)
            }
            Action::Activate { player, card, ability, x, sacrifice, discard } => {
                self.activate(*player, *card, *ability, *x, *sacrifice, *discard)
            }
            Action::PlayLand(player, obj) => self.play_land(*player, *obj),
            _ => Err(self.invalid("only `cast`, `activate` and `play` steps can be attempted")),
        }
    }

    fn attempt_names(&self, action: &Action) -> (String, String) {
        match action {
            Action::Cast { player, card, .. }
            | Action::Activate { player, card, .. }
            | Action::PlayLand(player, card) => (self.pname(*player), self.id(*card)),
            _ => (String::new(), String::new()),
        }
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
        for (i, segment) in library_segments(&self.game, player).into_iter().enumerate() {
            let need = n - out.len();
            if need == 0 {
                break;
            }
            if segment.len() <= need {
                out.extend(segment);
            } else {
                let decision = Decision::Random { player, purpose, from: segment.clone(), count: need };
                let picked = self.random_pick(&decision, &segment, need)?;
                // 701.20b: once looked at, they are the top cards of that segment and stay there.
                settle_top_of_segment(&mut self.game, player, i, &picked);
                out.extend(picked);
            }
        }
        Ok(out)
    }

    /// Holds back continuous reveals (401.5) until the matching [`Sim::release_reveals`].
    pub(crate) fn hold_reveals(&mut self) {
        self.reveal_hold += 1;
    }

    /// Ends a hold; when none is left, continuous reveals apply at once (401.5).
    pub(crate) fn release_reveals(&mut self) {
        self.reveal_hold = self.reveal_hold.saturating_sub(1);
        self.settle_reveals();
    }

    /// 401.5: a new top card of a library played with its top card revealed is revealed at once,
    /// unless a spell is being cast, an ability activated, or several cards are moving at once (a
    /// hold is in progress); then it is revealed when that is done. An error (a chance node the
    /// decider can't answer) stops the run at the next step boundary.
    pub(crate) fn settle_reveals(&mut self) {
        if self.reveal_hold > 0 {
            return;
        }
        if let Err(e) = self.apply_reveal_statics()
            && self.refused.is_none()
        {
            self.refused = Some(e);
        }
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

    fn resolve_top(&mut self) -> Result<(), SimError> {
        let Some(item) = self.stack.pop() else {
            return Err(self.invalid("there is nothing on the stack to resolve"));
        };
        match item {
            StackItem::Ability { source, source_no, controller, effect, triggering_player, targets, x, found_no } => {
                // 608.2b: an ability whose every target has become illegal doesn't resolve.
                let all_illegal = !targets.is_empty()
                    && targets.iter().all(|t| !self.still_legal(*t))
                    && !self.bug(Mutant::IllegalTargetsStillResolve);
                if all_illegal {
                    self.rule_decision("608.2b", Vec::new());
                } else {
                    let mut ctx = effects::Ctx::new(source, controller, targets, triggering_player);
                    ctx.source_no = source_no;
                    ctx.found_no = found_no;
                    ctx.x = x;
                    ctx.capture_target(&self.game);
                    self.run_effects(&mut ctx, &effect)?;
                }
            }
            StackItem::Spell { obj, face, targets, controller, x } => {
                let def = self.game.obj(obj).def.clone();
                let cast_face = &crate::rules::casting::face_def(&def, face);
                let spell = cast_face.spell.clone();
                // 608.2b: a spell whose every target has become illegal doesn't resolve.
                let all_illegal = !self.bug(Mutant::IllegalTargetsStillResolve)
                    && spell.as_ref().is_some_and(|s| {
                        !s.targets.is_empty()
                            && targets.iter().enumerate().all(|(i, t)| {
                                !self.target_legal(cast::spec_for(&s.targets, i), *t, controller, &targets)
                            })
                    });
                if all_illegal {
                    self.rule_decision("608.2b", Vec::new());
                }
                if let Some(spell) = spell.filter(|_| !all_illegal) {
                    let mut ctx = effects::Ctx::new(obj, controller, targets.clone(), None);
                    ctx.source_no = self.game.obj(obj).object_no;
                    ctx.x = x;
                    ctx.capture_target(&self.game);
                    self.run_effects(&mut ctx, &spell.effect)?;
                }
                if self.game.obj(obj).zone == ZoneRef::Stack {
                    if is_permanent(cast_face) && !all_illegal {
                        self.apply_as_enters(&[obj], controller)?;
                        self.move_card(obj, ZoneRef::Battlefield, Position::Top, 0, "608.3");
                        self.game.objs[obj].controller = controller;
                    } else {
                        let clause = if all_illegal { "608.2b" } else { "608.2n" };
                        self.put_into_graveyard(obj, false, clause);
                    }
                }
            }
        }
        self.apply_reveal_statics()?;
        self.flush_triggers()
    }

    /// Removes a spell from the stack without resolving it (countered, 701.6a).
    pub(crate) fn remove_spell(&mut self, obj: ObjId) -> bool {
        let before = self.stack.len();
        self.stack.retain(|item| !matches!(item, StackItem::Spell { obj: o, .. } if *o == obj));
        self.stack.len() != before
    }

    /// Puts a spell on the stack (after the card moved there).
    pub(crate) fn push_spell(
        &mut self,
        obj: ObjId,
        face: Option<usize>,
        targets: Vec<TargetChoice>,
        controller: PlayerId,
        x: u32,
    ) {
        self.stack.push(StackItem::Spell { obj, face, targets, controller, x });
    }

    /// Puts an activated ability on the stack.
    pub(crate) fn push_ability(&mut self, source: ObjId, controller: PlayerId, effect: Vec<Effect>, x: u32) {
        let source_no = self.game.obj(source).object_no;
        self.stack.push(StackItem::Ability {
            source,
            source_no,
            controller,
            effect,
            triggering_player: None,
            targets: Vec::new(),
            x,
            found_no: None,
        });
    }

    /// The half of a split card being cast, for a spell on the stack.
    pub(crate) fn spell_face(&self, obj: ObjId) -> Option<usize> {
        self.stack.iter().find_map(|item| match item {
            StackItem::Spell { obj: o, face, .. } if *o == obj => *face,
            _ => None,
        })
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
                FixedPositions { top_groups: shape.top_groups.clone(), bottom_groups: shape.bottom_groups.clone() },
            );
            // 400.5: a graveyard is ordered; cards put there at once form a group.
            fixed.insert(
                ZoneRef::Graveyard(p).display(&names),
                FixedPositions { top_groups: self.game.graveyard_groups(p), bottom_groups: Vec::new() },
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
            // Hidden zones, and face-down cards in exile (406.3), record who has seen each card.
            let hidden = matches!(o.zone, ZoneRef::Hand(_) | ZoneRef::Library(_) | ZoneRef::Outside(_))
                || (o.zone == ZoneRef::Exile && o.face_down);
            if hidden && o.known != 0 {
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

fn effects_yes_no(sim: &mut Sim<'_>, decision: &Decision) -> Result<bool, SimError> {
    match sim.decide(decision)? {
        Choice::Bool(b) => Ok(b),
        other => Err(sim.illegal(
            Violation::new("101.4", format!("{other:?} is not a yes/no answer")),
            vec!["yes".into(), "no".into()],
        )),
    }
}
