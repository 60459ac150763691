"""Scoring hands straight from files: Parquet, CSV or ``.npy`` in, the same rows out with scores.

:func:`score_file` streams a file of hands through the compiled bulk solver in batches, so
memory stays flat however large the file is, and writes the same rows with a ``deadwood``
column added (and ``discard_deadwood``: the deadwood after the best discard). Parquet and
CSV need the ``fivecrowns[io]`` extra (pyarrow); ``backend="ray"`` runs the job on Ray Data
(the ``fivecrowns[ray]`` extra).

Hands come in one of three layouts:

* a text column (default name ``"hand"``): cards separated by spaces or commas, as
  :func:`fivecrowns.parse_cards` reads them (``"5C 7C JK"``, ``"10H QS"``, ``"3♣ joker"``);
* 56 integer count columns named by card code, :data:`CARD_COLUMNS`: ``"3C"`` ..
  ``"KC"``, ``"3D"`` .. ``"KD"``, ``"3H"`` .. ``"KH"``, ``"3S"`` .. ``"KS"``, ``"3T"`` ..
  ``"KT"`` (T is stars; tens are ``"10C"``...), then ``"JK"``: the card index order;
* a ``.npy`` file holding an (N, 56) integer array of counts (read memory-mapped).

Rows are numbered from 0 (the first data row) in messages.

>>> CARD_COLUMNS[:3], CARD_COLUMNS[7], CARD_COLUMNS[-1]
(('3C', '4C', '5C'), '10C', 'JK')
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ._validate import MAX_HAND_SIZE, check_decks, check_wild, type_name
from .errors import HandError
from .runner import ProgressCallback
from .solver import best_discard_many as _discard_deadwood_many  # renamed in 0.2.0
from .solver import deadwood_many, hand_counts

__all__ = ["CARD_COLUMNS", "FORMATS", "ScoreSummary", "score_file", "BatchScorer"]

#: The 56 count columns' names, in card index order: "3C".."KC", ..., "3T".."KT", "JK".
CARD_COLUMNS: tuple[str, ...] = tuple(type_name(i) for i in range(56))
#: File formats by extension.
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npy": "npy"}
#: Name of the column of problems in a ``skip_bad`` side file.
ERROR_COLUMN = "error"
_ERR = "__fivecrowns_error"  # the error column between Ray workers and the driver


def _pa() -> Any:
    try:
        import pyarrow
    except ImportError:
        raise ImportError("reading and writing Parquet or CSV needs pyarrow: "
                          "pip install 'fivecrowns[io]'") from None
    return pyarrow


def _format(path: Path, what: str) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{what} {str(path)!r} must end in .parquet, .csv or .npy")
    return fmt


# ---------------------------------------------------------------------------------------------
# Hands of a batch -> counts, with a problem for each bad row

def _text_tables() -> tuple[npt.NDArray[np.int16], npt.NDArray[np.int16]]:
    """Card index by (first byte, second byte), and of "10" + a suit byte; -1 elsewhere."""
    two = np.full((256, 256), -1, dtype=np.int16)
    ten = np.full(256, -1, dtype=np.int16)
    for i, code in enumerate(CARD_COLUMNS):
        for text in {code, code.lower(), code[:-1] + code[-1].lower(), code[:-1].lower()
                     + code[-1]}:
            b = text.encode()
            if len(b) == 2:
                two[b[0], b[1]] = i
            else:
                ten[b[2]] = i
    return two, ten


_TWO, _TEN = _text_tables()


def _text_counts_numpy(data: npt.NDArray[np.uint8], offsets: npt.NDArray[np.int64],
                       out: npt.NDArray[np.uint8], flagged: npt.NDArray[np.uint8],
                       two: npt.NDArray[np.int16], ten: npt.NDArray[np.int16], decks: int,
                       max_cards: int) -> None:
    """The twin of the compiled ``_textcounts.text_counts``, in numpy (same arguments)."""
    n, size = len(out), data.size
    if size:
        solid = data != 32
        edge_l = np.zeros(size + 1, dtype=bool)   # a row starts at this byte
        edge_l[offsets[:-1]] = True
        edge_r = np.zeros(size + 1, dtype=bool)   # a row ends after this byte
        edge_r[offsets[1:] - 1] = True            # (an empty row marks a harmless -1 or dup)
        prev_gap = np.ones(size, dtype=bool)
        prev_gap[1:] = ~solid[:-1]
        next_gap = np.ones(size, dtype=bool)
        next_gap[:-1] = ~solid[1:]
        starts = np.flatnonzero(solid & (prev_gap | edge_l[:size]))
        ends = np.flatnonzero(solid & (next_gap | edge_r[:size]))
        length = ends - starts + 1
        row = np.searchsorted(offsets, starts, side="right") - 1
        b0 = data[starts]
        b1 = data[np.minimum(starts + 1, size - 1)]
        b2 = data[np.minimum(starts + 2, size - 1)]
        idx = np.where(length == 2, two[b0, b1], -1)
        idx = np.where((length == 3) & (b0 == 49) & (b1 == 48), ten[b2], idx)
        bad = idx < 0
        flagged[row[bad]] = 1
        flagged[np.bincount(row, minlength=n) > max_cards] = 1
        keys = row[~bad] * 56 + idx[~bad]
        out += np.bincount(keys, minlength=n * 56).reshape(n, 56).astype(np.uint8)
    flagged[_over(out, decks)] = 1


def _load_text_counts() -> Callable[..., None]:
    if os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower() == "python":
        return _text_counts_numpy
    try:
        from ._textcounts import text_counts
    except ImportError:
        return _text_counts_numpy
    return text_counts


_TEXT_COUNTS = _load_text_counts()


def _text_counts(arr: Any, decks: int, reader: Callable[..., None] | None = None
                 ) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    """Counts of a pyarrow string array of hands, and the problem of each bad row.

    The fast reader takes the plain spellings; the rows it flags go through
    :func:`fivecrowns.hand_counts`, which reads every spelling it knows or says why not.
    """
    pa = _pa()
    if isinstance(arr, pa.ChunkedArray):
        arr = arr.combine_chunks() if arr.num_chunks != 1 else arr.chunk(0)
    if pa.types.is_large_string(arr.type):
        width = np.int64
    elif pa.types.is_string(arr.type):
        width = np.int32
    else:
        raise TypeError(f"the hand column must hold text, got {arr.type}")
    n = len(arr)
    bufs = arr.buffers()
    offsets = np.frombuffer(bufs[1], dtype=width, count=n + 1, offset=arr.offset *
                            np.dtype(width).itemsize).astype(np.int64)
    data = (np.frombuffer(bufs[2], dtype=np.uint8) if bufs[2] is not None
            else np.zeros(0, np.uint8))[offsets[0]:offsets[-1]]
    offsets -= offsets[0]
    counts = np.zeros((n, 56), dtype=np.uint8)
    flagged = np.zeros(n, dtype=np.uint8)
    (reader or _TEXT_COUNTS)(data, offsets, counts, flagged, _TWO, _TEN, decks, MAX_HAND_SIZE)
    if arr.null_count:
        flagged[np.asarray(arr.is_null(), dtype=bool)] = 1
    errors: dict[int, str] = {}
    for i in np.flatnonzero(flagged).tolist():
        text = arr[i].as_py()
        counts[i] = 0
        if text is None:
            errors[i] = "no hand (a null or empty cell)"
            continue
        try:
            counts[i] = hand_counts(text, decks)
        except (ValueError, TypeError) as exc:
            errors[i] = f"{exc} (hand {text!r})"
    return counts, errors


def _over(counts: npt.NDArray[np.uint8], decks: int) -> npt.NDArray[np.bool_]:
    """Rows holding more copies of a card than the decks do, or too many cards."""
    over: npt.NDArray[np.bool_] = np.asarray((counts[:, :55] > decks).any(axis=1))
    over |= counts[:, 55] > 3 * decks
    over |= counts.sum(axis=1, dtype=np.int64) > MAX_HAND_SIZE
    return over


def _matrix_counts(matrix: npt.NDArray[Any], decks: int, missing: npt.NDArray[np.bool_] | None
                   ) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    """Counts of an (N, 56) integer array (``missing``: rows with a null count)."""
    if not np.issubdtype(matrix.dtype, np.integer):
        raise TypeError(f"card counts must be integers, got {matrix.dtype}")
    if matrix.dtype == np.uint8 and missing is None:
        # Checked by the solver itself, for free; BatchScorer.scores names the bad rows.
        return np.ascontiguousarray(matrix), {}
    if matrix.dtype == np.uint8:
        counts = np.ascontiguousarray(matrix)
        flagged = _over(counts, decks)
    else:
        flagged = np.asarray(((matrix < 0) | (matrix > 255)).any(axis=1))
        counts = np.where(flagged[:, None], 0, matrix).astype(np.uint8)
        flagged |= _over(counts, decks)
    if missing is not None:
        flagged |= missing
    errors: dict[int, str] = {}
    if flagged.any():
        counts = counts.copy() if counts is matrix else counts
        for i in np.flatnonzero(flagged).tolist():
            counts[i] = 0
            if missing is not None and missing[i]:
                errors[i] = "a card count is missing (null or empty)"
                continue
            try:
                hand_counts(np.asarray(matrix[i], dtype=np.int64), decks)
            except (ValueError, TypeError) as exc:
                errors[i] = str(exc)
            else:  # pragma: no cover - _over and hand_counts agree
                errors[i] = "bad counts"
    return counts, errors


def _count_columns(batch: Any, decks: int) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    pa = _pa()
    import pyarrow.compute as pc

    n = batch.num_rows
    cols = []
    for name in CARD_COLUMNS:
        col = batch.column(name)
        if isinstance(col, pa.ChunkedArray):
            col = col.combine_chunks()
        cols.append(col)
    if all(c.type == pa.uint8() and not c.null_count for c in cols):  # the usual case
        matrix: npt.NDArray[Any] = np.empty((n, 56), dtype=np.uint8)
        for j, col in enumerate(cols):
            matrix[:, j] = col.to_numpy(zero_copy_only=False)
        return _matrix_counts(matrix, decks, None)
    matrix = np.empty((n, 56), dtype=np.int64)
    missing = np.zeros(n, dtype=bool)
    for j, (name, col) in enumerate(zip(CARD_COLUMNS, cols)):
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):  # from CSV
            text = pc.utf8_trim_whitespace(col)
            ok = pc.and_(pc.utf8_is_digit(text), pc.less_equal(pc.utf8_length(text), 4))
            ok = pc.fill_null(ok, False)
            missing |= ~np.asarray(ok, dtype=bool)
            col = pc.cast(pc.if_else(ok, text, "0"), pa.int64())
        elif not pa.types.is_integer(col.type):
            raise TypeError(f"count column {name!r} must hold integers, got {col.type}")
        if col.null_count:
            missing |= np.asarray(col.is_null(), dtype=bool)
            col = col.fill_null(0)
        matrix[:, j] = col.to_numpy(zero_copy_only=False)
    return _matrix_counts(matrix, decks, missing if missing.any() else None)


def _tensor_counts(col: Any, decks: int) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    pa = _pa()
    if isinstance(col, pa.ChunkedArray):
        col = col.combine_chunks()
    if isinstance(col.type, pa.ExtensionType):  # e.g. Ray's tensor type
        col = col.storage
    if not (pa.types.is_list(col.type) or pa.types.is_large_list(col.type)
            or pa.types.is_fixed_size_list(col.type)):
        raise TypeError(f"the hand column must hold text or lists of 56 counts, got {col.type}")
    n = len(col)
    if col.null_count:
        raise ValueError("the hand column holds null rows")
    values = col.flatten().to_numpy(zero_copy_only=False)
    if values.size != n * 56:
        raise ValueError(f"each hand must be a list of 56 counts, got {values.size} "
                         f"values for {n} rows")
    return _matrix_counts(values.reshape(n, 56), decks, None)


@dataclass(frozen=True)
class _Layout:
    kind: str          # "text", "counts" or "tensor"
    column: str | None


def _layout(names: list[str], column: str | None, types: dict[str, Any]) -> _Layout:
    wanted = column or "hand"
    if wanted in names:
        pa = _pa()
        t = types[wanted]
        if isinstance(t, pa.ExtensionType):
            t = t.storage_type
        text = pa.types.is_string(t) or pa.types.is_large_string(t)
        return _Layout("text" if text else "tensor", wanted)
    if column is None and all(c in names for c in CARD_COLUMNS):
        return _Layout("counts", None)
    if column is None and "data" in names:  # ray.data.from_numpy / read_numpy
        return _Layout("tensor", "data")
    shown = ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
    raise ValueError(f"no hands found: expected a text column {wanted!r} or the 56 count "
                     f"columns 3C..KT, JK; the columns are {shown}")


class BatchScorer:
    """Scores a pyarrow batch of hands: what :func:`score_file` and Ray workers run.

    Called with a ``pyarrow.Table`` or ``RecordBatch``; returns it with ``deadwood`` (and
    ``discard_deadwood``) appended. With ``strict=True`` a bad row raises ``ValueError``;
    otherwise a string column ``__fivecrowns_error`` (null for good rows) is appended too.
    """

    def __init__(self, *, wild: int | str, decks: int = 2, column: str | None = None,
                 discard: bool = False, strict: bool = True) -> None:
        self.wild = wild
        self.decks = check_decks(decks)
        self.column = column
        self.discard = bool(discard)
        self.strict = strict

    def counts(self, batch: Any) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
        """The batch's hands as an (N, 56) uint8 array, and the problem of each bad row."""
        names = list(batch.schema.names)
        layout = _layout(names, self.column, {f.name: f.type for f in batch.schema})
        if layout.kind == "text":
            return _text_counts(batch.column(layout.column), self.decks)
        if layout.kind == "tensor":
            return _tensor_counts(batch.column(layout.column), self.decks)
        return _count_columns(batch, self.decks)

    def wilds(self, batch: Any, n: int, errors: dict[int, str]) -> Any:
        if not isinstance(self.wild, str):
            return check_wild(self.wild)
        if self.wild not in batch.schema.names:
            raise ValueError(f"wild column {self.wild!r} not found")
        pa = _pa()
        col = batch.column(self.wild)
        if isinstance(col, pa.ChunkedArray):
            col = col.combine_chunks()
        if pa.types.is_string(col.type) or pa.types.is_large_string(col.type):
            import pyarrow.compute as pc
            ok = pc.fill_null(pc.utf8_is_digit(pc.utf8_trim_whitespace(col)), False)
            col = pc.cast(pc.if_else(ok, pc.utf8_trim_whitespace(col), "0"), pa.int64())
            bad_text = ~np.asarray(ok, dtype=bool)
        elif pa.types.is_integer(col.type):
            bad_text = np.asarray(col.is_null(), dtype=bool)
            col = col.fill_null(0)
        else:
            raise TypeError(f"wild column {self.wild!r} must hold integers, got {col.type}")
        values = col.to_numpy(zero_copy_only=False).astype(np.int64)
        bad = bad_text | (values < 3) | (values > 13)
        for i in np.flatnonzero(bad).tolist():
            errors.setdefault(i, f"wild rank must be 3..13, got {col[i].as_py()!r}"
                              if not bad_text[i] else "wild rank is missing or not a number")
        return np.where(bad, 3, values).astype(np.int8)

    def scores(self, counts: npt.NDArray[np.uint8], wilds: Any, errors: dict[int, str]
               ) -> dict[str, npt.NDArray[np.int32]]:
        """``deadwood`` (and ``discard_deadwood``) of every row; bad rows score 0."""
        try:
            dead = deadwood_many(counts, wilds, decks=self.decks, threads=1)
        except HandError:
            # A row the decks cannot hold that the reader let through: name it, and score
            # the others.
            flagged = _over(counts, self.decks)
            counts = counts.copy()
            for i in np.flatnonzero(flagged).tolist():
                try:
                    hand_counts(counts[i], self.decks)
                except (ValueError, TypeError) as exc:
                    errors.setdefault(i, str(exc))
                counts[i] = 0
            dead = deadwood_many(counts, wilds, decks=self.decks, threads=1)
        out = {"deadwood": dead}
        if self.discard:
            empty = counts.sum(axis=1, dtype=np.int64) == 0
            for i in np.flatnonzero(empty).tolist():
                errors.setdefault(i, "a hand must hold at least 1 card to discard, got 0")
            if errors:
                counts = counts.copy()
                counts[list(errors), 55] = 1  # bad rows: any card will do, they are dropped
            out["discard_deadwood"] = _discard_deadwood_many(counts, wilds, decks=self.decks,
                                                             threads=1)
        return out

    def __call__(self, batch: Any) -> Any:
        counts, errors = self.counts(batch)
        wilds = self.wilds(batch, len(counts), errors)
        scored = self.scores(counts, wilds, errors)
        if errors and self.strict:
            i = min(errors)
            raise ValueError(f"bad hand in row {i} of a batch: {errors[i]}")
        for name, values in scored.items():
            batch = batch.append_column(name, _pa().array(values))
        if not self.strict:
            text: list[str | None] = [None] * len(counts)
            for i, problem in errors.items():
                text[i] = problem
            batch = batch.append_column(_ERR, _pa().array(text, type=_pa().string()))
        return batch


# ---------------------------------------------------------------------------------------------
# Reading and writing, one batch at a time

@dataclass
class _Part:
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


def _csv_types(column: str | None, wild: int | str) -> dict[str, Any]:
    pa = _pa()
    names = [column or "hand", *CARD_COLUMNS] + ([wild] if isinstance(wild, str) else [])
    return {name: pa.string() for name in names}


def _read_parquet(src: Path, batch_size: int) -> tuple[Any, Iterator[Any]]:
    import pyarrow.parquet as pq

    # pre_buffer (the default) keeps every row group read so far: memory would grow with
    # the file (10 million hands: +150 MB); without it the reader holds one row group.
    pf = pq.ParquetFile(src, pre_buffer=False)
    return pf.schema_arrow, pf.iter_batches(batch_size=batch_size)


def _read_csv(src: Path, column: str | None, wild: int | str) -> tuple[Any, Iterator[Any]]:
    import pyarrow.csv as pacsv

    reader = pacsv.open_csv(
        src, read_options=pacsv.ReadOptions(block_size=1 << 22),
        convert_options=pacsv.ConvertOptions(column_types=_csv_types(column, wild),
                                             strings_can_be_null=True))
    return reader.schema, iter(reader)


def _read_npy(src: Path) -> npt.NDArray[Any]:
    arr = np.load(src, mmap_mode="r", allow_pickle=False)
    if arr.dtype.names and "counts" in arr.dtype.names:  # the output of score_file
        arr = arr["counts"]
    if arr.ndim != 2 or arr.shape[1] != 56:
        raise ValueError(f"{src.name}: a .npy of hands must be an (N, 56) array of counts, "
                         f"got shape {arr.shape}")
    if not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"{src.name}: card counts must be integers, got {arr.dtype}")
    return arr


def _npy_blocks(src: Path, arr: npt.NDArray[Any], rows: int) -> Iterator[npt.NDArray[Any]]:
    """``arr`` (from :func:`_read_npy`) ``rows`` rows at a time, read from the file.

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


class _NpyWriter:
    """A structured .npy (``counts``, ``deadwood``[, ``discard_deadwood``]) written as it
    streams; the header's row count is filled in at the end."""

    HEADER = 256

    def __init__(self, path: Path, discard: bool) -> None:
        fields = [("counts", "u1", (56,)), ("deadwood", "<i4")]
        if discard:
            fields.append(("discard_deadwood", "<i4"))
        self.dtype = np.dtype(fields)
        self.rows = 0
        self.file = open(path, "wb")  # noqa: SIM115 - closed by close()
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

    def write(self, part: _Part, keep: npt.NDArray[np.bool_]) -> None:
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


class _TableWriter:
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


class _Output:
    """The scored rows to ``dst``, the bad rows (with an ``error`` column) to ``skip``."""

    def __init__(self, dst: Path, skip: Path | None, schema: Any, discard: bool) -> None:
        self.paths = [dst] + ([skip] if skip is not None else [])
        self.tmp = [p.with_name(p.name + ".part") for p in self.paths]
        self.fmt = _format(dst, "dst")
        self.discard = discard
        self.schema = schema
        self.good: Any = None
        self.bad: Any = None
        if skip is not None:
            _format(skip, "skip_bad")
            if skip.suffix.lower() == ".npy":
                raise ValueError("skip_bad must be a .parquet or .csv path (it keeps an "
                                 "'error' column), got a .npy path")

    def _schema(self) -> Any:
        pa = _pa()
        if self.schema is None:
            return pa.schema([(c, pa.uint8()) for c in CARD_COLUMNS])
        return self.schema

    def _open_good(self) -> Any:
        if self.good is None:
            if self.fmt == "npy":
                self.good = _NpyWriter(self.tmp[0], self.discard)
            else:
                pa = _pa()
                names = ["deadwood"] + (["discard_deadwood"] if self.discard else [])
                self.good = _TableWriter(self.tmp[0], self.fmt, self._schema(),
                                         {n: pa.int32() for n in names})
        return self.good

    def _open_bad(self) -> Any:
        if self.bad is None:
            self.bad = _TableWriter(self.tmp[1], _format(self.paths[1], "skip_bad"),
                                    self._schema(), {ERROR_COLUMN: _pa().string()})
        return self.bad

    def write(self, part: _Part) -> tuple[int, int]:
        keep = np.ones(part.n, dtype=bool)
        keep[list(part.errors)] = False
        good = self._open_good()
        if isinstance(good, _NpyWriter):
            good.write(part, keep)
        else:
            if part.errors:
                good.write(part.rows(keep), {k: v[keep] for k, v in part.scores.items()})
            else:  # the usual batch: no copies
                good.write(part.rows(None), part.scores)
        if part.errors:
            problems = [part.errors[i] for i in sorted(part.errors)]
            self._open_bad().write(part.rows(~keep), {ERROR_COLUMN: problems})
        return int(keep.sum()), len(part.errors)

    def finish(self, ok: bool) -> None:
        try:
            if ok:  # an empty input still makes its (empty) outputs
                self._open_good()
                if len(self.paths) == 2:
                    self._open_bad()
        finally:
            for w in (self.good, self.bad):
                if w is not None:
                    w.close()
            for tmp, path in zip(self.tmp, self.paths):
                if ok:
                    os.replace(tmp, path)
                elif tmp.exists():
                    tmp.unlink()


@dataclass(frozen=True)
class ScoreSummary:
    """What :func:`score_file` did: ``rows`` read, ``scored`` written to ``dst`` and
    ``skipped`` set aside in ``skip_bad``, in ``seconds``."""

    src: str
    dst: str
    rows: int
    scored: int
    skipped: int
    skip_bad: str | None
    seconds: float

    def __str__(self) -> str:
        text = f"scored {self.scored:,} of {self.rows:,} hands into {self.dst}"
        if self.skip_bad is not None:
            text += f"; {self.skipped:,} bad row(s) in {self.skip_bad}"
        return text + f" ({self.seconds:.1f} s)"


def _check_int(value: object, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an int, got {type(value).__name__}")
    if value < least:
        raise ValueError(f"{name} must be at least {least}, got {value}")
    return int(value)


def _local_parts(src: Path, fmt: str, scorer: BatchScorer, batch_size: int
                 ) -> tuple[Any, Iterator[_Part]]:
    if fmt == "npy":
        arr = _read_npy(src)
        if isinstance(scorer.wild, str):
            raise ValueError("a wild column needs a Parquet or CSV input, not .npy")
        wild = check_wild(scorer.wild)

        def npy() -> Iterator[_Part]:
            for block in _npy_blocks(src, arr, batch_size):
                counts, errors = _matrix_counts(block, scorer.decks, None)
                yield _Part(None, counts, scorer.scores(counts, wild, errors), errors, scorer)

        return None, npy()
    if fmt == "parquet":
        schema, batches = _read_parquet(src, batch_size)
    else:
        schema, batches = _read_csv(src, scorer.column, scorer.wild)
    _layout(list(schema.names), scorer.column, {f.name: f.type for f in schema})

    def table() -> Iterator[_Part]:
        for batch in batches:
            counts, errors = scorer.counts(batch)
            wilds = scorer.wilds(batch, len(counts), errors)
            yield _Part(batch, counts, scorer.scores(counts, wilds, errors), errors, scorer)

    return schema, table()


def _ray_parts(src: Path, fmt: str, scorer: BatchScorer, batch_size: int,
               address: str | None) -> tuple[Any, Iterator[_Part]]:
    from .distributed import ray_data

    data = ray_data(address)

    if fmt == "parquet":
        ds = data.read_parquet(str(src))
        schema = _read_parquet(src, batch_size)[0]
    elif fmt == "csv":
        import pyarrow.csv as pacsv

        ds = data.read_csv(str(src), convert_options=pacsv.ConvertOptions(
            column_types=_csv_types(scorer.column, scorer.wild), strings_can_be_null=True))
        schema = _read_csv(src, scorer.column, scorer.wild)[0]
    else:
        _read_npy(src)  # checks the shape and type here, with a clear message
        if isinstance(scorer.wild, str):
            raise ValueError("a wild column needs a Parquet or CSV input, not .npy")
        ds = data.read_numpy(str(src))
        schema = None
    _layout(list(schema.names), scorer.column, {f.name: f.type for f in schema}) \
        if schema is not None else None
    remote = BatchScorer(wild=scorer.wild, decks=scorer.decks, column=scorer.column,
                         discard=scorer.discard, strict=False)
    ds = ds.map_batches(remote, batch_format="pyarrow", batch_size=batch_size,
                        zero_copy_batch=True)
    names = ["deadwood"] + (["discard_deadwood"] if scorer.discard else [])

    def parts() -> Iterator[_Part]:
        ctx = data.DataContext.get_current()
        order, bars = ctx.execution_options.preserve_order, ctx.enable_progress_bars
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = True, False
        try:
            for batch in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
                problems = batch.column(_ERR).to_pylist()
                errors = {i: p for i, p in enumerate(problems) if p is not None}
                scores = {n: batch.column(n).to_numpy() for n in names}
                rows = batch.drop_columns([_ERR, *names])
                if schema is None:
                    counts = _tensor_counts(rows.column("data"), scorer.decks)[0]
                    yield _Part(None, counts, scores, errors, scorer)
                else:
                    yield _Part(rows.cast(schema), None, scores, errors, scorer)
        finally:
            ctx.execution_options.preserve_order, ctx.enable_progress_bars = order, bars

    return schema, parts()


def score_file(src: str | os.PathLike[str], dst: str | os.PathLike[str], *, wild: int | str,
               decks: int = 2, column: str | None = None, discard: bool = False,
               batch_size: int = 65536, skip_bad: str | os.PathLike[str] | None = None,
               progress: ProgressCallback | None = None, backend: str = "local",
               ray_address: str | None = None) -> ScoreSummary:
    """Score every hand of a file and write the same rows with their scores added.

    Parameters
    ----------
    src, dst : path
        ``.parquet``, ``.csv`` or ``.npy`` files (the formats need not match). ``dst``
        gets the rows of ``src`` with an ``int32`` column ``deadwood`` (and
        ``discard_deadwood``); a ``.npy`` output is a structured array with fields
        ``counts`` (56 ``uint8``), ``deadwood`` (and ``discard_deadwood``). ``dst`` is
        written to ``dst.part`` and renamed when done: it never holds half a result.
    wild : int or str
        The wild rank 3..13 of every hand, or the name of a column holding each row's.
    decks : int
        2, or 4 for party-mode hands.
    column : str, optional
        The text column of hands (default ``"hand"``); without one, the 56 count columns
        :data:`CARD_COLUMNS` are read.
    discard : bool
        Also score ``discard_deadwood``, the deadwood after the best discard.
    batch_size : int
        Rows per batch: memory grows with it, not with the file.
    skip_bad : path, optional
        Where bad rows go (``.parquet`` or ``.csv``: the input's columns and ``error``,
        the problem). Without it the first bad row raises ``ValueError``.
    progress : callable, optional
        Called with the number of rows just done, batch by batch.
    backend : ``"local"`` or ``"ray"``
        ``"ray"`` reads and scores on Ray Data workers (they must see ``src``); the rows
        come back here, in order, to be written.
    ray_address : str, optional
        With ``backend="ray"``: the cluster to join.

    Returns
    -------
    ScoreSummary

    Raises
    ------
    ValueError
        A bad row (its number, from 0, and the problem), a bad argument, or no hands found.
    TypeError, OSError
        A column of the wrong type; a file that cannot be read or written.

    Examples
    --------
    >>> import os, tempfile
    >>> import numpy as np
    >>> from fivecrowns import hand_counts
    >>> hands = np.array([hand_counts("5C 6C 7C"), hand_counts("5C 6C 8D")])
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     src, dst = os.path.join(folder, "hands.npy"), os.path.join(folder, "out.npy")
    ...     np.save(src, hands)
    ...     summary = score_file(src, dst, wild=13)
    ...     scored = np.load(dst)
    >>> summary.rows, summary.scored, scored["deadwood"].tolist()
    (2, 2, [0, 19])
    """
    src_p, dst_p = Path(os.fspath(src)), Path(os.fspath(dst))
    skip_p = Path(os.fspath(skip_bad)) if skip_bad is not None else None
    fmt = _format(src_p, "src")
    _format(dst_p, "dst")
    if src_p.resolve() == dst_p.resolve() or (skip_p is not None and skip_p.resolve()
                                               in (src_p.resolve(), dst_p.resolve())):
        raise ValueError("src, dst and skip_bad must be three different files")
    batch_size = _check_int(batch_size, "batch_size", 1)
    if backend not in ("local", "ray"):
        raise ValueError(f"backend must be 'local' or 'ray', got {backend!r}")
    if ray_address is not None and backend != "ray":
        raise ValueError("ray_address is only for backend='ray'")
    if not isinstance(wild, str):
        check_wild(wild)
    if column is not None and not isinstance(column, str):
        raise TypeError(f"column must be a str, got {type(column).__name__}")
    if not src_p.is_file():
        raise FileNotFoundError(f"no such file: {str(src_p)!r}")
    scorer = BatchScorer(wild=wild, decks=decks, column=column, discard=discard)
    started = time.perf_counter()
    if backend == "ray":
        schema, parts = _ray_parts(src_p, fmt, scorer, batch_size, ray_address)
    else:
        schema, parts = _local_parts(src_p, fmt, scorer, batch_size)
    out = _Output(dst_p, skip_p, schema, discard)
    rows = scored = skipped = 0
    ok = False
    try:
        for part in parts:
            if part.errors and skip_p is None:
                i = min(part.errors)
                raise ValueError(f"{src_p.name}: row {rows + i}: {part.errors[i]} (pass "
                                 f"skip_bad=PATH to set bad rows aside)")
            good, bad = out.write(part)
            rows += part.n
            scored += good
            skipped += bad
            if progress is not None:
                progress(part.n)
        ok = True
    finally:
        out.finish(ok)
    return ScoreSummary(str(src_p), str(dst_p), rows, scored, skipped,
                        str(skip_p) if skip_p is not None else None,
                        time.perf_counter() - started)
