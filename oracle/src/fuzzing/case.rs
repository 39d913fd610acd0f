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

use arbitrary::{Arbitrary, Result as ArbResult, Unstructured};

use crate::cards::def::{CardDef, CardType, Color, Keyword, SpellAbility, Supertype};
use crate::cards::instructions::{
    ActivatedAbility, CardRef, Count, Destination, Effect, Filter, PlayerRef, Relation, Replacement, SearchSpec,
    SearchZone, Target,
};
use crate::fuzzing::generate::PALETTE;
use crate::scenario::format::{CardSetup, Expectations, PlayerSetup, Scenario, Source, SourceKind, Step};

/// Player names by seat.
pub const NAMES: [&str; 4] = ["Alice", "Bob", "Carol", "Dave"];

/// The id of the generated search card (a spell, or a card with a cycling-style ability).
pub const SEARCH_ID: &str = "the-search";
/// The id of the permanent a "same name as target" search targets.
pub const TARGET_ID: &str = "the-target";

/// Permanents that may start on the battlefield (besides censors and watchers).
const PERMANENTS: [&str; 5] = ["Grizzly Bears", "Ornithopter", "Forest", "Island", "Plains"];

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
}

/// A percentage chance that reads as "no" when the input is exhausted (all-zero bytes), so short
/// inputs decode to plain cases.
fn chance(u: &mut Unstructured, percent: u8) -> ArbResult<bool> {
    Ok(u.int_in_range(0..=99u8)? >= 100 - percent.min(100))
}

fn seat(u: &mut Unstructured) -> ArbResult<u8> {
    u.int_in_range(0..=3u8)
}

fn count(u: &mut Unstructured) -> ArbResult<Count> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 => Count::One,
        1 => Count::Exactly(u32::from(u.int_in_range(0..=4u8)?)),
        2 => Count::UpTo(u32::from(u.int_in_range(0..=4u8)?)),
        _ => Count::All,
    })
}

fn destination(u: &mut Unstructured) -> ArbResult<Destination> {
    Ok(match u.int_in_range(0..=4u8)? {
        0 => Destination::Hand,
        1 => Destination::Battlefield,
        2 => Destination::Graveyard,
        3 => Destination::Exile,
        _ => Destination::LibraryTop,
    })
}

fn relation(u: &mut Unstructured) -> ArbResult<Relation> {
    Ok(match u.int_in_range(0..=3u8)? {
        0 | 1 => Relation::Opponent,
        2 => Relation::Any,
        _ => Relation::You,
    })
}

fn picks(u: &mut Unstructured, max: usize, known: bool) -> ArbResult<Vec<CardPick>> {
    let n = u.int_in_range(0..=max)?;
    (0..n)
        .map(|_| {
            let card = u.arbitrary::<u8>()?;
            let known_to = if known && chance(u, 10)? { u.int_in_range(1..=15u8)? } else { 0 };
            Ok(CardPick { card, known_to })
        })
        .collect()
}

fn library(u: &mut Unstructured, limits: Limits) -> ArbResult<Vec<CardPick>> {
    if limits.large_library > limits.library && chance(u, 8)? {
        // A large library: a short pattern repeated, so a few bytes describe hundreds of cards.
        let len = u.int_in_range(limits.library..=limits.large_library)?;
        let mut pattern = picks(u, 6, false)?;
        if pattern.is_empty() {
            pattern.push(CardPick { card: 2, known_to: 0 }); // Forest
        }
        return Ok((0..len).map(|i| pattern[i % pattern.len()]).collect());
    }
    picks(u, limits.library, true)
}

impl SyntheticCard {
    fn arbitrary(u: &mut Unstructured) -> ArbResult<SyntheticCard> {
        let kind = match u.int_in_range(0..=6u8)? {
            0 => SyntheticKind::Land,
            1 => SyntheticKind::BasicLand,
            2 => SyntheticKind::Creature,
            3 => SyntheticKind::ArtifactCreature,
            4 => SyntheticKind::Instant,
            5 => SyntheticKind::Sorcery,
            _ => SyntheticKind::Split,
        };
        let color = match u.int_in_range(0..=5u8)? {
            1 => Some(Color::White),
            2 => Some(Color::Blue),
            3 => Some(Color::Black),
            4 => Some(Color::Red),
            5 => Some(Color::Green),
            _ => None,
        };
        Ok(SyntheticCard {
            kind,
            subtypes: u.int_in_range(0..=7u8)?,
            mana_value: u.int_in_range(0..=7u8)?,
            color,
            flash: chance(u, 30)?,
        })
    }

    /// Its card definition, named `Fuzz Card {n}` (halves `Fuzz Left {n}` and `Fuzz Right {n}`).
    pub fn def(&self, n: usize) -> CardDef {
        let cost = |mv: u8, color: Option<Color>| {
            let symbol = match color {
                Some(Color::White) => "{W}",
                Some(Color::Blue) => "{U}",
                Some(Color::Black) => "{B}",
                Some(Color::Red) => "{R}",
                Some(Color::Green) => "{G}",
                None => "",
            };
            match (mv, symbol.is_empty()) {
                (0, true) => "{0}".to_string(),
                (0, false) => symbol.to_string(),
                (m, true) => format!("{{{m}}}"),
                (1, false) => symbol.to_string(),
                (m, false) => format!("{{{}}}{symbol}", m - 1),
            }
        };
        let keywords = if self.flash { vec![Keyword::Flash] } else { Vec::new() };
        let base = |name: String, types: Vec<CardType>| CardDef {
            name,
            oracle: "(synthetic card for fuzzing: characteristics only)".into(),
            types,
            keywords: keywords.clone(),
            mana_cost: Some(cost(self.mana_value, self.color)),
            ..CardDef::default()
        };
        let land_subtypes: Vec<String> = ["Plains", "Island", "Forest"]
            .iter()
            .enumerate()
            .filter(|(i, _)| self.subtypes & (1 << i) != 0)
            .map(|(_, s)| s.to_string())
            .collect();
        let name = format!("Fuzz Card {n}");
        match self.kind {
            SyntheticKind::Land | SyntheticKind::BasicLand => CardDef {
                mana_cost: None,
                keywords: Vec::new(),
                subtypes: land_subtypes,
                supertypes: if self.kind == SyntheticKind::BasicLand { vec![Supertype::Basic] } else { Vec::new() },
                ..base(name, vec![CardType::Land])
            },
            SyntheticKind::Creature => CardDef {
                power_toughness: Some("2/2".into()),
                subtypes: vec!["Elf".into()],
                ..base(name, vec![CardType::Creature])
            },
            SyntheticKind::ArtifactCreature => CardDef {
                power_toughness: Some("1/1".into()),
                ..base(name, vec![CardType::Artifact, CardType::Creature])
            },
            SyntheticKind::Instant => base(name, vec![CardType::Instant]),
            SyntheticKind::Sorcery => base(name, vec![CardType::Sorcery]),
            SyntheticKind::Split => {
                let left = base(format!("Fuzz Left {n}"), vec![CardType::Instant]);
                let right = CardDef {
                    mana_cost: Some(cost(self.mana_value / 2 + 1, None)),
                    keywords: Vec::new(),
                    ..base(format!("Fuzz Right {n}"), vec![CardType::Sorcery])
                };
                CardDef {
                    name: format!("Fuzz Left {n} // Fuzz Right {n}"),
                    oracle: "(synthetic split card for fuzzing)".into(),
                    split: vec![left, right],
                    ..CardDef::default()
                }
            }
        }
    }

    /// True if it can be a permanent (so it may start on the battlefield).
    pub fn is_permanent(&self) -> bool {
        matches!(
            self.kind,
            SyntheticKind::Land | SyntheticKind::BasicLand | SyntheticKind::Creature | SyntheticKind::ArtifactCreature
        )
    }
}

/// The menu of stated qualities (701.23b): types, subtypes, names (including a split card's
/// half and a synthetic card's name), mana values, keywords, colours, and combinations.
pub fn stated_filter(index: u8) -> Filter {
    let f = Filter::default();
    match index % 14 {
        0 => Filter { types: vec![CardType::Land], ..f },
        1 => Filter { subtypes: vec!["Plains".into()], ..f },
        2 => Filter { name: Some("Island".into()), ..f },
        3 => Filter { mana_value_at_most: Some(2), ..f },
        4 => Filter { keyword: Some(Keyword::Flash), ..f },
        5 => Filter { types: vec![CardType::Instant], ..f },
        6 => Filter {
            not: Some(Box::new(Filter {
                types: vec![CardType::Land],
                supertypes: vec![Supertype::Basic],
                ..Filter::default()
            })),
            ..f
        },
        7 => Filter { name: Some("Cease".into()), ..f },
        8 => Filter { types: vec![CardType::Creature], ..f },
        9 => Filter {
            any_of: vec![
                Filter { types: vec![CardType::Artifact], ..Filter::default() },
                Filter { types: vec![CardType::Land], ..Filter::default() },
            ],
            ..f
        },
        10 => Filter { color: Some(Color::Green), ..f },
        11 => Filter { mana_value_at_least: Some(3), ..f },
        12 => Filter { name: Some("Fuzz Card 1".into()), ..f },
        _ => Filter { types: vec![CardType::Land], supertypes: vec![Supertype::Basic], ..f },
    }
}

impl FuzzCase {
    /// Decodes a case within `limits`.
    pub fn arbitrary_within(u: &mut Unstructured, limits: Limits) -> ArbResult<FuzzCase> {
        let n_players = 2 + usize::from(u.int_in_range(0..=2u8)?);
        let synthetic =
            (0..u.int_in_range(0..=3u8)?).map(|_| SyntheticCard::arbitrary(u)).collect::<ArbResult<Vec<_>>>()?;
        let players = (0..n_players)
            .map(|_| {
                Ok(PlayerZones {
                    library: library(u, limits)?,
                    hand: picks(u, limits.hand, true)?,
                    graveyard: picks(u, limits.graveyard, false)?,
                    outside: picks(u, limits.outside, true)?,
                })
            })
            .collect::<ArbResult<Vec<_>>>()?;
        let mut censors = Vec::new();
        while censors.len() < 3 && chance(u, 35)? {
            censors.push(Censor {
                real: !chance(u, 40)?,
                count: u.int_in_range(0..=6u8)?,
                applies_to: relation(u)?,
                controller: seat(u)?,
                face_down: chance(u, 10)?,
            });
        }
        let ob_nixilis = if chance(u, 25)? { Some(seat(u)?) } else { None };
        let cosi = if chance(u, 20)? { Some(seat(u)?) } else { None };
        let mut battlefield = Vec::new();
        while battlefield.len() < 3 && chance(u, 40)? {
            let owner = seat(u)?;
            battlefield.push(Permanent {
                card: u.arbitrary()?,
                owner,
                controller: if chance(u, 15)? { seat(u)? } else { owner },
                face_down: chance(u, 20)?,
            });
        }
        let search = SearchRequest::arbitrary(u)?;
        Ok(FuzzCase { players, synthetic, censors, ob_nixilis, cosi, battlefield, search })
    }

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

    /// The search instructions, in order (a merged second one after the first).
    pub fn specs(&self) -> Vec<SearchSpec> {
        let s = &self.search;
        let mut zones: Vec<SearchZone> =
            [SearchZone::Graveyard, SearchZone::Hand, SearchZone::Library, SearchZone::Outside]
                .into_iter()
                .enumerate()
                .filter(|(i, _)| s.zones & (1 << i) != 0)
                .map(|(_, z)| z)
                .collect();
        let second = s.second.filter(|_| matches!(s.quality, QualityKind::QuantityOnly | QualityKind::Stated(_)));
        if zones.is_empty() || second.is_some() {
            zones = vec![SearchZone::Library];
        }
        let whose = match s.whose {
            Whose::Own => None,
            Whose::TargetPlayer(_) | Whose::TargetOpponent(_) => Some(PlayerRef::TargetPlayer),
        };
        let filter = match s.quality {
            QualityKind::QuantityOnly => None,
            QualityKind::Stated(i) => Some(stated_filter(i)),
            QualityKind::SameNameAsTarget if self.targets_permanent() => {
                Some(Filter { same_name_as: Some(CardRef::Target), ..Filter::default() })
            }
            QualityKind::SameNameAsTarget => None,
            QualityKind::SameNameAsChosen => Some(Filter { same_name_as: Some(CardRef::Chosen), ..Filter::default() }),
        };
        let searcher = match s.searchers {
            Searchers::You => PlayerRef::You,
            Searchers::EachPlayer => PlayerRef::EachPlayer,
            Searchers::EachOpponent => PlayerRef::EachOpponent,
        };
        let first = SearchSpec {
            searcher,
            optional: s.optional,
            zones: zones.clone(),
            whose,
            filter,
            count: s.count,
            different_names: s.different_names,
            reveal: s.reveal,
            to: s.to,
            shuffle: s.shuffle && second.is_none(),
        };
        let mut out = vec![first];
        if let Some(second) = second {
            out.push(SearchSpec {
                searcher,
                optional: s.optional,
                zones,
                whose,
                filter: second.quality.map(stated_filter),
                count: second.count,
                different_names: false,
                reveal: second.reveal,
                to: second.to,
                shuffle: s.shuffle,
            });
        }
        out
    }

    /// The search card's effect: the instructions, preceded for a Lobotomy-style search by
    /// "reveal the hand, choose a card from it".
    fn effect(&self) -> Vec<Effect> {
        let mut effect = Vec::new();
        if self.search.quality == QualityKind::SameNameAsChosen {
            let from = if self.target_player().is_some() { PlayerRef::TargetPlayer } else { PlayerRef::You };
            effect.push(Effect::RevealHand(from));
            effect.push(Effect::ChooseCard {
                chooser: PlayerRef::You,
                from,
                filter: Filter {
                    not: Some(Box::new(Filter {
                        types: vec![CardType::Land],
                        supertypes: vec![Supertype::Basic],
                        ..Filter::default()
                    })),
                    ..Filter::default()
                },
            });
        }
        effect.extend(self.specs().into_iter().map(Effect::Search));
        effect
    }

    /// The generated search card.
    pub fn search_card(&self) -> CardDef {
        let oracle = format!("(generated for fuzzing) {}", self.describe_search());
        match self.delivery() {
            Delivery::Cycling => CardDef {
                name: "Fuzz Cycler".into(),
                mana_cost: Some("{3}".into()),
                types: vec![CardType::Creature],
                power_toughness: Some("1/1".into()),
                oracle,
                abilities: vec![ActivatedAbility {
                    name: "fuzzcycling".into(),
                    discard_this: true,
                    cycling: true,
                    mana: Some("{1}".into()),
                    effect: self.effect(),
                    tap: false,
                    sacrifice_this: false,
                    sacrifice: None,
                    mill: None,
                    discard: None,
                }],
                ..CardDef::default()
            },
            Delivery::Spell => {
                let mut targets = Vec::new();
                if self.targets_permanent() {
                    targets.push(Target::Permanent(Filter::default()));
                }
                match self.search.whose {
                    Whose::Own => {}
                    Whose::TargetPlayer(_) => targets.push(Target::Player),
                    Whose::TargetOpponent(_) => targets.push(Target::Opponent),
                }
                // Sorceries are cast by the active player; anyone else casts an instant.
                let kind = if self.controller() == 0 { CardType::Sorcery } else { CardType::Instant };
                CardDef {
                    name: "Fuzz Search".into(),
                    mana_cost: Some("{1}".into()),
                    types: vec![kind],
                    oracle,
                    spell: Some(SpellAbility { targets, effect: self.effect(), additional_cost: None }),
                    ..CardDef::default()
                }
            }
        }
    }

    /// The search in words, for titles and the card's text.
    pub fn describe_search(&self) -> String {
        let specs = self.specs();
        let who = match self.search.searchers {
            Searchers::You => "you search",
            Searchers::EachPlayer => "each player searches",
            Searchers::EachOpponent => "each opponent searches",
        };
        let parts: Vec<String> = specs
            .iter()
            .map(|s| {
                let zones: Vec<&str> = s
                    .zones
                    .iter()
                    .map(|z| match z {
                        SearchZone::Graveyard => "graveyard",
                        SearchZone::Hand => "hand",
                        SearchZone::Library => "library",
                        SearchZone::Outside => "outside the game",
                    })
                    .collect();
                let count = match s.count {
                    Count::One => "a card".to_string(),
                    Count::Exactly(n) => format!("{n} cards"),
                    Count::UpTo(n) => format!("up to {n} cards"),
                    Count::All => "all cards".to_string(),
                };
                let quality = match &s.filter {
                    None => String::new(),
                    Some(f) => format!(" that are {}", crate::cards::instructions::describe_filter(f)),
                };
                format!(
                    "{}{} for {count}{quality}{}{}, put them into {:?}{}",
                    if s.optional { "may " } else { "" },
                    zones.join(" and "),
                    if s.different_names { " with different names" } else { "" },
                    if s.reveal { ", reveal them" } else { "" },
                    s.to,
                    if s.shuffle { ", then shuffle" } else { "" },
                )
            })
            .collect();
        let whose = match self.search.whose {
            Whose::Own => "",
            Whose::TargetPlayer(_) => " (target player's zones)",
            Whose::TargetOpponent(_) => " (target opponent's zones)",
        };
        format!("{who}{whose} {}", parts.join("; and "))
    }

    /// The scenario: the controller casts or activates the search, everything resolves, and then
    /// they may draw.
    pub fn scenario(&self) -> Scenario {
        let n = self.player_count();
        let palette = self.palette();
        let name_of = |p: &CardPick| palette[usize::from(p.card) % palette.len()].clone();
        let setup = |cards: &[CardPick], hidden: bool| -> Vec<CardSetup> {
            cards
                .iter()
                .map(|p| CardSetup {
                    known_to: if hidden {
                        (0..n).filter(|&s| p.known_to & (1 << s) != 0).map(|s| NAMES[s].to_string()).collect()
                    } else {
                        Vec::new()
                    },
                    ..plain(&name_of(p))
                })
                .collect()
        };
        let mut players: Vec<PlayerSetup> = (0..n)
            .map(|p| {
                let z = self.players.get(p).cloned().unwrap_or_default();
                PlayerSetup {
                    name: NAMES[p].into(),
                    life: 20,
                    library: setup(&z.library, true),
                    hand: setup(&z.hand, true),
                    graveyard: setup(&z.graveyard, false),
                    outside: setup(&z.outside, true),
                }
            })
            .collect();
        let controller = self.controller();
        let card = self.search_card();
        players[controller].hand.push(CardSetup { id: Some(SEARCH_ID.into()), ..plain(&card.name) });
        let mut cards = vec![card];
        cards.extend(self.synthetic.iter().enumerate().map(|(i, s)| s.def(i + 1)));
        let mut battlefield = Vec::new();
        let owned = |name: &str, owner: usize| CardSetup { owner: Some(NAMES[owner].into()), ..plain(name) };
        for (i, c) in self.censors.iter().enumerate() {
            let name = if c.real {
                "Aven Mindcensor".to_string()
            } else {
                let name = format!("Fuzz Censor {}", i + 1);
                cards.push(censor_def(&name, c));
                name
            };
            battlefield.push(CardSetup { face_down: c.face_down, ..owned(&name, self.seat(c.controller)) });
        }
        if let Some(s) = self.ob_nixilis {
            battlefield.push(owned("Ob Nixilis, Unshackled", self.seat(s)));
        }
        if let Some(s) = self.cosi {
            battlefield.push(owned("Cosi's Trickster", self.seat(s)));
        }
        let permanents = self.permanent_palette();
        for (i, p) in self.battlefield.iter().enumerate() {
            let name = &permanents[usize::from(p.card) % permanents.len()];
            let (owner, controller) = (self.seat(p.owner), self.seat(p.controller));
            let id = (i == 0 && self.targets_permanent()).then(|| TARGET_ID.to_string());
            battlefield.push(CardSetup {
                id,
                controller: (controller != owner).then(|| NAMES[controller].to_string()),
                face_down: p.face_down,
                ..owned(name, owner)
            });
        }
        let mut steps = Vec::new();
        match self.delivery() {
            Delivery::Spell => {
                let mut targets = Vec::new();
                if self.targets_permanent() {
                    targets.push(TARGET_ID.to_string());
                }
                if let Some(t) = self.target_player() {
                    targets.push(NAMES[t].to_string());
                }
                steps.push(Step::Cast {
                    player: NAMES[controller].into(),
                    card: SEARCH_ID.into(),
                    face: None,
                    targets,
                    flashback: false,
                    x: None,
                    discard: None,
                    reveal: None,
                });
            }
            Delivery::Cycling => steps.push(Step::Activate {
                player: NAMES[controller].into(),
                card: SEARCH_ID.into(),
                ability: "fuzzcycling".into(),
                x: None,
                sacrifice: None,
                discard: None,
            }),
        }
        if self.targets_permanent() && self.search.exile_target_in_response {
            steps.push(Step::Exile { card: TARGET_ID.into() });
        }
        steps.push(Step::ResolveAll);
        if self.search.draws_after > 0 {
            steps.push(Step::Draw { player: NAMES[controller].into(), count: u32::from(self.search.draws_after) });
        }
        Scenario {
            title: format!("{}: {}", NAMES[controller], self.describe_search()),
            rules: vec!["701.23".into()],
            source: Source { kind: SourceKind::FuzzFinding, reference: "generated by mtg_oracle::fuzzing".into() },
            tags: Vec::new(),
            description: None,
            cards,
            players,
            battlefield,
            exile: Vec::new(),
            steps,
            decisions: Vec::new(),
            expect: Expectations::default(),
        }
    }
}

impl SearchRequest {
    fn arbitrary(u: &mut Unstructured) -> ArbResult<SearchRequest> {
        let searchers = match u.int_in_range(0..=5u8)? {
            0..=3 => Searchers::You,
            4 => Searchers::EachPlayer,
            _ => Searchers::EachOpponent,
        };
        let whose = match u.int_in_range(0..=5u8)? {
            0..=3 => Whose::Own,
            4 => Whose::TargetPlayer(u.int_in_range(0..=3u8)?),
            _ => Whose::TargetOpponent(u.int_in_range(0..=2u8)?),
        };
        let zones = u.int_in_range(0..=15u8)?;
        let quality = match u.int_in_range(0..=9u8)? {
            0..=2 => QualityKind::QuantityOnly,
            3..=7 => QualityKind::Stated(u.arbitrary()?),
            8 => QualityKind::SameNameAsTarget,
            _ => QualityKind::SameNameAsChosen,
        };
        let count = count(u)?;
        let different_names = chance(u, 10)?;
        let reveal = u.arbitrary()?;
        let to = destination(u)?;
        let shuffle = !chance(u, 30)?;
        let optional = chance(u, 25)?;
        let second = if chance(u, 15)? {
            Some(SecondInstruction {
                quality: if u.arbitrary()? { Some(u.arbitrary()?) } else { None },
                count: self::count(u)?,
                to: destination(u)?,
                reveal: u.arbitrary()?,
            })
        } else {
            None
        };
        Ok(SearchRequest {
            controller: seat(u)?,
            delivery: if chance(u, 20)? { Delivery::Cycling } else { Delivery::Spell },
            searchers,
            whose,
            zones,
            quality,
            count,
            different_names,
            reveal,
            to,
            shuffle,
            optional,
            second,
            exile_target_in_response: chance(u, 25)?,
            draws_after: if chance(u, 20)? { u.int_in_range(1..=2u8)? } else { 0 },
        })
    }
}

impl<'a> Arbitrary<'a> for FuzzCase {
    fn arbitrary(u: &mut Unstructured<'a>) -> ArbResult<Self> {
        FuzzCase::arbitrary_within(u, Limits::ZONE_STATE)
    }
}

fn censor_def(name: &str, c: &Censor) -> CardDef {
    CardDef {
        name: name.into(),
        mana_cost: Some("{2}{W}".into()),
        types: vec![CardType::Creature],
        power_toughness: Some("2/2".into()),
        oracle: format!(
            "(synthetic) If {} would search a library, that player searches the top {} cards of that library instead.",
            match c.applies_to {
                Relation::Opponent => "an opponent",
                Relation::Any => "a player",
                Relation::You => "you",
            },
            c.count
        ),
        replacements: vec![Replacement::SearchTopOfLibrary { count: u32::from(c.count), applies_to: c.applies_to }],
        ..CardDef::default()
    }
}

fn plain(name: &str) -> CardSetup {
    CardSetup::named(name)
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
