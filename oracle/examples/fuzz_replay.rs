//! Replays fuzz inputs in process, without cargo-fuzz or its instrumented build: for each file,
//! the target's checks, their result and how long they took.
//!
//! `cargo run --release -p mtg-oracle --example fuzz_replay -- TARGET FILE…`
//! (TARGET: zone_state, search_request, scenario_yaml, judge_observation). With
//! `FUZZ_REPLAY_YAML=1`, each generator input's decoded scenario is printed first.
use mtg_oracle::fuzzing::targets::Target;

/// The project's allocator ([`mtg_oracle::FastAllocator`]), so the figures match the tools'.
#[global_allocator]
static ALLOCATOR: mtg_oracle::FastAllocator = mtg_oracle::FastAllocator;

fn main() {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_default();
    let Some(target) = Target::from_name(&name) else {
        eprintln!(
            "usage: fuzz_replay TARGET FILE… (TARGET: zone_state, search_request, scenario_yaml, judge_observation)"
        );
        std::process::exit(2);
    };
    let mut failed = false;
    for file in args {
        let data = match std::fs::read(&file) {
            Ok(d) => d,
            Err(e) => {
                eprintln!("{file}: {e}");
                failed = true;
                continue;
            }
        };
        if std::env::var_os("FUZZ_REPLAY_YAML").is_some()
            && let Some((case, _)) = mtg_oracle::fuzzing::targets::case_from_fuzz_input(&data, target.limits())
        {
            println!("{}", mtg_oracle::yaml::to_yaml(&case.scenario()));
        }
        let start = std::time::Instant::now();
        let result = target.check(&data);
        let took = start.elapsed();
        match result {
            Ok(()) => println!("{file}: ok ({took:.1?})"),
            Err(e) => {
                failed = true;
                let text = e.to_string();
                let short: String = if std::env::var_os("FUZZ_REPLAY_FULL").is_some() {
                    text
                } else {
                    text.chars().take(2000).collect()
                };
                println!("{file}: FAIL ({took:.1?}): {short}");
            }
        }
    }
    std::process::exit(i32::from(failed));
}
