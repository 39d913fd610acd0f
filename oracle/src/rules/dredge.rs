//! CR 702.52: dredge.

use crate::model::{Game, ObjId, PlayerId, ZoneRef};

/// 702.52a–b: the cards in a player's graveyard that may replace their draw — each with dredge N
/// where their library has at least N cards.
pub fn dredge_options(game: &Game, player: PlayerId) -> Vec<ObjId> {
    let library = game.zone(ZoneRef::Library(player)).len();
    game.zone(ZoneRef::Graveyard(player))
        .iter()
        .copied()
        .filter(|&o| game.obj(o).def.face_slice().iter().any(|f| f.dredge.is_some_and(|n| n as usize <= library)))
        .collect()
}

/// The N of a card's dredge ability.
pub fn dredge_n(game: &Game, card: ObjId) -> u32 {
    game.obj(card).def.face_slice().iter().find_map(|f| f.dredge).unwrap_or(0)
}
