//! The splits of a merged search's found cards among its instructions (701.23h): the log says
//! what one search found, not which instruction found which card.

use crate::model::{Game, ObjId};
use crate::rules::search::FoundCheck;

/// Most splits of one merged search's found cards the judge tries.
pub(super) const MAX_SPLITS: usize = 16;

/// Every way (up to `limit`) to split a merged search's found cards among its instructions so
/// that each instruction's find is legal (701.23h: one search, so the log doesn't say which
/// instruction found which card). Cards only one instruction could find are placed first.
/// `destination` groups the found cards by what the observation shows of each — where it went in
/// this step, and whether the log revealed it (the caller's key); cards of one group most likely
/// went by the same instruction, so splits that keep such groups together are tried first.
pub(super) fn legal_splits(
    game: &Game,
    cards: &[ObjId],
    parts: &[crate::rules::search::PartPlan],
    limit: usize,
    destination: &dyn Fn(ObjId) -> Option<String>,
) -> Vec<Vec<Vec<ObjId>>> {
    let mut base = vec![Vec::new(); parts.len()];
    let mut ambiguous = Vec::new();
    for &c in cards {
        let fits: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].candidates.contains(&c)).collect();
        match fits.as_slice() {
            [] => return Vec::new(),
            [only] => base[*only].push(c),
            _ => ambiguous.push((c, fits)),
        }
    }
    let checks: Vec<FoundCheck> = parts.iter().map(|p| FoundCheck::new(game, p)).collect();
    // `holds`: whether a split is legal, without writing the message of the rule it breaks.
    let legal = |split: &Vec<Vec<ObjId>>| checks.iter().zip(split).all(|(c, f)| c.holds(f));
    let mut out: Vec<Vec<Vec<ObjId>>> = Vec::new();
    // Greedy splits first — each ambiguous card to the fitting instruction furthest below its
    // minimum, else to the first (or last) one with room — which settle large finds that a
    // depth-first walk would take exponentially long to reach.
    for rule in 0..3 {
        let mut split = base.clone();
        for (card, fits) in &ambiguous {
            let room: Vec<usize> = fits.iter().copied().filter(|&i| split[i].len() < parts[i].max).collect();
            let slot = match rule {
                0 => {
                    room.iter().copied().max_by_key(|&i| (parts[i].min.saturating_sub(split[i].len()), usize::MAX - i))
                }
                1 => room.first().copied(),
                _ => room.last().copied(),
            };
            split[slot.unwrap_or(fits[0])].push(*card);
        }
        if legal(&split) && !out.contains(&split) {
            out.push(split);
        }
    }
    // An exact split when one exists and the greedy rules found none: a large find whose cards
    // several instructions could have found (701.23h) defeats them and the bounded walk below.
    // (`split_by_matching` returns only a split whose every part holds: the `legal` test.)
    if out.is_empty()
        && let Some(split) = crate::rules::search::split_by_matching(game, cards, parts, &|_, _| true)
    {
        out.push(split);
    }
    // Splits by observed destination: every card that went to one place goes by one instruction.
    let mut groups: Vec<Option<String>> = Vec::new();
    let group_of: Vec<usize> = ambiguous
        .iter()
        .map(|(c, _)| {
            let d = destination(*c);
            groups.iter().position(|g| *g == d).unwrap_or_else(|| {
                groups.push(d);
                groups.len() - 1
            })
        })
        .collect();
    let combos = parts.len().checked_pow(groups.len() as u32).unwrap_or(usize::MAX);
    // One split and one target list, refilled for each combination rather than made anew (the
    // judge tries these for every merged search it replays).
    let mut split = base.clone();
    let mut target = Vec::with_capacity(groups.len());
    if combos <= 256 {
        for mut code in 0..combos {
            target.clear();
            for _ in 0..groups.len() {
                target.push(code % parts.len());
                code /= parts.len();
            }
            split.clone_from(&base);
            for ((card, fits), &g) in ambiguous.iter().zip(&group_of) {
                let slot = if fits.contains(&target[g]) { target[g] } else { fits[0] };
                split[slot].push(*card);
            }
            if legal(&split) && !out.contains(&split) {
                out.push(split.clone());
                if out.len() >= limit {
                    return out;
                }
            }
        }
    }
    // Then every split, depth first (each ambiguous card to each instruction with room, in
    // order), within a budget of 2 000 steps.
    split.clone_from(&base);
    let mut walk = SplitWalk { ambiguous: &ambiguous, parts, legal: &legal, limit, budget: 2_000, out };
    walk.visit(0, &mut split);
    walk.out
}

/// The depth-first walk over the splits of a merged search's ambiguous cards, in one split
/// changed in place: a card is added to an instruction for the walk below and taken off after.
struct SplitWalk<'w> {
    ambiguous: &'w [(ObjId, Vec<usize>)],
    parts: &'w [crate::rules::search::PartPlan],
    legal: &'w dyn Fn(&Vec<Vec<ObjId>>) -> bool,
    limit: usize,
    /// Steps left: each split visited, whole or partial, takes one.
    budget: usize,
    out: Vec<Vec<Vec<ObjId>>>,
}

impl SplitWalk<'_> {
    /// Visits the splits that place the ambiguous cards from the `i`th on; false once the walk
    /// is over (enough splits found, or the budget spent).
    fn visit(&mut self, i: usize, split: &mut Vec<Vec<ObjId>>) -> bool {
        if self.out.len() >= self.limit || self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let Some((card, fits)) = self.ambiguous.get(i) else {
            if (self.legal)(split) && !self.out.contains(split) {
                self.out.push(split.clone());
            }
            return true;
        };
        for &slot in fits {
            if split[slot].len() < self.parts[slot].max {
                split[slot].push(*card);
                let going = self.visit(i + 1, split);
                split[slot].pop();
                if !going {
                    return false;
                }
            }
        }
        true
    }
}

/// What the observation shows of a merged search's found cards, and what each instruction does
/// with them: where each instruction puts its cards (`to`: after a replacement that sends them
/// all elsewhere, such as Opposition Agent's exile, where that one puts them) and whether it
/// reveals them (`reveal`, 701.23e); where each card went (`destination`) and whether the log
/// revealed it in the step, beyond the reveals the replay has already read (`revealed`).
pub(super) struct Guide<'a> {
    pub to: &'a [crate::cards::instructions::Destination],
    pub reveal: &'a [bool],
    pub destination: &'a dyn Fn(ObjId) -> Option<String>,
    pub revealed: &'a dyn Fn(ObjId) -> bool,
}

/// The split of a merged search's found cards (701.23h) that sends each card by an instruction
/// that puts it where the observation says it went and reveals it if and only if the log
/// revealed it — else by one that puts it there, else by any that could find it — the
/// instruction furthest below its minimum among those first, or, when that greedy choice isn't
/// legal, a legal split among the same instructions ([`split_by_matching`]); `None` when there
/// is none.
///
/// [`split_by_matching`]: crate::rules::search::split_by_matching
pub(super) fn guided_split(
    game: &Game,
    cards: &[ObjId],
    parts: &[crate::rules::search::PartPlan],
    guide: &Guide,
    names: &[String],
) -> Option<Vec<Vec<ObjId>>> {
    // The instructions that could have sent each card where it went, revealed or not.
    let pools: Vec<Vec<usize>> = cards
        .iter()
        .map(|&c| {
            let fits: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].candidates.contains(&c)).collect();
            let went = (guide.destination)(c);
            let there: Vec<usize> = fits
                .iter()
                .copied()
                .filter(|&i| {
                    guide.to.get(i).and_then(|&d| crate::sim::destination_zone(game, c, d)).map(|z| z.display(names))
                        == went
                })
                .collect();
            let shown = (guide.revealed)(c);
            let alike: Vec<usize> =
                there.iter().copied().filter(|&i| guide.reveal.get(i).copied().unwrap_or(false) == shown).collect();
            if !alike.is_empty() {
                alike
            } else if !there.is_empty() {
                there
            } else {
                fits
            }
        })
        .collect();
    let mut split = vec![Vec::new(); parts.len()];
    for (&c, pool) in cards.iter().zip(&pools) {
        let room: Vec<usize> = pool.iter().copied().filter(|&i| split[i].len() < parts[i].max).collect();
        let slot = room
            .iter()
            .copied()
            .max_by_key(|&i| (parts[i].min.saturating_sub(split[i].len()), usize::MAX - i))
            .or_else(|| pool.first().copied())?;
        split[slot].push(c);
    }
    if parts.iter().zip(&split).all(|(p, f)| crate::rules::search::found_is_legal(game, p, f)) {
        return Some(split);
    }
    // The greedy choice can fail where a legal split exists (names that must differ among many
    // cards both instructions could find): the same choice of instructions, solved exactly.
    let position: std::collections::BTreeMap<ObjId, usize> = cards.iter().enumerate().map(|(k, &c)| (c, k)).collect();
    let allowed = |c: ObjId, i: usize| position.get(&c).is_some_and(|&k| pools[k].contains(&i));
    crate::rules::search::split_by_matching(game, cards, parts, &allowed)
}
