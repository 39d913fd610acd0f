//! Structural checks of a card definition that serde can't express. Every definition entering a
//! [`CardPool`](super::CardPool) passes them: the bundled pool's as well as a scenario's inline
//! hypothetical cards.

use std::fmt;

use super::def::CardDef;

/// Why a card definition is refused. Each message names the card.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DefError {
    /// A split card without exactly two halves (709.1).
    SplitHalves {
        /// The card's name.
        card: String,
    },
    /// A half of a split card that is split again.
    NestedSplit {
        /// The card's name.
        card: String,
    },
    /// A split card with a type or mana cost of its own: those belong to its halves (709.1).
    SplitCharacteristics {
        /// The card's name.
        card: String,
    },
    /// A planeswalker without a printed loyalty, or a printed loyalty on a card that isn't a
    /// planeswalker (209.1).
    Loyalty {
        /// The card's name.
        card: String,
    },
    /// An Adventure that isn't an instant or sorcery with a spell ability, or that is on a split
    /// card or has an Adventure of its own (715.2: an adventurer card is one card with one
    /// inset instant or sorcery).
    BadAdventure {
        /// The card's name.
        card: String,
    },
}

impl DefError {
    /// The name of the card the definition is of.
    pub fn card(&self) -> &str {
        match self {
            DefError::SplitHalves { card }
            | DefError::NestedSplit { card }
            | DefError::SplitCharacteristics { card }
            | DefError::Loyalty { card }
            | DefError::BadAdventure { card } => card,
        }
    }
}

impl fmt::Display for DefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefError::SplitHalves { card } => write!(f, "split card `{card}` must have exactly two halves (709.1)"),
            DefError::NestedSplit { card } => write!(f, "a half of `{card}` can't itself be split"),
            DefError::SplitCharacteristics { card } => {
                write!(f, "split card `{card}`: put characteristics on its halves, not on the card")
            }
            DefError::Loyalty { card } => {
                write!(f, "`{card}`: a planeswalker has a printed loyalty, and only a planeswalker has one (209.1)")
            }
            DefError::BadAdventure { card } => write!(
                f,
                "`{card}`'s adventure must be an instant or sorcery with a `spell`, on a card that is not split, \
                 with no adventure of its own (715.2)"
            ),
        }
    }
}

impl std::error::Error for DefError {}

/// Checks a definition's structure.
pub fn validate_def(def: &CardDef) -> Result<(), DefError> {
    if def.is_split() {
        let card = || def.name.clone();
        if def.split.len() != 2 {
            return Err(DefError::SplitHalves { card: card() });
        }
        if def.split.iter().any(|h| h.is_split()) {
            return Err(DefError::NestedSplit { card: card() });
        }
        if !def.types.is_empty() || def.mana_cost.is_some() {
            return Err(DefError::SplitCharacteristics { card: card() });
        }
    }
    // 209.1: the printed loyalty of a planeswalker is the number of loyalty counters it enters
    // with (306.5b); no other card has one.
    for face in def.face_slice() {
        if face.types.contains(&super::def::CardType::Planeswalker) != face.loyalty.is_some() {
            return Err(DefError::Loyalty { card: face.name.clone() });
        }
    }
    if let Some(adventure) = &def.adventure {
        use super::def::CardType;
        let kind = adventure.types.contains(&CardType::Instant) || adventure.types.contains(&CardType::Sorcery);
        if !kind || adventure.spell.is_none() || def.is_split() || adventure.is_split() || adventure.adventure.is_some()
        {
            return Err(DefError::BadAdventure { card: def.name.clone() });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::cards::{CardPool, PoolError};

    #[test]
    fn every_bundled_definition_passes_the_checks() {
        let pool = CardPool::bundled();
        assert!(pool.is_ok(), "{}", pool.err().map(|e| e.to_string()).unwrap_or_default());
    }

    #[test]
    fn a_pool_with_a_broken_definition_is_refused_naming_the_card() {
        let source = "\
- name: Forest
  types: [Land]
- name: \"Up // Down\"
  mana_cost: \"{1}\"
  split:
    - name: Up
      types: [Instant]
    - name: Down
      types: [Sorcery]
";
        let error = CardPool::from_yaml(source).err();
        assert!(matches!(error, Some(PoolError::Invalid(ref e)) if e.card() == "Up // Down"), "{error:?}");
        assert_eq!(
            error.map(|e| e.to_string()).as_deref(),
            Some("split card `Up // Down`: put characteristics on its halves, not on the card")
        );
    }

    #[test]
    fn a_planeswalker_and_only_a_planeswalker_has_a_printed_loyalty() {
        let walker = "- name: W\n  types: [Planeswalker]\n";
        let message = CardPool::from_yaml(walker).err().map(|e| e.to_string());
        assert_eq!(
            message.as_deref(),
            Some("`W`: a planeswalker has a printed loyalty, and only a planeswalker has one (209.1)")
        );
        let land = "- name: L\n  types: [Land]\n  loyalty: 3\n";
        assert!(CardPool::from_yaml(land).is_err());
        assert!(CardPool::from_yaml("- name: W\n  types: [Planeswalker]\n  loyalty: 3\n").is_ok());
    }

    #[test]
    fn a_split_card_needs_two_halves_that_are_not_split() {
        let one_half = "- name: \"Half\"\n  split:\n    - name: H\n      types: [Instant]\n";
        let message = CardPool::from_yaml(one_half).err().map(|e| e.to_string());
        assert_eq!(message.as_deref(), Some("split card `Half` must have exactly two halves (709.1)"));
        let nested = "\
- name: \"A // B\"
  split:
    - name: A
      split: [{name: X, types: [Instant]}, {name: Y, types: [Instant]}]
    - name: B
      types: [Sorcery]
";
        let message = CardPool::from_yaml(nested).err().map(|e| e.to_string());
        assert_eq!(message.as_deref(), Some("a half of `A // B` can't itself be split"));
    }
}
