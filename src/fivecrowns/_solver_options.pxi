# Part of _solver.pyx (included there: one compiled module, read in order).

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
