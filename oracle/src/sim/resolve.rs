//! Carrying out the instructions of a resolving spell or ability. Each instruction defers its
//! rule decisions to the `rules` module of its CR section.

use std::collections::BTreeSet;

use super::{Choice, Decision, MayAbout, Sim, SimError, TargetChoice};
use crate::cards::instructions::{CardRef, Effect, PlayerRef};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::mutants::Mutant;
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::apnap::{apnap_order, bit, opponents};
use crate::rules::characteristics::matches;
use crate::rules::search::{ends_merge_window, inside_one_search, mergeable, runs_after_merged_search};
use crate::rules::shuffle::shuffle_library;
use crate::rules::triggers::Happening;
use crate::rules::zones::Position;

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
    pub(super) controller: PlayerId,
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
    /// How many permanents this effect's `sacrifice_any_number` sacrificed ("that many").
    sacrificed: usize,
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
            sacrificed: 0,
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

    /// Last known information about the first target (608.2h): a spell or permanent's controller
    /// is the one it has now (on the stack, the player who cast it, whoever owns the card); if it
    /// has left the battlefield, the one it had there.
    /// `spell_face`: the face a spell on the stack was cast with (`Sim::spell_face`), for a target
    /// that is such a spell.
    pub(super) fn capture_target(&mut self, game: &Game, spell_face: impl Fn(ObjId) -> Option<usize>) {
        if let Some(TargetChoice::Obj(obj, no)) = self.targets.first() {
            let o = game.obj(*obj);
            let controller =
                if matches!(o.zone, ZoneRef::Battlefield | ZoneRef::Stack) { o.controller } else { o.last_controller };
            // 608.2h: the target as it is if it is still that object; if it has moved (a new
            // object, 400.7), as it last existed — a face-down permanent exiled in response has
            // no name (708.2a), whatever the card now face up in exile is called. A spell on the
            // stack has the characteristics of the face it was cast with: an Adventure only its
            // own (715.3b: Counterbore countering Petty Theft looks for cards named Petty Theft),
            // a split card's half only that half's (709.3).
            let names = match spell_face(*obj) {
                Some(face) if o.zone == ZoneRef::Stack && o.object_no == *no => {
                    crate::rules::characteristics::stack_chars(&o.def, Some(face)).names
                }
                _ => crate::rules::characteristics::last_known(o, *no).names.clone(),
            };
            self.target_lki = Some(Lki { names, controller, owner: o.owner });
        }
    }
}

impl Sim<'_> {
    /// The first of the players `r` refers to (APNAP order); an error when there is none (each
    /// opponent, in a game of one player).
    pub(super) fn player(&self, ctx: &Ctx, r: PlayerRef) -> Result<PlayerId, SimError> {
        self.players(ctx, r)?.first().copied().ok_or_else(|| SimError::Unsupported {
            step: self.step,
            message: "the instruction refers to a player this game doesn't have".into(),
        })
    }

    pub(super) fn players(&self, ctx: &Ctx, r: PlayerRef) -> Result<Vec<PlayerId>, SimError> {
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
            // Mutant `target-controller-is-you`: "its controller" is the spell's or ability's.
            PlayerRef::ControllerOfTarget if self.bug(Mutant::TargetControllerIsYou) => Ok(vec![ctx.controller]),
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
    pub(super) fn referent_names(&self, ctx: &Ctx, r: CardRef) -> Option<Vec<String>> {
        let names = match r {
            CardRef::This => Some(self.game.obj(ctx.source).chars.names.clone()),
            CardRef::Chosen => ctx.chosen_names.clone(),
            CardRef::Target => ctx.target_lki.as_ref().map(|l| l.names.clone()),
        };
        names.filter(|n| !n.is_empty())
    }

    /// The mana value of the object a filter's `same_mana_value_as` refers to, as it last existed
    /// (608.2h): a transmuted card is in the graveyard by now, with the mana value it had in hand.
    pub(super) fn referent_mana_value(&self, ctx: &Ctx, r: CardRef) -> Option<u32> {
        match r {
            CardRef::This => Some(self.game.obj(ctx.source).chars.mana_value),
            CardRef::Chosen => ctx.chosen.map(|o| self.game.obj(o).chars.mana_value),
            CardRef::Target => match ctx.targets.first() {
                Some(TargetChoice::Obj(o, no)) => {
                    Some(crate::rules::characteristics::last_known(self.game.obj(*o), *no).mana_value)
                }
                _ => None,
            },
        }
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
                    let decision =
                        Decision::ChooseCard { player: chooser, options: options.clone(), count: 1, any_number: false };
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
            Effect::LoseHalfLifeRoundedUp(player) => {
                for p in self.players(ctx, *player)? {
                    let life = self.game.players[p].life;
                    // Mutant `half-life-rounded-down`: an odd total is rounded down.
                    let amount = if self.bug(Mutant::HalfLifeRoundedDown) {
                        u32::try_from(life.max(0) / 2).unwrap_or(0)
                    } else {
                        crate::rules::life::half_rounded_up(life)
                    };
                    self.lose_life(p, amount, "107.1a");
                }
            }
            Effect::LoseLife { player, amount } => {
                for p in self.players(ctx, *player)? {
                    self.lose_life(p, *amount, "119.3");
                }
            }
            Effect::Sacrifice { player, filter } => {
                let mut chosen = Vec::new();
                for p in self.players(ctx, *player)? {
                    let options = self.sacrificeable(p, filter);
                    if options.is_empty() {
                        continue;
                    }
                    let decision = Decision::Sacrifice { player: p, options: options.clone(), any_number: false };
                    let card = self.one_of(&decision, &options, "a permanent they can sacrifice")?;
                    chosen.push((p, card));
                }
                // 101.4: every player chooses (in APNAP order) before anything is sacrificed, then
                // the chosen permanents are sacrificed at the same time, so one player's
                // sacrifice (returning a card exiled "until this leaves", 610.3c) can't change
                // what another may choose.
                self.sacrifice_at_once(&chosen);
            }
            Effect::SacrificeAnyNumber { player, filter } => {
                let p = self.player(ctx, *player)?;
                let options = self.sacrificeable(p, filter);
                // With nothing to sacrifice, none is the only answer: no decision.
                let chosen = if options.is_empty() {
                    Vec::new()
                } else {
                    let decision = Decision::Sacrifice { player: p, options: options.clone(), any_number: true };
                    match self.decide(&decision)? {
                        Choice::Cards(c) => {
                            if let Err(v) = crate::rules::sacrifice::check_any_number(&c, &options) {
                                let listed = options.iter().map(|&o| self.id(o)).collect();
                                return Err(self.illegal(v, listed));
                            }
                            c
                        }
                        other => {
                            let listed = options.iter().map(|&o| self.id(o)).collect();
                            let v = Violation::new(
                                "701.21a",
                                format!("{} is not a set of permanents", super::describe_choice(&self.game, &other)),
                            );
                            return Err(self.illegal(v, listed));
                        }
                    }
                };
                // Mutant `that-many-counts-every-option`: "that many" counts every permanent the
                // player could have sacrificed, not the ones they did.
                ctx.sacrificed = if self.bug(Mutant::ThatManyCountsEveryOption) { options.len() } else { chosen.len() };
                // 701.21a: chosen first, then sacrificed at the same time.
                let pairs: Vec<(PlayerId, ObjId)> = chosen.into_iter().map(|c| (p, c)).collect();
                self.sacrifice_at_once(&pairs);
            }
            Effect::SearchUpToThatMany(spec) => {
                let spec = crate::cards::instructions::SearchSpec {
                    count: crate::rules::sacrifice::up_to_that_many(ctx.sacrificed),
                    ..spec.clone()
                };
                self.search(ctx, std::slice::from_ref(&spec))?;
            }
            Effect::Mill { player, count, optional } => {
                // 608.2d: "you may have [a player] mill" is the controller's choice as it resolves.
                let decision = Decision::May { player: ctx.controller, about: MayAbout::Mill, card: Some(ctx.source) };
                if !*optional || self.yes_no(&decision)? {
                    for p in self.players(ctx, *player)? {
                        self.mill(p, *count)?;
                    }
                }
            }
            Effect::GravestormCopies => self.gravestorm_copies(ctx.source, ctx.source_no, ctx.controller)?,
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
            Effect::RevealTopOpponentSeparatesPiles { count } => {
                let p = ctx.controller;
                let cards = self.top_cards(p, *count as usize, "reveal")?;
                self.reveal_cards(p, &cards, "701.20a");
                if cards.is_empty() {
                    return Ok(());
                }
                let separator = match opponents(p, self.game.players.len()).as_slice() {
                    // Mutant `piles-separated-by-caster`: the caster makes the piles.
                    [_] if self.bug(Mutant::PilesSeparatedByCaster) => p,
                    [only] => *only,
                    [] => return Ok(()),
                    _ => {
                        return Err(SimError::Unsupported {
                            step: self.step,
                            message: "choosing which opponent separates the piles is not modelled".into(),
                        });
                    }
                };
                // 700.3: the opponent makes one pile; the other cards are the other pile.
                let decision =
                    Decision::ChooseCard { player: separator, options: cards.clone(), count: 0, any_number: true };
                let pile = match self.decide(&decision)? {
                    Choice::Cards(c) => c,
                    other => {
                        let listed = cards.iter().map(|&o| self.id(o)).collect();
                        let v = Violation::new(
                            "700.3",
                            format!(
                                "{} is not a pile of the revealed cards",
                                super::describe_choice(&self.game, &other)
                            ),
                        );
                        return Err(self.illegal(v, listed));
                    }
                };
                let (first, second) = match crate::rules::piles::separate(&cards, &pile) {
                    Ok(piles) => piles,
                    Err(v) => {
                        let listed = cards.iter().map(|&o| self.id(o)).collect();
                        return Err(self.illegal(v, listed));
                    }
                };
                for &c in &first {
                    let (player, card) = (self.pname(separator), self.id(c));
                    self.emit(Event::Chose { player, card }, "700.3");
                }
                // The caster's choice names a card of a pile that isn't empty.
                let named_is_first = !first.is_empty();
                let named = if named_is_first { first.first() } else { second.first() };
                let decision = Decision::May { player: p, about: MayAbout::PileToHand, card: named.copied() };
                let (to_hand, to_graveyard) =
                    if self.yes_no(&decision)? == named_is_first { (first, second) } else { (second, first) };
                let everyone = self.game.everyone();
                self.at_once(|sim| {
                    for &c in &to_hand {
                        sim.move_card(c, ZoneRef::Hand(p), Position::Top, everyone, "700.3");
                    }
                    for &c in &to_graveyard {
                        sim.put_into_graveyard(c, false, "700.3");
                    }
                });
            }
            Effect::PutCardsFromHandOnTop { player, count } => {
                for p in self.players(ctx, *player)? {
                    let hand = self.game.zone(ZoneRef::Hand(p)).to_vec();
                    let n = crate::rules::zones::cards_to_put_back(hand.len(), *count);
                    if n == 0 {
                        continue;
                    }
                    let decision =
                        Decision::ChooseCard { player: p, options: hand.clone(), count: n, any_number: false };
                    let picked = match self.decide(&decision)? {
                        Choice::Cards(c) => c,
                        other => {
                            let listed = hand.iter().map(|&o| self.id(o)).collect();
                            let v = Violation::new(
                                "609.3",
                                format!(
                                    "{} is not a set of cards of the hand",
                                    super::describe_choice(&self.game, &other)
                                ),
                            );
                            return Err(self.illegal(v, listed));
                        }
                    };
                    if let Err(v) = crate::rules::zones::check_put_back(&picked, &hand, n) {
                        let listed = hand.iter().map(|&o| self.id(o)).collect();
                        return Err(self.illegal(v, listed));
                    }
                    for &c in &picked {
                        let (player, card) = (self.pname(p), self.id(c));
                        self.emit(Event::Chose { player, card }, "608.2d");
                    }
                    // Mutant `put-back-on-bottom`: the cards go to the bottom of the library.
                    let at = if self.bug(Mutant::PutBackOnBottom) { Position::Bottom } else { Position::Top };
                    // 401.4: put there at the same time, in an order only their owner knows.
                    self.at_once(|sim| {
                        for &c in &picked {
                            sim.move_card(c, ZoneRef::Library(p), at, bit(p), "401.4");
                        }
                    });
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
                let cards = self.target_cards_still_in_a_graveyard(&ctx.targets, Some(player));
                self.hold_reveals();
                for c in cards {
                    self.move_card(c, ZoneRef::Library(player), Position::Bottom, 0, "701.24d");
                }
                // 701.24d: shuffled even when the set of cards is empty.
                self.shuffle_for(player, "701.24d");
                self.release_reveals();
            }
            Effect::ReturnTargetCardsToHand => {
                // 608.2b: a target that left its graveyard (a new object, 400.7) is illegal and
                // isn't returned; the others are, to their owners' hands.
                let cards = self.target_cards_still_in_a_graveyard(&ctx.targets, None);
                for c in cards {
                    let owner = self.game.obj(c).owner;
                    self.move_card(c, ZoneRef::Hand(owner), Position::Top, bit(owner), "608.2");
                }
            }
            Effect::Counter(r) => {
                if let Some(obj) = self.object(ctx, *r)
                    && self.game.obj(obj).zone == ZoneRef::Stack
                    && self.remove_spell(obj)
                {
                    if let Some(caster) = self.counter_replaced_by(ctx.controller) {
                        self.exile_instead_of_countering(caster, obj)?;
                    } else {
                        self.put_into_graveyard(obj, false, "701.6a");
                        // 400.7j: where the countered card went is a public zone (its owner's
                        // graveyard, or exile instead), so the rest of the effect can find it there.
                        let o = self.game.obj(obj);
                        if crate::rules::zones::is_public(o.zone) && self.game.zone(o.zone).contains(&obj) {
                            ctx.follow(obj, o.object_no);
                        }
                    }
                }
            }
            Effect::DealDamage { amount } => match ctx.targets.first().copied() {
                // 120.3a: damage dealt to a player makes them lose that much life.
                Some(TargetChoice::Player(p)) => self.lose_life(p, *amount, "120.3a"),
                Some(TargetChoice::Obj(..)) => {
                    if let Some(obj) = self.object(ctx, CardRef::Target)
                        && self.game.obj(obj).zone == ZoneRef::Battlefield
                    {
                        if !crate::rules::damage::damage_is_marked(&self.game.obj(obj).chars) {
                            return Err(SimError::Unsupported {
                                step: self.step,
                                message:
                                    "damage dealt to a planeswalker or a battle (counters removed) is not modelled"
                                        .into(),
                            });
                        }
                        // 120.3e: marked on the creature; 704.5g decides after the resolution.
                        let o = &mut self.game.objs[obj];
                        o.flags.damage = o.flags.damage.saturating_add(*amount);
                    }
                }
                None => {}
            },
            Effect::ExileTargetCards => {
                // 608.2b: a target that left its graveyard (a new object, 400.7) is illegal and
                // stays where it is; the others are exiled.
                let mut cards = self.target_cards_still_in_a_graveyard(&ctx.targets, None);
                // Mutant `only-first-target-card-exiled`: the other target cards stay.
                if self.bug(Mutant::OnlyFirstTargetCardExiled) {
                    cards.truncate(1);
                }
                for c in cards {
                    self.move_card(c, ZoneRef::Exile, Position::Top, 0, "701.13a");
                }
            }
            Effect::DestroyAll(filter) => {
                // 701.8a: every matching permanent is destroyed at the same time; 702.12b: an
                // indestructible one stays.
                let matching: Vec<ObjId> = self
                    .game
                    .zone(ZoneRef::Battlefield)
                    .iter()
                    .copied()
                    .filter(|&o| matches(&self.game.obj(o).chars, filter, None))
                    .collect();
                // Mutant `destroy-all-ignores-indestructible`: indestructible permanents are destroyed too.
                let ignores = self.bug(Mutant::DestroyAllIgnoresIndestructible);
                let (destroyed, kept): (Vec<ObjId>, Vec<ObjId>) =
                    matching.into_iter().partition(|&o| ignores || crate::rules::destroy::is_destroyed(&self.game, o));
                if !kept.is_empty() {
                    self.rule_decision("702.12b", kept);
                }
                if !destroyed.is_empty() {
                    self.put_into_graveyards_at_once(&destroyed, "701.8a");
                }
            }
            Effect::Destroy(r) => {
                // 701.8a: a destroyed permanent goes to its owner's graveyard (it dies, 700.4);
                // 702.12b: an indestructible one stays.
                if let Some(obj) = self.object(ctx, *r) {
                    if crate::rules::destroy::is_destroyed(&self.game, obj) {
                        self.put_into_graveyard_from_battlefield(obj, "701.8a");
                    } else if self.game.obj(obj).zone == ZoneRef::Battlefield {
                        self.rule_decision("702.12b", vec![obj]);
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
                    let n = self
                        .game
                        .zone(ZoneRef::Graveyard(p))
                        .iter()
                        .filter(|&&o| matches(&self.game.obj(o).chars, filter, None))
                        .map(|&o| {
                            if self.bug(Mutant::SplitCountedTwice) {
                                self.game.obj(o).def.face_slice().len()
                            } else {
                                1
                            }
                        })
                        .sum::<usize>();
                    // The amount is decided by 709.2 when a split card is among the counted cards.
                    let split = self.game.zone(ZoneRef::Graveyard(p)).iter().any(|&o| {
                        matches(&self.game.obj(o).chars, filter, None) && !self.game.obj(o).def.split.is_empty()
                    });
                    self.gain_life_for(p, n as u32, if split { "709.2" } else { "119.3" });
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
                                Violation::new(
                                    "701.9b",
                                    format!(
                                        "{} is not {n} different cards from the hand",
                                        super::describe_choice(&self.game, &other)
                                    ),
                                ),
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
            Effect::DiscardChosen => {
                // 701.9a: the chosen card is discarded from the hand it was chosen from.
                if let Some(card) = ctx.chosen
                    && let ZoneRef::Hand(owner) = self.game.obj(card).zone
                {
                    self.discard(owner, card, false);
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
                        return Err(self.illegal(
                            Violation::new(
                                "709.4a",
                                format!("{} is not a card name", super::describe_choice(&self.game, &other)),
                            ),
                            options,
                        ));
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
                    let owner = self.game.obj(o).owner;
                    // 614.1c: a shock land's owner chooses whether to pay life as it enters.
                    let unpaid = self.as_enters_life_choices(&[o], owner)?;
                    self.move_card(o, ZoneRef::Battlefield, Position::Top, 0, "406.6");
                    self.game.objs[o].controller = owner;
                    if unpaid.contains(&o) {
                        self.game.objs[o].flags.tapped = true;
                    }
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
                    let decision =
                        Decision::ChooseCard { player: p, options: options.clone(), count: 1, any_number: false };
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
            Effect::ExileGraveyard(who) => {
                // 701.13a: every card of each of those graveyards is exiled, all at the same time.
                let cards: Vec<ObjId> = self
                    .players(ctx, *who)?
                    .into_iter()
                    .flat_map(|p| self.game.zone(ZoneRef::Graveyard(p)).to_vec())
                    .collect();
                self.at_once(|sim| {
                    for &c in &cards {
                        sim.move_card(c, ZoneRef::Exile, Position::Top, 0, "701.13a");
                    }
                });
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
            Effect::ReturnToOwnersHand(r) => {
                // 400.3: to its owner's hand; 400.7, 608.2b: only while it is still the object the
                // effect refers to (a graveyard card that left, a target permanent that left).
                if let Some(obj) = self.object(ctx, *r) {
                    let owner = self.game.obj(obj).owner;
                    self.move_card(obj, ZoneRef::Hand(owner), Position::Top, bit(owner), "400.3");
                }
            }
            Effect::PutFromHandOntoBattlefield { filter } => {
                // 608.2d: the controller chooses, as it resolves, whether and which card; a card
                // put onto the battlefield this way is not cast.
                let player = ctx.controller;
                let options: Vec<ObjId> = self
                    .game
                    .zone(ZoneRef::Hand(player))
                    .iter()
                    .copied()
                    .filter(|&o| matches(&self.game.obj(o).chars, filter, None))
                    .collect();
                if options.is_empty() {
                    return Ok(());
                }
                let may = Decision::May { player, about: MayAbout::PutOntoBattlefield, card: Some(ctx.source) };
                if !self.yes_no(&may)? {
                    return Ok(());
                }
                let decision = Decision::ChooseCard { player, options: options.clone(), count: 1, any_number: false };
                let card = self.one_of(&decision, &options, "a card of that kind in their hand")?;
                let (pname, id) = (self.pname(player), self.id(card));
                self.emit(Event::Chose { player: pname, card: id }, "608.2d");
                self.move_card(card, ZoneRef::Battlefield, Position::Top, 0, "608.2d");
                self.game.objs[card].controller = player;
            }
            Effect::RevealFromOutsideTheGameIntoHand(filter) => {
                let p = ctx.controller;
                let options = crate::rules::zones::wishable(&self.game, p, filter);
                // Mutant `wish-stopped-by-search-ban`: a "can't search libraries" effect on the
                // player (Stranglehold) is taken to stop the wish too.
                let banned = self.bug(Mutant::WishStoppedBySearchBan)
                    && crate::rules::search::library_search_ban(&self.game, p, p, p).is_some();
                if options.is_empty() || banned {
                    return Ok(());
                }
                let decision = Decision::May { player: p, about: MayAbout::RevealFromOutside, card: Some(ctx.source) };
                if !self.yes_no(&decision)? {
                    return Ok(());
                }
                let decision =
                    Decision::ChooseCard { player: p, options: options.clone(), count: 1, any_number: false };
                let card =
                    self.one_of(&decision, &options, "a card they own outside the game with that quality (400.11)")?;
                let (player, id) = (self.pname(p), self.id(card));
                self.emit(Event::Chose { player, card: id }, "400.11");
                // 701.20a: revealed to every player, then put into the hand, still known to them.
                self.reveal_cards(p, &[card], "701.20a");
                let everyone = self.game.everyone();
                self.move_card(card, ZoneRef::Hand(p), Position::Top, everyone, "400.11");
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
            // 702.62a: "remove a time counter from it" — the exiled card that triggered (400.7).
            Effect::RemoveTimeCounter => {
                let source = ctx.source;
                if self.game.obj(source).object_no != ctx.source_no {
                    return Ok(());
                }
                let Some((left, last)) =
                    crate::rules::suspend::remove_time_counter(self.game.obj(source).flags.time_counters)
                else {
                    return Ok(());
                };
                self.game.objs[source].flags.time_counters = left;
                // Mutant `suspend-last-counter-no-cast`: removing the last counter triggers nothing.
                if last && !self.bug(Mutant::SuspendLastCounterNoCast) {
                    self.trigger(crate::rules::triggers::Happening::LastTimeCounterRemoved(source), None);
                }
            }
            // 702.62a: "you may play it without paying its mana cost if able; if you don't, it
            // remains exiled" — during the resolution (as Guile's cast), targets chosen (601.2c).
            Effect::MayCastSuspended => {
                let source = ctx.source;
                if self.game.obj(source).object_no != ctx.source_no || self.game.obj(source).zone != ZoneRef::Exile {
                    return Ok(());
                }
                self.offer_free_cast_of(ctx.controller, source)?;
            }
        }
        Ok(())
    }

    fn gain_life(&mut self, p: PlayerId, amount: u32) {
        self.gain_life_for(p, amount, "119.3");
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
        let Some(card) = self.cast_one_free(caster, from, &options)? else {
            return Ok(None);
        };
        if exile_instead {
            self.game.objs[card].flags.graveyard_to_exile = true;
        }
        Ok(Some(self.game.obj(card).owner))
    }

    /// Offers `caster` to cast the one card `card` without paying its mana cost, as any face of
    /// it that may be cast and whose additional cost can be paid, from its owner's zone.
    fn offer_free_cast_of(&mut self, caster: PlayerId, card: ObjId) -> Result<Option<ObjId>, SimError> {
        use crate::rules::casting::{castable_faces, is_castable};
        let def = self.game.obj(card).def.clone();
        let options: Vec<(ObjId, Option<usize>)> = castable_faces(&def)
            .into_iter()
            .filter(|&f| is_castable(&def, f) && self.additional_cost_payable(caster, card, f))
            .map(|f| (card, f))
            .collect();
        let owner = self.game.obj(card).owner;
        self.cast_one_free(caster, &[owner], &options)
    }

    /// `caster` may cast one of `options` (a card and the face to cast) from `from`'s zones
    /// without paying its mana cost, as part of a resolution (Jetsam, Knowledge Exploitation,
    /// Guile; 118.9): declining is allowed, the caster chooses the spell's targets (601.2c; a
    /// spell with no legal choice of targets can't be cast, so it isn't offered), and a required
    /// additional cost must be paid (601.2f). Returns the card cast.
    pub(super) fn cast_one_free(
        &mut self,
        caster: PlayerId,
        from: &[PlayerId],
        options: &[(ObjId, Option<usize>)],
    ) -> Result<Option<ObjId>, SimError> {
        // 601.2c: a spell that needs targets can be cast only with a legal choice of them.
        let mut castable = Vec::with_capacity(options.len());
        for &(o, face) in options {
            let choices = self.free_cast_target_options(caster, o, face)?.map(|t| t.len());
            // Mutant `free-cast-without-legal-target`: offered all the same.
            if crate::rules::casting::has_legal_targets(choices) || self.bug(Mutant::FreeCastWithoutLegalTarget) {
                castable.push((o, face));
            }
        }
        let options = &castable[..];
        if options.is_empty() {
            return Ok(None);
        }
        // 702.61a: while a spell with split second is on the stack (the resolving one included:
        // Guile's cast of a card a split-second counterspell exiled), no spell may be cast, also
        // during a resolution; nothing is offered, and a cast is a rule decision the judge names.
        if !self.bug(Mutant::SplitSecondIgnored)
            && crate::rules::split_second::check_no_split_second(&self.game, "casting a spell").is_err()
        {
            self.rule_decision("702.61a", options.iter().map(|&(o, _)| o).collect());
            return Ok(None);
        }
        let decision =
            Decision::CastFree { player: caster, from: from.to_vec(), options: options.to_vec(), free: true };
        let (card, face) = match self.decide(&decision)? {
            Choice::Cast(None) => return Ok(None),
            Choice::Cast(Some(c)) if options.contains(&c) => c,
            other => {
                let mut listed: Vec<String> = options.iter().map(|&(o, _)| self.id(o)).collect();
                listed.push("none (decline: `cast: {player}` without a card)".into());
                let chosen = super::describe_choice(&self.game, &other);
                return Err(self.illegal(
                    Violation::new("601.2", format!("{chosen} is not a spell that may be cast this way")),
                    listed,
                ));
            }
        };
        let def = self.game.obj(card).def.clone();
        let cast_face = def.cast_face(face);
        // 601.2c: the caster chooses the spell's targets.
        let targets = match self.free_cast_target_options(caster, card, face)? {
            None => Vec::new(),
            // Only under mutant `free-cast-without-legal-target` (no legal choice isn't offered).
            Some(target_options) if target_options.is_empty() => Vec::new(),
            Some(target_options) => {
                let decision =
                    Decision::Targets { player: caster, source: card, spell: true, options: target_options.clone() };
                match self.decide(&decision)? {
                    Choice::Targets(chosen) if target_options.contains(&chosen) => chosen,
                    other => {
                        let listed = target_options.iter().map(|o| self.describe_targets(o)).collect();
                        let chosen = super::describe_choice(&self.game, &other);
                        return Err(self.illegal(
                            Violation::new(
                                "601.2c",
                                format!("{chosen} is not a legal choice of targets for {}", cast_face.name),
                            ),
                            listed,
                        ));
                    }
                }
            }
        };
        // 601.2f: a required additional cost must be paid; an optional one may be.
        let discard = match cast_face.spell.as_ref().and_then(|s| s.additional_cost.clone()) {
            None => None,
            Some(cost) if cost.reveal.is_some() || cost.sacrifice.is_some() => {
                return Err(SimError::Unsupported {
                    step: self.step,
                    message: format!(
                        "a reveal or sacrifice cost of {} cast during a resolution is not modelled",
                        cast_face.name
                    ),
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
                            Violation::new(
                                "601.2f",
                                format!(
                                    "{} doesn't pay the additional cost",
                                    super::describe_choice(&self.game, &other)
                                ),
                            ),
                            listed,
                        ));
                    }
                }
            }
        };
        self.cast_without_paying(caster, card, face, &targets, discard)?;
        Ok(Some(card))
    }

    /// Every legal choice of targets for `card` (its half `face`) cast by `caster` now, or `None`
    /// when the spell has no targets (601.2c). A spell never targets itself.
    fn free_cast_target_options(
        &self,
        caster: PlayerId,
        card: ObjId,
        face: Option<usize>,
    ) -> Result<Option<Vec<Vec<TargetChoice>>>, SimError> {
        let def = &self.game.obj(card).def;
        let specs = match def.cast_face(face).spell.as_ref() {
            Some(s) if !s.targets.is_empty() => s.targets.clone(),
            _ => return Ok(None),
        };
        let mut options = self.target_options(card, caster, &specs)?;
        options.retain(|o| !o.iter().any(|t| matches!(t, TargetChoice::Obj(c, _) if *c == card)));
        Ok(Some(options))
    }

    /// The player whose replacement (Guile, 614.1a) turns a counter by a spell or ability
    /// `countering` controls into an exile, if any: `countering` themselves, when
    /// [`crate::rules::counter::exiled_instead_of_countered`] says so.
    fn counter_replaced_by(&self, countering: PlayerId) -> Option<PlayerId> {
        use crate::rules::counter::exiled_instead_of_countered;
        // Mutant `guile-counter-not-replaced`: the spell is countered as usual.
        if self.bug(Mutant::GuileCounterNotReplaced) {
            return None;
        }
        if exiled_instead_of_countered(&self.game, countering) {
            return Some(countering);
        }
        // Mutant `guile-replaces-opponents-counters`: another player's Guile replaces it too.
        if self.bug(Mutant::GuileReplacesOpponentsCounters) {
            return (0..self.game.players.len()).find(|&p| exiled_instead_of_countered(&self.game, p));
        }
        None
    }

    /// 614.1a (Guile): the spell a counter would have put into its owner's graveyard (701.6a) is
    /// exiled instead — it was never countered — and `caster` may cast that card at once, during
    /// the resolution and without paying its mana cost, or else never (the 2007-10-01 rulings).
    /// A copy of a spell ceases to exist off the stack (704.5e), leaving nothing to cast.
    fn exile_instead_of_countering(&mut self, caster: PlayerId, spell: ObjId) -> Result<(), SimError> {
        self.move_card(spell, ZoneRef::Exile, Position::Top, 0, "614.1a");
        if !self.game.zone(ZoneRef::Exile).contains(&spell) {
            return Ok(());
        }
        self.offer_free_cast_of(caster, spell)?;
        Ok(())
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
            match self.decide(&Decision::CastFree {
                player: caster,
                from: vec![from],
                options: options.clone(),
                free: true,
            })? {
                Choice::Cast(None) => None,
                Choice::Cast(Some(c)) if options.contains(&c) => Some(c),
                other => {
                    return Err(self.illegal(
                        Violation::new(
                            "709.3c",
                            format!(
                                "{} is not a half of the copy that may be cast",
                                super::describe_choice(&self.game, &other)
                            ),
                        ),
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
                self.cast_without_paying(caster, card, face, &[], None)
            }
            None => {
                let zone = self.game.obj(copy).zone;
                self.game.zone_mut(zone).retain(|&o| o != copy);
                Ok(())
            }
        }
    }

    /// Whether a required additional cost of the half could be paid by `caster` now.
    pub(super) fn additional_cost_payable(&self, caster: PlayerId, card: ObjId, face: Option<usize>) -> bool {
        let def = &self.game.obj(card).def;
        let f = def.cast_face(face);
        match f.spell.as_ref().and_then(|s| s.additional_cost.as_ref()) {
            Some(cost) if !cost.optional => {
                let discard_ok = match &cost.discard {
                    Some(filter) => self.game.zone(ZoneRef::Hand(caster)).iter().any(|&d| {
                        d != card && crate::rules::discard::check_discard_cost(&self.game, d, filter).is_ok()
                    }),
                    None => true,
                };
                let sacrifice_ok = cost.sacrifice.as_ref().is_none_or(|filter| {
                    !crate::rules::casting::sacrifice_cost_options(&self.game, caster, filter).is_empty()
                });
                discard_ok && sacrifice_ok
            }
            _ => true,
        }
    }

    pub(super) fn yes_no(&mut self, decision: &Decision) -> Result<bool, SimError> {
        match self.decide(decision)? {
            Choice::Bool(b) => Ok(b),
            other => Err(self.illegal(
                Violation::new(
                    "101.4",
                    format!("{} is not a yes/no answer", super::describe_choice(&self.game, &other)),
                ),
                vec!["yes".into(), "no".into()],
            )),
        }
    }

    /// The permanents `player` controls that match `filter`: what an instruction to sacrifice
    /// such a permanent lets them choose (701.21a).
    fn sacrificeable(&self, player: PlayerId, filter: &crate::cards::instructions::Filter) -> Vec<ObjId> {
        self.game
            .zone(ZoneRef::Battlefield)
            .iter()
            .copied()
            .filter(|&o| self.game.obj(o).controller == player && matches(&self.game.obj(o).chars, filter, None))
            .collect()
    }

    fn one_of(&mut self, decision: &Decision, options: &[ObjId], what: &str) -> Result<ObjId, SimError> {
        match self.decide(decision)? {
            Choice::Cards(c) if c.len() == 1 && options.contains(&c[0]) => Ok(c[0]),
            other => {
                let shown = match &other {
                    Choice::Cards(c) => c.iter().map(|&o| self.id(o)).collect::<Vec<_>>().join(", "),
                    _ => super::describe_choice(&self.game, &other),
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
}
