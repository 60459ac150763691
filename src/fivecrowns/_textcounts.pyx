"""Hands' text to rows of counts, compiled: the fast path of :mod:`fivecrowns.files`.

``fivecrowns.files._text_counts_numpy`` is its twin (the fallback, and the reference the
tests hold it to). Both read only the plain spellings (``5C``, ``10h``, ``JK``, separated
by spaces) and flag every other row for the full parser, :func:`fivecrowns.hand_counts`.
"""

from libc.stdint cimport int16_t, int64_t, uint8_t


def text_counts(const uint8_t[::1] data, const int64_t[::1] offsets, uint8_t[:, ::1] out,
                uint8_t[::1] flagged, const int16_t[:, ::1] two, const int16_t[::1] ten,
                int decks, int max_cards):
    """Add row r's cards (bytes ``data[offsets[r]:offsets[r + 1]]``) into ``out[r]``.

    ``two[b0, b1]`` is the card index of a two-byte word, ``ten[b]`` that of ``10`` and
    suit byte b, -1 for no card. Sets ``flagged[r]`` for a row with another word, more
    than ``max_cards`` cards, or more copies of a card than ``decks`` decks hold.
    """
    cdef Py_ssize_t n = out.shape[0], size = data.shape[0]
    cdef Py_ssize_t r, p, end, start, total
    cdef int idx, t
    if (offsets.shape[0] != n + 1 or flagged.shape[0] != n or out.shape[1] != 56
            or two.shape[0] != 256 or two.shape[1] != 256 or ten.shape[0] != 256):
        raise ValueError("text_counts: inconsistent shapes")
    with nogil:
        for r in range(n):
            p = offsets[r]
            end = offsets[r + 1]
            if p < 0 or end > size or end < p:
                flagged[r] = 1
                continue
            total = 0
            while p < end:
                if data[p] == 32:
                    p += 1
                    continue
                start = p
                while p < end and data[p] != 32:
                    p += 1
                if p - start == 2:
                    idx = two[data[start], data[start + 1]]
                elif p - start == 3 and data[start] == 49 and data[start + 1] == 48:
                    idx = ten[data[start + 2]]
                else:
                    idx = -1
                total += 1
                if idx < 0 or total > max_cards:
                    flagged[r] = 1
                    break
                out[r, idx] += 1
            if flagged[r]:
                continue
            for t in range(55):
                if out[r, t] > decks:
                    flagged[r] = 1
                    break
            if out[r, 55] > 3 * decks:
                flagged[r] = 1
