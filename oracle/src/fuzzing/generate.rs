//! Random small scenarios around one search, for property tests, benchmarks and (later) fuzzing.
//!
//! [`GenParams`] is plain data so that proptest can generate and shrink it; [`GenParams::from_seed`]
//! makes one from a seed, for callers that want a printed, replayable seed instead.

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::cards::def::{CardDef, CardType, Keyword, Supertype};
use crate::cards::instructions::{Count, Destination, Effect, Filter, PlayerRef, SearchSpec, SearchZone, Target};
use crate::scenario::format::{CardSetup, Expectations, PlayerSetup, Scenario, Source, SourceKind, Step};

/// Cards the generator draws zones from: basic and nonbasic lands, a flash creature, instants,
/// sorceries, an artifact and a split card, so every kind of quality has hits and misses.
pub const PALETTE: [&str; 10] = [
    "Plains",
    "Island",
    "Forest",
    "Hallowed Fountain",
    "Grizzly Bears",
    "Lightning Bolt",
    "Snapcaster Mage",
    "Mystical Teachings",
    "Cease // Desist",
    "Ornithopter",
];

/// The name of the generated search card.
pub const SEARCH_CARD: &str = "Generated Search";

/// What a generated scenario looks like.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenParams {
    /// Per player (2–4): library (top first), hand, graveyard, outside — palette indices.
    pub zones: Vec<[Vec<u8>; 4]>,
    /// Seat of the player who casts the search.
    pub caster: usize,
    /// Seat of an Aven Mindcensor's controller, if there is one.
    pub mindcensor: Option<usize>,
    /// Seat of an Ob Nixilis, Unshackled's controller, if there is one (a search trigger).
    pub ob_nixilis: Option<usize>,
    /// Zones searched (bit 0 graveyard, 1 hand, 2 library, 3 outside); 0 means library.
    pub zone_bits: u8,
    /// The stated quality: 0 none (quantity only), 1 land, 2 Plains, 3 named Island,
    /// 4 mana value ≤ 2, 5 flash, 6 instant, 7 not a basic land.
    pub quality: u8,
    /// 0 one, 1 exactly N, 2 up to N, 3 all.
    pub count_kind: u8,
    /// N for exactly/up to (1–3).
    pub count_n: u8,
    /// Reveal the found cards.
    pub reveal: bool,
    /// 0 hand, 1 battlefield, 2 graveyard, 3 exile, 4 top of library.
    pub destination: u8,
    /// Then shuffle.
    pub shuffle: bool,
    /// "may search".
    pub optional: bool,
    /// Every player searches (701.23i) instead of the caster alone.
    pub each_player: bool,
    /// Search a target opponent's zones instead of the searcher's own.
    pub target_opponent: bool,
    /// A second library search instruction before the shuffle (701.23h), with this quality.
    pub second: Option<u8>,
}

impl GenParams {
    /// Parameters from a seed.
    pub fn from_seed(seed: u64) -> GenParams {
        let mut rng = StdRng::seed_from_u64(seed);
        let players = rng.random_range(2..=3usize);
        let zone = |rng: &mut StdRng, max: usize| -> Vec<u8> {
            let n = rng.random_range(0..=max);
            (0..n).map(|_| rng.random_range(0..PALETTE.len() as u8)).collect()
        };
        let zones = (0..players)
            .map(|_| [zone(&mut rng, 6), zone(&mut rng, 2), zone(&mut rng, 2), zone(&mut rng, 2)])
            .collect();
        GenParams {
            zones,
            caster: rng.random_range(0..players),
            mindcensor: rng.random_bool(0.4).then(|| rng.random_range(0..players)),
            ob_nixilis: rng.random_bool(0.3).then(|| rng.random_range(0..players)),
            zone_bits: rng.random_range(0..16),
            quality: rng.random_range(0..8),
            count_kind: rng.random_range(0..4),
            count_n: rng.random_range(1..=3),
            reveal: rng.random_bool(0.5),
            destination: rng.random_range(0..5),
            shuffle: rng.random_bool(0.7),
            optional: rng.random_bool(0.3),
            each_player: rng.random_bool(0.25),
            target_opponent: rng.random_bool(0.3),
            second: rng.random_bool(0.2).then(|| rng.random_range(0..8)),
        }
    }

    fn filter(quality: u8) -> Option<Filter> {
        let f = match quality % 8 {
            0 => return None,
            1 => Filter { types: vec![CardType::Land], ..Filter::default() },
            2 => Filter { subtypes: vec!["Plains".into()], ..Filter::default() },
            3 => Filter { name: Some("Island".into()), ..Filter::default() },
            4 => Filter { mana_value_at_most: Some(2), ..Filter::default() },
            5 => Filter { keyword: Some(Keyword::Flash), ..Filter::default() },
            6 => Filter { types: vec![CardType::Instant], ..Filter::default() },
            _ => Filter {
                not: Some(Box::new(Filter {
                    types: vec![CardType::Land],
                    supertypes: vec![Supertype::Basic],
                    ..Filter::default()
                })),
                ..Filter::default()
            },
        };
        Some(f)
    }

    fn spec(&self, quality: u8, library_only: bool) -> SearchSpec {
        let mut zones = search_zones(self.zone_bits);
        if zones.is_empty() || library_only || self.second.is_some() {
            zones = vec![SearchZone::Library];
        }
        let n = u32::from(self.count_n.clamp(1, 3));
        SearchSpec {
            searcher: if self.each_player { PlayerRef::EachPlayer } else { PlayerRef::You },
            optional: self.optional,
            zones,
            whose: (self.target_opponent && !self.each_player).then_some(PlayerRef::TargetPlayer),
            filter: Self::filter(quality),
            count: match self.count_kind % 4 {
                0 => Count::One,
                1 => Count::Exactly(n),
                2 => Count::UpTo(n),
                _ => Count::All,
            },
            different_names: false,
            reveal: self.reveal,
            to: match self.destination % 5 {
                0 => Destination::Hand,
                1 => Destination::Battlefield,
                2 => Destination::Graveyard,
                3 => Destination::Exile,
                _ => Destination::LibraryTop,
            },
            shuffle: self.shuffle,
            exile_rest: false,
        }
    }

    /// The generated search card.
    pub fn search_card(&self) -> CardDef {
        let mut effect = Vec::new();
        match self.second {
            Some(q) => {
                let mut first = self.spec(self.quality, true);
                first.shuffle = false;
                effect.push(Effect::Search(first));
                effect.push(Effect::Search(self.spec(q, true)));
            }
            None => effect.push(Effect::Search(self.spec(self.quality, false))),
        }
        let targets = if self.target_opponent && !self.each_player { vec![Target::Opponent] } else { Vec::new() };
        CardDef {
            name: SEARCH_CARD.into(),
            mana_cost: Some("{1}".into()),
            types: vec![CardType::Sorcery],
            oracle: "(generated) a search instruction".into(),
            spell: Some(crate::cards::def::SpellAbility { targets, effect, additional_cost: None }),
            ..CardDef::default()
        }
    }

    /// The scenario: the caster casts the search card and everything resolves.
    pub fn scenario(&self) -> Scenario {
        let players = self.zones.len().clamp(2, 4);
        let names = ["Alice", "Bob", "Carol", "Dave"];
        let caster = self.caster % players;
        let setup = |cards: &[u8]| -> Vec<CardSetup> {
            cards.iter().map(|&c| plain(PALETTE[c as usize % PALETTE.len()])).collect()
        };
        let mut player_setups: Vec<PlayerSetup> = (0..players)
            .map(|p| {
                let z = &self.zones[p];
                PlayerSetup {
                    name: names[p].into(),
                    life: 20,
                    library: setup(&z[0]),
                    hand: setup(&z[1]),
                    graveyard: setup(&z[2]),
                    outside: setup(&z[3]),
                    dealt_combat_damage_with: Vec::new(),
                    permanents_put_into_graveyard_earlier: 0,
                }
            })
            .collect();
        player_setups[caster].hand.push(CardSetup { id: Some("the-search".into()), ..plain(SEARCH_CARD) });
        let mut battlefield = Vec::new();
        if let Some(p) = self.mindcensor {
            battlefield.push(CardSetup { owner: Some(names[p % players].into()), ..plain("Aven Mindcensor") });
        }
        if let Some(p) = self.ob_nixilis {
            battlefield.push(CardSetup { owner: Some(names[p % players].into()), ..plain("Ob Nixilis, Unshackled") });
        }
        let target = (caster + 1) % players;
        let targets =
            if self.target_opponent && !self.each_player { vec![names[target].to_string()] } else { Vec::new() };
        Scenario {
            title: "generated search".into(),
            rules: vec!["701.23".into()],
            source: Source { kind: SourceKind::FuzzFinding, reference: format!("{self:?}") },
            tags: Vec::new(),
            description: None,
            cards: vec![self.search_card()],
            players: player_setups,
            battlefield,
            exile: Vec::new(),
            steps: vec![Step::plain_cast(names[caster], "the-search", targets), Step::ResolveAll],
            decisions: Vec::new(),
            expect: Expectations::default(),
        }
    }
}

/// The zones a generated search covers, from a bit set: graveyard, hand, library, outside the
/// game (bits 0 to 3).
pub fn search_zones(bits: u8) -> Vec<SearchZone> {
    [SearchZone::Graveyard, SearchZone::Hand, SearchZone::Library, SearchZone::Outside]
        .into_iter()
        .enumerate()
        .filter(|(i, _)| bits & (1 << i) != 0)
        .map(|(_, z)| z)
        .collect()
}

fn plain(name: &str) -> CardSetup {
    CardSetup::named(name)
}

/// The name of the scaling fixture's search card.
pub const LAND_SEARCH_CARD: &str = "Scaling Search";

/// "Search your library for up to `n` basic land cards, put them onto the battlefield, then
/// shuffle." — the search the benchmark and the scaling tests judge.
pub fn land_search_card(n: u32) -> CardDef {
    let filter = Filter { types: vec![CardType::Land], supertypes: vec![Supertype::Basic], ..Filter::default() };
    CardDef {
        name: LAND_SEARCH_CARD.into(),
        mana_cost: Some("{1}{G}".into()),
        types: vec![CardType::Sorcery],
        oracle: format!(
            "Search your library for up to {n} basic land cards, put them onto the battlefield, then shuffle."
        ),
        spell: Some(crate::cards::def::SpellAbility {
            targets: Vec::new(),
            effect: vec![Effect::Search(SearchSpec {
                zones: vec![SearchZone::Library],
                filter: Some(filter),
                count: Count::UpTo(n),
                to: Destination::Battlefield,
                shuffle: true,
                ..SearchSpec::default()
            })],
            additional_cost: None,
        }),
        ..CardDef::default()
    }
}

/// A scenario of `size` cards for scaling: Alice's library (top first) has a Forest every 7th
/// card (`forest-{i}`) and Grizzly Bears elsewhere (`bears-{i}`); she casts [`land_search_card`]
/// with "up to `up_to`". With `find`, her search is scripted to find those cards.
pub fn land_search_scenario(size: usize, up_to: u32, find: Option<Vec<String>>) -> Scenario {
    let card = |name: &str, id: String| CardSetup { id: Some(id), ..plain(name) };
    let library = (0..size)
        .map(|i| {
            if i % 7 == 0 { card("Forest", format!("forest-{i}")) } else { card("Grizzly Bears", format!("bears-{i}")) }
        })
        .collect();
    let bob = ["Plains", "Island", "Forest", "Grizzly Bears", "Forest"]
        .iter()
        .enumerate()
        .map(|(i, name)| card(name, format!("bob-{i}")))
        .collect();
    let player = |name: &str, library, hand| PlayerSetup {
        name: name.into(),
        life: 20,
        library,
        hand,
        graveyard: Vec::new(),
        outside: Vec::new(),
        dealt_combat_damage_with: Vec::new(),
        permanents_put_into_graveyard_earlier: 0,
    };
    Scenario {
        title: format!("up to {up_to} basic lands from a library of {size}"),
        rules: vec!["701.23a".into(), "701.23b".into(), "701.24a".into()],
        source: Source { kind: SourceKind::Clause, reference: "701.23a (scaling fixture)".into() },
        tags: Vec::new(),
        description: None,
        cards: vec![land_search_card(up_to)],
        players: vec![
            player("Alice", library, vec![card(LAND_SEARCH_CARD, "the-search".into())]),
            player("Bob", bob, Vec::new()),
        ],
        battlefield: Vec::new(),
        exile: Vec::new(),
        steps: vec![Step::plain_cast("Alice", "the-search", Vec::new()), Step::ResolveAll],
        decisions: find
            .map(|find| vec![crate::scenario::format::ScriptedDecision::Search { player: "Alice".into(), find }])
            .unwrap_or_default(),
        expect: Expectations::default(),
    }
}

/// Ids of `count` Forests of [`land_search_scenario`] spread over the library (first, …, last).
pub fn forests_to_find(size: usize, count: usize) -> Vec<String> {
    let forests: Vec<usize> = (0..size).step_by(7).collect();
    let count = count.min(forests.len());
    let picks: Vec<usize> = match count {
        0 => Vec::new(),
        1 => vec![forests[0]],
        _ => (0..count).map(|j| forests[j * (forests.len() - 1) / (count - 1)]).collect(),
    };
    picks.into_iter().map(|i| format!("forest-{i}")).collect()
}
