//! CR 702.69: gravestorm, a triggered ability of a spell. As the spell is cast (a "when you
//! cast" trigger, 603.2), its controller's ability triggers; as the ability resolves it copies the
//! spell once for each permanent put into a graveyard from the battlefield this turn, and each
//! copy may get new targets (707.10c). The copies are put on the stack, not cast (707.10).

use crate::cards::def::{CardDef, Keyword};
use crate::model::{Game, ZoneRef};

/// The most permanents a scenario may say went to one player's graveyard earlier in the turn:
/// every copy multiplies the outcomes of its search, so the count is kept small.
pub const MAX_EARLIER: u32 = 20;

/// 702.69a, 702.69b: how many gravestorm abilities trigger as the spell cast with this face is
/// cast — one for each instance of the keyword it has, each making its own copies.
pub fn instances(face: &CardDef) -> usize {
    face.keywords.iter().filter(|k| **k == Keyword::Gravestorm).count()
}

/// 702.69a: a zone change the count includes — from the battlefield to any graveyard. A card
/// that a replacement sends elsewhere (exile instead) was never put into a graveyard, and one put
/// into a graveyard from anywhere else (a discard, a mill, a resolved spell) wasn't a permanent.
pub fn counts_move(from: ZoneRef, to: ZoneRef) -> bool {
    from == ZoneRef::Battlefield && matches!(to, ZoneRef::Graveyard(_))
}

/// 702.69a: how many copies the triggered ability makes, counted as it resolves (608.2h: the
/// effect reads the game as it is then, so a permanent that went to a graveyard after the cast,
/// in response to the trigger, counts): the permanents put into graveyards from the battlefield
/// this turn — the ones the scenario says went there before its steps, and the ones the run put
/// there. Whose permanents they were doesn't matter, nor whether they were tokens (the Follow the
/// Bodies rulings, 2024-02-09). Mutant `gravestorm-counts-only-this-run`: the earlier ones are
/// left out.
pub fn copies(game: &Game, only_this_run: bool) -> u32 {
    if only_this_run {
        game.permanents_to_graveyards
    } else {
        game.permanents_to_graveyards_earlier + game.permanents_to_graveyards
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_battlefield_to_graveyard_counts() {
        assert!(counts_move(ZoneRef::Battlefield, ZoneRef::Graveyard(1)));
        assert!(!counts_move(ZoneRef::Battlefield, ZoneRef::Exile));
        assert!(!counts_move(ZoneRef::Hand(0), ZoneRef::Graveyard(0)));
        assert!(!counts_move(ZoneRef::Stack, ZoneRef::Graveyard(0)));
        assert!(!counts_move(ZoneRef::Library(0), ZoneRef::Graveyard(0)));
    }
}
