//! CR 702.62 (suspend), with the special action it gives (116.2f): a card with suspend is exiled
//! from its owner's hand with time counters instead of being cast, loses a counter at the
//! beginning of each of its owner's upkeeps while it is suspended, and may be cast without paying
//! its mana cost when the last counter is removed.

use crate::cards::instructions::{Effect, InterveningIf, TurnStep};
use crate::model::{Game, Obj, ObjId, PlayerId, TurnPosition, ZoneRef};
use crate::rules::Violation;
use crate::rules::triggers::{Happening, PendingTrigger};

/// The clause a difference in time counters breaks: suspend exiles a card with N time counters
/// and removes one at each of its owner's upkeeps (702.62a).
pub const TIME_COUNTERS_CLAUSE: &str = "702.62a";

/// 702.62b: a card is suspended while it is in exile, has suspend and has at least one time
/// counter. A card with suspend exiled some other way (Guile, a counterspell's exile) has no time
/// counters, so it isn't suspended and its upkeep trigger never triggers.
pub fn is_suspended(o: &Obj) -> bool {
    o.zone == ZoneRef::Exile && o.def.suspend.is_some() && o.flags.time_counters > 0
}

/// 116.2f, 702.62a: `player` may exile `card` from their hand with suspend only if it
/// has suspend and they could begin to cast it now — its card type's timing (a sorcery: their
/// main phase with an empty stack, 307.1 / 117.1a) and the effects that stop it from being cast
/// (a split-second spell on the stack, 702.61a). Mana isn't modelled, so the cost is assumed paid.
/// Returns where the turn is afterwards (a sorcery-speed action moves it into the main phase).
pub fn check_suspend(
    game: &Game,
    player: PlayerId,
    card: ObjId,
    stack_empty: bool,
    as_though_flash: bool,
) -> Result<TurnPosition, Violation> {
    let o = game.obj(card);
    if o.def.suspend.is_none() {
        return Err(Violation::new("702.62a", format!("{} has no suspend, so it can't be suspended", o.id)));
    }
    if o.zone != ZoneRef::Hand(player) {
        return Err(Violation::new(
            "116.2f",
            format!("{} can be suspended only from its owner's hand, and it isn't in that player's hand", o.id),
        ));
    }
    crate::rules::split_second::check_no_split_second(game, &format!("suspending {}", o.id))?;
    let instant_timing = as_though_flash || crate::rules::casting::has_instant_timing(&o.chars);
    if !instant_timing && !stack_empty {
        return Err(Violation::new(
            "116.2f",
            format!(
                "{} could not be cast now (it is not an instant and the stack isn't empty), so it can't be suspended",
                o.id
            ),
        ));
    }
    if instant_timing {
        return Ok(game.turn_position);
    }
    crate::rules::turn_structure::check_main_phase(
        game.turn_position,
        &format!("{} could be cast, and so suspended,", o.id),
        "116.2f",
    )
}

/// 702.62a: how many time counters a card is exiled with when it is suspended.
pub fn time_counters_on_suspend(o: &Obj) -> u32 {
    o.def.suspend.as_ref().map_or(0, |s| s.time_counters)
}

/// 702.62a: removing one time counter from a card with `count`: how many are left, and whether
/// the one removed was the last (which triggers the cast). With none there is nothing to remove.
pub fn remove_time_counter(count: u32) -> Option<(u32, bool)> {
    count.checked_sub(1).map(|left| (left, left == 0))
}

/// The triggered abilities suspend gives `source` (702.62a) that trigger on `happening`: "at the
/// beginning of your upkeep, if this card is suspended, remove a time counter from it" (its
/// owner's upkeep, with the intervening "if" of 603.4 checked by the caller) and "when the last
/// time counter is removed from this card, if it's exiled, you may play it without paying its
/// mana cost". Both work in exile; the controller of an exiled card's ability is its owner.
pub fn suspend_trigger(game: &Game, source: ObjId, happening: &Happening) -> Option<PendingTrigger> {
    let o = game.obj(source);
    if o.def.suspend.is_none() || o.zone != ZoneRef::Exile || o.face_down {
        return None;
    }
    let (on, effect, condition, triggering_player, clause) = match *happening {
        Happening::StepBegan { step: TurnStep::Upkeep, active } if active == o.owner => {
            ("beginning_of_step", Effect::RemoveTimeCounter, InterveningIf::ThisIsSuspended, Some(active), "603.2b")
        }
        Happening::LastTimeCounterRemoved(card) if card == source => {
            ("last_time_counter_removed", Effect::MayCastSuspended, InterveningIf::ThisIsExiled, None, "702.62a")
        }
        _ => return None,
    };
    Some(PendingTrigger {
        source,
        controller: o.owner,
        effect: vec![effect],
        on,
        triggering_player,
        targets: Vec::new(),
        source_no: o.object_no,
        found_no: None,
        clause,
        condition: Some(condition),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_counter_is_the_one_that_leaves_none() {
        assert_eq!(remove_time_counter(0), None);
        assert_eq!(remove_time_counter(1), Some((0, true)));
        assert_eq!(remove_time_counter(4), Some((3, false)));
    }
}
