//! Searching (701.23): one search of one or more merged instructions by one or more searchers,
//! what each searcher looks at (a library limited to its top N, 701.23f), the finds the rules
//! allow, and where found cards go. The rule decisions are in [`crate::rules::search`].

use std::collections::{BTreeMap, BTreeSet};

use super::resolve::Ctx;
use super::{Choice, Decision, MayAbout, Sim, SimError};
use crate::cards::instructions::{Destination, SearchSpec, SearchZone};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::mutants::{self, Mutant};
use crate::outcome::Event;
use crate::rules::Violation;
use crate::rules::apnap::bit;
use crate::rules::search::{
    PartPlan, check_found, check_library_cap, found_cards_exiled_for, joint_minimum, library_caps,
    library_caps_in_play, library_search_ban, plan_part, search_chooser,
};
use crate::rules::triggers::Happening;
use crate::rules::zones::{Position, can_enter_battlefield};

impl Sim<'_> {
    /// One search (701.23), possibly of several merged instructions (701.23h), by one or more
    /// searchers at once (701.23i).
    pub(super) fn search(&mut self, ctx: &mut Ctx, specs: &[SearchSpec]) -> Result<(), SimError> {
        let specs = &self.bind_search_filters(ctx, specs);
        let Some(head) = specs.first() else {
            return Ok(());
        };
        let searchers = self.players(ctx, head.searcher)?;
        // 101.4 / 701.23g: each player offered the choice decides, in APNAP order, whether to search.
        let mut active = Vec::new();
        for p in searchers {
            let whose = match head.whose {
                Some(r) => self.player(ctx, r)?,
                None => p,
            };
            // 101.2: the zones this player may search — a library a "can't search" effect stops
            // them from searching is left out (nothing in it can be found).
            let zones = self.searchable_zones(ctx, &head.zones, p, whose);
            if zones.is_empty() && head.optional {
                // A player who can't search can't choose to, so nothing of "you may search …,
                // then shuffle" happens (the Stranglehold and Leonin Arbiter rulings).
                self.rule_decision("101.2", Vec::new());
                continue;
            }
            if !head.optional || self.yes_no(&Decision::May { player: p, about: MayAbout::Search, card: None })? {
                active.push((p, whose, zones));
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
        for (searcher, whose, zones) in active {
            let (looked_at, cap) = self.look(searcher, whose, &zones, &mut windows)?;
            self.refuse_unmodelled_in_searched_library(searcher, &looked_at)?;
            looks.push((searcher, whose, looked_at, cap, zones));
        }
        let mut results = Vec::new();
        let mut taken: BTreeSet<ObjId> = BTreeSet::new();
        for (searcher, whose, looked_at, cap, zones) in looks {
            if zones.is_empty() {
                // 101.2: no zone may be searched, so there is no search and nothing is found; the
                // instruction's other parts (a mandatory "then shuffle") still happen.
                let found = vec![Vec::new(); specs.len()];
                results.push(SearchMade {
                    searcher,
                    whose,
                    looked_at,
                    cap,
                    found,
                    zones,
                    exiled_for: None,
                    controller: searcher,
                });
                continue;
            }
            let looked_at: Vec<ObjId> = looked_at.into_iter().filter(|o| !taken.contains(o)).collect();
            // Mutant `sequential-searches`: a later searcher looks after earlier finds have left.
            let looked_at = match cap {
                Some(n) if self.bug(Mutant::SequentialSearches) && head.zones == [SearchZone::Library] => {
                    mutants::slid_window(&self.game, whose, n, &taken)
                }
                _ => looked_at,
            };
            // 601.3: the searcher may cast a Panglacial Wurm they look at in their own library; it
            // leaves for the stack and the search goes on without it.
            let (looked_at, cast) = self.offer_casts_while_searching(searcher, whose, &zones, looked_at)?;
            // A card cast from the library is on the stack now: a later searcher of the same
            // library can't find it either (found by the `search_request` fuzz target).
            // Mutant `cast-card-still-findable`: the cast card stays findable.
            if !self.bug(Mutant::CastCardStillFindable) {
                taken.extend(cast);
            }
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
            // 101.4, 701.23i: the searches are made at once, before any found card moves, so what
            // replaces this searcher's moves and who controls them is settled now: an Opposition
            // Agent an earlier searcher's part puts onto the battlefield doesn't exile what this
            // searcher found (it wasn't there while they searched).
            let exiled_for = found_cards_exiled_for(&self.game, searcher, whose, &zones);
            let controller = search_chooser(&self.game, searcher, whose, &zones);
            // 723.5: a player controlling the searcher makes the choices (Opposition Agent; mutant
            // `opposition-agent-searcher-chooses`: the searcher keeps them).
            let chooser = if self.bug(Mutant::OppositionAgentSearcherChooses) { searcher } else { controller };
            let decision = Decision::Find {
                searcher,
                chooser,
                parts: parts.clone(),
                looked_at: looked_at.clone(),
                cap,
                joint_min,
                to: specs.iter().map(|s| s.to).collect(),
                reveal: specs.iter().map(|s| s.reveal).collect(),
                exiled_instead: exiled_for.is_some(),
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
            results.push(SearchMade { searcher, whose, looked_at, cap, found, zones, exiled_for, controller });
        }
        // The searches happen; each is one event, and "whenever … searches" abilities trigger even
        // when the search was limited to part of the library (701.23f).
        let names = self.names();
        for SearchMade { searcher, whose, looked_at, cap, found, zones, controller, .. } in &results {
            if zones.is_empty() {
                // 101.2: no search happened, so no `searched` event and no search trigger.
                self.rule_decision("101.2", Vec::new());
                continue;
            }
            // Mutant `empty-library-not-searched`: an empty library "can't be searched".
            if self.bug(Mutant::EmptyLibraryNotSearched)
                && head.zones == [SearchZone::Library]
                && self.game.zone(ZoneRef::Library(*whose)).is_empty()
            {
                continue;
            }
            let zone_names = zones.iter().map(|z| search_zone(*z, *searcher, *whose).display(&names)).collect();
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
            self.emit(Event::Searched { player, zones: zone_names, library_top: *cap, found: found_ids }, clause);
            // Archive Trap's "an opponent searched their library this turn" (118.9): a search of
            // one's own library counts even when limited to its top cards (701.23f) or finding
            // nothing (mutant `trap-ignores-capped-search`: a limited search doesn't count).
            if zones.contains(&SearchZone::Library)
                && searcher == whose
                && !(cap.is_some() && self.bug(Mutant::TrapIgnoresCappedSearch))
            {
                self.game.searched_own_library |= bit(*searcher);
            }
            // 701.23a: the searcher looks at every card of the zones searched — only the top
            // cards under a 701.23f limit — so they know each card of a hand or library they looked
            // at for as long as it stays that object: until it moves (400.7) or the library is
            // shuffled (701.24a, 701.20d).
            // 723.4: a player controlling the searcher sees what the searcher sees.
            for &o in looked_at {
                if matches!(self.game.obj(o).zone, ZoneRef::Hand(_) | ZoneRef::Library(_)) {
                    crate::rules::reveal::look_at(&mut self.game, o, *searcher);
                    crate::rules::reveal::look_at(&mut self.game, o, *controller);
                }
            }
            // Mutant `merged-search-triggers-twice`: one trigger per merged instruction.
            let times = if self.bug(Mutant::MergedSearchTriggersTwice) { specs.len() } else { 1 };
            for _ in 0..times {
                if zones.contains(&SearchZone::Library) {
                    self.trigger(Happening::SearchedLibrary { searcher: *searcher, owner: *whose }, None);
                }
            }
        }
        // 101.4: the searchers act at the same time. Every searcher's found cards are put where
        // they go in one event (`at_once`): a graveyard's share is ordered by its owner, cards put
        // on the top or bottom of one library together are arranged by its owner (401.4), a
        // permanent entering in it replaces none of the others' moves (614.1), and a new top card
        // is revealed only after it (401.5). Then "exile the rest", the casts the instruction
        // allows, every "then shuffle", and the cards bound for a library's top go there together:
        // a permanent one searcher put onto the battlefield sees the others' shuffles (603.2).
        let leaving = self.found_cards_leaving(specs, &results);
        // 400.7: a found card that stays where it is for now (bound for the top of its library, or
        // to be cast) but moves in this event — an "as enters" mill of it took it — is a new
        // object the instruction no longer refers to (checked right after the event: the
        // shuffles that follow make new objects of the library's cards too).
        let found_as: BTreeMap<ObjId, u32> =
            results.iter().flat_map(|m| m.found.iter().flatten()).map(|&o| (o, self.game.obj(o).object_no)).collect();
        let still_found = |game: &Game, o: ObjId| found_as.get(&o) == Some(&game.obj(o).object_no);
        self.hold_reveals();
        let moved = self.at_once(|sim| {
            results.iter().map(|made| sim.move_found(ctx, specs, made, &leaving)).collect::<Result<Vec<_>, _>>()
        });
        // Doomsday's "and exile the rest": every other card of the zones the instruction names
        // is exiled at once (701.13a), the found cards bound for the top of the library
        // excepted. "The rest" is every card of those zones, whatever limited the search: a
        // search replaced by one of the library's top cards still refers to the whole library
        // (701.23f, as its example's shuffle does), and a library a "can't search" effect kept
        // out of the search still has its rest exiled — that part doesn't depend on searching
        // (101.2; Leonin Arbiter's ruling: the parts that don't depend on the search still
        // happen). A card another searcher found is not part of the rest either.
        if moved.is_ok() && specs.iter().any(|s| s.exile_rest) {
            let all_found: BTreeSet<ObjId> = results.iter().flat_map(|m| m.found.iter().flatten().copied()).collect();
            for made in &results {
                self.exile_rest_of_search(made.searcher, made.whose, &head.zones, &all_found);
            }
        }
        self.release_reveals();
        let mut left = moved?;
        for after in &mut left {
            after.to_top.retain(|&(o, _)| still_found(&self.game, o));
            after.to_cast.retain(|&o| still_found(&self.game, o));
        }
        // Knowledge Exploitation: the searcher may cast what they found, before the shuffle.
        for after in &left {
            if !after.to_cast.is_empty() {
                self.offer_cast_found(after.searcher, after.whose, &after.to_cast)?;
            }
        }
        // 701.24b: shuffling and putting cards in their place in the library is one action; the
        // top card is revealed once they are there (401.5).
        self.hold_reveals();
        // 701.24b: cards bound for a position in the library are not part of the shuffle
        // (mutant `found-card-shuffled-in`: they are, and nobody knows them afterwards).
        let shuffled_in = self.bug(Mutant::FoundCardShuffledIn);
        let kept_out: Vec<ObjId> =
            left.iter().flat_map(|a| a.to_top.iter().map(|t| t.0)).filter(|_| !shuffled_in).collect();
        for (after, made) in left.iter_mut().zip(&results) {
            if !after.shuffles {
                continue;
            }
            // Mutant `mindcensor-shuffles-top-only`: cards below the window keep their places.
            let untouched = if made.cap.is_some() && self.bug(Mutant::MindcensorShufflesTopOnly) {
                mutants::below_window(&self.game, made.whose, &made.looked_at)
            } else {
                Vec::new()
            };
            // 701.23f: a capped search's "then shuffle" still refers to the whole library.
            let clause = if made.cap.is_some() { "701.23f" } else { "701.24a" };
            self.shuffle_except(made.whose, &kept_out, clause);
            if shuffled_in {
                after.to_top.iter_mut().for_each(|t| t.1 = 0);
            }
            for (o, known) in untouched {
                self.game.objs[o].known = known;
            }
        }
        let to_top: Vec<(ObjId, u8)> = left.into_iter().flat_map(|a| a.to_top).collect();
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
        Ok(())
    }

    /// One searcher's part of the moves of a search ([`Sim::search`]), inside the batch in which
    /// every searcher's found cards move: reveals the found cards the instruction reveals
    /// (701.23e), applies "as enters" replacements, and puts each found card where it goes — or
    /// into exile, when an Opposition Agent replaced that (614.1a). `leaving` is every searcher's
    /// found cards that leave their zone in this event ([`Sim::found_cards_leaving`]). Returns what
    /// is left for after every searcher's cards have moved: the casts and the shuffle.
    fn move_found(
        &mut self,
        ctx: &Ctx,
        specs: &[SearchSpec],
        made: &SearchMade,
        leaving: &[ObjId],
    ) -> Result<AfterMoves, SimError> {
        let SearchMade { searcher, whose, found, zones, exiled_for, controller, .. } = made;
        let head = &specs[0];
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
        // Mutant `banned-search-skips-shuffle`: a search a "can't" effect stopped isn't followed
        // by its shuffle.
        let banned = head.zones.contains(&SearchZone::Library) && !zones.contains(&SearchZone::Library);
        // 614.1a: Opposition Agent exiles what an opponent's search of their own library finds,
        // in every zone of that search, instead of putting it where the instruction says
        // (mutant `opposition-agent-exile-ignored`: the cards go there anyway). Whether it
        // does was settled when the search was made ([`Sim::search`]).
        let exiled_for = if self.bug(Mutant::OppositionAgentExileIgnored) { &None } else { exiled_for };
        // 723.4: the searcher's controller saw the found cards too.
        let controller_sees = bit(*controller);
        let shuffles = specs.iter().any(|s| s.shuffle)
            && !self.bug(Mutant::NoShuffleAfterSearch)
            && !(banned && self.bug(Mutant::BannedSearchSkipsShuffle));
        // Seed 003 (R003-01): a replacement that mills while a card enters from a library
        // doesn't mill the cards entering from it, though they are still there — nor any other
        // card moving in this event, whichever searcher found it (`leaving`).
        let entering: Vec<ObjId> = specs
            .iter()
            .zip(found)
            .filter(|(s, _)| {
                exiled_for.is_none() && matches!(s.to, Destination::Battlefield | Destination::BattlefieldTapped)
            })
            .flat_map(|(_, f)| f.iter().copied())
            .filter(|&o| can_enter_battlefield(&self.game.obj(o).chars))
            .collect();
        self.apply_as_enters(&entering, leaving, *searcher)?;
        // 614.1c: as a shock land enters, the searcher (its controller-to-be) may pay life.
        let unpaid = self.as_enters_life_choices(&entering, *searcher)?;
        let mut to_top = Vec::new();
        let mut to_cast = Vec::new();
        // Gifts Ungiven: the target player chooses which found cards go to the graveyard.
        let chosen_for_graveyard = self.target_player_splits(ctx, specs, found, exiled_for.is_some())?;
        // Mutant `split-destination-all-to-battlefield`: the hand's share of a search that splits
        // its cards between the battlefield and the hand (Cultivate) goes to the battlefield.
        let splits = specs.iter().any(|s| s.to == Destination::BattlefieldTapped)
            && self.bug(Mutant::SplitDestinationAllToBattlefield);
        for (spec, cards) in specs.iter().zip(found) {
            let seen = bit(*searcher) | controller_sees | if reveals(spec) { self.game.everyone() } else { 0 };
            let to = if splits && spec.to == Destination::Hand { Destination::BattlefieldTapped } else { spec.to };
            for &o in cards {
                let owner = self.game.obj(o).owner;
                if let Some(players) = &exiled_for {
                    self.exile_found_for(o, players, seen);
                    continue;
                }
                match to {
                    Destination::Hand => self.move_card(o, ZoneRef::Hand(owner), Position::Top, seen, "701.23a"),
                    // Through `put_into_graveyard`, as any card put into a graveyard: a
                    // replacement may send it elsewhere (Darksteel Colossus, 614.1a) and "put
                    // into a graveyard from anywhere" triggers see it (Guile, 603.2). The
                    // graveyard is public, so who saw it found doesn't matter there.
                    // Mutant `found-card-to-graveyard-unwatched`: moved there directly.
                    Destination::Graveyard if self.bug(Mutant::FoundCardToGraveyardUnwatched) => {
                        self.move_card(o, ZoneRef::Graveyard(owner), Position::Top, seen, "701.23a")
                    }
                    Destination::Graveyard => {
                        self.put_into_graveyard(o, false, "701.23a");
                    }
                    Destination::Exile => self.move_card(o, ZoneRef::Exile, Position::Top, seen, "701.23a"),
                    // 400.4a: an instant or sorcery card can't enter the battlefield; it stays.
                    Destination::Battlefield | Destination::BattlefieldTapped
                        if !can_enter_battlefield(&self.game.obj(o).chars) => {}
                    Destination::Battlefield | Destination::BattlefieldTapped => {
                        self.move_card(o, ZoneRef::Battlefield, Position::Top, seen, "701.23a");
                        self.game.objs[o].controller = *searcher;
                        // 110.5b: it enters untapped unless the effect says tapped (mutant
                        // `fetched-land-enters-untapped`: the word is ignored).
                        if to == Destination::BattlefieldTapped && !self.bug(Mutant::FetchedLandEntersUntapped) {
                            self.game.objs[o].flags.tapped = true;
                        }
                        // 614.1c: its life wasn't paid, so it enters tapped.
                        if unpaid.contains(&o) {
                            self.game.objs[o].flags.tapped = true;
                        }
                    }
                    Destination::LibraryTop => to_top.push((o, seen)),
                    Destination::TargetPlayerChoosesForGraveyard(_) if chosen_for_graveyard.contains(&o) => {
                        self.put_into_graveyard(o, false, "608.2d");
                    }
                    Destination::TargetPlayerChoosesForGraveyard(_) => {
                        self.move_card(o, ZoneRef::Hand(owner), Position::Top, seen, "608.2d")
                    }
                    // Cast (or not) once every searcher's found cards are where they go ([`Sim::search`]).
                    Destination::MayCastWithoutPaying => to_cast.push(o),
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
        Ok(AfterMoves { searcher: *searcher, whose: *whose, shuffles, to_top, to_cast })
    }

    /// Every searcher's found cards that leave the zone they were found in when the found cards
    /// move: all but a card bound for a place in its library (701.24b: it stays there until the
    /// shuffle is done), a card the searcher may cast (it stays if not cast) and an instant or
    /// sorcery card bound for the battlefield (400.4a: it stays). Seed 003 (R003-01): a
    /// replacement that mills as a card enters doesn't mill the cards entering from that library,
    /// though they are still in it; the oracle leaves out every card moving out of it in that
    /// event (101.4), whichever searcher found it.
    fn found_cards_leaving(&self, specs: &[SearchSpec], results: &[SearchMade]) -> Vec<ObjId> {
        let agent_ignored = self.bug(Mutant::OppositionAgentExileIgnored);
        let mut leaving = Vec::new();
        for made in results {
            let exiled = made.exiled_for.is_some() && !agent_ignored;
            for (spec, cards) in specs.iter().zip(&made.found) {
                leaving.extend(cards.iter().copied().filter(|&o| {
                    exiled
                        || match spec.to {
                            Destination::MayCastWithoutPaying | Destination::LibraryTop => false,
                            Destination::Battlefield | Destination::BattlefieldTapped => {
                                can_enter_battlefield(&self.game.obj(o).chars)
                            }
                            _ => true,
                        }
                }));
            }
        }
        leaving
    }

    /// Knowledge Exploitation: `searcher` may cast one of the `found` cards (in `whose` library)
    /// without paying its mana cost, before the instruction's shuffle ([`Sim::cast_one_free`]);
    /// each half of a split card is offered (709.3). A card not cast stays where it was found.
    fn offer_cast_found(&mut self, searcher: PlayerId, whose: PlayerId, found: &[ObjId]) -> Result<(), SimError> {
        use crate::rules::casting::{castable_faces, is_castable};
        let mut options = Vec::new();
        for &o in found {
            let def = &self.game.obj(o).def;
            for face in castable_faces(def) {
                if is_castable(def, face) && self.additional_cost_payable(searcher, o, face) {
                    options.push((o, face));
                }
            }
        }
        if !options.is_empty() {
            self.cast_one_free(searcher, &[whose], &options)?;
        }
        Ok(())
    }

    /// Panglacial Wurm (601.3): while `searcher` searches their own library they may cast, one
    /// after another, each card of `looked_at` whose permission allows it
    /// ([`crate::rules::casting::castable_while_searching`]); each leaves the library for the
    /// stack, above the resolving spell, and is no longer among the cards the search may find.
    /// Returns the cards still looked at and the cards cast. A cast is offered only when split
    /// second doesn't forbid it (702.61a).
    fn offer_casts_while_searching(
        &mut self,
        searcher: PlayerId,
        whose: PlayerId,
        zones: &[SearchZone],
        mut looked_at: Vec<ObjId>,
    ) -> Result<(Vec<ObjId>, Vec<ObjId>), SimError> {
        let mut cast = Vec::new();
        if !zones.contains(&SearchZone::Library) {
            return Ok((looked_at, cast));
        }
        // A copy the permission would allow but the search doesn't cover (below a 701.23f window)
        // can't be cast: a rule decision the judge names when an engine casts it anyway.
        let whole = self.game.zone(ZoneRef::Library(whose));
        let castable_anywhere = crate::rules::casting::castable_while_searching(&self.game, searcher, whose, whole);
        if castable_anywhere.is_empty() {
            // What may be cast is always among these (a card the search looks at in the library,
            // or one anywhere in it for the mutant below), and nothing is cast here that could
            // change that: no need to look through a long library again.
            return Ok((looked_at, cast));
        }
        let uncovered: Vec<ObjId> = castable_anywhere.into_iter().filter(|o| !looked_at.contains(o)).collect();
        if !uncovered.is_empty() {
            self.rule_decision("601.3", uncovered);
        }
        loop {
            // Mutant `wurm-cast-outside-search-window`: a copy below a 701.23f window may be cast.
            let seen = if self.bug(Mutant::WurmCastOutsideSearchWindow) {
                self.game.zone(ZoneRef::Library(whose)).to_vec()
            } else {
                looked_at.clone()
            };
            let mut castable = crate::rules::casting::castable_while_searching(&self.game, searcher, whose, &seen);
            if !self.bug(Mutant::SplitSecondIgnored)
                && crate::rules::split_second::check_no_split_second(&self.game, "casting a spell").is_err()
            {
                if !castable.is_empty() {
                    self.rule_decision("702.61a", castable.clone());
                }
                castable.clear();
            }
            if castable.is_empty() {
                return Ok((looked_at, cast));
            }
            if search_chooser(&self.game, searcher, whose, zones) != searcher {
                return Err(SimError::Unsupported {
                    step: self.step,
                    message: "a searcher controlled by another player (723.5) casting a card from the library they \
                              search (Panglacial Wurm) is not modelled"
                        .into(),
                });
            }
            let options: Vec<(ObjId, Option<usize>)> = castable.iter().map(|&o| (o, None)).collect();
            let decision = Decision::CastFree { player: searcher, from: vec![whose], options, free: false };
            match self.decide(&decision)? {
                Choice::Cast(None) => return Ok((looked_at, cast)),
                Choice::Cast(Some((card, None))) if castable.contains(&card) => {
                    self.cast_while_searching(searcher, card)?;
                    // Only a card the search looked at leaves what it may find (mutant
                    // `wurm-cast-outside-search-window` casts one below the window).
                    if let Some(at) = looked_at.iter().position(|&o| o == card) {
                        looked_at.remove(at);
                        cast.push(card);
                    }
                }
                other => {
                    let mut listed: Vec<String> = castable.iter().map(|&o| self.id(o)).collect();
                    listed.push("none (decline: `cast: {player}` without a card)".into());
                    let chosen = super::describe_choice(&self.game, &other);
                    return Err(self.illegal(
                        Violation::new(
                            "601.3",
                            format!("{chosen} is not a card that may be cast from the library being searched"),
                        ),
                        listed,
                    ));
                }
            }
        }
    }

    /// "… and exile the rest" (Doomsday): the cards of the zones the instruction names that
    /// weren't found are exiled at the same time (701.13a), however the search itself was limited
    /// (701.23f, 101.2).
    fn exile_rest_of_search(
        &mut self,
        searcher: PlayerId,
        whose: PlayerId,
        zones: &[SearchZone],
        found: &BTreeSet<ObjId>,
    ) {
        let mut rest = Vec::new();
        for &z in zones {
            // Mutant `exile-rest-spares-graveyard`: only the library's rest is exiled.
            if z == SearchZone::Graveyard && self.bug(Mutant::ExileRestSparesGraveyard) {
                continue;
            }
            let zone = search_zone(z, searcher, whose);
            rest.extend(self.game.zone(zone).iter().copied().filter(|o| !found.contains(o)));
        }
        self.at_once(|sim| {
            for o in rest {
                sim.move_card(o, ZoneRef::Exile, Position::Top, 0, "701.13a");
            }
        });
    }

    /// Gifts Ungiven's "target opponent chooses N of those cards": for each instruction that puts
    /// its found cards at [`Destination::TargetPlayerChoosesForGraveyard`], the target player
    /// chooses N of them ([`crate::rules::search::split_choice_count`]: all when there are no
    /// more than N), each choice logged as a `chose` event (608.2d). Found cards Opposition Agent
    /// exiles instead (614.1a) are no longer "those cards" to choose from in the way the card
    /// expects, which the oracle doesn't model.
    fn target_player_splits(
        &mut self,
        ctx: &Ctx,
        specs: &[SearchSpec],
        found: &[Vec<ObjId>],
        exiled_instead: bool,
    ) -> Result<BTreeSet<ObjId>, SimError> {
        let mut chosen = BTreeSet::new();
        for (spec, cards) in specs.iter().zip(found) {
            let Destination::TargetPlayerChoosesForGraveyard(n) = spec.to else { continue };
            if cards.is_empty() {
                continue;
            }
            if exiled_instead {
                return Err(SimError::Unsupported {
                    step: self.step,
                    message: "another player choosing among found cards that are exiled instead (614.1a) is not \
                              modelled"
                        .into(),
                });
            }
            // Mutant `split-chosen-by-caster`: the spell's controller chooses instead.
            let chooser = if self.bug(Mutant::SplitChosenByCaster) {
                ctx.controller
            } else {
                self.player(ctx, crate::cards::instructions::PlayerRef::TargetPlayer)?
            };
            let count = crate::rules::search::split_choice_count(n, cards.len());
            let decision = Decision::ChooseCard { player: chooser, options: cards.clone(), count, any_number: false };
            let picked = match self.decide(&decision)? {
                Choice::Cards(c) => c,
                other => {
                    let listed = cards.iter().map(|&o| self.id(o)).collect();
                    let v = Violation::new(
                        "608.2d",
                        format!("{} is not a set of found cards", super::describe_choice(&self.game, &other)),
                    );
                    return Err(self.illegal(v, listed));
                }
            };
            if let Err(v) = crate::rules::search::check_split_choice(&picked, cards, count) {
                let listed = cards.iter().map(|&o| self.id(o)).collect();
                return Err(self.illegal(v, listed));
            }
            for c in picked {
                let (player, card) = (self.pname(chooser), self.id(c));
                self.emit(Event::Chose { player, card }, "608.2d");
                chosen.insert(c);
            }
        }
        Ok(chosen)
    }

    /// 614.1a: a found card exiled instead of going where its instruction says (Opposition
    /// Agent), face up, with permission to play it for the Agent's controller. When Agents of
    /// several controllers apply, which one's permission applies is a 616.1 choice the oracle
    /// doesn't model: the card is exiled and a later attempt to play it is refused as unmodelled.
    fn exile_found_for(&mut self, card: ObjId, players: &BTreeSet<PlayerId>, seen: u8) {
        self.move_card(card, ZoneRef::Exile, Position::Top, seen, "614.1a");
        let flags = &mut self.game.objs[card].flags;
        match players.iter().collect::<Vec<_>>().as_slice() {
            [only] => flags.playable_by = Some(**only),
            _ => flags.play_permission_unmodelled = true,
        }
    }

    /// The search instructions with the numbers their filters refer to filled in as the search
    /// happens: X (107.3a) and the mana value of the object named by `same_mana_value_as`
    /// (702.53a), from the object as it last existed (608.2h).
    fn bind_search_filters(&self, ctx: &Ctx, specs: &[SearchSpec]) -> Vec<SearchSpec> {
        // Mutant `mana-value-x-ignored`: "mana value X or less" bounds nothing.
        let x = (!self.bug(Mutant::ManaValueXIgnored)).then_some(ctx.x);
        specs
            .iter()
            .map(|s| {
                let mut s = s.clone();
                if let Some(f) = &s.filter {
                    let same = f.same_mana_value_as.and_then(|r| self.referent_mana_value(ctx, r));
                    s.filter = Some(crate::rules::search::bind_filter(f, x, same));
                }
                s
            })
            .collect()
    }

    /// The zones of `zones` that `searcher` may search in `whose` zones: all of them, except a
    /// library a "can't search" effect stops them from searching (101.2,
    /// [`crate::rules::search::library_search_ban`]; mutant `search-ban-ignored`: it doesn't).
    fn searchable_zones(
        &self,
        ctx: &Ctx,
        zones: &[SearchZone],
        searcher: PlayerId,
        whose: PlayerId,
    ) -> Vec<SearchZone> {
        let banned = zones.contains(&SearchZone::Library)
            && !self.bug(Mutant::SearchBanIgnored)
            && library_search_ban(&self.game, searcher, whose, ctx.controller).is_some();
        zones.iter().copied().filter(|&z| !(banned && z == SearchZone::Library)).collect()
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
                    Violation::new(
                        "616.1",
                        format!("{} is not a search limit", super::describe_choice(&self.game, &other)),
                    ),
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
                            "{} is not a set of found cards for each of {} search instruction(s)",
                            super::describe_choice(&self.game, &other),
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
    let ids: Vec<&str> = plan.candidates.iter().map(|&o| game.obj(o).id.as_ref()).collect();
    let must: Vec<&str> =
        if plan.all { plan.public.iter().map(|&o| game.obj(o).id.as_ref()).collect() } else { Vec::new() };
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
        Destination::Battlefield | Destination::BattlefieldTapped => {
            can_enter_battlefield(&game.obj(card).chars).then_some(ZoneRef::Battlefield)
        }
        // The graveyard or the hand, as another player's choice decides: not known from the
        // instruction alone.
        Destination::TargetPlayerChoosesForGraveyard(_) | Destination::MayCastWithoutPaying => None,
    }
}

/// One searcher's search as made (701.23i: all searchers look, then choose in APNAP order, before
/// any found card moves): what they looked at and found, and what was settled at that moment for
/// the moves that follow.
struct SearchMade {
    searcher: PlayerId,
    /// Whose zones were searched.
    whose: PlayerId,
    looked_at: Vec<ObjId>,
    /// The 701.23f limit to the library's top cards, if any.
    cap: Option<u32>,
    /// The cards found, one list per merged instruction (701.23h).
    found: Vec<Vec<ObjId>>,
    zones: Vec<SearchZone>,
    /// Who may play the found cards an Opposition Agent exiles instead (614.1a), when one does.
    exiled_for: Option<BTreeSet<PlayerId>>,
    /// Who made the search's choices and saw what it found (723.4, 723.5).
    controller: PlayerId,
}

/// What is left of one searcher's part of a search once every searcher's found cards have moved
/// ([`Sim::move_found`]).
struct AfterMoves {
    searcher: PlayerId,
    whose: PlayerId,
    /// Whether the instruction's "then shuffle" shuffles `whose` library.
    shuffles: bool,
    /// Found cards bound for the top of their owner's library, with who saw them (701.24b).
    to_top: Vec<(ObjId, u8)>,
    /// Found cards the searcher may cast (Knowledge Exploitation).
    to_cast: Vec<ObjId>,
}
