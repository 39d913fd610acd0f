//! Which scenario corpus ran: a digest of its files and, when they are in git, the revision.

use std::path::Path;

use serde::Serialize;

use crate::serve::stable_hash;

/// Which scenario corpus ran.
#[derive(Debug, Clone, Serialize)]
pub struct Corpus {
    /// The git commit of the repository holding the scenarios, when there is one; `-dirty` is
    /// appended when scenario files differ from it.
    pub revision: Option<String>,
    /// A digest of the scenario files' paths and contents (FNV-1a, 64 bit), which identifies the
    /// corpus with or without git.
    pub digest: String,
    /// How many scenario files.
    pub scenarios: usize,
}

impl Corpus {
    /// Describes the corpus made of `files`.
    pub fn of<'a>(files: impl Iterator<Item = &'a Path>) -> Corpus {
        let files: Vec<&Path> = files.collect();
        let mut text = String::new();
        for f in &files {
            text.push_str(&f.display().to_string());
            text.push('\0');
            // Read as the scenarios are: only regular files, and not past the size limit.
            text.push_str(&crate::scenario::read_source(f).unwrap_or_default());
            text.push('\0');
        }
        let digest = format!("fnv1a64:{:016x}", stable_hash(&text));
        let revision = files.first().and_then(|f| git::revision(f, &files));
        Corpus { revision, digest, scenarios: files.len() }
    }
}

/// The corpus revision, read from the repository's files. No `git` program is run: a scenario
/// folder may be an untrusted checkout, and git would execute what its `.git/config` names
/// (`core.fsmonitor`, filters, hooks).
mod git {
    use std::path::{Path, PathBuf};

    /// Git files read here are small; a bigger one is not read.
    const MAX_GIT_FILE: u64 = 64 << 20;

    fn read_small(path: &Path) -> Option<Vec<u8>> {
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() || meta.len() > MAX_GIT_FILE {
            return None;
        }
        std::fs::read(path).ok()
    }

    fn read_text(path: &Path) -> Option<String> {
        String::from_utf8(read_small(path)?).ok()
    }

    fn is_object_id(text: &str) -> bool {
        matches!(text.len(), 40 | 64) && text.bytes().all(|b| b.is_ascii_hexdigit())
    }

    /// A repository: its work tree, its git folder and the common folder (they differ in a
    /// linked work tree).
    struct Repo {
        work_tree: PathBuf,
        git_dir: PathBuf,
        common_dir: PathBuf,
    }

    fn find(start: &Path) -> Option<Repo> {
        let start = std::fs::canonicalize(start).ok()?;
        for dir in start.ancestors() {
            let dot_git = dir.join(".git");
            let Ok(meta) = std::fs::symlink_metadata(&dot_git) else { continue };
            let git_dir = if meta.is_dir() {
                dot_git
            } else if meta.is_file() {
                let text = read_text(&dot_git)?;
                dir.join(text.trim().strip_prefix("gitdir:")?.trim())
            } else {
                continue;
            };
            let common_dir = match read_text(&git_dir.join("commondir")) {
                Some(c) => git_dir.join(c.trim()),
                None => git_dir.clone(),
            };
            return Some(Repo { work_tree: dir.to_path_buf(), git_dir, common_dir });
        }
        None
    }

    /// The commit a ref names: a loose ref file, else a line of `packed-refs`.
    fn resolve(repo: &Repo, name: &str) -> Option<String> {
        let safe = name.starts_with("refs/") && name.split('/').all(|c| !c.is_empty() && c != "." && c != "..");
        if !safe {
            return None;
        }
        for dir in [&repo.git_dir, &repo.common_dir] {
            if let Some(text) = read_text(&dir.join(name)) {
                let id = text.trim();
                return is_object_id(id).then(|| id.to_string());
            }
        }
        let packed = read_text(&repo.common_dir.join("packed-refs"))?;
        packed.lines().filter(|l| !l.starts_with(['#', '^'])).find_map(|l| {
            let (id, r) = l.split_once(' ')?;
            (r.trim() == name && is_object_id(id)).then(|| id.to_string())
        })
    }

    /// The commit checked out in the repository holding `first`, with `-dirty` when one of
    /// `files` is not in the index or its content differs from the index's blob.
    ///
    /// As git does, a file whose size, inode, change and modification times are those the index
    /// recorded, modified before the index was written, is taken as unchanged without hashing it:
    /// hashing every scenario with SHA-1 was a quarter of `check`'s instructions. A file modified
    /// in the same instant as the index or later ("racily clean" in git's terms) is hashed.
    pub fn revision(first: &Path, files: &[&Path]) -> Option<String> {
        let dir = first.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
        let repo = find(dir)?;
        let head = read_text(&repo.git_dir.join("HEAD"))?;
        let head = head.trim();
        let commit = match head.strip_prefix("ref:") {
            Some(name) => resolve(&repo, name.trim())?,
            None if is_object_id(head) => head.to_string(),
            None => return None,
        };
        // Each file's path in the work tree, as the index spells it; `None` for one outside it.
        let relative: Vec<Option<Vec<u8>>> = files
            .iter()
            .map(|f| {
                let abs = std::fs::canonicalize(f).ok()?;
                Some(abs.strip_prefix(&repo.work_tree).ok()?.as_os_str().as_encoded_bytes().to_vec())
            })
            .collect();
        let index_path = repo.git_dir.join("index");
        let wanted: std::collections::HashSet<&[u8]> = relative.iter().flatten().map(Vec::as_slice).collect();
        let dirty = match read_small(&index_path).and_then(|i| index_entries(&i, &wanted)) {
            Some(index) => {
                let written = std::fs::metadata(&index_path).ok().and_then(|m| Stamp::modified(&m));
                files.iter().zip(&relative).any(|(f, relative)| {
                    let Some(entry) = relative.as_ref().and_then(|r| index.get(r.as_slice())) else { return true };
                    if std::fs::metadata(f).is_ok_and(|m| entry.stat.unchanged(&m, written)) {
                        return false;
                    }
                    match crate::scenario::read_source(f) {
                        Ok(content) => blob_id(content.as_bytes()) != entry.id,
                        Err(_) => true,
                    }
                })
            }
            // No index (or one this reader doesn't know): the revision is the commit alone.
            None => false,
        };
        Some(if dirty { format!("{commit}-dirty") } else { commit })
    }

    /// Git's SHA-1 object id of a blob with `content`.
    fn blob_id(content: &[u8]) -> [u8; 20] {
        let mut hash = sha1_smol::Sha1::new();
        hash.update(format!("blob {}\0", content.len()).as_bytes());
        hash.update(content);
        hash.digest().bytes()
    }

    /// A time as the index stores it: seconds and nanoseconds.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
    struct Stamp {
        seconds: i64,
        nanoseconds: i64,
    }

    impl Stamp {
        /// When the file was last modified (unix only: elsewhere there is no stat to trust).
        #[cfg(unix)]
        fn modified(meta: &std::fs::Metadata) -> Option<Stamp> {
            use std::os::unix::fs::MetadataExt;
            Some(Stamp { seconds: meta.mtime(), nanoseconds: meta.mtime_nsec() })
        }

        #[cfg(not(unix))]
        fn modified(_: &std::fs::Metadata) -> Option<Stamp> {
            None
        }
    }

    /// The stat data the index recorded for a file, as git stores it (32 bits each).
    #[derive(Debug, Clone, Copy)]
    struct IndexStat {
        changed: (u32, u32),
        modified: (u32, u32),
        inode: u32,
        size: u32,
    }

    impl IndexStat {
        /// True when `meta` is what the index recorded and the file was modified before the index
        /// was written (`index_written`), so its content is the indexed blob's as far as git
        /// itself would tell.
        #[cfg(unix)]
        fn unchanged(&self, meta: &std::fs::Metadata, index_written: Option<Stamp>) -> bool {
            use std::os::unix::fs::MetadataExt;
            let Some(index_written) = index_written else { return false };
            let Some(modified) = Stamp::modified(meta) else { return false };
            // The index keeps the low 32 bits of each field.
            let low = |value: i64| value as u32;
            meta.is_file()
                && modified < index_written
                && self.modified == (low(meta.mtime()), low(meta.mtime_nsec()))
                && self.changed == (low(meta.ctime()), low(meta.ctime_nsec()))
                && self.inode == meta.ino() as u32
                && self.size == meta.len() as u32
        }

        #[cfg(not(unix))]
        fn unchanged(&self, _: &std::fs::Metadata, _: Option<Stamp>) -> bool {
            false
        }
    }

    /// An index entry: the blob id and the stat data recorded with it.
    struct IndexEntry {
        id: [u8; 20],
        stat: IndexStat,
    }

    /// Path → entry of a git index file (versions 2 to 4, SHA-1), for the `wanted` paths only: a
    /// repository's index may list many more files than the scenarios.
    fn index_entries(
        data: &[u8],
        wanted: &std::collections::HashSet<&[u8]>,
    ) -> Option<std::collections::HashMap<Vec<u8>, IndexEntry>> {
        let u32_at = |at: usize| data.get(at..at + 4).map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
        if data.get(..4)? != b"DIRC" {
            return None;
        }
        let version = u32_at(4)?;
        if !(2..=4).contains(&version) {
            return None;
        }
        let count = u32_at(8)? as usize;
        let mut at = 12;
        let mut previous = Vec::<u8>::new();
        let mut out = std::collections::HashMap::new();
        for _ in 0..count {
            let start = at;
            let id: [u8; 20] = data.get(at + 40..at + 60)?.try_into().ok()?;
            let stat = IndexStat {
                changed: (u32_at(at)?, u32_at(at + 4)?),
                modified: (u32_at(at + 8)?, u32_at(at + 12)?),
                inode: u32_at(at + 20)?,
                size: u32_at(at + 36)?,
            };
            let flags = u16::from_be_bytes([*data.get(at + 60)?, *data.get(at + 61)?]);
            at += 62;
            if version >= 3 && flags & 0x4000 != 0 {
                at += 2;
            }
            let path = if version == 4 {
                // A varint: how many bytes of the previous path to drop, then the rest, NUL-ended.
                let mut strip = 0usize;
                loop {
                    let b = *data.get(at)?;
                    at += 1;
                    strip = (strip << 7) | usize::from(b & 0x7f);
                    if b & 0x80 == 0 {
                        break;
                    }
                    strip += 1;
                }
                let end = at + data.get(at..)?.iter().position(|&b| b == 0)?;
                let mut path = previous.get(..previous.len().checked_sub(strip)?)?.to_vec();
                path.extend_from_slice(&data[at..end]);
                at = end + 1;
                path
            } else {
                let end = at + data.get(at..)?.iter().position(|&b| b == 0)?;
                let path = data[at..end].to_vec();
                // Entries are padded with NULs to a multiple of 8 bytes.
                at = start + (end - start + 8) / 8 * 8;
                path
            };
            if wanted.contains(path.as_slice()) {
                out.insert(path.clone(), IndexEntry { id, stat });
            }
            previous = path;
        }
        Some(out)
    }
}
