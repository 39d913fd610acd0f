//! The characteristics of an object as the rules read them (CR 109.3); computing them from a card
//! (split cards, face-down objects) is the rules' business, in `rules::characteristics`.

use std::collections::BTreeSet;

use crate::cards::def::{CardType, Color, Keyword, Supertype};

/// The characteristics of a card as one object.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chars {
    /// Names; a split card off the stack has both (709.4a).
    pub names: Vec<String>,
    /// Mana value (202.3); a split card off the stack has the sum of its halves' (709.4).
    pub mana_value: u32,
    /// Colours.
    pub colors: BTreeSet<Color>,
    /// Card types.
    pub types: BTreeSet<CardType>,
    /// Subtypes.
    pub subtypes: BTreeSet<String>,
    /// Supertypes.
    pub supertypes: BTreeSet<Supertype>,
    /// Keywords, including ones implied by parameters (flashback cost, cycling abilities).
    pub keywords: BTreeSet<Keyword>,
    /// The mana symbols of the mana cost, one entry per symbol; a split card's lists both halves'
    /// symbols separately (709.4b: `{1}{R}` and `{1}{U}` give `{1}` twice, not `{2}`).
    pub mana_symbols: Vec<String>,
}
