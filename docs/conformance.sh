#!/usr/bin/env bash
# Regenerates docs/conformance.html, the conformance page of the engines the project checks: the
# reference engine (`mtg-oracle serve`, seed 1) and phase.rs in scripted and in free mode, each
# over every bundled scenario (against its baseline, so known failures are marked as known).
#
#   docs/conformance.sh [PYTHON]
#
# PYTHON: an interpreter with engines/phase/requirements.txt installed (default: python3).
# ORACLE=path/to/mtg-oracle uses that oracle binary as it is; without it the oracle is built first.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-python3}"
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
"$oracle" report "$tmp/reference.json" "$tmp/phase-scripted.json" "$tmp/phase-free.json" --html docs/conformance.html
