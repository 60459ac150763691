"""Batches of hands (pyarrow) to counts and scores: the work of each batch of
:func:`fivecrowns.files.score_file` and of :func:`fivecrowns.distributed.score_dataset`.

Private: :mod:`fivecrowns.files` re-exports what is public (:data:`CARD_COLUMNS`,
:class:`BatchScorer`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ._checks import MAX_HAND_SIZE, check_decks, check_wild, copy_limits, type_name
from ._optional import require, requires
from .errors import HandError
from .solver import IMPLEMENTATION, deadwood_many, hand_counts
from .solver import discard_deadwood_many as _discard_deadwood_many

__all__ = ["CARD_COLUMNS", "BatchScorer"]

#: The 56 count columns' names, in card index order: "3C".."KC", ..., "3T".."KT", "JK".
CARD_COLUMNS: tuple[str, ...] = tuple(type_name(i) for i in range(56))
ERROR_COLUMN_RAY = "__fivecrowns_error"  # the error column between Ray workers and the driver


#: What the io extra is for, in MissingExtraError's message.
IO_WHAT = "reading and writing Parquet or CSV"


def _pa() -> Any:
    return require("pyarrow", "io", IO_WHAT)


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
    # the solver's switch, read once there: the Python twins run every core
    if IMPLEMENTATION == "python":
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
            counts[i] = hand_counts(text, decks=decks)
        except (ValueError, TypeError) as exc:
            errors[i] = f"{exc} (hand {text!r})"
    return counts, errors


def _over(counts: npt.NDArray[np.uint8], decks: int) -> npt.NDArray[np.bool_]:
    """Rows holding more copies of a card than the decks do, or too many cards."""
    over: npt.NDArray[np.bool_] = np.asarray((counts > copy_limits(decks)).any(axis=1))
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
                hand_counts(np.asarray(matrix[i], dtype=np.int64), decks=decks)
            except (ValueError, TypeError) as exc:
                errors[i] = str(exc)
            else:  # pragma: no cover - _over and hand_counts agree
                errors[i] = "bad counts"
    return counts, errors


def _count_columns(batch: Any, decks: int) -> tuple[npt.NDArray[np.uint8], dict[int, str]]:
    pa = _pa()
    with requires("io", IO_WHAT):
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
            with requires("io", IO_WHAT):
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
                    hand_counts(counts[i], decks=self.decks)
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
            batch = batch.append_column(ERROR_COLUMN_RAY, _pa().array(text, type=_pa().string()))
        return batch
