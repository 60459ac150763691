"""The compiled rollout engine: rounds and whole games played to the end in C.

A twin of ``round.Round``, ``game.Game`` and ``deck.Deck`` driven by a fixed policy:
the same deal, the same moves and the same scores, without the GIL. Read those modules
first; every step here names the method it mirrors.

* Randomness is numpy's own: a shuffle is ``Generator.permutation(n)`` (``arange(n)``,
  then for i from n - 1 down to 1 swap i with ``random_interval(bitgen, i)``), run on the
  generator's bit generator through its capsule, so the generator ends in the same state.
* Hands are rows of 56 counts and the meld questions go to the solver core
  (``_solver.pxd``): the same functions, so the same answers and the same tie-breaks.
* The policies are the bots: ``greedy_*`` is ``bots.GreedyBot``, ``strong_*`` is
  ``bots.StrongBot`` (its floating-point expectations in numpy's order of operations,
  over the public counts the engine keeps as ``public.PublicState`` does), ``expert_*``
  is ``expert.ExpertBot`` (integer arithmetic only, as the bot's), ``random_*``
  uniform legal moves from a generator of its own. ``_games_seated_range`` gives each
  seat its own policy.
* Entry points are private: ``fivecrowns.rollout`` validates everything, packs the
  rounds into arrays and calls them; nothing here checks its inputs again.
"""

from cpython.pycapsule cimport PyCapsule_GetPointer
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.math cimport INFINITY, exp
from libc.string cimport memcpy, memset
from numpy.random cimport bitgen_t
from numpy.random.c_distributions cimport random_interval
from libc.stdlib cimport free, malloc, realloc


cdef extern from "numpy/random/distributions.h":
    # What Generator.integers(low, high, size=n) runs for int64 (numpy's public C header;
    # the Cython declarations leave it out): n draws of [off, off + rng], Lemire's method.
    void random_bounded_uint64_fill(bitgen_t* bitgen_state, uint64_t off, uint64_t rng,
                                    Py_ssize_t cnt, bint use_masked,
                                    uint64_t* out) noexcept nogil

from ._solver cimport (
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

from ._threads import run_threaded

cdef enum:
    N_TYPES = 56
    N_RANKS = 11
    JOKER = 55
    MAX_PLAYERS = 14
    MAX_DECK = 232     # party mode
    NO_CHOICE = -1

# The phases of records.Phase.
cdef enum:
    DRAW = 0
    DISCARD = 1
    OVER = 2

# The policies, as fivecrowns.rollout numbers them.
cdef enum:
    GREEDY = 0
    RANDOM = 1
    STRONG = 2
    EXPERT = 3
    RANDOM_BOT = 4     # bots.RandomBot itself: Generator.integers on the bot's generator

cdef struct Table:
    # A round in play: Round's fields, the Deck's two piles and the policy's memory.
    int n_players
    int hand_size
    int wild
    int max_turns
    int decks
    bint no_return
    bint sudden_death
    uint8_t hands[MAX_PLAYERS][N_TYPES]
    # public.PublicState: the cards out of public view (the whole deck less the pile and
    # every player's taken cards), the pile's counts, the cards each player was seen
    # taking from the pile and has not discarded since
    int hidden[N_TYPES]
    int pile_counts[N_TYPES]
    int taken_counts[MAX_PLAYERS][N_TYPES]
    uint8_t draw[MAX_DECK]      # Deck._draw: the top is the last card
    int n_draw
    uint8_t pile[MAX_DECK]      # Deck._discard: the top is the last card
    int n_pile
    int current
    int phase
    int turn
    int taken                   # Round._taken: the type just taken from the pile, or -1
    int drawn                   # the type the current player drew this turn, or -1
    int went_out                # -1: nobody yet
    int final_left
    int scores[MAX_PLAYERS]     # -1: not scored yet
    bint hit_max_turns
    int reshuffles
    # GreedyBot's memory, which only saves work: the deadwood each hand was left with
    # after its owner's last discard (-1: unknown), and the discard chosen with the draw.
    int kept_dead[MAX_PLAYERS]
    int chosen_card
    int chosen_dead
    bitgen_t* rng               # the deck's: every shuffle
    bitgen_t* choices           # the random policy's own (NULL for the greedy one)
    int16_t* trace              # the action codes played, when not NULL
    int trace_room              # how many fit: n_trace counts on past it
    int n_trace
    bint trace_grows            # trace is malloc'ed: realloc'ed when full


# -- numpy's permutation ----------------------------------------------------------------

cdef void permute(bitgen_t* rng, int n, int* out) noexcept nogil:
    """``out[:n] = Generator.permutation(n)``, advancing ``rng`` the same way."""
    cdef int i, j, tmp
    for i in range(n):
        out[i] = i
    for i in range(n - 1, 0, -1):
        j = <int>random_interval(rng, <uint64_t>i)
        tmp = out[i]
        out[i] = out[j]
        out[j] = tmp


cdef inline bitgen_t* bitgen_of(object bit_generator) except NULL:
    """The C struct of a numpy BitGenerator (which must stay alive while it is used)."""
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


def permutation(generator, Py_ssize_t n):
    """``generator.permutation(n)`` computed here (for the tests); advances ``generator``."""
    cdef bitgen_t* rng = bitgen_of(generator.bit_generator)
    out = np.empty(n, dtype=np.intc)
    cdef int[::1] view = out
    with generator.bit_generator.lock:
        with nogil:
            permute(rng, <int>n, &view[0] if n > 0 else NULL)
    return out.astype(np.int64)


# -- the deck: deck.Deck -----------------------------------------------------------------

cdef void deal(Table* T, int n_players, int hand_size, int wild, int decks, int max_turns,
               bint no_return, int dealer) noexcept nogil:
    """``Round.__init__``: shuffle the whole deck, deal one card at a time clockwise from
    the dealer's left, turn the top card up."""
    cdef int order[MAX_DECK]
    cdef uint8_t base[MAX_DECK]
    cdef int n = 58 * decks, k, first
    for k in range(n):  # deck._sorted_deck: each suited card ``decks`` times, then the jokers
        base[k] = <uint8_t>(k // decks) if k < 55 * decks else JOKER
    permute(T.rng, n, order)
    for k in range(n):
        T.draw[k] = base[order[k]]
    T.n_draw = n
    T.n_pile = 0
    T.n_players = n_players
    T.hand_size = hand_size
    T.wild = wild
    T.max_turns = max_turns
    T.decks = decks
    T.no_return = no_return
    T.sudden_death = False
    memset(T.hands, 0, sizeof(T.hands))
    memset(T.pile_counts, 0, sizeof(T.pile_counts))
    memset(T.taken_counts, 0, sizeof(T.taken_counts))
    for k in range(N_TYPES):
        T.hidden[k] = 3 * decks if k == JOKER else decks
    first = (dealer + 1) % n_players
    for k in range(hand_size * n_players):
        T.n_draw -= 1
        T.hands[(first + k) % n_players][T.draw[T.n_draw]] += 1
    T.n_draw -= 1
    T.pile[0] = T.draw[T.n_draw]
    T.n_pile = 1
    T.pile_counts[T.pile[0]] += 1  # PublicState.turn_up
    T.hidden[T.pile[0]] -= 1
    fill_start(T, first)
    T.trace = NULL
    T.n_trace = 0
    T.trace_grows = False


cdef void reshuffle(Table* T) noexcept nogil:
    """``Deck.reshuffle`` (the draw pile is empty): the discard pile but its top card,
    in the order of ``rng.permutation``, becomes the draw pile."""
    cdef int order[MAX_DECK]
    cdef int n = T.n_pile - 1, k
    permute(T.rng, n, order)
    for k in range(n):
        T.draw[k] = T.pile[order[k]]
    T.n_draw = n
    T.pile[0] = T.pile[n]
    T.n_pile = 1
    T.reshuffles += 1
    for k in range(N_TYPES):  # PublicState.reshuffle
        T.hidden[k] += T.pile_counts[k]
        T.pile_counts[k] = 0
    T.hidden[T.pile[0]] -= 1
    T.pile_counts[T.pile[0]] = 1


cdef inline bint deck_drawable(const Table* T) noexcept nogil:
    """``Deck.can_draw``."""
    return T.n_draw > 0 or T.n_pile > 1


# -- moves: round.Round ------------------------------------------------------------------

cdef void grow_trace(Table* T) noexcept nogil:
    """Twice the room for a growing trace; when memory runs out it stops growing (and
    ``n_trace`` counts on past the room, which the caller sees)."""
    cdef int room = 2 * T.trace_room if T.trace_room > 0 else 256
    cdef int16_t* bigger = <int16_t*>realloc(T.trace, room * sizeof(int16_t))
    if bigger == NULL:
        T.trace_grows = False
        return
    T.trace = bigger
    T.trace_room = room


cdef inline void record(Table* T, int code) noexcept nogil:
    if T.trace != NULL or T.trace_grows:
        if T.n_trace == T.trace_room and T.trace_grows:
            grow_trace(T)
        if T.n_trace < T.trace_room:
            T.trace[T.n_trace] = <int16_t>code
        T.n_trace += 1


cdef void draw_from(Table* T, bint from_pile) noexcept nogil:
    """``Round._draw``."""
    cdef int t
    if from_pile:
        T.n_pile -= 1
        t = T.pile[T.n_pile]
        T.pile_counts[t] -= 1  # PublicState.take
        T.taken_counts[T.current][t] += 1
        if T.no_return:
            T.taken = t
    else:
        if T.n_draw == 0:
            reshuffle(T)
        T.n_draw -= 1
        t = T.draw[T.n_draw]
    T.hands[T.current][t] += 1
    T.drawn = t
    T.phase = DISCARD
    record(T, 1 if from_pile else 0)


cdef inline int must_keep(const Table* T) noexcept nogil:
    """``Round._kept``: the type that may not be discarded now, or -1."""
    if T.taken < 0 or T.hands[T.current][T.taken] == T.hand_size + 1:
        return -1
    return T.taken


cdef void finish(Table* T, bint hit_max_turns) noexcept nogil:
    """``Round._finish``: whoever has no score yet scores the deadwood of their hand."""
    cdef int q
    for q in range(T.n_players):
        if T.scores[q] < 0:
            T.scores[q] = solve_deadwood(T.hands[q], T.wild)
    T.hit_max_turns = hit_max_turns
    T.phase = OVER


cdef void discard_card(Table* T, int t, bint go_out) noexcept nogil:
    """``Round._discard`` (the move is legal: the policies only make legal ones)."""
    cdef int p = T.current
    cdef bint over = False
    T.hands[p][t] -= 1
    T.pile[T.n_pile] = <uint8_t>t
    T.n_pile += 1
    T.pile_counts[t] += 1  # PublicState.discard
    if T.taken_counts[p][t]:
        T.taken_counts[p][t] -= 1
    else:
        T.hidden[t] -= 1
    T.taken = -1
    T.drawn = -1
    T.turn += 1
    T.chosen_card = NO_CHOICE
    record(T, (58 if go_out else 2) + t)
    if T.went_out < 0:
        if go_out:
            T.went_out = p
            T.scores[p] = 0
            T.final_left = 0 if T.sudden_death else T.n_players - 1
            over = T.final_left <= 0
        elif T.turn >= T.max_turns:
            finish(T, True)
            over = True
    else:
        # docs/rules.rst, A round, 4: the deadwood of the cards kept after the discard
        T.scores[p] = 0 if go_out else solve_deadwood(T.hands[p], T.wild)
        T.final_left -= 1
        over = T.final_left <= 0
    if over:
        if T.phase != OVER:
            finish(T, False)
    else:
        T.current = (p + 1) % T.n_players
        T.phase = DRAW


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


cdef inline int card_value(int t, int wild) noexcept nogil:
    """``cards.card_value``: 50 for a joker, 20 for a wild-rank card, else the rank."""
    if t == JOKER:
        return 50
    if t % N_RANKS == wild - 3:
        return 20
    return t % N_RANKS + 3


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

cdef inline uint64_t integers(bitgen_t* rng, uint64_t n) noexcept nogil:
    """``Generator.integers(n)`` (an int ``n >= 1``): numpy's own C routine, which
    consumes nothing when ``n`` is 1."""
    cdef uint64_t out = 0
    random_bounded_uint64_fill(rng, 0, n - 1, 1, False, &out)
    return out


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

cdef inline bint is_wild(int t, int wild) noexcept nogil:
    """``Card.is_wild``."""
    return t == JOKER or t % N_RANKS == wild - 3


cdef void unseen_of(const Table* T, int p, int* out) noexcept nogil:
    """``PublicState.unseen``: the deck less ``p``'s hand, the pile and the other players'
    taken cards."""
    cdef int t
    for t in range(N_TYPES):
        out[t] = T.hidden[t] - T.hands[p][t] + T.taken_counts[p][t]


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


cdef void strong_discard(Table* T) noexcept nogil:
    """``StrongBot.choose_discard``: out if possible; on a final turn the least deadwood;
    else the best mix of deadwood now and expected deadwood after the next draw, with
    penalties for throwing a wild or feeding the next player."""
    cdef int p = T.current, kept = must_keep(T), n, k, j, best = -1, nxt, t
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
    n = discard_order_of(row, T.wild, -1, order)
    if kept >= 0 and n == 1 and order[0] == kept:
        n = discard_order_of(row, T.wild, kept, order)
    for k in range(n):
        row[order[k]] -= 1
        dead[k] = solve_deadwood(row, T.wild)
        row[order[k]] += 1
        if order[k] != kept and (best < 0 or dead[k] < dead[best]):
            best = k
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
cdef extern from *:
    """
    #if defined(_MSC_VER)
    #define FIVECROWNS_THREAD_LOCAL __declspec(thread)
    #else
    #define FIVECROWNS_THREAD_LOCAL __thread
    #endif
    #define FIVECROWNS_MEMO_BITS 12
    typedef struct {
        uint64_t key[8];    /* the row's 56 counts, then the wild and the decks */
        uint64_t valid;     /* bit t: table[t] is the row's entry (the rest not filled) */
        int32_t table[56];
    } fivecrowns_memo_entry;
    static FIVECROWNS_THREAD_LOCAL fivecrowns_memo_entry
        fivecrowns_memo[1 << FIVECROWNS_MEMO_BITS];
    static fivecrowns_memo_entry* fivecrowns_memo_at(unsigned int i) {
        return &fivecrowns_memo[i];
    }
    typedef struct {
        uint64_t key[8];    /* as above, for the hand before its discard */
        int32_t card;
    } fivecrowns_card_entry;
    static FIVECROWNS_THREAD_LOCAL fivecrowns_card_entry
        fivecrowns_cards[1 << FIVECROWNS_MEMO_BITS];
    static fivecrowns_card_entry* fivecrowns_card_at(unsigned int i) {
        return &fivecrowns_cards[i];
    }
    """
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


cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define FIVECROWNS_PREFETCH(p) __builtin_prefetch(p)
    #else
    #define FIVECROWNS_PREFETCH(p) ((void)(p))
    #endif
    """
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
    cdef int p = T.current, kept = must_keep(T), n, k, best = -1, allowed = 0
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
    n = discard_order_of(row, T.wild, -1, order)
    if kept >= 0 and n == 1 and order[0] == kept:
        n = discard_order_of(row, T.wild, kept, order)
    for k in range(n):
        row[order[k]] -= 1
        dead[k] = solve_deadwood(row, T.wild)
        row[order[k]] += 1
        if order[k] != kept:
            allowed += 1
            if best < 0 or dead[k] < dead[best]:
                best = k
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


# -- playing to the end -------------------------------------------------------------------

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


cdef void load(Table* T, const Table* src) noexcept nogil:
    """A play-out's table: a copy of a state's (checked when the state was made), its
    generators, trace and the policies' memory left for the caller to set."""
    cdef int q
    memcpy(T, src, sizeof(Table))
    T.drawn = -1
    T.hit_max_turns = False
    T.reshuffles = 0
    for q in range(MAX_PLAYERS):
        T.kept_dead[q] = -1
    T.chosen_card = NO_CHOICE
    T.rng = NULL
    T.choices = NULL
    T.trace = NULL
    T.trace_room = 0
    T.n_trace = 0
    T.trace_grows = False


cdef class RoundState


cdef bint dealt(const Table* T) noexcept nogil:
    """Every hand full (the mover's with the card drawn): what the policies play. A state
    is checked as it is made, but a deal in progress is a state too (the OpenSpiel
    state's chance nodes)."""
    cdef int q, t, size
    for q in range(T.n_players):
        size = 0
        for t in range(N_TYPES):
            size += T.hands[q][t]
        if size != T.hand_size + (q == T.current and T.phase == DISCARD):
            return False
    return True


cdef RoundState state_at(list states, Py_ssize_t i):
    """``states[i]``, which must be a compiled RoundState dealt in full: the only thing
    C reads."""
    s = states[i]
    if type(s) is not RoundState:
        raise TypeError(f"states[{i}] must be a compiled RoundState, got {type(s).__name__}")
    if not dealt(&(<RoundState>s).T):
        raise ValueError("a round whose deal is not finished cannot be played out")
    return <RoundState>s


def _rounds_range(list states, const uint64_t[::1] rngs, const uint64_t[::1] choices,
                  int policy, int32_t[:, ::1] out, int16_t[:, ::1] trace,
                  int32_t[::1] trace_len, Py_ssize_t start, Py_ssize_t stop):
    cdef Table T
    cdef RoundState st
    cdef Py_ssize_t i
    cdef int q
    if not 0 <= start <= stop <= len(states) or rngs.shape[0] < stop - start or \
            choices.shape[0] < stop - start or out.shape[0] < stop - start:
        raise ValueError("_rounds_range: the arrays do not cover the range")
    for i in range(start, stop):
        # the table is copied with the GIL held: a move on the state (which holds it
        # too) is never seen half made
        st = state_at(states, i)
        load(&T, &st.T)
        if T.n_players > out.shape[1]:
            raise ValueError("_rounds_range: out has too few columns")
        if rngs[i - start] == 0 or (policy in (RANDOM, RANDOM_BOT)
                                    and choices[i - start] == 0) \
                or not GREEDY <= policy <= RANDOM_BOT:
            raise ValueError("_rounds_range: a round without its generator, or a bad policy")
        with nogil:
            T.rng = <bitgen_t*>rngs[i - start]
            T.choices = <bitgen_t*>choices[i - start]
            if trace is not None:
                T.trace = &trace[i - start, 0]
                T.trace_room = <int>trace.shape[1]
            if T.phase != OVER:
                play(&T, policy)
            for q in range(T.n_players):
                out[i - start, q] = T.scores[q]
            if trace is not None:
                trace_len[i - start] = T.n_trace


def _bitgens(generators, Py_ssize_t n):
    """The addresses of bit generators' C structs (0 for ``None``: no generator)."""
    cdef Py_ssize_t i
    out = np.zeros(n, dtype=np.uint64)
    cdef uint64_t[::1] view = out
    if generators is not None:
        for i in range(n):
            view[i] = <uint64_t>bitgen_of(generators[i])
    return out


def play_rounds(list states, generators, choices, int policy, int threads, trace=None,
                trace_len=None):
    """Play compiled round states to the end (the states are only read); their scores,
    (R, 14) int32 (-1 past n_players).

    ``generators`` are the rounds' own bit generators (copies: they are advanced),
    ``choices`` the random policy's (or None).
    """
    cdef Py_ssize_t n = len(states)
    rngs = _bitgens(generators, n)
    policy_rngs = _bitgens(choices, n)
    out = np.full((n, MAX_PLAYERS), -1, dtype=np.int32)
    run_threaded(lambda a, b: _rounds_range(
        states, rngs[a:b], policy_rngs[a:b], policy, out[a:b],
        None if trace is None else trace[a:b], None if trace_len is None else trace_len[a:b],
        a, b), n, threads)
    return out


# -- sampled worlds: Round.determinize, then each candidate move played out ---------------

# A small generator of the engine's own for sampled worlds (splitmix64): its whole state
# is one integer, so every candidate move of a world can replay the world's reshuffles
# from the same state, which numpy's bit generators do not allow from C.
cdef uint64_t splitmix_next(void* st) noexcept nogil:
    cdef uint64_t* s = <uint64_t*>st
    cdef uint64_t z
    s[0] += 0x9E3779B97F4A7C15ULL
    z = s[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef uint32_t splitmix_next32(void* st) noexcept nogil:
    return <uint32_t>(splitmix_next(st) >> 32)


cdef double splitmix_double(void* st) noexcept nogil:
    return (splitmix_next(st) >> 11) * (1.0 / 9007199254740992.0)


cdef void splitmix_bitgen(bitgen_t* g, uint64_t* state) noexcept nogil:
    g.state = state
    g.next_uint64 = splitmix_next
    g.next_uint32 = splitmix_next32
    g.next_double = splitmix_double
    g.next_raw = splitmix_next


cdef void resample(Table* T, int player, bitgen_t* rng) noexcept nogil:
    """``Round.determinize(player)``: the opponents' cards other than those seen taken
    from the pile, and the draw pile, dealt again uniformly at random to the same places
    (opponents in seat order, then the draw pile)."""
    cdef int pool[MAX_DECK]
    cdef int order[MAX_DECK]
    cdef int unknown[MAX_PLAYERS]
    cdef int n = 0, q, t, c, _c, i = 0
    for q in range(T.n_players):
        unknown[q] = 0
        if q == player:
            continue
        for t in range(N_TYPES):
            c = T.hands[q][t] - T.taken_counts[q][t]
            unknown[q] += c
            while c > 0:
                pool[n] = t
                n += 1
                c -= 1
            T.hands[q][t] = <uint8_t>T.taken_counts[q][t]
    for t in range(T.n_draw):
        pool[n] = T.draw[t]
        n += 1
    permute(rng, n, order)
    for q in range(T.n_players):
        for _c in range(unknown[q]):
            T.hands[q][pool[order[i]]] += 1
            i += 1
    for t in range(T.n_draw):
        T.draw[t] = <uint8_t>pool[order[i]]
        i += 1
    for q in range(MAX_PLAYERS):
        T.kept_dead[q] = -1


cdef void apply_action(Table* T, int code) noexcept nogil:
    """``Round.apply_action`` (the move is legal: ``fivecrowns.rollout`` checked it)."""
    if code < 2:
        draw_from(T, code == 1)
    elif code < 58:
        discard_card(T, code - 2, False)
    else:
        discard_card(T, code - 58, True)


cdef int least_natural_discard(uint8_t* row, int wild, const int* held, int barred,
                               int bound, int* card) noexcept nogil:
    """The least deadwood after discarding one natural card of ``row`` (never a wild,
    which sensible players keep, nor type ``barred``, nor a copy that ``held`` counts as
    known to stay: ``row[t] > held[t]`` is needed), if below ``bound`` (``card`` set
    then); otherwise ``bound``."""
    cdef int whole = solve_deadwood(row, wild), best = bound, t, left
    for t in range(N_TYPES):
        # a discard of value v leaves at least the whole hand's deadwood less v
        if row[t] <= held[t] or t == barred or is_wild(t, wild) \
                or whole - card_value(t, wild) >= best:
            continue
        row[t] -= 1
        left = solve_deadwood(row, wild)
        row[t] += 1
        if left < best:
            best = left
            card[0] = t
    return best


cdef void replay_draws(Table* T, int player, const int32_t* blind, int cap,
                       bitgen_t* rng) noexcept nogil:
    """Make each opponent's hand one a player could have kept: for each of their blind
    draws this round (at most ``cap``), they take the draw pile's top card and give back
    the natural card (never a wild, nor a card seen taken) whose loss leaves the least
    deadwood. The cards given back are shuffled into the draw pile again, so the cards
    are conserved and the pile stays a uniform shuffle of what is left."""
    cdef int order[MAX_DECK]
    cdef uint8_t back[MAX_DECK]
    cdef uint8_t pile[MAX_DECK]
    cdef int q, _j, t, card, nb = 0, k
    for q in range(T.n_players):
        if q == player:
            continue
        for _j in range(blind[q] if blind[q] < cap else cap):
            if T.n_draw == 0:
                break
            T.n_draw -= 1
            t = T.draw[T.n_draw]
            T.hands[q][t] += 1
            card = t
            least_natural_discard(T.hands[q], T.wild, T.taken_counts[q], -1, 1 << 30, &card)
            T.hands[q][card] -= 1
            back[nb] = <uint8_t>card
            nb += 1
    if nb == 0:
        return
    for k in range(T.n_draw):
        pile[k] = T.draw[k]
    for k in range(nb):
        pile[T.n_draw + k] = back[k]
    T.n_draw += nb
    permute(rng, T.n_draw, order)
    for k in range(T.n_draw):
        T.draw[k] = pile[order[k]]


cdef int discard_regret(const Table* T, int player, const int32_t* last_discard,
                        const int32_t* last_kept) noexcept nogil:
    """How much deadwood the opponents' last discards cost them in this world: for each
    opponent with a last discard d, the deadwood of their hand now less the least
    deadwood that discarding another natural card (``least_natural_discard``; not the
    type ``last_kept`` the rules kept in hand) from the hand they held before d would
    have left. 0 when every last discard was a best one."""
    cdef uint8_t row[N_TYPES]
    cdef int none[N_TYPES]
    cdef int q, d, now, card, total = 0
    memset(none, 0, sizeof(none))
    for q in range(T.n_players):
        d = last_discard[q]
        if q == player or d < 0:
            continue
        memcpy(row, T.hands[q], N_TYPES)
        now = solve_deadwood(row, T.wild)
        if now == 0:
            continue
        row[d] += 1
        total += now - least_natural_discard(row, T.wild, none, last_kept[q], now, &card)
    return total


def _worlds_range(RoundState round_state not None,
                  int player, const int16_t[::1] actions, uint64_t seed, int policy,
                  const int32_t[::1] last_discard, const int32_t[::1] last_kept,
                  double discard_weight, int tries, const int32_t[::1] blind, int cap,
                  int32_t[:, :, ::1] out, uint8_t[:, :, ::1] world_hands,
                  uint8_t[:, ::1] world_draws, Py_ssize_t start, Py_ssize_t stop):
    cdef Table base, world, T
    cdef bitgen_t rng
    cdef uint64_t state, sampled
    cdef Py_ssize_t w
    cdef int a, q, attempt
    cdef bint keep = world_hands is not None
    splitmix_bitgen(&rng, &state)
    load(&base, &round_state.T)
    with nogil:
        for w in range(start, stop):
            # world w's generator depends on the seed and w alone, not on the threads
            state = seed ^ (<uint64_t>w * 0xD1B54A32D192ED03ULL)
            splitmix_next(&state)
            for attempt in range(tries):
                memcpy(&world, &base, sizeof(Table))
                resample(&world, player, &rng)
                if cap > 0:
                    replay_draws(&world, player, &blind[0], cap, &rng)
                # a world where the opponents' last discards were poor ones is less
                # likely: kept with probability exp(-weight x regret), else sampled again
                if discard_weight <= 0 or attempt == tries - 1:
                    break
                if rng.next_double(rng.state) < exp(-discard_weight * discard_regret(
                        &world, player, &last_discard[0], &last_kept[0])):
                    break
            if keep:
                memcpy(&world_hands[w, 0, 0], world.hands, world.n_players * N_TYPES)
                memcpy(&world_draws[w, 0], world.draw, world.n_draw)
            world.rng = &rng
            world.choices = NULL
            sampled = state
            for a in range(actions.shape[0]):
                memcpy(&T, &world, sizeof(Table))
                state = sampled  # every move meets the same reshuffles
                apply_action(&T, actions[a])
                if T.phase != OVER:
                    play(&T, policy)
                for q in range(T.n_players):
                    out[w, a, q] = T.scores[q]


def play_worlds(RoundState state not None, int player, actions, Py_ssize_t worlds,
                uint64_t seed, int policy, int threads, last_discard, last_kept,
                double discard_weight, int tries, blind, int cap, world_hands=None,
                world_draws=None):
    """Scores, (worlds, len(actions), n_players) int32, of one round state (only read)
    resampled from ``player``'s view ``worlds`` times, each action applied and played
    out. ``fivecrowns.rollout.play_worlds`` checks that the round is not over, the player
    is the current one and every action is legal now.

    ``last_discard[q]`` is the type opponent q last discarded (-1: none to weigh) and
    ``last_kept[q]`` the type they could not discard then (-1: none); with
    ``discard_weight`` > 0 a sampled world is kept with probability
    exp(-discard_weight x regret), up to ``tries`` samples (the last is kept).
    ``blind[q]`` counts opponent q's blind draws this round, of which up to ``cap`` are
    replayed (``replay_draws``).
    """
    cdef int n = state.T.n_players, k, n_legal
    cdef int legal[114]
    # What the loops below trust, checked once here (fivecrowns.rollout checked the
    # same with its own messages): the round in play, the mover, legal moves, a policy
    # without a generator of its own, rows for every seat.
    if not dealt(&state.T):
        raise ValueError("a round whose deal is not finished cannot be played out")
    if state.T.phase == OVER or player != state.T.current:
        raise ValueError("play_worlds: the round is over or player is not the current one")
    if policy not in (GREEDY, STRONG, EXPERT) or tries < 1 or cap < 0 or worlds < 0:
        raise ValueError("play_worlds: a bad policy, tries, replay cap or worlds")
    n_legal = legal_codes(&state.T, legal)
    for k in range(len(actions)):
        if actions[k] not in [legal[i] for i in range(n_legal)]:
            raise ValueError(f"play_worlds: action {actions[k]} is not legal now")
    for row in (last_discard, last_kept, blind):
        if len(row) < MAX_PLAYERS:
            raise ValueError(f"play_worlds: the rows over the seats need {MAX_PLAYERS} entries")
    if world_hands is not None and (world_hands.shape[0] < worlds or world_draws is None
                                    or world_draws.shape[0] < worlds):
        raise ValueError("play_worlds: world_hands and world_draws need a row per world")
    # one snapshot for every piece, whatever happens to the state meanwhile
    state = state.copy()
    out = np.empty((worlds, len(actions), n), dtype=np.int32)
    run_threaded(lambda a, b: _worlds_range(state, player, actions, seed, policy,
                                            last_discard, last_kept, discard_weight, tries,
                                            blind, cap, out, world_hands, world_draws, a, b),
                 worlds, threads, _worlds_per_piece(policy, len(actions)))
    return out


def _worlds_per_piece(int policy, Py_ssize_t n_actions):
    """Worlds per piece of work: about a tenth of a second of play-outs (a Ctrl-C is
    seen between pieces; a world's generator depends on its index alone, so the pieces
    change no answer)."""
    cdef Py_ssize_t play_outs = 64 if policy == EXPERT else 512 if policy == STRONG else 4096
    return max(1, play_outs // max(1, n_actions))


cdef int table_max_turns(object max_turns) except -1:
    """``Rules.max_turns`` as a table holds it, a C int: past ``TURN_LIMIT`` the same rule
    as ``TURN_LIMIT`` (as ``Round`` takes it: no round gets near either)."""
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, got {max_turns}")
    return <int>min(max_turns, TURN_LIMIT)


cdef bint play_game_seated(bitgen_t* rng, bitgen_t* choices, int n_players, int decks,
                           int max_turns, bint no_return, const int8_t* rounds,
                           int n_rounds, int first_dealer, const int32_t* policies,
                           int64_t* totals, Noting* noting) noexcept nogil:
    """``Game`` with seat q played by ``policies[q]`` (a policy per seat, so a duplicate
    match of policies plays at C speed): one generator for every deal and reshuffle, the
    deal passing left each round. A tie-break round (``Rules.tie_break``) only names a
    winner and changes no total, so it is not played.

    With ``noting`` (else NULL) the decisions of the seats it marks are noted (see
    ``play_noted``) and the round scores written to its ``round_scores`` (n_rounds x
    n_players): False, part-noted, when its notes have no room left for a decision."""
    cdef Table T
    cdef int k, q, size
    for q in range(n_players):
        totals[q] = 0
    T.rng = rng
    T.choices = choices
    for k in range(n_rounds):
        size = rounds[k] + 2
        deal(&T, n_players, size, size, decks, max_turns, no_return,
             (first_dealer + k) % n_players)
        if noting == NULL:
            play_seated(&T, policies)
        elif not play_noted(&T, policies, noting, k, totals):
            return False
        for q in range(n_players):
            if noting != NULL:
                noting.round_scores[k * n_players + q] = T.scores[q]
            totals[q] += T.scores[q]
    return True


cdef void play_game(bitgen_t* rng, bitgen_t* choices, int n_players, int decks,
                    int max_turns, bint no_return, const int8_t* rounds, int n_rounds,
                    int first_dealer, int policy, int64_t* totals) noexcept nogil:
    """``play_game_seated`` with ``policy`` in every seat."""
    cdef int32_t policies[MAX_PLAYERS]
    cdef int q
    for q in range(n_players):
        policies[q] = policy
    play_game_seated(rng, choices, n_players, decks, max_turns, no_return, rounds, n_rounds,
                     first_dealer, policies, totals, NULL)


def _games_range(const uint64_t[::1] rngs, const uint64_t[::1] choices, int n_players,
                 int decks, max_turns, bint no_return, const int8_t[::1] rounds,
                 int first_dealer, int policy, int64_t[:, ::1] out, Py_ssize_t start,
                 Py_ssize_t stop):
    cdef Py_ssize_t i
    cdef int turn_cap = table_max_turns(max_turns)
    with nogil:
        for i in range(start, stop):
            play_game(<bitgen_t*>rngs[i], <bitgen_t*>choices[i], n_players, decks,
                      turn_cap, no_return, &rounds[0], <int>rounds.shape[0], first_dealer,
                      policy, &out[i, 0])


def play_games(generators, choices, int n_players, int decks, max_turns,
               bint return_discard, rounds, int first_dealer, int policy, int threads):
    """Totals, (G, n_players) int64, of games dealt from the bit generators
    ``generators`` (advanced); the random policy's are ``choices`` (or None)."""
    cdef int turn_cap = table_max_turns(max_turns)
    cdef Py_ssize_t n = len(generators)
    rngs = _bitgens(generators, n)
    policy_rngs = _bitgens(choices, n)
    out = np.zeros((n, n_players), dtype=np.int64)
    run_threaded(lambda a, b: _games_range(rngs, policy_rngs, n_players, decks, turn_cap,
                                           not return_discard, rounds, first_dealer, policy,
                                           out, a, b), n, threads)
    return out


def _games_seated_range(const uint64_t[::1] rngs, const uint64_t[::1] choices,
                        int n_players, int decks, max_turns, bint no_return,
                        const int8_t[::1] rounds, int first_dealer,
                        const int32_t[::1] policies, int64_t[:, ::1] out,
                        Py_ssize_t start, Py_ssize_t stop):
    cdef Py_ssize_t i
    cdef int turn_cap = table_max_turns(max_turns)
    with nogil:
        for i in range(start, stop):
            play_game_seated(<bitgen_t*>rngs[i], <bitgen_t*>choices[i], n_players, decks,
                             turn_cap, no_return, &rounds[0], <int>rounds.shape[0],
                             first_dealer, &policies[0], &out[i, 0], NULL)


# -- whole games with their moves: players.play_game with built-in bots -------------------

# The columns of a logged round (see _logged_games_range): who went out (-1: nobody),
# whether max_turns stopped it, its turns, reshuffles and dealer, its number of moves
# (-1 in the tie-break row of a game that had none), then each player's score.
cdef enum:
    L_WENT_OUT = 0
    L_HIT = 1
    L_TURNS = 2
    L_RESHUFFLES = 3
    L_DEALER = 4
    L_MOVES = 5
    L_SCORES = 6
    N_LOG = 6 + MAX_PLAYERS


cdef void play_bots(Table* T, const int32_t* policies, bitgen_t* const* choices) noexcept nogil:
    """Move until the round is over, player q by ``policies[q]`` with the generator
    ``choices[q]`` (a RandomBot's own; NULL for the deterministic bots)."""
    while T.phase != OVER:
        T.choices = choices[T.current]
        step(T, policies[T.current])


cdef void play_logged_round(Table* T, const int32_t* policies, bitgen_t* const* choices,
                            int dealer, int32_t* row, uint8_t* hands) noexcept nogil:
    """Play the dealt round ``T`` to its end, its moves appended to ``T``'s growing trace,
    and write its log row (and, unless NULL, its final hands)."""
    cdef int start = T.n_trace, q
    play_bots(T, policies, choices)
    row[L_WENT_OUT] = T.went_out
    row[L_HIT] = T.hit_max_turns
    row[L_TURNS] = T.turn
    row[L_RESHUFFLES] = T.reshuffles
    row[L_DEALER] = dealer
    row[L_MOVES] = T.n_trace - start
    for q in range(MAX_PLAYERS):
        row[L_SCORES + q] = T.scores[q] if q < T.n_players else -1
    if hands != NULL:
        memcpy(hands, T.hands, T.n_players * N_TYPES)


cdef void deal_logged(Table* T, int n_players, int hand_size, int decks, int max_turns,
                      bint no_return, int dealer, bint sudden_death) noexcept nogil:
    """``deal``, keeping the game's growing trace across the deal (which clears it)."""
    cdef int16_t* trace = T.trace
    cdef int room = T.trace_room, n = T.n_trace
    cdef bint grows = T.trace_grows
    deal(T, n_players, hand_size, hand_size, decks, max_turns, no_return, dealer)
    T.sudden_death = sudden_death
    T.trace = trace
    T.trace_room = room
    T.n_trace = n
    T.trace_grows = grows


cdef int play_logged_game(Table* T, int n_players, int decks, int max_turns, bint no_return,
                          bint tie_break, const int8_t* rounds, int n_rounds,
                          int first_dealer, const int32_t* policies,
                          bitgen_t* const* choices, int32_t* log,
                          uint8_t* hands) noexcept nogil:
    """``Game`` played by ``players.play_game`` with built-in bots (seat q by
    ``policies[q]``): ``T.rng`` deals every round and shuffles every reshuffle; each round
    (and the tie-break round, ``Game._start_tie_break``, when ``tie_break`` and the lowest
    total is shared) is logged in a row of ``log`` (``N_LOG`` columns, ``n_rounds + 1``
    rows); the moves go to ``T``'s trace. The tie-break round numbers the tied seats
    0.. in seat order, as ``Game`` does. Returns the rounds played."""
    cdef int64_t totals[MAX_PLAYERS]
    cdef int32_t local[MAX_PLAYERS]
    cdef bitgen_t* local_choices[MAX_PLAYERS]
    cdef int k, q, dealer, m = 0, first = 0, key, best_key = -1
    cdef int64_t best
    cdef uint8_t* h
    for q in range(n_players):
        totals[q] = 0
    for k in range(n_rounds):
        dealer = (first_dealer + k) % n_players
        deal_logged(T, n_players, rounds[k] + 2, decks, max_turns, no_return, dealer, False)
        h = NULL if hands == NULL else hands + k * MAX_PLAYERS * N_TYPES
        play_logged_round(T, policies, choices, dealer, log + k * N_LOG, h)
        for q in range(n_players):
            totals[q] += T.scores[q]
    log[n_rounds * N_LOG + L_MOVES] = -1
    if not tie_break:
        return n_rounds
    best = totals[0]
    for q in range(n_players):
        if totals[q] < best:
            best = totals[q]
    for q in range(n_players):
        if totals[q] == best:
            # the first tied seat clockwise from the next dealer's left plays first
            key = (q - (first_dealer + n_rounds) % n_players - 1 + 2 * n_players) % n_players
            if best_key < 0 or key < best_key:
                best_key = key
                first = m
            local[m] = policies[q]
            local_choices[m] = choices[q]
            m += 1
    if m < 2:
        return n_rounds
    dealer = (first - 1 + m) % m
    deal_logged(T, m, 6, decks, max_turns, no_return, dealer, True)
    h = NULL if hands == NULL else hands + n_rounds * MAX_PLAYERS * N_TYPES
    play_logged_round(T, local, local_choices, dealer, log + n_rounds * N_LOG, h)
    return n_rounds + 1


def _logged_games_range(const uint64_t[::1] rngs, const uint64_t[:, ::1] choices,
                        int n_players, int decks, max_turns, bint no_return,
                        bint tie_break, const int8_t[::1] rounds, int first_dealer,
                        const int32_t[:, ::1] policies, int32_t[:, :, ::1] log,
                        uint8_t[:, :, :, ::1] hands, list moves, Py_ssize_t start,
                        Py_ssize_t stop):
    """Games ``start:stop`` of ``play_logged_game``: game i dealt by the bit generator at
    address ``rngs[i]``, seat q played by ``policies[i, q]`` with the generator at
    ``choices[i, q]`` (0: none), logged in ``log[i]``, its final hands in ``hands[i]``
    (unless None) and its moves, as an int16 array, in ``moves[i]`` (unless None)."""
    cdef int turn_cap = table_max_turns(max_turns)
    cdef Py_ssize_t i, n = stop - start
    cdef Table T
    cdef int16_t** traces = NULL
    cdef int* lengths = NULL
    cdef bint keep = moves is not None, failed = False
    cdef int16_t[::1] view
    if keep:
        traces = <int16_t**>malloc((n + 1) * sizeof(int16_t*))
        lengths = <int*>malloc((n + 1) * sizeof(int))
        if traces == NULL or lengths == NULL:
            free(traces)
            free(lengths)
            raise MemoryError()
        for i in range(n):
            traces[i] = NULL
    try:
        with nogil:
            for i in range(start, stop):
                T.rng = <bitgen_t*>rngs[i]
                T.trace = NULL
                T.trace_room = 0
                T.n_trace = 0
                T.trace_grows = keep
                play_logged_game(&T, n_players, decks, turn_cap, no_return, tie_break,
                                 &rounds[0], <int>rounds.shape[0], first_dealer,
                                 &policies[i, 0], <bitgen_t* const*>&choices[i, 0],
                                 &log[i, 0, 0],
                                 NULL if hands is None else &hands[i, 0, 0, 0])
                if keep:
                    traces[i - start] = T.trace
                    lengths[i - start] = T.n_trace
                    failed = failed or T.n_trace > T.trace_room
        if keep:
            if failed:
                raise MemoryError("no memory left for the moves of a game")
            for i in range(n):
                arr = np.empty(lengths[i], dtype=np.int16)
                if lengths[i] > 0:
                    view = arr
                    memcpy(&view[0], traces[i], lengths[i] * sizeof(int16_t))
                moves[start + i] = arr
    finally:
        if keep:
            for i in range(n):
                free(traces[i])
            free(traces)
            free(lengths)


def _hands_cards(const uint8_t[:, ::1] hands, int k, tuple cards):
    """The first ``k`` rows of counts as tuples of ``cards[t]``, ascending (as
    ``Round._cards`` gives a final hand)."""
    cdef int q, t, _c
    out = []
    for q in range(k):
        row = []
        for t in range(N_TYPES):
            for _c in range(hands[q, t]):
                row.append(cards[t])
        out.append(tuple(row))
    return tuple(out)


def _tokens(const int16_t[::1] moves, Py_ssize_t start, Py_ssize_t stop, tuple tokens):
    """``tuple(tokens[a] for a in moves[start:stop])``."""
    cdef Py_ssize_t i
    return tuple([tokens[moves[i]] for i in range(start, stop)])


# -- dealing.random_hands ---------------------------------------------------------------

def deal_hands(generator, const uint8_t[::1] deck, int size, int block,
               uint8_t[:, ::1] out):
    """``dealing._deal_block`` over ``out`` in blocks of ``block`` rows: the same draws
    from ``generator`` (``integers(j, len(deck), size=rows)`` for each place j of each
    block), the same swaps, so the same hands; ``out`` holds zeros."""
    cdef bitgen_t* rng = bitgen_of(generator.bit_generator)
    cdef Py_ssize_t n = out.shape[0], start, rows, r, j
    cdef int m = <int>deck.shape[0]
    cdef uint8_t* cards = <uint8_t*>malloc(block * m)
    cdef uint64_t* picks = <uint64_t*>malloc(block * sizeof(uint64_t))
    cdef uint8_t* row
    cdef uint8_t tmp
    if cards == NULL or picks == NULL:
        free(cards)
        free(picks)
        raise MemoryError()
    try:
        with generator.bit_generator.lock, nogil:
            start = 0
            while start < n:
                rows = block if n - start > block else n - start
                for r in range(rows):
                    memcpy(cards + r * m, &deck[0], m)
                for j in range(size):
                    random_bounded_uint64_fill(rng, <uint64_t>j, <uint64_t>(m - 1 - j),
                                               rows, False, picks)
                    for r in range(rows):
                        row = cards + r * m
                        tmp = row[picks[r]]
                        row[picks[r]] = row[j]
                        row[j] = tmp
                for r in range(rows):
                    row = cards + r * m
                    for j in range(size):
                        out[start + r, row[j]] += 1
                start += rows
    finally:
        free(cards)
        free(picks)


# -- decisions: every move of whole games, noted for learning (fivecrowns.decisions) -------

# envs.features: the solver features' length and the places of the scalar ones.
cdef enum:
    N_FEATURES = 62
    F_TAKE = 56
    F_NOW = 57
    F_COMPLETE = 58
    F_IMPROVE = 59
    F_EXPECTED = 60
    F_VIEW = 61


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


# The columns of a noted decision's ``info`` row.
cdef enum:
    D_GAME = 0       # the game's index in the call
    D_ROUND = 1      # the round's index in the game's plan
    D_PLAYER = 2
    D_PHASE = 3
    D_TURN = 4
    D_TOP = 5        # the top discard's type, -1: an empty pile
    D_KEEP = 6       # the type the rules keep in hand now, -1: none
    D_N_DRAW = 7
    D_N_PILE = 8
    D_WENT_OUT = 9   # -1: nobody yet
    D_ACTION = 10
    N_DECISION = 11


cdef struct Notes:
    # Where decisions are noted: ``room`` rows of each array, ``n`` used.
    int32_t* info       # N_DECISION a decision
    uint8_t* hand       # the player's hand
    uint8_t* pile       # the discard pile's counts
    uint8_t* unseen     # PublicState.unseen of the player
    uint8_t* taken      # n_players rows a decision: each seat's taken cards
    uint8_t* outs       # the discard types that go out (discard phase)
    int32_t* totals     # n_players a decision: the game's totals before the round
    float* features     # N_FEATURES a decision, or NULL: not wanted
    Py_ssize_t room
    Py_ssize_t n


cdef void note(Table* T, Notes* N, int game, int k, const int64_t* totals) noexcept nogil:
    """Note the current player's view now, before they move: only what they may see."""
    cdef Py_ssize_t i = N.n
    cdef int p = T.current, q, t, n = T.n_players
    cdef int32_t* info = N.info + i * N_DECISION
    cdef uint8_t* row = T.hands[p]
    cdef uint8_t* outs = N.outs + i * N_TYPES
    cdef int unseen[N_TYPES]
    cdef int kept = must_keep(T) if T.phase == DISCARD else -1
    info[D_GAME] = game
    info[D_ROUND] = k
    info[D_PLAYER] = p
    info[D_PHASE] = T.phase
    info[D_TURN] = T.turn
    info[D_TOP] = T.pile[T.n_pile - 1] if T.n_pile > 0 else -1
    info[D_KEEP] = kept
    info[D_N_DRAW] = T.n_draw
    info[D_N_PILE] = T.n_pile
    info[D_WENT_OUT] = T.went_out
    info[D_ACTION] = -1
    memcpy(N.hand + i * N_TYPES, row, N_TYPES)
    unseen_of(T, p, unseen)
    for t in range(N_TYPES):
        N.pile[i * N_TYPES + t] = <uint8_t>T.pile_counts[t]
        N.unseen[i * N_TYPES + t] = <uint8_t>unseen[t]
    for q in range(n):
        for t in range(N_TYPES):
            N.taken[(i * n + q) * N_TYPES + t] = <uint8_t>T.taken_counts[q][t]
        N.totals[i * n + q] = <int32_t>totals[q]
    if N.features != NULL:
        note_features(T, p, kept, unseen, N.features + i * N_FEATURES)
    memset(outs, 0, N_TYPES)
    # Round._go_out_types: one search answers "none" for almost every hand
    if T.phase == DISCARD and best_discard_search(row, T.wild, 1) == 0:
        for t in range(N_TYPES):
            if row[t] and t != kept:
                row[t] -= 1
                outs[t] = solve_deadwood(row, T.wild) == 0
                row[t] += 1
    N.n = i + 1


cdef struct Noting:
    # What play_game_seated notes: the seats whose decisions it notes, the game's number
    # among those noted, the notes, and where the round scores go.
    const uint8_t* seats
    int game
    Notes* N
    int32_t* round_scores


cdef bint play_noted(Table* T, const int32_t* policies, Noting* noting, int k,
                     const int64_t* totals) noexcept nogil:
    """``play_seated`` of round ``k``, noting every decision of the seats ``noting`` marks
    before it is made and the action after. False when the notes have no room."""
    cdef int p
    cdef int16_t code = 0
    cdef Notes* N = noting.N
    while T.phase != OVER:
        p = T.current
        if noting.seats[p]:
            if N.n >= N.room:
                return False
            note(T, N, noting.game, k, totals)
        # the move's code through the trace, one slot (deal leaves it NULL)
        T.trace = &code
        T.trace_room = 1
        T.n_trace = 0
        step(T, policies[p])
        T.trace = NULL
        if noting.seats[p]:
            N.info[(N.n - 1) * N_DECISION + D_ACTION] = code
    return True


def _decisions_range(const uint64_t[::1] rngs, const uint64_t[::1] choices, int n_players,
                     int decks, max_turns, bint no_return, const int8_t[::1] rounds,
                     int first_dealer, const int32_t[::1] policies, const uint8_t[::1] seats,
                     int32_t[:, ::1] info, uint8_t[:, ::1] hand, uint8_t[:, ::1] pile,
                     uint8_t[:, ::1] unseen, uint8_t[:, :, ::1] taken,
                     uint8_t[:, ::1] outs, int32_t[:, ::1] totals,
                     int32_t[:, :, ::1] round_scores, float[:, ::1] features,
                     Py_ssize_t start, Py_ssize_t stop):
    """Play games ``start..stop`` (``game`` numbers them from 0 at ``start``), noting their
    decisions from row 0 (their solver features too unless ``features`` is None); stops
    before a game that would not fit. (games done, rows)."""
    cdef int turn_cap = table_max_turns(max_turns)
    cdef Notes N
    cdef Noting noting
    cdef int64_t game_totals[MAX_PLAYERS]
    cdef Py_ssize_t i, before, done = 0
    N.info = &info[0, 0]
    N.hand = &hand[0, 0]
    N.pile = &pile[0, 0]
    N.unseen = &unseen[0, 0]
    N.taken = &taken[0, 0, 0]
    N.outs = &outs[0, 0]
    N.totals = &totals[0, 0]
    N.features = &features[0, 0] if features is not None else NULL
    N.room = info.shape[0]
    N.n = 0
    with nogil:
        for i in range(start, stop):
            before = N.n
            noting.seats = &seats[0]
            noting.game = <int>(i - start)
            noting.N = &N
            noting.round_scores = &round_scores[i - start, 0, 0]
            if not play_game_seated(<bitgen_t*>rngs[i], <bitgen_t*>choices[i], n_players,
                                    decks, turn_cap, no_return, &rounds[0],
                                    <int>rounds.shape[0], first_dealer, &policies[0],
                                    game_totals, &noting):
                N.n = before
                break
            done += 1
    return done, N.n


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


# -- one round's state for Round and Game: RoundState ------------------------------------
#
# The Table above and its moves (deal, draw_from, discard_card, reshuffle, finish) as a
# Python object: fivecrowns.round.Round keeps its state here and only adds argument
# checks, messages, records and views. Its readable twin, the specification of a turn's
# rules, is fivecrowns._state_py.RoundState (same methods, same answers); read that first.
# Every argument that indexes the Table is checked here, so no call reads out of bounds.

cdef extern from *:
    """
    /* numpy/random/src/pcg64/pcg64.h, the state behind a PCG64's or a PCG64DXSM's
       bitgen_t (unchanged since numpy 1.17): the 128-bit state and increment, and the
       half of a 64-bit draw kept for the next 32-bit one. */
    typedef struct {
        unsigned char *pcg_state;
        int has_uint32;
        unsigned int uinteger;
    } fc_pcg64_state;
    """
    ctypedef struct fc_pcg64_state:
        uint8_t* pcg_state
        int has_uint32
        unsigned int uinteger

cdef enum:
    PCG_STATE = 32                  # pcg64_random_t: two 128-bit integers
    PCG_RAW = PCG_STATE + 8         # and has_uint32, uinteger


# The answers of check_draw and check_discard (fivecrowns._state_py names them).
cdef enum:
    C_OK = 0
    C_OVER = 1          # the round is over
    C_DRAWN = 2         # a draw in the discard phase
    C_UNDRAWN = 3       # a discard in the draw phase
    C_PILE_EMPTY = 4    # a take from an empty discard pile
    C_DECK_EMPTY = 5    # a blind draw with nothing to draw or reshuffle
    C_NOT_HELD = 6      # a discard of a card type not in the hand
    C_MUST_KEEP = 7     # a discard of the card just taken (Rules.return_discard off)
    C_NOT_OUT = 8       # going out with deadwood left

CHECK_CODES = {"OK": C_OK, "OVER": C_OVER, "DRAWN": C_DRAWN, "UNDRAWN": C_UNDRAWN,
               "PILE_EMPTY": C_PILE_EMPTY, "DECK_EMPTY": C_DECK_EMPTY,
               "NOT_HELD": C_NOT_HELD, "MUST_KEEP": C_MUST_KEEP, "NOT_OUT": C_NOT_OUT}

# The largest hand the solver is asked about (fivecrowns._checks.MAX_HAND_SIZE).
cdef int STATE_MAX_HAND = 20


cdef int full_count(int t, int decks) noexcept nogil:
    return 3 * decks if t == JOKER else decks


cdef inline int draw_code(const Table* T, bint from_pile) noexcept nogil:
    if T.phase == OVER:
        return C_OVER
    if T.phase != DRAW:
        return C_DRAWN
    if from_pile:
        return C_OK if T.n_pile > 0 else C_PILE_EMPTY
    return C_OK if deck_drawable(T) else C_DECK_EMPTY


cdef int discard_code(Table* T, int t, bint go_out) noexcept nogil:
    cdef uint8_t* row
    cdef int dead
    if T.phase == OVER:
        return C_OVER
    if T.phase != DISCARD:
        return C_UNDRAWN
    row = T.hands[T.current]
    if not row[t]:
        return C_NOT_HELD
    if must_keep(T) == t:
        return C_MUST_KEEP
    if go_out:
        row[t] -= 1
        dead = solve_deadwood(row, T.wild)
        row[t] += 1
        if dead:
            return C_NOT_OUT
    return C_OK


cdef int legal_codes(Table* T, int* out) noexcept nogil:
    """``Round.legal_actions`` into ``out`` (room for 114); how many."""
    cdef int n = 0, t, kept
    cdef uint8_t* row
    if T.phase == DRAW:
        if deck_drawable(T):
            out[n] = 0
            n += 1
        if T.n_pile > 0:
            out[n] = 1
            n += 1
    elif T.phase == DISCARD:
        row = T.hands[T.current]
        kept = must_keep(T)
        for t in range(N_TYPES):
            if row[t] and t != kept:
                out[n] = 2 + t
                n += 1
        # Round._go_out_types: one search answers "none" for almost every hand
        if best_discard_search(row, T.wild, 1) == 0:
            for t in range(N_TYPES):
                if row[t] and t != kept:
                    row[t] -= 1
                    if solve_deadwood(row, T.wild) == 0:
                        out[n] = 58 + t
                        n += 1
                    row[t] += 1
    return n


cdef object _uint8 = np.dtype(np.uint8)


cdef object counts_array(const int* counts, int n):
    """A new uint8 array of ``n`` counts."""
    cdef bytearray data = bytearray(n)
    cdef int k
    for k in range(n):
        data[k] = <uint8_t>counts[k]
    return np.frombuffer(data, _uint8)


cdef class RoundState:
    """One round's state and moves, compiled: hands as counts, the draw pile in order,
    the discard pile, the public counts, phase, final turns and scores.

    The interface is documented on its twin, :class:`fivecrowns._state_py.RoundState`;
    both give the same answers to the same calls. Card types are ints 0..55, players
    0..n_players-1, phases 0 (draw), 1 (discard), 2 (over); a player or score that is
    not there is -1.
    """

    cdef Table T
    # The generator of every reshuffle. A copy does not copy it (that costs more than
    # the rest of a copy): it keeps a snapshot of its state, and builds a generator from
    # the snapshot the first time one is needed, so it draws exactly what the original
    # generator would have drawn from the moment of the copy, whatever happens to it.
    cdef object _rng
    cdef object _snapshot
    # A PCG64 generator's snapshot, its C state copied as is (raw_kind: its type; None
    # while there is none): a tenth of the cost of the state as Python values.
    cdef uint8_t raw[PCG_RAW]
    cdef object raw_kind

    def __cinit__(self):
        self.T.rng = NULL
        self.T.choices = NULL
        self.T.trace = NULL
        self.T.trace_room = 0
        self.T.n_trace = 0
        self.T.trace_grows = False

    # -- construction --

    @staticmethod
    def deal(n_players, hand_size, wild, decks, max_turns, bint return_discard, dealer,
             bint sudden_death, rng):
        """Shuffle a whole deck with ``rng`` (``Generator.permutation``, advancing it),
        deal ``hand_size`` cards one at a time clockwise from the dealer's left, turn
        the top card up: ``Round.__init__``."""
        _check_table(n_players, hand_size, wild, decks, max_turns)
        if n_players * hand_size + 1 > 58 * decks:
            raise ValueError(f"{n_players} hands of {hand_size} cards and a turned-up card "
                             f"need more than the {58 * decks} cards of the deck")
        if not 0 <= dealer < n_players:
            raise ValueError(f"dealer must be a seat 0..{n_players - 1}, got {dealer}")
        cdef RoundState s = RoundState.__new__(RoundState)
        bits = _bit_generator(rng)
        s._rng = rng
        s.T.rng = bitgen_of(bits)
        with bits.lock:
            deal(&s.T, n_players, hand_size, wild, decks, max_turns, not return_discard,
                 dealer)
        s.T.rng = NULL
        s.T.sudden_death = sudden_death
        return s

    @staticmethod
    def undealt(n_players, hand_size, wild, decks, max_turns, bint return_discard, dealer,
                bint sudden_death, draw_pile, rng):
        """A round before its deal: every hand and the discard pile empty, ``draw_pile``
        (card types, top card first) the whole draw pile. Deal it with :meth:`deal_card`
        and :meth:`turn_up`; the dealer's left plays first."""
        _check_table(n_players, hand_size, wild, decks, max_turns)
        if not 0 <= dealer < n_players:
            raise ValueError(f"dealer must be a seat 0..{n_players - 1}, got {dealer}")
        cdef RoundState s = RoundState.__new__(RoundState)
        cdef int k
        s._rng = _generator(rng)
        fill_rules(&s.T, n_players, hand_size, wild, decks, max_turns, return_discard,
                   sudden_death)
        memset(s.T.hands, 0, sizeof(s.T.hands))
        memset(s.T.pile_counts, 0, sizeof(s.T.pile_counts))
        memset(s.T.taken_counts, 0, sizeof(s.T.taken_counts))
        for k in range(N_TYPES):
            s.T.hidden[k] = full_count(k, decks)
        s.T.n_pile = 0
        s.set_draw_pile(draw_pile)
        fill_start(&s.T, (dealer + 1) % n_players)
        return s

    @staticmethod
    def from_state(hands, draw_pile, discard_pile, taken_counts, wild, hand_size, decks,
                   max_turns, bint return_discard, bint sudden_death, current, phase,
                   turn, taken, went_out, final_left, scores, reshuffles, rng):
        """A round in a given state: ``hands`` and ``taken_counts`` (n_players, 56)
        counts, the piles as card types (draw pile top first, discard pile bottom
        first), ``taken`` the type just taken from the pile (-1: none), ``scores`` one
        per player (-1: not scored yet). Every card of the deck must be in exactly one
        place."""
        rows = np.ascontiguousarray(hands, dtype=np.intp)
        known = np.ascontiguousarray(taken_counts, dtype=np.intp)
        if rows.ndim != 2 or rows.shape[1] != N_TYPES or known.shape != rows.shape:
            raise ValueError(f"hands and taken_counts must be (n_players, 56) counts, got "
                             f"shapes {rows.shape} and {known.shape}")
        cdef int n = <int>rows.shape[0], q, t, k
        _check_table(n, hand_size, wild, decks, max_turns)
        points = _check_state(n, hand_size, decks, sudden_death, current, phase, turn,
                              taken, went_out, final_left, scores, reshuffles, rows, known)
        cdef RoundState s = RoundState.__new__(RoundState)
        s._rng = _generator(rng)
        fill_rules(&s.T, n, hand_size, wild, decks, max_turns, return_discard,
                   sudden_death)
        s.set_draw_pile(draw_pile)
        pile = _types(discard_pile, "discard_pile")
        total = rows.sum(axis=0) + np.bincount(
            np.array(pile + s.draw_pile(), dtype=np.intp), minlength=N_TYPES)
        for t in range(N_TYPES):
            if total[t] != full_count(t, decks):
                raise ValueError(f"the cards are not conserved: card type {t} is in "
                                 f"{total[t]} places, the deck holds {full_count(t, decks)}")
        memset(s.T.hands, 0, sizeof(s.T.hands))
        memset(s.T.taken_counts, 0, sizeof(s.T.taken_counts))
        memset(s.T.pile_counts, 0, sizeof(s.T.pile_counts))
        for t in range(N_TYPES):
            s.T.hidden[t] = full_count(t, decks)
        for q in range(n):
            for t in range(N_TYPES):
                s.T.hands[q][t] = <uint8_t>rows[q, t]
                s.T.taken_counts[q][t] = <int>known[q, t]
                s.T.hidden[t] -= <int>known[q, t]
        s.T.n_pile = len(pile)
        for k in range(s.T.n_pile):
            s.T.pile[k] = <uint8_t>pile[k]
            s.T.pile_counts[pile[k]] += 1
            s.T.hidden[pile[k]] -= 1
        fill_start(&s.T, current)
        s.T.phase = phase
        s.T.turn = turn
        s.T.taken = taken if s.T.no_return else -1
        s.T.went_out = went_out
        s.T.final_left = final_left
        s.T.reshuffles = reshuffles
        for q in range(n):
            s.T.scores[q] = points[q]
        return s

    # -- the deal, a card at a time (chance outcomes placed into the draw pile) --

    def deal_card(self, int player):
        """Move the top card of the draw pile into ``player``'s hand; its type."""
        if not 0 <= player < self.T.n_players:
            raise ValueError(f"player must be a seat 0..{self.T.n_players - 1}, got {player}")
        if self.T.n_draw == 0:
            raise ValueError("cannot deal: the draw pile is empty")
        cdef int size = 0, t
        for t in range(N_TYPES):
            size += self.T.hands[player][t]
        if size >= STATE_MAX_HAND:
            raise ValueError(f"cannot deal: player {player} holds {size} cards already")
        self.T.n_draw -= 1
        t = self.T.draw[self.T.n_draw]
        self.T.hands[player][t] += 1
        return t

    def turn_up(self):
        """Turn the top card of the draw pile up onto the discard pile; its type."""
        if self.T.n_draw == 0:
            raise ValueError("cannot turn a card up: the draw pile is empty")
        self.T.n_draw -= 1
        cdef int t = self.T.draw[self.T.n_draw]
        self.T.pile[self.T.n_pile] = <uint8_t>t
        self.T.n_pile += 1
        self.T.pile_counts[t] += 1  # PublicState.turn_up
        self.T.hidden[t] -= 1
        return t

    def stack(self, int t):
        """Move the card of type ``t`` nearest the top of the draw pile to its top (the
        other cards keep their order), so that the next card drawn, dealt or turned up
        is a ``t``."""
        check_type(t)
        cdef int i = self.T.n_draw - 1
        while i >= 0 and self.T.draw[i] != t:
            i -= 1
        if i < 0:
            raise ValueError(f"no card of type {t} is left in the draw pile")
        while i < self.T.n_draw - 1:
            self.T.draw[i] = self.T.draw[i + 1]
            i += 1
        self.T.draw[self.T.n_draw - 1] = <uint8_t>t

    # -- moves --

    cpdef int check_draw(self, bint from_pile):
        """0 if the current player may draw from the discard pile (``from_pile``) or
        the draw pile now, else the code of why not (see ``CHECK_CODES``)."""
        return draw_code(&self.T, from_pile)

    def reshuffle(self):
        """Refill the empty draw pile now, as a blind draw would first (docs/rules.rst,
        A round, 5): the discard pile but its top card, shuffled with the state's
        generator, becomes the draw pile. ``ValueError`` unless the draw pile is empty
        and the discard pile holds more than its top card. (The OpenSpiel state calls it
        before the chance node of a blind draw, whose outcomes are then the new pile.)"""
        if self.T.n_draw or self.T.n_pile < 2:
            raise ValueError(f"cannot reshuffle: the draw pile holds {self.T.n_draw} "
                             f"cards and the discard pile {self.T.n_pile}; expected 0 and "
                             f"at least 2")
        bits = self.rng.bit_generator
        self.T.rng = bitgen_of(bits)
        try:
            with bits.lock:
                reshuffle(&self.T)
        finally:
            self.T.rng = NULL

    cdef int take(self, bint from_pile) except -1:
        """:meth:`draw`'s move: the card type drawn."""
        cdef int code = draw_code(&self.T, from_pile)
        if code:
            raise ValueError(f"illegal draw (check code {code})")
        if from_pile or self.T.n_draw:
            draw_from(&self.T, from_pile)
            return self.T.drawn
        bits = self.rng.bit_generator
        self.T.rng = bitgen_of(bits)
        try:
            with bits.lock:
                draw_from(&self.T, False)
        finally:
            self.T.rng = NULL
        return self.T.drawn

    def draw(self, bint from_pile):
        """Draw for the current player; ``(card type, reshuffled)``. ``ValueError``
        unless :meth:`check_draw` allows it."""
        cdef int before = self.T.reshuffles
        cdef int t = self.take(from_pile)
        return t, self.T.reshuffles != before

    cpdef int check_discard(self, int t, bint go_out):
        """0 if the current player may discard card type ``t`` now (going out if
        ``go_out``), else the code of why not (see ``CHECK_CODES``)."""
        check_type(t)
        return discard_code(&self.T, t, go_out)

    cdef bint put(self, int t, bint go_out) except -1:
        """:meth:`discard`'s move."""
        check_type(t)
        cdef int code = discard_code(&self.T, t, go_out)
        if code:
            raise ValueError(f"illegal discard (check code {code})")
        discard_card(&self.T, t, go_out)
        return self.T.phase == OVER

    def discard(self, int t, bint go_out):
        """Discard ``t`` (going out if ``go_out``), ending the turn; True if that ended
        the round. ``ValueError`` unless :meth:`check_discard` allows it."""
        return self.put(t, go_out)

    def play(self, int action, list history):
        """Make the move of action code ``action``: append its events to ``history`` and
        return its record, or None if it ended the round. See the twin's."""
        cdef int p = self.T.current, t, before = self.T.reshuffles
        cdef bint out
        if 0 <= action < 2:
            t = self.take(action)
            if self.T.reshuffles != before:
                history.append(_RESHUFFLE_EVENT)
            history.append((<tuple>_TAKE_EVENTS[p])[t] if action else _BLIND_EVENTS[p])
            return _make_record(_DrawRecord, {
                "player": p, "source": _SOURCE_OF[action], "card": _CARD_OF[t],
                "turn": self.T.turn, "reshuffled": self.T.reshuffles != before})
        if not 2 <= action < 114:
            raise ValueError(f"an action code must be 0..113, got {action}")
        out = action >= 58
        t = action - (58 if out else 2)
        over = self.put(t, out)
        history.append((<tuple>(_OUT_EVENTS if out else _DISCARD_EVENTS)[p])[t])
        if over:
            return None
        return _make_record(_DiscardRecord, {
            "player": p, "card": _CARD_OF[t], "go_out": out, "turn": self.T.turn - 1,
            "round_over": False, "result": None})

    @property
    def drawn(self):
        """The card type the current player drew this turn, or -1 (none, or not known)."""
        return self.T.drawn

    def set_drawn(self, int t):
        """Say which card type the current player drew this turn (-1: not known):
        ``ValueError`` unless the round is in its discard phase and the player holds
        one."""
        if t != -1:
            check_type(t)
            if self.T.phase != DISCARD or not self.T.hands[self.T.current][t]:
                raise ValueError(f"the current player cannot have drawn card type {t}: "
                                 f"not in the discard phase, or not in their hand")
        self.T.drawn = t

    def deadwood_without(self, int t):
        """The current player's deadwood after discarding one ``t`` (which they hold)."""
        check_type(t)
        cdef uint8_t* row = self.T.hands[self.T.current]
        if not row[t]:
            raise ValueError(f"player {self.T.current} holds no card of type {t}")
        row[t] -= 1
        cdef int dead = solve_deadwood(row, self.T.wild)
        row[t] += 1
        return dead

    def legal_actions(self):
        """The legal action codes (``fivecrowns.actions``), ascending."""
        cdef int codes[114]
        cdef int n = legal_codes(&self.T, codes), k
        return [codes[k] for k in range(n)]

    def legal_mask(self):
        """A new (114,) bool array, True for each legal action code."""
        cdef int codes[114]
        cdef int n = legal_codes(&self.T, codes), k
        cdef bytearray data = bytearray(114)
        for k in range(n):
            data[codes[k]] = 1
        return np.frombuffer(data, np.bool_)

    cpdef int must_keep(self):
        """The card type the current player may not discard now, or -1."""
        return must_keep(&self.T)

    # -- fields --

    @property
    def n_players(self):
        return self.T.n_players

    @property
    def hand_size(self):
        return self.T.hand_size

    @property
    def wild(self):
        return self.T.wild

    @property
    def decks(self):
        return self.T.decks

    @property
    def max_turns(self):
        return self.T.max_turns

    @property
    def return_discard(self):
        return not self.T.no_return

    @property
    def sudden_death(self):
        return bool(self.T.sudden_death)

    @property
    def current(self):
        return self.T.current

    @property
    def phase(self):
        return self.T.phase

    @property
    def turn(self):
        return self.T.turn

    @property
    def taken(self):
        """The card type the current player just took from the discard pile, when the
        rules keep it in hand (-1: none)."""
        return self.T.taken

    @property
    def went_out(self):
        return self.T.went_out

    @property
    def final_left(self):
        return self.T.final_left

    @property
    def hit_max_turns(self):
        return bool(self.T.hit_max_turns)

    @property
    def reshuffles(self):
        return self.T.reshuffles

    @property
    def n_draw(self):
        return self.T.n_draw

    @property
    def n_pile(self):
        return self.T.n_pile

    @property
    def top_discard(self):
        return self.T.pile[self.T.n_pile - 1] if self.T.n_pile else -1

    @property
    def can_draw(self):
        return bool(deck_drawable(&self.T))

    @property
    def scores(self):
        cdef int q
        return [self.T.scores[q] for q in range(self.T.n_players)]

    # -- read access --

    def hand(self, int player):
        """A copy of ``player``'s hand, (56,) uint8 counts."""
        return np.frombuffer(bytearray(self.hand_bytes(player)), _uint8)

    def hand_bytes(self, int player):
        """``player``'s hand as 56 bytes of counts."""
        if not 0 <= player < self.T.n_players:
            raise ValueError(f"player must be a seat 0..{self.T.n_players - 1}, got {player}")
        return (<char*>self.T.hands[player])[:N_TYPES]

    def hands(self):
        """A copy of every hand, (n_players, 56) uint8."""
        return np.frombuffer(bytearray((<char*>self.T.hands)[:self.T.n_players * N_TYPES]),
                             _uint8).reshape(self.T.n_players, N_TYPES)

    def draw_pile(self):
        """The draw pile's card types, top card first."""
        cdef int k
        return [self.T.draw[k] for k in range(self.T.n_draw - 1, -1, -1)]

    def discard_pile(self):
        """The discard pile's card types, bottom card first."""
        cdef int k
        return [self.T.pile[k] for k in range(self.T.n_pile)]

    def draw_counts(self):
        cdef int counts[N_TYPES]
        cdef int k
        memset(counts, 0, sizeof(counts))
        for k in range(self.T.n_draw):
            counts[self.T.draw[k]] += 1
        return counts_array(counts, N_TYPES)

    def pile_counts(self):
        """The discard pile's counts, (56,) uint8."""
        return counts_array(self.T.pile_counts, N_TYPES)

    def hidden_counts(self):
        """The whole deck less the discard pile and every player's taken cards."""
        return counts_array(self.T.hidden, N_TYPES)

    def taken_counts(self):
        """For each player, the cards seen taken from the discard pile and not discarded
        since: (n_players, 56) uint8."""
        return counts_array(&self.T.taken_counts[0][0],
                            self.T.n_players * N_TYPES).reshape(self.T.n_players, N_TYPES)

    def public_bytes(self):
        """``(pile_counts, hidden_counts, taken_counts)`` as bytes of uint8 counts."""
        cdef bytearray pile = bytearray(N_TYPES), hidden = bytearray(N_TYPES)
        cdef bytearray taken = bytearray(self.T.n_players * N_TYPES)
        cdef int t, q
        for t in range(N_TYPES):
            pile[t] = <uint8_t>self.T.pile_counts[t]
            hidden[t] = <uint8_t>self.T.hidden[t]
        for q in range(self.T.n_players):
            for t in range(N_TYPES):
                taken[q * N_TYPES + t] = <uint8_t>self.T.taken_counts[q][t]
        return bytes(pile), bytes(hidden), bytes(taken)

    def unseen(self, int player):
        """``PublicState.unseen``: the cards whose place ``player`` cannot know."""
        cdef int counts[N_TYPES]
        if not 0 <= player < self.T.n_players:
            raise ValueError(f"player must be a seat 0..{self.T.n_players - 1}, got {player}")
        unseen_of(&self.T, player, counts)
        return counts_array(counts, N_TYPES)

    # -- what a sampled world replaces (Round.determinize) --

    def set_hand(self, int player, row):
        """Replace ``player``'s hand by ``row`` (56 counts) holding the cards it is known
        to hold; the caller keeps the cards conserved."""
        if not 0 <= player < self.T.n_players:
            raise ValueError(f"player must be a seat 0..{self.T.n_players - 1}, got {player}")
        counts = np.ascontiguousarray(row, dtype=np.int64)
        if counts.shape != (N_TYPES,):
            raise ValueError(f"a hand must be 56 counts of at most {STATE_MAX_HAND} cards")
        # read through a typed view: the checks cost no Python call per card type
        cdef const int64_t[::1] view = counts
        cdef int64_t total = 0
        cdef int t
        for t in range(N_TYPES):
            if view[t] < 0:
                total = STATE_MAX_HAND + 1
                break
            total += view[t]
        if total > STATE_MAX_HAND:
            raise ValueError(f"a hand must be 56 counts of at most {STATE_MAX_HAND} cards")
        for t in range(N_TYPES):
            if view[t] < self.T.taken_counts[player][t] \
                    or view[t] > full_count(t, self.T.decks):
                raise ValueError(f"card type {t}: {view[t]} copies in player {player}'s "
                                 f"hand, known to hold {self.T.taken_counts[player][t]}")
        for t in range(N_TYPES):
            self.T.hands[player][t] = <uint8_t>view[t]

    def set_draw_pile(self, cards):
        """Replace the draw pile by ``cards`` (card types, top card first)."""
        types = _types(cards, "draw_pile")
        cdef int n = len(types), k
        cdef int counts[N_TYPES]
        memset(counts, 0, sizeof(counts))
        for k in range(n):
            counts[types[k]] += 1
            if counts[types[k]] > full_count(types[k], self.T.decks):
                raise ValueError(f"the draw pile holds more cards of type {types[k]} than "
                                 f"the deck")
        for k in range(n):
            self.T.draw[n - 1 - k] = <uint8_t>types[k]
        self.T.n_draw = n

    def set_rng(self, rng):
        """Use ``rng`` (a numpy Generator) for the reshuffles from now on."""
        self._rng = _generator(rng)
        self._snapshot = None
        self.raw_kind = None

    @property
    def rng(self):
        """The generator of the reshuffles (a copy's, built from its snapshot when first
        asked for)."""
        if self._rng is None:
            # Building it may run another thread (a garbage collection in between): the
            # snapshot is read once, and a generator that thread built first is kept,
            # so that the state never reshuffles with two generators.
            kind, snapshot = self.raw_kind, self._snapshot
            built = _from_raw(kind, self.raw) if kind is not None else _from_snapshot(snapshot)
            if self._rng is None:
                self._rng = built
                self.raw_kind = self._snapshot = None
        return self._rng

    # -- copies and pickles --

    cpdef RoundState copy(self):
        """An independent copy, its generator in the same state as this one's."""
        cdef RoundState new = RoundState.__new__(RoundState)
        memcpy(&new.T, &self.T, sizeof(Table))
        if self._rng is None:
            new._snapshot = self._snapshot
            new.raw_kind = self.raw_kind
            memcpy(new.raw, self.raw, PCG_RAW)
            return new
        bits = self._rng.bit_generator
        kind = type(bits)
        if _RAW_KINDS is not None and kind in _RAW_KINDS:
            take_raw(bits, new.raw)
            new.raw_kind = kind
        else:
            new._snapshot = _snapshot(self._rng)
        return new

    cpdef RoundState copy_with(self, rng):
        """A copy that reshuffles with ``rng`` (shared, not copied)."""
        cdef RoundState new = RoundState.__new__(RoundState)
        memcpy(&new.T, &self.T, sizeof(Table))
        new._rng = _generator(rng)
        return new

    def copy_at(self, list history not None, bint share_rng=False):
        """``(copy, list(history))`` of one moment: see the twin's."""
        cdef RoundState new
        cdef list events
        while True:
            # Each move changes the table and appends to its history in one C call, which
            # no other thread interrupts (it holds the GIL). The copy reads the two in
            # separate steps, and the allocations between them may run a garbage
            # collection, and so another thread: a move meanwhile has lengthened the
            # history, and the copy is made again.
            events = history[:]
            if share_rng and self._rng is not None:
                new = self.copy_with(self._rng)
            else:
                new = self.copy()
            if len(history) == len(events):
                return new, events

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        if self._rng is None:
            return self.copy()
        return self.copy_with(_deepcopy_rng(self._rng, memo))

    def fields(self):
        """Everything, as plain values: what :meth:`from_fields` takes (and what a pickle
        holds): the same values from either twin."""
        return (self.T.n_players, self.T.hand_size, self.T.wild, self.T.decks,
                self.T.max_turns, not self.T.no_return, bool(self.T.sudden_death),
                bytes(self.hands().tobytes()), self.public_bytes(), self.draw_pile(),
                self.discard_pile(), self.T.current, self.T.phase, self.T.turn,
                self.T.taken, self.T.went_out, self.T.final_left, self.scores,
                bool(self.T.hit_max_turns), self.T.reshuffles, self.T.drawn, self.rng, None)

    @staticmethod
    def from_fields(fields):
        """The state :meth:`fields` gave."""
        (n, hand_size, wild, decks, max_turns, return_discard, sudden_death, hands,
         public, draw, pile, current, phase, turn, taken, went_out, final_left, scores,
         hit, reshuffles, drawn, rng, snapshot) = _checked_fields(fields)
        rows = np.frombuffer(hands, _uint8).reshape(n, N_TYPES)
        taken_rows = np.frombuffer(public[2], _uint8).reshape(n, N_TYPES)
        cdef RoundState s = RoundState.from_state(
            rows, draw, pile, taken_rows, wild, hand_size, decks, max_turns,
            return_discard, sudden_death, current, phase, turn, taken, went_out,
            final_left, scores, reshuffles, rng if rng is not None else _ANY_RNG)
        s.T.hit_max_turns = hit
        s.set_drawn(drawn)
        if rng is None:
            s._rng = None
            s._snapshot = snapshot
        return s

    def __reduce__(self):
        return RoundState.from_fields, (self.fields(),)

    def __repr__(self):
        return (f"RoundState(players={self.T.n_players}, turn={self.T.turn}, "
                f"current={self.T.current}, phase={self.T.phase}, draw={self.T.n_draw}, "
                f"discard={self.T.n_pile})")


cdef void fill_rules(Table* T, int n_players, int hand_size, int wild, int decks,
                     int max_turns, bint return_discard, bint sudden_death) noexcept nogil:
    T.n_players = n_players
    T.hand_size = hand_size
    T.wild = wild
    T.decks = decks
    T.max_turns = max_turns
    T.no_return = not return_discard
    T.sudden_death = sudden_death


cdef void fill_start(Table* T, int current) noexcept nogil:
    """The state of a round's first turn but the cards (deal's last lines)."""
    cdef int i
    T.current = current
    T.phase = DRAW
    T.turn = 0
    T.taken = -1
    T.drawn = -1
    T.went_out = -1
    T.final_left = 0
    T.hit_max_turns = False
    T.reshuffles = 0
    for i in range(MAX_PLAYERS):
        T.scores[i] = -1
        T.kept_dead[i] = -1
    T.chosen_card = NO_CHOICE


cdef int check_type(int t) except -1:
    if not 0 <= t < N_TYPES:
        raise ValueError(f"a card type must be 0..55, got {t}")
    return 0


from ._state_py import (  # noqa: E402 (the Python helpers both twins share)
    _ANY_RNG,
    _ANY_SEED,
    _check_state,
    _check_table,
    _checked_fields,
    TURN_LIMIT,
    _deepcopy_rng,
    _from_snapshot,
    _generator,
    _snapshot,
    _types,
)


def _bit_generator(rng):
    return _generator(rng).bit_generator


# -- generators' snapshots ------------------------------------------------------------

cdef int take_raw(bits, uint8_t* raw) except -1:
    """Copy the C state of ``bits`` (a PCG64 or PCG64DXSM) into ``raw``."""
    cdef fc_pcg64_state* st = <fc_pcg64_state*>bitgen_of(bits).state
    memcpy(raw, st.pcg_state, PCG_STATE)
    memcpy(raw + PCG_STATE, &st.has_uint32, 4)
    memcpy(raw + PCG_STATE + 4, &st.uinteger, 4)
    return 0


cdef object _from_raw(kind, const uint8_t* raw):
    """A new generator of bit generator type ``kind`` in the C state ``raw``."""
    bits = kind(_ANY_SEED)
    cdef fc_pcg64_state* st = <fc_pcg64_state*>bitgen_of(bits).state
    memcpy(st.pcg_state, raw, PCG_STATE)
    memcpy(&st.has_uint32, raw + PCG_STATE, 4)
    memcpy(&st.uinteger, raw + PCG_STATE + 4, 4)
    return np.random.Generator(bits)


def _raw_kinds():
    """The bit generator types whose C state a copy takes as is: PCG64 and PCG64DXSM,
    once a round trip through :func:`take_raw` and :func:`_from_raw` is checked to give
    the very state numpy reports (else none, and copies take ``bits.state``)."""
    cdef uint8_t raw[PCG_RAW]
    kinds = (np.random.PCG64, np.random.PCG64DXSM)
    if int(np.__version__.split(".")[0]) >= 3:  # a layout not checked yet
        return None
    try:
        for kind in kinds:
            g = np.random.Generator(kind(20261126))
            g.integers(0, 10, dtype=np.uint32)  # leaves half a draw: has_uint32 set
            want = g.bit_generator.state
            take_raw(g.bit_generator, raw)
            g.random(3)
            if _from_raw(kind, raw).bit_generator.state != want:
                return None
    except Exception:
        return None
    return kinds


_RAW_KINDS = _raw_kinds()


# -- records: the per-move results of RoundState.play ------------------------------------

from . import records as _records  # noqa: E402
from .actions import _CARDS, Source  # noqa: E402

# Typed once: a module's Python globals are looked up by name at every use.
cdef object _DrawRecord = _records.DrawRecord, _DiscardRecord = _records.DiscardRecord
cdef object _RESHUFFLE_EVENT = _records._RESHUFFLE_EVENT
cdef tuple _TAKE_EVENTS = _records._TAKE_EVENTS, _DISCARD_EVENTS = _records._DISCARD_EVENTS
cdef tuple _OUT_EVENTS = _records._OUT_EVENTS, _BLIND_EVENTS = _records._BLIND_EVENTS
cdef tuple _SOURCE_OF = (Source.DECK, Source.DISCARD), _CARD_OF = _CARDS


cdef extern from "Python.h":
    int PyObject_GenericSetDict(object o, object value, void* context) except -1


cdef object _new_object = object.__new__


cdef object _make_record(cls, dict fields):
    """A frozen dataclass ``cls`` holding ``fields`` (every field, in order) as
    ``records._new_record`` makes it: its ``__init__`` would set each field through
    ``object.__setattr__``, and every move makes a record."""
    rec = _new_object(cls)
    PyObject_GenericSetDict(rec, fields, NULL)
    return rec


# -- envs.encoding of a round's state ------------------------------------------------------

include "_vecgames.pxi"


def encode_state(RoundState state, int player, float[::1] out, int round_number, totals):
    """``envs.encoding.encode_observation(round.observation(player))`` into ``out``
    (``192 + 60 * n_players`` float32) straight from the state: the same numbers, without
    making the observation. ``round_number`` -1: none (a tie-break round); ``totals``
    the round's ``totals`` (or None)."""
    cdef Table* T = &state.T
    cdef int n = T.n_players, q
    cdef int64_t[MAX_PLAYERS] sums
    cdef const int64_t* given = NULL
    if not 0 <= player < n:
        raise ValueError(f"player must be a seat 0..{n - 1}, got {player}")
    if out.shape[0] != 192 + 60 * n:
        raise ValueError(f"out must hold {192 + 60 * n} values, got {out.shape[0]}")
    if not (round_number == -1 or 1 <= round_number <= N_RANKS):
        raise ValueError(f"round_number must be 1..11 or -1, got {round_number}")
    if totals is not None:
        if len(totals) != n:
            raise ValueError(f"totals must hold {n} values, got {len(totals)}")
        for q in range(n):
            sums[q] = totals[q]
        given = sums
    encode_table(T, player, &out[0], round_number, given)
