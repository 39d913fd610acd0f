//! Choosing a card name (CR 201.3 with 709.4a for split cards).

use std::collections::BTreeSet;

use crate::effects::Filter;
use crate::model::Game;
use crate::rules::Violation;
use crate::rules::characteristics::{face_chars, matches};

/// Names a player may choose that belong to cards in the game: each face of a split card
/// separately (709.4a: one of its names, never both), filtered by the kind of card named.
pub fn nameable(game: &Game, filter: &Filter) -> Vec<String> {
    let mut names = BTreeSet::new();
    for o in &game.objs {
        if o.token {
            continue;
        }
        for face in o.def.faces() {
            if matches(&face_chars(face), filter, None) {
                names.insert(face.name.clone());
            }
        }
    }
    names.into_iter().collect()
}

/// 709.4a: a split card's combined name ("Cease // Desist") is not a card name; one of its halves'
/// names is. A name of a card that isn't in the game may be chosen (it finds nothing), but it must
/// not be the name of a card in the game that doesn't fit the filter.
pub fn check_name(game: &Game, name: &str, filter: &Filter) -> Result<(), Violation> {
    if name.contains(" // ") {
        return Err(Violation::new(
            "709.4a",
            format!("`{name}` names both halves of a split card; a player chooses one of its names, not both"),
        ));
    }
    let in_game_unfit = game
        .objs
        .iter()
        .any(|o| o.def.faces().iter().any(|f| f.name == name && !matches(&face_chars(f), filter, None)));
    if in_game_unfit && !nameable(game, filter).iter().any(|n| n == name) {
        return Err(Violation::new(
            "201.3",
            format!("`{name}` is not the name of a card that is {}", crate::effects::describe_filter(filter)),
        ));
    }
    Ok(())
}
