"""fivecrowns.files.score_file: Parquet, CSV and .npy in and out, bad rows, Ray Data.

``.npy`` needs nothing but numpy; Parquet and CSV need pyarrow (the ``fivecrowns[io]``
extra) and skip without it, except under CI.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fivecrowns as fc
from conftest import need
from fivecrowns import _batches as files
from fivecrowns._batches import _text_counts
from fivecrowns.files import CARD_COLUMNS, count_rows, score_file


def _hands(n: int, seed: int = 1, decks: int = 2) -> np.ndarray:
    rng = np.random.default_rng(seed)
    deck = np.repeat(np.arange(56), [decks] * 55 + [3 * decks])
    rows = np.zeros((n, 56), dtype=np.uint8)
    for i in range(n):
        np.add.at(rows[i], rng.choice(deck, size=rng.integers(1, 15), replace=False), 1)
    return rows


def _text(rows: np.ndarray) -> list[str]:
    return [fc.format_cards(fc.from_counts(r)) for r in rows]


ROWS = _hands(300)
TEXT = _text(ROWS)
WANT = fc.deadwood_many(ROWS, 7)
WANT_D = fc.discard_deadwood_many(ROWS, 7)


@pytest.fixture(scope="module")
def pa() -> Any:
    return need("pyarrow")


def _write(pa: Any, path: Path, table: Any) -> Path:
    if path.suffix == ".csv":
        need("pyarrow.csv").write_csv(table, path)
    else:
        need("pyarrow.parquet").write_table(table, path, row_group_size=100)
    return path


def _read(path: Path) -> Any:
    if path.suffix == ".csv":
        return need("pyarrow.csv").read_csv(path)
    return need("pyarrow.parquet").read_table(path)


# ---------------------------------------------------------------------------------------------
# .npy: no pyarrow needed

def test_npy_to_npy(tmp_path: Path) -> None:
    np.save(tmp_path / "h.npy", ROWS)
    done: list[int] = []
    s = score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=7, discard=True,
                   batch_size=64, progress=done.append)
    assert (s.rows, s.scored, s.skipped) == (300, 300, 0)
    assert done == [64] * 4 + [44]
    out = np.load(tmp_path / "o.npy")
    assert out.dtype.names == ("counts", "deadwood", "discard_deadwood")
    np.testing.assert_array_equal(out["counts"], ROWS)
    np.testing.assert_array_equal(out["deadwood"], WANT)
    np.testing.assert_array_equal(out["discard_deadwood"], WANT_D)
    # the output reads back as an input
    s = score_file(tmp_path / "o.npy", tmp_path / "again.npy", wild=7)
    np.testing.assert_array_equal(np.load(tmp_path / "again.npy")["deadwood"], WANT)


def test_npy_bad_row_names_the_row(tmp_path: Path) -> None:
    rows = ROWS[:100].astype(np.int64)
    rows[70, 0] = 3
    np.save(tmp_path / "h.npy", rows)
    with pytest.raises(ValueError, match=r"h\.npy: row 70: the hand holds 3 copies of 3C"):
        score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=7, batch_size=32)
    assert list(tmp_path.iterdir()) == [tmp_path / "h.npy"]  # no half-written output


@pytest.mark.parametrize("shape", [(4, 55), (56,)])
def test_npy_shape_checked(tmp_path: Path, shape: tuple[int, ...]) -> None:
    np.save(tmp_path / "h.npy", np.zeros(shape, np.uint8))
    with pytest.raises(ValueError, match=r"\(N, 56\) array"):
        score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=7)


def test_arguments_checked(tmp_path: Path) -> None:
    np.save(tmp_path / "h.npy", ROWS[:3])
    src = tmp_path / "h.npy"
    with pytest.raises(ValueError, match=r"dst '.*o\.txt' must end in \.parquet, \.csv or"):
        score_file(src, tmp_path / "o.txt", wild=7)
    # without skip_bad the message names the two files there are (0.4: "src, dst and
    # skip_bad must be three different files")
    with pytest.raises(ValueError, match="^src and dst must be two different files$"):
        score_file(src, src, wild=7)
    with pytest.raises(ValueError, match="three different files"):
        score_file(src, tmp_path / "o.npy", wild=7, skip_bad=tmp_path / "o.npy")
    with pytest.raises(ValueError, match="wild must be a rank 3..13, got 2"):
        score_file(src, tmp_path / "o.npy", wild=2)
    with pytest.raises(ValueError, match="batch_size must be at least 1"):
        score_file(src, tmp_path / "o.npy", wild=7, batch_size=0)
    with pytest.raises(ValueError, match="backend must be 'local' or 'ray'"):
        score_file(src, tmp_path / "o.npy", wild=7, backend="dask")
    with pytest.raises(ValueError, match="ray_address is only for"):
        score_file(src, tmp_path / "o.npy", wild=7, ray_address="auto")
    with pytest.raises(ValueError, match="decks must be 2"):
        score_file(src, tmp_path / "o.npy", wild=7, decks=3)
    with pytest.raises(FileNotFoundError, match="no such file"):
        score_file(tmp_path / "none.npy", tmp_path / "o.npy", wild=7)
    with pytest.raises(ValueError, match="a wild column needs a Parquet or CSV input"):
        score_file(src, tmp_path / "o.npy", wild="w")
    with pytest.raises(ValueError, match="column='hands' names a text column of hands, "
                                         "which needs a Parquet or CSV input"):
        score_file(src, tmp_path / "o.npy", wild=7, column="hands")


# ---------------------------------------------------------------------------------------------
# Parquet and CSV

@pytest.mark.parametrize("src_ext", [".parquet", ".csv"])
@pytest.mark.parametrize("dst_ext", [".parquet", ".csv", ".npy"])
def test_text_column(pa: Any, tmp_path: Path, src_ext: str, dst_ext: str) -> None:
    src = _write(pa, tmp_path / f"h{src_ext}", pa.table({"id": range(300), "hand": TEXT}))
    dst = tmp_path / f"o{dst_ext}"
    s = score_file(src, dst, wild=7, discard=True, batch_size=50)
    assert (s.rows, s.scored, s.skipped) == (300, 300, 0)
    if dst_ext == ".npy":
        out = np.load(dst)
        np.testing.assert_array_equal(out["counts"], ROWS)
    else:
        out = _read(dst).to_pydict()
        assert out["id"] == list(range(300)) and out["hand"] == TEXT
    assert list(out["deadwood"]) == WANT.tolist()
    assert list(out["discard_deadwood"]) == WANT_D.tolist()


@pytest.mark.parametrize("src_ext", [".parquet", ".csv"])
def test_count_columns(pa: Any, tmp_path: Path, src_ext: str) -> None:
    table = pa.table({name: ROWS[:, j] for j, name in enumerate(CARD_COLUMNS)})
    src = _write(pa, tmp_path / f"h{src_ext}", table)
    score_file(src, tmp_path / "o.parquet", wild=7, batch_size=64)
    out = _read(tmp_path / "o.parquet")
    assert out.column_names == [*CARD_COLUMNS, "deadwood"]
    assert out.column("deadwood").to_pylist() == WANT.tolist()


def test_npy_to_table_has_count_columns(pa: Any, tmp_path: Path) -> None:
    np.save(tmp_path / "h.npy", ROWS)
    score_file(tmp_path / "h.npy", tmp_path / "o.csv", wild=7)
    out = _read(tmp_path / "o.csv")
    assert out.column_names == [*CARD_COLUMNS, "deadwood"]
    assert out.column("3C").to_pylist() == ROWS[:, 0].tolist()


def test_every_spelling_is_read(pa: Any) -> None:
    hands = ["5C 6C 7C", "  10h   jk qs ", "3c,4c", "3♣ 4♣ joker", "Jk jK 10T", "KT\t3S", "",
             "JK", "10C 10C", "QD", "9S 10S JS QS KS"]
    counts, errors = _text_counts(pa.array(hands), 2)
    assert errors == {}
    for text, row in zip(hands, counts):
        np.testing.assert_array_equal(row, fc.hand_counts(text), err_msg=text)
    counts, errors = _text_counts(pa.array(TEXT, type=pa.large_string()).slice(10), 2)
    np.testing.assert_array_equal(counts, ROWS[10:])


def _readers() -> list[Any]:
    out = [files._text_counts_numpy]
    try:
        from fivecrowns import _textcounts  # type: ignore[attr-defined]
    except ImportError:
        from conftest import compiled_required

        if compiled_required():
            pytest.fail("CI requires the compiled fivecrowns._textcounts", pytrace=False)
    else:
        out.append(_textcounts.text_counts)
    return out


_WORDS = st.sampled_from([*CARD_COLUMNS, "10c", "jk", "Jk", "qs", "1", "10", "100C", "XX",
                          "5C,", "joker", "♣", "3♣", "\t", "", " "])


@given(st.lists(st.lists(_WORDS, max_size=24).map(" ".join), min_size=1, max_size=12),
       st.sampled_from([2, 4]))
def test_fast_readers_agree_with_hand_counts(hands: list[str], decks: int) -> None:
    pa = need("pyarrow")
    results = [_text_counts(pa.array(hands), decks, reader) for reader in _readers()]
    for counts, errors in results:
        assert errors == results[0][1]
        np.testing.assert_array_equal(counts, results[0][0])
    counts, errors = results[0]
    for i, text in enumerate(hands):
        try:
            want = fc.hand_counts(text, decks=decks)
        except ValueError as exc:
            assert errors[i] == f"{exc} (hand {text!r})"
        else:
            assert i not in errors
            np.testing.assert_array_equal(counts[i], want)


def test_bad_rows_raise_or_go_aside(pa: Any, tmp_path: Path) -> None:
    hands = list(TEXT[:100])
    hands[3] = "5C XX"
    hands[64] = None  # type: ignore[call-overload]
    hands[70] = "5C 5C 5C"
    hands[71] = " ".join(c for c in CARD_COLUMNS[:11] for _ in range(2))  # 22 cards
    src = _write(pa, tmp_path / "h.parquet", pa.table({"id": range(100), "hand": hands}))
    with pytest.raises(ValueError, match=r"h\.parquet: row 3: cannot parse card 'XX'.*skip_bad"):
        score_file(src, tmp_path / "o.csv", wild=7, batch_size=32)
    assert not (tmp_path / "o.csv").exists() and not (tmp_path / "o.csv.part").exists()
    s = score_file(src, tmp_path / "o.csv", wild=7, batch_size=32, skip_bad=tmp_path / "b.csv")
    assert (s.rows, s.scored, s.skipped) == (100, 96, 4)
    assert "96 of 100 hands" in str(s) and "4 bad row(s)" in str(s)
    bad = _read(tmp_path / "b.csv").to_pydict()
    assert bad["id"] == [3, 64, 70, 71]
    assert bad["error"][0].startswith("cannot parse card 'XX'")
    assert bad["error"][1] == "no hand (a null or empty cell)"
    assert "3 copies of 5C" in bad["error"][2]
    assert "at most 20 cards" in bad["error"][3]
    good = _read(tmp_path / "o.csv").to_pydict()
    keep = [i for i in range(100) if i not in (3, 64, 70, 71)]
    assert good["id"] == keep
    assert good["deadwood"] == WANT[keep].tolist()


def test_bad_counts_and_wilds(pa: Any, tmp_path: Path) -> None:
    cols = {name: ROWS[:10, j].astype(np.int64) for j, name in enumerate(CARD_COLUMNS)}
    cols["3C"][2] = -1
    cols["w"] = np.array([7] * 10)
    cols["w"][5] = 14
    src = _write(pa, tmp_path / "h.parquet", pa.table(cols))
    s = score_file(src, tmp_path / "o.parquet", wild="w", skip_bad=tmp_path / "b.parquet")
    assert s.skipped == 2
    bad = _read(tmp_path / "b.parquet").to_pydict()
    assert bad["error"][0] == "counts must be 0..6 (2 decks), got -1 (3C)"
    assert bad["error"][1] == "wild rank must be 3..13, got 14"
    # a CSV count cell that is no number
    text = "3C,4C\n1,x\n2,0\n"
    (tmp_path / "c.csv").write_text(",".join(CARD_COLUMNS) + "\n" + "\n".join(
        ",".join(["1"] + ["0"] * 55) if i != 1 else ",".join(["y"] + ["0"] * 55)
        for i in range(3)) + "\n")
    del text
    s = score_file(tmp_path / "c.csv", tmp_path / "o2.csv", wild=5, skip_bad=tmp_path / "b.csv")
    assert (s.scored, s.skipped) == (2, 1)
    assert _read(tmp_path / "b.csv").column("error").to_pylist() == [
        "a card count is missing (null or empty)"]


def test_wild_column(pa: Any, tmp_path: Path) -> None:
    wilds = np.arange(300) % 11 + 3
    src = _write(pa, tmp_path / "h.csv", pa.table({"hand": TEXT, "wild": wilds}))
    score_file(src, tmp_path / "o.parquet", wild="wild")
    got = _read(tmp_path / "o.parquet").column("deadwood").to_pylist()
    assert got == fc.deadwood_many(ROWS, wilds).tolist()


def test_column_option_and_missing_hands(pa: Any, tmp_path: Path) -> None:
    src = _write(pa, tmp_path / "h.parquet", pa.table({"cards": TEXT[:5]}))
    score_file(src, tmp_path / "o.parquet", wild=7, column="cards")
    assert _read(tmp_path / "o.parquet").column("deadwood").to_pylist() == WANT[:5].tolist()
    with pytest.raises(ValueError, match="no hands found: expected a text column 'hand'.*cards"):
        score_file(src, tmp_path / "o.parquet", wild=7)


def test_existing_score_column_refused(pa: Any, tmp_path: Path) -> None:
    src = _write(pa, tmp_path / "h.parquet", pa.table({"hand": TEXT[:5], "deadwood": [0] * 5}))
    with pytest.raises(ValueError, match="already has a column 'deadwood'"):
        score_file(src, tmp_path / "o.parquet", wild=7)


def test_empty_csv(pa: Any, tmp_path: Path) -> None:
    (tmp_path / "h.csv").write_text("id,hand\n")
    s = score_file(tmp_path / "h.csv", tmp_path / "o.parquet", wild=7)
    assert s.rows == 0
    assert _read(tmp_path / "o.parquet").column_names == ["id", "hand", "deadwood"]


def test_party_decks(pa: Any, tmp_path: Path) -> None:
    rows = _hands(50, decks=4)
    src = _write(pa, tmp_path / "h.parquet", pa.table({"hand": _text(rows)}))
    score_file(src, tmp_path / "o.parquet", wild=4, decks=4)
    got = _read(tmp_path / "o.parquet").column("deadwood").to_pylist()
    assert got == fc.deadwood_many(rows, 4, decks=4).tolist()


# ---------------------------------------------------------------------------------------------
# backend="ray": the same files

@pytest.mark.parametrize("src_ext", [".parquet", ".csv", ".npy"])
def test_ray_backend_matches_local(ray_session: Any, pa: Any, tmp_path: Path,
                                   src_ext: str) -> None:
    hands = list(TEXT)
    hands[123] = "5C QQ"
    if src_ext == ".npy":
        rows = ROWS.astype(np.int16)
        rows[123, 55] = 9
        np.save(tmp_path / "h.npy", rows)
        src = tmp_path / "h.npy"
    else:
        src = _write(pa, tmp_path / f"h{src_ext}", pa.table({"id": range(300), "hand": hands}))
    outs = []
    for backend in ("local", "ray"):
        dst, bad = tmp_path / f"{backend}.parquet", tmp_path / f"{backend}-bad.csv"
        done: list[int] = []
        s = score_file(src, dst, wild=7, discard=True, batch_size=40, skip_bad=bad,
                       backend=backend, progress=done.append)
        assert (s.rows, s.scored, s.skipped) == (300, 299, 1)
        assert sum(done) == 300
        outs.append((_read(dst), _read(bad)))
    assert outs[0][0].equals(outs[1][0])
    assert outs[0][1].equals(outs[1][1])
    with pytest.raises(ValueError, match=r"row 123( \(line 125\))?: "):
        score_file(src, tmp_path / "x.parquet", wild=7, backend="ray")


def test_uint8_rows_the_decks_cannot_hold(pa: Any, tmp_path: Path) -> None:
    rows = ROWS[:50].copy()
    rows[7, 55] = 7
    rows[30, 4] = 3
    np.save(tmp_path / "h.npy", rows)
    with pytest.raises(ValueError, match="row 7: the hand holds 7 jokers, but 2 decks hold"):
        score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=7, batch_size=16)
    s = score_file(tmp_path / "h.npy", tmp_path / "o.npy", wild=7, batch_size=16,
                   skip_bad=tmp_path / "b.csv")
    assert (s.scored, s.skipped) == (48, 2)
    bad = _read(tmp_path / "b.csv")
    assert bad.column("JK").to_pylist() == [7, int(ROWS[30, 55])]
    assert "3 copies of 7C" in bad.column("error").to_pylist()[1]
    keep = np.delete(np.arange(50), [7, 30])
    np.testing.assert_array_equal(np.load(tmp_path / "o.npy")["deadwood"], WANT[keep])


def test_unreadable_files_are_named(pa: Any, tmp_path: Path) -> None:
    (tmp_path / "h.parquet").write_text("not parquet")
    with pytest.raises(ValueError, match=r"^h\.parquet: .*[Pp]arquet") as info:
        score_file(tmp_path / "h.parquet", tmp_path / "o.parquet", wild=5)
    assert "\n" not in str(info.value)
    (tmp_path / "h.csv").write_text("id,hand\n1,5C\n2,5C,extra\n")
    with pytest.raises(ValueError, match=r"^h\.csv: CSV parse error"):
        score_file(tmp_path / "h.csv", tmp_path / "o.parquet", wild=5)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.csv", "h.parquet"]


def test_count_rows(pa: Any, tmp_path: Path) -> None:
    src = _write(pa, tmp_path / "h.parquet", pa.table({"hand": TEXT}))
    assert count_rows(src) == 300
    assert count_rows(_write(pa, tmp_path / "h.csv", pa.table({"hand": TEXT}))) is None
    np.save(tmp_path / "h.npy", ROWS)
    assert count_rows(tmp_path / "h.npy") == 300
