//! Each decision of the replay answered from the observed log.

use std::collections::{BTreeMap, BTreeSet};

use super::splits::{Guide, MAX_SPLITS, guided_split, legal_splits};
use super::{MAX_READINGS, Observed};
use crate::model::{Game, ObjId, ZoneRef};
use crate::outcome::Event;
use crate::rules::search::assign_parts;
use crate::rules::verdicts;
use crate::sim::{Choice, Decider, Decision, MayAbout, SimError};

/// The most found cards of a merged search whose splits are counted even in a replay made
/// without `count_splits`. Listing the splits of a small find costs less than the second replay
/// `judge` otherwise makes to count them when the first doesn't match, and most rejected
/// observations of the `search_request` fuzz target took that second replay (issue 13); a large
/// find's splits (the `zone_state` target's hundreds of cards) are still listed only when needed.
const SPLITS_COUNTED_AT_ONCE: usize = 8;

impl Decider for Observed<'_> {
    /// The replay showed cards: the observed log's matching entry is accounted for, so a later
    /// chance node ([`Decision::Random`] for a reveal or a look) reads the entries after it.
    fn note_shown(&mut self, step: usize, event: &Event) {
        let same = |e: &Event| match (e, event) {
            (Event::Revealed { player: a, cards: x }, Event::Revealed { player: b, cards: y })
            | (Event::LookedAt { player: a, cards: x }, Event::LookedAt { player: b, cards: y }) => {
                a == b && x.iter().collect::<BTreeSet<_>>() == y.iter().collect::<BTreeSet<_>>()
            }
            _ => false,
        };
        self.take(step, same);
    }

    /// The "may pay life" is optional in the option-set check (`forced`: an engine needn't ask);
    /// one this replay didn't ask is listed too, so an engine that did ask it matches it.
    fn note_offer_optional(&mut self, game: &Game, step: usize, decision: &Decision, asked: bool) {
        let Decision::May { card: Some(card), .. } = decision else { return };
        if !self.record_offers {
            return;
        }
        if asked {
            if let Some(&i) = self.pay_life_seen.get(card) {
                self.seen[i].forced = true;
            }
        } else if let Some(mut legal) = crate::offers::legal_at(game, step, decision) {
            legal.forced = true;
            self.seen.push(legal);
        }
    }

    fn note_scripted(&mut self, game: &Game, step: usize, decision: &Decision, choice: &Choice) {
        self.record_legal(game, step, decision);
        let who = game.players[decision.player()].name.clone();
        match (decision, choice) {
            (Decision::May { player, about: MayAbout::Search, .. }, Choice::Bool(true)) => {
                self.reserve_search(game, step, *player, true);
            }
            (Decision::May { player, about: MayAbout::PayLife, card: Some(c) }, Choice::Bool(true)) => {
                let pred = paid_life_as_enters(game, *player, *c);
                self.take(step, pred);
            }
            (Decision::May { about: MayAbout::Mill, .. }, Choice::Bool(true)) => {
                self.take(step, milled);
            }
            // The `chose` entry is claimed by the ChooseCard decision that follows.
            (Decision::May { about: MayAbout::PutOntoBattlefield, .. }, _) => {}
            (Decision::May { about: MayAbout::PileToHand, .. }, _) => {}
            (Decision::May { card: Some(c), .. }, Choice::Bool(true)) => {
                let id = game.obj(*c).id_string();
                self.take(step, |e| matches!(e, Event::Counters { card, .. } if *card == id));
            }
            (Decision::Find { searcher, .. }, _) => {
                // The `searched` event names the searcher, not a player controlling them (723.5).
                let searcher_name = game.players[*searcher].name.clone();
                self.searched_by(step, *searcher, &searcher_name);
            }
            (Decision::ChooseCard { .. }, Choice::Cards(c)) => {
                // The entry that records the scripted card, wherever the log lists it.
                let ids: Vec<String> = c.iter().map(|&o| game.obj(o).id_string()).collect();
                for id in &ids {
                    self.take(step, |e| matches!(e, Event::Chose { player, card } if *player == who && card == id));
                }
            }
            (Decision::Sacrifice { .. }, Choice::Cards(c)) => {
                let ids: Vec<String> = c.iter().map(|&o| game.obj(o).id_string()).collect();
                self.take(
                    step,
                    |e| matches!(e, Event::Sacrificed { player, card } if *player == who && ids.contains(card)),
                );
            }
            (Decision::Dredge { draw: n, .. }, Choice::Cards(c)) if !c.is_empty() => {
                self.take(step, |e| matches!(e, Event::Dredged { player, draw, .. } if *player == who && draw == n));
            }
            (Decision::Discard { .. }, Choice::Cards(c)) => {
                for &card in c {
                    let id = game.obj(card).id_string();
                    self.take(
                        step,
                        |e| matches!(e, Event::Discarded { player, card, .. } if *player == who && *card == id),
                    );
                }
            }
            (Decision::Name { .. }, Choice::Name(n)) => {
                self.take(step, |e| matches!(e, Event::Named { player, name } if *player == who && name == n));
            }
            (Decision::CastFree { .. }, Choice::Cast(Some((card, _)))) => {
                let id = game.obj(*card).id_string();
                self.take(step, |e| matches!(e, Event::Cast { player, card, .. } if *player == who && *card == id));
            }
            (Decision::Targets { source, .. }, _) => {
                let key = (step, game.obj(*source).id_string());
                *self.targets_read.entry(key).or_default() += 1;
            }
            _ => {}
        }
    }

    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        self.record_legal(game, step, decision);
        let name = |p: usize| game.players[p].name.clone();
        match decision {
            // Each "yes" claims the log entry it corresponds to, so a second "may" in the same step
            // needs a second entry.
            Decision::May { player, about: MayAbout::Search, .. } => {
                Ok(Choice::Bool(self.reserve_search(game, step, *player, false)))
            }
            Decision::May { about: MayAbout::BeginOnBattlefield, card, .. } => {
                let id = card.map(|c| game.obj(c).id_string()).unwrap_or_default();
                Ok(Choice::Bool(
                    self.find(
                        step,
                        |e| matches!(e, Event::Moved { card, to, .. } if *card == id && to == "battlefield"),
                    )
                    .is_some(),
                ))
            }
            // A `lost_life` entry of the shock land's amount by its controller-to-be means it was
            // paid (614.1c); each "yes" claims one. The entry doesn't name the land; the land's
            // observed tapped state does: untapped, it was paid for; tapped, it wasn't — when a
            // search put it onto the battlefield untapped (unpaid, it entered tapped, 110.5b; put
            // there tapped, as by Farseek, it may still have been paid for: the ruling L012-03).
            // Only otherwise, or when the land isn't observed on the battlefield, is which one was paid a
            // reading `judge` revisits: a binary reading per land needs 2^n replays for n lands
            // entering at once, past `judge`'s 64 from seven on, which rejected legal outcomes.
            Decision::May { player, about: MayAbout::PayLife, card: Some(c) } => {
                let pred = paid_life_as_enters(game, *player, *c);
                let yes = match self.observed_tapped(game, *c) {
                    Some(false) => self.find(step, &pred).is_some(),
                    Some(true) if self.entering_untapped.contains(c) => false,
                    _ => self.find(step, &pred).is_some() && self.alternative(2) == 0,
                };
                Ok(Choice::Bool(yes && self.take_any(step, pred).is_some()))
            }
            // "You may have [a player] mill" (608.2d): a card moved from a library to a graveyard
            // in the step means yes — unless it is another mill's: a reading `judge` revisits.
            // Each "yes" claims one.
            // "You may reveal a card you own from outside the game" (Burning Wish): the player's
            // `chose` entry of this step naming a card they have outside the game means yes (the
            // card choice that follows claims it).
            Decision::May { player, about: MayAbout::RevealFromOutside, .. } => {
                let who = name(*player);
                let outside: BTreeSet<String> =
                    game.zone(ZoneRef::Outside(*player)).iter().map(|&o| game.obj(o).id_string()).collect();
                let pred =
                    |e: &Event| matches!(e, Event::Chose { player, card } if *player == who && outside.contains(card));
                Ok(Choice::Bool(self.find(step, pred).is_some()))
            }
            Decision::May { about: MayAbout::Mill, .. } => {
                let yes = self.find(step, milled).is_some() && self.alternative(2) == 0;
                Ok(Choice::Bool(yes && self.take_any(step, milled).is_some()))
            }
            // "You may put a card from your hand onto the battlefield": a card of that player's
            // moved from their hand to the battlefield in the step means yes (the `chose` entry
            // naming it is read by the choice that follows).
            Decision::May { player, about: MayAbout::PutOntoBattlefield, .. } => {
                let hand = format!("{}.hand", name(*player));
                Ok(Choice::Bool(
                    self.find(
                        step,
                        |e| matches!(e, Event::Moved { from, to, .. } if *from == hand && to == "battlefield"),
                    )
                    .is_some(),
                ))
            }
            // 700.3: the pile holding the card went to the player's hand when the log moves that
            // card there in this step.
            Decision::May { player, about: MayAbout::PileToHand, card: Some(c) } => {
                let id = game.obj(*c).id_string();
                let hand = format!("{}.hand", name(*player));
                let to_hand = |e: &Event| matches!(e, Event::Moved { card, to, .. } if *card == id && *to == hand);
                Ok(Choice::Bool(self.find(step, to_hand).is_some()))
            }
            Decision::May { card, .. } => {
                // A `counters` entry for the card means yes — unless it is a later one's (the
                // entries are unordered): a reading `judge` revisits.
                let id = card.map(|c| game.obj(c).id_string());
                let pred = |e: &Event| matches!(e, Event::Counters { card, .. } if Some(card) == id.as_ref());
                let yes = self.find(step, pred).is_some() && self.alternative(2) == 0;
                Ok(Choice::Bool(yes && self.take_any(step, pred).is_some()))
            }
            Decision::Find { searcher, parts, cap, looked_at, to, reveal, exiled_instead, .. } => {
                let who = name(*searcher);
                let logged = if self.searches_logged {
                    self.searched_by(step, *searcher, &who)
                } else {
                    Some(Event::Searched {
                        player: who.clone(),
                        zones: Vec::new(),
                        library_top: None,
                        found: {
                            let found = self.found_unlogged(game, step, parts, to);
                            found.iter().map(|&c| game.obj(c).id_string()).collect()
                        },
                    })
                };
                let Some(Event::Searched { found, .. }) = logged else {
                    let (clause, why) = verdicts::unlogged_search_clause(
                        cap.is_some(),
                        parts.iter().any(|p| p.quality == crate::rules::search::Quality::Undefined),
                        looked_at.is_empty(),
                    );
                    return Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to search but the log has no `searched` event for it{why}"),
                        clause,
                    });
                };
                let cards = found.iter().map(|id| self.obj(id, step)).collect::<Result<Vec<_>, _>>()?;
                if parts.len() < 2 {
                    let split = assign_parts(game, &cards, parts);
                    self.note_entering_untapped(&split, to);
                    return Ok(Choice::Parts(split));
                }
                // Several splits may be legal but lead to different outcomes (the instructions
                // put cards in different places); the replay takes the one `split_picks` says,
                // and `judge` tries the others when the first doesn't match the observation.
                // The first is the split `assign_parts` finds; the others follow.
                // The split that sends each card by an instruction that puts it where the
                // observation says it went comes first, when it is legal: with several searchers'
                // merged searches (701.23i) a wrong split of one search can stop the replay
                // (an unmodelled card put onto the battlefield) before the others are compared,
                // so trying splits one search at a time may never reach the matching combination.
                let names = game.names();
                // Where the observation put each found card, looked up once (the splits ask often).
                let went_from = |c: ObjId| {
                    let obj = game.obj(c);
                    self.destination(step, &obj.id, &obj.zone.display(&names))
                };
                let went: BTreeMap<ObjId, Option<String>> = cards.iter().map(|&c| (c, went_from(c))).collect();
                let destination = |c: ObjId| match went.get(&c) {
                    Some(d) => d.clone(),
                    None => went_from(c),
                };
                // Cards the log reveals in this step, but for the reveals the replay has already
                // read (a "reveal the top card" earlier in the resolution): the search's own
                // reveal comes after its decision, and a card it shows was most likely found by an
                // instruction that reveals (701.23e; a replacement that reveals, such as Darksteel
                // Colossus's, shows one too). Where destinations don't tell the instructions
                // apart, that does; it only picks the split tried first.
                let revealed: BTreeSet<&str> = self
                    .events
                    .iter()
                    .enumerate()
                    .filter(|&(i, e)| e.step == step && !self.consumed[i])
                    .map(|(_, e)| e)
                    .flat_map(|e| match &e.event {
                        Event::Revealed { cards, .. } => cards.iter().map(String::as_str).collect(),
                        _ => Vec::new(),
                    })
                    .collect();
                let shown = |c: ObjId| revealed.contains(game.obj(c).id.as_str());
                // Where each instruction's cards go after Opposition Agent's replacement: all into
                // exile when it exiles them instead (614.1a), so the destination doesn't tell the
                // instructions apart there and the reveals do. (A fuzz input with two such
                // instructions took 20-50 replays before this.)
                let exile_all;
                let guide_to: &[crate::cards::instructions::Destination] = if *exiled_instead {
                    exile_all = vec![crate::cards::instructions::Destination::Exile; to.len()];
                    &exile_all
                } else {
                    to
                };
                let guide = Guide { to: guide_to, reveal, destination: &destination, revealed: &shown };
                let guided = guided_split(game, &cards, parts, &guide, &names);
                if !self.count_splits && cards.len() > SPLITS_COUNTED_AT_ONCE {
                    // Only the split the replay takes first (the one below, before any other is
                    // listed); the count stands at 1 until the replay is made again counting.
                    let split = guided.unwrap_or_else(|| assign_parts(game, &cards, parts));
                    self.splits_uncounted = true;
                    self.split_counts.push(1);
                    self.note_entering_untapped(&split, to);
                    return Ok(Choice::Parts(split));
                }
                let first = assign_parts(game, &cards, parts);
                let mut splits: Vec<Vec<Vec<ObjId>>> = guided.into_iter().collect();
                if !splits.contains(&first) {
                    splits.push(first);
                }
                let group = |c: ObjId| {
                    let shown = if shown(c) { " (revealed)" } else { "" };
                    Some(format!("{}{shown}", destination(c).unwrap_or_default()))
                };
                let others = legal_splits(game, &cards, parts, MAX_SPLITS, &group);
                for s in others {
                    if !splits.contains(&s) {
                        splits.push(s);
                    }
                }
                let k = self.split_counts.len();
                self.split_counts.push(splits.len());
                let pick = self.split_picks.get(k).copied().unwrap_or(0).min(splits.len() - 1);
                let split = splits.swap_remove(pick);
                self.note_entering_untapped(&split, to);
                Ok(Choice::Parts(split))
            }
            Decision::OrderTriggers { player, triggers } => {
                // The observed `triggered` events of this player, in log order, are the order the
                // triggers went on the stack; match each to one of the pending triggers.
                let who = name(*player);
                let mut order = Vec::new();
                let mut used = vec![false; triggers.len()];
                let mut taken = Vec::new();
                for (i, e) in self.events.iter().enumerate() {
                    if self.consumed[i] || e.step != step {
                        continue;
                    }
                    if let Event::Triggered { source, controller, on, player, .. } = &e.event
                        && *controller == who
                        && let Some(k) = (0..triggers.len()).find(|&k| {
                            let (src, event, by) = triggers[k];
                            !used[k]
                                && *game.obj(src).id == **source
                                && (on.is_empty() || event == on.as_str())
                                && by.map(|p| game.players[p].name.as_str()) == player.as_deref()
                        })
                    {
                        used[k] = true;
                        order.push(k);
                        taken.push(i);
                    }
                }
                // A trigger the log doesn't report may be one the replay will remove from the
                // stack for want of a legal target (603.3d, not logged): the reported ones keep
                // their logged order and the others follow in the order they triggered. If one of
                // those does go on the stack, the comparison names it as missing.
                order.extend(used.iter().enumerate().filter(|(_, u)| !**u).map(|(k, _)| k));
                for i in taken {
                    self.consumed[i] = true;
                }
                Ok(Choice::Order(order))
            }
            // Several cards: the player's `chose` entries of this step naming options, `count` of
            // them; any not reported are taken from the options, and the comparison names them.
            // Any number (700.3: every `chose` entry of this player in this step naming one of the
            // cards is in the pile they made): all of them, and none is a choice too.
            Decision::ChooseCard { player, options, count, any_number } if *any_number || *count != 1 => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let limit = if *any_number { options.len() } else { *count };
                let taken = self.take_some(
                    step,
                    limit,
                    |e| matches!(e, Event::Chose { player, card } if *player == who && ids.contains(card)),
                );
                let mut picked = self.cards_named(game, step, &taken, |e| match e {
                    Event::Chose { card, .. } => Some(card),
                    _ => None,
                })?;
                if !*any_number {
                    fill_up_to(&mut picked, options, *count);
                }
                Ok(Choice::Cards(picked))
            }
            Decision::ChooseCard { player, options, .. } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let fits = |e: &Event| matches!(e, Event::Chose { card, .. } if ids.contains(card));
                match self.take_fitting(step, |e| matches!(e, Event::Chose { player, .. } if *player == who), fits) {
                    Some(Event::Chose { card, .. }) => Ok(Choice::Cards(vec![self.obj(&card, step)?])),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to choose a card but the log has no `chose` event"),
                        clause: "608.2d",
                    }),
                }
            }
            // 107.1c: every `sacrificed` entry of this player in this step naming one of the
            // options is part of the one choice (none at all is a choice too).
            Decision::Sacrifice { player, options, any_number: true } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let taken = self.take_some(
                    step,
                    options.len(),
                    |e| matches!(e, Event::Sacrificed { player, card } if *player == who && ids.contains(card)),
                );
                let picked = self.cards_named(game, step, &taken, |e| match e {
                    Event::Sacrificed { card, .. } => Some(card),
                    _ => None,
                })?;
                Ok(Choice::Cards(picked))
            }
            Decision::Sacrifice { player, options, .. } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let fits = |e: &Event| matches!(e, Event::Sacrificed { card, .. } if ids.contains(card));
                match self.take_fitting(step, |e| matches!(e, Event::Sacrificed { player, .. } if *player == who), fits)
                {
                    Some(Event::Sacrificed { card, .. }) => Ok(Choice::Cards(vec![self.obj(&card, step)?])),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to sacrifice a permanent but the log has no `sacrificed` event"),
                        clause: "701.21a",
                    }),
                }
            }
            Decision::Dredge { player, draw, options } => {
                // The `draw` number says which of the player's draws in this step was replaced.
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let n = *draw;
                match self
                    .take(step, |e| {
                        matches!(e, Event::Dredged { player, card, draw } if *player == who && *draw == n && ids.contains(card))
                    })
                    .cloned()
                {
                    Some(Event::Dredged { card, .. }) => Ok(Choice::Cards(vec![self.obj_in(game, &card, step)?])),
                    _ => Ok(Choice::Cards(Vec::new())),
                }
            }
            Decision::Discard { player, options, count, optional } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id_string()).collect();
                let mut picked = Vec::new();
                let taken = self.take_some(
                    step,
                    *count,
                    |e| matches!(e, Event::Discarded { player, card } if *player == who && ids.contains(card)),
                );
                for e in taken {
                    if let Event::Discarded { card, .. } = e {
                        let o = self.obj_in(game, &card, step)?;
                        if !picked.contains(&o) {
                            picked.push(o);
                        }
                    }
                }
                if *optional && picked.is_empty() {
                    return Ok(Choice::Cards(picked)); // The optional cost wasn't paid.
                }
                fill_up_to(&mut picked, options, *count);
                Ok(Choice::Cards(picked))
            }
            Decision::Name { player, options, .. } => {
                let who = name(*player);
                let fits = |e: &Event| matches!(e, Event::Named { name, .. } if options.contains(name));
                match self.take_fitting(step, |e| matches!(e, Event::Named { player, .. } if *player == who), fits) {
                    Some(Event::Named { name, .. }) => Ok(Choice::Name(name)),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to choose a card name but the log has no `named` event"),
                        clause: "709.4a",
                    }),
                }
            }
            Decision::CastFree { player, options, free, .. } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&(o, _)| game.obj(o).id_string()).collect();
                // A matching `cast` entry may also be a later such decision's (entries are
                // unordered): each one, or none, is a reading `judge` may revisit.
                let pred = |e: &Event| matches!(e, Event::Cast { player, card, without_paying_mana_cost, .. } if *player == who && ids.contains(card) && without_paying_mana_cost == free);
                let c = self.candidates(step, pred);
                let cast = match self.alternative((c.len() + 1).min(MAX_READINGS)) {
                    k if k < c.len() => {
                        self.consumed[c[k]] = true;
                        Some(self.events[c[k]].event.clone())
                    }
                    _ => None,
                };
                match cast {
                    Some(Event::Cast { card, face, .. }) => {
                        let o = self.obj_in(game, &card, step)?;
                        let def = &game.obj(o).def;
                        let half = face.as_ref().and_then(|f| def.face_named(f));
                        Ok(Choice::Cast(Some((o, half))))
                    }
                    _ => Ok(Choice::Cast(None)),
                }
            }
            // 601.2c: the targets of a spell cast during a resolution are the ones its `cast`
            // event lists; an engine that doesn't report them (`cast_targets`) leaves each legal
            // choice a reading `judge` tries.
            Decision::Targets { source, options, spell: true, .. } => {
                let sid = game.obj(*source).id_string();
                let k = self.targets_read.get(&(step, sid.clone())).copied().unwrap_or(0);
                *self.targets_read.entry((step, sid.clone())).or_default() += 1;
                let reported = self
                    .cast_targets_logged
                    .then(|| {
                        self.events
                            .iter()
                            .filter(|e| e.step == step)
                            .filter_map(|e| match &e.event {
                                Event::Cast { card, targets, .. } if *card == sid => Some(targets.clone()),
                                _ => None,
                            })
                            .nth(k)
                    })
                    .flatten();
                match reported {
                    Some(reported) => self.read_targets(game, step, &reported),
                    None => Ok(Choice::Targets(self.pick_alternative(options).clone())),
                }
            }
            Decision::Targets { source, options, .. } => {
                let sid = game.obj(*source).id_string();
                let k = self.targets_read.get(&(step, sid.clone())).copied().unwrap_or(0);
                *self.targets_read.entry((step, sid.clone())).or_default() += 1;
                let reported = self
                    .events
                    .iter()
                    .filter(|e| e.step == step)
                    .filter_map(|e| match &e.event {
                        Event::Triggered { source, targets, .. } if *source == sid => Some(targets.clone()),
                        // A copy of a spell (707.10c): its targets are on its `copied` event.
                        Event::Copied { card, targets, .. } if *card == sid => Some(targets.clone()),
                        _ => None,
                    })
                    .nth(k);
                // A copy of a spell the rules make (707.10) that the log doesn't show: the
                // engine made fewer copies. The only copies of spells the oracle makes are
                // gravestorm's, so the count is the rule it breaks (702.69a).
                if reported.is_none() && game.obj(*source).spell_copy {
                    return Err(SimError::NoAnswer {
                        step,
                        message: format!(
                            "the rules copy the spell as `{sid}` (gravestorm), but the log has no `copied` event for it"
                        ),
                        clause: "702.69a",
                    });
                }
                let Some(reported) = reported else {
                    return Ok(Choice::Targets(options.first().cloned().unwrap_or_default()));
                };
                self.read_targets(game, step, &reported)
            }
            Decision::SearchLimit { player, options } => {
                // 616.1: the limit the searcher applied last is the one their `searched` event
                // reports (the event its "may" claimed, else their next one of the step); the
                // search checks it against the limits that apply.
                let who = name(*player);
                let event = match self.reserved.get(player) {
                    Some(&i) => Some(i),
                    None => self.find(step, |e| matches!(e, Event::Searched { player, .. } if *player == who)),
                };
                let logged = event.and_then(|i| match &self.events[i].event {
                    Event::Searched { library_top, .. } => *library_top,
                    _ => None,
                });
                match logged {
                    Some(n) => Ok(Choice::Limit(n)),
                    // The engine doesn't report limits: each one the searcher could apply is a
                    // reading.
                    None if !self.searches_logged || !self.library_top_logged => {
                        let k = self.alternative(options.len());
                        Ok(Choice::Limit(options.get(k).copied().unwrap_or(0)))
                    }
                    None => Ok(Choice::Limit(options.first().copied().unwrap_or(0))),
                }
            }
            Decision::Replacement { options, card, .. } => {
                // 616.1: which effect applied shows in where the card went (a library, exile)
                // and whether it was revealed (Darksteel Colossus); the top or the bottom of a
                // library doesn't show in the log, so the others are replayed when the first
                // doesn't match (as merged-search splits are).
                let id = game.obj(*card).id_string();
                let from = game.zone_name(game.obj(*card).zone);
                let to = self.destination(step, &id, &from).unwrap_or_default();
                let revealed = self.events.iter().any(|e| {
                    e.step == step && matches!(&e.event, Event::Revealed { cards, .. } if cards.contains(&id))
                });
                let fits = |r: &crate::rules::replacement::GraveyardReplacement| {
                    use crate::rules::replacement::GraveyardReplacement as R;
                    match r {
                        R::FlashbackExile | R::ExileInstead => to == "exile",
                        R::ShuffleIntoLibrary => revealed && to.ends_with(".library"),
                        R::LibraryTop | R::LibraryBottom => !revealed && to.ends_with(".library"),
                    }
                };
                let mut ranked = options.clone();
                ranked.sort_by_key(|r| !fits(r));
                Ok(Choice::Name(self.pick_alternative(&ranked).key().to_string()))
            }
            Decision::CostOrder { player, parts } => {
                // 601.2h: the order the log shows each part being paid in; the other orders are
                // replayed when that one doesn't match.
                use crate::rules::casting::CostPart;
                let library = game.zone_name(ZoneRef::Library(*player));
                let first_at = |part: &CostPart| -> usize {
                    let hit = |e: &Event| match (part, e) {
                        (CostPart::DiscardThis(c) | CostPart::Discard(c), Event::Discarded { card, .. })
                        | (CostPart::SacrificeThis(c) | CostPart::Sacrifice(c), Event::Sacrificed { card, .. }) => {
                            **card == *game.obj(*c).id
                        }
                        (CostPart::Mill(_), Event::Moved { from, .. }) => *from == library,
                        _ => false,
                    };
                    self.events.iter().position(|e| e.step == step && hit(&e.event)).unwrap_or(usize::MAX)
                };
                let mut seen: Vec<usize> = (0..parts.len()).collect();
                seen.sort_by_key(|&i| first_at(&parts[i]));
                let mut orders = vec![seen.clone()];
                if let Ok(all) = crate::explore::options(game, decision, 1_000) {
                    orders.extend(all.into_iter().filter_map(|c| match c {
                        Choice::Order(o) if o != seen => Some(o),
                        _ => None,
                    }));
                }
                Ok(Choice::Order(self.pick_alternative(&orders).clone()))
            }
            Decision::Random { player, purpose, from, count } => {
                let library = game.zone_name(ZoneRef::Library(*player));
                let from_ids: BTreeSet<&str> = from.iter().map(|&o| game.obj(o).id.as_ref()).collect();
                let mut picked: Vec<ObjId> = Vec::new();
                if *purpose == "draw" {
                    let hand = game.zone_name(ZoneRef::Hand(*player));
                    if let Some(Event::Moved { card, .. }) = self.take_any(step, |e| matches!(e, Event::Moved { card, from, to } if *from == library && *to == hand && from_ids.contains(card.as_str())))
                    {
                        picked.push(self.obj(&card, step)?);
                    }
                } else if *purpose == "mill" {
                    // Milled cards are the ones the log moves from this library to a graveyard
                    // (or where a replacement sent them) in this step — not into the hand, which
                    // is a draw.
                    let hand = game.zone_name(ZoneRef::Hand(*player));
                    let milled = self.take_some(step, *count, |e| matches!(e, Event::Moved { card, from, to } if *from == library && *to != hand && from_ids.contains(card.as_str())));
                    for e in milled {
                        if let Event::Moved { card, .. } = e {
                            picked.push(self.obj(&card, step)?);
                        }
                    }
                } else if *purpose == "reveal" || *purpose == "look" {
                    // A reveal reads a `revealed` entry, a look a `looked_at` one (701.20a, e),
                    // however the log orders the two kinds within the step; when several could be
                    // this one, which is a reading `judge` may revisit. The entry is accounted for
                    // when the replay logs it (`note_shown`).
                    let who = name(*player);
                    let reveal = *purpose == "reveal";
                    let shown = self.peek_any(step, |e| match e {
                        Event::Revealed { player, cards } if reveal => {
                            *player == who && cards.iter().any(|c| from_ids.contains(c.as_str()))
                        }
                        Event::LookedAt { player, cards } if !reveal => {
                            *player == who && cards.iter().any(|c| from_ids.contains(c.as_str()))
                        }
                        _ => false,
                    });
                    if let Some(Event::Revealed { cards, .. } | Event::LookedAt { cards, .. }) = shown {
                        for c in cards {
                            if from_ids.contains(c.as_str()) {
                                picked.push(self.obj(&c, step)?);
                            }
                        }
                    }
                } else {
                    // The window holds whatever this step's searches of the library found there
                    // (several simultaneous searchers share one window); the rest is arbitrary.
                    let reserved: BTreeSet<usize> = self.reserved.values().copied().collect();
                    for (i, e) in self.events.iter().enumerate() {
                        if e.step != step || (self.consumed[i] && !reserved.contains(&i)) {
                            continue;
                        }
                        if let Event::Searched { zones, found, .. } = &e.event
                            && zones.contains(&library)
                        {
                            for id in found {
                                if from_ids.contains(id.as_str())
                                    && let Some(&o) = self.ids.get(id)
                                    && !picked.contains(&o)
                                {
                                    picked.push(o);
                                }
                            }
                        }
                    }
                    // 701.23a: the searcher looked at the window's cards, so those left in an
                    // unshuffled library are the ones the observation says someone knows there;
                    // 701.20b: they stay on top, so later draws and mills take them first (until
                    // the library is shuffled).
                    let add = |id: &str, picked: &mut Vec<ObjId>| {
                        if from_ids.contains(id)
                            && let Some(&o) = self.ids.get(id)
                            && !picked.contains(&o)
                        {
                            picked.push(o);
                        }
                    };
                    let observed = self.beyond_log();
                    let known_there = observed
                        .zones
                        .get(&library)
                        .into_iter()
                        .flatten()
                        .filter(|id| observed.known.get(id.as_str()).is_some_and(|who| !who.is_empty()));
                    for id in known_there {
                        add(id, &mut picked);
                    }
                    let owner = name(*player);
                    // Without `searched` events, the cards moved out of the library in this step
                    // (the found ones among them) were in the window too.
                    let start = self
                        .events
                        .iter()
                        .position(|e| {
                            e.step == step
                                && (!self.searches_logged
                                    || matches!(&e.event, Event::Searched { zones, .. } if zones.contains(&library)))
                        })
                        .unwrap_or(self.events.len());
                    for e in &self.events[start..] {
                        match &e.event {
                            Event::Shuffled { library: l } if *l == owner => break,
                            Event::Moved { card, from, .. } if *from == library => add(card, &mut picked),
                            _ => {}
                        }
                    }
                }
                if *purpose != "draw" && *purpose != "mill" {
                    // What the log doesn't show (an engine that doesn't report `looked_at` or
                    // `known`): the cards looked at, revealed or searched on top of the library and
                    // left there are still its top cards at the end unless something moved or
                    // shuffled them, so the observed final library is the best next guess.
                    let top = self.beyond_log().zones.get(&library).into_iter().flatten();
                    for id in top {
                        if from_ids.contains(id.as_str())
                            && let Some(&o) = self.ids.get(id.as_str())
                            && !picked.contains(&o)
                        {
                            picked.push(o);
                        }
                    }
                }
                picked.truncate(*count);
                fill_up_to(&mut picked, from, *count);
                Ok(Choice::Cards(picked))
            }
        }
    }
}

/// The `lost_life` entry that records `player` paying a shock land's "as enters" life (614.1c):
/// that player losing exactly the amount the card asks for.
impl Observed<'_> {
    /// Remembers the found cards a search puts onto the battlefield untapped, for the shock-land
    /// reading of [`MayAbout::PayLife`].
    fn note_entering_untapped(&mut self, split: &[Vec<ObjId>], to: &[crate::cards::instructions::Destination]) {
        for (cards, to) in split.iter().zip(to) {
            if *to == crate::cards::instructions::Destination::Battlefield {
                self.entering_untapped.extend(cards.iter().copied());
            }
        }
    }

    /// Whether the observation shows `card` tapped on the battlefield: `None` when it doesn't
    /// show it on the battlefield or the engine doesn't report tapped permanents.
    fn observed_tapped(&self, game: &Game, card: ObjId) -> Option<bool> {
        let id: &str = &game.obj(card).id;
        let observed = self.beyond_log();
        let on_battlefield = observed.zones.get("battlefield").is_some_and(|cards| cards.iter().any(|c| c == id));
        (self.tapped_observed && on_battlefield).then(|| observed.tapped.iter().any(|c| c == id))
    }
}

fn paid_life_as_enters(game: &Game, player: usize, card: usize) -> impl Fn(&Event) -> bool {
    let who = game.players[player].name.clone();
    let amount = crate::rules::replacement::as_enters_life_payment(game.obj(card)).unwrap_or(0);
    move |e: &Event| matches!(e, Event::LostLife { player, amount: a } if *player == who && *a == amount)
}

/// A `moved` entry of a card from a library to a graveyard: what a mill logs (701.17a).
fn milled(e: &Event) -> bool {
    matches!(e, Event::Moved { from, to, .. } if from.ends_with(".library") && to.ends_with(".graveyard"))
}

/// Completes `picked` to `count` cards with the first of `options` not in it yet: cards a log
/// didn't report, which the comparison then names as missing.
fn fill_up_to(picked: &mut Vec<ObjId>, options: &[ObjId], count: usize) {
    for &o in options {
        if picked.len() >= count {
            break;
        }
        if !picked.contains(&o) {
            picked.push(o);
        }
    }
}

impl Observed<'_> {
    /// Targets as a log lists them (player names and card ids), as objects of the replay.
    fn read_targets(&self, game: &Game, step: usize, reported: &[String]) -> Result<Choice, SimError> {
        let names = game.names();
        let mut chosen = Vec::new();
        for t in reported {
            if let Some(p) = names.iter().position(|n| n == t) {
                chosen.push(crate::sim::TargetChoice::Player(p));
            } else {
                let o = self.obj_in(game, t, step)?;
                chosen.push(crate::sim::TargetChoice::Obj(o, game.obj(o).object_no));
            }
        }
        Ok(Choice::Targets(chosen))
    }

    /// The objects the taken log entries name (`card_of` reads the card off an entry), each once.
    fn cards_named(
        &self,
        game: &Game,
        step: usize,
        taken: &[Event],
        card_of: impl Fn(&Event) -> Option<&String>,
    ) -> Result<Vec<ObjId>, SimError> {
        let mut picked = Vec::new();
        for id in taken.iter().filter_map(card_of) {
            let o = self.obj_in(game, id, step)?;
            if !picked.contains(&o) {
                picked.push(o);
            }
        }
        Ok(picked)
    }

    /// Records the legal options of `decision` for the option-set check (`offers`), noting where a
    /// "may pay life" of a card entering is ([`Decider::note_offer_optional`]).
    fn record_legal(&mut self, game: &Game, step: usize, decision: &Decision) {
        if !self.record_offers {
            return;
        }
        let Some(legal) = crate::offers::legal_at(game, step, decision) else { return };
        if let Decision::May { about: MayAbout::PayLife, card: Some(card), .. } = decision {
            self.pay_life_seen.insert(*card, self.seen.len());
        }
        self.seen.push(legal);
    }
}
