//! Writing a report file whole or not at all.

use std::io::Write as _;
use std::path::Path;

/// Writes `contents` to `path` whole or not at all, and never through anything but a regular
/// file: a symlink, a folder or a device at `path` is refused (not followed, not replaced). The
/// contents go to a new file in the same folder, created exclusively — on Linux an unnamed one
/// (`O_TMPFILE`), so a write killed part-way leaves nothing behind — which is then renamed over
/// the target. On failure no temporary file is left.
pub fn write_atomic(path: &Path, contents: &str) -> std::io::Result<()> {
    write_atomic_checked(path, contents.as_bytes(), &|| {})
}

/// [`write_atomic`], calling `before_naming` once the contents are written and synced but before
/// the file has a name (tests look at the folder then).
fn write_atomic_checked(path: &Path, contents: &[u8], before_naming: &dyn Fn()) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_file() => m.permissions().mode() & 0o7777,
        Ok(m) => {
            let what = if m.file_type().is_symlink() {
                "a symbolic link"
            } else if m.is_dir() {
                "a folder"
            } else {
                "a special file (device, FIFO or socket)"
            };
            return Err(std::io::Error::other(format!(
                "{what}, not a regular file: refusing to write a report over it"
            )));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => 0o644,
        Err(e) => return Err(e),
    };
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "report".into());
    let prefix = format!(".{name}.");
    let fill = |file: &mut std::fs::File| -> std::io::Result<()> {
        file.write_all(contents)?;
        file.set_permissions(std::fs::Permissions::from_mode(mode))?;
        file.sync_all()
    };
    #[cfg(target_os = "linux")]
    {
        use rustix::fs::{AtFlags, CWD, Mode, OFlags};
        let unnamed = rustix::fs::openat(
            CWD,
            dir,
            OFlags::WRONLY | OFlags::TMPFILE | OFlags::CLOEXEC,
            Mode::from_raw_mode(0o600),
        );
        if let Ok(fd) = unnamed {
            let mut file = std::fs::File::from(fd);
            fill(&mut file)?;
            before_naming();
            use std::os::fd::AsRawFd;
            let proc_path = format!("/proc/self/fd/{}", file.as_raw_fd());
            // A fresh name, taken exclusively (a link never replaces an existing file).
            let named = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").make_in(dir, |tmp| {
                rustix::fs::linkat(CWD, proc_path.as_str(), CWD, tmp, AtFlags::SYMLINK_FOLLOW).map_err(Into::into)
            });
            if let Ok(named) = named {
                return named.persist(path).map(drop).map_err(|e| e.error);
            }
            // Without /proc to name it by, fall back to a named temporary file.
        }
    }
    let mut tmp = tempfile::Builder::new().prefix(&prefix).suffix(".tmp").tempfile_in(dir)?;
    fill(tmp.as_file_mut())?;
    before_naming();
    tmp.persist(path).map(drop).map_err(|e| e.error)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Until the contents are whole and synced, the folder holds no file of the report's: a write
    /// killed part-way leaves nothing behind (on Linux, where the file is unnamed until then).
    #[test]
    #[cfg(target_os = "linux")]
    fn a_report_has_no_name_in_the_folder_until_it_is_whole() {
        let dir = std::env::temp_dir().join(format!("mtg-oracle-unnamed-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let target = dir.join("report.json");
        let listing = || std::fs::read_dir(&dir).unwrap().count();
        let seen = std::cell::Cell::new(usize::MAX);
        write_atomic_checked(&target, b"whole\n", &|| seen.set(listing())).unwrap();
        assert_eq!(seen.get(), 0, "a file was named before the report was whole");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "whole\n");
        assert_eq!(listing(), 1, "only the report is left");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
