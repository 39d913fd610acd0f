//! The engine process supervisor: one persistent process, spoken to in JSON lines, with a
//! deadline on every answer.
//!
//! The oracle writes to the engine's stdin and reads its stdout on its own thread, both
//! non-blocking, waiting in `poll` up to the answer's deadline (a writer and a reader thread cost
//! two more thread wake-ups per scenario, on `check`'s serial round trip: docs/benchmarks.md,
//! "2026-12-07"). So a hung engine (one that stops reading its input or never answers) can't
//! block the oracle: past the deadline it kills the engine and everything it started and starts a
//! fresh engine for the next scenario. Stderr is read on a thread of its own and kept as a ring
//! buffer of its last lines, for the ERROR reports.
//!
//! Nothing an engine writes can make the oracle hold more than [`Limits`] allow: a protocol line
//! is read up to [`Limits::max_line_bytes`] (blank lines are dropped as they are read, and nothing
//! is read before the oracle asks for a line, so a flood blocks the engine on its full pipe, not
//! in the oracle's memory); a stderr line is read as bytes (not UTF-8 is no error there) and kept
//! up to [`Limits::max_text_chars`], the rest read and dropped, so the engine never writes into a
//! closed pipe; every text the engine provides is cut to that length with a note ([`cut_text`]).

use std::collections::VecDeque;
use std::io::Read;
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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
    /// The engine's stdin, non-blocking (see [`Engine::send_by`]); `None` once closed.
    to_engine: Option<std::process::ChildStdin>,
    /// The engine's stdout, read on the oracle's thread.
    from_engine: LineReader,
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
        // Written from the oracle's thread, without blocking: a write the pipe can't take waits in
        // `poll` until the answer's deadline (`send_by`).
        if rustix::io::ioctl_fionbio(&stdin, true).is_err() {
            return Err(Failure::Io("the engine's stdin could not be made non-blocking".into()));
        }
        // Read on the oracle's thread too, without blocking, waiting in `poll` (`LineReader`).
        let from_engine = LineReader::new(stdout.into(), self.limits.max_line_bytes)
            .map_err(|e| Failure::Io(format!("the engine's stdout could not be made non-blocking: {e}")))?;
        let tail = self.stderr.clone();
        let limits = self.limits;
        let stderr = std::os::fd::OwnedFd::from(stderr);
        let stderr_watch = stderr.try_clone().ok();
        let stderr_busy = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let busy = stderr_busy.clone();
        std::thread::spawn(move || read_stderr(std::fs::File::from(stderr), &tail, &busy, limits));
        self.running = Some(Running { child, stderr_watch, stderr_busy, to_engine: Some(stdin), from_engine });
        Ok(())
    }

    /// Sends one line (without its newline), waiting at most until `deadline` for the engine to
    /// take it: past it the engine is killed (it stopped reading its input), a timeout like an
    /// answer that doesn't come. `limit` is the time limit the timeout reports.
    pub fn send_by(&mut self, line: String, deadline: Instant, limit: Duration) -> Result<(), Failure> {
        match self.write_by(line, deadline) {
            Ok(()) => Ok(()),
            Err(WriteEnd::Full) => {
                self.kill();
                Err(Failure::Timeout(limit))
            }
            Err(WriteEnd::Gone) => Err(self.crashed()),
        }
    }

    /// Writes one line and its newline to the engine's stdin, waiting in `poll` until `deadline`
    /// while its pipe is full. An engine that closed its stdin (EPIPE) is taken to have been sent
    /// the line, as a writer thread's write that failed unseen was: the input is closed on this
    /// side too, and what the engine wrote before it exited, or still writes, is read as usual
    /// (an answer, late output, or the end of its output).
    fn write_by(&mut self, line: String, deadline: Instant) -> Result<(), WriteEnd> {
        let running = self.running.as_mut().ok_or(WriteEnd::Gone)?;
        let Some(stdin) = running.to_engine.as_ref() else { return Err(WriteEnd::Gone) };
        let mut bytes = line.into_bytes();
        bytes.push(b'\n');
        let mut left: &[u8] = &bytes;
        while !left.is_empty() {
            match rustix::io::write(stdin, left) {
                Ok(n) => left = &left[n..],
                Err(rustix::io::Errno::INTR) => {}
                Err(rustix::io::Errno::AGAIN) => match wait_until(stdin, rustix::event::PollFlags::OUT, deadline) {
                    Ok(true) => {}
                    Ok(false) => return Err(WriteEnd::Full),
                    Err(_) => return Err(WriteEnd::Gone),
                },
                // EPIPE (it closed its stdin) or another error: nothing more can be written.
                Err(_) => {
                    running.to_engine = None;
                    return Ok(());
                }
            }
        }
        Ok(())
    }

    /// The next non-empty line, waiting until `deadline`. On a timeout the engine is killed.
    pub fn receive(&mut self, deadline: Instant, limit: Duration) -> Result<String, Failure> {
        let running = self.running.as_mut().ok_or_else(|| Failure::Io("the engine is not running".into()))?;
        match running.from_engine.next_line(deadline) {
            Ok(Some(line)) => Ok(line),
            Ok(None) => {
                self.kill();
                Err(Failure::Timeout(limit))
            }
            Err(ReadEnd::Broken(why)) => {
                self.kill();
                Err(Failure::Garbage(why.to_string()))
            }
            Err(ReadEnd::Closed) => Err(self.crashed()),
        }
    }

    /// What the engine wrote after its last answer and before the oracle's next message, waiting
    /// up to `grace` for it: a non-empty line (cut short) or why its output broke. The caller
    /// kills the engine when there is some, so the next scenario starts with a fresh one; an
    /// engine that closed its output is let go quietly (the next scenario starts a fresh one).
    pub fn late_output(&mut self, grace: Duration) -> Option<String> {
        let running = self.running.as_mut()?;
        match running.from_engine.next_line(Instant::now() + grace) {
            Ok(Some(line)) => Some(format!("it wrote after its answer: {}", cut_text(&line, 200))),
            Ok(None) => None,
            Err(ReadEnd::Broken(why)) => Some(format!("after its answer, {why}")),
            // Closed: nothing more will come.
            Err(ReadEnd::Closed) => {
                self.kill();
                None
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
        // The stderr reader may still be catching up with a process that just died.
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
            // An engine that doesn't take even this short line gets its stdin closed anyway, and
            // keeps running: what it writes next is still read (`drain_late`).
            let _ = self.write_by(message, Instant::now() + Duration::from_millis(100));
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

/// Why a line couldn't be written to the engine.
#[derive(Debug)]
enum WriteEnd {
    /// Its input pipe stayed full until the deadline: it doesn't read.
    Full,
    /// It isn't running, or its input is closed on this side.
    Gone,
}

/// How an engine's output stream ended.
#[derive(Debug)]
enum ReadEnd {
    /// It closed its output.
    Closed,
    /// It can't be read as protocol lines any more.
    Broken(BrokenOutput),
}

/// Protocol lines from the engine's stdout, read on the calling thread as they are asked for.
///
/// The pipe is non-blocking and the reader waits for bytes in `poll` up to the caller's deadline,
/// so a silent engine can't hold the oracle. A line is taken up to `max_line` bytes: the pending
/// bytes never exceed `max_line` plus one read (64 KiB to 16 MiB, as much as is pending already),
/// and nothing is read before the oracle asks for the next line, so an engine that floods its
/// output blocks on its full pipe, not in the oracle's memory. Blank lines are dropped; a line
/// too long or not UTF-8 breaks the stream (and every later call says so).
struct LineReader {
    stdout: std::os::fd::OwnedFd,
    /// Bytes read and not yet handed out as lines: `pending[taken..]`.
    pending: Vec<u8>,
    taken: usize,
    /// `pending[taken..searched]` holds no newline: the search goes on from there (a long line
    /// arrives in many reads, and each is looked through once).
    searched: usize,
    max_line: usize,
    /// Set once the stream broke or closed.
    ended: Option<ReadEnd>,
}

impl LineReader {
    fn new(stdout: std::os::fd::OwnedFd, max_line: usize) -> std::io::Result<Self> {
        rustix::io::ioctl_fionbio(&stdout, true)?;
        Ok(LineReader { stdout, pending: Vec::new(), taken: 0, searched: 0, max_line, ended: None })
    }

    /// The next non-blank line, or `Ok(None)` if none is whole by `deadline`.
    fn next_line(&mut self, deadline: Instant) -> Result<Option<String>, ReadEnd> {
        let mut read_once = false;
        loop {
            // A broken stream stays broken; a closed one still hands out what it read.
            if let Some(ReadEnd::Broken(why)) = &self.ended {
                return Err(ReadEnd::Broken(why.clone()));
            }
            if let Some(line) = self.take_line()? {
                return Ok(Some(line));
            }
            if matches!(self.ended, Some(ReadEnd::Closed)) {
                return Err(ReadEnd::Closed);
            }
            // Checked after every read too, so output that keeps coming without making a line (a
            // flood of blank lines, a line that never ends) can't hold the deadline off; one read
            // is always tried, for a deadline that has passed already (`late_output` with no grace).
            if read_once && Instant::now() >= deadline {
                return Ok(None);
            }
            read_once = true;
            // Room for the next read; what was handed out goes first. A long line is read in
            // chunks as large as what is pending already, so it costs few reads.
            self.pending.drain(..self.taken);
            self.searched = self.searched.saturating_sub(self.taken);
            self.taken = 0;
            let had = self.pending.len();
            self.pending.reserve(had.clamp(64 << 10, 16 << 20));
            // Into the spare capacity, which the read fills and adds to the length.
            match rustix::io::read(&self.stdout, rustix::buffer::spare_capacity(&mut self.pending)) {
                Ok(0) => self.ended = Some(ReadEnd::Closed),
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(rustix::io::Errno::AGAIN) => match wait_until(&self.stdout, rustix::event::PollFlags::IN, deadline)
                {
                    Ok(true) => {}
                    Ok(false) => return Ok(None),
                    Err(e) => self.ended = Some(ReadEnd::Broken(BrokenOutput::Read(e.to_string()))),
                },
                Err(e) => self.ended = Some(ReadEnd::Broken(BrokenOutput::Read(e.to_string()))),
            }
        }
    }

    /// The next whole non-blank line among the bytes already read, if there is one.
    fn take_line(&mut self) -> Result<Option<String>, ReadEnd> {
        loop {
            let rest = &self.pending[self.taken..];
            let from = self.searched.max(self.taken) - self.taken;
            let found = rest[from..].iter().position(|&b| b == b'\n').map(|at| from + at);
            self.searched = if found.is_some() { self.taken } else { self.pending.len() };
            // A line (its newline not counted) longer than the limit, whole or not yet.
            if found.unwrap_or(rest.len()) > self.max_line {
                return Err(self.broken(BrokenOutput::TooLong { max_line: self.max_line }));
            }
            let start = self.taken;
            let Some(end) = found else {
                // At the end of the stream, the last line needs no newline.
                if rest.is_empty() || !matches!(self.ended, Some(ReadEnd::Closed)) {
                    return Ok(None);
                }
                self.taken = self.pending.len();
                return self.hand_out(start, self.pending.len());
            };
            let stop = start + end;
            self.taken = stop + 1;
            if let Some(line) = self.hand_out(start, stop)? {
                return Ok(Some(line));
            }
        }
    }

    /// `pending[start..stop]` as a line, `None` if it is blank (whitespace only, as `str::trim`
    /// sees it: a line of no-break spaces is blank too).
    fn hand_out(&mut self, start: usize, stop: usize) -> Result<Option<String>, ReadEnd> {
        match std::str::from_utf8(&self.pending[start..stop]) {
            Ok(text) if text.trim().is_empty() => Ok(None),
            Ok(text) => Ok(Some(text.trim_end_matches(['\n', '\r']).to_string())),
            Err(_) => Err(self.broken(BrokenOutput::NotUtf8)),
        }
    }

    /// Marks the stream broken for `why` (every later call says so too) and returns that.
    fn broken(&mut self, why: BrokenOutput) -> ReadEnd {
        self.ended = Some(ReadEnd::Broken(why.clone()));
        ReadEnd::Broken(why)
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

/// Waits in `poll` until `fd` is ready for `flags` or `deadline` passes: `Ok(false)`, without
/// waiting, once it has passed; `Ok(true)` when `poll` came back (ready, or interrupted: either way
/// the caller tries its read or write again).
fn wait_until(
    fd: impl std::os::fd::AsFd,
    flags: rustix::event::PollFlags,
    deadline: Instant,
) -> rustix::io::Result<bool> {
    let now = Instant::now();
    if now >= deadline {
        return Ok(false);
    }
    // A deadline too far off for a `Timespec` waits without a limit.
    let wait = rustix::event::Timespec::try_from(deadline - now).ok();
    let mut fds = [rustix::event::PollFd::new(&fd, flags)];
    match rustix::event::poll(&mut fds, wait.as_ref()) {
        Ok(_) | Err(rustix::io::Errno::INTR) => Ok(true),
        Err(e) => Err(e),
    }
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

#[cfg(test)]
mod line_reader_tests {
    use super::{BrokenOutput, LineReader, ReadEnd};
    use std::io::Write;
    use std::time::{Duration, Instant};

    fn soon() -> Instant {
        Instant::now() + Duration::from_millis(200)
    }

    /// A reader over a pipe that `write` fills from another thread, then closes.
    fn reader(max_line: usize, write: impl FnOnce(&mut std::io::PipeWriter) + Send + 'static) -> LineReader {
        let (r, mut w) = std::io::pipe().expect("a pipe");
        std::thread::spawn(move || write(&mut w));
        LineReader::new(r.into(), max_line).expect("non-blocking")
    }

    #[test]
    fn lines_come_whole_without_blank_ones_or_line_ends() {
        let mut lines = reader(100, |w| {
            // In pieces, with a pause: a line split across reads is still one line.
            w.write_all(b"first\r\n\n   \nsec").unwrap();
            std::thread::sleep(Duration::from_millis(20));
            w.write_all(b"ond\nlast without newline").unwrap();
        });
        assert_eq!(lines.next_line(soon()).ok(), Some(Some("first".to_string())));
        assert_eq!(lines.next_line(soon()).ok(), Some(Some("second".to_string())));
        assert_eq!(lines.next_line(soon()).ok(), Some(Some("last without newline".to_string())));
        assert!(matches!(lines.next_line(soon()), Err(ReadEnd::Closed)));
    }

    #[test]
    fn nothing_by_the_deadline_is_none_and_the_line_still_comes_later() {
        let mut lines = reader(100, |w| {
            std::thread::sleep(Duration::from_millis(300));
            w.write_all(b"late\n").unwrap();
        });
        assert_eq!(lines.next_line(Instant::now() + Duration::from_millis(50)).ok(), Some(None));
        assert_eq!(lines.next_line(Instant::now() + Duration::from_secs(5)).ok(), Some(Some("late".to_string())));
    }

    #[test]
    fn a_line_over_the_limit_breaks_the_stream_and_one_at_it_does_not() {
        let mut lines = reader(10, |w| {
            w.write_all(b"0123456789\n01234567890\nnever\n").unwrap();
        });
        assert_eq!(lines.next_line(soon()).ok(), Some(Some("0123456789".to_string())));
        for _ in 0..2 {
            assert!(matches!(lines.next_line(soon()), Err(ReadEnd::Broken(BrokenOutput::TooLong { max_line: 10 }))));
        }
        // Without a newline in sight, too: the reader stops once more than the limit is pending.
        let mut endless = reader(1000, |w| {
            let _ = w.write_all(&[b'x'; 200_000]);
        });
        assert!(matches!(endless.next_line(soon()), Err(ReadEnd::Broken(BrokenOutput::TooLong { max_line: 1000 }))));
    }

    #[test]
    fn output_that_never_makes_a_line_cant_hold_the_deadline_off() {
        // Blank lines (some of them no-break spaces, blank to `str::trim`) as fast as the pipe takes
        // them, for far longer than the deadline.
        let mut blanks = reader(100, |w| {
            let until = Instant::now() + Duration::from_secs(3);
            while Instant::now() < until && w.write_all("\n \n\u{a0}\n".repeat(4096).as_bytes()).is_ok() {}
        });
        let started = Instant::now();
        assert_eq!(blanks.next_line(Instant::now() + Duration::from_millis(100)).ok(), Some(None));
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
        // A line that keeps coming and never ends, under a limit it doesn't reach in time.
        let mut endless = reader(1 << 30, |w| {
            let until = Instant::now() + Duration::from_secs(3);
            while Instant::now() < until && w.write_all(&[b'x'; 4096]).is_ok() {}
        });
        let started = Instant::now();
        assert_eq!(endless.next_line(Instant::now() + Duration::from_millis(100)).ok(), Some(None));
        assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    }

    #[test]
    fn a_long_line_in_many_reads_and_a_line_not_utf8() {
        let mut lines = reader(8 << 20, |w| {
            w.write_all(&vec![b'a'; 3 << 20]).unwrap();
            w.write_all(b"\n\xff\xfe\n").unwrap();
        });
        assert_eq!(
            lines.next_line(Instant::now() + Duration::from_secs(10)).ok().flatten().map(|l| l.len()),
            Some(3 << 20)
        );
        assert!(matches!(lines.next_line(soon()), Err(ReadEnd::Broken(BrokenOutput::NotUtf8))));
    }
}

#[cfg(test)]
mod engine_tests {
    use super::{Engine, EngineCommand, Failure};
    use std::time::{Duration, Instant};

    fn soon() -> Instant {
        Instant::now() + Duration::from_secs(5)
    }

    /// An engine that closed its stdin still has its answer and its late output read: the line
    /// written into the closed pipe counts as sent, as it did with a writer thread.
    #[test]
    fn an_engine_that_closed_its_input_is_still_heard() {
        let mut engine =
            Engine::new(EngineCommand::shell("exec 0<&-; sleep 0.3; echo answer; sleep 0.1; echo stray; exit 3"));
        engine.start().expect("starts");
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(engine.send_by("run".into(), soon(), Duration::from_secs(5)), Ok(()));
        assert_eq!(engine.receive(soon(), Duration::from_secs(5)), Ok("answer".to_string()));
        // Its `stop` goes nowhere, and what it wrote after its answer is still read.
        engine.close_input("stop".into());
        let late = engine.late_output(Duration::from_secs(5));
        assert_eq!(late.as_deref(), Some("it wrote after its answer: stray"));
        let mut gone = Engine::new(EngineCommand::shell("exec 0<&-; sleep 0.3; exit 3"));
        gone.start().expect("starts");
        std::thread::sleep(Duration::from_millis(150));
        assert_eq!(gone.send_by("run".into(), soon(), Duration::from_secs(5)), Ok(()));
        assert!(
            matches!(gone.receive(soon(), Duration::from_secs(5)), Err(Failure::Crashed(why)) if why.contains("exit"))
        );
    }
}
