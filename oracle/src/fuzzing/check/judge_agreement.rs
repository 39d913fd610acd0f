//! The oracle against itself: determinism, and the judge agreeing with the simulator and the
//! enumerator on every outcome and on corruptions of them.

use crate::explore::{Exploration, explore};
use crate::fuzzing::CheckFailure;
use crate::fuzzing::corrupt::corruptions;
use crate::fuzzing::decide::{Run, run_with_choices};
use crate::judge::{Verdict, judge};
use crate::outcome::concrete::{concretize, is_member};
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

/// The judge accepts the outcome of a simulated run, reported with any shuffle order, and rejects
/// every change that creates, loses or duplicates a card (those are never legal).
pub fn judge_accepts_run(setup: &Setup, legal: &LegalOutcome, seed: u64) -> Result<(), CheckFailure> {
    let reported = concretize(legal, seed);
    let verdict = judge(setup, &reported);
    if !verdict.is_legal() {
        return Err(fail(
            "judge",
            format!("the judge rejects an outcome the simulator produced: {verdict:?}\n{reported:#?}"),
        ));
    }
    let mut broken: Vec<(String, Outcome)> =
        corruptions(&reported).into_iter().filter(|(what, _)| what.starts_with("list ")).collect();
    if let Some((zone, cards)) = reported.zones.iter().find(|(z, c)| *z != "stack" && !c.is_empty()) {
        let mut lost = reported.clone();
        lost.zones.insert(zone.clone(), cards[1..].to_vec());
        broken.push((format!("drop {} from {zone}", cards[0]), lost));
    }
    for (what, c) in broken {
        match judge(setup, &c) {
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
/// sample), so that one fuzz input stays quick; membership is still decided against them all.
pub fn agreement_on(setup: &Setup, x: &Exploration, seed: u64, sample: usize) -> Result<(), CheckFailure> {
    if x.outcomes.is_empty() {
        return Err(fail("enumerator", "the enumerator found no outcome at all"));
    }
    let stride = x.outcomes.len().div_ceil(sample.max(1)).max(1);
    for (i, legal) in x.outcomes.values().enumerate().filter(|(i, _)| i % stride == 0) {
        let reported = concretize(legal, seed ^ i as u64);
        let verdict = judge(setup, &reported);
        if !verdict.is_legal() {
            return Err(fail(
                "agreement",
                format!("judge rejected enumerated outcome #{i}: {verdict:?}\n{reported:#?}"),
            ));
        }
        for (what, corrupted) in corruptions(&reported) {
            let member = is_member(&corrupted, &x.outcomes);
            let verdict = judge(setup, &corrupted);
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
        }
    }
    Ok(())
}
