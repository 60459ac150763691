# Part of _solver.pyx (included there: one compiled module, read in order).

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
