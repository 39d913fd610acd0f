//! The judge's vocabulary: a verdict on an observed outcome, and the differences it names.
//!
//! Both the judge (is the outcome legal?) and the option-set check of the `offers` module (were
//! the offered options the legal ones?) speak it, so it sits below both: judge → offers → verdict.

/// One way an observed outcome differs from what the rules allow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The clause that decides it.
    pub clause: String,
    /// What differs, in words.
    pub message: String,
}

impl std::fmt::Display for Difference {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.clause, self.message)
    }
}

/// The judge's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The outcome is one of the legal outcomes.
    Legal,
    /// It is not; the first difference is the main one.
    Illegal(Vec<Difference>),
    /// The scenario itself couldn't be run (unsupported, or a scripted decision is illegal).
    Error(String),
}

impl Verdict {
    /// True for [`Verdict::Legal`].
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal)
    }
}
