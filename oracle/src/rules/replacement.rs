//! CR 614: the replacement effects the card pool uses that change where a card goes instead of a
//! graveyard (and 702.34a's "exile instead" for flashback).

use crate::effects::Replacement;
use crate::model::{Game, ObjId, ZoneRef};
use crate::mutants::{self, Mutant};

/// 702.34a: a spell cast with flashback is exiled instead of going anywhere else whenever it would
/// leave the stack — into a graveyard, shuffled into a library, put into a library Nth from the
/// top, or anywhere else. True when `card` is such a spell on the stack now.
pub fn flashback_exiles(game: &Game, card: ObjId) -> bool {
    let o = game.obj(card);
    o.zone == ZoneRef::Stack && o.flags.leaves_stack_to_exile && !mutants::is(Mutant::FlashbackNotExiled)
}

/// Where a card that would be put into a graveyard goes instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraveyardFate {
    /// Its owner's graveyard, unchanged.
    Graveyard,
    /// Exile: a flashback spell leaving the stack (702.34a), or a spell cast by Jetsam.
    Exile(&'static str),
    /// On top of its owner's library: "if this creature would die" (Gravebane Zombie).
    LibraryTop,
    /// Revealed and shuffled into its owner's library (Darksteel Colossus).
    ShuffledIntoLibrary,
    /// The bottom of its owner's library, not revealed — a hidden zone (701.9c).
    LibraryBottomHidden,
}

/// The replacement that applies to `card` being put into a graveyard (`dies`: from the
/// battlefield). Only one applies here: the card's own replacement comes before an effect of
/// another permanent; when both could apply the affected card's owner would choose (616.1), which
/// the oracle doesn't model — the card's own effect is used and the choice is documented.
pub fn graveyard_fate(game: &Game, card: ObjId, dies: bool) -> GraveyardFate {
    let o = game.obj(card);
    if flashback_exiles(game, card) {
        return GraveyardFate::Exile("702.34a");
    }
    if o.zone == ZoneRef::Stack && o.flags.graveyard_to_exile {
        return GraveyardFate::Exile("614.1a");
    }
    let own: Vec<&Replacement> =
        if o.face_down { Vec::new() } else { o.def.faces().into_iter().flat_map(|f| f.replacements.iter()).collect() };
    if own.contains(&&Replacement::GraveyardToShuffledLibrary) {
        return GraveyardFate::ShuffledIntoLibrary;
    }
    if dies && own.contains(&&Replacement::DieToLibraryTop) {
        return GraveyardFate::LibraryTop;
    }
    let global = game.zone(ZoneRef::Battlefield).iter().any(|&p| {
        let s = game.obj(p);
        !s.face_down
            && s.def.faces().iter().any(|f| f.replacements.contains(&Replacement::AnyCardGraveyardToLibraryBottom))
    });
    if global && !o.token {
        return GraveyardFate::LibraryBottomHidden;
    }
    GraveyardFate::Graveyard
}
