"""A scene as plain data that another process or machine rebuilds: quasidyn.distributed's work
units carry it instead of a Scene (a C++ object, never pickled). docs/distributed.md.

A SceneSource holds the scene file's text, the files it may reference (its folder's tree and
its packages' folders, by relative path, or nothing when the workers share the client's file
system), and the edits made after loading (Scene.with_q0, with_friction, ...), replayed in order
on the worker. Its digest (SHA-256 of all of it) names it in the workers' caches.

Scenes loaded by quasidyn.load_scene / load_scene_from_string and edited by Scene.with_* remember
how they were made (a weak map filled by the wrappers of quasidyn/__init__.py), so
SceneSource.of(scene) works for them; a Scene made otherwise raises TypeError.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import shutil
import tempfile
import weakref
from typing import Any, Dict, Mapping, Optional, Tuple

import numpy as np

# The Scene methods a SceneSource replays (every Scene.with_* of the module).
EDIT_METHODS = ("with_q0", "with_commands", "with_stiffness", "with_friction",
                "with_formulation", "with_time_step", "with_contact_tolerance")

# Shipping a folder tree larger than this [bytes] is refused (use ship_files=False on a shared
# file system instead): every worker receives it once per scene.
MAX_SHIPPED_BYTES = 64 * 1024 * 1024

# Scene -> how it was made: ("file", path, packages, text, edits) or ("string", text, name,
# folder, edits); the other files are read only when a SceneSource is asked for.
_ORIGINS: "weakref.WeakKeyDictionary[Any, tuple]" = weakref.WeakKeyDictionary()


def _tree(folder: str, prefix: str, out: Dict[str, bytes]) -> None:
    """Every regular file below `folder` (hidden entries and __pycache__ left out); stops with
    ValueError beyond MAX_SHIPPED_BYTES in `out`."""
    size = sum(len(b) for b in out.values())
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(names):
            if name.startswith("."):
                continue
            path = os.path.join(root, name)
            if not os.path.isfile(path):
                continue
            relative = os.path.relpath(path, folder).replace(os.sep, "/")
            size += os.path.getsize(path)
            if size > MAX_SHIPPED_BYTES:
                raise ValueError(
                    f"SceneSource: {folder} holds more than {MAX_SHIPPED_BYTES} bytes to send to "
                    "every worker; put the scene's files on a file system the workers share and "
                    "pass ship_files=False")
            with open(path, "rb") as f:
                out[prefix + relative] = f.read()


def _canonical(value: Any) -> Any:
    """A picklable, deterministic form of an edit's arguments (arrays by dtype, shape, bytes)."""
    if isinstance(value, np.ndarray):
        return ("ndarray", value.dtype.str, value.shape, np.ascontiguousarray(value).tobytes())
    if isinstance(value, (list, tuple)):
        return tuple(_canonical(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, _canonical(v)) for k, v in value.items()))
    return value


@dataclasses.dataclass(frozen=True)
class SceneSource:
    """A scene file's text, the files it references and the edits after loading.

    text: the scene file's YAML. name: the file's path on the client (error messages say it).
    files: relative path (from the scene file's folder) -> bytes, materialised on each worker
    under a private folder; empty: the workers read `folder` (a shared file system).
    folder: the scene file's folder on the client (absolute). packages: package name -> folder,
    relative to the scene file's folder when shipped (`packages/NAME`). edits: (method, args,
    kwargs) of Scene.with_* calls, replayed in order.
    """

    text: str
    name: str
    files: Mapping[str, bytes] = dataclasses.field(default_factory=dict)
    folder: str = ""
    packages: Mapping[str, str] = dataclasses.field(default_factory=dict)
    edits: Tuple[Tuple[str, tuple, tuple], ...] = ()

    @classmethod
    def from_file(cls, path: "os.PathLike[str] | str", packages: Optional[Mapping[str, Any]] = None,
                  ship_files: bool = True) -> "SceneSource":
        """The scene file `path` and, with ship_files, its folder's tree and its packages' folders
        (at most MAX_SHIPPED_BYTES in all); without, the workers must see the same paths."""
        path = os.path.abspath(os.fspath(path))
        if not os.path.isfile(path):
            raise FileNotFoundError(2, "scene file not found", path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        folder = os.path.dirname(path)
        package_folders = {str(k): os.path.abspath(os.fspath(v)) for k, v in (packages or {}).items()}
        files: Dict[str, bytes] = {}
        if ship_files:
            _tree(folder, "", files)
            for name, package_folder in sorted(package_folders.items()):
                if not os.path.isdir(package_folder):
                    raise FileNotFoundError(2, f"package '{name}': folder not found",
                                            package_folder)
                _tree(package_folder, f"packages/{name}/", files)
                package_folders[name] = f"packages/{name}"
        return cls(text=text, name=path, files=files, folder=folder, packages=package_folders)

    @classmethod
    def from_string(cls, text: str, name: str = "<string>", folder: str = "") -> "SceneSource":
        """A scene given as text; relative model paths resolve against `folder` (shared)."""
        return cls(text=text, name=name, folder=os.path.abspath(folder) if folder else "")

    @classmethod
    def of(cls, scene: Any, ship_files: bool = True) -> "SceneSource":
        """How `scene` was made: a SceneSource as is, a path's file, or a quasidyn.Scene's file
        (or text), packages and edits (ship_files as in from_file)."""
        if isinstance(scene, SceneSource):
            return scene
        if isinstance(scene, (str, os.PathLike)):
            return cls.from_file(scene, ship_files=ship_files)
        recipe = _ORIGINS.get(scene)
        if recipe is None:
            raise TypeError(
                "quasidyn.distributed: this Scene was not made by quasidyn.load_scene, "
                "load_scene_from_string or Scene.with_*, so a worker cannot rebuild it; pass the "
                "scene file's path or a quasidyn.distributed.SceneSource")
        if recipe[0] == "file":
            _, path, packages, text, edits = recipe
            source = cls.from_file(path, packages, ship_files=ship_files)
            if source.text != text:
                raise ValueError(f"SceneSource: {path} changed since the scene was loaded; load "
                                 "it again")
        else:
            _, text, name, folder, edits = recipe
            source = cls.from_string(text, name, folder)
        return dataclasses.replace(source, edits=edits)

    def with_edit(self, method: str, *args: Any, **kwargs: Any) -> "SceneSource":
        """This source with one more Scene.with_* call (`method` names it)."""
        if method not in EDIT_METHODS:
            raise ValueError(f"SceneSource.with_edit: '{method}' is not one of {EDIT_METHODS}")
        edit = (method, tuple(args), tuple(sorted(kwargs.items())))
        return dataclasses.replace(self, edits=self.edits + (edit,))

    @property
    def digest(self) -> str:
        """SHA-256 of everything a worker rebuilds the scene from (hex)."""
        cached = self.__dict__.get("_digest")
        if cached is None:
            content = (self.text, self.name, tuple(sorted(self.files.items())), self.folder,
                       tuple(sorted(self.packages.items())), _canonical(self.edits))
            cached = hashlib.sha256(pickle.dumps(content, protocol=4)).hexdigest()
            object.__setattr__(self, "_digest", cached)
        return cached

    def _base_folder(self) -> str:
        """Where relative paths resolve in this process: `folder`, or the shipped files written
        once per digest under the temporary folder (atomically: staged, then renamed)."""
        if not self.files:
            return self.folder or os.getcwd()
        parent = os.path.join(tempfile.gettempdir(), f"quasidyn-scenes-{os.getuid()}")
        base = os.path.join(parent, self.digest[:32])
        if os.path.isdir(base):
            return base
        os.makedirs(parent, exist_ok=True)
        staging = tempfile.mkdtemp(prefix="staging-", dir=parent)
        try:
            for relative, content in self.files.items():
                target = os.path.join(staging, *relative.split("/"))
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "wb") as f:
                    f.write(content)
            os.rename(staging, base)
        except OSError:
            shutil.rmtree(staging, ignore_errors=True)
            if not os.path.isdir(base):  # not another process's copy that won the race
                raise
        return base

    def load(self) -> Any:
        """The Scene, built in this process (the shipped files written first)."""
        from quasidyn import _quasidyn
        base = self._base_folder()
        if self.packages:
            # Only load_scene takes packages: it reads the file, which must be this text.
            path = (os.path.join(base, os.path.basename(self.name)) if self.files else self.name)
            with open(path, encoding="utf-8") as f:
                if f.read() != self.text:
                    raise ValueError(f"SceneSource: {path} differs from the scene text sent")
            packages = {k: (v if os.path.isabs(v) else os.path.join(base, v))
                        for k, v in self.packages.items()}
            scene = _quasidyn.load_scene(path, packages=packages)
        else:
            scene = _quasidyn.load_scene_from_string(self.text, self.name, base)
        for method, args, kwargs in self.edits:
            scene = getattr(scene, method)(*args, **dict(kwargs))
        return scene


def remember_file(scene: Any, path: Any, packages: Optional[Mapping[str, Any]]) -> Any:
    """Records that `scene` is the file `path` with `packages` (for SceneSource.of)."""
    path = os.path.abspath(os.fspath(path))
    with open(path, encoding="utf-8") as f:  # the text loaded, to notice a later change
        text = f.read()
    _ORIGINS[scene] = ("file", path, {str(k): os.fspath(v) for k, v in (packages or {}).items()},
                       text, ())
    return scene


def remember_string(scene: Any, text: str, name: str, folder: Any) -> Any:
    """Records that `scene` is the text `text` with relative paths from `folder`."""
    _ORIGINS[scene] = ("string", text, name, os.path.abspath(os.fspath(folder)), ())
    return scene


def remember_edit(scene: Any, parent: Any, method: str, args: tuple, kwargs: dict) -> Any:
    """Records that `scene` is `parent` after parent.method(*args, **kwargs)."""
    recipe = _ORIGINS.get(parent)
    if recipe is not None:
        edit = (method, tuple(args), tuple(sorted(kwargs.items())))
        _ORIGINS[scene] = recipe[:-1] + (recipe[-1] + (edit,),)
    return scene
