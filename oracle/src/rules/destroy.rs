//! CR 701.8: destroy — a permanent is moved from the battlefield to its owner's graveyard.

use crate::cards::def::Keyword;
use crate::model::{Game, ObjId, ZoneRef};

/// Whether `obj` is destroyed by a "destroy" instruction now: it must still be on the battlefield
/// (701.8a moves a permanent, and an object that left is a new object, 400.7), and an
/// indestructible permanent can't be destroyed (702.12b).
pub fn is_destroyed(game: &Game, obj: ObjId) -> bool {
    let o = game.obj(obj);
    o.zone == ZoneRef::Battlefield && !o.chars.keywords.contains(&Keyword::Indestructible)
}
