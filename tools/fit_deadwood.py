"""Fit the network that ``reader`` guesses its opponent's deadwood with (``src/gincore/reader_guess.npz``).

Usage: python tools/fit_deadwood.py [--out src/gincore/reader_guess.npz] [--hands 400000] [--seed 303]
                                    [--test-hands 12000] [--test-seed 202] [--hidden 64] [--epochs 8]
                                    [--workers 2]

The data: ``Engine.model_inputs`` plays the hands of ``marjj`` (seat 0) against simple, marjj, search,
gin, greedy and defensive in turn under ``eaai`` rules (``tools/calibrate_model.py``'s ``collect``) and
keeps, at every draw decision of ``marjj``, what it had seen and the opponent's actual hand, whose
least deadwood is the target.

The network reads what the player has seen (the order of ``reader.pxi``'s ``guess_inputs``): five
masks of 52 cards (the opponent's discards, the face-up cards it refused, took and holds, and the cards
the player sees elsewhere: its own hand and the pile), then the hand's draws d / 30 and (d / 30)²,
d at most 30. One hidden layer of ReLUs gives the deadwood / 10. The fit: Adam (learning rate 1e-3,
cosine schedule, batches of 1,024) on the smooth L1 loss, torch seeded and on one thread, so the same
arguments give the same file. It prints, on held-out hands of another seed, the mean absolute error of
the network's guess (rounded as ``reader`` rounds it) and of the linear guess ``reader`` used before
(``reader(guess=0)``), after the hand's first two draws.

The shipped file comes from the defaults: about 15 minutes on two cores for the data, two for the fit.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
import gincore  # noqa: E402
from calibrate_model import card_bits, collect  # noqa: E402

OPPONENTS = ("simple", "marjj", "search", "gin", "greedy", "defensive")
OUT = Path(__file__).resolve().parent.parent / "src" / "gincore" / "reader_guess.npz"
VALUES = np.array([min(card % 13 + 1, 10) for card in range(52)], dtype=np.float64)
# The linear guess (reader(guess=0)): its nine weights, as src/gincore/_gin/strategies/reader.pxi holds them.
LINEAR_WEIGHTS = np.array([-18.87, -3.24, 2.25, -1.56, -0.32, -1.29, -0.38, 6.97, -0.14])


def inputs(views: dict[str, np.ndarray]) -> np.ndarray:
    """The network's inputs of each view, one float32 row each."""
    masks = (views["discarded"], views["passed"], views["took"] | views["holds"], views["holds"],
             views["mine"] | views["pile"])
    draws = np.minimum(views["turns"], 30)[:, None] / 30.0
    return np.concatenate([card_bits(mask) for mask in masks] + [draws, draws ** 2], axis=1).astype(np.float32)


def linear_guess(views: dict[str, np.ndarray]) -> np.ndarray:
    """The linear guess of each view (``guessed_deadwood`` with ``guess=0``), rounded as reader rounds it."""
    return np.maximum(1, np.floor(linear_value(views) + 0.5))


def linear_value(views: dict[str, np.ndarray]) -> np.ndarray:
    """The linear guess of each view before rounding."""
    def count(mask: np.ndarray) -> np.ndarray:
        return card_bits(mask).sum(axis=1).astype(float)

    def value(mask: np.ndarray) -> np.ndarray:
        return (card_bits(mask) * VALUES).sum(axis=1)

    draws = np.minimum(views["turns"], 30).astype(float)
    discards = count(views["discarded"])
    numbers = np.column_stack([
        np.ones_like(draws), draws / 2, draws * draws / 40, count(views["holds"]), count(views["took"]), discards,
        count(views["passed"]), np.where(discards > 0, value(views["discarded"]) / np.maximum(discards, 1), 0),
        value(views["holds"])])
    return numbers @ LINEAR_WEIGHTS


def rounded(network: torch.nn.Module, x: torch.Tensor) -> np.ndarray:
    """The network's guesses as reader rounds them: at least 1."""
    with torch.no_grad():
        return np.maximum(1, np.floor(10 * network(x)[:, 0].double().numpy() + 0.5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="the weights' file (default: the shipped one)")
    parser.add_argument("--hands", type=int, default=400_000, help="hands to fit on (default %(default)s)")
    parser.add_argument("--seed", type=int, default=303)
    parser.add_argument("--test-hands", type=int, default=12_000, help="held-out hands (default %(default)s)")
    parser.add_argument("--test-seed", type=int, default=202)
    parser.add_argument("--hidden", type=int, default=64, help="the hidden layer's width (at most 256)")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2, help="processes collecting the hands")
    options = parser.parse_args()
    if not 1 <= options.hidden <= 256 or options.hands < len(OPPONENTS) or options.test_hands < len(OPPONENTS):
        parser.error("--hidden takes 1 to 256; --hands and --test-hands at least one hand per opponent")
    start = time.time()
    fit = collect("eaai", "marjj", OPPONENTS, options.hands, options.seed, options.workers)
    held = collect("eaai", "marjj", OPPONENTS, options.test_hands, options.test_seed, options.workers)
    print(f"{len(fit['hand']):,} views to fit on, {len(held['hand']):,} held out ({time.time() - start:.0f} s)",
          flush=True)
    x, x_held = torch.from_numpy(inputs(fit)), torch.from_numpy(inputs(held))
    target = torch.from_numpy(gincore.deadwood_many(fit["opponent"]).astype(np.float32)) / 10
    truth = gincore.deadwood_many(held["opponent"]).astype(float)
    late = held["turns"] >= 2
    torch.manual_seed(options.seed)
    torch.set_num_threads(1)
    network = torch.nn.Sequential(torch.nn.Linear(x.shape[1], options.hidden), torch.nn.ReLU(),
                                  torch.nn.Linear(options.hidden, 1))
    optimiser = torch.optim.Adam(network.parameters(), lr=1e-3)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, options.epochs)
    for epoch in range(options.epochs):
        order = torch.randperm(len(x))
        for first in range(0, len(x), 1024):
            batch = order[first:first + 1024]
            loss = torch.nn.functional.smooth_l1_loss(network(x[batch])[:, 0], target[batch])
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
        error = np.abs(rounded(network, x_held) - truth)[late].mean()
        print(f"epoch {epoch + 1}: held-out mean absolute error {error:.2f}", flush=True)
    hidden, output = network[0], network[2]
    arrays = {"hidden_weights": hidden.weight, "hidden_biases": hidden.bias, "output_weights": output.weight[0],
              "output_bias": output.bias}
    np.savez(options.out, **{name: value.detach().numpy().astype(np.float32) for name, value in arrays.items()})
    error, linear = (np.abs(guess - truth)[late].mean() for guess in (rounded(network, x_held), linear_guess(held)))
    print(f"held out, after the first two draws: mean absolute error {error:.2f} (the linear guess: {linear:.2f});"
          f" wrote {options.out} ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
