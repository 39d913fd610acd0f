//! CR 701.24: shuffle.

use crate::model::{Game, LibraryShape, ObjId, PlayerId, ZoneRef};

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
    // Taken out and put back rather than copied: a library can hold 100 000 cards.
    let mut cards = std::mem::take(game.zone_mut(zone));
    // In the order the cards were in, which is mostly the order of the objects in memory.
    for &obj in &cards {
        let o = &mut game.objs[obj];
        o.object_no += 1;
        o.known = 0;
        // 701.20d: a revealed card that is shuffled stops being revealed (401.6 for a revealed
        // top card: revealed again on top, it is a new object).
        o.flags.unset(|f| f.revealed_on_top = false);
    }
    // The oracle keeps the random middle in a canonical order instead of drawing a permutation:
    // every order is legal, and outcomes compare libraries as sets where positions aren't fixed.
    // Ids are unique, so ordering by their ranks (numbers) is ordering by the ids themselves.
    let ranks: Option<Vec<u32>> = cards.iter().map(|&o| game.id_rank(o).filter(|&r| r != u32::MAX)).collect();
    match ranks {
        Some(ranks) => {
            // The ranks are distinct and below the number of objects, so a large library is put
            // in order by placing each card at its rank (linear) rather than by sorting.
            let max_rank = ranks.iter().copied().max().unwrap_or(0) as usize;
            if cards.len() >= 256 && max_rank < 4 * game.objs.len().max(cards.len()) {
                let mut slots = vec![ObjId::MAX; max_rank + 1];
                for (&o, &r) in cards.iter().zip(&ranks) {
                    slots[r as usize] = o;
                }
                let placed: Vec<ObjId> = slots.into_iter().filter(|&o| o != ObjId::MAX).collect();
                if placed.len() == cards.len() {
                    cards = placed;
                } else {
                    // Two cards shared a rank: not expected, but never lose a card over it.
                    cards.sort_unstable_by_key(|&o| game.id_rank(o));
                }
            } else {
                cards.sort_unstable_by_key(|&o| game.id_rank(o));
            }
        }
        None => cards.sort_by(|&a, &b| game.objs[a].id.cmp(&game.objs[b].id)),
    }
    *game.zone_mut(zone) = cards;
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
    let mut out: Vec<Vec<ObjId>> = group_ranges(&shape.top_groups, top).map(|r| cards[r].to_vec()).collect();
    if top < len - bottom {
        out.push(cards[top..len - bottom].to_vec());
    }
    let start = len - bottom;
    out.extend(group_ranges(&shape.bottom_groups, bottom).map(|r| cards[r.start + start..r.end + start].to_vec()));
    out
}

/// 701.20b with 401.2: when chance decides which `picked` cards of segment `segment` (as
/// [`library_segments`] lists them) are its top cards — something drew, revealed, looked at or
/// searched them there — they stay there: they become a group of their own above the rest of the
/// segment (their order among themselves stays open), so a later draw takes a revealed top card
/// rather than a new random one.
pub fn settle_top_of_segment(game: &mut Game, player: PlayerId, segment: usize, picked: &[ObjId]) {
    let segments = library_segments(game, player);
    let Some(seg) = segments.get(segment) else { return };
    if picked.is_empty() || picked.len() >= seg.len() || !picked.iter().all(|o| seg.contains(o)) {
        return;
    }
    let start: usize = segments[..segment].iter().map(Vec::len).sum();
    let rest: Vec<ObjId> = seg.iter().copied().filter(|o| !picked.contains(o)).collect();
    let list = game.zone_mut(ZoneRef::Library(player));
    list.splice(start..start + seg.len(), picked.iter().copied().chain(rest));
    let shape = &mut game.shapes[player];
    if segment < shape.top_groups.len() {
        shape.top_groups[segment] -= picked.len();
        shape.top_groups.insert(segment, picked.len());
    } else {
        shape.top_groups.push(picked.len());
    }
}

/// Consecutive groups of the given sizes as index ranges from 0, clipped to `len` (an iterator:
/// every outcome's canonical form walks its libraries' and graveyards' groups).
pub fn group_ranges(sizes: &[usize], len: usize) -> impl Iterator<Item = std::ops::Range<usize>> + '_ {
    sizes
        .iter()
        .scan(0usize, move |start, &g| {
            let range = *start..(*start + g).min(len);
            *start = range.end;
            Some(range)
        })
        .take_while(|range| !range.is_empty())
}
