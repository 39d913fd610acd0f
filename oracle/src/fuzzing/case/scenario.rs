//! From a [`FuzzCase`] to what the checks run: the synthetic cards' definitions, the search
//! card and its instructions, and the [`Scenario`] the loader builds.

use crate::cards::def::{CardDef, CardType, Color, Keyword, SpellAbility, Supertype};
use crate::cards::instructions::{
    ActivatedAbility, CardRef, Count, Effect, Filter, PlayerRef, Relation, Replacement, SearchSpec, SearchZone, Target,
};
use crate::scenario::format::{CardSetup, Expectations, PlayerSetup, Scenario, Source, SourceKind, Step};

use super::{
    CardPick, Censor, Delivery, EXTRA_CARDS, FuzzCase, NAMES, QualityKind, SEARCH_ID, Searchers, SyntheticCard,
    SyntheticKind, TARGET_ID, Whose,
};

impl SyntheticCard {
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
    /// The search instructions, in order (a merged second one after the first).
    pub fn specs(&self) -> Vec<SearchSpec> {
        let s = &self.search;
        let mut zones = crate::fuzzing::generate::search_zones(s.zones);
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
            exile_rest: false,
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
                exile_rest: false,
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
                    pay_life: None,
                    sacrifice: None,
                    mill: None,
                    discard: None,
                    targets: Vec::new(),
                    sorcery_speed: false,
                    from_graveyard: false,
                    only_during_your: None,
                    loyalty: None,
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
                    dealt_combat_damage_with: Vec::new(),
                    permanents_put_into_graveyard_earlier: 0,
                }
            })
            .collect();
        for x in &self.hosers.extra_cards {
            let p = &mut players[self.seat(x.seat)];
            let zone = match x.zone % 3 {
                0 => &mut p.library,
                1 => &mut p.hand,
                _ => &mut p.graveyard,
            };
            let at = usize::from(x.position) % (zone.len() + 1);
            zone.insert(at, plain(EXTRA_CARDS[usize::from(x.card) % EXTRA_CARDS.len()]));
        }
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
        // In the order they entered: the latest Opposition Agent is the one whose controller
        // controls the searcher (723.1a).
        if let Some(s) = self.stranglehold_seat() {
            battlefield.push(owned("Stranglehold", s));
        }
        for s in self.opposition_agent_seats() {
            battlefield.push(owned("Opposition Agent", s));
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
                steps.push(Step::plain_cast(NAMES[controller], SEARCH_ID, targets));
            }
            Delivery::Cycling => steps.push(Step::Activate {
                player: NAMES[controller].into(),
                card: SEARCH_ID.into(),
                ability: "fuzzcycling".into(),
                x: None,
                sacrifice: None,
                discard: None,
                targets: Vec::new(),
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
