//! Outcomes: what a scenario ends with, as the oracle computes it and as an engine reports it.
//!
//! One serde type serves both sides, so the protocol and the judge read the same thing. Names are
//! strings (player names, scenario card ids, zone names such as `Bob.library`), which keeps an
//! engine adapter free of oracle internals.

pub mod concrete;
mod set;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
pub use set::Outcomes;

/// Something that happened, as recorded in the event log. Every variant that involves a choice
/// carries that choice (`found`, `card`), so a judge can replay a run from its log alone.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", rename_all = "snake_case", deny_unknown_fields)]
pub enum Event {
    /// A spell was cast (CR 701.5); `face` names the half of a split card.
    Cast {
        /// Caster.
        player: String,
        /// Card id.
        card: String,
        /// Half cast, for a split card (CR 709.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<String>,
        /// Cast from the graveyard with flashback (CR 702.34a).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        flashback: bool,
        /// Cast without paying its mana cost, as part of another effect (CR 118.9).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        without_paying_mana_cost: bool,
        /// The value chosen for X, for a spell with X in its mana cost (CR 107.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<u32>,
        /// The targets chosen for it (CR 601.2c): card ids and player names, in the order the
        /// spell lists its targets (the `cast_targets` observable).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// An activated ability was activated.
    Activated {
        /// Who activated it.
        player: String,
        /// Its source.
        card: String,
        /// The ability's name, e.g. `plainscycling`.
        ability: String,
    },
    /// A player searched (CR 701.23). One event per search, however many zones it covered and
    /// however many instructions were merged into it (701.23h).
    Searched {
        /// Who searched.
        player: String,
        /// The zones searched, e.g. `[Bob.graveyard, Bob.hand, Bob.library]`.
        zones: Vec<String>,
        /// When a replacement limited the library part to its top N cards (701.23f).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        library_top: Option<u32>,
        /// The cards found (in any order).
        found: Vec<String>,
    },
    /// Cards were revealed to every player (CR 701.20a).
    Revealed {
        /// Who revealed them.
        player: String,
        /// The cards.
        cards: Vec<String>,
    },
    /// A library was shuffled (CR 701.24a).
    Shuffled {
        /// Whose library.
        library: String,
    },
    /// A triggered ability triggered (CR 603.2) and was put on the stack; within a step these
    /// events are in the order the abilities went on the stack (603.3b).
    Triggered {
        /// The ability's source.
        source: String,
        /// Its controller.
        controller: String,
        /// What it triggered on, optional (protocol 2): one of `dies`, `another_creature_dies`,
        /// `enters`, `leaves_battlefield`, `put_into_graveyard`, `this_cycled`, `cycled`,
        /// `discarded`, `cycled_or_discarded`, `sacrificed`, `searched_library`,
        /// `shuffled_library` (`protocol::TRIGGER_KINDS`). Left out (or empty), the trigger is
        /// identified by its `source`, `controller` and triggering `player`.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        on: String,
        /// The player whose action triggered it ("that player"), for search, shuffle, cycle,
        /// discard and sacrifice triggers.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// The targets chosen as it went on the stack (card ids and player names, in the order
        /// the ability lists them; CR 603.3d).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// A card changed zones (CR 400.7: it is a new object afterwards).
    Moved {
        /// Card id.
        card: String,
        /// Zone it left.
        from: String,
        /// Zone it entered.
        to: String,
    },
    /// A player chose a card (for example from a revealed hand).
    Chose {
        /// Who chose.
        player: String,
        /// The card.
        card: String,
    },
    /// A player sacrificed a permanent.
    Sacrificed {
        /// Who sacrificed.
        player: String,
        /// The permanent.
        card: String,
    },
    /// A player lost life.
    LostLife {
        /// Who.
        player: String,
        /// How much.
        amount: u32,
    },
    /// Counters were put on a permanent.
    Counters {
        /// The permanent.
        card: String,
        /// How many +1/+1 counters.
        count: u32,
    },
    /// Cards were looked at by one player (CR 701.20e).
    LookedAt {
        /// Who looked.
        player: String,
        /// The cards.
        cards: Vec<String>,
    },
    /// A player discarded a card (CR 701.9a), including to pay a cycling cost.
    Discarded {
        /// Who discarded.
        player: String,
        /// The card.
        card: String,
    },
    /// A player dredged instead of drawing (CR 702.52a): the card returned to hand.
    Dredged {
        /// Who dredged.
        player: String,
        /// The card with dredge.
        card: String,
        /// Which of this player's draws in this step it replaced, from 1.
        draw: u32,
    },
    /// A player chose a card name (CR 709.4a: one name of a split card).
    Named {
        /// Who named it.
        player: String,
        /// The name.
        name: String,
    },
    /// A token was created (CR 111; investigate, 701.16a). Its id is `<name>-token-<n>`,
    /// numbered from 1 in creation order over the scenario.
    Created {
        /// Its controller.
        player: String,
        /// The token's id.
        card: String,
        /// The token's name, e.g. `Clue`.
        token: String,
    },
    /// A player gained life.
    GainedLife {
        /// Who.
        player: String,
        /// How much.
        amount: u32,
    },
    /// A step the rules forbid was refused, and nothing happened.
    Refused {
        /// The player who tried.
        player: String,
        /// The card involved.
        card: String,
    },
    /// A copy of a spell was put on the stack (CR 707.10) — not cast: no `cast` event goes with
    /// it. Gravestorm's ability makes one per permanent put into a graveyard this turn (702.69a).
    /// The copy's id is `<card id>-copy-<n>` (numbered with tokens and other copies, from 1 in
    /// creation order); it ceases to exist as it leaves the stack (704.5e), so no `moved` event
    /// follows its resolution.
    Copied {
        /// The copy's controller: the player who put it on the stack.
        player: String,
        /// The copy's id.
        card: String,
        /// The card id of the spell it copies.
        of: String,
        /// Its targets (card ids and player names, in the order the spell lists them): the
        /// original's, or new ones its controller chose (707.10c).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
}

impl Event {
    /// The event with its card and zone lists sorted: which cards a search found matters, the
    /// order an engine lists them in doesn't.
    pub fn normalized(&self) -> Event {
        let mut e = self.clone();
        e.normalize();
        e
    }

    /// Makes this event [`Event::normalized`] in place.
    pub fn normalize(&mut self) {
        match self {
            Event::Searched { zones, found, .. } => {
                zones.sort();
                found.sort();
            }
            Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.sort(),
            _ => {}
        }
    }

    /// Whether the event is already [`Event::normalized`]: its card and zone lists sorted.
    pub fn is_normalized(&self) -> bool {
        match self {
            Event::Searched { zones, found, .. } => zones.is_sorted() && found.is_sorted(),
            Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.is_sorted(),
            _ => true,
        }
    }

    /// A reveal or look at no card: it shows nothing, so an outcome is the same with it logged
    /// or not (701.20a), and the canonical form leaves it out.
    pub fn shows_nothing(&self) -> bool {
        matches!(self, Event::Revealed { cards, .. } | Event::LookedAt { cards, .. }
            if crate::rules::reveal::shows_nothing(cards))
    }

    /// The variant's name as written in logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Cast { .. } => "cast",
            Event::Activated { .. } => "activated",
            Event::Searched { .. } => "searched",
            Event::Revealed { .. } => "revealed",
            Event::Shuffled { .. } => "shuffled",
            Event::Triggered { .. } => "triggered",
            Event::Moved { .. } => "moved",
            Event::Chose { .. } => "chose",
            Event::Sacrificed { .. } => "sacrificed",
            Event::LostLife { .. } => "lost_life",
            Event::Counters { .. } => "counters",
            Event::LookedAt { .. } => "looked_at",
            Event::Discarded { .. } => "discarded",
            Event::Dredged { .. } => "dredged",
            Event::Named { .. } => "named",
            Event::Created { .. } => "created",
            Event::GainedLife { .. } => "gained_life",
            Event::Refused { .. } => "refused",
            Event::Copied { .. } => "copied",
        }
    }
}

/// An event and the scenario step (0-based) during which it happened.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct LoggedEvent {
    /// Index of the step in the scenario's `steps`.
    pub step: usize,
    /// The event.
    #[serde(flatten)]
    pub event: Event,
}

/// A final game state and the event log that led to it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Outcome {
    /// Zone name → card ids in order (libraries, graveyards and the stack top first). Empty zones
    /// may be left out. Abilities on the stack appear as `ability:<source id>`.
    pub zones: BTreeMap<String, Vec<String>>,
    /// For cards in hidden zones (hands, libraries, outside the game): who has seen the card since
    /// it became its current object, sorted by name. Cards nobody knows are left out.
    #[serde(default)]
    pub known: BTreeMap<String, Vec<String>>,
    /// Life totals by player.
    #[serde(default)]
    pub life: BTreeMap<String, i32>,
    /// +1/+1 counters on permanents (left out when zero).
    #[serde(default)]
    pub counters: BTreeMap<String, u32>,
    /// The tapped permanents on the battlefield, by id (sorted). Left out when none is tapped;
    /// "put onto the battlefield tapped" (Rampant Growth, Evolving Wilds) and {T} costs show here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tapped: Vec<String>,
    /// Time counters on exiled cards, by id (left out when none; 702.62a, observable
    /// `time_counters`): a suspended card's count after it was exiled and each upkeep.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub time_counters: BTreeMap<String, u32>,
    /// Event log in order.
    #[serde(default)]
    pub events: Vec<LoggedEvent>,
}

/// Positions of a library that the rules fix; the rest of it is in random order. For a
/// graveyard, its groups from the top: every card is in one (400.5), and a group of more than
/// one is a set of cards put there at once, in an order their owner chose.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema, Default)]
pub struct FixedPositions {
    /// Groups at the top, top first: a group of one is a fixed position; a larger group is a set
    /// of cards put there at once, in an order their owner chose (401.4).
    pub top_groups: Vec<usize>,
    /// Groups at the bottom, top first (the last holds the bottom card); sizes as for
    /// `top_groups`.
    pub bottom_groups: Vec<usize>,
}

impl FixedPositions {
    /// How many cards from the top are in fixed groups.
    pub fn top(&self) -> usize {
        self.top_groups.iter().sum()
    }

    /// The top groups as index ranges, clipped to a library of `len` cards.
    pub fn top_ranges(&self, len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        crate::rules::shuffle::group_ranges(&self.top_groups, len)
    }

    /// How many cards from the bottom are in fixed groups.
    pub fn bottom(&self) -> usize {
        self.bottom_groups.iter().sum()
    }

    /// The bottom groups as index ranges in a library of `len` cards, below the top groups.
    pub fn bottom_ranges(&self, len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
        let top = self.top().min(len);
        let start = len - self.bottom().min(len - top);
        crate::rules::shuffle::group_ranges(&self.bottom_groups, len - start)
            .map(move |r| r.start + start..r.end + start)
    }
}

/// An outcome the oracle computed, with which library positions are fixed. Its `outcome` is in
/// canonical form: the random middle of each library sorted by id, and events within one step in
/// canonical order (see [`canonical_events`]).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct LegalOutcome {
    /// The outcome, canonical.
    pub outcome: Outcome,
    /// Fixed library positions, by library zone name (`Bob.library`), and the groups of each
    /// graveyard (`Bob.graveyard`).
    pub fixed: BTreeMap<String, FixedPositions>,
}

/// Puts a library's random middle in sorted order, so libraries that differ only by a shuffle
/// compare equal (701.24a: after a shuffle no order is meaningful).
pub fn canonical_library(cards: &mut [String], fixed: &FixedPositions) {
    let len = cards.len();
    let top = fixed.top().min(len);
    let bottom = fixed.bottom().min(len - top);
    for range in fixed.top_ranges(len).chain(fixed.bottom_ranges(len)) {
        cards[range].sort_unstable();
    }
    cards[top..len - bottom].sort_unstable();
}

/// Canonical order of a log: by step; within a step, `searched` events keep their relative order
/// (the APNAP order of the searchers' decisions, 701.23i), then `triggered` events keep theirs
/// (the order the abilities went on the stack, 603.3b), then `cast` events keep theirs (the
/// order of spells cast during one resolution is the caster's choice, 101.4c), then every other
/// event, sorted. Engines
/// are not required to agree on how they order the simultaneous parts of one resolution.
pub fn canonical_events(events: &[LoggedEvent]) -> Vec<LoggedEvent> {
    canonical_events_owned(events.to_vec())
}

/// [`canonical_events`] of events the caller gives up, normalized in place: the simulator's
/// outcomes and the judge's copies of observations are put in canonical form this way, and
/// copying every event was most of the canonical form's time (`perf`, `search_request`).
fn canonical_events_owned(events: Vec<LoggedEvent>) -> Vec<LoggedEvent> {
    let mut keyed: Vec<((usize, u8, usize), LoggedEvent)> = events
        .into_iter()
        .enumerate()
        .map(|(i, mut e)| {
            let key = order_key(i, &e);
            e.event.normalize();
            (key, e)
        })
        .collect();
    keyed.sort();
    keyed.into_iter().map(|k| k.1).collect()
}

/// Where the `i`th logged event sorts in canonical order, before its value breaks ties: by step,
/// then searches, triggers and casts each in the order logged, then every other event.
fn order_key(i: usize, e: &LoggedEvent) -> (usize, u8, usize) {
    match e.event {
        Event::Searched { .. } => (e.step, 0, i),
        Event::Triggered { .. } => (e.step, 1, i),
        Event::Cast { .. } => (e.step, 2, i),
        _ => (e.step, 3, 0),
    }
}

/// Whether the relative order of events of this kind within a step is part of an outcome.
pub fn is_ordered_event(event: &Event) -> bool {
    matches!(event, Event::Searched { .. } | Event::Triggered { .. } | Event::Cast { .. })
}

/// Zones whose order is part of an outcome: libraries, graveyards and the stack (400.5: their
/// order can't be changed unless a rule or effect allows it). Within a library the shuffled part
/// is unordered (701.24a); within a graveyard, each group of cards put there at the same time,
/// which their owner orders (see [`FixedPositions`]).
pub fn is_ordered_zone(zone: &str) -> bool {
    zone.ends_with(".library") || zone.ends_with(".graveyard") || zone == "stack"
}

/// Puts each group of cards put into a graveyard at once in sorted order, so graveyards that
/// differ only in how their owner ordered such a group compare equal. A graveyard with no known
/// groups (a zone the oracle doesn't have) is left as listed.
pub fn canonical_graveyard(cards: &mut [String], groups: Option<&FixedPositions>) {
    if let Some(g) = groups {
        for range in g.top_ranges(cards.len()) {
            cards[range].sort_unstable();
        }
    }
}

/// Puts one zone's cards in their canonical order (see [`Outcome::canonical`]): a library's
/// random part and a graveyard's groups sorted by the positions `fixed` gives them, an unordered
/// zone sorted, an ordered one left as listed.
pub fn canonical_zone(zone: &str, cards: &mut [String], fixed: &BTreeMap<String, FixedPositions>) {
    const NOTHING_FIXED: FixedPositions = FixedPositions { top_groups: Vec::new(), bottom_groups: Vec::new() };
    if zone.ends_with(".library") {
        canonical_library(cards, fixed.get(zone).unwrap_or(&NOTHING_FIXED));
    } else if zone.ends_with(".graveyard") {
        canonical_graveyard(cards, fixed.get(zone));
    } else if !is_ordered_zone(zone) {
        cards.sort_unstable();
    }
}

/// Whether a zone's canonical order depends on the fixed positions (libraries and graveyards).
pub fn order_depends_on_fixed(zone: &str) -> bool {
    zone.ends_with(".library") || zone.ends_with(".graveyard")
}

impl Outcome {
    /// This outcome in the canonical form of `fixed`: zones with no cards dropped, library middles
    /// sorted, events in canonical order, `known` lists sorted.
    pub fn canonical(&self, fixed: &BTreeMap<String, FixedPositions>) -> Outcome {
        self.clone().into_canonical(fixed)
    }

    /// [`Outcome::canonical`] without a copy of the outcome.
    pub fn into_canonical(self, fixed: &BTreeMap<String, FixedPositions>) -> Outcome {
        let mut out = self;
        out.zones.retain(|_, v| !v.is_empty());
        for (zone, cards) in out.zones.iter_mut() {
            canonical_zone(zone, cards, fixed);
        }
        out.known.retain(|_, v| !v.is_empty());
        for players in out.known.values_mut() {
            players.sort();
            players.dedup();
        }
        out.counters.retain(|_, v| *v != 0);
        out.time_counters.retain(|_, v| *v != 0);
        out.tapped.sort_unstable();
        out.tapped.dedup();
        out.events = canonical_events_owned(std::mem::take(&mut out.events));
        out.events.retain(|e| !e.event.shows_nothing());
        out
    }

    /// Whether this outcome, put in the canonical form of `fixed`, is `canonical`: exactly
    /// `self.canonical(fixed) == *canonical`, but without making that form when this outcome's
    /// parts are already in it (as the oracle's own outcomes and most engines' are), so the judge
    /// can accept a matching observation without copying it. Zones go through
    /// [`zones_match_canonical`]; a part that isn't in canonical form yet is copied and put in it.
    /// The zones come last: they are the largest part, and an observation that differs elsewhere
    /// is compared again in full to name its differences.
    pub fn is_canonically(&self, canonical: &Outcome, fixed: &BTreeMap<String, FixedPositions>) -> bool {
        self.is_canonically_apart(canonical, fixed, &BTreeMap::<String, ()>::new(), |_, _, _| false)
    }

    /// [`Outcome::is_canonically`] against a canonical outcome that leaves some non-empty zones
    /// out, `apart`: the caller holds those in another form and `same_apart(zone, held, got)` says
    /// whether this outcome's cards `got` in `zone` match them (the judge holds a 100 000-card
    /// library as objects, not as 100 000 ids written out and sorted). Every other zone is
    /// compared as [`zones_match_canonical`] does.
    pub fn is_canonically_apart<A>(
        &self,
        canonical: &Outcome,
        fixed: &BTreeMap<String, FixedPositions>,
        apart: &BTreeMap<String, A>,
        same_apart: impl Fn(&str, &A, &[String]) -> bool,
    ) -> bool {
        self.life == canonical.life
            && nonzero_match(&self.counters, &canonical.counters)
            && nonzero_match(&self.time_counters, &canonical.time_counters)
            && set_matches(&self.tapped, &canonical.tapped)
            && self.known.values().filter(|v| !v.is_empty()).count() == canonical.known.len()
            && self
                .known
                .iter()
                .filter(|(_, v)| !v.is_empty())
                .zip(&canonical.known)
                .all(|((card, who), (want_card, want))| card == want_card && set_matches(who, want))
            && events_match(&self.events, &canonical.events)
            && zones_match_canonical_apart(&canonical.zones, &self.zones, fixed, apart, same_apart)
    }
}

/// Whether `map` without its zero entries is `canonical` (which has none).
fn nonzero_match(map: &BTreeMap<String, u32>, canonical: &BTreeMap<String, u32>) -> bool {
    map.iter().filter(|(_, v)| **v != 0).eq(canonical.iter())
}

/// Whether `items`, sorted and without repeats, is `canonical`.
fn set_matches(items: &[String], canonical: &[String]) -> bool {
    if items.windows(2).all(|w| w[0] < w[1]) {
        return items == canonical;
    }
    let mut sorted = items.to_vec();
    sorted.sort_unstable();
    sorted.dedup();
    sorted == canonical
}

/// Whether `events` in canonical form ([`canonical_events`], without reveals that show nothing, as
/// [`Outcome::into_canonical`] leaves them) is `canonical`: sorted by reference when every event is
/// already normalized, else through a normalized copy.
pub fn events_match(events: &[LoggedEvent], canonical: &[LoggedEvent]) -> bool {
    let shows_something = |e: &&LoggedEvent| !e.event.shows_nothing();
    if !events.iter().all(|e| e.event.is_normalized()) {
        return canonical_events(events).iter().filter(shows_something).eq(canonical.iter());
    }
    // The order of `canonical_events`, with the events borrowed.
    let mut keyed: Vec<((usize, u8, usize), &LoggedEvent)> =
        events.iter().enumerate().map(|(i, e)| (order_key(i, e), e)).collect();
    keyed.sort();
    keyed.iter().map(|k| k.1).filter(shows_something).eq(canonical.iter())
}

/// Whether `observed` zones, put in the canonical form of `fixed` ([`Outcome::canonical`]), equal
/// `canonical`, without making that form: no copy of the observed cards, and a library's shuffled
/// part compared as a multiset (counted in a hash map) instead of sorted. The answer is exactly
/// `canonical == observed.canonical(fixed).zones`: a part the canonical form sorts must be sorted
/// in `canonical` and hold the same cards. Judging a 100,000-card library spent a third of its time
/// copying and sorting the observed one.
pub fn zones_match_canonical(
    canonical: &BTreeMap<String, Vec<String>>,
    observed: &BTreeMap<String, Vec<String>>,
    fixed: &BTreeMap<String, FixedPositions>,
) -> bool {
    zones_match_canonical_apart(canonical, observed, fixed, &BTreeMap::<String, ()>::new(), |_, _, _| false)
}

/// [`zones_match_canonical`] where `canonical` leaves out the non-empty zones of `apart`, which
/// `same_apart(zone, held, got)` compares instead (see [`Outcome::is_canonically_apart`]).
fn zones_match_canonical_apart<A>(
    canonical: &BTreeMap<String, Vec<String>>,
    observed: &BTreeMap<String, Vec<String>>,
    fixed: &BTreeMap<String, FixedPositions>,
    apart: &BTreeMap<String, A>,
    same_apart: impl Fn(&str, &A, &[String]) -> bool,
) -> bool {
    let nothing_fixed = FixedPositions::default();
    let listed = observed.iter().filter(|(_, cards)| !cards.is_empty());
    // Each zone of `apart` is met at most once (the observed zones are a map), so with this count
    // every canonical zone and every zone apart must be met for the loop to get through.
    if listed.clone().count() != canonical.len() + apart.len() {
        return false;
    }
    let mut wanted = canonical.iter();
    for (zone, got) in listed {
        if let Some(held) = apart.get(zone) {
            if !same_apart(zone, held, got) {
                return false;
            }
            continue;
        }
        let Some((want_zone, want)) = wanted.next() else { return false };
        if zone != want_zone || got.len() != want.len() {
            return false;
        }
        let len = got.len();
        let same = if zone.ends_with(".library") {
            let f = fixed.get(zone).unwrap_or(&nothing_fixed);
            let (top, bottom) = (f.top().min(len), f.bottom().min(len - f.top().min(len)));
            let groups = f.top_ranges(len).chain(f.bottom_ranges(len));
            // Cards outside every range and the middle: the canonical form sorts the middle only.
            groups.chain(std::iter::once(top..len - bottom)).all(|r| same_sorted(&want[r.clone()], &got[r]))
                && same_outside(want, got, f.top_ranges(len).chain(f.bottom_ranges(len)), top..len - bottom)
        } else if zone.ends_with(".graveyard") {
            match fixed.get(zone) {
                Some(g) => {
                    g.top_ranges(len).all(|r| same_sorted(&want[r.clone()], &got[r]))
                        && same_outside(want, got, g.top_ranges(len), 0..0)
                }
                None => want == got,
            }
        } else if is_ordered_zone(zone) {
            want == got
        } else {
            same_sorted(want, got)
        };
        if !same {
            return false;
        }
    }
    true
}

/// Whether the cards of `want` and `got` outside `ranges` and `middle` are the same, position by
/// position (the canonical form leaves them as listed).
fn same_outside(
    want: &[String],
    got: &[String],
    ranges: impl Iterator<Item = std::ops::Range<usize>>,
    middle: std::ops::Range<usize>,
) -> bool {
    let mut covered = vec![false; want.len()];
    for r in ranges.chain(std::iter::once(middle)) {
        for c in &mut covered[r] {
            *c = true;
        }
    }
    (0..want.len()).all(|i| covered[i] || want[i] == got[i])
}

/// Whether `got`, sorted, is `want`: `want` is sorted and the two hold the same cards (a multiset
/// comparison, by counting in a hash map for long slices).
fn same_sorted(want: &[String], got: &[String]) -> bool {
    if want.len() != got.len() || !want.is_sorted() {
        return false;
    }
    if want == got {
        return true;
    }
    if want.len() <= 32 {
        let mut g: Vec<&str> = got.iter().map(String::as_str).collect();
        g.sort_unstable();
        return want.iter().map(String::as_str).eq(g);
    }
    let mut counts: crate::model::FastMap<&str, isize> = crate::model::fast_map(want.len());
    for c in want {
        *counts.entry(c.as_str()).or_default() += 1;
    }
    for c in got {
        match counts.get_mut(c.as_str()) {
            Some(n) if *n > 0 => *n -= 1,
            _ => return false,
        }
    }
    true
}

#[cfg(test)]
mod canonical_tests {
    use super::*;

    /// Step first; within a step searches in logged order, then every other event sorted; each
    /// event's card and zone lists sorted.
    #[test]
    fn events_take_the_canonical_order_normalized() {
        let e = |step, event| LoggedEvent { step, event };
        let events = vec![
            e(1, Event::Shuffled { library: "Bob".into() }),
            e(
                1,
                Event::Searched {
                    player: "Bob".into(),
                    zones: vec!["Bob.library".into(), "Bob.graveyard".into()],
                    library_top: None,
                    found: vec!["b".into(), "a".into()],
                },
            ),
            e(0, Event::Revealed { player: "Ann".into(), cards: vec!["z".into(), "y".into()] }),
            e(
                1,
                Event::Searched {
                    player: "Ann".into(),
                    zones: vec!["Ann.library".into()],
                    library_top: None,
                    found: vec![],
                },
            ),
            e(1, Event::Moved { card: "a".into(), from: "Bob.library".into(), to: "Bob.hand".into() }),
        ];
        let canonical = canonical_events(&events);
        let expected = [
            e(0, Event::Revealed { player: "Ann".into(), cards: vec!["y".into(), "z".into()] }),
            e(
                1,
                Event::Searched {
                    player: "Bob".into(),
                    zones: vec!["Bob.graveyard".into(), "Bob.library".into()],
                    library_top: None,
                    found: vec!["a".into(), "b".into()],
                },
            ),
            e(
                1,
                Event::Searched {
                    player: "Ann".into(),
                    zones: vec!["Ann.library".into()],
                    library_top: None,
                    found: vec![],
                },
            ),
            e(1, Event::Shuffled { library: "Bob".into() }),
            e(1, Event::Moved { card: "a".into(), from: "Bob.library".into(), to: "Bob.hand".into() }),
        ];
        let mut others = expected[3..].to_vec();
        others.sort();
        assert_eq!(canonical[..3], expected[..3]);
        assert_eq!(canonical[3..], others[..], "the other events of a step are sorted");
        assert_eq!(canonical_events(&canonical), canonical, "the canonical form is its own");
    }
}
