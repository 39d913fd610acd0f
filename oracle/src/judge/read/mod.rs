//! Reading decisions off an observed log: [`Observed`] is the decider the judge's replay asks for
//! every choice, answering from the log's entries (which ones it takes, and which of several
//! readings of an ambiguous log it is trying).

mod decide;
mod splits;

use std::collections::{BTreeMap, BTreeSet};

use crate::model::{Game, ObjId};
use crate::observables::{Observable, Observables};
use crate::outcome::{Event, LoggedEvent, Outcome};
use crate::sim::SimError;

/// The zones a search's destination `to` may put the found card `card` into: the one the
/// simulator puts it into ([`crate::sim::destination_zone`]), or, where a choice decides, each it
/// may go to (Gifts Ungiven's graveyard or hand; the stack, for a found card cast at once).
fn destination_zones(
    game: &Game,
    card: ObjId,
    to: crate::cards::instructions::Destination,
) -> Vec<crate::model::ZoneRef> {
    use crate::cards::instructions::Destination;
    use crate::model::ZoneRef;
    let owner = game.obj(card).owner;
    match (crate::sim::destination_zone(game, card, to), to) {
        (Some(zone), _) => vec![zone],
        (None, Destination::TargetPlayerChoosesForGraveyard(_)) => {
            vec![ZoneRef::Graveyard(owner), ZoneRef::Hand(owner)]
        }
        (None, Destination::MayCastWithoutPaying) => vec![ZoneRef::Stack],
        (None, _) => Vec::new(),
    }
}

/// Decisions read off an observed log.
pub(super) struct Observed<'a> {
    events: &'a [LoggedEvent],
    /// The whole observed outcome (its final zones and `known`); read through
    /// [`Observed::beyond_log`], which notes that the reading used more than the log.
    outcome: &'a Outcome,
    /// Whether a decision was read from the observation's final zones, `known` or tapped
    /// permanents rather than from its log alone: only a replay that read nothing else gives the
    /// same run for every observation with the same log (`crate::judge::ReplayMemo`).
    pub(super) read_beyond_log: std::cell::Cell<bool>,
    consumed: Vec<bool>,
    ids: &'a BTreeMap<String, ObjId>,
    /// A `searched` event claimed by a "may search" answered yes, kept for the search itself.
    reserved: BTreeMap<usize, usize>,
    /// How many target choices have been read for each trigger source, per step.
    targets_read: BTreeMap<(usize, String), usize>,
    /// For the k-th merged search of the replay, which of its legal splits to take (701.23h).
    split_picks: Vec<usize>,
    /// How many legal splits each merged search of the replay had.
    pub(super) split_counts: Vec<usize>,
    /// Whether to work out every legal split of each merged search (`split_counts`), or only the
    /// one the replay takes first: only a replay that doesn't match the observation needs the
    /// others (`judge_reading`). Off, a search that found few cards has its splits worked out all
    /// the same (`SPLITS_COUNTED_AT_ONCE`), which is cheaper than making the replay again.
    pub(super) count_splits: bool,
    /// Whether a merged search's other splits went uncounted (its `split_counts` entry is 1 for
    /// want of them), so the replay has to be made again with `count_splits` before trying them.
    pub(super) splits_uncounted: bool,
    /// Whether to list the legal options of each decision in `seen`: only a judgement whose
    /// caller checks an engine's offers needs them ([`crate::judge::judge_observing`]); for
    /// [`crate::judge::judge`], which returns the verdict alone, listing them was 3% of the
    /// `zone_state` fuzz target's time.
    pub(super) record_offers: bool,
    /// The legal options of each decision of the replay (for the option-set check, `offers`);
    /// empty unless `record_offers`.
    pub(super) seen: Vec<crate::offers::Legal>,
    /// Where in `seen` the "may pay life" of each card entering is (614.1c), to make it optional
    /// ([`crate::sim::Decider::note_offer_optional`]).
    pay_life_seen: BTreeMap<ObjId, usize>,
    /// For the k-th ambiguous reading of the replay, which alternative to take: which of several
    /// unordered log entries of a step a decision takes, or whether a "may" takes one at all.
    read_picks: Vec<usize>,
    /// How many alternatives each ambiguous reading of the replay had.
    pub(super) read_counts: Vec<usize>,
    /// Whether the engine logs `searched` events (the `searched` observable); without them a
    /// search's found cards are read from what the log does with them ([`Observed::found_unlogged`]).
    searches_logged: bool,
    /// Whether the engine logs moves within a library (`moves_within_library`).
    library_moves_logged: bool,
    /// Whether the engine reports `searched.library_top` (`library_top`).
    library_top_logged: bool,
    /// Whether the engine reports which permanents are tapped (`tapped`).
    tapped_observed: bool,
    /// Whether the engine reports the targets of the spells cast (`cast_targets`).
    cast_targets_logged: bool,
    /// Found cards the replay's searches put onto the battlefield untapped (so a shock land among
    /// them that is observed tapped wasn't paid for).
    entering_untapped: BTreeSet<ObjId>,
    /// The log entries (indexes) taken as evidence of what an unlogged search found.
    evidence_claimed: BTreeSet<usize>,
    /// Public cards an unlogged search was taken to find without a log entry showing it.
    untraced_found: BTreeSet<ObjId>,
}

impl<'a> Observed<'a> {
    /// A reader of `observed`'s log, for one replay: `read_picks` says which reading to take at
    /// each ambiguous point of the log, `split_picks` which split of each merged search, and
    /// `observables` what the engine reports.
    pub(super) fn new(
        observed: &'a Outcome,
        ids: &'a BTreeMap<String, ObjId>,
        read_picks: &[usize],
        split_picks: Vec<usize>,
        observables: &Observables,
    ) -> Self {
        Observed {
            targets_read: BTreeMap::new(),
            events: &observed.events,
            outcome: observed,
            read_beyond_log: std::cell::Cell::new(false),
            consumed: vec![false; observed.events.len()],
            ids,
            reserved: BTreeMap::new(),
            split_picks,
            split_counts: Vec::new(),
            count_splits: true,
            splits_uncounted: false,
            record_offers: true,
            seen: Vec::new(),
            pay_life_seen: BTreeMap::new(),
            read_picks: read_picks.to_vec(),
            read_counts: Vec::new(),
            searches_logged: observables.has(Observable::Searched),
            library_moves_logged: observables.has(Observable::MovesWithinLibrary),
            library_top_logged: observables.has(Observable::LibraryTop),
            tapped_observed: observables.has(Observable::Tapped),
            cast_targets_logged: observables.has(Observable::CastTargets),
            entering_untapped: BTreeSet::new(),
            evidence_claimed: BTreeSet::new(),
            untraced_found: BTreeSet::new(),
        }
    }

    /// The observed outcome, for a reading that needs more than its log (see `read_beyond_log`).
    pub(super) fn beyond_log(&self) -> &'a Outcome {
        self.read_beyond_log.set(true);
        self.outcome
    }
}

/// Most alternatives one ambiguous reading offers (sets of unordered entries a decision may take).
const MAX_READINGS: usize = 16;

/// The first `limit` sets of `k` indexes out of `0..n`, in lexicographic order.
fn combinations(n: usize, k: usize, limit: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if k > n {
        return out;
    }
    let mut c: Vec<usize> = (0..k).collect();
    loop {
        out.push(c.clone());
        if out.len() >= limit {
            return out;
        }
        // The rightmost index that can still move right, then everything after it packed behind.
        let Some(i) = (0..k).rev().find(|&i| c[i] < n - k + i) else { return out };
        c[i] += 1;
        for j in i + 1..k {
            c[j] = c[j - 1] + 1;
        }
    }
}

impl Observed<'_> {
    /// One of several answers the log doesn't tell apart, best guess first: the replay takes
    /// the one `split_picks` gives for this ambiguous decision, and `judge` tries the others.
    fn pick_alternative<'v, T>(&mut self, ranked: &'v [T]) -> &'v T {
        let k = self.split_counts.len();
        self.split_counts.push(ranked.len());
        let pick = self.split_picks.get(k).copied().unwrap_or(0).min(ranked.len().saturating_sub(1));
        &ranked[pick]
    }

    /// Where the observation says a card went from `from` (the zone it is in when the replay
    /// asks) during `step`, if it moved; failing that, its first move of the step. A step's
    /// `moved` entries are unordered, so a found card later sacrificed (Ob Nixilis, Unshackled)
    /// may be listed leaving the battlefield before it is listed entering it: the move out of
    /// `from` is the one that says where the search put it (found by `engine_diff`).
    fn destination(&self, step: usize, id: &str, from: &str) -> Option<String> {
        let moves = || {
            self.events.iter().filter_map(move |e| match &e.event {
                Event::Moved { card, from, to } if e.step == step && card == id => Some((from, to)),
                _ => None,
            })
        };
        moves().find(|(f, _)| f.as_str() == from).or_else(|| moves().next()).map(|(_, to)| to.clone())
    }

    fn find(&self, step: usize, pred: impl Fn(&Event) -> bool) -> Option<usize> {
        (0..self.events.len())
            .find(|&i| !self.consumed[i] && self.events[i].step == step && pred(&self.events[i].event))
    }

    fn take(&mut self, step: usize, pred: impl Fn(&Event) -> bool) -> Option<&Event> {
        let i = self.find(step, pred)?;
        self.consumed[i] = true;
        Some(&self.events[i].event)
    }

    /// One of `n` ways to read the log at an ambiguous point: the replay's pick for the next such
    /// point (0 unless `judge` is trying another reading). A single way is no choice.
    fn alternative(&mut self, n: usize) -> usize {
        if n < 2 {
            return 0;
        }
        let k = self.read_counts.len();
        self.read_counts.push(n);
        self.read_picks.get(k).copied().unwrap_or(0).min(n - 1)
    }

    /// The unclaimed events of `step` matching `pred`, one index per distinct event (identical
    /// entries are interchangeable).
    fn candidates(&self, step: usize, pred: impl Fn(&Event) -> bool) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for i in 0..self.events.len() {
            let e = &self.events[i];
            if self.consumed[i] || e.step != step || !pred(&e.event) {
                continue;
            }
            let normal = e.event.normalized();
            if !out.iter().any(|&j| self.events[j].event.normalized() == normal) {
                out.push(i);
            }
        }
        out
    }

    /// Takes one of the events of `step` matching `pred`. Events other than `searched` and
    /// `triggered` are unordered within a step, so when several match, which one this decision
    /// takes is a reading `judge` may revisit; the first replay takes the first listed.
    fn take_any(&mut self, step: usize, pred: impl Fn(&Event) -> bool) -> Option<Event> {
        let c = self.candidates(step, pred);
        if c.is_empty() {
            return None;
        }
        let i = c[self.alternative(c.len().min(MAX_READINGS))];
        self.consumed[i] = true;
        Some(self.events[i].event.clone())
    }

    /// Like [`Observed::take_any`], but leaves the event for the replay to account for when it
    /// logs it.
    fn peek_any(&mut self, step: usize, pred: impl Fn(&Event) -> bool) -> Option<Event> {
        let c = self.candidates(step, pred);
        if c.is_empty() {
            return None;
        }
        let i = c[self.alternative(c.len().min(MAX_READINGS))];
        Some(self.events[i].event.clone())
    }

    /// [`Observed::take_any`] preferring events that `fits` (one of the decision's options), so an
    /// entry of a later decision isn't taken when one of this decision's own is there; with none,
    /// any matching event (the rules then say why it can't be this decision's).
    fn take_fitting(
        &mut self,
        step: usize,
        pred: impl Fn(&Event) -> bool,
        fits: impl Fn(&Event) -> bool,
    ) -> Option<Event> {
        if self.find(step, |e| pred(e) && fits(e)).is_some() {
            self.take_any(step, |e| pred(e) && fits(e))
        } else {
            self.take_any(step, pred)
        }
    }

    /// Takes `count` of the events of `step` matching `pred` (all of them when there are no more);
    /// which ones, when more match, is a reading `judge` may revisit.
    fn take_some(&mut self, step: usize, count: usize, pred: impl Fn(&Event) -> bool) -> Vec<Event> {
        let c = self.candidates(step, pred);
        let chosen: Vec<usize> = if c.len() <= count {
            c
        } else {
            let sets = combinations(c.len(), count, MAX_READINGS);
            let pick = self.alternative(sets.len());
            sets[pick].iter().map(|&j| c[j]).collect()
        };
        for &i in &chosen {
            self.consumed[i] = true;
        }
        chosen.iter().map(|&i| self.events[i].event.clone()).collect()
    }

    /// A card id from the log: a scenario card, or a token created during the run.
    fn obj_in(&self, game: &Game, id: &str, step: usize) -> Result<ObjId, SimError> {
        match game.objs.iter().position(|o| *o.id == *id) {
            Some(o) => Ok(o),
            None => self.obj(id, step),
        }
    }

    fn obj(&self, id: &str, step: usize) -> Result<ObjId, SimError> {
        self.ids.get(id).copied().ok_or_else(|| SimError::NoAnswer {
            step,
            message: format!("the log names a card `{id}` that is not in the scenario"),
            clause: "400.7",
        })
    }
}

impl Observed<'_> {
    /// A "may search" is answered yes when the next unclaimed `searched` event of the step is
    /// this player's, and that event is claimed for the search. Searches are logged in the order
    /// they happen — within one resolution in APNAP order (701.23i), and earlier players' "yes"
    /// have already claimed theirs — so when the next one belongs to someone else, this player
    /// declined. When it is this player's, it may still be a later search's: a declined "may"
    /// leaves no entry (701.23g offers the choice), so a tutor resolving after a declined "may
    /// search" in the same step logs the next search. Unless the "yes" is scripted, that is a
    /// reading `judge` revisits (first yes, then no). Returns whether the event was claimed.
    fn reserve_search(&mut self, game: &Game, step: usize, player: usize, scripted: bool) -> bool {
        if !self.searches_logged {
            // Nothing to claim: a scripted "yes" is binding, otherwise both readings are tried
            // (yes first: a search that finds nothing looks like a declined one in the log).
            return scripted || self.alternative(2) == 0;
        }
        let who = game.players[player].name.clone();
        match self.find(step, |e| matches!(e, Event::Searched { .. })) {
            Some(i) if matches!(&self.events[i].event, Event::Searched { player, .. } if *player == who) => {
                if !scripted && self.alternative(2) == 1 {
                    return false;
                }
                self.consumed[i] = true;
                self.reserved.insert(player, i);
                true
            }
            _ => false,
        }
    }

    /// What a search found, for an engine that logs no `searched` events: cards it could find
    /// (the candidates of its instructions) that the log moves in this step, or reveals there
    /// while they are in a library (a card found and put back on top; a hand revealed before the
    /// search doesn't count), each move or reveal evidence for one search only. Which of them
    /// this search found is a reading `judge` revisits: first as many as it may find, then fewer
    /// (a draw or a later search in the same step may have moved the others; a search of a
    /// hidden zone may find nothing, 701.23b). Cards a legal search must find in a public zone
    /// but that can't move (an instant "put onto the battlefield" stays where it is, 400.4a)
    /// leave no trace, so they are taken as found. A found card in a hidden zone the engine
    /// leaves where it was reads as not found, which 701.23b allows.
    fn found_unlogged(
        &mut self,
        game: &Game,
        step: usize,
        parts: &[crate::rules::search::PartPlan],
        to: &[crate::cards::instructions::Destination],
    ) -> Vec<ObjId> {
        // Each candidate with the first unclaimed log entry that shows it (none: the final
        // library shows it, below).
        let mut shown: Vec<(ObjId, Option<usize>)> = Vec::new();
        for &c in parts.iter().flat_map(|p| &p.candidates) {
            let o = game.obj(c);
            let in_library = matches!(o.zone, crate::model::ZoneRef::Library(_));
            let evidence = (0..self.events.len()).find(|&i| {
                let e = &self.events[i];
                e.step == step
                    && !self.evidence_claimed.contains(&i)
                    && match &e.event {
                        Event::Moved { card, .. } => **card == *o.id,
                        Event::Revealed { cards, .. } => in_library && cards.iter().any(|c| **c == *o.id),
                        _ => false,
                    }
            });
            if let Some(i) = evidence
                && !shown.iter().any(|&(s, _)| s == c)
            {
                shown.push((c, Some(i)));
            }
        }
        let most = parts.iter().fold(0usize, |sum, p| sum.saturating_add(p.max));
        // A card found and put back on top of its library (Vampiric Tutor) leaves no move in a
        // log without moves within a library: the cards on top of that library at the end are
        // the ones it may have been (as many as the search may find).
        if !self.library_moves_logged && to.contains(&crate::cards::instructions::Destination::LibraryTop) {
            for &c in parts.iter().flat_map(|p| &p.candidates) {
                let o = game.obj(c);
                let crate::model::ZoneRef::Library(owner) = o.zone else { continue };
                let library = game.zone_name(crate::model::ZoneRef::Library(owner));
                let on_top = self
                    .beyond_log()
                    .zones
                    .get(&library)
                    .is_some_and(|ids| ids.iter().take(most).any(|id| **id == *o.id));
                if on_top && !shown.iter().any(|&(s, _)| s == c) {
                    shown.push((c, None));
                }
            }
        }
        // Readings are tried in order and only the first `MAX_READINGS` are kept, so the cards
        // most likely found go first: those the log moves to where the search puts what it
        // finds, then those it reveals or leaves on top, then those it moves elsewhere. When a
        // search also moves what it doesn't find (Doomsday exiles the rest, 701.13a), every
        // candidate moves and only this order keeps the right reading within the limit.
        let names = game.names();
        let fit = |&(c, evidence): &(ObjId, Option<usize>)| -> u8 {
            let Some(Event::Moved { to: moved_to, .. }) = evidence.map(|i| &self.events[i].event) else { return 1 };
            if to.iter().any(|d| destination_zones(game, c, *d).iter().any(|z| z.display(&names) == *moved_to)) {
                0
            } else {
                2
            }
        };
        shown.sort_by_key(fit);
        let most = most.min(shown.len());
        let mut readings: Vec<Vec<usize>> = Vec::new();
        for k in (0..=most).rev() {
            let room = MAX_READINGS.saturating_sub(readings.len());
            if room == 0 {
                break;
            }
            if k == 0 {
                readings.push(Vec::new());
            } else {
                readings.extend(combinations(shown.len(), k, room));
            }
        }
        let pick = self.alternative(readings.len());
        let mut found: Vec<ObjId> = Vec::new();
        for &j in readings.get(pick).map(Vec::as_slice).unwrap_or(&[]) {
            let (c, i) = shown[j];
            self.evidence_claimed.extend(i);
            found.push(c);
        }
        for p in parts {
            let mut have = p.candidates.iter().filter(|c| found.contains(c)).count();
            for &c in &p.public {
                if !(p.all || have < p.min) {
                    break;
                }
                if !found.contains(&c) && self.untraced_found.insert(c) {
                    found.push(c);
                    have += 1;
                }
            }
        }
        found
    }

    /// The `searched` event of a search by `player`: the one its "may" claimed, else the next.
    fn searched_by(&mut self, step: usize, player: usize, who: &str) -> Option<Event> {
        match self.reserved.remove(&player) {
            Some(i) => Some(self.events[i].event.clone()),
            None => self.take(step, |e| matches!(e, Event::Searched { player, .. } if player == who)).cloned(),
        }
    }
}
