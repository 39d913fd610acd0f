//! CR 701.20: reveal and look at.

use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::apnap::bit;

/// 701.20a, 701.20e: to reveal is to show cards to every player (to look, to show them to one).
/// An instruction to reveal an empty hand (Lobotomy against a player with no cards in hand) shows
/// no card, so nothing happens that an outcome must record: an engine may log a `revealed` event
/// with no cards or no event at all, and the two outcomes are the same. The simulator logs none.
pub fn shows_nothing(cards_shown: &[String]) -> bool {
    cards_shown.is_empty()
}

/// 701.20a–c: revealing shows the card to every player; it stays where it is (701.20b), and a
/// card already revealed may be revealed again (701.20c). The oracle records who has seen each
/// object; that lasts until the object changes zones or its library is reordered (701.20d).
pub fn reveal(game: &mut Game, card: ObjId) {
    let everyone = game.everyone();
    game.objs[card].known |= everyone;
}

/// 701.20e: looking at a card is revealing it to one player only.
pub fn look_at(game: &mut Game, card: ObjId, player: PlayerId) {
    game.objs[card].known |= bit(player);
}

/// 701.20d: cards of a library that are reordered stop being revealed and become new objects;
/// the player who put them back in order still knows them.
pub fn reordered(game: &mut Game, card: ObjId, orderer: PlayerId) {
    let o = &mut game.objs[card];
    o.object_no += 1;
    o.known = bit(orderer);
    // 701.20d: it stops being revealed — also as a continuously revealed top card (401.5); if it
    // is the top card again it is revealed again, as the new object it is (401.6).
    o.flags.unset(|f| f.revealed_on_top = false);
}

/// 701.20d with 401.4: `orderer` puts `cards`, the top cards of their own library they looked at,
/// back in an order of their choice. The oracle leaves that order open: the top of the library
/// becomes one group of cards in unknown order, and each card a new object only the orderer
/// knows ([`reordered`]).
pub fn put_back_in_any_order(game: &mut Game, orderer: PlayerId, cards: &[ObjId]) {
    let len = game.zone(ZoneRef::Library(orderer)).len();
    if let Some(shape) = game.shapes.get_mut(orderer) {
        shape.merge_top(cards.len(), len);
    }
    for &c in cards {
        reordered(game, c, orderer);
    }
}

/// 401.6: a continuously revealed top card that stops being revealed (another card covers it, or
/// the effect ends) becomes a new object; nobody has seen that object.
pub fn stop_revealed_on_top(game: &mut Game, card: ObjId) {
    let o = &mut game.objs[card];
    o.flags.unset(|f| f.revealed_on_top = false);
    o.object_no += 1;
    o.known = 0;
}

/// 602.2a (cited by 701.20a): activating an ability of a card in a hidden zone — a hand or a
/// library — reveals that card to every player as the activation is announced.
pub fn activation_reveals(zone: ZoneRef) -> bool {
    matches!(zone, ZoneRef::Hand(_) | ZoneRef::Library(_))
}
