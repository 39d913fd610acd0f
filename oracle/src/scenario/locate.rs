//! Source positions for nodes of a YAML document, looked up by path.
//!
//! `serde_norway` reports a line and column only for syntax and type errors. Semantic errors found
//! after deserialisation (an unknown card, an illegal scripted choice) know only *where in the data*
//! the problem is, e.g. `steps[2].cast.targets[0]`. This module maps such a path back to a
//! `line:column` in the scenario file.
//!
//! It walks the event stream of `yaml_rust2`'s parser once, keeping a stack of open collections, and
//! stores every node in a flat arena (so even pathologically deep documents are dropped without
//! recursion). Lookups fall back to the deepest node that exists, so an error about a missing key
//! points at the mapping that lacks it.
//!
//! Positions are 1-based; columns count characters (not bytes), so multibyte UTF-8 text before a
//! node does not shift its column.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::panic::{AssertUnwindSafe, catch_unwind};

use yaml_rust2::parser::{Event, MarkedEventReceiver, Parser};
use yaml_rust2::scanner::{Marker, TScalarStyle};

/// One step of a path into a YAML document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PathSeg {
    /// A key of a mapping (matched against the key's scalar text).
    Key(String),
    /// A 0-based index into a sequence.
    Index(usize),
}

/// 1-based line and column of a node's first character.
///
/// The column counts Unicode scalar values (characters), not bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column number, in characters.
    pub column: usize,
}

impl Position {
    /// The start of the document, used when there is no node at all (an empty document).
    const START: Position = Position { line: 1, column: 1 };

    /// Converts a `yaml_rust2` marker (1-based line, 0-based column in characters) to a `Position`.
    fn from_marker(mark: &Marker) -> Position {
        Position { line: mark.line().max(1), column: mark.col().saturating_add(1) }
    }
}

/// Children of one node in the arena.
#[derive(Debug)]
enum Children {
    /// A scalar, an alias, or anything else that has no addressable children.
    Leaf,
    /// A mapping: key text to arena index of the value node. The first occurrence of a key wins.
    Map(HashMap<String, usize>),
    /// A sequence: arena indices of the items, in order.
    Seq(Vec<usize>),
}

/// One recorded node.
#[derive(Debug)]
struct Node {
    /// Position of the node itself (the value, for a mapping entry).
    pos: Position,
    /// Position of the key, when the node is the value of a mapping entry.
    key_pos: Option<Position>,
    /// Addressable children.
    children: Children,
}

/// Positions of every node of a YAML document, by path.
#[derive(Debug)]
pub struct YamlIndex {
    /// Arena of nodes; index 0 is the root when the document has one.
    nodes: Vec<Node>,
}

impl YamlIndex {
    /// Parses `source` (first document only); None if it is not valid YAML.
    ///
    /// Later documents in the stream are not read, so an error in them is not noticed. A source
    /// with no document at all (empty, or only comments) is valid: every lookup then yields line 1,
    /// column 1.
    #[must_use]
    pub fn parse(source: &str) -> Option<YamlIndex> {
        // The parser is not expected to panic, but a malformed input must never take the caller
        // down with it: treat any panic inside it as "not valid YAML".
        catch_unwind(AssertUnwindSafe(|| Self::parse_inner(source))).unwrap_or(None)
    }

    /// The body of [`YamlIndex::parse`], outside the unwind guard.
    fn parse_inner(source: &str) -> Option<YamlIndex> {
        let mut parser = Parser::new_from_str(source);
        let mut builder =
            Builder { lines: source.split('\n').collect(), nodes: Vec::new(), stack: Vec::new(), root_seen: false };
        // Drive the parser by hand rather than with `Parser::load`, which asserts on some states;
        // stop at the end of the first document.
        loop {
            let (event, mark) = parser.next_token().ok()?;
            let done = matches!(event, Event::DocumentEnd | Event::StreamEnd);
            builder.on_event(event, mark);
            if done {
                break;
            }
        }
        Some(YamlIndex { nodes: builder.nodes })
    }

    /// Position of the node at `path` (for a mapping key path, the position of the VALUE node;
    /// the empty path is the root). If the exact node doesn't exist, the position of the deepest
    /// existing ancestor (so an error about a missing key points at the mapping that lacks it).
    ///
    /// A mapping value that is empty (`key:` with nothing after it) is placed at its key, since it
    /// has no character of its own. Aliases are leaves: a path is not followed through them.
    #[must_use]
    pub fn locate(&self, path: &[PathSeg]) -> Position {
        match self.resolve(path) {
            Some((node, _)) => node.pos,
            None => Position::START,
        }
    }

    /// Position of the KEY node for a mapping-key path (useful for "unknown key" errors); falls back like `locate`.
    ///
    /// When the path does not end in a [`PathSeg::Key`] (the root, or a sequence item) or does not
    /// fully exist, this is the same as [`YamlIndex::locate`].
    #[must_use]
    pub fn locate_key(&self, path: &[PathSeg]) -> Position {
        match self.resolve(path) {
            Some((node, true)) => node.key_pos.unwrap_or(node.pos),
            Some((node, false)) => node.pos,
            None => Position::START,
        }
    }

    /// Walks `path` from the root. Returns the deepest node reached and whether the whole path was
    /// followed; None only when the document has no root node.
    fn resolve(&self, path: &[PathSeg]) -> Option<(&Node, bool)> {
        let mut node = self.nodes.first()?;
        for seg in path {
            let next = match (&node.children, seg) {
                (Children::Map(map), PathSeg::Key(key)) => map.get(key).copied(),
                (Children::Seq(items), PathSeg::Index(i)) => items.get(*i).copied(),
                _ => None,
            };
            match next.and_then(|id| self.nodes.get(id)) {
                Some(child) => node = child,
                None => return Some((node, false)),
            }
        }
        Some((node, true))
    }
}

/// What an open mapping expects next.
#[derive(Debug)]
enum Pending {
    /// The next node is a key.
    Key,
    /// The next node is the value for this key (text and position), or for a key that cannot be
    /// addressed (a collection or an alias) when None.
    Value(Option<(String, Position)>),
}

/// Kind of an open collection on the builder's stack.
#[derive(Debug)]
enum FrameKind {
    /// A sequence.
    Seq,
    /// A mapping, with what it expects next.
    Map(Pending),
}

/// An open collection on the builder's stack.
#[derive(Debug)]
struct Frame {
    /// Arena index of the collection, or None if it is not recorded (it is, or is inside, a
    /// complex key or the value of one).
    node: Option<usize>,
    /// Character index of the collection's start event, to repair block-mapping starts.
    start_index: usize,
    /// Whether a child node has started yet.
    seen_child: bool,
    /// Sequence or mapping.
    kind: FrameKind,
}

/// Where a starting node goes, decided from the top of the stack.
struct Placement {
    /// Parent arena index and the path step from it; None if the node is not recorded.
    link: Option<(usize, PathSeg)>,
    /// Position of the key, for a mapping value.
    key_pos: Option<Position>,
    /// Whether this node is the root of the document.
    root: bool,
}

/// Event receiver that builds the node arena.
#[derive(Debug)]
struct Builder<'a> {
    /// The source, split at `\n` (used to find the `-` of an indentless sequence).
    lines: Vec<&'a str>,
    /// Recorded nodes.
    nodes: Vec<Node>,
    /// Open collections, innermost last.
    stack: Vec<Frame>,
    /// Whether the root node has started (anything after it at depth 0 is ignored).
    root_seen: bool,
}

impl Builder<'_> {
    /// Decides where a node that starts at `mark` belongs. `key_text` is the node's text if it is a
    /// scalar (used when the node turns out to be a mapping key). Updates the parent's state.
    fn place(&mut self, mark: &Marker, key_text: Option<&str>) -> Placement {
        let not_recorded = Placement { link: None, key_pos: None, root: false };
        let Some(frame) = self.stack.last_mut() else {
            if self.root_seen {
                return not_recorded;
            }
            self.root_seen = true;
            return Placement { link: None, key_pos: None, root: true };
        };
        // A block mapping's start event is marked at its first `:`, not at its first key; the
        // first child's mark is the real start when it comes earlier.
        if !frame.seen_child {
            frame.seen_child = true;
            if mark.index() < frame.start_index
                && let Some(node) = frame.node.and_then(|id| self.nodes.get_mut(id))
            {
                node.pos = Position::from_marker(mark);
            }
        }
        let parent = frame.node;
        match &mut frame.kind {
            FrameKind::Seq => {
                let Some(parent) = parent else {
                    return not_recorded;
                };
                let index = match self.nodes.get(parent).map(|n| &n.children) {
                    Some(Children::Seq(items)) => items.len(),
                    _ => return not_recorded,
                };
                Placement { link: Some((parent, PathSeg::Index(index))), key_pos: None, root: false }
            }
            FrameKind::Map(pending) => match std::mem::replace(pending, Pending::Key) {
                Pending::Key => {
                    *pending = Pending::Value(key_text.map(|text| (text.to_owned(), Position::from_marker(mark))));
                    // Keys are not nodes of their own in the index.
                    not_recorded
                }
                Pending::Value(None) => not_recorded,
                Pending::Value(Some((key, key_pos))) => {
                    let Some(parent) = parent else {
                        return not_recorded;
                    };
                    match self.nodes.get(parent).map(|n| &n.children) {
                        // A duplicate key: the first occurrence wins.
                        Some(Children::Map(map)) if !map.contains_key(&key) => {
                            Placement { link: Some((parent, PathSeg::Key(key))), key_pos: Some(key_pos), root: false }
                        }
                        _ => not_recorded,
                    }
                }
            },
        }
    }

    /// Records a node at `pos` with `children` according to `placement`; returns its arena index.
    fn record(&mut self, placement: Placement, pos: Position, children: Children) -> Option<usize> {
        if !placement.root && placement.link.is_none() {
            return None;
        }
        let id = self.nodes.len();
        self.nodes.push(Node { pos, key_pos: placement.key_pos, children });
        if let Some((parent, seg)) = placement.link {
            match (self.nodes.get_mut(parent).map(|n| &mut n.children), seg) {
                (Some(Children::Seq(items)), PathSeg::Index(_)) => items.push(id),
                (Some(Children::Map(map)), PathSeg::Key(key)) => {
                    map.entry(key).or_insert(id);
                }
                _ => {}
            }
        }
        Some(id)
    }

    /// Handles the start of a collection (sequence or mapping).
    fn open(&mut self, mark: &Marker, kind: FrameKind, children: Children) {
        let placement = self.place(mark, None);
        let mut pos = Position::from_marker(mark);
        if let (FrameKind::Seq, Some(key_pos)) = (&kind, placement.key_pos) {
            pos = self.indentless_start(pos, key_pos).unwrap_or(pos);
        }
        let node = self.record(placement, pos, children);
        self.stack.push(Frame { node, start_index: mark.index(), seen_child: false, kind });
    }

    /// The real start of a block sequence that is the value of the key at `key_pos` and whose
    /// start event is marked at `pos`, if it is an *indentless* sequence.
    ///
    /// An indentless sequence (`key:` then `- item` at the key's own indentation) is marked at its
    /// first item's content rather than at its first `-`. Its `-` is on that same line, in the key's
    /// column, with only blanks and further `-` between it and the mark.
    fn indentless_start(&self, pos: Position, key_pos: Position) -> Option<Position> {
        if pos.column <= key_pos.column {
            return None;
        }
        let line = self.lines.get(pos.line.checked_sub(1)?)?;
        let mut chars = line.chars().skip(key_pos.column.checked_sub(1)?);
        if chars.next()? != '-' {
            return None;
        }
        let between = pos.column - key_pos.column - 1;
        let blank = chars.take(between).all(|c| matches!(c, ' ' | '\t' | '-'));
        blank.then_some(Position { line: pos.line, column: key_pos.column })
    }
}

impl MarkedEventReceiver for Builder<'_> {
    fn on_event(&mut self, ev: Event, mark: Marker) {
        match ev {
            Event::Scalar(text, style, _, _) => {
                let placement = self.place(&mark, Some(&text));
                // An empty plain scalar is an absent value (`key:`); its mark is wherever the next
                // token happens to be, so put it at its key instead when it has one.
                let pos = match placement.key_pos {
                    Some(key_pos) if text.is_empty() && style == TScalarStyle::Plain => key_pos,
                    _ => Position::from_marker(&mark),
                };
                self.record(placement, pos, Children::Leaf);
            }
            Event::Alias(_) => {
                let placement = self.place(&mark, None);
                self.record(placement, Position::from_marker(&mark), Children::Leaf);
            }
            Event::SequenceStart(..) => {
                self.open(&mark, FrameKind::Seq, Children::Seq(Vec::new()));
            }
            Event::MappingStart(..) => {
                self.open(&mark, FrameKind::Map(Pending::Key), Children::Map(HashMap::new()));
            }
            Event::SequenceEnd | Event::MappingEnd => {
                self.stack.pop();
            }
            Event::Nothing | Event::StreamStart | Event::StreamEnd | Event::DocumentStart | Event::DocumentEnd => {}
        }
    }
}

/// Parses a dotted path such as `players[1].library[3]` or `steps[0].cast.targets[0]` into segments.
///
/// Dotted parts become [`PathSeg::Key`]; bracketed parts become [`PathSeg::Index`] when they are a
/// non-negative integer and [`PathSeg::Key`] otherwise (so `a[b.c]` addresses the key `b.c` of
/// `a`). Empty dotted parts are skipped, and an unclosed `[` is taken literally as part of a key.
/// Never fails: every string yields some path.
#[must_use]
pub fn parse_path(path: &str) -> Vec<PathSeg> {
    let mut segs = Vec::new();
    let mut key = String::new();
    let mut rest = path;
    while let Some(c) = rest.chars().next() {
        let after = &rest[c.len_utf8()..];
        match c {
            '.' => {
                flush_key(&mut key, &mut segs);
                rest = after;
            }
            '[' => {
                if let Some(close) = after.find(']') {
                    flush_key(&mut key, &mut segs);
                    let inner = &after[..close];
                    segs.push(match inner.parse::<usize>() {
                        Ok(i) if inner.bytes().all(|b| b.is_ascii_digit()) => PathSeg::Index(i),
                        _ => PathSeg::Key(inner.to_owned()),
                    });
                    rest = &after[close + 1..];
                } else {
                    // No closing bracket: the rest is one literal key.
                    key.push_str(rest);
                    rest = "";
                }
            }
            _ => {
                key.push(c);
                rest = after;
            }
        }
    }
    flush_key(&mut key, &mut segs);
    segs
}

/// Pushes `key` as a [`PathSeg::Key`] if it is not empty, and clears it.
fn flush_key(key: &mut String, segs: &mut Vec<PathSeg>) {
    if !key.is_empty() {
        segs.push(PathSeg::Key(std::mem::take(key)));
    }
}

/// Formats segments back to that dotted form.
///
/// Keys that could not be read back from the dotted form (empty, or containing `.` or `[`) are
/// written in brackets, `a[b.c]`, which [`parse_path`] reads as a key; only a key that also
/// contains `]` does not round-trip.
#[must_use]
pub fn format_path(path: &[PathSeg]) -> String {
    let mut out = String::new();
    for (i, seg) in path.iter().enumerate() {
        match seg {
            PathSeg::Index(n) => {
                let _ = write!(out, "[{n}]");
            }
            PathSeg::Key(k) => {
                if k.is_empty() || k.contains(['.', '[']) {
                    out.push('[');
                    out.push_str(k);
                    out.push(']');
                } else {
                    if i > 0 {
                        out.push('.');
                    }
                    out.push_str(k);
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(line: usize, column: usize) -> Position {
        Position { line, column }
    }

    fn index(source: &str) -> YamlIndex {
        match YamlIndex::parse(source) {
            Some(idx) => idx,
            None => panic!("test source should parse:\n{source}"),
        }
    }

    fn at(idx: &YamlIndex, path: &str) -> Position {
        idx.locate(&parse_path(path))
    }

    fn key_at(idx: &YamlIndex, path: &str) -> Position {
        idx.locate_key(&parse_path(path))
    }

    #[test]
    fn block_mapping() {
        let src = "name: Search test\nseed: 42\nformat:\n  deck_size: 60\n";
        let idx = index(src);
        assert_eq!(at(&idx, ""), pos(1, 1));
        assert_eq!(at(&idx, "name"), pos(1, 7));
        assert_eq!(at(&idx, "seed"), pos(2, 7));
        assert_eq!(at(&idx, "format"), pos(4, 3));
        assert_eq!(at(&idx, "format.deck_size"), pos(4, 14));
    }

    #[test]
    fn sequence_of_mappings() {
        let src = "\
steps:
  - cast: {player: Alice, card: Opt}
  - pass: Bob
  -   cast:
        player: Bob
";
        let idx = index(src);
        assert_eq!(at(&idx, "steps"), pos(2, 3));
        assert_eq!(at(&idx, "steps[0]"), pos(2, 5));
        assert_eq!(at(&idx, "steps[0].cast"), pos(2, 11));
        assert_eq!(at(&idx, "steps[0].cast.player"), pos(2, 20));
        assert_eq!(at(&idx, "steps[0].cast.card"), pos(2, 33));
        assert_eq!(at(&idx, "steps[1]"), pos(3, 5));
        assert_eq!(at(&idx, "steps[1].pass"), pos(3, 11));
        assert_eq!(at(&idx, "steps[2]"), pos(4, 7));
        assert_eq!(at(&idx, "steps[2].cast"), pos(5, 9));
        assert_eq!(at(&idx, "steps[2].cast.player"), pos(5, 17));
    }

    #[test]
    fn unindented_sequence_under_key() {
        let src = "players:\n- name: Alice\n- name: Bob\nx:\n  y: &a\n  -   - z\n";
        let idx = index(src);
        assert_eq!(at(&idx, "players"), pos(2, 1));
        assert_eq!(at(&idx, "players[0]"), pos(2, 3));
        assert_eq!(at(&idx, "players[1]"), pos(3, 3));
        assert_eq!(at(&idx, "players[1].name"), pos(3, 9));
        // Indentless, anchored, and holding a nested (indented) sequence.
        assert_eq!(at(&idx, "x.y"), pos(6, 3));
        assert_eq!(at(&idx, "x.y[0]"), pos(6, 7));
        assert_eq!(at(&idx, "x.y[0][0]"), pos(6, 9));
    }

    #[test]
    fn flow_sequences() {
        let src = "library: [Island, \"Opt\", 'Ponder', [x, y], {a: 1}, []]\n";
        let idx = index(src);
        assert_eq!(at(&idx, "library"), pos(1, 10));
        assert_eq!(at(&idx, "library[0]"), pos(1, 11));
        assert_eq!(at(&idx, "library[1]"), pos(1, 19));
        assert_eq!(at(&idx, "library[2]"), pos(1, 26));
        assert_eq!(at(&idx, "library[3]"), pos(1, 36));
        assert_eq!(at(&idx, "library[3][1]"), pos(1, 40));
        assert_eq!(at(&idx, "library[4]"), pos(1, 44));
        assert_eq!(at(&idx, "library[4].a"), pos(1, 48));
        assert_eq!(at(&idx, "library[5]"), pos(1, 52));
        // A flow sequence spanning lines.
        let idx = index("xs: [1,\n     2,\n  3]\n");
        assert_eq!(at(&idx, "xs[1]"), pos(2, 6));
        assert_eq!(at(&idx, "xs[2]"), pos(3, 3));
    }

    #[test]
    fn flow_root_mapping() {
        let idx = index("{a: [1, 2], b: {c: d}}");
        assert_eq!(at(&idx, ""), pos(1, 1));
        assert_eq!(at(&idx, "a[1]"), pos(1, 9));
        assert_eq!(at(&idx, "b.c"), pos(1, 20));
        assert_eq!(key_at(&idx, "b.c"), pos(1, 17));
    }

    #[test]
    fn nested_paths() {
        let src = "\
players:
  - name: Alice
    library:
      - Island
      - cards: [Opt, Ponder]
  - name: Bob
";
        let idx = index(src);
        assert_eq!(at(&idx, "players[0].library"), pos(4, 7));
        assert_eq!(at(&idx, "players[0].library[0]"), pos(4, 9));
        assert_eq!(at(&idx, "players[0].library[1].cards[1]"), pos(5, 22));
        assert_eq!(at(&idx, "players[1].name"), pos(6, 11));
    }

    #[test]
    fn missing_key_falls_back_to_parent() {
        let src = "players:\n  - name: Alice\n    life: 20\n";
        let idx = index(src);
        // `players[0]` exists and starts at `name`; it has no `hand`.
        assert_eq!(at(&idx, "players[0].hand"), pos(2, 5));
        assert_eq!(at(&idx, "players[0].hand[3].x"), pos(2, 5));
        assert_eq!(key_at(&idx, "players[0].hand"), pos(2, 5));
        // No `format` at all: the root.
        assert_eq!(at(&idx, "format.deck_size"), pos(1, 1));
        // A key step into a sequence, or an index step into a mapping, does not exist either.
        assert_eq!(at(&idx, "players.name"), pos(2, 3));
        assert_eq!(at(&idx, "players[0][0]"), pos(2, 5));
        // Paths are not followed through scalars.
        assert_eq!(at(&idx, "players[0].life.x"), pos(3, 11));
    }

    #[test]
    fn index_out_of_range() {
        let src = "library: [Island, Opt]\nhand:\n  - Forest\n";
        let idx = index(src);
        assert_eq!(at(&idx, "library[2]"), pos(1, 10));
        assert_eq!(at(&idx, "library[99].name"), pos(1, 10));
        assert_eq!(at(&idx, "hand[1]"), pos(3, 3));
        assert_eq!(at(&idx, &format!("hand[{}]", usize::MAX)), pos(3, 3));
    }

    #[test]
    fn key_versus_value_positions() {
        let src = "name:    Alice\nsteps:\n  - cast:\n      card: Opt\n";
        let idx = index(src);
        assert_eq!(key_at(&idx, "name"), pos(1, 1));
        assert_eq!(at(&idx, "name"), pos(1, 10));
        assert_eq!(key_at(&idx, "steps"), pos(2, 1));
        assert_eq!(at(&idx, "steps"), pos(3, 3));
        assert_eq!(key_at(&idx, "steps[0].cast"), pos(3, 5));
        assert_eq!(at(&idx, "steps[0].cast"), pos(4, 7));
        assert_eq!(key_at(&idx, "steps[0].cast.card"), pos(4, 7));
        assert_eq!(at(&idx, "steps[0].cast.card"), pos(4, 13));
        // Paths that do not end in a key: key and value positions coincide.
        assert_eq!(key_at(&idx, ""), pos(1, 1));
        assert_eq!(key_at(&idx, "steps[0]"), pos(3, 5));
    }

    #[test]
    fn comments_and_blank_lines() {
        let src = "\
# Scenario: tutor into an empty library

---
# the name
name: x   # trailing comment


# players follow
players:
  # first player

  - name: Alice   # comment
";
        let idx = index(src);
        assert_eq!(at(&idx, ""), pos(5, 1));
        assert_eq!(at(&idx, "name"), pos(5, 7));
        assert_eq!(key_at(&idx, "players"), pos(9, 1));
        assert_eq!(at(&idx, "players"), pos(12, 3));
        assert_eq!(at(&idx, "players[0].name"), pos(12, 11));
    }

    #[test]
    fn empty_values_point_at_their_key() {
        let src = "a:\nb: ~\nc: {d, e: f}\n";
        let idx = index(src);
        assert_eq!(at(&idx, "a"), pos(1, 1));
        assert_eq!(at(&idx, "b"), pos(2, 4));
        assert_eq!(at(&idx, "c.d"), pos(3, 5));
        assert_eq!(at(&idx, "c.e"), pos(3, 11));
    }

    #[test]
    fn multibyte_columns_count_characters() {
        let src = "\"é€x\": ünï\nnames: [Æther, Lim-Dûl, Jötun]\n";
        let idx = index(src);
        assert_eq!(key_at(&idx, "é€x"), pos(1, 1));
        assert_eq!(at(&idx, "é€x"), pos(1, 8));
        assert_eq!(at(&idx, "names[1]"), pos(2, 16));
        assert_eq!(at(&idx, "names[2]"), pos(2, 25));
    }

    #[test]
    fn aliases_are_leaves_and_complex_keys_are_skipped() {
        let src = "\
base: &b {life: 20}
p1: *b
? [complex, key]
: {x: 1}
after: 3
";
        let idx = index(src);
        assert_eq!(at(&idx, "base.life"), pos(1, 17));
        assert_eq!(at(&idx, "p1"), pos(2, 5));
        // Not followed through the alias.
        assert_eq!(at(&idx, "p1.life"), pos(2, 5));
        // The complex key's value is not addressable, and does not disturb what follows.
        assert_eq!(at(&idx, "x"), pos(1, 1));
        assert_eq!(at(&idx, "after"), pos(5, 8));
    }

    #[test]
    fn duplicate_keys_first_wins() {
        let idx = index("a: 1\na: 2\n");
        assert_eq!(at(&idx, "a"), pos(1, 4));
    }

    #[test]
    fn first_document_only() {
        let idx = index("a: 1\n---\nb: 2\n");
        assert_eq!(at(&idx, "b"), pos(1, 1));
        assert_eq!(at(&idx, "a"), pos(1, 4));
    }

    #[test]
    fn scalar_root_and_empty_document() {
        let idx = index("  hello\n");
        assert_eq!(at(&idx, ""), pos(1, 3));
        assert_eq!(at(&idx, "x[0]"), pos(1, 3));
        for src in ["", "# only a comment\n", "\n\n"] {
            let idx = index(src);
            assert_eq!(at(&idx, ""), pos(1, 1));
            assert_eq!(key_at(&idx, "a.b"), pos(1, 1));
        }
    }

    #[test]
    fn malformed_yaml_is_none() {
        for src in [
            "a: [1, 2\n",
            "a: 1\n b: 2\n",
            "a: {b: c\n",
            "- a\nb: c\n",
            "key: \"unterminated\n",
            "a: *undefined_anchor\n",
            "a: 1\na: [\n",
            "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[",
        ] {
            assert!(YamlIndex::parse(src).is_none(), "should be rejected: {src:?}");
        }
    }

    #[test]
    fn arbitrary_input_never_panics() {
        // A crude fuzz: every prefix and a few mutations of a tricky document.
        let doc = "a: &x [1, {b: \"é\"}]\n? [k]\n: *x\n- c: |\n    t\n# z\n{d: [e, f}\n";
        let chars: Vec<char> = doc.chars().collect();
        for end in 0..=chars.len() {
            let prefix: String = chars[..end].iter().collect();
            if let Some(idx) = YamlIndex::parse(&prefix) {
                let _ = idx.locate(&parse_path("a[1].b"));
                let _ = idx.locate_key(&parse_path("a[1].b"));
            }
            for insert in ['[', ']', '{', '}', ':', '-', '?', '\n', ' ', '"', '\'', '&', '*', '#'] {
                let mut mutated = prefix.clone();
                mutated.push(insert);
                mutated.extend(&chars[end..]);
                let _ = YamlIndex::parse(&mutated);
            }
        }
        // Deep nesting is fine (or rejected), never a stack overflow.
        let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
        let _ = YamlIndex::parse(&deep);
        let mut block = String::new();
        for depth in 0..500 {
            block.push_str(&" ".repeat(depth));
            block.push_str("k:\n");
        }
        let idx = index(&block);
        let path = vec![PathSeg::Key("k".to_owned()); 499];
        assert_eq!(idx.locate(&path), pos(500, 500));
    }

    #[test]
    fn parse_path_segments() {
        let key = |s: &str| PathSeg::Key(s.to_owned());
        assert_eq!(
            parse_path("players[1].library[3]"),
            vec![key("players"), PathSeg::Index(1), key("library"), PathSeg::Index(3)]
        );
        assert_eq!(
            parse_path("steps[0].cast.targets[0]"),
            vec![key("steps"), PathSeg::Index(0), key("cast"), key("targets"), PathSeg::Index(0)]
        );
        assert_eq!(parse_path(""), vec![]);
        assert_eq!(parse_path("[2][0]"), vec![PathSeg::Index(2), PathSeg::Index(0)]);
        assert_eq!(parse_path("a..b."), vec![key("a"), key("b")]);
        assert_eq!(parse_path("a[b.c].d"), vec![key("a"), key("b.c"), key("d")]);
        assert_eq!(parse_path("a[+1][-1][]"), vec![key("a"), key("+1"), key("-1"), key("")]);
        assert_eq!(parse_path("a[3"), vec![key("a[3")]);
        assert_eq!(parse_path("x.a[3"), vec![key("x"), key("a[3")]);
        assert_eq!(parse_path("a]b.0"), vec![key("a]b"), key("0")]);
        assert_eq!(parse_path("é[1].ü"), vec![key("é"), PathSeg::Index(1), key("ü")]);
        assert_eq!(parse_path("a[99999999999999999999999]"), vec![key("a"), key("99999999999999999999999")]);
    }

    #[test]
    fn path_round_trip() {
        for s in [
            "",
            "name",
            "players[1].library[3]",
            "steps[0].cast.targets[0]",
            "[0]",
            "[0][1].a",
            "a.0.b",
            "é.ü[7]",
            "a[b.c]",
            "a[]",
            "[x[y]",
        ] {
            assert_eq!(format_path(&parse_path(s)), s, "string round trip of {s:?}");
        }
        let key = |s: &str| PathSeg::Key(s.to_owned());
        for path in [
            vec![],
            vec![key("steps"), PathSeg::Index(0), key("cast")],
            vec![PathSeg::Index(3), key("x")],
            vec![key("a.b"), key(""), key("[c"), key("1"), PathSeg::Index(usize::MAX)],
        ] {
            assert_eq!(parse_path(&format_path(&path)), path, "segment round trip of {path:?}");
        }
    }
}
