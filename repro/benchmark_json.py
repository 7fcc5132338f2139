"""Google Benchmark's JSON report (`--benchmark_format=json` on stdout, or the file of
`--benchmark_out`) read for the sources: the median aggregates and their times in a unit."""
import json

_SECONDS = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}


def medians(text):
    """{run_name: the benchmark's JSON object} of the report's median aggregates."""
    report = json.loads(text)
    return {bench["run_name"]: bench for bench in report["benchmarks"]
            if bench.get("aggregate_name") == "median"}


def time_in(bench, key, unit):
    """bench[key] ("cpu_time" or "real_time") in unit ("ns", "us", "ms" or "s")."""
    return bench[key] * _SECONDS[bench["time_unit"]] / _SECONDS[unit]
