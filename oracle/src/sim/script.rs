//! Scripted decisions: choices a scenario fixes in advance. Strict — an answer that isn't legal
//! is an error listing the legal ones (the simulator checks it like any other answer).

use crate::model::{Game, ObjId, PlayerId};
use crate::rules::Violation;
use crate::rules::search::{InOrderSplit, PartPlan, assign_parts, in_order_split, split_by_matching};
use crate::sim::{Choice, Decider, Decision, SimError};

/// Kinds of scripted decision.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScriptKind {
    /// Found cards.
    Search,
    /// A "may".
    May,
    /// A chosen card.
    Choose,
    /// A sacrificed permanent.
    Sacrifice,
    /// A dredge choice.
    Dredge,
    /// Discarded cards.
    Discard,
    /// A card name.
    Name,
    /// A spell cast during a resolution.
    Cast,
    /// Targets of a triggered ability.
    Targets,
    /// Which replacement effect applies (616.1).
    Replacement,
}

/// One scripted decision, resolved to objects.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptEntry {
    /// Kind.
    pub kind: ScriptKind,
    /// Whose decision.
    pub player: PlayerId,
    /// Cards (found, chosen or sacrificed).
    pub cards: Vec<usize>,
    /// For `may`.
    pub accept: bool,
    /// For `name`.
    pub name: Option<String>,
    /// For `cast`: the half of a split card.
    pub face: Option<usize>,
    /// For `targets`.
    pub targets: Vec<crate::sim::TargetChoice>,
    /// For `cast`: whether the entry gives the spell's targets (an empty list included), so
    /// that they are checked rather than explored (601.2c).
    pub cast_targets_given: bool,
    /// For `cast`: the id of an object the run creates (a copy, `<card id>-copy-<n>`), found when
    /// the decision comes up.
    pub run_time_card: Option<String>,
}

impl ScriptEntry {
    /// An entry of `kind` for `player` with nothing chosen yet; the builder fills in the rest.
    pub fn of(kind: ScriptKind, player: PlayerId) -> Self {
        ScriptEntry {
            kind,
            player,
            cards: Vec::new(),
            accept: true,
            name: None,
            face: None,
            targets: Vec::new(),
            cast_targets_given: false,
            run_time_card: None,
        }
    }
}

/// Answers decisions from a script, and the rest with `inner`.
pub struct Scripted<'a, D> {
    entries: &'a [ScriptEntry],
    used: Vec<bool>,
    /// The index of the entry that answered the latest decision, if a scripted one did.
    pub last: Option<usize>,
    /// The decider for unscripted decisions.
    pub inner: D,
    /// The targets a `cast` entry gave for the spell it cast, for the [`Decision::Targets`] of
    /// that spell that follows (601.2c).
    cast_targets: Option<(usize, Vec<crate::sim::TargetChoice>)>,
}

impl<'a, D> Scripted<'a, D> {
    /// A scripted decider over `entries`.
    pub fn new(entries: &'a [ScriptEntry], inner: D) -> Self {
        Scripted { entries, used: vec![false; entries.len()], last: None, inner, cast_targets: None }
    }

    /// Entries never used.
    pub fn unused(&self) -> Vec<usize> {
        (0..self.entries.len()).filter(|&i| !self.used[i]).collect()
    }
}

/// The script kind a decision is matched with, if a scenario can script it.
pub fn kind_of(d: &Decision) -> Option<ScriptKind> {
    match d {
        Decision::May { .. } => Some(ScriptKind::May),
        Decision::Find { .. } => Some(ScriptKind::Search),
        Decision::ChooseCard { .. } => Some(ScriptKind::Choose),
        Decision::Sacrifice { .. } => Some(ScriptKind::Sacrifice),
        Decision::Dredge { .. } => Some(ScriptKind::Dredge),
        Decision::Discard { .. } => Some(ScriptKind::Discard),
        Decision::Name { .. } => Some(ScriptKind::Name),
        Decision::CastFree { .. } => Some(ScriptKind::Cast),
        Decision::Targets { .. } => Some(ScriptKind::Targets),
        Decision::Replacement { .. } => Some(ScriptKind::Replacement),
        Decision::Random { .. }
        | Decision::OrderTriggers { .. }
        | Decision::SearchLimit { .. }
        | Decision::CostOrder { .. } => None,
    }
}

impl<D: Decider> Decider for Scripted<'_, D> {
    fn note_shown(&mut self, step: usize, event: &crate::outcome::Event) {
        self.inner.note_shown(step, event);
    }

    fn note_offer_optional(&mut self, game: &Game, step: usize, decision: &Decision, asked: bool) {
        self.inner.note_offer_optional(game, step, decision, asked);
    }

    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        self.last = None;
        if let Decision::CastFree { .. } = decision {
            self.cast_targets = None;
        }
        // The targets of a spell a `cast` entry cast come from that entry (601.2c).
        if let Decision::Targets { spell: true, .. } = decision
            && let Some((i, targets)) = self.cast_targets.take()
        {
            self.last = Some(i);
            let choice = Choice::Targets(current_object_numbers(game, &targets));
            self.inner.note_scripted(game, step, decision, &choice);
            return Ok(choice);
        }
        if let Some(kind) = kind_of(decision) {
            let player = decision.player();
            if let Some(i) = (0..self.entries.len()).find(|&i| {
                let e = &self.entries[i];
                !self.used[i]
                    && e.kind == kind
                    && e.player == player
                    && match decision {
                        // A replacement choice is about one card: the entry naming it.
                        Decision::Replacement { card, .. } => e.cards == [*card],
                        _ => true,
                    }
            }) {
                self.used[i] = true;
                self.last = Some(i);
                let e = &self.entries[i];
                let choice = match (kind, decision) {
                    (ScriptKind::May, _) => Choice::Bool(e.accept),
                    (ScriptKind::Search, Decision::Find { parts, .. }) if parts.len() > 1 => {
                        let listed = in_order_split(game, &e.cards, parts);
                        let broken = first_violation(game, parts, &listed.split);
                        if !listed.homeless.is_empty() || broken.is_some() {
                            return Err(out_of_order_find(game, i, &e.cards, parts, &listed, broken));
                        }
                        Choice::Parts(listed.split)
                    }
                    (ScriptKind::Search, Decision::Find { parts, .. }) => {
                        Choice::Parts(assign_parts(game, &e.cards, parts))
                    }
                    (ScriptKind::Name | ScriptKind::Replacement, _) => Choice::Name(e.name.clone().unwrap_or_default()),
                    (ScriptKind::Cast, _) if e.cast_targets_given && !e.cards.is_empty() => {
                        self.cast_targets = Some((i, e.targets.clone()));
                        Choice::Cast(e.cards.first().map(|&c| (c, e.face)))
                    }
                    (ScriptKind::Cast, _) => match &e.run_time_card {
                        Some(id) => Choice::Cast(game.objs.iter().position(|o| *o.id == **id).map(|c| (c, e.face))),
                        None => Choice::Cast(e.cards.first().map(|&c| (c, e.face))),
                    },
                    (ScriptKind::Targets, Decision::Targets { .. }) => {
                        Choice::Targets(current_object_numbers(game, &e.targets))
                    }
                    _ => Choice::Cards(e.cards.clone()),
                };
                self.inner.note_scripted(game, step, decision, &choice);
                return Ok(choice);
            }
        }
        self.inner.decide(game, step, decision)
    }
}

/// A scripted merged find (701.23h) whose cards, split in the order listed ([`in_order_split`]:
/// the engine protocol's rule), leave a card no instruction can still take or break an
/// instruction's find. The error says which card or which instruction, and, when another split
/// is legal, an order that gives it — or that no order does, when the rule can't reach any legal
/// split (an optional instruction listed first takes a card a later one needs).
fn out_of_order_find(
    game: &Game,
    entry: usize,
    cards: &[ObjId],
    parts: &[PartPlan],
    listed: &InOrderSplit,
    broken: Option<(usize, Violation)>,
) -> SimError {
    let ids = |cs: &[ObjId]| cs.iter().map(|&c| game.obj(c).id.clone()).collect::<Vec<_>>().join(", ");
    let what = match (listed.homeless.split_first(), &broken) {
        (Some((first, rest)), _) => format!(
            "{}{} can't go to any instruction: each one that could find it is full or, where names must \
             differ, already has a card with its name",
            game.obj(*first).id,
            if rest.is_empty() { String::new() } else { format!(" (and {} more)", rest.len()) }
        ),
        (None, Some((i, v))) => format!("instruction {} of {} breaks {}: {}", i + 1, parts.len(), v.clause, v.message),
        (None, None) => "the cards can't be split among the instructions".into(),
    };
    let Some(legal) = split_by_matching(game, cards, parts, &|_, _| true) else {
        let violation = match broken {
            Some((_, v)) if listed.homeless.is_empty() => v,
            _ => Violation::new("701.23h", what),
        };
        return SimError::ScriptIllegal { entry, violation, options: Vec::new() };
    };
    // An order the in-order rule splits legally, when there is an easy one: each instruction's
    // cards in turn.
    let order: Vec<ObjId> = legal.iter().flatten().copied().collect();
    let reordered = in_order_split(game, &order, parts);
    let works = reordered.homeless.is_empty() && first_violation(game, parts, &reordered.split).is_none();
    let per_instruction =
        legal.iter().enumerate().map(|(i, f)| format!("instruction {}: [{}]", i + 1, ids(f))).collect::<Vec<_>>();
    let hint = if works {
        format!("list them as [{}]", ids(&order))
    } else {
        format!(
            "no order found gives a legal split by that rule ({} is legal), so leave this search unscripted and \
             assert on its outcomes",
            per_instruction.join(", ")
        )
    };
    SimError::ScriptIllegal {
        entry,
        violation: Violation::new(
            "701.23h",
            format!(
                "the scripted cards, split in the order listed (each to the first instruction that could still \
                 take it, as an engine is told to answer), don't split legally: {what}. Another split is legal, but \
                 several can be and the order is what tells an engine which: {hint}"
            ),
        ),
        options: Vec::new(),
    }
}

/// The first instruction (its index) whose part of a merged find breaks a rule, and the rule.
fn first_violation(game: &Game, parts: &[PartPlan], split: &[Vec<ObjId>]) -> Option<(usize, Violation)> {
    parts
        .iter()
        .zip(split)
        .enumerate()
        .find_map(|(i, (p, f))| crate::rules::search::check_found(game, p, f, &[], None).err().map(|v| (i, v)))
}

/// Scripted targets with the object numbers their objects have now (400.7).
fn current_object_numbers(game: &Game, targets: &[crate::sim::TargetChoice]) -> Vec<crate::sim::TargetChoice> {
    targets
        .iter()
        .map(|t| match *t {
            crate::sim::TargetChoice::Obj(o, _) => crate::sim::TargetChoice::Obj(o, game.obj(o).object_no),
            other => other,
        })
        .collect()
}

/// An illegal answer that came from the script is the scenario author's error, at that entry.
pub fn blame_script(error: SimError, last_scripted: Option<usize>) -> SimError {
    match (error, last_scripted) {
        (SimError::Illegal { violation, options, .. }, Some(entry)) => {
            SimError::ScriptIllegal { entry, violation, options }
        }
        (e, _) => e,
    }
}
