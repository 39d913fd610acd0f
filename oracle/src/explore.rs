//! The enumerator: every legal outcome of a scenario, by walking every answer to every decision.
//!
//! It runs the simulator once per path through the decision tree, replaying a prefix of answers
//! and taking the first option at each new decision; each option not taken is a path still to
//! run, taken in turn (see `explore_until` for the order). Feasible for small states only; the
//! judge exists for the rest.

use std::collections::BTreeMap;
use std::rc::Rc;

use crate::model::{FastMap, Game, fast_map};
use crate::outcome::{FixedPositions, LegalOutcome, Outcome, Outcomes};
use crate::rules::search::{a_legal_find, legal_found_sets};
use crate::scenario::Setup;
use crate::sim::script::{Scripted, blame_script};
use crate::sim::{Choice, Decider, Decision, Sim, SimError};

/// Default cap on simulator runs.
pub const DEFAULT_RUN_LIMIT: usize = 200_000;

/// Cap on the memory the distinct outcomes of one enumeration may take, in bytes (estimated from
/// their card ids): 256 MiB. Outcomes grow with the library, so a search through thousands of
/// cards reaches it long before the run cap; the scenario is then too large to enumerate
/// ([`SimError::TooLarge`]) instead of taking the process down.
pub const DEFAULT_OUTCOME_BYTES: usize = 256 << 20;

/// Cap on the decision options the enumerator keeps cached (a cache: past it, it starts over).
const CACHED_OPTIONS_LIMIT: usize = 1 << 20;

/// Roughly how many bytes `o` holds, counting its card ids and events twice: the enumeration kept
/// each distinct outcome as a map key and in its value until [`Outcomes`] stored it once, and the
/// estimate is left as it was so that the same scenarios reach [`DEFAULT_OUTCOME_BYTES`].
fn outcome_bytes(o: &LegalOutcome) -> usize {
    let strings = |m: &BTreeMap<String, Vec<String>>| -> usize {
        m.iter().map(|(k, v)| 48 + k.len() + v.iter().map(|s| 24 + s.len()).sum::<usize>()).sum()
    };
    let outcome = &o.outcome;
    let one = strings(&outcome.zones)
        + strings(&outcome.known)
        + 48 * (outcome.life.len() + outcome.counters.len())
        + 2 * std::mem::size_of::<crate::outcome::LoggedEvent>() * outcome.events.len();
    2 * one + o.fixed.len() * 96
}

/// The legal outcomes of a scenario.
#[derive(Debug, Clone, Default)]
pub struct Exploration {
    /// Distinct outcomes (canonical, with their fixed positions), in the order of their
    /// canonical forms.
    pub outcomes: Outcomes,
    /// How many paths through the decisions were run.
    pub runs: usize,
}

/// Answers at every decision along one path.
struct Walk {
    prefix: Vec<usize>,
    trace: Vec<(usize, usize)>,
    option_limit: usize,
    /// Options at each decision, by the answers taken before it: every run that shares a prefix
    /// meets the same decision, so its options are listed once.
    cache: FastMap<Vec<usize>, Rc<Vec<Choice>>>,
    /// How many options the cache holds.
    cached: usize,
}

/// Every legal answer to a decision, in a fixed order.
pub fn options(game: &Game, decision: &Decision, limit: usize) -> Result<Vec<Choice>, SimError> {
    let too_many = || SimError::TooLarge(format!("more than {limit} legal answers to one decision"));
    Ok(match decision {
        Decision::May { .. } => vec![Choice::Bool(true), Choice::Bool(false)],
        Decision::OrderTriggers { triggers, .. } => {
            let mut out = Vec::new();
            permutations(&mut (0..triggers.len()).collect(), 0, &mut out, limit).ok_or_else(too_many)?;
            out.into_iter().map(Choice::Order).collect()
        }
        // 700.3: one pile of a separation is any set of the cards, none to all.
        Decision::ChooseCard { options, any_number: true, .. } => {
            let mut out = Vec::new();
            for k in 0..=options.len() {
                combinations(options, k, 0, &mut Vec::new(), &mut out, limit).ok_or_else(too_many)?;
            }
            out.into_iter().map(Choice::Cards).collect()
        }
        Decision::ChooseCard { options, count, .. } if *count != 1 => {
            let mut out = Vec::new();
            combinations(options, *count, 0, &mut Vec::new(), &mut out, limit).ok_or_else(too_many)?;
            out.into_iter().map(Choice::Cards).collect()
        }
        // 107.1c: "any number" is every set of the options, from none to all.
        Decision::Sacrifice { options, any_number: true, .. } => {
            let mut out = Vec::new();
            for k in 0..=options.len() {
                combinations(options, k, 0, &mut Vec::new(), &mut out, limit).ok_or_else(too_many)?;
            }
            out.into_iter().map(Choice::Cards).collect()
        }
        Decision::ChooseCard { options, .. } | Decision::Sacrifice { options, .. } => {
            options.iter().map(|&o| Choice::Cards(vec![o])).collect()
        }
        Decision::Dredge { options, .. } => {
            std::iter::once(Choice::Cards(Vec::new())).chain(options.iter().map(|&o| Choice::Cards(vec![o]))).collect()
        }
        Decision::Discard { options, count, optional, .. } => {
            let mut out = if *optional { vec![Vec::new()] } else { Vec::new() };
            combinations(options, *count, 0, &mut Vec::new(), &mut out, limit).ok_or_else(too_many)?;
            out.into_iter().map(Choice::Cards).collect()
        }
        Decision::Name { options, .. } => options.iter().map(|n| Choice::Name(n.clone())).collect(),
        Decision::CastFree { options, .. } => {
            std::iter::once(Choice::Cast(None)).chain(options.iter().map(|&c| Choice::Cast(Some(c)))).collect()
        }
        Decision::Targets { options, .. } => options.iter().map(|t| Choice::Targets(t.clone())).collect(),
        Decision::SearchLimit { options, .. } => options.iter().map(|&n| Choice::Limit(n)).collect(),
        Decision::Replacement { options, .. } => options.iter().map(|r| Choice::Name(r.key().to_string())).collect(),
        Decision::CostOrder { parts, .. } => {
            let mut out = Vec::new();
            permutations(&mut (0..parts.len()).collect(), 0, &mut out, limit).ok_or_else(too_many)?;
            out.into_iter().map(Choice::Order).collect()
        }
        Decision::Random { from, count, .. } => {
            let mut out = Vec::new();
            combinations(from, *count, 0, &mut Vec::new(), &mut out, limit).ok_or_else(too_many)?;
            out.into_iter().map(Choice::Cards).collect()
        }
        Decision::Find { parts, joint_min, .. } => {
            let per_part = parts
                .iter()
                .map(|p| legal_found_sets(game, p, limit).ok_or_else(too_many))
                .collect::<Result<Vec<_>, _>>()?;
            let mut out = vec![Vec::<Vec<usize>>::new()];
            for sets in per_part {
                let mut next = Vec::new();
                for prefix in &out {
                    for set in &sets {
                        // 701.23h: one search, so a card is found for at most one instruction.
                        if set.iter().any(|c| prefix.iter().flatten().any(|d| d == c)) {
                            continue;
                        }
                        let mut p = prefix.clone();
                        p.push(set.clone());
                        next.push(p);
                        if next.len() > limit {
                            return Err(too_many());
                        }
                    }
                }
                out = next;
            }
            out.retain(|sets| sets.iter().map(Vec::len).sum::<usize>() >= *joint_min);
            out.into_iter().map(Choice::Parts).collect()
        }
    })
}

/// Every order of `items`, by swapping in place (Heap-style recursion bounded by the item count,
/// which is the number of one player's simultaneous triggers).
fn permutations(items: &mut Vec<usize>, k: usize, out: &mut Vec<Vec<usize>>, limit: usize) -> Option<()> {
    if k == items.len() {
        if out.len() >= limit {
            return None;
        }
        out.push(items.clone());
        return Some(());
    }
    for i in k..items.len() {
        items.swap(k, i);
        permutations(items, k + 1, out, limit)?;
        items.swap(k, i);
    }
    Some(())
}

/// The `index`th order [`permutations`] lists for `len` items (`index` below `len!`), made
/// directly: at depth `k` the listing swaps item `k` with each of the items from `k` on in turn,
/// each branch holding `(len − k − 1)!` orders, and undoes the swap before the next branch. The
/// fuzz targets' decider picks one order: it listed all of them to take one, and for 6 or more
/// items listed 256 before giving up.
pub(crate) fn nth_permutation(len: usize, mut index: usize) -> Vec<usize> {
    let mut items: Vec<usize> = (0..len).collect();
    for k in 0..len {
        let block: usize = (1..len - k).product();
        items.swap(k, k + index / block);
        index %= block;
    }
    items
}

fn combinations(
    from: &[usize],
    k: usize,
    start: usize,
    cur: &mut Vec<usize>,
    out: &mut Vec<Vec<usize>>,
    limit: usize,
) -> Option<()> {
    if cur.len() == k {
        if out.len() >= limit {
            return None;
        }
        out.push(cur.clone());
        return Some(());
    }
    for i in start..from.len() {
        cur.push(from[i]);
        combinations(from, k, i + 1, cur, out, limit)?;
        cur.pop();
    }
    Some(())
}

impl Decider for Walk {
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        let path: Vec<usize> = self.trace.iter().map(|t| t.0).collect();
        let opts = match self.cache.get(&path) {
            Some(o) => o.clone(),
            None => {
                let o = Rc::new(options(game, decision, self.option_limit)?);
                self.cached += o.len();
                self.cache.insert(path, o.clone());
                o
            }
        };
        if opts.is_empty() {
            return Err(SimError::Unsupported {
                step,
                message: format!("a decision with no legal answer: {decision:?}"),
            });
        }
        let pos = self.trace.len();
        let idx = self.prefix.get(pos).copied().unwrap_or(0).min(opts.len() - 1);
        self.trace.push((idx, opts.len()));
        Ok(opts[idx].clone())
    }
}

/// Enumerates the legal outcomes of `setup`, with its scripted decisions fixed. Stops with
/// [`SimError::TooLarge`] once there are sure to be `run_limit` paths through the decisions (the
/// options not yet taken along the last path, each a path of its own, would reach it; so a
/// scenario that has too many paths may stop at that error before a later path could fail
/// otherwise), or when the outcomes outgrow [`DEFAULT_OUTCOME_BYTES`].
pub fn explore(setup: &Setup, run_limit: usize) -> Result<Exploration, SimError> {
    explore_bounded(setup, run_limit, DEFAULT_OUTCOME_BYTES)
}

/// [`explore`], stopping with [`SimError::TooLarge`] when the distinct outcomes take more than
/// about `max_bytes`.
pub fn explore_bounded(setup: &Setup, run_limit: usize, max_bytes: usize) -> Result<Exploration, SimError> {
    explore_until(setup, run_limit, max_bytes, None)
}

/// Whether `observed` is one of the legal outcomes of `setup` (as
/// [`crate::outcome::concrete::is_member`] of [`explore`]'s outcomes would say), enumerating only
/// until it turns up: an observation that is legal costs on average half an enumeration. Errors
/// as [`explore`] does when the enumeration fails (too large, unsupported) before finding it.
pub fn explore_contains(setup: &Setup, run_limit: usize, observed: &Outcome) -> Result<bool, SimError> {
    // The observation in the canonical form of each set of fixed positions met so far.
    let mut canonical: Vec<(BTreeMap<String, FixedPositions>, Outcome)> = Vec::new();
    let mut found = false;
    let mut stop = |legal: &LegalOutcome| {
        let as_legal = match canonical.iter().find(|(fixed, _)| *fixed == legal.fixed) {
            Some((_, c)) => c,
            None => {
                canonical.push((legal.fixed.clone(), observed.canonical(&legal.fixed)));
                &canonical[canonical.len() - 1].1
            }
        };
        found = *as_legal == legal.outcome;
        found
    };
    explore_until(setup, run_limit, DEFAULT_OUTCOME_BYTES, Some(&mut stop))?;
    Ok(found)
}

/// Decisions met on the paths run so far whose options are not all taken yet: options
/// `next..count` of the decision reached by answering `prefix`. Each of those options leads to at
/// least one path still to run.
struct Pending {
    prefix: Vec<usize>,
    next: usize,
    count: usize,
}

/// [`explore_bounded`] that stops early, with the outcomes so far, once `stop` (if given) says so
/// of a newly found distinct outcome.
///
/// Without `stop`, the decisions with options left are advanced in the order they were met (first
/// in, first out): one path goes down each option of the early decisions before any goes deep.
/// An enumeration that finishes runs the same paths in any order and gives the same outcomes;
/// the order only decides how soon a scenario with too many paths is known to have them, as the
/// options still to take reach the cap. Depth first (an odometer, the order before), a decision
/// with 3 options each followed by one with 80 is known to exceed 200 paths only on its third
/// branch, after about 160 runs; in this order, after 3 runs. On every tenth `search_request`
/// fuzz corpus input, the 15 that exceed the cap took 2 420 of the sample's 11 146 runs depth
/// first, and take 591 in this order (issue 13). With `stop` (a search for one outcome) the order stays depth first: the
/// last decision with options left is advanced.
fn explore_until(
    setup: &Setup,
    run_limit: usize,
    max_bytes: usize,
    mut stop: Option<&mut dyn FnMut(&LegalOutcome) -> bool>,
) -> Result<Exploration, SimError> {
    let mut result = Exploration::default();
    let mut bytes = 0usize;
    let breadth_first = stop.is_none();
    let mut frontier: std::collections::VecDeque<Pending> = std::collections::VecDeque::new();
    // Σ (count − next) over the frontier: paths sure to be still to run.
    let mut still_to_run = 0usize;
    let mut prefix: Vec<usize> = Vec::new();
    let mut cache = fast_map(0);
    let mut cached = 0;
    // One error for both ways of knowing the cap is reached: having run that many paths, or
    // having that many still to run.
    let too_many_paths = || SimError::TooLarge(format!("more than {run_limit} paths through the decisions"));
    loop {
        let walk = Walk {
            prefix: std::mem::take(&mut prefix),
            trace: Vec::new(),
            option_limit: run_limit,
            cache: std::mem::take(&mut cache),
            cached,
        };
        let mut decider = Scripted::new(&setup.script, walk);
        let mut sim = Sim::new(setup.game.clone(), &mut decider);
        let ran = sim.run(&setup.actions);
        let outcome = sim.into_outcome();
        ran.map_err(|e| blame_script(e, decider.last))?;
        result.runs += 1;
        // Without `stop`, one lookup: the insertion (most runs give a new outcome). With it, the
        // outcome is looked up first, so that `stop` sees only new ones.
        let new = match &mut stop {
            None => {
                let size = outcome_bytes(&outcome);
                result.outcomes.insert(outcome).then_some((size, false))
            }
            Some(stop) if !result.outcomes.contains_key(&outcome.outcome) => {
                let (size, done) = (outcome_bytes(&outcome), stop(&outcome));
                result.outcomes.insert(outcome);
                Some((size, done))
            }
            Some(_) => None,
        };
        if let Some((size, done)) = new {
            bytes += size;
            if bytes > max_bytes {
                return Err(SimError::TooLarge(format!(
                    "its outcomes take more than {} MiB ({} distinct so far)",
                    max_bytes >> 20,
                    result.outcomes.len() - 1
                )));
            }
            if done {
                return Ok(result);
            }
        }
        if result.runs >= run_limit {
            return Err(too_many_paths());
        }
        let Walk { prefix: replayed, trace, cache: kept, cached: kept_count, .. } = decider.inner;
        // The decisions this path met beyond its replayed answers were answered with their first
        // option; the others are pending, the shallowest first (so depth first takes the deepest).
        for depth in replayed.len()..trace.len() {
            let (_, count) = trace[depth];
            if count > 1 {
                frontier.push_back(Pending { prefix: trace[..depth].iter().map(|t| t.0).collect(), next: 1, count });
                still_to_run = still_to_run.saturating_add(count - 1);
            }
        }
        // Every pending option leads to a path of its own, so at least that many runs are still
        // to come. When they can't fit under the cap, the enumeration would end with the error
        // above; it ends with it now instead of making the runs first. Not with `stop`, which may
        // end the walk early.
        if stop.is_none() && result.runs.saturating_add(still_to_run) >= run_limit {
            return Err(too_many_paths());
        }
        (cache, cached) = (kept, kept_count);
        if cached > CACHED_OPTIONS_LIMIT {
            cache.clear();
            cached = 0;
        }
        let taken = if breadth_first { frontier.front_mut() } else { frontier.back_mut() };
        let Some(pending) = taken else { return Ok(result) };
        prefix.clone_from(&pending.prefix);
        prefix.push(pending.next);
        pending.next += 1;
        still_to_run -= 1;
        if pending.next == pending.count {
            if breadth_first {
                frontier.pop_front();
            } else {
                frontier.pop_back();
            }
        }
    }
}

/// Takes one legal answer at every decision without listing them all, so one run of a huge
/// state is as cheap as the judge.
pub struct FirstLegal;

impl Decider for FirstLegal {
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        let none = || SimError::Unsupported { step, message: format!("a decision with no legal answer: {decision:?}") };
        Ok(match decision {
            Decision::May { .. } => Choice::Bool(true),
            Decision::OrderTriggers { triggers, .. } => Choice::Order((0..triggers.len()).collect()),
            Decision::Sacrifice { any_number: true, .. } | Decision::ChooseCard { any_number: true, .. } => {
                Choice::Cards(Vec::new())
            }
            Decision::ChooseCard { options, count, .. } if *count != 1 => {
                Choice::Cards(options.iter().copied().take(*count).collect())
            }
            Decision::ChooseCard { options, .. } | Decision::Sacrifice { options, .. } => {
                Choice::Cards(vec![*options.first().ok_or_else(none)?])
            }
            Decision::Random { from, count, .. } => Choice::Cards(from.iter().copied().take(*count).collect()),
            Decision::Dredge { .. } => Choice::Cards(Vec::new()),
            Decision::Discard { options, count, optional, .. } => {
                Choice::Cards(if *optional { Vec::new() } else { options.iter().copied().take(*count).collect() })
            }
            Decision::Name { options, .. } => Choice::Name(options.first().cloned().ok_or_else(none)?),
            Decision::CastFree { .. } => Choice::Cast(None),
            Decision::Targets { options, .. } => Choice::Targets(options.first().cloned().ok_or_else(none)?),
            Decision::SearchLimit { options, .. } => Choice::Limit(*options.first().ok_or_else(none)?),
            Decision::Replacement { options, .. } => Choice::Name(options.first().ok_or_else(none)?.key().to_string()),
            Decision::CostOrder { parts, .. } => Choice::Order((0..parts.len()).collect()),
            Decision::Find { parts, joint_min, .. } => {
                find_choice(game, parts, *joint_min, |p, taken| a_legal_find(game, p, taken)).ok_or_else(none)?
            }
        })
    }
}

/// Runs `setup` once, taking a legal answer at every unscripted decision (yes to every "may",
/// the fewest cards a search may find), and reports scripted decisions that were never asked for.
pub fn first_run(setup: &Setup) -> Result<(LegalOutcome, Vec<usize>), SimError> {
    let mut decider = Scripted::new(&setup.script, FirstLegal);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    let outcome = sim.into_outcome();
    ran.map_err(|e| blame_script(e, decider.last))?;
    Ok((outcome, decider.unused()))
}

/// One legal answer to a search: each instruction's find from `pick` (given the cards earlier
/// instructions took, since a card is found once, 701.23h), then topped up to the joint minimum of
/// merged instructions. `None` when `pick` has no legal find for an instruction.
pub fn find_choice(
    game: &Game,
    parts: &[crate::rules::search::PartPlan],
    joint_min: usize,
    pick: impl Fn(&crate::rules::search::PartPlan, &std::collections::BTreeSet<usize>) -> Option<Vec<usize>>,
) -> Option<Choice> {
    let mut taken = std::collections::BTreeSet::new();
    let mut found = Vec::new();
    for p in parts {
        let f = pick(p, &taken)?;
        taken.extend(f.iter().copied());
        found.push(f);
    }
    // A joint minimum (701.23h): top up instructions that have room.
    // An instruction whose cards must have different names (701.23a) takes no second card of a
    // name: the top-up once gave "four cards with different names" both Snapcaster Mages, and the
    // first run refused the scenario `promote` had just written (fuzz/FINDINGS.md #8).
    let name = |o: usize| game.obj(o).chars.names.join(" // ");
    for (p, f) in parts.iter().zip(found.iter_mut()) {
        for &c in &p.candidates {
            if taken.len() >= joint_min || f.len() >= p.max {
                break;
            }
            if p.different_names && f.iter().any(|&o| name(o) == name(c)) {
                continue;
            }
            if taken.insert(c) {
                f.push(c);
            }
        }
    }
    Some(Choice::Parts(found))
}

#[cfg(test)]
mod tests {
    use super::{nth_permutation, permutations};

    /// The orders made directly are the orders listed, at the same positions.
    #[test]
    fn nth_permutation_is_the_listed_order() {
        for len in 0..=6 {
            let mut listed = Vec::new();
            permutations(&mut (0..len).collect(), 0, &mut listed, usize::MAX).expect("no limit");
            let made: Vec<Vec<usize>> = (0..listed.len()).map(|i| nth_permutation(len, i)).collect();
            assert_eq!(made, listed, "{len} items");
        }
    }
}
