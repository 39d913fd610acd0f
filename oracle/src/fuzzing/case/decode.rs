//! Decoding a [`FuzzCase`] from fuzzer bytes with [`arbitrary`]: every byte string decodes to
//! some case, missing bytes reading as zeros (which turn features off).

use arbitrary::{Arbitrary, Result as ArbResult, Unstructured};

use crate::cards::def::Color;
use crate::cards::instructions::{Count, Destination, Relation};

use super::{
    CardPick, Censor, Delivery, ExtraCard, FuzzCase, Hosers, Limits, Permanent, PlayerZones, QualityKind,
    SearchRequest, Searchers, SecondInstruction, SyntheticCard, SyntheticKind, Whose,
};

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
        // Last, so that older corpus inputs keep their meaning (see `Hosers`).
        let hosers = Hosers::arbitrary(u)?;
        Ok(FuzzCase { players, synthetic, censors, ob_nixilis, cosi, battlefield, search, hosers })
    }
}

impl Hosers {
    /// Three zero bytes decode to no hosers: one `chance` byte each for Stranglehold, the first
    /// Opposition Agent and the first extra card.
    fn arbitrary(u: &mut Unstructured) -> ArbResult<Hosers> {
        let stranglehold = if chance(u, 15)? { Some(seat(u)?) } else { None };
        let mut opposition_agents = Vec::new();
        while opposition_agents.len() < 2 && chance(u, 15)? {
            opposition_agents.push(seat(u)?);
        }
        let mut extra_cards = Vec::new();
        while extra_cards.len() < 6 && chance(u, 45)? {
            extra_cards.push(ExtraCard {
                card: u.arbitrary()?,
                seat: seat(u)?,
                zone: u.int_in_range(0..=2u8)?,
                position: u.arbitrary()?,
            });
        }
        Ok(Hosers { stranglehold, opposition_agents, extra_cards })
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
