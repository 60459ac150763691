"""A game's state between its rounds, compiled: the plan of rounds, the dealer passing left,
the running totals, the tie-break round and the winners (``GameCore``), written once for
every game loop of the engine (``_rollout``'s ``play_logged_game`` and
``play_game_seated``, ``_vecgames``' games) and for ``GameState``, the compiled twin of
``fivecrowns._game_state_py.GameState`` (read that module for the rules: this one gives
the same answers and, through its checks, the same refusals).
"""

from libc.stdint cimport int8_t, int64_t

from ._round_state cimport MAX_PLAYERS, Table, deal

from . import _game_state_py as _game_py

cdef void game_init(GameCore* G, int n_players, const int8_t* plan, int n_rounds,
                    int first_dealer, bint tie_break) noexcept nogil:
    """``GameState(n_players, plan, first_dealer, tie_break)``; the caller checked them."""
    cdef int q
    G.n_players = n_players
    G.plan = plan
    G.n_rounds = n_rounds
    G.first_dealer = first_dealer
    G.tie_break = tie_break
    G.k = 0
    G.stage = G_ROUND
    for q in range(MAX_PLAYERS):
        G.totals[q] = 0
    G.n_tied = 0
    G.n_winners = 0


cdef int game_dealer(const GameCore* G) noexcept nogil:
    """Its dealer, by local number."""
    cdef int i, first = 0, key, best = -1, n = G.n_players, next_dealer
    if not G.n_tied:
        return (G.first_dealer + game_planned(G)) % n
    next_dealer = (G.first_dealer + G.n_rounds) % n
    for i in range(G.n_tied):
        # the first tied seat clockwise from the next dealer's left plays first
        key = ((G.tied[i] - next_dealer - 1) % n + n) % n
        if best < 0 or key < best:
            best = key
            first = i
    return (first - 1 + G.n_tied) % G.n_tied


cdef int game_end_round(GameCore* G, const int* scores, int went_out) noexcept nogil:
    """``GameState.end_round``: ``scores`` by local number (checked by the caller, as
    ``went_out``); returns the new stage."""
    cdef int q, n = G.n_players
    cdef int64_t best
    if G.stage == G_TIE_BREAK:
        if went_out >= 0:
            G.winners[0] = G.tied[went_out]
            G.n_winners = 1
        else:
            for q in range(G.n_tied):
                G.winners[q] = G.tied[q]
            G.n_winners = G.n_tied
        G.stage = G_OVER
        return G_OVER
    for q in range(n):
        G.totals[q] += scores[q]
    G.k += 1
    if G.k < G.n_rounds:
        return G_ROUND
    best = G.totals[0]
    for q in range(n):
        if G.totals[q] < best:
            best = G.totals[q]
    G.n_winners = 0
    for q in range(n):
        if G.totals[q] == best:
            G.winners[G.n_winners] = q
            G.n_winners += 1
    if G.n_winners > 1 and G.tie_break:
        for q in range(G.n_winners):
            G.tied[q] = G.winners[q]
        G.n_tied = G.n_winners
        G.n_winners = 0
        G.stage = G_TIE_BREAK
        return G_TIE_BREAK
    G.stage = G_OVER
    return G_OVER


cdef void game_deal(const GameCore* G, Table* T, int decks, int max_turns,
                    bint no_return) noexcept nogil:
    """``Round(...)`` of the round in play: dealt from ``T.rng``."""
    cdef int size = game_hand_size(G)
    deal(T, game_players(G), size, size, decks, max_turns, no_return, game_dealer(G))
    T.sudden_death = G.n_tied > 0


cdef tuple game_fields(const GameCore* G, bytes plan):
    return (G.n_players, tuple(plan), G.first_dealer, bool(G.tie_break), G.k,
            tuple([G.totals[q] for q in range(G.n_players)]), G.stage,
            tuple([G.tied[q] for q in range(G.n_tied)]),
            tuple([G.winners[q] for q in range(G.n_winners)]))


cdef class GameState:
    """``fivecrowns._game_state_py.GameState`` (the specification: same signatures, same
    values, same errors) over the engine's C game state."""

    def __init__(self, n_players, plan, first_dealer=0, tie_break=False):
        # the checks are the twin's, so that both refuse the same arguments the same way
        n, plan, first, tie = _game_py._checked_args(n_players, plan, first_dealer,
                                                     tie_break)
        self._adopt((n, plan, first, tie, 0, (0,) * n, G_ROUND, (), ()))

    cdef void _adopt(self, tuple f):
        cdef int q
        self._plan = bytes(f[1])
        game_init(&self.G, f[0], <const int8_t*><const char*>self._plan, len(f[1]), f[2],
                  f[3])
        self.G.k = f[4]
        for q in range(self.G.n_players):
            self.G.totals[q] = f[5][q]
        self.G.stage = f[6]
        self.G.n_tied = len(f[7])
        for q in range(self.G.n_tied):
            self.G.tied[q] = f[7][q]
        self.G.n_winners = len(f[8])
        for q in range(self.G.n_winners):
            self.G.winners[q] = f[8][q]

    @property
    def n_players(self):
        return self.G.n_players

    @property
    def plan(self):
        return tuple(self._plan)

    @property
    def first_dealer(self):
        return self.G.first_dealer

    @property
    def tie_break(self):
        return bool(self.G.tie_break)

    @property
    def stage(self):
        return self.G.stage

    @property
    def is_over(self):
        return self.G.stage == G_OVER

    @property
    def k(self):
        return self.G.k

    @property
    def totals(self):
        return tuple([self.G.totals[q] for q in range(self.G.n_players)])

    @property
    def winners(self):
        return tuple([self.G.winners[q] for q in range(self.G.n_winners)])

    @property
    def tie_break_seats(self):
        return tuple([self.G.tied[q] for q in range(self.G.n_tied)])

    @property
    def seats(self):
        return tuple([game_seat(&self.G, q) for q in range(game_players(&self.G))])

    @property
    def dealer(self):
        return game_dealer(&self.G)

    @property
    def round_number(self):
        cdef int r = game_round_number(&self.G)
        return None if r < 0 else r

    @property
    def hand_size(self):
        return game_hand_size(&self.G)

    @property
    def wild(self):
        return game_hand_size(&self.G)

    @property
    def sudden_death(self):
        return self.G.n_tied > 0

    def round_totals(self):
        return tuple([self.G.totals[game_seat(&self.G, q)]
                      for q in range(game_players(&self.G))])

    def end_round(self, scores, went_out):
        cdef int pts[MAX_PLAYERS]
        cdef int q, m = game_players(&self.G)
        cdef tuple checked
        if self.G.stage == G_OVER:
            raise ValueError("the game is over: no round is in play")
        checked = _game_py._round_end(scores, went_out, m)
        for q in range(m):
            pts[q] = checked[0][q]
        return game_end_round(&self.G, pts, checked[1])

    def copy(self):
        cdef GameState new = GameState.__new__(GameState)
        new._plan = self._plan
        new.G = self.G
        new.G.plan = <const int8_t*><const char*>new._plan
        return new

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def fields(self):
        return game_fields(&self.G, self._plan)

    @classmethod
    def from_fields(cls, fields):
        cdef GameState g = GameState.__new__(GameState)
        g._adopt(_game_py._checked_fields(fields))
        return g

    def __reduce__(self):
        return _game_py.load, (self.fields(),)  # the twin in use loads it

    def __eq__(self, other):
        if not isinstance(other, (GameState, _game_py.GameState)):
            return NotImplemented
        return self.fields() == other.fields()  # either twin: equal by value

    __hash__ = None

    def __repr__(self):
        where = ("over" if self.G.stage == G_OVER else "tie-break"
                 if self.G.stage == G_TIE_BREAK else f"round={self.round_number}")
        return f"GameState(players={self.G.n_players}, {where}, totals={self.totals})"
