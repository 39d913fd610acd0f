#!/usr/bin/env python3
"""A misbehaving engine for the tests of `mtg-oracle check`.

Arguments are BEHAVIOUR=TEXT pairs: the behaviour applies to `run` messages whose scenario id
contains TEXT. Behaviours: crash (exit 3 after a stderr line), hang (sleep), garbage (a line that
isn't JSON), binary (a line that isn't UTF-8), wrong-ids (an outcome naming a card the scenario doesn't have), error (an `error`
answer), extra-field (the delegate's answer with an unknown field added), wrong-seq (the answer
with another seq). `hello=garbage|hang|exit|v3` misbehaves at the greeting instead.
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
            send({"type": "hello", "protocol": 3 if hello == "v3" else 1,
                  "engine": {"name": "fake", "version": "0.0"}})
        continue
    seq, scenario_id = message["seq"], message["id"]
    behaviour = next((k for k, v in rules if k not in ("hello", "delegate") and v in scenario_id), None)
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
    elif delegate:
        send(ask_delegate(line))
    else:
        send({"type": "unsupported", "seq": seq, "reason": "fake engine handles nothing",
              "link": "https://example.org/fake/1"})
