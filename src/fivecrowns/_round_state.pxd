# The round state's C level, for the engine's other modules to cimport: the ``Table`` (a
# round in play), its moves and the compiled ``RoundState`` that wraps it. Defined in
# _round_state.pyx; its Python twin is fivecrowns._state_py. The inline functions below are
# compiled into every module that cimports them (a call per move stays a plain C call).

from libc.stdint cimport int16_t, int32_t, int64_t, uint8_t, uint64_t
from cpython.pycapsule cimport PyCapsule_GetPointer
from numpy.random cimport bitgen_t

cdef enum:
    N_TYPES = 56
    N_RANKS = 11
    JOKER = 55
    MAX_PLAYERS = 14
    MAX_DECK = 232     # party mode
    NO_CHOICE = -1
    STATE_MAX_HAND = 20  # the largest hand a state holds (_checks.MAX_HAND_SIZE)

# The phases of records.Phase.
cdef enum:
    DRAW = 0
    DISCARD = 1
    OVER = 2

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


cdef extern from "_pcg_state.h":
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


cdef void permute(bitgen_t* rng, int n, int* out) noexcept nogil
cdef void deal(Table* T, int n_players, int hand_size, int wild, int decks, int max_turns,
               bint no_return, int dealer) noexcept nogil
cdef void reshuffle(Table* T) noexcept nogil
cdef void grow_trace(Table* T) noexcept nogil
cdef void draw_from(Table* T, bint from_pile) noexcept nogil
cdef void finish(Table* T, bint hit_max_turns) noexcept nogil
cdef void discard_card(Table* T, int t, bint go_out) noexcept nogil
cdef int full_count(int t, int decks) noexcept nogil
cdef int discard_code(Table* T, int t, bint go_out) noexcept nogil
cdef int legal_codes(Table* T, int* out) noexcept nogil
cdef object counts_array(const int* counts, int n)
cdef void fill_rules(Table* T, int n_players, int hand_size, int wild, int decks,
                     int max_turns, bint return_discard, bint sudden_death) noexcept nogil
cdef void fill_start(Table* T, int current) noexcept nogil
cdef int check_type(int t) except -1
cdef int take_raw(bits, uint8_t* raw) except -1
cdef object _from_raw(kind, const uint8_t* raw)
cdef object _make_record(cls, dict fields)
cdef void unseen_of(const Table* T, int p, int* out) noexcept nogil
cdef void load(Table* T, const Table* src) noexcept nogil
cdef bint dealt(const Table* T) noexcept nogil
cdef void apply_action(Table* T, int code) noexcept nogil
cdef int table_max_turns(object max_turns) except -1


cdef class RoundState:
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
    cdef int take(self, bint from_pile) except -1
    cdef bint put(self, int t, bint go_out) except -1
    cdef int move(self, int action, list history) except -1
    cpdef int check_draw(self, bint from_pile)
    cpdef int check_discard(self, int t, bint go_out)
    cpdef int must_keep(self)
    cpdef RoundState copy(self)
    cpdef RoundState copy_with(self, rng)


cdef inline bitgen_t* bitgen_of(object bit_generator) except NULL:
    """The C struct of a numpy BitGenerator (which must stay alive while it is used)."""
    return <bitgen_t*>PyCapsule_GetPointer(bit_generator.capsule, "BitGenerator")


cdef inline bint deck_drawable(const Table* T) noexcept nogil:
    """``Deck.can_draw``."""
    return T.n_draw > 0 or T.n_pile > 1


# -- moves: round.Round ------------------------------------------------------------------


cdef inline int must_keep(const Table* T) noexcept nogil:
    """``Round._kept``: the type that may not be discarded now, or -1."""
    if T.taken < 0 or T.hands[T.current][T.taken] == T.hand_size + 1:
        return -1
    return T.taken


cdef inline int draw_code(const Table* T, bint from_pile) noexcept nogil:
    if T.phase == OVER:
        return C_OVER
    if T.phase != DRAW:
        return C_DRAWN
    if from_pile:
        return C_OK if T.n_pile > 0 else C_PILE_EMPTY
    return C_OK if deck_drawable(T) else C_DECK_EMPTY
