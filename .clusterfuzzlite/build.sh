#!/bin/bash -eu
# Builds the fuzz targets of fuzz/ for ClusterFuzzLite (or OSS-Fuzz) and copies them to $OUT,
# each with its committed corpus (corpus/<target>/) as <target>_seed_corpus.zip.
#
# The service sets $SRC (where the Dockerfile copied the repository, as $SRC/mtg-oracle), $OUT
# (where the binaries and seed corpora go) and $SANITIZER (address, memory, undefined, coverage,
# none). `.clusterfuzzlite/test-build.sh` runs this script outside a container with those
# variables set by hand and checks what it produced; CI runs that test.
set -eu  # also when started as `bash build.sh`, which ignores the flags on the #! line
cd "$SRC/mtg-oracle"
# Every target fuzz/Cargo.toml declares, so a new target can't be left out of the service.
TARGETS="$(cd fuzz && cargo fuzz list)"
if [ -z "$TARGETS" ]; then
    echo "build.sh: cargo fuzz list found no targets in fuzz/" >&2
    exit 1
fi
if [ "${SANITIZER:-address}" = "address" ] || [ "${SANITIZER:-address}" = "memory" ]; then
    # Nightly (the base image's toolchain): the service's sanitizer, with the system allocator
    # it intercepts (no mimalloc: fuzz/Cargo.toml's `fast-alloc` feature).
    cargo fuzz build -O --sanitizer "$SANITIZER" --no-default-features
else
    # coverage / undefined / none: plain coverage-instrumented builds, as on stable.
    cargo fuzz build -O --sanitizer none
fi
for t in $TARGETS; do
    cp "${CARGO_TARGET_DIR:-fuzz/target}/x86_64-unknown-linux-gnu/release/$t" "$OUT/"
    rm -f "$OUT/${t}_seed_corpus.zip"
    (cd "corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
done
