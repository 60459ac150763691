"""The compiled core of the meld solver: the search, without a Python object in it.

The solver's entry points (``_solver``, the twin of ``_solver_py``) check their inputs
and call this module's C functions (``_solver_core.pxd``), as the engine's modules do;
nothing here is called from Python. Its Cython directives are set in one place,
``setup.py`` (``FIVECROWNS_DEBUG=1`` turns the bounds checks on there); this file sets
none. Its C is in headers: the mask tables (``_meld_tables.h``), a suit's options
(``_suit_options.h``), the pool and its books (``_books.h``), a row's masks
(``_row_masks.h``) and bit scans (``_bits.h``); all of them compile into this one
module, so its hot loops read the tables as its own C globals.

Read the twin first: it explains why the search is exact. This core reaches the same
answers on bit masks, partly by routes the twin does not mirror (tested against it and
the reference instead): the single-search best discard (``best_discard_search``), the
draw table's shortcuts (``fill_draw_table``), and the option tables of suits holding a
card twice (``fc_double_options``). The twin's ``plan`` mirrors ``combine`` and
``search``:

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
"""

from libc.stdint cimport int8_t, int32_t, uint8_t, uint16_t, uint64_t
from libc.string cimport memcpy, memset

from ._checks import MAX_HAND_SIZE as _MAX_HAND_SIZE

cdef extern from "_bits.h":
    int fc_ctz(unsigned int x) noexcept nogil  # lowest set bit; x != 0
    int fc_high(unsigned int x) noexcept nogil  # highest set bit; x != 0
    uint64_t BYTES "FC_BYTES"
    uint64_t TOPS "FC_TOPS"
    unsigned int gather "fc_gather"(uint64_t tops) noexcept nogil

cdef extern from "_meld_tables.h":
    enum:
        N_RANKS "FC_RANKS"
    int VALUE "fc_value"[1 << 11]
    uint8_t COUNT "fc_count"[1 << 11]
    uint8_t NEED "fc_need"[1 << 11]
    uint8_t TOP "fc_top"[5][1 << 11]
    void init_tables "fc_init_tables"() noexcept nogil
    uint16_t startable "fc_startable"(uint16_t m, int budget) noexcept nogil
    uint16_t span_of "fc_span_of"(int lo, int hi) noexcept nogil
    uint16_t run_ends "fc_run_ends"(uint16_t m, int x, int max_end, int budget,
                                    uint16_t ended) noexcept nogil

cdef extern from "_suit_options.h":
    ctypedef struct Option "fc_option":
        uint16_t once   # positions where the suit's runs take at least one natural
        uint16_t twice  # ... two naturals (both copies of two decks)
        uint8_t need    # wilds the runs need
        uint8_t value   # value of the naturals they take
    uint64_t LANES "FC_LANES"
    Option SUIT_OPTIONS "fc_suit_options"[1 << 16]
    Option END_MARK "fc_end_mark"
    int OPTIONS_AT "fc_options_at"[(1 << 11) + 1]
    Option DOUBLE_OPTIONS "fc_double_options"[1 << 15]
    int DOUBLE_KEY "fc_double_key"[1 << 11]
    int DOUBLE_AT "fc_double_at"[(1 << 12) + 1]
    int init_options "fc_init_options"() noexcept nogil
    int gen_options "fc_gen_options"(uint64_t L, int x, int budget, int max_end,
                                     uint16_t ends_at, uint64_t took, int need, int value,
                                     Option* out, int n, int room) noexcept nogil
    int tidy_options "fc_tidy_options"(Option* opts, int n, bint at_import) noexcept nogil
    unsigned int squeeze "fc_squeeze"(uint16_t sub, uint16_t m) noexcept nogil

cdef extern from "_books.h":
    enum:
        N_SLICES "FC_SLICES"  # bits of a rank's natural count: at most 20, in party mode
    void slices_take "fc_slices_take"(uint16_t* cnt, uint16_t taken) noexcept nogil
    void slices_take4 "fc_slices_take4"(uint16_t* cnt, uint16_t taken) noexcept nogil
    void slices_add4 "fc_slices_add4"(uint16_t* c, const uint16_t* cnt,
                                      uint16_t bit) noexcept nogil
    uint16_t pool_ranks "fc_pool_ranks"(const uint16_t* cnt) noexcept nogil
    int knapsack "fc_knapsack"(uint16_t singles, uint16_t pairs, int budget) noexcept nogil
    int books_of "fc_books_of"(const uint16_t* cnt, int pool_value, int budget) noexcept nogil
    int discard_leaf_of "fc_discard_leaf_of"(const uint16_t* pool, int pool_value, int best,
                                             int saved, int budget) noexcept nogil
    uint16_t booked "fc_booked"(const uint16_t* cnt, int budget) noexcept nogil

cdef extern from "_row_masks.h":
    bint FC_SSE2
    bint fc_scan(const uint8_t* row, int w, uint64_t* layers, uint16_t* cnt,
                 int* rank_wilds) noexcept nogil
    int fc_scan_checked(const uint8_t* row, int w, int decks, int min_cards, int max_cards,
                        uint64_t* layers, uint16_t* cnt, int* rank_wilds, int* jokers,
                        uint8_t* seen) noexcept nogil

cdef enum:
    JOKER = 55
    ALL_RANKS = 0x7FF
    MAX_OPTIONS = 256  # a hand's options copied from the double-copy tables

cdef int MAX_CARDS = _MAX_HAND_SIZE
cdef uint64_t ALL_TYPES = 0x00FFFFFFFFFFFFFFULL  # bit t for each of the 56 card types

#: Whether a row's masks are made with SSE2, 16 counts a compare (every x86-64 CPU), or
#: by the portable route, 8 counts a word (``-DFC_NO_SSE2`` builds it on x86-64, as CI
#: does to test it).
SSE2 = bool(FC_SSE2)

init_tables()
if init_options() < 0:
    raise ImportError("fivecrowns._solver_core: a suit option table overflowed")
# Every canonical run holds at least two naturals, so a hand of MAX_CARDS cards has at
# most MAX_CARDS / 2 runs on a search path: Search.runs (MAX_RUNS entries) cannot overflow.
if MAX_CARDS > 2 * MAX_RUNS:
    raise ImportError(f"fivecrowns._solver_core: MAX_HAND_SIZE {MAX_CARDS} exceeds twice "
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


cdef void setup(Search* S, const uint8_t* row, int wild) noexcept nogil:
    """Masks and counters of a validated row, branch-free: a data-dependent branch per
    card mispredicts on random hands (docs/performance.rst). With SSE2, 16 counts per
    compare; elsewhere eight at a time in a word (``fc_scan``)."""
    cdef int rank_wilds
    cdef bint deep = fc_scan(row, wild - 3, S.layers, S.cnt, &rank_wilds)
    setup_rest(S, deep, rank_wilds, row[JOKER])


cdef int setup_checked(Search* S, const uint8_t* row, int wild, int decks, int min_cards,
                       uint8_t* seen) noexcept nogil:
    """``setup`` of a row that another thread may be writing (a bulk call's), checked as
    ``_solver``'s ``row_problem`` checks it (sizes min_cards..MAX_CARDS) from the very
    counts that the masks come from, each read once. Returns the row's jokers; or -1 if
    the row breaks a rule, with the counts read in ``seen`` (60 bytes) and ``S`` unusable."""
    cdef int rank_wilds, jokers
    cdef int deep = fc_scan_checked(row, wild - 3, decks, min_cards, MAX_CARDS, S.layers,
                                    S.cnt, &rank_wilds, &jokers, seen)
    if deep < 0:
        return -1
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


cdef inline void pool_take(Search* S, uint16_t taken) noexcept nogil:
    """Take one natural from the pool at each position of ``taken`` (all present)."""
    slices_take(S.cnt, taken)
    S.pool_value -= VALUE[taken]


cdef inline int books(const Search* S, int budget) noexcept nogil:
    """Most value the books can meld from the pool with at most ``budget`` wilds."""
    return books_of(S.cnt, S.pool_value, budget)


cdef inline int discard_leaf(const Search* S, int saved, int budget) noexcept nogil:
    return discard_leaf_of(S.cnt, S.pool_value, S.best, saved, budget)


cdef inline unsigned int suits_within(const Search* S, int budget) noexcept nogil:
    """Suits (bit 5: the end sentinel) where ``budget`` wilds can start some run."""
    return gather(((budget + 128) * BYTES - S.needs) & TOPS)


cdef inline uint16_t take_run(Search* S, int s, uint16_t span_mask) noexcept nogil:
    """Give a run of suit ``s`` over ``span_mask`` one free copy of each natural there;
    return the positions it took."""
    cdef uint64_t spread = span_mask * LANES, L = S.layers[s]
    cdef uint16_t taken = <uint16_t>L & span_mask
    S.layers[s] = (L & ~spread) | ((L >> 16) & spread)  # every lane drops one copy
    pool_take(S, taken)
    return taken


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
# built at import (``_suit_options.h``), and the leaves are the choices of one option per
# suit that the wilds allow (``over_suits``), as in the pure-Python twin's ``plan``.

cdef struct Combo:
    const Option* opts[6]      # the options of each suit that has more than "no run"
    int n_opts[6]
    int levels
    int best                   # as ``Search.best``
    int total
    int base                   # the runs' and the pool's value at every leaf (``over_books``)


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


# ---------------------------------------------------------------------------------------
# For the entry points of ``_solver`` (``_solver_core.pxd`` says what each returns).

cdef int plan_of(const uint8_t* row, int wild, int8_t* runs, int* n_runs,
                 uint16_t* books) noexcept nogil:
    cdef Search S
    cdef int k, budget, lo, hi, dead
    cdef uint16_t taken
    setup(&S, row, wild)
    S.record = True
    search(&S, 0, 0, S.n_wilds, N_RANKS - 1, 0)
    dead = finish(&S)
    n_runs[0] = 0
    books[0] = 0
    if S.best == 0:
        return dead
    # Replay the best runs on the whole hand, then name the ranks the books take.
    budget = S.n_wilds
    for k in range(S.best_n_runs):
        lo = S.best_runs[k][1]
        hi = S.best_runs[k][2]
        taken = take_run(&S, S.best_runs[k][0], span_of(lo, hi))
        budget -= (hi - lo + 1 if hi - lo + 1 > 3 else 3) - COUNT[taken]
        memcpy(runs + 3 * k, S.best_runs[k], 3)
    n_runs[0] = S.best_n_runs
    books[0] = booked(S.cnt, budget)
    return dead


cdef Py_ssize_t solve_rows(const uint8_t* counts, const int8_t* wilds, int32_t* out,
                           Py_ssize_t start, Py_ssize_t stop, int decks, bint discard,
                           uint8_t* seen, int8_t* seen_wild) noexcept nogil:
    cdef Py_ssize_t i
    cdef int8_t wild
    cdef int jokers
    cdef Search S
    for i in range(start, stop):
        wild = wilds[i]
        if wild < 3 or wild > 13:
            memcpy(seen, counts + 56 * i, 56)
            jokers = -1
        else:
            jokers = setup_checked(&S, counts + 56 * i, wild, decks, 1 if discard else 0,
                                   seen)
        if jokers < 0:
            seen_wild[0] = wild
            return i
        if discard:
            out[i] = best_discard_of(&S, jokers, 1 << 30, True)
        else:
            out[i] = deadwood_of(&S, True)
    return -1


cdef int routed_deadwood(const uint8_t* row, int wild, bint by_options) noexcept nogil:
    return deadwood_by(row, wild, by_options)


cdef int routed_best_discard(const uint8_t* row, int wild, bint by_options) noexcept nogil:
    return best_discard_by(row, wild, 1 << 30, by_options)
