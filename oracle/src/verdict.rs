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

/// `legal`, the differences separated by `; `, or the error.
impl std::fmt::Display for Verdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Verdict::Legal => f.write_str("legal"),
            Verdict::Illegal(differences) => {
                let texts: Vec<String> = differences.iter().map(ToString::to_string).collect();
                f.write_str(&texts.join("; "))
            }
            Verdict::Error(e) => write!(f, "the scenario can't be judged: {e}"),
        }
    }
}

/// `text` in double quotes, with quotes, backslashes and control characters escaped: how a
/// difference quotes a card, a zone or a player.
pub fn quoted(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A list of names as a difference shows it: `["a", "b"]`.
pub fn quoted_list(items: &[String]) -> String {
    format!("[{}]", items.iter().map(|i| quoted(i)).collect::<Vec<_>>().join(", "))
}
