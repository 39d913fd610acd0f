//! `oracle/cards/pool.yaml` keeps the order its header promises ("Entries are in alphabetical
//! order of name"), so a card is found where a reader looks for it and a new card has one place
//! to go.

use std::cmp::Ordering;

use serde::Deserialize;

mod common;
use common::repo;

/// The promise this test checks, as the pool's header words it.
const PROMISE: &str = "# Entries are in alphabetical order of name.";

/// The one field of a pool entry the order is about (the others are ignored).
#[derive(Deserialize)]
struct Entry {
    name: String,
}

/// Alphabetical order of names: letters compared case-insensitively, then (for names equal but
/// for case) as written, so that the order is total.
fn alphabetical(a: &str, b: &str) -> Ordering {
    a.to_lowercase().cmp(&b.to_lowercase()).then_with(|| a.cmp(b))
}

/// The first name that comes before the one above it (or repeats it), with its position from 0.
fn first_out_of_order(names: &[String]) -> Option<(usize, &str, &str)> {
    names
        .windows(2)
        .position(|w| alphabetical(&w[0], &w[1]) != Ordering::Less)
        .map(|i| (i + 1, names[i + 1].as_str(), names[i].as_str()))
}

#[test]
fn the_pool_is_in_the_order_its_header_promises() {
    let path = repo().join("oracle/cards/pool.yaml");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let header: Vec<&str> = text.lines().take_while(|l| l.starts_with('#')).collect();
    assert!(
        header.contains(&PROMISE),
        "the header of oracle/cards/pool.yaml no longer says {PROMISE:?}: update this test to the order it promises"
    );
    let entries: Vec<Entry> = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("oracle/cards/pool.yaml: {e}"));
    let names: Vec<String> = entries.into_iter().map(|e| e.name).collect();
    assert!(names.len() > 50, "only {} cards read from the pool", names.len());
    if let Some((i, name, above)) = first_out_of_order(&names) {
        let line = text
            .lines()
            .position(|l| l.strip_prefix("- name:").is_some_and(|n| n.trim().trim_matches('"') == name))
            .map_or(String::new(), |n| format!(":{}", n + 1));
        panic!(
            "oracle/cards/pool.yaml{line}: entry {i}, `{name}`, is out of order: it comes after `{above}` but \
             should come before it ({PROMISE:?})"
        );
    }
}

#[test]
fn the_order_check_names_the_first_entry_out_of_place() {
    let names = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(first_out_of_order(&names(&["cease // desist", "Clue", "Forest", "Ob Nixilis, Unshackled"])), None);
    assert_eq!(
        first_out_of_order(&names(&["Clue", "Forest", "Brainstorm", "Aven Mindcensor"])),
        Some((2, "Brainstorm", "Forest"))
    );
    assert_eq!(first_out_of_order(&names(&["Forest", "forest"])), None, "case breaks a tie");
    assert_eq!(first_out_of_order(&names(&["Forest", "Forest"])), Some((1, "Forest", "Forest")), "a repeat");
}
