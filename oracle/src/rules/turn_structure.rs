//! CR 500–504: the steps of a turn the oracle models — the beginning phase's untap step (502),
//! upkeep (503) and draw step (504) — and their turn-based actions.
//!
//! A scenario is one moment of one turn, and the turn is the active player's: the first player
//! (seat 0, see `rules::apnap`). A `begin_step` step begins a step of that turn: its turn-based
//! actions happen (502.3 untap, 504.1 draw), then the abilities that trigger "at the beginning
//! of" it trigger (603.2b) and go on the stack in APNAP order (603.3b). No player gets priority in
//! the untap step (502.4), so what triggers there waits for the upkeep, where it goes on the
//! stack with the upkeep's own triggers (503.1a); the scenario loader makes an untap step be
//! followed at once by the upkeep.

use crate::cards::def::CardType;
use crate::cards::instructions::TurnStep;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::Violation;

pub use crate::model::TurnPosition;

fn step_rank(step: TurnStep) -> u8 {
    match step {
        TurnStep::Untap => 0,
        TurnStep::Upkeep => 1,
        TurnStep::Draw => 2,
    }
}

/// Whether `step` may begin now: a step ends only once the stack is empty and every player
/// passes (500.2), and the beginning phase's steps come in order, each once per turn, before the
/// main phase (501.1).
pub fn check_begin_step(position: TurnPosition, step: TurnStep, stack_empty: bool) -> Result<(), Violation> {
    let name = format!("{step:?}").to_lowercase();
    if !stack_empty {
        return Err(Violation::new(
            "500.2",
            format!(
                "the {name} step can't begin while the stack isn't empty: a step ends only when the stack is empty and all players pass"
            ),
        ));
    }
    match position {
        TurnPosition::Main => Err(Violation::new(
            "501.1",
            format!("the {name} step can't begin in the main phase: the beginning phase comes first"),
        )),
        TurnPosition::Step(now) if step_rank(now) >= step_rank(step) => Err(Violation::new(
            "501.1",
            format!(
                "the {name} step can't begin after the {} step: untap, upkeep and draw come in that order, once each",
                format!("{now:?}").to_lowercase()
            ),
        )),
        _ => Ok(()),
    }
}

/// 117.1a, 307.1, 305.1: a sorcery-speed action (a spell without instant timing, a land played,
/// an ability activated "only as a sorcery") is taken in its player's main phase. In the untap
/// step or the upkeep it is refused; after the draw step (its stack empty, so it may end) or with
/// no step named it moves the scenario into the main phase. Returns the position after it.
pub fn check_main_phase(position: TurnPosition, what: &str, clause: &'static str) -> Result<TurnPosition, Violation> {
    match position {
        TurnPosition::Step(step @ (TurnStep::Untap | TurnStep::Upkeep)) => Err(Violation::new(
            clause,
            format!("{what} only in the main phase, and this is the {} step", format!("{step:?}").to_lowercase()),
        )),
        _ => Ok(TurnPosition::Main),
    }
}

/// The active player: the player whose turn it is, seat 0 (101.4; the scenario's first player).
pub fn active_player() -> PlayerId {
    crate::rules::apnap::apnap_order(1)[0]
}

/// The clause of a step's turn-based actions and beginning: 502.3 (untap), 503.1a (upkeep),
/// 504.1 (draw).
pub fn step_clause(step: TurnStep) -> &'static str {
    match step {
        TurnStep::Untap => "502.3",
        TurnStep::Upkeep => "503.1a",
        TurnStep::Draw => "504.1",
    }
}

/// 502.3: the permanents that untap in the active player's untap step — every tapped permanent
/// they control (the oracle has no effect that keeps a permanent from untapping), untapped at the
/// same time.
pub fn untapping_in_untap_step(game: &Game, active: PlayerId) -> Vec<ObjId> {
    game.zone(ZoneRef::Battlefield)
        .iter()
        .copied()
        .filter(|&o| game.obj(o).controller == active && game.obj(o).flags.tapped)
        .collect()
}

/// 502.4: no player receives priority during the untap step, so abilities that trigger in it wait
/// for the upkeep (503.1a).
pub fn step_has_priority(step: TurnStep) -> bool {
    step != TurnStep::Untap
}

/// The step that must come right after `step` in a scenario, if any: the untap step is followed by
/// the upkeep (501.1), where what triggered during the untap step goes on the stack (503.1a).
pub fn must_follow(step: TurnStep) -> Option<TurnStep> {
    match step {
        TurnStep::Untap => Some(TurnStep::Upkeep),
        TurnStep::Upkeep | TurnStep::Draw => None,
    }
}

/// How many lands `player` controls (for "if an opponent controls more lands than you", Land Tax).
pub fn lands_controlled(game: &Game, player: PlayerId) -> usize {
    game.zone(ZoneRef::Battlefield)
        .iter()
        .filter(|&&o| game.obj(o).controller == player && game.obj(o).chars.types.contains(&CardType::Land))
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_untap_step_is_followed_by_a_required_step_and_lacks_priority() {
        assert_eq!(must_follow(TurnStep::Untap), Some(TurnStep::Upkeep));
        assert_eq!(must_follow(TurnStep::Upkeep), None);
        assert_eq!(must_follow(TurnStep::Draw), None);
        assert!(!step_has_priority(TurnStep::Untap));
        assert!(step_has_priority(TurnStep::Upkeep) && step_has_priority(TurnStep::Draw));
        assert_eq!(active_player(), 0);
    }
}
