//! Casting spells and activating abilities: where the card may come from, what its costs are and
//! whether they can be paid (CR 601, 602, 701.5, 702.29, 702.34, 709.3), and targets.

use super::{Choice, Decision, Sim, SimError, TargetChoice};
use crate::cards::instructions::{ActivatedAbility, Target};
use crate::model::{ObjId, PlayerId, ZoneRef};
use crate::mutants::Mutant;
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::apnap::{bit, opponents};
use crate::rules::casting::{CastMode, check_flashback, x_value};
use crate::rules::characteristics::{matches, stack_chars};
use crate::rules::zones::Position;

/// The most target combinations offered for one triggered ability.
const TARGET_OPTIONS_LIMIT: usize = 4096;

impl Sim<'_> {
    /// Casts a spell (601.2): checks where it is cast from, X, targets and additional costs
    /// before anything moves, so a refused cast changes nothing.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn cast(
        &mut self,
        player: PlayerId,
        card: ObjId,
        face: Option<usize>,
        targets: &[TargetChoice],
        mode: CastMode,
        x: Option<u32>,
        discard: Option<ObjId>,
        reveal: Option<ObjId>,
        sacrifice: Option<ObjId>,
        phyrexian_life: u32,
    ) -> Result<(), SimError> {
        self.refuse_unmodelled_permission(card)?;
        let o = self.game.obj(card);
        // 406.3a–b: a card exiled face down with permission to play it may be cast from exile by
        // the player allowed to look at it; it is turned face up as it moves to the stack.
        let from_exile = o.zone == ZoneRef::Exile && o.flags.playable_by == Some(player);
        if o.zone == ZoneRef::Exile && o.face_down && !from_exile {
            return Err(self.refused(Violation::new(
                "406.3b",
                format!(
                    "{} is exiled face down and {} is not allowed to look at and cast it",
                    o.id,
                    self.pname(player)
                ),
            )));
        }
        // 715.3d: a card exiled by its own Adventure may be cast from there by that Adventure's
        // controller, only normally.
        // Mutant `adventure-cast-again`: the Adventure may be cast from there too.
        let adventure_face = if self.bug(Mutant::AdventureCastAgain) { None } else { face };
        crate::rules::adventure::check_cast_from_adventure(&self.game, card, player, adventure_face)
            .map_err(|v| self.refused(v))?;
        match mode {
            CastMode::Normal | CastMode::AlternativeCost if o.zone != ZoneRef::Hand(player) && !from_exile => {
                let hint = if o.zone == ZoneRef::Graveyard(player) {
                    " (to cast it with flashback, say `flashback: true`)"
                } else {
                    ""
                };
                return Err(self.invalid(format!(
                    "{} can't be cast by {}: it is in {}, not in their hand{hint}",
                    o.id,
                    self.pname(player),
                    self.game.zone_name(o.zone)
                )));
            }
            CastMode::Flashback => check_flashback(&self.game, card, player, face).map_err(|v| self.refused(v))?,
            // 601.3: only where the card's permission allows it (the search offered it).
            CastMode::WhileSearching if o.zone != ZoneRef::Library(player) => {
                return Err(self.invalid(format!(
                    "{} can't be cast from a library by {}: it is in {}",
                    o.id,
                    self.pname(player),
                    self.game.zone_name(o.zone)
                )));
            }
            // Mutant `trap-ignores-capped-search` acts where searches are recorded (sim::search).
            // Mutant `prowl-any-creature-type`: combat damage by any creature allows prowl.
            CastMode::AlternativeCost
                if self.bug(Mutant::ProwlAnyCreatureType)
                    && o.def.alternative_cost.as_ref().is_some_and(|a| {
                        a.condition == crate::cards::instructions::AlternativeCostCondition::Prowl
                    })
                    && self.game.dealt_combat_damage_with.get(player).is_some_and(|d| !d.is_empty()) => {}
            CastMode::AlternativeCost => {
                crate::rules::casting::check_alternative_cost(&self.game, card, player).map_err(|v| self.refused(v))?
            }
            _ => {}
        }
        if o.def.is_split() && face.is_none() {
            return Err(self.invalid(format!(
                "{} is a split card: the step must say which half is cast (709.3), one of: {}",
                o.id,
                o.def.split.iter().map(|h| h.name.as_str()).collect::<Vec<_>>().join(", ")
            )));
        }
        crate::rules::casting::check_not_a_land(&o.def, face).map_err(|v| self.refused(v))?;
        // 702.61a: no other spell may be cast while a spell with split second is on the stack.
        // Mutant `split-second-ignored`: the restriction is not checked.
        if !self.bug(Mutant::SplitSecondIgnored) {
            let what = format!("casting {}", o.id);
            crate::rules::split_second::check_no_split_second(&self.game, &what).map_err(|v| self.refused(v))?;
        }
        let def = o.def.clone();
        // 117.1a: a spell that is neither an instant nor has flash needs an empty stack. A spell
        // cast while another resolves (Jetsam) is cast when the effect says.
        let mut turn_position = self.game.turn_position;
        let during_resolution = matches!(mode, CastMode::WithoutPaying | CastMode::WhileSearching);
        let unchosen_half = o.def.is_split() && face.is_none();
        if !(during_resolution || unchosen_half) {
            let chars = stack_chars(&def, face);
            let name = chars.names.join(" // ");
            let as_though_flash = crate::rules::casting::casts_as_though_flash(&self.game, player);
            crate::rules::casting::check_timing(&chars, &name, self.stack.is_empty(), as_though_flash)
                .map_err(|v| self.refused(v))?;
            if !(as_though_flash || crate::rules::casting::has_instant_timing(&chars)) {
                turn_position = self.main_phase_for(&format!("{name} may be cast"), "307.1")?;
            }
        }
        if face == Some(crate::rules::casting::FUSED) {
            crate::rules::casting::check_fuse(&self.game, card, player).map_err(|v| self.refused(v))?;
        }
        let cast_face = &crate::rules::casting::face_def(&def, face);
        // Casting a card whose text isn't fully modelled would silently misread it (an enters
        // trigger skipped, a spell that does nothing), so it is refused with the card's own note.
        // A whole permanent card whose unmodelled abilities never act in a scenario (no
        // `unmodelled_acts`: Guile's blocking restriction, Street Wraith's swampwalk) is cast as
        // any permanent: the abilities that could act are modelled, and those with a point where
        // they would act are refused there (`refuse_unmodelled_*`).
        let never_acts = face.is_none() && super::is_permanent(cast_face) && def.unmodelled_acts.is_empty();
        let note = match face {
            None => def.unmodelled.as_ref().filter(|_| !never_acts),
            Some(_) => cast_face.unmodelled.as_ref().or(def.unmodelled.as_ref()),
        };
        if let Some(why) = note {
            return Err(SimError::Unsupported { step: self.step, message: format!("{}: {why}", cast_face.name) });
        }
        if cast_face.spell.is_none() && !super::is_permanent(cast_face) {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!("{} has no spell ability written in the card pool", cast_face.name),
            });
        }
        let x = x_value(cast_face, &def, mode, x).map_err(|v| self.refused(v))?;
        // Mutant `x-not-zero-without-paying`: X is 1 where 107.3b makes it 0.
        let x = if mode == CastMode::WithoutPaying
            && (cast_face.has_x() || def.has_x())
            && self.bug(Mutant::XNotZeroWithoutPaying)
        {
            1
        } else {
            x
        };
        let wanted: Vec<Target> = cast_face.spell.as_ref().map_or(Vec::new(), |s| s.targets.clone());
        let targets = self.check_chosen_targets(&cast_face.name, &wanted, targets, player)?;
        // 601.2f: additional costs. A required one must be paid however the spell is cast.
        let additional = cast_face.spell.as_ref().and_then(|s| s.additional_cost.clone());
        let discard_filter = additional.as_ref().and_then(|c| c.discard.clone());
        let reveal_filter = additional.as_ref().and_then(|c| c.reveal.clone());
        let optional = additional.as_ref().is_some_and(|c| c.optional);
        match (&reveal_filter, reveal) {
            (None, Some(r)) => {
                return Err(self.invalid(format!(
                    "{} has no cost that reveals a card, so {} can't be revealed for it",
                    cast_face.name,
                    self.id(r)
                )));
            }
            (Some(f), None) if !optional && discard_filter.is_none() => {
                return Err(self.refused(Violation::new(
                    "601.2f",
                    format!(
                        "{} has a required additional cost (reveal a card that is {}) and the step pays none",
                        cast_face.name,
                        crate::cards::instructions::describe_filter(f)
                    ),
                )));
            }
            (Some(f), Some(r)) => {
                let ro = self.game.obj(r);
                if r == card || ro.zone != ZoneRef::Hand(player) {
                    return Err(self.invalid(format!(
                        "{} is not another card in {}'s hand",
                        ro.id,
                        self.pname(player)
                    )));
                }
                if !matches(&ro.chars, f, None) {
                    return Err(self.refused(Violation::new(
                        "601.2f",
                        format!(
                            "{} is not {}, so revealing it doesn't pay the cost",
                            ro.id,
                            crate::cards::instructions::describe_filter(f)
                        ),
                    )));
                }
            }
            _ => {}
        }
        match (&discard_filter, discard) {
            (None, Some(d)) => {
                return Err(self.invalid(format!(
                    "{} has no additional cost, so {} can't be discarded for it",
                    cast_face.name,
                    self.id(d)
                )));
            }
            (Some(f), None) if !optional && reveal_filter.is_none() => {
                return Err(self.refused(Violation::new(
                    "601.2f",
                    format!(
                        "{} has a required additional cost (discard a card that is {}) and the step pays none",
                        cast_face.name,
                        crate::cards::instructions::describe_filter(f)
                    ),
                )));
            }
            (Some(f), Some(d)) => {
                if d == card || self.game.obj(d).zone != ZoneRef::Hand(player) {
                    return Err(self.invalid(format!(
                        "{} is not another card in {}'s hand",
                        self.id(d),
                        self.pname(player)
                    )));
                }
                crate::rules::discard::check_discard_cost(&self.game, d, f).map_err(|v| self.refused(v))?;
            }
            _ => {}
        }
        // 601.2f, 701.21a: a sacrifice cost names a permanent the caster controls with the quality
        // asked; a required one must be paid.
        let sacrifice_filter = additional.as_ref().and_then(|c| c.sacrifice.clone());
        match (&sacrifice_filter, sacrifice) {
            (None, Some(s)) => {
                return Err(self.invalid(format!(
                    "{} has no cost that sacrifices a permanent, so {} can't be sacrificed for it",
                    cast_face.name,
                    self.id(s)
                )));
            }
            (Some(f), None) if !optional => {
                return Err(self.refused(Violation::new(
                    "601.2f",
                    format!(
                        "{} has a required additional cost (sacrifice a permanent that is {}) and the step pays none",
                        cast_face.name,
                        crate::cards::instructions::describe_filter(f)
                    ),
                )));
            }
            (Some(f), Some(s)) => {
                crate::rules::casting::check_sacrifice_cost(&self.game, player, s, f).map_err(|v| self.refused(v))?;
            }
            _ => {}
        }
        // 119.4: a flashback cost that pays life can be paid only with that much life. A card
        // with flashback of its own pays its own flashback cost (granted flashback is its mana cost).
        let flashback_life = if mode == CastMode::Flashback && def.flashback.is_some() {
            def.flashback_life.filter(|&n| n > 0)
        } else {
            None
        };
        if let Some(n) = flashback_life {
            crate::rules::life::check_pay_life(self.game.players[player].life, n).map_err(|v| self.refused(v))?;
        }
        // 107.4f: Phyrexian mana symbols of the cost paid may be paid with 2 life each (119.4).
        let paid_cost: Option<String> = match mode {
            CastMode::Normal | CastMode::WhileSearching => {
                cast_face.mana_cost.clone().or_else(|| def.mana_cost.clone())
            }
            // A granted flashback cost is the mana cost of what is cast (a split card's half).
            CastMode::Flashback => {
                def.flashback.clone().or_else(|| cast_face.mana_cost.clone()).or_else(|| def.mana_cost.clone())
            }
            CastMode::AlternativeCost => def.alternative_cost.as_ref().map(|a| a.cost.clone()),
            CastMode::WithoutPaying => None,
        };
        if matches!(mode, CastMode::Normal | CastMode::WhileSearching | CastMode::Flashback) {
            crate::rules::casting::check_mana_cost_payable(&cast_face.name, paid_cost.as_deref())
                .map_err(|v| self.refused(v))?;
        }
        let life_before =
            self.game.players[player].life - flashback_life.map_or(0, |n| i32::try_from(n).unwrap_or(i32::MAX));
        let phyrexian_life =
            crate::rules::casting::check_phyrexian_life(paid_cost.as_deref(), phyrexian_life, life_before)
                .map_err(|v| self.refused(v))?;
        let id = self.id(card);
        let pname = self.pname(player);
        let target_names = self.target_names(&targets);
        // Every refusal check is behind: the cast happens.
        self.game.turn_position = turn_position;
        self.emit(
            Event::Cast {
                player: pname,
                card: id,
                face: face.map(|_| cast_face.name.clone()),
                flashback: mode == CastMode::Flashback,
                without_paying_mana_cost: mode == CastMode::WithoutPaying,
                x: (cast_face.has_x() || def.has_x()).then_some(x),
                targets: target_names,
            },
            // 107.3b: X is 0 for a spell cast without paying its mana cost; a cast for an
            // alternative cost happens only because 118.9 allowed that cost.
            if mode == CastMode::WithoutPaying && (cast_face.has_x() || def.has_x()) {
                "107.3b"
            } else if mode == CastMode::AlternativeCost {
                "118.9"
            } else if mode == CastMode::WhileSearching {
                "601.3"
            } else {
                "701.5a"
            },
        );
        // 401.5: a top card changed by casting is revealed once the spell is cast (601.2i).
        self.hold_reveals();
        self.move_card(card, ZoneRef::Stack, Position::Top, 0, "701.5a");
        self.game.objs[card].controller = player;
        // Mutant `flashback-not-exiled`: the spell isn't marked to be exiled as it leaves the stack.
        if mode == CastMode::Flashback && !self.bug(Mutant::FlashbackNotExiled) {
            self.game.objs[card].flags.leaves_stack_to_exile = true; // 702.34a
        }
        // 601.2h: the life part of the total cost is paid with the rest.
        if let Some(n) = flashback_life {
            self.lose_life(player, n, "119.4");
        }
        // Mutant `phyrexian-life-not-paid`: the life chosen for a Phyrexian symbol isn't lost.
        if phyrexian_life > 0 && !self.bug(Mutant::PhyrexianLifeNotPaid) {
            self.lose_life(player, phyrexian_life, "107.4f");
        }
        if let Some(d) = discard {
            self.discard(player, d, false);
        }
        if let Some(s) = sacrifice {
            self.sacrifice(player, s);
        }
        if let Some(r) = reveal {
            // 701.20c: a card already revealed (Telepathy) may be revealed again to pay the cost.
            self.reveal_cards(player, &[r], "701.20c");
        }
        self.push_spell(card, face, targets, player, x);
        // 702.69a, 603.2: casting a spell with gravestorm triggers its ability; it goes on the
        // stack above the spell the next time a player would receive priority (603.3). Each
        // instance of the keyword triggers separately (702.69b).
        for _ in 0..crate::rules::gravestorm::instances(cast_face) {
            self.pending.push(crate::rules::triggers::PendingTrigger {
                source: card,
                controller: player,
                effect: vec![crate::cards::instructions::Effect::GravestormCopies],
                on: "this_cast",
                triggering_player: None,
                targets: Vec::new(),
                source_no: self.game.obj(card).object_no,
                found_no: None,
                clause: "702.69a",
                condition: None,
            });
        }
        self.release_reveals();
        Ok(())
    }

    /// The card targets that are still the objects chosen (400.7) and in a graveyard — that
    /// player's, or any — the ones a resolving spell can still act on (608.2b).
    pub(crate) fn target_cards_still_in_a_graveyard(
        &self,
        targets: &[TargetChoice],
        graveyard_of: Option<PlayerId>,
    ) -> Vec<ObjId> {
        targets
            .iter()
            .filter_map(|t| match *t {
                TargetChoice::Obj(o, no) if self.game.obj(o).object_no == no => Some(o),
                _ => None,
            })
            .filter(|&o| match self.game.obj(o).zone {
                ZoneRef::Graveyard(p) => graveyard_of.is_none_or(|want| want == p),
                _ => false,
            })
            .collect()
    }

    /// Casts a spell as part of a resolving effect, without paying its mana cost (118.9; Jetsam's
    /// cast, a copy cast by `copy_and_may_cast`, Guile's): with the targets the caster chose
    /// (601.2c), X is 0 (107.3b), only an additional cost's `discard` may be paid.
    pub(crate) fn cast_without_paying(
        &mut self,
        caster: PlayerId,
        card: ObjId,
        face: Option<usize>,
        targets: &[TargetChoice],
        discard: Option<ObjId>,
    ) -> Result<(), SimError> {
        self.cast(caster, card, face, targets, CastMode::WithoutPaying, None, discard, None, None, 0)
    }

    /// Casts `card` from `player`'s library in the middle of their search of it, paying its
    /// costs (601.3: Panglacial Wurm's permission, [`crate::rules::casting::castable_while_searching`]).
    pub(crate) fn cast_while_searching(&mut self, player: PlayerId, card: ObjId) -> Result<(), SimError> {
        self.cast(player, card, None, &[], CastMode::WhileSearching, None, None, None, None, 0)
    }

    /// A card exiled by one of several Opposition Agents of different controllers: who may play
    /// it is a 616.1 choice the oracle doesn't model, so playing it is unsupported.
    fn refuse_unmodelled_permission(&self, card: ObjId) -> Result<(), SimError> {
        let o = self.game.obj(card);
        if o.zone == ZoneRef::Exile && o.flags.play_permission_unmodelled {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!(
                    "{} was exiled by Opposition Agents of several controllers; which one's permission to play it \
                     applies (616.1) is not modelled",
                    o.id
                ),
            });
        }
        Ok(())
    }

    /// Checks the targets a step chose for a spell or an activated ability (601.2c; 602.2b for
    /// abilities): as many as it asks for, each legal for its target spec. Returns them with the
    /// object numbers they have now (400.7), so a later zone change makes them illegal.
    fn check_chosen_targets(
        &self,
        name: &str,
        wanted: &[Target],
        targets: &[TargetChoice],
        player: PlayerId,
    ) -> Result<Vec<TargetChoice>, SimError> {
        // Mutant `free-cast-without-legal-target`: a spell cast with no target at all passes.
        if targets.is_empty() && !wanted.is_empty() && self.bug(crate::mutants::Mutant::FreeCastWithoutLegalTarget) {
            return Ok(Vec::new());
        }
        let targets: Vec<TargetChoice> = targets
            .iter()
            .map(|t| match *t {
                TargetChoice::Obj(o, _) => TargetChoice::Obj(o, self.game.obj(o).object_no),
                other => other,
            })
            .collect();
        let variable = matches!(
            wanted.last(),
            Some(
                Target::GraveyardCards(_)
                    | Target::UpToCardsInYourGraveyard { .. }
                    | Target::UpToCardsFromASingleGraveyard { .. }
            )
        );
        if (!variable && wanted.len() != targets.len()) || (variable && targets.len() + 1 < wanted.len()) {
            return Err(self.invalid(format!(
                "{name} needs {} target(s) but the step gives {}",
                wanted.len(),
                targets.len()
            )));
        }
        // 601.2c: "up to N targets" — at most N, each a different object.
        if let Some(
            Target::UpToCardsInYourGraveyard { count, .. } | Target::UpToCardsFromASingleGraveyard { count, .. },
        ) = wanted.last()
        {
            let chosen = &targets[wanted.len() - 1..];
            let repeated = chosen.iter().enumerate().any(|(i, t)| chosen[..i].contains(t));
            if chosen.len() > *count as usize || repeated {
                return Err(self.invalid(format!(
                    "{name} takes up to {count} different cards as its last targets, not {}",
                    self.describe_targets(chosen)
                )));
            }
        }
        // 601.2c: "from a single graveyard" — the chosen cards share one graveyard.
        if let Some(Target::UpToCardsFromASingleGraveyard { .. }) = wanted.last() {
            let cards: Vec<ObjId> = targets[wanted.len() - 1..]
                .iter()
                .filter_map(|t| match t {
                    TargetChoice::Obj(o, _) => Some(*o),
                    TargetChoice::Player(_) => None,
                })
                .collect();
            if let Err(v) = crate::rules::casting::check_single_graveyard(&self.game, &cards) {
                return Err(self.invalid(format!("{name}: {v}")));
            }
        }
        for (i, t) in targets.iter().enumerate() {
            let spec = spec_for(wanted, i);
            if !self.target_legal(spec, *t, player, &targets) {
                let what = match t {
                    TargetChoice::Obj(o, _) => {
                        let o = self.game.obj(*o);
                        format!("{} ({}, in {})", o.id, o.def.name, self.game.zone_name(o.zone))
                    }
                    TargetChoice::Player(p) => self.pname(*p),
                };
                return Err(self.invalid(format!(
                    "{what} is not a legal target for {name}: it needs {}",
                    crate::cards::instructions::describe_target(spec)
                )));
            }
        }
        Ok(targets)
    }

    /// 305.1: a player plays a land from their hand; an effect may allow playing one from exile
    /// (406.3a, Praetor's Grasp), and the land that enters is a new object that effect can find
    /// (400.7i).
    pub(crate) fn play_land(&mut self, player: PlayerId, card: ObjId) -> Result<(), SimError> {
        self.refuse_unmodelled_permission(card)?;
        let o = self.game.obj(card);
        if !o.def.face_slice().iter().any(|f| f.types.contains(&crate::cards::def::CardType::Land)) {
            return Err(self.invalid(format!("{} is not a land card, so it can't be played as a land", o.id)));
        }
        let allowed =
            o.zone == ZoneRef::Hand(player) || (o.zone == ZoneRef::Exile && o.flags.playable_by == Some(player));
        if !allowed {
            return Err(self.refused(Violation::new(
                "305.1",
                format!(
                    "{} can't play {}: it is in {} and no effect lets them play it from there",
                    self.pname(player),
                    o.id,
                    self.game.zone_name(o.zone)
                ),
            )));
        }
        let name = o.id.clone();
        crate::rules::casting::check_land_timing(&name, self.stack.is_empty()).map_err(|v| self.refused(v))?;
        self.game.turn_position = self.main_phase_for(&format!("{name} may be played"), "305.1")?;
        let from_exile = self.game.obj(card).zone == ZoneRef::Exile;
        // 614.1c: a shock land's player chooses whether to pay life as it enters.
        let unpaid = self.as_enters_life_choices(&[card], player)?;
        self.move_card(card, ZoneRef::Battlefield, Position::Top, 0, if from_exile { "400.7i" } else { "305.1" });
        self.game.objs[card].controller = player;
        if unpaid.contains(&card) {
            self.game.objs[card].flags.tapped = true;
        }
        Ok(())
    }

    /// Activates an ability (602.2): every cost is checked before any is paid, and its targets
    /// are chosen before the costs are paid (602.2b, 601.2c before 601.2h).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn activate(
        &mut self,
        player: PlayerId,
        card: ObjId,
        ability: usize,
        x: Option<u32>,
        sacrifice: Option<ObjId>,
        discard: Option<ObjId>,
        targets: &[TargetChoice],
    ) -> Result<(), SimError> {
        let o = self.game.obj(card).clone();
        let abilities: Vec<ActivatedAbility> =
            o.def.face_slice().iter().flat_map(|f| f.abilities.iter().cloned()).collect();
        let Some(ab) = abilities.get(ability).cloned() else {
            return Err(self.invalid(format!("{} has no ability number {ability}", o.id)));
        };
        if ab.cycling {
            // Mutant `cant-cycle-misses-typecycling`: only plain cycling is stopped.
            if ab.name == "cycling" || !self.bug(Mutant::CantCycleMissesTypecycling) {
                crate::rules::cycling::check_may_cycle(&self.game, &ab).map_err(|v| self.refused(v))?;
            }
            crate::rules::cycling::check_in_hand(&self.game, card, player).map_err(|v| self.refused(v))?;
        } else if ab.discard_this && o.zone != ZoneRef::Hand(player) {
            return Err(self.invalid(format!(
                "{}'s {} is activated by discarding it from its owner's hand, but it is in {}",
                o.id,
                ab.name,
                self.game.zone_name(o.zone)
            )));
        }
        if ab.from_graveyard {
            crate::rules::activating::check_in_owners_graveyard(&self.game, card, player, &ab.name, &self.names())
                .map_err(|v| self.refused(v))?;
        } else if !ab.discard_this && (o.zone != ZoneRef::Battlefield || o.controller != player) {
            return Err(self.invalid(format!("{} is not a permanent {} controls", o.id, self.pname(player))));
        }
        // 602.1b: "Activate only during your upkeep". Mutant `activate-only-during-ignored`: the
        // instruction is not checked.
        if let Some(step) = ab.only_during_your
            && !self.bug(Mutant::ActivateOnlyDuringIgnored)
        {
            let what = format!("{}'s {}", o.id, ab.name);
            crate::rules::activating::check_only_during_your(self.game.turn_position, step, player, &what)
                .map_err(|v| self.refused(v))?;
        }
        // 702.61a: no ability that isn't a mana ability may be activated under split second.
        // Mutant `split-second-ignored`: the restriction is not checked.
        if !self.bug(Mutant::SplitSecondIgnored) {
            let what = format!("activating {}'s {}", o.id, ab.name);
            crate::rules::split_second::check_no_split_second(&self.game, &what).map_err(|v| self.refused(v))?;
        }
        let targets = self.check_chosen_targets(&o.def.name, &ab.targets, targets, player)?;
        let mut turn_position = self.game.turn_position;
        if ab.sorcery_speed {
            crate::rules::casting::check_activation_timing(&ab.name, &o.id, self.stack.is_empty())
                .map_err(|v| self.refused(v))?;
            turn_position = self.main_phase_for(&format!("{}'s {} may be activated", o.id, ab.name), "702.53a")?;
        }
        if let Some(cost) = ab.loyalty {
            // Mutant `loyalty-twice-per-turn`: an earlier loyalty activation this turn is ignored.
            let mut permanent = o.clone();
            if self.bug(Mutant::LoyaltyTwicePerTurn) {
                permanent.flags.loyalty_activated = false;
            }
            turn_position =
                crate::rules::loyalty::check_loyalty_timing(&permanent, &ab.name, self.stack.is_empty(), turn_position)
                    .map_err(|v| self.refused(v))?;
            crate::rules::loyalty::check_loyalty_cost(&o, &ab.name, cost).map_err(|v| self.refused(v))?;
        }
        if ab.tap && o.flags.tapped {
            return Err(self.refused(Violation::new("602.2b", format!("{} is tapped, so {{T}} can't be paid", o.id))));
        }
        // 302.6: a creature's {T} ability needs the creature under its controller's control since
        // the turn began. Mutant `summoning-sickness-ignored`: not checked.
        if ab.tap && !self.bug(Mutant::SummoningSicknessIgnored) {
            crate::rules::activating::check_summoning_sickness(&self.game, card, &ab.name)
                .map_err(|v| self.refused(v))?;
        }
        let has_x = ab.mana.as_deref().is_some_and(|m| m.contains("{X}"));
        let x = match (has_x, x) {
            (true, Some(v)) => v,
            (true, None) => return Err(self.invalid(format!("{}'s {} needs a value for X", o.id, ab.name))),
            (false, Some(_)) => return Err(self.invalid(format!("{}'s {} has no X", o.id, ab.name))),
            (false, None) => 0,
        };
        match (&ab.sacrifice, sacrifice) {
            (Some(filter), Some(s)) => {
                let so = self.game.obj(s);
                // A permanent can pay only one cost: one already sacrificed is gone (R003-15).
                if so.zone != ZoneRef::Battlefield || so.controller != player {
                    return Err(self.refused(Violation::new(
                        "602.2b",
                        format!(
                            "{} is not a permanent {} controls, so it can't be sacrificed to pay the cost",
                            so.id,
                            self.pname(player)
                        ),
                    )));
                }
                if ab.sacrifice_this && s == card {
                    return Err(self.refused(Violation::new(
                        "602.2b",
                        format!("{} can't pay two sacrifice costs at once", so.id),
                    )));
                }
                if !matches(&so.chars, filter, None) {
                    return Err(self.refused(Violation::new(
                        "602.2b",
                        format!("{} is not {}", so.id, crate::cards::instructions::describe_filter(filter)),
                    )));
                }
            }
            (Some(_), None) => {
                return Err(
                    self.invalid(format!("{}'s {} needs `sacrifice:` naming the permanent sacrificed", o.id, ab.name))
                );
            }
            (None, Some(_)) => return Err(self.invalid(format!("{}'s {} has no sacrifice cost", o.id, ab.name))),
            (None, None) => {}
        }
        if let Some(n) = ab.pay_life {
            crate::rules::life::check_pay_life(self.game.players[player].life, n).map_err(|v| self.refused(v))?;
        }
        if let Some(n) = ab.mill {
            let len = self.game.zone(ZoneRef::Library(player)).len();
            // Mutant `mill-cost-partial`: the cost is paid with what the library has.
            if !self.bug(Mutant::MillCostPartial) {
                crate::rules::mill::check_mill_cost(len, n).map_err(|v| self.refused(v))?;
            }
        }
        match (&ab.discard, discard) {
            (Some(filter), Some(d)) => {
                if d == card || self.game.obj(d).zone != ZoneRef::Hand(player) {
                    return Err(self.invalid(format!(
                        "{} is not another card in {}'s hand",
                        self.id(d),
                        self.pname(player)
                    )));
                }
                crate::rules::discard::check_discard_cost(&self.game, d, filter).map_err(|v| self.refused(v))?;
            }
            (Some(_), None) => {
                return Err(self.invalid(format!("{}'s {} needs `discard:` naming the card discarded", o.id, ab.name)));
            }
            (None, Some(_)) => return Err(self.invalid(format!("{}'s {} has no discard cost", o.id, ab.name))),
            (None, None) => {}
        }
        // Every cost can be paid: pay them (602.2b, 601.2h).
        let pname = self.pname(player);
        // Every refusal check is behind: the ability is activated.
        self.game.turn_position = turn_position;
        self.emit(Event::Activated { player: pname, card: o.id_string(), ability: ab.name.clone() }, "602.2");
        // 602.2a: an ability activated from a hidden zone (cycling from the hand) reveals its card,
        // which stays revealed while the activation goes on (701.20a).
        if crate::rules::reveal::activation_reveals(o.zone) {
            self.reveal_cards(player, &[card], "602.2a");
            self.revealed_for_activation = Some(card);
        }
        // 401.5: a top card changed by paying the costs is revealed once the activation is done.
        self.hold_reveals();
        if ab.tap {
            self.game.objs[card].flags.tapped = true;
        }
        // 606.4: the loyalty cost puts counters on the permanent or removes them; 606.3: it has
        // now had a loyalty ability activated this turn.
        if let Some(cost) = ab.loyalty {
            let flags = &mut self.game.objs[card].flags;
            flags.loyalty = crate::rules::loyalty::loyalty_after_cost(flags.loyalty, cost);
            flags.loyalty_activated = true;
        }
        // 119.4: paying life moves no card, so when it is paid among the other parts changes
        // nothing. Mutant `life-cost-not-paid`: the life total stays as it was.
        if let Some(n) = ab.pay_life.filter(|&n| n > 0 && !self.bug(Mutant::LifeCostNotPaid)) {
            self.lose_life(player, n, "119.4");
        }
        use crate::rules::casting::{CostPart, check_cost_order, cost_order_matters};
        let mut parts = Vec::new();
        if ab.discard_this {
            parts.push(CostPart::DiscardThis(card));
        }
        if let Some(d) = discard {
            parts.push(CostPart::Discard(d));
        }
        if ab.sacrifice_this {
            parts.push(CostPart::SacrificeThis(card));
        }
        if let Some(s) = sacrifice {
            parts.push(CostPart::Sacrifice(s));
        }
        if let Some(n) = ab.mill {
            parts.push(CostPart::Mill(n));
        }
        // 601.2h: the player pays the parts in the order they like, where the order matters.
        let order: Vec<usize> = if cost_order_matters(&parts) {
            let decided = self.decide(&Decision::CostOrder { player, parts: parts.clone() });
            match decided {
                Ok(Choice::Order(o)) if check_cost_order(&o, parts.len()).is_ok() => o,
                other => {
                    self.revealed_for_activation = None;
                    self.release_reveals();
                    let other = other?;
                    let why = format!(
                        "{} doesn't pay each of the {} cost parts once",
                        super::describe_choice(&self.game, &other),
                        parts.len()
                    );
                    return Err(self.illegal(Violation::new("601.2h", why), Vec::new()));
                }
            }
        } else {
            (0..parts.len()).collect()
        };
        let mut milled = Ok(());
        for i in order {
            match parts[i] {
                // 702.29a: cycling's cost discards the card; 702.29c–d: that is a cycle.
                CostPart::DiscardThis(c) => self.discard(player, c, ab.cycling),
                CostPart::Discard(d) => self.discard(player, d, false),
                CostPart::SacrificeThis(c) | CostPart::Sacrifice(c) => self.sacrifice(player, c),
                CostPart::Mill(n) => {
                    if let Err(e) = self.mill(player, n) {
                        milled = Err(e);
                        break;
                    }
                }
            }
        }
        self.revealed_for_activation = None;
        self.push_ability(card, player, ab.effect, x, targets, ab.targets);
        self.release_reveals();
        // 704.3: state-based actions are checked before anyone gets priority again: a
        // planeswalker whose loyalty cost took its last counter goes to the graveyard (704.5i).
        if ab.loyalty.is_some() {
            self.put_zero_loyalty_planeswalkers_into_graveyards();
        }
        milled
    }

    /// Whether `t` is a legal choice for `spec` now (601.2c, 608.2b). `all` is every target of
    /// the spell or ability, for specs that depend on an earlier target.
    pub(crate) fn target_legal(
        &self,
        spec: &Target,
        t: TargetChoice,
        controller: PlayerId,
        all: &[TargetChoice],
    ) -> bool {
        match (spec, t) {
            (Target::Permanent(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Battlefield && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::OpponentsPermanent(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Battlefield
                    && o.object_no == no
                    && o.controller != controller
                    && matches(&o.chars, filter, None)
            }
            (Target::Spell(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Stack && o.object_no == no && self.spell_chars_match(obj, filter)
            }
            (Target::GraveyardCards(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                let whose = all.iter().find_map(|t| match t {
                    TargetChoice::Player(p) => Some(*p),
                    TargetChoice::Obj(..) => None,
                });
                whose.is_some_and(|p| o.zone == ZoneRef::Graveyard(p))
                    && o.object_no == no
                    && matches(&o.chars, filter, None)
            }
            (Target::CardInYourGraveyard(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Graveyard(controller) && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::CardInAGraveyard(filter), TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                matches!(o.zone, ZoneRef::Graveyard(_)) && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::UpToCardsInYourGraveyard { filter, .. }, TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Graveyard(controller) && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::UpToCardsFromASingleGraveyard { filter, .. }, TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                matches!(o.zone, ZoneRef::Graveyard(_)) && o.object_no == no && matches(&o.chars, filter, None)
            }
            (Target::Player | Target::Any, TargetChoice::Player(_)) => true,
            (Target::Any, TargetChoice::Obj(obj, no)) => {
                let o = self.game.obj(obj);
                o.zone == ZoneRef::Battlefield
                    && o.object_no == no
                    && crate::rules::damage::can_be_dealt_damage(&o.chars)
            }
            (Target::Opponent, TargetChoice::Player(p)) => p != controller,
            _ => false,
        }
    }

    fn spell_chars_match(&self, obj: ObjId, filter: &crate::cards::instructions::Filter) -> bool {
        let face = self.spell_face(obj);
        let def = &self.game.obj(obj).def;
        let mut chars = stack_chars(def, face);
        // Mutant `split-mana-value-one-half`: a fused spell's mana value is its first half's.
        if self.bug(Mutant::SplitManaValueOneHalf) {
            crate::mutants::split_mana_value_one_half(def, &mut chars);
        }
        matches(&chars, filter, None)
    }

    /// Every legal combination of targets for a triggered ability (603.3d).
    pub(crate) fn target_options(
        &self,
        source: ObjId,
        controller: PlayerId,
        specs: &[Target],
    ) -> Result<Vec<Vec<TargetChoice>>, SimError> {
        let n = self.game.players.len();
        let mut combos: Vec<Vec<TargetChoice>> = vec![Vec::new()];
        for spec in specs {
            let mut next = Vec::new();
            for prefix in &combos {
                let singles: Vec<Vec<TargetChoice>> = match spec {
                    Target::Player => (0..n).map(|p| vec![TargetChoice::Player(p)]).collect(),
                    Target::Any => (0..n)
                        .map(TargetChoice::Player)
                        .chain(
                            self.game
                                .zone(ZoneRef::Battlefield)
                                .iter()
                                .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no)),
                        )
                        .filter(|t| self.target_legal(spec, *t, controller, prefix))
                        .map(|t| vec![t])
                        .collect(),
                    Target::Opponent => {
                        opponents(controller, n).into_iter().map(|p| vec![TargetChoice::Player(p)]).collect()
                    }
                    Target::Permanent(_) | Target::OpponentsPermanent(_) => self
                        .game
                        .zone(ZoneRef::Battlefield)
                        .iter()
                        .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                        .filter(|t| self.target_legal(spec, *t, controller, prefix))
                        .map(|t| vec![t])
                        .collect(),
                    Target::Spell(_) => self
                        .game
                        .zone(ZoneRef::Stack)
                        .iter()
                        .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                        .filter(|t| self.target_legal(spec, *t, controller, prefix))
                        .map(|t| vec![t])
                        .collect(),
                    Target::CardInYourGraveyard(_) => self
                        .game
                        .zone(ZoneRef::Graveyard(controller))
                        .iter()
                        .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                        .filter(|t| self.target_legal(spec, *t, controller, prefix))
                        .map(|t| vec![t])
                        .collect(),
                    Target::CardInAGraveyard(_) => (0..n)
                        .flat_map(|p| self.game.zone(ZoneRef::Graveyard(p)).to_vec())
                        .map(|o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                        .filter(|t| self.target_legal(spec, *t, controller, prefix))
                        .map(|t| vec![t])
                        .collect(),
                    Target::GraveyardCards(_) => {
                        let cards: Vec<TargetChoice> = prefix
                            .iter()
                            .find_map(|t| match t {
                                TargetChoice::Player(p) => Some(*p),
                                TargetChoice::Obj(..) => None,
                            })
                            .map(|p| self.game.zone(ZoneRef::Graveyard(p)).to_vec())
                            .unwrap_or_default()
                            .into_iter()
                            .map(|o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                            .filter(|t| self.target_legal(spec, *t, controller, prefix))
                            .collect();
                        target_subsets(&cards, usize::MAX)?
                    }
                    Target::UpToCardsInYourGraveyard { count, .. } => {
                        let cards: Vec<TargetChoice> = self
                            .game
                            .zone(ZoneRef::Graveyard(controller))
                            .iter()
                            .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                            .filter(|t| self.target_legal(spec, *t, controller, prefix))
                            .collect();
                        target_subsets(&cards, *count as usize)?
                    }
                    // 601.2c: the cards come from one graveyard, so each graveyard's subsets.
                    Target::UpToCardsFromASingleGraveyard { count, .. } => {
                        let mut all = vec![Vec::new()];
                        for p in 0..n {
                            let cards: Vec<TargetChoice> = self
                                .game
                                .zone(ZoneRef::Graveyard(p))
                                .iter()
                                .map(|&o| TargetChoice::Obj(o, self.game.obj(o).object_no))
                                .filter(|t| self.target_legal(spec, *t, controller, prefix))
                                .collect();
                            all.extend(target_subsets(&cards, *count as usize)?.into_iter().filter(|s| !s.is_empty()));
                        }
                        all
                    }
                };
                // "another target": never the ability's own source.
                let another = match spec {
                    Target::Permanent(f) | Target::OpponentsPermanent(f) | Target::Spell(f) => f.another,
                    _ => false,
                };
                let singles: Vec<Vec<TargetChoice>> = singles
                    .into_iter()
                    .filter(|s| !another || !s.iter().any(|t| matches!(t, TargetChoice::Obj(o, _) if *o == source)))
                    .collect();
                for s in singles {
                    let mut p = prefix.clone();
                    p.extend(s);
                    next.push(p);
                    if next.len() > TARGET_OPTIONS_LIMIT {
                        return Err(SimError::TooLarge(format!("more than {TARGET_OPTIONS_LIMIT} target choices")));
                    }
                }
            }
            combos = next;
        }
        Ok(combos)
    }

    /// Targets as written in the log: card ids and player names.
    pub(crate) fn target_names(&self, targets: &[TargetChoice]) -> Vec<String> {
        targets
            .iter()
            .map(|t| match t {
                TargetChoice::Obj(o, _) => self.id(*o),
                TargetChoice::Player(p) => self.pname(*p),
            })
            .collect()
    }

    pub(crate) fn describe_targets(&self, targets: &[TargetChoice]) -> String {
        format!("[{}]", self.target_names(targets).join(", "))
    }

    /// A target is still the object it was when chosen (400.7); players stay legal.
    pub(crate) fn still_legal(&self, t: TargetChoice) -> bool {
        match t {
            TargetChoice::Obj(o, no) => self.game.obj(o).object_no == no,
            TargetChoice::Player(_) => true,
        }
    }

    /// 121.1 with 702.52a: a draw, which a dredge card in the graveyard may replace.
    pub(crate) fn draw(&mut self, player: PlayerId) -> Result<(), SimError> {
        // Mutant `dredge-ignores-library-size`: any dredge card may replace the draw.
        let options = if self.bug(Mutant::DredgeIgnoresLibrarySize) {
            crate::mutants::dredge_options_ignoring_library(&self.game, player)
        } else {
            crate::rules::dredge::dredge_options(&self.game, player)
        };
        let draw = {
            let n = self.draws_in_step.entry((self.step, player)).or_default();
            *n += 1;
            *n
        };
        let graveyard = self.game.zone(ZoneRef::Graveyard(player));
        if graveyard.iter().any(|&o| crate::rules::dredge::dredge_n(&self.game, o) > 0 && !options.contains(&o)) {
            // 702.52b: a dredge card is there, but the library is too small to dredge it.
            self.rule_decision("702.52b", Vec::new());
        }
        if !options.is_empty() {
            let decision = Decision::Dredge { player, draw, options: options.clone() };
            match self.decide(&decision)? {
                Choice::Cards(c) if c.is_empty() => {}
                Choice::Cards(c) if c.len() == 1 && options.contains(&c[0]) => {
                    let card = c[0];
                    let n = crate::rules::dredge::dredge_n(&self.game, card);
                    let (p, id) = (self.pname(player), self.id(card));
                    self.emit(Event::Dredged { player: p, card: id, draw }, "702.52a");
                    self.mill_for(player, n, "702.52a")?;
                    self.move_card(card, ZoneRef::Hand(player), Position::Top, bit(player), "702.52a");
                    return Ok(());
                }
                other => {
                    let listed = options.iter().map(|&o| self.id(o)).collect();
                    return Err(self.illegal(
                        Violation::new(
                            "702.52b",
                            format!(
                                "{} is not a card whose dredge this library can pay",
                                super::describe_choice(&self.game, &other)
                            ),
                        ),
                        listed,
                    ));
                }
            }
        }
        let Some(&card) = self.top_cards(player, 1, "draw")?.first() else {
            return Ok(()); // An empty library: nothing to draw (704.5b is not modelled).
        };
        self.move_card(card, ZoneRef::Hand(player), Position::Top, bit(player), "121.1");
        self.trigger(crate::rules::triggers::Happening::Drew { player }, None);
        self.refuse_unmodelled_draw_watchers(player)
    }
}

/// Every choice of at most `most` of `cards` as targets ("any number of target cards", "up to N
/// target cards"), the empty one included.
fn target_subsets(cards: &[TargetChoice], most: usize) -> Result<Vec<Vec<TargetChoice>>, SimError> {
    if cards.len() > 12 {
        return Err(SimError::TooLarge(format!("{} graveyard cards to choose targets among", cards.len())));
    }
    Ok((0u32..(1 << cards.len()))
        .filter(|mask| mask.count_ones() as usize <= most)
        .map(|mask| cards.iter().enumerate().filter(|(i, _)| mask & (1 << i) != 0).map(|(_, t)| *t).collect())
        .collect())
}

/// The target spec for the `i`-th chosen target: a trailing "any number of target cards" spec
/// covers every target after the fixed ones.
pub(crate) fn spec_for(specs: &[Target], i: usize) -> &Target {
    match specs.last() {
        Some(
            last @ (Target::GraveyardCards(_)
            | Target::UpToCardsInYourGraveyard { .. }
            | Target::UpToCardsFromASingleGraveyard { .. }),
        ) if i + 1 >= specs.len() => last,
        _ => &specs[i.min(specs.len().saturating_sub(1))],
    }
}
