"""The solver's entry points in C: the compiled twin of ``_solver_py``.

Every entry point here gives the twin's results and raises the twin's messages (through
``_checks``), and carries the twin's docstring (copied at import); the tests hold both
to that. Each checks its inputs once, then runs the solver core (``_solver_core``: the
search, its tables and the draw tables, in C) without the GIL. Its Cython directives are
set in one place, ``setup.py``; this file sets none.

A row a caller hands in is checked through numpy's C API (``_row_data``); a bulk call
checks its batch first, then every row again as it is solved, on the counts it reads
(``solve_rows``): the caller's array may change meanwhile, and no check of it is
trusted.
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy

import numpy as np

cimport numpy as cnp

cnp.import_array()

from ._solver_core cimport (
    MAX_RUNS,
    best_discard_search,
    fill_draw_entries,
    fill_draw_table,
    plan_of,
    routed_best_discard,
    routed_deadwood,
    solve_best_discard,
    solve_deadwood,
    solve_rows,
)
from ._threads import run_threaded
from ._checks import MAX_HAND_SIZE as _MAX_HAND_SIZE
from ._checks import (check_batch, check_batch_row, check_decks, check_row, check_wild,
                      check_wild_array)

cdef extern from "_row_masks.h":
    # Non-zero if the row breaks a rule that ``_checks.check_row`` reports: a count past
    # the deck's copies, or a size outside min_cards..max_cards.
    int row_problem "fc_row_problem"(const uint8_t* row, int decks, int min_cards,
                                     int max_cards) noexcept nogil

cdef enum:
    N_RANKS = 11

cdef int MAX_CARDS = _MAX_HAND_SIZE


cdef int _decks(object decks) except -1:
    if type(decks) is not int or (decks != 2 and decks != 4):
        return check_decks(decks)
    return decks


cdef int _wild(object wild) except -1:
    if type(wild) is not int or wild < 3 or wild > 13:
        return check_wild(wild)
    return wild


cdef const uint8_t* _row_data(object row, int decks, int min_cards,
                              int max_cards) except? NULL:
    """The counts of a valid (56,) uint8 row; NULL for a valid row that is not contiguous.

    Single-hand calls sit in bots' inner loops, so this checks the array through numpy's
    C API, far cheaper than acquiring a memoryview. Anything wrong is reported by
    ``check_row``, the twin's own check, for the same message.
    """
    cdef cnp.ndarray arr
    cdef const uint8_t* data
    if cnp.PyArray_Check(row):
        arr = <cnp.ndarray>row
        if (cnp.PyArray_TYPE(arr) == cnp.NPY_UINT8 and cnp.PyArray_NDIM(arr) == 1
                and cnp.PyArray_DIM(arr, 0) == 56):
            if not cnp.PyArray_IS_C_CONTIGUOUS(arr):
                check_row(row, decks, min_cards, max_cards)
                return NULL
            data = <const uint8_t*>cnp.PyArray_DATA(arr)
            if not row_problem(data, decks, min_cards, max_cards):
                return data
    check_row(row, decks, min_cards, max_cards)
    raise AssertionError("check_row accepted a row the core rejects")


cdef object _contiguous(object row, int decks, int min_cards, int max_cards,
                        const uint8_t** data):
    """Point ``data`` at the counts of ``row``, copied if it is a strided view; the
    returned object keeps them alive."""
    data[0] = _row_data(row, decks, min_cards, max_cards)
    if data[0] == NULL:
        row = np.ascontiguousarray(row)
        data[0] = _row_data(row, decks, min_cards, max_cards)
    return row


def deadwood_row(row, wild, decks):
    """Least deadwood of one hand given as a (56,) uint8 row of counts."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    row = _contiguous(row, d, 0, MAX_CARDS, &data)
    return solve_deadwood(data, w)


def plan_row(row, wild, decks):
    """(deadwood, runs as (suit, lo_rank, hi_rank), booked ranks) of one hand."""
    cdef int d = _decks(decks), w = _wild(wild), n_runs, k
    cdef const uint8_t* data
    cdef int8_t runs[3 * MAX_RUNS]
    cdef uint16_t books
    row = _contiguous(row, d, 0, MAX_CARDS, &data)
    dead = plan_of(data, w, runs, &n_runs, &books)
    return (dead, [(int(runs[3 * k]), runs[3 * k + 1] + 3, runs[3 * k + 2] + 3)
                   for k in range(n_runs)],
            [k + 3 for k in range(N_RANKS) if books >> k & 1])


def best_discard_row(row, wild, decks):
    """(least deadwood after one discard, the card type to discard) of a non-empty hand."""
    cdef int d = _decks(decks), w = _wild(wild), card = -1, dead
    cdef const uint8_t* data
    cdef uint8_t buf[56]
    row = _contiguous(row, d, 1, MAX_CARDS, &data)
    memcpy(buf, data, 56)
    dead = solve_best_discard(buf, w, &card)
    return dead, card


def _routes_row(row, wild, decks):
    """For the tests: (deadwood, best-discard deadwood) of a hand by suit options where
    they apply, then the same by ``search`` alone; the two must agree."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    row = _contiguous(row, d, 0, MAX_CARDS, &data)
    if not row.any():
        return routed_deadwood(data, w, True), None, routed_deadwood(data, w, False), None
    return (routed_deadwood(data, w, True), routed_best_discard(data, w, True),
            routed_deadwood(data, w, False), routed_best_discard(data, w, False))


def draw_table_row(row, wild, decks):
    """Best-discard deadwood after drawing each card type (-1: none left to draw)."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    cdef uint8_t own[56]
    cdef cnp.npy_intp size = 56
    row = _contiguous(row, d, 0, MAX_CARDS - 1, &data)
    # The search runs without the GIL: on a copy, checked again, never on the caller's row.
    memcpy(own, data, 56)
    if row_problem(own, d, 0, MAX_CARDS - 1):
        check_row(_row_copy(own), d, 0, MAX_CARDS - 1)
        raise AssertionError("check_row accepted a row the core rejects")
    # Through numpy's C API: cheaper than a typed memoryview of the result.
    out = cnp.PyArray_EMPTY(1, &size, cnp.NPY_INT32, 0)
    cdef int32_t* entries = <int32_t*>cnp.PyArray_DATA(out)
    with nogil:
        fill_draw_table(own, w, d, entries)
    return out


def _draw_entries_row(row, wild, decks, want, int fill):
    """For the tests: ``draw_table_row``'s entries t with bit t of ``want`` set, the others
    ``fill`` (what ``fill_draw_entries`` leaves as it found)."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    cdef uint8_t own[56]
    cdef uint64_t bits = want
    row = _contiguous(row, d, 0, MAX_CARDS - 1, &data)
    memcpy(own, data, 56)
    out = np.full(56, fill, dtype=np.int32)
    cdef int32_t[::1] entries = out
    with nogil:
        fill_draw_entries(own, w, d, bits, &entries[0])
    return out


def discard_deadwood_row(row, wild, decks):
    """Validate a non-empty row, then return its best-discard deadwood."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    row = _contiguous(row, d, 1, MAX_CARDS, &data)
    return best_discard_search(data, w, 1 << 30)


cdef object _row_copy(const uint8_t* data):
    """A (56,) uint8 array of the counts at ``data``: what an error message describes."""
    return np.frombuffer((<const char*>data)[:56], dtype=np.uint8).copy()


cdef Py_ssize_t batch_problem(const uint8_t[:, ::1] counts, const int8_t[::1] wilds, int decks,
                              int min_cards) noexcept nogil:
    """The first row of the batch that breaks a rule (-1: none), for a quick refusal."""
    cdef Py_ssize_t i
    for i in range(counts.shape[0]):
        if wilds[i] < 3 or wilds[i] > 13:
            return i
        if row_problem(&counts[i, 0], decks, min_cards, MAX_CARDS):
            return i
    return -1


cdef _report_row(const uint8_t* row, int wild, Py_ssize_t i, int decks, int min_cards):
    """Raise the twin's message for hand ``i`` of a batch from that row alone."""
    check_batch_row(_row_copy(row), wild, i, decks, min_cards, MAX_CARDS)
    raise AssertionError("check_batch_row accepted a row the core rejects")


cdef _check_batch(counts, wilds, int decks, int min_cards):
    """Refuse a batch of the wrong shape, or one with a bad row, before any solving; the
    message is built from the first bad row alone, however long the batch.

    The rows are checked again, on private copies, as they are solved (``_solve_range``):
    the caller's array may change meanwhile, and no check of it is trusted.
    """
    cdef const uint8_t[:, ::1] cv = counts
    cdef const int8_t[::1] wv = wilds
    cdef Py_ssize_t i
    cdef uint8_t own[56]
    cdef int8_t wild
    if wv.shape[0] != cv.shape[0] or cv.shape[1] != 56:
        check_batch(counts, wilds, decks, min_cards)
        raise AssertionError("check_batch accepted a batch the core rejects")
    if cv.shape[0] == 0:
        return
    with nogil:
        i = batch_problem(cv, wv, decks, min_cards)
    if i >= 0:
        memcpy(own, &cv[i, 0], 56)
        wild = wv[i]
        if wild < 3 or wild > 13 or row_problem(own, decks, min_cards, MAX_CARDS):
            _report_row(own, wild, i, decks, min_cards)
        # else the row was changed back meanwhile: its solving checks it again


def _solve_range(const uint8_t[:, ::1] counts, const int8_t[::1] wilds, int32_t[::1] out,
                 Py_ssize_t start, Py_ssize_t stop, int decks, bint discard):
    """One thread's share of a bulk call, without the GIL; raises for a bad row."""
    cdef Py_ssize_t bad
    cdef uint8_t seen[64]
    cdef int8_t seen_wild
    # (a private entry, but an entry: checked like the others)
    if (counts.shape[1] != 56 or start < 0 or stop > counts.shape[0]
            or stop > wilds.shape[0] or stop > out.shape[0]):
        raise ValueError(f"rows {start}..{stop} of a batch of shape "
                         f"({counts.shape[0]}, {counts.shape[1]}): out of range")
    if decks != 2 and decks != 4:
        check_decks(decks)
    if stop <= start:
        return
    with nogil:
        bad = solve_rows(&counts[0, 0], &wilds[0], &out[0], start, stop, decks, discard, seen,
                         &seen_wild)
    if bad >= 0:
        _report_row(seen, seen_wild, bad, decks, 1 if discard else 0)


def _many(counts, wilds, decks, threads, bint discard):
    cdef int d = _decks(decks)
    # What the twin accepts (any layout, any integer wilds) is made C-contiguous here, so
    # that both cores take the same inputs; the public API passes the fast layout already.
    if (type(counts) is not np.ndarray or counts.dtype != np.uint8
            or not counts.flags.c_contiguous):
        check_batch(counts, wilds, d, 1 if discard else 0)  # raises what the twin raises
        counts = np.ascontiguousarray(counts)
    if type(wilds) is not np.ndarray or wilds.dtype != np.int8 or not wilds.flags.c_contiguous:
        check_wild_array(wilds, counts.shape[0])
        wilds = np.array(wilds, order="C")  # a private copy, checked before it is narrowed
        check_wild_array(wilds, counts.shape[0])
        wilds = wilds.astype(np.int8)
    _check_batch(counts, wilds, d, 1 if discard else 0)
    out = np.empty(counts.shape[0], dtype=np.int32)
    run_threaded(lambda a, b: _solve_range(counts, wilds, out, a, b, d, discard),
                 counts.shape[0], threads)
    return out


def deadwood_many(counts, wilds, decks, threads):
    """(Replaced by the twin's docstring at import.)"""
    return _many(counts, wilds, decks, threads, False)


def discard_deadwood_many(counts, wilds, decks, threads):
    """(Replaced by the twin's docstring at import.)"""
    return _many(counts, wilds, decks, threads, True)


# RapidFuzz's way: each entry point carries its twin's docstring (tests check they match).
def _copy_docstrings():
    from . import _solver_py
    for name in ("deadwood_row", "plan_row", "best_discard_row", "discard_deadwood_row",
                 "draw_table_row", "deadwood_many", "discard_deadwood_many"):
        globals()[name].__doc__ = getattr(_solver_py, name).__doc__


_copy_docstrings()
