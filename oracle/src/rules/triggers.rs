//! CR 603: which triggered abilities an event triggers, and the order they go on the stack.

use crate::cards::instructions::{Effect, InterveningIf, TriggerEvent, TurnStep, WhoseLibrary};
use crate::model::{Game, ObjId, PlayerId, ZoneRef};
use crate::rules::search::relation_holds;
use crate::rules::zones::is_public;

/// A game event that triggered abilities may be waiting for.
#[derive(Debug, Clone)]
pub enum Happening {
    /// A player searched, and the search included this library (701.23f: a partial search of a
    /// library is still a search of it).
    SearchedLibrary {
        /// Who searched.
        searcher: PlayerId,
        /// Whose library.
        owner: PlayerId,
    },
    /// A library was shuffled by its owner (701.24e–f: even with 0 or 1 cards, once per shuffle).
    ShuffledLibrary {
        /// Whose library; its owner is the player who shuffles it.
        owner: PlayerId,
    },
    /// A creature died (it went from the battlefield to a graveyard).
    Died(ObjId),
    /// A permanent entered the battlefield; its own "when this enters" abilities trigger.
    Entered(ObjId),
    /// A permanent left the battlefield; its own "when this leaves" abilities look back.
    LeftBattlefield(ObjId),
    /// A card was put into a graveyard (from anywhere); its own "when this is put into a
    /// graveyard" ability triggers from there.
    PutIntoGraveyard(ObjId),
    /// A player discarded a card; `cycled` when it was discarded to pay a cycling cost.
    Discarded {
        /// Who discarded.
        player: PlayerId,
        /// The card (as it is now).
        card: ObjId,
        /// Discarded to pay a cycling (or typecycling) cost (702.29c–d, f).
        cycled: bool,
    },
    /// A player sacrificed a permanent.
    Sacrificed {
        /// Who sacrificed.
        player: PlayerId,
        /// Its characteristics as it last existed on the battlefield.
        chars: std::sync::Arc<crate::model::Chars>,
    },
    /// A step of the active player's turn began (603.2b), after its turn-based actions.
    StepBegan {
        /// Which step.
        step: TurnStep,
        /// The active player, whose turn it is.
        active: PlayerId,
    },
    /// A player drew a card (121.1; a draw replaced by dredge is not one, 614.6).
    Drew {
        /// Who drew.
        player: PlayerId,
    },
    /// A permanent went from tapped to untapped (603.2e).
    BecameUntapped {
        /// The permanent.
        permanent: ObjId,
    },
    /// The last time counter was removed from a card (702.62a: its suspend cast trigger).
    LastTimeCounterRemoved(ObjId),
}

/// A triggered ability waiting to be put on the stack (603.3).
#[derive(Debug, Clone)]
pub struct PendingTrigger {
    /// Its source.
    pub source: ObjId,
    /// Its controller: the source's controller when it triggered (603.3a).
    pub controller: PlayerId,
    /// The instructions it will carry out.
    pub effect: Vec<Effect>,
    /// The trigger event's name, for the log.
    pub on: &'static str,
    /// The player whose action triggered it ("that player").
    pub triggering_player: Option<PlayerId>,
    /// What the ability targets (chosen as it goes on the stack).
    pub targets: Vec<crate::cards::instructions::Target>,
    /// The source's object number when it triggered.
    pub source_no: u32,
    /// For an ability that triggered on its own source leaving the battlefield: the object number
    /// of the new object the source became, when that is in a public zone (400.7e).
    pub found_no: Option<u32>,
    /// The clause that decided it triggers ([`trigger_clause`]).
    pub clause: &'static str,
    /// Its intervening "if" clause, checked again as it resolves (603.4).
    pub condition: Option<InterveningIf>,
}

/// The clause that decides that an ability triggers on `happening` — the most specific one:
/// 702.29d for a "cycles or discards" ability when a card is cycled (it triggers once), 702.29c
/// for "when you cycle this card", 701.24e for a shuffle of a library of zero or one cards (it
/// still triggers); otherwise 603.3b (the ability is put on the stack the next time a player would
/// receive priority).
pub fn trigger_clause(game: &Game, on: &str, happening: &Happening) -> &'static str {
    match (on, happening) {
        ("cycled_or_discarded", Happening::Discarded { cycled: true, .. }) => "702.29d",
        ("this_cycled" | "cycled", Happening::Discarded { cycled: true, .. }) => "702.29c",
        ("shuffled_library", Happening::ShuffledLibrary { owner })
            if game.zone(ZoneRef::Library(*owner)).len() <= 1 =>
        {
            "701.24e"
        }
        ("beginning_of_step", _) => "603.2b",
        ("became_untapped", _) => "603.2e",
        _ => "603.3b",
    }
}

/// The clause that decided that `t` triggered (and how often), as it goes on the stack with
/// `group` (its controller's triggers going on the stack at the same time): 701.24f when one
/// library was shuffled several times at once; for a search trigger, `last_search`, the clause of
/// the search that set it off (701.23f capped, 701.23h merged…) unless that is plain 701.23a;
/// otherwise the trigger's own ([`trigger_clause`], when it triggered).
pub fn stacked_clause(t: &PendingTrigger, group: &[PendingTrigger], last_search: Option<&'static str>) -> &'static str {
    let same = |u: &PendingTrigger| u.source == t.source && u.on == t.on && u.triggering_player == t.triggering_player;
    if t.on == "shuffled_library" && group.iter().filter(|u| same(u)).count() > 1 {
        return "701.24f";
    }
    if t.on == "searched_library"
        && let Some(clause) = last_search
        && clause != "701.23a"
    {
        return clause;
    }
    t.clause
}

/// How a creature that died was on the battlefield: its own "when this dies" looks back in time
/// (603.10a), so it is judged as it was there.
#[derive(Debug, Clone, Copy)]
pub struct LastOnBattlefield {
    /// Its controller there.
    pub controller: PlayerId,
    /// It was face down, so it had no abilities (708.2).
    pub face_down: bool,
    /// Its object number on the battlefield (abilities linked to it find what it exiled, 607).
    pub object_no: u32,
}

/// The abilities `happening` triggers (603.2). Abilities of face-up permanents on the battlefield
/// watch searches, shuffles and other creatures dying; a face-down permanent has no abilities
/// (708.2); a dying creature's own "when this dies" is judged by `died`, how it last was.
///
/// `lookback` lists permanents that left the battlefield earlier in the same simultaneous event
/// (with how they were there): leaves-the-battlefield abilities look back in time (603.10a), so
/// theirs trigger on a creature dying with them as if they were still on the battlefield.
pub fn triggered_by(
    game: &Game,
    happening: Happening,
    died: Option<LastOnBattlefield>,
    lookback: &[(ObjId, LastOnBattlefield)],
) -> Vec<PendingTrigger> {
    let mut out = Vec::new();
    let sources: Vec<ObjId> = match happening.clone() {
        // The dying creature's own ability looks back in time (603.10a); other permanents'
        // "whenever another creature dies" abilities watch from the battlefield, and so do those
        // of permanents that left it in the same event (603.10a).
        Happening::Died(obj) => std::iter::once(obj)
            .chain(game.zone(ZoneRef::Battlefield).iter().copied())
            .chain(lookback.iter().map(|&(o, _)| o).filter(|&o| o != obj))
            .collect(),
        Happening::Entered(obj)
        | Happening::PutIntoGraveyard(obj)
        | Happening::LeftBattlefield(obj)
        | Happening::LastTimeCounterRemoved(obj) => vec![obj],
        // 702.62a: suspend's upkeep trigger works in exile.
        Happening::StepBegan { .. } => game
            .zone(ZoneRef::Battlefield)
            .iter()
            .chain(game.zone(ZoneRef::Exile).iter().filter(|&&o| game.obj(o).def.suspend.is_some()))
            .copied()
            .collect(),
        // 702.29c: "when you cycle this card" triggers from wherever the card went.
        Happening::Discarded { card, cycled: true, .. } => {
            std::iter::once(card).chain(game.zone(ZoneRef::Battlefield).iter().copied()).collect()
        }
        _ => game.zone(ZoneRef::Battlefield).to_vec(),
    };
    for source in sources {
        let o = game.obj(source);
        let looked_back = lookback.iter().find(|&&(l, _)| l == source).map(|&(_, last)| last);
        let (controller, face_down, source_no) = match (happening.clone(), died) {
            (Happening::Died(dead) | Happening::LeftBattlefield(dead), Some(last)) if dead == source => {
                (last.controller, last.face_down, last.object_no)
            }
            _ => match looked_back {
                Some(last) if matches!(happening, Happening::Died(_)) => {
                    (last.controller, last.face_down, last.object_no)
                }
                _ => (o.controller, o.face_down, o.object_no),
            },
        };
        // 400.7e: an ability that triggers on its source moving from the battlefield can find the
        // new object the source became if it went to a public zone (a token went nowhere).
        let found_no = match happening {
            Happening::Died(dead) | Happening::LeftBattlefield(dead)
                if dead == source && is_public(o.zone) && game.zone(o.zone).contains(&source) =>
            {
                Some(o.object_no)
            }
            _ => None,
        };
        if face_down {
            continue;
        }
        if let Some(t) = crate::rules::suspend::suspend_trigger(game, source, &happening) {
            out.push(t);
            continue;
        }
        // Only suspend's abilities work from exile.
        if o.zone == ZoneRef::Exile && matches!(happening, Happening::StepBegan { .. }) {
            continue;
        }
        for face in o.def.face_slice() {
            for t in &face.triggers {
                let fired = match (&t.on, happening.clone()) {
                    (TriggerEvent::Dies, Happening::Died(dead)) if dead == source => Some(("dies", None)),
                    (TriggerEvent::AnotherCreatureDies, Happening::Died(dead))
                        if dead != source && died_as_creature(game, dead, died) =>
                    {
                        Some(("another_creature_dies", None))
                    }
                    (TriggerEvent::Enters, Happening::Entered(_)) => Some(("enters", None)),
                    (TriggerEvent::LeavesBattlefield, Happening::LeftBattlefield(card)) if card == source => {
                        Some(("leaves_battlefield", None))
                    }
                    (TriggerEvent::PutIntoGraveyard, Happening::PutIntoGraveyard(card)) if card == source => {
                        Some(("put_into_graveyard", None))
                    }
                    (TriggerEvent::ThisCycled, Happening::Discarded { card, cycled: true, player })
                        if card == source =>
                    {
                        Some(("this_cycled", Some(player)))
                    }
                    // Abilities of other cards watch from the battlefield.
                    (TriggerEvent::Cycled { by }, Happening::Discarded { player, cycled: true, .. })
                        if on_battlefield(game, source) && relation_holds(*by, controller, player) =>
                    {
                        Some(("cycled", Some(player)))
                    }
                    (TriggerEvent::Discarded { by }, Happening::Discarded { player, .. })
                        if on_battlefield(game, source) && relation_holds(*by, controller, player) =>
                    {
                        Some(("discarded", Some(player)))
                    }
                    // 702.29d: "cycles or discards" triggers once for a cycled card.
                    (TriggerEvent::CycledOrDiscarded { by }, Happening::Discarded { player, .. })
                        if on_battlefield(game, source) && relation_holds(*by, controller, player) =>
                    {
                        Some(("cycled_or_discarded", Some(player)))
                    }
                    (TriggerEvent::Sacrificed { by, filter }, Happening::Sacrificed { player, chars })
                        if on_battlefield(game, source)
                            && relation_holds(*by, controller, player)
                            && crate::rules::characteristics::matches(&chars, filter, None) =>
                    {
                        Some(("sacrificed", Some(player)))
                    }
                    (
                        TriggerEvent::SearchedLibrary { searcher: rel, library },
                        Happening::SearchedLibrary { searcher, owner },
                    ) => (relation_holds(*rel, controller, searcher) && whose_ok(*library, searcher, owner))
                        .then_some(("searched_library", Some(searcher))),
                    (
                        TriggerEvent::ShuffledLibrary { shuffler: rel, library },
                        Happening::ShuffledLibrary { owner },
                    ) => (relation_holds(*rel, controller, owner) && whose_ok(*library, owner, owner))
                        .then_some(("shuffled_library", Some(owner))),
                    (TriggerEvent::BeginningOfStep { step, whose }, Happening::StepBegan { step: began, active })
                        if *step == began && relation_holds(*whose, controller, active) =>
                    {
                        Some(("beginning_of_step", Some(active)))
                    }
                    (TriggerEvent::Drew { by }, Happening::Drew { player })
                        if on_battlefield(game, source) && relation_holds(*by, controller, player) =>
                    {
                        Some(("drew", Some(player)))
                    }
                    // 603.2e: "becomes untapped" triggers on the change only; "that permanent's
                    // controller" is the triggering player.
                    (TriggerEvent::PermanentBecomesUntapped, Happening::BecameUntapped { permanent })
                        if on_battlefield(game, source) =>
                    {
                        Some(("became_untapped", Some(game.obj(permanent).controller)))
                    }
                    _ => None,
                };
                if let Some((on, triggering_player)) = fired {
                    out.push(PendingTrigger {
                        source,
                        controller,
                        effect: t.effect.clone(),
                        on,
                        triggering_player,
                        targets: t.targets.clone(),
                        source_no,
                        found_no,
                        clause: trigger_clause(game, on, &happening),
                        condition: t.condition,
                    });
                }
            }
        }
    }
    out
}

/// 603.4: whether an intervening "if" clause holds for an ability of `source` controlled by
/// `controller` — checked as the ability triggers (if it doesn't hold, the ability doesn't
/// trigger) and again as it resolves (if it no longer holds, the ability does nothing). A source
/// that has left the battlefield is judged as it last was there (608.2h): an object keeps the
/// tapped status it left with.
pub fn intervening_if_holds(game: &Game, condition: InterveningIf, source: ObjId, controller: PlayerId) -> bool {
    match condition {
        InterveningIf::ThisIsUntapped => !game.obj(source).flags.tapped,
        InterveningIf::ThisIsSuspended => crate::rules::suspend::is_suspended(game.obj(source)),
        InterveningIf::ThisIsExiled => game.obj(source).zone == ZoneRef::Exile,
        InterveningIf::OpponentControlsMoreLands => {
            let mine = crate::rules::turn_structure::lands_controlled(game, controller);
            crate::rules::apnap::opponents(controller, game.players.len())
                .into_iter()
                .any(|p| crate::rules::turn_structure::lands_controlled(game, p) > mine)
        }
    }
}

fn on_battlefield(game: &Game, obj: ObjId) -> bool {
    game.obj(obj).zone == ZoneRef::Battlefield
}

/// "Dies" is for creatures (700.4): judged as the object last was on the battlefield, where a
/// face-down permanent is a creature (708.2a).
fn died_as_creature(game: &Game, dead: ObjId, died: Option<LastOnBattlefield>) -> bool {
    died.is_some_and(|d| d.face_down) || game.obj(dead).chars.types.contains(&crate::cards::def::CardType::Creature)
}

fn whose_ok(whose: WhoseLibrary, actor: PlayerId, owner: PlayerId) -> bool {
    match whose {
        WhoseLibrary::Any => true,
        WhoseLibrary::Their => actor == owner,
    }
}

/// 603.3b: pending triggers go on the stack in APNAP order — the active player's first, so they
/// end up lowest; each player puts their own in an order of their choice. Returns each player's
/// triggers, in APNAP order of the players and in the order they triggered within a player.
pub fn apnap_groups(pending: Vec<PendingTrigger>, players: usize) -> Vec<(PlayerId, Vec<PendingTrigger>)> {
    let mut groups: Vec<(PlayerId, Vec<PendingTrigger>)> = (0..players).map(|p| (p, Vec::new())).collect();
    for t in pending {
        if let Some(g) = groups.get_mut(t.controller) {
            g.1.push(t);
        }
    }
    groups.retain(|g| !g.1.is_empty());
    groups
}

/// True if `order` puts each of `n` triggers on the stack exactly once (603.3b).
pub fn is_stack_order(order: &[usize], n: usize) -> bool {
    let mut seen = vec![false; n];
    order.len() == n && order.iter().all(|&i| i < n && !std::mem::replace(&mut seen[i], true))
}
