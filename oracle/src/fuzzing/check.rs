//! Invariant checkers over generated cases and the outcomes the oracle gives them.
//!
//! Each checker returns `Err(CheckFailure)` with a readable message; a fuzz target panics on it
//! (so libFuzzer records the input) and a test asserts `Ok`. The rules checks here are written
//! again from the Comprehensive Rules, from the case's description of the search, rather than by
//! calling `rules::search`: they are a second implementation of 701.23b–d/f/h/j and 701.24a–b
//! that the simulator's own has to agree with. What they share with the oracle is only the
//! reading of card characteristics (`rules::characteristics::matches`).

use std::collections::{BTreeMap, BTreeSet};

use crate::cards::instructions::{Count, Destination, Filter, Relation, SearchSpec, SearchZone};
use crate::explore::{Exploration, explore};
use crate::fuzzing::corrupt::corruptions;
use crate::judge::{Verdict, judge};
use crate::model::ZoneRef;
use crate::outcome::concrete::{concretize, is_member};
use crate::outcome::{Event, LegalOutcome, Outcome};
use crate::rules::characteristics::matches;
use crate::scenario::{Loaded, Setup, load_scenario};
use crate::sim::SimError;

use super::case::{Delivery, FuzzCase, NAMES, QualityKind, SEARCH_ID, TARGET_ID};
use super::decide::{Run, run_with_choices};
use super::{CheckFailure, pool};

fn fail(check: &'static str, message: impl Into<String>) -> CheckFailure {
    CheckFailure { check, message: message.into() }
}

/// A generated case with its loaded scenario.
#[derive(Debug, Clone)]
pub struct Built {
    /// The case.
    pub case: FuzzCase,
    /// The scenario, loaded.
    pub loaded: Loaded,
}

impl Built {
    /// Builds and loads the case's scenario; a scenario the loader rejects is a generator bug.
    pub fn new(case: FuzzCase) -> Result<Built, CheckFailure> {
        let loaded = load_scenario("generated", case.scenario(), pool())
            .map_err(|e| fail("generator", format!("the generator made a scenario the loader rejects: {e}")))?;
        Ok(Built { case, loaded })
    }

    fn setup(&self) -> &Setup {
        &self.loaded.setup
    }

    fn obj(&self, id: &str) -> Option<&crate::model::Obj> {
        self.setup().ids.get(id).map(|&o| self.setup().game.obj(o))
    }

    /// The step in which the search resolves.
    pub fn resolution_step(&self) -> usize {
        if self.case.targets_permanent() && self.case.search.exile_target_in_response { 2 } else { 1 }
    }
}

/// A run that the oracle refuses for a reason that isn't a bug: a card whose text isn't modelled
/// would act, or there are too many outcomes to list.
pub fn is_skip(e: &SimError) -> bool {
    matches!(e, SimError::Unsupported { .. } | SimError::TooLarge(_))
}

/// Conservation: no card is created or lost, and no card is in two places. Every id an outcome
/// lists, in zones or events, is one of the scenario's.
pub fn conservation(setup: &Setup, o: &Outcome) -> Result<(), CheckFailure> {
    let mut seen: BTreeMap<&str, &str> = BTreeMap::new();
    for (zone, cards) in &o.zones {
        for c in cards {
            if zone == "stack" && c.starts_with("ability:") {
                continue;
            }
            if !setup.ids.contains_key(c) {
                return Err(fail("conservation", format!("{zone} holds `{c}`, which is not a card of the scenario")));
            }
            if let Some(other) = seen.insert(c, zone) {
                return Err(fail("conservation", format!("`{c}` is listed in both {other} and {zone}")));
            }
        }
    }
    if let Some(lost) = setup.ids.keys().find(|id| !seen.contains_key(id.as_str())) {
        return Err(fail("conservation", format!("`{lost}` is in no zone: a card was lost")));
    }
    for e in &o.events {
        let cards: Vec<&String> = match &e.event {
            Event::Cast { card, .. }
            | Event::Activated { card, .. }
            | Event::Moved { card, .. }
            | Event::Chose { card, .. }
            | Event::Sacrificed { card, .. }
            | Event::Counters { card, .. }
            | Event::Discarded { card, .. }
            | Event::Dredged { card, .. }
            | Event::Created { card, .. }
            | Event::Refused { card, .. } => vec![card],
            Event::Searched { found, .. } => found.iter().collect(),
            Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.iter().collect(),
            Event::Triggered { source, .. } => vec![source],
            Event::Shuffled { .. } | Event::LostLife { .. } | Event::GainedLife { .. } | Event::Named { .. } => {
                Vec::new()
            }
        };
        if let Some(c) = cards
            .into_iter()
            .find(|c| !setup.ids.contains_key(c.as_str()) && !crate::scenario::is_run_time_id(setup, c))
        {
            return Err(fail(
                "conservation",
                format!("a `{}` event names `{c}`, not a card of the scenario", e.event.kind()),
            ));
        }
    }
    Ok(())
}

/// The step of a card's last move, if it moved.
fn last_move_step(o: &Outcome, card: &str) -> Option<usize> {
    o.events.iter().filter(|e| matches!(&e.event, Event::Moved { card: c, .. } if c == card)).map(|e| e.step).max()
}

/// Hidden information (400.2, 701.20, 701.23e, 701.24a): nothing is revealed unless an
/// instruction says so, and every player who knows a card in a hidden zone has a reason to: it is
/// their own hand or sideboard, it was revealed, they found it, they searched the hand it is in,
/// or they knew it at the start and it never moved. A card in the random part of a library was
/// shuffled since it got there, so nobody knows it.
pub fn hidden_information(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    let o = &legal.outcome;
    let specs = b.case.specs();
    let reveal_hand = b.case.search.quality == QualityKind::SameNameAsChosen;
    let hand_owner = b.case.target_player().unwrap_or(b.case.controller());
    for e in &o.events {
        let Event::Revealed { player, cards } = &e.event else { continue };
        let by_search = specs.iter().any(|s| s.reveal)
            && o.events.iter().any(|s| {
                s.step == e.step
                    && matches!(&s.event, Event::Searched { player: p, found, .. }
                        if p == player && cards.iter().all(|c| found.contains(c)))
            });
        let by_hand = reveal_hand
            && *player == NAMES[hand_owner]
            && cards.iter().all(|c| b.obj(c).is_some_and(|x| x.zone == ZoneRef::Hand(hand_owner)));
        // 602.2a: an ability activated from a hidden zone reveals its card.
        let by_activation = o.events.iter().any(|a| {
            a.step == e.step
                && matches!(&a.event, Event::Activated { player: p, card, .. } if p == player && cards.contains(card))
        });
        if !by_search && !by_hand && !by_activation {
            return Err(fail(
                "hidden information",
                format!(
                    "{player} revealed [{}] in step {} but no instruction says to reveal them (701.23e)",
                    cards.join(", "),
                    e.step
                ),
            ));
        }
    }
    for (zone, cards) in &o.zones {
        let Some((owner, kind)) = zone.rsplit_once('.') else { continue };
        if !matches!(kind, "library" | "hand" | "outside") {
            continue;
        }
        let fixed = legal.fixed.get(zone).cloned().unwrap_or_default();
        let len = cards.len();
        let random = fixed.top().min(len)..len - fixed.bottom().min(len - fixed.top().min(len));
        for (i, card) in cards.iter().enumerate() {
            let who = o.known.get(card).cloned().unwrap_or_default();
            if who.is_empty() {
                continue;
            }
            if kind == "library" && random.contains(&i) {
                return Err(fail(
                    "hidden information",
                    format!("`{card}` is in the shuffled part of {zone} but {} know it (701.24a)", who.join(", ")),
                ));
            }
            let moved = last_move_step(o, card);
            for p in &who {
                let own = kind != "library" && p == owner;
                let revealed = o.events.iter().any(|e| {
                    moved.is_none_or(|m| e.step >= m)
                        && matches!(&e.event, Event::Revealed { cards, .. } if cards.contains(card))
                });
                let found = o.events.iter().any(|e| {
                    moved == Some(e.step)
                        && matches!(&e.event, Event::Searched { player, found, .. } if player == p && found.contains(card))
                });
                // 701.23a: a searcher looked at every card of a hand or library searched.
                let searched_hand = matches!(kind, "hand" | "library")
                    && o.events.iter().any(|e| {
                        moved.is_none_or(|m| e.step >= m)
                            && matches!(&e.event, Event::Searched { player, zones, .. } if player == p && zones.contains(zone))
                    });
                let from_start = moved.is_none()
                    && b.obj(card).is_some_and(|x| {
                        b.setup()
                            .game
                            .players
                            .iter()
                            .position(|q| &q.name == p)
                            .is_some_and(|s| x.known & (1 << s) != 0)
                    });
                // 401.4: cards a search put on top of their owner's library at the same time are
                // arranged by that owner, who sees them.
                let arranged = kind == "library" && p == owner && o.events.iter().any(|e| {
                    moved == Some(e.step)
                        && matches!(&e.event, Event::Searched { found, .. } if found.contains(card) && found.len() > 1)
                });
                // 400.2: a card that left a public zone was seen by every player as it moved.
                let seen_leaving = o.events.iter().any(|e| {
                    moved == Some(e.step)
                        && matches!(&e.event, Event::Moved { card: c, from, .. } if c == card
                            && !(from.ends_with(".library") || from.ends_with(".hand") || from.ends_with(".outside")))
                });
                if !(own || revealed || found || searched_hand || from_start || arranged || seen_leaving) {
                    return Err(fail(
                        "hidden information",
                        format!("{p} knows `{card}` in {zone}, but it was never revealed to them nor seen by them"),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// What one logged search could legally have done, worked out from the case.
#[derive(Debug, Clone)]
pub struct SearchContext {
    /// Who searched.
    pub searcher: usize,
    /// Whose zones.
    pub whose: usize,
    /// The 701.23f limit the case implies.
    pub cap: Option<u32>,
    /// Per instruction: the cards that match, in the searched portions.
    pub candidates: Vec<Vec<String>>,
    /// Per instruction: the quality is undefined (701.23c).
    pub undefined: Vec<bool>,
    /// The cards found, as logged.
    pub found: Vec<String>,
    /// The zones searched, as logged.
    pub zones: Vec<String>,
    /// The limit, as logged.
    pub logged_cap: Option<u32>,
}

fn relation_holds(r: Relation, controller: usize, actor: usize) -> bool {
    match r {
        Relation::Any => true,
        Relation::You => actor == controller,
        Relation::Opponent => actor != controller,
    }
}

/// The 701.23f limit for `searcher`: the count of one of the face-up permanents whose replacement
/// applies to them — the one the searcher applied last (616.1: they order the effects; 614.5:
/// each applies once). `logged` is the limit the search reported: it is expected when it is one
/// of those counts; otherwise the smallest is, so the check names the difference.
fn expected_cap(b: &Built, searcher: usize, logged: Option<u32>) -> Option<u32> {
    let n = b.case.player_count();
    let caps: BTreeSet<u32> = b
        .case
        .censors
        .iter()
        .filter(|c| !c.face_down)
        .filter_map(|c| {
            let (count, rel) = if c.real { (4, Relation::Opponent) } else { (u32::from(c.count), c.applies_to) };
            relation_holds(rel, usize::from(c.controller) % n, searcher).then_some(count)
        })
        .collect();
    logged.filter(|l| caps.contains(l)).or_else(|| caps.first().copied())
}

/// The cards in a zone when the search resolves: the starting cards, without the search card,
/// which is on the stack or (cycled) on top of its owner's graveyard.
fn zone_at_search(b: &Built, zone: ZoneRef) -> Vec<String> {
    let g = &b.setup().game;
    let mut ids: Vec<String> = g.zone(zone).iter().map(|&o| g.obj(o).id.clone()).filter(|id| id != SEARCH_ID).collect();
    if b.case.delivery() == Delivery::Cycling && zone == ZoneRef::Graveyard(b.case.controller()) {
        ids.insert(0, SEARCH_ID.to_string());
    }
    ids
}

/// Works out, for every `searched` event of the resolution, what the search could find.
pub fn search_contexts(b: &Built, o: &Outcome) -> Result<Vec<SearchContext>, CheckFailure> {
    let step = b.resolution_step();
    let specs = b.case.specs();
    let n = b.case.player_count();
    let names: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let chosen: Option<&String> = o.events.iter().find_map(|e| match &e.event {
        Event::Chose { card, .. } if e.step == step => Some(card),
        _ => None,
    });
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut out = Vec::new();
    for e in &o.events {
        let Event::Searched { player, zones, library_top, found } = &e.event else { continue };
        if e.step != step {
            return Err(fail(
                "quantity",
                format!("{player} searched in step {}, not when the search resolved", e.step),
            ));
        }
        let searcher = names
            .iter()
            .position(|p| p == player)
            .ok_or_else(|| fail("quantity", format!("a search by `{player}`, who is not a player")))?;
        let whose = b.case.target_player().unwrap_or(searcher);
        let cap =
            if specs[0].zones.contains(&SearchZone::Library) { expected_cap(b, searcher, *library_top) } else { None };
        // 701.23i: simultaneous searchers look at the same cards; a card an earlier one found is
        // not there for the later ones to find.
        let mut looked: Vec<String> = Vec::new();
        for z in &specs[0].zones {
            let zone = match z {
                SearchZone::Graveyard => ZoneRef::Graveyard(whose),
                SearchZone::Hand => ZoneRef::Hand(whose),
                SearchZone::Library => ZoneRef::Library(whose),
                SearchZone::Outside => ZoneRef::Outside(searcher),
            };
            let mut cards = zone_at_search(b, zone);
            if let (ZoneRef::Library(_), Some(cap)) = (zone, cap) {
                cards.truncate(cap as usize);
            }
            looked.extend(cards.into_iter().filter(|c| !taken.contains(c)));
        }
        let mut candidates = Vec::new();
        let mut undefined = Vec::new();
        for s in &specs {
            let (undef, names) = quality_names(b, s, chosen);
            let matching: Vec<String> = if undef {
                Vec::new()
            } else {
                looked
                    .iter()
                    .filter(|c| match &s.filter {
                        None => true,
                        Some(f) if f.is_quantity_only() => true,
                        Some(f) => b.obj(c).is_some_and(|x| matches(&x.chars, f, names.as_deref())),
                    })
                    .cloned()
                    .collect()
            };
            candidates.push(matching);
            undefined.push(undef);
        }
        taken.extend(found.iter().cloned());
        out.push(SearchContext {
            searcher,
            whose,
            cap,
            candidates,
            undefined,
            found: found.clone(),
            zones: zones.clone(),
            logged_cap: *library_top,
        });
    }
    Ok(out)
}

/// Whether a spec's quality is undefined (701.23c), and the names a "same name" quality refers to.
fn quality_names(b: &Built, s: &SearchSpec, chosen: Option<&String>) -> (bool, Option<Vec<String>>) {
    let Some(r) = s.filter.as_ref().and_then(|f: &Filter| f.same_name_as) else { return (false, None) };
    let names = match r {
        // 608.2h: the target as it last existed on the battlefield; face down it had no name.
        crate::cards::instructions::CardRef::Target => {
            b.obj(TARGET_ID).filter(|t| !t.face_down).map(|t| t.chars.names.clone())
        }
        crate::cards::instructions::CardRef::Chosen => chosen.and_then(|c| b.obj(c)).map(|x| x.chars.names.clone()),
        crate::cards::instructions::CardRef::This => b.obj(SEARCH_ID).map(|x| x.chars.names.clone()),
    };
    match names.filter(|n| !n.is_empty()) {
        None => (true, None),
        Some(n) => (false, Some(n)),
    }
}

fn distinct_names(b: &Built, cards: &[String]) -> usize {
    cards.iter().filter_map(|c| b.obj(c)).map(|x| x.chars.names.join(" // ")).collect::<BTreeSet<_>>().len()
}

/// The quantity rules, per logged search: only matching cards in the searched portions are found
/// (701.23a), no more than asked; nothing for an undefined quality (701.23c); a search simply for
/// a quantity finds that many or as many as there are (701.23d), cards outside the game being
/// optional (701.23j); the searched zones and the 701.23f limit are the ones the case implies.
pub fn quantity_rules(b: &Built, o: &Outcome) -> Result<(), CheckFailure> {
    let specs = b.case.specs();
    let n = b.case.player_count();
    for ctx in search_contexts(b, o)? {
        let who = NAMES[ctx.searcher];
        let want_zones: BTreeSet<String> = specs[0]
            .zones
            .iter()
            .map(|z| match z {
                SearchZone::Graveyard => format!("{}.graveyard", NAMES[ctx.whose]),
                SearchZone::Hand => format!("{}.hand", NAMES[ctx.whose]),
                SearchZone::Library => format!("{}.library", NAMES[ctx.whose]),
                SearchZone::Outside => format!("{who}.outside"),
            })
            .collect();
        let got_zones: BTreeSet<String> = ctx.zones.iter().cloned().collect();
        if want_zones != got_zones {
            return Err(fail(
                "quantity",
                format!("{who} searched {got_zones:?}, but the instruction says {want_zones:?}"),
            ));
        }
        if ctx.logged_cap != ctx.cap {
            return Err(fail(
                "quantity",
                format!(
                    "{who}'s search was logged with limit {:?}, but the permanents imply {:?} (701.23f)",
                    ctx.logged_cap, ctx.cap
                ),
            ));
        }
        let mut seen = BTreeSet::new();
        if let Some(d) = ctx.found.iter().find(|c| !seen.insert(c.as_str())) {
            return Err(fail("quantity", format!("{who} found `{d}` twice")));
        }
        let all: BTreeSet<&String> = ctx.candidates.iter().flatten().collect();
        if let Some(c) = ctx.found.iter().find(|c| !all.contains(c)) {
            let why = if ctx.undefined.iter().all(|u| *u) {
                "the quality is undefined, so nothing can be found (701.23c)"
            } else {
                "it is not a matching card in the searched portion of the zones (701.23a, 701.23f)"
            };
            return Err(fail("quantity", format!("{who} found `{c}`, but {why}")));
        }
        let max_of = |s: &SearchSpec, cands: &[String]| {
            let mut m = s.count.max().min(cands.len());
            if s.different_names {
                m = m.min(distinct_names(b, cands));
            }
            m
        };
        let total_max: usize = specs.iter().zip(&ctx.candidates).map(|(s, c)| max_of(s, c)).sum();
        if ctx.found.len() > total_max {
            return Err(fail(
                "quantity",
                format!("{who} found {} cards but at most {total_max} could be found (701.23a)", ctx.found.len()),
            ));
        }
        if specs.len() == 1 {
            let (s, cands) = (&specs[0], &ctx.candidates[0]);
            let quantity_only = s.filter.as_ref().is_none_or(Filter::is_quantity_only);
            if s.different_names {
                let names: BTreeSet<String> =
                    ctx.found.iter().filter_map(|c| b.obj(c)).map(|x| x.chars.names.join(" // ")).collect();
                if names.len() != ctx.found.len() {
                    return Err(fail(
                        "quantity",
                        format!("{who} found cards with the same name, but names must differ"),
                    ));
                }
            }
            if quantity_only {
                let in_game: Vec<String> = cands
                    .iter()
                    .filter(|c| b.obj(c).is_some_and(|x| !matches!(x.zone, ZoneRef::Outside(_))))
                    .cloned()
                    .collect();
                let available = if s.different_names { distinct_names(b, &in_game) } else { in_game.len() };
                let min = s.count.asked_min().min(available).min(max_of(s, cands));
                // "All cards": every card in the game zones, whatever was also chosen from
                // outside the game (701.23j); "N cards": N, any of them from outside.
                if s.count == Count::All
                    && !s.different_names
                    && let Some(left) = in_game.iter().find(|c| !ctx.found.contains(c))
                {
                    return Err(fail(
                        "quantity",
                        format!(
                            "{who} searched for all cards but left `{left}`, which is in a searched zone of the game (701.23d)"
                        ),
                    ));
                }
                if ctx.found.len() < min {
                    return Err(fail(
                        "quantity",
                        format!(
                            "{who} searched simply for {:?} cards and found {}, but {min} were there to find (701.23d)",
                            s.count,
                            ctx.found.len()
                        ),
                    ));
                }
            }
        }
        let _ = n;
    }
    Ok(())
}

/// Public zones are complete (701.23b, 400.2): a search for a stated quality that didn't find
/// as many cards as it could must have found every matching card in a public zone (graveyards);
/// "all" means every one of them. Not for "up to N", where finding fewer is the searcher's choice.
pub fn public_zone_completeness(b: &Built, o: &Outcome) -> Result<(), CheckFailure> {
    let specs = b.case.specs();
    if specs.len() != 1 {
        return Ok(()); // merged searches are library-only
    }
    let s = &specs[0];
    if s.filter.as_ref().is_none_or(Filter::is_quantity_only) {
        return Ok(());
    }
    // "up to N" lets the searcher choose how many, from zero: a public card may be left too.
    if matches!(s.count, Count::UpTo(_)) {
        return Ok(());
    }
    for ctx in search_contexts(b, o)? {
        let cands = &ctx.candidates[0];
        let mut max = s.count.max().min(cands.len());
        if s.different_names {
            max = max.min(distinct_names(b, cands));
        }
        if ctx.found.len() >= max {
            continue;
        }
        // The starting zone tells which candidates are public; the cycled search card was put
        // into its owner's graveyard before the search.
        let missed = cands.iter().find(|c| {
            let public = c.as_str() == SEARCH_ID || b.obj(c).is_some_and(|x| matches!(x.zone, ZoneRef::Graveyard(_)));
            public && !ctx.found.contains(c)
        });
        if let Some(missed) = missed {
            // With different names, a public card may be left when a found card has its name.
            let shares_name = s.different_names
                && ctx.found.iter().any(|f| b.obj(f).map(|x| &x.chars.names) == b.obj(missed).map(|x| &x.chars.names));
            if !shares_name {
                return Err(fail(
                    "public zone",
                    format!(
                        "{} found {} of at most {max} cards but left `{missed}`, a matching card in a public zone (701.23b)",
                        NAMES[ctx.searcher],
                        ctx.found.len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// Shuffle bookkeeping: each search whose instruction says "then shuffle" shuffles the searched
/// player's library once, and nothing else shuffles (701.24a); cards the search puts on top are
/// not part of that shuffle and stay at fixed positions (701.24b); "whenever … searches" and
/// "whenever … shuffles" abilities trigger once per search and per shuffle (701.23f, 701.24e).
pub fn shuffle_bookkeeping(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    let o = &legal.outcome;
    let step = b.resolution_step();
    let specs = b.case.specs();
    let n = b.case.player_count();
    let shuffles = specs.iter().any(|s| s.shuffle);
    let searches = search_contexts(b, o)?;
    for (p, name) in NAMES[..n].iter().enumerate() {
        let shuffled = o
            .events
            .iter()
            .filter(|e| matches!(&e.event, Event::Shuffled { library } if library == name))
            .map(|e| e.step)
            .collect::<Vec<_>>();
        if let Some(s) = shuffled.iter().find(|&&s| s != step) {
            return Err(fail("shuffle", format!("{name}'s library was shuffled in step {s}, by nothing")));
        }
        let want = if shuffles { searches.iter().filter(|c| c.whose == p).count() } else { 0 };
        if shuffled.len() != want {
            return Err(fail(
                "shuffle",
                format!("{name}'s library was shuffled {} time(s); the searches call for {want}", shuffled.len()),
            ));
        }
        // 701.24b: cards put on top after the shuffle sit at fixed positions above the random rest.
        if want > 0 {
            let zone = format!("{name}.library");
            let lib = o.zones.get(&zone).cloned().unwrap_or_default();
            let fixed = legal.fixed.get(&zone).cloned().unwrap_or_default();
            let on_top: BTreeSet<&String> = searches
                .iter()
                .flat_map(|c| {
                    specs.iter().zip(&c.candidates).flat_map(|(s, cands)| {
                        c.found.iter().filter(move |f| s.to == Destination::LibraryTop && cands.contains(f))
                    })
                })
                .filter(|c| b.obj(c).is_some_and(|x| x.owner == p) && lib.contains(c))
                .filter(|c| last_move_step(o, c) == Some(step))
                .collect();
            // Only when one search shuffles this library: with several searchers of one library
            // each one's shuffle and placement follow the other's, which the rules leave open.
            if want > 1 {
                continue;
            }
            if specs.len() == 1 && (fixed.top() != on_top.len() || fixed.bottom() != 0) {
                return Err(fail(
                    "shuffle",
                    format!(
                        "after the shuffle {zone} has {} fixed top and {} fixed bottom positions, but {} found card(s) were put on top (701.24b)",
                        fixed.top(),
                        fixed.bottom(),
                        on_top.len()
                    ),
                ));
            }
            if let Some(c) = on_top.iter().find(|c| !lib[..fixed.top().min(lib.len())].contains(c)) {
                return Err(fail(
                    "shuffle",
                    format!("`{c}` was put on top of {zone} but is not at a fixed top position (701.24b)"),
                ));
            }
        }
    }
    // Triggers: Ob Nixilis watches opponents searching their own library; Cosi's Trickster
    // watches opponents shuffling theirs.
    let seat = |s: u8| usize::from(s) % n;
    let count_on =
        |on: &str| o.events.iter().filter(|e| matches!(&e.event, Event::Triggered { on: x, .. } if x == on)).count();
    let want_search = b.case.ob_nixilis.map_or(0, |ob| {
        searches
            .iter()
            .filter(|c| {
                specs[0].zones.contains(&SearchZone::Library) && c.whose == c.searcher && c.searcher != seat(ob)
            })
            .count()
    });
    if count_on("searched_library") != want_search {
        return Err(fail(
            "triggers",
            format!(
                "{} search trigger(s) went on the stack; the searches call for {want_search}",
                count_on("searched_library")
            ),
        ));
    }
    let want_shuffle = b.case.cosi.map_or(0, |cosi| {
        o.events
            .iter()
            .filter(|e| matches!(&e.event, Event::Shuffled { library } if *library != NAMES[seat(cosi)]))
            .count()
    });
    if count_on("shuffled_library") != want_shuffle {
        return Err(fail(
            "triggers",
            format!(
                "{} shuffle trigger(s) went on the stack; the shuffles call for {want_shuffle}",
                count_on("shuffled_library")
            ),
        ));
    }
    Ok(())
}

/// Every per-outcome invariant.
pub fn outcome_invariants(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    conservation(b.setup(), &legal.outcome)?;
    hidden_information(b, legal)?;
    quantity_rules(b, &legal.outcome)?;
    public_zone_completeness(b, &legal.outcome)?;
    shuffle_bookkeeping(b, legal)
}

/// Determinism: the same case and choices give the same run.
pub fn determinism(setup: &Setup, choices: &[u8], first: &Result<Run, SimError>) -> Result<(), CheckFailure> {
    let again = run_with_choices(setup, choices);
    if &again != first {
        return Err(fail("determinism", format!("two runs with the same choices differ:\n{first:?}\n{again:?}")));
    }
    Ok(())
}

/// The judge accepts the outcome of a simulated run, reported with any shuffle order, and rejects
/// every change that creates, loses or duplicates a card (those are never legal).
pub fn judge_accepts_run(setup: &Setup, legal: &LegalOutcome, seed: u64) -> Result<(), CheckFailure> {
    let reported = concretize(legal, seed);
    let verdict = judge(setup, &reported);
    if !verdict.is_legal() {
        return Err(fail(
            "judge",
            format!("the judge rejects an outcome the simulator produced: {verdict:?}\n{reported:#?}"),
        ));
    }
    let mut broken: Vec<(String, Outcome)> =
        corruptions(&reported).into_iter().filter(|(what, _)| what.starts_with("list ")).collect();
    if let Some((zone, cards)) = reported.zones.iter().find(|(z, c)| *z != "stack" && !c.is_empty()) {
        let mut lost = reported.clone();
        lost.zones.insert(zone.clone(), cards[1..].to_vec());
        broken.push((format!("drop {} from {zone}", cards[0]), lost));
    }
    for (what, c) in broken {
        match judge(setup, &c) {
            Verdict::Illegal(d) if !d.is_empty() => {}
            v => {
                return Err(fail(
                    "judge",
                    format!("the judge does not reject `{what}`, which breaks conservation: {v:?}"),
                ));
            }
        }
    }
    Ok(())
}

/// Judge ⇔ enumerator: every enumerated outcome, reported with any shuffle order, is judged
/// legal, and every single-step corruption of it is judged legal exactly when it is itself an
/// enumerated outcome; every rejection names a clause. Returns how many outcomes were checked
/// (0 when the state is too large or unsupported).
pub fn agreement(setup: &Setup, run_limit: usize, seed: u64) -> Result<usize, CheckFailure> {
    let x = match explore(setup, run_limit) {
        Ok(x) => x,
        Err(e) if is_skip(&e) => return Ok(0),
        Err(e) => return Err(fail("enumerator", format!("explore failed: {e:?}"))),
    };
    agreement_on(setup, &x, seed, usize::MAX)?;
    Ok(x.outcomes.len())
}

/// [`agreement`] over an exploration already made, on at most `sample` of its outcomes (an even
/// sample), so that one fuzz input stays quick; membership is still decided against them all.
pub fn agreement_on(setup: &Setup, x: &Exploration, seed: u64, sample: usize) -> Result<(), CheckFailure> {
    if x.outcomes.is_empty() {
        return Err(fail("enumerator", "the enumerator found no outcome at all"));
    }
    let stride = x.outcomes.len().div_ceil(sample.max(1)).max(1);
    for (i, legal) in x.outcomes.values().enumerate().filter(|(i, _)| i % stride == 0) {
        let reported = concretize(legal, seed ^ i as u64);
        let verdict = judge(setup, &reported);
        if !verdict.is_legal() {
            return Err(fail(
                "agreement",
                format!("judge rejected enumerated outcome #{i}: {verdict:?}\n{reported:#?}"),
            ));
        }
        for (what, corrupted) in corruptions(&reported) {
            let member = is_member(&corrupted, &x.outcomes);
            let verdict = judge(setup, &corrupted);
            if verdict.is_legal() != member {
                return Err(fail(
                    "agreement",
                    format!("corruption `{what}` of outcome #{i}: enumerated={member} but the judge says {verdict:?}"),
                ));
            }
            if let Verdict::Illegal(diffs) = &verdict
                && (diffs.is_empty() || diffs.iter().any(|d| d.clause.is_empty()))
            {
                return Err(fail("agreement", format!("rejection of `{what}` without a clause: {diffs:?}")));
            }
        }
    }
    Ok(())
}

/// How many distinct `Count`s a case can ask for, for the reach statistics.
pub fn count_label(c: Count) -> &'static str {
    match c {
        Count::One => "a",
        Count::Exactly(_) => "N",
        Count::UpTo(_) => "up to N",
        Count::All => "all",
    }
}
