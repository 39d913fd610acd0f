//! Hidden information (400.2, 701.20, 701.23e, 701.24a): who may know which card, and why.

use crate::fuzzing::CheckFailure;
use crate::fuzzing::case::{NAMES, QualityKind};
use crate::model::ZoneRef;
use crate::outcome::{Event, FixedPositions, LegalOutcome};

use super::{Built, fail, search_controller};

/// Whether `p` controlled `searcher` while they searched `zone` (723.5).
fn controls_search(b: &Built, searcher: &str, zone: &str, p: &str) -> bool {
    let seat = |name: &str| NAMES.iter().position(|n| *n == name);
    let (Some(s), Some(c)) = (seat(searcher), seat(p)) else { return false };
    let whose = b.case.target_player().unwrap_or(s);
    zone.strip_prefix(NAMES[whose]).is_some_and(|z| z.starts_with('.')) && search_controller(b, s, whose) == c
}

/// Hidden information (400.2, 701.20, 701.23e, 701.24a): nothing is revealed unless an
/// instruction says so, and every player who knows a card in a hidden zone has a reason to: it is
/// their own hand or sideboard, it was revealed, they found it, they searched the hand it is in,
/// or they knew it at the start and it never moved. A card in the random part of a library was
/// shuffled since it got there, so nobody knows it.
pub fn hidden_information(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    let o = &legal.outcome;
    let specs = b.specs();
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
    if o.known.is_empty() {
        return Ok(());
    }
    // Each card's last move, found in one pass over the log (looking it up card by card scanned
    // the log once per known card: 1.4% of the `zone_state` fuzz target's instructions).
    let mut last_moves = crate::model::fast_map::<&str, usize>(o.events.len());
    for e in &o.events {
        if let Event::Moved { card, .. } = &e.event {
            let step = last_moves.entry(card.as_str()).or_insert(e.step);
            *step = (*step).max(e.step);
        }
    }
    for (zone, cards) in &o.zones {
        let Some((owner, kind)) = zone.rsplit_once('.') else { continue };
        if !matches!(kind, "library" | "hand" | "outside") {
            continue;
        }
        let unfixed = FixedPositions::default();
        let fixed = legal.fixed.get(zone).unwrap_or(&unfixed);
        let len = cards.len();
        let random = fixed.top().min(len)..len - fixed.bottom().min(len - fixed.top().min(len));
        for (i, card) in cards.iter().enumerate() {
            let Some(who) = o.known.get(card).filter(|w| !w.is_empty()) else { continue };
            if kind == "library" && random.contains(&i) {
                return Err(fail(
                    "hidden information",
                    format!("`{card}` is in the shuffled part of {zone} but {} know it (701.24a)", who.join(", ")),
                ));
            }
            let moved = last_moves.get(card.as_str()).copied();
            // Each reason is looked for only while none before it holds: they scan the log.
            for p in who {
                let own = kind != "library" && p == owner;
                let revealed = || {
                    o.events.iter().any(|e| {
                        moved.is_none_or(|m| e.step >= m)
                            && matches!(&e.event, Event::Revealed { cards, .. } if cards.contains(card))
                    })
                };
                let found = || {
                    o.events.iter().any(|e| {
                    moved == Some(e.step)
                        && matches!(&e.event, Event::Searched { player, found, .. } if player == p && found.contains(card))
                })
                };
                // 701.23a: a searcher looked at every card of a hand or library searched; 723.4: so
                // did the player controlling them (Opposition Agent's controller, 723.5).
                let searched_hand = || {
                    matches!(kind, "hand" | "library")
                        && o.events.iter().any(|e| {
                            moved.is_none_or(|m| e.step >= m)
                                && matches!(&e.event, Event::Searched { player, zones, .. }
                                if zones.contains(zone) && (player == p || controls_search(b, player, zone, p)))
                        })
                };
                let from_start = || {
                    moved.is_none()
                        && b.obj(card).is_some_and(|x| {
                            b.setup()
                                .game
                                .players
                                .iter()
                                .position(|q| &q.name == p)
                                .is_some_and(|s| x.known & (1 << s) != 0)
                        })
                };
                // 401.4: cards a search put on top of their owner's library at the same time are
                // arranged by that owner, who sees them — with several searchers at once (101.4),
                // every searcher's cards put there count.
                let arranged = || {
                    if kind != "library" || p != owner {
                        return false;
                    }
                    let in_step = || o.events.iter().filter(|e| moved == Some(e.step));
                    let found: Vec<&String> = in_step()
                        .flat_map(|e| match &e.event {
                            Event::Searched { found, .. } => found.as_slice(),
                            _ => &[],
                        })
                        .collect();
                    let put_here = in_step()
                        .filter(|e| matches!(&e.event, Event::Moved { card: c, to, .. } if to == zone && found.contains(&c)))
                        .count();
                    found.contains(&card) && put_here > 1
                };
                // 400.2: a card that left a public zone was seen by every player as it moved.
                let seen_leaving = || {
                    o.events.iter().any(|e| {
                        moved == Some(e.step)
                            && matches!(&e.event, Event::Moved { card: c, from, .. } if c == card
                            && !(from.ends_with(".library") || from.ends_with(".hand") || from.ends_with(".outside")))
                    })
                };
                if !(own || revealed() || found() || searched_hand() || from_start() || arranged() || seen_leaving()) {
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
