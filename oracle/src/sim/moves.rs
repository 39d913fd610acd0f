//! Moving cards: every zone change goes through here, so replacement effects that send a card
//! somewhere other than a graveyard (CR 614; 702.34a for flashback), tokens ceasing to exist
//! (704.5d) and "until this leaves the battlefield" returns (610.3c) are handled in one place.

use super::{Choice, Decision, Sim, SimError};
use crate::cards::def::{CardDef, UnmodelledWhen};
use crate::model::{ObjId, PlayerId, ZoneRef};
use crate::outcome::Event;
use crate::rules::apnap::bit;
use crate::rules::replacement::{GraveyardFate, GraveyardReplacement, graveyard_fate_with, possible_fates};
use crate::rules::triggers::{Happening, LastOnBattlefield};
use crate::rules::zones::{Position, move_object};

impl Sim<'_> {
    /// Moves a card and logs it; `clause` is the rule or instruction responsible.
    pub(crate) fn move_card(&mut self, obj: ObjId, to: ZoneRef, position: Position, seen_by: u8, clause: &'static str) {
        let from = self.game.obj(obj).zone;
        let old_no = self.game.obj(obj).object_no;
        let last = LastOnBattlefield {
            controller: self.game.obj(obj).controller,
            face_down: self.game.obj(obj).face_down,
            object_no: old_no,
        };
        // 701.20a: a card revealed because an ability of it is being activated from a hidden zone
        // (602.2a) is still revealed while that activation moves it, so every player sees where.
        let seen_by = if self.revealed_for_activation == Some(obj) { seen_by | self.game.everyone() } else { seen_by };
        let to = move_object(&mut self.game, obj, to, position, seen_by);
        // A face-down card turned face up has its characteristics computed again.
        self.mutate_chars(obj);
        if let (ZoneRef::Library(p), Some(counts)) = (to, self.placed_at_once.as_mut()) {
            counts[p][usize::from(position == Position::Bottom)] += 1;
        }
        // 400.7: the new object has no counters; a card suspended as it is exiled gets its time
        // counters after the move (702.62a).
        self.game.objs[obj].flags.unset(|f| f.time_counters = 0);
        let card = self.id(obj);
        self.emit(Event::Moved { card, from: self.game.zone_name(from), to: self.game.zone_name(to) }, clause);
        // 702.69a: gravestorm counts every permanent put into a graveyard from the battlefield this
        // turn, whoever controlled it, a token too (the Follow the Bodies rulings, 2024-02-09).
        if crate::rules::gravestorm::counts_move(from, to) {
            self.game.permanents_to_graveyards += 1;
        }
        self.last_move.insert(obj, super::MoveCause { clause, step: self.step });
        if to == ZoneRef::Battlefield {
            self.entered.push(obj);
            // 302.6: it has not been under its controller's control since the turn began.
            self.game.objs[obj].flags.entered_this_turn = true;
            // 614.1: entering with other cards that move at once, it replaces none of their moves.
            if let Some(batch) = self.game.open_batch {
                self.game.objs[obj].flags.entered_in_batch = Some(batch);
            }
            // 306.5b: a planeswalker enters with its printed loyalty in loyalty counters.
            self.game.objs[obj].flags.loyalty = crate::rules::loyalty::starting_loyalty(&self.game.obj(obj).def);
            // 614.1d, 110.5b: "this land enters tapped" applies however it enters.
            if crate::rules::replacement::enters_tapped(self.game.obj(obj)) {
                self.game.objs[obj].flags.tapped = true;
            }
        }
        // 704.5d: a token that has left the battlefield ceases to exist; 704.5e: so does a copy of
        // a card that has left the stack. A library it was put into is as it was before.
        if crate::rules::tokens::ceases_to_exist(&self.game, obj, from) {
            let list = self.game.zone_mut(to);
            if let Some(idx) = list.iter().position(|&o| o == obj) {
                list.remove(idx);
                if let ZoneRef::Library(p) = to {
                    let old_len = list.len() + 1;
                    self.game.shapes[p].remove_at(idx, old_len);
                }
            }
        }
        // A spell that leaves the stack other than by resolving is no longer there to resolve.
        if from == ZoneRef::Stack {
            self.remove_spell(obj);
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
        if from == ZoneRef::Battlefield {
            self.trigger(Happening::LeftBattlefield(obj), Some(last));
            self.return_exiled_until(obj, old_no);
        }
        // 401.5: a new top card is revealed at once.
        self.settle_reveals();
    }

    /// A card drawn by `player`: an unmodelled "whenever you draw a card" ability of a permanent
    /// they control would trigger (Jace's Erasure), so the run is not modelled rather than run
    /// without it. A face-down permanent has no abilities (708.2).
    pub(crate) fn refuse_unmodelled_draw_watchers(&self, player: PlayerId) -> Result<(), SimError> {
        let watcher = self.game.zone(ZoneRef::Battlefield).iter().map(|&o| self.game.obj(o)).find(|o| {
            o.controller == player && !o.face_down && o.def.unmodelled_acts.contains(&UnmodelledWhen::ControllerDraws)
        });
        match watcher {
            Some(o) => Err(SimError::Unsupported {
                step: self.step,
                message: format!("{}: {}", o.def.name, o.def.unmodelled.clone().unwrap_or_default()),
            }),
            None => Ok(()),
        }
    }

    /// A search by `searcher` of their own library looked at `looked_at`: a card there whose
    /// unmodelled ability works while its owner searches that library (Panglacial Wurm, which may
    /// be cast during the search) would act, so the run is not modelled. Only the cards looked at
    /// count: under a 701.23f limit a card below the window can't be cast.
    pub(crate) fn refuse_unmodelled_in_searched_library(
        &self,
        searcher: PlayerId,
        looked_at: &[ObjId],
    ) -> Result<(), SimError> {
        let hit = looked_at.iter().map(|&o| self.game.obj(o)).find(|o| {
            o.zone == ZoneRef::Library(searcher)
                && o.owner == searcher
                && o.def.unmodelled_acts.contains(&UnmodelledWhen::InSearchedLibrary)
        });
        match hit {
            Some(o) => Err(SimError::Unsupported {
                step: self.step,
                message: format!(
                    "{} in the library being searched: {}",
                    o.def.name,
                    o.def.unmodelled.clone().unwrap_or_default()
                ),
            }),
            None => Ok(()),
        }
    }

    /// 610.3c: cards exiled "until this leaves the battlefield" return to the battlefield under
    /// their owners' control when it leaves.
    fn return_exiled_until(&mut self, source: ObjId, source_no: u32) {
        let returning: Vec<ObjId> = self
            .game
            .zone(ZoneRef::Exile)
            .iter()
            .copied()
            .filter(|&o| self.game.obj(o).flags.exiled_until == Some((source, source_no)))
            .collect();
        for o in returning {
            let owner = self.game.obj(o).owner;
            // A shock land returning would ask its owner to pay life as it enters (614.1c); a
            // choice inside this zone-change cascade isn't modelled, so it enters tapped only if
            // it has no such replacement.
            let unpaid = crate::rules::replacement::as_enters_life_payment(self.game.obj(o)).is_some();
            self.move_card(o, ZoneRef::Battlefield, Position::Top, 0, "610.3c");
            self.game.objs[o].controller = owner;
            if unpaid && self.refused.is_none() {
                self.refused = Some(SimError::Unsupported {
                    step: self.step,
                    message: format!(
                        "{} returns to the battlefield: its \"as enters, you may pay life\" choice there is not modelled",
                        self.game.obj(o).id
                    ),
                });
            }
        }
    }

    /// Runs `f`, in which cards are put into libraries at the same time: afterwards the cards
    /// each library got on top, and those it got at the bottom, are each a group in an order
    /// their owner chooses (401.4). A shuffle of a library during `f` starts its count again, as
    /// the cards put there before it are no longer in a specific position. Nested calls belong to
    /// the outermost one.
    pub(crate) fn at_once<T>(&mut self, f: impl FnOnce(&mut Self) -> T) -> T {
        if self.placed_at_once.is_some() {
            return f(self);
        }
        // One event: a continuously revealed top card is revealed once it is over (401.5), and
        // the cards it puts into a graveyard are one group there (400.5).
        self.hold_reveals();
        let outer_batch = self.begin_batch();
        self.placed_at_once = Some(vec![[0, 0]; self.game.players.len()]);
        let out = f(self);
        for (p, [top, bottom]) in self.placed_at_once.take().unwrap_or_default().into_iter().enumerate() {
            crate::rules::zones::arrange_placed_at_once(&mut self.game, p, top, bottom);
        }
        self.end_batch(outer_batch);
        self.release_reveals();
        out
    }

    /// Where a card that would be put into a graveyard goes: when the replacement effects that
    /// apply could send it to different places, its controller (or owner) chooses which applies
    /// first, then among those that still apply (616.1, 616.1e–f). An illegal answer stops the
    /// run at the next point where triggers are put on the stack.
    fn graveyard_fate(&mut self, obj: ObjId, dies: bool) -> GraveyardFate {
        let fates = possible_fates(&self.game, obj, dies);
        if fates.len() <= 1 {
            return fates.first().copied().unwrap_or(GraveyardFate::Graveyard);
        }
        let player = self.game.obj(obj).controller;
        let Sim { game, decider, step, .. } = self;
        let chosen = graveyard_fate_with(game, obj, dies, |options: &[GraveyardReplacement]| {
            let decision = Decision::Replacement { player, card: obj, options: options.to_vec() };
            match decider.decide(game, *step, &decision)? {
                Choice::Name(k) if options.iter().any(|r| r.key() == k) => {
                    Ok(GraveyardReplacement::from_key(&k).unwrap_or(options[0]))
                }
                other => Err(SimError::Illegal {
                    violation: crate::rules::Violation::new(
                        "616.1",
                        format!(
                            "{} is not one of the replacement effects that apply to {}",
                            super::describe_choice(game, &other),
                            game.obj(obj).id
                        ),
                    ),
                    step: *step,
                    options: options.iter().map(|r| r.key().to_string()).collect(),
                }),
            }
        });
        match chosen {
            Ok(fate) => fate,
            Err(e) => {
                self.refused.get_or_insert(e);
                fates[0]
            }
        }
    }

    /// Puts a card into its owner's graveyard, or where a replacement effect sends it instead
    /// (614.1a). `dies`: from the battlefield. Returns whether it reached the graveyard.
    pub(crate) fn put_into_graveyard(&mut self, obj: ObjId, dies: bool, clause: &'static str) -> bool {
        let owner = self.game.obj(obj).owner;
        match self.graveyard_fate(obj, dies) {
            GraveyardFate::Graveyard => {
                self.move_card(obj, ZoneRef::Graveyard(owner), Position::Top, 0, clause);
                if self.game.zone(ZoneRef::Graveyard(owner)).contains(&obj) {
                    self.trigger(Happening::PutIntoGraveyard(obj), None);
                }
                true
            }
            GraveyardFate::Exile(c) => {
                self.move_card(obj, ZoneRef::Exile, Position::Top, 0, c);
                false
            }
            GraveyardFate::LibraryTop => {
                // From a public zone, so every player saw it go there (`seen_leaving`, 400.2).
                self.move_card(obj, ZoneRef::Library(owner), Position::Top, 0, "614.1a");
                false
            }
            GraveyardFate::ShuffledIntoLibrary => {
                // Shuffled in: one action, so no top card is revealed before the shuffle (401.5).
                self.hold_reveals();
                self.reveal_cards(owner, &[obj], "614.1a");
                self.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "614.1a");
                self.shuffle(owner);
                self.release_reveals();
                false
            }
            GraveyardFate::LibraryBottomHidden => {
                self.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "614.1a");
                false
            }
        }
    }

    /// A permanent is put into its owner's graveyard from the battlefield; if it gets there it
    /// died, and dies triggers look back at it (603.10a).
    pub(crate) fn put_into_graveyard_from_battlefield(&mut self, obj: ObjId, clause: &'static str) {
        let o = self.game.obj(obj);
        let last = LastOnBattlefield { controller: o.controller, face_down: o.face_down, object_no: o.object_no };
        let was_token = o.token;
        let reached = self.put_into_graveyard(obj, true, clause);
        if reached || was_token {
            self.trigger(Happening::Died(obj), Some(last));
        }
    }

    /// Starts a batch of cards put into graveyards at the same time (their owners order each
    /// graveyard's share, 400.5 with 401.4 by analogy); inside an open batch, joins it. Returns
    /// what [`Sim::end_batch`] restores.
    pub(crate) fn begin_batch(&mut self) -> Option<u64> {
        let outer = self.game.open_batch;
        if outer.is_none() {
            self.game.batches += 1;
            self.game.open_batch = Some(self.game.batches);
        }
        outer
    }

    /// Ends the batch [`Sim::begin_batch`] started.
    pub(crate) fn end_batch(&mut self, outer: Option<u64>) {
        self.game.open_batch = outer;
    }

    /// Several permanents go to graveyards at once. Replacements apply to each; a library that
    /// one of them is shuffled into while others are put on its top or bottom ends up shuffled
    /// with those cards in their positions (701.24g), so the shuffles come first.
    /// 603.10a: leaves-the-battlefield abilities look back in time, so the permanents leaving
    /// together all see each other leave ("whenever another creature dies"), whichever of them
    /// the simulator happens to move first.
    pub(crate) fn put_into_graveyards_at_once(&mut self, objs: &[ObjId], clause: &'static str) {
        self.at_once(|sim| {
            // 701.24f: each replacement shuffles the library, so N at once shuffle it N times.
            let mut shuffled: std::collections::BTreeMap<PlayerId, usize> = std::collections::BTreeMap::new();
            let mut placed: Vec<(ObjId, Position)> = Vec::new();
            let leaving: Vec<(ObjId, LastOnBattlefield)> =
                objs.iter().map(|&o| (o, sim.last_on_battlefield(o))).collect();
            // Those already moved still see this one leave (603.10a).
            let others_gone = |sim: &Sim, obj: ObjId| -> Vec<(ObjId, LastOnBattlefield)> {
                leaving
                    .iter()
                    .copied()
                    .filter(|&(o, _)| o != obj && sim.game.obj(o).zone != ZoneRef::Battlefield)
                    .collect()
            };
            for &obj in objs {
                sim.lookback = others_gone(sim, obj);
                let owner = sim.game.obj(obj).owner;
                match sim.graveyard_fate(obj, true) {
                    GraveyardFate::ShuffledIntoLibrary => {
                        sim.reveal_cards(owner, &[obj], "614.1a");
                        sim.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "614.1a");
                        *shuffled.entry(owner).or_default() += 1;
                    }
                    GraveyardFate::LibraryTop => placed.push((obj, Position::Top)),
                    GraveyardFate::LibraryBottomHidden => placed.push((obj, Position::Bottom)),
                    _ => sim.put_into_graveyard_from_battlefield(obj, clause),
                }
            }
            sim.lookback.clear();
            for (owner, times) in shuffled {
                for _ in 0..times {
                    sim.shuffle(owner);
                }
            }
            // 401.4: cards put on top (or on the bottom) at the same time are ordered by their
            // owner; every player saw each of them leave the battlefield (`seen_leaving`, 400.2),
            // though not the order.
            for (obj, position) in placed {
                let owner = sim.game.obj(obj).owner;
                sim.lookback = others_gone(sim, obj);
                let clause = if position == Position::Top { "701.24g" } else { "614.1a" };
                sim.move_card(obj, ZoneRef::Library(owner), position, 0, clause);
            }
            sim.lookback.clear();
        })
    }

    /// 701.9a: a player discards a card from their hand into their graveyard (or where a
    /// replacement effect puts it). `cycled`: discarded to pay a cycling cost (702.29c–d).
    pub(crate) fn discard(&mut self, player: PlayerId, obj: ObjId, cycled: bool) {
        let (p, card) = (self.pname(player), self.id(obj));
        self.emit(Event::Discarded { player: p, card }, "701.9a");
        self.put_into_graveyard(obj, false, "701.9a");
        self.trigger(Happening::Discarded { player, card: obj, cycled }, None);
    }

    /// How a permanent is on the battlefield now, for abilities that look back at it (603.10a).
    pub(crate) fn last_on_battlefield(&self, obj: ObjId) -> LastOnBattlefield {
        let o = self.game.obj(obj);
        LastOnBattlefield { controller: o.controller, face_down: o.face_down, object_no: o.object_no }
    }

    /// Players sacrifice the permanents they chose at the same time (101.4, 701.21a).
    pub(crate) fn sacrifice_at_once(&mut self, chosen: &[(PlayerId, ObjId)]) {
        let mut sacrificed = Vec::new();
        for &(player, obj) in chosen {
            let (p, card) = (self.pname(player), self.id(obj));
            self.emit(Event::Sacrificed { player: p, card }, "701.21a");
            sacrificed.push((player, self.game.obj(obj).chars.clone()));
        }
        let objs: Vec<ObjId> = chosen.iter().map(|&(_, o)| o).collect();
        self.put_into_graveyards_at_once(&objs, "701.21a");
        // R003-17: "whenever you sacrifice …" triggers on a sacrifice for any reason.
        for (player, chars) in sacrificed {
            self.trigger(Happening::Sacrificed { player, chars }, None);
        }
    }

    /// A player sacrifices a permanent they control (701.21a).
    pub(crate) fn sacrifice(&mut self, player: PlayerId, obj: ObjId) {
        let (p, card) = (self.pname(player), self.id(obj));
        self.emit(Event::Sacrificed { player: p, card }, "701.21a");
        let chars = self.game.obj(obj).chars.clone();
        self.put_into_graveyard_from_battlefield(obj, "701.21a");
        self.trigger(Happening::Sacrificed { player, chars }, None);
    }

    /// Creates a token under `controller`'s control on the battlefield (111.1).
    pub(crate) fn create_token(&mut self, def: std::sync::Arc<CardDef>, controller: PlayerId) {
        self.game.tokens_made += 1;
        let id = crate::rules::tokens::token_id(&def, self.game.tokens_made);
        let chars = std::sync::Arc::new(crate::rules::characteristics::card_chars(&def));
        let obj = self.game.objs.len();
        self.game.objs.push(crate::model::Obj {
            id: id.as_str().into(),
            token: true,
            face_down: false,
            copy: false,
            spell_copy: false,
            def: def.clone(),
            chars,
            owner: controller,
            controller,
            last_controller: controller,
            last_chars: None,
            zone: ZoneRef::Battlefield,
            object_no: 0,
            known: self.game.everyone(),
            counters: 0,
            flags: crate::model::Flags::new(crate::model::ObjFlags {
                entered_this_turn: true,
                ..crate::model::ObjFlags::NONE
            }),
        });
        self.game.zone_mut(ZoneRef::Battlefield).push(obj);
        self.mutate_chars(obj);
        self.entered.push(obj);
        let player = self.pname(controller);
        self.emit(Event::Created { player, card: id, token: def.name.clone() }, "111.1");
    }

    /// 701.17a–b: mills up to `n` cards from the top (as many as there are), after replacement
    /// effects that change the number (614.1a). Returns the milled cards.
    pub(crate) fn mill(&mut self, player: PlayerId, n: u32) -> Result<Vec<ObjId>, SimError> {
        self.mill_for(player, n, "701.17a")
    }

    /// [`Sim::mill`], the moves logged with the clause of the instruction that mills (702.52a for
    /// dredge); 701.17b when the library holds fewer cards than the number to mill.
    pub(crate) fn mill_for(&mut self, player: PlayerId, n: u32, clause: &'static str) -> Result<Vec<ObjId>, SimError> {
        let len = self.game.zone(ZoneRef::Library(player)).len();
        let n = crate::rules::mill::replaced_count(&self.game, n);
        let count = crate::rules::mill::cards_to_mill(len, n);
        let clause = if (n as usize) > len { "701.17b" } else { clause };
        let cards = self.top_cards(player, count, "mill")?;
        // The cards are milled at once (401.4 when an effect sends them into a library instead).
        self.at_once(|sim| {
            for &card in &cards {
                sim.put_into_graveyard(card, false, clause);
            }
        });
        Ok(cards)
    }

    /// Creates a copy of a card in the zone the card is in, to be cast (707.12).
    pub(crate) fn create_copy(&mut self, of: ObjId, owner: PlayerId) -> ObjId {
        self.game.tokens_made += 1;
        let src = self.game.obj(of).clone();
        let id = format!("{}-copy-{}", src.id, self.game.tokens_made);
        let obj = self.game.objs.len();
        self.game.objs.push(crate::model::Obj {
            id: id.into(),
            copy: true,
            spell_copy: false,
            token: false,
            face_down: false,
            owner,
            controller: owner,
            last_controller: owner,
            last_chars: None,
            object_no: 0,
            known: self.game.everyone(),
            counters: 0,
            flags: Default::default(),
            ..src
        });
        let zone = self.game.obj(of).zone;
        self.game.zone_mut(zone).push(obj);
        obj
    }

    /// "As this enters, mill N" replacements of permanents about to enter together (614.1c). The
    /// cards `leaving` their libraries in the same event, which include every `entering` one, are
    /// set aside from their libraries first, so a mill can't take them.
    pub(crate) fn apply_as_enters(
        &mut self,
        entering: &[ObjId],
        leaving: &[ObjId],
        controller: PlayerId,
    ) -> Result<(), SimError> {
        let mills: Vec<u32> = entering
            .iter()
            .flat_map(|&o| {
                self.game.obj(o).def.face_slice().iter().flat_map(|f| f.replacements.iter()).filter_map(|r| match r {
                    crate::cards::instructions::Replacement::AsEntersMill { count } => Some(*count),
                    _ => None,
                })
            })
            .collect();
        if mills.is_empty() {
            return Ok(());
        }
        debug_assert!(entering.iter().all(|o| leaving.contains(o)), "an entering card is leaving its zone too");
        for &o in leaving {
            if let ZoneRef::Library(p) = self.game.obj(o).zone {
                let list = self.game.zone_mut(ZoneRef::Library(p));
                if let Some(idx) = list.iter().position(|&c| c == o) {
                    list.remove(idx);
                    let old_len = list.len() + 1;
                    self.game.shapes[p].remove_at(idx, old_len);
                }
            }
        }
        for n in mills {
            self.mill(controller, n)?;
        }
        Ok(())
    }

    /// 614.1c: for each card about to enter under `controller` with "as this land enters, you may
    /// pay N life; if you don't, it enters tapped", `controller` chooses whether to pay (only with
    /// a life total of at least N, 119.4) before it enters. Returns the cards whose life wasn't
    /// paid: they enter tapped. Mutant `shock-land-unpaid-enters-untapped`: none do.
    pub(crate) fn as_enters_life_choices(
        &mut self,
        entering: &[ObjId],
        controller: PlayerId,
    ) -> Result<Vec<ObjId>, SimError> {
        let mut unpaid = Vec::new();
        let life_before = self.game.players[controller].life;
        // Declined or not asked: (card, payment, asked).
        let mut declined = Vec::new();
        for &o in entering {
            let Some(life) = crate::rules::replacement::as_enters_life_payment(self.game.obj(o)) else {
                continue;
            };
            let payable = crate::rules::life::check_pay_life(self.game.players[controller].life, life).is_ok();
            let pays = payable
                && self.yes_no(&Decision::May {
                    player: controller,
                    about: super::MayAbout::PayLife,
                    card: Some(o),
                })?;
            if pays {
                self.lose_life(controller, life, "614.1c");
            } else {
                declined.push((o, life, payable));
                if !self.bug(crate::mutants::Mutant::ShockLandUnpaidEntersUntapped) {
                    unpaid.push(o);
                }
            }
        }
        // This simulation takes the cards in one order, but the player orders the choices
        // (101.4c, 616.1) and no log shows that order: a card not paid for that the player could
        // pay for before the batch's payments and not after them was a choice in some orders and
        // none in others, so an engine may offer it or not (found by `engine_diff`: eleven
        // Hallowed Fountains at 20 life).
        let life_after = self.game.players[controller].life;
        for (o, life, asked) in declined {
            if crate::rules::life::check_pay_life(life_before, life).is_ok()
                && crate::rules::life::check_pay_life(life_after, life).is_err()
            {
                let decision = Decision::May { player: controller, about: super::MayAbout::PayLife, card: Some(o) };
                self.decider.note_offer_optional(&self.game, self.step, &decision, asked);
            }
        }
        Ok(unpaid)
    }

    /// A player loses `amount` life (119.3; paying life is losing it, 119.4) and it is logged
    /// under `clause`.
    pub(crate) fn lose_life(&mut self, player: PlayerId, amount: u32, clause: &'static str) {
        let loss = i32::try_from(amount).unwrap_or(i32::MAX);
        self.game.players[player].life = self.game.players[player].life.saturating_sub(loss);
        let name = self.pname(player);
        self.emit(Event::LostLife { player: name, amount }, clause);
    }

    /// Reveals cards to every player (701.20a) and logs it.
    pub(crate) fn reveal_cards(&mut self, player: PlayerId, cards: &[ObjId], clause: &'static str) {
        for &o in cards {
            crate::rules::reveal::reveal(&mut self.game, o);
        }
        if cards.is_empty() {
            return; // 701.20a: no card is shown.
        }
        let ids = cards.iter().map(|&o| self.id(o)).collect();
        let player = self.pname(player);
        self.emit(Event::Revealed { player, cards: ids }, clause);
    }

    /// Shows cards to one player (701.20e) and logs it.
    pub(crate) fn look_at_cards(&mut self, player: PlayerId, cards: &[ObjId]) {
        for &o in cards {
            crate::rules::reveal::look_at(&mut self.game, o, player);
        }
        if cards.is_empty() {
            return; // 701.20e: no card is shown.
        }
        let ids = cards.iter().map(|&o| self.id(o)).collect();
        let p = self.pname(player);
        self.emit(Event::LookedAt { player: p, cards: ids }, "701.20e");
        let _ = bit(player);
    }
}

impl Sim<'_> {
    /// 702.34a: moves `obj` where the rules send it instead when it would leave the stack for a
    /// place other than a graveyard (a flashback spell: exile, even instead of a library). True
    /// if it was moved so; false if it goes where it was headed.
    pub(crate) fn moved_instead_of_leaving_stack(&mut self, obj: ObjId) -> bool {
        let Some((zone, clause)) = crate::rules::replacement::leaving_stack_instead(&self.game, obj) else {
            return false;
        };
        self.move_card(obj, zone, Position::Top, 0, clause);
        true
    }

    /// 401.7: puts a card into its owner's library Nth from the top, or on the bottom when the
    /// library has fewer than N cards. The position is kept only where the order above it is
    /// fixed (an unshuffled library); otherwise the oracle can't say which cards are above it.
    pub(crate) fn put_nth_from_top(&mut self, obj: ObjId, n: u32) -> Result<(), SimError> {
        if self.moved_instead_of_leaving_stack(obj) {
            return Ok(());
        }
        let owner = self.game.obj(obj).owner;
        let zone = ZoneRef::Library(owner);
        // 111.7 / 704.5d: a token leaving the battlefield ceases to exist as it arrives, so which
        // position it would have taken doesn't matter and the library keeps every card it had.
        let o = self.game.obj(obj);
        if o.token && o.zone == ZoneRef::Battlefield {
            self.move_card(obj, zone, Position::Top, 0, "401.7");
            return Ok(());
        }
        let len = self.game.zone(zone).iter().filter(|&&o| o != obj).count();
        let n = n.max(1) as usize;
        if len < n {
            self.move_card(obj, zone, Position::Bottom, 0, "401.7");
            return Ok(());
        }
        let shape = self.game.shapes[owner].clone();
        let fixed_above = shape.top_groups.iter().take_while(|&&g| g == 1).count();
        if fixed_above < n - 1 {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!(
                    "putting a card {n}th from the top of a library whose top {} cards are in random order",
                    n - 1
                ),
            });
        }
        // The card goes straight to its place: it is never the top card on its way (401.5).
        self.hold_reveals();
        self.move_card(obj, zone, Position::Top, 0, "401.7");
        if let Some(counts) = self.placed_at_once.as_mut() {
            counts[owner][0] -= 1; // not on top, but Nth from it
        }
        let list = self.game.zone_mut(zone);
        list.remove(0);
        list.insert(n - 1, obj);
        let mut shape = shape;
        shape.top_groups.insert(n - 1, 1);
        self.game.shapes[owner] = shape;
        self.release_reveals();
        Ok(())
    }

    /// Continuous reveal effects: Telepathy's revealed hands (701.20c) and "play with the top
    /// card of your library revealed" (401.5–401.6). Applied whenever a library or hand may have
    /// changed, unless a hold is in progress ([`Sim::settle_reveals`]: not while a spell is being
    /// cast or an ability activated, 401.5), and after every step and resolution.
    pub(crate) fn apply_reveal_statics(&mut self) -> Result<(), SimError> {
        use crate::cards::instructions::StaticAbility;
        use crate::rules::apnap::bit;
        let n = self.game.players.len();
        // A bit per player (as `Obj::known`): this runs after every move, and two vectors a call
        // were 1% of the `search_request` fuzz target's instructions.
        let mut hands_revealed = 0u8;
        let mut top_revealed = 0u8;
        for &p in self.game.zone(ZoneRef::Battlefield) {
            let o = self.game.obj(p);
            if o.face_down {
                continue;
            }
            for f in o.def.face_slice() {
                for s in &f.statics {
                    match s {
                        StaticAbility::OpponentsPlayWithHandsRevealed => {
                            for q in crate::rules::apnap::opponents(o.controller, n) {
                                hands_revealed |= bit(q);
                            }
                        }
                        StaticAbility::TopCardOfLibraryRevealed => top_revealed |= bit(o.controller),
                        StaticAbility::PlayersCantCycle
                        | StaticAbility::BeginOnBattlefield
                        | StaticAbility::CastSpellsAsThoughFlash
                        | StaticAbility::CantSearchLibraries { .. }
                        | StaticAbility::OpponentsCantCauseOwnLibrarySearch
                        | StaticAbility::ControlsOpponentsSearchingTheirLibraries
                        | StaticAbility::OpponentsExileCardsTheyFind
                        | StaticAbility::CastFromLibraryWhileSearching
                        | StaticAbility::ExileInsteadOfCounteringMayPlay
                        | StaticAbility::CanBlockOnlyCreaturesWithFlying => {}
                    }
                }
            }
        }
        let everyone = self.game.everyone();
        for p in (0..n).filter(|&p| hands_revealed & bit(p) != 0) {
            for o in self.game.zone(ZoneRef::Hand(p)).to_vec() {
                self.game.objs[o].known |= everyone;
            }
        }
        self.top_reveals_seen |= top_revealed != 0;
        if !self.top_reveals_seen {
            return Ok(());
        }
        for p in 0..n {
            let on = top_revealed & bit(p) != 0;
            let zone = ZoneRef::Library(p);
            // The top card, fixed where chance decides it (a shuffled library): it stays on top.
            let top = if on && !self.game.zone(zone).is_empty() {
                self.top_cards(p, 1, "reveal")?.first().copied()
            } else {
                None
            };
            // 401.6: a card that stops being the revealed top card becomes a new object.
            for o in self.game.zone(zone).to_vec() {
                if self.game.obj(o).flags.revealed_on_top && Some(o) != top {
                    crate::rules::reveal::stop_revealed_on_top(&mut self.game, o);
                }
            }
            if let Some(card) = top
                && !self.game.obj(card).flags.revealed_on_top
            {
                self.game.objs[card].flags.revealed_on_top = true;
                self.reveal_cards(p, &[card], "401.5");
            }
        }
        Ok(())
    }
}
