"""Resident memory of processes for the soak tests (tests/soak/, docs/development.md, "Soak
tests"): VmRSS from /proc/<pid>/status, and the growth check every soak script shares."""

from __future__ import annotations

import ctypes
import os
import sys
from typing import Dict, List, Optional, Set


def resident_kib(pid: Optional[int] = None) -> int:
    """VmRSS [KiB] of process `pid` (default: this one), read from /proc/<pid>/status.
    RuntimeError naming the file when it or its VmRSS line is missing (not Linux, no process)."""
    path = f"/proc/{pid if pid is not None else os.getpid()}/status"
    try:
        with open(path, encoding="ascii") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except FileNotFoundError as error:
        raise RuntimeError(f"{path}: no such file (no process {pid}, or not Linux)") from error
    raise RuntimeError(f"{path}: no VmRSS line")


class _MallInfo2(ctypes.Structure):
    """glibc's struct mallinfo2 (malloc.h), every field a size_t of bytes or a count."""
    _fields_ = [(name, ctypes.c_size_t) for name in (
        "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks",
        "fordblks", "keepcost")]


def heap_in_use_kib() -> int:
    """The KiB of this process's C heap that are allocated and not yet freed, over every malloc
    arena (glibc's mallinfo2: uordblks, plus hblkhd, the chunks served by their own mmap).
    Unlike the RSS it leaves out the memory freed but kept by the allocator. RuntimeError when
    the C library has no mallinfo2 (not glibc >= 2.33)."""
    try:
        libc = ctypes.CDLL(None)
        mallinfo2 = libc.mallinfo2
    except (OSError, AttributeError) as error:
        raise RuntimeError("heap_in_use_kib needs glibc's mallinfo2 (glibc >= 2.33)") from error
    mallinfo2.restype = _MallInfo2
    info = mallinfo2()
    return int((info.uordblks + info.hblkhd) // 1024)


class MemoryTrace:
    """RSS samples of named processes over a run of `total` units of work named `unit` (steps,
    plans, batches). sample(done) records every process's RSS after `done` units; the warm-up is the
    first `warm_up_fraction` of the units, and growth is measured from the first sample at or
    after its end to the last sample."""

    def __init__(self, total: int, unit: str, warm_up_fraction: float = 0.1):
        if total < 10:
            raise ValueError(f"total must be >= 10 units of work (got {total})")
        if not 0.0 < warm_up_fraction < 1.0:
            raise ValueError(f"warm_up_fraction must be in (0, 1) (got {warm_up_fraction})")
        self.total = total
        self.unit = unit  # what the units of work are called ("plans", "batches")
        self.warm_up_units = max(1, int(total * warm_up_fraction))
        self.samples: Dict[str, List[tuple]] = {}  # name -> [(done, KiB)]

    def sample(self, done: int, pids: Dict[str, Optional[int]],
               measured: Optional[Dict[str, int]] = None) -> None:
        """Records the RSS of every process of `pids` after `done` units, and the KiB of every
        other measure of `measured` (a name and its value, e.g. heap_in_use_kib())."""
        for name, pid in pids.items():
            self.samples.setdefault(name, []).append((done, resident_kib(pid)))
        for name, kib in (measured or {}).items():
            self.samples.setdefault(name, []).append((done, kib))

    def warm_up_end(self, name: str) -> int:
        after = [kib for done, kib in self.samples[name] if done >= self.warm_up_units]
        if not after:
            raise RuntimeError(f"{name}: no sample at or after the warm-up's end "
                               f"({self.warm_up_units} units)")
        return after[0]

    def end(self, name: str) -> int:
        return self.samples[name][-1][1]

    def growth_percent(self, name: str) -> float:
        start = self.warm_up_end(name)
        return 100.0 * (self.end(name) - start) / start

    def rows(self, what: str) -> List[str]:
        """The soak table's rows, one per process: what, count, RSS at the warm-up's end and at
        the end, growth."""
        return [f"| {what}{'' if name == 'self' else f' ({name})'} | {self.total} | "
                f"{self.warm_up_end(name)} KiB | {self.end(name)} KiB | "
                f"{self.growth_percent(name):.2f} % |" for name in self.samples]

    def report(self, what: str, max_growth_percent: float,
               checked: Optional[Set[str]] = None) -> int:
        """Prints the RSS at every quarter of the run, then the table's header and rows; 0 when
        every process of `checked` (default: all) grew by at most max_growth_percent after the
        warm-up, else 1 (and why, on stderr)."""
        for name, samples in self.samples.items():
            quarters = [min(samples, key=lambda s: abs(s[0] - self.total * k / 4))
                        for k in range(1, 5)]
            print(f"{name}: RSS after " + ", ".join(f"{done} {self.unit} {kib} KiB"
                                                   for done, kib in [samples[0]] + quarters))
        print("| what | count | RSS at warm-up end | RSS at end | growth |")
        for row in self.rows(what):
            print(row)
        sys.stdout.flush()
        failed = [name for name in self.samples if (checked is None or name in checked)
                  and self.growth_percent(name) > max_growth_percent]
        for name in failed:
            print(f"FAIL: {what} ({name}): resident memory grew by "
                  f"{self.growth_percent(name):.2f} % after the warm-up "
                  f"({self.warm_up_end(name)} -> {self.end(name)} KiB), more than the allowed "
                  f"{max_growth_percent:.2f} %", file=sys.stderr)
        return 1 if failed else 0
