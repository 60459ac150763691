"""Draw the figures of the docs from the benchmarks' JSON.

    python benchmarks/figures.py             # redraw docs/figures/*.svg from the JSON there
    python benchmarks/figures.py --measure   # run the benchmarks first (minutes), then draw

The JSON files in ``docs/figures/`` are written by the benchmark scripts' ``--json``
(``bench_sizes.py``: the solver's speed by hand size; ``bench_bots.py``: each bot's paired
gain over StrongBot and the spread of its game totals); each records the command, the
machine and its load. The SVG files beside them are what the docs show, and the docs
build fails if one is missing. Needs matplotlib (the ``docs`` extra).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
FIGURES = HERE.parent / "docs" / "figures"
#: The figures: file name (its stem names its drawing function) -> the JSON it is drawn from.
DRAWN = {"solver_speed.svg": "solver_sizes.json", "bot_gains.svg": "bot_strength.json",
         "bot_totals.svg": "bot_strength.json"}
#: What --measure runs, from the checkout's root: each writes one JSON of DRAWN.
MEASURE = [["benchmarks/bench_sizes.py", "--json", "docs/figures/solver_sizes.json"],
           ["benchmarks/bench_bots.py", "--games", "2000", "--threads", "2", "--json",
            "docs/figures/bot_strength.json"]]


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        sys.exit("the figures need matplotlib: pip install 'fivecrowns[docs]'")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    # The same JSON draws the same file: fixed ids in the SVG, no date in it.
    # Text stays text (searchable, small files), set in the reader's sans-serif font.
    plt.rcParams.update({"svg.hashsalt": "fivecrowns", "svg.fonttype": "none",
                         "font.size": 9,
                         "axes.spines.top": False, "axes.spines.right": False})
    return plt


def _where(data: dict[str, Any]) -> str:
    m = data["machine"]
    return (f"{m['date']}, {m['cpus']} shared CPUs, load {m['load_1min']}, "
            f"{m['core']} core")


def _plain_ticks(ax: Any) -> None:
    """Numbers on a log axis as numbers (2, 5, 10, 20...), not powers of ten."""
    from matplotlib.ticker import FuncFormatter, LogLocator

    ax.yaxis.set_major_locator(LogLocator(subs=(1.0, 2.0, 5.0)))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
    ax.yaxis.set_minor_formatter(FuncFormatter(lambda v, _: ""))


def solver_speed(plt: Any, data: dict[str, Any]) -> Any:
    """Hands per second by hand size, bulk and one call at a time, and the plain rate."""
    sizes = data["sizes"]
    cards = [s["cards"] for s in sizes]
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    ax.plot(cards, [s["bulk_per_s"] / 1e6 for s in sizes], "o-",
            label="deadwood_many (bulk, 1 thread)")
    ax.plot(cards, [s["one_call_per_s"] / 1e6 for s in sizes], "s--",
            label="deadwood (one call a hand)")
    ax.axhline(data["plain_bulk_rate"] / 1e6, color="grey", lw=1, ls=":",
               label="plain bulk rate (13 cards, Kings wild)")
    ax.set_yscale("log")
    _plain_ticks(ax)
    ax.set_xticks(cards)
    ax.set_xlabel("cards in the hand (wild: the round's rank; 14-16 cards: Kings)")
    ax.set_ylabel("million hands per second")
    ax.set_title(f"The solver's speed by hand size ({_where(data)})", fontsize=9)
    ax.legend(frameon=False, fontsize=8)
    return fig


def bot_gains(plt: Any, data: dict[str, Any]) -> Any:
    """Each bot's paired gain over StrongBot with its 95% interval, in two panels of their
    own scales: the bots far below StrongBot, and those near it."""
    panels = [[g for g in data["gains"] if g["gain"] < -10],
              [g for g in data["gains"] if g["gain"] >= -10]]
    fig, axes = plt.subplots(1, 2, figsize=(6.8, 0.9 + 0.42 * max(map(len, panels))),
                             gridspec_kw={"width_ratios": [1, 1.6]})
    for ax, rows, title in zip(axes, panels, ("far below StrongBot", "near StrongBot")):
        for y, g in enumerate(rows):
            measured = g["source"].startswith("measured")
            lo, hi = g["ci"]
            ax.errorbar(g["gain"], y, xerr=[[g["gain"] - lo], [hi - g["gain"]]],
                        fmt="o" if measured else "D", capsize=3,
                        color="C0" if measured else "C1")
            ax.annotate(f"{g['gain']:+.1f}", (hi, y), xytext=(4, -3),
                        textcoords="offset points", fontsize=8)
        ax.set_yticks(range(len(rows)),
                      [f"{g['bot']}\n{g['deals']:,} deals"
                       f"{'' if g['source'].startswith('measured') else ', recorded'}"
                       for g in rows], fontsize=8)
        ax.set_ylim(len(rows) - 0.5, -0.5)
        ax.set_title(title, fontsize=9)
        ax.set_xlabel("points a game")
        left = min(g["ci"][0] for g in rows)
        right = max(g["ci"][1] for g in rows)
        if title.startswith("near"):  # StrongBot itself: 0
            left, right = min(left, 0.0), max(right, 0.0)
            ax.axvline(0, color="grey", lw=1)
            ax.annotate("StrongBot", (0, len(rows) - 0.5), xytext=(3, 3),
                        textcoords="offset points", fontsize=7, color="grey")
        pad = (right - left) * 0.12
        ax.set_xlim(left - pad, right + 2.5 * pad)
    fig.suptitle("Paired gain over StrongBot in its seat, 3 StrongBots in the field "
                 "(95% CI)", fontsize=9)
    return fig


def bot_totals(plt: Any, data: dict[str, Any]) -> Any:
    """The spread of a game's total for each bot: a box from the quartiles, whiskers at
    5% and 95%, the mean as a dot."""
    totals = data["totals"]
    order = sorted(totals, key=lambda b: totals[b]["mean"])
    stats = []
    for bot in order:
        t = totals[bot]
        q = t["quantiles"]
        stats.append({"label": bot, "med": q["0.5"], "q1": q["0.25"], "q3": q["0.75"],
                      "whislo": q["0.05"], "whishi": q["0.95"], "mean": t["mean"],
                      "fliers": []})
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    ax.bxp(stats, orientation="horizontal", showmeans=True, showfliers=False,
           meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "C3"})
    ax.invert_yaxis()
    ax.set_xlabel("a player's game total (lower is better)")
    games = totals[order[0]]["games"]
    ax.set_title(f"A game's total, each bot with 3 StrongBots ({games:,} games each)\n"
                 f"box: quartiles; whiskers: 5% and 95%; dot: the mean", fontsize=9)
    return fig


def draw(folder: Path = FIGURES, out: Path | None = None) -> list[Path]:
    """Draw every figure of :data:`DRAWN` from the JSON in ``folder`` into ``out``
    (default: the same folder); the files written."""
    plt = _pyplot()
    out = folder if out is None else out
    written = []
    for name, source in DRAWN.items():
        data = json.loads((folder / source).read_text(encoding="utf-8"))
        fig = globals()[name.removesuffix(".svg")](plt, data)
        fig.tight_layout()
        path = out / name
        fig.savefig(path, format="svg", metadata={"Date": None})
        plt.close(fig)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--measure", action="store_true",
                   help="run the benchmarks that write the JSON first (minutes)")
    p.add_argument("--out", type=Path, help="write the figures here (default: docs/figures)")
    args = p.parse_args(argv)
    if args.measure:
        for command in MEASURE:  # from the checkout's root, so the JSON names no folder
            subprocess.run([sys.executable, *command], check=True, cwd=HERE.parent)
    for path in draw(out=args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
