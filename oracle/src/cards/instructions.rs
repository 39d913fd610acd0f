//! The instruction language of card abilities.
//!
//! Real Oracle text is the reference; this is its structured reading, small enough that a card
//! author can check it against the text line by line. Each instruction is carried out by the
//! module of the CR section that defines it (search by `rules::search`, shuffle by
//! `rules::shuffle`, and so on).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::cards::def::{CardType, Color, Keyword, Supertype};

/// A player named relative to the spell or ability that is resolving.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum PlayerRef {
    /// The controller of the spell or ability.
    #[default]
    You,
    /// The first player chosen as a target.
    TargetPlayer,
    /// The controller of the first target (last known information if it has left, CR 608.2h).
    ControllerOfTarget,
    /// The owner of the first target.
    OwnerOfTarget,
    /// Every player, in APNAP order (CR 101.4).
    EachPlayer,
    /// Every opponent of the controller, in APNAP order.
    EachOpponent,
    /// The player whose action triggered the ability ("that player").
    TriggeringPlayer,
}

/// An object named relative to the resolving spell or ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CardRef {
    /// The first target.
    Target,
    /// The source of the ability (or the spell itself).
    This,
    /// The card chosen by an earlier `choose_card` instruction of the same effect.
    Chosen,
}

/// How one target is chosen as a spell is cast (CR 601.2c).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Target {
    /// A permanent matching the filter.
    Permanent(Filter),
    /// Any player.
    Player,
    /// An opponent of the caster.
    Opponent,
    /// A permanent matching the filter that an opponent of the controller controls.
    OpponentsPermanent(Filter),
    /// A spell on the stack matching the filter (Counterspell).
    Spell(Filter),
    /// "any target" (Lightning Bolt): a player, or a creature, planeswalker or battle on the
    /// battlefield (115.4).
    Any,
    /// A card matching the filter in the graveyard of the spell's or ability's controller.
    CardInYourGraveyard(Filter),
    /// "any number of target cards from their graveyard": cards matching the filter in the
    /// graveyard of the player chosen for the first (player) target; zero cards is a legal choice.
    GraveyardCards(Filter),
    /// "target card in a graveyard" (Extirpate, Surgical Extraction): a card matching the filter
    /// in any player's graveyard (115.1, 601.2c).
    CardInAGraveyard(Filter),
    /// "up to N target \[quality\] cards from your graveyard" (Life from the Loam): from zero to N
    /// different cards matching the filter in the controller's graveyard (601.2c: the number of
    /// targets is chosen as the spell is cast, and one object can't be chosen twice for one
    /// "target"). Written last among a spell's targets; it covers every target after the others.
    UpToCardsInYourGraveyard {
        /// N.
        count: u32,
        /// The quality.
        #[serde(default)]
        filter: Filter,
    },
    /// "up to N target \[quality\] cards from a single graveyard" (Cease): from zero to N different
    /// cards matching the filter, all in one graveyard, whichever player's it is (601.2c: checked
    /// as the targets are chosen). Written last among a spell's targets, like
    /// `up_to_cards_in_your_graveyard`; it covers every target after the others.
    UpToCardsFromASingleGraveyard {
        /// N.
        count: u32,
        /// The quality.
        #[serde(default)]
        filter: Filter,
    },
}

/// A stated quality of a card (CR 701.23b). The empty filter states no quality: a search for it
/// is a search "simply for a quantity of cards" (CR 701.23d).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Filter {
    /// The card has every one of these card types.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Vec<CardType>,
    /// The card has every one of these subtypes (e.g. `Plains`, which a nonbasic land can have).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subtypes: Vec<String>,
    /// The card has every one of these supertypes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub supertypes: Vec<Supertype>,
    /// The card has this name (a split card has each of its halves' names, CR 709.4a).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The card has a name in common with this object. If the object doesn't exist the quality is
    /// undefined and nothing can be found (CR 701.23c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_name_as: Option<CardRef>,
    /// The card has this keyword (a creature with flash has flash).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keyword: Option<Keyword>,
    /// The card's mana value is at most this (a split card's is the sum of both halves, CR 709.4).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_value_at_most: Option<u32>,
    /// The card's mana value is at least this.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mana_value_at_least: Option<u32>,
    /// "with mana value X or less" (Green Sun's Zenith, Chord of Calling): the card's mana value is
    /// at most the X chosen as the spell was cast (CR 107.3a, 601.2b); bound as the search happens.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub mana_value_at_most_x: bool,
    /// "with the same mana value as" an object (transmute, CR 702.53a: the discarded card), read
    /// as the search happens from the object as it last existed (CR 608.2h).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub same_mana_value_as: Option<CardRef>,
    /// The card has this colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// The card matches at least one of these filters.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub any_of: Vec<Filter>,
    /// The card does not match this filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub not: Option<Box<Filter>>,
    /// "another": not the source of the ability choosing it (checked where targets are chosen).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub another: bool,
    /// No mana symbol appears twice in the card's mana cost (Jegantha's condition); a split card's
    /// symbols are its halves' symbols, seen separately (CR 709.4b).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_repeated_mana_symbol: bool,
}

/// A target requirement in words, for error messages.
pub fn describe_target(t: &Target) -> String {
    match t {
        Target::Permanent(f) if f.is_quantity_only() => "a permanent".into(),
        Target::Permanent(f) => format!("a permanent that is {}", describe_filter(f)),
        Target::Player => "a player".into(),
        Target::Any => "any target (a player, or a creature, planeswalker or battle)".into(),
        Target::Opponent => "an opponent of the caster".into(),
        Target::OpponentsPermanent(f) => format!("a permanent an opponent controls that is {}", describe_filter(f)),
        Target::Spell(f) if f.is_quantity_only() => "a spell".into(),
        Target::Spell(f) => format!("a spell that is {}", describe_filter(f)),
        Target::CardInYourGraveyard(f) => format!("a card in your graveyard that is {}", describe_filter(f)),
        Target::GraveyardCards(f) => {
            format!("any number of cards in the target player's graveyard that are {}", describe_filter(f))
        }
        Target::CardInAGraveyard(f) => format!("a card in a graveyard that is {}", describe_filter(f)),
        Target::UpToCardsInYourGraveyard { count, filter } => {
            format!("up to {count} different cards in your graveyard that are {}", describe_filter(filter))
        }
        Target::UpToCardsFromASingleGraveyard { count, filter } => {
            format!("up to {count} different cards from a single graveyard that are {}", describe_filter(filter))
        }
    }
}

/// A filter in words, e.g. `Artifact`, `Land with Plains`, `not (Basic Land)`.
pub fn describe_filter(f: &Filter) -> String {
    let mut parts: Vec<String> = Vec::new();
    let sup: Vec<String> = f.supertypes.iter().map(|s| format!("{s:?}")).collect();
    let types: Vec<String> = f.types.iter().map(|t| format!("{t:?}")).collect();
    let head = sup.into_iter().chain(types).collect::<Vec<_>>().join(" ");
    if !head.is_empty() {
        parts.push(head);
    }
    if !f.subtypes.is_empty() {
        parts.push(format!("with subtype {}", f.subtypes.join(" and ")));
    }
    if let Some(n) = &f.name {
        parts.push(format!("named {n}"));
    }
    if let Some(r) = f.same_name_as {
        parts.push(format!("with the same name as {r:?}").to_lowercase());
    }
    if let Some(k) = f.keyword {
        parts.push(format!("with {k:?}").to_lowercase());
    }
    if let Some(m) = f.mana_value_at_most {
        parts.push(format!("with mana value {m} or less"));
    }
    if let Some(m) = f.mana_value_at_least {
        parts.push(format!("with mana value {m} or more"));
    }
    if f.mana_value_at_most_x {
        parts.push("with mana value X or less".into());
    }
    if let Some(r) = f.same_mana_value_as {
        parts.push(format!("with the same mana value as {r:?}").to_lowercase());
    }
    if let Some(c) = f.color {
        parts.push(format!("{c:?}"));
    }
    if !f.any_of.is_empty() {
        parts.push(format!("({})", f.any_of.iter().map(describe_filter).collect::<Vec<_>>().join(" or ")));
    }
    if let Some(n) = &f.not {
        parts.push(format!("not ({})", describe_filter(n)));
    }
    if f.another {
        parts.push("other than this".into());
    }
    if f.no_repeated_mana_symbol {
        parts.push("with no mana symbol repeated".into());
    }
    if parts.is_empty() { "any card".into() } else { parts.join(", ") }
}

impl Filter {
    /// True when the filter states no quality at all: "a card", "three cards" (CR 701.23d).
    pub fn is_quantity_only(&self) -> bool {
        *self == Filter::default()
    }
}

/// A zone a search looks in, belonging to the searched player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SearchZone {
    /// The player's graveyard (a public zone, CR 400.2).
    Graveyard,
    /// The player's hand (hidden).
    Hand,
    /// The player's library (hidden).
    Library,
    /// Outside the game: the searcher's own cards only (CR 701.23j, 400.11).
    Outside,
}

/// How many cards a search finds. "any number of cards" (Surgical Extraction) is written
/// `any_number` and read as up to every card there is: the searcher picks how many, from zero.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case", from = "CountWording", into = "CountWording")]
pub enum Count {
    /// "a card".
    #[default]
    One,
    /// "N cards".
    Exactly(u32),
    /// "up to N cards": the searcher picks how many, from zero.
    UpTo(u32),
    /// "all cards".
    All,
}

/// How a [`Count`] is written in YAML: its own variants plus `any_number`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum CountWording {
    /// "a card".
    One,
    /// "N cards".
    Exactly(u32),
    /// "up to N cards": the searcher picks how many, from zero.
    UpTo(u32),
    /// "all cards".
    All,
    /// "any number of cards" (Surgical Extraction, Slaughter Games): the searcher picks how many,
    /// from zero, in every zone searched — a public one too (the Slaughter Games ruling of
    /// 2012-10-01: cards with that name may be left where they are).
    AnyNumber,
}

impl Count {
    /// "any number of cards": up to as many as there are.
    pub const ANY_NUMBER: Count = Count::UpTo(u32::MAX);
}

impl From<CountWording> for Count {
    fn from(w: CountWording) -> Count {
        match w {
            CountWording::One => Count::One,
            CountWording::Exactly(n) => Count::Exactly(n),
            CountWording::UpTo(n) => Count::UpTo(n),
            CountWording::All => Count::All,
            CountWording::AnyNumber => Count::ANY_NUMBER,
        }
    }
}

impl From<Count> for CountWording {
    fn from(c: Count) -> CountWording {
        match c {
            Count::One => CountWording::One,
            Count::Exactly(n) => CountWording::Exactly(n),
            Count::ANY_NUMBER => CountWording::AnyNumber,
            Count::UpTo(n) => CountWording::UpTo(n),
            Count::All => CountWording::All,
        }
    }
}

impl Count {
    /// The least the searcher is asked for, before the zone rules of 701.23b–d apply.
    pub fn asked_min(self) -> usize {
        match self {
            Count::One => 1,
            Count::Exactly(n) => n as usize,
            Count::UpTo(_) => 0,
            Count::All => usize::MAX,
        }
    }

    /// The most the searcher may find.
    pub fn max(self) -> usize {
        match self {
            Count::One => 1,
            Count::Exactly(n) | Count::UpTo(n) => n as usize,
            Count::All => usize::MAX,
        }
    }
}

/// Where found cards go.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Destination {
    /// Their owner's hand.
    #[default]
    Hand,
    /// The battlefield, under the searcher's control.
    Battlefield,
    /// "put it onto the battlefield tapped": the battlefield, under the searcher's control, tapped
    /// (a permanent enters untapped unless the effect says otherwise, CR 110.5b).
    BattlefieldTapped,
    /// Their owner's graveyard.
    Graveyard,
    /// Exile.
    Exile,
    /// The top of their owner's library, after the rest is shuffled (CR 701.24b).
    LibraryTop,
    /// Exile, face down (CR 406.3): only the searcher may look at it, and the searcher may cast
    /// it for as long as it remains exiled (Praetor's Grasp; 406.3a–b).
    ExileFaceDown,
    /// "Target opponent chooses N of those cards. Put the chosen cards into your graveyard and the
    /// rest into your hand" (Gifts Ungiven): once the search is over, the target player chooses N
    /// of the found cards (all of them when there are N or fewer — the Gifts Ungiven ruling), a
    /// choice made as the effect is applied (608.2d); those go to their owner's graveyard and the
    /// rest to their owner's hand, at the same time, before the shuffle.
    TargetPlayerChoosesForGraveyard(u32),
    /// "You may cast that card without paying its mana cost" (Knowledge Exploitation): once the
    /// search is over, and before the instruction's shuffle, the searcher may cast the found card
    /// from where it is, as part of the resolution (601.2; the timing of its type doesn't apply) and
    /// without paying its mana cost (118.9). The spell is theirs to control though its owner stays
    /// the card's owner, whose graveyard it goes to. Not cast, it stays where it was found.
    MayCastWithoutPaying,
}

/// A search instruction (CR 701.23).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct SearchSpec {
    /// Who searches. `each_player` makes simultaneous searches decided in APNAP order (701.23i).
    #[serde(default)]
    pub searcher: PlayerRef,
    /// "may search": the searcher chooses whether to search at all (701.23g).
    #[serde(default)]
    pub optional: bool,
    /// Zones searched, all belonging to `whose`.
    pub zones: Vec<SearchZone>,
    /// Whose zones. Omitted: each searcher's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub whose: Option<PlayerRef>,
    /// The stated quality; omitted for a search simply for a quantity of cards (701.23d).
    #[serde(default, rename = "for", skip_serializing_if = "Option::is_none")]
    pub filter: Option<Filter>,
    /// How many.
    #[serde(default)]
    pub count: Count,
    /// The found cards must have different names (Gifts Ungiven).
    #[serde(default)]
    pub different_names: bool,
    /// The effect says to reveal the found cards; without it they aren't revealed (701.23e).
    #[serde(default)]
    pub reveal: bool,
    /// Where the found cards go.
    #[serde(default)]
    pub to: Destination,
    /// "then shuffle": the searched library is shuffled by its owner ("that player shuffles"), only
    /// if it was searched. A searcher shuffling another player's library can't be written here.
    #[serde(default)]
    pub shuffle: bool,
    /// "… for five cards and exile the rest" (Doomsday): once the cards are found, every other
    /// card of the zones the instruction names is exiled (701.13a), before the found cards go
    /// where they go — the whole library even when the search was limited to its top cards
    /// (701.23f) or kept out of it by a "can't search" effect (101.2).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub exile_rest: bool,
}

/// One instruction of a resolving spell or ability.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Effect {
    /// Exile an object (CR 701.13).
    Exile(CardRef),
    /// A player reveals their hand (CR 701.20a).
    RevealHand(PlayerRef),
    /// A player chooses a card from a player's hand; later instructions call it `chosen`.
    ChooseCard {
        /// Who chooses.
        chooser: PlayerRef,
        /// Whose hand.
        from: PlayerRef,
        /// What may be chosen.
        #[serde(default)]
        filter: Filter,
    },
    /// Search (CR 701.23).
    Search(SearchSpec),
    /// A player shuffles their library (CR 701.24).
    Shuffle(PlayerRef),
    /// A player draws cards (CR 121).
    Draw {
        /// Who draws.
        player: PlayerRef,
        /// How many.
        #[serde(default = "one")]
        count: u32,
    },
    /// "You lose half your life, rounded up" (Doomsday): the player loses half their life total,
    /// an odd total rounded up (107.1a), nothing at 0 or less.
    LoseHalfLifeRoundedUp(PlayerRef),
    /// A player loses life.
    LoseLife {
        /// Who loses life.
        player: PlayerRef,
        /// How much.
        amount: u32,
    },
    /// A player sacrifices a permanent of their choice matching the filter.
    Sacrifice {
        /// Who sacrifices.
        player: PlayerRef,
        /// What they may sacrifice.
        #[serde(default)]
        filter: Filter,
    },
    /// "Sacrifice any number of \[lands\]" (Scapeshift): as the effect resolves the player chooses
    /// any number of the permanents they control matching the filter — none, some or all (CR
    /// 107.1c) — and sacrifices them at the same time (701.21a). A later
    /// `search_up_to_that_many` instruction of the same effect counts them.
    SacrificeAnyNumber {
        /// Who sacrifices.
        player: PlayerRef,
        /// What they may sacrifice.
        #[serde(default)]
        filter: Filter,
    },
    /// "Search your library for up to that many \[land\] cards" after `sacrifice_any_number`
    /// (Scapeshift): a search (CR 701.23) for up to N cards, N being the number of permanents the
    /// effect's `sacrifice_any_number` instruction sacrificed (zero when it sacrificed none, and
    /// then the search and its shuffle still happen, finding nothing: the instructions are followed in order, 608.2c). The spec's `count` is not
    /// read: leave it out.
    SearchUpToThatMany(SearchSpec),
    /// A player mills cards: the top N of their library go to their graveyard; with fewer, all
    /// of them (CR 701.17a–b).
    Mill {
        /// Who mills.
        player: PlayerRef,
        /// How many.
        count: u32,
        /// "you may have [a player] mill" (Jace's Erasure): the ability's controller chooses, as
        /// it resolves, whether the mill happens (608.2d).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        optional: bool,
    },
    /// Create a Clue token (CR 701.16a, 111.10f).
    Investigate,
    /// What gravestorm's triggered ability does (CR 702.69a): copy the spell it triggered from
    /// once for each permanent put into a graveyard from the battlefield this turn, counted as
    /// the ability resolves; the controller may choose new targets for each copy (707.10c). A
    /// card doesn't write it: the `gravestorm` keyword makes the trigger.
    GravestormCopies,
    /// A player reveals the top N cards of their library to everyone (CR 701.20a–b).
    RevealTop {
        /// Whose library, and who reveals.
        player: PlayerRef,
        /// How many.
        count: u32,
    },
    /// A player looks at the top N cards of their library: revealed to them only (CR 701.20e).
    LookAtTop {
        /// Whose library, and who looks.
        player: PlayerRef,
        /// How many.
        count: u32,
    },
    /// A player looks at the top N cards of their library and puts them back in any order
    /// (the library is reordered: CR 701.20d).
    ReorderTop {
        /// Whose library, and who looks.
        player: PlayerRef,
        /// How many.
        count: u32,
    },
    /// "Reveal the top N cards of your library. An opponent separates those cards into two piles.
    /// Put one pile into your hand and the other into your graveyard." (Fact or Fiction): the
    /// controller reveals the top N cards (701.20a; all of them with fewer); while they stay in
    /// the library, the opponent puts each of them into exactly one of two piles, either of which
    /// may be empty (700.3); the controller then chooses which pile goes to their hand, and the
    /// other goes to their graveyard. With more than one opponent, which one separates is the
    /// controller's choice, not modelled.
    RevealTopOpponentSeparatesPiles {
        /// N.
        count: u32,
    },
    /// "Put N cards from your hand on top of your library in any order" (Brainstorm): the player
    /// chooses N cards of their hand — all of them when they hold fewer (609.3) — and puts them on
    /// top of their own library at the same time, in an order they choose that nobody else sees
    /// (401.4). Only they know those cards there.
    PutCardsFromHandOnTop {
        /// Who puts the cards back (their hand, their library).
        player: PlayerRef,
        /// N.
        count: u32,
    },
    /// Shuffle an object into its owner's library; the library is shuffled even if the object
    /// isn't where it was expected (CR 701.24c).
    ShuffleInto(CardRef),
    /// The target player shuffles the target graveyard cards that are still legal targets into
    /// their library; with none, the library is still shuffled (CR 701.24d).
    ShuffleTargetCardsInto,
    /// Counter a spell: it leaves the stack for its owner's graveyard (CR 701.6a).
    Counter(CardRef),
    /// Destroy a permanent: it is put into its owner's graveyard (CR 701.8a); an indestructible
    /// one isn't (702.12b). Nothing happens to an object no longer on the battlefield.
    Destroy(CardRef),
    /// "Return target cards from your graveyard to your hand" (Life from the Loam): every card target
    /// still in a graveyard as the same object goes to its owner's hand; one that left is an
    /// illegal target and is left alone (608.2b).
    ReturnTargetCardsToHand,
    /// "\[This\] deals N damage to any target" (Lightning Bolt), to the first target: a player
    /// dealt damage loses that much life (120.3a); damage dealt to a creature is marked on it
    /// (120.3e), and a creature with damage at least its toughness is destroyed as a state-based
    /// action once the spell has resolved (704.5g). Damage to a planeswalker or battle (counters
    /// removed instead) is not modelled.
    DealDamage {
        /// N.
        amount: u32,
    },
    /// "Exile target cards" (Cease): every card target still in a graveyard as the same object is
    /// exiled (701.13a); one that left is an illegal target and is left alone (608.2b).
    ExileTargetCards,
    /// "Destroy all \[quality\] permanents" (Desist: artifacts and enchantments): every permanent
    /// on the battlefield matching the filter is destroyed, all at the same time (701.8a); an
    /// indestructible one stays (702.12b).
    DestroyAll(Filter),
    /// Exile an object until the source leaves the battlefield (CR 610.3).
    ExileUntilSourceLeaves(CardRef),
    /// A player gains life.
    GainLife {
        /// Who gains life.
        player: PlayerRef,
        /// How much.
        amount: u32,
    },
    /// A player gains 1 life for each card in their graveyard matching the filter; a split card
    /// is one card (CR 709.2).
    GainLifeForEach {
        /// Who gains life and whose graveyard is counted.
        player: PlayerRef,
        /// What is counted.
        #[serde(default)]
        filter: Filter,
    },
    /// A player discards cards of their choice (CR 701.9a–b).
    Discard {
        /// Who discards.
        player: PlayerRef,
        /// How many.
        count: u32,
    },
    /// "That player discards that card" (Thoughtseize): the card chosen by an earlier
    /// `choose_card` instruction is discarded by the player whose hand it is in (CR 701.9a). With
    /// no card chosen, or one no longer in a hand, nothing is discarded.
    DiscardChosen,
    /// The controller draws X cards (X chosen as the spell was cast or the ability activated).
    DrawX,
    /// The controller gains X life.
    GainLifeX,
    /// The controller may cast a spell matching the filter from each listed player's graveyard
    /// without paying its mana cost, as part of this resolution (Jetsam; CR 601.2, 118.9).
    CastFromGraveyards {
        /// Whose graveyards, one spell from each.
        from: PlayerRef,
        /// What the spell must be (checked on the half being cast, CR 709.3a).
        #[serde(default)]
        filter: Filter,
        /// "If a spell cast this way would be put into a graveyard, exile it instead."
        #[serde(default)]
        exile_instead_of_graveyard: bool,
    },
    /// A player chooses a card name (a split card offers each half's name, CR 709.4a); later
    /// instructions refer to it as `same_name_as: chosen`.
    NameCard {
        /// Who names.
        player: PlayerRef,
        /// What kind of card the name must belong to (e.g. not a land).
        #[serde(default)]
        filter: Filter,
    },
    /// Put an object into its owner's library Nth from the top; with fewer than N-1 other cards
    /// there, on the bottom (CR 401.7).
    PutIntoLibraryNthFromTop {
        /// The object.
        card: CardRef,
        /// N.
        n: u32,
    },
    /// Exile an object, linked to the source: a later ability of the source can refer to "the
    /// exiled card" (CR 406.6, 607).
    ExileLinked(CardRef),
    /// Return the cards exiled by this source's linked ability to the battlefield under their
    /// owners' control (CR 406.6, 607).
    ReturnLinkedToBattlefield,
    /// A player chooses a card they own in exile and puts it into their hand. Face-up cards and
    /// face-down cards they may look at are chosen individually; a face-down card they may not look
    /// at is reached by choosing its pile, from which a card is taken at random (CR 406.4) — any
    /// card of the pile can end up chosen, so every card the player owns in exile is an outcome.
    PutChosenExiledCardIntoHand {
        /// Who chooses.
        chooser: PlayerRef,
    },
    /// Copy a card and let the controller cast the copy without paying its mana cost; a split
    /// card's copy keeps both halves, and one is chosen as it is cast (CR 707.12, 709.3c).
    CopyAndMayCast(CardRef),
    /// Mill N cards, then gain life equal to the total mana value of the milled cards (each card
    /// milled counts, CR 701.17d).
    MillThenGainLifeForManaValues {
        /// Who mills and gains life.
        player: PlayerRef,
        /// How many.
        count: u32,
    },
    /// The object gains flashback until end of turn, with a flashback cost equal to its mana cost
    /// (Snapcaster Mage; CR 702.34a).
    GainFlashback(CardRef),
    /// "Exile each opponent's graveyard" (Ashiok, Dream Render): every card in the graveyard of
    /// each player named is exiled (701.13a); `each_opponent` leaves the controller's own graveyard
    /// where it is.
    ExileGraveyard(PlayerRef),
    /// Put a -1/-1 counter on each creature. Creatures' toughness and state-based actions are not
    /// modelled, so with a creature on the battlefield the run is refused as unsupported.
    MinusCounterOnEachCreature,
    /// "Return \[an object\] to its owner's hand" (Eternal Dragon's "return this card from your
    /// graveyard to your hand", Petty Theft's target permanent): the object goes to its owner's
    /// hand (400.3) if it is still the object the effect refers to, in the zone it was expected in
    /// (400.7; a target that left is illegal, 608.2b). Otherwise nothing happens.
    ReturnToOwnersHand(CardRef),
    /// "You may put \[a card of some quality\] from your hand onto the battlefield" (Stoneforge
    /// Mystic): as the ability resolves its controller chooses whether to, and which matching card
    /// of their hand; it is put onto the battlefield, not cast (no spell, nothing to
    /// counter), under that player's control. With no matching card, nothing happens.
    PutFromHandOntoBattlefield {
        /// What may be put there.
        #[serde(default)]
        filter: Filter,
    },
    /// "You may reveal a \[quality\] card you own from outside the game and put it into your hand"
    /// (Burning Wish): the controller may choose one card they own outside the game (400.11)
    /// matching the filter, reveals it (701.20a) and puts it into their hand. It is not a search:
    /// 701.23j covers only effects that say "search outside the game", so nothing that stops or
    /// limits searching applies and no "whenever a player searches" ability triggers. A card in
    /// exile is in the game, so it can't be chosen.
    RevealFromOutsideTheGameIntoHand(Filter),
    /// Put +1/+1 counters on the source.
    AddCounters {
        /// How many.
        count: u32,
        /// "you may".
        #[serde(default)]
        optional: bool,
    },
    /// Suspend's upkeep trigger (702.62a): "remove a time counter from it" — from the source, if
    /// it is still the exiled card that triggered (400.7). Removing the last one triggers
    /// suspend's cast trigger. Written by the `suspend` keyword, not in the pool.
    RemoveTimeCounter,
    /// Suspend's last-counter trigger (702.62a): "you may play it without paying its mana cost if
    /// able; if you don't, it remains exiled" — the source, if it is still the exiled card, may
    /// be cast by the ability's controller during the resolution, with its targets chosen
    /// (601.2c). Written by the `suspend` keyword, not in the pool.
    MayCastSuspended,
}

fn one() -> u32 {
    1
}

/// Who performs an action, relative to the controller of a triggered or static ability.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum Relation {
    /// Any player.
    #[default]
    Any,
    /// The ability's controller.
    You,
    /// An opponent of the ability's controller.
    Opponent,
}

/// Which library an action concerns, relative to the acting player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(rename_all = "snake_case")]
pub enum WhoseLibrary {
    /// Any library.
    #[default]
    Any,
    /// "their library": the acting player's own.
    Their,
}

/// The event a triggered ability waits for (CR 603.2).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum TriggerEvent {
    /// "When this creature dies."
    Dies,
    /// "Whenever another creature dies" (a creature other than this permanent).
    AnotherCreatureDies,
    /// "When this permanent enters."
    Enters,
    /// "Whenever [a player] searches [a library]" — partial searches count (701.23f).
    SearchedLibrary {
        /// Who searched.
        #[serde(default)]
        searcher: Relation,
        /// Which library.
        #[serde(default)]
        library: WhoseLibrary,
    },
    /// "Whenever [a player] shuffles [a library]" (701.24e–f).
    ShuffledLibrary {
        /// Who shuffled.
        #[serde(default)]
        shuffler: Relation,
        /// Which library.
        #[serde(default)]
        library: WhoseLibrary,
    },
    /// "When this is put into a graveyard from anywhere": works from the graveyard.
    PutIntoGraveyard,
    /// "When this leaves the battlefield" (looks back in time, CR 603.10a).
    LeavesBattlefield,
    /// "When you cycle this card": triggers from wherever the card went (CR 702.29c).
    ThisCycled,
    /// "Whenever [a player] cycles a card" (typecycling is cycling, CR 702.29f).
    Cycled {
        /// Who cycled.
        #[serde(default)]
        by: Relation,
    },
    /// "Whenever [a player] discards a card".
    Discarded {
        /// Who discarded.
        #[serde(default)]
        by: Relation,
    },
    /// "Whenever [a player] cycles or discards a card": once per cycled card (CR 702.29d).
    CycledOrDiscarded {
        /// Who.
        #[serde(default)]
        by: Relation,
    },
    /// "Whenever [a player] sacrifices a …" with a filter (e.g. a Clue, for any reason).
    Sacrificed {
        /// Who sacrificed.
        #[serde(default)]
        by: Relation,
        /// What was sacrificed.
        #[serde(default)]
        filter: Filter,
    },
    /// "At the beginning of [each player's | your] [untap step | upkeep | draw step]" (603.2b):
    /// triggers as that step of the named player's turn begins, after the step's turn-based
    /// actions (the draw step's draw, 504.1); "that player" is the active player.
    BeginningOfStep {
        /// Which step.
        step: TurnStep,
        /// Whose turn: `any` (each player's), `you` (your), `opponent` (each opponent's).
        #[serde(default)]
        whose: Relation,
    },
    /// "Whenever [a player] draws a card" (121.1): once per card drawn (121.2); a draw replaced
    /// by dredge is not a draw (603.2g, 614.6). "That player" is the one who drew.
    Drew {
        /// Who drew.
        #[serde(default)]
        by: Relation,
    },
    /// "Whenever a permanent becomes untapped" (Mesmeric Orb): once for each permanent that goes
    /// from tapped to untapped, never for one that enters untapped (603.2e). "That permanent's
    /// controller" is the triggering player.
    PermanentBecomesUntapped,
}

/// A step of the beginning phase (CR 501.1), the only steps of a turn the oracle models.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TurnStep {
    /// The untap step (502): the active player's permanents untap; no player gets priority.
    Untap,
    /// The upkeep (503).
    Upkeep,
    /// The draw step (504): the active player draws a card.
    Draw,
}

/// An intervening "if" clause of a triggered ability ("When/Whenever/At …, if \[condition\], …"):
/// the ability triggers only if the condition holds as the event happens, and does nothing if it
/// no longer holds as it resolves (603.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum InterveningIf {
    /// "if this permanent is untapped" (Howling Mine).
    ThisIsUntapped,
    /// "if an opponent controls more lands than you" (Land Tax): some opponent of the ability's
    /// controller controls more lands than the controller does.
    OpponentControlsMoreLands,
    /// "if this card is suspended" (suspend's upkeep trigger, 702.62b): it is exiled, has
    /// suspend and has a time counter on it.
    ThisIsSuspended,
    /// "if it's exiled" (suspend's last-counter trigger, 702.62a).
    ThisIsExiled,
}

/// A triggered ability; it works while its source is on the battlefield, except leaves-the-
/// battlefield triggers, which look back in time (CR 603.10a).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriggeredAbility {
    /// The trigger event.
    pub on: TriggerEvent,
    /// An intervening "if" clause (603.4), checked as the ability triggers and as it resolves.
    #[serde(default, rename = "if", skip_serializing_if = "Option::is_none")]
    pub condition: Option<InterveningIf>,
    /// Targets, chosen as the ability is put on the stack (CR 603.3d): with no legal choice for a
    /// target the ability is removed from the stack.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<Target>,
    /// What the ability does when it resolves.
    pub effect: Vec<Effect>,
}

/// A replacement effect from a static ability of a permanent (CR 614).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Replacement {
    /// "If [a player] would search a library, that player searches the top N cards of that
    /// library instead" (Aven Mindcensor; CR 701.23f).
    SearchTopOfLibrary {
        /// How many cards from the top.
        count: u32,
        /// Which searchers it applies to.
        #[serde(default)]
        applies_to: Relation,
    },
    /// "If this creature would die, put it on top of its owner's library instead" (Gravebane Zombie).
    DieToLibraryTop,
    /// "If this would be put into a graveyard from anywhere, reveal it and shuffle it into its
    /// owner's library instead" (Darksteel Colossus).
    GraveyardToShuffledLibrary,
    /// "If a card would be put into a graveyard from anywhere, put it on the bottom of its owner's
    /// library instead" — a hidden zone, not revealed (used for CR 701.9c).
    AnyCardGraveyardToLibraryBottom,
    /// "If a player would mill one or more cards, they mill twice that many instead" (hypothetical;
    /// CR 701.17d).
    MillDoubled,
    /// "This land enters tapped" (Lonely Sandbar): however it is put onto the battlefield (played,
    /// or put there by an effect), it enters tapped (614.1d; 110.5b).
    EntersTapped,
    /// "As this enters, mill N cards": applied while the permanent enters (seed 003, Search).
    AsEntersMill {
        /// How many.
        count: u32,
    },
    /// "As this land enters, you may pay N life. If you don't, it enters tapped" (the shock lands,
    /// Hallowed Fountain): an "as enters" replacement (614.1c) of the permanent itself, so it
    /// applies however it is put onto the battlefield — played, or fetched by a search. The
    /// player who will control it chooses as it enters; life can be paid only with a life total
    /// of at least N (119.4). An effect that puts it onto the battlefield tapped still does, paid
    /// or not (the shock lands' ruling).
    AsEntersMayPayLifeOrTapped {
        /// How much life.
        life: u32,
    },
}

/// A static ability that isn't a replacement effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum StaticAbility {
    /// "Players can't cycle cards" — typecycling included (CR 702.29f).
    PlayersCantCycle,
    /// "Your opponents play with their hands revealed" (Telepathy; CR 701.20c).
    OpponentsPlayWithHandsRevealed,
    /// "Play with the top card of your library revealed" (CR 401.5–401.6).
    TopCardOfLibraryRevealed,
    /// "If this card is in your opening hand, you may begin the game with it on the battlefield"
    /// (Leylines; chosen in APNAP order as the game starts, CR 101.4e).
    BeginOnBattlefield,
    /// "You may cast spells as though they had flash" (Vedalken Orrery): its controller's spells
    /// may be cast whenever an instant could be (702.8a, 117.1a). The oracle has no turns, so
    /// this only lifts the empty-stack requirement of 117.1a; it also lets a scenario have a
    /// player other than the active one cast a sorcery, as a real game allows with it.
    CastSpellsAsThoughFlash,
    /// "[Players | Your opponents] can't search libraries" (Leonin Arbiter, Stranglehold): a
    /// "can't" effect (101.2) on every player it applies to, whoever's library and whatever
    /// spell or ability tells them to search. With `ignore_cost` (Leonin Arbiter's "Any player
    /// may pay {2} for that player to ignore this effect until end of turn"), a player may take
    /// the special action of paying it to ignore this permanent's effect (116.2d); the oracle
    /// has no mana, so the cost is kept for reference.
    CantSearchLibraries {
        /// Which players can't search: `any` (players), `opponent` (your opponents).
        #[serde(default)]
        applies_to: Relation,
        /// The cost of the special action that ignores the effect until end of turn (116.2d).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ignore_cost: Option<String>,
    },
    /// "Spells and abilities your opponents control can't cause their controller to search their
    /// library" (Ashiok, Dream Render): an opponent can't search their own library for a spell or
    /// ability they control; other libraries, and searches another player's spell makes them
    /// do, are unaffected (101.2).
    OpponentsCantCauseOwnLibrarySearch,
    /// "You control your opponents while they're searching their libraries" (Opposition Agent): a
    /// limited player-controlling effect (723.2). While an opponent of this permanent's
    /// controller searches their own library (every zone of that one search, the 2020-11-10
    /// rulings), this permanent's controller makes the searcher's choices of what to find (723.5)
    /// and sees what they see (723.4); the search rules themselves are unchanged. With several,
    /// the one that entered the battlefield most recently wins (723.1a and the 2020-11-10 ruling).
    ControlsOpponentsSearchingTheirLibraries,
    /// "While an opponent is searching their library, they exile each card they find. You may play
    /// those cards for as long as they remain exiled …" (Opposition Agent): a replacement effect
    /// (614.1a) on where an opponent of this permanent's controller puts the cards their search of
    /// their own library finds — in every zone of that search — exile instead, and this
    /// permanent's controller may play them from exile. The rest of the instruction still happens
    /// (its shuffle), but it can't see the exiled cards (the 2020-11-10 rulings). Mana isn't
    /// modelled, so "spend mana as though it were mana of any color" needs nothing.
    OpponentsExileCardsTheyFind,
    /// "While you're searching your library, you may cast this card from your library" (Panglacial
    /// Wurm): a permission to cast (601.3) that works from the library, not the battlefield. While
    /// its owner searches their own library and looks at it — a search limited to the top N cards
    /// (701.23f) sees only those — they may cast it, paying its costs, in the middle of the
    /// resolution; it goes on the stack and the search goes on without it.
    CastFromLibraryWhileSearching,
    /// "If a spell or ability you control would counter a spell, instead exile that spell and you
    /// may play that card without paying its mana cost" (Guile): a replacement effect (614.1a) on
    /// the counter event of 701.6a, for spells and abilities this permanent's controller controls
    /// only. The spell is exiled instead (so it was never countered), and that player may cast
    /// the card at once, during the resolution, without paying its mana cost, or never (the
    /// 2007-10-01 rulings); the rest of the countering spell or ability then goes on. A spell is
    /// never a land card, so to play it is to cast it.
    ExileInsteadOfCounteringMayPlay,
    /// "This creature can block only creatures with flying" (Brazen Borrower): a restriction on
    /// blocking (509.1b) that applies only to a creature on the battlefield while blockers are
    /// declared. The oracle plays no combat, so nothing ever reads it; it is written so the card's
    /// text is whole, and it changes no zone, search or cast.
    CanBlockOnlyCreaturesWithFlying,
}

/// An alternative cost printed on a spell (CR 118.9): a cost the caster may pay instead of the
/// mana cost when a stated condition holds (a Trap). Casting with it is the caster's choice (118.9b);
/// it doesn't change the mana cost or mana value (118.9c).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AlternativeCost {
    /// The cost paid instead (mana is not modelled; kept for reference), e.g. `{0}`.
    pub cost: String,
    /// When it may be paid.
    pub condition: AlternativeCostCondition,
}

/// When an alternative cost may be paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AlternativeCostCondition {
    /// "If an opponent searched their library this turn" (Archive Trap): an opponent of the
    /// caster searched their own library — a search limited to its top cards counts (701.23f),
    /// and so does one that found nothing; a search a "can't" effect stopped never happened.
    OpponentSearchedTheirLibraryThisTurn,
    /// Prowl (Knowledge Exploitation: "You may cast this for its prowl cost if you dealt combat
    /// damage to a player this turn with a Rogue"): the caster controlled a creature that dealt
    /// combat damage to a player this turn and had one of this spell's creature types (702.76a; a
    /// Kindred spell's subtypes are creature types, 308.3). The oracle plays no combat, so the
    /// scenario states it (`dealt_combat_damage_with` of the player).
    Prowl,
}

/// An additional cost of a spell (CR 601.2b, 601.2f).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AdditionalCost {
    /// Discard a card matching this filter.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Filter>,
    /// Reveal a card matching this filter from your hand (Silvergill Adept; CR 701.20c: an
    /// already revealed card may be revealed again).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reveal: Option<Filter>,
    /// Sacrifice a permanent you control matching this filter (Natural Order: "sacrifice a green
    /// creature"); checked as the cost is chosen (601.2f) and paid with the rest of the total cost
    /// (601.2h), so the permanent is gone before the spell resolves.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sacrifice: Option<Filter>,
    /// Optional (kicker-like) rather than required.
    #[serde(default)]
    pub optional: bool,
}

/// An activated ability (CR 602), such as typecycling.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ActivatedAbility {
    /// The name a scenario uses to activate it, e.g. `plainscycling`.
    pub name: String,
    /// Discarding this card is part of the cost; it is then activated from the hand.
    #[serde(default)]
    pub discard_this: bool,
    /// A cycling ability (CR 702.29): typecycling is cycling (702.29f).
    #[serde(default)]
    pub cycling: bool,
    /// Mana cost of activation (mana is not modelled; kept for reference). `{X}` in it means
    /// the activation step chooses X.
    #[serde(default)]
    pub mana: Option<String>,
    /// `{T}` is part of the cost.
    #[serde(default)]
    pub tap: bool,
    /// Sacrificing this permanent is part of the cost (a Clue's ability).
    #[serde(default)]
    pub sacrifice_this: bool,
    /// "Pay N life" is part of the cost (a fetch land's; Street Wraith's cycling). It can be paid
    /// only with a life total of at least N (CR 119.4); paying it is losing that much life.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pay_life: Option<u32>,
    /// Sacrificing another permanent matching this filter is part of the cost ("Sacrifice a Clue").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sacrifice: Option<Filter>,
    /// Milling this many cards is part of the cost (CR 701.17b: can't be paid with fewer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mill: Option<u32>,
    /// Discarding a card matching this filter is part of the cost (CR 701.9c).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub discard: Option<Filter>,
    /// Targets chosen as the ability is activated (602.2b, 601.2c), in order; checked again as it
    /// resolves (608.2b). `target` in the effect is the first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<Target>,
    /// "Activate only as a sorcery" (transmute, CR 702.53a). The oracle has no turns or phases,
    /// so what this checks is the part a scenario can break: the stack must be empty.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub sorcery_speed: bool,
    /// "Return this card from your graveyard to your hand" (Eternal Dragon): an ability whose
    /// effect moves its card out of the graveyard works only while the card is in its owner's
    /// graveyard (one of the exceptions of CR 113.6), and it is activated from there by that
    /// owner (602.2: a card in a graveyard has no controller).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub from_graveyard: bool,
    /// "Activate only during your upkeep" (Eternal Dragon): an activation instruction (602.1b)
    /// allowing the activation only in that step of the activating player's own turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only_during_your: Option<TurnStep>,
    /// A loyalty ability (CR 606.2): its cost is the loyalty symbol, `+N`, `-N` or `0` — putting N
    /// loyalty counters on the permanent or removing N from it (606.4). It is activated only at
    /// sorcery timing, once per turn per permanent (606.3), and a negative cost needs that many
    /// counters on the permanent (606.5).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<i32>,
    /// What the ability does when it resolves.
    pub effect: Vec<Effect>,
}
