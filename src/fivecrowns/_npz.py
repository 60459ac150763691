"""NumPy ``.npz`` archives read and written safely: one clear ``ValueError`` for a file
that is not what was expected (never NumPy's advice to load pickled data, which would run
code from the file). Used by :mod:`fivecrowns.decisions` and :mod:`fivecrowns.learned`.
"""

from __future__ import annotations

import json
import zipfile
import zlib
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["write_array", "refusal", "open_npz", "npz_array", "npz_meta"]


def write_array(zf: zipfile.ZipFile, name: str, value: npt.NDArray[Any]) -> None:
    """``value`` as the member ``name.npy`` of an open zip (no pickles)."""
    with zf.open(name + ".npy", "w", force_zip64=True) as f:
        np.lib.format.write_array(f, np.ascontiguousarray(value), allow_pickle=False)


def refusal(path: Path, what: str, why: str, expected: str) -> ValueError:
    """The one error for a file that is not ``what``: ``why``, and what was expected."""
    return ValueError(f"{path}: not {what} ({why}); expected {expected}")


def open_npz(path: Path, what: str, expected: str) -> Any:
    """``path`` opened as a NumPy ``.npz`` (the caller closes it).

    Anything else is one ``ValueError`` saying what the file is not (``what``), what it
    is instead, and what was ``expected``: never NumPy's advice to load pickled data,
    which would run code from the file. A file that cannot be opened raises the
    ``OSError`` of ``open`` (no such file, a folder...)."""
    with open(path, "rb") as f:
        head = f.read(6)
    if head.startswith(b"\x93NUMPY"):
        raise refusal(path, what, "it is a single NumPy array, an .npy, not an .npz archive",
                   expected)
    if not head.startswith(b"PK"):
        raise refusal(path, what, "an empty file" if not head else
                   "it is not a zip archive, as every .npz is", expected)
    try:
        # zipfile first: np.load leaves the file open when the archive is damaged
        with zipfile.ZipFile(path):
            pass
        return np.load(path, allow_pickle=False)
    except (zipfile.BadZipFile, EOFError, ValueError):
        raise refusal(path, what, "a damaged or truncated zip archive", expected) from None


def npz_array(data: Any, name: str, path: Path, what: str,
               expected: str) -> npt.NDArray[Any]:
    """The array ``name`` of an open ``.npz``, or the ValueError of :func:`open_npz`."""
    if name not in data.files:
        raise refusal(path, what, f"no array {name!r}", expected)
    try:
        return np.asarray(data[name])
    except ValueError:  # an object array: NumPy would need allow_pickle
        raise refusal(path, what, f"its array {name!r} holds pickled Python objects",
                   expected) from None
    except (zipfile.BadZipFile, EOFError, OSError, zlib.error):
        raise refusal(path, what, f"its array {name!r} is damaged", expected) from None


def npz_meta(data: Any, path: Path, what: str, expected: str) -> dict[str, Any]:
    """The JSON text of the array ``meta``, as a dict."""
    raw = npz_array(data, "meta", path, what, expected)
    try:
        meta = json.loads(str(raw.reshape(-1)[0])) if raw.size == 1 \
            and raw.dtype.kind == "U" else None
    except json.JSONDecodeError:
        meta = None
    if not isinstance(meta, dict):
        raise refusal(path, what, "its 'meta' array is not a JSON object", expected)
    return meta

