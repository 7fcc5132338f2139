#!/usr/bin/env python3
"""Checks the public API (docs/api.md): every entry point of cmake/PublicHeaders.cmake exists and
is named in docs/api.md, and docs/api.md names no header that is not installed (an entry point or
one they include). Usage: check_public_api.py [SOURCE_DIR]; prints each problem and exits 1."""
import os
import re
import sys


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    cmake = open(os.path.join(root, "cmake", "PublicHeaders.cmake")).read()
    cmake = "\n".join(line.split("#")[0] for line in cmake.splitlines())
    block = cmake[cmake.index("set(QUASIDYN_PUBLIC_HEADERS"):]
    block = block[:block.index(")")]
    public = re.findall(r"(quasidyn/\S+\.h)", block)
    installed, work = set(), list(public)
    problems = []
    while work:
        header = work.pop()
        if header in installed:
            continue
        path = os.path.join(root, "src", header)
        if not os.path.isfile(path):
            problems.append(f"cmake/PublicHeaders.cmake: {header} does not exist")
            continue
        installed.add(header)
        for line in open(path):
            m = re.match(r'\s*#\s*include\s+"(quasidyn/[^"]+)"', line)
            if m:
                work.append(m.group(1))
    doc = open(os.path.join(root, "docs", "api.md")).read()
    for header in public:
        if f"`{header}`" not in doc and header.split("/")[-1] not in doc:
            problems.append(f"docs/api.md: the entry point {header} is not documented")
    for header in re.findall(r"`(quasidyn/[^`]+\.h)`", doc):
        if header not in installed:
            problems.append(f"docs/api.md: {header} is not installed (cmake/PublicHeaders.cmake)")
    for p in problems:
        print(p)
    print(f"public API: {len(public)} entry points, {len(installed)} headers installed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
