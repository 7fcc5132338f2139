"""Runs a source's command in a fresh folder and reads its values (issue 67)."""
import datetime
import json
import math
import os
import subprocess
import tempfile
import time

from . import framework

PYTHON = "/usr/bin/python3"  # Debian's, with numpy (docs/development.md)


def _commit(root):
    try:
        head = subprocess.run(["git", "rev-parse", "--short=9", "HEAD"], cwd=root, check=True,
                              capture_output=True, text=True).stdout.strip()
        changed = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
             ":(exclude)repro/values", ":(exclude)docs/reproductions.md"],
            cwd=root, check=True, capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if changed else "")


def _check_value(source, key, value):
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if math.isnan(value):
            raise ValueError(f"source {source.name}: value {key} is NaN")
        return value
    try:  # numpy scalars
        as_float = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"source {source.name}: value {key} is a {type(value).__name__}, "
                         "not a number or a string") from None
    return int(as_float) if float(as_float).is_integer() and "int" in type(value).__name__ \
        else as_float


def run(source, root, build):
    """Runs source; returns its record {values, seconds, commit, date}. Raises RuntimeError with
    the command's output when it fails."""
    with tempfile.TemporaryDirectory(prefix=f"repro-{source.name}-") as out:
        argv = [word.format(build=build, out=out, root=root, python=PYTHON)
                for word in source.argv]
        env = dict(os.environ)
        env["PYTHONPATH"] = os.path.join(build, "python") + (
            os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        start = time.monotonic()
        try:
            done = subprocess.run(argv, cwd=root, env=env, capture_output=True, text=True,
                                  timeout=source.timeout_s)
        except subprocess.TimeoutExpired:
            raise RuntimeError(f"source {source.name}: {' '.join(argv)} did not finish in "
                               f"{source.timeout_s:g} s") from None
        except OSError as error:
            raise RuntimeError(f"source {source.name}: cannot run {argv[0]}: {error.strerror} "
                               f"(is {build} a build folder? --build DIR)") from None
        seconds = time.monotonic() - start
        if done.returncode not in source.ok_codes:
            raise RuntimeError(f"source {source.name}: {' '.join(argv)} exited "
                               f"{done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        context = framework.RunContext(out=out, stdout=done.stdout, root=root, build=build)
        raw = source.extract(context)
        values = {key: _check_value(source, key, value) for key, value in sorted(raw.items())}
    return {"source": source.name, "commit": _commit(root),
            "date": datetime.date.today().isoformat(), "seconds": round(seconds, 2),
            "values": values}


def values_path(root, name):
    return os.path.join(root, "repro", "values", f"{name}.json")


def load_records(root, names):
    records = {}
    for name in names:
        path = values_path(root, name)
        if os.path.exists(path):
            with open(path, encoding="utf-8") as handle:
                try:
                    records[name] = json.load(handle)
                except json.JSONDecodeError as error:
                    raise ValueError(f"{os.path.relpath(path, root)}:{error.lineno}: not JSON "
                                     f"({error.msg}): regenerate --source {name}") from None
            if not isinstance(records[name].get("values"), dict):
                raise ValueError(f"{os.path.relpath(path, root)}: no \"values\" object: "
                                 f"regenerate --source {name}")
    return records


def save_record(root, record):
    with open(values_path(root, record["source"]), "w", encoding="utf-8") as handle:
        json.dump(record, handle, indent=1, sort_keys=True, ensure_ascii=False)
        handle.write("\n")


def compare(source, recorded, fresh):
    """The differences between a recorded record and a fresh one, as messages."""
    problems = []
    old, new = recorded["values"], fresh["values"]
    for key in sorted(set(old) | set(new)):
        if key not in new:
            problems.append(f"{source.name}.{key}: recorded {old[key]!r}, no longer printed")
        elif key not in old:
            problems.append(f"{source.name}.{key}: new value {new[key]!r}, not recorded")
        elif not source.tolerance(key).accepts(old[key], new[key]):
            problems.append(f"{source.name}.{key}: recorded {old[key]!r}, now {new[key]!r} "
                            f"(tolerance: {source.tolerance(key).describe()})")
    return problems
