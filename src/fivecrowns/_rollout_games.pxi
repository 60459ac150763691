# Part of _rollout.pyx (included there: one compiled module, read in order).

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
