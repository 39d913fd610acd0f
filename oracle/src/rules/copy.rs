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

/// 707.10c: the choice `chosen` read as keeping the original's targets, when it names the same
/// things in the same order (`same` compares them as the options do — an object by its card, not
/// by its object number, since the original's target may have changed zones and become illegal
/// since it was chosen; a kept target needn't be legal). Returns the original's targets then,
/// else `None`. Only used when `chosen` is not itself one of the offered options, so a card that
/// left and came back as a new, legal object is still a new target when offered as one.
pub fn kept_original<T: Clone>(chosen: &[T], original: &[T], same: impl Fn(&T, &T) -> bool) -> Option<Vec<T>> {
    (chosen.len() == original.len() && chosen.iter().zip(original).all(|(c, o)| same(c, o))).then(|| original.to_vec())
}

/// 707.10, 704.5e: `obj` is a copy of a spell (not of a card), so it ceases to exist as it leaves
/// the stack instead of being put anywhere (the event log shows no move for it).
pub fn ceases_to_exist_off_the_stack(obj: &Obj) -> bool {
    obj.spell_copy
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

    #[test]
    fn a_kept_target_is_recognised_by_its_card_not_its_object_number() {
        // (card, object number): the original's target changed zones (object 1 -> 2).
        let original = vec![(7, 1)];
        let same = |a: &(i32, i32), b: &(i32, i32)| a.0 == b.0;
        assert_eq!(kept_original(&[(7, 2)], &original, same), Some(original.clone()));
        assert_eq!(kept_original(&[(8, 1)], &original, same), None);
        assert_eq!(kept_original(&[], &original, same), None);
    }
}
