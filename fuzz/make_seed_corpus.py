#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpus (fuzz_scene_input.h format) into OUT: every example
scene, with its first model file (URDF, SDF or MJCF) appended after "--- urdf" and referenced
as robot.urdf (the loaders read a file by its scene key, whatever its name), every scene of
tests/data/bad_scenes (each one defect the loader must report), and every input of
tests/data/fuzz_regressions (the fuzzers' past findings, each run first by every bounded run).

  fuzz/make_seed_corpus.py OUT
"""

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SEPARATOR = "\n--- urdf\n"


def main() -> int:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for scene in sorted(ROOT.glob("examples/*/scene.yaml")) + sorted(
            ROOT.glob("tests/data/bad_scenes/*.yaml")):
        text = scene.read_bytes().decode("utf-8", "surrogateescape")
        model = re.search(r"(?:urdf|sdf|mjcf):\s*([^\s,}]+)", text)
        seed = text
        if model and (scene.parent / model.group(1)).is_file():
            seed = text.replace(model.group(1), "robot.urdf") + SEPARATOR + (
                scene.parent / model.group(1)).read_text()
        name = f"{scene.parent.name}_{scene.stem}"
        (out / name).write_bytes(seed.encode("utf-8", "surrogateescape"))
        count += 1
    for finding in sorted((ROOT / "tests/data/fuzz_regressions").glob("*.yaml")):
        (out / f"regression_{finding.name}").write_bytes(finding.read_bytes())
        count += 1
    print(f"{count} seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
