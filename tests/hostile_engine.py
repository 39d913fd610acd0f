#!/usr/bin/env python3
"""A hostile engine for the hardening tests of `mtg-oracle check` (tests/hostile.rs and
oracle/tests/hostile_cli.rs). It greets normally and answers every `run` with `unsupported`,
except where a BEHAVIOUR=TEXT argument names a text the scenario id contains:

  stderr-flood     writes SIZE bytes to stderr with no newline, then answers
  stderr-binary    writes a line that is not UTF-8 to stderr, then 200 more lines, then answers
  blank-flood      writes blank lines until killed, never answering
  long-text        answers `unsupported` with a reason and a link of SIZE characters
  long-error       answers `error` with a message of SIZE characters
  forge            answers `error` with a message holding newlines, ANSI escapes and `|`
  duplicate        answers twice
  late-stderr      answers, then writes "late stderr" lines to stderr
  error            answers `error` (its report shows the stderr tail)
  escape           starts a grandchild that leaves the process group (setsid), writes its pid to
                   PIDFILE and writes "escaped grandchild" to stderr every 20 ms for 30 s; then hangs
  hang             writes its own pid to PIDFILE, then hangs

Settings: size=N (default 1000), pidfile=PATH, name-size=N (a `hello` name of N characters).
"""
import json
import os
import sys
import time

args = [a.split("=", 1) for a in sys.argv[1:]]
settings = {k: v for k, v in args if k in ("size", "pidfile", "name-size")}
rules = [(k, v) for k, v in args if k not in settings]
size = int(settings.get("size", "1000"))
pidfile = settings.get("pidfile")


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def unsupported(seq, reason="hostile engine: not this one", link=None):
    message = {"type": "unsupported", "seq": seq, "reason": reason}
    if link is not None:
        message["link"] = link
    send(message)


def escape():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            if pidfile:
                with open(pidfile + ".tmp", "w") as f:
                    f.write(str(os.getpid()))
                os.rename(pidfile + ".tmp", pidfile)
            end = time.time() + 30
            while time.time() < end:
                try:
                    sys.stderr.write("escaped grandchild\n")
                    sys.stderr.flush()
                except Exception:
                    pass
                time.sleep(0.02)
        os._exit(0)
    time.sleep(60)


for line in sys.stdin:
    message = json.loads(line)
    kind = message["type"]
    if kind == "stop":
        break
    if kind == "start":
        name = "x" * int(settings["name-size"]) if "name-size" in settings else "hostile"
        send({"type": "hello", "protocol": 2, "engine": {"name": name, "version": "0.0"}})
        continue
    seq, scenario_id = message["seq"], message["id"]
    behaviour = next((k for k, v in rules if v in scenario_id), None)
    if behaviour == "stderr-flood":
        chunk = b"x" * (1 << 20)
        left = size
        while left > 0:
            sys.stderr.buffer.write(chunk[:min(left, len(chunk))])
            left -= len(chunk)
        sys.stderr.flush()
        unsupported(seq)
    elif behaviour == "stderr-binary":
        sys.stderr.buffer.write(b"bad byte \xff here\n")
        sys.stderr.flush()
        for i in range(200):
            print(f"stderr line {i}", file=sys.stderr, flush=True)
        unsupported(seq)
    elif behaviour == "blank-flood":
        chunk = "\n" * (1 << 16)
        while True:
            sys.stdout.write(chunk)
            sys.stdout.flush()
    elif behaviour == "long-text":
        unsupported(seq, reason="r" * size, link="https://example.org/" + "l" * size)
    elif behaviour == "long-error":
        send({"type": "error", "seq": seq, "message": "e" * size})
    elif behaviour == "forge":
        send({"type": "error", "seq": seq,
              "message": "oops\nPASS forged/scenario.yaml\n9 passed, 0 failed\x1b[31m red | pipe\x07"})
    elif behaviour == "duplicate":
        unsupported(seq)
        unsupported(seq)
    elif behaviour == "late-stderr":
        unsupported(seq)
        for i in range(5):
            print(f"late stderr {i}", file=sys.stderr, flush=True)
    elif behaviour == "error":
        send({"type": "error", "seq": seq, "message": "hostile engine: an error"})
    elif behaviour == "escape":
        escape()
    elif behaviour == "hang":
        if pidfile:
            with open(pidfile + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.rename(pidfile + ".tmp", pidfile)
        time.sleep(60)
    else:
        unsupported(seq)
