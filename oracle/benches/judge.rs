//! How the judge scales with the number of cards, and how it compares with the enumerator.
//!
//! Alice casts a hypothetical sorcery, "Search your library for up to N basic land cards, put them
//! onto the battlefield, then shuffle", and it resolves. Her library is a deterministic mix: every
//! 7th card a Forest, the rest Grizzly Bears; Bob has five cards.
//!
//! - `judge_up_to_3`: `judge` on libraries of 10^3, 10^4 and 10^5 cards, on a legal outcome (three
//!   Forests found, the library reported in a random order, read from JSON as `check` reads an
//!   engine's report) and on two illegal ones: one found Forest listed back in the library (the
//!   full replay-and-compare path) and Grizzly Bears found instead of a Forest (rejected during
//!   the replay).
//! - `explore_up_to_2` and `judge_up_to_2`: the enumerator and the judge on libraries of 8 to 256
//!   cards with "up to two", where enumerating is still feasible (1 + k + k(k-1)/2 runs for k
//!   Forests: 4, 7, 16, 56, 191 and 704).
//!
//! Run with `cargo bench -p mtg-oracle --bench judge`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use mtg_oracle::cards::CardPool;
use mtg_oracle::explore::{DEFAULT_RUN_LIMIT, explore, first_run};
use mtg_oracle::fuzzing::generate::{forests_to_find, land_search_scenario};
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::concrete::concretize;
use mtg_oracle::outcome::{Event, Outcome};
use mtg_oracle::scenario::{Setup, load_scenario};

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

const SEED: u64 = 0x62_656e_6368;

/// The unscripted setup and outcomes of it as an engine would report them.
struct Case {
    setup: Setup,
    legal: Outcome,
    /// One found Forest listed back in Alice's library instead of on the battlefield.
    misplaced: Outcome,
    /// Grizzly Bears found (and put onto the battlefield) instead of a Forest.
    nonbasic: Outcome,
}

fn case(pool: &CardPool, size: usize, up_to: u32) -> Case {
    let found = forests_to_find(size, up_to as usize);
    let id = format!("bench-{size}");
    let setup = load_scenario(&id, land_search_scenario(size, up_to, None), pool).expect("the scenario loads").setup;
    // A scripted find picks which Forests the legal outcome has; the judge then works on the
    // unscripted setup, where the find comes from the observed log.
    let scripted =
        load_scenario(&id, land_search_scenario(size, up_to, Some(found.clone())), pool).expect("the scenario loads");
    let (outcome, _) = first_run(&scripted.setup).expect("the scripted run succeeds");
    // Read back from JSON, as `check` reads an engine's report: its strings are made in the
    // order they are listed (the shuffled ones in place would be spread over memory instead).
    let legal = concretize(&outcome, SEED);
    let legal: Outcome = serde_json::from_str(&serde_json::to_string(&legal).expect("an outcome serialises"))
        .expect("an outcome reads back");

    let mut misplaced = legal.clone();
    let forest = found.last().expect("a Forest was found").clone();
    zone(&mut misplaced, "battlefield").retain(|c| *c != forest);
    let library = zone(&mut misplaced, "Alice.library");
    library.insert(library.len() / 2, forest);

    let mut nonbasic = legal.clone();
    let (forest, bears) = (found[0].clone(), "bears-1".to_string());
    for e in &mut nonbasic.events {
        match &mut e.event {
            Event::Searched { found, .. } => {
                found.iter_mut().filter(|c| **c == forest).for_each(|c| *c = bears.clone())
            }
            Event::Moved { card, .. } if *card == forest => *card = bears.clone(),
            _ => {}
        }
    }
    for name in ["battlefield", "Alice.library"] {
        for c in zone(&mut nonbasic, name).iter_mut() {
            if *c == forest {
                *c = bears.clone();
            } else if *c == bears {
                *c = forest.clone();
            }
        }
    }

    let c = Case { setup, legal, misplaced, nonbasic };
    assert_eq!(judge(&c.setup, &c.legal), Verdict::Legal, "{size} cards: the legal outcome");
    for (what, o, clause) in [("misplaced", &c.misplaced, "701.23a"), ("nonbasic", &c.nonbasic, "701.23a")] {
        match judge(&c.setup, o) {
            Verdict::Illegal(d) if d[0].clause == clause => {}
            other => panic!("{size} cards, {what}: expected Illegal({clause}), got {other:?}"),
        }
    }
    c
}

fn zone<'a>(o: &'a mut Outcome, name: &str) -> &'a mut Vec<String> {
    o.zones.get_mut(name).unwrap_or_else(|| panic!("the outcome has no {name}"))
}

fn pool() -> CardPool {
    CardPool::bundled().expect("the bundled card pool loads")
}

/// `judge` on each kind of observed outcome; `measure(size)` is the measurement time.
fn judge_variants(c: &mut Criterion, group: &str, sizes: &[usize], up_to: u32, measure: fn(usize) -> Duration) {
    let pool = pool();
    let mut g = c.benchmark_group(group);
    g.sample_size(10).warm_up_time(Duration::from_secs(1));
    for &size in sizes {
        let case = case(&pool, size, up_to);
        // Ten linear samples of a ~100 ms iteration take 55 iterations, about 6 s, at 10^5 cards.
        g.measurement_time(measure(size));
        g.throughput(Throughput::Elements(size as u64));
        for (name, observed) in
            [("legal", &case.legal), ("illegal_misplaced", &case.misplaced), ("illegal_nonbasic", &case.nonbasic)]
        {
            g.bench_with_input(BenchmarkId::new(name, size), observed, |b, o| {
                b.iter(|| judge(black_box(&case.setup), black_box(o)))
            });
        }
    }
    g.finish();
}

const SMALL: [usize; 6] = [8, 16, 32, 64, 128, 256];

fn bench_judge_large(c: &mut Criterion) {
    judge_variants(c, "judge_up_to_3", &[1_000, 10_000, 100_000], 3, |n| {
        Duration::from_secs(if n >= 100_000 { 7 } else { 3 })
    });
}

fn bench_judge_small(c: &mut Criterion) {
    judge_variants(c, "judge_up_to_2", &SMALL, 2, |_| Duration::from_secs(2));
}

fn bench_explore_small(c: &mut Criterion) {
    let pool = pool();
    let mut g = c.benchmark_group("explore_up_to_2");
    g.sample_size(10).measurement_time(Duration::from_secs(3)).warm_up_time(Duration::from_secs(1));
    for size in SMALL {
        let setup =
            load_scenario("bench", land_search_scenario(size, 2, None), &pool).expect("the scenario loads").setup;
        let forests = size.div_ceil(7);
        let expected = 1 + forests + forests * (forests - 1) / 2;
        let x = explore(&setup, DEFAULT_RUN_LIMIT).expect("a small library can be enumerated");
        assert_eq!((x.runs, x.outcomes.len()), (expected, expected), "{size} cards");
        g.throughput(Throughput::Elements(size as u64));
        g.bench_with_input(BenchmarkId::new("explore", size), &setup, |b, s| {
            b.iter(|| explore(black_box(s), DEFAULT_RUN_LIMIT).map(|x| x.runs))
        });
    }
    g.finish();
}

criterion_group!(benches, bench_judge_large, bench_judge_small, bench_explore_small);
criterion_main!(benches);
