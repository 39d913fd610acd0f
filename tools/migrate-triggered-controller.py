#!/usr/bin/env python3
"""Rewrites `triggered` event assertions from the old meaning of `player` to `controller`.

Before, `events: {kind: triggered, player: X}` matched abilities *controlled* by X; now `player`
on `triggered` is the player whose action triggered the ability (the outcome JSON's `player`) and
the controller is `controller:`. The oracle refuses to load a `triggered` assertion that names
`player` without `controller`, so an old file can't silently change meaning; this script renames
`player` to `controller` in every such assertion, keeping the rest of the file byte for byte.

Usage: tools/migrate-triggered-controller.py FILE_OR_DIR...   (prints each file it rewrites)
Handles flow mappings (`{kind: triggered, player: Bob, ...}`, any key order) and block mappings
(`kind: triggered` and `player: Bob` as sibling keys at one indentation).
"""

import re
import sys
from pathlib import Path

FLOW = re.compile(r"\{[^{}]*\}")
KEY = re.compile(r"(?<=[{,])(\s*)player(\s*):")


def migrate_flow(text: str) -> str:
    def fix(m: re.Match) -> str:
        body = m.group(0)
        if not re.search(r"[{,]\s*kind\s*:\s*triggered\s*[,}]", body):
            return body
        if re.search(r"[{,]\s*controller\s*:", body):
            return body
        return KEY.sub(r"\1controller\2:", body, count=1)

    return FLOW.sub(fix, text)


def migrate_block(text: str) -> str:
    lines = text.split("\n")
    # Group sibling keys: lines with the same indentation under one `events:` parent.
    for i, line in enumerate(lines):
        m = re.match(r"^(\s*)kind:\s*triggered\s*(#.*)?$", line)
        if not m:
            continue
        indent = m.group(1)
        siblings = []
        for j in range(i - 1, -1, -1):  # keys above, up to the parent line
            if re.match(rf"^{indent}\w+\s*:", lines[j]):
                siblings.append(j)
            else:
                break
        for j in range(i + 1, len(lines)):  # keys below
            if re.match(rf"^{indent}\w+\s*:", lines[j]):
                siblings.append(j)
            else:
                break
        if any(re.match(rf"^{indent}controller\s*:", lines[j]) for j in siblings):
            continue
        for j in siblings:
            if re.match(rf"^{indent}player\s*:", lines[j]):
                lines[j] = lines[j].replace("player", "controller", 1)
    return "\n".join(lines)


def main(args: list[str]) -> int:
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    files = []
    for a in args:
        p = Path(a)
        files.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    for f in files:
        text = f.read_text()
        new = migrate_block(migrate_flow(text))
        if new != text:
            f.write_text(new)
            print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
