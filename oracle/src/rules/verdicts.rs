//! The clauses a verdict names when the judge finds a difference that no rule decision of its
//! replay accounts for.
//!
//! Most differences take their clause from the replay itself (the clause that decided the
//! missing event, the card's last move, the last reveal). What remains is a lookup from the kind
//! of difference to the rule it breaks, kept here in one table rather than in the judge: it spans
//! many sections (701.23 searching, 701.24 shuffling, 603 triggers, 400 zones…), and one match
//! over the event kinds is easier to keep complete than a function in each section's module.

/// The clause an event breaks when the log has it and the rules don't produce it, for an event
/// of `kind` (the event's name in the log: `revealed`, `cast`…; `flashback` and
/// `without_paying_mana_cost` say how a `cast` was made).
pub fn unexpected_event_clause(kind: &str, flashback: bool, without_paying_mana_cost: bool) -> &'static str {
    match kind {
        "revealed" => "701.23e",
        "searched" => "701.23h",
        "shuffled" => "701.24a",
        "triggered" => "603.2",
        "moved" => "400.7",
        "looked_at" => "701.20e",
        "discarded" => "701.9a",
        "dredged" => "702.52b",
        "created" => "701.16a",
        "named" => "709.4a",
        "cast" if flashback => "702.34a",
        "cast" if without_paying_mana_cost => "118.9",
        "cast" => "701.5a",
        "refused" => "602.2b",
        // A copy of a spell the rules don't make (707.10; gravestorm's count is 702.69a).
        "copied" => "707.10",
        // A choice made while a spell or ability resolves (608.2d) that the rules don't offer.
        "chose" => "608.2d",
        _ => "608.2",
    }
}

/// Clauses that name an instruction or a zone change in general, not the rule that decided what
/// players know of a card: a move under one of these doesn't explain a knowledge difference.
pub const GENERIC_MOVE_CLAUSES: [&str; 6] = ["701.23a", "701.5a", "608.2n", "121.1", "400.7", "608.3a"];

/// The clause of a knowledge difference no rule decision of the replay explains: players know of
/// a card more than they should (`extra`) in a library — it wasn't shuffled as a new object
/// (701.24a, 701.20d) — or elsewhere — a reveal nobody was told of (701.23e); or they know less
/// than they should (701.20a).
pub fn knowledge_clause(extra: bool, in_library: bool) -> &'static str {
    match (extra, in_library) {
        (true, true) => "701.24a",
        (true, false) => "701.23e",
        (false, _) => "701.20a",
    }
}

/// The clause, and why in words (to append to the message), of a search the log doesn't report:
/// it is still a search when it is limited to the top cards of a library (`limited`, 701.23f),
/// when nothing can be found because the quality is undefined (701.23c), or when the zone is
/// empty (`nothing_looked_at`, 701.23g).
pub fn unlogged_search_clause(
    limited: bool,
    undefined_quality: bool,
    nothing_looked_at: bool,
) -> (&'static str, &'static str) {
    if limited {
        ("701.23f", " (a search limited to the top cards of a library is still a search)")
    } else if undefined_quality {
        ("701.23c", " (the zones are searched even though nothing can be found)")
    } else if nothing_looked_at {
        ("701.23g", " (searching an empty zone is still a search)")
    } else {
        ("701.23a", "")
    }
}

/// The sequences whose order within the log the rules fix, each with its clause and what it is
/// in words: searches (APNAP order, 701.23i), triggered abilities put on the stack (603.3b), and
/// spells cast during one resolution (101.4c).
pub const ORDERED_SEQUENCES: [(&str, &str); 3] = [
    ("701.23i", "searches (APNAP order)"),
    ("603.3b", "triggered abilities put on the stack"),
    ("101.4c", "spells cast during one resolution"),
];

/// The clause of a difference in which permanents are tapped: a permanent enters untapped unless
/// the effect putting it there (or one of its own abilities) says it enters tapped (110.5b).
pub const TAPPED_CLAUSE: &str = "110.5b";

/// A spell cast with targets other than the rules allow or choose (or none reported, when the
/// engine declares `cast_targets`): its targets are chosen as it is cast (601.2c), so the clause
/// is that step of casting, not an extra cast and a missing one.
pub const CAST_TARGETS_CLAUSE: &str = "601.2c";
