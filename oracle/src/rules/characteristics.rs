//! Characteristics the search rules read: names, mana value, colours, types (CR 109.3, 202, 205)
//! and how split cards combine them (CR 709).

use std::collections::BTreeSet;

use crate::cards::def::{CardDef, CardType, Color, Keyword};
use crate::cards::instructions::Filter;
use crate::model::Chars;

/// Mana value of a mana cost (202.3): each generic number counts its value, every other symbol
/// (coloured, hybrid, Phyrexian, colourless) counts one, a monocoloured hybrid symbol such as
/// {2/W} counts its larger part (202.3f), X counts zero (202.3e, off the stack). Saturates rather
/// than overflowing on absurd inline costs.
pub fn mana_value(cost: &str) -> u32 {
    symbols(cost)
        .map(|sym| {
            let first = sym.split('/').next().unwrap_or(sym);
            if let Ok(n) = first.parse::<u32>() {
                n
            } else if sym.eq_ignore_ascii_case("x") || sym.eq_ignore_ascii_case("y") {
                0
            } else {
                1
            }
        })
        .fold(0u32, u32::saturating_add)
}

/// Colours of a mana cost (202.2): every coloured mana symbol, hybrid symbols giving both.
pub fn cost_colors(cost: &str) -> BTreeSet<Color> {
    let mut colors = BTreeSet::new();
    for sym in symbols(cost) {
        for c in sym.chars() {
            let color = match c.to_ascii_uppercase() {
                'W' => Color::White,
                'U' => Color::Blue,
                'B' => Color::Black,
                'R' => Color::Red,
                'G' => Color::Green,
                _ => continue,
            };
            colors.insert(color);
        }
    }
    colors
}

fn symbols(cost: &str) -> impl Iterator<Item = &str> {
    cost.split('{').filter_map(|part| part.split_once('}').map(|(sym, _)| sym))
}

/// Characteristics of one face (an ordinary card, or one half of a split card).
pub fn face_chars(face: &CardDef) -> Chars {
    let cost = face.mana_cost.as_deref().unwrap_or("");
    let mut keywords: BTreeSet<Keyword> = face.keywords.iter().copied().collect();
    if face.flashback.is_some() {
        keywords.insert(Keyword::Flashback);
    }
    if face.dredge.is_some() {
        keywords.insert(Keyword::Dredge);
    }
    // 702.29f: an effect that looks for a card with cycling finds a card with typecycling.
    if face.abilities.iter().any(|a| a.cycling) {
        keywords.insert(Keyword::Cycling);
    }
    Chars {
        names: vec![face.name.clone()],
        mana_value: mana_value(cost),
        colors: match &face.colors {
            Some(colors) => colors.iter().copied().collect(),
            None => cost_colors(cost),
        },
        types: face.types.iter().copied().collect(),
        subtypes: face.subtypes.iter().cloned().collect(),
        supertypes: face.supertypes.iter().copied().collect(),
        keywords,
        mana_symbols: symbols(cost).map(str::to_string).collect(),
    }
}

/// Characteristics of a card in any zone but the stack (709.4): a split card's are those of its
/// two halves combined — both names, the summed mana value, every colour and type. An adventurer
/// card's are its normal ones only (715.4): the Adventure's name, type and mana value are not
/// there to be found by a search, unlike a split card's halves.
pub fn card_chars(def: &CardDef) -> Chars {
    if !def.is_split() {
        return face_chars(def);
    }
    let mut combined = Chars::default();
    for half in &def.split {
        let c = face_chars(half);
        combined.names.extend(c.names);
        combined.mana_value = combined.mana_value.saturating_add(c.mana_value);
        combined.colors.extend(c.colors);
        combined.types.extend(c.types);
        combined.subtypes.extend(c.subtypes);
        combined.supertypes.extend(c.supertypes);
        combined.keywords.extend(c.keywords);
        combined.mana_symbols.extend(c.mana_symbols);
    }
    combined
}

/// Characteristics of a face-down object: a face-down permanent is a 2/2 creature with no name,
/// subtypes or mana cost (708.2a); a card exiled face down has none at all (406.3a).
pub fn face_down_chars(on_battlefield: bool) -> Chars {
    let mut chars = Chars::default();
    if on_battlefield {
        chars.types.insert(CardType::Creature);
    }
    chars
}

/// Characteristics of a spell on the stack (709.3b): only the half being cast exists. A spell
/// cast as an Adventure has only the Adventure's characteristics (715.3b); an adventurer card cast
/// normally has only its own (715.4).
pub fn stack_chars(def: &CardDef, half: Option<usize>) -> Chars {
    if let (Some(crate::rules::casting::ADVENTURE), Some(adventure)) = (half, def.adventure.as_deref()) {
        return face_chars(adventure);
    }
    // A fused split spell (half = usize::MAX) has both halves' characteristics (709.4d).
    match half.and_then(|h| def.split.get(h)) {
        Some(face) => face_chars(face),
        None => card_chars(def),
    }
}

/// True if `chars` has the quality `filter` states. `same_name` is the names of the object the
/// filter's `same_name_as` refers to; the caller treats a missing referent as undefined (701.23c)
/// before asking. An object has a chosen name if any of its names is it (709.4a).
pub fn matches(chars: &Chars, filter: &Filter, same_name: Option<&[String]>) -> bool {
    filter.types.iter().all(|t| chars.types.contains(t))
        && filter.subtypes.iter().all(|t| chars.subtypes.contains(t))
        && filter.supertypes.iter().all(|t| chars.supertypes.contains(t))
        && filter.name.as_ref().is_none_or(|n| chars.names.contains(n))
        && (filter.same_name_as.is_none()
            || same_name.is_some_and(|names| names.iter().any(|n| chars.names.contains(n))))
        && filter.keyword.is_none_or(|k| chars.keywords.contains(&k))
        && filter.mana_value_at_most.is_none_or(|m| chars.mana_value <= m)
        && filter.mana_value_at_least.is_none_or(|m| chars.mana_value >= m)
        && filter.color.is_none_or(|c| chars.colors.contains(&c))
        && (filter.any_of.is_empty() || filter.any_of.iter().any(|f| matches(chars, f, same_name)))
        && filter.not.as_ref().is_none_or(|f| !matches(chars, f, same_name))
        && (!filter.no_repeated_mana_symbol || !has_repeated_symbol(&chars.mana_symbols))
}

/// True if some mana symbol appears more than once (Jegantha's condition; 709.4b).
fn has_repeated_symbol(symbols: &[String]) -> bool {
    let mut seen = BTreeSet::new();
    symbols.iter().any(|s| !seen.insert(s))
}

/// 608.2h: the characteristics an effect uses for object number `object_no` of `o`: its current
/// ones while it is still that object; once it has become a new object (400.7), the ones it had
/// as that object — its last known information. (If it has moved more than once since, the
/// oracle keeps no older information and uses the current characteristics.)
pub fn last_known(o: &crate::model::Obj, object_no: u32) -> &Chars {
    match &o.last_chars {
        Some((no, chars)) if o.object_no != object_no && *no == object_no => chars,
        _ => &o.chars,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mana_value_counts_generic_hybrid_and_x() {
        assert_eq!(mana_value("{2}{G}{G}"), 4);
        assert_eq!(mana_value("{1}{B/G}"), 2);
        assert_eq!(mana_value("{4}{G/W}{G/W}"), 6);
        assert_eq!(mana_value("{X}{R}"), 1);
        assert_eq!(mana_value("{2/W}{2/W}"), 4, "202.3f");
        assert_eq!(mana_value("{4294967295}{1}"), u32::MAX, "saturates");
        assert_eq!(mana_value(""), 0);
    }

    #[test]
    fn split_cards_combine_off_the_stack_and_split_on_it() {
        let half = |name: &str, cost: &str, t: CardType| CardDef {
            name: name.into(),
            mana_cost: Some(cost.into()),
            types: vec![t],
            ..CardDef::default()
        };
        let card = CardDef {
            name: "Cease // Desist".into(),
            split: vec![
                half("Cease", "{1}{B/G}", CardType::Instant),
                half("Desist", "{4}{G/W}{G/W}", CardType::Sorcery),
            ],
            ..CardDef::default()
        };
        let whole = card_chars(&card);
        assert_eq!(whole.mana_value, 8, "709.4: mana value 8 in the library");
        assert_eq!(whole.names, vec!["Cease".to_string(), "Desist".to_string()]);
        assert!(whole.types.contains(&CardType::Instant) && whole.types.contains(&CardType::Sorcery));
        assert_eq!(whole.colors.len(), 3, "white, black and green");
        let cease = stack_chars(&card, Some(0));
        assert_eq!((cease.mana_value, cease.names.clone()), (2, vec!["Cease".to_string()]), "709.3b");
        let filter = Filter { mana_value_at_most: Some(4), ..Filter::default() };
        assert!(!matches(&whole, &filter, None), "a search for mana value 4 or less can't find it");
        assert!(matches(&cease, &filter, None));
    }

    #[test]
    fn hybrid_symbols_give_both_colours() {
        let c = cost_colors("{1}{B/G}");
        assert!(c.contains(&Color::Black) && c.contains(&Color::Green) && c.len() == 2);
    }
}
