#!/usr/bin/env python3
"""Shows that check_reproductions.py fails on bad rows (ctest style.reproductions_test).

Each case writes a small repository (a CMake file with a direct, a foreach and a globbed
target, a gtest source, a ctest, a script) into a temporary folder that is removed afterwards,
and checks one page against it: a good page passes, and every kind of bad row is reported at
its line. Run: /usr/bin/python3 tests/style/check_reproductions_test.py (or with pytest).
"""
import os
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import check_reproductions  # noqa: E402

CMAKE = """
add_executable(quasidyn apps/main.cc)
foreach(example gripper/gripper_figures)
  get_filename_component(name ${example} NAME)
  add_executable(${name} examples/${example}.cc)
endforeach()
file(GLOB BENCHES CONFIGURE_DEPENDS bench/*_bench.cc)
foreach(bench_src ${BENCHES})
  get_filename_component(name ${bench_src} NAME_WE)
  add_executable(${name} ${bench_src})
endforeach()
add_test(NAME figures.paper COMMAND bash run.sh)
"""
FILES = {
    "CMakeLists.txt": CMAKE,
    "bench/step_bench.cc": "int main() {}\n",
    "src/stepping/gripper_test.cc": "TEST_F(GripperTest, SqueezesTheSphere) {}\n",
    "scripts/plot.py": "print(1)\n",
    "python/tests/test_toy.py": "def test_kink():\n    pass\n",
}
HEADER = "| # | claim | ours | command | test |\n|---|---|---|---|---|\n"
GOOD_ROW = ("| 1 | c_n1 = 10 N | 10.0 N | `build/release/gripper_figures out.csv` | "
            "`GripperTest.SqueezesTheSphere` |\n")


class CheckReproductionsTest(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.TemporaryDirectory()
        for relative, text in FILES.items():
            path = os.path.join(self.folder.name, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(text)
        self.repository = check_reproductions.Repository(self.folder.name)

    def tearDown(self):
        self.folder.cleanup()

    def problems(self, rows):
        return check_reproductions.check_page("# Page\n\n" + HEADER + rows, self.repository)

    def assertOneProblem(self, row, words):
        problems = self.problems(GOOD_ROW + row)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("docs/reproductions.md:6:", problems[0])  # the bad row's line
        self.assertIn(words, problems[0])

    def test_finds_every_kind_of_target_and_test(self):
        self.assertEqual(self.repository.targets, {"quasidyn", "gripper_figures", "step_bench"})
        self.assertIn("figures.paper", self.repository.ctests)
        self.assertIn("GripperTest.SqueezesTheSphere", self.repository.gtests)

    def test_good_rows_pass(self):
        rows = GOOD_ROW + (
            "| 2 | 3.56 ms | not stated; ours: 0.25 ms (other machine, not a ratio) | "
            "`build/release/step_bench --benchmark_filter=x` | `figures.paper` |\n"
            "| 3 | slope 1 | φ = h·μ·\\|v\\| = 1 mm | `quasidyn info s.yaml` | `figures.paper` |\n"
            "| 4 | slope 1 | PENDING | `PYTHONPATH=build/release/python /usr/bin/python3 "
            "scripts/plot.py out.png`, `quasidyn info scene.yaml` | "
            "`python/tests/test_toy.py::test_kink`, `Gripper*.Squeezes*` |\n")
        self.assertEqual(self.problems(rows), [])

    def test_paper_in_the_ours_cell_fails(self):
        self.assertOneProblem(
            "| 2 | μ = 0.5 | the paper's 0.5 | `quasidyn info s.yaml` | `figures.paper` |\n",
            "the ours cell says \"paper\"")

    def test_empty_command_or_test_or_ours_cell_fails(self):
        self.assertOneProblem("| 2 | μ = 0.5 | 0.5 |  | `figures.paper` |\n", "command cell is empty")
        self.assertOneProblem("| 2 | μ = 0.5 | 0.5 | `quasidyn info s.yaml` | — |\n",
                              "test cell is empty")
        self.assertOneProblem("| 2 | μ = 0.5 | | `quasidyn info s.yaml` | `figures.paper` |\n",
                              "ours cell is empty")

    def test_a_cell_without_backticks_fails(self):
        self.assertOneProblem("| 2 | μ | 0.5 | run it | `figures.paper` |\n", "has no `command`")
        self.assertOneProblem("| 2 | μ | 0.5 | `quasidyn info s.yaml` | by hand |\n", "has no `test`")

    def test_a_program_that_is_not_in_the_repository_fails(self):
        self.assertOneProblem("| 2 | μ | 0.5 | `build/release/no_such_figures out` | `figures.paper` |\n",
                              "program no_such_figures is not a target")
        self.assertOneProblem("| 2 | μ | 0.5 | `/usr/bin/python3 scripts/missing.py` | `figures.paper` |\n",
                              "script scripts/missing.py is not a file")

    def test_a_test_that_is_not_in_the_repository_fails(self):
        self.assertOneProblem("| 2 | μ | 0.5 | `quasidyn info s.yaml` | `GripperTest.Flies` |\n",
                              "no gtest GripperTest.Flies")
        self.assertOneProblem("| 2 | μ | 0.5 | `quasidyn info s.yaml` | `figures.nothing` |\n",
                              "no ctest figures.nothing")
        self.assertOneProblem("| 2 | μ | 0.5 | `quasidyn info s.yaml` | "
                              "`python/tests/test_toy.py::test_none` |\n", "has no test test_none")

    def test_a_row_with_a_missing_cell_fails(self):
        self.assertOneProblem("| 2 | μ | 0.5 | `quasidyn info s.yaml` |\n", "4 cells, the header has 5")

    def test_a_page_without_a_table_of_reproductions_fails(self):
        problems = check_reproductions.check_page("# Page\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
                                                  self.repository)
        self.assertEqual(len(problems), 1, problems)
        self.assertIn("no table with the columns ours, command and test", problems[0])


if __name__ == "__main__":
    unittest.main()
