//! Structure-aware generation: random but valid game states around one search request, decoded
//! from fuzzer bytes with [`arbitrary`].
//!
//! A [`FuzzCase`] is plain data, like [`crate::fuzzing::generate::GenParams`] and drawn from the same
//! palette, but it reaches further: 2–4 players; real and synthetic (hypothetical) cards,
//! including split cards; cards already seen by some players; libraries from empty to a few
//! hundred cards; Mindcensor-style caps of any size and relation, face up or face down;
//! searches for a stated quality, a quantity only, or an undefined quality (701.23c); "a",
//! "N", "up to N" and "all"; reveal or not; every destination; shuffle or not; "may"; each
//! player or each opponent searching at once (701.23i); merged instructions (701.23h); outside
//! the game (701.23j); delivered by a spell or by a cycling-style ability; with search and
//! shuffle triggers (Ob Nixilis, Cosi's Trickster) watching.
//!
//! Every byte string decodes to some case (missing bytes read as zeros, which turn features
//! off), and every case builds a scenario the loader accepts; a scenario it rejects is a
//! generator bug, reported as such by the checks.
//!
//! This module holds the case as data (and how to make it smaller); `decode` reads it from
//! bytes and `scenario` turns it into the scenario the checks load.

mod decode;
mod scenario;

use crate::cards::def::Color;
use crate::cards::instructions::{Count, Destination, Relation};
use crate::fuzzing::generate::PALETTE;

pub use scenario::stated_filter;

/// Player names by seat.
pub const NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

/// The id of the generated search card (a spell, or a card with a cycling-style ability).
pub const SEARCH_ID: &str = "the-search";
/// The id of the permanent a "same name as target" search targets.
pub const TARGET_ID: &str = "the-target";

/// Permanents that may start on the battlefield (besides censors and watchers).
const PERMANENTS: [&str; 5] = ["Grizzly Bears", "Ornithopter", "Forest", "Island", "Plains"];

/// Cards of issue 12 that [`Hosers::extra_cards`] adds to hidden zones and the graveyard: the
/// search-hoser family, the fetch lands, and cards that act from where a search meets them.
/// Most are just cards with characteristics there (nonbasic lands without basic land types; a
/// flash creature; an enchantment; a split card whose halves a filter reads separately, 709.4)
/// for a search to find or skip; Stranglehold and Opposition Agent act from the battlefield
/// through [`Hosers`]; a Panglacial Wurm in a searched library may be cast during the search
/// (601.3), an Eternal Dragon in a graveyard is a card a graveyard search may find, and Brazen
/// Borrower is a creature card everywhere but the stack (715.4). No card here searches when it
/// enters the battlefield (Stoneforge Mystic would): the checks read every search of the
/// resolution as the generated one's.
///
/// They are not in [`PALETTE`]: changing its length would change what every committed corpus
/// input decodes to. The hosers are read from the end of the case instead (see [`Hosers`]).
/// Appending here changes which extra card an input's byte names (taken modulo the length), so
/// inputs keep decoding to valid cases, only to other ones.
pub const EXTRA_CARDS: [&str; 11] = [
    "Polluted Delta",
    "Misty Rainforest",
    "Verdant Catacombs",
    "Evolving Wilds",
    "Stranglehold",
    "Opposition Agent",
    "Panglacial Wurm",
    "Eternal Dragon",
    "Cease // Desist",
    "Fact or Fiction",
    "Brazen Borrower",
];

/// How large generated zones may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most cards in a library given card by card.
    pub library: usize,
    /// Most cards in a "large" library (0: no large libraries).
    pub large_library: usize,
    /// Most cards in a hand.
    pub hand: usize,
    /// Most cards in a graveyard.
    pub graveyard: usize,
    /// Most cards outside the game.
    pub outside: usize,
}

impl Limits {
    /// For single simulated runs: libraries up to [`Limits::large_library`] cards.
    pub const ZONE_STATE: Limits = Limits { library: 10, large_library: 300, hand: 4, graveyard: 4, outside: 3 };
    /// For enumeration: small enough that most cases can be enumerated.
    pub const SMALL: Limits = Limits { library: 6, large_library: 0, hand: 2, graveyard: 2, outside: 2 };
}

/// A card in a starting zone: an index into the case's palette, and who has seen it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardPick {
    /// Index into [`FuzzCase::palette`] (taken modulo its length).
    pub card: u8,
    /// Players (bit per seat) who have already seen it; hidden zones only.
    pub known_to: u8,
}

/// One player's zones.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PlayerZones {
    /// Library, top first.
    pub library: Vec<CardPick>,
    /// Hand.
    pub hand: Vec<CardPick>,
    /// Graveyard, top first.
    pub graveyard: Vec<CardPick>,
    /// Cards outside the game.
    pub outside: Vec<CardPick>,
}

/// The shape of a synthetic (hypothetical) card.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SyntheticKind {
    /// A nonbasic land.
    Land,
    /// A basic land.
    BasicLand,
    /// A creature.
    Creature,
    /// An artifact creature.
    ArtifactCreature,
    /// An instant.
    Instant,
    /// A sorcery.
    Sorcery,
    /// A split card: an instant half and a sorcery half (709).
    Split,
}

/// A synthetic card: characteristics only, no abilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SyntheticCard {
    /// What kind of card.
    pub kind: SyntheticKind,
    /// Land subtypes (bit 0 Plains, 1 Island, 2 Forest), for lands.
    pub subtypes: u8,
    /// Mana value (each half's, for a split card).
    pub mana_value: u8,
    /// A colour, shown by a coloured mana symbol.
    pub color: Option<Color>,
    /// Has flash.
    pub flash: bool,
}

/// A Mindcensor-style replacement (701.23f) on the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Censor {
    /// The real Aven Mindcensor; otherwise a synthetic creature with `count` and `applies_to`.
    pub real: bool,
    /// Top N (synthetic only).
    pub count: u8,
    /// Whose searches it limits (synthetic only).
    pub applies_to: Relation,
    /// Its controller (and owner).
    pub controller: u8,
    /// Face down: no abilities (708.2), so no limit.
    pub face_down: bool,
}

/// Another permanent on the battlefield.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Permanent {
    /// Index into the permanents palette (basic permanents, then synthetic permanents).
    pub card: u8,
    /// Owner seat.
    pub owner: u8,
    /// Controller seat.
    pub controller: u8,
    /// Face down (a nameless 2/2, 708.2a).
    pub face_down: bool,
}

/// Who searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Searchers {
    /// The controller of the spell or ability.
    You,
    /// Every player, in APNAP order (701.23i).
    EachPlayer,
    /// Every opponent of the controller (701.23i).
    EachOpponent,
}

/// Whose zones are searched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whose {
    /// Each searcher's own.
    Own,
    /// A target player's (the seat, offset from the caster; 0 is the caster).
    TargetPlayer(u8),
    /// A target opponent's (the seat offset from the caster, 1..).
    TargetOpponent(u8),
}

/// The description the search uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum QualityKind {
    /// Simply a quantity of cards (701.23d).
    QuantityOnly,
    /// A stated quality from the menu of [`stated_filter`].
    Stated(u8),
    /// "with the same name as target permanent": undefined when it is face down (701.23c).
    SameNameAsTarget,
    /// "with the same name as the card chosen from the revealed hand" (Lobotomy-style):
    /// undefined when nothing could be chosen (701.23c).
    SameNameAsChosen,
}

/// How the search instruction reaches the stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// A spell cast from hand.
    Spell,
    /// A cycling-style ability activated by discarding the card (702.29).
    Cycling,
}

/// A second library search instruction before the shuffle, merged into one search (701.23h).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SecondInstruction {
    /// Its quality: `None` for a quantity only, else a menu index of [`stated_filter`].
    pub quality: Option<u8>,
    /// Its count.
    pub count: Count,
    /// Its destination.
    pub to: Destination,
    /// Reveal what it finds.
    pub reveal: bool,
}

/// The search request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SearchRequest {
    /// Seat of the player who casts or activates it.
    pub controller: u8,
    /// How it is delivered.
    pub delivery: Delivery,
    /// Who searches.
    pub searchers: Searchers,
    /// Whose zones.
    pub whose: Whose,
    /// Zones: bit 0 graveyard, 1 hand, 2 library, 3 outside; none means library.
    pub zones: u8,
    /// The description.
    pub quality: QualityKind,
    /// How many.
    pub count: Count,
    /// Found cards must have different names.
    pub different_names: bool,
    /// Reveal the found cards.
    pub reveal: bool,
    /// Where found cards go.
    pub to: Destination,
    /// Then shuffle.
    pub shuffle: bool,
    /// "may search".
    pub optional: bool,
    /// A merged second instruction.
    pub second: Option<SecondInstruction>,
    /// The targeted permanent is exiled in response (the target's last known information is
    /// used, 608.2b; a spell whose only target is gone doesn't resolve).
    pub exile_target_in_response: bool,
    /// The controller draws this many cards afterwards (a draw from a shuffled library is chance).
    pub draws_after: u8,
}

/// A card of [`EXTRA_CARDS`] put into a player's zone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtraCard {
    /// Index into [`EXTRA_CARDS`] (taken modulo its length).
    pub card: u8,
    /// Owner seat.
    pub seat: u8,
    /// 0 library, 1 hand, 2 graveyard (taken modulo 3).
    pub zone: u8,
    /// Position in that zone, from the top (taken modulo the zone's length + 1).
    pub position: u8,
}

/// Issue 12's search hosers on the battlefield, and its cards in the zones. Decoded from the
/// case's last bytes, after the search request, so that a committed corpus input (whose tail
/// was zeros or choice bytes before hosers existed) keeps its meaning once three zero bytes are
/// inserted there; all-zero bytes decode to no hosers.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Hosers {
    /// Seat of a Stranglehold's controller: that player's opponents can't search libraries
    /// (101.2), any library; they still search the other zones an instruction names.
    pub stranglehold: Option<u8>,
    /// Seats of Opposition Agents' controllers, in the order they entered: an Agent's controller
    /// controls an opponent searching their own library and makes the search's choices (723.5;
    /// the latest Agent's controller when several could, 723.1a); the cards found are exiled
    /// instead (614.1a).
    pub opposition_agents: Vec<u8>,
    /// Extra cards in the zones.
    pub extra_cards: Vec<ExtraCard>,
}

/// A whole generated case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FuzzCase {
    /// Players' zones, 2–4 players in turn order.
    pub players: Vec<PlayerZones>,
    /// Synthetic cards, appended to the palette.
    pub synthetic: Vec<SyntheticCard>,
    /// Mindcensor-style effects.
    pub censors: Vec<Censor>,
    /// Seat of an Ob Nixilis, Unshackled's controller (a search trigger).
    pub ob_nixilis: Option<u8>,
    /// Seat of a Cosi's Trickster's controller (a shuffle trigger).
    pub cosi: Option<u8>,
    /// Other permanents.
    pub battlefield: Vec<Permanent>,
    /// The search.
    pub search: SearchRequest,
    /// Search hosers and extra cards.
    pub hosers: Hosers,
}

impl SyntheticCard {
    /// True if it can be a permanent (so it may start on the battlefield).
    pub fn is_permanent(&self) -> bool {
        matches!(
            self.kind,
            SyntheticKind::Land | SyntheticKind::BasicLand | SyntheticKind::Creature | SyntheticKind::ArtifactCreature
        )
    }
}

impl FuzzCase {
    /// The card names zones draw from: the generator's palette, then the synthetic cards.
    pub fn palette(&self) -> Vec<String> {
        let mut out: Vec<String> = PALETTE.iter().map(|s| s.to_string()).collect();
        out.extend(self.synthetic.iter().enumerate().map(|(i, s)| s.def(i + 1).name));
        out
    }

    /// Names of cards that may start on the battlefield.
    fn permanent_palette(&self) -> Vec<String> {
        let mut out: Vec<String> = PERMANENTS.iter().map(|s| s.to_string()).collect();
        out.extend(self.synthetic.iter().enumerate().filter(|(_, s)| s.is_permanent()).map(|(i, s)| s.def(i + 1).name));
        out
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players.len().clamp(2, 4)
    }

    fn seat(&self, s: u8) -> usize {
        usize::from(s) % self.player_count()
    }

    /// The seat of a Stranglehold's controller, if there is one.
    pub fn stranglehold_seat(&self) -> Option<usize> {
        self.hosers.stranglehold.map(|s| self.seat(s))
    }

    /// The seats of the Opposition Agents' controllers, in the order the Agents entered.
    pub fn opposition_agent_seats(&self) -> Vec<usize> {
        self.hosers.opposition_agents.iter().map(|&s| self.seat(s)).collect()
    }

    /// The seat of the player who casts or activates the search.
    pub fn controller(&self) -> usize {
        self.seat(self.search.controller)
    }

    /// Whether the search targets a permanent (same name as target, with a permanent to target).
    pub fn targets_permanent(&self) -> bool {
        self.search.quality == QualityKind::SameNameAsTarget && !self.battlefield.is_empty()
    }

    /// The targeted player's seat, if the search targets a player.
    pub fn target_player(&self) -> Option<usize> {
        let n = self.player_count();
        let c = self.controller();
        match self.search.whose {
            Whose::Own => None,
            Whose::TargetPlayer(k) => Some((c + usize::from(k)) % n),
            Whose::TargetOpponent(k) => Some((c + 1 + usize::from(k) % (n - 1)) % n),
        }
    }

    /// The effective delivery: an ability can't target, so a targeted search is a spell.
    pub fn delivery(&self) -> Delivery {
        if self.targets_permanent() || self.target_player().is_some() { Delivery::Spell } else { self.search.delivery }
    }
}

impl FuzzCase {
    /// Cases one step smaller than this one (a card, permanent, player or option fewer; a large
    /// library halved), for shrinking a failing case to a readable one.
    pub fn smaller(&self) -> Vec<FuzzCase> {
        let mut out = Vec::new();
        let mut push = |f: &dyn Fn(&mut FuzzCase)| {
            let mut c = self.clone();
            f(&mut c);
            if c != *self {
                out.push(c);
            }
        };
        if self.players.len() > 2 {
            push(&|c| {
                c.players.pop();
            });
        }
        for p in 0..self.players.len() {
            let lib = self.players[p].library.len();
            if lib > 8 {
                push(&|c| c.players[p].library.truncate(lib / 2));
            }
            for z in 0..4 {
                let len = zone_of(&self.players[p], z).len();
                for i in 0..len.min(12) {
                    push(&|c| {
                        zone_of_mut(&mut c.players[p], z).remove(i);
                    });
                }
            }
            for z in 0..4 {
                for i in 0..zone_of(&self.players[p], z).len().min(12) {
                    push(&|c| zone_of_mut(&mut c.players[p], z)[i].known_to = 0);
                }
            }
        }
        for i in 0..self.censors.len() {
            push(&|c| {
                c.censors.remove(i);
            });
        }
        for i in 0..self.battlefield.len() {
            push(&|c| {
                c.battlefield.remove(i);
            });
        }
        for i in 0..self.synthetic.len() {
            push(&|c| {
                c.synthetic.remove(i);
            });
        }
        push(&|c| c.hosers.stranglehold = None);
        for i in 0..self.hosers.opposition_agents.len() {
            push(&|c| {
                c.hosers.opposition_agents.remove(i);
            });
        }
        for i in 0..self.hosers.extra_cards.len() {
            push(&|c| {
                c.hosers.extra_cards.remove(i);
            });
        }
        push(&|c| c.ob_nixilis = None);
        push(&|c| c.cosi = None);
        push(&|c| c.search.second = None);
        push(&|c| c.search.draws_after = 0);
        push(&|c| c.search.optional = false);
        push(&|c| c.search.different_names = false);
        push(&|c| c.search.exile_target_in_response = false);
        push(&|c| c.search.delivery = Delivery::Spell);
        push(&|c| c.search.searchers = Searchers::You);
        push(&|c| c.search.whose = Whose::Own);
        out
    }
}

fn zone_of(p: &PlayerZones, z: usize) -> &Vec<CardPick> {
    match z {
        0 => &p.library,
        1 => &p.hand,
        2 => &p.graveyard,
        _ => &p.outside,
    }
}

fn zone_of_mut(p: &mut PlayerZones, z: usize) -> &mut Vec<CardPick> {
    match z {
        0 => &mut p.library,
        1 => &mut p.hand,
        2 => &mut p.graveyard,
        _ => &mut p.outside,
    }
}
