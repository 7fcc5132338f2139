"""Reads the reference quasistatic simulator's (qsim's) files into kinematic trees, for the
independent transcription of its step (qsim_tree_step.py). Standard library, numpy and PyYAML
only; nothing of quasidyn.

What is read, and how Drake (which qsim's parser calls) reads it:
- The system file (qsim's q_sys/*.yml, parsed by qsim's QuasistaticParser): model_directive,
  robots (name, Kp [N/m or N·m/rad], one per joint), objects (name, SDF file),
  quasistatic_sim_params (gravity [m/s²], nd_per_contact, contact_detection_tolerance [m],
  is_quasi_dynamic, unactuated_mass_scale, h [s] when present).
- The model directive (Drake's ProcessModelDirectives): add_model, add_frame (X_PF: base_frame,
  translation [m], rotation !Rpy {deg|rad: [roll, pitch, yaw]}), add_weld, add_directives.
- SDF (Drake's SDFormat parser, SDF 1.6/1.7 frame semantics): links with <pose> (relative to the
  model frame unless relative_to names a link), <inertial> (mass [kg], inertia [kg·m²] about the
  centre of mass, its <pose>), <collision> spheres and boxes with any <pose> and <surface>
  friction <mu> (Drake's default 1 without one); joints revolute, prismatic and fixed, the
  joint frame at the child link (its <pose> relative to the child unless relative_to says
  otherwise), <axis><xyz> in the joint frame, or the model frame when
  expressed_in="__model__" or (SDF 1.6) use_parent_model_frame. A link with no joint to its
  parent and no weld floats (Drake's quaternion floating joint).

A model's q is in Drake's order: its joints depth first from the world, children in the order
their links are declared; a floating body (qw, qx, qy, qz, x, y, z), v (ω, v) in the world.
"""

from dataclasses import dataclass, field
import math
import pathlib
import re
import xml.etree.ElementTree as ET

import numpy as np
import yaml


DRAKE_DEFAULT_FRICTION = 1.0


class FileError(ValueError):
    """A file the transcription cannot read: the message names the file and the element."""


@dataclass
class Shape:
    """A collision shape on a body: kind "sphere" (size = (radius,)) or "box" (size = full edge
    lengths) [m]; R, p its pose in the body frame; mu Drake's static friction."""
    name: str
    kind: str
    size: tuple
    R: np.ndarray
    p: np.ndarray
    mu: float


@dataclass
class Body:
    """A rigid body (an SDF link). joint: "world" (welded to the world), "fixed", "revolute",
    "prismatic" or "floating"; parent: the parent body's index (-1: the world); R0, p0 its pose
    in the parent's frame at q = 0; axis (unit) and origin: the joint's in this body's frame;
    q_index: the joint's coordinate in the model's q (floating: the first of 7)."""
    name: str
    model: str
    mass: float
    com: np.ndarray
    inertia: np.ndarray
    shapes: list
    joint: str = "floating"
    joint_name: str = ""
    parent: int = -1
    R0: np.ndarray = field(default_factory=lambda: np.eye(3))
    p0: np.ndarray = field(default_factory=lambda: np.zeros(3))
    axis: np.ndarray = field(default_factory=lambda: np.zeros(3))
    origin: np.ndarray = field(default_factory=lambda: np.zeros(3))
    q_index: int = -1


@dataclass
class Model:
    """A model instance: kind "robot", "object" or "static" (neither: welded scenery); nq its
    number of positions; joint_names in q order; kp [N/m or N·m/rad] for a robot."""
    name: str
    kind: str
    nq: int = 0
    nv: int = 0
    joint_names: list = field(default_factory=list)
    kp: list = field(default_factory=list)


@dataclass
class TreeSystem:
    """What qsim's step needs of a system file: bodies (parents before children), models, and
    quasistatic_sim_params."""
    bodies: list
    models: dict
    gravity: np.ndarray
    nd_per_contact: int
    contact_detection_tolerance: float
    h: float
    is_quasi_dynamic: bool
    unactuated_mass_scale: float


# --- small geometry -------------------------------------------------------------------------


def rpy_matrix(roll, pitch, yaw):
    """Drake's RollPitchYaw(r, p, y).ToRotationMatrix(): Rz(y) Ry(p) Rx(r) [rad]."""
    cr, sr, cp, sp = math.cos(roll), math.sin(roll), math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return np.array([[cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr],
                     [sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr],
                     [-sp, cp * sr, cp * cr]])


def axis_angle_matrix(axis, angle):
    """Rotation by `angle` [rad] about the unit `axis` (Rodrigues)."""
    k = np.asarray(axis, dtype=float)
    K = np.array([[0.0, -k[2], k[1]], [k[2], 0.0, -k[0]], [-k[1], k[0], 0.0]])
    return np.eye(3) + math.sin(angle) * K + (1.0 - math.cos(angle)) * K @ K


def compose(a, b):
    """X_AC = X_AB X_BC for poses (R, p)."""
    return a[0] @ b[0], a[0] @ b[1] + a[1]


def inverse(a):
    return a[0].T, -a[0].T @ a[1]


IDENTITY = (np.eye(3), np.zeros(3))

# --- SDF --------------------------------------------------------------------------------------


def _numbers(text, count, where):
    try:
        values = [float(x) for x in (text or "").split()]
    except ValueError:
        raise FileError(f"{where}: expected {count} numbers, got {text!r}") from None
    if len(values) != count:
        raise FileError(f"{where}: expected {count} numbers, got {text!r}")
    return values


def _pose(element, where):
    """(R, p, relative_to) of an element's <pose> (identity when absent)."""
    pose = element.find("pose")
    if pose is None:
        return np.eye(3), np.zeros(3), None
    x, y, z, r, p, yaw = _numbers(pose.text, 6, f"{where} <pose>")
    relative_to = pose.get("relative_to") or None
    return rpy_matrix(r, p, yaw), np.array([x, y, z]), relative_to


def _friction(collision, where):
    mu = collision.find("surface/friction/ode/mu")
    if mu is None:  # Drake's default_friction() (parsing/detail_common.h): static 1
        return DRAKE_DEFAULT_FRICTION
    return _numbers(mu.text, 1, f"{where} <mu>")[0]


def _shapes(link, where):
    shapes = []
    for collision in link.findall("collision"):
        cwhere = f"{where} collision '{collision.get('name')}'"
        R, p, relative_to = _pose(collision, cwhere)
        if relative_to not in (None, link.get("name")):
            raise FileError(f"{cwhere}: <pose relative_to={relative_to!r}> is not read "
                            "(only the link's own frame)")
        geometry = collision.find("geometry")
        sphere, box = geometry.find("sphere"), geometry.find("box")
        if sphere is not None:
            size = tuple(_numbers(sphere.findtext("radius"), 1, f"{cwhere} <radius>"))
            kind = "sphere"
        elif box is not None:
            size = tuple(_numbers(box.findtext("size"), 3, f"{cwhere} <size>"))
            kind = "box"
        else:
            raise FileError(f"{cwhere}: only <sphere> and <box> are transcribed (got "
                            f"{[child.tag for child in geometry]})")
        shapes.append(Shape(collision.get("name"), kind, size, R, p,
                            _friction(collision, cwhere)))
    return shapes


def _inertial(link, where):
    inertial = link.find("inertial")
    if inertial is None:  # SDF's default: 1 kg, unit inertia
        return 1.0, np.zeros(3), np.eye(3)
    mass = _numbers(inertial.findtext("mass", "1"), 1, f"{where} <mass>")[0]
    R, com, _ = _pose(inertial, f"{where} <inertial>")
    values = {k: 0.0 for k in ("ixx", "iyy", "izz", "ixy", "ixz", "iyz")}
    values.update(ixx=1.0, iyy=1.0, izz=1.0)
    block = inertial.find("inertia")
    if block is not None:
        for key in values:
            text = block.findtext(key)
            if text is not None:
                values[key] = _numbers(text, 1, f"{where} <{key}>")[0]
    I = np.array([[values["ixx"], values["ixy"], values["ixz"]],
                  [values["ixy"], values["iyy"], values["iyz"]],
                  [values["ixz"], values["iyz"], values["izz"]]])
    return mass, com, R @ I @ R.T


def read_sdf(path, model_name):
    """The model's links (poses in the model frame at q = 0) and joints of one SDF file:
    (bodies in declaration order, joints as dicts)."""
    where = str(path)
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as error:
        raise FileError(f"{where}: {error}") from None
    version = root.get("version", "1.7")
    model = root.find("model")
    if model is None:
        raise FileError(f"{where}: no <model>")
    links, X_M = {}, {}
    pending = []
    for link in model.findall("link"):
        name = link.get("name")
        lwhere = f"{where} link '{name}'"
        R, p, relative_to = _pose(link, lwhere)
        pending.append((name, R, p, relative_to, lwhere))
        mass, com, inertia = _inertial(link, lwhere)
        links[name] = Body(f"{model_name}::{name}", model_name, mass, com, inertia,
                           _shapes(link, lwhere))
    for _ in range(len(pending)):  # links posed relative to other links, in any order
        for name, R, p, relative_to, lwhere in pending:
            if name in X_M:
                continue
            if relative_to in (None, "__model__"):
                X_M[name] = (R, p)
            elif relative_to in X_M:
                X_M[name] = compose(X_M[relative_to], (R, p))
            elif relative_to not in links:
                raise FileError(f"{lwhere}: <pose relative_to={relative_to!r}> names no link")
    joints = []
    for joint in model.findall("joint"):
        name, kind = joint.get("name"), joint.get("type")
        jwhere = f"{where} joint '{name}'"
        if kind not in ("revolute", "prismatic", "fixed"):
            raise FileError(f"{jwhere}: type {kind!r} is not transcribed (revolute, prismatic, "
                            "fixed)")
        parent, child = joint.findtext("parent"), joint.findtext("child")
        if child not in links or (parent not in links and parent != "world"):
            raise FileError(f"{jwhere}: parent {parent!r} or child {child!r} is not a link")
        R, p, relative_to = _pose(joint, jwhere)
        if relative_to in (None, child):
            X_CJ = (R, p)
        elif relative_to == "__model__" or relative_to in X_M:
            X_MF = IDENTITY if relative_to == "__model__" else X_M[relative_to]
            X_CJ = compose(inverse(X_M[child]), compose(X_MF, (R, p)))
        else:
            raise FileError(f"{jwhere}: <pose relative_to={relative_to!r}> names no link")
        axis_C = np.zeros(3)
        if kind != "fixed":
            xyz = joint.find("axis/xyz")
            if xyz is None:
                raise FileError(f"{jwhere}: no <axis><xyz>")
            a = np.array(_numbers(xyz.text, 3, f"{jwhere} <axis><xyz>"))
            a /= np.linalg.norm(a)
            in_model = xyz.get("expressed_in") == "__model__" or (
                version.startswith("1.6") and
                (joint.findtext("axis/use_parent_model_frame") or "").strip() in ("true", "1"))
            axis_C = X_M[child][0].T @ a if in_model else X_CJ[0] @ a
        joints.append({"name": name, "type": kind, "parent": parent, "child": child,
                       "axis": axis_C, "origin": X_CJ[1], "where": jwhere})
    model_pose = _pose(model, f"{where} <model>")
    return links, X_M, joints, (model_pose[0], model_pose[1])


# --- package:// and the model directive -----------------------------------------------------


def resolve(uri, packages, where):
    """A package://NAME/PATH or file path, with `packages` {NAME: folder}."""
    match = re.fullmatch(r"package://([^/]+)/(.*)", uri)
    if not match:
        return pathlib.Path(uri)
    name, rest = match.groups()
    if name not in packages:
        raise FileError(f"{where}: package {name!r} unknown (give packages={{{name!r}: "
                        "folder}})")
    return pathlib.Path(packages[name]) / rest


def _find_packages(start):
    """Packages of package.xml files in `start`'s folder and its ancestors (as Drake's
    PackageMap::PopulateUpstreamToDrake does for a file's folder)."""
    found = {}
    for folder in [start, *start.parents]:
        xml = folder / "package.xml"
        if xml.is_file():
            name = ET.parse(xml).getroot().findtext("name")
            found.setdefault(name.strip(), folder)
    return found


class _Rpy(dict):
    pass


def _rpy_constructor(loader, node):
    return _Rpy(loader.construct_mapping(node, deep=True))


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!Rpy", _rpy_constructor)


def _load_yaml(path):
    try:
        with open(path) as f:
            return yaml.load(f, Loader=_Loader)
    except (OSError, yaml.YAMLError) as error:
        raise FileError(f"{path}: {error}") from None


def _rotation(value, where):
    if value is None:
        return np.eye(3)
    if isinstance(value, _Rpy) and ("deg" in value or "rad" in value):
        angles = [float(a) for a in value.get("rad", value.get("deg"))]
        if "deg" in value:
            angles = [math.radians(a) for a in angles]
        return rpy_matrix(*angles)
    raise FileError(f"{where}: rotation {value!r}: only !Rpy {{deg|rad: [r, p, y]}} is read")


def read_directive(path, packages, out=None):
    """The directive's models {name: file}, frames {name: (base, R, p)} and welds
    [(parent frame, child 'model::link')], add_directives followed."""
    out = out or {"models": {}, "frames": {}, "welds": []}
    data = _load_yaml(path) or {}
    for k, item in enumerate(data.get("directives") or []):
        where = f"{path} directive {k + 1}"
        if "add_model" in item:
            spec = item["add_model"]
            out["models"][spec["name"]] = resolve(spec["file"], packages, where)
        elif "add_frame" in item:
            spec = item["add_frame"]
            X = spec["X_PF"]
            out["frames"][spec["name"]] = (X["base_frame"], _rotation(X.get("rotation"), where),
                                           np.array(X.get("translation", [0, 0, 0]),
                                                    dtype=float))
        elif "add_weld" in item:
            out["welds"].append((item["add_weld"]["parent"], item["add_weld"]["child"]))
        elif "add_directives" in item:
            read_directive(resolve(item["add_directives"]["file"], packages, where), packages,
                           out)
        else:
            raise FileError(f"{where}: {sorted(item)} is not read (add_model, add_frame, "
                            "add_weld, add_directives)")
    return out


# --- the system file ----------------------------------------------------------------------------


def _frame_pose(name, frames, welded, where):
    """X_W of a directive frame or of a link welded to the world ('model::link')."""
    if name == "world":
        return IDENTITY
    if name in frames:
        base, R, p = frames[name]
        return compose(_frame_pose(base, frames, welded, where), (R, p))
    if name in welded:
        return welded[name]
    raise FileError(f"{where}: frame {name!r} is neither 'world', a directive frame nor a "
                    "link welded to the world")


def read_system(path, packages=None, h=None):
    """The TreeSystem of a qsim system file. packages: {name: folder} besides those found by
    package.xml files above the system file; h [s] > 0 when the file has none."""
    path = pathlib.Path(path)
    known = _find_packages(path.resolve().parent)
    known.update({k: pathlib.Path(v) for k, v in (packages or {}).items()})
    data = _load_yaml(path)
    if not isinstance(data, dict) or "model_directive" not in data:
        raise FileError(f"{path}: a qsim system file needs a model_directive")
    params = data.get("quasistatic_sim_params") or {}
    directive = read_directive(resolve(data["model_directive"], known, str(path)), known)
    files = dict(directive["models"])
    kinds = {name: "static" for name in files}
    models = {}
    for robot in data.get("robots") or []:
        kinds[robot["name"]] = "robot"
        models[robot["name"]] = Model(robot["name"], "robot", kp=[float(k) for k in robot["Kp"]])
    for obj in data.get("objects") or []:
        files[obj["name"]] = resolve(obj["file"], known, str(path))
        kinds[obj["name"]] = "object"
        models[obj["name"]] = Model(obj["name"], "object")
    for name in files:
        models.setdefault(name, Model(name, "static"))
    parsed = {name: read_sdf(file, name) for name, file in files.items()}
    # Welds to the world, in directive order (a weld's parent may be a link welded before it).
    welded = {}
    for parent, child in directive["welds"]:
        where = f"{path}: add_weld {parent} -> {child}"
        model, _, link = child.partition("::")
        if model not in parsed or link not in parsed[model][0]:
            raise FileError(f"{where}: no link {child!r}")
        welded[child] = _frame_pose(parent, directive["frames"], welded, where)
    bodies = []
    # Objects first, then robots, then the scenery (the order changes no answer).
    order = sorted(files, key=lambda n: ("object", "robot", "static").index(kinds[n]))
    for name in order:
        offset = len(bodies)
        for body in _model_bodies(models[name], *parsed[name], welded):
            body.parent += offset if body.parent >= 0 else 0
            bodies.append(body)
    for name, model in models.items():
        if model.kind == "robot" and len(model.kp) != model.nv:
            raise FileError(f"{path}: robot {name!r} has {model.nv} velocities but "
                            f"{len(model.kp)} Kp")
        if model.kind == "static" and model.nq:
            raise FileError(f"{path}: model {name!r} moves but is neither a robot nor an object")
    if h is None:
        h = params.get("h")
    if h is None or not float(h) > 0:
        raise ValueError(f"{path}: h must be > 0 s (the file has none; pass h)")
    scale = params.get("unactuated_mass_scale", math.nan)
    return TreeSystem(bodies, models, np.array(params.get("gravity", [0, 0, 0]), dtype=float),
                      int(params.get("nd_per_contact", 4)),
                      float(params.get("contact_detection_tolerance", 0.0)), float(h),
                      bool(params.get("is_quasi_dynamic", False)),
                      math.nan if scale is None else float(scale))


def _model_bodies(model, links, X_M, joints, X_WM, welded):
    """The model's bodies depth first from the world (children in link declaration order),
    their joints' coordinates numbered in that order into model.nq/nv."""
    by_child = {j["child"]: j for j in joints}
    children = {name: [] for name in links}
    children["world"] = []
    for name in links:  # declaration order
        if name in by_child:
            children[by_child[name]["parent"]].append(name)
    roots = [n for n in links if n not in by_child or by_child[n]["parent"] == "world"]
    out, index = [], {}

    def visit(name, parent_index):
        body = links[name]
        joint = by_child.get(name)
        key = f"{model.name}::{name}"
        if joint is None:
            if key in welded:
                body.joint, (body.R0, body.p0) = "world", welded[key]
            else:
                body.joint, (body.R0, body.p0) = "floating", compose(X_WM, X_M[name])
                body.q_index = model.nq
                model.nq += 7
                model.nv += 6
                model.joint_names.append(f"{name}/floating")
        else:
            if key in welded:
                raise FileError(f"{joint['where']}: its child is also welded by a directive")
            X_P = X_WM if joint["parent"] == "world" else X_M[joint["parent"]]
            body.R0, body.p0 = compose(inverse(X_P), X_M[name])
            body.joint, body.joint_name = joint["type"], joint["name"]
            body.axis, body.origin = joint["axis"], joint["origin"]
            if joint["type"] != "fixed":
                body.q_index = model.nq
                model.nq += 1
                model.nv += 1
                model.joint_names.append(joint["name"])
        body.parent = parent_index
        index[name] = len(out)
        out.append(body)
        for child in children[name]:
            visit(child, index[name])

    for root in roots:
        visit(root, -1)
    return out
