#!/usr/bin/env python3
"""The reproductions' check fails on a number that moved and passes again after regeneration
(issue 67). On a copy of repro/, scripts/reproductions.py and docs/reproductions.md:
  1. as checked in: the gripper source's values and the page pass;
  2. one recorded value changed (as if the code had moved it): the source's check fails naming the
     value, and the page no longer equals its rendering;
  3. after `regenerate --source gripper`: both pass again;
  4. a number of the page edited by hand: the page check fails.
Usage: check_test.py BUILD_DIR (the folder with gripper_figures)."""
import json
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def run(root, build, *arguments):
    return subprocess.run(["/usr/bin/python3", os.path.join(root, "scripts", "reproductions.py"),
                           *arguments, "--build", build], cwd=root, capture_output=True, text=True)


def expect(done, status, text, what):
    output = done.stdout + done.stderr
    if done.returncode != status or text not in output:
        sys.exit(f"check_test: {what}: expected exit {status} and {text!r}, got exit "
                 f"{done.returncode}:\n{output}")
    print(f"check_test: {what}: exit {done.returncode} as expected")


def main():
    build = os.path.abspath(sys.argv[1])
    with tempfile.TemporaryDirectory(prefix="repro-check-") as root:
        shutil.copytree(os.path.join(ROOT, "repro"), os.path.join(root, "repro"),
                        ignore=shutil.ignore_patterns("__pycache__"))
        os.makedirs(os.path.join(root, "scripts"))
        os.makedirs(os.path.join(root, "docs"))
        shutil.copy(os.path.join(ROOT, "scripts", "reproductions.py"), os.path.join(root, "scripts"))
        shutil.copy(os.path.join(ROOT, "docs", "reproductions.md"), os.path.join(root, "docs"))
        expect(run(root, build, "check", "--source", "gripper"), 0, "as recorded", "as checked in")
        expect(run(root, build, "page", "--check"), 0, "as rendered", "the page as checked in")

        values = os.path.join(root, "repro", "values", "gripper.json")
        with open(values, encoding="utf-8") as handle:
            record = json.load(handle)
        key = sorted(k for k, v in record["values"].items() if isinstance(v, float))[0]
        record["values"][key] *= 1.5
        with open(values, "w", encoding="utf-8") as handle:
            json.dump(record, handle, indent=1, sort_keys=True)
        expect(run(root, build, "check", "--source", "gripper"), 1, f"gripper.{key}: recorded",
               "a recorded value changed")
        expect(run(root, build, "page", "--check"), 1, "differs from its rendering",
               "the page after a value changed")

        expect(run(root, build, "regenerate", "--source", "gripper"), 0, "wrote docs/",
               "regenerated")
        expect(run(root, build, "check", "--source", "gripper"), 0, "as recorded",
               "the check after regeneration")
        expect(run(root, build, "page", "--check"), 0, "as rendered",
               "the page after regeneration")

        page = os.path.join(root, "docs", "reproductions.md")
        with open(page, encoding="utf-8") as handle:
            text = handle.read()
        edited = text.replace("c_n1 = 10.0 N (LCP)", "c_n1 = 10.5 N (LCP)", 1)
        if edited == text:
            sys.exit("check_test: the page has no 'c_n1 = 10.0 N (LCP)' (row PT9) to edit")
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(edited)
        expect(run(root, build, "page", "--check"), 1, "differs from its rendering",
               "a number of the page edited by hand")
    print("check_test: passed")


if __name__ == "__main__":
    main()
