"""The PEP 517 build backend of `pip install .` (pyproject.toml, backend-path): setuptools'
own backend (setup.py drives the project's CMake build), taken from the interpreter's packages.

quasidyn builds offline with Debian's tools: setuptools and wheel come from apt
(python3-setuptools, python3-wheel), so pyproject.toml asks pip to install nothing
(requires = []). In an isolated build environment (pip's default) neither is importable;
instead of pip's attempt to download them, which fails without network in several lines, the
build stops with one line saying what it needs (docs/python.md, "Installing with pip").
"""

import sys

NEEDS = ("quasidyn: pip install needs setuptools and wheel from the system (Debian: apt install "
         "python3-setuptools python3-wheel) and no build isolation: python3 -m venv "
         "--system-site-packages VENV && VENV/bin/pip install --no-build-isolation .")


def _setuptools():
    """setuptools.build_meta, or exit with NEEDS when setuptools or wheel is missing."""
    try:
        import wheel  # noqa: F401  (bdist_wheel)
        from setuptools import build_meta
    except ImportError:
        sys.exit(NEEDS)
    return build_meta


def get_requires_for_build_wheel(config_settings=None):
    return _setuptools().get_requires_for_build_wheel(config_settings)


def get_requires_for_build_sdist(config_settings=None):
    return _setuptools().get_requires_for_build_sdist(config_settings)


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    return _setuptools().prepare_metadata_for_build_wheel(metadata_directory, config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _setuptools().build_wheel(wheel_directory, config_settings, metadata_directory)


def build_sdist(sdist_directory, config_settings=None):
    return _setuptools().build_sdist(sdist_directory, config_settings)
