#!/usr/bin/env python3
"""No page of docs/ is longer than a reader takes in one sitting (issue 67): at most MAX_LINES
lines. A page that grows past it is split along a seam or has its history moved to CHANGELOG.md.
Usage: check_doc_length.py [SOURCE_DIR]; prints each page over the limit and exits 1."""
import glob
import os
import sys

MAX_LINES = 600


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(
        os.path.dirname(os.path.abspath(__file__))))
    long_pages = []
    for path in sorted(glob.glob(os.path.join(root, "docs", "*.md"))):
        with open(path, encoding="utf-8") as handle:
            count = sum(1 for _ in handle)
        if count > MAX_LINES:
            long_pages.append((os.path.relpath(path, root), count))
    for page, count in long_pages:
        print(f"{page}: {count} lines, more than {MAX_LINES}: split it or move its history to "
              "CHANGELOG.md")
    if long_pages:
        return 1
    print(f"check_doc_length: every page of docs/ has at most {MAX_LINES} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
