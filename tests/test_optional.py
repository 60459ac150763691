"""A missing optional dependency is a MissingExtraError naming the extra to install, with
the same message from the API and from the command line (issue 24, item 3).

Each test makes the packages of one extra unimportable (``sys.modules[name] = None``
makes ``import name`` fail as if it were not installed)."""

from __future__ import annotations

import importlib
import pickle
import sys
from pathlib import Path

import numpy as np
import pytest

import fivecrowns
from conftest import need, run_cli
from fivecrowns import hand_counts
from fivecrowns._optional import require, requires
from fivecrowns.errors import FiveCrownsError, MissingExtraError
from fivecrowns.files import count_rows, score_file

IO = "reading and writing Parquet or CSV needs pyarrow: pip install 'fivecrowns[io]'"
RAY = "backend='ray' needs Ray: pip install 'fivecrowns[ray]'"


def hide(monkeypatch: pytest.MonkeyPatch, *packages: str) -> None:
    """Make ``packages`` (and their submodules) fail to import, as if not installed; the
    fivecrowns modules that import them are imported again."""
    for name in list(sys.modules):
        if name.split(".")[0] in packages:
            monkeypatch.setitem(sys.modules, name, None)
    for name in packages:
        monkeypatch.setitem(sys.modules, name, None)
    for name in ("fivecrowns.envs.gym", "fivecrowns.envs.aec", "fivecrowns.envs.openspiel"):
        monkeypatch.delitem(sys.modules, name, raising=False)


@pytest.fixture
def csv_hands(tmp_path: Path) -> Path:
    src = tmp_path / "hands.csv"
    src.write_text("hand\n5C 6C 7C\n5C 6C 8D\n")
    return src


def test_the_error_is_an_import_error_of_fivecrowns() -> None:
    err = MissingExtraError("x needs pyarrow: pip install 'fivecrowns[io]'", extra="io",
                            name="pyarrow")
    assert isinstance(err, ImportError) and isinstance(err, FiveCrownsError)
    again = pickle.loads(pickle.dumps(err))  # crosses process pools
    assert (type(again), str(again), again.extra, again.name) == \
        (MissingExtraError, str(err), "io", "pyarrow")
    assert fivecrowns.errors.__all__.count("MissingExtraError") == 1


def test_other_import_errors_are_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ModuleNotFoundError) as info:
        with requires("io", "this"):
            import fivecrowns_no_such_module  # type: ignore[import-not-found]  # noqa: F401
    assert not isinstance(info.value, MissingExtraError)
    with pytest.raises(ModuleNotFoundError) as info:
        require("fivecrowns_no_such_module", "io", "this")
    assert not isinstance(info.value, MissingExtraError)
    hide(monkeypatch, "ray")
    with pytest.raises(MissingExtraError, match=r"^X needs Ray: pip install 'fivecrowns\[ray\]'$"):
        require("ray", "ray", "X", load=False)  # looked for, not imported


# -- io: pyarrow --------------------------------------------------------------------------

@pytest.mark.parametrize("suffix", [".csv", ".parquet"])
def test_score_file_without_pyarrow(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    csv_hands: Path, suffix: str) -> None:
    src = csv_hands
    if suffix == ".parquet":  # the Parquet input is written with pyarrow, then hidden
        need("pyarrow")
        import pyarrow.csv
        import pyarrow.parquet

        src = tmp_path / "hands.parquet"
        pyarrow.parquet.write_table(pyarrow.csv.read_csv(csv_hands), src)
    hide(monkeypatch, "pyarrow")
    dst = tmp_path / "out.csv"
    with pytest.raises(MissingExtraError) as info:
        score_file(src, dst, wild=13)
    assert str(info.value) == IO and info.value.extra == "io"
    assert not dst.exists() and not (tmp_path / "out.csv.part").exists()  # nor a partial one
    if suffix == ".parquet":
        with pytest.raises(MissingExtraError, match=r"fivecrowns\[io\]"):
            count_rows(src)


def test_npy_needs_no_extra(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    hide(monkeypatch, "pyarrow")
    np.save(tmp_path / "h.npy", np.array([hand_counts("5C 6C 7C")]))
    summary = score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=13)
    assert summary.scored == 1 and np.load(tmp_path / "o.npy")["deadwood"].tolist() == [0]


def test_cli_score_without_pyarrow(monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                   csv_hands: Path) -> None:
    hide(monkeypatch, "pyarrow")
    code, out, err = run_cli(capsys, "score", str(csv_hands), str(tmp_path / "out.csv"),
                             "--wild", "13", "--quiet")
    assert (code, out, err) == (2, "", f"fivecrowns score: error: {IO}\n")


# -- ray ----------------------------------------------------------------------------------

def test_api_without_ray(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from fivecrowns import GreedyBot, simulate_games
    from fivecrowns.distributed import ensure_ray

    hide(monkeypatch, "ray")
    with pytest.raises(MissingExtraError) as info:
        simulate_games([GreedyBot, GreedyBot], 2, seed=1, rounds=[1], backend="ray")
    assert str(info.value) == RAY and info.value.extra == "ray"
    with pytest.raises(MissingExtraError, match=r"^backend='ray' needs Ray"):
        ensure_ray()
    np.save(tmp_path / "h.npy", np.array([hand_counts("5C 6C 7C")]))
    with pytest.raises(MissingExtraError, match=r"fivecrowns\[ray\]"):
        score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=13, backend="ray")
    assert not (tmp_path / "o.npy").exists() and not (tmp_path / "o.npy.part").exists()


@pytest.mark.parametrize("command", [["simulate", "--games", "1"],
                                     ["solitaire", "--games", "1"],
                                     ["score", "SRC", "out.npy", "--wild", "13"]])
def test_cli_without_ray(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                         tmp_path: Path, command: list[str]) -> None:
    np.save(tmp_path / "h.npy", np.array([hand_counts("5C 6C 7C")]))
    command = [str(tmp_path / "h.npy") if a == "SRC" else a for a in command]
    hide(monkeypatch, "ray")
    code, out, err = run_cli(capsys, *command, "--backend", "ray", "--quiet")
    assert (code, out) == (2, "")
    assert err == (f"fivecrowns {command[0]}: error: --backend ray needs Ray: "
                   f"pip install 'fivecrowns[ray]'\n")


# -- rl: Gymnasium, PettingZoo, OpenSpiel -------------------------------------------------

#: The frameworks each environment module imports, in the order it imports them.
_FRAMEWORKS = {"gym": ("gymnasium",), "aec": ("gymnasium", "pettingzoo"),
               "openspiel": ("pyspiel",)}


@pytest.mark.parametrize("module,hidden,what,package", [
    ("gym", "gymnasium", "fivecrowns.envs.gym (the Gymnasium environment)", "Gymnasium"),
    ("aec", "pettingzoo", "fivecrowns.envs.aec (the PettingZoo environment)", "PettingZoo"),
    ("aec", "gymnasium", "fivecrowns.envs.aec (the PettingZoo environment)", "Gymnasium"),
    ("openspiel", "pyspiel", "fivecrowns.envs.openspiel (the OpenSpiel game)", "OpenSpiel"),
])
def test_envs_without_their_framework(monkeypatch: pytest.MonkeyPatch, module: str,
                                      hidden: str, what: str, package: str) -> None:
    # The message names the first framework missing: those the module imports before the
    # hidden one must be there for it to name that one (skipped without them, as on a plain
    # install).
    order = _FRAMEWORKS[module]
    for other in order[:order.index(hidden)]:
        need(other)
    hide(monkeypatch, hidden)
    with pytest.raises(MissingExtraError) as info:
        importlib.import_module(f"fivecrowns.envs.{module}")
    assert str(info.value) == f"{what} needs {package}: pip install 'fivecrowns[rl]'"
    assert info.value.extra == "rl" and info.value.name == hidden


def test_lazy_env_names_without_gymnasium(monkeypatch: pytest.MonkeyPatch) -> None:
    import fivecrowns.envs as envs

    hide(monkeypatch, "gymnasium")
    with pytest.raises(MissingExtraError, match=r"needs Gymnasium: pip install "
                                                r"'fivecrowns\[rl\]'"):
        envs.FiveCrownsEnv  # noqa: B018
    assert envs.observation_size(4) == 432  # the encoders need nothing but numpy
