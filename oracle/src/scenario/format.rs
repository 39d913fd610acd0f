//! The scenario file format (YAML, one scenario per file; the path is its id).
//!
//! Every struct denies unknown keys, so a typo is an error rather than a silently ignored line.
//! `mtg-oracle schema` prints the JSON Schema generated from these types.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::de::{self, MapAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use crate::cards::def::CardDef;

/// A scenario: a game state, the steps that drive it, and what must hold of its legal outcomes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// One line saying what the scenario shows.
    pub title: String,
    /// The CR clauses it exercises, e.g. `["701.23b", "400.2"]`.
    pub rules: Vec<String>,
    /// Where it comes from.
    pub source: Source,
    /// Free-form tags (features an engine may not support, e.g. `outside-the-game`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Longer explanation, in your own words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Hypothetical cards used only by this scenario (same format as the card pool).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cards: Vec<CardDef>,
    /// Players in turn order; the first is the active player (CR 101.4). 2 to 4.
    pub players: Vec<PlayerSetup>,
    /// Permanents on the battlefield at the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub battlefield: Vec<CardSetup>,
    /// Cards in exile at the start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exile: Vec<CardSetup>,
    /// What happens, in order.
    pub steps: Vec<Step>,
    /// Choices fixed in advance. A decision not scripted here may go any legal way.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Vec<ScriptedDecision>,
    /// What must hold.
    pub expect: Expectations,
}

/// Provenance of a scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Source {
    /// What kind of source.
    pub kind: SourceKind,
    /// A reference: the CR clause of an example, a ruling's card and date, a bug URL.
    pub reference: String,
}

/// Kinds of scenario sources.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// An example printed in the Comprehensive Rules, as written.
    CrExample,
    /// A variant of a CR example.
    CrVariant,
    /// The text of a CR clause itself.
    Clause,
    /// An official card ruling.
    CardRuling,
    /// An engine's bug report.
    EngineBug,
    /// Found by fuzzing.
    FuzzFinding,
}

/// One player's starting state.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PlayerSetup {
    /// Unique name.
    pub name: String,
    /// Starting life total (default 20).
    #[serde(default = "twenty")]
    pub life: i32,
    /// Library, TOP FIRST.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub library: Vec<CardSetup>,
    /// Hand.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hand: Vec<CardSetup>,
    /// Graveyard, TOP FIRST.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub graveyard: Vec<CardSetup>,
    /// Cards this player owns outside the game, e.g. a sideboard (CR 400.11).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside: Vec<CardSetup>,
    /// What happened in combat earlier this turn, which the oracle doesn't play: the creature
    /// types of the creatures this player controlled that dealt combat damage to a player this
    /// turn (every type of each such creature; empty if none did). Prowl asks it (CR 702.76a:
    /// Knowledge Exploitation's prowl cost needs a Rogue among them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dealt_combat_damage_with: Vec<String>,
    /// What happened earlier this turn, before the scenario's steps: how many permanents were put
    /// into this player's graveyard from the battlefield (tokens included; a permanent goes to its
    /// owner's graveyard). Gravestorm counts these with the ones the run itself puts there
    /// (CR 702.69a: Bitter Ordeal). At most 20.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub permanents_put_into_graveyard_earlier: u32,
}

fn twenty() -> i32 {
    20
}

/// A card in a starting zone: a card name, or a map with the name and more.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CardSetup {
    /// The card's name (bundled pool or this scenario's `cards`).
    pub card: String,
    /// Its id in steps, decisions and expectations. Default: the name in lower case with
    /// non-alphanumerics as `-`, and `-2`, `-3`… for later cards with the same default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// Owner, for a permanent or exiled card; default: the first player. In a player's own zones
    /// the owner is that player.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Controller of a permanent; default: its owner.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<String>,
    /// Players who have already seen this card (hidden zones only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub known_to: Vec<String>,
    /// Face down (battlefield or exile only): a face-down permanent is a nameless 2/2 creature
    /// (708.2a), a card exiled face down has no characteristics (406.3a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub face_down: bool,
    /// In a graveyard: the card has gained flashback from an effect (Recoup, Snapcaster Mage);
    /// its flashback cost is its mana cost (CR 702.34a).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub gains_flashback: bool,
    /// On the battlefield: the permanent starts tapped (110.5; untapped otherwise).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub tapped: bool,
    /// On the battlefield: the planeswalker's loyalty counters (default: its printed loyalty,
    /// 306.5b), as if earlier turns had changed them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loyalty: Option<u32>,
    /// In exile: the card's time counters (a card with suspend, suspended on an earlier turn;
    /// 702.62a–b). Default: none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_counters: Option<u32>,
}

impl CardSetup {
    /// A card known only by its name: default id, owner and controller, face up.
    pub fn named(card: &str) -> Self {
        CardSetup {
            card: card.into(),
            id: None,
            owner: None,
            controller: None,
            known_to: Vec::new(),
            face_down: false,
            gains_flashback: false,
            tapped: false,
            loyalty: None,
            time_counters: None,
        }
    }
}

/// The map form of [`CardSetup`].
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CardSetupFull {
    /// The card's name.
    card: String,
    /// Its id (default: derived from the name).
    #[serde(default)]
    id: Option<String>,
    /// Owner (battlefield and exile only).
    #[serde(default)]
    owner: Option<String>,
    /// Controller (battlefield only).
    #[serde(default)]
    controller: Option<String>,
    /// Players who have already seen it (hidden zones only).
    #[serde(default)]
    known_to: Vec<String>,
    /// Face down (battlefield or exile only).
    #[serde(default)]
    face_down: bool,
    /// Has gained flashback (graveyard only).
    #[serde(default)]
    gains_flashback: bool,
    /// Starts tapped (battlefield only).
    #[serde(default)]
    tapped: bool,
    /// Loyalty counters of a planeswalker (battlefield only; default: its printed loyalty).
    #[serde(default)]
    loyalty: Option<u32>,
    /// Time counters of a suspended card (exile only).
    #[serde(default)]
    time_counters: Option<u32>,
}

impl JsonSchema for CardSetup {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "CardSetup".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let full = generator.subschema_for::<CardSetupFull>();
        schemars::json_schema!({
            "description": "A card: its name, or a map with `card` and optionally `id`, `owner`, `controller`, `known_to`.",
            "anyOf": [{ "type": "string" }, full]
        })
    }
}

impl<'de> Deserialize<'de> for CardSetup {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = CardSetup;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a card name, or a map with `card` and optionally `id`, `owner`, `controller`, `known_to`, `face_down`")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<CardSetup, E> {
                Ok(CardSetup {
                    card: v.to_string(),
                    id: None,
                    owner: None,
                    controller: None,
                    known_to: Vec::new(),
                    face_down: false,
                    gains_flashback: false,
                    tapped: false,
                    loyalty: None,
                    time_counters: None,
                })
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<CardSetup, A::Error> {
                let f = CardSetupFull::deserialize(de::value::MapAccessDeserializer::new(map))?;
                Ok(CardSetup {
                    card: f.card,
                    id: f.id,
                    owner: f.owner,
                    controller: f.controller,
                    known_to: f.known_to,
                    face_down: f.face_down,
                    gains_flashback: f.gains_flashback,
                    tapped: f.tapped,
                    loyalty: f.loyalty,
                    time_counters: f.time_counters,
                })
            }
        }
        deserializer.deserialize_any(V)
    }
}

/// One step. Cards are named by id, players by name.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Step {
    /// Cast a spell from hand (CR 601).
    Cast {
        /// Caster.
        player: String,
        /// Card id.
        card: String,
        /// For a split card, the name of the half cast (709.3), or `both` to cast both halves
        /// with fuse (702.102); for an adventurer card, its Adventure's name to cast it as the
        /// Adventure (715.3), omitted to cast the card normally.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<String>,
        /// Target card ids or player names, in the order the card lists its targets.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
        /// Cast from the graveyard with flashback (CR 702.34a).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        flashback: bool,
        /// The value chosen for X (CR 107.3), for a card with `{X}` in its mana cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<u32>,
        /// The card discarded to pay the spell's additional cost (CR 601.2f).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discard: Option<String>,
        /// Pay the card's alternative cost rather than its mana cost (CR 118.9), e.g. Archive
        /// Trap's {0}; refused when its condition doesn't hold.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        alternative_cost: bool,
        /// The card revealed from hand to pay the spell's additional cost (CR 601.2f, 701.20c).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reveal: Option<String>,
        /// The permanent sacrificed to pay the spell's additional cost (CR 601.2f, 701.21a), e.g.
        /// Natural Order's green creature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sacrifice: Option<String>,
        /// How many of the Phyrexian mana symbols of the cost paid are paid with 2 life each
        /// rather than with mana (CR 107.4f; Surgical Extraction's {B/P}); refused when the
        /// caster has less life than that (119.4). Mana isn't modelled, so 0 means all with mana.
        #[serde(default, skip_serializing_if = "is_zero")]
        phyrexian_life: u32,
    },
    /// Activate an ability by name, e.g. `plainscycling`.
    Activate {
        /// Who activates.
        player: String,
        /// Card id.
        card: String,
        /// The ability's name.
        ability: String,
        /// The value chosen for X.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        x: Option<u32>,
        /// The permanent sacrificed to pay a "sacrifice a …" cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sacrifice: Option<String>,
        /// The card discarded to pay a "discard a …" cost.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        discard: Option<String>,
        /// Target card ids or player names, in the order the ability lists its targets (602.2b).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        targets: Vec<String>,
    },
    /// Resolve the top object of the stack.
    Resolve,
    /// Resolve everything on the stack, top first, including abilities that trigger meanwhile.
    ResolveAll,
    /// A creature dies.
    Dies {
        /// Card id.
        card: String,
    },
    /// A player draws.
    Draw {
        /// Who draws.
        player: String,
        /// How many (default 1).
        #[serde(default = "one")]
        count: u32,
    },
    /// An object is exiled by something outside the scenario (e.g. in response to a spell).
    Exile {
        /// Card id.
        card: String,
    },
    /// The game starts: each player, in turn order from the starting player (101.4e), chooses
    /// whether to begin with opening-hand cards such as Leylines on the battlefield.
    StartGame,
    /// A player plays a land (from hand, or from exile where an effect allows it).
    Play {
        /// Who plays it.
        player: String,
        /// Card id.
        card: String,
    },
    /// A player takes the special action of paying to ignore a permanent's effect until end of
    /// turn (Leonin Arbiter's "Any player may pay {2} for that player to ignore this effect";
    /// CR 116.2d). It doesn't use the stack; mana isn't modelled, so the payment is assumed.
    IgnoreEffect {
        /// Who pays.
        player: String,
        /// The permanent whose effect they ignore.
        card: String,
    },
    /// A player takes the special action of suspending a card from their hand (CR 116.2f,
    /// 702.62a): it is exiled with its suspend number of time counters, without using the stack;
    /// mana isn't modelled, so the suspend cost is assumed paid.
    Suspend {
        /// Who suspends it.
        player: String,
        /// The card, in their hand.
        card: String,
    },
    /// A player discards a card from their hand, told to by something outside the scenario.
    Discard {
        /// Who discards.
        player: String,
        /// Card id.
        card: String,
    },
    /// Permanents are put into their owners' graveyards from the battlefield at the same time,
    /// by something outside the scenario (replacement effects apply, CR 701.24g).
    ToGraveyard {
        /// Card ids.
        cards: Vec<String>,
    },
    /// A step of the active player's (the first player's) turn begins (CR 500–504): `untap` (their
    /// permanents untap, 502.3; it must be followed by `upkeep`, 502.4), `upkeep` (503), `draw`
    /// (they draw a card, 504.1). Then the abilities that trigger "at the beginning of" it trigger
    /// (603.2b).
    BeginStep(crate::cards::instructions::TurnStep),
    /// A step the rules forbid: the oracle checks it is refused for the stated clause, nothing
    /// happens, and an engine must refuse it too (logging a `refused` event).
    Attempt {
        /// The forbidden step.
        step: Box<Step>,
        /// The clause that forbids it, e.g. `702.29f`.
        refused: String,
    },
}

impl Step {
    /// `player` casts the card `card` from hand with `targets`: no split half chosen, no
    /// flashback, X, discard or reveal (the shape the generators build).
    pub fn plain_cast(player: impl Into<String>, card: impl Into<String>, targets: Vec<String>) -> Step {
        Step::Cast {
            player: player.into(),
            card: card.into(),
            face: None,
            targets,
            flashback: false,
            x: None,
            discard: None,
            alternative_cost: false,
            reveal: None,
            sacrifice: None,
            phyrexian_life: 0,
        }
    }
}

fn one() -> u32 {
    1
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A choice fixed in advance. Decisions are matched to the scenario's choices in order, by kind
/// and player: the first `search` entry for Bob answers Bob's first search, and so on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ScriptedDecision {
    /// The cards a search finds, by id (empty: find nothing).
    Search {
        /// Who searches.
        player: String,
        /// The found cards. For several merged instructions (701.23h), list them in order.
        find: Vec<String>,
    },
    /// Whether to do something the effect says "may" do (search, put counters).
    May {
        /// Who chooses.
        player: String,
        /// Yes or no.
        accept: bool,
    },
    /// A card chosen from among options (e.g. from a revealed hand); give exactly one of `card`
    /// and `cards`.
    Choose {
        /// Who chooses.
        player: String,
        /// The card id, for a choice of one card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// The card ids, for a choice of several cards at once: the two cards Brainstorm puts back
        /// (in no particular order: the order they go back in is hidden, 401.4), the pile Fact or
        /// Fiction's opponent makes (`[]` for an empty pile, 700.3).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<String>>,
    },
    /// The permanents sacrificed; give exactly one of `card` and `cards`.
    Sacrifice {
        /// Who sacrifices.
        player: String,
        /// The card id, for one permanent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// The card ids, for "sacrifice any number of" (Scapeshift, 107.1c; `[]` for none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        cards: Option<Vec<String>>,
    },
    /// Whether a draw is replaced by dredge (702.52a), and with which card (omitted: draw).
    Dredge {
        /// Who draws.
        player: String,
        /// The card with dredge returned to hand.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
    },
    /// The cards a player discards (701.9b), for an effect or an additional cost.
    Discard {
        /// Who discards.
        player: String,
        /// Card ids.
        cards: Vec<String>,
    },
    /// A chosen card name (709.4a).
    Name {
        /// Who names.
        player: String,
        /// The name.
        name: String,
    },
    /// A spell cast as part of an effect without paying its mana cost (Jetsam from a graveyard,
    /// Knowledge Exploitation from the library it searched), or none.
    Cast {
        /// Who casts.
        player: String,
        /// The card id (omitted: cast nothing).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// The half, for a split card.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        face: Option<String>,
        /// The spell's targets (601.2c), card ids and player names in the order the spell lists
        /// them; left out, every legal choice is explored. An empty list is a choice like any
        /// other (an error for a spell that needs a target), and a list for a spell without
        /// targets is an error.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        targets: Option<Vec<String>>,
    },
    /// The targets of a triggered ability (603.3d), card ids and player names in order.
    Targets {
        /// The ability's controller.
        player: String,
        /// The targets.
        targets: Vec<String>,
    },
    /// Which of several replacement effects that would change where a card put into a graveyard
    /// goes applies (616.1): `shuffle_into_library` (Darksteel Colossus), `library_top`
    /// (Gravebane Zombie), `library_bottom` (a "put it on the bottom of its owner's library
    /// instead" effect), `exile`, `flashback_exile`.
    Replacement {
        /// The card's controller (its owner outside the battlefield and the stack).
        player: String,
        /// The card.
        card: String,
        /// The effect applied.
        effect: String,
    },
}

/// What must hold of the set of legal outcomes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, Default)]
#[serde(deny_unknown_fields)]
pub struct Expectations {
    /// Exactly how many distinct legal outcomes there are.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcomes: Option<usize>,
    /// Holds in every legal outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub always: Vec<Assertion>,
    /// Holds in at least one legal outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sometimes: Vec<Assertion>,
    /// Holds in no legal outcome.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub never: Vec<Assertion>,
    /// The exact final zones, for a fully scripted scenario with one outcome. Zone name → card
    /// ids (libraries top first; positions a shuffle randomised are compared as a set). Zones not
    /// listed must be empty.
    #[serde(default, rename = "final", skip_serializing_if = "Option::is_none")]
    pub final_zones: Option<BTreeMap<String, Vec<String>>>,
}

/// A statement about one outcome.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Assertion {
    /// The card is in the zone (`exile`, `Bob.library`, …).
    Zone {
        /// Card id, or `ability:<card id>` for an ability of that card on the stack.
        card: String,
        /// Zone name.
        zone: String,
    },
    /// The zone holds this many cards (with this name, if given).
    Count {
        /// Zone name.
        zone: String,
        /// Only cards with this name (either half's name for a split card).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        /// How many.
        count: usize,
    },
    /// These cards are on top of the player's library, in this order, at positions the rules fix.
    Top {
        /// Whose library.
        player: String,
        /// Card ids, top first.
        cards: Vec<String>,
    },
    /// The player's library was left in random order (shuffled after it was last set up).
    Shuffled {
        /// Whose library.
        player: String,
    },
    /// Exactly these players have seen the card since it became its current object.
    Known {
        /// Card id.
        card: String,
        /// Player names (empty: nobody).
        to: Vec<String>,
    },
    /// A player's life total.
    Life {
        /// Player.
        player: String,
        /// Life.
        life: i32,
    },
    /// +1/+1 counters on a permanent.
    Counters {
        /// Card id.
        card: String,
        /// How many.
        count: u32,
    },
    /// Whether a permanent on the battlefield is tapped (110.5b).
    Tapped {
        /// Card id.
        card: String,
        /// True: tapped; false: not tapped (or not on the battlefield).
        #[serde(default = "yes")]
        tapped: bool,
    },
    /// How many logged events match (every given field must match).
    Events {
        /// Event kind: searched, shuffled, revealed, triggered, moved, cast, activated, chose,
        /// sacrificed, lost_life, counters, looked_at, discarded, dredged, named, created, gained_life,
        /// refused.
        kind: String,
        /// The acting player (searcher, revealer, caster…) or the library's owner for `shuffled`;
        /// for `triggered`, the player whose action triggered the ability ("that player"), the
        /// outcome JSON's `player`. A `triggered` assertion naming `player` must name `controller`
        /// too: `player` used to mean the controller there, and an old file must not silently
        /// change meaning (docs/scenarios.md, "`triggered`: `controller` and `player`").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<String>,
        /// For `triggered` only: the ability's controller (the outcome JSON's `controller`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        controller: Option<String>,
        /// A card the event involves (moved/found/revealed card, trigger source…).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        card: Option<String>,
        /// For `searched`: one of the zones searched, e.g. `Bob.library`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        zone: Option<String>,
        /// For `searched`: the search was limited to the top N cards of the library (701.23f);
        /// 0 means it was not limited.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        library_top: Option<u32>,
        /// How many such events.
        count: usize,
    },
    /// Players' searches in one step happened in this order (APNAP, 701.23i).
    SearchOrder {
        /// Player names, in order.
        players: Vec<String>,
    },
}

fn yes() -> bool {
    true
}
