"""Sources, rows and tolerances of the reproductions (issue 67; docs/reproductions.md).

A *source* is a command of this repository (a figure program, a benchmark, a script) and a
function that reads what it printed or wrote into named values (numbers or short strings). A *row*
is one claim of a paper: the claim as the paper states it, an "ours" template whose fields name
source values ("{gripper.phi_slide_mm:.2f} mm"), the commands and tests shown beside it, what kind
of reproduction it is (faithful, a substitute, fitted, not reproduced) and, where the claim is
quantitative, the function of the values that decides whether it holds.
"""
import dataclasses
import math
import string
from typing import Callable, Dict, List, Optional

CHEAP = "cheap"  # seconds: runs in the default test suite (ctest reproductions.<source>)
LONG = "long"  # minutes: ctest label reproductions_long (docs/development.md)


@dataclasses.dataclass(frozen=True)
class Tolerance:
    """How far a fresh value may be from the recorded one and still be "the same figure".

    Numbers: |fresh − recorded| ≤ abs + rel·|recorded|, or, for timings (factor set), fresh within
    [recorded / factor, recorded · factor]. Strings, booleans and integers given with rel = abs = 0
    must be equal."""
    rel: float = 0.0
    abs: float = 0.0
    factor: Optional[float] = None

    def accepts(self, recorded, fresh):
        if isinstance(recorded, (str, bool)) or isinstance(fresh, (str, bool)) or recorded is None \
                or fresh is None:
            return recorded == fresh
        if not (math.isfinite(recorded) and math.isfinite(fresh)):
            return recorded == fresh or (math.isnan(recorded) and math.isnan(fresh))
        if self.factor is not None:
            if recorded == 0 or fresh == 0:
                return recorded == fresh
            if (recorded > 0) != (fresh > 0):
                return False
            ratio = fresh / recorded
            return 1.0 / self.factor <= ratio <= self.factor
        return abs(fresh - recorded) <= self.abs + self.rel * abs(recorded)

    def describe(self):
        if self.factor is not None:
            return f"within a factor {self.factor:g} (a time on a shared machine)"
        if self.rel == 0 and self.abs == 0:
            return "equal"
        parts = []
        if self.rel:
            parts.append(f"{self.rel:g} relative")
        if self.abs:
            parts.append(f"{self.abs:g} absolute")
        return " + ".join(parts)


def relative(rel, abs_=0.0):
    """Deterministic numbers: the same build on the same machine repeats them; rel covers the
    last digits a different instruction order (a compiler, a thread count) may move."""
    return Tolerance(rel=rel, abs=abs_)


def timing(factor=3.0):
    """A time on the shared 2-core machine: medians move with the load, so a factor, not digits."""
    return Tolerance(factor=factor)


EXACT = Tolerance()
DEFAULT_TOLERANCE = relative(1e-6, 1e-12)


@dataclasses.dataclass
class RunContext:
    """What a source's extractor reads: the folder its command wrote into and what it printed."""
    out: str
    stdout: str
    root: str
    build: str

    def path(self, name):
        import os
        return os.path.join(self.out, name)

    def read(self, name):
        with open(self.path(name), encoding="utf-8") as handle:
            return handle.read()

    def scene(self, path):
        """The YAML file at path (relative to the repository), parsed: a scene's own numbers."""
        import os
        import yaml
        with open(os.path.join(self.root, path), encoding="utf-8") as handle:
            return yaml.safe_load(handle)


@dataclasses.dataclass
class Source:
    """A command that prints a paper's figures, and the function that names them.

    argv's fields: {build} the build folder (build/release), {out} a fresh folder for its files,
    {root} the repository, {python} the interpreter with numpy. shown is the command as the page
    prints it (build/release/NAME, out/); by default argv with build/release and out/."""
    name: str
    argv: List[str]
    extract: Callable[[RunContext], Dict[str, object]]
    cost: str = CHEAP
    tolerances: Dict[str, Tolerance] = dataclasses.field(default_factory=dict)
    default_tolerance: Tolerance = DEFAULT_TOLERANCE
    shown: Optional[str] = None
    timeout_s: float = 600.0
    ok_codes: tuple = (0,)

    def tolerance(self, key):
        import fnmatch
        for pattern, tolerance in self.tolerances.items():
            if fnmatch.fnmatchcase(key, pattern):
                return tolerance
        return self.default_tolerance

    def shown_command(self):
        if self.shown:
            return self.shown
        words = [word.replace("{build}", "build/release").replace("{out}", "out")
                 .replace("{root}/", "").replace("{python}", "/usr/bin/python3") for word in self.argv]
        return " ".join(words)


class Substitute:
    """The row answers a weaker or different question: another reference, system or statistic."""

    def __init__(self, why):
        self.why = why


class Fitted:
    """Parameters the paper does not state were chosen so that ours matches the paper's result;
    the agreement is then not evidence."""

    def __init__(self, which):
        self.which = which


class NotReproduced:
    def __init__(self, why):
        self.why = why


@dataclasses.dataclass
class Row:
    """One claim of a paper and ours.

    ours: a template of source values, "{gripper.phi_slide_mm:.2f}" (str.format; fields are
    SOURCE.KEY). holds: a function of the values (v["gripper.phi_slide_mm"]) that decides a
    quantitative claim; verdict: the word for a claim that is not quantitative ("holds" read from
    a figure), given when holds cannot be. kind: None (faithful), Substitute, Fitted or
    NotReproduced."""
    id: str
    claim: str
    ours: str
    commands: List[str]
    tests: List[str]
    kind: object = None
    holds: Optional[Callable[[Dict[str, object]], bool]] = None
    verdict: Optional[str] = None

    def fields(self):
        names = []
        for _, field, _, _ in string.Formatter().parse(self.ours):
            if field:
                names.append(field)
        return names

    def sources(self):
        return sorted({field.split(".")[0] for field in self.fields()})


@dataclasses.dataclass
class Paper:
    key: str
    title: str
    intro: str
    rows: List[Row]
    prefix: str = ""


class _SourceValues:
    """{name.key} in a template: attribute access on one source's values, with a clear error."""

    def __init__(self, source, values):
        self._source = source
        self._values = values

    def __getattr__(self, key):
        if key.startswith("_"):
            raise AttributeError(key)
        if key not in self._values:
            raise KeyError(f"source {self._source!r} has no value {key!r} "
                           f"(it has: {', '.join(sorted(self._values)) or 'none'})")
        return self._values[key]


class Values(dict):
    """All recorded values, by "source.key"; also usable as v["source.key"] in holds()."""

    def namespace(self):
        by_source = {}
        for full, value in self.items():
            source, key = full.split(".", 1)
            by_source.setdefault(source, {})[key] = value
        return {name: _SourceValues(name, values) for name, values in by_source.items()}

    def __missing__(self, key):
        raise KeyError(f"no recorded value {key!r}: is its source registered and regenerated?")


CATEGORIES = ("faithful", "substitute", "fitted", "does not hold", "not reproduced")


def evaluate(row, values):
    """The row's verdict cell and its category (one of CATEGORIES)."""
    if isinstance(row.kind, NotReproduced):
        return f"not reproduced: {row.kind.why}", "not reproduced"
    if row.holds is not None:
        holds = bool(row.holds(values))
        word = "holds" if holds else "does not hold"
    elif row.verdict:
        word = row.verdict
        holds = not word.startswith("does not hold")
    else:
        raise ValueError(f"row {row.id}: neither holds() nor a verdict")
    if not holds:
        category = "does not hold"
    elif isinstance(row.kind, Substitute):
        category = "substitute"
    elif isinstance(row.kind, Fitted):
        category = "fitted"
    else:
        category = "faithful"
    if isinstance(row.kind, Substitute):
        return f"{word}; substitute: {row.kind.why}", category
    if isinstance(row.kind, Fitted):
        return f"{word}; fitted: {row.kind.which}", category
    return word, category
