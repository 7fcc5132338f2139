#!/usr/bin/env python3
"""Checks the layering of src/quasidyn (docs/architecture.md, "Layers").

The layers and what each links come from the quasidyn_layer(<layer> DEPS ... TEST_DEPS ...)
calls of CMakeLists.txt, in order. The check fails when
  * a layer's DEPS name a layer declared after it (the order is bottom to top);
  * a source file of src/quasidyn/<layer>/ includes "quasidyn/<other>/..." where <other> is
    not <layer> and not reachable through DEPS (for *_test.cc files, DEPS and TEST_DEPS;
    every test may include quasidyn/testing/);
  * a header of src/quasidyn/testing/ is included by a library (non-test) source;
  * the test program of a layer that knows no formulation (files, io: a scene document is read
    without one, docs/architecture.md) links the formulations through its TEST_DEPS.
Usage: check_layers.py [SOURCE_DIR]; prints each violation as file:line and exits 1.
"""
import os
import re
import sys


def parse_layers(cmake_text):
    layers = []
    for match in re.finditer(r"quasidyn_layer\(\s*(\w+)([^)]*)\)", cmake_text):
        name, rest = match.group(1), match.group(2)
        words = rest.split()
        deps, test_deps, section = [], [], None
        for word in words:
            if word in ("DEPS", "TEST_DEPS", "SYSTEM_INCLUDES"):
                section = word
                continue
            target = re.fullmatch(r"quasidyn_(\w+)", word)
            if not target:
                continue
            if section == "DEPS":
                deps.append(target.group(1))
            elif section == "TEST_DEPS":
                test_deps.append(target.group(1))
        layers.append((name, deps, test_deps))
    return layers


def closure(layer, direct):
    seen, stack = set(), [layer]
    while stack:
        current = stack.pop()
        for dep in direct.get(current, []):
            if dep not in seen:
                seen.add(dep)
                stack.append(dep)
    return seen


# Layers whose test programs must not link the formulations (nor anything above them).
NO_FORMULATIONS_IN_TESTS = ("files", "io")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    with open(os.path.join(root, "CMakeLists.txt")) as f:
        layers = parse_layers(f.read())
    order = [name for name, _, _ in layers]
    direct = {name: deps for name, deps, _ in layers}
    problems = []
    for position, (name, deps, test_deps) in enumerate(layers):
        for dep in deps + test_deps:
            if dep not in order:
                problems.append(f"CMakeLists.txt: layer {name} depends on unknown layer {dep}")
            elif dep in deps and order.index(dep) >= position:
                problems.append(f"CMakeLists.txt: layer {name} depends on {dep}, declared after it")
    for name, deps, test_deps in layers:
        if name not in NO_FORMULATIONS_IN_TESTS:
            continue
        linked = set(deps)
        for dep in deps + test_deps:
            linked |= {dep} | closure(dep, direct)
        if "formulations" in linked:
            problems.append(f"CMakeLists.txt: the test program of layer {name} links the "
                            "formulations; it must read scenes without them")
    include = re.compile(r'^\s*#\s*include\s+"quasidyn/(\w+)/')
    for name, deps, test_deps in layers:
        folder = os.path.join(root, "src", "quasidyn", name)
        if not os.path.isdir(folder):  # a layer declared before its first file
            continue
        allowed = {name} | closure(name, direct)
        test_allowed = allowed | {"testing"}
        for dep in test_deps:
            test_allowed |= {dep} | closure(dep, direct)
        files = []
        for entry in sorted(os.listdir(folder)):  # the layer's folder and one level below
            sub = os.path.join(folder, entry)
            if os.path.isdir(sub):
                files += [os.path.join(entry, f) for f in sorted(os.listdir(sub))]
            else:
                files.append(entry)
        for file in files:
            if not file.endswith((".h", ".cc")):
                continue
            is_test = file.endswith("_test.cc")
            path = os.path.join(folder, file)
            with open(path, encoding="utf-8") as f:
                for number, line in enumerate(f, 1):
                    match = include.match(line)
                    if not match:
                        continue
                    other = match.group(1)
                    if other not in (test_allowed if is_test else allowed):
                        kind = "test" if is_test else "library"
                        problems.append(
                            f"src/quasidyn/{name}/{file}:{number}: {kind} code of layer {name} "
                            f"includes layer {other}, which is not below it")
    for problem in problems:
        print(problem)
    print(f"{len(order)} layers ({' < '.join(order)}); {len(problems)} violation(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
