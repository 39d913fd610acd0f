//! Loads the judge bench's "up to 3" case at SIZE cards and judges the legal outcome N times, then
//! prints the fastest and the median judgement: a quick figure while profiling (`perf record`,
//! `valgrind --tool=callgrind`); the documented figures come from the criterion bench.
use mtg_oracle::cards::CardPool;
use mtg_oracle::explore::first_run;
use mtg_oracle::fuzzing::generate::{forests_to_find, land_search_scenario};
use mtg_oracle::judge::{Verdict, judge};
use mtg_oracle::outcome::concrete::concretize;
use mtg_oracle::scenario::load_scenario;

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (size, times) = (args[0], args[1]);
    let pool = CardPool::bundled().unwrap();
    let found = forests_to_find(size, 3);
    let id = format!("bench-{size}");
    let setup = load_scenario(&id, land_search_scenario(size, 3, None), &pool).unwrap().setup;
    let scripted = load_scenario(&id, land_search_scenario(size, 3, Some(found)), &pool).unwrap();
    let (outcome, _) = first_run(&scripted.setup).unwrap();
    let legal = concretize(&outcome, 0x62_656e_6368);
    // Read back from JSON, as `check` reads an engine's report (its strings made in the order
    // they are listed), unless RAW is set.
    let legal: mtg_oracle::outcome::Outcome = if std::env::var_os("RAW").is_some() {
        legal
    } else {
        serde_json::from_str(&serde_json::to_string(&legal).unwrap()).unwrap()
    };
    let mut took: Vec<std::time::Duration> = (0..times)
        .map(|_| {
            let start = std::time::Instant::now();
            assert_eq!(judge(&setup, &legal), Verdict::Legal);
            start.elapsed()
        })
        .collect();
    took.sort_unstable();
    if let (Some(fastest), Some(median)) = (took.first(), took.get(times / 2)) {
        println!("{times} judgements of {size} cards: fastest {fastest:.2?}, median {median:.2?}");
    }
}
