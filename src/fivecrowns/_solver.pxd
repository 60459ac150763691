# The compiled core's C-level entry points, for other extensions to cimport
# (``from ._solver cimport solve_deadwood``): the rollout engine plays whole rounds with
# them without the GIL. Rows are 56 counts; ``row`` is restored where it is modified.
from libc.stdint cimport int32_t, uint8_t, uint64_t

# Least deadwood of a hand.
cdef int solve_deadwood(const uint8_t* row, int wild) noexcept nogil
# Least deadwood after one discard from a non-empty row, if below ``bound``; else ``bound``.
cdef int best_discard_search(const uint8_t* row, int wild, int bound) noexcept nogil
# Least deadwood after one discard, and in ``card`` the first best card of
# fivecrowns.outs.discard_order: fivecrowns.best_discard.
cdef int solve_best_discard(uint8_t* row, int wild, int* card) noexcept nogil
# The same, if below ``bound`` (``card`` set then); otherwise ``bound``. With ``kept``
# (a card type; -1, the default: none), the best discard of the others: that order less
# every copy of ``kept``, as a rule that keeps the card just taken requires.
cdef int discard_below(uint8_t* row, int wild, int bound, int* card, int kept=*) noexcept nogil
# fivecrowns.outs.discard_order of the row without type ``kept`` (-1: none) into
# ``order`` (56 ints); its length.
cdef int discard_order_of(const uint8_t* row, int wild, int kept, int* order) noexcept nogil
# out[t] = best-discard deadwood of row + card t, or -1 where no copy of t is left:
# fivecrowns.draw_table.
cdef void fill_draw_table(const uint8_t* row, int wild, int decks, int32_t* out) noexcept nogil
# The entries t of that table with bit t of ``want`` set; the others are left as they are.
cdef void fill_draw_entries(const uint8_t* row, int wild, int decks, uint64_t want,
                            int32_t* out) noexcept nogil
# Could natural card ``t`` join some meld in ``row`` + t? (False: it is deadwood in every
# partition of that hand or any part of it.)
cdef bint may_meld(const uint8_t* row, int wild, int t) noexcept nogil
