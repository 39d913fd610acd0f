//! CR 701.24: shuffle.

use crate::model::{Game, LibraryShape, ObjId, PlayerId, ZoneRef};
use crate::outcome::group_ranges;

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

/// A library as segments, top first: each top group (a fixed position, or cards put on top at
/// once in an order their owner chose, 401.4), then the part a shuffle randomised (701.24a), then
/// each bottom group. Within a segment the oracle doesn't know the order; which of a
/// segment's cards come first is decided when something looks (a draw, the top N of a search).
pub fn library_segments(game: &Game, player: PlayerId) -> Vec<Vec<ObjId>> {
    let cards = game.zone(ZoneRef::Library(player));
    let shape = &game.shapes[player];
    let len = cards.len();
    let top = shape.top_fixed().min(len);
    let bottom = shape.bottom_fixed().min(len - top);
    let mut out: Vec<Vec<ObjId>> =
        group_ranges(&shape.top_groups, top).into_iter().map(|r| cards[r].to_vec()).collect();
    if top < len - bottom {
        out.push(cards[top..len - bottom].to_vec());
    }
    let start = len - bottom;
    out.extend(
        group_ranges(&shape.bottom_groups, bottom).into_iter().map(|r| cards[r.start + start..r.end + start].to_vec()),
    );
    out
}
