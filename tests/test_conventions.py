"""The API's conventions (docs/conventions.rst), checked over the whole public surface.

The public surface is ``fivecrowns.__all__`` and every module whose dotted name has no
part starting with ``_``. The command line (``fivecrowns.cli``) is left out: its API is
the command, documented in docs/cli.rst. Modules are read as source (``ast``) for what
they define and export, so the checks need no optional extra; the signature checks import
each module and skip one whose extra is not installed.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import importlib.util
import inspect
import pkgutil
import re
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import fivecrowns
from fivecrowns import _deprecation
from fivecrowns.errors import MissingExtraError
from helpers.engines import sized

SRC = Path(fivecrowns.__file__).parent

#: Packages whose ``__init__`` gathers names from their modules on purpose.
GATHERING = {"fivecrowns", "fivecrowns.solitaire", "fivecrowns.envs"}

#: The names a randomness parameter must not have: it is called ``seed`` everywhere.
OTHER_RANDOMNESS_NAMES = {"rng", "random_state", "generator", "random_seed", "seed_or_rng"}

#: Callbacks that *receive* the library's generator (not a choice of the caller's):
#: a solitaire strategy's ``choose(obs, rng)`` is handed the game's Generator.
RNG_CALLBACKS = {"choose"}


def _public_modules() -> list[str]:
    names = ["fivecrowns"]
    for info in pkgutil.walk_packages(fivecrowns.__path__, "fivecrowns."):
        parts = info.name.split(".")[1:]
        if parts[0] == "cli" or any(p.startswith("_") for p in parts):
            continue
        names.append(info.name)
    return sorted(names)


PUBLIC = _public_modules()


def _path(module: str) -> Path:
    parts = module.split(".")[1:]
    base = SRC.joinpath(*parts)
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _tree(module: str) -> ast.Module:
    return ast.parse(_path(module).read_text(encoding="utf-8"))


def _all_of(tree: ast.Module) -> list[str] | None:
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list)
            return value
    return None


def _is_type_variable(node: ast.expr | None) -> bool:
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            and node.func.id in ("TypeVar", "ParamSpec"))


def _defined(tree: ast.Module) -> set[str]:
    """The names a module defines at its top level (not those it imports)."""
    names: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign) and not _is_type_variable(node.value):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        names.add(target.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
            elif isinstance(node, (ast.If, ast.Try)):
                visit(node.body)
                visit(node.orelse)

    visit(tree.body)
    return names - {"__all__", "__getattr__", "__version__"}


def _imported(tree: ast.Module) -> dict[str, str]:
    """Name -> the module it is imported from (relative imports resolved loosely)."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            for alias in node.names:
                out[alias.asname or alias.name] = "." * node.level + (node.module or "")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                out[alias.asname or alias.name.split(".")[0]] = alias.name
    return out


@pytest.mark.parametrize("module", PUBLIC)
def test_all_is_complete_and_clean(module: str) -> None:
    """``__all__`` lists every public name the module defines, and only names it defines
    (or, in a gathering package, gathers; or takes from a private module, which makes this
    module their public home): no stray import (``np``, ``Union``, ``annotations``...)."""
    tree = _tree(module)
    exported = _all_of(tree)
    assert exported is not None, f"{module} has no __all__"
    assert len(exported) == len(set(exported)), f"{module}.__all__ repeats a name"
    defined = _defined(tree)
    missing = sorted(n for n in defined if not n.startswith("_") and n not in exported)
    assert not missing, f"{module} defines public names missing from __all__: {missing}"
    imported = _imported(tree)
    for name in exported:
        if name in defined or module in GATHERING:
            continue
        source = imported.get(name)
        assert source is not None, f"{module}.__all__ names {name!r}, which it lacks"
        assert source.lstrip(".").split(".")[-1].startswith("_"), (
            f"{module}.__all__ re-exports {name!r} from {source}: give it one home")


def test_no_name_has_two_homes() -> None:
    """A name is exported by one module (besides the packages that gather them)."""
    homes: dict[str, list[str]] = {}
    for module in PUBLIC:
        if module in GATHERING:
            continue
        for name in _all_of(_tree(module)) or []:
            homes.setdefault(name, []).append(module)
    twice = {n: m for n, m in homes.items() if len(m) > 1}
    assert twice == {}


def test_the_top_level_gathers_only_public_homes() -> None:
    for name in fivecrowns.__all__:
        obj = getattr(fivecrowns, name)
        home = getattr(obj, "__module__", None)
        if inspect.isclass(obj) or inspect.isfunction(obj):
            assert home in PUBLIC or home == "fivecrowns", (name, home)


#: The most lines a Python module of the package may have (issue 37): a module past it is
#: split by idea into private modules, the public one re-exporting what it exported.
MAX_MODULE_LINES = 650


def test_no_module_is_over_the_line_limit() -> None:
    sizes = {str(path.relative_to(SRC)): len(path.read_text(encoding="utf-8").splitlines())
             for path in SRC.rglob("*.py")}
    assert len(sizes) > 60 and "round.py" in sizes and "envs/vector.py" in sizes
    over = {name: n for name, n in sorted(sizes.items()) if n > MAX_MODULE_LINES}
    assert over == {}, f"modules over {MAX_MODULE_LINES} lines (split them by idea): {over}"


#: The most lines a compiled module may have (issue 37): its .pyx with every file it
#: includes (a .pxi is part of the module it is included in; a .pxd only declares, and
#: a C header is C, which a module's hot loops share by name: the solver core's tables).
MAX_COMPILED_LINES = 1200


def test_no_compiled_module_is_over_the_line_limit() -> None:
    pyx = sorted(SRC.glob("*.pyx"))
    if not pyx:
        pytest.skip("no .pyx sources beside the tests")
    sizes = {}
    for path in pyx:
        text = path.read_text(encoding="utf-8")
        included = re.findall(r'^include "([^"]+)"', text, re.M)
        sizes[path.name] = len(text.splitlines()) + sum(
            len((SRC / name).read_text(encoding="utf-8").splitlines()) for name in included)
    assert {"_solver.pyx", "_solver_core.pyx", "_round_state.pyx", "_vecgames.pyx"} <= set(sizes)
    over = {name: n for name, n in sizes.items() if n > MAX_COMPILED_LINES}
    assert over == {}, f"compiled modules over {MAX_COMPILED_LINES} lines: {over}"


def test_every_engine_module_is_built_and_loaded_as_one() -> None:
    """setup.py builds the engine's modules that ``_state`` loads (all or none of them)."""
    setup = (SRC.parents[1] / "setup.py")
    if not setup.exists():
        pytest.skip("no setup.py beside the tests")
    from fivecrowns import _state
    built = re.search(r"^ENGINE_MODULES = \(([^)]*)\)", setup.read_text(encoding="utf-8"), re.M)
    assert built is not None
    assert tuple(re.findall(r'"(\w+)"', built.group(1))) == _state.ENGINE_MODULES
    assert all((SRC / f"{name}.pyx").exists() for name in _state.ENGINE_MODULES)


def test_a_half_built_engine_runs_the_twins_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A build whose solver compiled and whose engine (or part of it) did not: every twin
    runs, never half of each, and a warning names the module that did not import."""
    from fivecrowns import _state, solver
    monkeypatch.setattr(solver, "IMPLEMENTATION", "compiled")
    real = importlib.import_module

    def without_vecgames(name: str, package: str | None = None) -> Any:
        if name == "fivecrowns._vecgames":
            raise ImportError("No module named 'fivecrowns._vecgames'")
        return real(name, package)

    monkeypatch.setattr(_state.importlib, "import_module", without_vecgames)
    with pytest.warns(RuntimeWarning, match=r"No module named .*pure-Python twins"):
        assert _state.load_engine() is None
    monkeypatch.setattr(solver, "IMPLEMENTATION", "python")
    assert _state.load_engine() is None


# --------------------------------------------------------------------------------------------
# Signatures


def _imported_modules() -> Iterator[ModuleType]:
    for name in PUBLIC:
        try:
            yield importlib.import_module(name)
        except (ImportError, MissingExtraError):  # an optional extra that is not installed
            continue


def _callables() -> Iterator[tuple[str, Callable[..., Any]]]:
    """Every public function, class constructor and public method of the surface."""
    seen: set[int] = set()
    for mod in _imported_modules():
        for name in getattr(mod, "__all__", []):
            try:
                obj = getattr(mod, name)
            except MissingExtraError:  # a lazy name of an extra that is not installed
                continue
            if id(obj) in seen:
                continue
            seen.add(id(obj))
            where = f"{getattr(obj, '__module__', mod.__name__)}.{name}"
            if inspect.isclass(obj):
                # a dataclass's generated __init__ takes its fields: data, not flags
                if "__init__" in vars(obj) and not dataclasses.is_dataclass(obj):
                    yield where, obj
                for attr, value in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    function = value.__func__ if isinstance(
                        value, (classmethod, staticmethod)) else value
                    if inspect.isfunction(function):
                        yield f"{where}.{attr}", function
            elif inspect.isfunction(obj):
                yield where, obj


def _signature(obj: Callable[..., Any]) -> inspect.Signature | None:
    try:
        return inspect.signature(obj)
    except (TypeError, ValueError):
        return None


CALLABLES = sorted(_callables(), key=lambda item: item[0])


def test_the_walk_sees_the_api() -> None:
    names = {name for name, _ in CALLABLES}
    for expected in ("fivecrowns.round.Round.discard", "fivecrowns.actions.encode_discard",
                     "fivecrowns.dealing.random_hands", "fivecrowns.search.SearchBot",
                     "fivecrowns.simulate.duplicate_match"):
        assert expected in names
    assert len(CALLABLES) > 150


def test_flags_are_keyword_only() -> None:
    """A parameter whose default is a bool is a flag: keyword-only, so a call reads
    ``r.discard(card, go_out=True)``, never ``r.discard(card, True)``."""
    positional = []
    for name, obj in CALLABLES:
        sig = _signature(obj)
        if sig is None:
            continue
        for p in sig.parameters.values():
            if isinstance(p.default, bool) and p.kind is not p.KEYWORD_ONLY:
                positional.append(f"{name}({p.name}={p.default})")
    assert not positional, f"flags that can be passed by position: {positional}"


def test_randomness_has_one_name() -> None:
    """A caller's source of randomness is ``seed`` everywhere (docs/conventions.rst)."""
    other = []
    for name, obj in CALLABLES:
        sig = _signature(obj)
        if sig is None or name.rsplit(".", 1)[-1] in RNG_CALLBACKS:
            continue
        other += [f"{name}({p})" for p in sig.parameters if p in OTHER_RANDOMNESS_NAMES]
    assert not other, f"randomness not called seed: {other}"


def test_every_bot_can_be_made_without_arguments() -> None:
    for bot in (fivecrowns.RandomBot, fivecrowns.GreedyBot, fivecrowns.StrongBot,
                fivecrowns.ExpertBot, fivecrowns.SearchBot):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert isinstance(bot(), fivecrowns.Player)


# --------------------------------------------------------------------------------------------
# Deprecations: every old spelling warns and still works until 1.0


#: Old spellings of modules that need an optional extra: (spelling -> the extra's module).
_OF_EXTRA = {"resample(rng=...)": "pyspiel", "fivecrowns.envs.gym.BOTS": "gymnasium"}


def test_every_deprecation_is_tested_here() -> None:
    """Each entry of the registry of old spellings has a case below (a new rename adds
    one)."""
    # a module of an optional extra registers its old spellings only where it imports
    tested = {old for old in OLD_SPELLINGS
              if old not in _OF_EXTRA or importlib.util.find_spec(_OF_EXTRA[old]) is not None}
    assert set(_deprecation.RENAMED) == tested, set(_deprecation.RENAMED) ^ tested
    assert all(_deprecation.REMOVED_IN == "1.0" for _ in tested)


def _round() -> fivecrowns.Round:
    r = fivecrowns.Round(2, round_number=1, seed=5)
    r.draw("deck")
    return r


def _discard_args(r: fivecrowns.Round) -> fivecrowns.Card:
    return r.hand(r.current_player)[0]


def _old_random_hands() -> object:
    return fivecrowns.random_hands(2, 5, rng=3)  # type: ignore[call-arg]


def _old_determinize() -> object:
    return fivecrowns.Round(2, round_number=1, seed=5).determinize(0, rng=7)  # type: ignore[call-arg]


def _old_search_budget() -> object:
    return fivecrowns.SearchBot(seed=1, budget=8).worlds  # type: ignore[call-arg]


def _old_search_budget_attribute() -> object:
    return fivecrowns.SearchBot(seed=1, worlds=8).budget


def _old_default_budget() -> object:
    return fivecrowns.SearchBot.DEFAULT_BUDGET


def _old_outs(name: str) -> Callable[[], object]:
    from fivecrowns import outs

    hand = fivecrowns.hand_counts("5C 6C 9D")

    def call() -> object:
        if name == "discard_order":
            return outs.discard_order(row=hand, wild=13)  # type: ignore[call-arg]
        return getattr(outs, name)(row="5C 6C 9D", wild=13)

    return call


def _old_memo(name: str) -> Callable[[], object]:
    from fivecrowns.outs import SolverMemo

    hand = fivecrowns.hand_counts("5C 6C 9D")

    def call() -> object:
        memo = SolverMemo(2)
        if name == "deadwood_many":
            return memo.deadwood_many(rows=hand[None, :], wild=13)  # type: ignore[call-arg]
        return getattr(memo, name)(row=hand, wild=13)

    return call


def _old_discard(method: str, on_game: bool = False) -> Callable[[], object]:
    def call() -> object:
        if on_game:
            g = fivecrowns.Game(2, seed=5, rounds=[1])
            g.draw("deck")
            table: Any = g
            card = g.round.hand(g.current_player)[0]
        else:
            table = _round()
            card = _discard_args(table)
        return (getattr(table, method)(card, False),)

    return call


def _old_resample() -> object:
    pyspiel = pytest.importorskip("pyspiel")
    from fivecrowns.envs.openspiel import GAME_NAME, resample

    state = pyspiel.load_game(GAME_NAME, {"players": 2, "rounds": 1}).new_initial_state()
    for card in range(7):
        state.apply_action(card)
    return resample(state, 0, rng=1)  # type: ignore[call-arg]


def _old_encoding(name: str) -> Callable[[], object]:
    def call() -> object:
        from fivecrowns.envs import encoding

        return getattr(encoding, name)(3, True)

    return call


def _old_planner() -> object:
    return fivecrowns.PlannerSolitaire(2, 20_000, True)


class _Stop(Exception):
    pass


def _old_bench_report() -> object:
    """``bench.report(True)``, stopped at its first deal (the benchmark itself is slow):
    the deal's size shows ``quick`` arrived."""
    from fivecrowns import bench

    def first_deal(n: int, size: int, *, seed: int) -> None:
        raise _Stop(n)

    original = bench.random_hands
    bench.random_hands = first_deal  # type: ignore[assignment]
    try:
        bench.report(True)  # type: ignore[misc]
    except _Stop as stop:
        return stop.args[0] == 20_000  # the quick workload
    finally:
        bench.random_hands = original
    return None


def _old_bot_seed(bot: type) -> Callable[[], object]:
    return lambda: bot(seed=3)


def _old_moved(module: str, name: str) -> Callable[[], object]:
    return lambda: getattr(importlib.import_module(module), name)


#: old spelling (as the registry names it) -> a call that uses it
def _old_gym_bots() -> object:
    pytest.importorskip("gymnasium")
    from fivecrowns.envs import gym

    return gym.BOTS


OLD_SPELLINGS: dict[str, Callable[[], object]] = {
    "fivecrowns.envs.gym.BOTS": _old_gym_bots,
    "random_hands(rng=...)": _old_random_hands,
    "RoundPositions.determinize(rng=...)": _old_determinize,
    "resample(rng=...)": _old_resample,
    "SearchBot(budget=...)": _old_search_budget,
    "SearchBot.budget": _old_search_budget_attribute,
    "SearchBot.DEFAULT_BUDGET": _old_default_budget,
    "discard_order(row=...)": _old_outs("discard_order"),
    "joker_distance(row=...)": _old_outs("joker_distance"),
    "completing_types(row=...)": _old_outs("completing_types"),
    "SolverMemo.deadwood(row=...)": _old_memo("deadwood"),
    "SolverMemo.deadwood_many(rows=...)": _old_memo("deadwood_many"),
    "SolverMemo.best_discard_choice(row=...)": _old_memo("best_discard_choice"),
    "SolverMemo.draw_table(row=...)": _old_memo("draw_table"),
    "SolverMemo.completing_types(row=...)": _old_memo("completing_types"),
    "Round.discard(..., go_out) by position": _old_discard("discard"),
    "Round.can_discard(..., go_out) by position": _old_discard("can_discard"),
    "Round.verify_discard(..., go_out) by position": _old_discard("verify_discard"),
    "Game.discard(..., go_out) by position": _old_discard("discard", on_game=True),
    "Game.can_discard(..., go_out) by position": _old_discard("can_discard", on_game=True),
    "Game.verify_discard(..., go_out) by position": _old_discard("verify_discard",
                                                                 on_game=True),
    "encode_discard(..., go_out) by position": lambda: fivecrowns.encode_discard("5C", True),
    "observation_size(..., features) by position": _old_encoding("observation_size"),
    "blocks(..., features) by position": _old_encoding("blocks"),
    "observation_scale(..., features) by position": _old_encoding("observation_scale"),
    "observation_scale(..., decks) by position":
        lambda: __import__("fivecrowns.envs.encoding", fromlist=["x"]).observation_scale(
            3, False, 4),
    "PlannerSolitaire.__init__(..., reach) by position": _old_planner,
    "PlannerSolitaire.__init__(..., reach_piles) by position":
        lambda: fivecrowns.PlannerSolitaire(2, 20_000, True, 2),
    "PlannerSolitaire.__init__(..., contention) by position":
        lambda: fivecrowns.PlannerSolitaire(2, 20_000, True, 2, True),
    "PlannerSolitaire.__init__(..., protect) by position":
        lambda: fivecrowns.PlannerSolitaire(2, 20_000, True, 2, True, 0),
    "PlannerSolitaire.__init__(..., deep) by position":
        lambda: fivecrowns.PlannerSolitaire(2, 20_000, True, 2, True, 0, 3),
    "report(..., quick) by position": _old_bench_report,
    "fivecrowns.players.game_seeds": _old_moved("fivecrowns.players", "game_seeds"),
    "fivecrowns.bots.discard_order": _old_moved("fivecrowns.bots", "discard_order"),
    "fivecrowns.search.play_out": _old_moved("fivecrowns.search", "play_out"),
    "fivecrowns.search.ROLLOUT_IMPLEMENTATION": _old_moved("fivecrowns.search",
                                                           "ROLLOUT_IMPLEMENTATION"),
    "GreedyBot(seed=...)": _old_bot_seed(fivecrowns.GreedyBot),
    "StrongBot(seed=...)": _old_bot_seed(fivecrowns.StrongBot),
    "ExpertBot(seed=...)": _old_bot_seed(fivecrowns.ExpertBot),
    "simulate_games(..., duplicate=reference)": lambda: fivecrowns.simulate_games(
        [fivecrowns.GreedyBot, fivecrowns.RandomBot], 1, seed=1, rounds=[1],
        duplicate=fivecrowns.StrongBot),
}


@pytest.mark.parametrize("old", sorted(OLD_SPELLINGS))
def test_old_spelling_warns_and_still_works(old: str) -> None:
    call = OLD_SPELLINGS[old]
    with pytest.warns(DeprecationWarning, match="will be removed in fivecrowns 1.0"):
        result = call()
    assert result is not None and result is not False


@pytest.mark.parametrize("bot", ["GreedyBot", "StrongBot", "ExpertBot"])
def test_a_deterministic_bots_seed_warns_and_changes_nothing(bot: str) -> None:
    cls = getattr(fivecrowns, bot)
    with pytest.warns(DeprecationWarning, match=rf"{bot}\(seed=\.\.\.\) is deprecated .*"
                                                rf"use {bot}\(\)"):
        seeded = cls(seed=3)
    with pytest.warns(DeprecationWarning):
        positional = cls(3)
    plain = cls()
    # ExpertBot's round takes a minute on the pure-Python twins: there, its first turns
    kw: dict[str, Any] = sized({"rounds": [3]},
                               {"rounds": [1], "rules": fivecrowns.Rules(max_turns=4)})
    a = fivecrowns.play_game([seeded, fivecrowns.GreedyBot()], seed=2, **kw)
    b = fivecrowns.play_game([plain, fivecrowns.GreedyBot()], seed=2, **kw)
    c = fivecrowns.play_game([positional, fivecrowns.GreedyBot()], seed=2, **kw)
    assert a == b == c
    # factories make it without a seed, so no warning in a simulation
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fivecrowns.simulate_games([cls, fivecrowns.GreedyBot], 1, seed=1, rounds=[1],
                                  rules=kw.get("rules"))


def test_old_and_new_keywords_together_are_an_error() -> None:
    with pytest.raises(TypeError, match=r"got both rng= and seed="):
        fivecrowns.random_hands(2, 5, rng=3, seed=3)  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="multiple values for argument 'go_out'"):
        _round().discard("5C", True, go_out=True)  # type: ignore[misc]


def test_deprecated_calls_give_what_the_new_ones_give() -> None:
    with pytest.warns(DeprecationWarning):
        old = fivecrowns.random_hands(4, 7, rng=9)  # type: ignore[call-arg]
    assert (old == fivecrowns.random_hands(4, 7, seed=9)).all()
    with pytest.warns(DeprecationWarning):
        bot = fivecrowns.SearchBot(seed=2, budget=5)  # type: ignore[call-arg]
    assert bot.worlds == 5
    r, s = _round(), _round()
    card = _discard_args(r)
    with pytest.warns(DeprecationWarning):
        old_rec = r.discard(card, False)  # type: ignore[misc]
    assert old_rec == s.discard(card, go_out=False)


# --------------------------------------------------------------------------------------------
# Argument checks: one rule for an int, one message style


def _int_takers() -> dict[str, Callable[[Any], object]]:
    from fivecrowns import outs, rollout

    return {
        "random_hands(n)": lambda v: fivecrowns.random_hands(v, 3, seed=1),
        "play_games(games)": lambda v: rollout.play_games(v, seed=1, n_players=2),
        "deal_rounds(n)": lambda v: rollout.deal_rounds(v, seed=1, round_number=1),
        "simulate_games(games)": lambda v: fivecrowns.simulate_games(
            [fivecrowns.GreedyBot, fivecrowns.GreedyBot], v, seed=1, rounds=[1]),
        "SearchBot(worlds)": lambda v: fivecrowns.SearchBot(worlds=v),
        "Round(dealer)": lambda v: fivecrowns.Round(2, round_number=1, seed=1, dealer=v),
        "Game(first_dealer)": lambda v: fivecrowns.Game(2, seed=1, first_dealer=v),
        "joker_distance(limit)": lambda v: outs.joker_distance("5C 6C 9D", 13, limit=v),
        "deadwood_many(threads)": lambda v: fivecrowns.deadwood_many(
            fivecrowns.random_hands(2, 5, seed=1), 13, threads=v),
    }


@pytest.mark.parametrize("call", sorted(_int_takers()))
def test_an_int_is_an_int_or_numpy_integer_never_a_bool_or_float(call: str) -> None:
    take = _int_takers()[call]
    take(1)
    import numpy as np

    take(np.int64(1))
    name = call[call.index("(") + 1:-1]
    for bad in (True, np.bool_(True), 1.0):
        with pytest.raises(TypeError, match=rf"^{name} must be an int(,| or None,) got "
                                            rf"{type(bad).__name__}$"):
            take(bad)


def test_one_message_style_for_a_value_out_of_range() -> None:
    from fivecrowns import rollout

    with pytest.raises(ValueError, match=r"^worlds must be at least 1, got 0$"):
        fivecrowns.SearchBot(worlds=0)
    with pytest.raises(ValueError, match=r"^games must be at least 0, got -1$"):
        rollout.play_games(-1, seed=1)
    with pytest.raises(ValueError, match=r"^dealer must be a seat 0\.\.1, got 2$"):
        fivecrowns.Round(2, round_number=1, seed=1, dealer=2)
