"""The compiled core of the meld solver.

Its Cython directives are set in one place, ``setup.py`` (``FIVECROWNS_DEBUG=1`` turns
the bounds checks on there); this file sets none. One compiled module, its source in
parts read in order (``include``): this file (masks, the search, the books),
``_solver_options.pxi`` (each suit's run sets listed once, the leaves over suits) and
``_solver_draws.pxi`` (draw tables from one listing, the bulk entry points); its C in
``_bits.h`` and ``_row_masks.h``.

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

cdef extern from "_bits.h":
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


cdef extern from "_row_masks.h":
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


include "_solver_options.pxi"
include "_solver_draws.pxi"
