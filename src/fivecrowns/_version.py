"""The installed package's version, read once from its metadata (pyproject.toml's
``version``): ``fivecrowns.__version__``, and what the modules below the package record."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["VERSION"]

try:
    VERSION = version("fivecrowns")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0.0.0+unknown"
