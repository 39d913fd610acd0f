//! The candidates of one reduction round: smaller or simpler versions of a scenario.
//!
//! A candidate is a whole [`Scenario`]; whether it still loads, still runs and still makes the
//! engine fail the same way is for the caller to find out — a candidate that doesn't load is
//! simply skipped. Card ids are pinned first ([`pin_ids`]) so that removing one card doesn't shift
//! the default ids (`forest-2` → `forest`) of the cards the steps and decisions name, and
//! unpinned at the end ([`unpin_ids`]) wherever the default id is the same.

use std::collections::{BTreeMap, BTreeSet};

use crate::scenario::format::{CardSetup, Scenario};
use crate::yaml::slug;

/// The card a card is replaced by when the reducer tries a simpler one: a vanilla creature of the
/// bundled pool (no abilities, a permanent, so it is legal in every zone a card can start in).
pub const VANILLA_CARD: &str = "Grizzly Bears";

/// The size of a scenario, the measure the reducer makes smaller: the cards in every starting
/// zone (libraries, hands, graveyards, outside the game, battlefield, exile), plus its steps, plus
/// its scripted decisions.
pub fn size(s: &Scenario) -> usize {
    zone_lists(s).iter().map(|l| l.len()).sum::<usize>() + s.steps.len() + s.decisions.len()
}

/// A second measure, for candidates of the same [`size`]: how much there is to read besides —
/// players, cards other than the vanilla one, `known_to` entries, scenario-local card definitions.
pub fn complexity(s: &Scenario) -> usize {
    let cards = zone_lists(s).into_iter().flatten();
    let (mut unusual, mut known) = (0, 0);
    for c in cards {
        unusual += usize::from(c.card != VANILLA_CARD);
        known += c.known_to.len();
    }
    s.players.len() + unusual + known + s.cards.len()
}

/// Every starting zone's card list, in the order the loader reads them (each player's library,
/// hand, graveyard and outside-the-game cards, then the battlefield, then exile): the order
/// default ids are given in.
fn zone_lists(s: &Scenario) -> Vec<&Vec<CardSetup>> {
    let mut lists = Vec::new();
    for p in &s.players {
        lists.extend([&p.library, &p.hand, &p.graveyard, &p.outside]);
    }
    lists.push(&s.battlefield);
    lists.push(&s.exile);
    lists
}

/// [`zone_lists`], mutably.
fn zone_lists_mut(s: &mut Scenario) -> Vec<&mut Vec<CardSetup>> {
    let mut lists = Vec::new();
    for p in &mut s.players {
        lists.extend([&mut p.library, &mut p.hand, &mut p.graveyard, &mut p.outside]);
    }
    lists.push(&mut s.battlefield);
    lists.push(&mut s.exile);
    lists
}

/// Each card's id as the loader gives it (explicit, or the default from its name with `-2`, `-3`…
/// for later ones), in [`zone_lists`] order.
fn effective_ids(s: &Scenario) -> Vec<String> {
    let mut taken: BTreeSet<String> = BTreeSet::new();
    let mut next_suffix: BTreeMap<String, usize> = BTreeMap::new();
    let mut ids = Vec::new();
    for c in zone_lists(s).into_iter().flatten() {
        let id = match &c.id {
            Some(id) => id.clone(),
            None => {
                let base = slug(&c.card);
                let n = next_suffix.entry(base.clone()).or_insert(1);
                let mut id = if *n == 1 { base.clone() } else { format!("{base}-{n}") };
                while taken.contains(&id) {
                    *n += 1;
                    id = format!("{base}-{n}");
                }
                *n += 1;
                id
            }
        };
        taken.insert(id.clone());
        ids.push(id);
    }
    ids
}

/// Gives every card its id explicitly, so removing or renaming one card keeps the others' ids.
pub fn pin_ids(s: &Scenario) -> Scenario {
    let ids = effective_ids(s);
    let mut pinned = s.clone();
    for (c, id) in zone_lists_mut(&mut pinned).into_iter().flatten().zip(ids) {
        c.id = Some(id);
    }
    pinned
}

/// Drops every explicit id the loader would give anyway, keeping each card's id as it is.
pub fn unpin_ids(s: &Scenario) -> Scenario {
    let want = effective_ids(s);
    let mut out = s.clone();
    for c in zone_lists_mut(&mut out).into_iter().flatten() {
        c.id = None;
    }
    // Restoring one id can shift another card's default, so one id is restored per round, the
    // first that differs, until every id is as wanted (at most one round per card).
    for _ in 0..=want.len() {
        let got = effective_ids(&out);
        let first_wrong = zone_lists_mut(&mut out)
            .into_iter()
            .flatten()
            .zip(got.iter().zip(&want))
            .find(|(_, (got, want))| got != want);
        match first_wrong {
            None => return out,
            Some((card, (_, want))) => card.id = Some(want.clone()),
        }
    }
    s.clone()
}

/// The candidates of one round, from the boldest to the most careful: drop a player (only with
/// more than two: a game needs two), drop steps, drop scripted decisions, drop halves, quarters…
/// down to single cards of each zone (a library shortened from the bottom first), then the
/// simplifications that keep the size — a card replaced by [`VANILLA_CARD`], a `known_to`
/// cleared, an unused scenario-local card definition dropped.
pub fn candidates(s: &Scenario) -> Vec<Scenario> {
    let mut out = Vec::new();
    if s.players.len() > 2 {
        for i in (0..s.players.len()).rev() {
            let mut c = s.clone();
            let name = c.players.remove(i).name;
            // Permanents and exiled cards the player owned or controlled leave with them.
            let theirs =
                |card: &CardSetup| card.owner.as_deref() == Some(&name) || card.controller.as_deref() == Some(&name);
            c.battlefield.retain(|card| !theirs(card));
            c.exile.retain(|card| !theirs(card));
            out.push(c);
        }
    }
    for i in (0..s.steps.len()).rev() {
        let mut c = s.clone();
        c.steps.remove(i);
        out.push(c);
    }
    for i in (0..s.decisions.len()).rev() {
        let mut c = s.clone();
        c.decisions.remove(i);
        out.push(c);
    }
    let lens: Vec<usize> = zone_lists(s).iter().map(|l| l.len()).collect();
    let mut chunk = lens.iter().copied().max().unwrap_or(0) / 2;
    while chunk >= 1 {
        for (z, &len) in lens.iter().enumerate() {
            if len < chunk {
                continue;
            }
            // From the end first: a library is shortened from the bottom.
            let mut start = len.saturating_sub(chunk);
            loop {
                let mut c = s.clone();
                if let Some(list) = zone_lists_mut(&mut c).into_iter().nth(z) {
                    list.drain(start..(start + chunk).min(list.len()));
                }
                out.push(c);
                if start == 0 {
                    break;
                }
                start = start.saturating_sub(chunk);
            }
        }
        chunk /= 2;
    }
    for (z, &len) in lens.iter().enumerate() {
        for i in 0..len {
            let card = &zone_lists(s)[z][i];
            if card.card != VANILLA_CARD && !card.face_down {
                let mut c = s.clone();
                if let Some(list) = zone_lists_mut(&mut c).into_iter().nth(z) {
                    list[i].card = VANILLA_CARD.to_string();
                    list[i].gains_flashback = false;
                }
                out.push(c);
            }
            if !card.known_to.is_empty() {
                let mut c = s.clone();
                if let Some(list) = zone_lists_mut(&mut c).into_iter().nth(z) {
                    list[i].known_to.clear();
                }
                out.push(c);
            }
        }
    }
    let used: BTreeSet<&str> = zone_lists(s).into_iter().flatten().map(|c| c.card.as_str()).collect();
    for (i, def) in s.cards.iter().enumerate() {
        if !used.contains(def.name.as_str()) {
            let mut c = s.clone();
            c.cards.remove(i);
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::yaml::from_yaml;

    fn scenario(text: &str) -> Scenario {
        from_yaml(text).expect("a scenario")
    }

    const THREE_FORESTS: &str = "
title: t
rules: ['701.23a']
source: {kind: clause, reference: '701.23a'}
players:
  - name: Alice
    library: [Forest, Forest, {card: Island, id: forest-3}, Forest]
  - name: Bob
steps: []
expect: {}
";

    #[test]
    fn default_ids_follow_the_loader_rule() {
        let s = scenario(THREE_FORESTS);
        assert_eq!(effective_ids(&s), ["forest", "forest-2", "forest-3", "forest-4"]);
    }

    #[test]
    fn pinned_ids_survive_a_removal_and_unpin_back_to_the_same_text() {
        let s = scenario(THREE_FORESTS);
        let mut pinned = pin_ids(&s);
        assert_eq!(unpin_ids(&pinned), s);
        pinned.players[0].library.remove(0);
        assert_eq!(effective_ids(&pinned), ["forest-2", "forest-3", "forest-4"]);
        let unpinned = unpin_ids(&pinned);
        assert_eq!(effective_ids(&unpinned), ["forest-2", "forest-3", "forest-4"]);
        // The first Forest now needs its id spelled out; the last one doesn't.
        assert_eq!(unpinned.players[0].library[0].id.as_deref(), Some("forest-2"));
    }

    #[test]
    fn size_counts_cards_steps_and_decisions_and_candidates_cover_each_kind() {
        let s = scenario(THREE_FORESTS);
        assert_eq!(size(&s), 4);
        let all = candidates(&s);
        assert!(all.iter().any(|c| size(c) == 2), "a half of the library is dropped");
        assert!(all.iter().any(|c| size(c) == 3), "a single card is dropped");
        assert!(all.iter().any(|c| size(c) == 4 && complexity(c) < complexity(&s)), "a card is made vanilla");
        assert!(all.iter().all(|c| c.players.len() == 2), "a two-player game keeps both players");
    }
}
