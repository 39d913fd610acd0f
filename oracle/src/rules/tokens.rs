//! CR 111: tokens — predefined tokens (111.10f Clue) and investigate (701.16a).

use std::sync::Arc;

use crate::cards::def::CardDef;
use crate::model::{Game, ObjId, ZoneRef};

/// 701.16a: investigating creates a Clue token, the predefined token of 111.10f.
pub fn clue(game: &Game) -> Option<Arc<CardDef>> {
    game.token_defs.get("Clue").cloned()
}

/// The token definition an id of the form `<token name>-token-<n>` refers to, if any.
pub fn token_def_for_id<'a>(game: &'a Game, id: &str) -> Option<&'a Arc<CardDef>> {
    let (slug, n) = id.rsplit_once("-token-")?;
    n.parse::<u32>().ok().filter(|&n| n > 0)?;
    game.token_defs.values().find(|d| crate::yaml::slug(&d.name) == slug)
}

/// Token ids are `<token name in lower case>-token-<n>`, numbered from 1 in creation order over
/// the whole scenario — the id an engine reports for the token it created n-th.
pub fn token_id(def: &CardDef, n: u32) -> String {
    format!("{}-token-{n}", crate::yaml::slug(&def.name))
}

/// 111.7 / 704.5d: a token that has left the battlefield ceases to exist, so a token moved from
/// the battlefield to any other zone (a graveyard, exile, a library Nth from the top) is gone
/// from it at once and changes nothing there; 704.5e: so is a copy of a card that left the stack.
pub fn ceases_to_exist(game: &Game, obj: ObjId, from: ZoneRef) -> bool {
    let o = game.obj(obj);
    (o.token && from == ZoneRef::Battlefield && o.zone != ZoneRef::Battlefield)
        || (o.copy && from == ZoneRef::Stack && o.zone != ZoneRef::Stack)
}
