//! CR 101.4: APNAP order.
//!
//! Seats are numbered in turn order with the active player at seat 0, so APNAP order is seat
//! order; this module is the one place that knows it.

use crate::model::PlayerId;

/// Players in APNAP order (101.4): the active player, then the others in turn order. Used for
/// simultaneous choices such as several players searching at once (701.23i) and for putting
/// triggered abilities on the stack (603.3b).
pub fn apnap_order(players: usize) -> Vec<PlayerId> {
    (0..players).collect()
}

/// The opponents of `player` in a free-for-all game (every other player), in APNAP order.
pub fn opponents(player: PlayerId, players: usize) -> Vec<PlayerId> {
    apnap_order(players).into_iter().filter(|&p| p != player).collect()
}

/// Bit for one player in a knowledge set.
pub fn bit(player: PlayerId) -> u8 {
    1u8 << player
}
