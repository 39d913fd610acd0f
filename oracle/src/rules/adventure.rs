//! CR 715 adventurer cards (Brazen Borrower // Petty Theft): where the card goes after its
//! Adventure resolves, and who may cast it from there and how.
//!
//! The characteristics part of the section is in [`crate::rules::characteristics`]: on the stack a
//! spell cast as an Adventure has only the Adventure's characteristics (715.3b), everywhere else
//! the card has only its normal ones (715.4). Choosing to cast the Adventure (715.3) is the cast
//! step's `face`; whether the Adventure may be cast is judged on its characteristics alone
//! (715.3a), which is what [`crate::rules::casting`] does with that face.

use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::Violation;
use crate::rules::casting::ADVENTURE;

/// 715.3d: a spell cast as an Adventure that resolves is exiled by its controller rather than put
/// into its owner's graveyard. Only resolving does this: an Adventure that leaves the stack in any
/// other way — countered, or not resolving because every target became illegal (608.2b) — goes
/// where it would go, its owner's graveyard (the Throne of Eldraine ruling of 2019-10-04).
pub fn exiled_as_it_resolves(face: Option<usize>, resolved: bool) -> bool {
    face == Some(ADVENTURE) && resolved
}

/// 715.3d: while the card it exiled that way stays in exile, the Adventure's controller may cast
/// it — but not as an Adventure again: only its normal characteristics are cast, a creature spell
/// with the usual timing of that spell (flash lets Brazen Borrower be cast at instant speed).
/// Another effect that lets a player cast an exiled card (a face-down Praetor's Grasp card) may
/// allow the Adventure, and a card exiled in any other way gives no permission at all (the 2019
/// rulings); those cases are the flags of that other permission, not this one.
pub fn check_cast_from_adventure(
    game: &Game,
    card: ObjId,
    caster: PlayerId,
    face: Option<usize>,
) -> Result<(), Violation> {
    let o = game.obj(card);
    if o.zone != ZoneRef::Exile || !o.flags.on_adventure {
        return Ok(());
    }
    if o.flags.playable_by != Some(caster) {
        return Err(Violation::new(
            "715.3d",
            format!("{} went on an adventure for another player; only that player may cast it from exile", o.id),
        ));
    }
    if face == Some(ADVENTURE) {
        return Err(Violation::new(
            "715.3d",
            format!(
                "{} is exiled on an adventure: it may be cast from there only as a creature, not as its Adventure",
                o.id
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::exiled_as_it_resolves;
    use crate::rules::casting::{ADVENTURE, FUSED};

    #[test]
    fn only_a_resolving_adventure_is_exiled() {
        assert!(exiled_as_it_resolves(Some(ADVENTURE), true));
        assert!(!exiled_as_it_resolves(Some(ADVENTURE), false), "countered or fizzled: graveyard");
        assert!(!exiled_as_it_resolves(None, true), "the creature cast normally");
        assert!(!exiled_as_it_resolves(Some(0), true), "a split card's half");
        assert!(!exiled_as_it_resolves(Some(FUSED), true));
    }
}
