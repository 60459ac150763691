"""Build the compiled solver core.

All metadata lives in pyproject.toml; this file only declares the extension.

Environment switches:

``FIVECROWNS_DEBUG=1``
    Build with Cython bounds checks on and ``-O0 -g``.
``FIVECROWNS_SANITIZE=1``
    With the debug build, also instrument with AddressSanitizer and UBSan.
"""

import os
import sys

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

DEBUG = os.environ.get("FIVECROWNS_DEBUG", "") not in ("", "0")
SANITIZE = os.environ.get("FIVECROWNS_SANITIZE", "") not in ("", "0")

directives = {
    "language_level": "3",
    "boundscheck": DEBUG,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": DEBUG,
    "embedsignature": True,
}

if sys.platform == "win32":
    compile_args = ["/O2"] if not DEBUG else ["/Od", "/Zi"]
    link_args: list[str] = []
else:
    compile_args = ["-O0", "-g"] if DEBUG else ["-O3"]
    link_args = []
    if SANITIZE:
        flags = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer"]
        compile_args += flags
        link_args += flags

extensions = [
    Extension(
        "fivecrowns._solver",
        ["src/fivecrowns/_solver.pyx"],
        include_dirs=[np.get_include()],
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        extra_compile_args=compile_args,
        extra_link_args=link_args,
    )
]

setup(ext_modules=cythonize(extensions, compiler_directives=directives))
