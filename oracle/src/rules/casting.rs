//! CR 601 / 701.5 casting, with the parts of 702.34 (flashback), 709.3 (casting one half of a
//! split card) and 118.9 (casting without paying the mana cost) that decide whether and how a
//! card may be cast.

use crate::cards::def::{CardDef, CardType, Keyword};
use crate::cards::instructions::Filter;
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::Violation;
use crate::rules::characteristics::{matches, stack_chars};

/// Where a spell is cast from and how its mana cost is paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CastMode {
    /// From hand, paying the mana cost (701.5a).
    Normal,
    /// From the graveyard, paying the flashback cost instead (702.34a) — an alternative cost.
    Flashback,
    /// From hand, paying the card's printed alternative cost rather than its mana cost (118.9),
    /// which its condition must allow (Archive Trap).
    AlternativeCost,
    /// As part of an effect, without paying the mana cost (118.9): no alternative cost can be
    /// used with it, X is 0 (107.3b), additional costs may or must still be paid.
    WithoutPaying,
    /// From the library, in the middle of a search, paying the mana cost: the card's own
    /// permission (601.3, Panglacial Wurm), which [`castable_while_searching`] decides. The
    /// permission names the moment — while the search goes on — so the usual timing of the
    /// card's type (307.1, 117.1a) doesn't apply, as for a spell an effect lets a player cast
    /// during a resolution.
    WhileSearching,
}

/// 601.3: a spell may be begun only where a rule or an effect allows it. Panglacial Wurm's "while
/// you're searching your library, you may cast this card from your library" allows it for one
/// player at one moment: its owner, while that player searches their own library — not while
/// another player searches it (that player isn't "you"), nor while the owner searches anything
/// else. And the card must be among the cards the search covers: a search that a replacement
/// limited to the top N cards (701.23f, Aven Mindcensor) covers only those, so a copy deeper down
/// is not being searched and can't be cast (the answer on boardgames.stackexchange.com/questions/
/// 50495 that cards.md records). The cards of `looked_at` (what `searcher` looks at in `whose`
/// library) that `searcher` may cast this way; the split second and "can't" checks of every cast
/// come after (702.61a, 101.2).
pub fn castable_while_searching(game: &Game, searcher: PlayerId, whose: PlayerId, looked_at: &[ObjId]) -> Vec<ObjId> {
    use crate::cards::instructions::StaticAbility;
    if searcher != whose {
        return Vec::new();
    }
    looked_at
        .iter()
        .copied()
        .filter(|&o| {
            let obj = game.obj(o);
            obj.zone == ZoneRef::Library(searcher)
                && obj.owner == searcher
                && obj
                    .def
                    .face_slice()
                    .iter()
                    .any(|f| f.statics.contains(&StaticAbility::CastFromLibraryWhileSearching))
        })
        .collect()
}

/// 702.34a: flashback lets a card be cast from its owner's graveyard when it has flashback
/// (printed, or granted by an effect) and the resulting spell is an instant or sorcery.
pub fn check_flashback(game: &Game, card: ObjId, caster: PlayerId, face: Option<usize>) -> Result<(), Violation> {
    let o = game.obj(card);
    if o.zone != ZoneRef::Graveyard(caster) {
        return Err(Violation::new(
            "702.34a",
            format!("{} is not in its caster's graveyard, so flashback can't cast it", o.id),
        ));
    }
    if !(o.chars.keywords.contains(&Keyword::Flashback) || o.flags.granted_flashback) {
        return Err(Violation::new("702.34a", format!("{} doesn't have flashback", o.id)));
    }
    let types = stack_chars(&o.def, face).types;
    if !(types.contains(&CardType::Instant) || types.contains(&CardType::Sorcery)) {
        return Err(Violation::new("702.34a", format!("{} would not be an instant or sorcery spell", o.id)));
    }
    Ok(())
}

/// 118.9a: at most one alternative cost may be applied to a spell. Flashback is one (702.34a:
/// "rather than paying its mana cost"), so a cast can't pay a flashback cost and a printed
/// alternative cost (prowl, Archive Trap's) together.
pub fn check_one_alternative_cost(flashback: bool, alternative_cost: bool) -> Result<(), Violation> {
    if flashback && alternative_cost {
        return Err(Violation::new(
            "118.9a",
            "flashback and the card's alternative cost are both alternative costs, and only one can be applied to a spell",
        ));
    }
    Ok(())
}

/// 118.9: a spell may be cast for its printed alternative cost only if it has one and its
/// condition holds — for Archive Trap, an opponent of the caster searched their own library this
/// turn (the Archive Trap rulings: finding nothing counts, a search Aven Mindcensor limited counts).
pub fn check_alternative_cost(game: &Game, card: ObjId, caster: PlayerId) -> Result<(), Violation> {
    use crate::cards::instructions::AlternativeCostCondition;
    let o = game.obj(card);
    let Some(alt) = &o.def.alternative_cost else {
        return Err(Violation::new("118.9", format!("{} has no alternative cost", o.id)));
    };
    let (holds, clause, why) = match alt.condition {
        AlternativeCostCondition::OpponentSearchedTheirLibraryThisTurn => (
            crate::rules::apnap::opponents(caster, game.players.len())
                .into_iter()
                .any(|p| game.searched_own_library & crate::rules::apnap::bit(p) != 0),
            "118.9",
            "no opponent searched their library this turn",
        ),
        AlternativeCostCondition::Prowl => (
            prowl_allowed(game, card, caster),
            "702.76a",
            "its caster dealt no combat damage to a player this turn with a creature of its creature types",
        ),
    };
    if holds {
        Ok(())
    } else {
        Err(Violation::new(clause, format!("{}'s alternative cost {} can't be paid: {why}", o.id, alt.cost)))
    }
}

/// 702.76a: a spell's prowl cost may be paid only if its caster dealt combat damage to a player
/// this turn with a creature they controlled that had one of the spell's creature types then (for
/// Knowledge Exploitation, a Kindred Rogue sorcery, a Rogue: 308.3 makes a Kindred card's subtypes
/// creature types). The oracle plays no combat: the scenario states the creature types of the
/// creatures each player dealt combat damage to a player with this turn.
pub fn prowl_allowed(game: &Game, card: ObjId, caster: PlayerId) -> bool {
    let types = &game.obj(card).chars.subtypes;
    game.dealt_combat_damage_with.get(caster).is_some_and(|dealt| dealt.iter().any(|t| types.contains(t)))
}

/// 107.3 / seed 003 ruling (R003-14): X is chosen by the caster, but is 0 when the spell is cast
/// without paying its mana cost.
pub fn x_value(face: &CardDef, whole: &CardDef, mode: CastMode, x: Option<u32>) -> Result<u32, Violation> {
    let has_x = face.has_x() || whole.has_x();
    match (has_x, mode, x) {
        (false, _, None) => Ok(0),
        (false, _, Some(_)) => Err(Violation::new("107.3", format!("{} has no X in its mana cost", face.name))),
        (true, CastMode::WithoutPaying, None | Some(0)) => Ok(0),
        (true, CastMode::WithoutPaying, Some(v)) => Err(Violation::new(
            "107.3b",
            format!("X must be 0 when {} is cast without paying its mana cost, not {v}", face.name),
        )),
        (true, _, Some(v)) => Ok(v),
        (true, _, None) => Err(Violation::new("107.3", format!("casting {} needs a value for X", face.name))),
    }
}

/// 709.3a: only the half being cast is considered when an effect allows casting a spell with
/// certain characteristics (seed 003 ruling R003-19: Cease fits "mana value 2 or less", Desist
/// doesn't). A whole card is considered with its characteristics on the stack.
pub fn spell_matches(def: &CardDef, face: Option<usize>, filter: &Filter) -> bool {
    matches(&stack_chars(def, face), filter, None)
}

/// 202.1b, 118.6: a card with no mana symbols where its mana cost would be (Ancestral Vision)
/// has no mana cost, which is an unpayable cost: it can't be cast by paying it, only without
/// paying its mana cost (suspend, Guile) or for an alternative cost. `cost` is the cost the cast
/// pays (its mana cost, or a flashback cost that is its mana cost), `None` when it has none.
pub fn check_mana_cost_payable(name: &str, cost: Option<&str>) -> Result<(), Violation> {
    match cost {
        Some(_) => Ok(()),
        None => Err(Violation::new(
            "118.6",
            format!("{name} has no mana cost (202.1b), so it can't be cast by paying its mana cost"),
        )),
    }
}

/// 601.2c: a spell that has targets can be cast only if its caster can choose a legal target for
/// each of them, so a spell offered to be cast during a resolution (Guile's exiled spell, a
/// suspended card's free cast) with no legal choice of targets isn't offered at all. `choices` is
/// how many legal choices of targets there are, `None` for a spell without targets.
pub fn has_legal_targets(choices: Option<usize>) -> bool {
    choices != Some(0)
}

/// The (card, half) pairs of a split card or an ordinary card that could be cast: a split card
/// offers each half separately (709.3), never both; an adventurer card is cast normally or as its
/// Adventure, its caster's choice (715.3).
pub fn castable_faces(def: &CardDef) -> Vec<Option<usize>> {
    if def.is_split() {
        (0..def.split.len()).map(Some).collect()
    } else if def.adventure.is_some() {
        vec![None, Some(ADVENTURE)]
    } else {
        vec![None]
    }
}

/// The `face` value meaning both halves of a split card cast together with fuse (702.102).
pub const FUSED: usize = usize::MAX;

/// The `face` value meaning an adventurer card cast as its Adventure (715.3).
pub use crate::cards::def::ADVENTURE;

/// The face being cast: a half of a split card (709.3), the whole card, or — fused — both halves
/// at once, whose characteristics on the stack are the two halves combined (709.4d) and whose
/// instructions are the left half's then the right half's (702.102d). Borrowed unless fused: every
/// spell cast and resolved asks for its face.
pub fn face_def(def: &CardDef, face: Option<usize>) -> std::borrow::Cow<'_, CardDef> {
    match face {
        Some(FUSED) if def.is_split() => {
            let mut spell = crate::cards::def::SpellAbility::default();
            for half in &def.split {
                if let Some(s) = &half.spell {
                    spell.targets.extend(s.targets.iter().cloned());
                    spell.effect.extend(s.effect.iter().cloned());
                }
            }
            let unmodelled = def.split.iter().find_map(|h| h.unmodelled.clone());
            std::borrow::Cow::Owned(CardDef {
                name: def.name.clone(),
                mana_cost: Some(def.split.iter().filter_map(|h| h.mana_cost.clone()).collect::<String>()),
                types: def.split.iter().flat_map(|h| h.types.iter().copied()).collect(),
                spell: Some(spell),
                unmodelled,
                ..CardDef::default()
            })
        }
        f => std::borrow::Cow::Borrowed(def.cast_face(f)),
    }
}

/// 702.102a: both halves may be cast together only from the hand, and only if the card has fuse.
pub fn check_fuse(game: &Game, card: ObjId, caster: PlayerId) -> Result<(), Violation> {
    let o = game.obj(card);
    if !o.def.face_slice().iter().any(|f| f.keywords.contains(&Keyword::Fuse)) {
        return Err(Violation::new(
            "702.102a",
            format!("{} has no fuse, so only one of its halves can be cast (709.3)", o.id),
        ));
    }
    if o.zone != ZoneRef::Hand(caster) {
        return Err(Violation::new("702.102a", format!("{} can be fused only when cast from its owner's hand", o.id)));
    }
    Ok(())
}

/// 305.1, 305.9: a land card is played (a special action), never cast — a card that is a land
/// and something else too (Dryad Arbor) can only be played as a land.
pub fn check_not_a_land(def: &CardDef, face: Option<usize>) -> Result<(), Violation> {
    let f = def.cast_face(face);
    if !f.types.contains(&CardType::Land) {
        return Ok(());
    }
    if f.types.len() > 1 {
        return Err(Violation::new(
            "305.9",
            format!("{} is a land as well as another card type, so it can only be played as a land, not cast", f.name),
        ));
    }
    Err(Violation::new("305.1", format!("{} is a land card: it is played, not cast", f.name)))
}

/// A land is played, not cast (305.1, 305.9; see [`check_not_a_land`]).
pub fn is_castable(def: &CardDef, face: Option<usize>) -> bool {
    let f = def.cast_face(face);
    !f.types.contains(&CardType::Land) && !f.types.is_empty()
}

/// One part of a total cost that moves a card (602.2b: an activation cost is paid as a spell's
/// total cost is, 601.2h). Tapping moves nothing and is left out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CostPart {
    /// Discard this card (cycling and the like).
    DiscardThis(ObjId),
    /// Discard another card.
    Discard(ObjId),
    /// Sacrifice this permanent.
    SacrificeThis(ObjId),
    /// Sacrifice another permanent.
    Sacrifice(ObjId),
    /// Mill N cards.
    Mill(u32),
}

/// 601.2h (602.2b for abilities): the player pays the parts of a total cost in any order they
/// like. The order changes what happens only when a mill is paid next to a part that moves
/// another card, which a replacement effect may send into that library (a sacrificed Gravebane
/// Zombie goes on top of the library the mill then takes from), so only then is it a choice.
pub fn cost_order_matters(parts: &[CostPart]) -> bool {
    parts.len() >= 2 && parts.iter().any(|p| matches!(p, CostPart::Mill(_)))
}

/// 601.2h: an order of the cost parts pays each part once.
pub fn check_cost_order(order: &[usize], parts: usize) -> Result<(), Violation> {
    let mut seen = vec![false; parts];
    for &i in order {
        if i >= parts || std::mem::replace(&mut seen[i], true) {
            return Err(Violation::new("601.2h", format!("{order:?} doesn't pay each of the {parts} cost parts once")));
        }
    }
    if order.len() != parts {
        return Err(Violation::new("601.2h", format!("{order:?} doesn't pay each of the {parts} cost parts once")));
    }
    Ok(())
}

/// 117.1a: a player with priority may cast an instant spell at any time, and any other spell
/// only during their own main phase while the stack is empty (307.1 for sorceries; the rules for
/// each permanent type say the same). Flash (702.8a) lets a card be cast whenever an instant
/// could be. Flashback (702.34a) changes where a card is cast from and what is paid, not when.
/// The oracle has no turn structure: a spell cast with an empty stack is taken to be cast in its
/// caster's own main phase, so only the empty stack is checked. `stack_empty` is whether the
/// stack is empty as the spell is cast; `as_though_flash` whether an effect lets its caster cast
/// it as though it had flash ([`casts_as_though_flash`]).
pub fn check_timing(
    chars: &crate::model::Chars,
    name: &str,
    stack_empty: bool,
    as_though_flash: bool,
) -> Result<(), Violation> {
    if stack_empty || as_though_flash || has_instant_timing(chars) {
        return Ok(());
    }
    Err(Violation::new(
        "117.1a",
        format!("{name} is not an instant and has no flash, so it can't be cast while the stack isn't empty"),
    ))
}

/// 702.53a: an ability that may be activated "only as a sorcery" (transmute) needs an empty
/// stack; the main-phase half of that timing has no counterpart in the oracle, which has no turns.
pub fn check_activation_timing(ability: &str, card: &str, stack_empty: bool) -> Result<(), Violation> {
    if stack_empty {
        return Ok(());
    }
    Err(Violation::new(
        "702.53a",
        format!("{card}'s {ability} may be activated only as a sorcery, so not while the stack isn't empty"),
    ))
}

/// 117.1a, 702.8a: whether a spell with these characteristics may be cast whenever an instant
/// could be (it is an instant or has flash); any other spell has sorcery timing.
pub fn has_instant_timing(chars: &crate::model::Chars) -> bool {
    chars.types.contains(&CardType::Instant) || chars.keywords.contains(&Keyword::Flash)
}

/// 702.8a, 117.1a: whether `player` controls a face-up permanent saying "you may cast spells as
/// though they had flash" (Vedalken Orrery), so that every spell they cast has instant timing.
pub fn casts_as_though_flash(game: &Game, player: PlayerId) -> bool {
    game.zone(ZoneRef::Battlefield).iter().map(|&p| game.obj(p)).any(|o| {
        o.controller == player
            && !o.face_down
            && o.def
                .face_slice()
                .iter()
                .any(|f| f.statics.contains(&crate::cards::instructions::StaticAbility::CastSpellsAsThoughFlash))
    })
}

/// 305.1 (with 116.2a): a land is played only while the stack is empty, during its player's own
/// main phase — the same timing as a sorcery, which no effect in the card pool changes. As for
/// spells (`check_timing`), the oracle has no turns, so only the empty stack is checked.
pub fn check_land_timing(name: &str, stack_empty: bool) -> Result<(), Violation> {
    if stack_empty {
        return Ok(());
    }
    Err(Violation::new("305.1", format!("{name} can't be played as a land while the stack isn't empty")))
}

/// 601.2f, 701.21a: an additional cost "sacrifice a \[quality\] permanent" can be paid only with a
/// permanent on the battlefield that the caster controls and that has that quality as the cost is
/// paid; a spell can't pay for itself, and one permanent pays it once.
pub fn check_sacrifice_cost(game: &Game, caster: PlayerId, permanent: ObjId, filter: &Filter) -> Result<(), Violation> {
    let o = game.obj(permanent);
    if o.zone != ZoneRef::Battlefield || o.controller != caster {
        return Err(Violation::new(
            "701.21a",
            format!("{} is not a permanent its caster controls, so it can't be sacrificed to pay the cost", o.id),
        ));
    }
    if !matches(&o.chars, filter, None) {
        return Err(Violation::new(
            "601.2f",
            format!(
                "{} isn't what the cost asks to sacrifice ({})",
                o.id,
                crate::cards::instructions::describe_filter(filter)
            ),
        ));
    }
    Ok(())
}

/// The permanents `caster` could sacrifice to pay a "sacrifice a \[quality\] permanent" cost now.
pub fn sacrifice_cost_options(game: &Game, caster: PlayerId, filter: &Filter) -> Vec<ObjId> {
    game.zone(ZoneRef::Battlefield)
        .iter()
        .copied()
        .filter(|&o| check_sacrifice_cost(game, caster, o, filter).is_ok())
        .collect()
}

/// 107.4f: how many Phyrexian mana symbols (`{B/P}`, `{2/G/P}`…) a cost has. Each may be paid
/// with one mana of its colour or with 2 life.
pub fn phyrexian_symbols(cost: &str) -> u32 {
    let count = cost
        .split('{')
        .filter_map(|part| part.split_once('}').map(|(sym, _)| sym))
        .filter(|sym| sym.split('/').any(|p| p.eq_ignore_ascii_case("p")))
        .count();
    u32::try_from(count).unwrap_or(u32::MAX)
}

/// 107.4f: each Phyrexian mana symbol of a cost paid with life costs 2 life.
pub const LIFE_PER_PHYREXIAN_SYMBOL: u32 = 2;

/// The life a caster pays for paying `paid_with_life` of the Phyrexian mana symbols of `cost` (the
/// cost being paid; `None` when none is) with life rather than mana (107.4f): 2 each. Only a
/// Phyrexian symbol may be paid with life (107.4f), and the life only by a caster with at least
/// that much (119.4). Mana isn't modelled, so paying a symbol with mana changes nothing the
/// oracle sees; which way each is paid is the caster's choice, part of the cost paid (601.2h).
pub fn check_phyrexian_life(cost: Option<&str>, paid_with_life: u32, life: i32) -> Result<u32, Violation> {
    if paid_with_life == 0 {
        return Ok(0);
    }
    let symbols = cost.map_or(0, phyrexian_symbols);
    if paid_with_life > symbols {
        return Err(Violation::new(
            "107.4f",
            format!(
                "only a Phyrexian mana symbol can be paid with 2 life, and the cost paid ({}) has {symbols}, not {paid_with_life}",
                cost.unwrap_or("none")
            ),
        ));
    }
    let amount = paid_with_life.saturating_mul(LIFE_PER_PHYREXIAN_SYMBOL);
    crate::rules::life::check_pay_life(life, amount)?;
    Ok(amount)
}

/// 601.2c: targets "from a single graveyard" (Cease) must all be cards in the same graveyard as
/// they are chosen; none, or one, always is.
pub fn check_single_graveyard(game: &Game, cards: &[ObjId]) -> Result<(), Violation> {
    let zones: Vec<ZoneRef> = cards.iter().map(|&c| game.obj(c).zone).collect();
    if zones.iter().any(|z| !matches!(z, ZoneRef::Graveyard(_))) || zones.windows(2).any(|w| w[0] != w[1]) {
        return Err(Violation::new("601.2c", "the target cards must all be in a single graveyard"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::{check_activation_timing, check_phyrexian_life, phyrexian_symbols};

    #[test]
    fn phyrexian_symbols_are_counted_in_any_colour_and_hybrid_form() {
        assert_eq!(phyrexian_symbols("{B/P}"), 1);
        assert_eq!(phyrexian_symbols("{1}{G/P}{G/P}{2/W/P}"), 3);
        assert_eq!(phyrexian_symbols("{1}{B}{U/B}"), 0);
    }

    #[test]
    fn phyrexian_life_is_two_per_symbol_and_needs_that_much_life() {
        assert_eq!(check_phyrexian_life(Some("{B/P}"), 0, 0), Ok(0));
        assert_eq!(check_phyrexian_life(Some("{B/P}"), 1, 2), Ok(2));
        assert_eq!(check_phyrexian_life(Some("{B/P}"), 1, 1).map_err(|v| v.clause), Err("119.4"));
        assert_eq!(check_phyrexian_life(Some("{B/P}"), 2, 20).map_err(|v| v.clause), Err("107.4f"));
        assert_eq!(check_phyrexian_life(Some("{1}{B}"), 1, 20).map_err(|v| v.clause), Err("107.4f"));
        assert_eq!(check_phyrexian_life(None, 1, 20).map_err(|v| v.clause), Err("107.4f"));
    }

    #[test]
    fn only_as_a_sorcery_needs_an_empty_stack() {
        assert!(check_activation_timing("transmute", "muddle", true).is_ok());
        let refused = check_activation_timing("transmute", "muddle", false).expect_err("stack not empty");
        assert_eq!(refused.clause, "702.53a");
    }
}
