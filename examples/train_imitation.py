"""The imitation recipe: LearnedBot's weights from ExpertBot's decisions, then a duplicate
match against three StrongBots on fresh deals.

Needs torch (``pip install torch``, a CPU build; the ``train`` extra brings it). The
weights LearnedBot ships were made by::

    python examples/train_imitation.py --games 2000 --seed 1 --out learned_bot.npz \\
        --eval-deals 2000 --eval-seed 3

The recipe, and why (docs/frameworks.rst, Learning from the experts, has the result):

1. **Data**: ``--games`` games of ExpertBots from the compiled engine
   (:func:`fivecrowns.decisions.write_decisions`, every seat recorded) at each table size
   of ``--players`` (four players by default; ``2,3,4,6`` for a network that plays at
   every size a user seats it at: the context features hold the number of players),
   seeded from ``--seed`` (at four players) and ``1000 * n + seed`` (at ``n`` others).
   ExpertBot is this package's strongest fast policy; the engine plays it at C speed, so
   the data costs seconds, not the Python bots' minutes.
2. **Inputs**: for every decision LearnedBot would make with its network (not those it
   makes by rule: going out, the final turn, a wild on top...), the candidate moves and
   their solver features (:mod:`fivecrowns.learned`), computed from the recorded
   observation and mask alone, as the bot computes them at play time from its own view.
   A score per candidate from the deadwood each move leaves and the draws ahead imitates
   a solver-driven expert far better than a flat network on the raw encoding, which
   would have to rediscover the meld solver.
3. **Behaviour cloning**: a small network (two hidden layers, ``--hidden`` units) scores
   each candidate; a softmax over a decision's candidates is fitted to ExpertBot's choice
   (cross-entropy, Adam), ``--epochs`` passes, the last 5% of the games held out for
   the accuracy.
4. **RL phase** (``--rl-rounds``, off by default): self-critical REINFORCE against three
   StrongBots, round by round. Each round is dealt and played twice, once sampling the
   network's moves (softmax at ``--rl-temperature``) and once with its best-scored ones;
   the sampled moves are reinforced by how much the sampled round's edge over the
   StrongBots beat the greedy one's, so the deal's luck cancels. A round's moves change
   only that round's scores, so the round is the unit of credit. docs/frameworks.rst
   reports whether it helped (``--init`` starts from saved weights, ``--compare``
   evaluates other weights on the same deals, deal by deal).
5. **Evaluation**: a duplicate match (:func:`fivecrowns.duplicate_match`) on ``--eval-deals``
   deals seeded from ``--eval-seed`` (never the training seed): LearnedBot and three
   StrongBots, every deal played again with a StrongBot in LearnedBot's seat; the paired
   gain with its 95% interval.

The same arguments give the same weights (torch's CPU kernels with one thread, seeded).
``--check FILE`` compares the weights made with those of FILE, array by array, byte for
byte, and exits with status 1 if any differs (printing the largest difference): to check
that the shipped weights are what their command makes (the evaluation does not change the
weights, so it can be left out)::

    python examples/train_imitation.py --games 2000 --seed 1 --out lb.npz \\
        --eval-deals 0 --check src/fivecrowns/data/learned_bot.npz

Byte for byte holds on the machine that made them (x86_64, torch 2.13.0+cpu); torch may
pick other CPU kernels on another processor or release, whose sums round differently:
there the largest difference says how far apart they are.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np

try:
    import torch
except ImportError as exc:  # pragma: no cover - the message is the point
    sys.exit(f"this example needs torch (the fivecrowns[train] extra): {exc}")

import fivecrowns
from fivecrowns import Round, StrongBot, duplicate_match, player_action
from fivecrowns.decisions import iter_decisions, write_decisions
from fivecrowns.learned import (
    CANDIDATE_FEATURES,
    CONTEXT_FEATURES,
    LearnedBot,
    LearnedWeights,
    decide,
    load_weights,
    recorded_view,
)
from fivecrowns.seeding import game_seeds
from fivecrowns.stats import mean_interval

N_IN = len(CANDIDATE_FEATURES) + len(CONTEXT_FEATURES)


def chunk_inputs(args: tuple[str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 np.ndarray]:
    """The network's decisions of chunk ``c`` of the data file: inputs (rows of every
    candidate), each decision's first row and its count, the index of the expert's move
    among its candidates, and the decisions' games."""
    path, c = args
    (chunk,) = iter_decisions(path, chunks=[c])
    rows, starts, label, games = [], [], [], []
    at = 0
    for k in range(len(chunk)):
        what, x = decide(recorded_view(chunk.obs[k], chunk.mask[k], int(chunk.turn[k]),
                                       n_players=chunk.n_players, decks=chunk.decks))
        if x is None:
            continue
        assert isinstance(what, list)
        action = int(chunk.action[k])
        if action not in what:  # ExpertBot's candidates are these: never happens
            raise AssertionError(f"expert move {action} not among {what}")
        rows.append(x)
        starts.append((at, len(what)))
        label.append(what.index(action))
        games.append(int(chunk.game[k]))
        at += len(what)
    return (np.concatenate(rows).astype(np.float32), np.array(starts, dtype=np.int64),
            np.array(label, dtype=np.int64), np.array(games, dtype=np.int64))


def padded(x: np.ndarray, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(decisions, most candidates, N_IN) inputs and the mask of real candidates."""
    most = int(starts[:, 1].max())
    out = np.zeros((len(starts), most, x.shape[1]), dtype=np.float32)
    mask = np.zeros((len(starts), most), dtype=bool)
    for i, (a, n) in enumerate(starts.tolist()):
        out[i, :n] = x[a:a + n]
        mask[i, :n] = True
    return out, mask


def fit(x: np.ndarray, mask: np.ndarray, y: np.ndarray, train: np.ndarray,
        args: argparse.Namespace) -> tuple[LearnedWeights, float, float]:
    """Fit the scoring network; the weights, and the accuracy on train and held-out."""
    torch.manual_seed(args.seed)
    flat = x[mask]
    mean = flat.mean(axis=0)
    scale = flat.std(axis=0)
    scale[scale < 1e-6] = 1.0
    xt = torch.from_numpy((x - mean) / scale)
    mt = torch.from_numpy(mask)
    yt = torch.from_numpy(y)
    net = torch.nn.Sequential(torch.nn.Linear(N_IN, args.hidden), torch.nn.ReLU(),
                              torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU(),
                              torch.nn.Linear(args.hidden, 1))
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    idx = np.flatnonzero(train)
    rng = np.random.default_rng(args.seed)
    steps = max(1, args.epochs * len(idx) // args.batch)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, steps)

    def logits(rows: Any) -> Any:
        out = net(xt[rows]).squeeze(-1)
        return out.masked_fill(~mt[rows], -1e9)

    for epoch in range(args.epochs):
        rng.shuffle(idx)
        total = 0.0
        for a in range(0, len(idx), args.batch):
            rows = torch.from_numpy(idx[a:a + args.batch])
            loss = torch.nn.functional.cross_entropy(logits(rows), yt[rows])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(rows)
        print(f"  epoch {epoch + 1}: loss {total / max(1, len(idx)):.4f}", flush=True)

    def accuracy(sel: np.ndarray) -> float:
        if not sel.any():
            return float("nan")
        with torch.no_grad():
            rows = torch.from_numpy(np.flatnonzero(sel))
            return float((logits(rows).argmax(dim=1) == yt[rows]).float().mean())

    layers = tuple((m.weight.detach().numpy().T.copy(), m.bias.detach().numpy().copy())
                   for m in net if isinstance(m, torch.nn.Linear))
    weights = LearnedWeights(mean.astype(np.float32), scale.astype(np.float32), layers, {})
    return weights, accuracy(train), accuracy(~train)



# -- the optional RL phase: self-critical REINFORCE, round by round ---------------------------

class Sampler(LearnedBot):
    """LearnedBot's rules, and its network's candidates sampled from the softmax of their
    scores (``temperature``) by the torch network being trained; every sampled decision
    is kept for the update."""

    def __init__(self, net: Any, mean: np.ndarray, scale: np.ndarray, temperature: float,
                 rng: np.random.Generator, greedy: bool) -> None:
        self.weights_path = None
        self.net, self.mean, self.scale = net, mean, scale
        self.temperature, self.rng, self.greedy = temperature, rng, greedy
        self.taken: list[tuple[np.ndarray, int]] = []

    def _pick(self, actions: list[int], x: np.ndarray) -> int:
        z = ((x - self.mean) / self.scale).astype(np.float32)
        with torch.no_grad():
            scores = self.net(torch.from_numpy(z)).squeeze(-1).numpy().astype(np.float64)
        if self.greedy:
            return actions[int(np.argmax(scores))]
        p = np.exp((scores - scores.max()) / self.temperature)
        k = int(self.rng.choice(len(actions), p=p / p.sum()))
        self.taken.append((z, k))
        return actions[k]


def play_round(r: Round, agent: Any, seat: int) -> float:
    """Play ``r`` to its end, ``agent`` in ``seat`` and StrongBots elsewhere; the agent's
    edge (the others' mean score less its own)."""
    bots = [StrongBot() for _ in range(r.n_players)]
    bots[seat] = agent
    while not r.is_over:
        p = r.current_player
        r.apply_action(player_action(bots[p], r.observation(p)))
    assert r.result is not None
    scores = r.result.scores
    return float(np.mean([s for q, s in enumerate(scores) if q != seat]) - scores[seat])


def reinforce(weights: LearnedWeights, args: argparse.Namespace) -> LearnedWeights:
    """``--rl-rounds`` rounds against three StrongBots, each played twice on the same deal:
    once sampling the network's moves, once with its best-scored ones; the sampled
    moves' log-probabilities are pushed up by how much the sampled round's edge beat the
    greedy one's (a self-critical baseline: the deal's luck cancels)."""
    torch.manual_seed(args.seed)
    layers = [torch.nn.Linear(w.shape[0], w.shape[1]) for w, _ in weights.layers]
    with torch.no_grad():
        for lin, (w, b) in zip(layers, weights.layers):
            lin.weight.copy_(torch.from_numpy(w.T))
            lin.bias.copy_(torch.from_numpy(b))
    mods: list[Any] = []
    for i, lin in enumerate(layers):
        mods.append(lin)
        if i < len(layers) - 1:
            mods.append(torch.nn.ReLU())
    net = torch.nn.Sequential(*mods)
    opt = torch.optim.Adam(net.parameters(), lr=args.rl_lr)
    rng = np.random.default_rng([args.seed, 7])
    # rounds dealt from seeds training and evaluation never use
    seeds = game_seeds(args.seed + 10_000, args.rl_rounds)
    batch: list[tuple[np.ndarray, int, float]] = []
    gains = []
    started = time.perf_counter()
    for i, s in enumerate(seeds):
        k = 1 + i % 11
        seat = (i // 11) % 4
        sampler = Sampler(net, weights.mean, weights.scale, args.rl_temperature, rng, False)
        greedy = Sampler(net, weights.mean, weights.scale, 1.0, rng, True)
        edge = play_round(Round(4, round_number=k, seed=s), sampler, seat)
        base = play_round(Round(4, round_number=k, seed=s), greedy, seat)
        gains.append(edge - base)
        batch += [(z, c, edge - base) for z, c in sampler.taken]
        if (i + 1) % args.rl_batch == 0 or i + 1 == len(seeds):
            if batch:
                loss = 0
                for z, c, adv in batch:
                    logp = torch.log_softmax(net(torch.from_numpy(z)).squeeze(-1)
                                             / args.rl_temperature, dim=0)[c]
                    loss = loss - adv * logp
                opt.zero_grad()
                (loss / len(batch)).backward()  # type: ignore[union-attr]
                opt.step()
            batch = []
        if (i + 1) % 500 == 0:
            print(f"  rl: {i + 1} rounds, sampled less greedy edge {np.mean(gains[-500:]):+.2f}"
                  f" a round (last 500), {time.perf_counter() - started:.0f} s", flush=True)
    out = tuple((lin.weight.detach().numpy().T.copy(), lin.bias.detach().numpy().copy())
                for lin in layers)
    return LearnedWeights(weights.mean, weights.scale, out, weights.meta)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=2000,
                   help="ExpertBot games to learn from, at each table size of --players")
    p.add_argument("--players", type=_players, default=[4],
                   help="the table sizes of the data, comma-separated (default 4; "
                        "2,3,4,6 for a network that plays at every size)")
    p.add_argument("--seed", type=int, default=1, help="the data's and training's seed")
    p.add_argument("--hidden", type=int, default=64)
    p.add_argument("--epochs", type=int, default=8)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--jobs", type=int, default=2, help="processes for inputs, evaluation")
    p.add_argument("--out", default="learned_bot.npz", help="the weights file")
    p.add_argument("--eval-deals", type=int, default=2000)
    p.add_argument("--eval-seed", type=int, default=3)
    p.add_argument("--data", help="keep the decision data at this path (default: a "
                                  "temporary file)")
    p.add_argument("--init", help="start from these weights: no data, no cloning")
    p.add_argument("--compare", help="evaluate these weights too, on the same deals")
    p.add_argument("--rl-rounds", type=int, default=0,
                   help="rounds of the RL phase after cloning (default none)")
    p.add_argument("--rl-lr", type=float, default=1e-4)
    p.add_argument("--rl-temperature", type=float, default=1.0)
    p.add_argument("--rl-batch", type=int, default=32, help="rounds per RL update")
    p.add_argument("--check", metavar="FILE",
                   help="compare the weights made with FILE's, byte for byte; exit status "
                        "1 if they differ")
    args = p.parse_args(argv)
    if args.games < 1 or args.epochs < 1 or args.hidden < 1 or args.jobs < 1:
        p.error("--games, --epochs, --hidden and --jobs must be at least 1")
    if args.eval_deals < 0:
        p.error("--eval-deals must be 0 or more")
    if args.eval_seed == args.seed and args.eval_deals:
        p.error("--eval-seed must differ from --seed: evaluate on fresh deals")
    torch.set_num_threads(1)
    started = time.perf_counter()
    command = "python examples/train_imitation.py " + " ".join(
        sys.argv[1:] if argv is None else argv)
    if args.init:
        weights = load_weights(args.init)
        meta: dict[str, Any] = dict(weights.meta, command=command, init=args.init)
        print(f"loaded {args.init}: no data, no cloning", flush=True)
    else:
        weights, meta = clone(args, command, started)
    if args.rl_rounds:
        t0 = time.perf_counter()
        weights = reinforce(weights, args)
        meta.update(rl_rounds=args.rl_rounds, rl_lr=args.rl_lr,
                    rl_temperature=args.rl_temperature, rl_batch=args.rl_batch,
                    rl_seconds=round(time.perf_counter() - t0))
        print(f"rl: {args.rl_rounds} rounds in {time.perf_counter() - t0:.0f} s", flush=True)
    meta["training_seconds"] = round(time.perf_counter() - started)
    weights = LearnedWeights(weights.mean, weights.scale, weights.layers, meta)
    weights.save(args.out)
    print(f"saved {args.out} ({os.path.getsize(args.out):,} bytes) after "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    same = True if args.check is None else check(weights, args.check)
    if args.eval_deals:
        t0 = time.perf_counter()
        bot = _Bot(args.out)
        report = duplicate_match(bot, StrongBot, [StrongBot] * 3, args.eval_deals,
                                 seed=args.eval_seed, jobs=args.jobs,
                                 names=["LearnedBot", "StrongBot", "StrongBot", "StrongBot",
                                        "StrongBot"])
        lo, hi = report.gain_ci
        print(f"evaluation: duplicate match on {args.eval_deals} deals (seed "
              f"{args.eval_seed}), LearnedBot and three StrongBots, in "
              f"{time.perf_counter() - t0:.0f} s")
        print(report.table())
        print(f"paired gain over StrongBot: {report.gain:+.2f} points a game, 95% interval "
              f"[{lo:+.2f}, {hi:+.2f}]")
        verdict = "met" if lo > 0 else "not met"
        print(f"target (the whole interval above 0): {verdict}")
        meta["evaluation"] = {"deals": args.eval_deals, "seed": args.eval_seed,
                              "gain": round(report.gain, 3),
                              "gain_ci": [round(lo, 3), round(hi, 3)]}
        LearnedWeights(weights.mean, weights.scale, weights.layers, meta).save(args.out)
        if args.compare:
            other = duplicate_match(_Bot(args.compare), StrongBot, [StrongBot] * 3,
                                    args.eval_deals, seed=args.eval_seed, jobs=args.jobs)
            diff, (dlo, dhi) = mean_interval(report.gains - other.gains)
            print(f"{args.compare} on the same deals: {other.gain:+.2f}; these weights less "
                  f"those, deal by deal: {diff:+.2f} points a game, 95% interval "
                  f"[{dlo:+.2f}, {dhi:+.2f}]")
    print(json.dumps({k: meta.get(k) for k in ("decisions", "accuracy_held_out")}))
    return 0 if same else 1


def check(weights: LearnedWeights, path: str) -> bool:
    """Print whether ``weights`` are those of the file ``path``, array by array, byte for
    byte (the largest difference where not); True if every array is."""
    other = load_weights(path)
    ours = {"mean": weights.mean, "scale": weights.scale}
    theirs = {"mean": other.mean, "scale": other.scale}
    for i, ((w, b), (w2, b2)) in enumerate(zip(weights.layers, other.layers)):
        ours.update({f"w{i}": w, f"b{i}": b})
        theirs.update({f"w{i}": w2, f"b{i}": b2})
    if len(weights.layers) != len(other.layers):
        print(f"check: {path} has {len(other.layers)} layers, these weights "
              f"{len(weights.layers)}")
        return False
    differ = []
    for name, a in ours.items():
        b = theirs[name]
        if a.shape != b.shape:
            differ.append(f"{name} {b.shape} against {a.shape}")
        elif a.astype(np.float32).tobytes() != b.astype(np.float32).tobytes():
            gap = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
            differ.append(f"{name} by up to {gap:.3g}")
    if differ:
        print(f"check: these weights differ from {path}'s: " + ", ".join(differ))
        return False
    print(f"check: these weights are {path}'s, byte for byte "
          f"({', '.join(ours)})")
    return True


def data_seed(seed: int, n_players: int, players: list[int]) -> int:
    """The seed of the data at ``n_players``: ``seed`` itself for the four-player table
    (so ``--players 4`` remakes the weights made before the option was added), and
    ``1000 * n_players + seed`` at the other sizes, so no two sizes deal from one seed."""
    return seed if n_players == 4 or len(players) == 1 else 1000 * n_players + seed


def clone(args: argparse.Namespace, command: str,
          started: float) -> tuple[LearnedWeights, dict[str, Any]]:
    """Record ExpertBot's decisions at each table size of ``--players``, build the inputs,
    fit the network: the weights and what made them."""
    xs, starts, ys, trains = [], [], [], []
    offset = 0
    held_from = int(np.ceil(args.games * 0.95))  # one game: ceil gives 1, all train
    counts = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        # one pool for every table size: its workers import fivecrowns and the solver
        # once, not once a size
        pool = stack.enter_context(ProcessPoolExecutor(args.jobs)) if args.jobs > 1 \
            else None
        for n in args.players:
            t0 = time.perf_counter()
            path = os.path.join(tmp, f"expert{n}.npz")
            if args.data:
                path = args.data if len(args.players) == 1 else \
                    f"{os.path.splitext(args.data)[0]}-{n}p.npz"
            f = write_decisions(path, args.games, seed=data_seed(args.seed, n, args.players),
                                policy="expert", n_players=n,
                                chunk_games=max(1, min(100, args.games // (2 * args.jobs)
                                                       or 1)))
            t_data = time.perf_counter() - t0
            print(f"data: {f.games} games, {f.decisions:,} decisions of ExpertBot at {n} "
                  f"players in {t_data:.0f} s ({f.chunks} chunks)", flush=True)
            work = [(path, c) for c in range(f.chunks)]
            if pool is not None:
                parts = list(pool.map(chunk_inputs, work))
            else:
                parts = [chunk_inputs(w) for w in work]
            for x, s, y, g in parts:
                xs.append(x)
                starts.append(s + np.array([offset, 0]))
                ys.append(y)
                trains.append(g < held_from)
                offset += len(x)
            counts[n] = sum(len(y) for _, _, y, _ in parts)
            print(f"inputs: {counts[n]:,} decisions by the network at {n} players in "
                  f"{time.perf_counter() - t0 - t_data:.0f} s", flush=True)
    x_flat, st = np.concatenate(xs), np.concatenate(starts)
    y, train = np.concatenate(ys), np.concatenate(trains)
    print(f"inputs: {len(y):,} decisions by the network ({len(x_flat):,} candidates) in "
          f"{time.perf_counter() - started:.0f} s", flush=True)
    x, mask = padded(x_flat, st)
    t0 = time.perf_counter()
    weights, acc_train, acc_held = fit(x, mask, y, train, args)
    held = "none held out" if np.isnan(acc_held) else f"{100 * acc_held:.1f}% held out"
    print(f"fit: ExpertBot's move scored best in {100 * acc_train:.1f}% of the training "
          f"decisions, {held}, in {time.perf_counter() - t0:.0f} s", flush=True)
    meta: dict[str, Any] = {
        "command": command, "seed": args.seed, "games": args.games,
        "decisions": int(len(y)), "hidden": args.hidden, "epochs": args.epochs,
        "accuracy_train": round(acc_train, 4),
        # None (JSON's null, not NaN) when too few games leave any held out
        "accuracy_held_out": None if np.isnan(acc_held) else round(acc_held, 4),
        "fivecrowns": fivecrowns.__version__, "torch": torch.__version__,
        "machine": f"{platform.machine()}, {os.cpu_count()} cores",
        "features": list(CANDIDATE_FEATURES) + list(CONTEXT_FEATURES)}
    if args.players != [4]:
        meta["players"] = list(args.players)
        meta["decisions_by_players"] = {str(n): c for n, c in counts.items()}
    return weights, meta


def _players(text: str) -> list[int]:
    """``--players``: table sizes, comma-separated, each from 2 to 7, no repeats."""
    try:
        sizes = [int(t) for t in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of table sizes: {text!r}") from None
    if not sizes or any(not 2 <= n <= 7 for n in sizes) or len(set(sizes)) != len(sizes):
        raise argparse.ArgumentTypeError(
            f"table sizes must be 2 to 7 players, each once: {text!r}")
    return sizes


class _Bot:
    """LearnedBot with the weights just made, as a picklable entrant for the workers."""

    name = "LearnedBot"

    def __init__(self, path: str) -> None:
        self.path = path

    def __call__(self) -> LearnedBot:
        return LearnedBot(weights=self.path)


if __name__ == "__main__":
    sys.exit(main())
