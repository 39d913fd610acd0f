//! Reading input files safely (size, depth, kind of file) and collecting the scenario files
//! under folders.

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

/// The largest scenario (or baseline, rules index, outcome) file read, in bytes: 4 MiB, some
/// thousand times a real scenario. A larger file is an error, not read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The deepest nesting of YAML collections accepted in a scenario or baseline file: 128 levels,
/// the YAML parser's own recursion limit. Checked by a linear scan before the parser, which slows
/// down badly on deeply nested input; the scan counts no more levels than the parser would, so it
/// refuses only files the parser would refuse too, only sooner.
pub const MAX_YAML_DEPTH: usize = 128;

/// Why an input file can't be read ([`read_source`]).
#[derive(Debug)]
pub enum ReadError {
    /// The path is a folder that can't be listed.
    UnlistableFolder(std::io::Error),
    /// The path is a folder.
    Folder,
    /// Opening or reading the file failed.
    Io(std::io::Error),
    /// Not a regular file: a FIFO, a device or a socket.
    NotRegular,
    /// Larger than [`MAX_FILE_BYTES`].
    TooLarge {
        /// Its size.
        bytes: u64,
    },
    /// It grew past [`MAX_FILE_BYTES`] while being read.
    GrewWhileRead,
    /// Its bytes are not UTF-8.
    NotUtf8(std::string::FromUtf8Error),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::UnlistableFolder(e) => write!(f, "can't list the folder: {e}"),
            ReadError::Folder => f.write_str("a folder, not a scenario file"),
            ReadError::Io(e) => write!(f, "can't read the file: {e}"),
            ReadError::NotRegular => {
                f.write_str("can't read the file: not a regular file (a FIFO, a device or a socket)")
            }
            ReadError::TooLarge { bytes } => {
                write!(f, "the file is {bytes} bytes; files over {MAX_FILE_BYTES} bytes are not read")
            }
            ReadError::GrewWhileRead => write!(f, "the file grew past {MAX_FILE_BYTES} bytes while read; not read"),
            ReadError::NotUtf8(e) => write!(f, "can't read the file: not UTF-8 ({e})"),
        }
    }
}

impl std::error::Error for ReadError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ReadError::UnlistableFolder(e) | ReadError::Io(e) => Some(e),
            ReadError::NotUtf8(e) => Some(e),
            _ => None,
        }
    }
}

/// A path given to [`collect_files`] that doesn't exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NoSuchPath {
    /// The path, as given.
    pub path: PathBuf,
}

impl fmt::Display for NoSuchPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: no such file or directory", self.path.display())
    }
}

impl std::error::Error for NoSuchPath {}

/// Reads an input file as text: only a regular file (a FIFO would block, a device never end), of
/// at most [`MAX_FILE_BYTES`], in UTF-8; a leading byte-order mark is dropped. A folder that can't
/// be listed is reported as such (the walk lists it in place of its files).
pub fn read_source(path: &Path) -> Result<String, ReadError> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(match std::fs::read_dir(path) {
            Err(e) => ReadError::UnlistableFolder(e),
            Ok(_) => ReadError::Folder,
        });
    }
    // Non-blocking, so opening a FIFO doesn't wait for a writer; checked as opened (no race).
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(ReadError::Io)?;
    let meta = file.metadata().map_err(ReadError::Io)?;
    if !meta.is_file() {
        return Err(ReadError::NotRegular);
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ReadError::TooLarge { bytes: meta.len() });
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(ReadError::Io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(ReadError::GrewWhileRead);
    }
    let text = String::from_utf8(bytes).map_err(ReadError::NotUtf8)?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Where `source` first nests YAML collections deeper than `max` (1-based line and column), by
/// a linear scan of flow brackets and of block sequence/mapping markers that open on one line
/// (`- - - x`), skipping quoted text and comments.
pub fn too_deep(source: &str, max: usize) -> Option<(usize, usize)> {
    // A bound first ([`depth_bound`]): when it is within `max` — every scenario written by hand
    // is — the scan can't find anything. (The bound was the brackets plus half the longest line:
    // fuzzed inputs with one long line failed it, and the byte-by-byte scan was 9% of the
    // `scenario_yaml` fuzz target's time.)
    if depth_bound(source) <= max {
        return None;
    }
    too_deep_scan(source, max)
}

/// At least the deepest nesting [`too_deep_scan`] counts in `source`: its depth at a byte is its
/// flow depth, at most the number of flow brackets in the whole text, plus the block markers
/// counted so far on that byte's line, at most [`leading_markers`] of the line. Counting brackets
/// runs at memory speed, and most lines' leading parts are a few bytes.
fn depth_bound(source: &str) -> usize {
    let brackets = memchr::memchr2_iter(b'[', b'{', source.as_bytes()).count();
    brackets + source.split('\n').map(leading_markers).max().unwrap_or(0)
}

/// At least as many as the block markers (`-`, `?`, `:`) [`too_deep_scan`] counts on one line. It
/// counts them only in the line's leading part, which a character other than a blank, a marker,
/// a flow bracket or a quoted text ends (as do a marker not followed by a blank and a comment).
/// This counts the marker bytes of the leading run of blanks, markers and brackets — more than the
/// scan when that run holds a marker it doesn't count — or of the whole line when the run stops
/// at a quote (after a quoted key the scan goes on counting).
fn leading_markers(line: &str) -> usize {
    let bytes = line.as_bytes();
    let lead = bytes.iter().position(|b| !matches!(b, b' ' | b'\t' | b'-' | b'?' | b':' | b'[' | b'{' | b']' | b'}'));
    let counted = match lead {
        Some(end) if !matches!(bytes[end], b'"' | b'\'') => &bytes[..end],
        _ => bytes,
    };
    counted.iter().filter(|b| matches!(b, b'-' | b'?' | b':')).count()
}

/// [`too_deep`] without the bound: the scan itself.
fn too_deep_scan(source: &str, max: usize) -> Option<(usize, usize)> {
    // Byte by byte: every character that matters is ASCII, and no byte of a multi-byte UTF-8
    // character equals one (they are all ≥ 0x80), so each test reads as it would on characters;
    // the column is counted in characters only for the answer. (Decoding every character was
    // a tenth of loading a scenario.)
    let mut flow = 0usize;
    for (n, line) in source.lines().enumerate() {
        let bytes = line.as_bytes();
        let mut block = 0usize;
        let mut at_start = true;
        let mut quote: Option<u8> = None;
        let mut escaped = false;
        let mut previous = b' ';
        for (i, &c) in bytes.iter().enumerate() {
            let next = bytes.get(i + 1).copied().unwrap_or(b' ');
            match quote {
                Some(b'"') if escaped => escaped = false,
                Some(b'"') if c == b'\\' => escaped = true,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    b'#' if previous == b' ' || previous == b'\t' || i == 0 => break,
                    b'"' | b'\'' if flow > 0 || at_start || matches!(previous, b' ' | b':' | b',' | b'[' | b'{') => {
                        quote = Some(c)
                    }
                    b'[' | b'{' => flow += 1,
                    b']' | b'}' => flow = flow.saturating_sub(1),
                    b'-' | b'?' | b':' if at_start && (next == b' ' || next == b'\t') => block += 1,
                    b' ' | b'\t' => {}
                    _ => at_start = false,
                },
            }
            if flow + block > max {
                return Some((n + 1, line[..i].chars().count() + 1));
            }
            previous = c;
        }
    }
    None
}

/// Every `.yaml`/`.yml` file under the given paths (files are taken as they are), sorted.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, NoSuchPath> {
    let mut out = BTreeSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else if p.exists() {
            out.insert(p.clone());
        } else {
            return Err(NoSuchPath { path: p.clone() });
        }
    }
    Ok(out.into_iter().collect())
}

/// The scenario files under `dir`. Symbolic links to folders are not followed (a link cycle can't
/// make the walk endless or repeat scenarios); a symbolic link to a file is taken, and read as any
/// file is ([`read_source`]). A folder that can't be listed is taken in place of its files, so it
/// shows as one invalid entry naming it, and the run goes on.
fn walk(dir: &Path, out: &mut BTreeSet<PathBuf>) {
    for entry in walkdir::WalkDir::new(dir).follow_links(false) {
        match entry {
            Ok(e) if e.file_type().is_dir() => {}
            Ok(e) => {
                if e.path().extension().is_some_and(|x| x == "yaml" || x == "yml") {
                    out.insert(e.into_path());
                }
            }
            Err(e) => {
                if let Some(path) = e.path() {
                    out.insert(path.to_path_buf());
                }
            }
        }
    }
}

#[cfg(test)]
mod depth_tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The scan never goes deeper than the bound, so a `max` at or above the bound misses
        /// nothing: over blanks, markers, brackets, quotes, escapes, comments, line ends and
        /// text, multi-byte included.
        #[test]
        fn the_scan_stays_within_the_bound(text in "[-?:\\[\\]{} \t\r\n#\"'\\\\,aé]{0,80}") {
            prop_assert_eq!(too_deep_scan(&text, depth_bound(&text)), None);
        }

        /// The bound never hides a nesting the scan finds: with small limits, where the bound
        /// often fails and the scan runs, and large ones, where it holds, both agree.
        #[test]
        fn the_bound_agrees_with_the_scan(text in "[-?:\\[\\]{} \t\r\n#\"'ab]{0,80}", max in 0usize..12) {
            prop_assert_eq!(too_deep(&text, max), too_deep_scan(&text, max));
        }
    }

    #[test]
    fn deep_nesting_is_found_past_the_bound() {
        let flow = format!("a: {}1{}", "[".repeat(130), "]".repeat(130));
        assert_eq!(too_deep(&flow, MAX_YAML_DEPTH), Some((1, 132)));
        let block = "- ".repeat(130);
        assert_eq!(too_deep(&block, MAX_YAML_DEPTH), Some((1, 257)));
        assert_eq!(too_deep("a: [1, {b: 2}]\n- - x\n", MAX_YAML_DEPTH), None);
    }
}
