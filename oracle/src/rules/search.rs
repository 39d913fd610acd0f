//! CR 701.23: search — which cards a searcher may find, and which they must.
//!
//! A search is planned once ([`plan_part`]) from the cards the searcher looks at; a proposed set
//! of found cards is then either checked ([`check_found`], used by the judge and by scripted
//! decisions) or enumerated ([`legal_found_sets`], used by the explorer). Both read the same
//! [`PartPlan`], which is what keeps the judge and the enumerator in agreement.

use std::collections::BTreeSet;

use crate::cards::instructions::{Count, Effect, Filter, Relation, Replacement, SearchSpec, SearchZone, StaticAbility};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::Violation;
use crate::rules::characteristics::matches;
use crate::rules::zones::is_public;

/// What kind of description a search uses; it decides what must be found (701.23b–d).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quality {
    /// A stated quality such as a type or a name: in a hidden zone the searcher may fail to find
    /// (701.23b).
    Stated,
    /// Simply a quantity of cards: the searcher must find that many, or as many as possible
    /// (701.23d).
    QuantityOnly,
    /// A quality that refers to something that doesn't exist (a name chosen from an empty hand):
    /// the zone may be searched but nothing can be found (701.23c).
    Undefined,
}

/// The legal finds of one search instruction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartPlan {
    /// Cards the searcher looked at that match the description (701.23a), in zone order.
    pub candidates: Vec<ObjId>,
    /// The candidates in public zones, which a searcher can't pretend not to see.
    pub public: Vec<ObjId>,
    /// Fewest cards that must be found.
    pub min: usize,
    /// Most cards that may be found.
    pub max: usize,
    /// "all": every public candidate must be found (701.23b).
    pub all: bool,
    /// "up to N" / "any number": the searcher chooses how many to find, from zero, so a matching
    /// card in a public zone may be left where it is too (701.23b reads "find" as a choice the
    /// instruction gives; the Memoricide and Surgical Extraction rulings: any card with the name
    /// may be left in the zone it is in). Only "all" and "a" / "N" force public finds.
    pub choose_how_many: bool,
    /// Found cards must have different names.
    pub different_names: bool,
    /// The kind of description.
    pub quality: Quality,
    /// The search included outside the game (701.23j).
    pub outside_searched: bool,
}

/// The Aven Mindcensor replacement (614.1a, 701.23f): if any permanent's controller has an
/// effect that limits `searcher`'s library searches, the searcher looks only at the top N cards
/// of any library they search — their own or another's. Returns the limits of every such effect
/// that applies, each once, smallest first; empty when none does.
///
/// Several of them (616.1): the searcher is the affected player and chooses the order in which
/// they apply. Each applies once (614.5), and each replaces the search — still a search of that
/// library, 701.23f — with a search of that library's top N cards, so whichever is applied last
/// decides how many cards are looked at: Aven Mindcensor's four, or another effect's seven if
/// the searcher applies that one last. Any of these limits is a legal result
/// ([`check_library_cap`]).
pub fn library_caps(game: &Game, searcher: PlayerId) -> Vec<u32> {
    let caps: BTreeSet<u32> = search_limits(game)
        .filter(|&(_, applies_to, controller)| relation_holds(applies_to, controller, searcher))
        .map(|(count, _, _)| count)
        .collect();
    caps.into_iter().collect()
}

/// Whether a library-search limit applies to `searcher` ([`library_caps`] is not empty), without
/// listing the limits: every search's clause asks it of every player.
pub fn has_library_cap(game: &Game, searcher: PlayerId) -> bool {
    search_limits(game).any(|(_, applies_to, controller)| relation_holds(applies_to, controller, searcher))
}

/// Every library-search limit on the battlefield (701.23f), whomever it applies to: each limit
/// once, smallest first.
pub fn library_caps_in_play(game: &Game) -> Vec<u32> {
    let caps: BTreeSet<u32> = search_limits(game).map(|(count, _, _)| count).collect();
    caps.into_iter().collect()
}

/// The search-limiting replacements on the battlefield: each one's N, whom it applies to, and
/// its controller.
fn search_limits(game: &Game) -> impl Iterator<Item = (u32, Relation, PlayerId)> + '_ {
    game.zone(ZoneRef::Battlefield).iter().flat_map(|&obj| {
        let o = game.obj(obj);
        // A face-down permanent has no abilities (708.2).
        let faces: &[crate::cards::def::CardDef] = if o.face_down { &[] } else { o.def.face_slice() };
        faces.iter().flat_map(|f| f.replacements.iter()).filter_map(move |r| match r {
            Replacement::SearchTopOfLibrary { count, applies_to } => Some((*count, *applies_to, o.controller)),
            _ => None,
        })
    })
}

/// The permanent whose "can't search" effect stops `searcher` from searching `whose` library
/// during a spell or ability controlled by `instruction_controller`, or `None` when nothing does.
///
/// A "can't" effect beats the instruction to search (101.2), so the library isn't searched at
/// all: nothing in it can be found, no "whenever … searches" ability triggers, and the
/// instruction's other parts still happen (the Stranglehold and Leonin Arbiter rulings of
/// 2011-09-22 and 2011-01-01: a mandatory "search …, then shuffle" still shuffles; a "you may
/// search" can't be chosen, so its shuffle doesn't happen). Stranglehold and Leonin Arbiter stop
/// searching any library; Ashiok, Dream Render only an opponent's own library for their own
/// spell or ability. A player who took Leonin Arbiter's special action ignores that Arbiter's
/// effect (116.2d) — but not another Arbiter's (one payment per Arbiter, the 2011-01-01 ruling).
pub fn library_search_ban(
    game: &Game,
    searcher: PlayerId,
    whose: PlayerId,
    instruction_controller: PlayerId,
) -> Option<ObjId> {
    game.zone(ZoneRef::Battlefield).iter().copied().find(|&obj| {
        let o = game.obj(obj);
        // A face-down permanent has no abilities (708.2).
        if o.face_down {
            return false;
        }
        o.def.face_slice().iter().flat_map(|f| f.statics.iter()).any(|s| match s {
            StaticAbility::CantSearchLibraries { applies_to, ignore_cost } => {
                let ignored =
                    ignore_cost.is_some() && o.flags.search_ban_ignored_by & crate::rules::apnap::bit(searcher) != 0;
                relation_holds(*applies_to, o.controller, searcher) && !ignored
            }
            StaticAbility::OpponentsCantCauseOwnLibrarySearch => {
                searcher != o.controller && instruction_controller == searcher && whose == searcher
            }
            _ => false,
        })
    })
}

/// Whether `searcher`'s search of `zones` of `whose` zones is a search of their own library, the
/// search Opposition Agent's abilities watch: "while they're searching their libraries" covers
/// every zone of a search that includes their library (the 2020-11-10 ruling on searches of
/// several zones), and no search of another player's library.
fn searches_own_library(searcher: PlayerId, whose: PlayerId, zones: &[SearchZone]) -> bool {
    searcher == whose && zones.contains(&SearchZone::Library)
}

/// The face-up permanents on the battlefield with `ability` that an opponent of `searcher`
/// controls, in the order they entered the battlefield (the battlefield lists permanents in that
/// order; a scenario's `battlefield:` list is taken as that order). A face-down permanent has no
/// abilities (708.2).
fn opponents_permanents_with(game: &Game, searcher: PlayerId, ability: &StaticAbility) -> Vec<ObjId> {
    game.zone(ZoneRef::Battlefield)
        .iter()
        .copied()
        .filter(|&obj| {
            let o = game.obj(obj);
            !o.face_down && o.controller != searcher && o.def.face_slice().iter().any(|f| f.statics.contains(ability))
        })
        .collect()
}

/// Who makes the choices of `searcher`'s search of `zones` of `whose` zones (723.5): the
/// searcher, unless an opponent controls them while they search their own library (Opposition
/// Agent, 723.2) — then that opponent, and with several such effects the one created last, that
/// is the permanent that entered the battlefield most recently (723.1a; Opposition Agent ruling
/// 2020-11-10). Whether to search at all ("you may search") is decided before the search begins,
/// so by the searcher.
pub fn search_chooser(game: &Game, searcher: PlayerId, whose: PlayerId, zones: &[SearchZone]) -> PlayerId {
    if !searches_own_library(searcher, whose, zones) {
        return searcher;
    }
    opponents_permanents_with(game, searcher, &StaticAbility::ControlsOpponentsSearchingTheirLibraries)
        .last()
        .map_or(searcher, |&agent| game.obj(agent).controller)
}

/// Where the cards `searcher`'s search of `zones` of `whose` zones finds go instead of the
/// instruction's destination (614.1a): `None` when nothing replaces it; otherwise exile, with the
/// players who control an "opponents exile each card they find" permanent (Opposition Agent), one
/// of whose permission to play the card applies. Several Agents' replacements all exile the
/// card; which one applies — and so who may play it — is chosen under 616.1 (the affected
/// card's owner, here controlled by an Agent's controller), a choice the oracle doesn't model:
/// the caller gives the permission only when every such permanent has the same controller.
pub fn found_cards_exiled_for(
    game: &Game,
    searcher: PlayerId,
    whose: PlayerId,
    zones: &[SearchZone],
) -> Option<BTreeSet<PlayerId>> {
    if !searches_own_library(searcher, whose, zones) {
        return None;
    }
    let agents = opponents_permanents_with(game, searcher, &StaticAbility::OpponentsExileCardsTheyFind);
    (!agents.is_empty()).then(|| agents.iter().map(|&a| game.obj(a).controller).collect())
}

/// 116.2d: a player may ignore a static ability's effect only where that ability offers it —
/// `card` must be a face-up permanent with a "can't search" effect that names a cost to ignore
/// it (Leonin Arbiter).
pub fn check_may_ignore_search_ban(game: &Game, card: ObjId) -> Result<(), Violation> {
    let o = game.obj(card);
    let offers = o.zone == ZoneRef::Battlefield
        && !o.face_down
        && o.def
            .face_slice()
            .iter()
            .flat_map(|f| f.statics.iter())
            .any(|s| matches!(s, StaticAbility::CantSearchLibraries { ignore_cost: Some(_), .. }));
    if offers {
        Ok(())
    } else {
        Err(Violation::new("116.2d", format!("{} is not a permanent whose effect a player may pay to ignore", o.id)))
    }
}

/// 616.1: the limit a searcher ends up with must be that of one of the effects that applied (the
/// one they applied last, [`library_caps`]).
pub fn check_library_cap(options: &[u32], chosen: u32) -> Result<(), Violation> {
    if options.contains(&chosen) {
        return Ok(());
    }
    Err(Violation::new(
        "616.1",
        format!(
            "a search limited to the top {chosen} cards, but the limits that apply are {options:?}: the searcher \
             orders them and the last one applied decides"
        ),
    ))
}

/// True if `actor` stands in `relation` to `controller`.
pub fn relation_holds(relation: Relation, controller: PlayerId, actor: PlayerId) -> bool {
    match relation {
        Relation::Any => true,
        Relation::You => actor == controller,
        Relation::Opponent => actor != controller,
    }
}

/// The filter a search looks for once the numbers it refers to are known: "mana value X or less"
/// becomes an upper bound of `x` (107.3a: X is the number chosen as the spell was cast), and "the
/// same mana value as" an object becomes that exact value (702.53a: the discarded card's, as it
/// last existed, 608.2h). `x` is `None` when the bound is not applied (mutant `mana-value-x-ignored`).
/// An object that doesn't exist gives no value, so nothing can match it (701.23c).
pub fn bind_filter(filter: &Filter, x: Option<u32>, same_mana_value: Option<u32>) -> Filter {
    let mut bound = filter.clone();
    if bound.mana_value_at_most_x {
        bound.mana_value_at_most_x = false;
        if let Some(x) = x {
            bound.mana_value_at_most = Some(bound.mana_value_at_most.map_or(x, |m| m.min(x)));
        }
    }
    if bound.same_mana_value_as.take().is_some() {
        // No value: a bound no card meets (the least mana value above the greatest).
        let (least, most) = same_mana_value.map_or((1, 0), |v| (v, v));
        bound.mana_value_at_least = Some(bound.mana_value_at_least.map_or(least, |m| m.max(least)));
        bound.mana_value_at_most = Some(bound.mana_value_at_most.map_or(most, |m| m.min(most)));
    }
    bound.any_of = bound.any_of.iter().map(|f| bind_filter(f, x, same_mana_value)).collect();
    bound.not = bound.not.map(|f| Box::new(bind_filter(&f, x, same_mana_value)));
    bound
}

/// Classifies a search's description. `same_name` is `Some(names)` when the filter refers to an
/// object (`same_name_as`) and `Some(None)` when that object doesn't exist.
pub fn quality(filter: Option<&Filter>, same_name: Option<Option<&[String]>>) -> Quality {
    match filter {
        None => Quality::QuantityOnly,
        Some(f) if f.is_quantity_only() => Quality::QuantityOnly,
        Some(f) if f.same_name_as.is_some() && matches!(same_name, Some(None) | None) => Quality::Undefined,
        Some(_) => Quality::Stated,
    }
}

/// Plans one search instruction over `looked_at`, the cards in the searched portions of the
/// searched zones (for a library under a 701.23f replacement, only its top N).
pub fn plan_part(
    game: &Game,
    spec: &SearchSpec,
    looked_at: &[ObjId],
    same_name: Option<Option<&[String]>>,
) -> PartPlan {
    let quality = quality(spec.filter.as_ref(), same_name);
    let names = same_name.flatten();
    let candidates: Vec<ObjId> = match quality {
        Quality::Undefined => Vec::new(), // 701.23c
        Quality::QuantityOnly => looked_at.to_vec(),
        Quality::Stated => {
            let filter = spec.filter.as_ref().expect("stated quality has a filter");
            looked_at.iter().copied().filter(|&o| matches(&game.obj(o).chars, filter, names)).collect()
        }
    };
    let public: Vec<ObjId> = candidates.iter().copied().filter(|&o| is_public(game.obj(o).zone)).collect();
    // 701.23j: a card outside the game is found only by choice ("may choose").
    let forced_pool = match quality {
        Quality::QuantityOnly => {
            candidates.iter().filter(|&&o| !matches!(game.obj(o).zone, ZoneRef::Outside(_))).count()
        }
        Quality::Stated => public.len(),
        Quality::Undefined => 0,
    };
    let all = spec.count == Count::All;
    let mut max = spec.count.max().min(candidates.len());
    if spec.different_names {
        max = max.min(distinct_names(game, &candidates));
    }
    // Never more than can be found (different names can leave fewer than the cards there).
    let min = spec.count.asked_min().min(forced_pool).min(max);
    let outside_searched = spec.zones.contains(&crate::cards::instructions::SearchZone::Outside);
    let choose_how_many = matches!(spec.count, Count::UpTo(_));
    PartPlan {
        candidates,
        public,
        min,
        max,
        all,
        choose_how_many,
        different_names: spec.different_names,
        quality,
        outside_searched,
    }
}

fn distinct_names(game: &Game, cards: &[ObjId]) -> usize {
    cards.iter().map(|&o| game.obj(o).chars.names.join(" // ")).collect::<BTreeSet<_>>().len()
}

/// Checks a proposed set of found cards against a plan. `looked_at` and `cap` let the message
/// say why a card couldn't be found. To check many sets against one plan, build a [`FoundCheck`]
/// once.
pub fn check_found(
    game: &Game,
    plan: &PartPlan,
    found: &[ObjId],
    looked_at: &[ObjId],
    cap: Option<u32>,
) -> Result<(), Violation> {
    FoundCheck::new(game, plan).check(found, looked_at, cap)
}

/// Whether [`check_found`] accepts `found`, without writing the message of a violation (for
/// callers that only test candidates).
pub fn found_is_legal(game: &Game, plan: &PartPlan, found: &[ObjId]) -> bool {
    FoundCheck::new(game, plan).holds(found)
}

/// The first rule a proposed find breaks ([`FoundCheck`]), before its message is written.
#[derive(Debug, Clone, Copy)]
#[cfg_attr(test, derive(PartialEq, Eq))]
enum FoundFailure {
    /// A card found twice (701.23a).
    Twice(ObjId),
    /// A card the search can't find (701.23a, c, f, j; 709.4).
    NotACandidate(ObjId),
    /// More cards than the instruction allows (701.23a).
    TooMany,
    /// A matching card of a public zone left while fewer than the most were found (701.23b).
    PublicLeft(ObjId),
    /// A card a search for all cards left (701.23d).
    AllLeft(ObjId),
    /// Fewer cards than the instruction requires (701.23b, 701.23d).
    TooFew,
    /// Two found cards sharing a name where names must differ (701.23a).
    SameName(ObjId),
}

/// A plan made ready to check many proposed finds: its candidates sorted once, so each check is
/// O((found + public) log candidates) with no allocation beyond a sorted copy of the find. The
/// judge checks one merged search's splits (701.23h) hundreds of times per replay; building
/// the candidate set for each of them was most of a judgement's cost on large libraries.
pub struct FoundCheck<'a> {
    game: &'a Game,
    plan: &'a PartPlan,
    sorted_candidates: Vec<ObjId>,
    /// The cards a search for all cards must find (701.23d), in zone order.
    required: Vec<ObjId>,
}

impl<'a> FoundCheck<'a> {
    /// Prepares the checks of `plan`.
    pub fn new(game: &'a Game, plan: &'a PartPlan) -> FoundCheck<'a> {
        let mut sorted_candidates = plan.candidates.clone();
        sorted_candidates.sort_unstable();
        let required = all_in_game(game, plan);
        FoundCheck { game, plan, sorted_candidates, required }
    }

    fn label(&self, o: ObjId) -> String {
        let obj = self.game.obj(o);
        format!("{} ({}, in {})", obj.def.name, obj.id, self.game.zone_name(obj.zone))
    }

    /// Whether the search could find `o` at all (701.23a).
    fn is_candidate(&self, o: ObjId) -> bool {
        self.sorted_candidates.binary_search(&o).is_ok()
    }

    /// Checks a proposed set of found cards (see [`check_found`]).
    pub fn check(&self, found: &[ObjId], looked_at: &[ObjId], cap: Option<u32>) -> Result<(), Violation> {
        match self.failure(found) {
            None => Ok(()),
            Some(f) => Err(self.violation(f, found.len(), looked_at, cap)),
        }
    }

    /// Whether a proposed set of found cards is legal: [`FoundCheck::check`] without building the
    /// violation's message. The enumerator and the judge test many candidate finds and keep only
    /// the legal ones; naming the cards of every rejected one was most of the cost of a large
    /// search's finds (a fuzz input with a 300-card library took 1.8 s).
    pub fn holds(&self, found: &[ObjId]) -> bool {
        self.failure(found).is_none()
    }

    /// [`FoundCheck::holds`] of `legal` with `added` after it, given that `legal` holds: in O(n)
    /// rather than a whole check. Adding a card can't leave a public card or a required one
    /// unfound (701.23b, 701.23d) that `legal` found, nor fall below a minimum `legal` reached, so
    /// only the rules about the added card itself are left: not found twice, one the search could
    /// find (701.23a), within the most it may find, and a name no other found card has when
    /// the instruction asks for different names. Generators that grow a find card by card (the
    /// fuzz targets' decision bytes) otherwise checked it whole after each card.
    pub fn holds_adding(&self, legal: &[ObjId], added: ObjId) -> bool {
        debug_assert!(self.holds(legal), "holds_adding needs a find that holds");
        let names = |f: ObjId| &self.game.obj(f).chars.names;
        !legal.contains(&added)
            && self.is_candidate(added)
            && legal.len() < self.plan.max
            && !(self.plan.different_names && legal.iter().any(|&e| names(e) == names(added)))
    }

    /// Finds of at most this many cards are checked by scanning them ([`FoundCheck::failure`]).
    const SCANNED: usize = 16;

    /// The first rule a proposed find breaks, if any (the checks of [`FoundCheck::check`], in
    /// its order).
    fn failure(&self, found: &[ObjId]) -> Option<FoundFailure> {
        self.failure_scanning(found, Self::SCANNED)
    }

    /// [`FoundCheck::failure`]. A find of at most `scanned` cards — what the enumerator and the
    /// judge's splits try by the thousand — is checked by scanning it, with no allocation; a
    /// longer one through a sorted copy and sets. Both report the same first failure (a test
    /// compares them).
    fn failure_scanning(&self, found: &[ObjId], scanned: usize) -> Option<FoundFailure> {
        if found.len() <= scanned {
            return self.failure_by(found, scanned, |o| found.contains(o), |i| found[..i].contains(&found[i]));
        }
        let mut sorted_found = found.to_vec();
        sorted_found.sort_unstable();
        let repeats = sorted_found.windows(2).any(|w| w[0] == w[1]);
        let mut seen = BTreeSet::new();
        // Only a find that repeats a card needs the cards seen so far, to name the repeat.
        self.failure_by(
            found,
            scanned,
            |o| sorted_found.binary_search(o).is_ok(),
            |i| repeats && !seen.insert(found[i]),
        )
    }

    /// [`FoundCheck::failure_scanning`], given whether a card was found and whether the `i`th
    /// card of `found` repeats an earlier one (asked for each card in order).
    fn failure_by(
        &self,
        found: &[ObjId],
        scanned: usize,
        was_found: impl Fn(&ObjId) -> bool,
        mut repeats_earlier: impl FnMut(usize) -> bool,
    ) -> Option<FoundFailure> {
        let (game, plan) = (self.game, self.plan);
        for (i, &f) in found.iter().enumerate() {
            if repeats_earlier(i) {
                return Some(FoundFailure::Twice(f));
            }
            if !self.is_candidate(f) {
                return Some(FoundFailure::NotACandidate(f));
            }
        }
        if found.len() > plan.max {
            return Some(FoundFailure::TooMany);
        }
        // 701.23b lets a searcher fail to find only in hidden zones: a matching card in a public
        // zone may be left only when the search already found as many cards as it could — unless
        // the instruction lets the searcher choose how many ("up to N", "any number"), when
        // leaving it is simply finding fewer.
        if plan.quality == Quality::Stated
            && !plan.choose_how_many
            && found.len() < plan.max
            && let Some(&missed) = plan.public.iter().find(|o| !was_found(o))
        {
            return Some(FoundFailure::PublicLeft(missed));
        }
        if let Some(&left) = self.required.iter().find(|o| !was_found(o)) {
            return Some(FoundFailure::AllLeft(left));
        }
        if found.len() < plan.min {
            return Some(FoundFailure::TooFew);
        }
        if plan.different_names {
            // The first card whose name an earlier found card has.
            let names = |f: ObjId| &game.obj(f).chars.names;
            if found.len() <= scanned {
                if let Some(i) = (1..found.len()).find(|&i| found[..i].iter().any(|&e| names(e) == names(found[i]))) {
                    return Some(FoundFailure::SameName(found[i]));
                }
            } else {
                let mut names_seen: BTreeSet<&Vec<String>> = BTreeSet::new();
                if let Some(&f) = found.iter().find(|&&f| !names_seen.insert(names(f))) {
                    return Some(FoundFailure::SameName(f));
                }
            }
        }
        None
    }

    /// The violation, with its message, for a failure of a find of `count` cards.
    fn violation(&self, failure: FoundFailure, count: usize, looked_at: &[ObjId], cap: Option<u32>) -> Violation {
        let (game, plan) = (self.game, self.plan);
        match failure {
            FoundFailure::Twice(f) => Violation::new("701.23a", format!("{} was found twice", self.label(f))),
            FoundFailure::NotACandidate(f) => self.not_a_candidate(f, looked_at, cap),
            FoundFailure::TooMany => {
                Violation::new("701.23a", format!("{count} cards were found but at most {} could be", plan.max))
            }
            FoundFailure::PublicLeft(missed) => Violation::new(
                "701.23b",
                format!(
                    "{} is a public zone, so every matching card there must be found; {} was left there",
                    game.zone_name(game.obj(missed).zone),
                    self.label(missed)
                ),
            ),
            FoundFailure::AllLeft(left) => Violation::new(
                "701.23d",
                format!(
                    "a search for all cards must find every card in the zones searched; {} was left",
                    self.label(left)
                ),
            ),
            FoundFailure::TooFew => {
                let (clause, why) = match plan.quality {
                    Quality::QuantityOnly => (
                        "701.23d",
                        "a search simply for a quantity of cards must find that many, or as many as possible",
                    ),
                    _ => ("701.23b", "matching cards in a public zone must be found"),
                };
                Violation::new(clause, format!("{count} card(s) were found but at least {} had to be: {why}", plan.min))
            }
            FoundFailure::SameName(f) => {
                Violation::new("701.23a", format!("{} shares a name with another found card", self.label(f)))
            }
        }
    }

    /// Why `f`, which isn't among the plan's candidates, can't be found.
    fn not_a_candidate(&self, f: ObjId, looked_at: &[ObjId], cap: Option<u32>) -> Violation {
        let (game, plan) = (self.game, self.plan);
        let why = if !looked_at.contains(&f) {
            match (game.obj(f).zone, cap) {
                (ZoneRef::Library(_), Some(n)) => {
                    return Violation::new(
                        "701.23f",
                        format!("{} is not among the top {n} cards the searcher was limited to", self.label(f)),
                    );
                }
                (ZoneRef::Outside(_), _) if plan.outside_searched => {
                    return Violation::new(
                        "701.23j",
                        format!(
                            "{} is outside the game but a search there finds only the searcher's own cards",
                            self.label(f)
                        ),
                    );
                }
                _ => "it is not in a zone that was searched".to_string(),
            }
        } else if plan.quality == Quality::Undefined {
            return Violation::new(
                "701.23c",
                format!("{} can't be found: the quality searched for is undefined", self.label(f)),
            );
        } else if !game.obj(f).def.split.is_empty() && game.obj(f).zone != ZoneRef::Stack {
            // 709.4: off the stack a split card has both halves' characteristics combined
            // (its mana value is the sum), which is what the description is matched against.
            return Violation::new(
                "709.4",
                format!("{} was found but, with its halves combined, it doesn't match the description", self.label(f)),
            );
        } else {
            "it doesn't match the description".to_string()
        };
        Violation::new("701.23a", format!("{} was found but {why}", self.label(f)))
    }
}

/// 701.23d with 701.23j: a search simply for "all cards" must find every card of the searched
/// game zones; a card chosen from outside the game is extra and can't stand in for one of them.
/// Not when merged instructions can't all be met and share a joint minimum (their own minimums
/// are dropped, 701.23h), nor with different names.
fn all_in_game(game: &Game, plan: &PartPlan) -> Vec<ObjId> {
    if !plan.all || plan.quality != Quality::QuantityOnly || plan.different_names || plan.min == 0 {
        return Vec::new();
    }
    plan.candidates.iter().copied().filter(|&o| !matches!(game.obj(o).zone, ZoneRef::Outside(_))).collect()
}

/// Every legal set of found cards for a plan, in a fixed order (by size, then by position);
/// `None` when there are more than `limit`, or when finding them would take more than
/// [`FIND_SETS_WORK`] steps. Iterative, so a huge zone can't exhaust the stack.
///
/// When found cards must have different names (701.23a), a combination that already repeats a
/// name is never extended: otherwise "all cards with different names" in a library of a hundred
/// Forests would walk every subset of the Forests to find the handful of legal sets.
pub fn legal_found_sets(game: &Game, plan: &PartPlan, limit: usize) -> Option<Vec<Vec<ObjId>>> {
    let mut forced: Vec<ObjId> = if plan.all { plan.public.clone() } else { Vec::new() };
    forced.extend(all_in_game(game, plan).into_iter().filter(|c| !plan.public.contains(c)));
    let free: Vec<ObjId> = plan.candidates.iter().copied().filter(|c| !forced.contains(c)).collect();
    // Each card's names, borrowed once: this loop may take millions of steps.
    let name = |o: ObjId| &game.obj(o).chars.names;
    let free_names: Vec<&Vec<String>> = free.iter().map(|&o| name(o)).collect();
    let forced_names: BTreeSet<&Vec<String>> = forced.iter().map(|&o| name(o)).collect();
    // A free card whose name a forced card already has can never join a different-names find.
    let clashes = |i: usize, idx: &[usize]| {
        plan.different_names
            && (forced_names.contains(free_names[i]) || idx.iter().any(|&j| free_names[j] == free_names[i]))
    };
    let check = FoundCheck::new(game, plan);
    let mut out = Vec::new();
    let mut work = 0usize;
    let lo = plan.min.saturating_sub(forced.len());
    let hi = plan.max.saturating_sub(forced.len()).min(free.len());
    for k in lo..=hi {
        // Combinations of k free cards, as index vectors in lexicographic order, depth first.
        let mut idx: Vec<usize> = Vec::with_capacity(k);
        let mut next = 0usize;
        loop {
            work += 1;
            if work > FIND_SETS_WORK {
                return None;
            }
            if idx.len() == k {
                let mut set = forced.clone();
                set.extend(idx.iter().map(|&i| free[i]));
                if check.holds(&set) {
                    if out.len() >= limit {
                        return None;
                    }
                    out.push(set);
                }
            } else {
                // The next free card (from `next` on) that can extend the combination, leaving
                // room for the rest.
                let need = k - idx.len();
                let last = free.len().saturating_sub(need);
                if let Some(i) = (next..=last).find(|&i| i < free.len() && !clashes(i, &idx)) {
                    idx.push(i);
                    next = i + 1;
                    continue;
                }
            }
            // Backtrack: move the last card on, or stop when the combination is empty.
            match idx.pop() {
                Some(j) => next = j + 1,
                None => break,
            }
        }
    }
    Some(out)
}

/// Most steps [`legal_found_sets`] takes before it reports the sets as too many to list.
pub const FIND_SETS_WORK: usize = 2_000_000;

/// One legal set of found cards, built directly (for a single run that needn't list them all):
/// the public cards "all" requires, then the first candidates up to the minimum, skipping
/// `taken` (cards another merged instruction found, 701.23h) and repeated names when names must
/// differ. `None` if that greedy choice isn't legal.
pub fn a_legal_find(game: &Game, plan: &PartPlan, taken: &BTreeSet<ObjId>) -> Option<Vec<ObjId>> {
    let mut found: Vec<ObjId> = if plan.all { plan.public.clone() } else { Vec::new() };
    found.extend(all_in_game(game, plan).into_iter().filter(|c| !plan.public.contains(c) && !taken.contains(c)));
    let mut names: BTreeSet<String> = found.iter().map(|&o| game.obj(o).chars.names.join(" // ")).collect();
    // 701.23b: cards in a public zone must be found (as many as the search may find) before any
    // hidden-zone choice is made; then hidden candidates up to the minimum.
    let publics = plan.public.iter().filter(|c| plan.candidates.contains(c));
    let hidden = plan.candidates.iter().filter(|c| !plan.public.contains(c));
    for (&c, public) in publics.map(|c| (c, true)).chain(hidden.map(|c| (c, false))) {
        if public && found.len() >= plan.max {
            continue;
        }
        if !public && found.len() >= plan.min {
            break;
        }
        if taken.contains(&c) || found.contains(&c) {
            continue;
        }
        if plan.different_names && !names.insert(game.obj(c).chars.names.join(" // ")) {
            continue;
        }
        found.push(c);
    }
    found_is_legal(game, plan, &found).then_some(found)
}

/// 701.23h: merged instructions are one search. When their own minimums can't all be met at once
/// (together they ask for more cards than there are to find), the search still finds as many as
/// it can (701.23d): each instruction's minimum is dropped and the total must reach the number of
/// cards that can be found. Returns that joint minimum, or 0 when each instruction's own stands.
pub fn joint_minimum(parts: &mut [PartPlan]) -> usize {
    if parts.len() < 2 {
        return 0;
    }
    let union: BTreeSet<ObjId> = parts.iter().flat_map(|p| p.candidates.iter().copied()).collect();
    let asked: usize = parts.iter().map(|p| p.min).sum();
    if asked <= union.len() {
        return 0;
    }
    for p in parts.iter_mut() {
        p.min = 0;
    }
    union.len()
}

/// 701.23h: an instruction that shuffles a library (or puts cards into one and shuffles it)
/// ends the run of search instructions that count as one search: a search after it is another.
/// Only a shuffle of the searched library does; the simulator refuses as not modelled an effect
/// that shuffles another player's library between two search instructions it would merge (no
/// printed card does).
pub fn ends_merge_window(effect: &Effect) -> bool {
    matches!(effect, Effect::Shuffle(_) | Effect::ShuffleInto(_) | Effect::ShuffleTargetCardsInto)
}

/// 701.23h: two instructions of one effect that search the same player's library for the same
/// searcher, the first without its own "then shuffle", are one search.
pub fn mergeable(prev: &SearchSpec, next: &SearchSpec) -> bool {
    prev.zones == [SearchZone::Library]
        && next.zones == [SearchZone::Library]
        && !prev.shuffle
        && prev.searcher == next.searcher
        && prev.whose == next.whose
        && prev.optional == next.optional
}

/// 701.23h: only a shuffle of the searched library ends the run of instructions that count as one
/// search, so another player's search, or a shuffle of another library, standing between `last`
/// (a search instruction of the run) and a later search instruction it merges with (in `rest`,
/// before the window ends) is inside that one search. True for such a `next` instruction.
pub fn inside_one_search(last: &SearchSpec, next: &Effect, rest: &[Effect]) -> bool {
    let other = match next {
        Effect::Search(_) => true,
        Effect::Shuffle(who) => *who != last.whose.unwrap_or(last.searcher),
        _ => false,
    };
    other
        && rest
            .iter()
            .take_while(|e| !ends_merge_window(e))
            .any(|e| matches!(e, Effect::Search(s) if mergeable(last, s)))
}

/// 701.23h: instructions between two merged search instructions that the oracle carries out
/// after the one search without changing it — they touch no library, hand or graveyard and name
/// nothing a search refers to (life totals, counters, a Clue token). Any other instruction
/// there makes the effect not modelled.
pub fn runs_after_merged_search(effect: &Effect) -> bool {
    matches!(
        effect,
        Effect::LoseLife { .. }
            | Effect::GainLife { .. }
            | Effect::GainLifeX
            | Effect::AddCounters { .. }
            | Effect::Investigate
    )
}

/// 701.23h: a merged search reports one list of found cards; this splits it among the merged
/// instructions so that every instruction's find is legal, if any such split exists (else the
/// first-fit split, which the checks will then reject with a precise reason). Cards that only
/// one instruction could find are placed first; the rest are tried both ways, with a bound on
/// the work so a huge ambiguous find can't stall the judge.
pub fn assign_parts(game: &Game, cards: &[ObjId], parts: &[PartPlan]) -> Vec<Vec<ObjId>> {
    let mut out = vec![Vec::new(); parts.len()];
    if parts.len() == 1 {
        out[0] = cards.to_vec();
        return out;
    }
    let mut ambiguous = Vec::new();
    for &c in cards {
        let fits: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].candidates.contains(&c)).collect();
        match fits.as_slice() {
            [] => out[0].push(c),
            [only] => out[*only].push(c),
            _ => ambiguous.push((c, fits)),
        }
    }
    // Bounded: a split is almost always forced; a huge ambiguous find falls back to first-fit.
    let mut budget = 2_000usize;
    let mut trial = out.clone();
    let checks: Vec<FoundCheck> = parts.iter().map(|p| FoundCheck::new(game, p)).collect();
    if place(&ambiguous, 0, &mut trial, &checks, &mut budget) {
        return trial;
    }
    // The bounded walk gives up on a large ambiguous find (a hundred cards that both "all cards
    // with different names" and "all cards with mana value 2 or less" could have found); the
    // split is then a flow problem, solved exactly.
    if let Some((split, _)) = flow_split(&checks, cards, &|_, _| true) {
        // Legal, or else a split that breaks only what can't be met (too few cards for an
        // instruction, 701.23b/d), which names that rule rather than a repeated name.
        return split;
    }
    for (c, fits) in ambiguous {
        let slot = fits.iter().copied().find(|&i| out[i].len() < parts[i].max).unwrap_or(fits[0]);
        out[slot].push(c);
    }
    out
}

/// A scripted merged find (701.23h) split the way the engine protocol tells an adapter to answer
/// one prompt per instruction: each card to the first instruction that could still take it — a
/// candidate of it, with room left, and, where names must differ, of a name it doesn't hold yet.
/// A scenario fixes the found cards and, through their order, the split: several splits can be
/// legal and lead to different outcomes, and an engine can't be asked to guess which one the
/// author meant. The split is returned whether or not it is legal (the caller checks it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InOrderSplit {
    /// The cards each instruction takes.
    pub split: Vec<Vec<ObjId>>,
    /// Cards some instruction could find but none could still take (full, or holding a card of
    /// that name where names must differ), in the order listed; left out of `split`. A card no
    /// instruction could find at all is in the first instruction's part instead, where its
    /// check names it.
    pub homeless: Vec<ObjId>,
}

/// [`InOrderSplit`] of `cards` among `parts`.
pub fn in_order_split(game: &Game, cards: &[ObjId], parts: &[PartPlan]) -> InOrderSplit {
    let mut split: Vec<Vec<ObjId>> = vec![Vec::new(); parts.len()];
    let mut homeless = Vec::new();
    for &c in cards {
        let names = &game.obj(c).chars.names;
        let takes = |i: usize, held: &[ObjId]| {
            parts[i].candidates.contains(&c)
                && held.len() < parts[i].max
                && !(parts[i].different_names && held.iter().any(|&h| game.obj(h).chars.names == *names))
        };
        match (0..parts.len()).find(|&i| takes(i, &split[i])) {
            Some(i) => split[i].push(c),
            // A card no instruction could find goes to the first, whose check names it (701.23a).
            None if !parts.iter().any(|p| p.candidates.contains(&c)) => split[0].push(c),
            None => homeless.push(c),
        }
    }
    InOrderSplit { split, homeless }
}

/// 701.23h: a split of a merged search's found cards among its instructions in which every
/// instruction's find is legal, found as a flow problem, or `None` when there is none (or the
/// found list repeats a card, which no split can make legal). `allowed(card, part)` can narrow
/// which instruction may take a card (the judge first allows only instructions that put the card
/// where the observation says it went).
///
/// What each instruction's find must be, as flow constraints: only its candidates (701.23a); at
/// least its minimum and at most its maximum; with "different names", at most one card of each
/// name (701.23a); with "all cards" simply, every card of the searched zones (701.23d), so
/// another instruction can't take one of those. Every found card goes to exactly one
/// instruction. Cards flow from the source to an instruction (through one node per name for an
/// instruction whose names must differ) and on to the sink, with the instruction's edge bounded
/// by its minimum first and then by its maximum: augmenting paths never take flow back off an
/// edge into the sink, so the minimums met in the first phase stay met. The result is checked
/// again with [`FoundCheck::holds`], which also covers what the flow doesn't model (public
/// cards, 701.23b: merged searches search only libraries, where there are none).
pub fn split_by_matching(
    game: &Game,
    cards: &[ObjId],
    parts: &[PartPlan],
    allowed: &dyn Fn(ObjId, usize) -> bool,
) -> Option<Vec<Vec<ObjId>>> {
    let checks: Vec<FoundCheck> = parts.iter().map(|p| FoundCheck::new(game, p)).collect();
    match flow_split(&checks, cards, allowed) {
        Some((split, true)) => Some(split),
        _ => None,
    }
}

/// [`split_by_matching`]'s flow: a split that sends every card to an instruction that can take it
/// within each instruction's maximum and names, and whether it is legal. When no split meets
/// every minimum, the one returned still gives each instruction as many cards as it can; `None`
/// when some card can't be placed at all.
fn flow_split(
    checks: &[FoundCheck],
    cards: &[ObjId],
    allowed: &dyn Fn(ObjId, usize) -> bool,
) -> Option<(Vec<Vec<ObjId>>, bool)> {
    let game = checks.first()?.game;
    let mut sorted = cards.to_vec();
    sorted.sort_unstable();
    if sorted.windows(2).any(|w| w[0] == w[1]) {
        return None;
    }
    let parts: Vec<&PartPlan> = checks.iter().map(|c| c.plan).collect();
    // Node numbering: source, sink, one per card, one per instruction, then name nodes.
    let (source, sink) = (0usize, 1usize);
    let card_node = |k: usize| 2 + k;
    let part_node = |i: usize| 2 + cards.len() + i;
    let mut flow = UnitFlow::new(2 + cards.len() + parts.len());
    let mut name_nodes: std::collections::BTreeMap<(usize, &Vec<String>), usize> = Default::default();
    // Each node's edges onward come first in its list, before the reverses of the edges into it:
    // the search tries them first, and an instruction with room is one step from the sink
    // rather than behind every card it already holds.
    let floor = |p: &PartPlan| p.min.min(p.max);
    let sink_edges: Vec<usize> =
        parts.iter().enumerate().map(|(i, p)| flow.add_edge(part_node(i), sink, floor(p))).collect();
    // The cards each instruction must find, sorted to be looked up (a quantity-only "all cards"
    // requires every card of a library).
    let required: Vec<Vec<ObjId>> = checks
        .iter()
        .map(|check| {
            let mut r = check.required.clone();
            r.sort_unstable();
            r
        })
        .collect();
    let mut card_edges: Vec<Vec<(usize, usize)>> = Vec::with_capacity(cards.len());
    for (k, &c) in cards.iter().enumerate() {
        flow.add_edge(source, card_node(k), 1);
        let required_by: Vec<usize> = (0..parts.len()).filter(|&i| required[i].binary_search(&c).is_ok()).collect();
        let fits: Vec<usize> = match required_by.as_slice() {
            [] => (0..parts.len()).filter(|&i| checks[i].is_candidate(c) && allowed(c, i)).collect(),
            [only] => vec![*only],
            _ => return None,
        };
        let mut edges = Vec::new();
        for i in fits {
            let next = if parts[i].different_names {
                let key = (i, &game.obj(c).chars.names);
                *name_nodes.entry(key).or_insert_with(|| {
                    let n = flow.add_node();
                    flow.add_edge(n, part_node(i), 1);
                    n
                })
            } else {
                part_node(i)
            };
            edges.push((flow.add_edge(card_node(k), next, 1), i));
        }
        card_edges.push(edges);
    }
    let wanted: usize = parts.iter().map(|p| floor(p)).sum();
    let minimums_met = flow.max_flow(source, sink, wanted) == wanted;
    for (i, &e) in sink_edges.iter().enumerate() {
        flow.raise(e, parts[i].max - floor(parts[i]));
    }
    flow.max_flow(source, sink, cards.len() - flow.placed(&sink_edges));
    if flow.placed(&sink_edges) < cards.len() {
        return None;
    }
    let mut split = vec![Vec::new(); parts.len()];
    for (k, edges) in card_edges.iter().enumerate() {
        let &(_, i) = edges.iter().find(|&&(e, _)| flow.carries(e))?;
        split[i].push(cards[k]);
    }
    let legal = minimums_met && checks.iter().zip(&split).all(|(check, found)| check.holds(found));
    Some((split, legal))
}

/// One depth-first search of [`UnitFlow::max_flow`]: where it ends, its mark for nodes seen in
/// it, and the nodes known to reach nothing.
struct Search<'a> {
    sink: usize,
    stamp: u32,
    dead: &'a [bool],
}

/// A flow network of small integer capacities, augmented one unit at a time (Ford–Fulkerson):
/// each augmentation places one more found card, so a split of n cards takes at most n
/// depth-first searches over O(n × instructions) edges, and most are a few edges long.
struct UnitFlow {
    /// Outgoing edges of each node (indices into `to` and `cap`; edge `e ^ 1` is its reverse).
    out: Vec<Vec<usize>>,
    to: Vec<usize>,
    cap: Vec<usize>,
}

impl UnitFlow {
    fn new(nodes: usize) -> UnitFlow {
        UnitFlow { out: vec![Vec::new(); nodes], to: Vec::new(), cap: Vec::new() }
    }

    fn add_node(&mut self) -> usize {
        self.out.push(Vec::new());
        self.out.len() - 1
    }

    /// Adds an edge and its reverse; returns the forward edge.
    fn add_edge(&mut self, from: usize, to: usize, cap: usize) -> usize {
        let e = self.to.len();
        self.out[from].push(e);
        self.to.push(to);
        self.cap.push(cap);
        self.out[to].push(e + 1);
        self.to.push(from);
        self.cap.push(0);
        e
    }

    /// Adds `more` to edge `e`'s remaining capacity.
    fn raise(&mut self, e: usize, more: usize) {
        self.cap[e] += more;
    }

    /// How many units the edges `into_sink` carry in all.
    fn placed(&self, into_sink: &[usize]) -> usize {
        into_sink.iter().map(|&e| self.cap[e ^ 1]).sum()
    }

    /// Whether edge `e` (a forward edge of capacity 1) carries flow.
    fn carries(&self, e: usize) -> bool {
        self.cap[e ^ 1] > 0
    }

    /// Augments until no path is left or `limit` units are added; returns how many units it
    /// added. Flow into the sink is never taken back (a path ends at the sink), so what an
    /// earlier call placed stays placed.
    ///
    /// Depth first from each edge out of the source in turn, each tried until it is used up or
    /// no path is left from it. One pass is enough, and a node a failed search visited can be
    /// skipped for the rest of the call: a node with no path to the sink keeps having none while
    /// other paths are augmented (an augmenting path can't pass through a node that reaches
    /// nothing, and only adds edges between nodes on that path). Without that, every card left
    /// over once an instruction is full would search the whole network again (a find of 4 500
    /// cards took 0.6 s). Most found cards go straight to an instruction with room, so a typical
    /// path is three or four edges long.
    fn max_flow(&mut self, source: usize, sink: usize, limit: usize) -> usize {
        let mut added = 0;
        let mut seen = vec![0u32; self.out.len()];
        let mut dead = vec![false; self.out.len()];
        let mut stamp = 0u32;
        let mut path = Vec::new();
        let mut stack: Vec<(usize, usize)> = Vec::new();
        let mut visited = Vec::new();
        for k in 0..self.out[source].len() {
            let first = self.out[source][k];
            while self.cap[first] > 0 && added < limit {
                stamp += 1;
                seen[source] = stamp;
                visited.clear();
                let search = Search { sink, stamp, dead: &dead };
                if !self.path_from(first, &search, &mut seen, &mut path, &mut stack, &mut visited) {
                    for &n in &visited {
                        dead[n] = true;
                    }
                    break;
                }
                for &e in &path {
                    self.cap[e] -= 1;
                    self.cap[e ^ 1] += 1;
                }
                added += 1;
            }
        }
        added
    }

    /// A path of edges with capacity left from edge `first` to the sink through nodes not yet
    /// `seen` in this search and not dead, into `path`; false when there is none. The nodes it
    /// visits go to `visited`.
    fn path_from(
        &self,
        first: usize,
        search: &Search,
        seen: &mut [u32],
        path: &mut Vec<usize>,
        stack: &mut Vec<(usize, usize)>,
        visited: &mut Vec<usize>,
    ) -> bool {
        path.clear();
        stack.clear();
        path.push(first);
        let start = self.to[first];
        if start == search.sink {
            return true;
        }
        if search.dead[start] {
            return false;
        }
        seen[start] = search.stamp;
        visited.push(start);
        stack.push((start, 0));
        while let Some(top) = stack.last_mut() {
            let (node, next) = *top;
            if let Some(&e) = self.out[node].get(next) {
                top.1 += 1;
                let m = self.to[e];
                if self.cap[e] > 0 && seen[m] != search.stamp && !search.dead[m] {
                    path.push(e);
                    if m == search.sink {
                        return true;
                    }
                    seen[m] = search.stamp;
                    visited.push(m);
                    stack.push((m, 0));
                }
            } else {
                stack.pop();
                path.pop();
            }
        }
        false
    }
}

fn place(
    ambiguous: &[(ObjId, Vec<usize>)],
    index: usize,
    out: &mut Vec<Vec<ObjId>>,
    checks: &[FoundCheck],
    budget: &mut usize,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let Some((card, fits)) = ambiguous.get(index) else {
        return checks.iter().zip(out.iter()).all(|(check, f)| check.holds(f));
    };
    for &slot in fits {
        if out[slot].len() >= checks[slot].plan.max {
            continue;
        }
        out[slot].push(*card);
        if place(ambiguous, index + 1, out, checks, budget) {
            return true;
        }
        out[slot].pop();
    }
    false
}

/// The clause that decides what a search is, for its `searched` event: 701.23f when a
/// search-limiting replacement is in play (whether or not it applies to this searcher), 701.23h
/// for merged instructions, 701.23j outside the game, 701.23g for a search of an empty library,
/// 701.23b for a search of a hidden zone for a stated quality (what it finds is a choice), else
/// 701.23a.
pub fn search_clause(game: &Game, specs: &[SearchSpec], cap: Option<u32>, whose: PlayerId) -> &'static str {
    let head = &specs[0];
    let library = head.zones.contains(&SearchZone::Library);
    let limiter = library && (0..game.players.len()).any(|p| has_library_cap(game, p));
    if cap.is_some() || limiter {
        "701.23f"
    } else if specs.len() > 1 {
        "701.23h"
    } else if head.zones.contains(&SearchZone::Outside) {
        "701.23j"
    } else if library && game.zone(ZoneRef::Library(whose)).is_empty() {
        "701.23g"
    } else if head.filter.is_some() && head.zones.iter().any(|z| matches!(z, SearchZone::Library | SearchZone::Hand)) {
        // What a search of a hidden zone for a stated quality finds is the searcher's choice.
        "701.23b"
    } else {
        "701.23a"
    }
}

/// Gifts Ungiven's "target opponent chooses N of those cards": N of the found cards, or all of
/// them when there are N or fewer (the Gifts Ungiven ruling: with one or two found, the opponent
/// must choose them for the graveyard).
pub fn split_choice_count(n: u32, found: usize) -> usize {
    (n as usize).min(found)
}

/// 608.2d: the chooser's answer names exactly `count` different cards among the found ones.
pub fn check_split_choice(chosen: &[ObjId], found: &[ObjId], count: usize) -> Result<(), Violation> {
    let mut distinct = chosen.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    if distinct.len() != chosen.len() || chosen.len() != count || chosen.iter().any(|c| !found.contains(c)) {
        return Err(Violation::new(
            "608.2d",
            format!("{count} different found card(s) must be chosen, not {} of them", chosen.len()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::instructions::CardRef;

    #[test]
    fn mana_value_x_or_less_becomes_a_bound_of_x_and_keeps_a_lower_one() {
        let f = Filter { mana_value_at_most_x: true, ..Filter::default() };
        assert_eq!(bind_filter(&f, Some(0), None).mana_value_at_most, Some(0), "107.3a: X = 0");
        assert_eq!(bind_filter(&f, Some(3), None).mana_value_at_most, Some(3));
        let lower = Filter { mana_value_at_most: Some(2), ..f.clone() };
        assert_eq!(bind_filter(&lower, Some(5), None).mana_value_at_most, Some(2), "the tighter bound holds");
        assert_eq!(bind_filter(&f, None, None).mana_value_at_most, None, "mutant: no bound");
        assert!(!bind_filter(&f, Some(1), None).mana_value_at_most_x, "bound once, not again");
    }

    #[test]
    fn same_mana_value_becomes_an_exact_value_or_nothing() {
        let f = Filter { same_mana_value_as: Some(CardRef::This), ..Filter::default() };
        let bound = bind_filter(&f, None, Some(2));
        assert_eq!((bound.mana_value_at_least, bound.mana_value_at_most), (Some(2), Some(2)), "702.53a");
        let none = bind_filter(&f, None, None);
        assert!(none.mana_value_at_least > none.mana_value_at_most, "no value: nothing matches (701.23c)");
        let nested = Filter { any_of: vec![f.clone()], ..Filter::default() };
        assert_eq!(bind_filter(&nested, None, Some(0)).any_of[0].mana_value_at_most, Some(0), "inside any_of too");
    }

    #[test]
    fn gifts_opponent_chooses_two_or_all_when_fewer() {
        assert_eq!(split_choice_count(2, 4), 2);
        assert_eq!(split_choice_count(2, 2), 2, "the ruling: two found, both chosen");
        assert_eq!(split_choice_count(2, 1), 1, "the ruling: one found, it is chosen");
        assert_eq!(split_choice_count(2, 0), 0);
    }

    #[test]
    fn a_split_choice_names_exactly_that_many_different_found_cards() {
        assert!(check_split_choice(&[3, 1], &[1, 2, 3, 4], 2).is_ok());
        assert_eq!(check_split_choice(&[1], &[1, 2, 3], 2).unwrap_err().clause, "608.2d");
        assert!(check_split_choice(&[1, 1], &[1, 2, 3], 2).is_err(), "one card twice");
        assert!(check_split_choice(&[1, 9], &[1, 2, 3], 2).is_err(), "a card not found");
    }

    /// The scanning and the sorting ways of checking a find agree on its first failure, for
    /// finds of every size against plans of every kind (cards with shared names included).
    #[test]
    fn small_and_large_finds_are_checked_alike() {
        use proptest::prelude::*;
        let pool = crate::cards::CardPool::bundled().unwrap();
        let scenario = crate::fuzzing::generate::land_search_scenario(40, 3, None);
        let game = crate::scenario::load_scenario("found-check", scenario, &pool).unwrap().setup.game;
        let cards: Vec<ObjId> = (0..game.objs.len()).collect();
        let n = cards.len();
        let quality = prop_oneof![Just(Quality::Stated), Just(Quality::QuantityOnly), Just(Quality::Undefined)];
        let plan = (
            proptest::sample::subsequence(cards.clone(), 0..n),
            proptest::sample::subsequence(cards.clone(), 0..n),
            0..6usize,
            0..30usize,
            any::<[bool; 4]>(),
            quality,
        );
        let find = proptest::collection::vec(0..n, 0..24);
        let mut runner = crate::test_support::seeded_runner(3000, 0x66_6f75_6e64);
        let large = std::cell::Cell::new(0usize);
        let grown_checked = std::cell::Cell::new(0usize);
        runner
            .run(&(plan, find), |((candidates, public, min, max, flags, quality), found)| {
                let plan = PartPlan {
                    candidates,
                    public,
                    min,
                    max,
                    all: flags[0],
                    choose_how_many: flags[1],
                    different_names: flags[2],
                    quality,
                    outside_searched: flags[3],
                };
                let check = FoundCheck::new(&game, &plan);
                large.set(large.get() + usize::from(found.len() > FoundCheck::SCANNED));
                prop_assert_eq!(check.failure_scanning(&found, usize::MAX), check.failure_scanning(&found, 0));
                // A find grown card by card from a legal one (none, else the one `a_legal_find`
                // makes, which takes the public and required cards): `holds_adding` answers as the
                // whole check does, for each card tried.
                let start =
                    if check.holds(&[]) { Some(Vec::new()) } else { a_legal_find(&game, &plan, &BTreeSet::new()) };
                if let Some(mut grown) = start.filter(|s| check.holds(s)) {
                    for &card in &found {
                        let mut whole = grown.clone();
                        whole.push(card);
                        prop_assert_eq!(check.holds_adding(&grown, card), check.holds(&whole));
                        grown_checked.set(grown_checked.get() + 1);
                        if check.holds(&whole) {
                            grown = whole;
                        }
                    }
                }
                Ok(())
            })
            .unwrap();
        assert!(large.get() > 100, "too few finds took the sorting way by default: {}", large.get());
        assert!(grown_checked.get() > 1000, "too few cards added to a legal find: {}", grown_checked.get());
    }
}
