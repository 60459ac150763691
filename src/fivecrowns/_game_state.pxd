# A game's state between its rounds, at the C level, for the engine's game loops
# (``_rollout``, ``_vecgames``) to cimport. Defined in _game_state.pyx; its Python twin is
# fivecrowns._game_state_py.

from libc.stdint cimport int8_t, int64_t

from ._round_state cimport MAX_PLAYERS, Table

cdef enum:
    G_ROUND = 0
    G_TIE_BREAK = 1
    G_OVER = 2
    TIE_BREAK_SIZE = 6         # _game_state_py.TIE_BREAK_HAND_SIZE


cdef struct GameCore:
    int n_players
    const int8_t* plan          # the round numbers; its owner keeps them alive
    int n_rounds
    int first_dealer
    bint tie_break
    int k                       # rounds of the plan ended
    int stage
    int64_t totals[MAX_PLAYERS]
    int n_tied                  # the tie-break's seats, once dealt (0: none)
    int tied[MAX_PLAYERS]
    int n_winners               # 0 until the game is over
    int winners[MAX_PLAYERS]


cdef void game_init(GameCore* G, int n_players, const int8_t* plan, int n_rounds,
                    int first_dealer, bint tie_break) noexcept nogil
cdef int game_dealer(const GameCore* G) noexcept nogil
cdef int game_end_round(GameCore* G, const int* scores, int went_out) noexcept nogil
cdef void game_deal(const GameCore* G, Table* T, int decks, int max_turns,
                    bint no_return) noexcept nogil
cdef tuple game_fields(const GameCore* G, bytes plan)


cdef class GameState:
    cdef GameCore G
    cdef bytes _plan            # owns G.plan
    cdef void _adopt(self, tuple f)


cdef inline int game_players(const GameCore* G) noexcept nogil:
    """The players of the round in play."""
    return G.n_tied if G.n_tied else G.n_players


cdef inline int game_seat(const GameCore* G, int local) noexcept nogil:
    return G.tied[local] if G.n_tied else local


cdef inline int game_planned(const GameCore* G) noexcept nogil:
    """The index in the plan of the round in play, or of the plan's last round once the
    plan is played (the tie-break, or the game over)."""
    return G.k if G.k < G.n_rounds else G.n_rounds - 1


cdef inline int game_hand_size(const GameCore* G) noexcept nogil:
    """Its cards a player, and its wild rank."""
    return TIE_BREAK_SIZE if G.n_tied else G.plan[game_planned(G)] + 2


cdef inline int game_round_number(const GameCore* G) noexcept nogil:
    """Its number, -1 in the tie-break."""
    return -1 if G.n_tied else G.plan[game_planned(G)]
