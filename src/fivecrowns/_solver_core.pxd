# The solver core's C functions, for the modules that cimport them
# (``from ._solver_core cimport solve_deadwood``): the solver's entry points (``_solver``)
# and the engine, which plays whole rounds with them without the GIL. Rows are 56 counts,
# already checked (wild 3..13, each count within the deck, at most MAX_HAND_SIZE cards);
# ``row`` is restored where it is modified.
from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t

cdef enum:
    # The most runs on a search path (checked at import: a hand of MAX_HAND_SIZE cards
    # has at most half as many), and so in a partition.
    MAX_RUNS = 24

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
# fivecrowns.plan's partition: the deadwood; the runs as (suit, lo, hi) rank positions
# (rank - 3) in ``runs`` (3 bytes each, room for MAX_RUNS), ``n_runs`` of them; the ranks
# the books take as a mask of positions in ``books`` (as _solver_py.plan lays them out).
cdef int plan_of(const uint8_t* row, int wild, int8_t* runs, int* n_runs,
                 uint16_t* books) noexcept nogil
# A bulk call's rows start..stop-1 (``counts``: C-contiguous rows of 56) into ``out``: the
# deadwood, or with ``discard`` the best-discard deadwood. Another thread may be writing
# them, so each is checked as it is read, each count once (wild 3..13, sizes ``discard``
# to MAX_HAND_SIZE). Returns the first row that breaks a rule, with its counts as read in
# ``seen`` (60 bytes) and its wild in ``seen_wild``; or -1.
cdef Py_ssize_t solve_rows(const uint8_t* counts, const int8_t* wilds, int32_t* out,
                           Py_ssize_t start, Py_ssize_t stop, int decks, bint discard,
                           uint8_t* seen, int8_t* seen_wild) noexcept nogil
# For the tests: the deadwood and the best-discard deadwood (a non-empty row) by the suit
# option tables where they apply (``by_options``), or by the search alone.
cdef int routed_deadwood(const uint8_t* row, int wild, bint by_options) noexcept nogil
cdef int routed_best_discard(const uint8_t* row, int wild, bint by_options) noexcept nogil
