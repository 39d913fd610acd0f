//! Loads the judge bench's "up to 3" case at SIZE cards and judges the legal outcome N times.
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
    for _ in 0..times {
        assert_eq!(judge(&setup, &legal), Verdict::Legal);
    }
}
