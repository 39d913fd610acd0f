//! The simulator: carries out a scenario's steps on a [`Game`], asking a [`Decider`] at every
//! choice the rules leave open, and checking every answer against the rules before using it.
//!
//! The same simulator serves three callers: the explorer (a decider that walks every option),
//! the judge (a decider that reads the choices off an observed outcome), and scripted runs. All
//! three go through the same checks, which is what keeps the judge and the explorer in agreement;
//! the property tests in `tests/agreement.rs` check that they do.

mod cast;
mod decision;
mod moves;
mod resolve;
pub mod script;
mod search;
mod stack;
mod turn;

pub(crate) use decision::describe_choice;
pub use decision::{Action, Choice, Decider, Decision, MayAbout, SimError, TargetChoice};
pub(crate) use search::destination_zone;
use stack::StackItem;

use std::collections::BTreeMap;

use crate::cards::def::CardType;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::mutants::Mutant;
use crate::outcome::{Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome};
use crate::rules::Violation;
use crate::rules::apnap::bit;
use crate::rules::casting::CastMode;
use crate::rules::shuffle::{library_segments, settle_top_of_segment};
use crate::rules::triggers::{LastOnBattlefield, PendingTrigger};
use crate::rules::zones::{Position, is_permanent_type};

/// The most events one run may log before it is stopped as a loop.
pub const MAX_EVENTS: usize = 5_000;

/// The outcome [`Sim::outcome`] gives, made from the two parts [`Sim::outcome_libraries_apart`]
/// gives and the run's final `game` (the simulator may be gone): each library written out as ids
/// and put in canonical form (a zone's canonical form depends only on its cards and its fixed
/// positions).
pub fn with_libraries(game: &Game, mut outcome: LegalOutcome, apart: &BTreeMap<String, ZoneRef>) -> LegalOutcome {
    for (name, zone) in apart {
        let mut ids: Vec<String> = game.zone(*zone).iter().map(|&o| game.obj(o).id_string()).collect();
        crate::outcome::canonical_zone(name, &mut ids, &outcome.fixed);
        outcome.outcome.zones.insert(name.clone(), ids);
    }
    outcome
}

/// A finished run's final game and records ([`Sim::into_record`]).
#[derive(Debug, Clone)]
pub struct Record {
    /// The final game.
    pub game: Game,
    /// The log.
    pub log: Vec<LoggedEvent>,
    /// The clause behind each log entry.
    pub log_clauses: Vec<&'static str>,
    /// The clause behind the last move of each object.
    pub last_move: BTreeMap<ObjId, MoveCause>,
    /// Rule decisions that prevented or replaced events, in order.
    pub decisions: Vec<RuleDecision>,
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

    /// The final game and what the run recorded, for a caller that keeps them after the
    /// simulator is gone (the judge keeps a replay to compare it with several observations).
    pub fn into_record(self) -> Record {
        Record {
            game: self.game,
            log: self.log,
            log_clauses: self.log_clauses,
            last_move: self.last_move,
            decisions: self.decisions,
        }
    }

    fn id(&self, obj: ObjId) -> String {
        self.game.obj(obj).id_string()
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

    fn act(&mut self, action: &Action) -> Result<(), SimError> {
        match action {
            Action::Cast { alternative_cost, .. } => {
                match self.act_refusable(action) {
                    // An engine (the reference engine playing a mutant) that wrongly finds an
                    // alternative cost's condition unmet refuses the cast, as it would refuse any
                    // step, and logs it; the judge then finds the cast missing (118.9).
                    Err(SimError::Refused { clause, .. }) if self.engine_mode && *alternative_cost => {
                        let (player, card) = self.attempt_names(action);
                        self.rule_decision(clause, Vec::new());
                        self.emit(Event::Refused { player, card }, clause);
                    }
                    other => other?,
                }
            }
            Action::Activate { .. } => self.act_refusable(action)?,
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
            Action::BeginStep(step) => {
                self.begin_step(*step)?;
                // 502.4: no player gets priority in the untap step, so what triggered there waits
                // for the upkeep (503.1a), which the loader makes the next step.
                if !crate::rules::turn_structure::step_has_priority(*step) {
                    return self.apply_reveal_statics();
                }
            }
            Action::IgnoreEffect(player, obj) => self.ignore_search_ban(*player, *obj)?,
            Action::Suspend(player, obj) => self.suspend(*player, *obj)?,
            Action::StartGame => {
                // 101.4e: while starting the game the starting player is the active player, so
                // the choices go in seat order; then the chosen cards enter at the same time.
                let mut chosen = Vec::new();
                for p in crate::rules::apnap::apnap_order(self.game.players.len()) {
                    for card in self.game.zone(ZoneRef::Hand(p)).to_vec() {
                        let begins = self.game.obj(card).def.face_slice().iter().any(|f| {
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
            Action::Cast {
                player,
                card,
                face,
                targets,
                flashback,
                x,
                discard,
                reveal,
                sacrifice,
                alternative_cost,
                phyrexian_life,
            } => {
                crate::rules::casting::check_one_alternative_cost(*flashback, *alternative_cost)
                    .map_err(|v| self.refused(v))?;
                let mode = cast_mode(*flashback, *alternative_cost);
                self.cast(*player, *card, *face, targets, mode, *x, *discard, *reveal, *sacrifice, *phyrexian_life)
            }
            Action::Activate { player, card, ability, x, sacrifice, discard, targets } => {
                self.activate(*player, *card, *ability, *x, *sacrifice, *discard, targets)
            }
            Action::PlayLand(player, obj) => self.play_land(*player, *obj),
            Action::IgnoreEffect(player, obj) => self.ignore_search_ban(*player, *obj),
            Action::Suspend(player, obj) => self.suspend(*player, *obj),
            _ => {
                Err(self
                    .invalid("only `cast`, `activate`, `play`, `ignore_effect` and `suspend` steps can be attempted"))
            }
        }
    }

    /// 116.2f, 702.62a: `player` suspends `card` from their hand — a special action (no stack,
    /// nothing to respond to): the suspend cost is assumed paid (mana isn't modelled) and the card
    /// is exiled with its time counters.
    fn suspend(&mut self, player: PlayerId, card: ObjId) -> Result<(), SimError> {
        let as_though_flash = crate::rules::casting::casts_as_though_flash(&self.game, player);
        let position =
            crate::rules::suspend::check_suspend(&self.game, player, card, self.stack.is_empty(), as_though_flash)
                .map_err(|v| self.refused(v))?;
        self.game.turn_position = position;
        let counters = crate::rules::suspend::time_counters_on_suspend(self.game.obj(card));
        self.move_card(card, ZoneRef::Exile, Position::Top, 0, "702.62a");
        self.game.objs[card].flags.time_counters = counters;
        Ok(())
    }

    /// 116.2d: `player` pays to ignore `card`'s "can't search" effect until end of turn — a
    /// special action: no stack, nothing to respond to, and only that player is freed from that
    /// permanent's effect (the Leonin Arbiter rulings, 2011-01-01).
    fn ignore_search_ban(&mut self, player: PlayerId, card: ObjId) -> Result<(), SimError> {
        crate::rules::search::check_may_ignore_search_ban(&self.game, card).map_err(|v| self.refused(v))?;
        self.game.objs[card].flags.search_ban_ignored_by |= bit(player);
        Ok(())
    }

    fn attempt_names(&self, action: &Action) -> (String, String) {
        match action {
            Action::Cast { player, card, .. }
            | Action::Activate { player, card, .. }
            | Action::PlayLand(player, card)
            | Action::IgnoreEffect(player, card)
            | Action::Suspend(player, card) => (self.pname(*player), self.id(*card)),
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
                    format!(
                        "{} is not {count} of the cards whose order the oracle leaves open there",
                        describe_choice(&self.game, &other)
                    ),
                ),
                Vec::new(),
            )),
        }
    }

    /// The outcome so far, in canonical form.
    pub fn outcome(&self) -> LegalOutcome {
        self.outcome_with_log(self.log.clone(), None)
    }

    /// [`Sim::outcome`] with every non-empty library left out of the outcome's zones and given
    /// apart, by zone name and zone (its objects are the game's, in order): for the judge, which
    /// compares a library's shuffled part with an observation as a set of objects (701.24a)
    /// instead of writing out and sorting an id per card.
    pub fn outcome_libraries_apart(&self) -> (LegalOutcome, BTreeMap<String, ZoneRef>) {
        let mut apart = BTreeMap::new();
        let outcome = self.outcome_with_log(self.log.clone(), Some(&mut apart));
        (outcome, apart)
    }

    /// [`Sim::outcome`] at the end of a run: the log is moved into the outcome, not copied (the
    /// enumerator and the fuzz targets take an outcome from every run they make).
    pub fn into_outcome(mut self) -> LegalOutcome {
        let log = std::mem::take(&mut self.log);
        self.outcome_with_log(log, None)
    }

    /// The outcome so far, with `events` as its log; with `libraries_apart`, the non-empty
    /// libraries go there as objects instead of into the outcome's zones.
    fn outcome_with_log(
        &self,
        events: Vec<LoggedEvent>,
        mut libraries_apart: Option<&mut BTreeMap<String, ZoneRef>>,
    ) -> LegalOutcome {
        // Each map is listed first and built in one go (`BTreeMap::from_iter` sorts once and
        // fills its nodes in order), rather than by one insertion per entry, each a descent
        // comparing zone names or card ids: building outcomes is a sixth of the `search_request`
        // fuzz target (issue 13). The keys are distinct, so the maps are the same.
        let mut zones: Vec<(String, Vec<String>)> = Vec::with_capacity(self.game.zones.len() + 1);
        for (zone, cards) in &self.game.zones {
            if *zone == ZoneRef::Stack || cards.is_empty() {
                continue;
            }
            if let (ZoneRef::Library(_), Some(apart)) = (zone, libraries_apart.as_deref_mut()) {
                apart.insert(self.game.zone_name(*zone), *zone);
                continue;
            }
            zones.push((self.game.zone_name(*zone), cards.iter().map(|&o| self.id(o)).collect()));
        }
        let mut fixed: Vec<(String, FixedPositions)> = Vec::with_capacity(2 * self.game.shapes.len());
        for (p, shape) in self.game.shapes.iter().enumerate() {
            fixed.push((
                self.game.zone_name(ZoneRef::Library(p)),
                FixedPositions { top_groups: shape.top_groups.clone(), bottom_groups: shape.bottom_groups.clone() },
            ));
            // 400.5: a graveyard is ordered; cards put there at once form a group.
            fixed.push((
                self.game.zone_name(ZoneRef::Graveyard(p)),
                FixedPositions { top_groups: self.game.graveyard_groups(p), bottom_groups: Vec::new() },
            ));
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
            zones.push(("stack".to_string(), stack));
        }
        let mut known = Vec::new();
        let mut counters = Vec::new();
        let mut tapped = Vec::new();
        let mut time_counters = Vec::new();
        let players = &self.game.players;
        for o in &self.game.objs {
            // Hidden zones, and face-down cards in exile (406.3), record who has seen each card.
            let hidden = matches!(o.zone, ZoneRef::Hand(_) | ZoneRef::Library(_) | ZoneRef::Outside(_))
                || (o.zone == ZoneRef::Exile && o.face_down);
            if hidden && o.known != 0 {
                let who: Vec<String> =
                    (0..players.len()).filter(|&p| o.known & bit(p) != 0).map(|p| players[p].name.clone()).collect();
                known.push((o.id_string(), who));
            }
            if o.zone == ZoneRef::Battlefield && o.counters > 0 {
                counters.push((o.id_string(), o.counters));
            }
            if o.zone == ZoneRef::Battlefield && o.flags.tapped {
                tapped.push(o.id_string());
            }
            if o.zone == ZoneRef::Exile && o.flags.time_counters > 0 {
                time_counters.push((o.id_string(), o.flags.time_counters));
            }
        }
        let life = players.iter().map(|p| (p.name.clone(), p.life)).collect();
        let (zones, fixed): (BTreeMap<_, _>, BTreeMap<_, _>) =
            (zones.into_iter().collect(), fixed.into_iter().collect());
        let (known, counters, time_counters) =
            (known.into_iter().collect(), counters.into_iter().collect(), time_counters.into_iter().collect());
        let outcome = Outcome { zones, known, life, counters, tapped, time_counters, events };
        LegalOutcome { outcome: outcome.into_canonical(&fixed), fixed }
    }
}

fn is_permanent(face: &crate::cards::def::CardDef) -> bool {
    is_permanent_type(&face.types)
}

fn effects_yes_no(sim: &mut Sim<'_>, decision: &Decision) -> Result<bool, SimError> {
    match sim.decide(decision)? {
        Choice::Bool(b) => Ok(b),
        other => Err(sim.illegal(
            Violation::new("101.4", format!("{} is not a yes/no answer", describe_choice(&sim.game, &other))),
            vec!["yes".into(), "no".into()],
        )),
    }
}

/// How a cast step pays for the spell: flashback, the card's alternative cost, or its mana cost.
fn cast_mode(flashback: bool, alternative_cost: bool) -> CastMode {
    if flashback {
        CastMode::Flashback
    } else if alternative_cost {
        CastMode::AlternativeCost
    } else {
        CastMode::Normal
    }
}
