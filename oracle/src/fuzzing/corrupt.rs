//! Single-step corruptions of an outcome.
//!
//! The agreement checks (judge ⇔ enumerator) use them with [`crate::outcome::concrete`]: every
//! legal outcome, reported with any shuffle order, must be accepted; every single-step change of
//! it must be accepted exactly when it lands on another legal outcome.

use crate::outcome::{Event, LoggedEvent, Outcome};

/// The zones a corruption may send or list a card to: the outcome's own, and exile.
fn destinations(o: &Outcome) -> Vec<String> {
    o.zones.keys().cloned().chain(["exile".to_string()]).collect()
}

/// Each zone's first card listed in a second zone as well: changes that duplicate a card, which
/// no legal outcome has (400.1: a card is in one zone at a time).
pub fn listed_twice(o: &Outcome) -> Vec<(String, Outcome)> {
    duplication_sites(o).into_iter().map(|(card, other)| list_again(o, card, &other)).collect()
}

/// One of [`listed_twice`]'s changes, the `pick`-th (modulo their number), built alone: a large
/// outcome is cloned once, not once per zone. `None` when the outcome lists no card.
pub fn one_listed_twice(o: &Outcome, pick: u64) -> Option<(String, Outcome)> {
    let sites = duplication_sites(o);
    let (card, other) = sites.get((pick % sites.len().max(1) as u64) as usize)?;
    Some(list_again(o, card, other))
}

/// For each zone with a card, its first card and the zone it is listed in again.
fn duplication_sites(o: &Outcome) -> Vec<(&String, String)> {
    let zones = destinations(o);
    o.zones
        .iter()
        .filter_map(|(zone, cards)| Some((cards.first()?, zones.iter().find(|z| *z != zone)?.clone())))
        .collect()
}

fn list_again(o: &Outcome, card: &str, other: &str) -> (String, Outcome) {
    let mut c = o.clone();
    c.zones.entry(other.to_string()).or_default().push(card.to_string());
    (format!("list {card} in {other} too"), c)
}

/// Single-step changes of an outcome, each with a description.
pub fn corruptions(o: &Outcome) -> Vec<(String, Outcome)> {
    corruptions_picked(o, |_| true).1
}

/// How many single-step changes [`corruptions`] lists for `o`, and those of them whose index
/// `keep` accepts, in order: only those are built. A fuzz input judges a handful of an outcome's
/// dozens of corruptions, and building (then dropping) every one of them was a quarter of the
/// `search_request` target's time.
pub fn corruptions_picked(o: &Outcome, keep: impl Fn(usize) -> bool) -> (usize, Vec<(String, Outcome)>) {
    let mut sink = Sink { keep: &keep, next: 0, out: Vec::new() };
    build_corruptions(o, &mut sink);
    (sink.next, sink.out)
}

/// Collects the corruptions whose index `keep` accepts, building only those.
struct Sink<'k> {
    keep: &'k dyn Fn(usize) -> bool,
    next: usize,
    out: Vec<(String, Outcome)>,
}

impl Sink<'_> {
    fn push(&mut self, what: impl FnOnce() -> String, make: impl FnOnce() -> Outcome) {
        if (self.keep)(self.next) {
            self.out.push((what(), make()));
        }
        self.next += 1;
    }
}

fn build_corruptions(o: &Outcome, out: &mut Sink) {
    let zones = destinations(o);
    // Move one card to another zone.
    for (zone, cards) in &o.zones {
        for (i, card) in cards.iter().enumerate().take(4) {
            for other in zones.iter().filter(|z| *z != zone).take(3) {
                out.push(
                    || format!("move {card} from {zone} to {other}"),
                    || {
                        let mut c = o.clone();
                        if let Some(v) = c.zones.get_mut(zone) {
                            v.remove(i);
                        }
                        c.zones.entry(other.clone()).or_default().insert(0, card.clone());
                        c
                    },
                );
            }
        }
    }
    // List one card in a second zone as well.
    for (card, other) in duplication_sites(o) {
        out.push(|| format!("list {card} in {other} too"), || list_again(o, card, &other).1);
    }
    // Swap the top two cards of a library.
    for (zone, cards) in &o.zones {
        if zone.ends_with(".library") && cards.len() >= 2 {
            out.push(
                || format!("swap the top two cards of {zone}"),
                || {
                    let mut c = o.clone();
                    if let Some(v) = c.zones.get_mut(zone) {
                        v.swap(0, 1);
                    }
                    c
                },
            );
        }
    }
    // Drop or duplicate one event.
    for i in 0..o.events.len() {
        let kind = o.events[i].event.kind();
        out.push(
            || format!("drop event {i} ({kind})"),
            || {
                let mut c = o.clone();
                c.events.remove(i);
                c
            },
        );
        out.push(
            || format!("duplicate event {i} ({kind})"),
            || {
                let mut d = o.clone();
                d.events.insert(i, o.events[i].clone());
                d
            },
        );
    }
    // Change what a search found; reveal what it found.
    for (i, e) in o.events.iter().enumerate() {
        if let Event::Searched { player, found, .. } = &e.event {
            if let Some(first) = found.first() {
                out.push(
                    || format!("search {i} did not find {first}"),
                    || {
                        let mut c = o.clone();
                        if let Event::Searched { found, .. } = &mut c.events[i].event {
                            found.remove(0);
                        }
                        c
                    },
                );
                out.push(
                    || format!("reveal {first}"),
                    || {
                        let mut r = o.clone();
                        r.events.insert(
                            i + 1,
                            LoggedEvent {
                                step: e.step,
                                event: Event::Revealed { player: player.clone(), cards: vec![first.clone()] },
                            },
                        );
                        r
                    },
                );
            }
            for (zone, cards) in &o.zones {
                if let Some(extra) = cards.iter().find(|c| !found.contains(c)) {
                    out.push(
                        || format!("search {i} also found {extra} (in {zone})"),
                        || {
                            let mut c = o.clone();
                            if let Event::Searched { found, .. } = &mut c.events[i].event {
                                found.push(extra.clone());
                            }
                            c
                        },
                    );
                    break;
                }
            }
        }
    }
    // Knowledge and life.
    if let Some((card, who)) = o.known.iter().next() {
        out.push(
            || format!("nobody knows {card} (was {who:?})"),
            || {
                let mut c = o.clone();
                c.known.remove(card);
                c
            },
        );
    }
    for (zone, cards) in &o.zones {
        if (zone.ends_with(".hand") || zone.ends_with(".library")) && !cards.is_empty() {
            out.push(
                || format!("everyone knows {}", cards[0]),
                || {
                    let mut c = o.clone();
                    let names: Vec<String> = o.life.keys().cloned().collect();
                    c.known.insert(cards[0].clone(), names);
                    c
                },
            );
            break;
        }
    }
    if let Some((p, l)) = o.life.iter().next() {
        out.push(
            || format!("{p} lost a life"),
            || {
                let mut c = o.clone();
                c.life.insert(p.clone(), l - 1);
                c
            },
        );
    }
}
