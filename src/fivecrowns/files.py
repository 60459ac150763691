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
* a ``.npy`` file holding an (N, 56) integer array of counts (read block by block).

Rows are numbered from 0 (the first data row) in messages.

>>> CARD_COLUMNS[:3], CARD_COLUMNS[7], CARD_COLUMNS[-1]
(('3C', '4C', '5C'), '10C', 'JK')
"""

from __future__ import annotations

import csv
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ._batches import (
    CARD_COLUMNS,
    IO_WHAT,
    BatchScorer,
    _layout,
    _matrix_counts,
    _pa,
    _tensor_counts,
)
from ._batches import ERROR_COLUMN_RAY as _ERR
from ._checks import check_int, check_wild
from ._file_io import (
    NpyWriter,
    Part,
    TableWriter,
    csv_types,
    load_npy,
    npy_blocks,
    parquet_file,
    printable,
    read_csv,
    read_npy,
    read_parquet,
)
from ._optional import requires
from .errors import BadRowError
from .runner import ProgressCallback

__all__ = ["CARD_COLUMNS", "FORMATS", "ERROR_COLUMN", "ScoreSummary", "score_file", "count_rows",
           "BatchScorer"]

#: File formats by extension.
FORMATS = {".parquet": "parquet", ".pq": "parquet", ".csv": "csv", ".npy": "npy"}
#: Name of the column of problems in a ``skip_bad`` side file.
ERROR_COLUMN = "error"


def _format(path: Path, what: str) -> str:
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise ValueError(f"{what} {str(path)!r} must end in .parquet, .csv or .npy")
    return fmt


# ---------------------------------------------------------------------------------------------
# The output (the batches are read and written by fivecrowns._file_io)

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
                self.good = NpyWriter(self.tmp[0], self.discard)
            else:
                pa = _pa()
                names = ["deadwood"] + (["discard_deadwood"] if self.discard else [])
                self.good = TableWriter(self.tmp[0], self.fmt, self._schema(),
                                         {n: pa.int32() for n in names})
        return self.good

    def _open_bad(self) -> Any:
        if self.bad is None:
            self.bad = TableWriter(self.tmp[1], _format(self.paths[1], "skip_bad"),
                                    self._schema(), {ERROR_COLUMN: _pa().string()})
        return self.bad

    def write(self, part: Part) -> tuple[int, int]:
        keep = np.ones(part.n, dtype=bool)
        keep[list(part.errors)] = False
        good = self._open_good()
        if isinstance(good, NpyWriter):
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


def count_rows(src: str | os.PathLike[str]) -> int | None:
    """The number of rows of a Parquet or ``.npy`` file, from its metadata (for a progress
    bar's total); ``None`` for a CSV file, which only reading it through would tell.

    >>> import os, tempfile
    >>> import numpy as np
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     np.save(os.path.join(folder, "h.npy"), np.zeros((7, 56), np.uint8))
    ...     count_rows(os.path.join(folder, "h.npy"))
    7
    """
    path = Path(os.fspath(src))
    fmt = _format(path, "src")
    if fmt == "npy":
        return len(read_npy(path))
    if fmt == "parquet":
        return int(parquet_file(path).metadata.num_rows)
    return None


def _csv_line(src: Path, row: int) -> int | None:
    """The line of a CSV file on which data row ``row`` (from 0) ends, counted from 1 as an
    editor counts (the header is line 1; pyarrow skips empty lines, and so does this)."""
    try:
        with open(src, newline="", encoding="utf-8", errors="replace") as f:
            reader = csv.reader(f)
            records = -1  # the header is record -1
            for fields in reader:
                if not fields:
                    continue
                if records == row:
                    return reader.line_num
                records += 1
    except (OSError, csv.Error):  # pragma: no cover - pyarrow read the same file
        return None
    return None  # pragma: no cover


def _bad_row(src: Path, fmt: str, row: int, problem: str) -> BadRowError:
    """The error of bad row ``row`` (from 0) of ``src``: it names its line in a CSV file."""
    line = _csv_line(src, row) if fmt == "csv" else None
    where = f"row {row}" + (f" (line {line})" if line is not None else "")
    return BadRowError(f"{src.name}: {where}: {problem} (pass skip_bad=PATH to set bad rows "
                       f"aside)", path=str(src), row=row, line=line, problem=problem)


def _check_npy_options(scorer: BatchScorer) -> None:
    """Refuse the options that name a column where a .npy input has none (its rows are
    counts), rather than ignore them."""
    if isinstance(scorer.wild, str):
        raise ValueError("a wild column needs a Parquet or CSV input, not .npy")
    if scorer.column is not None:
        raise ValueError(f"column={scorer.column!r} names a text column of hands, which "
                         f"needs a Parquet or CSV input: a .npy input's rows are counts")


def _local_parts(src: Path, fmt: str, scorer: BatchScorer, batch_size: int
                 ) -> tuple[Any, Iterator[Part]]:
    if fmt == "npy":
        arr = read_npy(src)
        _check_npy_options(scorer)
        wild = check_wild(scorer.wild)

        def npy() -> Iterator[Part]:
            for block in npy_blocks(src, arr, batch_size):
                counts, errors = _matrix_counts(block, scorer.decks, None)
                yield Part(None, counts, scorer.scores(counts, wild, errors), errors, scorer)

        return None, npy()
    if fmt == "parquet":
        schema, batches = read_parquet(src, batch_size)
    else:
        schema, batches = read_csv(src, scorer.column, scorer.wild)
    _layout(list(schema.names), scorer.column, {f.name: f.type for f in schema})

    def table() -> Iterator[Part]:
        for batch in batches:
            counts, errors = scorer.counts(batch)
            wilds = scorer.wilds(batch, len(counts), errors)
            yield Part(batch, counts, scorer.scores(counts, wilds, errors), errors, scorer)

    return schema, table()


def _ray_parts(src: Path, fmt: str, scorer: BatchScorer, batch_size: int,
               address: str | None) -> tuple[Any, Iterator[Part]]:
    from .distributed import ray_data

    data = ray_data(address)
    # Rows must come back in the file's order (row numbers, and the same output as the
    # local backend), and Ray's progress bars stay off. A Dataset takes its settings from
    # the current context when it is made, so they are set around the making, and on the
    # Dataset's own context where Ray has one.
    ctx = data.DataContext.get_current()
    saved = ctx.execution_options.preserve_order, ctx.enable_progress_bars
    ctx.execution_options.preserve_order, ctx.enable_progress_bars = True, False
    try:
        if fmt == "parquet":
            schema = read_parquet(src, batch_size)[0]
            ds = data.read_parquet(str(src))
        elif fmt == "csv":
            with requires("io", IO_WHAT):
                import pyarrow.csv as pacsv

            schema = read_csv(src, scorer.column, scorer.wild)[0]
            ds = data.read_csv(str(src), convert_options=pacsv.ConvertOptions(
                column_types=csv_types(scorer.column, scorer.wild), strings_can_be_null=True))
        else:
            _check_npy_options(scorer)
            read_npy(src)  # checks the shape and type here, with a clear message
            if load_npy(src).dtype.names:
                raise ValueError(f"{src.name}: backend='ray' reads .npy arrays of shape "
                                 f"(N, 56); score this structured array with the local backend")
            schema = None
            ds = data.read_numpy(str(src))
        if schema is not None:
            _layout(list(schema.names), scorer.column, {f.name: f.type for f in schema})
        remote = BatchScorer(wild=scorer.wild, decks=scorer.decks, column=scorer.column,
                             discard=scorer.discard, strict=False)
        ds = ds.map_batches(remote, batch_format="pyarrow", batch_size=batch_size,
                            zero_copy_batch=True)
    finally:
        ctx.execution_options.preserve_order, ctx.enable_progress_bars = saved
    own = getattr(ds, "context", None)
    if own is not None:
        own.execution_options.preserve_order, own.enable_progress_bars = True, False
    names = ["deadwood"] + (["discard_deadwood"] if scorer.discard else [])

    def parts() -> Iterator[Part]:
        for batch in ds.iter_batches(batch_size=None, batch_format="pyarrow"):
            problems = batch.column(_ERR).to_pylist()
            errors = {i: p for i, p in enumerate(problems) if p is not None}
            scores = {n: batch.column(n).to_numpy() for n in names}
            rows = batch.drop_columns([_ERR, *names])
            if schema is None:
                counts = _tensor_counts(rows.column("data"), scorer.decks)[0]
                yield Part(None, counts, scores, errors, scorer)
            else:
                yield Part(rows.cast(schema), None, scores, errors, scorer)

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
    BadRowError
        A bad row (a ``ValueError``): its number from 0, for a CSV file its line, and the
        problem.
    ValueError
        A bad argument, a file that is not of its format, or no hands found.
    TypeError, OSError
        A column of the wrong type; a file that cannot be read or written, or whose folder
        does not exist.

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
        raise ValueError("src and dst must be two different files" if skip_p is None else
                         "src, dst and skip_bad must be three different files")
    batch_size = check_int(batch_size, "batch_size", 1)
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
    for path in (dst_p, skip_p):
        if path is not None and not path.absolute().parent.is_dir():
            raise FileNotFoundError(f"cannot write {str(path)!r}: no such folder "
                                    f"{str(path.absolute().parent)!r}")
    scorer = BatchScorer(wild=wild, decks=decks, column=column, discard=discard)
    started = time.perf_counter()
    rows = scored = skipped = 0
    try:
        if backend == "ray":
            schema, parts = _ray_parts(src_p, fmt, scorer, batch_size, ray_address)
        else:
            schema, parts = _local_parts(src_p, fmt, scorer, batch_size)
        out = _Output(dst_p, skip_p, schema, discard)
        ok = False
        try:
            for part in parts:
                if part.errors and skip_p is None:
                    i = min(part.errors)
                    raise _bad_row(src_p, fmt, rows + i, part.errors[i])
                good, bad = out.write(part)
                rows += part.n
                scored += good
                skipped += bad
                if progress is not None:
                    progress(part.n)
            ok = True
        finally:
            out.finish(ok)
    except Exception as exc:
        if not type(exc).__module__.startswith("pyarrow"):
            raise
        # pyarrow's own errors (a file that is no Parquet, a ragged CSV line...): one line
        # that names the file, as ValueError, or OSError for input and output failures.
        text = f"{src_p.name}: {printable(str(exc).strip().splitlines()[0])}"
        raise (OSError(text) if isinstance(exc, OSError) else ValueError(text)) from exc
    return ScoreSummary(str(src_p), str(dst_p), rows, scored, skipped,
                        str(skip_p) if skip_p is not None else None,
                        time.perf_counter() - started)
