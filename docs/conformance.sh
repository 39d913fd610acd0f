#!/usr/bin/env bash
# Regenerates docs/conformance.html, the conformance page of the engines the project checks: the
# reference engine (`mtg-oracle serve`, seed 1), phase.rs in scripted and in free mode and
# manabrew-engine in scripted and in free mode, each over every bundled scenario (against its
# baseline, so known failures are marked as known).
#
#   docs/conformance.sh [PYTHON]
#
# PYTHON: an interpreter with engines/phase/requirements.txt installed (default: python3).
# ORACLE=path/to/mtg-oracle uses that oracle binary as it is; without it the oracle is built first.
#
# manabrew (decision): its adapter is its own Cargo workspace with a 5-16 min clean build, so this
# script doesn't build it. When engines/manabrew/target/release/manabrew-adapter exists (and the
# Forge scripts are in ../shared/engines/forge-cards), manabrew is checked live like phase.rs.
# Otherwise the page gets manabrew's saved reports, engines/manabrew/report-scripted.json.gz and
# report-free.json.gz (`check --json` output, written by engines/manabrew/regenerate.sh together
# with the baselines, so they are as current as the baselines), and the script says so on stderr,
# with the saved runs' scenario count and revision and whether they are the scenarios of this run
# (scenarios added since then are missing from manabrew's columns until regenerate.sh is rerun). MANABREW=saved uses the saved reports even when the
# adapter is built; MANABREW=live refuses to fall back to them.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
# manabrew: live (its adapter is built) or from its saved reports; decided before any run.
manabrew=engines/manabrew/target/release/manabrew-adapter
live=0
if [ "${MANABREW:-auto}" != saved ] && [ -x "$manabrew" ] && [ -d ../shared/engines/forge-cards ]; then
    live=1
elif [ "${MANABREW:-auto}" = live ]; then
    echo "MANABREW=live: no $manabrew (build it: cd engines/manabrew && cargo build --release --locked)" \
        "or no Forge scripts in ../shared/engines/forge-cards" >&2
    exit 1
fi
oracle=target/release/mtg-oracle
[ -n "${ORACLE:-}" ] && oracle="$ORACLE" || cargo build --release --locked -q -p mtg-oracle
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The gates' exit statuses are ignored here: these runs record the results.
"$oracle" check -q --seed 1 --json "$tmp/reference.json" >/dev/null || true
"$oracle" check -q --validate --engine "$python engines/phase/adapter.py" \
    --baseline engines/phase/baseline.yaml --json "$tmp/phase-scripted.json" >/dev/null || true
"$oracle" check -q --validate --mode free --engine "$python engines/phase/adapter.py" \
    --baseline engines/phase/baseline-free.yaml --json "$tmp/phase-free.json" >/dev/null || true

if [ "$live" = 1 ]; then
    "$oracle" check -q --validate --engine "$manabrew" \
        --baseline engines/manabrew/baseline.yaml --json "$tmp/manabrew-scripted.json" >/dev/null || true
    "$oracle" check -q --validate --mode free --engine "$manabrew" \
        --baseline engines/manabrew/baseline-free.yaml --json "$tmp/manabrew-free.json" >/dev/null || true
else
    for mode in scripted free; do
        gzip -dc "engines/manabrew/report-$mode.json.gz" > "$tmp/manabrew-$mode.json"
    done
    echo "manabrew: no adapter build at $manabrew (or MANABREW=saved); the page uses its saved" \
        "reports engines/manabrew/report-{scripted,free}.json.gz (from engines/manabrew/regenerate.sh)" >&2
    # Say whether they were run over the same scenarios as the other columns.
    python3 - "$tmp/reference.json" "$tmp/manabrew-scripted.json" "$tmp/manabrew-free.json" <<'PY' >&2
import json, sys
now = json.load(open(sys.argv[1]))["corpus"]
for path in sys.argv[2:]:
    saved = json.load(open(path))
    corpus = saved["corpus"]
    same = "the same scenarios as" if corpus["digest"] == now["digest"] else "NOT the scenarios of"
    print(f"  manabrew {saved['mode']}: {corpus['scenarios']} scenarios at {corpus['revision'][:10]}, "
          f"{same} this run ({now['scenarios']} at {now['revision'][:10]})")
PY
fi
"$oracle" report "$tmp/reference.json" "$tmp/phase-scripted.json" "$tmp/phase-free.json" \
    "$tmp/manabrew-scripted.json" "$tmp/manabrew-free.json" --html docs/conformance.html
