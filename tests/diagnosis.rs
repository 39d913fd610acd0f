//! Diagnosis: the first difference the judge names is the root cause, as a rules expert states it.
//!
//! The corpus (`tests/diagnosis/*.json`) holds wrong outcomes with the clause a rules expert
//! names for each, labelled from the Comprehensive Rules: outcomes the reference engine reports
//! with one of its mutants (`mutant`), and hand-made corruptions (`corrupt`) of a legal outcome it
//! reports. One test judges them all; at least 95% must name the expected clause first, and the
//! misses must be exactly the ones `docs/decisions.md` lists (each with its reason). A second assertion:
//! every mutant has a case labelled with its own clause, and is caught with it.

use std::collections::BTreeSet;

use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::mutants::Mutant;
use mtg_oracle::outcome::Outcome;
use mtg_oracle::scenario::load_file;
use mtg_oracle::serve::{Policy, play_loaded, stable_hash};
use mtg_oracle_tests::{pool, repo_root};
use serde_json::Value;

/// One labelled wrong outcome.
struct Case {
    file: String,
    index: usize,
    scenario: String,
    mutant: Option<Mutant>,
    policy: Policy,
    corrupt: Vec<Value>,
    expect: String,
    reason: String,
}

fn cases() -> Vec<Case> {
    let dir = repo_root().join("tests").join("diagnosis");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/diagnosis exists")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let list: Vec<Value> = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = path.file_name().expect("name").to_string_lossy().to_string();
        for (index, v) in list.into_iter().enumerate() {
            let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            let mutant =
                s("mutant").map(|n| Mutant::from_name(&n).unwrap_or_else(|| panic!("{file}[{index}]: mutant {n}")));
            let policy = match s("policy").as_deref() {
                None | Some("minimal") => Policy::Minimal,
                Some("greedy") => Policy::Greedy,
                Some(p) => panic!("{file}[{index}]: policy {p}"),
            };
            let corrupt = v.get("corrupt").and_then(Value::as_array).cloned().unwrap_or_default();
            assert!(mutant.is_some() == corrupt.is_empty(), "{file}[{index}]: give `mutant` or `corrupt`");
            out.push(Case {
                file: file.clone(),
                index,
                scenario: s("scenario").expect("scenario"),
                mutant,
                policy,
                corrupt,
                expect: s("expect").expect("expect"),
                reason: s("reason").expect("reason"),
            });
        }
    }
    out
}

/// The `nth` (default 0) event of `kind` (and of `step`, if given) whose other fields match the
/// rest of `op` (`player`, `card`, `from`…; `field` and `value` are the edit of `set_event`).
fn event_index(o: &Outcome, op: &Value) -> Option<usize> {
    let kind = op.get("kind")?.as_str()?;
    let nth = op.get("nth").and_then(Value::as_u64).unwrap_or(0) as usize;
    let fields: Vec<(&String, &Value)> =
        op.as_object()?.iter().filter(|(k, _)| !["kind", "nth", "field", "value"].contains(&k.as_str())).collect();
    o.events
        .iter()
        .enumerate()
        .filter(|(_, e)| e.event.kind() == kind)
        .filter(|(_, e)| {
            let v = serde_json::to_value(e).unwrap_or_default();
            fields.iter().all(|(k, want)| v.get(k.as_str()) == Some(want))
        })
        .map(|(i, _)| i)
        .nth(nth)
}

/// Applies one corruption to an outcome: `drop_event`, `dup_event`, `set_event` (a field of an
/// event to a JSON value), `move_event_last`, `add_event` (a logged event), `move_card` (to the end of a zone, or
/// `top`), `set_known`, `set_life`.
fn apply(o: &mut Outcome, op: &Value) -> Result<(), String> {
    let (name, arg) = op.as_object().and_then(|m| m.iter().next()).ok_or("empty corruption")?;
    let missing = || format!("{name}: no such event {arg}");
    match name.as_str() {
        "drop_event" => {
            let i = event_index(o, arg).ok_or_else(missing)?;
            o.events.remove(i);
        }
        "dup_event" => {
            let i = event_index(o, arg).ok_or_else(missing)?;
            let e = o.events[i].clone();
            o.events.insert(i + 1, e);
        }
        "set_event" => {
            let i = event_index(o, arg).ok_or_else(missing)?;
            let mut v = serde_json::to_value(&o.events[i].event).map_err(|e| e.to_string())?;
            let field = arg.get("field").and_then(Value::as_str).ok_or("set_event: field")?;
            let value = arg.get("value").cloned().unwrap_or(Value::Null);
            if value.is_null() {
                v.as_object_mut().ok_or("object")?.remove(field);
            } else {
                v[field] = value;
            }
            o.events[i].event = serde_json::from_value(v).map_err(|e| e.to_string())?;
        }
        "move_event_last" => {
            let i = event_index(o, arg).ok_or_else(missing)?;
            let e = o.events.remove(i);
            o.events.push(e);
        }
        "add_event" => {
            let e = serde_json::from_value(arg.clone()).map_err(|e| e.to_string())?;
            o.events.push(e);
        }
        "move_card" => {
            let card = arg.get("card").and_then(Value::as_str).ok_or("move_card: card")?;
            let to = arg.get("to").and_then(Value::as_str).ok_or("move_card: to")?;
            let mut found = false;
            for cards in o.zones.values_mut() {
                let before = cards.len();
                cards.retain(|c| c != card);
                found |= cards.len() != before;
            }
            if !found {
                return Err(format!("move_card: {card} is in no zone"));
            }
            let zone = o.zones.entry(to.to_string()).or_default();
            if arg.get("top").and_then(Value::as_bool).unwrap_or(false) {
                zone.insert(0, card.to_string());
            } else {
                zone.push(card.to_string());
            }
        }
        "set_known" => {
            let card = arg.get("card").and_then(Value::as_str).ok_or("set_known: card")?;
            let players: Vec<String> =
                serde_json::from_value(arg.get("players").cloned().unwrap_or_default()).map_err(|e| e.to_string())?;
            if players.is_empty() {
                o.known.remove(card);
            } else {
                o.known.insert(card.to_string(), players);
            }
        }
        "set_life" => {
            let player = arg.get("player").and_then(Value::as_str).ok_or("set_life: player")?;
            let life = arg.get("life").and_then(Value::as_i64).ok_or("set_life: life")?;
            o.life.insert(player.to_string(), life as i32);
        }
        other => return Err(format!("unknown corruption `{other}`")),
    }
    Ok(())
}

/// The observed outcome of a case, and the clause the judge names first (or why there is none).
fn diagnose(case: &Case) -> Result<String, String> {
    let path = repo_root().join(&case.scenario);
    let loaded = load_file(&path, &pool()).map_err(|e| e.to_string())?;
    let seed = stable_hash(&case.scenario);
    let mut observed = play_loaded(&loaded.setup, case.policy, seed, case.mutant)?;
    if !case.corrupt.is_empty() {
        if !judge(&loaded.setup, &observed).is_legal() {
            return Err("the uncorrupted outcome is not legal".into());
        }
        for op in &case.corrupt {
            apply(&mut observed, op)?;
        }
    }
    match judge(&loaded.setup, &observed) {
        Verdict::Illegal(diffs) => {
            if std::env::var_os("DIAGNOSIS_VERBOSE").is_some() {
                eprintln!("{}: {:#?}", case.scenario, &diffs[..diffs.len().min(3)]);
            }
            Ok(diffs[0].clause.clone())
        }
        Verdict::Legal => Err("judged legal".into()),
        Verdict::Error(e) => Err(format!("error: {e}")),
    }
}

/// The "Diagnosis" section of `docs/decisions.md`, up to the next heading.
fn diagnosis_section() -> String {
    let page = std::fs::read_to_string(repo_root().join("docs/decisions.md")).expect("docs/decisions.md");
    let section = page.split("\n## Diagnosis\n").nth(1).expect("docs/decisions.md has a Diagnosis section");
    section.split("\n#").next().unwrap_or(section).to_string()
}

/// The misses the "Diagnosis" section of `docs/decisions.md` lists, as `file#index`.
fn listed_misses() -> BTreeSet<String> {
    diagnosis_section().split('`').filter(|w| w.contains(".json#")).map(str::to_string).collect()
}

#[test]
fn the_first_difference_names_the_root_cause() {
    let cases = cases();
    assert!(cases.len() >= 60, "the corpus has {} cases, fewer than 60", cases.len());
    let mut misses = Vec::new();
    for case in &cases {
        let got = diagnose(case);
        if got.as_deref() != Ok(case.expect.as_str()) {
            misses.push((format!("{}#{}", case.file, case.index), case, got));
        }
    }
    let report: Vec<String> = misses
        .iter()
        .map(|(id, c, got)| format!("{id} {}: expected {} ({}), got {got:?}", c.scenario, c.expect, c.reason))
        .collect();
    let hits = cases.len() - misses.len();
    eprintln!("diagnosis: {hits} of {} name the expected clause first", cases.len());
    for r in &report {
        eprintln!("  miss: {r}");
    }
    assert!(hits * 100 >= cases.len() * 95, "only {hits} of {} name the expected clause first", cases.len());
    let missed: BTreeSet<String> = misses.iter().map(|(id, ..)| id.clone()).collect();
    assert_eq!(missed, listed_misses(), "the Diagnosis section of docs/decisions.md must list exactly the misses");
}

/// Mutants the "Diagnosis" section of `docs/decisions.md` lists as not yet caught with their own
/// clause.
fn listed_mutant_misses() -> BTreeSet<String> {
    diagnosis_section().split('`').filter(|w| Mutant::from_name(w).is_some()).map(str::to_string).collect()
}

#[test]
fn every_mutant_is_caught_with_its_own_clause_first() {
    let cases = cases();
    let mut not_own = BTreeSet::new();
    // Option-set mutants produce only legal outcomes: the option-set check names their clause
    // (tests in oracle/tests/check_cli.rs), the outcome corpus can't.
    for m in Mutant::ALL.into_iter().filter(|m| !m.only_in_offers()) {
        let own: Vec<&Case> = cases.iter().filter(|c| c.mutant == Some(m) && c.expect == m.clause()).collect();
        if !own.iter().any(|c| diagnose(c).as_deref() == Ok(m.clause())) {
            not_own.insert(m.name().to_string());
        }
    }
    assert_eq!(
        not_own,
        listed_mutant_misses(),
        "mutants not caught with their own clause first (docs/decisions.md lists them)"
    );
}
