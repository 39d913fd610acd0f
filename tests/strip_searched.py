#!/usr/bin/env python3
"""The reference engine as an engine that logs no searches, to measure what the judge loses
without the `searched` observable.

Usage: python3 tests/strip_searched.py PATH/TO/mtg-oracle [MUTANT]

Runs `mtg-oracle serve --seed 1 [--mutant MUTANT]`, declares in `hello` every observable but
`searched`, and removes the `searched` events from each result. For example:

    mtg-oracle check --engine "python3 tests/strip_searched.py target/release/mtg-oracle"
    for m in $(mtg-oracle mutants --list | cut -d' ' -f1); do
        mtg-oracle check -q --engine "python3 tests/strip_searched.py target/release/mtg-oracle $m" | tail -1
    done
"""
import json
import subprocess
import sys

OBSERVABLES = ["known", "library_top", "moves_within_library", "looked_at", "revealed_empty", "trigger_kind"]

args = [sys.argv[1], "serve", "--seed", "1"] + (["--mutant", sys.argv[2]] if len(sys.argv) > 2 else [])
reference = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
for line in iter(sys.stdin.readline, ""):
    reference.stdin.write(line)
    reference.stdin.flush()
    if json.loads(line)["type"] == "stop":
        break
    answer = json.loads(reference.stdout.readline())
    if answer.get("type") == "hello":
        answer["protocol"] = 2
        answer.setdefault("supports", {})["observables"] = OBSERVABLES
    elif answer.get("type") == "result":
        events = answer["outcome"].get("events", [])
        answer["outcome"]["events"] = [e for e in events if e.get("event") != "searched"]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
