//! Malformed scenarios are rejected with an error that names the file, the line and column of the
//! offending node, and words a person can act on (the unknown name, a did-you-mean, the legal
//! options). Each test is one kind of mistake; the expected positions were worked out by hand
//! from the texts below (for serde errors: where serde_norway points).
//!
//! Most tests edit one or two lines of `SPLINTER`, a small valid scenario. Its lines, numbered
//! for reference:
//!
//! ```text
//!  1 title: Splinter on Howling Mine
//!  2 rules: ["701.23b"]
//!  3 source: {kind: cr-example, reference: CR 701.23b example}
//!  4 players:
//!  5   - name: Alice
//!  6     hand: [Splinter]
//!  7   - name: Bob
//!  8     library:
//!  9       - Forest
//! 10       - {card: Howling Mine, id: mine-lib-1}
//! 11     graveyard:
//! 12       - {card: Howling Mine, id: mine-gy}
//! 13 battlefield:
//! 14   - {card: Howling Mine, id: mine-bf, owner: Bob}
//! 15 steps:
//! 16   - cast: {player: Alice, card: splinter, targets: [mine-bf]}
//! 17   - resolve
//! 18 expect:
//! 19   outcomes: 2
//! 20   always:
//! 21     - zone: {card: mine-gy, zone: exile}
//! 22     - shuffled: {player: Bob}
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};

use mtg_oracle::runner::{RunResult, run_loaded};
use mtg_oracle::scenario::{LoadError, Loaded, load_str};
use mtg_oracle_tests::pool;

/// The id every test scenario is loaded under.
const ID: &str = "test.yaml";

const SPLINTER: &str = "\
title: Splinter on Howling Mine
rules: [\"701.23b\"]
source: {kind: cr-example, reference: CR 701.23b example}
players:
  - name: Alice
    hand: [Splinter]
  - name: Bob
    library:
      - Forest
      - {card: Howling Mine, id: mine-lib-1}
    graveyard:
      - {card: Howling Mine, id: mine-gy}
battlefield:
  - {card: Howling Mine, id: mine-bf, owner: Bob}
steps:
  - cast: {player: Alice, card: splinter, targets: [mine-bf]}
  - resolve
expect:
  outcomes: 2
  always:
    - zone: {card: mine-gy, zone: exile}
    - shuffled: {player: Bob}
";

/// `SPLINTER` with some of its lines (1-based, numbered as in the original) replaced. A
/// replacement may hold several lines (an insertion) or be `None` (a deletion).
fn splinter_with(edits: &[(usize, Option<&str>)]) -> String {
    let mut lines: Vec<Option<String>> = SPLINTER.lines().map(|l| Some(l.to_string())).collect();
    for &(n, with) in edits {
        assert!(n >= 1 && n <= lines.len(), "no line {n} in SPLINTER");
        lines[n - 1] = with.map(str::to_string);
    }
    let mut out = String::new();
    for l in lines.into_iter().flatten() {
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// `SPLINTER` with one line replaced.
fn splinter_line(n: usize, with: &str) -> String {
    splinter_with(&[(n, Some(with))])
}

/// The load error for `source`; fails the test if it loads.
#[track_caller]
fn load_err(source: &str) -> LoadError {
    match load_str(ID, source, &pool()) {
        Ok(_) => panic!("this scenario should have been rejected:\n{source}"),
        Err(e) => e,
    }
}

/// Loads `source`, which must load.
#[track_caller]
fn load_ok(source: &str) -> Loaded {
    load_str(ID, source, &pool()).unwrap_or_else(|e| panic!("this scenario should load, but: {e}\n{source}"))
}

/// The runtime error for `source`, which must load but be `Invalid` when run.
#[track_caller]
fn run_err(source: &str) -> LoadError {
    match run_loaded(load_ok(source)) {
        RunResult::Invalid(e) => e,
        RunResult::Pass { .. } => panic!("this scenario should have been invalid when run, but it passed:\n{source}"),
        RunResult::Fail { failures, .. } => panic!(
            "this scenario should have been invalid when run, but it only failed expectations: {}\n{source}",
            failures.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
        ),
    }
}

/// `e` is at `line:column` in `ID`, its Display says so, and its message holds every word.
#[track_caller]
fn assert_located(e: &LoadError, line: usize, column: usize, words: &[&str]) {
    assert_eq!(e.file, ID, "wrong file in: {e}");
    assert_eq!((e.line, e.column), (line, column), "wrong location (want {line}:{column}) for: {e}");
    assert!(
        e.to_string().starts_with(&format!("{ID}:{line}:{column}: ")),
        "Display is not file:line:column: message: {e}"
    );
    for w in words {
        assert!(e.message.contains(w), "the message lacks {w:?}: {e}");
    }
}

// ---------------------------------------------------------------------------------------------
// The base scenario is valid (so every error below comes from the edit).

#[test]
fn the_base_scenario_loads_and_passes() {
    let result = run_loaded(load_ok(SPLINTER));
    assert!(result.passed(), "SPLINTER should pass: {result:?}");
}

// ---------------------------------------------------------------------------------------------
// YAML syntax.

#[test]
fn yaml_syntax_bad_indentation() {
    // Under-indented: line 3 becomes a block mapping followed by a key indented by one space:
    //   3 source:
    //   4   kind: cr-example
    //   5   reference: r
    //   6  tags: [x]
    // The scanner closes `source`'s mapping at column 2 and then opens a new mapping where the
    // outer one (column 1) expects a key: the error is at line 6, column 2.
    let src = splinter_line(3, "source:\n  kind: cr-example\n  reference: r\n tags: [x]");
    let e = load_err(&src);
    assert_located(&e, 6, 2, &["did not find expected key"]);
    // Over-indented: line 6 `      hand: [Splinter]` continues the plain scalar `Alice` of line 5,
    // and its `:` (column 11) is a mapping value inside a scalar.
    let e = load_err(&splinter_line(6, "      hand: [Splinter]"));
    assert_located(&e, 6, 11, &["mapping values are not allowed"]);
}

#[test]
fn yaml_syntax_error_is_not_masked_by_a_missing_field() {
    // The same under-indentation, but it is `source`'s own second key that is misindented:
    //   3 source:
    //   4   kind: cr-example
    //   5  reference: CR 701.23b example
    // The file is not valid YAML: the error belongs at line 5, column 2 ("did not find expected
    // key"). serde_norway deserialises the events read before the syntax error, so `source`
    // (closed at line 5) comes out as a complete mapping without `reference`, and the syntax
    // error is never reported.
    let src = splinter_line(3, "source:\n  kind: cr-example\n reference: CR 701.23b example");
    let e = load_err(&src);
    assert_located(&e, 5, 2, &["did not find expected key"]);
}

#[test]
fn yaml_syntax_unclosed_flow_sequence() {
    // `rules: ["701.23b"` never closes: inside the flow sequence, line 3 starts another entry
    // with no comma before it, at line 3, column 1.
    let src = splinter_line(2, "rules: [\"701.23b\"");
    let e = load_err(&src);
    assert_located(&e, 3, 1, &["did not find expected ',' or ']'", "flow sequence"]);
}

#[test]
fn yaml_syntax_unclosed_bracket_says_where_it_opened() {
    // serde_norway's message is "did not find expected ',' or ']' at line 3 column 1, while
    // parsing a flow sequence at line 2 column 8": the second position is where the unclosed
    // `[` is, the one thing a person needs to find it. The error is at 3:1 and the message
    // should still say where the sequence began.
    let src = splinter_line(2, "rules: [\"701.23b\"");
    let e = load_err(&src);
    assert_located(&e, 3, 1, &["flow sequence", "line 2 column 8"]);
}

#[test]
fn yaml_syntax_tab_indentation() {
    // A tab where indentation is expected: line 6 is `\thand: [Splinter]`.
    // The tab is column 1.
    let src = splinter_line(6, "\thand: [Splinter]");
    let e = load_err(&src);
    assert_located(&e, 6, 1, &["tab character", "indentation"]);
}

// ---------------------------------------------------------------------------------------------
// Shape of the document.

#[test]
fn top_level_is_not_a_mapping() {
    let e = load_err("- title: a list, not a scenario\n- rules: []\n");
    assert_located(&e, 1, 1, &["invalid type", "sequence", "Scenario"]);
    let e = load_err("just a sentence\n");
    assert_located(&e, 1, 1, &["invalid type", "string", "just a sentence", "Scenario"]);
}

#[test]
fn missing_required_key() {
    // No `steps` at all (lines 15-17 deleted): serde points at the root mapping.
    let src = splinter_with(&[(15, None), (16, None), (17, None)]);
    let e = load_err(&src);
    assert_located(&e, 1, 1, &["missing field `steps`"]);
    // `source` without `reference`: at the `{` of `source`'s mapping, line 3 column 9.
    let e = load_err(&splinter_line(3, "source: {kind: cr-example}"));
    assert_located(&e, 3, 9, &["missing field `reference`"]);
}

#[test]
fn unknown_key_at_top_level() {
    // `playres:` on line 4 is not a key of a scenario; serde lists the keys it accepts.
    let e = load_err(&splinter_line(4, "playres:"));
    assert_located(&e, 4, 1, &["unknown field `playres`", "`players`"]);
}

#[test]
fn unknown_key_in_card_setup_map() {
    // Line 14: `  - {card: Howling Mine, idd: mine-bf, owner: Bob}`; `idd` is at column 26.
    let e = load_err(&splinter_line(14, "  - {card: Howling Mine, idd: mine-bf, owner: Bob}"));
    assert_located(&e, 14, 26, &["unknown field `idd`", "`id`"]);
}

#[test]
fn unknown_key_in_expect() {
    // Line 20: `  alwyas:`; the key is at column 3.
    let e = load_err(&splinter_line(20, "  alwyas:"));
    assert_located(&e, 20, 3, &["unknown field `alwyas`", "`always`"]);
}

#[test]
fn unknown_step_kind() {
    // Line 17: `  - resolv`; the scalar is at column 5.
    let e = load_err(&splinter_line(17, "  - resolv"));
    assert_located(&e, 17, 5, &["unknown variant `resolv`", "`resolve`"]);
}

#[test]
fn unknown_enum_value_source_kind() {
    // Line 3: `source: {kind: cr-exmaple, ...}`; the value is at column 16.
    let e = load_err(&splinter_line(3, "source: {kind: cr-exmaple, reference: CR 701.23b example}"));
    assert_located(&e, 3, 16, &["unknown variant `cr-exmaple`", "`cr-example`"]);
}

#[test]
fn string_where_a_list_is_expected() {
    // Line 2: `rules: "701.23b"`; the string is at column 8.
    let e = load_err(&splinter_line(2, "rules: \"701.23b\""));
    assert_located(&e, 2, 8, &["invalid type", "string \"701.23b\"", "expected a sequence"]);
}

#[test]
fn negative_or_text_count() {
    // A step inserted as line 18: `  - draw: {player: Bob, count: -1}`; the count is at column 32.
    let e = load_err(&splinter_line(17, "  - resolve\n  - draw: {player: Bob, count: -1}"));
    assert_located(&e, 18, 32, &["steps[2].draw.count", "integer `-1`", "expected u32"]);
    let e = load_err(&splinter_line(17, "  - resolve\n  - draw: {player: Bob, count: two}"));
    assert_located(&e, 18, 32, &["steps[2].draw.count", "invalid type", "\"two\"", "expected u32"]);
}

#[test]
fn duplicate_top_level_key() {
    // A second `title:` as line 2. The loader checks the YAML itself first, and serde_norway's
    // YAML reader points at the mapping that holds both keys: the root, 1:1.
    let e = load_err(&splinter_line(1, "title: Splinter on Howling Mine\ntitle: again"));
    assert_located(&e, 1, 1, &["duplicate entry with key \"title\""]);
}

// ---------------------------------------------------------------------------------------------
// Names that don't resolve.

#[test]
fn unknown_card_name_with_did_you_mean() {
    // Line 9 `      - Howling Mnie`: Bob's library[0], the scalar at column 9.
    let e = load_err(&splinter_line(9, "      - Howling Mnie"));
    assert_located(&e, 9, 9, &["unknown card `Howling Mnie`", "did you mean `Howling Mine`?"]);
}

#[test]
fn unknown_card_name_in_block_map_points_at_the_name() {
    // The map form with `card:` on the second line of the item:
    //   14   - id: mine-bf
    //   15     card: Howling Mnie
    //   16     owner: Bob
    // The unknown name is at line 15, column 11.
    let e = load_err(&splinter_line(14, "  - id: mine-bf\n    card: Howling Mnie\n    owner: Bob"));
    assert_located(&e, 15, 11, &["unknown card `Howling Mnie`", "did you mean `Howling Mine`?"]);
}

#[test]
fn unknown_card_id_in_step_with_did_you_mean() {
    // Line 16 with `card: splintr` (column 33).
    let e = load_err(&splinter_line(16, "  - cast: {player: Alice, card: splintr, targets: [mine-bf]}"));
    assert_located(&e, 16, 33, &["`splintr`", "did you mean `splinter`?"]);
    // And a target id: `targets: [mine-fb]`, the id at column 53.
    let e = load_err(&splinter_line(16, "  - cast: {player: Alice, card: splinter, targets: [mine-fb]}"));
    assert_located(&e, 16, 53, &["`mine-fb`", "did you mean `mine-bf`?"]);
}

#[test]
fn unknown_card_id_in_expectation() {
    // Line 21: `    - zone: {card: mine-yg, zone: exile}`; the id is at column 20.
    let e = load_err(&splinter_line(21, "    - zone: {card: mine-yg, zone: exile}"));
    assert_located(&e, 21, 20, &["`mine-yg`", "did you mean `mine-gy`?"]);
}

#[test]
fn unknown_player_in_step() {
    // Line 16 with `player: Alcie` (column 20).
    let e = load_err(&splinter_line(16, "  - cast: {player: Alcie, card: splinter, targets: [mine-bf]}"));
    assert_located(&e, 16, 20, &["unknown player `Alcie`", "did you mean `Alice`?", "Alice, Bob"]);
    // And as a card's owner: line 14 with `owner: Bobb` (column 46).
    let e = load_err(&splinter_line(14, "  - {card: Howling Mine, id: mine-bf, owner: Bobb}"));
    assert_located(&e, 14, 46, &["unknown player `Bobb`", "did you mean `Bob`?", "Alice, Bob"]);
}

#[test]
fn unknown_player_as_a_target() {
    // Lobotomy targets a player; the step names `Bobb` (line 16, column 53). A target may be a
    // card id or a player name, so the message should suggest the player `Bob` as `player:` and
    // `owner:` typos do (see unknown_player_in_step).
    let src = splinter_with(&[
        (6, Some("    hand: [Lobotomy]")),
        (16, Some("  - cast: {player: Alice, card: lobotomy, targets: [Bobb]}")),
    ]);
    let e = load_err(&src);
    assert_located(&e, 16, 53, &["`Bobb`", "did you mean `Bob`?"]);
}

#[test]
fn unknown_zone_name_in_assertion() {
    // Line 21: `    - zone: {card: mine-gy, zone: Bob.libary}`; the zone is at column 35.
    let e = load_err(&splinter_line(21, "    - zone: {card: mine-gy, zone: Bob.libary}"));
    assert_located(&e, 21, 35, &["unknown zone `libary`", "Bob.libary", "library"]);
    // An unknown player in a zone name: `Bbo.library`.
    let e = load_err(&splinter_line(21, "    - zone: {card: mine-gy, zone: Bbo.library}"));
    assert_located(&e, 21, 35, &["unknown player `Bbo`", "Alice, Bob"]);
}

#[test]
fn unknown_zone_name_in_final_is_located_at_its_key() {
    // `expect.final` keyed by zone name; the bad zone is the SECOND entry, line 21:
    //   18 expect:
    //   19   final:
    //   20     exile: [mine-bf, mine-gy, mine-lib-1, splinter]
    //   21     Bob.libary: [forest]
    // The zone name contains a `.`, so it must not be taken for a path; the error belongs on
    // line 21 (its value, `[`, is at column 17).
    let src = splinter_with(&[
        (19, Some("  final:")),
        (20, Some("    exile: [mine-bf, mine-gy, mine-lib-1, splinter]")),
        (21, Some("    Bob.libary: [forest]")),
        (22, None),
    ]);
    let e = load_err(&src);
    assert_located(&e, 21, 17, &["unknown zone `libary`", "library"]);
}

#[test]
fn unknown_event_kind_in_events_assertion() {
    // Line 22: `    - events: {kind: serched, player: Alice, count: 1}`; the kind is at column 22.
    let e = load_err(&splinter_line(22, "    - events: {kind: serched, player: Alice, count: 1}"));
    assert_located(&e, 22, 22, &["unknown event kind `serched`", "did you mean `searched`?"]);
}

#[test]
fn unknown_card_name_in_count_assertion() {
    // Line 22: `    - count: {zone: exile, name: Howling Mnie, count: 2}`; the name is at column 34.
    let e = load_err(&splinter_line(22, "    - count: {zone: exile, name: Howling Mnie, count: 2}"));
    assert_located(&e, 22, 34, &["`Howling Mnie`", "did you mean `Howling Mine`?"]);
}

// ---------------------------------------------------------------------------------------------
// Duplicates and counts.

#[test]
fn duplicate_explicit_card_id() {
    // Line 12 reuses `mine-lib-1` (from line 10); the second id is at column 34.
    let e = load_err(&splinter_line(12, "      - {card: Howling Mine, id: mine-lib-1}"));
    assert_located(&e, 12, 34, &["`mine-lib-1`", "used twice"]);
}

#[test]
fn explicit_id_colliding_with_a_default_id() {
    // Alice's Splinter has the default id `splinter`; line 14 claims it explicitly (column 30).
    let e = load_err(&splinter_line(14, "  - {card: Howling Mine, id: splinter, owner: Bob}"));
    assert_located(&e, 14, 30, &["`splinter`", "used twice"]);
}

#[test]
fn duplicate_player_name() {
    // Line 7: `  - name: Alice` again; the name is at column 11.
    let e = load_err(&splinter_line(7, "  - name: Alice"));
    assert_located(&e, 7, 11, &["two players are named `Alice`"]);
}

#[test]
fn invalid_player_name() {
    // A `.` would make `A.lice.library` ambiguous. Line 5, the name at column 11.
    let e = load_err(&splinter_line(5, "  - name: A.lice"));
    assert_located(&e, 5, 11, &["player's name", "`.`"]);
}

#[test]
fn one_player_or_five_players() {
    // Bob (lines 7-12) removed: `players` is the sequence starting at line 5, column 3.
    let src = splinter_with(&[(7, None), (8, None), (9, None), (10, None), (11, None), (12, None)]);
    let e = load_err(&src);
    assert_located(&e, 5, 3, &["2 to 4 players", "not 1"]);
    // Carol, Dave and Eve added after Bob.
    let src =
        splinter_line(12, "      - {card: Howling Mine, id: mine-gy}\n  - name: Carol\n  - name: Dave\n  - name: Eve");
    let e = load_err(&src);
    assert_located(&e, 5, 3, &["2 to 4 players", "not 5"]);
}

// ---------------------------------------------------------------------------------------------
// Cards in the wrong place.

#[test]
fn token_outside_the_battlefield() {
    // Line 6: `    hand: [Splinter, Clue]`; `Clue` is at column 22.
    let e = load_err(&splinter_line(6, "    hand: [Splinter, Clue]"));
    assert_located(&e, 6, 22, &["`Clue` is a token", "111.7"]);
}

#[test]
fn known_to_in_a_public_zone() {
    // Line 14 with `known_to: [Alice]` on a permanent; the list is at column 61.
    let e = load_err(&splinter_line(14, "  - {card: Howling Mine, id: mine-bf, owner: Bob, known_to: [Alice]}"));
    assert_located(&e, 14, 61, &["public zones", "400.2"]);
}

#[test]
fn owner_other_than_the_zones_player() {
    // Line 10 with `owner: Alice` in Bob's library; the owner is at column 53.
    let e = load_err(&splinter_line(10, "      - {card: Howling Mine, id: mine-lib-1, owner: Alice}"));
    assert_located(&e, 10, 53, &["Bob's library", "400.3"]);
}

// ---------------------------------------------------------------------------------------------
// Split cards, abilities, inline cards.

#[test]
fn split_card_face_that_is_not_a_half() {
    // Cease // Desist in Alice's hand (default id `cease-desist`); line 16 casts `face: Ceese`
    // (column 53).
    let src = splinter_with(&[
        (6, Some("    hand: [Splinter, \"Cease // Desist\"]")),
        (16, Some("  - cast: {player: Alice, card: cease-desist, face: Ceese}")),
    ]);
    let e = load_err(&src);
    assert_located(&e, 16, 53, &["`Ceese` is not a half of Cease // Desist", "Cease and Desist"]);
    // A face on a card that isn't split: `face: Split` at column 49.
    let e = load_err(&splinter_line(16, "  - cast: {player: Alice, card: splinter, face: Split}"));
    assert_located(&e, 16, 49, &["`Splinter` is not a split card"]);
}

#[test]
fn activate_an_ability_the_card_lacks() {
    // Line 10: `  - activate: {player: Alice, card: eternal-dragon, ability: swampcycling}`;
    // the ability name is at column 62.
    let src = "\
title: Eternal Dragon has no swampcycling
rules: [\"702.29e\"]
source: {kind: clause, reference: CR 702.29e}
players:
  - name: Alice
    hand: [Eternal Dragon]
    library: [Plains, Swamp]
  - name: Bob
steps:
  - activate: {player: Alice, card: eternal-dragon, ability: swampcycling}
expect: {}
";
    let e = load_err(src);
    assert_located(&e, 10, 62, &["Eternal Dragon has no ability `swampcycling`", "plainscycling"]);
}

#[test]
fn inline_card_whose_name_is_in_the_pool() {
    // `cards:` inserted after line 3; the inline card's name is at line 5, column 11.
    let src = splinter_line(
        3,
        "source: {kind: cr-example, reference: CR 701.23b example}\ncards:\n  - name: Forest\n    types: [Land]",
    );
    let e = load_err(&src);
    assert_located(&e, 5, 11, &["`Forest` is already in the card pool"]);
}

#[test]
fn inline_card_with_unknown_field() {
    // An inline card with `mana_cots` (line 6, column 5): card definitions deny unknown keys too.
    let src = splinter_line(
        3,
        "source: {kind: cr-example, reference: CR 701.23b example}\ncards:\n  - name: Hypothetical Widget\n    mana_cots: \"{1}\"",
    );
    let e = load_err(&src);
    assert_located(&e, 6, 5, &["unknown field `mana_cots`", "`mana_cost`"]);
}

// ---------------------------------------------------------------------------------------------
// Errors found while running, located at steps[i] or decisions[i].

#[test]
fn cast_a_card_not_in_hand() {
    // Splinter is in Alice's graveyard; Bob draws first (steps[0], line 16), then Alice tries to
    // cast it (steps[1], line 17, the item's mapping at column 5).
    let src = splinter_with(&[
        (6, Some("    graveyard: [Splinter]")),
        (16, Some("  - draw: {player: Bob}\n  - cast: {player: Alice, card: splinter, targets: [mine-bf]}")),
    ]);
    let e = run_err(&src);
    assert_located(&e, 17, 5, &["steps[1]", "splinter", "Alice.graveyard", "not in their hand"]);
}

#[test]
fn resolve_with_an_empty_stack() {
    // Line 16 becomes `  - resolve` (scalar at column 5): nothing is on the stack.
    let e = run_err(&splinter_line(16, "  - resolve"));
    assert_located(&e, 16, 5, &["steps[0]", "nothing on the stack"]);
}

#[test]
fn illegal_target_names_the_card() {
    // Splinter targets `forest`, a card in Bob's library (not an artifact on the battlefield).
    // Located at steps[0] (line 16, column 5); the message should name the card by its id.
    let e = run_err(&splinter_line(16, "  - cast: {player: Alice, card: splinter, targets: [forest]}"));
    assert_located(&e, 16, 5, &["steps[0]", "forest", "not a legal target"]);
    assert!(!e.message.contains("Obj("), "the message shows an internal object number: {e}");
}

#[test]
fn unmodelled_spell_is_located_at_its_step() {
    // Lightning Bolt is not modelled; it is cast at steps[2] (line 18, column 5).
    let src = splinter_with(&[
        (6, Some("    hand: [Splinter, Lightning Bolt]")),
        (17, Some("  - resolve\n  - cast: {player: Alice, card: lightning-bolt, targets: [Bob]}")),
    ]);
    let e = run_err(&src);
    assert_located(&e, 18, 5, &["not modelled", "Lightning Bolt"]);
}

#[test]
fn illegal_search_not_finding_the_graveyard_copy() {
    // decisions[0] (line 19, column 5) finds only a library copy; the graveyard is public, so
    // its copy must be found (701.23b). The error lists the legal answers.
    let src = splinter_line(17, "  - resolve\ndecisions:\n  - search: {player: Alice, find: [mine-lib-1]}");
    let e = run_err(&src);
    assert_located(&e, 19, 5, &["decisions[0]", "not a legal choice", "701.23", "legal:", "mine-gy"]);
}

#[test]
fn illegal_search_finding_a_forest_with_mystical_teachings() {
    // decisions[0] (line 13, column 5) finds a Forest, which is neither an instant nor has flash.
    let src = "\
title: Mystical Teachings can't find a Forest
rules: [\"701.23a\"]
source: {kind: cr-variant, reference: Mystical Teachings}
players:
  - name: Alice
    hand: [Mystical Teachings]
    library: [Forest, Counterspell, Aven Mindcensor]
  - name: Bob
steps:
  - cast: {player: Alice, card: mystical-teachings}
  - resolve
decisions:
  - search: {player: Alice, find: [forest]}
expect: {}
";
    let e = run_err(src);
    assert_located(
        &e,
        13,
        5,
        &["decisions[0]", "not a legal choice", "forest", "legal:", "counterspell", "aven-mindcensor"],
    );
}

#[test]
fn scripted_decision_that_never_comes_up() {
    // Bob is never asked a "may" in SPLINTER; decisions[0] is at line 19, column 5.
    let src = splinter_line(17, "  - resolve\ndecisions:\n  - may: {player: Bob, accept: true}");
    let e = run_err(&src);
    assert_located(&e, 19, 5, &["decisions[0]", "never came up"]);
}

// ---------------------------------------------------------------------------------------------
// Degenerate inputs.

#[test]
fn empty_file() {
    // A file with nothing but blank lines or comments is reported as empty, at its start.
    for src in ["", "\n\n", "# only a comment\n"] {
        let e = load_err(src);
        assert_located(&e, 1, 1, &["the file is empty", "title"]);
    }
}

#[test]
fn binary_garbage_as_lossy_utf8() {
    let bytes: Vec<u8> =
        vec![0xff, 0xfe, 0x00, 0x01, b't', b'i', b't', 0xc3, b'l', b'e', b':', 0x80, b'\n', 0x1b, 0x9f];
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // `\u{FFFD}\u{FFFD}\0…`: the NUL is the first character YAML refuses. libyaml's reader
    // reports only a byte offset (6: two 3-byte replacement characters), so serde_norway has no
    // line and column and the error is at 1:1.
    let e = load_err(&text);
    assert_located(&e, 1, 1, &["control characters are not allowed", "position 6"]);
    // Invalid bytes in an otherwise valid scenario: replacement characters in a card name.
    let mut bytes = splinter_line(9, "      - For\u{1}est").into_bytes();
    let at = bytes.iter().position(|&b| b == 1).expect("the marker byte is there");
    bytes[at] = 0xff;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let e = load_err(&text);
    // `For\u{FFFD}est` is an unknown card at line 9, column 9.
    assert_located(&e, 9, 9, &["unknown card `For\u{FFFD}est`", "did you mean `Forest`?"]);
}

/// `SPLINTER` with an inline sorcery whose one target is a permanent matching `filter`.
/// Lines 4-10: `cards:` … `effect: []`; the filter starts at line 9, column 22.
fn splinter_with_inline_filter(filter: &str) -> String {
    splinter_line(
        3,
        &format!(
            "source: {{kind: cr-example, reference: r}}\ncards:\n  - name: Deep Widget\n    types: [Sorcery]\n    spell:\n      targets:\n        - permanent: {filter}\n      effect: []"
        ),
    )
}

#[test]
fn deeply_nested_structure() {
    // 10 000 nested flow sequences as the rules list (line 2): the outer `[` at column 8 is the
    // list, the second `[` (column 9) is rules[0], which should be a string.
    let deep = format!("{}\"x\"{}", "[".repeat(10_000), "]".repeat(10_000));
    // The depth pre-scan runs first and stops at the recursion limit, inside the brackets on line 2.
    let e = load_err(&splinter_line(2, &format!("rules: {deep}")));
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("recursion limit exceeded"), "{e}");
    // 2 000 nested block mappings under `description` (line 4): the map starts at line 5,
    // column 2.
    let mut block = String::from("description:\n");
    for depth in 1..2000 {
        block.push_str(&" ".repeat(depth));
        block.push_str("k:\n");
    }
    // The YAML check's recursion limit (128 levels) stops it inside the nesting, 127 levels down.
    let e = load_err(&splinter_line(3, &format!("source: {{kind: cr-example, reference: r}}\n{}", block.trim_end())));
    assert!(e.line > 5 && e.message.contains("recursion limit exceeded"), "{e}");
    // 5 000 nested `not:` filters, where nesting is allowed: the depth pre-scan, which counts the
    // flow levels on the line (no more than the parser's 128-level recursion limit would), stops
    // it before the parser runs, at the `{` that opens the 129th level: the 128th `{not: `, column
    // 22 + 6 × 127.
    let deep = format!("{}{{}}{}", "{not: ".repeat(5000), "}".repeat(5000));
    let e = load_err(&splinter_with_inline_filter(&deep));
    assert_located(&e, 9, 22 + 6 * 127, &["recursion limit exceeded", "nested more than 128 levels deep"]);
    // 100 levels are fine, and a later error (line 23, the step's `card: splintr` at column 33)
    // is still located through them.
    let deep = format!("{}{{}}{}", "{not: ".repeat(100), "}".repeat(100));
    let src = splinter_with_inline_filter(&deep).replace("card: splinter, targets", "card: splintr, targets");
    let e = load_err(&src);
    assert_located(&e, 23, 33, &["`splintr`", "did you mean `splinter`?"]);
}

#[test]
fn more_than_one_document() {
    // serde_norway rejects the stream as a whole, without a position: 1:1.
    let src = format!("{SPLINTER}---\n{SPLINTER}");
    let e = load_err(&src);
    assert_located(&e, 1, 1, &["more than one document"]);
}

// ---------------------------------------------------------------------------------------------
// Mutations: nothing panics, every error is located.

/// A fixed-seed xorshift64 generator.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 { 0 } else { (self.next() % n as u64) as usize }
    }
}

/// One random edit: delete, duplicate or swap characters, or delete, duplicate or swap lines.
fn mutate(text: &str, rng: &mut XorShift) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    match rng.below(6) {
        0 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.remove(i);
        }
        1 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars.insert(i, chars[i]);
        }
        2 if chars.len() >= 2 => {
            let i = rng.below(chars.len());
            let j = rng.below(chars.len());
            chars.swap(i, j);
        }
        3 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.remove(i);
            return lines.join("\n") + "\n";
        }
        4 if !lines.is_empty() => {
            let i = rng.below(lines.len());
            lines.insert(i, lines[i].clone());
            return lines.join("\n") + "\n";
        }
        _ if lines.len() >= 2 => {
            let i = rng.below(lines.len());
            let j = rng.below(lines.len());
            lines.swap(i, j);
            return lines.join("\n") + "\n";
        }
        _ => {}
    }
    chars.into_iter().collect()
}

#[track_caller]
fn assert_in_file(e: &LoadError, src: &str, what: &str, seed: u64, case: usize) {
    let lines = src.lines().count().max(1);
    assert!(
        e.line >= 1 && e.column >= 1 && e.line <= lines + 1 && e.file == ID,
        "seed {seed:#x}, mutation {case}: {what} error not located in the file ({lines} lines): {e}\n--- input ---\n{src}"
    );
}

#[test]
fn random_mutations_never_panic_and_errors_are_located() {
    const SEED: u64 = 0x2545_F491_4F6C_DD1D;
    let pool = pool();
    let mut rng = XorShift(SEED);
    let (mut loaded, mut rejected) = (0, 0);
    for case in 0..300 {
        let mut src = SPLINTER.to_string();
        for _ in 0..=rng.below(3) {
            src = mutate(&src, &mut rng);
        }
        let outcome = catch_unwind(AssertUnwindSafe(|| match load_str(ID, &src, &pool) {
            Err(e) => Err(e),
            Ok(l) => Ok(run_loaded(l)),
        }));
        let result = match outcome {
            Ok(r) => r,
            Err(panic) => {
                let why = panic
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("seed {SEED:#x}, mutation {case}: panicked ({why})\n--- input ---\n{src}");
            }
        };
        match result {
            Err(e) => {
                rejected += 1;
                assert_in_file(&e, &src, "load", SEED, case);
            }
            Ok(RunResult::Invalid(e)) => {
                loaded += 1;
                assert_in_file(&e, &src, "run", SEED, case);
            }
            Ok(RunResult::Fail { failures, .. }) => {
                loaded += 1;
                for e in &failures {
                    assert_in_file(e, &src, "expectation", SEED, case);
                }
            }
            Ok(RunResult::Pass { .. }) => loaded += 1,
        }
    }
    assert!(
        loaded > 0 && rejected > 0,
        "seed {SEED:#x}: the mutations should both load ({loaded}) and fail ({rejected})"
    );
}

#[test]
fn an_instant_on_the_battlefield_is_an_impossible_state() {
    // A second battlefield entry as line 15: an instant can't be there (400.4a).
    let e = load_err(&splinter_line(
        14,
        "  - {card: Howling Mine, id: mine-bf, owner: Bob}\n  - {card: Lightning Bolt, owner: Bob}",
    ));
    assert_eq!((e.line, e.column), (15, 12), "{e}"); // at the card name
    assert!(e.message.contains("Lightning Bolt") && e.message.contains("400.4a"), "{e}");
}

#[test]
fn a_permanent_whose_unmodelled_static_ability_would_act_is_refused() {
    // Leonin Arbiter's "players can't search libraries" isn't modelled; with it on the
    // battlefield every search would be misjudged, so the scenario is refused at its entry.
    let e = load_err(&splinter_line(
        14,
        "  - {card: Howling Mine, id: mine-bf, owner: Bob}\n  - {card: Leonin Arbiter, owner: Bob}",
    ));
    assert_eq!((e.line, e.column), (15, 12), "{e}");
    assert!(e.message.contains("not modelled") && e.message.contains("Leonin Arbiter"), "{e}");
}

// ---------------------------------------------------------------------------------------------
// Steps and decisions of the actions around searching (issue 3).

#[test]
fn an_attempt_cannot_wrap_an_attempt() {
    let src =
        splinter_line(16, "  - attempt: {step: {attempt: {step: resolve, refused: \"608.2\"}}, refused: \"608.2\"}");
    let e = load_err(&src);
    assert_located(&e, 16, 21, &["steps[0].attempt.step", "can't wrap another attempt"]);
}

#[test]
fn a_step_the_rules_forbid_without_attempt_names_the_clause() {
    // Splinter has no flashback: casting it from the graveyard with flashback is refused by
    // 702.34a, and the error says how to expect that.
    let src = splinter_with(&[
        (6, Some("    graveyard: [Splinter]")),
        (16, Some("  - cast: {player: Alice, card: splinter, targets: [mine-bf], flashback: true}")),
    ]);
    let e = run_err(&src);
    assert_located(&e, 16, 5, &["steps[0]", "702.34a", "doesn't have flashback", "attempt:"]);
}

#[test]
fn an_attempt_refused_for_another_clause_names_both() {
    let src = splinter_with(&[
        (6, Some("    graveyard: [Splinter]")),
        (
            16,
            Some(
                "  - attempt: {step: {cast: {player: Alice, card: splinter, targets: [mine-bf], flashback: true}}, refused: \"702.29f\"}",
            ),
        ),
    ]);
    let e = run_err(&src);
    assert_located(&e, 16, 5, &["steps[0]", "702.34a", "not by 702.29f"]);
}

#[test]
fn the_revealed_card_of_a_cast_must_exist() {
    let src = splinter_line(16, "  - cast: {player: Alice, card: splinter, targets: [mine-bf], reveal: mine-lib-9}");
    let e = load_err(&src);
    assert_located(&e, 16, 71, &["steps[0].cast.reveal", "mine-lib-9", "did you mean `mine-lib-1`"]);
}

#[test]
fn a_scripted_name_of_both_halves_is_illegal() {
    let src = format!(
        "{}decisions:\n  - name: {{player: Alice, name: \"Cease // Desist\"}}\n",
        splinter_with(&[
            (6, Some("    hand: [Cranial Extraction]")),
            (16, Some("  - cast: {player: Alice, card: cranial-extraction, targets: [Bob]}")),
            (19, None),
            (21, None),
        ])
    );
    let e = run_err(&src);
    assert!(e.message.contains("709.4a"), "{e}");
    assert!(e.message.contains("decisions[0]"), "{e}");
}
