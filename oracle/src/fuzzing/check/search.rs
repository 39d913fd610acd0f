//! The search rules per logged search (701.23b–d/f/h/j): what each search could legally have
//! done, the quantity rules, and the completeness of public zones.

use std::collections::BTreeSet;

use crate::cards::instructions::{Count, Filter, Relation, SearchSpec, SearchZone};
use crate::fuzzing::CheckFailure;
use crate::fuzzing::case::{Delivery, NAMES, SEARCH_ID, TARGET_ID};
use crate::model::ZoneRef;
use crate::outcome::{Event, Outcome};
use crate::rules::characteristics::matches;

use super::{Built, fail};

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

/// The zones of the instruction that `searcher` may search (101.2): all of them, except that a
/// Stranglehold stops its controller's opponents from searching any library — they still search
/// the instruction's other zones.
pub fn searchable_zones(b: &Built, searcher: usize) -> Vec<SearchZone> {
    let barred = b.case.stranglehold_seat().is_some_and(|s| s != searcher);
    b.specs()[0].zones.iter().copied().filter(|z| !(barred && *z == SearchZone::Library)).collect()
}

/// The player who makes `searcher`'s choices while they search `whose` zones (723.5): the
/// controller of the latest Opposition Agent (723.1a) controlled by an opponent of the searcher,
/// when the searcher searches their own library; otherwise the searcher.
pub fn search_controller(b: &Built, searcher: usize, whose: usize) -> usize {
    if whose != searcher || !searchable_zones(b, searcher).contains(&SearchZone::Library) {
        return searcher;
    }
    b.case.opposition_agent_seats().into_iter().rev().find(|&a| a != searcher).unwrap_or(searcher)
}

/// The searchers the instruction names (701.23i), whether or not they end up searching.
pub fn named_searchers(b: &Built) -> Vec<usize> {
    let n = b.case.player_count();
    let c = b.case.controller();
    match b.case.search.searchers {
        crate::fuzzing::case::Searchers::You => vec![c],
        crate::fuzzing::case::Searchers::EachPlayer => (0..n).collect(),
        crate::fuzzing::case::Searchers::EachOpponent => (0..n).filter(|&p| p != c).collect(),
    }
}

/// The cards in a zone when the search resolves: the starting cards, without the search card,
/// which is on the stack or (cycled) on top of its owner's graveyard.
fn zone_at_search(b: &Built, zone: ZoneRef) -> Vec<String> {
    let g = &b.setup().game;
    let mut ids: Vec<String> =
        g.zone(zone).iter().map(|&o| g.obj(o).id_string()).filter(|id| id != SEARCH_ID).collect();
    if b.case.delivery() == Delivery::Cycling && zone == ZoneRef::Graveyard(b.case.controller()) {
        ids.insert(0, SEARCH_ID.to_string());
    }
    ids
}

/// Works out, for every `searched` event of the resolution, what the search could find.
pub fn search_contexts(b: &Built, o: &Outcome) -> Result<Vec<SearchContext>, CheckFailure> {
    let step = b.resolution_step();
    let specs = b.specs();
    let n = b.case.player_count();
    let names: Vec<String> = NAMES[..n].iter().map(|s| s.to_string()).collect();
    let chosen: Option<&String> = o.events.iter().find_map(|e| match &e.event {
        Event::Chose { card, .. } if e.step == step => Some(card),
        _ => None,
    });
    let mut taken: BTreeSet<String> = BTreeSet::new();
    // A card cast from a library while it is searched (Panglacial Wurm, 601.3) leaves the library
    // during the search, so no search can find it (it is not "left" by a search for all cards).
    let cast_during_resolution: BTreeSet<&String> = o
        .events
        .iter()
        .filter_map(|e| match &e.event {
            Event::Cast { card, .. } if e.step == step => Some(card),
            _ => None,
        })
        .collect();
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
        let searchable = searchable_zones(b, searcher);
        let cap =
            if searchable.contains(&SearchZone::Library) { expected_cap(b, searcher, *library_top) } else { None };
        // 701.23i: simultaneous searchers look at the same cards; a card an earlier one found is
        // not there for the later ones to find.
        let mut looked: Vec<String> = Vec::new();
        for z in &searchable {
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
            if let ZoneRef::Library(_) = zone {
                cards.retain(|c| !cast_during_resolution.contains(c));
            }
            looked.extend(cards.into_iter().filter(|c| !taken.contains(c)));
        }
        let mut candidates = Vec::new();
        let mut undefined = Vec::new();
        for s in specs {
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
    quantity_rules_in(b, &search_contexts(b, o)?)
}

/// [`quantity_rules`] on the outcome's search contexts, already worked out.
pub(super) fn quantity_rules_in(b: &Built, contexts: &[SearchContext]) -> Result<(), CheckFailure> {
    let specs = b.specs();
    let n = b.case.player_count();
    for ctx in contexts {
        let who = NAMES[ctx.searcher];
        let want_zones: BTreeSet<String> = searchable_zones(b, ctx.searcher)
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
    match completeness_spec(b) {
        Some(s) => completeness_of(b, s, &search_contexts(b, o)?),
        None => Ok(()),
    }
}

/// [`public_zone_completeness`] on the outcome's search contexts, already worked out.
pub(super) fn public_zone_completeness_in(b: &Built, contexts: &[SearchContext]) -> Result<(), CheckFailure> {
    completeness_spec(b).map_or(Ok(()), |s| completeness_of(b, s, contexts))
}

/// The one instruction whose public zones must be complete, if the case has one: not a merged
/// search (library-only), not a search for a quantity only, not "up to N" (finding fewer, a
/// public card left too, is the searcher's choice).
fn completeness_spec(b: &Built) -> Option<&SearchSpec> {
    let [s] = b.specs() else { return None };
    if s.filter.as_ref().is_none_or(Filter::is_quantity_only) || matches!(s.count, Count::UpTo(_)) {
        return None;
    }
    Some(s)
}

fn completeness_of(b: &Built, s: &SearchSpec, contexts: &[SearchContext]) -> Result<(), CheckFailure> {
    for ctx in contexts {
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
