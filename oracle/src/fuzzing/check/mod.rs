//! Invariant checkers over generated cases and the outcomes the oracle gives them.
//!
//! Each checker returns `Err(CheckFailure)` with a readable message; a fuzz target panics on it
//! (so libFuzzer records the input) and a test asserts `Ok`. The rules checks here are written
//! again from the Comprehensive Rules, from the case's description of the search, rather than by
//! calling `rules::search`: they are a second implementation of 701.23b–d/f/h/j and 701.24a–b
//! that the simulator's own has to agree with. What they share with the oracle is only the
//! reading of card characteristics (`rules::characteristics::matches`).
//!
//! One checker family per file: [`conservation()`], hidden information, the search rules, shuffle
//! bookkeeping, and the oracle's agreement with itself (judge, simulator, enumerator).

mod conservation;
mod hidden;
mod judge_agreement;
mod search;
mod shuffle;

use crate::cards::instructions::{Count, SearchSpec};
use crate::outcome::{Event, LegalOutcome, Outcome};
use crate::scenario::{Loaded, Setup, load_scenario};
use crate::sim::SimError;

use super::case::FuzzCase;
use super::{CheckFailure, pool};

pub use conservation::conservation;
pub use hidden::hidden_information;
pub use judge_agreement::{
    CORRUPTIONS_PER_OUTCOME, OUTCOMES_PER_INPUT, agreement, agreement_on, agreement_picked, determinism,
    judge_accepts_run,
};
pub use search::{
    SearchContext, named_searchers, public_zone_completeness, quantity_rules, search_contexts, search_controller,
    searchable_zones,
};
pub use shuffle::shuffle_bookkeeping;

fn fail(check: &'static str, message: impl Into<String>) -> CheckFailure {
    CheckFailure { check, message: message.into() }
}

/// A generated case with its loaded scenario.
#[derive(Debug, Clone)]
pub struct Built {
    /// The case.
    pub case: FuzzCase,
    /// The scenario, loaded.
    pub loaded: Loaded,
    /// The case's search instructions ([`FuzzCase::specs`]), made once: the checks read them
    /// for every outcome, many times each.
    specs: Vec<SearchSpec>,
    /// The scenario's objects by card id, hashed: the checks look up cards by id for every card
    /// of every outcome, and the scenario's sorted ids compared strings several times a lookup.
    objs: crate::model::FastMap<String, crate::model::ObjId>,
}

impl Built {
    /// Builds and loads the case's scenario; a scenario the loader rejects is a generator bug.
    pub fn new(case: FuzzCase) -> Result<Built, CheckFailure> {
        let loaded = load_scenario("generated", case.scenario(), pool())
            .map_err(|e| fail("generator", format!("the generator made a scenario the loader rejects: {e}")))?;
        let specs = case.specs();
        let mut objs = crate::model::fast_map(loaded.setup.ids.len());
        objs.extend(loaded.setup.ids.iter().map(|(id, &o)| (id.clone(), o)));
        Ok(Built { case, loaded, specs, objs })
    }

    /// The case's search instructions, in order ([`FuzzCase::specs`]).
    pub fn specs(&self) -> &[SearchSpec] {
        &self.specs
    }

    fn setup(&self) -> &Setup {
        &self.loaded.setup
    }

    fn obj(&self, id: &str) -> Option<&crate::model::Obj> {
        self.objs.get(id).map(|&o| self.setup().game.obj(o))
    }

    /// The step in which the search resolves.
    pub fn resolution_step(&self) -> usize {
        if self.case.targets_permanent() && self.case.search.exile_target_in_response { 2 } else { 1 }
    }
}

/// A run that the oracle refuses for a reason that isn't a bug: a card whose text isn't modelled
/// would act, or there are too many outcomes to list.
pub fn is_skip(e: &SimError) -> bool {
    matches!(e, SimError::Unsupported { .. } | SimError::TooLarge(_))
}

/// The step of a card's last move, if it moved.
fn last_move_step(o: &Outcome, card: &str) -> Option<usize> {
    o.events.iter().filter(|e| matches!(&e.event, Event::Moved { card: c, .. } if c == card)).map(|e| e.step).max()
}

/// Every per-outcome invariant.
///
/// The search contexts are worked out once for the three checks that read them (the same
/// checks, in the same order, as calling each one alone).
pub fn outcome_invariants(b: &Built, legal: &LegalOutcome) -> Result<(), CheckFailure> {
    conservation(b.setup(), &legal.outcome)?;
    hidden_information(b, legal)?;
    let contexts = search_contexts(b, &legal.outcome)?;
    search::quantity_rules_in(b, &contexts)?;
    search::public_zone_completeness_in(b, &contexts)?;
    shuffle::shuffle_bookkeeping_in(b, legal, &contexts)
}

/// How many distinct `Count`s a case can ask for, for the reach statistics.
pub fn count_label(c: Count) -> &'static str {
    match c {
        Count::One => "a",
        Count::Exactly(_) => "N",
        Count::UpTo(_) => "up to N",
        Count::All => "all",
    }
}
