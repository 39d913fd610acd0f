//! Outcomes as an engine reports them: one concrete outcome drawn from a legal outcome set (shuffled
//! library middles, events of a step in any order the rules allow), and membership of an observed
//! outcome in an explored set.

use std::collections::BTreeMap;

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::outcome::{
    Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome, Outcomes, canonical_zone, order_depends_on_fixed,
};

/// `legal` as an engine could report it: the random middle of each library in a random order
/// and the events within each step reordered (keeping the searches' relative order, 701.23i).
pub fn concretize(legal: &LegalOutcome, seed: u64) -> Outcome {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = legal.outcome.clone();
    for (zone, cards) in out.zones.iter_mut() {
        if let Some(fixed) = legal.fixed.get(zone) {
            let len = cards.len();
            let top = fixed.top().min(len);
            let bottom = fixed.bottom().min(len - top);
            for range in fixed.top_ranges(len).chain(fixed.bottom_ranges(len)) {
                cards[range].shuffle(&mut rng);
            }
            cards[top..len - bottom].shuffle(&mut rng);
        } else if zone != "stack" {
            cards.shuffle(&mut rng);
        }
    }
    // Within each step, shuffle the events whose order is free and keep the relative order of
    // searches, of triggers and of casts (701.23i, 603.3b, 101.4c), merging the runs at random.
    let mut by_step: BTreeMap<usize, [Vec<LoggedEvent>; 4]> = BTreeMap::new();
    for e in out.events.drain(..) {
        let lane = match e.event {
            Event::Searched { .. } => 0,
            Event::Triggered { .. } => 1,
            Event::Cast { .. } => 2,
            _ => 3,
        };
        by_step.entry(e.step).or_default()[lane].push(e);
    }
    for (_, mut lanes) in by_step {
        lanes[3].shuffle(&mut rng);
        let mut queues: Vec<std::collections::VecDeque<LoggedEvent>> = lanes.into_iter().map(Into::into).collect();
        while queues.iter().any(|q| !q.is_empty()) {
            let open: Vec<usize> = (0..queues.len()).filter(|&i| !queues[i].is_empty()).collect();
            let lane = open[rng.random_range(0..open.len())];
            if let Some(e) = queues[lane].pop_front() {
                out.events.push(e);
            }
        }
    }
    out
}

/// True if `observed` is one of the explored outcomes (compared in each legal outcome's
/// canonical form). To ask about many outcomes, build a [`Membership`] once.
pub fn is_member(observed: &Outcome, legal: &Outcomes) -> bool {
    Membership::new(legal).contains(observed)
}

/// Explored outcomes made ready for many membership questions (the fuzz targets ask one per
/// corruption of every sampled outcome). Each legal outcome is stored in the canonical form of its
/// own fixed positions; there are few distinct sets of those, found here once, so a question is
/// one canonical form of the observation, then only its libraries and graveyards re-ordered for
/// each further set, each followed by one lookup.
pub struct Membership<'a> {
    legal: &'a Outcomes,
    shapes: Vec<&'a BTreeMap<String, FixedPositions>>,
}

impl<'a> Membership<'a> {
    /// Indexes `legal`.
    pub fn new(legal: &'a Outcomes) -> Membership<'a> {
        // Distinct by hash, in the order first met: sorting them into a set compared whole maps
        // n log n times, a few percent of the `search_request` fuzz target.
        let mut seen = crate::model::fast_map::<&BTreeMap<String, FixedPositions>, ()>(4);
        let shapes = legal.values().map(|l| &l.fixed).filter(|fixed| seen.insert(fixed, ()).is_none()).collect();
        Membership { legal, shapes }
    }

    /// True if `observed` is one of the outcomes.
    pub fn contains(&self, observed: &Outcome) -> bool {
        let Some((first, rest)) = self.shapes.split_first() else { return false };
        let is_legal_as = |canonical: &Outcome, fixed: &BTreeMap<String, FixedPositions>| {
            self.legal.get(canonical).is_some_and(|l| &l.fixed == fixed)
        };
        let mut canonical = observed.canonical(first);
        if is_legal_as(&canonical, first) {
            return true;
        }
        for fixed in rest {
            for (zone, cards) in canonical.zones.iter_mut().filter(|(z, _)| order_depends_on_fixed(z)) {
                if let Some(listed) = observed.zones.get(zone) {
                    cards.clone_from(listed);
                }
                canonical_zone(zone, cards, fixed);
            }
            if is_legal_as(&canonical, fixed) {
                return true;
            }
        }
        false
    }
}
