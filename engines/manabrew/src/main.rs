//! mtg-oracle protocol-2 adapter for manabrew-engine (a Rust port of Forge).
//!
//! Reads one JSON message per line on stdin and answers on stdout (see mtg-oracle's docs/protocol.md,
//! "Checking an engine"). Each `run` builds a manabrew `GameState` from the scenario with the
//! Forge card scripts, carries out its steps through manabrew's `GameLoop` (casting through the
//! priority round, resolving with `resolve_stack`), answers the engine's prompts from the scripted
//! decisions, and reports what the engine did. Everything in the event log comes from the engine:
//! zone changes and life changes are read off its state, shuffles off a recording `GameRng`,
//! searches off its search prompts, triggers and casts off its stack. What it cannot show is
//! declared unobservable in `hello`.
//!
//! Usage: `manabrew-adapter [--cards DIR]` (default: `../shared/engines/forge-cards` beside the
//! repository holding this adapter).

mod agent;
mod observe;
mod scenario;

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

fn main() {
    let mut cards_dir: Option<PathBuf> = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--cards" => cards_dir = args.next().map(PathBuf::from),
            "-h" | "--help" => {
                eprintln!("usage: manabrew-adapter [--cards DIR]  (Forge card scripts folder)");
                return;
            }
            other => {
                eprintln!("manabrew-adapter: unknown argument {other:?}");
                std::process::exit(2);
            }
        }
    }
    let cards_dir = cards_dir.unwrap_or_else(default_cards_dir);
    let library = match scenario::CardLibrary::load(&cards_dir) {
        Ok(library) => library,
        Err(message) => {
            eprintln!("manabrew-adapter: {message}");
            std::process::exit(2);
        }
    };
    let stdin = std::io::stdin();
    let mut stdout = std::io::stdout();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let message: Value = match serde_json::from_str(&line) {
            Ok(value) => value,
            Err(e) => {
                eprintln!("manabrew-adapter: not JSON: {e}");
                continue;
            }
        };
        let answer = match message.get("type").and_then(Value::as_str) {
            Some("start") => Some(hello()),
            Some("run") => Some(run(&library, &message)),
            Some("stop") => break,
            other => {
                eprintln!("manabrew-adapter: unknown message type {other:?}");
                None
            }
        };
        if let Some(answer) = answer {
            let _ = writeln!(stdout, "{answer}");
            let _ = stdout.flush();
        }
    }
}

/// `../shared/engines/forge-cards` from the repository root: found from the executable's place
/// (`<repo>/engines/manabrew/target/<profile>/`), else from where it was built.
fn default_cards_dir() -> PathBuf {
    let relative = Path::new("shared").join("engines").join("forge-cards");
    if let Ok(exe) = std::env::current_exe() {
        // <repo>/engines/manabrew/target/release/<bin> -> <repo>/..
        if let Some(parent_of_repo) = exe.ancestors().nth(6) {
            let candidate = parent_of_repo.join(&relative);
            if candidate.is_dir() {
                return candidate;
            }
        }
    }
    // <repo>/engines/manabrew -> <repo>/..
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join("..").join("..").join(relative)
}

fn hello() -> Value {
    json!({
        "type": "hello",
        "protocol": 2,
        "engine": {"name": "manabrew-engine", "version": "0.13.1"},
        "supports": {
            "players": [2, 3, 4],
            "cards": "any",
            "features": scenario::SUPPORTED_FEATURES,
            // Not `searched`: a graveyard `ChangeZoneAll` has no prompt, so not every search is seen.
            "observables": ["moves_within_library"],
            "offers": true
        }
    })
}

fn run(library: &scenario::CardLibrary, message: &Value) -> Value {
    let seq = message.get("seq").cloned().unwrap_or(Value::Null);
    let Some(scenario) = message.get("scenario").cloned() else {
        return json!({"type": "error", "seq": seq, "message": "a run message without a scenario"});
    };
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| scenario::play(library, &scenario)));
    match result {
        Ok(scenario::Answer::Result { outcome, offered }) => {
            json!({"type": "result", "seq": seq, "outcome": outcome, "offered": offered})
        }
        Ok(scenario::Answer::Unsupported(reason)) => {
            json!({"type": "unsupported", "seq": seq, "reason": reason})
        }
        Ok(scenario::Answer::NoSuchChoice { decision, offered, message }) => {
            json!({"type": "no_such_choice", "seq": seq, "decision": decision,
                     "offered": offered, "message": message})
        }
        Ok(scenario::Answer::Error(message)) => {
            json!({"type": "error", "seq": seq, "message": message})
        }
        Err(panic) => {
            let text = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic".to_string());
            if text.contains("don't find Token for TokenScript") {
                // The Forge folder has card scripts only: the engine can't create tokens.
                return json!({"type": "unsupported", "seq": seq,
                              "reason": format!("a token the engine has no Forge token script for ({text})")});
            }
            json!({"type": "error", "seq": seq, "message": format!("manabrew-engine panicked: {text}")})
        }
    }
}
