//! CR 701.21a: sacrifice — a player moves a permanent they control to its owner's graveyard.

use crate::cards::instructions::Count;
use crate::model::ObjId;
use crate::rules::Violation;

/// 107.1c, 701.21a: an answer to "sacrifice any number of …" names permanents among `options`
/// (the ones the player controls that match), each at most once; none at all is an answer too.
pub fn check_any_number(chosen: &[ObjId], options: &[ObjId]) -> Result<(), Violation> {
    if let Some(c) = chosen.iter().find(|c| !options.contains(c)) {
        return Err(Violation::new("701.21a", format!("object {c} is not a permanent the player can sacrifice")));
    }
    let mut seen = chosen.to_vec();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != chosen.len() {
        return Err(Violation::new("107.1c", "a permanent is chosen twice"));
    }
    Ok(())
}

/// "Search … for up to that many" after "sacrifice any number of": the count is up to the number
/// of permanents actually sacrificed (Scapeshift), so sacrificing none asks for up to zero cards.
pub fn up_to_that_many(sacrificed: usize) -> Count {
    Count::UpTo(u32::try_from(sacrificed).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_subset_of_the_options_is_legal() {
        assert!(check_any_number(&[], &[1, 2]).is_ok());
        assert!(check_any_number(&[2, 1], &[1, 2]).is_ok());
    }

    #[test]
    fn a_card_outside_the_options_or_twice_is_not() {
        assert_eq!(check_any_number(&[3], &[1, 2]).unwrap_err().clause, "701.21a");
        assert_eq!(check_any_number(&[1, 1], &[1, 2]).unwrap_err().clause, "107.1c");
    }

    #[test]
    fn that_many_is_up_to_the_number_sacrificed() {
        assert_eq!(up_to_that_many(0), Count::UpTo(0));
        assert_eq!(up_to_that_many(3), Count::UpTo(3));
    }
}
