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

One compiled module, its source in parts read in order (``include``, so calls between
them stay inlined): this file (the table, the deck, the moves), ``_rollout_policies.pxi``
(the four policies and the draw tables' memo), ``_rollout_playouts.pxi`` (rounds played
to the end, sampled worlds), ``_rollout_games.pxi`` (whole games, random hands, decision
recording), ``_rollout_state.pxi`` (``RoundState``, generators' snapshots, records) and
``_vecgames.pxi`` (the vector environment's games). Its C lives in headers:
``_draw_memo.h``, ``_prefetch.h``, ``_pcg_state.h``, ``_episode_seeds.h``.
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

from . import _game_state_py as _game_py
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


include "_game_state.pxi"
include "_rollout_policies.pxi"
include "_rollout_playouts.pxi"
include "_rollout_games.pxi"
include "_rollout_state.pxi"


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
