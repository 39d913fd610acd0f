//! `engine_diff`: see [`mtg_oracle::fuzzing::engine_diff`]. Random scenarios go to an engine over
//! the protocol (the in-process reference engine, or `MTG_ORACLE_ENGINE="command args"`) and the
//! oracle judges the answers; panics on a finding so libFuzzer keeps the input. `cargo test`
//! replays `corpus/engine_diff/` through the same function.
#![no_main]

use libfuzzer_sys::fuzz_target;

/// mimalloc ([`mtg_oracle::FastAllocator`]), except in sanitizer builds (`--no-default-features`),
/// where the sanitizer's allocator must see every allocation.
#[cfg(feature = "fast-alloc")]
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

fuzz_target!(|data: &[u8]| {
    if let Err(failure) = mtg_oracle::fuzzing::engine_diff::engine_diff(data) {
        panic!("{failure}");
    }
});
