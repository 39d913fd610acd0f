//! CR 701.6: counter — a countered spell leaves the stack, unresolved, for its owner's graveyard
//! (701.6a), unless a replacement effect (614.1a) makes something else happen instead.

use crate::cards::instructions::StaticAbility;
use crate::model::{Game, PlayerId, ZoneRef};

/// Whether a spell that a spell or ability controlled by `countering` would counter is exiled
/// instead (Guile, 614.1a). The replacement watches only its own controller's counters: a player
/// who controls a permanent with it changes what their own spells and abilities do, not what an
/// opponent's counterspell does to the spell it counters. A face-down permanent has no abilities
/// (708.2), so it replaces nothing. With several, one applying is enough: afterwards the spell is
/// no longer being countered, so the others have nothing left to replace (614.5).
pub fn exiled_instead_of_countered(game: &Game, countering: PlayerId) -> bool {
    game.zone(ZoneRef::Battlefield).iter().map(|&p| game.obj(p)).any(|o| {
        o.controller == countering
            && !o.face_down
            && o.def.faces().iter().any(|f| f.statics.contains(&StaticAbility::ExileInsteadOfCounteringMayPlay))
    })
}
