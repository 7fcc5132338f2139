"""scripts/baseline_rows.py and scripts/build_baseline.sh against this checkout: every row's
benchmark is still registered under the name the baseline registers it by, the line the
baseline's copy of the pick-and-place bench is patched at is still there, and a row is judged
by the ratio of the two builds' times against the goal's ratio to the issue's figure.
Run: /usr/bin/python3 tests/tools/baseline_rows_test.py (ctest: tools.baseline_rows)."""

import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))

import baseline_rows  # noqa: E402


def registered_benchmarks():
    """Benchmark names of bench/*.cc: BENCHMARK_CAPTURE(fn, name, ...) gives fn/name, and the
    macros that paste a suffix to name (name##_A_and_B) give fn/<instance>_A_and_B."""
    names = set()
    bench = os.path.join(ROOT, "bench")
    for file in os.listdir(bench):
        if not file.endswith(".cc"):
            continue
        source = open(os.path.join(bench, file)).read()
        suffixes = {}
        for macro, body in re.findall(r"#define (\w+)\(name[^)]*\)((?:.*\\\n)*.*)", source):
            suffixes[macro] = re.findall(r"BENCHMARK_CAPTURE\((\w+), name(?:##(\w+))?", body)
        for function, name in re.findall(r"BENCHMARK_CAPTURE\((\w+), (\w+),", source):
            names.add(f"{function}/{name}")
        for macro, captures in suffixes.items():
            for instance in re.findall(rf"^{macro}\((\w+),", source, re.M):
                for function, suffix in captures:
                    names.add(f"{function}/{instance}{suffix}")
    return names


class BaselineRowsTest(unittest.TestCase):
    def test_every_row_names_a_registered_benchmark(self):
        names = registered_benchmarks()
        for group, (_, pattern, rows) in baseline_rows.GROUPS.items():
            for key, row, _, _ in rows:
                self.assertIn(key, names, f"{group}: {row}")
                self.assertRegex(key, pattern, f"{group}: the filter does not select {key}")

    def test_every_goal_is_below_its_issue_figure(self):
        for rows in (rows for _, _, rows in baseline_rows.GROUPS.values()):
            for _, row, figure, goal in rows:
                self.assertLess(goal, figure, row)

    def test_a_row_is_met_at_or_below_the_goals_ratio(self):
        ratio, allowed, met = baseline_rows.judge(60.0, 120.0, 240.0, 120.0)
        self.assertEqual((ratio, allowed, met), (0.5, 0.5, True))
        self.assertFalse(baseline_rows.judge(61.0, 120.0, 240.0, 120.0)[2])
        # A slower host scales both builds: the verdict stays.
        self.assertTrue(baseline_rows.judge(1.4 * 60.0, 1.4 * 120.0, 240.0, 120.0)[2])

    def test_the_baselines_pick_and_place_bench_can_be_patched(self):
        script = open(os.path.join(ROOT, "scripts", "build_baseline.sh")).read()
        include = re.search(r"include = '(#include [^']*)\\n'", script).group(1)
        source = open(os.path.join(ROOT, "bench", "pick_place_bench.cc")).read()
        self.assertIn(include + "\n", source)
        self.assertIn("StepCountForDuration(", source)
        self.assertIn(f"revision={baseline_rows.BASELINE}", script)


if __name__ == "__main__":
    unittest.main()
