#!/usr/bin/env bash
# Tests the ClusterFuzzLite build (build.sh) without a container: sets the variables the service
# gives it by hand ($SRC holding the repository as $SRC/mtg-oracle, an empty $OUT, $SANITIZER,
# the compiler flags), runs it, then checks that $OUT holds one runnable binary and one seed
# corpus zip per target of fuzz/Cargo.toml, and that each binary replays its whole seed corpus
# without a crash (libFuzzer `-runs=0`: every input once, no mutation).
#
#   .clusterfuzzlite/test-build.sh [SANITIZER]     (default: none, the stable build CI uses;
#                                                   address/memory need a nightly toolchain:
#                                                   RUSTUP_TOOLCHAIN=nightly)
# Prints one line per target; exits non-zero on the first thing missing or failing.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d -t cflite.XXXXXX)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/out"
ln -s "$repo" "$work/src/mtg-oracle"
export SRC="$work/src" OUT="$work/out" SANITIZER="${1:-none}"
# What the base-builder image exports (its compilers are clang; this machine may have only gcc,
# which libfuzzer-sys builds libFuzzer with just as well); cargo-fuzz adds its own instrumentation.
if command -v clang >/dev/null 2>&1 && command -v clang++ >/dev/null 2>&1; then
    export CC="${CC:-clang}" CXX="${CXX:-clang++}"
fi
export CFLAGS="${CFLAGS:--O1}" CXXFLAGS="${CXXFLAGS:--O1}"
export LIB_FUZZING_ENGINE="${LIB_FUZZING_ENGINE:--fsanitize=fuzzer}" FUZZING_LANGUAGE=rust
echo "test-build: SRC=$SRC OUT=$OUT SANITIZER=$SANITIZER"
bash "$repo/.clusterfuzzlite/build.sh"

targets="$(cd "$repo/fuzz" && cargo fuzz list)"
count=0
for t in $targets; do
    [ -x "$OUT/$t" ] || { echo "test-build: $OUT/$t missing or not executable" >&2; exit 1; }
    zip="$OUT/${t}_seed_corpus.zip"
    [ -s "$zip" ] || { echo "test-build: $zip missing or empty" >&2; exit 1; }
    in_zip=$(unzip -Z1 "$zip" | grep -vc '/$' || true)
    in_corpus=$(find "$repo/corpus/$t" -type f | wc -l)
    [ "$in_zip" -eq "$in_corpus" ] || {
        echo "test-build: $zip holds $in_zip files, corpus/$t has $in_corpus" >&2; exit 1; }
    seeds="$work/seeds-$t"
    mkdir -p "$seeds" && unzip -q "$zip" -d "$seeds"
    if ! "$OUT/$t" -runs=0 -timeout=30 -rss_limit_mb=2048 "$seeds" >"$work/$t.log" 2>&1; then
        tail -n 20 "$work/$t.log" >&2
        echo "test-build: $t failed replaying its seed corpus" >&2
        exit 1
    fi
    printf 'test-build: %-18s binary ok, seed corpus %5d files, replayed\n' "$t" "$in_zip"
    count=$((count + 1))
done
[ "$count" -ge 1 ] || { echo "test-build: no targets" >&2; exit 1; }
echo "test-build: ok ($count targets)"
