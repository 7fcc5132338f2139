#!/usr/bin/env python3
"""The demo's package list (scripts/setup.sh demo) is complete: every system file the demo's
targets (the `quasidyn` program and the Python module `_quasidyn`) are built from, the headers
their objects included, the libraries they link, the CMake packages and the tools the build
found, belongs to a Debian package that `scripts/setup.sh demo` installs or one of their
dependencies (Depends and Pre-Depends, recursively; not Recommends, which the demo's apt-get
leaves out).

Usage: demo_packages.py SOURCE_DIR BUILD_DIR [--without PACKAGE]...
BUILD_DIR is a built tree (the demo targets built, with or without the tests): its ninja deps
log names the headers and its build graph the link inputs. A configuration of the `demo` preset
in a temporary folder (configured only, not built, then removed) names in its CMake cache the
packages and tools the demo's configuration finds. --without drops packages from the list, to show that the
check then fails (its test).
Prints what it checked; exits 1 naming each file whose package is missing.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import tempfile

DEMO_TARGETS = ["quasidyn", "_quasidyn"]
# The build tools the demo's build runs, from the CMake cache.
TOOL_ENTRIES = ["CMAKE_CXX_COMPILER", "CMAKE_MAKE_PROGRAM", "PKG_CONFIG_EXECUTABLE",
                "Python3_EXECUTABLE", "QUASIDYN_NODE", "QUASIDYN_NPM", "QUASIDYN_CCACHE"]


def demo_packages(source_dir):
    """The scope `demo` of scripts/setup.sh: its demo_packages array, and node/npm."""
    text = open(os.path.join(source_dir, "scripts", "setup.sh")).read()
    block = re.search(r"^demo_packages=\((.*?)^\)", text, re.S | re.M)
    if not block:
        sys.exit("demo_packages.py: no demo_packages=( ... ) array in scripts/setup.sh")
    names = [w for line in block.group(1).splitlines() for w in line.split("#")[0].split()]
    return set(names) | {"nodejs", "npm"}


def closure(packages):
    """The packages and everything they depend on, recursively (apt-cache depends)."""
    out = subprocess.run(
        ["apt-cache", "depends", "--recurse", "--no-recommends", "--no-suggests",
         "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances", *sorted(packages)],
        capture_output=True, text=True, check=True).stdout
    return {line.strip().strip("<>") for line in out.splitlines() if line and not line[0].isspace()}


def file_owners():
    """file path -> the Debian package that installed it, from dpkg's file lists."""
    owners = {}
    for listing in glob.glob("/var/lib/dpkg/info/*.list"):
        package = os.path.basename(listing)[:-len(".list")].split(":")[0]
        with open(listing, errors="replace") as f:
            for line in f:
                owners.setdefault(line.rstrip("\n"), package)
    return owners


def ninja(build_dir, *args):
    return subprocess.run(["ninja", "-C", build_dir, *args], capture_output=True, text=True,
                          check=True).stdout.splitlines()


def configure_demo(source_dir):
    """The CMake cache of the `demo` preset, configured in a temporary folder."""
    with tempfile.TemporaryDirectory() as work_dir:
        return configure_demo_in(source_dir, work_dir)


def configure_demo_in(source_dir, work_dir):
    configured = subprocess.run(["cmake", "--preset", "demo", "-B", work_dir], cwd=source_dir,
                                capture_output=True, text=True)
    if configured.returncode != 0:
        sys.exit(f"demo_packages.py: `cmake --preset demo` failed:\n{configured.stderr}")
    return open(os.path.join(work_dir, "CMakeCache.txt")).read()


def used_files(build_dir, cache):
    """{system file: why}: headers, link inputs, CMake package folders and build tools."""
    used = {}
    inputs = ninja(build_dir, "-t", "inputs", *DEMO_TARGETS)
    for path in inputs:
        if path.startswith("/usr/"):
            used[path] = "linked"
    objects = [p for p in inputs if p.endswith(".o")]
    if not objects:
        sys.exit(f"demo_packages.py: {build_dir} has no objects of {DEMO_TARGETS}: build them first")
    for line in ninja(build_dir, "-t", "deps", *objects):
        path = line.strip()
        if line.startswith("    ") and path.startswith("/usr/"):
            used.setdefault(path, "included")
    for name, value in re.findall(r"^([A-Za-z0-9_\-]+):(?:PATH|FILEPATH)=(/usr/\S*)$", cache, re.M):
        if name.endswith("_DIR") and os.path.isdir(value):  # a CMake package's config folder
            configs = [f for f in glob.glob(os.path.join(value, "*.cmake"))]
            for config in configs[:1]:
                used.setdefault(config, f"CMake package ({name})")
        elif name in TOOL_ENTRIES or name.startswith("pkgcfg_lib_"):
            used.setdefault(value, f"build tool ({name})")
    return used


def owner(path, owners):
    """The package of a file, following symlinks (/usr/bin/c++ -> alternatives -> g++-12)."""
    for candidate in (path, os.path.realpath(path)):
        if candidate in owners:
            return owners[candidate]
        # dpkg lists /usr-merged files under /lib or /bin as well as under /usr.
        for prefix in ("/usr/lib/", "/usr/bin/"):
            if candidate.startswith(prefix) and candidate[4:] in owners:
                return owners[candidate[4:]]
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("source_dir")
    parser.add_argument("build_dir")
    parser.add_argument("--without", action="append", default=[])
    args = parser.parse_args()
    listed = demo_packages(args.source_dir) - set(args.without)
    allowed = closure(listed)
    owners = file_owners()
    used = used_files(args.build_dir, configure_demo(args.source_dir))
    missing, unowned = {}, []
    for path, why in sorted(used.items()):
        package = owner(path, owners)
        if package is None:
            unowned.append(path)
        elif package not in allowed:
            missing.setdefault(package, []).append(f"{path} ({why})")
    packages_used = {owner(p, owners) for p in used} - {None}
    print(f"demo_packages: {len(used)} system files of {' and '.join(DEMO_TARGETS)} from "
          f"{len(packages_used)} packages; setup.sh demo lists {len(listed)}, "
          f"{len(allowed)} with their dependencies")
    for path in unowned:
        print(f"  note: {path} belongs to no Debian package")
    for package, files in sorted(missing.items()):
        print(f"error: package {package} is not installed by `scripts/setup.sh demo` nor a "
              f"dependency of one it installs; the demo build uses {files[0]}"
              + (f" and {len(files) - 1} more of its files" if len(files) > 1 else ""))
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
