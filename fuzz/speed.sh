#!/usr/bin/env bash
# The fuzz targets' speed figures in one run, so a change can be compared side by side:
#
#   fuzz/speed.sh [SECONDS] [TARGET...]
#
# 1. `cargo bench --bench fuzz_targets`: each committed corpus replayed in process, one input at
#    a time (median, mean, p90 and max time per input; no coverage instrumentation).
# 2. For each target, one single-process libFuzzer run of SECONDS (default 60) from a copy of
#    its committed corpus (`campaign.sh`, fixed seed), instrumented as a real campaign is:
#    executions, exec/s, and coverage (edges) at the end — once per profile of campaign.sh
#    (FUZZ_PROFILES, default "standard fast": the default build and flags, then the build
#    without comparison tracing or libFuzzer's memcmp interceptors, with coverage of our own
#    crates only, and -entropic=0).
#
# Needs cargo-fuzz (see README.md). Run it on a quiet machine: the figures are wall-clock.
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-60}"
shift $(( $# >= 1 ? 1 : 0 ))
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(zone_state search_request scenario_yaml judge_observation engine_diff)

echo "== corpus replay, in process (cargo bench -p mtg-oracle --bench fuzz_targets)"
(cd .. && cargo bench -q -p mtg-oracle --bench fuzz_targets --locked -- "${targets[@]}" 2>/dev/null)

profiles="${FUZZ_PROFILES:-standard fast}"
for profile in $profiles; do
    echo
    echo "== libFuzzer, profile $profile, one process, ${seconds}s from the committed corpus (-seed=1)"
    build=(--sanitizer none -O)
    if [ "$profile" = fast ]; then
        # As campaign.sh builds it: no comparison tracing, no memcmp/strcmp interceptors, coverage
        # of our own crates only.
        build+=(--no-trace-compares --target-dir target/fast-own-coverage)
        CUSTOM_LIBFUZZER_PATH="$(./fast-libfuzzer.sh)" RUSTC_WRAPPER="$PWD/own-code-coverage.sh" \
            cargo fuzz build "${build[@]}" >/dev/null 2>&1
    else
        cargo fuzz build "${build[@]}" >/dev/null 2>&1
    fi
    printf '%-18s %10s %10s %8s\n' target executed exec/s edges
    for target in "${targets[@]}"; do
        dir="$(mktemp -d -t "speed-$target.XXXXXX")"
        CAMPAIGN_DIR="$dir" FUZZ_PROFILE="$profile" ./campaign.sh "$target" "$seconds" 0 -- -seed=1 >/dev/null 2>&1 || true
        runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log" | grep -o '[0-9]*$' | tail -1)
        rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$dir/log" | grep -o '[0-9]*$' | tail -1)
        edges=$(grep -o 'cov: [0-9]*' "$dir/log" | grep -o '[0-9]*$' | tail -1)
        crashed=""
        grep -q 'ERROR: libFuzzer' "$dir/log" && crashed="  (stopped at a finding: see $dir/log)"
        printf '%-18s %10s %10s %8s%s\n' "$target" "${runs:-?}" "${rate:-?}" "${edges:-?}" "$crashed"
        [ -z "$crashed" ] && rm -rf "$dir"
    done
done
