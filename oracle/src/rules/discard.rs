//! CR 701.9: discard.

use crate::cards::instructions::Filter;
use crate::model::{Game, ObjId};
use crate::rules::Violation;
use crate::rules::characteristics::matches;
use crate::rules::replacement::{GraveyardFate, possible_fates};

/// 701.9c: a card discarded into a hidden zone without being revealed has undefined
/// characteristics, so a cost that asks for a characteristic of the discarded card can't be
/// paid that way.
pub fn check_discard_cost(game: &Game, card: ObjId, filter: &Filter) -> Result<(), Violation> {
    let o = game.obj(card);
    if !matches(&o.chars, filter, None) {
        return Err(Violation::new(
            "701.9a",
            format!(
                "{} doesn't match what the cost asks to discard ({})",
                o.id,
                crate::cards::instructions::describe_filter(filter)
            ),
        ));
    }
    // Where its controller could choose an effect that reveals it (616.1), it can pay.
    if !filter.is_quantity_only()
        && possible_fates(game, card, false).iter().all(|f| *f == GraveyardFate::LibraryBottomHidden)
    {
        return Err(Violation::new(
            "701.9c",
            format!(
                "{} would be put into a library instead of the graveyard without being revealed, so its characteristics are undefined and it can't pay a cost that asks for {}",
                o.id,
                crate::cards::instructions::describe_filter(filter)
            ),
        ));
    }
    Ok(())
}
