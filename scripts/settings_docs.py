#!/usr/bin/env python3
"""Writes the settings tables of the docs from the settings' declarations.

Usage: scripts/settings_docs.py QUASIDYN [--check]

Every region of docs/*.md between a line `<!-- settings: BLOCK -->` and the next line
`<!-- end settings -->` is replaced by `QUASIDYN settings BLOCK --markdown` (each block's
settings as their schema declares them: key, flag, keyword, type, unit, range, default, doc).
With --check nothing is written: the exit status is 1 and the stale regions are named when a
table differs from what the program prints (ctest docs.settings runs it so).
"""

import argparse
import glob
import os
import re
import subprocess
import sys

START = re.compile(r"^<!-- settings: ([a-z_]+) -->$")
END = "<!-- end settings -->"


def table(quasidyn, block):
    return subprocess.run([quasidyn, "settings", block, "--markdown"], check=True,
                          capture_output=True, text=True).stdout


def regenerate(path, quasidyn):
    """The file's text with its regions regenerated, and the blocks found."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out, blocks, i = [], [], 0
    while i < len(lines):
        out.append(lines[i])
        match = START.match(lines[i])
        i += 1
        if not match:
            continue
        end = i
        while end < len(lines) and lines[end] != END:
            end += 1
        if end == len(lines):
            sys.exit(f"{path}: '{lines[i - 1]}' has no '{END}' after it")
        blocks.append(match.group(1))
        out += table(quasidyn, match.group(1)).rstrip("\n").split("\n")
        out.append(END)
        i = end + 1
    return "\n".join(out), blocks


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("quasidyn", help="the quasidyn program")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args()
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    stale, found = [], 0
    for path in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(path, encoding="utf-8") as f:
            before = f.read()
        after, blocks = regenerate(path, args.quasidyn)
        found += len(blocks)
        if after == before:
            continue
        name = os.path.relpath(path, root)
        if args.check:
            stale.append(f"{name} ({', '.join(blocks)})")
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(after)
            print(f"wrote {name} ({', '.join(blocks)})")
    if found == 0:
        sys.exit("settings_docs.py: no '<!-- settings: BLOCK -->' region in docs/*.md")
    if stale:
        sys.exit("settings tables out of date: " + "; ".join(stale) +
                 " (regenerate them: scripts/settings_docs.py build/release/quasidyn)")
    print(f"{found} settings tables up to date" if args.check else "done")


if __name__ == "__main__":
    main()
