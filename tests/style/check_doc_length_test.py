#!/usr/bin/env python3
"""check_doc_length.py fails on a page one line over the limit and passes at the limit."""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_doc_length  # noqa: E402


def status(lines):
    with tempfile.TemporaryDirectory() as root:
        os.makedirs(os.path.join(root, "docs"))
        with open(os.path.join(root, "docs", "page.md"), "w", encoding="utf-8") as handle:
            handle.write("line\n" * lines)
        return subprocess.run([sys.executable, os.path.join(HERE, "check_doc_length.py"), root],
                              capture_output=True, text=True).returncode


def main():
    limit = check_doc_length.MAX_LINES
    if status(limit) != 0 or status(limit + 1) != 1:
        sys.exit(f"check_doc_length_test: {limit} lines must pass and {limit + 1} fail "
                 f"(got {status(limit)} and {status(limit + 1)})")
    print(f"check_doc_length_test: {limit} lines pass, {limit + 1} fail")


if __name__ == "__main__":
    main()
