"""The engine of fivecrowns.envs.vector, compiled: many games, each of one learner's seat
against compiled bots (or of learners in every seat: self-play), stepped together without
the GIL (``VectorGames``), and a round's observation encoded straight from its table
(``encode_table``, ``encode_state``: ``envs.encoding``).

The games play on the round state's ``Table`` and the game state's ``GameCore``, the
opponents by the built-in policies (``_round_state.pxd``, ``_game_state.pxd``,
``_policies.pxd``). The Python twin is the pure-Python route of envs/vector.py, where
each game is an envs.gym.FiveCrownsEnv (or an envs._self_play.SelfPlayGame): the
specification, which tests/test_envs_vector.py checks the two against decision by
decision.
"""

from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t, uintptr_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport calloc, free
from numpy.random cimport bitgen_t

from ._game_state cimport (
    G_OVER,
    GameCore,
    game_deal,
    game_end_round,
    game_init,
    game_round_number,
)
from ._policies cimport (
    EXPERT,
    GREEDY,
    N_FEATURES,
    RANDOM_BOT,
    STRONG,
    note_features,
    random_bounded_uint64_fill,
    step,
)
from ._round_state cimport (
    C_OK,
    DISCARD,
    DRAW,
    MAX_PLAYERS,
    N_RANKS,
    N_TYPES,
    OVER,
    RoundState,
    Table,
    apply_action,
    bitgen_of,
    discard_code,
    draw_code,
    legal_codes,
    must_keep,
    table_max_turns,
    unseen_of,
)

import numpy as np


cdef extern from "_episode_seeds.h" nogil:
    # An episode's generators derived from the run's seed as NumPy derives them (the
    # header says how): no Python when a game's episode ends.
    ctypedef struct fc_u128:
        uint64_t hi
        uint64_t lo
    ctypedef struct fc_pcg64:
        fc_u128 state
        fc_u128 inc
        int has_uint32
        uint32_t uinteger
    uint64_t fc_pcg64_next64(void* st)
    uint32_t fc_pcg64_next32(void* st)
    double fc_pcg64_next_double(void* st)
    void fc_pcg64_seed(fc_pcg64* g, uint64_t seed)
    uint64_t fc_episode_seed(const uint32_t* run, int n_run, uint64_t i, uint64_t k)
    int FC_MAX_RUN_WORDS

cdef struct VecGame:
    Table T                            # the round in play
    GameCore game                      # the game around it: plan, dealers, totals
    int64_t start_totals[MAX_PLAYERS]  # the round's Round.totals: the totals at its deal
    int turns                          # the learner's turns (discards) this episode
    int64_t steps                      # this episode's steps
    bint begun                         # an episode was dealt: the table holds a round
    int seat                           # the learner's seat; -1: every seat is a learner's
    int32_t policies[MAX_PLAYERS]      # each seat's bot; a learner's seat: -1
    bitgen_t* choices[MAX_PLAYERS]     # an opponent RandomBot's generator, else NULL
    # the next episode's generators, given before they are needed (VectorGames.provide),
    # or derived here from the run's seed when it begins (VectorGames.seed)
    bint has_next
    bitgen_t* next_rng
    bitgen_t* next_choices[MAX_PLAYERS]
    int64_t index                      # the game's number, and the episode that begins next
    int64_t episode
    fc_pcg64 gens[MAX_PLAYERS + 1]     # derived: the game's, then each seat's RandomBot's
    bitgen_t bits[MAX_PLAYERS + 1]     # the same as the engine reads generators


cdef struct VecConfig:
    int n_players
    int decks
    int max_turns                      # Rules.max_turns, as a table holds it
    bint no_return
    int n_rounds
    int8_t plan[N_RANKS]
    int agent_turns                    # truncate after this many learner turns (0: never)
    int64_t max_steps                  # truncate after this many steps (0: never)
    int size                           # the observation vector's length
    int base                           # where the solver features start (features)
    bint features                      # append the solver features (envs.features)
    const float* scale                 # its scale (normalize), or NULL
    const uint32_t* run                # the run's seed as SeedSequence's words, or NULL
    int n_run


cdef enum:
    VEC_ILLEGAL_REWARD = -100          # envs._common.ILLEGAL_REWARD
    VEC_NO_ACTION = -1


cdef void encode_table(const Table* T, int player, float* out, int round_number,
                       const int64_t* totals) noexcept nogil:
    """``envs.encoding.encode_observation(round.observation(player))`` into ``out``
    (``192 + 60 * n_players`` values) straight from the table; ``round_number`` -1: none
    (a tie-break round); ``totals`` the round's ``Round.totals``, or NULL for none."""
    cdef int n = T.n_players, t, i, q, at, grown, phase, own
    cdef int unseen[N_TYPES]
    memset(out, 0, (192 + 60 * n) * sizeof(float))
    for t in range(N_TYPES):
        out[t] = T.hands[player][t]
        out[112 + t] = T.pile_counts[t]
    if T.n_pile > 0:
        out[56 + T.pile[T.n_pile - 1]] = 1.0
    unseen_of(T, player, unseen)
    for t in range(N_TYPES):
        out[168 + t] = unseen[t]
    grown = T.current if T.phase == DISCARD else -1  # holds one card more
    at = 224
    for i in range(1, n):  # the opponents in play order: hand size, cards seen taken
        q = (player + i) % n
        out[at] = T.hand_size + 1 if q == grown else T.hand_size
        for t in range(N_TYPES):
            out[at + 1 + t] = T.taken_counts[q][t]
        at += 57
    out[at] = T.n_draw
    at += 1
    if round_number > 0:
        out[at + round_number - 1] = 1.0
    at += N_RANKS   # the rounds 1..11
    out[at + T.wild - 3] = 1.0
    at += N_RANKS
    out[at + (T.current - player + n) % n] = 1.0
    at += n
    phase = -1 if T.phase == OVER else T.phase
    if phase >= 0:
        out[at + phase] = 1.0
    at += 2
    if T.went_out >= 0 and T.phase != OVER:
        out[at] = 1.0
    at += 1
    if T.went_out >= 0:
        out[at + (T.went_out - player + n) % n] = 1.0
    at += n
    if totals != NULL:
        own = <int>totals[player]
        for i in range(1, n):
            out[at] = <float>(<double>(totals[(player + i) % n] - own))
            at += 1


cdef bint vec_legal(Table* T, int64_t code) noexcept nogil:
    """Whether ``code`` is a legal action now (``Round.legal_action_mask()[code]``)."""
    if code < 0 or code >= 114:
        return False
    if code < 2:
        return draw_code(T, code == 1) == C_OK
    if code < 58:
        return discard_code(T, <int>code - 2, False) == C_OK
    return discard_code(T, <int>code - 58, True) == C_OK


cdef void vec_deal(const VecConfig* C, VecGame* G) noexcept nogil:
    """``Game``'s next round, dealt."""
    cdef int q
    game_deal(&G.game, &G.T, C.decks, C.max_turns, C.no_return)
    for q in range(C.n_players):
        G.start_totals[q] = G.game.totals[q]


cdef void vec_bots(const VecConfig* C, VecGame* G, double* rewards) noexcept nogil:
    """``FiveCrownsEnv._play_bots``, with ``Game``'s round ends: the bots move until it is
    a learner's turn or the game is over; each seat's reward meanwhile is taken from
    ``rewards[seat]`` (minus its score of each round that ended)."""
    cdef Table* T = &G.T
    cdef int q
    while True:
        if T.phase == OVER:
            for q in range(C.n_players):
                rewards[q] -= T.scores[q]
            if game_end_round(&G.game, T.scores, T.went_out) == G_OVER:
                return  # the last round stays the game's round, as in Game
            vec_deal(C, G)
            continue
        if G.policies[T.current] < 0:
            return
        T.choices = G.choices[T.current]
        step(T, G.policies[T.current])


cdef inline void set_bits(bitgen_t* bits, fc_pcg64* rng) noexcept nogil:
    """``bits`` reads ``rng`` as NumPy's ``PCG64`` reads its state."""
    bits.state = rng
    bits.next_uint64 = fc_pcg64_next64
    bits.next_uint32 = fc_pcg64_next32
    bits.next_double = fc_pcg64_next_double
    bits.next_raw = fc_pcg64_next64


cdef void vec_derive(const VecConfig* C, VecGame* G) noexcept nogil:
    """``CompiledGames.provide(i, env.episode_seed(i, k))`` for the game's next episode k:
    ``FiveCrownsEnv.reset``'s generators from the episode's seed (``new_seed`` draws the
    game's seed, then one per opponent in seat order, a RandomBot's kept)."""
    cdef fc_pcg64 env_rng
    cdef bitgen_t env_bits
    cdef uint64_t drawn
    cdef int q
    fc_pcg64_seed(&env_rng, fc_episode_seed(C.run, C.n_run, <uint64_t>G.index,
                                            <uint64_t>G.episode))
    set_bits(&env_bits, &env_rng)
    # new_seed: Generator.integers(0, 2**63 - 1)
    random_bounded_uint64_fill(&env_bits, 0, (<uint64_t>1 << 63) - 2, 1, False, &drawn)
    fc_pcg64_seed(&G.gens[0], drawn)
    G.next_rng = &G.bits[0]
    for q in range(MAX_PLAYERS):
        G.next_choices[q] = NULL
    for q in range(C.n_players):
        if G.policies[q] < 0:
            continue
        random_bounded_uint64_fill(&env_bits, 0, (<uint64_t>1 << 63) - 2, 1, False, &drawn)
        if G.policies[q] == RANDOM_BOT:
            fc_pcg64_seed(&G.gens[1 + q], drawn)
            G.next_choices[q] = &G.bits[1 + q]
    G.has_next = True
    G.episode += 1


cdef void vec_begin(const VecConfig* C, VecGame* G) noexcept nogil:
    """``FiveCrownsEnv.reset``: the next episode's game, its bots moved to the learner's
    first turn (no round can end before it)."""
    cdef int q
    cdef double rewards[MAX_PLAYERS]
    if not G.has_next and C.run != NULL:
        vec_derive(C, G)
    G.T.rng = G.next_rng
    for q in range(MAX_PLAYERS):
        G.choices[q] = G.next_choices[q]
    G.has_next = False
    G.begun = True
    memset(rewards, 0, sizeof(rewards))
    game_init(&G.game, C.n_players, C.plan, C.n_rounds, 0, False)
    G.turns = 0
    G.steps = 0
    vec_deal(C, G)
    vec_bots(C, G, rewards)


cdef void vec_observe(const VecConfig* C, const VecGame* G, int seat, float* out,
                      int8_t* mask) noexcept nogil:
    """``FiveCrownsEnv._obs``: ``seat``'s vector (scaled) and legal actions."""
    cdef int codes[114]
    cdef int unseen[N_TYPES]
    cdef int n, j, kept
    encode_table(&G.T, seat, out, game_round_number(&G.game), G.start_totals)
    if C.features:
        # the learner's view: the discard view in its discard phase, else the draw view
        kept = must_keep(&G.T) if G.T.phase == DISCARD else -1
        unseen_of(&G.T, seat, unseen)
        note_features(<Table*>&G.T, seat, kept, unseen, out + C.base)
    if C.scale != NULL:
        for j in range(C.size):
            out[j] *= C.scale[j]
    memset(mask, 0, 114)
    if G.game.stage != G_OVER:
        n = legal_codes(<Table*>&G.T, codes)
        for j in range(n):
            mask[codes[j]] = 1


cdef inline int vec_seat(const VecGame* G) noexcept nogil:
    """Whose observation the game gives now: the learner's, or in self-play the seat to
    move."""
    return G.seat if G.seat >= 0 else G.T.current


cdef bint vec_play(const VecConfig* C, VecGame* G, int64_t action, double* seat_rewards,
                   uint8_t* term, uint8_t* trunc, int32_t* illegal) noexcept nogil:
    """``FiveCrownsEnv.step`` and the vector env's time limit, before any auto-reset: the
    seat to move plays ``action`` and the bots after it; ``seat_rewards`` (a value per
    seat) what the step gave each seat; whether the episode ended (``term``, ``trunc``);
    ``illegal`` the action if it was illegal (the episode ends), else VEC_NO_ACTION.
    Returns whether the action was legal."""
    cdef Table* T = &G.T
    cdef bint was_draw, legal = vec_legal(T, action)
    cdef int q, who = vec_seat(G)
    for q in range(C.n_players):
        seat_rewards[q] = 0.0
    term[0] = False
    trunc[0] = False
    illegal[0] = VEC_NO_ACTION
    if legal:
        was_draw = T.phase == DRAW
        apply_action(T, <int>action)
        if not was_draw:
            G.turns += 1
        vec_bots(C, G, seat_rewards)
        term[0] = G.game.stage == G_OVER
        trunc[0] = C.agent_turns > 0 and G.turns >= C.agent_turns and G.game.stage != G_OVER
    else:
        seat_rewards[who] = VEC_ILLEGAL_REWARD
        term[0] = True
        illegal[0] = <int32_t>action
    G.steps += 1
    if C.max_steps > 0 and G.steps >= C.max_steps:
        trunc[0] = True
    return legal


cdef void vec_step(const VecConfig* C, VecGame* G, int64_t action, float* obs, int8_t* mask,
                   double* reward, double* seat_rewards, uint8_t* term, uint8_t* trunc,
                   int32_t* illegal, int32_t* actor, int64_t* seat, float* final_obs,
                   int8_t* final_mask, uint8_t* ended, int64_t* totals) noexcept nogil:
    """``vec_play`` and the vector env's auto-reset: ``actor`` who moved, ``reward`` its
    reward; ``seat`` whose observation ``obs`` is; ``totals`` the game's totals after the
    step (those of the episode that ended, if one did)."""
    cdef int q, who = vec_seat(G)
    actor[0] = who
    vec_play(C, G, action, seat_rewards, term, trunc, illegal)
    reward[0] = seat_rewards[who]
    ended[0] = False
    for q in range(C.n_players):
        totals[q] = G.game.totals[q]
    if term[0] or trunc[0]:
        vec_observe(C, G, who, final_obs, final_mask)
        ended[0] = True
        vec_begin(C, G)
    seat[0] = vec_seat(G)
    vec_observe(C, G, seat[0], obs, mask)


cdef class VectorGames:
    """The games of ``envs.vector.FiveCrownsVectorEnv`` where every opponent is a bot the
    engine plays (the compiled route): their tables, and the generators of their current
    and next episodes (given by :meth:`provide`, kept alive here).

    Every argument is checked here, once: the loops below trust them."""

    cdef VecGame* games
    cdef VecConfig C
    cdef readonly Py_ssize_t n
    cdef object _scale
    cdef object _run
    cdef list _held

    def __cinit__(self, Py_ssize_t n, int n_players, seats, policies, int decks,
                  max_turns, bint return_discard, rounds, int agent_turns,
                  int64_t max_steps, scale, bint features=False):
        cdef int q, k, largest = 0, seat
        cdef Py_ssize_t i
        cdef int32_t table[MAX_PLAYERS]
        if not 1 <= n <= (1 << 24):
            raise ValueError(f"n must be 1..{1 << 24}, got {n}")
        if not 2 <= n_players <= MAX_PLAYERS:
            raise ValueError(f"n_players must be 2..{MAX_PLAYERS}, got {n_players}")
        if len(seats) != n:
            raise ValueError(f"seats must hold {n} values, one per game, got {len(seats)}")
        self_play = len(policies) == 0
        if not self_play and len(policies) != n_players - 1:
            raise ValueError(f"policies must hold {n_players - 1} values (one per "
                             f"opponent), or none (self-play), got {len(policies)}")
        for p in policies:
            if type(p) is not int or p not in (GREEDY, STRONG, EXPERT, RANDOM_BOT):
                raise ValueError(f"an opponent's policy must be one of "
                                 f"{GREEDY, STRONG, EXPERT, RANDOM_BOT}, got {p!r}")
        for s in seats:
            if type(s) is not int:  # not even 1.5 or True: a C int would take them
                raise ValueError(f"a seat must be an int, got {s!r}")
            if not -1 <= s < n_players:
                raise ValueError(f"a seat must be 0..{n_players - 1}, got {s}")
            seat = s
            if self_play and seat != -1:
                raise ValueError(f"in self-play (no policies) every seat must be -1, "
                                 f"got {seat}")
            if not self_play and not 0 <= seat < n_players:
                raise ValueError(f"a seat must be 0..{n_players - 1}, got {seat}")
        if decks != 2 and decks != 4:
            raise ValueError(f"decks must be 2 or 4, got {decks}")
        if not 1 <= len(rounds) <= N_RANKS:
            raise ValueError(f"rounds must hold 1..{N_RANKS} round numbers, got {len(rounds)}")
        for k in range(len(rounds)):
            if not 1 <= rounds[k] <= N_RANKS:
                raise ValueError(f"a round number must be 1..{N_RANKS}, got {rounds[k]!r}")
            self.C.plan[k] = rounds[k]
            largest = max(largest, rounds[k])
        if n_players * (largest + 2) + 1 > 58 * decks:
            raise ValueError(f"{n_players} hands of {largest + 2} cards and a card turned "
                             f"up need more than {58 * decks} cards")
        if agent_turns < 0 or max_steps < 0:
            raise ValueError("agent_turns and max_steps must be >= 0 (0: no limit)")
        self.C.n_players = n_players
        self.C.decks = decks
        self.C.max_turns = table_max_turns(max_turns)
        self.C.no_return = not return_discard
        self.C.n_rounds = <int>len(rounds)
        self.C.agent_turns = agent_turns
        self.C.max_steps = max_steps
        self.C.base = 192 + 60 * n_players
        self.C.features = features
        self.C.size = self.C.base + (N_FEATURES if features else 0)
        self.C.scale = NULL
        self.C.run = NULL
        self.C.n_run = 0
        if scale is not None:
            self._scale = np.ascontiguousarray(scale, dtype=np.float32)
            if self._scale.shape != (self.C.size,):
                raise ValueError(f"scale must have shape ({self.C.size},), "
                                 f"got {self._scale.shape}")
            self.C.scale = <const float*><uintptr_t>self._scale.ctypes.data
        self.games = <VecGame*>calloc(n, sizeof(VecGame))
        if self.games == NULL:
            raise MemoryError(f"no room for {n} games")
        self.n = n
        self._held = [((), ()) for _ in range(n)]
        for i in range(n):
            # each game's seats: the learner's -1, the opponents' in seat order after it
            seat = seats[i]
            k = 0
            for q in range(n_players):
                if self_play or q == seat:
                    table[q] = -1
                else:
                    table[q] = policies[k]
                    k += 1
            self.games[i].seat = seat
            memcpy(self.games[i].policies, table, sizeof(table))
            self.games[i].index = i
            for k in range(MAX_PLAYERS + 1):
                set_bits(&self.games[i].bits[k], &self.games[i].gens[k])

    def __dealloc__(self):
        free(self.games)

    def __reduce__(self):
        raise TypeError("VectorGames cannot be pickled")

    @property
    def size(self):
        """The observation vector's length."""
        return self.C.size

    def provide(self, Py_ssize_t i, rng, choices):
        """Game ``i``'s next episode's generators: ``rng`` (a BitGenerator: every deal and
        reshuffle, ``Game``'s) and ``choices`` (one per seat: an opponent RandomBot's
        BitGenerator, else None)."""
        cdef VecGame* G = self.game_at(i)
        cdef int q
        if len(choices) != self.C.n_players:
            raise ValueError(f"choices must hold {self.C.n_players} values")
        cdef bitgen_t* game_rng
        cdef bitgen_t* bots[MAX_PLAYERS]
        choices = tuple(choices)
        # every argument checked before the game is touched: a refusal leaves the
        # generators it had, all of them still held
        game_rng = bitgen_of(rng)
        for q in range(MAX_PLAYERS):
            bots[q] = NULL
        for q in range(self.C.n_players):
            if (choices[q] is None) != (G.policies[q] != RANDOM_BOT):
                raise ValueError(f"seat {q}: a generator is needed for a RandomBot, and "
                                 f"only for it")
            if choices[q] is not None:
                bots[q] = bitgen_of(choices[q])
        begun = not G.has_next  # whether the generators given last are in use now
        G.next_rng = game_rng
        memcpy(G.next_choices, bots, sizeof(bots))
        G.has_next = True
        # Held here while C may use them: the episode's that began last (the generators
        # given last, if they began; else those before, which they replace unbegun)
        # and these.
        self._held[i] = (self._held[i][1] if begun else self._held[i][0], (rng, choices))

    cdef int check_shapes(self, float[:, ::1] obs, int8_t[:, ::1] masks) except -1:
        if obs.shape[0] != self.n or obs.shape[1] != self.C.size:
            raise ValueError(f"obs must have shape ({self.n}, {self.C.size})")
        if masks.shape[0] != self.n or masks.shape[1] != 114:
            raise ValueError(f"masks must have shape ({self.n}, 114)")
        return 0

    def seed(self, run_seed):
        """Derive every game's episodes from ``run_seed`` (an int >= 0: the vector env's
        seed), from episode 0 on: episode k of game i is dealt as
        ``provide(i, episode_seed(i, k))`` would deal it, in C when it begins. Generators
        given by :meth:`provide` and not yet begun are dropped."""
        cdef Py_ssize_t i
        if type(run_seed) is not int or run_seed < 0:
            raise ValueError(f"run_seed must be an int >= 0, got {run_seed!r}")
        words = []
        while True:  # SeedSequence's words of an int: little end first, one for 0
            words.append(run_seed & 0xFFFFFFFF)
            run_seed >>= 32
            if not run_seed:
                break
        if len(words) > FC_MAX_RUN_WORDS:
            raise ValueError(f"run_seed must be below 2**{32 * FC_MAX_RUN_WORDS}")
        self._run = np.array(words, dtype=np.uint32)
        self.C.run = <const uint32_t*><uintptr_t>self._run.ctypes.data
        self.C.n_run = <int>len(words)
        for i in range(self.n):
            self.games[i].episode = 0
            self.games[i].has_next = False

    cdef int check_ready(self, Py_ssize_t start, Py_ssize_t stop) except -1:
        """Games ``start..stop`` exist and each has its next episode's generators, or
        derives them (any of them may begin one)."""
        cdef Py_ssize_t i
        if not 0 <= start <= stop <= self.n:
            raise ValueError(f"games {start}..{stop} of {self.n}")
        if self.C.run != NULL:
            return 0
        for i in range(start, stop):
            if not self.games[i].has_next:
                raise RuntimeError(f"game {i} has no generators for its next episode")
        return 0

    cdef VecGame* game_at(self, Py_ssize_t i) except NULL:
        """Game ``i``, checked to be one of the games (``IndexError``)."""
        if not 0 <= i < self.n:
            raise IndexError(f"game {i} of {self.n}")
        return &self.games[i]

    cdef int check_begun(self, Py_ssize_t start, Py_ssize_t stop) except -1:
        """Games ``start..stop`` hold a dealt episode (a game never begun holds a zeroed
        table, which no move may read)."""
        cdef Py_ssize_t i
        for i in range(start, stop):
            if not self.games[i].begun:
                raise RuntimeError(f"game {i} has not begun: call begin() first")
        return 0

    def begin(self, float[:, ::1] obs, int8_t[:, ::1] masks, int64_t[::1] seats,
              Py_ssize_t start, Py_ssize_t stop):
        """Deal games ``start..stop`` their next episode; their first observations, and
        whose they are (``seats``)."""
        cdef Py_ssize_t i
        self.check_shapes(obs, masks)
        self.check_ready(start, stop)
        if seats.shape[0] != self.n:
            raise ValueError(f"seats must hold {self.n} values, got {seats.shape[0]}")
        with nogil:
            for i in range(start, stop):
                vec_begin(&self.C, &self.games[i])
                seats[i] = vec_seat(&self.games[i])
                vec_observe(&self.C, &self.games[i], <int>seats[i], &obs[i, 0],
                            &masks[i, 0])

    def step(self, const int64_t[::1] actions, float[:, ::1] obs, int8_t[:, ::1] masks,
             double[::1] rewards, double[:, ::1] seat_rewards, uint8_t[::1] terms,
             uint8_t[::1] truncs, int32_t[::1] illegal, int32_t[::1] actors,
             int64_t[::1] seats, float[:, ::1] final_obs, int8_t[:, ::1] final_masks,
             uint8_t[::1] ended, int64_t[:, ::1] totals, Py_ssize_t start, Py_ssize_t stop):
        """Step games ``start..stop`` with ``actions``; each output has a row per game
        (``actors``: who moved; ``seats``: whose observation ``obs`` is; ``totals``: as
        after the step, those of the episode that ended where one did)."""
        cdef Py_ssize_t i
        self.check_shapes(obs, masks)
        self.check_shapes(final_obs, final_masks)
        self.check_begun(start, stop)
        self.check_ready(start, stop)
        for name, length in (("actions", actions.shape[0]), ("rewards", rewards.shape[0]),
                             ("seat_rewards", seat_rewards.shape[0]),
                             ("terms", terms.shape[0]), ("truncs", truncs.shape[0]),
                             ("illegal", illegal.shape[0]), ("actors", actors.shape[0]),
                             ("seats", seats.shape[0]), ("ended", ended.shape[0]),
                             ("totals", totals.shape[0])):
            if length != self.n:
                raise ValueError(f"{name} must hold {self.n} values, got {length}")
        if totals.shape[1] != self.C.n_players or seat_rewards.shape[1] != self.C.n_players:
            raise ValueError(f"totals and seat_rewards must have {self.C.n_players} columns")
        with nogil:
            for i in range(start, stop):
                vec_step(&self.C, &self.games[i], actions[i], &obs[i, 0], &masks[i, 0],
                         &rewards[i], &seat_rewards[i, 0], &terms[i], &truncs[i],
                         &illegal[i], &actors[i], &seats[i], &final_obs[i, 0],
                         &final_masks[i, 0], &ended[i], &totals[i, 0])

    def totals(self, Py_ssize_t i):
        """Game ``i``'s running totals (``Game.totals``)."""
        cdef VecGame* G = self.game_at(i)
        return tuple([G.game.totals[q] for q in range(self.C.n_players)])

    cdef VecGame* single(self, Py_ssize_t i, float[::1] obs, int8_t[::1] mask) except NULL:
        """Game ``i``, its row buffers checked."""
        cdef VecGame* G = self.game_at(i)
        if obs.shape[0] != self.C.size or mask.shape[0] != 114:
            raise ValueError(f"obs and mask must have shapes ({self.C.size},) and (114,), "
                             f"got ({obs.shape[0]},) and ({mask.shape[0]},)")
        return G

    def begin_one(self, Py_ssize_t i, float[::1] obs not None, int8_t[::1] mask not None):
        """The single Gymnasium environment's ``reset``: game ``i`` dealt its next episode
        (from the generators given by :meth:`provide`) and its bots moved; its first
        observation written to ``obs`` and ``mask``."""
        cdef VecGame* G = self.single(i, obs, mask)
        self.check_ready(i, i + 1)
        vec_begin(&self.C, G)
        vec_observe(&self.C, G, vec_seat(G), &obs[0], &mask[0])

    def play_one(self, Py_ssize_t i, int64_t action, float[::1] obs not None,
                 int8_t[::1] mask not None):
        """The single Gymnasium environment's ``step``: game ``i``'s seat to move plays
        ``action`` (an illegal one ends the episode) and its bots move after it, no
        auto-reset; the next observation written to ``obs`` and ``mask``. Returns
        ``(reward, terminated, truncated, illegal)``, ``illegal`` whether the action was
        illegal. Once the game is over, only :meth:`begin_one` goes on (a
        truncated episode or an illegal action does not end the game: it may go on, as
        ``FiveCrownsEnv`` lets it)."""
        cdef VecGame* G = self.single(i, obs, mask)
        cdef double rewards[MAX_PLAYERS]
        cdef uint8_t term, trunc
        cdef int32_t illegal
        cdef int who
        cdef bint legal
        self.check_begun(i, i + 1)
        if G.game.stage == G_OVER:
            raise RuntimeError("the episode is over: call reset()")
        who = vec_seat(G)
        legal = vec_play(&self.C, G, action, rewards, &term, &trunc, &illegal)
        vec_observe(&self.C, G, vec_seat(G), &obs[0], &mask[0])
        return rewards[who], term != 0, trunc != 0, not legal


def _episode_seed(run_seed, uint64_t i, uint64_t k):
    """``FiveCrownsVectorEnv.episode_seed(i, k)`` of a run seeded ``run_seed``, as the
    engine derives it (for the tests, which compare it with NumPy's)."""
    cdef VectorGames g = VectorGames(1, 2, [0], [GREEDY], 2, 100, False, [1], 0, 0, None)
    g.seed(run_seed)
    return fc_episode_seed(g.C.run, g.C.n_run, i, k)


def _pcg64_raw(uint64_t seed, Py_ssize_t n, bint halves=False):
    """``n`` outputs of the engine's own PCG64 seeded as ``numpy.random.PCG64(seed)``:
    64-bit ones, or with ``halves`` 32-bit ones (NumPy's ``next_uint32``), for the tests."""
    cdef fc_pcg64 g
    fc_pcg64_seed(&g, seed)
    if halves:
        return [fc_pcg64_next32(&g) for _ in range(n)]
    return [fc_pcg64_next64(&g) for _ in range(n)]


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
