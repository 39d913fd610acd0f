//! Moving cards: every zone change goes through here, so replacement effects that send a card
//! somewhere other than a graveyard (CR 614; 702.34a for flashback), tokens ceasing to exist
//! (704.5d) and "until this leaves the battlefield" returns (610.3c) are handled in one place.

use super::{Sim, SimError};
use crate::cards::def::{CardDef, UnmodelledWhen};
use crate::model::{ObjId, PlayerId, ZoneRef};
use crate::outcome::Event;
use crate::rules::apnap::bit;
use crate::rules::replacement::{GraveyardFate, graveyard_fate};
use crate::rules::triggers::{Happening, LastOnBattlefield};
use crate::rules::zones::{Position, move_object};

impl Sim<'_> {
    /// Moves a card and logs it; `clause` is the rule or instruction responsible.
    pub(crate) fn move_card(&mut self, obj: ObjId, to: ZoneRef, position: Position, seen_by: u8, clause: &'static str) {
        let names = self.names();
        let from = self.game.obj(obj).zone;
        let old_no = self.game.obj(obj).object_no;
        let last = LastOnBattlefield {
            controller: self.game.obj(obj).controller,
            face_down: self.game.obj(obj).face_down,
            object_no: old_no,
        };
        let to = move_object(&mut self.game, obj, to, position, seen_by);
        let card = self.id(obj);
        self.emit(Event::Moved { card, from: from.display(&names), to: to.display(&names) }, clause);
        self.last_move.insert(obj, super::MoveCause { clause, step: self.step });
        if to == ZoneRef::Battlefield {
            self.entered.push(obj);
        }
        // 704.5d: a token that has left the battlefield ceases to exist; 704.5e: so does a copy of
        // a card that has left the stack.
        let o = self.game.obj(obj);
        if (o.token && from == ZoneRef::Battlefield) || (o.copy && from == ZoneRef::Stack) {
            self.game.zone_mut(to).retain(|&o| o != obj);
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
            self.move_card(o, ZoneRef::Battlefield, Position::Top, 0, "610.3c");
            let owner = self.game.obj(o).owner;
            self.game.objs[o].controller = owner;
        }
    }

    /// Puts a card into its owner's graveyard, or where a replacement effect sends it instead
    /// (614.1a). `dies`: from the battlefield. Returns whether it reached the graveyard.
    pub(crate) fn put_into_graveyard(&mut self, obj: ObjId, dies: bool, clause: &'static str) -> bool {
        let owner = self.game.obj(obj).owner;
        match graveyard_fate(&self.game, obj, dies) {
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
                // It goes there from a public zone, in view of every player.
                let everyone = self.game.everyone();
                self.move_card(obj, ZoneRef::Library(owner), Position::Top, everyone, "614.1a");
                false
            }
            GraveyardFate::ShuffledIntoLibrary => {
                self.reveal_cards(owner, &[obj], "614.1a");
                self.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "614.1a");
                self.shuffle(owner);
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

    /// Several permanents go to graveyards at once. Replacements apply to each; a library that
    /// one of them is shuffled into while another is put on top of it ends up shuffled with the
    /// second card on top (701.24g).
    pub(crate) fn put_into_graveyards_at_once(&mut self, objs: &[ObjId]) {
        let outer = self.begin_batch();
        self.put_into_graveyards_at_once_in_batch(objs);
        self.end_batch(outer);
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

    fn put_into_graveyards_at_once_in_batch(&mut self, objs: &[ObjId]) {
        // 701.24f: each replacement shuffles the library, so N at once shuffle it N times.
        let mut shuffled: std::collections::BTreeMap<PlayerId, usize> = std::collections::BTreeMap::new();
        let mut to_top: Vec<ObjId> = Vec::new();
        for &obj in objs {
            let owner = self.game.obj(obj).owner;
            match graveyard_fate(&self.game, obj, true) {
                GraveyardFate::ShuffledIntoLibrary => {
                    self.reveal_cards(owner, &[obj], "614.1a");
                    self.move_card(obj, ZoneRef::Library(owner), Position::Bottom, 0, "614.1a");
                    *shuffled.entry(owner).or_default() += 1;
                }
                GraveyardFate::LibraryTop => to_top.push(obj),
                _ => self.put_into_graveyard_from_battlefield(obj, "700.4"),
            }
        }
        for (owner, times) in shuffled {
            for _ in 0..times {
                self.shuffle(owner);
            }
        }
        // 401.4: cards put on top at the same time are ordered by their owner, who sees them; a
        // single card goes there in view of everyone, as it left a public zone.
        let mut per_owner = vec![0usize; self.game.players.len()];
        for &obj in &to_top {
            per_owner[self.game.obj(obj).owner] += 1;
        }
        for &obj in &to_top {
            let owner = self.game.obj(obj).owner;
            let seen = if per_owner[owner] > 1 { bit(owner) } else { self.game.everyone() };
            self.move_card(obj, ZoneRef::Library(owner), Position::Top, seen, "701.24g");
        }
        for (owner, n) in per_owner.into_iter().enumerate() {
            self.game.shapes[owner].group_top(n);
        }
    }

    /// 701.9a: a player discards a card from their hand into their graveyard (or where a
    /// replacement effect puts it). `cycled`: discarded to pay a cycling cost (702.29c–d).
    pub(crate) fn discard(&mut self, player: PlayerId, obj: ObjId, cycled: bool) {
        let (p, card) = (self.pname(player), self.id(obj));
        self.emit(Event::Discarded { player: p, card }, "701.9a");
        self.put_into_graveyard(obj, false, "701.9a");
        self.trigger(Happening::Discarded { player, card: obj, cycled }, None);
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
            id: id.clone(),
            token: true,
            face_down: false,
            copy: false,
            def: def.clone(),
            chars,
            owner: controller,
            controller,
            last_controller: controller,
            zone: ZoneRef::Battlefield,
            object_no: 0,
            known: self.game.everyone(),
            counters: 0,
            flags: Default::default(),
        });
        self.game.zone_mut(ZoneRef::Battlefield).push(obj);
        self.entered.push(obj);
        let player = self.pname(controller);
        self.emit(Event::Created { player, card: id, token: def.name.clone() }, "111.1");
    }

    /// 701.17a–b: mills up to `n` cards from the top (as many as there are), after replacement
    /// effects that change the number (614.1a). Returns the milled cards.
    pub(crate) fn mill(&mut self, player: PlayerId, n: u32) -> Result<Vec<ObjId>, SimError> {
        let len = self.game.zone(ZoneRef::Library(player)).len();
        let n = crate::rules::mill::replaced_count(&self.game, n);
        let count = crate::rules::mill::cards_to_mill(len, n);
        let cards = self.top_cards(player, count, "mill")?;
        // The milled cards go to the graveyard at the same time.
        let outer = self.begin_batch();
        for &card in &cards {
            self.put_into_graveyard(card, false, "701.17a");
        }
        self.end_batch(outer);
        Ok(cards)
    }

    /// Creates a copy of a card in the zone the card is in, to be cast (707.12).
    pub(crate) fn create_copy(&mut self, of: ObjId, owner: PlayerId) -> ObjId {
        self.game.tokens_made += 1;
        let src = self.game.obj(of).clone();
        let id = format!("{}-copy-{}", src.id, self.game.tokens_made);
        let obj = self.game.objs.len();
        self.game.objs.push(crate::model::Obj {
            id,
            copy: true,
            token: false,
            face_down: false,
            owner,
            controller: owner,
            last_controller: owner,
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
    /// entering cards are set aside from their libraries first, so a mill can't take them.
    pub(crate) fn apply_as_enters(&mut self, entering: &[ObjId], controller: PlayerId) -> Result<(), SimError> {
        let mills: Vec<u32> = entering
            .iter()
            .flat_map(|&o| {
                self.game.obj(o).def.faces().into_iter().flat_map(|f| f.replacements.iter()).filter_map(|r| match r {
                    crate::effects::Replacement::AsEntersMill { count } => Some(*count),
                    _ => None,
                })
            })
            .collect();
        if mills.is_empty() {
            return Ok(());
        }
        for &o in entering {
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

    /// Reveals cards to every player (701.20a) and logs it.
    pub(crate) fn reveal_cards(&mut self, player: PlayerId, cards: &[ObjId], clause: &'static str) {
        for &o in cards {
            crate::rules::reveal::reveal(&mut self.game, o);
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
        let ids = cards.iter().map(|&o| self.id(o)).collect();
        let p = self.pname(player);
        self.emit(Event::LookedAt { player: p, cards: ids }, "701.20e");
        let _ = bit(player);
    }
}

impl Sim<'_> {
    /// 401.7: puts a card into its owner's library Nth from the top, or on the bottom when the
    /// library has fewer than N cards. The position is kept only where the order above it is
    /// fixed (an unshuffled library); otherwise the oracle can't say which cards are above it.
    pub(crate) fn put_nth_from_top(&mut self, obj: ObjId, n: u32) -> Result<(), SimError> {
        let owner = self.game.obj(obj).owner;
        let zone = ZoneRef::Library(owner);
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
        self.move_card(obj, zone, Position::Top, 0, "401.7");
        let list = self.game.zone_mut(zone);
        list.remove(0);
        list.insert(n - 1, obj);
        let mut shape = shape;
        shape.top_groups.insert(n - 1, 1);
        self.game.shapes[owner] = shape;
        Ok(())
    }

    /// Continuous reveal effects, applied after every step and resolution: Telepathy's revealed
    /// hands (701.20c) and "play with the top card of your library revealed" (401.5–401.6).
    pub(crate) fn apply_reveal_statics(&mut self) -> Result<(), SimError> {
        use crate::effects::StaticAbility;
        let n = self.game.players.len();
        let mut hands_revealed = vec![false; n];
        let mut top_revealed = vec![false; n];
        for &p in self.game.zone(ZoneRef::Battlefield) {
            let o = self.game.obj(p);
            if o.face_down {
                continue;
            }
            for f in o.def.faces() {
                for s in &f.statics {
                    match s {
                        StaticAbility::OpponentsPlayWithHandsRevealed => {
                            for q in crate::rules::apnap::opponents(o.controller, n) {
                                hands_revealed[q] = true;
                            }
                        }
                        StaticAbility::TopCardOfLibraryRevealed => top_revealed[o.controller] = true,
                        StaticAbility::PlayersCantCycle | StaticAbility::BeginOnBattlefield => {}
                    }
                }
            }
        }
        let everyone = self.game.everyone();
        for (p, &revealed) in hands_revealed.iter().enumerate() {
            if revealed {
                for o in self.game.zone(ZoneRef::Hand(p)).to_vec() {
                    self.game.objs[o].known |= everyone;
                }
            }
        }
        for (p, &on) in top_revealed.iter().enumerate() {
            let zone = ZoneRef::Library(p);
            let top = self.game.zone(zone).first().copied();
            // 401.6: a card that stops being revealed on top becomes a new object, hidden again.
            for o in self.game.zone(zone).to_vec() {
                let f = &self.game.obj(o).flags;
                if f.revealed_on_top && (!on || Some(o) != top) {
                    let obj = &mut self.game.objs[o];
                    obj.flags.revealed_on_top = false;
                    obj.object_no += 1;
                    obj.known = 0;
                }
            }
            if !on || top.is_none() {
                continue;
            }
            let Some(&card) = self.top_cards(p, 1, "reveal")?.first() else { continue };
            // Fix the revealed card's position: it is now known to be on top.
            let list = self.game.zone_mut(zone);
            if let Some(i) = list.iter().position(|&o| o == card)
                && i != 0
            {
                list.remove(i);
                list.insert(0, card);
            }
            let shape = &mut self.game.shapes[p];
            if shape.top_groups.first() != Some(&1) {
                if let Some(g) = shape.top_groups.first_mut() {
                    *g -= 1;
                    if *g == 0 {
                        shape.top_groups.remove(0);
                    }
                }
                shape.top_groups.insert(0, 1);
            }
            if !self.game.obj(card).flags.revealed_on_top {
                self.game.objs[card].flags.revealed_on_top = true;
                self.reveal_cards(p, &[card], "401.5");
            }
        }
        Ok(())
    }
}
