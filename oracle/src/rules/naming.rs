//! Choosing a card name (CR 201.4 with 709.4a for split cards).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use crate::cards::CardPool;
use crate::cards::instructions::Filter;
use crate::model::Chars;
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
        // 201.4f: an adventurer card's Adventure name may be chosen too, judged by the Adventure's
        // characteristics.
        for face in o.def.face_slice().iter().chain(o.def.adventure.as_deref()) {
            if matches(&face_chars(face), filter, None) {
                names.insert(face.name.clone());
            }
        }
    }
    names.into_iter().collect()
}

/// What the oracle knows about a name beyond the game: the faces of the real cards of the bundled
/// pool that carry it (card or token), so a name is judged by the card it belongs to even when no
/// such card is in the game.
fn pool_faces() -> &'static BTreeMap<String, Vec<(bool, Chars)>> {
    static FACES: OnceLock<BTreeMap<String, Vec<(bool, Chars)>>> = OnceLock::new();
    FACES.get_or_init(|| {
        let mut out: BTreeMap<String, Vec<(bool, Chars)>> = BTreeMap::new();
        if let Ok(pool) = CardPool::bundled() {
            for def in pool.cards() {
                for face in def.face_slice().iter().chain(def.adventure.as_deref()) {
                    out.entry(face.name.clone()).or_default().push((def.token, face_chars(face)));
                }
            }
        }
        out
    })
}

/// The name as the oracle spells it, for a name an engine wrote in another way: spaces trimmed,
/// a split card's two names joined by " // " however they were spaced, and the spelling of a card
/// name the oracle knows (in the game or the bundled pool) when it differs only in letter case.
/// Names the oracle doesn't know come back trimmed.
pub fn canonical_name(game: &Game, name: &str) -> String {
    let joined: Vec<&str> = name.split("//").map(str::trim).collect();
    let name = joined.join(" // ");
    let known = game
        .objs
        .iter()
        .flat_map(|o| o.def.face_slice().iter().map(|f| f.name.clone()))
        .chain(game.token_defs.keys().cloned())
        .chain(pool_faces().keys().cloned())
        .find(|k| k.eq_ignore_ascii_case(&name));
    known.unwrap_or(name)
}

/// Checks a chosen card name (201.4 and its subrules, 709.4a). The name must be a card's name —
/// one of a split card's names, not both together (709.4a) — and not the name of a token that no
/// card has (a Clue); a name chosen "with" a quality ("a nonland card name") must be the name of
/// a card with that quality, so the name of a land card (Plains, Hallowed Fountain) can't be
/// chosen for it, whether or not such a card is in the game. A name the oracle doesn't know at
/// all (a real card outside the bundled pool) may be chosen: it finds nothing.
pub fn check_name(game: &Game, name: &str, filter: &Filter) -> Result<(), Violation> {
    if name.contains(" // ") {
        return Err(Violation::new(
            "709.4a",
            format!("`{name}` names both halves of a split card; a player chooses one of its names, not both"),
        ));
    }
    // Every face with this name: of objects in the game (their own definitions, hypothetical
    // cards included) and of the bundled pool. `true` marks a token's.
    let mut faces: Vec<(bool, Chars)> = game
        .objs
        .iter()
        .flat_map(|o| {
            o.def.face_slice().iter().filter(|f| f.name == name).map(|f| (o.token || o.def.token, face_chars(f)))
        })
        .collect();
    faces.extend(game.token_defs.get(name).map(|d| (true, face_chars(d))));
    faces.extend(pool_faces().get(name).cloned().unwrap_or_default());
    let cards: Vec<&Chars> = faces.iter().filter(|(token, _)| !token).map(|(_, c)| c).collect();
    if cards.is_empty() && !faces.is_empty() {
        return Err(Violation::new("201.4", format!("`{name}` is the name of a token, not of a card")));
    }
    if !cards.is_empty() && !cards.iter().any(|c| matches(c, filter, None)) {
        return Err(Violation::new(
            "201.4a",
            format!(
                "`{name}` is not the name of a card that is {}",
                crate::cards::instructions::describe_filter(filter)
            ),
        ));
    }
    Ok(())
}
