"""setuptools glue for `pip install .` (pyproject.toml): the extension quasidyn._quasidyn is
built by the project's own CMake build, never by setuptools' compiler.

Environment:
  QUASIDYN_CMAKE_BUILD_DIR  an already configured build directory (cmake --preset release:
                            build/release) to reuse; only the module's target is brought up to
                            date there. Without it, a fresh build under build/pip-<python>
                            (tests and benchmarks off) for the interpreter running pip.
  CMAKE_BUILD_PARALLEL_LEVEL  compile jobs (default 2).
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SETUPTOOLS_DIR = ROOT / "build" / "setuptools"  # setuptools' own scratch (ignored by git)


def project_version():
    """The version of CMakeLists.txt's project() call: the one place it is written."""
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    match = re.search(r"project\(quasidyn VERSION ([0-9.]+)", text)
    if not match:
        raise RuntimeError("CMakeLists.txt: no 'project(quasidyn VERSION x.y.z)'")
    return match.group(1)


class CMakeExtension(Extension):
    """An extension whose binary is the CMake target of the same name."""

    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        env = dict(os.environ)
        env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", "2")
        build_dir = os.environ.get("QUASIDYN_CMAKE_BUILD_DIR")
        if build_dir:
            build_dir = Path(build_dir).resolve()
            if not (build_dir / "CMakeCache.txt").is_file():
                raise RuntimeError(
                    f"QUASIDYN_CMAKE_BUILD_DIR={build_dir}: not a configured CMake build "
                    "directory (no CMakeCache.txt); run cmake --preset release first")
        else:
            build_dir = ROOT / "build" / f"pip-python{sys.version_info[0]}.{sys.version_info[1]}"
            subprocess.run(
                ["cmake", "-S", str(ROOT), "-B", str(build_dir), "-DCMAKE_BUILD_TYPE=Release",
                 "-DQUASIDYN_BUILD_TESTS=OFF", "-DQUASIDYN_BUILD_BENCH=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"],
                check=True, env=env)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", ext.target],
                       check=True, env=env)
        # The module must be built for the interpreter running pip (same ABI suffix).
        suffix = sysconfig.get_config_var("EXT_SUFFIX")
        built = build_dir / "python" / "quasidyn" / f"{ext.target}{suffix}"
        if not built.is_file():
            raise RuntimeError(
                f"{built}: not built; the build directory must be configured for this "
                f"interpreter ({sys.executable}, -DPython3_EXECUTABLE)")
        destination = Path(self.get_ext_fullpath(ext.name))
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, destination)


SETUPTOOLS_DIR.mkdir(parents=True, exist_ok=True)
setup(
    version=project_version(),
    packages=["quasidyn"],
    package_dir={"quasidyn": "python/quasidyn"},
    package_data={"quasidyn": ["py.typed", "*.pyi"]},
    ext_modules=[CMakeExtension("quasidyn._quasidyn", target="_quasidyn")],
    cmdclass={"build_ext": CMakeBuild},
    options={"build": {"build_base": str(SETUPTOOLS_DIR)},
             "egg_info": {"egg_base": str(SETUPTOOLS_DIR)}},
    zip_safe=False,
)
