//! CR 614: the replacement effects the card pool uses that change where a card goes instead of a
//! graveyard (and 702.34a's "exile instead" for flashback), and CR 616.1: how the affected
//! object's controller chooses among several that apply to one event.

use crate::cards::instructions::Replacement;
use crate::model::{Game, ObjId, ZoneRef};

/// 702.34a: a spell cast with flashback is exiled instead of going anywhere else whenever it would
/// leave the stack — into a graveyard, shuffled into a library, put into a library Nth from the
/// top, or anywhere else. True when `card` is such a spell on the stack now.
pub fn flashback_exiles(game: &Game, card: ObjId) -> bool {
    let o = game.obj(card);
    o.zone == ZoneRef::Stack && o.flags.leaves_stack_to_exile
}

/// 702.34a: where `card` goes instead when it would leave the stack for anywhere but exile, with
/// the clause that sends it there — exile, when it is a spell cast with flashback — or `None`
/// when it goes where it was headed.
pub fn leaving_stack_instead(game: &Game, card: ObjId) -> Option<(ZoneRef, &'static str)> {
    flashback_exiles(game, card).then_some((ZoneRef::Exile, "702.34a"))
}

/// Where a card that would be put into a graveyard goes instead.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GraveyardFate {
    /// Its owner's graveyard, unchanged.
    Graveyard,
    /// Exile: a flashback spell leaving the stack (702.34a), or a spell cast by Jetsam.
    Exile(&'static str),
    /// On top of its owner's library: "if this creature would die" (Gravebane Zombie).
    LibraryTop,
    /// Revealed and shuffled into its owner's library (Darksteel Colossus).
    ShuffledIntoLibrary,
    /// The bottom of its owner's library, not revealed — a hidden zone (701.9c).
    LibraryBottomHidden,
}

/// One replacement effect that can modify a card's move to a graveyard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum GraveyardReplacement {
    /// 702.34a: a spell cast with flashback is exiled instead of going anywhere else.
    FlashbackExile,
    /// 614.1a: "exile it instead" of a spell cast by an effect (Jetsam).
    ExileInstead,
    /// The card's own "reveal it and shuffle it into its owner's library instead" (Darksteel
    /// Colossus).
    ShuffleIntoLibrary,
    /// The card's own "if this creature would die, put it on top of its owner's library
    /// instead" (Gravebane Zombie).
    LibraryTop,
    /// Another permanent's "put it on the bottom of its owner's library instead".
    LibraryBottom,
}

impl GraveyardReplacement {
    /// Every effect, in the order options are offered: the card's own first.
    pub const ALL: [GraveyardReplacement; 5] = [
        GraveyardReplacement::FlashbackExile,
        GraveyardReplacement::ExileInstead,
        GraveyardReplacement::ShuffleIntoLibrary,
        GraveyardReplacement::LibraryTop,
        GraveyardReplacement::LibraryBottom,
    ];

    /// The name scenarios and logs use for it (`replacement {effect: …}`).
    pub fn key(self) -> &'static str {
        match self {
            GraveyardReplacement::FlashbackExile => "flashback_exile",
            GraveyardReplacement::ExileInstead => "exile",
            GraveyardReplacement::ShuffleIntoLibrary => "shuffle_into_library",
            GraveyardReplacement::LibraryTop => "library_top",
            GraveyardReplacement::LibraryBottom => "library_bottom",
        }
    }

    /// The effect with this key.
    pub fn from_key(key: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|r| r.key() == key)
    }

    /// Where the card goes once this effect has modified the event.
    pub fn fate(self) -> GraveyardFate {
        match self {
            GraveyardReplacement::FlashbackExile => GraveyardFate::Exile("702.34a"),
            GraveyardReplacement::ExileInstead => GraveyardFate::Exile("614.1a"),
            GraveyardReplacement::ShuffleIntoLibrary => GraveyardFate::ShuffledIntoLibrary,
            GraveyardReplacement::LibraryTop => GraveyardFate::LibraryTop,
            GraveyardReplacement::LibraryBottom => GraveyardFate::LibraryBottomHidden,
        }
    }
}

/// The replacement effects that would apply to `card`'s move when it is headed for `heading`
/// (first its owner's graveyard; after an effect applied, where that effect sends it), leaving
/// out those already applied (614.5: an effect gets one opportunity at an event). `dies`: the
/// card is leaving the battlefield. 616.1f: after each application the applicable effects are
/// worked out again, so an effect that sent the card elsewhere than a graveyard leaves only
/// effects that still apply to the modified event (flashback's exile applies to a move anywhere).
pub fn applicable(
    game: &Game,
    card: ObjId,
    dies: bool,
    heading: GraveyardFate,
    used: &[GraveyardReplacement],
) -> Vec<GraveyardReplacement> {
    let o = game.obj(card);
    let to_graveyard = heading == GraveyardFate::Graveyard;
    let own: Vec<&Replacement> =
        if o.face_down { Vec::new() } else { o.def.face_slice().iter().flat_map(|f| f.replacements.iter()).collect() };
    let global = game.zone(ZoneRef::Battlefield).iter().any(|&p| {
        let s = game.obj(p);
        !s.face_down
            && applies_yet(game, p)
            && s.def.face_slice().iter().any(|f| f.replacements.contains(&Replacement::AnyCardGraveyardToLibraryBottom))
    });
    GraveyardReplacement::ALL
        .into_iter()
        .filter(|r| !used.contains(r))
        .filter(|r| match r {
            GraveyardReplacement::FlashbackExile => {
                flashback_exiles(game, card) && !matches!(heading, GraveyardFate::Exile(_))
            }
            GraveyardReplacement::ExileInstead => {
                to_graveyard && o.zone == ZoneRef::Stack && o.flags.graveyard_to_exile
            }
            GraveyardReplacement::ShuffleIntoLibrary => {
                to_graveyard && own.contains(&&Replacement::GraveyardToShuffledLibrary)
            }
            GraveyardReplacement::LibraryTop => to_graveyard && dies && own.contains(&&Replacement::DieToLibraryTop),
            GraveyardReplacement::LibraryBottom => to_graveyard && global && !o.token,
        })
        .collect()
}

/// Whether the replacement effects of `permanent`'s static abilities apply to the move being made:
/// a replacement effect modifies events that happen while its source is on the battlefield, and a
/// permanent that enters in the same event as other cards move — found cards put where they go
/// together, by one searcher or by several searching at once (101.4, 701.23i) — wasn't there
/// before that event, so it replaces none of those moves (614.1).
pub fn applies_yet(game: &Game, permanent: ObjId) -> bool {
    let entered_in = game.obj(permanent).flags.entered_in_batch;
    entered_in.is_none() || entered_in != game.open_batch
}

/// Every place `card` can end up when it would be put into a graveyard, over every order in
/// which its controller could apply the effects that apply (616.1e: any of them may be chosen;
/// 616.1f: then again among those that still apply). Without effects, the graveyard.
pub fn possible_fates(game: &Game, card: ObjId, dies: bool) -> Vec<GraveyardFate> {
    fn walk(
        game: &Game,
        card: ObjId,
        dies: bool,
        heading: GraveyardFate,
        used: &mut Vec<GraveyardReplacement>,
        out: &mut Vec<GraveyardFate>,
    ) {
        let options = applicable(game, card, dies, heading, used);
        if options.is_empty() {
            if !out.contains(&heading) {
                out.push(heading);
            }
            return;
        }
        for r in options {
            used.push(r);
            walk(game, card, dies, r.fate(), used, out);
            used.pop();
        }
    }
    let mut out = Vec::new();
    walk(game, card, dies, GraveyardFate::Graveyard, &mut Vec::new(), &mut out);
    out
}

/// Where `card` goes when it would be put into a graveyard, applying the effects in the order
/// `choose` picks whenever more than one applies (616.1: the affected object's controller, or
/// its owner, chooses). `choose` gets the applicable effects and returns the one to apply.
pub fn graveyard_fate_with<E>(
    game: &Game,
    card: ObjId,
    dies: bool,
    mut choose: impl FnMut(&[GraveyardReplacement]) -> Result<GraveyardReplacement, E>,
) -> Result<GraveyardFate, E> {
    let mut heading = GraveyardFate::Graveyard;
    let mut used = Vec::new();
    loop {
        let options = applicable(game, card, dies, heading, &used);
        let pick = match options.as_slice() {
            [] => return Ok(heading),
            [only] => *only,
            _ => choose(&options)?,
        };
        used.push(pick);
        heading = pick.fate();
    }
}

/// 614.1c: "As this land enters, you may pay N life. If you don't, it enters tapped" — the life
/// a permanent's own "as enters" replacement lets its controller-to-be pay to have it enter
/// untapped, if it has one. A face-down permanent has no abilities (708.2).
pub fn as_enters_life_payment(o: &crate::model::Obj) -> Option<u32> {
    if o.face_down {
        return None;
    }
    o.def.face_slice().iter().flat_map(|f| f.replacements.iter()).find_map(|r| match r {
        crate::cards::instructions::Replacement::AsEntersMayPayLifeOrTapped { life } => Some(*life),
        _ => None,
    })
}

/// 614.1d: "this permanent enters tapped" is a replacement effect of the permanent itself, so it
/// applies however the permanent is put onto the battlefield (110.5b: otherwise it enters
/// untapped). A face-down permanent has no abilities (708.2).
pub fn enters_tapped(o: &crate::model::Obj) -> bool {
    !o.face_down
        && o.def
            .face_slice()
            .iter()
            .any(|f| f.replacements.contains(&crate::cards::instructions::Replacement::EntersTapped))
}
