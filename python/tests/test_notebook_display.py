"""Jupyter display (docs/python.md, "In a notebook"): a Trajectory, a Plan and compare's result
show the viewer page as one self-contained <iframe srcdoc>; Trajectory.plots() and Plan.plots()
are SVG documents."""

import html
import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

import quasidyn
from conftest import SOURCE_DIR, example_path

# Quotes, '<' and a script's end tag in the scene's and an object's names: they must survive the
# JSON of the page and the srcdoc attribute around it.
HOSTILE_SCENE = 'push "it" </script><b>'
HOSTILE_BODY = "box \"big\" 'o' <i>&amp;"
SVG = "{http://www.w3.org/2000/svg}"
DATA_OPEN = '<script id="quasidyn-data" type="application/json">'


@pytest.fixture(scope="module")
def hostile_scene():
    text = (SOURCE_DIR / "examples" / "planar_pushing" / "scene.yaml").read_text()
    text = text.replace("name: planar_pushing", "name: " + json.dumps(HOSTILE_SCENE), 1)
    text = text.replace("  - name: box\n", "  - name: " + json.dumps(HOSTILE_BODY) + "\n", 1)
    scene = quasidyn.load_scene_from_string(text, "pushing.yaml")
    assert scene.name == HOSTILE_SCENE
    return scene


@pytest.fixture(scope="module")
def run(hostile_scene):
    return quasidyn.rollout(hostile_scene, formulation="qp", steps=30)


def the_page(frame):
    """The page inside one <iframe srcdoc="...">, as the browser reads the attribute; fails unless
    `frame` is exactly that one element."""
    match = re.fullmatch(r'<iframe ([^>]*?)srcdoc="([^"]*)"></iframe>', frame, re.S)
    assert match, frame[:300]
    attributes = match.group(1)
    assert "sandbox=\"allow-scripts\"" in attributes and " src=" not in " " + attributes
    return html.unescape(match.group(2))


def embedded_data(page):
    start = page.index(DATA_OPEN) + len(DATA_OPEN)
    return json.loads(page[start:page.index("</script>", start)])


def assert_self_contained(page):
    assert page.startswith("<!DOCTYPE html>")
    # Nothing is loaded from the network: no src= or href= with a URL, no <link>, one bundle.
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", page, re.I)
    assert "<link" not in page
    assert page.count("<script") == 2 and page.count("</script>") == 2


def test_a_trajectory_is_one_self_contained_frame(run):
    frame = run._repr_html_()
    page = the_page(frame)
    assert_self_contained(page)
    data = embedded_data(page)
    assert data["scene"]["name"] == HOSTILE_SCENE
    assert HOSTILE_BODY in [body["name"] for body in data["bodies"]]
    assert len(data["frames"]["t"]) == run.steps_done + 1
    # The frames' poses are the run's: the object's x at the end, to the page's 6 digits.
    box = [body["name"] for body in data["bodies"]].index(HOSTILE_BODY)
    x_end = data["frames"]["poses"][-1][7 * box]
    assert x_end == pytest.approx(run.final_q[0], rel=1e-5, abs=1e-9)
    # The frame's page is the one quasidyn.view writes.
    assert run.notebook_html() == frame
    assert 'style="width:100%;height:520px;border:0"' in frame


def test_a_trajectory_frame_takes_a_height_and_a_frame_limit(run, tmp_path):
    assert "height:300px" in run.notebook_html(height=300)
    data = embedded_data(the_page(run.notebook_html(max_frames=5)))
    assert len(data["frames"]["t"]) == 5
    with pytest.raises(ValueError, match=r"notebook_html: height must be in \[100, 4000\]"):
        run.notebook_html(height=99)
    with pytest.raises(ValueError, match=r"max_frames must be >= 2"):
        run.notebook_html(max_frames=1)
    # Read back from a file, the trajectory shows the scene its file records.
    path = tmp_path / "pushing.json"
    pushing = quasidyn.rollout(quasidyn.load_scene(example_path("planar_pushing")), steps=3)
    pushing.save(path)
    loaded = quasidyn.load_trajectory(path)
    assert embedded_data(the_page(loaded._repr_html_()))["scene"]["name"] == "planar_pushing"


def test_a_plan_is_its_page_in_a_frame():
    scene = quasidyn.load_scene(example_path("planar_pushing"))
    plan = quasidyn.plan(scene, [0.0, 0.05, np.pi / 2], max_nodes=20)
    page = the_page(plan._repr_html_())
    assert_self_contained(page)
    data = embedded_data(page)
    # What `quasidyn plan --html` shows: the tree's markers, the goal and the summary.
    assert len(data["markers"]["points"]) == len(plan.tree_parent)
    assert data["target"]["label"] == "goal"
    assert re.search(r"^metric +log-barrier", data["notes"], re.M), data["notes"]
    assert re.search(r"^result +not found", data["notes"], re.M)
    assert "height:700px" in plan.notebook_html(height=700)
    titles = plan.plots().titles
    assert titles[0] == "objects' coordinates q_u" and len(titles) == 5


def test_a_comparison_is_a_dict_shown_as_its_page(hostile_scene):
    result = quasidyn.compare(hostile_scene, steps=3, reference_refinement=2,
                              formulations=["qp", "socp"])
    assert isinstance(result, dict)
    assert set(result) == {"scene", "h", "steps", "reference", "rows", "table", "csv"}
    page = the_page(result._repr_html_())
    assert_self_contained(page)
    data = embedded_data(page)
    assert data["scene"]["name"] == HOSTILE_SCENE
    assert [overlay["label"] for overlay in data["overlays"]] == ["qp", "socp"]
    assert result["table"] in data["notes"]
    assert "height:400px" in result.notebook_html(height=400)
    with pytest.raises(ValueError, match="height"):
        result.notebook_html(height=5000)


def test_two_frames_share_nothing(run):
    """Each frame's page is a document of its own: no id or script of the page stands outside
    its srcdoc, so two viewers in one notebook cannot collide."""
    outside = re.sub(r'srcdoc="[^"]*"', 'srcdoc=""', run._repr_html_() + run._repr_html_())
    assert "<script" not in outside and " id=" not in outside and "<style" not in outside


def test_plots_are_valid_svg_with_escaped_text(run):
    plots = run.plots()
    assert len(plots) == 5
    assert plots.titles == ["objects' coordinates q_u", "robots' coordinates q_a",
                            "contacts per step", "total normal force per step",
                            "solver iterations per step"]
    for plot in plots:
        assert plot._repr_svg_() == plot.svg
        root = ET.fromstring(plot.svg)
        assert root.tag == SVG + "svg"
        lines = root.findall(SVG + "polyline")
        assert lines, plot.title
        texts = [t.text for t in root.iter(SVG + "text")]
        assert plot.title in texts
    # The objects' coordinates are named after the hostile object: the legend reads it back.
    legend = [t.text for t in ET.fromstring(plots[0].svg).iter(SVG + "text")]
    assert any(HOSTILE_BODY in text for text in legend if text), legend
    # The objects' plot has a line per coordinate of q_u, from q0 to the last step.
    assert len(ET.fromstring(plots[0].svg).findall(SVG + "polyline")) == run.q.shape[1] - 2
    # All of them side by side: one element holding the five documents.
    together = ET.fromstring(plots._repr_html_())
    assert len(together.findall(SVG + "svg")) == 5
    assert plots[-1].title == plots.titles[-1]
    with pytest.raises(IndexError):
        plots[5]


def test_plots_thin_long_runs_and_refuse_bad_input(run, tmp_path):
    thinned = ET.fromstring(run.plots(max_points=4)[0].svg).find(SVG + "polyline")
    assert len(thinned.get("points").split()) == 4
    with pytest.raises(ValueError, match=r"Trajectory\.plots: max_points must be >= 2"):
        run.plots(max_points=1)
    run.plots()[0].save(tmp_path / "q_u.svg")
    assert ET.parse(tmp_path / "q_u.svg").getroot().tag == SVG + "svg"
