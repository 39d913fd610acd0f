#!/usr/bin/env bash
# Times the manabrew adapter against the oracle's reference engine (`mtg-oracle serve`) on the same
# scenarios: the `run` messages `mtg-oracle check` sends (captured once), restricted to the scenarios
# the adapter runs (it answers `result` or `no_such_choice`), replayed into each engine N times.
# Prints seconds per batch and milliseconds per scenario. Needs both release binaries built.
# Usage: engines/manabrew/timing.sh [N]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
runs="${1:-5}"
oracle="$root/target/release/mtg-oracle"
adapter="$here/target/release/manabrew-adapter"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
printf '#!/bin/sh\ntee "%s/in.jsonl" | "%s"\n' "$tmp" "$adapter" > "$tmp/tee.sh"
chmod +x "$tmp/tee.sh"
(cd "$root" && "$oracle" check -q --engine "$tmp/tee.sh" > /dev/null 2>&1 || true)
"$adapter" < "$tmp/in.jsonl" > "$tmp/answers.jsonl" 2> /dev/null
python3 - "$tmp" <<'PY'
import json, sys
tmp = sys.argv[1]
sent = [json.loads(l) for l in open(f"{tmp}/in.jsonl")]
answers = {m["seq"]: m["type"] for m in map(json.loads, open(f"{tmp}/answers.jsonl")) if "seq" in m}
ran = [m for m in sent if m["type"] == "run" and answers.get(m["seq"]) in ("result", "no_such_choice")]
start = next(m for m in sent if m["type"] == "start")
with open(f"{tmp}/ran.jsonl", "w") as f:
    for m in [start] + ran + [{"type": "stop"}]:
        f.write(json.dumps(m) + "\n")
print(f"{len(ran)} scenarios run by the adapter")
PY
n="$(($(wc -l < "$tmp/ran.jsonl") - 2))"
for name in manabrew-adapter "mtg-oracle serve"; do
    for _ in $(seq "$runs"); do
        start=$(date +%s.%N)
        if [ "$name" = manabrew-adapter ]; then
            "$adapter" < "$tmp/ran.jsonl" > /dev/null 2>&1
        else
            "$oracle" serve < "$tmp/ran.jsonl" > /dev/null 2>&1
        fi
        end=$(date +%s.%N)
        python3 -c "import sys; s=float(sys.argv[2])-float(sys.argv[1]); print(f'{sys.argv[3]}: {s:.3f} s, {1000*s/int(sys.argv[4]):.2f} ms per scenario')" "$start" "$end" "$name" "$n"
    done
done
