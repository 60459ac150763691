"""The engine's runs, compiled: rounds played to the end by policies (``play_rounds``), a
search's sampled worlds (``play_worlds``), whole games by policy (``play_games``), whole
games of built-in bots with their moves (``_logged_games_range``), random hands
(``deal_hands``) and every decision of whole games noted for learning
(``_decisions_range``), without the GIL and split over threads.

The rounds are the round state's ``Table`` (``_round_state.pxd``), the games its
``GameCore`` (``_game_state.pxd``), the moves the built-in policies'
(``_policies.pxd``). The Python twin is ``fivecrowns._engine_py``: the same rounds, games
and totals on the same seeds (``play_worlds`` samples the same distribution, not the
same worlds). Entry points are private: ``fivecrowns.rollout``, ``fivecrowns.decisions``,
``fivecrowns.dealing`` and the built-in bots' game route check their inputs and call
them; only the states, which C reads, are checked here again.
"""

from libc.math cimport exp
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport free, malloc
from numpy.random cimport bitgen_t

from ._game_state cimport (
    G_OVER,
    GameCore,
    game_deal,
    game_dealer,
    game_end_round,
    game_init,
    game_players,
    game_seat,
)
from ._policies cimport (
    EXPERT,
    GREEDY,
    N_FEATURES,
    RANDOM,
    RANDOM_BOT,
    STRONG,
    card_value,
    is_wild,
    note_features,
    play,
    random_bounded_uint64_fill,
    play_seated,
    step,
)
from ._round_state cimport (
    DISCARD,
    MAX_DECK,
    MAX_PLAYERS,
    N_TYPES,
    OVER,
    RoundState,
    Table,
    apply_action,
    bitgen_of,
    dealt,
    legal_codes,
    load,
    must_keep,
    permute,
    table_max_turns,
    unseen_of,
)
from ._solver_core cimport (
    best_discard_search,
    solve_deadwood,
)

import numpy as np

from . import _round_state
from ._threads import run_threaded

# 0.4's pickles of a round name its compiled state fivecrowns._rollout.RoundState (the
# name is cimported here, so the module's attribute is set by hand).
globals()["RoundState"] = _round_state.RoundState

# -- playing to the end -------------------------------------------------------------------

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
                  int opponents, const int32_t[::1] last_discard, const int32_t[::1] last_kept,
                  double discard_weight, int tries, const int32_t[::1] blind, int cap,
                  int32_t[:, :, ::1] out, uint8_t[:, :, ::1] world_hands,
                  uint8_t[:, ::1] world_draws, Py_ssize_t start, Py_ssize_t stop):
    cdef Table base, world, T
    cdef bitgen_t rng
    cdef uint64_t state, sampled
    cdef Py_ssize_t w
    cdef int a, q, attempt
    cdef int32_t seats[MAX_PLAYERS]  # each seat's policy in the play-outs
    cdef bint keep = world_hands is not None
    for q in range(MAX_PLAYERS):
        seats[q] = policy if q == player else opponents
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
                    play_seated(&T, seats)
                for q in range(T.n_players):
                    out[w, a, q] = T.scores[q]


def play_worlds(RoundState state not None, int player, actions, Py_ssize_t worlds,
                uint64_t seed, int policy, int opponents, int threads, last_discard,
                last_kept, double discard_weight, int tries, blind, int cap,
                world_hands=None, world_draws=None):
    """Scores, (worlds, len(actions), n_players) int32, of one round state (only read)
    resampled from ``player``'s view ``worlds`` times, each action applied and played
    out, ``player`` by ``policy`` and every other seat by ``opponents``.
    ``fivecrowns.rollout.play_worlds`` checks that the round is not over, the player is
    the current one and every action is legal now.

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
    if policy not in (GREEDY, STRONG, EXPERT) or opponents not in (GREEDY, STRONG, EXPERT) \
            or tries < 1 or cap < 0 or worlds < 0:
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
    run_threaded(lambda a, b: _worlds_range(state, player, actions, seed, policy, opponents,
                                            last_discard, last_kept, discard_weight, tries,
                                            blind, cap, out, world_hands, world_draws, a, b),
                 worlds, threads,
                 # the dearer of the two (the codes rise with a policy's cost)
                 _worlds_per_piece(max(policy, opponents), len(actions)))
    return out


def _worlds_per_piece(int policy, Py_ssize_t n_actions):
    """Worlds per piece of work: about a tenth of a second of play-outs (a Ctrl-C is
    seen between pieces; a world's generator depends on its index alone, so the pieces
    change no answer)."""
    cdef Py_ssize_t play_outs = 64 if policy == EXPERT else 512 if policy == STRONG else 4096
    return max(1, play_outs // max(1, n_actions))


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
    cdef GameCore G
    cdef int k, q
    game_init(&G, n_players, rounds, n_rounds, first_dealer, False)
    T.rng = rng
    T.choices = choices
    for q in range(n_players):
        totals[q] = 0
    while G.stage != G_OVER:
        k = G.k
        game_deal(&G, &T, decks, max_turns, no_return)
        if noting == NULL:
            play_seated(&T, policies)
        elif not play_noted(&T, policies, noting, k, totals):
            return False
        if noting != NULL:
            for q in range(n_players):
                noting.round_scores[k * n_players + q] = T.scores[q]
        game_end_round(&G, T.scores, T.went_out)
        for q in range(n_players):
            totals[q] = G.totals[q]
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
# whether max_turns stopped it, its turns, reshuffles and dealer, its number of moves,
# then each player's score. A game without a tie-break round leaves its last row as it was
# given (zeros): the game state, not the log, says which rounds were played.
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


cdef void deal_logged(const GameCore* G, Table* T, int decks, int max_turns,
                      bint no_return) noexcept nogil:
    """``game_deal``, keeping the game's growing trace across the deal (which clears it)."""
    cdef int16_t* trace = T.trace
    cdef int room = T.trace_room, n = T.n_trace
    cdef bint grows = T.trace_grows
    game_deal(G, T, decks, max_turns, no_return)
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
    ``policies[q]``) on the game state: ``T.rng`` deals every round and shuffles every
    reshuffle; each round (and the tie-break round, when ``tie_break`` and the lowest
    total is shared) is logged in a row of ``log`` (``N_LOG`` columns, ``n_rounds + 1``
    rows); the moves go to ``T``'s trace. The tie-break round numbers the tied seats
    0.. in seat order, as ``Game`` does. Returns the rounds played."""
    cdef GameCore G
    cdef int32_t local[MAX_PLAYERS]
    cdef bitgen_t* local_choices[MAX_PLAYERS]
    cdef int q, row = 0
    game_init(&G, n_players, rounds, n_rounds, first_dealer, tie_break)
    while True:
        for q in range(game_players(&G)):
            local[q] = policies[game_seat(&G, q)]
            local_choices[q] = choices[game_seat(&G, q)]
        deal_logged(&G, T, decks, max_turns, no_return)
        play_logged_round(T, local, local_choices, game_dealer(&G), log + row * N_LOG,
                          NULL if hands == NULL else hands + row * MAX_PLAYERS * N_TYPES)
        row += 1
        if game_end_round(&G, T.scores, T.went_out) == G_OVER:
            return row


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
