#!/usr/bin/env bash
# libFuzzer for campaign.sh's fast profile: the sources libfuzzer-sys ships (the version
# fuzz/Cargo.lock pins), compiled without FuzzerInterceptors.cpp, into
# fuzz/target/fast/libfuzzer-no-interceptors/libfuzzer.a; prints that path (built once, reused).
#
# Why: FuzzerInterceptors.cpp replaces libc's memcmp/bcmp/strcmp… with versions that report every
# unequal comparison to libFuzzer (`__sanitizer_weak_hook_memcmp` -> `TracePC::AddValueForMemcmp`,
# no flag turns it off). The targets compare card ids as strings all the time, and on 2026-12-07
# that hook was 36% of `zone_state`'s time under libFuzzer in the fast profile, with the real
# memcmp behind it another 8% (fuzz/README.md, "2026-12-07"). Like comparison tracing, which the
# fast profile already leaves out (`--no-trace-compares`), it feeds libFuzzer the values a
# comparison wanted; the standard profile (CI, ClusterFuzzLite) keeps both.
#
# libfuzzer-sys links this archive instead of building its own when CUSTOM_LIBFUZZER_PATH names
# it. Needs a C++ compiler ($CXX, else c++), which libfuzzer-sys needs anyway.
set -euo pipefail
cd "$(dirname "$0")"
out="$PWD/target/fast/libfuzzer-no-interceptors"
lib="$out/libfuzzer.a"
# (`sed -n`, not `head`, takes the first match: it reads to the end, so nothing before it in the
# pipe is cut off, which pipefail would count as a failure.)
manifest=$(cargo metadata --locked --format-version 1 2>/dev/null \
    | grep -o '"manifest_path":"[^"]*/libfuzzer-sys-[0-9][^"]*/Cargo.toml"' \
    | sed -n '1{s/^"manifest_path":"//; s/"$//; p}')
[ -n "$manifest" ] || { echo "fast-libfuzzer.sh: libfuzzer-sys not found by cargo metadata" >&2; exit 1; }
src="$(dirname "$manifest")/libfuzzer"
# Rebuilt when libfuzzer-sys's version changes (its source path names the version).
if [ ! -f "$lib" ] || [ "$(cat "$out/source" 2>/dev/null)" != "$src" ]; then
    rm -rf "$out" && mkdir -p "$out/obj"
    find "$src" -maxdepth 1 -name 'Fuzzer*.cpp' ! -name FuzzerInterceptors.cpp -print0 \
        | xargs -0 -P "$(nproc 2>/dev/null || echo 2)" -I{} sh -c \
            '"${CXX:-c++}" -c -O2 -std=c++17 -fno-omit-frame-pointer -fPIC -w "$1" -o "$2/$(basename "$1" .cpp).o"' \
            _ {} "$out/obj"
    ar rcs "$lib" "$out"/obj/*.o
    echo "$src" > "$out/source"
fi
echo "$lib"
