//! CR 606 (loyalty abilities), with the two rules about a planeswalker's loyalty counters that
//! they rely on: the counters it enters with (306.5b) and the state-based action for a
//! planeswalker left with none (704.5i).

use crate::cards::def::{CardDef, CardType};
use crate::model::{Obj, TurnPosition};
use crate::rules::Violation;

/// 306.5b, 209.1: a planeswalker enters the battlefield with as many loyalty counters as its
/// printed loyalty; any other permanent (and a planeswalker without a printed number) with none.
pub fn starting_loyalty(def: &CardDef) -> u32 {
    if def.face_slice().iter().any(|f| f.types.contains(&CardType::Planeswalker)) {
        def.face_slice().iter().find_map(|f| f.loyalty).unwrap_or(0)
    } else {
        0
    }
}

/// 606.3: a loyalty ability is activated only when its controller could cast a sorcery — their
/// main phase, with the stack empty — and only if no loyalty ability of that permanent has been
/// activated yet this turn. The oracle lets any player take a sorcery-speed action (an adapter
/// gives each player priority), as for casting a sorcery, so the turn's owner is not checked.
/// `position` is where the turn is; returns the position after the activation (the main phase).
pub fn check_loyalty_timing(
    permanent: &Obj,
    ability: &str,
    stack_empty: bool,
    position: TurnPosition,
) -> Result<TurnPosition, Violation> {
    if permanent.flags.loyalty_activated {
        return Err(Violation::new(
            "606.3",
            format!(
                "a loyalty ability of {} has already been activated this turn, so {ability} can't be activated again",
                permanent.id
            ),
        ));
    }
    if !stack_empty {
        return Err(Violation::new(
            "606.3",
            format!(
                "{}'s {ability} is a loyalty ability: it can't be activated while the stack isn't empty",
                permanent.id
            ),
        ));
    }
    crate::rules::turn_structure::check_main_phase(
        position,
        &format!("{}'s {ability} is a loyalty ability, activated", permanent.id),
        "606.3",
    )
}

/// 606.5: a loyalty ability whose cost removes counters can be activated only if the permanent
/// has at least that many loyalty counters; a cost of 0 or more can always be paid.
pub fn check_loyalty_cost(permanent: &Obj, ability: &str, cost: i32) -> Result<(), Violation> {
    let needed = cost.min(0).unsigned_abs();
    if permanent.flags.loyalty >= needed {
        return Ok(());
    }
    Err(Violation::new(
        "606.5",
        format!(
            "{}'s {ability} costs {needed} loyalty counters to remove and {} has only {}",
            permanent.id, permanent.id, permanent.flags.loyalty
        ),
    ))
}

/// 606.4: paying a loyalty cost puts that many counters on the permanent (a positive cost) or
/// removes that many (a negative one); the loyalty after paying. 606.5 has already checked that a
/// negative cost can be paid.
pub fn loyalty_after_cost(loyalty: u32, cost: i32) -> u32 {
    loyalty.saturating_add_signed(cost)
}

/// 704.5i: a planeswalker whose loyalty is 0 is put into its owner's graveyard as a state-based
/// action (its loyalty is the number of loyalty counters on it).
pub fn dies_to_zero_loyalty(permanent: &Obj) -> bool {
    permanent.chars.types.contains(&CardType::Planeswalker) && permanent.flags.loyalty == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cost_changes_loyalty_by_its_amount() {
        assert_eq!(loyalty_after_cost(5, -1), 4);
        assert_eq!(loyalty_after_cost(1, -1), 0);
        assert_eq!(loyalty_after_cost(3, 2), 5);
        assert_eq!(loyalty_after_cost(3, 0), 3);
    }

    #[test]
    fn starting_loyalty_is_printed_on_planeswalkers_only() {
        let walker = CardDef { types: vec![CardType::Planeswalker], loyalty: Some(5), ..CardDef::default() };
        assert_eq!(starting_loyalty(&walker), 5);
        let land = CardDef { types: vec![CardType::Land], loyalty: Some(5), ..CardDef::default() };
        assert_eq!(starting_loyalty(&land), 0);
    }
}
