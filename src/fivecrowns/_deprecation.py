"""Old spellings that keep working, with a ``DeprecationWarning``, until 1.0.

Every rename of the public API goes through this module, so each old spelling warns the
same way (the message names the old spelling, the new one and the release that removes
it) and a test can list them all (:data:`RENAMED`).

>>> import warnings
>>> @renamed_parameters(rng="seed")
... def deal(n, *, seed):
...     return n, seed
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     deal(2, rng=5)
(2, 5)
>>> str(caught[0].message)
'deal(rng=...) is deprecated and will be removed in fivecrowns 1.0; use deal(seed=...)'
>>> del RENAMED["deal(rng=...)"]  # the example's spelling is not the package's
"""

from __future__ import annotations

import functools
import importlib
import inspect
import warnings
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["REMOVED_IN", "RENAMED", "warn_deprecated", "renamed_parameters", "keyword_only",
           "deprecated_attribute", "dropped_parameter", "moved_names", "takes_seed", "Unset",
           "UNSET"]

#: The release that drops every deprecated spelling.
REMOVED_IN = "1.0"

#: Every deprecated spelling -> what replaces it (filled in by the helpers below; the
#: tests check each warns and still works).
RENAMED: dict[str, str] = {}

F = TypeVar("F", bound=Callable[..., Any])


def warn_deprecated(old: str, new: str, *, stacklevel: int = 3) -> None:
    """Warn that ``old`` is deprecated for ``new``.

    ``stacklevel`` points the warning at the caller's line: 3 is the caller of the
    function that calls this.
    """
    warnings.warn(f"{old} is deprecated and will be removed in fivecrowns {REMOVED_IN}; "
                  f"use {new}", DeprecationWarning, stacklevel=stacklevel)


def renamed_parameters(**renames: str) -> Callable[[F], F]:
    """Decorate a function whose parameters ``old`` were renamed ``renames[old]``: a call
    with the old keyword warns and is passed on under the new name.

    Giving both spellings is a ``TypeError``, as giving one argument twice is. The
    function's signature (``inspect.signature``) is the new one.
    """
    def decorate(function: F) -> F:
        qualname = function.__qualname__.replace(".__init__", "")
        for old, new in renames.items():
            RENAMED[f"{qualname}({old}=...)"] = f"{qualname}({new}=...)"

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if not kwargs:  # the common call, kept cheap: these wrap some hot methods
                return function(*args)
            for old, new in renames.items():
                if old in kwargs:
                    if new in kwargs:
                        raise TypeError(f"{qualname}() got both {old}= and {new}=; "
                                        f"{old}= is the deprecated name of {new}=")
                    warn_deprecated(f"{qualname}({old}=...)", f"{qualname}({new}=...)")
                    kwargs[new] = kwargs.pop(old)
            return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def keyword_only(*names: str) -> Callable[[F], F]:
    """Decorate a function whose parameters ``names`` became keyword-only: a call that
    still gives them by position warns, and they are passed on by keyword.

    The function's signature is the new one (``*, go_out=False``); what was positional
    before stays accepted in the same order until 1.0.
    """
    def decorate(function: F) -> F:
        qualname = function.__qualname__
        params = inspect.signature(function).parameters.values()
        n_positional = sum(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                           for p in params)
        for name in names:
            RENAMED[f"{qualname}(..., {name}) by position"] = f"{qualname}(..., {name}=...)"

        @functools.wraps(function)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > n_positional:
                extra = args[n_positional:]
                if len(extra) > len(names):
                    raise TypeError(f"{qualname}() takes {n_positional} positional "
                                    f"arguments but {len(args)} were given")
                given = names[:len(extra)]
                for name in given:
                    if name in kwargs:
                        raise TypeError(f"{qualname}() got multiple values for "
                                        f"argument {name!r}")
                warn_deprecated(
                    f"passing {', '.join(given)} to {qualname}() by position",
                    f"{qualname}(..., {'=..., '.join(given)}=...)")
                kwargs.update(zip(given, extra))
                args = args[:n_positional]
            return function(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def moved_names(module: str, moved: dict[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for names that moved to another module: reading
    ``module.name`` warns and gives ``moved[name]``'s (a module path) attribute of the same
    name; any other name is an ``AttributeError`` as usual."""
    for name, home in moved.items():
        RENAMED[f"{module}.{name}"] = f"{home}.{name}"

    def __getattr__(name: str) -> Any:
        home = moved.get(name)
        if home is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        warn_deprecated(f"{module}.{name}", f"{home}.{name}")
        return getattr(importlib.import_module(home), name)

    return __getattr__


class deprecated_attribute:
    """A class attribute ``old`` renamed ``new``: reading it (on the class or an instance)
    warns and gives ``new``'s value.

    >>> class Bot:
    ...     worlds = 8
    ...     budget = deprecated_attribute("Bot.budget", "worlds")
    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     Bot.budget, Bot().budget
    (8, 8)
    >>> del RENAMED["Bot.budget"]  # the example's spelling is not the package's
    """

    def __init__(self, old: str, new: str) -> None:
        self.old, self.new = old, new
        RENAMED[old] = f"{old.rpartition('.')[0]}.{new}"

    def __get__(self, obj: object, owner: type | None = None) -> Any:
        warn_deprecated(self.old, RENAMED[self.old])
        return getattr(owner if obj is None else obj, self.new)


def dropped_parameter(owner: str, name: str, value: object, instead: str) -> None:
    """Warn if ``value`` (the argument ``name`` of ``owner``, deprecated because it means
    nothing) was given, i.e. is not :data:`UNSET`; ``instead`` is the spelling to use.
    The owner registers the spelling in :data:`RENAMED` where it is defined."""
    if not isinstance(value, Unset):
        warn_deprecated(f"{owner}({name}=...)", instead, stacklevel=4)


def takes_seed(sig: inspect.Signature) -> bool:
    """True if a callable of signature ``sig`` takes a ``seed`` by keyword, one that is
    not deprecated (a deterministic bot's ``seed``, kept until 1.0, is not passed)."""
    seed = sig.parameters.get("seed")
    return (seed is not None and not isinstance(seed.default, Unset)
            and seed.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                              inspect.Parameter.KEYWORD_ONLY))


class Unset:
    """The type of :data:`UNSET`: the default of a deprecated parameter, to tell "not
    given" from any value a caller could give."""

    _instance: Unset | None = None

    def __new__(cls) -> Unset:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "<deprecated>"

    def __reduce__(self) -> str:
        return "UNSET"


#: The default of a deprecated parameter (shown as ``<deprecated>`` in a signature).
UNSET = Unset()
