//! Helpers shared by the oracle package's integration tests (a module of each test crate that
//! declares `mod common;`, not a test of its own). Each test crate uses a part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repo root").to_path_buf()
}

/// A fresh scratch folder in the system temp dir, named by `prefix`, this process and `name`.
pub fn scratch_dir(prefix: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mtg-oracle-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The three report files of a `check` run in a folder, and the flags that ask for them.
pub struct Reports {
    /// `--junit`.
    pub junit: PathBuf,
    /// `--json`.
    pub json: PathBuf,
    /// `--markdown`.
    pub markdown: PathBuf,
}

impl Reports {
    /// `junit.xml`, `report.json` and `matrix.md` in `dir`.
    pub fn in_dir(dir: &Path) -> Self {
        Reports { junit: dir.join("junit.xml"), json: dir.join("report.json"), markdown: dir.join("matrix.md") }
    }

    /// `--junit FILE --json FILE --markdown FILE`.
    pub fn flags(&self) -> Vec<String> {
        [("--junit", &self.junit), ("--json", &self.json), ("--markdown", &self.markdown)]
            .into_iter()
            .flat_map(|(flag, path)| [flag.to_string(), path.display().to_string()])
            .collect()
    }
}

/// The files under `dir` whose extension is `ext`, sorted; `deep` walks sub-folders too. Panics
/// naming the folder when it can't be read (a test's input is missing).
pub fn files_with_extension(dir: &Path, ext: &str, deep: bool) -> Vec<PathBuf> {
    fn walk(dir: &Path, ext: &str, deep: bool, out: &mut Vec<PathBuf>) {
        let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.expect("a folder entry").path();
            if path.is_dir() {
                if deep {
                    walk(&path, ext, deep, out);
                }
            } else if path.extension().is_some_and(|x| x == ext) {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, ext, deep, &mut out);
    out.sort();
    out
}
