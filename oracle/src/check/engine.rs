//! The engine process supervisor: one persistent process, spoken to in JSON lines, with a
//! deadline on every answer.
//!
//! Reading and writing happen on their own threads, so a hung engine (one that stops reading its
//! input or never answers) can't block the oracle: the oracle waits on a channel with
//! `recv_timeout`, and past the deadline it kills the engine's whole process group and starts a
//! fresh engine for the next scenario. Stderr is kept as a ring buffer of its last lines, for
//! the ERROR reports.

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The longest line accepted from an engine (a scenario outcome is far smaller).
const MAX_LINE: u64 = 64 << 20;
/// How many stderr lines are kept.
const STDERR_LINES: usize = 20;
/// How much of one stderr line is kept.
const STDERR_LINE_CHARS: usize = 400;

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
    to_engine: Option<Sender<String>>,
    from_engine: Receiver<Result<String, String>>,
}

/// A supervised engine process.
pub struct Engine {
    command: EngineCommand,
    running: Option<Running>,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// How many times a process was started.
    pub starts: usize,
}

impl Engine {
    /// An engine not started yet.
    pub fn new(command: EngineCommand) -> Self {
        Engine { command, running: None, stderr: Arc::new(Mutex::new(VecDeque::new())), starts: 0 }
    }

    /// True if a process is running (it may have died without our noticing yet).
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// Starts a fresh process (killing the old one, if any).
    pub fn start(&mut self) -> Result<(), Failure> {
        self.kill();
        self.stderr.lock().map(|mut s| s.clear()).ok();
        let mut cmd = Command::new(&self.command.program);
        cmd.args(&self.command.args).stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
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
        let (lines_out, from_engine) = channel();
        std::thread::spawn(move || read_lines(stdout, lines_out));
        let tail = self.stderr.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { return };
                let Ok(mut t) = tail.lock() else { return };
                if t.len() == STDERR_LINES {
                    t.pop_front();
                }
                t.push_back(line.chars().take(STDERR_LINE_CHARS).collect());
            }
        });
        self.running = Some(Running { child, to_engine: Some(to_engine), from_engine });
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
            let wait = deadline.saturating_duration_since(Instant::now());
            match running.from_engine.recv_timeout(wait) {
                Ok(Ok(line)) if line.trim().is_empty() => continue,
                Ok(Ok(line)) => return Ok(line),
                Ok(Err(why)) => {
                    self.kill();
                    return Err(Failure::Garbage(why));
                }
                Err(RecvTimeoutError::Timeout) => {
                    self.kill();
                    return Err(Failure::Timeout(limit));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed()),
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

    /// The last lines the engine wrote to stderr.
    pub fn stderr_tail(&self) -> Vec<String> {
        // The reader thread may still be catching up with a process that just died.
        std::thread::sleep(Duration::from_millis(20));
        self.stderr.lock().map(|t| t.iter().cloned().collect()).unwrap_or_default()
    }

    /// Kills the process group and reaps the process.
    pub fn kill(&mut self) {
        if let Some(mut r) = self.running.take() {
            r.to_engine = None;
            let pid = r.child.id();
            // The whole group: `sh -c` and anything it started.
            let _ = Command::new("kill")
                .args(["-KILL", "--", &format!("-{pid}")])
                .stderr(Stdio::null())
                .stdout(Stdio::null())
                .status();
            let _ = r.child.kill();
            let _ = r.child.wait();
        }
    }

    /// Asks the engine to stop, waits a little, then kills it.
    pub fn stop(&mut self, message: String) {
        if self.running.is_some() {
            let _ = self.send(message);
            if let Some(r) = self.running.as_mut() {
                r.to_engine = None; // closes its stdin
                let until = Instant::now() + Duration::from_secs(2);
                while Instant::now() < until {
                    if let Ok(Some(_)) = r.child.try_wait() {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(10));
                }
            }
        }
        self.kill();
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Reads lines (capped in length) and passes them on; a line that is too long or not UTF-8 ends
/// the stream with an error.
fn read_lines(stdout: impl Read, out: Sender<Result<String, String>>) {
    let mut reader = BufReader::new(stdout);
    loop {
        let mut buf = Vec::new();
        match (&mut reader).take(MAX_LINE).read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(n) if n as u64 == MAX_LINE && buf.last() != Some(&b'\n') => {
                let _ = out.send(Err(format!("it wrote a line longer than {MAX_LINE} bytes")));
                return;
            }
            Ok(_) => {
                let line = match String::from_utf8(buf) {
                    Ok(s) => Ok(s.trim_end_matches(['\n', '\r']).to_string()),
                    Err(_) => Err("it wrote a line that is not UTF-8".to_string()),
                };
                let stop = line.is_err();
                if out.send(line).is_err() || stop {
                    return;
                }
            }
            Err(e) => {
                let _ = out.send(Err(format!("reading its output failed: {e}")));
                return;
            }
        }
    }
}
