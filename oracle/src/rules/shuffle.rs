//! CR 701.24: shuffle.

use crate::model::{Game, LibraryShape, PlayerId, ZoneRef};

/// Shuffles a player's library (701.24a): afterwards no position is fixed, and every card in it
/// is a new object nobody has seen as such (701.20d: revealed cards that are reordered stop being
/// revealed and become new objects). A library of zero or one cards is still shuffled
/// (701.24e); the caller records the event, so shuffle triggers fire either way.
///
/// Cards a search is about to put into a position of this library are not in it when this is
/// called: the simulator takes them out first, which is how 701.24b/g keep them out of the
/// shuffle.
pub fn shuffle_library(game: &mut Game, player: PlayerId) {
    let zone = ZoneRef::Library(player);
    let cards: Vec<_> = game.zone(zone).to_vec();
    // The oracle keeps the random middle in a canonical order instead of drawing a permutation:
    // every order is legal, and outcomes compare libraries as sets where positions aren't fixed.
    let mut sorted = cards.clone();
    sorted.sort_by(|&a, &b| game.objs[a].id.cmp(&game.objs[b].id));
    *game.zone_mut(zone) = sorted;
    for obj in cards {
        let o = &mut game.objs[obj];
        o.object_no += 1;
        o.known = 0;
    }
    game.shapes[player] = LibraryShape::default();
}

/// The cards of a library whose position after the fixed top is random: the candidates for
/// "the top card" or "the top N cards" once the fixed top has run out (701.24a). Returns the
/// fixed top, the random middle, and the fixed bottom.
pub fn library_regions(game: &Game, player: PlayerId) -> (Vec<usize>, Vec<usize>, Vec<usize>) {
    let cards = game.zone(ZoneRef::Library(player));
    let shape = &game.shapes[player];
    let top = shape.top_fixed().min(cards.len());
    let bottom = shape.bottom_fixed.min(cards.len() - top);
    (cards[..top].to_vec(), cards[top..cards.len() - bottom].to_vec(), cards[cards.len() - bottom..].to_vec())
}
