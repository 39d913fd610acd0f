//! Random legal decision sequences: a decider that answers every decision with one of its legal
//! answers, picked by the next bytes of a choice stream.
//!
//! The answers are listed by [`crate::explore::options`], the enumerator's own list, so every
//! answer it gives must pass the simulator's checks; one that doesn't is a disagreement between
//! the two and is reported as an error. When a decision has too many answers to list (a search
//! of a large library), it builds one: a legal find from [`a_legal_find`] plus candidates added
//! while the rules still accept them, or a random sample for chance.

use std::collections::BTreeSet;

use crate::explore::options;
use crate::model::{Game, ObjId};
use crate::outcome::LegalOutcome;
use crate::rules::search::{FoundCheck, a_legal_find};
use crate::scenario::Setup;
use crate::sim::script::Scripted;
use crate::sim::script::blame_script;
use crate::sim::{Choice, Decider, Decision, Sim, SimError};

/// Most answers listed for one decision before building one instead.
const OPTION_LIMIT: usize = 256;

/// A decider reading its picks from a byte stream (zeros once the stream is exhausted), and
/// recording every decision and answer.
pub struct ByteDecider<'a> {
    bytes: &'a [u8],
    pos: usize,
    /// Every decision answered, with the answer, in order.
    pub trace: Vec<(Decision, Choice)>,
}

impl<'a> ByteDecider<'a> {
    /// A decider over `bytes`.
    pub fn new(bytes: &'a [u8]) -> Self {
        ByteDecider { bytes, pos: 0, trace: Vec::new() }
    }

    fn next(&mut self) -> usize {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos += 1;
        usize::from(b)
    }

    /// A pick in `0..n` (n > 0) from one or two bytes.
    fn pick(&mut self, n: usize) -> usize {
        let raw = if n > 256 { self.next() << 8 | self.next() } else { self.next() };
        raw % n
    }

    /// `k` different options (k ≤ the number of options), each picked from what is left.
    fn distinct(&mut self, options: &[ObjId], k: usize) -> Vec<ObjId> {
        let mut left = options.to_vec();
        (0..k.min(left.len())).map(|_| left.swap_remove(self.pick(left.len()))).collect()
    }
}

impl Decider for ByteDecider<'_> {
    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        // A find among many candidates is built, not listed: listing walks the combinations
        // (up to `FIND_SETS_WORK` steps, hundreds of milliseconds when "different names" makes
        // legal sets rare) only to pick one. The bound is on the size of the decision, not time.
        let listed = if too_many_finds_to_list(decision) {
            Err(SimError::TooLarge(String::new()))
        } else if let Some(len) = order_length(decision) {
            // An order is made, not listed: the one at the position the bytes pick among the
            // `len!` orders `options` would list (the same pick from the same bytes), or built
            // like the answer to any decision with more than `OPTION_LIMIT` answers.
            let count = (1..=len).try_fold(1usize, |n, k| n.checked_mul(k).filter(|&n| n <= OPTION_LIMIT));
            let choice = match count {
                Some(count) => Choice::Order(crate::explore::nth_permutation(len, self.pick(count))),
                None => self.build(game, step, decision)?,
            };
            self.trace.push((decision.clone(), choice.clone()));
            return Ok(choice);
        } else {
            options(game, decision, OPTION_LIMIT)
        };
        let choice = match listed {
            Ok(opts) if opts.is_empty() => {
                return Err(SimError::Unsupported {
                    step,
                    message: format!("a decision with no legal answer: {decision:?}"),
                });
            }
            Ok(mut opts) => {
                let i = self.pick(opts.len());
                opts.swap_remove(i)
            }
            Err(SimError::TooLarge(_)) => self.build(game, step, decision)?,
            Err(e) => return Err(e),
        };
        self.trace.push((decision.clone(), choice.clone()));
        Ok(choice)
    }
}

/// How many things a decision asks to put in order (triggers, cost parts), if it asks for an
/// order.
fn order_length(decision: &Decision) -> Option<usize> {
    match decision {
        Decision::OrderTriggers { triggers, .. } => Some(triggers.len()),
        Decision::CostOrder { parts, .. } => Some(parts.len()),
        _ => None,
    }
}

/// Whether a find decision has more ways to choose than the decider lists: the subsets of each
/// instruction's candidates of an allowed size, counted (saturating) against `OPTION_LIMIT`
/// times a margin, so a find that lists only a few hundred answers is still listed.
fn too_many_finds_to_list(decision: &Decision) -> bool {
    let Decision::Find { parts, .. } = decision else { return false };
    let bound = OPTION_LIMIT * 64;
    parts.iter().any(|p| {
        let n = p.candidates.len();
        let mut total = 0usize;
        let mut choose = 1usize; // C(n, k)
        for k in 0..=p.max.min(n) {
            if let Some(shrunk) = choose.saturating_mul(n + 1 - k).checked_div(k) {
                choose = shrunk;
            }
            if k >= p.min {
                total = total.saturating_add(choose);
            }
            if total > bound {
                return true;
            }
        }
        false
    })
}

/// Whether `find` with `card` added holds, given whether `find` holds now: the check of the one
/// card added when it does ([`FoundCheck::holds_adding`]), else the whole check.
fn grows_legally(check: &FoundCheck, find: &[usize], holds: bool, card: usize) -> bool {
    if holds {
        return check.holds_adding(find, card);
    }
    let mut grown = find.to_vec();
    grown.push(card);
    check.holds(&grown)
}

impl ByteDecider<'_> {
    /// One legal answer to a decision with too many to list.
    fn build(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        let none = || SimError::Unsupported { step, message: format!("no legal answer could be built: {decision:?}") };
        Ok(match decision {
            Decision::Random { from, count, .. } => {
                let mut pool: Vec<usize> = from.clone();
                let mut out = Vec::new();
                for _ in 0..*count {
                    if pool.is_empty() {
                        break;
                    }
                    let i = self.pick(pool.len());
                    out.push(pool.swap_remove(i));
                }
                Choice::Cards(out)
            }
            Decision::Find { parts, joint_min, .. } => {
                let mut taken = BTreeSet::new();
                let mut found = Vec::new();
                for p in parts {
                    let f = a_legal_find(game, p, &taken).ok_or_else(none)?;
                    taken.extend(f.iter().copied());
                    found.push(f);
                }
                // Add candidates while each instruction's find stays legal, so large finds are
                // reached too; then top up to a joint minimum (701.23h).
                let checks: Vec<FoundCheck> = parts.iter().map(|p| FoundCheck::new(game, p)).collect();
                for ((p, check), f) in parts.iter().zip(&checks).zip(found.iter_mut()) {
                    let extra = self.pick(p.max.saturating_sub(f.len()).min(p.candidates.len()) + 1);
                    // The candidates not taken, in order: a card leaves it when it is taken (listing
                    // them again for every pick was quadratic in a 300-card library).
                    let mut free: Vec<usize> = p.candidates.iter().copied().filter(|c| !taken.contains(c)).collect();
                    let mut holds = check.holds(f);
                    for _ in 0..extra {
                        if free.is_empty() {
                            break;
                        }
                        let i = self.pick(free.len());
                        let c = free[i];
                        if grows_legally(check, f, holds, c) {
                            f.push(c);
                            holds = true;
                            taken.insert(c);
                            free.retain(|&x| x != c);
                        }
                    }
                }
                for ((p, check), f) in parts.iter().zip(&checks).zip(found.iter_mut()) {
                    let mut holds = check.holds(f);
                    for &c in &p.candidates {
                        if taken.len() >= *joint_min || f.len() >= p.max {
                            break;
                        }
                        if !taken.contains(&c) && grows_legally(check, f, holds, c) {
                            f.push(c);
                            holds = true;
                            taken.insert(c);
                        }
                    }
                }
                Choice::Parts(found)
            }
            Decision::OrderTriggers { triggers, .. } => {
                let mut order: Vec<usize> = (0..triggers.len()).collect();
                for i in (1..order.len()).rev() {
                    let j = self.pick(i + 1);
                    order.swap(i, j);
                }
                Choice::Order(order)
            }
            Decision::May { .. } => Choice::Bool(self.pick(2) == 0),
            // Gifts Ungiven's opponent chooses `count` cards; Scapeshift sacrifices any number
            // (none too); otherwise one card.
            Decision::ChooseCard { options, any_number: true, .. } => {
                let how_many = self.pick(options.len() + 1);
                Choice::Cards(self.distinct(options, how_many))
            }
            Decision::ChooseCard { options, count, .. } => {
                if options.is_empty() {
                    return Err(none());
                }
                Choice::Cards(self.distinct(options, (*count).clamp(1, options.len())))
            }
            Decision::Sacrifice { options, any_number: true, .. } => {
                let how_many = self.pick(options.len() + 1);
                Choice::Cards(self.distinct(options, how_many))
            }
            Decision::Sacrifice { options, .. } => {
                if options.is_empty() {
                    return Err(none());
                }
                Choice::Cards(vec![options[self.pick(options.len())]])
            }
            // The decisions of the actions around searching list few answers, so `options`
            // rarely defers to here; take the first the enumerator would list.
            Decision::Dredge { .. }
            | Decision::Discard { .. }
            | Decision::Name { .. }
            | Decision::CastFree { .. }
            | Decision::Targets { .. }
            | Decision::SearchLimit { .. }
            | Decision::Replacement { .. } => crate::explore::options(game, decision, usize::MAX)
                .ok()
                .and_then(|o| o.into_iter().next())
                .ok_or_else(none)?,
            // The first order listed, without listing the others.
            Decision::CostOrder { parts, .. } => Choice::Order(crate::explore::nth_permutation(parts.len(), 0)),
        })
    }
}

/// The result of one simulated run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The outcome, canonical, with its fixed library positions.
    pub outcome: LegalOutcome,
    /// Each decision's answer, in order (debug rendering, for reports).
    pub answers: Vec<String>,
}

/// Runs `setup` once, answering its unscripted decisions from `choices`.
pub fn run_with_choices(setup: &Setup, choices: &[u8]) -> Result<Run, SimError> {
    let mut decider = Scripted::new(&setup.script, ByteDecider::new(choices));
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    let outcome = sim.into_outcome();
    ran.map_err(|e| blame_script(e, decider.last))?;
    let answers = decider.inner.trace.iter().map(|(d, c)| format!("{}: {c:?}", kind(d))).collect();
    Ok(Run { outcome, answers })
}

fn kind(d: &Decision) -> &'static str {
    match d {
        Decision::May { .. } => "may",
        Decision::Find { .. } => "find",
        Decision::ChooseCard { .. } => "choose",
        Decision::Sacrifice { .. } => "sacrifice",
        Decision::OrderTriggers { .. } => "order triggers",
        Decision::Random { .. } => "chance",
        Decision::Dredge { .. } => "dredge",
        Decision::Discard { .. } => "discard",
        Decision::Name { .. } => "name",
        Decision::CastFree { .. } => "cast",
        Decision::Targets { .. } => "targets",
        Decision::SearchLimit { .. } => "search limit",
        Decision::Replacement { .. } => "replacement",
        Decision::CostOrder { .. } => "cost order",
    }
}

/// The decisions of the run `choices` pick, as scenario `decisions:` entries, for the decisions a
/// scenario can script (searches, "may", choices from a hand, sacrifices); trigger order,
/// chance and merged searches stay open.
pub fn scripted_from_run(
    setup: &Setup,
    choices: &[u8],
) -> Result<Vec<crate::scenario::format::ScriptedDecision>, SimError> {
    use crate::scenario::format::ScriptedDecision as S;
    let mut decider = ByteDecider::new(choices);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    drop(sim);
    ran?;
    let game = &setup.game;
    let name = |p: usize| game.players[p].name.clone();
    let id = |o: usize| game.obj(o).id_string();
    Ok(decider
        .trace
        .iter()
        .filter_map(|(d, c)| match (d, c) {
            // A merged search (701.23h) is left open: a script lists its finds as one list, and
            // splitting a large one back among the instructions is not guaranteed to succeed.
            // A script names who makes the choice (723.5: a controlled searcher's controller).
            (Decision::Find { chooser, .. }, Choice::Parts(parts)) if parts.len() == 1 => {
                Some(S::Search { player: name(*chooser), find: parts.iter().flatten().map(|&o| id(o)).collect() })
            }
            (Decision::Find { chooser, .. }, Choice::Cards(cards)) => {
                Some(S::Search { player: name(*chooser), find: cards.iter().map(|&o| id(o)).collect() })
            }
            (Decision::May { player, .. }, Choice::Bool(accept)) => {
                Some(S::May { player: name(*player), accept: *accept })
            }
            // One card as `card:`, any other number (several, or none for an any-number choice)
            // as `cards:`.
            (Decision::ChooseCard { player, .. }, Choice::Cards(c)) => {
                let (card, cards) = one_or_list(c, &id);
                Some(S::Choose { player: name(*player), card, cards })
            }
            (Decision::Sacrifice { player, .. }, Choice::Cards(c)) => {
                let (card, cards) = one_or_list(c, &id);
                Some(S::Sacrifice { player: name(*player), card, cards })
            }
            _ => None,
        })
        .collect())
}

/// A scripted choice of cards as a scenario writes it: one card as `card:`, any other number as
/// `cards:`.
fn one_or_list(chosen: &[ObjId], id: &impl Fn(ObjId) -> String) -> (Option<String>, Option<Vec<String>>) {
    match chosen {
        [one] => (Some(id(*one)), None),
        _ => (None, Some(chosen.iter().map(|&o| id(o)).collect())),
    }
}
