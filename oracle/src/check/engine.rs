//! The engine process supervisor: one persistent process, spoken to in JSON lines, with a
//! deadline on every answer.
//!
//! Reading and writing happen on their own threads, so a hung engine (one that stops reading its
//! input or never answers) can't block the oracle: the oracle waits on a channel with
//! `recv_timeout`, and past the deadline it kills the engine and everything it started and starts
//! a fresh engine for the next scenario. Stderr is kept as a ring buffer of its last lines, for
//! the ERROR reports.
//!
//! Nothing an engine writes can make the oracle hold more than [`Limits`] allow: a protocol line
//! is read up to [`Limits::max_line_bytes`] (blank lines are dropped as they are read, and at most
//! [`QUEUED_LINES`] lines wait for the oracle, so a flood blocks the engine, not the oracle's
//! memory); a stderr line is read as bytes (not UTF-8 is no error there) and kept up to
//! [`Limits::max_text_chars`], the rest read and dropped, so the engine never writes into a closed
//! pipe; every text the engine provides is cut to that length with a note ([`cut_text`]).

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TryRecvError, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many protocol lines may wait between the engine's output and the oracle; past that the
/// engine's writes block until the oracle reads.
pub const QUEUED_LINES: usize = 2;

/// What one engine can make the oracle hold. The defaults fit any real scenario; `check` takes
/// `--max-line-bytes` and `--max-text-chars` for the rare engine that needs more.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The longest protocol line accepted, in bytes; a longer one is ERROR for its scenario.
    pub max_line_bytes: usize,
    /// The most characters kept of any one text an engine provides (an error message, an
    /// `unsupported` reason or link, its name, a stderr line); the rest is cut, with a note.
    pub max_text_chars: usize,
    /// How many of the engine's last stderr lines are kept for a scenario's report.
    pub stderr_lines: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits { max_line_bytes: 64 << 20, max_text_chars: 2000, stderr_lines: 20 }
    }
}

/// `text` cut to `max_chars` characters, with a note saying how much was cut; whole if it fits.
pub fn cut_text(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        None => text.to_string(),
        Some((at, _)) => format!("{}… [cut: {} more bytes]", &text[..at], text.len() - at),
    }
}

/// How to start an engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineCommand {
    /// The program.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// How reports show it.
    pub display: String,
}

impl EngineCommand {
    /// A shell command line (`--engine CMD`), run with `sh -c`.
    pub fn shell(command: &str) -> Self {
        EngineCommand { program: "sh".into(), args: vec!["-c".into(), command.into()], display: command.into() }
    }
}

/// Why no answer came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Failure {
    /// No answer within the time limit; the engine was killed.
    Timeout(Duration),
    /// The engine exited or closed its output.
    Crashed(String),
    /// The engine wrote something that can't be a line of the protocol (not UTF-8, too long).
    Garbage(String),
    /// The engine couldn't be started or written to.
    Io(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Timeout(d) => write!(f, "no answer within {:.1} s; the engine was killed", d.as_secs_f64()),
            Failure::Crashed(why) => write!(f, "the engine crashed: {why}"),
            Failure::Garbage(why) => write!(f, "malformed output: {why}; the engine was killed"),
            Failure::Io(why) => write!(f, "{why}"),
        }
    }
}

struct Running {
    child: Child,
    /// The engine's stderr pipe, to see whether the reader has caught up with it.
    stderr_watch: Option<std::os::fd::OwnedFd>,
    /// True while the stderr reader holds bytes it read and hasn't kept yet.
    stderr_busy: Arc<std::sync::atomic::AtomicBool>,
    to_engine: Option<std::sync::mpsc::Sender<String>>,
    from_engine: Receiver<Result<String, BrokenOutput>>,
}

/// The last lines an engine wrote to stderr, numbered, so a scenario's report shows only what was
/// written since it was sent.
#[derive(Default)]
struct StderrTail {
    lines: VecDeque<String>,
    /// How many lines were ever pushed.
    total: u64,
}

impl StderrTail {
    fn push(&mut self, line: String, keep: usize) {
        if self.lines.len() >= keep {
            self.lines.pop_front();
        }
        if keep > 0 {
            self.lines.push_back(line);
        }
        self.total += 1;
    }

    fn since(&self, mark: u64) -> Vec<String> {
        let first = self.total - self.lines.len() as u64;
        self.lines.iter().skip(mark.saturating_sub(first) as usize).cloned().collect()
    }
}

/// Tells the processes of one engine start apart from everything else: an environment variable
/// its descendants inherit.
const TOKEN_VAR: &str = "MTG_ORACLE_ENGINE_TOKEN";
static STARTS: AtomicU64 = AtomicU64::new(0);

/// A supervised engine process.
pub struct Engine {
    command: EngineCommand,
    limits: Limits,
    running: Option<Running>,
    stderr: Arc<Mutex<StderrTail>>,
    /// The value of [`TOKEN_VAR`] of the running engine.
    token: String,
    /// How many times a process was started.
    pub starts: usize,
}

impl Engine {
    /// An engine not started yet, with the default [`Limits`].
    pub fn new(command: EngineCommand) -> Self {
        Engine::with_limits(command, Limits::default())
    }

    /// An engine not started yet.
    pub fn with_limits(command: EngineCommand, limits: Limits) -> Self {
        Engine { command, limits, running: None, stderr: Arc::default(), token: String::new(), starts: 0 }
    }

    /// True if a process is running (it may have died without our noticing yet).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts a fresh process (killing the old one, if any).
    pub fn start(&mut self) -> Result<(), Failure> {
        self.kill();
        become_subreaper();
        // A fresh tail: a process of the old engine that is still writing can't reach it.
        self.stderr = Arc::default();
        self.token = format!("{}-{}", std::process::id(), STARTS.fetch_add(1, Ordering::Relaxed));
        let mut cmd = Command::new(&self.command.program);
        cmd.args(&self.command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        cmd.env(TOKEN_VAR, &self.token);
        // Its own process group, so a kill reaches whatever a wrapper script started too.
        cmd.process_group(0);
        let mut child = cmd.spawn().map_err(|e| Failure::Io(format!("can't start `{}`: {e}", self.command.display)))?;
        self.starts += 1;
        let (stdin, stdout, stderr) = (child.stdin.take(), child.stdout.take(), child.stderr.take());
        let (Some(stdin), Some(stdout), Some(stderr)) = (stdin, stdout, stderr) else {
            return Err(Failure::Io("the engine's pipes could not be opened".into()));
        };
        let (to_engine, lines_in) = channel::<String>();
        std::thread::spawn(move || {
            let mut stdin = stdin;
            for line in lines_in {
                if stdin
                    .write_all(line.as_bytes())
                    .and_then(|_| stdin.write_all(b"\n"))
                    .and_then(|_| stdin.flush())
                    .is_err()
                {
                    return;
                }
            }
        });
        let (lines_out, from_engine) = sync_channel(QUEUED_LINES);
        let max_line = self.limits.max_line_bytes;
        std::thread::spawn(move || read_lines(stdout, lines_out, max_line));
        let tail = self.stderr.clone();
        let limits = self.limits;
        let stderr = std::os::fd::OwnedFd::from(stderr);
        let stderr_watch = stderr.try_clone().ok();
        let stderr_busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy = stderr_busy.clone();
        std::thread::spawn(move || read_stderr(std::fs::File::from(stderr), &tail, &busy, limits));
        self.running = Some(Running { child, stderr_watch, stderr_busy, to_engine: Some(to_engine), from_engine });
        Ok(())
    }

    /// Sends one line (without its newline).
    pub fn send(&mut self, line: String) -> Result<(), Failure> {
        let running = self.running.as_mut().ok_or_else(|| Failure::Io("the engine is not running".into()))?;
        match running.to_engine.as_ref().map(|tx| tx.send(line)) {
            Some(Ok(())) => Ok(()),
            _ => Err(self.crashed()),
        }
    }

    /// The next non-empty line, waiting until `deadline`. On a timeout the engine is killed.
    pub fn receive(&mut self, deadline: Instant, limit: Duration) -> Result<String, Failure> {
        loop {
            let running = self.running.as_mut().ok_or_else(|| Failure::Io("the engine is not running".into()))?;
            // Checked before every line, so lines that keep coming can't hold the deadline off.
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(Failure::Timeout(limit));
            }
            match running.from_engine.recv_timeout(deadline - now) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(why)) => {
                    self.kill();
                    return Err(Failure::Garbage(why.to_string()));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(Failure::Timeout(limit));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
            }
        }
    }

    /// What the engine wrote after its last answer and before the oracle's next message, waiting
    /// up to `grace` for it: a non-empty line (cut short) or why its output broke. The caller
    /// kills the engine when there is some, so the next scenario starts with a fresh one; an
    /// engine that closed its output is let go quietly (the next scenario starts a fresh one).
    pub fn late_output(&mut self, grace: Duration) -> Option<String> {
        let running = self.running.as_mut()?;
        let until = Instant::now() + grace;
        loop {
            let wait = until.saturating_duration_since(Instant::now());
            let next = if wait.is_zero() {
                running.from_engine.try_recv().map_err(|e| e == TryRecvError::Disconnected)
            } else {
                running.from_engine.recv_timeout(wait).map_err(|e| e == RecvTimeoutError::Disconnected)
            };
            match next {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => return Some(format!("it wrote after its answer: {}", cut_text(&line, 200))),
                Ok(Err(why)) => return Some(format!("after its answer, {why}")),
                // Closed: nothing more will come.
                Err(true) => {
                    self.kill();
                    return None;
                }
                Err(false) => return None,
            }
        }
    }

    /// The engine closed its output: collect its exit status and forget it.
    fn crashed(&mut self) -> Failure {
        let status = self.running.as_mut().map(|r| {
            // It closed stdout; give it a moment to exit before reading the status.
            let until = Instant::now() + Duration::from_millis(500);
            loop {
                match r.child.try_wait() {
                    Ok(Some(s)) => break format!("it exited ({s})"),
                    Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(10)),
                    _ => break "it closed its output".to_string(),
                }
            }
        });
        self.kill();
        Failure::Crashed(status.unwrap_or_else(|| "it is not running".into()))
    }

    /// A mark in the engine's stderr: [`Engine::stderr_since`] it shows only later lines. What
    /// the engine wrote before is read first (up to 50 ms), so it isn't counted after the mark.
    pub fn stderr_mark(&self) -> u64 {
        self.settle_stderr();
        self.stderr.lock().map(|t| t.total).unwrap_or(0)
    }

    /// Waits (up to 50 ms) until the stderr reader has kept everything in the pipe.
    fn settle_stderr(&self) {
        let Some(r) = &self.running else { return };
        let Some(fd) = &r.stderr_watch else { return };
        // The pipe first, then the reader: the reader marks itself busy before it takes bytes
        // from the pipe (`read_stderr`), so bytes that were in the pipe when it looked empty
        // are either kept already or still held by a busy reader. (It used to mark itself after
        // the read, and this waited 200 µs and looked twice — on every scenario sent.)
        let idle = || rustix::io::ioctl_fionread(fd).is_ok_and(|n| n == 0) && !r.stderr_busy.load(Ordering::SeqCst);
        let until = Instant::now() + Duration::from_millis(50);
        while !idle() && Instant::now() < until {
            std::thread::sleep(Duration::from_micros(500));
        }
    }

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        self.stderr_since(0)
    }

    /// The last lines the engine wrote to stderr after `mark` ([`Engine::stderr_mark`]).
    pub fn stderr_since(&self, mark: u64) -> Vec<String> {
        // The reader thread may still be catching up with a process that just died.
        std::thread::sleep(Duration::from_millis(20));
        self.stderr.lock().map(|t| t.since(mark)).unwrap_or_default()
    }

    /// Kills the engine, its process group and every process it started (found by the token in
    /// their environment, or as its descendants), and reaps them.
    pub fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.to_engine = None;
            kill_engine_processes(r.child.id(), &self.token);
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    /// Asks the engine to stop, waits a little, then kills it.
    pub fn stop(&mut self, message: String) {
        self.close_input(message);
        if let Some(r) = self.running.as_mut() {
            let until = Instant::now() + Duration::from_secs(2);
            while Instant::now() < until {
                if let Ok(Some(_)) = r.child.try_wait() {
                    break;
                }
                // Short naps: an engine told to stop exits within a millisecond or two, and
                // `check` waits for it before it reports.
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        self.kill();
    }

    /// Sends the engine its last message and closes its stdin, once (later calls do nothing);
    /// the engine keeps running until it exits or [`Engine::stop`] or [`Engine::kill`] ends it.
    pub fn close_input(&mut self, message: String) {
        if self.running.as_ref().is_some_and(|r| r.to_engine.is_some()) {
            let _ = self.send(message);
            if let Some(r) = self.running.as_mut() {
                r.to_engine = None; // closes its stdin
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Makes this process the subreaper of its descendants (Linux): a process an engine started and
/// then left (a daemon, a `setsid()` grandchild whose parent exited) is re-parented to the oracle
/// rather than to init, so it stays among the oracle's descendants, where [`Engine::kill`] finds it.
fn become_subreaper() {
    #[cfg(target_os = "linux")]
    {
        static ONCE: std::sync::Once = std::sync::Once::new();
        ONCE.call_once(|| {
            let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        });
    }
}

/// Kills process group `pid` and, on Linux, every process among the oracle's descendants that
/// descends from `pid` or carries `token` in its environment (one that left the group with
/// `setsid()`), repeating while new ones appear; then reaps those re-parented to the oracle.
fn kill_engine_processes(pid: u32, token: &str) {
    use rustix::process::{Pid, Signal, kill_process, kill_process_group};
    let Some(group) = i32::try_from(pid).ok().and_then(Pid::from_raw) else { return };
    let _ = kill_process_group(group, Signal::KILL);
    #[cfg(target_os = "linux")]
    {
        let mut killed = std::collections::BTreeSet::new();
        for _ in 0..5 {
            let found: Vec<u32> =
                procfs::engine_processes(pid, token).into_iter().filter(|p| !killed.contains(p)).collect();
            if found.is_empty() {
                break;
            }
            for p in found {
                if let Some(p2) = i32::try_from(p).ok().and_then(Pid::from_raw) {
                    let _ = kill_process(p2, Signal::KILL);
                }
                killed.insert(p);
            }
        }
        // Orphans re-parented to the oracle are its children now: reap them (not `pid`, which
        // its `Child` reaps).
        let me = std::process::id();
        let until = Instant::now() + Duration::from_millis(500);
        let mut left: Vec<u32> = killed.into_iter().filter(|&p| p != pid && procfs::parent(p) == Some(me)).collect();
        while !left.is_empty() && Instant::now() < until {
            left.retain(|&p| {
                let Some(p2) = i32::try_from(p).ok().and_then(Pid::from_raw) else { return false };
                matches!(rustix::process::waitpid(Some(p2), rustix::process::WaitOptions::NOHANG), Ok(None))
            });
            if !left.is_empty() {
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

/// Reading the process table from `/proc`.
#[cfg(target_os = "linux")]
mod procfs {
    use std::collections::BTreeMap;

    /// The parent of process `pid`, if it exists.
    pub fn parent(pid: u32) -> Option<u32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        // `pid (comm) state ppid …`; comm may hold spaces and parentheses.
        let rest = &stat[stat.rfind(')')? + 1..];
        let mut fields = rest.split_whitespace();
        let state = fields.next()?;
        if state == "Z" || state == "X" {
            // A zombie still has a parent to reap it; report it so it can be reaped.
            return fields.next()?.parse().ok();
        }
        fields.next()?.parse().ok()
    }

    fn has_token(pid: u32, token: &str) -> bool {
        let Ok(env) = std::fs::read(format!("/proc/{pid}/environ")) else { return false };
        let wanted = format!("{}={token}", super::TOKEN_VAR);
        env.split(|&b| b == 0).any(|v| v == wanted.as_bytes())
    }

    /// The oracle's descendants that belong to the engine started as `root` with `token`.
    pub fn engine_processes(root: u32, token: &str) -> Vec<u32> {
        let me = std::process::id();
        let mut children: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
        if let Ok(dir) = std::fs::read_dir("/proc") {
            for entry in dir.flatten() {
                let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
                if let Some(ppid) = parent(pid) {
                    children.entry(ppid).or_default().push(pid);
                }
            }
        }
        let mut out = Vec::new();
        let mut stack: Vec<(u32, bool)> = vec![(me, false)];
        while let Some((pid, belongs)) = stack.pop() {
            for &c in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
                let b = belongs || c == root || has_token(c, token);
                if b {
                    out.push(c);
                }
                stack.push((c, b));
            }
        }
        out
    }
}

/// Why an engine's output stream can't be read as protocol lines any more.
#[derive(Debug, Clone, PartialEq, Eq)]
enum BrokenOutput {
    /// A line longer than the limit.
    TooLong {
        /// The limit, in bytes.
        max_line: usize,
    },
    /// A line that is not UTF-8.
    NotUtf8,
    /// Reading the pipe failed (the error, in words).
    Read(String),
}

impl std::fmt::Display for BrokenOutput {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrokenOutput::TooLong { max_line } => write!(f, "it wrote a line longer than {max_line} bytes"),
            BrokenOutput::NotUtf8 => f.write_str("it wrote a line that is not UTF-8"),
            BrokenOutput::Read(e) => write!(f, "reading its output failed: {e}"),
        }
    }
}

impl std::error::Error for BrokenOutput {}

/// Reads protocol lines (each capped at `max_line` bytes), drops blank ones and passes the others
/// on through a bounded queue; a line that is too long or not UTF-8 ends the stream with an error.
fn read_lines(stdout: impl Read, out: SyncSender<Result<String, BrokenOutput>>, max_line: usize) {
    let mut reader = BufReader::new(stdout);
    let cap = max_line as u64 + 1;
    loop {
        let mut buf = Vec::new();
        match (&mut reader).take(cap).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(n) if n as u64 == cap && buf.last() != Some(&b'\n') => {
                let _ = out.send(Err(BrokenOutput::TooLong { max_line }));
                return;
            }
            Ok(_) => {
                if buf.iter().all(u8::is_ascii_whitespace) {
                    continue;
                }
                let line = match String::from_utf8(buf) {
                    Ok(s) => Ok(s.trim_end_matches(['\n', '\r']).to_string()),
                    Err(_) => Err(BrokenOutput::NotUtf8),
                };
                let stop = line.is_err();
                if out.send(line).is_err() || stop {
                    return;
                }
            }
            Err(e) => {
                let _ = out.send(Err(BrokenOutput::Read(e.to_string())));
                return;
            }
        }
    }
}

/// Reads the engine's stderr to its end as bytes, keeping the last lines, each cut to the text
/// limit (invalid UTF-8 shown as U+FFFD); what is past the limit is read and dropped.
fn read_stderr(
    mut stderr: std::fs::File,
    tail: &Mutex<StderrTail>,
    busy: &std::sync::atomic::AtomicBool,
    limits: Limits,
) {
    let keep_bytes = limits.max_text_chars.saturating_mul(4).max(1);
    let mut line: Vec<u8> = Vec::new();
    let mut dropped = 0usize;
    let push = |line: &[u8], dropped: usize| {
        let text = String::from_utf8_lossy(line);
        let text = text.trim_end_matches('\r');
        let shown = text.char_indices().nth(limits.max_text_chars).map_or(text.len(), |(at, _)| at);
        let cut = text.len() - shown + dropped;
        let kept = if cut == 0 { text.to_string() } else { format!("{}… [cut: {cut} more bytes]", &text[..shown]) };
        if let Ok(mut t) = tail.lock() {
            t.push(kept, limits.stderr_lines);
        }
    };
    let mut buf = [0u8; 8192];
    loop {
        // Busy from before the bytes leave the pipe until they are kept (see
        // `Engine::settle_stderr`): so wait for bytes first, without taking them.
        wait_readable(&stderr);
        busy.store(true, Ordering::SeqCst);
        let n = match stderr.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
                busy.store(false, Ordering::SeqCst);
                continue;
            }
            Err(_) => break,
        };
        for piece in buf[..n].split_inclusive(|&b| b == b'\n') {
            let (content, ends) = match piece.split_last() {
                Some((b'\n', content)) => (content, true),
                _ => (piece, false),
            };
            let room = keep_bytes.saturating_sub(line.len()).min(content.len());
            line.extend_from_slice(&content[..room]);
            dropped += content.len() - room;
            if ends {
                push(&line, dropped);
                line.clear();
                dropped = 0;
            }
        }
        busy.store(false, Ordering::SeqCst);
    }
    if !line.is_empty() || dropped > 0 {
        push(&line, dropped);
    }
    busy.store(false, Ordering::SeqCst);
}

/// Waits until `file` has bytes to read, or its writer closed it. If `poll` fails the read
/// that follows simply blocks.
fn wait_readable(file: &std::fs::File) {
    use rustix::event::{PollFd, PollFlags, poll};
    loop {
        let mut fds = [PollFd::new(file, PollFlags::IN)];
        match poll(&mut fds, None) {
            Err(rustix::io::Errno::INTR) => continue,
            _ => return,
        }
    }
}
