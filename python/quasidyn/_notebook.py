"""What quasidyn.compare returns: a dict with the comparison's fields that a Jupyter notebook
shows as the comparison's viewer page (docs/python.md, "In a notebook")."""


class ComparisonResult(dict):
    """quasidyn.compare's result: a dict (scene, h, steps, reference, rows, table, csv) that a
    notebook shows as the comparison's viewer page, every formulation overlaid on the reference
    (the page `quasidyn compare --html` writes). notebook_html(height=520) returns that page as
    one <iframe srcdoc> element."""

    def __init__(self, fields, frame):
        super().__init__(fields)
        self._frame = frame  # height [px] -> the <iframe> element (C++, viewer/inline_frame.h)

    def notebook_html(self, height=520):
        """The comparison's viewer page as one <iframe> element, height [px] in [100, 4000]
        (ValueError outside); self-contained (three.js embedded, no network)."""
        return self._frame(height)

    def _repr_html_(self):
        return self._frame(520)
