//! The legend rule (704.5j): a player who controls two or more legendary permanents with the
//! same name chooses one of them, and the rest are put into their owners' graveyards, as a
//! state-based action.
//!
//! The oracle doesn't model that choice: a scenario can't start in a state the rule would
//! already have changed (the state-based action happens before any player gets priority, 704.3),
//! and a run that reaches such a state stops as unsupported rather than keep every copy on the
//! battlefield (which would let both act, a wrong outcome).

use crate::cards::def::Supertype;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};

/// Each group of permanents that breaks the legend rule: the player controlling them, their name,
/// and the permanents (two or more). A face-down permanent has no name (708.2a), so it is never in
/// a group.
pub fn legend_rule_groups(game: &Game) -> Vec<(PlayerId, String, Vec<ObjId>)> {
    let mut groups: Vec<(PlayerId, String, Vec<ObjId>)> = Vec::new();
    for &o in game.zone(ZoneRef::Battlefield) {
        let obj = game.obj(o);
        if !obj.chars.supertypes.contains(&Supertype::Legendary) || obj.chars.names.is_empty() {
            continue;
        }
        let name = obj.chars.names.join(" // ");
        match groups.iter_mut().find(|(p, n, _)| *p == obj.controller && *n == name) {
            Some((_, _, members)) => members.push(o),
            None => groups.push((obj.controller, name, vec![o])),
        }
    }
    groups.retain(|(_, _, members)| members.len() > 1);
    groups
}

/// What to say about a group that breaks the legend rule.
pub fn describe(game: &Game, (player, name, members): &(PlayerId, String, Vec<ObjId>)) -> String {
    let ids: Vec<&str> = members.iter().map(|&o| game.obj(o).id.as_ref()).collect();
    format!(
        "{} controls {} legendary permanents named {name} ({}): the legend rule (704.5j) has them keep one and put \
         the rest into their owners' graveyards, a choice the oracle doesn't model",
        game.players[*player].name,
        members.len(),
        ids.join(", ")
    )
}
