#!/usr/bin/env python3
"""Prints the Markdown table of the usable ranges of the positive physical inputs, read from
their one declaration, src/quasidyn/model/physical_ranges.h (docs/scene-format.md, "Usable
ranges of the positive physical inputs"). The bounds are written as the library writes them
(NumberText: the shorter of fixed and scientific notation of the shortest round trip), so the
test model.PhysicalRanges.TheDocsTableListsEveryRangeAsDeclared finds each row.

  scripts/physical_ranges_table.py > /tmp/table.md
"""

import re
from pathlib import Path

HEADER = Path(__file__).resolve().parent.parent / "src/quasidyn/model/physical_ranges.h"
DECLARATION = re.compile(
    r'PhysicalRange (k\w+)\{\s*"([^"]*)",\s*"([^"]*)",\s*([^,]+),\s*([^,]+),\s*(true|false),'
    r'\s*((?:"(?:[^"\\]|\\.)*"\s*)+)\};')


def number_text(x: float) -> str:
    """The shortest round-trip text of x, fixed or scientific, whichever is shorter (fixed on
    a tie), as std::to_chars writes it."""
    scientific = next(f"{x:.{p}e}" for p in range(17) if float(f"{x:.{p}e}") == x)
    mantissa, exponent = scientific.split("e")
    scientific = f"{mantissa}e{'+' if int(exponent) >= 0 else '-'}{abs(int(exponent)):02d}"
    fixed = next(f"{x:.{p}f}" for p in range(330) if float(f"{x:.{p}f}") == x)
    return fixed if len(fixed) <= len(scientific) else scientific


def main() -> None:
    print("| quantity | usable range | why |")
    print("|---|---|---|")
    for _, quantity, unit, low, high, zero, reason in DECLARATION.findall(HEADER.read_text()):
        reason = "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', reason))
        bounds = f"[{number_text(float(low))}, {number_text(float(high))}]"
        text = ("0 or " if zero == "true" else "") + bounds + ("" if unit == "-" else " " + unit)
        print(f"| {quantity} | {text} | {reason} |")


if __name__ == "__main__":
    main()
