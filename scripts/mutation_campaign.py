#!/usr/bin/env python3
"""Hostile-input campaign against the CLI: mutates the example scenes and URDF and runs
`quasidyn info` and a few steps of `quasidyn simulate` on every mutant.

A mutant may be rejected (exit 2 with a message), accepted (exit 0), or run with a step that
reports a failure status (exit 3, `simulate`); a finding is a signal
(crash, abort), a hang (no exit within the time limit), any other exit code, or an error
message without a `file:line:` prefix when the defect is in the scene file. Findings are
copied to OUT/findings/ with the command that shows them.

  scripts/mutation_campaign.py build/release/quasidyn --mutants 500 --seed 1 --out /tmp/campaign

The test suite runs it small and strict (ctest cli.mutation_campaign: 6 mutants per example,
any finding or error without file:line fails).
"""

import argparse
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FORMULATIONS = ["qp", "socp", "log-barrier", "log-barrier-cone", "lcp"]
# Subnormal and huge values (near the scene files' limit ±1e12, io/loader_limits.h).
SUBNORMAL_AND_HUGE = ["5e-324", "1e-310", "1.1125369292536007e-308", "1e-300", "1e300",
                      "1e12", "-1e12", "1.0000001e12", "9.9999999e11"]
# The YAML keys (and URDF attributes) that hold a positive physical input, and the name of its
# range in src/quasidyn/model/physical_ranges.h, the one declaration of the ranges.
RANGED_KEYS = {"time_step": "kTimeStepRange", "duration": "kDurationRange", "h": "kTimeStepRange",
               "mass": "kMassRange", "value": "kMassRange", "principal": "kInertiaRange",
               "ixx": "kInertiaRange", "iyy": "kInertiaRange", "izz": "kInertiaRange",
               "stiffness": "kStiffnessRange", "damping": "kDampingRange",
               "contact_tolerance": "kContactToleranceRange", "friction": "kFrictionRange",
               "kappa": "kKappaRange", "object_mass_scale": "kMassScaleRange",
               "unactuated_mass_scale": "kMassScaleRange", "e_t": "kEllipsoidRatioRange",
               "e_o": "kEllipsoidRatioRange", "e_r": "kEllipsoidRadiusRange",
               "c": "kFeedbackScaleRange", "tracking_gain": "kTrackingGainRange"}


def declared_ranges() -> dict:
    """{name: (min, max)} of every range of physical_ranges.h."""
    text = (ROOT / "src/quasidyn/model/physical_ranges.h").read_text()
    found = re.findall(r"PhysicalRange (k\w+)\{\s*\"[^\"]*\",\s*\"[^\"]*\",\s*([^,]+),\s*([^,]+),",
                       text)
    return {name: (float(lo), float(hi)) for name, lo, hi in found}


RANGES = declared_ranges()


def near_limits(lo: float, hi: float) -> list:
    """Just inside and just outside each bound (1e-9 relative), the bounds, 0 and -lo."""
    return [repr(x) for x in (lo, hi, lo * (1 + 1e-9), lo * (1 - 1e-9), hi * (1 - 1e-9),
                              hi * (1 + 1e-9), lo / 10, hi * 10, 0.0, -lo)]


NEAR_LIMITS = sorted({v for lo, hi in RANGES.values() for v in near_limits(lo, hi)})


def mutate_ranged_number(text: str, rng: random.Random) -> str:
    """Writes a subnormal, huge or near-limit value into a number: one of a ranged key (its own
    range's near-limit values) when the file has one, else any number."""
    keyed = [m for m in re.finditer(r"\b(\w+)(:\s*\[?\s*|=\")(-?\d+(\.\d+)?(e-?\d+)?)", text)
             if m.group(1) in RANGED_KEYS]
    numbers = list(re.finditer(r"-?\d+(\.\d+)?(e-?\d+)?", text))
    if keyed and rng.random() < 0.7:
        m = rng.choice(keyed)
        lo, hi = RANGES[RANGED_KEYS[m.group(1)]]
        value = rng.choice(near_limits(lo, hi) + SUBNORMAL_AND_HUGE)
        return text[: m.start(3)] + value + text[m.end(3):]
    if numbers:
        m = rng.choice(numbers)
        value = rng.choice(NEAR_LIMITS + SUBNORMAL_AND_HUGE)
        return text[: m.start()] + value + text[m.end():]
    return text


EXTREMES = ["0", "-0", "-1", "1e-320", "1e-170", "1e200", "1e308", "-1e308", "nan", ".inf",
            "-.inf", "2147483647", "-2147483648", "99999999999999999999", "0x10", "1e5", "''"]


def mutate_text(text: str, rng: random.Random) -> str:
    lines = text.split("\n")
    kind = rng.randrange(9)
    if kind >= 7:  # subnormal, huge or near a declared range's limit (model/physical_ranges.h)
        return mutate_ranged_number(text, rng)
    if kind == 0:  # replace one number with an extreme value
        numbers = list(re.finditer(r"-?\d+(\.\d+)?(e-?\d+)?", text))
        if numbers:
            m = rng.choice(numbers)
            return text[: m.start()] + rng.choice(EXTREMES) + text[m.end():]
    if kind == 1 and lines:  # delete a line
        del lines[rng.randrange(len(lines))]
    elif kind == 2 and lines:  # duplicate a line
        i = rng.randrange(len(lines))
        lines.insert(i, lines[i])
    elif kind == 3 and text:  # flip a byte
        data = bytearray(text.encode("utf-8", "surrogateescape"))
        data[rng.randrange(len(data))] = rng.randrange(256)
        return data.decode("utf-8", "surrogateescape")
    elif kind == 4 and text:  # truncate
        return text[: rng.randrange(len(text))]
    elif kind == 5 and lines:  # swap two lines
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == 6 and lines:  # repeat a line's text many times
        i = rng.randrange(len(lines))
        lines[i] = lines[i] * rng.choice([2, 100, 5000])
    return "\n".join(lines)


def run(command, timeout):
    try:
        p = subprocess.run(command, capture_output=True, timeout=timeout,
                           errors="surrogateescape", text=True)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("quasidyn", help="the quasidyn executable")
    parser.add_argument("--mutants", type=int, default=200, help="mutants per example")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per run")
    parser.add_argument("--out", type=Path, required=True, help="work folder (emptied)")
    parser.add_argument("--strict", action="store_true",
                        help="also fail on errors without file:line (the test suite's run)")
    args = parser.parse_args()

    rng = random.Random(args.seed)
    shutil.rmtree(args.out, ignore_errors=True)
    (args.out / "findings").mkdir(parents=True)
    counts = {"runs": 0, "accepted": 0, "rejected": 0, "failed_step": 0, "findings": 0,
              "no_line": 0}
    examples = sorted(p for p in (ROOT / "examples").iterdir() if (p / "scene.yaml").exists())
    for example in examples:
        targets = [example / "scene.yaml"] + sorted(example.glob("models/*.urdf"))
        for k in range(args.mutants):
            work = args.out / "work"
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(example, work)
            target = rng.choice(targets)
            mutant = work / target.relative_to(example)
            text = target.read_text()
            for _ in range(rng.choice([1, 1, 2, 3])):
                text = mutate_text(text, rng)
            mutant.write_text(text, errors="surrogateescape")
            scene = str(work / "scene.yaml")
            formulation = rng.choice(FORMULATIONS)
            for command in ([args.quasidyn, "info", scene],
                            [args.quasidyn, "simulate", scene, "--steps", "3", "--quiet",
                             "--formulation", formulation]):
                code, stderr = run(command, args.timeout)
                counts["runs"] += 1
                if code == 0:
                    counts["accepted"] += 1
                    continue
                if code == 3 and command[1] == "simulate" and stderr.strip():
                    counts["failed_step"] += 1
                    continue
                if code == 2 and stderr.strip():
                    counts["rejected"] += 1
                    whole_file = "bytes; at most" in stderr  # the file-size limit has no line
                    # A defect in the scene names the scene's line; one in a model file
                    # names the model file's line or, where its parser gives none, the
                    # scene's line of the key that loads it.
                    located = (re.search(r"\.yaml:\d+:", stderr) if target.suffix == ".yaml"
                               else re.search(r"\.(urdf|sdf|xml|yaml):\d+:", stderr))
                    if not whole_file and not located:
                        counts["no_line"] += 1
                        print(f"no line: {example.name}_{k}_{command[1]}: {stderr.strip()[:300]}",
                              flush=True)
                        saved = args.out / "no_line" / f"{example.name}_{k}_{command[1]}"
                        shutil.copytree(work, saved)
                        (saved / "COMMAND.txt").write_text(" ".join(command[1:]) + "\n" + stderr)
                    continue
                counts["findings"] += 1
                name = f"{example.name}_{k}_{command[1]}"
                saved = args.out / "findings" / name
                shutil.copytree(work, saved)
                (saved / "FINDING.txt").write_text(
                    f"exit {code}\ncommand: {' '.join(command[1:])}\nmutated: "
                    f"{target.relative_to(example)}\n{stderr[-4000:]}\n",
                    errors="surrogateescape")
                print(f"finding: {name}: exit {code}", flush=True)
    shutil.rmtree(args.out / "work", ignore_errors=True)
    print(" ".join(f"{k}={v}" for k, v in counts.items()))
    return 1 if counts["findings"] or (args.strict and counts["no_line"]) else 0


if __name__ == "__main__":
    sys.exit(main())
