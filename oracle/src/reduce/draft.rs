//! Writing a reduced scenario: provenance, drafted expectations, and the engine's outcome beside
//! the legal ones.

use std::collections::{BTreeMap, BTreeSet};

use super::Reduction;
use crate::cards::CardPool;
use crate::expect::holds;
use crate::explore::explore;
use crate::fuzzing::promote::{PromoteError, content_hash, readable_yaml, scenario_with_expectations};
use crate::outcome::{LegalOutcome, Outcome};
use crate::scenario::format::{Assertion, Source, SourceKind};
use crate::scenario::load_scenario;
use crate::yaml::slug;

/// Most simulator runs spent listing a reduced scenario's legal outcomes.
const LIST_RUN_LIMIT: usize = 20_000;
/// Most `never:` assertions drafted from the engine's outcome.
const MAX_NEVER: usize = 3;

/// A reduced scenario, ready to be written.
#[derive(Debug, Clone)]
pub struct Drafted {
    /// File name: `engine-bug-<engine>-<clause>-<hash>.yaml`.
    pub file_name: String,
    /// The file's text.
    pub yaml: String,
    /// The scenario's legal outcomes (canonical).
    pub legal: Vec<LegalOutcome>,
    /// How many `never:` assertions say what the engine did wrong (0: the format can't say it,
    /// e.g. a bug seen only in the options an engine offers).
    pub never: usize,
    /// Why `mtg-oracle run` fails on the drafted scenario, if it does (an oracle bug).
    pub run_failure: Option<String>,
}

/// Assertions true of the engine's outcome and of no legal outcome, most telling first: event
/// counts (a missing shuffle, a second trigger), where cards are, tapped permanents, what players
/// know, life totals, counters.
pub fn never_assertions(engine: &Outcome, legal: &[LegalOutcome]) -> Vec<Assertion> {
    let observed = LegalOutcome { outcome: engine.clone(), fixed: BTreeMap::new() };
    let no_names = |_: &str| Vec::new();
    let mut candidates: Vec<Assertion> = Vec::new();
    let kinds: BTreeSet<&str> = engine
        .events
        .iter()
        .map(|e| e.event.kind())
        .chain(legal.iter().flat_map(|l| l.outcome.events.iter().map(|e| e.event.kind())))
        .collect();
    let players: Vec<&String> = engine.life.keys().collect();
    for kind in &kinds {
        for player in players.iter().map(|p| Some((*p).clone())).chain([None]) {
            // For `triggered` the probe names the controller (what `player` meant there before it
            // became the triggering player), so the drafted `never:` lines catch what they did.
            let (player, controller) = if *kind == "triggered" { (None, player) } else { (player, None) };
            let probe = Assertion::Events {
                kind: kind.to_string(),
                player: player.clone(),
                controller,
                card: None,
                zone: None,
                library_top: None,
                count: 0,
            };
            let count =
                (0..=engine.events.len()).find(|&n| holds(&with_count(&probe, n), &observed, &no_names)).unwrap_or(0);
            candidates.push(with_count(&probe, count));
        }
    }
    for (zone, cards) in &engine.zones {
        for card in cards {
            candidates.push(Assertion::Zone { card: card.clone(), zone: zone.clone() });
        }
    }
    candidates.extend(engine.tapped.iter().map(|c| Assertion::Tapped { card: c.clone(), tapped: true }));
    candidates.extend(engine.known.iter().map(|(c, to)| Assertion::Known { card: c.clone(), to: to.clone() }));
    candidates.extend(engine.life.iter().map(|(p, l)| Assertion::Life { player: p.clone(), life: *l }));
    candidates.extend(engine.counters.iter().map(|(c, n)| Assertion::Counters { card: c.clone(), count: *n }));
    let mut chosen: Vec<Assertion> = Vec::new();
    for a in candidates {
        // One event count per kind: a player's count says it already.
        let kind_taken = |k: &str| chosen.iter().any(|c| matches!(c, Assertion::Events { kind, .. } if kind == k));
        if matches!(&a, Assertion::Events { kind, .. } if kind_taken(kind)) {
            continue;
        }
        if holds(&a, &observed, &no_names) && !legal.iter().any(|l| holds(&a, l, &no_names)) {
            chosen.push(a);
        }
        if chosen.len() == MAX_NEVER {
            break;
        }
    }
    chosen
}

fn with_count(a: &Assertion, n: usize) -> Assertion {
    match a {
        Assertion::Events { kind, player, controller, card, zone, library_top, .. } => Assertion::Events {
            kind: kind.clone(),
            player: player.clone(),
            controller: controller.clone(),
            card: card.clone(),
            zone: zone.clone(),
            library_top: *library_top,
            count: n,
        },
        other => other.clone(),
    }
}

/// The reduced scenario as a file: its `expect:` drafted from the oracle (what the oracle says is
/// legal, as `promote` drafts it) plus `never:` the engine's wrong outcome where an assertion can
/// say it, with its provenance, and a header asking for a review.
pub fn draft(r: &Reduction, pool: &CardPool) -> Result<Drafted, PromoteError> {
    let loaded = load_scenario(&r.id, r.reduced.clone(), pool).map_err(PromoteError::NotLoadable)?;
    let legal: Vec<LegalOutcome> = explore(&loaded.setup, LIST_RUN_LIMIT)
        .map_err(|e| match e {
            crate::sim::SimError::TooLarge(m) => PromoteError::TooLarge(m),
            other => PromoteError::CantRun(other),
        })?
        .outcomes
        .into_values()
        .collect();
    let (mut scenario, _, _) = scenario_with_expectations(r.reduced.clone())?;
    let never = r.engine_outcome.as_ref().map(|o| never_assertions(o, &legal)).unwrap_or_default();
    scenario.expect.never = never.clone();
    let engine = r.engine.as_ref().map_or_else(|| "an engine".to_string(), |e| format!("{} {}", e.name, e.version));
    if !scenario.rules.contains(&r.clause) {
        scenario.rules.insert(0, r.clause.clone());
    }
    scenario.title = format!("engine bug ({engine}, {}): {}", r.clause, r.original.title);
    scenario.source = Source {
        kind: SourceKind::EngineBug,
        reference: format!("{engine}: FAIL {} on {} — {}", r.clause, r.id, first_line(&r.message)),
    };
    let never_note = if never.is_empty() {
        "No `never:` assertion could state the engine's outcome (it may differ only in what it offered, \
         or in an order no assertion reads)."
            .to_string()
    } else {
        format!("`never:` holds of the engine's outcome and of no legal outcome ({} assertion(s)).", never.len())
    };
    scenario.description = Some(format!(
        "Reduced by `mtg-oracle reduce --seed {}` from {} (size {} → {}: cards + steps + decisions), on which {engine} \
         FAILs with {} named first. The `expect:` block was drafted from the oracle and must be reviewed: counts \
         and zones are what the oracle says is legal. {never_note}",
        r.seed,
        r.id,
        super::size(&r.original),
        super::size(&r.reduced),
        r.clause,
    ));
    let text = readable_yaml(&scenario);
    // Run as `mtg-oracle run` runs it: the drafted expectations must hold.
    let run_failure = match crate::scenario::load_str("reduced", &text, pool) {
        Ok(l) => match crate::runner::run_loaded(l) {
            crate::runner::RunResult::Pass { .. } => None,
            crate::runner::RunResult::Fail { failures, .. } => {
                Some(failures.iter().map(|f| f.to_string()).collect::<Vec<_>>().join("; "))
            }
            crate::runner::RunResult::Invalid(e) => return Err(PromoteError::NotValid(e)),
        },
        Err(e) => return Err(PromoteError::ReloadFails(e)),
    };
    let yaml = format!(
        "# Reduced from an engine's FAIL by `mtg-oracle reduce`; see the description.\n\
         # REVIEW: the expect: block was drafted from the oracle — check it against the rules before committing.\n{text}"
    );
    let engine_slug = r.engine.as_ref().map_or_else(|| "engine".to_string(), |e| slug(&e.name));
    let file_name =
        format!("engine-bug-{engine_slug}-{}-{:08x}.yaml", slug(&r.clause), content_hash(yaml.as_bytes()) >> 32);
    Ok(Drafted { file_name, yaml, legal, never: never.len(), run_failure })
}

fn first_line(text: &str) -> String {
    let line = text.lines().next().unwrap_or_default();
    if line.chars().count() > 200 { format!("{}…", line.chars().take(200).collect::<String>()) } else { line.into() }
}

/// How far a legal outcome is from the engine's: zones whose cards differ, plus the difference in
/// the number of events of each kind.
fn distance(engine: &Outcome, legal: &Outcome) -> usize {
    let zones: BTreeSet<&String> = engine.zones.keys().chain(legal.zones.keys()).collect();
    let sorted = |o: &Outcome, z: &str| {
        let mut v = o.zones.get(z).cloned().unwrap_or_default();
        v.sort();
        v
    };
    let zone_diffs = zones.iter().filter(|z| sorted(engine, z) != sorted(legal, z)).count();
    let counts = |o: &Outcome| {
        let mut m: BTreeMap<&str, usize> = BTreeMap::new();
        for e in &o.events {
            *m.entry(e.event.kind()).or_default() += 1;
        }
        m
    };
    let (a, b) = (counts(engine), counts(legal));
    let kinds: BTreeSet<&&str> = a.keys().chain(b.keys()).collect();
    zone_diffs
        + kinds
            .iter()
            .map(|k| a.get(**k).copied().unwrap_or(0).abs_diff(b.get(**k).copied().unwrap_or(0)))
            .sum::<usize>()
}

/// The engine's outcome beside the `shown` closest legal outcomes, one row per zone, per card
/// someone knows, and per event kind (its count); a row where the engine agrees with the closest
/// legal outcome is marked `=`, one where it doesn't `≠`.
pub fn side_by_side(engine: &Outcome, legal: &[LegalOutcome], shown: usize) -> String {
    let mut closest: Vec<(usize, usize, &Outcome)> =
        legal.iter().enumerate().map(|(i, l)| (distance(engine, &l.outcome), i, &l.outcome)).collect();
    closest.sort();
    closest.truncate(shown);
    let mut header = vec!["".to_string(), "engine".to_string()];
    header.extend(closest.iter().map(|(_, i, _)| format!("legal #{}", i + 1)));
    let mut rows: Vec<Vec<String>> = vec![header];
    let columns: Vec<&Outcome> = std::iter::once(engine).chain(closest.iter().map(|c| c.2)).collect();
    let zones: BTreeSet<&String> = columns.iter().flat_map(|o| o.zones.keys()).collect();
    for z in zones {
        let mut row = vec![z.clone()];
        row.extend(columns.iter().map(|o| format!("[{}]", o.zones.get(z).map(|c| c.join(", ")).unwrap_or_default())));
        rows.push(row);
    }
    let known: BTreeSet<&String> = columns.iter().flat_map(|o| o.known.keys()).collect();
    for c in known {
        let mut row = vec![format!("known: {c}")];
        row.extend(columns.iter().map(|o| o.known.get(c).map(|w| w.join(", ")).unwrap_or_else(|| "-".into())));
        rows.push(row);
    }
    let kinds: BTreeSet<&str> = columns.iter().flat_map(|o| o.events.iter().map(|e| e.event.kind())).collect();
    for k in kinds {
        let mut row = vec![format!("events: {k}")];
        row.extend(columns.iter().map(|o| o.events.iter().filter(|e| e.event.kind() == k).count().to_string()));
        rows.push(row);
    }
    const CELL: usize = 36;
    let cut = |s: &str| {
        if s.chars().count() > CELL {
            format!("{}…", s.chars().take(CELL - 1).collect::<String>())
        } else {
            s.to_string()
        }
    };
    let widths: Vec<usize> =
        (0..rows[0].len()).map(|c| rows.iter().map(|r| cut(&r[c]).chars().count()).max().unwrap_or(0)).collect();
    let mut out =
        format!("the engine's outcome beside the {} closest of {} legal outcome(s):\n", closest.len(), legal.len());
    for (n, row) in rows.iter().enumerate() {
        let mark = if n == 0 {
            " "
        } else if row.get(2).is_some_and(|closest| *closest == row[1]) {
            "="
        } else {
            "≠"
        };
        let cells: Vec<String> = row.iter().zip(&widths).map(|(cell, w)| format!("{:w$}", cut(cell), w = *w)).collect();
        out.push_str(&format!("{mark} {}\n", cells.join("  ").trim_end()));
    }
    out
}
