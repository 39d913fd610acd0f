//! CR 702.61: split second — while a spell with it is on the stack, no other spell can be cast
//! and no ability that isn't a mana ability can be activated.

use crate::cards::def::{CardDef, Keyword};
use crate::model::{Game, ZoneRef};
use crate::rules::Violation;

/// 702.61a: casting a spell or activating a (non-mana) ability is forbidden while a spell with
/// split second is on the stack. Special actions (116.2d), mana abilities and triggered abilities
/// are untouched (702.61b), so only `cast` and `activate` ask this. `what` names the attempt.
pub fn check_no_split_second(game: &Game, what: &str) -> Result<(), Violation> {
    let holder = game.zone(ZoneRef::Stack).iter().map(|&o| game.obj(o)).find(|o| has_split_second(&o.def));
    match holder {
        Some(o) => Err(Violation::new(
            "702.61a",
            format!("{} has split second and is on the stack, so {what} is not allowed", o.id),
        )),
        None => Ok(()),
    }
}

/// Whether a card's printed text has split second; one instance is as good as several.
fn has_split_second(def: &CardDef) -> bool {
    def.face_slice().iter().any(|f| f.keywords.contains(&Keyword::SplitSecond))
}
