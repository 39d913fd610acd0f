//! Card definitions: printed characteristics and the structured abilities the simulator runs.
//!
//! A definition is data, shared by the bundled card pool (`oracle/cards/*.yaml`) and by inline
//! hypothetical cards in a scenario. Split cards (CR 709) list two halves; every other card
//! is its own single face.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cards::instructions::{
    ActivatedAbility, AdditionalCost, Effect, Replacement, StaticAbility, Target, TriggeredAbility,
};

/// The `face` value meaning an adventurer card cast as its Adventure (CR 715.3); a split card's
/// halves are `0` and `1`.
pub const ADVENTURE: usize = usize::MAX - 1;

/// Card types (CR 300.1), the ones the card pool uses plus the common rest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[allow(missing_docs)]
pub enum CardType {
    Artifact,
    Battle,
    Creature,
    Enchantment,
    Instant,
    Kindred,
    Land,
    Planeswalker,
    Sorcery,
}

/// Supertypes (CR 205.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[allow(missing_docs)]
pub enum Supertype {
    Basic,
    Legendary,
    Snow,
    World,
}

/// The five colours (CR 105.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[allow(missing_docs)]
pub enum Color {
    White,
    Blue,
    Black,
    Red,
    Green,
}

/// Keywords that matter to searching and the actions around it. Abilities with parameters
/// (cycling costs, flashback costs, dredge N) live in [`CardDef`] fields instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[allow(missing_docs)]
pub enum Keyword {
    Flash,
    Flying,
    Trample,
    Vigilance,
    Cycling,
    Flashback,
    Dredge,
    /// Fuse (CR 702.102): both halves of a split card may be cast together from the hand.
    Fuse,
    /// Split second (CR 702.61a): while this spell is on the stack, players can't cast spells or
    /// activate abilities that aren't mana abilities.
    SplitSecond,
    /// Indestructible (CR 702.12b): the permanent can't be destroyed.
    Indestructible,
    /// Gravestorm (CR 702.69a): as this spell is cast, a triggered ability copies it once for
    /// each permanent put into a graveyard from the battlefield this turn (`rules::gravestorm`).
    Gravestorm,
}

/// A card definition. An ordinary card is one face; a split card (CR 709.1) leaves the
/// characteristic fields empty and lists its two halves under `split`, each itself a `CardDef`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct CardDef {
    /// The card's name; a split card's is written `Cease // Desist`.
    pub name: String,
    /// Set and collector information or other provenance (free text).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// The two halves of a split card (CR 709); empty for every other card.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub split: Vec<CardDef>,
    /// The Adventure of an adventurer card (CR 715): the inset instant or sorcery, with its own
    /// name, mana cost, types and spell ability (Brazen Borrower's Petty Theft). These alternative
    /// characteristics exist only while the card is cast as an Adventure and is on the stack
    /// (715.3b); in every other zone, and as a spell cast normally, the card has only the
    /// characteristics written at its top level (715.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub adventure: Option<Box<CardDef>>,
    /// True for a token definition (Clue, CR 111.10f); a token is never a card.
    #[serde(default)]
    pub token: bool,
    /// Mana cost in Oracle notation, e.g. `{2}{G}{G}`; hybrid symbols count 1 toward mana value.
    #[serde(default)]
    pub mana_cost: Option<String>,
    /// Colours. When omitted they are derived from the mana cost (CR 202.2).
    #[serde(default)]
    pub colors: Option<Vec<Color>>,
    /// Card types.
    #[serde(default)]
    pub types: Vec<CardType>,
    /// Subtypes (creature types, land types such as Plains, artifact types such as Clue).
    #[serde(default)]
    pub subtypes: Vec<String>,
    /// Supertypes.
    #[serde(default)]
    pub supertypes: Vec<Supertype>,
    /// Keyword abilities without parameters.
    #[serde(default)]
    pub keywords: Vec<Keyword>,
    /// Power/toughness, for creatures (informational).
    #[serde(default)]
    pub power_toughness: Option<String>,
    /// Printed loyalty of a planeswalker (209.1): it enters the battlefield with that many
    /// loyalty counters on it (306.5b).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<u32>,
    /// Oracle text of this face, verbatim from the Oracle reference.
    #[serde(default)]
    pub oracle: String,
    /// What happens when this face resolves as a spell (instants and sorceries).
    #[serde(default)]
    pub spell: Option<SpellAbility>,
    /// Activated abilities, including typecycling (CR 702.29e).
    #[serde(default)]
    pub abilities: Vec<ActivatedAbility>,
    /// Triggered abilities.
    #[serde(default)]
    pub triggers: Vec<TriggeredAbility>,
    /// Replacement effects from static abilities (e.g. Aven Mindcensor, CR 614.1a).
    #[serde(default)]
    pub replacements: Vec<Replacement>,
    /// Static abilities that aren't replacement effects ("players can't cycle cards").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub statics: Vec<StaticAbility>,
    /// An alternative cost printed on the card (CR 118.9), e.g. Archive Trap's `{0}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alternative_cost: Option<crate::cards::instructions::AlternativeCost>,
    /// Flashback cost (CR 702.34a), e.g. `{5}{B}`.
    #[serde(default)]
    pub flashback: Option<String>,
    /// The life the flashback cost pays besides mana ("Flashback—{1}{U}, Pay 3 life", Deep
    /// Analysis): the card can be cast with flashback only by a player with at least that much
    /// life (CR 119.4), who loses it as the cost is paid (601.2h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flashback_life: Option<u32>,
    /// Dredge N (CR 702.52a).
    #[serde(default)]
    pub dredge: Option<u32>,
    /// Suspend N—\[cost\] (CR 702.62a): exiled from hand as a special action with N time counters
    /// (116.2f), a counter removed at the beginning of each of its owner's upkeeps, and cast
    /// without paying its mana cost when the last is removed (`rules::suspend`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<Suspend>,
    /// Abilities of the Oracle text that the instruction language doesn't express yet, in words.
    /// Casting the card is refused rather than run with a wrong reading — except a whole
    /// permanent card with no `unmodelled_acts`, whose unmodelled abilities never act (Guile's
    /// blocking restriction): it is cast like any permanent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unmodelled: Option<String>,
    /// When the unmodelled abilities would act, so a scenario reaching that point is refused too.
    /// Empty: they never act in a scenario (mana abilities, combat triggers — the oracle has no
    /// mana or combat), so the card may sit on the battlefield.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unmodelled_acts: Vec<UnmodelledWhen>,
}

/// The numbers of "Suspend N—\[cost\]" (CR 702.62a).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Suspend {
    /// N: the time counters the card is exiled with.
    pub time_counters: u32,
    /// The suspend cost, e.g. `{U}` (mana isn't modelled: it is assumed paid).
    pub cost: String,
}

/// Where an unmodelled ability would act.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnmodelledWhen {
    /// While the card is on the battlefield (static abilities such as "players can't search").
    OnBattlefield,
    /// When it enters the battlefield (enters triggers and replacements).
    Enters,
    /// When it leaves the battlefield or dies (dies triggers, graveyard replacements).
    LeavesBattlefield,
    /// While its owner searches the library it is in and it is among the cards looked at
    /// (Panglacial Wurm, which may be cast from there during the search).
    InSearchedLibrary,
    /// When its controller draws a card while it is on the battlefield ("whenever you draw a
    /// card" triggers such as Jace's Erasure's).
    ControllerDraws,
}

/// The resolving part of an instant or sorcery: its targets and its instructions in order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct SpellAbility {
    /// Targets chosen as the spell is cast, in order (`target: 0` refers to the first).
    #[serde(default)]
    pub targets: Vec<Target>,
    /// Instructions, performed in order as the spell resolves.
    pub effect: Vec<Effect>,
    /// An additional cost (CR 601.2f): required ones must be paid however the spell is cast,
    /// also "without paying its mana cost" (seed 003 ruling on Jetsam).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub additional_cost: Option<AdditionalCost>,
}

impl CardDef {
    /// True if this is a split card (CR 709.1): two halves on one card.
    pub fn is_split(&self) -> bool {
        !self.split.is_empty()
    }

    /// True if the mana cost has `{X}` (CR 107.3).
    pub fn has_x(&self) -> bool {
        self.mana_cost.as_deref().is_some_and(|c| c.contains("{X}"))
    }

    /// The face cast as `face` says: a half of a split card (709.3), the Adventure
    /// ([`ADVENTURE`], 715.3), else the card itself.
    pub fn cast_face(&self, face: Option<usize>) -> &CardDef {
        match face {
            Some(ADVENTURE) => self.adventure.as_deref().unwrap_or(self),
            Some(f) => self.split.get(f).unwrap_or(self),
            None => self,
        }
    }

    /// The `face` value that casts the face called `name`: a half of a split card, or the
    /// Adventure of an adventurer card.
    pub fn face_named(&self, name: &str) -> Option<usize> {
        if self.adventure.as_ref().is_some_and(|a| a.name == name) {
            return Some(ADVENTURE);
        }
        self.split.iter().position(|h| h.name == name)
    }

    /// The names a cast step may give as its `face`: the halves of a split card, or the Adventure.
    pub fn face_names(&self) -> Vec<&str> {
        self.split.iter().map(|h| h.name.as_str()).chain(self.adventure.as_ref().map(|a| a.name.as_str())).collect()
    }

    /// The faces whose characteristics exist: the halves of a split card, else the card itself.
    /// Borrowed, with no `Vec` allocated: checks make it for every card of a large zone (a search
    /// looks at each card of the library, and a `Vec` per card was a third of a 100 000-card
    /// search's cost).
    pub fn face_slice(&self) -> &[CardDef] {
        if self.is_split() { &self.split } else { std::slice::from_ref(self) }
    }
}
