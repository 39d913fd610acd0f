//! Carrying out the instructions of a resolving spell or ability. Each instruction defers its
//! rule decisions to the `rules` module of its CR section.

use std::collections::{BTreeMap, BTreeSet};

use super::{Choice, Decision, MayAbout, Sim, SimError, TargetChoice};
use crate::cards::instructions::{CardRef, Destination, Effect, PlayerRef, SearchSpec, SearchZone};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::mutants::{self, Mutant};
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::apnap::{apnap_order, bit, opponents};
use crate::rules::characteristics::matches;
use crate::rules::search::{
    PartPlan, check_found, check_library_cap, ends_merge_window, inside_one_search, joint_minimum, library_caps,
    library_caps_in_play, mergeable, plan_part, runs_after_merged_search,
};
use crate::rules::shuffle::shuffle_library;
use crate::rules::triggers::Happening;
use crate::rules::zones::{Position, can_enter_battlefield};

/// Last known information about the first target (608.2h), taken as the spell starts resolving.
#[derive(Debug, Clone)]
pub(super) struct Lki {
    names: Vec<String>,
    controller: PlayerId,
    owner: PlayerId,
}

/// What the instructions of one resolving spell or ability refer to.
#[derive(Debug, Clone)]
pub(super) struct Ctx {
    source: ObjId,
    controller: PlayerId,
    targets: Vec<TargetChoice>,
    target_lki: Option<Lki>,
    chosen: Option<ObjId>,
    chosen_names: Option<Vec<String>>,
    triggering_player: Option<PlayerId>,
    /// The source's object number when the spell or ability was put on the stack.
    pub(super) source_no: u32,
    /// The value of X.
    pub(super) x: u32,
    /// For a zone-change trigger, the object number of the new object its source became in the
    /// public zone it moved to (400.7e).
    pub(super) found_no: Option<u32>,
}

impl Ctx {
    pub(super) fn new(
        source: ObjId,
        controller: PlayerId,
        targets: Vec<TargetChoice>,
        triggering_player: Option<PlayerId>,
    ) -> Self {
        Ctx {
            source,
            controller,
            targets,
            target_lki: None,
            chosen: None,
            chosen_names: None,
            triggering_player,
            source_no: 0,
            x: 0,
            found_no: None,
        }
    }

    /// 400.7j: an object this effect moved to a public zone is still "it" for the rest of the
    /// effect, so the target is updated to the new object.
    pub(super) fn follow(&mut self, obj: ObjId, object_no: u32) {
        for t in &mut self.targets {
            if let TargetChoice::Obj(o, no) = t
                && *o == obj
            {
                *no = object_no;
            }
        }
        if self.source == obj {
            self.source_no = object_no;
            self.found_no = Some(object_no);
        }
    }

    /// Last known information about the first target (608.2h): if it has left the battlefield,
    /// its controller is the one it had there.
    pub(super) fn capture_target(&mut self, game: &Game) {
        if let Some(TargetChoice::Obj(obj, no)) = self.targets.first() {
            let o = game.obj(*obj);
            let controller = if o.zone == ZoneRef::Battlefield { o.controller } else { o.last_controller };
            // 608.2h: the target as it is if it is still that object; if it has moved (a new
            // object, 400.7), as it last existed — a face-down permanent exiled in response has
            // no name (708.2a), whatever the card now face up in exile is called.
            let chars = crate::rules::characteristics::last_known(o, *no);
            self.target_lki = Some(Lki { names: chars.names.clone(), controller, owner: o.owner });
        }
    }
}

impl Sim<'_> {
    /// The first of the players `r` refers to (APNAP order); an error when there is none (each
    /// opponent, in a game of one player).
    fn player(&self, ctx: &Ctx, r: PlayerRef) -> Result<PlayerId, SimError> {
        self.players(ctx, r)?.first().copied().ok_or_else(|| SimError::Unsupported {
            step: self.step,
            message: "the instruction refers to a player this game doesn't have".into(),
        })
    }

    fn players(&self, ctx: &Ctx, r: PlayerRef) -> Result<Vec<PlayerId>, SimError> {
        let n = self.game.players.len();
        let step = self.step;
        let one = |p: Option<PlayerId>, what: &str| {
            p.map(|p| vec![p]).ok_or_else(|| SimError::Unsupported {
                step,
                message: format!("the instruction refers to {what}, which this spell or ability doesn't have"),
            })
        };
        match r {
            PlayerRef::You => Ok(vec![ctx.controller]),
            PlayerRef::TargetPlayer => one(
                ctx.targets.iter().find_map(|t| match t {
                    TargetChoice::Player(p) => Some(*p),
                    TargetChoice::Obj(..) => None,
                }),
                "a target player",
            ),
            PlayerRef::ControllerOfTarget => one(ctx.target_lki.as_ref().map(|l| l.controller), "a target object"),
            PlayerRef::OwnerOfTarget => one(ctx.target_lki.as_ref().map(|l| l.owner), "a target object"),
            PlayerRef::EachPlayer => Ok(apnap_order(n)),
            PlayerRef::EachOpponent => Ok(opponents(ctx.controller, n)),
            PlayerRef::TriggeringPlayer => one(ctx.triggering_player, "a triggering player"),
        }
    }

    /// The object a `CardRef` names, if it is still the same object (400.7).
    fn object(&self, ctx: &Ctx, r: CardRef) -> Option<ObjId> {
        match r {
            // "this" is the source only while it is the same object (400.7): a card exiled from a
            // graveyard in response is a new object the ability can't find.
            // 400.7e: a zone-change trigger also finds the new object in the public zone it went to.
            CardRef::This => {
                let no = self.game.obj(ctx.source).object_no;
                (no == ctx.source_no || Some(no) == ctx.found_no).then_some(ctx.source)
            }
            CardRef::Chosen => ctx.chosen,
            CardRef::Target => match ctx.targets.first() {
                Some(TargetChoice::Obj(obj, no)) if self.game.obj(*obj).object_no == *no => Some(*obj),
                _ => None,
            },
        }
    }

    /// Names of the object a filter's `same_name_as` refers to; `None` when it doesn't exist.
    /// An object without a name (a face-down permanent, 708.2a) gives no name to look for, so the
    /// quality is undefined (701.23c).
    fn referent_names(&self, ctx: &Ctx, r: CardRef) -> Option<Vec<String>> {
        let names = match r {
            CardRef::This => Some(self.game.obj(ctx.source).chars.names.clone()),
            CardRef::Chosen => ctx.chosen_names.clone(),
            CardRef::Target => ctx.target_lki.as_ref().map(|l| l.names.clone()),
        };
        names.filter(|n| !n.is_empty())
    }

    pub(super) fn run_effects(&mut self, ctx: &mut Ctx, effects: &[Effect]) -> Result<(), SimError> {
        let mut i = 0;
        while i < effects.len() {
            if let Effect::Search(first) = &effects[i] {
                // 701.23h: every instruction of this effect to search the same library before
                // the instruction to shuffle it is one search, also when other instructions stand
                // between them ("search for a Forest card, lose 1 life, search for a Plains card,
                // then shuffle").
                let mut group = vec![first.clone()];
                let mut last_merged = i;
                let mut j = i + 1;
                while let Some(next) = effects.get(j) {
                    let last = group.last().expect("group is never empty");
                    match next {
                        Effect::Search(next) if mergeable(last, next) => {
                            group.push(next.clone());
                            last_merged = j;
                        }
                        // 701.23h: another player's search or another library's shuffle inside
                        // one search is not modelled.
                        _ if inside_one_search(last, next, &effects[j + 1..]) => {
                            return Err(SimError::Unsupported {
                                step: self.step,
                                message: format!(
                                    "701.23h: the search instructions around {next:?} are one search, and \
                                     carrying that instruction out inside it is not modelled"
                                ),
                            });
                        }
                        Effect::Search(_) => break,
                        other if ends_merge_window(other) => break,
                        _ if last.shuffle => break,
                        _ => {}
                    }
                    j += 1;
                }
                let between: Vec<&Effect> = effects
                    .get(i + 1..last_merged)
                    .unwrap_or_default()
                    .iter()
                    .filter(|e| !matches!(e, Effect::Search(_)))
                    .collect();
                if let Some(e) = between.iter().find(|e| !runs_after_merged_search(e)) {
                    return Err(SimError::Unsupported {
                        step: self.step,
                        message: format!(
                            "701.23h: the search instructions around {e:?} are one search, and carrying that \
                             instruction out after the search is not modelled"
                        ),
                    });
                }
                // The one search happens at the first instruction; the instructions between the
                // merged ones follow it in order.
                self.search(ctx, &group)?;
                for e in between {
                    self.instruction(ctx, e)?;
                }
                i = last_merged + 1;
                continue;
            }
            self.instruction(ctx, &effects[i])?;
            i += 1;
        }
        Ok(())
    }

    fn instruction(&mut self, ctx: &mut Ctx, effect: &Effect) -> Result<(), SimError> {
        match effect {
            Effect::Exile(r) => {
                if let Some(obj) = self.object(ctx, *r) {
                    self.move_card(obj, ZoneRef::Exile, Position::Top, 0, "701.13a");
                    // 400.7j: other parts of this effect can find the object in exile.
                    ctx.follow(obj, self.game.obj(obj).object_no);
                }
            }
            Effect::RevealHand(who) => {
                for p in self.players(ctx, *who)? {
                    let hand = self.game.zone(ZoneRef::Hand(p)).to_vec();
                    let everyone = self.game.everyone();
                    for &o in &hand {
                        self.game.objs[o].known |= everyone; // 701.20a
                    }
                    // 701.20a: an empty hand shows no card, so there is nothing to log.
                    if hand.is_empty() {
                        continue;
                    }
                    let cards = hand.iter().map(|&o| self.id(o)).collect();
                    let player = self.pname(p);
                    self.emit(Event::Revealed { player, cards }, "701.20a");
                }
            }
            Effect::ChooseCard { chooser, from, filter } => {
                let chooser = self.player(ctx, *chooser)?;
                let from = self.player(ctx, *from)?;
                let options: Vec<ObjId> = self
                    .game
                    .zone(ZoneRef::Hand(from))
                    .iter()
                    .copied()
                    .filter(|&o| matches(&self.game.obj(o).chars, filter, None) || self.bug(Mutant::LobotomyBasicLand))
                    .collect();
                ctx.chosen = None;
                ctx.chosen_names = None;
                if !options.is_empty() {
                    let decision = Decision::ChooseCard { player: chooser, options: options.clone() };
                    let card = self.one_of(&decision, &options, "a card that can be chosen")?;
                    ctx.chosen = Some(card);
                    ctx.chosen_names = Some(self.game.obj(card).chars.names.clone());
                    let (player, card) = (self.pname(chooser), self.id(card));
                    self.emit(Event::Chose { player, card }, "608.2d");
                }
            }
            Effect::Search(spec) => self.search(ctx, std::slice::from_ref(spec))?,
            Effect::Shuffle(who) => {
                for p in self.players(ctx, *who)? {
                    self.shuffle(p);
                }
            }
            Effect::Draw { player, count } => {
                for p in self.players(ctx, *player)? {
                    // Drawing from an empty library does nothing here, so more draws than cards
                    // change nothing (and a huge count can't stall the run).
                    let n = (*count as usize).min(self.game.zone(ZoneRef::Library(p)).len());
                    for _ in 0..n {
                        self.draw(p)?;
                    }
                }
            }
            Effect::LoseLife { player, amount } => {
                for p in self.players(ctx, *player)? {
                    let loss = i32::try_from(*amount).unwrap_or(i32::MAX);
                    self.game.players[p].life = self.game.players[p].life.saturating_sub(loss);
                    let player = self.pname(p);
                    self.emit(Event::LostLife { player, amount: *amount }, "119.3");
                }
            }
            Effect::Sacrifice { player, filter } => {
                let mut chosen = Vec::new();
                for p in self.players(ctx, *player)? {
                    let options: Vec<ObjId> = self
                        .game
                        .zone(ZoneRef::Battlefield)
                        .iter()
                        .copied()
                        .filter(|&o| self.game.obj(o).controller == p && matches(&self.game.obj(o).chars, filter, None))
                        .collect();
                    if options.is_empty() {
                        continue;
                    }
                    let decision = Decision::Sacrifice { player: p, options: options.clone() };
                    let card = self.one_of(&decision, &options, "a permanent they can sacrifice")?;
                    chosen.push((p, card));
                }
                // 101.4: every player chooses (in APNAP order) before anything is sacrificed, then
                // the chosen permanents are sacrificed at the same time, so one player's
                // sacrifice (returning a card exiled "until this leaves", 610.3c) can't change
                // what another may choose.
                self.sacrifice_at_once(&chosen);
            }
            Effect::Mill { player, count } => {
                for p in self.players(ctx, *player)? {
                    self.mill(p, *count)?;
                }
            }
            Effect::Investigate => {
                let Some(clue) = crate::rules::tokens::clue(&self.game) else {
                    return Err(SimError::Unsupported {
                        step: self.step,
                        message: "the card pool has no Clue token".into(),
                    });
                };
                self.create_token(clue, ctx.controller);
            }
            Effect::RevealTop { player, count } => {
                for p in self.players(ctx, *player)? {
                    let cards = self.top_cards(p, *count as usize, "reveal")?;
                    self.reveal_cards(p, &cards, "701.20a");
                }
            }
            Effect::LookAtTop { player, count } => {
                for p in self.players(ctx, *player)? {
                    let cards = self.top_cards(p, *count as usize, "look")?;
                    self.look_at_cards(p, &cards);
                }
            }
            Effect::ReorderTop { player, count } => {
                for p in self.players(ctx, *player)? {
                    // top_cards leaves the cards it returns on top (701.20b).
                    let cards = self.top_cards(p, *count as usize, "look")?;
                    self.look_at_cards(p, &cards);
                    // Mutant `revealed-cards-stay-known-after-reorder`: the cards stay the objects
                    // they were, known as they were; only their order is open.
                    let kept: Vec<_> = if self.bug(Mutant::RevealedTopStaysKnown) {
                        cards.iter().map(|&c| (c, self.game.obj(c).clone())).collect()
                    } else {
                        Vec::new()
                    };
                    crate::rules::reveal::put_back_in_any_order(&mut self.game, p, &cards);
                    for (c, obj) in kept {
                        self.game.objs[c] = obj;
                    }
                    // 401.5: a continuously revealed top card is revealed again once they are back.
                    self.settle_reveals();
                    // 701.20d: the reordered cards are new objects only the one who ordered them knows.
                    self.rule_decision("701.20d", cards.clone());
                }
            }
            Effect::ShuffleInto(r) => {
                let owner = match r {
                    CardRef::This => self.game.obj(ctx.source).owner,
                    _ => match self.object(ctx, *r) {
                        Some(o) => self.game.obj(o).owner,
                        None => ctx.target_lki.as_ref().map_or(ctx.controller, |l| l.owner),
                    },
                };
                // One action (701.24c): no top card is revealed before the shuffle (401.5).
                self.hold_reveals();
                if let Some(obj) = self.object(ctx, *r)
                    && !self.moved_instead_of_leaving_stack(obj)
                {
                    self.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "701.24c");
                }
                // 701.24c: the library is shuffled even if the object isn't where it was expected.
                self.shuffle_for(owner, "701.24c");
                self.release_reveals();
            }
            Effect::ShuffleTargetCardsInto => {
                let Some(player) = ctx.targets.iter().find_map(|t| match t {
                    TargetChoice::Player(p) => Some(*p),
                    TargetChoice::Obj(..) => None,
                }) else {
                    return Err(SimError::Unsupported {
                        step: self.step,
                        message: "the instruction needs a target player".into(),
                    });
                };
                let cards: Vec<ObjId> = ctx
                    .targets
                    .iter()
                    .filter_map(|t| match *t {
                        TargetChoice::Obj(o, no)
                            if self.game.obj(o).object_no == no
                                && self.game.obj(o).zone == ZoneRef::Graveyard(player) =>
                        {
                            Some(o)
                        }
                        _ => None,
                    })
                    .collect();
                self.hold_reveals();
                for c in cards {
                    self.move_card(c, ZoneRef::Library(player), Position::Bottom, 0, "701.24d");
                }
                // 701.24d: shuffled even when the set of cards is empty.
                self.shuffle_for(player, "701.24d");
                self.release_reveals();
            }
            Effect::Counter(r) => {
                if let Some(obj) = self.object(ctx, *r)
                    && self.game.obj(obj).zone == ZoneRef::Stack
                    && self.remove_spell(obj)
                {
                    self.put_into_graveyard(obj, false, "701.6a");
                    // 400.7j: where the countered card went is a public zone (its owner's
                    // graveyard, or exile instead), so the rest of the effect can find it there.
                    let o = self.game.obj(obj);
                    if crate::rules::zones::is_public(o.zone) && self.game.zone(o.zone).contains(&obj) {
                        ctx.follow(obj, o.object_no);
                    }
                }
            }
            Effect::ExileUntilSourceLeaves(r) => {
                let src = self.game.obj(ctx.source);
                // 610.3b: if the source has already left the battlefield, nothing is exiled.
                if src.zone != ZoneRef::Battlefield || src.object_no != ctx.source_no {
                    return Ok(());
                }
                if let Some(obj) = self.object(ctx, *r) {
                    self.move_card(obj, ZoneRef::Exile, Position::Top, 0, "610.3");
                    self.game.objs[obj].flags.exiled_until = Some((ctx.source, ctx.source_no));
                }
            }
            Effect::GainLife { player, amount } => {
                for p in self.players(ctx, *player)? {
                    self.gain_life(p, *amount);
                }
            }
            Effect::GainLifeX => {
                let (p, x) = (ctx.controller, ctx.x);
                self.gain_life(p, x);
            }
            Effect::GainLifeForEach { player, filter } => {
                for p in self.players(ctx, *player)? {
                    // 709.2: a split card is one card, counted once.
                    let n =
                        self.game
                            .zone(ZoneRef::Graveyard(p))
                            .iter()
                            .filter(|&&o| matches(&self.game.obj(o).chars, filter, None))
                            .map(|&o| {
                                if self.bug(Mutant::SplitCountedTwice) { self.game.obj(o).def.faces().len() } else { 1 }
                            })
                            .sum::<usize>();
                    // The amount is decided by 709.2 when a split card is among the counted cards.
                    let split = self.game.zone(ZoneRef::Graveyard(p)).iter().any(|&o| {
                        matches(&self.game.obj(o).chars, filter, None) && !self.game.obj(o).def.split.is_empty()
                    });
                    self.gain_life_for(p, n as u32, if split { "709.2" } else { "119.1" });
                }
            }
            Effect::DrawX => {
                let p = ctx.controller;
                for _ in 0..ctx.x {
                    if self.game.zone(ZoneRef::Library(p)).is_empty() {
                        break;
                    }
                    self.draw(p)?;
                }
            }
            Effect::Discard { player, count } => {
                for p in self.players(ctx, *player)? {
                    let options = self.game.zone(ZoneRef::Hand(p)).to_vec();
                    let n = (*count as usize).min(options.len());
                    if n == 0 {
                        continue;
                    }
                    let decision = Decision::Discard { player: p, options: options.clone(), count: n, optional: false };
                    let chosen = match self.decide(&decision)? {
                        Choice::Cards(c)
                            if c.len() == n
                                && c.iter().all(|o| options.contains(o))
                                && c.iter().collect::<BTreeSet<_>>().len() == n =>
                        {
                            c
                        }
                        other => {
                            let listed = options.iter().map(|&o| self.id(o)).collect();
                            return Err(self.illegal(
                                Violation::new("701.9b", format!("{other:?} is not {n} different cards from the hand")),
                                listed,
                            ));
                        }
                    };
                    // Discarded at once (401.4 when an effect sends them into a library instead).
                    self.at_once(|sim| {
                        for c in chosen {
                            sim.discard(p, c, false);
                        }
                    });
                }
            }
            Effect::CastFromGraveyards { from, filter, exile_instead_of_graveyard } => {
                // 101.4c: "a spell from each opponent's graveyard" is several choices of one
                // player with no order specified, so the caster chooses the order: each time, a
                // spell from any graveyard not yet cast from, or none (which ends the casting —
                // declining one graveyard and casting from another later is the same as casting
                // from the other first).
                let mut remaining = self.players(ctx, *from)?;
                while !remaining.is_empty() {
                    match self.cast_from_graveyard(ctx.controller, &remaining, filter, *exile_instead_of_graveyard)? {
                        Some(p) => remaining.retain(|&q| q != p),
                        None => break,
                    }
                }
            }
            Effect::NameCard { player, filter } => {
                let p = self.player(ctx, *player)?;
                let options = crate::rules::naming::nameable(&self.game, filter);
                let name = match self.decide(&Decision::Name {
                    player: p,
                    options: options.clone(),
                    filter: filter.clone(),
                })? {
                    Choice::Name(n) => n,
                    other => {
                        return Err(
                            self.illegal(Violation::new("709.4a", format!("{other:?} is not a card name")), options)
                        );
                    }
                };
                if let Err(v) = crate::rules::naming::check_name(&self.game, &name, filter) {
                    return Err(self.illegal(v, options));
                }
                ctx.chosen = None;
                ctx.chosen_names = Some(vec![name.clone()]);
                let who = self.pname(p);
                self.emit(Event::Named { player: who, name }, "709.4a");
            }
            Effect::PutIntoLibraryNthFromTop { card, n } => {
                if let Some(obj) = self.object(ctx, *card) {
                    self.put_nth_from_top(obj, *n)?;
                }
            }
            Effect::ExileLinked(r) => {
                if let Some(obj) = self.object(ctx, *r) {
                    self.move_card(obj, ZoneRef::Exile, Position::Top, 0, "406.6");
                    self.game.objs[obj].flags.exiled_with = Some((ctx.source, ctx.source_no));
                }
            }
            Effect::ReturnLinkedToBattlefield => {
                let link = Some((ctx.source, ctx.source_no));
                let linked: Vec<ObjId> = self
                    .game
                    .zone(ZoneRef::Exile)
                    .iter()
                    .copied()
                    .filter(|&o| self.game.obj(o).flags.exiled_with == link)
                    .collect();
                for o in linked {
                    self.move_card(o, ZoneRef::Battlefield, Position::Top, 0, "406.6");
                    let owner = self.game.obj(o).owner;
                    self.game.objs[o].controller = owner;
                }
            }
            Effect::PutChosenExiledCardIntoHand { chooser } => {
                for p in self.players(ctx, *chooser)? {
                    let options: Vec<ObjId> = self
                        .game
                        .zone(ZoneRef::Exile)
                        .iter()
                        .copied()
                        .filter(|&o| self.game.obj(o).owner == p)
                        .collect();
                    if options.is_empty() {
                        continue;
                    }
                    let decision = Decision::ChooseCard { player: p, options: options.clone() };
                    let card = self.one_of(&decision, &options, "a card they own in exile (406.4)")?;
                    let (player, id) = (self.pname(p), self.id(card));
                    self.emit(Event::Chose { player, card: id }, "406.4");
                    self.move_card(card, ZoneRef::Hand(p), Position::Top, bit(p), "406.4");
                }
            }
            Effect::CopyAndMayCast(r) => {
                if let Some(obj) = self.object(ctx, *r) {
                    self.cast_copy(ctx.controller, obj)?;
                }
            }
            Effect::MillThenGainLifeForManaValues { player, count } => {
                for p in self.players(ctx, *player)? {
                    let milled = self.mill(p, *count)?;
                    // 701.17c–d: each milled card that reached a public zone is found, and the
                    // answers are summed.
                    let total: u32 = milled
                        .iter()
                        .filter(|&&c| crate::rules::zones::is_public(self.game.obj(c).zone))
                        .map(|&c| self.game.obj(c).chars.mana_value)
                        .sum();
                    self.gain_life(p, total);
                }
            }
            Effect::GainFlashback(r) => {
                if let Some(obj) = self.object(ctx, *r)
                    && matches!(self.game.obj(obj).zone, ZoneRef::Graveyard(_))
                {
                    self.game.objs[obj].flags.granted_flashback = true;
                }
            }
            Effect::MinusCounterOnEachCreature => {
                let any = self
                    .game
                    .zone(ZoneRef::Battlefield)
                    .iter()
                    .any(|&o| self.game.obj(o).chars.types.contains(&crate::cards::def::CardType::Creature));
                if any {
                    return Err(SimError::Unsupported {
                        step: self.step,
                        message:
                            "-1/-1 counters on creatures need toughness and state-based actions, which aren't modelled"
                                .into(),
                    });
                }
            }
            Effect::AddCounters { count, optional } => {
                let source = ctx.source;
                if self.game.obj(source).zone != ZoneRef::Battlefield {
                    return Ok(());
                }
                if *optional {
                    let decision =
                        Decision::May { player: ctx.controller, about: MayAbout::Counters, card: Some(source) };
                    if !self.yes_no(&decision)? {
                        return Ok(());
                    }
                }
                self.game.objs[source].counters = self.game.objs[source].counters.saturating_add(*count);
                let card = self.id(source);
                self.emit(Event::Counters { card, count: *count }, "122.1");
            }
        }
        Ok(())
    }

    fn gain_life(&mut self, p: PlayerId, amount: u32) {
        self.gain_life_for(p, amount, "119.1");
    }

    /// [`Self::gain_life`], logged with the clause that decided the amount.
    fn gain_life_for(&mut self, p: PlayerId, amount: u32, clause: &'static str) {
        let gain = i32::try_from(amount).unwrap_or(i32::MAX);
        self.game.players[p].life = self.game.players[p].life.saturating_add(gain);
        let player = self.pname(p);
        self.emit(Event::GainedLife { player, amount }, clause);
    }

    /// Jetsam: `caster` may cast one spell from one of `from`'s graveyards without paying its mana
    /// cost, as part of the resolution (seed 003 ruling R003-09: now or never; timing ignored).
    /// Returns whose graveyard the spell came from, or `None` when none was cast.
    fn cast_from_graveyard(
        &mut self,
        caster: PlayerId,
        from: &[PlayerId],
        filter: &crate::cards::instructions::Filter,
        exile_instead: bool,
    ) -> Result<Option<PlayerId>, SimError> {
        use crate::rules::casting::{castable_faces, is_castable, spell_matches};
        let mut options = Vec::new();
        for &o in from.iter().flat_map(|&p| self.game.zone(ZoneRef::Graveyard(p))) {
            let def = &self.game.obj(o).def;
            for face in castable_faces(def) {
                if is_castable(def, face)
                    && spell_matches(def, face, filter)
                    && self.additional_cost_payable(caster, o, face)
                {
                    options.push((o, face));
                }
            }
        }
        if options.is_empty() {
            return Ok(None);
        }
        let decision = Decision::CastFree { player: caster, from: from.to_vec(), options: options.clone() };
        let (card, face) = match self.decide(&decision)? {
            Choice::Cast(None) => return Ok(None),
            Choice::Cast(Some(c)) if options.contains(&c) => c,
            other => {
                let listed = options.iter().map(|&(o, _)| self.id(o)).collect();
                return Err(self.illegal(
                    Violation::new("601.2", format!("{other:?} is not a spell that may be cast this way")),
                    listed,
                ));
            }
        };
        let def = self.game.obj(card).def.clone();
        let cast_face = face.and_then(|f| def.split.get(f)).unwrap_or(&def);
        if cast_face.spell.as_ref().is_some_and(|s| !s.targets.is_empty()) {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!("choosing targets for {} cast during a resolution is not modelled", cast_face.name),
            });
        }
        // 601.2f: a required additional cost must be paid; an optional one may be.
        let discard = match cast_face.spell.as_ref().and_then(|s| s.additional_cost.clone()) {
            None => None,
            Some(cost) if cost.reveal.is_some() => {
                return Err(SimError::Unsupported {
                    step: self.step,
                    message: format!("a reveal cost of {} cast during a resolution is not modelled", cast_face.name),
                });
            }
            Some(cost) if cost.discard.is_none() => None,
            Some(cost) => {
                let filter = cost.discard.clone().unwrap_or_default();
                let payable: Vec<ObjId> = self
                    .game
                    .zone(ZoneRef::Hand(caster))
                    .iter()
                    .copied()
                    .filter(|&d| d != card && crate::rules::discard::check_discard_cost(&self.game, d, &filter).is_ok())
                    .collect();
                let decision =
                    Decision::Discard { player: caster, options: payable.clone(), count: 1, optional: cost.optional };
                match self.decide(&decision)? {
                    Choice::Cards(c) if c.is_empty() && cost.optional => None,
                    Choice::Cards(c) if c.len() == 1 && payable.contains(&c[0]) => Some(c[0]),
                    other => {
                        let listed = payable.iter().map(|&o| self.id(o)).collect();
                        return Err(self.illegal(
                            Violation::new("601.2f", format!("{other:?} doesn't pay the additional cost")),
                            listed,
                        ));
                    }
                }
            }
        };
        let whose = self.game.obj(card).owner;
        self.cast(caster, card, face, &[], crate::rules::casting::CastMode::WithoutPaying, None, discard, None)?;
        if exile_instead {
            self.game.objs[card].flags.graveyard_to_exile = true;
        }
        Ok(Some(whose))
    }

    /// 707.12 / 709.3c: copy a card and let `caster` cast the copy without paying its mana cost,
    /// choosing a half if it is a split card; a copy that isn't cast ceases to exist (704.5e).
    fn cast_copy(&mut self, caster: PlayerId, of: ObjId) -> Result<(), SimError> {
        use crate::rules::casting::{castable_faces, is_castable};
        let copy = self.create_copy(of, caster);
        let def = self.game.obj(copy).def.clone();
        let options: Vec<(ObjId, Option<usize>)> =
            castable_faces(&def).into_iter().filter(|&f| is_castable(&def, f)).map(|f| (copy, f)).collect();
        let from = self.game.obj(copy).zone.player().unwrap_or(caster);
        let chosen = if options.is_empty() {
            None
        } else {
            match self.decide(&Decision::CastFree { player: caster, from: vec![from], options: options.clone() })? {
                Choice::Cast(None) => None,
                Choice::Cast(Some(c)) if options.contains(&c) => Some(c),
                other => {
                    return Err(self.illegal(
                        Violation::new("709.3c", format!("{other:?} is not a half of the copy that may be cast")),
                        Vec::new(),
                    ));
                }
            }
        };
        match chosen {
            Some((card, face)) => {
                let f = crate::rules::casting::face_def(&def, face);
                if f.spell.as_ref().is_some_and(|s| !s.targets.is_empty()) {
                    return Err(SimError::Unsupported {
                        step: self.step,
                        message: format!(
                            "choosing targets for a copy of {} cast during a resolution is not modelled",
                            f.name
                        ),
                    });
                }
                self.cast(caster, card, face, &[], crate::rules::casting::CastMode::WithoutPaying, None, None, None)
            }
            None => {
                let zone = self.game.obj(copy).zone;
                self.game.zone_mut(zone).retain(|&o| o != copy);
                Ok(())
            }
        }
    }

    /// Whether a required additional cost of the half could be paid by `caster` now.
    fn additional_cost_payable(&self, caster: PlayerId, card: ObjId, face: Option<usize>) -> bool {
        let def = &self.game.obj(card).def;
        let f = face.and_then(|i| def.split.get(i)).unwrap_or(def);
        match f.spell.as_ref().and_then(|s| s.additional_cost.as_ref()) {
            Some(cost) if !cost.optional => {
                match &cost.discard {
                    Some(filter) => self.game.zone(ZoneRef::Hand(caster)).iter().any(|&d| {
                        d != card && crate::rules::discard::check_discard_cost(&self.game, d, filter).is_ok()
                    }),
                    None => true,
                }
            }
            _ => true,
        }
    }

    fn yes_no(&mut self, decision: &Decision) -> Result<bool, SimError> {
        match self.decide(decision)? {
            Choice::Bool(b) => Ok(b),
            other => Err(self.illegal(
                Violation::new("101.4", format!("{other:?} is not a yes/no answer")),
                vec!["yes".into(), "no".into()],
            )),
        }
    }

    fn one_of(&mut self, decision: &Decision, options: &[ObjId], what: &str) -> Result<ObjId, SimError> {
        match self.decide(decision)? {
            Choice::Cards(c) if c.len() == 1 && options.contains(&c[0]) => Ok(c[0]),
            other => {
                let shown = match &other {
                    Choice::Cards(c) => c.iter().map(|&o| self.id(o)).collect::<Vec<_>>().join(", "),
                    _ => format!("{other:?}"),
                };
                let listed = options.iter().map(|&o| self.id(o)).collect();
                Err(self.illegal(Violation::new("608.2d", format!("`{shown}` is not {what}")), listed))
            }
        }
    }

    /// Shuffles and records it (701.24a), then triggers "whenever … shuffles" abilities (701.24e).
    pub(crate) fn shuffle(&mut self, player: PlayerId) {
        self.shuffle_for(player, "701.24a");
    }

    /// [`Sim::shuffle`], logged with the clause that decides this shuffle happens (701.24c–d:
    /// even with nothing to shuffle in; 701.23f: the "then shuffle" of a search limited to the
    /// top cards still applies, to the whole library).
    pub(crate) fn shuffle_for(&mut self, player: PlayerId, clause: &'static str) {
        shuffle_library(&mut self.game, player);
        if let Some(counts) = self.placed_at_once.as_mut() {
            counts[player] = [0, 0];
        }
        let library = self.pname(player);
        self.emit(Event::Shuffled { library }, clause);
        self.trigger(Happening::ShuffledLibrary { owner: player }, None);
        // 401.5: the top card after the shuffle is a new one, revealed at once.
        self.settle_reveals();
    }

    /// One search (701.23), possibly of several merged instructions (701.23h), by one or more
    /// searchers at once (701.23i).
    fn search(&mut self, ctx: &mut Ctx, specs: &[SearchSpec]) -> Result<(), SimError> {
        let Some(head) = specs.first() else {
            return Ok(());
        };
        let searchers = self.players(ctx, head.searcher)?;
        // 101.4 / 701.23g: each player offered the choice decides, in APNAP order, whether to search.
        let mut active = Vec::new();
        for p in searchers {
            if !head.optional || self.yes_no(&Decision::May { player: p, about: MayAbout::Search, card: None })? {
                active.push(p);
            } else {
                // A declined search prevents the search and what follows it (the shuffle).
                self.rule_decision("701.23g", Vec::new());
            }
        }
        let same_name: Vec<Option<Option<Vec<String>>>> = specs
            .iter()
            .map(|s| s.filter.as_ref().and_then(|f| f.same_name_as).map(|r| self.referent_names(ctx, r)))
            .collect();
        // 701.23i: everyone looks at the same time — searchers limited to the top of the same
        // library see the same top cards — then they decide in APNAP order, each knowing what
        // the earlier ones found (101.4b), so a card is found once.
        let mut looks = Vec::new();
        let mut windows = BTreeMap::new();
        for &searcher in &active {
            let whose = match head.whose {
                Some(r) => self.player(ctx, r)?,
                None => searcher,
            };
            let (looked_at, cap) = self.look(searcher, whose, &head.zones, &mut windows)?;
            self.refuse_unmodelled_in_searched_library(searcher, &looked_at)?;
            looks.push((searcher, whose, looked_at, cap));
        }
        let mut results = Vec::new();
        let mut taken: BTreeSet<ObjId> = BTreeSet::new();
        for (searcher, whose, looked_at, cap) in looks {
            let looked_at: Vec<ObjId> = looked_at.into_iter().filter(|o| !taken.contains(o)).collect();
            // Mutant `sequential-searches`: a later searcher looks after earlier finds have left.
            let looked_at = match cap {
                Some(n) if self.bug(Mutant::SequentialSearches) && head.zones == [SearchZone::Library] => {
                    mutants::slid_window(&self.game, whose, n, &taken)
                }
                _ => looked_at,
            };
            let mut parts: Vec<PartPlan> = specs
                .iter()
                .zip(&same_name)
                .map(|(s, n)| {
                    let mut plan = plan_part(&self.game, s, &looked_at, n.as_ref().map(|o| o.as_deref()));
                    // Mutants `public-copies-optional`, `quantity-search-finds-fewer`.
                    mutants::adjust_plan(self.mutant, &mut plan);
                    plan
                })
                .collect();
            let joint_min = joint_minimum(&mut parts);
            let decision = Decision::Find {
                searcher,
                parts: parts.clone(),
                looked_at: looked_at.clone(),
                cap,
                joint_min,
                to: specs.iter().map(|s| s.to).collect(),
            };
            let found = self.found_parts(&decision, &parts, &looked_at, cap)?;
            let total: usize = found.iter().map(Vec::len).sum();
            if total < joint_min {
                return Err(self.illegal(
                    Violation::new(
                        "701.23d",
                        format!("the merged search found {total} card(s) but could find {joint_min} (701.23h)"),
                    ),
                    Vec::new(),
                ));
            }
            taken.extend(found.iter().flatten().copied());
            results.push((searcher, whose, looked_at, cap, found));
        }
        // The searches happen; each is one event, and "whenever … searches" abilities trigger even
        // when the search was limited to part of the library (701.23f).
        let names = self.names();
        for (searcher, whose, looked_at, cap, found) in &results {
            // Mutant `empty-library-not-searched`: an empty library "can't be searched".
            if self.bug(Mutant::EmptyLibraryNotSearched)
                && head.zones == [SearchZone::Library]
                && self.game.zone(ZoneRef::Library(*whose)).is_empty()
            {
                continue;
            }
            let zones = head.zones.iter().map(|z| search_zone(*z, *searcher, *whose).display(&names)).collect();
            let found_ids = found.iter().flatten().map(|&o| self.id(o)).collect();
            let player = self.pname(*searcher);
            // Mutant `mindcensor-limits-controller`: a limit in play limits someone, so 701.23f.
            let clause = if self.bug(Mutant::MindcensorLimitsController)
                && head.zones.contains(&SearchZone::Library)
                && !library_caps_in_play(&self.game).is_empty()
            {
                "701.23f"
            } else {
                crate::rules::search::search_clause(&self.game, specs, *cap, *whose)
            };
            self.emit(Event::Searched { player, zones, library_top: *cap, found: found_ids }, clause);
            // 701.23a: the searcher looks at every card of the zones searched — only the top
            // cards under a 701.23f limit — so they know each card of a hand or library they looked
            // at for as long as it stays that object: until it moves (400.7) or the library is
            // shuffled (701.24a, 701.20d).
            for &o in looked_at {
                if matches!(self.game.obj(o).zone, ZoneRef::Hand(_) | ZoneRef::Library(_)) {
                    crate::rules::reveal::look_at(&mut self.game, o, *searcher);
                }
            }
            // Mutant `merged-search-triggers-twice`: one trigger per merged instruction.
            let times = if self.bug(Mutant::MergedSearchTriggersTwice) { specs.len() } else { 1 };
            for _ in 0..times {
                if head.zones.contains(&SearchZone::Library) {
                    self.trigger(Happening::SearchedLibrary { searcher: *searcher, owner: *whose }, None);
                }
            }
        }
        for (searcher, whose, looked_at, cap, found) in &results {
            // Mutant `found-card-revealed`: found cards are revealed whether or not the effect says so.
            let reveal_all = self.bug(Mutant::FoundCardRevealed);
            let reveals = |s: &SearchSpec| s.reveal || reveal_all;
            let revealed: Vec<ObjId> =
                specs.iter().zip(found).filter(|(s, _)| reveals(s)).flat_map(|(_, f)| f.iter().copied()).collect();
            // 701.23e: found cards are revealed only when the effect says so.
            if !revealed.is_empty() {
                let everyone = self.game.everyone();
                for &o in &revealed {
                    self.game.objs[o].known |= everyone;
                }
                let cards = revealed.iter().map(|&o| self.id(o)).collect();
                let player = self.pname(*searcher);
                self.emit(Event::Revealed { player, cards }, "701.23e");
            }
            let shuffles = specs.iter().any(|s| s.shuffle) && !self.bug(Mutant::NoShuffleAfterSearch);
            // Seed 003 (R003-01): a replacement that mills while a card enters from a library
            // doesn't mill the cards entering from it, though they are still there.
            let entering: Vec<ObjId> = specs
                .iter()
                .zip(found)
                .filter(|(s, _)| s.to == Destination::Battlefield)
                .flat_map(|(_, f)| f.iter().copied())
                .filter(|&o| can_enter_battlefield(&self.game.obj(o).chars))
                .collect();
            // The found cards move at once; a new top card is revealed after that (401.5).
            self.hold_reveals();
            let entered = self.apply_as_enters(&entering, *searcher);
            if entered.is_err() {
                self.release_reveals();
            }
            entered?;
            let mut to_top = Vec::new();
            // The found cards are put where they go at the same time (a graveyard's share is
            // ordered by its owner).
            let outer = self.begin_batch();
            for (spec, cards) in specs.iter().zip(found) {
                let seen = bit(*searcher) | if reveals(spec) { self.game.everyone() } else { 0 };
                for &o in cards {
                    let owner = self.game.obj(o).owner;
                    match spec.to {
                        Destination::Hand => self.move_card(o, ZoneRef::Hand(owner), Position::Top, seen, "701.23a"),
                        Destination::Graveyard => {
                            self.move_card(o, ZoneRef::Graveyard(owner), Position::Top, seen, "701.23a")
                        }
                        Destination::Exile => self.move_card(o, ZoneRef::Exile, Position::Top, seen, "701.23a"),
                        // 400.4a: an instant or sorcery card can't enter the battlefield; it stays.
                        Destination::Battlefield if !can_enter_battlefield(&self.game.obj(o).chars) => {}
                        Destination::Battlefield => {
                            self.move_card(o, ZoneRef::Battlefield, Position::Top, seen, "701.23a");
                            self.game.objs[o].controller = *searcher;
                        }
                        Destination::LibraryTop => to_top.push((o, seen)),
                        Destination::ExileFaceDown => {
                            // 406.3: face down, so no player may examine it except the one the
                            // effect allows.
                            self.move_card(o, ZoneRef::Exile, Position::Top, 0, "406.3");
                            let visible = self.bug(Mutant::FaceDownExileVisible);
                            let obj = &mut self.game.objs[o];
                            obj.face_down = true;
                            obj.chars = std::sync::Arc::new(crate::rules::characteristics::face_down_chars(false));
                            obj.known = if visible { everyone_of(obj.known) } else { bit(*searcher) };
                            obj.flags.playable_by = Some(*searcher);
                        }
                    }
                }
            }
            self.end_batch(outer);
            self.release_reveals();
            // 701.24b: shuffling and putting cards in their place in the library is one action; the
            // top card is revealed once they are there (401.5).
            self.hold_reveals();
            if shuffles {
                // Mutant `mindcensor-shuffles-top-only`: cards below the window keep their places.
                let untouched = if cap.is_some() && self.bug(Mutant::MindcensorShufflesTopOnly) {
                    mutants::below_window(&self.game, *whose, looked_at)
                } else {
                    Vec::new()
                };
                // 701.24b: cards bound for a position in the library are not part of the shuffle
                // (mutant `found-card-shuffled-in`: they are, and nobody knows them afterwards).
                let shuffled_in = self.bug(Mutant::FoundCardShuffledIn);
                // 701.23f: a capped search's "then shuffle" still refers to the whole library.
                let clause = if cap.is_some() { "701.23f" } else { "701.24a" };
                self.shuffle_except(
                    *whose,
                    &to_top.iter().map(|t| t.0).filter(|_| !shuffled_in).collect::<Vec<_>>(),
                    clause,
                );
                if shuffled_in {
                    to_top.iter_mut().for_each(|t| t.1 = 0);
                }
                for (o, known) in untouched {
                    self.game.objs[o].known = known;
                }
            }
            let mut group_sizes = vec![0usize; self.game.players.len()];
            for &(o, _) in &to_top {
                group_sizes[self.game.obj(o).owner] += 1;
            }
            // 401.4: cards put on top at the same time are in an order their owner chooses.
            self.at_once(|sim| {
                for (o, seen) in to_top {
                    // 401.4: when two or more go on top at once their owner arranges them, seeing them.
                    let owner = sim.game.obj(o).owner;
                    let seen = if group_sizes[owner] > 1 { seen | bit(owner) } else { seen };
                    sim.move_card(o, ZoneRef::Library(owner), Position::Top, seen, "701.24b");
                }
            });
            self.release_reveals();
        }
        Ok(())
    }

    fn shuffle_except(&mut self, player: PlayerId, kept_out: &[ObjId], clause: &'static str) {
        let zone = ZoneRef::Library(player);
        let kept_set: BTreeSet<ObjId> = kept_out.iter().copied().collect();
        let kept: Vec<ObjId> = self.game.zone(zone).iter().copied().filter(|o| kept_set.contains(o)).collect();
        self.game.zone_mut(zone).retain(|o| !kept_set.contains(o));
        self.shuffle_for(player, clause);
        // The kept-out cards sit on top of the shuffled rest, in no fixed position, until they are
        // moved to their place right after.
        let list = self.game.zone_mut(zone);
        for o in kept.into_iter().rev() {
            list.insert(0, o);
        }
    }

    /// The cards a searcher looks at in each zone, and the 701.23f limit if one applies.
    fn look(
        &mut self,
        searcher: PlayerId,
        whose: PlayerId,
        zones: &[SearchZone],
        windows: &mut BTreeMap<(PlayerId, u32), Vec<ObjId>>,
    ) -> Result<(Vec<ObjId>, Option<u32>), SimError> {
        let mut looked = Vec::new();
        let mut cap = None;
        for &z in zones {
            let zone = search_zone(z, searcher, whose);
            match z {
                SearchZone::Library => {
                    // Mutant `mindcensor-ignored-multi-zone`: no limit when other zones are searched too.
                    let caps = if zones.len() == 1 || !self.bug(Mutant::MindcensorIgnoredMultiZone) {
                        // Mutant `mindcensor-limits-controller`: every limit applies to everyone.
                        if self.bug(Mutant::MindcensorLimitsController) {
                            library_caps_in_play(&self.game)
                        } else {
                            library_caps(&self.game, searcher)
                        }
                    } else {
                        Vec::new()
                    };
                    cap = self.library_limit(searcher, caps)?;
                    match cap {
                        None => looked.extend_from_slice(self.game.zone(zone)),
                        Some(n) => {
                            let window = match windows.get(&(whose, n)) {
                                Some(w) => w.clone(),
                                None => {
                                    let w = self.library_window(whose, n as usize)?;
                                    windows.insert((whose, n), w.clone());
                                    w
                                }
                            };
                            // Mutant `mindcensor-bottom-n`: the bottom N cards instead.
                            let bottom = self.bug(Mutant::MindcensorBottomN);
                            looked.extend(if bottom { mutants::bottom_window(&self.game, whose, n) } else { window });
                        }
                    }
                }
                // 701.23j: outside the game, only cards the searcher owns.
                SearchZone::Outside => {
                    looked.extend(self.game.zone(zone).iter().copied().filter(|&o| self.game.obj(o).owner == searcher));
                    // Mutant `outside-finds-others-cards`: every player's cards outside the game.
                    if self.bug(Mutant::OutsideFindsOthersCards) {
                        let others = (0..self.game.players.len()).filter(|&p| p != searcher);
                        looked.extend(others.flat_map(|p| self.game.zone(ZoneRef::Outside(p)).to_vec()));
                    }
                }
                _ => looked.extend_from_slice(self.game.zone(zone)),
            }
        }
        Ok((looked, cap))
    }

    /// The 701.23f limit of a library search: none, the one that applies, or — when several
    /// apply — the one the searcher applies last (616.1).
    fn library_limit(&mut self, searcher: PlayerId, caps: Vec<u32>) -> Result<Option<u32>, SimError> {
        if caps.len() < 2 {
            return Ok(caps.first().copied());
        }
        let chosen = match self.decide(&Decision::SearchLimit { player: searcher, options: caps.clone() })? {
            Choice::Limit(n) => n,
            other => {
                return Err(self.illegal(
                    Violation::new("616.1", format!("{other:?} is not a search limit")),
                    caps.iter().map(|n| format!("top {n}")).collect(),
                ));
            }
        };
        check_library_cap(&caps, chosen)
            .map_err(|v| self.illegal(v, caps.iter().map(|n| format!("top {n}")).collect()))?;
        Ok(Some(chosen))
    }

    /// The top `n` cards of a library (701.23f); where a shuffle left their order random,
    /// which cards they are is chance.
    fn library_window(&mut self, player: PlayerId, n: usize) -> Result<Vec<ObjId>, SimError> {
        self.top_cards(player, n, "search_window")
    }

    fn found_parts(
        &mut self,
        decision: &Decision,
        parts: &[PartPlan],
        looked_at: &[ObjId],
        cap: Option<u32>,
    ) -> Result<Vec<Vec<ObjId>>, SimError> {
        let answer = self.decide(decision)?;
        let found = match answer {
            Choice::Parts(p) if p.len() == parts.len() => p,
            Choice::Cards(c) if parts.len() == 1 => vec![c],
            other => {
                return Err(self.illegal(
                    Violation::new(
                        "701.23a",
                        format!(
                            "{other:?} is not a set of found cards for each of {} search instruction(s)",
                            parts.len()
                        ),
                    ),
                    Vec::new(),
                ));
            }
        };
        // Mutant `hidden-copies-forced`: an "all" search finds every match, whatever was chosen.
        let found = if self.bug(Mutant::HiddenCopiesForced) {
            parts.iter().zip(found).map(|(p, f)| if p.all { p.candidates.clone() } else { f }).collect()
        } else {
            found
        };
        let mut all = BTreeSet::new();
        for (plan, cards) in parts.iter().zip(&found) {
            if let Err(v) = check_found(&self.game, plan, cards, looked_at, cap) {
                let options = describe_plan(&self.game, plan);
                return Err(self.illegal(v, options));
            }
            for &c in cards {
                if !all.insert(c) {
                    let id = self.id(c);
                    return Err(self.illegal(
                        Violation::new("701.23h", format!("{id} was found for two instructions of one search")),
                        Vec::new(),
                    ));
                }
            }
        }
        Ok(found)
    }
}

/// The zone a search of `z` covers: `whose` zones, except outside the game, which is always the
/// searcher's own cards (701.23j).
pub(super) fn search_zone(z: SearchZone, searcher: PlayerId, whose: PlayerId) -> ZoneRef {
    match z {
        SearchZone::Graveyard => ZoneRef::Graveyard(whose),
        SearchZone::Hand => ZoneRef::Hand(whose),
        SearchZone::Library => ZoneRef::Library(whose),
        SearchZone::Outside => ZoneRef::Outside(searcher),
    }
}

/// A plan in words, for error messages that list what would have been legal.
pub fn describe_plan(game: &Game, plan: &PartPlan) -> Vec<String> {
    let ids: Vec<&str> = plan.candidates.iter().map(|&o| game.obj(o).id.as_str()).collect();
    let must: Vec<&str> =
        if plan.all { plan.public.iter().map(|&o| game.obj(o).id.as_str()).collect() } else { Vec::new() };
    let mut out = vec![format!("find between {} and {} of: [{}]", plan.min, plan.max, ids.join(", "))];
    if !must.is_empty() {
        out.push(format!("including every one of: [{}]", must.join(", ")));
    }
    if plan.different_names {
        out.push("with different names".into());
    }
    out
}

/// [`Mutant::FaceDownExileVisible`]: everyone (the exile zone's default knowledge is every player).
fn everyone_of(default_known: u8) -> u8 {
    default_known
}

/// The zone a found card ends in when an instruction puts it at `to` (its owner's hand, graveyard
/// or library; exile; the battlefield), or `None` when it stays where it is (an instant or
/// sorcery card can't enter the battlefield, 400.4a).
pub(crate) fn destination_zone(game: &Game, card: ObjId, to: Destination) -> Option<ZoneRef> {
    let owner = game.obj(card).owner;
    match to {
        Destination::Hand => Some(ZoneRef::Hand(owner)),
        Destination::Graveyard => Some(ZoneRef::Graveyard(owner)),
        Destination::Exile | Destination::ExileFaceDown => Some(ZoneRef::Exile),
        Destination::LibraryTop => Some(ZoneRef::Library(owner)),
        Destination::Battlefield => can_enter_battlefield(&game.obj(card).chars).then_some(ZoneRef::Battlefield),
    }
}
