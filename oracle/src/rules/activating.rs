//! CR 602 (activating activated abilities): where an ability may be activated from, the
//! activation instructions that limit when (602.1b), and the restriction on a creature's {T}
//! abilities that 302.6 states ("summoning sickness").

use crate::cards::def::CardType;
use crate::cards::instructions::TurnStep;
use crate::model::{Game, ObjId, PlayerId, TurnPosition, ZoneRef};
use crate::rules::Violation;

/// 113.6 (one of its exceptions) and 602.2: an ability whose effect takes its card out of the
/// graveyard ("return this card from your graveyard to your hand", Eternal Dragon) works only
/// while the card is in a graveyard, and a card there has no controller, so only its owner may
/// activate it — and only from their own graveyard, where an owned card always is.
pub fn check_in_owners_graveyard(
    game: &Game,
    card: ObjId,
    player: PlayerId,
    ability: &str,
    names: &[String],
) -> Result<(), Violation> {
    let o = game.obj(card);
    if o.zone == ZoneRef::Graveyard(player) {
        return Ok(());
    }
    if matches!(o.zone, ZoneRef::Graveyard(_)) {
        return Err(Violation::new(
            "602.2",
            format!(
                "{}'s {ability} can be activated only by the card's owner, and {} doesn't own it",
                o.id,
                names.get(player).map_or("?", |s| s)
            ),
        ));
    }
    Err(Violation::new(
        "113.6",
        format!(
            "{}'s {ability} works only while the card is in its owner's graveyard, and it is in {}",
            o.id,
            o.zone.display(names)
        ),
    ))
}

/// 602.1b: "Activate only during your \[step\]" is an activation instruction: the ability can be
/// activated only while that step of the activating player's own turn is under way (the active
/// player is the first player, `rules::turn_structure::active_player`).
pub fn check_only_during_your(
    position: TurnPosition,
    step: TurnStep,
    player: PlayerId,
    what: &str,
) -> Result<(), Violation> {
    let step_name = format!("{step:?}").to_lowercase();
    if player != crate::rules::turn_structure::active_player() {
        return Err(Violation::new(
            "602.1b",
            format!("{what} may be activated only during its player's own {step_name}, and it isn't their turn"),
        ));
    }
    match position {
        TurnPosition::Step(now) if now == step => Ok(()),
        TurnPosition::Step(now) => Err(Violation::new(
            "602.1b",
            format!(
                "{what} may be activated only during the {step_name}, and this is the {} step",
                format!("{now:?}").to_lowercase()
            ),
        )),
        TurnPosition::Main => Err(Violation::new(
            "602.1b",
            format!("{what} may be activated only during the {step_name}, and this is the main phase"),
        )),
        TurnPosition::Unnamed => Err(Violation::new(
            "602.1b",
            format!(
                "{what} may be activated only during the {step_name}, and no {step_name} has begun (a scenario begins it with `begin_step: {step_name}`)"
            ),
        )),
    }
}

/// 302.6: a creature's ability with {T} in its cost can be activated only if its
/// controller has controlled the creature continuously since their most recent turn began. The
/// oracle plays within one turn and has no haste, so what it knows is this: a permanent that was
/// on the battlefield when the scenario began has been there since the turn began (the scenario
/// states so by listing it there), and one that entered during the scenario has not
/// (`ObjFlags::entered_this_turn`).
pub fn check_summoning_sickness(game: &Game, card: ObjId, ability: &str) -> Result<(), Violation> {
    let o = game.obj(card);
    if !o.chars.types.contains(&CardType::Creature) || !o.flags.entered_this_turn {
        return Ok(());
    }
    Err(Violation::new(
        "302.6",
        format!(
            "{} is a creature that came under its controller's control this turn, so its {ability} with {{T}} in the cost can't be activated yet",
            o.id
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_during_your_upkeep_needs_that_step_of_your_turn() {
        let up = TurnPosition::Step(TurnStep::Upkeep);
        assert!(check_only_during_your(up, TurnStep::Upkeep, 0, "x").is_ok());
        assert_eq!(check_only_during_your(up, TurnStep::Upkeep, 1, "x").unwrap_err().clause, "602.1b");
        let draw = TurnPosition::Step(TurnStep::Draw);
        assert_eq!(check_only_during_your(draw, TurnStep::Upkeep, 0, "x").unwrap_err().clause, "602.1b");
        assert!(check_only_during_your(TurnPosition::Main, TurnStep::Upkeep, 0, "x").is_err());
        assert!(check_only_during_your(TurnPosition::Unnamed, TurnStep::Upkeep, 0, "x").is_err());
    }
}
