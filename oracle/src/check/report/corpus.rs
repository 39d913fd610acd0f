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
        let dirty = match read_small(&repo.git_dir.join("index")).and_then(|i| index_entries(&i)) {
            Some(index) => files.iter().any(|f| {
                let relative = std::fs::canonicalize(f)
                    .ok()
                    .and_then(|abs| abs.strip_prefix(&repo.work_tree).ok().map(|r| r.to_string_lossy().into_owned()));
                let content = crate::scenario::read_source(f).ok();
                match (relative.and_then(|r| index.get(&r).cloned()), content) {
                    (Some(id), Some(content)) => blob_id(content.as_bytes()) != id,
                    _ => true,
                }
            }),
            // No index (or one this reader doesn't know): the revision is the commit alone.
            None => false,
        };
        Some(if dirty { format!("{commit}-dirty") } else { commit })
    }

    /// Git's SHA-1 object id of a blob with `content`, in hex.
    fn blob_id(content: &[u8]) -> String {
        let mut hash = sha1_smol::Sha1::new();
        hash.update(format!("blob {}\0", content.len()).as_bytes());
        hash.update(content);
        hash.digest().to_string()
    }

    /// Path → blob id (hex) of the entries of a git index file (versions 2 to 4, SHA-1).
    fn index_entries(data: &[u8]) -> Option<std::collections::HashMap<String, String>> {
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
            let id: String = data.get(at + 40..at + 60)?.iter().map(|b| format!("{b:02x}")).collect();
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
            previous = path.clone();
            out.insert(String::from_utf8_lossy(&path).into_owned(), id);
        }
        Some(out)
    }
}
