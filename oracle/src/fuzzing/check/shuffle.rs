//! Shuffle bookkeeping (701.24a–b, 701.23f, 701.24e): which shuffles happen, what stays on top,
//! and which triggers fire.

use std::collections::BTreeSet;

use crate::cards::instructions::{Destination, SearchZone};
use crate::fuzzing::CheckFailure;
use crate::fuzzing::case::NAMES;
use crate::outcome::{Event, LegalOutcome};

use super::{Built, SearchContext, fail, last_move_step, named_searchers, search_contexts, searchable_zones};

/// Shuffle bookkeeping: each search whose instruction says "then shuffle" shuffles the searched
/// player's library once, and nothing else shuffles (701.24a); cards the search puts on top are
/// not part of that shuffle and stay at fixed positions (701.24b); "whenever … searches" and
/// "whenever … shuffles" abilities trigger once per search and per shuffle (701.23f, 701.24e).
pub fn shuffle_bookkeeping(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    shuffle_bookkeeping_in(b, legal, &search_contexts(b, &legal.outcome)?)
}

/// [`shuffle_bookkeeping`] with the outcome's search contexts, already worked out.
pub(super) fn shuffle_bookkeeping_in(
    b: &Built,
    legal: &LegalOutcome,
    searches: &[SearchContext],
) -> Result<(), CheckFailure> {
    let o = &legal.outcome;
    let step = b.resolution_step();
    let specs = b.specs();
    let n = b.case.player_count();
    let shuffles = specs.iter().any(|s| s.shuffle);
    // 101.2: a searcher a Stranglehold leaves nothing to search doesn't search; when the
    // instruction isn't optional its "then shuffle" still happens (the Stranglehold rulings),
    // and when it is, they can't choose to search, so nothing happens. A spell whose only target
    // left the battlefield doesn't resolve at all (608.2b).
    let resolves =
        !(b.case.targets_permanent() && b.case.search.exile_target_in_response && b.case.target_player().is_none());
    let stopped: Vec<usize> = if resolves && !specs[0].optional {
        named_searchers(b)
            .into_iter()
            .filter(|&p| searchable_zones(b, p).is_empty())
            .map(|p| b.case.target_player().unwrap_or(p))
            .collect()
    } else {
        Vec::new()
    };
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
        let want = if shuffles {
            searches.iter().filter(|c| c.whose == p).count() + stopped.iter().filter(|&&w| w == p).count()
        } else {
            0
        };
        if shuffled.len() != want {
            return Err(fail(
                "shuffle",
                format!("{name}'s library was shuffled {} time(s); the searches call for {want}", shuffled.len()),
            ));
        }
        // 701.24b: cards put on top after the shuffle sit at fixed positions above the random rest.
        if want > 0 {
            let zone = format!("{name}.library");
            let lib: &[String] = o.zones.get(&zone).map_or(&[], Vec::as_slice);
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
                searchable_zones(b, c.searcher).contains(&SearchZone::Library)
                    && c.whose == c.searcher
                    && c.searcher != seat(ob)
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
