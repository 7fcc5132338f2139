#!/usr/bin/env python3
"""Keeps docs/reproductions.md honest (issue 35).

Every table of the page whose header has the columns "ours", "command" and "test" is a table
of reproductions, one row per figure or quoted number of a paper. The check fails when
  * a row has a different number of cells than its header;
  * a row's "ours", "command" or "test" cell is empty (or only a dash);
  * an "ours" cell contains the word "paper": ours is what we get, never the paper's number
    (a value the paper does not state is written "not stated; ours: ...");
  * a command cell holds no `command` in backticks, or a command's program is not in the
    repository: `build/release/NAME` and `quasidyn` must be targets of the CMake files
    (add_executable, directly, from a foreach list of sources or from a file(GLOB)), a script
    run by python3 or bash must be a file of the repository;
  * a test cell holds no `test` in backticks, or a test is not in the repository: a ctest name
    (add_test(NAME ...), cli.<script> of tests/cli, reproductions.<source> and
    reproductions_long.<source> of scripts/reproductions.py's sources), a gtest name Suite.Name (`*` allowed) of a
    TEST, TEST_F or TEST_P in a C++ source, or a pytest FILE::test_name;
  * the page has no table of reproductions at all.
Usage: check_reproductions.py [SOURCE_DIR [PAGE]]; prints each problem as page:line and
exits 1 when there is one.
"""
import fnmatch
import glob
import os
import re
import shlex
import subprocess
import sys

REQUIRED_COLUMNS = ("ours", "command", "test")
EMPTY_CELLS = {"", "-", "—", "–"}
SKIPPED_FOLDERS = {"build", ".git", "node_modules"}
CMAKE_FILE_PATTERNS = ("CMakeLists.txt", "*/CMakeLists.txt", "*/*/CMakeLists.txt", "cmake/*.cmake")


def read(path):
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def cmake_files(source_dir):
    found = []
    for pattern in CMAKE_FILE_PATTERNS:
        for path in glob.glob(os.path.join(source_dir, pattern)):
            if os.path.relpath(path, source_dir).split(os.sep)[0] not in SKIPPED_FOLDERS:
                found.append(path)
    return sorted(set(found))


def executable_targets(source_dir):
    """The names of the executables the CMake files declare."""
    targets = set()
    for path in cmake_files(source_dir):
        text = read(path)
        folder = os.path.dirname(path)
        targets.update(re.findall(r"add_executable\(\s*([A-Za-z_][\w-]*)[\s)]", text))
        globs = {var: pattern for var, pattern in re.findall(
            r"file\(\s*GLOB\s+(\w+)\s+(?:CONFIGURE_DEPENDS\s+)?(\S+?)\s*\)", text)}
        for loop in re.finditer(r"foreach\(\s*\w+\s+([^)]*)\)(.*?)endforeach\(", text, re.S):
            if not re.search(r"add_executable\(\s*\$\{", loop.group(2)):
                continue
            for item in loop.group(1).split():
                var = re.fullmatch(r"\$\{(\w+)\}", item)
                if var and var.group(1) in globs:
                    pattern = globs[var.group(1)].replace("${CMAKE_CURRENT_SOURCE_DIR}", folder)
                    pattern = os.path.join(folder, pattern)  # CMake globs relative to the file
                    for source in glob.glob(pattern):
                        targets.add(os.path.splitext(os.path.basename(source))[0])
                elif "/" in item and "$" not in item:
                    targets.add(os.path.basename(item))
    return targets


def ctest_names(source_dir):
    names = set()
    for path in cmake_files(source_dir):
        names.update(re.findall(r"add_test\(\s*NAME\s+([\w.-]+)\s", read(path)))
    for script in glob.glob(os.path.join(source_dir, "tests", "cli", "*.sh")):
        names.add("cli." + os.path.splitext(os.path.basename(script))[0])
    names.update(reproduction_tests(source_dir))
    return names


def reproduction_tests(source_dir):
    """reproductions.<source> and reproductions_long.<source> (cmake/Reproductions.cmake makes
    one ctest of each registered source of repro/papers/)."""
    script = os.path.join(source_dir, "scripts", "reproductions.py")
    if not os.path.exists(script):
        return set()
    names = set()
    for cost, prefix in (("cheap", "reproductions"), ("long", "reproductions_long")):
        listed = subprocess.run([sys.executable, script, "list", "--cost", cost],
                                capture_output=True, text=True, check=True).stdout.split()
        names.update(f"{prefix}.{name}" for name in listed)
    return names


def gtest_names(source_dir):
    names = set()
    for folder, subfolders, files in os.walk(source_dir):
        subfolders[:] = [name for name in subfolders if name not in SKIPPED_FOLDERS]
        for file_name in files:
            if file_name.endswith(".cc"):
                names.update(gtests_in(read(os.path.join(folder, file_name))))
    return names


def gtests_in(text):
    names = set()
    for suite, name in re.findall(r"\bTEST(?:_F|_P)?\(\s*(\w+)\s*,\s*(\w+)\s*\)", text):
        names.add(suite + "." + name)
    return names


class Repository:
    def __init__(self, source_dir):
        self.source_dir = source_dir
        self.targets = executable_targets(source_dir)
        self.ctests = ctest_names(source_dir)
        self.gtests = gtest_names(source_dir)

    def is_file(self, relative):
        return os.path.isfile(os.path.join(self.source_dir, relative))

    def program_problem(self, command):
        """None when the command's program is in the repository, else what is wrong."""
        try:
            words = shlex.split(command)
        except ValueError as error:
            return "cannot split `%s`: %s" % (command, error)
        while words and re.fullmatch(r"[A-Za-z_]\w*=\S*", words[0]):
            words.pop(0)
        if not words:
            return "`%s` names no program" % command
        program, rest = words[0], words[1:]
        if program in ("/usr/bin/python3", "python3", "bash", "sh"):
            while rest and rest[0].startswith("-"):
                option = rest.pop(0)
                if option == "-m" and rest:
                    rest.pop(0)  # the module (pytest); its file argument follows
            if not rest:
                return "`%s` runs no script" % command
            script = rest[0].split("::")[0]
            return None if self.is_file(script) else "script %s is not a file of the repository" % script
        name = program[len("build/release/"):] if program.startswith("build/release/") else program
        if "/" in name:
            return None if self.is_file(name) else "%s is not a file of the repository" % name
        if name in self.targets:
            return None
        return "program %s is not a target of the CMake files" % name

    def test_problem(self, test):
        """None when the test is in the repository, else what is wrong."""
        if "::" in test:
            path, function = test.split("::", 1)
            function = function.split("[")[0]
            if not self.is_file(path):
                return "pytest file %s is not a file of the repository" % path
            if not re.search(r"def %s\(" % re.escape(function), read(os.path.join(self.source_dir, path))):
                return "%s has no test %s" % (path, function)
            return None
        if test in self.ctests:
            return None
        if re.fullmatch(r"[A-Z][\w*]*\.[\w*]+", test):
            if any(fnmatch.fnmatchcase(name, test) for name in self.gtests):
                return None
            return "no gtest %s in the sources" % test
        return "no ctest %s in the CMake files" % test


def split_row(line):
    """The cells of a table row; an escaped pipe (\\|) stays inside its cell."""
    row = line.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [cell.strip() for cell in re.split(r"(?<!\\)\|", row)]


def tables(lines):
    """(header line number, header cells, [(line number, cells)]) per table."""
    found, index = [], 0
    while index < len(lines):
        line = lines[index]
        if line.lstrip().startswith("|") and index + 1 < len(lines) and re.fullmatch(
                r"\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*", lines[index + 1]):
            header = [cell.lower() for cell in split_row(line)]
            rows, index = [], index + 2
            while index < len(lines) and lines[index].lstrip().startswith("|"):
                rows.append((index + 1, split_row(lines[index])))
                index += 1
            found.append((index, header, rows))
        else:
            index += 1
    return found


def column(header, name):
    for position, cell in enumerate(header):
        if cell == name or cell.startswith(name + " ") or cell.startswith(name + "("):
            return position
    return None


def check_page(page_text, repository, page_name="docs/reproductions.md"):
    problems = []
    lines = page_text.splitlines()
    reproduction_tables = 0
    for _, header, rows in tables(lines):
        positions = {name: column(header, name) for name in REQUIRED_COLUMNS}
        if any(position is None for position in positions.values()):
            continue
        reproduction_tables += 1
        for number, cells in rows:
            where = "%s:%d" % (page_name, number)
            if len(cells) != len(header):
                problems.append("%s: %d cells, the header has %d" % (where, len(cells), len(header)))
                continue
            for name, position in positions.items():
                if cells[position] in EMPTY_CELLS:
                    problems.append("%s: the %s cell is empty" % (where, name))
            ours = cells[positions["ours"]]
            if re.search(r"paper", ours, re.I):
                problems.append("%s: the ours cell says \"paper\" (write what we get, or "
                                "\"not stated; ours: ...\")" % where)
            commands = re.findall(r"`([^`]+)`", cells[positions["command"]])
            if cells[positions["command"]] not in EMPTY_CELLS and not commands:
                problems.append("%s: the command cell has no `command`" % where)
            for command in commands:
                problem = repository.program_problem(command)
                if problem:
                    problems.append("%s: %s" % (where, problem))
            tests = re.findall(r"`([^`]+)`", cells[positions["test"]])
            if cells[positions["test"]] not in EMPTY_CELLS and not tests:
                problems.append("%s: the test cell has no `test`" % where)
            for test in tests:
                problem = repository.test_problem(test)
                if problem:
                    problems.append("%s: %s" % (where, problem))
    if reproduction_tables == 0:
        problems.append("%s: no table with the columns ours, command and test" % page_name)
    return problems


def main(argv):
    source_dir = argv[1] if len(argv) > 1 else "."
    page = argv[2] if len(argv) > 2 else os.path.join(source_dir, "docs", "reproductions.md")
    if not os.path.isfile(page):
        print("%s: no such page" % page)
        return 1
    problems = check_page(read(page), Repository(source_dir), os.path.relpath(page, source_dir))
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
