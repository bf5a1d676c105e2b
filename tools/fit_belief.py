"""Experiment: fit the belief network that ``reader``'s ``belief`` parameter reads (``_gin/belief.pxi``).

Usage: python tools/fit_belief.py --out belief.npz [--hands 400000] [--seed 303] [--test-hands 12000]
                                  [--test-seed 202] [--hidden 256] [--layers 2] [--epochs 10]

The data are the opponent model's (``tools/calibrate_model.py``): at every draw decision of ``marjj``
(seat 0) against simple, marjj, search, reader, gin and greedy in turn, under ``eaai`` rules, what it
had seen and the opponent's actual hand. The network reads five card masks (the opponent's discards,
the face-up cards it refused, took, and holds, and the cards the player sees elsewhere) and the hand's
draws (d / 30 and its square, d at most 30); it gives each card's log-odds of being in the opponent's
hand (a Bernoulli log-likelihood over the unknown cards) and the opponent's deadwood / 10 (a smooth L1
loss, weight 0.1). It prints, on the held-out hands, the log-loss of the uniform odds, of the opponent
model and of the network, and the mean absolute error of ``reader``'s linear deadwood guess and of the
network's, after the hand's first two draws. The file holds ``w0, b0, w1, b1, ...`` (weights (out, in)),
which ``GINCORE_BELIEF=FILE`` loads in this experimental build (``gincore/__init__.py``).
The networks measured in docs/champion.md were fitted by this script's forerunner on the same data
(these defaults' hands and seeds), with the same network and training: the one with the deadwood
output as here (``reader:512:3:0:50:B`` with B = 4 and 5), and one without it, the 52 card outputs alone
(B = 1 and 2). About 15 minutes on two cores for the data, 7 for the fit on one.
"""
from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(__file__))
from calibrate_model import card_bits, collect, model_table  # noqa: E402

import gincore._melds  # noqa: E402

EPS = 1e-6
OPPONENTS = "simple,marjj,search,reader,gin,greedy"
VALUES = np.array([min(card % 13 + 1, 10) for card in range(52)], dtype=np.float64)
GUESS_WEIGHTS = np.array([-18.87, -3.24, 2.25, -1.56, -0.32, -1.29, -0.38, 6.97, -0.14])  # reader.pxi's


def inputs(data: dict[str, np.ndarray]) -> tuple[np.ndarray, ...]:
    """The network's inputs, the unknown cards, the opponent's cards, and its deadwood."""
    masks = [data["discarded"], data["passed"], data["took"] | data["holds"], data["holds"], data["mine"] | data["pile"]]
    draws = np.minimum(data["turns"], 30)[:, None] / 30.0
    x = np.concatenate([card_bits(mask) for mask in masks] + [draws, draws ** 2], axis=1).astype(np.float32)
    unknown = ~card_bits(data["mine"] | data["pile"] | data["holds"])
    deadwood = gincore._melds.deadwood_many(data["opponent"]).astype(np.float32)
    return x, unknown, card_bits(data["opponent"]), deadwood


def linear_guess(data: dict[str, np.ndarray]) -> np.ndarray:
    """``reader``'s guessed_deadwood on the views."""
    draws = np.minimum(data["turns"], 30).astype(float)
    count = lambda mask: card_bits(mask).sum(1).astype(float)  # noqa: E731
    value = lambda mask: (card_bits(mask) * VALUES).sum(1)  # noqa: E731
    discards = count(data["discarded"])
    mean_value = np.where(discards > 0, value(data["discarded"]) / np.maximum(discards, 1), 0)
    features = np.stack([np.ones_like(draws), draws / 2, draws ** 2 / 40, count(data["holds"]), count(data["took"]),
                         discards, count(data["passed"]), mean_value, value(data["holds"])], 1)
    return np.maximum(1, np.floor(features @ GUESS_WEIGHTS + 0.5))


def log_loss(p: torch.Tensor, unknown: torch.Tensor, truth: torch.Tensor) -> torch.Tensor:
    p = p.clamp(EPS, 1 - EPS)
    return -(torch.where(truth, p.log(), (1 - p).log()) * unknown).sum() / unknown.sum()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", required=True)
    parser.add_argument("--hands", type=int, default=400_000)
    parser.add_argument("--seed", type=int, default=303)
    parser.add_argument("--test-hands", type=int, default=12_000)
    parser.add_argument("--test-seed", type=int, default=202)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--epochs", type=int, default=10)
    args = parser.parse_args()
    start = time.time()
    train = collect("eaai", "marjj", OPPONENTS.split(","), args.hands, args.seed, 2)
    test = collect("eaai", "marjj", OPPONENTS.split(","), args.test_hands, args.test_seed, 2)
    print(f"{len(train['hand']):,} views to fit, {len(test['hand']):,} held out ({time.time() - start:.0f} s)", flush=True)
    x, u, t, dw = (torch.from_numpy(a) for a in inputs(train))
    xt, ut, tt, dwt = (torch.from_numpy(a) for a in inputs(test))
    late = torch.from_numpy(test["turns"] >= 2)
    need = torch.from_numpy((test["size"] - card_bits(test["holds"]).sum(1)).astype(np.float32))
    uniform = (need / ut.sum(1))[:, None].expand(-1, 52)
    print(f"held out: log-loss uniform {log_loss(uniform, ut, tt):.4f}, opponent model "
          f"{log_loss(torch.from_numpy(model_table(test, None)), ut, tt):.4f}; deadwood MAE of the linear guess "
          f"{np.abs(linear_guess(test) - dwt.numpy())[late.numpy()].mean():.2f}", flush=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    layers: list[torch.nn.Module] = []
    width = x.shape[1]
    for _ in range(args.layers):
        layers += [torch.nn.Linear(width, args.hidden), torch.nn.ReLU()]
        width = args.hidden
    net = torch.nn.Sequential(*layers, torch.nn.Linear(width, 53))
    optimiser = torch.optim.Adam(net.parameters(), lr=1e-3)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, args.epochs)
    for epoch in range(args.epochs):
        order = torch.randperm(len(x))
        for i in range(0, len(x), 1024):
            batch = order[i:i + 1024]
            out = net(x[batch])
            loss = log_loss(torch.sigmoid(out[:, :52]), u[batch], t[batch]) \
                + 0.1 * torch.nn.functional.smooth_l1_loss(out[:, 52], dw[batch] / 10)
            optimiser.zero_grad()
            loss.backward()
            optimiser.step()
        schedule.step()
        with torch.no_grad():
            out = net(xt)
        print(f"epoch {epoch}: held-out log-loss {log_loss(torch.sigmoid(out[:, :52]), ut, tt):.4f}, deadwood MAE "
              f"{(10 * out[:, 52] - dwt).abs()[late].mean():.2f}", flush=True)
    linear = [module for module in net if isinstance(module, torch.nn.Linear)]
    np.savez(args.out, **{f"{kind}{i}": getattr(module, name).detach().numpy()
                          for i, module in enumerate(linear) for kind, name in (("w", "weight"), ("b", "bias"))})
    print(f"wrote {args.out} ({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
