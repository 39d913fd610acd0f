//! Arbitrary observed outcomes: what a buggy or hostile engine could report. They start from a
//! legal outcome and take a few arbitrary edits drawn from the scenario's own vocabulary (card
//! ids, player names, zone names) mixed with names that exist nowhere, so most of them get past
//! the first lookups and reach deep into the judge.

use arbitrary::{Result as ArbResult, Unstructured};

use crate::outcome::{Event, LoggedEvent, Outcome};
use crate::scenario::Setup;

/// Names an edit may use.
#[derive(Debug, Clone)]
pub struct Vocabulary {
    /// Card ids, plus a few that are nobody's.
    pub cards: Vec<String>,
    /// Player names, plus one that is nobody's.
    pub players: Vec<String>,
    /// Zone names, plus a few malformed ones.
    pub zones: Vec<String>,
}

impl Vocabulary {
    /// The vocabulary of a scenario.
    pub fn of(setup: &Setup) -> Vocabulary {
        let players: Vec<String> = setup.game.players.iter().map(|p| p.name.clone()).collect();
        let mut zones: Vec<String> =
            ["battlefield", "exile", "stack", "command"].iter().map(|s| s.to_string()).collect();
        for p in &players {
            for z in ["library", "hand", "graveyard", "outside"] {
                zones.push(format!("{p}.{z}"));
            }
        }
        zones.extend(["Nobody.library", "", "Alice.sideboard", "."].iter().map(|s| s.to_string()));
        let mut cards: Vec<String> = setup.ids.keys().cloned().collect();
        cards.extend(["ghost-card", "ability:the-search", ""].iter().map(|s| s.to_string()));
        let mut all_players = players;
        all_players.push("Zed".into());
        Vocabulary { cards, players: all_players, zones }
    }

    fn card(&self, u: &mut Unstructured) -> ArbResult<String> {
        Ok(u.choose(&self.cards)?.clone())
    }

    fn player(&self, u: &mut Unstructured) -> ArbResult<String> {
        Ok(u.choose(&self.players)?.clone())
    }

    fn zone(&self, u: &mut Unstructured) -> ArbResult<String> {
        Ok(u.choose(&self.zones)?.clone())
    }

    fn cards(&self, u: &mut Unstructured) -> ArbResult<Vec<String>> {
        let n = u.int_in_range(0..=4u8)?;
        (0..n).map(|_| self.card(u)).collect()
    }

    /// An arbitrary event.
    pub fn event(&self, u: &mut Unstructured) -> ArbResult<Event> {
        Ok(match u.int_in_range(0..=10u8)? {
            0 => Event::Cast {
                player: self.player(u)?,
                card: self.card(u)?,
                face: None,
                flashback: false,
                without_paying_mana_cost: false,
                x: None,
                targets: Vec::new(),
            },
            1 => Event::Activated { player: self.player(u)?, card: self.card(u)?, ability: "fuzzcycling".into() },
            2 => Event::Searched {
                player: self.player(u)?,
                zones: (0..u.int_in_range(0..=3u8)?).map(|_| self.zone(u)).collect::<ArbResult<_>>()?,
                library_top: if u.arbitrary()? { Some(u.int_in_range(0..=6u32)?) } else { None },
                found: self.cards(u)?,
            },
            3 => Event::Revealed { player: self.player(u)?, cards: self.cards(u)? },
            4 => Event::Shuffled { library: self.player(u)? },
            5 => Event::Triggered {
                source: self.card(u)?,
                controller: self.player(u)?,
                on: u
                    .choose(&["searched_library", "shuffled_library", "dies", "another_creature_dies", "x"])?
                    .to_string(),
                player: if u.arbitrary()? { Some(self.player(u)?) } else { None },
                targets: Vec::new(),
            },
            6 => Event::Moved { card: self.card(u)?, from: self.zone(u)?, to: self.zone(u)? },
            7 => Event::Chose { player: self.player(u)?, card: self.card(u)? },
            8 => Event::Sacrificed { player: self.player(u)?, card: self.card(u)? },
            9 => Event::LostLife { player: self.player(u)?, amount: u.int_in_range(0..=20u32)? },
            _ => Event::Counters { card: self.card(u)?, count: u.int_in_range(0..=3u32)? },
        })
    }
}

/// Applies up to `max_edits` arbitrary edits to `base`.
pub fn mutate(base: &Outcome, vocab: &Vocabulary, u: &mut Unstructured, max_edits: usize) -> ArbResult<Outcome> {
    let mut o = base.clone();
    for _ in 0..max_edits {
        if u.is_empty() {
            break;
        }
        edit(&mut o, vocab, u)?;
    }
    Ok(o)
}

fn edit(o: &mut Outcome, vocab: &Vocabulary, u: &mut Unstructured) -> ArbResult<()> {
    let zone_names: Vec<String> = o.zones.keys().cloned().collect();
    match u.int_in_range(0..=12u8)? {
        // Move a card to another zone, at any position.
        0 if !zone_names.is_empty() => {
            let from = u.choose(&zone_names)?.clone();
            let to = vocab.zone(u)?;
            let cards = o.zones.entry(from).or_default();
            if !cards.is_empty() {
                let c = cards.remove(u.choose_index(cards.len())?);
                let dest = o.zones.entry(to).or_default();
                let at = u.int_in_range(0..=dest.len())?;
                dest.insert(at, c);
            }
        }
        // A card listed in a second zone, or one that doesn't exist.
        1 => {
            let to = vocab.zone(u)?;
            let c = vocab.card(u)?;
            o.zones.entry(to).or_default().push(c);
        }
        // A card dropped.
        2 if !zone_names.is_empty() => {
            let z = u.choose(&zone_names)?.clone();
            let cards = o.zones.entry(z).or_default();
            if !cards.is_empty() {
                cards.remove(u.choose_index(cards.len())?);
            }
        }
        // Two cards of a zone swapped.
        3 if !zone_names.is_empty() => {
            let z = u.choose(&zone_names)?.clone();
            let cards = o.zones.entry(z).or_default();
            if cards.len() >= 2 {
                let (i, j) = (u.choose_index(cards.len())?, u.choose_index(cards.len())?);
                cards.swap(i, j);
            }
        }
        // An event dropped, duplicated, or moved to another step or place.
        4 if !o.events.is_empty() => {
            o.events.remove(u.choose_index(o.events.len())?);
        }
        5 if !o.events.is_empty() => {
            let i = u.choose_index(o.events.len())?;
            let e = o.events[i].clone();
            let at = u.int_in_range(0..=o.events.len())?;
            o.events.insert(at, e);
        }
        6 if !o.events.is_empty() => {
            let i = u.choose_index(o.events.len())?;
            o.events[i].step = u.int_in_range(0..=4usize)?;
        }
        7 if o.events.len() >= 2 => {
            let (i, j) = (u.choose_index(o.events.len())?, u.choose_index(o.events.len())?);
            o.events.swap(i, j);
        }
        // A new arbitrary event.
        8 => {
            let event = vocab.event(u)?;
            let step = u.int_in_range(0..=4usize)?;
            let at = u.int_in_range(0..=o.events.len())?;
            o.events.insert(at, LoggedEvent { step, event });
        }
        // What a search found, changed.
        9 => {
            let searches: Vec<usize> =
                (0..o.events.len()).filter(|&i| matches!(o.events[i].event, Event::Searched { .. })).collect();
            if !searches.is_empty() {
                let i = *u.choose(&searches)?;
                let new = vocab.cards(u)?;
                if let Event::Searched { found, .. } = &mut o.events[i].event {
                    if u.arbitrary()? {
                        found.extend(new);
                    } else {
                        *found = new;
                    }
                }
            }
        }
        // Knowledge changed.
        10 => {
            let c = vocab.card(u)?;
            if u.arbitrary()? {
                let who = (0..u.int_in_range(0..=3u8)?).map(|_| vocab.player(u)).collect::<ArbResult<_>>()?;
                o.known.insert(c, who);
            } else {
                o.known.remove(&c);
            }
        }
        // Life or counters changed.
        11 => {
            let p = vocab.player(u)?;
            o.life.insert(p, u.int_in_range(-20..=40i32)?);
        }
        _ => {
            let c = vocab.card(u)?;
            o.counters.insert(c, u.int_in_range(0..=3u32)?);
        }
    }
    Ok(())
}
