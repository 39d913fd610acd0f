//! CR 400: zones — public and hidden zones, owners' zones, and new objects on zone changes.

use crate::cards::def::CardType;
use crate::model::Chars;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::apnap::bit;

/// 400.2: graveyard, battlefield, stack, exile and command are public; library and hand are
/// hidden even when every card in them has been revealed. Cards outside the game (400.11) are
/// not in a zone; they are treated as hidden from everyone but their owner.
pub fn is_public(zone: ZoneRef) -> bool {
    matches!(zone, ZoneRef::Graveyard(_) | ZoneRef::Battlefield | ZoneRef::Stack | ZoneRef::Exile | ZoneRef::Command)
}

/// 400.11: the cards an effect bringing "a card you own from outside the game" into the game (a
/// wish, Burning Wish) lets `player` choose: those they own outside the game that match `filter`.
/// Outside the game is not a zone, and exile is a zone of the game, so an exiled card is not
/// outside it (the Magic Judges rules tip "You can't Burning Wish for exiled cards", 2013, W013-02);
/// another player's cards aren't "you own". Such an effect isn't a search (701.23j speaks only of
/// searching outside the game), so search bans and limits don't touch it.
pub fn wishable(game: &Game, player: PlayerId, filter: &crate::cards::instructions::Filter) -> Vec<ObjId> {
    game.zone(ZoneRef::Outside(player))
        .iter()
        .copied()
        .filter(|&o| {
            game.obj(o).owner == player && crate::rules::characteristics::matches(&game.obj(o).chars, filter, None)
        })
        .collect()
}

/// 400.4a: an instant or sorcery card can't enter the battlefield; it stays where it was.
pub fn can_enter_battlefield(chars: &Chars) -> bool {
    !chars.types.contains(&CardType::Instant) && !chars.types.contains(&CardType::Sorcery)
}

/// 110.4: the card types of permanents; a spell of one of them resolves onto the battlefield
/// (608.3a) instead of going to its owner's graveyard.
pub fn is_permanent_type(types: &[CardType]) -> bool {
    types.iter().any(|t| {
        matches!(
            t,
            CardType::Artifact
                | CardType::Creature
                | CardType::Enchantment
                | CardType::Land
                | CardType::Planeswalker
                | CardType::Battle
        )
    })
}

/// 400.3: a card bound for a library, hand or graveyard goes to its owner's.
pub fn owners_zone(zone: ZoneRef, owner: PlayerId) -> ZoneRef {
    match zone {
        ZoneRef::Library(_) => ZoneRef::Library(owner),
        ZoneRef::Hand(_) => ZoneRef::Hand(owner),
        ZoneRef::Graveyard(_) => ZoneRef::Graveyard(owner),
        ZoneRef::Outside(_) => ZoneRef::Outside(owner),
        other => other,
    }
}

/// Who sees a new object's face when it arrives in `zone`: everyone in a public zone (400.2),
/// the owner in their hand or among their cards outside the game, nobody in a library (401.2).
pub fn default_knowledge(game: &Game, zone: ZoneRef, owner: PlayerId) -> u8 {
    match zone {
        z if is_public(z) => game.everyone(),
        ZoneRef::Hand(_) | ZoneRef::Outside(_) => bit(owner),
        _ => 0,
    }
}

/// Who saw a card's face as it left `from`: a card leaving a public zone face up (400.2) is seen
/// by every player as it moves, so its new object (400.7) is known to all of them wherever it
/// goes — a dredged card returned to its owner's hand, a face-up exiled card put into a hand, a
/// graveyard card found by a search and put into a hand or on top of a library, a dying Gravebane
/// Zombie put on top of its library. A face-down permanent or spell is revealed to every player
/// as it leaves the battlefield or the stack (708.9), so it counts as seen too; a card exiled face
/// down was not visible (406.3), so only what the caller passes as `seen_by` applies to it.
pub fn seen_leaving(game: &Game, obj: ObjId, from: ZoneRef) -> u8 {
    let o = game.obj(obj);
    let face_up_or_revealed = !o.face_down || matches!(from, ZoneRef::Battlefield | ZoneRef::Stack);
    if is_public(from) && face_up_or_revealed { game.everyone() } else { 0 }
}

/// Where in a zone a moved card goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Position {
    /// On top (libraries, graveyards, the stack) or at the end (other zones).
    Top,
    /// At the bottom.
    Bottom,
}

/// Moves an object (400.7: it becomes a new object with no memory of the old one, so its
/// knowledge starts over from the destination's default plus the players who saw it move:
/// everyone when it left a public zone face up ([`seen_leaving`], 400.2), and `seen_by`, those the
/// instruction showed it to). Returns the zone it actually went to, after 400.3.
pub fn move_object(game: &mut Game, obj: ObjId, to: ZoneRef, position: Position, seen_by: u8) -> ZoneRef {
    let from = game.objs[obj].zone;
    let owner = game.objs[obj].owner;
    let to = owners_zone(to, owner);
    if let Some(list) = game.zones.get_mut(&from)
        && let Some(idx) = list.iter().position(|&o| o == obj)
    {
        list.remove(idx);
        if let ZoneRef::Library(p) = from {
            // The removed card leaves a fixed region only if it was in one; a card taken from the
            // random middle leaves both fixed regions as they were.
            let old_len = list.len() + 1;
            game.shapes[p].remove_at(idx, old_len);
        }
    }
    let knowledge = default_knowledge(game, to, owner) | seen_by | seen_leaving(game, obj, from);
    let ordered_from_top = matches!(to, ZoneRef::Library(_) | ZoneRef::Graveyard(_) | ZoneRef::Stack);
    let list = game.zone_mut(to);
    if position == Position::Top && ordered_from_top {
        list.insert(0, obj);
    } else {
        list.push(obj);
    }
    if let ZoneRef::Library(p) = to {
        let new_len = game.zone(to).len();
        game.shapes[p].insert(position == Position::Top, new_len);
    }
    if let ZoneRef::Graveyard(_) = to {
        // 400.5: its place in the graveyard is fixed, unless it is one of several cards put
        // there at once (the open batch), whose owner orders them.
        let batch = game.open_batch.unwrap_or_else(|| {
            game.batches += 1;
            game.batches
        });
        game.graveyard_batch.insert(obj, batch);
    }
    let o = &mut game.objs[obj];
    // 608.2h: remember the old object's characteristics as its last known information.
    o.last_chars = Some((o.object_no, o.chars.clone()));
    // 708.9 / 406.3: a face-down card that leaves the battlefield or exile is turned face up.
    if o.face_down {
        o.face_down = false;
        o.chars = std::sync::Arc::new(crate::rules::characteristics::card_chars(&o.def));
    }
    o.zone = to;
    o.object_no += 1;
    o.known = knowledge;
    o.counters = 0;
    o.flags = Default::default();
    if from == ZoneRef::Battlefield {
        o.last_controller = o.controller;
    }
    if to != ZoneRef::Battlefield && to != ZoneRef::Stack {
        o.controller = o.owner;
    }
    to
}

/// 401.4: when an effect puts two or more cards into the same position of a library at the same
/// time — `top` cards on top, `bottom` cards at the bottom — their owner arranges them in any
/// order, so each set is a group whose order the rules don't fix.
pub fn arrange_placed_at_once(game: &mut Game, player: PlayerId, top: usize, bottom: usize) {
    let len = game.zone(ZoneRef::Library(player)).len();
    let shape = &mut game.shapes[player];
    shape.group_top(top);
    shape.group_bottom(bottom, len);
}

/// "Put N cards from your hand on top of your library" (Brainstorm): how many cards the player
/// must put back — N, or every card of their hand when they hold fewer, since an instruction that
/// can't be followed in full is followed as far as it can be (609.3).
pub fn cards_to_put_back(hand: usize, n: u32) -> usize {
    hand.min(n as usize)
}

/// 401.4 with 609.3: the cards chosen to be put back must be `count` different cards of the
/// player's hand (`hand`).
pub fn check_put_back(chosen: &[ObjId], hand: &[ObjId], count: usize) -> Result<(), crate::rules::Violation> {
    let mut distinct = chosen.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != chosen.len() || chosen.len() != count || chosen.iter().any(|c| !hand.contains(c)) {
        return Err(crate::rules::Violation::new(
            "609.3",
            format!("{count} different card(s) of the hand must be put back, not {} of them", chosen.len()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod put_back_tests {
    use super::{cards_to_put_back, check_put_back};

    #[test]
    fn two_cards_or_the_whole_smaller_hand() {
        assert_eq!(cards_to_put_back(5, 2), 2);
        assert_eq!(cards_to_put_back(2, 2), 2);
        assert_eq!(cards_to_put_back(1, 2), 1, "609.3: as many as possible");
        assert_eq!(cards_to_put_back(0, 2), 0);
    }

    #[test]
    fn the_chosen_cards_must_be_that_many_different_cards_of_the_hand() {
        assert!(check_put_back(&[1, 2], &[1, 2, 3], 2).is_ok());
        assert_eq!(check_put_back(&[1, 1], &[1, 2, 3], 2).map_err(|v| v.clause), Err("609.3"));
        assert_eq!(check_put_back(&[1], &[1, 2, 3], 2).map_err(|v| v.clause), Err("609.3"));
        assert_eq!(check_put_back(&[1, 4], &[1, 2, 3], 2).map_err(|v| v.clause), Err("609.3"));
    }
}
