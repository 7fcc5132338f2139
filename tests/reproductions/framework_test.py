#!/usr/bin/env python3
"""repro/framework.py: tolerances, verdicts and their categories, and the page's refusal of a row
whose value is not recorded (issue 67)."""
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from repro import framework, page, runner  # noqa: E402


class Tolerances(unittest.TestCase):
    def test_relative_accepts_within_and_refuses_beyond(self):
        tolerance = framework.relative(1e-6)
        self.assertTrue(tolerance.accepts(1.0, 1.0 + 0.9e-6))
        self.assertFalse(tolerance.accepts(1.0, 1.0 + 1.1e-6))

    def test_timing_is_a_factor_either_way(self):
        tolerance = framework.timing(3.0)
        self.assertTrue(tolerance.accepts(10.0, 29.0))
        self.assertTrue(tolerance.accepts(10.0, 3.4))
        self.assertFalse(tolerance.accepts(10.0, 31.0))
        self.assertFalse(tolerance.accepts(10.0, 3.2))

    def test_exact_strings_and_counts(self):
        self.assertTrue(framework.EXACT.accepts("line 0.44-1.01 s", "line 0.44-1.01 s"))
        self.assertFalse(framework.EXACT.accepts("line", "point"))
        self.assertFalse(framework.EXACT.accepts(644, 603))

    def test_nan_is_never_a_number_that_matches_a_number(self):
        self.assertFalse(framework.relative(1.0).accepts(1.0, float("nan")))


def row(**kwargs):
    fields = dict(id="X1", claim="c", ours="{s.a:.1f}", commands=["build/release/x"],
                  tests=["T.t"])
    fields.update(kwargs)
    return framework.Row(**fields)


class Verdicts(unittest.TestCase):
    values = framework.Values({"s.a": 2.0})

    def test_holds_is_computed_from_the_values(self):
        self.assertEqual(framework.evaluate(row(holds=lambda v: v["s.a"] > 1), self.values),
                         ("holds", "faithful"))
        self.assertEqual(framework.evaluate(row(holds=lambda v: v["s.a"] > 3), self.values),
                         ("does not hold", "does not hold"))

    def test_kinds_are_said_in_the_cell_and_counted(self):
        verdict, category = framework.evaluate(
            row(holds=lambda v: True, kind=framework.Fitted("the mass")), self.values)
        self.assertEqual((verdict, category), ("holds; fitted: the mass", "fitted"))
        verdict, category = framework.evaluate(
            row(holds=lambda v: True, kind=framework.Substitute("our plant")), self.values)
        self.assertEqual(category, "substitute")
        verdict, category = framework.evaluate(
            row(holds=lambda v: False, kind=framework.Substitute("our plant")), self.values)
        self.assertEqual(category, "does not hold")
        self.assertEqual(framework.evaluate(row(kind=framework.NotReproduced("no hardware")),
                                            self.values),
                         ("not reproduced: no hardware", "not reproduced"))

    def test_a_row_without_a_verdict_is_refused(self):
        with self.assertRaises(ValueError):
            framework.evaluate(row(), self.values)


class Page(unittest.TestCase):
    def test_a_value_that_is_not_recorded_names_the_row_and_the_value(self):
        paper = framework.Paper(key="P", title="P", intro="", rows=[
            row(ours="{s.missing}", holds=lambda v: True)])
        source = framework.Source(name="s", argv=["x"], extract=lambda run: {})
        record = {"values": {"a": 1.0}, "seconds": 0.1, "commit": "abc", "date": "2026-11-27"}
        with self.assertRaisesRegex(ValueError, "row X1: .*'missing'"):
            page.render([paper], {"s": source}, {"s": record})


class BadInput(unittest.TestCase):
    def test_a_record_that_is_not_json_names_its_file_and_line(self):
        with tempfile.TemporaryDirectory() as root:
            os.makedirs(os.path.join(root, "repro", "values"))
            with open(os.path.join(root, "repro", "values", "s.json"), "w") as handle:
                handle.write('{"values": \n')
            with self.assertRaisesRegex(ValueError, r"repro/values/s.json:2: not JSON"):
                runner.load_records(root, ["s"])

    def test_a_build_folder_without_the_program_is_named(self):
        source = framework.Source(name="s", argv=["{build}/no_such_program"],
                                  extract=lambda run: {})
        with tempfile.TemporaryDirectory() as root:
            with self.assertRaisesRegex(RuntimeError, "cannot run .*no_such_program"):
                runner.run(source, root, os.path.join(root, "no-build"))


if __name__ == "__main__":
    unittest.main()
