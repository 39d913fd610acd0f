#!/usr/bin/env bash
# A fuzz campaign on one target, on stable Rust (`--sanitizer none`), over a COPY of the
# committed corpus, so the campaign never rewrites corpus/<target>/ (minimise new inputs back
# into it with `cargo fuzz cmin` when you mean to).
#
#   fuzz/campaign.sh TARGET SECONDS [JOBS] [-- extra libFuzzer flags]
#
# JOBS = 0 (default): one process that stops at the first crash and exits non-zero (what CI
# runs). JOBS >= 1: libFuzzer's fork mode with JOBS worker processes, which keeps going after a
# crash (-ignore_crashes=1) and saves every crashing input under fuzz/artifacts/TARGET/ — the
# multi-core campaign. The corpus copy and the log are kept in $CAMPAIGN_DIR (default: a new
# temporary directory), whose path is printed.
#
# FUZZ_PROFILE=fast (default: standard) builds without comparison tracing (`cargo fuzz build
# --no-trace-compares`), links a libFuzzer without its memcmp/strcmp interceptors
# (fast-libfuzzer.sh), instruments only this repository's crates, not the crates.io dependencies
# (own-code-coverage.sh, a RUSTC_WRAPPER), and turns off libFuzzer's entropic schedule
# (-entropic=0). It builds into fuzz/target/fast-own-coverage, so the standard build stays, and
# because cargo doesn't rebuild a crate when only RUSTC_WRAPPER changes: a folder that held
# another build would keep its instrumented dependencies. On these targets each input runs so
# much code that libFuzzer's bookkeeping per feature (entropic's rare-feature updates) and the
# comparison hooks cost more than the targets themselves: measured 2026-12-06, the fast profile
# runs each target 1.8-2.7x faster and reaches more coverage in the same time; without the
# interceptors (2026-12-07), another 1.2-2x; instrumenting only our crates, up to 1.3x more
# (README.md, "Profiles" and the "2026-12-07" sections).
set -euo pipefail
cd "$(dirname "$0")"
target="${1:?usage: fuzz/campaign.sh TARGET SECONDS [JOBS] [-- libFuzzer flags]}"
seconds="${2:?usage: fuzz/campaign.sh TARGET SECONDS [JOBS] [-- libFuzzer flags]}"
jobs="${3:-0}"
shift $(( $# >= 3 ? 3 : $# ))
[ "${1:-}" = "--" ] && shift
dir="${CAMPAIGN_DIR:-$(mktemp -d -t "fuzz-$target.XXXXXX")}"
mkdir -p "$dir/corpus" "artifacts/$target"
cp -r "../corpus/$target/." "$dir/corpus/"
echo "campaign: $target for ${seconds}s, jobs=$jobs, corpus copy in $dir/corpus" >&2
flags=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1)
build=(--sanitizer none -O)
case "${FUZZ_PROFILE:-standard}" in
    standard) ;;
    fast)
        build+=(--no-trace-compares --target-dir target/fast-own-coverage)
        flags+=(-entropic=0)
        # libFuzzer without its memcmp/strcmp interceptors (fast-libfuzzer.sh says why).
        CUSTOM_LIBFUZZER_PATH="$(./fast-libfuzzer.sh)"
        # Coverage for our own crates only (own-code-coverage.sh says why).
        RUSTC_WRAPPER="$PWD/own-code-coverage.sh"
        export CUSTOM_LIBFUZZER_PATH RUSTC_WRAPPER
        ;;
    *) echo "campaign.sh: FUZZ_PROFILE must be standard or fast, not '${FUZZ_PROFILE}'" >&2; exit 2 ;;
esac
echo "campaign: profile ${FUZZ_PROFILE:-standard}" >&2
if [ "$jobs" -gt 0 ]; then
    flags+=(-fork="$jobs" -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1)
fi
cargo fuzz run "$target" "${build[@]}" "$dir/corpus" -- "${flags[@]}" "$@" 2>&1 | tee "$dir/log"
status=${PIPESTATUS[0]}
echo "campaign: $target done (exit $status); corpus now $(ls "$dir/corpus" | wc -l) files; log $dir/log" >&2
exit "$status"
