//! The stack and priority: triggered abilities put on the stack in APNAP order (603.3b), and
//! the top object resolving (608.2), with what is put on and taken off it between.

use super::{Choice, Decision, Sim, SimError, TargetChoice, cast, is_permanent, resolve};
use crate::cards::instructions::{Effect, Target};
use crate::model::{ObjId, PlayerId, ZoneRef};
use crate::mutants::Mutant;
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::triggers::{
    Happening, LastOnBattlefield, apnap_groups, intervening_if_holds, is_stack_order, stacked_clause, triggered_by,
};
use crate::rules::zones::Position;

/// Something on the stack.
#[derive(Debug, Clone)]
pub(super) enum StackItem {
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
        /// What each target must be (608.2b checks them again as the ability resolves).
        target_specs: Vec<Target>,
        x: u32,
        /// The new object its source became in a public zone, for a zone-change trigger (400.7e).
        found_no: Option<u32>,
        /// A triggered ability's intervening "if", checked again as it resolves (603.4).
        condition: Option<crate::cards::instructions::InterveningIf>,
    },
}

impl Sim<'_> {
    /// "When this enters" abilities trigger once the entering permanent has its controller.
    pub(super) fn trigger_entered(&mut self) {
        for obj in std::mem::take(&mut self.entered) {
            if self.game.obj(obj).zone == ZoneRef::Battlefield {
                self.trigger(Happening::Entered(obj), None);
            }
        }
    }

    pub(super) fn trigger(&mut self, happening: Happening, died: Option<LastOnBattlefield>) {
        let cycled = matches!(happening, Happening::Discarded { cycled: true, .. });
        for t in triggered_by(&self.game, happening, died, &self.lookback) {
            // 603.4: with an intervening "if" that doesn't hold, the ability doesn't trigger
            // (mutant `intervening-if-ignored`: it triggers anyway).
            if let Some(condition) = t.condition
                && !intervening_if_holds(&self.game, condition, t.source, t.controller)
                && !self.bug(Mutant::InterveningIfIgnored)
            {
                self.rule_decision("603.4", Vec::new());
                continue;
            }
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
    pub(super) fn flush_triggers(&mut self) -> Result<(), SimError> {
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
                                format!(
                                    "{} doesn't put each of {} triggers on the stack once",
                                    super::describe_choice(&self.game, &other),
                                    group.len()
                                ),
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
                    let decision = Decision::Targets {
                        player: t.controller,
                        source: t.source,
                        spell: false,
                        options: options.clone(),
                    };
                    match self.decide(&decision)? {
                        Choice::Targets(chosen) if options.contains(&chosen) => chosen,
                        other => {
                            let listed = options.iter().map(|o| self.describe_targets(o)).collect();
                            let chosen = super::describe_choice(&self.game, &other);
                            return Err(self.illegal(
                                Violation::new("603.3d", format!("{chosen} is not a legal choice of targets")),
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
                    target_specs: t.targets.clone(),
                    x: 0,
                    found_no: t.found_no,
                    condition: t.condition,
                });
            }
        }
        Ok(())
    }

    pub(super) fn resolve_top(&mut self) -> Result<(), SimError> {
        let Some(item) = self.stack.pop() else {
            return Err(self.invalid("there is nothing on the stack to resolve"));
        };
        match item {
            StackItem::Ability {
                source,
                source_no,
                controller,
                effect,
                triggering_player,
                targets,
                target_specs,
                x,
                found_no,
                condition,
            } => {
                // 603.4: an intervening "if" that no longer holds makes the ability do nothing
                // (mutant `intervening-if-ignored`: it isn't checked).
                let condition_failed = condition.is_some_and(|c| {
                    !intervening_if_holds(&self.game, c, source, controller) && !self.bug(Mutant::InterveningIfIgnored)
                });
                // 608.2b: an ability whose every target has become illegal doesn't resolve: each
                // target is checked against what it had to be when chosen (a land still a land, a
                // card still in that graveyard), not only for still being the same object.
                let all_illegal = !targets.is_empty()
                    && targets.iter().enumerate().all(|(i, t)| {
                        !self.still_legal(*t)
                            || (!target_specs.is_empty()
                                && !self.target_legal(cast::spec_for(&target_specs, i), *t, controller, &targets))
                    })
                    && !self.bug(Mutant::IllegalTargetsStillResolve);
                if condition_failed {
                    self.rule_decision("603.4", Vec::new());
                } else if all_illegal {
                    self.rule_decision("608.2b", Vec::new());
                } else {
                    let mut ctx = resolve::Ctx::new(source, controller, targets, triggering_player);
                    ctx.source_no = source_no;
                    ctx.found_no = found_no;
                    ctx.x = x;
                    // Mutant `spell-named-as-its-card`: the card's characteristics, not the cast face's.
                    ctx.capture_target(&self.game, |o| {
                        if self.bug(Mutant::SpellNamedAsItsCard) { None } else { self.spell_face(o) }
                    });
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
                        // A spell cast with no targets chosen ("up to three", zero chosen) has no
                        // target to become illegal, and resolves.
                        !s.targets.is_empty()
                            && !targets.is_empty()
                            && targets.iter().enumerate().all(|(i, t)| {
                                !self.target_legal(cast::spec_for(&s.targets, i), *t, controller, &targets)
                            })
                    });
                if all_illegal {
                    self.rule_decision("608.2b", Vec::new());
                }
                if let Some(spell) = spell.filter(|_| !all_illegal) {
                    let mut ctx = resolve::Ctx::new(obj, controller, targets.clone(), None);
                    ctx.source_no = self.game.obj(obj).object_no;
                    ctx.x = x;
                    // Mutant `spell-named-as-its-card`: the card's characteristics, not the cast face's.
                    ctx.capture_target(&self.game, |o| {
                        if self.bug(Mutant::SpellNamedAsItsCard) { None } else { self.spell_face(o) }
                    });
                    self.run_effects(&mut ctx, &spell.effect)?;
                }
                if self.game.obj(obj).zone == ZoneRef::Stack {
                    if crate::rules::copy::ceases_to_exist_off_the_stack(self.game.obj(obj)) {
                        self.copy_leaves_the_stack(obj);
                    } else if is_permanent(cast_face) && !all_illegal {
                        self.apply_as_enters(&[obj], &[obj], controller)?;
                        self.move_card(obj, ZoneRef::Battlefield, Position::Top, 0, "608.3a");
                        self.game.objs[obj].controller = controller;
                    } else if crate::rules::adventure::exiled_as_it_resolves(face, !all_illegal)
                        && !self.bug(Mutant::AdventureToGraveyard)
                    {
                        // 715.3d: its controller exiles it instead, and may cast it later (mutant
                        // `adventure-to-graveyard`: it goes to the graveyard like any instant).
                        self.move_card(obj, ZoneRef::Exile, Position::Top, 0, "715.3d");
                        let flags = &mut self.game.objs[obj].flags;
                        flags.on_adventure = true;
                        flags.playable_by = Some(controller);
                    } else {
                        let clause = if all_illegal { "608.2b" } else { "608.2n" };
                        self.put_into_graveyard(obj, false, clause);
                    }
                }
            }
        }
        self.destroy_lethally_damaged()?;
        self.put_zero_loyalty_planeswalkers_into_graveyards();
        if let Some(group) = crate::rules::legend::legend_rule_groups(&self.game).first() {
            return Err(SimError::Unsupported {
                step: self.step,
                message: crate::rules::legend::describe(&self.game, group),
            });
        }
        self.apply_reveal_statics()?;
        self.flush_triggers()
    }

    /// 704.5g, a state-based action checked once the resolution is over: every creature with
    /// lethal damage marked on it is destroyed, all at the same time (704.3); an indestructible
    /// one stays (702.12b).
    pub(crate) fn destroy_lethally_damaged(&mut self) -> Result<(), SimError> {
        let mut doomed = Vec::new();
        for &o in self.game.zone(ZoneRef::Battlefield) {
            let obj = self.game.obj(o);
            if obj.flags.damage == 0 {
                continue;
            }
            let lethal = crate::rules::damage::has_lethal_damage(obj).ok_or_else(|| SimError::Unsupported {
                step: self.step,
                message: format!("{} has no printed toughness the oracle can read", obj.id),
            })?;
            // Mutant `lethal-damage-ignored`: the creature stays.
            if lethal && crate::rules::destroy::is_destroyed(&self.game, o) && !self.bug(Mutant::LethalDamageIgnored) {
                doomed.push(o);
            }
        }
        if !doomed.is_empty() {
            self.put_into_graveyards_at_once(&doomed, "704.5g");
        }
        Ok(())
    }

    /// 704.5i, a state-based action: every planeswalker with loyalty 0 is put into its owner's
    /// graveyard, all at the same time (704.3).
    pub(crate) fn put_zero_loyalty_planeswalkers_into_graveyards(&mut self) {
        // Mutant `zero-loyalty-planeswalker-stays`: the planeswalker stays on the battlefield.
        if self.bug(Mutant::ZeroLoyaltyPlaneswalkerStays) {
            return;
        }
        let doomed: Vec<ObjId> = self
            .game
            .zone(ZoneRef::Battlefield)
            .iter()
            .copied()
            .filter(|&o| crate::rules::loyalty::dies_to_zero_loyalty(self.game.obj(o)))
            .collect();
        if !doomed.is_empty() {
            self.put_into_graveyards_at_once(&doomed, "704.5i");
        }
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

    /// Puts an activated ability on the stack, with the targets chosen for it (602.2b).
    pub(crate) fn push_ability(
        &mut self,
        source: ObjId,
        controller: PlayerId,
        effect: Vec<Effect>,
        x: u32,
        targets: Vec<TargetChoice>,
        target_specs: Vec<Target>,
    ) {
        let source_no = self.game.obj(source).object_no;
        self.stack.push(StackItem::Ability {
            source,
            source_no,
            controller,
            effect,
            triggering_player: None,
            targets,
            target_specs,
            x,
            found_no: None,
            condition: None,
        });
    }

    /// 702.69a: gravestorm's ability resolves. `spell` (with `spell_no`, its object number as it
    /// was cast) is copied once for each permanent put into a graveyard from the battlefield this
    /// turn, counted now ([`crate::rules::gravestorm::copies`]); each copy is put on the stack as
    /// it is made, so the last one resolves first.
    pub(super) fn gravestorm_copies(
        &mut self,
        spell: ObjId,
        spell_no: u32,
        controller: PlayerId,
    ) -> Result<(), SimError> {
        let o = self.game.obj(spell);
        let on_stack = o.zone == ZoneRef::Stack
            && o.object_no == spell_no
            && self.stack.iter().any(|i| matches!(i, StackItem::Spell { obj, .. } if *obj == spell));
        if !on_stack {
            return Err(SimError::Unsupported {
                step: self.step,
                message: format!(
                    "{}'s gravestorm resolves after the spell left the stack: copying it from last known information is not modelled",
                    o.id
                ),
            });
        }
        let n = crate::rules::gravestorm::copies(&self.game, self.bug(Mutant::GravestormCountsOnlyThisRun));
        for _ in 0..n {
            self.copy_spell(spell, controller, "702.69a")?;
        }
        Ok(())
    }

    /// 707.10: puts a copy of the spell `of` on the stack, controlled by `controller` (its
    /// owner too, 112.2), with the original's choices (its half, X); its controller may keep the
    /// original's targets or choose new ones (707.10c), a [`Decision::Targets`] the judge reads
    /// off the copy's `copied` event. The copy is not cast (707.10): no `cast` event, no cast
    /// trigger. `clause` is the rule that made the copy (702.69a for gravestorm).
    fn copy_spell(&mut self, of: ObjId, controller: PlayerId, clause: &'static str) -> Result<(), SimError> {
        let Some((face, original, x)) = self.stack.iter().find_map(|i| match i {
            StackItem::Spell { obj, face, targets, x, .. } if *obj == of => Some((*face, targets.clone(), *x)),
            _ => None,
        }) else {
            return Ok(());
        };
        let copy = self.create_copy(of, controller);
        // It is put on the stack, on top (405.2).
        let stack = self.game.zone_mut(ZoneRef::Stack);
        stack.retain(|&o| o != copy);
        stack.insert(0, copy);
        self.game.objs[copy].spell_copy = true;
        let def = self.game.obj(copy).def.clone();
        let specs = crate::rules::casting::face_def(&def, face).spell.as_ref().map(|s| s.targets.clone());
        let targets = match specs {
            Some(specs) if !specs.is_empty() && !original.is_empty() => {
                let legal = self.target_options(copy, controller, &specs)?;
                let options = crate::rules::copy::target_options(&original, legal);
                let decision =
                    Decision::Targets { player: controller, source: copy, spell: false, options: options.clone() };
                let same = |a: &TargetChoice, b: &TargetChoice| match (a, b) {
                    (TargetChoice::Obj(x, _), TargetChoice::Obj(y, _)) => x == y,
                    _ => a == b,
                };
                let choice = self.decide(&decision)?;
                // The original's targets kept, named as the objects they are now (an exiled
                // target has a new object number): still the original's (707.10c).
                let kept = match &choice {
                    Choice::Targets(chosen) if !options.contains(chosen) => {
                        crate::rules::copy::kept_original(chosen, &original, same)
                    }
                    _ => None,
                };
                match (choice, kept) {
                    (_, Some(kept)) => kept,
                    (Choice::Targets(chosen), None) if options.contains(&chosen) => chosen,
                    (other, None) => {
                        let listed = options.iter().map(|o| self.describe_targets(o)).collect();
                        let chosen = super::describe_choice(&self.game, &other);
                        return Err(self.illegal(
                            Violation::new(
                                "707.10c",
                                format!(
                                    "{chosen} is neither the original's targets nor a legal new choice for the copy"
                                ),
                            ),
                            listed,
                        ));
                    }
                }
            }
            _ => original,
        };
        let (card, of_id, player) = (self.id(copy), self.id(of), self.pname(controller));
        // Mutant `spell-copies-cast`: the copy is logged as cast too.
        if self.bug(Mutant::SpellCopiesCast) {
            self.emit(crate::mutants::copy_logged_as_cast(&player, &card), "707.10");
        }
        let target_names = self.target_names(&targets);
        self.emit(Event::Copied { player, card, of: of_id, targets: target_names }, clause);
        self.push_spell(copy, face, targets, controller, x);
        Ok(())
    }

    /// 704.5e (707.10): a copy of a spell leaving the stack — resolved, or with every target gone
    /// (608.2b) — ceases to exist: no zone gets it, and no `moved` event is logged (mutant
    /// `spell-copy-to-graveyard`: it is put into its owner's graveyard, and stays there).
    fn copy_leaves_the_stack(&mut self, obj: ObjId) {
        if self.bug(Mutant::SpellCopyToGraveyard) {
            let o = &mut self.game.objs[obj];
            o.copy = false;
            o.spell_copy = false;
            self.put_into_graveyard(obj, false, "608.2n");
            return;
        }
        self.rule_decision("704.5e", Vec::new());
        let owner = self.game.obj(obj).owner;
        crate::rules::zones::move_object(&mut self.game, obj, ZoneRef::Graveyard(owner), Position::Top, 0);
        self.game.zone_mut(ZoneRef::Graveyard(owner)).retain(|&o| o != obj);
    }

    /// The half of a split card being cast, for a spell on the stack.
    pub(crate) fn spell_face(&self, obj: ObjId) -> Option<usize> {
        self.stack.iter().find_map(|item| match item {
            StackItem::Spell { obj: o, face, .. } if *o == obj => *face,
            _ => None,
        })
    }
}
