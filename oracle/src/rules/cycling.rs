//! CR 702.29: cycling and typecycling.

use crate::cards::instructions::{ActivatedAbility, StaticAbility};
use crate::model::{Game, ZoneRef};
use crate::rules::Violation;

/// 702.29f: an effect that stops players from cycling stops typecycling too, since typecycling
/// abilities are cycling abilities.
pub fn check_may_cycle(game: &Game, ability: &ActivatedAbility) -> Result<(), Violation> {
    if !ability.cycling {
        return Ok(());
    }
    for &p in game.zone(ZoneRef::Battlefield) {
        let o = game.obj(p);
        if o.face_down {
            continue;
        }
        if o.def.face_slice().iter().any(|f| f.statics.contains(&StaticAbility::PlayersCantCycle)) {
            return Err(Violation::new(
                "702.29f",
                format!("{} stops players from cycling, which includes {} (a cycling ability)", o.id, ability.name),
            ));
        }
    }
    Ok(())
}

/// 702.29a / 702.29e: cycling and typecycling are activated only from the hand.
pub fn check_in_hand(game: &Game, card: crate::model::ObjId, player: crate::model::PlayerId) -> Result<(), Violation> {
    let o = game.obj(card);
    if o.zone != ZoneRef::Hand(player) {
        return Err(Violation::new("702.29a", format!("{} can be cycled only from its owner's hand", o.id)));
    }
    Ok(())
}
