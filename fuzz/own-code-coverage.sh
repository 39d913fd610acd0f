#!/usr/bin/env bash
# RUSTC_WRAPPER for campaign.sh's fast profile: coverage instrumentation (SanitizerCoverage) only
# for this repository's own crates — the oracle and the fuzz targets — and none for the crates.io
# dependencies (serde, serde_norway's libyaml port, indexmap, mimalloc…).
#
# Why: libFuzzer counts every instrumented edge on every input. The dependencies' edges cost time
# on every call (a counter per basic block, and their counters in libFuzzer's scan after each
# input) and steer the fuzzer towards the dependencies' own branches, which are not what these
# targets test. Measured 2026-12-07 with the same code, 30-second runs from the committed corpus
# (fuzz/README.md, "2026-12-07, fourth"): `scenario_yaml` 11 866 -> 15 187 exec/s (its YAML
# parser, a port of libyaml, is a third of its time), `zone_state` 934 -> 1 021, `engine_diff`
# 2 946 -> 3 140, `search_request` 989 -> 985; over 60 seconds `zone_state` gained nothing beyond
# the run-to-run noise. Generic code of the dependencies that the oracle instantiates
# (collections, serde's derived visitors) is compiled into the oracle and stays instrumented. The
# standard profile (CI, ClusterFuzzLite) instruments everything.
#
# A crate is this repository's when cargo builds it from a manifest under the repository (cargo
# sets CARGO_MANIFEST_DIR for every rustc it runs); for the others the wrapper drops the
# SanitizerCoverage flags cargo-fuzz put in RUSTFLAGS and runs rustc with the rest.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd -P)"
manifest_dir="$(cd "${CARGO_MANIFEST_DIR:-/}" 2>/dev/null && pwd -P || echo /)"
case "$manifest_dir/" in
    "$repo"/*) exec "$@" ;;
esac
args=()
for arg in "$@"; do
    case "$arg" in
        -Cpasses=sancov-module | -Cllvm-args=-sanitizer-coverage-*) ;;
        *) args+=("$arg") ;;
    esac
done
exec "${args[@]}"
