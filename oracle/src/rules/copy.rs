//! CR 707.10: copying a spell on the stack. The copy has the original's characteristics and the
//! choices made for it (targets, X, the half of a split card), is controlled by the player who
//! put it on the stack, and is not cast (no "cast" event, no "when you cast" trigger, 707.10). Its
//! controller may keep each target or choose a new legal one when the effect allows it
//! (707.10c). A copy of a spell is a spell without a card: once it leaves the stack — after it
//! resolves, or when its targets are gone (608.2b) — it ceases to exist (704.5e), so it is never
//! in a graveyard. (A copy of a *card* that is then cast, 707.12, is a different object: see
//! `rules::tokens::ceases_to_exist`.)

use crate::model::Obj;

/// 707.10c: the target choices offered for a copy whose controller may choose new targets: every
/// legal choice for the copy, and the original's targets kept unchanged even if they are no
/// longer legal (a kept target needn't be legal; a new one must). Kept and new targets mixed in
/// one choice of several targets are not offered — no spell with gravestorm has more than one
/// target.
pub fn target_options<T: PartialEq + Clone>(original: &[T], legal: Vec<Vec<T>>) -> Vec<Vec<T>> {
    let mut options = legal;
    if !options.iter().any(|o| o.as_slice() == original) {
        options.insert(0, original.to_vec());
    }
    options
}

/// 707.10, 704.5e: `obj` is a copy of a spell (not of a card), so it ceases to exist as it leaves
/// the stack instead of being put anywhere (the event log shows no move for it).
pub fn ceases_to_exist_off_the_stack(obj: &Obj) -> bool {
    obj.spell_copy
}

/// 707.10: putting a copy on the stack isn't casting it, so no `cast` event is logged for it and
/// no "when you cast" ability triggers. Mutant `spell-copies-cast`: the engine logs each copy as
/// cast.
pub fn copy_is_cast(mutant_cast: bool) -> bool {
    mutant_cast
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_original_targets_are_always_offered_first_when_not_legal() {
        // Targets as player seats.
        let original = vec![1];
        let legal = vec![vec![0]];
        assert_eq!(target_options(&original, legal), vec![original.clone(), vec![0]]);
        let legal = vec![vec![0], vec![1]];
        assert_eq!(target_options(&original, legal.clone()), legal);
    }
}
