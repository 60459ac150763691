# Part of _rollout.pyx (included there: one compiled module, read in order).

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
