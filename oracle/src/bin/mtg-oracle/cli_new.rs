//! `mtg-oracle new`: a scenario skeleton with its `expect:` drafted from the oracle.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use mtg_oracle::authoring::{Skeleton, draft_new};
use mtg_oracle::scenario::format::SourceKind;

/// `mtg-oracle new`.
#[derive(Args)]
pub struct NewArgs {
    /// The CR clause the scenario exercises (repeatable; at least one).
    #[arg(long = "rule", required = true)]
    rules: Vec<String>,
    /// One line saying what the scenario shows (a TODO placeholder when left out).
    #[arg(long)]
    title: Option<String>,
    /// The kind of source, as `source.kind` spells it: cr-example, cr-variant, clause, card-ruling,
    /// engine-bug or fuzz-finding.
    #[arg(long, default_value = "clause", value_parser = parse_source_kind)]
    source: SourceKind,
    /// The source's reference (default: `CR <first --rule>`).
    #[arg(long)]
    reference: Option<String>,
    /// A player, in turn order (repeatable; default Alice and Bob).
    #[arg(long = "player")]
    players: Vec<String>,
    /// A card as ZONE=CARD (repeatable): ZONE is <player>.library (top first), .hand, .graveyard,
    /// .outside, .battlefield or .exile (the player owns it); append #ID to CARD for an explicit
    /// id, e.g. "Bob.battlefield=Ob Nixilis, Unshackled#ob".
    #[arg(long = "card")]
    cards: Vec<String>,
    /// A step as one line of scenario YAML (repeatable; at least one), e.g.
    /// 'cast: {player: Alice, card: demonic-tutor}' then 'resolve'.
    #[arg(long = "step", required = true)]
    steps: Vec<String>,
    /// A scripted decision as one line of scenario YAML (repeatable), e.g.
    /// 'search: {player: Alice, find: [forest]}'.
    #[arg(long = "decision")]
    decisions: Vec<String>,
    /// Write the scenario here instead of printing it (refuses to overwrite a file).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// A `--source` value read as the scenario format reads `source.kind` (one list of kinds:
/// [`SourceKind`]'s).
fn parse_source_kind(value: &str) -> Result<SourceKind, String> {
    serde_json::from_value(serde_json::Value::String(value.to_string())).map_err(|_| {
        format!(
            "`{value}` is not a source kind (cr-example, cr-variant, clause, card-ruling, engine-bug, fuzz-finding)"
        )
    })
}

/// Runs `mtg-oracle new`.
pub fn new_cmd(args: NewArgs) -> ExitCode {
    let skeleton = Skeleton {
        title: args.title,
        rules: args.rules,
        source: args.source,
        reference: args.reference,
        players: args.players,
        cards: args.cards,
        steps: args.steps,
        decisions: args.decisions,
    };
    let draft = match draft_new(&skeleton) {
        Ok(d) => d,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match &args.out {
        None => print!("{}", draft.yaml),
        Some(path) => {
            if path.exists() {
                eprintln!("error: {} exists; not overwriting it", path.display());
                return ExitCode::from(2);
            }
            if let Err(e) = std::fs::write(path, &draft.yaml) {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::from(2);
            }
            println!("{}", path.display());
        }
    }
    eprintln!(
        "drafted from {} legal outcome(s); review the expect: block (marked # REVIEW) before committing",
        draft.outcomes
    );
    ExitCode::SUCCESS
}
