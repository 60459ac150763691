"""A file of hands read and written one batch at a time: the batches of
:func:`fivecrowns.files.score_file` (:class:`Part`), the Parquet, CSV and ``.npy``
readers, and the writers of the scored rows. Private: :mod:`fivecrowns.files` runs them.
"""

from __future__ import annotations

import codecs
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._batches import CARD_COLUMNS, IO_WHAT, BatchScorer, _pa
from ._optional import requires

__all__ = ["Part", "NpyWriter", "TableWriter", "csv_types", "load_npy", "npy_blocks",
           "parquet_file", "printable", "read_csv", "read_npy", "read_parquet"]


@dataclass
class Part:
    """One batch: its rows (a pyarrow batch, or None for .npy input), counts and scores."""

    table: Any
    counts: npt.NDArray[np.uint8] | None
    scores: dict[str, npt.NDArray[np.int32]]
    errors: dict[int, str]
    scorer: BatchScorer

    @property
    def n(self) -> int:
        return len(self.table) if self.table is not None else len(self.counts)  # type: ignore

    def hand_counts(self) -> npt.NDArray[np.uint8]:
        if self.counts is None:
            self.counts = self.scorer.counts(self.table)[0]
        return self.counts

    def rows(self, keep: npt.NDArray[np.bool_] | None) -> Any:
        """The kept rows (all: ``None``) as a pyarrow batch (56 count columns for .npy)."""
        pa = _pa()
        if self.table is not None:
            return self.table if keep is None else self.table.filter(pa.array(keep))
        counts = self.hand_counts()
        if keep is not None:
            counts = counts[keep]
        return pa.record_batch([pa.array(counts[:, j]) for j in range(56)],
                               names=list(CARD_COLUMNS))


def csv_types(column: str | None, wild: int | str) -> dict[str, Any]:
    pa = _pa()
    names = [column or "hand", *CARD_COLUMNS] + ([wild] if isinstance(wild, str) else [])
    return {name: pa.string() for name in names}


def parquet_file(src: Path) -> Any:
    """``pq.ParquetFile(src)``; a file that is not Parquet is a one-line ``ValueError``."""
    with requires("io", IO_WHAT):
        import pyarrow as pa
        import pyarrow.parquet as pq

    try:
        # pre_buffer (the default) keeps every row group read so far: memory would grow
        # with the file (10 million hands: +150 MB); without it the reader holds one group.
        return pq.ParquetFile(src, pre_buffer=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError) as exc:
        raise ValueError(f"{src.name}: not a Parquet file, or a damaged one (its footer "
                         f"does not read as Parquet's)") from exc


def read_parquet(src: Path, batch_size: int) -> tuple[Any, Iterator[Any]]:
    pf = parquet_file(src)
    return pf.schema_arrow, pf.iter_batches(batch_size=batch_size)


#: Bytes of a CSV file looked at to tell text from binary data.
_TEXT_PROBE = 1 << 16


def _check_text(src: Path) -> None:
    """A ``ValueError`` for a ``.csv`` whose first bytes are not UTF-8 text (as pyarrow
    reads CSV): its error would quote the bytes of the first bad line to the terminal."""
    with open(src, "rb") as f:
        head = f.read(_TEXT_PROBE)
    try:  # incremental: a character cut at the end of the probe is not an error
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError:
        binary = True
    else:
        binary = b"\0" in head
    if binary:
        raise ValueError(f"{src.name}: not a text CSV file (its first bytes are binary data, "
                         f"not UTF-8 text)")


def printable(text: str, most: int = 200) -> str:
    """``text`` with control characters escaped and cut to ``most`` characters: a library's
    message may quote a line of the file, which must not reach a terminal raw."""
    text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return text if len(text) <= most else text[:most - 3] + "..."


def read_csv(src: Path, column: str | None, wild: int | str) -> tuple[Any, Iterator[Any]]:
    with requires("io", IO_WHAT):
        import pyarrow.csv as pacsv

    _check_text(src)

    reader = pacsv.open_csv(
        src, read_options=pacsv.ReadOptions(block_size=1 << 22),
        convert_options=pacsv.ConvertOptions(column_types=csv_types(column, wild),
                                             strings_can_be_null=True))
    return reader.schema, iter(reader)


_NPY_MAGIC = b"\x93NUMPY"


def load_npy(src: Path) -> npt.NDArray[Any]:
    """``np.load(src)`` as a memory map; a file that is no ``.npy`` array is a one-line
    ``ValueError`` that names it."""
    with open(src, "rb") as f:
        magic = f.read(len(_NPY_MAGIC))
    if magic != _NPY_MAGIC:
        raise ValueError(f"{src.name}: not a .npy file (it does not start with NumPy's "
                         f".npy header)")
    try:
        arr: npt.NDArray[Any] = np.load(src, mmap_mode="r", allow_pickle=False)
    except ValueError as exc:
        raise ValueError(f"{src.name}: a damaged .npy file, or one of Python objects rather "
                         f"than an array of numbers") from exc
    return arr


def read_npy(src: Path) -> npt.NDArray[Any]:
    arr = load_npy(src)
    if arr.dtype.names and "counts" in arr.dtype.names:  # the output of score_file
        arr = arr["counts"]
    if arr.ndim != 2 or arr.shape[1] != 56:
        raise ValueError(f"{src.name}: a .npy of hands must be an (N, 56) array of counts, "
                         f"got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{src.name}: card counts must be integers, got {arr.dtype}")
    return arr


def npy_blocks(src: Path, arr: npt.NDArray[Any], rows: int) -> Iterator[npt.NDArray[Any]]:
    """``arr`` (from :func:`read_npy`) ``rows`` rows at a time, read from the file.

    Slicing the memory map would leave every page read so far in the process's resident
    memory (the file's size, at the end); reading each block keeps it to one block.
    """
    base = arr.base if isinstance(arr.base, np.memmap) else arr
    if not isinstance(base, np.memmap) or not base.flags.c_contiguous:
        for start in range(0, len(arr), rows):  # pragma: no cover - np.load maps C arrays
            yield np.asarray(arr[start:start + rows])
        return
    per_row = 1 if base.dtype.names else 56
    with open(src, "rb") as f:
        for start in range(0, len(arr), rows):
            n = min(rows, len(arr) - start)
            f.seek(base.offset + start * per_row * base.dtype.itemsize)
            block: npt.NDArray[Any] = np.fromfile(f, dtype=base.dtype, count=n * per_row)
            yield block["counts"] if base.dtype.names else block.reshape(n, 56)


class NpyWriter:
    """A structured .npy (``counts``, ``deadwood``[, ``discard_deadwood``]) written as it
    streams; the header's row count is filled in at the end."""

    HEADER = 256

    def __init__(self, path: Path, discard: bool) -> None:
        fields = [("counts", "u1", (56,)), ("deadwood", "<i4")]
        if discard:
            fields.append(("discard_deadwood", "<i4"))
        self.dtype = np.dtype(fields)
        self.rows = 0
        self.file = open(path, "wb")
        self.file.write(self._header(0))

    def _header(self, n: int) -> bytes:
        from numpy.lib.format import dtype_to_descr

        text = repr({"descr": dtype_to_descr(self.dtype), "fortran_order": False,
                     "shape": (n,)}).encode("latin1")
        pad = self.HEADER - 10 - len(text) - 1
        if pad < 0:  # pragma: no cover - three fields' descr fit in 256 bytes
            raise ValueError("npy header too long")
        return (b"\x93NUMPY\x01\x00" + (self.HEADER - 10).to_bytes(2, "little") + text
                + b" " * pad + b"\n")

    def write(self, part: Part, keep: npt.NDArray[np.bool_]) -> None:
        out = np.empty(int(keep.sum()), dtype=self.dtype)
        out["counts"] = part.hand_counts()[keep]
        for name, values in part.scores.items():
            out[name] = values[keep]
        self.file.write(out.tobytes())
        self.rows += len(out)

    def close(self) -> None:
        self.file.seek(0)
        self.file.write(self._header(self.rows))
        self.file.close()


class TableWriter:
    """Parquet or CSV, the input's columns plus ``extra`` (name -> pyarrow type)."""

    def __init__(self, path: Path, fmt: str, schema: Any, extra: dict[str, Any]) -> None:
        pa = _pa()
        for name, typ in extra.items():
            if name in schema.names:
                raise ValueError(f"the input already has a column {name!r}")
            schema = schema.append(pa.field(name, typ))
        self.schema = schema
        self.extra = extra
        if fmt == "parquet":
            with requires("io", IO_WHAT):
                import pyarrow.parquet as pq

            # Dictionary pages pay off for repetitive columns; trying them on a column of
            # distinct hands costs more than the rest of writing it (0.5 -> 0.2 s per
            # million rows), so text columns are written plain.
            pa_types = _pa().types
            plain = [f.name for f in schema if pa_types.is_string(f.type)
                     or pa_types.is_large_string(f.type) or pa_types.is_binary(f.type)]
            self.writer = pq.ParquetWriter(path, schema, use_dictionary=[
                n for n in schema.names if n not in plain])
        else:
            with requires("io", IO_WHAT):
                import pyarrow.csv as pacsv

            self.writer = pacsv.CSVWriter(path, schema, write_options=pacsv.WriteOptions(
                quoting_style="needed"))

    def write(self, rows: Any, columns: dict[str, Any]) -> None:
        pa = _pa()
        arrays = list(rows.columns) + [pa.array(columns[name], type=typ)
                                       for name, typ in self.extra.items()]
        self.writer.write_table(pa.Table.from_arrays(arrays, schema=self.schema))

    def close(self) -> None:
        self.writer.close()


