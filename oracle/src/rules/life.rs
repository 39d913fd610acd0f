//! CR 119: life — paying life as a cost.

use crate::rules::Violation;

/// 119.4: a player may pay an amount of life greater than 0 only if their life total is at least
/// that amount; paying 0 life is always possible. Paying life is losing that much life.
pub fn check_pay_life(life: i32, amount: u32) -> Result<(), Violation> {
    if amount > 0 && i64::from(life) < i64::from(amount) {
        return Err(Violation::new(
            "119.4",
            format!("paying {amount} life needs a life total of at least {amount}, not {life}"),
        ));
    }
    Ok(())
}

/// "Lose half your life, rounded up" (Doomsday): half the life total, an odd total rounded up
/// (107.1a: a fraction is rounded as the effect says); a player at 0 or less life has no half to
/// lose.
pub fn half_rounded_up(life: i32) -> u32 {
    if life <= 0 { 0 } else { (life as u32).div_ceil(2) }
}

#[cfg(test)]
mod tests {
    use super::{check_pay_life, half_rounded_up};

    #[test]
    fn half_is_rounded_up_and_nothing_below_one() {
        assert_eq!(half_rounded_up(20), 10);
        assert_eq!(half_rounded_up(7), 4);
        assert_eq!(half_rounded_up(1), 1);
        assert_eq!(half_rounded_up(0), 0);
        assert_eq!(half_rounded_up(-3), 0);
    }

    #[test]
    fn life_can_be_paid_down_to_zero_but_not_below() {
        assert!(check_pay_life(3, 3).is_ok());
        assert!(check_pay_life(20, 1).is_ok());
        assert_eq!(check_pay_life(2, 3).map_err(|v| v.clause), Err("119.4"));
        assert_eq!(check_pay_life(-1, 1).map_err(|v| v.clause), Err("119.4"));
    }

    #[test]
    fn zero_life_can_always_be_paid() {
        assert!(check_pay_life(0, 0).is_ok());
        assert!(check_pay_life(-5, 0).is_ok());
    }
}
