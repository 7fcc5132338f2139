"""The papers in page order, and every source their rows use."""
import importlib

PAPER_MODULES = ("pang_tedrake", "talk", "notes", "halm_posa", "xie_chakraborty")


def papers_and_sources():
    papers, sources = [], {}
    for module_name in PAPER_MODULES:
        module = importlib.import_module(f"repro.papers.{module_name}")
        papers.append(module.PAPER)
        for source in getattr(module, "SOURCES", ()):
            if source.name in sources:
                raise ValueError(f"source {source.name!r} registered twice "
                                 f"(repro/papers/{module_name}.py)")
            sources[source.name] = source
    for paper in papers:
        for row in paper.rows:
            for name in row.sources():
                if name not in sources:
                    raise ValueError(f"row {row.id} uses source {name!r}, which no paper "
                                     f"module registers")
    return papers, sources
