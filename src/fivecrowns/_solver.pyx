"""The compiled core of the meld solver.

Its Cython directives are set in one place, ``setup.py`` (``FIVECROWNS_DEBUG=1`` turns
the bounds checks on there); this file sets none.

The pure-Python twin ``_solver_py`` specifies the answers: every entry point here gives
the twin's results and raises the twin's messages, and the tests hold both to that.
Read the twin first: it explains why the search is exact. This core reaches the same
answers on bit masks, partly by routes the twin does not mirror (tested against it and
the reference instead): the single-search best discard (``best_discard_search``, used by
``discard_deadwood_row``, ``discard_deadwood_many`` and ``draw_table_row``), the draw
table's shortcuts (``fill_draw_table``), and the option tables of suits holding a card
twice (``DOUBLE_OPTIONS``). The twin's ``plan`` mirrors ``combine`` and ``search``:

* ``layer[s][k]`` is the 11-bit mask of rank positions of suit ``s`` where more
  than ``k`` copies are still free of runs; taking one copy of each natural in a
  run's span shifts the layers down inside the span.
* A position can start a run only if another natural of its suit lies close
  enough for the wild budget; the search jumps straight to such positions, so a
  hand without run candidates costs one pass and one book knapsack.
* Deadwood and best discards take each suit's canonical run sets from tables built
  at import (``combine``), and try every choice of one per suit that the wilds
  allow: the leaves of ``search``, without rescanning suits. ``search`` itself
  records partitions, and serves the hands the tables do not cover.

Entry points validate their inputs (raising through ``_checks`` so that both
implementations give the same messages) and then run without the GIL.
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.stdlib cimport qsort
from libc.string cimport memcpy, memset

import numpy as np

cimport numpy as cnp

cnp.import_array()

from ._threads import run_threaded
from ._checks import MAX_HAND_SIZE as _MAX_HAND_SIZE
from ._checks import (check_batch, check_batch_row, check_decks, check_row, check_wild,
                      check_wild_array)

cdef extern from *:
    """
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int fc_ctz(unsigned int x) {
        unsigned long i; _BitScanForward(&i, x); return (int)i;
    }
    static inline int fc_ctz64(unsigned long long x) {
        unsigned long i; _BitScanForward64(&i, x); return (int)i;
    }
    static inline int fc_high(unsigned int x) {
        unsigned long i; _BitScanReverse(&i, x); return (int)i;
    }
    #else
    static inline int fc_ctz(unsigned int x) { return __builtin_ctz(x); }
    static inline int fc_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    static inline int fc_high(unsigned int x) { return 31 - __builtin_clz(x); }
    #endif
    """
    int fc_ctz(unsigned int x) noexcept nogil  # lowest set bit; x != 0
    int fc_high(unsigned int x) noexcept nogil  # highest set bit; x != 0
    int fc_ctz64(unsigned long long x) noexcept nogil

cdef enum:
    N_RANKS = 11
    JOKER = 55
    MAX_LAYERS = 4     # party mode: 4 copies of a card
    MAX_RUNS = 24
    MAX_TOP = 4
    N_SLICES = 5       # bits of a rank's natural count: at most 20, in party mode
    ALL_RANKS = 0x7FF

cdef int MAX_CARDS = _MAX_HAND_SIZE

# VALUE[m]: total value of the naturals at the positions of mask m (rank = position + 3);
# COUNT[m]: how many positions m holds (a table: wheels cannot assume a popcnt instruction).
cdef int VALUE[1 << N_RANKS]
cdef uint8_t COUNT[1 << N_RANKS]
# A suit's copies live in one word of 4 lanes of 16 bits: lane k holds the positions with
# more than k copies free of runs. LANES spreads a position mask over every lane;
# COPIES[c] has lanes 0..c-1 set, to add c copies of one position.
cdef uint64_t LANES = 0x0001000100010001ULL
cdef uint64_t ALL_TYPES = 0x00FFFFFFFFFFFFFFULL  # bit t for each of the 56 card types
cdef uint64_t BYTES = 0x0101010101010101ULL  # one in every byte
cdef uint64_t TOPS = 0x8080808080808080ULL   # the top bit of every byte
cdef uint64_t COPIES[5]
cdef uint8_t SUIT_OF[56]
cdef uint8_t POS_OF[56]
# STARTS[b][m]: positions of m where a run could start with b spare wilds (b capped at 9,
# past which every position with a natural above it qualifies); see ``startable``.
cdef uint16_t STARTS[N_RANKS - 1][1 << N_RANKS]
# NEED[m]: the fewest spare wilds with which some position of m can start a run (99: none).
# Suits after the current one are untouched by the search, so this settles whether the
# search must stop in them without looking up STARTS.
cdef uint8_t NEED[1 << N_RANKS]
# TOP[k][m]: value of the k highest positions of m (all of them if fewer), for the books.
cdef uint8_t TOP[MAX_TOP + 1][1 << N_RANKS]


cdef void _init_tables() noexcept:
    cdef int m, i, v, n
    for m in range(1 << N_RANKS):
        v = 0
        n = 0
        for i in range(N_RANKS):
            if m >> i & 1:
                v += i + 3
                n += 1
        VALUE[m] = v
        COUNT[m] = n
    COPIES[0] = 0
    for i in range(1, 5):
        COPIES[i] = COPIES[i - 1] | (<uint64_t>1 << (16 * (i - 1)))
    for i in range(56):
        SUIT_OF[i] = i // N_RANKS
        POS_OF[i] = i % N_RANKS
    for n in range(N_RANKS - 1):
        for m in range(1 << N_RANKS):
            STARTS[n][m] = startable_slow(<uint16_t>m, n)
    for m in range(1 << N_RANKS):
        v = 0
        n = 0
        for i in range(N_RANKS - 1, -1, -1):
            if n <= MAX_TOP:
                TOP[n][m] = v
            if m >> i & 1:
                v += i + 3
                n += 1
        while n <= MAX_TOP:
            TOP[n][m] = v
            n += 1
        NEED[m] = 99
        for n in range(N_RANKS - 2, -1, -1):
            if STARTS[n][m]:
                NEED[m] = n


_init_tables()
if _init_options() < 0:
    raise ImportError("fivecrowns._solver: a suit option table overflowed")
# Every canonical run holds at least two naturals, so a hand of MAX_CARDS cards has at
# most MAX_CARDS / 2 runs on a search path: Search.runs (MAX_RUNS entries) cannot overflow.
if MAX_CARDS > 2 * MAX_RUNS:
    raise ImportError(f"fivecrowns._solver: MAX_HAND_SIZE {MAX_CARDS} exceeds twice "
                      f"MAX_RUNS ({MAX_RUNS}); the run buffers could overflow")


cdef struct Search:
    uint64_t layers[5]         # per suit: 4 lanes of copies free of runs (see LANES)
    # The pool (naturals per rank position not taken by runs) as a bit-sliced counter:
    # bit j of count[i] is bit i of cnt[j]. A run takes one card from each position of
    # a mask, so it decrements all of them at once, without a branch.
    uint16_t cnt[N_SLICES]
    int pool_value             # value of the naturals in the pool
    uint16_t ends[5]           # per suit, positions where a run on the current path ends
    # Byte s (s < 5) is the NEED of suit s's naturals, byte 5 is 0 (a sentinel suit that
    # every budget reaches), bytes 6 and 7 never reached: suits_within() compares all at once.
    uint64_t needs
    int total                  # value of all naturals
    int best                   # most natural value melded so far
    int n_wilds
    int wild_value
    bint record                # keep the runs of the best solution?
    bint discard               # score leaves for a best discard (``discard_leaf``)?
    bint deep                  # some count is 3 or more (party mode: lanes 2 and 3 used)
    int n_runs
    int8_t runs[MAX_RUNS][3]   # (suit, lo, hi) of the runs on the current path
    int best_n_runs
    int8_t best_runs[MAX_RUNS][3]


cdef inline int card_value(int t, int wild) noexcept nogil:
    if t == JOKER:
        return 50
    if t % N_RANKS + 3 == wild:
        return 20
    return t % N_RANKS + 3


cdef inline uint64_t load8(const uint8_t* p) noexcept nogil:
    cdef uint64_t word
    memcpy(&word, p, 8)
    return word


cdef inline unsigned int gather(uint64_t tops) noexcept nogil:
    """The top bits of the 8 bytes of ``tops`` (nothing else set) as an 8-bit mask."""
    return <unsigned int>(((tops >> 7) * 0x0102040810204080ULL) >> 56)


cdef inline unsigned int at_least(uint64_t lo, uint64_t hi, int k) noexcept nogil:
    """Positions 0..10 whose count is at least ``k`` >= 1, from the bytes of positions
    0..7 (``lo``) and 3..10 (``hi``); counts are validated small, so no byte carries."""
    cdef uint64_t bias = (128 - k) * BYTES
    return gather((lo + bias) & TOPS) | gather((hi + bias) & TOPS) << 3


cdef inline unsigned int bit_slice(uint64_t lo, uint64_t hi, int j) noexcept nogil:
    """Positions 0..10 whose count has bit ``j`` set."""
    return gather((lo >> j & BYTES) << 7) | gather((hi >> j & BYTES) << 7) << 3


cdef extern from *:
    """
    /* A row's masks with SSE2 (every x86-64 CPU has it): 16 counts per compare.
       Build with -DFC_NO_SSE2 to test the portable route on x86-64. */
    #if (defined(__SSE2__) || defined(_M_X64) || defined(_M_AMD64)) && !defined(FC_NO_SSE2)
    #include <emmintrin.h>
    #define FC_SSE2 1
    #define FC_GT(v, k) ((unsigned int)_mm_movemask_epi8(_mm_cmpgt_epi8((v), _mm_set1_epi8(k))))
    #define FC_SLICE(v, j) ((unsigned int)_mm_movemask_epi8(_mm_slli_epi16((v), 7 - (j))))
    /* The five suits of a row, one per register, lanes 0..10 (the rest is the next
       suit's). Each count at 0..54 lands in lanes 0..10 of exactly one register, and the
       joker in lane 15 of the last load (``*tail``): every count is read once. */
    static inline void fc_load(const uint8_t* row, __m128i* v, __m128i* tail) {
        v[0] = _mm_loadu_si128((const __m128i*)row);
        v[1] = _mm_loadu_si128((const __m128i*)(row + 11));
        v[2] = _mm_loadu_si128((const __m128i*)(row + 22));
        v[3] = _mm_loadu_si128((const __m128i*)(row + 33));
        /* the last suit from the row's last 16 bytes, moved down: no read past the row */
        *tail = _mm_loadu_si128((const __m128i*)(row + 40));
        v[4] = _mm_srli_si128(*tail, 4);
    }
    /* The masks and slices of ``setup`` from the suits ``v`` (counts validated), their
       lane-wise sum and maximum. Returns whether some count is 3 or more. */
    static inline int fc_masks(const __m128i* v, __m128i sum, __m128i top, int w,
                               uint64_t* layers, uint16_t* cnt, int* rank_wilds) {
        const unsigned int naturals = 0x7FFu & ~(1u << w);
        unsigned char sums[16];
        int s, deep;
        deep = (FC_GT(top, 2) & 0x7FFu) != 0;
        for (s = 0; s < 5; s++) {
            layers[s] = (uint64_t)(FC_GT(v[s], 0) & naturals)
                        | (uint64_t)(FC_GT(v[s], 1) & naturals) << 16;
            if (deep)
                layers[s] |= (uint64_t)(FC_GT(v[s], 2) & naturals) << 32
                             | (uint64_t)(FC_GT(v[s], 3) & naturals) << 48;
        }
        cnt[0] = (uint16_t)(FC_SLICE(sum, 0) & naturals);
        cnt[1] = (uint16_t)(FC_SLICE(sum, 1) & naturals);
        cnt[2] = (uint16_t)(FC_SLICE(sum, 2) & naturals);
        cnt[3] = (uint16_t)(FC_SLICE(sum, 3) & naturals);
        cnt[4] = (uint16_t)(FC_SLICE(sum, 4) & naturals);
        _mm_storeu_si128((__m128i*)sums, sum);
        *rank_wilds = sums[w];
        return deep;
    }
    #define FC_SUM(v) _mm_add_epi8(_mm_add_epi8(_mm_add_epi8((v)[0], (v)[1]), \
                                                _mm_add_epi8((v)[2], (v)[3])), (v)[4])
    #define FC_TOP(v) _mm_max_epu8(_mm_max_epu8(_mm_max_epu8((v)[0], (v)[1]), \
                                                _mm_max_epu8((v)[2], (v)[3])), (v)[4])
    static inline int fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                              int* rank_wilds) {
        __m128i v[5], tail;
        fc_load(row, v, &tail);
        return fc_masks(v, FC_SUM(v), FC_TOP(v), w, layers, cnt, rank_wilds);
    }
    /* ``fc_scan`` of a row that another thread may be writing, checked on the way as
       ``row_problem`` checks (limits ``decks``, sizes min_cards..max_cards): the masks
       come from the very counts checked, each read once. Returns -1 if the row breaks a
       rule, with the counts read in ``seen`` (60 bytes); else as ``fc_scan``, with the
       row's jokers in ``*jokers``. */
    static inline int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards,
                                      int max_cards, uint64_t* layers, uint16_t* cnt,
                                      int* rank_wilds, int* jokers, uint8_t* seen) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i lanes = _mm_srli_si128(_mm_set1_epi32(-1), 5);  /* lanes 0..10 */
        __m128i v[5], tail, sum, top, sad;
        int joker, size;
        fc_load(row, v, &tail);
        /* Counts of at most 4 (checked first) sum to at most 20 a lane: no carry. */
        sum = FC_SUM(v);
        top = FC_TOP(v);
        joker = _mm_extract_epi16(tail, 7) >> 8;
        sad = _mm_sad_epu8(_mm_and_si128(sum, lanes), zero);
        size = _mm_cvtsi128_si32(_mm_add_epi64(sad, _mm_srli_si128(sad, 8))) + joker;
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(
                _mm_and_si128(_mm_subs_epu8(top, _mm_set1_epi8((char)decks)), lanes),
                zero)) != 0xFFFF
                || joker > 3 * decks || size < min_cards || size > max_cards) {
            /* in this order, each store's lanes 0..10 overwrite the last one's spill */
            _mm_storeu_si128((__m128i*)seen, v[0]);
            _mm_storeu_si128((__m128i*)(seen + 11), v[1]);
            _mm_storeu_si128((__m128i*)(seen + 22), v[2]);
            _mm_storeu_si128((__m128i*)(seen + 33), v[3]);
            _mm_storeu_si128((__m128i*)(seen + 44), v[4]);
            return -1;
        }
        *jokers = joker;
        return fc_masks(v, sum, top, w, layers, cnt, rank_wilds);
    }
    /* row_problem with SSE2: the 56 counts in four loads (the last one overlaps the
       third by 8 bytes, so nothing is read past the row). A count above decks leaves a
       non-zero byte after an unsigned saturating subtract; the size is the sum of the
       bytes (psadbw against zero), each byte counted once. */
    static inline int fc_row_problem(const uint8_t* row, int decks, int min_cards,
                                     int max_cards) {
        const __m128i zero = _mm_setzero_si128();
        const __m128i a = _mm_loadu_si128((const __m128i*)row);
        const __m128i b = _mm_loadu_si128((const __m128i*)(row + 16));
        const __m128i c = _mm_loadu_si128((const __m128i*)(row + 32));
        const __m128i d = _mm_loadu_si128((const __m128i*)(row + 40));  /* 40..55 */
        /* the joker (byte 55, lane 15 of d) has its own limit: dropped from the maximum */
        const __m128i d_naturals = _mm_srli_si128(_mm_slli_si128(d, 1), 1);
        const __m128i top = _mm_max_epu8(_mm_max_epu8(a, b), _mm_max_epu8(c, d_naturals));
        const __m128i over = _mm_subs_epu8(top, _mm_set1_epi8((char)decks));
        __m128i sad;
        unsigned long long size;
        int joker = row[55];
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(over, zero)) != 0xFFFF || joker > 3 * decks)
            return 1;
        /* d's sum of bytes 48..55 is its high half (its low half is c's 40..47 again) */
        sad = _mm_add_epi64(_mm_add_epi64(_mm_sad_epu8(a, zero), _mm_sad_epu8(b, zero)),
                            _mm_add_epi64(_mm_sad_epu8(c, zero),
                                          _mm_srli_si128(_mm_sad_epu8(d, zero), 8)));
        sad = _mm_add_epi64(sad, _mm_srli_si128(sad, 8));
        size = (unsigned long long)_mm_cvtsi128_si32(sad);
        return size < (unsigned long long)min_cards || size > (unsigned long long)max_cards;
    }
    #else
    #define FC_SSE2 0
    static inline int fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                              int* rank_wilds) {
        return 0;  /* never called: setup takes the portable route */
    }
    static inline int fc_row_problem(const uint8_t* row, int decks, int min_cards,
                                     int max_cards) {
        return 0;  /* never called: row_problem takes the portable route */
    }
    static inline int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards,
                                      int max_cards, uint64_t* layers, uint16_t* cnt,
                                      int* rank_wilds, int* jokers, uint8_t* seen) {
        return -1;  /* never called: setup_checked takes the portable route */
    }
    #endif
    """
    bint FC_SSE2
    bint fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                 int* rank_wilds) noexcept nogil
    int fc_row_problem(const uint8_t* row, int decks, int min_cards,
                       int max_cards) noexcept nogil
    int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards, int max_cards,
                        uint64_t* layers, uint16_t* cnt, int* rank_wilds, int* jokers,
                        uint8_t* seen) noexcept nogil


cdef void setup(Search* S, const uint8_t* row, int wild) noexcept nogil:
    """Masks and counters of a validated row, branch-free: a data-dependent branch per
    card mispredicts on random hands (docs/performance.rst). With SSE2, 16 counts per
    compare (``fc_scan``); elsewhere eight at a time in a word (``scan_words``)."""
    cdef int rank_wilds
    cdef bint deep
    if FC_SSE2:
        deep = fc_scan(row, wild - 3, S.layers, S.cnt, &rank_wilds)
    else:
        deep = scan_words(row, wild - 3, S.layers, S.cnt, &rank_wilds)
    setup_rest(S, deep, rank_wilds, row[JOKER])


cdef int setup_checked(Search* S, const uint8_t* row, int wild, int decks, int min_cards,
                       uint8_t* seen) noexcept nogil:
    """``setup`` of a row that another thread may be writing (a bulk call's), checked as
    ``row_problem`` checks it (sizes min_cards..MAX_CARDS) from the very counts that the
    masks come from, each read once. Returns the row's jokers; or -1 if the row breaks a
    rule, with the counts read in ``seen`` (60 bytes) and ``S`` unusable."""
    cdef int rank_wilds, jokers, deep
    cdef uint8_t own[56]
    if FC_SSE2:
        deep = fc_scan_checked(row, wild - 3, decks, min_cards, MAX_CARDS, S.layers, S.cnt,
                               &rank_wilds, &jokers, seen)
        if deep < 0:
            return -1
    else:
        memcpy(own, row, 56)  # a private copy, checked
        if row_problem(own, decks, min_cards, MAX_CARDS):
            memcpy(seen, own, 56)
            return -1
        deep = scan_words(own, wild - 3, S.layers, S.cnt, &rank_wilds)
        jokers = own[JOKER]
    setup_rest(S, deep, rank_wilds, jokers)
    return jokers


cdef inline void setup_rest(Search* S, bint deep, int rank_wilds, int jokers) noexcept nogil:
    """The rest of ``setup`` once the masks and slices are in ``S``."""
    cdef int s, j
    cdef uint64_t needs = 0
    cdef int total = 0
    # Only the fields a search reads before writing; the run lists are filled as it goes.
    memset(S.ends, 0, sizeof(S.ends))
    S.best = 0
    S.n_runs = 0
    S.best_n_runs = 0
    S.record = False
    S.discard = False
    S.deep = deep
    for s in range(5):
        needs |= <uint64_t>NEED[<uint16_t>S.layers[s]] << (8 * s)
    S.needs = needs | 0x7F7F000000000000ULL
    for j in range(N_SLICES):
        total += VALUE[S.cnt[j]] << j
    S.total = total
    S.pool_value = total
    S.n_wilds = rank_wilds + jokers
    S.wild_value = 20 * rank_wilds + 50 * jokers


cdef bint scan_words(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                     int* rank_wilds) noexcept nogil:
    """``fc_scan`` without SSE2: eight counts at a time in a word."""
    cdef int s, j
    cdef uint64_t lo, hi, sum_lo = 0, sum_hi = 0, over = 0
    cdef uint64_t bias3 = (128 - 3) * BYTES
    cdef unsigned int naturals = ALL_RANKS & ~(1 << w), m1, m2
    cdef bint deep
    rank_wilds[0] = 0
    for s in range(5):
        lo = load8(row + N_RANKS * s)       # positions 0..7
        hi = load8(row + N_RANKS * s + 3)   # positions 3..10 (stays inside the row)
        sum_lo += lo
        sum_hi += hi
        rank_wilds[0] += row[N_RANKS * s + w]
        m1 = at_least(lo, hi, 1) & naturals
        m2 = at_least(lo, hi, 2) & naturals
        layers[s] = m1 | <uint64_t>m2 << 16
        over |= (lo + bias3) | (hi + bias3)
    deep = (over & TOPS) != 0
    if deep:
        # Party mode may hold 3 or 4 copies of a card: fill the upper lanes.
        for s in range(5):
            lo = load8(row + N_RANKS * s)
            hi = load8(row + N_RANKS * s + 3)
            layers[s] |= (<uint64_t>(at_least(lo, hi, 3) & naturals) << 32
                          | <uint64_t>(at_least(lo, hi, 4) & naturals) << 48)
    for j in range(N_SLICES):
        cnt[j] = <uint16_t>(bit_slice(sum_lo, sum_hi, j) & naturals)
    return deep


cdef inline void slices_take(uint16_t* cnt, uint16_t taken) noexcept nogil:
    """Decrement the bit-sliced counts at each position of ``taken`` (all non-zero)."""
    cdef uint16_t borrow = taken, old
    cdef int j
    for j in range(N_SLICES):
        old = cnt[j]
        cnt[j] = old ^ borrow
        borrow &= ~old


cdef inline uint16_t pool_ranks(const uint16_t* cnt) noexcept nogil:
    """Positions where the bit-sliced counts ``cnt`` are non-zero."""
    return cnt[0] | cnt[1] | cnt[2] | cnt[3] | cnt[4]


cdef inline void pool_take(Search* S, uint16_t taken) noexcept nogil:
    """Take one natural from the pool at each position of ``taken`` (all present)."""
    slices_take(S.cnt, taken)
    S.pool_value -= VALUE[taken]


cdef inline int books(const Search* S, int budget) noexcept nogil:
    """Most value the books can meld from the pool with at most ``budget`` wilds."""
    return books_of(S.cnt, S.pool_value, budget)


cdef int books_of(const uint16_t* cnt, int pool_value, int budget) noexcept nogil:
    """Most value the books can meld from a pool (bit slices ``cnt``, total value
    ``pool_value``) with at most ``budget`` wilds: ranks of 3+ are free, then the
    ``knapsack`` of the singles and pairs."""
    cdef uint16_t high = cnt[2] | cnt[3] | cnt[4]  # 4 or more
    cdef uint16_t singles = cnt[0] & ~(cnt[1] | high)
    cdef uint16_t pairs = cnt[1] & ~(cnt[0] | high)
    return pool_value - VALUE[singles] - 2 * VALUE[pairs] + knapsack(singles, pairs, budget)


cdef inline int knapsack(uint16_t singles, uint16_t pairs, int budget) noexcept nogil:
    """Most value of single naturals (2 wilds make a book) and pairs (1 wild) that
    ``budget`` wilds book: j singles and the best pairs the rest buys, for the best j.
    Both kinds go from the highest rank down, which is optimal within a kind."""
    cdef int best, take, one, two
    if budget <= MAX_TOP:
        # The common cases, from the TOP tables: no single, one or (four wilds) two.
        best = 2 * TOP[budget][pairs]
        take = budget - 2 if budget >= 2 else 0
        one = TOP[1][singles] + 2 * TOP[take][pairs] if budget >= 2 else 0
        two = TOP[2][singles] if budget >= 4 else 0
        best = one if one > best else best
        best = two if two > best else best
        return best
    return knapsack_many(singles, pairs, budget)


cdef int knapsack_many(uint16_t singles, uint16_t pairs, int budget) noexcept nogil:
    """``knapsack`` for more than MAX_TOP wilds (kept out of line, so that the common
    case inlines everywhere)."""
    cdef int j, best, value, take
    if 2 * COUNT[singles] + COUNT[pairs] <= budget:
        return VALUE[singles] + 2 * VALUE[pairs]
    best = 0
    for j in range(budget // 2 + 1):
        if j > COUNT[singles]:
            break
        take = budget - 2 * j
        value = top_value(singles, j) + 2 * top_value(pairs, take)
        if value > best:
            best = value
    return best


cdef inline int discard_leaf(const Search* S, int saved, int budget) noexcept nogil:
    return discard_leaf_of(S.cnt, S.pool_value, S.best, saved, budget)


cdef inline int discard_leaf_of(const uint16_t* pool, int pool_value, int best, int saved,
                                int budget) noexcept nogil:
    """Best of keeping these runs and discarding one card (see ``best_discard_search``):
    the most value melded plus the value of a natural discarded from the pool (bit
    slices ``pool``), or the most value melded with one spare wild discarded; only
    options that meld something count. Returns ``best`` unless some option beats it.

    Inline up to the bound that most calls stop at; ``discard_options`` does the rest."""
    cdef uint16_t high = pool[2] | pool[3] | pool[4]  # 4 or more
    cdef uint16_t singles = pool[0] & ~(pool[1] | high)
    cdef uint16_t pairs = pool[1] & ~(pool[0] | high)
    cdef uint16_t threes = pool[0] & pool[1] & ~high
    cdef uint16_t present = singles | pairs | threes | high
    cdef int base = saved + pool_value - VALUE[singles] - 2 * VALUE[pairs]  # runs, free books
    cdef int whole = base + knapsack(singles, pairs, budget)
    # Every option here scores at most whole + the value of the pool's highest rank.
    if whole + TOP[1][present] <= best:
        return best
    return discard_options(singles, pairs, threes, present, base, whole, best, budget)


cdef int discard_options(uint16_t singles, uint16_t pairs, uint16_t threes, uint16_t present,
                         int base, int whole, int best, int budget) noexcept nogil:
    """``discard_leaf_of`` past its bound, from the pool's classes (``present``: every
    rank it holds), ``base`` (the runs and the free books) and ``whole`` (``base`` and
    the books of the singles and pairs).

    A discard changes one rank's count, so the books are re-solved from the pool's
    classes: a single leaves, a pair becomes a single, three become a pair, and from
    four on the rank stays a free book."""
    cdef uint16_t bit
    cdef int value, v, i
    if budget >= 1:
        value = base + knapsack(singles, pairs, budget - 1)
        if value > best:  # best >= 0: options that meld nothing never count
            best = value
    while present:
        i = fc_high(present)
        bit = <uint16_t>(1 << i)
        present &= ~bit
        v = i + 3
        # Books only lose value when the pool loses a card: nothing lower can beat best.
        if whole + v <= best:
            break
        if singles & bit:
            value = base + knapsack(singles & ~bit, pairs, budget)
        elif pairs & bit:
            value = base + knapsack(singles | bit, pairs & ~bit, budget)
        elif threes & bit:
            value = base - 3 * v + knapsack(singles, pairs | bit, budget)
        else:
            value = whole - v
        if value > 0 and value + v > best:
            best = value + v
    return best


cdef inline int top_value(uint16_t m, int k) noexcept nogil:
    """Value of the ``k`` highest positions of ``m`` (all of them if fewer)."""
    cdef int i, value
    if k <= MAX_TOP:
        return TOP[k][m]
    value = 0
    while m and k > 0:
        i = fc_high(m)
        m &= <uint16_t>~(1 << i)
        value += i + 3
        k -= 1
    return value


cdef uint16_t startable_slow(uint16_t m, int budget) noexcept nogil:
    """Positions of ``m`` where a run could start: a natural of the same suit above it
    within ``budget + 1`` places (with no wild to spare, the next two places held)."""
    cdef int k
    cdef uint16_t near = 0
    if budget <= 0:
        return m & (m >> 1) & (m >> 2)
    if budget > N_RANKS - 2:
        budget = N_RANKS - 2
    for k in range(1, budget + 2):
        near |= m >> k
    return m & near


cdef inline unsigned int suits_within(const Search* S, int budget) noexcept nogil:
    """Suits (bit 5: the end sentinel) where ``budget`` wilds can start some run."""
    return gather(((budget + 128) * BYTES - S.needs) & TOPS)


cdef inline uint16_t startable(uint16_t m, int budget) noexcept nogil:
    """``startable_slow`` from a table: it runs for every suit at every search node."""
    return STARTS[budget if budget < N_RANKS - 2 else N_RANKS - 2][m]


cdef inline uint16_t take_run(Search* S, int s, uint16_t span_mask) noexcept nogil:
    """Give a run of suit ``s`` over ``span_mask`` one free copy of each natural there;
    return the positions it took."""
    cdef uint64_t spread = span_mask * LANES, L = S.layers[s]
    cdef uint16_t taken = <uint16_t>L & span_mask
    S.layers[s] = (L & ~spread) | ((L >> 16) & spread)  # every lane drops one copy
    pool_take(S, taken)
    return taken


cdef inline uint16_t span_of(int lo, int hi) noexcept nogil:
    return <uint16_t>(((1 << (hi + 1)) - 1) & ~((1 << lo) - 1))


cdef inline uint16_t run_ends(uint16_t m, int x, int max_end, int budget,
                              uint16_t ended) noexcept nogil:
    """Where a run of the suit's naturals ``m`` starting at ``x`` may end: a natural
    up to ``max_end`` and below the (budget + 1)-th hole above x. None if a run of the
    suit ends at x - 1 (``ended``): the merged run holds the same naturals with no more
    wilds, and it is tried when the first one starts."""
    cdef uint16_t avail, holes
    cdef int k
    if x > 0 and ended >> (x - 1) & 1:
        return 0
    avail = span_of(x + 1, max_end)
    holes = avail & ~m
    # Drop the lowest ``budget`` holes (without a branch for up to 4 wilds).
    holes &= holes - (budget > 0)
    holes &= holes - (budget > 1)
    holes &= holes - (budget > 2)
    holes &= holes - (budget > 3)
    k = budget - 4
    while k > 0 and holes:
        holes &= holes - 1
        k -= 1
    return m & avail & ((holes & -holes) - 1)  # no hole left: all of avail


cdef void search(Search* S, int s, int x, int budget, int max_end, int saved) noexcept nogil:
    """Try every canonical run set from suit ``s``, position ``x`` on, with ``budget``
    wilds; ``saved`` is the value of the runs chosen so far.

    At each position that can start a run: first every run starting there (each
    explored recursively, longest first), then leave the copies there out of runs and
    move on.
    """
    cdef uint16_t cand, m, span_mask, taken, ends, ended
    cdef uint16_t kept_cnt[N_SLICES]
    cdef uint64_t kept
    cdef int b, need, span, value
    while S.best < S.total:
        # Find the next position that can start a run; copies passed over stay out of runs.
        while s < 5:
            m = <uint16_t>S.layers[s] >> x << x
            cand = startable(m, budget)
            if cand:
                b = fc_ctz(cand)
                if b != x:  # only further runs from the same start are bound by max_end
                    max_end = N_RANKS - 1
                    x = b
                break
            s = fc_ctz(suits_within(S, budget) >> (s + 1) << (s + 1))
            x = 0
            max_end = N_RANKS - 1
        if s == 5:
            value = discard_leaf(S, saved, budget) if S.discard else saved + books(S, budget)
            if value > S.best:
                S.best = value
                if S.record:
                    S.best_n_runs = S.n_runs
                    memcpy(S.best_runs, S.runs,
                           min(S.n_runs, <int>MAX_RUNS) * 3 * sizeof(int8_t))
            break

        m = <uint16_t>S.layers[s]
        # Either a(nother) run starts at x, ending at a natural b (longest first) ...
        ends = run_ends(m, x, max_end, budget, S.ends[s])
        while ends:
            b = fc_high(ends)
            ends &= ~(1 << b)
            span_mask = span_of(x, b)
            taken = m & span_mask
            span = b - x + 1
            need = (span if span > 3 else 3) - COUNT[taken]
            if need > budget:
                continue
            kept = S.layers[s]
            memcpy(kept_cnt, S.cnt, sizeof(kept_cnt))
            take_run(S, s, span_mask)
            if S.n_runs < MAX_RUNS:
                S.runs[S.n_runs][0] = <int8_t>s
                S.runs[S.n_runs][1] = <int8_t>x
                S.runs[S.n_runs][2] = <int8_t>b
            S.n_runs += 1
            ended = S.ends[s]
            S.ends[s] |= <uint16_t>(1 << b)
            search(S, s, x, budget - need, b, saved + VALUE[taken])
            S.ends[s] = ended
            S.n_runs -= 1
            memcpy(S.cnt, kept_cnt, sizeof(kept_cnt))
            S.pool_value += VALUE[taken]
            S.layers[s] = kept
            if S.best == S.total:
                break
        # ... or the copies still at x stay out of runs: nothing below x is read again,
        # since later runs of the suit start above x.
        x += 1
        max_end = N_RANKS - 1


# ---------------------------------------------------------------------------------------
# The same leaves, listed suit by suit. A suit's canonical run sets depend on its own
# naturals and on the wilds left, nothing else, and a set that fits b wilds fits more.
# ``search`` rescans a suit for every choice made in the suits before it; here each
# suit's sets ("options") are listed once, by the wilds they need, mostly from tables
# built at import, and the leaves are the choices of one option per suit that the wilds
# allow (``over_suits``), as in the pure-Python twin's ``plan``.

cdef struct Option:
    uint16_t once      # positions where the suit's runs take at least one natural
    uint16_t twice     # ... two naturals (both copies of two decks)
    uint8_t need       # wilds the runs need
    uint8_t value      # value of the naturals they take


cdef enum:
    TABLE_SIZE = 1 << 16          # room for the options of every single-copy suit
    DOUBLE_TABLE_SIZE = 1 << 15   # ... of every listed suit holding a natural twice
    MAX_DOUBLE = 4                # those suits are listed up to this many naturals
    DOUBLE_KEYS = 1 << 12         # room for their keys (all three checked at import)
    MAX_OPTIONS = 256             # a hand's options copied from DOUBLE_OPTIONS
    NO_NEED = 255                 # the need of a list's end mark: more than any hand has


# SUIT_OPTIONS[OPTIONS_AT[m]:OPTIONS_AT[m + 1] - 1]: the options of a suit whose naturals
# are the single copies of mask m, without repeats, in ``option_order``: "no run", then by
# need; then an end mark (``END_MARK``: it needs NO_NEED wilds), so that a walk by need
# (``over_books``) stops at the list's end without counting.
cdef Option SUIT_OPTIONS[TABLE_SIZE]
cdef Option END_MARK               # set by ``_init_options``
cdef int OPTIONS_AT[(1 << N_RANKS) + 1]
# A suit holding some natural twice, up to MAX_DOUBLE naturals: canonical run sets do not
# change when a suit's naturals all move down by the same number of places, so these are
# listed with the lowest natural at position 0. DOUBLE_KEY[m] (-1: not listed) numbers the
# suits with naturals m (m odd): key DOUBLE_KEY[m] + j for the subsets j of m held twice,
# as ``squeeze`` numbers them; their options are DOUBLE_OPTIONS[DOUBLE_AT[key]:...].
cdef Option DOUBLE_OPTIONS[DOUBLE_TABLE_SIZE]
cdef int KEPT_AT[1 << N_RANKS]     # for ``tidy_options``: -1 between calls
cdef int DOUBLE_KEY[1 << N_RANKS]
cdef int DOUBLE_AT[DOUBLE_KEYS + 1]


cdef int gen_options(uint64_t L, int x, int budget, int max_end, uint16_t ends_at,
                     uint64_t took, int need, int value, Option* out, int n,
                     int room) noexcept nogil:
    """Append to ``out[:n]`` every canonical run set of one suit (lanes ``L``, as in
    ``search``) from position ``x`` on, with ``budget`` wilds; ``took`` holds the copies
    taken so far, one lane per copy. Returns the new count, or -1 past ``room``.

    The loop is ``search``'s within one suit, step for step, so that both reach the
    same leaves; it runs only at import, to fill the tables."""
    cdef uint16_t m, cand, ends, span_mask, taken
    cdef uint64_t spread
    cdef int b, run_need, span
    while True:
        m = <uint16_t>L >> x << x
        cand = startable(m, budget)
        if not cand:
            if n >= room:
                return -1
            out[n].once = <uint16_t>took
            out[n].twice = <uint16_t>(took >> 16)
            out[n].need = <uint8_t>need
            out[n].value = <uint8_t>value
            return n + 1
        b = fc_ctz(cand)
        if b != x:
            max_end = N_RANKS - 1
            x = b
        m = <uint16_t>L
        ends = run_ends(m, x, max_end, budget, ends_at)
        while ends:
            b = fc_high(ends)
            ends &= ~(1 << b)
            span_mask = span_of(x, b)
            taken = m & span_mask
            span = b - x + 1
            run_need = (span if span > 3 else 3) - COUNT[taken]
            if run_need > budget:
                continue
            spread = span_mask * LANES
            n = gen_options((L & ~spread) | ((L >> 16) & spread), x, budget - run_need, b,
                            ends_at | <uint16_t>(1 << b),
                            took | (((took << 16) | taken) & (taken * LANES)),
                            need + run_need, value + VALUE[taken], out, n, room)
            if n < 0:
                return -1
        x += 1
        max_end = N_RANKS - 1


cdef int option_order(const void* x, const void* y) noexcept nogil:
    """The order of a suit's options, for ``qsort``: "no run" first, then by need, then
    by value (highest first); ties by the naturals taken, so that every platform's sort
    gives the same lists."""
    cdef const Option* a = <const Option*>x
    cdef const Option* b = <const Option*>y
    if (a.value == 0) != (b.value == 0):
        return -1 if a.value == 0 else 1
    if a.need != b.need:
        return a.need - b.need
    if a.value != b.value:
        return b.value - a.value
    if a.once != b.once:
        return a.once - b.once
    return a.twice - b.twice


cdef int tidy_options(Option* opts, int n, bint at_import) noexcept nogil:
    """Drop an option that takes the same naturals as another with no more wilds, then
    sort (see ``option_order``). Returns the new count. Only ``at_import`` may it use
    the shared ``KEPT_AT`` (threads list options at run time)."""
    cdef int i, j, kept = 0
    cdef bint single = at_import
    for i in range(n):
        single = single and opts[i].twice == 0
    for i in range(n):
        if single:  # (the long lists: a look-up, not a scan)
            j = KEPT_AT[opts[i].once]
        else:
            j = 0
            while j < kept and (opts[j].once != opts[i].once or opts[j].twice != opts[i].twice):
                j += 1
            j = j if j < kept else -1
        if j >= 0:
            if opts[i].need < opts[j].need:
                opts[j].need = opts[i].need
        else:
            if single:
                KEPT_AT[opts[i].once] = kept
            opts[kept] = opts[i]
            kept += 1
    if single:
        for i in range(kept):
            KEPT_AT[opts[i].once] = -1
    qsort(opts, kept, sizeof(Option), option_order)
    return kept


cdef inline unsigned int squeeze(uint16_t sub, uint16_t m) noexcept nogil:
    """The positions of ``sub`` (a subset of ``m``) as bits of their ranks within ``m``."""
    cdef unsigned int j = 0
    while sub:
        j |= 1u << COUNT[m & ((sub & -sub) - 1)]
        sub &= sub - 1
    return j


cdef int _init_options() noexcept:
    cdef int m, n, j, bits, key = 0, at = 0
    cdef uint16_t sub, rest
    END_MARK.once = END_MARK.twice = END_MARK.value = 0
    END_MARK.need = NO_NEED
    for m in range(1 << N_RANKS):
        KEPT_AT[m] = -1
    for m in range(1 << N_RANKS):
        OPTIONS_AT[m] = at
        n = gen_options(m, 0, N_RANKS, N_RANKS - 1, 0, 0, 0, 0, SUIT_OPTIONS + at, 0,
                        TABLE_SIZE - at - 1)
        if n < 0:
            return -1
        at += tidy_options(SUIT_OPTIONS + at, n, True)
        SUIT_OPTIONS[at] = END_MARK
        at += 1
    OPTIONS_AT[1 << N_RANKS] = at
    at = 0
    for m in range(1 << N_RANKS):
        DOUBLE_KEY[m] = -1
        if not m & 1 or COUNT[m] > MAX_DOUBLE:
            continue
        if key + (1 << COUNT[m]) > DOUBLE_KEYS:
            return -1
        DOUBLE_KEY[m] = key
        for j in range(1 << COUNT[m]):
            sub = 0  # the subset of m numbered j
            rest = <uint16_t>m
            bits = j
            while rest:
                if bits & 1:
                    sub |= rest & -rest
                bits >>= 1
                rest &= rest - 1
            DOUBLE_AT[key] = at
            n = gen_options(m | <uint64_t>sub << 16, 0, N_RANKS, N_RANKS - 1, 0, 0, 0, 0,
                            DOUBLE_OPTIONS + at, 0, DOUBLE_TABLE_SIZE - at)
            if n < 0:
                return -1
            at += tidy_options(DOUBLE_OPTIONS + at, n, True)
            key += 1
    DOUBLE_AT[key] = at
    return at


cdef struct Combo:
    const Option* opts[6]      # the options of each suit that has more than "no run"
    int n_opts[6]
    int levels
    int best                   # as ``Search.best``
    int total
    int base                   # the runs' and the pool's value at every leaf (``over_books``)


cdef inline void slices_take4(uint16_t* cnt, uint16_t taken) noexcept nogil:
    """``slices_take`` for counts below 16: no party hand with 3+ copies gets here."""
    cdef uint16_t borrow = taken, old
    cdef int j
    for j in range(4):
        old = cnt[j]
        cnt[j] = old ^ borrow
        borrow &= ~old


cdef inline void pool_without(uint16_t* c, const uint16_t* cnt, const Option* o) noexcept nogil:
    """``c`` = the pool ``cnt`` less the naturals option ``o`` takes (top slice: see
    ``slices_take4``)."""
    memcpy(c, cnt, 4 * sizeof(uint16_t))
    slices_take4(c, o.once)
    if o.twice:
        slices_take4(c, o.twice)


cdef inline void book_leaves(Combo* C, int level, const uint16_t* cnt,
                             int budget) noexcept nogil:
    """The last level of ``over_books``: each option's books straight from the pool's
    classes. Where the runs take one natural, a pair becomes a single and three a pair
    (four or more stay free); where they take two (both copies of a card), three become
    a single and four a pair (five or more stay free). The runs' value cancels, since
    what they take leaves the pool (``C.base``: what every leaf starts from); and no
    option needs a branch of its own."""
    cdef const Option* o = C.opts[level] + 1
    cdef uint16_t high = cnt[2] | cnt[3] | cnt[4]  # 4 or more
    cdef uint16_t ones = cnt[0] & ~(cnt[1] | high)
    cdef uint16_t twos = cnt[1] & ~(cnt[0] | high)
    cdef uint16_t threes = cnt[0] & cnt[1] & ~high
    cdef uint16_t fours = cnt[2] & ~(cnt[0] | cnt[1] | cnt[3] | cnt[4])
    cdef uint16_t once, singles, pairs
    cdef int value = C.base - VALUE[ones] - 2 * VALUE[twos] + knapsack(ones, twos, budget)
    C.best = value if value > C.best else C.best
    while o.need <= budget:  # (up to the end mark)
        once = o.once & ~o.twice  # (o.twice is a subset of o.once)
        singles = (twos & once) | (ones & ~o.once) | (threes & o.twice)
        pairs = (threes & once) | (twos & ~o.once) | (fours & o.twice)
        value = (C.base - VALUE[singles] - 2 * VALUE[pairs]
                 + knapsack(singles, pairs, budget - o.need))
        C.best = value if value > C.best else C.best
        o += 1


cdef void over_books(Combo* C, int level, const uint16_t* cnt, int budget) noexcept nogil:
    """``over_suits`` for the deadwood: every choice of options from ``level`` on that the
    ``budget`` allows, the books of the pool (bit slices ``cnt``) scored at the last
    level by ``book_leaves``, inlined here."""
    cdef const Option* o = C.opts[level] + 1
    cdef uint16_t c[N_SLICES]
    if level + 1 == C.levels:
        book_leaves(C, level, cnt, budget)
        return
    if level >= 4:  # never (five suits): tells the compiler the lists stay in bounds
        return
    c[4] = 0
    if level + 2 == C.levels:
        book_leaves(C, level + 1, cnt, budget)
        while o.need <= budget and C.best < C.total:  # (up to the end mark)
            pool_without(c, cnt, o)
            book_leaves(C, level + 1, c, budget - o.need)
            o += 1
    else:
        over_books(C, level + 1, cnt, budget)
        while o.need <= budget and C.best < C.total:  # (up to the end mark)
            pool_without(c, cnt, o)
            over_books(C, level + 1, c, budget - o.need)
            o += 1


cdef inline void discard_leaves(Combo* C, int level, const uint16_t* cnt, int pool_value,
                                int budget, int saved) noexcept nogil:
    """``leaves`` for a best discard (``discard_leaf_of``)."""
    cdef const Option* o = C.opts[level] + 1
    cdef const Option* end = C.opts[level] + C.n_opts[level]
    cdef uint16_t c[N_SLICES]
    C.best = discard_leaf_of(cnt, pool_value, C.best, saved, budget)
    c[4] = 0
    while o < end and o.need <= budget and C.best < C.total:
        pool_without(c, cnt, o)
        C.best = discard_leaf_of(c, pool_value - o.value, C.best, saved + o.value,
                                 budget - o.need)
        o += 1


cdef void over_suits(Combo* C, int level, const uint16_t* cnt, int pool_value, int budget,
                     int saved) noexcept nogil:
    """Every choice of options from ``level`` on that the ``budget`` allows, for a best
    discard; the pool (bit slices ``cnt``, value ``pool_value``) goes to the discard
    leaves at the last level, which ``discard_leaves`` scores without another call.
    Option 0 of every list is "no run", which leaves the pool as it is."""
    cdef const Option* o = C.opts[level] + 1
    cdef const Option* end = C.opts[level] + C.n_opts[level]
    cdef uint16_t c[N_SLICES]
    cdef bint next_last = level + 2 == C.levels
    if level + 1 == C.levels:
        discard_leaves(C, level, cnt, pool_value, budget, saved)
        return
    if level >= 4:  # never (five suits): tells the compiler the lists stay in bounds
        return
    if next_last:
        discard_leaves(C, level + 1, cnt, pool_value, budget, saved)
    else:
        over_suits(C, level + 1, cnt, pool_value, budget, saved)
    c[4] = 0
    while o < end and o.need <= budget and C.best < C.total:
        pool_without(c, cnt, o)
        if next_last:
            discard_leaves(C, level + 1, c, pool_value - o.value, budget - o.need,
                           saved + o.value)
        else:
            over_suits(C, level + 1, c, pool_value - o.value, budget - o.need,
                       saved + o.value)
        o += 1


cdef inline int suit_list(uint16_t once, uint16_t twice, int budget, Option* buf, int room,
                          const Option** opts) noexcept nogil:
    """Point ``opts[0]`` at the options of a suit whose naturals are ``once`` (``twice``:
    those held twice) that ``budget`` wilds allow, and return how many there are (from
    the first: the list may go on with options that need more); -1 if they need more
    than ``room`` entries of ``buf``.

    A suit holding a natural twice has its options copied into ``buf``, moved up to its
    lowest natural; only those that ``budget`` wilds allow (the list goes by need)."""
    cdef const Option* src
    cdef int n, j, low = fc_ctz(once), key = DOUBLE_KEY[once >> low]
    if twice == 0:
        opts[0] = SUIT_OPTIONS + OPTIONS_AT[once]
        return OPTIONS_AT[once + 1] - OPTIONS_AT[once] - 1
    if key < 0:
        # A crowded suit, listed now as the tables are at import (``search`` serves
        # ``combine``, but a draw table reads each list many times).
        n = gen_options(once | <uint64_t>twice << 16, 0, budget, N_RANKS - 1, 0, 0, 0, 0,
                        buf, 0, room)
        if n < 0:
            return -1
        opts[0] = buf
        return tidy_options(buf, n, False)
    key += squeeze(twice >> low, once >> low)
    src = DOUBLE_OPTIONS + DOUBLE_AT[key]
    n = DOUBLE_AT[key + 1] - DOUBLE_AT[key]
    j = 1  # option 0, "no run", needs nothing
    while j < n and src[j].need <= budget:
        j += 1
    n = j
    if n > room:
        return -1
    for j in range(n):
        buf[j].once = src[j].once << low
        buf[j].twice = src[j].twice << low
        buf[j].need = src[j].need
        buf[j].value = <uint8_t>(src[j].value + low * (COUNT[src[j].once] + COUNT[src[j].twice]))
    opts[0] = buf
    return n


cdef inline bint list_suits(Combo* C, const Search* S, unsigned int suits,
                            Option* buf) noexcept nogil:
    """One level of ``C`` per suit of ``suits`` that has more than "no run" within
    ``S.n_wilds`` wilds (``buf``: MAX_OPTIONS entries); False if they overflow ``buf``."""
    cdef int s, n, used = 0
    C.levels = 0
    while suits:
        s = fc_ctz(suits)
        suits &= suits - 1
        n = suit_list(<uint16_t>S.layers[s], <uint16_t>(S.layers[s] >> 16), S.n_wilds,
                      buf + used, MAX_OPTIONS - used, &C.opts[C.levels])
        if n < 0:
            return False
        if C.opts[C.levels] == buf + used:
            used += n
        C.n_opts[C.levels] = n
        if n > 1:
            C.levels += 1
    return True


cdef bint combine(Search* S, unsigned int suits) noexcept nogil:
    """Set ``S.best`` as ``search`` would, from the options of ``suits`` (those where a
    run can start: ``suits_within``); False (and ``S`` untouched) if some suit is not in
    the tables."""
    cdef Option buf[MAX_OPTIONS]
    cdef Combo C
    cdef const Option* src
    cdef int s, n, j, low, key, used = 0
    cdef uint16_t once, twice
    C.levels = 0
    C.best = S.best
    C.total = S.total
    while suits:
        s = fc_ctz(suits)
        suits &= suits - 1
        once = <uint16_t>S.layers[s]
        twice = <uint16_t>(S.layers[s] >> 16)
        low = fc_ctz(once)
        key = DOUBLE_KEY[once >> low]
        if twice == 0:
            C.opts[C.levels] = SUIT_OPTIONS + OPTIONS_AT[once]
            n = OPTIONS_AT[once + 1] - OPTIONS_AT[once] - 1
        elif key >= 0:
            # Move the listed options up to the suit's lowest natural (only those the
            # wilds allow: the list goes by need after "no run").
            key += squeeze(twice >> low, once >> low)
            src = DOUBLE_OPTIONS + DOUBLE_AT[key]
            n = DOUBLE_AT[key + 1] - DOUBLE_AT[key]
            j = 1
            while j < n and src[j].need <= S.n_wilds:
                j += 1
            n = j
            if n + 1 > MAX_OPTIONS - used:
                return False
            for j in range(n):
                buf[used + j].once = src[j].once << low
                buf[used + j].twice = src[j].twice << low
                buf[used + j].need = src[j].need
                buf[used + j].value = <uint8_t>(
                    src[j].value + low * (COUNT[src[j].once] + COUNT[src[j].twice]))
            buf[used + n] = END_MARK
            C.opts[C.levels] = buf + used
            used += n + 1
        else:
            # A crowded suit: listing its sets at run time would outweigh ``search``,
            # whose longest runs first often meld everything at once and stop.
            return False
        C.n_opts[C.levels] = n
        if n > 1:
            C.levels += 1
    if C.levels == 0:
        if S.discard:
            C.best = discard_leaf(S, 0, S.n_wilds)
        else:
            C.best = books(S, S.n_wilds)
    else:
        if S.discard:
            over_suits(&C, 0, S.cnt, S.pool_value, S.n_wilds, 0)
        else:
            C.base = S.pool_value  # every leaf's runs and pool add up to it
            over_books(&C, 0, S.cnt, S.n_wilds)
    S.best = C.best
    return True


cdef inline int finish(Search* S) noexcept nogil:
    """Deadwood from the search result (see ``_solver_py.plan``)."""
    if S.best == 0:
        return S.total + (0 if S.n_wilds >= 3 else S.wild_value)
    return S.total - S.best


cdef inline bint listed(Search* S, bint by_options) noexcept nogil:
    """Run ``combine`` where it applies: not with 3+ copies of a card (party mode), for
    which the option entries have no room, nor for suits the tables do not hold;
    False if ``search`` must run instead. ``by_options`` False forces the search, for
    the tests to compare the two."""
    return by_options and not S.deep and combine(S, suits_within(S, S.n_wilds) & 0x1F)


cdef int solve_deadwood(const uint8_t* row, int wild) noexcept nogil:
    return deadwood_by(row, wild, True)


cdef inline int deadwood_by(const uint8_t* row, int wild, bint by_options) noexcept nogil:
    cdef Search S
    setup(&S, row, wild)
    return deadwood_of(&S, by_options)


cdef inline int deadwood_of(Search* S, bint by_options) noexcept nogil:
    """``deadwood_by`` from the ``setup`` of the row."""
    cdef unsigned int suits = suits_within(S, S.n_wilds) & 0x1F
    if by_options and not S.deep and suits == 0:
        S.best = books(S, S.n_wilds)  # no run anywhere (most small hands): no ``combine``
    elif not (by_options and not S.deep and combine(S, suits)):
        if S.total > 0 and books(S, S.n_wilds) == S.total:
            return 0  # enough wilds to book every natural
        search(S, 0, 0, S.n_wilds, N_RANKS - 1, 0)
    return finish(S)


cdef int best_discard_search(const uint8_t* row, int wild, int bound) noexcept nogil:
    return best_discard_by(row, wild, bound, True)


cdef inline int best_discard_by(const uint8_t* row, int wild, int bound,
                                bint by_options) noexcept nogil:
    """Least deadwood after one discard from a non-empty ``row``, if below ``bound``;
    otherwise ``bound``. One search, not one per discard:

    * discarding a wild is the search with one wild fewer: each leaf with a spare wild;
    * discarding a natural d: the runs of the best partition of row - d are a canonical
      run set of row with d left in the pool, except where a run holds a wild in d's
      place, and then discarding that wild instead is as good. So each leaf may also
      discard any natural of its pool, the books then solved without it.

    Options that meld nothing are scored apart (``whole - v(d)`` plus the wilds, as in
    ``finish``); they only bound the answer from above, and are exact when nothing melds.
    """
    cdef Search S
    setup(&S, row, wild)
    return best_discard_of(&S, row[JOKER], bound, by_options)


cdef int best_discard_of(Search* S, int jokers, int bound, bint by_options) noexcept nogil:
    """``best_discard_by`` from the ``setup`` of the row, which holds ``jokers`` jokers."""
    cdef int floor = S.total - bound if S.total > bound else 0
    return discard_result(S.total, discard_best(S, floor, by_options), floor, bound,
                          pool_ranks(S.cnt), S.n_wilds, S.wild_value, jokers)


cdef inline int discard_best(Search* S, int floor, bint by_options) noexcept nogil:
    """The most a discard leaf scores (see ``discard_leaf_of``), or ``floor`` if more."""
    S.discard = True
    S.best = floor
    if not listed(S, by_options):
        search(S, 0, 0, S.n_wilds, N_RANKS - 1, 0)
    return S.best


cdef inline int discard_result(int total, int best, int floor, int bound, uint16_t present,
                               int n_wilds, int wild_value, int jokers) noexcept nogil:
    """A best discard's deadwood, below ``bound``, from the best leaf score ``best`` of a
    search started at ``floor`` (see ``best_discard_by``): the hand's naturals are worth
    ``total`` and present at the positions ``present``; it holds ``n_wilds`` wilds worth
    ``wild_value``, ``jokers`` of them jokers."""
    cdef int result = bound, k
    if best > floor:
        result = total - best
    # Options that meld nothing: discard the highest natural, or the dearest wild.
    if present:
        k = total - (fc_high(present) + 3) + (0 if n_wilds >= 3 else wild_value)
        result = k if k < result else result
    if n_wilds > 0:
        k = total + (0 if n_wilds >= 4 else wild_value - (50 if jokers else 20))
        result = k if k < result else result
    return result


cdef int solve_best_discard(uint8_t* row, int wild, int* card) noexcept nogil:
    """Least deadwood after discarding one card of ``row`` (non-empty); ``row`` is restored."""
    card[0] = -1
    return discard_below(row, wild, 1 << 30, card)


cdef int discard_order_of(const uint8_t* row, int wild, int kept, int* order) noexcept nogil:
    """``fivecrowns.outs.discard_order`` of the hand without type ``kept`` (-1: all of
    it), into ``order``; its length. A joker is always at least as good a discard as a
    wild-rank card, so the order holds one wild (a wild-rank card when the jokers are
    kept), then the naturals from the most valuable down."""
    cdef int w = wild - 3, s, i, c, n = 0
    if row[JOKER] and kept != JOKER:
        order[n] = JOKER
        n += 1
    else:
        for s in range(5):
            c = s * N_RANKS + w
            if row[c] and c != kept:
                order[n] = c
                n += 1
                break
    for i in range(N_RANKS - 1, -1, -1):
        if i == w:
            continue
        for s in range(5):
            c = s * N_RANKS + i
            if row[c] and c != kept:
                order[n] = c
                n += 1
    return n


cdef int discard_below(uint8_t* row, int wild, int bound, int* card,
                       int kept=-1) noexcept nogil:
    """Least deadwood after one discard of a card not of type ``kept`` (-1: any card), if
    below ``bound`` (then ``card`` is set); otherwise ``bound``.

    Candidates go in ``discard_order_of``'s order, from the most valuable down: removing
    a card of value v lowers the deadwood by at most v, so once ``whole - v`` cannot beat
    the best, nothing after can.
    """
    cdef int whole = solve_deadwood(row, wild)
    cdef int best = bound, c, d, k
    cdef int order[56]
    cdef int n = discard_order_of(row, wild, kept, order)
    for k in range(n):
        c = order[k]
        if whole - card_value(c, wild) >= best:
            break
        row[c] -= 1
        d = solve_deadwood(row, wild)
        row[c] += 1
        if d < best:
            best = d
            card[0] = c
            if best == 0:
                break
    return best


cdef bint may_meld(const uint8_t* row, int wild, int t) noexcept nogil:
    """Could natural card ``t`` join some meld in ``row`` + t (or a subset of it)?"""
    cdef int s = t // N_RANKS, p = t % N_RANKS, w = wild - 3, k, q, n_wilds = row[JOKER]
    cdef int same_rank = 0
    cdef uint16_t suit = 0
    for k in range(5):
        n_wilds += row[k * N_RANKS + w]
        same_rank += row[k * N_RANKS + p]
    if n_wilds >= 2 or same_rank >= 2 or (n_wilds == 1 and same_rank >= 1):
        return True
    for q in range(N_RANKS):
        if q != w and row[s * N_RANKS + q]:
            suit |= <uint16_t>(1 << q)
    if n_wilds == 1:  # a run of t, one natural within two places, and the wild
        return (suit & span_of(p - 2 if p >= 2 else 0, p + 2 if p <= 8 else 10)
                & <uint16_t>~(1 << p)) != 0
    # no wild: t needs three of its suit in a row, itself included
    suit |= <uint16_t>(1 << p)
    for q in range(p - 2 if p >= 2 else 0, p + 1):
        if (suit >> q & 7) == 7:
            return True
    return False


cdef inline int row_problem(const uint8_t* row, int decks, int min_cards,
                            int max_cards) noexcept nogil:
    """Non-zero if the row breaks a rule that ``_checks.check_row`` reports.

    With SSE2, sixteen counts at a time (``fc_row_problem``); elsewhere eight at a time
    in a word: adding ``127 - decks`` to every byte sets its top bit exactly when the
    count exceeds ``decks`` (a count of 128 or more has it already).
    """
    cdef uint64_t word, over = 0, size = 0
    cdef uint64_t bias = (127 - decks) * 0x0101010101010101ULL
    cdef int k
    if FC_SSE2:
        return fc_row_problem(row, decks, min_cards, max_cards)
    for k in range(7):
        memcpy(&word, row + 8 * k, 8)
        if k == 6:
            word &= 0x00FFFFFFFFFFFFFFULL  # the joker, byte 55, is checked below
        over |= word | ((word & 0x7F7F7F7F7F7F7F7FULL) + bias)
        size += (word * 0x0101010101010101ULL) >> 56  # sum of the 8 bytes (each small)
    if over & 0x8080808080808080ULL or row[JOKER] > 3 * decks:
        return 1
    size += row[JOKER]
    return size < <uint64_t>min_cards or size > <uint64_t>max_cards


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


cdef uint16_t top_mask(uint16_t m, int k) noexcept nogil:
    """The ``k`` highest positions of ``m`` (all of them if fewer)."""
    cdef uint16_t out = 0
    cdef int i
    while m and k > 0:
        i = fc_high(m)
        m &= <uint16_t>~(1 << i)
        out |= <uint16_t>(1 << i)
        k -= 1
    return out


cdef uint16_t booked(const uint16_t* cnt, int budget) noexcept nogil:
    """The ranks the books of a pool (bit slices ``cnt``) take with ``budget`` wilds,
    chosen as ``_solver_py.book_savings`` chooses them (on a tie, the fewest singles),
    so that both cores lay out the same partition."""
    cdef uint16_t high = cnt[2] | cnt[3] | cnt[4]  # 4 or more
    cdef uint16_t singles = cnt[0] & ~(cnt[1] | high)
    cdef uint16_t pairs = cnt[1] & ~(cnt[0] | high)
    cdef int j, value, best = -1, best_j = 0
    for j in range(min(COUNT[singles], budget // 2) + 1):
        value = 2 * top_value(pairs, budget - 2 * j) + top_value(singles, j)
        if value > best:
            best = value
            best_j = j
    return ((cnt[0] & cnt[1]) | high | top_mask(pairs, budget - 2 * best_j)
            | top_mask(singles, best_j))


def plan_row(row, wild, decks):
    """(deadwood, runs as (suit, lo_rank, hi_rank), booked ranks) of one hand."""
    cdef int d = _decks(decks), w = _wild(wild)
    cdef const uint8_t* data
    cdef Search S
    cdef int k, budget, lo, hi
    cdef uint16_t taken
    row = _contiguous(row, d, 0, MAX_CARDS, &data)
    setup(&S, data, w)
    S.record = True
    search(&S, 0, 0, S.n_wilds, N_RANKS - 1, 0)
    dead = finish(&S)
    if S.best == 0:
        return dead, [], []
    # Replay the best runs on the whole hand, then name the ranks the books take.
    runs = []
    budget = S.n_wilds
    for k in range(S.best_n_runs):
        lo = S.best_runs[k][1]
        hi = S.best_runs[k][2]
        taken = take_run(&S, S.best_runs[k][0], span_of(lo, hi))
        budget -= (hi - lo + 1 if hi - lo + 1 > 3 else 3) - COUNT[taken]
        runs.append((int(S.best_runs[k][0]), lo + 3, hi + 3))
    books = booked(S.cnt, budget)
    return dead, runs, [i + 3 for i in range(N_RANKS) if books >> i & 1]


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
        return deadwood_by(data, w, True), None, deadwood_by(data, w, False), None
    return (deadwood_by(data, w, True), best_discard_by(data, w, 1 << 30, True),
            deadwood_by(data, w, False), best_discard_by(data, w, 1 << 30, False))


cdef void add_card(Search* S, int t, int wild) noexcept nogil:
    """Turn the ``setup`` of a row into that of the row plus card ``t``: a draw table
    solves 56 such rows, and this costs far less than a fresh ``setup``."""
    cdef int p = t % N_RANKS, s = t // N_RANKS, j
    cdef uint16_t bit = <uint16_t>(1 << p), carry = bit, old
    cdef uint64_t L
    if t == JOKER or p == wild - 3:
        S.n_wilds += 1
        S.wild_value += 50 if t == JOKER else 20
        return
    L = S.layers[s]
    L |= ((L << 16) | bit) & (bit * LANES)  # one more copy: the next lane up gains p
    S.layers[s] = L
    S.deep = S.deep or (L >> 32 & bit) != 0
    S.needs = ((S.needs & ~(<uint64_t>0xFF << (8 * s)))
               | <uint64_t>NEED[<uint16_t>L] << (8 * s))
    for j in range(N_SLICES):  # the pool counts one more at p
        old = S.cnt[j]
        S.cnt[j] = old ^ carry
        carry &= old
    S.total += p + 3
    S.pool_value = S.total


# ---------------------------------------------------------------------------------------
# Draw tables from one listing of the hand. Drawing a natural t of suit s at position p
# changes one suit, and a partition of the hand plus t either keeps t out of runs or puts
# it in one:
#
# * t out of runs (A): the runs are run sets of the hand alone, and t only adds to its
#   rank's pool. The hand's own choices of options reach the best of these (the exchanges
#   that make run sets canonical only move the hand's own naturals), so each choice is
#   scored once per rank p with one more natural of rank p in its pool: this part is
#   the same for every suit.
# * t in a run (B): the options of suit s with t that take the new copy (the only copy
#   of the card, or both copies of it), against each choice of the other suits' options.
#
# Both only score real partitions of the hand plus t (and a discard), so neither
# overshoots. And the best one, made canonical for the hand plus t, either has runs that
# take every copy of t's card (a choice in B), or runs made of the hand's own naturals:
# then t is one more card in the pool, which the exchanges that make a run set canonical
# for the hand alone never move, so some choice in A scores at least as much. The best
# of both is the entry: exact, with each suit's choices listed once instead of once per
# card drawn.

cdef enum:
    MAX_LEAVES = 512   # choices ``collect`` lists for a draw table (more: card by card)


cdef struct Leaf:
    uint16_t cnt[4]    # the pool left for the books, as bit slices (counts below 16)
    int pool_value
    int saved
    int budget


cdef int collect(const Combo* C, int level, const uint16_t* cnt, int pool_value, int budget,
                 int saved, Leaf* out, int n) noexcept nogil:
    """Append to ``out[:n]`` every choice of options from ``level`` on that ``budget``
    allows, as ``over_suits`` reaches them; returns the new count, or -1 past MAX_LEAVES."""
    cdef const Option* o
    cdef const Option* end
    cdef uint16_t c[N_SLICES]
    if level >= C.levels:
        if n >= MAX_LEAVES:
            return -1
        memcpy(out[n].cnt, cnt, sizeof(out[n].cnt))
        out[n].pool_value = pool_value
        out[n].saved = saved
        out[n].budget = budget
        return n + 1
    if level >= 5:  # never (five suits): tells the compiler the lists stay in bounds
        return -1
    n = collect(C, level + 1, cnt, pool_value, budget, saved, out, n)
    o = C.opts[level] + 1
    end = C.opts[level] + C.n_opts[level]
    c[4] = 0
    while n >= 0 and o < end and o.need <= budget:
        pool_without(c, cnt, o)
        n = collect(C, level + 1, c, pool_value - o.value, budget - o.need, saved + o.value,
                    out, n)
        o += 1
    return n


cdef inline void slices_add4(uint16_t* c, const uint16_t* cnt, uint16_t bit) noexcept nogil:
    """``c`` = the bit-sliced counts ``cnt`` (below 15) plus one at the position ``bit``."""
    cdef uint16_t carry = bit, old
    cdef int j
    for j in range(4):
        old = cnt[j]
        c[j] = old ^ carry
        carry &= old


cdef uint64_t meld_free(const Search* H, int w) noexcept nogil:
    """The natural cards t that can join no meld of the hand plus t (bit t), from the
    hand's ``setup`` in ``H``, as ``may_meld`` decides: with 2 wilds any card books; with
    one, a card books with another of its rank, or runs with a natural of its suit within
    two places; with none, it books with two others, or runs with two neighbours."""
    cdef uint16_t one, two, free, m, near
    cdef uint64_t out = 0
    cdef int s
    if H.n_wilds >= 2:
        return 0
    one = H.cnt[0] | H.cnt[1] | H.cnt[2] | H.cnt[3] | H.cnt[4]  # a rank held at all
    two = H.cnt[1] | H.cnt[2] | H.cnt[3] | H.cnt[4]             # held twice or more
    free = ALL_RANKS & ~(1 << w) & ~(one if H.n_wilds else two)
    for s in range(5):
        m = <uint16_t>H.layers[s]  # the suit's naturals
        if H.n_wilds:
            near = <uint16_t>((m << 1) | (m << 2) | (m >> 1) | (m >> 2))
        else:  # t and two neighbours: below both, one each side, above both
            near = <uint16_t>(((m << 1) & (m << 2)) | ((m << 1) & (m >> 1))
                              | ((m >> 1) & (m >> 2)))
        out |= <uint64_t>(free & ~near & ALL_RANKS) << (N_RANKS * s)
    return out


cdef bint draw_naturals(const Search* H, const uint8_t* row, int wild, int n_cards,
                        uint64_t want, int* whole, int* bd, int32_t* out) noexcept nogil:
    """``out[t]`` for every natural card t in ``want`` (bit t) with a copy left (two
    decks), the hand's ``setup`` in ``H``, and the hand's own deadwood and best discard
    (``whole``, ``bd``); False if some suit is not in the tables or a list overflows
    (then the caller goes card by card, and nothing written here counts). Entries not
    in ``want`` are left as they are.

    As in ``fill_draw_table``, ``min(whole, bd + v(t))`` bounds each entry: the searches
    start from the leaf score it gives, and only look for what beats it."""
    cdef Leaf every[MAX_LEAVES]     # the hand's choices of options
    cdef Leaf others[MAX_LEAVES]    # the choices of the suits but one
    cdef Option buf[MAX_OPTIONS]
    cdef Option sbuf[MAX_OPTIONS]
    cdef Option drawn[MAX_OPTIONS]  # options of the suit with t that take the new copy
    cdef Combo C
    cdef const Option* opts
    cdef uint16_t c[N_SLICES]
    cdef uint16_t d[N_SLICES]
    cdef uint16_t bit, once, twice, took, present = pool_ranks(H.cnt)
    cdef int best_a[N_RANKS]
    cdef int floor[N_RANKS]
    cdef int bound[N_RANKS]
    cdef int n_every, n_others, n, nd, i, j, s, p, t, v, total, best, booked = 0
    cdef int w = wild - 3, budget = H.n_wilds
    cdef unsigned int suits = suits_within(H, budget) & 0x1F
    cdef uint64_t lone = meld_free(H, w)
    cdef uint64_t ranks = 0        # the positions wanted in some suit
    cdef uint64_t searched = 0     # the same, less the cards that can join no meld
    for s in range(5):
        ranks |= want >> (N_RANKS * s)
        searched |= (want & ~lone) >> (N_RANKS * s)
    if not list_suits(&C, H, suits, buf):
        return False
    n_every = collect(&C, 0, H.cnt, H.pool_value, budget, 0, every, 0)
    if n_every < 0:
        return False
    c[4] = 0
    d[4] = 0
    # The hand's own deadwood and best discard, as ``deadwood_by`` and ``best_discard_of``
    # find them from the same choices.
    best = 0
    for i in range(n_every):
        memcpy(c, every[i].cnt, sizeof(every[i].cnt))
        v = every[i].saved + books_of(c, every[i].pool_value, every[i].budget)
        booked = v if v > booked else booked
        best = discard_leaf_of(c, every[i].pool_value, best, every[i].saved, every[i].budget)
    whole[0] = (H.total + (0 if budget >= 3 else H.wild_value) if booked == 0
                else H.total - booked)
    bd[0] = (discard_result(H.total, best, 0, 1 << 30, present, budget, H.wild_value,
                            row[JOKER]) if n_cards > 0 else 0)
    for p in range(N_RANKS):  # (A) the drawn natural stays out of runs
        if p == w or not (ranks >> p & 1):
            continue
        bit = <uint16_t>(1 << p)
        v = p + 3
        total = H.total + v
        bound[p] = whole[0]
        if n_cards > 0 and bd[0] + v < bound[p]:
            bound[p] = bd[0] + v
        floor[p] = total - bound[p] if total > bound[p] else 0
        if not (searched >> p & 1):
            continue
        best = floor[p]
        for i in range(n_every):
            if best >= total:
                break
            slices_add4(c, every[i].cnt, bit)
            best = discard_leaf_of(c, every[i].pool_value + v, best, every[i].saved,
                                   every[i].budget)
        best_a[p] = best
    for s in range(5):  # (B) runs of suit s take the drawn copy
        n_others = -1
        for p in range(N_RANKS):
            t = s * N_RANKS + p
            if p == w or row[t] >= 2 or not (want >> t & 1):
                continue
            if lone >> t & 1:
                out[t] = bound[p]  # exact: t joins no meld
                continue
            bit = <uint16_t>(1 << p)
            v = p + 3
            total = H.total + v
            best = best_a[p]
            once = <uint16_t>H.layers[s] | bit
            twice = <uint16_t>(H.layers[s] >> 16) | (<uint16_t>H.layers[s] & bit)
            if NEED[once] <= budget and best < total:
                n = suit_list(once, twice, budget, sbuf, MAX_OPTIONS, &opts)
                if n < 0:
                    return False
                # Kept as what they take from the hand's own pool: the drawn copy is
                # theirs, so the pool need not count it in and out again.
                nd = 0
                for j in range(1, n):
                    if opts[j].need > budget:
                        break
                    took = opts[j].twice if row[t] else opts[j].once
                    if took & bit:
                        drawn[nd] = opts[j]
                        if row[t]:
                            drawn[nd].twice &= ~bit
                        else:
                            drawn[nd].once &= ~bit
                        drawn[nd].value -= v
                        nd += 1
                if nd and n_others < 0:
                    if not list_suits(&C, H, suits & ~(1u << s), buf):
                        return False
                    n_others = collect(&C, 0, H.cnt, H.pool_value, budget, 0, others, 0)
                    if n_others < 0:
                        return False
                i = 0
                while nd and i < n_others and best < total:
                    for j in range(nd):
                        if drawn[j].need > others[i].budget:
                            break
                        pool_without(d, others[i].cnt, &drawn[j])
                        best = discard_leaf_of(d, others[i].pool_value - drawn[j].value,
                                               best, others[i].saved + drawn[j].value + v,
                                               others[i].budget - drawn[j].need)
                    i += 1
            out[t] = discard_result(total, best, floor[p], bound[p], present | bit, budget,
                                    H.wild_value, row[JOKER])
    return True


cdef void draw_wilds(const Search* H, const uint8_t* row, int wild, int decks, int n_cards,
                     uint64_t want, int whole, int bd, int32_t* out) noexcept nogil:
    """The entries of the wild cards in ``want`` with a copy left: a joker and a
    wild-rank card add the same wild, so one search serves both (started from the lower
    floor of the two bounds, a joker's; see ``discard_result``), and only the scoring of
    what melds nothing differs."""
    cdef int s, t, w = wild - 3, bound, floor, best, k
    cdef int joker_bound = whole, rank_bound = whole
    cdef bint joker = row[JOKER] < 3 * decks and want >> JOKER & 1, rank = False
    cdef Search T
    for s in range(5):
        t = s * N_RANKS + w
        rank = rank or (row[t] < decks and want >> t & 1)
    if not joker and not rank:
        return
    if n_cards > 0:
        joker_bound = bd + 50 if bd + 50 < whole else whole
        rank_bound = bd + 20 if bd + 20 < whole else whole
    bound = joker_bound if joker else rank_bound
    T = H[0]
    add_card(&T, JOKER if joker else w, wild)  # (any wild: only the count matters here)
    floor = T.total - bound if T.total > bound else 0
    best = discard_best(&T, floor, True)
    if joker:
        out[JOKER] = discard_result(T.total, best, floor, joker_bound, pool_ranks(T.cnt),
                                    T.n_wilds, H.wild_value + 50, row[JOKER] + 1)
    if rank:
        floor = T.total - rank_bound if T.total > rank_bound else 0
        k = discard_result(T.total, best, floor, rank_bound, pool_ranks(T.cnt), T.n_wilds,
                           H.wild_value + 20, row[JOKER])
        for s in range(5):
            t = s * N_RANKS + w
            if row[t] < decks and want >> t & 1:
                out[t] = k


cdef void fill_draw_table(const uint8_t* row, int wild, int decks, int32_t* out) noexcept nogil:
    """out[t] = best discard of row + t, or -1 where the deck has no copy of t left."""
    fill_draw_entries(row, wild, decks, ALL_TYPES, out)


cdef void fill_draw_entries(const uint8_t* row, int wild, int decks, uint64_t want,
                            int32_t* out) noexcept nogil:
    """``fill_draw_table``'s entries t in ``want`` (bit t); the others are left as they
    are, so that a caller that knows some entries (or needs only some) pays for the rest.

    With t drawn, keeping t as deadwood after the hand's own best discard, or discarding
    t, are always open: ``min(D(h), BD(h) + v(t))`` bounds the entry from above, and is
    exact when t can join no meld; a search only looks for what beats it.
    """
    cdef int t, w = wild - 3, wild_entry = -2, whole, bd, bound, n = 0, n_wilds
    cdef int r, reach
    cdef int lone_entry[N_RANKS]   # the entry shared by natural draws that join no run
    cdef Search H                  # the hand's own masks: lane 0 holds each suit's naturals
    cdef Search T                  # the same with the drawn card
    cdef bint lone
    want &= ALL_TYPES
    if not want:
        return
    setup(&H, row, wild)
    n_wilds = H.n_wilds
    for t in range(56):
        n += row[t]
    if decks == 2 and draw_naturals(&H, row, wild, n, want, &whole, &bd, out):
        draw_wilds(&H, row, wild, decks, n, want, whole, bd, out)
        for t in range(56):
            if want >> t & 1 and row[t] >= (3 * decks if t == JOKER else decks):
                out[t] = -1
        return
    # Card by card: party hands, and hands with a suit the option tables leave out.
    for r in range(N_RANKS):
        lone_entry[r] = -2
    whole = solve_deadwood(row, wild)
    bd = best_discard_search(row, wild, 1 << 30) if n > 0 else 0
    for t in range(56):
        if not (want >> t & 1):
            continue
        if row[t] >= (3 * decks if t == JOKER else decks):
            out[t] = -1
            continue
        if t != JOKER and t % N_RANKS == w and wild_entry != -2:
            out[t] = wild_entry  # every wild-rank card adds the same wild
            continue
        # A natural with no natural of its suit within n_wilds + 1 places can join no run:
        # it only adds to its rank's pool, the same in every such suit.
        lone = False
        if t != JOKER and t % N_RANKS != w:
            r = t % N_RANKS
            reach = n_wilds + 1
            lone = (<uint16_t>H.layers[t // N_RANKS] & <uint16_t>~(1 << r)
                    & span_of(r - reach if r > reach else 0,
                              r + reach if r + reach < N_RANKS else N_RANKS - 1)) == 0
            if lone and lone_entry[r] != -2:
                out[t] = lone_entry[r]
                continue
        bound = whole
        if n > 0 and bd + card_value(t, wild) < bound:
            bound = bd + card_value(t, wild)
        if t == JOKER or t % N_RANKS == w or may_meld(row, wild, t):
            T = H
            add_card(&T, t, wild)
            out[t] = best_discard_of(&T, row[JOKER] + (t == JOKER), bound, True)
        else:
            out[t] = bound
        if t != JOKER and t % N_RANKS == w:
            wild_entry = out[t]
        elif lone:
            lone_entry[t % N_RANKS] = out[t]


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


cdef Py_ssize_t solve_range(const uint8_t[:, ::1] counts, const int8_t[::1] wilds,
                            int32_t[::1] out, Py_ssize_t start, Py_ssize_t stop, int decks,
                            bint discard, uint8_t* seen, int8_t* seen_wild) noexcept nogil:
    """Solve rows start..stop-1 into ``out``, each read once and checked first
    (``setup_checked``). Returns the first row that breaks a rule (its counts as read in
    ``seen``, 60 bytes, its wild in ``seen_wild``), or -1."""
    cdef Py_ssize_t i
    cdef int8_t wild
    cdef int jokers
    cdef Search S
    for i in range(start, stop):
        wild = wilds[i]
        if wild < 3 or wild > 13:
            memcpy(seen, &counts[i, 0], 56)
            jokers = -1
        else:
            jokers = setup_checked(&S, &counts[i, 0], wild, decks, 1 if discard else 0, seen)
        if jokers < 0:
            seen_wild[0] = wild
            return i
        if discard:
            out[i] = best_discard_of(&S, jokers, 1 << 30, True)
        else:
            out[i] = deadwood_of(&S, True)
    return -1


def _solve_range(const uint8_t[:, ::1] counts, const int8_t[::1] wilds, int32_t[::1] out,
                 Py_ssize_t start, Py_ssize_t stop, int decks, bint discard):
    """One thread's share of a bulk call, without the GIL; raises for a bad row."""
    cdef Py_ssize_t bad
    cdef uint8_t seen[64]
    cdef int8_t seen_wild
    with nogil:
        bad = solve_range(counts, wilds, out, start, stop, decks, discard, seen, &seen_wild)
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
