"""One round's state and its moves, compiled: the ``Table`` (a round in play: ``Round``'s
fields, the deck's two piles and the policies' memory), ``deal``, ``draw_from``,
``discard_card``, ``reshuffle`` and ``finish``, and ``RoundState``, the Python object over
it that ``fivecrowns.round.Round`` keeps its state in.

Its twin is ``fivecrowns._state_py`` (the specification of a turn's rules, citing
docs/rules.rst): the same methods, the same answers, the same refusals. Randomness is
numpy's own: a shuffle is ``Generator.permutation(n)`` (``arange(n)``, then for i from
n - 1 down to 1 swap i with ``random_interval(bitgen, i)``), run on the generator's bit
generator through its capsule, so the generator ends in the same state. Hands are rows
of 56 counts and the meld questions go to the solver core (``_solver_core.pxd``). The other
compiled modules of the engine (``_game_state``, ``_policies``, ``_rollout``,
``_vecgames``) cimport the table and its moves from ``_round_state.pxd``.
"""

from libc.stdint cimport int16_t, int64_t, uint8_t, uint64_t
from libc.string cimport memcpy, memset
from libc.stdlib cimport realloc
from numpy.random cimport bitgen_t
from numpy.random.c_distributions cimport random_interval

from ._solver_core cimport best_discard_search, solve_deadwood

import numpy as np

CHECK_CODES = {"OK": C_OK, "OVER": C_OVER, "DRAWN": C_DRAWN, "UNDRAWN": C_UNDRAWN,
               "PILE_EMPTY": C_PILE_EMPTY, "DECK_EMPTY": C_DECK_EMPTY,
               "NOT_HELD": C_NOT_HELD, "MUST_KEEP": C_MUST_KEEP, "NOT_OUT": C_NOT_OUT}


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

cdef int full_count(int t, int decks) noexcept nogil:
    return 3 * decks if t == JOKER else decks


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

    cdef int move(self, int action, list history) except -1:
        """:meth:`play`'s move and events, without the record: for a draw the card type
        drawn, for a discard 1 if it ended the round, else 0."""
        cdef int p = self.T.current, t, before = self.T.reshuffles
        cdef bint out
        if 0 <= action < 2:
            t = self.take(action)
            if self.T.reshuffles != before:
                history.append(_RESHUFFLE_EVENT)
            history.append((<tuple>_TAKE_EVENTS[p])[t] if action else _BLIND_EVENTS[p])
            return t
        if not 2 <= action < 114:
            raise ValueError(f"an action code must be 0..113, got {action}")
        out = action >= 58
        t = action - (58 if out else 2)
        over = self.put(t, out)
        history.append((<tuple>(_OUT_EVENTS if out else _DISCARD_EVENTS)[p])[t])
        return over

    def play(self, int action, list history):
        """Make the move of action code ``action``: append its events to ``history`` and
        return its record, or None if it ended the round. See the twin's."""
        cdef int p = self.T.current, before = self.T.reshuffles
        cdef int done = self.move(action, history)
        cdef bint out
        if action < 2:
            return _make_record(_DrawRecord, {
                "player": p, "source": _SOURCE_OF[action], "card": _CARD_OF[done],
                "turn": self.T.turn, "reshuffled": self.T.reshuffles != before})
        if done:
            return None
        out = action >= 58
        return _make_record(_DiscardRecord, {
            "player": p, "card": _CARD_OF[action - (58 if out else 2)], "go_out": out,
            "turn": self.T.turn - 1, "round_over": False, "result": None})

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

from . import _move_records as _moves  # noqa: E402
from . import records as _records  # noqa: E402
from ._checks import MAX_HAND_SIZE as _MAX_HAND_SIZE  # noqa: E402
from .actions import _CARDS, Source  # noqa: E402

if STATE_MAX_HAND != _MAX_HAND_SIZE:
    # the Table's rows and the checks of both twins must agree on the largest hand
    raise ImportError(f"fivecrowns._round_state: STATE_MAX_HAND {STATE_MAX_HAND} is not "
                      f"_checks.MAX_HAND_SIZE {_MAX_HAND_SIZE}")
# Typed once: a module's Python globals are looked up by name at every use.
cdef object _DrawRecord = _records.DrawRecord, _DiscardRecord = _records.DiscardRecord
cdef object _RESHUFFLE_EVENT = _moves.RESHUFFLE_EVENT
cdef tuple _TAKE_EVENTS = _moves.TAKE_EVENTS, _DISCARD_EVENTS = _moves.DISCARD_EVENTS
cdef tuple _OUT_EVENTS = _moves.OUT_EVENTS, _BLIND_EVENTS = _moves.BLIND_EVENTS
cdef tuple _SOURCE_OF = (Source.DECK, Source.DISCARD), _CARD_OF = _CARDS


cdef extern from "Python.h":
    int PyObject_GenericSetDict(object o, object value, void* context) except -1


cdef object _new_object = object.__new__


cdef object _make_record(cls, dict fields):
    """A frozen dataclass ``cls`` holding ``fields`` (every field, in order) as
    ``_move_records.new_record`` makes it: its ``__init__`` would set each field through
    ``object.__setattr__``, and every move makes a record."""
    rec = _new_object(cls)
    PyObject_GenericSetDict(rec, fields, NULL)
    return rec


cdef void unseen_of(const Table* T, int p, int* out) noexcept nogil:
    """``PublicState.unseen``: the deck less ``p``'s hand, the pile and the other players'
    taken cards."""
    cdef int t
    for t in range(N_TYPES):
        out[t] = T.hidden[t] - T.hands[p][t] + T.taken_counts[p][t]


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


cdef void apply_action(Table* T, int code) noexcept nogil:
    """``Round.apply_action`` (the move is legal: ``fivecrowns.rollout`` checked it)."""
    if code < 2:
        draw_from(T, code == 1)
    elif code < 58:
        discard_card(T, code - 2, False)
    else:
        discard_card(T, code - 58, True)


cdef int table_max_turns(object max_turns) except -1:
    """``Rules.max_turns`` as a table holds it, a C int: past ``TURN_LIMIT`` the same rule
    as ``TURN_LIMIT`` (as ``Round`` takes it: no round gets near either)."""
    if max_turns < 1:
        raise ValueError(f"max_turns must be at least 1, got {max_turns}")
    return <int>min(max_turns, TURN_LIMIT)
