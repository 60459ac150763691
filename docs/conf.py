"""Sphinx configuration for the fivecrowns docs.

Build: ``sphinx-build -W --keep-going -b html docs docs/_build/html`` with the package
installed (``pip install -e ".[docs]"``); autodoc documents the installed package.
"""

from __future__ import annotations

import fivecrowns

project = "fivecrowns"
author = "fivecrowns developers"
copyright = "2026, fivecrowns developers"
release = fivecrowns.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

# numpydoc-style docstrings, read by napoleon.
napoleon_google_docstring = False
napoleon_numpy_docstring = True
napoleon_use_ivar = True
napoleon_use_rtype = False
napoleon_preprocess_types = False

autodoc_default_options = {
    "members": True,
    "undoc-members": False,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_typehints = "description"
autodoc_typehints_format = "short"
autodoc_preserve_defaults = True
autosummary_generate = False

nitpicky = False

templates_path: list[str] = []
exclude_patterns = ["_build"]
html_theme = "furo"
html_title = f"fivecrowns {release}"
html_static_path: list[str] = []

# numpydoc type fields such as "cards" or "int, optional" become cross-references; an
# ambiguous one (Meld.cards and Solution.cards) is harmless, not worth failing -W over.
suppress_warnings = ["ref.python"]
