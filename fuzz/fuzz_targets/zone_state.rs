//! `zone_state`: see [`mtg_oracle::fuzzing::targets::Target::ZoneState`]. Panics on a failed check so
//! libFuzzer keeps the input; `cargo test` replays `corpus/zone_state/` through the same function.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// mimalloc ([`mtg_oracle::FastAllocator`]), except in sanitizer builds (`--no-default-features`),
/// where the sanitizer's allocator must see every allocation.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;
use mtg_oracle::fuzzing::targets::Target;

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = Target::ZoneState.check(data) {
        panic!("{failure}");
    }
});
