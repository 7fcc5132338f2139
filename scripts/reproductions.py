#!/usr/bin/env python3
"""The papers' reproductions (issue 67; docs/reproductions.md, repro/).

  reproductions.py regenerate [--cost cheap|long|all] [--source NAME ...] [--build DIR]
      runs the sources, records their values in repro/values/NAME.json (with the commit and date)
      and renders docs/reproductions.md from them.
  reproductions.py check [--cost cheap|long|all] [--source NAME ...] [--build DIR]
      runs the sources and compares their values with the recorded ones within each value's
      tolerance; exits 1 naming every value that moved.
  reproductions.py page [--check]
      renders docs/reproductions.md, and docs/development.md's table of the long sources, from
      the recorded values (--check: compares instead, exit 1 when either differs, e.g. a number
      edited by hand).
  reproductions.py list [--cost cheap|long|all]
      prints the sources' names (CMake makes one ctest of each).
"""
import argparse
import difflib
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from repro import page, registry, runner  # noqa: E402

PAGE = os.path.join("docs", "reproductions.md")
DEVELOPMENT = os.path.join("docs", "development.md")


def selected(sources, arguments):
    if arguments.source:
        unknown = [name for name in arguments.source if name not in sources]
        if unknown:
            sys.exit(f"reproductions.py: no source {', '.join(unknown)} "
                     f"(sources: {', '.join(sorted(sources))})")
        return [sources[name] for name in arguments.source]
    return [source for name, source in sorted(sources.items())
            if arguments.cost == "all" or source.cost == arguments.cost]


def development_text(root, sources):
    path = os.path.join(root, DEVELOPMENT)
    if not os.path.exists(path):
        return None, None
    with open(path, encoding="utf-8") as handle:
        current = handle.read()
    table = page.long_sources_table(sources, runner.load_records(root, sources))
    return current, page.replace_region(current, table)


def write_pages(root, papers, sources):
    text = page.render(papers, sources, runner.load_records(root, sources))
    with open(os.path.join(root, PAGE), "w", encoding="utf-8") as handle:
        handle.write(text)
    print(f"wrote {PAGE}")
    current, updated = development_text(root, sources)
    if updated is not None and updated != current:
        with open(os.path.join(root, DEVELOPMENT), "w", encoding="utf-8") as handle:
            handle.write(updated)
        print(f"wrote {DEVELOPMENT}'s table of the long sources")


def check_development(root, sources):
    current, updated = development_text(root, sources)
    if updated is not None and updated != current:
        print(f"{DEVELOPMENT}: the table of the long sources differs from their recorded run "
              "times: run scripts/reproductions.py page")
        return 1
    return 0


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("regenerate", "check", "page", "list"))
    parser.add_argument("--cost", choices=("cheap", "long", "all"), default="all")
    parser.add_argument("--source", nargs="*")
    parser.add_argument("--build", default=os.environ.get(
        "QUASIDYN_BUILD", os.path.join(ROOT, "build", "release")))
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--root", default=ROOT, help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    papers, sources = registry.papers_and_sources()
    build = os.path.abspath(arguments.build)
    root = os.path.abspath(arguments.root)
    if arguments.action == "list":
        for source in selected(sources, arguments):
            print(source.name)
        return 0
    if arguments.action == "page":
        text = page.render(papers, sources, runner.load_records(root, sources))
        path = os.path.join(root, PAGE)
        if arguments.check:
            with open(path, encoding="utf-8") as handle:
                current = handle.read()
            if current != text:
                diff = difflib.unified_diff(current.splitlines(), text.splitlines(),
                                            f"{PAGE} (as it is)", f"{PAGE} (rendered)",
                                            lineterm="", n=0)
                print("\n".join(list(diff)[:60]))
                print(f"{PAGE} differs from its rendering from repro/: edit repro/papers/, not the "
                      "page, and run scripts/reproductions.py regenerate (or page)")
                return 1
            print(f"{PAGE}: as rendered from repro/ ({len(text.splitlines())} lines)")
            return check_development(root, sources)
        write_pages(root, papers, sources)
        return 0
    status = 0
    records = runner.load_records(root, sources)
    for source in selected(sources, arguments):
        try:
            fresh = runner.run(source, root, build)
        except RuntimeError as error:
            print(error, file=sys.stderr)
            status = 1
            continue
        if arguments.action == "regenerate":
            runner.save_record(root, fresh)
            print(f"{source.name}: {len(fresh['values'])} values in {fresh['seconds']:.1f} s "
                  f"({fresh['commit']}, {fresh['date']})")
            continue
        if source.name not in records:
            print(f"{source.name}: no recorded values (repro/values/{source.name}.json): run "
                  f"scripts/reproductions.py regenerate --source {source.name}")
            status = 1
            continue
        problems = runner.compare(source, records[source.name], fresh)
        if problems:
            status = 1
            print("\n".join(problems))
            print(f"{source.name}: {len(problems)} values moved from those recorded at "
                  f"{records[source.name]['commit']}; docs/reproductions.md states the recorded "
                  f"ones. If the change is right: scripts/reproductions.py regenerate "
                  f"--source {source.name}, and read the rows it changes")
        else:
            print(f"{source.name}: {len(fresh['values'])} values as recorded "
                  f"({fresh['seconds']:.1f} s)")
    if arguments.action == "regenerate":
        write_pages(root, papers, sources)
    return status


if __name__ == "__main__":
    try:
        sys.exit(main())
    except ValueError as error:  # a row, a record or a page that cannot be rendered
        sys.exit(f"reproductions.py: {error}")
