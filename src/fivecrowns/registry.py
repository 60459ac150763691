"""Every bot by name: the one registry the command line reads, and bot specs with options.

A *bot spec* names a player class and, optionally, keyword arguments for it::

    strong
    search:worlds=256
    search:worlds=256:policy=greedy:confidence=0.5
    mybots:MyBot:depth=3

The name is a registered one (:func:`bot_names`; case does not matter and a trailing
``bot`` may be added: ``StrongBot`` is ``strong``) or ``module:Class`` for a class of
your own. Each option is ``key=value``, separated by ``:`` (never by a comma, which
separates the bots of a line-up). Options are the keyword arguments of the class's
``__init__`` other than ``seed``; each value is converted to the argument's annotated
type (``int``, ``float``, ``bool``, ``str``, optionally ``| None`` given as ``none``).

To register a bot, add one line to the list at the end of this module, e.g.
``register("mine", "fivecrowns.mybot:MyBot", "what it does")``, or call
:func:`register` from your own code.

The compiled engine (:mod:`fivecrowns.rollout`, :mod:`fivecrowns.decisions`, SearchBot's
rollouts) plays four of these bots in C, as its *policies*: ``greedy``, ``random``,
``strong`` and ``expert`` (:func:`engine_policies`; ``random`` is RandomBot's move
distribution drawn from the engine's own generator). Wherever a policy is asked for, any
spelling of those names that a spec takes is accepted (``StrongBot`` is ``strong``,
:func:`engine_policy`); the other bots (``search``, ``learned``) have no compiled
policy and are refused there with a message that lists the four.

>>> spec = parse_bot("search:worlds=8:policy=greedy")
>>> spec.name, spec.options
('search', (('worlds', 8), ('policy', 'greedy')))
>>> spec.factory()(3)
SearchBot(worlds=8, candidates=2, objective='own', policy='greedy', confidence=1.0)
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import os
import sys
import types
import typing
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ._deprecation import takes_seed
from .errors import BotError

__all__ = ["BotEntry", "BotSpec", "BotFactory", "register", "bot_names", "bot_entry",
           "parse_bot", "bot_options", "describe_bots", "engine_policies", "engine_policy",
           "SPEC_SYNTAX"]

#: The spec syntax, as the error messages and help texts show it.
SPEC_SYNTAX = "NAME[:key=value[:key=value...]] or module:Class[:key=value...]"


@dataclass(frozen=True)
class BotEntry:
    """A registered bot.

    Attributes
    ----------
    name : str
        Its name on the command line (lower case).
    target : str
        ``"module:Class"``, imported when the bot is first used.
    summary : str
        One line on what it does.
    aliases : mapping of str to str
        Other names of options (``{"alias": "option"}``).
    policy : int or None
        The compiled engine's number of the policy that plays this bot under its name
        (:func:`engine_policies`), or None when the engine does not play it. The number
        is the engine's (its C interface, and what decision records store), not an order
        of this registry.
    """

    name: str
    target: str
    summary: str
    aliases: Mapping[str, str] = field(default_factory=dict)
    policy: int | None = None


_REGISTRY: dict[str, BotEntry] = {}
# The names of the compiled policies: a policy named as the engine names it is taken after
# one look-up (the rollouts ask for one per call, and a call can be a single round's).
_POLICY_NAMES: set[str] = set()
# Set once the built-in bots are registered: the compiled policies are the engine's, so no
# later registration can add one.
_SEALED = False


def register(name: str, target: str, summary: str, *,
             aliases: Mapping[str, str] | None = None, policy: int | None = None) -> None:
    """Register the class ``target`` (``"module:Class"``) under ``name``.

    ``policy`` is for the built-in bots alone (the lines at the end of this module): the
    engine's number of the compiled policy that plays the bot.

    Raises
    ------
    ValueError
        A name already registered, or one that is not a lower-case identifier; a
        ``policy`` given outside the built-in lines.
    """
    if not name.isidentifier() or name != name.lower():
        raise ValueError(f"a bot name must be a lower-case identifier, got {name!r}")
    if name in _REGISTRY:
        raise ValueError(f"bot {name!r} is already registered ({_REGISTRY[name].target})")
    module, _, attr = target.partition(":")
    if not module or not attr:
        raise ValueError(f"target must be 'module:Class', got {target!r}")
    if policy is not None:
        if _SEALED:
            raise ValueError(f"bot {name!r}: only the built-in bots have a compiled policy "
                             f"(the engine plays {', '.join(engine_policies())})")
        if policy in (e.policy for e in _REGISTRY.values()):
            raise ValueError(f"bot {name!r}: policy {policy} is already taken")
    _REGISTRY[name] = BotEntry(name, target, summary, dict(aliases or {}), policy)
    if policy is not None:
        _POLICY_NAMES.add(name)


def bot_names() -> tuple[str, ...]:
    """The registered names, in registration order.

    >>> bot_names()[:3]
    ('random', 'greedy', 'strong')
    """
    return tuple(_REGISTRY)


def _key(name: str) -> str:
    key = name.strip().lower()
    return key if key in _REGISTRY else key.removesuffix("bot")


def bot_entry(name: str) -> BotEntry:
    """The registered bot called ``name`` (``StrongBot`` and ``strong`` alike).

    Raises
    ------
    ValueError
        An unknown name (the message lists the known ones).
    """
    entry = _REGISTRY.get(_key(name))
    if entry is None:
        raise ValueError(f"unknown bot {name!r}: expected one of {', '.join(_REGISTRY)} "
                         f"or module:Class")
    return entry


def engine_policies() -> tuple[str, ...]:
    """The names of the bots the compiled engine plays as policies, in the order of the
    engine's numbers (``fivecrowns.rollout.POLICIES``).

    >>> engine_policies()
    ('greedy', 'random', 'strong', 'expert')
    """
    played = sorted((e.policy, e.name) for e in _REGISTRY.values() if e.policy is not None)
    return tuple(name for _, name in played)


def engine_policy(name: object, *, what: str = "policy", exclude: Collection[str] = (),
                  user: str = "") -> str:
    """The engine's policy name of the bot called ``name`` as a user writes it:
    ``"strong"``, ``"StrongBot"`` and ``" Strong "`` are ``"strong"``.

    Parameters
    ----------
    name : str
        A registered bot's name (:func:`bot_names`) that has a compiled policy.
    what : str
        How the messages call the argument (``"policy"``, ``"policy[1]"``).
    exclude : collection of str
        Policies ``user`` does not play (``("random",)`` for the worlds of a search).
    user : str
        Who does not play the ``exclude`` ones, for their message (``"play_worlds"``).

    Raises
    ------
    TypeError
        ``name`` is not a str.
    ValueError
        An unknown name, or a bot without a compiled policy (``learned``, ``search``) or
        in ``exclude``; each message lists the policies that are taken.

    >>> engine_policy("StrongBot")
    'strong'
    >>> engine_policy("learned")
    Traceback (most recent call last):
    ...
    ValueError: policy 'learned' is LearnedBot, which has no compiled policy: the engine plays ...
    """
    if type(name) is str and name in _POLICY_NAMES and name not in exclude:
        return name
    taken = [p for p in engine_policies() if p not in exclude]
    listed = ", ".join(taken)
    if not isinstance(name, str):
        raise TypeError(f"{what} must be a str, one of {listed}; got {type(name).__name__}")
    entry = _REGISTRY.get(_key(name))
    if entry is None:
        raise ValueError(f"{what} must be one of {listed}, got {name!r}")
    if entry.policy is None:
        cls = entry.target.rpartition(":")[2]
        raise ValueError(f"{what} {name!r} is {cls}, which has no compiled policy: "
                         f"{user or 'the engine'} plays {listed}")
    if entry.name in exclude:
        raise ValueError(f"{what} {name!r}: {user or 'this call'} plays {listed}, "
                         f"not {entry.name}")
    return entry.name


def _import_class(target: str, spec: str) -> type:
    """The player class of ``module:Class``; a ``ValueError`` naming ``spec`` if it is not
    one."""
    module_name, _, attr = target.partition(":")
    if not module_name or not attr:
        raise ValueError(f"bot {spec!r}: expected a bot name ({', '.join(_REGISTRY)}) "
                         f"or module:Class")
    if module_name.endswith(".py") or "/" in module_name or os.sep in module_name:
        # A file is not imported by its path: worker processes import the class by its
        # module's name, so the name is what works everywhere.
        dotted = module_name.removesuffix(".py").replace(os.sep, "/").strip("/")
        dotted = ".".join(p for p in dotted.split("/") if p not in ("", "."))
        raise ValueError(f"bot {spec!r}: {module_name!r} is a file path; give the module's "
                         f"dotted name, as Python imports it from the current folder: "
                         f"{dotted}:{attr}")
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:  # the `fivecrowns` script's path lacks it
        sys.path.insert(0, here)
    try:
        obj: Any = importlib.import_module(module_name)
    except Exception as exc:  # the user's module may fail in any way while it loads
        raise ValueError(f"bot {spec!r}: cannot import module {module_name!r}: "
                         f"{type(exc).__name__}: {exc}") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(f"bot {spec!r}: module {module_name!r} has no "
                             f"{attr!r}") from None
    if not isinstance(obj, type) or not all(
            callable(getattr(obj, m, None)) for m in ("choose_draw", "choose_discard")):
        raise ValueError(f"bot {spec!r} is not a player: expected a class with "
                         f"choose_draw and choose_discard methods, got "
                         f"{type(obj).__name__} {obj!r}")
    return obj


# ---------------------------------------------------------------------------------------------
# Options: the keyword arguments of a class's __init__, and text converted to their types

@dataclass(frozen=True)
class _Option:
    name: str
    annotation: Any   # the resolved type hint, or inspect.Parameter.empty
    default: Any

    @property
    def type_text(self) -> str:
        ann = self.annotation
        if ann is inspect.Parameter.empty:
            return type(self.default).__name__ if self.default is not None else "str"
        return getattr(ann, "__name__", None) or str(ann).replace("typing.", "")


def _signature(cls: type) -> tuple[inspect.Signature, dict[str, Any]]:
    try:
        sig = inspect.signature(cls)
    except (TypeError, ValueError):  # no signature to read: a class with no options
        return inspect.Signature(), {}
    try:
        hints = typing.get_type_hints(cls.__init__)  # type: ignore[misc]
    except Exception:  # annotations that do not resolve: fall back on the defaults' types
        hints = {}
    return sig, hints


def _options(cls: type) -> dict[str, _Option]:
    sig, hints = _signature(cls)
    out = {}
    for p in sig.parameters.values():
        if p.name == "seed" or p.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                              inspect.Parameter.KEYWORD_ONLY):
            continue
        out[p.name] = _Option(p.name, hints.get(p.name, inspect.Parameter.empty), p.default)
    return out


def _takes_seed(cls: type) -> bool:
    return takes_seed(_signature(cls)[0])


_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _convert_to(kind: Any, text: str) -> Any:
    """``text`` as a value of ``kind``; ``ValueError`` (with no message) if it is not one,
    ``TypeError`` if ``kind`` is not a type the command line can give."""
    if kind is bool:
        low = text.lower()
        if low in _TRUE or low in _FALSE:
            return low in _TRUE
        raise ValueError
    if kind is int:
        return int(text)
    if kind is float:
        return float(text)
    if kind is str:
        return text
    origin = typing.get_origin(kind)
    if origin is typing.Literal:
        for choice in typing.get_args(kind):
            if str(choice) == text:
                return choice
        raise ValueError
    if origin in (typing.Union, types.UnionType):
        args = typing.get_args(kind)
        if type(None) in args and text.lower() == "none":
            return None
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _convert_to(arg, text)
            except (ValueError, TypeError):
                continue
        raise ValueError
    raise TypeError


def _convert(option: _Option, text: str, bot: str) -> Any:
    kind = option.annotation
    if kind is inspect.Parameter.empty:
        default = option.default
        kind = type(default) if isinstance(default, (bool, int, float, str)) else str
        if default is None:
            kind = str | None
    try:
        return _convert_to(kind, text)
    except ValueError:
        raise ValueError(f"option {option.name!r} of bot {bot!r} expects "
                         f"{_expects(kind)}, got {text!r}") from None
    except TypeError:
        raise ValueError(f"option {option.name!r} of bot {bot!r} has a type the command "
                         f"line cannot give ({option.type_text})") from None


def _expects(kind: Any) -> str:
    names = {bool: "true or false", int: "an int", float: "a number", str: "a string"}
    if kind in names:
        return names[kind]
    args = typing.get_args(kind)
    if typing.get_origin(kind) is typing.Literal:
        return "one of " + ", ".join(map(str, args))
    return " or ".join("none" if a is type(None) else _expects(a) for a in args)


def bot_options(name: str) -> dict[str, str]:
    """The options of a registered bot or ``module:Class``: name to ``"type = default"``.

    >>> bot_options("strong")
    {'lookahead': 'int = 3', 'now_weight': 'float = 0.35'}
    """
    cls = _resolve(name)[1]
    return {o.name: o.type_text + ("" if o.default is inspect.Parameter.empty
                                   else f" = {o.default!r}")
            for o in _options(cls).values()}


# ---------------------------------------------------------------------------------------------
# Specs and factories


class BotFactory:
    """A picklable factory of fresh players: ``factory(seed)`` is
    ``cls(seed=seed, **options)`` when ``cls`` takes a ``seed``, else ``cls(**options)``.

    A failure of the class is a :class:`~fivecrowns.BotError` naming the bot and the call.
    """

    __slots__ = ("cls", "name", "options", "seeded")

    def __init__(self, cls: type, name: str, options: Mapping[str, Any] | None = None
                 ) -> None:
        self.cls = cls
        self.name = name
        self.options = dict(options or {})
        self.seeded = _takes_seed(cls)

    def __call__(self, seed: int) -> Any:
        try:
            if self.seeded:
                return self.cls(seed=seed, **self.options)
            return self.cls(**self.options)
        except Exception as exc:  # a user's class may fail in any way
            args = ([f"seed={seed}"] if self.seeded else []) + [
                f"{k}={v!r}" for k, v in self.options.items()]
            made = f"{self.cls.__name__}({', '.join(args)})"
            raise BotError(f"bot {self.name!r}: {made} raised {type(exc).__name__}: "
                           f"{exc}") from exc

    def __getstate__(self) -> tuple[type, str, dict[str, Any], bool]:
        return self.cls, self.name, self.options, self.seeded

    def __setstate__(self, state: tuple[type, str, dict[str, Any], bool]) -> None:
        self.cls, self.name, self.options, self.seeded = state

    def __repr__(self) -> str:
        opts = "".join(f":{k}={v}" for k, v in self.options.items())
        return f"BotFactory({self.cls.__module__}.{self.cls.__qualname__}{opts})"


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot spec (:func:`parse_bot`).

    Attributes
    ----------
    name : str
        The registered name, or the class name of ``module:Class``: the bot's label.
    cls : type
        The player class.
    options : tuple of (str, value) pairs
        Keyword arguments, converted, in the order given (aliases resolved).
    text : str
        The spec as written.
    """

    name: str
    cls: type
    options: tuple[tuple[str, Any], ...]
    text: str

    @property
    def label(self) -> str:
        """The name with its options, as a table shows it: ``search:budget=256``."""
        return self.name + "".join(f":{k}={v}" for k, v in self.options)

    def factory(self) -> BotFactory:
        """The picklable factory of this bot (a fresh player per call), named by its
        :attr:`label`."""
        return BotFactory(self.cls, self.label, dict(self.options))


def _resolve(head: str) -> tuple[str, type, Mapping[str, str]]:
    """(label, class, option aliases) of a registered name or ``module:Class``."""
    if ":" not in head:
        entry = bot_entry(head)
        return entry.name, _import_class(entry.target, head), entry.aliases
    cls = _import_class(head, head)
    return head.rsplit(":", 1)[1].rsplit(".", 1)[-1], cls, {}


def parse_bot(text: str) -> BotSpec:
    """Parse a bot spec: ``NAME[:key=value...]`` or ``module:Class[:key=value...]``.

    Raises
    ------
    ValueError
        An unknown bot or option, a value of the wrong type or that the class refuses, an
        option given twice, or a part that is not ``key=value``; the message names it and
        what was expected. With options, the class is called once (``seed=0``) to check
        them.

    >>> parse_bot("StrongBot:lookahead=2").options
    (('lookahead', 2),)
    >>> parse_bot("search:wrlds=9")
    Traceback (most recent call last):
    ...
    ValueError: unknown option 'wrlds' for bot 'search' (did you mean 'worlds'?); options: ...
    """
    if not isinstance(text, str):
        raise TypeError(f"a bot spec must be a str, got {type(text).__name__}")
    parts = [p.strip() for p in text.strip().split(":")]
    if not parts[0]:
        raise ValueError(f"bot {text!r}: expected {SPEC_SYNTAX}")
    # A registered name takes options at once; otherwise module:Class comes first.
    registered = _key(parts[0]) in _REGISTRY
    head_parts = 1 if registered or len(parts) < 2 or "=" in parts[1] else 2
    head = ":".join(parts[:head_parts])
    if head_parts == 2 and not parts[1]:
        raise ValueError(f"bot {text!r}: expected a bot name ({', '.join(_REGISTRY)}) "
                         f"or module:Class")
    name, cls, aliases = _resolve(head)
    known = _options(cls)
    given: dict[str, Any] = {}
    for part in parts[head_parts:]:
        key, eq, value = part.partition("=")
        key = key.strip().replace("-", "_")
        if not eq or not key:
            raise ValueError(f"bot {text!r}: {part!r} is not an option key=value "
                             f"(expected {SPEC_SYNTAX}, e.g. search:worlds=256)")
        real = aliases.get(key, key)
        if real not in known:
            raise ValueError(_unknown_option(key, name, known, aliases))
        if real in given:
            raise ValueError(f"option {real!r} given twice for bot {name!r}")
        given[real] = _convert(known[real], value.strip(), name)
    spec = BotSpec(name, cls, tuple(given.items()), text)
    if given:
        # Made once here, so that a value the class refuses is reported now, not in the
        # first game (and not in a worker process).
        try:
            spec.factory()(0)
        except BotError as exc:
            cause = exc.__cause__
            raise ValueError(f"bot {text!r}: {cause}") from None
    return spec


def _unknown_option(key: str, bot: str, known: Mapping[str, _Option],
                    aliases: Mapping[str, str]) -> str:
    by_alias = {real: alias for alias, real in aliases.items()}
    listed = [f"{by_alias[o]} (or {o})" if o in by_alias else o for o in known]
    close = difflib.get_close_matches(key, [*known, *aliases], n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    if not known:
        return f"unknown option {key!r} for bot {bot!r}: it takes no options"
    return f"unknown option {key!r} for bot {bot!r}{hint}; options: {', '.join(listed)}"


def describe_bots() -> str:
    """The registered bots, one a line with their options, for ``--list-bots``."""
    width = max(len(n) for n in _REGISTRY)
    lines = []
    for entry in _REGISTRY.values():
        cls = _import_class(entry.target, entry.name)
        lines.append(f"{entry.name:<{width}}  {cls.__name__}: {entry.summary}")
        by_alias = {real: alias for alias, real in entry.aliases.items()}
        for opt, text in bot_options(entry.name).items():
            shown = f"{by_alias[opt]} (or {opt})" if opt in by_alias else opt
            lines.append(f"{'':<{width}}    {shown}: {text}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------
# The built-in bots: one line each.

# policy=: the engine's number of the bot's compiled policy (greedy 0, random 1, strong 2,
# expert 3): the engine's C interface, stored in decision records, so never renumbered.

register("random", "fivecrowns.bots:RandomBot", "any legal move, uniformly", policy=1)
register("greedy", "fivecrowns.bots:GreedyBot",
         "takes the top discard when it lowers its deadwood; discards the least deadwood",
         policy=0)
register("strong", "fivecrowns.bots:StrongBot",
         "weighs a blind draw against the pile; looks one draw ahead for its discard",
         policy=2)
register("search", "fivecrowns.search:SearchBot",
         "StrongBot improved by determinized Monte-Carlo search (worlds per decision)")
register("expert", "fivecrowns.expert:ExpertBot",
         "StrongBot re-tuned: looks two draws ahead on the draw and on its best discards",
         policy=3)
register("learned", "fivecrowns.learned:LearnedBot",
         "a network fitted to ExpertBot's choices, scoring each move by solver features")
_SEALED = True
