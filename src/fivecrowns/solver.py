"""The public solver API: deadwood, partitions, best discards, draw tables, bulk scoring.

Every function takes a hand as a string (``"3C 4C JK"``), a sequence of cards or
card strings, or a row of 56 counts, and a wild rank 3..13 (an int, a
:class:`~fivecrowns.Rank` or a rank's name such as ``"K"``). ``decks=4`` admits
party-mode hands (4 copies of each card, 12 jokers). ``uint8`` rows of counts take the
fastest path.

The work is done by the compiled core (``fivecrowns._solver``) or, where it is not
built or ``FIVECROWNS_IMPLEMENTATION=python`` is set, by its pure-Python twin
(``fivecrowns._solver_py``); :data:`IMPLEMENTATION` says which, and
:func:`implementation` gives the same functions bound to either core.
:func:`use_implementation` runs this module's functions, and so everything built on them
(rounds, games, bots), through either core for the length of a ``with`` block.

Examples
--------
>>> import fivecrowns as fc
>>> fc.deadwood("5C 6C 7C 9D 9H", wild=13)
18
>>> fc.deadwood("5C 6C 7C 9D 9H JK", wild="K")
0
>>> d = fc.best_discard("3S 4S 5S KD KH 8C", wild=8)
>>> str(d.card), d.deadwood
('5S', 7)
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import os
import re
import sys
import types
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from typing import Any, Union

import numpy as np
import numpy.typing as npt

from . import _solver_py
from ._checks import (
    MAX_HAND_SIZE,
    available_cores,
    check_counts_array,
    check_decks,
    check_row,
    check_wild,
    check_wild_array,
    default_threads,
)
from ._layout import assemble as _assemble
from .cards import Card, HandLike, Rank, _to_counts
from .melds import Discard, Solution

__all__ = [
    "ImplementationError",
    "IMPLEMENTATION",
    "CORE_FUNCTIONS",
    "WildLike",
    "MAX_HAND_SIZE",
    "Implementation",
    "implementation",
    "use_implementation",
    "active_implementation",
    "solve",
    "deadwood",
    "best_discard",
    "discard_deadwood",
    "can_go_out",
    "draw_table",
    "deadwood_many",
    "discard_deadwood_many",
    "hand_counts",
]

#: A wild rank: 3..13 as an int or numpy integer, a :class:`~fivecrowns.Rank`, or a
#: rank's name (``"K"``, ``"10"``).
WildLike = Union[int, Rank, str]

#: The names the two cores share; ``_solver_py`` documents each of them.
CORE_FUNCTIONS = ("deadwood_row", "plan_row", "best_discard_row", "discard_deadwood_row",
                  "draw_table_row", "deadwood_many", "discard_deadwood_many")

# The figure is the README's main job on the twins: 20 of its games took 144 s (0.4).
_SLOW_WARNING = (
    "fivecrowns is running its pure-Python solver, some hundreds of times slower than the "
    "compiled core (`fivecrowns simulate`, 1,000 games, takes about 2 hours there instead "
    "of seconds), because fivecrowns._solver did not import ({why}). To get the compiled "
    "core, install a C compiler and reinstall fivecrowns (pip install --force-reinstall "
    "--no-cache-dir fivecrowns); install with FIVECROWNS_BUILD_EXTENSION=1 to make a failed "
    "build an error. Set FIVECROWNS_IMPLEMENTATION=python to choose the pure-Python solver "
    "without this warning."
)


class ImplementationError(ImportError):
    """``FIVECROWNS_IMPLEMENTATION`` asks for a core that cannot be had: a value other than
    ``compiled`` or ``python``, or ``compiled`` where the compiled core does not import.

    ``import fivecrowns`` raises it. The ``fivecrowns`` command (its script, ``python -m
    fivecrowns`` or ``python -m fivecrowns.cli``) imports the package before its ``main``
    runs, so the import reports it there instead: one line on standard error and exit
    status 2, as any other usage error of the command.
    """


def _is_the_command() -> bool:
    """True when this process is the ``fivecrowns`` command: its console script (named
    ``fivecrowns``, ``fivecrowns.exe`` or ``fivecrowns-script.py``, run as a script), or
    ``python -m fivecrowns`` or ``python -m fivecrowns.cli``."""
    argv = list(getattr(sys, "orig_argv", None) or [])
    if "-m" in argv[:-1] and argv[argv.index("-m") + 1] in ("fivecrowns", "fivecrowns.cli"):
        return True
    script = os.path.basename(sys.argv[0]) if sys.argv else ""
    script = re.sub(r"(-script\.pyw?|\.exe)$", "", script)
    main = sys.modules.get("__main__")
    return script == "fivecrowns" and getattr(main, "__spec__", None) is None


def _reported(error: ImplementationError) -> ImplementationError:
    """``error``, to raise; in the ``fivecrowns`` command, it is reported as one line and
    the process exits with status 2 (the command's usage errors), no traceback."""
    if _is_the_command():
        print(f"fivecrowns: error: {error}", file=sys.stderr)
        raise SystemExit(2)
    return error


def _load_core() -> tuple[Any, str]:
    wanted = os.environ.get("FIVECROWNS_IMPLEMENTATION", "").strip().lower()
    if wanted not in ("", "compiled", "python"):
        raise _reported(ImplementationError(f"FIVECROWNS_IMPLEMENTATION must be 'compiled' "
                                            f"or 'python' (or unset), got {wanted!r}"))
    if wanted == "python":
        return _solver_py, "python"
    try:
        from . import _solver
    except ImportError as exc:
        if wanted == "compiled":
            raise _reported(ImplementationError(
                f"FIVECROWNS_IMPLEMENTATION=compiled, but the compiled core did not import "
                f"({_why_not(exc)})")) from exc
        warnings.warn(_SLOW_WARNING.format(why=_why_not(exc)), RuntimeWarning, stacklevel=2)
        return _solver_py, "python"
    return _solver, "compiled"


def _why_not(exc: ImportError) -> str:
    """Why the compiled core did not import. A core that is not there at all is named so:
    inside the package's own import, Python reports it as "cannot import name ... (most
    likely due to a circular import)", which sends a user the wrong way."""
    name = f"{__package__}._solver"
    if importlib.util.find_spec(name) is None:
        return f"No module named {name!r}"
    return str(exc)


_core, _implementation = _load_core()
#: ``"compiled"`` when the Cython core was loaded at import, ``"python"`` for the
#: pure-Python twin: the core this module's functions use outside a
#: :func:`use_implementation` block.
IMPLEMENTATION: str = _implementation


def hand_counts(hand: HandLike | npt.NDArray[np.integer], *,
                decks: int = 2) -> npt.NDArray[np.uint8]:
    """A hand as a validated row of 56 ``uint8`` counts, one per card type.

    This is the one public way from a hand to the bulk encoding (index
    ``suit * 11 + rank - 3``, 55 for the joker).

    Parameters
    ----------
    hand : str, sequence of Card or str, or ndarray
        The cards; an array is a (56,) row of counts of any integer dtype.
    decks : int
        2, or 4 for party-mode hands.

    Raises
    ------
    HandError
        (a ``ValueError``) for more copies of a card than ``decks`` decks hold or more
        than :data:`MAX_HAND_SIZE` cards.

    Examples
    --------
    >>> hand_counts("3C 3C JK")[[0, 55]].tolist()
    [2, 1]
    """
    decks = check_decks(decks)
    if isinstance(hand, np.ndarray):
        check_counts_array(hand, 1, decks, values=False)
        row = _own_uint8(hand, 1, decks)
    else:
        row = _to_counts(hand)
    check_row(row, decks)
    return row


_UINT8 = np.dtype(np.uint8)
_NDARRAY = np.ndarray


def _row(hand: Any, decks: int) -> npt.NDArray[np.uint8]:
    # The fast path: a uint8 array goes straight to the core, which checks its shape,
    # counts and layout (and raises the same messages as hand_counts).
    if type(hand) is _NDARRAY and hand.dtype is _UINT8:
        return hand
    if isinstance(hand, np.ndarray):
        return hand_counts(hand, decks=decks)
    return _to_counts(hand)  # cards of the deck, in any number: the core checks copies


def deadwood(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *, decks: int = 2) -> int:
    """Least total value of the cards left out of melds.

    Parameters
    ----------
    hand : str, sequence of Card or str, or ndarray
        The cards; a (56,) ``uint8`` row of counts is fastest.
    wild : int, Rank or str
        The round's wild rank, 3..13, or its name (``"K"``).
    decks : int
        2, or 4 for party-mode hands.

    Examples
    --------
    >>> deadwood("KS KD KH KH", wild=3)
    0
    >>> deadwood("8S QS QT", wild=8)
    0
    >>> deadwood("3C 5D JK", wild=9)
    58
    """
    # _row's first test, inlined: bots call this in their loops, where the call to _row
    # is a visible share of the time of a call on a uint8 row.
    if type(hand) is not _NDARRAY or hand.dtype is not _UINT8:
        hand = _row(hand, decks)
    return _core.deadwood_row(hand, wild, decks)


def solve(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *,
          decks: int = 2) -> Solution:
    """An optimal partition of the hand into melds and leftover cards.

    Examples
    --------
    >>> s = solve("5C 7C JK 9D 9H 9S 4H", wild=13)
    >>> s.deadwood
    4
    >>> [m.describe(13, symbols=False) for m in s.melds]
    ['5C JK(6C) 7C', '9D 9H 9S']
    """
    row = _row(hand, decks)
    dead, runs, books = _core.plan_row(row, wild, decks)
    # The core has checked wild: only a Rank, a rank's name or a numpy int needs converting.
    return _assemble(row, wild if wild.__class__ is int else check_wild(wild), dead, runs,
                     books)


def best_discard(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *,
                 decks: int = 2) -> Discard:
    """The discard that leaves the least deadwood (docs/rules.rst, A round).

    The hand is the n + 1 cards held after drawing. Ties go to the highest-value card.

    Examples
    --------
    >>> d = best_discard("5C 6C 7C KD", wild=13)
    >>> str(d.card), d.deadwood
    ('KD', 0)
    """
    row = _row(hand, decks)
    dead, index = _core.best_discard_row(row, wild, decks)
    rest = row.copy()
    rest[index] -= 1
    return Discard(Card.from_index(index), dead, partial(solve, rest, wild, decks=decks))


def discard_deadwood(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *,
                     decks: int = 2) -> int:
    """The least deadwood left after one discard: ``best_discard(...).deadwood``, without
    choosing the card (the compiled core finds it in a single search).

    The hand is the n + 1 cards held after drawing, at least one card.

    Examples
    --------
    >>> discard_deadwood("5C 6C 7C KD", wild=13), discard_deadwood("5C 6C 8D 3H", wild=13)
    (0, 14)
    """
    return _core.discard_deadwood_row(_row(hand, decks), wild, decks)


def can_go_out(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *,
               decks: int = 2) -> bool:
    """True if the hand (n + 1 cards after drawing) can lay down n cards and discard one.

    >>> can_go_out("3H 4H 5H 9C", wild=4)
    True
    """
    return bool(_core.discard_deadwood_row(_row(hand, decks), wild, decks) == 0)


def draw_table(hand: HandLike | npt.NDArray[np.uint8], wild: WildLike, *,
               decks: int = 2) -> npt.NDArray[np.int32]:
    """For each of the 56 card types, the best-discard deadwood after drawing it.

    Entry ``t`` is ``best_discard(hand + card t).deadwood``; it is -1 where the hand
    already holds every copy of ``t`` the deck has, so that card cannot be drawn.

    Examples
    --------
    >>> t = draw_table("5C 6C 9D", wild=13)
    >>> int(t[Card.parse("7C").index]), int(t[Card.parse("QD").index])
    (0, 20)
    """
    return _core.draw_table_row(_row(hand, decks), wild, decks)


def _own_uint8(counts: npt.NDArray[np.integer], ndim: int, decks: int) -> npt.NDArray[np.uint8]:
    """A private, checked uint8 copy of integer counts: the copy is checked, then
    converted, so values the caller writes meanwhile cannot wrap into valid counts."""
    own = np.array(counts, order="C")
    check_counts_array(own, ndim, decks)
    return own.astype(np.uint8, copy=False)


def _batch(counts: Any, wild: Any, decks: int) -> tuple[npt.NDArray[np.uint8], Any]:
    """The batch as a C-contiguous (N, 56) uint8 array and (N,) int8 wilds, converted once.

    A uint8 batch is passed as it is: the compiled core copies each row before it checks
    and solves it, so it never trusts memory the caller may still be writing.
    """
    decks = check_decks(decks)
    if isinstance(counts, np.ndarray):
        check_counts_array(counts, 2, decks, values=False)
        arr = np.ascontiguousarray(counts) if counts.dtype == np.uint8 else _own_uint8(
            counts, 2, decks)
    elif isinstance(counts, (str, bytes)) or not isinstance(counts, Iterable):
        raise TypeError(f"counts must be a (N, 56) array of counts or a sequence of hands, "
                        f"got {type(counts).__name__}")
    else:
        hands = list(counts)
        arr = np.zeros((len(hands), 56), dtype=np.uint8)
        for i, h in enumerate(hands):
            try:
                arr[i] = hand_counts(h, decks=decks)
            except ValueError as exc:
                raise type(exc)(f"hand {i}: {exc}") from None
    if isinstance(wild, np.ndarray):
        check_wild_array(wild, arr.shape[0])  # type and shape
        wilds = np.array(wild, order="C")  # a private copy: what is checked is what is used
        check_wild_array(wilds, arr.shape[0])
        wilds = wilds.astype(np.int8)
    else:
        wilds = np.full(arr.shape[0], check_wild(wild), dtype=np.int8)
    return arr, wilds


#: Below this many hands, the default is one thread: starting threads costs more.
_THREADED_FROM = 20_000


def _threads(threads: int | None, n: int) -> int:
    """The threads worth starting: never more than the available cores, nor than the
    rows (every thread needs one)."""
    return max(1, min(default_threads(threads, n, _THREADED_FROM), available_cores(), n))


_MANY_DOC = """
    Parameters
    ----------
    counts : ndarray of shape (N, 56), or a sequence of hands
        Counts of any integer dtype (``uint8`` is used as it is; others are checked, with
        no negatives and no count above what ``decks`` decks hold, and converted once).
        Float, bool, timedelta and masked arrays are refused.
    wild : int, Rank, str, or integer ndarray of shape (N,)
        One wild rank for all hands, or one per hand.
    threads : int or None
        Worker threads; ``None`` uses every available core for large batches (20,000
        hands and more) and one thread otherwise. A larger number is clamped to what
        helps: the available cores and the number of hands. Results do not depend on it.
    decks : int
        2, or 4 for party-mode hands.

    Returns
    -------
    ndarray of shape (N,) and dtype int32
"""


def deadwood_many(counts: npt.NDArray[np.integer] | Sequence[HandLike], wild: Any, *,
                  threads: int | None = None, decks: int = 2) -> npt.NDArray[np.int32]:
    """Deadwood of many hands at once, with the GIL released; entry i is
    ``deadwood(counts[i], wild[i])``.
    {many}
    Examples
    --------
    >>> deadwood_many(["5C 6C 7C", "5C 6C 8D"], wild=13).tolist()
    [0, 19]
    """
    arr, wilds = _batch(counts, wild, decks)
    return _core.deadwood_many(arr, wilds, decks, _threads(threads, arr.shape[0]))


def discard_deadwood_many(counts: npt.NDArray[np.integer] | Sequence[HandLike], wild: Any, *,
                          threads: int | None = None, decks: int = 2) -> npt.NDArray[np.int32]:
    """Best-discard deadwood of many hands (each with at least one card); entry i is
    ``discard_deadwood(counts[i], wild[i])``.
    {many}
    Examples
    --------
    >>> discard_deadwood_many(["5C 6C 7C KD", "5C 6C 8D 3H"], wild=13).tolist()
    [0, 14]
    """
    arr, wilds = _batch(counts, wild, decks)
    return _core.discard_deadwood_many(arr, wilds, decks, _threads(threads, arr.shape[0]))


for _fn in (deadwood_many, discard_deadwood_many):
    _fn.__doc__ = (_fn.__doc__ or "").replace("{many}", _MANY_DOC)
del _fn


# -- Choosing a core --------------------------------------------------------------------------

#: The public functions that run through a core, in :class:`Implementation`.
_BOUND = ("deadwood", "solve", "best_discard", "discard_deadwood", "can_go_out", "draw_table",
          "deadwood_many", "discard_deadwood_many")


class Implementation:
    """The solver functions bound to one core; see :func:`implementation`.

    Attributes
    ----------
    name : str
        ``"compiled"`` or ``"python"``.
    deadwood, solve, best_discard, discard_deadwood, can_go_out, draw_table, deadwood_many, \
discard_deadwood_many
        The functions of the same names in :mod:`fivecrowns.solver`, run by this core.
    """

    name: str
    deadwood: Callable[..., int]
    solve: Callable[..., Solution]
    best_discard: Callable[..., Discard]
    discard_deadwood: Callable[..., int]
    can_go_out: Callable[..., bool]
    draw_table: Callable[..., npt.NDArray[np.int32]]
    deadwood_many: Callable[..., npt.NDArray[np.int32]]
    discard_deadwood_many: Callable[..., npt.NDArray[np.int32]]

    def __init__(self, name: str, core: Any) -> None:
        self.name = name
        self._core = core
        # Each function is this module's own code run with ``_core`` bound to ``core``:
        # one source for both cores, and no extra call on the hot paths.
        namespace = dict(globals(), _core=core)
        for fn_name in _BOUND:
            fn = globals()[fn_name]
            bound = types.FunctionType(fn.__code__, namespace, fn.__name__, fn.__defaults__,
                                       fn.__closure__)
            bound.__kwdefaults__ = fn.__kwdefaults__
            bound.__doc__ = fn.__doc__
            bound.__annotations__ = fn.__annotations__
            bound.__qualname__ = f"implementation({name!r}).{fn_name}"
            bound.__module__ = fn.__module__
            namespace[fn_name] = bound  # so best_discard's solution comes from this core too
            setattr(self, fn_name, bound)

    def __repr__(self) -> str:
        return f"fivecrowns.solver.implementation({self.name!r})"


@functools.cache
def implementation(name: str) -> Implementation:
    """The solver functions bound to the core ``name``: ``"compiled"`` or ``"python"``.

    The functions of the module itself use the core :data:`IMPLEMENTATION` names; this
    runs the same code through the other core without changing any global state (for
    tests, benchmarks and comparisons).

    Raises
    ------
    ValueError
        For another name.
    ImportError
        For ``"compiled"`` where the compiled core is not built.

    Examples
    --------
    >>> py = implementation("python")
    >>> py.name, py.deadwood("5C 6C 7C 9D", wild=13)
    ('python', 9)
    """
    if name == "python":
        return Implementation(name, _solver_py)
    if name == "compiled":
        return Implementation(name, importlib.import_module("fivecrowns._solver"))
    raise ValueError(f"implementation must be 'compiled' or 'python', got {name!r}")


def active_implementation() -> str:
    """The core this module's functions use now: ``"compiled"`` or ``"python"``; the one
    loaded at import (:data:`IMPLEMENTATION`) unless a :func:`use_implementation` block
    switched it.

    >>> with use_implementation("python"):
    ...     active_implementation()
    'python'
    """
    return "compiled" if getattr(_core, "__name__", "") == f"{__package__}._solver" \
        else "python"


@contextlib.contextmanager
def use_implementation(name: str) -> Iterator[Implementation]:
    """Run this module's functions through the core ``name`` (``"compiled"`` or
    ``"python"``) inside a ``with`` block, and so everything that calls them: rounds,
    games, the bots, ``play_game`` and ``simulate_games`` with ``jobs=1``.

    :func:`implementation` binds the functions to a core without changing anything else,
    but the simulators call the module's own functions; this switches the core those
    read. It yields :func:`implementation(name) <implementation>`. The core in use before
    comes back when the block ends, also on an exception; blocks nest.
    :data:`IMPLEMENTATION` keeps naming the core loaded at import.

    Not thread-safe: the switch is global to the process, so every thread sees it, and
    blocks in two threads that overlap restore each other's cores. Use it where no other
    thread calls the solver (a test, a benchmark, a script's main thread). Worker
    processes (``jobs`` above 1, Ray) import their own copy and do not see it, and
    :mod:`fivecrowns.rollout` runs the compiled code of its own engine either way. The
    module's functions read the core at every call whether or not a block is open, so
    the switch costs them nothing.

    Raises
    ------
    ValueError
        For another name (before changing anything).
    ImportError
        For ``"compiled"`` where the compiled core is not built.

    Examples
    --------
    >>> from fivecrowns import GreedyBot, play_game
    >>> with use_implementation("python") as py:
    ...     result = play_game([GreedyBot(), GreedyBot()], seed=3, rounds=[1])
    >>> py.name, result.rounds[0].turns > 0
    ('python', True)
    """
    global _core
    impl = implementation(name)
    saved = _core
    _core = impl._core
    try:
        yield impl
    finally:
        _core = saved
