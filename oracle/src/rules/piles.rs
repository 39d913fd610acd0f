//! CR 700.3: separating a set of objects into piles (Fact or Fiction).

use crate::model::ObjId;
use crate::rules::Violation;

/// 700.3: a player separating `cards` into two piles puts each card into exactly one of them, and
/// either pile may hold any number of the cards, none or all included (the Fact or Fiction
/// ruling of 2019-06-14). The separator names one pile (`pile`); the other is every other card.
/// Returns the two piles, each in the order of `cards`.
pub fn separate(cards: &[ObjId], pile: &[ObjId]) -> Result<(Vec<ObjId>, Vec<ObjId>), Violation> {
    let mut distinct = pile.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != pile.len() || pile.iter().any(|c| !cards.contains(c)) {
        return Err(Violation::new("700.3", "a pile must be made of different cards among those being separated"));
    }
    let (first, second) = cards.iter().partition(|c| pile.contains(c));
    Ok((first, second))
}

#[cfg(test)]
mod tests {
    use super::separate;

    #[test]
    fn every_card_is_in_exactly_one_pile_and_a_pile_may_be_empty() {
        assert_eq!(separate(&[1, 2, 3], &[2]), Ok((vec![2], vec![1, 3])));
        assert_eq!(separate(&[1, 2, 3], &[]), Ok((vec![], vec![1, 2, 3])));
        assert_eq!(separate(&[1, 2, 3], &[3, 1, 2]), Ok((vec![1, 2, 3], vec![])));
    }

    #[test]
    fn a_pile_of_other_or_repeated_cards_is_refused() {
        assert_eq!(separate(&[1, 2, 3], &[4]).map_err(|v| v.clause), Err("700.3"));
        assert_eq!(separate(&[1, 2, 3], &[1, 1]).map_err(|v| v.clause), Err("700.3"));
    }
}
