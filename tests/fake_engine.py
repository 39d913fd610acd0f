#!/usr/bin/env python3
"""A misbehaving engine for the tests of `mtg-oracle check`.

Arguments are BEHAVIOUR=TEXT pairs: the behaviour applies to `run` messages whose scenario id
contains TEXT. Behaviours: crash (exit 3 after a stderr line), hang (sleep), garbage (a line that
isn't JSON), binary (a line that isn't UTF-8), wrong-ids (an outcome naming a card the scenario doesn't have), error (an `error`
answer), extra-field (the delegate's answer with an unknown field added), wrong-seq (the answer
with another seq), strip-known (the delegate's answer without `known`), strip-library-top (without
`searched.library_top`), no-such-choice (a `no_such_choice` answer for scripted decision 0).
`hello=garbage|hang|exit|v3` misbehaves at the greeting instead; `observables=A,B` declares in
`hello` (protocol 2) that only those observables are reported (`observables=` for none).
`delegate=PATH` forwards every other scenario to `PATH serve --seed 1` (the reference engine);
without it, every other scenario is answered `unsupported`.
"""
import json
import subprocess
import sys
import time

rules = [a.split("=", 1) for a in sys.argv[1:]]
hello = next((v for k, v in rules if k == "hello"), None)
delegate_path = next((v for k, v in rules if k == "delegate"), None)
observables = next((v for k, v in rules if k == "observables"), None)
delegate = None
if delegate_path:
    delegate = subprocess.Popen([delegate_path, "serve", "--seed", "1"], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def ask_delegate(line):
    delegate.stdin.write(line)
    delegate.stdin.flush()
    return json.loads(delegate.stdout.readline())


print("fake engine: started", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "stop":
        break
    if kind == "start":
        if hello == "garbage":
            print("Welcome to FakeEngine 1.0!", flush=True)
        elif hello == "hang":
            time.sleep(60)
        elif hello == "exit":
            print("fake engine: refusing to start", file=sys.stderr, flush=True)
            sys.exit(1)
        else:
            greeting = {"type": "hello", "protocol": 3 if hello == "v3" else 1,
                        "engine": {"name": "fake", "version": "0.0"}}
            if observables is not None:
                greeting["protocol"] = 2
                greeting["supports"] = {"observables": [o for o in observables.split(",") if o]}
            send(greeting)
        continue
    seq, scenario_id = message["seq"], message["id"]
    behaviour = next((k for k, v in rules if k not in ("hello", "delegate", "observables") and v in scenario_id),
                     None)
    if behaviour == "crash":
        print(f"fake engine: boom in {scenario_id}", file=sys.stderr, flush=True)
        sys.exit(3)
    elif behaviour == "hang":
        time.sleep(60)
    elif behaviour == "garbage":
        print("Traceback (most recent call last): <not json>", flush=True)
    elif behaviour == "binary":
        sys.stdout.buffer.write(b"\xff\xfe\x00 not text\n")
        sys.stdout.flush()
    elif behaviour == "wrong-ids":
        send({"type": "result", "seq": seq, "outcome": {"zones": {"exile": ["no-such-card"]}}})
    elif behaviour == "error":
        send({"type": "error", "seq": seq, "message": "fake engine: not today"})
    elif behaviour == "wrong-seq":
        send({"type": "unsupported", "seq": seq + 100, "reason": "off by a hundred"})
    elif behaviour == "extra-field" and delegate:
        answer = ask_delegate(line)
        answer["engine_note"] = "an extension field"
        send(answer)
    elif behaviour == "strip-known" and delegate:
        answer = ask_delegate(line)
        answer["outcome"].pop("known", None)
        send(answer)
    elif behaviour == "strip-library-top" and delegate:
        answer = ask_delegate(line)
        for event in answer["outcome"]["events"]:
            event.pop("library_top", None)
        send(answer)
    elif behaviour == "no-such-choice":
        send({"type": "no_such_choice", "seq": seq, "decision": 0,
              "message": "this engine always takes every copy"})
    elif delegate:
        send(ask_delegate(line))
    else:
        send({"type": "unsupported", "seq": seq, "reason": "fake engine handles nothing",
              "link": "https://example.org/fake/1"})
