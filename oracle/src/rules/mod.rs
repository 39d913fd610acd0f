//! Rule decisions, one module per Comprehensive Rules section. Each function cites the clause it
//! implements; the simulator only sequences them.

pub mod activating;
pub mod adventure;
pub mod apnap;
pub mod casting;
pub mod characteristics;
pub mod copy;
pub mod counter;
pub mod cycling;
pub mod damage;
pub mod destroy;
pub mod discard;
pub mod dredge;
pub mod gravestorm;
pub mod legend;
pub mod life;
pub mod loyalty;
pub mod mill;
pub mod naming;
pub mod piles;
pub mod replacement;
pub mod reveal;
pub mod sacrifice;
pub mod search;
pub mod shuffle;
pub mod split_second;
pub mod suspend;
pub mod tokens;
pub mod triggers;
pub mod turn_structure;
pub mod verdicts;
pub mod zones;

/// A broken rule: the clause and what happened, in words a person can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// CR clause, e.g. `701.23b`.
    pub clause: &'static str,
    /// What was wrong.
    pub message: String,
}

impl Violation {
    /// A violation of `clause`.
    pub fn new(clause: &'static str, message: impl Into<String>) -> Self {
        Violation { clause, message: message.into() }
    }
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.clause, self.message)
    }
}
