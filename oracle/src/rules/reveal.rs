//! CR 701.20: reveal and look at.

use crate::model::{Game, ObjId, PlayerId};
use crate::rules::apnap::bit;

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
    if crate::mutants::is(crate::mutants::Mutant::RevealedTopStaysKnown) {
        return;
    }
    let o = &mut game.objs[card];
    o.object_no += 1;
    o.known = bit(orderer);
}
