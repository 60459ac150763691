"""The built-in bots' decisions, compiled: ``greedy_*`` is ``bots.GreedyBot``,
``strong_*`` is ``bots.StrongBot`` (its floating-point expectations in numpy's order of
operations, over the public counts the table keeps as ``public.PublicState`` does),
``expert_*`` is ``expert.ExpertBot`` (integer arithmetic only, as the bot's),
``random_*`` uniform legal moves from a generator of its own (``RandomBot``'s
``Generator.integers``, or the ``"random"`` policy's ``random_interval``). Each plays on
the round state's ``Table`` (``_round_state.pxd``) and asks the solver core
(``_solver_core.pxd``) the meld questions: the same functions as the bots, so the same
answers and tie-breaks. ``step`` moves the current player by a policy; ``policy_action``
and ``play_policies`` are the Python entrances (the single Gymnasium environment's
opponents); ``note_features`` is ``envs.features`` for the decisions' records and the
vector environment.
"""

from libc.math cimport INFINITY
from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from numpy.random.c_distributions cimport random_interval

from ._round_state cimport (
    C_OK,
    DISCARD,
    DRAW,
    JOKER,
    MAX_PLAYERS,
    N_RANKS,
    N_TYPES,
    NO_CHOICE,
    OVER,
    RoundState,
    STATE_MAX_HAND,
    Table,
    bitgen_of,
    dealt,
    fill_rules,
    fill_start,
    deck_drawable,
    discard_card,
    draw_code,
    draw_from,
    must_keep,
    unseen_of,
)
from ._solver_core cimport (
    best_discard_search,
    discard_below,
    discard_order_of,
    fill_draw_entries,
    fill_draw_table,
    may_meld,
    solve_best_discard,
    solve_deadwood,
)

import numpy as np

# -- the greedy policy: bots.GreedyBot ----------------------------------------------------

cdef bint greedy_draw(Table* T) noexcept nogil:
    """``GreedyBot.choose_draw``: True to take the top discard, when that lowers the
    best-discard deadwood below the deadwood of the hand now."""
    cdef int p = T.current, now, top, taken, card = -1
    cdef uint8_t* row = T.hands[p]
    if T.n_pile == 0:
        return False
    if not deck_drawable(T):
        return True
    now = T.kept_dead[p] if T.kept_dead[p] >= 0 else solve_deadwood(row, T.wild)
    top = T.pile[T.n_pile - 1]
    row[top] += 1
    # Only whether something beats ``now`` matters, unless something does: then the card
    # is best_discard's. One search answers the first question, for most draws.
    taken = best_discard_search(row, T.wild, now)
    if taken < now:
        taken = discard_below(row, T.wild, now, &card)
    row[top] -= 1
    if taken < now:
        T.chosen_card = card
        T.chosen_dead = taken
        return True
    return False


cdef int next_best(uint8_t* row, int wild, int kept, int* dead) noexcept nogil:
    """The first best discard of ``discard_order`` of the hand without type ``kept``
    (``bots._allowed_order``), and in ``dead`` the deadwood it leaves: the core's
    ``discard_below`` with ``kept``, the search of every best discard."""
    cdef int card = -1
    dead[0] = discard_below(row, wild, 1 << 30, &card, kept)
    return card


cdef void greedy_discard(Table* T) noexcept nogil:
    """``GreedyBot.choose_discard``: the best discard, the next best if the rules keep
    the best in hand; out when it leaves no deadwood."""
    cdef int p = T.current, t = -1, dead, kept
    cdef uint8_t* row = T.hands[p]
    if T.chosen_card != NO_CHOICE:
        t = T.chosen_card
        dead = T.chosen_dead
    else:
        dead = discard_below(row, T.wild, 1 << 30, &t)
    kept = must_keep(T)
    if t == kept:
        t = next_best(row, T.wild, kept, &dead)
    discard_card(T, t, dead == 0)
    T.kept_dead[p] = dead


# -- the random policy and RandomBot ---------------------------------------------------------

cdef inline uint64_t pick(Table* T, uint64_t n, bint bot) noexcept nogil:
    """One of ``n`` choices, from the policy's generator: ``RandomBot``'s way
    (``Generator.integers``) when ``bot``, else the random policy's
    (``random_interval``)."""
    return integers(T.choices, n) if bot else random_interval(T.choices, n - 1)


cdef bint random_draw(Table* T, bint bot) noexcept nogil:
    """A legal source, uniformly (``RandomBot.choose_draw``: the deck first)."""
    cdef bint deck = deck_drawable(T), pile = T.n_pile > 0
    if deck and pile:
        return pick(T, 2, bot) == 1
    return pile


cdef void random_discard(Table* T, bint bot) noexcept nogil:
    """A card type held (but the one the rules keep), uniformly, ascending
    (``RandomBot.choose_discard`` with ``go_out=1``); out when that discard leaves no
    deadwood."""
    cdef int held[N_TYPES]
    cdef int n = 0, t, kept = must_keep(T)
    cdef uint8_t* row = T.hands[T.current]
    cdef bint out
    for t in range(N_TYPES):
        if row[t] and t != kept:
            held[n] = t
            n += 1
    t = held[pick(T, <uint64_t>n, bot)]
    row[t] -= 1
    out = solve_deadwood(row, T.wild) == 0
    row[t] += 1
    discard_card(T, t, out)


# -- the strong policy: bots.StrongBot (lookahead 3, now_weight 0.35) -----------------------

cdef double expected(const uint8_t* row, int wild, int decks, const int* unseen) noexcept nogil:
    """``StrongBot._expected``: the best-discard deadwood after a blind draw, averaged over
    the unseen cards (integer sums, then one division, as numpy does it).

    The table comes through the memo (``draw_table``), and only its entries of unseen
    cards, the only ones the sums weigh: a turn's draw asks for the table of the hand that
    the player's last discard weighed, which is there already."""
    cdef int32_t table[N_TYPES]
    cdef int64_t total = 0, weighted = 0
    cdef int t
    cdef uint64_t want = drawable(unseen)
    draw_table(row, wild, decks, want, table)
    for t in range(N_TYPES):
        if want >> t & 1 and table[t] >= 0:
            total += unseen[t]
            weighted += <int64_t>unseen[t] * table[t]
    if total <= 0:
        return <double>solve_deadwood(row, wild)
    return <double>weighted / <double>total


# What draw_shortcuts answers.
cdef enum:
    DRAW_DECK = 0
    DRAW_PILE = 1
    DRAW_UNDECIDED = 2


cdef int draw_shortcuts(Table* T, int* top, int* taken, int* t) noexcept nogil:
    """The opening StrongBot's and ExpertBot's draws share: ``DRAW_DECK`` or ``DRAW_PILE``
    where it decides (an empty pile, a deck that cannot be drawn, a wild on top, a top
    card that lets the hand go out); else ``DRAW_UNDECIDED``, with the top card, the
    deadwood left after taking it and making the best allowed discard, and that discard
    (the hand left as it was)."""
    cdef uint8_t* row = T.hands[T.current]
    cdef int dead, nb
    if T.n_pile == 0:
        return DRAW_DECK
    if not deck_drawable(T):
        return DRAW_PILE
    top[0] = T.pile[T.n_pile - 1]
    if is_wild(top[0], T.wild):
        return DRAW_PILE
    row[top[0]] += 1
    t[0] = -1
    taken[0] = discard_below(row, T.wild, 1 << 30, t)
    if t[0] == top[0] and T.no_return:
        # the best is to throw the card back, which the rules forbid: the next best
        nb = next_best(row, T.wild, t[0], &dead)
        if nb >= 0:
            taken[0] = dead
            t[0] = nb
    row[top[0]] -= 1
    return DRAW_PILE if taken[0] == 0 else DRAW_UNDECIDED


cdef bint strong_draw(Table* T) noexcept nogil:
    """``StrongBot.choose_draw``: the pile's top card if it beats a blind draw on
    expected deadwood."""
    cdef int top = -1, taken = 0, t = -1, shortcut
    cdef int unseen[N_TYPES]
    shortcut = draw_shortcuts(T, &top, &taken, &t)
    if shortcut != DRAW_UNDECIDED:
        return shortcut == DRAW_PILE
    unseen_of(T, T.current, unseen)
    return taken < expected(T.hands[T.current], T.wild, T.decks, unseen)


cdef double feed_penalty(const Table* T, int t, bint known_any, const int* known) noexcept nogil:
    """``StrongBot._penalties`` of discarding type ``t``."""
    cdef int rank, suit, s, r, same_rank = 0, near_run = 0
    cdef double pen = 0.0
    if is_wild(t, T.wild):
        return 100.0
    if not known_any:
        return 0.0
    rank = t % N_RANKS
    suit = t // N_RANKS
    for s in range(5):
        same_rank += known[s * N_RANKS + rank]
    for r in range(rank - 2, rank + 3):
        if r != rank and 0 <= r < N_RANKS:
            near_run += known[suit * N_RANKS + r]
    if same_rank:
        pen += 4.0
    if near_run:
        pen += 2.5
    return pen


cdef int discard_candidates(Table* T, int kept, int* order, int* dead, int* best,
                            int* allowed) noexcept nogil:
    """The opening of StrongBot's and ExpertBot's discards: the types worth discarding
    into ``order`` (the kept type too when it is the only one, so a card can be
    found), the deadwood each leaves into ``dead``, in ``best`` the allowed one that
    leaves the least (the first on ties) and in ``allowed`` how many are allowed; the
    number of candidates."""
    cdef uint8_t* row = T.hands[T.current]
    cdef int n, k
    n = discard_order_of(row, T.wild, -1, order)
    if kept >= 0 and n == 1 and order[0] == kept:
        n = discard_order_of(row, T.wild, kept, order)
    best[0] = -1
    allowed[0] = 0
    for k in range(n):
        row[order[k]] -= 1
        dead[k] = solve_deadwood(row, T.wild)
        row[order[k]] += 1
        if order[k] != kept:
            allowed[0] += 1
            if best[0] < 0 or dead[k] < dead[best[0]]:
                best[0] = k
    return n


cdef void strong_discard(Table* T) noexcept nogil:
    """``StrongBot.choose_discard``: out if possible; on a final turn the least deadwood;
    else the best mix of deadwood now and expected deadwood after the next draw, with
    penalties for throwing a wild or feeding the next player."""
    cdef int p = T.current, kept = must_keep(T), n, k, j, best, allowed, nxt, t
    cdef uint8_t* row = T.hands[p]
    cdef int order[N_TYPES]
    cdef int dead[N_TYPES]
    cdef int picks[3]
    cdef int unseen[N_TYPES]
    cdef double pen[N_TYPES]
    cdef double scores[N_TYPES]
    cdef double ahead[N_TYPES]
    cdef bint known_any = False
    cdef const int* known
    n = discard_candidates(T, kept, order, dead, &best, &allowed)
    if dead[best] == 0:
        discard_card(T, order[best], True)
        return
    if T.went_out >= 0:
        discard_card(T, order[best], False)
        return
    nxt = (p + 1) % T.n_players
    known = T.taken_counts[nxt]
    if nxt != p:
        for t in range(N_TYPES):
            if known[t]:
                known_any = True
                break
    for k in range(n):
        pen[k] = feed_penalty(T, order[k], known_any, known)
        scores[k] = <double>dead[k] + pen[k]
    if n > 1:
        unseen_of(T, p, unseen)
        # the three lowest scores, ties by position: a stable argsort's first three
        for j in range(3):
            picks[j] = -1
            for k in range(n):
                if (j >= 1 and k == picks[0]) or (j >= 2 and k == picks[1]):
                    continue
                if picks[j] < 0 or scores[k] < scores[picks[j]]:
                    picks[j] = k
        for k in range(n):
            ahead[k] = INFINITY
        for j in range(3):
            k = picks[j]
            if k < 0:
                continue
            row[order[k]] -= 1
            ahead[k] = expected(row, T.wild, T.decks, unseen)
            row[order[k]] += 1
        for k in range(n):
            scores[k] = (0.35 * dead[k] + (1.0 - 0.35) * ahead[k]) + pen[k]
    best = -1
    for k in range(n):
        if order[k] != kept and (best < 0 or scores[k] < scores[best]):
            best = k
    discard_card(T, order[best], False)


# -- the expert policy: expert.ExpertBot ----------------------------------------------------

# Its penalty for a wild thrown away, in quarter points, its bonus for the chance of going
# out by the draws a score expects, how many discards it looks at over two draws, and the
# fixed point of its discard scores: ExpertBot's class constants and expert._SCALE.
cdef enum:
    EXPERT_WILD_PENALTY = 400
    EXPERT_OUT_BONUS = 40
    EXPERT_LOOKED_AHEAD = 5
    EXPERT_SCALE = 1 << 20


# ExpertBot asks for the draw tables of many hands that differ by a card or two, and the
# same hands again: after a draw, each discard's plan of two blind draws meets the hands
# the other discards' plans and the draw decision already tabled (row - a + c - b is
# row - b + c - a). A table depends on the row, the wild and the decks alone, so a memo
# keyed by all three gives the solver's own answer. A sum weighted by the unseen cards
# reads only the entries of cards left to draw, so an entry holds the entries computed
# so far (``valid``) and gains the others when asked. Thread-local, as the games run on
# several threads without the GIL; direct-mapped, with the whole key compared.
cdef extern from "_draw_memo.h":
    ctypedef struct MemoEntry "fivecrowns_memo_entry":
        uint64_t key[8]
        uint64_t valid
        int32_t table[56]
    int MEMO_BITS "FIVECROWNS_MEMO_BITS"
    MemoEntry* memo_at "fivecrowns_memo_at"(unsigned int i) noexcept nogil
    ctypedef struct CardEntry "fivecrowns_card_entry":
        uint64_t key[8]
        int32_t card
    CardEntry* card_at "fivecrowns_card_at"(unsigned int i) noexcept nogil


cdef extern from "_prefetch.h":
    # Start loading the cache line at ``p`` (a hint; nothing where the compiler has none).
    void prefetch "FIVECROWNS_PREFETCH"(const void* p) noexcept nogil


cdef inline unsigned int memo_key(const uint8_t* row, int wild, int decks,
                                  uint64_t* key) noexcept nogil:
    """The memos' key of a hand (8 words) into ``key``; its slot. An empty slot's key has
    wild 0, which no key has, so it never matches."""
    cdef uint64_t h = 0
    cdef int i
    memcpy(key, row, 56)
    key[7] = <uint64_t>wild | (<uint64_t>decks << 8)
    for i in range(8):
        h = (h ^ key[i]) * 0x9E3779B97F4A7C15ULL
    return <unsigned int>(h >> (64 - MEMO_BITS))


cdef inline bint same_key(const uint64_t* a, const uint64_t* b) noexcept nogil:
    cdef int i
    for i in range(8):
        if a[i] != b[i]:
            return False
    return True


cdef MemoEntry* memo_entry(const uint8_t* row, int wild, int decks) noexcept nogil:
    """The memo's entry of a hand, emptied (nothing valid) if it held another hand."""
    cdef uint64_t key[8]
    cdef MemoEntry* e = memo_at(memo_key(row, wild, decks, key))
    if not same_key(e.key, key):
        memcpy(e.key, key, sizeof(key))
        e.valid = 0
    return e


cdef void draw_table(const uint8_t* row, int wild, int decks, uint64_t want,
                     int32_t* out) noexcept nogil:
    """``fill_draw_table``'s entries in ``want`` (bit t: entry t) into ``out`` (the
    others left as they are), through the memo: only entries it lacks are computed."""
    cdef MemoEntry* e = memo_entry(row, wild, decks)
    complete(e, row, wild, decks, want)
    copy_entries(out, e.table, want)


cdef inline void complete(MemoEntry* e, const uint8_t* row, int wild, int decks,
                          uint64_t want) noexcept nogil:
    """Fill the entries in ``want`` that the memo entry ``e`` of ``row`` lacks."""
    cdef uint64_t missing = want & ~e.valid
    if missing:
        fill_draw_entries(row, wild, decks, missing, e.table)
        e.valid |= missing


cdef inline void copy_entries(int32_t* out, const int32_t* table, uint64_t mask) noexcept nogil:
    """``out[t] = table[t]`` for the bits t of ``mask``."""
    cdef int t
    for t in range(N_TYPES):
        if mask >> t & 1:
            out[t] = table[t]


cdef uint64_t drawable(const int* unseen) noexcept nogil:
    """The card types whose entries a sum over ``unseen`` reads (bit t: unseen[t] != 0):
    an entry weighted by nothing cannot change ``table_sums``."""
    cdef uint64_t mask = 0
    cdef int t
    for t in range(N_TYPES):
        if unseen[t] != 0:
            mask |= <uint64_t>1 << t
    return mask


cdef void table_sums(const int32_t* table, const int* unseen, int64_t* n, int64_t* d,
                     int64_t* z) noexcept nogil:
    """``expert._sums``: the draw table's deadwood weighted by ``unseen`` (``n``), the
    weight of the cards that can be drawn (``d``) and of those that go out (``z``). Reads
    only the entries ``drawable(unseen)`` names: the others add nothing."""
    cdef int t
    n[0] = 0
    d[0] = 0
    z[0] = 0
    for t in range(N_TYPES):
        if unseen[t] != 0 and table[t] >= 0:
            n[0] += <int64_t>unseen[t] * table[t]
            d[0] += unseen[t]
            if table[t] == 0:
                z[0] += unseen[t]


cdef int first_discard_to(uint8_t* row, int wild, int target, int drawn,
                          int* without) noexcept nogil:
    """The card ``discard_below`` names for ``row`` (restored) when its least deadwood
    after one discard, ``target``, is known: the first of ``discard_order_of`` that
    leaves ``target``. Knowing the least, the search stops at it, where ``discard_below``
    must go on until no later card could beat it; -1 if no card leaves ``target``.

    ``row`` is a hand h plus the card ``drawn``, and ``without[c]`` h's deadwood less a
    card c (-1: not yet known, then filled in; ``without[N_TYPES]`` is h's own): keeping
    ``drawn`` as deadwood, discarding c leaves at most ``without[c] + v(drawn)``, and
    never less than ``target``; so a discard that leaves that much is the target, and
    where ``drawn`` can join no meld it leaves exactly that: no search either way."""
    cdef int order[N_TYPES]
    cdef int n = discard_order_of(row, wild, -1, order), k, c, d, v
    cdef bint natural = not is_wild(drawn, wild), known
    v = drawn % N_RANKS + 3 if natural else (50 if drawn == JOKER else 20)
    for k in range(n):
        c = order[k]
        row[c] -= 1
        if c == drawn:
            d = deadwood_without(row, wild, N_TYPES, without)
        else:
            row[drawn] -= 1
            d = deadwood_without(row, wild, c, without) + v
            known = d == target or (natural and not may_meld(row, wild, drawn))
            row[drawn] += 1
            if not known:
                d = solve_deadwood(row, wild)
        row[c] += 1
        if d == target:
            return c
    return -1


cdef inline int deadwood_without(const uint8_t* hand, int wild, int c,
                                 int* without) noexcept nogil:
    """``without[c]``, the deadwood of ``hand`` (h less c; h itself for c = N_TYPES),
    solved the first time."""
    if without[c] < 0:
        without[c] = solve_deadwood(hand, wild)
    return without[c]


cdef int best_card(uint8_t* row, int wild, int least, int drawn, int* without) noexcept nogil:
    """The card ``discard_below`` names for ``row`` (restored), whose least deadwood after
    one discard is ``least`` (-1: not known), through the second memo: the five discards
    ExpertBot looks at over two draws meet the same hands after their first draws (row -
    a + b, the card b drawn back, is row - b + a), and a turn's draw decision meets its
    discard decision's. ``row`` is a hand plus ``drawn``, ``without`` as
    ``first_discard_to`` takes them."""
    cdef uint64_t key[8]
    cdef int card
    cdef CardEntry* e = card_at(memo_key(row, wild, 0, key))
    if same_key(e.key, key):
        return e.card
    card = first_discard_to(row, wild, least, drawn, without) if least >= 0 else -1
    if card < 0:
        discard_below(row, wild, 1 << 30, &card)
    memcpy(e.key, key, sizeof(key))
    e.card = card
    return card


cdef void two_blind_draws(uint8_t* row, int wild, int decks, const int* unseen,
                          int64_t* n_b, int64_t* d_b, int64_t* z_b) noexcept nogil:
    """``expert._two_blind_draws``: the sums of two blind draws from ``row`` (restored),
    the best discard made after the first, the second card drawn from the unseen cards
    less the first.

    First cards c and c2 after which the same card x is thrown lead to the hands
    row + c - x and row + c2 - x, and drawing c2 to the first is drawing c to the second:
    one entry of each table is an entry of the other, computed once (``same``); and
    drawing x back to row + c - x is row + c, whose entry is in ``row``'s own table."""
    # the table of ``row`` itself: each first card's least deadwood after a discard, and
    # where thrown back
    cdef int32_t own[N_TYPES]
    cdef int32_t tables[N_TYPES][N_TYPES]  # tables[c]: that of row + c - (card thrown)
    cdef uint64_t same[N_TYPES]   # same[x]: first cards c so far, x thrown, tables[c] kept
    cdef int without[N_TYPES + 1]  # row's deadwood less each card, then its own (-1: unknown)
    cdef uint64_t want = drawable(unseen), shared
    cdef int64_t own_n, own_d, own_z, n, d, z
    cdef int c1, c2, card, e
    cdef bint room
    cdef MemoEntry* m
    cdef uint64_t key[8]
    n_b[0] = 0
    d_b[0] = 0
    z_b[0] = 0
    memset(same, 0, sizeof(same))
    memset(without, -1, sizeof(without))
    draw_table(row, wild, decks, want, own)
    table_sums(own, unseen, &own_n, &own_d, &own_z)
    # The memos are too big for the nearest caches: the card memo's slots of the hands
    # after every first draw are known now, and loaded while the tables are computed.
    for c1 in range(N_TYPES):
        if unseen[c1] > 0:
            row[c1] += 1
            prefetch(card_at(memo_key(row, wild, 0, key)))
            row[c1] -= 1
    for c1 in range(N_TYPES):
        if unseen[c1] <= 0:
            continue
        # the swap holds where neither entry is -1 for want of a copy left: c1's and c2's
        room = row[c1] < (3 * decks if c1 == JOKER else decks)
        row[c1] += 1
        card = best_card(row, wild, own[c1], c1, without)
        row[card] -= 1
        if card == c1:
            n = own_n
            d = own_d
            z = own_z
            e = own[c1]
        else:
            m = memo_entry(row, wild, decks)
            if room:
                shared = same[card] & ~m.valid
                for c2 in range(N_TYPES):
                    if shared >> c2 & 1:
                        m.table[c2] = tables[c2][c1]
                # and drawing back the card thrown is row + c1: own[c1]
                shared |= (<uint64_t>1 << card) & ~m.valid
                m.table[card] = own[c1] if shared >> card & 1 else m.table[card]
                m.valid |= shared
            complete(m, row, wild, decks, want)
            copy_entries(tables[c1], m.table, want)
            if room:
                same[card] |= <uint64_t>1 << c1
            table_sums(tables[c1], unseen, &n, &d, &z)
            e = tables[c1][c1]
        row[card] += 1
        row[c1] -= 1
        if e >= 0:
            n -= e
            d -= 1
            if e == 0:
                z -= 1
        n_b[0] += unseen[c1] * n
        d_b[0] += unseen[c1] * d
        z_b[0] += unseen[c1] * z


cdef bint expert_draw(Table* T) noexcept nogil:
    """``ExpertBot.choose_draw``: the top discard if wild or going out; else the better of
    two plans of two draws (take it, then blind; blind twice), compared exactly; on a
    final turn the one-draw comparison."""
    cdef int p = T.current, top = -1, taken = 0, t = -1, shortcut
    cdef uint8_t* row = T.hands[p]
    cdef int unseen[N_TYPES]
    cdef int32_t table[N_TYPES]
    cdef int64_t n_a, d_a, z_a, n_b, d_b, z_b, n, d, z
    shortcut = draw_shortcuts(T, &top, &taken, &t)
    if shortcut != DRAW_UNDECIDED:
        return shortcut == DRAW_PILE
    unseen_of(T, p, unseen)
    if T.went_out < 0:
        row[top] += 1               # A: the hand after taking the top and discarding t
        row[t] -= 1
        draw_table(row, T.wild, T.decks, drawable(unseen), table)
        table_sums(table, unseen, &n_a, &d_a, &z_a)
        row[t] += 1
        row[top] -= 1
        two_blind_draws(row, T.wild, T.decks, unseen, &n_b, &d_b, &z_b)
        if d_a > 0 and d_b > 0:
            return ((n_a - EXPERT_OUT_BONUS * z_a) * d_b
                    < (n_b - EXPERT_OUT_BONUS * z_b) * d_a)
    draw_table(row, T.wild, T.decks, drawable(unseen), table)
    table_sums(table, unseen, &n, &d, &z)
    if d <= 0:
        return taken < solve_deadwood(row, T.wild)
    return taken * d < n


cdef inline int expert_penalty(const Table* T, int t) noexcept nogil:
    """``ExpertBot._penalties`` of discarding type ``t``, in quarter points."""
    return EXPERT_WILD_PENALTY if is_wild(t, T.wild) else 0


cdef inline int64_t floor_score(int64_t n, int64_t d, int64_t z, int pen) noexcept nogil:
    """``expert._floor_score``: ``(n - bonus * z) / d + pen / 4`` in units of 2**-20
    points, rounded down as Python's ``//`` (``d > 0``; C's division truncates)."""
    cdef int64_t num = EXPERT_SCALE * (4 * (n - EXPERT_OUT_BONUS * z) + pen * d)
    cdef int64_t den = 4 * d
    cdef int64_t q = num / den
    if num % den != 0 and num < 0:
        q -= 1
    return q


cdef void expert_discard(Table* T) noexcept nogil:
    """``ExpertBot.choose_discard``: out if possible; on a final turn the least deadwood;
    else every allowed discard's one-draw score, the best few scored again over two
    draws, and the least ``(k - 1) * one-draw + two-draw`` for ``k`` players."""
    cdef int p = T.current, kept = must_keep(T), n, k, best, allowed
    cdef int chosen = -1
    cdef uint8_t* row = T.hands[p]
    cdef int order[N_TYPES]
    cdef int dead[N_TYPES]
    cdef int unseen[N_TYPES]
    cdef int pen[N_TYPES]
    cdef bint looked[N_TYPES]
    cdef int64_t one[N_TYPES]
    cdef int32_t table[N_TYPES]
    cdef int64_t nn, d, z, two, score, chosen_score = 0
    cdef uint64_t want
    n = discard_candidates(T, kept, order, dead, &best, &allowed)
    if dead[best] == 0:
        discard_card(T, order[best], True)
        return
    if T.went_out >= 0 or allowed == 1:
        discard_card(T, order[best], False)
        return
    unseen_of(T, p, unseen)
    want = drawable(unseen)
    for k in range(n):
        looked[k] = False
        if order[k] == kept:
            continue
        pen[k] = expert_penalty(T, order[k])
        row[order[k]] -= 1
        draw_table(row, T.wild, T.decks, want, table)
        row[order[k]] += 1
        table_sums(table, unseen, &nn, &d, &z)
        if d <= 0:  # nothing left to draw: the deadwood now
            nn = dead[k]
            d = 1
            z = 0
        one[k] = floor_score(nn, d, z, pen[k])
    # the LOOKED_AHEAD lowest one-draw scores, ties by position
    for _ in range(EXPERT_LOOKED_AHEAD):
        best = -1
        for k in range(n):
            if order[k] != kept and not looked[k] and (best < 0 or one[k] < one[best]):
                best = k
        if best < 0:
            break
        looked[best] = True
    for k in range(n):
        if not looked[k]:
            continue
        row[order[k]] -= 1
        two_blind_draws(row, T.wild, T.decks, unseen, &nn, &d, &z)
        row[order[k]] += 1
        two = floor_score(nn, d, z, pen[k]) if d > 0 else one[k]
        score = (T.n_players - 1) * one[k] + two
        if chosen < 0 or score < chosen_score:
            chosen = k
            chosen_score = score
    discard_card(T, order[chosen], False)


# -- a policy's moves -----------------------------------------------------------------

cdef void step(Table* T, int policy) noexcept nogil:
    """One move of the current player, by ``policy``."""
    if T.phase == DRAW:
        if policy == GREEDY:
            draw_from(T, greedy_draw(T))
        elif policy == STRONG:
            draw_from(T, strong_draw(T))
        elif policy == EXPERT:
            draw_from(T, expert_draw(T))
        else:
            draw_from(T, random_draw(T, policy == RANDOM_BOT))
    elif policy == GREEDY:
        greedy_discard(T)
    elif policy == STRONG:
        strong_discard(T)
    elif policy == EXPERT:
        expert_discard(T)
    else:
        random_discard(T, policy == RANDOM_BOT)


cdef void play(Table* T, int policy) noexcept nogil:
    """Move until the round is over."""
    while T.phase != OVER:
        step(T, policy)


cdef void play_seated(Table* T, const int32_t* policies) noexcept nogil:
    """Move until the round is over, each seat by its own policy (``policies[seat]``)."""
    while T.phase != OVER:
        step(T, policies[T.current])


# -- the solver features of a decision: envs.features -------------------------------------


cdef void note_features(Table* T, int p, int kept, const int* unseen,
                        float* out) noexcept nogil:
    """``envs.features._fill`` of player ``p``'s hand, to the actor's view (the discard
    view in their discard phase): the same solver answers and the same float operations,
    so the same float32 values."""
    cdef uint8_t row[N_TYPES]
    cdef int dead[N_TYPES]
    cdef int order[N_TYPES]
    cdef int32_t table[N_TYPES]
    cdef int t, u, n, b = -1, now = 1 << 30, take, left, total = 0
    cdef int64_t complete = 0, improve = 0, weighted = 0
    memcpy(row, T.hands[p], N_TYPES)
    for t in range(N_TYPES):
        out[t] = -1.0
    out[F_TAKE] = -1.0
    if T.phase == DISCARD:
        for t in range(N_TYPES):
            if row[t] and t != kept:
                row[t] -= 1
                dead[t] = solve_deadwood(row, T.wild)
                row[t] += 1
                out[t] = <float>(<double>dead[t] / 100.0)
                if dead[t] < now:
                    now = dead[t]
        # the kept hand: the first best discard in discard_order's order (the held types
        # after it, in index order, should the order miss one)
        n = discard_order_of(row, T.wild, kept, order)
        for u in range(n):
            if dead[order[u]] == now:
                b = order[u]
                break
        if b < 0:
            for t in range(N_TYPES):
                if row[t] and t != kept and dead[t] == now:
                    b = t
                    break
        row[b] -= 1
        out[F_VIEW] = 1.0
    else:
        now = solve_deadwood(row, T.wild)
        if T.n_pile > 0:
            t = T.pile[T.n_pile - 1]
            row[t] += 1
            take = solve_best_discard(row, T.wild, &b)
            # docs/rules.rst, A round, 3: the card taken may not go straight back, nor
            # an identical copy, unless the hand holds nothing else
            n = 0
            for u in range(N_TYPES):
                n += row[u]
            if b == t and T.no_return and row[t] != n:
                take = 1 << 30
                for u in range(N_TYPES):
                    if row[u] and u != t:
                        row[u] -= 1
                        left = solve_deadwood(row, T.wild)
                        row[u] += 1
                        if left < take:
                            take = left
            out[F_TAKE] = <float>(<double>take / 100.0)
            row[t] -= 1
        out[F_VIEW] = 0.0
    out[F_NOW] = <float>(<double>now / 100.0)
    fill_draw_table(row, T.wild, T.decks, table)
    for t in range(N_TYPES):
        total += unseen[t]
        weighted += <int64_t>unseen[t] * table[t]
        if table[t] == 0:
            complete += unseen[t]
        if table[t] < now:
            improve += unseen[t]
    if total > 0:
        out[F_COMPLETE] = <float>(<double>complete / <double>total)
        out[F_IMPROVE] = <float>(<double>improve / <double>total)
        out[F_EXPECTED] = <float>(<double>weighted / <double>total / 100.0)
    else:
        out[F_COMPLETE] = 0.0
        out[F_IMPROVE] = 0.0
        out[F_EXPECTED] = <float>(<double>now / 100.0)


cdef int check_policy(policy, choices) except -1:
    """``policy``'s code, checked (one of GREEDY, STRONG, EXPERT, RANDOM_BOT), and its
    ``choices`` (a RandomBot's BitGenerator for RANDOM_BOT, None for the others)."""
    # checked as an object first: a huge int is this ValueError, not an OverflowError
    if type(policy) is not int or policy not in (GREEDY, STRONG, EXPERT, RANDOM_BOT):
        raise ValueError(f"policy must be one of {GREEDY, STRONG, EXPERT, RANDOM_BOT}, "
                         f"got {policy!r}")
    if (policy == RANDOM_BOT) != (choices is not None):
        raise ValueError("a RandomBot's generator is needed for RANDOM_BOT, and only there")
    if choices is not None and not isinstance(choices, np.random.BitGenerator):
        raise TypeError(f"a RandomBot's generator must be a numpy BitGenerator, "
                        f"got {type(choices).__name__}")
    return policy


cdef int decide(RoundState state, int code, choices) except -1:
    """The action code policy ``code`` (checked) plays now in ``state``, a round not over:
    a copy decides (the discard functions apply the move they choose to the copy, its
    code noted in the trace); no decision shuffles (rng stays NULL)."""
    cdef Table T
    cdef int16_t codes[2]
    if not dealt(&state.T):   # the policies read full hands (a half-dealt one: no card)
        raise ValueError("a round whose deal is not finished has no move to choose")
    if state.T.phase == DRAW and draw_code(&state.T, False) != C_OK \
            and draw_code(&state.T, True) != C_OK:
        raise ValueError("no draw is possible")
    memcpy(&T, &state.T, sizeof(Table))
    T.rng = NULL
    T.choices = NULL if choices is None else bitgen_of(choices)
    T.trace = codes
    T.trace_room = 2
    T.n_trace = 0
    T.trace_grows = False
    if T.phase == DRAW:
        if code == GREEDY:
            return greedy_draw(&T)
        if code == STRONG:
            return strong_draw(&T)
        if code == EXPERT:
            return expert_draw(&T)
        return random_draw(&T, True)
    step(&T, code)
    return codes[0]


def observed_action(int policy, const uint8_t[::1] counts not None, int top, int kept,
                    int drawn, const uint8_t[::1] unseen not None,
                    const uint8_t[::1] next_taken not None, int draw_size,
                    int discard_size, int wild, int decks, int hand_size, int n_players,
                    int phase, int went_out, bint sudden_death, bint return_discard):
    """The action code policy ``policy`` (GREEDY, STRONG or EXPERT) plays for a player who
    sees this, the fields of an ``Observation`` (its own seat's): ``counts`` its hand (56
    counts, the card drawn included in the discard phase), ``top`` the top discard's
    type (-1: an empty pile), ``kept`` the type it must keep (-1: none), ``drawn`` the
    type it drew (-1: none), ``unseen`` its unseen counts, ``next_taken`` the cards the
    next player was seen taking; the bots' choices without the bot's Python (the
    built-in bots play by it: ``fivecrowns._compiled_bots``). -1 where the view is not
    one a round's table holds (a hand past its size, a count past the deck's...): the
    bot then decides in Python, its twin, which answers every view."""
    cdef Table T
    cdef int16_t codes[2]
    cdef int t, size = 0, limit
    if policy != GREEDY and policy != STRONG and policy != EXPERT:
        raise ValueError(f"policy must be one of {GREEDY, STRONG, EXPERT}, got {policy}")
    if counts.shape[0] != N_TYPES or unseen.shape[0] != N_TYPES \
            or next_taken.shape[0] != N_TYPES:
        raise ValueError("counts, unseen and next_taken must hold 56 counts each")
    if not (3 <= wild <= 13 and 1 <= decks <= 4 and 2 <= n_players <= MAX_PLAYERS
            and 1 <= hand_size <= STATE_MAX_HAND and (phase == DRAW or phase == DISCARD)
            and 0 <= draw_size <= 58 * decks and 0 <= discard_size < 58 * decks
            and -1 <= top < N_TYPES and (top >= 0) == (discard_size > 0)
            and -1 <= kept < N_TYPES and -1 <= drawn < N_TYPES
            and -1 <= went_out < n_players):
        return -1
    for t in range(N_TYPES):
        limit = 3 * decks if t == JOKER else decks
        # the unseen copies and the next player's are copies the hand does not hold
        if counts[t] + unseen[t] + next_taken[t] > limit:
            return -1
        size += counts[t]
    if size != hand_size + (phase == DISCARD) or (kept >= 0 and not counts[kept]):
        return -1
    memset(&T, 0, sizeof(Table))
    # max_turns: a discard here never ends the round by the turn limit
    fill_rules(&T, n_players, hand_size, wild, decks, 1 << 30, return_discard,
               sudden_death)
    fill_start(&T, 0)            # the player is seat 0, the next player seat 1
    T.phase = phase
    T.went_out = went_out
    T.taken = kept
    T.drawn = drawn
    for t in range(N_TYPES):
        T.hands[0][t] = counts[t]
        T.hidden[t] = unseen[t] + counts[t]  # unseen_of(T, 0): hidden less the hand
        T.taken_counts[1][t] = next_taken[t]
    T.n_draw = draw_size
    T.n_pile = discard_size
    if top >= 0:
        T.pile[discard_size - 1] = <uint8_t>top
        T.pile_counts[top] = 1
    T.trace = codes
    T.trace_room = 2
    with nogil:
        if phase == DRAW:
            if policy == GREEDY:
                t = greedy_draw(&T)
            elif policy == STRONG:
                t = strong_draw(&T)
            else:
                t = expert_draw(&T)
        else:
            step(&T, policy)
            t = codes[0]
    return t


def policy_action(RoundState state not None, policy, choices=None):
    """The action code a built-in bot plays now in ``state``, not applied: ``policy`` one
    of GREEDY, STRONG, EXPERT, or RANDOM_BOT with ``choices``, the RandomBot's own
    BitGenerator, advanced as the bot's ``choose_*`` advances it (the single
    Gymnasium environment's opponents move by it, then by ``Game.apply_action``)."""
    cdef int code = check_policy(policy, choices)
    if state.T.phase == OVER:
        raise ValueError("the round is over: no move to choose")
    return decide(state, code, choices)


def play_policies(RoundState state not None, list history not None,
                  list actions not None, tuple policies not None, tuple choices not None,
                  stop, int first=-1):
    """The built-in bots' moves in ``state`` until player ``stop`` is to move (-1: none),
    or a player without a policy, or the round is over: each move's events appended to
    ``history`` and its action code to ``actions``; the number of moves made. The same
    moves as ``policy_action`` then ``play``, one call for a run of them (the single
    Gymnasium environment's opponents between two of the agent's moves).
    ``policies[p]``: player p's policy as ``policy_action`` takes it, or None;
    ``choices[p]``: its RandomBot's BitGenerator, or None. ``first`` (an action code, -1:
    none): the current player's own move, made first (``ValueError`` if it is illegal,
    before anything changed): the agent's step and its opponents' moves in one call."""
    cdef int n = state.T.n_players, p, made = 0, action, last
    cdef int codes[MAX_PLAYERS]
    if len(policies) != n or len(choices) != n:
        raise ValueError(f"policies and choices must have one entry per player ({n}), "
                         f"got {len(policies)} and {len(choices)}")
    # checked as an object first: a huge int is this ValueError, not an OverflowError
    if type(stop) is not int or not -1 <= stop < n:
        raise ValueError(f"stop must be a player 0..{n - 1} or -1, got {stop!r}")
    for p in range(n):
        codes[p] = -1 if policies[p] is None else check_policy(policies[p], choices[p])
        if codes[p] == -1 and choices[p] is not None:
            raise ValueError(f"player {p} has a generator but no policy")
    last = stop
    if first != -1:
        if state.T.phase == OVER:
            raise ValueError("the round is over: no move to make")
        state.move(first, history)
        actions.append(first)
        made = 1
    while state.T.phase != OVER:
        p = state.T.current
        if p == last or codes[p] == -1:
            break
        action = decide(state, codes[p], choices[p])
        state.move(action, history)
        actions.append(action)
        made += 1
    return made


def two_draw_sums(const uint8_t[::1] row, int wild, int decks, const int64_t[::1] unseen):
    """``expert._two_blind_draws(row, wild, decks, unseen)``: ``(N, D, Z)`` of two blind
    draws from the hand ``row`` (56 counts, not modified), the second from the unseen
    cards less the first (for ``fivecrowns.learned``; the caller checks the inputs)."""
    cdef uint8_t hand[N_TYPES]
    cdef int counts[N_TYPES]
    cdef int64_t n = 0, d = 0, z = 0
    cdef int t
    for t in range(N_TYPES):
        hand[t] = row[t]
        counts[t] = <int>unseen[t]
    with nogil:
        two_blind_draws(hand, wild, decks, counts, &n, &d, &z)
    return n, d, z
