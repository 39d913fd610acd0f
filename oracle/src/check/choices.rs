//! The `no_such_choice` answer (protocol 2): an engine can't follow a scripted decision because
//! it offers no such choice (an engine that always takes every copy, asked by Splinter's script
//! to find only the graveyard copy). The oracle decides who is wrong: it replays the scenario
//! with its script, recording the legal options at every decision ([`crate::offers::Recorder`]);
//! if the scripted choice is legal, the engine lacks a legal option — a FAIL, with the clause
//! that makes the option legal (named by comparing what the engine says it offered with the
//! legal options); if the scripted choice is not legal, the scenario is INVALID.

use super::{ScenarioResult, Status, Verdict1};
use crate::explore::FirstLegal;
use crate::offers::{Offer, OfferKind, Recorder, card_clause, compare_one};
use crate::scenario::Loaded;
use crate::sim::script::blame_script;
use crate::sim::script::{Scripted, kind_of};
use crate::sim::{Sim, SimError};
use crate::verdict::Difference;

/// Judges a `no_such_choice` answer for scripted decision `index` of `loaded`.
pub fn no_such_choice(
    loaded: &Loaded,
    index: usize,
    offered: Option<&Offer>,
    message: &str,
    mk: &dyn Fn(Status, String) -> ScenarioResult,
) -> ScenarioResult {
    let script = &loaded.setup.script;
    let Some(entry) = script.get(index) else {
        return mk(
            Status::Error,
            format!(
                "protocol violation: `no_such_choice` names decision {index}, but the scenario scripts {}",
                script.len()
            ),
        );
    };
    // Entries are matched in order by kind and player: entry `index` answers the r-th decision
    // of its kind and player.
    let rank = script[..index].iter().filter(|e| e.kind == entry.kind && e.player == entry.player).count();
    let mut decider = Scripted::new(script, Recorder::new(FirstLegal));
    let mut sim = Sim::new(loaded.setup.game.clone(), &mut decider);
    let ran = sim.run(&loaded.setup.actions);
    drop(sim);
    if let Err(e) = ran.map_err(|e| blame_script(e, decider.last)) {
        return match e {
            SimError::ScriptIllegal { entry, violation, .. } if entry == index => mk(
                Status::Invalid,
                format!(
                    "decisions[{index}]: the engine offers no such choice, and the scripted choice is not legal \
                     either ({}: {}): the scenario is wrong",
                    violation.clause, violation.message
                ),
            ),
            other => mk(
                Status::Invalid,
                format!(
                    "the oracle can't run this scenario with its script: {}",
                    crate::runner::locate_sim_error(loaded, &other)
                ),
            ),
        };
    }
    let recorder = &decider.inner;
    let matching = recorder
        .decisions
        .iter()
        .filter(|(_, d, scripted)| *scripted && kind_of(d) == Some(entry.kind) && d.player() == entry.player);
    let Some((legal_index, _, _)) = matching.clone().nth(rank) else {
        return mk(Status::Invalid, format!("decisions[{index}] never comes up"));
    };
    let engine_says = if message.is_empty() { String::new() } else { format!(" (the engine: {message})") };
    let Some(legal) = legal_index.map(|i| &recorder.seen[i]) else {
        // A kind of decision whose options aren't compared (a cast, targets).
        return fail(
            mk,
            vec![Difference {
                clause: "608.2d".into(),
                message: format!(
                    "decisions[{index}] is a legal choice, but the engine offers no such choice{engine_says}"
                ),
            }],
        );
    };
    let at = format!(
        "step {}: decisions[{index}] ({}'s {}) is a legal choice, but the engine offers no such choice{engine_says}",
        legal.offer.step,
        legal.offer.player,
        legal.offer.decision.name()
    );
    let mut diffs = offered.map(|o| compare_one(legal, o, Some(&loaded.setup.game))).unwrap_or_default();
    if diffs.is_empty() {
        // Nothing to compare (or what it offered is the legal set, yet it can't follow): the
        // clause that gives this kind of choice.
        let split_half = |n: &str| {
            loaded.setup.game.objs.iter().any(|o| o.def.is_split() && o.def.split.iter().any(|h| h.name == n))
        };
        let clause = match legal.offer.decision {
            OfferKind::Search if legal.stated_quality => "701.23b",
            OfferKind::Search => "701.23d",
            // One name of a split card may be chosen on its own (709.4a).
            OfferKind::Name if entry.name.as_deref().is_some_and(split_half) => "709.4a",
            _ => card_clause(legal, None, "", false),
        };
        diffs.push(Difference { clause: clause.into(), message: String::new() });
    }
    for d in &mut diffs {
        d.message = if d.message.is_empty() { at.clone() } else { format!("{at}: {}", d.message) };
    }
    fail(mk, diffs)
}

fn fail(mk: &dyn Fn(Status, String) -> ScenarioResult, diffs: Vec<Difference>) -> ScenarioResult {
    let mut r = mk(Status::Fail, diffs[0].to_string());
    r.verdict = diffs.iter().map(Verdict1::from).collect();
    r
}
