//! Reading input files safely (size, depth, kind of file) and collecting the scenario files
//! under folders.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The largest scenario (or baseline, rules index, outcome) file read, in bytes: 4 MiB, some
/// thousand times a real scenario. A larger file is an error, not read.
pub const MAX_FILE_BYTES: u64 = 4 << 20;

/// The deepest nesting of YAML collections accepted in a scenario or baseline file: 128 levels,
/// the YAML parser's own recursion limit. Checked by a linear scan before the parser, which slows
/// down badly on deeply nested input; the scan counts no more levels than the parser would, so it
/// refuses only files the parser would refuse too, only sooner.
pub const MAX_YAML_DEPTH: usize = 128;

/// Reads an input file as text: only a regular file (a FIFO would block, a device never end), of
/// at most [`MAX_FILE_BYTES`], in UTF-8; a leading byte-order mark is dropped. A folder that can't
/// be listed is reported as such (the walk lists it in place of its files).
pub fn read_source(path: &Path) -> Result<String, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.is_dir()) {
        return Err(match std::fs::read_dir(path) {
            Err(e) => format!("can't list the folder: {e}"),
            Ok(_) => "a folder, not a scenario file".into(),
        });
    }
    // Non-blocking, so opening a FIFO doesn't wait for a writer; checked as opened (no race).
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
        .open(path)
        .map_err(|e| format!("can't read the file: {e}"))?;
    let meta = file.metadata().map_err(|e| format!("can't read the file: {e}"))?;
    if !meta.is_file() {
        return Err("can't read the file: not a regular file (a FIFO, a device or a socket)".into());
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(format!("the file is {} bytes; files over {MAX_FILE_BYTES} bytes are not read", meta.len()));
    }
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes).map_err(|e| format!("can't read the file: {e}"))?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(format!("the file grew past {MAX_FILE_BYTES} bytes while read; not read"));
    }
    let text = String::from_utf8(bytes).map_err(|e| format!("can't read the file: not UTF-8 ({e})"))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// Where `source` first nests YAML collections deeper than `max` (1-based line and column), by
/// a linear scan of flow brackets and of block sequence/mapping markers that open on one line
/// (`- - - x`), skipping quoted text and comments.
pub fn too_deep(source: &str, max: usize) -> Option<(usize, usize)> {
    let mut flow = 0usize;
    for (n, line) in source.lines().enumerate() {
        let mut block = 0usize;
        let mut at_start = true;
        let mut quote: Option<char> = None;
        let mut escaped = false;
        let mut previous = ' ';
        let mut chars = line.chars().enumerate().peekable();
        while let Some((col, c)) = chars.next() {
            let next = chars.peek().map_or(' ', |&(_, n)| n);
            match quote {
                Some('"') if escaped => escaped = false,
                Some('"') if c == '\\' => escaped = true,
                Some(q) if c == q => quote = None,
                Some(_) => {}
                None => match c {
                    '#' if previous == ' ' || previous == '\t' || col == 0 => break,
                    '"' | '\'' if flow > 0 || at_start || matches!(previous, ' ' | ':' | ',' | '[' | '{') => {
                        quote = Some(c)
                    }
                    '[' | '{' => flow += 1,
                    ']' | '}' => flow = flow.saturating_sub(1),
                    '-' | '?' | ':' if at_start && (next == ' ' || next == '\t') => block += 1,
                    ' ' | '\t' => {}
                    _ => at_start = false,
                },
            }
            if flow + block > max {
                return Some((n + 1, col + 1));
            }
            previous = c;
        }
    }
    None
}

/// Every `.yaml`/`.yml` file under the given paths (files are taken as they are), sorted.
pub fn collect_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut out = BTreeSet::new();
    for p in paths {
        if p.is_dir() {
            walk(p, &mut out);
        } else if p.exists() {
            out.insert(p.clone());
        } else {
            return Err(format!("{}: no such file or directory", p.display()));
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
