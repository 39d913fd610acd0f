//! CR 120: damage — what it does to players and creatures — and the state-based action that
//! destroys a creature with lethal damage (704.5g).

use crate::cards::def::CardType;
use crate::model::{Chars, Obj};

/// 115.4: "any target" is a player or a creature, planeswalker or battle — the permanents damage
/// can be dealt to.
pub fn can_be_dealt_damage(chars: &Chars) -> bool {
    chars.types.iter().any(|t| matches!(t, CardType::Creature | CardType::Planeswalker | CardType::Battle))
}

/// 120.3e: damage dealt to a creature is marked on it. A planeswalker or battle that isn't also
/// a creature loses counters instead, which the oracle doesn't model.
pub fn damage_is_marked(chars: &Chars) -> bool {
    chars.types.contains(&CardType::Creature)
}

/// A creature's toughness: the number after the slash of its printed power/toughness, plus its
/// +1/+1 counters (122.1a). A face-down creature is 2/2 (708.2a). `None` when the printed value
/// isn't a number (`*`).
pub fn toughness(obj: &Obj) -> Option<i64> {
    let base = if obj.face_down {
        2
    } else {
        obj.def.power_toughness.as_deref()?.split_once('/')?.1.trim().parse::<i64>().ok()?
    };
    Some(base + i64::from(obj.counters))
}

/// 704.5g: a creature with toughness greater than 0 and damage marked on it at least equal to its
/// toughness has lethal damage. `None` when its toughness can't be read.
pub fn has_lethal_damage(obj: &Obj) -> Option<bool> {
    Some(lethal(toughness(obj)?, obj.flags.damage))
}

/// 704.5g on numbers: toughness above 0 (704.5f covers 0 or less) and damage at least that much.
pub fn lethal(toughness: i64, damage: u32) -> bool {
    toughness > 0 && i64::from(damage) >= toughness
}

#[cfg(test)]
mod tests {
    use super::lethal;

    #[test]
    fn lethal_damage_is_at_least_the_toughness() {
        assert!(lethal(2, 3));
        assert!(lethal(3, 3));
        assert!(!lethal(4, 3));
        assert!(!lethal(0, 3), "704.5g needs toughness above 0 (704.5f covers 0)");
    }
}
