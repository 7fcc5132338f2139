"""Reading the figure programs' CSV files for the sources' extractors."""
import csv


def read_rows(path):
    """The CSV file's rows as dicts; numbers as floats where they parse."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = []
        for row in csv.DictReader(handle):
            parsed = {}
            for key, value in row.items():
                try:
                    parsed[key] = float(value)
                except (TypeError, ValueError):
                    parsed[key] = value
            rows.append(parsed)
    return rows


def at(rows, **where):
    """The one row whose columns equal where's values (floats compared to 1e-9)."""
    found = [row for row in rows if all(
        (abs(row[key] - value) < 1e-9 if isinstance(value, float) else row[key] == value)
        for key, value in where.items())]
    if len(found) != 1:
        raise ValueError(f"{len(found)} rows with {where}")
    return found[0]
