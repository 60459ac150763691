"""The package's modules form layers: no import circle, not even through an import made
inside a function or only for type checking.

The graph is read from the sources with :mod:`ast` (every ``import`` statement anywhere in
a module), so a circle hidden behind a late import fails here too. A package's
``__init__`` importing its own submodules is the normal direction; the implicit import of
a parent package when a submodule is imported is not counted.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import fivecrowns

# The package under test: the checkout's src/, or site-packages when the suite runs
# against an installed wheel (its .pyx files are installed with it).
SRC = Path(fivecrowns.__file__).resolve().parent.parent
PACKAGE = "fivecrowns"


def _modules(src: Path = SRC) -> dict[str, Path]:
    """Every Python module of the package, by dotted name."""
    found = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _base(module: str, path: Path, level: int, target: str | None) -> str:
    """The absolute name of a ``from ... import`` source, ``level`` dots up."""
    if level == 0:
        return target or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    package = package[:len(package) - (level - 1)]
    return ".".join(package + ([target] if target else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of the package that ``module`` imports, wherever the import is."""
    edges: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _base(module, path, node.level, node.module)
            # ``from pkg import sub`` imports the submodule; ``from mod import name``, mod
            names = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base
                     for a in node.names]
        else:
            continue
        for name in names:
            # ``import fivecrowns.solver.x`` where x is an attribute: the longest module
            while name and name not in known:
                name = name.rpartition(".")[0]
            if name and name != module:
                edges.add(name)
    return edges


def _extensions(src: Path = SRC) -> set[str]:
    """The compiled modules (from their ``.pyx``): nodes with no Python imports."""
    return {".".join(p.relative_to(src).with_suffix("").parts)
            for p in (src / PACKAGE).rglob("*.pyx")}


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    modules = _modules(src)
    known = set(modules) | _extensions(src)
    return {name: imports_of(name, path, known) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(found)


def _circle(graph: dict[str, set[str]], component: list[str]) -> str:
    """One circle through the component's first module, as ``a -> b -> a``."""
    start = component[0]
    members = set(component)
    path, seen = [start], {start}
    while True:
        step = sorted(graph[path[-1]] & members)
        back = [w for w in step if w == start]
        if back and len(path) > 1:
            return " -> ".join(path + [start])
        fresh = [w for w in step if w not in seen]
        nxt = fresh[0] if fresh else back[0] if back else step[0]
        if nxt in seen:
            return " -> ".join(path + [nxt])
        path.append(nxt)
        seen.add(nxt)


def test_the_graph_is_read() -> None:
    # The reader sees what is there: a module-level import, a function-level one, a
    # package's import of its submodules.
    graph = import_graph()
    assert "fivecrowns.cards" in graph["fivecrowns.solver"]
    assert "fivecrowns.positions" in graph["fivecrowns.round"]
    assert "fivecrowns.solitaire.search" in graph["fivecrowns.solitaire"]
    assert "fivecrowns._solver" in graph["fivecrowns.solver"]   # compiled, imported late
    assert len(graph) > 40


def test_a_circle_is_found(tmp_path: Path) -> None:
    # A made-up package with a circle through an import inside a function.
    pkg = tmp_path / PACKAGE
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "sub" / "b.py").write_text("def f():\n    from ..c import X\n")
    (pkg / "c.py").write_text("import typing\nif typing.TYPE_CHECKING:\n"
                              "    from fivecrowns.a import Y\n")
    graph = import_graph(tmp_path)
    assert cycles(graph) == [["fivecrowns.a", "fivecrowns.c", "fivecrowns.sub.b"]]
    assert _circle(graph, cycles(graph)[0]) == (
        "fivecrowns.a -> fivecrowns.sub.b -> fivecrowns.c -> fivecrowns.a")


@pytest.mark.parametrize("level, target, want", [
    (1, "cards", "fivecrowns.cards"), (2, "cards", "fivecrowns.cards"), (1, None, "fivecrowns")])
def test_relative_names(level: int, target: str | None, want: str) -> None:
    module = "fivecrowns.x" if level == 1 else "fivecrowns.solitaire.x"
    path = Path("x.py")
    assert _base(module, path, level, target) == want


def test_no_import_circles() -> None:
    graph = import_graph()
    found = cycles(graph)
    assert not found, "import circles (every arrow must point down):\n" + "\n".join(
        _circle(graph, c) for c in found)


def test_the_missing_core_warning_says_how_slow_and_how_to_get_it() -> None:
    # the compiled core hidden in a fresh interpreter, the variable unset: the warning a
    # user without a C compiler sees must give the cost in time, not only a ratio
    code = ("import sys, warnings\n"
            "sys.modules['fivecrowns._solver'] = None\n"
            "with warnings.catch_warnings(record=True) as seen:\n"
            "    warnings.simplefilter('always')\n"
            "    import fivecrowns\n"
            "print('\\n'.join(str(w.message) for w in seen if w.category is RuntimeWarning))\n")
    env = {k: v for k, v in os.environ.items() if k != "FIVECROWNS_IMPLEMENTATION"}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    text = " ".join(done.stdout.split())
    assert "hundreds of times slower" in text and "about 2 hours" in text
    assert "install a C compiler and reinstall fivecrowns" in text


def _run(argv: list[str], implementation: str, hide_core: bool = False
         ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FIVECROWNS_IMPLEMENTATION": implementation}
    if hide_core:  # the compiled core missing, in a fresh interpreter
        argv = [sys.executable, "-c",
                "import runpy, sys; sys.modules['fivecrowns._solver'] = None; "
                "sys.argv[0] = 'fivecrowns'; runpy.run_path(sys.argv.pop(1), "
                "run_name='__main__')", *argv]
    return subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120)


def _script() -> str | None:
    """The `fivecrowns` console script beside this interpreter, if it is installed."""
    return shutil.which("fivecrowns", path=str(Path(sys.executable).parent))


@pytest.mark.parametrize("how", ["script", "-m fivecrowns", "-m fivecrowns.cli"])
def test_a_bad_implementation_is_one_line_in_the_command(how: str) -> None:
    # 0.4: the console script imports the package before main runs: an import traceback
    if how == "script":
        script = _script()
        if script is None:
            pytest.skip("the fivecrowns console script is not installed")
        argv = [script]
    else:
        argv = [sys.executable, *how.split()]
    done = _run([*argv, "solve", "3C", "4C", "5C", "--wild", "5"], "bogus")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == ("fivecrowns: error: FIVECROWNS_IMPLEMENTATION must be 'compiled' "
                           "or 'python' (or unset), got 'bogus'\n")


def test_a_compiled_core_asked_for_and_missing_is_one_line_in_the_command() -> None:
    script = _script()
    if script is None:
        pytest.skip("the fivecrowns console script is not installed")
    done = _run([script, "solve", "3C", "--wild", "5"], "compiled", hide_core=True)
    assert (done.returncode, done.stdout) == (2, ""), done.stderr
    assert done.stderr.startswith("fivecrowns: error: FIVECROWNS_IMPLEMENTATION=compiled, but "
                                  "the compiled core did not import (")
    assert done.stderr.count("\n") == 1


def test_a_bad_implementation_still_raises_on_import() -> None:
    # in Python, `import fivecrowns` raises as before (an ImportError), with its traceback
    code = ("try:\n    import fivecrowns\nexcept ImportError as exc:\n"
            "    print(type(exc).__name__, exc)\n")
    done = _run([sys.executable, "-c", code], "bogus")
    assert done.returncode == 0 and done.stdout == (
        "ImplementationError FIVECROWNS_IMPLEMENTATION must be 'compiled' or 'python' (or "
        "unset), got 'bogus'\n")
