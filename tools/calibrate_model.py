"""Fit the opponent model's weights on simulated hands and show how well its odds are calibrated.

Usage: python tools/calibrate_model.py [--hands N] [--seed S] [--opponents a,b,...]
                                            [--watched NAME] [--test-hands M] [--test-seed T]
                                            [--rules PRESET] [--min-support K]
                                            [--table fitted|built-in] [--workers W]

The defaults (20,000 hands to fit, 5,000 held out) take about 70 s on two cores. The weights in
``src/gincore/_odds.pxd`` come from ``--rules reshuffle --hands 100000 --test-hands 20000`` (about
9 minutes): until a stock runs out those hands are the standard rules' hands, and the reshuffles
give the one feature that needs them (``discarded_itself``) data of its own.

The data: ``Engine.model_inputs`` plays ``N`` hands of the watched player (seat 0, ``marjj`` by
default) against each opponent of the mix in turn (``N / len(opponents)`` hands each, disjoint hand
indices of seed ``S``) and keeps, at every draw decision of the watched player (the upcard offer
included), what that player had seen and the opponent's actual hand.

The model (``src/gincore/_odds.pxd``): each card the player has not seen (not in its hand, the pile
or the face-up cards the opponent took and holds) has the weight ``exp(w . f)`` of its 10 features
``f`` (``gincore._opponent.FEATURES``), and the opponent holds it with the chance
``n * weight / (sum of the unknown cards' weights)``, ``n`` the opponent's hand size less the
face-up cards it holds (the engine caps a chance at 1 and shares the rest again).

The fit: the 10 weights maximise the Bernoulli log-likelihood of the opponent holding each unknown
card, over every (decision, unknown card) pair, with the model's own form above (uncapped, the
chances clipped to (1e-9, 1 - 1e-9)), by L-BFGS (``scipy.optimize.minimize``) with the exact
gradient. The clipped likelihood has plateaus (see ``fit``), so L-BFGS starts twice, from the
conditional logit's maximum and from the built-in weights, and the better end is kept; nearby ends
differ by a few hundredths in the weights and by less than 1e-4 in the held-out scores. A weight
whose feature is non-zero in fewer than ``--min-support`` pairs is held at its built-in value
(``discarded_itself`` is never non-zero without a reshuffle: a card the opponent discarded is then
in the pile or in a hand). The features are computed with numpy from the masks; a sample is checked
against ``gincore._opponent.card_features`` on every run.

The check: on ``M`` held-out hands of seed ``T`` (default ``S + 1``), the odds of the real model
(``gincore._opponent.opponent_odds``, capping included): the calibration table of the fitted (or,
with ``--table built-in``, the built-in) weights by predicted chance over all 52 cards of every
decision (the player's own and the pile's cards are exactly 0, the face-up cards the opponent holds
exactly 1), with the 95% interval of each bucket's gap between actual and predicted (the hands as
clusters: the views of one hand share the opponent's hand); and the Brier score and log-loss over
the unknown cards of the fitted weights, the built-in weights and the uniform baseline
``n / (number of unknown cards)``.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
from scipy.optimize import OptimizeResult, minimize

from gincore._opponent import FEATURES, WEIGHTS, card_features, opponent_odds
from ginsim import Rules
from ginsim.gin.game.native import run_key
from ginsim.gin.game.players import engine

MASKS = ("mine", "pile", "holds", "took", "discarded", "passed")
CHUNK = 1_000  # hands per task
EPS = 1e-9  # the chances are clipped to (EPS, 1 - EPS) in the likelihood and the log-loss
EDGES = np.round(np.arange(0.0, 1.01, 0.1), 1)  # the calibration buckets between the exact 0 and 1


# --- the data ---------------------------------------------------------------------------------------------


def _collect(task: tuple[str, str, str, int, int, int]) -> dict[str, np.ndarray]:
    rules, watched, opponent, seed, first, count = task
    key = run_key(seed)
    data = engine(Rules.preset(rules), f"{watched},{opponent}").model_inputs(key[0], key[1], first, count, 0)
    data["opponent_kind"] = np.full(len(data["hand"]), -1, np.int64)
    return data


def collect(rules: str, watched: str, opponents: Sequence[str], hands: int, seed: int,
            workers: int) -> dict[str, np.ndarray]:
    """``model_inputs`` of ``hands`` hands of ``watched`` (seat 0) against the ``opponents`` in turn:
    opponent ``j`` plays its own block of hand indices. ``opponent_kind``: the opponent's position."""
    share = [hands // len(opponents) + (j < hands % len(opponents)) for j in range(len(opponents))]
    tasks, kinds, first = [], [], 0
    for j, (opponent, count) in enumerate(zip(opponents, share, strict=True)):
        for start in range(0, count, CHUNK):
            tasks.append((rules, watched, opponent, seed, first + start, min(CHUNK, count - start)))
            kinds.append(j)
        first += count
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            parts = list(pool.map(_collect, tasks))
    else:
        parts = [_collect(task) for task in tasks]
    for part, kind in zip(parts, kinds, strict=True):
        part["opponent_kind"][:] = kind
    return {name: np.concatenate([part[name] for part in parts]) for name in parts[0]}


def card_bits(masks: np.ndarray) -> np.ndarray:
    """(N,) card masks as an (N, 52) boolean array, bit ``c`` in column ``c``."""
    raw = np.ascontiguousarray(masks, dtype="<u8").view(np.uint8).reshape(-1, 8)
    return np.unpackbits(raw, axis=1, bitorder="little")[:, :52].astype(bool)


def _relations() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(52, 52) 0/1 matrices, row the counted card, column the card described: same rank (another
    suit), a suit neighbour, two ranks away in the suit."""
    cards = np.arange(52)
    rank, suit = cards % 13, cards // 13
    same_suit = suit[:, None] == suit[None, :]
    gap = np.abs(rank[:, None] - rank[None, :])
    same_rank = (rank[:, None] == rank[None, :]) & ~np.eye(52, dtype=bool)
    return same_rank, same_suit & (gap == 1), same_suit & (gap == 2)


RELATIONS = np.stack(_relations()).astype(np.float32)


def features(data: dict[str, np.ndarray]) -> np.ndarray:
    """The model's features of every card at every decision: an (N, 52, 10) int8 array, in the order
    of ``FEATURES`` (``took`` counts the held face-up cards too, as the model does)."""
    groups = (data["discarded"], data["passed"], data["took"] | data["holds"])
    out = np.empty((len(data["mine"]), 52, 10), np.int8)
    for i, group in enumerate(groups):
        bits = card_bits(group).astype(np.float32)
        for j in range(3):  # small counts: float32 products are exact
            out[:, :, 3 * i + j] = np.rint(bits @ RELATIONS[j]).astype(np.int8)
    out[:, :, 9] = card_bits(data["discarded"])
    return out


def check_features(data: dict[str, np.ndarray], table: np.ndarray, sample: int, rng: np.random.Generator) -> int:
    """Compare ``features`` with ``card_features`` on the unknown cards of ``sample`` decisions;
    the number of (decision, card) pairs compared. Raises AssertionError on a difference."""
    unknown = ~card_bits(data["mine"] | data["pile"] | data["holds"])
    checked = 0
    for i in rng.choice(len(data["mine"]), size=min(sample, len(data["mine"])), replace=False):
        view = {name: int(data[name][i]) for name in MASKS}
        for card in np.flatnonzero(unknown[i]):
            expected = card_features(int(card), **view)
            if tuple(int(v) for v in table[i, card]) != expected:
                raise AssertionError(f"decision {i}, card {card}: numpy {table[i, card]} != card_features {expected}")
            checked += 1
    return checked


# --- the fit ----------------------------------------------------------------------------------------------


@dataclass
class Pairs:
    """The (decision, unknown card) pairs, the pairs of a decision with the same features merged into
    one group: grouped by decision (contiguous), with the group's feature row ``rows[row]``, its
    number of cards ``cards``, how many of them the opponent holds (``held``), and each decision's
    ``need`` (the opponent's hand size less the face-up cards it holds)."""

    decision: np.ndarray  # (G,) the decision of each group, non-decreasing
    starts: np.ndarray  # (D,) the first group of each decision
    row: np.ndarray  # (G,) index into rows
    rows: np.ndarray  # (K, 10) the distinct feature vectors, float64
    cards: np.ndarray  # (G,) the group's unknown cards
    held: np.ndarray  # (G,) how many of them the opponent holds
    need: np.ndarray  # (D,)
    size: int  # the number of pairs


def pairs_of(data: dict[str, np.ndarray], table: np.ndarray) -> Pairs:
    unknown = ~card_bits(data["mine"] | data["pile"] | data["holds"])
    decision, card = np.nonzero(unknown)  # row-major: sorted by decision
    flat = table[decision, card].astype(np.int64)
    code = (flat * (8 ** np.arange(10))).sum(axis=1)  # every count is below 8
    codes, row = np.unique(code, return_inverse=True)
    rows = ((codes[:, None] // (8 ** np.arange(10))) % 8).astype(np.float64)
    held = card_bits(data["opponent"])[decision, card]
    groups, group, cards = np.unique(decision * len(codes) + row.ravel(), return_inverse=True, return_counts=True)
    held_count = np.bincount(group.ravel(), held, minlength=len(groups))
    group_decision = groups // len(codes)
    starts = np.flatnonzero(np.r_[True, group_decision[1:] != group_decision[:-1]])
    if len(starts) != len(data["mine"]):
        raise ValueError("a decision without unknown cards")
    need = (data["size"] - card_bits(data["holds"]).sum(axis=1)).astype(np.float64)
    return Pairs(group_decision, starts, groups % len(codes), rows, cards.astype(np.float64), held_count, need,
                 len(decision))


def chances(pairs: Pairs, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The model's uncapped chance of each group's cards, and one card's share of its decision's weight."""
    score = (pairs.rows @ weights)[pairs.row]
    score -= np.maximum.reduceat(score, pairs.starts)[pairs.decision]
    weight = np.exp(score)
    share = weight / np.add.reduceat(weight * pairs.cards, pairs.starts)[pairs.decision]
    return pairs.need[pairs.decision] * share, share


def log_likelihood(pairs: Pairs, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """The mean Bernoulli log-likelihood per pair (chances clipped) and its gradient."""
    p, share = chances(pairs, weights)
    inside = (p > EPS) & (p < 1 - EPS)
    clipped = np.clip(p, EPS, 1 - EPS)
    k, m = pairs.held, pairs.cards
    total = float(np.sum(k * np.log(clipped) + (m - k) * np.log1p(-clipped)))
    # d log L / d w = sum_groups h (f - fbar), h = dL/dp * p, fbar the decision's share-weighted mean
    # feature vector (sum over its groups of cards * share * f): = sum_groups (h - H * cards * share) f,
    # H the decision's sum of h.
    h = np.where(inside, k / clipped - (m - k) / (1 - clipped), 0.0) * p
    per_group = h - np.add.reduceat(h, pairs.starts)[pairs.decision] * m * share
    gradient = pairs.rows.T @ np.bincount(pairs.row, per_group, minlength=len(pairs.rows))
    return total / pairs.size, gradient / pairs.size


def multinomial_log_likelihood(pairs: Pairs, weights: np.ndarray) -> tuple[float, np.ndarray]:
    """The mean log-likelihood per pair of the same weights read as a conditional logit (the
    opponent's unknown cards as ``need`` draws from the shares), and its gradient: concave in the
    weights, so it has one maximum, a start for the Bernoulli fit that no plateau can trap."""
    score = (pairs.rows @ weights)[pairs.row]
    score -= np.maximum.reduceat(score, pairs.starts)[pairs.decision]
    weight = np.exp(score)
    total = np.add.reduceat(weight * pairs.cards, pairs.starts)
    value = float(np.sum(pairs.held * score) - np.sum(pairs.need * np.log(total)))
    per_group = pairs.held - pairs.need[pairs.decision] * pairs.cards * weight / total[pairs.decision]
    gradient = pairs.rows.T @ np.bincount(pairs.row, per_group, minlength=len(pairs.rows))
    return value / pairs.size, gradient / pairs.size


def _maximise(function: Callable[[Pairs, np.ndarray], tuple[float, np.ndarray]], pairs: Pairs,
              start: np.ndarray, free: np.ndarray) -> tuple[np.ndarray, OptimizeResult]:
    """L-BFGS on ``function``, the weights not ``free`` held at ``start``."""
    def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
        weights = start.copy()
        weights[free] = x
        value, gradient = function(pairs, weights)
        return -value, -gradient[free]

    result = minimize(objective, start[free], jac=True, method="L-BFGS-B",
                      options={"maxiter": 1_000, "gtol": 1e-10, "ftol": 1e-14})
    weights = start.copy()
    weights[free] = result.x
    return weights, result


def fit(pairs: Pairs, start: np.ndarray, free: np.ndarray) -> list[tuple[str, np.ndarray, OptimizeResult]]:
    """The Bernoulli maximum-likelihood weights from two starts, the better first.

    The clipped likelihood has plateaus: a card the opponent does not hold whose uncapped chance is
    1 or more costs log(1e-9) whatever the weights do nearby, so a gradient method stops wherever
    such a card crosses the line. Started from the conditional logit's maximum (``need`` draws
    from the shares; concave, one maximum) and from the built-in weights, it stops at nearby points
    whose likelihoods differ in the 5th digit; the better is kept.
    """
    logit, _ = _maximise(multinomial_log_likelihood, pairs, np.where(free, 0.0, start), free)
    found = [(name, *_maximise(log_likelihood, pairs, begin, free))
             for name, begin in (("conditional logit", logit), ("built-in weights", start))]
    return sorted(found, key=lambda item: item[2].fun)


# --- the check --------------------------------------------------------------------------------------------


def model_table(data: dict[str, np.ndarray], weights: Sequence[float] | None) -> np.ndarray:
    """(N, 52): the real model's odds at every decision (``opponent_odds``, capping included)."""
    columns = {name: data[name].tolist() for name in (*MASKS, "size")}
    return np.array([opponent_odds(*(columns[name][i] for name in (*MASKS, "size")), weights=weights)
                     for i in range(len(data["mine"]))])


def pair_scores(odds: np.ndarray, truth: np.ndarray, unknown: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each unknown pair's squared error and log-loss (the chance clipped to (EPS, 1 - EPS))."""
    p, y = odds[unknown], truth[unknown]
    clipped = np.clip(p, EPS, 1 - EPS)
    return (p - y) ** 2, -(y * np.log(clipped) + (1 - y) * np.log1p(-clipped))


def calibration(odds: np.ndarray, truth: np.ndarray, holds: np.ndarray,
                hand: np.ndarray) -> list[tuple[str, int, float, float, float]]:
    """(bucket, pairs, mean predicted, actual frequency, the standard error of the gap between the two)
    over every card of every decision; the chances of exactly 1 split into the face-up cards the
    opponent holds and the unknown cards capped at 1."""
    p, y, face_up = odds.ravel(), truth.ravel(), holds.ravel()
    cluster = np.repeat(np.unique(hand, return_inverse=True)[1].ravel(), odds.shape[1])
    buckets = [("exactly 0 (seen)", p == 0)]
    for low, high in zip(EDGES[:-1], EDGES[1:], strict=True):
        buckets.append((f"{low:.1f}–{high:.1f}", (p > 0) & (p < 1) & (p >= low) & (p < high)))
    buckets.append(("exactly 1 (capped)", (p == 1) & ~face_up))
    buckets.append(("exactly 1 (held face up)", (p == 1) & face_up))
    rows = []
    for label, chosen in buckets:
        count = int(chosen.sum())
        if count:
            rows.append((label, count, float(p[chosen].mean()), float(y[chosen].mean()),
                         clustered_error(y[chosen] - p[chosen], cluster[chosen])))
    return rows


COMMENTS = ("it discarded a card of the same rank, a suit neighbour, one 2 away", "it refused such a face-up card",
            "it took such a face-up card", "the card itself: it discarded it (back in play after a reshuffle)")


def weights_block(weights: np.ndarray) -> str:
    """The weights as the C array of ``_odds.pxd``."""
    lines = []
    for i, comment in enumerate(COMMENTS):
        values = ", ".join(f"{value:5.2f}" for value in weights[3 * i:3 * i + 3])
        comma = "," if i < len(COMMENTS) - 1 else ""
        lines.append(f"        {values + comma:<21}  /* {comment} */")
    return "\n".join(lines)


def clustered_error(values: np.ndarray, cluster: np.ndarray) -> float:
    """The standard error of the mean of ``values``, the pairs of one hand taken as one cluster
    (the views of a hand share the opponent's hand): sqrt(sum over hands of (sum of the centred
    values)^2) / count."""
    centred = values - values.mean()
    return float(np.sqrt(np.sum(np.bincount(cluster, centred) ** 2)) / len(values))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20_000, help="hands to fit on (default 20,000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the fitting hands (default 0)")
    parser.add_argument("--opponents", default="simple,greedy,gin,marjj,defensive",
                        help="the watched player's opponents, comma-separated (default: %(default)s)")
    parser.add_argument("--watched", default="marjj", help="the player whose views are kept (default marjj)")
    parser.add_argument("--test-hands", type=int, default=None, help="held-out hands (default hands / 4)")
    parser.add_argument("--test-seed", type=int, default=None, help="seed of the held-out hands (default seed + 1)")
    parser.add_argument("--rules", default="standard", help="rules preset (default standard)")
    parser.add_argument("--min-support", type=int, default=1_000,
                        help="pairs with a non-zero feature needed to fit its weight (default 1,000)")
    parser.add_argument("--table", choices=("fitted", "built-in"), default="fitted",
                        help="the weights of the calibration table (default: the weights fitted here)")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    args = parser.parse_args(argv)
    opponents = [name.strip() for name in args.opponents.split(",") if name.strip()]
    if args.hands < len(opponents) or not opponents:
        parser.error("--hands must give every opponent at least one hand")
    test_hands = args.test_hands if args.test_hands is not None else max(args.hands // 4, len(opponents))
    test_seed = args.test_seed if args.test_seed is not None else args.seed + 1
    clock = time.perf_counter()

    train = collect(args.rules, args.watched, opponents, args.hands, args.seed, args.workers)
    table = features(train)
    checked = check_features(train, table, 200, np.random.default_rng(args.seed))
    pairs = pairs_of(train, table)
    del table
    support = (np.bincount(pairs.row, pairs.cards, minlength=len(pairs.rows)) @ (pairs.rows > 0)).astype(np.int64)
    free = support >= args.min_support
    start = np.array(WEIGHTS, dtype=np.float64)
    found = fit(pairs, start, free)
    _, weights, result = found[0]
    p, _ = chances(pairs, weights)
    over = float(pairs.cards[p >= 1].sum() / pairs.size)

    test = collect(args.rules, args.watched, opponents, test_hands, test_seed, args.workers)
    truth = card_bits(test["opponent"]).astype(np.float64)
    unknown = ~card_bits(test["mine"] | test["pile"] | test["holds"])
    fitted = model_table(test, weights.tolist())
    built_in = model_table(test, None)
    holds = card_bits(test["holds"]).sum(axis=1)
    uniform = np.where(unknown, ((test["size"] - holds) / unknown.sum(axis=1))[:, None], 0.0)
    uniform[card_bits(test["holds"])] = 1.0

    players = f"{args.watched} (seat 0) vs {', '.join(opponents)}"
    print(f"$ python tools/calibrate_model.py {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip())
    print(f"{args.rules} rules | {players} | fit: {args.hands:,} hands, seed {args.seed}, "
          f"{len(pairs.need):,} decisions, {pairs.size:,} (decision, unknown card) pairs")
    print(f"numpy features equal card_features on {checked:,} sampled pairs")
    print(f"mean log-likelihood per pair: built-in weights {log_likelihood(pairs, start)[0]:.6f}; "
          f"fitted (L-BFGS, {result.nit} iterations) {-result.fun:.6f}")
    for name, other, other_result in found:
        print(f"  started from the {name}: {-other_result.fun:.6f}  [{', '.join(f'{w:.3f}' for w in other)}]")
    print(f"uncapped chance >= 1 in {over:.3%} of the pairs")
    print()
    print("feature               support    built-in   fitted")
    for name, count, old, new, fitted_here in zip(FEATURES, support, start, weights, free, strict=True):
        note = "" if fitted_here else f"  (held: support below {args.min_support:,})"
        print(f"{name:<18} {count:>10,} {old:>11.2f} {new:>8.3f}{note}")
    print()
    print("GC_MODEL_WEIGHTS for src/gincore/_odds.pxd:")
    print(weights_block(weights))
    print()
    print(f"held out: {test_hands:,} hands, seed {test_seed}, {len(test['mine']):,} decisions, "
          f"{int(unknown.sum()):,} unknown (decision, card) pairs; the {args.table} weights in opponent_odds")
    print()
    print("| predicted chance | pairs | mean predicted | actual | ± (95%) |")
    print("| --- | ---: | ---: | ---: | ---: |")
    shown = fitted if args.table == "fitted" else built_in
    for label, count, predicted, actual, error in calibration(shown, truth, card_bits(test["holds"]), test["hand"]):
        print(f"| {label} | {count:,} | {predicted:.4f} | {actual:.4f} | {1.96 * error:.4f} |")
    print()
    print("over the unknown cards; the gap to the uniform odds with its 95% interval (hands as clusters)")
    print()
    print("| odds | Brier | log-loss | Brier gap | log-loss gap |")
    print("| --- | ---: | ---: | ---: | ---: |")
    cluster = np.broadcast_to(np.unique(test["hand"], return_inverse=True)[1].ravel()[:, None], unknown.shape)[unknown]
    base = pair_scores(uniform, truth, unknown)
    for name, odds in (("fitted weights", fitted), ("built-in weights", built_in), ("uniform n / unknown", uniform)):
        brier, loss = pair_scores(odds, truth, unknown)
        gaps = [f"{(a - b).mean():+.5f} ± {1.96 * clustered_error(a - b, cluster):.5f}"
                for a, b in ((brier, base[0]), (loss, base[1]))]
        print(f"| {name} | {brier.mean():.5f} | {loss.mean():.5f} | {gaps[0]} | {gaps[1]} |")
    print(f"\n{time.perf_counter() - clock:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
