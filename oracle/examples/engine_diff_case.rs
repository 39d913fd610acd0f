//! Debugging aid for an `engine_diff` fuzz input: writes the scenario it decodes to (YAML) and,
//! when the in-process reference engine's answer fails the check, the outcome it answered (JSON),
//! so `mtg-oracle run` / `judge` can reproduce the finding.
//!
//! `cargo run --release -p mtg-oracle --example engine_diff_case -- INPUT OUT_STEM`

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

fn main() {
    let mut args = std::env::args().skip(1);
    let (input, stem) = (args.next().expect("an engine_diff input"), args.next().expect("an output stem"));
    let data = std::fs::read(&input).expect("readable");
    let scenario = mtg_oracle::fuzzing::targets::scenario_from_fuzz_input(&data).expect("decodes");
    std::fs::write(format!("{stem}.yaml"), mtg_oracle::yaml::to_yaml(&scenario)).expect("writes");
    let outcome = mtg_oracle::fuzzing::engine_diff::failing_outcome(&data);
    match outcome {
        Some(o) => {
            std::fs::write(format!("{stem}.observed.json"), serde_json::to_string_pretty(&o).expect("json"))
                .expect("writes");
            println!("{stem}.yaml, {stem}.observed.json");
        }
        None => println!("{stem}.yaml (the input passes)"),
    }
}
