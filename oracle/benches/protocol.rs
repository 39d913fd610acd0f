//! The engine protocol's throughput against the reference engine.
//!
//! - `serve_roundtrip`: every bundled scenario sent to one persistent `mtg-oracle serve` process
//!   and its answer read back (the protocol and the engine, no judging).
//! - `check_corpus`: `check` over every bundled scenario — start `serve`, handshake, send, read,
//!   validate ids, judge — as `mtg-oracle check` does it.
//!
//! Both report scenarios per second (criterion's element throughput). Run with
//! `cargo bench -p mtg-oracle --bench protocol`.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use mtg_oracle::cards::CardPool;
use mtg_oracle::check::baseline::Baseline;
use mtg_oracle::check::engine::EngineCommand;
use mtg_oracle::check::{CheckOptions, Status, check};
use mtg_oracle::protocol::{Mode, PROTOCOL_VERSION, ToEngine, scenario_message, to_line};
use mtg_oracle::scenario::{collect_files, load_file};

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

const BIN: &str = env!("CARGO_BIN_EXE_mtg-oracle");

fn corpus() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("repo root").join("scenarios");
    collect_files(&[root]).expect("scenarios/")
}

fn bench(c: &mut Criterion) {
    let pool = CardPool::bundled().expect("pool");
    let files = corpus();
    let lines: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, f)| {
            let loaded = load_file(f, &pool).expect("loads");
            let scenario = scenario_message(&loaded, Mode::Scripted);
            to_line(&ToEngine::Run { seq: i as u64, id: loaded.id.clone(), mode: Mode::Scripted, scenario })
        })
        .collect();

    let mut child = Command::new(BIN)
        .args(["serve", "--seed", "1"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("serve starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    let mut answer = String::new();
    writeln!(stdin, "{}", to_line(&ToEngine::Start { protocol: PROTOCOL_VERSION })).expect("write");
    stdout.read_line(&mut answer).expect("hello");

    let mut group = c.benchmark_group("protocol");
    group.throughput(Throughput::Elements(lines.len() as u64));
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    group.bench_function("serve_roundtrip", |b| {
        b.iter(|| {
            for line in &lines {
                writeln!(stdin, "{line}").expect("write");
                stdin.flush().expect("flush");
                answer.clear();
                stdout.read_line(&mut answer).expect("answer");
                assert!(answer.contains("\"result\""), "{answer}");
            }
        })
    });
    let opts = CheckOptions {
        engine: EngineCommand {
            program: BIN.into(),
            args: vec!["serve".into(), "--seed".into(), "1".into()],
            display: "serve".into(),
        },
        mode: Mode::Scripted,
        timeout: Duration::from_secs(10),
        validate: false,
        partition: None,
        baseline: Baseline::default(),
        limits: mtg_oracle::check::engine::Limits::default(),
    };
    group.bench_function("check_corpus", |b| {
        b.iter(|| {
            let run = check(&files, &pool, &opts, |_, _, _| {});
            assert_eq!(run.count(Status::Pass), files.len());
        })
    });
    group.finish();
    drop(stdin);
    let _ = child.wait();
}

criterion_group!(benches, bench);
criterion_main!(benches);
