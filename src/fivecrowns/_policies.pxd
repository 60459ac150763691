# The built-in policies at the C level, for the engine's runs (``_rollout``) and the vector
# environment (``_vecgames``) to cimport: a move of the current player by a policy, whole
# rounds by policies, the solver features of a decision. Defined in _policies.pyx; their
# Python twins are the bots themselves (fivecrowns.bots, fivecrowns.expert) and the
# ``"random"`` policy of fivecrowns._engine_py.

from libc.stdint cimport int32_t, int64_t, uint8_t, uint64_t
from numpy.random cimport bitgen_t

from ._round_state cimport JOKER, N_RANKS, Table

# The policies, as fivecrowns.rollout numbers them.
cdef enum:
    GREEDY = 0
    RANDOM = 1
    STRONG = 2
    EXPERT = 3
    RANDOM_BOT = 4     # bots.RandomBot itself: Generator.integers on the bot's generator


# envs.features: the solver features' length and the places of the scalar ones.
cdef enum:
    N_FEATURES = 62
    F_TAKE = 56
    F_NOW = 57
    F_COMPLETE = 58
    F_IMPROVE = 59
    F_EXPECTED = 60
    F_VIEW = 61


cdef extern from "numpy/random/distributions.h":
    # What Generator.integers(low, high, size=n) runs for int64 (numpy's public C header;
    # the Cython declarations leave it out): n draws of [off, off + rng], Lemire's method.
    void random_bounded_uint64_fill(bitgen_t* bitgen_state, uint64_t off, uint64_t rng,
                                    Py_ssize_t cnt, bint use_masked,
                                    uint64_t* out) noexcept nogil


cdef void step(Table* T, int policy) noexcept nogil
cdef void play(Table* T, int policy) noexcept nogil
cdef void play_seated(Table* T, const int32_t* policies) noexcept nogil
cdef void note_features(Table* T, int p, int kept, const int* unseen,
                        float* out) noexcept nogil
cdef int check_policy(policy, choices) except -1


cdef inline int card_value(int t, int wild) noexcept nogil:
    """``cards.card_value``: 50 for a joker, 20 for a wild-rank card, else the rank."""
    if t == JOKER:
        return 50
    if t % N_RANKS == wild - 3:
        return 20
    return t % N_RANKS + 3


cdef inline uint64_t integers(bitgen_t* rng, uint64_t n) noexcept nogil:
    """``Generator.integers(n)`` (an int ``n >= 1``): numpy's own C routine, which
    consumes nothing when ``n`` is 1."""
    cdef uint64_t out = 0
    random_bounded_uint64_fill(rng, 0, n - 1, 1, False, &out)
    return out


cdef inline bint is_wild(int t, int wild) noexcept nogil:
    """``Card.is_wild``."""
    return t == JOKER or t % N_RANKS == wild - 3
