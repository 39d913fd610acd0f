//! CR 701.17: mill.

use crate::rules::Violation;

/// 701.17b: told to mill more cards than the library holds, a player mills as many as possible.
pub fn cards_to_mill(library_len: usize, asked: u32) -> usize {
    (asked as usize).min(library_len)
}

/// 614.1a: "mill twice that many instead" effects on the battlefield, applied one after another
/// (not one that entered in the event the mill is part of, [`crate::rules::replacement::applies_yet`]).
pub fn replaced_count(game: &crate::model::Game, n: u32) -> u32 {
    let doublers = game
        .zone(crate::model::ZoneRef::Battlefield)
        .iter()
        .filter(|&&p| {
            let o = game.obj(p);
            !o.face_down
                && crate::rules::replacement::applies_yet(game, p)
                && o.def
                    .face_slice()
                    .iter()
                    .any(|f| f.replacements.contains(&crate::cards::instructions::Replacement::MillDoubled))
        })
        .count();
    (0..doublers).fold(n, |acc, _| acc.saturating_mul(2))
}

/// 701.17b: a cost that includes milling more cards than the library holds can't be paid.
pub fn check_mill_cost(library_len: usize, asked: u32) -> Result<(), Violation> {
    if asked as usize > library_len {
        return Err(Violation::new(
            "701.17b",
            format!("the cost mills {asked} cards but the library has only {library_len}"),
        ));
    }
    Ok(())
}
