//! The judge: is an observed outcome one of the scenario's legal outcomes?
//!
//! It never enumerates. It replays the scenario once, taking every decision from the observed
//! event log (every event that records a choice carries it: `searched` has `found`, `chose` has
//! `card`…), with each answer checked by the same rules code the enumerator uses. If an answer
//! breaks a rule, that is the verdict; otherwise the replayed outcome is compared with the
//! observed one and every difference is reported with the clause that fixes it. Work is one
//! replay plus sorting the random part of each library: O(n log n) in cards and events.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::model::{Game, ObjId, ZoneRef};
use crate::observables::{Observable, Observables};
use crate::outcome::{Event, LegalOutcome, LoggedEvent, Outcome, is_ordered_event};
use crate::rules::search::assign_parts;
use crate::rules::verdicts;
use crate::scenario::Setup;
use crate::sim::script::Scripted;
use crate::sim::script::blame_script;
use crate::sim::{Choice, Decider, Decision, Sim, SimError};
pub use crate::verdict::{Difference, Verdict};

/// Decisions read off an observed log.
struct Observed<'a> {
    events: &'a [LoggedEvent],
    /// The whole observed outcome (its final zones and `known`).
    outcome: &'a Outcome,
    consumed: Vec<bool>,
    ids: &'a BTreeMap<String, ObjId>,
    /// A `searched` event claimed by a "may search" answered yes, kept for the search itself.
    reserved: BTreeMap<usize, usize>,
    /// How many target choices have been read for each trigger source, per step.
    targets_read: BTreeMap<(usize, String), usize>,
    /// For the k-th merged search of the replay, which of its legal splits to take (701.23h).
    split_picks: Vec<usize>,
    /// How many legal splits each merged search of the replay had.
    split_counts: Vec<usize>,
    /// The legal options of each decision of the replay (for the option-set check, `offers`).
    seen: Vec<crate::offers::Legal>,
    /// For the k-th ambiguous reading of the replay, which alternative to take: which of several
    /// unordered log entries of a step a decision takes, or whether a "may" takes one at all.
    read_picks: Vec<usize>,
    /// How many alternatives each ambiguous reading of the replay had.
    read_counts: Vec<usize>,
    /// Whether the engine logs `searched` events (the `searched` observable); without them a
    /// search's found cards are read from what the log does with them ([`Observed::found_unlogged`]).
    searches_logged: bool,
    /// Whether the engine logs moves within a library (`moves_within_library`).
    library_moves_logged: bool,
    /// Whether the engine reports `searched.library_top` (`library_top`).
    library_top_logged: bool,
    /// The log entries (indexes) taken as evidence of what an unlogged search found.
    evidence_claimed: BTreeSet<usize>,
    /// Public cards an unlogged search was taken to find without a log entry showing it.
    untraced_found: BTreeSet<ObjId>,
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

/// Most splits of one merged search's found cards the judge tries.
const MAX_SPLITS: usize = 16;
/// Most replays of one judgement.
const MAX_REPLAYS: usize = 64;

/// Every way (up to `limit`) to split a merged search's found cards among its instructions so
/// that each instruction's find is legal (701.23h: one search, so the log doesn't say which
/// instruction found which card). Cards only one instruction could find are placed first.
/// `destination` gives, for a found card, where the observation says it went in this step
/// (`None`: it didn't move); cards that went to the same place most likely went by the same
/// instruction, so splits that keep such groups together are tried first.
fn legal_splits(
    game: &Game,
    cards: &[ObjId],
    parts: &[crate::rules::search::PartPlan],
    looked_at: &[ObjId],
    cap: Option<u32>,
    limit: usize,
    destination: &dyn Fn(ObjId) -> Option<String>,
) -> Vec<Vec<Vec<ObjId>>> {
    let mut base = vec![Vec::new(); parts.len()];
    let mut ambiguous = Vec::new();
    for &c in cards {
        let fits: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].candidates.contains(&c)).collect();
        match fits.as_slice() {
            [] => return Vec::new(),
            [only] => base[*only].push(c),
            _ => ambiguous.push((c, fits)),
        }
    }
    let legal = |split: &Vec<Vec<ObjId>>| {
        parts.iter().zip(split).all(|(p, f)| crate::rules::search::check_found(game, p, f, looked_at, cap).is_ok())
    };
    let mut out: Vec<Vec<Vec<ObjId>>> = Vec::new();
    // Greedy splits first — each ambiguous card to the fitting instruction furthest below its
    // minimum, else to the first (or last) one with room — which settle large finds that a
    // depth-first walk would take exponentially long to reach.
    for rule in 0..3 {
        let mut split = base.clone();
        for (card, fits) in &ambiguous {
            let room: Vec<usize> = fits.iter().copied().filter(|&i| split[i].len() < parts[i].max).collect();
            let slot = match rule {
                0 => {
                    room.iter().copied().max_by_key(|&i| (parts[i].min.saturating_sub(split[i].len()), usize::MAX - i))
                }
                1 => room.first().copied(),
                _ => room.last().copied(),
            };
            split[slot.unwrap_or(fits[0])].push(*card);
        }
        if legal(&split) && !out.contains(&split) {
            out.push(split);
        }
    }
    // Splits by observed destination: every card that went to one place goes by one instruction.
    let mut groups: Vec<Option<String>> = Vec::new();
    let group_of: Vec<usize> = ambiguous
        .iter()
        .map(|(c, _)| {
            let d = destination(*c);
            groups.iter().position(|g| *g == d).unwrap_or_else(|| {
                groups.push(d);
                groups.len() - 1
            })
        })
        .collect();
    let combos = parts.len().checked_pow(groups.len() as u32).unwrap_or(usize::MAX);
    if combos <= 256 {
        for mut code in 0..combos {
            let mut target = Vec::new();
            for _ in 0..groups.len() {
                target.push(code % parts.len());
                code /= parts.len();
            }
            let mut split = base.clone();
            for ((card, fits), &g) in ambiguous.iter().zip(&group_of) {
                let slot = if fits.contains(&target[g]) { target[g] } else { fits[0] };
                split[slot].push(*card);
            }
            if legal(&split) && !out.contains(&split) {
                out.push(split);
                if out.len() >= limit {
                    return out;
                }
            }
        }
    }
    let mut budget = 2_000usize;
    let mut stack = vec![(0usize, base)];
    while let Some((i, split)) = stack.pop() {
        if out.len() >= limit || budget == 0 {
            break;
        }
        budget -= 1;
        let Some((card, fits)) = ambiguous.get(i) else {
            if legal(&split) && !out.contains(&split) {
                out.push(split);
            }
            continue;
        };
        for &slot in fits.iter().rev() {
            if split[slot].len() < parts[slot].max {
                let mut next = split.clone();
                next[slot].push(*card);
                stack.push((i + 1, next));
            }
        }
    }
    out
}

/// The split of a merged search's found cards (701.23h) that sends each card by an instruction
/// whose destination is where the observation says the card went (`destination`), the
/// instruction furthest below its minimum among those first; `None` when that split isn't legal.
#[allow(clippy::too_many_arguments)]
fn guided_split(
    game: &Game,
    cards: &[ObjId],
    parts: &[crate::rules::search::PartPlan],
    to: &[crate::cards::instructions::Destination],
    looked_at: &[ObjId],
    cap: Option<u32>,
    destination: &dyn Fn(ObjId) -> Option<String>,
    names: &[String],
) -> Option<Vec<Vec<ObjId>>> {
    let mut split = vec![Vec::new(); parts.len()];
    for &c in cards {
        let fits: Vec<usize> = (0..parts.len()).filter(|&i| parts[i].candidates.contains(&c)).collect();
        let went = destination(c);
        let matching: Vec<usize> = fits
            .iter()
            .copied()
            .filter(|&i| {
                to.get(i).and_then(|&d| crate::sim::destination_zone(game, c, d)).map(|z| z.display(names)) == went
            })
            .collect();
        let pool = if matching.is_empty() { &fits } else { &matching };
        let room: Vec<usize> = pool.iter().copied().filter(|&i| split[i].len() < parts[i].max).collect();
        let slot = room
            .iter()
            .copied()
            .max_by_key(|&i| (parts[i].min.saturating_sub(split[i].len()), usize::MAX - i))
            .or_else(|| pool.first().copied())?;
        split[slot].push(c);
    }
    parts
        .iter()
        .zip(&split)
        .all(|(p, f)| crate::rules::search::check_found(game, p, f, looked_at, cap).is_ok())
        .then_some(split)
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

    /// Where the observation says a card went during `step`, if it moved.
    fn destination(&self, step: usize, id: &str) -> Option<String> {
        self.events.iter().find_map(|e| match &e.event {
            Event::Moved { card, to, .. } if e.step == step && card == id => Some(to.clone()),
            _ => None,
        })
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
        match game.objs.iter().position(|o| o.id == id) {
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
                        Event::Moved { card, .. } => *card == o.id,
                        Event::Revealed { cards, .. } => in_library && cards.contains(&o.id),
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
                let library = crate::model::ZoneRef::Library(owner).display(&game.names());
                let on_top =
                    self.outcome.zones.get(&library).is_some_and(|ids| ids.iter().take(most).any(|id| *id == o.id));
                if on_top && !shown.iter().any(|&(s, _)| s == c) {
                    shown.push((c, None));
                }
            }
        }
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

impl Decider for Observed<'_> {
    /// The replay showed cards: the observed log's matching entry is accounted for, so a later
    /// chance node ([`Decision::Random`] for a reveal or a look) reads the entries after it.
    fn note_shown(&mut self, step: usize, event: &Event) {
        let same = |e: &Event| match (e, event) {
            (Event::Revealed { player: a, cards: x }, Event::Revealed { player: b, cards: y })
            | (Event::LookedAt { player: a, cards: x }, Event::LookedAt { player: b, cards: y }) => {
                a == b && x.iter().collect::<BTreeSet<_>>() == y.iter().collect::<BTreeSet<_>>()
            }
            _ => false,
        };
        self.take(step, same);
    }

    fn note_scripted(&mut self, game: &Game, step: usize, decision: &Decision, choice: &Choice) {
        self.seen.extend(crate::offers::legal_at(game, step, decision));
        let who = game.players[decision.player()].name.clone();
        match (decision, choice) {
            (Decision::May { player, about: "search", .. }, Choice::Bool(true)) => {
                self.reserve_search(game, step, *player, true);
            }
            (Decision::May { card: Some(c), .. }, Choice::Bool(true)) => {
                let id = game.obj(*c).id.clone();
                self.take(step, |e| matches!(e, Event::Counters { card, .. } if *card == id));
            }
            (Decision::Find { searcher, .. }, _) => {
                self.searched_by(step, *searcher, &who);
            }
            (Decision::ChooseCard { .. }, Choice::Cards(c)) => {
                // The entry that records the scripted card, wherever the log lists it.
                let ids: Vec<String> = c.iter().map(|&o| game.obj(o).id.clone()).collect();
                self.take(step, |e| matches!(e, Event::Chose { player, card } if *player == who && ids.contains(card)));
            }
            (Decision::Sacrifice { .. }, Choice::Cards(c)) => {
                let ids: Vec<String> = c.iter().map(|&o| game.obj(o).id.clone()).collect();
                self.take(
                    step,
                    |e| matches!(e, Event::Sacrificed { player, card } if *player == who && ids.contains(card)),
                );
            }
            (Decision::Dredge { draw: n, .. }, Choice::Cards(c)) if !c.is_empty() => {
                self.take(step, |e| matches!(e, Event::Dredged { player, draw, .. } if *player == who && draw == n));
            }
            (Decision::Discard { .. }, Choice::Cards(c)) => {
                for &card in c {
                    let id = game.obj(card).id.clone();
                    self.take(
                        step,
                        |e| matches!(e, Event::Discarded { player, card, .. } if *player == who && *card == id),
                    );
                }
            }
            (Decision::Name { .. }, Choice::Name(n)) => {
                self.take(step, |e| matches!(e, Event::Named { player, name } if *player == who && name == n));
            }
            (Decision::CastFree { .. }, Choice::Cast(Some((card, _)))) => {
                let id = game.obj(*card).id.clone();
                self.take(step, |e| matches!(e, Event::Cast { player, card, .. } if *player == who && *card == id));
            }
            (Decision::Targets { source, .. }, _) => {
                let key = (step, game.obj(*source).id.clone());
                *self.targets_read.entry(key).or_default() += 1;
            }
            _ => {}
        }
    }

    fn decide(&mut self, game: &Game, step: usize, decision: &Decision) -> Result<Choice, SimError> {
        self.seen.extend(crate::offers::legal_at(game, step, decision));
        let names = game.names();
        let name = |p: usize| names[p].clone();
        match decision {
            // Each "yes" claims the log entry it corresponds to, so a second "may" in the same step
            // needs a second entry.
            Decision::May { player, about: "search", .. } => {
                Ok(Choice::Bool(self.reserve_search(game, step, *player, false)))
            }
            Decision::May { about: "begin_on_battlefield", card, .. } => {
                let id = card.map(|c| game.obj(c).id.clone()).unwrap_or_default();
                Ok(Choice::Bool(
                    self.find(
                        step,
                        |e| matches!(e, Event::Moved { card, to, .. } if *card == id && to == "battlefield"),
                    )
                    .is_some(),
                ))
            }
            Decision::May { card, .. } => {
                // A `counters` entry for the card means yes — unless it is a later one's (the
                // entries are unordered): a reading `judge` revisits.
                let id = card.map(|c| game.obj(c).id.clone());
                let pred = |e: &Event| matches!(e, Event::Counters { card, .. } if Some(card) == id.as_ref());
                let yes = self.find(step, pred).is_some() && self.alternative(2) == 0;
                Ok(Choice::Bool(yes && self.take_any(step, pred).is_some()))
            }
            Decision::Find { searcher, parts, cap, looked_at, to, .. } => {
                let who = name(*searcher);
                let logged = if self.searches_logged {
                    self.searched_by(step, *searcher, &who)
                } else {
                    Some(Event::Searched {
                        player: who.clone(),
                        zones: Vec::new(),
                        library_top: None,
                        found: {
                            let found = self.found_unlogged(game, step, parts, to);
                            found.iter().map(|&c| game.obj(c).id.clone()).collect()
                        },
                    })
                };
                let Some(Event::Searched { found, .. }) = logged else {
                    let (clause, why) = verdicts::unlogged_search_clause(
                        cap.is_some(),
                        parts.iter().any(|p| p.quality == crate::rules::search::Quality::Undefined),
                        looked_at.is_empty(),
                    );
                    return Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to search but the log has no `searched` event for it{why}"),
                        clause,
                    });
                };
                let cards = found.iter().map(|id| self.obj(id, step)).collect::<Result<Vec<_>, _>>()?;
                if parts.len() < 2 {
                    return Ok(Choice::Parts(assign_parts(game, &cards, parts, looked_at, *cap)));
                }
                // Several splits may be legal but lead to different outcomes (the instructions
                // put cards in different places); the replay takes the one `split_picks` says,
                // and `judge` tries the others when the first doesn't match the observation.
                // The first is the split `assign_parts` finds; the others follow.
                // The split that sends each card by an instruction that puts it where the
                // observation says it went comes first, when it is legal: with several searchers'
                // merged searches (701.23i) a wrong split of one search can stop the replay
                // (an unmodelled card put onto the battlefield) before the others are compared,
                // so trying splits one search at a time may never reach the matching combination.
                let names = game.names();
                // Where the observation put each found card, looked up once (the splits ask often).
                let went: BTreeMap<ObjId, Option<String>> =
                    cards.iter().map(|&c| (c, self.destination(step, &game.obj(c).id))).collect();
                let destination = |c: ObjId| match went.get(&c) {
                    Some(d) => d.clone(),
                    None => self.destination(step, &game.obj(c).id),
                };
                let guided = guided_split(game, &cards, parts, to, looked_at, *cap, &destination, &names);
                let first = assign_parts(game, &cards, parts, looked_at, *cap);
                let mut splits: Vec<Vec<Vec<ObjId>>> = guided.into_iter().collect();
                if !splits.contains(&first) {
                    splits.push(first);
                }
                let others = legal_splits(game, &cards, parts, looked_at, *cap, MAX_SPLITS, &destination);
                for s in others {
                    if !splits.contains(&s) {
                        splits.push(s);
                    }
                }
                let k = self.split_counts.len();
                self.split_counts.push(splits.len());
                let pick = self.split_picks.get(k).copied().unwrap_or(0).min(splits.len() - 1);
                Ok(Choice::Parts(splits.swap_remove(pick)))
            }
            Decision::OrderTriggers { player, triggers } => {
                // The observed `triggered` events of this player, in log order, are the order the
                // triggers went on the stack; match each to one of the pending triggers.
                let who = name(*player);
                let mut order = Vec::new();
                let mut used = vec![false; triggers.len()];
                let mut taken = Vec::new();
                for (i, e) in self.events.iter().enumerate() {
                    if self.consumed[i] || e.step != step {
                        continue;
                    }
                    if let Event::Triggered { source, controller, on, player, .. } = &e.event
                        && *controller == who
                        && let Some(k) = (0..triggers.len()).find(|&k| {
                            let (src, event, by) = triggers[k];
                            !used[k]
                                && game.obj(src).id == *source
                                && (on.is_empty() || event == on.as_str())
                                && by.map(|p| names[p].as_str()) == player.as_deref()
                        })
                    {
                        used[k] = true;
                        order.push(k);
                        taken.push(i);
                    }
                }
                // A trigger the log doesn't report may be one the replay will remove from the
                // stack for want of a legal target (603.3d, not logged): the reported ones keep
                // their logged order and the others follow in the order they triggered. If one of
                // those does go on the stack, the comparison names it as missing.
                order.extend(used.iter().enumerate().filter(|(_, u)| !**u).map(|(k, _)| k));
                for i in taken {
                    self.consumed[i] = true;
                }
                Ok(Choice::Order(order))
            }
            Decision::ChooseCard { player, options } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id.clone()).collect();
                let fits = |e: &Event| matches!(e, Event::Chose { card, .. } if ids.contains(card));
                match self.take_fitting(step, |e| matches!(e, Event::Chose { player, .. } if *player == who), fits) {
                    Some(Event::Chose { card, .. }) => Ok(Choice::Cards(vec![self.obj(&card, step)?])),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to choose a card but the log has no `chose` event"),
                        clause: "608.2d",
                    }),
                }
            }
            Decision::Sacrifice { player, options } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id.clone()).collect();
                let fits = |e: &Event| matches!(e, Event::Sacrificed { card, .. } if ids.contains(card));
                match self.take_fitting(step, |e| matches!(e, Event::Sacrificed { player, .. } if *player == who), fits)
                {
                    Some(Event::Sacrificed { card, .. }) => Ok(Choice::Cards(vec![self.obj(&card, step)?])),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to sacrifice a permanent but the log has no `sacrificed` event"),
                        clause: "701.21a",
                    }),
                }
            }
            Decision::Dredge { player, draw, options } => {
                // The `draw` number says which of the player's draws in this step was replaced.
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id.clone()).collect();
                let n = *draw;
                match self
                    .take(step, |e| {
                        matches!(e, Event::Dredged { player, card, draw } if *player == who && *draw == n && ids.contains(card))
                    })
                    .cloned()
                {
                    Some(Event::Dredged { card, .. }) => Ok(Choice::Cards(vec![self.obj_in(game, &card, step)?])),
                    _ => Ok(Choice::Cards(Vec::new())),
                }
            }
            Decision::Discard { player, options, count, optional } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&o| game.obj(o).id.clone()).collect();
                let mut picked = Vec::new();
                let taken = self.take_some(
                    step,
                    *count,
                    |e| matches!(e, Event::Discarded { player, card } if *player == who && ids.contains(card)),
                );
                for e in taken {
                    if let Event::Discarded { card, .. } = e {
                        let o = self.obj_in(game, &card, step)?;
                        if !picked.contains(&o) {
                            picked.push(o);
                        }
                    }
                }
                if *optional && picked.is_empty() {
                    return Ok(Choice::Cards(picked)); // The optional cost wasn't paid.
                }
                for &o in options {
                    if picked.len() >= *count {
                        break;
                    }
                    if !picked.contains(&o) {
                        picked.push(o); // Not reported: the comparison names what is missing.
                    }
                }
                Ok(Choice::Cards(picked))
            }
            Decision::Name { player, options, .. } => {
                let who = name(*player);
                let fits = |e: &Event| matches!(e, Event::Named { name, .. } if options.contains(name));
                match self.take_fitting(step, |e| matches!(e, Event::Named { player, .. } if *player == who), fits) {
                    Some(Event::Named { name, .. }) => Ok(Choice::Name(name)),
                    _ => Err(SimError::NoAnswer {
                        step,
                        message: format!("{who} had to choose a card name but the log has no `named` event"),
                        clause: "709.4a",
                    }),
                }
            }
            Decision::CastFree { player, options, .. } => {
                let who = name(*player);
                let ids: BTreeSet<String> = options.iter().map(|&(o, _)| game.obj(o).id.clone()).collect();
                // A matching `cast` entry may also be a later such decision's (entries are
                // unordered): each one, or none, is a reading `judge` may revisit.
                let pred = |e: &Event| matches!(e, Event::Cast { player, card, without_paying_mana_cost: true, .. } if *player == who && ids.contains(card));
                let c = self.candidates(step, pred);
                let cast = match self.alternative((c.len() + 1).min(MAX_READINGS)) {
                    k if k < c.len() => {
                        self.consumed[c[k]] = true;
                        Some(self.events[c[k]].event.clone())
                    }
                    _ => None,
                };
                match cast {
                    Some(Event::Cast { card, face, .. }) => {
                        let o = self.obj_in(game, &card, step)?;
                        let def = &game.obj(o).def;
                        let half = face.as_ref().and_then(|f| def.split.iter().position(|h| &h.name == f));
                        Ok(Choice::Cast(Some((o, half))))
                    }
                    _ => Ok(Choice::Cast(None)),
                }
            }
            Decision::Targets { source, options, .. } => {
                let sid = game.obj(*source).id.clone();
                let k = self.targets_read.get(&(step, sid.clone())).copied().unwrap_or(0);
                *self.targets_read.entry((step, sid.clone())).or_default() += 1;
                let reported = self
                    .events
                    .iter()
                    .filter(|e| e.step == step)
                    .filter_map(|e| match &e.event {
                        Event::Triggered { source, targets, .. } if *source == sid => Some(targets.clone()),
                        _ => None,
                    })
                    .nth(k);
                let Some(reported) = reported else {
                    return Ok(Choice::Targets(options.first().cloned().unwrap_or_default()));
                };
                let mut chosen = Vec::new();
                for t in &reported {
                    if let Some(p) = names.iter().position(|n| n == t) {
                        chosen.push(crate::sim::TargetChoice::Player(p));
                    } else {
                        let o = self.obj_in(game, t, step)?;
                        chosen.push(crate::sim::TargetChoice::Obj(o, game.obj(o).object_no));
                    }
                }
                Ok(Choice::Targets(chosen))
            }
            Decision::SearchLimit { player, options } => {
                // 616.1: the limit the searcher applied last is the one their `searched` event
                // reports (the event its "may" claimed, else their next one of the step); the
                // search checks it against the limits that apply.
                let who = name(*player);
                let event = match self.reserved.get(player) {
                    Some(&i) => Some(i),
                    None => self.find(step, |e| matches!(e, Event::Searched { player, .. } if *player == who)),
                };
                let logged = event.and_then(|i| match &self.events[i].event {
                    Event::Searched { library_top, .. } => *library_top,
                    _ => None,
                });
                match logged {
                    Some(n) => Ok(Choice::Limit(n)),
                    // The engine doesn't report limits: each one the searcher could apply is a
                    // reading.
                    None if !self.searches_logged || !self.library_top_logged => {
                        let k = self.alternative(options.len());
                        Ok(Choice::Limit(options.get(k).copied().unwrap_or(0)))
                    }
                    None => Ok(Choice::Limit(options.first().copied().unwrap_or(0))),
                }
            }
            Decision::Replacement { options, card, .. } => {
                // 616.1: which effect applied shows in where the card went (a library, exile)
                // and whether it was revealed (Darksteel Colossus); the top or the bottom of a
                // library doesn't show in the log, so the others are replayed when the first
                // doesn't match (as merged-search splits are).
                let id = game.obj(*card).id.clone();
                let to = self.destination(step, &id).unwrap_or_default();
                let revealed = self.events.iter().any(|e| {
                    e.step == step && matches!(&e.event, Event::Revealed { cards, .. } if cards.contains(&id))
                });
                let fits = |r: &crate::rules::replacement::GraveyardReplacement| {
                    use crate::rules::replacement::GraveyardReplacement as R;
                    match r {
                        R::FlashbackExile | R::ExileInstead => to == "exile",
                        R::ShuffleIntoLibrary => revealed && to.ends_with(".library"),
                        R::LibraryTop | R::LibraryBottom => !revealed && to.ends_with(".library"),
                    }
                };
                let mut ranked = options.clone();
                ranked.sort_by_key(|r| !fits(r));
                Ok(Choice::Name(self.pick_alternative(&ranked).key().to_string()))
            }
            Decision::CostOrder { player, parts } => {
                // 601.2h: the order the log shows each part being paid in; the other orders are
                // replayed when that one doesn't match.
                use crate::rules::casting::CostPart;
                let library = ZoneRef::Library(*player).display(&names);
                let first_at = |part: &CostPart| -> usize {
                    let hit = |e: &Event| match (part, e) {
                        (CostPart::DiscardThis(c) | CostPart::Discard(c), Event::Discarded { card, .. })
                        | (CostPart::SacrificeThis(c) | CostPart::Sacrifice(c), Event::Sacrificed { card, .. }) => {
                            *card == game.obj(*c).id
                        }
                        (CostPart::Mill(_), Event::Moved { from, .. }) => *from == library,
                        _ => false,
                    };
                    self.events.iter().position(|e| e.step == step && hit(&e.event)).unwrap_or(usize::MAX)
                };
                let mut seen: Vec<usize> = (0..parts.len()).collect();
                seen.sort_by_key(|&i| first_at(&parts[i]));
                let mut orders = vec![seen.clone()];
                if let Ok(all) = crate::explore::options(game, decision, 1_000) {
                    orders.extend(all.into_iter().filter_map(|c| match c {
                        Choice::Order(o) if o != seen => Some(o),
                        _ => None,
                    }));
                }
                Ok(Choice::Order(self.pick_alternative(&orders).clone()))
            }
            Decision::Random { player, purpose, from, count } => {
                let library = ZoneRef::Library(*player).display(&names);
                let from_ids: BTreeSet<&str> = from.iter().map(|&o| game.obj(o).id.as_str()).collect();
                let mut picked: Vec<ObjId> = Vec::new();
                if *purpose == "draw" {
                    let hand = ZoneRef::Hand(*player).display(&names);
                    if let Some(Event::Moved { card, .. }) = self.take_any(step, |e| matches!(e, Event::Moved { card, from, to } if *from == library && *to == hand && from_ids.contains(card.as_str())))
                    {
                        picked.push(self.obj(&card, step)?);
                    }
                } else if *purpose == "mill" {
                    // Milled cards are the ones the log moves from this library to a graveyard
                    // (or where a replacement sent them) in this step — not into the hand, which
                    // is a draw.
                    let hand = ZoneRef::Hand(*player).display(&names);
                    let milled = self.take_some(step, *count, |e| matches!(e, Event::Moved { card, from, to } if *from == library && *to != hand && from_ids.contains(card.as_str())));
                    for e in milled {
                        if let Event::Moved { card, .. } = e {
                            picked.push(self.obj(&card, step)?);
                        }
                    }
                } else if *purpose == "reveal" || *purpose == "look" {
                    // A reveal reads a `revealed` entry, a look a `looked_at` one (701.20a, e),
                    // however the log orders the two kinds within the step; when several could be
                    // this one, which is a reading `judge` may revisit. The entry is accounted for
                    // when the replay logs it (`note_shown`).
                    let who = name(*player);
                    let reveal = *purpose == "reveal";
                    let shown = self.peek_any(step, |e| match e {
                        Event::Revealed { player, cards } if reveal => {
                            *player == who && cards.iter().any(|c| from_ids.contains(c.as_str()))
                        }
                        Event::LookedAt { player, cards } if !reveal => {
                            *player == who && cards.iter().any(|c| from_ids.contains(c.as_str()))
                        }
                        _ => false,
                    });
                    if let Some(Event::Revealed { cards, .. } | Event::LookedAt { cards, .. }) = shown {
                        for c in cards {
                            if from_ids.contains(c.as_str()) {
                                picked.push(self.obj(&c, step)?);
                            }
                        }
                    }
                } else {
                    // The window holds whatever this step's searches of the library found there
                    // (several simultaneous searchers share one window); the rest is arbitrary.
                    let reserved: BTreeSet<usize> = self.reserved.values().copied().collect();
                    for (i, e) in self.events.iter().enumerate() {
                        if e.step != step || (self.consumed[i] && !reserved.contains(&i)) {
                            continue;
                        }
                        if let Event::Searched { zones, found, .. } = &e.event
                            && zones.contains(&library)
                        {
                            for id in found {
                                if from_ids.contains(id.as_str())
                                    && let Some(&o) = self.ids.get(id)
                                    && !picked.contains(&o)
                                {
                                    picked.push(o);
                                }
                            }
                        }
                    }
                    // 701.23a: the searcher looked at the window's cards, so those left in an
                    // unshuffled library are the ones the observation says someone knows there;
                    // 701.20b: they stay on top, so later draws and mills take them first (until
                    // the library is shuffled).
                    let add = |id: &str, picked: &mut Vec<ObjId>| {
                        if from_ids.contains(id)
                            && let Some(&o) = self.ids.get(id)
                            && !picked.contains(&o)
                        {
                            picked.push(o);
                        }
                    };
                    let known_there = self
                        .outcome
                        .zones
                        .get(&library)
                        .into_iter()
                        .flatten()
                        .filter(|id| self.outcome.known.get(id.as_str()).is_some_and(|who| !who.is_empty()));
                    for id in known_there {
                        add(id, &mut picked);
                    }
                    let owner = name(*player);
                    // Without `searched` events, the cards moved out of the library in this step
                    // (the found ones among them) were in the window too.
                    let start = self
                        .events
                        .iter()
                        .position(|e| {
                            e.step == step
                                && (!self.searches_logged
                                    || matches!(&e.event, Event::Searched { zones, .. } if zones.contains(&library)))
                        })
                        .unwrap_or(self.events.len());
                    for e in &self.events[start..] {
                        match &e.event {
                            Event::Shuffled { library: l } if *l == owner => break,
                            Event::Moved { card, from, .. } if *from == library => add(card, &mut picked),
                            _ => {}
                        }
                    }
                }
                if *purpose != "draw" && *purpose != "mill" {
                    // What the log doesn't show (an engine that doesn't report `looked_at` or
                    // `known`): the cards looked at, revealed or searched on top of the library and
                    // left there are still its top cards at the end unless something moved or
                    // shuffled them, so the observed final library is the best next guess.
                    let top = self.outcome.zones.get(&library).into_iter().flatten();
                    for id in top {
                        if from_ids.contains(id.as_str())
                            && let Some(&o) = self.ids.get(id.as_str())
                            && !picked.contains(&o)
                        {
                            picked.push(o);
                        }
                    }
                }
                picked.truncate(*count);
                for &o in from {
                    if picked.len() >= *count {
                        break;
                    }
                    if !picked.contains(&o) {
                        picked.push(o);
                    }
                }
                Ok(Choice::Cards(picked))
            }
        }
    }
}

/// Judges `observed` against the legal outcomes of `setup`.
///
/// Some of the log can be read more than one way: events other than `searched` and `triggered`
/// are unordered within a step, so when one step holds several decisions of one kind by one
/// player (two names, two draws, a reveal and a look…) which entry answers which decision is not
/// written down; and a declined "may search" leaves no entry, so the next `searched` event of
/// that player may be a later search's. The first replay takes the first reading of each such
/// point; when it doesn't match the observation, the other readings are tried depth-first (the
/// last point first). For each reading, a merged search (701.23h) whose found cards can be split
/// among its instructions in more than one legal way is replayed with the other splits when the
/// first replay doesn't match: one merged search at a time, keeping for each the split that
/// leaves the fewest differences (each search's split decides where its own cards go). Choices
/// the log doesn't show exactly — which replacement effect applied (616.1), the order cost parts
/// were paid in (601.2h) — are tried the same way. All of it within `MAX_REPLAYS` (64) replays.
/// When none matches, the verdict is that of the closest replay (the first one on a tie).
pub fn judge(setup: &Setup, observed: &Outcome) -> Verdict {
    judge_observing(setup, observed, &Observables::all()).verdict
}

/// A verdict with what the engine's declared observables left unchecked.
#[derive(Debug, Clone)]
pub struct Judged {
    /// The verdict on what was observed.
    pub verdict: Verdict,
    /// The observables this scenario's outcome involves that the engine doesn't report.
    pub unchecked: Vec<Observable>,
    /// The legal options at each decision of the replay that matched the observation (else the
    /// first replay), for the option-set check.
    pub decisions: Vec<crate::offers::Legal>,
}

/// [`judge`] for an engine that reports only `observables` (protocol 2): both the replayed and
/// the observed outcome are projected onto them before they are compared.
pub fn judge_observing(setup: &Setup, observed: &Outcome, observables: &Observables) -> Judged {
    // An outcome that names no trigger kinds is judged without them.
    let strip_on = observed.events.iter().any(|e| matches!(&e.event, Event::Triggered { on, .. } if on.is_empty()));
    let look = Look { observables, strip_on };
    let mut replays = 0;
    let mut trail: Vec<usize> = Vec::new();
    let mut best: Option<((usize, usize), Verdict)> = None;
    // What the first replay saw: the observables it left unchecked and the legal options.
    let mut first: Option<(Vec<Observable>, Vec<crate::offers::Legal>)> = None;
    let verdict = loop {
        let (verdict, score, readings) = judge_reading(setup, observed, &trail, &mut replays, &look, &mut first);
        if verdict.is_legal() {
            // The reading that matched is the one whose decisions the engine faced.
            break verdict;
        }
        if best.as_ref().is_none_or(|(s, _)| score < *s) {
            best = Some((score, verdict));
        }
        match next_reading(&trail, &readings) {
            Some(next) if replays < MAX_REPLAYS => trail = next,
            _ => break best.map_or_else(|| Verdict::Error("the judge made no replay".into()), |(_, v)| v),
        }
    };
    let (mut unchecked, decisions) = first.unwrap_or_default();
    if strip_on && observables.has(Observable::TriggerKind) && !unchecked.contains(&Observable::TriggerKind) {
        unchecked.push(Observable::TriggerKind);
    }
    Judged { verdict, unchecked, decisions }
}

/// What the judge compares.
struct Look<'a> {
    observables: &'a Observables,
    strip_on: bool,
}

/// The next reading depth-first after `trail`, given how many readings each ambiguous point of
/// its replay had: the last point that has another reading takes it, later points start over.
fn next_reading(trail: &[usize], readings: &[usize]) -> Option<Vec<usize>> {
    let mut next: Vec<usize> = (0..readings.len()).map(|i| trail.get(i).copied().unwrap_or(0)).collect();
    let i = (0..readings.len()).rev().find(|&i| next[i] + 1 < readings[i])?;
    next[i] += 1;
    next.truncate(i + 1);
    Some(next)
}

/// How close a verdict is: a replay that ran to the end is closer than one a rule stopped; then
/// fewer differences.
fn closeness(v: &Verdict, ran: bool) -> (usize, usize) {
    match v {
        Verdict::Legal => (0, 0),
        Verdict::Illegal(d) => (usize::from(!ran), d.len()),
        Verdict::Error(_) => (2, 0),
    }
}

/// The replays of one reading of the log (`read_picks`), with the splits of its merged searches
/// tried as `judge` describes: the best verdict, its closeness, and how many readings each
/// ambiguous point of the first replay had. Counts replays in `replays`; the unchecked observables
/// and legal options of the very first replay, or of the replay that matches, go to `first_seen`.
fn judge_reading(
    setup: &Setup,
    observed: &Outcome,
    read_picks: &[usize],
    replays: &mut usize,
    look: &Look,
    first_seen: &mut Option<(Vec<Observable>, Vec<crate::offers::Legal>)>,
) -> (Verdict, (usize, usize), Vec<usize>) {
    let first = judge_with_splits(setup, observed, read_picks, Vec::new(), look);
    *replays += 1;
    // The first replay's, unless a later one matches the observation (then that one's).
    if first_seen.is_none() || first.verdict.is_legal() {
        *first_seen = Some((first.unchecked, first.seen));
    }
    let readings = first.read_counts;
    let counts = first.split_counts;
    let mut best_score = closeness(&first.verdict, first.ran);
    let mut best = first.verdict;
    if best.is_legal() || counts.iter().all(|&c| c <= 1) {
        return (best, best_score, readings);
    }
    let mut picks = vec![0; counts.len()];
    // Passes over the merged searches until a pass changes nothing: a later search's split can
    // stop the replay before an earlier one's effects are compared.
    let mut improved = true;
    while improved {
        improved = false;
        for k in 0..counts.len() {
            for alt in 0..counts[k] {
                if alt == picks[k] {
                    continue;
                }
                if *replays >= MAX_REPLAYS {
                    return (best, best_score, readings);
                }
                *replays += 1;
                let mut trial = picks.clone();
                trial[k] = alt;
                let replay = judge_with_splits(setup, observed, read_picks, trial.clone(), look);
                let score = closeness(&replay.verdict, replay.ran);
                if replay.verdict.is_legal() {
                    *first_seen = Some((replay.unchecked, replay.seen));
                    return (replay.verdict, score, readings);
                }
                if score < best_score {
                    best_score = score;
                    best = replay.verdict;
                    picks = trial;
                    improved = true;
                }
            }
        }
    }
    (best, best_score, readings)
}

/// What one replay gives.
struct Replay {
    verdict: Verdict,
    /// How many splits each merged search had.
    split_counts: Vec<usize>,
    /// How many readings each ambiguous point of the log had.
    read_counts: Vec<usize>,
    /// Whether the replay ran to the end (so its differences are a full comparison).
    ran: bool,
    /// The observables this replay's outcome involves that the engine doesn't report.
    unchecked: Vec<Observable>,
    /// The legal options at each decision of the replay.
    seen: Vec<crate::offers::Legal>,
}

/// One replay with the given reading of the log and splits.
fn judge_with_splits(
    setup: &Setup,
    observed: &Outcome,
    read_picks: &[usize],
    split_picks: Vec<usize>,
    look: &Look,
) -> Replay {
    let reader = Observed {
        targets_read: BTreeMap::new(),
        events: &observed.events,
        outcome: observed,
        consumed: vec![false; observed.events.len()],
        ids: &setup.ids,
        reserved: BTreeMap::new(),
        split_picks,
        split_counts: Vec::new(),
        seen: Vec::new(),
        read_picks: read_picks.to_vec(),
        read_counts: Vec::new(),
        searches_logged: look.observables.has(Observable::Searched),
        library_moves_logged: look.observables.has(Observable::MovesWithinLibrary),
        library_top_logged: look.observables.has(Observable::LibraryTop),
        evidence_claimed: BTreeSet::new(),
        untraced_found: BTreeSet::new(),
    };
    let mut decider = Scripted::new(&setup.script, reader);
    let mut sim = Sim::new(setup.game.clone(), &mut decider);
    let ran = sim.run(&setup.actions);
    let expected = sim.outcome();
    let causes = Causes::of(&sim);
    drop(sim);
    let split_counts = std::mem::take(&mut decider.inner.split_counts);
    let read_counts = std::mem::take(&mut decider.inner.read_counts);
    let seen = std::mem::take(&mut decider.inner.seen);
    let ran_through = ran.is_ok();
    let unchecked = look.observables.unchecked(&expected.outcome);
    let verdict = match ran.map_err(|e| blame_script(e, decider.last)) {
        Ok(()) => {
            let diffs = if look.observables.is_all() && !look.strip_on {
                compare(&expected, observed, &causes)
            } else {
                // Only what the engine reports is compared: both sides projected alike.
                let mut expected = expected;
                let mut observed = observed.clone();
                look.observables.project(&mut expected.outcome, look.strip_on);
                look.observables.project(&mut observed, look.strip_on);
                let mut causes = causes;
                causes.log = causes
                    .log
                    .iter()
                    .filter_map(|(e, c)| look.observables.project_event(e, look.strip_on).map(|e| (e, *c)))
                    .collect();
                compare(&expected, &observed, &causes)
            };
            if diffs.is_empty() { Verdict::Legal } else { Verdict::Illegal(diffs) }
        }
        Err(SimError::Illegal { violation, step, .. }) => Verdict::Illegal(vec![Difference {
            clause: violation.clause.to_string(),
            message: format!("step {step}: {}", violation.message),
        }]),
        Err(SimError::NoAnswer { step, message, clause }) => Verdict::Illegal(vec![Difference {
            clause: clause.to_string(),
            message: format!("step {step}: {message}"),
        }]),
        Err(other) => Verdict::Error(format!("{other:?}")),
    };
    Replay { verdict, split_counts, read_counts, ran: ran_through, unchecked, seen }
}

/// What the replay decided, to name the first cause of a difference: every logged event with the
/// clause that decided it, every rule decision that prevented or replaced events
/// ([`crate::sim::RuleDecision`]), and the clause of each card's last move.
#[derive(Debug, Clone, Default)]
pub struct Causes {
    /// The replayed log, normalized, in order, each event with its clause.
    pub log: Vec<(LoggedEvent, &'static str)>,
    /// Rule decisions: step, log position (before the event at that index), clause, card ids.
    pub decisions: Vec<(usize, usize, &'static str, Vec<String>)>,
    /// The clause of the instruction that last moved each card.
    pub moves: BTreeMap<String, &'static str>,
    /// The actor of each event of `log` ([`actor`]), worked out once, when an unexpected event
    /// first needs its counterpart (an outcome with many extra events would otherwise
    /// serialize the log once per event).
    actors: std::cell::OnceCell<Vec<String>>,
}

impl Causes {
    /// The causes recorded by a finished replay.
    pub fn of(sim: &Sim) -> Causes {
        let id = |o: ObjId| sim.game.obj(o).id.clone();
        Causes {
            log: sim
                .log
                .iter()
                .map(|e| LoggedEvent { step: e.step, event: e.event.normalized() })
                .zip(sim.log_clauses.iter().copied())
                .collect(),
            decisions: sim
                .decisions
                .iter()
                .map(|d| (d.step, d.at, d.clause, d.cards.iter().map(|&o| id(o)).collect()))
                .collect(),
            moves: sim.last_move.iter().map(|(&o, cause)| (id(o), cause.clause)).collect(),
            actors: std::cell::OnceCell::new(),
        }
    }

    /// Where an event missing from the observation parts ways: its position in the replay and
    /// the clause that decided it.
    fn missing(&self, e: &LoggedEvent) -> (u64, &'static str) {
        match self.log.iter().position(|(l, _)| l == e) {
            Some(i) => (event_key(i), self.log[i].1),
            None => (u64::MAX / 2, "608.2"),
        }
    }

    /// Where an event the rules don't produce parts ways: the replayed event it stands for (the
    /// same kind of event by the same actor in the same step — preferring one that is itself
    /// missing — whose clause decided what should have happened); else the first rule decision
    /// of the step that prevented or replaced events; else the end of the step, with the clause
    /// of that kind of event.
    fn extra(&self, e: &LoggedEvent, missing: &BTreeMap<&LoggedEvent, i64>) -> (u64, &'static str) {
        let who = actor(&e.event);
        let actors = self.actors.get_or_init(|| self.log.iter().map(|(l, _)| actor(&l.event)).collect());
        let same = |i: usize, l: &LoggedEvent| l.step == e.step && l.event.kind() == e.event.kind() && actors[i] == who;
        let counterpart = self
            .log
            .iter()
            .enumerate()
            .filter(|(i, (l, _))| same(*i, l))
            .min_by_key(|(_, (l, _))| missing.get(l).is_none_or(|n| *n <= 0));
        if let Some((i, (_, clause))) = counterpart {
            return (event_key(i) + 1, clause);
        }
        if let Some((_, at, clause, _)) = self.decisions.iter().find(|d| d.0 == e.step) {
            return (2 * *at as u64, clause);
        }
        let end = self.log.iter().position(|(l, _)| l.step > e.step).unwrap_or(self.log.len());
        let (flashback, free) = match e.event {
            Event::Cast { flashback, without_paying_mana_cost, .. } => (flashback, without_paying_mana_cost),
            _ => (false, false),
        };
        (2 * end as u64, verdicts::unexpected_event_clause(e.event.kind(), flashback, free))
    }

    /// The clause of the last rule decision that set what players know of `card` (now in
    /// `zone`): a shuffle of its library, a reveal, a look, a search of its hand, a reordering, a
    /// move that decides it (face-down exile, 406.3). `None` when there is none, or only a move by
    /// a plain instruction.
    fn knowledge(&self, card: &str, zone: Option<&str>) -> Option<&'static str> {
        let library = zone.and_then(|z| z.strip_suffix(".library"));
        let mut last: Option<(u64, &'static str)> = None;
        for (i, (l, clause)) in self.log.iter().enumerate() {
            let touches = match &l.event {
                Event::Shuffled { library: lib } => library == Some(lib.as_str()),
                Event::Revealed { cards, .. } | Event::LookedAt { cards, .. } => cards.iter().any(|c| c == card),
                Event::Searched { zones, .. } => {
                    zone.is_some_and(|z| z.ends_with(".hand") && zones.iter().any(|s| s == z))
                }
                Event::Moved { card: c, .. } => c == card,
                _ => false,
            };
            // A move by a plain instruction doesn't decide who knows the card; an earlier
            // decision (a reordering before a draw) still does.
            if touches && !(matches!(l.event, Event::Moved { .. }) && verdicts::GENERIC_MOVE_CLAUSES.contains(clause)) {
                // A searcher knows a searched hand because searching looks at every card (701.23a).
                let clause = if matches!(l.event, Event::Searched { .. }) { "701.23a" } else { clause };
                last = Some((event_key(i), clause));
            }
        }
        for (_, at, clause, cards) in &self.decisions {
            if cards.iter().any(|c| c == card) && last.is_none_or(|(k, _)| 2 * *at as u64 >= k) {
                last = Some((2 * *at as u64, clause));
            }
        }
        last.map(|(_, c)| c)
    }
}

/// The sort key of a replayed event at log index `i`; a rule decision made before it sorts first.
fn event_key(i: usize) -> u64 {
    2 * i as u64 + 1
}

/// Who or what an event is about, to match an unexpected event with the replayed one it stands
/// for: a trigger's source and event, else the card, library or player.
fn actor(e: &Event) -> String {
    let v = serde_json::to_value(e).unwrap_or_default();
    let field = |k: &str| v.get(k).map(|x| x.to_string());
    match (field("source"), field("on")) {
        (Some(s), Some(on)) => format!("{s}/{on}"),
        _ => ["card", "library", "player", "token"].iter().find_map(|k| field(k)).unwrap_or_default(),
    }
}

fn show(event: &LoggedEvent) -> String {
    serde_json::to_string(event).unwrap_or_else(|_| format!("{event:?}"))
}

/// Every difference between the replayed outcome and the observed one.
///
/// Differences come in the order of the rule decisions they stem from, so the first one names the
/// root cause: an event difference at the position of the replayed event or rule decision where
/// the replay and the observation part ways ([`Causes`]); differences of zones, knowledge, life
/// and counters (which follow from events, or are an outcome inconsistent with its own log) after
/// them.
pub fn compare(expected: &LegalOutcome, observed: &Outcome, causes: &Causes) -> Vec<Difference> {
    let want = &expected.outcome;
    let got = observed.canonical(&expected.fixed);
    let move_clauses = &causes.moves;
    let mut keyed: Vec<(u64, Difference)> = Vec::new();
    // Differences that don't come from one event sort after the events'.
    let mut push =
        |clause: &str, message: String| keyed.push((u64::MAX, Difference { clause: clause.to_string(), message }));
    let mut event_diffs: Vec<(u64, Difference)> = Vec::new();

    // Events, as a multiset per step.
    let mut missing: BTreeMap<&LoggedEvent, i64> = BTreeMap::new();
    for e in &want.events {
        *missing.entry(e).or_default() += 1;
    }
    for e in &got.events {
        *missing.entry(e).or_default() -= 1;
    }
    // A `searched` event the rules produce and one the log has, for the same player in the same
    // step, are one search reported with a wrong or missing field: name the field and the clause
    // of its cause rather than an extra search (701.23h) and a missing one.
    // The difference sits where the replayed search is, and a wrong `found` takes the clause
    // that decided that search (701.23b for a hidden zone searched for a stated quality, 701.23f
    // under a limit, …).
    for (want_e, got_e) in paired_searches(&missing) {
        let (at, decided_by) = causes.missing(want_e);
        for (clause, message) in search_field_differences(want_e, got_e) {
            let clause = clause.unwrap_or(decided_by);
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        }
        *missing.get_mut(want_e).expect("paired") -= 1;
        *missing.get_mut(got_e).expect("paired") += 1;
    }
    for (e, n) in &missing {
        if *n > 0 {
            let (at, clause) = causes.missing(e);
            let message =
                format!("step {}: expected {} but it is not in the log: {}", e.step, plural(*n, "event"), show(e));
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        } else if *n < 0 {
            let (at, clause) = causes.extra(e, &missing);
            let message =
                format!("step {}: the log has {} the rules don't produce: {}", e.step, plural(-*n, "event"), show(e));
            event_diffs.push((at, Difference { clause: clause.to_string(), message }));
        }
    }

    if missing.values().all(|n| *n == 0) && want.events != got.events {
        // Same events, different order: the relative order of searches (APNAP, 701.23i) or of
        // triggered abilities going on the stack (603.3b) differs.
        let sequence = |o: &Outcome, kind: u8| -> Vec<String> {
            o.events
                .iter()
                .filter(|e| {
                    let k = match e.event {
                        Event::Searched { .. } => 0,
                        Event::Cast { .. } => 2,
                        _ => 1,
                    };
                    k == kind && is_ordered_event(&e.event)
                })
                .map(|e| format!("[{}] {}", e.step, show_short(&e.event)))
                .collect()
        };
        for (kind, (clause, what)) in (0u8..).zip(verdicts::ORDERED_SEQUENCES) {
            let (w, g) = (sequence(want, kind), sequence(&got, kind));
            if w != g {
                push(clause, format!("{what} happened in the order {g:?}; the rules give {w:?}"));
            }
        }
    }

    // Where each card is — only worked out card by card when the zones differ at all, which
    // keeps judging a legal outcome to one comparison of canonical zones.
    if want.zones != got.zones {
        zone_differences(want, &got, &expected.fixed, move_clauses, &mut push);
    }

    // Who knows what.
    let cards: BTreeSet<&String> = want.known.keys().chain(got.known.keys()).collect();
    for card in cards {
        let (w, g) =
            (want.known.get(card).cloned().unwrap_or_default(), got.known.get(card).cloned().unwrap_or_default());
        if w != g {
            let extra = g.iter().any(|p| !w.contains(p));
            let in_library = want.zones.iter().any(|(z, cards)| z.ends_with(".library") && cards.contains(card));
            // Knowledge that should be gone from a library card means it wasn't shuffled as a new
            // object (701.24a, 701.20d); elsewhere it means a reveal that wasn't told (701.23e).
            let zone = want.zones.iter().find(|(_, cards)| cards.contains(card)).map(|(z, _)| z.as_str());
            let clause = causes.knowledge(card, zone).unwrap_or(verdicts::knowledge_clause(extra, in_library));
            push(clause, format!("{card} should be known to {w:?} but is known to {g:?}"));
        }
    }
    for (player, life) in &want.life {
        if got.life.get(player) != Some(life) {
            push("119.3", format!("{player}'s life should be {life} but is {:?}", got.life.get(player)));
        }
    }
    // A life total for a name that is no player of the scenario (found by judge_observation).
    for player in got.life.keys().filter(|p| !want.life.contains_key(*p)) {
        push("119.1", format!("the outcome gives a life total to `{player}`, who is not a player"));
    }
    if want.counters != got.counters {
        push("122.1", format!("counters should be {:?} but are {:?}", want.counters, got.counters));
    }
    event_diffs.extend(keyed);
    // A stable sort: differences with one cause keep the order they were found in.
    event_diffs.sort_by_key(|(k, _)| *k);
    event_diffs.into_iter().map(|(_, d)| d).collect()
}

/// Pairs a missing `searched` event with an extra one of the same step and player.
fn paired_searches<'a>(missing: &BTreeMap<&'a LoggedEvent, i64>) -> Vec<(&'a LoggedEvent, &'a LoggedEvent)> {
    let who = |e: &LoggedEvent| match &e.event {
        Event::Searched { player, .. } => Some((e.step, player.clone())),
        _ => None,
    };
    let mut extra: Vec<(&LoggedEvent, i64)> =
        missing.iter().filter(|(e, n)| **n < 0 && who(e).is_some()).map(|(e, n)| (*e, -*n)).collect();
    let mut out = Vec::new();
    for (want, n) in missing.iter().filter(|(e, n)| **n > 0 && who(e).is_some()) {
        for _ in 0..*n {
            if let Some(slot) = extra.iter_mut().find(|(g, k)| *k > 0 && who(g) == who(want)) {
                slot.1 -= 1;
                out.push((*want, slot.0));
            }
        }
    }
    out
}

/// What differs between two `searched` events of one search, field by field, each with the
/// clause that fixes that field (`None`: the clause that decided the search itself, for `found`).
fn search_field_differences(want: &LoggedEvent, got: &LoggedEvent) -> Vec<(Option<&'static str>, String)> {
    let (
        Event::Searched { player, zones: wz, library_top: wt, found: wf },
        Event::Searched { zones: gz, library_top: gt, found: gf, .. },
    ) = (&want.event, &got.event)
    else {
        return Vec::new();
    };
    let at = format!("step {}: {player}'s `searched` event", want.step);
    let mut out = Vec::new();
    match (wt, gt) {
        (Some(n), None) => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` is missing; the search was limited to the top {n} card(s)"),
        )),
        (None, Some(n)) => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` ({n}) is extra; no effect limited this search to the top cards"),
        )),
        (Some(a), Some(b)) if a != b => out.push((
            Some("701.23f"),
            format!("{at}: field `library_top` is {b}; the search was limited to the top {a}"),
        )),
        _ => {}
    }
    if wz != gz {
        out.push((Some("701.23a"), format!("{at}: field `zones` is {gz:?}; the rules search {wz:?}")));
    }
    if wf != gf {
        out.push((None, format!("{at}: field `found` is {gf:?}; the replay found {wf:?}")));
    }
    out
}

/// An ordered event in a few words — everything it records, so that two sequences that differ
/// only in which search found what (or which trigger chose which targets) read differently.
fn show_short(e: &Event) -> String {
    match e.normalized() {
        Event::Searched { player, zones, library_top, found } => {
            let top = library_top.map(|n| format!(" (top {n})")).unwrap_or_default();
            format!("{player} searched {}{top}, found [{}]", zones.join(", "), found.join(", "))
        }
        Event::Triggered { source, controller, on, player, targets } => {
            let by = player.map(|p| format!(" by {p}")).unwrap_or_default();
            let targets =
                if targets.is_empty() { String::new() } else { format!(", targeting [{}]", targets.join(", ")) };
            format!("{controller}'s {source} ({on}{by}){targets}")
        }
        other => other.kind().to_string(),
    }
}

fn plural(n: i64, word: &str) -> String {
    if n == 1 { format!("an {word}") } else { format!("{n} such {word}s") }
}

/// Card-by-card differences in where cards are and in positions the rules fix.
fn zone_differences(
    want: &Outcome,
    got: &Outcome,
    fixed_positions: &BTreeMap<String, crate::outcome::FixedPositions>,
    move_clauses: &BTreeMap<String, &'static str>,
    push: &mut impl FnMut(&str, String),
) {
    fn locate(o: &Outcome) -> HashMap<&str, &str> {
        o.zones.iter().flat_map(|(z, cards)| cards.iter().map(move |c| (c.as_str(), z.as_str()))).collect()
    }
    // An object is in one zone at a time, once (400.1): a card the outcome lists twice is wrong
    // however the rest compares. Abilities on the stack may repeat.
    let mut listed: HashMap<&str, usize> = HashMap::new();
    for cards in got.zones.values() {
        for c in cards.iter().filter(|c| !c.starts_with("ability:")) {
            *listed.entry(c.as_str()).or_default() += 1;
        }
    }
    let mut twice: Vec<(&str, usize)> = listed.into_iter().filter(|(_, n)| *n > 1).collect();
    twice.sort_unstable();
    for (card, n) in twice {
        push("400.1", format!("{card} is listed {n} times; an object is in one zone, once"));
    }
    // An ability is an object only on the stack (405.1); listed in any other zone it is wrong.
    for (zone, cards) in &got.zones {
        if zone != "stack" {
            for c in cards.iter().filter(|c| c.starts_with("ability:")) {
                push("405.1", format!("{c} is listed in {zone}; abilities exist only on the stack"));
            }
        }
    }
    let (want_at, got_at) = (locate(want), locate(got));
    let all_cards: BTreeSet<&str> = want_at.keys().chain(got_at.keys()).copied().collect();
    for card in all_cards {
        let clause = move_clauses.get(card).copied().unwrap_or("400.7");
        match (want_at.get(card), got_at.get(card)) {
            (Some(w), Some(g)) if w != g => push(clause, format!("{card} should be in {w} but is in {g}")),
            (Some(w), None) => push(clause, format!("{card} should be in {w} but the outcome doesn't list it")),
            (None, Some(g)) => push("400.7", format!("{card} is listed in {g} but the rules put it nowhere")),
            _ => {}
        }
    }
    // Positions the rules fix within a library, and the order of a graveyard.
    for (zone, fixed) in fixed_positions {
        let (w, g) =
            (want.zones.get(zone).cloned().unwrap_or_default(), got.zones.get(zone).cloned().unwrap_or_default());
        if w.len() != g.len() {
            continue; // already reported card by card
        }
        let len = w.len();
        for range in fixed.top_ranges(len).into_iter().chain(fixed.bottom_ranges(len)) {
            // Each group holds the right cards (they are sorted within a group by canonical form).
            if w[range.clone()] != g[range.clone()] {
                // 400.5: a graveyard's order can't be changed (only a group put there at once is
                // its owner's to order).
                let clause = if zone.ends_with(".graveyard") {
                    "400.5"
                } else {
                    move_clauses.get(&w[range.start]).copied().unwrap_or("401.2")
                };
                let what = if range.len() == 1 {
                    format!("position {}", range.start + 1)
                } else {
                    format!("positions {}–{}", range.start + 1, range.end)
                };
                push(
                    clause,
                    format!("{zone} {what} (from the top) must hold {:?} but hold {:?}", &w[range.clone()], &g[range]),
                );
            }
        }
    }
    let (w, g) = (want.zones.get("stack"), got.zones.get("stack"));
    if w != g {
        let show = |z: Option<&Vec<String>>| z.cloned().unwrap_or_default();
        push("405.2", format!("the stack should be {:?} (top first) but is {:?}", show(w), show(g)));
    }
}
