//! The distinct legal outcomes of an enumeration, each kept once.

use std::borrow::Borrow;
use std::collections::BTreeSet;

use crate::outcome::{LegalOutcome, Outcome};

/// Distinct legal outcomes, in the order of their canonical forms (the order a map from outcome
/// to legal outcome iterates in, which reports, samples and tests rely on). Each is stored once:
/// a map keyed by the outcome kept a copy of it beside the legal outcome, a clone and a second
/// drop per distinct outcome (a tenth of the `search_request` fuzz target).
#[derive(Debug, Clone, Default)]
pub struct Outcomes(BTreeSet<ByOutcome>);

/// A legal outcome ordered and looked up by its canonical outcome alone.
#[derive(Debug, Clone)]
struct ByOutcome(LegalOutcome);

impl PartialEq for ByOutcome {
    fn eq(&self, other: &Self) -> bool {
        self.0.outcome == other.0.outcome
    }
}

impl Eq for ByOutcome {}

impl PartialOrd for ByOutcome {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for ByOutcome {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.outcome.cmp(&other.0.outcome)
    }
}

/// Consistent with the ordering above, which compares the outcomes only.
impl Borrow<Outcome> for ByOutcome {
    fn borrow(&self) -> &Outcome {
        &self.0.outcome
    }
}

impl Outcomes {
    /// How many distinct outcomes.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True if there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Adds `legal` unless an equal outcome is there already (which is then kept, with its fixed
    /// positions); true if it was added.
    pub fn insert(&mut self, legal: LegalOutcome) -> bool {
        self.0.insert(ByOutcome(legal))
    }

    /// True if `outcome` (canonical) is one of them.
    pub fn contains_key(&self, outcome: &Outcome) -> bool {
        self.0.contains(outcome)
    }

    /// The legal outcome whose canonical form is `outcome`.
    pub fn get(&self, outcome: &Outcome) -> Option<&LegalOutcome> {
        self.0.get(outcome).map(|b| &b.0)
    }

    /// The canonical outcomes, in order.
    pub fn keys(&self) -> impl DoubleEndedIterator<Item = &Outcome> + ExactSizeIterator + Clone {
        self.0.iter().map(|b| &b.0.outcome)
    }

    /// The legal outcomes, in order.
    pub fn values(&self) -> impl DoubleEndedIterator<Item = &LegalOutcome> + ExactSizeIterator + Clone {
        self.0.iter().map(|b| &b.0)
    }

    /// The legal outcomes, in order, taken.
    pub fn into_values(self) -> impl DoubleEndedIterator<Item = LegalOutcome> + ExactSizeIterator {
        self.0.into_iter().map(|b| b.0)
    }
}
