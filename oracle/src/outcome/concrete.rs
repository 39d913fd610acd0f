//! Outcomes as an engine reports them: one concrete outcome drawn from a legal outcome set (shuffled
//! library middles, events of a step in any order the rules allow), and membership of an observed
//! outcome in an explored set.

use std::collections::{BTreeMap, BTreeSet};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use crate::outcome::{Event, FixedPositions, LegalOutcome, LoggedEvent, Outcome};

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
            for range in fixed.top_ranges(len).into_iter().chain(fixed.bottom_ranges(len)) {
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
/// canonical form; there are few distinct sets of fixed positions, so this is a few lookups).
pub fn is_member(observed: &Outcome, legal: &BTreeMap<Outcome, LegalOutcome>) -> bool {
    let shapes: BTreeSet<&BTreeMap<String, FixedPositions>> = legal.values().map(|l| &l.fixed).collect();
    shapes.into_iter().any(|fixed| legal.get(&observed.canonical(fixed)).is_some_and(|l| &l.fixed == fixed))
}
