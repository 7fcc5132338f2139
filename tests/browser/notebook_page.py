"""Writes a page as a Jupyter notebook shows quasidyn's output (tests/browser/notebook_test.cjs
opens it): two output cells, each a Trajectory's _repr_html_ (its viewer in an <iframe srcdoc>),
inside a page with a script, styles and ids of its own that the viewers must not see or touch.
Usage: PYTHONPATH=<build>/python /usr/bin/python3 notebook_page.py REPOSITORY OUT.html"""

import pathlib
import sys

import quasidyn

# The notebook's own global and ids, named as the viewer's: a viewer that read or wrote the
# notebook's document instead of its frame's would change them (notebook_test.cjs checks).
NOTEBOOK = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>notebook</title>
<style>body{font:14px serif;margin:8px 40px} canvas{display:none} .output{margin:12px 0}</style>
<script>window.quasidynViewer = {notebook: true};</script>
</head><body>
<h1>a notebook</h1>
<script id="quasidyn-data" type="application/json">{"not": "the viewer's data"}</script>
<div id="qd-info">the notebook's own element</div>
<div class="output">OUTPUT_1</div>
<div class="output">OUTPUT_2</div>
</body></html>
"""


def main():
    repository, out = pathlib.Path(sys.argv[1]), sys.argv[2]
    pushing = quasidyn.load_scene(repository / "examples" / "planar_pushing" / "scene.yaml")
    # 0.6 s of pushing (run.sh's first page): the pusher reaches the box at t = 0.27 s.
    first = quasidyn.rollout(pushing, steps=60)
    gripper = quasidyn.load_scene(repository / "examples" / "planar_gripper" / "scene.yaml")
    second = quasidyn.rollout(gripper, steps=20)
    page = NOTEBOOK.replace("OUTPUT_1", first._repr_html_()).replace("OUTPUT_2",
                                                                      second._repr_html_())
    pathlib.Path(out).write_text(page, encoding="utf-8")


if __name__ == "__main__":
    main()
