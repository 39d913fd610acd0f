#!/bin/bash -eu
# Builds the fuzz targets of fuzz/ for ClusterFuzzLite (or OSS-Fuzz) and copies them to $OUT,
# each with its committed corpus (corpus/<target>/) as <target>_seed_corpus.zip.
cd "$SRC/mtg-oracle"
TARGETS="zone_state search_request scenario_yaml judge_observation"
if [ "${SANITIZER:-address}" = "address" ] || [ "${SANITIZER:-address}" = "memory" ]; then
    # Nightly (the base image's toolchain): the service's sanitizer.
    cargo fuzz build -O --sanitizer "$SANITIZER"
else
    # coverage / undefined / none: plain coverage-instrumented builds, as on stable.
    cargo fuzz build -O --sanitizer none
fi
for t in $TARGETS; do
    cp "fuzz/target/x86_64-unknown-linux-gnu/release/$t" "$OUT/"
    (cd "corpus/$t" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
done
