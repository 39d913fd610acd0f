//! The oracle against itself: determinism, and the judge agreeing with the simulator and the
//! enumerator on every outcome and on corruptions of them.

use std::collections::BTreeSet;

use arbitrary::Unstructured;

use crate::explore::{Exploration, explore};
use crate::fuzzing::CheckFailure;
use crate::fuzzing::corrupt::{corruptions, corruptions_picked, one_listed_twice};
use crate::fuzzing::decide::{Run, run_with_choices};
use crate::judge::{ReplayMemo, Verdict};
use crate::outcome::concrete::{Membership, concretize};
use crate::outcome::{LegalOutcome, Outcome};
use crate::scenario::Setup;
use crate::sim::SimError;

use super::{fail, is_skip};

/// Determinism: the same case and choices give the same run.
pub fn determinism(setup: &Setup, choices: &[u8], first: &Result<Run, SimError>) -> Result<(), CheckFailure> {
    let again = run_with_choices(setup, choices);
    if &again != first {
        return Err(fail("determinism", format!("two runs with the same choices differ:\n{first:?}\n{again:?}")));
    }
    Ok(())
}

/// The judge accepts the outcome of a simulated run, reported with the shuffle order `seed`
/// draws, and rejects a change that loses a card (the first zone's first card left out) and one
/// that duplicates a card (a zone's first card listed in a second zone too, the zone picked by
/// `seed`): those are never legal. One of each per run keeps a large state's check to three
/// judgements; the fuzzer's seeds reach the other zones.
pub fn judge_accepts_run(setup: &Setup, legal: &LegalOutcome, seed: u64) -> Result<(), CheckFailure> {
    let reported = concretize(legal, seed);
    // Both changes keep the log, so the judge's replays for the run are reused for them.
    let memo = ReplayMemo::new(setup, &reported.events);
    let verdict = memo.judge(&reported);
    if !verdict.is_legal() {
        return Err(fail(
            "judge",
            format!("the judge rejects an outcome the simulator produced: {verdict:?}\n{reported:#?}"),
        ));
    }
    let mut broken: Vec<(String, Outcome)> = one_listed_twice(&reported, seed).into_iter().collect();
    if let Some((zone, cards)) = reported.zones.iter().find(|(z, c)| *z != "stack" && !c.is_empty()) {
        let mut lost = reported.clone();
        lost.zones.insert(zone.clone(), cards[1..].to_vec());
        broken.push((format!("drop {} from {zone}", cards[0]), lost));
    }
    for (what, c) in broken {
        match memo.judge(&c) {
            Verdict::Illegal(d) if !d.is_empty() => {}
            v => {
                return Err(fail(
                    "judge",
                    format!("the judge does not reject `{what}`, which breaks conservation: {v:?}"),
                ));
            }
        }
    }
    Ok(())
}

/// Judge ⇔ enumerator: every enumerated outcome, reported with any shuffle order, is judged
/// legal, and every single-step corruption of it is judged legal exactly when it is itself an
/// enumerated outcome; every rejection names a clause. Returns how many outcomes were checked
/// (0 when the state is too large or unsupported).
pub fn agreement(setup: &Setup, run_limit: usize, seed: u64) -> Result<usize, CheckFailure> {
    let x = match explore(setup, run_limit) {
        Ok(x) => x,
        Err(e) if is_skip(&e) => return Ok(0),
        Err(e) => return Err(fail("enumerator", format!("explore failed: {e:?}"))),
    };
    agreement_on(setup, &x, seed, usize::MAX)?;
    Ok(x.outcomes.len())
}

/// [`agreement`] over an exploration already made, on at most `sample` of its outcomes (an even
/// sample) and every corruption of each; membership is still decided against them all.
pub fn agreement_on(setup: &Setup, x: &Exploration, seed: u64, sample: usize) -> Result<(), CheckFailure> {
    if x.outcomes.is_empty() {
        return Err(fail("enumerator", "the enumerator found no outcome at all"));
    }
    let membership = Membership::new(&x.outcomes);
    let stride = x.outcomes.len().div_ceil(sample.max(1)).max(1);
    for (i, legal) in x.outcomes.values().enumerate().filter(|(i, _)| i % stride == 0) {
        let (reported, memo) = judged_legal(setup, legal, i, seed ^ i as u64)?;
        for (what, corrupted) in corruptions(&reported) {
            agrees_on_corruption(&memo, &membership, i, &what, &corrupted)?;
        }
    }
    Ok(())
}

/// Most enumerated outcomes one fuzz input checks with [`agreement_picked`].
pub const OUTCOMES_PER_INPUT: usize = 2;
/// Most corruptions of each of them it judges.
pub const CORRUPTIONS_PER_OUTCOME: usize = 6;

/// [`agreement`] for one fuzz input: the input's bytes pick the shuffle seed, at most
/// [`OUTCOMES_PER_INPUT`] enumerated outcomes and at most [`CORRUPTIONS_PER_OUTCOME`] of each
/// one's corruptions (an even spread once the bytes run out). Every check stays, but each input
/// does a bounded share of them and the fuzzer's mutations of those bytes reach the rest: judging
/// every corruption of six outcomes made one input cost hundreds of judgements (issue 13).
pub fn agreement_picked(setup: &Setup, x: &Exploration, choices: &[u8]) -> Result<(), CheckFailure> {
    if x.outcomes.is_empty() {
        return Err(fail("enumerator", "the enumerator found no outcome at all"));
    }
    let mut u = Unstructured::new(choices);
    let seed = u.arbitrary::<u64>().unwrap_or(0);
    let membership = Membership::new(&x.outcomes);
    let outcomes: Vec<&LegalOutcome> = x.outcomes.values().collect();
    for i in pick_indices(&mut u, outcomes.len(), OUTCOMES_PER_INPUT) {
        let (reported, memo) = judged_legal(setup, outcomes[i], i, seed ^ i as u64)?;
        // Only the picked corruptions are built (counted first, then made).
        let (count, _) = corruptions_picked(&reported, |_| false);
        let picked = pick_indices(&mut u, count, CORRUPTIONS_PER_OUTCOME);
        for (what, corrupted) in corruptions_picked(&reported, |j| picked.contains(&j)).1 {
            agrees_on_corruption(&memo, &membership, i, &what, &corrupted)?;
        }
    }
    Ok(())
}

/// Up to `n` distinct indices below `len`, chosen by the bytes; once they run out, an even spread.
fn pick_indices(u: &mut Unstructured, len: usize, n: usize) -> BTreeSet<usize> {
    let n = n.min(len);
    (0..n).map(|k| if u.is_empty() { k * len / n } else { u.choose_index(len).unwrap_or(0) }).collect()
}

/// Enumerated outcome #`i`, reported with the shuffle order `seed` draws, which the judge must
/// accept; with the judge's replays of it, kept for judging its corruptions (those that leave the
/// log as it is, two thirds of them, reuse them: [`ReplayMemo`]).
fn judged_legal<'s>(
    setup: &'s Setup,
    legal: &LegalOutcome,
    i: usize,
    seed: u64,
) -> Result<(Outcome, ReplayMemo<'s>), CheckFailure> {
    let reported = concretize(legal, seed);
    let memo = ReplayMemo::new(setup, &reported.events);
    let verdict = memo.judge(&reported);
    if !verdict.is_legal() {
        return Err(fail("agreement", format!("judge rejected enumerated outcome #{i}: {verdict:?}\n{reported:#?}")));
    }
    Ok((reported, memo))
}

/// The judge accepts a corruption of outcome #`i` exactly when it is an enumerated outcome, and
/// names a clause for every rejection.
fn agrees_on_corruption(
    judge: &ReplayMemo,
    membership: &Membership,
    i: usize,
    what: &str,
    corrupted: &Outcome,
) -> Result<(), CheckFailure> {
    let member = membership.contains(corrupted);
    let verdict = judge.judge(corrupted);
    if verdict.is_legal() != member {
        return Err(fail(
            "agreement",
            format!("corruption `{what}` of outcome #{i}: enumerated={member} but the judge says {verdict:?}"),
        ));
    }
    if let Verdict::Illegal(diffs) = &verdict
        && (diffs.is_empty() || diffs.iter().any(|d| d.clause.is_empty()))
    {
        return Err(fail("agreement", format!("rejection of `{what}` without a clause: {diffs:?}")));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::explore::explore;
    use crate::fuzzing::case::Limits;
    use crate::fuzzing::check::Built;
    use crate::fuzzing::corrupt::corruptions;
    use crate::fuzzing::targets::{ENUMERATION_LIMIT, case_from_fuzz_input};
    use crate::judge::{ReplayMemo, judge};
    use crate::outcome::concrete::concretize;

    /// A judgement that reuses kept replays gives the verdict, messages included, of one that
    /// makes them all: over every eighth committed `search_request` input, the first and last
    /// enumerated outcome and every corruption of each (moved cards keep the log and reuse the
    /// replays; changed logs don't).
    #[test]
    fn kept_replays_give_the_same_verdicts() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/search_request");
        let mut files: Vec<_> =
            std::fs::read_dir(&dir).expect("the committed corpus").map(|e| e.expect("entry").path()).collect();
        files.sort();
        let (mut judged, mut reused_logs, mut replays_reused) = (0, 0, 0);
        for file in files.iter().step_by(8) {
            let data = std::fs::read(file).expect("a readable corpus file");
            let Some((case, _)) = case_from_fuzz_input(&data, Limits::SMALL) else { continue };
            let Ok(built) = Built::new(case) else { continue };
            let setup = &built.loaded.setup;
            let Ok(x) = explore(setup, ENUMERATION_LIMIT) else { continue };
            let outcomes: Vec<_> = x.outcomes.values().collect();
            for legal in [outcomes.first(), outcomes.last()].into_iter().flatten() {
                let reported = concretize(legal, 7);
                let memo = ReplayMemo::new(setup, &reported.events);
                let observations =
                    std::iter::once(reported.clone()).chain(corruptions(&reported).into_iter().map(|c| c.1));
                for observed in observations {
                    reused_logs += usize::from(observed.events == reported.events);
                    let fresh = format!("{:?}", judge(setup, &observed));
                    assert_eq!(format!("{:?}", memo.judge(&observed)), fresh, "{}", file.display());
                    judged += 1;
                }
                replays_reused += memo.reused();
            }
        }
        // Measured 2026-12-07: 68 610 judgements, 51 864 of them with the log kept.
        assert!(judged > 30_000 && reused_logs > 20_000, "only {judged} judgements, {reused_logs} with the log kept");
        assert!(replays_reused > reused_logs, "only {replays_reused} replays reused");
    }
}
