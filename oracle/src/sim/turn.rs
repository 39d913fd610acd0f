//! The steps of a turn a scenario can begin (`rules::turn_structure`): their turn-based actions,
//! then their "at the beginning of" triggers.

use super::{Sim, SimError};
use crate::cards::instructions::TurnStep;
use crate::rules::triggers::Happening;
use crate::rules::turn_structure::{TurnPosition, active_player, untapping_in_untap_step};

impl Sim<'_> {
    /// Begins `step` of the active player's turn: 502.3, the active player's permanents untap at
    /// the same time (each one that changes triggers "becomes untapped", 603.2e); 504.1, the
    /// active player draws a card (a draw like any other: dredge may replace it, 702.52a, and
    /// "whenever you draw" abilities trigger); then the abilities that trigger at the beginning
    /// of the step trigger (603.2b). The caller puts them on the stack, except in the untap step
    /// (502.4).
    pub(super) fn begin_step(&mut self, step: TurnStep) -> Result<(), SimError> {
        crate::rules::turn_structure::check_begin_step(self.game.turn_position, step, self.stack.is_empty())
            .map_err(|v| self.refused(v))?;
        self.game.turn_position = crate::rules::turn_structure::TurnPosition::Step(step);
        let active = active_player();
        match step {
            TurnStep::Untap => {
                let untapping = untapping_in_untap_step(&self.game, active);
                for &permanent in &untapping {
                    self.game.objs[permanent].flags.unset(|f| f.tapped = false);
                }
                self.rule_decision("502.3", Vec::new());
                for permanent in untapping {
                    self.trigger(Happening::BecameUntapped { permanent }, None);
                }
            }
            TurnStep::Upkeep => {}
            TurnStep::Draw => self.draw(active)?,
        }
        self.trigger(Happening::StepBegan { step, active }, None);
        Ok(())
    }

    /// A sorcery-speed action is about to be taken: refused in the untap step or upkeep
    /// (`rules::turn_structure::check_main_phase`); otherwise the position the game is in once it
    /// is taken (the main phase). The caller sets it only after its other refusal checks, so a
    /// refused action leaves the game as it was.
    pub(super) fn main_phase_for(&self, what: &str, clause: &'static str) -> Result<TurnPosition, SimError> {
        crate::rules::turn_structure::check_main_phase(self.game.turn_position, what, clause)
            .map_err(|v| self.refused(v))
    }
}
